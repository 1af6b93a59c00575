/* Work in a child process with a watchdog (see ts_isolate.h). The child writes one message
 * to the pipe: its status, its error line, the result's length and the result; then it
 * exits without running the parent's exit handlers. The parent reads with a deadline, kills
 * the child when the deadline passes, and reaps it. */
#define _GNU_SOURCE /* prctl, F_DUPFD_CLOEXEC */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ts_isolate.h"

/* Room for n more bytes: doubled as it grows, or exactly n more where `exact`. */
static int room(ts_blob *b, size_t n, int exact)
{
  if (b->oom || n > SIZE_MAX / 2 - b->n) {
    b->oom = 1;
    return 0;
  }
  if (b->n + n <= b->cap)
    return 1;
  size_t cap = exact ? b->n + n : b->cap ? b->cap : 4096;
  while (cap < b->n + n)
    cap *= 2;
  uint8_t *q = realloc(b->p, cap);
  if (!q) {
    b->oom = 1;
    return 0;
  }
  ts_alloc_huge(q + b->n, cap - b->n); /* (the part not written yet) */
  b->p = q;
  b->cap = cap;
  return 1;
}

void ts_blob_reserve(ts_blob *b, size_t n)
{
  room(b, n, 1);
}

void ts_blob_put(ts_blob *b, const void *p, size_t n)
{
  if (n == 0 || !room(b, n, 0))
    return;
  memcpy(b->p + b->n, p, n);
  b->n += n;
}

void ts_blob_free(ts_blob *b)
{
  free(b->p);
  memset(b, 0, sizeof *b);
}

int ts_blob_get(const ts_blob *b, size_t *at, void *p, size_t n)
{
  if (*at > b->n || n > b->n - *at)
    return 0;
  memcpy(p, b->p + *at, n);
  *at += n;
  return 1;
}

