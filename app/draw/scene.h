/* What one frame draws: the scene. The viewer turns its state into one at the frame's start
 * (viewer/scene_make.c: the layout, the run and tick shown, the pass, the hovered, clicked
 * and focused threads, the device view's values, the output values at hand), and the
 * drawing reads it and nothing else of the viewer, as tev's canvas is told what to show and
 * asks nothing back. A scene points into the viewer's state: it holds for the frame it was
 * made for. Below it, the queries both sides ask of a scene or of a run's data (scene.c):
 * where an image point lies on screen, a thread's tile, an output pixel's values, a device
 * group's record and state, the overlay's names. */
#ifndef TS_APP_SCENE_H
#define TS_APP_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "plain_view.h"
#include "worker.h"

typedef struct vw_rect {
  float x, y, w, h;
} vw_rect;

/* In the device view depth and slot are their device counterparts: time spent waiting, and
 * compute unit (or logical lane). OV_OBSERVED colours the threads the observation flags. */
typedef enum { OV_NONE, OV_STATE, OV_ORDER, OV_DEPTH, OV_SLOT, OV_OBSERVED, OV_COUNT } overlay_mode;
/* The mode's name; in the device view depth and slot are "wait" and "unit". */
const char *overlay_name(overlay_mode m, int device);
int overlay_parse(const char *s, overlay_mode *m);

/* A work-group's state at device time t: the same four states as a simulated thread, and for
 * a pass that looks back (d->pass[p].lookback) VW_DEV_PUBLISHED between the publication of
 * its aggregate and its end: its successors read its sums, it has not finished. Before
 * that it runs (it waits for nothing before its aggregate). */
enum { VW_DEV_PUBLISHED = 4 };
int vw_dev_state(const ts_dev_run *d, int p, const ts_grec *g, uint64_t t);
/* Whether the device named its compute units (else the lanes are logical). */
int vw_dev_has_units(const ts_dev_run *d);
/* A thread's tile in image pixels. */
ts_rect vw_tile_of(const ts_run *run, int pass, int tx, int ty);
/* Bytes of one output pixel's values in the run's buffer. */
int vw_out_px_bytes(const ts_kctx *k);
/* The thread of pass p that last wrote output pixel (x, y), as observed: 1 and the thread, 0
 * when no thread wrote it, -1 when there is no observation to ask (o NULL, or the pass
 * writes an intermediate). */
int vw_observed_writer(const vw_obs *o, const ts_run *run, int p, float x, float y, int *pass,
                       uint32_t *id);

