#!/usr/bin/env bash
# Builds tilescope without the viewer on a Linux machine with an NVIDIA GPU and no network,
# then checks every variant on the GPU and benchmarks it. Nothing is installed system-wide:
# the OpenCL ICD loader, headers and libpng come as Debian packages unpacked into a private
# prefix, and the NVIDIA OpenCL library is registered with an .icd file of our own when the
# machine has none.
#
# usage: tests/gpu/run.sh DEBS_DIR OUT_DIR
#   DEBS_DIR: ocl-icd-libopencl1, ocl-icd-opencl-dev, opencl-c-headers, libpng16-16,
#             libpng-dev, zlib1g-dev, and for plain kernels libclang1-15, libllvm15,
#             libclang-common-15-dev, libz3-4, libedit2, libbsd0, libmd0, libffi8, libtinfo6
#             (.deb files; `apt-get download` them on Debian 12), with a folder clang-c/
#             beside them holding libclang's C headers (from libclang-15-dev, which is too
#             large to carry whole)
#   OUT_DIR:  where the logs, the device list, the correctness results and the bench tables go
# TS_GPU_ANY_DEVICE=1 lets it run on the first device when there is no GPU (a dry run).
# TS_GPU_QUICK=1 skips test_cl and the host-ordered 4K/8K comparison, and benches 4K grey only.
# TS_GPU_ONLY=plain runs only the plain kernels' part (test_plain, test_launch, launch.sh,
# OpenCV's kernels, and their timings).
# TS_GPU_ONLY=core skips the plain kernels' part and runs the rest (5 to 7 below): the
# variants' correctness, the device's schedule, observation, and every variant's timings.
# TS_GPU_ONLY=adversary runs only the adversary's runs and the 8K bench (4z below).
# TS_GPU_ONLY=build stops after the build and the device list (4x below).
# TS_GPU_ONLY=order runs only the plain kernels' orders (4v below): test_plain, tests/order.sh,
# the look-back integral's record in the device's order, and the examples' observation cost.
# TS_GPU_ONLY=ab benches the variants TS_GPU_VARIANTS names with each kernels folder that
# TS_GPU_KERNELS names, alternated, after checking them against the CPU back end (4w below).
# TS_GPU_ONLY=variants runs test_cl and checks and benches the variants TS_GPU_VARIANTS names
# (4y below).
# TS_GPU_ONLY=lookback runs only the scoreboard integrals' part (4a below): test_device, the
# look-back integral against the CPU model, records and critical paths, and their bench; it
# leaves at most 8 files in OUT_DIR.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[[ $# -eq 2 ]] || { echo "usage: tests/gpu/run.sh DEBS_DIR OUT_DIR" >&2; exit 2; }
debs=$(cd "$1" 2>/dev/null && pwd) ||
  { echo "tests/gpu/run.sh: DEBS_DIR $1: no such folder" >&2; exit 2; }
