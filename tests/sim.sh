#!/usr/bin/env bash
# The project's own Oclgrind simulator files (tests/sim/): each launched unmodified with
# `tilescope run --observe --sim`, its findings' kinds and its dump compared with the .ref
# beside it, which holds Oclgrind's verdict: oclgrind-kernel is run on every case too and
# must agree with every .ref, so the references cannot drift from the reference tool. The
# cases tests/sim/DIFFERS lists (with the reason) are expected to differ, and no others.
# Skips (77) without oclgrind, except in CI, where that fails.
# usage: sim.sh TILESCOPE SOURCE_DIR
set -u
ts=$1 src=$2
if ! command -v oclgrind-kernel >/dev/null; then
  if [[ ${CI:-} == true ]]; then echo "FAIL: oclgrind-kernel is not installed"; exit 1; fi
  echo "skipped: oclgrind-kernel is not installed"
  exit 77
fi
fails=0
python3 "$src/tools/oclgrind-suite.py" --oclgrind --all oclgrind-kernel "$src/tests/sim" || fails=1
python3 "$src/tools/oclgrind-suite.py" --differs "$src/tests/sim/DIFFERS" "$ts" "$src/tests/sim" || fails=1
exit $fails
