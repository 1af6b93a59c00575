#!/usr/bin/env python3
"""Measures tilescope's verdicts against Oclgrind's own kernel test suite.

Each case's .sim is given unmodified to `tilescope run --observe --sim FILE.sim` (from the
case's folder, as Oclgrind's runner does). A case agrees when tilescope reports the same set of
kinds of finding as the case's .ref file lists (ERROR lines, classified by their text), and its
dump matches the .ref's EXACT and MATCH lines. Counts and order are not compared: Oclgrind
counts a race once per pair of work-item and instruction, tilescope once per source line.

usage: oclgrind-suite.py [--oclgrind] [--all] TOOL SUITE_DIR [CASE...]
  SUITE_DIR is Oclgrind's tests/kernels folder (its TESTS file lists the cases), or any
  folder of cases (each NAME.sim with NAME.ref beside it: tests/sim/ holds the project's own).
  --oclgrind: TOOL is oclgrind-kernel, run as Oclgrind's own runner runs it (data races and
  uninitialised values checked), and its messages classified the same way: the .ref files of
  a folder of one's own are checked to be Oclgrind's verdicts too.
  --all: exit 1 unless every case agrees (a test); else exit 0 (a measurement).
  --differs FILE: as --all, but the cases FILE lists are expected to differ: a line is the
  case's name, the kinds tilescope reports instead (comma-separated, - for none), and the
  reason; such a case passes when tilescope reports exactly those kinds, and one that agrees
  with its .ref fails too: the list stays true.
Prints one line per case and the agreement.
"""
import json
import os
import re
import subprocess
import sys

# Oclgrind's message first lines (and .ref ERROR texts, which are their prefixes), by kind.
REF_KINDS = [
    (r"data race at local memory", "race.local"),
    (r"data race at global memory", "race.global"),
    (r"^Invalid (read|write) of size", "oob"),
    (r"exceeds static array size", "oob.private"),
    (r"^Invalid (read from write-only|write to read-only) buffer", "access"),
    (r"^Uninitialized", "uninit"),
    (r"^Controlflow depends on uninitialized|^Instruction depends on an uninitialized", "uninit"),
    (r"^Work-group divergence detected \(barrier\)", "diverge"),
    (r"^Work-group divergence detected \(async copy\)", "diverge.async"),
    (r"^Invalid wait event|^Work-item finished without waiting", "event"),
    (r"not aligned|^Unaligned address", "align"),
]

# tilescope's --json counts, by the same kinds.
TS_KINDS = {
    "outside_buffer": "oob",
    "race_groups": "race.global",
    "race_global": "race.global",
    "race_local": "race.local",
    "uninitialised": "uninit",
    "barrier_divergence": "diverge",
    "footprint": "footprint",
    "tile": "tile",
    "benign_race": None,  # a note: Oclgrind reports none
    "private_bounds": "oob.private",
    "access_mode": "access",
    "misaligned": "align",
    "wait_event": "event",
    "copy_divergence": "diverge.async",
    "forward_progress": "progress",
}


def classify(text):
    for pattern, kind in REF_KINDS:
        if re.search(pattern, text):
            return kind
    return "other:" + text


def cases(suite, names):
    if names:
        return names
    if not os.path.exists(os.path.join(suite, "TESTS")):
        return sorted(f[:-4] for f in os.listdir(suite) if f.endswith(".sim"))
    with open(os.path.join(suite, "TESTS")) as f:
        listed = [line.split()[0] for line in f if line.strip() and not line.startswith("#")]
    return [c for c in listed if not c.startswith("interactive/")]


def run_tilescope(tool, folder, name):
    """The kinds tilescope reports and the lines after its report (printf, dumps)."""
    p = subprocess.run([tool, "run", "--observe", "--json", "--sim", name + ".sim"], cwd=folder,
                       capture_output=True, text=True, timeout=600)
    lines = p.stdout.split("\n")
    try:
        report = json.loads(lines[0]) if lines and lines[0].startswith("{") else None
    except ValueError:
        report = None
    if report is None:
        err = (p.stderr.strip().split("\n") or [""])[-1]
        return None, None, "no report (exit %d): %s" % (p.returncode, err)
    for line in p.stderr.split("\n"):  # run plain, not observed: no verdict to compare
        if line.startswith("tilescope run: --observe: "):
            return None, None, "not observed: " + line[26:]
    got = set()
    for key, count in report.get("counts", {}).items():
        if count and TS_KINDS.get(key):
            got.add(TS_KINDS[key])
    return got, (report.get("printed", "") + report.get("dumps", "")).split("\n"), None


