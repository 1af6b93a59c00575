/* The worker's observation of a built-in or dialect run (worker.h): which runs the window
 * observes (the OpenCL back end, up to vw_observe_max_px pixels on the run's device), the
 * observation itself (ts_observe_run and its checks, on the worker's thread, timed for the
 * progress line), and the flags it gives each thread for the overlay. Needs no GL and no
 * lock: the worker calls it on a run it alone touches meanwhile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "worker.h"

void vw_obs_free(vw_obs *o)
{
  if (!o)
    return;
  ts_observe_destroy(o->ob);
  ts_obs_report_free(&o->rep);
  for (int p = 0; p < TS_MAX_PASSES; p++)
    free(o->flags[p]);
  free(o);
}

int64_t vw_observe_max_px(const ts_run *run)
{
  const ts_cl *cl = run ? ts_run_params_of(run)->cl : NULL;
  return cl && strcmp(ts_cl_device(cl)->type, "GPU") == 0 ? VW_OBSERVE_MAX_PX_GPU
                                                           : VW_OBSERVE_MAX_PX;
}

int64_t vw_observe_quick_px(const ts_run *run)
{
  const ts_cl *cl = run ? ts_run_params_of(run)->cl : NULL;
  return cl && strcmp(ts_cl_device(cl)->type, "GPU") == 0 ? (int64_t)3840 * 2160
                                                           : (int64_t)1024 * 1024;
}

int vw_observable(const ts_run *run)
{
  if (!run || !ts_run_params_of(run)->cl)
    return 0;
  const ts_kctx *k = ts_run_kctx(run);
  return (int64_t)k->W * k->H <= vw_observe_max_px(run);
}

/* Flags the threads that the checks found, per pass: reads and writes outside what they
 * declare (or outside a buffer), write conflicts (both writers), observed hazards (the
 * consumer). */
static int flag_threads(vw_obs *o)
{
  for (int p = 0; p < ts_observe_npasses(o->ob); p++) {
    const ts_obs_pass *op = ts_observe_pass(o->ob, p);
    uint8_t *f = o->flags[p] = calloc((size_t)op->n + 1, 1);
    if (!f)
      return 0;
    for (uint32_t id = 0; id < op->n; id++)
      for (int r = 0; r < TS_NROLES; r++)
        for (int kd = 0; kd < 2; kd++)
          if (ts_obs_at(op, id, r, kd)->outside)
            f[id] |= kd == TS_ACC_READ ? VW_OBS_FOOTPRINT : VW_OBS_WRITE;
    if (op->oob && op->oob_tid < op->n)
      f[op->oob_tid] |= op->oob_kind == TS_ACC_READ ? VW_OBS_FOOTPRINT : VW_OBS_WRITE;
    size_t elems = (size_t)op->cols[TS_ROLE_DST] * (size_t)op->rows[TS_ROLE_DST];
    for (size_t e = 0; op->conflicts && e < elems; e++)
      if (op->other[e] && op->other[e] - 1 < op->n && op->last[e] && op->last[e] - 1 < op->n) {
        f[op->other[e] - 1] |= VW_OBS_CONFLICT;
        f[op->last[e] - 1] |= VW_OBS_CONFLICT;
      }
  }
  for (size_t i = 0; i < o->rep.nhazards; i++) {
    const ts_hazard *h = &o->rep.hazards[i];
    if (h->pass >= 0 && h->pass < ts_observe_npasses(o->ob) &&
        h->consumer < ts_observe_pass(o->ob, h->pass)->n)
      o->flags[h->pass][h->consumer] |= VW_OBS_HAZARD;
  }
  for (int p = 0; p < ts_observe_npasses(o->ob); p++)
    for (uint32_t id = 0; id < ts_observe_pass(o->ob, p)->n; id++)
      for (int k = 0; k < VW_OBS_KINDS; k++)
        o->flagged[k] += (o->flags[p][id] >> k) & 1;
  return 1;
}

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

vw_obs *vw_obs_make(ts_run *run, int cx, int cy)
{
  vw_obs *o = calloc(1, sizeof *o);
  if (!o)
    return NULL;
  double t0 = now_ms();
  o->chosen_x = cx;
  o->chosen_y = cy;
  ts_error err = { 0 };
  if (ts_observe_run(run, cx, cy, &o->ob, &err) != TS_OK ||
      ts_observe_check(o->ob, run, 4, &o->rep, &err) != TS_OK) {
    snprintf(o->error, sizeof o->error, "%s", err.msg);
    ts_observe_destroy(o->ob);
    o->ob = NULL;
  } else if (!flag_threads(o)) {
    snprintf(o->error, sizeof o->error, "out of memory for the observation's flags");
    ts_observe_destroy(o->ob);
    o->ob = NULL;
  }
  ts_run_take_kernel_ms(run); /* the observed launches are not the panel's kernel time */
#ifdef __GLIBC__
  /* The observation's buffers are large (two words per output element, twice over) and
   * freed at once; glibc may keep such blocks in the worker's arena, where observations of
   * other sizes fragment it. Hand the free pages back. */
  malloc_trim(0);
#endif
  o->ms = now_ms() - t0;
  return o;
}
