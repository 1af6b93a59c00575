#!/usr/bin/env bash
# The viewer, headless: the scripted session of viewer_script.txt (keys, clicks, ticks, and
# what the viewer reports and shows after each), the device view of a saved record
# (viewer_device.txt) and of a run on the device, `shot` with --frames, the first README
# command's fallback without a display, and the viewer's bad-input messages.
# usage: viewer.sh TILESCOPE SOURCE_DIR GIFCHECK
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # python3 itself (lib.sh)
ts=$(realpath "$1") src=$2 gifcheck=$3
window_setup "$ts"

"$ts" shot --script "$src/tests/viewer_script.txt" -o "$tmp/final.png" >"$tmp/out" 2>&1
rc=$? # (taken first: the $(cat) in check's name would reset $?)
check "scripted session ($(cat "$tmp/out"))" test $rc -eq 0

# The device view: a saved record, then the schedule run on the OpenCL device (d runs it).
(cd "$src" && "$ts" shot --backend cpu --record tests/records/integral_none.json \
  --script tests/viewer_device.txt -o "$tmp/record.png") >"$tmp/out" 2>&1
rc=$?
check "device view of a record ($(cat "$tmp/out"))" test $rc -eq 0
cat >"$tmp/live.txt" <<'EOF'
expect view sim
key d
expect view device
expect wrong 0
expect-pixel 639 479 36905572
key d
expect view sim
key d
variant box2d
expect view device
expect-pixel 426 289 63 148 63
EOF
"$ts" shot --variant integral --script "$tmp/live.txt" -o "$tmp/live.png" >"$tmp/out" 2>&1
rc=$?
check "device view of a run on the device ($(cat "$tmp/out"))" test $rc -eq 0
printf 'report\n' >"$tmp/report.txt"
"$ts" shot --variant integral --exec device --script "$tmp/report.txt" -o "$tmp/live.png" >"$tmp/out" 2>&1
check "--exec device opens the device view" grep -q "view=device rss=[0-9]* devtime=" "$tmp/out"

# A sequence: one picture per tick 0, 2, ..., 8, all different from each other.
"$ts" shot --backend cpu --variant box2d --size 640x400 --frames 0:8:2 -o "$tmp/seq.png" >/dev/null
check "frames written" test "$(ls "$tmp"/seq-*.png 2>/dev/null | wc -l)" -eq 5
check "frames differ" bash -c "! '$ts' diff '$tmp/seq-00000.png' '$tmp/seq-00008.png' >/dev/null"
"$ts" shot --backend cpu --size 640x400 --frames 1:1:1 -o "$tmp/p%03d.png" >/dev/null
check "printf frame pattern" test -f "$tmp/p001.png"

# The same ticks as one animated GIF: valid (giflib reads it back), one frame per tick, each
# the picture of its tick (within the palette's rounding, and unlike another tick's), the same
# bytes on a second run, and --scale's size.
"$ts" shot --backend cpu --variant box2d --size 640x400 --frames 0:8:2 --fps 5 -o "$tmp/seq.gif" >"$tmp/out"
check "gif written ($(cat "$tmp/out"))" grep -q "wrote $tmp/seq.gif (5 frames)" "$tmp/out"
check "gif valid, 5 frames" "$gifcheck" "$tmp/seq.gif" 5 640 400 4 "$tmp/gif4.png"
check "gif frame = the tick's shot" "$ts" diff --tolerance 16 --max-diff-pixels 1% "$tmp/gif4.png" "$tmp/seq-00008.png"
check "gif frame != another tick's" bash -c "! '$ts' diff --tolerance 16 --max-diff-pixels 1% '$tmp/gif4.png' '$tmp/seq-00000.png' >/dev/null"
"$ts" shot --backend cpu --variant box2d --size 640x400 --frames 0:8:2 --fps 5 -o "$tmp/again.gif" >/dev/null
check "gif bytes identical on a second run" cmp -s "$tmp/seq.gif" "$tmp/again.gif"
"$ts" shot --backend cpu --variant integral --pattern none --size 640x400 --frames 3:3:1 --scale 0.5 -o "$tmp/half.gif" >/dev/null
check "gif --scale 0.5" "$gifcheck" "$tmp/half.gif" 1 320 200
# A script's captions: a strip under every frame (taller than the window by it), the caption
# written in it; a frame after `caption` alone has none; a second run gives the same bytes.
printf '%s\n' 'variant integral' 'pattern none' 'caption Without a pattern: every hazard in red' \
  'tick 1' 'wait 30' 'caption' 'tick end' 'wait 30' >"$tmp/caption.txt"
