// tilescope: plain
__kernel void far(__global const uchar *in, __global uchar *out, int W, int H)
{
  int x = get_global_id(0), y = get_global_id(1);
  out[y * W + x] = in[y * W + x];
  if (x == 0 && y == 0)
    out[1 << 28] = 1;
}
// A plain kernel that writes 256 MB past its output from one work-item: the plain run
// crashes in its own process, the observed one names the write at line 7 (tests/cli.sh).
// (This note comes last so that the lines the test names stay where they are.)
