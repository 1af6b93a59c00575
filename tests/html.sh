#!/usr/bin/env bash
# The exported page (tilescope export --html) in a real browser: Debian's chromium, headless,
# reading what the page shows from its DOM (as --dump-dom; the fragment's test=1 makes the page
# write a summary into #ts-test: the tick, the pass, each tile's state, a hash of the output's
# exact values, the inspector's text; a block per `snap` action or per tick of ticks=...) and
# taking screenshots. Checks:
#  - at several ticks the page's tile states and output are the native run's: the states that
#    `tilescope run --schedule` gives for the tick, the bytes of `run --tick T --raw`; and the
#    states that a native `tilescope shot --tick T` draws, read from its pixels (a black input,
#    so that each state's colour is known);
#  - hover (the inspector: thread, dispatch, ticks, wait set, the producers read too early),
#    steps, keys and the buttons, played through the page's own handlers (#do=...);
#  - the device's view of a record: the groups' states at device times;
#  - the page fetches nothing: no address in the file, a Content-Security-Policy of
#    default-src 'none', no policy violation or resource in the page, and no request of the
#    page in chromium's net log (a page that does fetch shows there: the check is proven);
#  - the default chart's integral wavefront page is at most 5 MB; a demo's page holds its runs;
#    bad options are one line and exit 2, and leave no file;
#  - a plain kernel's page (export --kernel-file, --sim): its work-groups' states at ticks of
#    the launch's clock are those of `run --observe --json`'s records in the same order, its
#    output at the end is `run --raw`'s (a transposed one too, in its own shape), #tick=5 and
#    a press on the timeline show other tiles, output and timeline than the end, hover names
#    the group's record, its findings are the run's, a pass selector; a kernel that does not
#    build or crashes is one line, exit 2 or 1, and no file;
#  - a variant's split view (--split pattern=...): each half the native run of its settings at
#    the slider's tick clamped to its run, both halves drawn, hover naming both runs' thread,
#    the layout at 1024x768; a bad SPEC (device among them) is one line naming --split, exit 2;
#  - a plain kernel's split view (--split order=ORDER): each half the native observed run in its order
#    (states at ticks, the output), both drawn, the outputs' difference counted as the native
#    outputs differ (and none for a kernel without a race); a race's finding clicked marks its
#    two source lines, outlines both groups, words both running intervals; a source line
#    clicked outlines the groups its findings name; the layout at 1024x768, 1280x720 and
#    1920x1080 (titles apart, the status line whole, the source pane inside the panel).
# The pages open one after another in one chromium (html_browser.py), each in a new window
# with the room a chromium started for it alone would give it; only the net log's pages start
# a chromium of their own.
# Skips (77) without chromium, except in CI, where that fails.
# usage: html.sh TILESCOPE SOURCE_DIR [SHOTS_DIR]   (SHOTS_DIR: where to leave screenshots)
set -u
ts=$(realpath "$1") src=$(realpath "$2") shots=${3:-}
browser=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [[ -z $browser ]]; then
  if [[ ${CI:-} == true ]]; then echo "FAIL: chromium is not installed (.ci/deps installs it)"; exit 1; fi
  echo "skipped: no chromium here (apt-get install chromium)"
  exit 77
fi
# The interpreter itself, not a version manager's shim: the helper runs often.
py=$(python3 -c 'import sys; print(sys.executable)')
check=("$py" "$src/tests/html_check.py")
tmp=$(mktemp -d)
# (the browser first, which goes when its requests end; then its profile)
trap 'eval "exec ${BROWSER[1]:-9}>&-"; [[ -n ${BROWSER_PID:-} ]] && wait "$BROWSER_PID"; rm -rf "$tmp"' \
  EXIT
cd "$tmp" || exit 1
fails=0 passes=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { passes=$((passes + 1)); }
# Nothing leaves the machine, the page's requests or the browser's own.
window=1600,900
flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --disable-extensions --hide-scrollbars
       --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$tmp/profile" --window-size="$window")
