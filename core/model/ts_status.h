/* Status codes and the error record every tilescope call can fill.
 * A call's return value decides whether it failed; the ts_error it was given (may be
 * NULL) carries one line of detail naming the file, option or value at fault. */
#ifndef TS_STATUS_H
#define TS_STATUS_H

#include <stddef.h>

#define TS_STATUS_LIST(X)                                   \
  X(TS_OK, "ok")                                            \
  X(TS_ERR_ARG, "invalid argument")                         \
  X(TS_ERR_NOMEM, "out of memory")                          \
  X(TS_ERR_IO, "input/output error")                        \
  X(TS_ERR_FORMAT, "malformed input")                       \
  X(TS_ERR_TOO_LARGE, "size over the limit")                \
  X(TS_ERR_UNSUPPORTED, "unsupported")                      \
  X(TS_ERR_DEVICE, "compute device error")                  \
  X(TS_ERR_BUILD, "kernel build failed")                    \
  X(TS_ERR_STALLED, "device schedule gave up waiting")

typedef enum ts_status {
#define TS_X_ENUM(id, text) id,
  TS_STATUS_LIST(TS_X_ENUM)
#undef TS_X_ENUM
  TS_STATUS_COUNT
} ts_status;

typedef struct ts_error {
  ts_status code;
  char msg[1024];
} ts_error;

const char *ts_status_name(ts_status s);

/* Sets err (when not NULL) and returns code, so callers can `return ts_fail(...)`. */
ts_status ts_fail(ts_error *err, ts_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Overflow-checked size arithmetic: return 0 and leave *out alone on overflow. */
int ts_mul_size(size_t a, size_t b, size_t *out);
int ts_mul3_size(size_t a, size_t b, size_t c, size_t *out);

/* Asks for the large block at p (n bytes, not touched yet) to be backed by 2 MiB pages where
 * the system gives them on request (Linux's transparent huge pages in "madvise" mode): a 4K
 * image's 25 MB would otherwise fault in 4 KiB at a time when first written, some 6,000
 * faults, which take 80 ms or more on a virtual machine, against under 10 ms. Blocks under
 * 4 MiB are left alone; a hint only, nothing where it is refused. */
void ts_alloc_huge(void *p, size_t n);

/* n zero bytes (n > 0) aligned to TS_ALIGN, for images and buffers that vector loads read and
 * an OpenCL device may use in place, with guard pages around them outside the sanitizer
 * builds (ts_status.c), large ones on 2 MiB pages where the system gives them (ts_alloc_huge);
 * ts_alloc_free frees them. NULL when out of memory. */
#define TS_ALIGN 128
void *ts_alloc_zeroed(size_t n);
/* Frees what ts_alloc_zeroed gave (and nothing else). */
void ts_alloc_free(void *p);

#endif
