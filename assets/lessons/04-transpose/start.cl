// tilescope: buffer tmp type=ushort shape=W,H channels=C role=temp
// tilescope: plain entry=box_rows global=W,H
// tilescope: plain entry=box_cols global=W,H
//
// Lesson 4, the transpose trick: a separable 3x3 box filter in two launches. box_rows sums
// three pixels along each row into the temporary `tmp` (16-bit sums of the image's shape);
// box_cols sums three of those down each column and scales the sum as tilescope's box
// reference does (times 0.111f, truncated). It is right, but box_cols is vertical code: each
// work-item reads its three sums a row apart. Make both passes the same horizontal code:
// box_rows writes its sums transposed (tmp holds the image's columns as its rows), box_cols
// reads three neighbours along a row of tmp and writes its result transposed back.
// Check it with
//   tilescope lesson 4 assets/lessons/04-transpose/start.cl

__kernel void box_rows(__global const uchar *in, __global ushort *tmp, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    uint s = 0;
    for (int i = -1; i <= 1; i++)
      s += in[(y * W + clamp(x + i, 0, W - 1)) * C + c];
    tmp[(y * W + x) * C + c] = (ushort)s;
  }
}

__kernel void box_cols(__global const ushort *tmp, __global uchar *out, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    uint s = 0;
    for (int j = -1; j <= 1; j++)
      s += tmp[(clamp(y + j, 0, H - 1) * W + x) * C + c];
    out[(y * W + x) * C + c] = (uchar)((float)s * 0.111f);
  }
}
