#!/usr/bin/env bash
# Compiles every kernel file (the built-in ones and the shipped user kernels) with clang as
# strict OpenCL C 1.2 (-pedantic -Werror), in each build the host makes: simulated, device
# (-DTS_DEVICE) and observe (-DTS_OBSERVE). pocl's compiler accepts clang extensions that
# other vendors refuse (NVIDIA's refuses variadic macros, for one), so this catches them
# before a GPU does; and the observed plain kernels' runtime in each of its builds (below).
# The NVIDIA device build (inline PTX) is left to tests/gpu/run.sh: clang
# has no `asm` in OpenCL. Skips (77) without clang, except in CI, where that fails.
# usage: kernels.sh SOURCE_DIR
set -u
src=$1
cc=$(command -v clang-15 || command -v clang-14 || command -v clang || true)
if [[ -z $cc ]]; then
  if [[ ${CI:-} == true ]]; then echo "FAIL: clang is not installed (pocl brings clang-15)"; exit 1; fi
  echo "skipped: clang is not installed"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
for f in "$src"/kernels/*.cl "$src"/assets/kernels/*.cl; do
  case $(basename "$f") in common.cl | scoreboard.cl | access.cl | helpers.cl) continue ;; esac
  # The host builds the common parts and the file as one program, each behind a #line.
  { for part in common.cl scoreboard.cl access.cl helpers.cl; do
      printf '#line 1 "%s"\n' "$part"; cat "$src/kernels/$part"; printf '\n'
    done
    printf '#line 1 "%s"\n' "$(basename "$f")"; cat "$f"; } >"$tmp/k.cl"
  for build in "" -DTS_DEVICE=1 -DTS_OBSERVE=1; do
    if out=$("$cc" -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only \
               -pedantic -Werror $build "$tmp/k.cl" 2>&1); then
      passes=$((passes + 1))
    else
      echo "FAIL: ${f#"$src"/} ${build:-(simulated)}"
      sed 's/^/    /' <<<"$out" | head -12
      fails=$((fails + 1))
    fi
  done
done
# The observed plain kernels' runtime, alone, in each build the host makes of it: a GPU's, a
# CPU device's (-DTS_GROUP_SERIAL), with its checks called (-DTS_CALLS) and with 16 buffers
# (-DTS_MAXG=16). Its two paths share most of the file, and a field or call kept for one of
# them breaks only the other's build: on pocl the GPU's is otherwise built only with
# TILESCOPE_PLAIN_PORTABLE=1.
for build in "" -DTS_GROUP_SERIAL=1 -DTS_CALLS=1 -DTS_MAXG=16; do
  if out=$("$cc" -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only \
             -pedantic -Werror $build "$src/kernels/plain/observe.cl" 2>&1); then
    passes=$((passes + 1))
  else
    echo "FAIL: kernels/plain/observe.cl ${build:-(for a GPU)}"
    sed 's/^/    /' <<<"$out" | head -12
    fails=$((fails + 1))
  fi
done
echo "kernels.sh: $passes builds passed, $fails failed ($cc)"
[[ $fails -eq 0 ]]
