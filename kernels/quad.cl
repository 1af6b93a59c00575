/* boxquad and gaussquad: the box 3x3 and the Gaussian for a GPU (not in the seed). One
 * work-item owns 16 bytes (one aligned 128-bit word) of 8 rows (box) or 4 (Gaussian: its
 * window takes more registers, and fewer rows measured faster on the H200). It first loads every input
 * row it needs, each as its own 16-byte word and the aligned 32-bit words beside it (the
 * halo: the neighbours load them too, so on a GPU they are L1 hits), and only then computes
 * and stores: with no store between the loads, all of them are in flight at once, which is
 * what a memory-bound stencil needs to approach the copy bandwidth. Images whose rows are not
 * a multiple of 16 bytes long, and Gaussians of another size than 5 x 5, take a byte-by-byte
 * path with the clamp (correct, slower). */

#define QD_W 16
#define QD_H 8 /* box */
#define GQ_H 4 /* Gaussian */

/* Bytes x - 4 * hw .. x + 15 + 4 * hw of a row into b[8 - 4 * hw .. 23 + 4 * hw] (rows a
 * multiple of 16 bytes long): the item's own word and hw words either side. Past the row's
 * ends the bytes are the edge pixel's own (the clamp). C is a constant after inlining. */
inline void qd_row(TS_OBS_PARAM __global const uchar *src, int rowbytes, int x, int row,
                   const int C, const int hw, uchar *b)
{
  vstore16(TS_LD8x16A(src, rowbytes, x, row), 0, b + 8);
  for (int i = 1; i <= hw; i++) {
    vstore4(TS_LD8x4A(src, rowbytes, max(x - 4 * i, 0), row), 0, b + 8 - 4 * i);
    vstore4(TS_LD8x4A(src, rowbytes, min(x + 12 + 4 * i, rowbytes - 4), row), 0, b + 20 + 4 * i);
  }
  if (x == 0)
    for (int j = -4 * hw; j < 0; j++)
      b[8 + j] = b[8 + (j % C + C) % C];
  if (x + QD_W == rowbytes)
    for (int j = QD_W; j < QD_W + 4 * hw; j++)
      b[8 + j] = b[8 + QD_W - C + (j - QD_W) % C];
}

/* The horizontal sums of bytes x .. x + 15 of a row byte by byte, taps -r .. r pixels away,
 * each clamped to its channel of the edge pixel (bytes past the row's end repeat the last
 * pixel); weights wt, or all 1 when box. */
inline ushort16 qd_hbytes(TS_OBS_PARAM __global const uchar *src, int W, int C, int x, int row,
                          int r, int box, __constant uint *wt)
{
  int rowbytes = W * C;
  ushort s[QD_W];
  for (int i = 0; i < QD_W; i++) {
    uint a = 0;
    for (int t = -r; t <= r; t++) {
      uint v = TS_LD8(src, rowbytes, ts_col_clamp(W, C, x + i + t * C), row);
      a += box ? v : wt[t + r] * v;
    }
    s[i] = (ushort)a;
  }
  return vload16(0, s);
}

/* Stores the first bytes of o that lie inside the row (the last word of a row that is not a
 * multiple of 16 bytes long), or the whole word when aligned. */
inline void qd_store(TS_OBS_PARAM __global uchar *dst, int rowbytes, int x, int y, uchar16 o)
{
  if (rowbytes % QD_W == 0) {
    TS_ST8x16A(dst, rowbytes, x, y, o);
    return;
  }
  uchar tmp[QD_W];
  vstore16(o, 0, tmp);
  for (int i = 0; i < QD_W && x + i < rowbytes; i++)
    TS_ST8(dst, rowbytes, x + i, y, tmp[i]);
}

/* box_scale, 16 at a time: in grey the exact integer form (box_scale16), which an NVIDIA H200
 * and an H100 ran faster there (8K 0.030 ms against 0.031, 0.034 against 0.035); with more
 * channels the float form, as the integer one was slower there (RGB 0.089 against 0.083,
 * 0.096 against 0.092). C is a constant after inlining. */
inline uchar16 qd_box_scale(ushort16 s, const int C)
{
  return C == 1 ? box_scale16(s) : convert_uchar16_rtz(convert_float16(s) * 0.111f);
}

/* ---- boxquad ---- */

inline void bq_words(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int W, int H,
                     int2 t, const int C)
{
  int rowbytes = W * C, x = t.x * QD_W, y0 = t.y * QD_H;
  ushort16 h[QD_H + 2];
  for (int j = 0; j < QD_H + 2; j++) {
    uchar b[32];
    qd_row(TS_OBS_ARG src, rowbytes, x, clamp(y0 - 1 + j, 0, H - 1), C, 1, b);
    h[j] = convert_ushort16(vload16(0, b + 8 - C)) + convert_ushort16(vload16(0, b + 8)) +
           convert_ushort16(vload16(0, b + 8 + C));
  }
  for (int j = 0; j < QD_H && y0 + j < H; j++)
    TS_ST8x16A(dst, rowbytes, x, y0 + j, qd_box_scale(h[j] + h[j + 1] + h[j + 2], C));
}