out=$2
mkdir -p "$out"
prefix=${TMPDIR:-/tmp}/tilescope-gpu-prefix
build=${TMPDIR:-/tmp}/tilescope-gpu-build
work=${TMPDIR:-/tmp}/tilescope-gpu-work
mkdir -p "$work"
log() { echo "== $*" | tee -a "$out/summary.txt"; }
# The device machine returns at most 8 files: past that, the logs go into one logs.tgz
# beside summary.txt, bench.txt and the traces.
pack_logs() {
  local keep='^(summary\.txt|bench\.txt|.*\.json\.gz|.*\.json)$' f logs=()
  [[ $(find "$out" -maxdepth 1 -type f | wc -l) -le 8 ]] && return
  for f in "$out"/*; do
    [[ -f $f && ! $(basename "$f") =~ $keep ]] && logs+=("$(basename "$f")")
  done
  tar -C "$out" -czf "$out/logs.tgz" "${logs[@]}" && (cd "$out" && rm -f "${logs[@]}")
}
trap pack_logs EXIT

# 1. The loader, headers and libpng, unpacked privately.
rm -rf "$prefix" && mkdir -p "$prefix"
for f in "$debs"/*.deb; do
  if command -v dpkg-deb >/dev/null; then
    dpkg-deb -x "$f" "$prefix"
  else
    (cd "$prefix" && ar p "$f" data.tar.xz | tar -xJ)
  fi
done
lib=$prefix/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$lib:$prefix/usr/lib/llvm-15/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# 2. The NVIDIA OpenCL library, registered with an .icd file of our own when none of the
#    machine's .icd files names it (the machine's others are kept beside it).
if ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  nv=$( (ldconfig -p 2>/dev/null | awk '/libnvidia-opencl.so.1/ {print $NF}'; \
        find /usr/local/nvidia /usr/lib /usr/lib64 /usr/lib/x86_64-linux-gnu -maxdepth 3 \
             -name 'libnvidia-opencl.so.1' 2>/dev/null) | head -1)
  log "no ICD file names NVIDIA's OpenCL library; found: ${nv:-nothing}"
  mkdir -p "$prefix/vendors"
  cp /etc/OpenCL/vendors/*.icd "$prefix/vendors/" 2>/dev/null
  [[ -n $nv ]] && echo "$nv" >"$prefix/vendors/nvidia.icd"
  export OCL_ICD_VENDORS=$prefix/vendors
fi
{ echo "ICD files:"; ls -l /etc/OpenCL/vendors "${OCL_ICD_VENDORS:-}" 2>&1; \
  echo "NVIDIA libraries:"; ls /usr/local/nvidia/lib64 2>&1 | grep -i -E "opencl|cuda" ; \
  nvidia-smi -L 2>&1; } >"$out/device.txt"

# 3. Build the headless product (no viewer) and the tests.
png_args=()
if [[ ! -e /usr/include/png.h ]]; then
  png_args=(-DPNG_PNG_INCLUDE_DIR="$prefix/usr/include" -DPNG_LIBRARY="$lib/libpng16.so"
            -DZLIB_INCLUDE_DIR="$prefix/usr/include" -DZLIB_LIBRARY="$lib/libz.so")
  [[ -e $lib/libz.so ]] || png_args[-1]=-DZLIB_LIBRARY=$(ldconfig -p | awk '/libz.so.1 / {print $NF; exit}')
fi
log "configure and build"
llvm=$prefix/usr/lib/llvm-15
if ! cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTS_VIEWER=OFF \
     -DOpenCL_INCLUDE_DIR="$prefix/usr/include" -DOpenCL_LIBRARY="$lib/libOpenCL.so" \
     -DCLANG_C_INCLUDE="$debs" -DCLANG_C_LIB="$llvm/lib/libclang-15.so.1" \
     "${png_args[@]}" >"$out/build.log" 2>&1 ||
   ! cmake --build "$build" -j"$(nproc)" >>"$out/build.log" 2>&1; then
  log "build failed (see build.log)"; tail -30 "$out/build.log"; exit 1
fi
ts=$build/tilescope

# 4. What OpenCL sees.
log "devices"
"$ts" list 2>&1 | sed -n '/OpenCL devices/,$p' | tee -a "$out/device.txt"
gpu=$("$ts" list | awk -F: '/^  [0-9]+: .*GPU/ {gsub(/ /, "", $1); print $1; exit}')
if [[ -z $gpu && ${TS_GPU_ANY_DEVICE:-0} == 1 ]]; then
  gpu=0 # a dry run of this script on a machine without a GPU (pocl)
fi
if [[ -z $gpu ]]; then
  log "no OpenCL GPU device"; exit 1
fi
"$ts" list --memory --device "$gpu" 2>&1 | tee -a "$out/device.txt"

# 4x. Only the build and the device list (TS_GPU_ONLY=build), for commands of one's own
#     after it: the product is $build/tilescope, its libraries under $prefix (LD_LIBRARY_PATH
#     as above, and OCL_ICD_VENDORS=$prefix/vendors where that folder exists).
if [[ ${TS_GPU_ONLY:-} == build ]]; then
  log "done (build only)"
  exit 0
fi

# 4v. A plain kernel's order on the GPU (TS_GPU_ONLY=order): test_plain (the observed
#     runtime's GPU paths: a barrier in each group's start, an atomic at each work-item's
#     end), tests/order.sh (records, orders, forward progress, the adversary), the shipped
#     look-back integral in the device's own order with its record (how many groups ran at
#     once, and whether the tiles started in order), and each shipped example's observation
#     cost at 4K RGB, the tiled Gaussian without its barrier (every tile read a race) too.
if [[ ${TS_GPU_ONLY:-} == order ]]; then
  "$build/assets/ts_mkchart" "$work/chart4k.png" 3840x2160 >/dev/null
  log "test_plain"
  timeout 300 "$build/tests/test_plain" 2>&1 | tee "$out/test_plain.txt" | tail -3
  ro=${PIPESTATUS[0]}
  log "test_plain exit $ro"
  log "order.sh"
  bash "$root/tests/order.sh" "$ts" "$root" 2>&1 | tee "$out/order.txt" | tail -5
  [[ ${PIPESTATUS[0]} -eq 0 ]] || ro=1
  log "the look-back integral in the device's order"
  "$ts" run --kernel-file "$root/assets/kernels/plain/integral_lookback.cl" -i "$work/chart4k.png" \
    --device "$gpu" --observe --json 2>/dev/null >"$work/lookback.json"
  python3 - "$work/lookback.json" <<'PY' | tee -a "$out/summary.txt"
import json, sys
d = json.load(open(sys.argv[1]))
p = d["passes"][0]
recs = p["records"]
ev = sorted([(r["start"], 1) for r in recs] + [(r["end"], -1) for r in recs])
at = most = 0
for _, s in ev:
    at += s
    most = max(most, at)
inorder = sum(1 for a, b in zip(recs, recs[1:]) if a["launched_as"] < b["launched_as"])
print("lookback 4K: %d groups, %d ticks, at most %d at once, %d of %d starts after a lower id, "
      "findings %s" % (len(recs), p["ticks"], most, inorder, len(recs) - 1,
                        sum(d["counts"].values())))
PY
  "$ts" run --kernel-file "$root/assets/kernels/plain/integral_scan.cl" -i "$work/chart4k.png" \
    --device "$gpu" --raw "$work/scan.npy" >/dev/null 2>&1
  "$ts" run --kernel-file "$root/assets/kernels/plain/integral_lookback.cl" -i "$work/chart4k.png" \
    --device "$gpu" --raw "$work/lb.npy" >/dev/null 2>&1
  if cmp -s "$work/scan.npy" "$work/lb.npy"; then log "lookback 4K equals the two-pass integral"
  else log "lookback 4K DIFFERS from the two-pass integral"; ro=1; fi
  log "observation cost, 3840x2160 RGB (broken_nobarrier: a flood of findings)"
  for f in conv2d gauss_tiled separable integral_scan integral_lookback box_image broken_nobarrier; do
    "$ts" bench --kernel-file "$root/assets/kernels/plain/$f.cl" -i "$work/chart4k.png" \
      --device "$gpu" --repeats 5 2>&1 | tail -n +2 | tee -a "$out/bench.txt"
  done
  log "done (order only), exit $ro"
  exit "$ro"
fi

# 4w. An A/B of kernel changes (TS_GPU_ONLY=ab, TS_GPU_VARIANTS="a b ...", TS_GPU_KERNELS="DIR
#     ..." : kernels folders, such as a copy of kernels/ before the change and kernels/
#     itself): with each folder, the named variants' 4K and 8K RGB outputs byte for byte
#     against the CPU back end, then TS_GPU_ROUNDS (default 3) rounds, each folder in turn,
#     of their bench at 7680x4320 grey and RGB, so that the folders alternate and a drift of
#     the machine shows as one. Files: summary.txt, device.txt, build.log, ab.txt.
if [[ ${TS_GPU_ONLY:-} == ab ]]; then
  rc=0
  variants=$(echo ${TS_GPU_VARIANTS:?} | tr ' ' ,)
  for img in 3840x2160 7680x4320; do
    "$build/assets/ts_mkchart" "$work/chart.png" "$img" >/dev/null
    for v in $TS_GPU_VARIANTS; do
      "$ts" run -i "$work/chart.png" --variant "$v" --backend cpu --raw "$work/cpu.npy" >/dev/null 2>&1
      for k in ${TS_GPU_KERNELS:?}; do
        "$ts" run -i "$work/chart.png" --variant "$v" --kernels "$k" --backend cl --device "$gpu" --raw "$work/gpu.npy" >/dev/null 2>&1
        if cmp -s "$work/gpu.npy" "$work/cpu.npy"; then r=identical; else r=DIFFERENT; rc=1; fi
        log "$k: $img RGB $v: $r"
      done
    done
  done
  for round in $(seq "${TS_GPU_ROUNDS:-3}"); do
    for k in $TS_GPU_KERNELS; do
      for c in 1 3; do
        echo "== round $round, kernels $k, $c channel(s)"
        "$ts" bench --device "$gpu" --size 7680x4320 --channels "$c" --repeats 11 --kernels "$k" \
          --variants "$variants" 2>&1 | grep -v -E '^(variant|one launch|fastest)'
      done
    done
  done | tee "$out/ab.txt"
  rm -rf "$work"
  log "done (ab), exit $rc"
  exit "$rc"
fi

# 4z. The adversary and the 8K bench (TS_GPU_ONLY=adversary): a dropped dependency under
#     --adversary in 5 runs, the right patterns under it in 3 each, then every variant at
#     7680x4320 grey and RGB. Files: summary.txt, device.txt, build.log, bench.txt.
if [[ ${TS_GPU_ONLY:-} == adversary ]]; then
  rc=0
  "$build/assets/ts_mkchart" "$work/chart4k.png" 3840x2160 >/dev/null
  for img in "" "$work/chart4k.png"; do
    for i in 1 2 3 4 5; do
      log "integral none --adversary ${img:+4K }#$i: $("$ts" run --variant integral --pattern none --exec device --adversary --device "$gpu" ${img:+-i "$img"} 2>&1 | grep '^device:')"
    done
  done
  for v in integral integral_lookback integral_lookback_wide; do
    for i in 1 2 3; do
      line=$("$ts" run --variant "$v" --exec device --adversary --device "$gpu" 2>&1 | grep '^device:')
      log "$v wavefront --adversary #$i: $line"
      [[ $line == *"; 0 wrong tiles;"* ]] || rc=1
    done
  done
  for c in 1 3; do
    log "bench 7680x4320, $c channel(s)"
    "$ts" bench --device "$gpu" --size 7680x4320 --channels "$c" --repeats "${TS_GPU_REPEATS:-11}" 2>&1 |
      tee -a "$out/bench.txt"
  done
  rm -rf "$work"
  log "done (adversary and bench), exit $rc"
  exit "$rc"
fi

# 4y. Named variants (TS_GPU_ONLY=variants, TS_GPU_VARIANTS="a b ..."): test_cl (every
#     variant against the CPU model), the named ones at 4K and 8K RGB byte for byte against
#     the CPU back end, then their bench at 7680x4320 grey and RGB. Files: summary.txt,
#     device.txt, build.log, test_cl.txt, identical.txt, bench.txt.
if [[ ${TS_GPU_ONLY:-} == variants ]]; then
  TILESCOPE_CL_SYNC=1 "$build/tests/test_cl" >"$out/test_cl.txt" 2>&1
  rc=$?
  log "test_cl exit $rc"
  : >"$out/identical.txt"
  for img in 3840x2160 7680x4320; do
    "$build/assets/ts_mkchart" "$work/chart.png" "$img" >/dev/null
    for v in ${TS_GPU_VARIANTS:?}; do
      "$ts" run -i "$work/chart.png" --variant "$v" --backend cl --device "$gpu" --raw "$work/gpu.npy" >/dev/null 2>&1
      "$ts" run -i "$work/chart.png" --variant "$v" --backend cpu --raw "$work/cpu.npy" >/dev/null 2>&1
      if cmp -s "$work/gpu.npy" "$work/cpu.npy"; then r=identical; else r=DIFFERENT; rc=1; fi
      log "$img RGB $v: $r"
    done
  done
  for c in 1 3; do
    log "bench 7680x4320, $c channel(s)"
    "$ts" bench --device "$gpu" --size 7680x4320 --channels "$c" --repeats "${TS_GPU_REPEATS:-11}" \
      --variants "$(echo $TS_GPU_VARIANTS | tr ' ' ,)" 2>&1 | tee -a "$out/bench.txt"
  done
  rm -rf "$work"
  log "done (variants), exit $rc"
  exit "$rc"
fi

# 4a. The scoreboard integrals (TS_GPU_ONLY=lookback): the seed's one-launch wavefront
#     (integral) beside the decoupled look-back (integral_lookback, docs/device.md).
#     test_device (every variant in one launch, the look-back under random walks, the stuck
#     ticket); the look-back's whole 4K and 8K runs, one launch and host-ordered, byte for byte
#     against the CPU model; one recorded run of each at 8K grey (and at 4K for the plain one)
#     with its critical path, under three walks for the look-back; the bench at 8K and 4K.
#     Files: summary.txt, device.txt, build.log, test_device.txt, bench.txt, the traces
#     lookback8k.json.gz and integral4k.json.gz, and lookback320.json (the golden's record,
#     tests/records/integral_lookback.json, made here).
if [[ ${TS_GPU_ONLY:-} == lookback ]]; then
  rc=0
  outa=$(cd "$out" && pwd)
  "$build/assets/ts_mkchart" "$work/chart4k.png" 3840x2160 >/dev/null
  "$build/assets/ts_mkchart" "$work/chart8k.png" 7680x4320 >/dev/null
  log "test_device"
  timeout 300 "$build/tests/test_device" >"$out/test_device.txt" 2>&1
  r=$?
  tail -4 "$out/test_device.txt" | tee -a "$out/summary.txt"
  log "test_device exit $r"
  [[ $r -eq 0 ]] || rc=1
  for img in chart4k chart8k; do
    "$ts" run -i "$work/$img.png" --variant integral --backend cpu --raw "$work/cpu.npy" >/dev/null 2>&1
    for v in integral_lookback integral_lookback_wide integral_lookback_band; do
      for how in "--exec device" "--exec sim"; do
        # shellcheck disable=SC2086
        "$ts" run -i "$work/$img.png" --variant "$v" --device "$gpu" $how --raw "$work/gpu.npy" >"$work/run.txt" 2>&1
        if cmp -s "$work/gpu.npy" "$work/cpu.npy"; then r=identical; else r=DIFFERENT; rc=1; fi
        log "$v $img $how: $r; $(grep -E '^device:|kernels' "$work/run.txt" | head -1)"
      done
    done
  done
  log "records at 7680x4320 (each line: its device summary and its critical path)"
  for v in integral_lookback integral_lookback_wide; do
    for w in wavefront horizontal vertical; do
      "$ts" run -i "$work/chart8k.png" --variant "$v" --walk "$w" --exec device --device "$gpu" \
        --trace "$work/$v-$w.json" >"$work/run.txt" 2>&1 || rc=1
      log "$v, walk $w: $(grep -E '^(device|critical path):' "$work/run.txt" | tr '\n' ' ')"
    done
  done
  gzip -c "$work/integral_lookback-wavefront.json" >"$out/lookback8k.json.gz"
  "$ts" run -i "$work/chart8k.png" --variant integral --exec device --device "$gpu" \
    >"$work/run.txt" 2>&1 || rc=1
  log "integral, walk wavefront: $(grep -E '^(device|critical path):' "$work/run.txt" | tr '\n' ' ')"
  "$ts" run -i "$work/chart4k.png" --variant integral --exec device --device "$gpu" \
    --trace "$work/integral4k.json" >"$work/run.txt" 2>&1 || rc=1
  log "integral at 3840x2160: $(grep -E '^(device|critical path):' "$work/run.txt" | tr '\n' ' ')"
  gzip -c "$work/integral4k.json" >"$out/integral4k.json.gz"
  (cd "$root" && "$ts" run -i tests/records/chart320.png --variant integral_lookback --exec device \
     --device "$gpu" --trace "$outa/lookback320.json" 2>&1 | sed -n 2,3p) | tee -a "$out/summary.txt"
  for size in 7680x4320 3840x2160; do
    for c in 1 3; do
      [[ $size == 3840x2160 && $c == 3 ]] && continue
      log "bench $size, $c channel(s)"
      "$ts" bench --device "$gpu" --size "$size" --channels "$c" --repeats "${TS_GPU_REPEATS:-11}" \
        --variants integral,integral_lookback,integral_lookback_wide,integral_colrow 2>&1 |
        tee -a "$out/bench.txt"
    done
  done
  log "bench 7680x4320 grey, one launch recording every group"
  "$ts" bench --device "$gpu" --size 7680x4320 --repeats "${TS_GPU_REPEATS:-11}" --records \
    --variants integral,integral_lookback,integral_lookback_wide 2>&1 | tee -a "$out/bench.txt"
  rm -rf "$work"
  log "done (look-back only), exit $rc"
  exit "$rc"
fi

if [[ ${TS_GPU_ONLY:-} != core ]]; then
# 4b. Plain kernels (SPEC section 10): test_plain on the GPU (the examples equal their
#     references plain and observed, the broken copies are caught at their lines, every
#     spelling of an access is seen), then each example plain and observed at 1920x1080 and
#     3840x2160 RGB, and the missing barrier at 4K.
"$build/assets/ts_mkchart" "$work/chart1080.png" 1920x1080 >/dev/null
"$build/assets/ts_mkchart" "$work/chart4k.png" 3840x2160 >/dev/null
log "test_plain"
timeout 300 "$build/tests/test_plain" 2>&1 | tee "$out/test_plain.txt" | tail -3
rp=${PIPESTATUS[0]}
log "test_plain exit $rp"
for img in chart1080 chart4k; do
  for f in conv2d gauss_tiled separable broken_nobarrier; do
    "$ts" run --kernel-file "$root/assets/kernels/plain/$f.cl" -i "$work/$img.png" --device "$gpu" \
      --observe --repeats 5 2>&1 | head -6 | tee -a "$out/plain.txt"
  done
done
# A barrier that the work-items past the image's edge skip (1080 rows are no multiple of 16):
# named at its branch on a device whose work-items really diverge.
"$ts" run --kernel-file "$root/assets/kernels/plain/broken_divergence.cl" -i "$work/chart1080.png" \
  --device "$gpu" --observe --timeout 60 >"$work/diverge.txt" 2>&1
rd=$?
if [[ $rd -eq 1 ]] && grep -q "^broken_divergence.cl:21: barrier divergence in gauss_tiled: work-group" "$work/diverge.txt"; then
  log "divergence observed: $(grep -m1 'barrier divergence' "$work/diverge.txt")"
else
  log "divergence NOT observed (exit $rd): $(tail -3 "$work/diverge.txt")"; rp=1
fi
# The viewer's observation of a built-in at 4K (its limit on a GPU): the observed replay's time.
for v in box2d integral; do
  s0=$(date +%s.%N)
  "$ts" run --variant "$v" -i "$work/chart4k.png" --device "$gpu" --observe 2>&1 | grep -E "^observ" | tee -a "$out/observe4k.txt"
  log "observed $v at 4K: $(echo "$(date +%s.%N) - $s0" | bc 2>/dev/null || echo '?') s wall, run and replay"
done
# A dialect kernel's direct src[...] reads, observed through the instrumenter on the GPU too.
"$ts" run --kernel-file "$root/tests/kernels/box_direct.cl" --device "$gpu" --observe >"$work/direct.txt" 2>&1
rd=$?
if [[ $rd -eq 1 ]] && grep -q "outside its declared footprint" "$work/direct.txt"; then
  log "dialect kernel's direct reads observed: $(grep -m1 'outside its declared' "$work/direct.txt")"
else
  log "dialect kernel's direct reads NOT observed (exit $rd)"; rp=1
fi
# 4c. Kernels as libraries ship them: test_launch and launch.sh on the GPU, then OpenCV's own
#     kernels unmodified where their files were carried (.gpu/opencv/: boxFilter3x3.cl,
#     integral_sum.cl, and grey.png with OpenCV's CPU results blur.npy and sum.npy from
#     tools/cvref.cpp), compared value for value and timed.
log "test_launch"
timeout 300 "$build/tests/test_launch" 2>&1 | tee "$out/test_launch.txt" | tail -2
[[ ${PIPESTATUS[0]} -eq 0 ]] || rp=1
bash "$root/tests/launch.sh" "$ts" "$root" 2>&1 | tee "$out/launch.txt" | tail -2
[[ ${PIPESTATUS[0]} -eq 0 ]] || rp=1
cv=$root/.gpu/opencv
if [[ -f $cv/boxFilter3x3.cl && -f $cv/grey.png ]]; then
  for pair in "boxFilter3x3 blur" "integral_sum sum"; do
    set -- $pair
    "$ts" run --kernel-file "$cv/$1.cl" --launch "$root/assets/launch/opencv_$1.launch" -i "$cv/grey.png" \
      --device "$gpu" --observe --repeats 5 --expect "$cv/$2.npy" 2>&1 | tee -a "$out/opencv.txt"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || rp=1
  done
fi
if [[ ${TS_GPU_ONLY:-} == plain ]]; then
  log "done (plain only), exit $rp"
  exit "$rp"
fi

fi

# 5. Correctness on the GPU: the OpenCL test suite (every variant against the CPU model and
#    the reference, at random ticks of random schedules), then whole 4K and 8K runs of every
#    variant compared byte for byte with the CPU back end.
rc=0
quick=${TS_GPU_QUICK:-0}
variants=$("$ts" list | awk '/^variants:/ {v = 1; next} /^[^ ]/ {v = 0} v && /^  [a-z]/ {print $1}')
"$build/assets/ts_mkchart" "$work/chart4k.png" 3840x2160 >/dev/null
"$build/assets/ts_mkchart" "$work/chart8k.png" 7680x4320 >/dev/null
: >"$out/identical.txt"
if [[ $quick != 1 ]]; then
log "test_cl"
TILESCOPE_CL_SYNC=1 "$build/tests/test_cl" 2>&1 | tee "$out/test_cl.txt" | tail -5
rc=${PIPESTATUS[0]}
log "test_cl exit $rc"
fi
for img in chart4k chart8k; do
  [[ $quick == 1 ]] && break
  for v in $variants; do
    "$ts" run -i "$work/$img.png" --variant "$v" --backend cl --device "$gpu" --raw "$work/gpu.npy" >"$work/run.txt" 2>&1
    "$ts" run -i "$work/$img.png" --variant "$v" --backend cpu --raw "$work/cpu.npy" >/dev/null 2>&1
    if cmp -s "$work/gpu.npy" "$work/cpu.npy"; then r=identical; else r=DIFFERENT; rc=1; fi
    echo "$img $v: $r; $(tail -1 "$work/run.txt")" | tee -a "$out/identical.txt"
  done
done

# 6. The schedule run by the device (--exec device): its test suite, every variant's 4K run
#    equal to the CPU back end, a wavefront integral's trace, and the race of the integral
#    without its wavefront over 20 runs.
log "test_device"
"$build/tests/test_device" 2>&1 | tee "$out/test_device.txt" | tail -5
r2=${PIPESTATUS[0]}
log "test_device exit $r2"
[[ $r2 -eq 0 ]] || rc=1
for v in $variants; do
  "$ts" run -i "$work/chart4k.png" --variant "$v" --exec device --device "$gpu" --raw "$work/gpu.npy" >"$work/run.txt" 2>&1
  "$ts" run -i "$work/chart4k.png" --variant "$v" --backend cpu --raw "$work/cpu.npy" >/dev/null 2>&1
  if cmp -s "$work/gpu.npy" "$work/cpu.npy"; then r=identical; else r=DIFFERENT; rc=1; fi
  echo "exec device chart4k $v: $r; $(grep '^device:' "$work/run.txt")" | tee -a "$out/identical.txt"
done
"$ts" run -i "$work/chart4k.png" --variant integral --exec device --device "$gpu" \
  --trace "$work/integral4k.json" >>"$out/identical.txt" 2>&1 && gzip -c "$work/integral4k.json" >"$out/integral4k.json.gz"
"$ts" run -i "$work/chart4k.png" --variant integral --pattern none --exec device --device "$gpu" \
  --trace "$work/race4k.json" >>"$out/identical.txt" 2>&1 && gzip -c "$work/race4k.json" >"$out/race4k.json.gz"
log "race: integral --pattern none --exec device at 4K, 20 runs"
for i in $(seq 20); do
  "$ts" run -i "$work/chart4k.png" --variant integral --pattern none --exec device --device "$gpu" 2>&1 | grep '^device:'
done | tee -a "$out/identical.txt" | awk '{n += ($(NF-2) > 0)} END {print n " of " NR " runs had wrong tiles"}' | tee -a "$out/summary.txt"

# 6b. Observed accesses on the GPU: test_observe (every built-in variant's reads equal its
#     declared footprint; the broken kernels are caught), and the shipped user kernels with
#     --observe and with --exec device. The broken one (its halo one pixel short) must be
#     flagged with the thread and element; the others pass with no violation.
log "test_observe"
"$build/tests/test_observe" 2>&1 | tee "$out/test_observe.txt" | tail -3
r3=${PIPESTATUS[0]}
log "test_observe exit $r3"
[[ $r3 -eq 0 ]] || rc=1
for f in "$root"/assets/kernels/*.cl; do
  v=$(sed -n 's/.*tilescope: variant name=\([A-Za-z0-9_]*\).*/\1/p' "$f" | head -1)
  "$ts" run -i "$work/chart4k.png" --kernel-file "$f" --variant "$v" --device "$gpu" --observe >"$work/obs.txt" 2>&1
  r=$?
  "$ts" run -i "$work/chart4k.png" --kernel-file "$f" --variant "$v" --device "$gpu" --exec device >"$work/dev.txt" 2>&1
  rd=$?
  if [[ $v == *short_halo* ]]; then
    ok=$([[ $r -eq 1 ]] && grep -q 'outside its declared footprint' "$work/obs.txt" && echo yes)
  else
    ok=$([[ $r -eq 0 && $rd -eq 0 ]] && grep -q '^observed: 0 footprint violations' "$work/obs.txt" && echo yes)
  fi
  [[ $ok == yes ]] || rc=1
  echo "user kernel $v: observe exit $r, exec device exit $rd: ${ok:-WRONG}; $(grep -m1 -E 'outside its|^observed:' "$work/obs.txt")" |
    tee -a "$out/identical.txt"
done
rm -rf "$work"

# 7. Timings (each variant both ways: host-ordered launches and one launch on the device),
#    and the cost of per-group records.
log "bench 3840x2160 grey, one launch with records"
"$ts" bench --device "$gpu" --size 3840x2160 --repeats "${TS_GPU_REPEATS:-20}" --records 2>&1 | tee -a "$out/bench.txt"
for size in 3840x2160 7680x4320; do
  for c in 1 3; do
    [[ $quick == 1 && ( $size != 3840x2160 || $c != 1 ) ]] && continue
    log "bench $size, $c channel(s)"
    "$ts" bench --device "$gpu" --size "$size" --channels "$c" --repeats "${TS_GPU_REPEATS:-20}" 2>&1 |
      tee -a "$out/bench.txt"
  done
done
# The plain kernels' part (4b, 4c) counts too.
[[ ${rp:-0} -eq 0 ]] || rc=1
log "done, exit $rc"
exit "$rc"
