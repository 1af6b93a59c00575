/* `tilescope run`: one variant, headless, to the end or to --tick; writes the output (the
 * integral image as a 16-bit PNG normalised to the sum of the whole image), optionally its exact values (.npy) and the
 * per-thread schedule (.csv), and prints what happened. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sarif.h"
#include "ts_export.h"
#include "ts_number.h"
#include "ts_observe.h"
#include "ts_record.h"

static const char usage[] =
    "usage: tilescope run [-i IN.png] [-o OUT.png] [--raw OUT.npy] [--schedule OUT.csv]\n"
    "                     [--exec device [--trace OUT.json]] [--observe] [--expect REF.png]\n"
    "                     [--json] [options]\n"
    "Runs a variant under a schedule, headless, and writes what was committed by the end\n"
    "(or by --tick). Without -i the default test chart is used. With --exec device the\n"
    "device runs each pass in one launch, keeping the walk order with a scoreboard, and\n"
    "what every work-group did is recorded (--trace writes it for ui.perfetto.dev).\n"
    "With --observe the run is replayed with every buffer access recorded, and checked:\n"
    "reads inside the declared footprints, writes inside the write rectangles and the\n"
    "buffers, no element written by two threads (exit 1 otherwise), and the hazards of\n"
    "the observed reads beside the declared ones. A user kernel (--kernel-file) that names\n"
    "a built-in filter (equals=) is checked against its reference, and any run against\n"
    "--expect REF.png (exit 1 when they differ). A plain OpenCL C kernel (--kernel-file of\n"
    "a plain kernel, or --sim FILE.sim) takes its own options (--pass, --observe-pixel,\n"
    "--isolate, --raw, --sarif...): tilescope run --kernel-file K.cl --help lists them.";

static ts_status write_integral_png(ts_outfile *of, const ts_run *run, ts_error *err)
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
  ts_status st = ts_png_write16(of, k->W, k->H, 1, px, err);
  free(px);
  return st;
}

/* Writes every output asked for (paths[i] NULL: not asked; paths[4], --sarif, from the log)
 * into temporary files, then renames them all into place together: an interrupted or failed
 * run leaves the old set or the new. */
static ts_status write_outputs(const char *const paths[5], const ts_run *run, const char *in_path,
                               const sarif_log *sarif, ts_error *err)
{
  ts_outfile of[5];
  int n = 0;
  ts_status st = TS_OK;
  for (int i = 0; i < 4 && st == TS_OK; i++) {
    if (!paths[i])
      continue;
    if ((st = ts_outfile_open(&of[n], paths[i], err)) != TS_OK)
      break;
    ts_outfile *o = &of[n++];
    if (i == 0 && ts_run_output_u32(run)) {
      st = write_integral_png(o, run, err);
    } else if (i == 0) {
      ts_image *img = NULL;
      if ((st = ts_run_output(run, &img, err)) == TS_OK)
        st = ts_image_write_png(o, img, err);
      ts_image_destroy(img);
    } else {
      st = i == 1 ? ts_export_npy_to(o, run, err)
           : i == 2 ? ts_export_schedule_csv_to(o, run, err)
                    : ts_trace_write_to(o, run, in_path, err);
    }
  }
  if (st == TS_OK && paths[4] && (st = ts_outfile_open(&of[n], paths[4], err)) == TS_OK)
    sarif_write_to(sarif, &of[n++]);
  if (st == TS_OK)
    return ts_outfile_commit_all(of, n, err);
  for (int i = 0; i < n; i++)
    ts_outfile_abort(&of[i]);
  return st;
}

static void print_hazards(FILE *out, const ts_run *run)
{
  size_t n;
  const ts_hazard *h = ts_run_hazards(run, &n);
  const ts_sched *s = ts_run_sched(run);
  size_t show = n < 5 ? n : 5;
  for (size_t i = 0; i < show; i++) {
    const ts_pass_sched *ps = &s->pass[h[i].pass];
    uint32_t c = h[i].consumer, p = h[i].producer, w = (uint32_t)ps->tw;
    fprintf(out, "hazard: pass %d thread (%u,%u) started at tick %" PRId64
                 " and read what thread (%u,%u) writes, which ends at tick %" PRId64 "\n",
                 h[i].pass + 1, c % w, c / w, ps->t[c].start_tick, p % w, p / w, ps->t[p].end_tick);
  }
  if (n > show)
    fprintf(out, "hazard: ... and %zu more\n", n - show);
}

/* The device's run beside the simulator's: the summary, the wrong tiles, the hazards the
 * simulator predicts for the same schedule and the races (reads no chain of waits orders). */
