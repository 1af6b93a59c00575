/* `tilescope bench`: every variant (or a chosen list) on the OpenCL device, whole image, two
 * ways: host-ordered launches (one per pass, or per wave of a pass whose threads read each
 * other's output) and the device's own schedule (one launch per pass, a scoreboard; without
 * records unless --records). Kernel time from profiling events, the median of repeats after
 * a warm-up; beside it the device's copy bandwidth measured in the same run, and each
 * variant's share of it; then what limits each where the run can tell (limit_of): the
 * bytes it moves against the copy's, or, from one more one-launch run with records, the
 * time its groups waited and its critical path. A table, or --json. A way of a variant
 * stops repeating after WAY_SECONDS once it has 3 timed runs, so that a slow variant (a seed
 * form that launches thousands of times) does not hold the device for minutes; the table
 * says where that cut its repeats. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ts_chart.h"
#include "ts_number.h"
#include "ts_record.h"

/* The host's CPU in a few words, for the header: a speed measured on one CPU kind does not
 * carry to another, and pocl's device name cuts the model short. "AMD EPYC 9R14 (AVX-512, 2
 * cores)" from /proc/cpuinfo where there is one, else only the cores. */
static void host_cpu(char *buf, size_t n)
{
  char line[4096], model[256] = "", isa[16] = "";
  FILE *f = fopen("/proc/cpuinfo", "r");
  while (f && fgets(line, sizeof line, f) && (!model[0] || !isa[0])) {
    char *v = strchr(line, ':');
    if (!v)
      continue;
    v += v[1] == ' ' ? 2 : 1;
    v[strcspn(v, "\n")] = '\0';
    if (!model[0] && strncmp(line, "model name", 10) == 0)
      snprintf(model, sizeof model, "%s", v);
    else if (!isa[0] && strncmp(line, "flags", 5) == 0)
      snprintf(isa, sizeof isa, "%s, ", strstr(v, " avx512bw") ? "AVX-512"
                                        : strstr(v, " avx2")   ? "AVX2"
                                                               : "no AVX2");
  }
  if (f)
    fclose(f);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  snprintf(buf, n, "%s (%s%ld cores)", model[0] ? model : "a CPU", isa, cores);
}

static const char usage[] =
    "usage: tilescope bench [--size WxH] [--channels C] [-i IN.png] [--variants a,b,...]\n"
    "                       [--repeats N] [--json] [--records] [--kernel-size K] [--device N]\n"
    "                       [--kernels DIR]\n"
    "Times every variant on the OpenCL device (kernel time from profiling events, median of\n"
    "the repeats after two warm-up runs) beside the device's copy bandwidth, two ways:\n"
    "'launches': the host orders the work (one launch per pass, or per wave of a pass that\n"
    "reads its own output); 'one launch': the device keeps the walk order with a scoreboard\n"
    "(--exec device), without per-group records unless --records. 'limit': what limits\n"
    "each where the run can tell: its bytes against the copy's, or (one more one-launch\n"
    "run, recorded) the share of its groups' time spent waiting and its critical path,\n"
    "the longest chain of waits (in time only where the device has a clock). A way of a\n"
    "variant stops repeating after 3 s once it has 3 timed runs; the table says where.";

enum { WAY_SECONDS = 3, WAY_MIN_RUNS = 3 };

static double now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Whether a way timed k + 1 runs since t0 may stop before its repeats. */
static int way_done(int k, double t0)
{
  return k + 1 >= WAY_MIN_RUNS && now_s() - t0 > WAY_SECONDS;
}

typedef struct result {
  const ts_variant *v;
  int runs, dev_runs; /* the timed runs of each way (below --repeats where way_done cut it) */
  double ms, gbps, share, dev_ms;
  double bytes;
  int checked; /* the output of both ways against the filter's reference: 1 equal, 0 not,
                * -1 not checked (a user kernel that names no filter) */
  /* From a recorded one-launch run: the share of the groups' time spent waiting, the
   * critical path in groups and as a share of the record's span (clock_ns only). */
  int recorded, clock_ns;
  double wait_share, path_share;
  uint32_t path_groups;
  char limit[96];
} result;

/* What limits a variant, where the run can tell: its bytes, when it moves at least half of
 * what the copy does (the better of its two ways); else, in one launch, a critical path
 * that spans most of the run (the chain of waits) or groups that spend a large share of
 * their time waiting; else "not bytes" and what the record says. A logical clock has no
 * durations: there only the chain's length in groups. */
