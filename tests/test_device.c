/* The schedule run by the device (label `opencl`, SPEC section 8): every variant in one
 * launch per pass equals the reference on grey, RGB and RGBA images of awkward sizes under
 * every pattern and random hazard-free schedules; the record's properties hold (tickets a
 * permutation, ticket t's tile the walk's t-th, no end of wait before a producer's
 * publication: its end, or a look-back kernel's aggregate); every walk x pattern finishes on
 * a 40x30 thread space; integral_lookback, whose tiles look back past their neighbours, on
 * images of many tiles a row and a column under random walks, and its aggregates out before
 * its ends; a group that never signals gives TS_ERR_STALLED naming variant, pattern and walk
 * (integral_lookback's too); integral without its wavefront races; the critical path of a
 * record; a trace written and read back holds the same record. Without OpenCL it is skipped
 * (77), except in CI, where that fails. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"
#include "ts_file.h"
#include "ts_record.h"

static ts_run *device_run(const ts_image *img, const ts_variant *v, ts_pattern pat, ts_walk walk,
                          ts_cl *cl, const char *what)
{
  ts_run_params p = { .variant = v, .sched = { pat, walk, 168 }, .cl = cl, .exec_device = 1 };
  ts_run *run = NULL;
  ts_error err = { 0 };
  ts_dev_opts o = { .record = 1, .stuck = -1 };
  CHECK(ts_run_create(img, &p, &run, &err) == TS_OK, "%s: %s", what, err.msg);
  if (run && ts_run_device(run, &o, &err) != TS_OK) {
    CHECK(0, "%s: %s", what, err.msg);
    ts_run_destroy(run);
    return NULL;
  }
  return run;
}

/* SPEC section 8's properties of a record, on any device. */
static void check_record(const ts_run *run, const char *what)
{
  const ts_dev_run *d = ts_run_device_result(run);
  const ts_sched *s = ts_run_sched(run);
  CHECK(d && d->npasses == s->npasses, "%s: no record", what);
  if (!d)
    return;
  for (int p = 0; p < s->npasses; p++) {
    const ts_pass_sched *ps = &s->pass[p];
    const ts_grec *rec = d->pass[p].rec;
    uint8_t *seen = calloc(ps->n ? ps->n : 1, 1);
    int bad = 0;
    for (uint32_t t = 0; t < ps->n && !bad; t++) {
      const ts_grec *g = &rec[t];
      uint32_t id = ps->order[t];
      /* The tickets are a permutation of the work-groups. */
      if (g->group >= ps->n || seen[g->group]) {
        CHECK(0, "%s: pass %d ticket %u: work-group %u took two tickets or none", what, p + 1, t,
              g->group);
        bad = 1;
      } else {
        seen[g->group] = 1;
      }
      if (g->tx != (int)(id % (uint32_t)ps->tw) || g->ty != (int)(id / (uint32_t)ps->tw)) {
        CHECK(0, "%s: pass %d ticket %u worked on tile %d,%d, the walk's is %u,%u", what, p + 1, t,
              g->tx, g->ty, id % (uint32_t)ps->tw, id / (uint32_t)ps->tw);
        bad = 1;
      }
      if (!(g->start <= g->waited && g->waited <= g->end)) {
        CHECK(0, "%s: pass %d ticket %u: times out of order", what, p + 1, t);
        bad = 1;
      }
      /* A look-back kernel publishes its aggregate between its start and the end of its
       * wait; the others publish at their end. */
      if (d->pass[p].lookback ? !(g->start <= g->published && g->published <= g->waited)
                              : g->published != g->end) {
        CHECK(0, "%s: pass %d ticket %u published at %llu (start %llu, wait %llu, end %llu)",
              what, p + 1, t, (unsigned long long)g->published, (unsigned long long)g->start,
              (unsigned long long)g->waited, (unsigned long long)g->end);
        bad = 1;
      }
      if (g->bound >= (int32_t)t || (!d->pass[p].lookback && g->bound != -1)) {
        CHECK(0, "%s: pass %d ticket %u: its wait bound by ticket %d", what, p + 1, t, g->bound);
        bad = 1;
      }
      uint32_t tg[TS_PATTERN_MAX_VECTORS];
      int nw = ts_sched_waits(s, p, id, tg);
      for (int i = 0; i < nw && !bad; i++) {
        const ts_grec *prod = &rec[ps->t[tg[i]].dispatch];
        if (g->waited < prod->published) {
          CHECK(0, "%s: pass %d ticket %u ended its wait at %llu, before producer ticket %u "
                "published at %llu", what, p + 1, t, (unsigned long long)g->waited,
                ps->t[tg[i]].dispatch, (unsigned long long)prod->published);
          bad = 1;
        }
      }
      /* What bound a look-back's wait was out before the wait ended. */
      if (!bad && g->bound >= 0) {
        const ts_grec *b = &rec[g->bound];
        uint64_t when = g->bound_agg ? b->published : b->end;
        if (when > g->waited) {
          CHECK(0, "%s: pass %d ticket %u's wait ended at %llu, before what bound it (ticket %d, "
                "at %llu)", what, p + 1, t, (unsigned long long)g->waited, g->bound,
                (unsigned long long)when);
          bad = 1;
        }
      }
    }
    free(seen);
  }
}

