/* Drawing a plain kernel's run, as the window's draw_plain.c does, on the built-in page's
 * panes and timeline (TsPanes, TsTimeline: their layout, clock and helpers): the input and
 * the output each at its own size (one zoom; the input's centre where the output's is, in
 * proportion), the output as it stands at the tick; over it each work-group's tile (what it
 * wrote) by its state at the tick (not started, running, past a barrier, ended: clean, orange
 * or red by its findings) or its start order, a red square at each element a finding names;
 * the focused group's footprint on the input (what it read, and its declared tile and halo)
 * and its tile on the output. The timeline is the pass's groups over its clock: those running
 * above, and below a Gantt chart, one bar a group from its start to its end packed into lanes,
 * its barriers ticked. A finding hovered or selected in the panel (or a source line) outlines
 * the groups it names on the output and their bars and running intervals on the timeline. In a
 * split view (two orders of one kernel) the panes are the two runs' outputs, each with its
 * overlay, and the timeline a row each. Reads the page's state, changes nothing. */
'use strict';

const tsPlainColors = {
  pending: 'rgba(204, 214, 235, 0.12)', running: '#ffdb1f', barrier: '#c77aff',
  tint: ['rgba(204, 214, 235, 0.30)', '#ff9919', '#f72a1f'], done: '#4d80f2',
  bar: ['#4d80f2', '#ff9919', '#f72a1f'],
  mark: { a: '#ff5a48', b: '#40e6ff', l: '#ffe633' },
};

/* rgba() of a #rrggbb colour at alpha a. */
function tsAlpha(hex, a) {
  const v = parseInt(hex.slice(1), 16);
  return `rgba(${v >> 16}, ${(v >> 8) & 255}, ${v & 255}, ${a})`;
}

class TsPlainPanes extends TsPanes {
  /* A pane's image: its size and the image point at the pane's centre. */
  paneImage(S, pane) {
    const r = this.run;
    if (pane === 1 || !r) return { w: r ? r.W : 1, h: r ? r.H : 1, cx: S.cx, cy: S.cy };
    return { w: r.inW, h: r.inH, cx: S.cx * r.inW / r.W, cy: S.cy * r.inH / r.H };
  }

  toScreen(S, pane, x, y) {
    const r = this.layout(this.cw, this.ch)[pane], m = this.paneImage(S, pane);
    return [r.x + r.w / 2 + (x - m.cx) * S.zoom, r.y + r.h / 2 + (y - m.cy) * S.zoom];
  }

  toImage(S, sx, sy) {
    const rs = this.layout(this.cw, this.ch);
    for (let pane = 0; pane < 2; pane++) {
      const r = rs[pane], m = this.paneImage(S, pane);
      if (sx >= r.x && sx < r.x + r.w && sy >= r.y && sy < r.y + r.h)
        return { pane, x: m.cx + (sx - r.x - r.w / 2) / S.zoom, y: m.cy + (sy - r.y - r.h / 2) / S.zoom };
    }
    return null;
  }

  draw(run, S, w, h, dpr) {
    this.run = run;
    if (!run || !run.split) {
      super.draw(run, S, w, h, dpr);
      return;
    }
    const ctx = tsCanvasStart(this, w, h, dpr);
    const p = S.shownPass;
    this.updateImages(run, S);
    const rs = this.layout(w, h);
    ctx.fillStyle = '#2a2e36';
    ctx.fillRect(rs[0].x + rs[0].w, 0, rs[1].x - rs[0].x - rs[0].w, h);
    /* each half its run: the left's output, overlay and focus, the right's */
    for (let pane = 0; pane < 2; pane++) {
      const r = pane ? run.twin : run;
      ctx.save();
      ctx.beginPath();
      ctx.rect(rs[pane].x, rs[pane].y, rs[pane].w, rs[pane].h);
      ctx.clip();
      this.drawImage(S, pane, pane ? this.img.out : this.img.in);
      this.drawOverlay(r, S, p, pane);
      this.drawPixelGrid(r, S, pane, rs[pane], true);
      this.drawLabels(r, S, p, rs[pane], pane);
      this.drawOutFocus(r, S, p, pane);
      ctx.restore();
    }
  }

