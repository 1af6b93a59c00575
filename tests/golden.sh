#!/usr/bin/env bash
# Golden screenshots: renders every scene of golden/scenes.txt twice with `tilescope shot`,
# requires the two files to be byte-identical (shots are deterministic), and compares the
# picture with the committed golden through `tilescope diff` with no tolerance: Mesa's
# llvmpipe draws the same pixels whatever its thread count or vector width, so any
# difference, down to one character of panel text, fails. Then it proves that: a scene whose
# file name differs from the golden's by one character must fail. --update rewrites the
# goldens instead (say so in the commit).
# Scenes run from the source folder, so that they name its files (records) relatively. A
# scene is shot at 1280x720 unless its options give --size. The OpenCL scenes' panels name
# their device by one label (TILESCOPE_DEVICE_LABEL), so that they hold on any machine.
# usage: golden.sh TILESCOPE SOURCE_DIR [--update]
set -u
ts=$(realpath "$1") src=$(realpath "$2") update=${3:-}
cd "$src" || exit 1
dir=$src/tests/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then export SDL_VIDEODRIVER=offscreen; fi
# The goldens are llvmpipe's pictures, also on a machine with a GPU.
export LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe
# A plain kernel's findings keep the first places found, which on pocl's CPU device depend on
# the order its threads run the work-groups in: one thread runs them in one order.
export POCL_MAX_PTHREAD_COUNT=1
compare=(--tolerance 0 --max-diff-pixels 0)
fails=0 passes=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
keep() { # keep FILES...: where a failure's pictures can be looked at
  mkdir -p "${TS_GOLDEN_FAILURES:-/tmp/tilescope-golden-failures}"
  cp "$@" "${TS_GOLDEN_FAILURES:-/tmp/tilescope-golden-failures}/"
}
# shoot OUT ARGS...: one shot at the goldens' size (or the --size in ARGS); skips the test
# where there is no GL.
shoot() {
  local out=$1 size=(--size 1280x720)
  shift
  [[ " $* " == *" --size "* ]] && size=()
  if "$ts" shot -o "$out" ${size[@]+"${size[@]}"} "$@" >"$tmp/log" 2>&1; then return 0; fi
  if grep -q "cannot open an OpenGL\|cannot start SDL" "$tmp/log"; then
    if [[ ${CI:-} == true ]]; then echo "FAIL: no GL in CI: $(cat "$tmp/log")"; exit 1; fi
    echo "skipped: no OpenGL here: $(head -1 "$tmp/log")"
    exit 77
  fi
  fail "shot $*"; sed 's/^/    /' "$tmp/log"
  return 1
}

have_cl=0
"$ts" list 2>/dev/null | grep -q "^  0: " && have_cl=1
export TILESCOPE_DEVICE_LABEL="the OpenCL device (pocl or any)"
while read -r name args; do
  [[ -z $name || $name == \#* ]] && continue
  if [[ $args == *"--backend cl"* && $have_cl == 0 ]]; then
    if [[ ${CI:-} == true ]]; then fail "$name: no OpenCL device in CI"; else echo "skipped $name: no OpenCL device"; fi
    continue
  fi
  # shellcheck disable=SC2086
  shoot "$tmp/$name.png" --backend cpu $args || continue
  # shellcheck disable=SC2086
  shoot "$tmp/$name-again.png" --backend cpu $args || continue
  if ! cmp -s "$tmp/$name.png" "$tmp/$name-again.png"; then
    fail "$name: two shots of the same options differ"; keep "$tmp/$name.png" "$tmp/$name-again.png"
    continue
  fi
  if [[ $update == --update ]]; then
    cp "$tmp/$name.png" "$dir/$name.png" && echo "updated $name"
    continue
  fi
  if "$ts" diff "${compare[@]}" "$dir/$name.png" "$tmp/$name.png" -o "$tmp/$name-diff.png" \
       >"$tmp/diff" 2>&1; then
    passes=$((passes + 1))
  else
    fail "$name differs from its golden:"; sed 's/^/    /' "$tmp/diff"
    keep "$tmp/$name.png" "$tmp/$name-diff.png"
  fi
done <"$dir/scenes.txt"
[[ $update == --update ]] && exit $((fails > 0))

# The comparison sees one character: the pixel_values scene on a copy of the chart named
# chart,png instead of chart.png (13 pixels of the title differ) must fail, and on a copy
# named chart.png must pass.
scene=$(grep '^pixel_values ' "$dir/scenes.txt" | cut -d' ' -f2- | sed 's/^ *//')
cp "$src/assets/chart.png" "$tmp/chart.png" && cp "$src/assets/chart.png" "$tmp/chart,png"
# shellcheck disable=SC2086
if shoot "$tmp/same-name.png" --backend cpu -i "$tmp/chart.png" $scene &&
  shoot "$tmp/one-char.png" --backend cpu -i "$tmp/chart,png" $scene; then
  "$ts" diff "${compare[@]}" "$dir/pixel_values.png" "$tmp/same-name.png" >/dev/null &&
    passes=$((passes + 1)) || fail "the chart under its own name differs from pixel_values"
  "$ts" diff "${compare[@]}" "$dir/pixel_values.png" "$tmp/one-char.png" >"$tmp/diff"
  [[ $? -eq 1 ]] && passes=$((passes + 1)) || fail "a one-character title change passed: $(cat "$tmp/diff")"
fi

# On the OpenCL back end too (the panel names the device and, in the window, the measured
# kernel time): two shots are byte-identical.
if [[ $have_cl == 1 ]]; then
  if shoot "$tmp/cl.png" --variant integral --pattern none --tick 3 &&
    shoot "$tmp/cl-again.png" --variant integral --pattern none --tick 3; then
    cmp -s "$tmp/cl.png" "$tmp/cl-again.png" && passes=$((passes + 1)) ||
      { fail "two OpenCL shots differ"; keep "$tmp/cl.png" "$tmp/cl-again.png"; }
  fi
fi
echo "$passes passed, $fails failed"
[[ $fails -eq 0 ]]
