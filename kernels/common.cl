/* Helpers shared by every tilescope kernel (prepended to each kernel file at build time):
 * the two execution modes (simulated order, or the device's own with a scoreboard), and
 * edge-clamped loads. Out-of-image reads clamp to the nearest edge pixel, as media-block
 * reads do; writes outside the image are dropped.
 *
 * Every kernel has the same arguments, so the host launches them all alike:
 *   src        the pass's input buffer (uchar, or ushort for a transposed intermediate)
 *   dst        where the pass writes: a shadow buffer committed later, or the buffer itself
 *   committed  the pass's output as committed so far (the integral image reads it)
 *   tiles      thread coordinates; this launch runs tiles[first .. first + ntiles - 1]
 *   W, H, C    the image (C = 1 for the integral image, which works on luma)
 *   weights, r Gaussian 1-D weights (summing to 256) and radius
 *   lmem       local memory for the variants that stage a tile, as 32-bit words so that it
 *              is aligned for the 32-bit sums some of them keep there
 * Kernels read and write src, dst and committed only through the accessors below
 * (TS_LD8, TS_ST8, TS_LD8x16, ...), so that an observe build (-DTS_OBSERVE) sees every
 * access. */

#if defined(TS_OBSERVE) && defined(TS_DEVICE)
#error "an observe build runs the simulated order only"
#endif

/* An observe build passes one more kernel argument, the observation buffer, and every
 * function that touches a buffer one more parameter, the running thread's context:
 * TS_OBS_PARAM in its parameter list and TS_OBS_ARG in its calls (both empty otherwise). */
#ifdef TS_OBSERVE
typedef struct ts_obs_t {
  __global uint *o; /* the observation buffer (layout in core/ts_observe.c) */
  uint tid;         /* the running thread: ty * tw + tx of its pass */
} ts_obs_t;
#define TS_OBS_KARG , __global uint *ts_obs
#define TS_OBS_PARAM ts_obs_t ts_o_,
#define TS_OBS_ARG ts_o_,
#else
#define TS_OBS_KARG
#define TS_OBS_PARAM
#define TS_OBS_ARG
#endif

/* ---- Two ways to run a pass ----
 * Each kernel is a tile function, NAME_tile(TS_BODY_ARGS, int2 t): what one work-group (the
 * work-group kernels) or one work-item (the one-work-item kernels) does for tile t, free to
 * return early. TS_GROUP_ENTRY / TS_ITEM_ENTRY make the __kernel around it. The host builds
 * every file twice:
 *  - simulated (the default): a launch runs tiles[first .. first + ntiles - 1], work-group
 *    (or work-item) k of the launch taking tiles[first + k]; the host orders the launches.
 *  - device (-DTS_DEVICE): one launch runs a whole pass and the device keeps the order itself
 *    with a scoreboard (SPEC section 8), through the helpers below. Waits belong to
 *    work-groups: the work-items of one group need not make progress independently (pocl
 *    runs them in loops between barriers; SIMT lanes may not advance while a neighbour
 *    spins), so the one-work-item kernels run as groups of one work-item in this mode. */
#ifndef TS_DEVICE
#define TS_ARGS                                                                      \
  __global const uchar *src, __global uchar *dst, __global const uchar *committed,   \
      __global const int2 *tiles, int first, int ntiles, int W, int H, int C,        \
      __constant uint *weights, int r, __local uint *lmem TS_OBS_KARG
#else
/* board: [0] ticket counter, [1] error (1 + the ticket that gave up), [2] logical clock,
 *        [3] the ticket it waited for, then one done flag per ticket.
 * waits: per ticket, 8 ints: the size of its effective wait set, then the producers' tickets.
 * rec:   per ticket, 6 ulongs (record != 0): work-group, compute unit, tile (x | y << 32),
 *        start (the ticket), end of wait, end.
 * stuck: a ticket that never signals (tests of the bounded wait), or -1. */
#define TS_ARGS                                                                      \
  __global const uchar *src, __global uchar *dst, __global const uchar *committed,   \
      __global const int2 *tiles, int first, int ntiles, int W, int H, int C,        \
      __constant uint *weights, int r, __local uint *lmem, __global int *board,      \
      __global const int *waits, __global ulong *rec, int record, int stuck,         \
      uint spin_limit
#endif

#define TS_BODY_ARGS                                                                 \
  TS_OBS_PARAM __global const uchar *src, __global uchar *dst, __global const uchar *committed,   \
      int W, int H, int C, __constant uint *weights, int r, __local uint *lmem
#define TS_BODY_PASS TS_OBS_ARG src, dst, committed, W, H, C, weights, r, lmem

#ifdef TS_DEVICE
enum { TS_BOARD_TICKET, TS_BOARD_ERROR, TS_BOARD_CLOCK, TS_BOARD_WAITED, TS_BOARD_FLAGS };

/* Device time and compute unit: NVIDIA's global nanosecond timer and multiprocessor id
 * through inline PTX; elsewhere a logical clock, bumped at every event, which orders the
 * events exactly but does not measure their length. The host picks by the platform. */
