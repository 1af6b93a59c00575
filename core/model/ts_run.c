/* The executor: buffers, shadow writes, in-order replay of a schedule, hazards.
 * A pass that never reads what its own threads write (every pass but the integral image's
 * blocks) needs no shadow: nothing it reads changes while it runs, so each thread runs at
 * its end tick straight into the buffer and the output is what the commit would have made
 * (writes visible at the end tick, in the same order). Its buffer then has no shadow, on
 * the host or the device. The input buffer is the caller's image itself, shared. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ts_ref.h"
#include "ts_run_int.h"

/* Rows lo .. hi - 1 of buffer b changed, in its columns x0 .. x1 - 1. */
static void mark_rows(ts_run *run, int b, int lo, int hi, int x0, int x1)
{
  if (hi <= lo)
    return;
  if (run->dl_hi[b] <= run->dl_lo[b]) {
    run->dl_lo[b] = lo;
    run->dl_hi[b] = hi;
  } else {
    run->dl_lo[b] = lo < run->dl_lo[b] ? lo : run->dl_lo[b];
    run->dl_hi[b] = hi > run->dl_hi[b] ? hi : run->dl_hi[b];
  }
  if (b == TS_BUF_OUT && x1 > x0) {
    /* A rectangle that continues the last one along its row joins it (a row of tiles). */
    ts_rect *last = run->nview > 0 && run->nview <= TS_VIEW_RECTS ? &run->view[run->nview - 1]
                                                                  : NULL;
    if (last && last->y == lo && last->h == hi - lo && last->x + last->w == x0)
      last->w += x1 - x0;
    else if (run->nview++ < TS_VIEW_RECTS)
      run->view[run->nview - 1] = (ts_rect){ x0, lo, x1 - x0, hi - lo };
    else
      run->nview = TS_VIEW_RECTS + 1;
    if (run->view_y1 <= run->view_y0) {
      run->view_x0 = x0;
      run->view_y0 = lo;
      run->view_x1 = x1;
      run->view_y1 = hi;
    } else {
      run->view_x0 = x0 < run->view_x0 ? x0 : run->view_x0;
      run->view_y0 = lo < run->view_y0 ? lo : run->view_y0;
      run->view_x1 = x1 > run->view_x1 ? x1 : run->view_x1;
      run->view_y1 = hi > run->view_y1 ? hi : run->view_y1;
    }
  }
}

void tsrun_mark_all(ts_run *run)
{
  for (int b = TS_BUF_OUT; b < TS_NBUF; b++)
    if (run->k.buf[b].data)
      mark_rows(run, b, 0, run->k.buf[b].rows, 0, run->k.buf[b].cols);
  run->nview = TS_VIEW_RECTS + 1; /* all of it: the bound says so */
}

/* Downloads the rows the device changed since the last download. */
ts_status tsrun_download(ts_run *run, ts_error *err)
{
  ts_status st = ts_cl_run_download(run->cl, &run->k, run->dl_lo, run->dl_hi, err);
  for (int b = 0; b < TS_NBUF; b++)
    run->dl_lo[b] = run->dl_hi[b] = 0;
  return st;
}

int ts_run_take_changed_rows(ts_run *run, int *y0, int *y1)
{
  int x0, x1;
  return ts_run_take_changed_rect(run, &x0, y0, &x1, y1);
}

int ts_run_take_changed_rect(ts_run *run, int *x0, int *y0, int *x1, int *y1)
{
  ts_rect r;
  if (ts_run_take_changed_rects(run, &r, 1) == 0)
    return 0;
  *x0 = r.x;
  *y0 = r.y;
  *x1 = r.x + r.w;
  *y1 = r.y + r.h;
  return 1;
}

/* Output elements to pixels: OUT holds a pixel's channels side by side (one sum for the
 * integral image). */
static ts_rect view_px(const ts_run *run, int x0, int y0, int x1, int y1)
{
  int per = run->k.buf[TS_BUF_OUT].cols / (run->k.W > 0 ? run->k.W : 1);
  per = per > 0 ? per : 1;
  return (ts_rect){ x0 / per, y0, (x1 + per - 1) / per - x0 / per, y1 - y0 };
}

