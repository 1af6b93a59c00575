#!/usr/bin/env bash
# Runs every kernel under Oclgrind's simulator with its data-race and API checks (it also
# reports every out-of-bounds access): whole-image runs and stepped runs with few slots, on
# odd sizes, grey and RGB. Any report fails the test. Skips (77) without oclgrind, except in
# CI, where that fails.
# usage: oclgrind.sh TILESCOPE MKCHART KERNELS_DIR
set -u
ts=$1 mkchart=$2 kernels=$3
if ! command -v oclgrind >/dev/null; then
  if [[ ${CI:-} == true ]]; then echo "FAIL: oclgrind is not installed"; exit 1; fi
  echo "skipped: oclgrind is not installed"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$mkchart" "$tmp/rgb.png" 70x66
fails=0 passes=0
check() {
  local out
  out=$(oclgrind --data-races --check-api "$ts" run --backend cl --kernels "$kernels" "$@" 2>&1)
  if [[ $? -ne 0 ]] || grep -Eqi "invalid|race|error|uninitiali" <<<"$out"; then
    echo "FAIL: oclgrind tilescope run $*"
    sed 's/^/    /' <<<"$out" | head -20
    fails=$((fails + 1))
  else
    passes=$((passes + 1))
  fi
}
for v in box2d linear1d2 linearslide linearslide2 transpose2pass gauss_global gauss_local gauss_local_sep gauss_slide integral integral_scan; do
  check --variant "$v" -i "$tmp/rgb.png"
  check --variant "$v" -i "$tmp/rgb.png" --slots 3 --tick 5
done
"$ts" run --backend cpu --variant gauss_global -i "$tmp/rgb.png" --kernel-size 3 -o "$tmp/g.png" >/dev/null
"$ts" run --backend cpu --variant integral -i "$tmp/rgb.png" -o "$tmp/grey.png" >/dev/null
check --variant gauss_local_sep -i "$tmp/grey.png" --kernel-size 15
check --variant gauss_local -i "$tmp/grey.png" --kernel-size 15
check --variant gauss_slide -i "$tmp/grey.png" --kernel-size 15
check --variant gauss_stream -i "$tmp/grey.png" --kernel-size 15
check --variant linear1d2 -i "$tmp/grey.png"
check --variant integral -i "$tmp/grey.png" --pattern none
# 64 pixels wide: rows a multiple of 16 bytes, the word paths of the GPU variants.
"$mkchart" "$tmp/w64.png" 64x64
for v in boxstrip boxband boxword boxquad gaussword gaussquad gauss_stream integral_colrow integral_band; do
  check --variant "$v" -i "$tmp/w64.png"
  check --variant "$v" -i "$tmp/rgb.png"
done
# integral_band over three bands of 256 rows, rows of whole 64-byte lines (its streamed
# stores), whole and stepped.
"$mkchart" "$tmp/w64t.png" 64x600
check --variant integral_band -i "$tmp/w64t.png"
check --variant integral_band -i "$tmp/w64t.png" --slots 2 --tick 4
# 200 RGB pixels (600 bytes) a row: gauss_stream's rows in two chunks, stepped with few slots.
"$mkchart" "$tmp/wide.png" 200x64
check --variant gauss_stream -i "$tmp/wide.png" --kernel-size 15
check --variant gauss_stream -i "$tmp/wide.png" --slots 2 --tick 1
# integral_lookback over 3 x 3 of its 128x32 tiles (the last column 44 pixels, the last row
# 6), whole and stepped. Not in one launch: there, as every scoreboard kernel, it orders
# its groups through flags polled with plain volatile loads, which Oclgrind reports as
# races between work-groups.
"$mkchart" "$tmp/lb.png" 300x70
check --variant integral_lookback -i "$tmp/lb.png"
check --variant integral_lookback -i "$tmp/lb.png" --slots 3 --tick 5
# 1100 x 64 RGB: rows of four of boxband's 1024-byte bands, the last 228 bytes wide.
"$mkchart" "$tmp/wide1100.png" 1100x64
check --variant boxband -i "$tmp/wide1100.png"
echo "$passes passed, $fails failed"
[[ $fails -eq 0 ]]
