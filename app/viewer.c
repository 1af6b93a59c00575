/* The viewer's window, input and frame loop (see viewer.h); drawing is in draw_*.c, what
 * both read of the state in view_state.c. Keys and the timeline move the simulated tick, or
 * in the device view the device time. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "anim.h"
#include "draw.h"

void viewer_fit(viewer *v)
{
  if (!v->input)
    return;
  vw_rect r;
  viewer_layout(v, &r, NULL, NULL, NULL);
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
  int64_t len = viewer_run_length(v);
  if (t < 0)
    t = 0;
  if (v->have_snap && v->snap.generation == v->generation && t > len)
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
  char msg[600];
  snprintf(msg, sizeof msg, "opened %s (%dx%d, %d channel%s)", slash ? slash + 1 : path, img->w,
           img->h, img->c, img->c > 1 ? "s" : "");
  viewer_set_status(v, msg);
  v->input_generation++;
  v->tick = INT64_MAX / 4;
  v->dev_time = -1;
  viewer_fit(v);
  viewer_apply(v);
}

int viewer_load_image(viewer *v, const char *path)
{
  ts_image *img = NULL;
  ts_error err = { 0 };
  if (ts_image_load_png(path, &img, &err) != TS_OK) {
    viewer_set_status(v, err.msg);
    return 0;
  }
  set_image(v, img, path);
  return 1;
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
  int px = viewer_out_px_bytes(k);
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

/* Which pane a screen point is in, and the image point under it. */
static int screen_to_image(const viewer *v, float sx, float sy, float *x, float *y)
{
  vw_rect r[2];
  viewer_layout(v, &r[0], &r[1], NULL, NULL);
  for (int i = 0; i < 2; i++)
    if (sx >= r[i].x && sy >= r[i].y && sx < r[i].x + r[i].w && sy < r[i].y + r[i].h) {
      *x = v->cx + (sx - (r[i].x + r[i].w / 2)) / v->zoom;
      *y = v->cy + (sy - (r[i].y + r[i].h / 2)) / v->zoom;
      return i;
    }
  return -1;
}

static void cycle_variant(viewer *v, int dir)
{
  int n = ts_variant_count();
  v->set.variant = (v->set.variant + dir + n) % n;
  const ts_variant *var = ts_variant_at(v->set.variant);
  v->set.pattern = var->pattern;
  v->set.walk = ts_pattern_default_walk(var->pattern);
  v->tick = INT64_MAX / 4;
  v->dev_time = -1;
  viewer_apply(v);
}

/* Device time: a step of a share of the run. */
static void dev_step(viewer *v, double share)
{
  const ts_dev_run *d = viewer_dev(v);
  double t = (double)viewer_dev_time(v) + share * (double)d->t_end;
  viewer_set_dev_time(v, (int64_t)llround(t));
  v->playing = 0;
}

/* d: the simulated and the device view; without a device result, run the device schedule. */
static void toggle_device(viewer *v)
{
  const ts_dev_run *d = v->have_snap && v->snap.run ? ts_run_device_result(v->snap.run) : NULL;
  if (d && v->dev_run == v->snap.run && v->dev_raw) {
    v->devview = !v->devview;
    viewer_set_status(v, v->devview ? "device view" : "simulated view");
  } else if (v->set.use_cl) {
    v->set.exec_device = 1;
    v->devview = 1;
    viewer_apply(v);
    viewer_set_status(v, "running the schedule on the device");
  } else {
    viewer_set_status(v, "the device view needs the OpenCL back end [b] or a saved record (--record)");
  }
  v->playing = 0;
  viewer_relayout(v);
}

