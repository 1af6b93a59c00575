/* The integral image (seed: C for Metal tutorial 4, CalcIntImage), in 16x16 blocks.
 * S(x, y) = sum of luma Y(i, j) for i <= x, j <= y, uint32 wrapping. Each thread sums its
 * block, then adds the column to its left and the row above and subtracts the corner, all
 * read from the output buffer as committed: correct only when those neighbours finished
 * first, which is what the wavefront dependency pattern guarantees. integral_scan does
 * without any dependency: a pass of row prefix sums into an intermediate, then a pass that
 * runs down column strips adding them up, at the cost of a second pass over the image. */
#include "variant_internal.h"

enum { IB = 16 };

static void ii_space(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W, IB);
  *th = ts_ceil_div(k->H, IB);
}

static ts_rect ii_write(const ts_kctx *k, int tx, int ty)
{
  return ts_clip(&k->buf[TS_BUF_OUT], tx * IB, ty * IB, IB, IB);
}

static ts_rect ii_tile(const ts_kctx *k, int tx, int ty)
{
  (void)k;
  return (ts_rect){ tx * IB, ty * IB, IB, IB };
}

static int ii_self_reads(const ts_kctx *k, int tx, int ty, ts_rect *out)
{
  return ts_integral_neighbours(k, tx * IB, ty * IB, IB, IB, out);
}

static void integral_run(ts_kctx *k, int tx, int ty)
{
  const ts_buf *in = &k->buf[TS_BUF_IN], *sums = &k->buf[TS_BUF_OUT];
  const int x0 = tx * IB, y0 = ty * IB;
  const int bw = ts_mini(IB, k->W - x0), bh = ts_mini(IB, k->H - y0);
  uint32_t calc[IB][IB], left[IB] = { 0 }, top[IB] = { 0 }, corner = 0;

  /* The block's own 2-D prefix sums. */
  for (int j = 0; j < bh; j++) {
    uint32_t row = 0;
    for (int i = 0; i < bw; i++) {
      row += in->data[(size_t)(y0 + j) * (size_t)in->cols + (size_t)(x0 + i)];
      calc[j][i] = row + (j > 0 ? calc[j - 1][i] : 0);
    }
  }
  /* The neighbours' sums, as committed when this thread starts. */
  if (x0 > 0)
    for (int j = 0; j < bh; j++)
      left[j] = ts_ld32(sums, x0 - 1, y0 + j);
  if (y0 > 0)
    for (int i = 0; i < bw; i++)
      top[i] = ts_ld32(sums, x0 + i, y0 - 1);
  if (x0 > 0 && y0 > 0)
    corner = ts_ld32(sums, x0 - 1, y0 - 1);

  for (int j = 0; j < bh; j++)
    for (int i = 0; i < bw; i++)
      ts_st32(&k->shadow[TS_BUF_OUT], x0 + i, y0 + j, calc[j][i] + left[j] + top[i] - corner);
}

void ts_integral_setup(ts_kctx *k)
{
  k->buf[TS_BUF_OUT] = (ts_buf){ .cols = k->W, .rows = k->H, .esize = 4 };
}

static const ts_pass_desc integral_pass[] = { {
    .name = "16x16 blocks", .src = TS_BUF_IN, .dst = TS_BUF_OUT, .tile = "16x16 pixels",
    .space = ii_space, .run = integral_run, .write_rect = ii_write, .tile_px = ii_tile,
    .read_px = ii_tile, .self_reads = ii_self_reads, .wtile_w = IB, .wtile_h = IB,
    .cl_file = "integral.cl", .cl_kernel = "integral", .cl_dev_group_w = IB,
} };

/* in 16x16 u8 + calc 16x16 u32 + left and top 16 u32 each + corner. */
const ts_variant ts_variant_integral = {
  .name = "integral", .filter = TS_FILTER_INTEGRAL,
  .summary = "16x16 blocks plus the left, upper and corner sums of finished neighbours",
  .pattern = TS_PAT_WAVEFRONT, .cost = 1, .private_bytes = 256 + 1024 + 64 + 64 + 4,
  .npasses = 1, .passes = integral_pass, .setup = ts_integral_setup,
};

