/* integral_lookback and integral_lookback_wide: the integral image in tiles of 128 x 32 and
 * 256 x 32 pixels, a work-group of 128 or 256 work-items a tile
 * (kernels/integral_lookback.cl). In the simulated order, the CPU model below and the
 * kernels' host-ordered launches, a tile is the seed's: its own prefix sums plus the column
 * to its left and the row above, less their corner, read from the output as committed;
 * hence the wavefront pattern. In one launch (--exec device) the tiles do not wait for each
 * other to finish: each publishes its own sums first and then looks back over what its
 * predecessors published (decoupled look-back), which the board carries, so the pass
 * declares how many words a tile publishes. The two differ only in the tile's width: a
 * wider tile pays the look-back's fixed costs (a ticket, two publications, the polls) once
 * for twice the pixels. Both read RGB(A) as it is and make the luma themselves (own_luma):
 * the host's conversion would be a pass over the image of its own. */
#include "variant_internal.h"

/* The tile's rows and a look-back window's tiles: the kernel's LB_H and LB_WIN. */
enum { LB_H = 32, LB_WIN = 16 };

/* A group's local memory in words, for tiles lw wide: the kernel's lmem layout (the own sums,
 * the segments' offsets, U, cumH and the rectangle's sums, the two windows' states, the
 * latest publication read). (Each tile publishes lw + 2 LB_H words: its bottom row, right
 * column and inclusive row sums, the kernel's LB_SUMS; the passes below declare them.) */
static int lb_local_words(int lw)
{
  return LB_H * (lw + 1) + LB_H * (lw / LB_H) + lw + 2 * LB_H + 2 * LB_WIN + 2;
}

static int lb_width(const ts_kctx *k)
{
  return k->variant->passes[0].wtile_w;
}

static void lb_space(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W, lb_width(k));
  *th = ts_ceil_div(k->H, LB_H);
}

static ts_rect lb_write(const ts_kctx *k, int tx, int ty)
{
  int lw = lb_width(k);
  return ts_clip(&k->buf[TS_BUF_OUT], tx * lw, ty * LB_H, lw, LB_H);
}

static ts_rect lb_tile(const ts_kctx *k, int tx, int ty)
{
  int lw = lb_width(k);
  return (ts_rect){ tx * lw, ty * LB_H, lw, LB_H };
}

/* The output it reads in the simulated order: the column to its left, the row above, and
 * their corner. */
static int lb_self_reads(const ts_kctx *k, int tx, int ty, ts_rect *out)
{
  int lw = lb_width(k);
  return ts_integral_neighbours(k, tx * lw, ty * LB_H, lw, LB_H, out);
}

/* S(x0 + i, y0 + j) = own(i, j) + above[i] + left[j] - corner, own the tile's prefix sums. */
static void lookback_run(ts_kctx *k, int tx, int ty)
{
  const ts_buf *sums = &k->buf[TS_BUF_OUT];
  const int lw = lb_width(k), x0 = tx * lw, y0 = ty * LB_H;
  const int bw = ts_mini(lw, k->W - x0), bh = ts_mini(LB_H, k->H - y0);
  uint32_t col[256] = { 0 }; /* column sums of the rows so far */
  uint32_t corner = x0 > 0 && y0 > 0 ? ts_ld32(sums, x0 - 1, y0 - 1) : 0;
  for (int j = 0; j < bh; j++) {
    uint32_t own = 0, left = x0 > 0 ? ts_ld32(sums, x0 - 1, y0 + j) - corner : 0;
    for (int i = 0; i < bw; i++) {
      col[i] += ts_ld_luma(k, x0 + i, y0 + j);
      own += col[i];
      uint32_t above = y0 > 0 ? ts_ld32(sums, x0 + i, y0 - 1) : 0;
      ts_st32(&k->shadow[TS_BUF_OUT], x0 + i, y0 + j, own + above + left);
    }
  }
}

static int lb_local_bytes(const ts_kctx *k)
{
  return lb_local_words(lb_width(k)) * 4;
}

#define LB_PASS(lw, title, kernel)                                                        \
  { .name = title, .src = TS_BUF_IN, .dst = TS_BUF_OUT, .tile = #lw "x32 pixels",         \
    .space = lb_space, .run = lookback_run, .write_rect = lb_write, .tile_px = lb_tile,   \
    .read_px = lb_tile, .self_reads = lb_self_reads, .wtile_w = lw, .wtile_h = LB_H,       \
    .cl_file = "integral_lookback.cl", .cl_kernel = kernel, .cl_group_w = lw,             \
    .cl_group_h = 1, .cl_dev_sums = lw + 2 * LB_H }

static const ts_pass_desc lookback_pass[] = { LB_PASS(128, "128x32 tiles, a work-group each",
                                                      "integral_lookback") };
static const ts_pass_desc lookback_wide_pass[] = { LB_PASS(256, "256x32 tiles, a work-group each",
                                                           "integral_lookback_wide") };

/* Per work-item: a column's running sum, a row segment's, and its carries. */
const ts_variant ts_variant_integral_lookback = {
  .name = "integral_lookback", .filter = TS_FILTER_INTEGRAL,
  .summary = "128x32 tiles a work-group each; in one launch each publishes its own sums, "
             "then looks back over its predecessors' (decoupled look-back)",
  .pattern = TS_PAT_WAVEFRONT, .cost = 1, .private_bytes = 4 * 8, .npasses = 1,
  .passes = lookback_pass, .setup = ts_integral_setup, .local_bytes = lb_local_bytes,
  .own_luma = 1,
};

const ts_variant ts_variant_integral_lookback_wide = {
  .name = "integral_lookback_wide", .filter = TS_FILTER_INTEGRAL,
  .summary = "integral_lookback in 256x32 tiles: half the tiles, each look-back's fixed "
             "costs paid once for twice the pixels",
  .pattern = TS_PAT_WAVEFRONT, .cost = 1, .private_bytes = 4 * 8, .npasses = 1,
  .passes = lookback_wide_pass, .setup = ts_integral_setup, .local_bytes = lb_local_bytes,
  .own_luma = 1,
};
