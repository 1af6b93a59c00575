#!/usr/bin/env bash
# Soak: the scripted viewer for thousands of steps that switch variant, pattern, walk, back end
# and image (three images of different sizes and channel counts, loaded on the loader thread),
# with ticks, keys and hovers between; every step waits for the worker. The process's
# resident memory (VmRSS, from the state line) after a warm-up and at the end must not grow
# by more than the bound: a leak of one run or image per switch would pass it within a few
# hundred switches.
# The bound is 48 MiB: with 21 variants (each with a kernel and an observe build, which pocl
# compiles lazily per local size) a clean 2000-step run once grew by 33 MB under heavy load.
# usage: soak.sh TILESCOPE MKCHART SOURCE_DIR [STEPS [BOUND_KB]]
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # python3 itself (lib.sh)
ts=$(realpath "$1") mkchart=$2 src=$3 steps=${4:-3000} bound=${5:-49152}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset DISPLAY WAYLAND_DISPLAY
export SDL_VIDEODRIVER=offscreen
if ! "$ts" shot -o "$tmp/probe.png" --backend cpu --size 640x400 >"$tmp/log" 2>&1; then
  if grep -q "cannot open an OpenGL\|cannot start SDL" "$tmp/log"; then
    if [[ ${CI:-} == true ]]; then echo "FAIL: no GL in CI: $(cat "$tmp/log")"; exit 1; fi
    echo "skipped: no OpenGL here"; exit 77
  fi
fi
backends="cpu"
"$ts" list | grep -q "^  0: " && backends="cpu cl"
"$mkchart" "$tmp/a.png" 320x200 || { echo "FAIL: ts_mkchart"; exit 1; }
# An odd-sized grey image and an RGBA one.
python3 - "$tmp/b.png" "$tmp/c.png" <<'PY'
import struct, sys, zlib
def png(path, w, h, ctype, c):
    rows = b"".join(b"\0" + bytes((x * 7 + y * 13 + k * 50) % 256 for x in range(w) for k in range(c))
                    for y in range(h))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, ctype, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
png(sys.argv[1], 97, 61, 0, 1)
png(sys.argv[2], 64, 48, 6, 4)
PY
# The same script every run: a fixed seed.
python3 - "$tmp/soak.txt" "$steps" "$backends" "$src/assets/chart.png" "$tmp/a.png" "$tmp/b.png" "$tmp/c.png" <<'PY'
import random, sys
out, steps, backends, images = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4:]
variants = ["box2d", "linear1d2", "linearslide", "linearslide2", "transpose2pass", "boxstrip", "boxband", "boxword", "boxquad", "gauss_global",
            "gauss_local", "gauss_local_sep", "gauss_slide", "gaussword", "gaussquad", "gauss_stream", "integral", "integral_scan", "integral_colrow",
            "integral_band"]
patterns = ["none", "wavefront", "wavefront26", "vertical", "horizontal", "wavefront26z",
            "wavefront26zig", "wavefront26x", "wavefront26zi"]
walks = patterns[1:] + ["horizontal"]
r = random.Random(12)
lines = []
def step():
    k = r.randrange(10)
    if k == 0: lines.append("variant " + r.choice(variants))
    elif k == 1: lines.append("pattern " + r.choice(patterns))
    elif k == 2: lines.append("walk " + r.choice(walks))
    elif k == 3: lines.append("backend " + r.choice(backends))
    elif k == 4 and r.randrange(4) == 0: lines.append("open " + r.choice(images))
    elif k == 5: lines.append("tick %d" % r.randrange(40))
    elif k == 6: lines.append("key " + r.choice(["right", "left", "end", "home", "o", "]", "[", "c"]))
    elif k == 7: lines.append("move %d %d" % (r.randrange(100), r.randrange(60)))
    elif k == 8: lines.append("tick end")
    else: lines.append("wait 1")
warm = min(300, steps // 5)
# The warm-up visits every variant on each back end first: the first OpenCL run of a
# variant builds its kernels, and the viewer's first observation of it its observe build,
# which the OpenCL implementation keeps (pocl: some 2 MB each).
for b in backends:
    lines.append("backend " + b)
    for v in variants:
        lines.append("variant " + v)
        lines.append("wait 1")
for i in range(warm): step()
lines.append("slots 168\ncost 1\nreport")
for i in range(steps - warm): step()
lines.append("slots 168\ncost 1\nreport")
open(out, "w").write("\n".join(lines) + "\n")
PY
start=$(date +%s)
"$ts" shot --size 800x500 --script "$tmp/soak.txt" -o "$tmp/soak.png" >"$tmp/out" 2>"$tmp/err"
rc=$?
secs=$(($(date +%s) - start))
mapfile -t rss < <(grep -o 'rss=[0-9]*' "$tmp/out" | cut -d= -f2)
if [[ $rc -ne 0 || ${#rss[@]} -ne 2 ]]; then
  echo "FAIL: the soak did not play to the end (exit $rc): $(head -c 600 "$tmp/err")"
  exit 1
fi
growth=$((rss[1] - rss[0]))
echo "soak: $steps steps on $backends in ${secs} s; VmRSS after warm-up ${rss[0]} kB, at the end ${rss[1]} kB, growth $growth kB (bound $bound kB)"
if ((growth > bound)); then
  echo "FAIL: resident memory grew by $growth kB"
  exit 1
fi