static void print_device(FILE *out, const ts_run *run)
{
  const ts_dev_run *d = ts_run_device_result(run);
  const ts_sched *s = ts_run_sched(run);
  char line[400];
  ts_dev_summary(d, line, sizeof line);
  fprintf(out, "%s\n", line);
  ts_dev_path_line(d, s, line, sizeof line);
  fprintf(out, "%s\n", line);
  size_t nh, nr;
  ts_run_hazards(run, &nh);
  const ts_hazard *r = ts_run_races(run, &nr);
  fprintf(out, "simulated: %" PRId64 " ticks, %zu hazard%s in %zu thread%s\n", s->length, nh,
               nh == 1 ? "" : "s", ts_run_hazardous_threads(run),
               ts_run_hazardous_threads(run) == 1 ? "" : "s");
  fprintf(out, "races: %zu read%s that no chain of waits orders\n", nr, nr == 1 ? "" : "s");
  for (size_t i = 0; i < nr && i < 5; i++) {
    uint32_t w = (uint32_t)s->pass[r[i].pass].tw;
    fprintf(out, "race: pass %d thread (%u,%u) reads what thread (%u,%u) writes\n", r[i].pass + 1,
                 r[i].consumer % w, r[i].consumer / w, r[i].producer % w, r[i].producer / w);
  }
  if (nr > 5)
    fprintf(out, "race: ... and %zu more\n", nr - 5);
  const ts_pass_sched *ps = &s->pass[s->npasses - 1];
  uint32_t shown = 0, w = (uint32_t)ps->tw;
  for (uint32_t id = 0; id < ps->n && shown < 5; id++)
    if (d->wrong[id]) {
      const ts_thread *t = &ps->t[id];
      fprintf(out, "wrong tile: pass %d thread (%u,%u), ticket %u; simulated: %d hazard%s\n",
                   s->npasses, id % w, id / w, t->dispatch, t->hazards, t->hazards == 1 ? "" : "s");
      shown++;
    }
  if (d->nwrong > shown)
    fprintf(out, "wrong tile: ... and %u more\n", d->nwrong - shown);
}

/* Whether the device broke its own ordering: tiles came out wrong although the scoreboard
 * orders every read. Says so on stderr. */
static int device_broke(const ts_run *run)
{
  const ts_dev_run *d = ts_run_device_result(run);
  size_t nr;
  ts_run_races(run, &nr);
  if (!d || d->nwrong == 0 || nr > 0)
    return 0;
  fprintf(stderr, "tilescope run: %u tile%s differ%s from the reference although the "
          "scoreboard orders every read\n", d->nwrong, d->nwrong == 1 ? "" : "s",
          d->nwrong == 1 ? "s" : "");
  return 1;
}

/* The pattern advice as text: each vector the pattern misses, with the reads that need it,
 * each it does not need, with what it costs in ticks, and what would do (README: pattern
 * advice). */
static void print_advice(FILE *out, const ts_run *run, const ts_run_params *p)
{
  ts_advice a;
  ts_error err = { 0 };
  if (p->variant->file) {
    /* its header declares what it reads of its input, not of its own output as committed:
     * advice from those footprints would call needed vectors unneeded */
    if (p->sched.pattern != TS_PAT_NONE)
      fprintf(out, "advice: none for a kernel of the dialect: its header cannot declare reads "
                   "of the output as committed (--observe sees every read)\n");
    return;
  }
  if (ts_run_advice(run, &a, &err) != TS_OK) {
    fprintf(out, "advice: %s\n", err.msg);
    return;
  }
  const char *pat = ts_pattern_name(p->sched.pattern);
  char words[64], list[160];
  int npasses = ts_run_sched(run)->npasses;
  for (int i = 0; i < a.nmissing; i++) {
    const ts_advice_vec *m = &a.missing[i];
    ts_vec_words(m->v, words, sizeof words);
    char pass[24] = "";
    if (npasses > 1)
      snprintf(pass, sizeof pass, " in pass %d", m->pass + 1);
    fprintf(out, "advice: (%d,%d) missing%s: %u thread%s read%s %s, which no chain of waits orders "
                 "first\n", m->v.dx, m->v.dy, pass, m->threads, m->threads == 1 ? "" : "s",
                 m->threads == 1 ? "s" : "", words);
  }
  for (int i = 0; i < a.nunneeded; i++) {
    const ts_advice_vec *u = &a.unneeded[i];
    int read = 0;
    for (int k = 0; k < a.nread; k++)
      read |= a.read[k].v.dx == u->v.dx && a.read[k].v.dy == u->v.dy;
    ts_vec_words(u->v, words, sizeof words);
    fprintf(out, "advice: (%d,%d) unneeded: %s %s; it costs %" PRId64 " tick%s (%" PRId64
                 " with it, %" PRId64 " without)\n", u->v.dx, u->v.dy,
                 read ? "the reads of" : "no thread reads", words,
                 u->ticks_with - u->ticks_without, u->ticks_with - u->ticks_without == 1 ? "" : "s",
                 u->ticks_with, u->ticks_without);
    if (read)
      fprintf(out, "        (they stay ordered through the other waits)\n");
  }
  if (a.nmissing == 0 && a.nunneeded == 0) {
    if (a.nread == 0 && a.nneeded == 0)
      return; /* nothing read, nothing waited for: nothing to say */
    if (a.nread == 0)
      fprintf(out, "advice: no thread reads another's output in its pass: %s is all it needs (from "
                   "the declared footprints)\n", pat);
    else
      fprintf(out, "advice: %s orders every read, and each of its %d vector%s is needed (from the "
                   "declared footprints)\n", pat, a.nneeded, a.nneeded == 1 ? "" : "s");
    return;
  }
  if (a.nmissing && !a.suggest_ok) {
    fprintf(out, "advice: no pattern orders every read under the walk %s, which dispatches a "
                 "tile before one it reads (from the declared footprints)\n",
                 ts_walk_name(p->sched.walk));
    return;
  }
  const ts_vec *v = a.nmissing ? a.suggest : NULL;
  int n = a.nmissing ? a.nsuggest : a.nneeded;
  ts_vec kept[TS_PATTERN_MAX_VECTORS];
  for (int i = 0; !a.nmissing && i < n; i++)
    kept[i] = a.needed[i].v;
  ts_vec_list(v ? v : kept, n, list, sizeof list);
  fprintf(out, "advice: %s %s every read: %" PRId64 " ticks under the walk %s, against %" PRId64
               " with %s (from the declared footprints)\n", list,
               a.nmissing ? "would order" : "orders",
               a.nmissing ? a.suggest_ticks : a.unneeded[a.nunneeded - 1].ticks_without,
               ts_walk_name(p->sched.walk), a.ticks, pat);
}