#ifdef TS_NVIDIA
inline ulong ts_now(__global int *board)
{
  ulong t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
inline ulong ts_unit(void)
{
  uint u;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(u));
  return u;
}
#else
inline ulong ts_now(__global int *board)
{
  return (ulong)atomic_inc(&board[TS_BOARD_CLOCK]);
}
inline ulong ts_unit(void)
{
  return 0xffffffffu; /* the device cannot say */
}
#endif

/* cm_fence: what this work-item wrote to global memory is visible to every other work-group
 * before anything it does next (the seed's fence before a signal). On NVIDIA a device-scope
 * acquire-release fence, as OpenCL 1.2's mem_fence only orders within the group there (the
 * sequentially consistent membar.gl cost 0.1 ms more per 4K integral image). */
inline void ts_cm_fence(void)
{
#ifdef TS_NVIDIA
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
#else
  mem_fence(CLK_GLOBAL_MEM_FENCE);
#endif
}

/* A poll of a done flag that orders every later read after it: on NVIDIA an acquire load
 * at device scope (the barrier after the wait extends it to the group's other work-items),
 * which spares a fence after the wait; elsewhere a volatile load, and the wait ends with
 * cm_fence. */
inline int ts_ld_acquire(__global volatile const int *flag)
{
#ifdef TS_NVIDIA
  int v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"((ulong)flag) : "memory");
  return v;
#else
  return *flag;
#endif
}

/* The hardware dispatcher's in-order issue: the ticket is the group's place in the walk. */
inline int ts_cm_ticket(__global int *board)
{
  return atomic_inc(&board[TS_BOARD_TICKET]);
}

/* cm_wait: spins until every producer in the ticket's effective wait set has signalled. Each
 * is an earlier ticket, so a group that is running or done: the wait ends while started
 * groups progress. The group's work-items share the polls, work-item `lane` of `lanes`
 * taking producers lane, lane + lanes, ...: each spins on another group's flag, never on a
 * neighbour's progress, so a SIMT warp whose lanes diverge here cannot deadlock, and on a
 * GPU the polls overlap instead of adding up. Bounded: at spin_limit, or when another group
 * already gave up, it records the error and stops waiting. Returns 0 on a give-up. */
inline int ts_cm_wait(__global int *board, __global const int *waits, int tk, uint spin_limit,
                      int lane, int lanes)
{
  __global const int *w = waits + 8 * tk;
  for (int i = lane; i < w[0]; i += lanes) {
    /* Polled with loads (ts_ld_acquire): a locked read-modify-write per poll would pull
     * the line away from the producer on a CPU. */
    __global volatile const int *flag = &board[TS_BOARD_FLAGS + w[1 + i]];
    __global volatile const int *error = &board[TS_BOARD_ERROR];
    uint spins = 0;
    while (!ts_ld_acquire(flag)) {
#ifdef TS_NVIDIA
      /* A short back-off: waiting groups polling L2 without pause slow the very groups
       * they wait for (the host also caps how many are resident, see ts_cl.c). */
      asm volatile("nanosleep.u32 %0;" ::"r"(100u));
#endif
      if (++spins >= spin_limit || *error != 0) {
        if (atomic_cmpxchg(&board[TS_BOARD_ERROR], 0, tk + 1) == 0)
          atomic_xchg(&board[TS_BOARD_WAITED], w[1 + i]);
        return 0;
      }
    }
  }
#ifndef TS_NVIDIA
  ts_cm_fence(); /* nothing read after the wait may come from before it */
#endif
  return 1;
}

/* cm_signal: sets the ticket's done flag, after the group's writes and their fence. */
inline void ts_cm_signal(__global int *board, int tk)
{
  atomic_xchg(&board[TS_BOARD_FLAGS + tk], 1);
}

/* Work-item 0 of the group takes the ticket and stamps the start; the ticket reaches the
 * others through local memory. Later it waits and stamps the end of the wait. */
inline int ts_group_ticket(__global int *board, __global ulong *rec, int record)
{
  int tk = ts_cm_ticket(board);
  if (record) {
    __global ulong *e = rec + 6 * tk;
    e[0] = get_group_id(0);
    e[1] = ts_unit();
    e[3] = ts_now(board);
  }
  return tk;
}

inline void ts_group_waited(__global int *board, __global ulong *rec, int record, int tk)
{
  if (record)
    rec[6 * tk + 4] = ts_now(board);
}

inline void ts_group_end(__global int *board, __global const int2 *tiles, __global ulong *rec,
                         int record, int stuck, int tk)
{
  if (record) {
    __global ulong *e = rec + 6 * tk;
    int2 t = tiles[tk];
    e[2] = (ulong)(uint)t.x | (ulong)(uint)t.y << 32;
    e[5] = ts_now(board);
  }
  if (tk != stuck)
    ts_cm_signal(board, tk);
}

/* TS_TICKET then TS_WAIT; a kernel may do work that reads only its input in between, off
 * the critical path of the wait (the integral image sums its block there). */
