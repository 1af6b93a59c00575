/* `tilescope export --html OUT.html`: a run as one self-contained web page (export_page.h),
 * with the run options of run and shot: -i, --variant, --pattern, --walk, --slots, --tick,
 * --overlay, --hover, --exec device or --record for the device's view. With --script the page
 * holds every run a viewer script (a demo) shows, one after the other, each opening where the
 * script first showed it. A plain kernel (--kernel-file K.cl, --sim F.sim) is run observed,
 * in a process of its own, in the device's order or --order's, and its page steps through its
 * work-groups' records; --split order=ORDER runs it again in that order, beside the first on
 * the page, and says whether the outputs differ. Needs no display: the page is drawn by the
 * browser. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "export_page.h"
#include "page_plain.h"
#include "script_parse.h"
#include "split_spec.h"
#include "ts_file.h"
#include "ts_record.h"
#include "ts_sim.h"

static const char usage[] =
    "usage: tilescope export --html OUT.html [-i IN.png] [--tick T] [--overlay MODE]\n"
    "                        [--hover X,Y] [--exec device | --record IN.json] [--script F]\n"
    "                        [options]\n"
    "       tilescope export --html OUT.html --kernel-file K.cl [-i IN.png] [--launch F]\n"
    "                        [--order ORDER [--resident K] | --adversary] [--tick T]\n"
    "                        [--split order=ORDER]\n"
    "       tilescope export --html OUT.html [options] --split SPEC\n"
    "       tilescope export --html OUT.html --sim FILE.sim [--order ...]\n"
    "Writes the run as one self-contained web page: the input, the output as the threads\n"
    "produce it, the thread-space overlay, play, step and a timeline to scrub, hover with\n"
    "footprint and inspector, and the device's view when the run has a record. It needs no\n"
    "server and fetches nothing. The page opens at --tick (default: the end); its address's\n"
    "fragment #tick=T opens it at tick T. With --script the page holds every run the script\n"
    "shows (variant, pattern, walk, slots, cost, backend and open), each opening at the\n"
    "tick, overlay and hover the script first shows it with. A plain kernel is run observed\n"
    "and its page steps through the launch's clock (a tick each work-group's start, barrier\n"
    "and end): its work-groups' tiles, records and findings, a pass at a time; --split\n"
    "order=ORDER runs it a second time in that order beside the first, on one slider, and\n"
    "says whether the two outputs differ. A variant's --split SPEC (pattern=P, walk=W,\n"
    "variant=V, slots=N, cost=N, comma-separated, as the window and shot take it) puts a\n"
    "second run beside the first, its settings changed as SPEC says, on one slider.";

enum { MAX_RUNS = 16, MAX_IMAGES = 8 };

typedef struct ex_args {
  cli_sched cs;
  const char *html, *input, *size, *overlay, *hover, *record, *dev_time, *script, *title,
      *center;
  double zoom;
  const char *sim, *order, *resident, *split; /* a plain kernel's */
  double timeout;
  int have_timeout;
} ex_args;

/* What one run of the page is made of. */
typedef struct ex_conf {
  int variant;
  ts_pattern pattern;
  ts_walk walk;
  int slots, cost, use_cl;
  const char *input;   /* NULL: the default chart */
  ex_view view;
} ex_conf;

typedef struct ex_image {
  const char *path;
  ts_image *img;
} ex_image;

static int parse_pair(const char *s, const char *sep, int *a, int *b)
{
  char *end;
  long x = strtol(s, &end, 10);
  if (end == s || strncmp(end, sep, strlen(sep)) != 0)
    return 0;
  const char *t = end + strlen(sep);
  long y = strtol(t, &end, 10);
  if (end == t || *end || x < 0 || y < 0 || x > 1000000 || y > 1000000)
    return 0;
  *a = (int)x;
  *b = (int)y;
  return 1;
}

static int variant_index(const ts_variant *v)
{
  int i = 0;
  while (ts_variant_at(i) != v)
    i++;
  return i;
}

static const char *const overlays[] = { "none", "state", "order", "depth", "slot" };

/* The page's name for an overlay: the device view's wait and unit are the page's depth and
 * slot (it draws them as wait and unit there, as the viewer does), or NULL: not in a page. */
static const char *page_overlay(const char *s)
{
  if (strcmp(s, "wait") == 0)
    return "depth";
  if (strcmp(s, "unit") == 0)
    return "slot";
  for (size_t i = 0; i < sizeof overlays / sizeof overlays[0]; i++)
    if (strcmp(s, overlays[i]) == 0)
      return overlays[i];
  return NULL;
}

