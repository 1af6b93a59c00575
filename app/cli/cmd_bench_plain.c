/* `tilescope bench --kernel-file K.cl` for a plain kernel: each pass of the file timed plain
 * and observed, --repeats launches each after two warm-up launches (kernel time from
 * profiling events), the median and the fastest, and what observation costs as the ratio of
 * the medians. Both runs are made as `run` makes them, each in a process of its own with a
 * watchdog, side by side with their launches in turns. Exit 0 with the table, 1
 * when a run crashed, ran past --timeout or would access memory outside its buffers (the
 * plain run is then not made), 2 when it could not run. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ts_chart.h"
#include "ts_file.h"
#include "ts_number.h"
#include "ts_plain.h"

static const char usage[] =
    "usage: tilescope bench --kernel-file K.cl [--size WxH] [--channels C] [-i IN.png]\n"
    "                       [--repeats N] [--json] [--device N]\n"
    "Times each pass of a plain kernel plain and observed (every __global and __local access\n"
    "recorded and checked): the median and the fastest of N launches each after two\n"
    "untimed ones, and observed / plain, the ratio of the medians. The two runs take their\n"
    "launches in turns, so that a machine slower for a while slows both alike.\n";

static void print_json(const char *base, const ts_image *img, int repeats,
                       const ts_plain_result *plain, const ts_plain_result *ob)
{
  printf("{\"kernel_file\": ");
  ts_json_string(stdout, base);
  printf(", \"device\": ");
  ts_json_string(stdout, plain->device);
  printf(", \"width\": %d, \"height\": %d, \"channels\": %d, \"repeats\": %d, \"findings\": %zu, "
         "\"passes\": [",
         img->w, img->h, img->c, repeats, ob->nfindings);
  for (int p = 0; p < plain->npasses; p++) {
    const ts_plain_launch *a = &plain->launch[p], *b = &ob->launch[p];
    printf("%s{\"entry\": ", p ? ", " : "");
    ts_json_string(stdout, a->entry);
    printf(", \"plain_ms\": %.4f, \"plain_fastest_ms\": %.4f, \"observed_ms\": %.4f, "
           "\"observed_fastest_ms\": %.4f, \"observed_over_plain\": %.3f}",
           a->ms_median, a->ms, b->ms_median, b->ms,
           a->ms_median > 0 ? b->ms_median / a->ms_median : 0.0);
  }
  printf("]}\n");
}

int cmd_bench_plain(int argc, char **argv)
{
  const char *size = "3840x2160", *in_path = NULL, *kernels = NULL;
  int channels = 1, repeats = 10, json = 0, device = -1;
  double timeout = 600;
  const cli_opt opts[] = {
    { "--size", 0, OPT_STR, &size, "WxH", "image size (default 3840x2160; a test chart)", NULL },
    { "--channels", 0, OPT_INT, &channels, "C", "1, 3 or 4 (default 1)", NULL },
    { "--input", 'i', OPT_STR, &in_path, "IN.png", "benchmark on this image instead", NULL },
    { "--repeats", 0, OPT_INT, &repeats, "N", "timed launches of each pass each way, 1..1000 (default 10)", NULL },
    { "--json", 0, OPT_FLAG, &json, NULL, "print JSON instead of a table", NULL },
    { "--timeout", 0, OPT_DBL, &timeout, "S", "the watchdog of each run: one past S seconds is stopped, exit 1 (default 600)", NULL },
    { "--device", 0, OPT_UINT, &device, "N", "OpenCL device (see tilescope list)", NULL },
    { "--kernels", 0, OPT_STR, &kernels, "DIR", "kernels folder (for the observation runtime)", NULL },
  };
  const char *pos[1];
  int npos;
  int r = cli_parse("bench", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), pos, 0,
                    &npos, usage);
  if (r)
    return r < 0 ? EXIT_OK : r;
  int64_t wh[2] = { 0, 0 };
  if (!in_path && !ts_parse_ints(size, "x", 1, TS_IMAGE_MAX_DIM, wh)) {
    fprintf(stderr, "tilescope bench: --size '%s': give WIDTHxHEIGHT, each 1..%d\n", size,
            TS_IMAGE_MAX_DIM);
    return EXIT_USAGE;
  }
  if (channels != 1 && channels != 3 && channels != 4) {
    fprintf(stderr, "tilescope bench: --channels %d: must be 1, 3 or 4\n", channels);
    return EXIT_USAGE;
  }
  if (repeats < 1 || repeats > 1000) {
    fprintf(stderr, "tilescope bench: --repeats %d: must be 1..1000\n", repeats);
    return EXIT_USAGE;
  }
  if (!(timeout > 0 && timeout <= 86400)) {
    fprintf(stderr, "tilescope bench: --timeout: give more than 0 and at most 86400 seconds\n");
    return EXIT_USAGE;
  }
  const char *kdir = paths_kernels_dir(kernels);
  if (!kdir)
    return EXIT_USAGE;
  ts_error err = { 0 };
  ts_plain_desc *d = NULL;
  ts_image *src = NULL, *img = NULL;
  ts_plain_result *plain = NULL, *ob = NULL;
  int rc = EXIT_USAGE;
  ts_status st = ts_plain_load_launch(cli_plain_file, cli_plain_launch, NULL, 0, timeout, &d,
                                      &err);
  if (st == TS_OK)
    st = in_path ? ts_image_load_png(in_path, &src, &err)
                 : ts_chart_render((int)wh[0], (int)wh[1], &src, &err);
  if (st == TS_OK)
    st = ts_image_convert(src, in_path ? src->c : channels, &img, &err);
  if (st != TS_OK) {
    fprintf(stderr, "tilescope bench: %s\n", err.msg);
    goto out;
  }
  /* Observed first, as `run` does: a run that would access memory outside its buffers is
   * found there, in one launch of each pass, and then not made plain. */
  ts_plain_opts o = { .observe = 1, .chosen_pass = -1, .repeats = 1, .watch_x = -1 };
  for (int i = 0; i < 3; i++)
    o.chosen_group[i] = o.chosen_item[i] = -1;
  st = ts_plain_run_isolated(device, kdir, d, img, &o, timeout, &ob, &err);
  const char *unsafe = st == TS_OK ? ts_plain_unsafe_access(ob) : NULL;
  if (st == TS_OK && (unsafe || ob->counts[TS_FIND_DIVERGE])) {
    fprintf(stderr, "tilescope bench: %s: %s%s, so its plain run is not timed (tilescope run "
                    "--kernel-file %s --observe says where)\n", cli_plain_file,
            unsafe ? "it would " : "its work-items part at a barrier",
            unsafe ? unsafe : "", cli_plain_file);
    rc = EXIT_DIFF;
    goto out;
  }
  /* Then the two timed side by side, their repeats in turns: a slower spell of the machine's
   * (a neighbour on a virtual machine's cores halves a 2-core one's speed for seconds) falls
   * on both. */
  ts_plain_result_free(ob);
  ob = NULL;
  ts_plain_opts po = o;
  po.observe = 0;
  o.repeats = po.repeats = repeats;
  o.warmup = po.warmup = 2;
  if (st == TS_OK)
    st = ts_plain_run_turns(device, kdir, d, img, &o, &po, timeout, &ob, &plain, &err);
  if (st != TS_OK) {
    fprintf(stderr, "tilescope bench: %s\n", err.msg);
    rc = st == TS_ERR_ARG || st == TS_ERR_BUILD || st == TS_ERR_FORMAT ? EXIT_USAGE : EXIT_DIFF;
    goto out;
  }
  const char *base = strrchr(d->path, '/') ? strrchr(d->path, '/') + 1 : d->path;
  rc = EXIT_OK;
  /* what the kernel printed, once: each pass's first launch's (the plain run's) */
  for (int p = 0; plain->printed_bytes && p < d->npasses; p++) {
    long from = plain->printed_at[p] - plain->printed_at[0], to = plain->printed_first[p] -
                                                                  plain->printed_at[0];
    if (plain->printed_at[0] < 0 || from < 0 || to > (long)plain->printed_bytes || to < from) {
      fwrite(plain->printed, 1, plain->printed_bytes, json ? stderr : stdout); /* not known */
      break;
    }
    fwrite(plain->printed + from, 1, (size_t)(to - from), json ? stderr : stdout);
  }
  if (json) {
    print_json(base, img, repeats, plain, ob);
    goto out;
  }
  printf("%s on %dx%dx%d (%s), median and fastest of %d launch%s each way\n", base, img->w,
         img->h, img->c, plain->device, repeats, repeats == 1 ? "" : "es");
  printf("%-24s %10s %10s %12s %10s %9s\n", "pass", "plain ms", "fastest", "observed ms",
         "fastest", "observed");
  for (int p = 0; p < plain->npasses; p++) {
    const ts_plain_launch *a = &plain->launch[p], *b = &ob->launch[p];
    printf("%-24s %10.3f %10.3f %12.3f %10.3f %8.1fx\n", a->entry, a->ms_median, a->ms,
           b->ms_median, b->ms, a->ms_median > 0 ? b->ms_median / a->ms_median : 0.0);
  }
  if (ob->nfindings)
    printf("observed: %zu finding%s (tilescope run --kernel-file %s --observe lists them)\n",
           ob->nfindings, ob->nfindings == 1 ? "" : "s", base);
out:
  ts_plain_result_free(plain);
  ts_plain_result_free(ob);
  ts_image_destroy(img);
  ts_image_destroy(src);
  ts_plain_desc_free(d);
  return rc;
}
