/* A variant's split view on the page (export --split SPEC), as the window's viewer_split.c and
 * draw_split.c show it: two runs of one input side by side on one tick, the right's settings
 * the left's changed as SPEC says. Each half is a TsRun of its own (model.js, instantiated
 * twice) drawn by the single view's code: its output pane with its overlay, focus and labels
 * (draw_panes.js, a TsPanes a half), its occupancy row (draw_timeline.js, one row each on the
 * longer run's scale), its inspector (panel.js); each half's tick is the slider's, clamped to
 * its own run. The panel says what differs and how each run went. Reads the page's state
 * (page.js), changes none of it. */
'use strict';

/* The left run with the right as its twin: its clock the longer of the two (page.js steps
 * and plays it as any run's), its own length in `own`. */
class TsSplitRun extends TsRun {
  constructor(j, input, right, spec) {
    super(j, input);
    this.twin = new TsRun(right, input);
    this.spec = spec;
  }

  set length(v) { this.own = v; }

  get length() { return this.twin ? Math.max(this.own, this.twin.length) : this.own; }

  load() {
    super.load();
    this.twin.load();
  }
}

const tsSplit = (() => {
  /* Each half as [run, its state]: the page's state with the tick clamped to the half's run,
   * its pass, and its focus (the thread under the hovered point in that run, else the one
   * under the selected thread's tile). */
  function halves(run, S) {
    return [[run, run.own], [run.twin, run.twin.length]].map(([r, len], k) => {
      const h = Object.create(S);
      h.tick = Math.min(S.tick, len);
      h.device = false;
      h.shownPass = r.passAtTick(h.tick);
      h.side = k;
      const p = h.shownPass, hov = S.hover ? r.threadAt(p, S.hover.x, S.hover.y) : -1;
      let sel = null;
      if (S.sel && S.sel.pass < run.passes.length) {
        const t = run.tile(S.sel.pass, S.sel.id), id = r.threadAt(p, t.x + t.w / 2, t.y + t.h / 2);
        sel = k === 0 ? (S.sel.pass === p ? S.sel : null) : id >= 0 ? { pass: p, id } : null;
      }
      h.sel = sel;
      h.focus = hov >= 0 ? { pass: p, id: hov } : sel;
      return [r, h];
    });
  }

  /* The settings in which the two runs differ, for each: ['pattern none', ...]. */
  function differs(a, b) {
    const keys = [['variant', ''], ['pattern', ''], ['walk', ''], ['slots', ' slots'], ['cost', ' ticks a thread']];
    const out = [[], []], own = (r) => r.j.walk === r.j.own_walk;
    for (const [k, unit] of keys) {
      if (a.j[k] === b.j[k]) continue;
      if (k === 'walk' && a.j.pattern !== b.j.pattern && own(a) && own(b)) continue; // the pattern's own
      out[0].push(unit ? `${a.j[k]}${unit}` : `${k} ${a.j[k]}`);
      out[1].push(unit ? `${b.j[k]}${unit}` : `${k} ${b.j[k]}`);
    }
    if (!out[0].length) out.forEach((o) => o.push('the same settings'));
    return out;
  }

  /* A half in words: what differs, its ticks and hazards. */
  function words(run) {
    const d = differs(run, run.twin);
    return [run, run.twin].map((r, k) => {
      const n = r.j.nhazards;
      return `${d[k].join(', ')}, ${r.j.length} ticks, ${n ? tsPanel.plural(n, 'hazard', 'hazards') : 'no hazards'}`;
    });
  }

  /* Output pixels whose values differ between the two runs' ends (the same size: one input). */
  function outDiffer(run) {
    if (run.outDiffer !== undefined) return run.outDiffer;
    const a = run, b = run.twin, n = a.W * a.H;
    let c = 0;
    if (a.W !== b.W || a.H !== b.H || !!a.outSums !== !!b.outSums || a.j.C !== b.j.C) c = -1;
    else if (a.outSums) for (let i = 0; i < n; i++) c += a.outSums[i] !== b.outSums[i] ? 1 : 0;
    else {
      const C = a.j.C;
      for (let i = 0; i < n; i++)
        for (let k = 0; k < C; k++) if (a.outVals[i * C + k] !== b.outVals[i * C + k]) { c++; break; }
    }
    run.outDiffer = c;
    return c;
  }

  /* Each half of the panes' canvas hashed (the tests: both drawn, each with its tick). */
  function halfHashes(c) {
    const ctx = c.getContext('2d'), half = Math.floor(c.width / 2), out = [];
    for (const [x0, x1] of [[0, half - 2], [half + 2, c.width]]) {
      const px = ctx.getImageData(x0, 0, Math.max(1, x1 - x0), c.height).data;
      let h = 0x811c9dc5;
      for (let i = 0; i < px.length; i++) h = Math.imul(h ^ px[i], 0x01000193) >>> 0;
      out.push(h.toString(16).padStart(8, '0'));
    }
    return out.join(',');
  }

  return { halves, differs, words, outDiffer, halfHashes };
})();

/* One half's pane: the single view's output pane (pane 1) laid out in the half's rectangle. */
class TsHalfPanes extends TsPanes {
  constructor(canvas, side) {
    super(canvas);
    this.side = side;
  }

  layout(w, h) {
    const r = super.layout(w, h)[this.side];
    return [r, r];
  }
}

/* The split panes: the left run's output on the left, the right's on the right, each with its
 * overlay, tile grid, labels, pixel values and focused thread; one zoom and pan for both. */