/* --device-time T or P% into the view. */
static int parse_dev_time(const char *s, ex_view *v)
{
  char *end;
  double t = strtod(s, &end);
  int pct = *end == '%' && end[1] == 0;
  if (end == s || (*end && !pct) || !(t >= 0) || (pct && t > 100) || t > 9e15) {
    fprintf(stderr, "tilescope export: --device-time '%s': give P%% of the run or a time in the "
            "record's unit (ns, or logical events)\n", s);
    return 0;
  }
  if (pct)
    v->dev_pct = t;
  else
    v->dev_time = (int64_t)t;
  return 1;
}

static const ts_image *load_image(ex_image *imgs, int *nimgs, const char *path)
{
  for (int i = 0; i < *nimgs; i++)
    if (strcmp(imgs[i].path, path) == 0)
      return imgs[i].img;
  if (*nimgs == MAX_IMAGES) {
    fprintf(stderr, "tilescope export: %s: at most %d images a page\n", path, MAX_IMAGES);
    return NULL;
  }
  ts_error err = { 0 };
  ts_image *img = NULL;
  if (ts_image_load_png(path, &img, &err) != TS_OK) {
    fprintf(stderr, "tilescope export: %s\n", err.msg);
    return NULL;
  }
  imgs[*nimgs] = (ex_image){ path, img };
  (*nimgs)++;
  return img;
}

static int same_run(const ex_conf *a, const ex_conf *b)
{
  return a->variant == b->variant && a->pattern == b->pattern && a->walk == b->walk &&
         a->slots == b->slots && a->cost == b->cost && a->use_cl == b->use_cl &&
         (a->input == b->input || (a->input && b->input && strcmp(a->input, b->input) == 0));
}

/* The runs a script shows: its settings each time it pauses, looks or ends, once each, with
 * the tick, overlay, hover and device time it first shows them with. */
static int script_confs(const char *path, const ex_conf *first, ex_conf *out, int *n, script *sc,
                        ex_frame *frames, int *nframes)
{
  uint8_t *text = NULL;
  size_t len = 0;
  ts_error err = { 0 };
  if (ts_file_read_all(path, SCRIPT_MAX_BYTES, &text, &len, &err) != TS_OK) {
    fprintf(stderr, "tilescope export: --script %s\n", err.msg);
    return 0;
  }
  char msg[600];
  int ok = script_parse((const char *)text, len, path, sc, msg, sizeof msg);
  free(text);
  if (!ok) {
    fprintf(stderr, "tilescope export: --script %s\n", msg);
    return 0;
  }
  ex_conf cur = *first;
  const char *caption = NULL;
  *n = 0;
  for (int i = 0; i <= sc->n; i++) {
    const script_action *a = i < sc->n ? &sc->act[i] : NULL;
    if (a) {
      switch (a->op) {
      case SCRIPT_VARIANT:
        cur.variant = a->variant;
        cur.pattern = ts_variant_at(a->variant)->pattern;
        cur.walk = ts_pattern_default_walk(cur.pattern);
        continue;
      case SCRIPT_PATTERN:
        cur.pattern = a->pattern;
        cur.walk = ts_pattern_default_walk(a->pattern);
        continue;
      case SCRIPT_WALK: cur.walk = a->walk; continue;
      case SCRIPT_SLOTS: cur.slots = (int)a->n; continue;
      case SCRIPT_COST: cur.cost = (int)a->n; continue;
      case SCRIPT_BACKEND: cur.use_cl = a->on; continue;
      case SCRIPT_OPEN: cur.input = a->text; continue;
      case SCRIPT_TICK: cur.view.tick = a->n == SCRIPT_TICK_END ? -1 : a->n; continue;
      case SCRIPT_DEVTIME:
        cur.view.dev_time = a->percent || a->n == SCRIPT_TICK_END ? -1 : a->n;
        cur.view.dev_pct = a->percent ? a->zoom : -1;
        continue;
      case SCRIPT_MOVE:
      case SCRIPT_CLICK:
        cur.view.hover = 1;
        cur.view.hover_x = (int)fmax(0, a->x);
        cur.view.hover_y = (int)fmax(0, a->y);
        continue;
      case SCRIPT_ZOOM:
        cur.view.zoom = a->zoom;
        if (a->have_center) {
          cur.view.cx = a->x;
          cur.view.cy = a->y;
        }
        continue;
      case SCRIPT_FIT: cur.view.zoom = 0; continue;
      case SCRIPT_OVERLAY:
        if (!page_overlay(a->text)) {
          fprintf(stderr, "tilescope export: --script %s:%d: overlay %s is not in a page (none, "
                  "state, order, depth, slot; wait, unit in the device view); the page shows "
                  "state\n", path, a->line, a->text);
          cur.view.overlay = "state";
        } else {
          cur.view.overlay = page_overlay(a->text);
        }
        continue;
      case SCRIPT_SPLIT:
        fprintf(stderr, "tilescope export: --script %s:%d: split is not in a page (it shows one "
                "run at a time: the runs of a split are pages of their own)\n", path, a->line);
        continue;
      case SCRIPT_CAPTION: caption = a->text; continue;
      case SCRIPT_WAIT: case SCRIPT_SHOT: case SCRIPT_REPORT: case SCRIPT_EXPECT:
      case SCRIPT_EXPECT_PIXEL: case SCRIPT_EXPECT_STATUS: case SCRIPT_QUIT:
        break;
      default:
        continue; /* keys, zoom, grid and help change nothing a page holds */
      }
    }
    int k = 0;
    while (k < *n && !same_run(&out[k], &cur))
      k++;
    if (k == *n) {
      if (*n == MAX_RUNS) {
        fprintf(stderr, "tilescope export: --script %s: more than %d runs\n", path, MAX_RUNS);
        return 0;
      }
      out[(*n)++] = cur;
    }
    /* a pause or a screenshot: a frame of the page's handout, with the caption then */
    if (a && (a->op == SCRIPT_WAIT || a->op == SCRIPT_SHOT) &&
        !ex_frame_add(frames, nframes, k, &cur.view, caption)) {
      fprintf(stderr, "tilescope export: --script %s:%d: more than %d pauses for one page\n",
              path, a->line, EX_MAX_FRAMES);
      return 0;
    }
    if (a && a->op == SCRIPT_QUIT)
      break;
  }
  return 1;
}

