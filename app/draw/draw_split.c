/* Drawing the split view: the left run and the right one (the scene's twin, its own run,
 * viewer/viewer_split.c) each drawn as an output pane through the same functions as the
 * single view (draw_panes.c, gl_resources.c), in its own half with its own overlay, thread
 * textures and hovered thread; a title over each half; and the panel's block that sets the
 * two runs side by side (ticks, hazards, times, and their difference). A plain kernel's
 * split view (two orders of its work-groups) draws each half with draw_plain.c's overlay and
 * title and draw_timeline.c's Gantt chart, the timeline cut in two. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "colors.h"
#include "draw_panes.h"
#include "draw_plain.h"
#include "draw_split.h"
#include "draw_text.h"
#include "draw_timeline.h"

/* One half's output pane, overlay and hovered tile (the hover is the same image point in
 * both halves, the tile under it each run's own). */
static void half_pane(vw_gl *gl, const vw_scene *h, float *norm)
{
  gl_upload_images(gl_run(gl, h->split_side), h);
  gl_update_threads(gl_run(gl, h->split_side), h, norm);
  vw_pane_key k;
  draw_pane_key(gl, h, 1, norm, &k);
  draw_pane(gl, h, &k, h->hover ? h->hover_tile : NULL);
}

void draw_split_panes(vw_gl *gl, const vw_scene *s, float *norm)
{
  half_pane(gl, s, norm);
  float tn[3] = { 1, 1, 1 };
  half_pane(gl, s->twin, tn);
}

/* What lies over one half, cut to it: pixel values, dispatch indices, the focused thread
 * (its footprint, tile and arrows in this run's schedule). */
static void half_overlay(vw_gl *gl, const vw_scene *h)
{
  const vw_rect *r = &h->pane[1];
  gfx_begin(&gl->g, h->width, h->height);
  draw_pixel_values(gl, h, 1);
  draw_tile_labels(gl, h);
  draw_focus(gl, h);
  glEnable(GL_SCISSOR_TEST);
  glScissor((GLint)r->x, h->height - (GLint)(r->y + r->h), (GLsizei)r->w, (GLsizei)r->h);
  gfx_flush(&gl->g);
  glDisable(GL_SCISSOR_TEST);
}

void draw_split_overlays(vw_gl *gl, const vw_scene *s)
{
  if (s->plain) {
    for (const vw_scene *h = s; h; h = h == s ? s->twin : NULL) {
      const vw_rect *r = &h->pane[1];
      gfx_begin(&gl->g, h->width, h->height);
      draw_plain_overlay(gl, h);
      glEnable(GL_SCISSOR_TEST);
      glScissor((GLint)r->x, h->height - (GLint)(r->y + r->h), (GLsizei)r->w, (GLsizei)r->h);
      gfx_flush(&gl->g);
      glDisable(GL_SCISSOR_TEST);
    }
    gfx_begin(&gl->g, s->width, s->height);
    return;
  }
  half_overlay(gl, s);
  half_overlay(gl, s->twin);
  gfx_begin(&gl->g, s->width, s->height);
}

/* The title over one half: its label, and the tick (or device time) it shows. */
static void half_title(vw_gl *gl, const vw_scene *h)
{
  char what[160];
  const ts_dev_run *d = h->dev;
  if (d) {
    char tn[32], te[32];
    draw_fmt_dev_time(d, h->dev_time, tn, sizeof tn);
    draw_fmt_dev_time(d, d->t_end, te, sizeof te);
    snprintf(what, sizeof what, "at %s / %s", tn, te);
  } else if (h->run) {
    snprintf(what, sizeof what, "tick %" PRId64 " / %" PRId64, h->snap->tick, h->sched->length);
  } else {
    snprintf(what, sizeof what, "%.150s", h->have_snap && h->snap->error[0] ? h->snap->error : "working...");
  }
  gfx_color c = h->have_snap && h->snap->error[0] ? WARN : WHITE;
  gfx_textf(&gl->g, FONT_UI, h->pane[1].x + 8, 4, c, "%s  %s: %s",
            h->split_side == 1 ? "left" : "right", h->label, what);
}

void draw_split_titles(vw_gl *gl, const vw_scene *s)
{
  const vw_rect *l = &s->pane[1], *r = &s->twin->pane[1];
  gfx_rect(&gl->g, 0, 0, r->x + r->w, l->y, PANEL);
  if (s->plain)
    draw_plain_title(gl, s);
  else
    half_title(gl, s);
  gfx_rect(&gl->g, r->x - 2, 0, r->w + 2, l->y, PANEL); /* a long left title stops at its half */
  if (s->plain)
    draw_plain_title(gl, s->twin);
  else
    half_title(gl, s->twin);
  gfx_rect(&gl->g, l->x + l->w, 0, 2, l->y + l->h, BG);
}

