/* The scoreboard and the device's record (SPEC section 8), for the device build
 * (-DTS_DEVICE): the ticket a work-group takes in walk order, its waits on its producers'
 * done flags with a bounded spin, its signal, device time and compute unit, and the record
 * of every work-group; in the simulated build, the same entry points reduced to taking the
 * launch's tile. Built after common.cl (the arguments) and before access.cl. */

#ifdef TS_DEVICE
/* The board's head (the host writes it before the launch, see ts_cl_device.c): the ticket
 * counter, the error, the logical clock, the ticket a give-up waited for, the adversary's
 * bound and seed; then the flags. */
enum { TS_BOARD_TICKET, TS_BOARD_ERROR, TS_BOARD_CLOCK, TS_BOARD_WAITED, TS_BOARD_DELAY,
       TS_BOARD_SEED, TS_BOARD_FLAGS };

/* What a ticket's flag says. Every kernel sets DONE once its writes are out (cm_signal); a
 * look-back kernel (integral_lookback.cl) first sets AGGREGATE, once the sums of its own
 * tile are out and before it has waited for anything, so that a successor may read them
 * instead of waiting for it to finish. A flag only ever goes 0, then perhaps AGGREGATE, then
 * DONE: any nonzero value means "published". */
enum { TS_FLAG_DONE = 1, TS_FLAG_AGGREGATE = 2 };

/* A ticket's record: rec + TS_REC_WORDS * ticket (the host reads the same layout). */
enum { TS_REC_GROUP, TS_REC_UNIT, TS_REC_TILE, TS_REC_START, TS_REC_WAITED, TS_REC_END,
       TS_REC_PUBLISHED, TS_REC_BOUND, TS_REC_WORDS };

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

/* The fence of a group's publication, in two halves around the barrier that hands the
 * work-items' writes to work-item 0, which then sets the flag: on a GPU every work-item
 * fences its own writes before the barrier (ts_items_fence) and work-item 0 nothing more;
 * a CPU (-DTS_CPU) runs a group's work-items one after another in one thread, where one
 * fence orders everything that thread did before it, so only work-item 0 fences, after the
 * barrier (ts_lead_fence). pocl: 128 fences a group cost a third of a look-back's one-launch
 * time. A poll's fence likewise: on a CPU only the work-items that polled fence. */
inline void ts_items_fence(void)
{
#ifndef TS_CPU
  ts_cm_fence();
#endif
}