#define TS_TICKET(k)                                                                  \
  __local int ts_tk_[1];                                                              \
  int ts_lead_ = get_local_id(0) == 0 && get_local_id(1) == 0;                        \
  if (ts_lead_)                                                                       \
    ts_tk_[0] = ts_group_ticket(board, rec, record);                                  \
  barrier(CLK_LOCAL_MEM_FENCE);                                                       \
  int2 ts_t_ = tiles[ts_tk_[0]];
#define TS_WAIT()                                                                     \
  ts_cm_wait(board, waits, ts_tk_[0], spin_limit,                                     \
             (int)(get_local_id(1) * get_local_size(0) + get_local_id(0)),            \
             (int)(get_local_size(0) * get_local_size(1)));                           \
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                                \
  if (ts_lead_)                                                                       \
    ts_group_waited(board, rec, record, ts_tk_[0]);
#define TS_BEGIN(k)                                                                   \
  TS_TICKET(k)                                                                        \
  TS_WAIT()

#define TS_END()                                                                      \
  ts_cm_fence();                                                                      \
  barrier(CLK_GLOBAL_MEM_FENCE);                                                      \
  if (ts_lead_)                                                                       \
    ts_group_end(board, tiles, rec, record, stuck, ts_tk_[0]);

/* A neighbour's committed result, read after the wait: volatile, so that it comes from
 * memory every group sees (NVIDIA's L1 is not coherent between multiprocessors). */
inline uint ld_committed32(__global const uint *p)
{
  return *(volatile __global const uint *)p;
}
#else
/* The host launches exactly ntiles work-groups, and TS_ITEM_ENTRY returns early for the
 * work-items past ntiles in the last group of a one-work-item kernel. */
#define TS_BEGIN(k) int2 ts_t_ = tiles[first + (int)(k)];
#define TS_END()
inline uint ld_committed32(__global const uint *p)
{
  return *p;
}
#endif

#ifdef TS_DEVICE
#define TS_ITEM_GUARD()
#else
#define TS_ITEM_GUARD()                                                               \
  if ((int)get_global_id(0) >= ntiles)                                                \
    return;
#endif

/* A kernel whose work-group of wx x wy work-items owns one tile. */
#define TS_GROUP_ENTRY(name, wx, wy)                                                  \
  __kernel __attribute__((reqd_work_group_size(wx, wy, 1))) void name(TS_ARGS)        \
  {                                                                                   \
    TS_BEGIN(get_group_id(0))                                                         \
    TS_OBS_BEGIN()                                                                    \
    name##_tile(TS_BODY_PASS, ts_t_);                                                 \
    TS_END()                                                                          \
  }

/* A kernel whose work-item owns one tile (groups of one work-item in device mode). */
#define TS_ITEM_ENTRY(name)                                                           \
  __kernel void name(TS_ARGS)                                                         \
  {                                                                                   \
    TS_ITEM_GUARD()                                                                   \
    TS_BEGIN(get_global_id(0))                                                        \
    TS_OBS_BEGIN()                                                                    \
    name##_tile(TS_BODY_PASS, ts_t_);                                                 \
    TS_END()                                                                          \
  }

/* ---- Buffer accessors ----
 * Every read and write of src, dst and committed goes through one of these, naming the
 * buffer by its argument name (src, dst or committed: anything else does not compile), the
 * row pitch in elements of the accessor's type, the column (in those elements) and the row:
 *   TS_LD8, TS_LD16, TS_LD32 (buf, pitch, col, row)          one element
 *   TS_ST8, TS_ST16, TS_ST32 (buf, pitch, col, row, value)
 *   TS_LD8x16, TS_LD32x16    (buf, pitch, col, row)          16 elements from col (vload16)
 *   TS_LD8x4A (buf, pitch, col, row), TS_ST8x4A (..., uchar4): 4 bytes from col, whose
 *     address (row * pitch + col) is a multiple of 4: one aligned 32-bit access
 *   TS_LD8x16A, TS_ST8x16A (..., uchar16): the same for 16 bytes at a multiple of 16 (one
 *     128-bit access: vload16 of bytes may be split into byte loads on a GPU)
 *   TS_LD32x4A, TS_ST32x4A (..., uint4): 4 uints from col, the element index a multiple of 4
 *   TS_ST8x8, TS_ST8x16, TS_ST32x16 (buf, pitch, col, row, vector)
 *   TS_ST32x16S (buf, pitch, col, row, uint16): 16 uints from col, the element index a
 *     multiple of 16 (one aligned 64-byte store), streamed past the caches where the
 *     compiler offers a non-temporal store (clang's, so pocl's): for results a kernel writes
 *     once and no work-item of the launch reads back, it spares the cache line's read for
 *     ownership (the end of the launch makes them visible like any other store)
 *   TS_LD8_OFF (buf, pitch, col, row, dcol, drow): element (col + dcol, row + drow), spelt
 *     as an offset from (col, row), so that a window's loads share one base address
 *   TS_LD8_PX (buf, W, C, x, y, c), TS_ST8_PX (..., value): channel c of pixel (x, y) of an
 *     image of W pixels of C channels a row, that is column x * C + c of row y (the address
 *     spelt ((y * W + x) * C + c), which pocl compiles to fewer instructions than the
 *     row-and-column form where both occur)
 * In a normal build each is exactly the plain load or store. Reads of committed are
 * volatile in device mode (ld_committed32). In an observe build each access is also
 * recorded (ts_obs_note below) and one outside the buffer is not performed. */
