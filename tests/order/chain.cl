// A relay: each work-group waits until the group before it has raised its flag, adds its
// own part to the running total and raises its own flag. It ends only when every group
// starts after the one before it; OpenCL promises no such order.
__kernel void chain(__global volatile int *flags, __global int *total, __global const int *part)
{
  int g = (int)get_group_id(0);
  if (get_local_id(0) == 0) {
    if (g > 0)
      while (atomic_add(&flags[g - 1], 0) == 0)
        ;
    total[g] = (g > 0 ? total[g - 1] : 0) + part[g];
    atomic_xchg(&flags[g], 1);
  }
}