"$ts" shot --backend cpu --size 640x400 --script "$tmp/caption.txt" -o "$tmp/cap.gif" >/dev/null 2>&1
gh=$("$gifcheck" "$tmp/cap.gif" 0 0 0 2>&1 | sed -n 's/.* of 640x\([0-9]*\),.*/\1/p')
check "gif with captions: 2 frames, a strip under the window ($gh rows)" test "${gh:-0}" -gt 400
strip=$((${gh:-400} - 400))
"$gifcheck" "$tmp/cap.gif" 2 640 "${gh:-400}" 0 "$tmp/cap0.png" "$strip" >"$tmp/out" 2>&1
check "gif caption written under frame 1 ($(head -1 "$tmp/out"))" grep -Eq "^frame 0: [1-9][0-9]{2,} caption pixels" "$tmp/out"
"$gifcheck" "$tmp/cap.gif" 2 640 "${gh:-400}" 1 "$tmp/cap1.png" "$strip" >"$tmp/out" 2>&1
check "gif: no caption under frame 2 ($(head -1 "$tmp/out"))" grep -q "^frame 1: 0 caption pixels" "$tmp/out"
"$ts" shot --backend cpu --size 640x400 --script "$tmp/caption.txt" -o "$tmp/cap2.gif" >/dev/null 2>&1
check "gif with captions: the same bytes on a second run" cmp -s "$tmp/cap.gif" "$tmp/cap2.gif"
# With --frames the ticks are the frames (the script's pauses none), each with the caption in
# force as the script ends, in the same strip.
printf '%s\n' 'variant integral' 'pattern none' 'caption Without a pattern: every hazard in red' \
  'tick 1' 'wait 30' >"$tmp/capf.txt"
"$ts" shot --backend cpu --size 640x400 --script "$tmp/capf.txt" --frames 0:4:2 -o "$tmp/capf.gif" >/dev/null 2>&1
"$gifcheck" "$tmp/capf.gif" 3 640 "${gh:-400}" 2 "$tmp/capf2.png" "$strip" >"$tmp/out" 2>&1
check "gif --frames with a script's caption, under frame 3 ($(head -1 "$tmp/out"))" grep -Eq "^frame 2: [1-9][0-9]{2,} caption pixels" "$tmp/out"

# The default command without a display: it says so and writes a screenshot.
(cd "$tmp" && "$ts" --backend cpu >"$tmp/nodisplay.out" 2>&1)
check "no-display message" grep -q "no display .* writing a screenshot of the scene to tilescope-shot.png" "$tmp/nodisplay.out"
check "no-display screenshot" test -s "$tmp/tilescope-shot.png"

