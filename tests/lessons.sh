#!/usr/bin/env bash
# The course in assets/lessons/ against its checkers (`tilescope lesson N FILE`): every
# solution for teachers passes (exit 0, "pass"), every starting file fails (exit 1, "not
# yet") with the first finding its page leads the student to, a few half-way answers get the
# finding that names what is left, and bad input (a missing file, a bad lesson number, a line
# the checker does not understand) is exit 2 and one line. Several files in one call (a
# class's answers) get a verdict each, one that cannot be checked (missing, crashing) costing
# that file only, and a count; --json gives the same as one JSON object. Lessons 1, 4, 5 and
# 6 run kernels on OpenCL: without a device they are skipped (exit 77), except in CI (CI=true).
# usage: lessons.sh TILESCOPE SOURCE_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # python3 itself (lib.sh)
ts=$(realpath "$1") src=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src" || exit 2
fails=0 passes=0
check() { # check NAME CONDITION-COMMAND...
  local name=$1
  shift
  if "$@"; then passes=$((passes + 1)); else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
have_cl=1
if ! "$ts" list 2>/dev/null | grep -q "^  0: "; then
  [[ ${CI:-} == true ]] && { echo "no OpenCL device in CI"; exit 1; }
  have_cl=0
fi
L=assets/lessons

# lesson N FILE EXIT FIRST-LINE-RE: the checker's exit code, its verdict line, and (for
# "not yet") its first finding, matched by an extended regular expression
lesson() {
  local n=$1 file=$2 want=$3 first=${4:-}
  "$ts" lesson "$n" "$file" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  check "lesson $n $file: exit $want ($rc: $(head -c 600 "$tmp/out" "$tmp/err"))" test $rc -eq "$want"
  if [[ $want == 0 ]]; then
    check "  says pass" grep -q "^lesson $n, .*: pass$" "$tmp/out"
  else
    check "  says not yet" grep -q "^lesson $n, .*: not yet$" "$tmp/out"
    check "  first finding /$first/ (got: $(sed -n 2p "$tmp/out"))" \
      bash -c "sed -n 2p '$tmp/out' | grep -Eq -- \"^- $first\""
  fi
}

# The list.
"$ts" lesson >"$tmp/list" 2>&1
check "lesson: exit 0" test $? -eq 0
check "  lists seven lessons" test "$(grep -Ec '^  [1-7]  0[1-7]-' "$tmp/list")" -eq 7
for d in "$L"/0[1-7]-*/; do
  check "$d has its page" test -s "$d/README.md"
  check "  and is in the list" grep -q " $(basename "$d") " "$tmp/list"
done

# Lessons 2 and 3: schedules of the integral image, on the CPU model.
lesson 2 $L/02-integral-pattern/start.txt 1 '\(-1,0\) missing: thread \(1,0\) reads the sums of the block to its left'
lesson 2 $L/solutions/02-integral-pattern.txt 0
printf 'pattern wavefront26\n' >"$tmp/wf26.txt"
lesson 2 "$tmp/wf26.txt" 1 '\(1,-1\) unneeded: no thread reads what is written by the block above-right, yet each thread waits for it; it costs 19 ticks \(98 with it, 79 without\)'
printf 'pattern vertical\n' >"$tmp/vert.txt"
lesson 2 "$tmp/vert.txt" 1 '\(0,-1\) missing: thread \(0,1\) reads the sums of the block above'
printf 'pattern wavefront\nwalk wavefront26zi\n' >"$tmp/drop.txt"
lesson 2 "$tmp/drop.txt" 1 '\(-1,0\) dropped: thread \(2,0\) reads the sums of the block to its left, but your walk dispatches that thread after it'
lesson 3 $L/03-thin-wave/start.txt 1 'your walk takes 158 ticks where the waits allow 69: from tick 5 it runs fewer threads than the waits allow \\(5 against 6; 7.6 a tick on average against 17.4\\)'
lesson 3 $L/solutions/03-thin-wave.txt 0
printf 'walk wavefront26x\n' >"$tmp/w26x.txt"
lesson 3 "$tmp/w26x.txt" 0
printf 'walk wavefront26zi\n' >"$tmp/wzi.txt"
lesson 3 "$tmp/wzi.txt" 1 '\(-1,0\) dropped'

# --json, one file: one JSON object on stdout, its verdict and the line after it.
"$ts" lesson 3 --json $L/solutions/03-thin-wave.txt >"$tmp/json" 2>"$tmp/err"
rc=$?
check "lesson 3 --json, the solution: exit 0 ($rc: $(head -c 600 "$tmp/json" "$tmp/err"))" test $rc -eq 0
check "  one JSON object saying pass" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["lesson"] == 3 and d["title"] == "a walk that keeps the wavefront thin", d
assert d["pass"] == 1 and d["total"] == 1, d
f = d["files"]
assert len(f) == 1 and f[0]["file"] == sys.argv[2] and f[0]["verdict"] == "pass", f
assert f[0]["lines"] == [] and f[0]["more"].startswith("pattern wavefront") and f[0]["error"] == "", f
' "$tmp/json" $L/solutions/03-thin-wave.txt

# Bad input: exit 2, one line naming what is at fault, nothing on stdout.
bad() { # bad NAME RE ARGS...: exit 2 and one line on stderr matching RE
  local name=$1 re=$2
  shift 2
  "$ts" lesson "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  check "$name: exit 2 ($rc: $(cat "$tmp/err"))" test $rc -eq 2
  check "  one line: /$re/ ($(cat "$tmp/err"))" \
    bash -c "test \$(wc -l <'$tmp/err') -eq 1 && grep -Eq -- \"$re\" '$tmp/err' && test ! -s '$tmp/out'"
}
bad "a missing file" "^tilescope lesson: $tmp/nothing.cl: cannot open it$" 1 "$tmp/nothing.cl"
bad "lesson 0" "^tilescope lesson: '0': no such lesson \(1 to 7" 0 "$L/01-halo/start.cl"
bad "lesson 8" "^tilescope lesson: '8': no such lesson" 8 "$L/01-halo/start.cl"
bad "lesson x" "^tilescope lesson: 'x': no such lesson" x "$L/01-halo/start.cl"
bad "no file" "^tilescope lesson 3: give the file to check" 3
printf 'walk sideways\n' >"$tmp/sideways.txt"
bad "an unknown walk" "^tilescope lesson: $tmp/sideways.txt:1: walk: 'sideways' is not a walk" 3 "$tmp/sideways.txt"
printf 'walk wavefront\npattern none\n' >"$tmp/both.txt"
bad "a pattern in lesson 3" "^tilescope lesson: $tmp/both.txt:2: pattern: this lesson's file takes .walk NAME. only$" 3 "$tmp/both.txt"
printf '# nothing\n' >"$tmp/empty.txt"
bad "no pattern" "^tilescope lesson: $tmp/empty.txt: name a pattern" 2 "$tmp/empty.txt"

if [[ $have_cl == 1 ]]; then
  # Lesson 1: the halo. The starting file stages a tile one pixel short; fixing only R leaves
  # the declared halo one short, which the footprint check names.
  # (a finding names its least place, whichever group pocl's threads ran first)
  lesson 1 $L/01-halo/start.cl 1 'start.cl:[0-9]+: work-item \(0,0\) of work-group \(0,0\) reads element -57 of the __local array .tile., outside the array: the tile you stage is smaller than the window you read from it'
  lesson 1 $L/solutions/01-halo.cl 0
  sed 's/^#define R 1 .*/#define R 2/' $L/01-halo/start.cl >"$tmp/half.cl"
  lesson 1 "$tmp/half.cl" 1 'half.cl:1: work-item \([0-9]+,[0-9]+\) of work-group \([0-9]+,[0-9]+\) reads pixel \([0-9]+,[0-9]+\), 2 pixels outside its 16x16 tile, outside the halo you declared \(halo=1\): your halo is one pixel short'
  # Lesson 4: the transpose trick.
  lesson 4 $L/04-transpose/start.cl 1 'pass 2 \(box_cols\): work-item \(1,1\) of work-group \(1,1\) reads .tmp. down a column \(rows 16 to 18 of column 17\): that is vertical code'
  lesson 4 $L/solutions/04-transpose.cl 0
  # Lesson 5: the missing barrier; a barrier that fences only __global memory still races.
  lesson 5 $L/05-barrier/start.cl 1 'start.cl:[0-9]+: work-item \([0-9]+,[0-9]+\) of work-group \([0-9]+,[0-9]+\) (reads|writes) element [0-9]+ of the __local array .tile., which work-item \([0-9]+,[0-9]+\) of the same group also touches with no barrier between them'
  lesson 5 $L/solutions/05-barrier.cl 0
  sed 's/CLK_LOCAL_MEM_FENCE/CLK_GLOBAL_MEM_FENCE/' $L/solutions/05-barrier.cl >"$tmp/global.cl"
  lesson 5 "$tmp/global.cl" 1 'global.cl:[0-9]+: work-item .* of the same group also touches with no barrier between them'
  # A class's answers in one call: each file judged on its own, a missing one costing that
  # file only; a line naming each file, the findings under it, the count last; exit 2 (one
  # could not be checked). Then the same as one JSON object.
  three=("$L/05-barrier/start.cl" "$L/solutions/05-barrier.cl" "$tmp/absent.cl")
  "$ts" lesson 5 "${three[@]}" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  check "lesson 5, three files: exit 2 ($rc: $(head -c 600 "$tmp/out" "$tmp/err"))" test $rc -eq 2
  printf '%s\n' "${three[0]}: not yet" "${three[1]}: pass" "${three[2]}: cannot be checked: cannot open it" \
    "1 of 3 pass" >"$tmp/want"
  grep -v '^[- ] ' "$tmp/out" >"$tmp/heads"
  check "  a line for each file, in order, then the count (got: $(cat "$tmp/heads"))" cmp -s "$tmp/want" "$tmp/heads"
  check "  the findings under the start file" bash -c "grep -A1 -xF '${three[0]}: not yet' '$tmp/out' | grep -q '^- start.cl:[0-9]*: work-item'"
  check "  the error on stderr too ($(cat "$tmp/err"))" grep -qxF "tilescope lesson: $tmp/absent.cl: cannot open it" "$tmp/err"
  "$ts" lesson 5 --json "${three[@]}" >"$tmp/json" 2>"$tmp/err"
  rc=$?
  check "lesson 5 --json, three files: exit 2 ($rc: $(head -c 300 "$tmp/err"))" test $rc -eq 2
  check "  verdicts not yet, pass, error; pass 1, total 3 (got: $(head -c 600 "$tmp/json"))" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["lesson"] == 5 and d["pass"] == 1 and d["total"] == 3, d
f = d["files"]
assert [x["file"] for x in f] == sys.argv[2:], f
assert [x["verdict"] for x in f] == ["not yet", "pass", "error"], f
assert f[0]["lines"][0].startswith("start.cl:"), f[0]
assert f[1]["lines"] == [] and f[1]["more"].startswith("no finding"), f[1]
assert f[2]["error"] == "cannot open it" and f[2]["lines"] == [], f[2]
' "$tmp/json" "${three[@]}"
  check "  nothing on stderr ($(head -c 300 "$tmp/err"))" test ! -s "$tmp/err"
  # A barrier after the early return: right on the chart (its sides multiples of 16), not on
  # the second, odd size the checker also runs, where work-items of a group return early.
  awk '/^  barrier\(CLK_LOCAL_MEM_FENCE\);/ { next } { print } /^    return;/ { print "  barrier(CLK_LOCAL_MEM_FENCE);" }' \
    $L/solutions/05-barrier.cl >"$tmp/late.cl"
  lesson 5 "$tmp/late.cl" 1 'on a 637x479 image: late.cl:[0-9]+: the work-items of work-group \([0-9]+,[0-9]+\) take this branch apart, and the barrier at line [0-9]+ comes after it'
  # Lesson 6: the scoreboard in one launch. The races come from the observed reads and the
  # waits, whatever the device did with them; under none they are the built-in's 3461.
  lesson 6 $L/06-scoreboard/start.cl 1 'thread \(0,1\) reads the sums of thread \(0,0\), the block above, but no wait of your pattern \(vertical, which waits for the block to its left\) orders them'
  check "  counts the races" grep -q "^- 2291 reads race in all, in 1160 of 1200 threads$" "$tmp/out"
  lesson 6 $L/solutions/06-scoreboard.cl 0
  sed 's/pattern=vertical/pattern=none/' $L/06-scoreboard/start.cl >"$tmp/none.cl"
  lesson 6 "$tmp/none.cl" 1 'thread \(1,0\) reads the sums of thread \(0,0\), the block to its left'
  check "  3461 races, as run --exec device counts for the built-in" grep -q "^- 3461 reads race in all" "$tmp/out"
  sed 's/equals=integral //' $L/solutions/06-scoreboard.cl >"$tmp/noref.cl"
  lesson 6 "$tmp/noref.cl" 1 "the lesson's kernel computes the integral image"
  # Lesson 6 over several files: each kernel in a process of its own, so one that crashes
  # (a write 64 KB past its output) is that file's error and the next file is still judged.
  sed '/^inline void lesson_integral_tile/,/^{/{/^{/a\
  if (t.x == 0 \&\& t.y == 0) for (int i = 0; i < 65536; i++) ((__global uchar *)dst)[W * H * 4 + i] = 1;
}' $L/solutions/06-scoreboard.cl >"$tmp/crash.cl"
  six=("$L/06-scoreboard/start.cl" "$tmp/crash.cl" "$L/solutions/06-scoreboard.cl")
  "$ts" lesson 6 --json "${six[@]}" >"$tmp/json" 2>"$tmp/err"
  rc=$?
  check "lesson 6 --json, three files, one crashing: exit 2 ($rc: $(head -c 300 "$tmp/err"))" test $rc -eq 2
  check "  verdicts not yet, error, pass (got: $(head -c 900 "$tmp/json"))" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = d["files"]
