/* The queries of a scene and of a run's data (scene.h), shared by the drawing and the
 * viewer's input and scripts, so that what is drawn and what a click or a script finds are
 * worked out once: image points on screen, tiles, the values and the observed writer of an
 * output pixel, the device's records and states, the overlay's names. None changes
 * anything. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "scene.h"

const char *overlay_name(overlay_mode m, int device)
{
  static const char *const names[2][OV_COUNT] = {
    { "none", "state", "order", "depth", "slot", "observed" },
    { "none", "state", "order", "wait", "unit", "observed" } };
  return (unsigned)m < OV_COUNT ? names[device != 0][m] : "?";
}

int overlay_parse(const char *s, overlay_mode *m)
{
  for (int d = 0; d < 2; d++)
    for (int i = 0; i < OV_COUNT; i++)
      if (strcmp(s, overlay_name((overlay_mode)i, d)) == 0) {
        *m = (overlay_mode)i;
        return 1;
      }
  return 0;
}

int vw_dev_state(const ts_dev_run *d, int p, const ts_grec *g, uint64_t t)
{
  if (d->pass[p].lookback)
    return t < g->start ? TS_STATE_PENDING : t < g->published ? TS_STATE_RUNNING
                        : t < g->end ? VW_DEV_PUBLISHED : TS_STATE_DONE;
  return t < g->start ? TS_STATE_PENDING : t < g->waited ? TS_STATE_WAITING
                      : t < g->end ? TS_STATE_RUNNING : TS_STATE_DONE;
}

int vw_dev_has_units(const ts_dev_run *d)
{
  return d->pass[0].n > 0 && d->pass[0].rec[0].unit >= 0;
}

ts_rect vw_tile_of(const ts_run *run, int pass, int tx, int ty)
{
  const ts_pass_desc *pd = &ts_run_params_of(run)->variant->passes[pass];
  return pd->tile_px(ts_run_kctx(run), tx, ty);
}

int vw_out_px_bytes(const ts_kctx *k)
{
  return k->buf[TS_BUF_OUT].esize == 4 ? 4 : k->C;
}

int vw_observed_writer(const vw_obs *o, const ts_run *run, int p, float x, float y, int *pass,
                       uint32_t *id)
{
  if (!o || x < 0 || y < 0)
    return -1;
  const ts_obs_pass *op = ts_observe_pass(o->ob, p);
  const ts_kctx *k = ts_run_kctx(run);
  int px = (int)x, py = (int)y;
  /* Only an output in the image's own layout (not a transposed intermediate). */
  if (!op || op->buf[TS_ROLE_DST] != TS_BUF_OUT || px >= k->W || py >= k->H ||
      op->cols[TS_ROLE_DST] % k->W != 0)
    return -1;
  int per = op->cols[TS_ROLE_DST] / k->W;
  for (int c = 0; c < per; c++) {
    uint32_t w = op->last[(size_t)py * (size_t)op->cols[TS_ROLE_DST] + (size_t)px * (size_t)per + (size_t)c];
    if (w && w - 1 < op->n) {
      *pass = p;
      *id = w - 1;
      return 1;
    }
  }
  return 0;
}

void scene_to_screen(const vw_scene *s, int pane, float x, float y, float *sx, float *sy)
{
  const vw_rect *p = &s->pane[pane ? 1 : 0];
  *sx = p->x + p->w / 2 + (x - s->cx) * s->zoom;
  *sy = p->y + p->h / 2 + (y - s->cy) * s->zoom;
}

void scene_rect_to_screen(const vw_scene *s, int pane, ts_rect r, float *x, float *y, float *w,
                          float *h)
{
  float x1, y1;
  scene_to_screen(s, pane, (float)r.x, (float)r.y, x, y);
  scene_to_screen(s, pane, (float)(r.x + r.w), (float)(r.y + r.h), &x1, &y1);
  *w = x1 - *x;
  *h = y1 - *y;
}

const uint8_t *scene_out_px(const vw_scene *s, int x, int y)
{
  const ts_kctx *k = s->run ? ts_run_kctx(s->run) : NULL;
  if (!k || x < 0 || y < 0 || x >= k->W || y >= k->H)
    return NULL;
  if (s->dev)
    return s->dev_out + ((size_t)y * (size_t)k->W + (size_t)x) * (size_t)vw_out_px_bytes(k);
  if (!s->vals || x < s->vals_x0 || y < s->vals_y0 || x >= s->vals_x0 + s->vals_w ||
      y >= s->vals_y0 + s->vals_h)
    return NULL;
  return s->vals + ((size_t)(y - s->vals_y0) * (size_t)s->vals_w + (size_t)(x - s->vals_x0)) *
                       (size_t)s->vals_px;
}

const ts_grec *scene_dev_rec(const vw_scene *s, int p, uint32_t id)
{
  return &s->dev->pass[p].rec[s->sched->pass[p].t[id].dispatch];
}

const ts_plain_finding *scene_finding(const vw_scene *s)
{
  const ts_plain_result *r = s->plain ? s->plain->res : NULL;
  if (!r || s->src_finding < 0 || (size_t)s->src_finding >= r->nfindings)
    return NULL;
  return &r->findings[s->src_finding];
}

void scene_obs_why_not(const vw_scene *s, char *buf, size_t n)
{
  const ts_kctx *k = s->run ? ts_run_kctx(s->run) : NULL;
  if (s->obs || !k)
    snprintf(buf, n, "%s", "");
  else if (s->dev)
    snprintf(buf, n, "observation: in the simulated view [d]");
  else if (!s->snap->on_cl)
    snprintf(buf, n, "observation needs the OpenCL back end [b]");
  else if ((int64_t)k->W * k->H > vw_observe_max_px(s->run)) {
    /* the limit in a few characters: the legend draws this on one line */
    int64_t m = vw_observe_max_px(s->run);
    snprintf(buf, n, "observation off: the image is over %s",
             m == VW_OBSERVE_MAX_PX ? "3840x2160" : m == VW_OBSERVE_MAX_PX_GPU ? "7680x4320"
                                                                                : "the limit");
  } else if (s->obs_error[0])
    snprintf(buf, n, "observation failed: %s", s->obs_error);
  else
    snprintf(buf, n, "%s", s->progress[0] ? s->progress : "observing every access...");
}
