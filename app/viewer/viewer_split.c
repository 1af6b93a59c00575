/* The split view: two runs of the same image side by side on one shared cursor. The right
 * half is a second viewer, the "twin": its own worker, snapshot, output and thread textures,
 * made here without a window and kept in step with the left one (the viewer itself) once per
 * frame: the left's settings changed as the split's spec says, its view (zoom, centre,
 * overlay, grid, hover) and its tick. A device half (spec `device`) shows the device's run of
 * the same settings, from the record the viewer opened or run by --exec device, at the same
 * share of its run as the left's tick. Each frame's scene holds the twin's as its right half,
 * which draw_split.c draws through the same functions as the left's (the twin's textures are
 * the window's second set, gl->run[1]); the viewer's frame loop picks up the twin's snapshots
 * as its own. Calls viewer_control.c, view_state.c, the worker and the GL resources, as the
 * viewer's files do. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_resources.h"
#include "ts_record.h"
#include "viewer_control.h"
#include "viewer_split.h"

/* The right half's settings: the left's, changed as sp says. */
static void split_settings(const vw_split_spec *sp, const vw_settings *left, vw_settings *right)
{
  *right = *left;
  if (sp->device)
    return;
  right->exec_device = 0; /* its device result would not be shown */
  if (sp->variant >= 0) {
    right->variant = sp->variant;
    right->pattern = ts_variant_at(sp->variant)->pattern;
    right->walk = ts_pattern_default_walk(right->pattern);
  }
  if (sp->pattern >= 0) {
    right->pattern = (ts_pattern)sp->pattern;
    right->walk = ts_pattern_default_walk(right->pattern);
  }
  if (sp->walk >= 0)
    right->walk = (ts_walk)sp->walk;
  if (sp->slots > 0)
    right->slots = sp->slots;
  if (sp->cost > 0)
    right->cost = sp->cost;
}

/* Frees the twin: its worker with every run, its textures (the GL context is the window's,
 * still current), what it read. The image and the rest of the drawing's state are the
 * left's. */
static void twin_free(viewer *t)
{
  if (!t)
    return;
  if (t->wk) {
    vw_worker_take(t->wk, &t->snap, NULL, NULL);
    vw_worker_stop(t->wk, t->snap.run);
  }
  vw_snapshot_free(&t->snap);
  vw_obs_free(t->obs);
  gl_run_free(gl_run(t->gl, t->split_side));
  free(t->vals);
  free(t->dev_raw);
  free(t);
}

void viewer_split_stop(viewer *v)
{
  twin_free(v->twin);
  v->twin = NULL;
  v->split_side = v->sel_side = 0;
}

/* The device half's record: the viewer's, read again from its file (the worker takes each
 * copy it is given), for the settings it was recorded with. NULL with the reason in `why`. */
static ts_dev_run *read_record(const viewer *v, char *why, size_t n)
{
  ts_trace_info info;
  ts_dev_run *d = NULL;
  ts_error err = { 0 };
  if (ts_trace_read(v->record_path, &info, &d, &err) != TS_OK) {
    snprintf(why, n, "split device: %s", err.msg);
    return NULL;
  }
  return d;
}

int viewer_split_start(viewer *v, const vw_split_spec *sp)
{
  char why[1200];
  if (v->plain) {
    viewer_set_status(v, "split: a plain kernel's split view is --split order=ORDER, given at the start");
    return 0;
  }
  if (sp->order) {
    viewer_set_status(v, "split: order= goes with a plain kernel (--kernel-file K.cl)");
    return 0;
  }
  if (sp->device && !v->record_path[0] && !v->set.use_cl) {
    viewer_set_status(v, "split device: needs a saved record (--record) or the OpenCL back end [b]");
    return 0;
  }
  viewer_split_stop(v);
  viewer *t = calloc(1, sizeof *t);
  if (!t) {
    viewer_set_status(v, "split: out of memory");
    return 0;
  }
  t->offscreen = v->offscreen;
  t->show_times = v->show_times;
  t->sel_pass = -1;
  t->hover_pane = -1;
  t->obs_sent_x = t->obs_sent_y = t->obs_want_x = t->obs_want_y = -1;
  t->dev_time = -1;
  t->dev_pct = -1;
  t->split = *sp;
  t->split_side = 2;
  snprintf(t->kernels_dir, sizeof t->kernels_dir, "%s", v->kernels_dir);
  snprintf(t->record_name, sizeof t->record_name, "%s", v->record_name);
  split_settings(sp, &v->set, &t->set);
  ts_dev_run *rec = NULL;
  if (sp->device) {
    t->devview = 1;
    if (v->record_path[0]) {
      if (!(rec = read_record(v, why, sizeof why))) {
        free(t);
        viewer_set_status(v, why);
        return 0;
      }
    } else {
      t->set.exec_device = 1;
    }
  }
  t->wk = vw_worker_start(t->kernels_dir);
  if (!t->wk) {
    ts_dev_run_free(rec);
    free(t);
    viewer_set_status(v, "split: cannot start a worker thread for the right half");
    return 0;
  }
  vw_worker_share_turns(t->wk, v->wk);
  t->gl = v->gl;
  gl_run_init(gl_run(t->gl, t->split_side));
  /* The record belongs to the first image, as the left's does (viewer_create). */
  if (rec)
    vw_worker_set_record(t->wk, rec, &t->set, 1);
  v->twin = t;
  v->split = *sp;
  v->split_side = 1;
  v->twin_gen = v->generation;
  t->generation = 1;
  t->input = v->input;
  t->input_generation = v->input_generation;
  t->tick = v->tick;
  viewer_request(t, 0);
  viewer_relayout(v);
  return 1;
}

