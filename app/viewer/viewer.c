/* The viewer's window and frame loop (see viewer.h): creating and destroying it, picking up
 * the worker's snapshots (the output rows, the device's output, the observation), playback,
 * polling the kernels (or a plain kernel's file) for changes, and asking for the focused
 * thread's observation; a plain kernel's runs come from plain_view.c instead. Input is
 * in viewer_input.c, changes to the state in viewer_control.c, drawing in viewer_shot.c
 * (through the scene, to draw/), what all of them read of the state in view_state.c. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gl_resources.h"
#include "paths.h"
#include "ts_file.h"
#include "viewer.h"
#include "viewer_control.h"
#include "viewer_input.h"
#include "viewer_shot.h"
#include "viewer_source.h"
#include "viewer_split.h"

/* The newest mtime of the kernel files the window builds: the kernels folder's *.cl, and
 * the user kernels' files. */
static int64_t kernels_mtime(const char *dir)
{
  int64_t newest = 0;
  DIR *d = opendir(dir);
  struct dirent *e;
  char path[2048];
  while (d && (e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n < 4 || strcmp(e->d_name + n - 3, ".cl") != 0)
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) == 0 && ts_mtime_ns(&st) > newest)
      newest = ts_mtime_ns(&st);
  }
  if (d)
    closedir(d);
  /* and every user kernel's file (--kernel-file, the user kernels folder): an edit of one
   * rebuilds it as an edit of a built-in does */
  for (int i = 0; i < ts_variant_count(); i++) {
    const ts_variant *v = ts_variant_at(i);
    struct stat st;
    if (v->file && stat(v->file, &st) == 0 && ts_mtime_ns(&st) > newest)
      newest = ts_mtime_ns(&st);
  }
  return newest;
}

/* A plain kernel's finished attempt; a failed one says why in the status line too (the
 * window keeps the last good run when there is one). */
static int pick_up_plain(viewer *v)
{
  int64_t end = v->plain->res ? viewer_run_length(v) : INT64_MAX / 4;
  int second = v->plain2 && plain_view_pick_up(v->plain2);
  if (!plain_view_pick_up(v->plain))
    return second;
  viewer_plain_retick(v, end);
  viewer_source_picked(v);
  if (v->plain->error[0]) {
    char line[sizeof v->plain->error + 64];
    snprintf(line, sizeof line, "%s%s", v->plain->error,
             v->plain->res ? "; the last good run stays" : "");
    viewer_set_status(v, line);
  }
  return 1;
}

int viewer_poll_files(viewer *v)
{
  if (v->plain) {
    if (!plain_view_poll(v->plain))
      return 0;
    viewer_request(v, 1);
    viewer_set_status(v, "the plain kernel's file changed: reloading");
    return 1;
  }
  if (!v->kernels_dir[0])
    return 0;
  int64_t m = kernels_mtime(v->kernels_dir);
  if (m == v->kernels_mtime)
    return 0;
  v->kernels_mtime = m;
  v->generation++;
  viewer_request(v, 1);
  viewer_set_status(v, "a kernel file changed: rebuilding");
  return 1;
}

