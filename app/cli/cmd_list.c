/* `tilescope list`: the variants (tile, passes, declared storage), patterns, walks and
 * OpenCL devices; with --memory, each kernel's private and local memory as the device
 * reports it, beside the declared figures and a Gen9 EU thread's 4 KB register budget. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ts_chart.h"

static const char usage[] =
    "usage: tilescope list [--memory] [--device N] [--kernels DIR]\n"
    "Prints the variants, dependency patterns, walks and OpenCL devices.";

enum { GEN9_THREAD_BYTES = 128 * 32 };

static void list_devices(void)
{
  ts_cl_device_info dev[TS_CL_MAX_DEVICES];
  int n = 0;
  ts_error err = { 0 };
  printf("OpenCL devices:\n");
  if (ts_cl_devices(dev, TS_CL_MAX_DEVICES, &n, &err) != TS_OK) {
    printf("  none: %s (the CPU back end is used)\n", err.msg);
    return;
  }
  for (int i = 0; i < n; i++)
    printf("  %d: %s, %s on %s, %u compute units, %llu MiB, %llu KiB local\n", i, dev[i].name,
           dev[i].type, dev[i].platform, dev[i].compute_units,
           (unsigned long long)(dev[i].global_mem >> 20),
           (unsigned long long)(dev[i].local_mem >> 10));
}

/* Declared and device-reported memory for every variant's kernels, on a chart-sized run. */
static int list_memory(int device, const char *kernels)
{
  const char *dir = paths_kernels_dir(kernels);
  if (!dir)
    return EXIT_USAGE;
  ts_error err = { 0 };
  ts_cl *cl = NULL;
  if (ts_cl_create(device, dir, &cl, &err) != TS_OK) {
    fprintf(stderr, "tilescope list: --memory: %s\n", err.msg);
    return EXIT_USAGE;
  }
  ts_image *img = NULL;
  if (ts_image_create(TS_CHART_W, TS_CHART_H, 3, &img, &err) != TS_OK) {
    ts_cl_destroy(cl);
    return EXIT_USAGE;
  }
  printf("memory on %s (RGB, Gaussian 5x5; budget of one Gen9 EU thread: %d B):\n",
         ts_cl_device(cl)->name, GEN9_THREAD_BYTES);
  printf("  %-16s %-16s %14s %14s %14s %14s\n", "variant", "kernel", "declared priv",
         "device priv", "declared local", "device local");
  int rc = EXIT_OK;
  for (int i = 0; i < ts_variant_count() && rc == EXIT_OK; i++) {
    const ts_variant *v = ts_variant_at(i);
    /* a user kernel has no CPU model: its run is made on the device */
    ts_run_params p = { .variant = v, .sched = { .pattern = TS_PAT_NONE, .walk = TS_WALK_HORIZONTAL, .slots = 1 },
                        .cl = v->file ? cl : NULL };
    ts_run *run = NULL;
    if (ts_run_create(img, &p, &run, &err) != TS_OK) {
      fprintf(stderr, "tilescope list: %s: %s\n", v->name, err.msg);
      rc = EXIT_USAGE;
      break;
    }
    for (int pass = 0; pass < v->npasses; pass++) {
      uint64_t priv = 0, local = 0;
      if (ts_cl_kernel_mem(cl, v, pass, ts_run_kctx(run), &priv, &local, &err) != TS_OK) {
        cli_report_run_error("list", v->name, &err, &(ts_run_params){ .variant = v, .cl = cl });
        rc = EXIT_USAGE;
        break;
      }
      int declared_local = v->local_bytes ? v->local_bytes(ts_run_kctx(run)) : 0;
      printf("  %-16s %-16s %12d B %12llu B %12d B %12llu B%s\n", pass ? "" : v->name,
             ts_pass_kernel(&v->passes[pass], ts_run_kctx(run)->in_c), v->private_bytes,
             (unsigned long long)priv,
             declared_local, (unsigned long long)local,
             v->private_bytes > GEN9_THREAD_BYTES ? "  (over the EU thread budget)" : "");
    }
    ts_run_destroy(run);
  }
  ts_image_destroy(img);
  ts_cl_destroy(cl);
  return rc;
}

int cmd_list(int argc, char **argv)
{
  int memory = 0, device = -1;
  const char *kernels = NULL;
  const cli_opt opts[] = {
    { "--memory", 0, OPT_FLAG, &memory, NULL, "show each kernel's memory as the device reports it", NULL },
    { "--device", 0, OPT_UINT, &device, "N", "OpenCL device for --memory", NULL },
    { "--kernels", 0, OPT_STR, &kernels, "DIR", "kernels folder for --memory", NULL },
  };
  const char *pos[1];
  int npos;
  int r = cli_parse("list", argc, argv, opts, 3, pos, 0, &npos, usage);
  if (r)
    return r < 0 ? EXIT_OK : r;
  if (memory)
    return list_memory(device, kernels);
  printf("variants:\n");
  for (int i = 0; i < ts_variant_count(); i++) {
    const ts_variant *v = ts_variant_at(i);
    printf("  %-16s %-15s %d pass%s, %s; %d B private; default pattern %s\n", v->name,
           v->unchecked ? "user, no ref" : ts_filter_name(v->filter), v->npasses, v->npasses > 1 ? "es" : "", v->passes[0].tile,
           v->private_bytes, ts_pattern_name(v->pattern));
    printf("  %-16s %s\n", "", v->summary);
  }
  printf("patterns (vectors: a thread waits for (x+dx, y+dy)):\n");
  for (int p = 0; p < TS_PAT_COUNT; p++) {
    const ts_vec *vec;
    int n = ts_pattern_vectors((ts_pattern)p, &vec);
    printf("  %-16s default walk %-15s", ts_pattern_name((ts_pattern)p),
           ts_walk_name(ts_pattern_default_walk((ts_pattern)p)));
    for (int i = 0; i < n; i++)
      printf(" (%d,%d)", vec[i].dx, vec[i].dy);
    printf("\n");
  }
  printf("walks:\n");
  for (int w = 0; w < TS_WALK_COUNT; w++)
    printf("  %-16s %s\n", ts_walk_name((ts_walk)w), ts_walk_describe((ts_walk)w));
  list_devices();
  return EXIT_OK;
}
