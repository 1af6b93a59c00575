/* integral_band: the integral image for a CPU (not in the seed), reduce-then-scan in bands of
 * IBD_H rows, so that the bytes are read twice and each 32-bit sum written once, every pass
 * walking its rows in memory order:
 *  1. totals: a work-item per band adds the band's rows, in memory order four at a time,
 *     into a row of 16-bit column totals in private memory (IBD_H rows of 255 fit), then
 *     writes it widened to the band's row of MID;
 *  2. carry: a work-item per strip of IBD_S columns runs down the bands adding those totals
 *     up, and writes at each band's first row of OUT the column sums of all the rows above;
 *  3. scan: a work-item per band keeps its last row of sums in private memory. The first is
 *     the prefix sums along the row of those carries plus the row's bytes (the carries read
 *     through committed before it overwrites them); each later one is the one above plus
 *     the prefix sums of the row's bytes, taken in 16-bit lanes 16 at a time with a carry
 *     from vector to vector. The output is only written, never read back, so where its
 *     rows are whole 64-byte lines (W a multiple of 16) it is streamed past the caches
 *     (TS_ST32x16S): no read for ownership, half the memory traffic of a plain store.
 * Those private rows are IBD_CW columns (16 KB: L1 on a CPU; a GPU would spill them); wider
 * images go in chunks of that many, each row carrying its sum from chunk to chunk. Sums
 * wrap modulo 2^32 like the reference's, so the order of the additions does not matter.
 * What is left of a chunk's row after its last whole vector goes element by element. */

#define IBD_H 256 /* rows a band: 256 * 255 fits the totals' 16 bits */
#define IBD_S 64 /* columns a carry strip */
#define IBD_CW 4096 /* columns a chunk */

/* Inclusive prefix sums along 16 lanes of bytes: a 64-bit multiply by 1 + 2^16 + 2^32 + 2^48
 * adds each lane into the lanes above it in its group of four (no sum reaches 2^16: nothing
 * carries across lanes), then the groups' totals are carried. */
inline ushort16 ibd_scan16(ushort16 v)
{
  v = as_ushort16(as_ulong4(v) * (ulong4)0x0001000100010001UL);
  v += (ushort16)((ushort4)0, (ushort4)v.s3, (ushort4)0, (ushort4)v.sb);
  v += (ushort16)((ushort8)0, (ushort8)v.s7);
  return v;
}

inline uint16 ibd_scan32(uint16 v)
{
  v += (uint16)((uint)0, v.s0123, v.s456789ab, v.scde);
  v += (uint16)((uint2)0, v.s0123, v.s456789ab, v.scd);
  v += (uint16)((uint4)0, v.s01234567, v.s89ab);
  v += (uint16)((uint8)0, v.s01234567);
  return v;
}

/* The column totals of rows y0 .. y1 - 1 (at most IBD_H) over the chunk [c0, c1), into acc
 * (a its words). The rows are read in memory order, four at a time, into 16-bit totals,
 * then widened: eight rows a step down the columns had been eight streams of 16 bytes, and
 * a third of the look-back band's time in one launch. */
inline void ibd_totals(TS_OBS_PARAM __global const uchar *src, int W, int y0, int y1, int c0,
                       int c1, uint16 *acc)
{
  uint *a = (uint *)acc;
  ushort16 t[IBD_CW / 16];
  int xe = c0 + (c1 - c0) / 16 * 16, y = y0;
  for (int x = c0; x < xe; x += 16)
    t[(x - c0) / 16] = 0;
  for (; y + 4 <= y1; y += 4)
    for (int x = c0; x < xe; x += 16)
      t[(x - c0) / 16] += convert_ushort16(TS_LD8x16(src, W, x, y)) +
                          convert_ushort16(TS_LD8x16(src, W, x, y + 1)) +
                          convert_ushort16(TS_LD8x16(src, W, x, y + 2)) +
                          convert_ushort16(TS_LD8x16(src, W, x, y + 3));
  for (; y < y1; y++)
    for (int x = c0; x < xe; x += 16)
      t[(x - c0) / 16] += convert_ushort16(TS_LD8x16(src, W, x, y));
  for (int x = c0; x < xe; x += 16)
    acc[(x - c0) / 16] = convert_uint16(t[(x - c0) / 16]);
  for (int x = xe; x < c1; x++) {
    uint s = 0;
    for (int i = y0; i < y1; i++)
      s += TS_LD8(src, W, x, i);
    a[x - c0] = s;
  }
}

