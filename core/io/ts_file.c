/* Capped whole-file reads and atomic (temporary file + rename) writes. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ts_file.h"

static char *dup_str(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

/* The temporary files being written, for ts_outfile_interrupted. The core's one piece of
 * process-wide state: a signal handler has no other way to find them. Slots are claimed and
 * released atomically, so outputs may be written from several threads. */
enum { MAX_LIVE = 16 };
static char *_Atomic live[MAX_LIVE];

static int live_add(char *tmp)
{
  for (int i = 0; i < MAX_LIVE; i++) {
    char *expected = NULL;
    if (atomic_compare_exchange_strong(&live[i], &expected, tmp))
      return i;
  }
  return -1; /* all taken: this one is still removed on every failure, only not on a signal */
}

static void live_drop(ts_outfile *o)
{
  if (o->slot >= 0)
    atomic_store(&live[o->slot], NULL);
  o->slot = -1;
}

/* Outputs written and closed, waiting to be renamed together (ts_outset): the arrays are
 * sized once, and n counts the temporaries the handler may read, each stored before n grows. */
struct ts_outset {
  char **tmp, **path;
  atomic_int n;
  int cap, slot;
};
enum { MAX_SETS = 4 };
static ts_outset *_Atomic live_sets[MAX_SETS];

/* Sets of outputs being renamed into place (ts_outfile_commit_all), and a signal that came
 * meanwhile, raised again once they are all in place. */
static atomic_int committing, held_signal;

int ts_outfile_interrupted(int sig)
{
  atomic_store(&held_signal, sig);
  if (atomic_load(&committing) > 0)
    return 0;
  for (int i = 0; i < MAX_LIVE; i++) {
    char *p = atomic_load(&live[i]);
    if (p)
      unlink(p);
  }
  for (int i = 0; i < MAX_SETS; i++) {
    ts_outset *s = atomic_load(&live_sets[i]);
    for (int k = 0, n = s ? atomic_load(&s->n) : 0; k < n; k++)
      if (s->tmp[k])
        unlink(s->tmp[k]);
  }
  return 1;
}

ts_status ts_outfile_open(ts_outfile *o, const char *path, ts_error *err)
{
  memset(o, 0, sizeof *o);
  o->slot = -1;
  if (!path || !*path)
    return ts_fail(err, TS_ERR_ARG, "empty output path");
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return ts_fail(err, TS_ERR_IO, "cannot write '%s': it is a directory", path);
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    o->f = fopen(path, "wb");
    o->path = dup_str(path);
    if (!o->f || !o->path) {
      int e = errno;
      ts_outfile_abort(o);
      return ts_fail(err, TS_ERR_IO, "cannot write '%s': %s", path, strerror(e));
    }
    return TS_OK;
  }
  /* a symbolic link: the file it names is the one replaced, and the link stays */
  struct stat lst;
  char *resolved = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) ? realpath(path, NULL) : NULL;
  const char *target = resolved ? resolved : path;
  size_t n = strlen(target);
  o->path = dup_str(target);
  o->tmp = malloc(n + 16);
  free(resolved);
  if (!o->path || !o->tmp) {
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
    o->slot = -1;
    return ts_fail(err, TS_ERR_NOMEM, "%s: out of memory", path);
  }
  /* the temporary beside it, NAME.tmp-XXXXXX; .tmp-XXXXXX in its folder where NAME is too
   * long to take the suffix (a name has at most 255 bytes) */
  const char *slash = strrchr(o->path, '/');
  size_t dir = slash ? (size_t)(slash - o->path) + 1 : 0;
  if (n - dir > 255) { /* refused now, not at the rename after the writing */
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
    o->slot = -1;
    return ts_fail(err, TS_ERR_IO, "cannot write '%s': %s", path, strerror(ENAMETOOLONG));
  }
  if (n - dir + 11 > 255)
    n = dir;
  memcpy(o->tmp, o->path, n);
  memcpy(o->tmp + n, ".tmp-XXXXXX", 12);
  /* the interrupting signals held from the file's creation to its registration, so that
   * one that comes between them still finds it to remove (ts_outfile_interrupted) */
  sigset_t stop, old;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop, &old);
  int fd = mkstemp(o->tmp);
  if (fd >= 0)
    o->slot = live_add(o->tmp);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (fd < 0) {
    int e = errno;
    free(o->tmp);
    o->tmp = NULL;
    ts_outfile_abort(o);
    return ts_fail(err, TS_ERR_IO, "cannot write '%s': %s", path, strerror(e));
  }
  /* mkstemp creates 0600; give the file the permissions a plain fopen would. */
  mode_t mask = umask(0);
  umask(mask);
  (void)fchmod(fd, 0666 & ~mask);
  o->f = fdopen(fd, "wb");
  if (!o->f) {
    int e = errno;
    close(fd);
    ts_outfile_abort(o);
    return ts_fail(err, TS_ERR_IO, "cannot write '%s': %s", path, strerror(e));
  }
  return TS_OK;
}

