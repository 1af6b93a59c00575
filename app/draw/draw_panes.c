/* Drawing the image panes: the input, and the output with the thread-space overlay (in the
 * device view the device's output, masked to the tiles finished by the device time, wrong
 * tiles hatched), the hovered tile highlighted; over them the tiles' dispatch indices, pixel
 * values when zoomed in, and the focused thread: its footprint, tile, dependency arrows,
 * hazards and what it was observed to touch. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "colors.h"
#include "draw_panes.h"

/* What pane `pane` is drawn with, but the hover: the shader's uniforms, the textures and
 * their contents (serials), and the quad (only where the image lies within the pane:
 * llvmpipe pays for every fragment). Zeroed first, so that two compare with memcmp. */
void draw_pane_key(vw_gl *gl, const vw_scene *s, int pane, const float *norm, vw_pane_key *k)
{
  const vw_rect *r = &s->pane[pane];
  vw_run_tex *t = gl_run(gl, s->split_side);
  memset(k, 0, sizeof *k);
  if (!s->input)
    return;
  k->drawn = 1;
  k->screen[0] = (float)s->width;
  k->screen[1] = (float)s->height;
  /* a plain kernel's output in its own shape (a transpose's, a histogram's), not the input's */
  int iw = s->input->w, ih = s->input->h;
  const ts_image *po = pane == 1 && !s->dev && s->plain && s->plain->res ? s->plain->res->out : NULL;
  if (po) {
    iw = po->w;
    ih = po->h;
  }
  k->image[0] = (float)iw;
  k->image[1] = (float)ih;
  scene_to_screen(s, pane, 0, 0, &k->origin[0], &k->origin[1]);
  k->zoom = s->zoom;
  k->clip[0] = r->x;
  k->clip[1] = r->y;
  k->clip[2] = r->x + r->w;
  k->clip[3] = r->y + r->h;
  k->overlay = pane == 1 && s->run ? (int)s->mode : 0;
  k->tile_grid = pane == 1 && s->tile_grid && s->run;
  /* The device view's output: tiles not finished by the device time are masked (all of it
   * while an earlier pass runs), finished wrong tiles hatched. */
  const ts_dev_run *dev = pane == 1 ? s->dev : NULL;
  k->device = dev != NULL;
  /* One lane is one hue: the lane overlay of a run the runtime gave one lane shows the
   * order the groups ran in instead (the legend says so). */
  if (k->overlay == OV_SLOT && dev && dev->lanes <= 1)
    k->overlay = OV_ORDER;
  k->mask = dev ? (s->pass == dev->npasses - 1 ? 1 : 2) : 0;
  if (s->run) {
    int p = s->pass;
    ts_rect t0 = vw_tile_of(s->run, p, 0, 0), t1 = vw_tile_of(s->run, p, 1, 0);
    k->space[0] = (float)s->sched->pass[p].tw;
    k->space[1] = (float)s->sched->pass[p].th;
    k->tile[0] = (float)t0.w;
    k->tile[1] = (float)t0.h;
    k->transposed = t1.y != t0.y;
    memcpy(k->norm, norm, sizeof k->norm);
  }
  /* The output texture holds a run's output, or a plain kernel's. */
  int have_out = s->have_out || t->plain_serial;
  k->image_index = dev ? 2 : pane == 1 && have_out ? 1 : 0;
  k->image_tex = t->img[k->image_index].id;
  k->image_serial = t->img[k->image_index].serial;
  if (k->overlay || k->device) {
    k->thr_serial = t->thr_serial;
  } else {
    /* The shader reads nothing of the threads: their changes do not change the pane. */
    memset(k->space, 0, sizeof k->space);
    memset(k->tile, 0, sizeof k->tile);
    memset(k->norm, 0, sizeof k->norm);
    k->transposed = 0;
  }
  if (pane == 1 && !have_out)
    return;
  float x0 = fmaxf(r->x, floorf(k->origin[0])), y0 = fmaxf(r->y, floorf(k->origin[1]));
  float x1 = fminf(r->x + r->w, ceilf(k->origin[0] + (float)iw * s->zoom));
  float y1 = fminf(r->y + r->h, ceilf(k->origin[1] + (float)ih * s->zoom));
  if (x1 > x0 && y1 > y0) {
    k->quad[0] = x0;
    k->quad[1] = y0;
    k->quad[2] = x1;
    k->quad[3] = y1;
  }
}

