#!/usr/bin/env bash
# The installed tilescope, as issue 46's done-when check has it: `cmake --install` of the build
# into a prefix, the prefix then moved (nothing may point back into the build), and run from
# another folder with no TILESCOPE_* variable and the source-tree fallback off
# (TILESCOPE_NO_SOURCE_TREE=1; the binary alone, without its share/, must then find nothing):
# a shot; an installed example kernel observed with --sarif (SARIF 2.1.0, checked against the
# schema: a rule, message, level, .cl file and line for each result), and its JSON findings'
# kinds in words; the man page (man --warnings silent, every command named, the same as
# `tilescope --man` makes now); the bash completion (tilescope r -> run, and option values);
# the .deb (cpack -G DEB): the binary, man page, completion and kernels, Depends on SDL2,
# libpng, an OpenCL loader and libclang, and the binary unpacked from it runs.
# Exit 0 passed, 1 failed, 77 something could not be checked here (no OpenCL device, no OpenGL,
# no man, python3-jsonschema, cpack or dpkg-deb); in CI (CI=true) that is a failure.
# usage: install.sh BUILD_DIR SOURCE_DIR CMAKE CPACK VIEWER(ON|OFF)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # python3 itself (lib.sh)
[[ $# -eq 5 ]] || { echo "usage: install.sh BUILD_DIR SOURCE_DIR CMAKE CPACK VIEWER" >&2; exit 2; }
build=$(realpath "$1") src=$(realpath "$2") cmake=$3 cpack=$4 viewer=$5
schema=$src/tests/sarif/sarif-schema-2.1.0.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0 skipped=""
check() { # check NAME CONDITION-COMMAND...
  local name=$1
  shift
  if "$@"; then passes=$((passes + 1)); else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
skip() { # skip WHAT: a failure in CI
  if [[ ${CI:-} == true ]]; then echo "FAIL: $1 in CI"; fails=$((fails + 1)); else skipped="$skipped; $1"; fi
}

"$cmake" --install "$build" --prefix "$tmp/first" >"$tmp/log" 2>&1
rc=$?
check "cmake --install: exit 0 ($rc: $(tail -2 "$tmp/log"))" test $rc -eq 0
mkdir -p "$tmp/moved" "$tmp/work" "$tmp/home" "$tmp/lonely/bin"
mv "$tmp/first" "$tmp/moved/usr"
prefix=$tmp/moved/usr
bin=$prefix/bin/tilescope share=$prefix/share/tilescope
for f in bin/tilescope share/tilescope/kernels/common.cl share/tilescope/kernels/plain/observe.cl \
         share/tilescope/shaders/image.frag share/tilescope/assets/chart.png \
         share/tilescope/assets/kernels/plain/broken_halo.cl share/tilescope/assets/lessons/README.md \
         share/tilescope/docs/kernel-authors.md share/man/man1/tilescope.1 \
         share/bash-completion/completions/tilescope; do
  check "installed: $f" test -e "$prefix/$f"
done

# From here on: no variable of ours, no user kernels, no source tree, another folder.
for v in $(env | sed -n 's/^\(TILESCOPE_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
unset XDG_CONFIG_HOME DISPLAY WAYLAND_DISPLAY
export HOME=$tmp/home TILESCOPE_NO_SOURCE_TREE=1 SDL_VIDEODRIVER=offscreen
cd "$tmp/work" || exit 1

"$bin" --version >"$tmp/out" 2>&1
check "--version: $(cat "$tmp/out")" grep -q '^tilescope [0-9]' "$tmp/out"
"$bin" run --backend cpu -o run.png >"$tmp/out" 2>&1
rc=$?
check "run: exit 0 ($rc), on the installed chart ($(head -1 "$tmp/out"))" bash -c "[[ $rc -eq 0 ]] && head -1 '$tmp/out' | grep -q ' on $prefix/bin/../share/tilescope/assets/chart.png ' && test -s run.png"
# the same binary without its share/: nothing to fall back to
cp "$bin" "$tmp/lonely/bin/"
"$tmp/lonely/bin/tilescope" run --backend cpu >"$tmp/out" 2>&1
rc=$?
check "the binary alone: exit 2 ($rc), chart.png not found ($(cat "$tmp/out"))" bash -c "[[ $rc -eq 2 ]] && grep -q 'chart.png was not found' '$tmp/out'"

if [[ $viewer == ON ]]; then
  "$bin" shot --backend cpu --size 800x500 -o shot.png >"$tmp/out" 2>&1
  rc=$?
  if [[ $rc -ne 0 ]] && grep -q "cannot open an OpenGL\|cannot start SDL" "$tmp/out"; then
    skip "no OpenGL: shot"
  else
    check "shot: exit 0 ($rc: $(cat "$tmp/out")), a PNG" bash -c "[[ $rc -eq 0 ]] && head -c 8 shot.png | od -An -c | grep -q 'P   N   G'"
  fi
fi

have_schema=1
python3 -c 'import jsonschema' 2>/dev/null || { have_schema=0; skip "no python3-jsonschema: the SARIF schema"; }
if "$bin" list 2>/dev/null | grep -A1 '^OpenCL devices:' | grep -q '^  none:'; then
  skip "no OpenCL device: observing the installed examples"
else
  "$bin" run --observe --kernel-file "$share/assets/kernels/plain/broken_halo.cl" --sarif out.sarif >"$tmp/out" 2>&1
  rc=$?
  check "run --observe --sarif of an installed plain example: exit 1 ($rc: $(tail -1 "$tmp/out"))" bash -c "[[ $rc -eq 1 ]] && test -s out.sarif"
  [[ $have_schema == 1 ]] &&
    check "  its SARIF: 2.1.0, schema-valid, each result a rule, level, message, .cl file and line" \
      python3 "$src/tests/sarif_check.py" "$schema" out.sarif --cl --results + --levels error
  check "  its rules' help: the installed guide" grep -q "\"helpUri\": \"file://$share/docs/kernel-authors.md#what-observation-finds\"" out.sarif
  "$bin" run --observe --kernel-file "$share/assets/kernels/box_short_halo.cl" --sarif out2.sarif >"$tmp/out" 2>&1
  rc=$?
  check "run --observe --sarif of an installed dialect example: exit 1 ($rc)" test $rc -eq 1
  [[ $have_schema == 1 ]] &&
    check "  its SARIF: valid, at the .cl file's lines" \
      python3 "$src/tests/sarif_check.py" "$schema" out2.sarif --cl --results + --levels error
  "$bin" run --observe --json --kernel-file "$share/assets/kernels/plain/broken_nobarrier.cl" >out.json 2>/dev/null
  check "run --json: the findings' kinds are words" python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
sys.exit(0 if f and all(isinstance(x["kind"], str) and x["kind"].isidentifier() and
         isinstance(x["kind_id"], int) for x in f) else 1)' out.json
fi

# the man page: no warning, every command, what the program makes now
man1=$prefix/share/man/man1/tilescope.1
if command -v man >/dev/null 2>&1; then
  warnings=$(MANWIDTH=80 man --warnings -E UTF-8 -l "$man1" 2>&1 >/dev/null)
  check "man --warnings: silent (${warnings:0:300})" test -z "$warnings"
  MANWIDTH=80 man -E UTF-8 -l "$man1" >"$tmp/man.txt" 2>/dev/null
  cmds=$("$bin" --help | sed -n '/^commands:/,/^[^ ]/s/^  \([a-z]*\) .*/\1/p')
  check "--help lists the commands ($(echo $cmds))" test "$(echo "$cmds" | wc -w)" -ge 8
  for c in $cmds; do
    [[ $viewer == OFF && ($c == view || $c == shot) ]] && continue
    check "the man page has a section for $c" grep -qx "   $c" "$tmp/man.txt"
  done
  for s in "EXIT STATUS" ENVIRONMENT FILES; do
    check "the man page has $s" grep -qx "$s" "$tmp/man.txt"
  done
  check "the man page: --sarif and the plain kernel's run" bash -c "grep -q -- '--sarif OUT.sarif' '$tmp/man.txt' && grep -q 'run with a plain kernel' '$tmp/man.txt'"
else
  skip "no man: the man page's warnings"
fi
"$bin" --man "$tmp/now.1"
check "the installed man page is what tilescope --man makes" cmp -s "$man1" "$tmp/now.1"

# the completion: the function the script registers, called as bash calls it
comp=$prefix/share/bash-completion/completions/tilescope
complete_words() { # complete_words WORD...: what the last word completes to, one line
  PATH="$prefix/bin:$PATH" bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tilescope; echo "${COMPREPLY[*]}"' _ "$comp" "$@"
}
check "completion: tilescope r -> run ($(complete_words tilescope r))" test "$(complete_words tilescope r)" = run
check "completion: run --pat -> --pattern" test "$(complete_words tilescope run --pat)" = --pattern
check "completion: run --variant box2 -> box2d" test "$(complete_words tilescope run --variant box2)" = box2d
check "completion: run --walk wavefront26z -> its walks" test "$(complete_words tilescope run --walk wavefront26z | tr ' ' '\n' | sort | xargs)" = "wavefront26z wavefront26zi wavefront26zig"
check "completion: run --backend= c -> cl cpu" test "$(complete_words tilescope run --backend = c)" = "cl cpu"
check "completion: a plain kernel's run --iso -> --isolate" test "$(complete_words tilescope run --kernel-file "$share/assets/kernels/plain/conv2d.cl" --iso)" = --isolate
check "completion: -o takes a file (none offered)" test -z "$(complete_words tilescope run -o '')"
[[ $viewer == ON ]] &&
  check "completion: shot --overlay obs -> observed" test "$(complete_words tilescope shot --overlay obs)" = observed

# the Debian package
if command -v dpkg-deb >/dev/null 2>&1 && command -v "$cpack" >/dev/null 2>&1; then
  (cd "$build" && "$cpack" -G DEB -B "$tmp/pkg") >"$tmp/log" 2>&1
  rc=$?
  deb=$(ls "$tmp"/pkg/tilescope_*.deb 2>/dev/null | head -1)
  check "cpack -G DEB: exit 0 ($rc: $(tail -2 "$tmp/log")), a tilescope_*.deb" bash -c "[[ $rc -eq 0 && -n '$deb' ]]"
  if [[ -n $deb ]]; then
    dpkg-deb -c "$deb" | awk '{print $NF}' >"$tmp/files"
    for f in ./usr/bin/tilescope ./usr/share/man/man1/tilescope.1 ./usr/share/tilescope/kernels/common.cl \
             ./usr/share/tilescope/assets/chart.png ./usr/share/bash-completion/completions/tilescope; do
      check "the .deb holds $f" grep -qx "$f" "$tmp/files"
    done
    depends=$(dpkg-deb -f "$deb" Depends)
    check "Depends names libpng ($depends)" grep -q 'libpng16-16' <<<"$depends"
    check "Depends names an OpenCL loader" grep -q 'ocl-icd-libopencl1' <<<"$depends"
    check "Depends names libclang" grep -q 'libclang1-15' <<<"$depends"
    [[ $viewer == ON ]] && check "Depends names SDL2" grep -q 'libsdl2-2.0-0' <<<"$depends"
    check "Recommends pocl" grep -q 'pocl-opencl-icd' <<<"$(dpkg-deb -f "$deb" Recommends)"
    dpkg-deb -x "$deb" "$tmp/root"
    "$tmp/root/usr/bin/tilescope" run --backend cpu >"$tmp/out" 2>&1
    rc=$?
    check "the packaged binary runs on its own data ($rc: $(head -1 "$tmp/out"))" bash -c "[[ $rc -eq 0 ]] && head -1 '$tmp/out' | grep -q ' on $tmp/root/usr/bin/../share/tilescope/assets/chart.png '"
  fi
else
  skip "no cpack or dpkg-deb: the .deb"
fi

echo "install: $passes passed, $fails failed${skipped:+ (skipped${skipped})}"
[[ $fails -gt 0 ]] && exit 1
[[ -n $skipped ]] && exit 77
exit 0
