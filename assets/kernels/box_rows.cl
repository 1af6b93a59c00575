// tilescope: variant name=box_rows equals=box3 summary="a user box 3x3: one work-item per 32x4 pixels"
// tilescope: pass entry=box_rows tile=32x4 group=item halo=1
//
// A user kernel: the header above declares the variant (a box 3x3 that must equal the
// built-in reference), its pass, the pixels one thread owns and the halo it reads around
// them. The file is built after kernels/common.cl, so it uses the same entries (a tile
// function NAME_tile and TS_ITEM_ENTRY or TS_GROUP_ENTRY) and reads and writes its buffers
// only through the accessors (TS_LD8, TS_ST8, ...), which an observe build records.

#define BR_W 32
#define BR_H 4

inline void box_rows_tile(TS_BODY_ARGS, int2 t)
{
  int pitch = W * C;
  for (int y = t.y * BR_H; y < min(t.y * BR_H + BR_H, H); y++)
    for (int x = t.x * BR_W; x < min(t.x * BR_W + BR_W, W); x++)
      for (int c = 0; c < C; c++) {
        int s = 0;
        for (int j = -1; j <= 1; j++)
          for (int i = -1; i <= 1; i++)
            s += ld8(src, W, H, C, x + i, y + j, c); /* edge-clamped, through TS_LD8 */
        TS_ST8(dst, pitch, x * C + c, y, box_scale(s));
      }
}
TS_ITEM_ENTRY(box_rows)
