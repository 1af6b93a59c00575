// Sums a buffer the host never filled: every value stored depends on it.
__kernel void sum_noinit(__global const int *in, __global int *out)
{
  int i = get_global_id(0);
  out[i] = in[i] + 1;
}
