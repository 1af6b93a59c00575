/* Drawing a plain kernel's view (the scene's plain_view, plain_view.h), at the tick shown of
 * the pass shown (its records' clock, stepped like a schedule): over the output pane its
 * work-groups' tiles (what each was observed to write) by their state at the tick, faint not
 * started, yellow running, done outlined, red or orange where a finding names the group
 * (the output itself dark where a group had not ended: gl_resources.c), and a red square at
 * each element a finding names; the hovered group's footprint (what it read) on the input
 * pane and its tile on the output pane, as the built-in hover draws them; the watched pixel
 * (a click) marked in cyan and the work-groups that wrote it outlined in cyan; the title over
 * the output; the side panel: the file, the pass and its launch, the findings by kind, the
 * selected finding or line (draw_source.c, whose pane has the input's place when it is on),
 * every access of the watched pixel, the hovered group with its rectangles, record, findings
 * and (with the source pane) the lines that touched it, the legend (its timeline, a Gantt chart: draw_timeline.c). Reads the scene (its plain_view
 * through the const queries) and changes nothing of it. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "colors.h"
#include "draw_plain.h"
#include "draw_source.h"
#include "draw_text.h"

static const gfx_color WATCH = { 0.15f, 0.95f, 1.0f, 1 }; /* the watched pixel, its writers */
static const char *const TINT_NAMES[PV_NTINTS] = { "clean", "uninitialised, tile",
                                                    "race, outside, divergence" };
enum { LEGEND_H = 83 }; /* the legend's height at the panel's foot */

/* A frame of thickness t inside (x, y, w, h), cut to the clip; dashed when `dash`. */
static void clip_frame(vw_gl *gl, const vw_rect *c, float x, float y, float w, float h, float t,
                       gfx_color col, int dash)
{
  const float on = dash ? 6 : w + h, gap = dash ? 4 : 0;
  for (float d = 0; d < w; d += on + gap) {
    float len = fminf(on, w - d);
    draw_clip_rect(gl, c, x + d, y, len, t, col);
    draw_clip_rect(gl, c, x + d, y + h - t, len, t, col);
  }
  for (float d = 0; d < h; d += on + gap) {
    float len = fminf(on, h - d);
    draw_clip_rect(gl, c, x, y + d, t, len, col);
    draw_clip_rect(gl, c, x + w - t, y + d, t, len, col);
  }
}

/* A frame with a dark edge round it, to read over any image. */
static void shadow_frame(vw_gl *gl, const vw_rect *c, float x, float y, float w, float h, float t,
                         gfx_color col, int dash)
{
  clip_frame(gl, c, x - 1, y - 1, w + 2, h + 2, t + 2, gfx_rgba(0, 0, 0, 0.55f), 0);
  clip_frame(gl, c, x, y, w, h, t, col, dash);
}

/* A label on a dark backing, inside the clip. */
static void label(vw_gl *gl, const vw_rect *c, float x, float y, gfx_color col, const char *s)
{
  float w = (float)gfx_text_width(&gl->g, FONT_SMALL, s), h = (float)gl->g.font[FONT_SMALL].height;
  if (y < c->y || y + h > c->y + c->h)
    return;
  x = fmaxf(c->x + 2, fminf(x, c->x + c->w - w - 4));
  gfx_rect(&gl->g, x - 2, y - 1, w + 4, h + 2, gfx_rgba(0, 0, 0, 0.7f));
  gfx_text(&gl->g, FONT_SMALL, x, y, col, s);
}

static int rect_empty(ts_plain_rect r)
{
  return r.x1 < r.x0 || r.y1 < r.y0;
}

/* An inclusive rectangle of pixels on pane `pane`, in screen coordinates. */
static void rect_screen(const vw_scene *s, int pane, ts_plain_rect r, float *x, float *y, float *w,
                        float *h)
{
  scene_rect_to_screen(s, pane, (ts_rect){ r.x0, r.y0, r.x1 - r.x0 + 1, r.y1 - r.y0 + 1 }, x, y,
                       w, h);
}

static int visible(const vw_rect *c, float x, float y, float w, float h)
{
  return x + w >= c->x && y + h >= c->y && x <= c->x + c->w && y <= c->y + c->h;
}

/* The hovered work-group of the pass shown, or 0. */
static int hovered_group(const vw_scene *s, uint32_t *g)
{
  return s->hover_pane >= 0 && plain_view_group_at(s->plain, s->hover_x, s->hover_y, g);
}

/* A group's declared tile (tile=WxH) with `grow` pixels round it; 0 when none is declared. */
static int declared(const plain_view *pv, const ts_plain_launch *L, uint32_t g, int grow,
                    ts_plain_rect *r)
{
  const ts_plain_pass *ps = &pv->desc->pass[pv->pass];
  if (ps->tile_w <= 0 || ps->tile_h <= 0 || L->ngroups[0] == 0)
    return 0;
  int gx = (int)(g % L->ngroups[0]), gy = (int)(g / L->ngroups[0] % (L->ngroups[1] ? L->ngroups[1] : 1));
  *r = (ts_plain_rect){ gx * ps->tile_w - grow, gy * ps->tile_h - grow,
                        (gx + 1) * ps->tile_w - 1 + grow, (gy + 1) * ps->tile_h - 1 + grow };
  return 1;
}

/* A work-group's state at the tick shown (PV_DONE without a record to step). */
static int group_state(const vw_scene *s, const ts_plain_group *G)
{
  return plain_view_ticks(s->plain) ? plain_view_group_state(G, s->plain_tick) : PV_DONE;
}

