#!/usr/bin/env bash
# Hostile inputs and quiet failures: each must end in one exact line naming the option, field
# or file at fault and the right exit code, or do what it says. Standard output that cannot
# be written, names that are not UTF-8 in JSON, a user kernel listed with its memory, the
# outputs of one run committed together, numbers in one strict form (options, kernel
# headers, plain descriptions, records), a record's numbers bounded by what a run allows, a
# PNG's palette, a script's expect-pixel arity, and messages a user can act on (limits,
# plurals, image names). Checks that need OpenCL or GL say so when there is none.
# usage: hostile.sh TILESCOPE MKCHART SOURCE_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # python3 itself (lib.sh)
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
# exactly CODE LINE CMD...: exit CODE and stderr exactly LINE (one line).
exactly() {
  local code=$1 want=$2
  shift 2
  local err rc
  err=$("$@" 2>&1 >/dev/null)
  rc=$?
  if [[ $rc -ne $code || "$err" != "$want" ]]; then
    bad "$* -> exit $rc (want $code), stderr:"$'\n'"    $err"$'\n'"    (wanted: $want)"
  else
    ok
  fi
}
# full CODE LINE CMD...: the same with standard output on a full disk.
full() {
  local code=$1 want=$2
  shift 2
  local err rc
  err=$("$@" 2>&1 >/dev/full)
  rc=$?
  if [[ $rc -ne $code || "$err" != "$want" ]]; then
    bad "$* >/dev/full -> exit $rc (want $code), stderr:"$'\n'"    $err"$'\n'"    (wanted: $want)"
  else
    ok
  fi
}
valid_json() { python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$1"; }

have_cl=1
"$ts" list | grep -A1 '^OpenCL devices:' | grep -q '^  none:' && have_cl=0
[[ $have_cl -eq 1 ]] || echo "note: no OpenCL device here; the checks that need one did not run"

# --- standard output that cannot be written is an error (exit 2, one line) ---
nospace="cannot write standard output: No space left on device"
full 2 "tilescope run: $nospace" "$ts" run --backend cpu -o "$tmp/full.png"
full 2 "tilescope diff: $nospace" "$ts" diff --json "$chart" "$chart"
full 2 "tilescope diff: $nospace" "$ts" diff "$chart" "$chart"
full 2 "tilescope list: $nospace" "$ts" list
full 2 "tilescope run: $nospace" "$ts" run --help

# --- JSON is valid whatever the names: bytes that are not UTF-8 become U+FFFD ---
odd=$tmp/$'in\xff\xfe.png'
cp "$chart" "$odd"
"$ts" run --backend cpu -i "$odd" --json >"$tmp/run.json" 2>/dev/null
check "run --json with a non-UTF-8 input name is valid JSON" valid_json "$tmp/run.json"
check "the name's bad bytes are U+FFFD" python3 -c '
import json, sys
name = json.load(open(sys.argv[1], encoding="utf-8"))["input"]
sys.exit(not name.endswith("in\ufffd\ufffd.png"))' "$tmp/run.json"
"$ts" diff --json "$odd" "$chart" >"$tmp/diff.json" 2>/dev/null
check "diff --json with a non-UTF-8 name is valid JSON" valid_json "$tmp/diff.json"
if [[ $have_cl -eq 1 ]]; then
  "$ts" run -i "$odd" --exec device --trace "$tmp/trace.json" >/dev/null 2>&1
  check "--trace of a non-UTF-8 input name is valid JSON" valid_json "$tmp/trace.json"
fi

# --- list --memory lists a user kernel (it has no CPU model: its run is made on the device) ---
if [[ $have_cl -eq 1 ]]; then
  out=$("$ts" list --memory --kernel-file "$src/assets/kernels/sobel.cl" 2>&1)
  rc=$?
  check "list --memory --kernel-file sobel.cl: exit 0 ($rc)" test $rc -eq 0
  check "list --memory --kernel-file sobel.cl: its line" grep -Eq '^  sobel +sobel +0 B +[0-9]+ B' <<<"$out"
fi

# --- a run's outputs are committed together: the old set or the new, never a mix ---
cp "$chart" "$tmp/set.png"
echo "the older raw file" >"$tmp/set.npy"
exactly 2 "tilescope run: cannot write '/dev/full': No space left on device" \
  "$ts" run --backend cpu -o "$tmp/set.png" --raw /dev/full
check "a failed --raw leaves the older -o" cmp -s "$chart" "$tmp/set.png"
check "no temporary file left" test -z "$(compgen -G "$tmp/*.tmp-*")"
"$ts" run --backend cpu -i "$src/tests/records/chart320.png" -o "$tmp/set.png" --raw "$tmp/set.npy" \
  --schedule "$tmp/set.csv" >/dev/null 2>&1
check "a whole run writes the new set" bash -c "! cmp -s '$chart' '$tmp/set.png' && \
  head -c 6 '$tmp/set.npy' | grep -q NUMPY && test -s '$tmp/set.csv'"
# SIGINT once the raw file's temporary exists, the PNG's written before it: the older pair stays.
"$mkchart" "$tmp/big.png" 2048x2048 || bad "ts_mkchart 2048x2048"
cp "$chart" "$tmp/pair.png"
echo "the older raw file" >"$tmp/pair.npy"
cp "$tmp/pair.npy" "$tmp/pair.old"
"$ts" run --backend cpu -i "$tmp/big.png" -o "$tmp/pair.png" --raw "$tmp/pair.npy" >/dev/null 2>&1 &
pid=$!
for ((i = 0; i < 30000; i++)); do
  compgen -G "$tmp/pair.npy.tmp-*" >/dev/null && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.001
done
if compgen -G "$tmp/pair.npy.tmp-*" >/dev/null; then
  kill -INT $pid
  wait $pid
  rc=$?
  check "run interrupted while it writes --raw: killed by SIGINT ($rc)" test $rc -eq 130
  # The older pair, or (where the signal came once the renames had begun: on a loaded machine
  # it reaches the command through its supervisor after the raw file is written) the newer
  # pair whole: never one of each.
  if cmp -s "$tmp/pair.old" "$tmp/pair.npy"; then
    check "the older -o intact beside the older --raw" cmp -s "$chart" "$tmp/pair.png"
  else
    echo "note: the SIGINT came while the outputs were renamed; the newer pair is in place"
    check "the newer -o beside the newer --raw" bash -c "test -s '$tmp/pair.png' && \
      ! cmp -s '$chart' '$tmp/pair.png' && \
      head -c 6 '$tmp/pair.npy' | grep -q NUMPY"
  fi
else
  wait $pid
  echo "note: run finished before its --raw temporary was seen; the SIGINT check did not run"
fi
check "no temporary file left after SIGINT" test -z "$(compgen -G "$tmp/*.tmp-*")"

# --- numbers in one form: no signs, spaces, hex, nan or inf where none belong ---
exactly 2 "tilescope run: --slots: '+5' is not a whole number" "$ts" run --backend cpu --slots +5
exactly 2 "tilescope run: --slots: ' 5' is not a whole number" "$ts" run --backend cpu --slots " 5"
exactly 2 "tilescope run: --sigma: '0x10' is not a number (such as 2 or 1.5)" \
  "$ts" run --backend cpu --variant gauss_local --sigma 0x10
exactly 2 "tilescope run: --sigma: 'nan' is not a number (such as 2 or 1.5)" \
  "$ts" run --backend cpu --variant gauss_local --sigma nan
exactly 2 "tilescope run: --sigma: 'inf' is not a number (such as 2 or 1.5)" \
  "$ts" run --backend cpu --variant gauss_local --sigma inf
exactly 2 "tilescope run: --device: '-5' is not a whole number 0 or more" "$ts" run --device -5
exactly 2 "tilescope run: --tick: '+3' is not a whole number" "$ts" run --backend cpu --tick +3
exactly 2 "tilescope list: --device: '-5' is not a whole number 0 or more" "$ts" list --device -5
exactly 2 "tilescope bench: --size ' 64x64': give WIDTHxHEIGHT, each 64..32768" \
  "$ts" bench --size " 64x64"
exactly 2 "tilescope diff: --max-diff-pixels '+5': give a pixel count or a percentage such as 0.5%" \
  "$ts" diff --max-diff-pixels +5 "$chart" "$chart"
exactly 2 "tilescope diff: --max-diff-pixels 'nan%': give a pixel count or a percentage such as 0.5%" \
  "$ts" diff --max-diff-pixels nan% "$chart" "$chart"
printf '// tilescope: variant name=t\n// tilescope: pass entry=k tile=" 32x 4"\n' >"$tmp/spaces.cl"
exactly 2 "tilescope: $tmp/spaces.cl:2: tile: ' 32x 4' is not WxH pixels, each 1..4096 (e.g. tile=16x16)" \
  "$ts" list --kernel-file "$tmp/spaces.cl"
printf '// tilescope: variant name=t\n// tilescope: pass entry=k tile=+32x+4\n' >"$tmp/signs.cl"
exactly 2 "tilescope: $tmp/signs.cl:2: tile: '+32x+4' is not WxH pixels, each 1..4096 (e.g. tile=16x16)" \
  "$ts" list --kernel-file "$tmp/signs.cl"
printf '// tilescope: variant name=t cost=0x10\n// tilescope: pass entry=k tile=8x8\n' >"$tmp/hex.cl"
exactly 2 "tilescope: $tmp/hex.cl:1: cost: '0x10' is not a whole number of ticks, 1..1000" \
  "$ts" list --kernel-file "$tmp/hex.cl"
plain_args='__kernel void k(__global const uchar *in, __global uchar *out, int W, int H) { }'
printf '// tilescope: plain tile=+16x16\n%s\n' "$plain_args" >"$tmp/ptile.cl"
exactly 2 "tilescope run: $tmp/ptile.cl:1: tile: expected WxH, as 16x16 (each 1..4096), not '+16x16'" \
  "$ts" run --kernel-file "$tmp/ptile.cl" -o "$tmp/p.png"
printf '// tilescope: plain halo=+1\n%s\n' "$plain_args" >"$tmp/phalo.cl"
exactly 2 "tilescope run: $tmp/phalo.cl:1: halo: expected 0 to 64 pixels, not '+1'" \
  "$ts" run --kernel-file "$tmp/phalo.cl" -o "$tmp/p.png"
printf '// tilescope: plain global=0x10,H\n%s\n' "$plain_args" >"$tmp/pglobal.cl"
exactly 2 "tilescope run: $tmp/pglobal.cl:1: global: '0x10' is not an expression of W, H and C" \
  "$ts" run --kernel-file "$tmp/pglobal.cl" -o "$tmp/p.png"

# --- a record's numbers are bounded by what a run allows; one line naming the field ---
python3 - "$src/tests/records/integral_none.json" "$tmp" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))
def make(name, change):
    d = json.loads(json.dumps(base))
    change(d["tilescope"])
    json.dump(d, open(f"{sys.argv[2]}/{name}.json", "w"))
def at(key, value):
    return lambda t: t.update({key: value})
def pass0(f):
    return lambda t: f(t["passes"][0])
make("unit", pass0(lambda p: p["groups"][0].__setitem__(1, 1024)))
make("cost", at("cost", 5000))
make("ksize", at("ksize", 4))
make("sigma", at("sigma", 1000))
make("channels", at("image", [320, 240, 2]))
make("width", at("image", [40000, 240, 1]))
make("tiles", pass0(lambda p: p.__setitem__("tw", 21)))
make("group", pass0(lambda p: p["groups"][5].__setitem__(0, 300)))
PY
record() { # record NAME LINE: shot --record of that record is refused with that line
  exactly 2 "tilescope shot: --record $tmp/$1.json: $2" \
    "$ts" shot --backend cpu --record "$tmp/$1.json" -o "$tmp/rec.png"
}
record unit "unit 1024 is out of range (a whole number, -1..1023)"
record cost "cost 5000 is out of range (a whole number, 0..1000)"
record ksize "ksize 4 is not a Gaussian's size (odd, 3..15)"
record sigma "sigma 1000 is out of range (0 for the default, or 0.01..100)"
record channels "channels 2 is not an image's (1, 3 or 4)"
record width "width 40000 is out of range (a whole number, 1..32768)"
record tiles "a pass of 21x15 tiles has 300 work-groups"
record group "group 300 is out of range (a pass of 300 groups)"
check "no screenshot of a refused record" test ! -e "$tmp/rec.png"

# --- a PNG whose palette indices pass its palette is refused ---
python3 - "$tmp" <<'PY'
import struct, sys, zlib
def png(path, w, h, depth, palette, rows):
    c = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    raw = b"".join(b"\0" + r for r in rows)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + c(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, 3, 0, 0, 0))
                           + c(b"PLTE", bytes(sum(palette, ()))) + c(b"IDAT", zlib.compress(raw))
                           + c(b"IEND", b""))
png(f"{sys.argv[1]}/pal8.png", 4, 2, 8, [(255, 0, 0), (0, 255, 0)], [bytes([0, 1, 2, 1]), bytes([0, 0, 0, 1])])
png(f"{sys.argv[1]}/pal4.png", 4, 1, 4, [(255, 0, 0)], [bytes([0x00, 0x05])])
png(f"{sys.argv[1]}/palok.png", 4, 1, 4, [(255, 0, 0), (0, 0, 255)], [bytes([0x01, 0x10])])
PY
exactly 2 "tilescope diff: '$tmp/pal8.png' is a corrupt PNG: pixel (2,0) has palette index 2, past its 2 colours" \
  "$ts" diff "$tmp/pal8.png" "$tmp/pal8.png"
exactly 2 "tilescope run: '$tmp/pal4.png' is a corrupt PNG: pixel (3,0) has palette index 5, past its 1 colour" \
  "$ts" run --backend cpu -i "$tmp/pal4.png"
"$ts" run --backend cpu --variant box2d -i "$tmp/palok.png" --raw "$tmp/palok.npy" >/dev/null 2>&1
check "a palette image within its palette loads as RGB" python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
sys.exit(b"(1, 4, 3)" not in d)' "$tmp/palok.npy"

# --- messages a user can act on ---
exactly 2 "tilescope run: -o '$tmp/x.jpg': writes PNG, not jpg (name the file .png)" \
  "$ts" run --backend cpu -o "$tmp/x.jpg"
exactly 2 "tilescope diff: -o '$tmp/d.JPEG': writes PNG, not JPEG (name the file .png)" \
  "$ts" diff -o "$tmp/d.JPEG" "$chart" "$chart"
exactly 2 "tilescope shot: -o '$tmp/s.bmp': writes PNG or GIF, not bmp (name the file .png or .gif)" \
  "$ts" shot -o "$tmp/s.bmp"
check "no file of a refused name" test ! -e "$tmp/x.jpg" -a ! -e "$tmp/d.JPEG" -a ! -e "$tmp/s.bmp"
out=$("$ts" run --backend cpu --slots 1 -o /dev/null 2>&1)
check "one slot, said so ($out)" grep -q ', 1 slot, cost 1$' <<<"$out"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  check ".gitignore covers the default screenshot" git -C "$src" check-ignore -q tilescope-shot.png
  check ".gitignore covers the screenshot key's files" git -C "$src" check-ignore -q tilescope-shot-007.png
fi
if [[ $have_cl -eq 1 ]]; then
  # one work-group: one logical lane
  python3 - "$tmp/one.png" <<'PY'
import struct, sys, zlib
c = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
raw = b"".join(b"\0" + bytes(range(16)) for y in range(16))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + c(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 0, 0, 0, 0))
                              + c(b"IDAT", zlib.compress(raw)) + c(b"IEND", b""))
PY
  out=$("$ts" run -i "$tmp/one.png" --variant integral --exec device 2>&1)
  check "1 group on 1 lane ($out)" grep -Eq '^device: 1 group on 1 (lane|unit)[ ;]' <<<"$out"
  # a user kernel with no equals= computes no built-in filter: bench says so
  "$ts" bench --kernel-file "$src/assets/kernels/sobel.cl" --variants sobel --size 64x64 \
    --repeats 1 --json >"$tmp/bench.json" 2>/dev/null
  check "bench --json: an unchecked user kernel's filter is null" python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))["variants"][0]
sys.exit(not (v["name"] == "sobel" and v["filter"] is None and v["output_ok"] is None))' "$tmp/bench.json"
fi

# --- the viewer: a script's expect-pixel, and shot's limits (needs GL) ---
if "$ts" shot -o "$tmp/probe.png" --backend cpu --size 640x400 >"$tmp/log" 2>&1; then
  printf 'expect-pixel 0 0 1 2 3 4\n' >"$tmp/arity.txt"
  err=$("$ts" shot --backend cpu --size 640x400 -o "$tmp/a.png" --script "$tmp/arity.txt" 2>&1 >/dev/null)
  rc=$?
  check "expect-pixel with 4 values on RGB: exit 1 ($rc)" test $rc -eq 1
  want="tilescope: script $tmp/arity.txt:1: expect-pixel gives 4 values, the output has 3 channels"
  want+=$'\n'"tilescope shot: 1 expectation of the script failed"
  check "expect-pixel with 4 values on RGB: its line, and no value compared ($err)" \
    test "$err" == "$want"
  exactly 2 "tilescope shot: --frames '0:20000:1': 20001 frames, over the limit of 10000" \
    "$ts" shot --backend cpu --size 640x400 -o "$tmp/f.png" --frames 0:20000:1
  exactly 2 "tilescope shot: --frames '+0:2:1': give FIRST:LAST:STEP ticks" \
    "$ts" shot --backend cpu --size 640x400 -o "$tmp/f.png" --frames +0:2:1
  printf 'shot %s\n' "$tmp/s.jpg" >"$tmp/shot.txt"
  exactly 2 "tilescope: script $tmp/shot.txt:1: a screenshot is a PNG: name it .png, not '$tmp/s.jpg'" \
    "$ts" shot --backend cpu --size 640x400 -o "$tmp/f.png" --script "$tmp/shot.txt"
else
  echo "note: no viewer here ($(head -1 "$tmp/log")); the viewer's checks did not run"
fi

echo "$passes passed, $fails failed"
[[ $fails -eq 0 ]]
