/* Turning the viewer's state into the scene a frame draws (scene.h): the queries of
 * view_state.c resolved once, at the frame's start, so that the drawing asks the viewer
 * nothing, and the figures worked out once per run (the threads' traffic, the device's
 * critical path) or per frame (the device's groups by state, the progress of an observation
 * under way) kept here, on the viewer's side. The split view's right half gets a scene of its
 * own, which the left's points to. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "scene_make.h"
#include "ts_record.h"

/* Bytes every thread reads (its clipped footprint) and writes, over all passes: once per
 * run. */
static void traffic(viewer *v)
{
  if (v->stats_run == v->snap.run)
    return;
  v->stats_run = v->snap.run;
  v->bytes_read = v->bytes_written = 0;
  if (v->snap.run)
    ts_run_traffic(v->snap.run, &v->bytes_read, &v->bytes_written);
}

/* What tells one half from the other: the settings the spec changes, as this half has them
 * ("simulated" and "device" for a device half). */
static void side_label(const viewer *v, char *out, size_t n)
{
  const vw_split_spec *sp = &v->split;
  out[0] = 0;
  if (sp->device) {
    snprintf(out, n, "%s", v->split_side == 2 ? "device" : "simulated");
    return;
  }
  size_t len = 0;
  const vw_settings *st = &v->set;
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

/* The device view's figures: its groups by state at the time shown, its critical path (once
 * per run: a pass over the whole record). */
static void device_figures(viewer *v, vw_scene *s)
{
  const ts_dev_run *d = s->dev;
  const ts_pass_sched *ps = &s->sched->pass[s->pass];
  for (uint32_t id = 0; id < ps->n; id++)
    s->dev_counts[vw_dev_state(d, s->pass, &d->pass[s->pass].rec[ps->t[id].dispatch],
                               s->dev_time)]++;
  if (v->dev_path_run != v->snap.run) {
    ts_dev_path_line(d, s->sched, v->dev_path, sizeof v->dev_path);
    v->dev_path_run = v->snap.run;
  }
  s->dev_path = v->dev_path;
}

/* The observation under way, in one line of the panel (scene.h): times only where the scene
 * is live (a shot's pictures stay the same from run to run). */
static void progress_line(viewer *v, vw_scene *s)
{
  char *b = s->progress, t[64] = "";
  size_t n = sizeof s->progress;
  if (v->plain) {
    pv_progress p;
    plain_view_progress(v->plain, &p);
    if (s->live && p.phase == PV_PHASE_RUN && p.last_ms > 0)
      snprintf(t, sizeof t, ": %.1f s (the last run: %.1f s)", p.ms / 1e3, p.last_ms / 1e3);
    else if (s->live)
      snprintf(t, sizeof t, ": %.1f s", p.ms / 1e3);
    if (p.phase == PV_PHASE_PARSE)
      snprintf(b, n, "reading %s (libclang)%s", v->plain->name, s->live ? t : "...");
    else if (p.phase == PV_PHASE_RUN)
      snprintf(b, n, "observing %s%s", v->plain->name, s->live ? t : "...");
    return;
  }
  vw_obs_progress p;
  vw_worker_obs_progress(v->wk, &p);
  if (p.expect_ms > 0)
    snprintf(t, sizeof t, " of about %.0f s", p.expect_ms / 1e3);
  if (p.state == VW_OBSP_WAITING)
    snprintf(b, n, "observing every access when idle...");
  else if (p.state == VW_OBSP_RUNNING && !s->live)
    snprintf(b, n, "observing every access...");
  else if (p.state == VW_OBSP_RUNNING) /* (a step asked for meanwhile waits for its end) */
    snprintf(b, n, "observing%s: %.1f s%s%s", p.queued ? "" : " every access",
             p.elapsed_ms / 1e3, t, p.queued ? "; a step waits" : "");
}

void viewer_scene(viewer *v, vw_scene *s, vw_scene *right)
{
  memset(s, 0, sizeof *s);
  s->width = v->width;
  s->height = v->height;
  s->offscreen = v->offscreen;
  s->live = !v->offscreen || v->show_times;
  s->help = v->help;
  viewer_layout(v, &s->pane[0], &s->pane[1], &s->panel, &s->timeline);
  s->zoom = v->zoom;
  s->cx = v->cx;
  s->cy = v->cy;
  s->input = v->input;
  s->input_name = v->input_name;
  s->input_generation = v->input_generation;

  s->snap = &v->snap;
  s->have_snap = v->have_snap;
  s->run = v->have_snap ? v->snap.run : NULL;
  s->sched = viewer_sched(v);
  s->run_ident = v->run_ident;
  s->have_out = v->out_run != NULL;
  s->variant = ts_variant_at(v->set.variant);
  s->pass = viewer_shown_pass(v);
  s->mode = v->mode;
  s->tile_grid = v->tile_grid;

  s->hover_pane = v->hover_pane;
  s->hover_x = v->hover_x;
  s->hover_y = v->hover_y;
  uint32_t id;
  s->hover = s->run && v->hover_pane >= 0 &&
             viewer_thread_at(v, v->hover_x, v->hover_y, &s->hover_pass, &id);
  if (s->hover) {
    uint32_t tw = (uint32_t)s->sched->pass[s->hover_pass].tw;
    s->hover_tile[0] = (float)(id % tw);
    s->hover_tile[1] = (float)(id / tw);
  }
  s->sel_pass = v->sel_pass;
  s->sel_id = v->sel_id;
  s->focus = viewer_focus_thread(v, &s->focus_pass, &s->focus_id);

  s->obs = viewer_obs(v);
  s->obs_serial = v->obs_serial;
  s->obs_error = v->obs ? v->obs->error : "";

  s->dev = viewer_dev(v);
  s->dev_time = viewer_dev_time(v);
  s->dev_pass_end = v->dev_pass_end;
  if (s->dev)
    device_figures(v, s);
  s->dev_available = s->run && ts_run_device_result(s->run) && v->dev_run == s->run;
  s->record_name = v->record_name;
  s->dev_out = v->dev_raw;
  s->dev_out_run = v->dev_run;
  s->dev_out_scale = v->dev_scale;
  s->dev_out_serial = v->dev_serial;

  if (s->run && v->vals_run == s->run && v->vals_tick == v->snap.tick) {
    s->vals = v->vals;
    s->vals_x0 = v->vals_x0;
    s->vals_y0 = v->vals_y0;
    s->vals_w = v->vals_w;
    s->vals_h = v->vals_h;
    s->vals_px = v->vals_px;
  }
  if (s->run) {
    traffic(v);
    s->bytes_read = v->bytes_read;
    s->bytes_written = v->bytes_written;
  }

  s->status = v->status[0] && (v->offscreen || SDL_GetTicks() < v->status_until) ? v->status
                                                                                 : NULL;
  progress_line(v, s);
  s->playing = v->playing;
  s->speed = (int)(viewer_play_rate(v) + 0.5);
  s->plain = v->plain;
  if (v->plain) {
    int64_t n = plain_view_ticks(v->plain);
    s->plain_tick = (uint32_t)(v->tick < 0 ? 0 : v->tick > n ? n : v->tick);
    viewer_source_pane(v, &s->source);
    s->src_finding = v->src_finding;
    s->src_line = v->src_line;
    s->src_top = v->src_top;
  }

  s->split_side = v->split_side;
  s->split_text = v->split.text;
  s->split_device = v->split.device;
  if (v->split_side)
    side_label(v, s->label, sizeof s->label);
  s->snap_current = viewer_snap_current(v);
  s->inspects_right = viewer_inspects_right(v);
  if (v->twin && right) {
    viewer_scene(v->twin, right, NULL);
    s->twin = right;
  } else if (v->plain2 && right) {
    /* A plain kernel's split view: the input pane's place holds the left order's output, the
     * output's the right order's (its own textures), each at the tick within its own run. */
    *right = *s;
    right->plain = v->plain2;
    int64_t n = plain_view_ticks(v->plain2);
    right->plain_tick = (uint32_t)(v->tick < 0 ? 0 : v->tick > n ? n : v->tick);
    right->split_side = 2;
    right->pane[0] = (vw_rect){ 0, 0, 0, 0 };
    s->split_side = 1;
    s->pane[1] = s->pane[0];
    s->pane[0] = right->pane[0];
    plain_view_order_name(v->plain, s->label, sizeof s->label);
    plain_view_order_name(v->plain2, right->label, sizeof right->label);
    s->twin = right;
  }
}