int ts_run_take_changed_rects(ts_run *run, ts_rect *out, int max)
{
  int n = 0;
  if (run->view_y1 <= run->view_y0 || max < 1)
    n = 0;
  else if (run->nview > max)
    out[n++] = view_px(run, run->view_x0, run->view_y0, run->view_x1, run->view_y1);
  else
    for (int i = 0; i < run->nview; i++)
      out[n++] = view_px(run, run->view[i].x, run->view[i].y, run->view[i].x + run->view[i].w,
                         run->view[i].y + run->view[i].h);
  run->view_x0 = run->view_y0 = run->view_x1 = run->view_y1 = 0;
  run->nview = 0;
  return n;
}

void ts_run_params_resolve(ts_run_params *p)
{
  if (p->ksize == 0)
    p->ksize = 5;
  if (p->cost == 0 && p->variant)
    p->cost = p->variant->cost;
}

double tsrun_now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static size_t buf_bytes(const ts_buf *b)
{
  return (size_t)b->cols * (size_t)b->rows * (size_t)b->esize;
}

static ts_status alloc_buf(ts_buf *b, ts_error *err)
{
  size_t n;
  if (b->cols < 1 || b->rows < 1 || !ts_mul3_size((size_t)b->cols, (size_t)b->rows,
                                                  (size_t)b->esize, &n))
    return ts_fail(err, TS_ERR_TOO_LARGE, "buffer of %dx%d elements is too large", b->cols,
                   b->rows);
  b->data = ts_alloc_zeroed(n);
  if (!b->data)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory for a %zu-byte buffer", n);
  return TS_OK;
}

static ts_status push_pair(ts_hazard **list, size_t *n, size_t *cap, ts_hazard h, ts_error *err)
{
  if (*n == *cap) {
    size_t nc = *cap ? *cap * 2 : 256;
    ts_hazard *l = realloc(*list, nc * sizeof *l);
    if (!l)
      return ts_fail(err, TS_ERR_NOMEM, "out of memory for the hazard list");
    *list = l;
    *cap = nc;
  }
  (*list)[(*n)++] = h;
  return TS_OK;
}

static int ordered_by_waits(ts_run *run, int pi, uint32_t prod, uint32_t cons)
{
  return ts_sched_ordered(run->sched, pi, prod, cons, run->stamp, run->queue, &run->stamp_now);
}

/* The threads of pass `pi` whose output thread `id` reads from its own pass's output
 * (its declared footprint, self_reads), itself left out, each once: at most 32. */
int tsrun_producers(const ts_run *run, int pi, uint32_t id, uint32_t *out)
{
  const ts_pass_desc *pd = &run->params.variant->passes[pi];
  const ts_pass_sched *ps = &run->sched->pass[pi];
  if (!pd->self_reads)
    return 0;
  ts_rect rects[8];
  int tx = (int)(id % (uint32_t)ps->tw), ty = (int)(id / (uint32_t)ps->tw);
  int nr = pd->self_reads(&run->k, tx, ty, rects), n = 0;
  for (int i = 0; i < nr; i++) {
    const ts_rect *r = &rects[i];
    if (r->w <= 0 || r->h <= 0)
      continue;
    for (int py = r->y / pd->wtile_h; py <= (r->y + r->h - 1) / pd->wtile_h; py++)
      for (int px = r->x / pd->wtile_w; px <= (r->x + r->w - 1) / pd->wtile_w; px++) {
        uint32_t prod = (uint32_t)py * (uint32_t)ps->tw + (uint32_t)px;
        int dup = prod == id;
        for (int s = 0; s < n && !dup; s++)
          dup = out[s] == prod;
        if (!dup && n < TSRUN_MAX_PRODUCERS)
          out[n++] = prod;
      }
  }
  return n;
}

/* Adds the hazards of thread `id` of pass `pi`: producers of what it reads from its own
 * pass's output that had not finished when it started; and its races: those producers the
 * scoreboard does not order before it. */
