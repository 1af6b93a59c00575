/* gaussword: the Gaussian for a GPU (not in the seed). One work-item owns a column 4 bytes
 * wide (one aligned 32-bit word) and 32 rows tall and walks down it, keeping the horizontal
 * sums of the last k rows. At the default size (5 x 5) each input row is a few aligned word
 * loads, its own and its neighbours' (L1 hits on a GPU, whole cache lines per warp), and
 * the window lives in registers. Columns at the row's ends, rows not a multiple of 4 bytes
 * long and other sizes take a byte-by-byte path with the clamp (correct, slower). */

#define GW_H 32

/* The 5-tap horizontal sums of bytes 8 .. 11 of b (bytes x - 8 .. x + 11 of a row), for C
 * channels: the same code for each C, so that every index is a constant. */
#define GW_H5(CC)                                                                    \
  inline ushort4 gw_h5_##CC(const uchar *b, __constant uint *wt)                     \
  {                                                                                  \
    ushort4 s = (ushort4)0;                                                          \
    for (int t = 0; t < 5; t++) {                                                    \
      int o = 8 + (t - 2) * (CC);                                                    \
      s += (ushort)wt[t] * convert_ushort4((uchar4)(b[o], b[o + 1], b[o + 2], b[o + 3])); \
    }                                                                                \
    return s;                                                                        \
  }
GW_H5(1)
GW_H5(2)
GW_H5(3)
GW_H5(4)

/* The 5-tap sums of one row from aligned words: hw words either side of the column's own. */
inline ushort4 gw_hwords(TS_OBS_PARAM __global const uchar *src, int rowbytes, int x, int row,
                         int C, int hw, __constant uint *wt)
{
  uchar b[20];
  for (int i = -hw; i <= hw; i++)
    vstore4(TS_LD8x4A(src, rowbytes, x + 4 * i, row), 0, b + 8 + 4 * i);
  switch (C) {
  case 1:
    return gw_h5_1(b, wt);
  case 2:
    return gw_h5_2(b, wt);
  case 3:
    return gw_h5_3(b, wt);
  default:
    return gw_h5_4(b, wt);
  }
}

/* The k-tap sums of one row byte by byte, each tap clamped to its channel in the edge
 * pixel; bytes past the row's end repeat its last byte. */
inline ushort4 gw_hbytes(TS_OBS_PARAM __global const uchar *src, int W, int C, int r, int x,
                         int row, __constant uint *wt)
{
  int rowbytes = W * C;
  ushort s[4];
  for (int i = 0; i < 4; i++) {
    int b = min(x + i, rowbytes - 1), px = b / C, c = b - px * C;
    uint a = 0;
    for (int t = -r; t <= r; t++)
      a += wt[t + r] * TS_LD8(src, rowbytes, clamp(px + t, 0, W - 1) * C + c, row);
    s[i] = (ushort)a;
  }
  return vload4(0, s);
}

/* One output word from the vertical weighted sum of k rows of horizontal sums. */
inline void gw_store(TS_OBS_PARAM __global uchar *dst, int rowbytes, int x, int y, uint4 s)
{
  uchar4 o = convert_uchar4((s + 32768u) >> 16);
  if (rowbytes % 4 == 0) {
    TS_ST8x4A(dst, rowbytes, x, y, o);
  } else {
    uchar tmp[4];
    vstore4(o, 0, tmp);
    for (int i = 0; i < 4 && x + i < rowbytes; i++)
      TS_ST8(dst, rowbytes, x + i, y, tmp[i]);
  }
}

inline void gaussword_tile(TS_BODY_ARGS, int2 t)
{
  int x = t.x * 4, y0 = t.y * GW_H, y1 = min(y0 + GW_H, H), rowbytes = W * C;
  int hw = (r * C + 3) / 4;
  int words = r == 2 && rowbytes % 4 == 0 && x - 4 * hw >= 0 && x + 4 + 4 * hw <= rowbytes;
  if (r == 2) { /* the window in registers */
    ushort4 h[5];
    for (int j = 0; j < 4; j++) {
      int row = clamp(y0 - 2 + j, 0, H - 1);
      h[j] = words ? gw_hwords(TS_OBS_ARG src, rowbytes, x, row, C, hw, weights)
                   : gw_hbytes(TS_OBS_ARG src, W, C, 2, x, row, weights);
    }
    for (int y = y0; y < y1; y++) {
      int row = min(y + 2, H - 1);
      h[4] = words ? gw_hwords(TS_OBS_ARG src, rowbytes, x, row, C, hw, weights)
                   : gw_hbytes(TS_OBS_ARG src, W, C, 2, x, row, weights);
      uint4 s = (uint4)0;
      for (int j = 0; j < 5; j++)
        s += weights[j] * convert_uint4(h[j]);
      gw_store(TS_OBS_ARG dst, rowbytes, x, y, s);
      for (int j = 0; j < 4; j++)
        h[j] = h[j + 1];
    }
    return;
  }
  int k = 2 * r + 1; /* other sizes: a ring of k rows */
  ushort4 ring[15];
  for (int j = 0; j < y1 - y0 + 2 * r; j++) {
    ring[j % k] = gw_hbytes(TS_OBS_ARG src, W, C, r, x, clamp(y0 - r + j, 0, H - 1), weights);
    if (j < 2 * r)
      continue;
    uint4 s = (uint4)0;
    for (int i = 0; i < k; i++) /* ring row of input row j - 2r + i */
      s += weights[i] * convert_uint4(ring[(j - 2 * r + i) % k]);
    gw_store(TS_OBS_ARG dst, rowbytes, x, y0 + j - 2 * r, s);
  }
}
TS_ITEM_ENTRY(gaussword)
