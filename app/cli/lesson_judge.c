/* The lessons' checkers (lesson_judge.h): a plain kernel run observed and its findings and
 * output judged, a schedule file run as the integral image and its hazards, waits and ticks
 * judged, a dialect kernel run observed in the simulated order and on the device; each
 * finding said in a student's words. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lesson_judge.h"
#include "paths.h"
#include "ts_file.h"
#include "ts_observe.h"
#include "ts_user.h"

void say(verdict *v, const char *fmt, ...)
{
  if (v->n < SHOWN) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->line[v->n], sizeof v->line[v->n], fmt, ap);
    va_end(ap);
  }
  v->n++;
}

/* What a dependency vector (producer minus consumer) is, in words. */
static void vec_words(int dx, int dy, char *b, size_t n)
{
  static const char *const names[3][3] = { { "above-left", "above", "above-right" },
                                           { "to its left", "", "to its right" },
                                           { "below-left", "below", "below-right" } };
  if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 && (dx || dy)) {
    snprintf(b, n, "the block %s", names[dy + 1][dx + 1]);
    return;
  }
  char h[32] = "", w[32] = "";
  if (dx)
    snprintf(h, sizeof h, "%d to its %s", abs(dx), dx < 0 ? "left" : "right");
  if (dy)
    snprintf(w, sizeof w, "%d %s", abs(dy), dy < 0 ? "above" : "below");
  snprintf(b, n, "the block %s%s%s", h, dx && dy ? " and " : "", w);
}

/* How many pixels of two images of one shape differ (0: none), and the first byte that does. */
static size_t image_mismatch(const ts_image *a, const ts_image *b, int *x, int *y, int *c,
                             int *va, int *vb)
{
  size_t npx = (size_t)a->w * (size_t)a->h, cc = (size_t)a->c, bad = 0;
  for (size_t i = 0; i < npx; i++) {
    const uint8_t *pa = a->data + i * cc, *pb = b->data + i * cc;
    if (memcmp(pa, pb, cc) == 0)
      continue;
    if (bad++ == 0) {
      size_t k = 0;
      while (pa[k] == pb[k])
        k++;
      *x = (int)(i % (size_t)a->w);
      *y = (int)(i / (size_t)a->w);
      *c = (int)k;
      *va = pa[k];
      *vb = pb[k];
    }
  }
  return bad;
}

/* ---- plain kernels: lessons 1, 4 and 5 ---- */

