/* One run of the page, as the window's model sees it: each thread's state at a tick (the
 * simulator's rule, ts_thread_state_at), its tile, footprint, wait set, waiters and the
 * producers it read too early, occupancy, the output as committed at a tick, and the device's
 * record (each group's state at a device time, its observed start order, its groups lane by
 * lane and the one a lane runs at a time). Reads the data, draws nothing. */
'use strict';

const TS_LE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/* An RGBA pixel as one 32-bit word of a Uint32Array over ImageData. */
function tsPack(r, g, b, a) {
  return TS_LE ? ((a << 24) | (b << 16) | (g << 8) | r) >>> 0 : ((r << 24) | (g << 16) | (b << 8) | a) >>> 0;
}

/* An input's pixels, decoded once however many runs show it: input.vals (its bytes) and
 * input.rgba (a word a pixel, grey or RGB). */
function tsDecodeInput(input) {
  if (input.vals) return;
  const n = input.w * input.h, c = input.c, inp = tsData.interleaved(input.planes, input.w, input.h);
  input.vals = inp;
  input.rgba = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * c;
    input.rgba[i] = c >= 3 ? tsPack(inp[o], inp[o + 1], inp[o + 2], 255) : tsPack(inp[o], inp[o], inp[o], 255);
  }
}

class TsRun {
  /* j: the run's data; input: its input's ({w, h, c, planes}), shared between runs. */
  constructor(j, input) {
    this.j = j;
    this.input = input;
    this.W = j.W;
    this.H = j.H;
    this.length = j.length;
    this.passes = j.passes.map((p) => {
      const q = Object.assign({}, p);
      for (const k of ['dispatch', 'slot', 'dtick', 'stick', 'etick', 'depth', 'hz', 'rdx', 'rdy',
                       'rw', 'rh', 'woff', 'wait', 'tx0', 'ty0', 'tww', 'thh']) {
        if (p[k]) q[k] = tsData.array(p[k]);
      }
      q.maxDepth = 1;
      for (let i = 0; i < q.n; i++) q.maxDepth = Math.max(q.maxDepth, q.depth[i]);
      return q;
    });
    this.hz = { pass: tsData.array(j.hz_pass), consumer: tsData.array(j.hz_consumer),
                producer: tsData.array(j.hz_producer) };
    this.occ = { tick: tsData.array(j.occ_tick), resident: tsData.array(j.occ_resident),
                 running: tsData.array(j.occ_running) };
    this.dev = null;
    if (j.dev) {
      const d = j.dev;
      this.dev = Object.assign({}, d);
      this.dev.passes = d.passes.map((p) => {
        const q = { n: p.n };
        for (const k of ['group', 'unit', 'lane', 'start', 'waited', 'end']) q[k] = tsData.array(p[k]);
        q.endMax = 0;
        for (let t = 0; t < q.n; t++) q.endMax = Math.max(q.endMax, q.end[t]);
        return q;
      });
      this.dev.wrong = tsData.array(d.wrong);
    }
  }

  /* Decodes the images (synchronously: the page is drawn as soon as it is read). */
  load() {
    const j = this.j, input = this.input;
    tsDecodeInput(input);
    this.inVals = input.vals;
    this.inRGBA = input.rgba;
    this.changed = tsData.words(j.changed_planes, this.W, this.H);
    if (j.wide) this.outSums = tsData.words(j.out_planes, this.W, this.H);
    else this.outVals = tsData.interleaved(j.out_planes, this.W, this.H);
    this.finRGBA = this.display(this.outSums, this.outVals);
    if (this.dev) {
      if (j.dev.out) {
        if (j.wide) this.dev.outSums = tsData.words(j.dev.out, this.W, this.H);
        else this.dev.outVals = tsData.interleaved(j.dev.out, this.W, this.H);
        this.dev.rgba = this.display(this.dev.outSums, this.dev.outVals);
      } else {
        this.dev.outSums = this.outSums;
        this.dev.outVals = this.outVals;
        this.dev.rgba = this.finRGBA;
      }
    }
  }

  /* Output values as the window draws them: an integral image's sums as grey, 255 at the
   * scale (ts_integral_grey); the others as they are, grey or RGB. */
  display(sums, vals) {
    const n = this.W * this.H, out = new Uint32Array(n), C = this.j.C;
    if (sums) {
      const mx = this.j.scale || 1, half = Math.floor(mx / 2);
      for (let i = 0; i < n; i++) {
        const g = Math.floor((Math.min(sums[i], mx) * 255 + half) / mx);
        out[i] = tsPack(g, g, g, 255);
      }
    } else {
      for (let i = 0; i < n; i++) {
        const o = i * C;
        out[i] = C >= 3 ? tsPack(vals[o], vals[o + 1], vals[o + 2], 255) : tsPack(vals[o], vals[o], vals[o], 255);
      }
    }
    return out;
  }

