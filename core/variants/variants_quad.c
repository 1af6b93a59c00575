/* boxquad and gaussquad: the box 3x3 and the Gaussian for a GPU, variants of tilescope's
 * own (kernels/quad.cl). A thread owns one aligned 16-byte word of each of 8 rows (box) or
 * 4 (Gaussian, whose window takes more registers) and loads
 * every input row it needs before it computes or stores anything. What makes them fast
 * there: 128-bit aligned loads and stores, the halo as aligned 32-bit words beside them (L1
 * hits), and all of a thread's loads in flight at once, since no store comes between them.
 * Rows that are not a multiple of 16 bytes long, and other Gaussian sizes than 5 x 5, read
 * byte by byte. */
#include "variant_internal.h"

enum { QD_W = 16, QD_H = 8, GQ_H = 4, GQ_HC = 8 };

/* The Gaussian's rows a tile, grey and with more channels: its kernels' own. */
static int gq_h(const ts_kctx *k) { return k->C == 1 ? GQ_H : GQ_HC; }

/* The thread space, write rectangle and tile of a variant whose thread owns QD_W bytes of
 * th rows. */
static void qd_space(const ts_kctx *k, int th, int *tw, int *nth)
{
  *tw = ts_ceil_div(k->W * k->C, QD_W);
  *nth = ts_ceil_div(k->H, th);
}

/* The pixels whose bytes the word holds (a pixel split between two words is in both). */
static ts_rect qd_tile(const ts_kctx *k, int th, int tx, int ty)
{
  int x0 = tx * QD_W / k->C, x1 = ts_ceil_div(tx * QD_W + QD_W, k->C);
  return (ts_rect){ x0, ty * th, x1 - x0, th };
}

/* What the kernel reads, as pixels: on the word path hw aligned words either side of its
 * own (bytes x - 4 hw .. x + 15 + 4 hw), else r pixels either side of its bytes; within
 * the row, and r rows above and below. */
static ts_rect qd_read(const ts_kctx *k, int th, int tx, int ty, int r, int words, int hw)
{
  int rowbytes = k->W * k->C, x = tx * QD_W, halo = words ? 4 * hw : r * k->C;
  int lo = x - halo < 0 ? 0 : x - halo;
  int hi = x + QD_W - 1 + halo > rowbytes - 1 ? rowbytes - 1 : x + QD_W - 1 + halo;
  return (ts_rect){ lo / k->C, ty * th - r, hi / k->C - lo / k->C + 1, th + 2 * r };
}

static void bq_space(const ts_kctx *k, int *tw, int *th) { qd_space(k, QD_H, tw, th); }
static void gq_space(const ts_kctx *k, int *tw, int *th) { qd_space(k, gq_h(k), tw, th); }

static ts_rect bq_write(const ts_kctx *k, int tx, int ty)
{
  return ts_clip(&k->buf[TS_BUF_OUT], tx * QD_W, ty * QD_H, QD_W, QD_H);
}

static ts_rect gq_write(const ts_kctx *k, int tx, int ty)
{
  return ts_clip(&k->buf[TS_BUF_OUT], tx * QD_W, ty * gq_h(k), QD_W, gq_h(k));
}

static ts_rect bq_tile(const ts_kctx *k, int tx, int ty) { return qd_tile(k, QD_H, tx, ty); }
static ts_rect gq_tile(const ts_kctx *k, int tx, int ty) { return qd_tile(k, gq_h(k), tx, ty); }

static ts_rect bq_read(const ts_kctx *k, int tx, int ty)
{
  return qd_read(k, QD_H, tx, ty, 1, k->W * k->C % QD_W == 0, 1);
}

static ts_rect gq_read(const ts_kctx *k, int tx, int ty)
{
  /* the word path's halo: the 2C bytes a 5 x 5 needs, in whole words */
  return qd_read(k, gq_h(k), tx, ty, k->r, k->r == 2 && k->W * k->C % QD_W == 0, (2 * k->C + 3) / 4);
}

static void bq_run(ts_kctx *k, int tx, int ty)
{
  const ts_buf *in = &k->buf[TS_BUF_IN];
  const int C = k->C;
  for (int y = ty * QD_H; y < ty * QD_H + QD_H; y++)
    for (int col = tx * QD_W; col < tx * QD_W + QD_W; col++) {
      int s = 0;
      for (int j = -1; j <= 1; j++)
        s += ts_ld8_col(in, C, col - C, y + j) + ts_ld8_col(in, C, col, y + j) +
             ts_ld8_col(in, C, col + C, y + j);
      ts_st8(&k->shadow[TS_BUF_OUT], col, y, ts_box_scale(s));
    }
}

static void gq_run(ts_kctx *k, int tx, int ty)
{
  const ts_buf *in = &k->buf[TS_BUF_IN];
  const int C = k->C, r = k->r;
  for (int y = ty * gq_h(k); y < ty * gq_h(k) + gq_h(k); y++)
    for (int col = tx * QD_W; col < tx * QD_W + QD_W; col++) {
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

static void qd_setup(ts_kctx *k)
{
  k->buf[TS_BUF_OUT] = (ts_buf){ .cols = k->W * k->C, .rows = k->H, .esize = 1 };
}

static const ts_pass_desc bq_pass[] = { {
    .name = "16-byte words, loads first", .src = TS_BUF_IN, .dst = TS_BUF_OUT,
    .tile = "16 bytes x 8 rows", .space = bq_space, .run = bq_run, .write_rect = bq_write,
    .tile_px = bq_tile, .read_px = bq_read, .cl_file = "quad.cl", .cl_kernel = "boxquad",
    .cl_kernel_colour = "boxquad_colour",
} };

static const ts_pass_desc gq_pass[] = { {
    .name = "16-byte words, loads first", .src = TS_BUF_IN, .dst = TS_BUF_OUT,
    .tile = "16 bytes x 4 rows (grey), 8 (more channels)", .space = gq_space, .run = gq_run,
    .write_rect = gq_write,
    .tile_px = gq_tile, .read_px = gq_read, .cl_file = "quad.cl", .cl_kernel = "gaussquad",
    .cl_kernel_colour = "gaussquad_colour",
} };

/* Private memory: the horizontal sums of the rows, 16 a row (16-bit; the Gaussian's 32-bit for
 * 3 and 4 channels), and a row's 32 bytes. */
const ts_variant ts_variant_boxquad = {
  .name = "boxquad", .filter = TS_FILTER_BOX3,
  .summary = "16-byte words x 8 rows, every load issued before any store: 128-bit aligned "
             "accesses, the halo from the neighbours' words (for GPUs)",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = (QD_H + 2) * 32 + 32, .npasses = 1,
  .passes = bq_pass, .setup = qd_setup,
};

const ts_variant ts_variant_gaussquad = {
  .name = "gaussquad", .filter = TS_FILTER_GAUSS,
  .summary = "16-byte words x 4 rows (8 in colour), every load issued before any store: 128-bit aligned "
             "accesses, the 5-tap halo from the neighbours' words (for GPUs)",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = (GQ_HC + 4) * 64 + 32, .npasses = 1,
  .passes = gq_pass, .setup = qd_setup,
};
