// tilescope: variant name=hostile_farread summary="a copy that reads 256 MB past its input from one work-item"
// tilescope: pass entry=hostile_farread tile=8x8 group=item halo=0
//
// A hostile dialect kernel (tests/isolate.sh): a copy of the image, one work-item of which
// reads 256 MB past its input. tilescope must end in one line and exit 1, never crash or hang.
inline void hostile_farread_tile(TS_BODY_ARGS, int2 t)
{
  int pitch = W * C;
  for (int y = t.y * 8; y < min(t.y * 8 + 8, H); y++)
    for (int x = t.x * 8; x < min(t.x * 8 + 8, W); x++)
      for (int c = 0; c < C; c++)
        TS_ST8(dst, pitch, x * C + c, y, ld8(src, W, H, C, x, y, c));
  if (t.x == 0 && t.y == 0)
    dst[0] = src[1 << 28];
}
TS_ITEM_ENTRY(hostile_farread)
