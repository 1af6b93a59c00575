/* Option parsing and the shared schedule options (see cli.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ts_file.h"
#include "ts_number.h"

static void print_help(const char *usage, const cli_opt *opts, int nopts)
{
  printf("%s\n\noptions:\n", usage);
  for (int i = 0; i < nopts; i++) {
    char left[48];
    if (opts[i].short_name)
      snprintf(left, sizeof left, "-%c, %s %s", opts[i].short_name, opts[i].name,
               opts[i].arg ? opts[i].arg : "");
    else
      snprintf(left, sizeof left, "%s %s", opts[i].name, opts[i].arg ? opts[i].arg : "");
    printf("  %-30s %s\n", left, opts[i].help);
  }
  printf("  %-30s %s\n", "-h, --help", "show this help");
}

static int parse_value(const char *cmd, const cli_opt *o, const char *v)
{
  int64_t x;
  double d;
  switch (o->kind) {
  case OPT_STR:
    *(const char **)o->dst = v;
    return 1;
  case OPT_INT:
  case OPT_UINT:
    if (!ts_parse_int(v, o->kind == OPT_UINT ? 0 : INT_MIN, INT_MAX, &x))
      break;
    *(int *)o->dst = (int)x;
    return 1;
  case OPT_I64:
    if (!ts_parse_int(v, INT64_MIN, INT64_MAX, &x))
      break;
    *(int64_t *)o->dst = x;
    return 1;
  case OPT_DBL:
    if (!ts_parse_real(v, -DBL_MAX, DBL_MAX, &d))
      break;
    *(double *)o->dst = d;
    return 1;
  case OPT_FLAG:
    return 1;
  }
  fprintf(stderr, "tilescope %s: %s: '%s' is not a %s\n", cmd, o->name, v,
          o->kind == OPT_DBL ? "number (such as 2 or 1.5)"
          : o->kind == OPT_UINT ? "whole number 0 or more" : "whole number");
  return 0;
}

/* The commands build their option tables on their own stacks, pointing at their locals: the
 * man page and the completions (cli_doc.c) read them as they are handed to the parser. Set
 * only by those hidden commands, before any other work. */
static cli_describer describer;
static void *describer_ctx;

void cli_set_describer(cli_describer fn, void *ctx)
{
  describer = fn;
  describer_ctx = ctx;
}

int cli_parse(const char *cmd, int argc, char **argv, const cli_opt *opts, int nopts,
              const char **pos, int maxpos, int *npos, const char *usage)
{
  *npos = 0;
  if (describer) {
    describer(describer_ctx, cmd, usage, opts, nopts);
    return -1;
  }
  int only_pos = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (only_pos || a[0] != '-' || a[1] == 0) {
      if (*npos == maxpos) {
        fprintf(stderr, "tilescope %s: unexpected argument '%s' (see tilescope %s --help)\n", cmd,
                a, cmd);
        return EXIT_USAGE;
      }
      pos[(*npos)++] = a;
      continue;
    }
    if (strcmp(a, "--") == 0) {
      only_pos = 1;
      continue;
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      print_help(usage, opts, nopts);
      return -1;
    }
    const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    const cli_opt *o = NULL;
    for (int k = 0; k < nopts && !o; k++) {
      if (a[1] == '-' && strlen(opts[k].name) == len && strncmp(a, opts[k].name, len) == 0)
        o = &opts[k];
      else if (a[1] != '-' && a[2] == 0 && a[1] == opts[k].short_name)
        o = &opts[k];
    }
    if (!o) {
      fprintf(stderr, "tilescope %s: unknown option '%.*s' (see tilescope %s --help)\n", cmd,
              (int)len, a, cmd);
      return EXIT_USAGE;
    }
    if (o->seen)
      *o->seen = 1;
    if (o->kind == OPT_FLAG) {
      if (eq) {
        fprintf(stderr, "tilescope %s: %s takes no value\n", cmd, o->name);
        return EXIT_USAGE;
      }
      *(int *)o->dst = 1;
      continue;
    }
    const char *v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
    /* "-o --json": the value forgotten, the next option taken for it (write -o=--json for a
     * file of that name) */
    int next_is_option = 0;
    for (int k = 0; !eq && v && v[0] == '-' && v[1] == '-' && k < nopts; k++)
      next_is_option |= strcmp(v, opts[k].name) == 0 || strcmp(v, "--help") == 0;
    if (!v || next_is_option) {
      fprintf(stderr, "tilescope %s: %s needs a value (%s)%s%s\n", cmd, o->name, o->arg,
              v ? ", not the option " : "", v ? v : "");
      return EXIT_USAGE;
    }
    if (!parse_value(cmd, o, v))
      return EXIT_USAGE;
  }
  return 0;
}