/* A group's layer in draw_tiles: those not started, the done ones by tint (the clean first,
 * so that the tinted outlines lie on top), the running ones over all. */
static int tile_layer(const vw_scene *s, const ts_plain_group *G, const uint8_t *tint, uint32_t g)
{
  int st = group_state(s, G);
  return st == PV_PENDING ? 0 : st == PV_DONE ? 1 + (tint ? tint[g] : 0) : 1 + PV_NTINTS;
}

/* A tile as its state at the tick shown draws it: not started, a faint outline (its output
 * is dark until it ends); running, yellow, with a violet frame inside once it has passed a
 * barrier; done, by what the findings that name it found. A tile too small on screen for an
 * outline is filled instead. */
static void draw_tile(vw_gl *gl, const vw_rect *rout, float x, float y, float w, float h, int st,
                      int t)
{
  int small = fminf(w, h) < 5;
  if (st == PV_PENDING) {
    if (!small)
      clip_frame(gl, rout, x, y, w, h, 1, PLAIN_PENDING, 0);
    return;
  }
  if (st != PV_DONE) {
    gfx_color c = small && st == PV_PAST_BARRIER ? PLAIN_BARRIER : PLAIN_RUNNING, fill = c;
    fill.a = small ? 0.75f : 0.3f;
    draw_clip_rect(gl, rout, x, y, w, h, fill);
    if (small)
      return;
    float th = fminf(w, h) >= 10 ? 2 : 1;
    clip_frame(gl, rout, x, y, w, h, th, c, 0);
    if (st == PV_PAST_BARRIER)
      clip_frame(gl, rout, x + th, y + th, w - 2 * th, h - 2 * th, th, PLAIN_BARRIER, 0);
    return;
  }
  gfx_color c = PLAIN_TINTS[t], fill = c;
  fill.a = t ? 0.3f : 0;
  if (small) {
    fill.a = t ? 0.7f : 0;
    if (t)
      draw_clip_rect(gl, rout, x, y, w, h, fill);
    return;
  }
  if (t)
    draw_clip_rect(gl, rout, x, y, w, h, fill);
  clip_frame(gl, rout, x, y, w, h, t && fminf(w, h) >= 10 ? 2 : 1, c, 0);
}

/* The tiles of the pass shown on the output pane, each by its state at the tick shown. */
static void draw_tiles(vw_gl *gl, const vw_scene *s, const vw_rect *rout, const ts_plain_launch *L,
                       const uint8_t *tint)
{
  for (int layer = 0; layer <= 1 + PV_NTINTS; layer++)
    for (uint32_t g = 0; g < L->ngroups_all; g++) {
      const ts_plain_group *G = &L->groups[g];
      if (rect_empty(G->wrote) || tile_layer(s, G, tint, g) != layer)
        continue;
      float x, y, w, h;
      rect_screen(s, 1, G->wrote, &x, &y, &w, &h);
      if (visible(rout, x, y, w, h))
        draw_tile(gl, rout, x, y, w, h, group_state(s, G), tint ? tint[g] : 0);
    }
}

/* A red square at each element of the pass shown that a finding names. */
static void draw_places(vw_gl *gl, const vw_scene *s, const vw_rect *rout, const plain_view *pv)
{
  for (size_t i = 0; i < pv->res->nfindings; i++) {
    const ts_plain_finding *f = &pv->res->findings[i];
    for (int j = 0; f->pass == pv->pass && j < f->nplaces; j++) {
      int px, py;
      if (!ts_plain_place_pixel(pv->desc, pv->res, f->pass, &f->place[j], &px, &py))
        continue;
      float x, y, side = fmaxf(s->zoom, 7);
      scene_to_screen(s, 1, (float)px + 0.5f, (float)py + 0.5f, &x, &y);
      draw_clip_rect(gl, rout, x - side / 2 - 1, y - side / 2 - 1, side + 2, side + 2,
                gfx_rgba(0, 0, 0, 0.9f));
      draw_clip_rect(gl, rout, x - side / 2, y - side / 2, side, side, PLAIN_TINTS[PV_RED]);
    }
  }
}

/* The hovered group: on the input its observed footprint (dashed green) over the declared
 * tile and halo (solid yellow) and its tile (white); on the output its tile (white) over
 * the declared one. */