/* A half's run's ticks and hazards for the panel, or why there is none yet. */
static int run_line(const vw_scene *h, char *out, size_t n, int64_t *len, size_t *nh)
{
  if (!h->run) {
    snprintf(out, n, "%.90s: %.100s", h->label,
             h->have_snap && h->snap->error[0] ? h->snap->error : "working...");
    return 0;
  }
  *len = h->sched->length;
  ts_run_hazards(h->run, nh);
  snprintf(out, n, "%s: %" PRId64 " ticks, %zu hazard%s", h->label, *len, *nh, *nh == 1 ? "" : "s");
  return 1;
}

/* The two runs' kernel times, measured in the window on OpenCL (shots leave them out, as the
 * rest of the panel does, unless --show-times). */
static void times_line(vw_gl *gl, const vw_scene *s, float x, float *y)
{
  const vw_snapshot *l = s->snap, *r = s->twin->snap;
  if (!l->on_cl || !r->on_cl) {
    panel_line(gl, x, y, DIM, "times: the CPU model is not timed");
  } else if (!s->live) {
    panel_line(gl, x, y, DIM, "kernel times: measured in the window (--show-times)");
  } else if (l->kernel_ms > 0 && r->kernel_ms > 0) {
    panel_line(gl, x, y, WHITE, "kernels %.3f ms | %.3f ms: %+.3f ms", l->kernel_ms,
               r->kernel_ms, r->kernel_ms - l->kernel_ms);
  }
}

/* The simulation beside the device: each run's length in its own clock, what went wrong in
 * each, and the shared cursor as a share of both. */
static void device_block(vw_gl *gl, const vw_scene *s, float x, float *y, const char *left,
                         int64_t len, size_t nh)
{
  const vw_scene *t = s->twin;
  const ts_dev_run *d = t->dev;
  panel_line(gl, x, y, nh ? WARN : WHITE, "%s", left);
  if (!d) {
    panel_line(gl, x, y, DIM, "device: %s", t->have_snap && t->snap->error[0] ? t->snap->error
                              : t->record_name[0] && t->snap_current
                                  ? "the record is of other settings" : "working...");
    return;
  }
  char te[32], tn[32], per[32];
  draw_fmt_dev_time(d, d->t_end, te, sizeof te);
  panel_line(gl, x, y, d->nwrong ? WARN : WHITE, "device: %s, %u wrong tile%s", te, d->nwrong,
             d->nwrong == 1 ? "" : "s");
  if (len > 0) {
    int64_t tick = s->snap->tick;
    draw_fmt_dev_time(d, (uint64_t)((double)d->t_end / (double)len + 0.5), per, sizeof per);
    panel_line(gl, x, y, WHITE, "one tick of the simulation: %s of the device's", per);
    draw_fmt_dev_time(d, t->dev_time, tn, sizeof tn);
    panel_line(gl, x, y, WHITE, "cursor: tick %" PRId64 " of %" PRId64 " = %.0f%% = %s", tick,
               len, 100.0 * (double)tick / (double)len, tn);
  }
  if (t->record_name[0])
    panel_line(gl, x, y, DIM, "record %s (%s)", t->record_name, d->device);
}

void draw_split_block(vw_gl *gl, const vw_scene *s, float x, float *y)
{
  const vw_scene *t = s->twin;
  if (!t)
    return;
  panel_line(gl, x, y, ACCENT, "split view   [x]   right: %s", s->split_text);
  char left[200], right[200];
  int64_t ll = 0, rl = 0;
  size_t lh = 0, rh = 0;
  int lok = run_line(s, left, sizeof left, &ll, &lh);
  if (s->split_device) {
    device_block(gl, s, x, y, left, lok ? ll : 0, lh);
    *y += 6;
    return;
  }
  int rok = run_line(t, right, sizeof right, &rl, &rh);
  panel_line(gl, x, y, lh ? WARN : WHITE, "%s", left);
  panel_line(gl, x, y, rh ? WARN : WHITE, "%s", right);
  if (lok && rok) {
    long long dt = (long long)(rl - ll), dh = (long long)rh - (long long)lh;
    panel_line(gl, x, y, WHITE, "right - left: %+lld ticks (%+.1f%%), %+lld hazards", dt,
               ll > 0 ? 100.0 * (double)dt / (double)ll : 0.0, dh);
    times_line(gl, s, x, y);
  }
  *y += 6;
}

void draw_plain_split_timelines(vw_gl *gl, const vw_scene *s)
{
  vw_scene l = *s, r = *s->twin;
  float half = floorf(s->timeline.w / 2);
  l.timeline.w = half - 1;
  r.timeline.x = s->timeline.x + half + 1;
  r.timeline.w = s->timeline.w - half - 1;
  draw_plain_timeline(gl, &l);
  draw_plain_timeline(gl, &r);
  gfx_rect(&gl->g, s->timeline.x + half - 1, s->timeline.y + 4, 2, s->timeline.h - 8, BG);
}
