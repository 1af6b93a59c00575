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
  for (int c = 0; c < C; c++) {
    uint s = 0;
    for (int j = -r; j <= r; j++)
      for (int i = -r; i <= r; i++)
        s += weights[j + r] * weights[i + r] * ld8(src, W, H, C, x + i, y + j, c);
    dst[(y * W + x) * C + c] = (uchar)((s + 32768u) >> 16);
  }
}

/* The work-group copies its (16 + 2r)^2 input tile with halo into local memory, every
 * work-item taking every 256th element, then waits at the barrier. */
inline void stage_tile(__global const uchar *src, __local uchar *tile, int2 t, int W, int H,
                       int C, int r)
{
  int side = GWG + 2 * r, n = side * side * C;
  int lid = (int)(get_local_id(1) * GWG + get_local_id(0));
  for (int e = lid; e < n; e += GWG * GWG) {
    int c = e % C, i = (e / C) % side, j = e / (C * side);
    tile[e] = ld8(src, W, H, C, t.x * GWG - r + i, t.y * GWG - r + j, c);
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
  int lid = ly * GWG + lx, n = side * GWG * C;
  for (int e = lid; e < n; e += GWG * GWG) {
    int c = e % C, col = (e / C) % GWG, row = e / (C * GWG);
    uint s = 0;
    for (int i = 0; i <= 2 * r; i++)
      s += weights[i] * tile[(row * side + col + i) * C + c];
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