/* One finding of the observation, in a student's words. */
static void say_plain_finding(verdict *v, const lesson *l, const ts_plain_desc *d,
                              const ts_plain_result *r, const ts_plain_finding *f)
{
  const ts_plain_launch *L = &r->launch[f->pass];
  const ts_plain_place *p = &f->place[0];
  char g[40], it[40], other[40], el[256], times[64] = "", hint[200] = "";
  ts_plain_group_name(L, p->group, g, sizeof g);
  ts_plain_item_name(L, p->item, it, sizeof it);
  ts_plain_item_name(L, p->other_item, other, sizeof other);
  if (p->space == 1) {
    int64_t off = p->off; /* signed: before the array it counts back from its start */
    int known = p->buf >= 0 && p->buf < L->nlocals;
    int es = known && L->local_elem[p->buf] > 0 ? L->local_elem[p->buf] : 1;
    snprintf(el, sizeof el, "element %lld of the __local array `%s`", (long long)(off / es),
             known ? L->locals[p->buf] : "?");
  } else {
    ts_plain_element_name(d, r, f->pass, p, el, sizeof el);
  }
  if (f->count > 1)
    snprintf(times, sizeof times, " (%" PRIu64 " times in all)", f->count);
  if (l->hint[f->kind])
    snprintf(hint, sizeof hint, ": %s", l->hint[f->kind]);
  const char *base = strrchr(d->path, '/') ? strrchr(d->path, '/') + 1 : d->path;
  int acc = p->acc & 7; /* the flag bits above say "outside" */
  const char *verb = acc == 2 ? "writes" : acc == 4 ? "updates" : "reads";
  switch (f->kind) {
  case TS_FIND_OOB:
    say(v, "%s:%d: work-item %s of work-group %s %s %s, outside the array%s%s", base, f->line, it,
        g, verb, el, hint, times);
    break;
  case TS_FIND_RACE_LOCAL:
  case TS_FIND_RACE_GLOBAL:
    say(v, "%s:%d: work-item %s of work-group %s %s %s, which work-item %s of the same group "
           "also touches with no barrier between them%s%s",
        base, f->line, it, g, verb, el, other, hint, times);
    break;
  case TS_FIND_RACE_GROUPS:
    say(v, "%s:%d: work-group %s %s %s, which another work-group writes in the same launch: "
           "work-groups of one launch run in no order%s%s",
        base, f->line, g, verb, el, hint, times);
    break;
  case TS_FIND_UNINIT:
    say(v, "%s:%d: work-item %s of work-group %s reads %s before anything stored it%s%s", base,
        f->line, it, g, el, hint, times);
    break;
  case TS_FIND_FOOTPRINT: {
    const ts_plain_pass *ps = &d->pass[f->pass];
    int x, y;
    if (ts_plain_place_pixel(d, r, f->pass, p, &x, &y) && ps->tile_w > 0) {
      int gx = (int)(p->group % L->ngroups[0]), gy = (int)(p->group / L->ngroups[0]);
      int x0 = gx * ps->tile_w, y0 = gy * ps->tile_h, x1 = x0 + ps->tile_w - 1,
          y1 = y0 + ps->tile_h - 1;
      int far = x0 - x;
      far = x - x1 > far ? x - x1 : far;
      far = y0 - y > far ? y0 - y : far;
      far = y - y1 > far ? y - y1 : far;
      int by = far - ps->halo;
      char shortby[48];
      snprintf(shortby, sizeof shortby, by == 1 ? "one pixel" : "%d pixels", by);
      say(v, "%s:%d: work-item %s of work-group %s reads pixel (%d,%d), %d pixel%s outside its "
             "%dx%d tile, outside the halo you declared (halo=%d): your halo is %s short%s",
          base, ps->line ? ps->line : f->line, it, g, x, y, far, far == 1 ? "" : "s",
          ps->tile_w, ps->tile_h, ps->halo, shortby, times);
    } else {
      say(v, "%s:%d: work-item %s of work-group %s reads %s, outside its tile and the halo you "
             "declared%s",
          base, f->line, it, g, el, times);
    }
    break;
  }
  case TS_FIND_DIVERGE: {
    char bar[48] = "a barrier";
    if (p->other_line > 0)
      snprintf(bar, sizeof bar, "the barrier at line %d", p->other_line);
    say(v, "%s:%d: the work-items of work-group %s take this branch apart, and %s comes after "
           "it: every work-item of a group must reach the same barriers (a GPU may hang)%s%s",
        base, f->line, g, bar, hint, times);
    break;
  }
  case TS_FIND_TILE:
    say(v, "%s:%d: work-item %s of work-group %s writes %s, outside the tile you declared%s",
        base, f->line, it, g, el, times);
    break;
  default: { /* the others as run --observe words them */
    char line[1024];
    ts_plain_finding_line(d, r, f, line, sizeof line);
    say(v, "%s%s", line, hint);
  }
  }
}

/* Lesson 4: both passes are horizontal code. The chosen work-item's reads of each buffer it
 * reads must lie along one row of it; and the second pass must read what the first wrote to
 * a temporary. */
