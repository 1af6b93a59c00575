/* Observed accesses and the checks made from them (see ts_observe.h). The observation
 * buffer's layout is shared with kernels/common.cl (its TS_O_* words): a header, then 12
 * ints per thread, role and kind, then the last writer and the other writer of each dst
 * element, then the chosen thread's bitmaps. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_observe.h"

enum { O_OOB_N, O_OOB_SET, O_OOB_TID, O_OOB_ROLE, O_OOB_KIND, O_OOB_COL, O_OOB_ROW, O_TW,
       O_CHOSEN, O_CONFLICTS, O_GEOM = 10, O_SUMS = 16, O_LAST, O_OTHER, O_BITS = 20,
       O_ESIZE = 26, O_SCRATCH = 29, O_HEADER = 32, O_SLOT = 12 };

struct ts_observe {
  int npasses;
  ts_obs_pass pass[TS_MAX_PASSES];
};

static const ts_obs_rect empty_rect = { 0, 0, -1, -1 };

static ts_obs_rect clip(int x, int y, int w, int h, int cols, int rows)
{
  int x0 = x > 0 ? x : 0, y0 = y > 0 ? y : 0;
  int x1 = x + w < cols ? x + w : cols, y1 = y + h < rows ? y + h : rows;
  if (w <= 0 || h <= 0 || x1 <= x0 || y1 <= y0)
    return empty_rect;
  return (ts_obs_rect){ x0, y0, x1 - 1, y1 - 1 };
}

static int rect_empty(ts_obs_rect r)
{
  return r.x1 < r.x0 || r.y1 < r.y0;
}

/* What thread (tx, ty) of pass pi declares for a role and kind, in that buffer's elements:
 * src reads: its footprint (read_px, image pixels with halo, mapped to elements and
 * clipped: reads clamp at the edges); committed reads: the bounding rectangle of its
 * self_reads; dst writes: its write rectangle; nothing else. */
static ts_obs_rect declared(const ts_kctx *k, const ts_pass_desc *pd, const ts_obs_pass *op,
                            int tx, int ty, int role, int kind)
{
  int cols = op->cols[role], rows = op->rows[role];
  int C = pd->src == TS_BUF_IN ? k->in_c : k->C;
  if (role == TS_ROLE_SRC && kind == TS_ACC_READ) {
    ts_rect p = pd->read_px(k, tx, ty);
    return pd->src_transposed ? clip(p.y * C, p.x, p.h * C, p.w, cols, rows)
                              : clip(p.x * C, p.y, p.w * C, p.h, cols, rows);
  }
  if (role == TS_ROLE_COMMITTED && kind == TS_ACC_READ && pd->self_reads) {
    ts_rect rs[8];
    int n = pd->self_reads(k, tx, ty, rs);
    ts_obs_rect u = empty_rect;
    for (int i = 0; i < n; i++) {
      ts_obs_rect c = clip(rs[i].x, rs[i].y, rs[i].w, rs[i].h, cols, rows);
      if (rect_empty(c))
        continue;
      if (rect_empty(u)) {
        u = c;
        continue;
      }
      u.x0 = c.x0 < u.x0 ? c.x0 : u.x0;
      u.y0 = c.y0 < u.y0 ? c.y0 : u.y0;
      u.x1 = c.x1 > u.x1 ? c.x1 : u.x1;
      u.y1 = c.y1 > u.y1 ? c.y1 : u.y1;
    }
    return u;
  }
  if (role == TS_ROLE_DST && kind == TS_ACC_WRITE) {
    ts_rect w = pd->write_rect(k, tx, ty);
    return clip(w.x, w.y, w.w, w.h, cols, rows);
  }
  return empty_rect;
}

static size_t bitmap_words(const ts_obs_pass *op, int role)
{
  return ((size_t)op->cols[role] * (size_t)op->rows[role] + 31) / 32;
}

