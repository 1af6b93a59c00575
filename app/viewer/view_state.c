/* What the viewer's files read of its state (view_state.h), and the layout: the device
 * result and time shown, the pass shown, the thread under a point or in focus, the
 * observation and the values read for drawing, where the panes lie. Nothing here changes the
 * state, and nothing here calls the rest of the viewer: every other file of it calls this,
 * and the scene a frame draws is made from these (scene_make.c). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>

#include "view_state.h"

const int vw_speeds[VW_NSPEEDS] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 };
/* The device view's timeline is taller: groups in flight, then one lane per compute unit. */
enum { PANEL_W = 440, TIMELINE_H = 120, DEV_TIMELINE_H = 250, TITLE_H = 24 };

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

int viewer_vals_cover(const viewer *v, int x0, int y0, int x1, int y1)
{
  return v->have_snap && v->vals_run && v->vals_run == v->snap.run &&
         v->vals_tick == v->snap.tick && x0 >= v->vals_x0 && y0 >= v->vals_y0 &&
         x1 <= v->vals_x0 + v->vals_w && y1 <= v->vals_y0 + v->vals_h;
}

const vw_obs *viewer_obs(const viewer *v)
{
  if (!v->obs || !v->obs->ob || !v->have_snap || !v->snap.run || viewer_dev(v))
    return NULL;
  return v->obs;
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
  if (pane_in && viewer_source_pane(v, NULL))
    pane_in->w = 0; /* the source pane has its place */
  if (pane_out)
    *pane_out = right;
  if (panel)
    *panel = (vw_rect){ panes_w, 0, PANEL_W, h };
  if (timeline)
    *timeline = (vw_rect){ 0, panes_h, panes_w, h - panes_h };
}

int viewer_source_pane(const viewer *v, vw_rect *r)
{
  if (!v->source || !v->plain || v->plain2 || v->split_side)
    return 0;
  if (r) {
    float panes_w = (float)v->width - PANEL_W;
    float panes_h = (float)v->height - TIMELINE_H;
    *r = (vw_rect){ 0, 0, floorf(panes_w / 2) - 1, panes_h };
  }
  return 1;
}

int64_t viewer_run_length(const viewer *v)
{
  if (v->plain)
    return plain_view_ticks(v->plain);
  return v->have_snap && v->snap.run ? ts_run_sched(v->snap.run)->length : 0;
}

double viewer_play_rate(const viewer *v)
{
  double speed = vw_speeds[v->speed_index];
  int64_t len = v->plain ? viewer_run_length(v) : 0;
  return len > 100 ? speed * (double)len / 100 : speed;
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

static int pass_at_tick(const ts_sched *s, int64_t tick)
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
  return pass_at_tick(s, v->snap.tick);
}

int viewer_thread_at(const viewer *v, float x, float y, int *pass, uint32_t *id)
{
  const ts_sched *s = viewer_sched(v);
  if (!s || x < 0 || y < 0 || !v->input || x >= (float)v->input->w || y >= (float)v->input->h)
    return 0;
  int p = viewer_shown_pass(v);
  ts_rect t0 = vw_tile_of(v->snap.run, p, 0, 0), t1 = vw_tile_of(v->snap.run, p, 1, 0);
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
