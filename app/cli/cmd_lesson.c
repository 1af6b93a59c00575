/* `tilescope lesson [N FILE]`: the course in assets/lessons/, and its checkers. Alone it lists
 * the lessons; with a number and the student's file it judges that file by running it
 * through tilescope's own core, never by reading its text: a plain kernel is run observed
 * (core/plain/) and its findings and output are judged, a schedule file becomes a run of the
 * integral image whose hazards, waits and ticks are judged (core/model/), a dialect kernel
 * is run observed in the simulated order and then in one launch on the device (core/observe/,
 * the device mode of core/model/). It says "pass", or what is still wrong in a student's
 * words: one finding a line, the first few, then a count. Exit 0 pass, 1 not yet, 2 bad input
 * (a missing file, a bad lesson number, a file that does not build or parse). Given several
 * files (a class's answers), it judges each on its own, one that cannot be checked costing
 * that file only, and counts the passes; --json says the same as one JSON object. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_lesson.h"
#include "lesson_judge.h"
#include "paths.h"
#include "ts_file.h"
#include "ts_isolate.h"
#include "ts_observe.h"
#include "ts_plain.h"
#include "ts_ref.h"
#include "ts_user.h"

static const char usage[] =
    "usage: tilescope lesson                      list the lessons\n"
    "       tilescope lesson N FILE               check your answer to lesson N\n"
    "       tilescope lesson N FILE... [--json]   check a class's answers, one verdict a file\n"
    "The course is in assets/lessons/ (one folder a lesson: its page, README.md, and the file\n"
    "to start from). The checker runs FILE through tilescope and says pass (exit 0), or what\n"
    "is still wrong (exit 1); a missing file or a file that does not build is exit 2.\n"
    "Given several files, each is checked on its own (one that is missing, does not build or\n"
    "crashes costs that file only): each verdict starts with a line `FILE: pass`, `FILE: not\n"
    "yet` or `FILE: cannot be checked: WHY`, and the last line counts the passes (`3 of 5\n"
    "pass`); exit 0 when every file passes, 2 when one cannot be checked, else 1. With\n"
    "--json, for one file or several, the verdicts are one JSON object on stdout instead\n"
    "(--json below gives its fields), with the same exit status.";

static const lesson lessons[] = {
  { "01-halo", "a halo one pixel short", "a plain OpenCL C kernel (.cl)", KIND_PLAIN,
    TS_FILTER_GAUSS, 0,
    { [TS_FIND_OOB] = "the tile you stage is smaller than the window you read from it",
      [TS_FIND_UNINIT] = "the tile you stage is smaller than the window you read from it",
      [TS_FIND_FOOTPRINT] = "how far does a 5x5 window reach?" }, 0 },
  { "02-integral-pattern", "the dependency pattern the integral image needs",
    "a schedule file: `pattern NAME`, optionally `walk NAME`", KIND_PATTERN, TS_FILTER_INTEGRAL, 0,
    { 0 }, 0 },
  { "03-thin-wave", "a walk that keeps the wavefront thin", "a schedule file: `walk NAME`",
    KIND_WALK, TS_FILTER_INTEGRAL, 0, { 0 }, 0 },
  { "04-transpose", "the transpose trick", "a plain OpenCL C kernel of two passes (.cl)",
    KIND_PLAIN, TS_FILTER_BOX3, 1, { 0 }, 0 },
  { "05-barrier", "the missing barrier in a local-memory tile", "a plain OpenCL C kernel (.cl)",
    KIND_PLAIN, TS_FILTER_BOX3, 0,
    { [TS_FIND_RACE_LOCAL] = "nothing makes the reader wait until the whole tile is stored",
      [TS_FIND_UNINIT] = "it reads the tile before its neighbours stored their share",
      [TS_FIND_DIVERGE] = "the work-items past the image's edge return before the others reach "
                          "the barrier: let every work-item reach it, and test the edge after" },
    0 },
  { "06-scoreboard", "the scoreboard in one launch", "a dialect kernel (.cl) with its header",
    KIND_SCOREBOARD, TS_FILTER_INTEGRAL, 0, { 0 }, 0 },
  { "07-lookback", "a look-back that waits for groups started later",
    "a plain OpenCL C kernel (.cl)", KIND_PLAIN, TS_FILTER_INTEGRAL, 0,
    { [TS_FIND_PROGRESS] = "a group waits for a tile that went to a group that has not "
                           "started: OpenCL starts groups in no order, so take the tile from a "
                           "ticket the group draws when it starts" },
    TS_ORDER_REVERSE },
};
enum { NLESSONS = (int)(sizeof lessons / sizeof lessons[0]) };

/* How verdicts are printed: one file as the checker always said it, several files (a line
 * naming each, then the count), or one JSON object. */