void cli_print_findings(FILE *out, const ts_run *run)
{
  print_hazards(out, run);
  print_advice(out, run, ts_run_params_of(run));
}

/* The run's summary as text: what ran, the first hazards, and the ticks and times (or the
 * device's run beside the simulator's). */
static void print_text(FILE *out, const ts_run *run, const ts_run_params *p, const char *in_path,
                       const ts_image *in, double kernel_ms)
{
  const ts_sched *s = ts_run_sched(run);
  size_t nh;
  ts_run_hazards(run, &nh);
  fprintf(out,
          "%s on %s (%dx%dx%d): %d pass%s, %u thread%s, pattern %s, walk %s, %d slot%s, cost %d\n",
          p->variant->name, in_path, in->w, in->h, in->c, s->npasses, s->npasses > 1 ? "es" : "",
          s->total, s->total == 1 ? "" : "s", ts_pattern_name(p->sched.pattern),
          ts_walk_name(p->sched.walk), p->sched.slots, p->sched.slots == 1 ? "" : "s", p->cost);
  print_hazards(out, run);
  print_advice(out, run, p);
  if (p->exec_device) {
    print_device(out, run);
    return;
  }
  char timing[400];
  if (p->cl)
    snprintf(timing, sizeof timing, "OpenCL on %s: kernels %.2f ms, stepped run %.1f ms",
             ts_cl_device(p->cl)->name, kernel_ms, ts_run_exec_ms(run));
  else
    snprintf(timing, sizeof timing, "cpu model %.1f ms", ts_run_exec_ms(run));
  fprintf(out, "tick %" PRId64 " of %" PRId64 ", %zu hazard%s in %zu thread%s, mean %.1f threads "
               "running, %s\n",
               ts_run_tick(run), s->length, nh, nh == 1 ? "" : "s", ts_run_hazardous_threads(run),
               ts_run_hazardous_threads(run) == 1 ? "" : "s", ts_sched_mean_running(s), timing);
}

/* One hazard or race as JSON: the pass (from 1), the consumer and producer threads, and for a
 * hazard the consumer's start tick and the producer's end tick. */
static void json_hazard(const ts_sched *s, const ts_hazard *h, int ticks)
{
  const ts_pass_sched *ps = &s->pass[h->pass];
  uint32_t w = (uint32_t)ps->tw;
  printf("{\"pass\": %d, \"consumer\": [%u, %u], \"producer\": [%u, %u]", h->pass + 1,
         h->consumer % w, h->consumer / w, h->producer % w, h->producer / w);
  if (ticks)
    printf(", \"start_tick\": %" PRId64 ", \"producer_end_tick\": %" PRId64,
           ps->t[h->consumer].start_tick, ps->t[h->producer].end_tick);
  printf("}");
}

static void json_hazards(const char *key, const ts_sched *s, const ts_hazard *h, size_t n,
                         int ticks)
{
  printf(", \"%s\": [", key);
  for (size_t i = 0; i < n; i++) {
    printf(i ? ", " : "");
    json_hazard(s, &h[i], ticks);
  }
  printf("]");
}

/* The run's summary as one JSON object (README: "run --json"). stall: the device's error
 * line when its schedule gave up waiting, else NULL; checks: the verdicts of --observe and
 * of the output check (1 passed, 0 failed, -1 not run). */
