/* The tick-by-tick dispatcher simulator. Event driven: each tick first retires the threads
 * that end now (freeing their slots and counting down their waiters), then dispatches in walk
 * order into the lowest free slots, then starts every dispatched thread whose waits are done;
 * time then jumps to the next finish, since nothing changes in between. Cost is constant
 * within a pass, so threads finish in the order they started and one FIFO holds them. */
#include <stdlib.h>
#include <string.h>

#include "ts_sched.h"

/* Binary min-heap of free slot numbers. */
typedef struct slot_heap {
  int32_t *v;
  int n;
} slot_heap;

static void heap_push(slot_heap *h, int32_t s)
{
  int i = h->n++;
  while (i > 0) {
    int p = (i - 1) / 2;
    if (h->v[p] <= s)
      break;
    h->v[i] = h->v[p];
    i = p;
  }
  h->v[i] = s;
}

static int32_t heap_pop(slot_heap *h)
{
  int32_t top = h->v[0], last = h->v[--h->n];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= h->n)
      break;
    if (c + 1 < h->n && h->v[c + 1] < h->v[c])
      c++;
    if (h->v[c] >= last)
      break;
    h->v[i] = h->v[c];
    i = c;
  }
  if (h->n > 0)
    h->v[i] = last;
  return top;
}

static int target_of(const ts_pass_sched *p, uint32_t id, ts_vec v, uint32_t *out)
{
  int x = (int)(id % (uint32_t)p->tw) + v.dx, y = (int)(id / (uint32_t)p->tw) + v.dy;
  if (x < 0 || y < 0 || x >= p->tw || y >= p->th)
    return 0;
  *out = (uint32_t)y * (uint32_t)p->tw + (uint32_t)x;
  return 1;
}

/* The vectors the schedule waits along: its custom ones, else its pattern's. */
static int sched_vectors(const ts_sched *s, const ts_vec **v)
{
  if (s->params.custom) {
    *v = s->params.vecs;
    return s->params.nvecs;
  }
  return ts_pattern_vectors(s->params.pattern, v);
}

int ts_sched_waits(const ts_sched *s, int pass, uint32_t id, uint32_t *targets)
{
  const ts_pass_sched *p = &s->pass[pass];
  const ts_vec *v;
  int nv = sched_vectors(s, &v), n = 0;
  for (int i = 0; i < nv; i++) {
    uint32_t t;
    if (target_of(p, id, v[i], &t) && p->t[t].dispatch < p->t[id].dispatch)
      targets[n++] = t;
  }
  return n;
}

/* Whether the scoreboard orders producer `prod` before consumer `cons`: a chain of waits
 * leads from the consumer back to it. Each wait goes to a smaller ticket, so the search
 * goes back only through tickets after the producer's. A dependency the pattern leaves out
 * can still be ordered through others (wavefront26x orders a tile's left neighbour through
 * the one below it), and a tile whose waits fall outside the space is ordered by nothing:
 * the simulator's ticks may still have finished the producer first, the device need not. */
int ts_sched_ordered(const ts_sched *s, int pi, uint32_t prod, uint32_t cons, uint32_t *stamps,
                     uint32_t *queue, uint32_t *stamp_now)
{
  const ts_pass_sched *ps = &s->pass[pi];
  uint32_t floor = ps->t[prod].dispatch, stamp = ++*stamp_now, head = 0, tail = 0;
  uint32_t tg[TS_PATTERN_MAX_VECTORS];
  queue[tail++] = cons;
  stamps[cons] = stamp;
  while (head < tail) {
    int nw = ts_sched_waits(s, pi, queue[head++], tg);
    for (int i = 0; i < nw; i++) {
      if (tg[i] == prod)
        return 1;
      if (ps->t[tg[i]].dispatch > floor && stamps[tg[i]] != stamp) {
        stamps[tg[i]] = stamp;
        queue[tail++] = tg[i];
      }
    }
  }
  return 0;
}

int ts_sched_waiters(const ts_sched *s, int pass, uint32_t id, uint32_t *targets)
{
  const ts_pass_sched *p = &s->pass[pass];
  const ts_vec *v;
  int nv = sched_vectors(s, &v), n = 0;
  for (int i = 0; i < nv; i++) {
    uint32_t w;
    ts_vec back = { -v[i].dx, -v[i].dy };
    if (target_of(p, id, back, &w) && p->t[id].dispatch < p->t[w].dispatch)
      targets[n++] = w;
  }
  return n;
}

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

typedef struct sim {
  ts_sched *s;
  int32_t *pending;   /* unfinished effective waits per thread */
  uint64_t *ready;    /* (dispatch index << 32 | id) of threads free to start now */
  uint32_t nready;
  uint32_t *fifo;     /* running threads, in start (= finish) order */
  uint32_t head, tail;
  slot_heap heap;
  size_t cap_occ;
} sim;

