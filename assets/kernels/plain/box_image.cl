// tilescope: plain global=W,H
//
// The 3x3 box filter of conv2d.cl written with OpenCL images: the input and output are
// image2d_t arguments (named in and out, they are the image and the output), read through a
// sampler that clamps to the edge, so the kernel needs no bounds of its own. tilescope makes
// them images of 8-bit unsigned channels (read_imageui) and observes every read_imageui and
// write_imageui as an access of the pixel it reaches. It equals the box 3x3 reference bit for
// bit, as conv2d.cl does.

__constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                            CLK_FILTER_NEAREST;

__kernel void box_image(__read_only image2d_t in, __write_only image2d_t out)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= get_image_width(out) || y >= get_image_height(out))
    return;
  uint4 sum = 0;
  for (int j = -1; j <= 1; j++)
    for (int i = -1; i <= 1; i++)
      sum += read_imageui(in, edge, (int2)(x + i, y + j));
  write_imageui(out, (int2)(x, y), convert_uint4(convert_float4(sum) * 0.111f));
}
