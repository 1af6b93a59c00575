/* The launch contract of every built-in and dialect kernel: its arguments in the two
 * execution modes (simulated order, or the device's own with a scoreboard) and the entries
 * that wrap a tile function into a __kernel. The host builds each kernel file after four
 * parts, in this order: common.cl (this file), scoreboard.cl (the device mode's waits and
 * record), access.cl (the buffer accessors and edge-clamped loads: out-of-image reads clamp
 * to the nearest edge pixel, as media-block reads do; writes outside the image are
 * dropped) and helpers.cl (the filters' shared arithmetic).
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
 * Kernels read and write src, dst and committed only through the accessors of access.cl
 * (TS_LD8, TS_ST8, TS_LD8x16, ...), so that an observe build (-DTS_OBSERVE) sees every
 * access. */

#if defined(TS_OBSERVE) && defined(TS_DEVICE)
#error "an observe build runs the simulated order only"
#endif

/* On an x86 CPU without AVX-512 (pocl compiling for AVX2), clang warns that a function taking
 * or returning a 16-lane vector of 32-bit lanes (uint16, float16) has another calling
 * convention than with AVX-512 (-Wpsabi): harmless here, where every such function is
 * inlined within its own module, but pocl would print "N warnings generated." on every
 * first build. */
#if defined(__clang__) && defined(__x86_64__)
#pragma clang diagnostic ignored "-Wpsabi"
#endif
/* The same for the `#pragma unroll` on loops whose count clang does not know (kernels/quad.cl:
 * for NVIDIA's compiler, which does unroll them), which clang reports as "loop not
 * unrolled" (-Wpass-failed). */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

/* An observe build passes one more kernel argument, the observation buffer, and every
 * function that touches a buffer one more parameter, the running thread's context:
 * TS_OBS_PARAM in its parameter list and TS_OBS_ARG in its calls (both empty otherwise). */
#ifdef TS_OBSERVE
typedef struct ts_obs_t {
  __global uint *o; /* the observation buffer (layout in core/observe/ts_observe.c) */
  uint tid;         /* the running thread: ty * tw + tx of its pass */
  __global uchar *base[3]; /* src, dst and committed: where a direct access lands */
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
 *    Where a pass of one-work-item kernels runs its thread space in row-major order, ts_tw
 *    (their last argument) is that space's width and tile k is computed instead
 *    (TS_BEGIN_ITEM): on a GPU the load of tiles[] is a memory round trip before a thread's
 *    first access;
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
/* A one-work-item kernel's last argument: its thread space's width where the host runs it in
 * row-major order, else 0 (TS_BEGIN_ITEM). */
#define TS_ITEM_KARG , int ts_tw
#else
/* board: [0] ticket counter, [1] error (1 + the ticket that gave up), [2] logical clock,
 *        [3] the ticket it waited for, then one flag per ticket (TS_FLAG_*); for a pass that
 *        looks back, then the ticket of each tile (by thread id: ty * tw + tx) and the
 *        tiles' published sums (integral_lookback.cl says how many words a tile).
 * waits: per ticket, 8 ints: the size of its effective wait set, then the producers' tickets.
 * rec:   per ticket, 8 ulongs (record != 0): work-group, compute unit, tile (x | y << 32),
 *        start (the ticket), end of wait, end, publication (the end, or a look-back
 *        kernel's aggregate) and what bound its wait (scoreboard.cl: TS_REC_*).
 * stuck: a ticket that never signals (tests of the bounded wait), or -1. */
#define TS_ARGS                                                                      \
  __global const uchar *src, __global uchar *dst, __global const uchar *committed,   \
      __global const int2 *tiles, int first, int ntiles, int W, int H, int C,        \
      __constant uint *weights, int r, __local uint *lmem, __global int *board,      \
      __global const int *waits, __global ulong *rec, int record, int stuck,         \
      uint spin_limit
#define TS_ITEM_KARG
#endif

#define TS_BODY_ARGS                                                                 \
  TS_OBS_PARAM __global const uchar *src, __global uchar *dst, __global const uchar *committed,   \
      int W, int H, int C, __constant uint *weights, int r, __local uint *lmem
#define TS_BODY_PASS TS_OBS_ARG src, dst, committed, W, H, C, weights, r, lmem

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
  __kernel void name(TS_ARGS TS_ITEM_KARG)                                            \
  {                                                                                   \
    TS_ITEM_GUARD()                                                                   \
    TS_BEGIN_ITEM(get_global_id(0))                                                   \
    TS_OBS_BEGIN()                                                                    \
    name##_tile(TS_BODY_PASS, ts_t_);                                                 \
    TS_END()                                                                          \
  }
