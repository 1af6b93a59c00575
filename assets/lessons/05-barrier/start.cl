// tilescope: plain global=(W+15)/16*16,(H+15)/16*16 local=16,16 tile=16x16 halo=1
//
// Lesson 5, the missing barrier: a 3x3 box filter that stages each work-group's pixels in
// __local memory. Each work-group of 16x16 work-items copies its 16x16 pixels and a halo
// of 1 (18x18 pixels, edge-clamped) into `tile`, then each work-item sums the 3x3 window
// around its pixel from `tile`, scaled as tilescope's box reference scales (the sum times
// 0.111f, truncated). Check it with
//   tilescope lesson 5 assets/lessons/05-barrier/start.cl

#define TW 18

__kernel void box3_local(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  __local uchar tile[TW * TW * 4];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x0 = get_group_id(0) * 16 - 1, y0 = get_group_id(1) * 16 - 1;
  for (int i = ly * 16 + lx; i < TW * TW; i += 256) {
    int tx = i % TW, ty = i / TW;
    int xx = clamp(x0 + tx, 0, W - 1), yy = clamp(y0 + ty, 0, H - 1);
    for (int c = 0; c < C; c++)
      tile[i * C + c] = in[(yy * W + xx) * C + c];
  }
  int x = x0 + 1 + lx, y = y0 + 1 + ly;
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    int sum = 0;
    for (int j = 0; j < 3; j++)
      for (int i = 0; i < 3; i++)
        sum += tile[((ly + j) * TW + lx + i) * C + c];
    out[(y * W + x) * C + c] = (uchar)((float)sum * 0.111f);
  }
}
