// tilescope: buffer tmp type=ushort shape=H,W channels=C role=temp
// tilescope: plain entry=box_rows global=W,H
// tilescope: plain entry=box_cols global=H,W
//
// Lesson 4, the transpose trick (solution): both passes are the same horizontal code.
// box_rows sums three pixels along each row and writes the sum transposed: pixel (x, y)'s
// sum goes to column y of row x of tmp, which is H columns by W rows. box_cols runs over
// tmp's shape (H x W work-items), sums three neighbours along a row of tmp, that is down a
// column of the image, and writes the result transposed back into the image.

__kernel void box_rows(__global const uchar *in, __global ushort *tmp, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    uint s = 0;
    for (int i = -1; i <= 1; i++)
      s += in[(y * W + clamp(x + i, 0, W - 1)) * C + c];
    tmp[(x * H + y) * C + c] = (ushort)s;
  }
}

/* (u, v): column u of row v of tmp, that is image pixel (v, u) */
__kernel void box_cols(__global const ushort *tmp, __global uchar *out, int W, int H, int C)
{
  int u = get_global_id(0), v = get_global_id(1);
  if (u >= H || v >= W)
    return;
  for (int c = 0; c < C; c++) {
    uint s = 0;
    for (int i = -1; i <= 1; i++)
      s += tmp[(v * H + clamp(u + i, 0, H - 1)) * C + c];
    out[(u * W + v) * C + c] = (uchar)((float)s * 0.111f);
  }
}
