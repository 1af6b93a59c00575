/* The buffer accessors every built-in and dialect kernel reads and writes through, plain
 * loads and stores in a normal build and recorded in an observe build (-DTS_OBSERVE), and
 * the edge-clamped pixel loads built on them. Built after scoreboard.cl. */

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
/* The observation buffer, in 32-bit words (core/observe/ts_observe.c fills the header):
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
       TS_O_SUMS = 16, TS_O_LAST, TS_O_OTHER, TS_O_BITS = 20, TS_O_ESIZE = 26,
       TS_O_SCRATCH = 29, TS_O_HEADER = 32 };

#define TS_OBS_BEGIN()                                                                \
  ts_obs_t ts_o_ = { ts_obs, (uint)(ts_t_.y * (int)ts_obs[TS_O_TW] + ts_t_.x),         \
                     { (__global uchar *)src, (__global uchar *)dst,                  \
                       (__global uchar *)committed } };

inline int ts_obs_note(ts_obs_t o, int role, int kind, int pitch, int col, int row, int n);

/* An access a dialect kernel makes without an accessor (src[i], *p, vload4, an atomic),
 * as the instrumenter (core/plain/ts_instrument.c) rewrote it: n bytes at p, kind 1 read,
 * 2 write, 3 both, 4 atomic. Recorded like an accessor's, by the role whose buffer holds it;
 * outside every role's buffer it is recorded as such and not performed: the pointer to use
 * is then a scratch area (reads give 0). */
inline __global uchar *ts_obs_direct(ts_obs_t o, __global uchar *p, uint n, uint kind, uint line)
{
  (void)line;
  kind &= 63; /* 64: a vloadN / vstoreN (the plain kernels' alignment check) */
  __global uint *h = o.o;
  ulong a = (ulong)p;
  for (int r = 0; r < 3; r++) {
    uint es = h[TS_O_ESIZE + r], cols = h[TS_O_GEOM + 2 * r], rows = h[TS_O_GEOM + 2 * r + 1];
    ulong b = (ulong)o.base[r], size = (ulong)cols * rows * es;
    if (es == 0 || a < b || a + n > b + size)
      continue;
    uint e = (uint)((a - b) / es), cnt = max(1u, n / es);
    int ok = 1;
    if (kind & 1 || kind == 4)
      ok &= ts_obs_note(o, r, 0, (int)cols, (int)(e % cols), (int)(e / cols), (int)cnt);
    if (kind & 2 || kind == 4)
      ok &= ts_obs_note(o, r, 1, (int)cols, (int)(e % cols), (int)(e / cols), (int)cnt);
    if (ok)
      return p;
    break;
  }
  /* outside: recorded at its column and row relative to the nearest role's buffer, which
   * ts_obs_note refuses as outside */
  int best = 0;
  long bd = LONG_MAX, be = 0;
  for (int r = 0; r < 3; r++) {
    uint es = max(h[TS_O_ESIZE + r], 1u), cols = h[TS_O_GEOM + 2 * r], rows = h[TS_O_GEOM + 2 * r + 1];
    long d = (long)(a - (ulong)o.base[r]), end = (long)cols * rows * es;
    long dist = d < 0 ? -d : d >= end ? d - end : 0;
    if (dist < bd) {
      bd = dist;
      best = r;
      be = d >= 0 ? d / (long)es : -((-d + (long)es - 1) / (long)es);
    }
  }
  long cols = max(h[TS_O_GEOM + 2 * best], 1u);
  long row = be >= 0 ? be / cols : -((-be + cols - 1) / cols);
  ts_obs_note(o, best, kind & 2 ? 1 : 0, (int)cols, (int)(be - row * cols),
              (int)clamp(row, (long)INT_MIN, (long)INT_MAX), 1);
  return (__global uchar *)(h + h[TS_O_SCRATCH] + ((kind & 2) ? 32 : 0));
}

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