/* The observation buffer's size and section offsets for a pass; 0 on overflow. */
static size_t layout(const ts_obs_pass *op, size_t *sums, size_t *last, size_t *other,
                     size_t bits[TS_NROLES][2], size_t *scratch)
{
  size_t n = op->n, elems = (size_t)op->cols[TS_ROLE_DST] * (size_t)op->rows[TS_ROLE_DST];
  if (n > SIZE_MAX / (TS_NROLES * 2 * O_SLOT) || elems > SIZE_MAX / 4)
    return 0;
  size_t at = O_HEADER;
  *sums = at;
  at += n * TS_NROLES * 2 * O_SLOT;
  *last = at;
  at += elems;
  *other = at;
  at += elems;
  for (int r = 0; r < TS_NROLES; r++)
    for (int kd = 0; kd < 2; kd++) {
      bits[r][kd] = at;
      at += bitmap_words(op, r);
    }
  *scratch = at; /* 32 words that read 0, 32 that writes outside every buffer land in */
  at += 64;
  return at > UINT32_MAX ? 0 : at;
}

static ts_status setup_pass(ts_run *run, int pi, int cx, int cy, ts_obs_pass *op,
                            ts_error *err)
{
  const ts_kctx *k = ts_run_kctx(run);
  const ts_pass_desc *pd = &ts_run_params_of(run)->variant->passes[pi];
  const ts_pass_sched *ps = &ts_run_sched(run)->pass[pi];
  op->n = ps->n;
  op->tw = ps->tw;
  op->th = ps->th;
  int bufs[TS_NROLES] = { pd->src, pd->dst, pd->dst };
  for (int r = 0; r < TS_NROLES; r++) {
    op->buf[r] = bufs[r];
    op->cols[r] = k->buf[bufs[r]].cols;
    op->rows[r] = k->buf[bufs[r]].rows;
  }
  op->chosen = cx >= 0 && cy >= 0 && cx < ps->tw && cy < ps->th
                   ? (uint32_t)cy * (uint32_t)ps->tw + (uint32_t)cx
                   : TS_OBS_NONE;
  size_t sums = 0, last = 0, other = 0, bits[TS_NROLES][2] = { { 0 } }, scratch = 0;
  size_t words = layout(op, &sums, &last, &other, bits, &scratch);
  uint32_t *w = words ? calloc(words, sizeof *w) : NULL;
  if (!w)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory for the observation of pass %d", pi + 1);
  w[O_TW] = (uint32_t)ps->tw;
  w[O_CHOSEN] = op->chosen;
  for (int r = 0; r < TS_NROLES; r++) {
    w[O_GEOM + 2 * r] = (uint32_t)op->cols[r];
    w[O_GEOM + 2 * r + 1] = (uint32_t)op->rows[r];
    w[O_ESIZE + r] = (uint32_t)k->buf[bufs[r]].esize;
    for (int kd = 0; kd < 2; kd++)
      w[O_BITS + r * 2 + kd] = (uint32_t)bits[r][kd];
  }
  w[O_SUMS] = (uint32_t)sums;
  w[O_SCRATCH] = (uint32_t)scratch;
  w[O_LAST] = (uint32_t)last;
  w[O_OTHER] = (uint32_t)other;
  for (uint32_t id = 0; id < op->n; id++) {
    int tx = (int)(id % (uint32_t)ps->tw), ty = (int)(id / (uint32_t)ps->tw);
    for (int r = 0; r < TS_NROLES; r++)
      for (int kd = 0; kd < 2; kd++) {
        int32_t *s = (int32_t *)w + sums + ((size_t)id * TS_NROLES * 2 + (size_t)(r * 2 + kd)) * O_SLOT;
        ts_obs_rect d = declared(k, pd, op, tx, ty, r, kd);
        s[0] = s[1] = INT_MAX;
        s[2] = s[3] = -1;
        s[10] = INT_MAX;
        s[5] = d.x0;
        s[6] = d.y0;
        s[7] = d.x1;
        s[8] = d.y1;
      }
  }
  ts_status st = ts_cl_run_observe(ts_run_cl(run), pi, w, words, err);
  free(w);
  return st;
}

