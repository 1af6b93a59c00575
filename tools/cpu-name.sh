#!/bin/sh
# One line naming this machine's CPU for a comparison's table: its model, the widest x86
# vector instructions it has, its cores, and the CPU that pocl compiles for (from its
# device name), since a ratio measured on one CPU kind does not carry to another.
# usage: tools/cpu-name.sh [TILESCOPE]
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
flags=$(sed -n 's/^flags[[:space:]]*: //p' /proc/cpuinfo | head -1)
isa=SSE2
for f in sse4_1:SSE4.1 avx2:AVX2 avx512bw:AVX-512; do
  case " $flags " in *" ${f%%:*} "*) isa=${f#*:} ;; esac
done
pocl=""
if [ -n "${1:-}" ]; then
  pocl=$("$1" list 2>/dev/null | sed -n 's/^ *0: \(pthread-.*\), CPU on .*/\1/p' | head -1)
fi
echo "CPU: ${model:-unknown} ($isa, $(nproc) cores)${pocl:+; pocl's device: $pocl}"