static ts_status find_hazards_of(ts_run *run, int pi, uint32_t id, size_t *cap, size_t *rcap,
                                 ts_error *err)
{
  ts_pass_sched *ps = &run->sched->pass[pi];
  ts_thread *t = &ps->t[id];
  uint32_t prods[TSRUN_MAX_PRODUCERS];
  int np = tsrun_producers(run, pi, id, prods);
  for (int i = 0; i < np; i++) {
    uint32_t prod = prods[i];
    ts_hazard h = { pi, id, prod };
    ts_status st;
    if (!ordered_by_waits(run, pi, prod, id) &&
        (st = push_pair(&run->races, &run->nraces, rcap, h, err)) != TS_OK)
      return st;
    if (ps->t[prod].end_tick <= t->start_tick)
      continue;
    if ((st = push_pair(&run->hazards, &run->nhazards, cap, h, err)) != TS_OK)
      return st;
    t->hazards++;
  }
  if (t->hazards > 0)
    run->nhazardous++;
  return TS_OK;
}

static ts_status find_hazards(ts_run *run, ts_error *err)
{
  size_t cap = 0, rcap = 0;
  for (int pi = 0; pi < run->sched->npasses; pi++) {
    ts_pass_sched *ps = &run->sched->pass[pi];
    for (uint32_t id = 0; id < ps->n; id++)
      ps->t[id].hazards = 0;
    if (!run->params.variant->passes[pi].self_reads)
      continue;
    free(run->stamp);
    free(run->queue);
    run->stamp = calloc(ps->n, sizeof *run->stamp);
    run->queue = malloc(ps->n * sizeof *run->queue);
    if (!run->stamp || !run->queue)
      return ts_fail(err, TS_ERR_NOMEM, "out of memory for the hazard search");
    run->stamp_now = 0;
    for (uint32_t id = 0; id < ps->n; id++) {
      ts_status st = find_hazards_of(run, pi, id, &cap, &rcap, err);
      if (st != TS_OK)
        return st;
    }
  }
  free(run->stamp);
  free(run->queue);
  run->stamp = run->queue = NULL;
  return TS_OK;
}

/* Every thread's coordinates and write rectangle (in bytes), by start-sequence index, and
 * the device buffers. */
static ts_status create_device_state(ts_run *run, const int *shadows, ts_error *err)
{
  const ts_sched *s = run->sched;
  int32_t *tiles = malloc((size_t)s->total * 2 * sizeof *tiles);
  int32_t *rects = malloc((size_t)s->total * 4 * sizeof *rects);
  /* a pass is in row-major order when index - id is the same for all its threads */
  int64_t base[TS_MAX_PASSES];
  int rowmajor[TS_MAX_PASSES];
  for (int p = 0; p < TS_MAX_PASSES; p++) {
    base[p] = -1;
    rowmajor[p] = 1;
  }
  ts_status st = TS_OK;
  if (!tiles || !rects)
    st = ts_fail(err, TS_ERR_NOMEM, "out of memory for %u threads", s->total);
  for (uint32_t i = 0; st == TS_OK && i < s->total; i++) {
    int pi;
    uint32_t id;
    ts_sched_locate(s, s->start_seq[i], &pi, &id);
    if (base[pi] < 0)
      base[pi] = (int64_t)i - id;
    rowmajor[pi] &= (int64_t)i - id == base[pi];
    const ts_pass_desc *pd = &run->params.variant->passes[pi];
    int tx = (int)(id % (uint32_t)s->pass[pi].tw), ty = (int)(id / (uint32_t)s->pass[pi].tw);
    ts_rect r = pd->write_rect(&run->k, tx, ty);
    int es = run->k.buf[pd->dst].esize;
    tiles[2 * i] = tx;
    tiles[2 * i + 1] = ty;
    rects[4 * i] = r.x * es;
    rects[4 * i + 1] = r.y;
    rects[4 * i + 2] = r.w * es;
    rects[4 * i + 3] = r.h;
  }
  if (st == TS_OK)
    st = ts_cl_run_create(run->params.cl, run->params.variant, &run->k, s->total, tiles, rects,
                          shadows, &run->cl, err);
  /* Only for one-work-item kernels (TS_BEGIN_ITEM): a work-group loads its tile once. */
  for (int p = 0; st == TS_OK && p < run->params.variant->npasses; p++)
    if (rowmajor[p] && base[p] >= 0 && run->params.variant->passes[p].cl_group_w == 0)
      ts_cl_run_rowmajor(run->cl, p, (uint32_t)base[p], s->pass[p].tw);
  free(tiles);
  free(rects);
  return st;
}

