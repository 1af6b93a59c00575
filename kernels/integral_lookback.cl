/* integral_lookback (128 x 32 tiles) and integral_lookback_wide (256 x 32): the integral image
 * in one launch whose tiles do not wait in line (not in the seed). A tile is lw x LB_H
 * pixels and a work-group of lw work-items shares it: the tile's own 2-D prefix sums first,
 * in local memory; then what lies above it and to its left; then its output. Every helper
 * takes the width lw, a constant where each kernel calls it. An RGB(A) input is read as it is
 * (C channels) and turned into luma here, as the host would (ld_luma).
 *
 * Simulated order (the host's launches): every tile above and to the left has finished, and
 * its neighbours' sums are read from the output as the seed's integral reads them (the left
 * column, the row above and their corner).
 *
 * Device order (-DTS_DEVICE, one launch): the decoupled look-back of Merrill and Garland's
 * single-pass prefix scan, in two dimensions. As soon as a tile has its own sums, before it
 * has waited for anything, it publishes its aggregate: the bottom row and the right column
 * of its own prefix sums (flag AGGREGATE). Then it looks back, to the left along its row of
 * tiles and up its column, over a window of LB_WIN tiles at a time, one work-item polling
 * each: an aggregate is added and the look-back goes on past it, until a tile that has
 * finished (flag DONE), whose sums include everything before it (along the row its
 * inclusive row sums, published with DONE; up the column its bottom row of the output). A
 * tile above that has only its aggregate out needs one more number, the sum of its rows
 * left of this column: the whole group adds the totals of the tiles left of those above at
 * once, the rectangle of tiles from the image's left edge to this column, over the rows of
 * those aggregates (each tile's total is in its aggregate, which no wait delays). With its
 * carries known the tile writes its output, and with the output its inclusive sums, and
 * sets DONE. So a successor waits for a predecessor's aggregate, which no wait delays,
 * rather than for its end: the chain of waits that makes the seed's wavefront slow is cut at
 * every tile.
 *
 * Forward progress: a tile looks back only at tiles with smaller tickets (the walk
 * dispatched them first, so their groups run or are done), stopping at the image's edge or
 * at the first tile dispatched after it (the rectangle skips such a tile): under a walk that
 * leaves no hazard every tile above and to the left comes first. It also waits, as every
 * scoreboard kernel, until each producer of its effective wait set has published. Every poll
 * is bounded (ts_lb_poll). */

#define LB_H 32   /* tile rows; also the columns of a row segment (below) */
#define LB_WIN 16 /* tiles a look-back window */

/* A tile's published sums, in words: the bottom row of its prefix sums (lw words), their
 * right column (with the aggregate), its inclusive row sums (with DONE, below). The host
 * sizes the board for them (core/variants/variants_lookback.c). */
#define LB_SUMS(lw) ((lw) + 2 * LB_H)
#define LB_RIGHT(lw) (lw)          /* right column: sum of row j's pixels of the tile, rows <= j */
#define LB_INCL(lw) ((lw) + LB_H)  /* the same over every pixel left of the tile's right edge */
#define LB_P(lw) ((lw) + 1)        /* row pitch of the sums in local memory (no bank conflicts) */
#define LB_SEGS(lw) ((lw) / LB_H)  /* each row's prefix is taken in segments of LB_H columns */

/* lmem, in words: the own sums L (LB_H rows of LB_P), the segments' offsets, the carries U
 * and cumH, the rectangle's sums (LB_H words), the windows' states, the latest publication
 * read (2 words). The variant declares the same total (variants_lookback.c). */
#define LB_OFF(lw) (LB_H * LB_P(lw))
#define LB_U(lw) (LB_OFF(lw) + LB_H * LB_SEGS(lw))
#define LB_CUMH(lw) (LB_U(lw) + (lw))
#define LB_RS(lw) (LB_CUMH(lw) + LB_H)
#define LB_HST(lw) (LB_RS(lw) + LB_H)
#define LB_VST(lw) (LB_HST(lw) + LB_WIN)
#define LB_BEST(lw) (LB_VST(lw) + LB_WIN)