static ts_status read_pass(ts_run *run, int pi, ts_obs_pass *op, ts_error *err)
{
  size_t sums = 0, last = 0, other = 0, bits[TS_NROLES][2] = { { 0 } }, scratch = 0;
  size_t words = layout(op, &sums, &last, &other, bits, &scratch);
  size_t elems = (size_t)op->cols[TS_ROLE_DST] * (size_t)op->rows[TS_ROLE_DST];
  uint32_t *w = calloc(words, sizeof *w);
  op->acc = calloc((size_t)op->n * TS_NROLES * 2 + 1, sizeof *op->acc);
  op->last = malloc((elems + 1) * sizeof *op->last);
  op->other = malloc((elems + 1) * sizeof *op->other);
  if (!w || !op->acc || !op->last || !op->other) {
    free(w);
    return ts_fail(err, TS_ERR_NOMEM, "out of memory for the observation of pass %d", pi + 1);
  }
  ts_status st = ts_cl_run_observe_read(ts_run_cl(run), pi, w, err);
  if (st != TS_OK) {
    free(w);
    return st;
  }
  op->oob = w[O_OOB_N];
  op->oob_tid = w[O_OOB_TID];
  op->oob_role = (int)w[O_OOB_ROLE];
  op->oob_kind = (int)(w[O_OOB_KIND] & 1);
  op->oob_pitch = (w[O_OOB_KIND] & 2) != 0;
  op->oob_col = (int)w[O_OOB_COL];
  op->oob_row = (int)w[O_OOB_ROW];
  op->conflicts = w[O_CONFLICTS];
  for (size_t i = 0; i < (size_t)op->n * TS_NROLES * 2; i++) {
    const int32_t *s = (const int32_t *)w + sums + i * O_SLOT;
    ts_obs_acc *a = &op->acc[i];
    a->count = (uint32_t)s[4];
    a->seen = a->count ? (ts_obs_rect){ s[0], s[1], s[2], s[3] } : empty_rect;
    a->declared = (ts_obs_rect){ s[5], s[6], s[7], s[8] };
    a->outside = (uint32_t)s[9];
    int cols = op->cols[(i / 2) % TS_NROLES];
    a->out_col = a->outside ? s[10] % cols : -1;
    a->out_row = a->outside ? s[10] / cols : -1;
  }
  memcpy(op->last, w + last, elems * sizeof *w);
  memcpy(op->other, w + other, elems * sizeof *w);
  if (op->chosen != TS_OBS_NONE)
    for (int r = 0; r < TS_NROLES && st == TS_OK; r++)
      for (int kd = 0; kd < 2 && st == TS_OK; kd++) {
        size_t nb = bitmap_words(op, r);
        if (!(op->bits[r][kd] = malloc((nb + 1) * sizeof *w)))
          st = ts_fail(err, TS_ERR_NOMEM, "out of memory for the observation of pass %d", pi + 1);
        else
          memcpy(op->bits[r][kd], w + bits[r][kd], nb * sizeof *w);
      }
  free(w);
  return st;
}

ts_status ts_observe_run(ts_run *run, int chosen_x, int chosen_y, ts_observe **out,
                         ts_error *err)
{
  const ts_run_params *p = ts_run_params_of(run);
  if (!ts_run_cl(run))
    return ts_fail(err, TS_ERR_ARG,
                   "--observe: observation runs on the OpenCL back end, not the CPU model");
  if (p->exec_device)
    return ts_fail(err, TS_ERR_ARG,
                   "--observe: observation replays the simulated order (--exec sim), not --exec device");
  ts_observe *ob = calloc(1, sizeof *ob);
  if (!ob)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  ob->npasses = p->variant->npasses;
  ts_status st = TS_OK;
  for (int pi = 0; pi < ob->npasses && st == TS_OK; pi++)
    st = setup_pass(run, pi, chosen_x, chosen_y, &ob->pass[pi], err);
  if (st == TS_OK)
    st = ts_run_rewind(run, err);
  if (st == TS_OK)
    st = ts_run_seek(run, INT64_MAX, err);
  for (int pi = 0; pi < ob->npasses && st == TS_OK; pi++)
    st = read_pass(run, pi, &ob->pass[pi], err);
  for (int pi = 0; pi < ob->npasses; pi++)
    ts_cl_run_observe(ts_run_cl(run), pi, NULL, 0, NULL);
  if (st != TS_OK) {
    ts_observe_destroy(ob);
    return st;
  }
  *out = ob;
  return TS_OK;
}