/* Pass 1: tile (0, band); dst is MID, a row per band. */
inline void integral_band_totals_tile(TS_BODY_ARGS, int2 t)
{
  int b = t.y, y0 = b * IBD_H, y1 = min(y0 + IBD_H, H);
  uint16 acc[IBD_CW / 16]; /* the chunk's column totals */
  uint *a = (uint *)acc;
  for (int c0 = 0; c0 < W; c0 += IBD_CW) {
    int c1 = min(c0 + IBD_CW, W), x;
    ibd_totals(TS_OBS_ARG src, W, y0, y1, c0, c1, acc);
    for (x = c0; x + 16 <= c1; x += 16)
      TS_ST32x16(dst, W, x, b, acc[(x - c0) / 16]);
    for (; x < c1; x++)
      TS_ST32(dst, W, x, b, a[x - c0]);
  }
}
TS_GROUP_ENTRY(integral_band_totals, 1, 1)

/* Pass 2: tile (strip, 0); src is MID. */
inline void integral_band_carry_tile(TS_BODY_ARGS, int2 t)
{
  int x0 = t.x * IBD_S, nb = (H + IBD_H - 1) / IBD_H;
  if (x0 + IBD_S <= W) {
    uint16 c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    for (int b = 0; b < nb; b++) {
      TS_ST32x16(dst, W, x0, b * IBD_H, c0);
      TS_ST32x16(dst, W, x0 + 16, b * IBD_H, c1);
      TS_ST32x16(dst, W, x0 + 32, b * IBD_H, c2);
      TS_ST32x16(dst, W, x0 + 48, b * IBD_H, c3);
      if (b + 1 < nb) { /* the last band's totals carry into nothing */
        c0 += TS_LD32x16(src, W, x0, b);
        c1 += TS_LD32x16(src, W, x0 + 16, b);
        c2 += TS_LD32x16(src, W, x0 + 32, b);
        c3 += TS_LD32x16(src, W, x0 + 48, b);
      }
    }
  } else {
    for (int x = x0; x < W; x++) {
      uint c = 0;
      for (int b = 0; b < nb; b++) {
        TS_ST32(dst, W, x, b * IBD_H, c);
        if (b + 1 < nb)
          c += TS_LD32(src, W, x, b);
      }
    }
  }
}
TS_ITEM_ENTRY(integral_band_carry)

/* 16 sums of row y from column x: streamed past the caches where the row's 16-column
 * blocks are whole 64-byte lines (W a multiple of 16), else a plain store. */
inline void ibd_put16(TS_OBS_PARAM __global uchar *dst, int W, int x, int y, uint16 v, int nt)
{
  if (nt)
    TS_ST32x16S(dst, W, x, y, v);
  else
    TS_ST32x16(dst, W, x, y, v);
}

/* Rows y0 .. y1 - 1 over the chunk [c0, c1): row holds the chunk's row of sums above y0
 * (the band's last row so far), left[j] the sum of row y0 + j's bytes left of the chunk; each
 * row is the one above plus the prefix sums of its bytes. Inlined into ibd_rows twice, nt 1
 * and 0, so that no store tests nt. */