/* Every variant, image shapes and channel counts, every pattern with its default walk. */
static void exact_under_every_pattern(ts_cl *cl)
{
  static const int sizes[][2] = { { 1, 1 }, { 17, 13 }, { 50, 47 }, { 131, 67 } };
  static const int chans[] = { 1, 3, 4 };
  for (int si = 0; si < 4; si++)
    for (int ci = 0; ci < 3; ci++) {
      ts_image *img = random_image(sizes[si][0], sizes[si][1], chans[ci]);
      for (int vi = 0; vi < ts_variant_count(); vi++)
        for (int pat = 0; pat < TS_PAT_COUNT; pat++) {
          const ts_variant *v = ts_variant_at(vi);
          if (v == ts_variant_find("integral") && pat == TS_PAT_NONE && img->w * img->h > 256)
            continue; /* a real race: see races_without_wavefront */
          ts_walk walk = ts_pattern_default_walk((ts_pattern)pat);
          char what[160];
          snprintf(what, sizeof what, "device %s %dx%dx%d %s", v->name, img->w, img->h, img->c,
                   ts_pattern_name((ts_pattern)pat));
          ts_run *run = device_run(img, v, (ts_pattern)pat, walk, cl, what);
          if (!run)
            continue;
          size_t nr;
          ts_run_races(run, &nr);
          if (nr == 0) {
            compare_to_ref(run, img, what, 1);
            CHECK(ts_run_device_result(run)->nwrong == 0, "%s: %u wrong tiles", what,
                  ts_run_device_result(run)->nwrong);
          }
          check_record(run, what);
          ts_run_destroy(run);
        }
      ts_image_destroy(img);
    }
}

/* integral_band over several bands (rows of whole 64-byte lines: its streamed stores) and
 * 4096-column chunks, in one launch per pass. */
static void integral_band_shapes(ts_cl *cl)
{
  static const int sizes[][2] = { { 64, 600 }, { 4100, 70 } };
  for (int si = 0; si < 2; si++)
    for (int c = 1; c <= 3; c += 2) {
      ts_image *img = random_image(sizes[si][0], sizes[si][1], c);
      char what[128];
      snprintf(what, sizeof what, "device integral_band %dx%dx%d", img->w, img->h, c);
      ts_run *run = device_run(img, ts_variant_find("integral_band"), TS_PAT_NONE,
                               TS_WALK_HORIZONTAL, cl, what);
      if (run) {
        compare_to_ref(run, img, what, 1);
        check_record(run, what);
      }
      ts_run_destroy(run);
      ts_image_destroy(img);
    }
}