/* The look-back's pollers: work-items LB_HK + w for the window to the left, LB_VK + w for the
 * window above, LB_WK + i for the effective wait set, each set in a warp (32 work-items) of
 * its own on a GPU, so that their polls go out at once instead of one path after the other.
 * A group has at least 128 work-items. */
#define LB_HK 0
#define LB_VK 32
#define LB_WK 64

/* The tile's own 2-D prefix sums: column sums down the tile, then along each row; L holds
 * them and off[j * LB_SEGS + q] what row j's segments before q add. Outside the image a
 * column or a row adds nothing, so the last row and column hold the tile's bottom row and
 * right column whatever its size.
 * On NVIDIA a work-item a column, then a work-item a row segment of LB_H columns: every
 * access of a warp goes to consecutive words. Elsewhere (a CPU: pocl runs a group's
 * work-items one after another, and runs an inner loop scalar) 16 columns a work-item as one
 * vector, then a row a work-item, 16 prefix sums at a time: lw / 16 and LB_H work-items
 * busy, the others idle, and off all zero. */
#ifndef TS_NVIDIA
#define LB_VEC 1
/* Inclusive prefix sums along a vector's 16 lanes. */
inline uint16 lb_scan16(uint16 v)
{
  v += (uint16)((uint)0, v.s0123, v.s456789ab, v.scde);
  v += (uint16)((uint2)0, v.s0123, v.s456789ab, v.scd);
  v += (uint16)((uint4)0, v.s01234567, v.s89ab);
  v += (uint16)((uint8)0, v.s01234567);
  return v;
}
#endif

