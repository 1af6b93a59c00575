/* A plain kernel's parse or run in a process of its own (ts_plain.h): the result as bytes, so
 * that a run made in a child process (core/isolate/) comes back whole (the output image and
 * its raw bytes, the launches with their work-groups' rectangles and logs, the findings and
 * their counts); the request of a job made by the worker program; and the job itself, forked
 * or in that program. The layout is this file's own: the same build writes and reads it. */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ts_libclang.h"
#include "ts_plain.h"

#define PACK_MAGIC 0x7473706cu /* "tspl" */

void ts_plain_result_pack(const ts_plain_result *r, ts_blob *b)
{
  /* its size first, so that the blob is made once (a 4K run's is some 50 MB) */
  size_t need = sizeof(uint32_t) + sizeof *r + 3 * sizeof(int32_t) + (r->raw ? r->raw_bytes : 0) +
                r->nfindings * sizeof *r->findings + r->dump_bytes + r->printed_bytes;
  if (r->out)
    need += (size_t)r->out->w * (size_t)r->out->h * (size_t)r->out->c;
  for (int i = 0; i < r->npasses && i < TS_PLAIN_MAX_PASSES; i++)
    need += 1 + (r->launch[i].groups ? (size_t)r->launch[i].ngroups_all * sizeof *r->launch[i].groups : 0) +
            r->launch[i].nlog * sizeof *r->launch[i].log;
  ts_blob_reserve(b, need);
  uint32_t magic = PACK_MAGIC;
  ts_blob_put(b, &magic, sizeof magic);
  ts_blob_put(b, r, sizeof *r); /* the fixed part; its pointers are rewritten on reading */
  int32_t img[3] = { r->out ? r->out->w : 0, r->out ? r->out->h : 0, r->out ? r->out->c : 0 };
  ts_blob_put(b, img, sizeof img);
  if (r->out)
    ts_blob_put(b, r->out->data, (size_t)img[0] * (size_t)img[1] * (size_t)img[2]);
  ts_blob_put(b, r->raw, r->raw ? r->raw_bytes : 0);
  ts_blob_put(b, r->findings, r->nfindings * sizeof *r->findings);
  for (int i = 0; i < r->npasses && i < TS_PLAIN_MAX_PASSES; i++) {
    const ts_plain_launch *L = &r->launch[i];
    uint8_t has = L->groups != NULL;
    ts_blob_put(b, &has, 1);
    if (has)
      ts_blob_put(b, L->groups, (size_t)L->ngroups_all * sizeof *L->groups);
    ts_blob_put(b, L->log, L->nlog * sizeof *L->log);
  }
  ts_blob_put(b, r->dump, r->dump_bytes);
  ts_blob_put(b, r->printed, r->printed_bytes);
}

/* n items of size s from the blob into a new array (NULL and 1 for none). */
static int take(const ts_blob *b, size_t *at, size_t n, size_t s, void **out)
{
  *out = NULL;
  if (n == 0)
    return 1;
  if (n > SIZE_MAX / s)
    return 0;
  void *p = malloc(n * s);
  ts_alloc_huge(p, n * s);
  if (!p || !ts_blob_get(b, at, p, n * s)) {
    free(p);
    return 0;
  }
  *out = p;
  return 1;
}

