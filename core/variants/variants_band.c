/* integral_band: the integral image for a CPU, a variant of tilescope's own
 * (kernels/integral_band.cl): reduce-then-scan in bands of 256 rows. Pass 1, a thread per
 * band, sums the band's columns into its row of MID; pass 2, a thread per 64-column strip,
 * adds those up down the bands and writes, at each band's first row of OUT, the column sums
 * of every row above it; pass 3, a thread per band, turns those carries and the first row's
 * bytes into the first row's sums, then makes each later row from the row above plus the
 * prefix sums of its bytes. What makes it fast: the bytes read twice and the sums written
 * once (about 6 bytes of traffic a pixel, against integral_scan's 13), every pass walking
 * its rows in memory order, the prefix sums along a row taken 16 lanes at a time in 16-bit
 * vectors, the row above kept in private memory (L1) so that the output is only written,
 * and streamed past the caches. */
#include <limits.h>

#include "variant_internal.h"

enum { BD_H = 256, BD_S = 64, BD_CW = 4096 };

static int bd_bands(const ts_kctx *k)
{
  return ts_ceil_div(k->H, BD_H);
}

static void bd_space1(const ts_kctx *k, int *tw, int *th)
{
  *tw = 1;
  *th = bd_bands(k);
}

static void bd_space2(const ts_kctx *k, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W, BD_S);
  *th = 1;
}

static ts_rect bd_write1(const ts_kctx *k, int tx, int ty)
{
  (void)tx;
  return ts_clip(&k->buf[TS_BUF_MID], 0, ty, k->W, 1);
}

static ts_rect bd_strip(const ts_kctx *k, int tx, int ty)
{
  (void)ty;
  return (ts_rect){ tx * BD_S, 0, BD_S, k->H };
}

/* Pass 2 reads MID, whose rows are bands: the totals of every band but the last. */
static ts_rect bd_read2(const ts_kctx *k, int tx, int ty)
{
  (void)ty;
  return (ts_rect){ tx * BD_S, 0, BD_S, bd_bands(k) - 1 };
}

/* Rows 0, 64, 128, ... of the strip: the bounding rectangle, down to the last band's first. */
static ts_rect bd_write2(const ts_kctx *k, int tx, int ty)
{
  (void)ty;
  return ts_clip(&k->buf[TS_BUF_OUT], tx * BD_S, 0, BD_S, (bd_bands(k) - 1) * BD_H + 1);
}

static ts_rect bd_band(const ts_kctx *k, int tx, int ty)
{
  (void)tx;
  return (ts_rect){ 0, ty * BD_H, k->W, BD_H };
}

static ts_rect bd_write3(const ts_kctx *k, int tx, int ty)
{
  (void)tx;
  return ts_clip(&k->buf[TS_BUF_OUT], 0, ty * BD_H, k->W, BD_H);
}

/* The band's first row of OUT, the carries pass 2 left there: written later by the same
 * thread, so never a hazard (one tile spans the row: wtile_w below). */
static int bd_self_reads3(const ts_kctx *k, int tx, int ty, ts_rect *out)
{
  (void)tx;
  out[0] = (ts_rect){ 0, ty * BD_H, k->W, 1 };
  return 1;
}

static void bd_totals_run(ts_kctx *k, int tx, int ty)
{
  (void)tx;
  const ts_buf *in = &k->buf[TS_BUF_IN];
  const int y0 = ty * BD_H, y1 = ts_mini(y0 + BD_H, k->H);
  for (int x = 0; x < k->W; x++) {
    uint32_t s = 0;
    for (int y = y0; y < y1; y++)
      s += in->data[(size_t)y * (size_t)in->cols + (size_t)x];
    ts_st32(&k->shadow[TS_BUF_MID], x, ty, s);
  }
}

static void bd_carry_run(ts_kctx *k, int tx, int ty)
{
  (void)ty;
  const int x0 = tx * BD_S, x1 = ts_mini(x0 + BD_S, k->W), nb = bd_bands(k);
  for (int x = x0; x < x1; x++) {
    uint32_t c = 0;
    for (int b = 0; b < nb; b++) {
      ts_st32(&k->shadow[TS_BUF_OUT], x, b * BD_H, c);
      if (b + 1 < nb)
        c += ts_ld32(&k->buf[TS_BUF_MID], x, b);
    }
  }
}

/* The first row from the carries (committed) and its bytes; each later row from the row
 * above and the prefix sums of its bytes. The kernel keeps the row above in private memory;
 * here it is read back from where this thread wrote it. */
static void bd_scan_run(ts_kctx *k, int tx, int ty)
{
  (void)tx;
  const ts_buf *in = &k->buf[TS_BUF_IN];
  ts_buf *out = &k->shadow[TS_BUF_OUT];
  const int y0 = ty * BD_H, y1 = ts_mini(y0 + BD_H, k->H);
  const uint8_t *row = in->data + (size_t)y0 * (size_t)in->cols;
  uint32_t s = 0;
  for (int x = 0; x < k->W; x++) {
    s += ts_ld32(&k->buf[TS_BUF_OUT], x, y0) + row[x];
    ts_st32(out, x, y0, s);
  }
  for (int y = y0 + 1; y < y1; y++) {
    row = in->data + (size_t)y * (size_t)in->cols;
    s = 0;
    for (int x = 0; x < k->W; x++) {
      s += row[x];
      ts_st32(out, x, y, ts_ld32(out, x, y - 1) + s);
    }
  }
}

