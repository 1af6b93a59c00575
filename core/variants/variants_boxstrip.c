/* boxstrip: the box 3x3 filter as a stream, a variant of tilescope's own (the seed's tile is
 * linear1d2's). A thread owns a strip 16 bytes wide and 32 rows tall and walks down it,
 * reading each input row once (three overlapping 16-byte loads) and keeping three rows of
 * horizontal sums: what makes it fast is one input and one output byte per output byte,
 * in vectors. */
#include "variant_internal.h"

enum { BS_W = 16, BS_H = 32 };

static void bs_space(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W * k->C, BS_W);
  *th = ts_ceil_div(k->H, BS_H);
}

static ts_rect bs_write(const ts_kctx *k, int tx, int ty)
{
  return ts_clip(&k->buf[TS_BUF_OUT], tx * BS_W, ty * BS_H, BS_W, BS_H);
}

/* The pixels whose bytes the strip holds (a pixel split between two strips is in both). */
static ts_rect bs_tile(const ts_kctx *k, int tx, int ty)
{
  int x0 = tx * BS_W / k->C, x1 = ts_ceil_div(tx * BS_W + BS_W, k->C);
  return (ts_rect){ x0, ty * BS_H, x1 - x0, BS_H };
}

static ts_rect bs_read(const ts_kctx *k, int tx, int ty)
{
  ts_rect r = bs_tile(k, tx, ty);
  return (ts_rect){ r.x - 1, r.y - 1, r.w + 2, r.h + 2 };
}

/* The horizontal sums of the strip's bytes in one row, clamped as the kernel clamps. */
static void bs_hsum(const ts_kctx *k, int tx, int row, uint16_t *s)
{
  const ts_buf *in = &k->buf[TS_BUF_IN];
  for (int i = 0; i < BS_W; i++) {
    int col = tx * BS_W + i;
    s[i] = (uint16_t)(ts_ld8_col(in, k->C, col - k->C, row) + ts_ld8_col(in, k->C, col, row) +
                      ts_ld8_col(in, k->C, col + k->C, row));
  }
}

static void bs_run(ts_kctx *k, int tx, int ty)
{
  uint16_t h[3][BS_W];
  bs_hsum(k, tx, ty * BS_H - 1, h[0]);
  bs_hsum(k, tx, ty * BS_H, h[1]);
  for (int r = 0; r < BS_H; r++) {
    int y = ty * BS_H + r;
    bs_hsum(k, tx, y + 1, h[(r + 2) % 3]);
    for (int i = 0; i < BS_W; i++)
      ts_st8(&k->shadow[TS_BUF_OUT], tx * BS_W + i, y,
             ts_box_scale(h[0][i] + h[1][i] + h[2][i]));
  }
}

static void bs_setup(ts_kctx *k)
{
  k->buf[TS_BUF_OUT] = (ts_buf){ .cols = k->W * k->C, .rows = k->H, .esize = 1 };
}

static const ts_pass_desc bs_pass[] = { {
    .name = "stream", .src = TS_BUF_IN, .dst = TS_BUF_OUT, .tile = "16 bytes x 32 rows",
    .space = bs_space, .run = bs_run, .write_rect = bs_write, .tile_px = bs_tile,
    .read_px = bs_read, .cl_file = "boxstrip.cl", .cl_kernel = "boxstrip",
} };

const ts_variant ts_variant_boxstrip = {
  .name = "boxstrip", .filter = TS_FILTER_BOX3,
  .summary = "a 16-byte strip streamed down 32 rows: each input row read once, in vectors",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 144, .npasses = 1, .passes = bs_pass,
  .setup = bs_setup,
};