ts_status ts_plain_result_unpack(const ts_blob *b, ts_plain_result **out, ts_error *err)
{
  size_t at = 0;
  uint32_t magic = 0;
  ts_plain_result *r = calloc(1, sizeof *r);
  if (!r)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  int ok = ts_blob_get(b, &at, &magic, sizeof magic) && magic == PACK_MAGIC &&
           ts_blob_get(b, &at, r, sizeof *r);
  /* nothing of the sender's pointers is kept */
  r->out = NULL;
  r->raw = NULL;
  r->findings = NULL;
  r->dump = NULL;
  r->printed = NULL;
  for (int i = 0; i < TS_PLAIN_MAX_PASSES; i++) {
    r->launch[i].groups = NULL;
    r->launch[i].log = NULL;
  }
  ok = ok && r->npasses >= 0 && r->npasses <= TS_PLAIN_MAX_PASSES;
  int32_t img[3] = { 0 };
  ok = ok && ts_blob_get(b, &at, img, sizeof img);
  if (ok && img[0] > 0) {
    ts_image *o = NULL;
    ok = ts_image_create(img[0], img[1], img[2], &o, NULL) == TS_OK &&
         ts_blob_get(b, &at, o->data, (size_t)img[0] * (size_t)img[1] * (size_t)img[2]);
    r->out = o;
  }
  void *p = NULL;
  ok = ok && take(b, &at, r->raw_bytes, 1, &p);
  r->raw = p;
  ok = ok && take(b, &at, r->nfindings, sizeof *r->findings, &p);
  r->findings = p;
  for (int i = 0; ok && i < r->npasses; i++) {
    ts_plain_launch *L = &r->launch[i];
    uint8_t has = 0;
    ok = ts_blob_get(b, &at, &has, 1);
    if (ok && has) {
      ok = take(b, &at, L->ngroups_all, sizeof *L->groups, &p);
      L->groups = p;
    }
    if (ok) {
      ok = take(b, &at, L->nlog, sizeof *L->log, &p);
      L->log = p;
    }
  }
  ok = ok && take(b, &at, r->dump_bytes, 1, &p);
  r->dump = p;
  ok = ok && take(b, &at, r->printed_bytes, 1, &p);
  r->printed = p;
  if (!ok || at != b->n) {
    ts_plain_result_free(r);
    return ts_fail(err, TS_ERR_FORMAT, "a plain kernel's result came back damaged");
  }
  *out = r;
  return TS_OK;
}

/* ---- a request for the worker program ---- */

static void put_str(ts_blob *b, const char *s)
{
  uint32_t n = s ? (uint32_t)strlen(s) : 0;
  ts_blob_put(b, &n, sizeof n);
  ts_blob_put(b, s, n);
}

static int get_str(const ts_blob *b, size_t *at, char *out, size_t cap)
{
  uint32_t n = 0;
  if (!ts_blob_get(b, at, &n, sizeof n) || n >= cap || !ts_blob_get(b, at, out, n))
    return 0;
  out[n] = 0;
  return 1;
}

/* The request but for the image's pixels, which follow it. */
static void request_head(const ts_plain_request *q, const ts_plain_desc *d, const ts_image *in,
                         ts_blob *b)
{
  uint32_t magic = PACK_MAGIC + 1;
  ts_blob_put(b, &magic, sizeof magic);
  ts_blob_put(b, &q->job, sizeof q->job);
  put_str(b, q->kernels_dir);
  ts_blob_put(b, &q->device, sizeof q->device);
  ts_blob_put(b, &q->opts, sizeof q->opts);
  ts_blob_put(b, d, sizeof *d); /* the fixed part; text and src.source are rewritten on reading */
  ts_blob_put(b, d->text, d->len);
  for (int i = 0; i < d->ndata; i++)
    if (d->data[i].bytes)
      ts_blob_put(b, d->data[i].bytes, d->data[i].size);
  int32_t img[3] = { in ? in->w : 0, in ? in->h : 0, in ? in->c : 0 };
  ts_blob_put(b, img, sizeof img);
}

void ts_plain_request_pack(const ts_plain_request *q, const ts_plain_desc *d, const ts_image *in,
                           ts_blob *b)
{
  request_head(q, d, in, b);
  if (in)
    ts_blob_put(b, in->data, (size_t)in->w * (size_t)in->h * (size_t)in->c);
}

/* n bytes written whole to fd; 0 when they could not be. */
static int write_all(int fd, const uint8_t *p, size_t n)
{
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return 0;
    p += w;
    n -= (size_t)w;
  }
  return 1;
}