void viewer_key(viewer *v, SDL_Keycode key, int shift)
{
  int64_t len = viewer_run_length(v);
  char msg[160];
  const ts_dev_run *dev = viewer_dev(v);
  if (dev) {
    /* Playback and stepping move the device time. */
    switch (key) {
    case SDLK_SPACE:
      if (!v->playing && viewer_dev_time(v) >= dev->t_end)
        viewer_set_dev_time(v, 0);
      v->playing = !v->playing;
      v->play_accum = 0;
      return;
    case SDLK_RIGHT: dev_step(v, shift ? 0.1 : 0.01); return;
    case SDLK_LEFT: dev_step(v, shift ? -0.1 : -0.01); return;
    case SDLK_HOME: dev_step(v, -1); return;
    case SDLK_END: dev_step(v, 1); return;
    default: break;
    }
  }
  switch (key) {
  case SDLK_SPACE:
    if (!v->playing && v->tick >= len)
      viewer_set_tick(v, 0);
    v->playing = !v->playing;
    v->play_accum = 0;
    break;
  case SDLK_RIGHT: viewer_set_tick(v, v->tick + (shift ? 10 : 1)); v->playing = 0; break;
  case SDLK_LEFT: viewer_set_tick(v, v->tick - (shift ? 10 : 1)); v->playing = 0; break;
  case SDLK_HOME: viewer_set_tick(v, 0); v->playing = 0; break;
  case SDLK_END: viewer_set_tick(v, len); v->playing = 0; break;
  case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS:
    if (v->speed_index + 1 < VW_NSPEEDS)
      v->speed_index++;
    snprintf(msg, sizeof msg, "play speed %d ticks per second", vw_speeds[v->speed_index]);
    viewer_set_status(v, msg);
    break;
  case SDLK_MINUS: case SDLK_KP_MINUS:
    if (v->speed_index > 0)
      v->speed_index--;
    snprintf(msg, sizeof msg, "play speed %d ticks per second", vw_speeds[v->speed_index]);
    viewer_set_status(v, msg);
    break;
  case SDLK_v: cycle_variant(v, shift ? -1 : 1); break;
  case SDLK_p:
    v->set.pattern = (ts_pattern)((v->set.pattern + (shift ? TS_PAT_COUNT - 1 : 1)) % TS_PAT_COUNT);
    v->set.walk = ts_pattern_default_walk(v->set.pattern);
    viewer_apply(v);
    break;
  case SDLK_w:
    v->set.walk = (ts_walk)((v->set.walk + (shift ? TS_WALK_COUNT - 1 : 1)) % TS_WALK_COUNT);
    viewer_apply(v);
    break;
  case SDLK_RIGHTBRACKET:
    v->set.slots = v->set.slots * 2 > TS_SLOTS_MAX ? TS_SLOTS_MAX : v->set.slots * 2;
    viewer_apply(v);
    break;
  case SDLK_LEFTBRACKET:
    v->set.slots = v->set.slots / 2 < 1 ? 1 : v->set.slots / 2;
    viewer_apply(v);
    break;
  case SDLK_c:
    v->set.cost = shift ? (v->set.cost > 1 ? v->set.cost - 1 : 1)
                        : (v->set.cost < TS_COST_MAX ? v->set.cost + 1 : TS_COST_MAX);
    viewer_apply(v);
    break;
  case SDLK_b:
    v->set.use_cl = !v->set.use_cl;
    viewer_apply(v);
    break;
  case SDLK_d: toggle_device(v); break;
  case SDLK_r:
    v->generation++;
    viewer_request(v, 1);
    viewer_set_status(v, "reloading kernels");
    break;
  case SDLK_o:
    v->mode = (overlay_mode)((v->mode + (shift ? OV_COUNT - 1 : 1)) % OV_COUNT);
    break;
  case SDLK_g: v->tile_grid = !v->tile_grid; break;
  case SDLK_f: viewer_fit(v); break;
  case SDLK_1:
    v->zoom = 1;
    v->fitted = 0;
    break;
  case SDLK_s: {
    char path[64];
    snprintf(path, sizeof path, "tilescope-shot-%03d.png", v->shot_counter++);
    if (viewer_screenshot(v, path)) {
      snprintf(msg, sizeof msg, "wrote %s", path);
      viewer_set_status(v, msg);
    }
    break;
  }
  case SDLK_h: case SDLK_F1: v->help = !v->help; break;
  case SDLK_ESCAPE:
    if (v->help)
      v->help = 0;
    else
      v->quit = 1;
    break;
  case SDLK_q: v->quit = 1; break;
  default: break;
  }
}

void viewer_mouse_move(viewer *v, float sx, float sy)
{
  float x = 0, y = 0;
  v->hover_pane = screen_to_image(v, sx, sy, &x, &y);
  v->hover_x = x;
  v->hover_y = y;
}

static void scrub(viewer *v, float sx)
{
  vw_rect tl;
  viewer_layout(v, NULL, NULL, NULL, &tl);
  int64_t len = viewer_run_length(v);
  float f = (sx - tl.x - 10) / (tl.w - 20);
  f = f < 0 ? 0 : f > 1 ? 1 : f;
  v->playing = 0;
  const ts_dev_run *d = viewer_dev(v);
  if (d)
    viewer_set_dev_time(v, (int64_t)llround((double)f * (double)d->t_end));
  else
    viewer_set_tick(v, (int64_t)llroundf(f * (float)len));
}

