#!/usr/bin/env bash
# The window's observation of large images (app/worker/worker_obs.c), headless: an image over a
# megapixel is observed on a CPU device too (up to 3840x2160; the window used to stop at one
# megapixel), where a hovered thread's exact elements are asked for only at a zoom that draws
# them (a replay there takes seconds, in which a step waits); one over 3840x2160 on a CPU
# device is not observed, and the panel says why. Needs GL and an OpenCL device (else 77).
# usage: viewer_observe.sh TILESCOPE
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ts=$(realpath "$1")
window_setup "$ts"
"$ts" list >"$tmp/list" 2>/dev/null
if ! grep -q "^  0: " "$tmp/list"; then
  echo "skipped: no OpenCL device"; exit 77
fi
# A grey PNG of W x H (zeros compress to almost nothing).
grey() {
  python3 - "$1" "$2" "$3" <<'PY'
import struct, sys, zlib
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
raw = b"".join(b"\0" + bytes(w) for _ in range(h))
chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
                       + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
PY
}

# Over a megapixel: observed, the thread under the pointer at the fitted zoom keeps no exact
# elements, and one hovered at 6 screen pixels a pixel does.
grey "$tmp/big.png" 1100 1000
cat >"$tmp/big.txt" <<'EOF'
expect backend cl
overlay observed
expect observe done
expect footprint 0
expect conflicts 0
move 500 500
expect chosen none
zoom 6 500 500
move 500 500
expect chosen (31,31)
EOF
"$ts" shot -i "$tmp/big.png" --variant box2d --script "$tmp/big.txt" -o "$tmp/big-shot.png" >"$tmp/out" 2>&1
rc=$?
check "1100x1000 observed ($(cat "$tmp/out"))" test $rc -eq 0

# Over 3840x2160 on a CPU device: not observed (a GPU observes up to 7680x4320).
if grep -q "^  0: .*, CPU on " "$tmp/list"; then
  grey "$tmp/huge.png" 3856 2160
  printf 'expect backend cl\noverlay observed\nexpect observe off\n' >"$tmp/huge.txt"
  "$ts" shot -i "$tmp/huge.png" --variant box2d --script "$tmp/huge.txt" -o "$tmp/huge-shot.png" >"$tmp/out" 2>&1
  rc=$?
  check "3856x2160 not observed on a CPU device ($(cat "$tmp/out"))" test $rc -eq 0
fi
echo "$passes passed, $fails failed"
[[ $fails -eq 0 ]]
