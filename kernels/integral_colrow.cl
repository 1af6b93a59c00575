/* integral_colrow: the integral image for a GPU (not in the seed), in two passes with no
 * dependency between the tiles of a pass, each tile one work-group that shares its work:
 *  1. column prefix sums of the bytes: a group of 8 x 128 work-items owns a strip 32 columns
 *     wide, each work-item 4 columns of one of 128 row segments. Each sums its segment, the
 *     group adds up the segments above each one in local memory, and each walks its segment
 *     again writing the running sums (the bytes are read twice, the sums written once).
 *  2. row prefix sums of those: a group of 256 work-items owns a row, 4 sums each in each of
 *     8 chunks of 1024; the 8 chunks' totals are scanned across the group at once in local
 *     memory, and carried to the next 8 chunks on longer rows.
 * On an NVIDIA H200 at 7680x4320 this took 0.166 ms; with 32 row segments and one chunk
 * scanned at a time, 0.243 ms (pass 1 left most of the GPU idle, pass 2 waited at 8 times as
 * many barriers). Sums wrap modulo 2^32 like the reference's, so the order of the additions
 * does not matter. Rows not a multiple of 4 long, and the last columns, go element by element. */

#define IC_Q 8   /* column quads a strip: 32 columns */
#define IC_S 128 /* row segments */
#define IR_N 256 /* work-items a row */
#define IR_K 8   /* chunks of 4 IR_N sums scanned at once */

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
  __local uint *tot = lmem; /* [IR_K][IR_N]: each chunk's work-items' totals, scanned */
  uint carry = 0;
  for (int x0 = 0; x0 < W; x0 += 4 * IR_N * IR_K) {
    uint4 v[IR_K];
#pragma unroll
    for (int c = 0; c < IR_K; c++) {
      int x = x0 + 4 * (c * IR_N + l), n = clamp(W - x, 0, 4);
      if (n == 4 && W % 4 == 0) {
        v[c] = TS_LD32x4A(src, W, x, y);
      } else {
        uint e[4] = { 0, 0, 0, 0 };
        for (int i = 0; i < n; i++)
          e[i] = TS_LD32(src, W, x + i, y);
        v[c] = vload4(0, e);
      }
      v[c].s1 += v[c].s0;
      v[c].s2 += v[c].s1;
      v[c].s3 += v[c].s2;
      tot[c * IR_N + l] = v[c].s3;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = 1; d < IR_N; d <<= 1) { /* inclusive scans of the totals, IR_K at once */
      uint add[IR_K];
#pragma unroll
      for (int c = 0; c < IR_K; c++)
        add[c] = l >= d ? tot[c * IR_N + l - d] : 0u;
      barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
      for (int c = 0; c < IR_K; c++)
        tot[c * IR_N + l] += add[c];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int c = 0; c < IR_K; c++) {
      int x = x0 + 4 * (c * IR_N + l), n = clamp(W - x, 0, 4);
      v[c] += carry + (l > 0 ? tot[c * IR_N + l - 1] : 0u);
      carry += tot[c * IR_N + IR_N - 1];
      if (n == 4 && W % 4 == 0) {
        TS_ST32x4A(dst, W, x, y, v[c]);
      } else {
        uint e[4];
        vstore4(v[c], 0, e);
        for (int i = 0; i < n; i++)
          TS_ST32(dst, W, x + i, y, e[i]);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* every tot read before the next chunks write it */
  }
}
TS_GROUP_ENTRY(integral_rowsums, IR_N, 1)