static void judge_transpose(verdict *v, const ts_plain_result *r,
                            const ts_plain_opts *o)
{
  if (r->npasses != 2) {
    say(v, "the trick takes two launches, a horizontal pass into a temporary and the same "
           "horizontal code over it; your file has %d",
        r->npasses);
    return;
  }
  int reads_temp = 0;
  for (int p = 0; p < r->npasses; p++) {
    const ts_plain_launch *L = &r->launch[p];
    uint32_t cg = (uint32_t)(o->chosen_group[0] + (long)L->ngroups[0] * o->chosen_group[1]);
    uint32_t ci = (uint32_t)(o->chosen_item[0] + (long)L->local[0] * o->chosen_item[1]);
    int64_t lo[8], hi[8], col[8];
    for (int b = 0; b < 8; b++)
      lo[b] = INT64_MAX, hi[b] = INT64_MIN, col[b] = -1;
    for (size_t i = 0; i < L->nlog; i++) {
      const ts_plain_access *a = &L->log[i];
      if (a->group != cg || a->item != ci || a->space != 0 || a->outside || !(a->acc & 1) ||
          a->acc == 4 || a->buf < 0 || a->buf >= L->nbufs || a->buf >= 8)
        continue;
      const ts_plain_buf *b = &L->buf[a->buf];
      if (b->step <= 0 || b->lane <= 0 || b->channels <= 0)
        continue;
      int64_t rel = a->off - b->offset, row = rel / b->step;
      lo[a->buf] = row < lo[a->buf] ? row : lo[a->buf];
      hi[a->buf] = row > hi[a->buf] ? row : hi[a->buf];
      col[a->buf] = (rel % b->step) / (b->lane * b->channels);
      reads_temp |= p == 1 && b->temp;
    }
    for (int b = 0; b < L->nbufs && b < 8; b++)
      if (lo[b] < hi[b])
        say(v, "pass %d (%s): work-item (%ld,%ld) of work-group (%ld,%ld) reads `%s` down a "
               "column (rows %lld to %lld of column %lld): that is vertical code; make this "
               "pass read along a row, as the other does",
            p + 1, L->entry, o->chosen_item[0], o->chosen_item[1], o->chosen_group[0],
            o->chosen_group[1], L->buf[b].name, (long long)lo[b], (long long)hi[b],
            (long long)col[b]);
  }
  if (!reads_temp)
    say(v, "pass 2 (%s) reads no temporary: the first pass should leave its sums in one "
           "(a `buffer ... role=temp` line) for the second to read",
        r->launch[1].entry);
}

int check_plain(const lesson *l, const char *path, const ts_image *in, int device,
                       verdict *v)
{
  ts_error err = { 0 };
  ts_plain_desc *d = NULL;
  ts_plain_result *res = NULL;
  ts_image *want = NULL;
  int rc = EXIT_USAGE;
  const char *kdir = paths_kernels_dir(NULL);
  if (!kdir)
    return EXIT_USAGE;
  if (ts_plain_load_launch(path, NULL, NULL, 0, 120, &d, &err) != TS_OK) {
    fprintf(stderr, "tilescope lesson: %s\n", err.msg);
    goto out;
  }
  ts_plain_opts po = { .observe = 1, .chosen_pass = -1, .watch_x = -1, .watch_y = -1,
                       .order = l->order };
  for (int i = 0; i < 3; i++)
    po.chosen_group[i] = po.chosen_item[i] = i < 2 ? 1 : 0; /* away from the image's edge */
  ts_status st = ts_plain_run_isolated(device, kdir, d, in, &po, 120, &res, &err);
  if (st == TS_ERR_ARG || st == TS_ERR_BUILD || st == TS_ERR_FORMAT || st == TS_ERR_DEVICE) {
    fprintf(stderr, "tilescope lesson: %s\n", err.msg);
    goto out;
  }
  rc = EXIT_DIFF;
  if (st != TS_OK) { /* it crashed or never ended: that is the student's to fix */
    say(v, "your kernel did not finish: %s", err.msg);
    goto out;
  }
  for (size_t i = 0; i < res->nfindings; i++)
    say_plain_finding(v, l, d, res, &res->findings[i]);
  if (l->transpose)
    judge_transpose(v, res, &po);
  if (l->ref == TS_FILTER_INTEGRAL) { /* 32-bit sums: the raw output against the reference */
    uint32_t *sums = NULL;
    if (ts_ref_integral(in, &sums, &err) != TS_OK) {
      fprintf(stderr, "tilescope lesson: %s\n", err.msg);
      rc = EXIT_USAGE;
      goto out;
    }
    size_t n = (size_t)in->w * (size_t)in->h, bad = 0, first = 0;
    if (res->raw_lane != 4 || res->raw_channels != 1 || res->raw_cols != in->w ||
        res->raw_rows != in->h)
      say(v, "your output is %dx%d with %d channel%s of %d bytes; the integral is %dx%d, one "
             "32-bit sum a pixel", res->raw_cols, res->raw_rows, res->raw_channels,
          res->raw_channels == 1 ? "" : "s", res->raw_lane, in->w, in->h);
    else
      for (size_t i = 0; i < n; i++)
        if (((const uint32_t *)res->raw)[i] != sums[i] && bad++ == 0)
          first = i;
    if (bad)
      say(v, "your sums differ from the integral reference at %zu pixels, first at pixel "
             "(%zu,%zu): %u where it should be %u", bad, first % (size_t)in->w,
          first / (size_t)in->w, ((const uint32_t *)res->raw)[first], sums[first]);
    free(sums);
    goto judged;
  }
  st = l->ref == TS_FILTER_GAUSS ? ts_ref_gauss(in, 5, 0, &want, &err) : ts_ref_box3(in, &want, &err);
  if (st != TS_OK) {
    fprintf(stderr, "tilescope lesson: %s\n", err.msg);
    rc = EXIT_USAGE;
    goto out;
  }
  const ts_image *got = res->out;
  int x = 0, y = 0, c = 0, va = 0, vb = 0;
  if (got->w != want->w || got->h != want->h || got->c != want->c)
    say(v, "your output is %dx%d with %d channel%s; the %s reference is %dx%dx%d", got->w,
        got->h, got->c, got->c == 1 ? "" : "s", ts_filter_name(l->ref), want->w, want->h, want->c);
  else {
    size_t bad = image_mismatch(got, want, &x, &y, &c, &va, &vb);
    if (bad)
      say(v, "your output differs from the %s reference at %zu pixels, first at pixel (%d,%d) "
             "channel %d: %d where it should be %d",
          ts_filter_name(l->ref), bad, x, y, c, va, vb);
  }
judged:
  if (v->n == 0)
    snprintf(v->more, sizeof v->more, "no finding in %u work-groups observed, and the output "
             "equals the %s reference bit for bit", res->launch[0].ngroups_all,
             ts_filter_name(l->ref));
out:
  ts_image_destroy(want);
  ts_plain_result_free(res);
  ts_plain_desc_free(d);
  return rc;
}

