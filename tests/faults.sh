#!/usr/bin/env bash
# Faults (SPEC section 6): each must give one clear line naming the file at fault, and lose
# or half-write nothing. A full disk (/dev/full, and a small tmpfs where a user namespace
# allows mounting one), an unwritable output folder, a directory as input or output, `run`
# and `shot` (an animation, a sequence of frames) interrupted by SIGINT (no output, no
# temporary file, an older output intact), and in the viewer: a kernel file broken or
# deleted while it runs (the last good build keeps running), and images that fail to load
# (the current one stays); a kernel file whose parse would never end (the watchdog stops it).
# usage: faults.sh TILESCOPE MKCHART SOURCE_DIR
set -u
ts=$(realpath "$1") mkchart=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset DISPLAY WAYLAND_DISPLAY
export SDL_VIDEODRIVER=offscreen
fails=0 passes=0
chart=$src/assets/chart.png
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() { # check NAME COMMAND...
  local name=$1
  shift
  if "$@"; then ok; else bad "$name"; fi
}
# one_line CODE REGEX CMD...: exit CODE and exactly one line on stderr, matching REGEX.
one_line() {
  local code=$1 re=$2
  shift 2
  local err rc
  err=$("$@" 2>&1 >/dev/null)
  rc=$?
  if [[ $rc -ne $code || $(wc -l <<<"$err") -ne 1 ]] || ! grep -Eq -- "$re" <<<"$err"; then
    bad "$* -> exit $rc (want $code): $err (wanted /$re/)"
  else
    ok
  fi
}
no_temps() { # no_temps DIR NAME: no temporary file of an output is left in DIR
  ! compgen -G "$1/*.tmp-*" >/dev/null || { bad "$2: left $(ls "$1"/*.tmp-*)"; return 1; }
  ok
}

"$mkchart" "$tmp/big.png" 2048x2048 || bad "ts_mkchart 2048x2048"

# --- a full disk: /dev/full takes nothing (written in place: a device is not replaced) ---
for opt in -o --raw --schedule; do
  one_line 2 "^tilescope run: cannot write '/dev/full': No space left on device$" \
    "$ts" run --backend cpu "$opt" /dev/full
done
check "/dev/full is still a device" test -c /dev/full
ln -s /dev/full "$tmp/full.png"
one_line 2 "cannot write '$tmp/full.png': No space left on device" "$ts" run --backend cpu -o "$tmp/full.png"
no_temps /dev "run -o /dev/full"

# A small tmpfs in a user and mount namespace of our own (where the kernel allows one): an
# output that does not fit fails with ENOSPC, and the older file of that name is untouched.
if unshare -rm true 2>/dev/null; then
  mkdir -p "$tmp/small"
  "$ts" run --backend cpu --variant box2d --tick 1 -o "$tmp/old.png" >/dev/null
  unshare -rm bash -c '
    mount -t tmpfs -o size=160k tmpfs "$2" || exit 3
    cp "$3" "$2/out.png"
    "$1" run --backend cpu -i "$4" -o "$2/out.png" >/dev/null 2>"$2/../small.err"
    echo $? >"$2/../small.rc"
    cmp -s "$3" "$2/out.png" && echo intact >"$2/../small.cmp"
    ls -A "$2" >"$2/../small.ls"
    mount -o remount,ro "$2"
    "$1" run --backend cpu -o "$2/ro.png" >/dev/null 2>"$2/../ro.err"
    echo $? >"$2/../ro.rc"' _ "$ts" "$tmp/small" "$tmp/old.png" "$tmp/big.png"
  check "tmpfs full: exit 2 ($(cat "$tmp/small.err" 2>/dev/null))" test "$(cat "$tmp/small.rc" 2>/dev/null)" = 2
  check "tmpfs full: one line" grep -q "^tilescope run: cannot write '$tmp/small/out.png': No space left on device$" "$tmp/small.err"
  check "tmpfs full: the older output intact" test -s "$tmp/small.cmp"
  check "tmpfs full: nothing else left ($(cat "$tmp/small.ls"))" test "$(cat "$tmp/small.ls")" = out.png
  # --- an unwritable output folder (read-only here, which even root cannot write) ---
  check "read-only folder: exit 2" test "$(cat "$tmp/ro.rc")" = 2
  check "read-only folder: one line ($(cat "$tmp/ro.err"))" grep -q "^tilescope run: cannot write '$tmp/small/ro.png': Read-only file system$" "$tmp/ro.err"
else
  echo "note: no user namespaces here: the tmpfs and read-only folder checks did not run (README: Limits)"