ts_status ts_run_create(const ts_image *in, const ts_run_params *params, ts_run **out,
                        ts_error *err)
{
  if (!params->variant)
    return ts_fail(err, TS_ERR_ARG, "no variant given");
  ts_run *run = calloc(1, sizeof *run);
  if (!run)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  run->params = *params;
  ts_run_params_resolve(&run->params);
  const ts_variant *v = run->params.variant;
  if (v->file && !run->params.cl) {
    ts_run_destroy(run);
    return ts_fail(err, TS_ERR_ARG,
                   "%s: a user kernel (%s) has no CPU model; run it on the OpenCL back end "
                   "(--backend cl)", v->name, v->file);
  }
  ts_kctx *k = &run->k;
  ts_status st = TS_OK;

  if (v->filter == TS_FILTER_GAUSS) {
    if ((st = ts_gauss_weights(run->params.ksize, run->params.sigma, k->w1, err)) != TS_OK)
      goto fail;
    k->ksize = run->params.ksize;
    k->r = k->ksize / 2;
  }
  if (v->filter == TS_FILTER_INTEGRAL && in->c != 1 && !v->own_luma) {
    if ((st = ts_image_convert(in, 1, &run->in_img, err)) != TS_OK)
      goto fail;
  } else {
    run->in_img = ts_image_share(in);
  }
  const ts_image *src = run->in_img;
  k->W = src->w;
  k->H = src->h;
  k->in_c = src->c;
  k->C = v->filter == TS_FILTER_INTEGRAL ? 1 : src->c;
  k->buf[TS_BUF_IN] = (ts_buf){ .cols = src->w * src->c, .rows = src->h, .esize = 1 };
  k->variant = v;
  v->setup(k);
  /* A user kernel keeps its shadows: what it writes outside its declared rectangle stays out
   * of the committed buffer, as the commit copies only that rectangle. */
  int shadows[TS_NBUF] = { 0 };
  for (int i = 0; i < v->npasses; i++) {
    run->late[i] = !v->passes[i].self_reads && !v->file;
    shadows[v->passes[i].dst] |= !run->late[i];
  }
  for (int b = 0; b < TS_NBUF; b++) {
    if (k->buf[b].cols == 0)
      continue;
    k->shadow[b] = k->buf[b];
    k->shadow[b].data = NULL;
    if (b == TS_BUF_IN) {
      k->buf[b].data = src->data;
      continue;
    }
    if ((st = alloc_buf(&k->buf[b], err)) != TS_OK)
      goto fail;
    /* The OpenCL back end keeps its shadows on the device: none here (at 7680x4320 an
     * integral image's would be 133 MB). */
    if (shadows[b] && !run->params.cl && (st = alloc_buf(&k->shadow[b], err)) != TS_OK)
      goto fail;
  }

  ts_pass_geom geom[TS_MAX_PASSES];
  for (int i = 0; i < v->npasses; i++) {
    v->passes[i].space(k, &geom[i].tw, &geom[i].th);
    geom[i].cost = run->params.cost;
  }
  if ((st = ts_sched_run(geom, v->npasses, &run->params.sched, &run->sched, err)) != TS_OK)
    goto fail;
  if ((st = find_hazards(run, err)) != TS_OK)
    goto fail;
  if (run->params.cl && (st = create_device_state(run, shadows, err)) != TS_OK)
    goto fail;
  run->tick = -1;
  *out = run;
  return TS_OK;
fail:
  ts_run_destroy(run);
  return st;
}

void ts_run_release_buffers(ts_run *run)
{
  if (!run)
    return;
  /* The device may use the host buffers in place: it lets go of them first. */
  ts_cl_run_destroy(run->cl);
  run->cl = NULL;
  for (int b = TS_BUF_IN + 1; b < TS_NBUF; b++) {
    ts_alloc_free(run->k.buf[b].data);
    ts_alloc_free(run->k.shadow[b].data);
    run->k.buf[b].data = run->k.shadow[b].data = NULL;
  }
  ts_image_destroy(run->in_img);
  run->in_img = NULL;
  ts_image_destroy(run->ref);
  free(run->ref32);
  run->ref = NULL;
  run->ref32 = NULL;
  run->k.buf[TS_BUF_IN].data = NULL;
  run->released = 1;
}