static int push_occ(sim *m, int64_t tick, uint32_t resident, uint32_t running)
{
  ts_sched *s = m->s;
  if (s->nocc > 0 && s->occ[s->nocc - 1].tick == tick) {
    s->occ[s->nocc - 1].resident = resident;
    s->occ[s->nocc - 1].running = running;
    return 1;
  }
  if (s->nocc == m->cap_occ) {
    size_t cap = m->cap_occ ? m->cap_occ * 2 : 1024;
    ts_occ *o = realloc(s->occ, cap * sizeof *o);
    if (!o)
      return 0;
    s->occ = o;
    m->cap_occ = cap;
  }
  s->occ[s->nocc++] = (ts_occ){ tick, resident, running };
  return 1;
}

static ts_status run_pass(sim *m, int pi, int64_t t0, uint32_t *seq_pos, ts_error *err)
{
  ts_sched *s = m->s;
  ts_pass_sched *p = &s->pass[pi];
  const ts_vec *vec;
  int nv = sched_vectors(s, &vec);
  uint32_t n = p->n;

  /* Effective wait sets and depths, in dispatch order so targets are already known. */
  for (uint32_t r = 0; r < n; r++) {
    uint32_t id = p->order[r], tg[TS_PATTERN_MAX_VECTORS];
    int nw = ts_sched_waits(s, pi, id, tg);
    int32_t depth = 0;
    for (int i = 0; i < nw; i++)
      if (p->t[tg[i]].depth + 1 > depth)
        depth = p->t[tg[i]].depth + 1;
    p->t[id].nwait = nw;
    p->t[id].depth = depth;
    m->pending[id] = nw;
  }

  uint32_t slots = (uint32_t)s->params.slots < n ? (uint32_t)s->params.slots : n;
  m->heap.n = 0;
  for (uint32_t i = 0; i < slots; i++)
    heap_push(&m->heap, (int32_t)i);
  m->head = m->tail = 0;
  m->nready = 0;

  uint32_t next = 0, finished = 0;
  int64_t t = t0;
  p->t_begin = t0;
  for (;;) {
    /* 1. Threads ending now finish and free their slots. */
    while (m->head < m->tail && p->t[m->fifo[m->head]].end_tick == t) {
      uint32_t u = m->fifo[m->head++];
      heap_push(&m->heap, p->t[u].slot);
      finished++;
      for (int i = 0; i < nv; i++) {
        uint32_t w;
        ts_vec back = { -vec[i].dx, -vec[i].dy };
        if (!target_of(p, u, back, &w) || p->t[w].dispatch < p->t[u].dispatch)
          continue;
        if (--m->pending[w] == 0 && p->t[w].dispatch_tick >= 0)
          m->ready[m->nready++] = (uint64_t)p->t[w].dispatch << 32 | w;
      }
    }
    if (finished == n)
      break;
    /* 2. Dispatch strictly in walk order while slots are free. */
    while (m->heap.n > 0 && next < n) {
      uint32_t id = p->order[next++];
      p->t[id].slot = heap_pop(&m->heap);
      p->t[id].dispatch_tick = t;
      if (m->pending[id] == 0)
        m->ready[m->nready++] = (uint64_t)p->t[id].dispatch << 32 | id;
    }
    /* 3. Every dispatched thread whose waits are done starts now. */
    qsort(m->ready, m->nready, sizeof *m->ready, cmp_u64);
    for (uint32_t i = 0; i < m->nready; i++) {
      uint32_t id = (uint32_t)m->ready[i];
      p->t[id].start_tick = t;
      p->t[id].end_tick = t + p->cost;
      m->fifo[m->tail++] = id;
      s->start_seq[(*seq_pos)++] = p->first + id;
    }
    m->nready = 0;
    uint32_t resident = next - finished;
    if (resident > s->peak_resident)
      s->peak_resident = resident;
    if (!push_occ(m, t, resident, m->tail - m->head))
      return ts_fail(err, TS_ERR_NOMEM, "out of memory for the occupancy record");
    if (m->head == m->tail)
      return ts_fail(err, TS_ERR_ARG, "schedule deadlock at tick %lld (internal error)",
                     (long long)t);
    t = p->t[m->fifo[m->head]].end_tick;
  }
  p->t_end = t;
  if (!push_occ(m, t, 0, 0))
    return ts_fail(err, TS_ERR_NOMEM, "out of memory for the occupancy record");
  return TS_OK;
}