assert [x["file"] for x in f] == sys.argv[2:], f
assert [x["verdict"] for x in f] == ["not yet", "error", "pass"], f
assert f[1]["error"], f[1]
assert d["pass"] == 1 and d["total"] == 3, d
' "$tmp/json" "${six[@]}"
  "$ts" lesson 6 "${six[@]}" >"$tmp/out" 2>"$tmp/err"
  check "  in text: the crash named for its file ($(grep crash "$tmp/out"))" \
    grep -qE "^$tmp/crash.cl: cannot be checked: crashed \((signal [0-9]+|AddressSanitizer)" "$tmp/out"
  check "  the count last" test "$(tail -n 1 "$tmp/out")" = "1 of 3 pass"
  # Lesson 7: a look-back whose tile is the group's id, checked with the groups started in
  # reverse, one at a time: the first to start waits for a tile no group can finish.
  lesson 7 $L/07-lookback/start.cl 1 'start.cl:[0-9]+: forward progress in integral_lookback: work-group \(39,29\) item \(0,0\) atomic on atomic_add\(&ready\[tile - 1\], 0\) at ready\[1198\], again and again.*take the tile from a ticket'
  check "  and only that (what follows a wait let go is not reported)" test "$(grep -c '^- ' "$tmp/out")" -eq 2
  lesson 7 assets/kernels/plain/integral_lookback.cl 0
  # A kernel that does not build, and a header mistake: exit 2.
  printf '// tilescope: plain\n__kernel void k(__global const uchar *in, __global uchar *out, int W, int H) { out[0] = in[0] }\n' >"$tmp/nobuild.cl"
  "$ts" lesson 5 "$tmp/nobuild.cl" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  check "a kernel that does not build: exit 2 ($rc: $(head -c 300 "$tmp/err"))" test $rc -eq 2
  check "  names the file" grep -q "nobuild.cl" "$tmp/err"
  printf '// tilescope: variant name=k equals=integral\n// tilescope: pass entry=k tile=16y16\n' >"$tmp/header.cl"
  bad "a header mistake" "^tilescope lesson: .*header.cl:2: tile: '16y16' is not WxH" 6 "$tmp/header.cl"
fi

echo "$passes checks passed, $fails failed"
[[ $fails -eq 0 ]] || exit 1
[[ $have_cl == 1 ]] || { echo "skipped: no OpenCL device (lessons 1, 4, 5, 6 and 7)"; exit 77; }
exit 0
