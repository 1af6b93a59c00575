/* gauss_stream: the Gaussian for a CPU's vector units and prefetchers (not in the seed). One
 * work-item owns GT_H whole output rows and streams along them in chunks of GT_CW bytes,
 * each chunk down its rows, vertical pass first: for an output row it reads the 2r + 1 input
 * rows around it, GT_N bytes at a time, and keeps their vertical sums v for the chunk in
 * private memory, then runs the horizontal pass over them and stores GT_N bytes at a time.
 * What makes it fast on pocl:
 *  - memory is walked along rows, as a copy walks it, so the prefetchers follow, where a
 *    narrow strip walked down the image (gauss_slide) waits on memory at every row; and the
 *    chunks of the GT_H + 2r input rows stay in L1 while the work-item's rows use them;
 *  - the radius and the channel count are constants inside the row's code: switches call one
 *    always-inlined body per (C, r), written as straight-line code whose taps are guarded by
 *    conditions on the constant r (pocl unrolls no loops, not even under #pragma unroll), so
 *    every tap is unrolled and every tap offset is an immediate;
 *  - exact 16-bit integer arithmetic only, GT_N lanes a vector: v is at most 255 * 256, so
 *    16-bit sums that wrap on the way still end exact; the weights are symmetric
 *    (ts_gauss_weights), so the pixels at -i and +i are added before one multiply;
 *  - the full sum S (up to 2^24) is never formed: with vh = v >> 8, A = sum w_i vh_i and
 *    L = sum w_i v_i, both modulo 2^16, B = L - (A << 8) (mod 2^16) is exactly
 *    S - 256 A = sum w_i (v_i & 255), which lies in 0 .. 65280; and
 *    (S + 32768) >> 16 = (A + (B >> 8) + 128) >> 8, a sum below 65536 since the result is
 *    at most 255;
 *  - on x86 (pocl), 32 lanes a vector: OpenCL C's widest built-in vector has 16, which
 *    fills half of an AVX-512 register, so clang's own 32-lane vectors are used there: pocl's
 *    AVX-512 build then runs the taps in 512-bit registers, and without AVX-512 it splits
 *    each in two, with half the loop's overhead of 16 lanes; elsewhere 16 lanes;
 *  - on x86 with AVX2, grey rows' horizontal pass in exact 32-bit sums instead, two taps an
 *    instruction (gt_hsum_pm), where the two 16-bit accumulators cost twice as much;
 *  - unaligned 16-byte loads and stores (TS_LD8x16, TS_ST8x16), two a vector for 32 lanes;
 *    the last vector of a chunk overlaps the one before it instead of running past the row.
 * Rows shorter than GT_N bytes take a byte-by-byte path. The weights' symmetry holds by
 * construction (g_i of the centred offset, each rounded alike, the centre adjusted). */

#define GT_H 4       /* output rows a work-item */
#define GT_CW 512    /* bytes a chunk of a row; the last chunk takes up to GT_N - 1 more */
#define GT_HALO 32   /* halo bytes each side of a chunk: a multiple of 16, >= r * C */
#define GT_RMAX 7

/* Inlined whatever the inliner's budget: the radius and C must reach the code as constants. */
#define GT_INLINE __attribute__((always_inline)) inline

/* The vectors: gt_v of GT_N 16-bit lanes, loaded from and stored to GT_N bytes. */
#if defined(__clang__) && defined(__x86_64__)
#define GT_N 32
typedef uchar gt_b __attribute__((ext_vector_type(32)));
typedef ushort gt_v __attribute__((ext_vector_type(32)));
#else
#define GT_N 16
typedef ushort16 gt_v;
#endif
GT_INLINE gt_v gt_ld(TS_OBS_PARAM __global const uchar *src, int rowbytes, int x, int row)
{
#if GT_N == 32
  uchar16 a = TS_LD8x16(src, rowbytes, x, row), b = TS_LD8x16(src, rowbytes, x + 16, row);
  gt_b ab = __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
                                    31);
  return __builtin_convertvector(ab, gt_v);
#else
  return convert_ushort16(TS_LD8x16(src, rowbytes, x, row));
#endif
}
GT_INLINE void gt_st(TS_OBS_PARAM __global uchar *dst, int rowbytes, int x, int row, gt_v o)
{
#if GT_N == 32
  gt_b b = __builtin_convertvector(o, gt_b);
  TS_ST8x16(dst, rowbytes, x, row, b.lo);
  TS_ST8x16(dst, rowbytes, x + 16, row, b.hi);
#else
  TS_ST8x16(dst, rowbytes, x, row, convert_uchar16(o));
#endif
}
#define GT_BUF (GT_CW + GT_N + 2 * GT_HALO)