void cli_sched_defaults(cli_sched *s)
{
  memset(s, 0, sizeof *s);
  s->variant = "box2d";
  s->backend = "cl";
  s->exec = "sim";
  s->device = -1;
  s->slots = TS_SLOTS_DEFAULT;
  s->ksize = 5;
}

/* The edit distance of a and b (insertions, deletions, substitutions; names are short). */
static int distance(const char *a, const char *b)
{
  int la = (int)strlen(a), lb = (int)strlen(b), row[64];
  if (la > 63 || lb > 63)
    return 99;
  for (int j = 0; j <= lb; j++)
    row[j] = j;
  for (int i = 1; i <= la; i++) {
    int diag = row[0];
    row[0] = i;
    for (int j = 1; j <= lb; j++) {
      int up = row[j];
      int best = diag + (a[i - 1] != b[j - 1]);
      best = up + 1 < best ? up + 1 : best;
      best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

/* " (did you mean NAME?)" for the name nearest to `given` among n, when near enough. */
static const char *suggest(const char *given, const char *(*name_at)(int), int n, char *buf,
                           size_t size)
{
  int best = 99;
  const char *pick = NULL;
  for (int i = 0; i < n; i++) {
    int d = distance(given, name_at(i));
    if (d < best) {
      best = d;
      pick = name_at(i);
    }
  }
  buf[0] = 0;
  if (pick && best <= 2 + (int)strlen(given) / 6)
    snprintf(buf, size, " (did you mean %s?)", pick);
  return buf;
}

static const char *variant_name_at(int i) { return ts_variant_at(i)->name; }
static const char *pattern_name_at(int i) { return ts_pattern_name((ts_pattern)i); }
static const char *walk_name_at(int i) { return ts_walk_name((ts_walk)i); }

/* A seed of its own each time (never 0, which is off): an adversary that always drew the
 * same delays would test one interleaving. */
int cli_sched_resolve(const char *cmd, const cli_sched *s, ts_run_params *p)
{
  memset(p, 0, sizeof *p);
  p->variant = ts_variant_find(s->variant);
  char hint[96];
  if (!p->variant) {
    fprintf(stderr, "tilescope %s: --variant '%s': unknown variant%s (one of:", cmd, s->variant,
            suggest(s->variant, variant_name_at, ts_variant_count(), hint, sizeof hint));
    for (int i = 0; i < ts_variant_count(); i++)
      fprintf(stderr, " %s", ts_variant_at(i)->name);
    fprintf(stderr, ")\n");
    return 0;
  }
  p->sched.pattern = p->variant->pattern;
  if (s->pattern && !ts_pattern_parse(s->pattern, &p->sched.pattern)) {
    fprintf(stderr, "tilescope %s: --pattern '%s': unknown pattern%s (see tilescope list)\n", cmd,
            s->pattern, suggest(s->pattern, pattern_name_at, TS_PAT_COUNT, hint, sizeof hint));
    return 0;
  }
  ts_walk def = ts_pattern_default_walk(p->sched.pattern);
  p->sched.walk = def;
  if (s->walk && !ts_walk_parse(s->walk, &p->sched.walk)) {
    fprintf(stderr, "tilescope %s: --walk '%s': unknown walk%s (see tilescope list)\n", cmd,
            s->walk, suggest(s->walk, walk_name_at, TS_WALK_COUNT, hint, sizeof hint));
    return 0;
  }
  if (s->slots < 1 || s->slots > TS_SLOTS_MAX) {
    fprintf(stderr, "tilescope %s: --slots %d: must be 1..%d\n", cmd, s->slots, TS_SLOTS_MAX);
    return 0;
  }
  p->sched.slots = s->slots;
  if ((s->have_cost || s->cost != 0) && (s->cost < 1 || s->cost > TS_COST_MAX)) {
    fprintf(stderr, "tilescope %s: --cost %d: must be 1..%d\n", cmd, s->cost, TS_COST_MAX);
    return 0;
  }
  p->cost = s->cost;
  if (strcmp(s->backend, "cpu") != 0 && strcmp(s->backend, "cl") != 0) {
    fprintf(stderr, "tilescope %s: --backend '%s': unknown back end (cl or cpu)\n", cmd,
            s->backend);
    return 0;
  }
  if (strcmp(s->exec, "sim") != 0 && strcmp(s->exec, "device") != 0) {
    fprintf(stderr, "tilescope %s: --exec '%s': unknown execution (sim or device)\n", cmd,
            s->exec);
    return 0;
  }
  p->exec_device = strcmp(s->exec, "device") == 0;
  if (p->exec_device && strcmp(s->backend, "cl") != 0) {
    fprintf(stderr, "tilescope %s: --exec device: the device runs the schedule on the OpenCL "
            "back end, not with --backend %s\n", cmd, s->backend);
    return 0;
  }
  if (s->adversary && !p->exec_device && strcmp(cmd, "run") == 0) {
    fprintf(stderr, "tilescope %s: --adversary: needs --exec device\n", cmd);
    return 0;
  }
  p->adversary = s->adversary ? ts_adversary_seed() : 0;
  if (s->have_tick && s->tick < 0) {
    fprintf(stderr, "tilescope %s: --tick %" PRId64 ": must be 0 or more\n", cmd, s->tick);
    return 0;
  }
  if (s->have_sigma && !(s->sigma >= 0.01 && s->sigma <= 100.0)) {
    fprintf(stderr, "tilescope %s: --sigma %g: must be between 0.01 and 100\n", cmd, s->sigma);
    return 0;
  }
  ts_error err = { 0 };
  uint32_t w[TS_GAUSS_MAX_K];
  if (ts_gauss_weights(s->ksize, s->sigma, w, &err) != TS_OK) {
    fprintf(stderr, "tilescope %s: %s\n", cmd, err.msg);
    return 0;
  }
  p->ksize = s->ksize;
  p->sigma = s->sigma;
  ts_run_params_resolve(p);
  if (p->sched.pattern != TS_PAT_NONE && p->sched.walk != def)
    fprintf(stderr,
            "tilescope %s: warning: walk '%s' is not pattern '%s''s own ('%s'): a thread "
            "dispatched before what it waits for loses that dependency\n",
            cmd, ts_walk_name(p->sched.walk), ts_pattern_name(p->sched.pattern),
            ts_walk_name(def));
  return 1;
}

int cli_open_backend(const char *cmd, const cli_sched *s, ts_run_params *p)
{
  p->cl = NULL;
  if (strcmp(s->backend, "cl") != 0)
    return 1;
  const char *dir = paths_kernels_dir(s->kernels);
  if (!dir)
    return 0;
  /* The adversary asks pocl for more threads than cores (unless the user chose a count), so
   * that groups overlap on any machine: the operating system interleaves them even on one
   * core. Read by pocl when the platform starts, so before ts_cl_create. */
  if (s->adversary) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    char n[24];
    snprintf(n, sizeof n, "%d", cores > 4 && cores < 512 ? 2 * (int)cores : 8);
    setenv("POCL_MAX_PTHREAD_COUNT", n, 0);
    ts_cl_pin_cpu_workers(); /* (no longer one worker a core) */
  }
  ts_error err = { 0 };
  ts_status st = ts_cl_create(s->device, dir, &p->cl, &err);
  if (st == TS_OK)
    return 1;
  if (st == TS_ERR_DEVICE && !s->have_backend && strcmp(s->exec, "device") != 0) {
    fprintf(stderr, "tilescope %s: %s; using the CPU back end\n", cmd, err.msg);
    return 1;
  }
  fprintf(stderr, "tilescope %s: %s: %s\n", cmd,
          !s->have_backend && strcmp(s->exec, "device") == 0 ? "--exec device" : "--backend cl",
          err.msg);
  return 0;
}

void cli_report_run_error(const char *cmd, const char *what, const ts_error *err,
                          const ts_run_params *p)
{
  if (err->code == TS_ERR_BUILD && p->cl)
    fprintf(stderr, "tilescope %s: %s: %s (variant %s); build log:\n%s\n", cmd, what, err->msg,
            p->variant->name, ts_cl_build_log(p->cl));
  else
    fprintf(stderr, "tilescope %s: %s: %s\n", cmd, what, err->msg);
}

int cli_order(const char *cmd, const char *s, const char *resident, ts_plain_opts *po)
{
  char *end = NULL;
  unsigned long n = 0;
  po->order_seed = 0;
  po->order_file[0] = 0;
  if (strcmp(s, "device") == 0)
    po->order = TS_ORDER_DEVICE;
  else if (strcmp(s, "linear") == 0)
    po->order = TS_ORDER_LINEAR;
  else if (strcmp(s, "reverse") == 0)
    po->order = TS_ORDER_REVERSE;
  else if (strncmp(s, "random:", 7) == 0 && (n = strtoul(s + 7, &end, 10), end != s + 7) &&
           !*end && n < (1ul << 29))
    po->order = TS_ORDER_RANDOM, po->order_seed = (uint32_t)n;
  else if (strncmp(s, "random:", 7) != 0 && access(s, R_OK) == 0 &&
           strlen(s) < sizeof po->order_file) {
    po->order = TS_ORDER_LIST;
    snprintf(po->order_file, sizeof po->order_file, "%s", s);
  } else {
    fprintf(stderr, "tilescope %s: --order '%s': device, linear, reverse, random:SEED (a number "
                    "below 2^29) or a file of work-groups%s\n", cmd, s,
            strncmp(s, "random:", 7) && strchr(s, '.') ? " (no such file)" : "");
    return 0;
  }
  po->resident = 0;
  if (resident) {
    n = strtoul(resident, &end, 10);
    if (end == resident || *end || n < 1 || n > 65536 || resident[0] == '-') {
      fprintf(stderr, "tilescope %s: --resident '%s': work-groups at once, 1 to 65536\n", cmd,
              resident);
      return 0;
    }
    if (po->order == TS_ORDER_DEVICE) {
      fprintf(stderr, "tilescope %s: --resident %s: goes with an order of tilescope's (--order "
                      "linear, reverse, random:SEED or FILE), not the device's\n", cmd, resident);
      return 0;
    }
    po->resident = (int)n;
  }
  return 1;
}

int cli_image_name(const char *cmd, const char *opt, const char *path, int gif)
{
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  if (!dot || dot == base || strcasecmp(dot, ".png") == 0 || (gif && strcasecmp(dot, ".gif") == 0))
    return 1;
  fprintf(stderr, "tilescope %s: %s '%s': writes PNG%s, not %s (name the file .png%s)\n", cmd,
          opt, path, gif ? " or GIF" : "", dot + 1, gif ? " or .gif" : "");
  return 0;
}

/* path's folder, as given ("." for a bare name), into dir. */
static void folder_of(const char *path, char *dir, size_t size)
{
  const char *slash = strrchr(path, '/');
  if (!slash)
    snprintf(dir, size, ".");
  else if (slash == path)
    snprintf(dir, size, "/");
  else
    snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

/* Whether a and b name the same regular file: the same device and inode where both exist;
 * where neither does yet, the same name in the same (resolved) folder. Devices such as
 * /dev/null may be named twice. */
static int same_file(const char *a, const char *b)
{
  struct stat sa, sb;
  int ha = stat(a, &sa) == 0, hb = stat(b, &sb) == 0;
  if (ha && hb)
    return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ha || hb)
    return 0;
  char da[PATH_MAX], db[PATH_MAX], ra[PATH_MAX], rb[PATH_MAX];
  folder_of(a, da, sizeof da);
  folder_of(b, db, sizeof db);
  const char *ba = strrchr(a, '/'), *bb = strrchr(b, '/');
  ba = ba ? ba + 1 : a;
  bb = bb ? bb + 1 : b;
  if (!realpath(da, ra) || !realpath(db, rb))
    return strcmp(a, b) == 0;
  return strcmp(ra, rb) == 0 && strcmp(ba, bb) == 0;
}

int cli_check_files(const char *cmd, const cli_file *in, int nin, const cli_file *out,
                    int nout)
{
  for (int i = 0; i < nin; i++)
    if (in[i].path && access(in[i].path, R_OK) != 0) {
      fprintf(stderr, "tilescope %s: cannot open '%s': %s\n", cmd, in[i].path, strerror(errno));
      return 0;
    }
  for (int i = 0; i < nout; i++) {
    const char *p = out[i].path;
    if (!p)
      continue;
    struct stat st;
    char dir[PATH_MAX];
    folder_of(p, dir, sizeof dir);
    const char *why = NULL;
    if (stat(p, &st) == 0) {
      if (S_ISDIR(st.st_mode))
        why = "it is a directory";
    } else if (errno != ENOENT) {
      why = strerror(errno); /* too long a name, a folder on the way that is a file */
    } else if (stat(dir, &st) != 0 || access(dir, W_OK | X_OK) != 0) {
      why = strerror(errno); /* no such folder, or one that cannot be written to */
    }
    if (why) {
      fprintf(stderr, "tilescope %s: cannot write '%s': %s\n", cmd, p, why);
      return 0;
    }
    for (int j = 0; j < nin; j++)
      if (in[j].path && same_file(p, in[j].path)) {
        fprintf(stderr, "tilescope %s: %s '%s' is also %s: an output may not overwrite an "
                        "input\n", cmd, out[i].opt, p, in[j].opt);
        return 0;
      }
    for (int j = 0; j < i; j++)
      if (out[j].path && same_file(p, out[j].path)) {
        fprintf(stderr, "tilescope %s: %s '%s' is also %s: give each output a file of its "
                        "own\n", cmd, out[i].opt, p, out[j].opt);
        return 0;
      }
  }
  return 1;
}

int cli_record_input(const char *cmd, const char *given, const char *record, const char *named,
                     char *buf, size_t n, const char **input)
{
  *input = given;
  if (given || !named[0])
    return 1;
  snprintf(buf, n, "%s", named);
  if (access(buf, R_OK) == 0) {
    *input = buf;
    return 1;
  }
  const char *base = strrchr(named, '/'), *dir = strrchr(record, '/');
  snprintf(buf, n, "%.*s%s", dir ? (int)(dir - record + 1) : 0, record, base ? base + 1 : named);
  if (access(buf, R_OK) == 0) {
    *input = buf;
    return 1;
  }
  fprintf(stderr, "tilescope %s: --record %s: its input '%s' is not there, nor beside the record "
                  "(give it with -i)\n", cmd, record, named);
  return 0;
}

void cli_json_string(const char *s)
{
  ts_json_string(stdout, s);
}
