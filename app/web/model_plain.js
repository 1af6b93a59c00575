/* A plain kernel's observed run, as the window's plain_view.c sees it: per pass its
 * work-groups' records on the launch's clock (a tick each group's start, barrier and end, in
 * the order the device made them) and rectangles (what each read of the input and wrote of
 * the output); a group's state and tint at a tick; the group under an output point; the
 * output as it stands at a tick (a pixel once every group that wrote it has ended) and its
 * values as the kernel left them; the findings, the groups each names and its source lines;
 * the kernel's source. The panes are the input and the output, each of its own size, or in a
 * split view the two runs' outputs. Reads the data, draws nothing. */
'use strict';

const TS_PLAIN_BARS = 5;
/* A group's state at a tick: not started, running, running past a barrier, ended. */
const TS_PENDING = 0, TS_RUNNING = 1, TS_BARRIER = 2, TS_DONE = 3;
/* Finding kinds (ts_plain.h's TS_FIND_*) the page words apart. */
const TS_FIND_RACE_GROUPS = 1, TS_FIND_RACE_LOCAL = 2, TS_FIND_RACE_GLOBAL = 3;

/* A half float's bits as a number. */
function tsHalf(h) {
  const e = (h >> 10) & 31, m = h & 1023, s = h >> 15 ? -1 : 1;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (e ? (1 + m / 1024) * 2 ** (e - 15) : m / 1024 * 2 ** -14);
}

class TsPlainRun {
  /* j: the run's data; input: its input's ({w, h, c, planes}). A split view's run holds the
   * same kernel in another order as its twin (j.twin): then the left pane shows this run's
   * output and the right its twin's, on one clock (the longer's), one pass shown in both. */
  constructor(j, input) {
    this.j = j;
    this.input = input;
    this.plain = true;
    this.dev = null;
    this.srcW = this.inW = j.W;
    this.srcH = this.inH = j.H;
    this.W = j.out.w;
    this.H = j.out.h;
    this.sameShape = this.W === this.inW && this.H === this.inH;
    this.twin = j.twin ? new TsPlainRun(j.twin, input) : null;
    this.split = !!this.twin;
    if (this.split) { /* the left pane is an output too */
      this.inW = this.W;
      this.inH = this.H;
      this.sameShape = true;
    }
    this.shown = j.passes.length - 1; /* the pass shown: the one that writes the output */
    this.findings = j.findings;
    this.passes = j.passes.map((p, pi) => {
      const q = Object.assign({}, p);
      for (const k of ['rx', 'ry', 'rw', 'rh', 'wx', 'wy', 'ww', 'wh', 'kinds', 'start', 'end',
                       'ticket', 'as', 'spins', 'nbar', 'bar']) q[k] = tsData.array(p[k]);
      /* each group's tint: the strongest of its findings' kinds (0 clean, 1 orange, 2 red) */
      q.tint = new Uint8Array(q.n);
      for (let g = 0; g < q.n; g++)
        for (let k = 0; k < j.kinds.length; k++)
          if ((q.kinds[g] >>> k) & 1) q.tint[g] = Math.max(q.tint[g], j.kinds[k].tint);
      /* the findings that name each group, by their index */
      q.named = new Map();
      j.findings.forEach((f, i) => {
        if (f.pass !== pi) return;
        for (const g of f.groups) {
          if (!q.named.has(g)) q.named.set(g, []);
          q.named.get(g).push(i);
          if (g < q.n) q.tint[g] = Math.max(q.tint[g], j.kinds[f.kind].tint);
        }
      });
      return q;
    });
  }

  /* The pass shown (a split view's twin shows the same). */
  get pass() {
    return this.shown;
  }

  set pass(p) {
    this.shown = p;
    if (this.twin) this.twin.pass = Math.min(p, this.twin.passes.length - 1);
  }

  /* The shown pass's clock: 0 (nothing started) to its ticks (everything ended); in a split
   * view the longer of the two runs'. */
  get length() {
    const t = this.passes[this.pass].ticks;
    return this.twin ? Math.max(t, this.twin.length) : t;
  }

