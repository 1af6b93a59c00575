/* The interactive viewer: state, worker, input, layout (each group of functions below names
 * its file). The model (the run) lives on a worker thread: the window asks for (settings,
 * tick) and picks up the worker's latest snapshot once per frame, so a kernel run or a large
 * image never blocks drawing. The same code draws the
 * window and `tilescope shot`'s headless screenshots. A run may carry a device result (the
 * schedule run by the device, or a saved record): the device view shows it beside the
 * simulated one, scrubbed in device time on the window's side alone. Calls between the
 * files go one way: viewer.c -> viewer_input.c -> viewer_shot.c -> draw_frame.c -> the other
 * draw_*.c (draw.h) -> gl_resources.c (gl_res.h) -> phase.c; the viewer's files call
 * viewer_control.c; every one of them calls view_state.c, which calls none of them. The split
 * view (viewer_split.c, called by viewer.c, viewer_input.c and script.c; drawn by
 * draw_split.c) is a second viewer beside the first, in the same window. */
#ifndef TS_APP_VIEWER_H
#define TS_APP_VIEWER_H

#include <SDL2/SDL.h>
#include <stdint.h>

#include "gfx.h"
#include "split_spec.h"
#include "ts_observe.h"
#include "ts_run.h"

/* In the device view depth and slot are their device counterparts: time spent waiting, and
 * compute unit (or logical lane). OV_OBSERVED colours the threads the observation flags. */
typedef enum { OV_NONE, OV_STATE, OV_ORDER, OV_DEPTH, OV_SLOT, OV_OBSERVED, OV_COUNT } overlay_mode;

/* The viewer observes every run on the OpenCL back end (ts_observe_run, on the worker) for
 * images of up to this many pixels, one megapixel (1024x1024): at that size an observed
 * replay takes about a second on a CPU device, and its per-element records (last and other
 * writer of each output element, the chosen thread's bitmaps) some 40 MB. */
#define VW_OBSERVE_MAX_PX (1024 * 1024)
/* On a GPU, 4K: the records take some 330 MB there (docs/performance.md has the time). */
#define VW_OBSERVE_MAX_PX_GPU ((int64_t)3840 * 2160)
/* The largest image the viewer observes on this run's device. */
int64_t vw_observe_max_px(const ts_run *run);

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
  char error[1100];
} vw_obs;
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

typedef struct vw_worker vw_worker;

/* An image texture (the input, the output, the device's output): its storage is made once
 * per size and channel count with room for its mipmaps, which are made when it is drawn
 * minified after a change. */
typedef struct vw_tex {
  GLuint id;
  int w, h, c, levels;
  /* Where level 0 changed since the mipmaps were made: all of it, or the cells (squares of
   * `cell` texels, cells_w a row) marked in `dirty`, ndirty of them (gl_resources.c). */
  int all_dirty, cell, cells_w, cells_h, ndirty;
  uint8_t *dirty;
  uint32_t serial;      /* counts the changes of its texels */
} vw_tex;

/* What an image pane is drawn with, the hover aside (draw_panes.c): the panes are kept drawn in
 * the frame cache until it changes. */
typedef struct vw_pane_key {
  int drawn;
  float screen[2], image[2], origin[2], zoom, clip[4];
  int overlay, tile_grid, device, mask, transposed;
  float space[2], tile[2], norm[3];
  int image_index;
  GLuint image_tex;
  uint32_t image_serial, thr_serial;
  float quad[4];        /* x0, y0, x1, y1; empty: nothing to draw */
} vw_pane_key;

/* What the cached background of the panel and timeline is drawn from. */
typedef struct vw_ui_key {
  int w, h, device;
  uint64_t run;         /* run_ident of the run shown */
} vw_ui_key;

/* Where a frame's time goes, for --bench-frames (viewer_phase). */
enum { PH_PICKUP,  /* events, the worker's snapshot and the output rows it changed */
       PH_UPLOAD,  /* the input's and the device output's textures, the threads' texture */
       PH_MIPS,    /* mipmaps of changed images drawn minified */
       PH_PANES,   /* the two image panes */
       PH_BATCH,   /* the panel, timeline, labels and text, built on the CPU */
       PH_UI,      /* that batch drawn */
       PH_SHOW,    /* the frame to the window */
       PH_WAIT,    /* a step: asking the worker for the tick, until its snapshot is taken
                    * (wall time) */
       PH_ROWS,    /* of pick-up or wait: the changed output rows into the texture */
       PH_COUNT };

