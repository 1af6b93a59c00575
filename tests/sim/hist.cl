// A 256-bin histogram of bytes, as authors write it: each work-group counts its share in
// __local bins with atomics, then adds them to the global bins. -DNO_ZERO_BARRIER and
// -DNO_MERGE_BARRIER leave out one barrier each: both are races on the __local bins.
__kernel void hist(__global const uchar *pixels, uint n, __global uint *bins,
                   __local uint *local_bins)
{
  uint lid = get_local_id(0), lsize = get_local_size(0);
  for (uint b = lid; b < 256; b += lsize)
    local_bins[b] = 0;
#ifndef NO_ZERO_BARRIER
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(&local_bins[pixels[i]]);
#ifndef NO_MERGE_BARRIER
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  for (uint b = lid; b < 256; b += lsize)
    atomic_add(&bins[b], local_bins[b]);
}
