// tilescope: plain
//
// A hostile plain kernel (tests/isolate.sh): a barrier that only some work-items of a group
// reach, which OpenCL leaves undefined (a device may hang, crash or go on). tilescope must
// end in one line and exit 1 or finish, never crash or hang.
__kernel void hostile_barrier(__global const uchar *in, __global uchar *out, int W, int H)
{
  __local uchar tile[256];
  int x = get_global_id(0), y = get_global_id(1), l = get_local_id(1) * 16 + get_local_id(0);
  tile[l] = in[(y * W + x) * 3];
  if (get_local_id(0) < 8)
    barrier(CLK_LOCAL_MEM_FENCE);
  for (int c = 0; c < 3; c++)
    out[(y * W + x) * 3 + c] = tile[255 - l];
}