/* Flushes and closes o's stream: 1, with errno's value in why, when a write failed. */
static int close_out(ts_outfile *o, int *why)
{
  int bad = ferror(o->f) || fflush(o->f) != 0;
  *why = errno;
  if (fclose(o->f) != 0 && !bad) {
    bad = 1;
    *why = errno;
  }
  o->f = NULL;
  return bad;
}

ts_status ts_outfile_commit(ts_outfile *o, ts_error *err)
{
  return ts_outfile_commit_all(o, 1, err);
}

ts_status ts_outfile_commit_all(ts_outfile *o, int n, ts_error *err)
{
  /* every file written whole before any is renamed */
  int failed = -1, e = 0;
  for (int i = 0; i < n; i++) {
    int why, bad = close_out(&o[i], &why);
    if (bad && failed < 0) {
      failed = i;
      e = why;
    }
  }
  atomic_fetch_add(&committing, 1);
  for (int i = 0; failed < 0 && i < n; i++) {
    if (o[i].tmp && rename(o[i].tmp, o[i].path) != 0) {
      failed = i;
      e = errno;
    }
  }
  ts_status st = TS_OK;
  if (failed >= 0)
    st = ts_fail(err, TS_ERR_IO, "cannot write '%s': %s", o[failed].path, strerror(e));
  for (int i = 0; i < n; i++) {
    if (st == TS_OK) {
      live_drop(&o[i]);
      free(o[i].tmp);
      free(o[i].path);
      o[i].tmp = o[i].path = NULL;
    } else {
      ts_outfile_abort(&o[i]);
    }
  }
  if (atomic_fetch_sub(&committing, 1) == 1) {
    int sig = atomic_exchange(&held_signal, 0);
    if (sig)
      raise(sig);
  }
  return st;
}

void ts_outfile_abort(ts_outfile *o)
{
  if (o->f)
    fclose(o->f);
  if (o->tmp)
    remove(o->tmp);
  live_drop(o); /* after the removal: a signal in between finds the file already gone */
  free(o->tmp);
  free(o->path);
  memset(o, 0, sizeof *o);
  o->slot = -1; /* no registration: a second abort must not clear slot 0's */
}

ts_outset *ts_outset_create(int cap, ts_error *err)
{
  ts_outset *s = calloc(1, sizeof *s);
  if (s && cap > 0) {
    s->tmp = calloc((size_t)cap, sizeof *s->tmp);
    s->path = calloc((size_t)cap, sizeof *s->path);
  }
  if (!s || cap < 1 || !s->tmp || !s->path) {
    if (s) {
      free(s->tmp);
      free(s->path);
    }
    free(s);
    ts_fail(err, TS_ERR_NOMEM, "out of memory for %d outputs", cap);
    return NULL;
  }
  s->cap = cap;
  s->slot = -1; /* none free: the set is still removed on every failure, not on a signal */
  for (int i = 0; i < MAX_SETS && s->slot < 0; i++) {
    ts_outset *expected = NULL;
    if (atomic_compare_exchange_strong(&live_sets[i], &expected, s))
      s->slot = i;
  }
  return s;
}

ts_status ts_outset_add(ts_outset *s, ts_outfile *o, ts_error *err)
{
  int n = atomic_load(&s->n), why;
  if (n == s->cap) {
    ts_outfile_abort(o);
    return ts_fail(err, TS_ERR_ARG, "more than %d outputs in a set", s->cap);
  }
  if (close_out(o, &why)) {
    ts_status st = ts_fail(err, TS_ERR_IO, "cannot write '%s': %s", o->path, strerror(why));
    ts_outfile_abort(o);
    return st;
  }
  s->tmp[n] = o->tmp;
  s->path[n] = o->path;
  atomic_store(&s->n, n + 1);
  live_drop(o); /* after it joined the set: a signal in between finds it in one or both */
  memset(o, 0, sizeof *o);
  o->slot = -1;
  return TS_OK;
}

