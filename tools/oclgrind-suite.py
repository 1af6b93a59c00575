#!/usr/bin/env python3
"""Measures tilescope's verdicts against Oclgrind's own kernel test suite.

Each case's .sim is given unmodified to `tilescope run --observe --sim FILE.sim` (from the
case's folder, as Oclgrind's runner does). A case agrees when tilescope reports the same set of
kinds of finding as the case's .ref file lists (ERROR lines, classified by their text), and its
dump matches the .ref's EXACT and MATCH lines. Counts and order are not compared: Oclgrind
counts a race once per pair of work-item and instruction, tilescope once per source line.

usage: oclgrind-suite.py TILESCOPE SUITE_DIR [CASE...]
  SUITE_DIR is Oclgrind's tests/kernels folder (its TESTS file lists the cases).
Prints one line per case and the agreement; exits 0 (a measurement, not a test).
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
}


def classify(text):
    for pattern, kind in REF_KINDS:
        if re.search(pattern, text):
            return kind
    return "other:" + text


def cases(suite, names):
    if names:
        return names
    with open(os.path.join(suite, "TESTS")) as f:
        listed = [line.split()[0] for line in f if line.strip() and not line.startswith("#")]
    return [c for c in listed if not c.startswith("interactive/")]


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
        p = subprocess.run([ts, "run", "--observe", "--json", "--sim", name + ".sim"], cwd=folder,
                           capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return False, "timed out", set(ref_kinds), set()
    lines = p.stdout.split("\n")
    report = None
    if lines and lines[0].startswith("{"):
        try:
            report = json.loads(lines[0])
        except ValueError:
            report = None
    if report is None:
        err = (p.stderr.strip().split("\n") or [""])[-1]
        return False, "no report (exit %d): %s" % (p.returncode, err), set(ref_kinds), set()
    got = set()
    for key, count in report.get("counts", {}).items():
        if count and TS_KINDS.get(key):
            got.add(TS_KINDS[key])
    want = set(ref_kinds)
    why = None
    if got != want:
        missing, extra = sorted(want - got), sorted(got - want)
        why = "kinds: %s%s" % ("missed " + ",".join(missing) if missing else "",
                               (" " if missing else "") + ("extra " + ",".join(extra) if extra else ""))
    dump_why = compare_dump(dump_ref, lines[1:])
    if dump_why:
        why = (why + "; " if why else "") + "dump: " + dump_why
    return why is None, why or "", want, got


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ts, suite = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    names = cases(suite, sys.argv[3:])
    agree = 0
    for case in names:
        ok, why, want, got = run_case(ts, suite, case)
        agree += ok
        print("%-4s %-55s %s" % ("ok" if ok else "DIFF", case, why))
        sys.stdout.flush()
    print("tilescope agrees with Oclgrind on %d of %d cases" % (agree, len(names)))


if __name__ == "__main__":
    main()
