// tilescope: plain global=(W+15)/16*16,(H+15)/16*16 local=16,16 tile=16x16 halo=2
//
// BROKEN ON PURPOSE: gauss_tiled.cl with its tile one pixel short: it loads 19x19 pixels
// where the 5x5 sums need 20x20, so the last row and column of every tile's sums read
// __local bytes that nothing wrote. `--observe` names the read.

#define R 2
#define TW (16 + 2 * R)
#define LOADED (TW - 1) /* one short */

__constant int wt[5] = { 18, 63, 94, 63, 18 };

__kernel void gauss_tiled(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  __local uchar tile[TW * TW * 4];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x0 = get_group_id(0) * 16 - R, y0 = get_group_id(1) * 16 - R;
  for (int i = ly * 16 + lx; i < LOADED * LOADED; i += 256) {
    int tx = i % LOADED, ty = i / LOADED;
    int xx = clamp(x0 + tx, 0, W - 1), yy = clamp(y0 + ty, 0, H - 1);
    for (int c = 0; c < C; c++)
      tile[(ty * TW + tx) * C + c] = in[(yy * W + xx) * C + c];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int x = x0 + R + lx, y = y0 + R + ly;
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    uint s = 0;
    for (int j = 0; j < 5; j++)
      for (int i = 0; i < 5; i++)
        s += wt[i] * wt[j] * tile[((ly + j) * TW + lx + i) * C + c];
    out[(y * W + x) * C + c] = (uchar)((s + 32768u) >> 16);
  }
}
