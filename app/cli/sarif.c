/* SARIF 2.1.0 logs of the commands' findings (sarif.h): the rules of every kind of finding,
 * the results as they are added, and the log written as JSON. */
#define _XOPEN_SOURCE 700 /* strdup, realpath */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"
#include "sarif.h"

/* ---- the rules ---- */

typedef struct sarif_rule {
  const char *id;
  const char *prefix;     /* the start of its lines in a run's text, or NULL */
  const char *short_text; /* NULL: the plain kind's name (ts_plain_kind_name) */
  const char *full_text;
  const char *doc, *anchor, *section; /* the guide, its section's anchor and title */
} sarif_rule;

#define PLAIN_DOC "kernel-authors.md", "what-observation-finds", "What observation finds"

/* A plain kernel's kinds, by TS_FIND_*: their keys are the JSON's words for them. */
static const sarif_rule plain_rules[TS_NFIND] = {
  [TS_FIND_OOB] = { "outside_buffer", NULL, NULL, "An access outside every buffer the kernel "
    "was given. Observed, it is not performed (a read gives 0, a write lands nowhere); the "
    "plain run, which would perform it, is not made.", PLAIN_DOC },
  [TS_FIND_RACE_GROUPS] = { "race_groups", NULL, NULL, "An element that one work-group writes "
    "and another reads or writes in the same launch, atomics aside: the work-groups of one "
    "launch have no order.", PLAIN_DOC },
  [TS_FIND_RACE_LOCAL] = { "race_local", NULL, NULL, "An element of __local memory written by "
    "one work-item and accessed by another of its group with no barrier between them that "
    "fences __local memory.", PLAIN_DOC },
  [TS_FIND_RACE_GLOBAL] = { "race_global", NULL, NULL, "An element of __global memory written "
    "by one work-item and accessed by another of its group with no barrier between them that "
    "fences __global memory (barrier(CLK_LOCAL_MEM_FENCE) orders __local memory only).",
    PLAIN_DOC },
  [TS_FIND_UNINIT] = { "uninitialised", NULL, NULL, "An element of an output or __local buffer "
    "read before anything in the launch wrote it; of an output or a temporary, also what no "
    "earlier pass wrote.", PLAIN_DOC },
  [TS_FIND_FOOTPRINT] = { "footprint", NULL, NULL, "With tile and halo declared, a read outside "
    "the work-group's tile and halo.", PLAIN_DOC },
  [TS_FIND_TILE] = { "tile", NULL, NULL, "With a tile declared, a write outside the "
    "work-group's tile.", PLAIN_DOC },
  [TS_FIND_DIVERGE] = { "barrier_divergence", NULL, NULL, "A branch that decides whether a "
    "barrier is reached, decided apart by the work-items of one group. Every work-item of a "
    "group must reach the same barriers; OpenCL leaves the rest undefined, and a GPU may "
    "hang.", PLAIN_DOC },
  [TS_FIND_MODE] = { "access_mode", NULL, NULL, "A write of a buffer the launch made read-only "
    "(not performed), or a read of a write-only one.", PLAIN_DOC },
  [TS_FIND_ALIGN] = { "misaligned", NULL, NULL, "An access through a pointer not aligned to its "
    "type.", PLAIN_DOC },
  [TS_FIND_BENIGN] = { "benign_race", NULL, NULL, "A race whose writers all wrote the same "
    "value: a note, which fails the run only under --fail-on benign.", PLAIN_DOC },
  [TS_FIND_PRIVATE] = { "private_bounds", NULL, NULL, "An index outside a private array. "
    "Observed, the access lands on the array's first element; the plain run is not made.",
    PLAIN_DOC },
  [TS_FIND_EVENT] = { "wait_event", NULL, NULL, "A wait for an event that no async copy gave, "
    "or a work-item that ended with an async copy that nothing waited for "
    "(wait_group_events).", PLAIN_DOC },
  [TS_FIND_COPY_DIVERGE] = { "copy_divergence", NULL, NULL, "Work-items of one group that ask "
    "for one async copy with other arguments: every work-item of a group must make the same "
    "call.", PLAIN_DOC },
  [TS_FIND_PROGRESS] = { "forward_progress", NULL, NULL, "A work-group that spins on memory "
    "only a group that has not started can change, in an order where that group cannot start "
    "first: OpenCL promises no forward progress between work-groups, so a device may hang.",
    PLAIN_DOC },
};

