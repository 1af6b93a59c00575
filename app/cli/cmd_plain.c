/* `tilescope run --kernel-file K.cl` for a plain kernel (SPEC section 10): runs the file's
 * passes as its launch description says, writes the output, and with --observe runs it again
 * observed and prints each finding as one line naming the file, line, kernel, work-group,
 * work-item and element, grouped with a count. Each run is made in a process of its own with
 * a watchdog (core/isolate/): a kernel that crashes or never ends costs one line. Exit 0 when
 * the run is clean (and equals --expect), 1 when observation found something, the output
 * differs, or the kernel crashed or ran past --timeout, 2 when it could not run (a bad
 * option, a kernel that does not build, a description that does not fit). */
#define _POSIX_C_SOURCE 200809L /* strndup, open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "sarif.h"
#include "ts_compare.h"
#include "ts_isolate.h"
#include "ts_npy.h"
#include "ts_number.h"
#include "ts_plain.h"
#include "ts_sim.h"

static const char usage[] =
    "usage: tilescope run --kernel-file K.cl [-i IN.png] [-o OUT.png] [--expect REF.png]\n"
    "       tilescope run --sim FILE.sim\n"
    "                     [--pass \"entry=... global=... local=... ARG=ROLE\"]...\n"
    "                     [--observe [--observe-thread GX,GY:LX,LY] [--observe-pixel X,Y]]\n"
    "                     [--json]\n"
    "A plain OpenCL C kernel, launched as its `// tilescope: plain` lines (or each --pass)\n"
    "say, or as an Oclgrind simulator file describes it (its `dump` arguments are printed\n"
    "after the run as oclgrind-kernel prints them); with --observe every __global and\n"
    "__local access is recorded and checked.\n";

const char *cli_plain_file;
const char *cli_plain_launch;
int cli_plain_sim;
static const char *passes[TS_PLAIN_MAX_PASSES];
static int npasses;

/* The chosen work-item's accesses (watch 0), or every access of the watched pixel (1), per
 * pass, in the order they happened. */
static void print_log(FILE *out, const ts_plain_desc *d, const ts_plain_result *r,
                      const ts_plain_opts *o, int watch)
{
  static const char *const verbs[] = { "", "reads", "writes", "updates", "atomic on" };
  for (int p = 0; p < r->npasses; p++) {
    const ts_plain_launch *L = &r->launch[p];
    uint32_t cg = (uint32_t)(o->chosen_group[0] + (long)L->ngroups[0] * o->chosen_group[1]);
    uint32_t ci = (uint32_t)(o->chosen_item[0] + (long)L->local[0] * o->chosen_item[1]);
    size_t shown = 0;
    for (size_t i = 0; i < L->nlog; i++) {
      const ts_plain_access *a = &L->log[i];
      int mine = o->chosen_group[0] >= 0 && a->group == cg && a->item == ci;
      if (watch ? !a->watched : !mine)
        continue;
      if (shown == 0)
        fprintf(out, watch ? "pass %d (%s), every access of pixel (%d,%d) of the output:\n"
                           : "pass %d (%s), the chosen work-item's accesses:\n",
                p + 1, L->entry, o->watch_x, o->watch_y);
      if (shown++ >= 200)
        continue;
      ts_plain_place pl = { .space = a->space, .buf = a->buf, .acc = a->acc, .off = a->off };
      char el[256], g[40] = "", it[40] = "", who[112] = "";
      ts_plain_element_name(d, r, p, &pl, el, sizeof el);
      if (watch) {
        ts_plain_group_name(L, a->group, g, sizeof g);
        ts_plain_item_name(L, a->item, it, sizeof it);
        snprintf(who, sizeof who, " work-group %s item %s", g, it);
      }
      fprintf(out, "  line %d:%s %s %s (%u byte%s)%s\n", a->line, who,
              verbs[a->acc >= 1 && a->acc <= 4 ? a->acc : 1], el, a->bytes, a->bytes == 1 ? "" : "s",
              a->outside ? ", outside the buffer: not performed" : "");
    }
    if (shown > 200)
      fprintf(out, "  ... and %zu more\n", shown - 200);
    if (L->nlog < L->nlog_all && shown)
      fprintf(out, "  (the log kept the first %zu of %zu accesses)\n", L->nlog, L->nlog_all);
  }
}

/* The output's values as a NumPy array: rows, columns and (more than one) channels. */
static void raw_shape(const ts_plain_result *r, ts_npy *a)
{
  snprintf(a->descr, sizeof a->descr, "%s", ts_npy_descr(r->raw_lane, r->raw_float, r->raw_signed));
  a->ndim = r->raw_channels > 1 ? 3 : 2;
  a->shape[0] = r->raw_rows;
  a->shape[1] = r->raw_cols;
  a->shape[2] = r->raw_channels;
}

/* --expect: 1 when the output equals the reference (an 8-bit PNG against the output as
 * shown, a 16-bit PNG or a .npy array against its values), 0 when not (why says where
 * first), -1 when the reference cannot be read. */
