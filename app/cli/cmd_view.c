/* `tilescope [view]` opens the viewer; `tilescope shot` renders exactly what the window would
 * show, headless, through SDL's offscreen video driver, to a PNG (or a numbered sequence).
 * Both take the run options, an overlay, a hover point and a script; `--exec device` runs the
 * schedule on the device too, and `--record` opens a saved record of such a run. With a plain
 * kernel (--kernel-file K.cl, plain_view.h) both show its observed run and work-groups, at
 * --tick T of its records' clock (the end when past it, as a variant's). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "anim.h"
#include "cli.h"
#include "framebench.h"
#include "plain_view.h"
#include "sarif.h"
#include "script.h"
#include "ts_file.h"
#include "ts_isolate.h"
#include "ts_number.h"
#include "ts_record.h"
#include "ts_sim.h"
#include "viewer.h"
#include "viewer_control.h"
#include "viewer_shot.h"

typedef struct view_args {
  cli_sched cs;
  const char *input, *out, *size, *overlay, *script, *frames, *hover, *center, *record,
      *dev_time, *pixel, *split, *sarif, *order,
      *resident;
  int help_overlay, show_times, bench_frames, fps, have_fps, have_scale, have_zoom, have_bench,
      have_timeout, source, select_finding, have_select;
  double zoom, scale, timeout;
  char record_input[1100]; /* the record's input path, resolved */
  int no_display;          /* view without a display: say so once the options are good */
} view_args;

static const char view_usage[] =
    "usage: tilescope [view] [IN.png] [options]\n"
    "Opens the viewer on the image (default: the test chart). With no display it says so and\n"
    "writes a screenshot of the scene to tilescope-shot.png instead.";

static const char shot_usage[] =
    "usage: tilescope shot -o SHOT.png [--size WxH] [--frames A:B:S] [--hover X,Y] [options]\n"
    "       tilescope shot -o ANIM.gif [--frames A:B:S [--fps N] | --script F] [--scale S] [options]\n"
    "Renders what the viewer shows for these options, without a display. --frames writes one\n"
    "picture per tick A, A+S, ... B (SHOT-00012.png, or a printf pattern such as shot%03d.png),\n"
    "or to a .gif one animation, N ticks a second; a script's pauses (wait N) become the\n"
    "frames of a .gif, each shown N/60 s. With --kernel-file K.cl of a plain kernel it shows\n"
    "that kernel's observed run: its work-groups over the output, --tick T the pass at tick T\n"
    "of its groups' records (a tick each start, barrier and end; default the end), --hover one\n"
    "of them, --pixel X,Y every access of that output pixel (as a click on it in the window),\n"
    "--source its source beside the output, --select-finding N a finding's two accesses.";

/* Two numbers within 1e6 (finite: a NaN or a huge centre or hover point reached the drawing
 * code as an out-of-range int and crashed it). */
static int parse_pair(const char *s, const char *sep, double *a, double *b)
{
  size_t n = ts_scan_real(s, a), sl = strlen(sep);
  if (n == 0 || strncmp(s + n, sep, sl) != 0)
    return 0;
  const char *t = s + n + sl;
  size_t m = ts_scan_real(t, b);
  return m && !t[m] && *a >= -1e6 && *a <= 1e6 && *b >= -1e6 && *b <= 1e6;
}

/* Reads --record, takes the run's settings from it and checks that it fits that run on the
 * input (image size, then every tile in walk order). One error line and 0 when it does not. */
