// Neighbours exchange values through __global scratch across a barrier that fences only
// __local memory: the exchange is not ordered.
__kernel void fence_kinds(__global int *scratch, __global int *out)
{
  int i = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  scratch[i] = i * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = scratch[get_group_id(0) * n + (l + 1) % n];
}