# A kernel that does not build: the viewer stays up and shows the error and the log.
cp -r "$src/kernels" "$tmp/kernels"
printf '\n__kernel void broken(void) { this is not C }\n' >>"$tmp/kernels/box.cl"
"$ts" shot --kernels "$tmp/kernels" --script "$tmp/report.txt" -o "$tmp/broken.png" >"$tmp/broken.out" 2>&1
check "build error reported in the viewer" grep -q "error=.*box.cl: the kernel does not build" "$tmp/broken.out"
check "build error screenshot" test -s "$tmp/broken.png"
# ... and shot says so in its exit code: the error scene is written, the exit is 2, and the
# line names the file and line of the compiler's first error.
"$ts" shot --kernels "$tmp/kernels" -o "$tmp/broken2.png" >"$tmp/broken2.out" 2>&1
rc=$?
check "a shot of a kernel that does not build exits 2 ($rc)" test $rc -eq 2
check "its line names the file and line" grep -q "box.cl: the kernel does not build (CL_BUILD_PROGRAM_FAILURE): error: box.cl:[0-9]*:[0-9]*: .*(the shot shows the error)" "$tmp/broken2.out"
check "the error scene is written" test -s "$tmp/broken2.png"
# A record's numbers are not trusted: a compute unit no device has, zero slots, and
# anything after the closing brace are one line each, exit 2.
python3 - "$src/tests/records/integral_none.json" "$tmp" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
m = re.search(r'\[(\d+),(-?\d+),(\d+),(\d+),(\d+),(\d+),(\d+)\]', s[s.index('"tilescope"'):])
a = s.index('"tilescope"') + m.start()
g = list(m.groups()); g[1] = '2147483647'
open(sys.argv[2] + '/unit.json', 'w').write(s[:a] + '[' + ','.join(g) + ']' + s[a + len(m.group(0)):])
open(sys.argv[2] + '/slots.json', 'w').write(re.sub(r'"slots":\d+', '"slots":0', s, count=1))
open(sys.argv[2] + '/tail.json', 'w').write(s + 'garbage\n')
PY
for r in unit:"unit 2.14748e+09 is out of range" slots:"slots 0 is out of range" tail:"something follows the closing"; do
  f=${r%%:*} want=${r#*:}
  (cd "$src" && "$ts" shot --backend cpu --record "$tmp/$f.json" -o "$tmp/rec.png") >"$tmp/rec.out" 2>&1
  rc=$?
  check "record with a bad $f: exit 2 ($rc)" test $rc -eq 2
  check "record with a bad $f: one line" grep -qF "$want" "$tmp/rec.out"
done
check "--device-time nan is refused" bash -c "! '$ts' shot --backend cpu --record '$src/tests/records/integral_none.json' --device-time nan -o '$tmp/nan.png' >/dev/null 2>&1"
# A plain kernel that never ends: the shot's watchdog ends the shot with one line, exit 1.
timeout 120 "$ts" shot --kernel-file "$src/tests/kernels/forever.cl" --timeout 3 -o "$tmp/forever.png" >"$tmp/forever.out" 2>&1
rc=$?
check "a shot of a kernel that never ends: exit 1 ($rc)" test $rc -eq 1
check "and the watchdog's line ($(cat "$tmp/forever.out"))" grep -q "forever.cl, observed: did not finish in 3 s; the watchdog stopped it" "$tmp/forever.out"
# --frames at the end of the tick range: one frame, not an endless loop past LLONG_MAX.
timeout 120 "$ts" shot --backend cpu --frames 9223372036854775807:9223372036854775807:1 -o "$tmp/far.png" >"$tmp/far.out" 2>&1
rc=$?
check "shot --frames at LLONG_MAX writes one frame ($rc)" grep -qx "wrote 1 frame" "$tmp/far.out"
# OpenCL asked for by name with no kernels folder: no quiet fall back to the CPU model.
"$ts" shot --kernels "$tmp/nowhere" --backend cl -o "$tmp/nocl.png" >"$tmp/nocl.out" 2>&1
rc=$?
check "shot --backend cl without kernels exits 2 ($rc)" test $rc -eq 2
check "and says why" grep -q "no common.cl there" "$tmp/nocl.out"

# The demo scripts play to the end, and each renders to an animation, one frame per pause
# (with the example user kernels loaded: short_halo.txt shows one).
kfiles=()
for k in "$src"/assets/kernels/*.cl; do kfiles+=(--kernel-file "$k"); done
have_cl=0
"$ts" list 2>/dev/null | grep -q "^  0: " && have_cl=1
for d in "$src"/assets/demos/*.txt; do
  # A demo of a plain kernel names it ("# plain kernel: FILE"): it runs observed, on OpenCL.
  pk=$(sed -n 's/^# plain kernel: //p' "$d")
  [[ -n $pk && $have_cl == 0 ]] && { echo "skipped demo $(basename "$d"): no OpenCL device"; continue; }
  plainfile=()
  [[ -n $pk ]] && plainfile=(--kernel-file "$src/$pk")
  check "demo $(basename "$d")" "$ts" "${kfiles[@]}" "${plainfile[@]}" shot --backend cpu --size 800x500 --script "$d" -o "$tmp/demo.gif" >/dev/null
  check "demo $(basename "$d") as a gif" "$gifcheck" "$tmp/demo.gif" "$(grep -c '^wait ' "$d")" 800 500
done

# The observation, on the OpenCL back end: box_short_halo's every thread read outside its
# footprint, none wrote outside its tile or over another's; hovering a thread observes its
# every element, and a click selects the observed writer of a pixel. The integral image
# under `none` has the declared-footprint hazards observed too. The CPU model is not
# observed (the sizes observed: viewer_observe.sh).
if "$ts" list 2>/dev/null | grep -q "^  0: "; then
  cat >"$tmp/obs.txt" <<'EOF'
backend cl
variant box_short_halo
overlay observed
expect overlay observed
expect observe done
expect footprint 1200
expect writes 0
expect conflicts 0
expect obs_hazards 0
move 40 24
expect chosen (2,1)
click 40 24
expect selected (2,1)
click 639 479
expect selected (39,29)
variant box_rows
expect footprint 0
variant integral
pattern none
expect observe done
expect obs_hazards 2928
expect footprint 0
backend cpu
expect observe off
EOF
  "$ts" shot "${kfiles[@]}" --script "$tmp/obs.txt" -o "$tmp/obs.png" >"$tmp/out" 2>&1
  rc=$?
  check "observation in the viewer ($(cat "$tmp/out"))" test $rc -eq 0
fi

# Bad input to the viewer commands.
expect2() { # expect2 REGEX ARGS...: exit 2 and one line naming the fault
  local re=$1
  shift
  local out
  out=$("$ts" "$@" 2>&1 >/dev/null)
  if [[ $? -ne 2 ]] || ! grep -Eq -- "$re" <<<"$out" || [[ $(wc -l <<<"$out") -ne 1 ]]; then
    echo "FAIL: tilescope $* -> $out"; fails=$((fails + 1))
  else
    passes=$((passes + 1))
  fi
}
expect2 "needs -o SHOT.png" shot
expect2 "--overlay 'rainbow'" shot -o "$tmp/x.png" --overlay rainbow
expect2 "--frames '9:1:1'" shot -o "$tmp/x.png" --frames 9:1:1
expect2 "--fps: goes with an animation, -o NAME.gif" shot -o "$tmp/x.png" --frames 1:2:1 --fps 5
expect2 "--fps 0: give 1..50" shot -o "$tmp/x.gif" --frames 1:2:1 --fps 0
expect2 "--fps 5: .* with --frames" shot -o "$tmp/x.gif" --fps 5
expect2 "--scale 2: give a share of the window, 0.1..1" shot -o "$tmp/x.gif" --scale 2
expect2 "--size '10x10'" shot -o "$tmp/x.png" --size 10x10
expect2 "--hover 'here'" shot -o "$tmp/x.png" --hover here
expect2 "cannot open '$tmp/none.txt'" shot -o "$tmp/x.png" --backend cpu --script "$tmp/none.txt"
printf 'frobnicate 3\n' >"$tmp/bad.txt"
expect2 "bad.txt:1: unknown action 'frobnicate'" shot -o "$tmp/x.png" --backend cpu --script "$tmp/bad.txt"
expect2 "cannot open '$tmp/missing.png'" shot -o "$tmp/x.png" -i "$tmp/missing.png"
# View points that crashed the drawing code (a NaN hover, a centre far outside int range).
expect2 "--hover 'nan,5'" shot -o "$tmp/x.png" --backend cpu --hover nan,5
# An animation that cannot fit its memory is refused before any frame is drawn.
expect2 "more than 8 frames of 8192x8192 do not fit in the 1024 MiB" shot -o "$tmp/big.gif" --backend cpu --frames 0:9000:1 --size 8192x8192
expect2 "--center '1e30,5': give X,Y in image pixels" shot -o "$tmp/x.png" --backend cpu --zoom 20 --center 1e30,5
expect2 "--zoom: 'nan' is not a number" shot -o "$tmp/x.png" --backend cpu --zoom nan --center 5,5
expect2 "--size 'nanx500'" shot -o "$tmp/x.png" --backend cpu --size nanx500
# Scripts are checked whole before anything plays: numbers, ranges, names, arguments.
script_error() { # script_error REGEX LINES...: the script fails with REGEX and plays nothing
  local re=$1
  shift
  printf '%s\n' "shot $tmp/early.png" "$@" >"$tmp/s.txt"
  expect2 "s.txt:[0-9]+: $re" shot -o "$tmp/x.png" --backend cpu --script "$tmp/s.txt"
  check "nothing played before: $re" test ! -e "$tmp/early.png"
}
script_error "not a coordinate .*'1e30'" "zoom 20 1e30 5"
script_error "not a coordinate .*'nan'" "move nan 3"
script_error "not a coordinate .*'inf'" "click 3 inf"
script_error "not a zoom .*'0'" "zoom 0"
script_error "not a tick .*'abc'" "tick abc"
script_error "not a tick .*'-1'" "tick -1"
script_error "not a number of frames .*'100001'" "wait 100001"
script_error "out of range '70000'" "slots 70000"
script_error "expected 'shift', got 'sideways'" "key right sideways"
script_error "unknown key 'ctrl'" "key ctrl"
script_error "unknown overlay 'rainbow'" "overlay rainbow"
script_error "unknown field 'colour'" "expect colour red"
script_error "wrong number of arguments for 'wait'" "wait 1 2"
script_error "expected on or off, got 'yes'" "grid yes"
script_error "not a pixel value .*'4294967296'" "expect-pixel 1 2 4294967296"
script_error "too many arguments, from 'x'" "expect-pixel 1 2 3 4 5 6 7 x"
script_error "a caption is at most 300 bytes" "caption $(printf 'word %.0s' {1..80})"
script_error "a caption holds a control character" "caption bell $(printf '\a') here"
script_error "wrong number of arguments for 'expect-pixel'" "expect-pixel 1 2 3 4 5 6 7"
printf 'tick 1\0\n' >"$tmp/nul.txt"
expect2 "nul.txt: holds a NUL byte" shot -o "$tmp/x.png" --backend cpu --script "$tmp/nul.txt"
rec=$src/tests/records/integral_none.json
expect2 "--record $rec: recorded on a 320x240x1 image, .*chart.png is 640x480x3" shot -o "$tmp/x.png" --record "$rec" -i "$src/assets/chart.png"
expect2 "--record opens a saved run and --exec device makes a new one" shot -o "$tmp/x.png" --record "$rec" --exec device
printf '{"tilescope":{"version":1,"variant":"integral","passes":[{"groups":[[0,0,0,0,3,2,1]]}]}}' >"$tmp/bad.json"
expect2 "--record $tmp/bad.json: a group's times are out of order" shot -o "$tmp/x.png" --record "$tmp/bad.json"
sed 's/\[172,8,0,0,/[172,8,1,0,/' "$rec" >"$tmp/moved.json"
expect2 "--record $tmp/moved.json does not fit integral on .*chart320.png: the record's ticket 0 of pass 1 is tile 1,0" shot -o "$tmp/x.png" --record "$tmp/moved.json" -i "$src/tests/records/chart320.png"
expect2 "--device-time 'soon'" shot -o "$tmp/x.png" --device-time soon
script_error "not a device time .*'101%'" "devtime 101%"
script_error "not a device time .*'soon'" "devtime soon"
# --bench-frames: the three figures, N of each (their values are timings: not checked).
mkdir "$tmp/bench" && (cd "$tmp/bench" && "$ts" --backend cpu --variant integral --overlay state --bench-frames 3) >"$tmp/out" 2>&1
check "--bench-frames ($(cat "$tmp/out"))" grep -q "^frames with the hover moving: 3, median" "$tmp/out"
check "--bench-frames steps" grep -q "^steps of one tick, drawn: 3, median" "$tmp/out"
check "--bench-frames first frame" grep -q "^first frame: [0-9.]* ms after" "$tmp/out"
check "--bench-frames writes no screenshot" test ! -e "$tmp/bench/tilescope-shot.png"
# What a step updates (the output's changed tiles, their mipmaps, the frame cache) gives the
# pictures of a fresh shot: a shot at a tick reached by steps is the fresh shot's, pixel for
# pixel, and each partial mipmap update is glGenerateMipmap's on the whole, level by level.
for v in integral box2d transpose2pass; do
  "$ts" shot --backend cpu --variant $v --overlay state --frames 40:60:10 -o "$tmp/steps-$v.png" >/dev/null 2>&1
  "$ts" shot --backend cpu --variant $v --overlay state --tick 60 -o "$tmp/fresh-$v.png" >/dev/null 2>&1
  check "$v: tick 60 after steps = a fresh shot" "$ts" diff --tolerance 0 --max-diff-pixels 0 \
    "$tmp/fresh-$v.png" "$tmp/steps-$v-00060.png"
  (TILESCOPE_CHECK_MIPS=1 "$ts" --backend cpu --variant $v --overlay state --bench-frames 4 \
     --tick 30) >"$tmp/mips" 2>&1
  check "$v: partial mipmaps = whole ones ($(grep -m1 'mipmap check' "$tmp/mips"))" \
    bash -c "! grep -q 'mipmap check' '$tmp/mips' && grep -q '^steps of one tick' '$tmp/mips'"
done
expect2 "--bench-frames -1: needs 1..100000" --bench-frames -1

# The split view: two runs on one tick (the right half's fields in the state line), the x
# key closing and opening it, the script's split, a click in either half selecting the thread
# of that half's run (integral's 16x16 blocks on the left, transpose2pass's 32x8 on the
# right) and the inspector describing the half clicked last or hovered, d saying where the
# device's run is, a device half of a record; bad specs are one line each, exit 2.
cat >"$tmp/split.txt" <<'EOF2'
tick 40
expect split pattern=wavefront26
expect tick 40/69
expect right_tick 40/98
expect right_view sim
tick end
expect tick 69/69
expect right_tick 98/98
key x
expect split off
split walk=horizontal
expect right_hazards 0
key x
key x
expect split walk=horizontal
split off
expect split off
split variant=transpose2pass
tick 0
click 20 20 right
expect right_selected (0,2)
expect selected none
expect inspector right:(0,2)
click 20 20
expect selected (1,1)
expect right_selected (0,2)
expect inspector left:(1,1)
click 20 20 right
expect right_selected none
expect selected (1,1)
expect inspector right:none
move 40 40 right
expect inspector right:(1,5)
move 40 40
expect inspector left:(2,2)
key d
expect-status the left half stays simulated; --split device
expect view sim
expect right_view sim
key d shift
expect-status the adversary delays device runs; the split
expect view sim
EOF2
(cd "$src" && "$ts" shot --backend cpu --variant integral --split pattern=wavefront26 \
  --script "$tmp/split.txt" -o "$tmp/split.png") >"$tmp/out" 2>&1
rc=$?
check "split view session ($(cat "$tmp/out"))" test $rc -eq 0
cat >"$tmp/splitdev.txt" <<'EOF2'
expect right_view device
expect right_devtime 47529/80800
expect right_wrong 0
expect view sim
key d
expect-status the right half is the device's run
expect view sim
expect right_view device
EOF2
(cd "$src" && "$ts" shot --backend cpu --record tests/records/integral_wavefront.json --tick 20 \
  --split device --script "$tmp/splitdev.txt" -o "$tmp/splitdev.png") >"$tmp/out" 2>&1
rc=$?
check "split view of a record ($(cat "$tmp/out"))" test $rc -eq 0
# A device half run on the OpenCL device, closed and opened again. In a sanitizer build: a
# worker where pocl's LLVM compiled ends without an abort (app/worker/thread_sigstack.h).
if "$ts" list 2>/dev/null | grep -q "^  0: "; then
  printf 'expect right_view device\nexpect right_wrong 0\nsplit off\nsplit device\nexpect right_view device\nkey d shift\nexpect-status delays the right half%ss groups at random\nexpect view sim\n' "'" >"$tmp/splitlive.txt"
  "$ts" shot --variant integral --exec device --tick 20 --split device \
    --script "$tmp/splitlive.txt" -o "$tmp/splitlive.png" >"$tmp/out" 2>&1
  rc=$?
  check "split view with a half run on the device ($(grep -m3 -v '^    #' "$tmp/out"))" test $rc -eq 0
fi
# A split the script cannot open: one line, its cause said once.
printf 'split device\n' >"$tmp/splitfail.txt"
"$ts" shot --backend cpu --script "$tmp/splitfail.txt" -o "$tmp/splitfail.png" >"$tmp/out" 2>&1
rc=$?
line="tilescope: script $tmp/splitfail.txt:1: split device: needs a saved record (--record) or the OpenCL back end [b]"
check "split device without a record ($(cat "$tmp/out"))" \
  test $rc -eq 1 -a "$(grep -cFx "$line" "$tmp/out")" -eq 1
expect2 "--split: unknown pattern 'spiral'" shot -o "$tmp/x.png" --backend cpu --split pattern=spiral
expect2 "--split: unknown key" shot -o "$tmp/x.png" --backend cpu --split colour=red
expect2 "--split: a key given twice: 'walk'" shot -o "$tmp/x.png" --backend cpu --split walk=vertical,walk=horizontal
expect2 "--split: slots out of range" shot -o "$tmp/x.png" --backend cpu --split slots=0
expect2 "--split device: .*--record FILE or --exec device" shot -o "$tmp/x.png" --backend cpu --split device
check "no half-written screenshot" test ! -e "$tmp/x.png"
check "no half-written animation" test ! -e "$tmp/x.gif"
echo "$passes passed, $fails failed"
[[ $fails -eq 0 ]]