static void draw_hover_group(vw_gl *gl, const vw_scene *s, const vw_rect *rin, const vw_rect *rout,
                             const plain_view *pv, const ts_plain_launch *L, uint32_t g)
{
  const ts_plain_group *G = &L->groups[g];
  const ts_plain_pass *ps = &pv->desc->pass[pv->pass];
  float x, y, w, h, top = 1e9f;
  ts_plain_rect d;
  if (declared(pv, L, g, ps->halo, &d)) {
    rect_screen(s, 0, d, &x, &y, &w, &h);
    shadow_frame(gl, rin, x - 1, y - 1, w + 2, h + 2, 2, FOOT, 0);
    top = y - 1;
  }
  if (!rect_empty(G->read)) {
    rect_screen(s, 0, G->read, &x, &y, &w, &h);
    clip_frame(gl, rin, x - 3, y - 3, w + 6, h + 6, 2, SEEN, 1);
    label(gl, rin, x - 3, y + h + 6, SEEN, "observed reads");
    top = fminf(top, y - 3);
  }
  if (top < 1e8f && ps->tile_w > 0)
    label(gl, rin, x - 3, top - 16, FOOT, "declared reads");
  if (rect_empty(G->wrote))
    return;
  rect_screen(s, 0, G->wrote, &x, &y, &w, &h);
  shadow_frame(gl, rin, x, y, w, h, 1, WHITE, 0);
  if (declared(pv, L, g, 0, &d)) {
    rect_screen(s, 1, d, &x, &y, &w, &h);
    clip_frame(gl, rout, x - 1, y - 1, w + 2, h + 2, 1, FOOT, 0);
  }
  rect_screen(s, 1, G->wrote, &x, &y, &w, &h);
  draw_clip_rect(gl, rout, x, y, w, h, gfx_rgba(1, 1, 1, 0.18f));
  shadow_frame(gl, rout, x - 2, y - 2, w + 4, h + 4, 2, WHITE, 0);
  uint32_t gx = g % L->ngroups[0], gy = L->ngroups[1] ? g / L->ngroups[0] % L->ngroups[1] : 0;
  char id[48];
  snprintf(id, sizeof id, "work-group (%u,%u)", gx, gy);
  label(gl, rout, x - 2, y + h + 6, WHITE, id);
}

/* The watched pixel of the result shown: the work-groups of the pass shown that wrote it
 * outlined in cyan, and the pixel marked with a cyan square and crosshair ticks. */
static void draw_watch(vw_gl *gl, const vw_scene *s, const vw_rect *rout, const plain_view *pv,
                       const ts_plain_launch *L)
{
  const ts_image *o = pv->res->out;
  if (pv->res_watch_x < 0 || !o || pv->res_watch_x >= o->w || pv->res_watch_y >= o->h)
    return;
  float x, y, w, h;
  for (size_t i = 0; i < pv->nwriters; i++) {
    const pv_watch_row *row = &pv->rows[i];
    if (row->pass != pv->pass || row->group >= L->ngroups_all ||
        rect_empty(L->groups[row->group].wrote))
      continue;
    rect_screen(s, 1, L->groups[row->group].wrote, &x, &y, &w, &h);
    if (visible(rout, x, y, w, h))
      shadow_frame(gl, rout, x - 1, y - 1, w + 2, h + 2, 2, WATCH, 1);
  }
  scene_to_screen(s, 1, (float)pv->res_watch_x + 0.5f, (float)pv->res_watch_y + 0.5f, &x, &y);
  float side = fmaxf(s->zoom, 4) + 6, arm = 8;
  shadow_frame(gl, rout, x - side / 2, y - side / 2, side, side, 2, WATCH, 0);
  for (int k = 0; k < 4; k++) {
    float dx = k == 0 ? -1.f : k == 1 ? 1.f : 0, dy = k == 2 ? -1.f : k == 3 ? 1.f : 0;
    float ax = x + dx * (side / 2 + 2 + arm / 2), ay = y + dy * (side / 2 + 2 + arm / 2);
    float aw = dx != 0 ? arm : 2, ah = dy != 0 ? arm : 2;
    draw_clip_rect(gl, rout, ax - aw / 2 - 1, ay - ah / 2 - 1, aw + 2, ah + 2, gfx_rgba(0, 0, 0, 0.6f));
    draw_clip_rect(gl, rout, ax - aw / 2, ay - ah / 2, aw, ah, WATCH);
  }
  char id[48];
  snprintf(id, sizeof id, "pixel (%d,%d)", pv->res_watch_x, pv->res_watch_y);
  label(gl, rout, x + side / 2 + arm + 6, y + side / 2 + 4, WATCH, id);
}

/* Element i of the output's raw lanes (one channel) as a number, and in words (43, -7, 0.125);
 * 0 where the result has none. */
static double raw_value(const ts_plain_result *res, size_t i, char *txt, size_t n)
{
  size_t lane = (size_t)res->raw_lane;
  if (!res->raw || lane == 0 || (i + 1) * lane > res->raw_bytes) {
    snprintf(txt, n, "-");
    return 0;
  }
  const uint8_t *q = res->raw + i * lane;
  if (res->raw_float && lane == 4) {
    float f;
    memcpy(&f, q, 4);
    snprintf(txt, n, "%.4g", f);
    return f;
  }
  if (res->raw_float) {
    double f;
    memcpy(&f, q, 8);
    snprintf(txt, n, "%.4g", f);
    return f;
  }
  uint64_t u = 0;
  memcpy(&u, q, lane < 8 ? lane : 8);
  if (res->raw_signed && lane < 8 && (u >> (8 * lane - 1) & 1))
    u |= ~(uint64_t)0 << (8 * lane);
  if (res->raw_signed) {
    snprintf(txt, n, "%lld", (long long)(int64_t)u);
    return (double)(int64_t)u;
  }
  snprintf(txt, n, "%llu", (unsigned long long)u);
  return (double)u;
}

/* A one-row output of one channel (a histogram's bins) as a bar chart over its row, each
 * bar its element's value against the greatest, the hovered one named with its value. */