/* Removes the set's temporary files from the first on, unregisters and frees it. */
static void outset_free(ts_outset *s, int first)
{
  int n = atomic_load(&s->n);
  for (int i = first; i < n; i++)
    if (s->tmp[i])
      remove(s->tmp[i]);
  if (s->slot >= 0)
    atomic_store(&live_sets[s->slot], NULL); /* after the removals, as in ts_outfile_abort */
  for (int i = 0; i < n; i++) {
    free(s->tmp[i]);
    free(s->path[i]);
  }
  free(s->tmp);
  free(s->path);
  free(s);
}

ts_status ts_outset_commit(ts_outset *s, ts_error *err)
{
  int n = atomic_load(&s->n);
  /* every target checked before any is renamed: a rename refused later is only a target
   * made a directory meanwhile (too long a name was refused by ts_outfile_open) */
  struct stat st;
  for (int i = 0; i < n; i++) {
    if (s->tmp[i] && stat(s->path[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      ts_fail(err, TS_ERR_IO, "cannot write '%s': it is a directory", s->path[i]);
      outset_free(s, 0);
      return TS_ERR_IO;
    }
  }
  atomic_fetch_add(&committing, 1);
  int done = 0;
  for (; done < n; done++) {
    if (s->tmp[done] && rename(s->tmp[done], s->path[done]) != 0) {
      ts_fail(err, TS_ERR_IO, "cannot write '%s': %s", s->path[done], strerror(errno));
      break;
    }
  }
  outset_free(s, done);
  if (atomic_fetch_sub(&committing, 1) == 1) {
    int sig = atomic_exchange(&held_signal, 0);
    if (sig)
      raise(sig);
  }
  return done == n ? TS_OK : TS_ERR_IO;
}

void ts_outset_abort(ts_outset *s)
{
  if (s)
    outset_free(s, 0);
}

ts_status ts_file_read_all(const char *path, size_t max_bytes, uint8_t **data, size_t *len,
                           ts_error *err)
{
  /* Opened without waiting (a FIFO would block an open for reading until a writer came),
   * and refused unless it is a regular file, before anything is read. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return ts_fail(err, TS_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
  struct stat st;
  int stat_ok = fstat(fd, &st) == 0;
  if (!stat_ok || !S_ISREG(st.st_mode)) {
    close(fd);
    return ts_fail(err, TS_ERR_IO, "cannot read '%s': %s", path,
                   stat_ok && S_ISDIR(st.st_mode) ? "it is a directory" : "not a regular file");
  }
  int fl = fcntl(fd, F_GETFL);
  FILE *f = fl >= 0 && fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
  if (!f) {
    close(fd);
    return ts_fail(err, TS_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
  }
  if ((unsigned long long)st.st_size > max_bytes) {
    fclose(f);
    return ts_fail(err, TS_ERR_TOO_LARGE, "'%s' is larger than %zu bytes", path, max_bytes);
  }
  size_t n = (size_t)st.st_size;
  uint8_t *buf = malloc(n ? n : 1);
  if (!buf) {
    fclose(f);
    return ts_fail(err, TS_ERR_NOMEM, "'%s': out of memory", path);
  }
  size_t got = fread(buf, 1, n, f);
  int bad = ferror(f);
  fclose(f);
  if (bad || got != n) {
    free(buf);
    return ts_fail(err, TS_ERR_IO, "cannot read '%s'", path);
  }
  *data = buf;
  *len = n;
  return TS_OK;
}

int64_t ts_mtime_ns(const struct stat *st)
{
  return (int64_t)st->st_mtim.tv_sec * 1000000000 + (int64_t)st->st_mtim.tv_nsec;
}

/* Bytes of a UTF-8 sequence starting at s (1 to 4), or 0 when it is not valid UTF-8. */
static int utf8_len(const unsigned char *s)
{
  int n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
          : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
  for (int i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (n == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
      (n == 4 && s[0] == 0xf0 && s[1] < 0x90) || (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))
    return 0; /* overlong, a surrogate, or past U+10FFFF */
  return n;
}

void ts_json_string(FILE *f, const char *s)
{
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    if (*p == '"' || *p == '\\') {
      fprintf(f, "\\%c", *p++);
    } else if (*p < 0x20 || *p == 0x7f) {
      fprintf(f, "\\u%04x", *p++);
    } else if (*p < 0x80) {
      fputc(*p++, f);
    } else {
      int n = utf8_len(p);
      if (n) {
        fwrite(p, 1, (size_t)n, f);
        p += n;
      } else {
        fputs("\\ufffd", f);
        p++;
      }
    }
  }
  fputc('"', f);
}
