/* The side panel as HTML, with the window's draw_panel.c's wording: the variant and the pass
 * shown, the schedule and its hazards, memory and traffic (or the device's run beside the
 * simulated one), the back end; the inspector of the hovered pixel and the focused thread (its
 * dispatch, ticks and state, its wait set, the producers it read too early, or the device's
 * record of it); the overlay's legend. Builds strings from the page's state; changes nothing. */
'use strict';

const tsPanel = (() => {
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  const line = (cls, text) => `<div class="ln ${cls}">${esc(text)}</div>`;
  const head = (text) => `<div class="ln acc head">${esc(text)}</div>`;
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const STATE = ['pending', 'waiting', 'running', 'done', 'hazard'];
  const DEV_STATE = ['to start', 'waiting', 'running', 'done', 'wrong'];

  function bytes(b) {
    if (b >= 1e9) return (b / 1e9).toFixed(2) + ' GB';
    if (b >= 1e6) return (b / 1e6).toFixed(2) + ' MB';
    if (b >= 1e3) return (b / 1e3).toFixed(1) + ' kB';
    return Math.round(b) + ' B';
  }

  const xy = (run, p, id) => `(${run.xy(p, id).join(',')})`;

  function schedule(run, S) {
    const j = run.j, p = S.shownPass, P = run.passes[p], out = [];
    out.push(line('', `pass ${p + 1} of ${run.passes.length}: ${P.name}`));
    out.push(line('', `tile ${P.tile_words} = ${P.tile[0]}x${P.tile[1]} px`));
    out.push(line('', `footprint ${P.read0[0]}x${P.read0[1]} px, read amplification ${(P.read0[0] * P.read0[1] / (P.tile[0] * P.tile[1])).toFixed(2)}x`));
    out.push(head('schedule'));
    out.push(line('', `pattern ${j.pattern}   walk ${j.walk}`));
    if (j.pattern !== 'none' && j.walk !== j.own_walk) out.push(line('warn', "walk is not the pattern's own: dependencies may drop"));
    out.push(line('', `${j.slots} slots   cost ${j.cost} tick${j.cost > 1 ? 's' : ''}`));
    out.push(line('', run.passes.length > 1
      ? `${j.total} threads in ${run.passes.length} passes (this one ${P.tw}x${P.th}), ${j.length} ticks`
      : `${j.total} threads (${P.tw}x${P.th}), ${j.length} ticks`));
    out.push(line('', `mean ${j.mean_running.toFixed(1)} running, peak ${j.peak} resident`));
    if (j.nhazards) {
      const hp = run.hz.pass[0];
      out.push(line('warn', `${j.nhazards} hazards in ${j.hazard_threads} threads`));
      out.push(line('warn', `  e.g. ${xy(run, hp, run.hz.consumer[0])} read ${xy(run, hp, run.hz.producer[0])} before it finished`));
    } else {
      out.push(line('', 'no hazards'));
    }
    if (run.dev && !S.device) out.push(line('acc', "the device's run of it: d shows it"));
    return out.join('');
  }

  function memory(run) {
    const j = run.j, out = [head('memory per thread (budget 4 KB: one Gen9 EU thread)')];
    out.push(line('', `private: declared ${j.private} B`));
    const f = j.private / 4096;
    out.push(`<div class="bar"><div class="${f > 1 ? 'over' : ''}" style="width:${Math.min(100, f * 100).toFixed(1)}%"></div></div>`);
    out.push(line('', `local per work-group: declared ${j.local} B`));
    out.push(line('', `traffic: ${bytes(j.read_bytes)} read, ${bytes(j.written_bytes)} written`));
    return out.join('');
  }

  function device(run, S) {
    const d = run.dev, j = run.j, out = [head('device schedule   d: the simulated one')];
    out.push(line(d.nwrong ? 'warn' : '', d.summary));
    out.push(line(j.nhazards ? 'warn' : '', `simulated: ${j.length} ticks, ${j.nhazards} hazards in ${j.hazard_threads} threads`));
    out.push(line(d.races ? 'warn' : '', `races: ${d.races} reads that no chain of waits orders`));
    if (d.record) {
      out.push(line('dim', `record ${d.record} (${d.device})`));
      out.push(line('dim', 'a record holds no pixels: the output is simulated'));
    } else {
      out.push(line('dim', `run on ${d.device}`));
    }
    const c = [0, 0, 0, 0], p = S.shownPass;
    for (let id = 0; id < run.passes[p].n; id++) c[run.devState(p, id, S.devTime)]++;
    out.push(line('', `at ${run.devTimeText(S.devTime)}: ${c[3]} done, ${c[2]} running, ${c[1]} waiting`));
    return out.join('');
  }

  function backend(run) {
    const j = run.j, out = [head('device')];
    out.push(line('', j.backend === 'cl' ? `OpenCL: ${j.device}` : 'CPU model'));
    if (j.note) out.push(line('warn', j.note));
    if (j.multi) out.push(line('warn', `${plural(j.multi, 'output pixel', 'output pixels')} changed more than once: the page shows their last value from its tick on`));
    return out.join('');
  }

  function inspectDevice(run, S, p, id) {
    const d = run.dev, g = d.passes[p], k = run.devTicket(p, id), out = [];
    const P = run.passes[p];
    out.push(line('', g.unit[k] >= 0 ? `device: ticket #${k}, unit ${g.unit[k]}, work-group ${g.group[k]}`
                                     : `device: ticket #${k}, lane ${g.lane[k]}, work-group ${g.group[k]}`));
    out.push(line('', d.clock_ns ? `  start ${run.devTimeText(g.start[k])}, wait ${run.devTimeText(g.waited[k])}, end ${run.devTimeText(g.end[k])}`
                                 : `  events ${g.start[k]}, ${g.waited[k]}, ${g.end[k]} (start, wait, end)`));
    const st = run.devState(p, id, S.devTime), wrong = run.devWrong(p, id);
    out.push(line('st' + (wrong && st === 3 ? 4 : st), `  at ${run.devTimeText(S.devTime)}: ${DEV_STATE[st]}${!wrong ? '' : st === 3 ? ', WRONG (not the reference)' : ', wrong when done'}`));
    out.push(line('dim', `simulated: dispatch #${P.dispatch[id]}, depth ${P.depth[id]}, slot ${P.slot[id]}`));
    out.push(line(P.hz[id] ? 'warn' : 'dim', `  ticks ${P.dtick[id]}, ${P.stick[id]}, ${P.etick[id]} (dispatch, start, end)${P.hz[id] ? ', hazard' : ''}`));
    return out.join('');
  }

  function inspector(run, S) {
    const out = [head('inspector')];
    const h = S.hover;
    if (h && h.x >= 0 && h.y >= 0 && h.x < run.W && h.y < run.H) {
      const px = Math.floor(h.x), py = Math.floor(h.y);
      out.push(line('', `pixel (${px},${py})  in ${run.inText(px, py)}  out ${run.outText(px, py, S.tick, S.device)}`));
    }
    const f = S.focus;
    if (!f) {
      out.push(line('dim', 'hover a tile; click to select its thread'));
      return out.join('');
    }
    const p = f.pass, id = f.id, P = run.passes[p];
    out.push(line('', `thread ${xy(run, p, id)} of pass ${p + 1}${S.sel && S.sel.pass === p && S.sel.id === id ? '  [selected]' : ''}`));
    if (S.device) {
      out.push(inspectDevice(run, S, p, id));
    } else {
      const st = run.state(p, id, S.tick);
      out.push(line('', `dispatch #${P.dispatch[id]}, depth ${P.depth[id]}, slot ${P.slot[id]}`));
      out.push(line('', `ticks: dispatched ${P.dtick[id]}, started ${P.stick[id]}, ends ${P.etick[id]}`));
      out.push(line('st' + (P.hz[id] && st >= 2 ? 4 : st), `state at tick ${S.tick}: ${STATE[st]}${P.hz[id] ? ', HAZARD' : ''}`));
    }
    const ws = run.waits(p, id);
    out.push(line('waits', `waits for: ${ws.length ? ws.map((w) => xy(run, p, w)).join(' ') : 'nothing'}`));
    if (ws.length && S.device) {
      const g = run.dev.passes[p], k = run.devTicket(p, id);
      const late = ws.filter((w) => g.end[run.devTicket(p, w)] > g.waited[k]);
      out.push(late.length ? line('warn', `  ended after its wait: ${late.map((w) => xy(run, p, w)).join(' ')}`)
                           : line('', '  all ended before its wait did'));
    } else if (ws.length) {
      out.push(line('', '  all finished at its start tick'));
    }
    const wr = run.waiters(p, id);
    if (wr.length) out.push(line('waiters', `waited for by: ${wr.map((w) => xy(run, p, w)).join(' ')}`));
    if (!S.device) {
      const early = run.earlyReads(p, id);
      if (early.length) out.push(line('warn', `read before they finished: ${early.slice(0, 6).map((q) => xy(run, p, q)).join(' ')}${early.length > 6 ? ' ...' : ''}`));
    }
    return out.join('');
  }

  function ramp(run, S) {
    const p = S.shownPass, P = run.passes[p];
    let mx, what;
    if (S.device && S.overlay === 'depth') {
      run.devRanks(p);
      mx = run.dev.clock_ns ? run.devTimeText(run.dev.passes[p].maxWait) : String(run.dev.passes[p].maxWait);
      what = 'time waiting: from its start to the end of its wait';
    } else if (S.overlay === 'order') {
      mx = String(P.n - 1);
      what = S.device ? "observed order: rank of each group's start on the device" : 'dispatch index (first to last)';
    } else {
      mx = String(P.maxDepth);
      what = 'depth: dependency wave';
    }
    return `<div class="ramp"><span>0</span><i></i><span>${esc(mx)}</span></div>` + line('dim small', what);
  }

  function legend(run, S) {
    const name = S.device ? { depth: 'wait', slot: 'unit' }[S.overlay] || S.overlay : S.overlay;
    const out = [head(`overlay: ${name}   tile grid ${S.grid ? 'on' : 'off'}`)];
    if (S.overlay === 'state') {
      const names = S.device ? DEV_STATE : STATE;
      out.push('<div class="keys">' + names.map((n, i) => `<span><b class="sw st${i}"></b>${esc(n)}</span>`).join('') + '</div>');
      if (S.device) out.push(line('dim small', 'wrong: a finished tile that differs from the reference (hatched)'));
    } else if (S.overlay === 'order' || S.overlay === 'depth') {
      out.push(ramp(run, S));
    } else if (S.overlay === 'slot') {
      out.push(line('', S.device ? `one hue per ${run.dev.units ? 'compute unit' : 'logical lane'} (${run.dev.lanes})` : 'one hue per resident thread slot'));
    } else {
      out.push(line('dim', 'no overlay'));
    }
    return out.join('');
  }

  /* The panel's parts: [top, inspector, legend]. */
  function html(run, S) {
    const j = run.j;
    const top = `<div class="ln acc head title">${esc(j.variant)}  (${esc(j.filter)})</div>` + line('dim', j.summary) +
      '<div class="gap"></div>' + schedule(run, S) + (S.device ? device(run, S) : memory(run)) + backend(run);
    return [top, inspector(run, S), legend(run, S)];
  }

  /* ---- text in its room, the page's layout in words, the printed handout ---- */

  /* s in n characters at most, shortened in its middle. */
  function mid(s, n) {
    if (s.length <= n) return s;
    if (n <= 1) return '\u2026';
    return s.slice(0, Math.ceil((n - 1) / 2)) + '\u2026' + s.slice(s.length - Math.floor((n - 1) / 2));
  }

  /* Shows text in one-line element el (a monospace face): the first of `texts` that fits its
   * room, else the last with `name` in it shortened in its middle (else all of it shortened),
   * the first whole in el's title. */
  function fitMid(el, texts, name) {
    texts = [].concat(texts);
    const fits = (t) => {
      if (el.textContent !== t) el.textContent = t;
      return !t || el.scrollWidth <= el.clientWidth + 1;
    };
    const full = texts[0], k = texts.findIndex(fits);
    el.title = k === 0 ? '' : full;
    if (k >= 0) return;
    const last = texts[texts.length - 1];
    const room = Math.max(1, Math.floor(el.clientWidth / (el.scrollWidth / last.length)));
    const over = last.length - room, at = name ? last.indexOf(name) : -1;
    el.textContent = at >= 0 && name.length - over >= 7
      ? last.slice(0, at) + mid(name, name.length - over) + last.slice(at + name.length) : mid(last, room);
  }

  /* What the tests read of the layout: the panes' titles apart and whole (or shortened, with
   * the full text kept), the status line and the header within their room. */
  function testFields() {
    const $e = (id) => document.getElementById(id), box = (id) => $e(id).getBoundingClientRect();
    const whole = (id) => $e(id).scrollWidth <= $e(id).clientWidth + 1;
    const shortened = ['title', 'title-in', 'title-out'].filter((id) => $e(id).title).map((id) => `${id}=${$e(id).textContent}`);
    const top = $e('top');
    return [`layout=${[box('title-in').right <= box('title-out').left + 0.5 ? 'titles apart' : 'titles overlap',
      whole('title-in') && whole('title-out') && whole('title') ? 'titles whole' : 'titles cut',
      whole('status') && $e('status').getBoundingClientRect().bottom <= box('timeline').top + 0.5 ? 'status whole' : 'status cut',
      top.scrollWidth <= top.clientWidth + 1 ? 'header fits' : 'header overflows'].join(', ')}`,
      `shortened=${shortened.join(' | ')}`,
      `frame=${$e('caption').hidden ? '' : $e('frame-no').textContent}`,
      `caption=${$e('caption').hidden ? '' : $e('caption-text').textContent}`];
  }

  /* A sheet of the printed handout: where it is, the panes' titles, two canvases (the panes and
   * the timeline, drawn by handout()), and the caption. */
  function handoutSheet(h) {
    return `<section class="ho-sheet"><div class="ho-head">${esc(h.head)}</div><div class="ho-sub">${esc(h.sub)}</div>` +
      `<div class="ho-titles"><span>${esc(h.titles[0])}</span><span>${esc(h.titles[1])}</span></div>` +
      `<canvas class="ho-panes"></canvas><canvas class="ho-tl"></canvas>` +
      `<div class="ho-cap">${esc(h.caption)}</div></section>`;
  }

  /* The handout's sheets into el, each drawn from its state (the frame's) as the screen is, at
   * a size for a landscape page: a printed page shows the handout alone (body.handout). */
  function handout(el, sheets) {
    const HW = 960, HH = 400, dpr = 1.5;
    el.innerHTML = sheets.map(handoutSheet).join('');
    const canv = el.querySelectorAll('canvas');
    sheets.forEach((h, k) => {
      const st = h.state, hp = new TsPanes(canv[2 * k]);
      if (st.fitted) {
        const pr = hp.layout(HW, HH)[0];
        st.zoom = Math.min(pr.w / h.r.W, pr.h / h.r.H) * 0.98;
        st.cx = h.r.W / 2;
        st.cy = h.r.H / 2;
      }
      hp.draw(h.r, st, HW, HH, dpr);
      Object.assign(canv[2 * k].style, { width: HW + 'px', height: HH + 'px' });
      const th = st.device ? 190 : 100;
      new TsTimeline(canv[2 * k + 1]).draw(h.r, Object.assign({}, st, { tlHover: null }), HW, th, dpr);
      Object.assign(canv[2 * k + 1].style, { width: HW + 'px', height: th + 'px' });
    });
    document.body.classList.toggle('handout', sheets.length > 0);
  }

  return { html, inspector, legend, esc, line, head, plural, mid, fitMid, testFields, handout };
})();
