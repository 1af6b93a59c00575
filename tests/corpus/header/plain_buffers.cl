// An integral image in two passes, written as image libraries write theirs, with its launch
// in the lines below. The first pass sums each column of 8-bit pixels down the image and
// writes the sums transposed (image column x is row x of a temporary int buffer, through a
// __local tile and a cast of the byte pointer); the second sums the temporary's columns
// into the (W+1)x(H+1) int sum, whose first row and column are zero, at a byte offset and
// row step. The tile's size and the sum's type come from build options.
// tilescope: buffer img type=uchar shape=W,H step=W role=input
// tilescope: buffer colsums type=int shape=((H+15)/16)*16,((W+15)/16)*16 role=temp init=-1
// tilescope: buffer sum type=int shape=W+1,H+1 step=(W+1)*4+64 offset=32 role=output
// tilescope: plain entry=sum_cols options="-D TILE=16 -D sumT=int" global=((W+15)/16)*16 local=16 src=img src_step=W src_offset=0 rows=H cols=W buf=colsums buf_step=((H+15)/16)*16*4 buf_offset=0
// tilescope: plain entry=sum_rows global=((H+15)/16)*16 local=16 buf=colsums buf_step=((H+15)/16)*16*4 buf_offset=0 dst=sum dst_step=(W+1)*4+64 dst_offset=32 rows=H+1 cols=W+1

__kernel void sum_cols(__global const uchar *src, int src_step, int src_offset, int rows,
                       int cols, __global uchar *buf, int buf_step, int buf_offset)
{
  __local sumT tile[TILE * (TILE + 1)];
  int lid = get_local_id(0), x = get_global_id(0), x0 = get_group_id(0) * TILE;
  sumT acc = 0;
  for (int y0 = 0; y0 < rows; y0 += TILE) {
    for (int k = 0; k < TILE; k++) {
      if (x < cols && y0 + k < rows)
        acc += src[src_offset + (y0 + k) * src_step + x];
      tile[k * (TILE + 1) + lid] = acc;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; k++) {
      __global sumT *row = (__global sumT *)(buf + buf_offset + (x0 + k) * buf_step);
      row[y0 + lid] = tile[lid * (TILE + 1) + k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

__kernel void sum_rows(__global const uchar *buf, int buf_step, int buf_offset,
                       __global uchar *dst, int dst_step, int dst_offset, int rows, int cols)
{
  __local sumT tile[TILE * (TILE + 1)];
  int lid = get_local_id(0), y = get_global_id(0), y0 = get_group_id(0) * TILE;
  __global sumT *first = (__global sumT *)(dst + dst_offset);
  for (int x = y; x < cols; x += get_global_size(0))
    first[x] = 0;
  if (y < rows - 1)
    *(__global sumT *)(dst + dst_offset + (y + 1) * dst_step) = 0;
  sumT acc = 0;
  for (int x0 = 0; x0 < cols - 1; x0 += TILE) {
    for (int k = 0; k < TILE; k++) {
      __global const sumT *col = (__global const sumT *)(buf + buf_offset + (x0 + k) * buf_step);
      acc += col[y];
      tile[k * (TILE + 1) + lid] = acc;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (x0 + lid < cols - 1)
      for (int k = 0; k < TILE && y0 + k < rows - 1; k++) {
        __global sumT *row = (__global sumT *)(dst + dst_offset + (y0 + k + 1) * dst_step);
        row[x0 + lid + 1] = tile[lid * (TILE + 1) + k];
      }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