/* ---- schedule files: lessons 2 and 3 ---- */

/* Reads `pattern NAME` and `walk NAME` lines (# comments, blank lines); allow says which
 * keys the lesson takes. Returns 0 after printing the error. */
static int read_schedule(const char *path, int allow_pattern, ts_pattern *pat, ts_walk *walk,
                         int *have_walk)
{
  uint8_t *text = NULL;
  size_t len = 0;
  ts_error err = { 0 };
  if (ts_file_read_all(path, 1 << 16, &text, &len, &err) != TS_OK) {
    fprintf(stderr, "tilescope lesson: %s\n", err.msg);
    return 0;
  }
  int ok = 1, lineno = 0, have_pattern = 0;
  *have_walk = 0;
  for (char *s = (char *)text, *end = s + len; ok && s < end; lineno++) {
    char *nl = memchr(s, '\n', (size_t)(end - s));
    size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
    char line[256] = "", key[64] = "", val[64] = "", extra[8] = "";
    if (n < sizeof line)
      memcpy(line, s, n);
    s += n + 1;
    char *hash = strchr(line, '#');
    if (hash)
      *hash = 0;
    int got = sscanf(line, " %63[^ \t\r=] %*[=]%63s %7s", key, val, extra);
    if (got < 2)
      got = sscanf(line, " %63s %63s %7s", key, val, extra);
    if (n >= sizeof line || (got >= 1 && got != 2)) {
      fprintf(stderr, "tilescope lesson: %s:%d: expected `KEY NAME` (pattern or walk)\n", path,
              lineno + 1);
      ok = 0;
    } else if (got <= 0) {
      continue;
    } else if (strcmp(key, "pattern") == 0 && allow_pattern) {
      if (!ts_pattern_parse(val, pat)) {
        fprintf(stderr, "tilescope lesson: %s:%d: pattern: '%s' is not a pattern (see tilescope list)\n",
                path, lineno + 1, val);
        ok = 0;
      }
      have_pattern = 1;
    } else if (strcmp(key, "walk") == 0) {
      if (!ts_walk_parse(val, walk)) {
        fprintf(stderr, "tilescope lesson: %s:%d: walk: '%s' is not a walk (see tilescope list)\n",
                path, lineno + 1, val);
        ok = 0;
      }
      *have_walk = 1;
    } else {
      fprintf(stderr, "tilescope lesson: %s:%d: %s: this lesson's file takes %s\n", path,
              lineno + 1, key, allow_pattern ? "`pattern NAME` and `walk NAME`" : "`walk NAME` only");
      ok = 0;
    }
  }
  free(text);
  if (ok && allow_pattern && !have_pattern) {
    fprintf(stderr, "tilescope lesson: %s: name a pattern (a line `pattern NAME`)\n", path);
    ok = 0;
  }
  if (ok && !allow_pattern && !*have_walk) {
    fprintf(stderr, "tilescope lesson: %s: name a walk (a line `walk NAME`)\n", path);
    ok = 0;
  }
  return ok;
}