  load() {
    if (this.twin) this.twin.load();
    const j = this.j, n = this.W * this.H, C = j.out.c;
    tsDecodeInput(this.input);
    this.inVals = this.input.vals;
    this.inRGBA = this.input.rgba;
    this.outVals = tsData.interleaved(j.out.planes, this.W, this.H);
    this.raw = j.out.raw ? tsData.interleaved(j.out.raw.planes, this.W, this.H) : null;
    this.finRGBA = new Uint32Array(n);
    this.maskRGBA = new Uint32Array(n);
    /* not there yet: the background's dark with a trace of the value (plain_view_output_at) */
    const bg = [26, 28, 33], trace = (v, b) => Math.floor((v * 7 + b * 93 + 50) / 100);
    for (let i = 0; i < n; i++) {
      const o = i * C, rgb = C >= 3 ? [this.outVals[o], this.outVals[o + 1], this.outVals[o + 2]]
                                    : [this.outVals[o], this.outVals[o], this.outVals[o]];
      this.finRGBA[i] = tsPack(rgb[0], rgb[1], rgb[2], 255);
      this.maskRGBA[i] = C <= 2 ? tsPack(trace(rgb[0], bg[1]), trace(rgb[0], bg[1]), trace(rgb[0], bg[1]), 255)
                                : tsPack(trace(rgb[0], bg[0]), trace(rgb[1], bg[1]), trace(rgb[2], bg[2]), 255);
    }
  }

  /* Per output pixel of pass p, 1 + the tick from which it shows (0: never). */
  shownMap(p) {
    const P = this.passes[p];
    if (!P.shown) P.shown = tsData.words(P.shown_planes, this.W, this.H);
    return P.shown;
  }

  /* Whether output pixel i shows its value at tick t of the pass shown. */
  committed(i, t) {
    const m = this.shownMap(this.pass)[i];
    return m !== 0 && m - 1 <= t;
  }

  /* The output as it stands at tick t of the pass shown, into an RGBA word array. */
  outputAt(t, dst) {
    const m = this.shownMap(this.pass), lim = t + 1;
    for (let i = 0; i < m.length; i++) dst[i] = m[i] !== 0 && m[i] <= lim ? this.finRGBA[i] : this.maskRGBA[i];
  }

  /* Output pixels shown at tick t. */
  shownCount(t) {
    const m = this.shownMap(this.pass), lim = t + 1;
    let n = 0;
    for (let i = 0; i < m.length; i++) n += m[i] !== 0 && m[i] <= lim ? 1 : 0;
    return n;
  }