void ts_run_destroy(ts_run *run)
{
  if (!run)
    return;
  ts_run_release_buffers(run);
  ts_dev_run_free(run->dev);
  ts_sched_destroy(run->sched);
  free(run->hazards);
  free(run->races);
  free(run->stamp);
  free(run->queue);
  free(run);
}

void tsrun_thread_xy(const ts_pass_sched *ps, uint32_t id, int *tx, int *ty)
{
  *tx = (int)(id % (uint32_t)ps->tw);
  *ty = (int)(id / (uint32_t)ps->tw);
}

/* Copies the thread's write rectangle from the shadow to the committed buffer. */
static void commit_thread(ts_run *run, int pi, uint32_t id)
{
  const ts_pass_desc *pd = &run->params.variant->passes[pi];
  int tx, ty;
  tsrun_thread_xy(&run->sched->pass[pi], id, &tx, &ty);
  ts_rect r = pd->write_rect(&run->k, tx, ty);
  const ts_buf *s = &run->k.shadow[pd->dst];
  ts_buf *d = &run->k.buf[pd->dst];
  size_t es = (size_t)d->esize;
  for (int y = r.y; y < r.y + r.h; y++) {
    size_t off = ((size_t)y * (size_t)d->cols + (size_t)r.x) * es;
    memcpy(d->data + off, s->data + off, (size_t)r.w * es);
  }
}

ts_status tsrun_reset(ts_run *run, ts_error *err)
{
  /* On the OpenCL back end the device zeroes its buffers, and the download brings them. */
  for (int b = TS_BUF_OUT; b < TS_NBUF && !run->cl; b++)
    if (run->k.buf[b].data) {
      memset(run->k.buf[b].data, 0, buf_bytes(&run->k.buf[b]));
      if (run->k.shadow[b].data)
        memset(run->k.shadow[b].data, 0, buf_bytes(&run->k.shadow[b]));
    }
  run->pos = run->cpos = 0;
  run->tick = -1; /* nothing of tick 0 replayed yet */
  tsrun_mark_all(run);
  return run->cl ? ts_cl_run_reset(run->cl, err) : TS_OK;
}

static const ts_thread *rec_at(const ts_run *run, uint32_t seq, int *pi, uint32_t *id)
{
  ts_sched_locate(run->sched, run->sched->start_seq[seq], pi, id);
  return &run->sched->pass[*pi].t[*id];
}

/* The same, with the thread's coordinates in its pass's thread space. */
static void rec_xy(const ts_run *run, uint32_t seq, int *pi, uint32_t *id, int *tx, int *ty)
{
  rec_at(run, seq, pi, id);
  tsrun_thread_xy(&run->sched->pass[*pi], *id, tx, ty);
}

/* The threads at start-sequence indices [from, to) all start (or all end) at one tick and
 * belong to one pass: run them, or commit them. */
static ts_status run_batch(ts_run *run, int pi, uint32_t from, uint32_t to, int direct,
                           ts_error *err)
{
  if (run->cl)
    return ts_cl_run_exec(run->cl, pi, from, to - from, direct, err);
  const ts_pass_desc *pd = &run->params.variant->passes[pi];
  /* The CPU model writes its shadow; with no commit step, the buffer stands in for it. */
  ts_buf keep = run->k.shadow[pd->dst];
  if (direct)
    run->k.shadow[pd->dst] = run->k.buf[pd->dst];
  for (uint32_t i = from; i < to; i++) {
    int p, tx, ty;
    uint32_t id;
    rec_xy(run, i, &p, &id, &tx, &ty);
    pd->run(&run->k, tx, ty);
  }
  run->k.shadow[pd->dst] = keep;
  return TS_OK;
}

/* The threads' writes become visible: committed from the shadow, or for a late pass made
 * now, straight into the buffer. */