fi
mkdir "$tmp/locked" && chmod 555 "$tmp/locked"
if ! touch "$tmp/locked/probe" 2>/dev/null; then # not as root, which writes anyway
  one_line 2 "cannot write '$tmp/locked/out.png': Permission denied" "$ts" run --backend cpu -o "$tmp/locked/out.png"
fi
one_line 2 "cannot write '$tmp/nowhere/out.png': No such file or directory" "$ts" run --backend cpu -o "$tmp/nowhere/out.png"

# --- a directory as input or output ---
one_line 2 "^tilescope run: cannot read '$tmp': it is a directory$" "$ts" run --backend cpu -i "$tmp"
one_line 2 "^tilescope diff: cannot read '$tmp': it is a directory$" "$ts" diff "$tmp" "$chart"
mkdir "$tmp/outdir"
one_line 2 "^tilescope run: cannot write '$tmp/outdir': it is a directory$" "$ts" run --backend cpu -o "$tmp/outdir"
check "the output folder untouched" test -d "$tmp/outdir" -a -z "$(ls -A "$tmp/outdir")"

# --- SIGINT: no output, no temporary file, and an older output of that name intact ---
cp "$chart" "$tmp/int.png"
# interrupt OUT CMD...: sends SIGINT once a temporary file of OUT exists (or the command
# ended); sets rc to its exit code and caught to 1 when the temporary file was seen.
interrupt() {
  local out=$1
  shift
  "$@" >/dev/null 2>&1 &
  local pid=$! i
  for ((i = 0; i < 30000; i++)); do
    compgen -G "$out.tmp-*" >/dev/null && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.001
  done
  if compgen -G "$out.tmp-*" >/dev/null; then caught=1; else caught=0; fi
  kill -INT $pid 2>/dev/null
  wait $pid
  rc=$?
}
interrupt "$tmp/int.png" "$ts" run --backend cpu -i "$tmp/big.png" -o "$tmp/int.png"
if [[ $caught -eq 1 ]]; then
  check "run killed by SIGINT while writing (exit $rc)" test "$rc" -eq 130
  check "run: the older output intact" cmp -s "$chart" "$tmp/int.png"
else
  echo "note: run finished before its temporary file was seen; the SIGINT check did not run"
fi
no_temps "$tmp" "run after SIGINT"
"$mkchart" "$tmp/bigger.png" 4096x4096 || bad "ts_mkchart 4096x4096"
"$ts" run --backend cpu -i "$tmp/bigger.png" -o "$tmp/early.png" >/dev/null &
sleep 1 # past the process's start (on a loaded machine its libraries take a while to load)
kill -INT $!
wait $!
rc=$?
check "run interrupted while it runs: killed by the signal ($rc)" test $rc -eq 130
check "run interrupted: no output" test ! -e "$tmp/early.png"

# --- the viewer: needs GL ---
if ! "$ts" shot -o "$tmp/probe.png" --backend cpu --size 640x400 >"$tmp/log" 2>&1; then
  if [[ ${CI:-} == true ]] && grep -q "cannot open an OpenGL\|cannot start SDL" "$tmp/log"; then
    echo "FAIL: no GL in CI: $(cat "$tmp/log")"; exit 1
  fi
  echo "note: no viewer here ($(head -1 "$tmp/log")); the viewer's fault checks did not run"
  echo "$passes passed, $fails failed"
  [[ $fails -eq 0 ]]
  exit
fi
# shot interrupted while it records an animation, and while it writes it.
interrupt "$tmp/anim.gif" "$ts" shot --backend cpu --variant integral --frames 0:69:1 -o "$tmp/anim.gif"
[[ $caught -eq 1 ]] && check "shot killed by SIGINT while writing (exit $rc)" test "$rc" -eq 130
check "shot interrupted: no animation" test ! -e "$tmp/anim.gif"
no_temps "$tmp" "shot after SIGINT"
# shot --frames interrupted once frame 1 is being written: no frame, no temporary file.
mkdir "$tmp/frames"
interrupt "$tmp/frames/f-00001.png" "$ts" shot --backend cpu --size 640x400 --frames 0:400:1 -o "$tmp/frames/f.png"
[[ $caught -eq 1 ]] && check "shot --frames killed by SIGINT (exit $rc)" test "$rc" -eq 130
check "shot --frames interrupted: no frame, no temporary file ($(ls -A "$tmp/frames" | head -3))" \
  test -z "$(ls -A "$tmp/frames")"
ln -s /dev/full "$tmp/full.gif"
one_line 2 "^tilescope shot: cannot write '$tmp/full.gif': No space left on device$" \
  "$ts" shot --backend cpu --size 640x400 -o "$tmp/full.gif"