/* Draws a pane as its key says, the hovered thread's tile highlighted when hover is given
 * (its tile's x, y in the thread space). */
void draw_pane(vw_gl *gl, const vw_scene *s, const vw_pane_key *k, const float *hover)
{
  if (!k->drawn)
    return;
  vw_run_tex *t = gl_run(gl, s->split_side);
  GLuint prog = gl->g.image_prog;
  glUseProgram(prog);
#define U(name) glGetUniformLocation(prog, name)
  glUniform2f(U("u_screen"), k->screen[0], k->screen[1]);
  glUniform2f(U("u_image_size"), k->image[0], k->image[1]);
  glUniform2f(U("u_origin"), k->origin[0], k->origin[1]);
  glUniform1f(U("u_zoom"), k->zoom);
  glUniform4f(U("u_clip"), k->clip[0], k->clip[1], k->clip[2], k->clip[3]);
  glUniform1i(U("u_overlay"), k->overlay);
  glUniform1i(U("u_image"), 0);
  glUniform1i(U("u_threads"), 1);
  glUniform1i(U("u_states"), 2);
  glUniform1f(U("u_alpha"), 0.45f);
  glUniform1i(U("u_tile_grid"), k->tile_grid);
  glUniform2f(U("u_hover"), hover ? hover[0] : -1, hover ? hover[1] : -1);
  glUniform1i(U("u_device"), k->device);
  glUniform1i(U("u_mask"), k->mask);
  glUniform2f(U("u_space"), k->space[0], k->space[1]);
  glUniform2f(U("u_tile"), k->tile[0], k->tile[1]);
  glUniform1i(U("u_transposed"), k->transposed);
  glUniform3f(U("u_norm"), k->norm[0], k->norm[1], k->norm[2]);
#undef U
  glActiveTexture(GL_TEXTURE0);
  gl_bind_image(gl, t, k->zoom, k->image_index);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, t->thr_tex);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_2D, t->state_tex);
  glActiveTexture(GL_TEXTURE0);
  if (k->quad[2] <= k->quad[0])
    return;
  float x0 = k->quad[0], y0 = k->quad[1], x1 = k->quad[2], y1 = k->quad[3];
  float q[12] = { x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1 };
  glBindVertexArray(gl->g.quad_vao);
  glBindBuffer(GL_ARRAY_BUFFER, gl->g.quad_vbo);
  glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof q, q);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glBindVertexArray(0);
}

static int clipped(const vw_rect *c, float x, float y)
{
  return x >= c->x && y >= c->y && x < c->x + c->w && y < c->y + c->h;
}

/* Whether screen rectangle x, y, w, h meets the pane. */
static int meets(const vw_rect *c, float x, float y, float w, float h)
{
  return x < c->x + c->w && y < c->y + c->h && x + w > c->x && y + h > c->y;
}

/* A mark's label in the small font at (x, y), moved into the pane where it would leave it,
 * so that it reads whole beside a mark at the pane's edge. */
static void pane_label(gfx *g, const vw_rect *pane, float x, float y, gfx_color c,
                       const char *text)
{
  float lh = (float)g->font[FONT_SMALL].height, w = (float)gfx_text_width(g, FONT_SMALL, text);
  x = fmaxf(fminf(x, pane->x + pane->w - w - 2), pane->x + 2);
  y = fmaxf(fminf(y, pane->y + pane->h - lh - 2), pane->y + 2);
  gfx_text(g, FONT_SMALL, x, y, c, text);
}

/* The shader draws the grid on tiles 6 screen pixels or more across and down; smaller ones
 * get every Nth line from the batch, at least that far apart. */
#define GRID_MIN_PX 6.0f

