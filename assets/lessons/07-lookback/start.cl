// tilescope: buffer ready type=uint shape=((W+15)/16)*((H+15)/16) role=temp init=zero
// tilescope: plain global=(W+15)/16*16,(H+15)/16*16 local=16,16 out=output(1)
//
// Lesson 7, a look-back that waits for groups started later: an integral image in one
// launch. Each work-group sums its own 16x16 tile, then waits for the tile to its left and
// the tile above to be finished (a spin on their `ready` flags) and adds what they hold along
// its left column and top row. The tile is the group's id. On pocl, which starts groups in
// order of their ids, it works; check it under another order with
//   tilescope lesson 7 assets/lessons/07-lookback/start.cl
// Luma is tilescope's, so the sums equal its integral reference bit for bit (modulo 2^32).

#define T 16

inline uint luma(__global const uchar *p, int C)
{
  return C < 3 ? p[0] : (77u * p[0] + 150u * p[1] + 29u * p[2] + 128u) >> 8;
}

__kernel void integral_lookback(__global const uchar *in, __global uint *out, int W, int H, int C,
                                __global uint *ready)
{
  __local uint sums[T][T];
  int lx = get_local_id(0), ly = get_local_id(1);
  int tiles_x = (W + T - 1) / T;
  int tx = get_group_id(0), ty = get_group_id(1), tile = ty * tiles_x + tx;
  uint launch = 1;
  int x = tx * T + lx, y = ty * T + ly;

  /* the tile's own sums: each row from the left, then each column down */
  sums[ly][lx] = x < W && y < H ? luma(in + (y * W + x) * C, C) : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lx == 0)
    for (int i = 1; i < T; i++)
      sums[ly][i] += sums[ly][i - 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ly == 0)
    for (int j = 1; j < T; j++)
      sums[j][lx] += sums[j - 1][lx];
  barrier(CLK_LOCAL_MEM_FENCE);

  /* wait for the tiles to the left and above */
  if (lx == 0 && ly == 0) {
    if (tx > 0)
      while (atomic_add(&ready[tile - 1], 0) < launch)
        ;
    if (ty > 0)
      while (atomic_add(&ready[tile - tiles_x], 0) < launch)
        ;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  uint left = tx > 0 && y < H ? atomic_add(&out[y * W + tx * T - 1], 0) : 0;
  uint up = ty > 0 && x < W ? atomic_add(&out[(ty * T - 1) * W + x], 0) : 0;
  uint corner = tx > 0 && ty > 0 ? atomic_add(&out[(ty * T - 1) * W + tx * T - 1], 0) : 0;
  if (x < W && y < H)
    atomic_xchg(&out[y * W + x], sums[ly][lx] + left + up - corner);

  /* the tile is finished: its flag, once every work-item's sum is in */
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (lx == 0 && ly == 0)
    atomic_xchg(&ready[tile], launch);
}
