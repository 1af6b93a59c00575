// A barrier only the first half of each group reaches: the others skip it.
__kernel void half_barrier(__global int *data)
{
  int i = get_global_id(0);
  data[i] += 1;
  if (get_local_id(0) < get_local_size(0) / 2)
    barrier(CLK_GLOBAL_MEM_FENCE);
}