/* The vertical sum of GT_N bytes from column x over the 2r + 1 rows rows[0 .. 2R] (row indices,
 * clamped), the rows at -i and +i from the centre paired. */
#define GT_VTAP(i)                                                                        \
  if (R >= i)                                                                             \
    s += w[R - i] * (gt_ld(TS_OBS_ARG src, rowbytes, x, rows[R - i]) +                    \
                     gt_ld(TS_OBS_ARG src, rowbytes, x, rows[R + i]));
GT_INLINE gt_v gt_vsum(TS_OBS_PARAM __global const uchar *src, int rowbytes, int x,
                       const int *rows, const int R, const ushort *w)
{
  gt_v s = w[R] * gt_ld(TS_OBS_ARG src, rowbytes, x, rows[R]);
  GT_VTAP(1) GT_VTAP(2) GT_VTAP(3) GT_VTAP(4) GT_VTAP(5) GT_VTAP(6) GT_VTAP(7)
  return s;
}

/* GT_N output bytes from the horizontal sums over v and vh, centred at p and q (their entries
 * for the output's first byte), the taps C bytes apart; the rounding as the file's head says. */
typedef gt_v gt_v_u __attribute__((aligned(2))); /* one unaligned access */
#define GT_LDV(b, o) (*(const gt_v_u *)((b) + (o)))
#define GT_HTAP(i)                                                                        \
  if (R >= i) {                                                                           \
    L += w[R - i] * (GT_LDV(p, -i * C) + GT_LDV(p, i * C));                               \
    A += w[R - i] * (GT_LDV(q, -i * C) + GT_LDV(q, i * C));                               \
  }
GT_INLINE gt_v gt_hsum(const ushort *p, const ushort *q, const int C, const int R,
                       const ushort *w)
{
  gt_v L = w[R] * GT_LDV(p, 0), A = w[R] * GT_LDV(q, 0);
  GT_HTAP(1) GT_HTAP(2) GT_HTAP(3) GT_HTAP(4) GT_HTAP(5) GT_HTAP(6) GT_HTAP(7)
  gt_v B = L - (A << (ushort)8);
  return (A + (B >> (ushort)8) + (ushort)128) >> (ushort)8;
}

/* Grey rows on x86 with AVX2 (pocl): the horizontal pass in 32-bit sums, so that one
 * accumulator does what L and A do above. vpmaddwd multiplies adjacent 16-bit lanes pairwise
 * and adds each pair into a 32-bit lane, so with C = 1 a tap pair (i, i + 1) of even outputs
 * is one instruction, the odd outputs the same loads one lane on; 2r + 1 taps take r + 1
 * pairs, the last one's second weight 0. Its lanes are signed, so v is kept as v - 32640
 * (-32640 .. 32640 for v in 0 .. 65280): the weights sum to 256, so the sum S' of those is
 * S - 2^23 + 2^15, the rounding included, and (S + 32768) >> 16 = (S' >> 16) + 128, an
 * arithmetic shift: byte 2 of S' with its top bit flipped. An even and an odd output's
 * 32-bit lanes make the two bytes of one 16-bit lane, which a vpackusdw of two such vectors
 * and a vpermq put in row order. About half the instructions of gt_hsum's two accumulators
 * on AVX2, and no vh. */
#if defined(__AVX2__) && GT_N == 32
#define GT_PM 1
typedef short16 gt_s_u __attribute__((aligned(2)));
#define GT_LDS(b, o) (*(const gt_s_u *)((b) + (o)))
#define GT_PTAP(k)                                                                        \
  if (R >= k) {                                                                           \
    E0 += __builtin_ia32_pmaddwd256(GT_LDS(p, 2 * k - R), wp[k]);                         \
    O0 += __builtin_ia32_pmaddwd256(GT_LDS(p, 2 * k - R + 1), wp[k]);                     \
    E1 += __builtin_ia32_pmaddwd256(GT_LDS(p, 2 * k - R + 16), wp[k]);                    \
    O1 += __builtin_ia32_pmaddwd256(GT_LDS(p, 2 * k - R + 17), wp[k]);                    \
  }
/* GT_N (32) output bytes from p, v - 32640 of the first output's column; wp[k] the weights
 * of taps 2k - R and 2k - R + 1, alternating. */