void ts_observe_destroy(ts_observe *ob)
{
  if (!ob)
    return;
  for (int pi = 0; pi < TS_MAX_PASSES; pi++) {
    ts_obs_pass *op = &ob->pass[pi];
    free(op->acc);
    free(op->last);
    free(op->other);
    for (int r = 0; r < TS_NROLES; r++)
      for (int kd = 0; kd < 2; kd++)
        free(op->bits[r][kd]);
  }
  free(ob);
}

int ts_observe_npasses(const ts_observe *ob)
{
  return ob->npasses;
}

const ts_obs_pass *ts_observe_pass(const ts_observe *ob, int pass)
{
  return pass >= 0 && pass < ob->npasses ? &ob->pass[pass] : NULL;
}

const ts_obs_acc *ts_obs_at(const ts_obs_pass *op, uint32_t id, int role, int kind)
{
  return &op->acc[((size_t)id * TS_NROLES + (size_t)role) * 2 + (size_t)kind];
}

int ts_obs_chosen_has(const ts_obs_pass *op, int role, int kind, int col, int row)
{
  const uint32_t *b = op->bits[role][kind];
  if (!b || col < 0 || row < 0 || col >= op->cols[role] || row >= op->rows[role])
    return 0;
  size_t e = (size_t)row * (size_t)op->cols[role] + (size_t)col;
  return (b[e / 32] >> (e % 32)) & 1;
}

/* ---- checks ---- */

static ts_status push_finding(ts_obs_report *rep, size_t *cap, ts_obs_finding f, ts_error *err)
{
  if (rep->nfindings == *cap) {
    size_t nc = *cap ? *cap * 2 : 16;
    ts_obs_finding *l = realloc(rep->findings, nc * sizeof *l);
    if (!l)
      return ts_fail(err, TS_ERR_NOMEM, "out of memory for the observation report");
    rep->findings = l;
    *cap = nc;
  }
  rep->findings[rep->nfindings++] = f;
  return TS_OK;
}

/* Hazards from observed reads: every element of a thread's observed rectangle of committed
 * reads whose last writer is another thread that ends after this one starts. */
static ts_status observed_hazards(const ts_obs_pass *op, const ts_pass_sched *ps, int pi,
                                  ts_obs_report *rep, size_t *cap, ts_error *err)
{
  for (uint32_t id = 0; id < op->n; id++) {
    const ts_obs_acc *a = ts_obs_at(op, id, TS_ROLE_COMMITTED, TS_ACC_READ);
    if (!a->count)
      continue;
    uint32_t seen[32];
    int nseen = 0;
    for (int y = a->seen.y0; y <= a->seen.y1; y++)
      for (int x = a->seen.x0; x <= a->seen.x1; x++) {
        uint32_t w = op->last[(size_t)y * (size_t)op->cols[TS_ROLE_DST] + (size_t)x];
        if (w == 0 || w - 1 == id || w - 1 >= op->n)
          continue;
        uint32_t prod = w - 1;
        int dup = 0;
        for (int s = 0; s < nseen; s++)
          dup |= seen[s] == prod;
        if (dup || nseen == 32)
          continue;
        seen[nseen++] = prod;
        if (ps->t[prod].end_tick <= ps->t[id].start_tick)
          continue;
        if (rep->nhazards == *cap) {
          size_t nc = *cap ? *cap * 2 : 64;
          ts_hazard *l = realloc(rep->hazards, nc * sizeof *l);
          if (!l)
            return ts_fail(err, TS_ERR_NOMEM, "out of memory for the observed hazards");
          rep->hazards = l;
          *cap = nc;
        }
        rep->hazards[rep->nhazards++] = (ts_hazard){ pi, id, prod };
      }
  }
  return TS_OK;
}

static int rect_eq(ts_obs_rect a, ts_obs_rect b)
{
  return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1;
}

/* A footprint is declared in pixels: an observed rectangle of src reads, rounded out to
 * whole pixels of C elements, is what a tight declaration gives. */
