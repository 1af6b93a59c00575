/* gaussword: the Gaussian for a GPU, a variant of tilescope's own. A thread owns one aligned
 * 32-bit word of each row (4 bytes) for 32 rows and walks down it with the horizontal sums
 * of the last k rows. What makes it fast there: at 5 x 5 each input row is a few aligned
 * word loads (its own and its neighbours', L1 hits on a GPU where a warp's loads are whole
 * cache lines), the window stays in registers, and there are many threads. Columns at the
 * row's ends, rows not a multiple of 4 bytes long and other sizes read byte by byte. */
#include "variant_internal.h"

enum { GW_W = 4, GW_H = 32 };

static void gw_space(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W * k->C, GW_W);
  *th = ts_ceil_div(k->H, GW_H);
}

static ts_rect gw_write(const ts_kctx *k, int tx, int ty)
{
  return ts_clip(&k->buf[TS_BUF_OUT], tx * GW_W, ty * GW_H, GW_W, GW_H);
}

static ts_rect gw_tile(const ts_kctx *k, int tx, int ty)
{
  int x0 = tx * GW_W / k->C, x1 = ts_ceil_div(tx * GW_W + GW_W, k->C);
  return (ts_rect){ x0, ty * GW_H, x1 - x0, GW_H };
}

/* What the kernel reads, as pixels: whole words either side of its own (enough for r * C
 * bytes) when it takes the word path, else r pixels either side of its bytes, clamped. */
static ts_rect gw_read(const ts_kctx *k, int tx, int ty)
{
  int C = k->C, r = k->r, rowbytes = k->W * C, x = tx * GW_W, hw = (r * C + 3) / 4, p0, p1;
  if (r == 2 && rowbytes % 4 == 0 && x - 4 * hw >= 0 && x + 4 + 4 * hw <= rowbytes) {
    p0 = (x - 4 * hw) / C;
    p1 = (x + 3 + 4 * hw) / C;
  } else {
    int last = x + 3 < rowbytes ? x + 3 : rowbytes - 1;
    p0 = ts_clampi(x / C - r, 0, k->W - 1);
    p1 = ts_clampi(last / C + r, 0, k->W - 1);
  }
  return (ts_rect){ p0, ty * GW_H - r, p1 - p0 + 1, GW_H + 2 * r };
}

static void gw_run(ts_kctx *k, int tx, int ty)
{
  const ts_buf *in = &k->buf[TS_BUF_IN];
  const int C = k->C, r = k->r;
  for (int y = ty * GW_H; y < ty * GW_H + GW_H; y++)
    for (int i = 0; i < GW_W; i++) {
      int col = tx * GW_W + i;
      uint32_t s = 0;
      for (int j = -r; j <= r; j++) {
        uint32_t h = 0;
        for (int t = -r; t <= r; t++)
          h += k->w1[t + r] * ts_ld8_col(in, C, col + t * C, y + j);
        s += k->w1[j + r] * h;
      }
      ts_st8(&k->shadow[TS_BUF_OUT], col, y, ts_gauss_round(s));
    }
}

static void gw_setup(ts_kctx *k)
{
  k->buf[TS_BUF_OUT] = (ts_buf){ .cols = k->W * k->C, .rows = k->H, .esize = 1 };
}

static const ts_pass_desc gw_pass[] = { {
    .name = "separable, sliding window", .src = TS_BUF_IN, .dst = TS_BUF_OUT,
    .tile = "4 bytes x 32 rows", .space = gw_space, .run = gw_run, .write_rect = gw_write,
    .tile_px = gw_tile, .read_px = gw_read, .cl_file = "gaussword.cl", .cl_kernel = "gaussword",
} };

/* Declared for k = 5: five rows of four 16-bit sums and the 20 bytes of a row's words. */
const ts_variant ts_variant_gaussword = {
  .name = "gaussword", .filter = TS_FILTER_GAUSS,
  .summary = "a 4-byte word streamed down 32 rows: aligned 32-bit loads, the 5-row window in "
             "registers (for GPUs)",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 5 * 8 + 20, .npasses = 1,
  .passes = gw_pass, .setup = gw_setup,
};