/* The hazards of a run, one line for each vector they take, in the order first seen: the
 * vector missing from the pattern, or dropped by the walk. */
static void say_hazards(verdict *v, const ts_run *run)
{
  size_t nh;
  const ts_hazard *h = ts_run_hazards(run, &nh);
  const ts_sched *s = ts_run_sched(run);
  const ts_pass_sched *ps = &s->pass[0];
  const ts_vec *pv;
  int npv = ts_pattern_vectors(s->params.pattern, &pv);
  int seen_dx[16], seen_dy[16], nseen = 0;
  size_t threads[16] = { 0 };
  uint32_t first[16];
  for (size_t i = 0; i < nh; i++) {
    int cx = (int)(h[i].consumer % (uint32_t)ps->tw), cy = (int)(h[i].consumer / (uint32_t)ps->tw);
    int px = (int)(h[i].producer % (uint32_t)ps->tw), py = (int)(h[i].producer / (uint32_t)ps->tw);
    int k = 0;
    while (k < nseen && (seen_dx[k] != px - cx || seen_dy[k] != py - cy))
      k++;
    if (k == nseen && nseen < 16) {
      seen_dx[nseen] = px - cx;
      seen_dy[nseen] = py - cy;
      first[nseen++] = (uint32_t)i;
    }
    if (k < 16)
      threads[k]++;
  }
  for (int k = 0; k < nseen; k++) {
    const ts_hazard *e = &h[first[k]];
    int cx = (int)(e->consumer % (uint32_t)ps->tw), cy = (int)(e->consumer / (uint32_t)ps->tw);
    char what[64];
    vec_words(seen_dx[k], seen_dy[k], what, sizeof what);
    int in_pattern = 0;
    for (int j = 0; j < npv; j++)
      in_pattern |= pv[j].dx == seen_dx[k] && pv[j].dy == seen_dy[k];
    const ts_thread *c = &ps->t[e->consumer], *p = &ps->t[e->producer];
    if (in_pattern)
      say(v, "(%d,%d) dropped: thread (%d,%d) reads the sums of %s, but your walk dispatches "
             "that thread after it (dispatch %u, after %u), and the hardware keeps no "
             "scoreboard entry for a thread not yet dispatched: it started at tick %" PRId64
             ", before its producer ended at tick %" PRId64 " (%zu threads read too early this way)",
          seen_dx[k], seen_dy[k], cx, cy, what, p->dispatch, c->dispatch, c->start_tick,
          p->end_tick, threads[k]);
    else
      say(v, "(%d,%d) missing: thread (%d,%d) reads the sums of %s, and started at tick %" PRId64
             " before that thread ended at tick %" PRId64 ": your pattern does not make it wait "
             "(%zu threads read too early this way)",
          seen_dx[k], seen_dy[k], cx, cy, what, c->start_tick, p->end_tick, threads[k]);
  }
}

