// tilescope: plain global=(W+15)/16*16,(H+15)/16*16 local=16,16 tile=16x16 halo=1
//
// Lesson 1, the halo: a 5x5 Gaussian that stages each work-group's pixels in __local memory.
// Each work-group of 16x16 work-items copies its 16x16 pixels and a halo of R pixels around
// them into `tile`, waits at the barrier, then each work-item sums the 5x5 window around its
// pixel from `tile`. Something about the halo is wrong: find it with
//   tilescope lesson 1 assets/lessons/01-halo/start.cl
// and fix it (here, and in the `halo=` of the header line, which tilescope checks).

#define R 1 /* the halo: how far around its 16x16 pixels does a work-group read? */
#define TW (16 + 2 * R)

__constant int wt[5] = { 18, 63, 94, 63, 18 };

__kernel void gauss5(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  __local uchar tile[TW * TW * 4];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x0 = get_group_id(0) * 16 - R, y0 = get_group_id(1) * 16 - R;
  for (int i = ly * 16 + lx; i < TW * TW; i += 256) {
    int tx = i % TW, ty = i / TW;
    int xx = clamp(x0 + tx, 0, W - 1), yy = clamp(y0 + ty, 0, H - 1);
    for (int c = 0; c < C; c++)
      tile[i * C + c] = in[(yy * W + xx) * C + c];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int x = x0 + R + lx, y = y0 + R + ly;
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    uint s = 0;
    for (int j = -2; j <= 2; j++)
      for (int i = -2; i <= 2; i++)
        s += wt[i + 2] * wt[j + 2] * tile[((ly + R + j) * TW + lx + R + i) * C + c];
    out[(y * W + x) * C + c] = (uchar)((s + 32768u) >> 16);
  }
}