ts_status ts_sched_run(const ts_pass_geom *passes, int npasses, const ts_sched_params *params,
                       ts_sched **out, ts_error *err)
{
  if (npasses < 1 || npasses > TS_MAX_PASSES)
    return ts_fail(err, TS_ERR_ARG, "bad pass count %d", npasses);
  if (params->slots < 1 || params->slots > TS_SLOTS_MAX)
    return ts_fail(err, TS_ERR_ARG, "--slots %d is outside 1..%d", params->slots, TS_SLOTS_MAX);
  if ((unsigned)params->pattern >= TS_PAT_COUNT || (unsigned)params->walk >= TS_WALK_COUNT)
    return ts_fail(err, TS_ERR_ARG, "unknown pattern or walk");
  if (params->custom && (params->nvecs < 0 || params->nvecs > TS_PATTERN_MAX_VECTORS))
    return ts_fail(err, TS_ERR_ARG, "%d dependency vectors: at most %d", params->nvecs,
                   TS_PATTERN_MAX_VECTORS);
  ts_sched *s = calloc(1, sizeof *s);
  if (!s)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory for a schedule");
  s->params = *params;
  s->npasses = npasses;
  ts_status st = TS_OK;
  uint32_t maxn = 0;
  uint64_t total = 0;
  for (int i = 0; i < npasses; i++) {
    const ts_pass_geom *g = &passes[i];
    if (g->tw < 1 || g->th < 1 || g->cost < 1 || g->cost > TS_COST_MAX ||
        (uint64_t)g->tw * (uint64_t)g->th > (1u << 30)) {
      st = ts_fail(err, TS_ERR_ARG, "bad pass %d: %dx%d threads, cost %d", i + 1, g->tw, g->th,
                   g->cost);
      goto fail;
    }
    ts_pass_sched *p = &s->pass[i];
    p->tw = g->tw;
    p->th = g->th;
    p->cost = g->cost;
    p->n = (uint32_t)g->tw * (uint32_t)g->th;
    p->first = (uint32_t)total;
    total += p->n;
    if (p->n > maxn)
      maxn = p->n;
    p->order = malloc(p->n * sizeof *p->order);
    p->t = malloc(p->n * sizeof *p->t);
    if (!p->order || !p->t) {
      st = ts_fail(err, TS_ERR_NOMEM, "out of memory for %u threads", p->n);
      goto fail;
    }
    if ((st = ts_walk_order(params->walk, p->tw, p->th, p->order, err)) != TS_OK)
      goto fail;
    for (uint32_t r = 0; r < p->n; r++) {
      ts_thread *t = &p->t[p->order[r]];
      *t = (ts_thread){ .slot = -1, .dispatch = r, .dispatch_tick = -1, .start_tick = -1,
                        .end_tick = -1 };
    }
  }
  if (total > (1u << 30)) {
    st = ts_fail(err, TS_ERR_TOO_LARGE, "%llu threads, over the limit of %u",
                 (unsigned long long)total, 1u << 30);
    goto fail;
  }
  s->total = (uint32_t)total;
  s->start_seq = malloc(total * sizeof *s->start_seq);
  sim m = { .s = s };
  m.pending = malloc(maxn * sizeof *m.pending);
  m.ready = malloc(maxn * sizeof *m.ready);
  m.fifo = malloc(maxn * sizeof *m.fifo);
  m.heap.v = malloc(maxn * sizeof *m.heap.v);
  if (!s->start_seq || !m.pending || !m.ready || !m.fifo || !m.heap.v)
    st = ts_fail(err, TS_ERR_NOMEM, "out of memory for %llu threads", (unsigned long long)total);
  uint32_t seq_pos = 0;
  int64_t t = 0;
  for (int i = 0; i < npasses && st == TS_OK; i++) {
    st = run_pass(&m, i, t, &seq_pos, err);
    t = s->pass[i].t_end;
  }
  s->length = t;
  free(m.pending);
  free(m.ready);
  free(m.fifo);
  free(m.heap.v);
  if (st != TS_OK)
    goto fail;
  *out = s;
  return TS_OK;
fail:
  ts_sched_destroy(s);
  return st;
}

void ts_sched_destroy(ts_sched *s)
{
  if (!s)
    return;
  for (int i = 0; i < s->npasses; i++) {
    free(s->pass[i].order);
    free(s->pass[i].t);
  }
  free(s->start_seq);
  free(s->occ);
  free(s);
}

void ts_sched_locate(const ts_sched *s, uint32_t global, int *pass, uint32_t *id)
{
  int p = 0;
  while (p + 1 < s->npasses && global >= s->pass[p + 1].first)
    p++;
  *pass = p;
  *id = global - s->pass[p].first;
}

void ts_sched_occupancy(const ts_sched *s, int64_t tick, uint32_t *resident, uint32_t *running)
{
  size_t lo = 0, hi = s->nocc;
  /* Last change point at or before tick. */
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (s->occ[mid].tick <= tick)
      lo = mid;
    else
      hi = mid;
  }
  if (s->nocc == 0 || s->occ[lo].tick > tick) {
    *resident = *running = 0;
    return;
  }
  *resident = s->occ[lo].resident;
  *running = s->occ[lo].running;
}

double ts_sched_mean_running(const ts_sched *s)
{
  if (s->length <= 0)
    return 0.0;
  double area = 0.0;
  for (size_t i = 0; i + 1 < s->nocc; i++)
    area += (double)s->occ[i].running * (double)(s->occ[i + 1].tick - s->occ[i].tick);
  return area / (double)s->length;
}
