/* Gaussian k x k kernels (seed: the Thorin shared-memory report). Fixed point: the 2-D
 * weight is w_i * w_j (sum 65536), out = (S + 32768) >> 16, so every variant is bit-exact. */

#define GWG 16

/* gauss_global: every work-item reads its k x k window from global memory. */
inline void gauss_global_tile(TS_BODY_ARGS, int2 t)
{
  int x = t.x * GWG + (int)get_local_id(0), y = t.y * GWG + (int)get_local_id(1);
  if (x >= W || y >= H)
    return;
  int inside = x >= r && y >= r && x + r < W && y + r < H, row = W * C;
  for (int c = 0; c < C; c++) {
    uint s = 0;
    if (inside) { /* no clamping needed */
      int col = x * C + c;
      for (int j = -r; j <= r; j++)
        for (int i = -r; i <= r; i++)
          s += weights[j + r] * weights[i + r] * TS_LD8_OFF(src, row, col, y, i * C, j);
    } else {
      for (int j = -r; j <= r; j++)
        for (int i = -r; i <= r; i++)
          s += weights[j + r] * weights[i + r] * ld8(src, W, H, C, x + i, y + j, c);
    }
    TS_ST8_PX(dst, W, C, x, y, c, gauss_round(s));
  }
}
TS_GROUP_ENTRY(gauss_global, GWG, GWG)

/* The work-group copies its (16 + 2r)^2 input tile with halo into local memory, row by
 * row, the work-items taking consecutive bytes, then waits at the barrier. Only tiles at the image's left or right edge clamp columns. */
inline void stage_tile(TS_OBS_PARAM __global const uchar *src, __local uchar *tile, int2 t,
                       int W, int H, int C, int r)
{
  int side = GWG + 2 * r, rowbytes = side * C, x0 = t.x * GWG - r;
  int lid = (int)(get_local_id(1) * GWG + get_local_id(0));
  int inside = x0 >= 0 && x0 + side <= W;
  for (int e = lid; e < side * rowbytes; e += GWG * GWG) {
    int j = e / rowbytes, b = e - j * rowbytes, y = t.y * GWG - r + j;
    tile[e] = inside ? TS_LD8(src, W * C, x0 * C + b, clamp(y, 0, H - 1))
                     : ld8_col(src, W, H, C, x0 * C + b, y);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

inline void gauss_local_tile(TS_BODY_ARGS, int2 t)
{
  int lx = (int)get_local_id(0), ly = (int)get_local_id(1), side = GWG + 2 * r;
  __local uchar *tile = (__local uchar *)lmem;
  stage_tile(TS_OBS_ARG src, tile, t, W, H, C, r);
  int x = t.x * GWG + lx, y = t.y * GWG + ly;
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    uint s = 0;
    for (int j = 0; j <= 2 * r; j++)
      for (int i = 0; i <= 2 * r; i++)
        s += weights[j] * weights[i] * tile[((ly + j) * side + lx + i) * C + c];
    TS_ST8_PX(dst, W, C, x, y, c, gauss_round(s));
  }
}
TS_GROUP_ENTRY(gauss_local, GWG, GWG)

/* gauss_local_sep: the staged tile, a horizontal pass over all 16 + 2r rows into a second
 * local array of 32-bit sums, a barrier, then the vertical pass. */
inline void gauss_local_sep_tile(TS_BODY_ARGS, int2 t)
{
  int lx = (int)get_local_id(0), ly = (int)get_local_id(1), side = GWG + 2 * r;
  __local uchar *tile = (__local uchar *)lmem;
  __local uint *h = lmem + (side * side * C + 3) / 4; /* after the tile, word-aligned */
  stage_tile(TS_OBS_ARG src, tile, t, W, H, C, r);
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
    TS_ST8_PX(dst, W, C, x, y, c, gauss_round(s));
  }
}
TS_GROUP_ENTRY(gauss_local_sep, GWG, GWG)

/* gauss_slide: one work-item owns 48 bytes x 64 rows and walks its 64 + 2r input rows
 * once. Each row's horizontal sums (16 bits: at most 255 * 256) go into a ring of k rows
 * in private memory, three 16-lane vectors per row; once the ring is full, each new row
 * gives one output row from the vertical weighted sum of the ring. */
#define GS_W 48
#define GS_H 64

