// tilescope: variant name=median5 summary="5x5 median per channel: a 25-value insertion sort, one work-group per 16x16 pixels"
// tilescope: pass entry=median5 tile=16x16 group=16x16 halo=2
//
// A user kernel with a wider footprint than the box filter's: each work-item gathers the
// 5x5 window around its pixel (border replicated) and keeps the middle of its 25 values.
// No built-in filter equals it; check it with `--expect REF.png`. `--observe` shows every
// thread reading exactly its tile and a halo of 2. A flat image stays flat.

inline void median5_tile(TS_BODY_ARGS, int2 t)
{
  int x = t.x * 16 + (int)get_local_id(0), y = t.y * 16 + (int)get_local_id(1);
  if (x >= W || y >= H)
    return;
  for (int c = 0; c < C; c++) {
    uchar v[25];
    int n = 0;
    for (int j = -2; j <= 2; j++)
      for (int i = -2; i <= 2; i++) {
        uchar a = ld8(src, W, H, C, x + i, y + j, c);
        int k = n++;
        for (; k > 0 && v[k - 1] > a; k--) /* insertion: v[0 .. n - 1] stays sorted */
          v[k] = v[k - 1];
        v[k] = a;
      }
    TS_ST8(dst, W * C, x * C + c, y, v[12]);
  }
}
TS_GROUP_ENTRY(median5, 16, 16)