inline void lb_own_sums(TS_OBS_PARAM __global const uchar *src, int W, int H, int C, int x0,
                        int y0, __local uint *L, __local uint *off, int lw)
{
  int k = (int)get_local_id(0);
  int bw = min(lw, W - x0), bh = min(LB_H, H - y0);
#ifdef LB_VEC
  if (k < lw / 16) {
    int c = 16 * k, n = clamp(bw - c, 0, 16);
    uint16 s = 0;
    for (int j = 0; j < bh; j++) {
      if (n == 16 && C == 1) {
        s += convert_uint16(TS_LD8x16(src, W, x0 + c, y0 + j));
      } else if (n == 16 && C == 3) {
        s += convert_uint16(ld_luma16_rgb(TS_OBS_ARG src, W, x0 + c, y0 + j));
      } else {
        uint e[16];
        for (int i = 0; i < 16; i++)
          e[i] = i < n ? ld_luma(TS_OBS_ARG src, W, C, x0 + c + i, y0 + j) : 0u;
        s += vload16(0, e);
      }
      vstore16(s, 0, L + j * LB_P(lw) + c);
    }
    for (int j = bh; j < LB_H; j++)
      vstore16(s, 0, L + j * LB_P(lw) + c);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (k < LB_H) {
    uint carry = 0;
    for (int c = 0; c < lw; c += 16) {
      uint16 v = lb_scan16(vload16(0, L + k * LB_P(lw) + c)) + carry;
      carry = v.sf;
      vstore16(v, 0, L + k * LB_P(lw) + c);
    }
    for (int q = 0; q < LB_SEGS(lw); q++)
      off[k * LB_SEGS(lw) + q] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#else
  uint s = 0, v[LB_H];
  if (C == 3 && bw == lw && bh == LB_H && W % 4 == 0) {
    /* A whole tile of RGB whose rows are 4-byte aligned: four pixels at a time as three
     * aligned 32-bit words (not three byte loads a pixel), their lumas put in place in L;
     * then each work-item takes its column's (which only it overwrites with its sums). */
    const int gpr = lw / 4; /* four-pixel groups a row */
#pragma unroll
    for (int e = k; e < gpr * LB_H; e += lw) {
      int row = e / gpr, g = e - row * gpr, col = 3 * x0 + 12 * g;
      uint a = as_uint(TS_LD8x4A(src, 3 * W, col, y0 + row));
      uint b = as_uint(TS_LD8x4A(src, 3 * W, col + 4, y0 + row));
      uint c = as_uint(TS_LD8x4A(src, 3 * W, col + 8, y0 + row));
      __local uint *l = L + row * LB_P(lw) + 4 * g;
      l[0] = (77u * (a & 255u) + 150u * (a >> 8 & 255u) + 29u * (a >> 16 & 255u) + 128u) >> 8;
      l[1] = (77u * (a >> 24) + 150u * (b & 255u) + 29u * (b >> 8 & 255u) + 128u) >> 8;
      l[2] = (77u * (b >> 16 & 255u) + 150u * (b >> 24) + 29u * (c & 255u) + 128u) >> 8;
      l[3] = (77u * (c >> 8 & 255u) + 150u * (c >> 16 & 255u) + 29u * (c >> 24) + 128u) >> 8;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < LB_H; j++)
      v[j] = L[j * LB_P(lw) + k];
  } else {
#pragma unroll
    for (int j = 0; j < LB_H; j++) /* every load out before the first is used */
      v[j] = k < bw && j < bh ? ld_luma(TS_OBS_ARG src, W, C, x0 + k, y0 + j) : 0u;
  }
#pragma unroll
  for (int j = 0; j < LB_H; j++) {
    s += v[j];
    L[j * LB_P(lw) + k] = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  /* work-item k: row k % LB_H (a warp's rows LB_P apart: no bank conflicts), segment k / LB_H */
  int r = k % LB_H, q = k / LB_H;
  __local uint *p = L + r * LB_P(lw) + q * LB_H;
  uint a = 0;
  for (int i = 0; i < LB_H; i++) {
    a += p[i];
    p[i] = a;
  }
  off[r * LB_SEGS(lw) + q] = a;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (k < LB_H) {
    uint c = 0;
    for (int i = 0; i < LB_SEGS(lw); i++) {
      uint t = off[k * LB_SEGS(lw) + i];
      off[k * LB_SEGS(lw) + i] = c;
      c += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
}

/* Element (i, j) of the tile's own prefix sums. */
inline uint lb_own(__local const uint *L, __local const uint *off, int i, int j, int lw)
{
  return L[j * LB_P(lw) + i] + off[j * LB_SEGS(lw) + i / LB_H];
}

/* S(x0 + i, y0 + j) = own(i, j) + U[i] + cumH[j]: U[i] the sum of everything above the tile
 * in columns up to x0 + i (the output's row above it), cumH[j] the sum of everything left
 * of it in its rows up to y0 + j. On NVIDIA a work-item a column, writing row after row;
 * elsewhere 16 columns a work-item. */
inline void lb_store(TS_OBS_PARAM __global uchar *dst, int W, int H, int x0, int y0,
                     __local const uint *L, __local const uint *off, __local const uint *U,
                     __local const uint *cumH, int lw)
{
  int k = (int)get_local_id(0);
  int bw = min(lw, W - x0), bh = min(LB_H, H - y0);
#ifdef LB_VEC
  int c = 16 * k;
  if (k >= lw / 16 || c >= bw)
    return;
  uint16 u = vload16(0, U + c);
  for (int j = 0; j < bh; j++) {
    uint16 v = vload16(0, L + j * LB_P(lw) + c) + u + cumH[j];
    if (c + 16 <= bw) {
      TS_ST32x16(dst, W, x0 + c, y0 + j, v);
    } else {
      uint e[16];
      vstore16(v, 0, e);
      for (int i = 0; i < bw - c; i++)
        TS_ST32(dst, W, x0 + c + i, y0 + j, e[i]);
    }
  }
#else
  if (k >= bw)
    return;
  uint u = U[k];
  for (int j = 0; j < bh; j++)
    TS_ST32(dst, W, x0 + k, y0 + j, lb_own(L, off, k, j, lw) + u + cumH[j]);
#endif
}

/* Simulated order: the carries from the committed output (the row above, the column to the
 * left less their corner), as the seed's integral reads them. */
inline void lb_tile_committed(TS_BODY_ARGS, int2 t, int lw)
{
  int k = (int)get_local_id(0), x0 = t.x * lw, y0 = t.y * LB_H;
  int bw = min(lw, W - x0), bh = min(LB_H, H - y0);
  __local uint *L = lmem, *off = lmem + LB_OFF(lw), *U = lmem + LB_U(lw);
  __local uint *cumH = lmem + LB_CUMH(lw);
  lb_own_sums(TS_OBS_ARG src, W, H, C, x0, y0, L, off, lw);
  uint corner = x0 > 0 && y0 > 0 ? TS_LD32(committed, W, x0 - 1, y0 - 1) : 0u;
  U[k] = y0 > 0 && k < bw ? TS_LD32(committed, W, x0 + k, y0 - 1) : 0u;
  if (k < LB_H)
    cumH[k] = x0 > 0 && k < bh ? TS_LD32(committed, W, x0 - 1, y0 + k) - corner : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  lb_store(TS_OBS_ARG dst, W, H, x0, y0, L, off, U, cumH, lw);
}

#ifndef TS_DEVICE
inline void integral_lookback_tile(TS_BODY_ARGS, int2 t)
{
  lb_tile_committed(TS_BODY_PASS, t, 128);
}
inline void integral_lookback_wide_tile(TS_BODY_ARGS, int2 t)
{
  lb_tile_committed(TS_BODY_PASS, t, 256);
}
TS_GROUP_ENTRY(integral_lookback, 128, 1)
TS_GROUP_ENTRY(integral_lookback_wide, 256, 1)
#else
/* The ticket of tile (x, y) where the walk dispatched it before ticket tk, else -1 (the
 * image's edge, or a tile later in the walk: the look-back stops there). */
inline int lb_before(__global const int *ticket_of, int tw, int x, int y, int tk)
{
  if (x < 0 || y < 0)
    return -1;
  int p = ticket_of[y * tw + x];
  return p < tk ? p : -1;
}

/* A tile's published sums, read volatile: they come from other work-groups (NVIDIA's L1 is
 * not coherent between multiprocessors). */
inline __global volatile const uint *lb_sums_of(__global const uint *sums, int tw, int x, int y,
                                                int lw)
{
  return (__global volatile const uint *)(sums + (size_t)(y * tw + x) * LB_SUMS(lw));
}

/* The rectangle of tiles left of tile column x over the n rows of tiles y1, y1 - 1, ...,
 * y1 - n + 1: the sum of their totals is the rows' pixels left of this column, which U adds
 * for each tile above that has only its aggregate out. A tile's total is the last word of
 * its right column, which its aggregate brings, so a poll here waits for no tile's
 * look-back; it waits only for tiles dispatched earlier, skipping any other (a walk that
 * leaves races). The group's work-items take its tiles in turn, LB_RB at a time, each kind
 * of load out for all of them before any is used: lb_rect_out sends their tickets, then
 * their flags; lb_rect_sum polls where a flag was still 0, fences once, adds their totals.
 * Tile e of the rectangle (e from 0 to x n - 1, the step's first e0 + i lw) is
 * (e % x, y1 - e / x). */
#define LB_RB 4
inline void lb_rect_out(__global int *board, __global const int *ticket_of, int tw, int x,
                        int y1, int n, int tk, int e0, int *p, int *st, int lw)
{
#pragma unroll
  for (int i = 0; i < LB_RB; i++) {
    int e = e0 + i * lw;
    p[i] = e < x * n ? lb_before(ticket_of, tw, e % x, y1 - e / x, tk) : -1;
  }
#pragma unroll
  for (int i = 0; i < LB_RB; i++)
    st[i] = p[i] < 0 ? 1 : ((__global volatile const int *)board)[TS_BOARD_FLAGS + p[i]];
}

inline uint lb_rect_sum(__global int *board, __global const uint *sums,
                        __global const ulong *rec, int record, int tw, int x, int y1, int tk,
                        uint spin_limit, int e0, const int *p, const int *st, ulong *t, ulong *b,
                        int lw)
{
  uint s = 0, v[LB_RB];
  int any = 0;
#pragma unroll
  for (int i = 0; i < LB_RB; i++) {
    if (st[i] == 0)
      ts_lb_poll(board, p[i], tk, spin_limit);
    any |= p[i] >= 0;
  }
  if (any)
    ts_cm_fence(); /* the totals read below were written before the flags read above */
#pragma unroll
  for (int i = 0; i < LB_RB; i++) {
    int e = e0 + i * lw;
    v[i] = p[i] < 0 ? 0u : lb_sums_of(sums, tw, e % x, y1 - e / x, lw)[LB_RIGHT(lw) + LB_H - 1];
  }
#pragma unroll
  for (int i = 0; i < LB_RB; i++) {
    s += v[i];
    if (p[i] >= 0)
      ts_lb_note(rec, record, p[i], TS_FLAG_AGGREGATE, t, b);
  }
  return s;
}

/* The later of *t, *b and the publication t2, b2 (as ts_lb_note keeps them). */
inline void lb_take(ulong *t, ulong *b, ulong t2, ulong b2)
{
  if (b2 != 0 && (*b == 0 || t2 > *t)) {
    *t = t2;
    *b = b2;
  }
}

/* The fence of a publication (scoreboard.cl's ts_items_fence and ts_lead_fence, but on
 * NVIDIA once a group): there work-item 0 fences after the barrier, which orders every
 * work-item's writes before it (a device-scope fence is cumulative through the barrier, as
 * in the grid-wide sync of CUDA's cooperative groups), instead of each work-item before it
 * (on an H200 at 8K grey the wide tiles took 0.126 ms with a fence a work-item, 0.123 ms
 * with this). */
inline void lb_items_fence(void)
{
#if !defined(TS_NVIDIA) && !defined(TS_CPU)
  ts_cm_fence();
#endif
}

inline void lb_lead_fence(void)
{
#if defined(TS_NVIDIA) || defined(TS_CPU)
  ts_cm_fence();
#endif
}

/* One tile in one launch: its own sums and its aggregate out, the look-back, the output and
 * DONE. ts_tk_, ts_t_ and ts_lead_ come from TS_TICKET in the kernel. */
#define LB_DEVICE_BODY(lw) lb_device(src, dst, committed, tiles, ntiles, W, H, C, lmem, board, \
                                     waits, rec, record, stuck, spin_limit, ts_tk_[0], ts_t_, \
                                     ts_lead_, lw)
inline void lb_device(__global const uchar *src, __global uchar *dst,
                      __global const uchar *committed, __global const int2 *tiles, int ntiles,
                      int W, int H, int C, __local uint *lmem, __global int *board,
                      __global const int *waits, __global ulong *rec, int record, int stuck,
                      uint spin_limit, int tk, int2 t, int lead, int lw)
{
  int k = (int)get_local_id(0);
  int tx = t.x, ty = t.y, x0 = tx * lw, y0 = ty * LB_H;
  int tw = (W + lw - 1) / lw, bw = min(lw, W - x0);
  __local uint *L = lmem, *off = lmem + LB_OFF(lw), *U = lmem + LB_U(lw);
  __local uint *cumH = lmem + LB_CUMH(lw), *rsum = lmem + LB_RS(lw);
  __local int *hst = (__local int *)lmem + LB_HST(lw), *vst = (__local int *)lmem + LB_VST(lw);
  __local int *best = (__local int *)lmem + LB_BEST(lw);
  __global const int *ticket_of = board + TS_BOARD_FLAGS + ntiles;
  __global uint *sums = (__global uint *)(board + TS_BOARD_FLAGS + 2 * ntiles);
  __global uint *mine = sums + (size_t)(ty * tw + tx) * LB_SUMS(lw);
  int hk = k - LB_HK, vk = k - LB_VK, wk = k - LB_WK; /* a poller's place in its set */
  int hp = hk >= 0 && hk < LB_WIN, vp = vk >= 0 && vk < LB_WIN, wp = wk >= 0 && wk < 7;

  /* 1. The tile's own sums, and its aggregate out before any wait. Meanwhile the first
   *    round's pollers find their tiles' tickets (no load of the look-back waits for them
   *    then), and the carries start from 0 (cumH and the rectangle's sums add up shares). */
  int p0 = hp   ? lb_before(ticket_of, tw, tx - hk - 1, ty, tk)
           : vp ? lb_before(ticket_of, tw, tx, ty - vk - 1, tk)
           : wp && wk < waits[8 * tk] ? waits[8 * tk + 1 + wk]
                : -1;
  if (k < LB_H)
    cumH[k] = rsum[k] = 0;
  if (lead)
    best[0] = INT_MIN; /* no publication read yet (records) */
  lb_own_sums(src, W, H, C, x0, y0, L, off, lw);
  mine[k] = lb_own(L, off, k, LB_H - 1, lw);
  uint right = k < LB_H ? lb_own(L, off, lw - 1, k, lw) : 0u;
  if (k < LB_H)
    mine[LB_RIGHT(lw) + k] = right;
  lb_items_fence();
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (lead) {
    lb_lead_fence();
    ts_group_published(board, rec, record, stuck, tk);
  }

  /* 2. The look-back, left along the row and up the column at once, a window of tiles a
   *    round; in the first round the effective wait set's producers too. Then the sums,
   *    each work-item's loads out before it adds any: the aggregates to the left (a row of
   *    cumH a work-item, LB_SEGS(lw) work-items a row) and a finished tile's inclusive row
   *    sums; above, the aggregates' bottom rows and a finished tile's row of the output (a
   *    column a work-item), and the rectangle left of those aggregates. */
  uint av = 0, rs = 0;
  ulong bt = 0, bb = 0; /* the latest publication this work-item read (records) */
  int hbase = 0, vbase = 0, hdone = tx == 0, vdone = ty == 0, round0 = 1;
  do {
    ulong ct = 0, cb = 0;
    int polled = 0; /* this work-item polled a tile of a window */
    if (hp && !hdone) {
      int p = round0 ? p0 : lb_before(ticket_of, tw, tx - (hbase + hk + 1), ty, tk);
      int st = p < 0 ? 0 : ts_lb_poll(board, p, tk, spin_limit);
      ts_lb_note(rec, record, p, st, &ct, &cb);
      hst[hk] = st;
      polled = 1;
    } else if (vp && !vdone) {
      int p = round0 ? p0 : lb_before(ticket_of, tw, tx, ty - (vbase + vk + 1), tk);
      int st = p < 0 ? 0 : ts_lb_poll(board, p, tk, spin_limit);
      ts_lb_note(rec, record, p, st, &ct, &cb);
      vst[vk] = st;
      polled = 1;
    } else if (round0 && p0 >= 0) {
      int st = ts_lb_poll(board, p0, tk, spin_limit);
      ts_lb_note(rec, record, p0, st, &bt, &bb);
    }
    /* Nothing read after the polls may come from before them: on NVIDIA each poll is an
     * acquire; on a CPU the pollers' fences order all (one thread runs the group); else
     * every work-item fences. */
#ifdef TS_CPU
    if (hp || vp || wp)
      ts_cm_fence();
#elif !defined(TS_NVIDIA)
    ts_cm_fence();
#endif
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    /* The nearest tile each way whose sums hold everything before it (or the chain's end). */
    int hn = LB_WIN, vn = LB_WIN;
    for (int w = LB_WIN - 1; w >= 0; w--) {
      hn = hdone || hst[w] != TS_FLAG_AGGREGATE ? w : hn;
      vn = vdone || vst[w] != TS_FLAG_AGGREGATE ? w : vn;
    }
    int hfin = !hdone && hn < LB_WIN && hst[hn] == TS_FLAG_DONE;
    int vfin = !vdone && vn < LB_WIN && vst[vn] == TS_FLAG_DONE;
    /* A poll counts where its tile's sums are read: the aggregates, and the finished tile. */
    if (polled && ((hp && (hk < hn || (hk == hn && hfin))) || (vp && (vk < vn || (vk == vn && vfin)))))
      lb_take(&bt, &bb, ct, cb);
    /* The rectangle's first tickets and flags out, then the rows' loads while they come. */
    int rn = vdone || tx == 0 ? 0 : vn, y1 = ty - (vbase + 1), rp[LB_RB], rst[LB_RB];
    lb_rect_out(board, ticket_of, tw, tx, y1, rn, tk, k, rp, rst, lw);
    if (!hdone) {
      int j = k % LB_H, q = k / LB_H; /* window tiles q, q + LB_SEGS(lw), ... (at least 4) */
      uint e[LB_WIN / 4];
#pragma unroll
      for (int i = 0; i < LB_WIN / 4; i++) {
        int w = q + i * LB_SEGS(lw), x = tx - (hbase + w + 1);
        e[i] = w < hn                ? lb_sums_of(sums, tw, x, ty, lw)[LB_RIGHT(lw) + j]
               : w == hn && hfin ? lb_sums_of(sums, tw, x, ty, lw)[LB_INCL(lw) + j]
                                 : 0u;
      }
      uint a = 0;
#pragma unroll
      for (int i = 0; i < LB_WIN / 4; i++)
        a += e[i];
      if (a != 0)
        atomic_add(&cumH[j], a);
    }
    if (!vdone && k < bw) {
      uint d = vfin ? TS_LD32(committed, W, x0 + k, (ty - (vbase + vn + 1)) * LB_H + LB_H - 1) : 0u;
      for (int w0 = 0; w0 < vn; w0 += 8) {
        uint e[8];
#pragma unroll
        for (int i = 0; i < 8; i++)
          e[i] = w0 + i < vn ? lb_sums_of(sums, tw, tx, ty - (vbase + w0 + i + 1), lw)[k] : 0u;
#pragma unroll
        for (int i = 0; i < 8; i++)
          av += e[i];
      }
      av += d;
    }
    for (int e0 = k; e0 < tx * rn; e0 += LB_RB * lw) {
      if (e0 > k)
        lb_rect_out(board, ticket_of, tw, tx, y1, rn, tk, e0, rp, rst, lw);
      rs += lb_rect_sum(board, sums, rec, record, tw, tx, y1, tk, spin_limit, e0, rp, rst, &bt,
                        &bb, lw);
    }
    hdone |= hn < LB_WIN;
    vdone |= vn < LB_WIN;
    hbase += LB_WIN;
    vbase += LB_WIN;
    round0 = 0;
    barrier(CLK_LOCAL_MEM_FENCE); /* every window read before the next round writes it */
  } while (!(hdone && vdone));
  /* The rectangle's sum, which every column adds: the work-items' shares into LB_H words,
   * then every work-item adds those. With records, the latest publication any work-item
   * read: its time as an offset from this group's publication, the largest by a local
   * atomic, then the bound of one that has it. */
  if (rs != 0)
    atomic_add(&rsum[k % LB_H], rs);
  int rel = 0;
  if (record && bb != 0) {
    long d = (long)(bt - rec[TS_REC_WORDS * tk + TS_REC_PUBLISHED]);
    rel = (int)clamp(d, (long)INT_MIN + 1, (long)INT_MAX);
    atomic_max(&best[0], rel);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < LB_H; i++)
    av += rsum[i];
  if (record) {
    if (bb != 0 && rel == best[0])
      atomic_xchg(&best[1], (int)((uint)bb | (uint)(bb >> 32) << 31));
    barrier(CLK_LOCAL_MEM_FENCE);
    uint w = (uint)best[1];
    bb = best[0] == INT_MIN ? 0 : (ulong)(w & 0x7fffffffu) | (ulong)(w >> 31) << 32;
  }
  U[k] = av;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lead)
    ts_group_waited(board, rec, record, tk);

  /* 3. The output, then the inclusive row sums, and DONE. */
  lb_store(dst, W, H, x0, y0, L, off, U, cumH, lw);
  if (k < LB_H)
    mine[LB_INCL(lw) + k] = cumH[k] + right;
  lb_items_fence();
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (lead) {
    lb_lead_fence();
    ts_group_end_as(board, tiles, rec, record, stuck, tk, 1, bb);
  }
}

__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void integral_lookback(TS_ARGS)
{
  TS_TICKET(get_group_id(0))
  LB_DEVICE_BODY(128);
}

__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void integral_lookback_wide(TS_ARGS)
{
  TS_TICKET(get_group_id(0))
  LB_DEVICE_BODY(256);
}
#endif