GT_INLINE uchar16 gt_hsum_pm(const short *p, const int R, const short16 *wp, uchar16 *hi)
{
  int8 E0 = 0, O0 = 0, E1 = 0, O1 = 0;
  GT_PTAP(0) GT_PTAP(1) GT_PTAP(2) GT_PTAP(3) GT_PTAP(4) GT_PTAP(5) GT_PTAP(6) GT_PTAP(7)
  /* byte 2 of each sum: the even output's low, the odd output's above it */
  int8 t0 = as_int8(((as_uint8(E0) >> 16) & 0xffu) | ((as_uint8(O0) >> 8) & 0xff00u));
  int8 t1 = as_int8(((as_uint8(E1) >> 16) & 0xffu) | ((as_uint8(O1) >> 8) & 0xff00u));
  long4 q = as_long4(__builtin_ia32_packusdw256(t0, t1)).s0213 ^ (long)0x8080808080808080;
  *hi = as_uchar16(q.hi);
  return as_uchar16(q.lo);
}
#else
#define GT_PM 0
#endif

/* The vertical sums of the GT_N columns from x, stored at v and vh as gt_hsum reads them, or
 * (PM) as v - 32640 at v for gt_hsum_pm. */
GT_INLINE void gt_vcol(TS_OBS_PARAM __global const uchar *src, int rowbytes, int x,
                       const int *rows, const int R, const ushort *w, ushort *v, ushort *vh,
                       const int PM)
{
  gt_v s = gt_vsum(TS_OBS_ARG src, rowbytes, x, rows, R, w);
  if (PM) {
    *(gt_v_u *)v = s - (ushort)32640;
  } else {
    *(gt_v_u *)v = s;
    *(gt_v_u *)vh = s >> (ushort)8;
  }
}

/* The GT_N output bytes of row y from x, from the vertical sums at v and vh (gt_vcol's). */
GT_INLINE void gt_hcol(TS_OBS_PARAM __global uchar *dst, int rowbytes, int y, int x,
                       const ushort *v, const ushort *vh, const int C, const int R,
                       const ushort *w, const void *wp, const int PM)
{
#if GT_PM
  if (PM) {
    uchar16 hi, lo = gt_hsum_pm((const short *)v, R, (const short16 *)wp, &hi);
    TS_ST8x16(dst, rowbytes, x, y, lo);
    TS_ST8x16(dst, rowbytes, x + 16, y, hi);
    return;
  }
#endif
  gt_st(TS_OBS_ARG dst, rowbytes, x, y, gt_hsum(v, vh, C, R, w));
}

/* Chunk [c0, c1) of output row y (rows of at least GT_N bytes). v[b] and vh[b] hold the
 * vertical sum of column c0 - GT_HALO + b and its high byte. */
GT_INLINE void gt_chunk(TS_OBS_PARAM __global const uchar *src, __global uchar *dst,
                        int rowbytes, int H, const int C, const int R, const ushort *w,
                        const void *wp, int y, int c0, int c1, ushort *v, ushort *vh)
{
  const int PM = GT_PM && C == 1; /* gt_hsum_pm: v - 32640 in v, no vh, a column more */
  int rows[2 * GT_RMAX + 1], base = c0 - GT_HALO, xr = R * C + PM;
  for (int j = 0; j <= 2 * R; j++)
    rows[j] = clamp(y - R + j, 0, H - 1);
  /* Vertical sums over the chunk, r * C columns left of it and xr right, those inside the
   * row. */
  int a0 = max(c0 - R * C, 0), a1 = min(c1 + xr, rowbytes);
  /* The vectors from a0 that end before a1, then the last, ending at a1 over the one before
   * it: a plain loop, not one that clamps x, so that clang keeps x a 64-bit induction
   * variable (the clamp and the sign extensions cost a seventh of the grey rows'
   * instructions under callgrind). The same for the outputs below. */
  for (int x = a0; x < a1 - GT_N; x += GT_N)
    gt_vcol(TS_OBS_ARG src, rowbytes, x, rows, R, w, v + (x - base), vh + (x - base), PM);
  int xe = a1 - GT_N;
  gt_vcol(TS_OBS_ARG src, rowbytes, xe, rows, R, w, v + (xe - base), vh + (xe - base), PM);
  /* Past the row's ends, the same channel of the edge pixel (the clamp commutes with the
   * vertical sum). */
  if (c0 == 0)
    for (int col = -R * C; col < 0; col++) {
      int from = (col % C + C) % C;
      v[col - base] = v[from - base];
      if (!PM)
        vh[col - base] = vh[from - base];
    }
  if (c1 == rowbytes)
    for (int col = rowbytes; col < rowbytes + xr; col++) {
      int from = rowbytes - C + (col - rowbytes) % C;
      v[col - base] = v[from - base];
      if (!PM)
        vh[col - base] = vh[from - base];
    }
  for (int x = c0; x < c1 - GT_N; x += GT_N)
    gt_hcol(TS_OBS_ARG dst, rowbytes, y, x, v + (x - base), vh + (x - base), C, R, w, wp, PM);
  xe = c1 - GT_N;
  gt_hcol(TS_OBS_ARG dst, rowbytes, y, xe, v + (xe - base), vh + (xe - base), C, R, w, wp, PM);
}

