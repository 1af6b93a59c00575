/* The integral image in 16x16 blocks (seed: C for Metal tutorial 4, CalcIntImage).
 * One work-item per block, as one hardware thread per block in the seed: it sums its block,
 * then adds the column to its left and the row above and subtracts the corner, all read
 * from the output as committed. Correct only when those blocks finished first. */

#define IB 16

__kernel void integral(TS_ARGS)
{
  int k = get_global_id(0);
  if (k >= ntiles)
    return;
  int2 t = tiles[first + k];
  __global const uint *sums = (__global const uint *)committed;
  __global uint *out = (__global uint *)dst;
  int x0 = t.x * IB, y0 = t.y * IB;
  int bw = min(IB, W - x0), bh = min(IB, H - y0);
  uint calc[IB][IB], left[IB], top[IB], corner = 0;

  for (int j = 0; j < bh; j++) {
    uint row = 0;
    for (int i = 0; i < bw; i++) {
      row += src[(y0 + j) * W + x0 + i];
      calc[j][i] = row + (j > 0 ? calc[j - 1][i] : 0u);
    }
  }
  for (int j = 0; j < bh; j++)
    left[j] = x0 > 0 ? sums[(y0 + j) * W + x0 - 1] : 0u;
  for (int i = 0; i < bw; i++)
    top[i] = y0 > 0 ? sums[(y0 - 1) * W + x0 + i] : 0u;
  if (x0 > 0 && y0 > 0)
    corner = sums[(y0 - 1) * W + x0 - 1];

  for (int j = 0; j < bh; j++)
    for (int i = 0; i < bw; i++)
      out[(y0 + j) * W + x0 + i] = calc[j][i] + left[j] + top[i] - corner;
}
