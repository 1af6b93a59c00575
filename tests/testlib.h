/* Helpers shared by the variant tests: test images, running a variant, and comparing a
 * run's output with its filter's scalar reference (printing the first mismatch). */
#ifndef TS_TESTLIB_H
#define TS_TESTLIB_H

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ts_ref.h"
#include "ts_run.h"

static inline ts_image *random_image(int w, int h, int c)
{
  ts_image *im = NULL;
  ts_image_create(w, h, c, &im, NULL);
  /* Half noise, half smooth ramps, so both extremes of every sum occur. */
  for (size_t i = 0; i < (size_t)w * h * c; i++)
    im->data[i] = (i / (size_t)c) % 2 ? (uint8_t)check_rand(256) : (uint8_t)(i * 7 % 256);
  if (w * h > 4)
    memset(im->data, 255, (size_t)c * 3); /* saturated corner */
  return im;
}

/* Runs variant v on img to the end (or `tick`) and returns the run. */
/* The back end run_variant uses: NULL for the CPU model. */
static ts_cl *testlib_cl;

static inline ts_run *run_variant(const ts_image *img, const ts_variant *v, ts_pattern pat,
                                  ts_walk walk, int slots, int cost, int ksize, double sigma,
                                  int64_t tick)
{
  ts_run_params p = { .variant = v, .sched = { pat, walk, slots }, .cost = cost,
                      .ksize = ksize, .sigma = sigma, .cl = testlib_cl };
  ts_run *run = NULL;
  ts_error err = { 0 };
  CHECK(ts_run_create(img, &p, &run, &err) == TS_OK, "%s: %s", v->name, err.msg);
  if (run)
    CHECK(ts_run_seek(run, tick, &err) == TS_OK, "%s: %s", v->name, err.msg);
  return run;
}

/* Compares the run's output with the reference; returns the number of differing values. */
static inline size_t compare_to_ref(const ts_run *run, const ts_image *img, const char *what,
                                    int report)
{
  const ts_run_params *p = ts_run_params_of(run);
  const ts_kctx *k = ts_run_kctx(run);
  size_t bad = 0;
  if (p->variant->filter == TS_FILTER_INTEGRAL) {
    uint32_t *ref = NULL;
    ts_ref_integral(img, &ref, NULL);
    const uint32_t *got = ts_run_output_u32(run);
    for (int y = 0; y < img->h; y++)
      for (int x = 0; x < img->w; x++) {
        size_t i = (size_t)y * img->w + x;
        if (got[i] != ref[i] && bad++ == 0 && report)
          CHECK(0, "%s: (%d,%d) is %u, reference %u", what, x, y, got[i], ref[i]);
      }
    free(ref);
    return bad;
  }
  ts_image *ref = NULL;
  if (p->variant->filter == TS_FILTER_BOX3)
    ts_ref_box3(img, &ref, NULL);
  else
    ts_ref_gauss(img, p->ksize, p->sigma, &ref, NULL);
  const uint8_t *got = k->buf[TS_BUF_OUT].data;
  for (int y = 0; y < img->h; y++)
    for (int x = 0; x < img->w; x++)
      for (int c = 0; c < img->c; c++) {
        size_t i = ((size_t)y * img->w + x) * img->c + c;
        if (got[i] != ref->data[i] && bad++ == 0 && report)
          CHECK(0, "%s: (%d,%d) channel %d is %d, reference %d", what, x, y, c, got[i],
                ref->data[i]);
      }
  ts_image_destroy(ref);
  return bad;
}

#endif
