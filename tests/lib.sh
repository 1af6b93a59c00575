# shellcheck shell=bash
# What the test scripts share, sourced first: . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#
# python3 itself, not a version manager's shim in front of it (pyenv's costs most of a second a
# call, and the checks call it often); exported, for the checks run through bash -c too.
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
[[ -n $py ]] && eval "python3() { $(printf %q "$py") \"\$@\"; }" && export -f python3

# window_setup TILESCOPE: for a test of the window, headless: $tmp (removed at exit), SDL's
# offscreen driver, the counts and check(); exit 77 where no OpenGL context can be made (a
# failure in CI, where the offscreen driver is installed).
window_setup() {
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  unset DISPLAY WAYLAND_DISPLAY
  export SDL_VIDEODRIVER=offscreen
  fails=0 passes=0
  if ! "$1" shot -o "$tmp/probe.png" --backend cpu --size 640x400 >"$tmp/log" 2>&1; then
    if grep -q "cannot open an OpenGL\|cannot start SDL" "$tmp/log"; then
      if [[ ${CI:-} == true ]]; then echo "FAIL: no GL in CI: $(cat "$tmp/log")"; exit 1; fi
      echo "skipped: no OpenGL here"; exit 77
    fi
  fi
}

# check NAME CONDITION-COMMAND...: counts a pass, or says FAIL: NAME.
check() {
  local name=$1
  shift
  if "$@"; then passes=$((passes + 1)); else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