/* The pattern advice as a JSON value (README: run --json). */
static void json_advice(const ts_run *run)
{
  ts_advice a;
  ts_error err = { 0 };
  if (ts_run_advice(run, &a, &err) != TS_OK) {
    printf("null");
    return;
  }
  printf("{\"source\": \"declared footprints\", \"ticks\": %" PRId64 ", \"missing\": [", a.ticks);
  for (int i = 0; i < a.nmissing; i++)
    printf("%s{\"pass\": %d, \"vector\": [%d, %d], \"threads\": %u}", i ? ", " : "",
           a.missing[i].pass + 1, a.missing[i].v.dx, a.missing[i].v.dy, a.missing[i].threads);
  printf("], \"unneeded\": [");
  for (int i = 0; i < a.nunneeded; i++)
    printf("%s{\"vector\": [%d, %d], \"ticks_with\": %" PRId64 ", \"ticks_without\": %" PRId64
           "}", i ? ", " : "", a.unneeded[i].v.dx, a.unneeded[i].v.dy, a.unneeded[i].ticks_with,
           a.unneeded[i].ticks_without);
  printf("], \"needed\": [");
  for (int i = 0; i < a.nneeded; i++)
    printf("%s[%d, %d]", i ? ", " : "", a.needed[i].v.dx, a.needed[i].v.dy);
  printf("], \"suggest\": ");
  if (a.nmissing && a.suggest_ok) {
    printf("{\"vectors\": [");
    for (int i = 0; i < a.nsuggest; i++)
      printf("%s[%d, %d]", i ? ", " : "", a.suggest[i].dx, a.suggest[i].dy);
    printf("], \"ticks\": %" PRId64 "}", a.suggest_ticks);
  } else {
    printf("null");
  }
  printf("}");
}

static void print_json(const ts_run *run, const ts_run_params *p, const char *in_path,
                       const ts_image *in, double kernel_ms, const char *stall,
                       const char *const outputs[4], const int checks[2])
{
  const ts_sched *s = ts_run_sched(run);
  size_t nh;
  const ts_hazard *h = ts_run_hazards(run, &nh);
  printf("{\"input\": ");
  cli_json_string(in_path);
  printf(", \"width\": %d, \"height\": %d, \"channels\": %d, \"variant\": ", in->w, in->h,
         in->c);
  cli_json_string(p->variant->name);
  printf(", \"schedule\": {\"pattern\": \"%s\", \"walk\": \"%s\", \"slots\": %d, \"cost\": %d}, "
         "\"passes\": %d, \"threads\": %u, \"backend\": \"%s\", \"device\": ",
         ts_pattern_name(p->sched.pattern),
         ts_walk_name(p->sched.walk), p->sched.slots, p->cost, s->npasses, s->total,
         p->cl ? "cl" : "cpu");
  if (p->cl)
    cli_json_string(ts_cl_device(p->cl)->name);
  else
    printf("null");
  printf(", \"exec\": \"%s\", \"tick\": %" PRId64 ", \"ticks\": %" PRId64 ", "
         "\"mean_running\": %.3f, \"hazards\": %zu, \"hazard_threads\": %zu",
         p->exec_device ? "device" : "sim", ts_run_tick(run), s->length,
         ts_sched_mean_running(s), nh, ts_run_hazardous_threads(run));
  json_hazards("hazard_list", s, h, nh, 1);
  printf(", \"advice\": ");
  json_advice(run);
  const ts_dev_run *d = ts_run_device_result(run);
  printf(", \"times\": {\"exec_ms\": %.3f, \"kernel_ms\": %.3f}", ts_run_exec_ms(run),
         p->exec_device && d ? d->kernel_ms : kernel_ms);
  if (p->exec_device) {
    printf(", \"stall\": ");
    if (stall)
      cli_json_string(stall);
    else
      printf("null");
    if (d) {
      size_t nr;
      const ts_hazard *r = ts_run_races(run, &nr);
      uint32_t groups = 0;
      for (int i = 0; i < d->npasses; i++)
        groups += d->pass[i].n;
      printf(", \"groups\": %u, \"lanes\": %d, \"clock\": \"%s\", \"device_time\": %" PRIu64
             ", \"races\": %zu, \"adversary\": %" PRIu32, groups, d->lanes,
             d->clock_ns ? "ns" : "logical", d->t_end, nr, d->adversary);
      ts_dev_path cp;
      if (ts_dev_critical_path(d, s, &cp, NULL, 0))
        printf(", \"critical_path\": {\"pass\": %d, \"groups\": %u, \"first_ticket\": %u, "
               "\"last_ticket\": %u, \"start\": %" PRIu64 ", \"end\": %" PRIu64
               ", \"from_aggregate\": %s}", cp.pass + 1, cp.groups, cp.head, cp.tail, cp.t0, cp.t1,
               cp.through_aggregate ? "true" : "false");
      json_hazards("race_list", s, r, nr, 0);
      const ts_pass_sched *ps = &s->pass[s->npasses - 1];
      printf(", \"wrong_tiles\": %u, \"wrong_tile_list\": [", d->nwrong);
      for (uint32_t id = 0, k = 0; id < ps->n; id++)
        if (d->wrong && d->wrong[id])
          printf("%s[%u, %u]", k++ ? ", " : "", id % (uint32_t)ps->tw, id / (uint32_t)ps->tw);
      printf("]");
    }
  }
  static const char *const check_keys[2] = { "observed_ok", "output_ok" };
  for (int i = 0; i < 2; i++)
    printf(", \"%s\": %s", check_keys[i],
           checks[i] < 0 ? "null" : checks[i] ? "true" : "false");
  static const char *const keys[4] = { "output", "raw", "schedule_csv", "trace" };
  for (int i = 0; i < 4; i++) {
    printf(", \"%s\": ", keys[i]);
    if (outputs[i])
      cli_json_string(outputs[i]);
    else
      printf("null");
  }
  printf("}\n");
}

