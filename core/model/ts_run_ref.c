/* A run's filter reference (see ts_run.h): the scalar reference of its variant's filter
 * (core/variants/ts_ref.c) made from the run's own input, what every check of a run's output
 * compares with: the wrong tiles of a device run, `run`'s output check, `bench`'s. */
#include "ts_ref.h"
#include "ts_run_int.h"

ts_status ts_run_reference(const ts_run *run, ts_image **img, uint32_t **sums, ts_error *err)
{
  const ts_variant *v = run->params.variant;
  const ts_kctx *k = &run->k;
  ts_image in = { .w = k->W, .h = k->H, .c = k->in_c, .data = k->buf[TS_BUF_IN].data };
  *img = NULL;
  *sums = NULL;
  if (v->filter == TS_FILTER_INTEGRAL)
    return ts_ref_integral(&in, sums, err);
  if (v->filter == TS_FILTER_GAUSS)
    return ts_ref_gauss(&in, k->ksize, run->params.sigma, img, err);
  return ts_ref_box3(&in, img, err);
}
