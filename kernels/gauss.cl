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
      __global const uchar *p = src + (y * W + x) * C + c;
      for (int j = -r; j <= r; j++)
        for (int i = -r; i <= r; i++)
          s += weights[j + r] * weights[i + r] * p[j * row + i * C];
    } else {
      for (int j = -r; j <= r; j++)
        for (int i = -r; i <= r; i++)
          s += weights[j + r] * weights[i + r] * ld8(src, W, H, C, x + i, y + j, c);
    }
    dst[(y * W + x) * C + c] = gauss_round(s);
  }
}
TS_GROUP_ENTRY(gauss_global, GWG, GWG)

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

inline void gauss_local_tile(TS_BODY_ARGS, int2 t)
{
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
    dst[(y * W + x) * C + c] = gauss_round(s);
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
    dst[(y * W + x) * C + c] = gauss_round(s);
  }
}
TS_GROUP_ENTRY(gauss_local_sep, GWG, GWG)

/* gauss_slide: one work-item owns 48 bytes x 64 rows and walks its 64 + 2r input rows
 * once. Each row's horizontal sums (16 bits: at most 255 * 256) go into a ring of k rows
 * in private memory, three 16-lane vectors per row; once the ring is full, each new row
 * gives one output row from the vertical weighted sum of the ring. */
#define GS_W 48
#define GS_H 64

/* The horizontal weighted sums of the strip's 48 bytes of one row (p: the row's first byte
 * the strip reads), three 16-lane vectors, each tap applied to all three at once. Defined
 * twice by the macro, for a row in global memory and for an edge row copied to private. */
#define GS_HSUM(name, space)                                                            \
  inline void name(space const uchar *p, int C, int k, __constant uint *w, ushort16 *h) \
  {                                                                                     \
    ushort16 s0 = 0, s1 = 0, s2 = 0;                                                    \
    for (int i = 0; i < k; i++, p += C) {                                               \
      ushort wi = (ushort)w[i];                                                         \
      s0 += wi * convert_ushort16(vload16(0, p));                                       \
      s1 += wi * convert_ushort16(vload16(0, p + 16));                                  \
      s2 += wi * convert_ushort16(vload16(0, p + 32));                                  \
    }                                                                                   \
    h[0] = s0;                                                                          \
    h[1] = s1;                                                                          \
    h[2] = s2;                                                                          \
  }
GS_HSUM(gs_hsum_global, __global)
GS_HSUM(gs_hsum_private, __private)

/* 16 output bytes, the tail of a strip at the image's right edge clipped. */
inline void gs_store(__global uchar *q, int v, int n, float16 s)
{
  /* Every sum is an integer below 2^24, so float arithmetic is exact, and the fastest a
   * CPU's vector units offer. */
  uchar16 o = convert_uchar16((convert_uint16(s) + 32768u) >> 16);
  if (16 * v + 16 <= n) {
    vstore16(o, 0, q + 16 * v);
  } else {
    uchar b[16];
    vstore16(o, 0, b);
    for (int e = 16 * v; e < n; e++)
      q[e] = b[e - 16 * v];
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
      gs_hsum_global(src + clamp(row, 0, H - 1) * rowbytes + col0, C, k, weights, ring[head]);
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
    __global uchar *q = dst + y * rowbytes + t.x * GS_W;
    int n = min(GS_W, rowbytes - t.x * GS_W);
    gs_store(q, 0, n, s0);
    gs_store(q, 1, n, s1);
    gs_store(q, 2, n, s2);
  }
}
TS_GROUP_ENTRY(gauss_slide, 1, 1)
