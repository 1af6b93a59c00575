/* `tilescope [view]` opens the viewer; `tilescope shot` renders exactly what the window would
 * show, headless, through SDL's offscreen video driver, to a PNG (or a numbered sequence).
 * Both take the run options, an overlay, a hover point and a script. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "viewer.h"

typedef struct view_args {
  cli_sched cs;
  const char *input, *out, *size, *overlay, *script, *frames, *hover, *center;
  int help_overlay, show_times;
  double zoom;
} view_args;

static const char view_usage[] =
    "usage: tilescope [view] [IN.png] [options]\n"
    "Opens the viewer on the image (default: the test chart). With no display it says so and\n"
    "writes a screenshot of the scene to tilescope-shot.png instead.";

static const char shot_usage[] =
    "usage: tilescope shot -o SHOT.png [--size WxH] [--frames A:B:S] [--hover X,Y] [options]\n"
    "Renders what the viewer shows for these options, without a display. --frames writes one\n"
    "picture per tick A, A+S, ... B (SHOT-00012.png, or a printf pattern such as shot%03d.png).";

/* Two numbers within 1e6 (finite: a NaN or a huge centre or hover point reached the drawing
 * code as an out-of-range int and crashed it). */
static int parse_pair(const char *s, const char *sep, double *a, double *b)
{
  char *end;
  *a = strtod(s, &end);
  if (end == s || strncmp(end, sep, strlen(sep)) != 0)
    return 0;
  const char *t = end + strlen(sep);
  *b = strtod(t, &end);
  return end != t && *end == 0 && *a >= -1e6 && *a <= 1e6 && *b >= -1e6 && *b <= 1e6;
}

/* Options to viewer options; prints the error and returns 0 on a bad value. */
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
                          .use_cl = strcmp(a->cs.backend, "cl") == 0, .device = a->cs.device };
  o->input = a->input;
  o->tick = a->cs.have_tick ? a->cs.tick : -1;
  o->mode = OV_STATE;
  if (a->overlay && !overlay_parse(a->overlay, &o->mode)) {
    fprintf(stderr, "tilescope %s: --overlay '%s': one of none, state, order, depth, slot\n", cmd,
                    a->overlay);
    return 0;
  }
  double w = 1600, h = 900;
  if (a->size && (!parse_pair(a->size, "x", &w, &h) || w < 640 || h < 400 || w > 8192 || h > 8192)) {
    fprintf(stderr, "tilescope %s: --size '%s': give WIDTHxHEIGHT, at least 640x400\n", cmd, a->size);
    return 0;
  }
  o->width = (int)w;
  o->height = (int)h;
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
  if (a->zoom != 0) {
    double cx = 0, cy = 0;
    if (!(a->zoom >= 0.02 && a->zoom <= 256) || !a->center || !parse_pair(a->center, ",", &cx, &cy)) {
      fprintf(stderr, "tilescope %s: --zoom needs 0.02..256 and --center X,Y\n", cmd);
      return 0;
    }
    o->zoom = (float)a->zoom;
    o->cx = (float)cx;
    o->cy = (float)cy;
  }
  o->help = a->help_overlay;
  const char *dir = cli_kernels_dir(a->cs.kernels);
  o->kernels_dir = dir;
  if (!dir && o->set.use_cl)
    o->set.use_cl = 0;
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
    { "--overlay", 0, OPT_STR, &a->overlay, "MODE", "state, order, depth, slot or none (default state)", NULL },
    { "--hover", 0, OPT_STR, &a->hover, "X,Y", "hover output pixel X,Y (footprint and arrows)", NULL },
    { "--zoom", 0, OPT_DBL, &a->zoom, "Z", "screen pixels per image pixel (with --center)", NULL },
    { "--center", 0, OPT_STR, &a->center, "X,Y", "image point at the centre of the panes", NULL },
    { "--help-overlay", 0, OPT_FLAG, &a->help_overlay, NULL, "show the key help", NULL },
    { "--show-times", 0, OPT_FLAG, &a->show_times, NULL, "shot: draw the measured kernel time too (it varies from run to run)", NULL },
    { "--script", 0, OPT_STR, &a->script, "FILE", "play a script of actions", NULL },
    { "--frames", 0, OPT_STR, &a->frames, "A:B:S", "a numbered sequence of ticks (shot)", NULL },
    CLI_SCHED_OPTS(&a->cs),
  };
  const char *pos[1];
  int npos;
  int r = cli_parse(cmd, argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), pos, 1, &npos, usage);
  if (r)
    return r;
  if (npos == 1)
    a->input = pos[0];
  return 0;
}