static void draw_bars(vw_gl *gl, const vw_scene *s, const vw_rect *r, const ts_plain_result *res)
{
  if (!res || !res->raw || res->raw_rows != 1 || res->raw_cols < 2 || res->raw_channels != 1)
    return;
  size_t n = (size_t)res->raw_cols;
  char txt[48];
  double most = 0, least = 0;
  for (size_t i = 0; i < n; i++) {
    double v = raw_value(res, i, txt, sizeof txt);
    most = fmax(most, v);
    least = fmin(least, v);
  }
  float x0, y0, x1, y1;
  scene_to_screen(s, 1, 0, 0, &x0, &y0);
  scene_to_screen(s, 1, (float)n, 1, &x1, &y1);
  int lh = gl->g.font[FONT_SMALL].height;
  float top = r->y + 8 + 2 * (float)lh, base = y0 - 6, h = base - top;
  if (h < 40 || most - least <= 0)
    return;
  /* the bars stand on zero: negative values hang below it */
  float zero = base - h * (float)(-least / (most - least)), bw = (x1 - x0) / (float)n;
  int hov = s->hover_pane == 1 && s->hover_x >= 0 && s->hover_x < (float)n ? (int)s->hover_x : -1;
  gfx_color bar = gfx_rgba(0.55f, 0.70f, 0.95f, 1);
  for (size_t i = 0; i < n; i++) {
    double v = raw_value(res, i, txt, sizeof txt);
    float bh = h * (float)(fabs(v) / (most - least));
    float bx = x0 + bw * (float)i, w = bw > 3 ? bw - 1 : fmaxf(bw, 1);
    draw_clip_rect(gl, r, bx, v >= 0 ? zero - bh : zero, w, fmaxf(bh, v != 0 ? 1 : 0),
              (int)i == hov ? WATCH : bar);
  }
  draw_clip_rect(gl, r, x0, zero, x1 - x0, 1, DIM);
  char t[160];
  snprintf(t, sizeof t, "%zu elements, the greatest %.6g%s", n, most,
           least < 0 ? "" : " (bars from 0)");
  label(gl, r, x0, r->y + 6, WHITE, t);
  if (hov >= 0) {
    raw_value(res, (size_t)hov, txt, sizeof txt);
    snprintf(t, sizeof t, "[%d] = %s", hov, txt);
    label(gl, r, x0, r->y + 6 + (float)lh, WATCH, t);
  }
}

/* The output's values, as the kernel left them (the raw lanes: 43, -7, 0.125), in each
 * element when zoomed in far enough for them to fit: a buffer shown as a grid (a simulator
 * file's) reads like its dump. */
static void draw_values(vw_gl *gl, const vw_scene *s, const vw_rect *r, const ts_plain_result *res)
{
  if (!res || !res->raw || s->zoom < 16 || res->raw_channels != 1)
    return;
  int font = FONT_SMALL, lh = gl->g.font[font].height;
  if ((float)lh > s->zoom - 2)
    return;
  int px0 = (int)fmaxf(0, floorf(s->cx - r->w / 2 / s->zoom));
  int py0 = (int)fmaxf(0, floorf(s->cy - r->h / 2 / s->zoom));
  int px1 = (int)fminf((float)res->raw_cols, ceilf(s->cx + r->w / 2 / s->zoom));
  int py1 = (int)fminf((float)res->raw_rows, ceilf(s->cy + r->h / 2 / s->zoom));
  for (int py = py0; py < py1; py++)
    for (int px = px0; px < px1; px++) {
      char txt[32];
      raw_value(res, (size_t)py * (size_t)res->raw_cols + (size_t)px, txt, sizeof txt);
      float w = (float)gfx_text_width(&gl->g, font, txt);
      if (w > s->zoom - 2)
        continue;
      float x0, y0;
      scene_to_screen(s, 1, (float)px, (float)py, &x0, &y0);
      float tx = x0 + (s->zoom - w) / 2, ty = y0 + (s->zoom - (float)lh) / 2;
      if (tx < r->x || ty < r->y || tx + w > r->x + r->w || ty + (float)lh > r->y + r->h)
        continue;
      const uint8_t *shade = res->out ? res->out->data + ((size_t)py * (size_t)res->out->w +
                                                           (size_t)px) * (size_t)res->out->c
                                      : NULL;
      gfx_text(&gl->g, font, tx, ty, shade && *shade > 140 ? gfx_rgba(0, 0, 0, 1) : WHITE, txt);
    }
}

void draw_plain_overlay(vw_gl *gl, const vw_scene *s)
{
  const vw_rect *rin = &s->pane[0], *rout = &s->pane[1];
  const plain_view *pv = s->plain;
  if (pv->res && s->input) {
    draw_values(gl, s, rout, pv->res);
    draw_bars(gl, s, rout, pv->res);
  }
  const ts_plain_launch *L = plain_view_launch(pv);
  if (!L || !L->groups || !s->input)
    return;
  if (s->mode != OV_NONE)
    draw_tiles(gl, s, rout, L, pv->tint[pv->pass]);
  draw_places(gl, s, rout, pv);
  draw_watch(gl, s, rout, pv, L);
  uint32_t g;
  if (hovered_group(s, &g))
    draw_hover_group(gl, s, rin, rout, pv, L, g);
}