/* Random walks, patterns and Gaussian sizes: exact wherever the simulator finds no hazard. */
static void exact_random_schedules(ts_cl *cl)
{
  for (int trial = 0; trial < 40; trial++) {
    int w = 1 + (int)check_rand(180), h = 1 + (int)check_rand(120);
    int c = (int[]){ 1, 3, 4 }[check_rand(3)];
    const ts_variant *v = trial < 12 ? ts_variant_find("integral")
                                     : ts_variant_at((int)check_rand((uint32_t)ts_variant_count()));
    ts_pattern pat = (ts_pattern)check_rand(TS_PAT_COUNT);
    ts_walk walk = (ts_walk)check_rand(TS_WALK_COUNT);
    ts_image *img = random_image(w, h, c);
    ts_run_params p = { .variant = v, .sched = { pat, walk, 1 + (int)check_rand(400) },
                        .ksize = v->filter == TS_FILTER_GAUSS ? 3 + 2 * (int)check_rand(7) : 0,
                        .cl = cl, .exec_device = 1 };
    char what[160];
    snprintf(what, sizeof what, "device %s %dx%dx%d %s/%s k=%d", v->name, w, h, c,
             ts_pattern_name(pat), ts_walk_name(walk), p.ksize);
    ts_run *run = NULL;
    ts_error err = { 0 };
    ts_dev_opts o = { .record = trial % 2, .stuck = -1 };
    CHECK(ts_run_create(img, &p, &run, &err) == TS_OK, "%s: %s", what, err.msg);
    size_t nr = 1;
    if (run)
      ts_run_races(run, &nr);
    if (run && nr == 0) {
      CHECK(ts_run_device(run, &o, &err) == TS_OK, "%s: %s", what, err.msg);
      compare_to_ref(run, img, what, 1);
      if (o.record)
        check_record(run, what);
    }
    ts_run_destroy(run);
    ts_image_destroy(img);
  }
}

/* Every walk with every pattern finishes, with no wait reaching its bound: 40x30 tiles. */
static void every_walk_and_pattern(ts_cl *cl)
{
  ts_image *img = random_image(640, 480, 1);
  const ts_variant *v = ts_variant_find("integral");
  for (int pat = 0; pat < TS_PAT_COUNT; pat++)
    for (int walk = 0; walk < TS_WALK_COUNT; walk++) {
      char what[128];
      snprintf(what, sizeof what, "integral 40x30 %s/%s", ts_pattern_name((ts_pattern)pat),
               ts_walk_name((ts_walk)walk));
      ts_run *run = device_run(img, v, (ts_pattern)pat, (ts_walk)walk, cl, what);
      if (run) {
        check_record(run, what);
        size_t nr;
        ts_run_races(run, &nr);
        if (nr == 0)
          CHECK(compare_to_ref(run, img, what, 1) == 0, "%s", what);
      }
      ts_run_destroy(run);
    }
  ts_image_destroy(img);
}

/* integral_lookback and integral_lookback_wide on images of many tiles each way (128x32 and
 * 256x32 tiles: look-back windows of 16 slide along rows and up columns), and
 * integral_lookback_band on its 256-row bands (4100 columns: two chunks), grey, RGB and RGBA,
 * under their pattern with random walks and random patterns: exact wherever no read is a
 * race, and every run ends (a tile looks back only at tiles dispatched before it). Their
 * records say that the aggregates came out before the ends. */