static int write_all(int fd, const void *p, size_t n)
{
  const uint8_t *q = p;
  while (n) {
    ssize_t w = write(fd, q, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return 0;
    q += w;
    n -= (size_t)w;
  }
  return 1;
}

static double now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int ts_isolate_reply(int fd, ts_status status, const ts_error *e, const ts_blob *out)
{
  int32_t st = (int32_t)status;
  char msg[sizeof e->msg];
  snprintf(msg, sizeof msg, "%s", e->msg);
  if (st == TS_OK && out->oom) {
    st = TS_ERR_NOMEM;
    snprintf(msg, sizeof msg, "out of memory for the result");
  }
  uint64_t len = st == TS_OK ? out->n : 0;
  return write_all(fd, &st, sizeof st) && write_all(fd, msg, sizeof msg) &&
         write_all(fd, &len, sizeof len) && write_all(fd, out->p, (size_t)len);
}

/* The parent's side: reads the child's message from fd within the deadline, kills the child
 * when the deadline passes, reaps it, and turns what happened into a status. */
static ts_status collect(const char *what, pid_t pid, int fd, double timeout_s, ts_blob *result,
                         ts_error *err)
{
  /* read the message, within the deadline: its header (status, error line, length) into
   * hdr, then the result straight into a blob of that length, not grown as it comes: a 4K
   * run's result is some 50 MB */
  int32_t st = 0;
  char msg[sizeof err->msg];
  uint64_t len = 0;
  uint8_t hdr[sizeof st + sizeof msg + sizeof len];
  size_t got_hdr = 0;
  ts_blob in = { 0 };
  int extra = 0; /* bytes past the length it gave */
  double deadline = timeout_s > 0 ? now_s() + timeout_s : 0;
  int timed_out = 0;
  for (;;) {
    int ms = -1;
    if (deadline > 0) {
      double left = deadline - now_s();
      if (left <= 0) {
        timed_out = 1;
        break;
      }
      ms = left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
    }
    struct pollfd p = { fd, POLLIN, 0 };
    int r = poll(&p, 1, ms);
    if (r < 0 && errno == EINTR)
      continue;
    if (r == 0)
      continue; /* the deadline is checked above */
    uint8_t spill[4096];
    uint8_t *to = spill;
    size_t want = sizeof spill;
    if (got_hdr < sizeof hdr) {
      to = hdr + got_hdr;
      want = sizeof hdr - got_hdr;
    } else if (!in.oom && in.n < len) {
      to = in.p + in.n;
      want = len - in.n;
    }
    ssize_t got = read(fd, to, want);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    if (got_hdr < sizeof hdr) {
      got_hdr += (size_t)got;
      if (got_hdr == sizeof hdr) {
        memcpy(&len, hdr + sizeof st + sizeof msg, sizeof len);
        if (len > 0 && len <= SIZE_MAX / 2)
          ts_blob_reserve(&in, (size_t)len);
        else if (len > 0)
          in.oom = 1;
      }
    } else if (to != spill) {
      in.n += (size_t)got;
    } else {
      extra = 1; /* (read to the end all the same: the child may be blocked writing) */
    }
  }
  close(fd);
  if (timed_out)
    kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (timed_out) {
    ts_blob_free(&in);
    return ts_fail(err, TS_ERR_STALLED,
                   "%s: did not finish in %g s; the watchdog stopped it (--timeout)", what,
                   timeout_s);
  }
  if (WIFSIGNALED(status)) {
    ts_blob_free(&in);
    int sig = WTERMSIG(status);
    return ts_fail(err, TS_ERR_DEVICE,
                   "%s: crashed (signal %d, %s) in a process of its own; tilescope goes on",
                   what, sig, sig == SIGSEGV ? "SIGSEGV: a memory access outside what it owns"
                              : sig == SIGABRT ? "SIGABRT: the runtime gave up"
                              : sig == SIGBUS  ? "SIGBUS"
                              : sig == SIGKILL ? "SIGKILL: out of memory?"
                                               : "a signal");
  }
  if (got_hdr < sizeof hdr || in.oom || extra || in.n != len) {
    ts_blob_free(&in);
    return ts_fail(err, TS_ERR_DEVICE, "%s: ended without a result (exit status %d)", what,
                   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  memcpy(&st, hdr, sizeof st);
  memcpy(msg, hdr + sizeof st, sizeof msg);
  msg[sizeof msg - 1] = 0;
  if (st != TS_OK) {
    ts_blob_free(&in);
    return ts_fail(err, st > 0 && st < TS_STATUS_COUNT ? (ts_status)st : TS_ERR_DEVICE, "%s",
                   msg);
  }
  *result = in;
  return TS_OK;
}


/* In a child just forked from `parent`: SIGKILL when the parent dies, and at once where it
 * died already (async-signal-safe). */
static void die_with_parent(pid_t parent)
{
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent)
    _exit(1);
}

/* A child with a pipe back to this process: *pid is 0 in the child (fds[1] its end), the
 * child's pid in the parent (fds[0] its end). */
static ts_status start_child(const char *what, int fds[2], pid_t *pid, ts_error *err)
{
  if (pipe2(fds, O_CLOEXEC) != 0) /* another thread's exec takes neither end along */
    return ts_fail(err, TS_ERR_IO, "%s: cannot make a pipe: %s", what, strerror(errno));
  /* a result of tens of MB in 1 MiB steps rather than the default 64 KiB: fewer switches
   * between the two processes (a hint: the system's limit may refuse it) */
  fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
  fflush(stdout);
  fflush(stderr);
  pid_t parent = getpid();
  *pid = fork();
  if (*pid == 0)
    die_with_parent(parent);
  if (*pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return ts_fail(err, TS_ERR_IO, "%s: cannot start a process: %s", what, strerror(errno));
  }
  close(fds[*pid == 0 ? 0 : 1]);
  return TS_OK;
}

/* The parent's hold on a child it started: collected or killed later. */
static void hold(ts_isolated *h, const char *what, pid_t pid, int fd, double timeout_s)
{
  h->pid = pid;
  h->fd = fd;
  h->timeout_s = timeout_s;
  snprintf(h->what, sizeof h->what, "%s", what);
}

void ts_isolate_child_signals(void)
{
  static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
  for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
    signal(faults[i], SIG_DFL);
}

ts_status ts_isolate_start(const char *what, ts_isolated_fn fn, void *arg, double timeout_s,
                           ts_isolated *h, ts_error *err)
{
  memset(h, 0, sizeof *h);
  int fds[2];
  pid_t pid;
  ts_status st0 = start_child(what, fds, &pid, err);
  if (st0 != TS_OK)
    return st0;
  if (pid == 0) {
    ts_isolate_child_signals();
    dup2(2, 1); /* what the kernel prints goes to stderr, not into this command's output */
    ts_blob out = { 0 };
    ts_error e = { 0 };
    ts_status st = fn(arg, &out, &e);
    int ok = ts_isolate_reply(fds[1], st, &e, &out);
    fflush(stdout);
    fflush(stderr);
    _exit(ok ? 0 : 3);
  }
  hold(h, what, pid, fds[0], timeout_s);
  return TS_OK;
}

ts_status ts_isolate_finish(ts_isolated *h, ts_blob *result, ts_error *err)
{
  memset(result, 0, sizeof *result);
  ts_status st = collect(h->what, h->pid, h->fd, h->timeout_s, result, err);
  h->pid = 0;
  return st;
}

void ts_isolate_cancel(ts_isolated *h)
{
  if (h->pid <= 0)
    return;
  kill(h->pid, SIGKILL);
  close(h->fd);
  while (waitpid(h->pid, NULL, 0) < 0 && errno == EINTR)
    ;
  h->pid = 0;
}

/* This process's environment with glibc's malloc told to ask for 2 MiB pages for its large
 * blocks (GLIBC_TUNABLES, glibc.malloc.hugetlb=1; another C library ignores it), for the
 * worker's program: the OpenCL runtime's buffers and the copies of a 4K image there would
 * otherwise fault in 4 KiB at a time, which costs seconds on a virtual machine (see
 * ts_alloc_huge). A tunable already given is kept. NULL when out of memory: the
 * environment as it is. free(env[0]) then free(env) release it. */
static char **worker_environment(void)
{
  extern char **environ;
  static const char key[] = "GLIBC_TUNABLES=", ours[] = "glibc.malloc.hugetlb=1";
  size_t n = 0;
  const char *old = "";
  for (; environ && environ[n]; n++)
    if (strncmp(environ[n], key, sizeof key - 1) == 0)
      old = environ[n] + sizeof key - 1;
  if (strstr(old, "glibc.malloc.hugetlb="))
    return NULL;
  size_t len = sizeof key + strlen(old) + 1 + sizeof ours;
  char **env = malloc((n + 2) * sizeof *env), *t = malloc(len);
  if (!env || !t) {
    free(env);
    free(t);
    return NULL;
  }
  snprintf(t, len, "%s%s%s%s", key, old, *old ? ":" : "", ours);
  size_t k = 0;
  env[k++] = t;
  for (size_t i = 0; i < n; i++)
    if (strncmp(environ[i], key, sizeof key - 1) != 0)
      env[k++] = environ[i];
  env[k] = NULL;
  return env;
}

ts_status ts_isolate_exec_start(const char *what, char *const argv[], int request_fd,
                                double timeout_s, ts_isolated *h, ts_error *err)
{
  memset(h, 0, sizeof *h);
  int fds[2];
  pid_t pid;
  char **env = worker_environment(); /* made before the fork: the child may not allocate */
  ts_status st0 = start_child(what, fds, &pid, err);
  if (st0 != TS_OK || pid != 0) {
    if (env)
      free(env[0]);
    free(env);
  }
  if (st0 != TS_OK)
    return st0;
  if (pid == 0) {
    /* only async-signal-safe calls between fork and exec: the parent may have threads. The
     * pipe and the request first out of the way of fds 3 and 4 (closed at the exec). */
    int reply = fcntl(fds[1], F_DUPFD_CLOEXEC, 10), req = fcntl(request_fd, F_DUPFD_CLOEXEC, 10);
    if (reply < 0 || req < 0 || dup2(req, 3) < 0 || dup2(reply, TS_ISOLATE_REPLY_FD) < 0 ||
        dup2(2, 1) < 0)
      _exit(127);
    if (env)
      execve(argv[0], argv, env);
    else
      execv(argv[0], argv);
    _exit(127);
  }
  hold(h, what, pid, fds[0], timeout_s);
  return TS_OK;
}

static char program[4096];

void ts_isolate_set_program(const char *exe)
{
  snprintf(program, sizeof program, "%s", exe ? exe : "");
}

/* The number of this process's threads (from /proc), 0 where it cannot be read. */
static int threads(void)
{
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  int n = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "Threads: %d", &n) == 1)
      break;
  if (f)
    fclose(f);
  return n;
}

