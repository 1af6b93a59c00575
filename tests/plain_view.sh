#!/usr/bin/env bash
# A plain kernel in the viewer, headless: `shot --kernel-file K.cl` draws its observed run (the
# golden scenes check the pictures); a file that does not build is one error line and exit 2;
# a script plays on it and r runs it again (test_plain_view checks the reloads of an edited
# file); a click (or shot --pixel) watches an output pixel and lists its writers; the run is
# stepped like a schedule (shot --tick T, the keys that step a variant's); the commands that
# do not show a plain kernel say so.
# usage: plain_view.sh TILESCOPE SOURCE_DIR
set -u
ts=$(realpath "$1") src=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset DISPLAY WAYLAND_DISPLAY
export SDL_VIDEODRIVER=offscreen
fails=0 passes=0
check() { # check NAME CONDITION-COMMAND...
  local name=$1
  shift
  if "$@"; then passes=$((passes + 1)); else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
if ! "$ts" shot -o "$tmp/probe.png" --backend cpu --size 640x400 >"$tmp/log" 2>&1; then
  if grep -q "cannot open an OpenGL\|cannot start SDL" "$tmp/log"; then
    echo "skipped: no OpenGL here"; exit 77
  fi
fi
if ! "$ts" list 2>/dev/null | grep -q "^  0: "; then echo "skipped: no OpenCL device"; exit 77; fi
plain=$src/assets/kernels/plain

"$ts" shot --kernel-file "$plain/broken_nobarrier.cl" --hover 8,8 --size 640x400 \
  -o "$tmp/nb.png" >"$tmp/out" 2>&1
rc=$?
check "shot of a plain kernel ($(cat "$tmp/out"))" test $rc -eq 0 -a -s "$tmp/nb.png"

# A file that does not build: one line naming it, exit 2, no picture.
sed 's/barrier(CLK_LOCAL_MEM_FENCE);/barrier(CLK_LOCAL_MEM_FENCE) oops;/' "$plain/gauss_tiled.cl" >"$tmp/bad.cl"
"$ts" shot --kernel-file "$tmp/bad.cl" --size 640x400 -o "$tmp/bad.png" >"$tmp/out" 2>&1
rc=$?
check "a plain kernel that does not build: exit 2 ($rc)" test $rc -eq 2
check "  one line naming the file ($(cat "$tmp/out"))" \
  bash -c "[[ \$(wc -l <'$tmp/out') -eq 1 ]] && grep -q 'bad.cl:[0-9]*:' '$tmp/out'"
check "  no picture" test ! -e "$tmp/bad.png"

# A script plays on it; its report names the file, the runs taken and the findings (the
# reloads themselves: test_plain_view).
printf 'move 8 8\nreport\nkey r\nreport\n' >"$tmp/s.txt"
"$ts" shot --kernel-file "$plain/broken_nobarrier.cl" --size 640x400 --script "$tmp/s.txt" \
  -o "$tmp/s.png" >"$tmp/out" 2>&1
rc=$?
check "a script on a plain kernel ($(cat "$tmp/out"))" test $rc -eq 0
check "  its report: one run, three findings" grep -q "plain=broken_nobarrier.cl runs=1 findings=3 plain_error=0" "$tmp/out"
check "  r runs it again" grep -q "plain=broken_nobarrier.cl runs=2 findings=3 plain_error=0" "$tmp/out"

# A click on an output pixel runs it again watching that pixel: the report lists both
# work-items that write pixel (16,0) of broken_tile.cl; a click on it again stops watching.
printf 'report\nclick 16 0\nreport\nclick 16 0\nreport\n' >"$tmp/c.txt"
"$ts" shot --kernel-file "$plain/broken_tile.cl" --size 640x400 --script "$tmp/c.txt" \
  -o "$tmp/c.png" >"$tmp/out" 2>&1
rc=$?
check "a click on a plain kernel's pixel ($(cat "$tmp/out"))" test $rc -eq 0
check "  before: no pixel watched" grep -q "runs=1 findings=[0-9]* plain_error=0 watch=none" "$tmp/out"
check "  click 16 0: its two writers" \
  grep -q "runs=2 findings=[0-9]* plain_error=0 watch=(16,0) watch_lines=2 watch_writers=2" "$tmp/out"
check "  the same click again: none" grep -q "runs=3 findings=[0-9]* plain_error=0 watch=none" "$tmp/out"
printf 'report\n' >"$tmp/r.txt"
"$ts" shot --kernel-file "$plain/broken_tile.cl" --pixel 16,0 --size 640x400 -o "$tmp/p.png" \
  --script "$tmp/r.txt" >"$tmp/out" 2>&1
rc=$?
check "shot --pixel 16,0 ($(cat "$tmp/out"))" \
  bash -c "[[ $rc -eq 0 ]] && grep -q 'runs=1 .*watch=(16,0) watch_lines=2 watch_writers=2' '$tmp/out'"
for bad in "--pixel 16" "--pixel -1,0" "--pixel 1.5,2"; do
  # shellcheck disable=SC2086
  "$ts" shot --kernel-file "$plain/broken_tile.cl" $bad -o "$tmp/x.png" >"$tmp/out" 2>&1
  rc=$?
  check "shot $bad: one line, exit 2 ($(cat "$tmp/out"))" \
    bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/out') -eq 1 ]] && grep -q 'give X,Y' '$tmp/out'"
done
"$ts" shot --variant box2d --pixel 16,0 -o "$tmp/x.png" >"$tmp/out" 2>&1
rc=$?
check "shot --pixel without a plain kernel: one line, exit 2 ($(cat "$tmp/out"))" \
  bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/out') -eq 1 ]] && grep -q 'goes with a plain kernel' '$tmp/out'"

# Commands that show no plain kernel say so in one line.
"$ts" list --kernel-file "$plain/gauss_tiled.cl" >"$tmp/out" 2>&1
rc=$?
check "list refuses a plain kernel ($(cat "$tmp/out"))" \
  bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/out') -eq 1 ]] && grep -q 'runs with .tilescope run., .bench., .shot.' '$tmp/out'"
"$ts" shot --kernel-file "$plain/gauss_tiled.cl" --frames 0:2:1 -o "$tmp/f.png" >"$tmp/out" 2>&1
rc=$?
check "shot --frames refuses a plain kernel ($(cat "$tmp/out"))" \
  bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/out') -eq 1 ]]"

# Oclgrind's simulator files, shown: shot --sim and `tilescope FILE.sim` draw the launch its
# file gives, the buffer it dumps as a grid of elements; the report names the file and its
# finding.
printf 'report\n' >"$tmp/r.txt"
(cd "$src/tests/sim" && "$ts" shot --sim prefix_race.sim --size 640x400 --script "$tmp/r.txt" \
  -o "$tmp/sim.png") >"$tmp/out" 2>&1
rc=$?
check "shot --sim ($(cat "$tmp/out"))" test $rc -eq 0 -a -s "$tmp/sim.png"
check "  its report: the file, one run, one finding" grep -q "plain=prefix_race.sim runs=1 findings=1 plain_error=0" "$tmp/out"
mkdir "$tmp/open" && cp "$src/tests/sim/prefix_race.cl" "$src/tests/sim/prefix_race.sim" "$tmp/open/"
(cd "$tmp/open" && "$ts" prefix_race.sim --size 640x400) >"$tmp/out" 2>&1
rc=$?
check "tilescope FILE.sim opens it (no display: its screenshot) ($(cat "$tmp/out"))" \
  test $rc -eq 0 -a -s "$tmp/open/tilescope-shot.png"
"$ts" shot --sim "$tmp/absent.sim" -o "$tmp/no.png" >"$tmp/out" 2>&1
rc=$?
check "shot --sim of a missing file: exit 2, one line ($(cat "$tmp/out"))" \
  bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/out') -eq 1 ]] && grep -q absent.sim '$tmp/out'"
check "  no picture" test ! -e "$tmp/no.png"

# --order: the window's observed run in another legal order; a variant has none.
"$ts" shot --kernel-file "$plain/broken_tile.cl" --order reverse --size 640x400 -o "$tmp/rev.png" >"$tmp/out" 2>&1
rc=$?
check "shot --order reverse ($(cat "$tmp/out"))" test $rc -eq 0 -a -s "$tmp/rev.png"
"$ts" shot --order reverse --size 640x400 -o "$tmp/var.png" >"$tmp/out" 2>&1
rc=$?
check "--order with a variant: exit 2, one line ($(cat "$tmp/out"))" \
  bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/out') -eq 1 ]] && grep -q 'goes with a plain kernel' '$tmp/out'"

# The run stepped like a schedule, on its records' clock: shot --tick T shows the pass at tick
# T (what the groups not ended by then wrote is dark; the timeline's cursor is there), a tick
# past the end shows the end as a variant's does, and the end is the shot without --tick. One
# pocl thread: the records, so the pictures, are the same from run to run.
conv=$plain/conv2d.cl
cshot() { # cshot OUT ARGS...
  local out=$1
  shift
  POCL_MAX_PTHREAD_COUNT=1 "$ts" shot --kernel-file "$conv" --size 640x400 -o "$tmp/$out" "$@" \
    >"$tmp/out" 2>&1
}
printf 'report\nkey right\nreport\nkey home\nreport\nkey end\nreport\nkey left\nreport\n' >"$tmp/k.txt"
cshot keys.png --tick 10 --script "$tmp/k.txt"
rc=$?
n=$(grep -o 'plain_tick=[0-9]*/[0-9]*' "$tmp/out" | head -1 | cut -d/ -f2)
check "the ticks of conv2d's pass: two a group, 2400 ($n) ($(cat "$tmp/out"))" \
  bash -c "[[ $rc -eq 0 && '$n' == 2400 ]]"
check "  --tick 10, then right, home, end and left step it" bash -c \
  "grep -o 'plain_tick=[0-9]*/2400' '$tmp/out' | cut -d= -f2 | tr '\n' ' ' | grep -qx '10/2400 11/2400 0/2400 2400/2400 2399/2400 '"
cshot t10.png --tick 10
rc10=$?
cshot t2000.png --tick 2000
rc2000=$?
check "shot --tick 10 and --tick 2000 ($rc10, $rc2000)" test $rc10 -eq 0 -a $rc2000 -eq 0
check "  the two pictures differ" bash -c "! cmp -s '$tmp/t10.png' '$tmp/t2000.png'"
"$ts" diff --tolerance 0 "$tmp/t10.png" "$tmp/t2000.png" >"$tmp/out" 2>&1
d=$(sed -n 's/^[Dd]ifferent: \([0-9]*\) of.*/\1/p' "$tmp/out")
check "  in many pixels: by tick 2000 most groups had ended ($(head -1 "$tmp/out"))" \
  test "${d:-0}" -ge 1000
cshot end.png
rce=$?
cshot tn.png --tick 2400
rcn=$?
cshot past.png --tick 99999
rcp=$?
check "shot without --tick, --tick 2400 and --tick 99999 ($rce, $rcn, $rcp)" \
  test $rce -eq 0 -a $rcn -eq 0 -a $rcp -eq 0
check "  the end tick is the shot without --tick" cmp -s "$tmp/end.png" "$tmp/tn.png"
check "  a tick past the end shows the end, as a variant's" cmp -s "$tmp/end.png" "$tmp/past.png"
check "  and the end is not tick 2000" bash -c "! cmp -s '$tmp/end.png' '$tmp/t2000.png'"
"$ts" shot --variant box2d --size 640x400 --tick 99999 -o "$tmp/v-past.png" >/dev/null 2>&1 &&
  "$ts" shot --variant box2d --size 640x400 -o "$tmp/v-end.png" >/dev/null 2>&1
check "  (a variant's tick past the end: its end too)" cmp -s "$tmp/v-end.png" "$tmp/v-past.png"
cshot neg.png --tick -1
rc=$?
check "shot --tick -1 of a plain kernel: exit 2, one line ($(cat "$tmp/out"))" \
  bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/out') -eq 1 ]] && grep -q -- '--tick' '$tmp/out'"

# The split view of a plain kernel (--split order=ORDER): the device's order on the left, the
# other on the right, each its own observed run; the shot says whether the outputs differ at
# the end, and a script's report says it too (differ=N). A key that is not order=, or an order
# that is none, is one line, exit 2.
printf 'report\n' >"$tmp/r.txt"
(cd "$src/tests/order" && POCL_MAX_PTHREAD_COUNT=1 "$ts" shot --sim last_group.sim \
  --split order=reverse --size 640x400 --script "$tmp/r.txt" -o "$tmp/split.png") >"$tmp/out" 2>&1
rc=$?
check "shot --split order=reverse of last_group.sim ($(cat "$tmp/out"))" test $rc -eq 0 -a -s "$tmp/split.png"
check "  the outputs differ: the result depends on the order" \
  grep -q "^split: left device order, right reverse order: the outputs differ at 1 element: the result depends on the order" "$tmp/out"
check "  its report: the right's tick and the difference" grep -q " split=order=reverse right_tick=32/32 differ=1 " "$tmp/out"
(cd "$src/tests/order" && POCL_MAX_PTHREAD_COUNT=1 "$ts" shot --sim last_group.sim \
  --overlay none --split order=reverse --size 640x400 -o "$tmp/split-l.png" \
  && POCL_MAX_PTHREAD_COUNT=1 "$ts" shot --sim last_group.sim --overlay none --order reverse \
  --split order=reverse --size 640x400 -o "$tmp/split-r.png") >"$tmp/out" 2>&1
rc=$?
# (the same shot with reverse on both sides: its left half's element, white before, is black)
"$ts" diff --max-diff-pixels 5000 "$tmp/split-l.png" "$tmp/split-r.png" >/dev/null 2>&1
d=$?
check "  the two halves differ in their pixels, not only in their titles ($(cat "$tmp/out"))" \
  bash -c "[[ $rc -eq 0 && $d -eq 1 ]]"
(cd "$src/tests/order" && "$ts" shot --sim copy.sim --split order=reverse --size 640x400 \
  -o "$tmp/split-copy.png") >"$tmp/out" 2>&1
rc=$?
check "shot --split order=reverse of copy.sim: the same output ($(cat "$tmp/out"))" \
  bash -c "[[ $rc -eq 0 ]] && grep -q 'the same output in both orders' '$tmp/out'"
for bad in "order=sideways" "pattern=wavefront" "device" "order=reverse,slots=4"; do
  "$ts" shot --kernel-file "$plain/broken_tile.cl" --split "$bad" -o "$tmp/x.png" >"$tmp/out" 2>&1
  rc=$?
  check "shot --split $bad of a plain kernel: one line, exit 2 ($(cat "$tmp/out"))" \
    bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/out') -eq 1 ]] && grep -q -- '--split' '$tmp/out'"
done
"$ts" shot --split order=reverse -o "$tmp/x.png" >"$tmp/out" 2>&1
rc=$?
check "shot --split order=reverse of a variant: one line, exit 2 ($(cat "$tmp/out"))" \
  bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/out') -eq 1 ]] && grep -q 'goes with a plain kernel' '$tmp/out'"

echo "$passes passed, $fails failed"
[[ $fails -eq 0 ]]
