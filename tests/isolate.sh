#!/usr/bin/env bash
# The debuggee cannot take the debugger down (SPEC section 10): hostile user kernels (a write
# past the output, a far write and read, a kernel that never ends, a barrier half a group
# reaches, a 16 MB private array) each end run and shot in one line
# naming the kernel, with exit 1, never a core dump or a hang; --observe names the write
# instead of making it, and names the barrier half a group skips instead of crashing on it; tilescope killed (SIGKILL) while a kernel that never ends runs leaves
# none of its processes behind (PR_SET_PDEATHSIG); and a scripted window goes on after a plain
# kernel that hangs, and after a user kernel edited into one that does not build, to run the
# good one.
# usage: isolate.sh TILESCOPE SOURCE_DIR
set -u
ts=$(realpath "$1") src=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset DISPLAY WAYLAND_DISPLAY
export SDL_VIDEODRIVER=offscreen
fails=0 passes=0
check() { # check NAME COMMAND...
  local name=$1
  shift
  if "$@"; then passes=$((passes + 1)); else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
if [[ ${TS_SANITIZED:-} == 1 ]]; then
  echo "skipped: the guard pages are off in a sanitizer build"; exit 77
fi
if ! "$ts" list 2>/dev/null | grep -q "^  0: "; then
  [[ ${CI:-} == true ]] && { echo "no OpenCL device in CI"; exit 1; }
  echo "skipped: no OpenCL device"; exit 77
fi
k=$src/tests/kernels
cd "$tmp" || exit 1

# run: one line naming the variant and what happened, exit 1, no output file
for kind in past far; do
  "$ts" run --kernel-file "$k/hostile_$kind.cl" --backend cl -o "$tmp/$kind.png" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  check "run hostile_$kind: exit 1 ($rc)" test $rc -eq 1
  check "  one line: $(cat "$tmp/err")" bash -c "[[ \$(wc -l <'$tmp/err') -eq 1 ]] && grep -q '^tilescope run: the variant hostile_$kind: crashed (signal 11, SIGSEGV: a memory access outside what it owns, such as a kernel writing past its buffer)$' '$tmp/err'"
  check "  no output written" test ! -e "$tmp/$kind.png"
  check "  no temporary left" bash -c "! ls '$tmp' | grep -q '\\.tmp'"
done
start=$(date +%s)
"$ts" run --kernel-file "$k/hostile_loop.cl" --backend cl --timeout 3 >"$tmp/out" 2>"$tmp/err"
rc=$?
took=$(($(date +%s) - start))
check "run hostile_loop: exit 1 ($rc)" test $rc -eq 1
check "  the watchdog's line: $(cat "$tmp/err")" grep -qx "tilescope run: the variant hostile_loop: did not finish in 3 s; the watchdog stopped it (--timeout S)" "$tmp/err"
check "  stopped well before the default watchdog ($took s)" test $took -lt 120

# Kernel processes die with tilescope (PR_SET_PDEATHSIG): tilescope killed with SIGKILL, which
# it cannot catch, while a kernel that never ends runs, leaves none of its processes running.
# A plain kernel runs two levels down (the supervisor's child, the plain run's), a dialect
# kernel one.
descendants() { # descendants PID: the pids of every process under PID
  local c
  for c in $(pgrep -P "$1"); do
    echo "$c"
    descendants "$c"
  done
}
running() { # running PID...: those still running (a zombie is not)
  local p s
  for p in "$@"; do
    s=$(ps -o stat= -p "$p" 2>/dev/null) && [[ $s != Z* ]] && echo "$p"
  done
}
for kind in forever hostile_loop; do
  levels=2 how=
  [[ $kind == hostile_loop ]] && levels=1 how="--backend cl"
  # shellcheck disable=SC2086
  "$ts" run --kernel-file "$k/$kind.cl" $how --timeout 300 >"$tmp/out" 2>"$tmp/err" &
  top=$!
  for _ in $(seq 150); do
    [[ $(descendants $top | wc -l) -ge $levels ]] && break
    sleep 0.2
  done
  sleep 1 # well into the kernel
  kids=$(descendants $top | tr '\n' ' ')
  check "$kind: tilescope runs it in $levels process(es) under it (${kids:-none})" \
    test "$(wc -w <<<"$kids")" -ge $levels
  kill -9 $top
  wait $top 2>/dev/null
  left=
  for _ in $(seq 50); do
    # shellcheck disable=SC2086
    left=$(running $kids | tr '\n' ' ')
    [[ -z $left ]] && break
    sleep 0.1
  done
  check "  killed with SIGKILL, none of them left within 5 s (still running: ${left:-none})" test -z "$left"
  # shellcheck disable=SC2086
  [[ -n $left ]] && kill -9 $left 2>/dev/null
done

# --observe: the write past the buffer is named, not made
"$ts" run --kernel-file "$k/hostile_past.cl" --backend cl --observe >"$tmp/out" 2>&1
rc=$?
check "run --observe hostile_past: exit 1 ($rc)" test $rc -eq 1
check "  names the write: $(grep -m1 "outside the buffer" "$tmp/out")" grep -Eq "^hostile_past: pass 1 thread \(0,0\) wrote out pixel \(0,480\) channel 0, outside the buffer \(640 x 480 pixels of 3 channels\); not performed \([0-9]+ such accesses\)$" "$tmp/out"
check "  and says the plain run was not made" grep -q "the plain run was not made: it would access memory outside its buffers" "$tmp/out"

# A far read (a dialect kernel), a barrier that only half a group reaches and a 16 MB
# private array (plain kernels): each ends run in one line naming the kernel, exit 1.
"$ts" run --kernel-file "$k/hostile_farread.cl" --backend cl -o "$tmp/fr.png" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "run hostile_farread: exit 1 ($rc: $(cat "$tmp/err"))" bash -c "[[ $rc -eq 1 && \$(wc -l <'$tmp/err') -eq 1 ]] && grep -q '^tilescope run: the variant hostile_farread: crashed (signal 11, SIGSEGV' '$tmp/err'"
check "  no output written" test ! -e "$tmp/fr.png"
for kind in barrier stack; do
  "$ts" run --kernel-file "$k/hostile_$kind.cl" --timeout 60 -o "$tmp/$kind.png" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  check "run hostile_$kind: exit 1 ($rc: $(cat "$tmp/err"))" bash -c "[[ $rc -eq 1 && \$(wc -l <'$tmp/err') -eq 1 ]] && grep -Eq '^tilescope run: hostile_$kind.cl, run plain: (crashed \\(signal [0-9]+|did not finish in 60 s)' '$tmp/err'"
  check "  no output written" test ! -e "$tmp/$kind.png"
done

# shot: the same line, exit 1, no picture
"$ts" shot --kernel-file "$k/hostile_far.cl" --backend cl -o "$tmp/far_shot.png" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "shot hostile_far: exit 1 ($rc: $(cat "$tmp/err"))" bash -c "[[ $rc -eq 1 ]] && grep -q '^tilescope shot: the variant hostile_far: crashed (signal 11' '$tmp/err'"
check "  no picture" test ! -e "$tmp/far_shot.png"

# A scripted window goes on: a plain kernel that hangs costs its worker (the status line says
# so), then saved over with a good one it runs; a user kernel edited into one that does not
# build keeps its last good build, and the fix runs. (The hang's window runs in the background,
# in a folder of its own, as does the window of the dialect kernel that loops, below: their
# waits for the watchdog, 30 s and 20 s, overlap each other and the checks between them;
# theirs are made last.)
cat >"$tmp/good.cl" <<'CL'
// tilescope: plain
__kernel void k(__global const uchar *in, __global uchar *out, int W, int H)
{
  int x = get_global_id(0), y = get_global_id(1);
  for (int c = 0; c < 3; c++)
    out[(y * W + x) * 3 + c] = 255 - in[(y * W + x) * 3 + c];
}
CL
mkdir "$tmp/hang"
sed 's/  int x = get_global_id(0), y = get_global_id(1);/  int x = get_global_id(0), y = get_global_id(1);\n  while (x >= 0) {\n  }/' "$tmp/good.cl" >"$tmp/hang/hang.cl"
cp "$tmp/hang/hang.cl" "$tmp/hang/k.cl"
cat >"$tmp/hang/plain.txt" <<EOF
expect-status did not finish in 30 s
copy $tmp/good.cl $tmp/hang/k.cl
expect-pixel 0 0 255 255 255
shot $tmp/hang/plain_after.png
EOF
"$ts" shot --kernel-file "$tmp/hang/k.cl" --timeout 30 --script "$tmp/hang/plain.txt" -o "$tmp/hang/plain.png" \
  >"$tmp/hang/out" 2>&1 &
hang=$!

# A scripted window and each hostile dialect kernel: the window tries it in a process of its
# own first, says so in one line, and runs the fixed file once it is saved over it.
hk_window() { # hk_window KIND: that window on hostile_KIND.cl, as hk.cl in $tmp/hk-KIND/
  local d=$tmp/hk-$1 why="crashed (signal 11"
  [[ $1 == loop ]] && why="did not finish in 20 s"
  mkdir -p "$d"
  sed "s/hostile_$1/hk/g" "$k/hostile_$1.cl" >"$d/hk.cl"
  sed 's/hostile_past/hk/g; /for (int i = 0; i < 65536; i++)/d; /dst\[W \* C \* H + i\] = 1;/d; /if (t.x == 0 && t.y == 0)$/d; s/, ld8(src, W, H, C, x, y, c))/, 255 - ld8(src, W, H, C, x, y, c))/' \
    "$k/hostile_past.cl" >"$d/hk_good.cl"
  cat >"$d/hk.txt" <<EOF
variant hk
expect-status hk: $why
expect-status tried in a process of its own
copy $d/hk_good.cl $d/hk.cl
expect-pixel 0 0 255 255 255
EOF
  "$ts" shot --kernel-file "$d/hk.cl" --backend cl --timeout 20 --script "$d/hk.txt" -o "$d/hk.png" >"$d/out" 2>&1
}
hk_window loop &
loop=$!

sed 's/hostile_past/edit_me/g; /for (int i = 0; i < 65536; i++)/d; /dst\[W \* C \* H + i\] = 1;/d; /if (t.x == 0 && t.y == 0)$/d; s/, ld8(src, W, H, C, x, y, c))/, 255 - ld8(src, W, H, C, x, y, c))/' \
  "$k/hostile_past.cl" >"$tmp/edit_good.cl"
sed 's/TS_ST8(dst, pitch/TS_ST8(dst, pitch oops/' "$tmp/edit_good.cl" >"$tmp/edit_bad.cl"
cp "$tmp/edit_good.cl" "$tmp/edit_me.cl"
cat >"$tmp/edit.txt" <<EOF
variant edit_me
expect-pixel 0 0 255 255 255
copy $tmp/edit_bad.cl $tmp/edit_me.cl
expect-status edit_me.cl:
expect-status the last good build keeps running
copy $tmp/edit_good.cl $tmp/edit_me.cl
expect-pixel 0 0 255 255 255
EOF
"$ts" shot --kernel-file "$tmp/edit_me.cl" --backend cl --script "$tmp/edit.txt" -o "$tmp/edit.png" >"$tmp/out" 2>&1
rc=$?
check "window: a user kernel edited into an error and back: exit 0 ($rc: $(cat "$tmp/out"))" test $rc -eq 0

for kind in past far farread; do # (loop: in the background, above)
  hk_window $kind
  rc=$?
  check "window: dialect hostile_$kind, then fixed: exit 0 ($rc: $(cat "$tmp/hk-$kind/out"))" test $rc -eq 0
done
# The same for a plain kernel that crashes (the hang is above): its worker goes, the window
# says so and runs the good file saved over it.
for kind in stack; do
  cp "$k/hostile_$kind.cl" "$tmp/k.cl"
  cat >"$tmp/plain.txt" <<EOF
expect-status crashed (signal
copy $tmp/good.cl $tmp/k.cl
expect-pixel 0 0 255 255 255
EOF
  "$ts" shot --kernel-file "$tmp/k.cl" --timeout 30 --script "$tmp/plain.txt" -o "$tmp/plain.png" >"$tmp/out" 2>&1
  rc=$?
  check "window: plain hostile_$kind, then a good one: exit 0 ($rc: $(cat "$tmp/out"))" test $rc -eq 0
done

# A barrier that half of each group skips crashes pocl when run plain; observed, each group
# takes the way its first work-item took, so the run ends with the divergence named and the
# plain run is not made: exit 1, no crash.
"$ts" run --kernel-file "$k/hostile_barrier.cl" --observe -o "$tmp/hb.png" >"$tmp/out" 2>&1
rc=$?
check "run --observe hostile_barrier: exit 1, the divergence named ($rc: $(tail -1 "$tmp/out"))" \
  bash -c "[[ $rc -eq 1 ]] && grep -q '^hostile_barrier.cl:11: barrier divergence in hostile_barrier: work-group (' '$tmp/out' && grep -q '^the plain run was not made: its work-groups part at a barrier' '$tmp/out'"

# The windows in the background, above: the dialect kernel that loops, and the plain kernel
# that hangs.
wait $loop
rc=$?
check "window: dialect hostile_loop, then fixed: exit 0 ($rc: $(cat "$tmp/hk-loop/out"))" test $rc -eq 0
wait $hang
rc=$?
check "window: a plain kernel that hangs, then a good one: exit 0 ($rc: $(cat "$tmp/hang/out"))" test $rc -eq 0
check "  its picture after the fix" test -s "$tmp/hang/plain_after.png"

echo "isolate.sh: $passes passed, $fails failed"
[[ $fails -eq 0 ]]