def run_oclgrind(tool, folder, name):
    """The kinds oclgrind-kernel's messages name (their first lines) and its standard output."""
    cmd = [tool]
    with open(os.path.join(folder, name + ".sim")) as f:
        first = f.readline()
    if first.startswith("# ARGS:"):
        cmd += first[8:].split()
    env = dict(os.environ, OCLGRIND_DATA_RACES="1", OCLGRIND_UNINITIALIZED="1")
    p = subprocess.run(cmd + [name + ".sim"], cwd=folder, capture_output=True, text=True,
                       timeout=600, env=env)
    if p.returncode != 0:
        return None, None, "oclgrind-kernel exit %d: %s" % (p.returncode, p.stderr.strip()[:200])
    got, start = set(), True
    for line in p.stderr.split("\n"):
        if line == "":  # a message's own blank lines are a tab
            start = True
        elif start:
            got.add(classify(line))
            start = False
    return got, p.stdout.split("\n"), None


def compare_dump(ref_lines, out_lines):
    """The .ref's EXACT and MATCH lines against the dump's non-blank lines, in order."""
    out = [line for line in out_lines if line.strip()]
    i = 0
    for kind, text in ref_lines:
        if i >= len(out):
            return "the dump ends before '%s'" % text.strip()
        if kind == "EXACT" and out[i] != text:
            return "'%s' where the ref has '%s'" % (out[i].strip(), text.strip())
        if kind == "MATCH" and text not in out[i]:
            return "'%s' does not match '%s'" % (out[i].strip(), text.strip())
        i += 1
    if i < len(out):
        return "more dump than the ref: '%s'" % out[i].strip()
    return None


def run_case(ts, suite, case):
    folder = os.path.join(suite, os.path.dirname(case))
    name = os.path.basename(case)
    ref_kinds, dump_ref = [], []
    ref_path = os.path.join(folder, name + ".ref")
    if os.path.exists(ref_path):
        with open(ref_path) as f:
            for line in f.read().split("\n"):
                if not line.strip():
                    continue
                kind, text = line.split()[0], line[6:]
                if kind == "ERROR":
                    ref_kinds.append(classify(text))
                else:
                    dump_ref.append((kind, text))
    try:
        got, out, err = (run_oclgrind if OCLGRIND else run_tilescope)(ts, folder, name)
    except subprocess.TimeoutExpired:
        return False, "timed out", set(ref_kinds), set()
    if err:
        return False, err, set(ref_kinds), set()
    want = set(ref_kinds)
    why = None
    if got != want:
        missing, extra = sorted(want - got), sorted(got - want)
        why = "kinds: %s%s" % ("missed " + ",".join(missing) if missing else "",
                               (" " if missing else "") + ("extra " + ",".join(extra) if extra else ""))
    dump_why = compare_dump(dump_ref, out)
    if dump_why:
        why = (why + "; " if why else "") + "dump: " + dump_why
    return why is None, why or "", want, got


OCLGRIND = False


def main():
    global OCLGRIND
    args = sys.argv[1:]
    OCLGRIND = "--oclgrind" in args
    require = "--all" in args
    differs = {}
    if "--differs" in args:
        at = args.index("--differs")
        with open(args[at + 1]) as f:
            for l in f:
                if l.strip() and not l.startswith("#"):
                    name, kinds = l.split()[:2]
                    differs[name] = set() if kinds == "-" else set(kinds.split(","))
        del args[at:at + 2]
        require = True
    args = [a for a in args if a not in ("--oclgrind", "--all")]
    if len(args) < 2:
        sys.exit(__doc__)
    ts, suite = args[0], os.path.abspath(args[1])
    ts = os.path.abspath(ts) if os.path.exists(ts) else ts
    names = cases(suite, args[2:])
    agree, wrong = 0, 0
    for case in names:
        ok, why, want, got = run_case(ts, suite, case)
        agree += ok
        listed = differs.get(case)
        bad = ok if listed is not None else not ok
        if listed is not None and not ok and got != listed:
            bad = True
            why += "; tilescope's kinds %s, not the %s listed" % (
                ",".join(sorted(got)) or "-", ",".join(sorted(listed)) or "-")
        wrong += bad
        note = ""
        if require and bad:
            note = "  (FAIL: listed as differing)" if ok else "  (FAIL)"
        elif listed is not None:
            note = "  (listed as differing)"
        print("%-4s %-55s %s%s" % ("ok" if ok else "DIFF", case, why, note))
        sys.stdout.flush()
    who = "oclgrind-kernel agrees with the .ref files" if OCLGRIND else "tilescope agrees with Oclgrind"
    print("%s on %d of %d cases" % (who, agree, len(names)))
    if require and wrong:
        print("%d case(s) not as expected" % wrong)
        sys.exit(1)


if __name__ == "__main__":
    main()