static int expect_output(const char *path, const ts_plain_result *r, char *why, size_t n,
                         ts_error *err)
{
  why[0] = 0;
  size_t len = strlen(path);
  if (len > 4 && strcmp(path + len - 4, ".npy") == 0) {
    ts_npy ref, mine = { 0 };
    if (ts_npy_read(path, &ref, err) != TS_OK)
      return -1;
    raw_shape(r, &mine);
    int same_shape = strcmp(ref.descr, mine.descr) == 0 && ref.ndim == mine.ndim;
    for (int i = 0; same_shape && i < ref.ndim; i++)
      same_shape = ref.shape[i] == mine.shape[i];
    int eq = same_shape && ref.bytes == r->raw_bytes;
    if (!same_shape) {
      snprintf(why, n, ": it holds %s of %lldx%lld where the output is %s of %dx%d", ref.descr,
               (long long)(ref.ndim > 1 ? ref.shape[1] : 0), (long long)ref.shape[0], mine.descr,
               r->raw_cols, r->raw_rows);
    } else if (eq && memcmp(ref.data, r->raw, ref.bytes) != 0) {
      eq = 0;
      size_t px = (size_t)r->raw_lane * (size_t)r->raw_channels, i = 0;
      const uint8_t *a = r->raw, *b = ref.data;
      while (a[i] == b[i])
        i++;
      snprintf(why, n, ": first at pixel (%zu,%zu) channel %zu", (i / px) % (size_t)r->raw_cols,
               i / px / (size_t)r->raw_cols, (i % px) / (size_t)r->raw_lane);
    }
    ts_npy_free(&ref);
    return eq;
  }
  int w, h, c, depth;
  uint16_t *px = NULL;
  if (ts_png_load_samples(path, &w, &h, &c, &depth, &px, err) != TS_OK)
    return -1;
  if (depth == 16) {
    /* a 16-bit PNG: the output's values themselves (integers), channel for channel */
    int eq = w == r->raw_cols && h == r->raw_rows && c == r->raw_channels && !r->raw_float;
    if (!eq)
      snprintf(why, n, ": a 16-bit PNG of %dx%dx%d holds values; the output is %dx%dx%d of %s",
               w, h, c, r->raw_cols, r->raw_rows, r->raw_channels, r->raw_float ? "floats" : "integers");
    size_t count = (size_t)w * (size_t)h * (size_t)c;
    for (size_t i = 0; eq && i < count; i++) {
      const uint8_t *q = (const uint8_t *)r->raw + i * (size_t)r->raw_lane;
      int64_t v = r->raw_lane == 1   ? (r->raw_signed ? *(const int8_t *)q : *q)
                  : r->raw_lane == 2 ? (r->raw_signed ? (int16_t)(q[0] | q[1] << 8) : (q[0] | q[1] << 8))
                  : r->raw_signed    ? (int32_t)((uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24)
                                     : (int64_t)((uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24);
      if (v != px[i]) {
        eq = 0;
        snprintf(why, n, ": first at pixel (%zu,%zu) channel %zu: %lld where it has %u",
                 (i / (size_t)c) % (size_t)w, i / (size_t)c / (size_t)w, i % (size_t)c, (long long)v, px[i]);
      }
    }
    free(px);
    return eq;
  }
  free(px);
  ts_image *ref = NULL;
  if (ts_image_load_png(path, &ref, err) != TS_OK)
    return -1;
  const ts_image *so = r->out;
  int eq = ref->w == so->w && ref->h == so->h && ref->c == so->c &&
           memcmp(ref->data, so->data, (size_t)so->w * (size_t)so->h * (size_t)so->c) == 0;
  if (ref->w != so->w || ref->h != so->h || ref->c != so->c)
    snprintf(why, n, ": it is %dx%dx%d, the output %dx%dx%d", ref->w, ref->h, ref->c, so->w, so->h, so->c);
  ts_image_destroy(ref);
  return eq;
}

/* A failure that is the command's to fix (exit 2): a kernel that does not build, a launch or
 * an argument that is wrong, sizes past a limit, what the device cannot do; the others (a
 * crash, the watchdog) are the kernel's, found by running it (exit 1). */
static int usage_error(ts_status st)
{
  return st == TS_ERR_ARG || st == TS_ERR_BUILD || st == TS_ERR_FORMAT ||
         st == TS_ERR_TOO_LARGE || st == TS_ERR_UNSUPPORTED || st == TS_ERR_IO;
}

/* A run in this process (--isolate none): what the kernel prints (printf) goes to stderr, as
 * an isolated run's does, so that it cannot garble this command's output (--json). */
static ts_status run_here(ts_cl *cl, const ts_plain_desc *d, const ts_image *in,
                          const ts_plain_opts *o, ts_plain_result **res, ts_error *err)
{
  fflush(stdout);
  int saved = dup(1);
  if (saved >= 0)
    dup2(2, 1);
  ts_status st = ts_plain_run(cl, d, in, o, res, err);
  fflush(stdout);
  if (saved >= 0) {
    dup2(saved, 1);
    close(saved);
  }
  return st;
}

/* A pass's work-group records as JSON members: "ticks" (the records' clock at the end, a
 * tick each group's start, barrier and end), "late" (groups that stopped waiting for their
 * turn), and "records", by start: each group, its ticket, its start and end ticks, the id
 * the device launched it as, the polls it waited, its barriers and the first ones' ticks. */
static void print_records(const ts_plain_launch *L)
{
  if (!L->groups)
    return;
  printf(",\"ticks\":%u,\"late\":%u,\"records\":[", L->ticks, L->late);
  uint32_t n = L->ngroups_all, *by = malloc((size_t)n * sizeof *by + 1);
  for (uint32_t g = 0; by && g < n; g++)
    by[g] = g;
  for (uint32_t i = 1; by && i < n; i++) { /* by ticket: an insertion sort of a near order */
    uint32_t x = by[i], j = i;
    while (j > 0 && L->groups[by[j - 1]].ticket > L->groups[x].ticket) {
      by[j] = by[j - 1];
      j--;
    }
    by[j] = x;
  }
  for (uint32_t i = 0; i < n; i++) {
    uint32_t g = by ? by[i] : i;
    const ts_plain_group *G = &L->groups[g];
    printf("%s{\"group\":[%u,%u,%u],\"ticket\":%u,\"start\":%u,\"end\":%u,"
           "\"launched_as\":%u,\"spins\":%u,\"barriers\":%u,\"barrier_ticks\":[", i ? "," : "",
           g % L->ngroups[0], g / L->ngroups[0] % L->ngroups[1],
           g / L->ngroups[0] / L->ngroups[1], G->ticket, G->start ? G->start - 1 : 0,
           G->end ? G->end - 1 : 0, G->launched_as, G->spins, G->nbar);
    for (uint32_t b = 0; b < G->nbar && b < TS_PLAIN_REC_BARS; b++)
      printf("%s%u", b ? "," : "", G->bar[b] ? G->bar[b] - 1 : 0);
    printf("]}");
  }
  printf("]");
  free(by);
}

/* What the simulator file marks dump, as oclgrind-kernel prints it. */
static void print_dumps(const ts_sim *sim, const ts_plain_result *r, FILE *f)
{
  size_t at = 0;
  for (int i = 0; i < sim->nargs; i++) {
    const ts_sim_arg *a = &sim->args[i];
    if (!a->dump || a->kind != TS_SIM_BUFFER)
      continue;
    if (at + a->size > r->dump_bytes)
      break; /* the run read back fewer (cannot happen: ts_plain_run reads every one) */
    ts_sim_dump(a, r->dump + at, f);
    at += a->size;
  }
}

int cmd_run_plain(int argc, char **argv)
{
  /* --pass is repeatable: take them out before the table parser */
  int out_n = 1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--pass") == 0 && i + 1 < argc) {
      if (npasses == TS_PLAIN_MAX_PASSES) {
        fprintf(stderr, "tilescope run: --pass: more than %d passes\n", TS_PLAIN_MAX_PASSES);
        return EXIT_USAGE;
      }
      passes[npasses++] = argv[++i];
    } else {
      argv[out_n++] = argv[i];
    }
  }
  argc = out_n;
  const char *in_path = NULL, *out_path = NULL, *expect_path = NULL, *thread = NULL, *raw_path = NULL,
             *kernels = NULL, *pixel = NULL, *sim_path = NULL;
  int observe = 0, json = 0, device = -1, repeats = 1, isolate = 1, adversary = 0;
  double timeout = 300;
  const char *isolate_s = NULL, *fail_on = NULL, *sarif_path = NULL, *order_s = NULL,
             *trace_path = NULL,
             *resident_s = NULL;
  const cli_opt opts[] = {
    { "--input", 'i', OPT_STR, &in_path, "IN.png", "input image (default: the test chart)", NULL },
    { "--output", 'o', OPT_STR, &out_path, "OUT.png", "write the output image", NULL },
    { "--expect", 0, OPT_STR, &expect_path, "REF", "compare the output, exactly (exit 1 when it differs): an 8-bit PNG with the output as shown; a 16-bit PNG, or a .npy (as --raw writes), with its values", NULL },
    { "--raw", 0, OPT_STR, &raw_path, "OUT.npy", "write the output's values, of its own type and shape, as a NumPy array", NULL },
    { "--observe", 0, OPT_FLAG, &observe, NULL, "record and check every __global and __local access", NULL },
    { "--observe-thread", 0, OPT_STR, &thread, "GX,GY:LX,LY", "with --observe: print this work-item's every access", NULL },
    { "--observe-pixel", 0, OPT_STR, &pixel, "X,Y", "with --observe: print every access of this output pixel, by any work-item", NULL },
    { "--json", 0, OPT_FLAG, &json, NULL, "print the summary as one JSON object", NULL },
    { "--device", 0, OPT_UINT, &device, "N", "OpenCL device (see tilescope list)", NULL },
    { "--kernels", 0, OPT_STR, &kernels, "DIR", "kernels folder (for the observation runtime)", NULL },
    { "--repeats", 0, OPT_INT, &repeats, "N", "time each pass N times, keep the fastest (default 1)", NULL },
    { "--timeout", 0, OPT_DBL, &timeout, "S", "the watchdog: a run past S seconds is stopped (default 300)", NULL },
    { "--isolate", 0, OPT_STR, &isolate_s, "process|none", "run the kernel in a process of its own (default), or in this one", NULL },
    { "--fail-on", 0, OPT_STR, &fail_on, "benign", "with --observe: exit 1 on benign races too (every writer wrote the same value)", NULL },
    { "--sim", 0, OPT_STR, &sim_path, "FILE.sim", "launch the kernel as this Oclgrind simulator file describes it (instead of --kernel-file)", NULL },
    { "--trace", 0, OPT_STR, &trace_path, "OUT.json", "observed: write the work-groups' records (start, barriers, end on the launch's clock) as trace-event JSON, for ui.perfetto.dev", NULL },
    { "--sarif", 0, OPT_STR, &sarif_path, "OUT.sarif", "write the findings of --observe as SARIF 2.1.0, for code scanning (docs/ci.md)", NULL },
    { "--order", 0, OPT_STR, &order_s, "device|linear|reverse|random:SEED|FILE", "observed only: start the work-groups in another legal order, one at a time (by id, reversed, shuffled, or as FILE lists them, X,Y,Z a line), so that an order-dependent result shows", NULL },
    { "--resident", 0, OPT_STR, &resident_s, "K", "with --order: K work-groups at once (default 1)", NULL },
    { "--adversary", 0, OPT_FLAG, &adversary, NULL, "observed only: start the work-groups in a random order of its own each run where no group keeps its place, one at a time (with --resident, K)", NULL },
  };
  const char *pos[1];
  int npos;
  int r = cli_parse("run", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), pos, 0, &npos,
                    usage);
  if (r)
    return r < 0 ? EXIT_OK : r;
  if (out_path && !cli_image_name("run", "-o", out_path, 0))
    return EXIT_USAGE;
  ts_plain_opts po = { .observe = observe, .chosen_pass = -1, .repeats = repeats, .watch_x = -1 };
  for (int i = 0; i < 3; i++)
    po.chosen_group[i] = po.chosen_item[i] = i ? 0 : -1;
  if (thread) {
    int64_t g[4];
    if (!observe || !ts_parse_ints(thread, ",:,", 0, INT32_MAX, g)) {
      fprintf(stderr, "tilescope run: --observe-thread '%s': %s\n", thread,
              observe ? "give the work-group and work-item as GX,GY:LX,LY (from 0)" : "needs --observe");
      return EXIT_USAGE;
    }
    po.chosen_group[0] = g[0];
    po.chosen_group[1] = g[1];
    po.chosen_item[0] = g[2];
    po.chosen_item[1] = g[3];
  }
  if (pixel) {
    int64_t xy[2];
    if (!observe || !ts_parse_ints(pixel, ",", 0, INT32_MAX, xy)) {
      fprintf(stderr, "tilescope run: --observe-pixel '%s': %s\n", pixel,
              observe ? "give the pixel as X,Y (from 0)" : "needs --observe");
      return EXIT_USAGE;
    }
    po.watch_x = (int)xy[0];
    po.watch_y = (int)xy[1];
  }
  if (fail_on && strcmp(fail_on, "benign") != 0) {
    fprintf(stderr, "tilescope run: --fail-on '%s': a plain kernel fails on its findings; "
                    "benign adds benign races\n", fail_on);
    return EXIT_USAGE;
  }
  int fail_benign = fail_on != NULL;
  if (adversary && order_s) {
    fprintf(stderr, "tilescope run: --adversary: chooses an order of its own; give it or "
                    "--order %s, not both\n", order_s);
    return EXIT_USAGE;
  }
  if (adversary) {
    if (!cli_order("run", "linear", resident_s, &po))
      return EXIT_USAGE;
    po.order = TS_ORDER_ADVERSARY;
    po.order_seed = ts_adversary_seed() & 0x1fffffffu;
    po.observe = observe = 1;
  }
  if (resident_s && !order_s && !adversary) {
    fprintf(stderr, "tilescope run: --resident %s: goes with --order (linear, reverse, "
                    "random:SEED or FILE)\n", resident_s);
    return EXIT_USAGE;
  }
  if (order_s) { /* another legal order: the observed run alone has it */
    if (!cli_order("run", order_s, resident_s, &po))
      return EXIT_USAGE;
    if (po.order)
      po.observe = observe = 1;
  }
  if (isolate_s && strcmp(isolate_s, "process") && strcmp(isolate_s, "none")) {
    fprintf(stderr, "tilescope run: --isolate '%s': process or none\n", isolate_s);
    return EXIT_USAGE;
  }
  isolate = !isolate_s || strcmp(isolate_s, "none") != 0;
  if (!(timeout > 0 && timeout <= 86400)) {
    fprintf(stderr, "tilescope run: --timeout: give more than 0 and at most 86400 seconds\n");
    return EXIT_USAGE;
  }
  if (repeats < 1 || repeats > 1000) {
    fprintf(stderr, "tilescope run: --repeats: must be 1 to 1000\n");
    return EXIT_USAGE;
  }
  if (sim_path && (cli_plain_file || in_path || out_path || expect_path || raw_path || pixel ||
                   npasses)) {
    fprintf(stderr, "tilescope run: --sim %s: the file says what to launch, on what: it takes "
                    "no --kernel-file, --pass, -i, -o, --expect, --raw or --observe-pixel\n",
            sim_path);
    return EXIT_USAGE;
  }
  if (!sim_path && !in_path && !(in_path = paths_default_asset()))
    return EXIT_USAGE;
  const cli_file ins[] = { { "--kernel-file", cli_plain_file }, { "--launch", cli_plain_launch },
                           { "-i", in_path }, { "--expect", expect_path }, { "--sim", sim_path } };
  const cli_file outs[] = { { "-o", out_path }, { "--raw", raw_path }, { "--sarif", sarif_path },
                            { "--trace", trace_path } };
  if (trace_path)
    po.observe = observe = 1;
  if (!cli_check_files("run", ins, 5, outs, 4))
    return EXIT_USAGE;
  const char *kdir = paths_kernels_dir(kernels);
  if (!kdir)
    return EXIT_USAGE;
  ts_error err = { 0 };
  ts_plain_desc *d = NULL;
  ts_image *in = NULL;
  ts_cl *cl = NULL;
  ts_plain_result *res = NULL, *plain = NULL;
  ts_sim *sim = NULL;
  int rc = EXIT_USAGE;
  if (sim_path) {
    if (ts_sim_load(sim_path, isolate ? timeout : 0, &sim, &d, &in, &err) != TS_OK) {
      fprintf(stderr, "tilescope run: %s\n", err.msg);
      goto out;
    }
  } else if (ts_plain_load_launch(cli_plain_file, cli_plain_launch, passes, npasses,
                                  isolate ? timeout : 0, &d, &err) != TS_OK) {
    fprintf(stderr, "tilescope run: %s\n", err.msg);
    goto out;
  }
  if (!in && ts_image_load_png(in_path, &in, &err) != TS_OK) {
    fprintf(stderr, "tilescope run: %s\n", err.msg);
    goto out;
  }
  /* Each run in a process of its own with a watchdog (--isolate none: in this one), so that
   * a kernel that crashes, writes past its buffers or never ends costs one line, not
   * tilescope. Observed first: an observed run performs no access outside a buffer, so when
   * it finds one the plain run, which would perform it, is not made. */
  if (!isolate && ts_cl_create(device, kdir, &cl, &err) != TS_OK) {
    fprintf(stderr, "tilescope run: %s\n", err.msg);
    goto out;
  }
  ts_status st = TS_OK;
  char unobservable[sizeof err.msg] = "";
  ts_plain_opts plain_o = po;
  plain_o.observe = 0;
  /* The plain run's build goes on beside the observed run's (a first build is seconds of one
   * core each): started first, it waits at `go` once built, and runs only after the observed
   * run has ended, when that run says it may, so that neither run's times include the other's
   * work; else it is stopped unrun. (Not from a process with threads, whose children are
   * programs of their own: there it is made after, as before.) */
  ts_isolated ahead;
  int go[2] = { -1, -1 }, has_ahead = 0;
  if (observe && isolate && !po.order && !ts_isolate_program_if_threaded() &&
      socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go) == 0) {
    ts_plain_opts ao = plain_o;
    ts_error aerr = { 0 };
    ao.start_fd = go[0];
    has_ahead = ts_plain_run_start(device, kdir, d, in, &ao, timeout, &ahead, &aerr) == TS_OK;
    close(go[0]);
  }
  if (observe)
    st = isolate ? ts_plain_run_isolated(device, kdir, d, in, &po, timeout, &res, &err)
                 : run_here(cl, d, in, &po, &res, &err);
  if (st == TS_ERR_UNSUPPORTED) { /* it cannot be observed here: said, and the plain run made */
    snprintf(unobservable, sizeof unobservable, "%s", err.msg);
    fprintf(stderr, "tilescope run: --observe: %s\n", unobservable);
    st = TS_OK;
  }
  if (st == TS_OK && !po.order &&
      (!res || (!ts_plain_unsafe_access(res) && !res->counts[TS_FIND_DIVERGE]))) {
    if (has_ahead && send(go[1], "", 1, MSG_NOSIGNAL) == 1) { /* (a stopped child: no SIGPIPE) */
      has_ahead = 0;
      st = ts_plain_run_finish(&ahead, &plain, &err);
    } else {
      st = isolate ? ts_plain_run_isolated(device, kdir, d, in, &plain_o, timeout, &plain, &err)
                   : run_here(cl, d, in, &plain_o, &plain, &err);
    }
  }
  if (has_ahead)
    ts_isolate_cancel(&ahead);
  if (go[1] >= 0)
    close(go[1]);
  /* The plain run failed (crashed, ran past the watchdog) after an observed one: what the
   * observed run found is reported first, then the failure; no output is written. */
  ts_status plain_failed = res && st != TS_OK ? st : TS_OK;
  if (plain_failed != TS_OK) {
    ts_plain_result_free(plain);
    plain = NULL;
    st = TS_OK;
  }
  if (st != TS_OK) {
    /* a crash of an unobserved run: the observed one would name the access */
    int hint = !observe && st == TS_ERR_DEVICE && strstr(err.msg, "crashed (");
    fprintf(stderr, "tilescope run: %s%s\n", err.msg,
            hint ? " (--observe names what it accessed)" : "");
    rc = usage_error(st) ? EXIT_USAGE : EXIT_DIFF;
    goto out;
  }
  const ts_plain_result *shown = plain ? plain : res;
  rc = EXIT_OK;
  FILE *o = json ? stderr : stdout;
  const char *base = strrchr(d->path, '/') ? strrchr(d->path, '/') + 1 : d->path;
  if (sim)
    fprintf(o, "%s as %s launches it (%s): %d pass\n", base, sim_path, shown->device,
            d->npasses);
  else
    fprintf(o, "%s on %dx%dx%d (%s): %d pass%s\n", base, in->w, in->h, in->c, shown->device,
            d->npasses, d->npasses == 1 ? "" : "es");
  for (int p = 0; p < d->npasses; p++) {
    const ts_plain_launch *L = &shown->launch[p];
    if (L->dims == 3)
      fprintf(o, "  %s: global %zux%zux%zu, local %zux%zux%zu, %u work-groups", L->entry,
              L->global[0], L->global[1], L->global[2], L->local[0], L->local[1], L->local[2],
              L->ngroups_all);
    else
      fprintf(o, "  %s: global %zux%zu, local %zux%zu, %u work-groups", L->entry, L->global[0],
              L->global[1], L->local[0], L->local[1], L->ngroups_all);
    if (plain)
      fprintf(o, ", %.3f ms", L->ms);
    if (res && plain)
      fprintf(o, " (observed: %.3f ms, %.1fx)", res->launch[p].ms,
              L->ms > 0 ? res->launch[p].ms / L->ms : 0.0);
    else if (res)
      fprintf(o, ", observed %.3f ms", res->launch[p].ms);
    fputc('\n', o);
    /* a default work-group that fell to 1 where the global size is not even: said */
    int fell = 0;
    for (int i = 0; i < L->dims && !d->pass[p].ldims; i++)
      fell |= L->local[i] == 1 && L->global[i] > 1;
    if (fell)
      fprintf(o, "    (its work-groups are 1 wide where no size of 16, 8, 4 or 2 divides the "
                 "global one: say local=..., or round global= up and test the bounds in the "
                 "kernel)\n");
  }
  if (shown->raw && !sim && (shown->raw_lane > 1 || shown->raw_channels != in->c ||
                     shown->raw_cols != in->w || shown->raw_rows != in->h))
    fprintf(o, "output: %dx%d, %d channel%s of %d-byte %s, shown %s\n", shown->raw_cols,
            shown->raw_rows, shown->raw_channels, shown->raw_channels == 1 ? "" : "s", shown->raw_lane,
            shown->raw_float ? "floats" : shown->raw_signed ? "signed integers" : "unsigned integers",
            shown->mapping);
  if (!plain && po.order == TS_ORDER_ADVERSARY)
    fprintf(o, "the plain run was not made: --adversary runs the observed kernel alone, its "
               "work-groups in an order where none keeps its place (seed %u; the output is that "
               "run's)\n", po.order_seed);
  else if (!plain && po.order)
    fprintf(o, "the plain run was not made: --order %s runs the observed kernel alone, its "
               "work-groups in that order (the output is that run's)\n", order_s);
  else if (!plain && plain_failed == TS_OK && res && ts_plain_unsafe_access(res))
    fprintf(o, "the plain run was not made: it would %s (below); the output is the "
               "observed run's, %s\n", ts_plain_unsafe_access(res),
            strncmp(ts_plain_unsafe_access(res), "use private", 11) == 0
                ? "where the private arrays and vectors it follows start at 0"
                : "which performs none of those accesses");
  else if (!plain && plain_failed == TS_OK && res)
    fprintf(o, "the plain run was not made: its work-groups part at a barrier (below), which a "
               "GPU may hang on; the output is the observed run's, where each group takes the "
               "way its first work-item took\n");
  uint64_t total = 0;
  if (res) {
    for (int k = 0; k < TS_NFIND; k++)
      total += res->counts[k];
    const ts_image *ro = res->out;
    int same = !plain || !ro || !plain->out ||
               memcmp(ro->data, plain->out->data, (size_t)ro->w * (size_t)ro->h * (size_t)ro->c) == 0;
    same = same && (!plain || (res->dump_bytes == plain->dump_bytes &&
                               (!res->dump_bytes ||
                                memcmp(res->dump, plain->dump, res->dump_bytes) == 0)));
    const char *differs =
        same || ts_plain_unsafe_access(res) ? "" : "; the observed output differs from the plain run's";
    if (res->nfindings == 0)
      fprintf(o, "observed: no finding, every access in order%s\n", differs);
    else
    {
      /* a divergence counts decisions, the other findings accesses */
      unsigned long long dec = res->counts[TS_FIND_DIVERGE], acc = total - dec;
      char what[96];
      if (dec == 0 || acc == 0)
        snprintf(what, sizeof what, "%llu %s", acc ? acc : dec,
                 acc ? (acc == 1 ? "access" : "accesses") : dec == 1 ? "decision" : "decisions");
      else
        snprintf(what, sizeof what, "%llu access%s and %llu decision%s", acc, acc == 1 ? "" : "es",
                 dec, dec == 1 ? "" : "s");
      fprintf(o, "observed: %zu finding%s (%s flagged)%s\n", res->nfindings,
              res->nfindings == 1 ? "" : "s", what, differs);
    }
    for (size_t i = 0; i < res->nfindings; i++) {
      char line[1024];
      ts_plain_finding_line(d, res, &res->findings[i], line, sizeof line);
      fprintf(o, "%s\n", line);
    }
    if (po.chosen_group[0] >= 0)
      print_log(o, d, res, &po, 0);
    if (po.watch_x >= 0)
      print_log(o, d, res, &po, 1);
    /* a benign race is a note: it fails the run only when asked */
    if (total > (fail_benign ? 0 : res->counts[TS_FIND_BENIGN]))
      rc = EXIT_DIFF;
    /* a work-item or a pixel in no launch: said, rather than an empty log */
    int in_some = 0;
    for (int p = 0; p < res->npasses; p++) {
      const ts_plain_launch *L = &res->launch[p];
      in_some |= po.chosen_group[0] < (long)L->ngroups[0] && po.chosen_group[1] < (long)L->ngroups[1] &&
                 po.chosen_item[0] < (long)L->local[0] && po.chosen_item[1] < (long)L->local[1];
    }
    if (po.chosen_group[0] >= 0 && !in_some) {
      const ts_plain_launch *L = &res->launch[0];
      fprintf(stderr, "tilescope run: --observe-thread '%s': no pass has that work-group and "
              "work-item (pass 1: %ux%u work-groups of %zux%zu)\n", thread, L->ngroups[0],
              L->ngroups[1], L->local[0], L->local[1]);
      rc = EXIT_USAGE;
    }
    if (po.watch_x >= 0 && (po.watch_x >= res->raw_cols || po.watch_y >= res->raw_rows)) {
      fprintf(stderr, "tilescope run: --observe-pixel '%s': outside the output (%dx%d)\n", pixel,
              res->raw_cols, res->raw_rows);
      rc = EXIT_USAGE;
    }
  }
  /* --sarif: the findings above (none without --observe), also when the plain run failed */
  if (sarif_path && !sarif_write_plain("run", sarif_path, d, res, fail_benign, json ? NULL : o)) {
    rc = EXIT_USAGE;
    goto out;
  }
  if (plain_failed != TS_OK) {
    fprintf(stderr, "tilescope run: %s\n", err.msg);
    rc = usage_error(plain_failed) ? EXIT_USAGE : EXIT_DIFF;
    goto out;
  }
  int matches = -1;
  if (expect_path) {
    char why[200];
    int er = expect_output(expect_path, shown, why, sizeof why, &err);
    if (er < 0) {
      fprintf(stderr, "tilescope run: --expect: %s\n", err.msg);
      rc = EXIT_USAGE;
      goto out;
    }
    matches = er;
    fprintf(o, "output %s %s%s\n", matches ? "equals" : "differs from", expect_path, why);
    if (!matches)
      rc = EXIT_DIFF;
  }
  if (raw_path) {
    ts_npy a = { .data = shown->raw, .bytes = shown->raw_bytes };
    raw_shape(shown, &a);
    if (ts_npy_write(raw_path, &a, &err) != TS_OK) {
      fprintf(stderr, "tilescope run: --raw: %s\n", err.msg);
      rc = EXIT_USAGE;
      goto out;
    }
  }
  if (out_path && ts_image_save_png(out_path, shown->out, &err) != TS_OK) {
    fprintf(stderr, "tilescope run: -o: %s\n", err.msg);
    rc = EXIT_USAGE;
    goto out;
  }
  if (trace_path && res && ts_plain_trace_write(res, trace_path, &err) != TS_OK) {
    fprintf(stderr, "tilescope run: --trace: %s\n", err.msg);
    rc = EXIT_USAGE;
    goto out;
  }
  if (trace_path && !json)
    fprintf(o, "wrote %s\n", trace_path);
  if (raw_path && !json)
    fprintf(o, "wrote %s\n", raw_path);
  if (out_path && !json)
    fprintf(o, "wrote %s\n", out_path);
  if (json) {
    printf("{\"kernel\":");
    cli_json_string(d->path);
    printf(",\"device\":");
    cli_json_string(shown->device);
    printf(",\"passes\":[");
    for (int p = 0; p < d->npasses; p++) {
      const ts_plain_launch *L = &shown->launch[p];
      printf("%s{\"entry\":", p ? "," : "");
      cli_json_string(L->entry);
      printf(",\"global\":[%zu,%zu,%zu],\"local\":[%zu,%zu,%zu],\"groups\":%u", L->global[0],
             L->global[1], L->global[2], L->local[0], L->local[1], L->local[2], L->ngroups_all);
      if (plain) /* no plain run is made when it would access outside its buffers */
        printf(",\"ms\":%.4f", L->ms);
      else
        printf(",\"ms\":null");
      if (res) {
        printf(",\"observed_ms\":%.4f", res->launch[p].ms);
        print_records(&res->launch[p]);
      }
      printf("}");
    }
    printf("]");
    if (res) {
      printf(",\"counts\":{");
      for (int k = 0; k < TS_NFIND; k++) /* the kinds by their words (sarif.c), as "kind" */
        printf("%s\"%s\":%llu", k ? "," : "", sarif_plain_kind_key(k),
               (unsigned long long)res->counts[k]);
      printf("},\"findings\":[");
      for (size_t i = 0; i < res->nfindings; i++) {
        char line[1024];
        ts_plain_finding_line(d, res, &res->findings[i], line, sizeof line);
        printf("%s{\"kind\":\"%s\",\"kind_id\":%d,\"line\":%d,\"count\":%llu,\"text\":",
               i ? "," : "", sarif_plain_kind_key(res->findings[i].kind), res->findings[i].kind,
               res->findings[i].line, (unsigned long long)res->findings[i].count);
        cli_json_string(line);
        printf("}");
      }
      printf("]");
    }
    if (matches >= 0)
      printf(",\"output_ok\":%s", matches ? "true" : "false");
    if (shown->printed_bytes) { /* what the kernel printed, and a simulator file's dumps */
      char *text = strndup(shown->printed, shown->printed_bytes);
      printf(",\"printed\":");
      cli_json_string(text ? text : "");
      free(text);
    }
    if (sim) {
      char *text = NULL;
      size_t n = 0;
      FILE *m = open_memstream(&text, &n);
      if (m) {
        print_dumps(sim, shown, m);
        fclose(m);
      }
      printf(",\"dumps\":");
      cli_json_string(text ? text : "");
      free(text);
    }
    printf("}\n");
  }
  if (unobservable[0]) /* --observe asked for what cannot be done here (said above) */
    rc = EXIT_USAGE;
  /* what the kernel printed, once, from the run shown; a simulator file's as the device
   * printed it (an Oclgrind .ref compares it line for line), before its dumps */
  int by_pass = d->npasses > 1 && !sim && !json && shown->printed_at[0] >= 0;
  if (shown->printed_bytes && !sim && !json && !by_pass)
    printf("printed by the kernel (printf) in the %s run:\n", plain ? "plain" : "observed");
  if (shown->printed_bytes && !by_pass) /* with --json, standard output is the JSON alone */
    fwrite(shown->printed, 1, shown->printed_bytes, json ? stderr : stdout);
  for (int p = 0; by_pass && p < d->npasses; p++) { /* each pass's, labelled */
    size_t from = (size_t)shown->printed_at[p] - (size_t)shown->printed_at[0];
    size_t to = p + 1 < d->npasses && shown->printed_at[p + 1] >= 0
                    ? (size_t)shown->printed_at[p + 1] - (size_t)shown->printed_at[0]
                    : shown->printed_bytes;
    if (to > shown->printed_bytes)
      to = shown->printed_bytes;
    if (from >= to)
      continue;
    printf("printed by the kernel (printf) in the %s run, pass %d (%s):\n",
           plain ? "plain" : "observed", p + 1, d->pass[p].entry);
    fwrite(shown->printed + from, 1, to - from, stdout);
  }
  if (sim && !json)
    print_dumps(sim, shown, stdout);
