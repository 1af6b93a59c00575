// tilescope: variant name=box_short_halo equals=box3 summary="broken on purpose: declares a halo of 0, reads 1"
// tilescope: pass entry=box_short_halo tile=16x16 group=16x16 halo=0
//
// A box 3x3 whose header is wrong on purpose: it declares no halo, yet every work-item
// reads the 3x3 window around its pixel. Its output is right, so only the observation sees
// the bug: `tilescope run --kernel-file box_short_halo.cl --variant box_short_halo
// --observe` names each thread that read outside its declared footprint and the element,
// and exits 1. The simulator's hazards, drawn from declared footprints, would miss every
// read of a neighbour's tile this filter makes.

inline void box_short_halo_tile(TS_BODY_ARGS, int2 t)
{
  int x = t.x * 16 + (int)get_local_id(0), y = t.y * 16 + (int)get_local_id(1);
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    int s = 0;
    for (int j = -1; j <= 1; j++)
      for (int i = -1; i <= 1; i++)
        s += ld8(src, W, H, C, x + i, y + j, c);
    TS_ST8(dst, W * C, x * C + c, y, box_scale(s));
  }
}
TS_GROUP_ENTRY(box_short_halo, 16, 16)
