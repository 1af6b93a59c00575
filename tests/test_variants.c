/* Every variant's CPU model against its filter's scalar reference, bit for bit, on grey,
 * RGB and RGBA images of awkward sizes, under default and random schedules; the integral
 * image's hazards; the look-back variants over many tiles; the output at intermediate ticks;
 * the integral image's grey as the viewer draws it. A mismatch prints its coordinates. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "testlib.h"

static void all_variants_exact(void)
{
  static const int fixed[][2] = { { 1, 1 }, { 1, 6 }, { 7, 1 }, { 2, 2 }, { 17, 13 },
                                  { 24, 6 }, { 33, 19 }, { 50, 47 } };
  const int nfixed = (int)(sizeof fixed / sizeof fixed[0]);
  static const int chans[] = { 1, 3, 4 };
  for (int trial = 0; trial < nfixed + 6; trial++) {
    int w = trial < nfixed ? fixed[trial][0] : 1 + (int)check_rand(90);
    int h = trial < nfixed ? fixed[trial][1] : 1 + (int)check_rand(70);
    for (int ci = 0; ci < 3; ci++) {
      ts_image *img = random_image(w, h, chans[ci]);
      for (int vi = 0; vi < ts_variant_count(); vi++) {
        const ts_variant *v = ts_variant_at(vi);
        char what[128];
        snprintf(what, sizeof what, "%s %dx%dx%d default schedule", v->name, w, h, chans[ci]);
        ts_run *run = run_variant(img, v, v->pattern, ts_pattern_default_walk(v->pattern), 168,
                                  0, 0, 0, INT64_MAX);
        if (run) {
          compare_to_ref(run, img, what, 1);
          size_t nh;
          ts_run_hazards(run, &nh);
          CHECK(nh == 0, "%s: %zu hazards", what, nh);
        }
        ts_run_destroy(run);
        /* Filters that read only their input give the same image under any schedule, and
         * so does the integral image wherever the schedule leaves no hazard. */
        ts_pattern pat = (ts_pattern)check_rand(TS_PAT_COUNT);
        ts_walk walk = (ts_walk)check_rand(TS_WALK_COUNT);
        int slots = 1 + (int)check_rand(200), cost = 1 + (int)check_rand(4);
        snprintf(what, sizeof what, "%s %dx%dx%d %s/%s slots %d cost %d", v->name, w, h,
                 chans[ci], ts_pattern_name(pat), ts_walk_name(walk), slots, cost);
        run = run_variant(img, v, pat, walk, slots, cost, 0, 0, INT64_MAX);
        size_t nh = 0;
        if (run)
          ts_run_hazards(run, &nh);
        if (run && (v->filter != TS_FILTER_INTEGRAL || nh == 0))
          compare_to_ref(run, img, what, 1);
        ts_run_destroy(run);
      }
      ts_image_destroy(img);
    }
  }
}

/* The integral variants on images of several bands and strips: integral_band's 256-row
 * bands, its 16-column vectors (a multiple of 16 wide and not), its 4096-column chunks; under
 * the default schedule and random ones (integral_band has no hazard under any). */
static void integral_shapes(void)
{
  static const int sizes[][2] = { { 64, 600 }, { 129, 520 }, { 4100, 70 }, { 4096, 300 },
                                  { 8193, 3 } };
  for (int si = 0; si < (int)(sizeof sizes / sizeof sizes[0]); si++) {
    ts_image *img = random_image(sizes[si][0], sizes[si][1], 1 + 2 * (si % 2));
    for (int vi = 0; vi < ts_variant_count(); vi++) {
      const ts_variant *v = ts_variant_at(vi);
      if (v->filter != TS_FILTER_INTEGRAL || v->pattern != TS_PAT_NONE)
        continue;
      char what[128];
      snprintf(what, sizeof what, "%s %dx%dx%d", v->name, img->w, img->h, img->c);
      ts_run *run = run_variant(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, 168, 0, 0, 0,
                                INT64_MAX);
      if (run)
        compare_to_ref(run, img, what, 1);
      ts_run_destroy(run);
      if (strcmp(v->name, "integral_band") != 0)
        continue;
      ts_pattern pat = (ts_pattern)check_rand(TS_PAT_COUNT);
      ts_walk walk = (ts_walk)check_rand(TS_WALK_COUNT);
      int slots = 1 + (int)check_rand(8);
      snprintf(what, sizeof what, "%s %dx%dx%d %s/%s slots %d", v->name, img->w, img->h,
               img->c, ts_pattern_name(pat), ts_walk_name(walk), slots);
      run = run_variant(img, v, pat, walk, slots, 0, 0, 0, INT64_MAX);
      size_t nh = 1;
      if (run)
        ts_run_hazards(run, &nh);
      CHECK(nh == 0, "%s: %zu hazards", what, nh);
      if (run)
        compare_to_ref(run, img, what, 1);
      ts_run_destroy(run);
    }
    ts_image_destroy(img);
  }
}