static void limit_of(result *x, double copy_gbps)
{
  double best = x->ms > 0 && (x->dev_ms <= 0 || x->ms <= x->dev_ms) ? x->ms : x->dev_ms;
  double share = best > 0 && copy_gbps > 0 ? x->bytes / (best * 1e6) / copy_gbps : 0;
  if (100 * share >= 49.5) /* as printed: a share shown as 50% is bytes */
    snprintf(x->limit, sizeof x->limit, "bytes: %.0f%% of copy", 100 * share);
  else if (x->recorded && x->clock_ns && x->path_groups > 1 && x->path_share >= 0.5)
    snprintf(x->limit, sizeof x->limit, "its chain: %u wait%s, %.0f%% of the run",
             x->path_groups - 1, x->path_groups == 2 ? "" : "s", 100 * x->path_share);
  else if (x->recorded && x->clock_ns && x->wait_share >= 0.25)
    snprintf(x->limit, sizeof x->limit, "waiting: %.0f%% of its groups' time",
             100 * x->wait_share);
  else if (x->recorded && x->clock_ns)
    snprintf(x->limit, sizeof x->limit, "not bytes (%.0f%% of copy), nor waits (%.0f%%)",
             100 * share, 100 * x->wait_share);
  else if (x->recorded && x->path_groups > 1)
    snprintf(x->limit, sizeof x->limit, "not bytes (%.0f%% of copy); chain of %u wait%s",
             100 * share, x->path_groups - 1, x->path_groups == 2 ? "" : "s");
  else
    snprintf(x->limit, sizeof x->limit, "not bytes (%.0f%% of copy)", 100 * share);
}

/* Whether the run's output (as its last launches left it) equals its filter's reference:
 * a kernel is timed only for what it computes right. 1, 0, or -1 when it names none. */
static int output_matches(ts_run *run)
{
  if (ts_run_params_of(run)->variant->unchecked)
    return -1;
  const ts_image *ref = NULL;
  ts_image *got = NULL;
  const uint32_t *sums = NULL;
  int same = 0;
  if (ts_run_reference(run, &ref, &sums, NULL) == TS_OK) {
    const ts_kctx *k = ts_run_kctx(run);
    const uint32_t *out32 = ts_run_output_u32(run);
    if (sums)
      same = out32 && memcmp(sums, out32, (size_t)k->W * (size_t)k->H * sizeof *sums) == 0;
    else if (ts_run_output(run, &got, NULL) == TS_OK)
      same = got->w == ref->w && got->h == ref->h && got->c == ref->c &&
             memcmp(got->data, ref->data, (size_t)ref->w * (size_t)ref->h * (size_t)ref->c) == 0;
  }
  ts_image_destroy(got);
  return same;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The traffic a variant cannot avoid: its input once, its output once, and for two-pass
 * variants the intermediate written and read once. */
static double compulsory_bytes(const ts_run *run)
{
  const ts_kctx *k = ts_run_kctx(run);
  double b = 0;
  for (int i = 0; i < TS_NBUF; i++) {
    const ts_buf *x = &k->buf[i];
    if (x->data)
      b += (double)x->cols * x->rows * x->esize * (i == TS_BUF_MID ? 2 : 1);
  }
  return b;
}

static int selected(const char *list, const char *name)
{
  if (!list)
    return 1;
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && strncmp(p, name, n) == 0)
      return 1;
    p += len + (e ? 1 : 0);
  }
  return 0;
}

/* The fastest variant of each filter on this device, by the faster of its two timings. */
static void print_fastest(const result *res, int nres)
{
  for (int f = TS_FILTER_BOX3; f <= TS_FILTER_INTEGRAL; f++) {
    const result *best = NULL;
    double best_ms = 0;
    for (int i = 0; i < nres; i++) {
      double ms = res[i].dev_ms > 0 && res[i].dev_ms < res[i].ms ? res[i].dev_ms : res[i].ms;
      if ((int)res[i].v->filter == f && res[i].checked == 1 && (!best || ms < best_ms)) {
        best = &res[i];
        best_ms = ms;
      }
    }
    if (best)
      printf("fastest %s here: %s, %.3f ms (%s)\n", ts_filter_name((ts_filter)f), best->v->name,
             best_ms, best_ms < best->ms ? "one launch" : "launches");
  }
}

