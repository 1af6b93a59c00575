/* The window's worker thread (worker.c) and what it hands the window: the settings of a run
 * asked for, the snapshot published after each request (the output rows that changed, the
 * device's output, timings), the observation of a run (worker_obs.c) and how far the one
 * under way has come. The model (the run) lives on the
 * worker, so a kernel run or a large image never blocks drawing: the window asks for
 * (settings, tick) and takes the latest snapshot once per frame. Needs no GL; the worker's
 * own locks and thread are SDL's. */
#ifndef TS_APP_WORKER_H
#define TS_APP_WORKER_H

#include <stdint.h>

#include "ts_observe.h"
#include "ts_run.h"

/* The viewer observes every run on the OpenCL back end (ts_observe_run, on the worker) for
 * images of up to this many pixels: 3840x2160 on a CPU device, where an observed replay of a
 * 4K box2d run took 17-32 s on the 2-core pocl machine among other jobs and its per-element
 * records (last and other writer of each output element, the chosen thread's bitmaps) take
 * some 330 MB; 7680x4320 on a GPU (some 1.3 GB). Over that the panel says so, with the
 * limit. */
#define VW_OBSERVE_MAX_PX ((int64_t)3840 * 2160)
#define VW_OBSERVE_MAX_PX_GPU ((int64_t)7680 * 4320)
/* The largest image the viewer observes on this run's device. */
int64_t vw_observe_max_px(const ts_run *run);
/* Up to this many pixels a replay takes about a second or less (1024x1024 on a CPU device,
 * 3840x2160 on a GPU): the observation starts as soon as the run is shown, and each thread
 * the window focuses gets a replay of its own. Over it the worker starts a replay only once
 * the window has asked for nothing for VW_OBSERVE_IDLE_MS (a step asked for meanwhile waits
 * for the replay to end), and the window asks for a focused thread's exact elements only
 * where they are drawn (viewer.c). */
int64_t vw_observe_quick_px(const ts_run *run);
enum { VW_OBSERVE_IDLE_MS = 700 };
/* Whether the run is observed: the OpenCL back end, and at most vw_observe_max_px. */
int vw_observable(const ts_run *run);

/* What the observation flags in a thread, one bit each (the overlay's colours). */
enum { VW_OBS_FOOTPRINT = 1, /* read outside its declared footprint (or outside a buffer) */
       VW_OBS_WRITE = 2,     /* wrote outside its declared write rectangle (or a buffer) */
       VW_OBS_CONFLICT = 4,  /* wrote an element another thread wrote too */
       VW_OBS_HAZARD = 8,    /* read an element before its writer finished (observed) */
       VW_OBS_KINDS = 4 };

/* An observation of one run, made on the worker and handed to the window with a snapshot of
 * that run; read-only once made. */
typedef struct vw_obs {
  ts_observe *ob;                 /* NULL when the observation failed: error says why */
  ts_obs_report rep;
  uint8_t *flags[TS_MAX_PASSES];  /* per thread of each pass: VW_OBS_* */
  uint32_t flagged[VW_OBS_KINDS]; /* threads with each flag, all passes */
  int chosen_x, chosen_y;         /* the thread whose exact elements it holds, or -1 */
  double ms;                      /* how long the replay and its checks took */
  char error[1100];
} vw_obs;
/* Observes the run (worker_obs.c, on the worker: nothing else may touch the run meanwhile)
 * with thread (cx, cy) chosen, leaving it at its last tick; NULL without memory, else an
 * observation whose error says why it failed, if it did. */
vw_obs *vw_obs_make(ts_run *run, int cx, int cy);
void vw_obs_free(vw_obs *o);

/* What to run: changing any of it starts a new run. */
typedef struct vw_settings {
  int variant;        /* index in the registry */
  ts_pattern pattern;
  ts_walk walk;
  int slots, cost, ksize;
  double sigma;       /* <= 0: the default for ksize */
  int use_cl;
  int device;
  int exec_device;    /* each new run is also run by the device, with records */
  uint32_t adversary; /* the device runs' adversary seed (ts_run_params), 0 off */
} vw_settings;

