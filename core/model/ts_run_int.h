/* Inside the executor (internal to core/model/): a run's state, and the helpers that the
 * replay (ts_run.c) and the device-scheduled run (ts_run_device.c) share. ts_run.c defines
 * them; ts_run_device.c only calls them. */
#ifndef TS_RUN_INT_H
#define TS_RUN_INT_H

#include "ts_run.h"

struct ts_run {
  ts_run_params params;
  ts_kctx k;
  ts_image *in_img;   /* what buf[TS_BUF_IN] points into: the caller's image, or our luma */
  int late[TS_MAX_PASSES]; /* the pass runs at its end ticks, straight into its buffer */
  ts_sched *sched;
  ts_hazard *hazards;
  size_t nhazards, nhazardous;
  ts_hazard *races;   /* reads the scoreboard does not order (SPEC section 8) */
  size_t nraces;
  uint32_t *stamp, *queue, stamp_now; /* ordered_by_waits's scratch, by thread id */
  ts_cl_run *cl;      /* device state, when the back end is OpenCL */
  uint32_t pos;      /* next thread (in start_seq) to run */
  uint32_t cpos;     /* next thread (in start_seq) to commit */
  int64_t tick;
  double exec_ms;
  ts_dev_run *dev;    /* the last device-scheduled run, or a loaded record */
  ts_image *ref;      /* the filter reference, once made (ts_run_reference) */
  uint32_t *ref32;
  int released;       /* ts_run_release_buffers: only the schedule and figures are left */
  int dev_in_bufs;    /* the buffers hold the device's output: the next seek starts over */
  /* Rows changed since the last download (per buffer) and since the viewer last asked. */
  int dl_lo[TS_NBUF], dl_hi[TS_NBUF];
  /* OUT's changed elements since the viewer last asked: their bounding rectangle and up to
   * TS_VIEW_RECTS rectangles (nview > TS_VIEW_RECTS: too many, the bound holds them). */
  int view_x0, view_y0, view_x1, view_y1;
  ts_rect view[TS_VIEW_RECTS];
  int nview;
};

/* The most producers one thread reads (tsrun_producers). */
#define TSRUN_MAX_PRODUCERS 32
int tsrun_producers(const ts_run *run, int pi, uint32_t id, uint32_t *out);
void tsrun_thread_xy(const ts_pass_sched *ps, uint32_t id, int *tx, int *ty);
double tsrun_now_ms(void);
ts_status tsrun_reset(ts_run *run, ts_error *err);
void tsrun_mark_all(ts_run *run);
ts_status tsrun_download(ts_run *run, ts_error *err);

#endif