void draw_plain_title(vw_gl *gl, const vw_scene *s)
{
  const vw_rect *rout = &s->pane[1];
  const plain_view *pv = s->plain;
  float x = rout->x + 8;
  if (pv->res) {
    char t[1200], pass[64] = "", at[64] = "";
    if (pv->res->npasses > 1)
      snprintf(pass, sizeof pass, "   pass %d of %d", pv->pass + 1, pv->res->npasses);
    if (s->plain_tick < plain_view_ticks(pv)) /* before the end: what the ended groups wrote */
      snprintf(at, sizeof at, " at tick %u", s->plain_tick);
    int fits = (int)((rout->w - 16) / (float)gl->g.font[FONT_UI].advance);
    /* the longest wording that fits a narrow pane (a projector's 1280x720) whole */
    static const char *const lead[3] = { "observed output of ", "output of ", "" };
    char side[112] = ""; /* the split view's: the order of this half */
    if (s->split_side)
      snprintf(side, sizeof side, "%s: ", s->label);
    for (int i = 0; i < 3; i++) {
      snprintf(t, sizeof t, "%s%s%s%s%s", side, lead[i], pv->name, pass, at);
      if ((int)strlen(t) <= fits)
        break;
    }
    gfx_textf(&gl->g, FONT_UI, x, 4, WHITE, "%.*s", fits > 0 ? fits : 0, t);
    return;
  }
  if (!pv->error[0]) {
    gfx_textf(&gl->g, FONT_UI, x, 4, DIM, "running %s observed...", pv->name);
    return;
  }
  /* No result yet: the error, wrapped to the pane. */
  int fits = (int)((rout->w - 24) / (float)gl->g.font[FONT_UI].advance);
  const char *e = pv->error;
  for (float ey = rout->y + 12; *e && fits > 8; ey += (float)gl->g.font[FONT_UI].height) {
    int take = (int)strlen(e) > fits ? fits : (int)strlen(e);
    gfx_textf(&gl->g, FONT_UI, rout->x + 12, ey, WARN, "%.*s", take, e);
    e += take;
  }
}

/* The file, the pass shown and its launch; the device and time in the window. */
static void panel_launch(vw_gl *gl, const vw_scene *s, float x, float *y, const plain_view *pv)
{
  const ts_plain_launch *L = plain_view_launch(pv);
  const ts_plain_pass *ps = &pv->desc->pass[pv->pass];
  panel_line(gl, x, y, WHITE, "pass %d of %d: %s%s", pv->pass + 1, pv->res->npasses, L->entry,
             pv->res->npasses > 1 ? "   [tab] next" : "");
  char gsz[64], lsz[64];
  if (L->dims >= 3) {
    snprintf(gsz, sizeof gsz, "%zux%zux%zu", L->global[0], L->global[1], L->global[2]);
    snprintf(lsz, sizeof lsz, "%zux%zux%zu", L->local[0], L->local[1], L->local[2]);
  } else if (L->dims == 2) {
    snprintf(gsz, sizeof gsz, "%zux%zu", L->global[0], L->global[1]);
    snprintf(lsz, sizeof lsz, "%zux%zu", L->local[0], L->local[1]);
  } else {
    snprintf(gsz, sizeof gsz, "%zu", L->global[0]);
    snprintf(lsz, sizeof lsz, "%zu", L->local[0]);
  }
  panel_line(gl, x, y, WHITE, "global %s, local %s", gsz, lsz);
  if (L->dims >= 2)
    panel_line(gl, x, y, WHITE, "%u work-groups (%ux%u)", L->ngroups_all, L->ngroups[0],
               L->ngroups[1]);
  else
    panel_line(gl, x, y, WHITE, "%u work-groups", L->ngroups_all);
  if (ps->tile_w > 0)
    panel_line(gl, x, y, WHITE, "declared tile %dx%d, halo %d", ps->tile_w, ps->tile_h, ps->halo);
  else
    panel_line(gl, x, y, DIM, "no tile declared (tile=WxH halo=N)");
  /* A shot names no time (it differs between runs). */
  draw_device_heading(gl, x, y, "device", draw_cl_device(pv->res->device));
  if (s->live)
    panel_line(gl, x, y, WHITE, "observed run %.3f ms", L->ms);
}

/* The findings of every pass by kind: accesses, and the lines that report them. */
static void panel_findings(vw_gl *gl, float x, float *y, const plain_view *pv)
{
  const ts_plain_result *r = pv->res;
  panel_line(gl, x, y, ACCENT, "findings (observed accesses)");
  int any = 0;
  for (int k = 0; k < TS_NFIND; k++) {
    if (!r->counts[k])
      continue;
    gfx_rect(&gl->g, x, *y + 3, 10, 10, PLAIN_TINTS[plain_view_kind_tint(k)]);
    panel_line(gl, x + 16, y, WHITE, "%s: %llu", ts_plain_kind_name(k),
               (unsigned long long)r->counts[k]);
    any = 1;
  }
  if (!any)
    panel_line(gl, x, y, SEEN, "none: every access was in order");
  const uint32_t *n = pv->ntinted[pv->pass];
  panel_line(gl, x, y, n[PV_RED] || n[PV_ORANGE] ? WARN : DIM,
             "work-groups with findings: %u red, %u orange", n[PV_RED], n[PV_ORANGE]);
}

/* The watched pixel (a click): every access of it by any work-item, all passes, one line per
 * work-item and source line (its channels collapsed), writers first; at most 12 lines. */
