// tilescope: plain
__kernel void far(__global const uchar *in, __global uchar *out, int W, int H)
