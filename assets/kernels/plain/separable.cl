// tilescope: plain entry=gauss_rows tmp=buffer
// tilescope: plain entry=gauss_cols tmp=buffer
//
// The same 5x5 Gaussian as two kernels launched in sequence: a horizontal pass into a
// temporary of 16-bit sums (`tmp`, a buffer of the image's shape that lives between the
// launches), then a vertical pass into the output. Integer sums, so it equals the 2-D
// reference bit for bit.

__constant int wt[5] = { 18, 63, 94, 63, 18 };

__kernel void gauss_rows(__global const uchar *in, __global ushort *tmp, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    uint s = 0;
    for (int i = -2; i <= 2; i++)
      s += wt[i + 2] * in[(y * W + clamp(x + i, 0, W - 1)) * C + c];
    tmp[(y * W + x) * C + c] = (ushort)s;
  }
}

__kernel void gauss_cols(__global const ushort *tmp, __global uchar *out, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    uint s = 0;
    for (int j = -2; j <= 2; j++)
      s += wt[j + 2] * tmp[(clamp(y + j, 0, H - 1) * W + x) * C + c];
    out[(y * W + x) * C + c] = (uchar)((s + 32768u) >> 16);
  }
}