  /* The output as committed by tick t, into an RGBA word array. */
  outputAt(t, dst) {
    const ch = this.changed, fin = this.finRGBA, black = tsPack(0, 0, 0, 255), lim = t + 1;
    for (let i = 0; i < ch.length; i++) dst[i] = ch[i] !== 0 && ch[i] <= lim ? fin[i] : black;
  }

  /* Whether pixel i holds its final value at tick t (else it still holds zero). */
  committed(i, t) {
    return this.changed[i] !== 0 && this.changed[i] - 1 <= t;
  }

  /* Pixel (x, y)'s output values at tick t as text: the integral image's sum, else channels. */
  outText(x, y, t, device) {
    const i = y * this.W + x;
    const sums = device ? this.dev.outSums : this.outSums, vals = device ? this.dev.outVals : this.outVals;
    const live = device || this.committed(i, t);
    if (sums) return String(live ? sums[i] : 0);
    const C = this.j.C, out = [];
    for (let c = 0; c < C; c++) out.push(live ? vals[i * C + c] : 0);
    return out.join(' ');
  }

  inText(x, y) {
    const c = this.j.Cin, i = (y * this.W + x) * c, out = [];
    for (let k = 0; k < c; k++) out.push(this.inVals[i + k]);
    return out.join(' ');
  }

  /* FNV-1a over the output's exact bytes at tick t, in .npy order (C bytes a pixel, or the
   * sum's four little-endian bytes): what the test compares with run --tick --raw. */
  outHash(t) {
    let h = 0x811c9dc5;
    const mix = (b) => { h = Math.imul(h ^ b, 0x01000193) >>> 0; };
    const n = this.W * this.H;
    for (let i = 0; i < n; i++) {
      const live = this.committed(i, t);
      if (this.outSums) {
        const v = live ? this.outSums[i] : 0;
        mix(v & 255); mix((v >>> 8) & 255); mix((v >>> 16) & 255); mix(v >>> 24);
      } else {
        const C = this.j.C;
        for (let c = 0; c < C; c++) mix(live ? this.outVals[i * C + c] : 0);
      }
    }
    return h.toString(16).padStart(8, '0');
  }

  passAtTick(t) {
    for (let p = 0; p < this.passes.length; p++) if (t < this.passes[p].t_end) return p;
    return this.passes.length - 1;
  }

  /* 0 pending, 1 waiting (dispatched, holding a slot), 2 running, 3 done. */
  state(p, id, t) {
    const P = this.passes[p];
    const d = P.dtick[id];
    if (d < 0 || d > t) return 0;
    if (P.stick[id] > t) return 1;
    if (P.etick[id] > t) return 2;
    return 3;
  }

  tile(p, id) {
    const P = this.passes[p];
    if (!P.regular) return { x: P.tx0[id], y: P.ty0[id], w: P.tww[id], h: P.thh[id] };
    const tx = id % P.tw, ty = Math.floor(id / P.tw);
    const x = (P.transposed ? ty : tx) * P.tile[0], y = (P.transposed ? tx : ty) * P.tile[1];
    return { x, y, w: Math.max(0, Math.min(P.tile[0], this.W - x)), h: Math.max(0, Math.min(P.tile[1], this.H - y)) };
  }

  /* What thread id reads of the image, with its halo (unclipped). */
  footprint(p, id) {
    const P = this.passes[p], t = this.tile(p, id);
    return { x: t.x + P.rdx[id], y: t.y + P.rdy[id], w: P.rw[id], h: P.rh[id] };
  }

  /* The thread of pass p whose tile holds image point (x, y), or -1. */
  threadAt(p, x, y) {
    if (x < 0 || y < 0 || x >= this.W || y >= this.H) return -1;
    const P = this.passes[p], px = Math.floor(x), py = Math.floor(y);
    const tx = P.transposed ? Math.floor(py / P.tile[1]) : Math.floor(px / P.tile[0]);
    const ty = P.transposed ? Math.floor(px / P.tile[0]) : Math.floor(py / P.tile[1]);
    if (tx >= P.tw || ty >= P.th) return -1;
    return ty * P.tw + tx;
  }

  waits(p, id) {
    const P = this.passes[p], out = [];
    for (let k = P.woff[id]; k < P.woff[id + 1]; k++) out.push(P.wait[k]);
    return out;
  }

  waiters(p, id) {
    const P = this.passes[p];
    if (!P.waiterList) {
      P.waiterList = Array.from({ length: P.n }, () => []);
      for (let c = 0; c < P.n; c++)
        for (let k = P.woff[c]; k < P.woff[c + 1]; k++) P.waiterList[P.wait[k]].push(c);
    }
    return P.waiterList[id];
  }

