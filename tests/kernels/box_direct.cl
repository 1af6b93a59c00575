// tilescope: variant name=box_direct equals=box3
// tilescope: pass entry=box_direct tile=16x16 group=16x16 halo=0
//
// A dialect kernel that reads src directly, not through an accessor, declaring no halo, and
// writes one row past dst from its last row: observed, both are caught (tests/cli.sh,
// tests/gpu/run.sh).
inline void box_direct_tile(TS_BODY_ARGS, int2 t)
{
  int x = t.x * 16 + (int)get_local_id(0), y = t.y * 16 + (int)get_local_id(1);
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    int s = 0;
    for (int j = -1; j <= 1; j++)
      for (int i = -1; i <= 1; i++)
        s += src[(clamp(y + j, 0, H - 1) * W + clamp(x + i, 0, W - 1)) * C + c];
    dst[(y * W + x) * C + c + (x == 0 && y == H - 1 ? W * C : 0)] = box_scale(s);
  }
}
TS_GROUP_ENTRY(box_direct, 16, 16)