/* The look-back variants' CPU model over several of their tiles each way (128x32 and
 * 256x32, and 256-row bands, the last column and row of tiles cut short), grey, RGB and RGBA, under the
 * default schedule and random ones: exact wherever the schedule leaves no hazard. */
static void lookback_shapes(void)
{
  static const int sizes[][2] = { { 300, 70 }, { 129, 33 }, { 257, 97 }, { 1000, 600 },
                                  { 513, 31 } };
  const char *const names[] = { "integral_lookback", "integral_lookback_wide",
                                "integral_lookback_band" };
  for (int si = 0; si < (int)(sizeof sizes / sizeof sizes[0]); si++) {
    ts_image *img = random_image(sizes[si][0], sizes[si][1], (int[]){ 1, 3, 4 }[si % 3]);
    for (int vi = 0; vi < 3; vi++) {
      const ts_variant *v = ts_variant_find(names[vi]);
      char what[128];
      snprintf(what, sizeof what, "%s %dx%dx%d", v->name, img->w, img->h, img->c);
      ts_run *run = run_variant(img, v, v->pattern, ts_pattern_default_walk(v->pattern), 168,
                                0, 0, 0, INT64_MAX);
      if (run)
        CHECK(compare_to_ref(run, img, what, 1) == 0, "%s", what);
      ts_run_destroy(run);
      ts_pattern pat = (ts_pattern)check_rand(TS_PAT_COUNT);
      ts_walk walk = (ts_walk)check_rand(TS_WALK_COUNT);
      snprintf(what, sizeof what, "%s %dx%dx%d %s/%s", v->name, img->w, img->h, img->c,
               ts_pattern_name(pat), ts_walk_name(walk));
      run = run_variant(img, v, pat, walk, 1 + (int)check_rand(20), 0, 0, 0, INT64_MAX);
      size_t nh = 1;
      if (run)
        ts_run_hazards(run, &nh);
      if (run && nh == 0)
        CHECK(compare_to_ref(run, img, what, 1) == 0, "%s", what);
      ts_run_destroy(run);
    }
    ts_image_destroy(img);
  }
}

static void gaussian_sizes(void)
{
  static const struct { int k; double sigma; } cases[] = {
    { 3, 0 }, { 7, 0 }, { 9, 3.5 }, { 15, 0 }, { 15, 0.3 }, { 5, 40.0 } };
  ts_image *img = random_image(37, 29, 3);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int vi = 0; vi < ts_variant_count(); vi++) {
      const ts_variant *v = ts_variant_at(vi);
      if (v->filter != TS_FILTER_GAUSS)
        continue;
      char what[96];
      snprintf(what, sizeof what, "%s k=%d sigma=%g", v->name, cases[i].k, cases[i].sigma);
      ts_run *run = run_variant(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, 168, 0, cases[i].k,
                                cases[i].sigma, INT64_MAX);
      if (run)
        compare_to_ref(run, img, what, 1);
      ts_run_destroy(run);
    }
  ts_image_destroy(img);
  /* The weights are a proper fixed-point kernel. */
  for (int k = 3; k <= 15; k += 2) {
    uint32_t w[TS_GAUSS_MAX_K], sum = 0;
    CHECK(ts_gauss_weights(k, 0, w, NULL) == TS_OK, "weights k=%d", k);
    for (int i = 0; i < k; i++)
      sum += w[i];
    CHECK(sum == 256, "k=%d weights sum to %u", k, sum);
    CHECK(w[k / 2] >= w[0] && w[0] == w[k - 1], "k=%d weights not symmetric", k);
  }
  /* Symmetric at every sigma too: gauss_stream adds the pixels at -i and +i before one
   * multiply by w[r - i]. */
  for (int k = 3; k <= 15; k += 2)
    for (double sigma = 0.05; sigma < 100.0; sigma *= 1.7) {
      uint32_t w[TS_GAUSS_MAX_K];
      CHECK(ts_gauss_weights(k, sigma, w, NULL) == TS_OK, "weights k=%d sigma=%g", k, sigma);
      for (int i = 0; i < k; i++)
        CHECK(w[i] == w[k - 1 - i], "k=%d sigma=%g: w[%d] %u, w[%d] %u", k, sigma, i, w[i],
              k - 1 - i, w[k - 1 - i]);
    }
  uint32_t w[TS_GAUSS_MAX_K];
  CHECK(ts_gauss_weights(4, 0, w, NULL) == TS_ERR_ARG, "even size accepted");
  CHECK(ts_gauss_weights(17, 0, w, NULL) == TS_ERR_ARG, "size 17 accepted");
}

