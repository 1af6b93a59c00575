#!/usr/bin/env bash
# Golden screenshots: renders every scene of golden/scenes.txt with `tilescope shot` and
# compares it with the committed golden through `tilescope diff`. The tolerance: a channel
# may differ by 8 and 0.2% of the pixels may differ beyond that (font rasterisation and
# llvmpipe rounding), no more. --update rewrites the goldens instead (say so in the commit).
# Scenes run from the source folder, so that they name its files (records) relatively.
# usage: golden.sh TILESCOPE SOURCE_DIR [--update]
set -u
ts=$(realpath "$1") src=$(realpath "$2") update=${3:-}
cd "$src" || exit 1
dir=$src/tests/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then export SDL_VIDEODRIVER=offscreen; fi
fails=0 passes=0
while read -r name args; do
  [[ -z $name || $name == \#* ]] && continue
  # shellcheck disable=SC2086
  if ! "$ts" shot -o "$tmp/$name.png" --size 1280x720 --backend cpu $args >"$tmp/log" 2>&1; then
    if grep -q "cannot open an OpenGL\|cannot start SDL" "$tmp/log"; then
      if [[ ${CI:-} == true ]]; then echo "FAIL: no GL in CI: $(cat "$tmp/log")"; exit 1; fi
      echo "skipped: no OpenGL here: $(head -1 "$tmp/log")"
      exit 77
    fi
    echo "FAIL: $name: shot failed"; sed 's/^/    /' "$tmp/log"; fails=$((fails + 1)); continue
  fi
  if [[ $update == --update ]]; then
    cp "$tmp/$name.png" "$dir/$name.png" && echo "updated $name"
    continue
  fi
  if "$ts" diff --tolerance 8 --max-diff-pixels 0.2% "$dir/$name.png" "$tmp/$name.png" \
       -o "$tmp/$name-diff.png" >"$tmp/diff" 2>&1; then
    passes=$((passes + 1))
  else
    echo "FAIL: $name differs from its golden:"; sed 's/^/    /' "$tmp/diff"
    mkdir -p "${TS_GOLDEN_FAILURES:-/tmp/tilescope-golden-failures}"
    cp "$tmp/$name.png" "$tmp/$name-diff.png" "${TS_GOLDEN_FAILURES:-/tmp/tilescope-golden-failures}/"
    fails=$((fails + 1))
  fi
done <"$dir/scenes.txt"
echo "$passes passed, $fails failed"
[[ $fails -eq 0 ]]