int draw_grid_step(const vw_scene *s, int *nx, int *ny)
{
  *nx = *ny = 1;
  /* As the shader: on the output of a run, over an overlay or the device's output. */
  if (!s->tile_grid || !s->run || !s->sched || s->plain || (s->mode == OV_NONE && !s->dev))
    return 0;
  ts_rect t0 = vw_tile_of(s->run, s->pass, 0, 0);
  float tw = (float)t0.w * s->zoom, th = (float)t0.h * s->zoom;
  if (tw <= 0 || th <= 0)
    return 0;
  if (fminf(tw, th) >= GRID_MIN_PX)
    return 1;
  *nx = (int)fminf(1e6f, ceilf(GRID_MIN_PX / tw));
  *ny = (int)fminf(1e6f, ceilf(GRID_MIN_PX / th));
  return 1;
}

/* The tile grid where the shader leaves it out (tiles under GRID_MIN_PX on screen): one
 * line every nx tiles across and every ny down, over the output image, cut to its pane. */
static void draw_fine_grid(vw_gl *gl, const vw_scene *s)
{
  int nx, ny;
  if (!draw_grid_step(s, &nx, &ny) || (nx == 1 && ny == 1) || !s->input)
    return;
  const vw_rect *r = &s->pane[1];
  ts_rect t0 = vw_tile_of(s->run, s->pass, 0, 0);
  float ox, oy, z = s->zoom;
  scene_to_screen(s, 1, 0, 0, &ox, &oy);
  /* The image on screen, within the pane: the lines lie over it only. */
  float x0 = fmaxf(r->x, ox), y0 = fmaxf(r->y, oy);
  float x1 = fminf(r->x + r->w, ox + (float)s->input->w * z);
  float y1 = fminf(r->y + r->h, oy + (float)s->input->h * z);
  if (x1 <= x0 || y1 <= y0)
    return;
  gfx_color c = gfx_rgba(0, 0, 0, 0.55f);
  float sx = (float)t0.w * (float)nx * z, sy = (float)t0.h * (float)ny * z;
  for (float i = ceilf((x0 - ox) / sx); ox + i * sx < x1; i++)
    gfx_rect(&gl->g, floorf(ox + i * sx), y0, 1, y1 - y0, c);
  for (float i = ceilf((y0 - oy) / sy); oy + i * sy < y1; i++)
    gfx_rect(&gl->g, x0, floorf(oy + i * sy), x1 - x0, 1, c);
}

/* Dispatch indices in tiles big enough on screen (and the fine tile grid under them). */
void draw_tile_labels(vw_gl *gl, const vw_scene *s)
{
  const vw_rect *r = &s->pane[1];
  draw_fine_grid(gl, s);
  if (!s->sched || s->mode == OV_NONE)
    return;
  int p = s->pass;
  const ts_pass_sched *ps = &s->sched->pass[p];
  ts_rect t0 = vw_tile_of(s->run, p, 0, 0);
  float tw = (float)t0.w * s->zoom, th = (float)t0.h * s->zoom;
  char digits[16];
  snprintf(digits, sizeof digits, "%u", ps->n - 1);
  int font = FONT_SMALL;
  float need = (float)gfx_text_width(&gl->g, font, digits) + 4;
  if (tw < need || th < (float)gl->g.font[font].height + 2 || (double)ps->n * tw * th < 1)
    return;
  int drawn = 0;
  for (uint32_t id = 0; id < ps->n && drawn < 4000; id++) {
    int tx = (int)(id % (uint32_t)ps->tw), ty = (int)(id / (uint32_t)ps->tw);
    float x, y, w, h;
    scene_rect_to_screen(s, 1, vw_tile_of(s->run, p, tx, ty), &x, &y, &w, &h);
    if (x + w < r->x || y + h < r->y || x > r->x + r->w || y > r->y + r->h)
      continue;
    char label[16];
    snprintf(label, sizeof label, "%u", ps->t[id].dispatch);
    float lw = (float)gfx_text_width(&gl->g, font, label);
    float lx = x + (w - lw) / 2, ly = y + (h - (float)gl->g.font[font].height) / 2;
    if (!clipped(r, lx, ly) || !clipped(r, lx + lw, ly + (float)gl->g.font[font].height))
      continue;
    gfx_text(&gl->g, font, lx + 1, ly + 1, gfx_rgba(0, 0, 0, 0.8f), label);
    gfx_text(&gl->g, font, lx, ly, WHITE, label);
    drawn++;
  }
}