/* A kind this table does not know yet (a new TS_FIND_*) still makes a valid rule. */
static const sarif_rule plain_other = { "finding", NULL, NULL, "A finding of the observation "
                                        "of a plain kernel.", PLAIN_DOC };

static const sarif_rule *plain_rule(int kind)
{
  return kind >= 0 && kind < TS_NFIND && plain_rules[kind].id ? &plain_rules[kind] : &plain_other;
}

#define OBSERVE_DOC "kernel-authors.md", "observing-a-variant", "Observing a variant"

/* A variant's: its observation's kinds (TS_OBS_*), then the lines of its run. */
static const sarif_rule obs_rules[] = {
  { "observed_outside_buffer", NULL, "access outside a buffer", "An access of a variant's "
    "kernel outside a buffer, observed (not performed).", OBSERVE_DOC },
  { "observed_footprint", NULL, "read outside the declared footprint", "A thread read outside "
    "its declared footprint (its tile with the halo, clipped): the simulator's hazards, drawn "
    "from the declared footprints, miss those reads.", OBSERVE_DOC },
  { "observed_write_rect", NULL, "write outside the declared write rectangle", "A thread wrote "
    "outside its declared write rectangle.", OBSERVE_DOC },
  { "observed_two_writers", NULL, "element written by two threads", "An output element written "
    "by two threads: which write lands depends on their order.", OBSERVE_DOC },
};

static const sarif_rule run_rules[] = {
  { "observed_hazard", "observed hazard: ", "read before its writer ended (observed)",
    "A thread read an element from the committed output before the thread that writes it had "
    "reached its end tick, as observed: the schedule misses a dependency.", OBSERVE_DOC },
  { "hazard", "hazard: ", "read before its writer ended", "A thread started, and read, before "
    "a thread whose output it reads (by the declared footprints) had ended: the dependency "
    "pattern misses a vector. A failure under --fail-on hazards.", "schedules.md",
    "thread-spaces-patterns-and-walks", "Thread spaces, patterns and walks" },
  { "advice", "advice: ", "pattern advice", "What the dependency pattern misses or waits for "
    "without need, from the declared footprints, and what would order every read.",
    "schedules.md", "pattern-advice", "Pattern advice" },
  { "race", "race: ", "read that no chain of waits orders", "On the device (--exec device), a "
    "read of another tile's output that no chain of scoreboard waits orders first. A failure "
    "under --fail-on races.", "device.md", "races-are-not-hazards", "Races are not hazards" },
  { "wrong_tile", "wrong tile: ", "device tile that differs from the reference", "A tile of "
    "the device's run whose output differs from the reference: a failure when no race explains "
    "it, or under --fail-on wrong.", "device.md", "races-are-not-hazards",
    "Races are not hazards" },
  { "output_differs", "output differs from ", "output that differs from its reference",
    "The run's output differs from its reference (--expect, or the filter a user kernel says "
    "it equals).", "ci.md", "checking-a-run", "Checking a run" },
};

static const sarif_rule image_rule = {
  "image_differs", "different: ", "images that differ", "Two images differ by more than the "
  "tolerance in more pixels than allowed, or in size or channels.", "ci.md", "comparing-images",
  "Comparing images" };

const char *sarif_plain_kind_key(int kind)
{
  return plain_rule(kind)->id;
}

/* ---- the log ---- */

typedef struct result {
  const sarif_rule *rule;
  sarif_level level;
  char *message, *file, *related; /* file NULL: no location; related: an artifact beside it */
  int line, column;               /* 0: not known */
  int pass;                       /* from 1; 0: none */
  long long count, kind_id;       /* -1: none */
  char kernel[64], group[40], item[40], thread[40];
  long long differing, max_diff;  /* an image's; -1: none */
} result;

struct sarif_log {
  result *res;
  size_t n, cap;
  int failed;
};

sarif_log *sarif_create(void)
{
  sarif_log *log = calloc(1, sizeof *log);
  if (!log)
    fprintf(stderr, "tilescope: --sarif: out of memory\n");
  return log;
}

void sarif_destroy(sarif_log *log)
{
  if (!log)
    return;
  for (size_t i = 0; i < log->n; i++) {
    free(log->res[i].message);
    free(log->res[i].file);
    free(log->res[i].related);
  }
  free(log->res);
  free(log);
}

int sarif_failed(const sarif_log *log)
{
  return !log || log->failed;
}

