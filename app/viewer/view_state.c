/* What the drawing and the input read of the viewer's state, and the layout: the device
 * result and time shown, the pass shown, the thread under a point or in focus, the
 * observation and the values read for drawing, where the panes lie and an image point on
 * screen, the state line scripts check. Nothing here changes the state, and nothing here calls
 * the rest of the viewer or the drawing: both call this. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plain_view.h"
#include "viewer.h"

const int vw_speeds[VW_NSPEEDS] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 };
/* The device view's timeline is taller: groups in flight, then one lane per compute unit. */
enum { PANEL_W = 440, TIMELINE_H = 120, DEV_TIMELINE_H = 250, TITLE_H = 24 };

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

const ts_dev_run *viewer_dev(const viewer *v)
{
  /* The split view's left half is the simulation. */
  if (!v->devview || v->split_side == 1 || !v->have_snap || !v->snap.run || v->dev_run != v->snap.run || !v->dev_raw)
    return NULL;
  const ts_dev_run *d = ts_run_device_result(v->snap.run);
  return d && d->npasses > 0 && d->pass[0].rec ? d : NULL;
}

uint64_t viewer_dev_time(const viewer *v)
{
  const ts_dev_run *d = viewer_dev(v);
  if (!d || v->dev_time < 0 || (uint64_t)v->dev_time > d->t_end)
    return d ? d->t_end : 0;
  return (uint64_t)v->dev_time;
}

/* Bytes of one output pixel's values in the run's buffer. */
int viewer_out_px_bytes(const ts_kctx *k)
{
  return k->buf[TS_BUF_OUT].esize == 4 ? 4 : k->C;
}

int viewer_vals_cover(const viewer *v, int x0, int y0, int x1, int y1)
{
  return v->have_snap && v->vals_run && v->vals_run == v->snap.run &&
         v->vals_tick == v->snap.tick && x0 >= v->vals_x0 && y0 >= v->vals_y0 &&
         x1 <= v->vals_x0 + v->vals_w && y1 <= v->vals_y0 + v->vals_h;
}

const uint8_t *viewer_out_px(const viewer *v, int x, int y)
{
  const ts_kctx *k = v->have_snap && v->snap.run ? ts_run_kctx(v->snap.run) : NULL;
  if (!k || x < 0 || y < 0 || x >= k->W || y >= k->H)
    return NULL;
  if (viewer_dev(v))
    return v->dev_raw + ((size_t)y * (size_t)k->W + (size_t)x) * (size_t)viewer_out_px_bytes(k);
  if (!viewer_vals_cover(v, x, y, x + 1, y + 1))
    return NULL;
  return v->vals + ((size_t)(y - v->vals_y0) * (size_t)v->vals_w + (size_t)(x - v->vals_x0)) *
                       (size_t)v->vals_px;
}

const vw_obs *viewer_obs(const viewer *v)
{
  if (!v->obs || !v->obs->ob || !v->have_snap || !v->snap.run || viewer_dev(v))
    return NULL;
  return v->obs;
}

void viewer_obs_why_not(const viewer *v, char *buf, size_t n)
{
  const ts_kctx *k = v->have_snap && v->snap.run ? ts_run_kctx(v->snap.run) : NULL;
  if (viewer_obs(v) || !k)
    snprintf(buf, n, "%s", "");
  else if (viewer_dev(v))
    snprintf(buf, n, "observation: in the simulated view [d]");
  else if (!v->snap.on_cl)
    snprintf(buf, n, "observation needs the OpenCL back end [b]");
  else if ((int64_t)k->W * k->H > vw_observe_max_px(v->snap.run))
    snprintf(buf, n, "observation off: %dx%d is over this device's limit of %lld pixels", k->W,
             k->H, (long long)vw_observe_max_px(v->snap.run));
  else if (v->obs && v->obs->error[0])
    snprintf(buf, n, "observation failed: %s", v->obs->error);
  else
    snprintf(buf, n, "observing every access...");
}