/* What the worker publishes after each request. */
typedef struct vw_snapshot {
  uint64_t generation;  /* of the settings it was made for */
  int64_t tick;
  ts_run *run;          /* read-only here: schedule, hazards, geometry; its buffers only
                         * through vw_worker_take and vw_worker_read */
  ts_rect *rects;       /* the output pixels that changed: nrects rectangles (malloc'd) */
  int nrects;
  int full;             /* a new run, or all changed */
  uint32_t scale;       /* an integral image's sums are drawn as grey, 255 at this sum */
  /* With the first snapshot of a run that has a device result, the whole output that the
   * device view shows: the device's own, or for a loaded record (which holds no pixels) the
   * simulated output at the end. The output's values: W x C bytes, or W uint32 a row. */
  uint8_t *dev_raw;
  char error[1024];     /* a run that could not be made */
  char note[1200];      /* e.g. "no OpenCL platform; using the CPU model" */
  char advice[400];     /* the run's pattern advice in one line, or "" (worker.c) */
  int advice_warn;      /* 1: the pattern misses a vector */
  char *build_log;      /* the last failed kernel build, if any */
  double kernel_ms, copy_gbps;
  uint64_t dev_private[TS_MAX_PASSES], dev_local[TS_MAX_PASSES];
  int have_dev_mem, on_cl;
  char device[320];
  vw_obs *obs;          /* a new observation of this snapshot's run, or NULL */
} vw_snapshot;
void vw_snapshot_free(vw_snapshot *s);

typedef struct vw_worker vw_worker;

vw_worker *vw_worker_start(const char *kernels_dir);
/* Before the worker runs a user kernel, it runs it with `exe run` in a process of its own
 * (kernels_dir its --kernels, or NULL), once per version of the file, image and variant,
 * with a watchdog of timeout_s: one that crashes or hangs there is not run (worker.c). */
void vw_use_probe(const char *exe, const char *kernels_dir, double timeout_s);
/* Stops the thread and frees every run, `held` (the window's) included. */
void vw_worker_stop(vw_worker *w, ts_run *held);
/* Asks for a run of `set` on `input` (a new generation) and a tick; a new input generation
 * hands the worker a copy of the image. */
void vw_worker_request(vw_worker *w, uint64_t generation, const vw_settings *set,
                       ts_image *input, uint64_t input_generation, int64_t tick,
                       int reload);
/* Swaps in the newest snapshot if there is one; returns 1 when it did. The previous
 * snapshot's run, if different, is handed back to the worker to destroy. Then calls
 * rows(ud, snap), with the worker kept off the run, to read the rows that changed from the
 * run's output buffer (ts_run_kctx(snap->run)->buf[TS_BUF_OUT]); the worker starts on the
 * next request only after that. */
int vw_worker_take(vw_worker *w, vw_snapshot *snap, void (*rows)(void *ud, const vw_snapshot *s),
                   void *ud);
/* Calls fn(ud, the run's buffers) if run's buffers hold what the last snapshot taken says
 * (the worker is not making the next one), keeping the worker off them meanwhile; returns 0
 * without calling otherwise. Never waits for the worker's work. */
int vw_worker_read(vw_worker *w, const ts_run *run, void (*fn)(void *ud, const ts_kctx *k),
                   void *ud);
int vw_worker_busy(vw_worker *w);
/* Where the observation of the current run stands, for the progress line: none due (done,
 * or none to make), waiting for the window to stay idle (over vw_observe_quick_px), or
 * running for elapsed_ms, with expect_ms the time the last one on this worker would take at
 * this run's size (0: none to go by) and queued set when a request waits for it. */
enum { VW_OBSP_NONE, VW_OBSP_WAITING, VW_OBSP_RUNNING };
typedef struct vw_obs_progress {
  int state;
  double elapsed_ms, expect_ms;
  int queued;
} vw_obs_progress;
void vw_worker_obs_progress(vw_worker *w, vw_obs_progress *p);
/* Makes w take turns with `with` at the device (the split view's two workers): the work of
 * one waits for the other's. Before w's first request; `with` outlives w. */
void vw_worker_share_turns(vw_worker *w, vw_worker *with);
/* Hands the worker a loaded record (it takes it): every run made with settings equal to
 * `set` on input generation `input_generation` gets a copy attached. */
void vw_worker_set_record(vw_worker *w, ts_dev_run *rec, const vw_settings *set,
                          uint64_t input_generation);
/* The thread the window wants observed exactly (its tile coordinates, the same in every
 * pass; -1, -1: none). The worker observes the current run again when it has nothing else
 * to do and the last observation was made for another thread. */
void vw_worker_observe(vw_worker *w, int x, int y);

#endif
