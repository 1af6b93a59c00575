/* A plain kernel in the viewer (`tilescope --kernel-file K.cl`, and `shot`): the file loaded
 * as the thread starts (before the window has an image) and run observed once the image comes
 * (ts_plain_load, ts_plain_run with observe) on a thread of its own, with its own ts_cl, what
 * it is doing said for the progress line, and again when the image changes, on `r`, or when
 * the file's mtime
 * changes (the frame loop polls it once a second). A load or run that fails keeps the last
 * good result; its error line is shown beside it. The overlay's tiles are the work-groups of
 * the pass shown: a group's tile is the rectangle it was observed to write, its footprint the
 * rectangle it read, its tint what the findings that name it found; its record (start,
 * barriers, end on the launch's clock) steps the run tick by tick. A watched output pixel
 * (a click: plain_view_watch) runs it observed again logging every access of that pixel by
 * any work-item; the result's rows list them, one per work-item and line, channels collapsed,
 * writers first. The viewer's files
 * (viewer.c, viewer_control.c, viewer_input.c) change it; the drawing (draw_plain.c,
 * gl_resources.c) reads its fields and calls only the queries marked const below. */
#ifndef TS_APP_PLAIN_VIEW_H
#define TS_APP_PLAIN_VIEW_H

#include <stdint.h>
#include <time.h>

#include "ts_plain.h"

/* A work-group's tint: named by no finding; by an uninitialised read or a declared tile or
 * footprint left (orange); by a race or an access outside a buffer (red). */
enum { PV_CLEAN, PV_ORANGE, PV_RED, PV_NTINTS };

typedef struct pv_thread pv_thread; /* the loader thread's side (plain_view.c) */

/* One row of the watched pixel's accesses: one work-item's accesses of it at one line of one
 * pass, its channels collapsed, as the panel shows it: "line 22: work-group (0,0) item (15,0)
 * writes out pixel (16,0) channels 0-2" (prefixed "pass N, " in a file of several). */
typedef struct pv_watch_row {
  int pass, line, acc;            /* acc: 1 read, 2 write, 3 both, 4 atomic */
  uint32_t group, item;
  int writes;                     /* acc 2, 3 or 4 */
  int space, buf;
  uint64_t channels;              /* bit c: channel c */
  char element[160];              /* the pixel, without its channel */
  char text[256];
  int split;                      /* text[split] is the space before the verb */
} pv_watch_row;

typedef struct plain_view {
  char path[1024];
  const char *name;               /* the file's name, in path */
  /* The last good load and its observed run (NULL before the first): read-only once here. */
  ts_plain_desc *desc;
  ts_plain_result *res;
  uint8_t *tint[TS_PLAIN_MAX_PASSES];           /* PV_* per work-group of each pass */
  uint32_t ntinted[TS_PLAIN_MAX_PASSES][PV_NTINTS];
  char error[1100];               /* the last attempt's error line; "" when it succeeded */
  ts_status error_status;         /* its kind: TS_ERR_STALLED (the watchdog), TS_ERR_DEVICE
                                   * (a crash, a failed launch), ... */
  int done;                       /* an attempt has finished since the last request */
  uint64_t serial;                /* counts the results taken: the output texture's key */
  int pass;                       /* the pass shown */
  /* The watched output pixel: asked for (-1: none), and the one the result shown was run
   * with, its accesses as rows (writers first) and how many of them write. */
  int watch_x, watch_y;
  int res_watch_x, res_watch_y;
  pv_watch_row *rows;
  size_t nrows, nwriters;
  int log_cut;                    /* the log kept only the first accesses of some pass */
  int64_t mtime;                  /* the files' newest (ns), when last polled */
  uint64_t input_gen;             /* the image generation last run on */
  int requested;
  pv_thread *t;
} plain_view;

/* Starts the loader thread for the file (nothing runs until plain_view_request); kernels_dir
 * holds kernels/plain/observe.cl. NULL after one error line on stderr. */
/* Parses and runs every plain kernel in a worker program (ts_plain_run_isolated: tilescope
 * itself, `__plain-worker`, which main names with ts_isolate_set_program), stopped after
 * timeout_s seconds; 0: in this process (the tests' default). */
void plain_view_isolate(double timeout_s);
/* The order its observed runs give the work-groups (ts_plain_opts.order: 0 the device's). */
void plain_view_order(const ts_plain_opts *o);
/* That order in words: "the device's order", "reversed order (--order reverse)", ... */
void plain_view_order_words(char *b, size_t n);
/* const: its own order in words, as plain_view_order_words, and in a few ("reverse order",
 * "device order", "order random:7"). */
void plain_view_words(const plain_view *pv, char *b, size_t n);
void plain_view_order_name(const plain_view *pv, char *b, size_t n);
/* Another order for its runs (a TS_ORDER_*, its seed or file), before the first request: the
 * split view's second run. */
void plain_view_set_order(plain_view *pv, int order, uint32_t seed, const char *file);
/* const: the elements (of the raw output, else of the output image's bytes) in which the last
 * good results of a and b differ at their end; -1 while either has none. */
long long plain_view_differ(const plain_view *a, const plain_view *b);
/* const: that as a line: "the outputs differ at N elements: the result depends on the order",
 * "the same output in both orders", or why there is nothing to compare yet. */
void plain_view_differ_line(const plain_view *a, const plain_view *b, char *buf, size_t n);
/* launch: a launch file for the kernel (NULL: its own lines). */
plain_view *plain_view_start(const char *path, const char *launch, const char *kernels_dir,
                             int device);
void plain_view_stop(plain_view *pv);
/* Runs the file on the image (copied) when the image generation is new, or reload (the file
 * read again). */
