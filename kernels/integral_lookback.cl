/* integral_lookback: the integral image in one launch whose tiles do not wait in line (not in
 * the seed). A tile is LB_W x LB_H pixels and a work-group of LB_W work-items shares it: the
 * tile's own 2-D prefix sums first, in local memory; then what lies above it and to its
 * left; then its output.
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
 * finished (flag DONE), whose sums include everything before it (its right column of row
 * sums, kept with its aggregate; its bottom row of the output). A tile above that has only
 * its aggregate out needs one more number, the sum of its rows left of this column: its
 * work-item finds it by a look-back of its own along that row, over the tiles' totals. With
 * its carries known the tile writes its output, and with the output its inclusive sums, and
 * sets DONE. So a successor waits for a predecessor's aggregate, which no wait delays,
 * rather than for its end: the chain of waits that makes the seed's wavefront slow is cut at
 * every tile.
 *
 * Forward progress: a tile looks back only at tiles with smaller tickets (the walk
 * dispatched them first, so their groups run or are done), stopping at the image's edge or
 * at the first tile dispatched after it: under a walk that leaves no hazard every tile above
 * and to the left comes first. It also waits, as every scoreboard kernel, until each
 * producer of its effective wait set has published. Every poll is bounded (ts_lb_poll). */

#define LB_W 128 /* tile columns; also the work-items of a group */
#define LB_H 32  /* tile rows */
#define LB_SEGS (LB_W / LB_H) /* each row's prefix is taken in this many segments... */
#define LB_SEG (LB_W / LB_SEGS) /* ...of this many columns, a work-item each */
#define LB_P (LB_W + 1) /* row pitch of the sums in local memory (no bank conflicts) */
#define LB_WIN 16 /* tiles a look-back window */
/* A tile's published sums, in words: the bottom row of its prefix sums, their right column
 * (with the aggregate) and its inclusive row sums (with DONE, below). The host sizes the
 * board for it (core/variants/variants_lookback.c: LB_SUMS). */
#define LB_SUMS (LB_W + 2 * LB_H)
#define LB_RIGHT LB_W            /* right column: sum of row j's pixels of the tile, rows <= j */
#define LB_INCL (LB_W + LB_H)    /* the same over every pixel left of the tile's right edge */

/* lmem, in words (the variant declares LB_LOCAL_WORDS = the same total). */
enum { LB_L = 0, LB_OFF = LB_L + LB_H * LB_P, LB_U = LB_OFF + LB_H * LB_SEGS,
       LB_CUMH = LB_U + LB_W, LB_HST = LB_CUMH + LB_H, LB_VST = LB_HST + LB_WIN,
       LB_HTK = LB_VST + LB_WIN, LB_VTK = LB_HTK + LB_WIN, LB_VHT = LB_VTK + LB_WIN,
       LB_CAND = LB_VHT + LB_WIN, LB_NCAND = 2 * LB_WIN + 8,
       LB_LOCAL_WORDS = LB_CAND + 3 * LB_NCAND };

#if LB_W % LB_H != 0 || LB_W % LB_SEGS != 0 || LB_W < 2 * LB_WIN + 8
#error "integral_lookback: the tile's shape does not fit its work-items"
#endif

/* The tile's own 2-D prefix sums: column sums down the tile, then along each row; L holds
 * them and off[j * LB_SEGS + q] what row j's segments before q add. Outside the image a
 * column or a row adds nothing, so the last row and column hold the tile's bottom row and
 * right column whatever its size.
 * On NVIDIA a work-item a column, then a work-item a row segment of LB_SEG columns: every
 * access of a warp goes to consecutive words. Elsewhere (a CPU: pocl runs a group's
 * work-items one after another, and runs an inner loop scalar) 16 columns a work-item as one
 * vector, then a row a work-item, 16 prefix sums at a time: LB_W / 16 and LB_H work-items
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

inline void lb_own_sums(TS_OBS_PARAM __global const uchar *src, int W, int H, int x0, int y0,
                        __local uint *L, __local uint *off)
{
  int k = (int)get_local_id(0);
  int bw = min(LB_W, W - x0), bh = min(LB_H, H - y0);
#ifdef LB_VEC
  if (k < LB_W / 16) {
    int c = 16 * k, n = clamp(bw - c, 0, 16);
    uint16 s = 0;
    for (int j = 0; j < bh; j++) {
      if (n == 16) {
        s += convert_uint16(TS_LD8x16(src, W, x0 + c, y0 + j));
      } else {
        uint e[16];
        for (int i = 0; i < 16; i++)
          e[i] = i < n ? TS_LD8(src, W, x0 + c + i, y0 + j) : 0u;
        s += vload16(0, e);
      }
      vstore16(s, 0, L + j * LB_P + c);
    }
    for (int j = bh; j < LB_H; j++)
      vstore16(s, 0, L + j * LB_P + c);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (k < LB_H) {
    uint carry = 0;
    for (int c = 0; c < LB_W; c += 16) {
      uint16 v = lb_scan16(vload16(0, L + k * LB_P + c)) + carry;
      carry = v.sf;
      vstore16(v, 0, L + k * LB_P + c);
    }
    for (int q = 0; q < LB_SEGS; q++)
      off[k * LB_SEGS + q] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#else
  uint s = 0;
  for (int j = 0; j < LB_H; j++) {
    if (k < bw && j < bh)
      s += TS_LD8(src, W, x0 + k, y0 + j);
    L[j * LB_P + k] = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int r = k % LB_H, q = k / LB_H;
  __local uint *p = L + r * LB_P + q * LB_SEG;
  uint a = 0;
  for (int i = 0; i < LB_SEG; i++) {
    a += p[i];
    p[i] = a;
  }
  off[r * LB_SEGS + q] = a;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (k < LB_H) {
    uint c = 0;
    for (int i = 0; i < LB_SEGS; i++) {
      uint t = off[k * LB_SEGS + i];
      off[k * LB_SEGS + i] = c;
      c += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
}

/* Element (i, j) of the tile's own prefix sums. */
inline uint lb_own(__local const uint *L, __local const uint *off, int i, int j)
{
  return L[j * LB_P + i] + off[j * LB_SEGS + i / LB_SEG];
}

