/* The schedule run by the device (SPEC section 8): every pass in one launch that keeps the
 * walk's order through the scoreboard, its records, the tiles whose output differs from the
 * reference, and a record made elsewhere attached to a run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_run_int.h"

/* The adversary's longest delay, in polls of a word (a few ns each on a CPU, so some 60 us):
 * long enough that a delayed producer is still writing when its successor on another lane
 * reads, short enough that the default chart's 1200 groups take well under a second. */
enum { TS_ADVERSARY_POLLS = 1 << 18 };

/* Marks the last pass's tiles whose output differs from the scalar reference. */
static ts_status find_wrong_tiles(ts_run *run, ts_dev_run *d, ts_error *err)
{
  const ts_variant *v = run->params.variant;
  const ts_kctx *k = &run->k;
  int last = v->npasses - 1;
  const ts_pass_desc *pd = &v->passes[last];
  const ts_pass_sched *ps = &run->sched->pass[last];
  const ts_image *ref = NULL;
  const uint32_t *ref32 = NULL;
  ts_status st = ts_run_reference(run, &ref, &ref32, err);
  if (st != TS_OK)
    return st;
  const uint8_t *want = ref32 ? (const uint8_t *)ref32 : ref->data;
  const ts_buf *out = &k->buf[pd->dst];
  size_t es = (size_t)out->esize;
  d->wrong = calloc(ps->n ? ps->n : 1, 1);
  if (!d->wrong)
    st = ts_fail(err, TS_ERR_NOMEM, "out of memory");
  d->nwrong = 0;
  for (uint32_t id = 0; st == TS_OK && !v->unchecked && id < ps->n; id++) {
    int tx, ty;
    tsrun_thread_xy(ps, id, &tx, &ty);
    ts_rect r = pd->write_rect(k, tx, ty);
    for (int y = r.y; y < r.y + r.h; y++) {
      size_t off = ((size_t)y * (size_t)out->cols + (size_t)r.x) * es;
      if (memcmp(out->data + off, want + off, (size_t)r.w * es) != 0) {
        d->wrong[id] = 1;
        d->nwrong++;
        break;
      }
    }
  }
  return st;
}

/* The walk's tiles, each ticket's wait set as tickets, and each tile's ticket (by thread
 * id, for a pass that looks back), for pass pi. */
static ts_status walk_tables(const ts_run *run, int pi, int32_t **tiles, int32_t **waits,
                             int32_t **ticket_of, ts_error *err)
{
  const ts_pass_sched *ps = &run->sched->pass[pi];
  *tiles = malloc((size_t)ps->n * 2 * sizeof **tiles);
  *waits = malloc((size_t)ps->n * 8 * sizeof **waits);
  *ticket_of = malloc(((size_t)ps->n + 1) * sizeof **ticket_of);
  if (!*tiles || !*waits || !*ticket_of)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory for %u tiles", ps->n);
  for (uint32_t id = 0; id < ps->n; id++)
    (*ticket_of)[id] = (int32_t)ps->t[id].dispatch;
  for (uint32_t d = 0; d < ps->n; d++) {
    uint32_t id = ps->order[d], tg[TS_PATTERN_MAX_VECTORS];
    int tx, ty;
    tsrun_thread_xy(ps, id, &tx, &ty);
    (*tiles)[2 * d] = tx;
    (*tiles)[2 * d + 1] = ty;
    int nw = ts_sched_waits(run->sched, pi, id, tg);
    if (nw > 7)
      return ts_fail(err, TS_ERR_UNSUPPORTED, "more than 7 dependencies per thread");
    int32_t *w = *waits + 8 * (size_t)d;
    memset(w, 0, 8 * sizeof *w);
    w[0] = nw;
    for (int i = 0; i < nw; i++)
      w[1 + i] = (int32_t)ps->t[tg[i]].dispatch;
  }
  return TS_OK;
}

