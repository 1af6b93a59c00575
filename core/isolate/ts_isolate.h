/* core/isolate/: the debuggee cannot take the debugger down (SPEC section 10). A piece of
 * work that runs a user's kernel runs in a child process of its own: a kernel that crashes,
 * corrupts memory or writes past its buffer ends the child, never tilescope, and one that
 * never ends is stopped by a watchdog. The child sends its result back as bytes through a
 * pipe (ts_blob); the parent turns a crash, a timeout or a child that ends without a result
 * into one error line naming what was running. The parent must not have started OpenCL: the
 * child makes its own context (a context does not survive a fork). */
#ifndef TS_ISOLATE_H
#define TS_ISOLATE_H

#include <stddef.h>
#include <stdint.h>

#include "ts_status.h"

/* A growing byte buffer. */
typedef struct ts_blob {
  uint8_t *p;
  size_t n, cap;
  int oom;
} ts_blob;

void ts_blob_put(ts_blob *b, const void *p, size_t n);
void ts_blob_free(ts_blob *b);
/* Reads n bytes at *at; 0 when the blob is shorter. */
int ts_blob_get(const ts_blob *b, size_t *at, void *p, size_t n);

/* The work: fills out, or fails with err (which the parent then reports as its own). */
typedef ts_status (*ts_isolated_fn)(void *arg, ts_blob *out, ts_error *err);

/* Runs fn(arg) in a child process with a watchdog of timeout_s seconds (<= 0: none).
 * `what` names the work in the error lines ("conv2d.cl, observed"). On TS_OK, *result holds
 * what the child put. */
ts_status ts_isolate(const char *what, ts_isolated_fn fn, void *arg, double timeout_s,
                     ts_blob *result, ts_error *err);

#endif
