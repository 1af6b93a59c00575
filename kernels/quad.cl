/* boxquad and gaussquad: the box 3x3 and the Gaussian for a GPU (not in the seed). One
 * work-item owns 16 bytes (one aligned 128-bit word) of 8 rows (the box; the Gaussian with
 * more than one channel) or 4 (the Gaussian in grey). It first loads every input row it
 * needs, each as its own 16-byte word and the aligned 32-bit words beside it (the halo: the
 * neighbours load them too, so on a GPU they are L1 hits), and only then computes and
 * stores: with no store between the loads, all of them are in flight at once, which is what
 * a memory-bound stencil needs to approach the copy bandwidth. Both compute on two bytes a
 * 32-bit word (below). Images whose rows are not a multiple of 16 bytes long, and Gaussians
 * of another size than 5 x 5, take a byte-by-byte path with the clamp (correct, slower). */

#define QD_W 16
#define QD_H 8  /* box */
#define GQ_H 4  /* Gaussian, grey */
#define GQ_HC 8 /* Gaussian, more channels */
#define GQ_ROWS(C) ((C) == 1 ? GQ_H : GQ_HC)

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

/* Byte k (a constant) of each of four words, in one word: three byte permutes (prmt) on
 * NVIDIA, where narrowing 32-bit lanes to bytes (convert_uchar16) took a shift and a
 * conversion instruction a lane. On an NVIDIA H200 at 7680x4320 this took the Gaussian in RGB
 * from 0.102 to 0.095 ms and, with the box's scale below, the box from 0.029 to 0.027 ms in
 * grey and from 0.076 to 0.070 in RGB. */
inline uint qd_pick(uint a, uint b, uint c, uint d, const uint k)
{
#ifdef __NV_CL_C_VERSION
  uint lo, hi, r, sel = k | (k + 4) << 4;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(lo) : "r"(a), "r"(b), "r"(sel));
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(hi) : "r"(c), "r"(d), "r"(sel));
  asm("prmt.b32 %0, %1, %2, 0x5410;" : "=r"(r) : "r"(lo), "r"(hi));
  return r;
#else
  uint sh = 8 * k;
  return (a >> sh & 255u) | (b >> sh & 255u) << 8 | (c >> sh & 255u) << 16 | (d >> sh & 255u) << 24;
#endif
}

/* Byte k of each lane of s. */
inline uchar16 qd_pick16(uint16 s, const uint k)
{
  return as_uchar16((uint4)(qd_pick(s.s0, s.s1, s.s2, s.s3, k),
                            qd_pick(s.s4, s.s5, s.s6, s.s7, k),
                            qd_pick(s.s8, s.s9, s.sa, s.sb, k),
                            qd_pick(s.sc, s.sd, s.se, s.sf, k)));
}

/* box_scale, 16 at a time, exact without a float: box_scale16's (S * 58196) >> 19 as byte 3
 * of S * 58196 * 32 (below 2^32 for S <= 2295). Before the byte permutes, the float form was
 * the faster one with more than one channel. */
inline uchar16 qd_box_scale(ushort16 s)
{
  return qd_pick16(convert_uint16(s) * (58196u << 5), 3);
}

/* ---- two bytes a word, the word paths of both filters ----
 * SIMD within a register: the bytes of a word at even positions (mask 0x00ff00ff) and those
 * at odd ones (shifted down a byte) each make a word of two 16-bit lanes, so one add or
 * multiply works on two bytes; the sums are kept below 2^16 a lane, so nothing carries from
 * lane to lane. */

#define GQ_M 0x00ff00ffu
#define GQ_MAXW 8 /* words a row: the item's 4 and up to 2 halo words a side */

/* The high lane of a and the low lane of b: two shifts and an or on NVIDIA's compiler, as
 * the H200 timed it; elsewhere a swap of halves, since clang makes the shifts a funnel shift
 * that Oclgrind cannot run. */
inline uint gq_straddle(uint a, uint b)
{
#ifdef __NV_CL_C_VERSION
  return (a >> 16) | (b << 16);
#else
  return as_uint((ushort2)(as_ushort2(a).y, as_ushort2(b).x));
#endif
}

/* The two lanes at byte offset e (a constant) from word k's first byte, out of the words
 * of even bytes xe and of odd ones xo: for e = 4q + m, m 0 and 1 lie in one word, 2 and 3
 * straddle two (a shift by one lane). */