static int load_record(const char *cmd, view_args *a, vw_options *o)
{
  ts_trace_info info;
  ts_dev_run *d = NULL;
  ts_error err = { 0 };
  ts_image *img = NULL;
  ts_run *run = NULL;
  if (ts_trace_read(a->record, &info, &d, &err) != TS_OK) {
    fprintf(stderr, "tilescope %s: --record %s\n", cmd, err.msg);
    return 0;
  }
  ts_run_params p = { .variant = ts_variant_find(info.variant), .sched.slots = info.slots,
                      .cost = info.cost, .ksize = info.ksize, .sigma = info.sigma };
  int ok = p.variant && ts_pattern_parse(info.pattern, &p.sched.pattern) &&
           ts_walk_parse(info.walk, &p.sched.walk) && info.slots >= 1;
  if (!ok) {
    fprintf(stderr, "tilescope %s: --record %s: unknown variant, pattern or walk (%s, %s, %s)\n",
            cmd, a->record, info.variant, info.pattern, info.walk);
    goto fail;
  }
  if (!cli_record_input(cmd, a->input, a->record, info.input, a->record_input,
                        sizeof a->record_input, &o->input))
    goto fail;
  const char *in = o->input ? o->input : paths_default_asset();
  if (!in)
    goto fail;
  if (ts_image_load_png(in, &img, &err) != TS_OK) {
    fprintf(stderr, "tilescope %s: --record %s: %s\n", cmd, a->record, err.msg);
    goto fail;
  }
  /* The integral image's record names one channel whatever the input had. */
  int c_ok = info.c == img->c || p.variant->filter == TS_FILTER_INTEGRAL;
  if (img->w != info.w || img->h != info.h || !c_ok) {
    fprintf(stderr, "tilescope %s: --record %s: recorded on a %dx%dx%d image, %s is %dx%dx%d (give "
            "the record's input with -i)\n", cmd, a->record, info.w, info.h, info.c, in, img->w,
            img->h, img->c);
    goto fail;
  }
  ts_run_params_resolve(&p);
  if (ts_run_create(img, &p, &run, &err) != TS_OK) {
    fprintf(stderr, "tilescope %s: --record %s: %s\n", cmd, a->record, err.msg);
    goto fail;
  }
  /* A check on a copy: the viewer's runs get theirs from the worker. */
  ts_dev_run *copy = NULL;
  ts_trace_info again;
  if (ts_trace_read(a->record, &again, &copy, &err) != TS_OK ||
      ts_run_attach_device(run, copy, &err) != TS_OK) {
    ts_dev_run_free(copy);
    fprintf(stderr, "tilescope %s: --record %s does not fit %s on %s: %s\n", cmd, a->record,
            info.variant, in, err.msg);
    goto fail;
  }
  int vi = 0;
  while (ts_variant_at(vi) != p.variant)
    vi++;
  o->set.variant = vi;
  o->set.pattern = p.sched.pattern;
  o->set.walk = p.sched.walk;
  o->set.slots = p.sched.slots;
  o->set.cost = p.cost;
  o->set.ksize = p.ksize;
  o->set.sigma = p.sigma;
  o->set.exec_device = 0;
  o->record = d;
  o->record_path = a->record;
  const char *slash = strrchr(a->record, '/');
  o->record_name = slash ? slash + 1 : a->record;
  ts_run_destroy(run);
  ts_image_destroy(img);
  return 1;
fail:
  ts_run_destroy(run);
  ts_image_destroy(img);
  ts_dev_run_free(d);
  return 0;
}

/* Options to viewer options; prints the error and returns 0 on a bad value. */

/* A simulator file's launch (--sim, tilescope FILE.sim): read and checked here, so that a bad
 * one is one line before the window opens; the window's input is its shown buffer's first
 * contents (ts_sim_load), through a temporary PNG removed at exit. */
static char sim_dir[64], sim_png[160];

static void sim_png_remove(void)
{
  if (sim_png[0])
    unlink(sim_png);
  if (sim_dir[0])
    rmdir(sim_dir);
}

static int sim_input(const char *cmd, const view_args *a, vw_options *o)
{
  if (a->input) {
    fprintf(stderr, "tilescope %s: --sim %s: the file says what to launch, on what: it takes no -i\n",
            cmd, cli_plain_file);
    return 0;
  }
  ts_sim *sim = NULL;
  ts_plain_desc *d = NULL;
  ts_image *in = NULL;
  ts_error err = { 0 };
  ts_status st = ts_sim_load(cli_plain_file, 60, &sim, &d, &in, &err);
  if (st == TS_OK) {
    /* named for the buffer it shows, as the input pane's title says */
    const char *shown = "launch";
    for (int i = 0; i < d->ndata; i++)
      if (d->data[i].shown)
        shown = d->data[i].name;
    snprintf(sim_dir, sizeof sim_dir, "/tmp/tilescope-sim-XXXXXX");
    if (!mkdtemp(sim_dir)) {
      st = ts_fail(&err, TS_ERR_IO, "a temporary folder for its input: %s", strerror(errno));
      sim_dir[0] = 0;
    } else {
      snprintf(sim_png, sizeof sim_png, "%s/%.60s before the run", sim_dir, shown);
      atexit(sim_png_remove);
      st = ts_image_save_png(sim_png, in, &err);
    }
  }
  ts_image_destroy(in);
  ts_plain_desc_free(d);
  ts_sim_free(sim);
  if (st != TS_OK) {
    fprintf(stderr, "tilescope %s: %s\n", cmd, err.msg);
    return 0;
  }
  o->input = sim_png;
  return 1;
}

