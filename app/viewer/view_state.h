/* The viewer's state: one struct, the window's whole state (what it was asked for, the
 * worker's latest snapshot, the view, the pointer), which every file of the viewer changes
 * through its own functions, and the queries that read it (view_state.c): the layout, the
 * device run and time shown, the pass shown, the thread under a point or in focus. A frame
 * turns it into a scene (scene_make.h) for the drawing, which never sees it. The split view's
 * right half (viewer_split.c) is a second viewer beside the first, in the same window. */
#ifndef TS_APP_VIEW_STATE_H
#define TS_APP_VIEW_STATE_H

#include <SDL2/SDL.h>
#include <stdint.h>

#include "scene.h"
#include "split_spec.h"

/* The play speeds, ticks a second. */
enum { VW_NSPEEDS = 10 };
extern const int vw_speeds[VW_NSPEEDS];

typedef struct viewer {
  SDL_Window *win;
  SDL_GLContext glctx;
  int offscreen, width, height;
  /* The drawing's state (gl_resources.h): the window's, which the split view's right half
   * shares (its run's textures are gl->run[1]); made and freed by the window's viewer. */
  struct vw_gl *gl;
  uint64_t run_ident;   /* counts the runs shown: a run's identity (addresses are reused) */

  /* model */
  ts_image *input;
  char input_name[1024];
  char kernels_dir[1024];
  vw_settings set;
  uint64_t generation, input_generation;
  vw_worker *wk;
  vw_snapshot snap;     /* the latest picked-up snapshot (owned) */
  int have_snap;
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
  ts_run *stats_run;    /* the run the traffic figures below are for (scene_make.c) */
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
  int dragging, scrubbing;
  float drag_x, drag_y;
  int quit;
  int shot_counter;
  uint32_t drawn_ms;    /* the window's last frame (SDL ticks), and whether it showed the */
  int status_drawn;     /* status line */
  /* Offscreen shots leave out figures that change from run to run (measured kernel time and
   * bandwidth, and the device's memory report, which only a run's first snapshot carries)
   * unless this is set (shot --show-times); the window always shows them. */
  int show_times;
  /* An animation being recorded (shot -o OUT.gif with a script): each pause adds a frame. */
  struct anim *anim;
  int anim_failed;

  /* A plain kernel (--kernel-file K.cl, plain_view.h): the viewer shows its observed run, its
   * work-groups as the overlay, instead of a variant's run; NULL otherwise. */
  struct plain_view *plain;
  /* Its split view (--split order=ORDER): the same kernel observed in that order, drawn in
   * the right half at the same tick (clamped to its own ticks); NULL without one. */
  struct plain_view *plain2;
  /* Its source pane (--source, l: draw_source.c), in the input pane's place, and what is
   * selected: a finding (n N, a click on its line or its entry; -1 none), a source line (a
   * click; 0 none), the first line shown (0: where the selection puts it), and a finding
   * asked for before the result came (--select-finding: -1 none). */
  int source, src_finding, src_line, src_top, src_pending;

  /* the device view */
  int devview;          /* asked for: shown whenever the run has a device result */
  int devview_laid;     /* the view the layout was last fitted for */
  int64_t dev_time;     /* device time shown, in the record's unit; -1: the end */
  double dev_pct;       /* a time asked for as a share of the run, resolved on arrival; -1 */
  char record_name[256]; /* a loaded record's file name, or "" */
  ts_run *dev_run;      /* the run dev_raw and the figures below are for */
  uint8_t *dev_raw;
  uint32_t dev_scale;
  uint64_t dev_serial;  /* counts the dev_raw taken: the device output texture's key */
  uint64_t dev_pass_end[TS_MAX_PASSES];
  ts_run *dev_path_run; /* the run dev_path is for: its critical path, as the panel says it */
  char dev_path[160];

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

/* The panes (in the split view both are this half's output pane), the side panel and the
 * timeline; any may be NULL. */
void viewer_layout(const viewer *v, vw_rect *pane_in, vw_rect *pane_out, vw_rect *panel,
                   vw_rect *timeline);
/* Whether the source pane is shown (asked for, of a plain kernel, not in its split view), and
 * where: the input pane's place, which then has none (viewer_layout's pane_in is 0 wide). */
int viewer_source_pane(const viewer *v, vw_rect *r);
/* The device result shown: the run's, when the device view is on and there is one; else NULL. */
const ts_dev_run *viewer_dev(const viewer *v);
/* The device time shown, clamped to the run (0 without a device result shown). */
uint64_t viewer_dev_time(const viewer *v);
/* Whether the values read for drawing cover [x0, x1) x [y0, y1) of the run and tick shown. */
int viewer_vals_cover(const viewer *v, int x0, int y0, int x1, int y1);
/* The observation of the run shown, or NULL (none yet, the CPU model, an image over
 * vw_observe_max_px, the device view, or a failed observation). */
const vw_obs *viewer_obs(const viewer *v);
/* The schedule of the run shown, or NULL. */
const ts_sched *viewer_sched(const viewer *v);
/* The length of the run shown in ticks, 0 without one (a plain kernel's: the ticks of its
 * pass shown, plain_view_ticks). */
int64_t viewer_run_length(const viewer *v);
/* Playback's ticks a second at the speed chosen: the speed itself, but for a plain kernel's
 * pass longer than 100 ticks (its ticks are its groups' starts, barriers and ends: thousands),
 * which plays in 100 / speed seconds. */
double viewer_play_rate(const viewer *v);
/* How far the tick may go: the run's length, in the split view the longer of the two runs'
 * (INT64_MAX / 4 while the right half's is not known yet). */
int64_t viewer_cursor_length(const viewer *v);
/* Whether the latest snapshot is of the settings last asked for. */
int viewer_snap_current(const viewer *v);
/* The pass shown: at the snapshot's tick, or in the device view at the device time. */
int viewer_shown_pass(const viewer *v);
/* Thread under image point (x, y) of the pass shown; returns 0 outside the space. */
int viewer_thread_at(const viewer *v, float x, float y, int *pass, uint32_t *id);
/* The thread the inspector describes: the hovered one, else the selected one. */
int viewer_focus_thread(const viewer *v, int *pass, uint32_t *id);
/* Whether the inspector describes the split view's right half (the twin's run): while the
 * pointer is on it, or, off the panes, when the last click was there. */
int viewer_inspects_right(const viewer *v);

#endif