# The one browser, for every page below but the net log's: it answers each request with a line.
coproc BROWSER { exec "$py" "$src/tests/html_browser.py" "$browser" "${flags[@]}" 2>"$tmp/browser.log"; }
# browse dump|shot|pdf PAGE FRAGMENT OUT: file://PAGE#FRAGMENT loaded in a window of $window
# (DUMP_SIZE=W,H: of that size), and its DOM's summary (#ts-test), a screenshot or its print to
# PDF into OUT; why not in $why. (The helper gives each page 150 s, as each chromium had.)
browse() {
  local ok=
  why="no answer from the browser (html_browser.py): $(tail -3 "$tmp/browser.log")"
  [[ -n ${BROWSER_PID:-} ]] || return 1
  printf '%s\t%s\t%s\t%s\n' "$1" "file://$2${3:+#$3}" "${DUMP_SIZE:-$window}" "$4" \
    >&"${BROWSER[1]}" || return 1
  if ! IFS=$'\t' read -r -t 600 ok why <&"${BROWSER[0]}"; then
    kill "$BROWSER_PID" 2>/dev/null # (its chromium goes with its pipe): later pages fail at once
    return 1
  fi
  [[ $ok == ok ]]
}
declare -A F # the summary of the last page dumped: F[BLOCK.FIELD]
# dump PAGE FRAGMENT: the page's summary, once it has drawn, into F (DUMP_SIZE=W,H: in a window
# of that size).
dump() {
  F=()
  if ! browse dump "$1" "$2" "$tmp/dom.html"; then
    fail "chromium on $(basename "$1")#$2: $why"
    return 1
  fi
  local i k v
  while IFS=$'\t' read -r i k v; do F[$i.$k]=$v; done < <("${check[@]}" fields "$tmp/dom.html")
  if [[ ${F[0.ready]+set} != set ]]; then
    fail "$(basename "$1")#$2: the page did not get ready: ${F[0.error]:-no summary}"
    return 1
  fi
}
same() { # same WHAT GOT WANT
  if [[ "$2" == "$3" ]]; then pass; else fail "$1: the page says '${2:0:200}', native '${3:0:200}'"; fi
}
has() { # has WHAT TEXT NEEDLE
  if [[ "$2" == *"$3"* ]]; then pass; else fail "$1: '$3' is not in '${2:0:300}'"; fi
}
export_page() { # export_page OUT ARGS...
  local out=$1
  shift
  if ! "$ts" export --html "$out" "$@" >"$tmp/export.log" 2>&1; then
    fail "export $*: $(cat "$tmp/export.log")"
    return 1
  fi
}
declare -A W # what the native run says: W[TICK.pass], W[TICK.states], W[TICK.out]
# The native runs made so far, each made once (a run's schedule and outputs are the same every
# time): NATIVE[RUN_ARGS] the folder of its schedule s.csv and its outputs o-TICK.npy.
declare -A NATIVE=()
# native TICKS RUN_ARGS...: the schedule's states and the exact output at each tick into W.
native() {
  local ticks=$1 t
  shift
  W=()
  local d=${NATIVE[$*]:-}
  if [[ -z $d ]]; then
    d=$tmp/native-${#NATIVE[@]}
    mkdir -p "$d"
    "$ts" run "$@" --schedule "$d/s.csv" >/dev/null 2>&1 || { fail "run $* --schedule"; return 1; }
    NATIVE[$*]=$d
  fi
  local npys=()
  for t in $ticks; do
    [[ -s $d/o-$t.npy ]] ||
      "$ts" run "$@" --tick "$t" --raw "$d/o-$t.npy" >/dev/null 2>&1 || fail "run $* --tick $t --raw"
    npys+=("$d/o-$t.npy")
  done
  local p s f h
  # shellcheck disable=SC2086
  while read -r t p s; do W[$t.pass]=$p W[$t.states]=$s; done < <("${check[@]}" sim-states "$d/s.csv" $ticks)
  while read -r f h; do t=${f##*/o-}; W[${t%.npy}.out]=$h; done < <("${check[@]}" npy-hash "${npys[@]}")
}
# ticks_match NAME PAGE TICKS RUN_ARGS...: at each tick (one page load, ticks=...), the page's
# pass, states and output are the native run's.
ticks_match() {
  local name=$1 page=$2 ticks=$3 i=0 t
  shift 3
  native "${ticks//,/ }" "$@" || return
  dump "$page" "test=1&ticks=$ticks" || return
  for t in ${ticks//,/ }; do
    same "$name tick $t: tick" "${F[$i.tick]}" "$t"
    same "$name tick $t: pass" "${F[$i.pass]}" "${W[$t.pass]}"
    same "$name tick $t: tile states" "${F[$i.states]}" "${W[$t.states]}"
    same "$name tick $t: output" "${F[$i.out]}" "${W[$t.out]}"
    i=$((i + 1))
  done
}

# ---- the default chart's integral image under its wavefront: size, ticks, output ----
int=$tmp/integral.html
if export_page "$int" --variant integral; then
  size=$(stat -c %s "$int")
  echo "the default chart's integral wavefront page: $size bytes"
  ((size <= 5000000)) && pass || fail "the integral wavefront page is $size bytes, over 5 MB"
  "$ts" run --variant integral --backend cpu --schedule "$tmp/int.csv" >/dev/null
  # Ticks opened by the fragment, as a reader's link does, then a sweep to the end.
  native "0 37" --variant integral --backend cpu
  for t in 0 37; do
    dump "$int" "tick=$t&test=1" || continue
    same "integral #tick=$t: tick" "${F[0.tick]}" "$t"
    same "integral #tick=$t: tile states" "${F[0.states]}" "${W[$t.states]}"
    same "integral #tick=$t: output" "${F[0.out]}" "${W[$t.out]}"
  done
  ticks_match integral "$int" 1,10,30,50,68,69 --variant integral --backend cpu
fi

# ---- other variants: two passes (the second transposed), a Gaussian of RGB, a dropped dependency ----
for spec in "transpose2pass:0,3,8,9,12,16" "gauss_local_sep --kernel-size 7:0,2,5,8" \
            "integral --walk vertical --slots 40:0,7,30,45"; do
  read -r -a args <<<"--variant ${spec%%:*}"
  export_page "$tmp/v.html" "${args[@]}" --backend cpu || continue
  ticks_match "${spec%%:*}" "$tmp/v.html" "${spec#*:}" "${args[@]}" --backend cpu
done

# ---- the native shot's tile states, read from its pixels ----
# A black input: its integral image is black, so each tile shows its state's colour alone.
"${check[@]}" black "$tmp/black.png" 160 96
if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then export SDL_VIDEODRIVER=offscreen; fi
# Under AddressSanitizer: Mesa's driver, unloaded at exit, leaks what no suppression names
# (golden.sh says more); leaks stay checked in the exports and runs.
shot() {
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 "$ts" shot \
    --size 1280x720 --zoom 2 --center 80,48 -i "$tmp/black.png" --variant integral --slots 8 \
    --backend cpu "$@" >"$tmp/shot.log" 2>&1
}
if ! shot -o "$tmp/done.png" --pattern wavefront; then
  if grep -q "unknown command\|no viewer" "$tmp/shot.log"; then
    echo "skipped the shots: this build has no viewer"
  elif [[ ${CI:-} == true ]]; then
    fail "shot: $(cat "$tmp/shot.log")"
  else
    echo "skipped the shots: $(head -1 "$tmp/shot.log")"
  fi
else
  for pattern in wavefront none; do
    export_page "$tmp/b.html" -i "$tmp/black.png" --variant integral --pattern "$pattern" --slots 8 \
      --backend cpu || continue
    ticks=(0 1 2 4 7 11 14)
    pngs=()
    for t in "${ticks[@]}"; do
      shot -o "$tmp/s-$t.png" --pattern "$pattern" --tick "$t" || fail "shot --tick $t: $(cat "$tmp/shot.log")"
      pngs+=("$tmp/s-$t.png")
    done
    declare -A SH=()
    while read -r f s; do t=${f##*/s-}; SH[${t%.png}]=$s; done < \
      <("${check[@]}" shot-states "$tmp/done.png" 160 96 16 10 6 "${pngs[@]}")
    dump "$tmp/b.html" "test=1&ticks=$(IFS=,; echo "${ticks[*]}")" || continue
    for i in "${!ticks[@]}"; do
      t=${ticks[$i]}
      same "shot $pattern --tick $t: tile states" "${F[$i.states]}" "${SH[$t]:-}"
    done
  done
fi

# ---- hover, the inspector, steps, keys and buttons ----
if [[ -f $int ]]; then
  IFS=, read -r _ _ _ disp _ dt st et _ _ <<<"$(grep '^1,18,12,' "$tmp/int.csv")"
  # hover=X,Y; then the mouse itself through the page's handler; then a click selects.
  if dump "$int" "tick=30&hover=300,200&test=1&do=snap;leave;hover:300,200;snap;select:300,200;leave;key:o"; then
    insp=${F[0.inspector]}
    same "hover: the focused thread" "${F[0.focus]}" 18,12
    has "hover: inspector" "$insp" "pixel (300,200)"
    has "hover: inspector" "$insp" "thread (18,12) of pass 1"
    has "hover: inspector" "$insp" "dispatch #$disp,"
    has "hover: inspector" "$insp" "ticks: dispatched $dt, started $st, ends $et"
    has "hover: inspector" "$insp" "waits for: (17,12) (17,11) (18,11)"
    has "hover: inspector" "$insp" "state at tick 30: running"
    same "a mouse move: the focused thread" "${F[1.focus]}" 18,12
    same "a click selects: the focused thread" "${F[2.focus]}" 18,12
    has "a click selects: inspector" "${F[2.inspector]}" "[selected]"
    same "key o: the overlay" "${F[2.overlay]}" order
  fi
  # From tick 30, a snapshot after each group of actions: ACTIONS|TICK|PLAYING.
  steps=("key:right;key:right;click:step-back;key:shift+right|41|0" "click:step-fwd;click:step-fwd;key:left|42|0"
         "key:end|69|0" "click:first|0|0" "click:last;key:shift+left;key:shift+left|49|0" "key:space|49|1"
         "click:play|49|0" "key:home;key:right|1|0")
  acts="" want=""
  for s in "${steps[@]}"; do
    IFS='|' read -r a t _ <<<"$s"
    acts+="${acts:+;}$a;snap" want+=" $t"
  done
  native "$want" --variant integral --backend cpu
  if dump "$int" "tick=30&test=1&do=$acts"; then
    for i in "${!steps[@]}"; do
      IFS='|' read -r a t playing <<<"${steps[$i]}"
      same "$a: tick" "${F[$i.tick]}" "$t"
      same "$a: tile states" "${F[$i.states]}" "${W[$t.states]}"
      same "$a: playing" "${F[$i.playing]}" "$playing"
    done
  fi
fi
# The producers a thread read too early, as run --json names them.
none=$tmp/none.html
if export_page "$none" --variant integral --pattern none --backend cpu &&
   dump "$none" "tick=3&hover=40,8&test=1"; then
  want=$("$ts" run --variant integral --pattern none --backend cpu --json | "$py" -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join("(%d,%d)" % tuple(h["producer"]) for h in d["hazard_list"] if h["consumer"] == [2, 0]))')
  [[ -n $want ]] || fail "run --json names no hazard of thread (2,0)"
  has "hover on a hazard: inspector" "${F[0.inspector]}" "read before they finished: $want"
  has "hover on a hazard: inspector" "${F[0.inspector]}" "HAZARD"
fi

# ---- the device's view of a record (saved on an NVIDIA H200: tests/records) ----
for rec in integral_wavefront integral_none; do
  page=$tmp/dev-$rec.html
  export_page "$page" --record "$src/tests/records/$rec.json" -i "$src/tests/records/chart320.png" || continue
  pcts=(10 40 75 100)
  declare -A DV=()
  while read -r pct t s; do DV[$pct.t]=$t DV[$pct.s]=$s; done < \
    <("${check[@]}" dev-states "$src/tests/records/$rec.json" "${pcts[@]}")
  dump "$page" "view=device&test=1&devtimes=$(IFS=,; echo "${pcts[*]/%/%25}")" || continue
  for i in "${!pcts[@]}"; do
    pct=${pcts[$i]}
    same "$rec device at $pct%: view" "${F[$i.view]}" device
    same "$rec device at $pct%: device time" "${F[$i.devtime]}" "${DV[$pct.t]}"
    same "$rec device at $pct%: group states" "${F[$i.states]}" "${DV[$pct.s]}"
  done
done
# The device's inspector, and d back to the simulated schedule of the same run.
page=$tmp/dev-integral_none.html
if [[ -f $page ]] && dump "$page" "view=device&devtime=40%25&hover=120,72&test=1&do=snap;key:d"; then
  has "device hover: inspector" "${F[0.inspector]}" "device: ticket #"
  has "device hover: inspector" "${F[0.inspector]}" "simulated: dispatch #"
  same "key d: the view" "${F[1.view]}" sim
fi

# A device run made now (--exec device, OpenCL): its own output and record.
if "$ts" list 2>/dev/null | grep -q "^  0: "; then
  if export_page "$tmp/exec.html" --variant integral --pattern none --exec device &&
     dump "$tmp/exec.html" "test=1&do=snap;key:end;key:d"; then
    same "--exec device: the view it opens in" "${F[0.view]}" device
    n=0 # done, right or wrong (a race may make a tile wrong on any run)
    IFS=, read -r -a parts <<<"${F[0.counts]}"
    for c in "${parts[@]}"; do [[ $c == [dx]:* ]] && n=$((n + ${c#*:})); done
    same "--exec device: every group done at the end" "$n" 1200
    same "--exec device, d: the simulated view" "${F[1.view]}" sim
  fi
elif [[ ${CI:-} == true ]]; then
  fail "no OpenCL device in CI for export --exec device"
else
  echo "skipped export --exec device: no OpenCL device"
fi

# ---- nothing is fetched ----
if [[ -f $int ]]; then
  if grep -Eaq "(https?|ftps?|wss?)://" "$int"; then
    fail "the page names an address: $(grep -Eao '(https?|ftps?|wss?)://[^"<> ]*' "$int" | head -3)"
  else pass; fi
  if grep -Eaq "<(img|link|iframe|object|embed|audio|video|source|base)[ >]| (src|href)=" "$int"; then
    fail "the page has an element that loads something"
  else pass; fi
  grep -q "Content-Security-Policy\" content=\"default-src 'none';" "$int" && pass ||
    fail "the page has no Content-Security-Policy of default-src 'none'"
  # The page at work, watched by chromium's net log: no request of a document.
  timeout 150 "$browser" "${flags[@]}" --log-net-log="$tmp/net.json" --net-log-capture-mode=Everything \
    --dump-dom "file://$int#tick=20&hover=100,100&test=1&do=key:space;key:d;key:o;click:help-btn;key:right" \
    >"$tmp/dom.html" 2>/dev/null
  F=()
  while IFS=$'\t' read -r i k v; do F[$i.$k]=$v; done < <("${check[@]}" fields "$tmp/dom.html")
  same "policy violations" "${F[0.violations]:-no summary}" 0
  same "resources loaded" "${F[0.resources]:-no summary}" 0
  reqs=$("${check[@]}" requests "$tmp/net.json")
  [[ -z $reqs ]] && pass || fail "the page asked for: $reqs"
  # The check sees a page that does fetch.
  printf '<!doctype html><img src="http://fetch.invalid/x.png"><script>fetch("https://fetch.invalid/y")</script>\n' >"$tmp/fetch.html"
  timeout 150 "$browser" "${flags[@]}" --log-net-log="$tmp/net2.json" --net-log-capture-mode=Everything \
    --dump-dom "file://$tmp/fetch.html" >/dev/null 2>&1
  [[ $("${check[@]}" requests "$tmp/net2.json") == *fetch.invalid* ]] && pass ||
    fail "the net log check does not see a page's requests"
fi

# ---- a demo's page: every run its script shows ----
if export_page "$tmp/demo.html" --script "$src/assets/demos/integral_wavefront.txt" --backend cpu; then
  has "demo: the runs" "$(cat "$tmp/export.log")" "(3 runs,"
  if dump "$tmp/demo.html" "run=1&test=1&do=snap;key:v"; then
    same "demo run 2: the run" "${F[0.run]}" 1
    same "demo run 2: its first tick in the script" "${F[0.tick]}" 0
    same "demo: v shows the third run" "${F[1.run]}" 2
  fi
fi

# ---- a plain kernel's page: the observed run's work-groups on the launch's clock ----
plain=$src/assets/kernels/plain
# plain_match NAME PAGE JSON PASS TICKS: the page's states at each tick (one load, ticks=...)
# are the records' in the run's --json; the summary of the last into F.
plain_match() {
  local name=$1 page=$2 json=$3 pass=$4 ticks=$5 i=0 t s
  declare -A PS=()
  while read -r t s; do PS[$t]=$s; done < <("${check[@]}" plain-states "$json" "$pass" ${ticks//,/ })
  dump "$page" "pass=$pass&test=1&ticks=$ticks" || return
  for t in ${ticks//,/ }; do
    [[ $t == end ]] && t=${F[$i.length]}
    same "$name pass $pass tick $t: tick" "${F[$i.tick]}" "$t"
    same "$name pass $pass tick $t: work-group states" "${F[$i.states]}" "${PS[$t]:-no records}"
    i=$((i + 1))
  done
}
conv=$tmp/conv2d.html
# In an order of tilescope's (one group at a time, by id) the records are the same each run.
if export_page "$conv" --kernel-file "$plain/conv2d.cl" --order linear; then
  has "plain export: what it says" "$(cat "$tmp/export.log")" "conv2d.cl observed: 1 pass, 1200 work-groups"
  "$ts" run --kernel-file "$plain/conv2d.cl" --observe --order linear --json >"$tmp/conv.json" 2>/dev/null
  "$ts" run --kernel-file "$plain/conv2d.cl" --raw "$tmp/conv.npy" >/dev/null 2>&1
  plain_match conv2d "$conv" "$tmp/conv.json" 1 0,1,5,600,2399,end
  if [[ ${F[5.ready]+set} == set ]]; then
    same "conv2d at the end: the output" "${F[5.out]}" "$("${check[@]}" npy-hash "$tmp/conv.npy" | cut -d' ' -f2)"
    same "conv2d at the end: every pixel shown" "${F[5.shown]}" 307200
    same "conv2d: policy violations, resources" "${F[5.violations]},${F[5.resources]}" 0,0
    has "conv2d: the header" "${F[5.launch]}" "conv2d: global 640x480, local 16x16, 1200 work-groups"
    has "conv2d: the header" "${F[5.launch]}" "the groups' order, one at a time (--order linear)"
    [[ ${F[2.out]} != "${F[5.out]}" && ${F[2.shown]} -lt ${F[5.shown]} ]] && pass ||
      fail "conv2d at tick 5: the output is the end's (${F[2.shown]} pixels shown)"
  fi
  # Opened at #tick=5, as a reader's link does; a press on the timeline near tick 600; the end.
  if dump "$conv" "tick=5&test=1&do=snap;scrub:600;snap;key:end"; then
    same "conv2d #tick=5: tick" "${F[0.tick]}" 5
    has "conv2d #tick=5: group states" "${F[0.counts]}" "p:1197"
    same "conv2d, end: tick" "${F[2.tick]}" 2400
    [[ ${F[0.panes]} != "${F[2.panes]}" && ${F[0.timeline]} != "${F[2.timeline]}" ]] && pass ||
      fail "conv2d #tick=5: the panes or the timeline draw as at the end"
    t=${F[1.tick]}
    ((t >= 595 && t <= 605)) && pass || fail "a press on the timeline at tick 600's place: tick $t"
    same "conv2d scrubbed to $t: group states" "${F[1.states]}" "$("${check[@]}" plain-states "$tmp/conv.json" 1 "$t" | cut -d' ' -f2)"
  fi
  # Hover: the group under the pixel and its record.
  read -r ticket start end <<<"$("${check[@]}" plain-record "$tmp/conv.json" 1 18,12)"
  if dump "$conv" "tick=$start&hover=300,200&test=1"; then
    same "conv2d hover: the focused group" "${F[0.focus]}" 18,12
    has "conv2d hover: inspector" "${F[0.inspector]}" "work-group (18,12), #498 of pass 1"
    has "conv2d hover: inspector" "${F[0.inspector]}" "read  x 287..304, y 191..208 (18x18 px)"
    has "conv2d hover: inspector" "${F[0.inspector]}" "wrote x 288..303, y 192..207 (16x16 px)"
    has "conv2d hover: inspector" "${F[0.inspector]}" "started $ticket of 1200"
    has "conv2d hover: inspector" "${F[0.inspector]}" "ticks $start..$end (1)"
    has "conv2d hover: inspector" "${F[0.inspector]}" "at tick $start: running"
  fi
fi
# Findings: the run's, each its line; a group a finding names.
if export_page "$tmp/nobar.html" --kernel-file "$plain/broken_nobarrier.cl" --order linear &&
   "$ts" run --kernel-file "$plain/broken_nobarrier.cl" --observe --order linear --json >"$tmp/nobar.json" 2>/dev/null;
   dump "$tmp/nobar.html" "hover=8,8&test=1"; then
  same "broken_nobarrier opens at its end" "${F[0.tick]}" "${F[0.length]}"
  first=$("$py" -c 'import json, sys; d = json.load(open(sys.argv[1])); print(len(d["findings"]), d["findings"][0]["text"])' "$tmp/nobar.json")
  same "broken_nobarrier: findings" "${F[0.findings]}" "${first%% *}"
  has "broken_nobarrier: the findings' lines" "${F[0.list]}" "${first#* }"
  has "broken_nobarrier hover: inspector" "${F[0.inspector]}" "race in a work-group on __local memory"
fi
# Two passes: a selector, each pass its own clock; the page opens at the last.
if export_page "$tmp/sep.html" --kernel-file "$plain/separable.cl" --order reverse &&
   "$ts" run --kernel-file "$plain/separable.cl" --observe --order reverse --json >"$tmp/sep.json" 2>/dev/null; then
  if dump "$tmp/sep.html" "test=1&do=snap;key:p;snap"; then
    same "separable: the passes, opening at the last, p the next" "${F[0.passes]},${F[0.pass]},${F[1.pass]}" 2,2,1
    same "separable pass 2 at its end: work-group states" "${F[0.states]}" "$("${check[@]}" plain-states "$tmp/sep.json" 2 end | cut -d' ' -f2)"
    same "separable pass 1 after p, at its end: tick" "${F[1.tick]}" "${F[1.length]}"
  fi
  plain_match separable "$tmp/sep.html" "$tmp/sep.json" 1 0,300,1800,end
fi
# An output of another shape than the input: a transpose, at its own size.
if export_page "$tmp/tr.html" --kernel-file "$src/tests/kernels/plain_transpose.cl" &&
   "$ts" run --kernel-file "$src/tests/kernels/plain_transpose.cl" --raw "$tmp/tr.npy" >/dev/null 2>&1 &&
   dump "$tmp/tr.html" "hover=100,600&test=1"; then
  same "transpose: the output" "${F[0.out]}" "$("${check[@]}" npy-hash "$tmp/tr.npy" | cut -d' ' -f2)"
  has "transpose hover below the input's height: inspector" "${F[0.inspector]}" "wrote x 96..111, y 592..607"
fi
# An Oclgrind simulator file: its dumped buffer, 8 floats, as the output; its two groups one
# after the other (--order linear: the device's order on pocl's two threads is either)
sim=$tmp/shapes.html
if export_page "$sim" --sim "$src/tests/sim/shapes.sim" --order linear && dump "$sim" "hover=5,0&test=1&ticks=0,2,end"; then
  same "shapes.sim: its clock" "${F[0.length]}" 4
  same "shapes.sim: its groups at 0, 2, the end" "${F[0.states]} ${F[1.states]} ${F[2.states]}" "pp dp dd"
  has "shapes.sim at the end: inspector" "${F[2.inspector]}" "out 264.5"
  has "shapes.sim at tick 2: inspector" "${F[1.inspector]}" "out not yet (at tick 4; then 264.5)"
  [[ ${F[0.out]} != "${F[2.out]}" ]] && pass || fail "shapes.sim: the output at tick 0 is the end's"
  same "shapes.sim: policy violations" "${F[2.violations]}" 0
fi

# ---- a plain kernel's split view (--split order=ORDER), findings placed in time, the source ----
# broken_tile.cl's groups write one column of their right neighbours' tiles: its output
# depends on the order. Both halves are the native observed runs in their orders (on the
# smaller chart: 300 groups).
split=$tmp/split.html chart320=$src/tests/records/chart320.png
lay="titles apart, status whole, source inside, tabs one row" # the layout checked below
if export_page "$split" --kernel-file "$plain/broken_tile.cl" -i "$chart320" --order linear --split order=reverse; then
  has "split export: what it says" "$(cat "$tmp/export.log")" "split: left the groups' order"
  for o in linear reverse; do # (exit 1: its findings)
    "$ts" run --kernel-file "$plain/broken_tile.cl" -i "$chart320" --observe --order $o --json \
      --raw "$tmp/bt-$o.npy" >"$tmp/bt-$o.json" 2>/dev/null
  done
  n=$("${check[@]}" npy-differ "$tmp/bt-linear.npy" "$tmp/bt-reverse.npy")
  # (each dump in a window of its own size: the layout at 1280x720, 1024x768 and 1920x1080 is
  # checked where the source tab is open)
  if DUMP_SIZE=1280,720 dump "$split" "test=1&do=click:tab-source&ticks=0,300,end"; then
    same "split: the orders" "${F[0.split]}" "the groups' order, one at a time (--order linear) | reversed order, one at a time (--order reverse)"
    same "split: the outputs differ" "${F[0.differ]}" "the outputs differ at $n elements: the result depends on the order"
    has "split: the panes' titles" "${F[1.titles]}" "left: order linear, tick 300 / 600 | right: order reverse, tick 300 / 600"
    for i in 1 2; do
      t=${F[$i.tick]}
      same "split tick $t: the left's states" "${F[$i.states]}" "$("${check[@]}" plain-states "$tmp/bt-linear.json" 1 "$t" | cut -d' ' -f2)"
      same "split tick $t: the right's states" "${F[$i.states2]}" "$("${check[@]}" plain-states "$tmp/bt-reverse.json" 1 "$t" | cut -d' ' -f2)"
    done
    same "split at the end: the left's output" "${F[2.out]}" "$("${check[@]}" npy-hash "$tmp/bt-linear.npy" | cut -d' ' -f2)"
    same "split at the end: the right's output" "${F[2.out2]}" "$("${check[@]}" npy-hash "$tmp/bt-reverse.npy" | cut -d' ' -f2)"
    # both halves drawn: each changes from tick 0 to the end
    IFS=, read -r l0 r0 <<<"${F[0.halves]}"
    IFS=, read -r l2 r2 <<<"${F[2.halves]}"
    [[ -n $l0 && $l0 != "$l2" && $r0 != "$r2" ]] && pass || fail "split: a half draws the same at tick 0 and the end (${F[0.halves]}, ${F[2.halves]})"
    same "split: policy violations, resources" "${F[2.violations]},${F[2.resources]}" 0,0
    same "split at 1280x720: layout" "${F[2.layout]}" "$lay"
  fi
  # The race's finding clicked: its two lines in the source, both groups outlined, its words
  # with both groups' running intervals; the timeline draws them.
  read -r _ s1 e1 <<<"$("${check[@]}" plain-record "$tmp/bt-linear.json" 1 1,0)"
  read -r _ s0 e0 <<<"$("${check[@]}" plain-record "$tmp/bt-linear.json" 1 0,0)"
  if DUMP_SIZE=1024,768 dump "$split" "test=1&do=snap;click:finding-0;snap;click:finding-0;click:src-line-22;snap"; then
    same "race clicked: the source pane" "${F[1.tab]}" source
    same "race clicked: its lines marked" "${F[1.marked]} ${F[1.srclit]}" "20,22 20,22"
    same "race clicked: the groups outlined" "${F[1.outlined]}" "(1,0)a (0,0)b"
    has "race clicked: placed in time" "${F[1.inspector]}" "work-group (1,0) item (0,0) wrote out[(y * W + x) * C + c], out pixel (16,0) channel 0, at line 20 while running ticks $s1-$e1;"
    has "race clicked: the other access" "${F[1.inspector]}" "work-group (0,0) wrote it too at line 22, ticks $s0-$e0"
    has "race clicked: the right's order" "${F[1.inspector]}" "in order reverse: (1,0) ticks"
    [[ ${F[0.timeline]} != "${F[1.timeline]}" && ${F[0.panes]} != "${F[1.panes]}" ]] && pass ||
      fail "race clicked: the timeline or the panes draw as before"
    has "the source's marks" "${F[0.srcmarks]}" "20:race between work-groups"
    has "the source's marks" "${F[0.srcmarks]}" "22:write outside the declared tile"
    has "the source's marks: line 22, the race's other access" "${F[0.srcmarks]}" "+other"
    same "line 22 clicked: the groups its findings name" "${F[2.marked]} ${F[2.outlined]}" "22 (0,0)l (1,0)l"
    same "split at 1024x768: layout" "${F[2.layout]}" "$lay"
  fi
fi
# A launch whose groups write only their own elements (a simulator file): the same output in
# either order.
if export_page "$tmp/split-sim.html" --sim "$src/tests/sim/shapes.sim" --order linear --split order=reverse &&
   DUMP_SIZE=1920,1080 dump "$tmp/split-sim.html" "test=1&do=click:tab-source"; then
  same "shapes.sim split: the outputs" "${F[0.differ]}" "the same output in both orders"
  same "shapes.sim split at 1920x1080: layout" "${F[0.layout]}" "$lay"
  same "shapes.sim split: the two outputs" "${F[0.out]}" "${F[0.out2]}"
  same "shapes.sim: no finding in the source" "${F[0.srcmarks]}" ""
fi

# ---- a variant's split view (--split SPEC): two schedules side by side on one slider ----
# One page load: a hover and two steps (snaps), then ticks past the left run's end. Each half
# is the native run of its settings at its own tick (the slider's, clamped to its run).
vsplit=$tmp/vsplit.html
if export_page "$vsplit" --variant integral --pattern none --split pattern=wavefront26 --backend cpu; then
  has "variant split export: what it says" "$(cat "$tmp/export.log")" "split pattern=wavefront26: left integral, pattern none"
  if DUMP_SIZE=1024,768 dump "$vsplit" "test=1&tick=6&hover=300,200&do=snap;key:right;snap;key:right;snap&ticks=0,5,50,end"; then
    has "variant split: what differs" "${F[0.split]}" "left: pattern none, 8 ticks, "
    has "variant split: what differs" "${F[0.split]}" "; right: pattern wavefront26, "
    same "variant split: the two tick counts" "${F[0.length1]} ${F[0.length]}" "8 ${F[0.length2]}"
    same "variant split: the slider steps both" "${F[0.tick1]},${F[0.tick2]} ${F[1.tick1]},${F[1.tick2]} ${F[2.tick1]},${F[2.tick2]}" "6,6 7,7 8,8"
    same "variant split: clamped to its own run" "${F[5.tick]} ${F[5.tick1]},${F[5.tick2]} ${F[6.tick1]},${F[6.tick2]}" "50 8,50 8,${F[6.length2]}"
    has "variant split: the panes' titles" "${F[0.titles]}" "left: pattern none, tick 6 / 8 | right: pattern wavefront26, tick 6 / ${F[0.length2]}"
    same "variant split: hover, both runs' thread" "${F[0.focus]} ${F[0.focus2]}" "18,12 18,12"
    has "variant split: the left's inspector" "${F[0.inspector]}" "inspector: left | pixel (300,200)"
    has "variant split: the right's inspector" "${F[0.inspector]}" "inspector: right | pixel (300,200)"
    IFS=, read -r l0 r0 <<<"${F[3.halves]}"
    IFS=, read -r l5 r5 <<<"${F[5.halves]}"
    IFS=, read -r l6 r6 <<<"${F[6.halves]}"
    [[ -n $l0 && $l0 != "$l5" && $r0 != "$r5" && $l5 == "$l6" && $r5 != "$r6" ]] && pass ||
      fail "variant split: the halves as drawn at ticks 0, 50 and the end (${F[3.halves]}, ${F[5.halves]}, ${F[6.halves]})"
    same "variant split: policy violations, resources" "${F[6.violations]},${F[6.resources]}" 0,0
    same "variant split at 1024x768: layout" "${F[6.layout]}" "titles apart, titles whole, status whole, header fits"
    native "0 5 8" --variant integral --pattern none --backend cpu
    for i in 3 4 5; do
      t=${F[$i.tick1]}
      same "variant split tick ${F[$i.tick]}: the left's states" "${F[$i.states]}" "${W[$t.states]:-}"
      same "variant split tick ${F[$i.tick]}: the left's output" "${F[$i.out]}" "${W[$t.out]:-}"
    done
    native "0 5 50 ${F[6.tick2]}" --variant integral --pattern wavefront26 --backend cpu
    for i in 3 4 5 6; do
      t=${F[$i.tick2]}
      same "variant split tick $t: the right's states" "${F[$i.states2]}" "${W[$t.states]:-}"
      same "variant split tick $t: the right's output" "${F[$i.out2]}" "${W[$t.out]:-}"
    done
  fi
fi

# ---- the device page at a tick, its lanes by compute unit, captions, a printed handout, layouts ----
dev=$tmp/dev-integral_none.html
if [[ -f $dev ]]; then
  # 132 compute units, a lane each; a hovered lane names its group (focused in the panes);
  # two presses on + make the window a quarter of the run
  if dump "$dev" "view=device&devtime=50%25&test=1&do=tlhover:8,1616;snap;click:tl-in;click:tl-in;snap"; then
    has "device lanes: grouped by unit" "${F[0.lanes]}" "132 by unit, rows 0.."
    has "device lanes: a hovered lane names its group" "${F[0.lanes]}" "hover compute unit 8: ticket #"
    [[ ${F[0.focus]} != none ]] && pass || fail "device lanes: the hovered lane's group is not focused"
    read -r a b <<<"$(sed -n 's/.*window \([0-9]*\)\.\.\([0-9]*\) of.*/\1 \2/p' <<<"${F[1.lanes]}")"
    ((${b:-9999} - ${a:-0} <= 3232 / 4 + 1 && a <= 1616 && b >= 1616)) && pass ||
      fail "device lanes zoomed twice: window ${a:-?}..${b:-?} (want a quarter of 3232 about 1616)"
  fi
fi
# #tick=T is the simulated clock: the page opens there, not at the device's end
if [[ -f $tmp/exec.html ]] && dump "$tmp/exec.html" "tick=5&test=1"; then
  same "--exec device page #tick=5: the view, the tick" "${F[0.view]} ${F[0.tick]}" "sim 5"
fi
# A script's captions: under the frame, n and N step the frames; printed, a sheet a frame.
printf '%s\n' 'variant integral' 'pattern none' 'caption Without a pattern every block starts at once' \
  'tick 1' 'wait 30' 'tick 4' 'wait 30' 'caption The wavefront orders the blocks' 'pattern wavefront' \
  'tick 20' 'wait 30' 'caption' 'tick end' 'wait 30' >"$tmp/caption.txt"
if export_page "$tmp/cap.html" --script "$tmp/caption.txt" --backend cpu &&
   dump "$tmp/cap.html" "test=1&do=snap;key:n;key:n;snap;key:n;snap;key:shift+N;key:right;snap"; then
  same "captions: the first frame" "${F[0.frame]}|${F[0.caption]}" "1 / 4|Without a pattern every block starts at once"
  same "captions: n twice" "${F[1.run]} ${F[1.tick]}|${F[1.frame]}|${F[1.caption]}" "1 20|3 / 4|The wavefront orders the blocks"
  same "captions: a frame without one" "${F[2.tick]}|${F[2.frame]}|${F[2.caption]}" "69|4 / 4|"
  same "captions: between frames" "${F[3.tick]}|${F[3.frame]}" "21|- / 4"
  rm -f "$tmp/cap.pdf"
  browse pdf "$tmp/cap.html" "" "$tmp/cap.pdf"
  declare -A PG=()
  while IFS=$'\t' read -r k t; do PG[$k]=$t; done < <("${check[@]}" pdf-pages "$tmp/cap.pdf" 2>&1)
  same "handout: a page a frame" "${#PG[@]}" 4
  has "handout page 1" "${PG[1]:-}" "frame 1 of 4"
  has "handout page 1: its caption" "${PG[1]:-}" "Without a pattern every block starts at once"
  has "handout page 3: its tick" "${PG[3]:-}" "output at tick 20 of 69"
  has "handout page 3: its caption" "${PG[3]:-}" "The wavefront orders the blocks"
  [[ ${PG[4]:-} != *"The wavefront orders"* ]] && pass || fail "handout page 4 has page 3's caption"
fi
printf 'caption %0400d\n' 0 >"$tmp/longcap.txt"
"$ts" export --html "$tmp/x.html" --script "$tmp/longcap.txt" >"$tmp/out" 2>"$tmp/err"
[[ $? == 2 && $(wc -l <"$tmp/err") == 1 ]] && grep -q "a caption is at most 300 bytes" "$tmp/err" && pass ||
  fail "export --script with a long caption: '$(cat "$tmp/err")' (want exit 2 and one line)"
# The layout at three sizes: the panes' titles apart and within their room (a long input's
# name shortened in its middle, whole in the title), the status line and the header whole.
cp "$src/tests/records/chart320.png" "$tmp/a_rather_long_input_name_for_a_course_handout_2024.png"
if export_page "$tmp/long.html" -i "$tmp/a_rather_long_input_name_for_a_course_handout_2024.png" --variant integral --backend cpu; then
  for sp in "1024,768|$tmp/long.html|tick=3&test=1" "1280,720|$dev|view=device&test=1" \
            "1920,1080|$tmp/cap.html|frame=3&test=1"; do
    IFS='|' read -r size page frag <<<"$sp"
    [[ -f $page ]] || continue
    DUMP_SIZE=$size dump "$page" "$frag" || continue
    same "$(basename "$page") at $size: layout" "${F[0.layout]}" "titles apart, titles whole, status whole, header fits"
    if [[ $size == 1024,768 ]]; then
      has "a long name at 1024x768, shortened in its middle" "${F[0.shortened]}" "title-in=a_rather_"
      has "a long name at 1024x768: the ellipsis" "${F[0.shortened]}" "…"
    fi
  done
fi

# ---- screenshots, to look at ----
if [[ -f $int ]]; then
  out=${shots:-$tmp/shots}
  mkdir -p "$out"
  for s in "integral|$int|tick=30&hover=300,200" "hazards|$none|tick=3&hover=40,8" \
           "device|$tmp/dev-integral_none.html|view=device&devtime=60%25&hover=120,72" \
           "plain|$tmp/nobar.html|tick=900&hover=300,200" "plain-sim|$sim|tick=2&hover=5,0" \
           "device-lanes|$tmp/dev-integral_none.html|view=device&devtime=50%25&do=click:tl-in;click:tl-in;tlhover:2,1616" \
           "captions|$tmp/cap.html|frame=3" \
           "plain-split|$split|tick=300&do=click:finding-0" "split|$vsplit|tick=6&hover=300,200" \
           "plain-source|$split|tick=3&zoom=8&center=16,8&do=click:tab-source;click:src-line-22"; do
    IFS='|' read -r name page frag <<<"$s"
    [[ -f $page ]] || continue
    rm -f "$out/page-$name.png"
    browse shot "$page" "$frag" "$out/page-$name.png"
    same "screenshot $name: size" "$("${check[@]}" png-size "$out/page-$name.png" 2>&1)" "1600 900"
  done
  [[ -n $shots ]] && echo "screenshots of the pages: $shots"
fi

# ---- bad options: one line, exit 2, no file ----
bad() { # bad WANT_TEXT ARGS...
  local want=$1
  shift
  "$ts" export "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc == 2 && $(wc -l <"$tmp/err") == 1 ]] && grep -q -- "$want" "$tmp/err"; then pass
  else fail "export $*: exit $rc, '$(cat "$tmp/err")' (want exit 2 and one line naming $want)"; fi
}
bad "needs --html" --variant integral
bad "--overlay" --html "$tmp/x.html" --overlay observed
bad "--size" --html "$tmp/x.html" --size 10x10
bad "nosuchdir" --html "$tmp/nosuchdir/x.html" --backend cpu
bad "missing.png" --html "$tmp/x.html" -i "$tmp/missing.png"
bad "missing.json" --html "$tmp/x.html" --record "$tmp/missing.json"
# A plain kernel that does not build, or crashes: one line naming it, exit 2 or 1.
printf '// tilescope: plain global=W,H\n__kernel void k(__global const uchar *in, __global uchar *out, int W, int H)\n{ out[0] = nope; }\n' >"$tmp/nobuild.cl"
bad "nobuild.cl" --html "$tmp/x.html" --kernel-file "$tmp/nobuild.cl"
"$ts" export --html "$tmp/x.html" --kernel-file "$src/tests/kernels/hostile_stack.cl" >"$tmp/out" 2>"$tmp/err"
rc=$?
[[ $rc == 1 && $(wc -l <"$tmp/err") == 1 ]] && grep -q "hostile_stack.cl" "$tmp/err" && pass ||
  fail "export of a kernel that crashes: exit $rc, '$(cat "$tmp/err")' (want exit 1 and one line naming it)"
bad "--variant" --html "$tmp/x.html" --kernel-file "$plain/conv2d.cl" --variant box2d
bad "--order" --html "$tmp/x.html" --order reverse
bad "--sim" --html "$tmp/x.html" --sim "$src/tests/sim/shapes.sim" -i "$src/tests/records/chart320.png"
bad "--split" --html "$tmp/x.html" --kernel-file "$plain/conv2d.cl" --split order=sideways
bad "--split pattern=none" --html "$tmp/x.html" --kernel-file "$plain/conv2d.cl" --split pattern=none
bad "--split: unknown pattern" --html "$tmp/x.html" --variant integral --split pattern=sideways
bad "--split device: a page's split view" --html "$tmp/x.html" --variant integral --split device
bad "--split order=reverse: order=ORDER splits a plain kernel" --html "$tmp/x.html" --variant integral --split order=reverse
bad "--split slots=2" --html "$tmp/x.html" --script "$tmp/caption.txt" --split slots=2
[[ -e $tmp/x.html ]] && fail "a failed export left its file" || pass
ls -a "$tmp" "$tmp/nosuchdir" 2>/dev/null | grep -q '\.tmp-' && fail "a temporary file was left" || pass

echo "html: $passes checks passed, $fails failed"
[[ $fails == 0 ]]