/* Reads --record into the first run's settings and its device result (into *rec). */
static int read_record(ex_args *a, ex_conf *c, ts_run_params *p, ts_dev_run **rec, char *inbuf,
                       size_t inlen)
{
  ts_trace_info info;
  ts_error err = { 0 };
  if (ts_trace_read(a->record, &info, rec, &err) != TS_OK) {
    fprintf(stderr, "tilescope export: --record %s\n", err.msg);
    return 0;
  }
  const ts_variant *v = ts_variant_find(info.variant);
  if (!v || !ts_pattern_parse(info.pattern, &c->pattern) || !ts_walk_parse(info.walk, &c->walk) ||
      info.slots < 1) {
    fprintf(stderr, "tilescope export: --record %s: unknown variant, pattern or walk (%s, %s, %s)\n",
            a->record, info.variant, info.pattern, info.walk);
    return 0;
  }
  c->variant = variant_index(v);
  c->slots = info.slots;
  c->cost = info.cost;
  p->ksize = info.ksize;
  p->sigma = info.sigma;
  p->exec_device = 0;
  if (!cli_record_input("export", a->input, a->record, info.input, inbuf, inlen, &c->input))
    return 0;
  c->view.device = 1;
  return 1;
}

static int parse_args(int argc, char **argv, ex_args *a)
{
  memset(a, 0, sizeof *a);
  cli_sched_defaults(&a->cs);
  a->timeout = 300;
  const cli_opt opts[] = {
    { "--html", 0, OPT_STR, &a->html, "OUT.html", "the page to write", NULL },
    { "--input", 'i', OPT_STR, &a->input, "IN.png", "input image (default: the test chart)", NULL },
    { "--size", 0, OPT_STR, &a->size, "WxH", "the page's view at a fixed size in CSS pixels (default: the browser's window)", NULL },
    { "--overlay", 0, OPT_STR, &a->overlay, "MODE", "state, order, depth, slot or none; wait and unit in the device view (default state)", NULL },
    { "--hover", 0, OPT_STR, &a->hover, "X,Y", "open with output pixel X,Y hovered (footprint and inspector)", NULL },
    { "--zoom", 0, OPT_DBL, &a->zoom, "Z", "open at Z screen pixels an image pixel (with --center; default: fit)", NULL },
    { "--center", 0, OPT_STR, &a->center, "X,Y", "the image point at the centre of the panes", NULL },
    { "--record", 0, OPT_STR, &a->record, "IN.json", "a record saved by tilescope run --exec device --trace (the run's settings come from it)", NULL },
    { "--device-time", 0, OPT_STR, &a->dev_time, "T|P%", "open the device view at device time T or at P% of the run", NULL },
    { "--script", 0, OPT_STR, &a->script, "FILE", "every run a viewer script (a demo) shows, in one page", NULL },
    { "--title", 0, OPT_STR, &a->title, "TEXT", "the page's title (default: the variant and the input)", NULL },
    { "--sim", 0, OPT_STR, &a->sim, "FILE.sim", "a plain kernel launched as this Oclgrind simulator file describes it (as --kernel-file K.cl is)", NULL },
    { "--order", 0, OPT_STR, &a->order, "device|linear|reverse|random:SEED|FILE", "a plain kernel: start its work-groups in another legal order, one at a time (as run --order)", NULL },
    { "--resident", 0, OPT_STR, &a->resident, "K", "with --order: K work-groups at once (default 1)", NULL },
    { "--split", 0, OPT_STR, &a->split, "SPEC", "a second run beside the first on one slider: a variant's settings changed (pattern=P, walk=W, variant=V, slots=N, cost=N); a plain kernel's work-groups in order=ORDER (as --order takes it), and whether the outputs differ", NULL },
    { "--timeout", 0, OPT_DBL, &a->timeout, "S", "a plain kernel: the watchdog of its observed run (default 300)", &a->have_timeout },
    CLI_SCHED_OPTS(&a->cs),
  };
  const char *pos[1];
  int npos;
  int r = cli_parse("export", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), pos, 1,
                    &npos, usage);
  if (r)
    return r;
  if (npos == 1)
    a->input = pos[0];
  if (!a->html) {
    fprintf(stderr, "tilescope export: needs --html OUT.html\n");
    return EXIT_USAGE;
  }
  const cli_file ins[] = { { "-i", a->input }, { "--record", a->record },
                           { "--script", a->script }, { "--sim", a->sim },
                           { "--kernel-file", cli_plain_file }, { "--launch", cli_plain_launch } };
  const cli_file outs[] = { { "--html", a->html } };
  if (!cli_check_files("export", ins, 6, outs, 1))
    return EXIT_USAGE;
  return 0;
}