int viewer_observed_writer(const viewer *v, float x, float y, int *pass, uint32_t *id)
{
  const vw_obs *o = viewer_obs(v);
  if (!o || x < 0 || y < 0)
    return -1;
  int p = viewer_shown_pass(v);
  const ts_obs_pass *op = ts_observe_pass(o->ob, p);
  const ts_kctx *k = ts_run_kctx(v->snap.run);
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

void viewer_layout(const viewer *v, vw_rect *pane_in, vw_rect *pane_out, vw_rect *panel,
                   vw_rect *timeline)
{
  float w = (float)v->width, h = (float)v->height;
  /* The split view's timeline is its left half's, the simulation's (a device half's lanes
   * would not fit both). */
  float panes_w = w - PANEL_W,
        panes_h = h - (viewer_dev(v) && !v->split_side ? DEV_TIMELINE_H : TIMELINE_H);
  float half = floorf(panes_w / 2);
  vw_rect left = { 0, TITLE_H, half - 1, panes_h - TITLE_H },
          right = { half + 1, TITLE_H, panes_w - half - 1, panes_h - TITLE_H };
  /* In the split view each half is its run's output pane, and stands for its input pane
   * too (the hovered thread's footprint is drawn over its output). */
  if (v->split_side)
    left = right = v->split_side == 1 ? left : right;
  if (pane_in)
    *pane_in = left;
  if (pane_out)
    *pane_out = right;
  if (panel)
    *panel = (vw_rect){ panes_w, 0, PANEL_W, h };
  if (timeline)
    *timeline = (vw_rect){ 0, panes_h, panes_w, h - panes_h };
}

void viewer_image_to_screen(const viewer *v, int pane, float x, float y, float *sx, float *sy)
{
  vw_rect r[2];
  viewer_layout(v, &r[0], &r[1], NULL, NULL);
  const vw_rect *p = &r[pane ? 1 : 0];
  *sx = p->x + p->w / 2 + (x - v->cx) * v->zoom;
  *sy = p->y + p->h / 2 + (y - v->cy) * v->zoom;
}

int64_t viewer_run_length(const viewer *v)
{
  return v->have_snap && v->snap.run ? ts_run_sched(v->snap.run)->length : 0;
}

int viewer_snap_current(const viewer *v)
{
  return v->have_snap && v->snap.generation == v->generation;
}

int64_t viewer_cursor_length(const viewer *v)
{
  int64_t len = viewer_run_length(v);
  const viewer *t = v->split_side == 1 ? v->twin : NULL;
  if (!t)
    return len;
  if (!viewer_snap_current(t) || !t->snap.run)
    return INT64_MAX / 4;
  int64_t tl = viewer_run_length(t);
  return tl > len ? tl : len;
}

int viewer_pass_at_tick(const ts_sched *s, int64_t tick)
{
  for (int p = 0; p < s->npasses; p++)
    if (tick < s->pass[p].t_end)
      return p;
  return s->npasses - 1;
}

const ts_sched *viewer_sched(const viewer *v)
{
  return v->have_snap && v->snap.run ? ts_run_sched(v->snap.run) : NULL;
}

/* The pass shown: the one running at the snapshot's tick, or at the device time. */
int viewer_shown_pass(const viewer *v)
{
  const ts_sched *s = viewer_sched(v);
  if (!s)
    return 0;
  const ts_dev_run *d = viewer_dev(v);
  if (d) {
    uint64_t t = viewer_dev_time(v);
    for (int p = 0; p < d->npasses - 1; p++)
      if (t < v->dev_pass_end[p])
        return p;
    return d->npasses - 1;
  }
  return viewer_pass_at_tick(s, v->snap.tick);
}

int viewer_dev_state(const ts_dev_run *d, int p, const ts_grec *g, uint64_t t)
{
  if (d->pass[p].lookback)
    return t < g->start ? TS_STATE_PENDING : t < g->published ? TS_STATE_RUNNING
                        : t < g->end ? VW_DEV_PUBLISHED : TS_STATE_DONE;
  return t < g->start ? TS_STATE_PENDING : t < g->waited ? TS_STATE_WAITING
                      : t < g->end ? TS_STATE_RUNNING : TS_STATE_DONE;
}

/* The record of thread `id` of pass p: tickets are dispatch indices. */
const ts_grec *viewer_dev_rec(const viewer *v, const ts_dev_run *d, int p, uint32_t id)
{
  return &d->pass[p].rec[viewer_sched(v)->pass[p].t[id].dispatch];
}

/* Whether the device named its compute units (else the lanes are logical). */
int viewer_dev_has_units(const ts_dev_run *d)
{
  return d->pass[0].n > 0 && d->pass[0].rec[0].unit >= 0;
}

/* A thread's tile in image pixels, and whether the pass's tiles are transposed. */
ts_rect viewer_tile_of(const viewer *v, int pass, int tx, int ty)
{
  const ts_pass_desc *pd = &ts_run_params_of(v->snap.run)->variant->passes[pass];
  return pd->tile_px(ts_run_kctx(v->snap.run), tx, ty);
}

int viewer_thread_at(const viewer *v, float x, float y, int *pass, uint32_t *id)
{
  const ts_sched *s = viewer_sched(v);
  if (!s || x < 0 || y < 0 || !v->input || x >= (float)v->input->w || y >= (float)v->input->h)
    return 0;
  int p = viewer_shown_pass(v);
  ts_rect t0 = viewer_tile_of(v, p, 0, 0), t1 = viewer_tile_of(v, p, 1, 0);
  int transposed = t1.y != t0.y;
  int px = (int)x, py = (int)y, tx, ty;
  if (transposed) {
    tx = py / t0.h;
    ty = px / t0.w;
  } else {
    tx = px / t0.w;
    ty = py / t0.h;
  }
  const ts_pass_sched *ps = &s->pass[p];
  if (tx >= ps->tw || ty >= ps->th)
    return 0;
  *pass = p;
  *id = (uint32_t)ty * (uint32_t)ps->tw + (uint32_t)tx;
  return 1;
}

/* Screen rectangle of an image rectangle in a pane. */
void viewer_rect_to_screen(const viewer *v, int pane, ts_rect r, float *x, float *y, float *w,
                           float *h)
{
  float x1, y1;
  viewer_image_to_screen(v, pane, (float)r.x, (float)r.y, x, y);
  viewer_image_to_screen(v, pane, (float)(r.x + r.w), (float)(r.y + r.h), &x1, &y1);
  *w = x1 - *x;
  *h = y1 - *y;
}

/* The focused thread: hovered, else clicked. */
int viewer_focus_thread(const viewer *v, int *pass, uint32_t *id)
{
  if (v->hover_pane >= 0 && viewer_thread_at(v, v->hover_x, v->hover_y, pass, id))
    return 1;
  if (v->sel_pass >= 0 && viewer_sched(v) && v->sel_pass < viewer_sched(v)->npasses) {
    *pass = v->sel_pass;
    *id = v->sel_id;
    return 1;
  }
  return 0;
}

int viewer_inspects_right(const viewer *v)
{
  return v->twin && (v->hover_pane >= 0 ? v->hover_pane == 2 : v->sel_side == 2);
}

/* The hovered thread's tile (x, y in its thread space), to highlight; 0 when none. */
int viewer_hover_tile(const viewer *v, float *xy)
{
  int hp;
  uint32_t hid;
  if (!v->have_snap || !v->snap.run || v->hover_pane < 0 ||
      !viewer_thread_at(v, v->hover_x, v->hover_y, &hp, &hid))
    return 0;
  uint32_t tw = (uint32_t)viewer_sched(v)->pass[hp].tw;
  xy[0] = (float)(hid % tw);
  xy[1] = (float)(hid / tw);
  return 1;
}

/* The process's resident memory in kB (VmRSS), or 0 where /proc does not say: the soak test
 * reads it from the state line. */
static long rss_kb(void)
{
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld", &kb) == 1)
      break;
  if (f)
    fclose(f);
  return kb;
}

/* The clicked thread, (x,y) in its pass's thread space, or none. */
static void selected_text(const viewer *v, char *out, size_t n)
{
  snprintf(out, n, "none");
  if (v->sel_pass >= 0 && v->snap.run) {
    const ts_pass_sched *ps = &ts_run_sched(v->snap.run)->pass[v->sel_pass];
    snprintf(out, n, "(%u,%u)", v->sel_id % (uint32_t)ps->tw, v->sel_id / (uint32_t)ps->tw);
  }
}

/* The thread the inspector describes (hovered, else selected), (x,y) or none; in the split
 * view after its half, "left:" or "right:". */
static void inspector_text(const viewer *v, char *out, size_t n)
{
  const viewer *s = viewer_inspects_right(v) ? v->twin : v;
  const char *half = !v->twin ? "" : s == v ? "left:" : "right:";
  int pass;
  uint32_t id;
  snprintf(out, n, "%snone", half);
  if (viewer_focus_thread(s, &pass, &id)) {
    uint32_t tw = (uint32_t)viewer_sched(s)->pass[pass].tw;
    snprintf(out, n, "%s(%u,%u)", half, id % tw, id / tw);
  }
}

void viewer_report(const viewer *v, char *buf, size_t n)
{
  const ts_variant *var = ts_variant_at(v->set.variant);
  int64_t len = viewer_run_length(v);
  size_t nh = 0;
  int pass = 0;
  if (v->have_snap && v->snap.run) {
    ts_run_hazards(v->snap.run, &nh);
    pass = viewer_shown_pass(v) + 1;
  }
  char sel[48], insp[48];
  selected_text(v, sel, sizeof sel);
  inspector_text(v, insp, sizeof insp);
  const ts_dev_run *d = viewer_dev(v);
  char dev[96] = "";
  if (d)
    snprintf(dev, sizeof dev, " devtime=%llu/%llu wrong=%u", (unsigned long long)viewer_dev_time(v),
             (unsigned long long)d->t_end, d->nwrong);
  /* The observation: done (with the threads it flags, its hazards and the thread whose
   * exact elements it holds), pending, failed, or off (the CPU model, a large image, the
   * device view). */
  char obs[160] = " observe=off";
  const vw_obs *o = viewer_obs(v);
  char why[600];
  viewer_obs_why_not(v, why, sizeof why);
  if (o) {
    char chosen[48] = "none";
    if (o->chosen_x >= 0)
      snprintf(chosen, sizeof chosen, "(%d,%d)", o->chosen_x, o->chosen_y);
    snprintf(obs, sizeof obs, " observe=done footprint=%u writes=%u conflicts=%u obs_hazards=%zu chosen=%s",
             o->flagged[0], o->flagged[1], o->flagged[2], o->rep.nhazards, chosen);
  } else if (strncmp(why, "observing", 9) == 0) {
    snprintf(obs, sizeof obs, " observe=pending");
  } else if (strncmp(why, "observation failed", 18) == 0) {
    snprintf(obs, sizeof obs, " observe=failed");
  }
  /* A plain kernel: its file, the results taken, the findings of the last good one,
   * whether the last attempt failed (the last good result then stays), and the watched pixel
   * of the result shown with its accesses' lines and the work-items that wrote it. */
  char plain[256] = "", watch[96] = " watch=none";
  if (v->plain && v->plain->res_watch_x >= 0)
    snprintf(watch, sizeof watch, " watch=(%d,%d) watch_lines=%zu watch_writers=%zu",
             v->plain->res_watch_x, v->plain->res_watch_y, v->plain->nrows, v->plain->nwriters);
  if (v->plain)
    snprintf(plain, sizeof plain, " plain=%s runs=%llu findings=%zu plain_error=%d%s", v->plain->name,
             (unsigned long long)v->plain->serial, v->plain->res ? v->plain->res->nfindings : 0,
             v->plain->error[0] != 0, watch);
  /* The split view: the right half's spec, tick and hazards, what it shows and its clicked
   * thread. */
  char split[256] = " split=off";
  const viewer *t = v->twin;
  if (t) {
    size_t th = 0;
    if (t->have_snap && t->snap.run)
      ts_run_hazards(t->snap.run, &th);
    const ts_dev_run *td = viewer_dev(t);
    char tsel[48];
    selected_text(t, tsel, sizeof tsel);
    snprintf(split, sizeof split,
             " split=%s right_tick=%lld/%lld right_hazards=%zu right_view=%s right_selected=%s",
             v->split.text, (long long)(t->have_snap ? t->snap.tick : 0),
             (long long)viewer_run_length(t), th, td ? "device" : "sim", tsel);
    if (td)
      snprintf(split + strlen(split), sizeof split - strlen(split),
               " right_devtime=%llu/%llu right_wrong=%u", (unsigned long long)viewer_dev_time(t),
               (unsigned long long)td->t_end, td->nwrong);
  }
  snprintf(buf, n,
           "variant=%s pattern=%s walk=%s slots=%d cost=%d backend=%s tick=%lld/%lld pass=%d "
           "hazards=%zu overlay=%s selected=%s inspector=%s view=%s rss=%ld%s%s%s%s%s%s",
           var->name, ts_pattern_name(v->set.pattern), ts_walk_name(v->set.walk), v->set.slots,
           v->set.cost, v->snap.on_cl ? "cl" : "cpu", (long long)(v->have_snap ? v->snap.tick : 0),
           (long long)len, pass, nh, overlay_name(v->mode, d != NULL), sel, insp,
           d ? "device" : "sim",
           rss_kb(), dev, split, obs, plain, v->snap.error[0] ? " error=" : "", v->snap.error);
}