static void lookback_walks(ts_cl *cl, const char *name)
{
  static const int sizes[][3] = { { 2600, 1100, 1 }, { 129, 33, 3 }, { 4100, 70, 4 },
                                  { 300, 1500, 1 }, { 1000, 333, 3 }, { 2048, 512, 4 } };
  const ts_variant *v = ts_variant_find(name);
  int by_aggregate = 0;
  for (int si = 0; si < 6; si++) {
    ts_image *img = random_image(sizes[si][0], sizes[si][1], sizes[si][2]);
    for (int trial = 0; trial < 4; trial++) {
      ts_pattern pat = trial < 2 ? TS_PAT_WAVEFRONT : (ts_pattern)check_rand(TS_PAT_COUNT);
      ts_walk walk = trial == 0 ? TS_WALK_WAVEFRONT : (ts_walk)check_rand(TS_WALK_COUNT);
      char what[160];
      snprintf(what, sizeof what, "device %s %dx%dx%d %s/%s", name, img->w, img->h, img->c,
               ts_pattern_name(pat), ts_walk_name(walk));
      ts_run *run = device_run(img, v, pat, walk, cl, what);
      if (!run)
        continue;
      size_t nr;
      ts_run_races(run, &nr);
      if (nr == 0) {
        CHECK(compare_to_ref(run, img, what, 1) == 0, "%s", what);
        CHECK(ts_run_device_result(run)->nwrong == 0, "%s: wrong tiles", what);
      }
      check_record(run, what);
      const ts_dev_run *d = ts_run_device_result(run);
      CHECK(d->pass[0].lookback, "%s: the record does not say it looks back", what);
      for (uint32_t t = 0; t < d->pass[0].n; t++)
        by_aggregate += d->pass[0].rec[t].bound >= 0 && d->pass[0].rec[t].bound_agg;
      ts_run_destroy(run);
    }
    ts_image_destroy(img);
  }
  printf("test_device: %s: %d waits bound by an aggregate\n", name, by_aggregate);
  /* Every walk with every pattern ends, exact where the schedule has no race: 20 x 24 tiles
   * of integral_lookback (10 x 24 of the wide one). */
  ts_image *img = random_image(2560, 768, 1);
  for (int pat = 0; pat < TS_PAT_COUNT; pat++)
    for (int walk = 0; walk < TS_WALK_COUNT; walk++) {
      char what[128];
      snprintf(what, sizeof what, "%s 2560x768 %s/%s", name, ts_pattern_name((ts_pattern)pat),
               ts_walk_name((ts_walk)walk));
      ts_run *run = device_run(img, v, (ts_pattern)pat, (ts_walk)walk, cl, what);
      if (run) {
        check_record(run, what);
        size_t nr;
        ts_run_races(run, &nr);
        if (nr == 0)
          CHECK(compare_to_ref(run, img, what, 1) == 0, "%s", what);
      }
      ts_run_destroy(run);
    }
  ts_image_destroy(img);
}

/* A group that never signals: its waiters give up, and the run says who waited for whom.
 * The image is nx x ny tiles of tile_w x tile_h pixels. */
