#!/usr/bin/env bash
# A plain kernel in the viewer, headless: `shot --kernel-file K.cl` draws its observed run (the
# golden scenes check the pictures); a file that does not build is one error line and exit 2;
# a script plays on it and r runs it again (test_plain_view checks the reloads of an edited
# file); a click (or shot --pixel) watches an output pixel and lists its writers; the run is
# stepped like a schedule (shot --tick T, the keys that step a variant's); the commands that
# do not show a plain kernel say so.
# usage: plain_view.sh TILESCOPE SOURCE_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # python3 itself (lib.sh)
ts=$(realpath "$1") src=$(realpath "$2")
window_setup "$ts"
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

# The source pane (--source, the key l): the kernel's lines in the input pane's place, each line
# with findings marked; n N select a finding, source-line N (a click on a line) its next one or
# the line alone; the report names the selected finding's two lines and work-groups. Pictures:
# the pane at three sizes; the gutter marks the two lines of broken_nobarrier.cl's findings
# (21 and 31) and no other; a selected finding tints its A line (31) and B line (21), which an
# unselected pane does not.
nb=$plain/broken_nobarrier.cl
for size in 1024x768 1280x720 1920x1080; do
  "$ts" shot --kernel-file "$nb" --source --select-finding 2 --hover 8,8 --size $size \
    -o "$tmp/src-$size.png" >"$tmp/out" 2>&1
  rc=$?
  check "shot --source --select-finding 2 at $size ($(cat "$tmp/out"))" test $rc -eq 0 -a -s "$tmp/src-$size.png"
done
# (the pane with nothing selected: the script's first picture)
cat >"$tmp/src.txt" <<EOF
expect source on
shot $tmp/src-none.png
key n
key n
expect finding 2/3
expect finding_lines 31,21
expect finding_groups (0,0)
key n shift
expect finding 1/3
expect finding_lines 21,31
key n shift
expect finding 3/3
expect finding_lines 31
source-line 24
expect finding none
expect src_line 24
expect line_groups 0
source-line 21
expect finding 1/3
key l
expect source off
report
EOF
"$ts" shot --kernel-file "$nb" --source --size 1280x720 --script "$tmp/src.txt" -o "$tmp/src-s.png" \
  >"$tmp/out" 2>&1
rc=$?
check "n N and source-line select findings and lines ($(cat "$tmp/out"))" test $rc -eq 0
# (line 21's groups: those its findings' places name, the first to arrive beside the least)
check "  the report names the selection" \
  grep -q " source=off finding=1/3 finding_lines=21,31 finding_groups=(0,0) src_line=21 line_groups=[1-9][0-9]*$" "$tmp/out"
# The source pane of a 1280x720 shot: x 0..418, y 0..599. Prints the gutter's marks (upright
# bars of the red of a race or an access outside a buffer, left of x 50: one per marked line,
# as many as the column with the most has) and the pixels of A's and B's tints (a line's
# background at 22% of red, of B's pink), with the mean row of each.
cat >"$tmp/pane.py" <<'PY'
import sys, zlib, struct
def near(p, q): return all(abs(a - b) <= 3 for a, b in zip(p, q))
d = open(sys.argv[1], 'rb').read(); i = 8; idat = b''
while i < len(d):
    n, t = struct.unpack('>I4s', d[i:i + 8]); c = d[i + 8:i + 8 + n]; i += 12 + n
    if t == b'IHDR': w, h, bd, ct = struct.unpack('>IIBB', c[:10])
    if t == b'IDAT': idat += c
bpp = {2: 3, 6: 4}[ct]; raw = zlib.decompress(idat); st = w * bpp; k = 0; X, Y = 418, 600
n = X * bpp; prev = bytearray(n); run = [0] * 50; bars = [0] * 50; ta = []; tb = []
for y in range(Y):
    f = raw[k]; line = bytearray(raw[k + 1:k + 1 + n]); k += 1 + st
    for x in range(n):
        a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = line
    px = [tuple(line[x * bpp:x * bpp + 3]) for x in range(X)]
    for x in range(50):
        run[x] = run[x] + 1 if near(px[x], (247, 41, 31)) else 0
        bars[x] += run[x] == 20
    ta += [y for q in px if near(q, (72, 29, 31))]
    tb += [y for q in px if near(q, (74, 43, 73))]
mean = lambda v: sum(v) // len(v) if v else -1
print("marks=%d a_tint=%d b_tint=%d a_row=%d b_row=%d" % (max(bars), len(ta), len(tb), mean(ta), mean(tb)))
PY
if command -v python3 >/dev/null; then
  sel=$(python3 "$tmp/pane.py" "$tmp/src-1280x720.png") none=$(python3 "$tmp/pane.py" "$tmp/src-none.png")
  read -r marks at bt arow brow <<<"$(echo "$sel" | sed 's/[a-z_]*=//g')"
  check "the gutter marks lines 21 and 31 alone ($sel)" test "$marks" -eq 2
  check "  the selected finding tints its two lines, B's (21) above A's (31)" \
    test "$at" -gt 1000 -a "$bt" -gt 1000 -a "$brow" -lt "$arow"
  read -r marks at bt arow brow <<<"$(echo "$none" | sed 's/[a-z_]*=//g')"
  check "  nothing selected: the same marks, no line tinted ($none)" \
    test "$marks" -eq 2 -a "$at" -lt 200 -a "$bt" -lt 200
fi
# A race between two work-groups at two lines (line 10 reads what another group writes at line
# 8), run in the linear order so that the read comes second in every run: the report names
# both lines and both groups, the writer second.
cat >"$tmp/neighbour.cl" <<'EOF'
// tilescope: plain global=W,H local=16,16
// A work-group's first column reads its left neighbour's output pixel, which another
// work-group writes, in no order.
__kernel void neighbour(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  for (int c = 0; c < C; c++)
    out[(y * W + x) * C + c] = in[(y * W + x) * C + c];
  if (get_local_id(0) == 0 && x > 0)
    out[(y * W + x) * C] = out[(y * W + x - 1) * C] / 2 + in[(y * W + x) * C] / 2;
}
EOF
printf 'source-line 10\nexpect finding_lines 10,8\nexpect finding_groups (1,0)/(0,0)\nreport\n' >"$tmp/nbr.txt"
"$ts" shot --kernel-file "$tmp/neighbour.cl" --order linear -i "$src/tests/records/chart320.png" \
  --source --size 1024x768 --script "$tmp/nbr.txt" -o "$tmp/nbr.png" >"$tmp/out" 2>&1
rc=$?
check "a race between work-groups: both lines, both groups ($(cat "$tmp/out"))" test $rc -eq 0
for bad in "--source" "--select-finding 1"; do
  # shellcheck disable=SC2086
  "$ts" shot $bad --size 640x400 -o "$tmp/x.png" >"$tmp/out" 2>&1
  rc=$?
  check "shot $bad of a variant: one line, exit 2 ($(cat "$tmp/out"))" \
    bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/out') -eq 1 ]] && grep -q 'goes with a plain kernel' '$tmp/out'"
done
for bad in "--select-finding 0" "--select-finding 4" "--source --split order=reverse"; do
  # shellcheck disable=SC2086
  "$ts" shot --kernel-file "$nb" $bad --size 640x400 -o "$tmp/x.png" >"$tmp/out" 2>&1
  rc=$?
  check "shot $bad: one line, exit 2, no picture ($(cat "$tmp/out"))" \
    bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/out') -eq 1 && ! -e '$tmp/x.png' ]]"
done

echo "$passes passed, $fails failed"
[[ $fails -eq 0 ]]