static ts_status commit_batch(ts_run *run, int pi, uint32_t from, uint32_t to, ts_error *err)
{
  const ts_pass_desc *pd = &run->params.variant->passes[pi];
  for (uint32_t i = from; i < to; i++) {
    int p, tx, ty;
    uint32_t id;
    rec_xy(run, i, &p, &id, &tx, &ty);
    ts_rect r = pd->write_rect(&run->k, tx, ty);
    mark_rows(run, pd->dst, r.y, r.y + r.h, r.x, r.x + r.w);
    if (!run->cl && !run->late[pi])
      commit_thread(run, p, id);
  }
  if (run->late[pi])
    return run_batch(run, pi, from, to, 1, err);
  return run->cl ? ts_cl_run_commit(run->cl, pi, from, to - from, err) : TS_OK;
}

/* End of the run of start-sequence indices from `i` that share pass and start (or end) tick. */
static uint32_t batch_end(const ts_run *run, uint32_t i, uint32_t limit, int by_end)
{
  int p0, p;
  uint32_t id;
  const ts_thread *t0 = rec_at(run, i, &p0, &id);
  int64_t tick = by_end ? t0->end_tick : t0->start_tick;
  uint32_t j = i + 1;
  for (; j < limit; j++) {
    const ts_thread *t = rec_at(run, j, &p, &id);
    if (p != p0 || (by_end ? t->end_tick : t->start_tick) != tick)
      break;
  }
  return j;
}

ts_status ts_run_seek(ts_run *run, int64_t tick, ts_error *err)
{
  const ts_sched *s = run->sched;
  ts_status st = TS_OK;
  if (tick < 0)
    tick = 0;
  if (tick > s->length)
    tick = s->length;
  if (run->released)
    return ts_fail(err, TS_ERR_ARG, "the run's buffers were released");
  if ((tick < run->tick || run->dev_in_bufs) && (st = tsrun_reset(run, err)) != TS_OK)
    return st;
  run->dev_in_bufs = 0;
  double t0 = tsrun_now_ms();
  while (st == TS_OK) {
    int pi;
    uint32_t id;
    int64_t te = INT64_MAX, tsrt = INT64_MAX;
    if (run->cpos < run->pos)
      te = rec_at(run, run->cpos, &pi, &id)->end_tick;
    if (run->pos < s->total)
      tsrt = rec_at(run, run->pos, &pi, &id)->start_tick;
    int64_t t = te < tsrt ? te : tsrt;
    if (t == INT64_MAX || t > tick)
      break;
    if (te <= tsrt) {
      /* Commits of tick t come before the starts of tick t. */
      rec_at(run, run->cpos, &pi, &id);
      uint32_t j = batch_end(run, run->cpos, run->pos, 1);
      st = commit_batch(run, pi, run->cpos, j, err);
      run->cpos = j;
    } else {
      rec_at(run, run->pos, &pi, &id);
      uint32_t j = batch_end(run, run->pos, s->total, 0);
      if (!run->late[pi])
        st = run_batch(run, pi, run->pos, j, 0, err);
      run->pos = j;
    }
  }
  if (st == TS_OK && run->cl)
    st = tsrun_download(run, err);
  run->exec_ms += tsrun_now_ms() - t0;
  run->tick = tick;
  return st;
}

ts_status ts_run_finish_fast(ts_run *run, ts_error *err)
{
  const ts_sched *s = run->sched;
  if (run->released)
    return ts_fail(err, TS_ERR_ARG, "the run's buffers were released");
  ts_status st = tsrun_reset(run, err);
  double t0 = tsrun_now_ms();
  for (uint32_t i = 0; st == TS_OK && i < s->total;) {
    int pi;
    uint32_t id;
    rec_at(run, i, &pi, &id);
    uint32_t j = run->params.variant->passes[pi].self_reads
                     ? batch_end(run, i, s->total, 0)
                     : s->pass[pi].first + s->pass[pi].n; /* passes are contiguous */
    st = run_batch(run, pi, i, j, 1, err);
    i = j;
  }
  tsrun_mark_all(run);
  if (st == TS_OK && run->cl)
    st = tsrun_download(run, err);
  run->exec_ms += tsrun_now_ms() - t0;
  run->dev_in_bufs = 0;
  run->pos = run->cpos = s->total;
  run->tick = s->length;
  return st;
}

double ts_run_take_kernel_ms(ts_run *run)
{
  return run->cl ? ts_cl_run_take_kernel_ms(run->cl) : 0.0;
}