typedef enum { OUT_ONE, OUT_BATCH, OUT_JSON } out_mode;

/* Standard error sent to a temporary file while one file is checked, so that the line saying
 * why it could not be checked can be read back (and then passed on, in text). */
typedef struct capture {
  FILE *f;   /* the temporary file; NULL when not capturing */
  int saved; /* standard error as it was */
} capture;

/* Sends stderr to a new temporary file. Returns 0 (and captures nothing) where it cannot. */
static int capture_begin(capture *c)
{
  c->f = NULL;
  c->saved = -1;
  fflush(stderr);
  FILE *f = tmpfile();
  if (!f)
    return 0;
  int saved = dup(2);
  if (saved < 0 || dup2(fileno(f), 2) < 0) {
    if (saved >= 0)
      close(saved);
    fclose(f);
    return 0;
  }
  c->f = f;
  c->saved = saved;
  return 1;
}

/* All that was captured so far, from its start, as a string to free (NULL when nothing
 * could be read). The file's offset is left alone: a child writing to it shares it. */
static char *capture_text(const capture *c)
{
  fflush(stderr);
  size_t n = 0, cap = 4096;
  char *b = malloc(cap);
  if (!b)
    return NULL;
  for (;;) {
    ssize_t r = pread(fileno(c->f), b + n, cap - n - 1, (off_t)n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    n += (size_t)r;
    if (n + 1 == cap) {
      char *nb = realloc(b, cap * 2);
      if (!nb)
        break;
      b = nb;
      cap *= 2;
    }
  }
  b[n] = 0;
  return b;
}

/* Puts stderr back and drops the file; echo: what was captured is then written to stderr. */
static void capture_end(capture *c, int echo)
{
  char *text = echo ? capture_text(c) : NULL;
  fflush(stderr);
  dup2(c->saved, 2);
  close(c->saved);
  fclose(c->f);
  c->f = NULL;
  if (text)
    fputs(text, stderr);
  free(text);
}

/* Why a file could not be checked, in a few words, from what the checks printed: their last
 * line that starts with "tilescope " (the one error line, or the supervisor's line about a
 * crash; a build log or a kernel's printf may surround it), less its "tilescope lesson[ N]: "
 * and the file's name that the verdict gives already. */
static void reason_of(const char *text, const char *path, char *why, size_t n)
{
  const char *line = NULL, *last = NULL, *sanitizer = NULL;
  for (const char *p = text; p && *p;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (strncmp(p, "tilescope ", 10) == 0)
      line = p;
    const char *asan = strstr(p, "AddressSanitizer");
    if (!sanitizer && asan && (!e || asan < e))
      sanitizer = p; /* a sanitizer build: its report's first line says what happened */
    if (len)
      last = p;
    p = e ? e + 1 : p + len;
  }
  if (!line && sanitizer) {
    const char *at = strstr(sanitizer, "AddressSanitizer");
    size_t len = strcspn(at, "\n");
    snprintf(why, n, "crashed (%.*s)", (int)(len < 160 ? len : 160), at);
    return;
  }
  if (!line)
    line = last;
  if (!line) {
    snprintf(why, n, "the check ended without a verdict");
    return;
  }
  size_t len = strcspn(line, "\n");
  if (strncmp(line, "tilescope lesson", 16) == 0) {
    const char *q = line + 16;
    while (*q == ' ' || (*q >= '0' && *q <= '9'))
      q++;
    if (*q == ':' && q[1] == ' ' && (size_t)(q + 2 - line) <= len) {
      len -= (size_t)(q + 2 - line);
      line = q + 2;
    }
  }
  size_t pl = strlen(path);
  static const char kernel[] = "the kernel ";
  if (strncmp(line, kernel, sizeof kernel - 1) == 0 &&
      strncmp(line + sizeof kernel - 1, path, pl) == 0 &&
      strncmp(line + sizeof kernel - 1 + pl, ": ", 2) == 0 && sizeof kernel + pl + 1 < len) {
    len -= sizeof kernel + pl + 1;
    line += sizeof kernel + pl + 1;
  } else if (strncmp(line, path, pl) == 0 && strncmp(line + pl, ": ", 2) == 0 && pl + 2 < len) {
    len -= pl + 2;
    line += pl + 2;
  }
  snprintf(why, n, "%.*s", (int)len, line);
}

/* Why the file at path could not be checked, from what c captured (where it captured
 * nothing, the error went to stderr as it was). */
static void capture_reason(const capture *c, const char *path, char *why, size_t n)
{
  char *text = c->f ? capture_text(c) : NULL;
  if (text)
    reason_of(text, path, why, n);
  else
    snprintf(why, n, "see the error above");
  free(text);
}

/* The findings and the line after them, as the checker prints them under its verdict. */
static void print_findings(int rc, const verdict *v)
{
  if (rc == EXIT_OK) {
    if (v->more[0])
      printf("  %s\n", v->more);
    return;
  }
  for (int i = 0; i < v->n && i < SHOWN; i++)
    printf("- %s\n", v->line[i]);
  if (v->n > SHOWN)
    printf("  and %d more finding%s\n", v->n - SHOWN, v->n - SHOWN == 1 ? "" : "s");
}

/* One file's verdict as mode m prints it: rc EXIT_OK pass, EXIT_DIFF not yet, else it could
 * not be checked, for the reason why (one file alone: said on stderr already). */
static void print_verdict(out_mode m, long n, const lesson *l, const char *path, int rc,
                          const verdict *v, const char *why)
{
  if (m == OUT_ONE) {
    if (rc == EXIT_OK || rc == EXIT_DIFF) {
      printf("lesson %ld, %s: %s\n", n, l->title, rc == EXIT_OK ? "pass" : "not yet");
      print_findings(rc, v);
    }
  } else if (m == OUT_BATCH) {
    if (rc == EXIT_OK || rc == EXIT_DIFF) {
      printf("%s: %s\n", path, rc == EXIT_OK ? "pass" : "not yet");
      print_findings(rc, v);
    } else {
      printf("%s: cannot be checked: %s\n", path, why);
    }
  } else {
    int judged = rc == EXIT_OK || rc == EXIT_DIFF;
    printf("{\"file\":");
    cli_json_string(path);
    printf(",\"verdict\":\"%s\",\"lines\":[", rc == EXIT_OK ? "pass" : rc == EXIT_DIFF ? "not yet"
                                                                                   : "error");
    for (int i = 0; judged && rc == EXIT_DIFF && i < v->n && i < SHOWN; i++) {
      printf("%s", i ? "," : "");
      cli_json_string(v->line[i]);
    }
    char more[sizeof v->more] = "";
    if (judged && rc == EXIT_OK)
      snprintf(more, sizeof more, "%s", v->more);
    else if (judged && v->n > SHOWN)
      snprintf(more, sizeof more, "and %d more finding%s", v->n - SHOWN,
               v->n - SHOWN == 1 ? "" : "s");
    printf("],\"more\":");
    cli_json_string(more);
    printf(",\"error\":");
    cli_json_string(judged ? "" : why);
    printf("}");
  }
}

/* A check's exit code (EXIT_USAGE, or EXIT_DIFF once it judged) as the verdict's: pass when
 * it found nothing. */
static int verdict_code(int rc, const verdict *v)
{
  return rc == EXIT_USAGE ? rc : v->n ? EXIT_DIFF : EXIT_OK;
}

/* Runs the check of a lesson that is not the scoreboard: a plain kernel on the chart and, if
 * right there, on a size that is not a multiple of 16; or a schedule file. */
static int check_in_process(const lesson *l, const char *path, const ts_image *in, int device,
                            verdict *v)
{
  if (l->kind != KIND_PLAIN)
    return verdict_code(check_schedule(l, path, in, v), v);
  int rc = check_plain(l, path, in, device, v);
  /* Right on the chart, whose sides are multiples of 16: again on a size that is not, where
   * a group straddles the edge (a work-item that returns early, then a barrier the others
   * wait at, shows only there). Not the transpose lesson, whose judge follows one
   * work-item's reads in the chart's geometry. */
  ts_image *odd = NULL;
  ts_error err = { 0 };
  if (rc != EXIT_USAGE && v->n == 0 && !l->transpose && in->w > 13 && in->h > 11 &&
      ts_image_create(in->w - 3, in->h - 1, in->c, &odd, &err) == TS_OK) {
    for (int y = 0; y < odd->h; y++)
      memcpy(odd->data + (size_t)y * odd->w * odd->c, in->data + (size_t)y * in->w * in->c,
             (size_t)odd->w * odd->c);
    char more[sizeof v->more];
    memcpy(more, v->more, sizeof more);
    rc = check_plain(l, path, odd, device, v);
    for (int i = 0; i < v->n && i < SHOWN; i++) { /* say where */
      char line[sizeof v->line[0]];
      memcpy(line, v->line[i], sizeof line);
      snprintf(v->line[i], sizeof v->line[i], "on a %dx%d image: %.590s", odd->w, odd->h, line);
    }
    if (v->n == 0)
      snprintf(v->more, sizeof v->more, "%.340s; and again on a %dx%d image", more, odd->w,
               odd->h);
    ts_image_destroy(odd);
  }
  return verdict_code(rc, v);
}

/* Lesson 6: the student's kernel runs in a child process of its own under a supervisor, so
 * that a crash or a hang costs this file only. The child checks and prints the verdict itself
 * (*printed, *child set: it returns the code at once and the command ends there); the parent
 * learns through a pipe that it did, and with which code. A child that died before (a crash,
 * the watchdog) leaves *printed 0 and EXIT_USAGE for the caller to report. One file alone
 * (OUT_ONE) keeps the supervisor's own exit code, 1 for a crash, as the checker always did. */
static int check_supervised(out_mode m, long n, const lesson *l, const char *path,
                            const ts_image *in, int device, const capture *c, int *printed,
                            int *child)
{
  int fds[2] = { -1, -1 };
  if (m != OUT_ONE) {
    if (pipe(fds) != 0) {
      fprintf(stderr, "tilescope lesson: %s: cannot start its check (%s)\n", path,
              strerror(errno));
      return EXIT_USAGE;
    }
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  }
  char what[300];
  snprintf(what, sizeof what, "lesson %ld: the kernel %s", n, path);
  pid_t self = getpid();
  int code = EXIT_USAGE;
  fflush(stdout);
  if (ts_supervise(what, 300, &code)) {
    /* the child; or, where the fork failed, this process, unwatched */
    *child = getpid() != self;
    if (fds[0] >= 0)
      close(fds[0]);
    verdict v = { .n = 0 };
    int rc = verdict_code(check_scoreboard(path, in, device, &v), &v);
    char why[640] = "";
    if (rc == EXIT_USAGE)
      capture_reason(c, path, why, sizeof why);
    print_verdict(m, n, l, path, rc, &v, why);
    fflush(stdout);
    *printed = 1;
    if (fds[1] >= 0) { /* (if this fails, the parent says the file was not checked) */
      unsigned char b = (unsigned char)rc;
      ssize_t w = write(fds[1], &b, 1);
      (void)w;
      close(fds[1]);
    }
    return rc;
  }
  if (m == OUT_ONE) {
    *printed = 1; /* the child said it, or the supervisor did, on stderr */
    return code;
  }
  close(fds[1]);
  unsigned char b;
  ssize_t r;
  while ((r = read(fds[0], &b, 1)) < 0 && errno == EINTR)
    ;
  close(fds[0]);
  if (r == 1 && b <= EXIT_USAGE) {
    *printed = 1;
    return b;
  }
  if (code != 1) /* not the supervisor's crash or timeout: the child ended on its own */
    fprintf(stderr, "tilescope lesson: %s: the check ended without a verdict (exit %d)\n", path,
            code);
  return EXIT_USAGE;
}

/* Checks one file and prints its verdict as mode m says; returns its exit code. *child is set
 * in the child process of lesson 6, which must end with that code at once. */
static int judge_file(out_mode m, long n, const lesson *l, const char *path, const ts_image *in,
                      int device, int *child)
{
  *child = 0;
  capture c = { NULL, -1 };
  if (m != OUT_ONE)
    capture_begin(&c);
  verdict v = { .n = 0 };
  int rc, printed = 0;
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "tilescope lesson: %s: cannot open it\n", path);
    rc = EXIT_USAGE;
  } else {
    fclose(f);
    if (l->kind == KIND_SCOREBOARD) {
      rc = check_supervised(m, n, l, path, in, device, &c, &printed, child);
      if (*child)
        return rc;
    } else {
      rc = check_in_process(l, path, in, device, &v);
    }
  }
  char why[640] = "";
  if (rc == EXIT_USAGE && !printed)
    capture_reason(&c, path, why, sizeof why);
  if (c.f)
    capture_end(&c, m == OUT_BATCH);
  if (!printed)
    print_verdict(m, n, l, path, rc, &v, why);
  return rc;
}

