/* Box 3x3 kernels (seed: C for Metal tutorial 11, and "Transpose Is Your Friend").
 * out = trunc(float(sum of the centred, edge-clamped 3x3 window) * 0.111f). */

/* box2d: one work-group per 16x16 tile, one work-item per pixel, nine loads each. */
inline void box2d_tile(TS_BODY_ARGS, int2 t)
{
  int x = t.x * 16 + (int)get_local_id(0), y = t.y * 16 + (int)get_local_id(1);
  if (x >= W || y >= H)
    return;
  int inside = x > 0 && y > 0 && x < W - 1 && y < H - 1, row = W * C;
  for (int c = 0; c < C; c++) {
    int s = 0;
    if (inside) { /* no clamping needed: nine loads around the pixel */
      int col = x * C + c;
      for (int j = -1; j <= 1; j++)
        s += TS_LD8(src, row, col - C, y + j) + TS_LD8(src, row, col, y + j) +
             TS_LD8(src, row, col + C, y + j);
    } else {
      for (int j = -1; j <= 1; j++)
        for (int i = -1; i <= 1; i++)
          s += ld8(src, W, H, C, x + i, y + j, c);
    }
    TS_ST8_PX(dst, W, C, x, y, c, box_scale(s));
  }
}
TS_GROUP_ENTRY(box2d, 16, 16)

/* The tutorial's three register budgets: one work-item (one hardware thread) owns 24 bytes
 * x 6 rows and reads a (24 + 2C)-byte x 8-row block starting one pixel up and left. In
 * device mode each runs as a work-group of one work-item: the seed's thread is one tile,
 * and scoreboard waits belong to work-groups (common.cl). */

#define LIN_W 24
#define LIN_H 6

inline void lin_read_row(TS_OBS_PARAM __global const uchar *src, int W, int H, int C, int2 t,
                         int row, uchar *in)
{
  int col0 = t.x * LIN_W - C, n = LIN_W + 2 * C, rowbytes = W * C, y = clamp(row, 0, H - 1);
  if (col0 >= 0 && col0 + n <= rowbytes) { /* inside the row: two 16-byte block loads, the
                                            * second overlapping the first so that together
                                            * they read exactly the footprint's 24 + 2C bytes
                                            * (the tutorial reads 32) */
    vstore16(TS_LD8x16(src, rowbytes, col0, y), 0, in);
    vstore16(TS_LD8x16(src, rowbytes, col0 + n - 16, y), 0, in + n - 16);
  } else {                                  /* at an edge: byte by byte, clamped */
    for (int j = 0; j < LIN_W + 2 * C; j++) {
      int col = col0 + j;
      in[j] = col >= 0 && col < rowbytes ? TS_LD8(src, rowbytes, col, y)
                                         : ld8_col(src, W, H, C, col, row);
    }
  }
}

/* Horizontal 3-tap sums of one input row. The row arithmetic is plain loops: pocl
 * vectorises them across work-items, which explicit vectors here would prevent. */
inline void lin_hsum(int C, const uchar *in, short *m)
{
  for (int j = 0; j < LIN_W; j++)
    m[j] = (short)(in[j] + in[j + C] + in[j + 2 * C]);
}

/* Vertical 3-row sums of partial sums. */
inline void lin_vsum(const short *a, const short *b, const short *c, short *s)
{
  for (int j = 0; j < LIN_W; j++)
    s[j] = (short)(a[j] + b[j] + c[j]);
}

inline void lin_scale(const short *s, uchar *out)
{
  for (int j = 0; j < LIN_W; j++)
    out[j] = box_scale(s[j]);
}

/* The sliding variants: the output row from a 3-row window of partial sums. */
inline void lin_window_out(short m[3][LIN_W], uchar *out)
{
  short s[LIN_W];
  lin_vsum(m[0], m[1], m[2], s);
  lin_scale(s, out);
}

inline void lin_write_row(TS_OBS_PARAM __global uchar *dst, int W, int H, int C, int2 t,
                          int row, const uchar *out)
{
  if (row >= H)
    return;
  int col0 = t.x * LIN_W, rowbytes = W * C;
  if (col0 + LIN_W <= rowbytes) { /* the whole 24 bytes: one block store */
    TS_ST8x16(dst, rowbytes, col0, row, vload16(0, out));
    TS_ST8x8(dst, rowbytes, col0 + 16, row, vload8(0, out + 16));
  } else {
    for (int j = 0; j < rowbytes - col0; j++)
      TS_ST8(dst, rowbytes, col0 + j, row, out[j]);
  }
}