void viewer_click(viewer *v, float sx, float sy)
{
  vw_rect tl;
  viewer_layout(v, NULL, NULL, NULL, &tl);
  if (sy >= tl.y && sx < tl.x + tl.w) {
    scrub(v, sx);
    return;
  }
  float x = 0, y = 0;
  if (screen_to_image(v, sx, sy, &x, &y) >= 0) {
    int pass;
    uint32_t id;
    /* The thread that wrote the pixel: the observed last writer when there is an
     * observation, else the owner of the tile. */
    int found = viewer_observed_writer(v, x, y, &pass, &id);
    if (found < 0)
      found = viewer_thread_at(v, x, y, &pass, &id);
    if (found && !(v->sel_pass == pass && v->sel_id == id)) {
      v->sel_pass = pass;
      v->sel_id = id;
    } else {
      v->sel_pass = -1;
    }
  }
}

void viewer_handle_event(viewer *v, const SDL_Event *e)
{
  switch (e->type) {
  case SDL_QUIT: v->quit = 1; break;
  case SDL_KEYDOWN:
    viewer_key(v, e->key.keysym.sym, (e->key.keysym.mod & KMOD_SHIFT) != 0);
    break;
  case SDL_MOUSEMOTION:
    if (v->scrubbing) {
      scrub(v, (float)e->motion.x);
    } else if (v->dragging) {
      v->cx -= (float)e->motion.xrel / v->zoom;
      v->cy -= (float)e->motion.yrel / v->zoom;
      v->fitted = 0;
    }
    viewer_mouse_move(v, (float)e->motion.x, (float)e->motion.y);
    break;
  case SDL_MOUSEBUTTONDOWN: {
    vw_rect tl;
    viewer_layout(v, NULL, NULL, NULL, &tl);
    float sx = (float)e->button.x, sy = (float)e->button.y;
    if (e->button.button == SDL_BUTTON_LEFT && sy >= tl.y && sx < tl.x + tl.w) {
      v->scrubbing = 1;
      scrub(v, sx);
    } else if (e->button.button == SDL_BUTTON_LEFT) {
      v->dragging = 1;
      v->drag_x = sx;
      v->drag_y = sy;
    }
    break;
  }
  case SDL_MOUSEBUTTONUP:
    if (e->button.button == SDL_BUTTON_LEFT && v->dragging &&
        fabsf((float)e->button.x - v->drag_x) + fabsf((float)e->button.y - v->drag_y) < 4)
      viewer_click(v, (float)e->button.x, (float)e->button.y);
    v->dragging = v->scrubbing = 0;
    break;
  case SDL_MOUSEWHEEL: {
    int mx, my;
    SDL_GetMouseState(&mx, &my);
    float x, y;
    int pane = screen_to_image(v, (float)mx, (float)my, &x, &y);
    if (pane < 0)
      break;
    float z = v->zoom * powf(1.25f, (float)e->wheel.y);
    z = z < 0.02f ? 0.02f : z > 256 ? 256 : z;
    vw_rect r[2];
    viewer_layout(v, &r[0], &r[1], NULL, NULL);
    v->cx = x - ((float)mx - (r[pane].x + r[pane].w / 2)) / z;
    v->cy = y - ((float)my - (r[pane].y + r[pane].h / 2)) / z;
    v->zoom = z;
    v->fitted = 0;
    break;
  }
  case SDL_DROPFILE:
    viewer_open(v, e->drop.file);
    SDL_free(e->drop.file);
    break;
  case SDL_WINDOWEVENT:
    if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
      SDL_GL_GetDrawableSize(v->win, &v->width, &v->height);
      gl_make_fbo(v);
    }
    break;
  default: break;
  }
}

/* Asks for the output values this frame draws: the pixels in view when they are written in
 * (zoom 16 and up), and the one under the cursor, for the inspector. */
