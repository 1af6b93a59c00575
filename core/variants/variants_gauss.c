/* Gaussian k x k variants (seed: the Thorin shared-memory report). Fixed point so that
 * every variant is bit-exact: 1-D weights sum to 256, the 2-D weight is w_i * w_j (sum
 * 65536) and out = (S + 32768) >> 16. gauss_global loads k*k pixels per work-item;
 * gauss_local stages the work-group's tile plus halo in local memory first;
 * gauss_local_sep also runs the horizontal pass into a second local array; gauss_slide
 * gives one work-item a 48-byte x 64-row strip and slides a k-row window of horizontal sums
 * down it in private memory, the linear box variants' idea applied to a wider filter. */
#include <math.h>

#include "variant_internal.h"

enum { GWG = 16, GMAX = GWG + TS_GAUSS_MAX_K - 1 };

double ts_gauss_default_sigma(int ksize)
{
  return 0.3 * ((ksize - 1) / 2.0 - 1.0) + 0.8;
}

ts_status ts_gauss_weights(int ksize, double sigma, uint32_t *w, ts_error *err)
{
  if (ksize < 3 || ksize > TS_GAUSS_MAX_K || ksize % 2 == 0)
    return ts_fail(err, TS_ERR_ARG, "--kernel-size %d: must be odd, 3 to %d", ksize,
                   TS_GAUSS_MAX_K);
  if (sigma <= 0.0)
    sigma = ts_gauss_default_sigma(ksize);
  if (!(sigma >= 0.01 && sigma <= 100.0))
    return ts_fail(err, TS_ERR_ARG, "--sigma %g: must be between 0.01 and 100", sigma);
  int r = ksize / 2;
  double g[TS_GAUSS_MAX_K], sum = 0.0;
  for (int i = 0; i < ksize; i++) {
    g[i] = exp(-(double)((i - r) * (i - r)) / (2.0 * sigma * sigma));
    sum += g[i];
  }
  long total = 0;
  for (int i = 0; i < ksize; i++) {
    w[i] = (uint32_t)lround(256.0 * g[i] / sum);
    total += (long)w[i];
  }
  w[r] = (uint32_t)((long)w[r] + 256 - total); /* the centre absorbs the rounding */
  return TS_OK;
}

static void g_space(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W, GWG);
  *th = ts_ceil_div(k->H, GWG);
}

static ts_rect g_write(const ts_kctx *k, int tx, int ty)
{
  return ts_clip(&k->buf[TS_BUF_OUT], tx * GWG * k->C, ty * GWG, GWG * k->C, GWG);
}

static ts_rect g_tile(const ts_kctx *k, int tx, int ty)
{
  (void)k;
  return (ts_rect){ tx * GWG, ty * GWG, GWG, GWG };
}

static ts_rect g_read(const ts_kctx *k, int tx, int ty)
{
  return (ts_rect){ tx * GWG - k->r, ty * GWG - k->r, GWG + 2 * k->r, GWG + 2 * k->r };
}

/* gauss_global: every work-item reads its k x k window straight from global memory. */
static void gauss_global_run(ts_kctx *k, int tx, int ty)
{
  const ts_buf *in = &k->buf[TS_BUF_IN];
  const int C = k->C, r = k->r;
  for (int ly = 0; ly < GWG; ly++)
    for (int lx = 0; lx < GWG; lx++) {
      int x = tx * GWG + lx, y = ty * GWG + ly;
      if (x >= k->W || y >= k->H)
        continue;
      for (int c = 0; c < C; c++) {
        uint32_t s = 0;
        for (int j = -r; j <= r; j++)
          for (int i = -r; i <= r; i++)
            s += k->w1[j + r] * k->w1[i + r] * ts_ld8(in, C, x + i, y + j, c);
        ts_st8(&k->shadow[TS_BUF_OUT], x * C + c, y, ts_gauss_round(s));
      }
    }
}

/* The work-group's input tile plus a halo of r on each side, (16 + 2r)^2 pixels, copied
 * cooperatively into local memory (here: one loop standing for all work-items), clamped at
 * the image edge. The barrier that follows on the device is the end of this function. */
static void stage_tile(const ts_kctx *k, int tx, int ty, uint8_t tile[GMAX][GMAX * 4])
{
  const int C = k->C, side = GWG + 2 * k->r;
  for (int j = 0; j < side; j++)
    for (int i = 0; i < side; i++)
      for (int c = 0; c < C; c++)
        tile[j][i * C + c] = ts_ld8(&k->buf[TS_BUF_IN], C, tx * GWG - k->r + i,
                                    ty * GWG - k->r + j, c);
}