enum { TS_ROLE_src, TS_ROLE_dst, TS_ROLE_committed };

/* Byte vectors at any address, for one unaligned vector access: pocl's vstore16 stores the 16
 * bytes one by one (35 instructions where this is one vmovdqu), and its vload16 is 16 byte
 * loads that the optimiser merges again, except where loads a few bytes apart overlap (a
 * filter's taps at constant offsets): then it keeps a mix of pieces. A typedef may lower a
 * type's alignment (clang, as GCC); a GPU compiler splits the access where it must. */
typedef uchar8 ts_uchar8_u __attribute__((aligned(1)));
typedef uchar16 ts_uchar16_u __attribute__((aligned(1)));

#define TS_AT_(T, buf, pitch, col, row) ((T)(buf) + (row) * (pitch) + (col))

/* A store past the caches where the compiler has one (not in OpenCL C itself). */
#if defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store)
#define TS_NT_STORE_(p, v) __builtin_nontemporal_store((v), (p))
#endif
#endif
#ifndef TS_NT_STORE_
#define TS_NT_STORE_(p, v) (*(p) = (v))
#endif

#ifndef TS_OBSERVE
#define TS_OBS_BEGIN()
#define TS_LD8(buf, pitch, col, row)                                                  \
  ((void)TS_ROLE_##buf, *TS_AT_(__global const uchar *, buf, pitch, col, row))
#define TS_LD16(buf, pitch, col, row)                                                 \
  ((void)TS_ROLE_##buf, *TS_AT_(__global const ushort *, buf, pitch, col, row))
#define TS_LD32(buf, pitch, col, row)                                                 \
  (TS_ROLE_##buf == TS_ROLE_committed                                                 \
       ? ld_committed32(TS_AT_(__global const uint *, buf, pitch, col, row))          \
       : *TS_AT_(__global const uint *, buf, pitch, col, row))
#define TS_ST8(buf, pitch, col, row, v)                                               \
  ((void)TS_ROLE_##buf, *TS_AT_(__global uchar *, buf, pitch, col, row) = (v))
#define TS_ST16(buf, pitch, col, row, v)                                              \
  ((void)TS_ROLE_##buf, *TS_AT_(__global ushort *, buf, pitch, col, row) = (v))
#define TS_ST32(buf, pitch, col, row, v)                                              \
  ((void)TS_ROLE_##buf, *TS_AT_(__global uint *, buf, pitch, col, row) = (v))
#define TS_LD32x16(buf, pitch, col, row)                                              \
  ((void)TS_ROLE_##buf, vload16(0, TS_AT_(__global const uint *, buf, pitch, col, row)))
#define TS_LD8x4A(buf, pitch, col, row)                                               \
  ((void)TS_ROLE_##buf, *(__global const uchar4 *)TS_AT_(__global const uchar *, buf, pitch, col, row))
#define TS_ST8x4A(buf, pitch, col, row, v)                                            \
  ((void)TS_ROLE_##buf, *(__global uchar4 *)TS_AT_(__global uchar *, buf, pitch, col, row) = (v))
#define TS_LD8x16A(buf, pitch, col, row)                                              \
  ((void)TS_ROLE_##buf, *(__global const uchar16 *)TS_AT_(__global const uchar *, buf, pitch, col, row))
#define TS_ST8x16A(buf, pitch, col, row, v)                                           \
  ((void)TS_ROLE_##buf, *(__global uchar16 *)TS_AT_(__global uchar *, buf, pitch, col, row) = (v))
#define TS_LD32x4A(buf, pitch, col, row)                                              \
  ((void)TS_ROLE_##buf, *(__global const uint4 *)TS_AT_(__global const uint *, buf, pitch, col, row))
#define TS_ST32x4A(buf, pitch, col, row, v)                                           \
  ((void)TS_ROLE_##buf, *(__global uint4 *)TS_AT_(__global uint *, buf, pitch, col, row) = (v))
/* vload16/vstore8/vstore16 of bytes as one unaligned vector access (ts_uchar16_u above). */
#define TS_LD8x16(buf, pitch, col, row)                                               \
  ((void)TS_ROLE_##buf, *(__global const ts_uchar16_u *)TS_AT_(__global const uchar *, buf, pitch, col, row))
#define TS_ST8x8(buf, pitch, col, row, v)                                             \
  ((void)TS_ROLE_##buf, *(__global ts_uchar8_u *)TS_AT_(__global uchar *, buf, pitch, col, row) = (v))
#define TS_ST8x16(buf, pitch, col, row, v)                                            \
  ((void)TS_ROLE_##buf, *(__global ts_uchar16_u *)TS_AT_(__global uchar *, buf, pitch, col, row) = (v))
#define TS_ST32x16(buf, pitch, col, row, v)                                           \
  ((void)TS_ROLE_##buf, vstore16((v), 0, TS_AT_(__global uint *, buf, pitch, col, row)))
#define TS_ST32x16S(buf, pitch, col, row, v)                                          \
  ((void)TS_ROLE_##buf,                                                               \
   TS_NT_STORE_((__global uint16 *)TS_AT_(__global uint *, buf, pitch, col, row), (v)))
#define TS_LD8_PX(buf, W, C, x, y, c)                                                 \
  ((void)TS_ROLE_##buf, ((__global const uchar *)(buf))[((y) * (W) + (x)) * (C) + (c)])
#define TS_LD8_OFF(buf, pitch, col, row, dcol, drow)                                  \
  ((void)TS_ROLE_##buf,                                                               \
   TS_AT_(__global const uchar *, buf, pitch, col, row)[(drow) * (pitch) + (dcol)])
#define TS_ST8_PX(buf, W, C, x, y, c, v)                                              \
  ((void)TS_ROLE_##buf, ((__global uchar *)(buf))[((y) * (W) + (x)) * (C) + (c)] = (v))
#else
/* The observation buffer, in 32-bit words (core/ts_observe.c fills the header):
 *   header: out-of-bounds count, whether the first one is recorded, its thread, role, kind
 *   (0 read, 1 write, + 2 when the pitch was not the buffer's row), column and row; the pass's thread-space width; the chosen thread
 *   (0xffffffff: none); write-write conflicts; per role its columns and rows; the offsets
 *   of the sections below.
 *   sums: per thread, per role (src, dst, committed) and kind (read, write), 12 ints: the
 *   bounding rectangle of the accesses (min column, min row, max column, max row) and their
 *   element count; the declared rectangle (the host fills it: min and max column and row);
 *   the count of accesses outside it and the first element outside in row order (as
 *   row * columns + column; the host sets it to INT_MAX), then a spare word.
 *   last: per element of dst, 1 + the thread that wrote it last (0: none);
 *   other: per element of dst, 1 + another thread that wrote it too (0: none).
 *   bits: per role and kind, a bitmap of that buffer's elements the chosen thread touched. */
enum { TS_O_OOB_N, TS_O_OOB_SET, TS_O_OOB_TID, TS_O_OOB_ROLE, TS_O_OOB_KIND, TS_O_OOB_COL,
       TS_O_OOB_ROW, TS_O_TW, TS_O_CHOSEN, TS_O_CONFLICTS, TS_O_GEOM = 10,
       TS_O_SUMS = 16, TS_O_LAST, TS_O_OTHER, TS_O_BITS = 20, TS_O_HEADER = 32 };

#define TS_OBS_BEGIN()                                                                \
  ts_obs_t ts_o_ = { ts_obs, (uint)(ts_t_.y * (int)ts_obs[TS_O_TW] + ts_t_.x) };

/* Records n elements from (col, row) of a role's buffer; 0 (and the access is not to be
 * performed) when they are not all inside it. */
inline int ts_obs_note(ts_obs_t o, int role, int kind, int pitch, int col, int row, int n)
{
  __global uint *h = o.o;
  int cols = (int)h[TS_O_GEOM + 2 * role], rows = (int)h[TS_O_GEOM + 2 * role + 1];
  if (col < 0 || row < 0 || col + n > cols || row >= rows || pitch != cols) {
    atomic_inc(&h[TS_O_OOB_N]);
    if (atomic_cmpxchg(&h[TS_O_OOB_SET], 0u, 1u) == 0u) {
      h[TS_O_OOB_TID] = o.tid;
      h[TS_O_OOB_ROLE] = (uint)role;
      h[TS_O_OOB_KIND] = (uint)(kind | (pitch != cols ? 2 : 0)); /* 2: a wrong pitch */
      h[TS_O_OOB_COL] = (uint)(col < 0 || col + n <= cols ? col : max(col, cols));
      h[TS_O_OOB_ROW] = (uint)row;
    }
    return 0;
  }
  __global int *s = (__global int *)h + h[TS_O_SUMS] + (o.tid * 6u + (uint)(role * 2 + kind)) * 12u;
  atomic_min(&s[0], col);
  atomic_min(&s[1], row);
  atomic_max(&s[2], col + n - 1);
  atomic_max(&s[3], row);
  atomic_add(&s[4], n);
  if (col < s[5] || col + n - 1 > s[7] || row < s[6] || row > s[8]) {
    int first = col < s[5] || col > s[7] || row < s[6] || row > s[8] ? col : s[7] + 1;
    atomic_inc(&s[9]);
    atomic_min(&s[10], row * cols + first); /* the first in row order, whatever the timing */
  }
  uint e = (uint)row * (uint)cols + (uint)col;
  if (o.tid == h[TS_O_CHOSEN]) {
    __global uint *bits = h + h[TS_O_BITS + role * 2 + kind];
    for (int i = 0; i < n; i++)
      atomic_or(&bits[(e + i) >> 5], 1u << ((e + i) & 31));
  }
  if (kind == 1)
    for (int i = 0; i < n; i++) {
      uint old = atomic_xchg(&h[h[TS_O_LAST] + e + i], o.tid + 1);
      if (old != 0 && old != o.tid + 1 &&
          atomic_cmpxchg(&h[h[TS_O_OTHER] + e + i], 0u, old) == 0u)
        atomic_inc(&h[TS_O_CONFLICTS]);
    }
  return 1;
}

#define TS_OBS_LD_(name, T, n)                                                        \
  inline T name(ts_obs_t o, int role, __global const T *b, int pitch, int col, int row) \
  {                                                                                   \
    return ts_obs_note(o, role, 0, pitch, col, row, 1) ? b[row * pitch + col] : (T)0; \
  }
#define TS_OBS_ST_(name, T)                                                           \
  inline void name(ts_obs_t o, int role, __global T *b, int pitch, int col, int row, T v) \
  {                                                                                   \
    if (ts_obs_note(o, role, 1, pitch, col, row, 1))                                  \
      b[row * pitch + col] = v;                                                       \
  }
TS_OBS_LD_(ts_obs_ld8, uchar, 1)
TS_OBS_LD_(ts_obs_ld16, ushort, 1)
TS_OBS_LD_(ts_obs_ld32, uint, 1)
TS_OBS_ST_(ts_obs_st8, uchar)
TS_OBS_ST_(ts_obs_st16, ushort)
TS_OBS_ST_(ts_obs_st32, uint)

inline uchar16 ts_obs_ld8x16(ts_obs_t o, int role, __global const uchar *b, int pitch, int col,
                             int row)
{
  return ts_obs_note(o, role, 0, pitch, col, row, 16) ? vload16(0, b + row * pitch + col)
                                                      : (uchar16)0;
}
inline uint16 ts_obs_ld32x16(ts_obs_t o, int role, __global const uint *b, int pitch, int col,
                             int row)
{
  return ts_obs_note(o, role, 0, pitch, col, row, 16) ? vload16(0, b + row * pitch + col)
                                                      : (uint16)0;
}
inline uchar4 ts_obs_ld8x4a(ts_obs_t o, int role, __global const uchar *b, int pitch, int col,
                            int row)
{
  return ts_obs_note(o, role, 0, pitch, col, row, 4)
             ? *(__global const uchar4 *)(b + row * pitch + col)
             : (uchar4)0;
}
inline void ts_obs_st8x4a(ts_obs_t o, int role, __global uchar *b, int pitch, int col, int row,
                          uchar4 v)
{
  if (ts_obs_note(o, role, 1, pitch, col, row, 4))
    *(__global uchar4 *)(b + row * pitch + col) = v;
}
inline uchar16 ts_obs_ld8x16a(ts_obs_t o, int role, __global const uchar *b, int pitch,
                              int col, int row)
{
  return ts_obs_note(o, role, 0, pitch, col, row, 16)
             ? *(__global const uchar16 *)(b + row * pitch + col)
             : (uchar16)0;
}
inline void ts_obs_st8x16a(ts_obs_t o, int role, __global uchar *b, int pitch, int col, int row,
                           uchar16 v)
{
  if (ts_obs_note(o, role, 1, pitch, col, row, 16))
    *(__global uchar16 *)(b + row * pitch + col) = v;
}
inline uint4 ts_obs_ld32x4a(ts_obs_t o, int role, __global const uint *b, int pitch, int col,
                            int row)
{
  return ts_obs_note(o, role, 0, pitch, col, row, 4)
             ? *(__global const uint4 *)(b + row * pitch + col)
             : (uint4)0;
}
inline void ts_obs_st32x4a(ts_obs_t o, int role, __global uint *b, int pitch, int col, int row,
                           uint4 v)
{
  if (ts_obs_note(o, role, 1, pitch, col, row, 4))
    *(__global uint4 *)(b + row * pitch + col) = v;
}
inline void ts_obs_st8x8(ts_obs_t o, int role, __global uchar *b, int pitch, int col, int row,
                         uchar8 v)
{
  if (ts_obs_note(o, role, 1, pitch, col, row, 8))
    vstore8(v, 0, b + row * pitch + col);
}
inline void ts_obs_st8x16(ts_obs_t o, int role, __global uchar *b, int pitch, int col, int row,
                          uchar16 v)
{
  if (ts_obs_note(o, role, 1, pitch, col, row, 16))
    vstore16(v, 0, b + row * pitch + col);
}
inline void ts_obs_st32x16(ts_obs_t o, int role, __global uint *b, int pitch, int col, int row,
                           uint16 v)
{
  if (ts_obs_note(o, role, 1, pitch, col, row, 16))
    vstore16(v, 0, b + row * pitch + col);
}

/* Fixed arity on purpose: OpenCL C 1.2 has no variadic macros (NVIDIA's compiler refuses
 * them). */
#define TS_LD8(buf, pitch, col, row)                                                  \
  ts_obs_ld8(ts_o_, TS_ROLE_##buf, (__global const uchar *)(buf), pitch, col, row)
#define TS_LD16(buf, pitch, col, row)                                                 \
  ts_obs_ld16(ts_o_, TS_ROLE_##buf, (__global const ushort *)(buf), pitch, col, row)
#define TS_LD32(buf, pitch, col, row)                                                 \
  ts_obs_ld32(ts_o_, TS_ROLE_##buf, (__global const uint *)(buf), pitch, col, row)
#define TS_LD8x16(buf, pitch, col, row)                                               \
  ts_obs_ld8x16(ts_o_, TS_ROLE_##buf, (__global const uchar *)(buf), pitch, col, row)
#define TS_LD32x16(buf, pitch, col, row)                                              \
  ts_obs_ld32x16(ts_o_, TS_ROLE_##buf, (__global const uint *)(buf), pitch, col, row)
#define TS_LD8x4A(buf, pitch, col, row)                                               \
  ts_obs_ld8x4a(ts_o_, TS_ROLE_##buf, (__global const uchar *)(buf), pitch, col, row)
#define TS_ST8(buf, pitch, col, row, v)                                               \
  ts_obs_st8(ts_o_, TS_ROLE_##buf, (__global uchar *)(buf), pitch, col, row, v)
#define TS_ST16(buf, pitch, col, row, v)                                              \
  ts_obs_st16(ts_o_, TS_ROLE_##buf, (__global ushort *)(buf), pitch, col, row, v)
#define TS_ST32(buf, pitch, col, row, v)                                              \
  ts_obs_st32(ts_o_, TS_ROLE_##buf, (__global uint *)(buf), pitch, col, row, v)
#define TS_ST8x4A(buf, pitch, col, row, v)                                            \
  ts_obs_st8x4a(ts_o_, TS_ROLE_##buf, (__global uchar *)(buf), pitch, col, row, v)
#define TS_LD8x16A(buf, pitch, col, row)                                              \
  ts_obs_ld8x16a(ts_o_, TS_ROLE_##buf, (__global const uchar *)(buf), pitch, col, row)
#define TS_ST8x16A(buf, pitch, col, row, v)                                           \
  ts_obs_st8x16a(ts_o_, TS_ROLE_##buf, (__global uchar *)(buf), pitch, col, row, v)
#define TS_LD32x4A(buf, pitch, col, row)                                              \
  ts_obs_ld32x4a(ts_o_, TS_ROLE_##buf, (__global const uint *)(buf), pitch, col, row)
#define TS_ST32x4A(buf, pitch, col, row, v)                                           \
  ts_obs_st32x4a(ts_o_, TS_ROLE_##buf, (__global uint *)(buf), pitch, col, row, v)
#define TS_ST8x8(buf, pitch, col, row, v)                                             \
  ts_obs_st8x8(ts_o_, TS_ROLE_##buf, (__global uchar *)(buf), pitch, col, row, v)
#define TS_ST8x16(buf, pitch, col, row, v)                                            \
  ts_obs_st8x16(ts_o_, TS_ROLE_##buf, (__global uchar *)(buf), pitch, col, row, v)
#define TS_ST32x16(buf, pitch, col, row, v)                                           \
  ts_obs_st32x16(ts_o_, TS_ROLE_##buf, (__global uint *)(buf), pitch, col, row, v)
#define TS_ST32x16S(buf, pitch, col, row, v) TS_ST32x16(buf, pitch, col, row, v)
#define TS_LD8_PX(buf, W, C, x, y, c) TS_LD8(buf, (W) * (C), (x) * (C) + (c), y)
#define TS_LD8_OFF(buf, pitch, col, row, dcol, drow)                                  \
  TS_LD8(buf, pitch, (col) + (dcol), (row) + (drow))
#define TS_ST8_PX(buf, W, C, x, y, c, v) TS_ST8(buf, (W) * (C), (x) * (C) + (c), y, v)
#endif

/* Channel c of pixel (x, y) of a buffer of W x H pixels of C channels, clamped to the edge. */
#define ld8(buf, W, H, C, x, y, c)                                                    \
  TS_LD8_PX(buf, W, C, clamp((x), 0, (W) - 1), clamp((y), 0, (H) - 1), c)

/* Byte column `col` of a row of W pixels of C channels; outside the row it maps to the same
 * channel of the nearest edge pixel. */
inline int ts_col_clamp(int W, int C, int col)
{
  int px = col >= 0 ? col / C : -((-col + C - 1) / C);
  return clamp(px, 0, W - 1) * C + (col - px * C);
}
#ifndef TS_OBSERVE
/* The byte's offset, spelt as the pixel's: the form pocl compiles best here. */
inline int ts_col_offset(int W, int H, int C, int col, int row)
{
  int px = col >= 0 ? col / C : -((-col + C - 1) / C);
  return (clamp(row, 0, H - 1) * W + clamp(px, 0, W - 1)) * C + (col - px * C);
}
#define ld8_col(buf, W, H, C, col, row)                                               \
  ((void)TS_ROLE_##buf,                                                               \
   ((__global const uchar *)(buf))[ts_col_offset((W), (H), (C), (col), (row))])
#else
#define ld8_col(buf, W, H, C, col, row)                                               \
  TS_LD8(buf, (W) * (C), ts_col_clamp((W), (C), (col)), clamp((row), 0, (H) - 1))
#endif

/* Gaussian: (S + 32768) >> 16 with weights summing to 65536. */
inline uchar gauss_round(uint s)
{
  return (uchar)((s + 32768u) >> 16);
}

/* Box 3x3 scale: one float multiply by 0.111f, truncated toward zero. */
inline uchar box_scale(int sum)
{
  return (uchar)((float)sum * 0.111f);
}

/* ---- Box 3x3 in 16-byte columns (boxstrip, boxband) ----
 * box_scale for 16 sums at once, exact without a float: for every sum of nine bytes
 * (0 .. 2295), (S * 58196) >> 19 is box_scale(S) (tests/test_variants.c checks them all).
 * In 32-bit lanes, which pocl keeps in one AVX-512 register: a multiply, a shift and a
 * narrowing store. */
inline uchar16 box_scale16(ushort16 s)
{
  return convert_uchar16((convert_uint16(s) * 58196u) >> 19);
}

/* How box_hsum16 meets the row's ends for the 16 bytes at x of a row of rowbytes bytes:
 * 0 inside (x - C >= 0 and x + 16 + C <= rowbytes), 1 the row's first 16 bytes, 2 its last,
 * 3 both (a row of 16 bytes), 4 byte by byte (anything else, a column cut by the row's end
 * included, and C other than 1, 3, 4). */
inline int box_kind16(int rowbytes, int C, int x)
{
  int left = x == 0 ? 1 : x >= C ? 0 : 4;
  int right = x + 16 == rowbytes ? 2 : x + 16 + C <= rowbytes ? 0 : 4;
  return (C != 1 && C != 3 && C != 4) || left == 4 || right == 4 ? 4 : left | right;
}

/* The horizontal 3-tap sums of bytes x .. x + 15 of a row: each byte plus the same channel
 * of the pixels left and right (C bytes away), clamped to the edge pixel. Inside the row
 * three overlapping 16-byte loads; at the row's first or last 16 bytes the missing
 * neighbours are a shuffle of the middle load (the edge pixel's own bytes); byte by byte
 * otherwise, where a byte's pixel is the first (last) exactly when its neighbour would lie
 * before (after) the row, and bytes past the row repeat its last (their sums are never
 * stored). */
inline ushort16 box_hsum16(TS_OBS_PARAM __global const uchar *src, int rowbytes, int C, int x,
                           int row, int kind)
{
  if (kind == 4) {
    ushort s[16];
    for (int i = 0; i < 16; i++) {
      int b = min(x + i, rowbytes - 1), l = b - C >= 0 ? b - C : b,
          r = b + C < rowbytes ? b + C : b;
      s[i] = (ushort)(TS_LD8(src, rowbytes, l, row) + TS_LD8(src, rowbytes, b, row) +
                      TS_LD8(src, rowbytes, r, row));
    }
    return vload16(0, s);
  }
  uchar16 m = TS_LD8x16(src, rowbytes, x, row), l, r;
  if (kind & 1)
    l = C == 1   ? shuffle(m, (uchar16)(0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14))
        : C == 3 ? shuffle(m, (uchar16)(0, 1, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12))
                 : shuffle(m, (uchar16)(0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
  else
    l = TS_LD8x16(src, rowbytes, x - C, row);
  if (kind & 2)
    r = C == 1   ? shuffle(m, (uchar16)(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 15))
        : C == 3 ? shuffle(m, (uchar16)(3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 13, 14, 15))
                 : shuffle(m, (uchar16)(4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 12, 13, 14, 15));
  else
    r = TS_LD8x16(src, rowbytes, x + C, row);
  return convert_ushort16(l) + convert_ushort16(m) + convert_ushort16(r);
}

/* The 16-byte column at byte x (kind: box_kind16's) walked down rows y0 .. y0 + n - 1, the
 * rows above and below clamped to the image: three rows of horizontal sums, each output row
 * their sum, scaled and stored as one 16-byte vector, or byte by byte where the row's end
 * cuts the column. */
inline void box_column16(TS_OBS_PARAM __global const uchar *src, __global uchar *dst, int H,
                         int C, int rowbytes, int x, int y0, int n, int kind)
{
  ushort16 a = box_hsum16(TS_OBS_ARG src, rowbytes, C, x, max(y0 - 1, 0), kind),
           b = box_hsum16(TS_OBS_ARG src, rowbytes, C, x, y0, kind);
  for (int y = y0; y < y0 + n; y++) {
    ushort16 c = box_hsum16(TS_OBS_ARG src, rowbytes, C, x, min(y + 1, H - 1), kind);
    uchar16 o = box_scale16(a + b + c);
    if (kind != 4 || x + 16 <= rowbytes) {
      TS_ST8x16(dst, rowbytes, x, y, o);
    } else {
      uchar t[16];
      vstore16(o, 0, t);
      for (int i = 0; x + i < rowbytes; i++)
        TS_ST8(dst, rowbytes, x + i, y, t[i]);
    }
    a = b;
    b = c;
  }
}