static int to_options(const char *cmd, view_args *a, vw_options *o)
{
  memset(o, 0, sizeof *o);
  ts_run_params p;
  if (!cli_sched_resolve(cmd, &a->cs, &p))
    return 0;
  int vi = 0;
  while (ts_variant_at(vi) != p.variant)
    vi++;
  o->set = (vw_settings){ .variant = vi, .pattern = p.sched.pattern, .walk = p.sched.walk,
                          .slots = p.sched.slots, .cost = p.cost, .ksize = p.ksize,
                          .sigma = p.sigma, .use_cl = strcmp(a->cs.backend, "cl") == 0,
                          .device = a->cs.device, .exec_device = p.exec_device,
                          .adversary = p.adversary };
  o->input = a->input;
  o->devview = p.exec_device;
  o->dev_time = -1;
  o->dev_pct = -1;
  if (a->dev_time) {
    double t = 0;
    size_t n = ts_scan_real(a->dev_time, &t);
    const char *end = a->dev_time + n;
    int pct = *end == '%' && end[1] == 0;
    if (n == 0 || (*end && !pct) || a->dev_time[0] == '-' || (pct && t > 100) || t > 9e15) {
      fprintf(stderr, "tilescope %s: --device-time '%s': give P%% of the run or a time in the "
              "record's unit (ns, or logical events)\n", cmd, a->dev_time);
      return 0;
    }
    if (pct)
      o->dev_pct = t;
    else
      o->dev_time = (int64_t)t;
  }
  o->tick = a->cs.have_tick ? a->cs.tick : -1;
  o->mode = OV_STATE;
  if (a->overlay && !overlay_parse(a->overlay, &o->mode)) {
    fprintf(stderr, "tilescope %s: --overlay '%s': one of none, state, order, depth, slot, observed\n", cmd,
                    a->overlay);
    return 0;
  }
  int64_t wh[2] = { 1600, 900 };
  if (a->size && (!ts_parse_ints(a->size, "x", 0, INT32_MAX, wh) || wh[0] < 640 || wh[1] < 400 ||
                  wh[0] > 8192 || wh[1] > 8192)) {
    fprintf(stderr, "tilescope %s: --size '%s': give WIDTHxHEIGHT, from 640x400 to 8192x8192\n",
            cmd, a->size);
    return 0;
  }
  o->width = (int)wh[0];
  o->height = (int)wh[1];
  double hx, hy;
  if (a->hover) {
    if (!parse_pair(a->hover, ",", &hx, &hy)) {
      fprintf(stderr, "tilescope %s: --hover '%s': give X,Y in image pixels\n", cmd, a->hover);
      return 0;
    }
    o->hover = 1;
    o->hover_x = (float)hx + 0.5f;
    o->hover_y = (float)hy + 0.5f;
  }
  if (a->have_zoom || a->center) {
    double cx = 0, cy = 0;
    if (!a->have_zoom || !a->center) {
      fprintf(stderr, "tilescope %s: %s: goes with %s\n", cmd, a->center ? "--center" : "--zoom",
              a->center ? "--zoom Z" : "--center X,Y");
      return 0;
    }
    if (!(a->zoom >= 0.02 && a->zoom <= 256)) {
      fprintf(stderr, "tilescope %s: --zoom %g: give 0.02..256 screen pixels an image pixel\n",
              cmd, a->zoom);
      return 0;
    }
    if (!parse_pair(a->center, ",", &cx, &cy)) {
      fprintf(stderr, "tilescope %s: --center '%s': give X,Y in image pixels\n", cmd, a->center);
      return 0;
    }
    o->zoom = (float)a->zoom;
    o->cx = (float)cx;
    o->cy = (float)cy;
  }
  o->help = a->help_overlay;
  o->plain_file = cli_plain_file;
  o->plain_launch = cli_plain_launch;
  if (cli_plain_sim && !sim_input(cmd, a, o))
    return 0;
  /* the window's plain runs in a worker program of their own (plain_view.c): a kernel that
   * crashes or never ends costs the worker, and the window goes on */
  if (cli_plain_file)
    plain_view_isolate(a->timeout > 0 ? a->timeout : 120);
  if (a->resident && !a->order) {
    fprintf(stderr, "tilescope %s: --resident %s: goes with --order (linear, reverse, "
                    "random:SEED or FILE)\n", cmd, a->resident);
    return 0;
  }
  if (a->order) {
    ts_plain_opts how = { 0 };
    if (!cli_order(cmd, a->order, a->resident, &how))
      return 0;
    if (!cli_plain_file) {
      fprintf(stderr, "tilescope %s: --order '%s': goes with a plain kernel (--kernel-file K.cl, "
              "--sim FILE.sim)\n", cmd, a->order);
      return 0;
    }
    plain_view_order(&how);
  }
  if ((a->source || a->have_select) && !cli_plain_file) {
    fprintf(stderr, "tilescope %s: %s goes with a plain kernel (--kernel-file K.cl, --sim "
            "FILE.sim)\n", cmd, a->source ? "--source" : "--select-finding");
    return 0;
  }
  if (a->have_select && a->select_finding < 1) {
    fprintf(stderr, "tilescope %s: --select-finding %d: give N from 1, a finding as run "
            "--observe lists them\n", cmd, a->select_finding);
    return 0;
  }
  if (a->source && a->split) {
    fprintf(stderr, "tilescope %s: --source: the split view (--split) has no room for the "
            "source pane\n", cmd);
    return 0;
  }
  o->source = a->source;
  o->select_finding = a->have_select ? a->select_finding : 0;
  o->watch_x = o->watch_y = -1;
  if (a->pixel) {
    int64_t xy[2];
    if (!cli_plain_file) {
      fprintf(stderr, "tilescope %s: --pixel goes with a plain kernel (--kernel-file K.cl); a "
              "built-in variant's thread is selected with a script's click X Y\n", cmd);
      return 0;
    }
    if (!ts_parse_ints(a->pixel, ",", 0, INT32_MAX, xy)) {
      fprintf(stderr, "tilescope %s: --pixel '%s': give X,Y, an output pixel (from 0)\n", cmd,
              a->pixel);
      return 0;
    }
    o->watch_x = (int)xy[0];
    o->watch_y = (int)xy[1];
  }
  const char *dir = paths_kernels_dir(a->cs.kernels);
  o->kernels_dir = dir;
  if (!dir && o->set.use_cl && a->cs.have_backend) {
    /* OpenCL asked for by name: no quiet fall back to the CPU model (paths_kernels_dir said
     * why) */
    return 0;
  }
  if (!dir && o->set.use_cl)
    o->set.use_cl = 0;
  if (cli_plain_file && (a->record || p.exec_device || a->frames)) {
    fprintf(stderr, "tilescope %s: --kernel-file %s is a plain kernel, shown as one observed run: "
            "%s goes with the built-in variants\n", cmd, cli_plain_file,
            a->record ? "--record" : p.exec_device ? "--exec device" : "--frames");
    return 0;
  }
  if (a->split) {
    char err[200];
    if (!vw_split_parse(a->split, &o->split, err, sizeof err)) {
      fprintf(stderr, "tilescope %s: --split: %s\n", cmd, err);
      return 0;
    }
    o->have_split = 1;
    const vw_split_spec *sp = &o->split;
    int order_alone = sp->order && !sp->device && sp->variant < 0 && sp->pattern < 0 &&
                      sp->walk < 0 && !sp->slots && !sp->cost;
    const char *why = cli_plain_file && !order_alone
                          ? "a plain kernel's split view is order=ORDER alone (device, linear, "
                            "reverse, random:SEED or a file of work-groups)"
                      : !cli_plain_file && sp->order
                          ? "order= goes with a plain kernel (--kernel-file K.cl); a variant's "
                            "right half changes variant, pattern, walk, slots or cost"
                      : o->split.device && !a->record && !p.exec_device
                          ? "shows the device's run beside the simulation: give "
                            "--record FILE or --exec device"
                      : o->split.device && a->dev_time
                          ? "the tick is the cursor (the device half shows the same "
                            "share of its run); --device-time goes with the device view alone"
                          : NULL;
    if (why) {
      fprintf(stderr, "tilescope %s: --split %s: %s\n", cmd, a->split, why);
      return 0;
    }
  }
  if (a->record) {
    if (p.exec_device) {
      fprintf(stderr, "tilescope %s: --record opens a saved run and --exec device makes a new "
              "one: give one of them\n", cmd);
      return 0;
    }
    if (!load_record(cmd, a, o))
      return 0;
    o->devview = 1;
  }
  return 1;
}