/* Compares the output with --expect's image, or else with the reference of the built-in
 * filter the variant names, and prints the verdict with the first difference. Returns 0
 * when equal, 1 when not, -1 on an error (in err). */
static int check_output(FILE *out, ts_run *run, const char *expect_path, ts_error *err)
{
  const ts_variant *v = ts_run_params_of(run)->variant;
  const ts_kctx *k = ts_run_kctx(run);
  ts_image *loaded = NULL, *got = NULL;
  const ts_image *want = NULL;
  const uint32_t *ref32 = NULL;
  const char *what = expect_path;
  char name[64];
  ts_status st;
  if (expect_path) {
    if (ts_run_output_u32(run))
      return ts_fail(err, TS_ERR_ARG, "--expect %s: the integral image is checked against its "
                     "reference, not a PNG", expect_path), -1;
    st = ts_image_load_png(expect_path, &loaded, err);
    want = loaded;
  } else {
    snprintf(name, sizeof name, "the %s reference",
             v->filter == TS_FILTER_BOX3 ? "box3" : v->filter == TS_FILTER_GAUSS ? "gauss" : "integral");
    what = name;
    st = ts_run_reference(run, &want, &ref32, err);
  }
  if (st == TS_OK && !ref32)
    st = ts_run_output(run, &got, err);
  if (st != TS_OK) {
    ts_image_destroy(loaded);
    return -1;
  }
  int rc = 0;
  if (ref32) {
    const uint32_t *o = ts_run_output_u32(run);
    for (size_t i = 0, n = (size_t)k->W * k->H; i < n && !rc; i++)
      if (o[i] != ref32[i]) {
        fprintf(out, "output differs from %s: first at pixel (%zu,%zu): %u, want %u\n", what,
               i % (size_t)k->W, i / (size_t)k->W, o[i], ref32[i]);
        rc = 1;
      }
  } else if (want->w != got->w || want->h != got->h || want->c != got->c) {
    fprintf(out, "output differs from %s: it is %dx%dx%d, the output %dx%dx%d\n", what, want->w,
           want->h, want->c, got->w, got->h, got->c);
    rc = 1;
  } else {
    for (size_t i = 0, n = (size_t)got->w * got->h * got->c; i < n && !rc; i++)
      if (got->data[i] != want->data[i]) {
        size_t px = i / (size_t)got->c;
        fprintf(out, "output differs from %s: first at pixel (%zu,%zu) channel %zu: %u, want %u\n",
               what, px % (size_t)got->w, px / (size_t)got->w, i % (size_t)got->c, got->data[i],
               want->data[i]);
        rc = 1;
      }
  }
  if (!rc)
    fprintf(out, "output equals %s\n", what);
  ts_image_destroy(loaded);
  ts_image_destroy(got);
  return rc;
}

/* The chosen thread's accesses per pass and buffer: rectangle, count, distinct elements (from
 * its exact bitmap) and what it declares. */
static void print_chosen(FILE *out, const ts_observe *ob)
{
  for (int pi = 0; pi < ts_observe_npasses(ob); pi++) {
    const ts_obs_pass *op = ts_observe_pass(ob, pi);
    if (op->chosen == TS_OBS_NONE)
      continue;
    for (int r = 0; r < TS_NROLES; r++)
      for (int kd = 0; kd < 2; kd++) {
        const ts_obs_acc *a = ts_obs_at(op, op->chosen, r, kd);
        if (!a->count)
          continue;
        size_t distinct = 0;
        for (int y = a->seen.y0; y <= a->seen.y1; y++)
          for (int x = a->seen.x0; x <= a->seen.x1; x++)
            distinct += (size_t)ts_obs_chosen_has(op, r, kd, x, y);
        fprintf(out, "thread (%u,%u) of pass %d %s %s%s: columns %d..%d, rows %d..%d, %u element "
               "accesses, %zu distinct; declared columns %d..%d, rows %d..%d\n",
               op->chosen % (uint32_t)op->tw, op->chosen / (uint32_t)op->tw, pi + 1,
               kd ? "wrote" : "read", ts_obs_buffer_name(op->buf[r]),
               r == TS_ROLE_COMMITTED ? " (committed)" : "", a->seen.x0, a->seen.x1, a->seen.y0,
               a->seen.y1, a->count, distinct, a->declared.x0, a->declared.x1, a->declared.y0,
               a->declared.y1);
      }
  }
}

/* Prints the observation's checks to out: each violation one line, then a summary. Returns
 * 0 when every check passed, 1 on a violation. */
