/* Box 3x3 kernels (seed: C for Metal tutorial 11, and "Transpose Is Your Friend").
 * out = trunc(float(sum of the centred, edge-clamped 3x3 window) * 0.111f). */

/* box2d: one work-group per 16x16 tile, one work-item per pixel, nine loads each. */
__kernel __attribute__((reqd_work_group_size(16, 16, 1))) void box2d(TS_ARGS)
{
  int2 t = tiles[first + get_group_id(0)];
  int x = t.x * 16 + (int)get_local_id(0), y = t.y * 16 + (int)get_local_id(1);
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    int s = 0;
    for (int j = -1; j <= 1; j++)
      for (int i = -1; i <= 1; i++)
        s += ld8(src, W, H, C, x + i, y + j, c);
    dst[(y * W + x) * C + c] = box_scale(s);
  }
}

/* The tutorial's three register budgets: one work-item (one hardware thread) owns 24 bytes
 * x 6 rows and reads a (24 + 2C)-byte x 8-row block starting one pixel up and left. */

#define LIN_W 24
#define LIN_H 6

inline void lin_read_row(__global const uchar *src, int W, int H, int C, int2 t, int row,
                         uchar *in)
{
  int col0 = t.x * LIN_W - C;
  for (int j = 0; j < LIN_W + 2 * C; j++)
    in[j] = ld8_col(src, W, H, C, col0 + j, row);
}

/* Horizontal 3-tap sums of one input row. */
inline void lin_hsum(int C, const uchar *in, short *m)
{
  for (int j = 0; j < LIN_W; j++)
    m[j] = (short)(in[j] + in[j + C] + in[j + 2 * C]);
}

inline void lin_write_row(__global uchar *dst, int W, int H, int C, int2 t, int row,
                          const uchar *out)
{
  if (row >= H)
    return;
  for (int j = 0; j < LIN_W; j++) {
    int col = t.x * LIN_W + j;
    if (col < W * C)
      dst[row * W * C + col] = out[j];
  }
}

/* linear1d2: the whole block in registers: in 8x32 + m 8x24 s16 + m_out 6x24 s16 + out 6x24. */
__kernel void linear1d2(TS_ARGS)
{
  int i = get_global_id(0);
  if (i >= ntiles)
    return;
  int2 t = tiles[first + i];
  uchar in[8][32];
  short m[8][LIN_W], m_out[LIN_H][LIN_W];
  uchar out[LIN_H][LIN_W];
  for (int r = 0; r < 8; r++)
    lin_read_row(src, W, H, C, t, t.y * LIN_H - 1 + r, in[r]);
  for (int r = 0; r < 8; r++)
    lin_hsum(C, in[r], m[r]);
  for (int r = 0; r < LIN_H; r++)
    for (int j = 0; j < LIN_W; j++)
      m_out[r][j] = (short)(m[r][j] + m[r + 1][j] + m[r + 2][j]);
  for (int r = 0; r < LIN_H; r++)
    for (int j = 0; j < LIN_W; j++)
      out[r][j] = box_scale(m_out[r][j]);
  for (int r = 0; r < LIN_H; r++)
    lin_write_row(dst, W, H, C, t, t.y * LIN_H + r, out[r]);
}

/* linearslide: three rows of input and of partial sums; one row in, one row out per step. */
__kernel void linearslide(TS_ARGS)
{
  int i = get_global_id(0);
  if (i >= ntiles)
    return;
  int2 t = tiles[first + i];
  uchar in[3][32], out[LIN_W];
  short m[3][LIN_W];
  int row0 = t.y * LIN_H - 1;
  for (int r = 0; r < 3; r++) {
    lin_read_row(src, W, H, C, t, row0 + r, in[r]);
    lin_hsum(C, in[r], m[r]);
  }
  for (int s = 0; s < LIN_H - 1; s++) {
    for (int j = 0; j < LIN_W; j++)
      out[j] = box_scale(m[0][j] + m[1][j] + m[2][j]);
    lin_write_row(dst, W, H, C, t, t.y * LIN_H + s, out);
    lin_read_row(src, W, H, C, t, row0 + s + 3, in[s % 3]); /* slide down one row */
    lin_hsum(C, in[s % 3], m[s % 3]);
  }
  for (int j = 0; j < LIN_W; j++)
    out[j] = box_scale(m[0][j] + m[1][j] + m[2][j]);
  lin_write_row(dst, W, H, C, t, t.y * LIN_H + LIN_H - 1, out);
}

/* linearslide2: one block read, a 3-row window of partial sums, one block write. */
__kernel void linearslide2(TS_ARGS)
{
  int i = get_global_id(0);
  if (i >= ntiles)
    return;
  int2 t = tiles[first + i];
  uchar in[8][32], out[LIN_H][LIN_W];
  short m[3][LIN_W];
  for (int r = 0; r < 8; r++)
    lin_read_row(src, W, H, C, t, t.y * LIN_H - 1 + r, in[r]);
  for (int r = 0; r < 3; r++)
    lin_hsum(C, in[r], m[r]);
  for (int s = 0; s < LIN_H - 1; s++) {
    for (int j = 0; j < LIN_W; j++)
      out[s][j] = box_scale(m[0][j] + m[1][j] + m[2][j]);
    lin_hsum(C, in[s + 3], m[s % 3]);
  }
  for (int j = 0; j < LIN_W; j++)
    out[LIN_H - 1][j] = box_scale(m[0][j] + m[1][j] + m[2][j]);
  for (int r = 0; r < LIN_H; r++)
    lin_write_row(dst, W, H, C, t, t.y * LIN_H + r, out[r]);
}

/* transpose2pass: one horizontal 3-tap kernel, run twice. A work-group covers 32x8 source
 * pixels; each work-item sums along its source row and writes at the transposed position.
 * Pass 1 reads the image (W x H) and writes 16-bit sums to a H x W intermediate; pass 2
 * reads that, sums again, scales and writes the W x H result. */
inline void tp_hpass(__global const uchar *src, __global uchar *dst, int2 t, int sw, int sh,
                     int C, int second)
{
  int x = t.x * 32 + (int)get_local_id(0), y = t.y * 8 + (int)get_local_id(1);
  if (x >= sw || y >= sh)
    return;
  for (int c = 0; c < C; c++) {
    int s;
    if (second) {
      __global const ushort *s16 = (__global const ushort *)src;
      s = ld16(s16, sw, sh, C, x - 1, y, c) + ld16(s16, sw, sh, C, x, y, c) +
          ld16(s16, sw, sh, C, x + 1, y, c);
      dst[(x * sh + y) * C + c] = box_scale(s);
    } else {
      s = ld8(src, sw, sh, C, x - 1, y, c) + ld8(src, sw, sh, C, x, y, c) +
          ld8(src, sw, sh, C, x + 1, y, c);
      ((__global ushort *)dst)[(x * sh + y) * C + c] = (ushort)s;
    }
  }
}

__kernel __attribute__((reqd_work_group_size(32, 8, 1))) void transpose_pass1(TS_ARGS)
{
  tp_hpass(src, dst, tiles[first + get_group_id(0)], W, H, C, 0);
}

__kernel __attribute__((reqd_work_group_size(32, 8, 1))) void transpose_pass2(TS_ARGS)
{
  tp_hpass(src, dst, tiles[first + get_group_id(0)], H, W, C, 1);
}