void viewer_split_toggle(viewer *v)
{
  if (v->twin) {
    viewer_split_stop(v);
    viewer_relayout(v);
    viewer_set_status(v, "split view off");
    return;
  }
  vw_split_spec sp = v->split;
  if (!sp.text[0]) {
    /* No right half given: the device's run when there is one, else the next pattern. */
    const ts_dev_run *d = v->have_snap && v->snap.run ? ts_run_device_result(v->snap.run) : NULL;
    char err[160];
    char text[64];
    if (d || v->record_path[0])
      snprintf(text, sizeof text, "device");
    else
      snprintf(text, sizeof text, "pattern=%s",
               ts_pattern_name((ts_pattern)((v->set.pattern + 1) % TS_PAT_COUNT)));
    if (!vw_split_parse(text, &sp, err, sizeof err))
      return;
  }
  if (viewer_split_start(v, &sp)) {
    char msg[160];
    snprintf(msg, sizeof msg, "split view: the right half with %s", sp.text);
    viewer_set_status(v, msg);
  }
}

void viewer_split_follow(viewer *v)
{
  viewer *t = v->twin;
  if (!t)
    return;
  /* The view. */
  t->width = v->width;
  t->height = v->height;
  t->zoom = v->zoom;
  t->cx = v->cx;
  t->cy = v->cy;
  t->fitted = 0;
  t->mode = v->mode;
  t->tile_grid = v->tile_grid;
  t->hover_pane = v->hover_pane >= 0 ? 1 : -1;
  t->hover_x = v->hover_x;
  t->hover_y = v->hover_y;
  t->show_times = v->show_times;
  /* The image: the left's (the worker copies a new one); the twin never draws the input. */
  t->input = v->input;
  snprintf(t->input_name, sizeof t->input_name, "%s", v->input_name);
  int renew = 0;
  if (t->input_generation != v->input_generation) {
    t->input_generation = v->input_generation;
    renew = 1;
  }
  /* The settings: a new run when the left's changed (or its kernels were rebuilt: r, or an
   * edited kernel file). */
  vw_settings want;
  split_settings(&t->split, &v->set, &want);
  if (t->split.device)
    want.exec_device = t->set.exec_device;
  int reload = 0;
  if (v->twin_gen != v->generation) {
    v->twin_gen = v->generation;
    reload = memcmp(&want, &t->set, sizeof want) == 0;
    renew = 1;
  }
  if (memcmp(&want, &t->set, sizeof want) != 0) {
    t->set = want;
    renew = 1;
  }
  /* The cursor: the left's tick asked for (which may pass the left's run, up to the longer
   * one's end), within the twin's run once it is known. */
  int64_t tick = v->tick;
  if (viewer_snap_current(t) && t->snap.run && tick > viewer_run_length(t))
    tick = viewer_run_length(t);
  if (renew) {
    t->generation++;
    t->sel_pass = -1;
    t->tick = tick;
    viewer_request(t, reload);
  } else if (tick != t->tick) {
    t->tick = tick;
    viewer_request(t, 0);
  }
  /* The device half: the same share of its run as the left's tick of its own. */
  const ts_dev_run *d = viewer_dev(t);
  int64_t len = viewer_run_length(v);
  if (d && len > 0 && v->have_snap)
    t->dev_time = v->snap.tick >= len ? -1
                  : (int64_t)llround((double)v->snap.tick / (double)len * (double)d->t_end);
}
