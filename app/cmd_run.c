/* `tilescope run`: one variant, headless, to the end or to --tick; writes the output (the
 * integral image as a 16-bit PNG normalised to the sum of the whole image), optionally its exact values (.npy) and the
 * per-thread schedule (.csv), and prints what happened. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ts_export.h"

static const char usage[] =
    "usage: tilescope run [-i IN.png] [-o OUT.png] [--raw OUT.npy] [--schedule OUT.csv] [options]\n"
    "Runs a variant under a schedule, headless, and writes what was committed by the end\n"
    "(or by --tick). Without -i the default test chart is used.";

static ts_status save_integral_png(const char *path, const ts_run *run, ts_error *err)
{
  const ts_kctx *k = ts_run_kctx(run);
  const uint32_t *s = ts_run_output_u32(run);
  size_t n = (size_t)k->W * k->H;
  uint16_t *px = malloc(n * sizeof *px);
  if (!px)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  uint64_t mx = ts_run_integral_scale(run);
  for (size_t i = 0; i < n; i++)
    px[i] = mx ? (uint16_t)(((s[i] < mx ? s[i] : mx) * 65535u + mx / 2) / mx) : 0;
  ts_status st = ts_png_save16(path, k->W, k->H, 1, px, err);
  free(px);
  return st;
}

static void print_hazards(const ts_run *run)
{
  size_t n;
  const ts_hazard *h = ts_run_hazards(run, &n);
  const ts_sched *s = ts_run_sched(run);
  size_t show = n < 5 ? n : 5;
  for (size_t i = 0; i < show; i++) {
    const ts_pass_sched *ps = &s->pass[h[i].pass];
    uint32_t c = h[i].consumer, p = h[i].producer, w = (uint32_t)ps->tw;
    printf("hazard: pass %d thread (%u,%u) started at tick %" PRId64
           " and read what thread (%u,%u) writes, which ends at tick %" PRId64 "\n",
           h[i].pass + 1, c % w, c / w, ps->t[c].start_tick, p % w, p / w, ps->t[p].end_tick);
  }
  if (n > show)
    printf("hazard: ... and %zu more\n", n - show);
}

int cmd_run(int argc, char **argv)
{
  cli_sched cs;
  cli_sched_defaults(&cs);
  const char *in_path = NULL, *out_path = NULL, *raw_path = NULL, *csv_path = NULL;
  const cli_opt opts[] = {
    { "--input", 'i', OPT_STR, &in_path, "IN.png", "input image (default: the test chart)", NULL },
    { "--output", 'o', OPT_STR, &out_path, "OUT.png", "write the output image", NULL },
    { "--raw", 0, OPT_STR, &raw_path, "OUT.npy", "write the exact output as a NumPy array", NULL },
    { "--schedule", 0, OPT_STR, &csv_path, "OUT.csv", "write one row per thread", NULL },
    CLI_SCHED_OPTS(&cs),
  };
  const char *pos[1];
  int npos;
  int r = cli_parse("run", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), pos, 0, &npos,
                    usage);
  if (r)
    return r < 0 ? EXIT_OK : r;
  ts_run_params p;
  if (!cli_sched_resolve("run", &cs, &p))
    return EXIT_USAGE;
  if (!in_path && !(in_path = cli_default_asset()))
    return EXIT_USAGE;
  if (!cli_open_backend("run", &cs, &p))
    return EXIT_USAGE;

  ts_error err = { 0 };
  ts_image *in = NULL;
  ts_run *run = NULL;
  int rc = EXIT_USAGE;
  if (ts_image_load_png(in_path, &in, &err) != TS_OK) {
    fprintf(stderr, "tilescope run: %s\n", err.msg);
    goto out;
  }
  if (ts_run_create(in, &p, &run, &err) != TS_OK ||
      ts_run_seek(run, cs.have_tick ? cs.tick : INT64_MAX, &err) != TS_OK) {
    cli_report_run_error("run", in_path, &err, &p);
    goto out;
  }
  double kernel_ms = ts_run_take_kernel_ms(run);
  const ts_sched *s = ts_run_sched(run);
  size_t nh;
  ts_run_hazards(run, &nh);
  printf("%s on %s (%dx%dx%d): %d pass%s, %u threads, pattern %s, walk %s, %d slots, cost %d\n",
         p.variant->name, in_path, in->w, in->h, in->c, s->npasses, s->npasses > 1 ? "es" : "",
         s->total, ts_pattern_name(p.sched.pattern), ts_walk_name(p.sched.walk), p.sched.slots,
         p.cost);
  print_hazards(run);
  char timing[400];
  if (p.cl)
    snprintf(timing, sizeof timing, "OpenCL on %s: kernels %.2f ms, stepped run %.1f ms",
             ts_cl_device(p.cl)->name, kernel_ms, ts_run_exec_ms(run));
  else
    snprintf(timing, sizeof timing, "cpu model %.1f ms", ts_run_exec_ms(run));
  printf("tick %" PRId64 " of %" PRId64 ", %zu hazard%s in %zu thread%s, mean %.1f threads "
         "running, %s\n",
         ts_run_tick(run), s->length, nh, nh == 1 ? "" : "s", ts_run_hazardous_threads(run),
         ts_run_hazardous_threads(run) == 1 ? "" : "s", ts_sched_mean_running(s), timing);

  ts_status st = TS_OK;
  if (out_path) {
    if (ts_run_output_u32(run)) {
      st = save_integral_png(out_path, run, &err);
    } else {
      ts_image *o = NULL;
      st = ts_run_output(run, &o, &err);
      if (st == TS_OK)
        st = ts_image_save_png(out_path, o, &err);
      ts_image_destroy(o);
    }
  }
  if (st == TS_OK && raw_path)
    st = ts_export_npy(raw_path, run, &err);
  if (st == TS_OK && csv_path)
    st = ts_export_schedule_csv(csv_path, run, &err);
  if (st != TS_OK) {
    fprintf(stderr, "tilescope run: %s\n", err.msg);
    goto out;
  }
  if (out_path)
    printf("wrote %s\n", out_path);
  rc = EXIT_OK;
out:
  ts_run_destroy(run);
  ts_cl_destroy(p.cl);
  ts_image_destroy(in);
  return rc;
}