/* The view options (where the page opens) into *v, and --size. */
static int parse_view(const ex_args *a, ex_view *v, int *sw, int *sh)
{
  if (a->size && (!parse_pair(a->size, "x", sw, sh) || *sw < 640 || *sh < 400 || *sw > 8192 ||
                  *sh > 8192)) {
    fprintf(stderr, "tilescope export: --size '%s': give WIDTHxHEIGHT from 640x400 to "
                    "8192x8192\n", a->size);
    return 0;
  }
  if (a->overlay && !page_overlay(a->overlay)) {
    fprintf(stderr, "tilescope export: --overlay '%s': one of none, state, order, depth, slot "
            "(wait, unit: the device view's)\n", a->overlay);
    return 0;
  }
  if (a->overlay)
    v->overlay = page_overlay(a->overlay);
  if (a->hover && !parse_pair(a->hover, ",", &v->hover_x, &v->hover_y)) {
    fprintf(stderr, "tilescope export: --hover '%s': give X,Y in image pixels\n", a->hover);
    return 0;
  }
  v->hover = a->hover != NULL;
  int zx = 0, zy = 0;
  if (a->zoom != 0 && (!(a->zoom >= 0.02 && a->zoom <= 256) || !a->center ||
                       !parse_pair(a->center, ",", &zx, &zy))) {
    fprintf(stderr, "tilescope export: --zoom needs 0.02..256 and --center X,Y\n");
    return 0;
  }
  v->zoom = a->zoom;
  v->cx = a->zoom != 0 ? zx : -1; /* -1: the image's centre */
  v->cy = a->zoom != 0 ? zy : -1;
  return !a->dev_time || parse_dev_time(a->dev_time, v);
}

/* ---- a plain kernel's page ---- */

/* An option of the built-in variants' runs given with a plain kernel, or NULL. */
static const char *plain_conflict(const ex_args *a)
{
  cli_sched d;
  cli_sched_defaults(&d);
  const cli_sched *s = &a->cs;
  return s->variant != d.variant ? "--variant" : s->pattern ? "--pattern"
       : s->have_walk ? "--walk" : s->slots != d.slots ? "--slots"
       : s->have_cost ? "--cost" : s->have_backend ? "--backend"
       : s->ksize != d.ksize ? "--kernel-size" : s->have_sigma ? "--sigma"
       : s->exec != d.exec ? "--exec" : a->record ? "--record"
       : a->script ? "--script" : a->dev_time ? "--device-time" : NULL;
}


