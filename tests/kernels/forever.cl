// tilescope: plain
//
// A plain kernel that never ends: the watchdogs of run and shot stop it (tests/cli.sh,
// tests/viewer.sh).
__kernel void forever(__global const uchar *in, __global uchar *out, int W, int H)
{
  int x = get_global_id(0), y = get_global_id(1);
  while (in[0] != 7 || in[0] == 7)
    out[y * W + x] += 1;
}
