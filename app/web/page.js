/* The page's state and input, as the window's viewer*.c hold them: the run shown, the tick
 * (or the device time in the device view), play, the overlay, zoom and pan, the hovered point
 * and the selected thread; keys, the mouse, the controls; the address's fragment
 * (#tick=T&hover=X,Y&...: where the page opens, and actions for tests); and, with test=1, a
 * summary of what the page shows in #ts-test for the tests to read. Drawing is in
 * draw_panes.js, draw_timeline.js and panel.js, which read this state and change none of it.
 * A plain kernel's page (data kind "plain") steps its launch's clock, a pass at a time, with
 * model_plain.js, draw_plain.js and panel_plain.js; its threads are work-groups. */
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
  let OVERLAYS = ['none', 'state', 'order', 'depth', 'slot'];
  const violations = [];
  document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));

  let data, runs, panes, timeline, panel;
  const S = {
    run: 0, tick: 0, devTime: 0, device: false, playing: false, speed: 3, overlay: 'state',
    grid: true, zoom: 1, cx: 0, cy: 0, fitted: true, hover: null, sel: null, focus: null,
    shownPass: 0, help: false, test: false, barHover: null,
    tl: null, tlHover: null, pan: null, frame: -1, // the device timeline's window and hover; a script's frame
  };
  const run = () => (runs ? runs[S.run] : null);

  /* ---- what changes the state ---- */

  function clampTick(t) {
    return Math.max(0, Math.min(run().length, Math.round(t)));
  }

  function setTick(t) {
    S.tick = clampTick(t);
  }

  function setDevTime(t) {
    S.devTime = Math.max(0, Math.min(run().dev.t_end, Math.round(t)));
  }

  /* One step of the shown clock: a tick, or in the device view one event of a logical clock
   * or 1/200 of the device's run. */
  function step(n) {
    if (S.device) {
      const d = run().dev, unit = d.clock_ns ? Math.max(1, Math.round(d.t_end / 200)) : 1;
      setDevTime(S.devTime + n * unit);
    } else {
      setTick(S.tick + n);
    }
  }

  function toStart() { if (S.device) setDevTime(0); else setTick(0); }
  function toEnd() { if (S.device) setDevTime(run().dev.t_end); else setTick(run().length); }
  function atEnd() { return S.device ? S.devTime >= run().dev.t_end : S.tick >= run().length; }

  function setDevice(on) {
    S.device = !!(on && run().dev);
  }

  function fit() {
    const r = panes.layout(stageW(), stageH())[0];
    /* a plain kernel's input may be of another size than its output: both fit */
    const fw = Math.max(run().W, run().inW || 0), fh = Math.max(run().H, run().inH || 0);
    S.zoom = Math.min(r.w / fw, r.h / fh) * 0.98;
    S.cx = run().W / 2;
    S.cy = run().H / 2;
    S.fitted = true;
  }

  function zoomAt(f, ix, iy, sx, sy) {
    const r = panes.layout(stageW(), stageH())[sx === undefined ? 1 : panes.toImage(S, sx, sy).pane];
    const z = Math.max(0.02, Math.min(256, S.zoom * f));
    if (sx === undefined) { sx = r.x + r.w / 2; sy = r.y + r.h / 2; ix = S.cx; iy = S.cy; }
    S.cx = ix - (sx - r.x - r.w / 2) / z;
    S.cy = iy - (sy - r.y - r.h / 2) / z;
    S.zoom = z;
    S.fitted = false;
  }

  /* A plain kernel's pass shown: its own clock, from its end when the shown one was at its. */
  function setPass(p) {
    const r = run();
    if (!r.plain) return;
    const end = S.tick >= r.length;
    r.pass = Math.max(0, Math.min(r.passes.length - 1, p));
    S.sel = S.barHover = null;
    setTick(end ? r.length : S.tick);
  }

  function togglePlay() {
    if (!S.playing && atEnd()) toStart();
    S.playing = !S.playing;
    S.accum = 0;
    S.last = undefined;
    if (S.playing) requestAnimationFrame(playFrame);
  }

  function playFrame(ts) {
    if (!S.playing) return;
    if (S.last !== undefined) {
      S.accum += (ts - S.last) / 1000 * SPEEDS[S.speed];
      const n = Math.floor(S.accum);
      S.accum -= n;
      if (n > 0) step(n);
      if (atEnd()) S.playing = false;
    }
    S.last = ts;
    render();
    if (S.playing) requestAnimationFrame(playFrame);
  }

  /* Run i, opening where its view says (the export's, or a script's frame's). */
  function selectRun(i, view) {
    i = Math.max(0, Math.min(runs.length - 1, i));
    if (!runs[i].loaded) {
      runs[i].load();
      runs[i].loaded = true;
      $('loading').hidden = true;
    }
    const first = view || runs[i].j.view;
    S.run = i;
    S.frame = -1;
    S.sel = null;
    S.overlay = OVERLAYS.includes(first.overlay) ? first.overlay : 'state';
    /* a tick asked for is the simulated clock's: the device view needs no tick, or a time */
    setDevice(first.device && (first.tick < 0 || first.dev_time >= 0 || first.dev_pct >= 0));
    S.tick = first.tick < 0 ? run().length : clampTick(first.tick);
    /* a plain kernel's run plays in about ten seconds */
    if (runs[i].plain) S.speed = Math.max(0, SPEEDS.findLastIndex((v) => v <= run().length / 10));
    if (run().dev) {
      const d = run().dev;
      setDevTime(first.dev_pct >= 0 ? first.dev_pct / 100 * d.t_end : first.dev_time < 0 ? d.t_end : first.dev_time);
    }
    S.hover = first.hover ? { pane: 1, x: first.hover[0] + 0.5, y: first.hover[1] + 0.5 } : null;
    $('run-select').value = String(i);
    fit();
    if (first.zoom > 0) {
      S.zoom = first.zoom;
      S.cx = first.center[0] >= 0 ? first.center[0] : run().W / 2;
      S.cy = first.center[1] >= 0 ? first.center[1] : run().H / 2;
      S.fitted = false;
    }
  }

  /* ---- input ---- */

  function onKey(e) {
    if (e.target && (e.target.tagName === 'SELECT' || e.target.tagName === 'INPUT') && e.key !== ' ') return;
    const k = e.key;
    let handled = true;
    if (k === ' ') togglePlay();
    else if (k === 'ArrowRight') step(e.shiftKey ? 10 : 1);
    else if (k === 'ArrowLeft') step(e.shiftKey ? -10 : -1);
    else if (k === 'Home') toStart();
    else if (k === 'End') toEnd();
    else if (k === '+' || k === '=') S.speed = Math.min(SPEEDS.length - 1, S.speed + 1);
    else if (k === '-') S.speed = Math.max(0, S.speed - 1);
    else if (k === 'o' || k === 'O') S.overlay = OVERLAYS[(OVERLAYS.indexOf(S.overlay) + (k === 'o' ? 1 : OVERLAYS.length - 1)) % OVERLAYS.length];
    else if (k === 'g') S.grid = !S.grid;
    else if (k === 'd') setDevice(!S.device);
    else if (k === 'f') fit();
    else if (k === '1') zoomAt(1 / S.zoom);
    else if (k === 'h' || k === '?' || k === 'F1') S.help = !S.help;
    else if (k === 'Escape') { S.help = false; S.sel = null; }
    else if ((k === 'p' || k === 'P') && run().plain) setPass((run().pass + (k === 'p' ? 1 : run().passes.length - 1)) % run().passes.length);
    else if ((k === 'n' || k === 'N') && frames().length) goFrame(S.frame + (k === 'n' ? 1 : -1));
    else if ((k === 'v' || k === 'V') && runs.length > 1) {
      selectRun((S.run + (k === 'v' ? 1 : runs.length - 1)) % runs.length);
    } else handled = false;
    if (handled) {
      if (e.preventDefault) e.preventDefault();
      if (!S.playing) render();
    }
  }

  function canvasPoint(canvas, e) {
    const r = canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  function onPanesMove(e) {
    const [sx, sy] = canvasPoint(panes.canvas, e);
    if (S.drag && (e.buttons & 1)) {
      const dx = sx - S.drag.x, dy = sy - S.drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) S.drag.moved = true;
      if (S.drag.moved) {
        S.cx -= dx / S.zoom;
        S.cy -= dy / S.zoom;
        S.fitted = false;
        S.drag.x = sx;
        S.drag.y = sy;
      }
    }
    const p = panes.toImage(S, sx, sy);
    /* a plain kernel's input pane: the input's size */
    const [w, h] = p && p.pane === 0 && run().plain ? [run().inW, run().inH] : [run().W, run().H];
    S.hover = p && p.x >= 0 && p.y >= 0 && p.x < w && p.y < h ? p : null;
    if (!S.playing) render();
  }

  function onPanesClick(e) {
    if (S.drag && S.drag.moved) return;
    const [sx, sy] = canvasPoint(panes.canvas, e);
    const p = panes.toImage(S, sx, sy), pass = S.shownPass;
    const id = threadUnder(p);
    S.sel = id >= 0 ? { pass, id } : null;
    if (!S.playing) render();
  }

  function onTimeline(e) {
    const [sx] = canvasPoint(timeline.canvas, e);
    const v = timeline.valueAt(run(), S, sx);
    if (S.device) setDevTime(v); else setTick(v);
    if (!S.playing) render();
  }

  /* The thread (a plain kernel's work-group) under an image point of the pass shown, or -1:
   * on the input pane only where its image is the output's shape. */
  function threadUnder(p) {
    if (!p || (run().plain && p.pane === 0 && !run().sameShape)) return -1;
    return run().threadAt(S.shownPass, p.x, p.y);
  }

  function wire() {
    document.addEventListener('keydown', onKey);
    const pc = panes.canvas;
    pc.addEventListener('mousemove', onPanesMove);
    pc.addEventListener('mouseleave', () => { S.hover = null; if (!S.playing) render(); });
    pc.addEventListener('mousedown', (e) => { const [x, y] = canvasPoint(pc, e); S.drag = { x, y, moved: false }; });
    pc.addEventListener('mouseup', () => setTimeout(() => { S.drag = null; }, 0));
    pc.addEventListener('click', onPanesClick);
    pc.addEventListener('dblclick', () => { fit(); render(); });
    pc.addEventListener('wheel', (e) => {
      e.preventDefault();
      const [sx, sy] = canvasPoint(pc, e), p = panes.toImage(S, sx, sy);
      if (!p) return;
      zoomAt(Math.pow(1.0015, -e.deltaY), p.x, p.y, sx, sy);
      if (!S.playing) render();
    }, { passive: false });
    const tc = timeline.canvas;
    tc.addEventListener('mousedown', (e) => { if (!panStart(e)) { S.scrub = true; onTimeline(e); } });
    window.addEventListener('mousemove', (e) => { if (S.scrub && (e.buttons & 1)) onTimeline(e); });
    /* a plain kernel's Gantt chart: a bar hovered is its work-group focused */
    tc.addEventListener('mousemove', (e) => {
      if (!run().plain || (e.buttons & 1)) return;
      const [x, y] = canvasPoint(tc, e), g = timeline.groupAt(run(), x, y);
      S.barHover = g >= 0 ? g : null;
      if (!S.playing) render();
    });
    tc.addEventListener('mouseleave', () => { S.barHover = null; S.tlHover = null; if (!S.playing) render(); });
    wireDeviceTimeline(tc);
    /* what the panel selects itself (a plain kernel's tabs, findings, source lines) */
    const pn = $('panel'), byPanel = (fn) => (e) => { if (fn && fn(e.type === 'mouseleave' ? null : e.target, run(), S) && !S.playing) render(); };
    pn.addEventListener('click', (e) => byPanel(panel.click)(e));
    pn.addEventListener('mouseover', (e) => byPanel(panel.over)(e));
    pn.addEventListener('mouseleave', (e) => byPanel(panel.over)(e));
    window.addEventListener('mouseup', () => { S.scrub = false; });
    const press = (id, fn) => $(id).addEventListener('click', () => { fn(); if (!S.playing) render(); });
    press('first', toStart);
    press('step-back', () => step(-1));
    press('play', togglePlay);
    press('step-fwd', () => step(1));
    press('last', toEnd);
    press('view-sim', () => setDevice(false));
    press('view-dev', () => setDevice(true));
    press('help-btn', () => { S.help = !S.help; });
    press('grid', () => { S.grid = $('grid').checked; });
    $('speed').addEventListener('change', () => { S.speed = Number($('speed').value); render(); });
    $('overlay').addEventListener('change', () => { S.overlay = $('overlay').value; render(); });
    $('run-select').addEventListener('change', () => { selectRun(Number($('run-select').value)); render(); });
    $('pass-select').addEventListener('change', () => { setPass(Number($('pass-select').value)); render(); });
    window.addEventListener('resize', () => { if (S.fitted) fit(); render(); });
    window.addEventListener('hashchange', () => { applyHash(); render(); });
  }

  /* ---- drawing ---- */

  const stageW = () => $('panes').clientWidth || 800;
  const stageH = () => $('panes').clientHeight || 500;

  function status(r) {
    const play = `${S.playing ? 'playing' : 'paused'} ${SPEEDS[S.speed]} ticks/s`;
    if (r.plain) {
      const c = r.counts(r.pass, S.tick), n = r.passes[r.pass].n;
      return `tick ${S.tick} of ${r.length}   running ${c[1] + c[2]} (${c[2]} past a barrier), ${c[3]} done of ${n} work-groups   ${play}`;
    }
    if (S.device) {
      const d = r.dev, c = [0, 0, 0, 0], p = S.shownPass;
      for (let id = 0; id < r.passes[p].n; id++) c[r.devState(p, id, S.devTime)]++;
      return `device time ${r.devTimeText(S.devTime)} of ${r.devTimeText(d.t_end)}   in flight ${c[1] + c[2]} (${c[1]} waiting), ${c[3]} done   ${play}`;
    }
    if (r.twin) { /* a split view: each half's tick, clamped to its run */
      const half = tsSplit.halves(r, S).map(([q, h]) => { const o = q.occupancy(h.tick); return `running ${o.running}, resident ${o.resident}`; });
      return `tick ${S.tick} of ${r.length}   left: ${half[0]}   right: ${half[1]}   ${play}`;
    }
    const o = r.occupancy(S.tick);
    return `tick ${S.tick} of ${r.length}   running ${o.running}, resident ${o.resident} of ${r.j.slots} slots   ${play}`;
  }

  function setHTML(el, html) {
    if (el.innerHTML !== html) el.innerHTML = html;
  }

  function render() {
    const r = run();
    if (!r || !r.loaded) return;
    S.shownPass = S.device ? r.devPassAt(S.devTime) : r.passAtTick(S.tick);
    const hov = S.barHover != null ? S.barHover : threadUnder(S.hover);
    S.focus = hov >= 0 ? { pass: S.shownPass, id: hov } : S.sel && S.sel.pass === S.shownPass ? S.sel : null;
    document.body.classList.toggle('device', S.device);
    const j = r.j, np = r.passes.length;
    const pass = np > 1 ? `   pass ${S.shownPass + 1} of ${np}` : '';
    const [iw, ih] = r.plain ? [r.inW, r.inH] : [r.W, r.H];
    $('title-in').textContent = `input  ${j.input}  ${iw}x${ih}, ${j.Cin} channel${j.Cin > 1 ? 's' : ''}   zoom ${Math.round(S.zoom * 100)}%`;
    $('title-out').textContent = S.device ? `device at ${r.devTimeText(S.devTime)} / ${r.devTimeText(r.dev.t_end)}${pass}`
                               : r.plain ? `output  ${r.W}x${r.H} at tick ${S.tick} / ${r.length}${pass}`
                                         : `output at tick ${S.tick} / ${r.length}${pass}`;
    const pt = panel.titles ? panel.titles(r, S) : null;
    if (pt) [$('title-in').textContent, $('title-out').textContent] = pt;
    if (r.plain) plainHeader(r);
    if (!r.plain) fitTitles(r);
    showCaption(r);
    $('title-out').style.left = (Math.floor(stageW() / 2) + 1) + 'px';
    $('status').textContent = status(r);
    $('play').classList.toggle('on', S.playing);
    $('view-sim').classList.toggle('on', !S.device);
    $('view-dev').classList.toggle('on', S.device);
    $('view-seg').hidden = !r.dev;
    $('overlay').value = S.overlay;
    $('speed').value = String(S.speed);
    $('grid').checked = S.grid;
    $('help').hidden = !S.help;
    const [top, insp, legend, list] = panel.html(r, S);
    setHTML($('panel-tabs'), panel.tabs ? panel.tabs(r, S) : '');
    setHTML($('panel-top'), top);
    setHTML($('panel-insp'), insp);
    setHTML($('panel-list'), list || '');
    setHTML($('panel-legend'), legend);
    const dpr = window.devicePixelRatio || 1;
    panes.draw(r, S, stageW(), stageH(), dpr);
    const tl = $('timeline');
    timeline.draw(r, S, tl.clientWidth || 800, tl.clientHeight || 100, dpr);
    if (S.test && !S.frozen) writeTest();
  }

  /* A plain kernel's header: its pass and launch, its device and order, in words. */
  function plainHeader(r) {
    const P = r.passes[r.pass], sz = (v) => v.slice(0, Math.max(1, P.dims)).join('x');
    const text = `${P.entry}: global ${sz(P.global)}, local ${sz(P.local)}, ${P.n} work-groups \u00b7 ` +
                 `${r.j.order} \u00b7 ${r.j.device}`;
    if ($('launch').textContent !== text) $('launch').textContent = text;
    $('launch').hidden = false;
    $('pass-select').value = String(r.pass);
  }

  /* ---- the device timeline's window; a script's frames, captions and printed handout ---- */

  /* On the device timeline the wheel zooms about the pointer (on the lanes' names it scrolls
   * them; with shift, or sideways, it pans); a drag on the lanes pans where the window is less
   * than the run or the lanes scroll (a click there scrubs); a lane hovered names its group. */
  function wireDeviceTimeline(tc) {
    const live = () => S.device && run() && run().dev;
    tc.addEventListener('wheel', (e) => {
      if (!live()) return;
      e.preventDefault();
      const [x, y] = canvasPoint(tc, e), r = run(), g = timeline.geometry(timeline.cw, timeline.ch, true), w = timeline.window(r, S);
      if (x < g.gx && timeline.laneAt(r, S, y) >= 0) S.tl = timeline.panned(r, S, w, 0, -Math.sign(e.deltaY) * 3 * timeline.rows(r, S, g).rowH);
      else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) S.tl = timeline.panned(r, S, w, -(e.shiftKey ? e.deltaY : e.deltaX), 0);
      else S.tl = timeline.zoomed(r, S, Math.pow(1.0015, -e.deltaY), x);
      hoverLane(x, y);
      if (!S.playing) render();
    }, { passive: false });
    tc.addEventListener('mousemove', (e) => {
      if (!live() || (e.buttons & 1)) return;
      hoverLane(...canvasPoint(tc, e));
      if (!S.playing) render();
    });
    window.addEventListener('mousemove', (e) => {
      if (!S.pan || !(e.buttons & 1)) return;
      const [x, y] = canvasPoint(tc, e), dx = x - S.pan.x, dy = y - S.pan.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) S.pan.moved = true;
      if (S.pan.moved) S.tl = timeline.panned(run(), S, S.pan.from, dx, dy);
      if (!S.playing) render();
    });
    window.addEventListener('mouseup', () => {
      const p = S.pan;
      S.pan = null;
      if (p && !p.moved) setDevTime(timeline.valueAt(run(), S, p.x));
      if (p && !S.playing) render();
    });
    const zoomBy = (f) => () => { if (live()) S.tl = f ? timeline.zoomed(run(), S, f) : null; if (!S.playing) render(); };
    $('tl-in').addEventListener('click', zoomBy(2));
    $('tl-out').addEventListener('click', zoomBy(0.5));
    $('tl-fit').addEventListener('click', zoomBy(0));
    $('frame-prev').addEventListener('click', () => { goFrame(S.frame - 1); render(); });
    $('frame-next').addEventListener('click', () => { goFrame(S.frame + 1); render(); });
    window.addEventListener('beforeprint', buildHandout);
    window.addEventListener('afterprint', () => { $('handout').textContent = ''; document.body.classList.remove('handout'); });
  }

  /* A press on the device's lanes that pans rather than scrubs. */
  function panStart(e) {
    if (!S.device || !run().dev) return false;
    const [x, y] = canvasPoint(timeline.canvas, e);
    if (timeline.laneAt(run(), S, y) < 0 || !timeline.pans(run(), S)) return false;
    S.pan = { x, y, from: timeline.window(run(), S), moved: false };
    return true;
  }

  /* The lane under the timeline's point (x, y), and the group it names: focused when it is of
   * the pass shown. */
  function hoverLane(x, y) {
    const r = run(), h = timeline.hit(r, S, x, y);
    S.tlHover = h ? Object.assign(h, { run: r }) : null;
    const id = h && h.e ? r.devThread(h.e[0], h.e[1]) : -1;
    S.barHover = id >= 0 && h.e[0] === r.devPassAt(S.devTime) ? id : null;
  }

  const frames = () => (data && data.frames) || [];

  /* Frame i of the script: its run, shown where the script showed it. */
  function goFrame(i) {
    const fs = frames();
    if (!fs.length) return;
    i = Math.max(0, Math.min(fs.length - 1, i));
    selectRun(fs[i].run, fs[i].view);
    S.frame = i;
  }

  /* The frame the page shows: the one gone to, else one of the same run, clock and view. */
  function frameShown(r) {
    const fs = frames(), at = (f) => {
      const v = f.view, dev = !!(v.device && r.dev && (v.tick < 0 || v.dev_time >= 0 || v.dev_pct >= 0));
      if (f.run !== S.run || dev !== S.device) return false;
      if (!dev) return (v.tick < 0 ? r.length : v.tick) === S.tick;
      return Math.round(v.dev_pct >= 0 ? v.dev_pct / 100 * r.dev.t_end : v.dev_time < 0 ? r.dev.t_end : v.dev_time) === S.devTime;
    };
    return S.frame >= 0 && S.frame < fs.length && at(fs[S.frame]) ? S.frame : fs.findIndex(at);
  }

  /* Under the panes: the frame's number and its caption. */
  function showCaption(r) {
    const fs = frames(), i = fs.length ? frameShown(r) : -1;
    S.frame = i; // n and N step from here
    $('caption').hidden = !fs.length;
    if (!fs.length) return;
    $('frame-no').textContent = `${i >= 0 ? i + 1 : '-'} / ${fs.length}`;
    const text = i >= 0 ? fs[i].caption : '';
    $('caption-text').textContent = text || (i >= 0 ? '' : "between the script's frames: n and N go to them");
    $('caption-text').classList.toggle('dim', !text);
  }

  /* The panes' titles and the page's own, each within its room: a long name shortened in its
   * middle, whole in the element's title. */
  function fitTitles(r) {
    const tin = $('title-in').textContent, tout = $('title-out').textContent;
    tsPanel.fitMid($('title-in'), [tin, tin.replace(/, \d+ channels?/, ''), tin.replace(/, \d+ channels?/, '').replace(/^input  /, '')], r.j.input);
    tsPanel.fitMid($('title-out'), [tout, tout.replace(/ \/ (event )?[\d.]+( ns| us| ms)?/, '')], '');
    tsPanel.fitMid($('title'), data.title.replace(/^tilescope: /, ''), r.j.input);
  }

  /* The printed handout: a sheet for each frame of the script (without frames, the page as it
   * stands), each the panes and the timeline as the frame shows them, where it is, and its
   * caption. Made as printing starts, from the same drawing as the screen, then the page's
   * state as it was. */
  function buildHandout() {
    if (run().plain || run().twin) return; // a plain kernel's page, a split view: printed as shown
    const saved = Object.assign({}, S), fs = frames();
    const list = fs.length ? fs.map((f, i) => i) : [-1];
    const sheets = [];
    S.playing = false;
    for (const i of list) {
      if (i >= 0) goFrame(i);
      const r = run();
      S.shownPass = S.device ? r.devPassAt(S.devTime) : r.passAtTick(S.tick);
      const hov = threadUnder(S.hover);
      S.focus = hov >= 0 ? { pass: S.shownPass, id: hov } : S.sel && S.sel.pass === S.shownPass ? S.sel : null;
      const where = S.device ? `device time ${r.devTimeText(S.devTime)} of ${r.devTimeText(r.dev.t_end)}` : `tick ${S.tick} of ${r.length}`;
      sheets.push({ state: Object.assign({}, S), r,
        head: `${data.title.replace(/^tilescope: /, '')}${fs.length ? `   frame ${i + 1} of ${fs.length}` : ''}`,
        sub: `${r.j.label}   ${where}   overlay ${S.overlay}`,
        titles: [`input  ${r.j.input}  ${r.W}x${r.H}`, S.device ? `device at ${r.devTimeText(S.devTime)}` : `output at ${where}`],
        caption: i >= 0 ? fs[i].caption : '' });
    }
    Object.assign(S, saved);
    $('run-select').value = String(S.run);
    tsPanel.handout($('handout'), sheets);
    render();
  }

  /* ---- the fragment ---- */

  function fragment() {
    const out = {};
    for (const part of location.hash.replace(/^#/, '').split('&')) {
      if (!part) continue;
      const eq = part.indexOf('=');
      const k = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
      out[k] = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1));
    }
    return out;
  }

  function pair(s) {
    const m = /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(s || '');
    return m ? [Number(m[1]), Number(m[2])] : null;
  }

  /* A mouse event at image point (x, y) of a pane, through the page's own handlers. */
  function mouseAt(type, pane, x, y) {
    /* whole client pixels (a MouseEvent keeps no fraction): the nearest to the pixel's centre */
    const [sx, sy] = panes.toScreen(S, pane, x + 0.5, y + 0.5), rc = panes.canvas.getBoundingClientRect();
    panes.canvas.dispatchEvent(new MouseEvent(type, { clientX: Math.round(rc.left + sx), clientY: Math.round(rc.top + sy), bubbles: true }));
  }

  /* Test actions, played through the same handlers as a user's: key:NAME (shift+NAME),
   * click:ELEMENT-ID, hover:X,Y (hoverin: on the input), leave, select:X,Y, scrub:T (a press
   * on the timeline where tick or device time T is). */
  function act(a) {
    const c = a.indexOf(':'), what = c < 0 ? a : a.slice(0, c), arg = c < 0 ? '' : a.slice(c + 1);
    if (what === 'key') {
      const shift = arg.startsWith('shift+');
      const key = { space: ' ', left: 'ArrowLeft', right: 'ArrowRight', home: 'Home', end: 'End' }[arg.replace('shift+', '')] || arg.replace('shift+', '');
      document.dispatchEvent(new KeyboardEvent('keydown', { key, shiftKey: shift, bubbles: true }));
    } else if (what === 'click') {
      const el = $(arg);
      if (!el) throw new Error('no element ' + arg);
      el.click();
    } else if (what === 'hover' || what === 'hoverin' || what === 'select') {
      const xy = pair(arg);
      if (!xy) throw new Error('not X,Y: ' + arg);
      render();
      mouseAt('mousemove', what === 'hoverin' ? 0 : 1, xy[0], xy[1]);
      if (what === 'select') mouseAt('click', 1, xy[0], xy[1]);
    } else if (what === 'scrub') {
      render();
      const tc = timeline.canvas, rc = tc.getBoundingClientRect(), x = timeline.xOf(run(), S, Number(arg) || 0);
      tc.dispatchEvent(new MouseEvent('mousedown', { clientX: Math.round(rc.left + x), clientY: Math.round(rc.top + 20), bubbles: true }));
      window.dispatchEvent(new MouseEvent('mouseup'));
    } else if (what === 'tlhover' || what === 'tlwheel') {
      /* tlhover:LANE,T the pointer on a lane at device time T; tlwheel:T,DY the wheel there */
      const xy = pair(arg);
      if (!xy || !S.device) throw new Error(what + ' needs the device view and two numbers: ' + arg);
      render();
      const tc = timeline.canvas, rc = tc.getBoundingClientRect(), lane = what === 'tlhover' ? xy[0] : -1;
      const x = timeline.xOf(run(), S, what === 'tlhover' ? xy[1] : xy[0]), y = lane >= 0 ? timeline.laneY(run(), S, lane) : 80;
      if (y < 0) throw new Error('lane ' + lane + ' is not shown');
      const at = { clientX: Math.round(rc.left + x), clientY: Math.round(rc.top + y), bubbles: true, cancelable: true };
      tc.dispatchEvent(what === 'tlhover' ? new MouseEvent('mousemove', at) : new WheelEvent('wheel', Object.assign(at, { deltaY: xy[1] })));
    } else if (what === 'leave') {
      panes.canvas.dispatchEvent(new MouseEvent('mouseleave'));
    } else if (what === 'snap') {
      render();
      S.snaps.push(testText());
    } else {
      throw new Error('unknown action ' + a);
    }
  }

  function applyHash() {
    const f = fragment();
    S.test = f.test === '1';
    S.frozen = false;
    if (f.run !== undefined) selectRun(Number(f.run) || 0);
    if (f.frame !== undefined) goFrame(Number(f.frame) - 1);
    const r = run();
    if (f.view !== undefined) setDevice(f.view === 'device');
    else if (f.tick !== undefined && f.devtime === undefined) setDevice(false); // #tick=T: the simulated clock
    if (f.pass !== undefined && r.plain) setPass((Number(f.pass) || 1) - 1);
    if (f.tick !== undefined) setTick(f.tick === 'end' ? r.length : Number(f.tick) || 0);
    if (f.devtime !== undefined && r.dev) setDevTime(devTimeOf(r, f.devtime));
    if (OVERLAYS.includes(f.overlay)) S.overlay = f.overlay;
    if (f.grid !== undefined) S.grid = f.grid !== '0';
    const c = pair(f.center);
    if (f.zoom !== undefined && Number(f.zoom) > 0) {
      S.zoom = Math.max(0.02, Math.min(256, Number(f.zoom)));
      S.cx = c ? c[0] : r.W / 2;
      S.cy = c ? c[1] : r.H / 2;
      S.fitted = false;
    }
    const actions = [];
    /* hover=X,Y is the pixel itself, as shot --hover (a mouse event's whole screen pixels
     * cannot name every image pixel of a minified image); do=hover:X,Y moves the mouse. */
    const h = pair(f.hover);
    if (h) S.hover = { pane: 1, x: h[0] + 0.5, y: h[1] + 0.5 };
    const sel = pair(f.select);
    if (sel) {
      const p = S.device ? r.devPassAt(S.devTime) : r.passAtTick(S.tick);
      S.shownPass = p;
      const id = threadUnder({ pane: 1, x: sel[0] + 0.5, y: sel[1] + 0.5 });
      S.sel = id >= 0 ? { pass: p, id } : null;
    }
    if (f.do) actions.push(...f.do.split(';').filter(Boolean));
    render();
    S.snaps = [];
    for (const a of actions) act(a);
    if (!S.test) return;
    /* The summary: one block per snap action, then the page as it ends; or with ticks=A,B,...
     * (devtimes=T,P%,... in the device view) one a tick, each reached as the fragment's is. */
    const blocks = S.snaps;
    if (f.ticks || f.devtimes) {
      for (const t of (f.ticks || f.devtimes).split(',')) {
        if (f.ticks) setTick(t === 'end' ? r.length : Number(t) || 0);
        else setDevTime(devTimeOf(r, t));
        render();
        blocks.push(testText());
      }
    } else {
      render();
      blocks.push(testText());
    }
    $('ts-test').textContent = blocks.join('\n\n');
    S.frozen = true;
  }

  /* T, P% of the device's run, or end. */
  function devTimeOf(r, s) {
    const m = /^(\d+(?:\.\d+)?)%$/.exec(s);
    return s === 'end' ? r.dev.t_end : m ? Number(m[1]) / 100 * r.dev.t_end : Number(s) || 0;
  }

  /* ---- the test summary ---- */

  function writeTest() {
    $('ts-test').textContent = testText();
  }

  /* A canvas's size and an FNV-1a hash of its pixels: what it shows, compared. */
  function canvasHash(c) {
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let h = 0x811c9dc5;
    for (let i = 0; i < px.length; i++) h = Math.imul(h ^ px[i], 0x01000193) >>> 0;
    return `${c.width}x${c.height}:${h.toString(16).padStart(8, '0')}`;
  }

  /* A plain kernel's: each work-group's state at the tick by linear id (p not started, r
   * running, b past a barrier, d done), the output's hash as it stands, its pixels shown. */
  function plainTestText() {
    const r = run(), p = r.pass, P = r.passes[p], f = S.focus, count = {};
    let states = '';
    for (let g = 0; g < P.n; g++) {
      const ch = 'prbd'[r.state(p, g, S.tick)];
      states += ch;
      count[ch] = (count[ch] || 0) + 1;
    }
    return ['ready', `run=${S.run}`, 'view=plain', `tick=${S.tick}`, `length=${r.length}`,
      `pass=${p + 1}`, `passes=${r.passes.length}`, `overlay=${S.overlay}`, `playing=${S.playing ? 1 : 0}`,
      `focus=${f ? r.xy(f.pass, f.id).join(',') : 'none'}`,
      `counts=${Object.keys(count).sort().map((k) => k + ':' + count[k]).join(',')}`,
      `states=${states}`, `out=${r.outHash(S.tick)}`, `shown=${r.shownCount(S.tick)}`,
      `findings=${r.findings.length}`, `launch=${$('launch').textContent}`,
      `panes=${canvasHash(panes.canvas)}`, `timeline=${canvasHash(timeline.canvas)}`,
      `inspector=${$('panel-insp').innerText.replace(/\s*\n\s*/g, ' | ')}`,
      `list=${$('panel-list').innerText.replace(/\s*\n\s*/g, ' | ')}`,
      ...(panel.testFields ? panel.testFields(r, S) : []),
      `violations=${violations.length}`, `resources=${performance.getEntriesByType('resource').length}`,
    ].join('\n');
  }

  function testText() {
    if (run().plain) return plainTestText();
    const r = run(), p = S.shownPass, P = r.passes[p];
    let states = '';
    const count = {};
    for (let id = 0; id < P.n; id++) {
      let ch;
      if (S.device) {
        const st = r.devState(p, id, S.devTime);
        ch = st === 3 && r.devWrong(p, id) ? 'x' : 'pwrd'[st];
      } else {
        const st = r.state(p, id, S.tick);
        ch = st >= 2 && P.hz[id] > 0 ? 'h' : 'pwrd'[st];
      }
      states += ch;
      count[ch] = (count[ch] || 0) + 1;
    }
    const f = S.focus;
    const lines = [
      'ready',
      `run=${S.run}`,
      `view=${S.device ? 'device' : 'sim'}`,
      `tick=${S.tick}`,
      `length=${r.length}`,
      `devtime=${S.device ? S.devTime : ''}`,
      `pass=${p + 1}`,
      `overlay=${S.overlay}`,
      `playing=${S.playing ? 1 : 0}`,
      `focus=${f ? r.xy(f.pass, f.id).join(',') : 'none'}`,
      `counts=${Object.keys(count).sort().map((k) => k + ':' + count[k]).join(',')}`,
      `states=${states}`,
      `out=${S.device ? '' : r.outHash(S.tick)}`,
      `inspector=${$('panel-insp').innerText.replace(/\s*\n\s*/g, ' | ')}`,
      `lanes=${S.device ? timeline.summary(r, S) : ''}`,
      ...(panel.testFields ? panel.testFields(r, S) : []),
      `violations=${violations.length}`,
      `resources=${performance.getEntriesByType('resource').length}`,
    ];
    return lines.join('\n');
  }

  /* ---- start ---- */

  function fail(e) {
    $('loading').hidden = false;
    $('loading').textContent = 'the page could not show its run: ' + e.message;
    $('ts-test').textContent = 'error=' + e.message;
  }

  function start() {
    data = JSON.parse($('ts-data').textContent);
    document.title = data.title;
    $('title').textContent = data.title.replace(/^tilescope: /, '');
    if (data.size[0] > 0) {
      document.body.classList.add('fixed');
      $('app').style.width = data.size[0] + 'px';
      $('app').style.height = data.size[1] + 'px';
    }
    const plain = data.kind === 'plain', split = !plain && !!data.split;
    document.body.classList.toggle('plain', plain);
    document.body.classList.toggle('split', split || (plain && !!data.runs[0].twin));
    if (plain) OVERLAYS = ['none', 'state', 'order'];
    /* a variant's split view: the second run is the first's twin, one run of the page */
    runs = split ? [new TsSplitRun(data.runs[0], data.inputs[data.runs[0].input_index], data.runs[1], data.split)]
         : data.runs.map((j) => (plain ? new TsPlainRun(j, data.inputs[j.input_index]) : new TsRun(j, data.inputs[j.input_index])));
    $('run-select').innerHTML = runs.map((q) => q.j).map((j, i) => `<option value="${i}">${tsPanel.esc(j.label)}</option>`).join('');
    $('run-select').hidden = runs.length < 2;
    $('speed').innerHTML = SPEEDS.map((s, i) => `<option value="${i}">${s} ticks/s</option>`).join('');
    $('overlay').innerHTML = OVERLAYS.map((o) => `<option>${o}</option>`).join('');
    panes = plain ? new TsPlainPanes($('panes')) : split ? new TsSplitPanes($('panes')) : new TsPanes($('panes'));
    timeline = plain ? new TsPlainTimeline($('timeline')) : split ? new TsSplitTimeline($('timeline')) : new TsTimeline($('timeline'));
    panel = plain ? tsPlainPanel : split ? tsSplitPanel : tsPanel;
    if (plain) {
      const P = runs[0].passes;
      $('pass-select').innerHTML = P.map((p, i) => `<option value="${i}">pass ${i + 1} of ${P.length}: ${tsPanel.esc(p.entry)}</option>`).join('');
      $('pass-select').hidden = P.length < 2;
    }
    wire();
    selectRun(0);
    applyHash();
    render();
  }

  try {
    start();
  } catch (e) {
    fail(e);
  }
})();