  updateImages(run, S) {
    if (run.split) { /* the two runs' outputs at the tick */
      const key = `${S.run}/${run.pass}/${S.tick}/split`;
      if (this.key.out !== key) {
        for (const [img, r] of [[this.img.in, run], [this.img.out, run.twin]]) {
          const ctx = this.sized(img, r.W, r.H), id = ctx.createImageData(r.W, r.H);
          r.outputAt(S.tick, new Uint32Array(id.data.buffer));
          ctx.putImageData(id, 0, 0);
        }
        this.key.out = key;
        this.key.in = null;
      }
      return;
    }
    if (this.key.in !== run) {
      const ctx = this.sized(this.img.in, run.inW, run.inH), id = ctx.createImageData(run.inW, run.inH);
      new Uint32Array(id.data.buffer).set(run.inRGBA);
      ctx.putImageData(id, 0, 0);
      this.key.in = run;
    }
    const outKey = `${S.run}/${run.pass}/${S.tick}`;
    if (this.key.out !== outKey) {
      const ctx = this.sized(this.img.out, run.W, run.H), id = ctx.createImageData(run.W, run.H);
      run.outputAt(S.tick, new Uint32Array(id.data.buffer));
      ctx.putImageData(id, 0, 0);
      this.key.out = outKey;
    }
  }

  drawImage(S, pane, src) {
    const ctx = this.ctx, m = this.paneImage(S, pane), [ox, oy] = this.toScreen(S, pane, 0, 0);
    ctx.imageSmoothingEnabled = S.zoom < 1;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(src, ox, oy, m.w * S.zoom, m.h * S.zoom);
  }

  /* A frame of thickness t inside r. */
  box(r, t, color, dash) {
    const ctx = this.ctx;
    ctx.strokeStyle = color;
    ctx.lineWidth = t;
    ctx.setLineDash(dash ? [6, 4] : []);
    ctx.strokeRect(r.x + t / 2, r.y + t / 2, r.w - t, r.h - t);
    ctx.setLineDash([]);
  }

  /* A tile as its state draws it (draw_plain.c's draw_tile): not started, a faint outline (its
   * output dark until it ends); running, yellow, a violet frame inside past a barrier; ended,
   * by its findings' tint. A tile too small for an outline is filled. */
  drawTile(r, st, tint) {
    const ctx = this.ctx, C = tsPlainColors, small = Math.min(r.w, r.h) < 5;
    if (st === TS_PENDING) {
      if (!small) this.box(r, 1, C.pending);
      return;
    }
    if (st !== TS_DONE) {
      const c = small && st === TS_BARRIER ? C.barrier : C.running;
      ctx.fillStyle = tsAlpha(c, small ? 0.75 : 0.3);
      ctx.fillRect(r.x, r.y, r.w, r.h);
      if (small) return;
      const th = Math.min(r.w, r.h) >= 10 ? 2 : 1;
      this.box(r, th, c);
      if (st === TS_BARRIER) this.box({ x: r.x + th, y: r.y + th, w: r.w - 2 * th, h: r.h - 2 * th }, th, C.barrier);
      return;
    }
    if (tint) {
      ctx.fillStyle = tsAlpha(C.tint[tint], small ? 0.7 : 0.3);
      ctx.fillRect(r.x, r.y, r.w, r.h);
    }
    if (!small) this.box(r, tint && Math.min(r.w, r.h) >= 10 ? 2 : 1, C.tint[tint]);
  }