int64_t ts_run_tick(const ts_run *run)
{
  return run->tick;
}

const ts_sched *ts_run_sched(const ts_run *run)
{
  return run->sched;
}

const ts_kctx *ts_run_kctx(const ts_run *run)
{
  return &run->k;
}

const ts_run_params *ts_run_params_of(const ts_run *run)
{
  return &run->params;
}

ts_cl_run *ts_run_cl(const ts_run *run)
{
  return run->cl;
}

ts_status ts_run_rewind(ts_run *run, ts_error *err)
{
  if (run->released)
    return ts_fail(err, TS_ERR_ARG, "the run's buffers were released");
  run->dev_in_bufs = 0;
  return tsrun_reset(run, err);
}

const ts_hazard *ts_run_hazards(const ts_run *run, size_t *n)
{
  *n = run->nhazards;
  return run->hazards;
}

const ts_hazard *ts_run_races(const ts_run *run, size_t *n)
{
  *n = run->nraces;
  return run->races;
}

size_t ts_run_hazardous_threads(const ts_run *run)
{
  return run->nhazardous;
}

double ts_run_exec_ms(const ts_run *run)
{
  return run->exec_ms;
}

const uint32_t *ts_run_output_u32(const ts_run *run)
{
  if (run->params.variant->filter != TS_FILTER_INTEGRAL)
    return NULL;
  return (const uint32_t *)run->k.buf[TS_BUF_OUT].data;
}

uint32_t ts_run_integral_scale(const ts_run *run)
{
  const ts_buf *in = &run->k.buf[TS_BUF_IN];
  const int c = run->k.in_c;
  uint64_t total = 0;
  for (size_t i = 0, n = in->data ? (size_t)in->cols * in->rows : 0; i < n; i += (size_t)c) {
    const uint8_t *p = in->data + i;
    total += c == 1 ? p[0] : ts_luma(p[0], p[1], p[2]);
  }
  return total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
}

void ts_integral_grey(const uint32_t *sums, size_t n, uint32_t scale, uint8_t *grey)
{
  /* (min(v, mx) * 255 + mx / 2) / mx without a division per pixel (the viewer converts every
   * row a step changes): a quotient from the reciprocal, off by one at most, then made exact. */
  uint64_t mx = scale ? scale : 1;
  double inv = 1.0 / (double)mx;
  for (size_t i = 0; i < n; i++) {
    uint64_t v = sums[i];
    uint64_t num = (v < mx ? v : mx) * 255u + mx / 2;
    uint64_t q = (uint64_t)((double)num * inv);
    q += (q + 1) * mx <= num;
    q -= q * mx > num;
    grey[i] = (uint8_t)q;
  }
}

ts_status ts_run_output(const ts_run *run, ts_image **out, ts_error *err)
{
  const ts_kctx *k = &run->k;
  if (run->released)
    return ts_fail(err, TS_ERR_ARG, "the run's buffers were released");
  ts_image *img;
  ts_status st = ts_image_create(k->W, k->H, k->C, &img, err);
  if (st != TS_OK)
    return st;
  const uint32_t *s = ts_run_output_u32(run);
  size_t n = (size_t)k->W * k->H;
  if (s) {
    uint64_t mx = ts_run_integral_scale(run);
    for (size_t i = 0; i < n; i++)
      img->data[i] = mx ? (uint8_t)(((s[i] < mx ? s[i] : mx) * 255u + mx / 2) / mx) : 0;
  } else {
    memcpy(img->data, k->buf[TS_BUF_OUT].data, n * (size_t)k->C);
  }
  *out = img;
  return TS_OK;
}

ts_thread_state ts_thread_state_at(const ts_thread *t, int64_t tick)
{
  if (t->dispatch_tick < 0 || t->dispatch_tick > tick)
    return TS_STATE_PENDING;
  if (t->start_tick > tick)
    return TS_STATE_WAITING;
  if (t->end_tick > tick)
    return TS_STATE_RUNNING;
  return TS_STATE_DONE;
}

const char *ts_thread_state_name(ts_thread_state s)
{
  static const char *const names[] = { "pending", "waiting", "running", "done" };
  return (unsigned)s < 4 ? names[s] : "?";
}

