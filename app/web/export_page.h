/* A run as one web page (tilescope export --html): what the page holds of each run and how
 * the page is put together. The page is app/web/page.html with its style and scripts (embedded
 * into the executable at build time, web_assets.c) and one JSON element of data: per run the
 * schedule (per thread its dispatch, slot, ticks, depth, hazards, footprint and wait set),
 * the hazards, the occupancy, the input, the output at the end with the tick at which each
 * output pixel took its value, and the device's record when the run has one. The page draws
 * every tick from that: it holds no frames. A plain kernel's page holds its observed run
 * instead (page_plain.h): per pass each work-group's record and rectangles, the findings, the
 * input and the output. */
#ifndef TS_APP_EXPORT_PAGE_H
#define TS_APP_EXPORT_PAGE_H

#include <stdint.h>

#include "ts_plain.h"
#include "ts_run.h"

/* Where the page opens (the URL fragment overrides each of these). */
typedef struct ex_view {
  int64_t tick;          /* -1: the end */
  const char *overlay;   /* none, state, order, depth, slot */
  int hover, hover_x, hover_y; /* a hovered output pixel */
  int device;            /* open in the device view (the run has a device result) */
  int64_t dev_time;      /* -1: the end */
  double dev_pct;        /* a share of the device run instead, or -1 */
  double zoom, cx, cy;   /* screen pixels an image pixel about image point (cx, cy); 0: fit */
} ex_view;

typedef struct ex_run {
  ts_run *run;           /* replayed to its end (ex_replay) */
  const ts_image *input; /* as loaded: the input pane shows it */
  char label[200];       /* what the run selector says */
  char input_name[256];
  char record[256];      /* the device record's file name, or "" */
  const char *note;      /* a line the panel shows (e.g. the CPU model's fall back), or NULL */
  uint32_t *changed;     /* per output pixel: 1 + the tick its value last changed, 0: never */
  size_t multi;          /* output pixels that changed at more than one tick */
  uint8_t *dev_out;      /* the device's own output, or NULL (a record: the simulated end) */
  ex_view view;
} ex_run;

/* A moment a script pauses at (wait, shot): the run, where it is shown, and the caption in
 * force then (or NULL). A page shows a frame's caption under the panes and prints one frame a
 * page, a handout. */
typedef struct ex_frame {
  int run;
  ex_view view;
  const char *caption;
} ex_frame;

enum { EX_MAX_FRAMES = 256 };
/* Adds a frame at the end of frames[*n], unless it is the last one again (a pause after a
 * pause). Returns 0 when EX_MAX_FRAMES are there already. */
int ex_frame_add(ex_frame *frames, int *n, int run, const ex_view *view, const char *caption);

/* Runs the device's schedule first when the run asks for it (keeping its output), then
 * replays the simulated schedule to its end, one commit tick at a time, noting when each
 * output pixel changed. */
ts_status ex_replay(ex_run *r, ts_error *err);
void ex_run_free(ex_run *r);

/* Writes the page (to a temporary file, then renamed). size_w, size_h: a fixed size for the
 * page's view in CSS pixels, or 0 to fill the browser's window. frames: a script's pauses, in
 * its order (or none). */
ts_status ex_write_page(const char *path, const char *title, const ex_run *runs, int nruns,
                        const ex_frame *frames, int nframes, int size_w, int size_h,
                        ts_error *err);

/* Writes the page of a split view (export --split SPEC): two runs of one input side by side
 * on one tick, the right's settings the left's changed as SPEC says (its text, as given). */
ts_status ex_write_split_page(const char *path, const char *title, const ex_run *left,
                              const ex_run *right, const char *spec, int size_w, int size_h,
                              ts_error *err);

/* A plain kernel's observed run (export --kernel-file, --sim), as its page shows it. */
typedef struct ex_plain {
  const ts_plain_desc *desc;
  const ts_plain_result *res; /* observed: each launch's groups and records */
  const ts_image *input;
  char file[256];             /* the kernel file's name */
  char launched[256];         /* what launched it, in words ("shapes.sim", "conv.launch"), or "" */
  char input_name[256];
  char order[200];            /* the order its work-groups started in, in words */
  ex_view view;               /* tick, overlay (none, state, order), hover, zoom */
} ex_plain;

/* Writes a plain kernel's page, as ex_write_page does. */
ts_status ex_write_plain_page(const char *path, const char *title, const ex_plain *pl, int size_w,
                              int size_h, ts_error *err);
/* And its split page: the left run beside the right (the same kernel in another order). */
ts_status ex_write_plain_split(const char *path, const char *title, const ex_plain *left,
                               const ex_plain *right, int size_w, int size_h, ts_error *err);

#endif