static void integral_hazards(void)
{
  const ts_variant *v = ts_variant_find("integral");
  ts_image *img = random_image(203, 150, 3); /* 13 x 10 threads */
  /* Exact and hazard-free under the wavefront patterns, on their walks. */
  ts_pattern good[] = { TS_PAT_WAVEFRONT, TS_PAT_WAVEFRONT26 };
  for (int i = 0; i < 2; i++) {
    ts_run *run = run_variant(img, v, good[i], ts_pattern_default_walk(good[i]), 168, 0, 0, 0,
                              INT64_MAX);
    size_t nh;
    ts_run_hazards(run, &nh);
    CHECK(nh == 0, "integral under %s: %zu hazards", ts_pattern_name(good[i]), nh);
    CHECK(compare_to_ref(run, img, "integral wavefront", 1) == 0, "integral wrong");
    ts_run_destroy(run);
  }
  /* No pattern, 168 slots: every block starts at tick 0 and reads zeros. */
  ts_run *run = run_variant(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, 168, 0, 0, 0, INT64_MAX);
  size_t nh;
  const ts_hazard *h = ts_run_hazards(run, &nh);
  CHECK(nh > 100 && ts_run_hazardous_threads(run) == 129, "none: %zu hazards in %zu threads", nh,
        ts_run_hazardous_threads(run));
  size_t bad = compare_to_ref(run, img, "integral none", 0);
  CHECK(bad > (size_t)img->w * img->h * 9 / 10, "none: only %zu wrong values", bad);
  /* Named producer and consumer: thread (1,0) read what (0,0) writes. */
  int found = 0;
  for (size_t i = 0; i < nh; i++)
    found |= h[i].consumer == 1 && h[i].producer == 0;
  CHECK(found, "hazard (0,0) -> (1,0) not reported");
  ts_run_destroy(run);
  /* One slot serialises the horizontal walk: no hazard even without a pattern. */
  run = run_variant(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, 1, 0, 0, 0, INT64_MAX);
  ts_run_hazards(run, &nh);
  CHECK(nh == 0 && compare_to_ref(run, img, "integral serial", 1) == 0, "serial integral");
  ts_run_destroy(run);
  /* A walk that issues producers after their consumers drops those dependencies. */
  run = run_variant(img, v, TS_PAT_WAVEFRONT, TS_WALK_WAVEFRONT26ZI, 168, 0, 0, 0, INT64_MAX);
  ts_run_hazards(run, &nh);
  CHECK(nh > 0, "wavefront pattern on the wavefront26zi walk: no hazards");
  CHECK(compare_to_ref(run, img, "dropped", 0) > 0, "dropped dependency left the image right");
  ts_run_destroy(run);
  /* A pattern too weak for the kernel: only the row above is waited for. */
  run = run_variant(img, v, TS_PAT_HORIZONTAL, TS_WALK_HORIZONTAL, 168, 0, 0, 0, INT64_MAX);
  ts_run_hazards(run, &nh);
  CHECK(nh > 0 && compare_to_ref(run, img, "weak", 0) > 0, "horizontal pattern: no hazard");
  ts_run_destroy(run);
  ts_image_destroy(img);
}

/* At tick T the output holds exactly the tiles of threads that ended at or before T. */
/* The races a device run would have (SPEC section 8): a read is ordered only through a chain
 * of waits. Checked against the transitive closure of the wait graph, built here by brute
 * force, under random walks and patterns; every hazard is a race (the simulator starts a
 * thread only after everything it is ordered after), and the one case the ticks hide:
 * wavefront26x orders a tile's left neighbour through the tile below, which the last row
 * of tiles lacks. */