viewer *viewer_create(const vw_options *o)
{
  if (o->offscreen)
    SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
  if (SDL_Init(SDL_INIT_VIDEO) != 0) {
    fprintf(stderr, "tilescope: cannot start SDL video: %s\n", SDL_GetError());
    ts_dev_run_free(o->record);
    return NULL;
  }
  viewer *v = calloc(1, sizeof *v);
  if (!v) {
    ts_dev_run_free(o->record);
    return NULL;
  }
  v->offscreen = o->offscreen;
  v->width = o->width > 0 ? o->width : 1600;
  v->height = o->height > 0 ? o->height : 900;
  v->sel_pass = -1;
  v->hover_pane = -1;
  v->obs_sent_x = v->obs_sent_y = v->obs_want_x = v->obs_want_y = -1;
  v->speed_index = 3;
  v->mode = o->mode;
  v->tile_grid = 1;
  v->help = o->help;
  v->source = o->source;
  v->src_finding = -1;
  v->src_pending = o->select_finding - 1;
  v->set = o->set;
  v->devview = o->devview;
  v->dev_pct = o->dev_pct;
  if (o->record_name)
    snprintf(v->record_name, sizeof v->record_name, "%s", o->record_name);
  if (o->record_path)
    snprintf(v->record_path, sizeof v->record_path, "%s", o->record_path);
  /* The image decodes on the loader thread while the window and GL start (a 4K PNG takes
   * about as long as they do). */
  const char *in = o->input ? o->input : paths_default_asset();
  v->load_mu = SDL_CreateMutex();
  if (in && v->load_mu)
    viewer_open(v, in);
  /* A plain kernel's file is read (in a worker program) while the image decodes and the
   * window and GL start: its observed run can begin as soon as the image is there. */
  if (o->plain_file && !(v->plain = plain_view_start(o->plain_file, o->plain_launch,
                                                     o->kernels_dir, o->set.device))) {
    ts_dev_run_free(o->record);
    viewer_destroy(v);
    return NULL;
  }
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  Uint32 flags = SDL_WINDOW_OPENGL | (o->offscreen ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE);
  v->win = SDL_CreateWindow("tilescope", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, v->width,
                            v->height, flags);
  if (!v->win || !(v->glctx = SDL_GL_CreateContext(v->win)) ||
      !(v->gl = calloc(1, sizeof *v->gl))) {
    fprintf(stderr, "tilescope: cannot open an OpenGL 3.3 window: %s\n", SDL_GetError());
    ts_dev_run_free(o->record);
    viewer_destroy(v);
    return NULL;
  }
  if (!o->offscreen)
    SDL_GL_SetSwapInterval(1);
  char shaders[1024], err[1024] = "";
  const char *font = getenv("TILESCOPE_FONT");
  if (!font || !*font)
    font = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
  if (!paths_find_dir("TILESCOPE_SHADERS", "shaders", "image.frag", shaders, sizeof shaders) ||
      !gl_init(v->gl, shaders, font, v->width, v->height, err, sizeof err)) {
    if (*err)
      fprintf(stderr, "tilescope: %s\n", err);
    ts_dev_run_free(o->record);
    viewer_destroy(v);
    return NULL;
  }
  snprintf(v->kernels_dir, sizeof v->kernels_dir, "%s", o->kernels_dir ? o->kernels_dir : "");
  v->kernels_mtime = kernels_mtime(v->kernels_dir);
  v->wk = vw_worker_start(v->kernels_dir);
  if (!v->wk) {
    fprintf(stderr, "tilescope: cannot start the worker thread\n");
    ts_dev_run_free(o->record);
    viewer_destroy(v);
    return NULL;
  }
  if (v->plain && o->watch_x >= 0)
    plain_view_watch(v->plain, o->watch_x, o->watch_y); /* the first run watches it */
  if (v->plain && o->have_split && o->split.order) {
    /* the split view of a plain kernel: a second one in the other order, its own textures */
    if (!(v->plain2 = plain_view_start(o->plain_file, o->plain_launch, v->kernels_dir, o->set.device))) {
      viewer_destroy(v);
      return NULL;
    }
    plain_view_set_order(v->plain2, o->split.order - 1, o->split.order_seed, o->split.order_file);
    v->split = o->split;
    gl_run_init(gl_run(v->gl, 2));
  }
  /* The record belongs to the first image (input generation 1), before the first request. */
  if (o->record)
    vw_worker_set_record(v->wk, o->record, &o->set, 1);
  v->tick = o->tick < 0 ? INT64_MAX / 4 : o->tick;
  int64_t want_tick = v->tick;
  if (v->loader) {
    SDL_WaitThread(v->loader, NULL);
    v->loader = NULL;
    viewer_pick_up_image(v);
  }
  if (!in || !v->input) {
    if (in)
      fprintf(stderr, "tilescope: %s\n", v->status);
    viewer_destroy(v);
    return NULL;
  }
  v->status[0] = 0;
  v->tick = want_tick;
  v->dev_time = o->dev_time;
  viewer_request(v, 0);
  if (o->zoom > 0) {
    v->zoom = o->zoom;
    v->cx = o->cx;
    v->cy = o->cy;
    v->fitted = 0;
  }
  if (o->hover) {
    v->hover_pane = 1;
    v->hover_x = o->hover_x;
    v->hover_y = o->hover_y;
  }
  if (o->have_split && !v->plain2 && !viewer_split_start(v, &o->split)) {
    fprintf(stderr, "tilescope: --split %s: %s\n", o->split.text, v->status);
    viewer_destroy(v);
    return NULL;
  }
  return v;
}

void viewer_destroy(viewer *v)
{
  if (!v)
    return;
  if (v->loader)
    SDL_WaitThread(v->loader, NULL);
  ts_image_destroy(v->loaded);
  if (v->load_mu)
    SDL_DestroyMutex(v->load_mu);
  if (v->glctx)
    viewer_split_stop(v); /* its textures, while the GL context is there */
  if (v->wk) {
    /* The worker frees every run, the one shown here included, once each. */
    vw_worker_take(v->wk, &v->snap, NULL, NULL);
    vw_worker_stop(v->wk, v->snap.run);
  }
  vw_snapshot_free(&v->snap);
  vw_obs_free(v->obs);
  plain_view_stop(v->plain);
  plain_view_stop(v->plain2);
  if (v->gl) {
    gl_free(v->gl);
    free(v->gl);
  }
  if (v->glctx)
    SDL_GL_DeleteContext(v->glctx);
  if (v->win)
    SDL_DestroyWindow(v->win);
  ts_image_destroy(v->input);
  free(v->vals);
  free(v->dev_raw);
  free(v);
  SDL_Quit();
}

