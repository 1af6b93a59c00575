/* Status names and error formatting, and the guarded blocks of images and buffers (see
 * ts_status.h). */
#define _DEFAULT_SOURCE
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ts_status.h"

const char *ts_status_name(ts_status s)
{
  static const char *const names[] = {
#define TS_X_NAME(id, text) text,
    TS_STATUS_LIST(TS_X_NAME)
#undef TS_X_NAME
  };
  if ((unsigned)s >= TS_STATUS_COUNT)
    return "unknown status";
  return names[s];
}

ts_status ts_fail(ts_error *err, ts_status code, const char *fmt, ...)
{
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return code;
}

int ts_mul_size(size_t a, size_t b, size_t *out)
{
  if (a != 0 && b > SIZE_MAX / a)
    return 0;
  *out = a * b;
  return 1;
}

int ts_mul3_size(size_t a, size_t b, size_t c, size_t *out)
{
  size_t ab;
  return ts_mul_size(a, b, &ab) && ts_mul_size(ab, c, out);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TS_GUARDED 0 /* the sanitizers watch malloc's blocks, and not mappings of our own */
#else
#define TS_GUARDED 1
#endif

/* Guarded: the block ends against 1 GiB of address space that nothing may touch, 64 MiB lie
 * before it, and the mapping's base and length sit in the 16 bytes before the block. A
 * kernel that writes past its buffer (even far past it) on a device that uses the host's
 * memory (pocl) faults there, in a process whose supervisor reports it (core/isolate/),
 * instead of corrupting the heap or another buffer. The guards are address space only. */
#define GUARD_MAGIC 0x7473677561726421ull /* "tsguard!" */
#define GUARD_BEFORE ((size_t)64 << 20)
#define GUARD_AFTER ((size_t)1 << 30)

void ts_alloc_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
  const uintptr_t huge = (uintptr_t)2 << 20;
  if (!p || n < 2 * huge)
    return;
  uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + n) & ~(huge - 1);
  if (hi > lo)
    madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* a hint: where refused, small pages */
#else
  (void)p;
  (void)n;
#endif
}

void *ts_alloc_zeroed(size_t n)
{
  size_t whole = (n + TS_ALIGN - 1) / TS_ALIGN * TS_ALIGN;
  if (n == 0 || whole < n)
    return NULL;
#if TS_GUARDED
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t body = (whole + 16 + page - 1) / page * page; /* the block and its header */
  if (body < whole || body > SIZE_MAX - GUARD_BEFORE - GUARD_AFTER)
    return NULL;
  size_t len = GUARD_BEFORE + body + GUARD_AFTER;
  /* address space only: the guards cost no memory */
  uint8_t *base = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED)
    return NULL;
  if (mprotect(base + GUARD_BEFORE, body, PROT_READ | PROT_WRITE) != 0) {
    munmap(base, len);
    return NULL;
  }
  uint8_t *p = base + GUARD_BEFORE + body - whole; /* TS_ALIGN-aligned: page and whole are */
  ts_alloc_huge(p, whole);
  uint64_t hdr[2] = { GUARD_MAGIC ^ (uint64_t)(uintptr_t)base, (uint64_t)len };
  memcpy(p - 16, hdr, 16);
  return p; /* zero, as a fresh mapping is */
#else
  void *p = aligned_alloc(TS_ALIGN, whole);
  ts_alloc_huge(p, whole);
  if (p)
    memset(p, 0, whole);
  return p;
#endif
}

void ts_alloc_free(void *p)
{
  if (!p)
    return;
#if TS_GUARDED
  uint64_t hdr[2];
  memcpy(hdr, (uint8_t *)p - 16, 16);
  munmap((void *)(uintptr_t)(hdr[0] ^ GUARD_MAGIC), (size_t)hdr[1]);
#else
  free(p);
#endif
}
