/* The schedule simulator: the SPEC's run lengths, and for every walk x pattern x slots x cost
 * on random thread spaces: no deadlock, and every property of the machine model. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ts_sched.h"

static ts_sched *simulate(int tw, int th, int cost, ts_pattern pat, ts_walk walk, int slots)
{
  ts_pass_geom g = { tw, th, cost };
  ts_sched_params p = { .pattern = pat, .walk = walk, .slots = slots };
  ts_sched *s = NULL;
  ts_error err = { 0 };
  CHECK(ts_sched_run(&g, 1, &p, &s, &err) == TS_OK, "%s", err.msg);
  return s;
}

static void run_lengths(void)
{
  int sizes[][2] = { { 1, 1 }, { 5, 3 }, { 3, 5 }, { 1, 7 }, { 7, 1 }, { 40, 23 }, { 120, 68 } };
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    int tw = sizes[i][0], th = sizes[i][1];
    ts_sched *s = simulate(tw, th, 1, TS_PAT_WAVEFRONT, TS_WALK_WAVEFRONT, TS_SLOTS_MAX);
    CHECK(s && s->length == tw + th - 1, "wavefront %dx%d took %lld ticks, want %d", tw, th,
          s ? (long long)s->length : -1LL, tw + th - 1);
    ts_sched_destroy(s);
    /* A single column has no upper-right neighbour: it is plain vertical order. */
    int want26 = tw >= 2 ? tw + 2 * (th - 1) : th;
    s = simulate(tw, th, 1, TS_PAT_WAVEFRONT26, TS_WALK_WAVEFRONT26, TS_SLOTS_MAX);
    CHECK(s && s->length == want26, "wavefront26 %dx%d took %lld ticks, want %d", tw, th,
          s ? (long long)s->length : -1LL, want26);
    ts_sched_destroy(s);
    /* No dependencies, enough slots: one wave. Cost 3, one slot: strictly serial. */
    s = simulate(tw, th, 1, TS_PAT_NONE, TS_WALK_HORIZONTAL, TS_SLOTS_MAX);
    CHECK(s && s->length == 1, "none %dx%d took %lld ticks", tw, th, (long long)s->length);
    ts_sched_destroy(s);
    s = simulate(tw, th, 3, TS_PAT_NONE, TS_WALK_VERTICAL, 1);
    CHECK(s && s->length == 3LL * tw * th, "serial %dx%d took %lld ticks", tw, th,
          (long long)s->length);
    ts_sched_destroy(s);
  }
}

/* Checks the machine model on a finished schedule. */
static void check_properties(const ts_sched *s, const char *what)
{
  const ts_pass_sched *p = &s->pass[0];
  uint32_t n = p->n;
  int64_t prev_dispatch = 0;
  int64_t max_end = 0;
  for (uint32_t r = 0; r < n; r++) {
    uint32_t id = p->order[r];
    const ts_thread *t = &p->t[id];
    CHECK(t->dispatch == r, "%s: dispatch index", what);
    /* Strictly in walk order. */
    CHECK(t->dispatch_tick >= prev_dispatch, "%s: thread %u dispatched out of order", what, id);
    prev_dispatch = t->dispatch_tick;
    CHECK(t->slot >= 0 && t->slot < s->params.slots, "%s: slot %d", what, t->slot);
    CHECK(t->end_tick == t->start_tick + p->cost, "%s: end != start + cost", what);
    /* A thread starts exactly when it is dispatched and its waits have finished. */
    uint32_t tg[TS_PATTERN_MAX_VECTORS];
    int nw = ts_sched_waits(s, 0, id, tg);
    int64_t ready = t->dispatch_tick;
    int32_t depth = 0;
    for (int i = 0; i < nw; i++) {
      CHECK(p->t[tg[i]].dispatch < t->dispatch, "%s: waits on a later thread", what);
      if (p->t[tg[i]].end_tick > ready)
        ready = p->t[tg[i]].end_tick;
      if (p->t[tg[i]].depth + 1 > depth)
        depth = p->t[tg[i]].depth + 1;
    }
    CHECK(t->start_tick == ready, "%s: thread %u starts at %lld, could at %lld", what, id,
          (long long)t->start_tick, (long long)ready);
    CHECK(t->depth == depth && t->nwait == nw, "%s: depth/nwait of %u", what, id);
    if (t->end_tick > max_end)
      max_end = t->end_tick;
  }
  CHECK(s->length == max_end, "%s: length %lld, last end %lld", what, (long long)s->length,
        (long long)max_end);
  /* Slots: a slot holds one thread at a time, from dispatch to end; a thread is dispatched
   * as soon as some slot is free, into the lowest free one. */
  for (uint32_t r = 0; r < n; r++) {
    const ts_thread *t = &p->t[p->order[r]];
    int busy_lower = 0, any_free_earlier = 0;
    (void)any_free_earlier;
    for (uint32_t q = 0; q < n; q++) {
      if (q == r)
        continue;
      const ts_thread *u = &p->t[p->order[q]];
      int overlap = u->dispatch_tick < t->end_tick && t->dispatch_tick < u->end_tick;
      CHECK(!(overlap && u->slot == t->slot), "%s: slot %d shared", what, t->slot);
      /* Every lower slot is held at t's dispatch tick (by a thread that stays past it). */
      if (u->slot < t->slot && u->dispatch_tick <= t->dispatch_tick &&
          u->end_tick > t->dispatch_tick)
        busy_lower++;
    }
    CHECK(busy_lower == t->slot, "%s: dispatch %u took slot %d with a lower one free", what, r,
          t->slot);
  }
  /* Occupancy never exceeds the slots; it ends at zero. */
  for (size_t i = 0; i < s->nocc; i++)
    CHECK(s->occ[i].resident <= (uint32_t)s->params.slots &&
              s->occ[i].running <= s->occ[i].resident,
          "%s: occupancy", what);
  CHECK(s->nocc > 0 && s->occ[s->nocc - 1].resident == 0, "%s: ends occupied", what);
  /* The start sequence lists every thread once, in start order. */
  uint8_t *seen = calloc(n, 1);
  int64_t last = -1;
  for (uint32_t i = 0; i < s->total; i++) {
    uint32_t id = s->start_seq[i];
    CHECK(id < n && !seen[id], "%s: start sequence", what);
    if (id >= n)
      break;
    seen[id] = 1;
    CHECK(p->t[id].start_tick >= last, "%s: start sequence order", what);
    last = p->t[id].start_tick;
  }
  free(seen);
}