/* The device view's output arrives with the first snapshot of a run that has a device result;
 * the per-run figures the drawing needs are made here once. */
static void pick_up_device(viewer *v)
{
  if (v->snap.dev_raw) {
    free(v->dev_raw);
    v->dev_raw = v->snap.dev_raw;
    v->snap.dev_raw = NULL;
    v->dev_scale = v->snap.scale;
    v->dev_run = v->snap.run;
    v->dev_serial++;
    const ts_dev_run *d = ts_run_device_result(v->dev_run);
    for (int p = 0; d && p < d->npasses; p++) {
      v->dev_pass_end[p] = 0;
      for (uint32_t t = 0; d->pass[p].rec && t < d->pass[p].n; t++)
        if (d->pass[p].rec[t].end > v->dev_pass_end[p])
          v->dev_pass_end[p] = d->pass[p].rec[t].end;
    }
    if (d && v->dev_pct >= 0) {
      v->dev_time = (int64_t)llround(v->dev_pct / 100.0 * (double)d->t_end);
      v->dev_pct = -1;
    }
  } else if (v->snap.run != v->dev_run) {
    free(v->dev_raw);
    v->dev_raw = NULL;
    v->dev_run = NULL;
  }
}

/* vw_worker_take's callback: the snapshot's rows into the output texture, and the values
 * drawing asked for last, read while the run holds them. */
static void take_rows(void *ud, const vw_snapshot *s)
{
  viewer *v = ud;
  vw_run_tex *t = gl_run(v->gl, v->split_side);
  double t0 = vw_phase_start(&v->gl->ph);
  if (gl_output_rows(t, s, v->out_run != s->run))
    v->out_run = s->run;
  viewer_read_values(v, ts_run_kctx(s->run));
  v->rows_taken = 1;
  vw_phase_since(&v->gl->ph, PH_ROWS, t0);
}

/* Returns 1 when it took a snapshot. */
static int pick_up(viewer *v)
{
  ts_run *before = v->snap.run;
  v->rows_taken = 0;
  if (!vw_worker_take(v->wk, &v->snap, take_rows, v))
    return 0;
  if (!v->rows_taken) {
    /* Nothing was read of this snapshot's run (none, or not readable): the texture is not
     * its output, and the values are not its. */
    v->out_run = NULL;
    v->vals_run = NULL;
  }
  /* What is cached per run is forgotten when the run changes: a new run may sit at the
   * address of one destroyed since, and would otherwise pass for it. */
  if (v->snap.run != before) {
    v->stats_run = v->dev_run = NULL;
    v->run_ident++;
  }
  v->have_snap = 1;
  /* "The end" resolved (in the split view, once the longer run's end is known). */
  if (v->snap.generation == v->generation && v->snap.run && v->tick > v->snap.tick &&
      v->tick >= viewer_cursor_length(v))
    v->tick = v->snap.tick > viewer_cursor_length(v) ? v->snap.tick : viewer_cursor_length(v);
  /* The observation is always of the run shown. */
  if (v->snap.obs || v->snap.run != before) {
    vw_obs_free(v->obs);
    v->obs = v->snap.obs;
    v->snap.obs = NULL;
    v->obs_serial++;
  }
  pick_up_device(v);
  if (v->snap.note[0])
    viewer_set_status(v, v->snap.note);
  viewer_relayout(v);
  return 1;
}

/* Asks the worker to observe the focused thread's exact elements once it has stayed focused
 * for a moment (at once when `now`: scripts and shots), so that sweeping the mouse over the
 * image does not start a replay per tile. Without a focused thread the last one stays. Over
 * vw_observe_quick_px a replay takes seconds, in which a step waits: there the elements are
 * asked for only at a zoom that draws them (draw_panes.c, from 4 screen pixels a pixel). */
static void observe_focus(viewer *v, int now)
{
  int pass;
  uint32_t id;
  if (!v->have_snap || !v->snap.run || !viewer_focus_thread(v, &pass, &id))
    return;
  const ts_kctx *k = ts_run_kctx(v->snap.run);
  if ((int64_t)k->W * k->H > vw_observe_quick_px(v->snap.run) && v->zoom < 4)
    return;
  uint32_t tw = (uint32_t)ts_run_sched(v->snap.run)->pass[pass].tw, t = SDL_GetTicks();
  int x = (int)(id % tw), y = (int)(id / tw);
  if (x != v->obs_want_x || y != v->obs_want_y) {
    v->obs_want_x = x;
    v->obs_want_y = y;
    v->obs_want_since = t;
  }
  if ((x != v->obs_sent_x || y != v->obs_sent_y) && (now || t - v->obs_want_since >= 300)) {
    v->obs_sent_x = x;
    v->obs_sent_y = y;
    vw_worker_observe(v->wk, x, y);
  }
}