  /* The tiles by state (the ones not started, the ended ones clean then tinted, the running
   * ones over all) or by start order; then the elements the findings name. */
  drawOverlay(run, S, p, pane = 1) {
    const ctx = this.ctx, P = run.passes[p], rs = this.layout(this.cw, this.ch)[pane];
    const seen = (t) => t.x + t.w >= rs.x && t.y + t.h >= rs.y && t.x <= rs.x + rs.w && t.y <= rs.y + rs.h;
    if (S.overlay === 'state') {
      const layer = (g, st) => (st === TS_PENDING ? 0 : st === TS_DONE ? 1 + P.tint[g] : 4);
      const st = new Uint8Array(P.n);
      for (let g = 0; g < P.n; g++) st[g] = run.state(p, g, S.tick);
      for (let l = 0; l <= 4; l++)
        for (let g = 0; g < P.n; g++) {
          if (!P.ww[g] || layer(g, st[g]) !== l) continue;
          const t = this.rectToScreen(S, pane, run.tile(p, g));
          if (seen(t)) this.drawTile(t, st[g], P.tint[g]);
        }
    } else if (S.overlay === 'order') {
      for (let g = 0; g < P.n; g++) {
        if (!P.ww[g] || !P.start[g]) continue;
        const c = tsRamp(P.ticket[g] / Math.max(P.n - 1, 1));
        ctx.fillStyle = `rgba(${c.map((v) => Math.round(v * 255)).join(', ')}, 0.45)`;
        const t = this.rectToScreen(S, pane, run.tile(p, g));
        if (seen(t)) ctx.fillRect(t.x, t.y, t.w, t.h);
      }
    }
    const side = Math.max(S.zoom, 7);
    for (const f of run.findings) {
      if (f.pass !== p) continue;
      for (let k = 0; k + 1 < f.pixels.length; k += 2) {
        const [x, y] = this.toScreen(S, pane, f.pixels[k] + 0.5, f.pixels[k + 1] + 0.5);
        ctx.fillStyle = 'rgba(0, 0, 0, 0.9)';
        ctx.fillRect(x - side / 2 - 1, y - side / 2 - 1, side + 2, side + 2);
        ctx.fillStyle = tsPlainColors.tint[2];
        ctx.fillRect(x - side / 2, y - side / 2, side, side);
      }
    }
  }

