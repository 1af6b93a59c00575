/* A run: one variant on one image under one schedule, replayed tick by tick.
 * The schedule is simulated once; the executor then replays it: at each tick the threads
 * ending now commit their writes (shadow -> buffer), then the threads starting now run,
 * reading the buffers as committed. Seeking forward continues the replay; seeking back
 * replays from tick 0. The output at tick T holds exactly the writes committed at ticks
 * <= T. Hazards (a read before its producer finished) are found from the variants' declared
 * footprints and named by producer and consumer. */
#ifndef TS_RUN_H
#define TS_RUN_H

#include <stddef.h>

#include "ts_cl.h"
#include "ts_image.h"
#include "ts_variant.h"

typedef struct ts_run_params {
  const ts_variant *variant;
  ts_sched_params sched;
  int cost;       /* ticks per thread; 0: the variant's own */
  int ksize;      /* Gaussian kernel size; 0: 5 */
  double sigma;   /* Gaussian sigma; <= 0: the default for ksize */
  ts_cl *cl;      /* the OpenCL back end, or NULL for the CPU model */
} ts_run_params;

typedef struct ts_hazard {
  int pass;
  uint32_t consumer, producer; /* thread ids in that pass */
} ts_hazard;

typedef enum ts_thread_state {
  TS_STATE_PENDING,  /* not dispatched yet */
  TS_STATE_WAITING,  /* dispatched, holding a slot, waiting for its dependencies */
  TS_STATE_RUNNING,
  TS_STATE_DONE,
} ts_thread_state;

typedef struct ts_run ts_run;

/* Fills unset fields (ksize, cost) from the variant. */
void ts_run_params_resolve(ts_run_params *p);
ts_status ts_run_create(const ts_image *in, const ts_run_params *p, ts_run **out, ts_error *err);
void ts_run_destroy(ts_run *run);

/* Replays to `tick` (clamped to 0 .. the run's length). */
ts_status ts_run_seek(ts_run *run, int64_t tick, ts_error *err);
/* Runs the whole image as fast as the back end can, without the shadow and commit steps:
 * one launch per pass (per start tick for a pass that reads its own output, which is then
 * only right under a hazard-free schedule). Leaves the run at its last tick. */
ts_status ts_run_finish_fast(ts_run *run, ts_error *err);
/* The output rows [*y0, *y1) that may have changed since the last call (all of them after a
 * seek back or a fast run); returns 0 when none did. For viewers that redraw only those. */
int ts_run_take_changed_rows(ts_run *run, int *y0, int *y1);
/* Device kernel time of the launches since the last call, in ms (0 on the CPU). */
double ts_run_take_kernel_ms(ts_run *run);
int64_t ts_run_tick(const ts_run *run);
const ts_sched *ts_run_sched(const ts_run *run);
const ts_kctx *ts_run_kctx(const ts_run *run);
const ts_run_params *ts_run_params_of(const ts_run *run);
const ts_hazard *ts_run_hazards(const ts_run *run, size_t *n);
/* Threads with at least one hazard. */
size_t ts_run_hazardous_threads(const ts_run *run);
/* Milliseconds spent running and committing threads since the run was created. */
double ts_run_exec_ms(const ts_run *run);

/* The committed output as an image of the input's size: box and Gaussian results as they
 * are; the integral image as 8-bit grey scaled by ts_run_integral_scale (larger values,
 * such as the wrapped sums of a hazardous run, saturate). */
ts_status ts_run_output(const ts_run *run, ts_image **out, ts_error *err);
/* The integral image's committed sums (W x H), or NULL for other filters. */
const uint32_t *ts_run_output_u32(const ts_run *run);
/* What a correct integral image peaks at: the sum of all luma (at most 2^32 - 1), so that
 * every tick and every schedule of one image is drawn on the same scale. */
uint32_t ts_run_integral_scale(const ts_run *run);

ts_thread_state ts_thread_state_at(const ts_thread *t, int64_t tick);
const char *ts_thread_state_name(ts_thread_state s);

#endif
