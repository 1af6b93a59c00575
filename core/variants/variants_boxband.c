/* boxband: the box 3x3 filter for a CPU, a variant of tilescope's own (kernels/boxband.cl).
 * A thread owns a band BB_R rows tall and BB_W bytes wide and sweeps it left to right in
 * 16-byte columns, walking each column down the band with three rows of horizontal sums.
 * What makes it fast on a CPU: each row is read in order, 16 bytes after 16 bytes, so the
 * hardware prefetcher streams it (boxstrip does the same work per byte but jumps a row per
 * load); one load and one store per byte in vectors, and an exact integer scale. */
#include "variant_internal.h"

enum { BB_W = 1024, BB_R = 8, BB_COL = 16 };

static void bb_space(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W * k->C, BB_W);
  *th = ts_ceil_div(k->H, BB_R);
}

static ts_rect bb_write(const ts_kctx *k, int tx, int ty)
{
  return ts_clip(&k->buf[TS_BUF_OUT], tx * BB_W, ty * BB_R, BB_W, BB_R);
}

/* The pixels whose bytes the band holds (a pixel split between two bands is in both). */
static ts_rect bb_tile(const ts_kctx *k, int tx, int ty)
{
  int x0 = tx * BB_W / k->C, x1 = ts_ceil_div(tx * BB_W + BB_W, k->C);
  return (ts_rect){ x0, ty * BB_R, x1 - x0, BB_R };
}

static ts_rect bb_read(const ts_kctx *k, int tx, int ty)
{
  ts_rect r = bb_tile(k, tx, ty);
  return (ts_rect){ r.x - 1, r.y - 1, r.w + 2, r.h + 2 };
}

/* The horizontal sums of a column's bytes in one row, clamped as the kernel clamps. */
static void bb_hsum(const ts_kctx *k, int x, int row, uint16_t *s)
{
  const ts_buf *in = &k->buf[TS_BUF_IN];
  for (int i = 0; i < BB_COL; i++)
    s[i] = (uint16_t)(ts_ld8_col(in, k->C, x + i - k->C, row) + ts_ld8_col(in, k->C, x + i, row) +
                      ts_ld8_col(in, k->C, x + i + k->C, row));
}

static void bb_run(ts_kctx *k, int tx, int ty)
{
  int x1 = ts_mini(tx * BB_W + BB_W, k->W * k->C);
  for (int x = tx * BB_W; x < x1; x += BB_COL) {
    uint16_t h[3][BB_COL];
    bb_hsum(k, x, ty * BB_R - 1, h[0]);
    bb_hsum(k, x, ty * BB_R, h[1]);
    for (int r = 0; r < BB_R; r++) {
      int y = ty * BB_R + r;
      bb_hsum(k, x, y + 1, h[(r + 2) % 3]);
      for (int i = 0; i < BB_COL && x + i < x1; i++)
        ts_st8(&k->shadow[TS_BUF_OUT], x + i, y, ts_box_scale(h[0][i] + h[1][i] + h[2][i]));
    }
  }
}

static void bb_setup(ts_kctx *k)
{
  k->buf[TS_BUF_OUT] = (ts_buf){ .cols = k->W * k->C, .rows = k->H, .esize = 1 };
}

static const ts_pass_desc bb_pass[] = { {
    .name = "band", .src = TS_BUF_IN, .dst = TS_BUF_OUT, .tile = "1024 bytes x 8 rows",
    .space = bb_space, .run = bb_run, .write_rect = bb_write, .tile_px = bb_tile,
    .read_px = bb_read, .cl_file = "boxband.cl", .cl_kernel = "boxband",
} };

/* Private bytes: three rows of 16 sums (96) and a column's 16 output bytes. */
const ts_variant ts_variant_boxband = {
  .name = "boxband", .filter = TS_FILTER_BOX3,
  .summary = "a band of 8 rows swept in 16-byte columns: each row read in order, so the "
             "CPU's prefetcher streams it",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 112, .npasses = 1, .passes = bb_pass,
  .setup = bb_setup,
};