/* ---- the schedule run by the device ---- */

void ts_dev_run_free(ts_dev_run *d)
{
  if (!d)
    return;
  for (int p = 0; p < TS_MAX_PASSES; p++)
    free(d->pass[p].rec);
  free(d->wrong);
  free(d);
}

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

void ts_dev_run_finish(ts_dev_run *d)
{
  uint64_t t0 = UINT64_MAX;
  int have_units = 1;
  for (int p = 0; p < d->npasses; p++)
    for (uint32_t i = 0; i < d->pass[p].n && d->pass[p].rec; i++) {
      const ts_grec *g = &d->pass[p].rec[i];
      t0 = g->start < t0 ? g->start : t0;
      have_units &= g->unit >= 0;
    }
  if (t0 == UINT64_MAX)
    return;
  d->t_end = 0;
  d->lanes = 0;
  /* Lanes for the logical clock: groups sorted by start, each into the lowest lane free
   * by then (interval partitioning: as many lanes as groups ever overlapped). */
  uint64_t lane_end[TS_DEV_MAX_LANES];
  for (int p = 0; p < d->npasses; p++) {
    ts_dev_pass *dp = &d->pass[p];
    if (!dp->rec)
      continue;
    uint64_t *byst = have_units ? NULL : malloc((size_t)dp->n * sizeof *byst);
    for (uint32_t i = 0; i < dp->n; i++) {
      ts_grec *g = &dp->rec[i];
      g->start -= t0;
      g->waited -= t0;
      g->end -= t0;
      g->published -= t0;
      d->t_end = g->end > d->t_end ? g->end : d->t_end;
      if (have_units) {
        g->lane = g->unit;
        d->lanes = g->unit + 1 > d->lanes ? g->unit + 1 : d->lanes;
      } else if (byst) {
        byst[i] = g->start << 20 | i; /* start, then ticket (n < 2^20 per pass here) */
      }
    }
    if (byst && dp->n < (1u << 20)) {
      qsort(byst, dp->n, sizeof *byst, cmp_u64);
      int nl = 0;
      for (uint32_t k = 0; k < dp->n; k++) {
        ts_grec *g = &dp->rec[byst[k] & 0xfffff];
        int l = 0;
        while (l < nl && lane_end[l] > g->start)
          l++;
        if (l == nl && nl < TS_DEV_MAX_LANES)
          nl++;
        l = l < nl ? l : nl - 1;
        lane_end[l] = g->end;
        g->lane = l;
      }
      d->lanes = nl > d->lanes ? nl : d->lanes;
    }
    free(byst);
  }
}

uint32_t ts_adversary_seed(void)
{
  static uint32_t calls;
  return ((uint32_t)time(NULL) * 2654435761u ^ (uint32_t)getpid() ^ ++calls * 40503u) | 1u;
}

void ts_run_traffic(const ts_run *run, double *rd, double *wr)
{
  const ts_sched *s = ts_run_sched(run);
  const ts_kctx *k = ts_run_kctx(run);
  const ts_variant *var = ts_run_params_of(run)->variant;
  *rd = *wr = 0;
  for (int p = 0; p < s->npasses; p++) {
    const ts_pass_desc *pd = &var->passes[p];
    int src_px_bytes = (pd->src == TS_BUF_IN ? k->in_c : k->C) * k->buf[pd->src].esize;
    for (uint32_t id = 0; id < s->pass[p].n; id++) {
      int tx = (int)(id % (uint32_t)s->pass[p].tw), ty = (int)(id / (uint32_t)s->pass[p].tw);
      ts_rect r = pd->read_px(k, tx, ty);
      int x0 = r.x < 0 ? 0 : r.x, y0 = r.y < 0 ? 0 : r.y;
      int x1 = r.x + r.w > k->W ? k->W : r.x + r.w, y1 = r.y + r.h > k->H ? k->H : r.y + r.h;
      if (x1 > x0 && y1 > y0)
        *rd += (double)(x1 - x0) * (y1 - y0) * src_px_bytes;
      ts_rect w = pd->write_rect(k, tx, ty);
      *wr += (double)w.w * w.h * k->buf[pd->dst].esize;
    }
  }
}
