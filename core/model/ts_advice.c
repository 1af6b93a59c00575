/* Pattern advice (see ts_run.h): which dependency vectors a run's pattern is missing (reads
 * that no chain of waits orders, grouped by the vector from the reader to the tile it
 * reads) and which it does not need (leaving the vector out orders every read still), with
 * the ticks each unneeded one costs: the same schedule run without it. The reads are the
 * declared footprints (the variant's self_reads), the ones the hazards come from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_run_int.h"

/* Adds `n` threads along vector v of pass pi to a list, merging equal vectors. */
static void add_vec(ts_advice_vec *list, int *count, int cap, int pi, ts_vec v, uint32_t n)
{
  for (int i = 0; i < *count; i++)
    if (list[i].pass == pi && list[i].v.dx == v.dx && list[i].v.dy == v.dy) {
      list[i].threads += n;
      return;
    }
  if (*count < cap)
    list[(*count)++] = (ts_advice_vec){ .pass = pi, .v = v, .threads = n };
}

static ts_vec vec_of(const ts_pass_sched *ps, uint32_t from, uint32_t to)
{
  int fx, fy, tx, ty;
  tsrun_thread_xy(ps, from, &fx, &fy);
  tsrun_thread_xy(ps, to, &tx, &ty);
  return (ts_vec){ tx - fx, ty - fy };
}

/* The reads of every pass that schedule s does not order (a chain of waits from the reader
 * back to the tile it reads): what the run's races are for its own schedule. */
static ts_status count_unordered(const ts_run *run, const ts_sched *s, size_t *count,
                                 ts_error *err)
{
  *count = 0;
  for (int pi = 0; pi < s->npasses; pi++) {
    const ts_pass_sched *ps = &s->pass[pi];
    if (!run->params.variant->passes[pi].self_reads)
      continue;
    uint32_t *stamps = calloc(ps->n, sizeof *stamps), *queue = malloc(ps->n * sizeof *queue);
    uint32_t now = 0, prods[TSRUN_MAX_PRODUCERS];
    if (!stamps || !queue) {
      free(stamps);
      free(queue);
      return ts_fail(err, TS_ERR_NOMEM, "out of memory for the pattern advice");
    }
    for (uint32_t id = 0; id < ps->n; id++) {
      int np = tsrun_producers(run, pi, id, prods);
      for (int i = 0; i < np; i++)
        *count += !ts_sched_ordered(s, pi, prods[i], id, stamps, queue, &now);
    }
    free(stamps);
    free(queue);
  }
  return TS_OK;
}

/* The run's schedule again with these vectors in place of its pattern's: its length and
 * the reads it leaves unordered. */
static ts_status try_vectors(const ts_run *run, const ts_vec *v, int n, int64_t *ticks,
                             size_t *unordered, ts_error *err)
{
  const ts_sched *s = run->sched;
  ts_sched_params p = s->params;
  p.custom = 1;
  p.nvecs = n;
  if (n > 0)
    memcpy(p.vecs, v, (size_t)n * sizeof *v);
  ts_pass_geom g[TS_MAX_PASSES];
  for (int pi = 0; pi < s->npasses; pi++)
    g[pi] = (ts_pass_geom){ s->pass[pi].tw, s->pass[pi].th, s->pass[pi].cost };
  ts_sched *t = NULL;
  ts_status st = ts_sched_run(g, s->npasses, &p, &t, err);
  if (st == TS_OK) {
    *ticks = t->length;
    st = count_unordered(run, t, unordered, err);
  }
  ts_sched_destroy(t);
  return st;
}

static void drop_vec(ts_vec *v, int *n, int k)
{
  memmove(v + k, v + k + 1, (size_t)(*n - k - 1) * sizeof *v);
  (*n)--;
}

/* Drops from v[0..*n) each vector without which no more than `target` reads are unordered,
 * those that save the most ticks first (leaving out the 26-degree vector of a pattern whose
 * reads do not need it saves ticks; a vector others order transitively saves none), one at a
 * time, as two vectors that are each redundant need not be so together. The dropped ones go
 * to out[] with the ticks before and after; *ticks ends as the length with what is left. */
static ts_status reduce(const ts_run *run, ts_vec *v, int *n, size_t target, int64_t *ticks,
                        ts_advice_vec *out, int *nout, ts_error *err)
{
  for (;;) {
    int best = -1;
    int64_t best_ticks = 0;
    for (int k = 0; k < *n; k++) {
      ts_vec w[TS_PATTERN_MAX_VECTORS];
      int m = *n;
      memcpy(w, v, (size_t)m * sizeof *w);
      drop_vec(w, &m, k);
      int64_t t = 0;
      size_t un = 0;
      ts_status st = try_vectors(run, w, m, &t, &un, err);
      if (st != TS_OK)
        return st;
      if (un <= target && (best < 0 || t < best_ticks)) {
        best = k;
        best_ticks = t;
      }
    }
    if (best < 0)
      return TS_OK;
    if (out)
      out[(*nout)++] = (ts_advice_vec){ .pass = -1, .v = v[best], .ticks_with = *ticks,
                                        .ticks_without = best_ticks };
    drop_vec(v, n, best);
    *ticks = best_ticks;
  }
}