int cmd_lesson(int argc, char **argv)
{
  int device = -1, json = 0;
  const cli_opt opts[] = {
    { "--device", 0, OPT_UINT, &device, "N", "OpenCL device (see tilescope list)", NULL },
    { "--json", 0, OPT_FLAG, &json, NULL,
      "print the verdicts as one JSON object: lesson, title, files (each its file, verdict, "
      "lines, more and error), pass and total",
      NULL },
  };
  const char **pos = malloc((size_t)(argc > 1 ? argc : 1) * sizeof *pos);
  if (!pos) {
    fprintf(stderr, "tilescope lesson: out of memory\n");
    return EXIT_USAGE;
  }
  int npos = 0;
  int r = cli_parse("lesson", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), pos,
                    argc > 1 ? argc - 1 : 0, &npos, usage);
  if (r) {
    free(pos);
    return r < 0 ? EXIT_OK : r;
  }
  if (npos == 0) {
    free(pos);
    char dir[1024]; /* where it is: the source tree's assets/, or the installed share/ */
    if (!paths_find_quiet("TILESCOPE_ASSETS", "assets", "lessons/README.md", dir, sizeof dir))
      snprintf(dir, sizeof dir, "assets");
    printf("the course, in %s/lessons/ (its README.md; solutions for teachers in "
           "%s/lessons/solutions/):\n", dir, dir);
    for (int i = 0; i < NLESSONS; i++)
      printf("  %d  %-20s %s; your file: %s\n", i + 1, lessons[i].dir, lessons[i].title,
             lessons[i].file_kind);
    printf("check your answer: tilescope lesson N FILE\n");
    return EXIT_OK;
  }
  char *end;
  long n = strtol(pos[0], &end, 10);
  if (end == pos[0] || *end || n < 1 || n > NLESSONS) {
    fprintf(stderr, "tilescope lesson: '%s': no such lesson (1 to %d; tilescope lesson lists them)\n",
            pos[0], NLESSONS);
    free(pos);
    return EXIT_USAGE;
  }
  if (npos < 2) {
    fprintf(stderr, "tilescope lesson %ld: give the file to check (tilescope lesson %ld FILE)\n", n, n);
    free(pos);
    return EXIT_USAGE;
  }
  const lesson *l = &lessons[n - 1];
  const char **files = pos + 1;
  int nfiles = npos - 1;
  out_mode m = json ? OUT_JSON : nfiles > 1 ? OUT_BATCH : OUT_ONE;
  if (m == OUT_ONE) { /* a missing file first, before the chart, as the checker always did */
    FILE *f = fopen(files[0], "rb");
    if (!f) {
      fprintf(stderr, "tilescope lesson: %s: cannot open it\n", files[0]);
      free(pos);
      return EXIT_USAGE;
    }
    fclose(f);
  }
  const char *chart = paths_default_asset();
  ts_error err = { 0 };
  ts_image *in = NULL;
  if (!chart || ts_image_load_png(chart, &in, &err) != TS_OK) {
    if (chart)
      fprintf(stderr, "tilescope lesson: %s\n", err.msg);
    free(pos);
    return EXIT_USAGE;
  }
  if (m == OUT_JSON) {
    printf("{\"lesson\":%ld,\"title\":", n);
    cli_json_string(l->title);
    printf(",\"files\":[");
  }
  int worst = EXIT_OK, passed = 0;
  for (int i = 0; i < nfiles; i++) {
    if (m == OUT_JSON && i > 0)
      putchar(',');
    fflush(stdout); /* before lesson 6 forks: nothing printed twice */
    int child = 0;
    int rc = judge_file(m, n, l, files[i], in, device, &child);
    if (child) { /* lesson 6's child: its verdict printed, it ends here */
      ts_image_destroy(in);
      free(pos);
      return rc;
    }
    passed += rc == EXIT_OK;
    worst = rc > worst ? rc : worst;
  }
  if (m == OUT_JSON)
    printf("],\"pass\":%d,\"total\":%d}\n", passed, nfiles);
  else if (m == OUT_BATCH)
    printf("%d of %d pass\n", passed, nfiles);
  ts_image_destroy(in);
  free(pos);
  return worst > EXIT_USAGE ? EXIT_USAGE : worst;
}