  /* Past 16 screen pixels an image pixel: the pixel grid and each pixel's values (the
   * output's as the kernel left them, once its work-group has ended; out: the pane shows an
   * output whichever it is, a split view's). */
  drawPixelGrid(run, S, pane, r, out) {
    const z = S.zoom;
    if (z < 16) return;
    const ctx = this.ctx, m = this.paneImage(S, pane);
    const x0 = Math.max(0, Math.floor(m.cx - r.w / 2 / z)), x1 = Math.min(m.w, Math.ceil(m.cx + r.w / 2 / z));
    const y0 = Math.max(0, Math.floor(m.cy - r.h / 2 / z)), y1 = Math.min(m.h, Math.ceil(m.cy + r.h / 2 / z));
    ctx.fillStyle = 'rgba(128, 128, 128, 0.6)';
    for (let x = x0; x <= x1; x++) { const [sx, sy] = this.toScreen(S, pane, x, y0); ctx.fillRect(sx, sy, 1, (y1 - y0) * z); }
    for (let y = y0; y <= y1; y++) { const [sx, sy] = this.toScreen(S, pane, x0, y); ctx.fillRect(sx, sy, (x1 - x0) * z, 1); }
    ctx.font = '10px "DejaVu Sans Mono", monospace';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const isIn = pane === 0 && !out, text = isIn ? run.inText(x, y) : run.outText(x, y, S.tick);
        if (!text) continue;
        const parts = text.split(' '), lines = parts.length * 12 <= z - 2 ? parts : parts.slice(0, 1);
        const shade = isIn ? run.inVals[(y * run.srcW + x) * run.j.Cin] : run.outShade(x, y);
        const [sx, sy] = this.toScreen(S, pane, x + 0.5, y + 0.5);
        ctx.fillStyle = shade > 140 ? '#000' : '#fff';
        lines.forEach((s, i) => {
          if (ctx.measureText(s).width <= z - 2) ctx.fillText(s, sx, sy + (i - (lines.length - 1) / 2) * 12);
        });
      }
    ctx.textAlign = 'start';
    ctx.textBaseline = 'alphabetic';
  }

  /* Start order (ticket) in tiles large enough on screen. */
  drawLabels(run, S, p, r, pane = 1) {
    if (S.overlay === 'none' || S.zoom >= 16) return;
    const ctx = this.ctx, P = run.passes[p];
    ctx.font = '11px "DejaVu Sans Mono", monospace';
    const need = ctx.measureText(String(P.n - 1)).width + 4;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let g = 0, drawn = 0; g < P.n && drawn < 4000; g++) {
      if (!P.ww[g] || !P.start[g] || P.start[g] > S.tick) continue;
      const t = this.rectToScreen(S, pane, run.tile(p, g)), x = t.x + t.w / 2, y = t.y + t.h / 2;
      if (t.w < need || t.h < 15 || x < r.x || y < r.y || x > r.x + r.w || y > r.y + r.h) continue;
      const s = String(P.ticket[g]);
      ctx.fillStyle = 'rgba(0, 0, 0, 0.8)';
      ctx.fillText(s, x + 1, y + 1);
      ctx.fillStyle = '#fff';
      ctx.fillText(s, x, y);
      drawn++;
    }
    ctx.textAlign = 'start';
    ctx.textBaseline = 'alphabetic';
  }

  label(x, y, color, s) {
    const ctx = this.ctx;
    ctx.font = '11px "DejaVu Sans Mono", monospace';
    const w = ctx.measureText(s).width;
    ctx.fillStyle = 'rgba(0, 0, 0, 0.7)';
    ctx.fillRect(x - 2, y - 11, w + 4, 15);
    ctx.fillStyle = color;
    ctx.fillText(s, x, y);
  }

  /* The focused group: on the input what it read (dashed green) over its declared tile and
   * halo (yellow), and its tile where the images are alike; on the output its tile (white). */
  drawFocus(run, S, p, pane) {
    if (pane === 1) {
      this.drawOutFocus(run, S, p, pane);
      return;
    }
    const f = S.focus;
    if (!f || f.pass !== p) return;
    const P = run.passes[p], g = f.id, ps = P.tile, d = run.declared(p, g, ps[2]);
    if (d) this.frame(this.rectToScreen(S, 0, d), 2, tsColors.foot, 1);
    if (P.rw[g]) {
      const r = this.rectToScreen(S, 0, run.footprint(p, g));
      this.box({ x: r.x - 3, y: r.y - 3, w: r.w + 6, h: r.h + 6 }, 2, tsColors.seen, true);
      this.label(r.x - 3, r.y - 7, tsColors.seen, d ? 'observed reads (yellow: declared)' : 'reads');
    }
    if (P.ww[g] && run.sameShape) this.frame(this.rectToScreen(S, 0, run.tile(p, g)), 1, '#fff', 0);
  }

  /* On an output pane: the groups a finding or a source line names, outlined by their part
   * (red where the finding is, cyan the race's other access, yellow a line's), then the
   * focused group (its declared tile, its tile lit). */
  drawOutFocus(run, S, p, pane) {
    const m = (this.run || run).marked(S); /* a split view's right half: the left's finding */
    if (m && m.pass === p) {
      const few = m.groups.length <= 12, taken = [];
      this.ctx.font = '11px "DejaVu Sans Mono", monospace';
      for (const { g, role } of m.groups) {
        if (!run.passes[p].ww[g]) continue;
        const r = this.rectToScreen(S, pane, run.tile(p, g)), c = tsPlainColors.mark[role];
        this.frame(r, 2, c, 3);
        /* where the finding is above its tile, the other access below; a label that would
         * cover one drawn is left out */
        const s = `${run.name(p, g)}${role === 'b' ? ' other access' : ''}`, y = role === 'b' ? r.y + r.h + 16 : r.y - 6;
        const box = { x0: r.x - 4, x1: r.x + this.ctx.measureText(s).width, y0: y - 11, y1: y + 4 };
        if (!few || taken.some((t) => t.x0 < box.x1 && box.x0 < t.x1 && t.y0 < box.y1 && box.y0 < t.y1)) continue;
        taken.push(box);
        this.label(r.x - 2, y, c, s);
      }
    }
    const f = S.focus;
    if (!f || f.pass !== p) return;
    const P = run.passes[p], g = f.id;
    const d = run.declared(p, g, 0);
    if (d) this.frame(this.rectToScreen(S, pane, d), 1, tsColors.foot, 1);
    if (!P.ww[g]) return;
    const r = this.rectToScreen(S, pane, run.tile(p, g));
    this.ctx.fillStyle = 'rgba(255, 255, 255, 0.18)';
    this.ctx.fillRect(r.x, r.y, r.w, r.h);
    this.frame(r, 2, '#fff', 2);
    this.label(r.x - 2, r.y + r.h + 16, '#fff', `work-group ${run.name(p, g)}`);
  }
}

class TsPlainTimeline extends TsTimeline {
  /* The running groups' graph above, the lanes below (the device view's rows). */
  geometry(w, h) {
    return super.geometry(w, h, true);
  }