/* Rows shorter than GT_N bytes: each byte from its clamped window. */
inline void gt_row_bytes(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int W,
                         int H, int C, int r, __constant uint *weights, int y)
{
  for (int col = 0; col < W * C; col++) {
    int x = col / C, c = col - x * C;
    uint s = 0;
    for (int j = -r; j <= r; j++) {
      uint h = 0;
      for (int i = -r; i <= r; i++)
        h += weights[i + r] * ld8(src, W, H, C, x + i, y + j, c);
      s += weights[j + r] * h;
    }
    TS_ST8(dst, W * C, col, y, gauss_round(s));
  }
}

/* The work-item's rows with radius R and C channels, both constants after inlining. */
GT_INLINE void gt_rows(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int W,
                       int H, const int C, __constant uint *weights, const int R, int2 t)
{
  ushort w[GT_RMAX + 1]; /* the left half and the centre; the right half mirrors it */
  for (int i = 0; i <= GT_RMAX; i++)
    w[i] = i <= R ? (ushort)weights[i] : (ushort)0;
  ushort v[GT_BUF], vh[GT_BUF];
#if GT_PM
  short16 wp[GT_RMAX + 1]; /* gt_hsum_pm's weights: taps 2k - R and 2k - R + 1, alternating */
  for (int k = 0; k <= GT_RMAX; k++) {
    int a = abs(2 * k - R), b = abs(2 * k - R + 1);
    short wa = a <= R ? (short)w[R - a] : 0, wb = b <= R ? (short)w[R - b] : 0;
    wp[k] = (short16)(wa, wb, wa, wb, wa, wb, wa, wb, wa, wb, wa, wb, wa, wb, wa, wb);
  }
#else
  int wp[1];
#endif
  int rowbytes = W * C, y0 = t.y * GT_H, y1 = min(y0 + GT_H, H);
  /* Chunk by chunk, each down the work-item's rows: the input rows' chunks stay in L1 while
   * the rows use them. The last chunk takes the rest when under GT_CW + GT_N bytes, so that
   * every chunk has at least one whole vector. */
  for (int c0 = 0; c0 < rowbytes;) {
    int c1 = rowbytes - c0 < GT_CW + GT_N ? rowbytes : c0 + GT_CW;
    for (int y = y0; y < y1; y++)
      gt_chunk(TS_OBS_ARG src, dst, rowbytes, H, C, R, w, wp, y, c0, c1, v, vh);
    c0 = c1;
  }
}

/* One copy of the rows' code per radius, for C channels (a constant, or not). */
GT_INLINE void gt_rows_r(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int W,
                         int H, const int C, __constant uint *weights, int r, int2 t)
{
  switch (r) {
  case 1: gt_rows(TS_OBS_ARG src, dst, W, H, C, weights, 1, t); break;
  case 2: gt_rows(TS_OBS_ARG src, dst, W, H, C, weights, 2, t); break;
  case 3: gt_rows(TS_OBS_ARG src, dst, W, H, C, weights, 3, t); break;
  case 4: gt_rows(TS_OBS_ARG src, dst, W, H, C, weights, 4, t); break;
  case 5: gt_rows(TS_OBS_ARG src, dst, W, H, C, weights, 5, t); break;
  case 6: gt_rows(TS_OBS_ARG src, dst, W, H, C, weights, 6, t); break;
  default: gt_rows(TS_OBS_ARG src, dst, W, H, C, weights, 7, t); break;
  }
}

inline void gauss_stream_tile(TS_BODY_ARGS, int2 t)
{
  if (W * C < GT_N || C > 4) { /* (C > 4 would outgrow GT_HALO; images have 1, 3 or 4) */
    for (int y = t.y * GT_H; y < min(t.y * GT_H + GT_H, H); y++)
      gt_row_bytes(TS_OBS_ARG src, dst, W, H, C, r, weights, y);
    return;
  }
  switch (C) { /* C a constant too, so that every tap's offset is an immediate */
  case 1: gt_rows_r(TS_OBS_ARG src, dst, W, H, 1, weights, r, t); break;
  case 3: gt_rows_r(TS_OBS_ARG src, dst, W, H, 3, weights, r, t); break;
  case 4: gt_rows_r(TS_OBS_ARG src, dst, W, H, 4, weights, r, t); break;
  default: gt_rows_r(TS_OBS_ARG src, dst, W, H, C, weights, r, t); break;
  }
}
TS_ITEM_ENTRY(gauss_stream)