/* A new result (its numbers "none"), or NULL when memory ran out. */
static result *add(sarif_log *log, const sarif_rule *rule, sarif_level level, const char *message,
                   const char *file, int line, int column)
{
  if (!log || log->failed)
    return NULL;
  if (log->n == log->cap) {
    size_t cap = log->cap ? 2 * log->cap : 16;
    result *r = realloc(log->res, cap * sizeof *r);
    if (!r)
      goto oom;
    log->res = r;
    log->cap = cap;
  }
  result *r = &log->res[log->n];
  memset(r, 0, sizeof *r);
  r->rule = rule;
  r->level = level;
  r->message = strdup(message);
  r->file = file ? strdup(file) : NULL;
  if (!r->message || (file && !r->file)) {
    free(r->message);
    free(r->file);
    goto oom;
  }
  r->line = line;
  r->column = column;
  r->count = r->kind_id = r->differing = r->max_diff = -1;
  log->n++;
  return r;
oom:
  log->failed = 1;
  fprintf(stderr, "tilescope: --sarif: out of memory\n");
  return NULL;
}

void sarif_add_plain(sarif_log *log, const ts_plain_desc *d, const ts_plain_result *r,
                     int fail_benign)
{
  for (size_t i = 0; r && i < r->nfindings; i++) {
    const ts_plain_finding *f = &r->findings[i];
    char line[1024];
    ts_plain_finding_line(d, r, f, line, sizeof line);
    sarif_level lv = f->kind == TS_FIND_BENIGN && !fail_benign ? SARIF_NOTE : SARIF_ERROR;
    result *s = add(log, plain_rule(f->kind), lv, line, d->path, f->line, 0);
    if (!s)
      return;
    const ts_plain_launch *L = &r->launch[f->pass];
    s->pass = f->pass + 1;
    s->count = (long long)f->count;
    s->kind_id = f->kind;
    snprintf(s->kernel, sizeof s->kernel, "%s", L->entry);
    if (f->nplaces > 0) {
      ts_plain_group_name(L, f->place[0].group, s->group, sizeof s->group);
      ts_plain_item_name(L, f->place[0].item, s->item, sizeof s->item);
    }
  }
}

/* ---- where a variant's finding is: its pass's kernel ---- */

