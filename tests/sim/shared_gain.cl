// Every work-item scales its pixel by a gain kept in global memory; then the first one
// halves the gain for the next launch. The barrier fences local memory only, so the other
// work-items' reads of the gain are not ordered before that write.
__kernel void shared_gain(__global float *gain, __global const float *in, __global float *out)
{
  size_t i = get_global_id(0);
  out[i] = in[i] * gain[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    gain[0] = gain[0] * 0.5f;
}