static int parse_view_args(const char *cmd, int argc, char **argv, view_args *a, const char *usage)
{
  memset(a, 0, sizeof *a);
  cli_sched_defaults(&a->cs);
  const cli_opt opts[] = {
    { "--input", 'i', OPT_STR, &a->input, "IN.png", "input image (default: the test chart)", NULL },
    { "--output", 'o', OPT_STR, &a->out, "SHOT.png", "screenshot file (shot)", NULL },
    { "--size", 0, OPT_STR, &a->size, "WxH", "window size (default 1600x900)", NULL },
    { "--overlay", 0, OPT_STR, &a->overlay, "MODE", "state, order, depth, slot, observed or none (default state)", NULL },
    { "--hover", 0, OPT_STR, &a->hover, "X,Y", "hover output pixel X,Y (footprint and arrows)", NULL },
    { "--pixel", 0, OPT_STR, &a->pixel, "X,Y", "a plain kernel: watch output pixel X,Y, list its every access (a click on it)", NULL },
    { "--source", 0, OPT_FLAG, &a->source, NULL, "a plain kernel: its source beside the output, each line's findings marked (the key l)", NULL },
    { "--select-finding", 0, OPT_INT, &a->select_finding, "N", "a plain kernel: select its finding N (from 1, as run --observe lists them): both accesses' lines, work-groups and times (the keys n N)", &a->have_select },
    { "--order", 0, OPT_STR, &a->order, "device|linear|reverse|random:SEED|FILE", "a plain kernel: its work-groups in another legal order (as run --order)", NULL },
    { "--resident", 0, OPT_STR, &a->resident, "K", "with --order: K work-groups at once (default 1)", NULL },
    { "--zoom", 0, OPT_DBL, &a->zoom, "Z", "screen pixels per image pixel (with --center)", &a->have_zoom },
    { "--center", 0, OPT_STR, &a->center, "X,Y", "image point at the centre of the panes", NULL },
    { "--help-overlay", 0, OPT_FLAG, &a->help_overlay, NULL, "show the key help", NULL },
    { "--bench-frames", 0, OPT_INT, &a->bench_frames, "N", "time the first frame, N frames with the hover moving and N one-tick steps (from --tick), then quit", &a->have_bench },
    { "--show-times", 0, OPT_FLAG, &a->show_times, NULL, "shot: draw the measured kernel time too (it varies from run to run)", NULL },
    { "--script", 0, OPT_STR, &a->script, "FILE", "play a script of actions", NULL },
    { "--frames", 0, OPT_STR, &a->frames, "A:B:S", "a numbered sequence of ticks, or one animated .gif (shot)", NULL },
    { "--fps", 0, OPT_INT, &a->fps, "N", "a .gif's frames (ticks) per second with --frames, 1..50 (default 4)", &a->have_fps },
    { "--scale", 0, OPT_DBL, &a->scale, "S", "a .gif's size as a share of the window, 0.1..1 (default 1)", &a->have_scale },
    { "--record", 0, OPT_STR, &a->record, "IN.json", "open a record saved by tilescope run --exec device --trace (the run's settings come from it)", NULL },
    { "--device-time", 0, OPT_STR, &a->dev_time, "T|P%", "the device view at device time T (ns, or logical events) or at P% of the run", NULL },
    { "--split", 0, OPT_STR, &a->split, "SPEC", "two runs side by side on one cursor: the right half changes pattern=P, walk=W, variant=V, slots=N, cost=N (comma-separated), or device: the device's run beside the simulation; a plain kernel's: order=ORDER, its work-groups in another legal order beside the first", NULL },
    { "--timeout", 0, OPT_DBL, &a->timeout, "S", "shot: the watchdog, a run not done in S seconds ends the shot (default 600)", &a->have_timeout },
    { "--sarif", 0, OPT_STR, &a->sarif, "OUT.sarif", "shot: write the findings it shows (a plain kernel's, or the run's hazards and advice) as SARIF 2.1.0 (docs/ci.md)", NULL },
    CLI_SCHED_OPTS(&a->cs),
  };
  const char *pos[1];
  int npos;
  int r = cli_parse(cmd, argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), pos, 1, &npos, usage);
  if (r)
    return r;
  if (npos == 1)
    a->input = pos[0];
  if (!a->have_fps)
    a->fps = 4;
  if (a->have_bench && (a->bench_frames < 1 || a->bench_frames > 100000)) {
    fprintf(stderr, "tilescope %s: --bench-frames %d: needs 1..100000\n", cmd, a->bench_frames);
    return EXIT_USAGE;
  }
  if (a->out && !cli_image_name(cmd, "-o", a->out, 1))
    return EXIT_USAGE;
  return 0;
}