  /* Each row's run and rectangles: one, or a split view's two (the left's order above), each
   * its graph of running groups over its lanes. */
  rowsOf(run, w, h) {
    const g = this.geometry(w, h);
    if (!run.split) return [{ run, g, label: '' }];
    const rh = Math.max(20, Math.floor((h - 22 - 6 - 8) / 2));
    return [run, run.twin].map((r, k) => {
      const fy = 6 + k * (rh + 8), fh = Math.max(10, Math.min(30, Math.floor(rh * 0.32)));
      return { run: r, g: { gx: g.gx, gw: g.gw, fy, fh, ly: fy + fh + 3, lh: rh - fh - 3 },
               label: `${k ? 'right' : 'left'}: ${r.j.order}` };
    });
  }

  /* The group whose bar is under screen point (x, y) (within 3 pixels), or -1. */
  groupAt(run, x, y) {
    const T = Math.max(1, run.length);
    for (const row of this.rows || []) {
      const g = row.g, r = row.run, p = r.pass, P = r.passes[p], lane = r.lanes(p);
      const lh = row.laneH || 1, l = Math.floor((y - g.ly) / lh);
      if (y < g.ly || y >= g.ly + g.lh || l >= P.nlanes) continue;
      let best = -1, bd = 4;
      for (let gi = 0; gi < P.n; gi++) {
        if (lane[gi] !== l) continue;
        const x0 = g.gx + g.gw * P.start[gi] / T, x1 = g.gx + g.gw * (P.end[gi] || T) / T;
        const d = x < x0 ? x0 - x : x > x1 ? x - x1 : 0;
        if (d < bd) { best = gi; bd = d; }
      }
      return best;
    }
    return -1;
  }

  drawSim(run, S, w, h) {
    const ctx = this.ctx, T = Math.max(1, run.length);
    this.main = run;
    this.rows = this.rowsOf(run, w, h);
    for (const row of this.rows) this.drawRow(row, S, T);
    const g = this.rows[0].g, last = this.rows[this.rows.length - 1].g, cx = g.gx + g.gw * S.tick / T;
    ctx.fillStyle = '#fff';
    ctx.fillRect(cx - 1, g.fy - 4, 2, last.ly + last.lh - g.fy + 8);
    ctx.fillStyle = tsColors.dim;
    const L = run.passes[run.pass].nlanes, P = run.passes[run.pass];
    /* the longest caption that fits */
    const says = run.split ? ['each order: its running work-groups, and each group from its start to its end; one slider for both; click or drag to scrub',
                              'each order: running work-groups, each group start to end; click or drag to scrub', 'click or drag to scrub']
                           : [`running work-groups (at most ${P.peak}); below, each group from its start to its end in ${L} lane${L > 1 ? 's' : ''}; violet ticks their barriers (white in a bar); click or drag to scrub`,
                              `running work-groups (at most ${P.peak}); below, each from start to end; violet: barriers; click or drag to scrub`, 'click or drag to scrub'];
    ctx.fillText(says.find((t) => ctx.measureText(t).width <= g.gw) || says[says.length - 1], g.gx, h - 6);
  }