inline __attribute__((always_inline)) void ibd_rows_nt(TS_OBS_PARAM __global const uchar *src,
                                                       __global uchar *dst, int W, int y0,
                                                       int y1, int c0, int c1, uint16 *row,
                                                       uint *left, int nt)
{
  uint *rw = (uint *)row;
  for (int y = y0; y < y1; y++) {
    uint s = left[y - y0]; /* the row's bytes left of the chunk: the row above has the rest */
    uint16 *p = row;
    int x;
    /* 64 columns a step: the carries between their four vectors in 16 bits (at most
     * 64 * 255), one 32-bit carry a step */
    for (x = c0; x + 64 <= c1; x += 64, p += 4) {
      ushort16 q0 = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x, y)));
      ushort16 q1 = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x + 16, y))) + q0.sf;
      ushort16 q2 = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x + 32, y))) + q1.sf;
      ushort16 q3 = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x + 48, y))) + q2.sf;
      p[0] += convert_uint16(q0) + s;
      p[1] += convert_uint16(q1) + s;
      p[2] += convert_uint16(q2) + s;
      p[3] += convert_uint16(q3) + s;
      ibd_put16(TS_OBS_ARG dst, W, x, y, p[0], nt);
      ibd_put16(TS_OBS_ARG dst, W, x + 16, y, p[1], nt);
      ibd_put16(TS_OBS_ARG dst, W, x + 32, y, p[2], nt);
      ibd_put16(TS_OBS_ARG dst, W, x + 48, y, p[3], nt);
      s += q3.sf;
    }
    for (; x + 16 <= c1; x += 16, p++) {
      ushort16 q = ibd_scan16(convert_ushort16(TS_LD8x16(src, W, x, y)));
      *p += convert_uint16(q) + s;
      ibd_put16(TS_OBS_ARG dst, W, x, y, *p, nt);
      s += q.sf;
    }
    for (; x < c1; x++) {
      s += TS_LD8(src, W, x, y);
      rw[x - c0] += s;
      TS_ST32(dst, W, x, y, rw[x - c0]);
    }
    left[y - y0] = s;
  }
}

inline void ibd_rows(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int W, int y0,
                     int y1, int c0, int c1, uint16 *row, uint *left, int nt)
{
  if (nt)
    ibd_rows_nt(TS_OBS_ARG src, dst, W, y0, y1, c0, c1, row, left, 1);
  else
    ibd_rows_nt(TS_OBS_ARG src, dst, W, y0, y1, c0, c1, row, left, 0);
}

/* Pass 3: tile (0, band). row: the band's last row of sums in the chunk; left: per row of
 * the band, the sum of its bytes left of the chunk; first: the first row's sum left of it. */
inline void integral_band_scan_tile(TS_BODY_ARGS, int2 t)
{
  int y0 = t.y * IBD_H, y1 = min(y0 + IBD_H, H), nt = W % 16 == 0;
  uint16 row[IBD_CW / 16];
  uint *rw = (uint *)row, left[IBD_H], first = 0;
  for (int r = 0; r < y1 - y0; r++)
    left[r] = 0;
  for (int c0 = 0; c0 < W; c0 += IBD_CW) {
    int c1 = min(c0 + IBD_CW, W), x;
    uint16 *p = row;
    uint s = first; /* the row's sum so far */
    for (x = c0; x + 16 <= c1; x += 16, p++) {
      uint16 v = TS_LD32x16(committed, W, x, y0) + convert_uint16(TS_LD8x16(src, W, x, y0));
      *p = v = ibd_scan32(v) + s;
      s = v.sf;
      ibd_put16(TS_OBS_ARG dst, W, x, y0, v, nt);
    }
    for (; x < c1; x++) {
      s += TS_LD32(committed, W, x, y0) + TS_LD8(src, W, x, y0);
      rw[x - c0] = s;
      TS_ST32(dst, W, x, y0, s);
    }
    first = s;
    ibd_rows(TS_OBS_ARG src, dst, W, y0 + 1, y1, c0, c1, row, left + 1, nt);
  }
}
TS_GROUP_ENTRY(integral_band_scan, 1, 1)

/* ---- integral_lookback_band: the bands in one launch ----
 * One pass over 256-row bands, a band a work-group of one work-item. Simulated order (the
 * host's launches, one band after another under the pattern horizontal): a band starts from
 * the output's row above it, as committed, and makes each of its rows from the one above.
 *
 * Device order (-DTS_DEVICE, one launch): the decoupled look-back of integral_lookback over
 * whole bands. A band first adds up its columns (its aggregate, a word a column, into its
 * part of the board) and publishes them (flag AGGREGATE) before it waits for anything. Then
 * it looks back up the bands: an aggregate is added and the look-back goes on past it, until
 * a band that has finished (DONE), whose last row of the output already holds everything
 * above it. The row above this band is that row plus the prefix sums along the row of the
 * aggregates in between. The band's bytes, read a moment earlier for its aggregate, then
 * come from the cache rather than memory: the bytes cross memory once, against twice in
 * integral_band's three launches. A band looks back only at bands dispatched before it (the
 * board's ticket of each tile), so every poll ends (ts_lb_poll). */