void viewer_frame(viewer *v, int scripted)
{
  static uint32_t last_ms;
  vw_phase(&v->gl->ph, -1); /* the frame starts now */
  uint32_t now = SDL_GetTicks();
  double dt = last_ms ? (now - last_ms) / 1000.0 : 0;
  last_ms = now;
  SDL_Event e;
  int changed = 0;
  while (SDL_PollEvent(&e))
    if (!scripted || e.type == SDL_QUIT) {
      viewer_handle_event(v, &e);
      changed = 1;
    }
  changed |= pick_up(v);
  if (v->twin) {
    /* Before and after: a new snapshot of the twin may bring the device half its run. */
    viewer_split_follow(v);
    changed |= pick_up(v->twin);
    viewer_split_follow(v);
  }
  changed |= v->plain && pick_up_plain(v);
  changed |= viewer_pick_up_image(v);
  const ts_dev_run *dev = viewer_dev(v);
  if (v->playing && !scripted && dev) {
    /* At speed s the whole device run plays in 100 / s seconds; short runs carry fractions. */
    v->play_accum += dt * vw_speeds[v->speed_index] / 100.0 * (double)dev->t_end;
    int64_t step = (int64_t)v->play_accum;
    v->play_accum -= (double)step;
    viewer_set_dev_time(v, (int64_t)viewer_dev_time(v) + step);
    if (viewer_dev_time(v) >= dev->t_end)
      v->playing = 0;
  } else if (v->playing && !scripted) {
    v->play_accum += dt * viewer_play_rate(v);
    int64_t step = (int64_t)v->play_accum;
    if (step > 0) {
      v->play_accum -= (double)step;
      int64_t len = viewer_cursor_length(v);
      viewer_set_tick(v, v->tick + step > len ? len : v->tick + step);
      if (v->tick >= len)
        v->playing = 0;
    }
  }
  if (!scripted && now - v->last_poll_ms > 500) {
    v->last_poll_ms = now;
    viewer_poll_files(v);
  }
  observe_focus(v, scripted);
  /* A window with nothing new to show is not drawn again (llvmpipe would take a core's
   * share for the same pixels): it waits for an event a moment instead. Nothing new: no
   * event, snapshot or image, no playback or drag, the status line as it was, and a frame
   * drawn in the last half second. */
  int status_on = v->status[0] && SDL_GetTicks() < v->status_until;
  changed |= v->playing || v->dragging || v->scrubbing || status_on != v->status_drawn ||
             now - v->drawn_ms >= 500;
  if (!scripted && !v->offscreen && !changed) {
    SDL_WaitEventTimeout(NULL, 10);
    return;
  }
  v->status_drawn = status_on;
  v->drawn_ms = now;
  vw_phase(&v->gl->ph, PH_PICKUP);
  viewer_draw(v);
  if (!v->offscreen)
    SDL_GL_SwapWindow(v->win);
  vw_phase(&v->gl->ph, PH_SHOW);
}

/* Whether the snapshot is of the settings and the tick asked for, and the worker idle. */
static int run_ready(viewer *v)
{
  if (!v->have_snap || v->snap.generation != v->generation || vw_worker_busy(v->wk))
    return 0;
  int64_t want = v->tick, len = v->snap.run ? ts_run_sched(v->snap.run)->length : 0;
  return !v->snap.run || v->snap.tick == (want > len ? len : want);
}

int viewer_sync(viewer *v, uint32_t timeout_ms)
{
  uint32_t t0 = SDL_GetTicks();
  for (;;) {
    if (v->plain) {
      /* A plain kernel: its attempt taken, a result or an error. */
      pick_up_plain(v);
      if (v->plain->done && !plain_view_busy(v->plain) &&
          (!v->plain2 || (v->plain2->done && !plain_view_busy(v->plain2))))
        return 1;
      if (SDL_GetTicks() - t0 > timeout_ms)
        return 0;
      SDL_Delay(2);
      continue;
    }
    pick_up(v);
    observe_focus(v, 1);
    int ready = run_ready(v);
    if (v->twin) {
      /* The right half too, once it follows the left's tick. */
      viewer_split_follow(v);
      pick_up(v->twin);
      viewer_split_follow(v);
      ready = ready && run_ready(v->twin);
    }
    if (ready)
      return 1;
    if (SDL_GetTicks() - t0 > timeout_ms)
      return 0;
    SDL_Delay(2);
  }
}