/* Pixel values written in each pixel when zoomed in far enough for them to fit. */
/* A sum too wide for its cell, coarser each try (1.2k, then 1k; 6.7M, then 7M): try 1 and 2;
 * the inspector has it exactly. */
static void compact_sum(uint32_t v, int coarse, char *s, size_t n)
{
  static const char unit[] = "kMG";
  double x = v;
  int u = -1;
  while (x >= 999.5 && u < 2) {
    x /= 1000;
    u++;
  }
  if (u < 0)
    snprintf(s, n, "%u", v);
  else if (coarse == 1 && x < 9.95)
    snprintf(s, n, "%.1f%c", x, unit[u]);
  else
    snprintf(s, n, "%.0f%c", x, unit[u]);
}

void draw_pixel_values(vw_gl *gl, const vw_scene *s, int pane)
{
  const vw_rect *r = &s->pane[pane];
  const ts_image *in = s->input;
  if (s->zoom < 16 || !in)
    return;
  const ts_kctx *k = s->run ? ts_run_kctx(s->run) : NULL;
  int wide = pane == 1 && k && k->buf[TS_BUF_OUT].esize == 4;
  int C = pane == 0 ? in->c : (k ? k->C : 0);
  if (pane == 1 && !k)
    return;
  int font = FONT_SMALL, lh = gl->g.font[font].height;
  float x0, y0;
  int px0 = (int)fmaxf(0, floorf(s->cx - r->w / 2 / s->zoom));
  int py0 = (int)fmaxf(0, floorf(s->cy - r->h / 2 / s->zoom));
  int px1 = (int)fminf((float)in->w, ceilf(s->cx + r->w / 2 / s->zoom));
  int py1 = (int)fminf((float)in->h, ceilf(s->cy + r->h / 2 / s->zoom));
  float zoom = s->zoom;
  int lines = wide ? 1 : C;
  if ((float)(lines * lh) > zoom - 2) {
    if ((float)lh > zoom - 2)
      return;
    lines = 1; /* only the first channel fits */
  }
  for (int py = py0; py < py1; py++)
    for (int px = px0; px < px1; px++) {
      scene_to_screen(s, pane, (float)px, (float)py, &x0, &y0);
      const uint8_t *vals = pane == 0 ? in->data + ((size_t)py * in->w + px) * C
                                      : scene_out_px(s, px, py);
      if (!vals)
        continue; /* not read yet: it comes with the next snapshot */
      for (int c = 0; c < lines; c++) {
        char txt[16];
        uint32_t sum = 0;
        if (wide)
          memcpy(&sum, vals, sizeof sum);
        if (wide)
          snprintf(txt, sizeof txt, "%u", sum);
        else
          snprintf(txt, sizeof txt, "%u", vals[c]);
        float w = (float)gfx_text_width(&gl->g, font, txt);
        for (int coarse = 1; coarse <= 2 && w > zoom - 2 && wide; coarse++) {
          compact_sum(sum, coarse, txt, sizeof txt);
          w = (float)gfx_text_width(&gl->g, font, txt);
        }
        if (w > zoom - 2)
          continue;
        float tx = x0 + (zoom - w) / 2, ty = y0 + (zoom - (float)(lines * lh)) / 2 + (float)(c * lh);
        if (!clipped(r, tx, ty) || !clipped(r, tx + w, ty + (float)lh))
          continue;
        uint8_t val = wide ? 128 : vals[c];
        gfx_color col = val > 140 ? gfx_rgba(0, 0, 0, 1) : WHITE;
        if (lines == 3)
          col = c == 0 ? gfx_rgba(1, 0.45f, 0.45f, 1) : c == 1 ? gfx_rgba(0.4f, 1, 0.4f, 1) : gfx_rgba(0.5f, 0.7f, 1, 1);
        if (lines == 3 && val > 140)
          col = c == 0 ? gfx_rgba(0.5f, 0, 0, 1) : c == 1 ? gfx_rgba(0, 0.4f, 0, 1) : gfx_rgba(0, 0, 0.6f, 1);
        gfx_text(&gl->g, font, tx, ty, col, txt);
      }
    }
}

