#!/usr/bin/env bash
# The fastest tilescope variant of each filter beside OpenCV's function, timed in one run on
# the same machine and image size: `tilescope bench --json` (kernel time from profiling
# events, median) and ts_cvbench (wall time of the call, median; OpenCV's own threads).
# usage: tools/compare-opencv.sh BUILD_DIR [WxH] [CHANNELS] [REPEATS] [THREADS]
#   e.g. tools/compare-opencv.sh build/release 3840x2160 1 11 2
# It names the CPU first (bench's host_cpu). What the CPU variants do on a CPU with AVX2 and no AVX-512 can be
# seen on one with AVX-512 by having pocl compile for AVX2: POCL_KERNELLIB_NAME=avx2 (and
# OpenCV: OPENCV_CPU_DISABLE=AVX512F,AVX512-SKX); the memory and caches stay this machine's.
set -euo pipefail
build=${1:?BUILD_DIR}
size=${2:-3840x2160} channels=${3:-1} repeats=${4:-11} threads=${5:-2}
[[ -x $build/tools/ts_cvbench ]] || {
  echo "compare-opencv.sh: $build/tools/ts_cvbench is missing (install libopencv-imgproc-dev and rebuild)" >&2
  exit 2
}
cv=$("$build/tools/ts_cvbench" "$size" "$channels" "$repeats" "$threads")
ts=$("$build/tilescope" bench --size "$size" --channels "$channels" --repeats "$repeats" --json)
python3 - "$cv" "$ts" <<'PY'
import json, sys
cv, ts = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"CPU: {ts['host_cpu']}; pocl's device: {ts['device']}")
print(f"{ts['device']}, {ts['width']}x{ts['height']}, {ts['channels']} channel(s), "
      f"medians of {ts['repeats']}; OpenCV {cv['opencv']} with {cv['threads']} threads")
print(f"{'filter':<14} {'fastest variant':<18} {'ms':>8} {'OpenCV ms':>10} {'ratio':>7}")
for key, name in (("box", "box 3x3"), ("gauss", "gauss"), ("integral", "integral image")):
    vs = [v for v in ts["variants"] if v["filter"].startswith(name)]
    best = min(vs, key=lambda v: v["median_ms"])
    print(f"{best['filter']:<14} {best['name']:<18} {best['median_ms']:>8.3f} {cv[key]:>10.3f} "
          f"{best['median_ms'] / cv[key]:>6.2f}x")
PY