one_line 2 "^tilescope: cannot write '/dev/full': No space left on device$" \
  "$ts" shot --backend cpu --size 640x400 -o /dev/full
one_line 2 "^tilescope shot: cannot write '$tmp/outdir': it is a directory$" \
  "$ts" shot --backend cpu --size 640x400 -o "$tmp/outdir"
one_line 2 "cannot read '$tmp': it is a directory" "$ts" shot --backend cpu -i "$tmp" -o "$tmp/x.png"

# Images that fail to load, opened as a dropped file: the status line says why (naming the
# file), and the image and its output stay.
printf 'not a png' >"$tmp/text.png"
head -c 400 "$chart" >"$tmp/cut.png"
cat >"$tmp/open.txt" <<EOF
variant box2d
tick end
expect-pixel 426 289 63 148 63
open $tmp/text.png
expect-status '$tmp/text.png' is not a PNG file
open $tmp/cut.png
expect-status '$tmp/cut.png' is a corrupt PNG
open $tmp
expect-status cannot read '$tmp': it is a directory
open $tmp/missing.png
expect-status cannot open '$tmp/missing.png'
expect variant box2d
expect-pixel 426 289 63 148 63
open $tmp/big.png
expect-status opened big.png (2048x2048, 3 channels)
EOF
"$ts" shot --backend cpu --size 640x400 --script "$tmp/open.txt" -o "$tmp/open.png" >"$tmp/open.out" 2>&1
rc=$?
check "failed loads keep the image ($(cat "$tmp/open.out"))" test $rc -eq 0

# A kernel broken, then deleted, while the viewer runs (OpenCL). The viewer's script opens a
# FIFO after its first run and waits there while this script changes the kernel file and
# then writes to it (the write fails to load as an image); then `key r` reloads, as the
# viewer does when it sees the file change.
if "$ts" list | grep -q "^  0: "; then
  for fault in broken deleted; do
    cp -r "$src/kernels" "$tmp/k-$fault"
    mkfifo "$tmp/sync-$fault"
    if [[ $fault == broken ]]; then why="box.cl: the kernel does not build"; else why="box.cl"; fi
    cat >"$tmp/reload.txt" <<EOF
variant box2d
tick end
expect-pixel 426 289 63 148 63
open $tmp/sync-$fault
key r
expect-status $why
expect-status the last good build keeps running
expect backend cl
expect variant box2d
tick 3
tick end
expect-pixel 426 289 63 148 63
EOF
    timeout 120 "$ts" shot --kernels "$tmp/k-$fault" --size 640x400 --script "$tmp/reload.txt" \
      -o "$tmp/reload-$fault.png" >"$tmp/reload.out" 2>&1 &
    pid=$!
    if [[ $fault == broken ]]; then
      change="printf '\n__kernel void broken(void) { this is not C }\n' >>'$tmp/k-$fault/box.cl'"
    else
      change="rm '$tmp/k-$fault/box.cl'"
    fi
    # Opening the FIFO waits for the viewer to open it, after its first run: change, then go.
    timeout 60 bash -c "exec 3>'$tmp/sync-$fault' && $change && echo go >&3"
    wait $pid
    rc=$?
    check "kernel $fault while running: the last good build runs ($(grep -v 'error generated' "$tmp/reload.out"))" test $rc -eq 0
  done
else
  echo "note: no OpenCL device here; the kernel reload checks did not run"
fi

# A kernel file that libclang would parse forever (a macro that doubles 40 times) stops at the
# watchdog, in run and in shot, with one line naming it: the parse runs in a process of its own.
{
  echo '// tilescope: plain'
  for i in $(seq 0 39); do echo "#define M$i M$((i + 1)) M$((i + 1))"; done
  echo '#define M40 1+'
  echo '__kernel void k(__global const uchar *in, __global uchar *out, int W, int H) { out[0] = M0 0; }'
} >"$tmp/bomb.cl"
one_line 2 "^tilescope run: bomb.cl, parsed: did not finish in 2 s; the watchdog stopped it" \
  timeout 60 "$ts" run --kernel-file "$tmp/bomb.cl" -o "$tmp/bomb.png" --timeout 2
one_line 2 "^tilescope shot: bomb.cl, parsed: did not finish in 2 s; the watchdog stopped it" \
  timeout 60 "$ts" shot --kernel-file "$tmp/bomb.cl" -o "$tmp/bomb.png" --timeout 2
check "the parse's watchdog: no output" test ! -e "$tmp/bomb.png"

echo "$passes passed, $fails failed"
[[ $fails -eq 0 ]]