static int have_display(void)
{
  const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
  const char *drv = getenv("SDL_VIDEODRIVER");
  return (x && *x) || (w && *w) || (drv && *drv && strcmp(drv, "offscreen") != 0);
}

/* Writes one picture, or one per tick of --frames. */
static int shoot(viewer *v, const view_args *a)
{
  if (!a->frames) {
    if (!viewer_sync(v, 600000)) {
      fprintf(stderr, "tilescope shot: the run did not finish in time\n");
      return EXIT_DIFF;
    }
    if (!viewer_screenshot(v, a->out))
      return EXIT_USAGE;
    printf("wrote %s\n", a->out);
    return EXIT_OK;
  }
  long long f0, f1, fs;
  char tail;
  if (sscanf(a->frames, "%lld:%lld:%lld%c", &f0, &f1, &fs, &tail) != 3 || f0 < 0 || f1 < f0 ||
      fs < 1 || (f1 - f0) / fs > 10000) {
    fprintf(stderr, "tilescope shot: --frames '%s': give FIRST:LAST:STEP ticks\n", a->frames);
    return EXIT_USAGE;
  }
  int n = 0;
  for (long long t = f0; t <= f1; t += fs) {
    char path[4096];
    const char *pct = strchr(a->out, '%');
    if (pct) {
      /* A pattern such as shot%03d.png: the digits give the width. */
      char *end;
      long width = strtol(pct + 1, &end, 10);
      if (*end != 'd' || width < 0 || width > 12) {
        fprintf(stderr, "tilescope shot: -o '%s': use %%d or %%0Nd for the frame number\n", a->out);
        return EXIT_USAGE;
      }
      snprintf(path, sizeof path, "%.*s%0*lld%s", (int)(pct - a->out), a->out, (int)width, t,
               end + 1);
    } else {
      const char *dot = strrchr(a->out, '.');
      int stem = dot ? (int)(dot - a->out) : (int)strlen(a->out);
      snprintf(path, sizeof path, "%.*s-%05lld%s", stem, a->out, t, dot ? dot : ".png");
    }
    viewer_set_tick(v, t);
    if (!viewer_sync(v, 600000) || !viewer_screenshot(v, path))
      return EXIT_USAGE;
    n++;
  }
  printf("wrote %d frames\n", n);
  return EXIT_OK;
}

static int run_viewer(const char *cmd, view_args *a, int offscreen)
{
  vw_options o;
  if (!to_options(cmd, a, &o))
    return EXIT_USAGE;
  o.offscreen = offscreen;
  viewer *v = viewer_create(&o);
  if (!v)
    return EXIT_USAGE;
  v->show_times = a->show_times;
  int rc = EXIT_OK;
  if (a->script) {
    int f = script_run(v, a->script);
    if (f < 0)
      rc = EXIT_USAGE;
    else if (f > 0) {
      fprintf(stderr, "tilescope %s: %d expectation%s of the script failed\n", cmd, f, f > 1 ? "s" : "");
      rc = EXIT_DIFF;
    }
  }
  if (rc == EXIT_OK && a->out)
    rc = shoot(v, a);
  else if (rc == EXIT_OK && !offscreen)
    while (!v->quit)
      viewer_frame(v, 0);
  viewer_destroy(v);
  return rc;
}

int cmd_view(int argc, char **argv)
{
  view_args a;
  int r = parse_view_args("view", argc, argv, &a, view_usage);
  if (r)
    return r < 0 ? EXIT_OK : r;
  if (!have_display()) {
    if (!a.out)
      a.out = "tilescope-shot.png";
    fprintf(stderr, "tilescope: no display (DISPLAY and WAYLAND_DISPLAY are unset); writing a "
                    "screenshot of the scene to %s instead\n", a.out);
    return run_viewer("view", &a, 1);
  }
  a.out = NULL;
  return run_viewer("view", &a, 0);
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
  return run_viewer("shot", &a, 1);
}
