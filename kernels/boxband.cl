/* boxband: the box 3x3 filter for a CPU (not in the seed). One work-item owns a band BB_R
 * rows tall and BB_W bytes wide and sweeps it left to right, one 16-byte column at a time:
 * each column is walked down the band with three rows of horizontal sums in registers
 * (box_hsum16: three overlapping 16-byte loads), and each output row of it is scaled in
 * 32-bit lanes and stored as one 16-byte vector. boxstrip does the same per byte, but walks
 * a narrow strip down many rows, so that every load is to another row (another page) and the
 * hardware prefetcher loses track; here a work-item's next loads are the next 16 bytes of
 * the same BB_R + 2 rows, a few sequential streams it follows. The band's rows above and
 * below are read twice (by two bands): BB_R + 2 rows of sums for BB_R rows of output. */

#define BB_W 1024
#define BB_R 8

/* box_column16 inside the image: all BB_R rows and the rows above and below them exist and
 * the column is inside the row, so nothing is clamped and the loop unrolls to straight
 * loads and stores. */
inline void bb_column_inner(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int C,
                            int rowbytes, int x, int y0)
{
  ushort16 a = box_hsum16(TS_OBS_ARG src, rowbytes, C, x, y0 - 1, 0),
           b = box_hsum16(TS_OBS_ARG src, rowbytes, C, x, y0, 0);
#pragma unroll
  for (int j = 0; j < BB_R; j++) {
    ushort16 c = box_hsum16(TS_OBS_ARG src, rowbytes, C, x, y0 + j + 1, 0);
    TS_ST8x16(dst, rowbytes, x, y0 + j, box_scale16(a + b + c));
    a = b;
    b = c;
  }
}

inline void boxband_tile(TS_BODY_ARGS, int2 t)
{
  int rowbytes = W * C, x0 = t.x * BB_W, x1 = min(x0 + BB_W, rowbytes), y0 = t.y * BB_R;
  int n = min(BB_R, H - y0), inner = y0 > 0 && y0 + BB_R < H && (C == 1 || C == 3 || C == 4);
  for (int x = x0; x < x1; x += 16) {
    /* The last column ends at the band's end, overlapping its left neighbour when the width
     * is not a multiple of 16 (the same bytes, written again by this work-item). Only the
     * row's first and last columns meet its ends. */
    if (inner && x >= C && x + 16 + C <= rowbytes && x + 16 <= x1) { /* box_kind16 0 */
      bb_column_inner(TS_OBS_ARG src, dst, C, rowbytes, x, y0);
    } else {
      int p = max(min(x, x1 - 16), x0);
      box_column16(TS_OBS_ARG src, dst, H, C, rowbytes, p, y0, n, box_kind16(rowbytes, C, p));
    }
  }
}
TS_ITEM_ENTRY(boxband)