static void tile_center(const vw_scene *s, int pass, uint32_t id, float *x, float *y)
{
  const ts_pass_sched *ps = &s->sched->pass[pass];
  float w, h;
  scene_rect_to_screen(s, 1, vw_tile_of(s->run, pass, (int)(id % (uint32_t)ps->tw), (int)(id / (uint32_t)ps->tw)),
                       x, y, &w, &h);
  *x += w / 2;
  *y += h / 2;
}

/* A frame of dashes, so that the observed rectangle reads apart from the declared one's
 * solid frame wherever the two coincide. */
static void dashed_frame(vw_gl *gl, float x, float y, float w, float h, float t, gfx_color c)
{
  const float dash = 6, gap = 4;
  for (float d = 0; d < w; d += dash + gap) {
    float len = fminf(dash, w - d);
    gfx_rect(&gl->g, x + d, y, len, t, c);
    gfx_rect(&gl->g, x + d, y + h - t, len, t, c);
  }
  for (float d = 0; d < h; d += dash + gap) {
    float len = fminf(dash, h - d);
    gfx_rect(&gl->g, x, y + d, t, len, c);
    gfx_rect(&gl->g, x + w - t, y + d, t, len, c);
  }
}

/* An inclusive rectangle of a buffer's elements as image pixels: `per` elements a pixel,
 * rows and columns swapped in a transposed buffer. Empty: w or h 0. */
static ts_rect elems_to_px(ts_obs_rect e, int per, int transposed)
{
  if (e.x1 < e.x0 || e.y1 < e.y0 || per < 1)
    return (ts_rect){ 0, 0, 0, 0 };
  int c0 = e.x0 / per, c1 = e.x1 / per;
  return transposed ? (ts_rect){ e.y0, c0, e.y1 - e.y0 + 1, c1 - c0 + 1 }
                    : (ts_rect){ c0, e.y0, c1 - c0 + 1, e.y1 - e.y0 + 1 };
}

static int px_inside(ts_rect r, int x, int y)
{
  return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h;
}

/* What thread `id` of pass `pass` was observed to read from one role's buffer, drawn on a
 * pane over its declared rectangle (drawn by the caller, solid): the observed bounding
 * rectangle dashed in green and, where it leaves the declared one, filled magenta; zoomed in
 * (a pixel 4 screen pixels or more) and for the thread observed exactly, every pixel read
 * (any of its channels) instead, green inside the declaration and magenta outside. */
