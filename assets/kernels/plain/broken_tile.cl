// tilescope: plain global=W/16*16,H/16*16 local=16,16 tile=16x16 halo=1
//
// BROKEN ON PURPOSE: conv2d.cl with a tile that writes one column past its edge. The work-
// items of the last column of each 16x16 work-group also write the pixel to their right,
// which belongs to the next work-group's tile: two groups of one launch write the same
// bytes, in no order. `--observe` names the write.

__kernel void tile_overwrite(__global const uchar *in, __global uchar *out, int W, int H, int C)
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
    if (get_local_id(0) == 15 && x + 1 < W)
      out[(y * W + x + 1) * C + c] = (uchar)((float)sum * 0.111f);
  }
}
