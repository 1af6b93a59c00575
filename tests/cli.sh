#!/usr/bin/env bash
# Command-line tests: exit codes, one-line error messages naming the file or option at fault,
# outputs written whole or not at all, and the exact files `run` writes.
# usage: cli.sh TILESCOPE MKCHART SOURCE_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # python3 itself (lib.sh)
ts=$1 mkchart=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0

# expect CODE REGEX CMD...: runs CMD, checks its exit code and that stdout+stderr match REGEX.
expect() {
  local code=$1 re=$2
  shift 2
  expect_all "$code" "$re" -- "$@"
}
# expect_all CODE REGEX... -- CMD...: expect CODE REGEX CMD for each REGEX, each a check of
# its own, against one run of CMD (a command several checks read runs once).
expect_all() {
  local code=$1 res=() re out rc
  shift
  while [[ $# -gt 0 && $1 != -- ]]; do res+=("$1"); shift; done
  shift
  out=$("$@" 2>&1)
  rc=$?
  for re in "${res[@]}"; do
    if [[ $rc -ne $code ]] || ! grep -Eq -- "$re" <<<"$out"; then
      echo "FAIL: $* -> exit $rc (want $code), output:"
      sed 's/^/    /' <<<"$out" | head -8
      echo "    (wanted /$re/)"
      fails=$((fails + 1))
    else
      passes=$((passes + 1))
    fi
  done
}

# An error is a single line on stderr.
one_line_error() {
  local n
  n=$("$@" 2>&1 >/dev/null | wc -l)
  if [[ $n -ne 1 ]]; then
    echo "FAIL: $* printed $n lines on stderr, want 1"
    fails=$((fails + 1))
  else
    passes=$((passes + 1))
  fi
}

chart=$src/assets/chart.png

# --- bad input ---
expect 2 "cannot open '$tmp/missing.png'" "$ts" run -i "$tmp/missing.png"
printf 'hello, not a png' >"$tmp/text.png"
expect 2 "'$tmp/text.png' is not a PNG file" "$ts" run -i "$tmp/text.png"
head -c 300 "$chart" >"$tmp/trunc.png"
expect 2 "'$tmp/trunc.png' is a corrupt PNG" "$ts" run -i "$tmp/trunc.png"
# A corrupt PNG is one line naming the file, exit 2, with nothing of libpng's own on any
# stream: the IDAT bytes damaged (their CRCs right, so that zlib and the row filters meet
# them), an IDAT's CRC wrong, and the file cut short (above).
python3 - "$chart" "$tmp" <<'PY'
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
pos, out = 8, bytearray(d[:8])
while pos < len(d):
    n, t = struct.unpack(">I4s", d[pos:pos + 8])
    body = bytearray(d[pos + 8:pos + 8 + n])
    if t == b"IDAT":
        for i in range(n // 2, min(n, n // 2 + 64)):
            body[i] ^= 0x5A
    out += struct.pack(">I", n) + t + body + struct.pack(">I", zlib.crc32(t + body))
    pos += 12 + n
open(sys.argv[2] + "/idat.png", "wb").write(out)
crc = bytearray(d)
i = d.index(b"IDAT") + 104
crc[i:i + 16] = bytes(b ^ 0xFF for b in crc[i:i + 16])
open(sys.argv[2] + "/idatcrc.png", "wb").write(crc)
PY
for f in idat idatcrc trunc; do
  expect 2 "^tilescope run: '$tmp/$f.png' is a corrupt PNG: [^ ]" "$ts" run -i "$tmp/$f.png"
  one_line_error "$ts" run -i "$tmp/$f.png"
  if "$ts" run -i "$tmp/$f.png" 2>&1 | grep -qi libpng; then
    echo "FAIL: run -i $f.png: libpng's own text: $("$ts" run -i "$tmp/$f.png" 2>&1)"
    fails=$((fails + 1))
  else
    passes=$((passes + 1))
  fi
done
expect 2 "^tilescope diff: '$tmp/idat.png' is a corrupt PNG: [^ ]" "$ts" diff "$tmp/idat.png" "$chart"
one_line_error "$ts" diff "$tmp/idat.png" "$chart"
# A header that claims 40000 x 40000 pixels (valid CRC).
python3 - "$tmp/huge.png" <<'PY'
import struct, sys, zlib
ihdr = struct.pack(">IIBBBBB", 40000, 40000, 8, 0, 0, 0, 0)
chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
                               chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b""))
PY
expect 2 "huge.png.*over the limit" "$ts" run -i "$tmp/huge.png"
expect 2 "unknown option '--bogus'" "$ts" run --bogus
expect 2 "--variant 'nope': unknown variant" "$ts" run --variant nope
expect 2 "--pattern 'zz': unknown pattern" "$ts" run --pattern zz
expect 2 "--walk 'diagonal': unknown walk" "$ts" run --walk diagonal
expect 2 "--pattern 'wavefrnt': unknown pattern \\(did you mean wavefront\\?\\)" "$ts" run --pattern wavefrnt
expect 2 "--slots 0: must be 1..65536" "$ts" run --slots 0
expect 2 "--slots: 'many' is not a whole number" "$ts" run --slots many
expect 2 "--cost 0: must be 1..1000|--cost 5000: must be" "$ts" run --cost 5000
expect 2 "--kernel-size 4: must be odd" "$ts" run --variant gauss_local --kernel-size 4
expect 2 "--sigma -1: must be between" "$ts" run --variant gauss_local --sigma -1
expect 2 "--tick -3: must be 0 or more" "$ts" run --tick -3
expect 2 "--slots needs a value" "$ts" run --slots
expect 2 "unknown command 'frobnicate'" "$ts" frobnicate
expect 2 "^tilescope bench: --variants: name at least one variant" "$ts" bench --variants ''
one_line_error "$ts" bench --variants ''
expect 2 "cannot write '/nonexistent-dir/out.png'" "$ts" run -o /nonexistent-dir/out.png
for args in "run --bogus" "run -i $tmp/text.png" "run --variant nope" "diff $tmp/text.png $chart"; do
  # shellcheck disable=SC2086
  one_line_error "$ts" $args
done

# An existing output is left whole when a write fails part-way: here, the directory is
# read-only, so the temporary file cannot even be created; nothing else appears.
mkdir "$tmp/ro" && cp "$chart" "$tmp/ro/keep.png" && chmod 555 "$tmp/ro"
if [[ $(id -u) -ne 0 ]]; then
  expect 2 "cannot write '$tmp/ro/keep.png'" "$ts" run -o "$tmp/ro/keep.png"
  cmp -s "$chart" "$tmp/ro/keep.png" || { echo "FAIL: keep.png changed"; fails=$((fails + 1)); }
fi
chmod 755 "$tmp/ro"
[[ -z $(find "$tmp" -name '*.tmp-*') ]] || { echo "FAIL: temporary files left"; fails=$((fails + 1)); }

# --- run ---
expect 0 "box2d on .*chart.png \(640x480x3\).*1200 threads" "$ts" run -o "$tmp/box.png"
expect 0 "same: 0 of 307200 pixels" "$ts" diff "$tmp/box.png" "$tmp/box.png"
# An input named in upper case (.PNG) is a PNG all the same.
cp "$chart" "$tmp/X.PNG"
expect 0 "^box2d on $tmp/X.PNG \(640x480x3\)" "$ts" run -i "$tmp/X.PNG" -o "$tmp/upper.png"
expect 0 "^same: 0 of 307200 pixels" "$ts" diff "$tmp/box.png" "$tmp/upper.png"
expect 0 "tick 0 of " "$ts" run --variant integral --tick 0 -o "$tmp/ii0.png"
expect 0 "tick 69 of 69, 0 hazards" "$ts" run --variant integral --raw "$tmp/ii.npy" \
  --schedule "$tmp/ii.csv" -o "$tmp/ii.png"
expect 0 "hazard: pass 1 thread \(1,0\) started at tick 0 and read what thread \(0,0\) writes" \
  "$ts" run --variant integral --pattern none
expect 0 "warning: walk 'horizontal' is not pattern 'wavefront''s own" \
  "$ts" run --variant integral --walk horizontal
# The .npy header and size: uint32, 480 x 640.
if ! head -c 128 "$tmp/ii.npy" | grep -aq "'descr': '<u4', 'fortran_order': False, 'shape': (480, 640)" ||
  [[ $(stat -c %s "$tmp/ii.npy") -ne $((128 + 480 * 640 * 4)) ]]; then
  echo "FAIL: integral .npy header or size"
  fails=$((fails + 1))
fi
# The last sum is the sum of the whole luma image; check it against Python on the PNG.
python3 - "$tmp/ii.npy" "$chart" <<'PY' || fails=$((fails + 1))
import struct, sys, zlib
raw = open(sys.argv[1], "rb").read()
last = struct.unpack("<I", raw[-4:])[0]
# Decode the chart (8-bit RGB, non-interlaced) with zlib and the PNG filters.
d = open(sys.argv[2], "rb").read()
pos, idat, w, h = 8, b"", 0, 0
while pos < len(d):
    n, t = struct.unpack(">I4s", d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    if t == b"IHDR":
        w, h = struct.unpack(">II", body[:8])
    if t == b"IDAT":
        idat += body
    pos += 12 + n
data, bpp, stride = zlib.decompress(idat), 3, w * 3
prev, total, i = bytearray(stride), 0, 0
for y in range(h):
    f, row = data[i], bytearray(data[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = row[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: row[x] = (row[x] + a) & 255
        elif f == 2: row[x] = (row[x] + b) & 255
        elif f == 3: row[x] = (row[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(w):
        r, g, bl = row[3 * x:3 * x + 3]
        total += (77 * r + 150 * g + 29 * bl + 128) >> 8
    prev = row
if last != total % 2**32:
    print("FAIL: integral last value", last, "luma total", total)
    sys.exit(1)
PY
# The schedule: one row per thread (40 x 30) plus a header.
[[ $(wc -l <"$tmp/ii.csv") -eq 1201 ]] || { echo "FAIL: schedule rows"; fails=$((fails + 1)); }
head -1 "$tmp/ii.csv" | grep -q "^pass,x,y,dispatch,slot,dispatch_tick,start_tick,end_tick,depth,hazards$" ||
  { echo "FAIL: schedule header"; fails=$((fails + 1)); }
# The 16-bit normalised PNG.
python3 -c "import sys; d=open(sys.argv[1],'rb').read(); sys.exit(0 if d[24]==16 and d[25]==0 else 1)" \
  "$tmp/ii.png" || { echo "FAIL: integral PNG is not 16-bit grey"; fails=$((fails + 1)); }
for v in box2d linear1d2 linearslide linearslide2 transpose2pass; do
  expect 0 "same: 0 of" bash -c "'$ts' run --variant $v -o '$tmp/$v.png' >/dev/null && '$ts' diff '$tmp/box.png' '$tmp/$v.png'"
done
"$ts" run --variant gauss_global --kernel-size 7 -o "$tmp/g.png" >/dev/null
for v in gauss_local gauss_local_sep gauss_slide gauss_stream; do
  expect 0 "same: 0 of" bash -c "'$ts' run --variant $v --kernel-size 7 -o '$tmp/$v.png' >/dev/null && '$ts' diff '$tmp/g.png' '$tmp/$v.png'"
done

# --- diff ---
expect 1 "different: [0-9]+ of 307200 pixels differ by more than 0" "$ts" diff "$chart" "$tmp/box.png"
expect 1 "would pass with --tolerance [0-9]+" "$ts" diff "$chart" "$tmp/box.png"
expect 0 "same: 0 of 307200 pixels differ by more than 255" "$ts" diff --tolerance 255 "$chart" "$tmp/box.png"
expect 0 "same:" "$ts" diff --max-diff-pixels 100% "$chart" "$tmp/box.png"
expect 1 "different:" "$ts" diff --max-diff-pixels 10 "$chart" "$tmp/box.png"
"$mkchart" "$tmp/small.png" 64x64
expect 1 "is 640x480, .* is 64x64" "$ts" diff "$chart" "$tmp/small.png"
expect 2 "needs two images" "$ts" diff "$chart"
expect 2 "cannot open '$tmp/nope.png'" "$ts" diff "$chart" "$tmp/nope.png"
expect 2 "--max-diff-pixels 'lots'" "$ts" diff --max-diff-pixels lots "$chart" "$chart"
expect 2 "--tolerance 300: must be 0..255" "$ts" diff --tolerance 300 "$chart" "$chart"
expect 1 "wrote $tmp/d.png" "$ts" diff -o "$tmp/d.png" "$chart" "$tmp/box.png"
# A grey image equals itself; against an RGB one of the same size it differs, with the reason.
"$ts" run --variant integral -o "$tmp/grey16.png" >/dev/null
expect 0 "same:" "$ts" diff "$tmp/grey16.png" "$tmp/grey16.png"
expect 1 "^different: .*chart.png has 3 channels, .*grey16.png has 1$" "$ts" diff "$chart" "$tmp/grey16.png"

# --- diff --json: one object; check its fields with Python ---
# json_check NAME CODE PYTHON-EXPR ARGS...: diff --json ARGS exits CODE, prints one line of
# JSON, and EXPR (over the object j) is true.
json_check() {
  local name=$1 code=$2 expr=$3
  shift 3
  local out rc
  out=$("$ts" diff --json "$@" 2>"$tmp/json.err")
  rc=$?
  if [[ $rc -ne $code || $(wc -l <<<"$out") -ne 1 || -s $tmp/json.err ]] ||
    ! python3 -c "import json, sys; j = json.loads(sys.argv[1]); sys.exit(0 if ($expr) else 1)" "$out"; then
    echo "FAIL: diff --json $name: exit $rc (want $code): $out $(cat "$tmp/json.err")"
    fails=$((fails + 1))
  else
    passes=$((passes + 1))
  fi
}
json_check same 0 'j["same"] is True and j["differing_pixels"] == 0 and j["psnr"] is None and
  j["max_diff"] == 0 and j["share"] == 0 and (j["width"], j["height"], j["channels"]) == (640, 480, 3) and
  j["pixels"] == 307200 and j["tolerance"] == 0 and j["passing_tolerance"] == 0 and
  j["diff_image"] is None and j["a"].endswith("chart.png")' "$chart" "$chart"
json_check different 1 'j["same"] is False and 0 < j["differing_pixels"] <= 307200 and
  abs(j["share"] - j["differing_pixels"] / 307200) < 1e-6 and 0 < j["max_diff"] <= 255 and
  j["psnr"] > 0 and j["passing_tolerance"] == j["max_diff"] and
  j["passing_max_diff_pixels"] == j["differing_pixels"] and j["max_diff_pixels"] == 0' \
  "$chart" "$tmp/box.png"
# The thresholds it reports pass, and one less fails.
read -r t n < <("$ts" diff --json --tolerance 3 "$chart" "$tmp/box.png" |
  python3 -c 'import json, sys; j = json.load(sys.stdin); print(j["passing_tolerance"], j["passing_max_diff_pixels"])')
expect 0 "^same:" "$ts" diff --tolerance "$t" "$chart" "$tmp/box.png"
expect 1 "^different:" "$ts" diff --tolerance $((t - 1)) "$chart" "$tmp/box.png"
expect 0 "^same:" "$ts" diff --tolerance 3 --max-diff-pixels "$n" "$chart" "$tmp/box.png"
expect 1 "^different:" "$ts" diff --tolerance 3 --max-diff-pixels $((n - 1)) "$chart" "$tmp/box.png"
json_check allowance 0 'j["same"] and j["tolerance"] == 255 and j["max_diff_pixels"] == 3072 and
  j["diff_image"].endswith("d2.png")' --tolerance 255 --max-diff-pixels 1% -o "$tmp/d2.png" "$chart" "$tmp/box.png"
[[ -s $tmp/d2.png ]] || { echo "FAIL: diff --json -o wrote no image"; fails=$((fails + 1)); }
json_check size 1 'j["same"] is False and "is 640x480" in j["reason"] and "is 64x64" in j["reason"] and
  (j["a_width"], j["a_height"], j["b_width"], j["b_height"], j["b_channels"]) == (640, 480, 64, 64, 3)' \
  "$chart" "$tmp/small.png"
json_check channels 1 'j["same"] is False and j["reason"].endswith("has 3 channels, " + j["b"] + " has 1")
  and (j["a_channels"], j["b_channels"]) == (3, 1)' "$chart" "$tmp/grey16.png"
# File names with quotes, backslashes, control characters and bytes that are not UTF-8.
odd=$tmp/$(printf 'q"b\\s\001\377\303\251.png')
cp "$chart" "$odd"
json_check "odd name" 0 'j["a"].endswith("q\"b\\s\x01\ufffd\u00e9.png")' "$odd" "$chart"
expect 2 "cannot open '$tmp/nope.png'" "$ts" diff --json "$chart" "$tmp/nope.png"
[[ -z $("$ts" diff --json "$chart" "$tmp/nope.png" 2>/dev/null) ]] ||
  { echo "FAIL: diff --json printed JSON for bad input"; fails=$((fails + 1)); }

# --- run --json: one object; check its fields, and that they agree with each other ---
# run_json NAME CODE PYTHON-EXPR ARGS...: run --json ARGS exits CODE, prints one line of JSON,
# and EXPR (over the object j) is true.
run_json() {
  local name=$1 code=$2 expr=$3
  shift 3
  local rc
  "$ts" run --json "$@" >"$tmp/run.json" 2>"$tmp/json.err"
  rc=$?
  if [[ $rc -ne $code || $(wc -l <"$tmp/run.json") -ne 1 ]] ||
    ! python3 -c "import json, sys; j = json.load(open(sys.argv[1])); sys.exit(0 if ($expr) else 1)" "$tmp/run.json"; then
    echo "FAIL: run --json $name: exit $rc (want $code): $(head -c 300 "$tmp/run.json") $(cat "$tmp/json.err")"
    fails=$((fails + 1))
  else
    passes=$((passes + 1))
  fi
}
run_json hazards 0 'j["variant"] == "integral" and j["schedule"] == {"pattern": "none",
  "walk": "horizontal", "slots": 168, "cost": 1} and (j["width"], j["height"], j["channels"]) ==
  (640, 480, 3) and j["exec"] == "sim" and j["backend"] == "cpu" and j["device"] is None and
  j["tick"] == j["ticks"] == 8 and j["threads"] == 1200 and j["hazards"] == 2928 ==
  len(j["hazard_list"]) and j["hazard_threads"] == 1187 ==
  len({tuple(h["consumer"]) for h in j["hazard_list"]}) and
  j["hazard_list"][0] == {"pass": 1, "consumer": [1, 0], "producer": [0, 0], "start_tick": 0,
  "producer_end_tick": 1} and all(h["start_tick"] < h["producer_end_tick"] for h in j["hazard_list"])
  and j["times"]["exec_ms"] >= 0 and j["output"].endswith("rj.png") and "stall" not in j' \
  --variant integral --pattern none --backend cpu -o "$tmp/rj.png"
[[ -s $tmp/rj.png ]] || { echo "FAIL: run --json -o wrote no image"; fails=$((fails + 1)); }
run_json "clean, to a tick" 0 'j["hazards"] == 0 and j["hazard_list"] == [] and j["tick"] == 3 and
  j["ticks"] == 69 and j["schedule"]["walk"] == "wavefront" and j["output"] is None' \
  --variant integral --backend cpu --tick 3
run_json "two passes" 0 'j["passes"] == 2 and j["variant"] == "transpose2pass" and
  j["schedule"]["slots"] == 7 and j["schedule"]["cost"] == 3' \
  --variant transpose2pass --backend cpu --slots 7 --cost 3
expect 2 "--slots 0" "$ts" run --json --slots 0
[[ -z $("$ts" run --json -i "$tmp/nope.png" 2>/dev/null) ]] ||
  { echo "FAIL: run --json printed JSON for bad input"; fails=$((fails + 1)); }

# --- the committed chart is what the generator draws ---
"$mkchart" "$tmp/chart.png" || { echo "FAIL: ts_mkchart"; fails=$((fails + 1)); }
expect 0 "same:" "$ts" diff --tolerance 1 "$chart" "$tmp/chart.png"

# --- OpenCL ---
if "$ts" list | grep -q "^  0: "; then
  cp -r "$src/kernels" "$tmp/kernels"
  printf '\n__kernel void broken(void) { this is not C }\n' >>"$tmp/kernels/box.cl"
  expect_all 2 "box.cl: the kernel does not build .*\(variant linear1d2\); build log:" "error" -- \
    "$ts" run --variant linear1d2 --kernels "$tmp/kernels"
  expect 0 "OpenCL on .*kernels" "$ts" run --variant gauss_local --kernels "$src/kernels"
  expect 2 "--kernels '$tmp/nowhere': no common.cl there" "$ts" run --kernels "$tmp/nowhere"
  expect 2 "--device 99: no such OpenCL device" "$ts" run --device 99
  for v in linearslide transpose2pass integral; do
    "$ts" run --variant $v --backend cpu --raw "$tmp/cpu.npy" >/dev/null
    "$ts" run --variant $v --backend cl --slots 5 --raw "$tmp/cl.npy" >/dev/null
    cmp -s "$tmp/cpu.npy" "$tmp/cl.npy" || { echo "FAIL: $v differs between back ends"; fails=$((fails + 1)); }
  done
  expect 0 "gauss_local_sep +gauss_local_sep .* B" "$ts" list --memory
  expect 0 '"copy_gbps": [0-9.]+, "variants": \[' "$ts" bench --size 64x64 --repeats 1 --json
  # bench names the host's CPU as /proc/cpuinfo does, with its vector instructions and cores
  "$ts" bench --size 64x64 --repeats 1 --variants box2d --json >"$tmp/bench.json" 2>/dev/null
  if python3 - "$tmp/bench.json" <<'PY'; then passes=$((passes + 1)); else echo "FAIL: bench --json host_cpu: $(head -c 200 "$tmp/bench.json")"; fails=$((fails + 1)); fi
import json, os, re, sys
cpu = json.load(open(sys.argv[1]))["host_cpu"]
model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "a CPU")
want = re.escape(model) + r" \(((AVX-512|AVX2|no AVX2), )?%d cores\)" % os.cpu_count()
sys.exit(0 if re.fullmatch(want, cpu) else 1)
PY
  expect 0 "integral .*%" "$ts" bench --size 96x64 --repeats 2 --channels 3 --variants box2d,integral
  expect 0 '"runs": 2, "one_launch_runs": 2, "output_ok": true' "$ts" bench --size 64x64 --repeats 2 --variants box2d --json
  expect_all 0 "^fastest integral image here: integral, " "^fastest box 3x3 here: box2d, " -- \
    "$ts" bench --size 96x64 --repeats 1 --variants box2d,integral
  expect 2 "--variants: unknown variant 'nope'" "$ts" bench --variants nope
  expect 2 "--size 'big'" "$ts" bench --size big
  # --- the schedule run by the device ---
  expect 0 "device: 1200 groups on [0-9]+ (lanes?|units?).*; 0 wrong tiles" \
    "$ts" run --variant integral --exec device --trace "$tmp/trace.json" -o "$tmp/dev.png"
  "$ts" run --variant integral -o "$tmp/sim.png" >/dev/null
  cmp -s "$tmp/dev.png" "$tmp/sim.png" || { echo "FAIL: --exec device differs from --exec sim"; fails=$((fails + 1)); }
  # The trace: valid JSON, one slice per work-group with its ticket and tile, the simulated
  # schedule as a second process, and the record under "tilescope".
  if python3 - "$tmp/trace.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
groups = [e for e in ev if e.get("pid") == 1 and e.get("ph") == "X" and e["name"] != "wait"]
sim = [e for e in ev if e.get("pid") == 2 and e.get("ph") == "X"]
tickets = sorted(e["args"]["ticket"] for e in groups)
assert len(groups) == 1200 and tickets == list(range(1200)), len(groups)
assert len(sim) == 1200
assert all(e["dur"] >= 0 and "tile" in e["args"] for e in groups)
rec = d["tilescope"]
assert rec["variant"] == "integral" and rec["pattern"] == "wavefront"
assert len(rec["passes"][0]["groups"]) == 1200
PY
  then passes=$((passes + 1)); else echo "FAIL: the trace file"; fails=$((fails + 1)); fi
  start=$(date +%s)
  expect 1 "integral, pattern wavefront, walk wavefront: the device schedule did not finish: .* waiting for ticket [0-9]+ .*; ticket 30 \\(tile [0-9]+,[0-9]+\\) never signalled" \
    "$ts" run --variant integral --exec device --test-stuck 30 -o "$tmp/stuck.png"
  (($(date +%s) - start < 30)) || { echo "FAIL: the stuck run took too long"; fails=$((fails + 1)); }
  [[ ! -e $tmp/stuck.png ]] || { echo "FAIL: a stalled run wrote its output"; fails=$((fails + 1)); }
  one_line_error "$ts" run --variant integral --exec device --test-stuck 30 --spin-limit 1000
  # The look-back's groups wait for aggregates, and a ticket that publishes none stalls them
  # the same way: one line, exit 1. Its run prints the record's critical path.
  expect 1 "integral_lookback, pattern wavefront, walk wavefront: the device schedule did not finish: .*; ticket 3 \\(tile [0-9]+,[0-9]+\\) never signalled" \
    "$ts" run --variant integral_lookback --exec device --test-stuck 3 --spin-limit 100000
  expect 0 "^critical path: " "$ts" run --variant integral_lookback --exec device
  expect 0 "wrong tile: pass 1 thread|0 wrong tiles" "$ts" run --variant integral --exec device --pattern none
  # The adversary: a dropped dependency shows on a CPU device too (20 runs of 20 on 2 cores,
  # so one of three here), and the right patterns stay right under it.
  shown=0
  for _ in 1 2 3; do
    "$ts" run --variant integral --exec device --pattern none --adversary >"$tmp/adv" 2>&1
    grep -Eq "^device: 1200 groups on .*; [1-9][0-9]* wrong tiles?; under the adversary \(random delays, seed [0-9]+\)$" "$tmp/adv" && { shown=1; break; }
  done
  ((shown)) || { echo "FAIL: the adversary showed no wrong tile in three runs: $(grep ^device "$tmp/adv")"; fails=$((fails + 1)); }
  for v in integral integral_lookback_wide; do
    expect 0 "; 0 wrong tiles; under the adversary" "$ts" run --variant $v --exec device --adversary
  done
  expect 2 "^tilescope run: --adversary: needs --exec device$" "$ts" run --variant integral --adversary
  # --- pattern advice: every built-in under its default pattern (README: pattern advice),
  # and the integral under patterns that miss a vector or wait for one it does not need ---
  if python3 - "$ts" <<'PY'
import json, re, subprocess, sys
ts = sys.argv[1]
names = re.findall(r"^  ([a-z0-9_]+) +(?:box|gaussian|integral)", subprocess.run(
    [ts, "list"], capture_output=True, text=True).stdout, re.M)
assert len(names) >= 20, names
def advice(*args):
    out = subprocess.run([ts, "run", "--backend", "cpu", "--json", *args], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)["advice"]
for v in names:
    a = advice("--variant", v)
    assert a["missing"] == [] and a["suggest"] is None, (v, a)
    if v == "integral_lookback_band":  # bands under horizontal: the band above, nothing to drop
        assert a["needed"] == [[0, -1]] and a["unneeded"] == [], (v, a)
    elif v.startswith("integral") and v not in ("integral_scan", "integral_colrow", "integral_band"):
        assert a["needed"] == [[-1, 0], [0, -1]], (v, a)
        u = a["unneeded"]
        assert [e["vector"] for e in u] == [[-1, -1]] and u[0]["ticks_with"] == u[0]["ticks_without"], (v, a)
    else:
        assert a["needed"] == [] and a["unneeded"] == [], (v, a)
a = advice("--variant", "integral", "--pattern", "none")
assert [(m["vector"], m["threads"]) for m in a["missing"]] == [([-1, 0], 1170), ([0, -1], 1160), ([-1, -1], 1131)], a
assert a["suggest"]["vectors"] == [[-1, 0], [0, -1]], a
a = advice("--variant", "integral", "--pattern", "wavefront26")
assert a["missing"] == [] and a["needed"] == [[-1, 0], [0, -1]], a
assert a["unneeded"][0] == {"vector": [1, -1], "ticks_with": 98, "ticks_without": 79}, a
PY
  then passes=$((passes + 1)); else echo "FAIL: the pattern advice"; fails=$((fails + 1)); fi
  expect 0 "^advice: \(0,-1\) missing: 1160 threads read the tile above, which no chain of waits orders first$" \
    "$ts" run --variant integral --pattern vertical --backend cpu
  expect 0 "^advice: \(1,-1\) unneeded: no thread reads the tile above and to the right; it costs 19 ticks \(98 with it, 79 without\)$" \
    "$ts" run --variant integral --pattern wavefront26 --backend cpu
  # wavefront26x orders a left neighbour through the tile below it: a last row of tiles has
  # none, so its left reads are races although the simulator's ticks find no hazard.
  python3 - "$tmp/odd.png" <<'PY'
import struct, sys, zlib
w, h = 80, 40  # 5 x 3 blocks of 16 x 16
ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
rows = b"".join(b"\0" + bytes((x * 7 + y * 13) % 256 for x in range(w)) for y in range(h))
chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
                               chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
PY
  "$ts" run --variant integral --exec device --pattern wavefront26x -i "$tmp/odd.png" > "$tmp/26x.txt"
  if grep -q "0 hazards in 0 threads" "$tmp/26x.txt" && grep -q "^races: 4 reads" "$tmp/26x.txt" &&
     grep -q "^race: pass 1 thread (1,2) reads what thread (0,2) writes" "$tmp/26x.txt"
  then passes=$((passes + 1)); else echo "FAIL: wavefront26x races"; cat "$tmp/26x.txt"; fails=$((fails + 1)); fi
  # run --json of the device's run: the wrong tiles, and every hazard is also a race.
  run_json device 0 'j["exec"] == "device" and j["backend"] == "cl" and j["device"] and
    j["stall"] is None and j["groups"] == 1200 and j["lanes"] >= 1 and j["clock"] in ("ns", "logical")
    and j["wrong_tiles"] == len(j["wrong_tile_list"]) and j["races"] == len(j["race_list"]) and
    j["hazards"] == 2928 and {(tuple(h["consumer"]), tuple(h["producer"])) for h in j["hazard_list"]}
    <= {(tuple(r["consumer"]), tuple(r["producer"])) for r in j["race_list"]}' \
    --variant integral --exec device --pattern none
  run_json "device, ordered" 0 'j["wrong_tiles"] == 0 and j["wrong_tile_list"] == [] and
    j["races"] == 0 and j["hazards"] == 0' --variant integral --exec device
  run_json stall 1 'j["stall"].endswith("never signalled") and "; ticket 30 (tile " in j["stall"]
    and "wrong_tiles" not in j' \
    --variant integral --exec device --test-stuck 30 --spin-limit 1000
  expect 2 "--exec device: the device runs the schedule on the OpenCL back end" \
    "$ts" run --exec device --backend cpu
  expect 2 "--exec 'gpu': unknown execution" "$ts" run --exec gpu
  expect 2 "--trace: needs --exec device" "$ts" run --trace "$tmp/t.json"
  expect 2 "--tick: the device runs the whole schedule" "$ts" run --exec device --tick 3
  # Observation: every access recorded and checked.
  expect 0 "observed: 0 footprint violations, 0 write-rectangle violations, 0 accesses outside a buffer, 0 elements written by two threads" \
    "$ts" run --variant linear1d2 --observe
  expect 0 "observed hazards: 2928, as the declared footprints give" \
    "$ts" run --variant integral --pattern none --observe
  # One thread's exact elements: integral's neighbour reads are an L of 33 elements in a
  # 17x17 rectangle.
  expect 0 "^thread \(3,2\) of pass 1 read out \(committed\): columns 47..63, rows 31..47, 33 element accesses, 33 distinct; declared columns 47..63, rows 31..47$" \
    "$ts" run --variant integral --observe --observe-thread 3,2
  expect 2 "--observe-thread '1,x': give the thread as X,Y" "$ts" run --observe --observe-thread 1,x
  expect 2 "--observe-thread '1,1': needs --observe" "$ts" run --observe-thread 1,1
  expect 2 "--observe: observation replays the simulated order, not --exec device" \
    "$ts" run --observe --exec device
  expect 2 "--observe: observation runs on the OpenCL back end, not --backend cpu" \
    "$ts" run --observe --backend cpu
  # The shipped user kernels: the right one equals the reference in both execution modes
  # and passes observation; the broken one is right in its pixels, and observation names the
  # first thread and element outside its declared footprint.
  ks=$src/assets/kernels
  expect_all 0 "output equals the box3 reference" "observed: 0 footprint violations" -- \
    "$ts" run --kernel-file "$ks/box_rows.cl" --variant box_rows --observe
  expect 0 "0 wrong tiles" "$ts" run --kernel-file "$ks/box_rows.cl" --variant box_rows --exec device
  expect 0 "output equals the box3 reference" "$ts" run --kernel-file "$ks/box_short_halo.cl" --variant box_short_halo
  expect_all 1 "^box_short_halo: pass 1 thread \(0,0\) read in pixel \(16,0\) channel 0, outside its declared footprint \(pixels x 0..15, y 0..15; 285 accesses outside\)$" \
    "^observed: 1200 footprint violations, 0 write-rectangle violations" -- \
    "$ts" run --kernel-file "$ks/box_short_halo.cl" --variant box_short_halo --observe
  # A FIFO wherever a file is read is refused at once (an open for reading would wait for
  # a writer): one line, exit 2.
  mkfifo "$tmp/fifo.png" "$tmp/fifo.cl"
  expect 2 "cannot read '$tmp/fifo.png': not a regular file" timeout 20 "$ts" run -i "$tmp/fifo.png"
  expect 2 "cannot read '$tmp/fifo.png': not a regular file" timeout 20 "$ts" run --expect "$tmp/fifo.png"
  expect 2 "cannot read '$tmp/fifo.png': not a regular file" timeout 20 "$ts" diff "$tmp/fifo.png" "$src/assets/chart.png"
  expect 2 "cannot read '$tmp/fifo.cl': not a regular file" timeout 20 "$ts" run --kernel-file "$tmp/fifo.cl"
  mkdir -p "$tmp/fifo-kernels" && mkfifo "$tmp/fifo-kernels/k.cl"
  expect 0 "warning: cannot read '$tmp/fifo-kernels/k.cl': not a regular file" \
    env TILESCOPE_USER_KERNELS="$tmp/fifo-kernels" timeout 20 "$ts" list
  # --fail-on turns findings that are not failures by default into exit 1.
  expect 0 "hazards" "$ts" run --variant integral --pattern none
  expect 1 "^tilescope run: --fail-on hazards: 2928 hazards" "$ts" run --variant integral --pattern none --fail-on hazards
  expect 0 "0 hazards" "$ts" run --variant integral --fail-on any
  expect 2 "^tilescope run: --fail-on 'bogus': unknown finding" "$ts" run --fail-on bogus
  # A plain kernel: findings exit 1, a clean run 0.
  expect 1 "^broken_halo.cl:32: read of an element nothing wrote in gauss_tiled: work-group \([0-9]+,[0-9]+\) item \([0-9]+,[0-9]+\) reads __local tile\[[0-9]+\], before" \
    "$ts" run --kernel-file "$src/assets/kernels/plain/broken_halo.cl" --observe
  expect 0 "^observed: no finding, every access in order$" "$ts" run --kernel-file "$src/assets/kernels/plain/conv2d.cl" --observe
  # --order runs the work-groups in another legal order (observed alone): a race-free kernel
  # gives the same pixels in any order, a kernel whose groups overwrite each other does not.
  "$ts" run --kernel-file "$src/assets/kernels/plain/conv2d.cl" -o "$tmp/order_dev.png" >/dev/null 2>&1
  expect 0 "^the plain run was not made: --order random:7 runs the observed kernel alone" \
    "$ts" run --kernel-file "$src/assets/kernels/plain/conv2d.cl" --order random:7 -o "$tmp/order_rnd.png"
  expect 0 "^same: 0 of" "$ts" diff "$tmp/order_dev.png" "$tmp/order_rnd.png"
  "$ts" run --kernel-file "$src/assets/kernels/plain/broken_tile.cl" --observe -o "$tmp/tile_dev.png" >/dev/null 2>&1
  expect 1 "race between work-groups" "$ts" run --kernel-file "$src/assets/kernels/plain/broken_tile.cl" --order reverse -o "$tmp/tile_rev.png"
  expect 1 "^different: " "$ts" diff "$tmp/tile_dev.png" "$tmp/tile_rev.png"
  expect 2 "^tilescope run: --order 'sideways': device, linear, reverse, random:SEED" \
    "$ts" run --kernel-file "$src/assets/kernels/plain/conv2d.cl" --order sideways
  # --repeats times the launch N times; the findings are one launch's, not N times them.
  expect 1 "; 918000 times in all$" "$ts" run --kernel-file "$src/assets/kernels/plain/broken_nobarrier.cl" --observe --repeats 2
  # A plain kernel that crashes or never ends runs in a process of its own: one line, exit 1,
  # and tilescope goes on (the watchdog: --timeout).
  # (SIGSEGV, whatever handler the host installed, AddressSanitizer's too: the child resets them)
  expect 1 "^tilescope run: far.cl, run plain: crashed \(signal [0-9]+, SIG" "$ts" run --kernel-file "$src/tests/kernels/far.cl"
  # (named by the nearest buffer, which depends on where the device put them)
  expect 1 "^far.cl:7: access outside every buffer \(not performed\) in far: work-group \(0,0\) item \(0,0\) writes (in|out).*pixel" \
    "$ts" run --kernel-file "$src/tests/kernels/far.cl" --observe
  expect 1 "^tilescope run: forever.cl, run plain: did not finish in 3 s; the watchdog stopped it \(--timeout\)$" \
    "$ts" run --kernel-file "$src/tests/kernels/forever.cl" --timeout 3
  expect 2 "^tilescope run: --isolate 'thread': process or none$" "$ts" run --kernel-file "$src/tests/kernels/far.cl" --isolate thread
  # bench times only what computes right: a kernel that writes nothing is named, exit 1, and
  # is never "fastest".
  expect_all 1 "^tilescope bench: k_nowrite: its output differs from the box 3x3 reference \(launches\)" \
    "^fastest box 3x3 here: box2d" -- \
    "$ts" bench --kernel-file "$src/tests/kernels/nowrite.cl" --variants k_nowrite,box2d --size 64x64 --repeats 1
  # bench times a plain kernel's passes plain and observed (no figure is checked, only that
  # each is there); one that would access memory outside its buffers is named, exit 1, and is
  # not timed plain.
  expect 0 "^conv2d +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+x$" \
    "$ts" bench --kernel-file "$src/assets/kernels/plain/conv2d.cl" --size 64x64 --repeats 3
  expect 0 '"passes": \[\{"entry": "gauss_rows", "plain_ms": [0-9.]+, .*\{"entry": "gauss_cols", ' \
    "$ts" bench --kernel-file "$src/assets/kernels/plain/separable.cl" --size 64x64 --repeats 2 --json
  expect 1 "^tilescope bench: .*far.cl: it would access memory outside its buffers, so its plain run is not timed" \
    "$ts" bench --kernel-file "$src/tests/kernels/far.cl" --size 64x64 --repeats 1
  expect 1 "^tilescope bench: forever.cl, observed: did not finish in 3 s; the watchdog stopped it \(--timeout\)$" \
    "$ts" bench --kernel-file "$src/tests/kernels/forever.cl" --size 64x64 --repeats 1 --timeout 3
  expect 2 "^tilescope bench: --repeats 0: must be 1..1000$" \
    "$ts" bench --kernel-file "$src/assets/kernels/plain/conv2d.cl" --repeats 0
  # A wrong entry= names the file and the entry, not OpenCL's error code.
  sed 's/entry=box_rows /entry=box_rowz /' "$ks/box_rows.cl" >"$tmp/wrongentry.cl"
  expect 2 "wrongentry.cl: entry=box_rowz: the file has no __kernel of that name" "$ts" run --kernel-file "$tmp/wrongentry.cl"
  # --kernel-file alone runs the file's variant; two files need --variant.
  expect 0 "^box_rows on " "$ts" run --kernel-file "$ks/box_rows.cl"
  expect 2 "^tilescope: --kernel-file: 2 kernels \(box_rows, sobel\): name one with --variant$" \
    "$ts" run --kernel-file "$ks/box_rows.cl" --kernel-file "$ks/sobel.cl"
  # A dialect kernel that reads src directly, not through an accessor, is observed all the
  # same (the instrumenter passes its direct accesses through the observation), and so is a
  # direct write past its buffer, which is not performed.
  expect_all 1 "^box_direct: pass 1 thread \(0,0\) read in pixel \(16,0\) channel 0, outside its declared footprint \(pixels x 0..15, y 0..15; 285 accesses outside\)$" \
    "^box_direct: pass 1 thread \(0,29\) wrote out pixel \(0,480\) channel 0, outside the buffer \(640 x 480 pixels of 3 channels\); not performed \(3 such accesses\)$" -- \
    "$ts" run --kernel-file "$src/tests/kernels/box_direct.cl" --variant box_direct --observe
  # With --json the checks' verdicts are fields, and their lines go to stderr.
  out=$("$ts" run --kernel-file "$ks/box_short_halo.cl" --variant box_short_halo --observe --json 2>"$tmp/obs.err")
  rc=$?
  if [[ $rc -ne 1 ]] || ! grep -q "^box_short_halo: pass 1 thread (0,0) read in pixel (16,0) channel 0" "$tmp/obs.err" ||
    ! python3 -c 'import json, sys; j = json.loads(sys.argv[1]); sys.exit(0 if j["observed_ok"] is False and j["output_ok"] is True else 1)' "$out"; then
    echo "FAIL: run --observe --json: exit $rc: $out"
    fails=$((fails + 1))
  fi
  expect 0 "box_rows +none" "$ts" bench --kernel-file "$ks/box_rows.cl" --variants box_rows --size 64x64 --repeats 1
  # A user kernel checked against an expected PNG instead, and a mismatch.
  "$ts" run --variant box2d -o "$tmp/box_ref.png" >/dev/null 2>&1
  expect 0 "output equals $tmp/box_ref.png" "$ts" run --kernel-file "$ks/box_rows.cl" --variant box_rows --expect "$tmp/box_ref.png"
  expect 1 "output differs from $chart: first at pixel \([0-9]+,[0-9]+\) channel [0-9]: [0-9]+, want [0-9]+" \
    "$ts" run --variant box2d --expect "$chart"
  # A .npy reference whose header holds a newline and control bytes (ESC, CR, BEL): one line,
  # exit 2, the header shown with them as spaces; the same header without them is read.
  python3 - "$tmp" <<'PY'
import sys
def npy(name, header):
    h = header.encode("latin-1")
    h += b" " * ((64 - (10 + len(h) + 1) % 64) % 64) + b"\n"
    open(sys.argv[1] + "/" + name, "wb").write(b"\x93NUMPY\x01\x00" + bytes([len(h) & 255, len(h) >> 8])
                                            + h + bytes(481 * 641 * 4))
npy("nl.npy", "{'descr':\n'<i4', 'fortran_order': False, 'shape': (481, 641), }")
npy("ctl.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (\x1b[31m481, 641), }\r\x07")
npy("zero.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (481, 641), }")
PY
  li=$src/tests/kernels/lib_integral.cl
  expect 2 "^tilescope run: --expect: '$tmp/nl.npy': a .npy header tilescope cannot read \(C order, at most 4 dimensions\): \{'descr': '<i4', 'fortran_order'" \
    "$ts" run --kernel-file "$li" --expect "$tmp/nl.npy"
  expect 2 "^tilescope run: --expect: '$tmp/ctl.npy': a .npy header tilescope cannot read .*'shape': \( \[31m481, 641\), \}$" \
    "$ts" run --kernel-file "$li" --expect "$tmp/ctl.npy"
  for f in nl ctl; do
    one_line_error "$ts" run --kernel-file "$li" --expect "$tmp/$f.npy"
    if "$ts" run --kernel-file "$li" --expect "$tmp/$f.npy" 2>&1 | LC_ALL=C grep -q '[[:cntrl:]]'; then
      echo "FAIL: --expect $f.npy: a control byte in the message"
      fails=$((fails + 1))
    else
      passes=$((passes + 1))
    fi
  done
  expect 1 "^output differs from $tmp/zero.npy: first at pixel" "$ts" run --kernel-file "$li" --expect "$tmp/zero.npy"
  # The examples without a built-in equivalent: Sobel (halo 1) and a 5x5 median (halo 2)
  # read exactly their declared footprints; on a flat image Sobel gives black and the median
  # the same flat image (flat PNGs written here, RGB 8-bit).
  for k in sobel median5; do
    expect 0 "^observed: 0 footprint violations, 0 write-rectangle violations, 0 accesses outside a buffer, 0 elements" \
      "$ts" run --kernel-file "$ks/$k.cl" --variant $k --observe
  done
  python3 - "$tmp" <<'PY'
import struct, sys, zlib
def png(path, w, h, v):
    raw = b"".join(b"\0" + bytes([v]) * (3 * w) for _ in range(h))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
png(sys.argv[1] + "/flat.png", 37, 29, 137)
png(sys.argv[1] + "/black.png", 37, 29, 0)
PY
  expect 0 "output equals $tmp/black.png" "$ts" run -i "$tmp/flat.png" --kernel-file "$ks/sobel.cl" --variant sobel --expect "$tmp/black.png"
  expect 0 "output equals $tmp/flat.png" "$ts" run -i "$tmp/flat.png" --kernel-file "$ks/median5.cl" --variant median5 --expect "$tmp/flat.png"
  expect 1 "output differs from $tmp/flat.png" "$ts" run -i "$tmp/flat.png" --kernel-file "$ks/sobel.cl" --variant sobel --expect "$tmp/flat.png"
elif [[ ${CI:-} == true ]]; then
  echo "FAIL: no OpenCL device in CI"
  fails=$((fails + 1))
else
  echo "note: no OpenCL device here; the OpenCL command-line checks did not run"
fi
# With no OpenCL platform visible: the CPU back end, said once; an error if cl was asked for.
mkdir -p "$tmp/no-icd"
expect 0 "no OpenCL platform found .*; using the CPU back end" \
  env OCL_ICD_VENDORS="$tmp/no-icd" "$ts" run --variant integral
expect 0 "cpu model" env OCL_ICD_VENDORS="$tmp/no-icd" "$ts" run --variant integral
expect 2 "--backend cl: no OpenCL platform found" \
  env OCL_ICD_VENDORS="$tmp/no-icd" "$ts" run --backend cl
expect 0 "none: no OpenCL platform found" env OCL_ICD_VENDORS="$tmp/no-icd" "$ts" list

# --- user kernels ---
# Every header mistake is one line, FILE:LINE: FIELD: what, and exit 2, for any command.
export TILESCOPE_USER_KERNELS="$tmp/no-user-kernels"
uk() { printf '%b' "$2" >"$tmp/$1"; }
uk none.cl '__kernel void k(void) {}\n'
uk tile.cl '// tilescope: variant name=t\n// tilescope: pass entry=k tile=16y16\n'
uk field.cl '// tilescope: variant name=f\n// tilescope: pass entry=k tile=8x8 colour=red\n'
uk entry.cl '// A comment first.\n// tilescope: variant name=e\n\n// tilescope: pass tile=8x8\n'
uk equals.cl '// tilescope: variant name=q equals=sobel\n'
uk halo.cl '// tilescope: variant name=h\n// tilescope: pass entry=k tile=8x8 halo=-1\n'
uk order.cl '// tilescope: pass entry=k tile=8x8\n// tilescope: variant name=o\n'
uk nopass.cl '// tilescope: variant name=n\nint x;\n'
uk clash.cl '// tilescope: variant name=box2d\n// tilescope: pass entry=k tile=8x8\n'
expect 2 "^tilescope: $tmp/none.cl:1: tilescope: no header \(the file opens with comment lines such as // tilescope: variant name=NAME, or // tilescope: plain for a plain OpenCL C kernel\)$" "$ts" list --kernel-file "$tmp/none.cl"
expect 2 "^tilescope: $tmp/tile.cl:2: tile: '16y16' is not WxH pixels, each 1..4096 \(e.g. tile=16x16\)$" "$ts" run --kernel-file "$tmp/tile.cl"
expect 2 "^tilescope: $tmp/field.cl:2: colour: unknown field of \`pass\` \(entry, tile, group, halo, src, dst\)$" "$ts" list --kernel-file "$tmp/field.cl"
expect 2 "^tilescope: $tmp/entry.cl:4: entry: missing \(each pass names its __kernel: entry=NAME\)$" "$ts" bench --kernel-file "$tmp/entry.cl"
expect 2 "^tilescope: $tmp/equals.cl:1: equals: 'sobel' is not a built-in filter \(box3, gauss or integral\)$" "$ts" list --kernel-file="$tmp/equals.cl"
expect 2 "^tilescope: $tmp/halo.cl:2: halo: '-1' is not a whole number of pixels, 0..64$" "$ts" list --kernel-file "$tmp/halo.cl"
expect 2 "^tilescope: $tmp/order.cl:1: pass: comes before the variant line$" "$ts" list --kernel-file "$tmp/order.cl"
expect 2 "^tilescope: $tmp/nopass.cl:1: pass: no pass line \(// tilescope: pass entry=KERNEL tile=WxH\)$" "$ts" list --kernel-file "$tmp/nopass.cl"
expect 2 "^tilescope: --kernel-file $tmp/clash.cl: variant 'box2d' exists already \(a built-in\)$" "$ts" list --kernel-file "$tmp/clash.cl"
expect 2 "^tilescope: cannot open '$tmp/missing.cl'" "$ts" list --kernel-file "$tmp/missing.cl"
expect 2 "^tilescope: --kernel-file needs a value" "$ts" list --kernel-file
for f in none tile field entry equals halo order nopass clash; do
  one_line_error "$ts" list --kernel-file "$tmp/$f.cl"
done
# The user kernels folder: its *.cl files are variants; a broken one (a bad header, a name
# taken) is one warning naming it, and costs only its own variant.
mkdir -p "$tmp/user"
cp "$src/assets/kernels/box_rows.cl" "$tmp/user/"
expect 0 "box_rows +box 3x3 +1 pass, 32x4 pixels" env TILESCOPE_USER_KERNELS="$tmp/user" "$ts" list
cp "$tmp/tile.cl" "$tmp/user/"
cp "$src/assets/kernels/box_rows.cl" "$tmp/user/box_rows_again.cl"
expect 0 "^tilescope: warning: $tmp/user/tile.cl:2: tile: " env TILESCOPE_USER_KERNELS="$tmp/user" "$ts" list
expect 0 "box_rows_again.cl: variant 'box_rows' exists already .*skipped" env TILESCOPE_USER_KERNELS="$tmp/user" "$ts" list
expect 0 "box_rows +box 3x3 +1 pass, 32x4 pixels" env TILESCOPE_USER_KERNELS="$tmp/user" "$ts" list
expect 0 "^same: 0 of" env TILESCOPE_USER_KERNELS="$tmp/user" "$ts" diff "$src/assets/chart.png" "$src/assets/chart.png"
rm -r "$tmp/user"
expect 2 "box_rows: a user kernel \($src/assets/kernels/box_rows.cl\) has no CPU model; run it on the OpenCL back end \(--backend cl\)" \
  "$ts" run --kernel-file "$src/assets/kernels/box_rows.cl" --variant box_rows --backend cpu

# No output may overwrite an input or another output: one line naming both, exit 2, and the
# files stay as they were.
cp "$chart" "$tmp/same.png"
before=$(md5sum <"$tmp/same.png")
expect 2 "^tilescope run: -o '$tmp/same.png' is also -i: an output may not overwrite an input$" \
  "$ts" run -i "$tmp/same.png" -o "$tmp/same.png"
expect 2 "^tilescope run: --raw '$tmp/same.png' is also -i" "$ts" run -i "$tmp/same.png" --raw "$tmp/same.png"
expect 2 "^tilescope run: -o '$tmp/same.png' is also --expect" "$ts" run -o "$tmp/same.png" --expect "$tmp/same.png"
expect 2 "^tilescope run: --schedule '$tmp/o.png' is also -o: give each output a file of its own$" \
  "$ts" run -o "$tmp/o.png" --schedule "$tmp/o.png"
expect 2 "^tilescope diff: -o '$tmp/same.png' is also A" "$ts" diff "$tmp/same.png" "$chart" -o "$tmp/same.png"
expect 2 "^tilescope export: --html '$tmp/same.png' is also -i" "$ts" export -i "$tmp/same.png" --html "$tmp/same.png"
expect 2 "^tilescope shot: -o '$tmp/same.png' is also -i" "$ts" shot -i "$tmp/same.png" -o "$tmp/same.png"
[[ $(md5sum <"$tmp/same.png") == "$before" ]] && passes=$((passes + 1)) || {
  echo "FAIL: an output overwrote $tmp/same.png"
  fails=$((fails + 1))
}
expect 0 "wrote /dev/null" "$ts" run -o /dev/null --raw /dev/null
# An output through a symbolic link replaces the file it names and keeps the link; a name too
# long for the temporary's suffix is written all the same.
cp "$chart" "$tmp/real.png"
ln -s real.png "$tmp/link.png"
expect 0 "wrote $tmp/link.png" "$ts" run --variant boxstrip -o "$tmp/link.png"
[[ -L $tmp/link.png ]] && ! cmp -s "$chart" "$tmp/real.png" && passes=$((passes + 1)) || {
  echo "FAIL: -o through a link: the link replaced, or its file not written"
  fails=$((fails + 1))
}
long=$tmp/$(printf 'a%.0s' $(seq 246)).png
expect 0 "^wrote " "$ts" run -o "$long"
[[ -s $long ]] && passes=$((passes + 1)) || { echo "FAIL: a 250-byte name not written"; fails=$((fails + 1)); }
rm -f "$long"
# Files are checked before the run: a missing reference, an output in no folder.
expect 2 "^tilescope run: cannot open '$tmp/none.png'" "$ts" run --expect "$tmp/none.png"
expect 2 "^tilescope shot: cannot write '$tmp/no/dir.png': No such file or directory$" \
  "$ts" shot -o "$tmp/no/dir.png"
# shot --frames writes its frames together or not at all (this needs GL, as CI has).
# frames_fail DIR WANT CMD...: CMD exits 2 printing the one line WANT, and DIR holds the
# same files with the same bytes as before: no frame of the run, no temporary file.
frames_fail() {
  local dir=$1 want=$2 before out rc
  shift 2
  before=$(cd "$dir" && find . -type f -exec md5sum {} + | sort)
  out=$("$@" 2>&1)
  rc=$?
  if [[ $rc -ne 2 || $out != "$want" ]]; then
    echo "FAIL: $* -> exit $rc (want 2), output:"
    sed 's/^/    /' <<<"$out" | head -8
    echo "    (wanted the one line: $want)"
    fails=$((fails + 1))
  elif [[ $(cd "$dir" && find . -type f -exec md5sum {} + | sort) != "$before" ]]; then
    echo "FAIL: $*: $dir changed: $(cd "$dir" && find . -type f | cut -c1-60)"
    fails=$((fails + 1))
  else
    passes=$((passes + 1))
  fi
}
# (Under AddressSanitizer, Mesa's driver leaks at exit what no suppression names: as html.sh.)
gl=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
if ! "${gl[@]}" "$ts" shot --backend cpu --size 640x400 -o "$tmp/probe.png" >"$tmp/log" 2>&1 &&
  grep -q "cannot open an OpenGL\|cannot start SDL" "$tmp/log" && [[ ${CI:-} != true ]]; then
  echo "note: no OpenGL here; the checks of shot --frames did not run"
else
  mkdir "$tmp/seq" "$tmp/long" "$tmp/comp" "$tmp/comp/d0"
  expect 0 "^wrote 3 frames$" "${gl[@]}" "$ts" shot --backend cpu --size 640x400 --frames 0:4:2 -o "$tmp/seq/s.png"
  [[ $(ls -A "$tmp/seq") == $'s-00000.png\ns-00002.png\ns-00004.png' ]] && passes=$((passes + 1)) || {
    echo "FAIL: shot --frames 0:4:2 wrote: $(ls -A "$tmp/seq")"
    fails=$((fails + 1))
  }
  # Frame 10's name is one byte too long (frames 8 and 9 are fine); an older frame 9 stays.
  b=$(printf 'b%.0s' $(seq 250))
  echo old >"$tmp/long/${b}9.png"
  frames_fail "$tmp/long" "tilescope shot: cannot write '$tmp/long/${b}10.png': File name too long" \
    "${gl[@]}" "$ts" shot --backend cpu --size 640x400 --frames 8:10:1 -o "$tmp/long/$b%d.png"
  # Frame 1's folder is a regular file (as root too); an older frame 0 stays.
  echo old >"$tmp/comp/d0/f.png"
  echo file >"$tmp/comp/d1"
  frames_fail "$tmp/comp" "tilescope shot: cannot write '$tmp/comp/d1/f.png': Not a directory" \
    "${gl[@]}" "$ts" shot --backend cpu --size 640x400 --frames 0:1:1 -o "$tmp/comp/d%d/f.png"
  # An input named like a later frame is not overwritten, and no earlier frame appears.
  cp "$chart" "$tmp/comp/in-00002.png"
  frames_fail "$tmp/comp" "tilescope shot: -o '$tmp/comp/in-00002.png' is also -i: an output may not overwrite an input" \
    "${gl[@]}" "$ts" shot --backend cpu --size 640x400 -i "$tmp/comp/in-00002.png" --frames 0:2:1 -o "$tmp/comp/in.png"
fi
# A record whose input is gone says so, rather than showing another image under its run.
cp "$src/tests/records/integral_wavefront.json" "$tmp/moved.json"
expect 2 "^tilescope shot: --record moved.json: its input 'tests/records/chart320.png' is not there" \
  bash -c "cd '$tmp' && '$ts' shot --record moved.json -o rec.png"
# Values out of range, and options that need each other.
expect 2 "^tilescope shot: --zoom 0: give 0.02..256" "$ts" shot -o "$tmp/z.png" --zoom 0 --center 1,1
expect 2 "^tilescope shot: --center: goes with --zoom Z$" "$ts" shot -o "$tmp/z.png" --center 1,1
expect 2 "^tilescope shot: --center '99999999,1': give X,Y" "$ts" shot -o "$tmp/z.png" --zoom 2 --center 99999999,1
expect 2 "^tilescope shot: --timeout 0: give more than 0" "$ts" shot -o "$tmp/z.png" --timeout 0
expect 2 "^tilescope shot: --bench-frames 0: needs 1..100000" "$ts" shot -o "$tmp/z.png" --bench-frames 0
# diff: the share it suggests passes as given; a diff image it cannot make, it says so.
"$ts" run -o "$tmp/boxed.png" >/dev/null
share=$("$ts" diff "$chart" "$tmp/boxed.png" | sed -n 's/.*--max-diff-pixels [0-9]* (\(.*%\)).*/\1/p')
expect 0 "^same" "$ts" diff "$chart" "$tmp/boxed.png" --max-diff-pixels "$share"
cp "$chart" "$tmp/old-diff.png"
expect 1 "no diff image: $tmp/old-diff.png was not written" "$ts" diff "$chart" "$tmp/small.png" -o "$tmp/old-diff.png"

# A thread to observe that no pass has: one line, exit 2.
expect 2 "^tilescope run: --observe-thread '99999,1': no pass has that thread \(pass 1: 40x30 threads\)$" \
  "$ts" run --observe --observe-thread 99999,1

# --- help and version ---
expect 0 "^tilescope [0-9]+\.[0-9]+\.[0-9]+$" "$ts" --version
for c in run diff list bench; do
  expect 0 "usage: tilescope $c" "$ts" $c --help
done
expect 0 "integral +integral image" "$ts" list

echo "$passes passed, $fails failed"
[[ $fails -eq 0 ]]
