/* Internal helpers shared by the CPU models of the variants: clamped loads (out-of-image
 * reads clamp to the nearest edge, as media-block reads do) and clipped stores
 * (out-of-image writes are dropped). Not part of the public API. */
#ifndef TS_VARIANT_INTERNAL_H
#define TS_VARIANT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ts_image.h"
#include "ts_variant.h"

static inline int ts_clampi(int v, int lo, int hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

static inline int ts_mini(int a, int b)
{
  return a < b ? a : b;
}

/* The integral image's output: W x H sums of 32 bits (variants_integral.c). */
void ts_integral_setup(ts_kctx *k);

/* The output an integral-image block at (x0, y0), tw x th before clipping, reads of its
 * finished neighbours: the column to its left, the row above, their corner. Returns the
 * rectangles written to out (at most 3). */
static inline int ts_integral_neighbours(const ts_kctx *k, int x0, int y0, int tw, int th,
                                         ts_rect *out)
{
  int n = 0, bw = ts_mini(tw, k->W - x0), bh = ts_mini(th, k->H - y0);
  if (x0 > 0)
    out[n++] = (ts_rect){ x0 - 1, y0, 1, bh };
  if (y0 > 0)
    out[n++] = (ts_rect){ x0, y0 - 1, bw, 1 };
  if (x0 > 0 && y0 > 0)
    out[n++] = (ts_rect){ x0 - 1, y0 - 1, 1, 1 };
  return n;
}

static inline int ts_ceil_div(int a, int b)
{
  return (a + b - 1) / b;
}

/* Channel c of pixel (x, y) of an 8-bit buffer of C channels, clamped to the edge. */
static inline uint8_t ts_ld8(const ts_buf *b, int C, int x, int y, int c)
{
  x = ts_clampi(x, 0, b->cols / C - 1);
  y = ts_clampi(y, 0, b->rows - 1);
  return b->data[(size_t)y * (size_t)b->cols + (size_t)x * C + c];
}

/* Byte column `col` of row `row`: a column outside the row maps to the same channel of
 * the nearest edge pixel. */
static inline uint8_t ts_ld8_col(const ts_buf *b, int C, int col, int row)
{
  int px = col >= 0 ? col / C : -((-col + C - 1) / C);
  return ts_ld8(b, C, px, row, col - px * C);
}

/* The luma of pixel (x, y) of the input (inside it), as an own_luma variant reads it: the byte
 * itself when grey, else ts_luma of its first three channels. */
static inline uint32_t ts_ld_luma(const ts_kctx *k, int x, int y)
{
  const ts_buf *in = &k->buf[TS_BUF_IN];
  const uint8_t *p = in->data + (size_t)y * (size_t)in->cols + (size_t)x * (size_t)k->in_c;
  return k->in_c == 1 ? p[0] : ts_luma(p[0], p[1], p[2]);
}

static inline uint16_t ts_ld16(const ts_buf *b, int C, int x, int y, int c)
{
  x = ts_clampi(x, 0, b->cols / C - 1);
  y = ts_clampi(y, 0, b->rows - 1);
  return ((const uint16_t *)b->data)[(size_t)y * (size_t)b->cols + (size_t)x * C + c];
}

static inline int ts_in_buf(const ts_buf *b, int col, int row)
{
  return col >= 0 && row >= 0 && col < b->cols && row < b->rows;
}

static inline void ts_st8(ts_buf *b, int col, int row, uint8_t v)
{
  if (ts_in_buf(b, col, row))
    b->data[(size_t)row * (size_t)b->cols + (size_t)col] = v;
}

static inline void ts_st16(ts_buf *b, int col, int row, uint16_t v)
{
  if (ts_in_buf(b, col, row))
    ((uint16_t *)b->data)[(size_t)row * (size_t)b->cols + (size_t)col] = v;
}

static inline uint32_t ts_ld32(const ts_buf *b, int col, int row)
{
  return ((const uint32_t *)b->data)[(size_t)row * (size_t)b->cols + (size_t)col];
}

static inline void ts_st32(ts_buf *b, int col, int row, uint32_t v)
{
  if (ts_in_buf(b, col, row))
    ((uint32_t *)b->data)[(size_t)row * (size_t)b->cols + (size_t)col] = v;
}

/* Box 3x3 scale: one float32 multiply by 0.111f, truncated toward zero. */
static inline uint8_t ts_box_scale(int sum)
{
  return (uint8_t)((float)sum * 0.111f);
}

/* Gaussian: (S + 32768) >> 16 with weights summing to 65536. */
static inline uint8_t ts_gauss_round(uint32_t s)
{
  return (uint8_t)((s + 32768u) >> 16);
}

/* A clipped rectangle of cols x rows at (x, y) inside a buffer. */
static inline ts_rect ts_clip(const ts_buf *b, int x, int y, int w, int h)
{
  int x1 = ts_mini(x + w, b->cols), y1 = ts_mini(y + h, b->rows);
  ts_rect r = { x, y, x1 > x ? x1 - x : 0, y1 > y ? y1 - y : 0 };
  return r;
}

extern const ts_variant ts_variant_box2d, ts_variant_linear1d2, ts_variant_linearslide,
    ts_variant_linearslide2, ts_variant_transpose2pass, ts_variant_gauss_global,
    ts_variant_gauss_local, ts_variant_gauss_local_sep, ts_variant_gauss_slide,
    ts_variant_integral, ts_variant_integral_scan, ts_variant_boxstrip, ts_variant_boxband, ts_variant_boxword,
    ts_variant_gaussword, ts_variant_boxquad, ts_variant_gaussquad, ts_variant_gauss_stream,
    ts_variant_integral_colrow, ts_variant_integral_band, ts_variant_integral_lookback,
    ts_variant_integral_lookback_wide, ts_variant_integral_lookback_band;

#endif