static void integral_races(void)
{
  const ts_variant *v = ts_variant_find("integral");
  for (int trial = 0; trial < 30; trial++) {
    int w = 1 + (int)check_rand(150), h = 1 + (int)check_rand(120);
    ts_image *img = random_image(w, h, 1);
    ts_pattern pat = (ts_pattern)check_rand(TS_PAT_COUNT);
    ts_walk walk = (ts_walk)check_rand(TS_WALK_COUNT);
    ts_run *run = run_variant(img, v, pat, walk, 1 + (int)check_rand(50), 0, 0, 0, 0);
    const ts_sched *s = ts_run_sched(run);
    const ts_pass_sched *ps = &s->pass[0];
    uint32_t n = ps->n, words = (n + 63) / 64;
    uint64_t *anc = calloc((size_t)n * words, sizeof *anc);
    for (uint32_t d = 0; d < n; d++) { /* dispatch order: producers before waiters */
      uint32_t id = ps->order[d], tg[TS_PATTERN_MAX_VECTORS];
      int nw = ts_sched_waits(s, 0, id, tg);
      for (int i = 0; i < nw; i++) {
        anc[(size_t)id * words + tg[i] / 64] |= 1ull << (tg[i] % 64);
        for (uint32_t k = 0; k < words; k++)
          anc[(size_t)id * words + k] |= anc[(size_t)tg[i] * words + k];
      }
    }
    size_t nr, nh;
    const ts_hazard *r = ts_run_races(run, &nr), *hz = ts_run_hazards(run, &nh);
    for (size_t i = 0; i < nr; i++)
      CHECK(!(anc[(size_t)r[i].consumer * words + r[i].producer / 64] >> (r[i].producer % 64) & 1),
            "%dx%d %s/%s: race %u <- %u is ordered", w, h, ts_pattern_name(pat),
            ts_walk_name(walk), r[i].consumer, r[i].producer);
    for (size_t i = 0; i < nh; i++) {
      int found = 0;
      for (size_t j = 0; j < nr; j++)
        found |= r[j].consumer == hz[i].consumer && r[j].producer == hz[i].producer;
      CHECK(found, "%dx%d %s/%s: hazard %u <- %u is no race", w, h, ts_pattern_name(pat),
            ts_walk_name(walk), hz[i].consumer, hz[i].producer);
    }
    /* Every neighbour the integral reads (left, up, up-left) is a race or ordered. */
    size_t reads = 0, ordered = 0;
    for (uint32_t id = 0; id < n; id++)
      for (int k = 0; k < 3; k++) {
        int tx = (int)(id % (uint32_t)ps->tw) - (k != 1), ty = (int)(id / (uint32_t)ps->tw) - (k != 0);
        if (tx < 0 || ty < 0)
          continue;
        uint32_t p = (uint32_t)ty * (uint32_t)ps->tw + (uint32_t)tx;
        reads++;
        ordered += anc[(size_t)id * words + p / 64] >> (p % 64) & 1;
      }
    CHECK(reads == ordered + nr, "%dx%d %s/%s: %zu reads, %zu ordered, %zu races", w, h,
          ts_pattern_name(pat), ts_walk_name(walk), reads, ordered, nr);
    free(anc);
    ts_run_destroy(run);
    ts_image_destroy(img);
  }
  ts_image *img = random_image(50, 47, 1); /* 4 x 3 threads */
  ts_run *run = run_variant(img, v, TS_PAT_WAVEFRONT26X, TS_WALK_WAVEFRONT26X, 168, 0, 0, 0,
                            INT64_MAX);
  size_t nr, nh;
  const ts_hazard *r = ts_run_races(run, &nr);
  ts_run_hazards(run, &nh);
  CHECK(nh == 0 && nr == 3, "wavefront26x on 4x3: %zu hazards, %zu races", nh, nr);
  for (size_t i = 0; i < nr; i++)
    CHECK(r[i].consumer / 4 == 2 && r[i].producer == r[i].consumer - 1,
          "wavefront26x race %u <- %u is not a last-row left neighbour", r[i].consumer,
          r[i].producer);
  ts_run_destroy(run);
  run = run_variant(img, v, TS_PAT_WAVEFRONT, TS_WALK_WAVEFRONT, 168, 0, 0, 0, INT64_MAX);
  ts_run_races(run, &nr);
  CHECK(nr == 0, "wavefront: %zu races", nr);
  ts_run_destroy(run);
  ts_image_destroy(img);
}