static void panel_watch(vw_gl *gl, const vw_rect *r, float x, float *y, const plain_view *pv)
{
  int asked = pv->watch_x != pv->res_watch_x || pv->watch_y != pv->res_watch_y;
  if (asked && !pv->done && pv->watch_x >= 0)
    panel_line(gl, x, y, DIM, "pixel (%d,%d): observing its every access...", pv->watch_x,
               pv->watch_y);
  if (pv->res_watch_x < 0)
    return;
  const ts_image *o = pv->res->out;
  if (!o || pv->res_watch_x >= o->w || pv->res_watch_y >= o->h) {
    panel_line(gl, x, y, WARN, "pixel (%d,%d) is outside the %dx%d output", pv->res_watch_x,
               pv->res_watch_y, o ? o->w : 0, o ? o->h : 0);
    return;
  }
  panel_line(gl, x, y, WATCH, "pixel (%d,%d): every access", pv->res_watch_x, pv->res_watch_y);
  if (pv->nrows == 0) {
    panel_line(gl, x, y, DIM, "  no work-item read or wrote it");
    return;
  }
  panel_line(gl, x, y, DIM, "  %zu work-item%s wrote it, %zu line%s in all", pv->nwriters,
             pv->nwriters == 1 ? "" : "s", pv->nrows, pv->nrows == 1 ? "" : "s");
  float lh = (float)gl->g.font[FONT_SMALL].height, bottom = r->y + r->h - LEGEND_H - 12 - 3 * lh;
  size_t shown = 0;
  size_t fits = (size_t)((PANEL_TEXT_W - 8) / (float)gl->g.font[FONT_SMALL].advance);
  for (; shown < pv->nrows && shown < 12 && *y + 2 * lh <= bottom; shown++) {
    /* One line, or two broken before the verb: who, then what of the pixel. */
    const pv_watch_row *row = &pv->rows[shown];
    gfx_color c = row->writes ? WHITE : SEEN;
    if (strlen(row->text) <= fits || !row->split) {
      gfx_textf(&gl->g, FONT_SMALL, x + 8, *y, c, "%.*s", (int)fits, row->text);
    } else {
      gfx_textf(&gl->g, FONT_SMALL, x + 8, *y, c, "%.*s", row->split, row->text);
      *y += lh;
      gfx_textf(&gl->g, FONT_SMALL, x + 24, *y, c, "%.*s", (int)fits - 2, row->text + row->split + 1);
    }
    *y += lh + 4;
  }
  if (shown < pv->nrows)
    gfx_textf(&gl->g, FONT_SMALL, x + 8, (*y += lh) - lh, DIM, "... and %zu more",
              pv->nrows - shown);
  if (pv->log_cut)
    gfx_text(&gl->g, FONT_SMALL, x + 8, (*y += lh) - lh, DIM,
             "(the log kept the first accesses of a pass only)");
}

/* A group's record on the launch's clock: its start order (and the id the device gave it,
 * where an order of tilescope's mapped it), its ticks, its barriers, the polls it waited for
 * its turn, and its state at the tick shown. */
static void panel_record(vw_gl *gl, const vw_scene *s, float x, float *y, const ts_plain_launch *L,
                         uint32_t g)
{
  const ts_plain_group *G = &L->groups[g];
  if (!plain_view_ticks(s->plain))
    return;
  if (!G->start) {
    panel_line(gl, x, y, WARN, "  never started (the launch was let go before its turn)");
    return;
  }
  char as[64] = "";
  if (G->launched_as != g) {
    char id[40];
    ts_plain_group_name(L, G->launched_as, id, sizeof id);
    snprintf(as, sizeof as, ", launched as %s", id);
  }
  panel_line(gl, x, y, WHITE, "  start order %u of %u%s", G->ticket + 1, L->ngroups_all, as);
  if (G->end)
    panel_line(gl, x, y, WHITE, "  ticks %u..%u (%u), polls waited for its turn: %u", G->start,
               G->end, G->end - G->start, G->spins);
  else
    panel_line(gl, x, y, WARN, "  ticks %u.., never ended; polls waited for its turn: %u",
               G->start, G->spins);
  char bars[128] = "";
  size_t len = 0;
  for (uint32_t b = 0; b < G->nbar && b < TS_PLAIN_REC_BARS && len < sizeof bars; b++)
    len += (size_t)snprintf(bars + len, sizeof bars - len, "%s%u", b ? ", " : "", G->bar[b]);
  if (!G->nbar)
    panel_line(gl, x, y, DIM, "  no barrier");
  else
    panel_line(gl, x, y, PLAIN_BARRIER, "  %u barrier%s, at tick%s %s%s", G->nbar,
               G->nbar == 1 ? "" : "s", G->nbar == 1 ? "" : "s", bars,
               G->nbar > TS_PLAIN_REC_BARS ? ", ..." : "");
  int st = plain_view_group_state(G, s->plain_tick), nb = plain_view_barriers_by(G, s->plain_tick);
  if (st == PV_PENDING)
    panel_line(gl, x, y, DIM, "  at tick %u: not started", s->plain_tick);
  else if (st == PV_DONE)
    panel_line(gl, x, y, PLAIN_DONE, "  at tick %u: done", s->plain_tick);
  else if (st == PV_RUNNING)
    panel_line(gl, x, y, PLAIN_RUNNING, "  at tick %u: running, before its first barrier",
               s->plain_tick);
  else
    panel_line(gl, x, y, PLAIN_BARRIER, "  at tick %u: running, past %s%d barrier%s", s->plain_tick,
               nb == TS_PLAIN_REC_BARS && G->nbar > TS_PLAIN_REC_BARS ? "at least " : "", nb,
               nb == 1 ? "" : "s");
}