static ts_obs_rect pixels(ts_obs_rect r, int role, int kind, int C)
{
  if (rect_empty(r) || role != TS_ROLE_SRC || kind != TS_ACC_READ)
    return r;
  r.x0 -= r.x0 % C;
  r.x1 += C - 1 - r.x1 % C;
  return r;
}

ts_status ts_observe_check(const ts_observe *ob, const ts_run *run, size_t max_lines,
                           ts_obs_report *rep, ts_error *err)
{
  const ts_kctx *k = ts_run_kctx(run);
  memset(rep, 0, sizeof *rep);
  size_t cap = 0, hcap = 0, shown_fp = 0, shown_wr = 0, shown_cf = 0;
  ts_status st = TS_OK;
  ts_run_hazards(run, &rep->declared_hazards);
  for (int pi = 0; pi < ob->npasses && st == TS_OK; pi++) {
    const ts_obs_pass *op = &ob->pass[pi];
    /* src's pixels: an own_luma integral reads RGB(A), and of RGBA never the alpha */
    const int C = k->variant->passes[pi].src == TS_BUF_IN ? k->in_c : k->C;
    if (op->oob) {
      rep->out_of_buffer += op->oob;
      ts_obs_finding f = { TS_OBS_OUT_OF_BUFFER, pi, op->oob_role, op->oob_col, op->oob_row,
                           op->oob_tid, 0, empty_rect, op->oob };
      f.declared.x1 = op->oob_kind; /* the kind travels in the unused rectangle */
      f.declared.y1 = op->oob_pitch;
      st = push_finding(rep, &cap, f, err);
    }
    for (uint32_t id = 0; id < op->n && st == TS_OK; id++)
      for (int r = 0; r < TS_NROLES && st == TS_OK; r++)
        for (int kd = 0; kd < 2 && st == TS_OK; kd++) {
          const ts_obs_acc *a = ts_obs_at(op, id, r, kd);
          if (!rect_empty(a->declared) && !rect_eq(pixels(a->seen, r, kd, C), a->declared))
            rep->generous += a->outside == 0;
          if (!a->outside)
            continue;
          size_t *shown = kd == TS_ACC_READ ? &shown_fp : &shown_wr;
          if (kd == TS_ACC_READ)
            rep->footprint++;
          else
            rep->write_rect++;
          if ((*shown)++ >= max_lines)
            continue;
          ts_obs_finding f = { kd == TS_ACC_READ ? TS_OBS_FOOTPRINT : TS_OBS_WRITE_RECT, pi, r,
                               a->out_col, a->out_row, id, 0, a->declared, a->outside };
          st = push_finding(rep, &cap, f, err);
        }
    size_t elems = (size_t)op->cols[TS_ROLE_DST] * (size_t)op->rows[TS_ROLE_DST];
    rep->conflicts += op->conflicts;
    for (size_t e = 0; e < elems && st == TS_OK && shown_cf < max_lines; e++)
      if (op->other[e]) {
        ts_obs_finding f = { TS_OBS_CONFLICT, pi, TS_ROLE_DST,
                             (int)(e % (size_t)op->cols[TS_ROLE_DST]),
                             (int)(e / (size_t)op->cols[TS_ROLE_DST]), op->last[e] - 1,
                             op->other[e] - 1, empty_rect, 0 };
        st = push_finding(rep, &cap, f, err);
        shown_cf++;
      }
    if (st == TS_OK)
      st = observed_hazards(op, &ts_run_sched(run)->pass[pi], pi, rep, &hcap, err);
  }
  if (st != TS_OK)
    ts_obs_report_free(rep);
  return st;
}

void ts_obs_report_free(ts_obs_report *rep)
{
  free(rep->findings);
  free(rep->hazards);
  memset(rep, 0, sizeof *rep);
}

int ts_obs_report_failed(const ts_obs_report *rep)
{
  return rep->footprint || rep->write_rect || rep->out_of_buffer || rep->conflicts;
}

const char *ts_obs_buffer_name(int buf)
{
  return buf == TS_BUF_IN ? "in" : buf == TS_BUF_OUT ? "out" : "mid";
}