out:
  ts_sim_free(sim);
  ts_plain_result_free(res);
  ts_plain_result_free(plain);
  ts_cl_destroy(cl);
  ts_image_destroy(in);
  ts_plain_desc_free(d);
  return rc;
}

/* `tilescope __plain-worker`: a plain kernel's parse or run for a process with threads, in a
 * program of its own (see ts_plain_request): the request at file descriptor 3, the answer at
 * TS_ISOLATE_REPLY_FD. Not for people; its exit code only says whether the answer was
 * written. */
int cmd_plain_worker(void)
{
  ts_isolate_child_signals();
  ts_blob req = { 0 }, out = { 0 };
  /* read into a blob of the request's size (a file: its length known), not one grown as it
   * comes: with a 4K image it is some 25 MB */
  struct stat sb;
  if (fstat(3, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
    ts_blob_reserve(&req, (size_t)sb.st_size);
  for (;;) {
    if (req.cap == req.n)
      ts_blob_reserve(&req, 65536);
    if (req.oom)
      break;
    ssize_t got = read(3, req.p + req.n, req.cap - req.n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    req.n += (size_t)got;
  }
  close(3);
  ts_error err = { 0 };
  ts_plain_request q;
  ts_image *in = NULL;
  ts_plain_desc *d = NULL;
  ts_status st = ts_plain_request_unpack(&req, &q, &d, &in, &err);
  ts_blob_free(&req);
  if (st == TS_OK)
    st = ts_plain_job_do(&q, d, in, &out, &err);
  int ok = ts_isolate_reply(TS_ISOLATE_REPLY_FD, st, &err, &out);
  ts_blob_free(&out);
  ts_plain_desc_free(d);
  ts_image_destroy(in);
  return ok ? EXIT_OK : EXIT_USAGE;
}