#define GQ_G(xe, xo, k, e)                                                                 \
  (((e) & 3) == 0   ? xe[(k) + ((e) >> 2)]                                                 \
   : ((e) & 3) == 1 ? xo[(k) + ((e) >> 2)]                                                 \
   : ((e) & 3) == 2 ? gq_straddle(xe[(k) + ((e) >> 2)], xe[(k) + ((e) >> 2) + 1])             \
                    : gq_straddle(xo[(k) + ((e) >> 2)], xo[(k) + ((e) >> 2) + 1]))
/* Row `row`'s words from byte x - 4 HW on: the item's 4 and HW a side, past the row's ends
 * the channel's byte of its edge pixel (the clamp). */
inline void gq_row(TS_OBS_PARAM __global const uchar *src, int rowbytes, int x, int row,
                   const int C, const int HW, uint *u)
{
  uint4 m = as_uint4(TS_LD8x16A(src, rowbytes, x, row));
  u[HW] = m.x;
  u[HW + 1] = m.y;
  u[HW + 2] = m.z;
  u[HW + 3] = m.w;
#pragma unroll
  for (int i = 1; i <= HW; i++) {
    u[HW - i] = as_uint(TS_LD8x4A(src, rowbytes, max(x - 4 * i, 0), row));
    u[HW + 3 + i] = as_uint(TS_LD8x4A(src, rowbytes, min(x + 12 + 4 * i, rowbytes - 4), row));
  }
  if (x == 0)
    for (int i = 0; i < HW; i++) {
      uint v = 0;
      for (int b = 0; b < 4; b++) {
        int p = 4 * (i - HW) + b; /* byte p < 0: channel p mod C of the first pixel */
        v |= ((u[HW] >> (8 * ((p % C + C) % C))) & 255u) << (8 * b);
      }
      u[i] = v;
    }
  if (x + QD_W == rowbytes)
    for (int i = HW + 4; i < 2 * HW + 4; i++) {
      uint v = 0;
      for (int b = 0; b < 4; b++) {
        int q = 4 - C + (4 * (i - HW - 4) + b) % C; /* that channel's byte in the last word */
        v |= ((u[HW + 3] >> (8 * q)) & 255u) << (8 * b);
      }
      u[i] = v;
    }
}

/* Rows y .. y + rows - 1 (clamped to the image) as words of even and odd bytes: each row's
 * 4 words and HW a side (gq_row). */
inline void gq_load(TS_OBS_PARAM __global const uchar *src, int rowbytes, int x, int y, int H,
                    const int C, const int HW, const int rows, uint e[][GQ_MAXW],
                    uint o[][GQ_MAXW])
{
#pragma unroll
  for (int j = 0; j < rows; j++) {
    uint u[GQ_MAXW];
    gq_row(TS_OBS_ARG src, rowbytes, x, clamp(y + j, 0, H - 1), C, HW, u);
#pragma unroll
    for (int i = 0; i < 4 + 2 * HW; i++) {
      e[j][i] = u[i] & GQ_M;
      o[j][i] = (u[i] >> 8) & GQ_M;
    }
  }
}

/* ---- boxquad ----
 * On the word path the vertical sums first (at most 765 a lane), then the horizontal ones
 * (at most 2295), unpacked for the scale. On an NVIDIA H200 at 7680x4320 this ran grey in
 * 0.029 ms and RGB in 0.077-0.078 (a byte a 16-bit lane, the horizontal sums first: 0.030
 * and 0.082), before the byte permutes of qd_pick. */

inline void bq_words(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int W, int H,
                     int2 t, const int C)
{
  const int HW = 1, NW = 6; /* a halo word a side: C <= 4 bytes */
  int rowbytes = W * C, x = t.x * QD_W, y0 = t.y * QD_H;
  uint e[QD_H + 2][GQ_MAXW], o[QD_H + 2][GQ_MAXW]; /* even and odd bytes, every row's */
  gq_load(TS_OBS_ARG src, rowbytes, x, y0 - 1, H, C, HW, QD_H + 2, e, o);
#pragma unroll
  for (int j = 0; j < QD_H && y0 + j < H; j++) {
    uint ve[GQ_MAXW] = { 0 }, vo[GQ_MAXW] = { 0 }; /* vertical sums, at most 765 a lane */
#pragma unroll
    for (int i = 0; i < NW; i++) {
      ve[i] = e[j][i] + e[j + 1][i] + e[j + 2][i];
      vo[i] = o[j][i] + o[j + 1][i] + o[j + 2][i];
    }
    ushort p[16];
#pragma unroll
    for (int k = 0; k < 4; k++) {
      uint se = GQ_G(ve, vo, HW + k, -C) + ve[HW + k] + GQ_G(ve, vo, HW + k, C);
      uint so = GQ_G(ve, vo, HW + k, 1 - C) + vo[HW + k] + GQ_G(ve, vo, HW + k, 1 + C);
      p[4 * k] = (ushort)se;
      p[4 * k + 1] = (ushort)so;
      p[4 * k + 2] = (ushort)(se >> 16);
      p[4 * k + 3] = (ushort)(so >> 16);
    }
    TS_ST8x16A(dst, rowbytes, x, y0 + j, qd_box_scale(vload16(0, p)));
  }
}

