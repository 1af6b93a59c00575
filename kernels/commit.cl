/* Commit: copies each finished thread's write rectangle from the shadow buffer to the
 * committed one, one work-group per rectangle (x and width in bytes, y and height in rows).
 * Copy: the device's copy bandwidth, for `tilescope bench`. */

__kernel void commit_rects(__global const uchar *shadow, __global uchar *buf,
                           __global const int4 *rects, int first, int pitch)
{
  int4 rc = rects[first + get_group_id(0)];
  for (int y = rc.y; y < rc.y + rc.w; y++)
    for (int x = (int)get_local_id(0); x < rc.z; x += (int)get_local_size(0)) {
      int o = y * pitch + rc.x + x;
      buf[o] = shadow[o];
    }
}

__kernel void copy_words(__global const uint4 *src, __global uint4 *dst)
{
  size_t i = get_global_id(0);
  dst[i] = src[i];
}