/* The hovered group: its id, rectangles, record and the findings that name it. */
static void panel_group(vw_gl *gl, const vw_scene *s, float x, float *y, uint32_t g)
{
  const vw_rect *r = &s->panel;
  const plain_view *pv = s->plain;
  const ts_plain_launch *L = plain_view_launch(pv);
  const ts_plain_group *G = &L->groups[g];
  uint32_t gx = g % L->ngroups[0], gy = L->ngroups[1] ? g / L->ngroups[0] % L->ngroups[1] : 0;
  uint8_t t = pv->tint[pv->pass] ? pv->tint[pv->pass][g] : 0;
  panel_line(gl, x, y, t ? PLAIN_TINTS[t] : WHITE, "work-group (%u,%u), #%u of pass %d", gx, gy, g,
             pv->pass + 1);
  if (rect_empty(G->read))
    panel_line(gl, x, y, DIM, "  read nothing of the input");
  else
    panel_line(gl, x, y, SEEN, "  read  x %d..%d, y %d..%d (%dx%d px)", G->read.x0, G->read.x1,
               G->read.y0, G->read.y1, G->read.x1 - G->read.x0 + 1, G->read.y1 - G->read.y0 + 1);
  if (rect_empty(G->wrote))
    panel_line(gl, x, y, DIM, "  wrote nothing of the output");
  else
    panel_line(gl, x, y, WHITE, "  wrote x %d..%d, y %d..%d (%dx%d px)", G->wrote.x0,
               G->wrote.x1, G->wrote.y0, G->wrote.y1, G->wrote.x1 - G->wrote.x0 + 1,
               G->wrote.y1 - G->wrote.y0 + 1);
  panel_record(gl, s, x, y, L, g);
  int lines[12];
  size_t nl = s->source.w > 0 ? plain_view_group_lines(pv, g, lines, 12) : 0;
  if (nl) { /* with the source pane, whose gutter ticks them */
    char ls[160];
    size_t len = 0;
    for (size_t i = 0; i < nl && i < 12 && len < sizeof ls; i++)
      len += (size_t)snprintf(ls + len, sizeof ls - len, "%s%d", i ? ", " : "", lines[i]);
    panel_line(gl, x, y, WHITE, "  lines that touched it: %s%s", ls, nl > 12 ? ", ..." : "");
  }
  float bottom = r->y + r->h - LEGEND_H - 12;
  int n = 0;
  for (size_t i = 0; i < pv->res->nfindings; i++) {
    const ts_plain_finding *f = &pv->res->findings[i];
    int names = 0;
    for (int j = 0; f->pass == pv->pass && j < f->nplaces; j++)
      names |= f->place[j].group == g;
    if (!names)
      continue;
    if (n++ == 0)
      panel_line(gl, x, y, ACCENT, "findings that name it");
    char line[1024];
    ts_plain_finding_line(pv->desc, pv->res, f, line, sizeof line);
    gfx_color c = PLAIN_TINTS[plain_view_kind_tint(f->kind)];
    if (!panel_wrap_font(gl, FONT_SMALL, x, y, bottom, c, line))
      break;
    *y += 3;
  }
  /* findings keep their first places only: one made here that names other groups first */
  uint32_t others = G->kinds;
  for (size_t i = 0; i < pv->res->nfindings; i++) {
    const ts_plain_finding *f = &pv->res->findings[i];
    for (int j = 0; f->pass == pv->pass && j < f->nplaces; j++)
      if (f->place[j].group == g)
        others &= ~(1u << f->kind);
  }
  for (int kind = 0; kind < TS_NFIND && *y < bottom; kind++)
    if (others >> kind & 1) {
      if (n++ == 0)
        panel_line(gl, x, y, ACCENT, "made here too (their lines name others)");
      panel_line(gl, x, y, PLAIN_TINTS[plain_view_kind_tint(kind)], "  %s",
                 ts_plain_kind_name(kind));
    }
  if (!n)
    panel_line(gl, x, y, DIM, "no finding names it");
}

static void panel_legend(vw_gl *gl, const vw_scene *s, float x)
{
  const vw_rect *r = &s->panel;
  float ly = r->y + r->h - LEGEND_H;
  gfx_rect(&gl->g, r->x + 8, ly - 6, r->w - 16, 1, DIM);
  gfx_textf(&gl->g, FONT_UI, x, ly, ACCENT, "overlay: work-groups %s [o]",
            s->mode == OV_NONE ? "off" : "(tile: what each wrote)");
  ly += 20;
  float lx = x;
  for (int t = PV_NTINTS - 1; t >= 0; t--) {
    gfx_color c = PLAIN_TINTS[t];
    c.a = 1;
    gfx_frame(&gl->g, lx, ly + 2, 12, 12, 2, c);
    lx += 16 + gfx_text(&gl->g, FONT_SMALL, lx + 16, ly + 2, WHITE, TINT_NAMES[t]) + 10;
  }
  /* the states at a tick before the end */
  ly += 19;
  lx = x;
  gfx_rect(&gl->g, lx, ly + 2, 12, 12, color_alpha(PLAIN_RUNNING, 0.3f));
  gfx_frame(&gl->g, lx, ly + 2, 12, 12, 2, PLAIN_RUNNING);
  lx += 16 + gfx_text(&gl->g, FONT_SMALL, lx + 16, ly + 2, WHITE, "running") + 10;
  gfx_frame(&gl->g, lx, ly + 2, 12, 12, 2, PLAIN_RUNNING);
  gfx_frame(&gl->g, lx + 2, ly + 4, 8, 8, 2, PLAIN_BARRIER);
  lx += 16 + gfx_text(&gl->g, FONT_SMALL, lx + 16, ly + 2, WHITE, "past a barrier") + 10;
  gfx_frame(&gl->g, lx, ly + 2, 12, 12, 1, color_alpha(PLAIN_PENDING, 0.5f));
  gfx_text(&gl->g, FONT_SMALL, lx + 16, ly + 2, DIM, "not started (its output dark)");
  gfx_rect(&gl->g, x + 1, ly + 21, 8, 8, PLAIN_TINTS[PV_RED]);
  gfx_text(&gl->g, FONT_SMALL, x + 16, ly + 19, DIM,
           "an element a finding names (__global memory)");
}

