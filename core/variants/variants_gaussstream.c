/* gauss_stream: the Gaussian for a CPU, a variant of tilescope's own (the seed's tile is
 * gauss_local's). A thread owns 4 whole rows of the output and streams along each: the
 * vertical sums v of the 2r + 1 input rows around it first, then the horizontal pass over
 * them, in exact 16-bit vector arithmetic: with vh = v >> 8, A = sum w_i vh_i and
 * L = sum w_i v_i modulo 2^16, B = L - 256 A (mod 2^16) is the exact remainder and
 * out = (A + (B >> 8) + 128) >> 8. What makes it fast on a CPU: memory walked along rows as
 * a copy walks it (the prefetchers follow), every tap unrolled with r and C constants, 32
 * lanes a vector op on x86 (16 elsewhere). This model computes the same 16-bit quantities
 * byte by byte. */
#include "variant_internal.h"

enum { GT_H = 4, GT_CW = 512, GT_HALO = 32, GT_BUF = GT_CW + 32 + 2 * GT_HALO };

static void gt_space(const ts_kctx *k, int *tw, int *th)
{
  *tw = 1;
  *th = ts_ceil_div(k->H, GT_H);
}

static ts_rect gt_write(const ts_kctx *k, int tx, int ty)
{
  (void)tx;
  return ts_clip(&k->buf[TS_BUF_OUT], 0, ty * GT_H, k->W * k->C, GT_H);
}

static ts_rect gt_tile(const ts_kctx *k, int tx, int ty)
{
  (void)tx;
  return (ts_rect){ 0, ty * GT_H, k->W, GT_H };
}

static ts_rect gt_read(const ts_kctx *k, int tx, int ty)
{
  (void)tx;
  return (ts_rect){ -k->r, ty * GT_H - k->r, k->W + 2 * k->r, GT_H + 2 * k->r };
}

/* The vertical sum at byte column col (clamped to its channel of the edge pixel) around row
 * y: at most 255 * 256, exact in 16 bits. */
static uint16_t gt_v(const ts_kctx *k, int col, int y)
{
  uint32_t s = 0;
  for (int j = -k->r; j <= k->r; j++)
    s += k->w1[j + k->r] * ts_ld8_col(&k->buf[TS_BUF_IN], k->C, col, y + j);
  return (uint16_t)s;
}

static void gt_run(ts_kctx *k, int tx, int ty)
{
  (void)tx;
  const int C = k->C, r = k->r;
  for (int y = ty * GT_H; y < ty * GT_H + GT_H && y < k->H; y++)
    for (int col = 0; col < k->W * C; col++) {
      uint16_t L = 0, A = 0; /* both modulo 2^16, as the kernel's vector lanes */
      for (int i = -r; i <= r; i++) {
        uint16_t v = gt_v(k, col + i * C, y);
        L = (uint16_t)(L + k->w1[i + r] * v);
        A = (uint16_t)(A + k->w1[i + r] * (v >> 8));
      }
      uint16_t B = (uint16_t)(L - (A << 8));
      ts_st8(&k->shadow[TS_BUF_OUT], col, y, (uint8_t)((A + (B >> 8) + 128) >> 8));
    }
}

static void gt_setup(ts_kctx *k)
{
  k->buf[TS_BUF_OUT] = (ts_buf){ .cols = k->W * k->C, .rows = k->H, .esize = 1 };
}

static const ts_pass_desc gt_pass[] = { {
    .name = "separable, vertical first, streamed along rows", .src = TS_BUF_IN,
    .dst = TS_BUF_OUT, .tile = "4 whole rows (one work-item)", .space = gt_space,
    .run = gt_run, .write_rect = gt_write, .tile_px = gt_tile, .read_px = gt_read,
    .cl_file = "gaussstream.cl", .cl_kernel = "gauss_stream",
} };

/* Declared: the vertical sums of one chunk of a row and their high bytes, 16 bits each
 * (GT_BUF entries: 512 bytes of row, up to 31 more for the last chunk, a 32-byte halo
 * either side). The input rows are read where they are, through the caches. */
const ts_variant ts_variant_gauss_stream = {
  .name = "gauss_stream", .filter = TS_FILTER_GAUSS,
  .summary = "4 whole rows a work-item, streamed along: vertical sums first, then exact 16-bit "
             "vector taps with r and C constants (for CPUs)",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 2 * GT_BUF * 2, .npasses = 1,
  .passes = gt_pass, .setup = gt_setup,
};
