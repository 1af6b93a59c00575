/* What the files of core/plain/ share, internal to it: the description's steps that the load
 * (ts_plain_load.c) takes between reading the lines and parsing the kernels; and what the
 * plain kernels' runner shares with the observation buffer's code: observe.cl's layout, the
 * run's buffers and state, and the OpenCL failure line. */
#ifndef TS_PLAIN_INT_H
#define TS_PLAIN_INT_H

#include "ts_cl_handles.h"
#include "ts_plain.h"

/* ---- the description (ts_plain_desc.c), for the load ---- */

/* The passes of d (its path and text read): a launch file's lines (launch != NULL: they
 * replace the kernel file's), else the kernel file's (ts_plain_read_desc), then `extra`. */
ts_status ts_plain_read_launch(ts_plain_desc *d, const char *launch, const char *const *extra,
                               int nextra, ts_error *err);
/* Fills the pass's entry, and a role for every argument of its kernel (d->src parsed). */
ts_status ts_plain_resolve(ts_plain_desc *d, ts_plain_pass *ps, ts_error *err);

/* ---- a run (ts_plain_run.c) and its observation buffer (ts_plain_obs.c) ---- */

/* observe.cl's layout */
enum { H_NBUF, H_NLINES, H_CHOSEN_G, H_CHOSEN_I, H_LOGCAP, H_LOGN, H_FIND, H_LOG, H_RECT,
       H_TILE_W, H_TILE_H, H_HALO, H_SCRATCH, H_SINK, H_LOCAL_N, H_LOCAL0 = 16,
       H_WATCH_BUF = 24, H_WATCH_LO, H_WATCH_HI, H_NONCE, H_GFIND, H_UNI, H_WW, H_ORDER,
       H_TICKET, H_DONE, H_RESIDENT, H_REC, H_CLOCK, H_OLIST, H_SPIN, H_LATE, H_ABORT, H_REDO,
       H_NWRITE, H_LFAST = 44, H_LREDO, HEADER = 48 };
/* observe.cl's work-group records (TS_R_*) */
enum { R_START, R_END, R_TICKET, R_LAUNCH, R_SPINS, R_ENDED, R_NBAR, R_BAR, REC_W = 12 };
/* observe.cl's records of writes that met another's (ts_ww) */
enum { WW_CAP = 1024, WW_REC = 5 };
enum { B_SIZE, B_FLAGS, B_PITCH, B_PIXEL, B_SHADOW, B_RECT, B_W, B_H, B_LANE, B_OFFSET, B_PDIV,
       B_MASK = 14, BI = 16 }; /* (12, 13: free) */
enum { F_INPUT = 1, F_OUTPUT = 2, F_READONLY = 4, F_UNSET = 8, F_NOINIT = 16, F_RO = 32, F_WO = 64,
       F_FAST = 128 };
#define NPLACES 4
#define PLACE 7
#define LOG_REC 6
#define LOG_CAP 65536u
#define MAXG 16 /* buffers a kernel may have observed (observe.cl's TS_MAXG: 8 unless more) */
#define UNI 32   /* observe.cl's TS_UNI */
#define UNI_W 2  /* TS_UNI_W */
#define LOOP_W 5 /* TS_LOOP_W (a CPU device's TS_PLAIN_LOOPS loops, after the UNI slots) */

/* The buffers of a run, shared by the passes: the input, the output, and temporaries by
 * argument name. */
typedef struct rbuf {
  char name[64];
  ts_plain_role role;
  cl_mem mem;
  size_t bytes;
  int lane_bytes, is_float, is_signed;
  int channels;        /* per pixel: the image's, output(N)'s, or the declaration's */
  int cols, rows;      /* pixels a row, and rows */
  size_t step, offset; /* bytes a row, and before the first row */
  const ts_plain_bufdecl *decl; /* a declared buffer's line, or NULL for the image roles */
  const ts_plain_data *data;    /* a buffer the launch gives whole (TS_ARG_DATA), or NULL */
  int written;         /* an earlier pass had it as a pointer that is not const */
  uint8_t *wmask;      /* observed: a byte a lane, 1 where an earlier pass wrote it (NULL:
                        * none tracked); the output's and the temporaries' */
  int image;           /* an OpenCL image (image2d_t) of 8-bit channels, not a buffer */
  int shown;           /* a buffer given whole that is shown (ts_plain_data.shown): the
                        * output, a grid of cols x rows elements */
  unsigned img_type;   /* then its channel type: CL_UNORM_INT8, CL_UNSIGNED_INT8, CL_SIGNED_INT8 */
} rbuf;

typedef struct runner {
  const ts_plain_desc *d;
  ts_cl *cl;
  cl_context ctx;
  cl_device_id dev;
  cl_command_queue q;
  cl_program progs[TS_PLAIN_MAX_PASSES]; /* a build a distinct set of options */
  int prog_of[TS_PLAIN_MAX_PASSES];      /* each pass's */
  int fast_ok[TS_PLAIN_MAX_PASSES];      /* a build's observed launches may try fast shadows */
  int nprogs;
  int W, H, C;         /* the image the kernels see: C its channels */
  const ts_image *img; /* that image */
  const char *kernels_dir;
  rbuf bufs[16];
  int nbufs;
  int guards;          /* the observed build's branches before a barrier (ts_plain_src) */
  int many;            /* the last observed build had over TS_MANY_AT checked accesses */
  int cpu;             /* the device is a CPU: observe.cl's TS_GROUP_SERIAL (set by a build) */
  ts_error *err;
  struct ts_access_text *atexts; /* the observed build's accesses' texts (ts_plain_src) */
  int natexts;
} runner;

