/* Drawing the timeline under the panes, as the window's draw_timeline.c does: the simulated
 * run's occupancy over ticks (green running, brown resident and waiting) with the passes'
 * bounds and the cursor; in the device view the groups in flight over device time and one lane
 * per compute unit (or logical lane), each column the share of time its groups ran and waited,
 * the focused group's bar outlined. Also maps a click to a tick or a device time. */
'use strict';

class TsTimeline {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.gantt = null;
  }

  /* The graph's rectangles: [x, width], and the rows of the flight graph and the lanes. */
  geometry(w, h, device) {
    const gx = 10, gw = Math.max(1, Math.floor(w - 20));
    if (!device) return { gx, gw, gy: 6, gh: Math.max(1, h - 26) };
    const fy = 6, fh = 44, ly = fy + fh + 6;
    return { gx, gw, fy, fh, ly, lh: Math.max(1, Math.floor(h - 22 - ly)) };
  }

  /* The tick or device time at screen x. */
  valueAt(run, S, x) {
    const g = this.geometry(this.cw, this.ch, S.device);
    const f = Math.min(1, Math.max(0, (x - g.gx) / g.gw));
    return Math.round(f * (S.device ? run.dev.t_end : run.length));
  }

  /* Screen x of tick or device time v. */
  xOf(run, S, v) {
    const g = this.geometry(this.cw, this.ch, S.device);
    return g.gx + g.gw * v / Math.max(1, S.device ? run.dev.t_end : run.length);
  }

  draw(run, S, w, h, dpr) {
    const c = this.canvas, ctx = this.ctx;
    this.cw = w;
    this.ch = h;
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = tsColors.bg;
    ctx.fillRect(0, 0, w, h);
    if (!run) return;
    ctx.font = '11px "DejaVu Sans Mono", monospace';
    if (S.device) this.drawDevice(run, S, w, h, dpr);
    else this.drawSim(run, S, w, h);
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
    ctx.fillStyle = tsColors.dim;
    ctx.fillText('occupancy: green running, brown resident and waiting; click or drag to scrub', g.gx, h - 6);
  }

  /* Per column and lane the share of the column's time its groups ran and waited (a picture
   * made once per run and size). */
  buildGantt(run, W, H) {
    const d = run.dev, L = Math.max(1, d.lanes), col = Math.max(1, d.t_end) / W;
    const cell = new Float32Array(L * W * 2), flight = new Float32Array(W * 2);
    const cover = (l, a, b, k) => {
      if (b <= a) return;
      const c0 = Math.max(0, Math.floor(a / col)), c1 = Math.min(W - 1, Math.floor(b / col));
      for (let c = c0; c <= c1; c++) {
        const lo = Math.max(a, c * col), hi = Math.min(b, (c + 1) * col);
        if (hi > lo) cell[(l * W + c) * 2 + k] += (hi - lo) / col;
      }
    };
    for (const g of d.passes)
      for (let t = 0; t < g.n; t++) {
        const l = Math.min(L - 1, Math.max(0, g.lane[t]));
        cover(l, g.start[t], g.waited[t], 1);
        cover(l, g.waited[t], g.end[t], 0);
      }
    let peak = 0;
    for (let l = 0; l < L; l++)
      for (let c = 0; c < W; c++) {
        const e = (l * W + c) * 2;
        flight[c] += cell[e];
        flight[W + c] += cell[e + 1];
        peak = Math.max(peak, cell[e] + cell[e + 1]);
      }
    let fpeak = 0;
    for (let c = 0; c < W; c++) fpeak = Math.max(fpeak, flight[c] + flight[W + c]);
    const img = new ImageData(W, H), px = img.data;
    const bg = [0.14, 0.15, 0.18], runc = [0.2, 0.8, 0.32], waitc = [0.85, 0.55, 0.12];
    for (let y = 0; y < H; y++) {
      const l0 = Math.floor(y * L / H);
      let l1 = Math.floor((y + 1) * L / H);
      l1 = l1 > l0 ? l1 : l0 + 1;
      const gap = L <= H / 4 && Math.floor((y + 1) * L / H) !== l0;
      for (let c = 0; c < W; c++) {
        let r = 0, wt = 0;
        for (let l = l0; l < l1; l++) { r += cell[(l * W + c) * 2]; wt += cell[(l * W + c) * 2 + 1]; }
        r /= l1 - l0;
        wt /= l1 - l0;
        const inten = peak > 0 ? Math.min(1, (r + wt) / peak) : 0, o = (y * W + c) * 4;
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
    this.gantt = { run, W, H, canvas, flight, fpeak };
  }

  drawDevice(run, S, w, h) {
    const ctx = this.ctx, g = this.geometry(w, h, true), d = run.dev, te = Math.max(1, d.t_end);
    if (!this.gantt || this.gantt.run !== run || this.gantt.W !== g.gw || this.gantt.H !== g.lh)
      this.buildGantt(run, g.gw, g.lh);
    const gt = this.gantt;
    ctx.fillStyle = '#24262e';
    ctx.fillRect(g.gx, g.fy, g.gw, g.fh);
    const scale = gt.fpeak > 0 ? gt.fpeak : 1;
    for (let c = 0; c < g.gw; c++) {
      const runv = gt.flight[c], all = runv + gt.flight[g.gw + c];
      const ha = g.fh * all / scale, hr = g.fh * runv / scale;
      ctx.fillStyle = '#59471f';
      ctx.fillRect(g.gx + c, g.fy + g.fh - ha, 1, ha);
      ctx.fillStyle = '#33bf4d';
      ctx.fillRect(g.gx + c, g.fy + g.fh - hr, 1, hr);
    }
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(gt.canvas, g.gx, g.ly);
    ctx.fillStyle = tsColors.accent;
    for (let p = 1; p < d.passes.length; p++) {
      const x = g.gx + g.gw * d.passes[p - 1].endMax / te;
      ctx.fillRect(x, g.fy - 4, 1, g.ly + g.lh - g.fy + 8);
      ctx.fillText('pass ' + (p + 1), x + 3, g.fy + 10);
    }
    const f = S.focus;
    if (f && f.pass === S.shownPass) {
      const k = run.devTicket(f.pass, f.id), gp = d.passes[f.pass], L = Math.max(1, d.lanes);
      const lane = Math.max(0, gp.lane[k]);
      const y0 = g.ly + Math.floor(lane * g.lh / L), y1 = g.ly + Math.floor((lane + 1) * g.lh / L);
      const x0 = g.gx + g.gw * gp.start[k] / te, x1 = g.gx + g.gw * gp.end[k] / te;
      ctx.strokeStyle = '#fff';
      ctx.lineWidth = 1;
      ctx.strokeRect(x0 - 1.5, y0 - 1.5, Math.max(x1 - x0, 1) + 3, Math.max(y1 - y0, 1) + 3);
    }
    const cx = g.gx + g.gw * S.devTime / te;
    ctx.fillStyle = '#fff';
    ctx.fillRect(cx - 1, g.fy - 4, 2, g.ly + g.lh - g.fy + 8);
    ctx.fillStyle = tsColors.dim;
    ctx.fillText(`groups in flight: green past their wait, brown waiting; below, one lane per ${d.units ? 'compute unit' : 'logical lane'} (${d.lanes})${d.clock_ns ? '' : ', logical clock'}; click or drag to scrub`, g.gx, h - 6);
  }
}
