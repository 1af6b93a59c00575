// A tint is set lane by lane and its alpha forgotten: every tinted pixel carries a lane
// nothing set.
__kernel void half_vector(__global const float *grey, __global float4 *rgba)
{
  size_t i = get_global_id(0);
  float4 tint;
  tint.x = 1.0f;
  tint.y = 0.8f;
  tint.z = 0.6f;
  rgba[i] = tint * grey[i];
}
