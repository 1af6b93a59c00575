/* Box 3x3 variants (seed: C for Metal tutorial 11, and "Transpose Is Your Friend").
 * The filter: out = trunc(float(sum of the clamped, centred 3x3 window) * 0.111f).
 * box2d is the per-pixel baseline; linear1d2, linearslide and linearslide2 are the
 * tutorial's three register budgets for a 24-byte x 6-row tile (horizontal 3-tap sums,
 * then vertical); transpose2pass does both directions with one horizontal pass run twice,
 * transposing on write. */
#include <string.h>

#include "variant_internal.h"

/* ---- box2d: 16x16 pixels per work-group, one work-item per pixel, nine loads each. ---- */

enum { BOX_WG = 16 };

static void wg16_space(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W, BOX_WG);
  *th = ts_ceil_div(k->H, BOX_WG);
}

static ts_rect wg16_write(const ts_kctx *k, int tx, int ty)
{
  return ts_clip(&k->buf[TS_BUF_OUT], tx * BOX_WG * k->C, ty * BOX_WG, BOX_WG * k->C, BOX_WG);
}

static ts_rect wg16_tile(const ts_kctx *k, int tx, int ty)
{
  (void)k;
  return (ts_rect){ tx * BOX_WG, ty * BOX_WG, BOX_WG, BOX_WG };
}

static ts_rect wg16_read_r1(const ts_kctx *k, int tx, int ty)
{
  (void)k;
  return (ts_rect){ tx * BOX_WG - 1, ty * BOX_WG - 1, BOX_WG + 2, BOX_WG + 2 };
}

static void box2d_run(ts_kctx *k, int tx, int ty)
{
  const ts_buf *in = &k->buf[TS_BUF_IN];
  ts_buf *out = &k->shadow[TS_BUF_OUT];
  const int C = k->C;
  for (int ly = 0; ly < BOX_WG; ly++)
    for (int lx = 0; lx < BOX_WG; lx++) {
      int x = tx * BOX_WG + lx, y = ty * BOX_WG + ly;
      if (x >= k->W || y >= k->H)
        continue; /* the work-item falls off the image */
      for (int c = 0; c < C; c++) {
        int s = 0;
        for (int j = -1; j <= 1; j++)
          for (int i = -1; i <= 1; i++)
            s += ts_ld8(in, C, x + i, y + j, c);
        ts_st8(out, x * C + c, y, ts_box_scale(s));
      }
    }
}

static void box_setup(ts_kctx *k)
{
  k->buf[TS_BUF_OUT] = (ts_buf){ .cols = k->W * k->C, .rows = k->H, .esize = 1 };
}

static const ts_pass_desc box2d_pass[] = { {
    .name = "2-D", .src = TS_BUF_IN, .dst = TS_BUF_OUT, .tile = "16x16 pixels (one work-group)",
    .space = wg16_space, .run = box2d_run, .write_rect = wg16_write, .tile_px = wg16_tile,
    .read_px = wg16_read_r1, .cl_file = "box.cl", .cl_kernel = "box2d", .cl_group_w = 16,
    .cl_group_h = 16,
} };

const ts_variant ts_variant_box2d = {
  .name = "box2d", .filter = TS_FILTER_BOX3,
  .summary = "baseline: one work-item per pixel, nine loads each",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 16, .npasses = 1, .passes = box2d_pass,
  .setup = box_setup,
};

/* ---- The tutorial's 24-byte x 6-row tile: 8 RGB pixels, 24 grey or 6 RGBA. ---- */

enum { LIN_W = 24, LIN_H = 6, LIN_IN_H = LIN_H + 2, LIN_IN_W_MAX = LIN_W + 2 * 4 };

static void lin_space(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W * k->C, LIN_W);
  *th = ts_ceil_div(k->H, LIN_H);
}

static ts_rect lin_write(const ts_kctx *k, int tx, int ty)
{
  return ts_clip(&k->buf[TS_BUF_OUT], tx * LIN_W, ty * LIN_H, LIN_W, LIN_H);
}

