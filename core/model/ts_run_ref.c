/* A run's filter reference (see ts_run.h): the scalar reference of its variant's filter
 * (core/variants/ts_ref.c) made from the run's own input, what every check of a run's output
 * compares with: the wrong tiles of a device run, `run`'s output check, `bench`'s. Made once
 * a run: at 7680x4320 RGB the Gaussian's takes seconds, and `bench` checks some 16 runs. */
#include "ts_ref.h"
#include "ts_run_int.h"

ts_status ts_run_reference(ts_run *run, const ts_image **img, const uint32_t **sums,
                           ts_error *err)
{
  const ts_variant *v = run->params.variant;
  const ts_kctx *k = &run->k;
  *img = NULL;
  *sums = NULL;
  ts_status st = TS_OK;
  if (!run->ref && !run->ref32) {
    if (!k->buf[TS_BUF_IN].data)
      return ts_fail(err, TS_ERR_ARG, "the run's buffers are released: no reference");
    ts_image in = { .w = k->W, .h = k->H, .c = k->in_c, .data = k->buf[TS_BUF_IN].data };
    st = v->filter == TS_FILTER_INTEGRAL ? ts_ref_integral(&in, &run->ref32, err)
         : v->filter == TS_FILTER_GAUSS  ? ts_ref_gauss(&in, k->ksize, run->params.sigma, &run->ref, err)
                                         : ts_ref_box3(&in, &run->ref, err);
  }
  *img = run->ref;
  *sums = run->ref32;
  return st;
}
