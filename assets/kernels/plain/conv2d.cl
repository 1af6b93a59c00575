// tilescope: plain global=W,H
//
// A naive 2-D convolution, as a tutorial writes it: one work-item per pixel, a 3x3 box
// filter over every channel, the image's edge clamped. Arguments named in, out, W, H and C
// need no description: the one header line above only says "this is a plain kernel".
// It equals tilescope's box 3x3 reference bit for bit (the sum times 0.111f, truncated).

__kernel void conv2d(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    int sum = 0;
    for (int j = -1; j <= 1; j++)
      for (int i = -1; i <= 1; i++) {
        int xx = clamp(x + i, 0, W - 1), yy = clamp(y + j, 0, H - 1);
        sum += in[(yy * W + xx) * C + c];
      }
    out[(y * W + x) * C + c] = (uchar)((float)sum * 0.111f);
  }
}