static const char *base_name(const char *path)
{
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* --split SPEC (split_spec.h, as the window and shot take it) into the right half's order:
 * order=ORDER alone; its device order runs as many groups at once as the device does. */
static int split_order(const char *spec, ts_plain_opts *po)
{
  vw_split_spec sp;
  char why[200];
  if (!vw_split_parse(spec, &sp, why, sizeof why)) {
    fprintf(stderr, "tilescope export: --split: %s\n", why);
    return 0;
  }
  if (!sp.order || sp.device || sp.variant >= 0 || sp.pattern >= 0 || sp.walk >= 0 ||
      sp.slots || sp.cost) {
    fprintf(stderr, "tilescope export: --split %s: a plain kernel's split view is order=ORDER "
            "alone (device, linear, reverse, random:SEED or a file of work-groups)\n", spec);
    return 0;
  }
  po->order = sp.order - 1;
  po->order_seed = sp.order_seed;
  snprintf(po->order_file, sizeof po->order_file, "%s", sp.order_file);
  if (po->order == TS_ORDER_DEVICE)
    po->resident = 0;
  return 1;
}

/* Reads and runs the plain kernel observed, in a process of its own, and writes its page. A
 * kernel that does not build or fit its launch: exit 2; one that crashes or runs past the
 * watchdog: exit 1; either with one line naming the file, and no page. */
static int export_plain(const ex_args *a, const ex_view *view, int sw, int sh)
{
  const char *path = a->sim ? a->sim : cli_plain_file, *bad = plain_conflict(a);
  if (bad) {
    fprintf(stderr, "tilescope export: %s: %s is a plain kernel: its page shows its own run, "
            "not a built-in variant's schedule (--order gives its work-groups another order)\n",
            bad, path);
    return EXIT_USAGE;
  }
  if (a->sim && (cli_plain_file || a->input)) {
    fprintf(stderr, "tilescope export: --sim %s: the file says what to launch, on what: it "
            "takes no --kernel-file or -i\n", a->sim);
    return EXIT_USAGE;
  }
  if (strcmp(view->overlay, "none") && strcmp(view->overlay, "state") &&
      strcmp(view->overlay, "order")) {
    fprintf(stderr, "tilescope export: --overlay '%s': a plain kernel's page has none, state "
            "and order\n", view->overlay);
    return EXIT_USAGE;
  }
  ts_plain_opts po = { .observe = 1, .chosen_pass = -1, .repeats = 1, .watch_x = -1,
                       .watch_y = -1 };
  for (int i = 0; i < 3; i++)
    po.chosen_group[i] = po.chosen_item[i] = i ? 0 : -1;
  if (a->cs.adversary && a->order) {
    fprintf(stderr, "tilescope export: --adversary: chooses an order of its own; give it or "
            "--order %s, not both\n", a->order);
    return EXIT_USAGE;
  }
  if (a->resident && !a->order && !a->cs.adversary) {
    fprintf(stderr, "tilescope export: --resident %s: goes with --order (linear, reverse, "
            "random:SEED or FILE)\n", a->resident);
    return EXIT_USAGE;
  }
  if (a->cs.adversary) {
    if (!cli_order("export", "linear", a->resident, &po))
      return EXIT_USAGE;
    po.order = TS_ORDER_ADVERSARY;
    po.order_seed = ts_adversary_seed() & 0x1fffffffu;
  } else if (a->order && !cli_order("export", a->order, a->resident, &po)) {
    return EXIT_USAGE;
  }
  if (!(a->timeout > 0 && a->timeout <= 86400)) {
    fprintf(stderr, "tilescope export: --timeout: give more than 0 and at most 86400 seconds\n");
    return EXIT_USAGE;
  }
  ts_plain_opts po2 = po; /* the split view's right half, as the window's (viewer.c) */
  if (a->split && !split_order(a->split, &po2))
    return EXIT_USAGE;
  const char *kdir = paths_kernels_dir(a->cs.kernels), *in_path = a->input;
  if (!kdir || (!a->sim && !in_path && !(in_path = paths_default_asset())))
    return EXIT_USAGE;

  ts_error err = { 0 };
  ts_sim *sim = NULL;
  ts_plain_desc *d = NULL;
  ts_image *in = NULL;
  ts_plain_result *res = NULL, *res2 = NULL;
  int rc = EXIT_USAGE;
  ts_status st = a->sim ? ts_sim_load(a->sim, a->timeout, &sim, &d, &in, &err)
                        : ts_plain_load_launch(cli_plain_file, cli_plain_launch, NULL, 0,
                                               a->timeout, &d, &err);
  if (st == TS_OK && !in)
    st = ts_image_load_png(in_path, &in, &err);
  if (st == TS_OK)
    st = ts_plain_run_isolated(a->cs.device, kdir, d, in, &po, a->timeout, &res, &err);
  if (st == TS_OK && a->split)
    st = ts_plain_run_isolated(a->cs.device, kdir, d, in, &po2, a->timeout, &res2, &err);
  if (st != TS_OK) {
    /* the file named once: the messages of a build or a parse name it themselves */
    int named = strstr(err.msg, base_name(path)) != NULL;
    fprintf(stderr, "tilescope export: %s%s%s%s\n", named ? "" : path, named ? "" : ": ", err.msg,
            st == TS_ERR_UNSUPPORTED ? " (a page shows an observed run)" : "");
    rc = st == TS_ERR_ARG || st == TS_ERR_BUILD || st == TS_ERR_FORMAT || st == TS_ERR_TOO_LARGE ||
                 st == TS_ERR_UNSUPPORTED || st == TS_ERR_IO
             ? EXIT_USAGE
             : EXIT_DIFF; /* a crash, the watchdog: the kernel's, found by running it */
    goto out;
  }
  ex_plain pl = { .desc = d, .res = res, .input = in, .view = *view };
  snprintf(pl.file, sizeof pl.file, "%.*s", (int)sizeof pl.file - 1, base_name(d->path));
  snprintf(pl.launched, sizeof pl.launched, "%.*s", (int)sizeof pl.launched - 1,
           a->sim ? base_name(a->sim) : cli_plain_launch ? base_name(cli_plain_launch) : "");
  if (a->sim) {
    const char *shown = "its buffer";
    for (int i = 0; i < d->ndata; i++)
      if (d->data[i].shown)
        shown = d->data[i].name;
    snprintf(pl.input_name, sizeof pl.input_name, "%s (first contents)", shown);
  } else {
    snprintf(pl.input_name, sizeof pl.input_name, "%s", base_name(in_path));
  }
  ts_plain_order_words(&po, pl.order, sizeof pl.order);
  char title[700];
  if (a->title)
    snprintf(title, sizeof title, "%s", a->title);
  else if (a->sim)
    snprintf(title, sizeof title, "tilescope: %s as %s launches it", pl.file, pl.launched);
  else
    snprintf(title, sizeof title, "tilescope: %s on %s", pl.file, pl.input_name);
  ex_plain pl2 = pl;
  pl2.res = res2;
  ts_plain_order_words(&po2, pl2.order, sizeof pl2.order);
  if ((res2 ? ex_write_plain_split(a->html, title, &pl, &pl2, sw, sh, &err)
            : ex_write_plain_page(a->html, title, &pl, sw, sh, &err)) != TS_OK) {
    fprintf(stderr, "tilescope export: %s\n", err.msg);
    goto out;
  }
  uint32_t groups = 0;
  for (int p = 0; p < res->npasses; p++)
    groups += res->launch[p].ngroups_all;
  char found[64] = "no finding";
  if (res->nfindings)
    snprintf(found, sizeof found, "%zu finding%s", res->nfindings, res->nfindings == 1 ? "" : "s");
  FILE *f = fopen(a->html, "rb");
  long size = -1;
  if (f && fseek(f, 0, SEEK_END) == 0)
    size = ftell(f);
  if (f)
    fclose(f);
  printf("wrote %s (%s observed: %d pass%s, %u work-groups, %s; %.2f MB)\n", a->html, pl.file,
         res->npasses, res->npasses == 1 ? "" : "es", groups, found,
         size >= 0 ? (double)size / 1e6 : 0.0);
  if (res2) {
    char line[160];
    pp_differ_line(res, res2, line, sizeof line);
    printf("split: left %s, right %s: %s\n", pl.order, pl2.order, line);
  }
  rc = EXIT_OK;
out:
  ts_plain_result_free(res);
  ts_plain_result_free(res2);
  ts_image_destroy(in);
  ts_plain_desc_free(d);
  ts_sim_free(sim);
  return rc;
}

/* ---- a variant's split view ---- */

/* --split SPEC (split_spec.h) into the right half's run: the left's settings changed as the
 * window's split view changes them (viewer_split.c: a variant brings its pattern, a pattern
 * its walk). The page holds simulated schedules: `device` and a plain kernel's order= are
 * refused with one line. */
static int split_conf(const ex_args *a, int exec_device, const ex_conf *left, ex_conf *right)
{
  vw_split_spec sp;
  char why[200];
  if (!vw_split_parse(a->split, &sp, why, sizeof why)) {
    fprintf(stderr, "tilescope export: --split: %s\n", why);
    return 0;
  }
  const char *no = sp.device ? "a page's split view sets two simulated schedules side by side; "
                               "the device's run of one is its own page's device view (--exec "
                               "device, key d), beside the schedule in the window's and shot's "
                               "--split device"
                 : sp.order ? "order=ORDER splits a plain kernel (--kernel-file K.cl); a variant's "
                              "split changes pattern, walk, variant, slots or cost"
                 : a->script ? "a script's page holds its runs one at a time (v steps them); give "
                               "--split without --script"
                 : a->record || exec_device ? "a page's split view sets two simulated schedules "
                                              "side by side, without --record or --exec device"
                 : NULL;
  if (no) {
    fprintf(stderr, "tilescope export: --split %s: %s\n", a->split, no);
    return 0;
  }
  *right = *left;
  if (sp.variant >= 0) {
    right->variant = sp.variant;
    right->pattern = ts_variant_at(sp.variant)->pattern;
    right->walk = ts_pattern_default_walk(right->pattern);
  }
  if (sp.pattern >= 0) {
    right->pattern = (ts_pattern)sp.pattern;
    right->walk = ts_pattern_default_walk(right->pattern);
  }
  if (sp.walk >= 0)
    right->walk = (ts_walk)sp.walk;
  right->slots = sp.slots > 0 ? sp.slots : right->slots;
  right->cost = sp.cost > 0 ? sp.cost : right->cost;
  return 1;
}

/* A half of a split view in words: its ticks and hazards. */
static void split_words(const ex_run *r, char *out, size_t n)
{
  size_t nh;
  ts_run_hazards(r->run, &nh);
  long long len = (long long)ts_run_sched(r->run)->length;
  if (nh)
    snprintf(out, n, "%lld ticks, %zu hazard%s", len, nh, nh == 1 ? "" : "s");
  else
    snprintf(out, n, "%lld ticks, no hazards", len);
}

int cmd_export(int argc, char **argv)
{
  ex_args a;
  int r = parse_args(argc, argv, &a);
  if (r)
    return r < 0 ? EXIT_OK : r;
  int plain = cli_plain_file || a.sim;
  if (!plain && (a.order || a.resident || a.have_timeout)) {
    fprintf(stderr, "tilescope export: %s: goes with a plain kernel (--kernel-file K.cl or "
            "--sim F.sim)\n", a.order ? "--order" : a.resident ? "--resident" : "--timeout");
    return EXIT_USAGE;
  }
  ts_run_params p;
  if (!plain && !cli_sched_resolve("export", &a.cs, &p))
    return EXIT_USAGE;
  ex_view view = { .tick = a.cs.have_tick ? a.cs.tick : -1, .overlay = "state", .dev_time = -1,
                   .dev_pct = -1 };
  int sw = 0, sh = 0;
  if (!parse_view(&a, &view, &sw, &sh))
    return EXIT_USAGE;
  if (plain)
    return export_plain(&a, &view, sw, sh);
  view.device = p.exec_device;
  ex_conf first = { .variant = variant_index(p.variant), .pattern = p.sched.pattern,
                    .walk = p.sched.walk, .slots = p.sched.slots, .cost = a.cs.cost,
                    .use_cl = strcmp(a.cs.backend, "cl") == 0, .input = a.input, .view = view };
  if (a.record && (p.exec_device || a.script)) {
    fprintf(stderr, "tilescope export: --record opens a saved run: %s\n",
            p.exec_device ? "--exec device makes a new one, give one of them"
                          : "a page of a record holds that run alone, without --script");
    return EXIT_USAGE;
  }

  ts_dev_run *rec = NULL;
  char rec_input[1100];
  if (a.record && !read_record(&a, &first, &p, &rec, rec_input, sizeof rec_input))
    return EXIT_USAGE;
  ex_conf confs[MAX_RUNS];
  int nconfs = 1;
  script sc = { 0 };
  ex_frame frames[EX_MAX_FRAMES];
  int nframes = 0;
  confs[0] = first;
  if (a.script && !script_confs(a.script, &first, confs, &nconfs, &sc, frames, &nframes)) {
    script_free(&sc);
    ts_dev_run_free(rec);
    return EXIT_USAGE;
  }
  if (a.split && !split_conf(&a, p.exec_device, &first, &confs[nconfs++])) {
    script_free(&sc);
    ts_dev_run_free(rec);
    return EXIT_USAGE;
  }

  /* The OpenCL back end once, for the runs that ask for it (a missing platform falls back to
   * the CPU model unless cl was named, as run does). */
  int rc = EXIT_USAGE, want_cl = 0, nimgs = 0, nruns = 0;
  for (int i = 0; i < nconfs; i++)
    want_cl |= confs[i].use_cl;
  cli_sched cs = a.cs;
  cs.backend = want_cl ? "cl" : "cpu";
  ex_image imgs[MAX_IMAGES];
  ex_run runs[MAX_RUNS];
  memset(runs, 0, sizeof runs);
  const char *note = NULL;
  if (!cli_open_backend("export", &cs, &p))
    goto out;
  if (want_cl && !p.cl)
    note = "no OpenCL platform: the CPU model ran it";
  const char *chart = NULL;
  for (int i = 0; i < nconfs; i++) {
    ex_conf *c = &confs[i];
    ex_run *er = &runs[nruns];
    const char *path = c->input;
    if (!path && !chart && !(chart = paths_default_asset()))
      goto out;
    path = path ? path : chart;
    const ts_image *in = load_image(imgs, &nimgs, path);
    if (!in)
      goto out;
    ts_run_params rp = p;
    rp.variant = ts_variant_at(c->variant);
    rp.sched = (ts_sched_params){ .pattern = c->pattern, .walk = c->walk, .slots = c->slots };
    rp.cost = c->cost;
    rp.cl = c->use_cl ? p.cl : NULL;
    rp.exec_device = p.exec_device && rp.cl;
    if (p.exec_device && !rp.cl) {
      fprintf(stderr, "tilescope export: --exec device needs the OpenCL back end\n");
      goto out;
    }
    ts_run_params_resolve(&rp);
    ts_error err = { 0 };
    if (ts_run_create(in, &rp, &er->run, &err) != TS_OK) {
      cli_report_run_error("export", path, &err, &rp);
      goto out;
    }
    nruns++;
    er->input = in;
    er->view = c->view;
    er->note = c->use_cl && !p.cl ? note : NULL;
    const char *base = strrchr(path, '/');
    snprintf(er->input_name, sizeof er->input_name, "%s", base ? base + 1 : path);
    snprintf(er->label, sizeof er->label, "%s, pattern %s, walk %s, %d slots", rp.variant->name,
             ts_pattern_name(rp.sched.pattern), ts_walk_name(rp.sched.walk), rp.sched.slots);
    if (rec) {
      const char *slash = strrchr(a.record, '/');
      snprintf(er->record, sizeof er->record, "%s", slash ? slash + 1 : a.record);
      ts_dev_run *d = rec;
      rec = NULL;
      if (ts_run_attach_device(er->run, d, &err) != TS_OK) {
        ts_dev_run_free(d);
        fprintf(stderr, "tilescope export: --record %s does not fit %s on %s: %s\n", a.record,
                rp.variant->name, path, err.msg);
        goto out;
      }
    }
    if (ex_replay(er, &err) != TS_OK) {
      cli_report_run_error("export", path, &err, &rp);
      rc = err.code == TS_ERR_STALLED ? EXIT_DIFF : EXIT_USAGE;
      goto out;
    }
  }
  char title[400];
  if (a.title)
    snprintf(title, sizeof title, "%s", a.title);
  else if (a.split)
    snprintf(title, sizeof title, "tilescope: %s on %s, split %s",
             ts_run_params_of(runs[0].run)->variant->name, runs[0].input_name, a.split);
  else if (nruns > 1)
    snprintf(title, sizeof title, "tilescope: %d runs on %s", nruns, runs[0].input_name);
  else
    snprintf(title, sizeof title, "tilescope: %s on %s", ts_run_params_of(runs[0].run)->variant->name,
             runs[0].input_name);
  ts_error err = { 0 };
  if ((a.split ? ex_write_split_page(a.html, title, &runs[0], &runs[1], a.split, sw, sh, &err)
               : ex_write_page(a.html, title, runs, nruns, frames, nframes, sw, sh, &err)) != TS_OK) {
    fprintf(stderr, "tilescope export: %s\n", err.msg);
    goto out;
  }
  FILE *f = fopen(a.html, "rb");
  long size = -1;
  if (f && fseek(f, 0, SEEK_END) == 0)
    size = ftell(f);
  if (f)
    fclose(f);
  printf("wrote %s (%d run%s, %.2f MB)\n", a.html, nruns, nruns == 1 ? "" : "s",
         size >= 0 ? (double)size / 1e6 : 0.0);
  if (a.split) {
    char lw[80], rw[80];
    split_words(&runs[0], lw, sizeof lw);
    split_words(&runs[1], rw, sizeof rw);
    printf("split %s: left %s: %s; right %s: %s\n", a.split, runs[0].label, lw, runs[1].label, rw);
  }
  rc = EXIT_OK;
out:
  for (int i = 0; i < nruns; i++) {
    ex_run_free(&runs[i]);
    ts_run_destroy(runs[i].run);
  }
  for (int i = 0; i < nimgs; i++)
    ts_image_destroy(imgs[i].img);
  ts_dev_run_free(rec);
  ts_cl_destroy(p.cl);
  script_free(&sc);
  return rc;
}