static void want_values(viewer *v, const vw_rect *r)
{
  if (!v->input)
    return;
  int x0 = v->input->w, y0 = v->input->h, x1 = 0, y1 = 0;
  if (v->zoom >= 16) {
    x0 = (int)fmaxf(0, floorf(v->cx - r->w / 2 / v->zoom));
    y0 = (int)fmaxf(0, floorf(v->cy - r->h / 2 / v->zoom));
    x1 = (int)fminf((float)v->input->w, ceilf(v->cx + r->w / 2 / v->zoom));
    y1 = (int)fminf((float)v->input->h, ceilf(v->cy + r->h / 2 / v->zoom));
  }
  if (v->hover_pane >= 0 && v->hover_x >= 0 && v->hover_y >= 0 &&
      v->hover_x < (float)v->input->w && v->hover_y < (float)v->input->h) {
    int hx = (int)v->hover_x, hy = (int)v->hover_y;
    x0 = hx < x0 ? hx : x0;
    y0 = hy < y0 ? hy : y0;
    x1 = hx + 1 > x1 ? hx + 1 : x1;
    y1 = hy + 1 > y1 ? hy + 1 : y1;
  }
  viewer_want_values(v, x0, y0, x1, y1);
}

void viewer_draw(viewer *v)
{
  vw_rect rout;
  viewer_layout(v, NULL, &rout, NULL, NULL);
  want_values(v, &rout);
  render_frame(v);
}

/* Renders the current view into rgb (width x height RGB, rows top-down). */
static void grab(viewer *v, uint8_t *rgb, uint8_t *rgba)
{
  viewer_draw(v);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, v->fbo);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, v->width, v->height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  for (int y = 0; y < v->height; y++) /* GL rows run bottom-up */
    for (int x = 0; x < v->width; x++)
      memcpy(rgb + ((size_t)y * v->width + x) * 3,
             rgba + ((size_t)(v->height - 1 - y) * v->width + x) * 4, 3);
}

int viewer_screenshot(viewer *v, const char *path)
{
  ts_image *img = NULL;
  ts_error err = { 0 };
  if (ts_image_create(v->width, v->height, 3, &img, &err) != TS_OK) {
    fprintf(stderr, "tilescope: %s\n", err.msg);
    return 0;
  }
  uint8_t *rgba = malloc((size_t)v->width * v->height * 4);
  if (!rgba) {
    fprintf(stderr, "tilescope: %s: out of memory\n", path);
    ts_image_destroy(img);
    return 0;
  }
  grab(v, img->data, rgba);
  free(rgba);
  int ok = ts_image_save_png(path, img, &err) == TS_OK;
  if (!ok)
    fprintf(stderr, "tilescope: %s\n", err.msg);
  ts_image_destroy(img);
  return ok;
}

int viewer_anim_frame(viewer *v, struct anim *an, int delay_cs)
{
  size_t n = (size_t)v->width * v->height;
  uint8_t *rgba = malloc(n * 4), *rgb = malloc(n * 3);
  char err[300] = "out of memory for the animation's frames";
  int ok = rgba && rgb;
  if (ok) {
    grab(v, rgb, rgba);
    ok = anim_add(an, rgb, delay_cs, err, sizeof err);
  }
  free(rgba);
  free(rgb);
  if (!ok) {
    fprintf(stderr, "tilescope: %s\n", err);
    v->anim_failed = 1;
  }
  return ok;
}