static int ident(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Whether [from, to) holds word. */
static int holds(const char *from, const char *to, const char *word)
{
  size_t n = strlen(word);
  for (const char *p = from; p + n <= to; p++)
    if (strncmp(p, word, n) == 0)
      return 1;
  return 0;
}

/* The line (and column) in text where the kernel `entry` is written: its tile function
 * (ENTRY_tile), its TS_*_ENTRY(entry), a __kernel of that name, or the header that declares
 * it (entry=ENTRY); line 1 when none is found. */
static int entry_line(const char *text, size_t len, const char *entry, int *column)
{
  char tile[96];
  snprintf(tile, sizeof tile, "%s_tile", entry);
  const char *end = text + len;
  for (int how = 0; how < 4; how++) {
    const char *want = how == 0 ? tile : entry;
    size_t wl = strlen(want);
    int line = 1;
    const char *bol = text;
    for (const char *p = text; p < end; p++) {
      if (*p == '\n') {
        line++;
        bol = p + 1;
        continue;
      }
      if ((size_t)(end - p) < wl || strncmp(p, want, wl) != 0 || (p > text && ident(p[-1])) ||
          (p + wl < end && ident(p[wl])))
        continue;
      const char *after = p + wl;
      size_t before = (size_t)(p - bol);
      int call = after < end && *after == '(';
      int ok = how == 0   ? call
               : how == 1 ? before >= 6 && strncmp(p - 6, "ENTRY(", 6) == 0
               : how == 2 ? call && holds(bol, p, "__kernel")
                          : before >= 6 && strncmp(p - 6, "entry=", 6) == 0;
      if (ok) {
        *column = (int)before + 1;
        return line;
      }
    }
  }
  *column = 0;
  return 1;
}

/* The .cl file of pass p (from 0) of the run's variant, and the line of its kernel. */
static void pass_where(const ts_run *run, int p, const char *kdir, char *file, size_t n, int *line,
                       int *column)
{
  const ts_variant *v = ts_run_params_of(run)->variant;
  if (p < 0 || p >= v->npasses)
    p = 0;
  const ts_pass_desc *pd = &v->passes[p];
  if (v->file || !kdir)
    snprintf(file, n, "%s", pd->cl_file);
  else
    snprintf(file, n, "%s/%s", kdir, pd->cl_file);
  *line = 1;
  *column = 0;
  uint8_t *text = NULL;
  size_t len = 0;
  ts_error err = { 0 };
  if (ts_file_read_all(file, 4u << 20, &text, &len, &err) != TS_OK)
    return;
  *line = entry_line((const char *)text, len, ts_pass_kernel(pd, ts_run_kctx(run)->in_c), column);
  free(text);
}

/* The entry point of pass p (from 0) of the run's variant. */
static const char *pass_kernel(const ts_run *run, int p)
{
  return ts_pass_kernel(&ts_run_params_of(run)->variant->passes[p], ts_run_kctx(run)->in_c);
}

/* The first "pass N" of a line (from 1), or 0. */
static int named_pass(const char *s)
{
  const char *p = strstr(s, "pass ");
  return p && p[5] >= '1' && p[5] <= '9' ? atoi(p + 5) : 0;
}

static void add_line(sarif_log *log, const ts_run *run, const char *kdir, const sarif_rule *rule,
                     sarif_level lv, const char *line)
{
  int npasses = ts_run_params_of(run)->variant->npasses;
  int pass = named_pass(line);
  if (pass < 1 || pass > npasses) /* output differs: the last pass wrote it */
    pass = strcmp(rule->id, "output_differs") == 0 ? npasses : 1;
  char file[PATH_MAX];
  int ln, col;
  pass_where(run, pass - 1, kdir, file, sizeof file, &ln, &col);
  result *s = add(log, rule, lv, line, file, ln, col);
  if (!s)
    return;
  s->pass = pass;
  snprintf(s->kernel, sizeof s->kernel, "%s", pass_kernel(run, pass - 1));
  const char *t = strstr(line, "thread (");
  const char *close = t ? strchr(t, ')') : NULL;
  if (close) /* "thread (3,2)": 3,2 */
    snprintf(s->thread, sizeof s->thread, "%.*s", (int)(close - (t + 8)), t + 8);
  unsigned long long more;
  const char *dots = strstr(line, "... and ");
  if (dots && sscanf(dots, "... and %llu more", &more) == 1)
    s->count = (long long)more;
}

void sarif_add_run_text(sarif_log *log, const ts_run *run, const char *kernels_dir,
                        const char *text, const sarif_fails *fails)
{
  const size_t nrules = sizeof run_rules / sizeof run_rules[0];
  result *last = NULL;
  for (const char *p = text; p && *p;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char line[2048];
    snprintf(line, sizeof line, "%.*s", (int)len, p);
    p += len + (e != NULL);
    /* advice's second line, indented, belongs to the line above it */
    if (line[0] == ' ' && last && last->rule == &run_rules[2]) {
      const char *more = line + strspn(line, " ");
      char *joined = malloc(strlen(last->message) + strlen(more) + 2);
      if (joined) {
        sprintf(joined, "%s %s", last->message, more);
        free(last->message);
        last->message = joined;
      }
      continue;
    }
    last = NULL;
    for (size_t k = 0; k < nrules; k++) {
      const sarif_rule *r = &run_rules[k];
      if (strncmp(line, r->prefix, strlen(r->prefix)) != 0)
        continue;
      sarif_level lv = k == 0   ? SARIF_WARNING
                       : k == 1 ? (fails->hazards ? SARIF_ERROR : SARIF_WARNING)
                       : k == 2 ? SARIF_NOTE
                       : k == 3 ? (fails->races ? SARIF_ERROR : SARIF_WARNING)
                       : k == 4 ? (fails->wrong ? SARIF_ERROR : SARIF_WARNING)
                                : SARIF_ERROR;
      size_t before = log ? log->n : 0;
      add_line(log, run, kernels_dir, r, lv, line);
      if (log && log->n > before)
        last = &log->res[log->n - 1];
      break;
    }
  }
}

void sarif_add_observed(sarif_log *log, const ts_run *run, const char *kernels_dir,
                        const ts_obs_report *rep)
{
  const ts_sched *sc = ts_run_sched(run);
  for (size_t i = 0; i < rep->nfindings; i++) {
    const ts_obs_finding *f = &rep->findings[i];
    if ((unsigned)f->kind >= sizeof obs_rules / sizeof obs_rules[0])
      continue;
    char line[512], file[PATH_MAX];
    int ln, col;
    ts_obs_finding_line(run, f, line, sizeof line);
    pass_where(run, f->pass, kernels_dir, file, sizeof file, &ln, &col);
    result *s = add(log, &obs_rules[f->kind], SARIF_ERROR, line, file, ln, col);
    if (!s)
      return;
    s->pass = f->pass + 1;
    snprintf(s->kernel, sizeof s->kernel, "%s", pass_kernel(run, f->pass));
    uint32_t w = (uint32_t)sc->pass[f->pass].tw;
    snprintf(s->thread, sizeof s->thread, "%u,%u", f->thread % w, f->thread / w);
    if (f->count)
      s->count = f->count;
  }
}

void sarif_add_image_diff(sarif_log *log, const char *line, const char *a, const char *b,
                          size_t differing, int max_diff)
{
  result *s = add(log, &image_rule, SARIF_ERROR, line, a, 0, 0);
  if (!s)
    return;
  s->related = strdup(b);
  if (!s->related) {
    log->failed = 1;
    fprintf(stderr, "tilescope: --sarif: out of memory\n");
  }
  if (max_diff >= 0) { /* else: images of different sizes */
    s->differing = (long long)differing;
    s->max_diff = max_diff;
  }
}

/* ---- the JSON ---- */

/* A path as a URI reference, into out: bytes other than letters, digits, -._~ and /
 * percent-encoded; an absolute path as a file: URI; anchor (or NULL) after a #. */
static void uri(const char *path, const char *anchor, char *out, size_t n)
{
  static const char hex[] = "0123456789ABCDEF";
  size_t at = (size_t)snprintf(out, n, "%s", path[0] == '/' ? "file://" : "");
  if (path[0] == '.' && path[1] == '/')
    path += 2;
  for (const unsigned char *p = (const unsigned char *)path; *p && at + 4 < n; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
        strchr("-._~/", *p)) {
      out[at++] = (char)*p;
    } else {
      out[at++] = '%';
      out[at++] = hex[*p >> 4];
      out[at++] = hex[*p & 15];
    }
  }
  out[at] = 0;
  if (anchor && at + strlen(anchor) + 2 < n)
    snprintf(out + at, n - at, "#%s", anchor);
}

