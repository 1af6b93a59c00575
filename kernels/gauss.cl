/* Gaussian k x k kernels (seed: the Thorin shared-memory report). Fixed point: the 2-D
 * weight is w_i * w_j (sum 65536), out = (S + 32768) >> 16, so all three are bit-exact. */

#define GWG 16

/* gauss_global: every work-item reads its k x k window from global memory. */
__kernel __attribute__((reqd_work_group_size(GWG, GWG, 1))) void gauss_global(TS_ARGS)
{
  int2 t = tiles[first + get_group_id(0)];
  int x = t.x * GWG + (int)get_local_id(0), y = t.y * GWG + (int)get_local_id(1);
  if (x >= W || y >= H)
    return;
  int inside = x >= r && y >= r && x + r < W && y + r < H, row = W * C;
  for (int c = 0; c < C; c++) {
    uint s = 0;
    if (inside) { /* no clamping needed */
      __global const uchar *p = src + (y * W + x) * C + c;
      for (int j = -r; j <= r; j++)
        for (int i = -r; i <= r; i++)
          s += weights[j + r] * weights[i + r] * p[j * row + i * C];
    } else {
      for (int j = -r; j <= r; j++)
        for (int i = -r; i <= r; i++)
          s += weights[j + r] * weights[i + r] * ld8(src, W, H, C, x + i, y + j, c);
    }
    dst[(y * W + x) * C + c] = (uchar)((s + 32768u) >> 16);
  }
}

/* The work-group copies its (16 + 2r)^2 input tile with halo into local memory, row by
 * row, the work-items taking consecutive bytes, then waits at the barrier. Only tiles at the image's left or right edge clamp columns. */
inline void stage_tile(__global const uchar *src, __local uchar *tile, int2 t, int W, int H,
                       int C, int r)
{
  int side = GWG + 2 * r, rowbytes = side * C, x0 = t.x * GWG - r;
  int lid = (int)(get_local_id(1) * GWG + get_local_id(0));
  int inside = x0 >= 0 && x0 + side <= W;
  for (int e = lid; e < side * rowbytes; e += GWG * GWG) {
    int j = e / rowbytes, b = e - j * rowbytes, y = t.y * GWG - r + j;
    tile[e] = inside ? src[clamp(y, 0, H - 1) * W * C + x0 * C + b]
                     : ld8_col(src, W, H, C, x0 * C + b, y);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel __attribute__((reqd_work_group_size(GWG, GWG, 1))) void gauss_local(TS_ARGS)
{
  int2 t = tiles[first + get_group_id(0)];
  int lx = (int)get_local_id(0), ly = (int)get_local_id(1), side = GWG + 2 * r;
  __local uchar *tile = (__local uchar *)lmem;
  stage_tile(src, tile, t, W, H, C, r);
  int x = t.x * GWG + lx, y = t.y * GWG + ly;
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    uint s = 0;
    for (int j = 0; j <= 2 * r; j++)
      for (int i = 0; i <= 2 * r; i++)
        s += weights[j] * weights[i] * tile[((ly + j) * side + lx + i) * C + c];
    dst[(y * W + x) * C + c] = (uchar)((s + 32768u) >> 16);
  }
}

/* gauss_local_sep: the staged tile, a horizontal pass over all 16 + 2r rows into a second
 * local array of 32-bit sums, a barrier, then the vertical pass. */
__kernel __attribute__((reqd_work_group_size(GWG, GWG, 1))) void gauss_local_sep(TS_ARGS)
{
  int2 t = tiles[first + get_group_id(0)];
  int lx = (int)get_local_id(0), ly = (int)get_local_id(1), side = GWG + 2 * r;
  __local uchar *tile = (__local uchar *)lmem;
  __local uint *h = lmem + (side * side * C + 3) / 4; /* after the tile, word-aligned */
  stage_tile(src, tile, t, W, H, C, r);
  int lid = ly * GWG + lx, hbytes = GWG * C; /* h rows are 16 pixels of C channels */
  for (int e = lid; e < side * hbytes; e += GWG * GWG) {
    int row = e / hbytes, b = e - row * hbytes;
    uint s = 0;
    for (int i = 0; i <= 2 * r; i++)
      s += weights[i] * tile[row * side * C + b + i * C];
    h[e] = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int x = t.x * GWG + lx, y = t.y * GWG + ly;
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    uint s = 0;
    for (int j = 0; j <= 2 * r; j++)
      s += weights[j] * h[((ly + j) * GWG + lx) * C + c];
    dst[(y * W + x) * C + c] = (uchar)((s + 32768u) >> 16);
  }
}