/* ---- the run's buffers (ts_plain_bufs.c) ---- */

/* The run's buffer of an argument: the image roles by role (temporaries by argument name),
 * a declared buffer by its name; made on first use. NULL after the error line. */
rbuf *ts_plain_buffer_for(runner *r, const ts_plain_arg *a, const ts_plain_param *p);
/* A buffer's first contents (*out, the caller frees). */
ts_status ts_plain_first_contents(runner *r, const ts_image *img, const rbuf *b, uint8_t **out);
/* An image of b's shape and type, with the first contents (NULL: zeros). */
ts_status ts_plain_new_image(runner *r, rbuf *b, const uint8_t *first);
/* b's contents copied from `from` into *to (made like b when NULL), on the device. */
ts_status ts_plain_copy_mem(runner *r, const rbuf *b, cl_mem from, cl_mem *to);
/* The output buffer read back into res (raw, and shown as 8-bit values), and the buffers
 * given whole that the launch marks dump. */
ts_status ts_plain_read_output(runner *r, const rbuf *ob, const ts_image *in,
                               ts_plain_result *res);
ts_status ts_plain_read_dumps(runner *r, ts_plain_result *res);
/* One lane's value, whatever its type; and as a byte (clamped). */
double ts_plain_lane_value(const uint8_t *p, const rbuf *b);
uint8_t ts_plain_to_u8(const uint8_t *p, const rbuf *b);

static inline ts_status clfail(runner *r, cl_int e, const char *what)
{
  return ts_fail(r->err, TS_ERR_DEVICE, "%s: %s failed: %s (%d)", r->d->path, what,
                 ts_cl_error_name(e), (int)e);
}

/* The observation buffer of one launch (ts_plain_obs.c): where its sections lie. */
typedef struct oblayout {
  size_t words;
  uint32_t find, log, rect, gfind, rec, uni, scratch, sink, ww, olist, ngroups;
  const uint32_t *olist_src;     /* an order given as a list: its groups (ngroups) */
  uint32_t shadow[MAXG];
  size_t lanes[MAXG];            /* their lanes (a shadow's four words, or fast one, a lane) */
  uint32_t mask[MAXG];           /* word offsets of the buffers' masks (B_MASK), or 0 */
  const uint8_t *mask_src[MAXG]; /* what they hold (rbuf.wmask), for each reset */
  size_t mask_lanes[MAXG];
  int img[MAXG];
  uint32_t hdr[HEADER + BI * MAXG]; /* the header and the buffers' words, as written */
  int fast;                      /* the shadows are tried fast (F_FAST): ts_plain_ob_redo */
  const uint32_t *host;          /* a CPU device's observation: our memory, read in place by
                                  * ts_plain_ob_redo once a reset is seen there (else NULL) */
} oblayout;

/* Makes and fills the launch's observation buffer (header, zeroed sections, empty
 * rectangles); fills it again, for another launch (ts_plain_ob_reset); and reads it back into
 * the result's findings, rectangles and log. */
ts_status ts_plain_ob_make(runner *r, const ts_plain_kernel *k, const ts_plain_pass *ps,
                           const ts_plain_launch *L, const rbuf **gb, int ng,
                           const ts_plain_opts *o, int pass, cl_mem *out, oblayout *lay);
ts_status ts_plain_ob_reset(runner *r, cl_mem ob, const oblayout *lay);
/* After a launch with fast shadows (lay->fast): *redo 1 where it met an access only the full
 * shadows judge; then the layout has the full ones for the launch again (filled by the next
 * ts_plain_ob_reset), and so does every later launch of the kernel in this process. */
ts_status ts_plain_ob_redo(runner *r, cl_mem ob, oblayout *lay, const ts_plain_pass *ps,
                           int *redo);
/* The full shadows for the launches to come (filled by the next ts_plain_ob_reset). */
void ts_plain_ob_full(oblayout *lay);
ts_status ts_plain_ob_read(runner *r, cl_mem ob, const oblayout *lay, int pass,
                           ts_plain_launch *L, ts_plain_result *res);
/* The pass's write-write races (res->findings from `first`) whose every writer wrote the
 * same value become benign: told from the lanes' final values in the buffers gb. */
ts_status ts_plain_ob_benign(runner *r, cl_mem ob, const oblayout *lay, const rbuf **gb, int ng,
                             size_t first, ts_plain_result *res);
/* After a launch that later passes follow: the lanes its shadows saw written (or updated
 * atomically), added to the masks of the output and the temporaries it may write. */
ts_status ts_plain_ob_written(runner *r, cl_mem ob, const oblayout *lay, const rbuf **gb,
                             int ng);

#endif