class TsSplitPanes extends TsPanes {
  constructor(canvas) {
    super(canvas);
    this.halfPanes = [new TsHalfPanes(canvas, 0), new TsHalfPanes(canvas, 1)];
  }

  draw(run, S, w, h, dpr) {
    super.draw(null, S, w, h, dpr); // the canvas's size and background
    if (!run) return;
    const ctx = this.ctx, rs = this.layout(w, h);
    ctx.fillStyle = '#2a2e36';
    ctx.fillRect(rs[0].x + rs[0].w, 0, rs[1].x - rs[0].x - rs[0].w, h);
    tsSplit.halves(run, S).forEach(([r, hs], k) => {
      const hp = this.halfPanes[k], p = hs.shownPass;
      Object.assign(hp, { cw: w, ch: h, dpr });
      hp.updateImages(r, hs, p);
      ctx.save();
      ctx.beginPath();
      ctx.rect(rs[k].x, rs[k].y, rs[k].w, rs[k].h);
      ctx.clip();
      hp.drawImage(hs, 1, hp.img.out, r);
      hp.drawOverlay(r, hs, p);
      hp.drawPixelGrid(r, hs, 1, rs[k]);
      hp.drawLabels(r, hs, p, rs[k]);
      hp.drawFocus(r, hs, p, 1);
      ctx.restore();
    });
  }
}

/* The split timeline: a row for each run's occupancy, on the longer run's ticks (one slider
 * for both), each with its cursor at its own clamped tick and its run named. */
class TsSplitTimeline extends TsTimeline {
  draw(run, S, w, h, dpr) {
    super.draw(null, S, w, h, dpr);
    if (!run) return;
    const ctx = this.ctx, rowH = Math.floor(h / 2), names = tsSplit.differs(run, run.twin);
    tsSplit.halves(run, S).forEach(([r, hs], k) => {
      ctx.save();
      ctx.translate(0, k * rowH);
      ctx.beginPath();
      ctx.rect(0, 0, w, rowH);
      ctx.clip();
      ctx.font = '11px "DejaVu Sans Mono", monospace';
      this.row = `${k ? 'right' : 'left'}: ${names[k].join(', ')}, tick ${hs.tick} of ${r === run ? run.own : r.length}`;
      /* the scale of the longer run: a tick is at the same x in both rows */
      this.drawSim(Object.create(r, { length: { value: run.length } }), hs, w, rowH);
      ctx.restore();
    });
    this.row = null;
  }

  /* A row's caption names its run first. */
  caption(texts, x, y, w) {
    super.caption(this.row ? [`${this.row}   ${texts[1]}`, this.row] : texts, x, y, w);
  }
}

/* The split view's panel: what differs and how each run went, the outputs compared, then the
 * left run's (the variant, its schedule); the inspector of both runs for the hovered pixel;
 * the overlay's legend. */
const tsSplitPanel = (() => {
  const { esc, line, head } = tsPanel;

  function html(run, S) {
    const [[l, hl], [r, hr]] = tsSplit.halves(run, S), w = tsSplit.words(run), n = tsSplit.outDiffer(run);
    const top = [`<div class="ln acc head title">${esc(l.j.variant)}  (${esc(l.j.filter)})   split ${esc(run.spec)}</div>`,
      line(l.j.nhazards ? 'warn' : '', `left: ${w[0]}`), line(r.j.nhazards ? 'warn' : '', `right: ${w[1]}`),
      line('dim', n < 0 ? 'the outputs are not of one shape'
                        : n ? `the outputs at the end differ at ${tsPanel.plural(n, 'pixel', 'pixels')}` : 'the same output at the end')].join('');
    const insp = [tsPanel.inspector(l, hl).replace('>inspector<', '>inspector: left<'),
      tsPanel.inspector(r, hr).replace('>inspector<', '>inspector: right<')].join('');
    /* the left run's own block (its variant, pass, schedule, memory) under the inspectors */
    return [top, insp, tsPanel.legend(l, hl), head('the left run') + tsPanel.html(l, hl)[0]];
  }

  /* The panes' titles: each half's run and its tick. */
  function titles(run, S) {
    const d = tsSplit.differs(run, run.twin);
    return tsSplit.halves(run, S).map(([r, h], k) =>
      `${k ? 'right' : 'left'}: ${d[k].join(', ')}, tick ${h.tick} / ${k ? r.length : run.own}`);
  }

  /* The tests' fields: the split in words, the right half's tick, states and output, each
   * half's pixels, the titles; then the page's layout. */
  function testFields(run, S) {
    const [, [r, h]] = tsSplit.halves(run, S), P = r.passes[h.shownPass], w = tsSplit.words(run);
    let states = '';
    for (let id = 0; id < P.n; id++) {
      const st = r.state(h.shownPass, id, h.tick);
      states += st >= 2 && P.hz[id] > 0 ? 'h' : 'pwrd'[st];
    }
    const $e = (id) => document.getElementById(id);
    return [`split=left: ${w[0]}; right: ${w[1]}`, `tick1=${Math.min(S.tick, run.own)}`, `length1=${run.own}`,
      `tick2=${h.tick}`, `length2=${r.length}`, `states2=${states}`, `out2=${r.outHash(h.tick)}`,
      `focus2=${h.focus ? r.xy(h.focus.pass, h.focus.id).join(',') : 'none'}`,
      `halves=${tsSplit.halfHashes($e('panes'))}`,
      `titles=${$e('title-in').textContent} | ${$e('title-out').textContent}`, ...tsPanel.testFields()];
  }

  return { html, titles, testFields };
})();
