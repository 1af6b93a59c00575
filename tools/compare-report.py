#!/usr/bin/env python3
"""The report of tools/compare-halide.sh and tools/compare-opencv.sh: tilescope's fastest
variant of each filter beside the rival's time, over rounds that alternated the two.
usage: compare-report.py opencv|halide DIR   (DIR holds rival.N.json and ts.N.json, N = 1..)
       compare-report.py fastest opencv|halide TS.json   (the two fastest variants of each
                                                         filter compared, comma-separated)
       compare-report.py rival-fastest RIVAL.json   (Halide's best exact schedule of each
                                                     filter, separated by ';')
Round 1 benches every variant and the later rounds each filter's two fastest of round 1; of
those two, the report takes the one with the lower median over the rounds, so that one
noisy first round does not pick the variant. Each round's ratio is tilescope's median over
the rival's (the rival's best exact schedule, for Halide); the report gives the median of
the rounds' times, the median ratio and the rounds' range, since on a shared machine one
run's ratio moves by 2x."""
import glob, json, os, statistics, sys

# (rival JSON key, tilescope's filter name) of the filters each rival is compared on
FILTERS = {"opencv": (("box", "box 3x3"), ("gauss", "gauss"), ("integral", "integral image")),
           "halide": (("box", "box 3x3"), ("gauss", "gauss"))}


def fastest(ts, name, n=1):
    """The names of tilescope's n fastest variants of a filter in one bench --json."""
    mine = sorted((v for v in ts["variants"] if (v["filter"] or "").startswith(name)),
                  key=lambda v: v["median_ms"])
    return [v["name"] for v in mine[:n]]


def best_schedule(rival, key):
    """Halide's fastest schedule of a filter among those equal to tilescope's reference."""
    exact = [s for s in rival[key] if s["exact"]]
    if not exact:
        sys.exit(f"compare-halide.sh: no Halide schedule of {key} equals tilescope's reference")
    return min(exact, key=lambda s: s["ms"])


if sys.argv[1] == "rival-fastest":
    rival = json.load(open(sys.argv[2]))
    print(";".join(sorted({best_schedule(rival, key)["schedule"] for key, _ in FILTERS["halide"]})))
    sys.exit(0)
if sys.argv[1] == "fastest":
    rival_kind, ts = sys.argv[2], json.load(open(sys.argv[3]))
    print(",".join(",".join(fastest(ts, name, 2)) for _, name in FILTERS[rival_kind]))
    sys.exit(0)
rival_kind, folder = sys.argv[1], sys.argv[2]
n = len(glob.glob(os.path.join(folder, "ts.*.json")))
rounds = [(json.load(open(os.path.join(folder, f"rival.{i}.json"))),
           json.load(open(os.path.join(folder, f"ts.{i}.json")))) for i in range(1, n + 1)]
filters = FILTERS[rival_kind]


def rival_ms(rival, key):
    if rival_kind == "opencv":
        return rival[key], "OpenCV"
    best = best_schedule(rival, key)
    return best["ms"], best["schedule"]


rival0, ts0 = rounds[0]
print(f"CPU: {ts0['host_cpu']}; pocl's device: {ts0['device']}")
what = (f"OpenCV {rival0['opencv']}" if rival_kind == "opencv"
        else f"Halide {rival0['halide']} ({rival0['target']})")
print(f"{ts0['width']}x{ts0['height']}, {ts0['channels']} channel(s), {n} round(s) of medians of "
      f"{ts0['repeats']}, alternated; {what} with {rival0['threads']} threads")
print(f"{'filter':<15} {'fastest variant':<24} {'ms':>8} {'rival ms':>9} {'ratio':>7}  "
      f"{'rounds':<13} rival")
for key, name in filters:
    def times(variant):
        return [next(v["median_ms"] for v in ts["variants"] if v["name"] == variant)
                for _, ts in rounds]
    best = min(fastest(ts0, name, 2), key=lambda v: statistics.median(times(v)))
    mine, theirs, ratios, scheds = times(best), [], [], set()
    for (rival, _), ms in zip(rounds, mine):
        r, sched = rival_ms(rival, key)
        theirs.append(r)
        ratios.append(ms / r)
        scheds.add(sched)
    spread = f"{min(ratios):.2f}-{max(ratios):.2f}x" if n > 1 else "one round"
    print(f"{name:<15} {best:<24} {statistics.median(mine):>8.3f} {statistics.median(theirs):>9.3f} "
          f"{statistics.median(ratios):>6.2f}x  {spread:<13} {'; '.join(sorted(scheds))}")
