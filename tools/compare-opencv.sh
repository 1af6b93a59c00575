#!/usr/bin/env bash
# The fastest tilescope variant of each filter beside OpenCV's function, timed on the same
# machine and image size in ROUNDS rounds (default 3), the two in turn: `tilescope bench
# --json` (kernel time from profiling events, median) and ts_cvbench (wall time of the call,
# median; OpenCV's own threads).
# usage: tools/compare-opencv.sh BUILD_DIR [WxH] [CHANNELS] [REPEATS] [THREADS] [ROUNDS]
#   e.g. tools/compare-opencv.sh build/release 3840x2160 1 11 2 3
# The report (tools/compare-report.py) gives each filter's median ratio and the rounds' range.
# It names the CPU first (bench's host_cpu). What the CPU variants do on a CPU with AVX2 and no AVX-512 can be
# seen on one with AVX-512 by having pocl compile for AVX2: POCL_KERNELLIB_NAME=avx2 (and
# OpenCV: OPENCV_CPU_DISABLE=AVX512F,AVX512-SKX); the memory and caches stay this machine's.
set -euo pipefail
build=${1:?BUILD_DIR}
size=${2:-3840x2160} channels=${3:-1} repeats=${4:-11} threads=${5:-2} rounds=${6:-3}
[[ -x $build/tools/ts_cvbench ]] || {
  echo "compare-opencv.sh: $build/tools/ts_cvbench is missing (install libopencv-imgproc-dev and rebuild)" >&2
  exit 2
}
. "$(dirname "$0")/compare-rounds.sh"
compare_rounds opencv "$build/tools/ts_cvbench" "$size" "$channels" "$repeats" "$threads"