int check_schedule(const lesson *l, const char *path, const ts_image *in, verdict *v)
{
  ts_pattern pat = TS_PAT_WAVEFRONT;
  ts_walk walk = TS_WALK_WAVEFRONT;
  int have_walk = 0;
  if (!read_schedule(path, l->kind == KIND_PATTERN, &pat, &walk, &have_walk))
    return EXIT_USAGE;
  ts_run_params p = { .variant = ts_variant_find("integral") };
  if (!p.variant) {
    fprintf(stderr, "tilescope lesson: no integral variant in this build\n");
    return EXIT_USAGE;
  }
  p.sched.pattern = pat;
  p.sched.walk = have_walk ? walk : ts_pattern_default_walk(pat);
  p.sched.slots = TS_SLOTS_DEFAULT;
  ts_run_params_resolve(&p);
  ts_error err = { 0 };
  ts_run *run = NULL;
  const ts_image *unused = NULL;
  const uint32_t *want = NULL;
  int rc = EXIT_USAGE;
  if (ts_run_create(in, &p, &run, &err) != TS_OK || ts_run_seek(run, INT64_MAX, &err) != TS_OK ||
      ts_run_reference(run, &unused, &want, &err) != TS_OK) {
    fprintf(stderr, "tilescope lesson: %s\n", err.msg);
    goto out;
  }
  rc = EXIT_DIFF;
  say_hazards(v, run);
  const ts_sched *s = ts_run_sched(run);
  const ts_pass_sched *ps = &s->pass[0];
  const ts_kctx *k = ts_run_kctx(run);
  if (l->kind == KIND_PATTERN) {
    /* the pattern advice (ts_run_advice): a vector left out with the others ordering every
     * read all the same costs ticks for nothing; one that costs none (the wavefront's
     * (-1,-1), ordered through the other two anyway) is no mistake */
    ts_advice a;
    if (ts_run_advice(run, &a, &err) != TS_OK) {
      fprintf(stderr, "tilescope lesson: %s\n", err.msg);
      rc = EXIT_USAGE;
      goto out;
    }
    for (int j = 0; j < a.nunneeded; j++) {
      const ts_advice_vec *u = &a.unneeded[j];
      if (u->ticks_with <= u->ticks_without)
        continue;
      int read = 0;
      for (int i = 0; i < a.nread; i++)
        read |= a.read[i].v.dx == u->v.dx && a.read[i].v.dy == u->v.dy;
      char what[64];
      vec_words(u->v.dx, u->v.dy, what, sizeof what);
      say(v, "(%d,%d) unneeded: %s %s, yet each thread waits for it; it costs %" PRId64
             " ticks (%" PRId64 " with it, %" PRId64 " without)",
          u->v.dx, u->v.dy, read ? "your other waits already order the reads of"
                                 : "no thread reads what is written by",
          what, u->ticks_with - u->ticks_without, u->ticks_with, u->ticks_without);
    }
  } else {
    /* the waits alone allow (deepest wave + 1) x cost ticks; a walk that fills the slots
     * with threads far ahead of the wave takes more */
    int32_t deepest = 0;
    for (uint32_t i = 0; i < ps->n; i++)
      deepest = ps->t[i].depth > deepest ? ps->t[i].depth : deepest;
    int64_t bound = ((int64_t)deepest + 1) * ps->cost;
    size_t nh;
    ts_run_hazards(run, &nh);
    if (nh == 0 && s->length > bound) {
      /* against the pattern's own walk, on the same slots: the first tick it runs fewer
       * threads, and its mean (tick 0 looks alike under every walk: one thread runs) */
      ts_run_params q = p;
      q.sched.walk = ts_pattern_default_walk(pat);
      ts_run *good = NULL;
      ts_error e2 = { 0 };
      const ts_sched *gs = NULL;
      if (ts_run_create(in, &q, &good, &e2) == TS_OK)
        gs = ts_run_sched(good);
      int64_t at = -1;
      uint32_t mine = 0, theirs = 0;
      for (int64_t t = 0; gs && at < 0 && t < s->length && t < gs->length; t++) {
        uint32_t res, r1, r2;
        ts_sched_occupancy(s, t, &res, &r1);
        ts_sched_occupancy(gs, t, &res, &r2);
        if (r1 < r2) {
          at = t;
          mine = r1;
          theirs = r2;
        }
      }
      if (at >= 0)
        /* (the walk that does better is the lesson's answer: not named) */
        say(v, "your walk takes %" PRId64 " ticks where the waits allow %" PRId64 ": from tick %"
               PRId64 " it runs fewer threads than the waits allow (%u against %u; %.1f a tick "
               "on average against %.1f), its slots held by threads far ahead of the wave; "
               "dispatch them in the order the wave reaches them",
            s->length, bound, at, mine, theirs, ts_sched_mean_running(s),
            ts_sched_mean_running(gs));
      else
        say(v, "your walk takes %" PRId64 " ticks where the waits allow %" PRId64 ": its slots "
               "are held by threads far ahead of the wave; dispatch them in the order the wave "
               "reaches them", s->length, bound);
      ts_run_destroy(good);
    }
  }
  const uint32_t *got = ts_run_output_u32(run);
  size_t n = (size_t)k->W * (size_t)k->H, bad = 0, firstbad = n;
  for (size_t i = 0; got && i < n; i++)
    if (got[i] != want[i] && bad++ == 0)
      firstbad = i;
  if (bad)
    say(v, "the integral image comes out wrong at %zu pixels, first at (%zu,%zu): %u where it "
           "should be %u",
        bad, firstbad % (size_t)k->W, firstbad / (size_t)k->W, got[firstbad], want[firstbad]);
  if (v->n == 0)
    snprintf(v->more, sizeof v->more, "pattern %s, walk %s: no hazard, %" PRId64 " ticks, and "
             "the sums equal the reference", ts_pattern_name(pat), ts_walk_name(p.sched.walk),
             s->length);
out:
  ts_run_destroy(run);
  return rc;
}

