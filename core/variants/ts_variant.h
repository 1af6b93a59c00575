/* core/variants/: what tilescope can run. The registry of variants (this file), each
 * variant's CPU model in one file per family (variants_*.c), the scalar references every
 * variant is tested against (ts_ref), and user kernels written in the dialect (ts_user),
 * which become variants. Uses the model's types only.
 *
 * The variant registry: every named implementation of a filter, with its passes, tiles,
 * footprints, declared storage and default schedule, and the CPU model of each pass.
 * A variant's per-thread code lives in variants_*.c; ts_run.c replays it in schedule order. */
#ifndef TS_VARIANT_H
#define TS_VARIANT_H

#include <stdint.h>

#include "ts_sched.h"

typedef enum ts_filter { TS_FILTER_BOX3, TS_FILTER_GAUSS, TS_FILTER_INTEGRAL } ts_filter;

/* Buffers a pass reads or writes. IN holds the input bytes (luma for the integral image),
 * OUT the result, MID an intermediate (the transposed partial sums of transpose2pass). */
enum { TS_BUF_IN, TS_BUF_OUT, TS_BUF_MID, TS_NBUF };

/* A rectangle of buffer elements (columns x rows) or of image pixels. */
typedef struct ts_rect {
  int x, y, w, h;
} ts_rect;

/* One buffer: rows x cols elements of esize bytes, tightly packed. */
typedef struct ts_buf {
  uint8_t *data;
  int cols, rows, esize;
} ts_buf;

#define TS_GAUSS_MAX_K 15

/* What a kernel sees: the image geometry, the filter's parameters and the buffers, each with
 * a shadow that writes go to until the writing thread's end tick commits them. */
typedef struct ts_kctx {
  const struct ts_variant *variant; /* the variant the run runs (set before its setup) */
  int W, H, C;           /* image; C is 1 for the integral image (it works on luma) */
  int in_c;              /* IN's channels as stored: C, or the RGB(A) that an own_luma
                          * variant turns into luma itself */
  int ksize, r;          /* Gaussian size and radius */
  uint32_t w1[TS_GAUSS_MAX_K]; /* Gaussian 1-D weights, summing to 256 */
  ts_buf buf[TS_NBUF];
  ts_buf shadow[TS_NBUF];
} ts_kctx;

typedef struct ts_pass_desc {
  const char *name;
  int src, dst;         /* TS_BUF_* */
  const char *tile;     /* what one thread owns, in words */
  void (*space)(const ts_kctx *k, int *tw, int *th);
  /* Runs thread (tx, ty): reads committed buffers, writes the shadow of dst. */
  void (*run)(ts_kctx *k, int tx, int ty);
  /* The dst elements thread (tx, ty) writes, clipped to the buffer. */
  ts_rect (*write_rect)(const ts_kctx *k, int tx, int ty);
  /* The output-image pixels the thread owns and the image pixels it reads (with halo,
   * unclipped), for the overlay and the footprint figures. */
  ts_rect (*tile_px)(const ts_kctx *k, int tx, int ty);
  ts_rect (*read_px)(const ts_kctx *k, int tx, int ty);
  /* Reads of dst by a thread of this same pass (the integral image's neighbour sums):
   * rects in dst elements; producers are found from wtile_w x wtile_h element tiles. */
  int (*self_reads)(const ts_kctx *k, int tx, int ty, ts_rect *out);
  int wtile_w, wtile_h;
  /* 1: src is stored transposed (its rows are image columns), so read_px's x is its row
   * (transpose2pass's second pass); the observe checks map the footprint by it. */
  int src_transposed;
  /* The OpenCL kernel: file in the kernels folder, entry point, and the work-group that
   * runs one thread's tile (0 x 0: one work-item per tile). */
  const char *cl_file, *cl_kernel;
  /* The entry point for input of more than one channel where it is another (a kernel has
   * one register count, so a colour path that needs more registers gets its own), or NULL. */
  const char *cl_kernel_colour;
  int cl_group_w, cl_group_h;
  /* For a one-work-item kernel, the work-items that share a tile in device mode (the kernel
   * says how), or 0: a group of one. */
  int cl_dev_group_w;
  /* For a kernel that looks back in device mode (kernels/integral_lookback.cl): the words
   * of sums each tile publishes there. The board then also carries each tile's ticket and
   * these sums; 0: a kernel that only waits on its effective wait set. cl_dev_sums_cols:
   * as many more words per column of the image (a tile the image's width publishes a row). */
  int cl_dev_sums, cl_dev_sums_cols;
} ts_pass_desc;

/* The pass's entry point for input of C channels. */
static inline const char *ts_pass_kernel(const ts_pass_desc *pd, int C)
{
  return C > 1 && pd->cl_kernel_colour ? pd->cl_kernel_colour : pd->cl_kernel;
}

typedef struct ts_variant {
  const char *name;
  ts_filter filter;
  const char *summary;
  ts_pattern pattern;   /* default dependency pattern */
  int cost;             /* ticks per thread */
  int private_bytes;    /* declared, per thread (work-item for the work-group variants) */
  int npasses;
  const ts_pass_desc *passes;
  /* Buffer geometry for OUT and MID (IN is set by the caller). */
  void (*setup)(ts_kctx *k);
  /* Local memory per work-group, in bytes, as the kernel's `lmem` argument (NULL: none). */
  int (*local_bytes)(const ts_kctx *k);
  /* A user kernel (ts_user.h): its file, else NULL. It has no CPU model (run is NULL);
   * `unchecked`: it names no built-in filter to equal, so no reference checks it. */
  const char *file;
  int unchecked;
  /* An integral variant that reads RGB(A) as it is and makes the luma itself (ts_luma's
   * formula, in its model and its kernel), rather than the host converting it first. */
  int own_luma;
} ts_variant;

/* Built-in variants first, then the user kernels added with ts_variant_add. */
int ts_variant_count(void);
const ts_variant *ts_variant_at(int i);
const ts_variant *ts_variant_find(const char *name);
const char *ts_filter_name(ts_filter f);
/* Adds a variant (a user kernel) to the registry, which keeps the pointer: at most
 * TS_USER_MAX, and a name no other variant has. Not thread-safe: for start-up. */
#define TS_USER_MAX 32
ts_status ts_variant_add(const ts_variant *v, ts_error *err);

/* Gaussian parameters: ksize odd in 3..15; sigma <= 0 selects the default for ksize. */
double ts_gauss_default_sigma(int ksize);
ts_status ts_gauss_weights(int ksize, double sigma, uint32_t *w, ts_error *err);

#endif
