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
/* Room for n more bytes at once (exactly, where it grows), for a writer that knows its size:
 * a large blob is then neither copied as it doubles nor larger than it needs. */
void ts_blob_reserve(ts_blob *b, size_t n);
void ts_blob_free(ts_blob *b);
/* Reads n bytes at *at; 0 when the blob is shorter. */
int ts_blob_get(const ts_blob *b, size_t *at, void *p, size_t n);

/* The work: fills out, or fails with err (which the parent then reports as its own). */
typedef ts_status (*ts_isolated_fn)(void *arg, ts_blob *out, ts_error *err);

/* Runs fn(arg) in a child process with a watchdog of timeout_s seconds (<= 0: none), in two
 * steps, so that the work may go on beside the caller's: ts_isolate_start starts the child;
 * ts_isolate_finish waits for its result (the watchdog's timeout_s counted from then), reaps
 * it, and on TS_OK *result holds what the child put; ts_isolate_cancel kills and reaps a
 * child whose result is no longer wanted. One of the two ends every child started. `what`
 * names the work in the error lines ("conv2d.cl, observed"). */
typedef struct ts_isolated {
  int pid, fd;
  double timeout_s;
  char what[1200];
} ts_isolated;
ts_status ts_isolate_start(const char *what, ts_isolated_fn fn, void *arg, double timeout_s,
                           ts_isolated *h, ts_error *err);
ts_status ts_isolate_finish(ts_isolated *h, ts_blob *result, ts_error *err);
void ts_isolate_cancel(ts_isolated *h);

/* The child's message (ts_isolate's protocol) written to fd: its status, its error line, and
 * on TS_OK the result. Returns 0 when it could not be written. */
int ts_isolate_reply(int fd, ts_status status, const ts_error *e, const ts_blob *out);

/* In the child, before the debuggee runs: its faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL) end
 * the process with their own signal, whatever handler it inherited or installed at start (a
 * sanitizer's, a crash reporter's), so that the parent can name the signal. */
void ts_isolate_child_signals(void);

/* The same work started in a new program (ended as above): argv (argv[0] a path) runs with the request readable at
 * file descriptor 3 (request_fd, inherited) and the message pipe at fd 4 (TS_ISOLATE_REPLY_FD),
 * and answers there with ts_isolate_reply. Its standard output is its standard error, so that
 * what a kernel prints (printf) cannot garble the message. For a parent whose state a fork
 * cannot take along (the viewer's threads and its OpenCL runtime).
 * Every child, of a fork or an exec, is killed when the process that started it dies (a
 * kill, a crash): a kernel that never ends does not outlive the debugger. */
enum { TS_ISOLATE_REPLY_FD = 4 };
ts_status ts_isolate_exec_start(const char *what, char *const argv[], int request_fd,
                                double timeout_s, ts_isolated *h, ts_error *err);

/* The program that ts_isolate_exec_start's callers start for work (tilescope itself, its path;
 * main sets it), and that program when this process has more than one thread, else NULL:
 * a fork copies every lock another thread held (an allocator's, a driver's) into a child
 * that has only the forking thread, so a child of a threaded process execs a fresh one. */
void ts_isolate_set_program(const char *exe);
const char *ts_isolate_program(void); /* NULL where it was not set */
const char *ts_isolate_program_if_threaded(void);

/* The rest of a command in a child process, this one its supervisor (called before the
 * command starts OpenCL). Returns 1 in the child, which goes on. The parent waits, and
 * returns 0 with *code: the child's exit code; or 1 after one line naming `what` when the
 * child died of a signal (a crash, a corrupted heap) or ran past timeout_s seconds (<= 0:
 * none), when the watchdog stops it: SIGTERM, whose handler removes the command's temporary
 * outputs, then SIGKILL 2 s later if it has not ended. SIGINT, SIGTERM and SIGHUP sent to the parent are sent
 * on to the child; when the child dies of one, the parent dies of it too. */
int ts_supervise(const char *what, double timeout_s, int *code);

#endif
