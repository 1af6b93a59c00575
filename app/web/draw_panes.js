/* Drawing the two image panes on one canvas, as the window's draw_panes.c and image.frag do:
 * the input; the output as committed at the tick (in the device view the device's output,
 * tiles not finished by the device time masked, finished wrong tiles hatched) with the
 * thread-space overlay (state, order, depth, slot) and tile grid; the hovered tile lit; dispatch
 * indices in tiles large enough on screen; pixel values when zoomed in; and the focused thread:
 * its footprint on the input, its tile, arrows to what it waits for, from what waits for it and
 * from the producers it read too early. Reads the page's state (page.js), changes nothing. */
'use strict';

const tsColors = {
  bg: '#171a1f', panel: '#21242b', white: '#ffffff', dim: '#9ea6b3', accent: '#73bfff',
  warn: '#ff7359', waits: '#ff9e0d', waiters: '#40e6ff', foot: '#ffe633', seen: '#4dff8c',
  state: ['#404040', '#ff9e0d', '#26f240', '#4073f2', '#f21a1a'],
};

/* A view's canvas at w x h CSS pixels (dpr device pixels each), cleared to the background:
 * its context, scaled so that the view draws in CSS pixels. */
function tsCanvasStart(view, w, h, dpr) {
  const c = view.canvas, ctx = view.ctx;
  view.cw = w;
  view.ch = h;
  view.dpr = dpr;
  if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
  }
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = tsColors.bg;
  ctx.fillRect(0, 0, w, h);
  return ctx;
}

/* The overlay's ramp: deep blue through teal and green to yellow. */
function tsRamp(t) {
  const s = [[0.18, 0.05, 0.45], [0.12, 0.35, 0.75], [0.10, 0.65, 0.62], [0.45, 0.82, 0.30], [0.99, 0.90, 0.15]];
  t = Math.min(1, Math.max(0, t)) * 4;
  const k = Math.min(3, Math.floor(t)), f = t - k;
  return [0, 1, 2].map((i) => s[k][i] + (s[k + 1][i] - s[k][i]) * f);
}

function tsHue(h) {
  return [5, 3, 1].map((k) => {
    const p = Math.abs((((k + h * 6) % 6) + 6) % 6 - 3) - 1;
    return Math.min(1, Math.max(0, p)) * 0.75 + 0.2;
  });
}

/* The colour and opacity the overlay gives each thread of the pass shown, one RGBA word a
 * thread (image.frag's mix(c, oc, a) is source-over with alpha a). */
function tsOverlayWords(run, S, p, out) {
  const P = run.passes[p], dev = S.device, A = 0.45;
  const word = (c, a) => tsPack(Math.round(c[0] * 255), Math.round(c[1] * 255), Math.round(c[2] * 255), Math.round(a * 255));
  const stateCols = [[0, 0, 0], [1.0, 0.62, 0.05], [0.15, 0.95, 0.25], [0.25, 0.45, 0.95], [0.95, 0.10, 0.10]];
  const ranks = dev ? run.devRanks(p) : null, g = dev ? run.dev.passes[p] : null;
  for (let id = 0; id < P.n; id++) {
    let c = [0, 0, 0], a = A;
    if (S.overlay === 'state') {
      const st = dev ? run.devState(p, id, S.devTime) : run.state(p, id, S.tick);
      const hazard = !dev && P.hz[id] > 0 && st >= 2;
      if (hazard) c = stateCols[4];
      else if (st === 0) a = A * 0.6;
      else if (st === 3) { c = stateCols[3]; a = A * 0.5; }
      else c = stateCols[st];
    } else if (S.overlay === 'order') {
      c = tsRamp((dev ? ranks[id] : P.dispatch[id]) / Math.max(P.n - 1, 1));
    } else if (S.overlay === 'depth') {
      const k = dev ? run.devTicket(p, id) : 0;
      c = dev ? tsRamp((g.waited[k] - g.start[k]) / Math.max(g.maxWait, 1)) : tsRamp(P.depth[id] / Math.max(P.maxDepth, 1));
    } else if (S.overlay === 'slot') {
      const s = dev ? Math.max(0, g.lane[run.devTicket(p, id)]) : Math.max(0, P.slot[id]);
      c = tsHue((s * 0.61803399) % 1);
    } else {
      a = 0;
    }
    out[id] = word(c, a);
  }
}

