/* Status names and error formatting (see ts_status.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void *ts_alloc_zeroed(size_t n)
{
  size_t whole = (n + TS_ALIGN - 1) / TS_ALIGN * TS_ALIGN;
  if (n == 0 || whole < n)
    return NULL;
  void *p = aligned_alloc(TS_ALIGN, whole);
  if (p)
    memset(p, 0, whole);
  return p;
}
