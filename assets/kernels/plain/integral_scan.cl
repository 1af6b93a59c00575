// tilescope: plain entry=scan_rows global=H tmp=buffer(1)
// tilescope: plain entry=scan_cols global=W tmp=buffer(1) out=output(1)
//
// An integral image as two scans, as a first tutorial writes it: one work-item per row sums
// its row's luma from left to right into a temporary of 32-bit sums (`tmp`, a buffer of the
// image's shape that lives between the launches), then one work-item per column sums that
// from top to bottom into the output, one 32-bit sum per pixel (`output(1)`: one channel,
// whatever the input's). Luma is tilescope's: (77 R + 150 G + 29 B + 128) >> 8, grey as it
// is, so the sums equal tilescope's integral reference bit for bit (modulo 2^32). The window
// shows them normalised to the largest.

inline uint luma(__global const uchar *p, int C)
{
  return C < 3 ? p[0] : (77u * p[0] + 150u * p[1] + 29u * p[2] + 128u) >> 8;
}

__kernel void scan_rows(__global const uchar *in, __global uint *tmp, int W, int H, int C)
{
  int y = get_global_id(0);
  if (y >= H)
    return;
  uint s = 0;
  for (int x = 0; x < W; x++) {
    s += luma(in + (y * W + x) * C, C);
    tmp[y * W + x] = s;
  }
}

__kernel void scan_cols(__global const uint *tmp, __global uint *out, int W, int H)
{
  int x = get_global_id(0);
  if (x >= W)
    return;
  uint s = 0;
  for (int y = 0; y < H; y++) {
    s += tmp[y * W + x];
    out[y * W + x] = s;
  }
}
