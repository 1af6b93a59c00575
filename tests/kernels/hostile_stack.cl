// tilescope: plain
//
// A hostile plain kernel (tests/isolate.sh): a 16 MB private array per work-item, more than
// any device's stack. tilescope must end in one line and exit 1, never crash or hang.
__kernel void hostile_stack(__global const uchar *in, __global uchar *out, int W, int H)
{
  volatile uchar big[16 << 20];
  int x = get_global_id(0), y = get_global_id(1);
  for (int i = 0; i < (16 << 20); i += 4096)
    big[i] = in[(y * W + x) * 3];
  for (int c = 0; c < 3; c++)
    out[(y * W + x) * 3 + c] = big[(x * 4096) % (16 << 20)];
}
