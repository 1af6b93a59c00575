/* boxstrip: the box 3x3 filter as a stream (not in the seed; the seed's 24-byte x 6-row tile
 * is linear1d2 and its siblings). One work-item owns a strip 16 bytes wide and BS_H rows
 * tall and walks down it (box_column16 in common.cl): each input row is read once, as three
 * overlapping 16-byte vector loads (the bytes, and the same bytes one pixel left and right),
 * summed into 16-bit lanes; the last three rows of those sums make one output row, scaled
 * in 32-bit lanes and stored as one 16-byte vector. Per output byte: one input byte read,
 * one written, a few vector operations. On a CPU each of its loads is to another row
 * (another page), which the hardware prefetcher does not follow: boxband does the same
 * work per byte in row order. */

#define BS_H 32

inline void boxstrip_tile(TS_BODY_ARGS, int2 t)
{
  int rowbytes = W * C, x = t.x * 16, y0 = t.y * BS_H, n = min(BS_H, H - y0);
  int kind = box_kind16(rowbytes, C, x);
  if (kind == 0)
    box_column16(TS_OBS_ARG src, dst, H, C, rowbytes, x, y0, n, 0); /* inside: no edge */
  else
    box_column16(TS_OBS_ARG src, dst, H, C, rowbytes, x, y0, n, kind);
}
TS_ITEM_ENTRY(boxstrip)