  /* The producers thread id of pass p read before they finished, in the run's order. */
  earlyReads(p, id) {
    if (!this.hzBy) {
      this.hzBy = new Map();
      for (let i = 0; i < this.hz.pass.length; i++) {
        const key = this.hz.pass[i] * 4294967296 + this.hz.consumer[i];
        if (!this.hzBy.has(key)) this.hzBy.set(key, []);
        this.hzBy.get(key).push(this.hz.producer[i]);
      }
    }
    return this.hzBy.get(p * 4294967296 + id) || [];
  }

  /* Resident and running threads at tick t (ts_sched_occupancy). */
  occupancy(t) {
    const T = this.occ.tick;
    let lo = 0, hi = T.length;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (T[mid] <= t) lo = mid; else hi = mid;
    }
    if (T.length === 0 || T[lo] > t) return { resident: 0, running: 0 };
    return { resident: this.occ.resident[lo], running: this.occ.running[lo] };
  }

  xy(p, id) {
    const P = this.passes[p];
    return [id % P.tw, Math.floor(id / P.tw)];
  }

  /* ---- the device's record ---- */

  devPassAt(t) {
    const d = this.dev;
    for (let p = 0; p < d.passes.length - 1; p++) if (t < d.passes[p].endMax) return p;
    return d.passes.length - 1;
  }

  /* The record of thread id of pass p: tickets are dispatch indices. */
  devTicket(p, id) {
    return this.passes[p].dispatch[id];
  }

  devState(p, id, t) {
    const g = this.dev.passes[p], k = this.devTicket(p, id);
    return t < g.start[k] ? 0 : t < g.waited[k] ? 1 : t < g.end[k] ? 2 : 3;
  }

  devWrong(p, id) {
    return p === this.dev.passes.length - 1 && this.dev.wrong[id] !== 0;
  }

  /* Each thread's rank by its group's start on the device (ties by ticket). */
  devRanks(p) {
    const g = this.dev.passes[p];
    if (!g.ranks) {
      const order = Array.from({ length: g.n }, (_, k) => k);
      order.sort((a, b) => (g.start[a] - g.start[b]) || (a - b));
      const byTicket = new Uint32Array(g.n);
      order.forEach((k, r) => { byTicket[k] = r; });
      const P = this.passes[p];
      g.ranks = new Uint32Array(P.n);
      for (let id = 0; id < P.n; id++) g.ranks[id] = byTicket[P.dispatch[id]];
      g.maxWait = 1;
      for (let k = 0; k < g.n; k++) g.maxWait = Math.max(g.maxWait, g.waited[k] - g.start[k]);
    }
    return g.ranks;
  }

  /* The thread of pass p whose group took ticket k (the inverse of devTicket). */
  devThread(p, k) {
    const P = this.passes[p];
    if (!P.byTicket) {
      P.byTicket = new Int32Array(P.n).fill(-1);
      for (let id = 0; id < P.n; id++) if (P.dispatch[id] >= 0 && P.dispatch[id] < P.n) P.byTicket[P.dispatch[id]] = id;
    }
    return k >= 0 && k < P.n ? P.byTicket[k] : -1;
  }

  /* The groups of each lane (compute unit, or logical lane) in their start order, every pass:
   * per lane an array of [pass, ticket] pairs (made once). */
  devLanes() {
    const d = this.dev;
    if (!d.byLane) {
      const L = Math.max(1, d.lanes);
      d.byLane = Array.from({ length: L }, () => []);
      d.passes.forEach((g, p) => {
        for (let k = 0; k < g.n; k++) d.byLane[Math.min(L - 1, Math.max(0, g.lane[k]))].push([p, k]);
      });
      const st = (e) => d.passes[e[0]].start[e[1]];
      for (const lane of d.byLane) lane.sort((a, b) => (st(a) - st(b)) || (a[0] - b[0]) || (a[1] - b[1]));
    }
    return d.byLane;
  }

  /* The group of lane l in flight at device time t, else the one nearest to t within slack
   * (device time), as [pass, ticket], or null. */
  devGroupAt(l, t, slack) {
    const lanes = this.devLanes(), d = this.dev;
    if (l < 0 || l >= lanes.length) return null;
    let best = null, bestDist = slack;
    for (const e of lanes[l]) {
      const g = d.passes[e[0]], a = g.start[e[1]], b = g.end[e[1]];
      const dist = t < a ? a - t : t > b ? t - b : -1;
      if (dist < 0) return e;
      if (dist <= bestDist) { best = e; bestDist = dist; }
      if (a > t + slack) break;
    }
    return best;
  }

  /* Device time as the window writes it: events, or one unit for the whole run. */
  devTimeText(t) {
    const d = this.dev;
    if (!d.clock_ns) return 'event ' + t;
    if (d.t_end < 10000) return t + ' ns';
    if (d.t_end < 10000000) return (t * 1e-3).toFixed(2) + ' us';
    return (t * 1e-6).toFixed(3) + ' ms';
  }
}