static void gauss_local_run(ts_kctx *k, int tx, int ty)
{
  uint8_t tile[GMAX][GMAX * 4];
  const int C = k->C, r = k->r;
  stage_tile(k, tx, ty, tile);
  for (int ly = 0; ly < GWG; ly++)
    for (int lx = 0; lx < GWG; lx++)
      for (int c = 0; c < C; c++) {
        uint32_t s = 0;
        for (int j = 0; j <= 2 * r; j++)
          for (int i = 0; i <= 2 * r; i++)
            s += k->w1[j] * k->w1[i] * tile[ly + j][(lx + i) * C + c];
        ts_st8(&k->shadow[TS_BUF_OUT], (tx * GWG + lx) * C + c, ty * GWG + ly,
               ts_gauss_round(s));
      }
}

/* gauss_local_sep: horizontal pass over all 16 + 2r staged rows into a second local array
 * (full 32-bit sums), barrier, then the vertical pass. Equal to the 2-D form exactly. */
static void gauss_local_sep_run(ts_kctx *k, int tx, int ty)
{
  uint8_t tile[GMAX][GMAX * 4];
  uint32_t h[GMAX][GWG * 4];
  const int C = k->C, r = k->r, side = GWG + 2 * r;
  stage_tile(k, tx, ty, tile);
  for (int j = 0; j < side; j++)
    for (int lx = 0; lx < GWG; lx++)
      for (int c = 0; c < C; c++) {
        uint32_t s = 0;
        for (int i = 0; i <= 2 * r; i++)
          s += k->w1[i] * tile[j][(lx + i) * C + c];
        h[j][lx * C + c] = s;
      }
  for (int ly = 0; ly < GWG; ly++)
    for (int lx = 0; lx < GWG; lx++)
      for (int c = 0; c < C; c++) {
        uint32_t s = 0;
        for (int j = 0; j <= 2 * r; j++)
          s += k->w1[j] * h[ly + j][lx * C + c];
        ts_st8(&k->shadow[TS_BUF_OUT], (tx * GWG + lx) * C + c, ty * GWG + ly,
               ts_gauss_round(s));
      }
}

static void g_setup(ts_kctx *k)
{
  k->buf[TS_BUF_OUT] = (ts_buf){ .cols = k->W * k->C, .rows = k->H, .esize = 1 };
}

/* The staged tile: (16 + 2r)^2 pixels. */
static int g_local_bytes(const ts_kctx *k)
{
  int side = GWG + 2 * k->r;
  return side * side * k->C;
}

/* The staged tile (padded to 4 bytes), then (16 + 2r) x 16 horizontal sums of 32 bits. */
static int g_local_sep_bytes(const ts_kctx *k)
{
  int side = GWG + 2 * k->r;
  return ((side * side * k->C + 3) & ~3) + side * GWG * k->C * 4;
}

#define G_PASS(fn, what, kernel) { .name = what, .src = TS_BUF_IN, .dst = TS_BUF_OUT,          \
    .tile = "16x16 pixels (one work-group)", .space = g_space, .run = fn, .write_rect = g_write, \
    .tile_px = g_tile, .read_px = g_read, .cl_file = "gauss.cl", .cl_kernel = kernel,           \
    .cl_group_w = GWG, .cl_group_h = GWG }

static const ts_pass_desc gauss_global_pass[] = { G_PASS(gauss_global_run, "2-D, global",
                                                         "gauss_global") };
static const ts_pass_desc gauss_local_pass[] = { G_PASS(gauss_local_run, "2-D, local tile",
                                                        "gauss_local") };
static const ts_pass_desc gauss_local_sep_pass[] = { G_PASS(gauss_local_sep_run,
                                                            "separable, local tile",
                                                            "gauss_local_sep") };

const ts_variant ts_variant_gauss_global = {
  .name = "gauss_global", .filter = TS_FILTER_GAUSS,
  .summary = "baseline: k*k global loads per pixel",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 8, .npasses = 1,
  .passes = gauss_global_pass, .setup = g_setup,
};

const ts_variant ts_variant_gauss_local = {
  .name = "gauss_local", .filter = TS_FILTER_GAUSS,
  .summary = "work-group stages its tile plus halo in local memory, then filters from it",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 8, .npasses = 1,
  .passes = gauss_local_pass, .setup = g_setup, .local_bytes = g_local_bytes,
};

