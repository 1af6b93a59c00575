/* integral_colrow: the integral image for a GPU (not in the seed), in two passes with no
 * dependency between the tiles of a pass, each tile one work-group that shares its work:
 *  1. column prefix sums of the bytes: a group of 8 x 32 work-items owns a strip 32 columns
 *     wide, each work-item 4 columns of one of 32 row segments. Each sums its segment, the
 *     group adds up the segments above each one in local memory, and each walks its segment
 *     again writing the running sums (the bytes are read twice, the sums written once).
 *  2. row prefix sums of those: a group of 256 work-items owns a row, 4 sums each per chunk
 *     of 1024, scanned across the group in local memory and carried from chunk to chunk.
 * Sums wrap modulo 2^32 like the reference's, so the order of the additions does not
 * matter. Rows not a multiple of 4 long, and the last columns, go element by element. */

#define IC_Q 8   /* column quads a strip: 32 columns */
#define IC_S 32  /* row segments */
#define IR_N 256 /* work-items a row */

/* Columns x .. x + n - 1 (n <= 4) of a row of bytes, as sums. */
inline uint4 ic_load(TS_OBS_PARAM __global const uchar *src, int W, int x, int n, int y)
{
  if (n == 4 && W % 4 == 0)
    return convert_uint4(TS_LD8x4A(src, W, x, y));
  uint v[4] = { 0, 0, 0, 0 };
  for (int i = 0; i < n; i++)
    v[i] = TS_LD8(src, W, x + i, y);
  return vload4(0, v);
}

inline void ic_store(TS_OBS_PARAM __global uchar *dst, int W, int x, int n, int y, uint4 a)
{
  if (n == 4 && W % 4 == 0) {
    TS_ST32x4A(dst, W, x, y, a);
    return;
  }
  uint v[4];
  vstore4(a, 0, v);
  for (int i = 0; i < n; i++)
    TS_ST32(dst, W, x + i, y, v[i]);
}

inline void integral_colsums_tile(TS_BODY_ARGS, int2 t)
{
  int q = (int)get_local_id(0), g = (int)get_local_id(1);
  int x = t.x * 4 * IC_Q + 4 * q, n = clamp(W - x, 0, 4);
  int seg = (H + IC_S - 1) / IC_S, y0 = min(g * seg, H), y1 = min(y0 + seg, H);
  /* [IC_S][IC_Q] x 4: each segment's sums, through vload4/vstore4 (lmem need not be 16-byte
   * aligned: a uint4 pointer into it faulted on NVIDIA) */
  __local uint *part = lmem;
  uint4 s = (uint4)0;
  for (int y = y0; y < y1 && n > 0; y++)
    s += ic_load(TS_OBS_ARG src, W, x, n, y);
  vstore4(s, g * IC_Q + q, part);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint4 a = (uint4)0;
  for (int i = 0; i < g; i++)
    a += vload4(i * IC_Q + q, part);
  for (int y = y0; y < y1 && n > 0; y++) {
    a += ic_load(TS_OBS_ARG src, W, x, n, y);
    ic_store(TS_OBS_ARG dst, W, x, n, y, a);
  }
}
TS_GROUP_ENTRY(integral_colsums, IC_Q, IC_S)

inline void integral_rowsums_tile(TS_BODY_ARGS, int2 t)
{
  int y = t.y, l = (int)get_local_id(0);
  __local uint *tot = lmem; /* [IR_N]: the work-items' totals, scanned */
  uint carry = 0;
  for (int x0 = 0; x0 < W; x0 += 4 * IR_N) {
    int x = x0 + 4 * l, n = clamp(W - x, 0, 4);
    uint4 v;
    if (n == 4 && W % 4 == 0) {
      v = TS_LD32x4A(src, W, x, y);
    } else {
      uint e[4] = { 0, 0, 0, 0 };
      for (int i = 0; i < n; i++)
        e[i] = TS_LD32(src, W, x + i, y);
      v = vload4(0, e);
    }
    v.s1 += v.s0;
    v.s2 += v.s1;
    v.s3 += v.s2;
    tot[l] = v.s3;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = 1; d < IR_N; d <<= 1) { /* inclusive scan of the totals */
      uint add = l >= d ? tot[l - d] : 0u;
      barrier(CLK_LOCAL_MEM_FENCE);
      tot[l] += add;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    v += carry + (l > 0 ? tot[l - 1] : 0u);
    carry += tot[IR_N - 1];
    barrier(CLK_LOCAL_MEM_FENCE); /* every tot read before the next chunk writes it */
    if (n == 4 && W % 4 == 0) {
      TS_ST32x4A(dst, W, x, y, v);
    } else {
      uint e[4];
      vstore4(v, 0, e);
      for (int i = 0; i < n; i++)
        TS_ST32(dst, W, x + i, y, e[i]);
    }
  }
}
TS_GROUP_ENTRY(integral_rowsums, IR_N, 1)
