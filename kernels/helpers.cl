/* Arithmetic the filter families share: the Gaussian's rounding, the box's scale, and the
 * box's 16-byte column sums (boxstrip, boxband), which read through access.cl's accessors.
 * Built last, before the kernel's own file. */

/* Gaussian: (S + 32768) >> 16 with weights summing to 65536. */
inline uchar gauss_round(uint s)
{
  return (uchar)((s + 32768u) >> 16);
}

/* The integral image's luma of pixel (x, y) of an image of C channels: the byte itself when
 * grey, else (77 R + 150 G + 29 B + 128) >> 8, the host's ts_luma. */
inline uint ld_luma(TS_OBS_PARAM __global const uchar *src, int W, int C, int x, int y)
{
  if (C == 1)
    return TS_LD8(src, W, x, y);
  int pitch = W * C, c = x * C;
  return (77u * TS_LD8(src, pitch, c, y) + 150u * TS_LD8(src, pitch, c + 1, y) +
          29u * TS_LD8(src, pitch, c + 2, y) + 128u) >> 8;
}

/* ld_luma of the 16 pixels from x of an RGB row, from three 16-byte loads a, b and c:
 * channel k of pixel i is byte 3i + k of the 48, gathered by swizzles (a shuffle2 with a
 * mask is a library call on pocl). The luma's sum stays below 2^16. */
inline ushort16 ld_luma16_rgb(TS_OBS_PARAM __global const uchar *src, int W, int x, int y)
{
  int pitch = 3 * W;
  uchar16 a = TS_LD8x16(src, pitch, 3 * x, y), b = TS_LD8x16(src, pitch, 3 * x + 16, y);
  uchar16 c = TS_LD8x16(src, pitch, 3 * x + 32, y);
  uchar16 r = (uchar16)(a.s0369, a.scf, b.s258, b.sbe, c.s147, c.sad);
  uchar16 g = (uchar16)(a.s147, a.sad, b.s0369, b.scf, c.s258, c.sbe);
  uchar16 bl = (uchar16)(a.s258, a.sbe, b.s147, b.sad, c.s0369, c.scf);
  return ((ushort)77 * convert_ushort16(r) + (ushort)150 * convert_ushort16(g) +
          (ushort)29 * convert_ushort16(bl) + (ushort)128) >> (ushort)8;
}

/* Box 3x3 scale: one float multiply by 0.111f, truncated toward zero. */
inline uchar box_scale(int sum)
{
  return (uchar)((float)sum * 0.111f);
}

/* ---- Box 3x3 in 16-byte columns (boxstrip, boxband) ----
 * box_scale for 16 sums at once, exact without a float: for every sum of nine bytes
 * (0 .. 2295), (S * 58196) >> 19 is box_scale(S) (tests/test_variants.c checks them all).
 * Written so, clang widens to 32-bit lanes: one AVX-512 multiply, but on AVX2 two vpmulld,
 * two shifts, two masks and three packs and extracts per 16 bytes, half of boxband's column
 * code. On x86 with AVX2 (pocl) it stays in the 16-bit lanes instead: vpmulhuw's high half of
 * the 16 x 16-bit product is (S * 58196) >> 16, 3 more bits off give the same floor, and the
 * result (at most 254) packs to bytes as it is. Through the builtins because clang folds the
 * two shifts of the plain C back into one 32-bit shift of 19. */
inline uchar16 box_scale16(ushort16 s)
{
#if defined(__AVX2__)
  ushort16 hi = as_ushort16(__builtin_ia32_pmulhuw256(as_short16(s), (short16)(short)58196));
  short16 q = as_short16(hi >> (ushort)3);
  return as_uchar16(__builtin_ia32_packuswb128(q.lo, q.hi));
#else
  return convert_uchar16((convert_uint16(s) * 58196u) >> 19);
#endif
}