static void all_combinations(void)
{
  static const int slot_counts[] = { 1, 2, 3, 7, 168, TS_SLOTS_MAX };
  static const int costs[] = { 1, 3 };
  for (int trial = 0; trial < 4; trial++) {
    int tw = trial == 0 ? 1 : 1 + (int)check_rand(20);
    int th = trial == 1 ? 1 : 1 + (int)check_rand(14);
    for (int w = 0; w < TS_WALK_COUNT; w++)
      for (int pt = 0; pt < TS_PAT_COUNT; pt++)
        for (size_t si = 0; si < sizeof slot_counts / sizeof slot_counts[0]; si++)
          for (size_t ci = 0; ci < 2; ci++) {
            char what[160];
            snprintf(what, sizeof what, "%dx%d %s/%s slots %d cost %d", tw, th,
                     ts_walk_name((ts_walk)w), ts_pattern_name((ts_pattern)pt), slot_counts[si],
                     costs[ci]);
            ts_sched *s = simulate(tw, th, costs[ci], (ts_pattern)pt, (ts_walk)w, slot_counts[si]);
            if (!s)
              continue;
            check_properties(s, what);
            ts_sched_destroy(s);
          }
  }
}

/* Two passes run one after another on one tick axis. */
static void two_passes(void)
{
  ts_pass_geom g[2] = { { 4, 3, 2 }, { 3, 4, 1 } };
  ts_sched_params p = { .pattern = TS_PAT_WAVEFRONT, .walk = TS_WALK_WAVEFRONT, .slots = 168 };
  ts_sched *s = NULL;
  CHECK(ts_sched_run(g, 2, &p, &s, NULL) == TS_OK, "two passes");
  if (!s)
    return;
  CHECK(s->pass[0].t_end == 2 * (4 + 3 - 1), "pass 1 ends at %lld", (long long)s->pass[0].t_end);
  CHECK(s->pass[1].t_begin == s->pass[0].t_end, "pass 2 begins when pass 1 ends");
  CHECK(s->length == s->pass[0].t_end + 3 + 4 - 1, "length %lld", (long long)s->length);
  for (uint32_t i = 0; i < s->pass[1].n; i++)
    CHECK(s->pass[1].t[i].start_tick >= s->pass[0].t_end, "pass 2 thread starts early");
  CHECK(s->total == 24, "total");
  ts_sched_destroy(s);
}

static void bad_params(void)
{
  ts_pass_geom g = { 4, 4, 1 };
  ts_sched_params p = { .pattern = TS_PAT_NONE, .walk = TS_WALK_HORIZONTAL, .slots = 0 };
  ts_sched *s = NULL;
  ts_error err = { 0 };
  CHECK(ts_sched_run(&g, 1, &p, &s, &err) == TS_ERR_ARG && !s, "slots 0 accepted");
  p.slots = TS_SLOTS_MAX + 1;
  CHECK(ts_sched_run(&g, 1, &p, &s, &err) == TS_ERR_ARG && !s, "too many slots accepted");
  p.slots = 4;
  g.cost = 0;
  CHECK(ts_sched_run(&g, 1, &p, &s, &err) == TS_ERR_ARG && !s, "cost 0 accepted");
}

int main(void)
{
  run_lengths();
  all_combinations();
  two_passes();
  bad_params();
  return check_exit("test_sched");
}
