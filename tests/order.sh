#!/usr/bin/env bash
# The order of a plain kernel's work-groups (tests/order/): every group recorded with a start
# and an end; --order linear and reverse give different outputs for a kernel whose result
# depends on the order and the same for one whose result does not; a chain of spin waits
# between groups ends under --order reverse with a forward-progress finding, exit 1, in
# seconds; --adversary changes the order-dependent result in nearly every run; bad orders
# are refused with one line, exit 2.
# usage: order.sh TILESCOPE SOURCE_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # python3 itself (lib.sh)
ts=$1 src=$2
dir=$src/tests/order
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
check() { # check WHAT COMMAND...: passes when COMMAND succeeds
  local what=$1
  shift
  if "$@"; then passes=$((passes + 1)); else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
cd "$dir" || exit 1

# the records: every work-group once, started and ended, by ticket, on one clock
"$ts" run --sim last_group.sim --order reverse --json >"$tmp/rec.json" 2>/dev/null
check "records: every group started and ended, in the order's tickets" python3 - "$tmp/rec.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["passes"][0]
recs = p["records"]
assert len(recs) == p["groups"] == 16, len(recs)
assert sorted(r["group"][0] for r in recs) == list(range(16))
assert all(r["start"] < r["end"] <= p["ticks"] for r in recs)
# reversed, one at a time: group 15 first, each ends before the next starts
assert [r["group"][0] for r in recs] == list(range(15, -1, -1)), [r["group"] for r in recs]
assert all(a["end"] < b["start"] for a, b in zip(recs, recs[1:]))
assert p["late"] == 0
PY
"$ts" run --sim last_group.sim --observe --trace "$tmp/trace.json" >/dev/null 2>&1
check "--trace: a slice a group" python3 -c "
import json,sys; e=json.load(open('$tmp/trace.json'))['traceEvents']
assert sum(1 for x in e if x['ph']=='X')==16, e[:3]"

# an order-dependent result differs between orders; an order-free one does not
dump() { "$ts" run --sim "$1" --order "$2" 2>/dev/null | grep -E '^  [a-z]+\[' ; }
check "last_group: linear keeps 15" test "$(dump last_group.sim linear)" = "  last[0] = 15"
check "last_group: reverse keeps 0" test "$(dump last_group.sim reverse)" = "  last[0] = 0"
lin=$(dump copy.sim linear) rev=$(dump copy.sim reverse)
check "copy: the same under both orders" test -n "$lin" -a "$lin" = "$rev"
check "--order FILE: the list's last group keeps its id" \
  test "$(dump last_group.sim "$dir/some.order")" = "  last[0] = 9"
check "--resident 4: reverse, four at a time, still ends" \
  bash -c "'$ts' run --sim last_group.sim --order reverse --resident 4 >/dev/null 2>&1; test \$? -eq 1"

# a relay of spin waits: in order it completes; reversed it can never, and says so
out=$("$ts" run --sim chain.sim --order linear 2>&1)
check "chain, linear: the totals ($out)" grep -q "total\[7\] = 36" <<<"$out"
start=$(date +%s)
out=$("$ts" run --sim chain.sim --order reverse 2>&1)
rc=$?
took=$(($(date +%s) - start))
check "chain, reverse: exit 1 ($rc)" test $rc -eq 1
check "chain, reverse: a forward-progress finding ($out)" \
  grep -q "^chain.cl:9: forward progress in chain: work-group (7,0,0) item (0,0,0) atomic on .*flags\[6\]" <<<"$out"
check "chain, reverse: in seconds ($took s)" test "$took" -lt 60

# the shipped single-pass integral: its tiles from tickets, so it completes in any order, its
# sums the two-pass integral's bit for bit, observed clean
plain=$src/assets/kernels/plain
"$ts" run --kernel-file "$plain/integral_scan.cl" --raw "$tmp/scan.npy" >/dev/null 2>&1
out=$("$ts" run --kernel-file "$plain/integral_lookback.cl" --observe --raw "$tmp/lb.npy" 2>&1)
check "integral_lookback, the device's order: clean ($out)" grep -q "^observed: no finding" <<<"$out"
check "  its sums are the two-pass integral's" cmp -s "$tmp/scan.npy" "$tmp/lb.npy"
"$ts" run --kernel-file "$plain/integral_lookback.cl" --order reverse --raw "$tmp/lbr.npy" >/dev/null 2>&1
check "  and so reversed, one group at a time" cmp -s "$tmp/scan.npy" "$tmp/lbr.npy"

# the adversary: a new order each run, none keeping a group in its place
changed=0
for i in $(seq 20); do
  v=$("$ts" run --sim last_group.sim --adversary 2>/dev/null | grep -E '^  last\[0\]')
  [[ $v != "  last[0] = 15" ]] && changed=$((changed + 1))
done
check "--adversary changed the result in $changed of 20 runs" test $changed -ge 18

# bad orders: one line naming the option and the fault, exit 2
bad() { # bad REGEX ARGS...
  local re=$1
  shift
  local out rc
  out=$("$ts" run "$@" 2>&1 >/dev/null)
  rc=$?
  if [[ $rc -eq 2 && $(wc -l <<<"$out") -eq 1 ]] && grep -Eq -- "$re" <<<"$out"; then
    passes=$((passes + 1))
  else
    echo "FAIL: run $* -> exit $rc, stderr: $out (wanted /$re/)"
    fails=$((fails + 1))
  fi
}
printf '0\n1\n2\n' >"$tmp/short.order"
printf '0\n1\n1\n' >"$tmp/twice.order"
printf '0\n99\n' >"$tmp/range.order"
printf '0\nseven\n' >"$tmp/word.order"
bad "--order '.*short.order': 3 of pass 1's 16 work-groups, work-group 3 \(3,0,0\) missing" \
  --sim last_group.sim --order "$tmp/short.order"
bad "--order '.*twice.order': line 3: work-group 1 comes twice" --sim last_group.sim --order "$tmp/twice.order"
bad "--order '.*range.order': line 2: work-group 99 is outside pass 1's 16" --sim last_group.sim --order "$tmp/range.order"
bad "--order '.*word.order': line 2: not a work-group" --sim last_group.sim --order "$tmp/word.order"
bad "--order 'sideways': device, linear, reverse, random:SEED .* or a file of work-groups" \
  --sim last_group.sim --order sideways
bad "--resident '0': work-groups at once, 1 to 65536" --sim last_group.sim --order reverse --resident 0
bad "--resident 17: more than pass 1's 16 work-groups" --sim last_group.sim --order reverse --resident 17
bad "--resident 2: goes with --order" --sim last_group.sim --resident 2
bad "--adversary: chooses an order of its own" --sim last_group.sim --adversary --order reverse
bad "unknown option '--order'" --variant box2d --order reverse

echo "order: $passes passed, $fails failed"
[[ $fails -eq 0 ]]
