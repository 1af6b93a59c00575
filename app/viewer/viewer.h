/* The interactive viewer (viewer.c): opening it on a set of options, its frame loop, and
 * waiting for the run asked for. The same code draws the window and `tilescope shot`'s
 * headless screenshots. The model (the run) lives on a worker thread (worker.h): the window
 * asks for (settings, tick) and picks up the worker's latest snapshot once per frame, so a
 * kernel run or a large image never blocks drawing. A run may carry a device result (the
 * schedule run by the device, or a saved record): the device view shows it beside the
 * simulated one, scrubbed in device time on the window's side alone.
 * The viewer's files call one way, each through the header of the file it calls:
 * framebench.c -> viewer.c -> viewer_input.c -> viewer_shot.c, viewer_split.c,
 * viewer_source.c (a plain kernel's source pane and its selection) ->
 * viewer_control.c, scene_make.c -> view_state.c (the state itself: view_state.h), and
 * viewer_report.c (the state line scripts check) -> scene_make.c. viewer_shot.c hands each
 * frame's scene to the drawing (draw/), which never sees the viewer. */
#ifndef TS_APP_VIEWER_H
#define TS_APP_VIEWER_H

#include "view_state.h"

typedef struct vw_options {
  const char *input;         /* NULL: the default chart */
  vw_settings set;
  const char *kernels_dir;
  int width, height;
  int offscreen;             /* no window: SDL's offscreen driver */
  overlay_mode mode;
  int64_t tick;              /* -1: the end */
  int help;
  int hover;                 /* hover at (hover_x, hover_y) on the output */
  float hover_x, hover_y;
  float zoom;                /* 0: fit */
  float cx, cy;
  ts_dev_run *record;        /* a loaded record (the viewer takes it), or NULL */
  const char *record_name;
  int devview;               /* start in the device view */
  int64_t dev_time;          /* -1: the end */
  double dev_pct;            /* a share of the run instead, or -1 */
  const char *plain_file;    /* a plain kernel to show instead of a variant, or NULL */
  const char *plain_launch;  /* its launch file, or NULL */
  int watch_x, watch_y;      /* its output pixel watched from the start (a click), or -1 */
  int source;                /* its source pane shown (--source) */
  int select_finding;        /* its finding N (from 1) selected once the run is in; 0 none */
  const char *record_path;   /* the record's path (the split view's device half reads it) */
  int have_split;            /* --split: open the split view with this right half */
  vw_split_spec split;
} vw_options;

/* Opens the window (or an offscreen one); prints one line and returns NULL on failure. Takes
 * o->record in either case. */
viewer *viewer_create(const vw_options *o);
void viewer_destroy(viewer *v);
/* One frame: events (unless `scripted`), playback, snapshot pickup, drawing. */
void viewer_frame(viewer *v, int scripted);
/* Waits (drawing) until the snapshot matches what was asked; returns 0 on timeout. */
int viewer_sync(viewer *v, uint32_t timeout_ms);
/* Looks at the kernel files the window builds (the kernels folder, the user kernels, a plain
 * kernel and its launch file) and, when one changed, rebuilds and runs again as `r` does
 * (the last good build keeps running when the new one fails). 1 when it did. The window
 * calls it twice a second; a script's `copy` right after its copy. */
int viewer_poll_files(viewer *v);

#endif
