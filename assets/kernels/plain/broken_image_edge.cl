// tilescope: plain global=W,H
//
// box_image.cl with its sampler left out: read_imageui(in, coord) without a sampler reads
// outside the image undefined, and the border work-items do. tilescope reports the first
// such read (line 16, pixel (-1,-1)) and does not make it; a sampler that clamps to the edge
// (box_image.cl) is the fix.

__kernel void box_image(__read_only image2d_t in, __write_only image2d_t out)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= get_image_width(out) || y >= get_image_height(out))
    return;
  uint4 sum = 0;
  for (int j = -1; j <= 1; j++)
    for (int i = -1; i <= 1; i++)
      sum += read_imageui(in, (int2)(x + i, y + j));
  write_imageui(out, (int2)(x, y), convert_uint4(convert_float4(sum) * 0.111f));
}