static ts_rect lin_tile(const ts_kctx *k, int tx, int ty)
{
  int pw = LIN_W / k->C;
  return (ts_rect){ tx * pw, ty * LIN_H, pw, LIN_H };
}

static ts_rect lin_read(const ts_kctx *k, int tx, int ty)
{
  int pw = LIN_W / k->C;
  return (ts_rect){ tx * pw - 1, ty * LIN_H - 1, pw + 2, LIN_IN_H };
}

/* One row of the (24 + 2C)-byte input block: it starts one pixel left of the tile. */
static void lin_read_row(const ts_kctx *k, int tx, int row, uint8_t *dst)
{
  const int C = k->C, col0 = tx * LIN_W - C;
  for (int j = 0; j < LIN_W + 2 * C; j++)
    dst[j] = ts_ld8_col(&k->buf[TS_BUF_IN], C, col0 + j, row);
}

/* Horizontal 3-tap sums of one input row: m[j] = in[j] + in[j + C] + in[j + 2C]. */
static void lin_hsum(int C, const uint8_t *in, int16_t *m)
{
  for (int j = 0; j < LIN_W; j++)
    m[j] = (int16_t)(in[j] + in[j + C] + in[j + 2 * C]);
}

static void lin_scale_row(const int16_t *m0, const int16_t *m1, const int16_t *m2, uint8_t *out)
{
  for (int j = 0; j < LIN_W; j++)
    out[j] = ts_box_scale(m0[j] + m1[j] + m2[j]);
}

static void lin_write_row(ts_kctx *k, int tx, int row, const uint8_t *src)
{
  for (int j = 0; j < LIN_W; j++)
    ts_st8(&k->shadow[TS_BUF_OUT], tx * LIN_W + j, row, src[j]);
}

/* linear1d2: the whole 8-row input block, its partial sums and the output in registers:
 * in 8x32 u8 + m 8x24 s16 + m_out 6x24 s16 + out 6x24 u8 = 1072 bytes. */
static void linear1d2_run(ts_kctx *k, int tx, int ty)
{
  uint8_t in[LIN_IN_H][LIN_IN_W_MAX];
  int16_t m[LIN_IN_H][LIN_W];
  uint8_t out[LIN_H][LIN_W];
  for (int r = 0; r < LIN_IN_H; r++)
    lin_read_row(k, tx, ty * LIN_H - 1 + r, in[r]);
  for (int r = 0; r < LIN_IN_H; r++)
    lin_hsum(k->C, in[r], m[r]);
  for (int r = 0; r < LIN_H; r++)
    lin_scale_row(m[r], m[r + 1], m[r + 2], out[r]);
  for (int r = 0; r < LIN_H; r++)
    lin_write_row(k, tx, ty * LIN_H + r, out[r]);
}

/* linearslide: three rows of input and of partial sums; one row read and one row written
 * per step: 96 + 144 + 48 + 24 = 312 bytes, but 8 row reads and 6 row writes. */
static void linearslide_run(ts_kctx *k, int tx, int ty)
{
  uint8_t in[3][LIN_IN_W_MAX];
  int16_t m[3][LIN_W];
  uint8_t out[LIN_W];
  const int row0 = ty * LIN_H - 1;
  for (int r = 0; r < 3; r++) {
    lin_read_row(k, tx, row0 + r, in[r]);
    lin_hsum(k->C, in[r], m[r]);
  }
  for (int i = 0; i < LIN_H - 1; i++) {
    lin_scale_row(m[0], m[1], m[2], out);
    lin_write_row(k, tx, ty * LIN_H + i, out);
    lin_read_row(k, tx, row0 + i + 3, in[i % 3]); /* the window slides down one row */
    lin_hsum(k->C, in[i % 3], m[i % 3]);
  }
  lin_scale_row(m[0], m[1], m[2], out);
  lin_write_row(k, tx, ty * LIN_H + LIN_H - 1, out);
}

