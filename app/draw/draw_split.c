/* Drawing the split view: the left run (the viewer) and the right one (its twin, a viewer of
 * its own, viewer_split.c) each drawn as an output pane through the same functions as the
 * single view (draw_panes.c, gl_resources.c), in its own half with its own overlay, thread
 * textures and hovered thread; a title over each half; and the panel's block that sets the
 * two runs side by side (ticks, hazards, times, and their difference). The twin borrows the
 * window's batch (gfx) while it draws: one batch, one side at a time. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"

static void lend_batch(viewer *v)
{
  v->twin->g = v->g;
}

static void take_batch(viewer *v)
{
  v->g = v->twin->g;
}

/* One half's output pane, overlay and hovered tile (the hover is the same image point in
 * both halves, the tile under it each run's own). */
static void half_pane(viewer *s, float *norm)
{
  vw_rect r;
  viewer_layout(s, NULL, &r, NULL, NULL);
  gl_upload_images(s);
  gl_update_threads(s, norm);
  float xy[2];
  int hover = viewer_hover_tile(s, xy);
  vw_pane_key k;
  draw_pane_key(s, 1, &r, norm, &k);
  draw_pane(s, &k, hover ? xy : NULL);
}

void draw_split_panes(viewer *v, float *norm)
{
  half_pane(v, norm);
  float tn[3] = { 1, 1, 1 };
  lend_batch(v);
  half_pane(v->twin, tn);
  take_batch(v);
}

/* What lies over one half, cut to it: pixel values, dispatch indices, the focused thread
 * (its footprint, tile and arrows in this run's schedule). */
static void half_overlay(viewer *s)
{
  vw_rect r;
  viewer_layout(s, NULL, &r, NULL, NULL);
  gfx_begin(&s->g, s->width, s->height);
  draw_pixel_values(s, 1, &r);
  draw_tile_labels(s, &r);
  draw_focus(s, &r, &r);
  glEnable(GL_SCISSOR_TEST);
  glScissor((GLint)r.x, s->height - (GLint)(r.y + r.h), (GLsizei)r.w, (GLsizei)r.h);
  gfx_flush(&s->g);
  glDisable(GL_SCISSOR_TEST);
}

void draw_split_overlays(viewer *v)
{
  half_overlay(v);
  lend_batch(v);
  half_overlay(v->twin);
  take_batch(v);
  gfx_begin(&v->g, v->width, v->height);
}

/* What tells one half from the other: the settings the spec changes, as this half has them
 * ("simulated" and "device" for a device half). */
static void side_label(const viewer *s, const vw_split_spec *sp, char *out, size_t n)
{
  out[0] = 0;
  if (sp->device) {
    snprintf(out, n, "%s", s->split_side == 2 ? "device" : "simulated");
    return;
  }
  size_t len = 0;
  const vw_settings *st = &s->set;
#define ADD(...) \
  if (len < n) \
    len += (size_t)snprintf(out + len, n - len, __VA_ARGS__)
  if (sp->variant >= 0)
    ADD("%s ", ts_variant_at(st->variant)->name);
  if (sp->pattern >= 0 || sp->variant >= 0)
    ADD("%s ", ts_pattern_name(st->pattern));
  if (sp->walk >= 0)
    ADD("walk %s ", ts_walk_name(st->walk));
  if (sp->slots > 0)
    ADD("%d slots ", st->slots);
  if (sp->cost > 0)
    ADD("cost %d ", st->cost);
#undef ADD
  if (len > 0 && len <= n)
    out[len - 1] = 0; /* the last blank */
}

/* The title over one half: its label, and the tick (or device time) it shows. */
static void half_title(viewer *v, const viewer *s)
{
  vw_rect r;
  viewer_layout(s, NULL, &r, NULL, NULL);
  char label[96], what[160];
  side_label(s, &v->split, label, sizeof label);
  const ts_dev_run *d = viewer_dev(s);
  if (d) {
    char tn[32], te[32];
    draw_fmt_dev_time(d, viewer_dev_time(s), tn, sizeof tn);
    draw_fmt_dev_time(d, d->t_end, te, sizeof te);
    snprintf(what, sizeof what, "at %s / %s", tn, te);
  } else if (s->have_snap && s->snap.run) {
    snprintf(what, sizeof what, "tick %" PRId64 " / %" PRId64, s->snap.tick, viewer_run_length(s));
  } else {
    snprintf(what, sizeof what, "%.150s", s->have_snap && s->snap.error[0] ? s->snap.error : "working...");
  }
  gfx_color c = s->have_snap && s->snap.error[0] ? WARN : WHITE;
  gfx_textf(&v->g, FONT_UI, r.x + 8, 4, c, "%s  %s: %s", s->split_side == 1 ? "left" : "right",
            label, what);
}