static time_t kernels_mtime(const char *dir)
{
  time_t newest = 0;
  DIR *d = opendir(dir);
  if (!d)
    return 0;
  struct dirent *e;
  char path[2048];
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n < 4 || strcmp(e->d_name + n - 3, ".cl") != 0)
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) == 0 && st.st_mtime > newest)
      newest = st.st_mtime;
  }
  closedir(d);
  return newest;
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
  v->thr_pass = -1;
  v->obs_sent_x = v->obs_sent_y = v->obs_want_x = v->obs_want_y = -1;
  v->speed_index = 3;
  v->mode = o->mode;
  v->tile_grid = 1;
  v->help = o->help;
  v->set = o->set;
  v->devview = o->devview;
  v->dev_pct = o->dev_pct;
  if (o->record_name)
    snprintf(v->record_name, sizeof v->record_name, "%s", o->record_name);
  /* The image decodes on the loader thread while the window and GL start (a 4K PNG takes
   * about as long as they do). */
  const char *in = o->input ? o->input : cli_default_asset();
  v->load_mu = SDL_CreateMutex();
  if (in && v->load_mu)
    viewer_open(v, in);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  Uint32 flags = SDL_WINDOW_OPENGL | (o->offscreen ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE);
  v->win = SDL_CreateWindow("tilescope", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, v->width,
                            v->height, flags);
  if (!v->win || !(v->gl = SDL_GL_CreateContext(v->win))) {
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
  if (!cli_find_dir("TILESCOPE_SHADERS", "shaders", "image.frag", shaders, sizeof shaders) ||
      !gfx_init(&v->g, shaders, font, err, sizeof err) || !gl_make_fbo(v)) {
    if (*err)
      fprintf(stderr, "tilescope: %s\n", err);
    ts_dev_run_free(o->record);
    viewer_destroy(v);
    return NULL;
  }
  glGenTextures(1, &v->thr_tex);
  glGenTextures(1, &v->state_tex);
  glGenTextures(1, &v->gantt_tex);
  snprintf(v->kernels_dir, sizeof v->kernels_dir, "%s", o->kernels_dir ? o->kernels_dir : "");
  v->kernels_mtime = kernels_mtime(v->kernels_dir);
  v->wk = vw_worker_start(v->kernels_dir);
  if (!v->wk) {
    fprintf(stderr, "tilescope: cannot start the worker thread\n");
    ts_dev_run_free(o->record);
    viewer_destroy(v);
    return NULL;
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
  if (v->wk) {
    /* The worker frees every run, the one shown here included, once each. */
    vw_worker_take(v->wk, &v->snap, NULL, NULL);
    vw_worker_stop(v->wk, v->snap.run);
  }
  vw_snapshot_free(&v->snap);
  vw_obs_free(v->obs);
  if (v->gl) {
    gfx_free(&v->g);
    gl_res_free(v);
    SDL_GL_DeleteContext(v->gl);
  }
  if (v->win)
    SDL_DestroyWindow(v->win);
  ts_image_destroy(v->input);
  free(v->thr_state);
  free(v->vals);
  free(v->dev_raw);
  free(v->dev_rank);
  free(v->gantt_flight);
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
    v->dev_uploaded = 0;
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
  double t0 = 0;
  if (v->profile) {
    glFinish();
    t0 = viewer_phase_clock(v);
  }
  render_output_rows(v, s);
  viewer_read_values(v, ts_run_kctx(s->run));
  v->rows_taken = 1;
  if (v->profile) {
    glFinish();
    v->phase_ms[PH_ROWS] += viewer_phase_clock(v) - t0;
  }
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
    v->stats_run = v->thr_run = v->rank_run = v->gantt_run = v->dev_run = NULL;
    v->run_ident++;
  }
  v->have_snap = 1;
  v->snap_serial++;
  if (v->snap.generation == v->generation && v->snap.run && v->tick > v->snap.tick &&
      v->tick >= ts_run_sched(v->snap.run)->length)
    v->tick = v->snap.tick; /* "the end" resolved */
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
 * image does not start a replay per tile. Without a focused thread the last one stays. */
static void observe_focus(viewer *v, int now)
{
  int pass;
  uint32_t id;
  if (!v->have_snap || !v->snap.run || !viewer_focus_thread(v, &pass, &id))
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
  viewer_phase(v, -1); /* the frame starts now */
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
    v->play_accum += dt * vw_speeds[v->speed_index];
    int64_t step = (int64_t)v->play_accum;
    if (step > 0) {
      v->play_accum -= (double)step;
      int64_t len = viewer_run_length(v);
      viewer_set_tick(v, v->tick + step > len ? len : v->tick + step);
      if (v->tick >= len)
        v->playing = 0;
    }
  }
  if (!scripted && now - v->last_poll_ms > 1000 && v->kernels_dir[0]) {
    v->last_poll_ms = now;
    time_t m = kernels_mtime(v->kernels_dir);
    if (m != v->kernels_mtime) {
      v->kernels_mtime = m;
      v->generation++;
      viewer_request(v, 1);
      viewer_set_status(v, "a kernel file changed: rebuilding");
    }
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
  viewer_phase(v, PH_PICKUP);
  viewer_draw(v);
  if (!v->offscreen)
    SDL_GL_SwapWindow(v->win);
  viewer_phase(v, PH_SHOW);
}

int viewer_sync(viewer *v, uint32_t timeout_ms)
{
  uint32_t t0 = SDL_GetTicks();
  for (;;) {
    pick_up(v);
    observe_focus(v, 1);
    int64_t want = v->tick;
    if (v->have_snap && v->snap.generation == v->generation && !vw_worker_busy(v->wk)) {
      int64_t len = v->snap.run ? ts_run_sched(v->snap.run)->length : 0;
      if (!v->snap.run || v->snap.tick == (want > len ? len : want))
        return 1;
    }
    if (SDL_GetTicks() - t0 > timeout_ms)
      return 0;
    SDL_Delay(2);
  }
}