static void artifact(FILE *f, const char *path)
{
  char u[3 * PATH_MAX + 16];
  uri(path, NULL, u, sizeof u);
  fputs("{\"uri\": ", f);
  ts_json_string(f, u);
  if (path[0] != '/')
    fputs(", \"uriBaseId\": \"SRCROOT\"", f);
  fputs("}", f);
}

static const char *const level_names[] = { "note", "warning", "error" };

/* plain_kind: the TS_FIND_* of a plain kernel's rule (which takes its name), else -1 */
static void write_rule(FILE *f, const sarif_rule *r, int plain_kind)
{
  char doc[PATH_MAX], real[PATH_MAX];
  fputs("{\"id\": ", f);
  ts_json_string(f, r->id);
  fputs(", \"shortDescription\": {\"text\": ", f);
  ts_json_string(f, r->short_text ? r->short_text : ts_plain_kind_name(plain_kind));
  fputs("}, \"fullDescription\": {\"text\": ", f);
  ts_json_string(f, r->full_text);
  char help[1024];
  snprintf(help, sizeof help, "%s See \"%s\" in docs/%s (installed in share/tilescope/docs).",
           r->full_text, r->section, r->doc);
  fputs("}, \"help\": {\"text\": ", f);
  ts_json_string(f, help);
  fputs("}", f);
  /* the guide where it is on this machine: installed, or the source tree's */
  if (paths_doc(r->doc, doc, sizeof doc) && realpath(doc, real)) {
    char u[3 * PATH_MAX + 64];
    uri(real, r->anchor, u, sizeof u);
    fputs(", \"helpUri\": ", f);
    ts_json_string(f, u);
  }
  fputs("}", f);
}