ts_status ts_run_device(ts_run *run, const ts_dev_opts *o, ts_error *err)
{
  const ts_variant *v = run->params.variant;
  if (run->released)
    return ts_fail(err, TS_ERR_ARG, "the run's buffers were released");
  if (!run->cl)
    return ts_fail(err, TS_ERR_ARG, "--exec device runs on the OpenCL back end, not the CPU model");
  ts_status st = tsrun_reset(run, err);
  if (st != TS_OK)
    return st;
  ts_dev_run *d = calloc(1, sizeof *d);
  if (!d)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  d->npasses = v->npasses;
  d->clock_ns = ts_cl_clock_is_time(run->params.cl);
  d->adversary = run->params.adversary;
  snprintf(d->device, sizeof d->device, "%s", ts_cl_device(run->params.cl)->name);
  ts_cl_run_take_kernel_ms(run->cl); /* drop the reset's */
  double t0 = tsrun_now_ms();
  for (int pi = 0; st == TS_OK && pi < v->npasses; pi++) {
    const ts_pass_sched *ps = &run->sched->pass[pi];
    int32_t *tiles = NULL, *waits = NULL, *ticket_of = NULL;
    st = walk_tables(run, pi, &tiles, &waits, &ticket_of, err);
    d->pass[pi].n = ps->n;
    const ts_pass_desc *pd = &v->passes[pi];
    uint32_t sums = (uint32_t)pd->cl_dev_sums + (uint32_t)pd->cl_dev_sums_cols * (uint32_t)run->k.W;
    d->pass[pi].lookback = sums > 0;
    if (st == TS_OK && o->record && !(d->pass[pi].rec = calloc(ps->n ? ps->n : 1, sizeof(ts_grec))))
      st = ts_fail(err, TS_ERR_NOMEM, "out of memory for %u records", ps->n);
    ts_cl_dev_launch l = { tiles, waits, ticket_of, ps->n, sums, pi == v->npasses - 1 ? o->stuck : -1,
                           o->spin_limit, run->params.adversary ? TS_ADVERSARY_POLLS : 0,
                           run->params.adversary + (uint32_t)pi };
    ts_cl_dev_result res;
    if (st == TS_OK)
      st = ts_cl_run_device(run->cl, pi, &l, d->pass[pi].rec, &res, err);
    if (st == TS_OK && !d->clock_ns && pi > 0 && d->pass[pi].rec) {
      /* The logical clock restarts with each launch: this pass follows the last. */
      uint64_t after = 0;
      for (uint32_t t = 0; t < d->pass[pi - 1].n; t++)
        after = d->pass[pi - 1].rec[t].end + 1 > after ? d->pass[pi - 1].rec[t].end + 1 : after;
      for (uint32_t t = 0; t < ps->n; t++) {
        d->pass[pi].rec[t].start += after;
        d->pass[pi].rec[t].waited += after;
        d->pass[pi].rec[t].end += after;
        d->pass[pi].rec[t].published += after;
      }
    }
    if (st == TS_OK && res.gave_up) {
      int tk = res.gave_up - 1, wf = res.waited_for;
      st = ts_fail(err, TS_ERR_STALLED,
                   "%s, pattern %s, walk %s: the device schedule did not finish: pass %d's "
                   "work-group with ticket %d (tile %d,%d) gave up after %u spins waiting for "
                   "ticket %d (tile %d,%d); ticket %d (tile %d,%d) never signalled",
                   v->name, ts_pattern_name(run->params.sched.pattern),
                   ts_walk_name(run->params.sched.walk), pi + 1, tk, tiles[2 * tk],
                   tiles[2 * tk + 1], res.spin_limit, wf,
                   wf >= 0 && (uint32_t)wf < ps->n ? tiles[2 * wf] : -1,
                   wf >= 0 && (uint32_t)wf < ps->n ? tiles[2 * wf + 1] : -1, res.root,
                   res.root >= 0 ? tiles[2 * res.root] : -1,
                   res.root >= 0 ? tiles[2 * res.root + 1] : -1);
    } else if (st == TS_OK && res.tickets != ps->n) {
      st = ts_fail(err, TS_ERR_DEVICE, "%s: pass %d took %u tickets for %u work-groups", v->name,
                   pi + 1, res.tickets, ps->n);
    }
    free(tiles);
    free(waits);
    free(ticket_of);
  }
  d->kernel_ms = ts_cl_run_take_kernel_ms(run->cl);
  tsrun_mark_all(run);
  if (st == TS_OK)
    st = tsrun_download(run, err);
  run->exec_ms += tsrun_now_ms() - t0;
  run->pos = run->cpos = run->sched->total;
  run->tick = run->sched->length;
  run->dev_in_bufs = 1;
  if (st == TS_OK)
    st = find_wrong_tiles(run, d, err);
  if (st != TS_OK) {
    ts_dev_run_free(d);
    return st;
  }
  ts_dev_run_finish(d);
  ts_dev_run_free(run->dev);
  run->dev = d;
  return TS_OK;
}

const ts_dev_run *ts_run_device_result(const ts_run *run)
{
  return run->dev;
}

ts_status ts_run_attach_device(ts_run *run, ts_dev_run *d, ts_error *err)
{
  const ts_sched *s = run->sched;
  if (d->npasses != s->npasses)
    return ts_fail(err, TS_ERR_FORMAT, "the record has %d passes, the run %d", d->npasses,
                   s->npasses);
  for (int pi = 0; pi < s->npasses; pi++) {
    const ts_pass_sched *ps = &s->pass[pi];
    if (d->pass[pi].n != ps->n || !d->pass[pi].rec)
      return ts_fail(err, TS_ERR_FORMAT, "the record's pass %d has %u work-groups, the run %u",
                     pi + 1, d->pass[pi].n, ps->n);
    for (uint32_t t = 0; t < ps->n; t++) {
      int tx, ty;
      tsrun_thread_xy(ps, ps->order[t], &tx, &ty);
      const ts_grec *g = &d->pass[pi].rec[t];
      if (g->tx != tx || g->ty != ty)
        return ts_fail(err, TS_ERR_FORMAT,
                       "the record's ticket %u of pass %d is tile %d,%d, the walk's is %d,%d", t,
                       pi + 1, g->tx, g->ty, tx, ty);
    }
  }
  ts_dev_run_free(run->dev);
  run->dev = d;
  return TS_OK;
}