/* How box_hsum16 meets the row's ends for the 16 bytes at x of a row of rowbytes bytes:
 * 0 inside (x - C >= 0 and x + 16 + C <= rowbytes), 1 the row's first 16 bytes, 2 its last,
 * 3 both (a row of 16 bytes), 4 byte by byte (anything else, a column cut by the row's end
 * included, and C other than 1, 3, 4). */
inline int box_kind16(int rowbytes, int C, int x)
{
  int left = x == 0 ? 1 : x >= C ? 0 : 4;
  int right = x + 16 == rowbytes ? 2 : x + 16 + C <= rowbytes ? 0 : 4;
  return (C != 1 && C != 3 && C != 4) || left == 4 || right == 4 ? 4 : left | right;
}

/* The horizontal 3-tap sums of bytes x .. x + 15 of a row: each byte plus the same channel
 * of the pixels left and right (C bytes away), clamped to the edge pixel. Inside the row
 * three overlapping 16-byte loads; at the row's first or last 16 bytes the missing
 * neighbours are a shuffle of the middle load (the edge pixel's own bytes); byte by byte
 * otherwise, where a byte's pixel is the first (last) exactly when its neighbour would lie
 * before (after) the row, and bytes past the row repeat its last (their sums are never
 * stored). */
inline ushort16 box_hsum16(TS_OBS_PARAM __global const uchar *src, int rowbytes, int C, int x,
                           int row, int kind)
{
  if (kind == 4) {
    ushort s[16];
    for (int i = 0; i < 16; i++) {
      int b = min(x + i, rowbytes - 1), l = b - C >= 0 ? b - C : b,
          r = b + C < rowbytes ? b + C : b;
      s[i] = (ushort)(TS_LD8(src, rowbytes, l, row) + TS_LD8(src, rowbytes, b, row) +
                      TS_LD8(src, rowbytes, r, row));
    }
    return vload16(0, s);
  }
  uchar16 m = TS_LD8x16(src, rowbytes, x, row), l, r;
  if (kind & 1)
    l = C == 1   ? shuffle(m, (uchar16)(0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14))
        : C == 3 ? shuffle(m, (uchar16)(0, 1, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12))
                 : shuffle(m, (uchar16)(0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
  else
    l = TS_LD8x16(src, rowbytes, x - C, row);
  if (kind & 2)
    r = C == 1   ? shuffle(m, (uchar16)(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 15))
        : C == 3 ? shuffle(m, (uchar16)(3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 13, 14, 15))
                 : shuffle(m, (uchar16)(4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 12, 13, 14, 15));
  else
    r = TS_LD8x16(src, rowbytes, x + C, row);
  return convert_ushort16(l) + convert_ushort16(m) + convert_ushort16(r);
}

/* The 16-byte column at byte x (kind: box_kind16's) walked down rows y0 .. y0 + n - 1, the
 * rows above and below clamped to the image: three rows of horizontal sums, each output row
 * their sum, scaled and stored as one 16-byte vector, or byte by byte where the row's end
 * cuts the column. */
inline void box_column16(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int H,
                         int C, int rowbytes, int x, int y0, int n, int kind)
{
  ushort16 a = box_hsum16(TS_OBS_ARG src, rowbytes, C, x, max(y0 - 1, 0), kind),
           b = box_hsum16(TS_OBS_ARG src, rowbytes, C, x, y0, kind);
  for (int y = y0; y < y0 + n; y++) {
    ushort16 c = box_hsum16(TS_OBS_ARG src, rowbytes, C, x, min(y + 1, H - 1), kind);
    uchar16 o = box_scale16(a + b + c);
    if (kind != 4 || x + 16 <= rowbytes) {
      TS_ST8x16(dst, rowbytes, x, y, o);
    } else {
      uchar t[16];
      vstore16(o, 0, t);
      for (int i = 0; x + i < rowbytes; i++)
        TS_ST8(dst, rowbytes, x + i, y, t[i]);
    }
    a = b;
    b = c;
  }
}
