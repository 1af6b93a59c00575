/* boxword: the box 3x3 filter for a GPU (not in the seed). One work-item owns a column 4
 * bytes wide (one aligned 32-bit word) and 32 rows tall and walks down it. Each input row
 * is three aligned word loads: its own word and the words left and right of it, which the
 * neighbouring work-items load too, so on a GPU they come from the L1 cache and a warp's
 * loads are whole 128-byte lines. The horizontal sums of the last three rows give one output
 * word. Rows whose length is not a multiple of 4 bytes cannot be read in aligned words: such
 * images take the byte-by-byte path (correct, slower). */

#define BW_H 32

/* The horizontal 3-tap sums of the middle word's bytes, from the words left (l), middle (m)
 * and right (r) of it; C: channels, 1 to 4, so a neighbour lies C bytes away. */
inline ushort4 bw_sums(uchar4 l, uchar4 m, uchar4 r, int C)
{
  ushort16 w = (ushort16)(convert_ushort4(l), convert_ushort4(m), convert_ushort4(r), (ushort4)0);
  switch (C) {
  case 1:
    return w.s3456 + w.s4567 + w.s5678;
  case 2:
    return w.s2345 + w.s4567 + w.s6789;
  case 3:
    return w.s1234 + w.s4567 + w.s789a;
  default:
    return w.s0123 + w.s4567 + w.s89ab;
  }
}

/* The sums of bytes x .. x + 3 of a row, rows a multiple of 4 bytes long. At the row's ends
 * the missing word is made of the edge pixel's own bytes: the clamp. */
inline ushort4 bw_hsum(TS_OBS_PARAM __global const uchar *src, int rowbytes, int x, int row,
                       int C)
{
  int4 lane = (int4)(0, 1, 2, 3);
  uchar4 m = TS_LD8x4A(src, rowbytes, x, row);
  uchar4 l = x >= 4 ? TS_LD8x4A(src, rowbytes, x - 4, row)
                    : shuffle(m, convert_uchar4(max(lane + C - 4, 0)));
  uchar4 r = x + 4 < rowbytes ? TS_LD8x4A(src, rowbytes, x + 4, row)
                              : shuffle(m, convert_uchar4(min(lane + 4 - C, 3)));
  return bw_sums(l, m, r, C);
}

/* The same sums byte by byte, for rows that are not a multiple of 4 bytes long. */
inline ushort4 bw_hsum_bytes(TS_OBS_PARAM __global const uchar *src, int W, int C, int x,
                             int row)
{
  int rowbytes = W * C;
  ushort s[4];
  for (int i = 0; i < 4; i++) {
    int b = min(x + i, rowbytes - 1), px = b / C, c = b - px * C;
    s[i] = (ushort)(TS_LD8(src, rowbytes, max(px - 1, 0) * C + c, row) +
                    TS_LD8(src, rowbytes, b, row) +
                    TS_LD8(src, rowbytes, min(px + 1, W - 1) * C + c, row));
  }
  return vload4(0, s);
}

inline void boxword_tile(TS_BODY_ARGS, int2 t)
{
  int x = t.x * 4, y0 = t.y * BW_H, y1 = min(y0 + BW_H, H), rowbytes = W * C;
  int words = rowbytes % 4 == 0;
  ushort4 a, b;
  if (words) {
    a = bw_hsum(TS_OBS_ARG src, rowbytes, x, max(y0 - 1, 0), C);
    b = bw_hsum(TS_OBS_ARG src, rowbytes, x, y0, C);
  } else {
    a = bw_hsum_bytes(TS_OBS_ARG src, W, C, x, max(y0 - 1, 0));
    b = bw_hsum_bytes(TS_OBS_ARG src, W, C, x, y0);
  }
  for (int y = y0; y < y1; y++) {
    int below = min(y + 1, H - 1);
    ushort4 c = words ? bw_hsum(TS_OBS_ARG src, rowbytes, x, below, C)
                      : bw_hsum_bytes(TS_OBS_ARG src, W, C, x, below);
    uchar4 o = convert_uchar4_rtz(convert_float4(a + b + c) * 0.111f); /* box_scale */
    if (words) {
      TS_ST8x4A(dst, rowbytes, x, y, o);
    } else {
      uchar tmp[4];
      vstore4(o, 0, tmp);
      for (int i = 0; i < 4 && x + i < rowbytes; i++)
        TS_ST8(dst, rowbytes, x + i, y, tmp[i]);
    }
    a = b;
    b = c;
  }
}
TS_ITEM_ENTRY(boxword)