inline void boxquad_tile(TS_BODY_ARGS, int2 t)
{
  switch ((W * C) % QD_W == 0 ? C : 0) { /* each case a copy with C a constant */
  case 1:
    bq_words(TS_OBS_ARG src, dst, W, H, t, 1);
    return;
  case 2:
    bq_words(TS_OBS_ARG src, dst, W, H, t, 2);
    return;
  case 3:
    bq_words(TS_OBS_ARG src, dst, W, H, t, 3);
    return;
  case 4:
    bq_words(TS_OBS_ARG src, dst, W, H, t, 4);
    return;
  }
  int rowbytes = W * C, x = t.x * QD_W, y0 = t.y * QD_H;
  ushort16 a = qd_hbytes(TS_OBS_ARG src, W, C, x, max(y0 - 1, 0), 1, 1, weights);
  ushort16 b = qd_hbytes(TS_OBS_ARG src, W, C, x, y0, 1, 1, weights);
  for (int y = y0; y < min(y0 + QD_H, H); y++) {
    ushort16 c = qd_hbytes(TS_OBS_ARG src, W, C, x, min(y + 1, H - 1), 1, 1, weights);
    qd_store(TS_OBS_ARG dst, rowbytes, x, y, qd_box_scale(a + b + c, C));
    a = b;
    b = c;
  }
}
TS_ITEM_ENTRY(boxquad)

/* ---- gaussquad ---- */

inline uchar16 gq_round(uint16 s)
{
  return convert_uchar16((s + 32768u) >> 16); /* gauss_round */
}

/* The rows' horizontal sums are exact in 16 bits (at most 255 * 256); they are kept in 16-bit
 * lanes for 1 and 2 channels and in 32-bit lanes for 3 and 4, which an NVIDIA H100 ran
 * faster there (8K RGB 0.120 ms against 0.130); in grey, 32-bit lanes (tried together with
 * one halo word a side) were slower (0.047 ms against 0.044). */
#define GQ_WORDS(NAME, T, T16, CONVERT16)                                                    \
  inline void NAME(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int W, int H,  \
                   __constant uint *wt, int2 t, const int C)                                  \
  {                                                                                         \
    int rowbytes = W * C, x = t.x * QD_W, y0 = t.y * GQ_H;                                  \
    T16 h[GQ_H + 4];                                                                        \
    for (int j = 0; j < GQ_H + 4; j++) {                                                    \
      uchar b[32];                                                                          \
      qd_row(TS_OBS_ARG src, rowbytes, x, clamp(y0 - 2 + j, 0, H - 1), C, 2, b);            \
      T16 s = (T16)0;                                                                       \
      for (int k = 0; k < 5; k++)                                                           \
        s += (T)wt[k] * CONVERT16(vload16(0, b + 8 + (k - 2) * C));                         \
      h[j] = s;                                                                             \
    }                                                                                       \
    for (int j = 0; j < GQ_H && y0 + j < H; j++) {                                          \
      uint16 s = (uint16)0;                                                                 \
      for (int k = 0; k < 5; k++)                                                           \
        s += wt[k] * convert_uint16(h[j + k]);                                              \
      TS_ST8x16A(dst, rowbytes, x, y0 + j, gq_round(s));                                    \
    }                                                                                       \
  }
GQ_WORDS(gq_words, ushort, ushort16, convert_ushort16)
GQ_WORDS(gq_words32, uint, uint16, convert_uint16)

inline void gaussquad_tile(TS_BODY_ARGS, int2 t)
{
  switch (r == 2 && (W * C) % QD_W == 0 ? C : 0) {
  case 1:
    gq_words(TS_OBS_ARG src, dst, W, H, weights, t, 1);
    return;
  case 2:
    gq_words(TS_OBS_ARG src, dst, W, H, weights, t, 2);
    return;
  case 3:
    gq_words32(TS_OBS_ARG src, dst, W, H, weights, t, 3);
    return;
  case 4:
    gq_words32(TS_OBS_ARG src, dst, W, H, weights, t, 4);
    return;
  }
  /* Other sizes and row lengths: a ring of the last k rows' horizontal sums. */
  int rowbytes = W * C, x = t.x * QD_W, y0 = t.y * GQ_H, y1 = min(y0 + GQ_H, H), k = 2 * r + 1;
  ushort16 ring[15];
  for (int j = 0; j < y1 - y0 + 2 * r; j++) {
    ring[j % k] = qd_hbytes(TS_OBS_ARG src, W, C, x, clamp(y0 - r + j, 0, H - 1), r, 0, weights);
    if (j < 2 * r)
      continue;
    uint16 s = (uint16)0;
    for (int i = 0; i < k; i++) /* ring row of input row j - 2r + i */
      s += weights[i] * convert_uint16(ring[(j - 2 * r + i) % k]);
    qd_store(TS_OBS_ARG dst, rowbytes, x, y0 + j - 2 * r, gq_round(s));
  }
}
TS_ITEM_ENTRY(gaussquad)