inline void integral_lookback_band_tile(TS_BODY_ARGS, int2 t)
{
  int y0 = t.y * IBD_H, y1 = min(y0 + IBD_H, H), nt = W % 16 == 0;
  uint16 row[IBD_CW / 16];
  uint *rw = (uint *)row, left[IBD_H];
  for (int r = 0; r < y1 - y0; r++)
    left[r] = 0;
  for (int c0 = 0; c0 < W; c0 += IBD_CW) {
    int c1 = min(c0 + IBD_CW, W);
    for (int x = c0; x < c1; x++)
      rw[x - c0] = y0 > 0 ? TS_LD32(committed, W, x, y0 - 1) : 0u;
    ibd_rows(TS_OBS_ARG src, dst, W, y0, y1, c0, c1, row, left, nt);
  }
}

#ifndef TS_DEVICE
TS_GROUP_ENTRY(integral_lookback_band, 1, 1)
#else
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void integral_lookback_band(TS_ARGS)
{
  TS_TICKET(get_group_id(0))
  int tk = ts_tk_[0], b = ts_t_.y, y0 = b * IBD_H, y1 = min(y0 + IBD_H, H), nt = W % 16 == 0;
  __global const int *ticket_of = board + TS_BOARD_FLAGS + ntiles;
  __global uint *sums = (__global uint *)(board + TS_BOARD_FLAGS + 2 * ntiles);
  uint16 row[IBD_CW / 16];
  uint *rw = (uint *)row, left[IBD_H];

  /* 1. The band's aggregate, out before any wait. */
  for (int c0 = 0; c0 < W; c0 += IBD_CW) {
    int c1 = min(c0 + IBD_CW, W);
    ibd_totals(src, W, y0, y1, c0, c1, row);
    for (int x = c0; x < c1; x++)
      sums[(size_t)b * W + x] = rw[x - c0];
  }
  ts_items_fence();
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (ts_lead_) {
    ts_lead_fence();
    ts_group_published(board, rec, record, stuck, tk);
  }

  /* 2. The effective wait set's producers have published; then the look-back: the
   *    aggregates of bands top .. b - 1 add up, band top - 1 has finished (done) or is none
   *    (the image's top, or a band the walk dispatched later). */
  ulong bt = 0, bb = 0;
  __global const int *wt = waits + 8 * tk;
  for (int i = 0; i < wt[0]; i++)
    ts_lb_note(rec, record, wt[1 + i], ts_lb_poll(board, wt[1 + i], tk, spin_limit), &bt, &bb);
  int top = b, done = 0;
  while (top > 0 && !done) {
    int p = ticket_of[top - 1];
    if (p >= tk)
      break;
    int st = ts_lb_poll(board, p, tk, spin_limit);
    ts_lb_note(rec, record, p, st, &bt, &bb);
    done = st == TS_FLAG_DONE;
    top -= !done;
  }
  ts_cm_fence(); /* the sums and rows read below were written before the flags read above */
  if (ts_lead_)
    ts_group_waited(board, rec, record, tk);

  /* 3. Chunk by chunk, the row above the band, then its rows. */
  for (int r = 0; r < y1 - y0; r++)
    left[r] = 0;
  uint cs = 0; /* the aggregates' sum over the columns so far */
  for (int c0 = 0; c0 < W; c0 += IBD_CW) {
    int c1 = min(c0 + IBD_CW, W);
    for (int x = c0; x < c1; x++) {
      for (int j = top; j < b; j++)
        cs += ((__global volatile const uint *)sums)[(size_t)j * W + x];
      rw[x - c0] = cs + (done ? TS_LD32(committed, W, x, top * IBD_H - 1) : 0u);
    }
    ibd_rows(src, dst, W, y0, y1, c0, c1, row, left, nt);
  }

  /* 4. Done: its last row holds everything above it and in it. Streamed stores are weakly
   *    ordered on x86: a store fence first. */
#if defined(__x86_64__) && defined(__has_builtin)
#if __has_builtin(__builtin_ia32_sfence)
  if (nt)
    __builtin_ia32_sfence();
#endif
#endif
  ts_items_fence();
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (ts_lead_) {
    ts_lead_fence();
    ts_group_end_as(board, tiles, rec, record, stuck, tk, 1, bb);
  }
}
#endif
