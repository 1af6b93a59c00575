#!/usr/bin/env bash
# The fastest tilescope variant of the box 3x3 and the Gaussian 5x5 beside Halide's best
# schedule of the same filter (tools/halidebench.cpp, checked bit for bit against
# tilescope's reference), timed in one run on the same machine and image size:
# `tilescope bench --json` (kernel time from profiling events, median) and ts_halidebench
# (wall time of realize, median, Halide's own thread pool).
# usage: tools/compare-halide.sh BUILD_DIR [WxH] [CHANNELS] [REPEATS] [THREADS]
#   e.g. tools/compare-halide.sh build/release 3840x2160 1 11 2
# It names the CPU first (bench's host_cpu). What the CPU variants do on a CPU with AVX2 and no AVX-512 can be
# seen on one with AVX-512 by having pocl compile for AVX2: POCL_KERNELLIB_NAME=avx2
# (and Halide: HL_JIT_TARGET=x86-64-linux-avx-avx2-f16c-fma-sse41); the memory and caches
# stay this machine's.
set -euo pipefail
build=${1:?BUILD_DIR}
size=${2:-3840x2160} channels=${3:-1} repeats=${4:-11} threads=${5:-2}
[[ -x $build/tools/ts_halidebench ]] || {
  echo "compare-halide.sh: $build/tools/ts_halidebench is missing (install libhalide14-0-dev and rebuild)" >&2
  exit 2
}
hl=$("$build/tools/ts_halidebench" "$size" "$channels" "$repeats" "$threads")
ts=$("$build/tilescope" bench --size "$size" --channels "$channels" --repeats "$repeats" --json)
python3 - "$hl" "$ts" <<'PY'
import json, sys
hl, ts = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"CPU: {ts['host_cpu']}; pocl's device: {ts['device']}")
print(f"{ts['device']}, {ts['width']}x{ts['height']}, {ts['channels']} channel(s), "
      f"medians of {ts['repeats']}; Halide {hl['halide']} ({hl['target']}), {hl['threads']} threads")
print(f"{'filter':<12} {'fastest variant':<18} {'ms':>8}  {'Halide best schedule':<48} {'ms':>8} {'ratio':>7}")
for key, name in (("box", "box 3x3"), ("gauss", "gauss")):
    vs = [v for v in ts["variants"] if v["filter"].startswith(name)]
    best = min(vs, key=lambda v: v["median_ms"])
    scheds = [s for s in hl[key] if s["exact"]]
    if not scheds:
        sys.exit(f"compare-halide.sh: no Halide schedule of {key} equals tilescope's reference")
    h = min(scheds, key=lambda s: s["ms"])
    print(f"{name:<12} {best['name']:<18} {best['median_ms']:>8.3f}  {h['schedule']:<48} {h['ms']:>8.3f} "
          f"{best['median_ms'] / h['ms']:>6.2f}x")
PY