void draw_split_titles(viewer *v)
{
  vw_rect l, r;
  viewer_layout(v, NULL, &l, NULL, NULL);
  viewer_layout(v->twin, NULL, &r, NULL, NULL);
  gfx_rect(&v->g, 0, 0, r.x + r.w, l.y, PANEL);
  half_title(v, v);
  gfx_rect(&v->g, r.x - 2, 0, r.w + 2, l.y, PANEL); /* a long left title stops at its half */
  half_title(v, v->twin);
  gfx_rect(&v->g, l.x + l.w, 0, 2, l.y + l.h, BG);
}

/* A run's ticks and hazards for the panel, or why there is none yet. */
static int run_line(const viewer *s, const char *label, char *out, size_t n, int64_t *len,
                    size_t *nh)
{
  if (!s->have_snap || !s->snap.run) {
    snprintf(out, n, "%.90s: %.100s", label, s->have_snap && s->snap.error[0] ? s->snap.error : "working...");
    return 0;
  }
  *len = viewer_run_length(s);
  ts_run_hazards(s->snap.run, nh);
  snprintf(out, n, "%s: %" PRId64 " ticks, %zu hazard%s", label, *len, *nh, *nh == 1 ? "" : "s");
  return 1;
}

/* The two runs' kernel times, measured in the window on OpenCL (shots leave them out, as the
 * rest of the panel does, unless --show-times). */
static void times_line(viewer *v, float x, float *y)
{
  const viewer *t = v->twin;
  int live = !v->offscreen || v->show_times;
  if (!v->snap.on_cl || !t->snap.on_cl) {
    panel_line(v, x, y, DIM, "times: the CPU model is not timed");
  } else if (!live) {
    panel_line(v, x, y, DIM, "kernel times: measured in the window (--show-times)");
  } else if (v->snap.kernel_ms > 0 && t->snap.kernel_ms > 0) {
    panel_line(v, x, y, WHITE, "kernels %.3f ms | %.3f ms: %+.3f ms", v->snap.kernel_ms,
               t->snap.kernel_ms, t->snap.kernel_ms - v->snap.kernel_ms);
  }
}

/* The simulation beside the device: each run's length in its own clock, what went wrong in
 * each, and the shared cursor as a share of both. */
static void device_block(viewer *v, float x, float *y, const char *left, int64_t len, size_t nh)
{
  const viewer *t = v->twin;
  const ts_dev_run *d = viewer_dev(t);
  panel_line(v, x, y, nh ? WARN : WHITE, "%s", left);
  if (!d) {
    panel_line(v, x, y, DIM, "device: %s", t->have_snap && t->snap.error[0] ? t->snap.error
                             : t->record_name[0] && viewer_snap_current(t)
                                 ? "the record is of other settings" : "working...");
    return;
  }
  char te[32], tn[32], per[32];
  draw_fmt_dev_time(d, d->t_end, te, sizeof te);
  panel_line(v, x, y, d->nwrong ? WARN : WHITE, "device: %s, %u wrong tile%s", te, d->nwrong,
             d->nwrong == 1 ? "" : "s");
  if (len > 0) {
    draw_fmt_dev_time(d, (uint64_t)((double)d->t_end / (double)len + 0.5), per, sizeof per);
    panel_line(v, x, y, WHITE, "one tick of the simulation: %s of the device's", per);
    draw_fmt_dev_time(d, viewer_dev_time(t), tn, sizeof tn);
    panel_line(v, x, y, WHITE, "cursor: tick %" PRId64 " of %" PRId64 " = %.0f%% = %s",
               v->snap.tick, len, 100.0 * (double)v->snap.tick / (double)len, tn);
  }
  if (t->record_name[0])
    panel_line(v, x, y, DIM, "record %s (%s)", t->record_name, d->device);
}

void draw_split_block(viewer *v, float x, float *y)
{
  const viewer *t = v->twin;
  if (!t)
    return;
  panel_line(v, x, y, ACCENT, "split view   [x]   right: %s", v->split.text);
  char la[96], ra[96], left[200], right[200];
  side_label(v, &v->split, la, sizeof la);
  side_label(t, &v->split, ra, sizeof ra);
  int64_t ll = 0, rl = 0;
  size_t lh = 0, rh = 0;
  int lok = run_line(v, la, left, sizeof left, &ll, &lh);
  if (v->split.device) {
    device_block(v, x, y, left, lok ? ll : 0, lh);
    *y += 6;
    return;
  }
  int rok = run_line(t, ra, right, sizeof right, &rl, &rh);
  panel_line(v, x, y, lh ? WARN : WHITE, "%s", left);
  panel_line(v, x, y, rh ? WARN : WHITE, "%s", right);
  if (lok && rok) {
    long long dt = (long long)(rl - ll), dh = (long long)rh - (long long)lh;
    panel_line(v, x, y, WHITE, "right - left: %+lld ticks (%+.1f%%), %+lld hazards", dt,
               ll > 0 ? 100.0 * (double)dt / (double)ll : 0.0, dh);
    times_line(v, x, y);
  }
  *y += 6;
}