typedef struct viewer {
  SDL_Window *win;
  SDL_GLContext gl;
  int offscreen, width, height;
  gfx g;
  GLuint fbo, fbo_tex, thr_tex, gantt_tex;
  vw_tex img[3];        /* the input, the output, the device's output */
  uint32_t thr_serial;  /* counts the uploads of thr_tex */
  /* The frame cache: the parts of a frame that change seldom, drawn into a texture of the
   * window's size and copied into each frame: the panes without the hover, the panel's
   * background and the timeline's graph. Redrawn when their keys change. */
  GLuint cache_fbo, cache_tex;
  int cache_w, cache_h;
  vw_pane_key pane_keys[2];
  vw_ui_key ui_key;
  int cache_ui_ok;
  uint64_t run_ident;   /* counts the runs shown: a run's identity (addresses are reused) */

  /* model */
  ts_image *input;
  char input_name[512];
  char kernels_dir[1024];
  vw_settings set;
  uint64_t generation, input_generation;
  vw_worker *wk;
  vw_snapshot snap;     /* the latest picked-up snapshot (owned) */
  int have_snap;
  uint64_t snap_serial, in_uploaded;
  /* The output texture holds out_run's output as the snapshots left it, updated row range by
   * row range from the run's buffer when a snapshot is taken; the window keeps no copy. */
  ts_run *out_run;
  int rows_taken;       /* pick_up: the snapshot's rows were read */
  /* Output values read from the run for drawing (pixel values, the inspector): the
   * rectangle [vals_x0, +vals_w) x [vals_y0, +vals_h) of vals_run at vals_tick, vals_px
   * bytes a pixel; want_*: the rectangle asked for last, read again with each snapshot. */
  const ts_run *vals_run;
  int64_t vals_tick;
  int vals_x0, vals_y0, vals_w, vals_h, vals_px;
  uint8_t *vals;
  size_t vals_cap;
  int want_x0, want_y0, want_x1, want_y1;
  ts_run *stats_run;    /* the run the traffic figures below are for */
  double bytes_read, bytes_written;
  int64_t tick;         /* the tick asked for */
  int64_t kernels_mtime;      /* the newest of the kernel files' (ns) */
  uint32_t last_poll_ms;
  char status[1200];    /* a transient message at the bottom */
  /* an image being loaded on its own thread (a dropped file) */
  SDL_Thread *loader;
  SDL_mutex *load_mu;
  ts_image *loaded;
  int load_done;
  char loaded_path[1024], load_error[1024];
  int load_pending;     /* a load started and not picked up yet (the window's side) */
  uint32_t status_until;
  /* The observation of the run shown (always of snap.run: dropped when the run changes), and
   * the thread the window asked the worker to observe exactly (the focused one, once it has
   * stayed focused a moment). */
  vw_obs *obs;
  uint64_t obs_serial;  /* counts the observations picked up: the thread texture's key */
  int obs_sent_x, obs_sent_y, obs_want_x, obs_want_y;
  uint32_t obs_want_since;

  /* view */
  float zoom, cx, cy;   /* screen px per image px; image point at the panes' centre */
  int fitted;           /* the zoom is fit's: refit when the layout changes */
  overlay_mode mode;
  int tile_grid, help, playing, speed_index;
  double play_accum;
  int hover_pane;       /* 0 input, 1 output, 2 the split view's right half, -1 none */
  float hover_x, hover_y; /* image coordinates */
  int sel_pass;         /* selected thread (click), or -1 */
  uint32_t sel_id;
  int sel_side;         /* the split view's half clicked last: 2 the right, else the left */
  float panel_bottom;   /* panel_line draws nothing below this (0: no limit): the inspector
                         * stops above the legend */
  int dragging, scrubbing;
  float drag_x, drag_y;
  int quit;
  int shot_counter;
  uint32_t drawn_ms;    /* the window's last frame (SDL ticks), and whether it showed the */
  int status_drawn;     /* status line */
  /* --bench-frames: each phase waits for GL (glFinish) and adds its time to phase_ms: wall
   * time (profile 1) or this thread's CPU time (2). */
  int profile;
  double phase_ms[PH_COUNT], phase_t;
  /* Offscreen shots leave out figures that change from run to run (measured kernel time and
   * bandwidth, and the device's memory report, which only a run's first snapshot carries)
   * unless this is set (shot --show-times); the window always shows them. */
  int show_times;
  /* An animation being recorded (shot -o OUT.gif with a script): each pause adds a frame. */
  struct anim *anim;
  int anim_failed;
  /* the threads' textures of the pass shown (gl_resources.c: gl_update_threads): their state bytes,
   * what they were made for, and the overlay's ramps' ends */
  GLuint state_tex;
  uint8_t *thr_state;
  size_t thr_cap;
  float thr_norm[3];
  int thr_pass;
  int64_t thr_tick;
  ts_run *thr_run;
  uint64_t thr_obs;     /* obs_serial the texels were made with */

  /* A plain kernel (--kernel-file K.cl, plain_view.h): the viewer shows its observed run, its
   * work-groups as the overlay, instead of a variant's run; NULL otherwise. */
  struct plain_view *plain;
  uint64_t plain_uploaded; /* its serial the output texture holds (0: none) */

  /* the device view */
  int devview;          /* asked for: shown whenever the run has a device result */
  int devview_laid;     /* the view the layout was last fitted for */
  int64_t dev_time;     /* device time shown, in the record's unit; -1: the end */
  double dev_pct;       /* a time asked for as a share of the run, resolved on arrival; -1 */
  char record_name[256]; /* a loaded record's file name, or "" */
  ts_run *dev_run;      /* the run dev_raw and the caches below are for */
  uint8_t *dev_raw;
  uint32_t dev_scale;
  int dev_uploaded;
  uint64_t dev_pass_end[TS_MAX_PASSES];
  /* groups not started, waiting, running, done at dev_time, and look-back groups with their
   * aggregate out (VW_DEV_PUBLISHED) */
  uint32_t dev_counts[5];
  ts_run *dev_path_run; /* the run dev_path is for: its critical path, as the panel says it */
  char dev_path[160];
  int thr_dev;
  int64_t thr_dev_time;
  uint32_t *dev_rank;   /* observed start order of the shown pass, by thread id */
  size_t dev_rank_cap;
  ts_run *rank_run;
  int rank_pass;
  ts_run *gantt_run;    /* the timeline's lanes as a texture, and groups in flight per column */
  int gantt_w, gantt_h;
  float *gantt_flight;  /* 2 x gantt_w: mean groups running, and waiting, per column */
  float gantt_peak;

  /* The split view (viewer_split.c): the right half's run is a viewer of its own (its worker,
   * snapshot, textures) that shares this one's window, image, view and cursor and is drawn
   * through the same functions; NULL without a split. This viewer is then the left half, and
   * always the simulation (viewer_dev says NULL). */
  struct viewer *twin;
  vw_split_spec split;     /* what the right half changes; split.text "" when none was given */
  int split_side;          /* 0: no split; 1: the left half; 2: the right half (the twin) */
  uint64_t twin_gen;       /* the left's generation the twin last followed */
  char record_path[1024];  /* a loaded record's path, read again for a split's device half */
} viewer;

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
  const char *record_path;   /* the record's path (the split view's device half reads it) */
  int have_split;            /* --split: open the split view with this right half */
  vw_split_spec split;
} vw_options;