static int print_observed(FILE *out, ts_run *run, const ts_observe *ob, ts_obs_report *rep,
                          double observe_ms, double run_kernel_ms)
{
  char line[512];
  for (size_t i = 0; i < rep->nfindings; i++) {
    ts_obs_finding_line(run, &rep->findings[i], line, sizeof line);
    fprintf(out, "%s\n", line);
  }
  const ts_sched *s = ts_run_sched(run);
  for (size_t i = 0; i < rep->nhazards && i < 5; i++) {
    const ts_hazard *h = &rep->hazards[i];
    uint32_t w = (uint32_t)s->pass[h->pass].tw;
    fprintf(out, "observed hazard: pass %d thread (%u,%u) read what thread (%u,%u) wrote, before "
           "its end tick\n",
           h->pass + 1, h->consumer % w, h->consumer / w, h->producer % w, h->producer / w);
  }
  if (rep->nhazards > 5)
    fprintf(out, "observed hazard: ... and %zu more\n", rep->nhazards - 5);
  fprintf(out, "observed: %zu footprint violation%s, %zu write-rectangle violation%s, %zu access%s "
         "outside a buffer, %zu element%s written by two threads\n",
         rep->footprint, rep->footprint == 1 ? "" : "s", rep->write_rect,
         rep->write_rect == 1 ? "" : "s", rep->out_of_buffer, rep->out_of_buffer == 1 ? "" : "es",
         rep->conflicts, rep->conflicts == 1 ? "" : "s");
  if (rep->nhazards != rep->declared_hazards)
    fprintf(out, "observed hazards: %zu; declared-footprint hazards: %zu\n", rep->nhazards,
           rep->declared_hazards);
  else
    fprintf(out, "observed hazards: %zu, as the declared footprints give\n", rep->nhazards);
  if (run_kernel_ms >= 0)
    fprintf(out, "observation: kernels %.2f ms, the plain run's %.2f ms\n", observe_ms, run_kernel_ms);
  else
    fprintf(out, "observation: kernels %.2f ms; the plain run was not made: it would access "
                 "memory outside its buffers, and the output is the observed run's, which "
                 "performs none of those accesses\n", observe_ms);
  print_chosen(out, ob);
  return ts_obs_report_failed(rep);
}

/* --fail-on LIST: which findings turn into exit 1 beside the default ones (violations of
 * observation, an output that differs from its reference, wrong device tiles that no race
 * explains). */
static int parse_fail_on(const char *list, int *hazards, int *races, int *wrong)
{
  char buf[256];
  snprintf(buf, sizeof buf, "%s", list);
  for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (strcmp(t, "hazards") == 0)
      *hazards = 1;
    else if (strcmp(t, "races") == 0)
      *races = 1;
    else if (strcmp(t, "wrong") == 0)
      *wrong = 1;
    else if (strcmp(t, "any") == 0)
      *hazards = *races = *wrong = 1;
    else if (strcmp(t, "violations") && strcmp(t, "mismatch")) {
      fprintf(stderr, "tilescope run: --fail-on '%s': unknown finding (hazards, races, wrong, "
              "violations, mismatch or any)\n", t);
      return 0;
    }
  }
  return 1;
}

/* --sarif: what the run prints goes through a memory stream too, whose finding lines become
 * the log's results (sarif_add_run_text): tee_to gives the stream to print to, tee_done copies
 * what was printed since to the real one (NULL: none, under --json). Without --sarif (no
 * stream) the printing goes straight to the real one. */
typedef struct tee {
  FILE *mem;
  char *buf;
  size_t len, done;
} tee;

static int tee_open(tee *t)
{
  t->mem = open_memstream(&t->buf, &t->len);
  if (!t->mem)
    fprintf(stderr, "tilescope run: --sarif: out of memory\n");
  return t->mem != NULL;
}

static FILE *tee_to(tee *t, FILE *real)
{
  return t->mem ? t->mem : real;
}

static void tee_done(tee *t, FILE *real)
{
  if (!t->mem || fflush(t->mem) != 0)
    return;
  if (real)
    fwrite(t->buf + t->done, 1, t->len - t->done, real);
  t->done = t->len;
}

static void tee_close(tee *t)
{
  if (t->mem)
    fclose(t->mem);
  free(t->buf);
}

