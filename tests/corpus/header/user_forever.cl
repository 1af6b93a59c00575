// tilescope: plain
__kernel void forever(__global const uchar *in, __global uchar *out, int W, int H)
