#!/usr/bin/env bash
# The fastest tilescope variant of the box 3x3 and the Gaussian 5x5 beside Halide's best
# schedule of the same filter (tools/halidebench.cpp, checked bit for bit against
# tilescope's reference), timed on the same machine and image size in ROUNDS rounds
# (default 3), the two in turn: `tilescope bench --json` (kernel time from profiling events,
# median) and ts_halidebench (wall time of realize, median, Halide's own thread pool).
# usage: tools/compare-halide.sh BUILD_DIR [WxH] [CHANNELS] [REPEATS] [THREADS] [ROUNDS]
#   e.g. tools/compare-halide.sh build/release 3840x2160 1 11 2 3
# The report (tools/compare-report.py) gives each filter's median ratio and the rounds' range.
# It names the CPU first (bench's host_cpu). What the CPU variants do on a CPU with AVX2 and no AVX-512 can be
# seen on one with AVX-512 by having pocl compile for AVX2: POCL_KERNELLIB_NAME=avx2
# (and Halide: HL_JIT_TARGET=x86-64-linux-avx-avx2-f16c-fma-sse41); the memory and caches
# stay this machine's.
set -euo pipefail
build=${1:?BUILD_DIR}
size=${2:-3840x2160} channels=${3:-1} repeats=${4:-11} threads=${5:-2} rounds=${6:-3}
[[ -x $build/tools/ts_halidebench ]] || {
  echo "compare-halide.sh: $build/tools/ts_halidebench is missing (install libhalide14-0-dev and rebuild)" >&2
  exit 2
}
. "$(dirname "$0")/compare-rounds.sh"
compare_rounds halide "$build/tools/ts_halidebench" "$size" "$channels" "$repeats" "$threads"