/* integral_lookback_band: the band from the output's row above it, as committed when it
 * starts, then each row from the one above (read back from where this thread wrote it). */
static void bl_run(ts_kctx *k, int tx, int ty)
{
  (void)tx;
  const ts_buf *in = &k->buf[TS_BUF_IN];
  ts_buf *out = &k->shadow[TS_BUF_OUT];
  const int y0 = ty * BD_H, y1 = ts_mini(y0 + BD_H, k->H);
  for (int y = y0; y < y1; y++) {
    const uint8_t *row = in->data + (size_t)y * (size_t)in->cols;
    const ts_buf *above = y == y0 ? &k->buf[TS_BUF_OUT] : out;
    uint32_t s = 0;
    for (int x = 0; x < k->W; x++) {
      s += row[x];
      ts_st32(out, x, y, (y > 0 ? ts_ld32(above, x, y - 1) : 0) + s);
    }
  }
}

/* The output's row above the band, which the band above wrote: the pattern horizontal. */
static int bl_self_reads(const ts_kctx *k, int tx, int ty, ts_rect *out)
{
  (void)tx;
  if (ty == 0)
    return 0;
  out[0] = (ts_rect){ 0, ty * BD_H - 1, k->W, 1 };
  return 1;
}

static void bd_setup(ts_kctx *k)
{
  ts_integral_setup(k);
  k->buf[TS_BUF_MID] = (ts_buf){ .cols = k->W, .rows = bd_bands(k), .esize = 4 };
}

static const ts_pass_desc bd_passes[] = {
  { .name = "column totals of each band", .src = TS_BUF_IN, .dst = TS_BUF_MID,
    .tile = "256 rows, the whole width", .space = bd_space1, .run = bd_totals_run,
    .write_rect = bd_write1, .tile_px = bd_band, .read_px = bd_band,
    .cl_file = "integral_band.cl", .cl_kernel = "integral_band_totals", .cl_group_w = 1,
    .cl_group_h = 1 },
  { .name = "carries: column sums above each band", .src = TS_BUF_MID, .dst = TS_BUF_OUT,
    .tile = "64 columns, every band", .space = bd_space2, .run = bd_carry_run,
    .write_rect = bd_write2, .tile_px = bd_strip, .read_px = bd_read2,
    .cl_file = "integral_band.cl", .cl_kernel = "integral_band_carry" },
  { .name = "scan of each band from its carries", .src = TS_BUF_IN, .dst = TS_BUF_OUT,
    .tile = "256 rows, the whole width", .space = bd_space1, .run = bd_scan_run,
    .write_rect = bd_write3, .tile_px = bd_band, .read_px = bd_band,
    .self_reads = bd_self_reads3, .wtile_w = INT_MAX, .wtile_h = BD_H,
    .cl_file = "integral_band.cl", .cl_kernel = "integral_band_scan", .cl_group_w = 1,
    .cl_group_h = 1 },
};

/* The scan's row above (4096 columns at most: wider images go in chunks) and its rows' sums
 * left of the chunk: past a GPU thread's register budget, L1 on a CPU. */
const ts_variant ts_variant_integral_band = {
  .name = "integral_band", .filter = TS_FILTER_INTEGRAL,
  .summary = "bytes read twice, sums written once: 256-row bands' column totals, their carries, "
             "then each band row by row from the row above in L1, sums streamed past the caches "
             "(for CPUs)",
  .pattern = TS_PAT_NONE, .cost = 1, .private_bytes = BD_CW * 4 + BD_H * 4,
  .npasses = 3, .passes = bd_passes, .setup = bd_setup,
};

/* A band publishes its column totals, a word a column of the image (cl_dev_sums_cols). */
static const ts_pass_desc bl_pass[] = {
  { .name = "each band from the row above it", .src = TS_BUF_IN, .dst = TS_BUF_OUT,
    .tile = "256 rows, the whole width", .space = bd_space1, .run = bl_run,
    .write_rect = bd_write3, .tile_px = bd_band, .read_px = bd_band,
    .self_reads = bl_self_reads, .wtile_w = INT_MAX, .wtile_h = BD_H,
    .cl_file = "integral_band.cl", .cl_kernel = "integral_lookback_band", .cl_group_w = 1,
    .cl_group_h = 1, .cl_dev_sums_cols = 1 },
};

/* The chunk's row above (a 4096-column chunk at most) and each row's sum left of it. */
const ts_variant ts_variant_integral_lookback_band = {
  .name = "integral_lookback_band", .filter = TS_FILTER_INTEGRAL,
  .summary = "integral_band in one launch: each 256-row band publishes its column totals, then "
             "looks back up the bands for the row above it (decoupled look-back), so its bytes "
             "cross memory once (for CPUs)",
  .pattern = TS_PAT_HORIZONTAL, .cost = 1, .private_bytes = BD_CW * 4 + BD_H * 4,
  .npasses = 1, .passes = bl_pass, .setup = ts_integral_setup,
};
