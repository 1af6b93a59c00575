/* core/model/: the model. Images (ts_image), thread spaces and walk orders (ts_walk), the
 * dispatcher simulator with its patterns, slots and waits (ts_sched), and the run that
 * replays a schedule tick by tick on the CPU model or the OpenCL back end and names its
 * hazards (this file); comparison and status codes. What a run is made of comes from
 * variants/; how it runs on a device, from cl/. docs/architecture.md draws the map.
 *
 * A run: one variant on one image under one schedule, replayed tick by tick.
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
  int exec_device; /* the schedule is run by the device (ts_run_device), not replayed */
  /* The adversary of device runs: 0 off, else the seed of random delays before each group
   * starts and after it signals (kernels/scoreboard.cl), so that a missing dependency shows
   * in the pixels on a device whose groups seldom overlap, such as a CPU's. */
  uint32_t adversary;
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
/* The run shares `in` (ts_image_share) as its input buffer, or for the integral image of a
 * colour image, its own luma: in must not change while the run lives. */
ts_status ts_run_create(const ts_image *in, const ts_run_params *p, ts_run **out, ts_error *err);
void ts_run_destroy(ts_run *run);
/* Frees the run's buffers (host and device) and its share of the input, keeping the schedule,
 * hazards, geometry and device result, for a viewer that still draws the run from its own
 * copy of the pixels while the next run is made. The run cannot be replayed after this: its
 * seeks fail, and its buffers' data pointers are NULL. */
void ts_run_release_buffers(ts_run *run);

/* Replays to `tick` (clamped to 0 .. the run's length). */
ts_status ts_run_seek(ts_run *run, int64_t tick, ts_error *err);
/* Runs the whole image as fast as the back end can, without the shadow and commit steps:
 * one launch per pass (per start tick for a pass that reads its own output, which is then
 * only right under a hazard-free schedule). Leaves the run at its last tick. */
ts_status ts_run_finish_fast(ts_run *run, ts_error *err);
/* The output rows [*y0, *y1) that may have changed since the last call (all of them after a
 * seek back or a fast run); returns 0 when none did. For viewers that redraw only those. */
int ts_run_take_changed_rows(ts_run *run, int *y0, int *y1);
/* The same, as the rectangle of output pixels [*x0, *x1) x [*y0, *y1) that holds what may
 * have changed. */
int ts_run_take_changed_rect(ts_run *run, int *x0, int *y0, int *x1, int *y1);
/* The same, as up to `max` rectangles of output pixels (the threads' writes, a row of tiles
 * joined): returns how many, 0 when nothing changed; one that holds them all when they are
 * more than `max` or TS_VIEW_RECTS. A step's few hundred tiles stay apart, so a viewer
 * updates those and not the rectangle around them (a wavefront's spans the image). */
#define TS_VIEW_RECTS 1024
int ts_run_take_changed_rects(ts_run *run, ts_rect *out, int max);
/* Device kernel time of the launches since the last call, in ms (0 on the CPU). */
double ts_run_take_kernel_ms(ts_run *run);
int64_t ts_run_tick(const ts_run *run);
const ts_sched *ts_run_sched(const ts_run *run);
const ts_kctx *ts_run_kctx(const ts_run *run);
const ts_run_params *ts_run_params_of(const ts_run *run);
/* The run's OpenCL state (NULL on the CPU model), for the observation (ts_observe). */
ts_cl_run *ts_run_cl(const ts_run *run);
/* Back to before tick 0: buffers zeroed, nothing run yet. */
ts_status ts_run_rewind(ts_run *run, ts_error *err);
const ts_hazard *ts_run_hazards(const ts_run *run, size_t *n);
/* The races of a device-scheduled run (SPEC section 8): reads of a producer that no chain
 * of waits orders before its consumer, whatever the simulator's ticks say. Under none of
 * them the device's output is exact; each is a hazard or can become one on a device. */
const ts_hazard *ts_run_races(const ts_run *run, size_t *n);

/* Pattern advice (ts_advice.c): for the run's pattern, the dependency vectors it is missing
 * (reads no chain of waits orders, by the vector from the reader to the tile it reads), the
 * vectors it needs, those it does not need (left out together, every read it ordered still
 * is), with the ticks of the schedule before and after each is left out, and for a pattern
 * that misses some, the fewest vectors that order every read under the run's walk. From the
 * declared footprints. */
#define TS_ADVICE_MAX 32
typedef struct ts_advice_vec {
  int pass;              /* missing and read: its pass (from 0); -1 for the pattern's own */
  ts_vec v;              /* from the reading thread to the thread it reads */
  uint32_t threads;      /* missing and read: the reads along it */
  int64_t ticks_with, ticks_without; /* unneeded: the schedule's length before and after
                                      * it is left out (with those before it) */
} ts_advice_vec;
typedef struct ts_advice {
  int64_t ticks;         /* the run's own length */
  int nread, nmissing, nneeded, nunneeded;
  ts_advice_vec read[TS_ADVICE_MAX], missing[TS_ADVICE_MAX];
  ts_advice_vec needed[TS_PATTERN_MAX_VECTORS], unneeded[TS_PATTERN_MAX_VECTORS];
  /* missing some: the vectors that would order every read (suggest_ok 0: none under this
   * walk, which dispatches a tile read before its reader) and the schedule's length */
  int nsuggest, suggest_ok;
  ts_vec suggest[TS_PATTERN_MAX_VECTORS];
  int64_t suggest_ticks;
} ts_advice;
ts_status ts_run_advice(const ts_run *run, ts_advice *a, ts_error *err);
/* A vector in words: "the tile above and to the left". */
void ts_vec_words(ts_vec v, char *buf, size_t size);
/* Vectors as "(-1,0) (0,-1)", or "none". */
void ts_vec_list(const ts_vec *v, int n, char *buf, size_t size);
/* Threads with at least one hazard. */
size_t ts_run_hazardous_threads(const ts_run *run);
/* Milliseconds spent running and committing threads since the run was created. */
double ts_run_exec_ms(const ts_run *run);

