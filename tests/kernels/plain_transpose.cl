// A transpose as a plain kernel: its output is H x W, shown in its own shape (golden
// plain_transpose), its work-groups' tiles over the pixels they wrote.
// tilescope: plain global=W,H local=16,16
// tilescope: buffer out type=uchar shape=H,W channels=C role=output
__kernel void transpose(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++)
    out[(x * H + y) * C + c] = in[(y * W + x) * C + c];
}
