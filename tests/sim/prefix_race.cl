// A running sum written in place without a barrier: each work-item adds its neighbour's
// element, which that neighbour is writing at the same time (a race in the group).
__kernel void prefix_race(__global int *a)
{
  int i = get_global_id(0);
  if (i > 0)
    a[i] += a[i - 1];
}