static void stepping(void)
{
  ts_image *img = random_image(70, 45, 3);
  const char *names[] = { "box2d", "linearslide", "transpose2pass", "integral" };
  for (int ni = 0; ni < 4; ni++) {
    const ts_variant *v = ts_variant_find(names[ni]);
    ts_run *full = run_variant(img, v, v->pattern, ts_pattern_default_walk(v->pattern), 5, 2, 0,
                               0, INT64_MAX);
    ts_run *run = run_variant(img, v, v->pattern, ts_pattern_default_walk(v->pattern), 5, 2, 0, 0,
                              0);
    const ts_sched *s = ts_run_sched(run);
    const ts_kctx *k = ts_run_kctx(run), *kf = ts_run_kctx(full);
    int last = v->npasses - 1;
    const ts_pass_desc *pd = &v->passes[last];
    const ts_buf *b = &k->buf[pd->dst];
    size_t es = (size_t)b->esize;
    for (int64_t t = 0; t <= s->length; t += 1 + t / 3) {
      ts_run_seek(run, t, NULL);
      CHECK(ts_run_tick(run) == t, "%s: tick %lld", v->name, (long long)t);
      uint8_t *expect = calloc((size_t)b->cols * b->rows, es);
      const ts_pass_sched *ps = &s->pass[last];
      for (uint32_t id = 0; id < ps->n; id++) {
        if (ps->t[id].end_tick > t)
          continue;
        ts_rect r = pd->write_rect(k, (int)(id % (uint32_t)ps->tw), (int)(id / (uint32_t)ps->tw));
        for (int y = r.y; y < r.y + r.h; y++)
          memcpy(expect + ((size_t)y * b->cols + r.x) * es,
                 kf->buf[pd->dst].data + ((size_t)y * b->cols + r.x) * es, (size_t)r.w * es);
      }
      CHECK(memcmp(expect, b->data, (size_t)b->cols * b->rows * es) == 0,
            "%s: output at tick %lld is not the committed tiles", v->name, (long long)t);
      free(expect);
    }
    /* Seeking back replays: the same tick gives the same bytes. */
    ts_run_seek(run, s->length, NULL);
    CHECK(compare_to_ref(run, img, "seek end", 1) == 0, "%s: end after stepping", v->name);
    ts_run_seek(run, 1, NULL);
    ts_run_seek(run, s->length, NULL);
    CHECK(compare_to_ref(run, img, "seek back", 1) == 0, "%s: end after seeking back", v->name);
    ts_run_destroy(run);
    ts_run_destroy(full);
  }
  ts_image_destroy(img);
}

/* The integer scale of the box kernels that work in 16-bit lanes (box_scale16 in
 * kernels/common.cl): (S * 58196) >> 19 equals the reference's trunc(float(S) * 0.111f)
 * for every sum of nine bytes, S = 0 .. 2295, each the centre of a 3 x 3 image. */
static void box_scale_integer(void)
{
  int bad = 0;
  for (uint32_t s = 0; s <= 9 * 255; s++) {
    ts_image *img = NULL, *ref = NULL;
    CHECK(ts_image_create(3, 3, 1, &img, NULL) == TS_OK, "image");
    if (!img)
      return;
    for (uint32_t i = 0, left = s; i < 9; i++, left -= img->data[i - 1])
      img->data[i] = (uint8_t)(left < 255 ? left : 255);
    CHECK(ts_ref_box3(img, &ref, NULL) == TS_OK, "reference");
    if (ref && ref->data[4] != (uint8_t)((s * 58196u) >> 19) && bad++ < 5)
      CHECK(0, "sum %u: (S * 58196) >> 19 is %u, the reference %u", s, (s * 58196u) >> 19,
            ref->data[4]);
    ts_image_destroy(ref);
    ts_image_destroy(img);
  }
}

/* The integral image's grey, as the viewer draws it (a reciprocal and a correction instead
 * of a division), against the division, at the edges of each scale and at random. */
static void integral_grey(void)
{
  static const uint32_t scales[] = { 0, 1, 2, 3, 255, 256, 1000, 65535, 123456789, 999999937u,
                                     2147483648u, 4294967295u };
  enum { N = 512 };
  uint32_t sums[N];
  uint8_t grey[N];
  for (size_t si = 0; si < sizeof scales / sizeof scales[0]; si++)
    for (int rep = 0; rep < 64; rep++) {
      uint64_t mx = scales[si] ? scales[si] : 1;
      for (uint32_t i = 0; i < N; i++) {
        uint32_t r = check_rand(65536) << 16 | check_rand(65536);
        sums[i] = i < 32 ? i : i < 64 ? (uint32_t)(mx - 32 + i - 32) : rep % 2 ? r : r % (uint32_t)mx;
      }
      ts_integral_grey(sums, N, scales[si], grey);
      for (uint32_t i = 0; i < N; i++) {
        uint64_t v = sums[i];
        uint8_t want = (uint8_t)(((v < mx ? v : mx) * 255u + mx / 2) / mx);
        CHECK(grey[i] == want, "grey of %u at scale %u is %u, not %u", sums[i], scales[si],
              grey[i], want);
      }
    }
}

int main(void)
{
  box_scale_integer();
  all_variants_exact();
  gaussian_sizes();
  integral_shapes();
  lookback_shapes();
  integral_hazards();
  integral_races();
  stepping();
  integral_grey();
  return check_exit("test_variants");
}