/* ---- a dialect kernel in one launch: lesson 6 ---- */

/* The reads of the output that no chain of waits orders after their writer, from what the
 * threads were observed to read of `committed` and who last wrote each element. */
static void say_races(verdict *v, const ts_run *run, const ts_observe *ob, ts_error *err)
{
  const ts_sched *s = ts_run_sched(run);
  const ts_pass_sched *ps = &s->pass[0];
  const ts_obs_pass *op = ts_observe_pass(ob, 0);
  uint32_t *stamp = calloc(ps->n, sizeof *stamp), *stack = malloc(ps->n * sizeof *stack);
  if (!stamp || !stack || !op) {
    ts_fail(err, TS_ERR_NOMEM, "out of memory");
    free(stamp);
    free(stack);
    return;
  }
  size_t races = 0, threads = 0;
  int vdx[8], vdy[8], nv = 0; /* the vectors said so far: the first race of each is said */
  uint32_t mark = 0;
  int cols = op->cols[TS_ROLE_DST];
  for (uint32_t d = 0; d < ps->n; d++) {
    uint32_t c = ps->order[d], prods[32];
    int np = 0;
    const ts_obs_acc *a = ts_obs_at(op, c, TS_ROLE_COMMITTED, TS_ACC_READ);
    for (int y = a->seen.y0; y <= a->seen.y1 && a->count; y++)
      for (int x = a->seen.x0; x <= a->seen.x1; x++) {
        uint32_t w = op->last[(size_t)y * (size_t)cols + (size_t)x];
        if (w == 0 || w - 1 == c)
          continue;
        int dup = 0;
        for (int i = 0; i < np; i++)
          dup |= prods[i] == w - 1;
        if (!dup && np < 32)
          prods[np++] = w - 1;
      }
    size_t mine = 0;
    for (int i = 0; i < np; i++) {
      if (ts_sched_ordered(s, 0, prods[i], c, stamp, stack, &mark))
        continue;
      mine++;
      int cx = (int)(c % (uint32_t)ps->tw), cy = (int)(c / (uint32_t)ps->tw);
      int px = (int)(prods[i] % (uint32_t)ps->tw), py = (int)(prods[i] / (uint32_t)ps->tw);
      int k = 0;
      while (k < nv && (vdx[k] != px - cx || vdy[k] != py - cy))
        k++;
      if (k < nv || nv == 8)
        continue;
      vdx[nv] = px - cx;
      vdy[nv++] = py - cy;
      char what[64];
      vec_words(px - cx, py - cy, what, sizeof what);
      /* what the pattern waits for, in the same words (vertical waits for the block to the
       * left: its name says how the waves run, not where the wait is) */
      const ts_vec *wv = NULL;
      int nw = ts_pattern_vectors(s->params.pattern, &wv);
      char waits[160] = "";
      for (int j = 0; j < nw && strlen(waits) < sizeof waits - 40; j++) {
        char wd[64];
        vec_words(wv[j].dx, wv[j].dy, wd, sizeof wd);
        snprintf(waits + strlen(waits), sizeof waits - strlen(waits), "%s%s",
                 j == 0 ? "" : j + 1 == nw ? " and " : ", ", wd);
      }
      say(v, "thread (%d,%d) reads the sums of thread (%d,%d), %s, but no wait of your "
             "pattern (%s, which waits for %s) orders them: in one launch it may read them "
             "before they are written",
          cx, cy, px, py, what, ts_pattern_name(s->params.pattern), nw ? waits : "nothing");
    }
    races += mine;
    threads += mine > 0;
  }
  if (races)
    say(v, "%zu reads race in all, in %zu of %u threads", races, threads, ps->n);
  free(stamp);
  free(stack);
}