const char *ts_isolate_program(void)
{
  return program[0] ? program : NULL;
}

const char *ts_isolate_program_if_threaded(void)
{
  return program[0] && threads() != 1 ? program : NULL;
}

/* ---- a whole command under a supervisor ---- */

static volatile pid_t supervised;

static void forward(int sig)
{
  if (supervised > 0)
    kill(supervised, sig);
}

/* The crash's signal in words. */
static const char *signal_words(int sig)
{
  return sig == SIGSEGV   ? "SIGSEGV: a memory access outside what it owns, such as a kernel "
                            "writing past its buffer"
         : sig == SIGBUS  ? "SIGBUS: a memory access the machine refused"
         : sig == SIGABRT ? "SIGABRT: the runtime or the C library gave up, as on a corrupted heap"
         : sig == SIGKILL ? "SIGKILL: out of memory?"
         : sig == SIGFPE  ? "SIGFPE: an arithmetic fault"
         : sig == SIGILL  ? "SIGILL: an illegal instruction"
                          : "a signal";
}

int ts_supervise(const char *what, double timeout_s, int *code)
{
  fflush(stdout);
  fflush(stderr);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0)
    die_with_parent(parent);
  if (pid <= 0)
    return 1; /* the child goes on (and where fork fails, this process does, unwatched) */
  supervised = pid;
  static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
  struct sigaction sa, old[3];
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = forward;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int i = 0; i < 3; i++)
    sigaction(sigs[i], &sa, &old[i]);
  double deadline = timeout_s > 0 ? now_s() + timeout_s : 0;
  int status = 0, timed_out = 0;
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid)
      break;
    if (r < 0 && errno != EINTR) {
      status = 0;
      break;
    }
    if (deadline > 0 && now_s() >= deadline) {
      /* SIGTERM first, which the command's handler answers by removing its temporary
       * outputs (ts_outfile_interrupted); SIGKILL if it has not ended 2 s later */
      timed_out = 1;
      kill(pid, SIGTERM);
      double grace = now_s() + 2;
      while ((r = waitpid(pid, &status, WNOHANG)) == 0 && now_s() < grace) {
        struct timespec ts = { 0, 5 * 1000 * 1000 };
        nanosleep(&ts, NULL);
      }
      if (r != pid) {
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
          ;
      }
      break;
    }
    struct timespec ts = { 0, 5 * 1000 * 1000 };
    nanosleep(&ts, NULL);
  }
  for (int i = 0; i < 3; i++)
    sigaction(sigs[i], &old[i], NULL);
  supervised = 0;
  if (timed_out) {
    fprintf(stderr, "tilescope %s: did not finish in %g s; the watchdog stopped it (--timeout S)\n",
            what, timeout_s);
    *code = 1;
    return 0;
  }
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
      signal(sig, SIG_DFL); /* stopped from outside: end as the child did */
      raise(sig);
    }
    fprintf(stderr, "tilescope %s: crashed (signal %d, %s)\n", what, sig, signal_words(sig));
    *code = 1;
    return 0;
  }
  *code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  return 0;
}