  /* FNV-1a over the output's bytes as shown at tick t (a pixel not there yet as zeros): at
   * the end, what run --raw writes when the output is bytes as is. */
  outHash(t) {
    let h = 0x811c9dc5;
    const C = this.j.out.c, n = this.W * this.H;
    for (let i = 0; i < n; i++) {
      const live = this.committed(i, t);
      for (let c = 0; c < C; c++) h = Math.imul(h ^ (live ? this.outVals[i * C + c] : 0), 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, '0');
  }

  /* Output pixel (x, y)'s values as the kernel left them (its raw lanes: 43, -7, 0.125), or
   * as shown when the page holds no other. */
  valueText(x, y) {
    const i = y * this.W + x, r = this.j.out.raw;
    if (!r || !this.raw) {
      const C = this.j.out.c, out = [];
      for (let c = 0; c < C; c++) out.push(this.outVals[i * C + c]);
      return out.join(' ');
    }
    const bpp = r.lane * r.channels, b = new Uint8Array(8), dv = new DataView(b.buffer), out = [];
    for (let c = 0; c < r.channels; c++) {
      b.fill(0);
      for (let k = 0; k < r.lane; k++) b[k] = this.raw[i * bpp + c * r.lane + k];
      let v;
      if (r.float && r.lane === 2) v = Number(tsHalf(dv.getUint16(0, true)).toPrecision(4));
      else if (r.float) v = r.lane === 4 ? Number(dv.getFloat32(0, true).toPrecision(6)) : Number(dv.getFloat64(0, true).toPrecision(8));
      else if (r.lane === 8) v = r.signed ? dv.getBigInt64(0, true) : dv.getBigUint64(0, true);
      else {
        v = dv.getUint32(0, true);
        if (r.signed && r.lane < 4 && v >= 2 ** (8 * r.lane - 1)) v -= 2 ** (8 * r.lane);
        else if (r.signed && r.lane === 4) v = dv.getInt32(0, true);
      }
      out.push(String(v));
    }
    return out.join(' ');
  }

  /* Pixel (x, y) of the output at tick t: its values once shown, else "". */
  outText(x, y, t) {
    return this.committed(y * this.W + x, t) ? this.valueText(x, y) : '';
  }

  /* The output pixel's displayed byte (for a value's contrast). */
  outShade(x, y) {
    return this.outVals[(y * this.W + x) * this.j.out.c];
  }

  inText(x, y) {
    if (x >= this.srcW || y >= this.srcH) return '';
    const c = this.j.Cin, i = (y * this.srcW + x) * c, out = [];
    for (let k = 0; k < c; k++) out.push(this.inVals[i + k]);
    return out.join(' ');
  }

  /* Whether a pass after the one shown writes output pixel (x, y). */
  laterWrites(x, y) {
    for (let q = this.pass + 1; q < this.passes.length; q++) if (this.threadAt(q, x + 0.5, y + 0.5) >= 0) return true;
    return false;
  }

  passAtTick() {
    return this.pass;
  }

  /* Barriers group g of pass p had passed by tick t. */
  barriersBy(p, g, t) {
    const P = this.passes[p];
    let n = 0;
    for (let b = 0; b < Math.min(P.nbar[g], TS_PLAIN_BARS); b++) {
      const at = P.bar[g * TS_PLAIN_BARS + b];
      n += at && at <= t ? 1 : 0;
    }
    return n;
  }

  /* TS_PENDING, TS_RUNNING, TS_BARRIER or TS_DONE (plain_view_group_state). */
  state(p, g, t) {
    const P = this.passes[p];
    if (!P.start[g] || P.start[g] > t) return TS_PENDING;
    if (P.end[g] && P.end[g] <= t) return TS_DONE;
    return this.barriersBy(p, g, t) ? TS_BARRIER : TS_RUNNING;
  }

  /* Group g's rectangles: what it wrote of the output, read of the input (w 0: nothing). */
  tile(p, g) {
    const P = this.passes[p];
    return { x: P.wx[g], y: P.wy[g], w: P.ww[g], h: P.wh[g] };
  }

  footprint(p, g) {
    const P = this.passes[p];
    return { x: P.rx[g], y: P.ry[g], w: P.rw[g], h: P.rh[g] };
  }

  /* Its declared tile with `grow` pixels round it, or null when none is declared. */
  declared(p, g, grow) {
    const P = this.passes[p], [tw, th] = P.tile, [gx, gy] = this.xy(p, g);
    if (tw <= 0 || th <= 0) return null;
    return { x: gx * tw - grow, y: (gy || 0) * th - grow, w: tw + 2 * grow, h: th + 2 * grow };
  }

  /* The group of pass p whose tile holds output point (x, y), the nearest its corner where
   * tiles overlap (plain_view_group_at), or -1. */
  threadAt(p, x, y) {
    if (x < 0 || y < 0 || x >= this.W || y >= this.H) return -1;
    const P = this.passes[p], px = Math.floor(x), py = Math.floor(y);
    let best = -1, bd = 0;
    for (let g = 0; g < P.n; g++) {
      const x0 = P.wx[g], y0 = P.wy[g];
      if (!P.ww[g] || px < x0 || py < y0 || px >= x0 + P.ww[g] || py >= y0 + P.wh[g]) continue;
      const d = px - x0 + py - y0;
      if (best < 0 || d < bd) { best = g; bd = d; }
    }
    return best;
  }

  /* A group's coordinates, as many as the launch's dimensions. */
  xy(p, g) {
    const P = this.passes[p], [nx, ny] = P.ngroups;
    const c = [g % nx, Math.floor(g / nx) % ny, Math.floor(g / nx / ny)];
    return c.slice(0, Math.max(1, P.dims));
  }

  name(p, g) {
    return `(${this.xy(p, g).join(',')})`;
  }

  /* Running groups at each tick of pass p (those past a barrier among them), made once. */
  flight(p) {
    const P = this.passes[p];
    if (!P.flight) {
      const T = P.ticks, run = new Int32Array(T + 2);
      for (let g = 0; g < P.n; g++) {
        if (!P.start[g]) continue;
        run[P.start[g]]++;
        run[P.end[g] ? P.end[g] : T + 1]--;
      }
      P.flight = new Int32Array(T + 1);
      P.peak = 0;
      for (let t = 0, c = 0; t <= T; t++) {
        c += run[t];
        P.flight[t] = c;
        P.peak = Math.max(P.peak, c);
      }
    }
    return P.flight;
  }

  /* Pass p's groups packed into lanes by their records (each lane's bars apart), made once:
   * lane per group, and how many lanes. */
  lanes(p) {
    const P = this.passes[p];
    if (!P.lane) {
      const order = [];
      for (let g = 0; g < P.n; g++) if (P.start[g]) order.push(g);
      order.sort((a, b) => P.start[a] - P.start[b] || a - b);
      const ends = [];
      P.lane = new Int32Array(P.n).fill(-1);
      for (const g of order) {
        let l = 0;
        while (l < ends.length && ends[l] > P.start[g]) l++;
        ends[l] = P.end[g] ? P.end[g] : Infinity;
        P.lane[g] = l;
      }
      P.nlanes = Math.max(1, ends.length);
    }
    return P.lane;
  }

  /* ---- the findings on the groups and the source's lines ---- */

  /* The work-groups finding i names, each with its part: 'a' where the finding is (its
   * places' groups), 'b' the other access of a race between groups (the same group's other
   * work-item for a race in a group). */
  findingGroups(i) {
    const f = this.findings[i], out = [], seen = new Set();
    const add = (g, role) => {
      if (g >= 0 && g < this.passes[f.pass].n && !seen.has(g)) { seen.add(g); out.push({ g, role }); }
    };
    for (const p of f.places || []) add(p.g, 'a');
    if (f.kind === TS_FIND_RACE_GROUPS) for (const p of f.places || []) add(p.og, 'b');
    for (const g of f.groups) add(g, 'a');
    return out;
  }

  /* Finding i's source lines: its own, and the other access's of a race where known. */
  findingLines(i) {
    const f = this.findings[i], out = [f.line];
    for (const p of f.places || []) if (p.oline > 0 && !out.includes(p.oline)) out.push(p.oline);
    return out;
  }

  /* The kernel's source lines ([] when the page holds none). */
  srcLines() {
    if (!this.lines) {
      const t = this.j.source ? this.j.source.text : '';
      this.lines = t ? t.replace(/\n$/, '').split('\n') : [];
    }
    return this.lines;
  }

  /* Per source line, the findings made there ({kind: count}) and those whose other access is
   * there (their indices), made once. */
  lineMarks() {
    if (!this.marks) {
      this.marks = new Map();
      const at = (l) => {
        if (!this.marks.has(l)) this.marks.set(l, { kinds: new Map(), others: [], own: [] });
        return this.marks.get(l);
      };
      this.findings.forEach((f, i) => {
        const m = at(f.line);
        m.own.push(i);
        m.kinds.set(f.kind, (m.kinds.get(f.kind) || 0) + f.count);
        for (const l of this.findingLines(i).slice(1)) at(l).others.push(i);
      });
    }
    return this.marks;
  }

  /* The work-groups of pass p that ran source line l, as far as the data tells: those its
   * findings name (of either access). */
  lineGroups(l, p) {
    const m = this.lineMarks().get(l), out = [], seen = new Set();
    if (!m) return out;
    for (const i of m.own.concat(m.others)) {
      if (this.findings[i].pass !== p) continue;
      for (const x of this.findingGroups(i)) if (!seen.has(x.g)) { seen.add(x.g); out.push({ g: x.g, role: 'l' }); }
    }
    return out;
  }

  /* What the findings list and the source pane mark (S.pfindHover, S.pfind: a finding hovered
   * or selected; S.pline: a source line selected): the finding, its pass, its lines and the
   * groups to outline; or null. */
  marked(S) {
    const i = S.pfindHover >= 0 ? S.pfindHover : S.pfind >= 0 ? S.pfind : -1;
    if (i >= 0 && i < this.findings.length)
      return { find: i, pass: this.findings[i].pass, lines: this.findingLines(i), groups: this.findingGroups(i) };
    if (S.pline > 0) return { find: -1, pass: this.pass, lines: [S.pline], groups: this.lineGroups(S.pline, this.pass) };
    return null;
  }

  /* The groups' states at tick t, counted: [pending, running, past a barrier, done]. */
  counts(p, t) {
    const c = [0, 0, 0, 0];
    for (let g = 0; g < this.passes[p].n; g++) c[this.state(p, g, t)]++;
    return c;
  }
}