ts_status ts_plain_request_unpack(const ts_blob *b, ts_plain_request *q, ts_plain_desc **dp,
                                  ts_image **in, ts_error *err)
{
  size_t at = 0;
  uint32_t magic = 0;
  int32_t img[3] = { 0 };
  memset(q, 0, sizeof *q);
  *dp = NULL;
  *in = NULL;
  ts_plain_desc *d = calloc(1, sizeof *d);
  int ok = d && ts_blob_get(b, &at, &magic, sizeof magic) && magic == PACK_MAGIC + 1 &&
           ts_blob_get(b, &at, &q->job, sizeof q->job) &&
           get_str(b, &at, q->kernels_dir, sizeof q->kernels_dir) &&
           ts_blob_get(b, &at, &q->device, sizeof q->device) &&
           ts_blob_get(b, &at, &q->opts, sizeof q->opts) && ts_blob_get(b, &at, d, sizeof *d);
  q->opts.start_fd = q->opts.turn_fd = 0; /* (descriptors of the sender's: nothing here) */
  uint8_t sent[TS_PLAIN_MAX_PARAMS] = { 0 }; /* the data whose bytes follow */
  if (d) {
    d->text = NULL; /* nothing of the sender's pointers is kept */
    d->src.source = NULL;
    ok = ok && d->ndata >= 0 && d->ndata <= TS_PLAIN_MAX_PARAMS;
    for (int i = 0; i < TS_PLAIN_MAX_PARAMS; i++) {
      sent[i] = d->data[i].bytes != NULL;
      d->data[i].bytes = NULL;
    }
  }
  ok = ok && d->len < b->n && (d->text = malloc(d->len + 1)) != NULL &&
       ts_blob_get(b, &at, d->text, d->len);
  for (int i = 0; ok && i < d->ndata; i++)
    if (sent[i])
      ok = d->data[i].size < b->n && (d->data[i].bytes = malloc(d->data[i].size + 1)) != NULL &&
           ts_blob_get(b, &at, d->data[i].bytes, d->data[i].size);
  ok = ok && ts_blob_get(b, &at, img, sizeof img);
  if (ok)
    d->text[d->len] = 0;
  ts_image *im = NULL;
  if (ok && img[0] > 0)
    ok = ts_image_create(img[0], img[1], img[2], &im, NULL) == TS_OK &&
         ts_blob_get(b, &at, im->data, (size_t)img[0] * (size_t)img[1] * (size_t)img[2]);
  if (!ok || at != b->n || (q->job != TS_JOB_PARSE && q->job != TS_JOB_RUN) ||
      (q->job == TS_JOB_RUN && !im)) {
    ts_image_destroy(im);
    ts_plain_desc_free(d);
    return ts_fail(err, TS_ERR_FORMAT, "a plain kernel's request to its worker came damaged");
  }
  *dp = d;
  *in = im;
  return TS_OK;
}

/* The job in the worker program (exe, `__plain-worker`), started: the request in an
 * anonymous file it inherits, so that neither side blocks. */
static ts_status spawn_start(const char *exe, const char *what, const ts_plain_request *q,
                             const ts_plain_desc *d, const ts_image *in, double timeout_s,
                             ts_isolated *h, ts_error *err)
{
  ts_blob req = { 0 };
  request_head(q, d, in, &req); /* the pixels written from the image itself: not copied first */
  if (req.oom) {
    ts_blob_free(&req);
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  }
  int fd = memfd_create("tilescope-request", MFD_CLOEXEC); /* the worker gets it as fd 3 */
  ts_status st = TS_OK;
  int done = fd >= 0 && write_all(fd, req.p, req.n) &&
             (!in || write_all(fd, in->data, (size_t)in->w * (size_t)in->h * (size_t)in->c));
  if (!done || lseek(fd, 0, SEEK_SET) != 0)
    st = ts_fail(err, TS_ERR_IO, "%s: cannot hand the work to a worker process: %s", what,
                 strerror(errno));
  ts_blob_free(&req);
  char *argv[] = { (char *)exe, (char *)"__plain-worker", NULL };
  if (st == TS_OK)
    st = ts_isolate_exec_start(what, argv, fd, timeout_s, h, err);
  if (fd >= 0)
    close(fd); /* (the worker has its own) */
  return st;
}

/* ---- the job, where it runs and in a process of its own ---- */