/* linearslide2: one 8-row block read, a 3-row sliding window of partial sums, one 6-row
 * block write: 256 + 144 + 48 + 144 = 592 bytes, two block transfers. */
static void linearslide2_run(ts_kctx *k, int tx, int ty)
{
  uint8_t in[LIN_IN_H][LIN_IN_W_MAX];
  int16_t m[3][LIN_W];
  uint8_t out[LIN_H][LIN_W];
  for (int r = 0; r < LIN_IN_H; r++)
    lin_read_row(k, tx, ty * LIN_H - 1 + r, in[r]);
  for (int r = 0; r < 3; r++)
    lin_hsum(k->C, in[r], m[r]);
  for (int i = 0; i < LIN_H - 1; i++) {
    lin_scale_row(m[0], m[1], m[2], out[i]);
    lin_hsum(k->C, in[i + 3], m[i % 3]);
  }
  lin_scale_row(m[0], m[1], m[2], out[LIN_H - 1]);
  for (int r = 0; r < LIN_H; r++)
    lin_write_row(k, tx, ty * LIN_H + r, out[r]);
}

#define LIN_PASS(fn, kernel) { .name = "1-D x 2", .src = TS_BUF_IN, .dst = TS_BUF_OUT,    \
    .tile = "24 bytes x 6 rows", .space = lin_space, .run = fn, .write_rect = lin_write,   \
    .tile_px = lin_tile, .read_px = lin_read, .cl_file = "box.cl", .cl_kernel = kernel }

static const ts_pass_desc linear1d2_pass[] = { LIN_PASS(linear1d2_run, "linear1d2") };
static const ts_pass_desc linearslide_pass[] = { LIN_PASS(linearslide_run, "linearslide") };
static const ts_pass_desc linearslide2_pass[] = { LIN_PASS(linearslide2_run, "linearslide2") };

const ts_variant ts_variant_linear1d2 = {
  .name = "linear1d2", .filter = TS_FILTER_BOX3,
  .summary = "whole 8-row block and its partial sums in registers",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 1072, .npasses = 1,
  .passes = linear1d2_pass, .setup = box_setup,
};

const ts_variant ts_variant_linearslide = {
  .name = "linearslide", .filter = TS_FILTER_BOX3,
  .summary = "3-row sliding window: least storage, row-by-row reads and writes",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 312, .npasses = 1,
  .passes = linearslide_pass, .setup = box_setup,
};

const ts_variant ts_variant_linearslide2 = {
  .name = "linearslide2", .filter = TS_FILTER_BOX3,
  .summary = "one block read, 3-row window of partial sums, one block write",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 592, .npasses = 1,
  .passes = linearslide2_pass, .setup = box_setup,
};

/* ---- transpose2pass: the same horizontal 3-tap code twice, transposing on write. ----
 * Pass 1 reads the image (W x H) and writes 16-bit sums to MID, transposed (H x W); pass 2
 * reads MID the same way, sums again and writes the scaled result transposed back. */

enum { TP_WG_W = 32, TP_WG_H = 8 };

static void tp_space1(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W, TP_WG_W);
  *th = ts_ceil_div(k->H, TP_WG_H);
}

static void tp_space2(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->H, TP_WG_W);
  *th = ts_ceil_div(k->W, TP_WG_H);
}

/* Both passes write the transposed tile: columns ty*8*C.., rows tx*32.. of dst. */
static ts_rect tp_write1(const ts_kctx *k, int tx, int ty)
{
  return ts_clip(&k->buf[TS_BUF_MID], ty * TP_WG_H * k->C, tx * TP_WG_W, TP_WG_H * k->C, TP_WG_W);
}

static ts_rect tp_write2(const ts_kctx *k, int tx, int ty)
{
  return ts_clip(&k->buf[TS_BUF_OUT], ty * TP_WG_H * k->C, tx * TP_WG_W, TP_WG_H * k->C, TP_WG_W);
}

static ts_rect tp_tile1(const ts_kctx *k, int tx, int ty)
{
  (void)k;
  return (ts_rect){ tx * TP_WG_W, ty * TP_WG_H, TP_WG_W, TP_WG_H };
}