/* viewer.c: the window, the frame loop and the worker's snapshots. */
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

/* viewer_input.c: keys and the mouse. */
void viewer_key(viewer *v, SDL_Keycode key, int shift);
void viewer_mouse_move(viewer *v, float sx, float sy);
void viewer_click(viewer *v, float sx, float sy);
/* One SDL event: keys, the mouse, a dropped file, the window's size. */
void viewer_handle_event(viewer *v, const SDL_Event *e);

/* viewer_control.c: what changes the state: settings, tick and device time, the image, the
 * zoom's fit, the status line, the output values read for drawing. */
void viewer_apply(viewer *v);       /* after changing v->set: start a new run */
/* Asks the worker for the current settings and tick (reload: build the kernels again). */
void viewer_request(viewer *v, int reload);
void viewer_set_tick(viewer *v, int64_t t);
void viewer_set_dev_time(viewer *v, int64_t t);
/* Fits the image to the panes. */
void viewer_fit(viewer *v);
/* The device view has its own layout: refit when it comes or goes, unless the user zoomed. */
void viewer_relayout(viewer *v);
/* A transient message at the bottom. */
void viewer_set_status(viewer *v, const char *msg);
int viewer_load_image(viewer *v, const char *path);
/* Opens an image as a dropped file does: decoded on a thread of its own, picked up by a later
 * frame; one that fails to load leaves the current image and says why in the status line. */
