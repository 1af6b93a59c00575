/* boxword: the box 3x3 filter for a GPU, a variant of tilescope's own. A thread owns one
 * aligned 32-bit word of each row (4 bytes) for 32 rows and walks down it; each row is read
 * as three aligned words, its own and its neighbours' (L1 hits on a GPU, where a warp's
 * loads are whole cache lines). What makes it fast there: full-width aligned loads and
 * stores instead of byte or unaligned vector accesses, and many threads. Images whose rows
 * are not a multiple of 4 bytes take a byte-by-byte path with a halo of one pixel. */
#include "variant_internal.h"

enum { BW_W = 4, BW_H = 32 };

static void bw_space(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W * k->C, BW_W);
  *th = ts_ceil_div(k->H, BW_H);
}

static ts_rect bw_write(const ts_kctx *k, int tx, int ty)
{
  return ts_clip(&k->buf[TS_BUF_OUT], tx * BW_W, ty * BW_H, BW_W, BW_H);
}

/* The pixels whose bytes the word holds (a pixel split between two words is in both). */
static ts_rect bw_tile(const ts_kctx *k, int tx, int ty)
{
  int x0 = tx * BW_W / k->C, x1 = ts_ceil_div(tx * BW_W + BW_W, k->C);
  return (ts_rect){ x0, ty * BW_H, x1 - x0, BW_H };
}

/* What the kernel reads: whole words beside its own (bytes x - 4 .. x + 7, within the row)
 * when rows are a multiple of 4 bytes, else the bytes one pixel either side (x - C ..
 * x + 3 + C, clamped); the rows above and below. As pixels. */
static ts_rect bw_read(const ts_kctx *k, int tx, int ty)
{
  int rowbytes = k->W * k->C, x = tx * BW_W, halo = rowbytes % 4 == 0 ? 4 : k->C;
  int lo = x - halo < 0 ? 0 : x - halo;
  int hi = x + BW_W - 1 + halo > rowbytes - 1 ? rowbytes - 1 : x + BW_W - 1 + halo;
  return (ts_rect){ lo / k->C, ty * BW_H - 1, hi / k->C - lo / k->C + 1, BW_H + 2 };
}

/* The horizontal sums of the word's bytes in one row, clamped as the kernel clamps. */
static void bw_hsum(const ts_kctx *k, int tx, int row, uint16_t *s)
{
  const ts_buf *in = &k->buf[TS_BUF_IN];
  for (int i = 0; i < BW_W; i++) {
    int col = tx * BW_W + i;
    s[i] = (uint16_t)(ts_ld8_col(in, k->C, col - k->C, row) + ts_ld8_col(in, k->C, col, row) +
                      ts_ld8_col(in, k->C, col + k->C, row));
  }
}

static void bw_run(ts_kctx *k, int tx, int ty)
{
  uint16_t h[3][BW_W];
  bw_hsum(k, tx, ty * BW_H - 1, h[0]);
  bw_hsum(k, tx, ty * BW_H, h[1]);
  for (int r = 0; r < BW_H; r++) {
    int y = ty * BW_H + r;
    bw_hsum(k, tx, y + 1, h[(r + 2) % 3]);
    for (int i = 0; i < BW_W; i++)
      ts_st8(&k->shadow[TS_BUF_OUT], tx * BW_W + i, y,
             ts_box_scale(h[0][i] + h[1][i] + h[2][i]));
  }
}

static void bw_setup(ts_kctx *k)
{
  k->buf[TS_BUF_OUT] = (ts_buf){ .cols = k->W * k->C, .rows = k->H, .esize = 1 };
}

static const ts_pass_desc bw_pass[] = { {
    .name = "stream", .src = TS_BUF_IN, .dst = TS_BUF_OUT, .tile = "4 bytes x 32 rows",
    .space = bw_space, .run = bw_run, .write_rect = bw_write, .tile_px = bw_tile,
    .read_px = bw_read, .cl_file = "boxword.cl", .cl_kernel = "boxword",
} };

const ts_variant ts_variant_boxword = {
  .name = "boxword", .filter = TS_FILTER_BOX3,
  .summary = "a 4-byte word streamed down 32 rows: aligned 32-bit loads, the halo from the "
             "neighbours' words (for GPUs)",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 24, .npasses = 1, .passes = bw_pass,
  .setup = bw_setup,
};