static ts_rect tp_tile2(const ts_kctx *k, int tx, int ty)
{
  (void)k;
  return (ts_rect){ ty * TP_WG_H, tx * TP_WG_W, TP_WG_H, TP_WG_W };
}

static ts_rect tp_read1(const ts_kctx *k, int tx, int ty)
{
  (void)k;
  return (ts_rect){ tx * TP_WG_W - 1, ty * TP_WG_H, TP_WG_W + 2, TP_WG_H };
}

static ts_rect tp_read2(const ts_kctx *k, int tx, int ty)
{
  (void)k;
  return (ts_rect){ ty * TP_WG_H, tx * TP_WG_W - 1, TP_WG_H, TP_WG_W + 2 };
}

/* The one horizontal kernel: work-item (lx, ly) of work-group (tx, ty) sums three
 * neighbours along its source row and writes the sum at the transposed position. */
static void tp_hpass(ts_kctx *k, int tx, int ty, int second)
{
  const int C = k->C;
  const ts_buf *src = &k->buf[second ? TS_BUF_MID : TS_BUF_IN];
  ts_buf *dst = &k->shadow[second ? TS_BUF_OUT : TS_BUF_MID];
  const int sw = src->cols / C, sh = src->rows;
  for (int ly = 0; ly < TP_WG_H; ly++)
    for (int lx = 0; lx < TP_WG_W; lx++) {
      int x = tx * TP_WG_W + lx, y = ty * TP_WG_H + ly;
      if (x >= sw || y >= sh)
        continue;
      for (int c = 0; c < C; c++) {
        int s = second ? ts_ld16(src, C, x - 1, y, c) + ts_ld16(src, C, x, y, c) +
                             ts_ld16(src, C, x + 1, y, c)
                       : ts_ld8(src, C, x - 1, y, c) + ts_ld8(src, C, x, y, c) +
                             ts_ld8(src, C, x + 1, y, c);
        if (second)
          ts_st8(dst, y * C + c, x, ts_box_scale(s));
        else
          ts_st16(dst, y * C + c, x, (uint16_t)s);
      }
    }
}

static void tp_run1(ts_kctx *k, int tx, int ty)
{
  tp_hpass(k, tx, ty, 0);
}

static void tp_run2(ts_kctx *k, int tx, int ty)
{
  tp_hpass(k, tx, ty, 1);
}

static void tp_setup(ts_kctx *k)
{
  box_setup(k);
  k->buf[TS_BUF_MID] = (ts_buf){ .cols = k->H * k->C, .rows = k->W, .esize = 2 };
}

static const ts_pass_desc tp_passes[] = {
  { .name = "horizontal, write transposed", .src = TS_BUF_IN, .dst = TS_BUF_MID,
    .tile = "32x8 pixels (one work-group)", .space = tp_space1, .run = tp_run1,
    .write_rect = tp_write1, .tile_px = tp_tile1, .read_px = tp_read1, .cl_file = "box.cl",
    .cl_kernel = "transpose_pass1", .cl_group_w = TP_WG_W, .cl_group_h = TP_WG_H },
  { .name = "horizontal over the transpose, write back", .src = TS_BUF_MID, .dst = TS_BUF_OUT,
    .tile = "32x8 transposed pixels (8x32 of the image)", .space = tp_space2, .run = tp_run2,
    .write_rect = tp_write2, .tile_px = tp_tile2, .read_px = tp_read2, .src_transposed = 1,
    .cl_file = "box.cl", .cl_kernel = "transpose_pass2", .cl_group_w = TP_WG_W, .cl_group_h = TP_WG_H },
};

const ts_variant ts_variant_transpose2pass = {
  .name = "transpose2pass", .filter = TS_FILTER_BOX3,
  .summary = "X-direction code twice: the second pass runs over the transposed sums",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 8, .npasses = 2, .passes = tp_passes,
  .setup = tp_setup,
};