static void write_log(FILE *f, const sarif_log *log)
{
  /* the rules the results name, each once, in the order first named */
  const sarif_rule *rules[64];
  int nrules = 0, plain_kind[64];
  for (size_t i = 0; i < log->n; i++) {
    int k = 0;
    while (k < nrules && rules[k] != log->res[i].rule)
      k++;
    if (k == nrules && nrules < 64) {
      rules[nrules] = log->res[i].rule;
      plain_kind[nrules++] = (int)log->res[i].kind_id;
    }
  }
  fprintf(f, "{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\", "
             "\"version\": \"2.1.0\", \"runs\": [{\n"
             "\"tool\": {\"driver\": {\"name\": \"tilescope\", \"version\": \"%s\", "
             "\"semanticVersion\": \"%s\", \"rules\": [", TS_VERSION, TS_VERSION);
  for (int k = 0; k < nrules; k++) {
    fputs(k ? ",\n  " : "\n  ", f);
    write_rule(f, rules[k], plain_kind[k]);
  }
  fputs("]}},\n", f);
  /* relative paths are the working folder's */
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof cwd) && strlen(cwd) + 2 < sizeof cwd) {
    if (cwd[strlen(cwd) - 1] != '/')
      strcat(cwd, "/");
    char u[3 * PATH_MAX + 16];
    uri(cwd, NULL, u, sizeof u);
    fputs("\"originalUriBaseIds\": {\"SRCROOT\": {\"uri\": ", f);
    ts_json_string(f, u);
    fputs("}},\n", f);
  }
  fputs("\"invocations\": [{\"executionSuccessful\": true}],\n\"results\": [", f);
  for (size_t i = 0; i < log->n; i++) {
    const result *r = &log->res[i];
    int k = 0;
    while (k < nrules && rules[k] != r->rule)
      k++;
    fputs(i ? ",\n  " : "\n  ", f);
    fputs("{\"ruleId\": ", f);
    ts_json_string(f, r->rule->id);
    fprintf(f, ", \"ruleIndex\": %d, \"level\": \"%s\", \"message\": {\"text\": ", k,
            level_names[r->level]);
    ts_json_string(f, r->message);
    fputs("}", f);
    if (r->file) {
      fputs(", \"locations\": [{\"physicalLocation\": {\"artifactLocation\": ", f);
      artifact(f, r->file);
      if (r->line > 0) {
        fprintf(f, ", \"region\": {\"startLine\": %d", r->line);
        if (r->column > 0)
          fprintf(f, ", \"startColumn\": %d", r->column);
        fputs("}", f);
      }
      fputs("}}]", f);
    }
    if (r->related) {
      fputs(", \"relatedLocations\": [{\"id\": 1, \"physicalLocation\": {\"artifactLocation\": ", f);
      artifact(f, r->related);
      fputs("}}]", f);
    }
    fputs(", \"properties\": {", f);
    const char *sep = "";
    if (r->kind_id >= 0) { /* a plain kernel's, as its JSON names it */
      fprintf(f, "\"kind\": \"%s\", \"kind_id\": %lld", r->rule->id, r->kind_id);
      sep = ", ";
    }
    if (r->pass > 0) {
      fprintf(f, "%s\"pass\": %d", sep, r->pass);
      sep = ", ";
    }
    const char *keys[4] = { "kernel", "work_group", "work_item", "thread" };
    const char *vals[4] = { r->kernel, r->group, r->item, r->thread };
    for (int j = 0; j < 4; j++)
      if (vals[j][0]) {
        fprintf(f, "%s\"%s\": ", sep, keys[j]);
        ts_json_string(f, vals[j]);
        sep = ", ";
      }
    const char *nkeys[3] = { "count", "differing_pixels", "max_diff" };
    const long long nvals[3] = { r->count, r->differing, r->max_diff };
    for (int j = 0; j < 3; j++)
      if (nvals[j] >= 0) {
        fprintf(f, "%s\"%s\": %lld", sep, nkeys[j], nvals[j]);
        sep = ", ";
      }
    fputs("}}", f);
  }
  fputs("]\n}]}\n", f);
}

void sarif_write_to(const sarif_log *log, ts_outfile *of)
{
  write_log(of->f, log);
}

ts_status sarif_write(const sarif_log *log, const char *path, ts_error *err)
{
  ts_outfile of;
  ts_status st = ts_outfile_open(&of, path, err);
  if (st != TS_OK)
    return st;
  write_log(of.f, log);
  return ts_outfile_commit(&of, err);
}

int sarif_save(const sarif_log *log, const char *cmd, const char *path, FILE *said)
{
  ts_error err = { 0 };
  if (sarif_failed(log))
    return 0; /* said when it ran out */
  if (sarif_write(log, path, &err) != TS_OK) {
    fprintf(stderr, "tilescope %s: --sarif: %s\n", cmd, err.msg);
    return 0;
  }
  if (said)
    fprintf(said, "wrote %s\n", path);
  return 1;
}

int sarif_write_plain(const char *cmd, const char *path, const ts_plain_desc *d,
                      const ts_plain_result *r, int fail_benign, FILE *said)
{
  sarif_log *log = sarif_create();
  sarif_add_plain(log, d, r, fail_benign);
  int ok = sarif_save(log, cmd, path, said);
  sarif_destroy(log);
  return ok;
}
