/* integral_colrow: the integral image for a GPU, a variant of tilescope's own
 * (kernels/integral_colrow.cl). Pass 1 writes the column prefix sums of the bytes to MID, a
 * work-group of 8 x 128 work-items a strip 32 columns wide (128 row segments summed, then
 * summed again with the segments above them added); pass 2 the row prefix sums of MID, a
 * work-group of 256 a row, 8 chunks of 1024 scanned at once in local memory. What makes it
 * fast there: no thread walks a whole row or column alone, every tile's work is shared by a
 * work-group, and the loads and stores are aligned 32- and 128-bit words. */
#include "variant_internal.h"

enum { CR_STRIP = 32, CR_SEGS = 128, CR_ROWN = 256, CR_ROWK = 8 };

static void cr_space1(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W, CR_STRIP);
  *th = 1;
}

static void cr_space2(const ts_kctx *k, int *tw, int *th)
{
  *tw = 1;
  *th = k->H;
}

static ts_rect cr_strip(const ts_kctx *k, int tx, int ty)
{
  (void)ty;
  return (ts_rect){ tx * CR_STRIP, 0, CR_STRIP, k->H };
}

static ts_rect cr_write1(const ts_kctx *k, int tx, int ty)
{
  (void)ty;
  return ts_clip(&k->buf[TS_BUF_MID], tx * CR_STRIP, 0, CR_STRIP, k->H);
}

static ts_rect cr_row(const ts_kctx *k, int tx, int ty)
{
  (void)tx;
  return (ts_rect){ 0, ty, k->W, 1 };
}

static ts_rect cr_write2(const ts_kctx *k, int tx, int ty)
{
  (void)tx;
  return ts_clip(&k->buf[TS_BUF_OUT], 0, ty, k->W, 1);
}

static void cr_cols_run(ts_kctx *k, int tx, int ty)
{
  (void)ty;
  const ts_buf *in = &k->buf[TS_BUF_IN];
  const int x0 = tx * CR_STRIP, n = ts_mini(CR_STRIP, k->W - x0);
  for (int i = 0; i < n; i++) {
    uint32_t s = 0;
    for (int y = 0; y < k->H; y++) {
      s += in->data[(size_t)y * (size_t)in->cols + (size_t)(x0 + i)];
      ts_st32(&k->shadow[TS_BUF_MID], x0 + i, y, s);
    }
  }
}

static void cr_rows_run(ts_kctx *k, int tx, int ty)
{
  (void)tx;
  uint32_t s = 0;
  for (int x = 0; x < k->W; x++) {
    s += ts_ld32(&k->buf[TS_BUF_MID], x, ty);
    ts_st32(&k->shadow[TS_BUF_OUT], x, ty, s);
  }
}

static void cr_setup(ts_kctx *k)
{
  ts_integral_setup(k);
  k->buf[TS_BUF_MID] = (ts_buf){ .cols = k->W, .rows = k->H, .esize = 4 };
}

/* Pass 1: each segment's sums of 4 columns (uint4); pass 2: the work-items' totals, a chunk's
 * row each. */
static int cr_local_bytes(const ts_kctx *k)
{
  (void)k;
  return CR_SEGS * (CR_STRIP / 4) * 16 > CR_ROWN * CR_ROWK * 4 ? CR_SEGS * (CR_STRIP / 4) * 16
                                                               : CR_ROWN * CR_ROWK * 4;
}

static const ts_pass_desc cr_passes[] = {
  { .name = "column prefix sums, a work-group a strip", .src = TS_BUF_IN, .dst = TS_BUF_MID,
    .tile = "32 columns, every row", .space = cr_space1, .run = cr_cols_run,
    .write_rect = cr_write1, .tile_px = cr_strip, .read_px = cr_strip,
    .cl_file = "integral_colrow.cl", .cl_kernel = "integral_colsums", .cl_group_w = CR_STRIP / 4,
    .cl_group_h = CR_SEGS },
  { .name = "row prefix sums, a work-group a row", .src = TS_BUF_MID, .dst = TS_BUF_OUT,
    .tile = "one row", .space = cr_space2, .run = cr_rows_run, .write_rect = cr_write2,
    .tile_px = cr_row, .read_px = cr_row, .cl_file = "integral_colrow.cl",
    .cl_kernel = "integral_rowsums", .cl_group_w = CR_ROWN, .cl_group_h = 1 },
};

const ts_variant ts_variant_integral_colrow = {
  .name = "integral_colrow", .filter = TS_FILTER_INTEGRAL,
  .summary = "no dependencies: column sums by work-groups of 128 row segments, then row scans "
             "by work-groups in local memory (for GPUs)",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 4 * 16, .npasses = 2,
  .passes = cr_passes, .setup = cr_setup, .local_bytes = cr_local_bytes,
};