inline void ts_lead_fence(void)
{
#ifdef TS_CPU
  ts_cm_fence();
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

/* The adversary (ts_dev_opts.adversary; off when the bound is 0): a delay of up to `bound`
 * polls of the error word, drawn from the ticket, the seed and the place (`salt`), so that
 * on a CPU device, whose groups seldom overlap, a producer still writes late while its
 * successor on another lane reads. Half the groups are not delayed at all: a delayed group
 * beside an undelayed one is what makes a missing dependency show. A real GPU needs none;
 * it only slows. Polls of a volatile word, so that the compiler keeps the loop. */
inline void ts_adversary(__global int *board, int tk, uint salt)
{
  uint bound = (uint)board[TS_BOARD_DELAY];
  if (bound == 0)
    return;
  uint h = (uint)tk * 0x9e3779b1u ^ (uint)board[TS_BOARD_SEED] ^ salt * 0x85ebca77u;
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  if (h & 1u)
    return;
  __global volatile const int *error = &board[TS_BOARD_ERROR];
  for (uint i = (h >> 1) % bound; i > 0 && *error == 0; i--)
    ;
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
#ifdef TS_CPU
  if (lane < w[0]) /* on a CPU, the fence of the last work-item that polled orders all */
    ts_cm_fence();
#elif !defined(TS_NVIDIA)
  ts_cm_fence(); /* nothing read after the wait may come from before it */
#endif
  return 1;
}

/* cm_signal: sets the ticket's done flag, after the group's writes and their fence. */
inline void ts_cm_signal(__global int *board, int tk)
{
  atomic_xchg(&board[TS_BOARD_FLAGS + tk], TS_FLAG_DONE);
}

/* A poll of ticket p's flag until it is published (nonzero), for a look-back: returns
 * TS_FLAG_AGGREGATE or TS_FLAG_DONE. p is always an earlier ticket than the caller's (tk),
 * so it belongs to a group that is running or done: an aggregate comes without waiting for
 * anything, a done flag once that group's own look-back ended, which by the same argument
 * ends. Bounded as cm_wait: a give-up records the error and answers DONE, so that the caller
 * stops looking back (its sums are garbage, the run reports the stall). No fence: the
 * caller fences once after its polls (cm_wait's last step). */
inline int ts_lb_poll(__global int *board, int p, int tk, uint spin_limit)
{
  __global volatile const int *flag = &board[TS_BOARD_FLAGS + p];
  __global volatile const int *error = &board[TS_BOARD_ERROR];
  uint spins = 0;
  int s;
  while (!(s = ts_ld_acquire(flag))) {
#ifdef TS_NVIDIA
    asm volatile("nanosleep.u32 %0;" ::"r"(100u));
#endif
    if (++spins >= spin_limit || *error != 0) {
      if (atomic_cmpxchg(&board[TS_BOARD_ERROR], 0, tk + 1) == 0)
        atomic_xchg(&board[TS_BOARD_WAITED], p);
      return TS_FLAG_DONE;
    }
  }
  return s;
}

/* When the publication a look-back read came out (ticket p's aggregate, or its end): what
 * the record's critical path follows (scoreboard.cl: TS_REC_BOUND). */
inline void ts_lb_note(__global const ulong *rec, int record, int p, int state, ulong *t, ulong *b)
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

/* The work-group's aggregate is out (its work-items wrote it, fenced and met at a barrier):
 * work-item 0 stamps the time and sets the flag to AGGREGATE. */
inline void ts_group_published(__global int *board, __global ulong *rec, int record, int stuck,
                               int tk)
{
  if (record)
    rec[TS_REC_WORDS * tk + TS_REC_PUBLISHED] = ts_now(board);
  if (tk != stuck)
    atomic_xchg(&board[TS_BOARD_FLAGS + tk], TS_FLAG_AGGREGATE);
}

/* Work-item 0 of the group takes the ticket and stamps the start; the ticket reaches the
 * others through local memory. Later it waits and stamps the end of the wait. */
inline int ts_group_ticket(__global int *board, __global ulong *rec, int record)
{
  int tk = ts_cm_ticket(board);
  ts_adversary(board, tk, 1u); /* before the start: a delay is not a wait */
  if (record) {
    __global ulong *e = rec + TS_REC_WORDS * tk;
    e[TS_REC_GROUP] = get_group_id(0);
    e[TS_REC_UNIT] = ts_unit();
    e[TS_REC_START] = ts_now(board);
  }
  return tk;
}

inline void ts_group_waited(__global int *board, __global ulong *rec, int record, int tk)
{
  if (record)
    rec[TS_REC_WORDS * tk + TS_REC_WAITED] = ts_now(board);
}

/* The end, then the done flag. A kernel that published an aggregate earlier passes
 * `published` 1 and the producer its wait depended on last (bound: 1 + its ticket, + 2^32
 * where it read that producer's aggregate; 0 none); for the others the end is their only
 * publication, and the host finds what bound their waits from their wait sets. */
inline void ts_group_end_as(__global int *board, __global const int2 *tiles, __global ulong *rec,
                            int record, int stuck, int tk, int published, ulong bound)
{
  if (record) {
    __global ulong *e = rec + TS_REC_WORDS * tk;
    int2 t = tiles[tk];
    e[TS_REC_TILE] = (ulong)(uint)t.x | (ulong)(uint)t.y << 32;
    ulong now = ts_now(board);
    e[TS_REC_END] = now;
    if (!published)
      e[TS_REC_PUBLISHED] = now;
    e[TS_REC_BOUND] = bound;
  }
  if (tk != stuck)
    ts_cm_signal(board, tk);
  ts_adversary(board, tk, 2u);
}

inline void ts_group_end(__global int *board, __global const int2 *tiles, __global ulong *rec,
                         int record, int stuck, int tk)
{
  ts_group_end_as(board, tiles, rec, record, stuck, tk, 0, 0);
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
#define TS_BEGIN_ITEM(k) TS_BEGIN(k)

#define TS_END()                                                                      \
  ts_items_fence();                                                                    \
  barrier(CLK_GLOBAL_MEM_FENCE);                                                      \
  if (ts_lead_) {                                                                     \
    ts_lead_fence();                                                                  \
    ts_group_end(board, tiles, rec, record, stuck, ts_tk_[0]);                        \
  }

/* A neighbour's committed result, read after the wait: volatile, so that it comes from
 * memory every group sees (NVIDIA's L1 is not coherent between multiprocessors). */
inline uint ld_committed32(__global const uint *p)
{
  return *(volatile __global const uint *)p;
}
#else
/* The host launches exactly ntiles work-groups, and TS_ITEM_ENTRY returns early for the
 * work-items past ntiles in the last group of a one-work-item kernel. */
/* The launch's k-th thread: tiles[first + k]. A one-work-item kernel's, where the pass runs
 * its whole thread space in row-major order (ts_tw > 0, its width; first counts from the
 * pass's first thread), computed instead, without a load that everything else in the thread
 * would wait for (ts_tw is those kernels' argument only: integral_colrow's work-group kernels
 * ran 2% to 4% slower on an H200 with it). */
#define TS_BEGIN(k) int2 ts_t_ = tiles[first + (int)(k)];
#define TS_BEGIN_ITEM(k)                                                              \
  int ts_i_ = first + (int)(k);                                                       \
  int2 ts_t_ = ts_tw > 0 ? (int2)(ts_i_ % ts_tw, ts_i_ / ts_tw) : tiles[ts_i_];
#define TS_END()
inline uint ld_committed32(__global const uint *p)
{
  return *p;
}
#endif