/* ---- integral_scan: pass 1, one thread per row, writes the row's prefix sums to MID;
 * pass 2, one thread per strip of 64 columns, walks down the rows keeping a running sum
 * per column and writes S. Each pass reads only what the previous one finished. ---- */

enum { IS_STRIP = 64 };

static void is_space1(const ts_kctx *k, int *tw, int *th)
{
  *tw = 1;
  *th = k->H;
}

static void is_space2(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W, IS_STRIP);
  *th = 1;
}

static ts_rect is_row(const ts_kctx *k, int tx, int ty)
{
  (void)tx;
  return (ts_rect){ 0, ty, k->W, 1 };
}

static ts_rect is_write1(const ts_kctx *k, int tx, int ty)
{
  (void)tx;
  return ts_clip(&k->buf[TS_BUF_MID], 0, ty, k->W, 1);
}

static ts_rect is_strip(const ts_kctx *k, int tx, int ty)
{
  (void)ty;
  return (ts_rect){ tx * IS_STRIP, 0, IS_STRIP, k->H };
}

static ts_rect is_write2(const ts_kctx *k, int tx, int ty)
{
  (void)ty;
  return ts_clip(&k->buf[TS_BUF_OUT], tx * IS_STRIP, 0, IS_STRIP, k->H);
}

static void is_rows_run(ts_kctx *k, int tx, int ty)
{
  (void)tx;
  const ts_buf *in = &k->buf[TS_BUF_IN];
  uint32_t s = 0;
  for (int x = 0; x < k->W; x++) {
    s += in->data[(size_t)ty * (size_t)in->cols + (size_t)x];
    ts_st32(&k->shadow[TS_BUF_MID], x, ty, s);
  }
}

static void is_columns_run(ts_kctx *k, int tx, int ty)
{
  (void)ty;
  const int x0 = tx * IS_STRIP, n = ts_mini(IS_STRIP, k->W - x0);
  uint32_t acc[IS_STRIP] = { 0 }; /* S of the row above, per column */
  for (int y = 0; y < k->H; y++)
    for (int i = 0; i < n; i++) {
      acc[i] += ts_ld32(&k->buf[TS_BUF_MID], x0 + i, y);
      ts_st32(&k->shadow[TS_BUF_OUT], x0 + i, y, acc[i]);
    }
}

static void is_setup(ts_kctx *k)
{
  ts_integral_setup(k);
  k->buf[TS_BUF_MID] = (ts_buf){ .cols = k->W, .rows = k->H, .esize = 4 };
}

static const ts_pass_desc integral_scan_passes[] = {
  { .name = "row prefix sums", .src = TS_BUF_IN, .dst = TS_BUF_MID, .tile = "one row",
    .space = is_space1, .run = is_rows_run, .write_rect = is_write1, .tile_px = is_row,
    .read_px = is_row, .cl_file = "integral.cl", .cl_kernel = "integral_rows" },
  { .name = "column sums down 64-column strips", .src = TS_BUF_MID, .dst = TS_BUF_OUT,
    .tile = "64 columns, every row", .space = is_space2, .run = is_columns_run,
    .write_rect = is_write2, .tile_px = is_strip, .read_px = is_strip,
    .cl_file = "integral.cl", .cl_kernel = "integral_columns" },
};

/* The column pass's 64 running sums; the row pass keeps one. */
const ts_variant ts_variant_integral_scan = {
  .name = "integral_scan", .filter = TS_FILTER_INTEGRAL,
  .summary = "no dependencies: row prefix sums, then running sums down column strips",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = IS_STRIP * 4, .npasses = 2,
  .passes = integral_scan_passes, .setup = is_setup,
};