/* linear1d2: the whole block in registers: in 8x32 + m 8x24 s16 + m_out 6x24 s16 + out 6x24. */
inline void linear1d2_tile(TS_BODY_ARGS, int2 t)
{
  uchar in[8][32];
  short m[8][LIN_W], m_out[LIN_H][LIN_W];
  uchar out[LIN_H][LIN_W];
  for (int r = 0; r < 8; r++)
    lin_read_row(TS_OBS_ARG src, W, H, C, t, t.y * LIN_H - 1 + r, in[r]);
  for (int r = 0; r < 8; r++)
    lin_hsum(C, in[r], m[r]);
  for (int r = 0; r < LIN_H; r++)
    lin_vsum(m[r], m[r + 1], m[r + 2], m_out[r]);
  for (int r = 0; r < LIN_H; r++)
    lin_scale(m_out[r], out[r]);
  for (int r = 0; r < LIN_H; r++)
    lin_write_row(TS_OBS_ARG dst, W, H, C, t, t.y * LIN_H + r, out[r]);
}
TS_ITEM_ENTRY(linear1d2)

/* linearslide: three rows of input and of partial sums; one row in, one row out per step. */
inline void linearslide_tile(TS_BODY_ARGS, int2 t)
{
  uchar in[3][32], out[LIN_W];
  short m[3][LIN_W];
  int row0 = t.y * LIN_H - 1;
  for (int r = 0; r < 3; r++) {
    lin_read_row(TS_OBS_ARG src, W, H, C, t, row0 + r, in[r]);
    lin_hsum(C, in[r], m[r]);
  }
  for (int s = 0; s < LIN_H - 1; s++) {
    lin_window_out(m, out);
    lin_write_row(TS_OBS_ARG dst, W, H, C, t, t.y * LIN_H + s, out);
    lin_read_row(TS_OBS_ARG src, W, H, C, t, row0 + s + 3, in[s % 3]); /* slide down one row */
    lin_hsum(C, in[s % 3], m[s % 3]);
  }
  lin_window_out(m, out);
  lin_write_row(TS_OBS_ARG dst, W, H, C, t, t.y * LIN_H + LIN_H - 1, out);
}
TS_ITEM_ENTRY(linearslide)

/* linearslide2: one block read, a 3-row window of partial sums, one block write. */
inline void linearslide2_tile(TS_BODY_ARGS, int2 t)
{
  uchar in[8][32], out[LIN_H][LIN_W];
  short m[3][LIN_W];
  for (int r = 0; r < 8; r++)
    lin_read_row(TS_OBS_ARG src, W, H, C, t, t.y * LIN_H - 1 + r, in[r]);
  for (int r = 0; r < 3; r++)
    lin_hsum(C, in[r], m[r]);
  for (int s = 0; s < LIN_H - 1; s++) {
    lin_window_out(m, out[s]);
    lin_hsum(C, in[s + 3], m[s % 3]);
  }
  lin_window_out(m, out[LIN_H - 1]);
  for (int r = 0; r < LIN_H; r++)
    lin_write_row(TS_OBS_ARG dst, W, H, C, t, t.y * LIN_H + r, out[r]);
}
TS_ITEM_ENTRY(linearslide2)

/* transpose2pass: one horizontal 3-tap kernel, run twice. A work-group covers 32x8 source
 * pixels; each work-item sums along its source row and writes at the transposed position.
 * Pass 1 reads the image (W x H) and writes 16-bit sums to a H x W intermediate; pass 2
 * reads that, sums again, scales and writes the W x H result. */
inline void tp_hpass(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int2 t,
                     int sw, int sh, int C, int second)
{
  int x = t.x * 32 + (int)get_local_id(0), y = t.y * 8 + (int)get_local_id(1);
  if (x >= sw || y >= sh)
    return;
  int xl = max(x - 1, 0), xr = min(x + 1, sw - 1); /* the clamped neighbours */
  int sp = sw * C, dp = sh * C; /* row pitches of the source and of the transposed result */
  for (int c = 0; c < C; c++) {
    if (second) {
      TS_ST8(dst, dp, y * C + c, x,
             box_scale(TS_LD16(src, sp, xl * C + c, y) + TS_LD16(src, sp, x * C + c, y) +
                       TS_LD16(src, sp, xr * C + c, y)));
    } else {
      TS_ST16(dst, dp, y * C + c, x,
              (ushort)(TS_LD8(src, sp, xl * C + c, y) + TS_LD8(src, sp, x * C + c, y) +
                       TS_LD8(src, sp, xr * C + c, y)));
    }
  }
}

inline void transpose_pass1_tile(TS_BODY_ARGS, int2 t)
{
  tp_hpass(TS_OBS_ARG src, dst, t, W, H, C, 0);
}
TS_GROUP_ENTRY(transpose_pass1, 32, 8)

inline void transpose_pass2_tile(TS_BODY_ARGS, int2 t)
{
  tp_hpass(TS_OBS_ARG src, dst, t, H, W, C, 1);
}
TS_GROUP_ENTRY(transpose_pass2, 32, 8)