void draw_plain_panel(vw_gl *gl, const vw_scene *s)
{
  const vw_rect *r = &s->panel;
  const plain_view *pv = s->plain;
  float x = r->x + 12, y = r->y + 10;
  panel_line(gl, x, &y, ACCENT, "plain kernel  %s", pv->name);
  panel_line(gl, x, &y, DIM, "run observed; an edit reloads it [r]");
  if (pv->res && s->progress[0]) /* a run again: the last one stays meanwhile */
    panel_wrap(gl, x, &y, DIM, s->progress);
  y += 6;
  if (s->twin && s->twin->plain) {
    /* the split view: the two orders, and whether their outputs differ at the end */
    char l[600], r2[600], line[1300];
    plain_view_words(pv, l, sizeof l);
    plain_view_words(s->twin->plain, r2, sizeof r2);
    panel_line(gl, x, &y, ACCENT, "split view: two orders of its work-groups");
    snprintf(line, sizeof line, "left: %s", l);
    panel_wrap(gl, x, &y, WHITE, line);
    snprintf(line, sizeof line, "right: %s", r2);
    panel_wrap(gl, x, &y, WHITE, line);
    long long d = plain_view_differ(pv, s->twin->plain);
    plain_view_differ_line(pv, s->twin->plain, line, sizeof line);
    panel_wrap(gl, x, &y, d > 0 ? WARN : d == 0 ? WHITE : DIM, line);
    y += 6;
  }
  if (pv->error[0] && pv->res) {
    panel_wrap(gl, x, &y, WARN, pv->error);
    panel_line(gl, x, &y, WARN, "showing the last good run");
    y += 6;
  } else if (!pv->res) {
    if (pv->error[0])
      panel_wrap(gl, x, &y, WARN, pv->error);
    else
      panel_wrap(gl, x, &y, DIM, s->progress[0] ? s->progress : "loading and observing...");
  }
  if (pv->res) {
    panel_launch(gl, s, x, &y, pv);
    y += 6;
    panel_findings(gl, x, &y, pv);
    draw_source_panel(gl, s, x, &y);
    if (pv->watch_x >= 0 || pv->res_watch_x >= 0) {
      y += 6;
      panel_watch(gl, r, x, &y, pv);
    }
  }
  y += 8;
  gfx_rect(&gl->g, r->x + 8, y - 4, r->w - 16, 1, DIM);
  panel_line(gl, x, &y, ACCENT, "inspector");
  const ts_image *im = s->input;
  const ts_plain_result *res = pv->res;
  int one_row = res && res->raw && res->raw_rows == 1 && res->raw_cols > 1;
  if (s->hover_pane == 1 && res && res->raw && s->hover_x >= 0 && s->hover_x < (float)res->raw_cols &&
      (one_row || (s->hover_y >= 0 && s->hover_y < (float)res->raw_rows))) {
    /* the output's own element (its shape may not be the input's), as the kernel left it */
    int px = (int)s->hover_x, py = one_row ? 0 : (int)s->hover_y;
    char v[160] = "", t[48];
    for (int c = 0; c < res->raw_channels && strlen(v) + 40 < sizeof v; c++) {
      raw_value(res, ((size_t)py * (size_t)res->raw_cols + (size_t)px) * (size_t)res->raw_channels +
                         (size_t)c, t, sizeof t);
      snprintf(v + strlen(v), sizeof v - strlen(v), "%s%s", c ? " " : "", t);
    }
    if (one_row)
      panel_line(gl, x, &y, WHITE, "output element [%d] = %s", px, v);
    else
      panel_line(gl, x, &y, WHITE, "output (%d,%d) = %s", px, py, v);
  } else if (s->hover_pane >= 0 && im && s->hover_x >= 0 && s->hover_y >= 0 &&
             s->hover_x < (float)im->w && s->hover_y < (float)im->h) {
    int px = (int)s->hover_x, py = (int)s->hover_y;
    char in[48] = "", out[48] = "";
    const ts_image *o = pv->res ? pv->res->out : NULL;
    for (int c = 0; c < im->c; c++)
      snprintf(in + strlen(in), sizeof in - strlen(in), "%s%u", c ? " " : "",
               im->data[((size_t)py * im->w + px) * im->c + c]);
    for (int c = 0; o && px < o->w && py < o->h && c < o->c; c++)
      snprintf(out + strlen(out), sizeof out - strlen(out), "%s%u", c ? " " : "",
               o->data[((size_t)py * o->w + px) * o->c + c]);
    panel_line(gl, x, &y, WHITE, "pixel (%d,%d)  in %s  out %s", px, py, in, out);
  }
  uint32_t g;
  gl->panel_bottom = r->y + r->h - LEGEND_H - 8; /* the inspector stops above the legend */
  if (pv->res && hovered_group(s, &g))
    panel_group(gl, s, x, &y, g);
  else
    panel_line(gl, x, &y, DIM, "hover a work-group's tile; click a pixel");
  gl->panel_bottom = 0;
  panel_legend(gl, s, x);
}
