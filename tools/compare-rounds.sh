# The rounds of tools/compare-halide.sh and tools/compare-opencv.sh (sourced by both): ROUNDS
# rounds of the rival's command, then `tilescope bench --json`, each round's JSON kept in a
# temporary folder, then the report (compare-report.py). Round 1 benches every variant, the
# later ones only each filter's two fastest of round 1 (the report takes the better of them)
# and, for Halide, only each filter's best schedule of round 1.
# usage: compare_rounds opencv|halide RIVAL_COMMAND... (with build, size, channels, repeats
# and rounds set)
compare_rounds() {
  local kind=$1 here i
  shift
  here=$(dirname "${BASH_SOURCE[0]}")
  tmp=$(mktemp -d) # global: the trap runs after the function has returned
  trap 'rm -rf "$tmp"' EXIT
  local only=() rival_only=()
  for ((i = 1; i <= rounds; i++)); do
    "$@" "${rival_only[@]}" >"$tmp/rival.$i.json"
    "$build/tilescope" bench --size "$size" --channels "$channels" --repeats "$repeats" --json \
      "${only[@]}" >"$tmp/ts.$i.json"
    if ((i == 1)); then
      only=(--variants "$(python3 "$here/compare-report.py" fastest "$kind" "$tmp/ts.1.json")")
      if [[ $kind == halide ]]; then
        rival_only=("$(python3 "$here/compare-report.py" rival-fastest "$tmp/rival.1.json")")
      fi
    fi
  done
  python3 "$here/compare-report.py" "$kind" "$tmp"
}
