/* integral_band: the integral image for a CPU (not in the seed), reduce-then-scan in bands of
 * IBD_H rows, so that the bytes are read twice and each 32-bit sum written once:
 *  1. totals: a work-item per strip of IBD_S columns of a band sums the band's rows of it:
 *     the band's column totals, in MID (one row of W sums per band);
 *  2. carry: a work-item per strip runs down the bands adding those totals up, and writes
 *     at each band's first row of OUT the column sums of all the rows above the band;
 *  3. scan: a work-item per band reads those carries back (through committed, before it
 *     overwrites them) and crosses the width strip by strip, each strip down the band's
 *     rows: a row's bytes become prefix sums along the strip in 16-bit lanes, added to the
 *     strip's running prefix of column sums (kept in registers), plus the row's sum left of
 *     the strip (one carry per row).
 * Sums wrap modulo 2^32 like the reference's, so the order of the additions does not matter.
 * The last strip, when W is not a multiple of IBD_S, goes column by column. */

#define IBD_H 64 /* rows a band: 64 * 255 fits in 16 bits */
#define IBD_S 64 /* columns a strip: four 16-lane vectors */

/* Inclusive prefix sums along the 16 lanes, in four shifted adds. */
inline ushort16 ibd_scan16(ushort16 v)
{
  v += (ushort16)((ushort)0, v.s0123, v.s456789ab, v.scde);
  v += (ushort16)((ushort2)0, v.s0123, v.s456789ab, v.scd);
  v += (ushort16)((ushort4)0, v.s01234567, v.s89ab);
  v += (ushort16)((ushort8)0, v.s01234567);
  return v;
}

inline uint16 ibd_scan32(uint16 v)
{
  v += (uint16)((uint)0, v.s0123, v.s456789ab, v.scde);
  v += (uint16)((uint2)0, v.s0123, v.s456789ab, v.scd);
  v += (uint16)((uint4)0, v.s01234567, v.s89ab);
  v += (uint16)((uint8)0, v.s01234567);
  return v;
}

/* Pass 1: tile (strip, band). */
inline void integral_band_totals_tile(TS_BODY_ARGS, int2 t)
{
  int x0 = t.x * IBD_S, y0 = t.y * IBD_H, y1 = min(y0 + IBD_H, H);
  if (x0 + IBD_S <= W) {
    ushort16 a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int y = y0; y < y1; y++) {
      a0 += convert_ushort16(TS_LD8x16(src, W, x0, y));
      a1 += convert_ushort16(TS_LD8x16(src, W, x0 + 16, y));
      a2 += convert_ushort16(TS_LD8x16(src, W, x0 + 32, y));
      a3 += convert_ushort16(TS_LD8x16(src, W, x0 + 48, y));
    }
    TS_ST32x16(dst, W, x0, t.y, convert_uint16(a0));
    TS_ST32x16(dst, W, x0 + 16, t.y, convert_uint16(a1));
    TS_ST32x16(dst, W, x0 + 32, t.y, convert_uint16(a2));
    TS_ST32x16(dst, W, x0 + 48, t.y, convert_uint16(a3));
  } else {
    for (int x = x0; x < W; x++) {
      uint s = 0;
      for (int y = y0; y < y1; y++)
        s += TS_LD8(src, W, x, y);
      TS_ST32(dst, W, x, t.y, s);
    }
  }
}
TS_ITEM_ENTRY(integral_band_totals)

/* Pass 2: tile (strip, 0); src is MID, a row per band. */
inline void integral_band_carry_tile(TS_BODY_ARGS, int2 t)
{
  int x0 = t.x * IBD_S, nb = (H + IBD_H - 1) / IBD_H;
  if (x0 + IBD_S <= W) {
    uint16 c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    for (int b = 0; b < nb; b++) {
      TS_ST32x16(dst, W, x0, b * IBD_H, c0);
      TS_ST32x16(dst, W, x0 + 16, b * IBD_H, c1);
      TS_ST32x16(dst, W, x0 + 32, b * IBD_H, c2);
      TS_ST32x16(dst, W, x0 + 48, b * IBD_H, c3);
      if (b + 1 < nb) { /* the last band's totals carry into nothing */
        c0 += TS_LD32x16(src, W, x0, b);
        c1 += TS_LD32x16(src, W, x0 + 16, b);
        c2 += TS_LD32x16(src, W, x0 + 32, b);
        c3 += TS_LD32x16(src, W, x0 + 48, b);
      }
    }
  } else {
    for (int x = x0; x < W; x++) {
      uint c = 0;
      for (int b = 0; b < nb; b++) {
        TS_ST32(dst, W, x, b * IBD_H, c);
        if (b + 1 < nb)
          c += TS_LD32(src, W, x, b);
      }
    }
  }
}
TS_ITEM_ENTRY(integral_band_carry)

/* Pass 3: tile (0, band). */
inline void integral_band_scan_tile(TS_BODY_ARGS, int2 t)
{
  int y0 = t.y * IBD_H, bh = min(IBD_H, H - y0), x0 = 0;
  uint left[IBD_H]; /* per row of the band: the row's sum left of the strip */
  for (int r = 0; r < bh; r++)
    left[r] = 0;
  for (; x0 + IBD_S <= W; x0 += IBD_S) {
    /* p: the prefix sums along the strip of its column sums, from the rows above the band */
    uint16 p0 = ibd_scan32(TS_LD32x16(committed, W, x0, y0));
    uint16 p1 = ibd_scan32(TS_LD32x16(committed, W, x0 + 16, y0)) + p0.sf;
    uint16 p2 = ibd_scan32(TS_LD32x16(committed, W, x0 + 32, y0)) + p1.sf;
    uint16 p3 = ibd_scan32(TS_LD32x16(committed, W, x0 + 48, y0)) + p2.sf;
    for (int r = 0; r < bh; r++) {
      int y = y0 + r;
      /* The row's prefix sums along the strip: at most 64 * 255, 16 bits. */
      ushort16 q0 = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x0, y)));
      ushort16 q1 = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x0 + 16, y))) + q0.sf;
      ushort16 q2 = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x0 + 32, y))) + q1.sf;
      ushort16 q3 = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x0 + 48, y))) + q2.sf;
      p0 += convert_uint16(q0);
      p1 += convert_uint16(q1);
      p2 += convert_uint16(q2);
      p3 += convert_uint16(q3);
      uint l = left[r];
      TS_ST32x16(dst, W, x0, y, p0 + l);
      TS_ST32x16(dst, W, x0 + 16, y, p1 + l);
      TS_ST32x16(dst, W, x0 + 32, y, p2 + l);
      TS_ST32x16(dst, W, x0 + 48, y, p3 + l);
      left[r] = l + p3.sf;
    }
  }
  if (x0 < W) { /* the last strip, narrower */
    uint col[IBD_S]; /* column sums down to the row */
    for (int x = x0; x < W; x++)
      col[x - x0] = TS_LD32(committed, W, x, y0);
    for (int r = 0; r < bh; r++) {
      uint s = left[r];
      for (int x = x0; x < W; x++) {
        col[x - x0] += TS_LD8(src, W, x, y0 + r);
        s += col[x - x0];
        TS_ST32(dst, W, x, y0 + r, s);
      }
    }
  }
}
TS_GROUP_ENTRY(integral_band_scan, 1, 1)
