/* What changes the viewer's state, but for input and the frame loop: the settings and a new
 * run, the tick and the device time, the zoom's fit, the status line, opening an image (on a
 * loader thread for a dropped file), and the output values read from the worker's run for
 * drawing. It calls only view_state.c, the worker, a query of the run's data (scene.h) and,
 * for a plain kernel, plain_view.c. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viewer_control.h"

void viewer_fit(viewer *v)
{
  if (!v->input)
    return;
  vw_rect r, out;
  viewer_layout(v, &r, &out, NULL, NULL);
  if (r.w <= 0)
    r = out; /* the source pane in the input's place: the output's, of the same size */
  v->zoom = fminf(r.w / (float)v->input->w, r.h / (float)v->input->h) * 0.98f;
  v->cx = (float)v->input->w / 2;
  v->cy = (float)v->input->h / 2;
  v->fitted = 1;
}

/* The device view has its own layout: refit when it comes or goes, unless the user zoomed. */
void viewer_relayout(viewer *v)
{
  int dv = viewer_dev(v) != NULL;
  if (dv != v->devview_laid) {
    v->devview_laid = dv;
    if (v->fitted)
      viewer_fit(v);
  }
}

void viewer_set_status(viewer *v, const char *msg)
{
  snprintf(v->status, sizeof v->status, "%s", msg);
  v->status_until = SDL_GetTicks() + 4000;
}

void viewer_request(viewer *v, int reload)
{
  if (v->plain) {
    /* A plain kernel runs again on a new image, or read again on reload. */
    plain_view_request(v->plain, v->input, v->input_generation, reload);
    if (v->plain2)
      plain_view_request(v->plain2, v->input, v->input_generation, reload);
    return;
  }
  vw_worker_request(v->wk, v->generation, &v->set, v->input, v->input_generation, v->tick,
                    reload);
}

void viewer_apply(viewer *v)
{
  v->generation++;
  v->sel_pass = -1;
  viewer_request(v, 0);
}

void viewer_set_tick(viewer *v, int64_t t)
{
  int64_t len = viewer_cursor_length(v);
  if (t < 0)
    t = 0;
  /* the end known: a run of the settings asked for, or a plain kernel's result */
  int known = v->plain ? plain_view_launch(v->plain) != NULL
                       : v->have_snap && v->snap.generation == v->generation;
  if (known && t > len)
    t = len;
  if (t != v->tick) {
    v->tick = t;
    viewer_request(v, 0);
  }
}

/* Makes img (owned) the input: a new run on it, fitted. */
static void set_image(viewer *v, ts_image *img, const char *path)
{
  ts_image_destroy(v->input);
  v->input = img;
  snprintf(v->input_name, sizeof v->input_name, "%s", path);
  const char *slash = strrchr(path, '/');
  char msg[sizeof v->status];
  snprintf(msg, sizeof msg, "opened %s (%dx%d, %d channel%s)", slash ? slash + 1 : path, img->w,
           img->h, img->c, img->c > 1 ? "s" : "");
  viewer_set_status(v, msg);
  v->input_generation++;
  v->tick = INT64_MAX / 4;
  v->dev_time = -1;
  viewer_fit(v);
  viewer_apply(v);
}

/* A dropped file decodes on a thread of its own; the frame loop picks the image up. */
typedef struct load_job {
  viewer *v;
  char path[1024];
} load_job;

static int load_main(void *ud)
{
  load_job *job = ud;
  viewer *v = job->v;
  ts_image *img = NULL;
  ts_error err = { 0 };
  ts_status st = ts_image_load_png(job->path, &img, &err);
  SDL_LockMutex(v->load_mu);
  ts_image_destroy(v->loaded);
  v->loaded = st == TS_OK ? img : NULL;
  snprintf(v->loaded_path, sizeof v->loaded_path, "%s", job->path);
  snprintf(v->load_error, sizeof v->load_error, "%s", st == TS_OK ? "" : err.msg);
  v->load_done = 1;
  SDL_UnlockMutex(v->load_mu);
  free(job);
  return 0;
}