ts_status ts_plain_job_do(const ts_plain_request *q, const ts_plain_desc *d, const ts_image *in,
                          ts_blob *out, ts_error *err)
{
  ts_status st;
  if (q->job == TS_JOB_PARSE) {
    setenv("LIBCLANG_NOTHREADS", "1", 1); /* libclang on this thread: a forked child had
                                           * better start none */
    ts_plain_src src;
    st = ts_plain_parse(d->path, d->text, d->len, d->options, 0, &src, err);
    if (st == TS_OK) {
      src.source = NULL;
      ts_blob_put(out, &src, sizeof src);
    }
    return st;
  }
  ts_cl *cl = NULL;
  ts_plain_result *r = NULL;
  /* What the kernel prints (printf) is kept with the result, so that the caller prints the
   * run it shows once, where it belongs (this process's standard output is its own). */
  fflush(stdout);
  int saved = dup(1), cap = memfd_create("tilescope-printf", MFD_CLOEXEC);
  if (saved >= 0 && cap >= 0)
    dup2(cap, 1);
  st = ts_cl_create(q->device, q->kernels_dir[0] ? q->kernels_dir : NULL, &cl, err);
  if (st == TS_OK)
    st = ts_plain_run(cl, d, in, &q->opts, &r, err);
  fflush(stdout);
  if (saved >= 0 && cap >= 0) {
    dup2(saved, 1);
    off_t n = lseek(cap, 0, SEEK_END);
    if (r && n > 0 && (r->printed = malloc((size_t)n)) != NULL &&
        pread(cap, r->printed, (size_t)n, 0) == n)
      r->printed_bytes = (size_t)n;
  }
  if (saved >= 0)
    close(saved);
  if (cap >= 0)
    close(cap);
  if (st == TS_OK)
    ts_plain_result_pack(r, out);
  ts_plain_result_free(r);
  ts_cl_destroy(cl);
  return st;
}

typedef struct job {
  const ts_plain_request *q;
  const ts_plain_desc *d;
  const ts_image *in;
} job;

static ts_status job_in_child(void *arg, ts_blob *out, ts_error *err)
{
  const job *j = arg;
  return ts_plain_job_do(j->q, j->d, j->in, out, err);
}

static ts_status job_start(const char *what, const ts_plain_request *q, const ts_plain_desc *d,
                           const ts_image *in, double timeout_s, ts_isolated *h, ts_error *err)
{
  const char *exe = ts_isolate_program_if_threaded();
  if (exe)
    return spawn_start(exe, what, q, d, in, timeout_s, h, err);
  /* libclang loaded here, once, for every child forked after: each child's parse or
   * rewrite would otherwise load it again (about 0.1 s each); a failure is the child's to
   * report, in its own words */
  ts_error ignored = { 0 };
  (void)ts_libclang_load(&ignored);
  job j = { q, d, in }; /* (the child has its own copy of it) */
  return ts_isolate_start(what, job_in_child, &j, timeout_s, h, err);
}

ts_status ts_plain_job_isolated(const char *what, const ts_plain_request *q, const ts_plain_desc *d,
                                const ts_image *in, double timeout_s, ts_blob *res, ts_error *err)
{
  ts_isolated h;
  memset(res, 0, sizeof *res);
  ts_status st = job_start(what, q, d, in, timeout_s, &h, err);
  return st == TS_OK ? ts_isolate_finish(&h, res, err) : st;
}

ts_status ts_plain_run_start(int device, const char *kernels_dir, const ts_plain_desc *d,
                             const ts_image *in, const ts_plain_opts *o, double timeout_s,
                             ts_isolated *h, ts_error *err)
{
  const char *base = strrchr(d->path, '/') ? strrchr(d->path, '/') + 1 : d->path;
  char what[1100];
  snprintf(what, sizeof what, "%.1000s, %s", base, o->observe ? "observed" : "run plain");
  ts_plain_request q = { .job = TS_JOB_RUN, .device = device, .opts = *o };
  snprintf(q.kernels_dir, sizeof q.kernels_dir, "%s", kernels_dir ? kernels_dir : "");
  return job_start(what, &q, d, in, timeout_s, h, err);
}

ts_status ts_plain_run_finish(ts_isolated *h, ts_plain_result **out, ts_error *err)
{
  ts_blob b = { 0 };
  ts_status st = ts_isolate_finish(h, &b, err);
  if (st == TS_OK)
    st = ts_plain_result_unpack(&b, out, err);
  ts_blob_free(&b);
  return st;
}

ts_status ts_plain_run_isolated(int device, const char *kernels_dir, const ts_plain_desc *d,
                                const ts_image *in, const ts_plain_opts *o, double timeout_s,
                                ts_plain_result **out, ts_error *err)
{
  ts_isolated h;
  ts_status st = ts_plain_run_start(device, kernels_dir, d, in, o, timeout_s, &h, err);
  return st == TS_OK ? ts_plain_run_finish(&h, out, err) : st;
}

