/* Drawing the timeline under the panes, as the window's draw_timeline.c does: the simulated
 * run's occupancy over ticks (green running, brown resident and waiting) with the passes'
 * bounds and the cursor. In the device view, over a window of device time that the page zooms
 * and pans (S.tl; the whole run when it has none): an overview of the run with the window
 * marked, the groups in flight, and one lane per compute unit (or logical lane), labelled,
 * each column the share of time its groups ran and waited; zoomed in, each group's bar apart
 * and its ticket written; at least 8 pixels a lane, so that a device of many units scrolls its
 * lanes (S.tl.lane0); the focused group's bar outlined, the hovered lane lit with the group it
 * names (S.tlHover). Also maps a point to a tick, a device time or a lane, and works out the
 * window that a zoom or a pan gives; it changes none of the page's state. */
'use strict';

class TsTimeline {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.gantt = null;
    this.cw = 800;
    this.ch = 100;
  }

  /* The graph's rectangles: [x, width], and in the device view the overview's, the flight
   * graph's and the lanes' rows (left of gx, the lanes' labels). */
  geometry(w, h, device) {
    if (!device) {
      const gx = 10, gw = Math.max(1, Math.floor(w - 20));
      return { gx, gw, gy: 6, gh: Math.max(1, h - 26) };
    }
    const gx = 58, gw = Math.max(1, Math.floor(w - gx - 10)), oy = 3, oh = 6, fy = 14, fh = 38, ly = fy + fh + 5;
    return { gx, gw, oy, oh, fy, fh, ly, lh: Math.max(8, Math.floor(h - 20 - ly)) };
  }

  /* The device time shown: the page's window for this run, or all of it. */
  window(run, S) {
    const tl = S.tl, te = Math.max(1, run.dev.t_end);
    if (tl && tl.run === run) return tl;
    return { run, t0: 0, t1: te, lane0: 0 };
  }

  /* The lanes' rows: their height, how many show, and the first shown. */
  rows(run, S, g) {
    const L = Math.max(1, run.dev.lanes), fit = g.lh / L >= 8;
    const rowH = fit ? g.lh / L : 8, shown = fit ? L : Math.max(1, Math.floor(g.lh / 8));
    const lane0 = Math.max(0, Math.min(L - shown, Math.round(this.window(run, S).lane0 || 0)));
    return { L, rowH, shown, lane0 };
  }

  /* Whether the window is less than the run or the lanes scroll: a drag on them pans. */
  pans(run, S) {
    const g = this.geometry(this.cw, this.ch, true), w = this.window(run, S), rw = this.rows(run, S, g);
    return w.t0 > 0 || w.t1 < Math.max(1, run.dev.t_end) || rw.shown < rw.L;
  }

  /* The tick or device time at screen x. */
  valueAt(run, S, x) {
    const g = this.geometry(this.cw, this.ch, S.device), f = Math.min(1, Math.max(0, (x - g.gx) / g.gw));
    if (!S.device) return Math.round(f * run.length);
    const w = this.window(run, S);
    return Math.round(w.t0 + f * (w.t1 - w.t0));
  }

  /* Screen x of tick or device time v. */
  xOf(run, S, v) {
    const g = this.geometry(this.cw, this.ch, S.device);
    if (!S.device) return g.gx + g.gw * v / Math.max(1, run.length);
    const w = this.window(run, S);
    return g.gx + g.gw * (v - w.t0) / Math.max(1e-9, w.t1 - w.t0);
  }

  /* The lane of screen y in the device view, or -1. */
  laneAt(run, S, y) {
    const g = this.geometry(this.cw, this.ch, true), rw = this.rows(run, S, g);
    if (y < g.ly || y >= g.ly + rw.shown * rw.rowH) return -1;
    return rw.lane0 + Math.floor((y - g.ly) / rw.rowH);
  }

  /* Screen y of the middle of lane l's row, or -1 when it does not show. */
  laneY(run, S, l) {
    const g = this.geometry(this.cw, this.ch, true), rw = this.rows(run, S, g), i = l - rw.lane0;
    return i < 0 || i >= rw.shown ? -1 : g.ly + (i + 0.5) * rw.rowH;
  }

  /* What is under a screen point of the lanes: {lane, e: [pass, ticket] or null}, or null. */
  hit(run, S, x, y) {
    const lane = this.laneAt(run, S, y), g = this.geometry(this.cw, this.ch, true);
    if (lane < 0 || x < g.gx || x > g.gx + g.gw) return null;
    const w = this.window(run, S), perPx = (w.t1 - w.t0) / g.gw;
    return { lane, x, y, e: run.devGroupAt(lane, this.valueAt(run, S, x), 3 * perPx) };
  }

  /* The window zoomed by f (over 1: in) about screen x (or the cursor where it shows, else
   * the window's middle). */
  zoomed(run, S, f, x) {
    const g = this.geometry(this.cw, this.ch, true), w = this.window(run, S), te = Math.max(1, run.dev.t_end);
    const cur = (S.devTime - w.t0) / Math.max(1e-9, w.t1 - w.t0);
    const fx = x !== undefined ? Math.min(1, Math.max(0, (x - g.gx) / g.gw)) : cur >= 0 && cur <= 1 ? cur : 0.5;
    const at = w.t0 + fx * (w.t1 - w.t0), least = Math.min(te, Math.max(8, te / 20000));
    const span = Math.min(te, Math.max(least, (w.t1 - w.t0) / f));
    const t0 = Math.max(0, Math.min(te - span, at - fx * span));
    return { run, t0, t1: t0 + span, lane0: w.lane0 || 0 };
  }

  /* The window `from` moved by dx screen pixels of time and dy of lanes (a drag's way). */
  panned(run, S, from, dx, dy) {
    const g = this.geometry(this.cw, this.ch, true), te = Math.max(1, run.dev.t_end), span = from.t1 - from.t0;
    const rw = this.rows(run, S, g);
    const t0 = Math.max(0, Math.min(te - span, from.t0 - dx * span / g.gw));
    const lane0 = Math.max(0, Math.min(rw.L - rw.shown, (from.lane0 || 0) - dy / rw.rowH));
    return { run, t0, t1: t0 + span, lane0 };
  }

  /* The device view's lanes in words, for the page's test summary. */
  summary(run, S) {
    const g = this.geometry(this.cw, this.ch, true), rw = this.rows(run, S, g), w = this.window(run, S);
    const h = S.tlHover, name = run.dev.units ? 'unit' : 'logical lane';
    return `${rw.L} by ${name}, rows ${rw.lane0}..${rw.lane0 + rw.shown - 1} of ${Math.round(rw.rowH)} px, ` +
           `window ${Math.round(w.t0)}..${Math.round(w.t1)} of ${run.dev.t_end}` +
           (h ? `, hover ${this.hoverText(run, h).join(' ')}` : '');
  }

  /* A hovered lane's words: the lane, and the group it names. */
  hoverText(run, h) {
    const d = run.dev, lane = `${d.units ? 'compute unit' : 'lane'} ${h.lane}`;
    if (!h.e) return [`${lane}: no group here`];
    const [p, k] = h.e, g = d.passes[p], id = run.devThread(p, k), t = (v) => run.devTimeText(v);
    const tile = id >= 0 ? ` tile (${run.xy(p, id).join(',')})` : '';
    return [`${lane}: ticket #${k}${d.passes.length > 1 ? ` of pass ${p + 1}` : ''},${tile}, work-group ${g.group[k]}`,
            `${t(g.start[k])} .. ${t(g.end[k])}, waited ${t(g.waited[k] - g.start[k])}`];
  }

  draw(run, S, w, h, dpr) {
    const ctx = tsCanvasStart(this, w, h, dpr);
    if (!run) return;
    ctx.font = '11px "DejaVu Sans Mono", monospace';
    if (S.device) this.drawDevice(run, S, w, h, dpr);
    else this.drawSim(run, S, w, h);
  }

  /* The first of the texts that fits the width (the last cut), at the bottom line. */
  caption(texts, x, y, w) {
    const ctx = this.ctx;
    let s = texts.find((t) => ctx.measureText(t).width <= w) || texts[texts.length - 1];
    while (s.length > 4 && ctx.measureText(s).width > w) s = s.slice(0, -2);
    ctx.fillStyle = tsColors.dim;
    ctx.fillText(s, x, y);
  }

  drawSim(run, S, w, h) {
    const ctx = this.ctx, g = this.geometry(w, h, false), L = Math.max(1, run.length);
    ctx.fillStyle = '#24262e';
    ctx.fillRect(g.gx, g.gy, g.gw, g.gh);
    const peak = Math.max(1, run.j.peak);
    for (let i = 0; i < g.gw; i++) {
      const o = run.occupancy(Math.floor(i / g.gw * run.length));
      const hr = g.gh * o.resident / peak, hu = g.gh * o.running / peak;
      ctx.fillStyle = '#59471f';
      ctx.fillRect(g.gx + i, g.gy + g.gh - hr, 1, hr);
      ctx.fillStyle = '#33bf4d';
      ctx.fillRect(g.gx + i, g.gy + g.gh - hu, 1, hu);
    }
    ctx.fillStyle = tsColors.accent;
    for (let p = 1; p < run.passes.length; p++) {
      const x = g.gx + g.gw * run.passes[p].t_begin / L;
      ctx.fillRect(x, g.gy - 4, 1, g.gh + 8);
      ctx.fillText('pass ' + (p + 1), x + 3, g.gy + 10);
    }
    const cx = g.gx + g.gw * S.tick / L;
    ctx.fillStyle = '#fff';
    ctx.fillRect(cx - 1, g.gy - 4, 2, g.gh + 8);
    this.caption(['occupancy: green running, brown resident and waiting; click or drag to scrub',
                  'occupancy: green running, brown resident and waiting', 'green running, brown waiting'],
                 g.gx, h - 6, w - 2 * g.gx);
  }

  /* Per column of the window the share of its time the groups ran and waited: in each shown
   * lane (the rows' picture), and in all (the flight graph). Made again when the window, the
   * rows or the size change. */
  buildGantt(run, W, g, win, rw) {
    const d = run.dev, rows = rw.shown, H = Math.max(1, Math.round(rows * rw.rowH));
    const col = (win.t1 - win.t0) / W, cell = new Float32Array(rows * W * 2), flight = new Float32Array(W * 2);
    const cover = (arr, base, a, b, k) => {
      a = Math.max(a, win.t0);
      b = Math.min(b, win.t1);
      if (b <= a) return;
      const c0 = Math.max(0, Math.floor((a - win.t0) / col)), c1 = Math.min(W - 1, Math.floor((b - win.t0) / col));
      for (let c = c0; c <= c1; c++) {
        const lo = Math.max(a, win.t0 + c * col), hi = Math.min(b, win.t0 + (c + 1) * col);
        if (hi > lo) arr[(base + c) * 2 + k] += (hi - lo) / col;
      }
    };
    const lanes = run.devLanes();
    for (let l = 0; l < lanes.length; l++) {
      const row = l - rw.lane0, shown = row >= 0 && row < rows;
      for (const [p, k] of lanes[l]) {
        const q = d.passes[p];
        if (q.end[k] < win.t0 || q.start[k] > win.t1) continue;
        cover(flight, 0, q.start[k], q.waited[k], 1);
        cover(flight, 0, q.waited[k], q.end[k], 0);
        if (!shown) continue;
        cover(cell, row * W, q.start[k], q.waited[k], 1);
        cover(cell, row * W, q.waited[k], q.end[k], 0);
      }
    }
    let peak = 0, fpeak = 0;
    for (let i = 0; i < rows * W; i++) peak = Math.max(peak, cell[i * 2] + cell[i * 2 + 1]);
    for (let c = 0; c < W; c++) fpeak = Math.max(fpeak, flight[c * 2] + flight[c * 2 + 1]);
    const img = new ImageData(W, H), px = img.data;
    const bg = [0.14, 0.15, 0.18], runc = [0.2, 0.8, 0.32], waitc = [0.85, 0.55, 0.12];
    for (let y = 0; y < H; y++) {
      const row = Math.min(rows - 1, Math.floor(y / rw.rowH));
      const gap = rw.rowH >= 5 && Math.floor((y + 1) / rw.rowH) !== row;
      for (let c = 0; c < W; c++) {
        const e = (row * W + c) * 2, r = cell[e], wt = cell[e + 1], o = (y * W + c) * 4;
        const inten = peak > 0 ? Math.min(1, (r + wt) / peak) : 0;
        for (let k = 0; k < 3; k++) {
          const fg = r + wt > 0 ? (runc[k] * r + waitc[k] * wt) / (r + wt) : bg[k];
          const v = gap ? bg[k] * 0.6 : bg[k] + (fg - bg[k]) * (inten > 0 ? 0.35 + 0.65 * inten : 0);
          px[o + k] = Math.round(Math.min(1, v) * 255);
        }
        px[o + 3] = 255;
      }
    }
    const canvas = document.createElement('canvas');
    canvas.width = W;
    canvas.height = H;
    canvas.getContext('2d').putImageData(img, 0, 0);
    this.gantt = { run, key: `${W}/${H}/${win.t0}/${win.t1}/${rw.lane0}/${rw.rowH}`, canvas, flight, fpeak };
  }

  drawDevice(run, S, w, h) {
    const ctx = this.ctx, g = this.geometry(w, h, true), d = run.dev, te = Math.max(1, d.t_end);
    const win = this.window(run, S), rw = this.rows(run, S, g), span = Math.max(1e-9, win.t1 - win.t0);
    const X = (t) => g.gx + g.gw * (t - win.t0) / span;
    if (!this.gantt || this.gantt.run !== run || this.gantt.key !== `${g.gw}/${Math.max(1, Math.round(rw.shown * rw.rowH))}/${win.t0}/${win.t1}/${rw.lane0}/${rw.rowH}`)
      this.buildGantt(run, g.gw, g, win, rw);
    const gt = this.gantt;
    /* the overview: the whole run, the window on it, the cursor */
    ctx.fillStyle = '#2b2f38';
    ctx.fillRect(g.gx, g.oy, g.gw, g.oh);
    ctx.fillStyle = '#4b6f94';
    const wx0 = g.gx + g.gw * win.t0 / te, wx1 = g.gx + g.gw * win.t1 / te;
    ctx.fillRect(wx0, g.oy, Math.max(2, wx1 - wx0), g.oh);
    ctx.fillStyle = '#fff';
    ctx.fillRect(g.gx + g.gw * S.devTime / te - 0.5, g.oy - 1, 1.5, g.oh + 2);
    /* the groups in flight over the window */
    ctx.fillStyle = '#24262e';
    ctx.fillRect(g.gx, g.fy, g.gw, g.fh);
    const scale = gt.fpeak > 0 ? gt.fpeak : 1;
    for (let c = 0; c < g.gw; c++) {
      const runv = gt.flight[c * 2], all = runv + gt.flight[c * 2 + 1];
      const ha = g.fh * all / scale, hr = g.fh * runv / scale;
      ctx.fillStyle = '#59471f';
      ctx.fillRect(g.gx + c, g.fy + g.fh - ha, 1, ha);
      ctx.fillStyle = '#33bf4d';
      ctx.fillRect(g.gx + c, g.fy + g.fh - hr, 1, hr);
    }
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(gt.canvas, g.gx, g.ly);
    this.drawGroups(run, S, g, win, rw, X);
    ctx.save();
    ctx.beginPath();
    ctx.rect(g.gx, 0, g.gw, h);
    ctx.clip();
    ctx.fillStyle = tsColors.accent;
    for (let p = 1; p < d.passes.length; p++) {
      const x = X(d.passes[p - 1].endMax);
      ctx.fillRect(x, g.fy - 2, 1, g.ly + rw.shown * rw.rowH - g.fy + 2);
      ctx.fillText('pass ' + (p + 1), x + 3, g.fy + 10);
    }
    const f = S.focus;
    if (f && f.pass === S.shownPass) {
      const k = run.devTicket(f.pass, f.id), gp = d.passes[f.pass], y = this.laneY(run, S, Math.max(0, gp.lane[k]));
      if (y >= 0) {
        const x0 = X(gp.start[k]), x1 = X(gp.end[k]);
        ctx.strokeStyle = '#fff';
        ctx.lineWidth = 1;
        ctx.strokeRect(x0 - 1.5, y - rw.rowH / 2 - 1.5, Math.max(x1 - x0, 1) + 3, rw.rowH + 3);
      }
    }
    const cx = X(S.devTime);
    ctx.fillStyle = '#fff';
    ctx.fillRect(cx - 1, g.fy - 2, 2, g.ly + rw.shown * rw.rowH - g.fy + 2);
    ctx.restore();
    this.drawLabels(run, S, g, rw);
    if (S.tlHover && S.tlHover.run === run) this.drawHover(run, S, g, rw, X, w);
    const unit = d.units ? 'compute unit' : 'logical lane', zoom = te / span;
    const where = `${zoom > 1.01 ? `zoom ${zoom < 10 ? zoom.toFixed(1) : Math.round(zoom)}x, ` : ''}` +
                  `${rw.shown < rw.L ? `lanes ${rw.lane0}-${rw.lane0 + rw.shown - 1} of ${rw.L}` : `${rw.L} lanes`}`;
    this.caption([
      `groups in flight (green past their wait, brown waiting); one lane per ${unit}, ${where}${d.clock_ns ? '' : ', logical clock'}; wheel zooms, drag pans, click scrubs`,
      `in flight: green past their wait, brown waiting; a lane per ${unit}, ${where}; wheel zooms, drag pans`,
      `a lane per ${unit}, ${where}; wheel zooms, drag pans`, where],
    g.gx, h - 6, w - g.gx - 10);
  }

  /* Zoomed in far enough, each group's bar apart (a dark edge at its start) and, where it is
   * wide enough, its ticket. */
  drawGroups(run, S, g, win, rw, X) {
    const ctx = this.ctx, d = run.dev, lanes = run.devLanes();
    ctx.save();
    ctx.beginPath();
    ctx.rect(g.gx, g.ly, g.gw, rw.shown * rw.rowH);
    ctx.clip();
    ctx.font = '10px "DejaVu Sans Mono", monospace';
    ctx.textBaseline = 'middle';
    for (let i = 0; i < rw.shown; i++) {
      const l = rw.lane0 + i, y0 = g.ly + i * rw.rowH;
      for (const [p, k] of lanes[l] || []) {
        const q = d.passes[p];
        if (q.end[k] < win.t0 || q.start[k] > win.t1) continue;
        const x0 = X(q.start[k]), x1 = X(q.end[k]);
        if (x1 - x0 < 4) continue;
        ctx.fillStyle = 'rgba(23, 26, 31, 0.9)';
        ctx.fillRect(Math.round(x0), y0, 1, Math.max(1, rw.rowH - 1));
        const s = `#${k}`;
        if (rw.rowH >= 11 && x1 - x0 >= ctx.measureText(s).width + 6) {
          ctx.fillStyle = 'rgba(0, 0, 0, 0.75)';
          ctx.fillText(s, Math.max(x0, g.gx) + 3.5, y0 + rw.rowH / 2 + 0.5);
          ctx.fillStyle = '#fff';
          ctx.fillText(s, Math.max(x0, g.gx) + 3, y0 + rw.rowH / 2);
        }
      }
    }
    ctx.restore();
  }

  /* Each shown lane's name left of it (every few where the rows are thin), a scroll mark. */
  drawLabels(run, S, g, rw) {
    const ctx = this.ctx, d = run.dev, every = Math.ceil(11 / rw.rowH), hov = S.tlHover && S.tlHover.run === run ? S.tlHover.lane : -1;
    ctx.font = '10px "DejaVu Sans Mono", monospace';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    for (let i = 0; i < rw.shown; i++) {
      const l = rw.lane0 + i;
      if (l % every !== 0 && l !== hov) continue;
      ctx.fillStyle = l === hov ? tsColors.accent : tsColors.dim;
      ctx.fillText(`${d.units ? 'cu' : 'lane'} ${l}`, g.gx - 6, g.ly + (i + 0.5) * rw.rowH);
    }
    ctx.textAlign = 'start';
    ctx.textBaseline = 'alphabetic';
    if (rw.shown < rw.L) {
      const th = rw.shown * rw.rowH, bar = Math.max(6, th * rw.shown / rw.L), y = g.ly + (th - bar) * rw.lane0 / (rw.L - rw.shown);
      ctx.fillStyle = '#454a56';
      ctx.fillRect(g.gx + g.gw + 3, g.ly, 3, th);
      ctx.fillStyle = tsColors.accent;
      ctx.fillRect(g.gx + g.gw + 3, y, 3, bar);
    }
  }

  /* The hovered lane lit, its group outlined and named in a box by the pointer. */
  drawHover(run, S, g, rw, X, w) {
    const ctx = this.ctx, hv = S.tlHover, y = this.laneY(run, S, hv.lane);
    if (y < 0) return;
    ctx.fillStyle = 'rgba(255, 255, 255, 0.10)';
    ctx.fillRect(g.gx, y - rw.rowH / 2, g.gw, rw.rowH);
    if (hv.e) {
      const q = run.dev.passes[hv.e[0]], k = hv.e[1], x0 = Math.max(g.gx, X(q.start[k])), x1 = Math.min(g.gx + g.gw, X(q.end[k]));
      ctx.strokeStyle = tsColors.accent;
      ctx.lineWidth = 1.5;
      ctx.strokeRect(x0 - 1, y - rw.rowH / 2 - 1, Math.max(1, x1 - x0) + 2, rw.rowH + 2);
    }
    const lines = this.hoverText(run, hv);
    ctx.font = '11px "DejaVu Sans Mono", monospace';
    const bw = Math.max(...lines.map((s) => ctx.measureText(s).width)) + 12, bh = lines.length * 14 + 6;
    const bx = Math.max(2, Math.min(w - bw - 2, hv.x + 12));
    const by = hv.y - bh - 8 >= 0 ? hv.y - bh - 8 : hv.y + 14;
    ctx.fillStyle = 'rgba(23, 26, 31, 0.95)';
    ctx.fillRect(bx, by, bw, bh);
    ctx.strokeStyle = '#454a56';
    ctx.lineWidth = 1;
    ctx.strokeRect(bx + 0.5, by + 0.5, bw - 1, bh - 1);
    ctx.fillStyle = '#fff';
    lines.forEach((s, i) => ctx.fillText(s, bx + 6, by + 15 + i * 14));
  }
}