int cmd_run(int argc, char **argv)
{
  cli_sched cs;
  cli_sched_defaults(&cs);
  const char *in_path = NULL, *out_path = NULL, *raw_path = NULL, *csv_path = NULL,
             *trace_path = NULL, *expect_path = NULL;
  int stuck = -1, spin_limit = 0, have_spin = 0, json = 0, observe = 0, cx = -1, cy = -1;
  double timeout = 600; /* the supervisor's (main.c): parsed here to be checked and listed */
  const char *thread_xy = NULL, *fail_on = NULL, *sarif_path = NULL;
  const cli_opt opts[] = {
    { "--input", 'i', OPT_STR, &in_path, "IN.png", "input image (default: the test chart)", NULL },
    { "--output", 'o', OPT_STR, &out_path, "OUT.png", "write the output image", NULL },
    { "--raw", 0, OPT_STR, &raw_path, "OUT.npy", "write the exact output as a NumPy array", NULL },
    { "--schedule", 0, OPT_STR, &csv_path, "OUT.csv", "write one row per thread", NULL },
    { "--trace", 0, OPT_STR, &trace_path, "OUT.json", "with --exec device: write the record as trace-event JSON (ui.perfetto.dev, chrome://tracing)", NULL },
    { "--test-stuck", 0, OPT_UINT, &stuck, "TICKET", "tests: the work-group with this ticket of the last pass never signals", NULL },
    { "--expect", 0, OPT_STR, &expect_path, "REF.png", "compare the output with this image, exactly (exit 1 when it differs)", NULL },
    { "--observe-thread", 0, OPT_STR, &thread_xy, "X,Y", "with --observe: print this thread's observed accesses per buffer (in every pass)", NULL },
    { "--observe", 0, OPT_FLAG, &observe, NULL, "record every buffer access and check footprints, write rectangles and write conflicts (OpenCL, --exec sim)", NULL },
    { "--spin-limit", 0, OPT_INT, &spin_limit, "N", "spins before a device wait gives up (default: 2^24 on a GPU, 2^30 else)", &have_spin },
    { "--json", 0, OPT_FLAG, &json, NULL, "print the summary as one JSON object (README: run --json)", NULL },
    { "--timeout", 0, OPT_DBL, &timeout, "S", "the watchdog: a run past S seconds is stopped, exit 1 (default 600)", NULL },
    { "--fail-on", 0, OPT_STR, &fail_on, "LIST", "exit 1 on these findings too: hazards, races, wrong (device tiles), any (README: exit codes)", NULL },
    { "--sarif", 0, OPT_STR, &sarif_path, "OUT.sarif", "write the findings (hazards, advice, races, observed violations) as SARIF 2.1.0, for code scanning (docs/ci.md)", NULL },
    CLI_SCHED_OPTS(&cs),
  };
  const char *pos[1];
  int npos;
  int r = cli_parse("run", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), pos, 0, &npos,
                    usage);
  if (r)
    return r < 0 ? EXIT_OK : r;
  if (!(timeout > 0 && timeout <= 86400)) {
    fprintf(stderr, "tilescope run: --timeout: give more than 0 and at most 86400 seconds\n");
    return EXIT_USAGE;
  }
  if (out_path && !cli_image_name("run", "-o", out_path, 0))
    return EXIT_USAGE;
  int fail_hazards = 0, fail_races = 0, fail_wrong = 0;
  if (fail_on && !parse_fail_on(fail_on, &fail_hazards, &fail_races, &fail_wrong))
    return EXIT_USAGE;
  ts_run_params p;
  if (!cli_sched_resolve("run", &cs, &p))
    return EXIT_USAGE;
  if (!in_path && !(in_path = paths_default_asset()))
    return EXIT_USAGE;
  const cli_file ins[] = { { "-i", in_path }, { "--expect", expect_path } };
  const cli_file outs[] = { { "-o", out_path }, { "--raw", raw_path }, { "--schedule", csv_path },
                            { "--trace", trace_path }, { "--sarif", sarif_path } };
  if (!cli_check_files("run", ins, 2, outs, 5))
    return EXIT_USAGE;
  if ((trace_path || stuck >= 0 || have_spin) && !p.exec_device) {
    fprintf(stderr, "tilescope run: %s: needs --exec device\n",
            trace_path ? "--trace" : stuck >= 0 ? "--test-stuck" : "--spin-limit");
    return EXIT_USAGE;
  }
  if ((have_spin && spin_limit < 1) || (p.exec_device && cs.have_tick)) {
    fprintf(stderr, "tilescope run: %s\n", have_spin && spin_limit < 1 ? "--spin-limit: must be 1 or more"
                    : "--tick: the device runs the whole schedule; ticks belong to --exec sim");
    return EXIT_USAGE;
  }
  int64_t xy[2] = { -1, -1 };
  if (thread_xy && (!observe || !ts_parse_ints(thread_xy, ",", 0, INT32_MAX, xy))) {
    fprintf(stderr, "tilescope run: --observe-thread '%s': %s\n", thread_xy,
            observe ? "give the thread as X,Y (from 0)" : "needs --observe");
    return EXIT_USAGE;
  }
  cx = (int)xy[0];
  cy = (int)xy[1];
  if (observe && (p.exec_device || strcmp(cs.backend, "cl") != 0 || cs.have_tick)) {
    fprintf(stderr, "tilescope run: --observe: %s\n",
            p.exec_device ? "observation replays the simulated order, not --exec device"
            : cs.have_tick ? "observation runs the whole schedule; leave out --tick"
                           : "observation runs on the OpenCL back end, not --backend cpu");
    return EXIT_USAGE;
  }
  if (!cli_open_backend("run", &cs, &p))
    return EXIT_USAGE;
  if (observe && !p.cl) {
    fprintf(stderr, "tilescope run: --observe: no OpenCL device to observe on\n");
    return EXIT_USAGE;
  }

  ts_error err = { 0 };
  ts_image *in = NULL;
  ts_run *run = NULL;
  ts_observe *ob = NULL;
  ts_obs_report rep = { 0 };
  double observe_ms = 0;
  int skip_plain = 0;
  int rc = EXIT_USAGE;
  tee text = { 0 };
  sarif_log *sarif = NULL;
  if (sarif_path && (!(sarif = sarif_create()) || !tee_open(&text)))
    goto out;
  if (ts_image_load_png(in_path, &in, &err) != TS_OK) {
    fprintf(stderr, "tilescope run: %s\n", err.msg);
    goto out;
  }
  ts_dev_opts dopts = { .record = 1, .stuck = stuck, .spin_limit = (uint32_t)spin_limit };
  /* --observe first: the observed kernels perform no access outside a buffer, so when they
   * find one the plain run, which would perform it (and on a device in the host's memory
   * fault), is not made, and the output is the observed run's. */
  ts_status cst = ts_run_create(in, &p, &run, &err);
  if (cst == TS_OK && observe) {
    cst = ts_observe_run(run, cx, cy, &ob, &err);
    observe_ms = ts_run_take_kernel_ms(run);
    if (cst == TS_OK)
      cst = ts_observe_check(ob, run, 5, &rep, &err);
    skip_plain = cst == TS_OK && rep.out_of_buffer > 0;
    if (cst == TS_OK && !skip_plain)
      cst = ts_run_rewind(run, &err);
  }
  if (cst != TS_OK || (!skip_plain &&
      (p.exec_device ? ts_run_device(run, &dopts, &err)
                     : ts_run_seek(run, cs.have_tick ? cs.tick : INT64_MAX, &err)) != TS_OK)) {
    cli_report_run_error("run", in_path, &err, &p);
    if (err.code == TS_ERR_STALLED) {
      rc = EXIT_DIFF;
      if (json) {
        const char *const none[4] = { NULL };
        const int unchecked[2] = { -1, -1 };
        print_json(run, &p, in_path, in, ts_run_take_kernel_ms(run), err.msg, none, unchecked);
      }
    }
    goto out;
  }
  double kernel_ms = skip_plain ? observe_ms : ts_run_take_kernel_ms(run);
  if (!json || sarif)
    print_text(tee_to(&text, stdout), run, &p, in_path, in, kernel_ms);
  tee_done(&text, json ? NULL : stdout);

  int observed_ok = 1, checks[2] = { -1, -1 };
  if (observe && cx >= 0) { /* a thread in no pass's space: said, rather than no accesses */
    const ts_sched *sc = ts_run_sched(run);
    int in_some = 0;
    for (int i = 0; i < sc->npasses; i++)
      in_some |= cx < sc->pass[i].tw && cy < sc->pass[i].th;
    if (!in_some) {
      fprintf(stderr, "tilescope run: --observe-thread '%s': no pass has that thread (pass 1: "
              "%dx%d threads)\n", thread_xy, sc->pass[0].tw, sc->pass[0].th);
      goto out;
    }
  }
  if (observe) {
    int orc = print_observed(tee_to(&text, json ? stderr : stdout), run, ob, &rep, observe_ms,
                             skip_plain ? -1 : kernel_ms);
    tee_done(&text, json ? stderr : stdout);
    observed_ok = checks[0] = orc == 0;
  }
  int output_ok = 1;
  if (expect_path || (p.variant->file && !p.variant->unchecked && !cs.have_tick)) {
    int crc = check_output(tee_to(&text, json ? stderr : stdout), run, expect_path, &err);
    tee_done(&text, json ? stderr : stdout);
    if (crc < 0) {
      fprintf(stderr, "tilescope run: %s\n", err.msg);
      goto out;
    }
    output_ok = checks[1] = crc == 0;
  }

  int broke = p.exec_device && device_broke(run);
  if (sarif) { /* the findings of the lines above, and of the observation */
    const sarif_fails fails = { fail_hazards, fail_races, fail_wrong || broke };
    char found[1024];
    const char *kdir = p.cl ? paths_kernels_dir(cs.kernels) : cs.kernels ? cs.kernels
                       : paths_find_quiet("TILESCOPE_KERNELS", "kernels", "common.cl", found,
                                          sizeof found);
    sarif_add_run_text(sarif, run, kdir, text.buf, &fails);
    if (observe)
      sarif_add_observed(sarif, run, kdir, &rep);
    if (sarif_failed(sarif))
      goto out;
  }
  const char *const outputs[5] = { out_path, raw_path, csv_path, trace_path, sarif_path };
  if (write_outputs(outputs, run, in_path, sarif, &err) != TS_OK) {
    fprintf(stderr, "tilescope run: %s\n", err.msg);
    goto out;
  }
  if (json)
    print_json(run, &p, in_path, in, kernel_ms, NULL, outputs, checks);
  for (int i = 0; i < 5 && !json; i++)
    if (outputs[i])
      printf("wrote %s\n", outputs[i]);
  rc = !broke && observed_ok && output_ok ? EXIT_OK : EXIT_DIFF;
  /* --fail-on: findings that are not failures by default */
  size_t nh = 0, nr = 0;
  ts_run_hazards(run, &nh);
  ts_run_races(run, &nr);
  const ts_dev_run *dr = ts_run_device_result(run);
  uint32_t nwrong = dr ? dr->nwrong : 0;
  if ((fail_hazards && nh) || (fail_races && nr) || (fail_wrong && nwrong)) {
    fprintf(stderr, "tilescope run: --fail-on %s: %zu hazards, %zu races, %u wrong tiles\n",
            fail_on, nh, nr, nwrong);
    rc = EXIT_DIFF;
  }
out:
  tee_close(&text);
  sarif_destroy(sarif);
  ts_obs_report_free(&rep);
  ts_observe_destroy(ob);
  ts_run_destroy(run);
  ts_cl_destroy(p.cl);
  ts_image_destroy(in);
  return rc;
}
