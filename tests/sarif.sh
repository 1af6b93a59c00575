#!/usr/bin/env bash
# Findings as SARIF (--sarif of run, shot and diff), each log checked against the SARIF 2.1.0
# schema and as code scanning reads it (sarif_check.py): a plain kernel's findings at their .cl
# lines, errors, a benign race a note (an error under --fail-on benign), a clean kernel none; a
# variant's observed violations, hazards (warnings, errors under --fail-on hazards) and advice
# (notes) at its kernel's lines; a shot's; diff's verdict. Also: what run prints is the same
# with --sarif, the JSON findings name their kind in words, and a bad --sarif is one line and
# exit 2. Exit 0 passed, 1 failed, 77 without OpenCL, OpenGL or python3-jsonschema (in CI,
# CI=true, a failure).
# usage: sarif.sh TILESCOPE SOURCE_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # python3 itself (lib.sh)
ts=$(realpath "$1") src=$(realpath "$2")
schema=$src/tests/sarif/sarif-schema-2.1.0.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset DISPLAY WAYLAND_DISPLAY
export SDL_VIDEODRIVER=offscreen
fails=0 passes=0 skipped=""
check() { # check NAME CONDITION-COMMAND...
  local name=$1
  shift
  if "$@"; then passes=$((passes + 1)); else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
skip() { # skip WHAT: a failure in CI
  if [[ ${CI:-} == true ]]; then echo "FAIL: $1 in CI"; fails=$((fails + 1)); else skipped="$skipped; $1"; fi
}
valid() { # valid FILE ARGS...: the log checked (its problems printed)
  python3 "$src/tests/sarif_check.py" "$schema" "$@"
}
python3 "$src/tests/sarif_check.py" "$schema" /dev/null >/dev/null 2>&1
[[ $? -eq 77 ]] && { [[ ${CI:-} == true ]] && { echo "FAIL: no python3-jsonschema in CI"; exit 1; }
                     echo "skipped: python3-jsonschema is not installed"; exit 77; }
cd "$src" || exit 2
k=assets/kernels

opencl=1
"$ts" list 2>/dev/null | grep -A1 '^OpenCL devices:' | grep -q '^  none:' && opencl=0
if [[ $opencl == 1 ]]; then
  # a plain kernel: three findings at their lines, errors; the run's exit status as without
  "$ts" run --kernel-file $k/plain/broken_nobarrier.cl --observe --sarif "$tmp/nb.sarif" >"$tmp/out" 2>&1
  rc=$?
  check "plain findings: exit 1 ($rc), wrote it" bash -c "[[ $rc -eq 1 ]] && grep -qx 'wrote $tmp/nb.sarif' '$tmp/out'"
  check "plain findings: valid, 3 results at .cl lines" valid "$tmp/nb.sarif" --cl --results 3 --levels error
  check "plain findings: the lines as printed, line 31's properties" python3 - "$tmp/nb.sarif" "$tmp/out" <<'PY'
import json, sys
log = json.load(open(sys.argv[1])); out = open(sys.argv[2]).read().split("\n")
res = log["runs"][0]["results"]
ok = all(r["message"]["text"] in out for r in res)
r = [r for r in res if r["ruleId"] == "uninitialised"][0]
p = r["properties"]
ok = ok and r["locations"][0]["physicalLocation"]["region"]["startLine"] == 31
ok = ok and p["kind"] == "uninitialised" and p["kernel"] == "gauss_tiled" and p["count"] > 0
ok = ok and p["work_group"].startswith("(") and p["work_item"].startswith("(")
ok = ok and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == \
    "assets/kernels/plain/broken_nobarrier.cl"
sys.exit(0 if ok else 1)
PY
  # the JSON findings: kinds in words, the number beside them
  "$ts" run --kernel-file $k/plain/broken_nobarrier.cl --observe --json >"$tmp/nb.json" 2>/dev/null
  check "run --json: findings' kinds are words" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
f = j["findings"]
sys.exit(0 if f and all(isinstance(x["kind"], str) and isinstance(x["kind_id"], int) for x in f)
         and {x["kind"] for x in f} == {"race_local", "uninitialised"}
         and all(k in j["counts"] for k in ("race_local", "uninitialised", "benign_race")) else 1)' "$tmp/nb.json"
  # a clean kernel: a log with no result
  "$ts" run --kernel-file $k/plain/conv2d.cl --observe --sarif "$tmp/clean.sarif" >/dev/null 2>&1
  rc=$?
  check "clean plain kernel: exit 0 ($rc), no result" bash -c "[[ $rc -eq 0 ]] && python3 '$src/tests/sarif_check.py' '$schema' '$tmp/clean.sarif' --results 0"
  # a benign race: every work-item that finds a negative value raises the same flag (as an
  # Oclgrind simulator file launches it)
  cat >"$tmp/flag.cl" <<'CL'
__kernel void flag(__global const int *values, __global int *any_negative)
{
  if (values[get_global_id(0)] < 0)
    *any_negative = 1;
}
CL
  printf 'flag.cl\nflag\n8 1 1\n4 1 1\n<size=32> 3 -1 4 -1 5 -9 2 -6\n<size=4 fill=0 dump>\n' >"$tmp/flag.sim"
  "$ts" run --sim "$tmp/flag.sim" --observe --sarif "$tmp/benign.sarif" >"$tmp/out" 2>&1
  rc=$?
  check "benign race: exit 0 ($rc: $(grep -c 'benign race' "$tmp/out") lines), a note" bash -c "[[ $rc -eq 0 ]] && python3 '$src/tests/sarif_check.py' '$schema' '$tmp/benign.sarif' --cl --results + --levels note"
  "$ts" run --sim "$tmp/flag.sim" --observe --fail-on benign --sarif "$tmp/benign2.sarif" >/dev/null 2>&1
  rc=$?
  check "benign race, --fail-on benign: exit 1 ($rc), an error" bash -c "[[ $rc -eq 1 ]] && python3 '$src/tests/sarif_check.py' '$schema' '$tmp/benign2.sarif' --cl --results + --levels error"
  # a variant observed: its violations at its kernel's line (the tile function's)
  "$ts" run --kernel-file $k/box_short_halo.cl --observe --sarif "$tmp/halo.sarif" >/dev/null 2>&1
  rc=$?
  check "observed variant: exit 1 ($rc)" test $rc -eq 1
  check "observed variant: valid, errors at .cl lines" valid "$tmp/halo.sarif" --cl --results + --levels error
  check "observed variant: at the tile function, line 11" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"]
sys.exit(0 if all(x["ruleId"] == "observed_footprint" and x["properties"]["thread"] and
  x["locations"][0]["physicalLocation"]["region"] == {"startLine": 11, "startColumn": 13}
  for x in r) else 1)' "$tmp/halo.sarif"
else
  skip "no OpenCL device: the plain kernels and the observed variant"
fi

# a variant's hazards (warnings; errors under --fail-on hazards) and advice (notes), the text
# the same as without --sarif
"$ts" run --variant integral --pattern none --backend cpu >"$tmp/plain.txt" 2>&1
"$ts" run --variant integral --pattern none --backend cpu --sarif "$tmp/hz.sarif" >"$tmp/hz.txt" 2>&1
rc=$?
check "hazards: exit 0 ($rc), the same lines and one more" bash -c "[[ $rc -eq 0 ]] && diff <(grep -v 'cpu model' '$tmp/plain.txt') <(grep -v 'cpu model\|^wrote ' '$tmp/hz.txt') >/dev/null && grep -qx 'wrote $tmp/hz.sarif' '$tmp/hz.txt'"
check "hazards: valid, warnings and notes at .cl lines" valid "$tmp/hz.sarif" --cl --results 10 --levels warning,note
"$ts" run --variant integral --pattern none --backend cpu --fail-on hazards --json --sarif "$tmp/hz2.sarif" >"$tmp/hz2.json" 2>/dev/null
rc=$?
check "hazards, --fail-on hazards --json: exit 1 ($rc), errors, stdout the JSON alone" bash -c "[[ $rc -eq 1 ]] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$tmp/hz2.json' && python3 '$src/tests/sarif_check.py' '$schema' '$tmp/hz2.sarif' --cl --results 10 --levels error,note"
"$ts" run --variant integral --backend cpu --sarif "$tmp/ok.sarif" >/dev/null 2>&1
check "a run under its own pattern: the advice alone, notes" valid "$tmp/ok.sarif" --cl --results + --levels note

# diff: a result when the images differ, none when they are the same
"$ts" run --variant box2d --backend cpu -o "$tmp/box.png" >/dev/null 2>&1
"$ts" diff --sarif "$tmp/diff.sarif" assets/chart.png "$tmp/box.png" >/dev/null 2>&1
rc=$?
check "diff, different: exit 1 ($rc), one error" bash -c "[[ $rc -eq 1 ]] && python3 '$src/tests/sarif_check.py' '$schema' '$tmp/diff.sarif' --results 1 --levels error"
"$ts" diff --json --sarif "$tmp/same.sarif" "$tmp/box.png" "$tmp/box.png" >"$tmp/same.json" 2>&1
rc=$?
check "diff, the same: exit 0 ($rc), no result, the JSON alone on stdout" bash -c "[[ $rc -eq 0 ]] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$tmp/same.json' && python3 '$src/tests/sarif_check.py' '$schema' '$tmp/same.sarif' --results 0"

# shot: a plain kernel's findings, or the run's hazards and advice
if "$ts" shot -o "$tmp/probe.png" --backend cpu --size 640x400 >"$tmp/log" 2>&1; then
  "$ts" shot --variant integral --pattern none --backend cpu --size 640x400 -o "$tmp/s.png" --sarif "$tmp/shot.sarif" >"$tmp/out" 2>&1
  rc=$?
  check "shot: exit 0 ($rc: $(tail -1 "$tmp/out")), hazards and advice" bash -c "[[ $rc -eq 0 ]] && python3 '$src/tests/sarif_check.py' '$schema' '$tmp/shot.sarif' --cl --results + --levels warning,note"
  if [[ $opencl == 1 ]]; then
    "$ts" shot --kernel-file $k/plain/broken_halo.cl --size 640x400 -o "$tmp/p.png" --sarif "$tmp/pshot.sarif" >"$tmp/out" 2>&1
    rc=$?
    check "shot of a plain kernel: exit 0 ($rc: $(tail -1 "$tmp/out")), its finding" bash -c "[[ $rc -eq 0 ]] && python3 '$src/tests/sarif_check.py' '$schema' '$tmp/pshot.sarif' --cl --results 1 --levels error"
  fi
elif grep -q "no viewer\|unknown command" "$tmp/log"; then
  : # a build without the viewer has no shot
else
  skip "no OpenGL: shot"
fi

# bad --sarif: one line naming it, exit 2, nothing written
"$ts" run --variant box2d --backend cpu --sarif "$tmp/nosuch/x.sarif" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--sarif in no folder: exit 2 ($rc), one line naming it ($(cat "$tmp/err"))" bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/err') -eq 1 ]] && grep -q 'x.sarif' '$tmp/err'"
"$ts" run --variant box2d --backend cpu -o "$tmp/same.png" --sarif "$tmp/same.png" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--sarif the same file as -o: exit 2 ($rc: $(cat "$tmp/err"))" bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/err') -eq 1 ]] && grep -q -- '--sarif' '$tmp/err' && [[ ! -e '$tmp/same.png' ]]"
"$ts" diff --sarif "$tmp/d.sarif" nosuch.png "$tmp/box.png" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "diff of a missing image: exit 2 ($rc), no log" bash -c "[[ $rc -eq 2 && ! -e '$tmp/d.sarif' ]]"

echo "sarif: $passes passed, $fails failed${skipped:+ (skipped${skipped})}"
[[ $fails -gt 0 ]] && exit 1
[[ -n $skipped ]] && exit 77
exit 0