/* S(x0 + i, y0 + j) = own(i, j) + U[i] + cumH[j]: U[i] the sum of everything above the tile
 * in columns up to x0 + i (the output's row above it), cumH[j] the sum of everything left
 * of it in its rows up to y0 + j. A work-item a column, writing row after row. */
inline void lb_store(TS_OBS_PARAM __global uchar *dst, int W, int H, int x0, int y0,
                     __local const uint *L, __local const uint *off, __local const uint *U,
                     __local const uint *cumH)
{
  int k = (int)get_local_id(0);
  int bw = min(LB_W, W - x0), bh = min(LB_H, H - y0);
#ifdef LB_VEC
  int c = 16 * k;
  if (k >= LB_W / 16 || c >= bw)
    return;
  uint16 u = vload16(0, U + c);
  for (int j = 0; j < bh; j++) {
    uint16 v = vload16(0, L + j * LB_P + c) + u + cumH[j];
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
    TS_ST32(dst, W, x0 + k, y0 + j, lb_own(L, off, k, j) + u + cumH[j]);
#endif
}

/* Simulated order: the carries from the committed output (the row above, the column to the
 * left less their corner), as the seed's integral reads them. */
inline void integral_lookback_tile(TS_BODY_ARGS, int2 t)
{
  int k = (int)get_local_id(0), x0 = t.x * LB_W, y0 = t.y * LB_H;
  int bw = min(LB_W, W - x0), bh = min(LB_H, H - y0);
  __local uint *L = lmem + LB_L, *off = lmem + LB_OFF, *U = lmem + LB_U, *cumH = lmem + LB_CUMH;
  lb_own_sums(TS_OBS_ARG src, W, H, x0, y0, L, off);
  uint corner = x0 > 0 && y0 > 0 ? TS_LD32(committed, W, x0 - 1, y0 - 1) : 0u;
  U[k] = y0 > 0 && k < bw ? TS_LD32(committed, W, x0 + k, y0 - 1) : 0u;
  if (k < LB_H)
    cumH[k] = x0 > 0 && k < bh ? TS_LD32(committed, W, x0 - 1, y0 + k) - corner : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  lb_store(TS_OBS_ARG dst, W, H, x0, y0, L, off, U, cumH);
}

#ifndef TS_DEVICE
TS_GROUP_ENTRY(integral_lookback, LB_W, 1)
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
inline __global volatile const uint *lb_sums_of(__global const uint *sums, int tw, int x, int y)
{
  return (__global volatile const uint *)(sums + (size_t)(y * tw + x) * LB_SUMS);
}

/* When the publication a look-back read came out (ticket p's aggregate, or its end): what
 * the record's critical path follows (scoreboard.cl: TS_REC_BOUND). */
inline void lb_note(__global const ulong *rec, int record, int p, int state, ulong *t, ulong *b)
{
  if (!record || p < 0)
    return;
  __global volatile const ulong *e = (__global volatile const ulong *)(rec + TS_REC_WORDS * p);
  ulong when = state == TS_FLAG_AGGREGATE ? e[TS_REC_PUBLISHED] : e[TS_REC_END];
  if (*b == 0 || when > *t) {
    *t = when;
    *b = (ulong)(uint)(p + 1) | (state == TS_FLAG_AGGREGATE ? (ulong)1 << 32 : 0);
  }
}

/* The sum of row of tiles y's pixels left of tile column x, for a tile above that has only
 * its aggregate out: along that row, each tile's total until one that has finished, whose
 * inclusive row sums hold the rest. One work-item walks it, LB_NB tiles a step: their flags
 * read at once, one fence, then their sums, so that a long walk (the first tiles of a launch,
 * when nothing has finished yet) costs a round trip to memory every LB_NB tiles, not every
 * tile. It waits only where a tile before the first finished one has published nothing. */
#define LB_NB 8
inline uint lb_row_left(__global int *board, __global const int *ticket_of,
                        __global const uint *sums, __global const ulong *rec, int record, int tw,
                        int x, int y, int tk, uint spin_limit, ulong *t, ulong *b)
{
  uint s = 0;
  int xx = x - 1;
  while (xx >= 0) {
    int ps[LB_NB], st[LB_NB], n = 0, m;
    for (; n < LB_NB && xx - n >= 0; n++)
      if ((ps[n] = lb_before(ticket_of, tw, xx - n, y, tk)) < 0)
        break;
    if (n == 0)
      return s; /* the walk's order ends the row here */
    for (int i = 0; i < n; i++)
      st[i] = ((__global volatile const int *)board)[TS_BOARD_FLAGS + ps[i]];
    for (m = 0; m < n && st[m] == TS_FLAG_AGGREGATE; m++)
      ;
    if (m < n && st[m] == 0) /* the first that matters has published nothing yet */
      st[m] = ts_lb_poll(board, ps[m], tk, spin_limit);
    ts_cm_fence(); /* the sums read below were written before the flags read above */
    for (int i = 0; i < m + (m < n); i++) {
      __global volatile const uint *sp = lb_sums_of(sums, tw, xx - i, y);
      lb_note(rec, record, ps[i], st[i], t, b);
      if (st[i] == TS_FLAG_DONE)
        return s + sp[LB_INCL + LB_H - 1];
      s += sp[LB_RIGHT + LB_H - 1];
    }
    xx -= m + (m < n);
  }
  return s;
}

/* Keeps the later of two (time, bound) pairs in local memory, as three words. */
inline void lb_cand_put(__local uint *c, int i, ulong t, ulong b)
{
  c[3 * i] = (uint)(t >> 32);
  c[3 * i + 1] = (uint)t;
  c[3 * i + 2] = b == 0 ? 0u : (uint)b | (uint)(b >> 32) << 31;
}

inline void lb_cand_take(__local const uint *c, int i, ulong *t, ulong *b)
{
  uint w = c[3 * i + 2];
  ulong when = (ulong)c[3 * i] << 32 | c[3 * i + 1];
  if (w != 0 && (*b == 0 || when > *t)) {
    *t = when;
    *b = (ulong)(w & 0x7fffffffu) | (ulong)(w >> 31) << 32;
  }
}

__kernel __attribute__((reqd_work_group_size(LB_W, 1, 1))) void integral_lookback(TS_ARGS)
{
  TS_TICKET(get_group_id(0))
  int tk = ts_tk_[0], k = (int)get_local_id(0);
  int tx = ts_t_.x, ty = ts_t_.y, x0 = tx * LB_W, y0 = ty * LB_H;
  int tw = (W + LB_W - 1) / LB_W, bw = min(LB_W, W - x0);
  __local uint *L = lmem + LB_L, *off = lmem + LB_OFF, *U = lmem + LB_U, *cumH = lmem + LB_CUMH;
  __local int *hst = (__local int *)lmem + LB_HST, *vst = (__local int *)lmem + LB_VST;
  __local int *htk = (__local int *)lmem + LB_HTK, *vtk = (__local int *)lmem + LB_VTK;
  __local uint *vht = lmem + LB_VHT, *cand = lmem + LB_CAND;
  __global const int *ticket_of = board + TS_BOARD_FLAGS + ntiles;
  __global uint *sums = (__global uint *)(board + TS_BOARD_FLAGS + 2 * ntiles);
  __global uint *mine = sums + (size_t)(ty * tw + tx) * LB_SUMS;

  /* 1. The tile's own sums, and its aggregate out before any wait. */
  lb_own_sums(src, W, H, x0, y0, L, off);
  mine[k] = lb_own(L, off, k, LB_H - 1);
  uint right = k < LB_H ? lb_own(L, off, LB_W - 1, k) : 0u;
  if (k < LB_H)
    mine[LB_RIGHT + k] = right;
  ts_cm_fence();
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (ts_lead_)
    ts_group_published(board, rec, record, stuck, tk);

  /* 2. The look-back, left along the row (work-items 0 .. LB_WIN - 1) and up the column
   *    (LB_WIN .. 2 LB_WIN - 1) at once, a window of tiles a round; in the first round the
   *    effective wait set's producers too (the next 7). */
  uint ah = 0, av = 0;
  ulong bt = 0, bb = 0; /* the latest publication read (work-item 0 keeps the group's) */
  int hbase = 0, vbase = 0, hdone = tx == 0, vdone = ty == 0, round0 = 1;
  do {
    ulong ct = 0, cb = 0;
    if (k < LB_WIN && !hdone) {
      int p = lb_before(ticket_of, tw, tx - (hbase + k + 1), ty, tk);
      int st = p < 0 ? 0 : ts_lb_poll(board, p, tk, spin_limit);
      lb_note(rec, record, p, st, &ct, &cb);
      hst[k] = st;
      htk[k] = p;
    } else if (k >= LB_WIN && k < 2 * LB_WIN && !vdone) {
      int w = k - LB_WIN, y = ty - (vbase + w + 1);
      int p = lb_before(ticket_of, tw, tx, y, tk);
      int st = p < 0 ? 0 : ts_lb_poll(board, p, tk, spin_limit);
      lb_note(rec, record, p, st, &ct, &cb);
      vht[w] = st == TS_FLAG_AGGREGATE ? lb_row_left(board, ticket_of, sums, rec, record, tw, tx,
                                                     y, tk, spin_limit, &ct, &cb)
                                       : 0u;
      vst[w] = st;
      vtk[w] = p;
    } else if (round0 && k >= 2 * LB_WIN && k < 2 * LB_WIN + 7) {
      __global const int *wt = waits + 8 * tk;
      int i = k - 2 * LB_WIN;
      if (i < wt[0]) {
        int st = ts_lb_poll(board, wt[1 + i], tk, spin_limit);
        lb_note(rec, record, wt[1 + i], st, &ct, &cb);
      }
    }
    if (record && k < 2 * LB_WIN + 7)
      lb_cand_put(cand, k, ct, cb);
#ifndef TS_NVIDIA
    ts_cm_fence(); /* nothing read after the polls may come from before them */
#endif
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    /* The nearest tile each way whose sums hold everything before it (or the chain's end). */
    int hn = LB_WIN, vn = LB_WIN;
    for (int w = LB_WIN - 1; w >= 0; w--) {
      hn = hdone || hst[w] != TS_FLAG_AGGREGATE ? w : hn;
      vn = vdone || vst[w] != TS_FLAG_AGGREGATE ? w : vn;
    }
    if (!hdone && k < LB_H) {
      for (int w = 0; w < hn; w++)
        ah += lb_sums_of(sums, tw, tx - (hbase + w + 1), ty)[LB_RIGHT + k];
      if (hn < LB_WIN && hst[hn] == TS_FLAG_DONE)
        ah += lb_sums_of(sums, tw, tx - (hbase + hn + 1), ty)[LB_INCL + k];
    }
    if (!vdone && k < bw) {
      for (int w = 0; w < vn; w++)
        av += lb_sums_of(sums, tw, tx, ty - (vbase + w + 1))[k] + vht[w];
      if (vn < LB_WIN && vst[vn] == TS_FLAG_DONE)
        av += TS_LD32(committed, W, x0 + k, (ty - (vbase + vn + 1)) * LB_H + LB_H - 1);
    }
    if (record && ts_lead_) {
      for (int w = 0; w < LB_WIN; w++) {
        if (!hdone && (w < hn || (w == hn && hst[w] == TS_FLAG_DONE)))
          lb_cand_take(cand, w, &bt, &bb);
        if (!vdone && (w < vn || (w == vn && vst[w] == TS_FLAG_DONE)))
          lb_cand_take(cand, LB_WIN + w, &bt, &bb);
      }
      for (int i = 0; round0 && i < 7; i++)
        lb_cand_take(cand, 2 * LB_WIN + i, &bt, &bb);
    }
    hdone |= hn < LB_WIN;
    vdone |= vn < LB_WIN;
    hbase += LB_WIN;
    vbase += LB_WIN;
    round0 = 0;
    barrier(CLK_LOCAL_MEM_FENCE); /* every window read before the next round writes it */
  } while (!(hdone && vdone));
  U[k] = av;
  if (k < LB_H)
    cumH[k] = ah;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ts_lead_)
    ts_group_waited(board, rec, record, tk);

  /* 3. The output, then the inclusive row sums, and DONE. */
  lb_store(dst, W, H, x0, y0, L, off, U, cumH);
  if (k < LB_H)
    mine[LB_INCL + k] = ah + right;
  ts_cm_fence();
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (ts_lead_)
    ts_group_end_as(board, tiles, rec, record, stuck, tk, 1, bb);
}
#endif