void viewer_open(viewer *v, const char *path)
{
  load_job *job = malloc(sizeof *job);
  if (!job)
    return;
  job->v = v;
  snprintf(job->path, sizeof job->path, "%s", path);
  if (v->loader)
    SDL_WaitThread(v->loader, NULL);
  v->loader = SDL_CreateThread(load_main, "tilescope-load", job);
  if (!v->loader) {
    free(job);
    viewer_set_status(v, "cannot start a thread to load the image");
    return;
  }
  v->load_pending = 1;
  viewer_set_status(v, "loading...");
}

/* Returns 1 when it opened an image or said why it could not. */
int viewer_pick_up_image(viewer *v)
{
  SDL_LockMutex(v->load_mu);
  ts_image *img = v->load_done ? v->loaded : NULL;
  int done = v->load_done;
  char path[1024], error[1024];
  snprintf(path, sizeof path, "%s", v->loaded_path);
  snprintf(error, sizeof error, "%s", v->load_error);
  v->loaded = NULL;
  v->load_done = 0;
  SDL_UnlockMutex(v->load_mu);
  if (done)
    v->load_pending = 0;
  if (img)
    set_image(v, img, path);
  else if (done)
    viewer_set_status(v, error);
  return done;
}

void viewer_plain_retick(viewer *v, int64_t end)
{
  if (!plain_view_launch(v->plain))
    return;
  int64_t len = viewer_run_length(v);
  v->tick = v->tick >= end || v->tick > len ? len : v->tick < 0 ? 0 : v->tick;
}

void viewer_set_dev_time(viewer *v, int64_t t)
{
  const ts_dev_run *d = viewer_dev(v);
  if (!d)
    return;
  v->dev_time = t < 0 ? 0 : (uint64_t)t > d->t_end ? (int64_t)d->t_end : t;
}

/* Copies the wanted rectangle of the run's output (the worker keeps off it meanwhile). */
void viewer_read_values(void *ud, const ts_kctx *k)
{
  viewer *v = ud;
  int x0 = v->want_x0 < 0 ? 0 : v->want_x0, y0 = v->want_y0 < 0 ? 0 : v->want_y0;
  int x1 = v->want_x1 > k->W ? k->W : v->want_x1, y1 = v->want_y1 > k->H ? k->H : v->want_y1;
  v->vals_run = NULL;
  if (x1 <= x0 || y1 <= y0 || !k->buf[TS_BUF_OUT].data)
    return;
  int px = vw_out_px_bytes(k);
  size_t row = (size_t)(x1 - x0) * (size_t)px, need = row * (size_t)(y1 - y0);
  if (need > v->vals_cap) {
    uint8_t *n = realloc(v->vals, need);
    if (!n)
      return;
    v->vals = n;
    v->vals_cap = need;
  }
  for (int y = y0; y < y1; y++)
    memcpy(v->vals + (size_t)(y - y0) * row,
           k->buf[TS_BUF_OUT].data + ((size_t)y * (size_t)k->W + (size_t)x0) * (size_t)px, row);
  v->vals_run = v->snap.run;
  v->vals_tick = v->snap.tick;
  v->vals_x0 = x0;
  v->vals_y0 = y0;
  v->vals_w = x1 - x0;
  v->vals_h = y1 - y0;
  v->vals_px = px;
}

void viewer_want_values(viewer *v, int x0, int y0, int x1, int y1)
{
  if (x1 <= x0 || y1 <= y0 || viewer_vals_cover(v, x0, y0, x1, y1))
    return;
  /* A margin of half the rectangle each way, so that panning reads again less often. */
  int mx = (x1 - x0) / 2, my = (y1 - y0) / 2;
  v->want_x0 = x0 - mx;
  v->want_y0 = y0 - my;
  v->want_x1 = x1 + mx;
  v->want_y1 = y1 + my;
  if (v->have_snap && v->snap.run && !viewer_dev(v))
    vw_worker_read(v->wk, v->snap.run, viewer_read_values, v);
}

