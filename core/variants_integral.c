/* The integral image (seed: C for Metal tutorial 4, CalcIntImage), in 16x16 blocks.
 * S(x, y) = sum of luma Y(i, j) for i <= x, j <= y, uint32 wrapping. Each thread sums its
 * block, then adds the column to its left and the row above and subtracts the corner, all
 * read from the output buffer as committed: correct only when those neighbours finished
 * first, which is what the wavefront dependency pattern guarantees. */
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
  int x0 = tx * IB, y0 = ty * IB, n = 0;
  int bw = ts_mini(IB, k->W - x0), bh = ts_mini(IB, k->H - y0);
  if (x0 > 0)
    out[n++] = (ts_rect){ x0 - 1, y0, 1, bh };
  if (y0 > 0)
    out[n++] = (ts_rect){ x0, y0 - 1, bw, 1 };
  if (x0 > 0 && y0 > 0)
    out[n++] = (ts_rect){ x0 - 1, y0 - 1, 1, 1 };
  return n;
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

static void ii_setup(ts_kctx *k)
{
  k->buf[TS_BUF_OUT] = (ts_buf){ .cols = k->W, .rows = k->H, .esize = 4 };
}

static const ts_pass_desc integral_pass[] = { {
    .name = "16x16 blocks", .src = TS_BUF_IN, .dst = TS_BUF_OUT, .tile = "16x16 pixels",
    .space = ii_space, .run = integral_run, .write_rect = ii_write, .tile_px = ii_tile,
    .read_px = ii_tile, .self_reads = ii_self_reads, .wtile_w = IB, .wtile_h = IB,
    .cl_file = "integral.cl", .cl_kernel = "integral",
} };

/* in 16x16 u8 + calc 16x16 u32 + left and top 16 u32 each + corner. */
const ts_variant ts_variant_integral = {
  .name = "integral", .filter = TS_FILTER_INTEGRAL,
  .summary = "16x16 blocks plus the left, upper and corner sums of finished neighbours",
  .pattern = TS_PAT_WAVEFRONT, .cost = 1, .private_bytes = 256 + 1024 + 64 + 64 + 4,
  .npasses = 1, .passes = integral_pass, .setup = ii_setup,
};