static float draw_observed(vw_gl *gl, const vw_scene *s, int pane, const vw_rect *clip,
                           int pass, uint32_t id, int role)
{
  const ts_obs_pass *op = ts_observe_pass(s->obs->ob, pass);
  const ts_kctx *k = ts_run_kctx(s->run);
  const ts_pass_desc *pd = &ts_run_params_of(s->run)->variant->passes[pass];
  const ts_obs_acc *a = ts_obs_at(op, id, role, TS_ACC_READ);
  if (!op || !a->count)
    return 1e9f;
  int transposed = role == TS_ROLE_SRC && pd->src_transposed;
  int span = transposed ? k->H : k->W, cols = op->cols[role];
  if (cols % span != 0 || (role != TS_ROLE_SRC && op->buf[role] != TS_BUF_OUT))
    return 1e9f;
  int per = cols / span;
  ts_rect seen = elems_to_px(a->seen, per, transposed), decl = elems_to_px(a->declared, per, transposed);
  gfx_color in = SEEN, out = OBS_COLORS[0];
  in.a = 0.38f;
  out.a = 0.75f;
  float x, y, w, h;
  float zoom = s->zoom;
  if (zoom >= 4 && op->chosen == id) {
    /* The pixels of the observed rectangle on screen, each tested channel by channel. */
    int px0 = (int)fmaxf((float)seen.x, floorf(s->cx - clip->w / 2 / zoom));
    int py0 = (int)fmaxf((float)seen.y, floorf(s->cy - clip->h / 2 / zoom));
    int px1 = (int)fminf((float)(seen.x + seen.w), ceilf(s->cx + clip->w / 2 / zoom));
    int py1 = (int)fminf((float)(seen.y + seen.h), ceilf(s->cy + clip->h / 2 / zoom));
    for (int py = py0; py < py1; py++)
      for (int px = px0; px < px1; px++) {
        int hit = 0;
        for (int c = 0; c < per && !hit; c++)
          hit = transposed ? ts_obs_chosen_has(op, role, TS_ACC_READ, py * per + c, px)
                           : ts_obs_chosen_has(op, role, TS_ACC_READ, px * per + c, py);
        if (!hit)
          continue;
        scene_to_screen(s, pane, (float)px, (float)py, &x, &y);
        /* Apart, where a pixel is large enough for the gap to show. */
        float gap = zoom >= 8 ? 1 : 0;
        gfx_rect(&gl->g, x + gap, y + gap, zoom - 2 * gap, zoom - 2 * gap,
                 px_inside(decl, px, py) ? in : out);
      }
  } else {
    /* The bands of the observed rectangle outside the declared one (all of it when nothing
     * is declared there). */
    ts_rect band[4] = { seen, { 0, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
    if (decl.w > 0 && decl.h > 0) {
      int sx1 = seen.x + seen.w, sy1 = seen.y + seen.h;
      int dx0 = decl.x, dy0 = decl.y, dx1 = decl.x + decl.w, dy1 = decl.y + decl.h;
      int top = dy0 < sy1 ? dy0 : sy1, bottom = dy1 > seen.y ? dy1 : seen.y;
      int left = dx0 < sx1 ? dx0 : sx1, right = dx1 > seen.x ? dx1 : seen.x;
      int my0 = seen.y > dy0 ? seen.y : dy0, my1 = sy1 < dy1 ? sy1 : dy1;
      band[0] = (ts_rect){ seen.x, seen.y, seen.w, top - seen.y };
      band[1] = (ts_rect){ seen.x, bottom, seen.w, sy1 - bottom };
      band[2] = (ts_rect){ seen.x, my0, left - seen.x, my1 - my0 };
      band[3] = (ts_rect){ right, my0, sx1 - right, my1 - my0 };
    }
    for (int i = 0; i < 4; i++)
      if (band[i].w > 0 && band[i].h > 0) {
        scene_rect_to_screen(s, pane, band[i], &x, &y, &w, &h);
        gfx_rect(&gl->g, x, y, fmaxf(w, 1), fmaxf(h, 1), out);
      }
  }
  if (role != TS_ROLE_SRC && decl.w > 0) {
    scene_rect_to_screen(s, pane, decl, &x, &y, &w, &h);
    gfx_frame(&gl->g, x - 1, y - 1, w + 2, h + 2, 2, FOOT);
  }
  scene_rect_to_screen(s, pane, seen, &x, &y, &w, &h);
  dashed_frame(gl, x - 3, y - 3, w + 6, h + 6, 2, SEEN);
  if (meets(clip, x - 3, y - 3, w + 6, h + 6))
    pane_label(&gl->g, clip, x - 3, y + h + 4, SEEN, "observed");
  return y - 3;
}

void draw_focus(vw_gl *gl, const vw_scene *s)
{
  const vw_rect *rin = &s->pane[0], *rout = &s->pane[1];
  int pass = s->focus_pass;
  uint32_t id = s->focus_id;
  if (!s->focus || pass != s->pass)
    return;
  gfx *g = &gl->g;
  const ts_pass_sched *ps = &s->sched->pass[pass];
  const ts_pass_desc *pd = &ts_run_params_of(s->run)->variant->passes[pass];
  int tx = (int)(id % (uint32_t)ps->tw), ty = (int)(id / (uint32_t)ps->tw);
  float x, y, w, h;
  /* On the input: the read footprint with its halo, and the tile inside it; with an
   * observation, what the thread really read over it (and on the output, what it read of
   * its own output, as the integral image does). Each pane's marks are cut to it: a
   * footprint at the input's edge stops there and does not reach into the output pane. */
  const vw_obs *o = s->obs;
  float top = 1e9f;
  gfx_clip(g, rin->x, rin->y, rin->w, rin->h);
  if (o)
    top = draw_observed(gl, s, 0, rin, pass, id, TS_ROLE_SRC);
  scene_rect_to_screen(s, 0, pd->read_px(ts_run_kctx(s->run), tx, ty), &x, &y, &w, &h);
  if (meets(rin, x - 1, y - 1, w + 2, h + 2) && (clipped(rin, x + w / 2, y + h / 2) || w > 4)) {
    gfx_frame(g, x - 1, y - 1, w + 2, h + 2, 2, FOOT);
    /* Above the observed frame where that one reaches higher. */
    const char *label = o ? "declared reads" : "reads";
    pane_label(g, rin, x, o ? fminf(y - 1, top) - 14 : y - 13, FOOT, label);
  }
  scene_rect_to_screen(s, 0, vw_tile_of(s->run, pass, tx, ty), &x, &y, &w, &h);
  gfx_frame(g, x, y, w, h, 1, WHITE);
  /* On the output: the tile, arrows to what it waits for and from what waits for it. */
  gfx_clip(g, rout->x, rout->y, rout->w, rout->h);
  if (o)
    draw_observed(gl, s, 1, rout, pass, id, TS_ROLE_COMMITTED);
  scene_rect_to_screen(s, 1, vw_tile_of(s->run, pass, tx, ty), &x, &y, &w, &h);
  gfx_frame(g, x - 1, y - 1, w + 2, h + 2, 2, WHITE);
  float cx, cy;
  tile_center(s, pass, id, &cx, &cy);
  uint32_t tg[TS_PATTERN_MAX_VECTORS];
  int n = ts_sched_waits(s->sched, pass, id, tg);
  float th = fmaxf(1.5f, fminf(3.0f, s->zoom * 0.5f));
  for (int i = 0; i < n; i++) {
    float ox, oy;
    tile_center(s, pass, tg[i], &ox, &oy);
    gfx_arrow(g, cx, cy, ox, oy, th, WAITS);
  }
  n = ts_sched_waiters(s->sched, pass, id, tg);
  for (int i = 0; i < n; i++) {
    float ox, oy;
    tile_center(s, pass, tg[i], &ox, &oy);
    gfx_arrow(g, ox, oy, cx, cy, th, WAITERS);
  }
  /* Hazards: lines to the producers it read too early (the simulation's, so not here in the
   * device view, which marks wrong tiles instead). */
  size_t nh = 0;
  const ts_hazard *hz = s->dev ? NULL : ts_run_hazards(s->run, &nh);
  for (size_t i = 0; i < nh; i++)
    if (hz[i].pass == pass && hz[i].consumer == id) {
      float ox, oy;
      tile_center(s, pass, hz[i].producer, &ox, &oy);
      gfx_arrow(g, ox, oy, cx, cy, th, STATE_COLORS[4]);
    }
  gfx_unclip(g);
}

/* The output pane again where the hovered tile lies, with it highlighted: the same quad as
 * the whole pane's (so the same interpolated positions), cut by a scissor. */
void draw_hover(vw_gl *gl, const vw_scene *s, const vw_pane_key *k)
{
  if (!k->drawn || k->overlay == 0 || k->quad[2] <= k->quad[0] || !s->hover)
    return;
  float x, y, w, h;
  scene_rect_to_screen(s, 1, vw_tile_of(s->run, s->hover_pass, (int)s->hover_tile[0], (int)s->hover_tile[1]),
                       &x, &y, &w, &h);
  float x0 = fmaxf(floorf(x) - 1, k->quad[0]), y0 = fmaxf(floorf(y) - 1, k->quad[1]);
  float x1 = fminf(ceilf(x + w) + 1, k->quad[2]), y1 = fminf(ceilf(y + h) + 1, k->quad[3]);
  if (x1 <= x0 || y1 <= y0)
    return;
  glEnable(GL_SCISSOR_TEST);
  glScissor((GLint)x0, s->height - (GLint)y1, (GLsizei)(x1 - x0), (GLsizei)(y1 - y0));
  draw_pane(gl, s, k, s->hover_tile);
  glDisable(GL_SCISSOR_TEST);
}

