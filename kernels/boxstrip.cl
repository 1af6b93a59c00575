/* boxstrip: the box 3x3 filter as a stream (not in the seed; the seed's 24-byte x 6-row tile
 * is linear1d2 and its siblings). One work-item owns a strip 16 bytes wide and 32 rows tall
 * and walks down it: each input row is read once, as three overlapping 16-byte vector loads
 * (the bytes, and the same bytes one pixel left and right), summed into a 16-lane row of
 * horizontal sums; the last three of those rows make one output row, stored as one 16-byte
 * vector. Per output byte: one input byte read, one written, a few vector operations. */

#define BS_W 16
#define BS_H 32

/* The horizontal 3-tap sums of a strip at the image's left or right edge: each byte clamped
 * to its channel in the edge pixel. */
ushort16 bs_hsum_edge(TS_OBS_PARAM __global const uchar *src, int W, int C, int x0, int row)
{
  int rowbytes = W * C;
  ushort s[BS_W];
  for (int i = 0; i < BS_W; i++) {
    int b = min(x0 + i, rowbytes - 1), px = b / C, c = b - px * C;
    s[i] = (ushort)(TS_LD8(src, rowbytes, max(px - 1, 0) * C + c, row) +
                    TS_LD8(src, rowbytes, b, row) +
                    TS_LD8(src, rowbytes, min(px + 1, W - 1) * C + c, row));
  }
  return vload16(0, s);
}

/* The horizontal 3-tap sums of 16 bytes of a row (clamped), bytes x0 .. x0 + 15: inside the
 * row three vector loads, kept small so that the compiler inlines it. */
inline ushort16 bs_hsum(TS_OBS_PARAM __global const uchar *src, int W, int H, int C, int x0,
                        int row)
{
  int rowbytes = W * C, y = clamp(row, 0, H - 1);
  if (x0 - C < 0 || x0 + BS_W + C > rowbytes)
    return bs_hsum_edge(TS_OBS_ARG src, W, C, x0, y);
  return convert_ushort16(TS_LD8x16(src, rowbytes, x0 - C, y)) +
         convert_ushort16(TS_LD8x16(src, rowbytes, x0, y)) +
         convert_ushort16(TS_LD8x16(src, rowbytes, x0 + C, y));
}

inline void boxstrip_tile(TS_BODY_ARGS, int2 t)
{
  int x0 = t.x * BS_W, y0 = t.y * BS_H, rowbytes = W * C;
  ushort16 a = bs_hsum(TS_OBS_ARG src, W, H, C, x0, y0 - 1),
           b = bs_hsum(TS_OBS_ARG src, W, H, C, x0, y0);
  for (int y = y0; y < min(y0 + BS_H, H); y++) {
    ushort16 c = bs_hsum(TS_OBS_ARG src, W, H, C, x0, y + 1);
    uchar16 o = convert_uchar16_rtz(convert_float16(a + b + c) * 0.111f); /* box_scale */
    if (x0 + BS_W <= rowbytes) {
      TS_ST8x16(dst, rowbytes, x0, y, o);
    } else {
      uchar tmp[BS_W];
      vstore16(o, 0, tmp);
      for (int i = 0; x0 + i < rowbytes; i++)
        TS_ST8(dst, rowbytes, x0 + i, y, tmp[i]);
    }
    a = b;
    b = c;
  }
}
TS_ITEM_ENTRY(boxstrip)