ts_status ts_run_advice(const ts_run *run, ts_advice *a, ts_error *err)
{
  memset(a, 0, sizeof *a);
  const ts_sched *s = run->sched;
  a->ticks = s->length;
  /* The reads along each vector, and those no chain of waits orders (the run's races). */
  for (int pi = 0; pi < s->npasses; pi++) {
    const ts_pass_sched *ps = &s->pass[pi];
    uint32_t prods[TSRUN_MAX_PRODUCERS];
    for (uint32_t id = 0; id < ps->n; id++) {
      int np = tsrun_producers(run, pi, id, prods);
      for (int i = 0; i < np; i++)
        add_vec(a->read, &a->nread, TS_ADVICE_MAX, pi, vec_of(ps, id, prods[i]), 1);
    }
  }
  for (size_t i = 0; i < run->nraces; i++) {
    const ts_hazard *h = &run->races[i];
    add_vec(a->missing, &a->nmissing, TS_ADVICE_MAX, h->pass,
            vec_of(&s->pass[h->pass], h->consumer, h->producer), 1);
  }
  /* The pattern's vectors that the reads it orders do not need (a pattern already missing
   * some is judged on the rest), then the needed ones. */
  const ts_vec *pv;
  int n = s->params.custom ? s->params.nvecs : ts_pattern_vectors(s->params.pattern, &pv);
  if (s->params.custom)
    pv = s->params.vecs;
  ts_vec v[TS_PATTERN_MAX_VECTORS];
  if (n > 0) /* pattern none has no vectors, and no array of them */
    memcpy(v, pv, (size_t)n * sizeof *v);
  int64_t ticks = s->length;
  ts_status st = reduce(run, v, &n, run->nraces, &ticks, a->unneeded, &a->nunneeded, err);
  if (st != TS_OK)
    return st;
  for (int k = 0; k < n; k++)
    a->needed[a->nneeded++] = (ts_advice_vec){ .pass = -1, .v = v[k] };
  /* What would order every read: the needed vectors and the missing ones (those pointing
   * to a tile the walk dispatches earlier), less any the others then order. */
  if (a->nmissing == 0)
    return TS_OK;
  for (int i = 0; i < a->nmissing && n < TS_PATTERN_MAX_VECTORS; i++) {
    int dup = 0;
    for (int k = 0; k < n; k++)
      dup |= v[k].dx == a->missing[i].v.dx && v[k].dy == a->missing[i].v.dy;
    if (!dup)
      v[n++] = a->missing[i].v;
  }
  size_t un = 0;
  if ((st = try_vectors(run, v, n, &ticks, &un, err)) != TS_OK)
    return st;
  if (un == 0 && (st = reduce(run, v, &n, 0, &ticks, NULL, NULL, err)) != TS_OK)
    return st;
  a->suggest_ok = un == 0;
  a->nsuggest = n;
  memcpy(a->suggest, v, (size_t)n * sizeof *v);
  a->suggest_ticks = ticks;
  return TS_OK;
}

void ts_vec_words(ts_vec v, char *buf, size_t size)
{
  const char *row = v.dy < 0 ? "above" : v.dy > 0 ? "below" : "";
  const char *col = v.dx < 0 ? "to the left" : v.dx > 0 ? "to the right" : "";
  if (v.dx < -1 || v.dx > 1 || v.dy < -1 || v.dy > 1) {
    char r[32] = "", c[32] = "";
    if (v.dy)
      snprintf(r, sizeof r, "%d %s", abs(v.dy), v.dy < 0 ? "up" : "down");
    if (v.dx)
      snprintf(c, sizeof c, "%d %s", abs(v.dx), v.dx < 0 ? "left" : "right");
    snprintf(buf, size, "the tile %s%s%s", r, *r && *c ? " and " : "", c);
  } else if (v.dx == 0 && v.dy == 0) {
    snprintf(buf, size, "its own tile");
  } else {
    snprintf(buf, size, "the tile %s%s%s", row, *row && *col ? " and " : "", col);
  }
}

void ts_vec_list(const ts_vec *v, int n, char *buf, size_t size)
{
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < n && k < size; i++)
    k += (size_t)snprintf(buf + k, size - k, "%s(%d,%d)", i ? " " : "", v[i].dx, v[i].dy);
  if (n == 0)
    snprintf(buf, size, "none");
}
