// A 3x3 box filter over 8-bit grey rows, written as image libraries write theirs (and kept
// free of tilescope lines: tests/kernels/lib_box16.launch launches it). Each work-item makes
// 16 pixels of two rows: it reads its four source rows as uint4 (vload4 over the 8-bit
// pixels, punned), the pixel left and right of them through a uchar pointer, and takes row
// lengths as byte steps. Built with -D REPLICATE (edge pixels repeat; else zeros) and
// -D SCALE (the sum times alpha, rounded to nearest even; else the sum, saturated).
// Its contract: a width that is a multiple of 16, an even height, a launch of W/16 x H/2.

__kernel void box16x2(__global const uint *src, int src_step, __global uint *dst, int dst_step,
                      int rows, int cols
#ifdef SCALE
                      , float alpha
#endif
                      )
{
  int bx = get_global_id(0), y = get_global_id(1) * 2;
  if (bx * 16 >= cols || y >= rows)
    return;
  __global const uchar *bytes = (__global const uchar *)src;
  ushort16 h[4];
  for (int k = 0; k < 4; k++) {
    int yy = y - 1 + k;
#ifdef REPLICATE
    yy = clamp(yy, 0, rows - 1);
    bool blank = false;
#else
    bool blank = yy < 0 || yy >= rows;
    yy = clamp(yy, 0, rows - 1);
#endif
    ushort16 mid = convert_ushort16(as_uchar16(vload4(0, src + yy * (src_step / 4) + bx * 4)));
    int at = yy * src_step + bx * 16;
#ifdef REPLICATE
    ushort left = bytes[bx == 0 ? at : at - 1];
    ushort right = bytes[(bx + 1) * 16 >= cols ? at + 15 : at + 16];
#else
    ushort left = bx == 0 ? 0 : bytes[at - 1];
    ushort right = (bx + 1) * 16 >= cols ? 0 : bytes[at + 16];
#endif
    h[k] = (ushort16)(left, mid.s012, mid.s3456789a, mid.sbcde) + mid +
           (ushort16)(mid.s1234, mid.s56789abc, mid.sdef, right);
    if (blank)
      h[k] = (ushort16)0;
  }
  ushort16 s0 = h[0] + h[1] + h[2], s1 = h[1] + h[2] + h[3];
#ifdef SCALE
  uchar16 o0 = convert_uchar16_sat_rte(convert_float16(s0) * alpha);
  uchar16 o1 = convert_uchar16_sat_rte(convert_float16(s1) * alpha);
#else
  uchar16 o0 = convert_uchar16_sat(s0), o1 = convert_uchar16_sat(s1);
#endif
  int out = y * (dst_step / 4) + bx * 4;
  vstore4(as_uint4(o0), 0, dst + out);
  vstore4(as_uint4(o1), 0, dst + out + dst_step / 4);
}