/* The committed output as an image of the input's size: box and Gaussian results as they
 * are; the integral image as 8-bit grey scaled by ts_run_integral_scale (larger values,
 * such as the wrapped sums of a hazardous run, saturate). */
ts_status ts_run_output(const ts_run *run, ts_image **out, ts_error *err);
/* The run's filter reference from its own input (ts_run_ref.c): an image for the box and
 * the Gaussian (*img), the W x H sums for the integral image (*sums). It is made once and
 * kept with the run (every device run and every check compares with it), which owns both. */
ts_status ts_run_reference(ts_run *run, const ts_image **img, const uint32_t **sums,
                           ts_error *err);
/* The integral image's committed sums (W x H), or NULL for other filters. */
const uint32_t *ts_run_output_u32(const ts_run *run);
/* What a correct integral image peaks at: the sum of all luma (at most 2^32 - 1), so that
 * every tick and every schedule of one image is drawn on the same scale. */
uint32_t ts_run_integral_scale(const ts_run *run);
/* n sums as the viewer draws them: 8-bit grey, 255 at `scale` and above (scale 0 counts as
 * 1). */
void ts_integral_grey(const uint32_t *sums, size_t n, uint32_t scale, uint8_t *grey);

/* ---- the schedule run by the device (SPEC section 8) ---- */

typedef struct ts_dev_opts {
  int record;             /* keep a record of every work-group */
  int stuck;              /* tests: a ticket of the last pass that never signals; -1 none */
  uint32_t spin_limit;    /* 0: the device's default */
} ts_dev_opts;

typedef struct ts_dev_pass {
  uint32_t n;
  ts_grec *rec;           /* by ticket (NULL when not recorded) */
  /* 1: its kernel looks back (kernels/integral_lookback.cl): each group published an
   * aggregate before its end and recorded what bound its wait (ts_grec). */
  int lookback;
} ts_dev_pass;

/* The most lanes a device run has: compute unit ids below it (a GPU has a few hundred), and
 * as many logical lanes at most (groups that overlap more share the last). */
#define TS_DEV_MAX_LANES 1024

/* What the device did: per pass one record per work-group (ticket t is dispatch index t of
 * the walk), times relative to the earliest start, and the tiles of the last pass whose
 * output differs from the reference. */
typedef struct ts_dev_run {
  int npasses;
  ts_dev_pass pass[TS_MAX_PASSES];
  int clock_ns;           /* 1: times in nanoseconds; 0: a logical clock */
  uint64_t t_end;         /* the latest end */
  int lanes;              /* compute units seen, or logical lanes */
  double kernel_ms;       /* the launches' kernel time (0 for a loaded record) */
  uint8_t *wrong;         /* by thread id of the last pass: 1 where its tile is wrong */
  uint32_t nwrong;
  uint32_t adversary;     /* the run's adversary seed (ts_run_params), 0 when off */
  char device[128];
} ts_dev_run;

/* Runs every pass in one launch with the scoreboard, on the run's OpenCL back end, leaving
 * the device's output in the run's buffers and its record in ts_run_device_result. A wait
 * that reaches its bound gives TS_ERR_STALLED with a line naming the variant, pattern, walk
 * and the tickets. */
ts_status ts_run_device(ts_run *run, const ts_dev_opts *o, ts_error *err);
/* The last device run's result (or a loaded one), or NULL. */
const ts_dev_run *ts_run_device_result(const ts_run *run);
/* Gives the run a device result made elsewhere (a loaded record); checked against the
 * run's schedule: same passes and tiles in walk order. Takes ownership on success. */
ts_status ts_run_attach_device(ts_run *run, ts_dev_run *d, ts_error *err);
void ts_dev_run_free(ts_dev_run *d);
/* Fills lanes (compute units as they are, else the fewest logical lanes that hold every
 * group without overlap), rebases times on the earliest start, and sets t_end and lanes. */
void ts_dev_run_finish(ts_dev_run *d);

ts_thread_state ts_thread_state_at(const ts_thread *t, int64_t tick);
const char *ts_thread_state_name(ts_thread_state s);

/* Bytes every thread reads (its declared footprint, clipped to the image) and writes, over
 * all passes: the traffic the viewer's panel and the web page show. */
void ts_run_traffic(const ts_run *run, double *rd, double *wr);

/* A new seed for the adversary of device runs (ts_run_params.adversary): never 0. */
uint32_t ts_adversary_seed(void);

#endif