class TsPanes {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.img = { in: document.createElement('canvas'), out: document.createElement('canvas'),
                 ov: document.createElement('canvas'), mask: document.createElement('canvas') };
    this.key = {};
    const p = document.createElement('canvas');
    p.width = p.height = 9;
    const pc = p.getContext('2d');
    pc.fillStyle = '#f21a1a';
    for (let y = 0; y < 9; y++) for (let x = 0; x < 9; x++) if ((((x - y) % 9) + 9) % 9 < 2) pc.fillRect(x, y, 1, 1);
    this.hatch = this.ctx.createPattern(p, 'repeat');
  }

  /* The layout: two panes side by side in CSS pixels. */
  layout(w, h) {
    const half = Math.floor(w / 2);
    return [{ x: 0, y: 0, w: half - 1, h }, { x: half + 1, y: 0, w: w - half - 1, h }];
  }

  toScreen(S, pane, x, y) {
    const r = this.layout(this.cw, this.ch)[pane];
    return [r.x + r.w / 2 + (x - S.cx) * S.zoom, r.y + r.h / 2 + (y - S.cy) * S.zoom];
  }

  /* The pane and image point under a screen point, or null. */
  toImage(S, sx, sy) {
    const rs = this.layout(this.cw, this.ch);
    for (let pane = 0; pane < 2; pane++) {
      const r = rs[pane];
      if (sx >= r.x && sx < r.x + r.w && sy >= r.y && sy < r.y + r.h)
        return { pane, x: S.cx + (sx - r.x - r.w / 2) / S.zoom, y: S.cy + (sy - r.y - r.h / 2) / S.zoom };
    }
    return null;
  }

  rectToScreen(S, pane, r) {
    const [x, y] = this.toScreen(S, pane, r.x, r.y), [x1, y1] = this.toScreen(S, pane, r.x + r.w, r.y + r.h);
    return { x, y, w: x1 - x, h: y1 - y };
  }

  /* Offscreen images, remade only when what they show changes. */
  sized(c, w, h) {
    if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
    return c.getContext('2d');
  }

  updateImages(run, S, p) {
    const W = run.W, H = run.H;
    if (this.key.in !== run) {
      const ctx = this.sized(this.img.in, W, H), id = ctx.createImageData(W, H);
      new Uint32Array(id.data.buffer).set(run.inRGBA);
      ctx.putImageData(id, 0, 0);
      this.key.in = run;
    }
    const outKey = S.device ? `${S.run}/dev` : `${S.run}/${S.tick}`;
    if (this.key.out !== outKey) {
      const ctx = this.sized(this.img.out, W, H), id = ctx.createImageData(W, H);
      const words = new Uint32Array(id.data.buffer);
      if (S.device) words.set(run.dev.rgba);
      else run.outputAt(S.tick, words);
      ctx.putImageData(id, 0, 0);
      this.key.out = outKey;
    }
    const P = run.passes[p];
    const ovKey = `${S.run}/${p}/${S.device ? 'd' + S.devTime : S.tick}/${S.overlay}`;
    if (this.key.ov !== ovKey) {
      const ctx = this.sized(this.img.ov, P.tw, P.th), id = ctx.createImageData(P.tw, P.th);
      tsOverlayWords(run, S, p, new Uint32Array(id.data.buffer));
      ctx.putImageData(id, 0, 0);
      if (S.device) {
        const mctx = this.sized(this.img.mask, P.tw, P.th), md = mctx.createImageData(P.tw, P.th);
        const mw = new Uint32Array(md.data.buffer), dark = tsPack(26, 28, 33, 237);
        for (let t = 0; t < P.n; t++) mw[t] = run.devState(p, t, S.devTime) < 3 ? dark : 0;
        mctx.putImageData(md, 0, 0);
      }
      this.key.ov = ovKey;
    }
  }

  /* Draws a thread-space image (one pixel a thread) over its tiles. */
  drawThreadImage(S, pane, run, p, img) {
    const ctx = this.ctx, P = run.passes[p], z = S.zoom, d = this.dpr;
    const [ox, oy] = this.toScreen(S, pane, 0, 0);
    ctx.save();
    ctx.beginPath();
    ctx.rect(ox, oy, run.W * z, run.H * z);
    ctx.clip();
    const tw = P.tile[0] * z, th = P.tile[1] * z;
    if (P.transposed) ctx.setTransform(0, th * d, tw * d, 0, ox * d, oy * d);
    else ctx.setTransform(tw * d, 0, 0, th * d, ox * d, oy * d);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(img, 0, 0);
    ctx.restore();
  }

  drawImage(S, pane, src, run) {
    const ctx = this.ctx, [ox, oy] = this.toScreen(S, pane, 0, 0);
    ctx.imageSmoothingEnabled = S.zoom < 1;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(src, ox, oy, run.W * S.zoom, run.H * S.zoom);
  }

  draw(run, S, w, h, dpr) {
    const ctx = tsCanvasStart(this, w, h, dpr);
    if (!run) return;
    const p = S.shownPass;
    this.updateImages(run, S, p);
    const rs = this.layout(w, h);
    ctx.fillStyle = '#2a2e36';
    ctx.fillRect(rs[0].x + rs[0].w, 0, rs[1].x - rs[0].x - rs[0].w, h);
    for (let pane = 0; pane < 2; pane++) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(rs[pane].x, rs[pane].y, rs[pane].w, rs[pane].h);
      ctx.clip();
      this.drawImage(S, pane, pane ? this.img.out : this.img.in, run);
      if (pane === 1) this.drawOverlay(run, S, p);
      this.drawPixelGrid(run, S, pane, rs[pane]);
      if (pane === 1) this.drawLabels(run, S, p, rs[pane]);
      this.drawFocus(run, S, p, pane);
      ctx.restore();
    }
  }

  drawOverlay(run, S, p) {
    const ctx = this.ctx, P = run.passes[p], z = S.zoom;
    if (S.device) {
      if (p === run.dev.passes.length - 1) this.drawThreadImage(S, 1, run, p, this.img.mask);
      else {
        const r = this.rectToScreen(S, 1, { x: 0, y: 0, w: run.W, h: run.H });
        ctx.fillStyle = 'rgba(26, 28, 33, 0.93)';
        ctx.fillRect(r.x, r.y, r.w, r.h);
      }
    }
    if (S.overlay !== 'none') this.drawThreadImage(S, 1, run, p, this.img.ov);
    if (S.device && p === run.dev.passes.length - 1) {
      /* Finished wrong tiles: hatched in red, with a red border. */
      for (let id = 0; id < P.n; id++) {
        if (!run.devWrong(p, id) || run.devState(p, id, S.devTime) < 3) continue;
        const r = this.rectToScreen(S, 1, run.tile(p, id));
        ctx.fillStyle = this.hatch;
        ctx.fillRect(r.x, r.y, r.w, r.h);
        ctx.strokeStyle = '#f21a1a';
        ctx.lineWidth = 1.5;
        ctx.strokeRect(r.x + 0.75, r.y + 0.75, r.w - 1.5, r.h - 1.5);
      }
    }
    if (S.grid && Math.min(P.tile[0], P.tile[1]) * z >= 6) {
      const r = this.rectToScreen(S, 1, { x: 0, y: 0, w: run.W, h: run.H });
      ctx.fillStyle = 'rgba(0, 0, 0, 0.55)';
      for (let x = P.tile[0]; x < run.W; x += P.tile[0]) ctx.fillRect(Math.round(r.x + x * z) - 0.5, r.y, 1, r.h);
      for (let y = P.tile[1]; y < run.H; y += P.tile[1]) ctx.fillRect(r.x, Math.round(r.y + y * z) - 0.5, r.w, 1);
    }
    const hov = S.hover ? run.threadAt(p, S.hover.x, S.hover.y) : -1;
    if (hov >= 0 && S.overlay !== 'none') {
      const r = this.rectToScreen(S, 1, run.tile(p, hov));
      ctx.fillStyle = 'rgba(255, 255, 255, 0.25)';
      ctx.fillRect(r.x, r.y, r.w, r.h);
    }
  }

  /* Past 16 screen pixels an image pixel: the pixel grid and each pixel's values. */
  drawPixelGrid(run, S, pane, r) {
    const compactSum = (v, coarse) => {
      let x = v, u = -1;
      while (x >= 999.5 && u < 2) { x /= 1000; u++; }
      if (u < 0) return String(v);
      return (coarse === 1 && x < 9.95 ? x.toFixed(1) : x.toFixed(0)) + 'kMG'[u];
    };
    const z = S.zoom;
    if (z < 16) return;
    const ctx = this.ctx;
    const x0 = Math.max(0, Math.floor(S.cx - r.w / 2 / z)), x1 = Math.min(run.W, Math.ceil(S.cx + r.w / 2 / z));
    const y0 = Math.max(0, Math.floor(S.cy - r.h / 2 / z)), y1 = Math.min(run.H, Math.ceil(S.cy + r.h / 2 / z));
    ctx.fillStyle = 'rgba(128, 128, 128, 0.6)';
    for (let x = x0; x <= x1; x++) { const [sx, sy] = this.toScreen(S, pane, x, y0); ctx.fillRect(sx, sy, 1, (y1 - y0) * z); }
    for (let y = y0; y <= y1; y++) { const [sx, sy] = this.toScreen(S, pane, x0, y); ctx.fillRect(sx, sy, (x1 - x0) * z, 1); }
    ctx.font = '10px "DejaVu Sans Mono", monospace';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const text = pane === 0 ? run.inText(x, y) : run.outText(x, y, S.tick, S.device);
        const parts = run.j.wide && pane === 1 ? [text] : text.split(' ');
        const lines = parts.length * 12 <= z - 2 ? parts : parts.slice(0, 1);
        const [sx, sy] = this.toScreen(S, pane, x + 0.5, y + 0.5);
        lines.forEach((s, i) => {
          const wide = run.j.wide && pane === 1;
          /* a sum too wide for its cell, coarser each try (1.2k, then 1k), as the viewer */
          for (let coarse = 1; coarse <= 2 && wide && ctx.measureText(s).width > z - 2; coarse++)
            s = compactSum(Number(text), coarse);
          if (ctx.measureText(s).width > z - 2) return;
          const v = wide ? 128 : Number(s);
          ctx.fillStyle = v > 140 ? '#000' : '#fff';
          ctx.fillText(s, sx, sy + (i - (lines.length - 1) / 2) * 12);
        });
      }
    ctx.textAlign = 'start';
    ctx.textBaseline = 'alphabetic';
  }

  /* Dispatch indices in tiles large enough on screen. */
  drawLabels(run, S, p, r) {
    if (S.overlay === 'none') return;
    const ctx = this.ctx, P = run.passes[p];
    ctx.font = '11px "DejaVu Sans Mono", monospace';
    const need = ctx.measureText(String(P.n - 1)).width + 4;
    if (P.tile[0] * S.zoom < need || P.tile[1] * S.zoom < 15 || S.zoom >= 16) return;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    let drawn = 0;
    for (let id = 0; id < P.n && drawn < 4000; id++) {
      const t = this.rectToScreen(S, 1, run.tile(p, id));
      const x = t.x + t.w / 2, y = t.y + t.h / 2;
      if (t.w < need || x < r.x || y < r.y || x > r.x + r.w || y > r.y + r.h) continue;
      const s = String(P.dispatch[id]);
      ctx.fillStyle = 'rgba(0, 0, 0, 0.8)';
      ctx.fillText(s, x + 1, y + 1);
      ctx.fillStyle = '#fff';
      ctx.fillText(s, x, y);
      drawn++;
    }
    ctx.textAlign = 'start';
    ctx.textBaseline = 'alphabetic';
  }

  arrow(x0, y0, x1, y1, th, color) {
    const ctx = this.ctx, dx = x1 - x0, dy = y1 - y0, len = Math.hypot(dx, dy);
    if (len < 1) return;
    const ux = dx / len, uy = dy / len, head = Math.min(len * 0.5, 4 + th * 3);
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    ctx.lineWidth = th;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1 - ux * head * 0.8, y1 - uy * head * 0.8);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x1 - ux * head - uy * head * 0.5, y1 - uy * head + ux * head * 0.5);
    ctx.lineTo(x1 - ux * head + uy * head * 0.5, y1 - uy * head - ux * head * 0.5);
    ctx.closePath();
    ctx.fill();
  }

  frame(r, lw, color, pad) {
    const ctx = this.ctx;
    ctx.strokeStyle = color;
    ctx.lineWidth = lw;
    ctx.strokeRect(r.x - pad + lw / 2, r.y - pad + lw / 2, r.w + 2 * pad - lw, r.h + 2 * pad - lw);
  }

  /* The focused thread: footprint and tile on the input; tile and arrows on the output. */
  drawFocus(run, S, p, pane) {
    const f = S.focus;
    if (!f || f.pass !== p) return;
    const ctx = this.ctx;
    const centre = (id) => {
      const r = this.rectToScreen(S, 1, run.tile(p, id));
      return [r.x + r.w / 2, r.y + r.h / 2];
    };
    if (pane === 0) {
      const r = this.rectToScreen(S, 0, run.footprint(p, f.id));
      this.frame(r, 2, tsColors.foot, 1);
      ctx.font = '11px "DejaVu Sans Mono", monospace';
      ctx.fillStyle = tsColors.foot;
      ctx.fillText('reads', r.x, r.y - 5);
      this.frame(this.rectToScreen(S, 0, run.tile(p, f.id)), 1, '#fff', 0);
      return;
    }
    this.frame(this.rectToScreen(S, 1, run.tile(p, f.id)), 2, '#fff', 1);
    const [cx, cy] = centre(f.id), th = Math.max(1.5, Math.min(3, S.zoom * 0.5));
    for (const w of run.waits(p, f.id)) this.arrow(cx, cy, ...centre(w), th, tsColors.waits);
    for (const w of run.waiters(p, f.id)) this.arrow(...centre(w), cx, cy, th, tsColors.waiters);
    if (!S.device) for (const q of run.earlyReads(p, f.id)) this.arrow(...centre(q), cx, cy, th, tsColors.state[4]);
  }
}