const ts_variant ts_variant_gauss_local_sep = {
  .name = "gauss_local_sep", .filter = TS_FILTER_GAUSS,
  .summary = "local tile, horizontal pass into a second local array, then vertical",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 8, .npasses = 1,
  .passes = gauss_local_sep_pass, .setup = g_setup, .local_bytes = g_local_sep_bytes,
};

/* ---- gauss_slide: 48 bytes x 64 rows per work-item (16 RGB pixels, 48 grey, 12 RGBA). It
 * walks the 64 + 2r input rows of its strip once: each row's horizontal sums (16-bit: at
 * most 255 * 256) enter a ring of k rows; once the ring is full, every new row yields one
 * output row from the vertical weighted sum of the ring. Every input row is read once. ---- */

enum { GS_W = 48, GS_H = 64, GS_IN_MAX = GS_W + (TS_GAUSS_MAX_K - 1) * 4 };

static void gs_space(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W * k->C, GS_W);
  *th = ts_ceil_div(k->H, GS_H);
}

static ts_rect gs_write(const ts_kctx *k, int tx, int ty)
{
  return ts_clip(&k->buf[TS_BUF_OUT], tx * GS_W, ty * GS_H, GS_W, GS_H);
}

static ts_rect gs_tile(const ts_kctx *k, int tx, int ty)
{
  int pw = GS_W / k->C;
  return (ts_rect){ tx * pw, ty * GS_H, pw, GS_H };
}

static ts_rect gs_read(const ts_kctx *k, int tx, int ty)
{
  int pw = GS_W / k->C;
  return (ts_rect){ tx * pw - k->r, ty * GS_H - k->r, pw + 2 * k->r, GS_H + 2 * k->r };
}

static void gauss_slide_run(ts_kctx *k, int tx, int ty)
{
  const int C = k->C, r = k->r, ksize = 2 * r + 1, col0 = tx * GS_W - r * C;
  uint8_t in[GS_IN_MAX];
  uint16_t ring[TS_GAUSS_MAX_K][GS_W]; /* horizontal sums of the last k input rows */
  for (int j = 0; j < GS_H + 2 * r; j++) {
    int row = ty * GS_H - r + j;
    for (int b = 0; b < GS_W + 2 * r * C; b++)
      in[b] = ts_ld8_col(&k->buf[TS_BUF_IN], C, col0 + b, row);
    uint16_t *h = ring[j % ksize];
    for (int b = 0; b < GS_W; b++) {
      uint32_t s = 0;
      for (int i = 0; i < ksize; i++)
        s += k->w1[i] * in[b + i * C];
      h[b] = (uint16_t)s;
    }
    if (j < 2 * r)
      continue; /* the window is not full yet */
    for (int b = 0; b < GS_W; b++) {
      uint32_t s = 0;
      for (int i = 0; i < ksize; i++) /* ring row of input row j - 2r + i */
        s += k->w1[i] * ring[(j - 2 * r + i) % ksize][b];
      ts_st8(&k->shadow[TS_BUF_OUT], tx * GS_W + b, ty * GS_H + j - 2 * r, ts_gauss_round(s));
    }
  }
}

static const ts_pass_desc gauss_slide_pass[] = { {
    .name = "separable, sliding window", .src = TS_BUF_IN, .dst = TS_BUF_OUT,
    .tile = "48 bytes x 64 rows (one work-item)", .space = gs_space, .run = gauss_slide_run,
    .write_rect = gs_write, .tile_px = gs_tile, .read_px = gs_read, .cl_file = "gauss.cl",
    .cl_kernel = "gauss_slide", .cl_group_w = 1, .cl_group_h = 1,
} };

/* Declared for k = 5: the ring of 5 x 48 16-bit sums, and the clamped copy of an input row
 * that strips at the image's left or right edge work from (48 + 14 * 4 = 104 B); at k = 15
 * the ring is 1440 B. Strips inside the image read their rows straight from global memory. */
const ts_variant ts_variant_gauss_slide = {
  .name = "gauss_slide", .filter = TS_FILTER_GAUSS,
  .summary = "one work-item per 48-byte x 64-row strip: a k-row ring of horizontal sums slides down",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = 5 * GS_W * 2 + GS_IN_MAX, .npasses = 1,
  .passes = gauss_slide_pass, .setup = g_setup,
};
