/* Drawing a frame of the viewer, and taking it: the output values the frame shows are asked
 * for first (viewer_want_values), then the state is turned into the frame's scene
 * (scene_make.c) and the drawing draws that (render_frame); a screenshot or an animation's
 * frame reads it back. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "anim.h"
#include "draw_frame.h"
#include "scene_make.h"
#include "ts_file.h"
#include "viewer_control.h"
#include "viewer_shot.h"

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
  if (v->twin) {
    viewer_layout(v->twin, NULL, &rout, NULL, NULL);
    want_values(v->twin, &rout);
  }
  vw_scene s, right;
  viewer_scene(v, &s, &right);
  render_frame(v->gl, &s);
}

/* Renders the current view into rgb (width x height RGB, rows top-down). */
static void grab(viewer *v, uint8_t *rgb, uint8_t *rgba)
{
  viewer_draw(v);
  gl_read_rgb(v->gl, rgb, rgba);
}

int viewer_screenshot(viewer *v, const char *path, ts_outset *set)
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
  ts_outfile of;
  ts_status st;
  if (!set) {
    st = ts_image_save_png(path, img, &err);
  } else if ((st = ts_outfile_open(&of, path, &err)) == TS_OK) {
    st = ts_image_write_png(&of, img, &err);
    if (st == TS_OK)
      st = ts_outset_add(set, &of, &err); /* takes `of` over */
    else
      ts_outfile_abort(&of);
  }
  int ok = st == TS_OK;
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

