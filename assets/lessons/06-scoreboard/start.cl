// tilescope: variant name=lesson_integral equals=integral pattern=vertical summary="lesson 6: the integral image in one launch"
// tilescope: pass entry=lesson_integral tile=16x16
//
// Lesson 6, the scoreboard in one launch: the integral image in 16x16 blocks, in tilescope's
// dialect. One work-item per block sums its block, then adds the sums of the column to its
// left and of the row above and subtracts the corner, read from the output as committed.
// With --exec device every block runs in ONE launch: a work-group takes a ticket, and the
// scoreboard makes it wait only for the blocks its dependency pattern names (the header's
// `pattern=`) that were dispatched before it. Nothing else orders two blocks. The kernel is
// right; its schedule is not. Check it with
//   tilescope lesson 6 assets/lessons/06-scoreboard/start.cl

#define IB 16

inline void lesson_integral_tile(TS_BODY_ARGS, int2 t)
{
  int x0 = t.x * IB, y0 = t.y * IB;
  int bw = min(IB, W - x0), bh = min(IB, H - y0);
  uint calc[IB][IB], left[IB], top[IB], corner = 0;

  for (int j = 0; j < bh; j++) {
    uint row = 0;
    for (int i = 0; i < bw; i++) {
      row += TS_LD8(src, W, x0 + i, y0 + j);
      calc[j][i] = row + (j > 0 ? calc[j - 1][i] : 0u);
    }
  }
  for (int j = 0; j < bh; j++) /* the column to the left */
    left[j] = x0 > 0 ? TS_LD32(committed, W, x0 - 1, y0 + j) : 0u;
  for (int i = 0; i < bw; i++) /* the row above */
    top[i] = y0 > 0 ? TS_LD32(committed, W, x0 + i, y0 - 1) : 0u;
  if (x0 > 0 && y0 > 0) /* the corner above-left */
    corner = TS_LD32(committed, W, x0 - 1, y0 - 1);

  for (int j = 0; j < bh; j++)
    for (int i = 0; i < bw; i++)
      TS_ST32(dst, W, x0 + i, y0 + j, calc[j][i] + left[j] + top[i] - corner);
}
TS_ITEM_ENTRY(lesson_integral)