void viewer_open(viewer *v, const char *path);
/* Picks up an image the loader thread finished: returns 1 when it opened one or said why it
 * could not. */
int viewer_pick_up_image(viewer *v);
/* Asks that the output values of [x0, x1) x [y0, y1) be at hand for viewer_out_px: read from
 * the worker's run now if it allows (it does whenever it is not making the next tick), and
 * again with each snapshot taken. */
void viewer_want_values(viewer *v, int x0, int y0, int x1, int y1);
/* Copies the wanted rectangle of the run's output (ud: the viewer; the worker keeps off it
 * meanwhile): vw_worker_read's callback, and vw_worker_take's through viewer.c. */
void viewer_read_values(void *ud, const ts_kctx *k);

/* viewer_shot.c: drawing a frame, and taking it as a screenshot or an animation's frame. */
/* Asks for the output values the frame shows (viewer_want_values), then draws it. */
void viewer_draw(viewer *v);
/* Renders the current view and writes it as a PNG. With a set, the PNG waits as a
 * temporary file in it, renamed into place with the set (ts_outset_commit); NULL writes it
 * now. On failure says why and returns 0. */
struct ts_outset;
int viewer_screenshot(viewer *v, const char *path, struct ts_outset *set);
/* Renders the current view as the next frame of an; on failure says why, sets
 * anim_failed and returns 0. */
int viewer_anim_frame(viewer *v, struct anim *an, int delay_cs);

/* viewer_split.c: the split view, two runs of the same image side by side on one cursor. */
/* Opens the split view with `sp` as its right half (replacing one that is open); returns 0
 * with the reason in the status line when it cannot (a device half without a record or the
 * OpenCL back end, a plain kernel). */
int viewer_split_start(viewer *v, const vw_split_spec *sp);
void viewer_split_stop(viewer *v);
/* The x key: closes the split, or opens it again with the last right half (without one: the
 * device's run beside the simulation when there is one, else the next pattern). */
void viewer_split_toggle(viewer *v);
/* Once per frame and before a sync: the twin follows the left's settings (with its changes),
 * view and cursor, and is asked for a new run or tick when they changed. */
void viewer_split_follow(viewer *v);
/* The right half's settings: the left's, changed as sp says. */
void viewer_split_settings(const vw_split_spec *sp, const vw_settings *left, vw_settings *right);

/* phase.c */
/* With v->profile: waits for GL and adds the time since the last call to phase_ms[ph]
 * (ph -1: only starts the clock). */
void viewer_phase(viewer *v, int ph);
/* The clock viewer_phase uses, in ms. */
double viewer_phase_clock(const viewer *v);

/* view_state.c: what the drawing and the input read of the state and the layout; these
 * change nothing. */
/* The play speeds, ticks a second. */
enum { VW_NSPEEDS = 10 };
extern const int vw_speeds[VW_NSPEEDS];
/* Layout */
typedef struct vw_rect {
  float x, y, w, h;
} vw_rect;
void viewer_layout(const viewer *v, vw_rect *pane_in, vw_rect *pane_out, vw_rect *panel,
                   vw_rect *timeline);

/* Screen position of image point (x, y) in pane p. */
void viewer_image_to_screen(const viewer *v, int pane, float x, float y, float *sx, float *sy);
/* Screen rectangle of an image rectangle in a pane. */
void viewer_rect_to_screen(const viewer *v, int pane, ts_rect r, float *x, float *y, float *w,
                           float *h);
/* A one-line state report, as scripts print and check it. */
void viewer_report(const viewer *v, char *buf, size_t n);
/* The device result shown: the run's, when the device view is on and there is one; else NULL. */
const ts_dev_run *viewer_dev(const viewer *v);
/* The device time shown, clamped to the run. */
uint64_t viewer_dev_time(const viewer *v);
/* A work-group's state at device time t: the same four states as a simulated thread, and for
 * a pass that looks back (d->pass[p].lookback) VW_DEV_PUBLISHED between the publication of
 * its aggregate and its end: its successors read its sums, it has not finished. Before
 * that it runs (it waits for nothing before its aggregate). */
