/* integral_band: the integral image for a CPU (not in the seed), reduce-then-scan in bands of
 * IBD_H rows, so that the bytes are read twice and each 32-bit sum written once, every pass
 * walking its rows in memory order:
 *  1. totals: a work-item per band adds the band's rows, IBD_G at a time, into the band's
 *     row of column totals in MID (W sums a band), reading back what it wrote;
 *  2. carry: a work-item per strip of IBD_S columns runs down the bands adding those totals
 *     up, and writes at each band's first row of OUT the column sums of all the rows above;
 *  3. scan: a work-item per band. Its first row is the prefix sums along the row of those
 *     carries plus the row's bytes (read through committed just before it overwrites them);
 *     every later row is the row above (read back from dst) plus the prefix sums of the
 *     row's bytes, taken in 16-bit lanes 16 at a time with a carry from vector to vector.
 * Sums wrap modulo 2^32 like the reference's, so the order of the additions does not matter.
 * What is left of a row after its last whole vector goes element by element. */

#define IBD_H 64 /* rows a band */
#define IBD_G 8  /* rows the totals add at a time: 8 * 255 fits in 16 bits */
#define IBD_S 64 /* columns a carry strip */

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

/* The sums of columns x .. x + 15 over rows y .. y + n - 1 (n <= IBD_G). */
inline ushort16 ibd_rows16(TS_OBS_PARAM __global const uchar *src, int W, int x, int y, int n)
{
  ushort16 s = convert_ushort16(TS_LD8x16(src, W, x, y));
  for (int i = 1; i < n; i++)
    s += convert_ushort16(TS_LD8x16(src, W, x, y + i));
  return s;
}

/* Pass 1: tile (0, band); dst is MID, a row per band. */
inline void integral_band_totals_tile(TS_BODY_ARGS, int2 t)
{
  int b = t.y, y0 = b * IBD_H, y1 = min(y0 + IBD_H, H);
  for (int y = y0; y < y1; y += IBD_G) {
    int n = min(IBD_G, y1 - y), x = 0;
    for (; x + 16 <= W; x += 16) {
      /* IBD_G spelt out where it is the count, so that the loop unrolls */
      uint16 v = convert_uint16(n == IBD_G ? ibd_rows16(TS_OBS_ARG src, W, x, y, IBD_G)
                                           : ibd_rows16(TS_OBS_ARG src, W, x, y, n));
      TS_ST32x16(dst, W, x, b, y > y0 ? TS_LD32x16(dst, W, x, b) + v : v);
    }
    for (; x < W; x++) {
      uint s = 0;
      for (int i = 0; i < n; i++)
        s += TS_LD8(src, W, x, y + i);
      TS_ST32(dst, W, x, b, y > y0 ? TS_LD32(dst, W, x, b) + s : s);
    }
  }
}
TS_GROUP_ENTRY(integral_band_totals, 1, 1)

/* Pass 2: tile (strip, 0); src is MID. */
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
  int y0 = t.y * IBD_H, y1 = min(y0 + IBD_H, H), x = 0;
  uint s = 0; /* the row's sum so far */
  for (; x + 16 <= W; x += 16) {
    uint16 v = TS_LD32x16(committed, W, x, y0) + convert_uint16(TS_LD8x16(src, W, x, y0));
    v = ibd_scan32(v) + s;
    s = v.sf;
    TS_ST32x16(dst, W, x, y0, v);
  }
  for (; x < W; x++) {
    s += TS_LD32(committed, W, x, y0) + TS_LD8(src, W, x, y0);
    TS_ST32(dst, W, x, y0, s);
  }
  for (int y = y0 + 1; y < y1; y++) {
    s = 0;
    /* 64 columns a step: the carries between their four vectors in 16 bits (at most
     * 64 * 255), one 32-bit carry a step */
    for (x = 0; x + 64 <= W; x += 64) {
      ushort16 q0 = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x, y)));
      ushort16 q1 = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x + 16, y))) + q0.sf;
      ushort16 q2 = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x + 32, y))) + q1.sf;
      ushort16 q3 = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x + 48, y))) + q2.sf;
      TS_ST32x16(dst, W, x, y, TS_LD32x16(dst, W, x, y - 1) + convert_uint16(q0) + s);
      TS_ST32x16(dst, W, x + 16, y, TS_LD32x16(dst, W, x + 16, y - 1) + convert_uint16(q1) + s);
      TS_ST32x16(dst, W, x + 32, y, TS_LD32x16(dst, W, x + 32, y - 1) + convert_uint16(q2) + s);
      TS_ST32x16(dst, W, x + 48, y, TS_LD32x16(dst, W, x + 48, y - 1) + convert_uint16(q3) + s);
      s += q3.sf;
    }
    for (; x + 16 <= W; x += 16) {
      ushort16 q = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x, y)));
      TS_ST32x16(dst, W, x, y, TS_LD32x16(dst, W, x, y - 1) + convert_uint16(q) + s);
      s += q.sf;
    }
    for (; x < W; x++) {
      s += TS_LD8(src, W, x, y);
      TS_ST32(dst, W, x, y, TS_LD32(dst, W, x, y - 1) + s);
    }
  }
}
TS_GROUP_ENTRY(integral_band_scan, 1, 1)
