// tilescope: variant name=sobel summary="Sobel edges: |gx| + |gy| of a 3x3 window, one work-item per 8x8 pixels"
// tilescope: pass entry=sobel tile=8x8 group=item halo=1
//
// A user kernel with no built-in equivalent (no `equals`): the Sobel gradient magnitude,
// min(255, |gx| + |gy|), per channel, with the border replicated. Check it against a
// reference image of your own with `--expect REF.png`; `--observe` shows that it reads
// exactly its 3x3 halo. A flat image gives a black one.

#define SB_T 8

inline void sobel_tile(TS_BODY_ARGS, int2 t)
{
  int pitch = W * C;
  for (int y = t.y * SB_T; y < min(t.y * SB_T + SB_T, H); y++)
    for (int x = t.x * SB_T; x < min(t.x * SB_T + SB_T, W); x++)
      for (int c = 0; c < C; c++) {
        int p[3][3];
        for (int j = 0; j < 3; j++)
          for (int i = 0; i < 3; i++)
            p[j][i] = ld8(src, W, H, C, x + i - 1, y + j - 1, c); /* edge-clamped */
        int gx = p[0][2] + 2 * p[1][2] + p[2][2] - p[0][0] - 2 * p[1][0] - p[2][0];
        int gy = p[2][0] + 2 * p[2][1] + p[2][2] - p[0][0] - 2 * p[0][1] - p[0][2];
        TS_ST8(dst, pitch, x * C + c, y, (uchar)min((int)abs(gx) + (int)abs(gy), 255));
      }
}
TS_ITEM_ENTRY(sobel)
