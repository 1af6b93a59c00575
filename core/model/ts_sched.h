/* The dispatcher simulator (SPEC section 2, machine model): N resident thread slots, a cost
 * in ticks per thread, strict in-order dispatch into the lowest free slot, a thread starts
 * once its effective wait set has finished. Deterministic and tick by tick; passes run one
 * after another on one tick axis. Produces per-thread records, the order in which threads
 * start (the executor replays it) and occupancy change points. */
#ifndef TS_SCHED_H
#define TS_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "ts_walk.h"

#define TS_MAX_PASSES 4
#define TS_SLOTS_DEFAULT 168 /* 24 EUs x 7 threads: a Gen9 GT2 */
#define TS_SLOTS_MAX 65536
#define TS_COST_MAX 1000

typedef struct ts_thread {
  int32_t slot;
  uint32_t dispatch;            /* index in walk order */
  int64_t dispatch_tick, start_tick, end_tick;
  int32_t depth;                /* 0 without waits, else 1 + deepest waited-for thread */
  int32_t nwait;                /* size of the effective wait set */
  int32_t hazards;              /* producers not finished at start (see ts_hazard.h) */
} ts_thread;

typedef struct ts_pass_geom {
  int tw, th; /* thread space */
  int cost;   /* ticks per thread */
} ts_pass_geom;

typedef struct ts_pass_sched {
  int tw, th, cost;
  uint32_t n;
  uint32_t first;          /* global index of thread id 0 of this pass */
  uint32_t *order;         /* dispatch index -> thread id */
  ts_thread *t;            /* by thread id (y * tw + x) */
  int64_t t_begin, t_end;  /* first dispatch tick, last finish tick */
} ts_pass_sched;

typedef struct ts_occ {
  int64_t tick;
  uint32_t resident, running; /* during [tick, next change point) */
} ts_occ;

typedef struct ts_sched_params {
  ts_pattern pattern;
  ts_walk walk;
  int slots;
  /* custom != 0: these vectors in place of the pattern's (the pattern advice's schedules,
   * ts_advice.c, each one vector short) */
  int custom, nvecs;
  ts_vec vecs[TS_PATTERN_MAX_VECTORS];
} ts_sched_params;

typedef struct ts_sched {
  ts_sched_params params;
  int npasses;
  ts_pass_sched pass[TS_MAX_PASSES];
  uint32_t total;         /* threads over all passes */
  uint32_t *start_seq;    /* global thread indices in start order; also their finish order */
  ts_occ *occ;
  size_t nocc;
  int64_t length;         /* ticks until the last thread finished */
  uint32_t peak_resident;
} ts_sched;

ts_status ts_sched_run(const ts_pass_geom *passes, int npasses, const ts_sched_params *params,
                       ts_sched **out, ts_error *err);
void ts_sched_destroy(ts_sched *s);

/* Splits a global thread index into pass and thread id. */
void ts_sched_locate(const ts_sched *s, uint32_t global, int *pass, uint32_t *id);
/* The effective wait set of thread `id` of `pass`: thread ids, at most TS_PATTERN_MAX_VECTORS. */
int ts_sched_waits(const ts_sched *s, int pass, uint32_t id, uint32_t *targets);
/* Whether the waits order producer `prod` before consumer `cons` of pass `pass`: a chain of
 * waits leads from the consumer back to it. stamps (zeroed) and queue hold a pass's
 * threads; *stamp_now counts the searches. */
int ts_sched_ordered(const ts_sched *s, int pass, uint32_t prod, uint32_t cons, uint32_t *stamps,
                     uint32_t *queue, uint32_t *stamp_now);
/* Threads that wait for `id` (the reverse edges). */
int ts_sched_waiters(const ts_sched *s, int pass, uint32_t id, uint32_t *targets);
/* Resident and running threads at a tick. */
void ts_sched_occupancy(const ts_sched *s, int64_t tick, uint32_t *resident, uint32_t *running);
/* Mean running threads per tick over the run (0 for an empty run). */
double ts_sched_mean_running(const ts_sched *s);

#endif