static void stuck_group_is_an_error(ts_cl *cl, const char *name, int tile_w, int tile_h, int nx,
                                    int ny)
{
  ts_image *img = random_image(nx * tile_w, ny * tile_h, 1);
  const ts_variant *v = ts_variant_find(name);
  ts_run_params p = { .variant = v, .sched = { TS_PAT_WAVEFRONT, TS_WALK_WAVEFRONT, 168 },
                      .cl = cl, .exec_device = 1 };
  ts_run *run = NULL;
  ts_error err = { 0 };
  ts_dev_opts o = { .record = 1, .stuck = 12, .spin_limit = 1u << 20 };
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (ts_run_create(img, &p, &run, &err) == TS_OK) {
    ts_status st = ts_run_device(run, &o, &err);
    CHECK(st == TS_ERR_STALLED, "%s: a stuck group gave %s: %s", name, ts_status_name(st),
          err.msg);
    char want[96], tile[64];
    uint32_t id = ts_run_sched(run)->pass[0].order[12];
    snprintf(want, sizeof want, "%s, pattern wavefront, walk wavefront", name);
    snprintf(tile, sizeof tile, "ticket 12 (tile %u,%u) never signalled", id % (uint32_t)nx,
             id / (uint32_t)nx);
    CHECK(strstr(err.msg, want) && strstr(err.msg, tile), "message: %s", err.msg);
    /* The same run goes on working once nothing is stuck, with the device's own spin limit:
     * 2^20 polls, enough to give up on the stuck group quickly, was not always enough for a
     * waiter whose producer the loaded 2-core machine left unscheduled (seen once in CI) */
    o.stuck = -1;
    o.spin_limit = 0;
    CHECK(ts_run_device(run, &o, &err) == TS_OK, "after a stall: %s", err.msg);
    CHECK(compare_to_ref(run, img, "after a stall", 1) == 0, "after a stall");
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  CHECK(t1.tv_sec - t0.tv_sec < 60, "the stall took %ld s", (long)(t1.tv_sec - t0.tv_sec));
  ts_run_destroy(run);
  ts_image_destroy(img);
}

/* integral without a dependency pattern is a real race on the device: over 20 runs some tile
 * comes out wrong, and every run's wrong tiles are counted against the reference. */
static void races_without_wavefront(ts_cl *cl)
{
  ts_image *img = random_image(2048, 1024, 1);
  const ts_variant *v = ts_variant_find("integral");
  uint32_t runs_wrong = 0, most = 0;
  for (int i = 0; i < 20; i++) {
    ts_run *run = device_run(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, cl, "integral none");
    if (!run)
      break;
    const ts_dev_run *d = ts_run_device_result(run);
    size_t bad = compare_to_ref(run, img, "race", 0);
    CHECK((bad == 0) == (d->nwrong == 0), "wrong tiles %u but %zu wrong values", d->nwrong, bad);
    runs_wrong += d->nwrong > 0;
    most = d->nwrong > most ? d->nwrong : most;
    ts_run_destroy(run);
  }
  printf("test_device: integral under pattern none: %u of 20 runs had wrong tiles (at most %u "
         "of %d)\n", runs_wrong, most, 128 * 64);
  CHECK(runs_wrong > 0, "no race seen in 20 runs");
  ts_image_destroy(img);
}

/* The critical path of records made up with known chains, on the schedule of a CPU run:
 * integral's 6 x 4 tiles under the wavefront, each group starting at once and waiting for
 * its producers, is the diagonal chain of 6 + 4 - 1 groups from the first tile to the last;
 * with every group but ticket 0 starting after its producers ended, no group waited; a
 * look-back record whose last group read its predecessor's aggregate, after that one
 * waited for ticket 0's end, is a chain of 2 groups from the aggregate. */
static void critical_paths(void)
{
  ts_image *img = random_image(96, 64, 1);
  ts_run_params p = { .variant = ts_variant_find("integral"),
                      .sched = { TS_PAT_WAVEFRONT, TS_WALK_WAVEFRONT, 168 } };
  ts_run *run = NULL;
  ts_error err = { 0 };
  CHECK(ts_run_create(img, &p, &run, &err) == TS_OK, "%s", err.msg);
  if (!run) {
    ts_image_destroy(img);
    return;
  }
  const ts_sched *s = ts_run_sched(run);
  const ts_pass_sched *ps = &s->pass[0];
  ts_dev_run *d = calloc(1, sizeof *d);
  d->npasses = 1;
  d->clock_ns = 1;
  d->pass[0].n = ps->n;
  d->pass[0].rec = calloc(ps->n, sizeof(ts_grec));
  for (int serial = 0; serial < 2; serial++) {
    for (uint32_t t = 0; t < ps->n; t++) {
      ts_grec *g = &d->pass[0].rec[t];
      uint32_t id = ps->order[t], tg[TS_PATTERN_MAX_VECTORS];
      uint64_t ready = 0;
      int nw = ts_sched_waits(s, 0, id, tg);
      for (int i = 0; i < nw; i++) {
        uint64_t e = d->pass[0].rec[ps->t[tg[i]].dispatch].end;
        ready = e > ready ? e : ready;
      }
      *g = (ts_grec){ .group = t, .unit = 0, .tx = (int32_t)(id % 6), .ty = (int32_t)(id / 6),
                      .start = serial ? ready + 1 : 1000 + t, .bound = -1 };
      g->waited = ready > g->start ? ready : g->start;
      g->end = g->published = g->waited + 100;
    }
    ts_dev_run_finish(d);
    ts_dev_path cp;
    uint32_t chain[16];
    CHECK(ts_dev_critical_path(d, s, &cp, chain, 16), "no critical path");
    if (!serial) {
      CHECK(cp.groups == 9 && cp.head == 0 && cp.tail == ps->n - 1 && !cp.through_aggregate,
            "wavefront: %u groups, tickets %u to %u", cp.groups, cp.head, cp.tail);
      for (uint32_t i = 1; i < 9 && cp.groups == 9; i++) {
        const ts_grec *a = &d->pass[0].rec[chain[i - 1]], *b = &d->pass[0].rec[chain[i]];
        CHECK(b->tx + b->ty == a->tx + a->ty + 1, "link %u is not a diagonal's hand-off", i);
      }
      char line[200];
      ts_dev_path_line(d, s, line, sizeof line);
      CHECK(strstr(line, "critical path: 9 groups in a chain of waits") != NULL, "%s", line);
    } else {
      CHECK(cp.groups == 1, "groups that started after their producers: %u", cp.groups);
    }
  }
  /* A look-back: ticket 2 read ticket 1's aggregate, out after ticket 2 began to look
   * back; ticket 3 read ticket 2's end. Ticket 1's own wait does not count: its aggregate
   * came before it. */
  d->pass[0].lookback = 1;
  ts_grec *r = d->pass[0].rec;
  for (uint32_t t = 0; t < ps->n; t++)
    r[t] = (ts_grec){ .group = t, .tx = r[t].tx, .ty = r[t].ty, .start = 10 * t,
                      .published = 10 * t + 1, .waited = 10 * t + 2, .end = 10 * t + 3,
                      .bound = -1 };
  r[1].bound = 0;
  r[1].published = 15;
  r[1].waited = 16;
  r[1].end = 17;
  r[2].published = 13;
  r[2].waited = 16;
  r[2].end = 30;
  r[2].bound = 1;
  r[2].bound_agg = 1;
  r[3].bound = 2;
  r[3].published = 21;
  r[3].waited = 31;
  r[3].end = 35;
  ts_dev_path cp;
  CHECK(ts_dev_critical_path(d, s, &cp, NULL, 0), "no critical path");
  CHECK(cp.groups == 3 && cp.head == 1 && cp.tail == 3 && cp.through_aggregate,
        "look-back: %u groups, tickets %u to %u, from an aggregate %d", cp.groups, cp.head,
        cp.tail, cp.through_aggregate);
  ts_dev_run_free(d);
  ts_run_destroy(run);
  ts_image_destroy(img);
}

/* A trace written and read back holds the same record; the reader refuses damaged files. */
static void trace_round_trip(ts_cl *cl, const char *name, int w, int h)
{
  ts_image *img = random_image(w, h, 3);
  const ts_variant *v = ts_variant_find(name);
  ts_run *run = device_run(img, v, TS_PAT_WAVEFRONT, TS_WALK_WAVEFRONT, cl, "trace");
  char path[] = "/tmp/tilescope-trace-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0, "mkstemp");
  close(fd);
  ts_error err = { 0 };
  if (run) {
    CHECK(ts_trace_write(path, run, "in.png", &err) == TS_OK, "%s", err.msg);
    ts_trace_info info;
    ts_dev_run *d = NULL;
    CHECK(ts_trace_read(path, &info, &d, &err) == TS_OK, "%s", err.msg);
    const ts_dev_run *a = ts_run_device_result(run);
    if (d) {
      int c = ts_run_output_u32(run) ? 1 : 3;
      CHECK(strcmp(info.variant, name) == 0 && strcmp(info.pattern, "wavefront") == 0 &&
                info.w == w && info.h == h && info.c == c && strcmp(info.input, "in.png") == 0,
            "trace info %s %s %dx%dx%d", info.variant, info.pattern, info.w, info.h, info.c);
      CHECK(d->npasses == v->npasses && d->clock_ns == a->clock_ns && d->lanes == a->lanes,
            "passes %d lanes %d vs %d", d->npasses, d->lanes, a->lanes);
      for (int p = 0; p < v->npasses && d->npasses == v->npasses; p++) {
        CHECK(d->pass[p].lookback == a->pass[p].lookback, "%s: pass %d's look-back", name, p + 1);
        for (uint32_t t = 0; t < a->pass[p].n; t++) {
          const ts_grec *x = &a->pass[p].rec[t], *y = &d->pass[p].rec[t];
          if (x->group != y->group || x->tx != y->tx || x->ty != y->ty || x->start != y->start ||
              x->waited != y->waited || x->end != y->end || x->lane != y->lane ||
              x->published != y->published || x->bound != y->bound ||
              x->bound_agg != y->bound_agg) {
            CHECK(0, "%s: pass %d ticket %u differs after the round trip", name, p + 1, t);
            break;
          }
        }
      }
      ts_dev_path pa, pb;
      CHECK(ts_dev_critical_path(a, ts_run_sched(run), &pa, NULL, 0) &&
                ts_dev_critical_path(d, ts_run_sched(run), &pb, NULL, 0) &&
                memcmp(&pa, &pb, sizeof pa) == 0,
            "%s: the critical path differs after the round trip", name);
      CHECK(ts_run_attach_device(run, d, &err) == TS_OK, "attach: %s", err.msg);
    }
    /* Damaged files: truncated, and a group's tile changed. */
    uint8_t *data = NULL;
    size_t len = 0;
    ts_file_read_all(path, 1 << 26, &data, &len, NULL);
    for (size_t cut = 1; data && cut < len; cut = cut * 3 + 7) {
      FILE *f = fopen(path, "wb");
      fwrite(data, 1, cut, f);
      fclose(f);
      ts_dev_run *dd = NULL;
      CHECK(ts_trace_read(path, &info, &dd, &err) != TS_OK, "a trace cut at %zu bytes loaded", cut);
      CHECK(strstr(err.msg, path) != NULL, "message names the file: %s", err.msg);
      ts_dev_run_free(dd);
    }
    free(data);
  }
  remove(path);
  ts_run_destroy(run);
  ts_image_destroy(img);
}

int main(void)
{
  ts_error err = { 0 };
  ts_cl *cl = NULL;
  if (ts_cl_create(-1, TS_KERNELS_DIR, &cl, &err) != TS_OK) {
    const char *ci = getenv("CI");
    fprintf(stderr, "test_device: %s\n", err.msg);
    if (ci && strcmp(ci, "true") == 0) {
      fprintf(stderr, "test_device: CI must have OpenCL (pocl): failing instead of skipping\n");
      return 1;
    }
    printf("test_device: skipped, no OpenCL device\n");
    return 77;
  }
  printf("test_device: on %s (%s)\n", ts_cl_device(cl)->name, ts_cl_device(cl)->platform);
  exact_under_every_pattern(cl);
  integral_band_shapes(cl);
  exact_random_schedules(cl);
  every_walk_and_pattern(cl);
  lookback_walks(cl, "integral_lookback");
  lookback_walks(cl, "integral_lookback_wide");
  lookback_walks(cl, "integral_lookback_band");
  stuck_group_is_an_error(cl, "integral", 16, 16, 10, 10);
  stuck_group_is_an_error(cl, "integral_lookback", 128, 32, 10, 10);
  stuck_group_is_an_error(cl, "integral_lookback_band", 48, 256, 1, 20);
  races_without_wavefront(cl);
  trace_round_trip(cl, "transpose2pass", 100, 70);
  trace_round_trip(cl, "integral_lookback", 700, 200);
  critical_paths();
  ts_cl_destroy(cl);
  return check_exit("test_device");
}