static int have_display(void)
{
  const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
  const char *drv = getenv("SDL_VIDEODRIVER");
  return (x && *x) || (w && *w) || (drv && *drv && strcmp(drv, "offscreen") != 0);
}

static int is_gif(const char *path)
{
  size_t n = strlen(path);
  return n > 4 && strcasecmp(path + n - 4, ".gif") == 0;
}

/* A shot's exit code after its pictures were written: 2 when the run it shows could not be
 * made (a kernel that did not build, a run that failed: the picture shows the error scene). */
static int shot_result(viewer *v)
{
  if (v->have_snap && v->snap.error[0]) {
    fprintf(stderr, "tilescope shot: %s (the shot shows the error)\n", v->snap.error);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

/* The watchdog of a shot: a run that is not done in time cannot be stopped on its thread (a
 * kernel in flight cannot be cancelled), so the shot ends here, with its line, and the
 * frames written so far (set, or NULL) go. */
static void sync_or_exit(viewer *v, const view_args *a, ts_outset *set)
{
  double s = a->timeout > 0 ? a->timeout : 600;
  if (v->plain)
    s += 10; /* the plain kernel's worker has the same watchdog, and its line says more */
  if (viewer_sync(v, (uint32_t)(s * 1000)))
    return;
  fprintf(stderr, "tilescope shot: the run did not finish in %g s; the watchdog stopped the "
          "shot (--timeout)\n", s);
  ts_outset_abort(set);
  fflush(stdout);
  fflush(stderr);
  _exit(EXIT_DIFF);
}

/* --frames A:B:S into f; 0 when it is not FIRST:LAST:STEP ticks. */
static int parse_frames(const char *s, int64_t f[3])
{
  return ts_parse_ints(s, "::", 0, INT64_MAX, f) && f[1] >= f[0] && f[2] >= 1;
}

/* Writes one picture, or one per tick of --frames; to a .gif, adds them to `an` instead (a
 * script may have added frames already) and writes it. */
static int check_files(const char *cmd, const view_args *a, const char *out);

static int shoot(viewer *v, const view_args *a, anim *an)
{
  if (!a->frames) {
    sync_or_exit(v, a, NULL);
    if (v->plain && !v->plain->res) {
      /* A plain kernel that did not load or run: its error, and no picture of it; one that
       * ran and crashed or ran past the watchdog fails as a finding does (exit 1). */
      fprintf(stderr, "tilescope shot: %s\n", v->plain->error);
      ts_status k = v->plain->error_status;
      return k == TS_ERR_STALLED || k == TS_ERR_DEVICE ? EXIT_DIFF : EXIT_USAGE;
    }
    if (v->plain && a->have_select && (size_t)a->select_finding > v->plain->res->nfindings) {
      fprintf(stderr, "tilescope shot: --select-finding %d: the run has %zu finding%s\n",
              a->select_finding, v->plain->res->nfindings,
              v->plain->res->nfindings == 1 ? "" : "s");
      return EXIT_USAGE;
    }
    if (an ? anim_frames(an) == 0 && !viewer_anim_frame(v, an, 100) : !viewer_screenshot(v, a->out, NULL))
      return EXIT_USAGE;
  } else {
    int64_t f[3];
    if (!parse_frames(a->frames, f)) {
      fprintf(stderr, "tilescope shot: --frames '%s': give FIRST:LAST:STEP ticks\n", a->frames);
      return EXIT_USAGE;
    }
    long long f0 = f[0], f1 = f[1], fs = f[2];
    if ((f1 - f0) / fs >= 10000) {
      fprintf(stderr, "tilescope shot: --frames '%s': %lld frames, over the limit of 10000\n",
              a->frames, (f1 - f0) / fs + 1);
      return EXIT_USAGE;
    }
    int n = 0, fps = a->fps < 1 ? 1 : a->fps > 50 ? 50 : a->fps; /* shot refuses others */
    long long nframes = (f1 - f0) / fs + 1; /* counted, so t never passes LLONG_MAX */
    /* PNG frames wait as temporary files and are renamed into place together, only once all
     * were written: a failure or a signal part-way leaves none of this run's. */
    ts_error err = { 0 };
    ts_outset *set = an ? NULL : ts_outset_create((int)nframes, &err);
    if (!an && !set) {
      fprintf(stderr, "tilescope shot: %s\n", err.msg);
      return EXIT_USAGE;
    }
    int ok = 1;
    for (long long i = 0; ok && i < nframes; i++) {
      long long t = f0 + i * fs;
      char path[4096];
      const char *pct = strchr(a->out, '%');
      int len = 0;
      if (an) {
        path[0] = 0;
      } else if (pct) {
        /* A pattern such as shot%03d.png: the digits give the width. */
        int64_t width = 0;
        const char *end = pct + 1 + (pct[1] == '-' ? 0 : ts_scan_int(pct + 1, &width));
        if (*end != 'd' || width > 12) {
          fprintf(stderr, "tilescope shot: -o '%s': use %%d or %%0Nd for the frame number\n", a->out);
          ok = 0;
          break;
        }
        len = snprintf(path, sizeof path, "%.*s%0*lld%s", (int)(pct - a->out), a->out,
                       (int)width, t, end + 1);
      } else {
        const char *dot = strrchr(a->out, '.');
        int stem = dot ? (int)(dot - a->out) : (int)strlen(a->out);
        len = snprintf(path, sizeof path, "%.*s-%05lld%s", stem, a->out, t, dot ? dot : ".png");
      }
      if (len < 0 || len >= (int)sizeof path) {
        fprintf(stderr, "tilescope shot: -o '%s': frame %lld's name is too long\n", a->out, t);
        ok = 0;
        break;
      }
      if (!an && !check_files("shot", a, path)) { /* (an input named like a frame) */
        ok = 0;
        break;
      }
      viewer_set_tick(v, t);
      sync_or_exit(v, a, set);
      ok = an ? viewer_anim_frame(v, an, (100 + fps / 2) / fps) : viewer_screenshot(v, path, set);
      n += ok;
    }
    if (!an) {
      if (!ok) {
        ts_outset_abort(set);
        return EXIT_USAGE;
      }
      if (ts_outset_commit(set, &err) != TS_OK) {
        fprintf(stderr, "tilescope shot: %s\n", err.msg);
        return EXIT_USAGE;
      }
      printf("wrote %d frame%s\n", n, n == 1 ? "" : "s");
      return shot_result(v);
    }
    if (!ok)
      return EXIT_USAGE;
  }
  char err[600];
  if (an && !anim_write(an, a->out, err, sizeof err)) {
    fprintf(stderr, "tilescope shot: %s\n", err);
    return EXIT_USAGE;
  }
  if (an)
    printf("wrote %s (%d frames)\n", a->out, anim_frames(an));
  else
    printf("wrote %s\n", a->out);
  if (v->plain && v->plain2) {
    char l[64], r[64], d[160];
    plain_view_order_name(v->plain, l, sizeof l);
    plain_view_order_name(v->plain2, r, sizeof r);
    plain_view_differ_line(v->plain, v->plain2, d, sizeof d);
    printf("split: left %s, right %s: %s\n", l, r, d);
  }
  return shot_result(v);
}

/* The files the viewer or a shot reads and writes (cli_check_files): out, or -o itself
 * (NULL); a numbered frame's own name is checked as it is made. */
static int check_files(const char *cmd, const view_args *a, const char *out)
{
  const cli_file ins[] = { { "-i", a->input }, { "--record", a->record },
                           { "--script", a->script }, { "--kernel-file", cli_plain_file },
                           { "--launch", cli_plain_launch } };
  const cli_file outs[] = { { "-o", out ? out : a->frames && !is_gif(a->out) ? NULL : a->out },
                            { "--sarif", a->sarif } };
  return cli_check_files(cmd, ins, 5, outs, 2);
}

/* shot --sarif: the findings of what the shot shows, a plain kernel's observed run, or the
 * run's hazards and pattern advice as `run` prints them, at their kernel's lines. */
static int shot_sarif(viewer *v, const char *path)
{
  if (v->plain)
    return sarif_write_plain("shot", path, v->plain->desc, v->plain->res, 0, stdout);
  sarif_log *log = sarif_create();
  if (log && v->have_snap && v->snap.run) {
    char *text = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    if (m) {
      cli_print_findings(m, v->snap.run);
      fclose(m);
    }
    const sarif_fails none = { 0 };
    char found[1024];
    const char *kdir = v->kernels_dir[0] ? v->kernels_dir
                       : paths_find_quiet("TILESCOPE_KERNELS", "kernels", "common.cl", found,
                                          sizeof found);
    sarif_add_run_text(log, v->snap.run, kdir, text ? text : "", &none);
    free(text);
  }
  int ok = sarif_save(log, "shot", path, stdout);
  sarif_destroy(log);
  return ok;
}

static int run_viewer(const char *cmd, view_args *a, int offscreen)
{
  vw_options o;
  if (!to_options(cmd, a, &o)) {
    ts_dev_run_free(o.record);
    return EXIT_USAGE;
  }
  if (a->no_display && a->bench_frames > 0)
    fprintf(stderr, "tilescope: no display: --bench-frames draws offscreen\n");
  else if (a->no_display)
    fprintf(stderr, "tilescope: no display (DISPLAY and WAYLAND_DISPLAY are unset); writing a "
                    "screenshot of the scene to %s instead\n", a->out);
  o.offscreen = offscreen;
  /* The window, and a scripted shot, try each user kernel in a process of its own before
   * running it (worker.c): one that crashes or hangs costs that process, and the window goes
   * on. A plain shot is already a supervised process of its own (main.c). */
  if ((!offscreen || a->script) && ts_isolate_program())
    vw_use_probe(ts_isolate_program(), a->cs.kernels, a->timeout > 0 ? a->timeout : 120);
  struct timespec created;
  clock_gettime(CLOCK_MONOTONIC, &created);
  viewer *v = viewer_create(&o);
  if (!v)
    return EXIT_USAGE;
  v->show_times = a->show_times;
  int rc = EXIT_OK;
  anim *an = NULL;
  if (a->out && is_gif(a->out)) {
    double s = a->scale ? a->scale : 1;
    an = anim_create(v->width, v->height, (int)(v->width * s + 0.5), (int)(v->height * s + 0.5));
    if (!an) {
      fprintf(stderr, "tilescope %s: %s: out of memory\n", cmd, a->out);
      rc = EXIT_USAGE;
    }
    /* --frames' count known: refused before any frame is drawn */
    int64_t f[3];
    char err[300];
    if (an && a->frames && parse_frames(a->frames, f) &&
        !anim_fits((int)(v->width * s + 0.5), (int)(v->height * s + 0.5),
                   (long long)((f[1] - f[0]) / f[2] + 1), err, sizeof err)) {
      fprintf(stderr, "tilescope %s: %s\n", cmd, err);
      rc = EXIT_USAGE;
    }
    /* without --frames, the script's pauses are the frames; with it, the ticks are, and the
     * script gives them its caption (the one in force as it ends) */
    v->anim = an;
    if (an && a->frames)
      anim_hold(an, 1);
  }
  if (rc == EXIT_OK && a->script) {
    int f = script_run(v, a->script);
    if (f < 0 || v->anim_failed)
      rc = EXIT_USAGE;
    else if (f > 0) {
      fprintf(stderr, "tilescope %s: %d expectation%s of the script failed\n", cmd, f, f > 1 ? "s" : "");
      rc = EXIT_DIFF;
    }
  }
  v->anim = NULL;
  if (an)
    anim_hold(an, 0);
  if (rc == EXIT_OK && a->bench_frames > 0)
    rc = bench_frames(v, a->bench_frames,
                      (double)created.tv_sec * 1e3 + (double)created.tv_nsec / 1e6,
                      a->cs.have_tick ? a->cs.tick : 0)
             ? EXIT_OK : EXIT_USAGE;
  else if (rc == EXIT_OK && a->out)
    rc = shoot(v, a, an);
  else if (rc == EXIT_OK && !offscreen)
    while (!v->quit)
      viewer_frame(v, 0);
  if (a->sarif && rc != EXIT_USAGE && !shot_sarif(v, a->sarif))
    rc = EXIT_USAGE;
  anim_destroy(an);
  viewer_destroy(v);
  return rc;
}

int cmd_view(int argc, char **argv)
{
  view_args a;
  int r = parse_view_args("view", argc, argv, &a, view_usage);
  if (r)
    return r < 0 ? EXIT_OK : r;
  if (a.sarif) {
    fprintf(stderr, "tilescope view: --sarif goes with shot (the window shows its findings)\n");
    return EXIT_USAGE;
  }
  a.no_display = !have_display();
  if (a.no_display && a.bench_frames == 0 && !a.out)
    a.out = "tilescope-shot.png";
  else if (!a.no_display)
    a.out = NULL;
  if (!check_files("view", &a, NULL))
    return EXIT_USAGE;
  return run_viewer("view", &a, a.no_display);
}

int cmd_shot(int argc, char **argv)
{
  view_args a;
  int r = parse_view_args("shot", argc, argv, &a, shot_usage);
  if (r)
    return r < 0 ? EXIT_OK : r;
  if (!a.out) {
    fprintf(stderr, "tilescope shot: needs -o SHOT.png\n");
    return EXIT_USAGE;
  }
  if (!check_files("shot", &a, NULL))
    return EXIT_USAGE;
  int gif = is_gif(a.out);
  if ((a.have_fps || a.have_scale) && !gif) {
    fprintf(stderr, "tilescope shot: %s: goes with an animation, -o NAME.gif\n",
            a.have_fps ? "--fps" : "--scale");
    return EXIT_USAGE;
  }
  if (a.have_fps && (!a.frames || a.fps < 1 || a.fps > 50)) {
    fprintf(stderr, "tilescope shot: --fps %d: give 1..50 frames per second, with --frames "
            "(a script's pauses set their own times)\n", a.fps);
    return EXIT_USAGE;
  }
  if (a.have_scale && !(a.scale >= 0.1 && a.scale <= 1)) {
    fprintf(stderr, "tilescope shot: --scale %g: give a share of the window, 0.1..1\n", a.scale);
    return EXIT_USAGE;
  }
  if (a.have_timeout && !(a.timeout > 0 && a.timeout <= 86400)) {
    fprintf(stderr, "tilescope shot: --timeout %g: give more than 0 and at most 86400 seconds\n",
            a.timeout);
    return EXIT_USAGE;
  }
  return run_viewer("shot", &a, 1);
}