enum { VW_DEV_PUBLISHED = 4 };
int viewer_dev_state(const ts_dev_run *d, int p, const ts_grec *g, uint64_t t);
/* The record of thread `id` of pass p: tickets are dispatch indices. */
const ts_grec *viewer_dev_rec(const viewer *v, const ts_dev_run *d, int p, uint32_t id);
/* Whether the device named its compute units (else the lanes are logical). */
int viewer_dev_has_units(const ts_dev_run *d);
/* The output values of pixel (x, y) as the window shows them (the device's in the device
 * view): C bytes, or one uint32 for the integral image; NULL when they are not at hand (not
 * asked for, or not readable yet: they come with the worker's next snapshot). */
const uint8_t *viewer_out_px(const viewer *v, int x, int y);
/* Bytes of one output pixel's values in the run's buffer. */
int viewer_out_px_bytes(const ts_kctx *k);
/* Whether the values read for drawing cover [x0, x1) x [y0, y1) of the run and tick shown. */
int viewer_vals_cover(const viewer *v, int x0, int y0, int x1, int y1);
/* The schedule of the run shown, or NULL. */
const ts_sched *viewer_sched(const viewer *v);
/* The length of the run shown in ticks, 0 without one. */
int64_t viewer_run_length(const viewer *v);
/* How far the tick may go: the run's length, in the split view the longer of the two runs'
 * (INT64_MAX / 4 while the right half's is not known yet). */
int64_t viewer_cursor_length(const viewer *v);
/* Whether the twin's latest snapshot is of the run and tick it was asked for. */
int viewer_snap_current(const viewer *v);
/* A thread's tile in image pixels. */
ts_rect viewer_tile_of(const viewer *v, int pass, int tx, int ty);
/* Thread under image point (x, y) of the pass shown; returns 0 outside the space. */
int viewer_thread_at(const viewer *v, float x, float y, int *pass, uint32_t *id);
/* The thread the inspector describes: the hovered one, else the selected one. */
int viewer_focus_thread(const viewer *v, int *pass, uint32_t *id);
/* Whether the inspector describes the split view's right half (the twin's run): while the
 * pointer is on it, or, off the panes, when the last click was there. */
int viewer_inspects_right(const viewer *v);
/* The hovered thread's tile (x, y in its thread space), to highlight; 0 when none. */
int viewer_hover_tile(const viewer *v, float *xy);
/* The observation of the run shown, or NULL (none yet, the CPU model, an image over
 * VW_OBSERVE_MAX_PX, the device view, or a failed observation). */
const vw_obs *viewer_obs(const viewer *v);
/* The thread that last wrote output pixel (x, y) of the pass shown, as observed: 1 and the
 * thread, 0 when no thread wrote it, -1 when there is no observation to ask (or the pass
 * writes an intermediate). */
int viewer_observed_writer(const viewer *v, float x, float y, int *pass, uint32_t *id);
/* Why there is no observation to show, for the panel; "" when there is one. */
void viewer_obs_why_not(const viewer *v, char *buf, size_t n);
int viewer_pass_at_tick(const ts_sched *s, int64_t tick);
/* The pass shown: at the snapshot's tick, or in the device view at the device time. */
int viewer_shown_pass(const viewer *v);
/* The mode's name; in the device view depth and slot are "wait" and "unit". */
const char *overlay_name(overlay_mode m, int device);
int overlay_parse(const char *s, overlay_mode *m);

/* framebench.c: --bench-frames N; created_ms is when the viewer was created (CLOCK_MONOTONIC,
 * ms); the steps go from tick `from` (--tick, else 0). Prints the figures; returns 0 on a
 * failure, after one error line. */
int bench_frames(viewer *v, int n, double created_ms, int64_t from);

/* worker.c */
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
/* Makes w take turns with `with` at the device (the split view's two workers): the work of
 * one waits for the other's. Before w's first request; `with` outlives w. */
void vw_worker_share_turns(vw_worker *w, vw_worker *with);
/* Hands the worker a loaded record (it takes it): every run made with settings equal to
 * `set` on input generation `input_generation` gets a copy attached. */
void vw_worker_set_record(vw_worker *w, ts_dev_run *rec, const vw_settings *set,
                          uint64_t input_generation);
void vw_snapshot_free(vw_snapshot *s);
/* The thread the window wants observed exactly (its tile coordinates, the same in every
 * pass; -1, -1: none). The worker observes the current run again when it has nothing else
 * to do and the last observation was made for another thread. */
void vw_worker_observe(vw_worker *w, int x, int y);

/* script.c: runs a script; returns the number of failed expectations, -1 on a bad script. */
int script_run(viewer *v, const char *path);

#endif