/* Other row lengths: byte by byte. */
inline void bq_bytes(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int W, int H,
                     int C, int2 t)
{
  int rowbytes = W * C, x = t.x * QD_W, y0 = t.y * QD_H;
  ushort16 a = qd_hbytes(TS_OBS_ARG src, W, C, x, max(y0 - 1, 0), 1, 1, 0);
  ushort16 b = qd_hbytes(TS_OBS_ARG src, W, C, x, y0, 1, 1, 0);
  for (int y = y0; y < min(y0 + QD_H, H); y++) {
    ushort16 c = qd_hbytes(TS_OBS_ARG src, W, C, x, min(y + 1, H - 1), 1, 1, 0);
    qd_store(TS_OBS_ARG dst, rowbytes, x, y, qd_box_scale(a + b + c));
    a = b;
    b = c;
  }
}

/* Grey (the host's entry point for one channel). */
inline void boxquad_tile(TS_BODY_ARGS, int2 t)
{
  if (W % QD_W == 0)
    bq_words(TS_OBS_ARG src, dst, W, H, t, 1);
  else
    bq_bytes(TS_OBS_ARG src, dst, W, H, C, t);
}
TS_ITEM_ENTRY(boxquad)

/* More channels: a kernel of its own, whose register count does not weigh on grey's. */
inline void boxquad_colour_tile(TS_BODY_ARGS, int2 t)
{
  switch ((W * C) % QD_W == 0 ? C : 0) { /* each case a copy with C a constant */
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
  bq_bytes(TS_OBS_ARG src, dst, W, H, C, t);
}
TS_ITEM_ENTRY(boxquad_colour)

/* ---- gaussquad ---- */

/* gauss_round, 16 at a time: (S + 32768) >> 16 is byte 2 of S + 32768. */
inline uchar16 gq_round(uint16 s)
{
  return qd_pick16(s + 32768u, 2);
}

/* The 5 x 5 word path. A lane's weights add up to 256 and its bytes are at most 255, so every
 * sum stays under 2^16 a lane. Weights are symmetric (ts_gauss_weights), so the taps at -i
 * and +i are added before one multiply. C is a constant after inlining:
 *  - grey: the vertical pass first, over the item's words and the halo words (V, at most
 *    255 * 256 a lane); each V split into its high and low bytes; the horizontal pass sums
 *    each (A, B), and (S + 32768) >> 16 = (A + (B >> 8) + 128) >> 8, a lane below 2^16
 *    since the result is at most 255;
 *  - more channels: the horizontal pass first, over the item's words only (the halo is
 *    wider there), unpacked to 32-bit lanes for the vertical pass.
 * On an NVIDIA H200 at 7680x4320 this ran grey in 0.034 ms (the horizontal pass first 0.035,
 * 16-bit lanes of one byte each 0.042) and RGB in 0.110 ms (0.114, 0.117). 8 rows a tile in
 * colour: 0.105 ms, with an entry point of its own (gaussquad_colour); in one kernel with grey
 * it took grey from 0.034 to 0.037 ms, probably as a kernel has one register count. The
 * rounding of colour by the byte permutes of qd_pick: 0.095 ms. */
/* The five taps' weighted sum, the weights mirrored about the centre (w0 w1 w2 w1 w0). */
#define GQ_SUM5(a, b, c, d, e) (w2 * (c) + w1 * ((b) + (d)) + w0 * ((a) + (e)))
/* The horizontal sum, two lanes, of the bytes at offset e0 and e0 + 2 of word k. */
#define GQ_HSUM(xe, xo, k, e0)                                                             \
  GQ_SUM5(GQ_G(xe, xo, k, (e0) - 2 * C), GQ_G(xe, xo, k, (e0) - C), GQ_G(xe, xo, k, e0),    \
          GQ_G(xe, xo, k, (e0) + C), GQ_G(xe, xo, k, (e0) + 2 * C))

inline void gq_words(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int W, int H,
                     __constant uint *wt, int2 t, const int C)
{
  const int HW = (2 * C + 3) / 4, NW = 4 + 2 * HW; /* halo words a side: 2C bytes */
  const int TH = GQ_ROWS(C);
  int rowbytes = W * C, x = t.x * QD_W, y0 = t.y * TH;
  uint w0 = wt[0], w1 = wt[1], w2 = wt[2];
  if (C == 1) {
    uint e[GQ_H + 4][GQ_MAXW], o[GQ_H + 4][GQ_MAXW]; /* even and odd bytes, every row's */
    gq_load(TS_OBS_ARG src, rowbytes, x, y0 - 2, H, C, HW, GQ_H + 4, e, o);
#pragma unroll
    for (int j = 0; j < TH && y0 + j < H; j++) {
      uint he[GQ_MAXW], ho[GQ_MAXW], le[GQ_MAXW], lo[GQ_MAXW]; /* V's high and low bytes */
#pragma unroll
      for (int i = 0; i < NW; i++) {
        uint ve = GQ_SUM5(e[j][i], e[j + 1][i], e[j + 2][i], e[j + 3][i], e[j + 4][i]);
        uint vo = GQ_SUM5(o[j][i], o[j + 1][i], o[j + 2][i], o[j + 3][i], o[j + 4][i]);
        he[i] = (ve >> 8) & GQ_M;
        le[i] = ve & GQ_M;
        ho[i] = (vo >> 8) & GQ_M;
        lo[i] = vo & GQ_M;
      }
      uint r[4];
#pragma unroll
      for (int k = 0; k < 4; k++) {
        uint ae = GQ_HSUM(he, ho, HW + k, 0), be = GQ_HSUM(le, lo, HW + k, 0);
        uint ao = GQ_HSUM(he, ho, HW + k, 1), bo = GQ_HSUM(le, lo, HW + k, 1);
        uint pe = ((ae + ((be >> 8) & GQ_M) + 0x00800080u) >> 8) & GQ_M;
        uint po = ((ao + ((bo >> 8) & GQ_M) + 0x00800080u) >> 8) & GQ_M;
        r[k] = pe | (po << 8);
      }
      TS_ST8x16A(dst, rowbytes, x, y0 + j, as_uchar16((uint4)(r[0], r[1], r[2], r[3])));
    }
    return;
  }
  uint e[GQ_HC + 4][GQ_MAXW], o[GQ_HC + 4][GQ_MAXW];
  gq_load(TS_OBS_ARG src, rowbytes, x, y0 - 2, H, C, HW, TH + 4, e, o);
  uint16 h[GQ_HC + 4]; /* each row's horizontal sums, a lane a byte */
#pragma unroll
  for (int j = 0; j < TH + 4; j++) {
    uint p[16];
#pragma unroll
    for (int k = 0; k < 4; k++) {
      uint se = GQ_HSUM(e[j], o[j], HW + k, 0), so = GQ_HSUM(e[j], o[j], HW + k, 1);
      p[4 * k] = se & 0xffffu;
      p[4 * k + 1] = so & 0xffffu;
      p[4 * k + 2] = se >> 16;
      p[4 * k + 3] = so >> 16;
    }
    h[j] = vload16(0, p);
  }
#pragma unroll
  for (int j = 0; j < TH && y0 + j < H; j++) {
    uint16 s = GQ_SUM5(h[j], h[j + 1], h[j + 2], h[j + 3], h[j + 4]);
    TS_ST8x16A(dst, rowbytes, x, y0 + j, gq_round(s));
  }
}

/* Other sizes and row lengths: a ring of the last k rows' horizontal sums, tiles of TH rows. */
inline void gq_bytes(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int W, int H,
                     int C, __constant uint *weights, int r, int2 t, int TH)
{
  int rowbytes = W * C, x = t.x * QD_W, y0 = t.y * TH, y1 = min(y0 + TH, H), k = 2 * r + 1;
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

/* Grey (the host's entry point for one channel). */
inline void gaussquad_tile(TS_BODY_ARGS, int2 t)
{
  if (r == 2 && W % QD_W == 0)
    gq_words(TS_OBS_ARG src, dst, W, H, weights, t, 1);
  else
    gq_bytes(TS_OBS_ARG src, dst, W, H, C, weights, r, t, GQ_H);
}
TS_ITEM_ENTRY(gaussquad)

/* More channels: a kernel of its own, whose register count does not weigh on grey's. */
inline void gaussquad_colour_tile(TS_BODY_ARGS, int2 t)
{
  switch (r == 2 && (W * C) % QD_W == 0 ? C : 0) {
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
  gq_bytes(TS_OBS_ARG src, dst, W, H, C, weights, r, t, GQ_HC);
}
TS_ITEM_ENTRY(gaussquad_colour)
