/* boxquad and gaussquad: the box 3x3 and the Gaussian for a GPU (not in the seed). One
 * work-item owns 16 bytes (one aligned 128-bit word) of 8 rows (box) or 4 (Gaussian: its
 * window takes more registers, and fewer rows measured faster on the H200). It first loads
 * every input row it needs, each as its own 16-byte word and the aligned 32-bit words beside
 * it (the halo: the neighbours load them too, so on a GPU they are L1 hits), and only then
 * computes and stores: with no store between the loads, all of them are in flight at once,
 * which is what a memory-bound stencil needs to approach the copy bandwidth. The arithmetic
 * runs two bytes to a 32-bit word (below). Images whose rows are not a multiple of 16 bytes
 * long, and Gaussians of another size than 5 x 5, take a byte-by-byte path with the clamp
 * (correct, slower). */

#define QD_W 16
#define QD_H 8 /* box */
#define GQ_H 4 /* Gaussian */

/* Two bytes in one 32-bit word, 16 bits each (a SIMD-within-a-register pair): the sums of
 * both filters stay below 65536 lane by lane (the box's nine bytes at most 2295, the
 * Gaussian's 1-D pass at most 255 * 256 with weights summing to 256), so one 32-bit add or
 * multiply-add serves two bytes and no carry crosses from one lane into the other. A GPU has
 * no 16-bit integer vectors; these halve its instructions, which bound both kernels.
 *
 * The word paths see a row as 32 bytes, x - 8 .. x + 23 (the item's word and the two 32-bit
 * words either side), held as eight words u[0 .. 7]; byte q of it is byte q % 4 of u[q / 4].
 * A pair holds bytes q and q + 2: the even bytes of a word (E, q % 4 == 0), its odd ones
 * (O, q % 4 == 1), or the high lane of one and the low lane of the next (q % 4 == 2, 3). The
 * item's 16 output bytes are eight such pairs, q = 8 + 4i + e for i = 0 .. 3, e = 0, 1. */
typedef struct {
  uint e[8], o[8];
} qd_row_pairs;

/* The row's 32 bytes as pairs, of which the box reads the inner 24 (hw 1: one 32-bit word of
 * halo either side) and the Gaussian all (hw 2); past the row's ends the bytes are the edge
 * pixel's own (the clamp). C and hw are constants after inlining, and so are the shuffles'
 * masks. */
#define QD_LM(j) (uchar)((((j) - 8) % C + C) % C)
#define QD_RM(j) (uchar)(QD_W - C + (j) % C)
inline qd_row_pairs qd_pairs(TS_OBS_PARAM __global const uchar *src, int rowbytes, int x,
                             int row, const int C, const int hw)
{
  uchar16 own = TS_LD8x16A(src, rowbytes, x, row);
  uchar4 l0 = hw > 1 ? TS_LD8x4A(src, rowbytes, max(x - 8, 0), row) : (uchar4)0;
  uchar4 r1 = hw > 1 ? TS_LD8x4A(src, rowbytes, min(x + 20, rowbytes - 4), row) : (uchar4)0;
  uchar8 l = (uchar8)(l0, TS_LD8x4A(src, rowbytes, max(x - 4, 0), row));
  uchar8 r = (uchar8)(TS_LD8x4A(src, rowbytes, min(x + 16, rowbytes - 4), row), r1);
  if (x == 0)
    l = shuffle(own, (uchar8)(QD_LM(0), QD_LM(1), QD_LM(2), QD_LM(3), QD_LM(4), QD_LM(5),
                              QD_LM(6), QD_LM(7)));
  if (x + QD_W == rowbytes)
    r = shuffle(own, (uchar8)(QD_RM(0), QD_RM(1), QD_RM(2), QD_RM(3), QD_RM(4), QD_RM(5),
                              QD_RM(6), QD_RM(7)));
  uint2 a = as_uint2(l), c = as_uint2(r);
  uint4 b = as_uint4(own);
  uint u[8] = { a.x, a.y, b.x, b.y, b.z, b.w, c.x, c.y };
  qd_row_pairs p;
  for (int i = 0; i < 8; i++) {
    p.e[i] = u[i] & 0x00ff00ffu;
    p.o[i] = (u[i] >> 8) & 0x00ff00ffu;
  }
  return p;
}

/* The high lane of a, then the low lane of b. Spelled as a shuffle of 16-bit halves, not as
 * (a >> 16) | (b << 16): LLVM makes a funnel shift of that, which Oclgrind cannot run. */
inline uint qd_cross(uint a, uint b)
{
  return as_uint((ushort2)(as_ushort2(a).s1, as_ushort2(b).s0));
}

/* The pair of bytes q and q + 2 (q a constant, 0 <= q <= 29). */
inline uint qd_pair(const qd_row_pairs *p, const int q)
{
  const int i = q >> 2;
  switch (q & 3) {
  case 0: return p->e[i];
  case 1: return p->o[i];
  case 2: return qd_cross(p->e[i], p->e[i + 1]);
  default: return qd_cross(p->o[i], p->o[i + 1]);
  }
}