int cmd_bench(int argc, char **argv)
{
  const char *size = "3840x2160", *variants = NULL, *in_path = NULL, *kernels = NULL;
  int channels = 1, repeats = 10, json = 0, ksize = 5, device = -1, records = 0;
  double timeout = 600; /* the supervisor's (main.c): parsed here to be checked and listed */
  const cli_opt opts[] = {
    { "--size", 0, OPT_STR, &size, "WxH", "image size (default 3840x2160; a test chart)", NULL },
    { "--channels", 0, OPT_INT, &channels, "C", "1, 3 or 4 (default 1)", NULL },
    { "--input", 'i', OPT_STR, &in_path, "IN.png", "benchmark on this image instead", NULL },
    { "--variants", 0, OPT_STR, &variants, "LIST", "comma-separated variants (default: all)", NULL },
    { "--repeats", 0, OPT_INT, &repeats, "N", "timed runs per variant, 1..1000 (default 10)", NULL },
    { "--json", 0, OPT_FLAG, &json, NULL, "print JSON instead of a table", NULL },
    { "--timeout", 0, OPT_DBL, &timeout, "S", "the watchdog: a run past S seconds is stopped, exit 1 (default 600)", NULL },
    { "--records", 0, OPT_FLAG, &records, NULL, "time the one-launch runs with their per-group records", NULL },
    { "--kernel-size", 0, OPT_INT, &ksize, "K", "Gaussian size (default 5)", NULL },
    { "--device", 0, OPT_UINT, &device, "N", "OpenCL device (see tilescope list)", NULL },
    { "--kernels", 0, OPT_STR, &kernels, "DIR", "kernels folder", NULL },
  };
  const char *pos[1];
  int npos;
  int r = cli_parse("bench", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), pos, 0,
                    &npos, usage);
  if (r)
    return r < 0 ? EXIT_OK : r;
  if (!(timeout > 0 && timeout <= 86400)) {
    fprintf(stderr, "tilescope bench: --timeout: give more than 0 and at most 86400 seconds\n");
    return EXIT_USAGE;
  }
  int64_t wh[2] = { 0, 0 };
  if (!in_path && !ts_parse_ints(size, "x", 64, TS_IMAGE_MAX_DIM, wh)) {
    fprintf(stderr, "tilescope bench: --size '%s': give WIDTHxHEIGHT, each 64..%d\n", size,
            TS_IMAGE_MAX_DIM);
    return EXIT_USAGE;
  }
  int w = (int)wh[0], h = (int)wh[1];
  if (channels != 1 && channels != 3 && channels != 4) {
    fprintf(stderr, "tilescope bench: --channels %d: must be 1, 3 or 4\n", channels);
    return EXIT_USAGE;
  }
  if (repeats < 1 || repeats > 1000) {
    fprintf(stderr, "tilescope bench: --repeats %d: must be 1..1000\n", repeats);
    return EXIT_USAGE;
  }
  if (variants && !*variants) {
    fprintf(stderr, "tilescope bench: --variants: name at least one variant (see tilescope "
                    "list)\n");
    return EXIT_USAGE;
  }
  for (const char *p = variants; p && *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
    if (!ts_variant_find(name)) {
      fprintf(stderr, "tilescope bench: --variants: unknown variant '%s' (see tilescope list)\n",
              name);
      return EXIT_USAGE;
    }
    p += len + (e ? 1 : 0);
  }
  uint32_t wts[TS_GAUSS_MAX_K];
  ts_error err = { 0 };
  if (ts_gauss_weights(ksize, 0, wts, &err) != TS_OK) {
    fprintf(stderr, "tilescope bench: %s\n", err.msg);
    return EXIT_USAGE;
  }
  const char *dir = paths_kernels_dir(kernels);
  if (!dir)
    return EXIT_USAGE;
  ts_cl *cl = NULL;
  if (ts_cl_create(device, dir, &cl, &err) != TS_OK) {
    fprintf(stderr, "tilescope bench: %s\n", err.msg);
    return EXIT_USAGE;
  }
  ts_image *src = NULL, *img = NULL;
  ts_status st = in_path ? ts_image_load_png(in_path, &src, &err) : ts_chart_render(w, h, &src, &err);
  if (st == TS_OK)
    st = ts_image_convert(src, in_path ? src->c : channels, &img, &err);
  if (st != TS_OK) {
    fprintf(stderr, "tilescope bench: %s\n", err.msg);
    ts_image_destroy(src);
    ts_cl_destroy(cl);
    return EXIT_USAGE;
  }
  int tty = isatty(2);
  double copy_gbps = 0;
  if (tty)
    fprintf(stderr, "\rbench: measuring copy bandwidth...");
  st = ts_cl_copy_bandwidth(cl, (size_t)img->w * img->h * img->c, repeats, &copy_gbps, &err);
  int nres = 0, rc = EXIT_OK, total = 0;
  for (int i = 0; i < ts_variant_count(); i++)
    total += selected(variants, ts_variant_at(i)->name);
  double *t = calloc((size_t)repeats, sizeof *t);
  result *res = calloc((size_t)ts_variant_count(), sizeof *res); /* built-ins and user kernels */
  if (!t || !res) {
    st = TS_ERR_NOMEM;
    snprintf(err.msg, sizeof err.msg, "out of memory");
  }
  for (int i = 0; st == TS_OK && i < ts_variant_count(); i++) {
    const ts_variant *v = ts_variant_at(i);
    if (!selected(variants, v->name))
      continue;
    if (tty)
      fprintf(stderr, "\r\033[Kbench: [%d/%d] %s...", nres + 1, total, v->name);
    ts_run_params p = { .variant = v, .ksize = ksize, .cl = cl,
                        .sched = { .pattern = v->pattern, .walk = ts_pattern_default_walk(v->pattern), .slots = TS_SLOTS_MAX } };
    ts_run *run = NULL;
    st = ts_run_create(img, &p, &run, &err);
    int runs = 0, dev_runs = 0;
    double t0 = 0;
    for (int k = -2; st == TS_OK && k < repeats; k++) {
      if (k == 0)
        t0 = now_s();
      st = ts_run_finish_fast(run, &err);
      double ms = ts_run_take_kernel_ms(run);
      if (k >= 0)
        t[runs++] = ms;
      if (k >= 0 && way_done(k, t0))
        break;
    }
    double launches_ms = 0;
    int checked = -1;
    if (st == TS_OK) {
      qsort(t, (size_t)runs, sizeof *t, cmp_double);
      launches_ms = t[runs / 2];
      checked = output_matches(run);
    }
    ts_dev_opts dopts = { .record = records, .stuck = -1 };
    for (int k = -2; st == TS_OK && k < repeats; k++) {
      if (k == 0)
        t0 = now_s();
      st = ts_run_device(run, &dopts, &err);
      if (st == TS_OK && k >= 0)
        t[dev_runs++] = ts_run_device_result(run)->kernel_ms;
      if (k >= 0 && way_done(k, t0))
        break;
    }
    if (st != TS_OK) {
      if (tty)
        fprintf(stderr, "\r\033[K");
      cli_report_run_error("bench", v->name, &err, &p);
      ts_run_destroy(run);
      break;
    }
    qsort(t, (size_t)dev_runs, sizeof *t, cmp_double);
    result *x = &res[nres++];
    x->v = v;
    x->runs = runs;
    x->dev_runs = dev_runs;
    int dev_checked = output_matches(run);
    /* One more one-launch run, recorded, untimed: its waiting and its critical path. */
    ts_dev_opts ropts = { .record = 1, .stuck = -1 };
    if (records || ts_run_device(run, &ropts, &err) == TS_OK) {
      const ts_dev_run *d = ts_run_device_result(run);
      ts_dev_path cp;
      x->recorded = 1;
      x->clock_ns = d->clock_ns;
      x->wait_share = ts_dev_wait_share(d);
      if (ts_dev_critical_path(d, ts_run_sched(run), &cp, NULL, 0)) {
        x->path_groups = cp.groups;
        x->path_share = cp.span > 0 ? (double)(cp.t1 - cp.t0) / (double)cp.span : 0;
      }
    }
    x->checked = checked == 0 || dev_checked == 0 ? 0 : checked;
    if (x->checked == 0) {
      fprintf(stderr, "tilescope bench: %s: its output differs from the %s reference (%s): "
              "its times are not a filter's\n", v->name, ts_filter_name(v->filter),
              checked == 0 ? "launches" : "one launch");
      rc = EXIT_DIFF;
    }
    x->ms = launches_ms;
    x->dev_ms = t[dev_runs / 2];
    x->bytes = compulsory_bytes(run);
    x->gbps = x->ms > 0 ? x->bytes / (x->ms * 1e6) : 0;
    x->share = copy_gbps > 0 ? x->gbps / copy_gbps : 0;
    limit_of(x, copy_gbps);
    ts_run_destroy(run);
  }
  free(t);
  if (tty)
    fprintf(stderr, "\r\033[K");
  if (st != TS_OK) {
    if (err.code != TS_ERR_BUILD)
      fprintf(stderr, "tilescope bench: %s\n", err.msg);
    rc = EXIT_USAGE;
  } else {
    double px = (double)img->w * img->h;
    const ts_cl_device_info *d = ts_cl_device(cl);
    char cpu[320];
    host_cpu(cpu, sizeof cpu);
    if (json) {
      printf("{\"device\": ");
      cli_json_string(d->name);
      printf(", \"platform\": ");
      cli_json_string(d->platform);
      printf(", \"host_cpu\": ");
      cli_json_string(cpu);
      printf(", \"width\": %d, \"height\": %d, \"channels\": %d, \"repeats\": %d, "
             "\"records\": %s, \"copy_gbps\": %.3f, \"variants\": [",
             img->w, img->h, img->c, repeats, records ? "true" : "false", copy_gbps);
      for (int i = 0; i < nres; i++) {
        const result *x = &res[i];
        printf("%s\n  {\"name\": ", i ? "," : "");
        cli_json_string(x->v->name);
        /* a user kernel without equals= computes no built-in filter */
        printf(", \"filter\": %s%s%s, \"median_ms\": %.4f, \"ns_per_pixel\": %.4f, "
               "\"gbps\": %.3f, \"copy_share\": %.4f, \"one_launch_ms\": %.4f, "
               "\"one_launch_copy_share\": %.4f, \"runs\": %d, \"one_launch_runs\": %d, "
               "\"output_ok\": %s",
               x->v->unchecked ? "" : "\"", x->v->unchecked ? "null" : ts_filter_name(x->v->filter),
               x->v->unchecked ? "" : "\"", x->ms, x->ms * 1e6 / px, x->gbps, x->share, x->dev_ms,
               x->dev_ms > 0 && copy_gbps > 0 ? x->bytes / (x->dev_ms * 1e6) / copy_gbps : 0,
               x->runs, x->dev_runs, x->checked < 0 ? "null" : x->checked ? "true" : "false");
        if (x->recorded)
          printf(", \"wait_share\": %.4f, \"critical_path_groups\": %u, "
                 "\"critical_path_share\": %.4f", x->clock_ns ? x->wait_share : 0,
                 x->path_groups, x->clock_ns ? x->path_share : 0);
        printf(", \"limit\": ");
        cli_json_string(x->limit);
        printf("}");
      }
      printf("\n]}\n");
    } else {
      printf("%s (%s) on %s, %dx%d, %d channel%s, median of %d after 2 warm-up runs\n",
             d->name, d->platform, cpu, img->w, img->h, img->c, img->c > 1 ? "s" : "", repeats);
      printf("copy bandwidth: %.2f GB/s (%.4f ns per pixel for the same bytes in and out)\n",
             copy_gbps, copy_gbps > 0 ? 2.0 * img->c / copy_gbps : 0);
      int nw = 16; /* the names' column: the longest name */
      for (int i = 0; i < nres; i++)
        nw = (int)strlen(res[i].v->name) > nw ? (int)strlen(res[i].v->name) : nw;
      printf("%-*s %-14s %10s %10s %10s %8s %13s %8s  %s\n", nw, "variant", "pattern",
             "launches ms", "ns/pixel", "GB/s", "of copy", "one launch ms", "of copy", "limit");
      for (int i = 0; i < nres; i++) {
        const result *x = &res[i];
        printf("%-*s %-14s %11.3f %10.4f %10.2f %7.1f%% %13.3f %7.1f%%  %s\n", nw, x->v->name,
               ts_pattern_name(x->v->pattern), x->ms, x->ms * 1e6 / px, x->gbps, 100.0 * x->share,
               x->dev_ms,
               x->dev_ms > 0 && copy_gbps > 0 ? 100.0 * x->bytes / (x->dev_ms * 1e6) / copy_gbps : 0,
               x->limit);
      }
      printf("one launch: the device keeps the walk order with a scoreboard%s\n",
             records ? ", recording every work-group" : " (no records)");
      for (int i = 0; i < nres; i++)
        if (res[i].runs < repeats || res[i].dev_runs < repeats)
          printf("%s: medians of %d runs with launches and %d in one launch (a way stops "
                 "repeating after %d s once it has %d runs)\n", res[i].v->name, res[i].runs,
                 res[i].dev_runs, WAY_SECONDS, WAY_MIN_RUNS);
      print_fastest(res, nres);
    }
  }
  free(res);
  ts_image_destroy(src);
  ts_image_destroy(img);
  ts_cl_destroy(cl);
  return rc;
}
