/* The deterministic smoke run shared by the text fuzz targets (see fuzz_smoke.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_smoke.h"
#include "ts_file.h"

static int real_stderr = 2; /* stderr before the smoke run sends it to /dev/null */
static const char *current = "", *target = "";
static const uint8_t *current_data; /* the smoke run's input, kept when an invariant breaks */
static size_t current_len;

void fuzz_fail(const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  dprintf(real_stderr, "fuzz invariant broken%s%s: %s\n", *current ? " by " : "", current, msg);
  if (current_data) {
    char path[256];
    snprintf(path, sizeof path, "%s-failure.bin", target);
    FILE *f = fopen(path, "wb");
    if (f && fwrite(current_data, 1, current_len, f) == current_len && fclose(f) == 0)
      dprintf(real_stderr, "the input is in %s\n", path);
  }
  abort();
}

#ifndef TS_FUZZ_LIBFUZZER
enum { MAX_FILES = 256, MAX_INPUT = 1 << 16 };

static uint64_t rng = 0x243F6A8885A308D3ull;

static uint32_t next(uint32_t n)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return n ? (uint32_t)(rng % n) : 0;
}

typedef struct blob {
  uint8_t *data;
  size_t len;
  char name[512];
} blob;

static int by_name(const void *a, const void *b)
{
  return strcmp(((const blob *)a)->name, ((const blob *)b)->name);
}

/* Every regular file of dir, in name order (readdir's order is the file system's). */
static int load_corpus(const char *dir, blob *files, int max)
{
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < max) {
    if (e->d_name[0] == '.')
      continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (ts_file_read_all(path, MAX_INPUT, &files[n].data, &files[n].len, NULL) != TS_OK)
      continue;
    snprintf(files[n].name, sizeof files[n].name, "%s", e->d_name);
    n++;
  }
  closedir(d);
  qsort(files, (size_t)n, sizeof *files, by_name);
  return n;
}

/* Inserts len bytes at `at` (buf holds MAX_INPUT bytes). */
static void insert(uint8_t *buf, size_t *n, size_t at, const void *src, size_t len)
{
  if (*n + len > MAX_INPUT)
    return;
  memmove(buf + at + len, buf + at, *n - at);
  memcpy(buf + at, src, len);
  *n += len;
}

static int is_sep(const fuzz_dict *d, uint8_t c)
{
  return memchr(d->separators, c, d->sep_len) != NULL;
}

static void mutate(uint8_t *buf, size_t *n, const blob *files, int nfiles, const fuzz_dict *d)
{
  const char *tok = d->tokens[next((uint32_t)d->n)];
  switch (next(7)) {
  case 0: /* flip a few bits */
    for (int k = 0, m = 1 + (int)next(4); k < m && *n; k++)
      buf[next((uint32_t)*n)] ^= (uint8_t)(1u << next(8));
    break;
  case 1: /* cut the tail or the head */
    if (next(2))
      *n = next((uint32_t)*n + 1);
    else if (*n) {
      size_t cut = next((uint32_t)*n);
      memmove(buf, buf + cut, *n - cut);
      *n -= cut;
    }
    break;
  case 2: { /* a token inserted after a separator, with one after it */
    size_t at = next((uint32_t)*n + 1);
    while (at < *n && !is_sep(d, buf[at]))
      at++;
    uint8_t sep = (uint8_t)d->separators[next((uint32_t)d->sep_len)];
    insert(buf, n, at, &sep, 1);
    insert(buf, n, at + 1, tok, strlen(tok));
    break;
  }
  case 3: { /* a token in place of another */
    size_t at = next((uint32_t)*n + 1), end;
    while (at > 0 && !is_sep(d, buf[at - 1]))
      at--;
    for (end = at; end < *n && !is_sep(d, buf[end]); end++)
      ;
    memmove(buf + at, buf + end, *n - end);
    *n -= end - at;
    insert(buf, n, at, tok, strlen(tok));
    break;
  }
  case 4: { /* a slice repeated */
    if (!*n)
      break;
    size_t at = next((uint32_t)*n), len = 1 + next((uint32_t)(*n - at));
    uint8_t tmp[4096];
    len = len > sizeof tmp ? sizeof tmp : len;
    memcpy(tmp, buf + at, len);
    insert(buf, n, next((uint32_t)*n + 1), tmp, len);
    break;
  }
  case 5: { /* the head of this file, the tail of another */
    const blob *o = &files[next((uint32_t)nfiles)];
    size_t keep = next((uint32_t)*n + 1), from = next((uint32_t)o->len + 1);
    *n = keep;
    insert(buf, n, keep, o->data + from, o->len - from);
    break;
  }
  default: { /* odd bytes: NUL, CR, a form feed, high bytes, a long run */
    static const uint8_t odd[] = { 0, '\r', '\f', 0x7f, 0x80, 0xff, '#', '=', '-' };
    uint8_t run[300];
    size_t len = next(4) ? 1 : sizeof run;
    memset(run, odd[next(sizeof odd)], len);
    insert(buf, n, next((uint32_t)*n + 1), run, len);
    break;
  }
  }
}

int fuzz_smoke_main(int argc, char **argv, const char *name, const fuzz_dict *d)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s CORPUS_DIR [ITERATIONS]\n", name);
    return 2;
  }
  static blob files[MAX_FILES];
  int nfiles = load_corpus(argv[1], files, MAX_FILES);
  if (nfiles <= 0) {
    fprintf(stderr, "%s: no corpus in '%s'\n", name, argv[1]);
    return 2;
  }
  long iterations = argc > 2 ? strtol(argv[2], NULL, 10) : 20000;
  /* The targets report bad input on stdout and stderr, as they should: not here. */
  fflush(NULL);
  real_stderr = dup(2);
  if (real_stderr < 0 || !freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) {
    fprintf(stderr, "%s: cannot redirect output to /dev/null\n", name);
    return 2;
  }
  target = name;
  for (int i = 0; i < nfiles; i++) {
    current = files[i].name;
    current_data = files[i].data;
    current_len = files[i].len;
    LLVMFuzzerTestOneInput(files[i].data, files[i].len);
  }
  uint8_t *buf = malloc(MAX_INPUT);
  char label[600];
  for (long i = 0; buf && i < iterations; i++) {
    const blob *f = &files[next((uint32_t)nfiles)];
    size_t n = f->len;
    memcpy(buf, f->data, n);
    for (int k = 0, m = 1 + (int)next(3); k < m; k++)
      mutate(buf, &n, files, nfiles, d);
    snprintf(label, sizeof label, "mutant %ld of %s", i, f->name);
    current = label;
    current_data = buf;
    current_len = n;
    LLVMFuzzerTestOneInput(buf, n);
  }
  current = "";
  current_data = NULL;
  dprintf(real_stderr, "%s: %d corpus files and %ld mutants, %ld of them accepted, no invariant "
          "broken\n", name, nfiles, iterations, *d->accepted);
  free(buf);
  for (int i = 0; i < nfiles; i++)
    free(files[i].data);
  return 0;
}
#endif
