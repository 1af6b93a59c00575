/* core/observe/: observation of the built-in and dialect kernels, through the accessors of
 * kernels/common.cl (this file). Plain kernels, which have no accessors, are observed by
 * core/plain/ instead, through the libclang instrumenter.
 *
 * Observed accesses (SPEC section 9): a run replayed on the OpenCL back end with every
 * kernel built for observation (-DTS_OBSERVE), so that each buffer access the kernels make
 * through common.cl's accessors is recorded: per thread and buffer the rectangle and count
 * of its reads and writes, per output element its last writer and whether another thread
 * wrote it too, for one chosen thread the exact elements it touched, and the first access
 * outside a buffer (which is not performed). From that, the checks: observed reads inside
 * the declared footprint, writes inside the declared write rectangle, hazards from observed
 * reads (per the simulated schedule) beside the declared ones, write-write conflicts. */
#ifndef TS_OBSERVE_H
#define TS_OBSERVE_H

#include <stddef.h>
#include <stdint.h>

#include "ts_run.h"

/* The kernel's three buffer arguments, and the two kinds of access. */
enum { TS_ROLE_SRC, TS_ROLE_DST, TS_ROLE_COMMITTED, TS_NROLES };
enum { TS_ACC_READ, TS_ACC_WRITE };

#define TS_OBS_NONE UINT32_MAX

/* Inclusive element rectangle; empty when x1 < x0. */
typedef struct ts_obs_rect {
  int x0, y0, x1, y1;
} ts_obs_rect;

/* One thread's accesses to one role's buffer, of one kind. */
typedef struct ts_obs_acc {
  ts_obs_rect seen;      /* bounding rectangle of the elements accessed (empty: none) */
  uint32_t count;        /* elements accessed (a block access counts each element) */
  ts_obs_rect declared;  /* what the variant declares, clipped to the buffer */
  uint32_t outside;      /* accesses (of one element or a block) outside `declared` */
  int out_col, out_row;  /* the first element outside, in row order */
} ts_obs_acc;

typedef struct ts_obs_pass {
  uint32_t n;                  /* threads, ty * tw + tx */
  int tw, th;
  int buf[TS_NROLES];          /* the TS_BUF_* each role is */
  int cols[TS_NROLES], rows[TS_NROLES];
  ts_obs_acc *acc;             /* n x TS_NROLES x 2, by (id * TS_NROLES + role) * 2 + kind */
  uint32_t *last;              /* per dst element: 1 + the thread that wrote it last, 0: none */
  uint32_t *other;             /* per dst element: 1 + another thread that wrote it, 0: none */
  uint32_t conflicts;          /* dst elements written by two threads */
  uint32_t oob;                /* accesses outside a buffer (not performed) */
  uint32_t oob_tid;            /* the first: thread, role, kind, column, row */
  int oob_role, oob_kind, oob_col, oob_row, oob_pitch; /* oob_pitch: the pitch was wrong */
  uint32_t chosen;             /* the chosen thread, or TS_OBS_NONE */
  uint32_t *bits[TS_NROLES][2]; /* its elements, a bitmap of each role's buffer */
} ts_obs_pass;

typedef struct ts_observe ts_observe;

/* Replays the whole run with observation (the run must be on the OpenCL back end and
 * simulated, not --exec device) and leaves it at its last tick, its buffers as a normal
 * run leaves them. chosen_x, chosen_y: the thread whose exact elements are recorded in each
 * pass (-1: none). */
ts_status ts_observe_run(ts_run *run, int chosen_x, int chosen_y, ts_observe **out,
                         ts_error *err);
void ts_observe_destroy(ts_observe *ob);
int ts_observe_npasses(const ts_observe *ob);
const ts_obs_pass *ts_observe_pass(const ts_observe *ob, int pass);
const ts_obs_acc *ts_obs_at(const ts_obs_pass *op, uint32_t id, int role, int kind);
/* Whether the chosen thread touched element (col, row) of the role's buffer. */
int ts_obs_chosen_has(const ts_obs_pass *op, int role, int kind, int col, int row);

/* One finding of the checks, printed as one line by ts_obs_finding_line. */
typedef enum ts_obs_kind {
  TS_OBS_OUT_OF_BUFFER, /* an access outside a buffer (the first of the pass) */
  TS_OBS_FOOTPRINT,     /* a read outside the declared footprint */
  TS_OBS_WRITE_RECT,    /* a write outside the declared write rectangle */
  TS_OBS_CONFLICT,      /* an element written by two threads */
} ts_obs_kind;

typedef struct ts_obs_finding {
  ts_obs_kind kind;
  int pass, role, col, row;
  uint32_t thread, other;      /* other: the second writer of a conflict */
  ts_obs_rect declared;
  uint32_t count;              /* accesses outside (footprint, write rectangle, buffer) */
} ts_obs_finding;

typedef struct ts_obs_report {
  ts_obs_finding *findings;
  size_t nfindings;
  size_t footprint, write_rect, out_of_buffer, conflicts; /* threads, threads, accesses, elements */
  ts_hazard *hazards;          /* from observed reads: consumer read a producer's element
                                * before the producer's end tick */
  size_t nhazards;
  size_t declared_hazards;     /* ts_run_hazards' count, for comparison */
  size_t generous;             /* thread accesses whose declared rectangle is larger than the
                                * observed one (a tight check; 0 for every built-in variant) */
} ts_obs_report;

/* Runs the checks. At most max_lines findings of each kind are kept (the counts are
 * complete); ts_obs_report_failed says whether any is a violation (footprint, write
 * rectangle, buffer, conflict). */
ts_status ts_observe_check(const ts_observe *ob, const ts_run *run, size_t max_lines,
                           ts_obs_report *rep, ts_error *err);
void ts_obs_report_free(ts_obs_report *rep);
int ts_obs_report_failed(const ts_obs_report *rep);
/* One line, without a newline, naming the variant, pass, thread, buffer and element. */
void ts_obs_finding_line(const ts_run *run, const ts_obs_finding *f, char *line, size_t size);
/* "in", "out" or "mid": the buffer a role of a pass is. */
const char *ts_obs_buffer_name(int buf);

#endif
