/* The integral image in 16x16 blocks (seed: C for Metal tutorial 4, CalcIntImage).
 * One work-item per block, as one hardware thread per block in the seed: it sums its block,
 * then adds the column to its left and the row above and subtracts the corner, all read
 * from the output as committed. Correct only when those blocks finished first. */

#define IB 16

inline void integral_tile(TS_BODY_ARGS, int2 t)
{
  int x0 = t.x * IB, y0 = t.y * IB;
  int bw = min(IB, W - x0), bh = min(IB, H - y0);
  uint calc[IB][IB], left[IB], top[IB], corner = 0;

  for (int j = 0; j < bh; j++) {
    uint row = 0;
    for (int i = 0; i < bw; i++) {
      row += TS_LD8(src, W, x0 + i, y0 + j);
      calc[j][i] = row + (j > 0 ? calc[j - 1][i] : 0u);
    }
  }
  for (int j = 0; j < bh; j++)
    left[j] = x0 > 0 ? TS_LD32(committed, W, x0 - 1, y0 + j) : 0u;
  for (int i = 0; i < bw; i++)
    top[i] = y0 > 0 ? TS_LD32(committed, W, x0 + i, y0 - 1) : 0u;
  if (x0 > 0 && y0 > 0)
    corner = TS_LD32(committed, W, x0 - 1, y0 - 1);

  for (int j = 0; j < bh; j++)
    for (int i = 0; i < bw; i++)
      TS_ST32(dst, W, x0 + i, y0 + j, calc[j][i] + left[j] + top[i] - corner);
}

#ifndef TS_DEVICE
TS_ITEM_ENTRY(integral)
#else
/* In device mode a group of 16 work-items shares the block instead of a group of one, and
 * on a GPU sums it before waiting: each work-item sums one row into local memory, then,
 * after the barrier, runs down one column. Only then does the group wait for its
 * neighbours, read their sums and write, so that the wait's critical path (a wavefront of
 * 16x16 blocks is W/16 + H/16 - 1 waits long) holds only those reads and writes. 16 work-items also run as
 * one vector on pocl, where a group of one runs scalar. The values are the same. */
inline void integral_coop_sums(__global const uchar *src, int W, int H, __local uint (*rows)[IB],
                               int2 t, int columns)
{
  int x0 = t.x * IB, y0 = t.y * IB, k = (int)get_local_id(0);
  int bw = min(IB, W - x0), bh = min(IB, H - y0);
  if (k < bh) {
    uint row = 0;
    for (int i = 0; i < bw; i++) {
      row += TS_LD8(src, W, x0 + i, y0 + k);
      rows[k][i] = row;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = 1; columns && j < bh && k < bw; j++) /* column k's running sums, in place */
    rows[j][k] += rows[j - 1][k];
}

/* columns: rows already holds the column sums; else they are summed here. The neighbours'
 * sums are loaded at once, one row's left neighbour and one column's upper neighbour per
 * work-item, the left column shared through local memory: one memory round trip on the
 * wait's critical path instead of sixteen. */
inline void integral_coop_finish(TS_BODY_ARGS, __local uint (*rows)[IB], __local uint *left,
                                 int2 t, int columns)
{
  int x0 = t.x * IB, y0 = t.y * IB, k = (int)get_local_id(0);
  int bw = min(IB, W - x0), bh = min(IB, H - y0);
  uint top = y0 > 0 && k < bw ? TS_LD32(committed, W, x0 + k, y0 - 1) : 0u;
  uint corner = x0 > 0 && y0 > 0 ? TS_LD32(committed, W, x0 - 1, y0 - 1) : 0u;
  left[k] = x0 > 0 && k < bh ? TS_LD32(committed, W, x0 - 1, y0 + k) : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint col = 0;
  for (int j = 0; j < bh && k < bw; j++) { /* no return: TS_END has a barrier */
    col = columns ? rows[j][k] : col + rows[j][k];
    TS_ST32(dst, W, x0 + k, y0 + j, col + left[j] + top - corner);
  }
}

__kernel __attribute__((reqd_work_group_size(IB, 1, 1))) void integral(TS_ARGS)
{
  __local uint rows[IB][IB], left[IB];
  TS_TICKET(get_group_id(0))
#ifdef TS_NVIDIA
  integral_coop_sums(src, W, H, rows, ts_t_, 1);
  TS_WAIT()
  integral_coop_finish(TS_BODY_PASS, rows, left, ts_t_, 1);
#else
  /* A CPU's few threads always have a group ready to run, so the wait is not on the
   * critical path there, and the fewest passes over the block measured fastest on pocl. */
  TS_WAIT()
  integral_coop_sums(src, W, H, rows, ts_t_, 0);
  integral_coop_finish(TS_BODY_PASS, rows, left, ts_t_, 0);
#endif
  TS_END()
}
#endif

/* integral_scan, pass 1: one work-item per row writes the row's prefix sums. Both passes run
 * as work-groups of one work-item in device mode, a row or a strip being one tile. */
inline void integral_rows_tile(TS_BODY_ARGS, int2 t)
{
  int y = t.y;
  uint s = 0;
  for (int x = 0; x < W; x++) {
    s += TS_LD8(src, W, x, y);
    TS_ST32(dst, W, x, y, s);
  }
}
TS_ITEM_ENTRY(integral_rows)

/* integral_scan, pass 2: one work-item per strip of 64 columns walks down the rows, adding
 * each row's prefix sums to a running sum per column: four 16-lane vectors. */
#define IS_STRIP 64

inline void integral_columns_tile(TS_BODY_ARGS, int2 t)
{
  int x0 = t.x * IS_STRIP, n = min(IS_STRIP, W - x0);
  if (n == IS_STRIP) {
    uint16 a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int y = 0; y < H; y++) {
      a0 += TS_LD32x16(src, W, x0, y);
      a1 += TS_LD32x16(src, W, x0 + 16, y);
      a2 += TS_LD32x16(src, W, x0 + 32, y);
      a3 += TS_LD32x16(src, W, x0 + 48, y);
      TS_ST32x16(dst, W, x0, y, a0);
      TS_ST32x16(dst, W, x0 + 16, y, a1);
      TS_ST32x16(dst, W, x0 + 32, y, a2);
      TS_ST32x16(dst, W, x0 + 48, y, a3);
    }
  } else { /* the strip at the right edge */
    uint acc[IS_STRIP];
    for (int i = 0; i < n; i++)
      acc[i] = 0;
    for (int y = 0; y < H; y++)
      for (int i = 0; i < n; i++) {
        acc[i] += TS_LD32(src, W, x0 + i, y);
        TS_ST32(dst, W, x0 + i, y, acc[i]);
      }
  }
}
TS_ITEM_ENTRY(integral_columns)