  /* One run's row on the clock 0..T: its running groups, its barriers, its bars by state at
   * the tick; the focused group's bar outlined; the groups a finding or source line names,
   * their bars outlined and their running intervals shaded over the graph. */
  drawRow(row, S, T) {
    const ctx = this.ctx, g = row.g, run = row.run, p = run.pass, P = run.passes[p];
    const X = (t) => g.gx + g.gw * t / T, C = tsPlainColors;
    ctx.fillStyle = '#24262e';
    ctx.fillRect(g.gx, g.fy, g.gw, g.fh);
    ctx.fillRect(g.gx, g.ly, g.gw, g.lh);
    const fl = run.flight(p), peak = Math.max(1, P.peak);
    for (let c = 0; c < g.gw; c++) {
      const t0 = Math.floor(c / g.gw * T), t1 = Math.max(t0 + 1, Math.floor((c + 1) / g.gw * T));
      let m = 0;
      for (let t = t0; t < t1 && t <= P.ticks; t++) m = Math.max(m, fl[t]);
      const hr = g.fh * m / peak;
      ctx.fillStyle = t0 < S.tick ? '#33bf4d' : '#1f6b2e';
      ctx.fillRect(g.gx + c, g.fy + g.fh - hr, 1, hr);
    }
    /* every barrier tick of the pass, under the graph (a group's own are in its bar, where
     * the bar is wide enough to show them) */
    ctx.fillStyle = C.barrier;
    for (let gi = 0; gi < P.n; gi++)
      for (let b = 0; b < Math.min(P.nbar[gi], TS_PLAIN_BARS); b++) {
        const at = P.bar[gi * TS_PLAIN_BARS + b];
        if (at) ctx.fillRect(Math.round(X(at)) - 0.5, g.fy + g.fh + 1, 1, g.ly - g.fy - g.fh - 2);
      }
    /* the bars, by their state at the tick: not started, ended, running over all */
    const lane = run.lanes(p), L = P.nlanes, lh = Math.min(24, g.lh / L), gap = lh >= 4 ? 1 : 0;
    row.laneH = lh;
    const color = (st, gi) => (st === TS_PENDING ? 'rgba(160, 168, 184, 0.35)' : st === TS_RUNNING ? C.running
                               : st === TS_BARRIER ? C.barrier : C.bar[P.tint[gi]]);
    const st = new Uint8Array(P.n);
    for (let gi = 0; gi < P.n; gi++) st[gi] = run.state(p, gi, S.tick);
    for (const layer of [[TS_PENDING], [TS_DONE], [TS_RUNNING, TS_BARRIER]])
      for (let gi = 0; gi < P.n; gi++) {
        if (lane[gi] < 0 || !layer.includes(st[gi])) continue;
        const y = g.ly + lane[gi] * lh, x0 = X(P.start[gi]), x1 = X(P.end[gi] || T);
        ctx.fillStyle = color(st[gi], gi);
        ctx.fillRect(x0, y, Math.max(1, x1 - x0), Math.max(0.5, lh - gap));
        if (!P.end[gi]) { /* never ended: a red end */
          ctx.fillStyle = C.tint[2];
          ctx.fillRect(x1 - 2, y, 2, Math.max(0.5, lh - gap));
        }
        ctx.fillStyle = 'rgba(255, 255, 255, 0.9)';
        for (let b = 0; x1 - x0 >= 4 && b < Math.min(P.nbar[gi], TS_PLAIN_BARS); b++) {
          const at = P.bar[gi * TS_PLAIN_BARS + b];
          if (at) ctx.fillRect(Math.round(X(at)) - 0.5, y, 1, Math.max(0.5, lh - gap));
        }
      }
    const outline = (gi, color, lw) => {
      if (lane[gi] < 0) return;
      const y = g.ly + lane[gi] * lh, x0 = X(P.start[gi]), x1 = X(P.end[gi] || T);
      ctx.strokeStyle = color;
      ctx.lineWidth = lw;
      ctx.strokeRect(x0 - 1.5, y - 1.5, Math.max(x1 - x0, 1) + 3, Math.max(lh - gap, 1) + 3);
    };
    const m = this.main.marked(S); /* the findings are the left run's */
    if (m && m.pass === p)
      for (const { g: gi, role } of m.groups.slice(0, 64)) {
        if (!P.start[gi]) continue;
        const x0 = X(P.start[gi]), x1 = X(P.end[gi] || T);
        ctx.fillStyle = tsAlpha(C.mark[role], 0.28);
        ctx.fillRect(x0, g.fy, Math.max(2, x1 - x0), g.fh);
        ctx.fillStyle = C.mark[role];
        ctx.fillRect(x0, g.fy, 1, g.fh);
        ctx.fillRect(Math.max(x0 + 1, x1 - 1), g.fy, 1, g.fh);
        outline(gi, C.mark[role], 2);
      }
    const f = S.focus;
    if (f && f.pass === p) outline(f.id, '#fff', 1);
    if (row.label) {
      ctx.fillStyle = 'rgba(23, 26, 31, 0.75)';
      const tw = ctx.measureText(row.label).width;
      ctx.fillRect(g.gx + 2, g.fy + 1, tw + 6, 13);
      ctx.fillStyle = tsColors.accent;
      ctx.fillText(row.label, g.gx + 5, g.fy + 11);
    }
  }
}
