/* The viewer's input: keys (playback and stepping move the simulated tick, in the device
 * view the device time, for a plain kernel the tick of its pass shown; tab its next pass; l
 * its source pane, n N its findings: viewer_source.c),
 * the mouse (hover, click to select a thread or to watch a plain kernel's output pixel, drag
 * to pan, the wheel to zoom, the timeline to scrub), a dropped file and the window's size. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gl_resources.h"
#include "viewer_control.h"
#include "viewer_input.h"
#include "viewer_shot.h"
#include "viewer_source.h"
#include "viewer_split.h"

/* Which pane a screen point is in (its rectangle in *pr), and the image point under it: 0 the
 * input, 1 the output, 2 the split view's right half, -1 none. In the split view either half
 * is an output pane: the two show the same image points. */
static int pane_at(const viewer *v, float sx, float sy, float *x, float *y, vw_rect *pr)
{
  vw_rect r[3];
  viewer_layout(v, &r[0], &r[1], NULL, NULL);
  int n = 2;
  if (v->twin)
    viewer_layout(v->twin, NULL, &r[n++], NULL, NULL);
  for (int i = n - 1; i >= 0; i--) /* the output's first: a split's half is both */
    if (sx >= r[i].x && sy >= r[i].y && sx < r[i].x + r[i].w && sy < r[i].y + r[i].h) {
      *x = v->cx + (sx - (r[i].x + r[i].w / 2)) / v->zoom;
      *y = v->cy + (sy - (r[i].y + r[i].h / 2)) / v->zoom;
      *pr = r[i];
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

/* d: the simulated and the device view; without a device result, run the device schedule.
 * Not in the split view: its left half is always the simulation (viewer_dev), and the
 * device's run is a half of its own. */
static void toggle_device(viewer *v)
{
  if (v->twin) {
    viewer_set_status(v, v->split.device ? "d: the right half is the device's run"
                                         : "d: the left half stays simulated; --split device "
                                           "shows the device's run");
    return;
  }
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
  int64_t len = viewer_cursor_length(v);
  char msg[160];
  const ts_dev_run *dev = viewer_dev(v);
  if (v->plain && key == SDLK_TAB) {
    int64_t end = v->plain->res ? len : INT64_MAX / 4;
    plain_view_next_pass(v->plain);
    viewer_plain_retick(v, end);
    return;
  }
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
  case SDLK_d:
    if (!shift) {
      toggle_device(v);
      break;
    }
    /* Shift+D: the adversary of device runs, on or off (a new seed each time it goes on) */
    v->set.adversary = v->set.adversary ? 0 : ts_adversary_seed();
    if (v->twin) {
      /* The split's right half takes it with the left's settings; the left stays simulated. */
      int live = v->split.device && v->twin->set.exec_device;
      viewer_set_status(v, !live ? "Shift+D: the adversary delays device runs; the split has none "
                                   "running (--split device on the OpenCL back end)"
                        : v->set.adversary ? "the adversary delays the right half's groups at random"
                                           : "the adversary is off");
      break;
    }
    if (v->set.use_cl) {
      v->set.exec_device = 1;
      v->devview = 1;
      viewer_apply(v);
    }
    viewer_set_status(v, v->set.adversary ? "the adversary delays the device's groups at random"
                                          : "the adversary is off");
    v->playing = 0;
    viewer_relayout(v);
    break;
  case SDLK_x: viewer_split_toggle(v); break;
  case SDLK_r:
    v->generation++;
    viewer_request(v, 1);
    viewer_set_status(v, "reloading kernels");
    break;
  case SDLK_o:
    v->mode = (overlay_mode)((v->mode + (shift ? OV_COUNT - 1 : 1)) % OV_COUNT);
    break;
  case SDLK_g: v->tile_grid = !v->tile_grid; break;
  case SDLK_l: viewer_source_toggle(v); break;
  case SDLK_n:
    if (v->plain)
      viewer_finding_step(v, shift ? -1 : 1);
    else
      viewer_set_status(v, "n N: a plain kernel's findings (--kernel-file K.cl)");
    break;
  case SDLK_f: viewer_fit(v); break;
  case SDLK_1:
    v->zoom = 1;
    v->fitted = 0;
    break;
  case SDLK_s: {
    /* the next number no file has yet: an earlier session's shots are never overwritten */
    char path[64];
    do
      snprintf(path, sizeof path, "tilescope-shot-%03d.png", v->shot_counter++);
    while (access(path, F_OK) == 0 && v->shot_counter < 1000000);
    if (viewer_screenshot(v, path, NULL)) {
      char cwd[80];
      snprintf(msg, sizeof msg, "wrote %s in %.80s", path,
               getcwd(cwd, sizeof cwd) ? cwd : "the current folder");
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
  vw_rect r;
  v->hover_pane = pane_at(v, sx, sy, &x, &y, &r);
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

/* A plain kernel: a click on an image pixel runs it observed again watching that output
 * pixel (the last result stays until the new one arrives); on the watched one, stops
 * watching. */
static void plain_click(viewer *v, float sx, float sy)
{
  float x = 0, y = 0;
  plain_view *pv = v->plain;
  const ts_image *o = pv->res ? pv->res->out : v->input;
  vw_rect r;
  if (pane_at(v, sx, sy, &x, &y, &r) < 0 || !o || x < 0 || y < 0 || x >= (float)o->w ||
      y >= (float)o->h)
    return;
  int px = (int)x, py = (int)y;
  char msg[96];
  if (px == pv->watch_x && py == pv->watch_y) {
    plain_view_watch(pv, -1, -1);
    viewer_set_status(v, "no pixel watched");
    return;
  }
  plain_view_watch(pv, px, py);
  snprintf(msg, sizeof msg, "pixel (%d,%d): running it observed again to log its every access",
           px, py);
  viewer_set_status(v, msg);
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
  if (v->plain && viewer_source_click(v, sx, sy))
    return;
  if (v->plain) {
    plain_click(v, sx, sy);
    return;
  }
  vw_rect r;
  int pane = pane_at(v, sx, sy, &x, &y, &r);
  if (pane >= 0) {
    /* The split view's right half selects in its own run (the twin's schedule). */
    viewer *s = pane == 2 ? v->twin : v;
    v->sel_side = pane == 2 ? 2 : 1;
    int pass;
    uint32_t id;
    /* The thread that wrote the pixel: the observed last writer when there is an
     * observation, else the owner of the tile. */
    int found = vw_observed_writer(viewer_obs(s), s->snap.run, viewer_shown_pass(s), x, y, &pass,
                                   &id);
    if (found < 0)
      found = viewer_thread_at(s, x, y, &pass, &id);
    if (found && !(s->sel_pass == pass && s->sel_id == id)) {
      s->sel_pass = pass;
      s->sel_id = id;
    } else {
      s->sel_pass = -1;
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
    } else if (v->dragging && !viewer_source_has(v, v->drag_x, v->drag_y)) {
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
    vw_rect r;
    if (viewer_source_wheel(v, (float)mx, (float)my, e->wheel.y))
      break;
    if (pane_at(v, (float)mx, (float)my, &x, &y, &r) < 0)
      break;
    float z = v->zoom * powf(1.25f, (float)e->wheel.y);
    z = z < 0.02f ? 0.02f : z > 256 ? 256 : z;
    v->cx = x - ((float)mx - (r.x + r.w / 2)) / z;
    v->cy = y - ((float)my - (r.y + r.h / 2)) / z;
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
      gl_resize(v->gl, v->width, v->height);
    }
    break;
  default: break;
  }
}