void plain_view_request(plain_view *pv, const ts_image *input, uint64_t input_gen, int reload);
/* Asks for a run observed again with output pixel (x, y) watched (x < 0: none), on the image
 * it has; the last result stays until the new one arrives. */
void plain_view_watch(plain_view *pv, int x, int y);
/* Takes a finished attempt: its result (the last good one replaced) or its error; returns 1
 * when it took one. */
int plain_view_pick_up(plain_view *pv);
/* Whether an attempt asked for has not been taken yet. */
int plain_view_busy(plain_view *pv);
/* const: what the attempt under way is doing (reading the file, by libclang in a worker
 * program; running it observed; or nothing), for how long (ms), on a w x h image, and how
 * long the last observed run took (last_ms, 0 before one), for the progress line. */
enum { PV_PHASE_NONE, PV_PHASE_PARSE, PV_PHASE_RUN };
typedef struct pv_progress {
  int phase, w, h;
  double ms, last_ms;
} pv_progress;
void plain_view_progress(const plain_view *pv, pv_progress *p);
/* Whether the file's (or its launch file's) mtime changed since the last poll. */
int plain_view_poll(plain_view *pv);
/* The next pass shown (of a file of several). */
void plain_view_next_pass(plain_view *pv);

/* const: the launch of the pass shown, NULL before a result */
const ts_plain_launch *plain_view_launch(const plain_view *pv);
/* const: the work-group of the pass shown whose tile holds image point (x, y) (of two that
 * wrote it, the one whose tile starts nearest); 0 when none. */
int plain_view_group_at(const plain_view *pv, float x, float y, uint32_t *g);
/* const: whether the row's work-group, of the pass shown, wrote the watched pixel. */
int plain_view_group_wrote_watched(const plain_view *pv, uint32_t g);
/* const: a finding's tint (PV_ORANGE or PV_RED). */
int plain_view_kind_tint(int kind);

/* A finding's two accesses, as the source pane shows them (plain_view_sides): A, its first
 * place's access at its line; B, a race's other access where the result names it. line 0:
 * not known; group or item UINT32_MAX: several, or not known (a race between work-groups
 * names the other group, not its work-item); acc 1 read, 2 write, 3 both, 4 atomic, 0 not
 * known. */
typedef struct pv_side {
  int line, acc;
  uint32_t group, item;
} pv_side;
/* Fills a and b from f's first place; returns 1 when b is a race's other access, else 0 (b
 * then holds at most a divergence's barrier line). */
int plain_view_sides(const ts_plain_finding *f, pv_side *a, pv_side *b);
/* const: how many findings (of any pass) are at source line `line`; the first max indices
 * into res->findings go to idx. */
size_t plain_view_line_findings(const plain_view *pv, int line, size_t *idx, size_t max);
/* const: the work-groups of the pass shown that ran source line `line`, as far as the result
 * tells (the run keeps no record of the lines each group ran): those a finding's access at
 * the line names (either side of a race), and those whose accesses of the watched pixel are
 * at it. Returns how many; the first max, ascending, go to g. */
size_t plain_view_line_groups(const plain_view *pv, int line, uint32_t *g, size_t max);
/* const: the other way round: the lines that touched work-group g of the pass shown, as far
 * as the result tells; how many, the first max (up to 64) ascending into lines. */
size_t plain_view_group_lines(const plain_view *pv, uint32_t g, int *lines, size_t max);
/* const: the finding after (dir > 0) or before finding cur (-1: none), wrapping; -1 when the
 * result has none. */
int plain_view_finding_step(const plain_view *pv, int cur, int dir);
/* const: finding i placed in time, on its pass's records: "work-group (1,0) wrote it while
 * running ticks 3-7; work-group (0,0) read it, ticks 1-5: they ran at the same time" (the
 * writer first), "work-group (0,0) ran ticks 1-5: one work-item wrote it and another read
 * it, with no barrier between them", or why it cannot be. */
void plain_view_finding_time(const plain_view *pv, size_t i, char *buf, size_t n);

/* The run stepped like a schedule: a tick t of the pass shown runs from 0 (no work-group has
 * started) to the launch's ticks (every one has ended), on the clock of its records (a tick at
 * each group's start, barrier and end, ts_plain_group). A group's stamps are the clock + 1, so
 * what it stamped s has happened at every t >= s. */
enum { PV_PENDING, PV_RUNNING, PV_PAST_BARRIER, PV_DONE };
/* A work-group's state at tick t: not started, running (PV_PAST_BARRIER: it has passed a
 * barrier), ended. */
int plain_view_group_state(const ts_plain_group *G, uint32_t t);
/* The barriers it had passed by t, of those its record stamps (TS_PLAIN_REC_BARS). */
int plain_view_barriers_by(const ts_plain_group *G, uint32_t t);
/* const: the ticks of the pass shown (0: no record, nothing to step). */
uint32_t plain_view_ticks(const plain_view *pv);
/* const: the bounding rectangle (inclusive, on the output) of what the work-groups of the pass
 * shown wrote that end between ticks a and b (either order, the later included): where the
 * output at a and at b differ; 0 when none does. */
int plain_view_changed_between(const plain_view *pv, uint32_t a, uint32_t b, ts_plain_rect *r);
/* const: pixels [x0, x1) x [y0, y1) of the output as it stood at tick t of the pass shown,
 * into dst (the output's size and channels): each work-group's written rectangle is dark
 * (nothing yet) until that group ends. */
void plain_view_output_at(const plain_view *pv, uint32_t t, int x0, int y0, int x1, int y1,
                          uint8_t *dst);

#endif