/* The horizontal weighted sums of the strip's 48 bytes of one row, three 16-lane vectors,
 * each tap applied to all three at once: from a row of src (col0: the first byte the strip
 * reads), or from an edge row copied to private memory. */
inline void gs_hsum_global(TS_OBS_PARAM __global const uchar *src, int rowbytes, int col0,
                           int row, int C, int k, __constant uint *w, ushort16 *h)
{
  ushort16 s0 = 0, s1 = 0, s2 = 0;
  for (int i = 0, col = col0; i < k; i++, col += C) {
    ushort wi = (ushort)w[i];
    s0 += wi * convert_ushort16(TS_LD8x16(src, rowbytes, col, row));
    s1 += wi * convert_ushort16(TS_LD8x16(src, rowbytes, col + 16, row));
    s2 += wi * convert_ushort16(TS_LD8x16(src, rowbytes, col + 32, row));
  }
  h[0] = s0;
  h[1] = s1;
  h[2] = s2;
}

inline void gs_hsum_private(const uchar *p, int C, int k, __constant uint *w, ushort16 *h)
{
  ushort16 s0 = 0, s1 = 0, s2 = 0;
  for (int i = 0; i < k; i++, p += C) {
    ushort wi = (ushort)w[i];
    s0 += wi * convert_ushort16(vload16(0, p));
    s1 += wi * convert_ushort16(vload16(0, p + 16));
    s2 += wi * convert_ushort16(vload16(0, p + 32));
  }
  h[0] = s0;
  h[1] = s1;
  h[2] = s2;
}

/* 16 output bytes from column col of row `row`; n: the bytes left in the row from col (the
 * tail of a strip at the image's right edge is clipped). */
inline void gs_store(TS_OBS_PARAM __global uchar *dst, int rowbytes, int col, int row, int n,
                     float16 s)
{
  /* Every sum is an integer below 2^24, so float arithmetic is exact, and the fastest a
   * CPU's vector units offer. */
  uchar16 o = convert_uchar16((convert_uint16(s) + 32768u) >> 16);
  if (n >= 16) {
    TS_ST8x16(dst, rowbytes, col, row, o);
  } else {
    uchar b[16];
    vstore16(o, 0, b);
    for (int e = 0; e < n; e++)
      TS_ST8(dst, rowbytes, col + e, row, b[e]);
  }
}

inline void gauss_slide_tile(TS_BODY_ARGS, int2 t)
{
  int k = 2 * r + 1, rowbytes = W * C, col0 = t.x * GS_W - r * C, inw = GS_W + 2 * r * C;
  int inside = col0 >= 0 && col0 + inw <= rowbytes;
  ushort16 ring[15][3];
  uchar edge[GS_W + 14 * 4]; /* an edge tile's row, clamped */
  int head = 0;              /* the ring slot the next row goes to */
  for (int j = 0; j < GS_H + 2 * r; j++) {
    int row = t.y * GS_H - r + j;
    if (inside) {
      gs_hsum_global(TS_OBS_ARG src, rowbytes, col0, clamp(row, 0, H - 1), C, k, weights,
                     ring[head]);
    } else {
      for (int b = 0; b < inw; b++)
        edge[b] = ld8_col(src, W, H, C, col0 + b, row);
      gs_hsum_private(edge, C, k, weights, ring[head]);
    }
    head = head + 1 == k ? 0 : head + 1;
    int y = t.y * GS_H + j - 2 * r;
    if (j < 2 * r || y >= H)
      continue; /* the window is not full yet, or the row is below the image */
    float16 s0 = 0, s1 = 0, s2 = 0;
    for (int i = 0, slot = head; i < k; i++, slot = slot + 1 == k ? 0 : slot + 1) {
      float wi = (float)weights[i]; /* oldest row first */
      s0 += wi * convert_float16(ring[slot][0]);
      s1 += wi * convert_float16(ring[slot][1]);
      s2 += wi * convert_float16(ring[slot][2]);
    }
    int col = t.x * GS_W, n = min(GS_W, rowbytes - col);
    gs_store(TS_OBS_ARG dst, rowbytes, col, y, n, s0);
    gs_store(TS_OBS_ARG dst, rowbytes, col + 16, y, n - 16, s1);
    gs_store(TS_OBS_ARG dst, rowbytes, col + 32, y, n - 32, s2);
  }
}
TS_GROUP_ENTRY(gauss_slide, 1, 1)
