// tilescope: plain global=(W+15)/16*16,(H+15)/16*16 local=16,16 tile=16x16 halo=2
//
// BROKEN ON PURPOSE: gauss_tiled.cl with its edge test moved up, before the barrier. On an
// image whose width or height is no multiple of 16, the work-items past the edge return
// while the rest of their group waits at the barrier for them: OpenCL leaves that undefined
// (a GPU may hang or go on with half a tile; pocl takes one work-item's branch for the whole
// group, so the others read and write past the image). On 637x479, for example,
// `tilescope run -i IMAGE --kernel-file broken_divergence.cl --observe` names the branch.

#define R 2
#define TW (16 + 2 * R)

__constant int wt[5] = { 18, 63, 94, 63, 18 };

__kernel void gauss_tiled(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  __local uchar tile[TW * TW * 4];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x0 = get_group_id(0) * 16 - R, y0 = get_group_id(1) * 16 - R;
  int x = x0 + R + lx, y = y0 + R + ly;
  if (x >= W || y >= H) /* the bug: the barrier below must be reached by every work-item */
    return;
  for (int i = ly * 16 + lx; i < TW * TW; i += 256) {
    int tx = i % TW, ty = i / TW;
    int xx = clamp(x0 + tx, 0, W - 1), yy = clamp(y0 + ty, 0, H - 1);
    for (int c = 0; c < C; c++)
      tile[i * C + c] = in[(yy * W + xx) * C + c];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int c = 0; c < C; c++) {
    uint s = 0;
    for (int j = 0; j < 5; j++)
      for (int i = 0; i < 5; i++)
        s += wt[i] * wt[j] * tile[((ly + j) * TW + lx + i) * C + c];
    out[(y * W + x) * C + c] = (uchar)((s + 32768u) >> 16);
  }
}