int check_scoreboard(const char *path, const ts_image *in, int device, verdict *v)
{
  ts_error err = { 0 };
  ts_variant *uv = NULL;
  ts_run *run = NULL, *dev = NULL;
  ts_observe *ob = NULL;
  ts_obs_report rep = { 0 };
  ts_run_params p = { 0 };
  int rc = EXIT_USAGE;
  if (ts_user_load(path, &uv, &err) != TS_OK) {
    fprintf(stderr, "tilescope lesson: %s\n", err.msg);
    return EXIT_USAGE;
  }
  if (uv->filter != TS_FILTER_INTEGRAL || uv->unchecked || uv->npasses != 1) {
    say(v, "the lesson's kernel computes the integral image in one pass: its header says "
           "equals=integral and has one `pass` line");
    ts_user_free(uv);
    return EXIT_DIFF;
  }
  if (ts_variant_add(uv, &err) != TS_OK) {
    fprintf(stderr, "tilescope lesson: %s: %s\n", path, err.msg);
    ts_user_free(uv);
    return EXIT_USAGE;
  }
  const char *kdir = paths_kernels_dir(NULL);
  if (!kdir)
    return EXIT_USAGE;
  p.variant = uv;
  p.sched.pattern = uv->pattern;
  p.sched.walk = ts_pattern_default_walk(uv->pattern);
  p.sched.slots = TS_SLOTS_DEFAULT;
  ts_run_params_resolve(&p);
  if (ts_cl_create(device, kdir, &p.cl, &err) != TS_OK) {
    fprintf(stderr, "tilescope lesson: %s\n", err.msg);
    return EXIT_USAGE;
  }
  /* what each thread reads, observed in the simulated order */
  if (ts_run_create(in, &p, &run, &err) != TS_OK || ts_observe_run(run, -1, -1, &ob, &err) != TS_OK ||
      ts_observe_check(ob, run, 4, &rep, &err) != TS_OK) {
    cli_report_run_error("lesson", path, &err, &p);
    goto out;
  }
  rc = EXIT_DIFF;
  say_races(v, run, ob, &err);
  if (err.code) {
    fprintf(stderr, "tilescope lesson: %s\n", err.msg);
    rc = EXIT_USAGE;
    goto out;
  }
  for (size_t i = 0; i < rep.nfindings; i++) {
    const ts_obs_finding *f = &rep.findings[i];
    if (f->kind != TS_OBS_OUT_OF_BUFFER && f->kind != TS_OBS_CONFLICT)
      continue; /* the dialect declares no reads of the output; those are the races above */
    char line[600];
    ts_obs_finding_line(run, f, line, sizeof line);
    say(v, "%s", line);
  }
  /* then in one launch, as the device runs it */
  ts_run_params dp = p;
  dp.exec_device = 1;
  ts_dev_opts dopts = { .record = 0, .stuck = -1 };
  if (ts_run_create(in, &dp, &dev, &err) != TS_OK) {
    cli_report_run_error("lesson", path, &err, &dp);
    rc = EXIT_USAGE;
    goto out;
  }
  if (ts_run_device(dev, &dopts, &err) != TS_OK) {
    say(v, "in one launch on the device: %s", err.msg);
    goto out;
  }
  const ts_dev_run *dr = ts_run_device_result(dev);
  if (dr && dr->nwrong)
    say(v, "in one launch on the device (%s), %u of %u tiles came out wrong this time", dr->device,
        dr->nwrong, ts_run_sched(dev)->pass[0].n);
  else if (dr && v->n)
    say(v, "in one launch on the device (%s) no tile came out wrong this time, by luck: the "
           "reads above are not ordered, and another run or device may show them",
        dr->device);
  if (v->n == 0)
    snprintf(v->more, sizeof v->more, "pattern %s: every read is ordered by a wait, and in one "
             "launch on %s every tile equals the reference", ts_pattern_name(p.sched.pattern),
             dr ? dr->device : "the device");
out:
  ts_obs_report_free(&rep);
  ts_observe_destroy(ob);
  ts_run_destroy(dev);
  ts_run_destroy(run);
  ts_cl_destroy(p.cl);
  return rc;
}

/* ---- the command ---- */