/* A buffer's elements as the image's pixels: the channels a pixel has when its rows hold the
 * image's W pixels of C channels, or 0 (a transposed temporary: its own columns). */
static int pixel_channels(const ts_kctx *k, const ts_buf *b)
{
  return b->cols == k->W * k->C ? k->C : b->cols == k->W ? 1 : 0;
}

/* "pixel (16,0) channel 0", "pixel (3,7)", or "column 48 row 0" */
static void where(int c, int col, int row, char *s, size_t n)
{
  if (c > 1)
    snprintf(s, n, "pixel (%d,%d) channel %d", col / c, row, col % c);
  else if (c == 1)
    snprintf(s, n, "pixel (%d,%d)", col, row);
  else
    snprintf(s, n, "column %d row %d", col, row);
}

void ts_obs_finding_line(const ts_run *run, const ts_obs_finding *f, char *line, size_t size)
{
  const ts_variant *v = ts_run_params_of(run)->variant;
  const ts_pass_desc *pd = &v->passes[f->pass];
  const ts_pass_sched *ps = &ts_run_sched(run)->pass[f->pass];
  const ts_kctx *k = ts_run_kctx(run);
  uint32_t w = (uint32_t)ps->tw;
  int buf = f->role == TS_ROLE_SRC ? pd->src : pd->dst;
  const ts_buf *b = &k->buf[buf];
  int c = pixel_channels(k, b);
  const char *bn = ts_obs_buffer_name(buf), *committed = f->role == TS_ROLE_COMMITTED
                                                             ? " (committed)" : "";
  char decl[96], at[64];
  where(c, f->col, f->row, at, sizeof at);
  if (rect_empty(f->declared))
    snprintf(decl, sizeof decl, "it declares none there");
  else if (c > 0)
    snprintf(decl, sizeof decl, "pixels x %d..%d, y %d..%d", f->declared.x0 / c,
             f->declared.x1 / c, f->declared.y0, f->declared.y1);
  else
    snprintf(decl, sizeof decl, "columns %d..%d, rows %d..%d", f->declared.x0, f->declared.x1,
             f->declared.y0, f->declared.y1);
  switch (f->kind) {
  case TS_OBS_FOOTPRINT:
    snprintf(line, size,
             "%s: pass %d thread (%u,%u) read %s%s %s, outside its declared footprint (%s; %u "
             "access%s outside)",
             v->name, f->pass + 1, f->thread % w, f->thread / w, bn, committed, at, decl,
             f->count, f->count == 1 ? "" : "es");
    break;
  case TS_OBS_WRITE_RECT:
    snprintf(line, size,
             "%s: pass %d thread (%u,%u) wrote %s %s, outside its declared write rectangle (%s; "
             "%u access%s outside)",
             v->name, f->pass + 1, f->thread % w, f->thread / w, bn, at, decl, f->count,
             f->count == 1 ? "" : "es");
    break;
  case TS_OBS_OUT_OF_BUFFER: {
    char size_words[64];
    if (c > 0)
      snprintf(size_words, sizeof size_words, "%d x %d pixels%s", b->cols / c, b->rows,
               c > 1 ? (c == 3 ? " of 3 channels" : " of 4 channels") : "");
    else
      snprintf(size_words, sizeof size_words, "%d columns x %d rows", b->cols, b->rows);
    snprintf(line, size,
             "%s: pass %d thread (%u,%u) %s %s%s %s, outside the buffer (%s%s); not performed "
             "(%u such access%s)",
             v->name, f->pass + 1, f->thread % w, f->thread / w,
             f->declared.x1 ? "wrote" : "read", bn, committed, at, size_words,
             f->declared.y1 ? ", and the pitch given was not the row's length" : "", f->count,
             f->count == 1 ? "" : "es");
    break;
  }
  case TS_OBS_CONFLICT:
    snprintf(line, size, "%s: pass %d: %s %s written by thread (%u,%u) and thread (%u,%u)",
             v->name, f->pass + 1, bn, at, f->other % w, f->other / w, f->thread % w,
             f->thread / w);
    break;
  }
}
