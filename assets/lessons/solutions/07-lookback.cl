// tilescope: buffer ticket type=uint shape=1 role=temp init=zero
// tilescope: buffer ready type=uint shape=((W+15)/16)*((H+15)/16) role=temp init=zero
// tilescope: plain global=(W+15)/16*16,(H+15)/16*16 local=16,16 out=output(1)
//
// Lesson 7's solution (also assets/kernels/plain/integral_lookback.cl). An integral image in
// one launch, as a single-pass scan is written: each work-group sums
// its own 16x16 tile, then waits for the tile to its left and the tile above to be finished
// (a spin on their `ready` flags), and adds what they hold along its left column and top row:
// I(x,y) = own(x,y) + I(x0-1,y) + I(x,y0-1) - I(x0-1,y0-1). The tiles finish as a wavefront
// from the top-left corner.
//
// A group spins on flags that only other groups set, and OpenCL promises no order between
// groups: a group may start before the tiles it waits for, and on a device that runs only so
// many groups at once it would wait forever. So the tile is not the group's id: it is a
// ticket the group takes when it starts (`ticket`), in order, so that every tile it waits for
// went to a group that started earlier. The flags and the boundary sums go through atomics,
// which never race. A launch's tickets run on from the last launch's (the buffer lives
// between launches), and a flag holds the launch that set it, so repeats need no reset.
//
// Luma is tilescope's, (77 R + 150 G + 29 B + 128) >> 8, so the sums equal its integral
// reference bit for bit (modulo 2^32); the window shows them normalised to the largest.

#define T 16

inline uint luma(__global const uchar *p, int C)
{
  return C < 3 ? p[0] : (77u * p[0] + 150u * p[1] + 29u * p[2] + 128u) >> 8;
}

__kernel void integral_lookback(__global const uchar *in, __global uint *out, int W, int H, int C,
                                __global uint *ticket, __global uint *ready)
{
  __local uint sums[T][T];
  __local uint tile_of[2];
  int lx = get_local_id(0), ly = get_local_id(1);
  int tiles_x = (W + T - 1) / T, tiles = tiles_x * ((H + T - 1) / T);
  if (lx == 0 && ly == 0) {
    uint t = atomic_inc(ticket);
    tile_of[0] = t % tiles;     /* the tile: in the order the groups started */
    tile_of[1] = t / tiles + 1; /* this launch's mark for the flags */
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int tile = tile_of[0];
  uint launch = tile_of[1];
  int tx = tile % tiles_x, ty = tile / tiles_x;
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

  /* wait for the tiles to the left and above: they went to groups that started earlier */
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