static double now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The turns: each child writes a byte when it wants a turn (which ends the turn it held) and
 * waits for one back; a child that has ended its launches closes its end. The turn goes to
 * the other child, waited for while it still runs (it may be building), else back. */
static ts_status relay_turns(const char *path, ts_isolated *h, const int *fd, double timeout_s,
                             ts_error *err)
{
  int wants[2] = { 0, 0 }, ended[2] = { 0, 0 }, holder = -1, last = 1;
  double deadline = timeout_s > 0 ? now_s() + timeout_s : 0;
  while (!ended[0] || !ended[1]) {
    if (holder < 0) {
      int next = ended[1 - last] ? last : 1 - last;
      if (wants[next]) {
        if (send(fd[next], "", 1, MSG_NOSIGNAL) != 1) {
          ended[next] = 1; /* (gone: its own finish says how) */
        } else {
          wants[next] = 0;
          holder = last = next;
        }
        continue;
      }
    }
    int ms = -1;
    if (deadline > 0) {
      double left = deadline - now_s();
      if (left <= 0)
        return ts_fail(err, TS_ERR_STALLED, "%s: did not finish in %g s; the watchdog stopped "
                       "it (--timeout)", h[holder >= 0 ? holder : !ended[0] ? 0 : 1].what,
                       timeout_s);
      ms = left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
    }
    struct pollfd p[2] = { { ended[0] ? -1 : fd[0], POLLIN, 0 },
                           { ended[1] ? -1 : fd[1], POLLIN, 0 } };
    if (poll(p, 2, ms) < 0 && errno != EINTR)
      return ts_fail(err, TS_ERR_IO, "%s: poll: %s", path, strerror(errno));
    for (int i = 0; i < 2; i++) {
      if (ended[i] || !p[i].revents)
        continue;
      char c;
      ssize_t n = recv(fd[i], &c, 1, 0);
      if (n < 0 && errno == EINTR)
        continue;
      if (n == 1)
        wants[i] = 1;
      else
        ended[i] = 1;
      if (holder == i)
        holder = -1;
    }
  }
  return TS_OK;
}

ts_status ts_plain_run_turns(int device, const char *kernels_dir, const ts_plain_desc *d,
                             const ts_image *in, const ts_plain_opts *oa,
                             const ts_plain_opts *ob, double timeout_s, ts_plain_result **ra,
                             ts_plain_result **rb, ts_error *err)
{
  *ra = *rb = NULL;
  if (ts_isolate_program_if_threaded()) { /* (no descriptor reaches an exec'd child) */
    ts_status st = ts_plain_run_isolated(device, kernels_dir, d, in, oa, timeout_s, ra, err);
    return st == TS_OK ? ts_plain_run_isolated(device, kernels_dir, d, in, ob, timeout_s, rb,
                                                err)
                       : st;
  }
  const ts_plain_opts *o[2] = { oa, ob };
  ts_plain_result **res[2] = { ra, rb };
  ts_isolated h[2] = { { .pid = 0 }, { .pid = 0 } };
  int fd[2] = { -1, -1 }, started = 0;
  ts_status st = TS_OK;
  for (; st == TS_OK && started < 2; started++) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
      st = ts_fail(err, TS_ERR_IO, "%s: socketpair: %s", d->path, strerror(errno));
      break;
    }
    ts_plain_opts t = *o[started];
    t.turn_fd = sv[0];
    st = ts_plain_run_start(device, kernels_dir, d, in, &t, timeout_s, &h[started], err);
    close(sv[0]);
    fd[started] = sv[1];
    if (st != TS_OK)
      break;
  }
  if (st == TS_OK)
    st = relay_turns(d->path, h, fd, timeout_s, err);
  for (int i = 0; i < 2; i++) {
    if (fd[i] >= 0)
      close(fd[i]);
    if (i < started && st == TS_OK)
      st = ts_plain_run_finish(&h[i], res[i], err);
    else if (i < started)
      ts_isolate_cancel(&h[i]);
  }
  return st;
}