typedef struct vw_scene {
  /* The window. live: the figures that change from run to run are drawn (measured kernel
   * time and bandwidth, the device's name and memory report): always in the window, in a
   * shot only with --show-times. */
  int width, height, offscreen, live, help;
  /* The layout: the input and output panes (in the split view each half's output pane,
   * standing for its input pane too), the side panel, the timeline; image point (cx, cy)
   * lies at each pane's centre, zoom screen pixels per image pixel. */
  vw_rect pane[2], panel, timeline;
  float zoom, cx, cy;
  const ts_image *input;      /* NULL while there is none */
  const char *input_name;
  uint64_t input_generation;
  /* The run shown: the latest snapshot (zeroed before the first one, have_snap 0). */
  const vw_snapshot *snap;
  int have_snap;
  const ts_run *run;          /* the snapshot's run, or NULL */
  const ts_sched *sched;      /* its schedule, or NULL */
  uint64_t run_ident;         /* counts the runs shown: a run's identity (addresses are reused) */
  int have_out;               /* the output texture holds a run's output (its rows were read) */
  const ts_variant *variant;  /* the one asked for (the run shown may be of the one before) */
  int pass;                   /* shown: at the snapshot's tick, or at the device time */
  overlay_mode mode;
  int tile_grid;
  /* The pointer, the clicked thread (sel_pass -1: none), the hovered thread of the pass
   * shown (hover: there is one, of pass hover_pass; hover_tile its x, y in the thread space)
   * and the focused one, which the inspector describes (hovered, else clicked). */
  int hover_pane;             /* 0 input, 1 output, 2 the split view's right half, -1 none */
  float hover_x, hover_y;     /* image coordinates */
  int hover, hover_pass;
  float hover_tile[2];
  int sel_pass;
  uint32_t sel_id;
  int focus, focus_pass;
  uint32_t focus_id;
  /* The observation of the run shown, or NULL (none yet, the CPU model, a large image, the
   * device view, a failed one: obs_error says why, or ""). */
  const vw_obs *obs;
  uint64_t obs_serial;        /* counts the observations taken: the threads' texture's key */
  const char *obs_error;
  /* The device view: the device's run shown (NULL in the simulated view), its time, the end
   * of each pass, the groups not started, waiting, running, done and published
   * (VW_DEV_PUBLISHED) at that time, its critical path as a line; dev_available: the run
   * has a device result, d would show it; a loaded record's file name, or "". */
  const ts_dev_run *dev;
  uint64_t dev_time;
  const uint64_t *dev_pass_end;
  uint32_t dev_counts[5];
  const char *dev_path;
  int dev_available;
  const char *record_name;
  /* The device's output (whether shown or not): dev_out_run's W x H values, a new one at
   * each new dev_out_serial; dev_out_scale as vw_snapshot.scale. */
  const uint8_t *dev_out;
  const ts_run *dev_out_run;
  uint32_t dev_out_scale;
  uint64_t dev_out_serial;
  /* The output values at hand (scene_out_px): [vals_x0, +vals_w) x [vals_y0, +vals_h) of the
   * run shown at its tick, vals_px bytes a pixel; vals NULL when none are. */
  const uint8_t *vals;
  int vals_x0, vals_y0, vals_w, vals_h, vals_px;
  /* Bytes every thread of the run reads (its clipped footprint) and writes, all passes. */
  double bytes_read, bytes_written;
  /* The timeline's: the status line while it shows (else NULL), playback, its speed in
   * ticks a second. */
  const char *status;
  /* An observation under way, in a line for the panel and the status line ("" none): the
   * built-in run's replay (its time so far and the last one's at this size, whether a step
   * waits for it) or the plain kernel's attempt (reading the file, or running it observed);
   * its times only where the scene is live. */
  char progress[200];
  int playing, speed;
  /* A plain kernel's view instead of a variant's run, or NULL; the tick of its pass shown,
   * 0..plain_view_ticks (the viewer's tick, clamped). */
  const plain_view *plain;
  uint32_t plain_tick;
  /* Its source pane (draw_source.c): where (w 0: not shown, the input pane then has its
   * place), the finding selected (-1 none: scene_finding checks it against the result), the
   * source line selected (0 none), the first line shown (0: where the selection puts it). */
  vw_rect source;
  int src_finding, src_line, src_top;
  /* The split view: which half this is (0: no split, 1 the left, 2 the right), the right
   * half's scene (of the left's only), the spec as given and whether it is the device's
   * run, what tells this half from the other (the settings the spec changes), whether this
   * half's snapshot is of what it asked for, and whether the inspector describes the right
   * half (the pointer is on it, or off the panes the last click was). */
  int split_side;
  const struct vw_scene *twin;
  const char *split_text;
  int split_device;
  char label[96];
  int snap_current;
  int inspects_right;
} vw_scene;

/* Screen position of image point (x, y) in pane `pane` (0 input, else output). */
void scene_to_screen(const vw_scene *s, int pane, float x, float y, float *sx, float *sy);
/* Screen rectangle of an image rectangle in a pane. */
void scene_rect_to_screen(const vw_scene *s, int pane, ts_rect r, float *x, float *y, float *w,
                          float *h);
/* The output values of pixel (x, y) as the window shows them (the device's in the device
 * view): C bytes, or one uint32 for the integral image; NULL when they are not at hand (not
 * asked for, or not readable yet: they come with the worker's next snapshot). */
const uint8_t *scene_out_px(const vw_scene *s, int x, int y);
/* The device's record of thread `id` of pass p (tickets are dispatch indices). */
const ts_grec *scene_dev_rec(const vw_scene *s, int p, uint32_t id);
/* A plain kernel's selected finding, or NULL (none, or not of the result shown). */
const ts_plain_finding *scene_finding(const vw_scene *s);
/* Why there is no observation to show, for the panel; "" when there is one. */
void scene_obs_why_not(const vw_scene *s, char *buf, size_t n);

#endif