/* Output pair k (0 .. 7) of the item's 16 bytes: its q. */
#define QD_Q(k) (8 + 4 * ((k) >> 1) + ((k) & 1))

/* Four output bytes, word i, from the 32-bit values whose byte 'at' holds them: lo0 and hi0
 * of pair 2i (bytes 4i, 4i + 2), lo1 and hi1 of pair 2i + 1 (bytes 4i + 1, 4i + 3). */
inline uint qd_word(uint lo0, uint lo1, uint hi0, uint hi1, const int at)
{
  const uint m = 0xffu << (8 * at);
  return ((lo0 & m) >> (8 * at)) | ((lo1 & m) >> (8 * at - 8)) |
         ((hi0 & m) >> (8 * at - 16)) | ((hi1 & m) << (24 - 8 * at));
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

/* ---- boxquad ---- */

/* box_scale of the low and the high lane of a pair, each in byte 3 of its result: for every
 * sum of nine bytes (0 .. 2295), (S * 1862271) >> 24 is box_scale(S) (tests/test_variants.c
 * checks them all), and S * 1862271 stays below 2^32. */
#define BQ_M 1862271u

inline void bq_words(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int W, int H,
                     int2 t, const int C)
{
  int rowbytes = W * C, x = t.x * QD_W, y0 = t.y * QD_H;
  uint h[QD_H + 2][8]; /* per row, the pairs' horizontal sums */
  for (int j = 0; j < QD_H + 2; j++) {
    qd_row_pairs p = qd_pairs(TS_OBS_ARG src, rowbytes, x, clamp(y0 - 1 + j, 0, H - 1), C, 1);
    for (int k = 0; k < 8; k++)
      h[j][k] = qd_pair(&p, QD_Q(k) - C) + qd_pair(&p, QD_Q(k)) + qd_pair(&p, QD_Q(k) + C);
  }
  for (int j = 0; j < QD_H && y0 + j < H; j++) {
    uint o[4];
    for (int i = 0; i < 4; i++) {
      uint s0 = h[j][2 * i] + h[j + 1][2 * i] + h[j + 2][2 * i];
      uint s1 = h[j][2 * i + 1] + h[j + 1][2 * i + 1] + h[j + 2][2 * i + 1];
      o[i] = qd_word((s0 & 0xffffu) * BQ_M, (s1 & 0xffffu) * BQ_M, (s0 >> 16) * BQ_M,
                     (s1 >> 16) * BQ_M, 3);
    }
    TS_ST8x16A(dst, rowbytes, x, y0 + j, as_uchar16((uint4)(o[0], o[1], o[2], o[3])));
  }
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
    qd_store(TS_OBS_ARG dst, rowbytes, x, y, box_scale16(a + b + c));
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

inline void gq_words(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int W, int H,
                     __constant uint *wt, int2 t, const int C)
{
  int rowbytes = W * C, x = t.x * QD_W, y0 = t.y * GQ_H;
  uint w[5] = { wt[0], wt[1], wt[2], wt[3], wt[4] };
  uint h[GQ_H + 4][8]; /* per row, the pairs' horizontal sums (at most 255 * 256 a lane) */
  for (int j = 0; j < GQ_H + 4; j++) {
    qd_row_pairs p = qd_pairs(TS_OBS_ARG src, rowbytes, x, clamp(y0 - 2 + j, 0, H - 1), C, 2);
    for (int k = 0; k < 8; k++) {
      uint s = 0;
      for (int i = 0; i < 5; i++)
        s += w[i] * qd_pair(&p, QD_Q(k) + (i - 2) * C);
      h[j][k] = s;
    }
  }
  /* The vertical pass in 32-bit lanes (its sum reaches 2^24); gauss_round's result lands in
   * byte 2 of S + 32768. */
  for (int j = 0; j < GQ_H && y0 + j < H; j++) {
    uint o[4];
    for (int i = 0; i < 4; i++) {
      uint l0 = 32768u, l1 = 32768u, h0 = 32768u, h1 = 32768u;
      for (int k = 0; k < 5; k++) {
        uint a = h[j + k][2 * i], b = h[j + k][2 * i + 1];
        l0 += w[k] * (a & 0xffffu);
        h0 += w[k] * (a >> 16);
        l1 += w[k] * (b & 0xffffu);
        h1 += w[k] * (b >> 16);
      }
      o[i] = qd_word(l0, l1, h0, h1, 2);
    }
    TS_ST8x16A(dst, rowbytes, x, y0 + j, as_uchar16((uint4)(o[0], o[1], o[2], o[3])));
  }
}

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
    gq_words(TS_OBS_ARG src, dst, W, H, weights, t, 3);
    return;
  case 4:
    gq_words(TS_OBS_ARG src, dst, W, H, weights, t, 4);
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
