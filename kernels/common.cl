/* Helpers shared by every tilescope kernel (prepended to each kernel file at build time).
 * Out-of-image reads clamp to the nearest edge pixel, as media-block reads do; writes
 * outside the image are dropped.
 *
 * Every kernel has the same arguments, so the host launches them all alike:
 *   src        the pass's input buffer (uchar, or ushort for a transposed intermediate)
 *   dst        where the pass writes: a shadow buffer committed later, or the buffer itself
 *   committed  the pass's output as committed so far (the integral image reads it)
 *   tiles      thread coordinates; this launch runs tiles[first .. first + ntiles - 1]
 *   W, H, C    the image (C = 1 for the integral image, which works on luma)
 *   weights, r Gaussian 1-D weights (summing to 256) and radius
 *   lmem       local memory for the variants that stage a tile, as 32-bit words so that it
 *              is aligned for the 32-bit sums some of them keep there */

#define TS_ARGS                                                                      \
  __global const uchar *src, __global uchar *dst, __global const uchar *committed,   \
      __global const int2 *tiles, int first, int ntiles, int W, int H, int C,        \
      __constant uint *weights, int r, __local uint *lmem

inline uchar ld8(__global const uchar *b, int W, int H, int C, int x, int y, int c)
{
  x = clamp(x, 0, W - 1);
  y = clamp(y, 0, H - 1);
  return b[(y * W + x) * C + c];
}

/* Byte column `col` of a row of W pixels of C channels; outside the row it maps to the same
 * channel of the nearest edge pixel. */
inline uchar ld8_col(__global const uchar *b, int W, int H, int C, int col, int row)
{
  int px = col >= 0 ? col / C : -((-col + C - 1) / C);
  return ld8(b, W, H, C, px, row, col - px * C);
}

/* Gaussian: (S + 32768) >> 16 with weights summing to 65536. */
inline uchar gauss_round(uint s)
{
  return (uchar)((s + 32768u) >> 16);
}

/* Box 3x3 scale: one float multiply by 0.111f, truncated toward zero. */
inline uchar box_scale(int sum)
{
  return (uchar)((float)sum * 0.111f);
}
