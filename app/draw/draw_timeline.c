/* Drawing the timeline under the panes: the simulated run's occupancy over ticks with the
 * cursor at the tick shown, or in the device view groups in flight over device time and one
 * lane per compute unit (a texture made once per run and size: build_gantt); the header and
 * the transient status message. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colors.h"
#include "draw_text.h"
#include "draw_timeline.h"

/* A texture drawn 1:1 at (x, y) through the image program (no overlay). */
static void draw_texture(vw_gl *gl, GLuint tex, int w, int h, float x, float y)
{
  GLuint prog = gl->g.image_prog;
  glUseProgram(prog);
#define U(name) glGetUniformLocation(prog, name)
  glUniform2f(U("u_screen"), (float)gl->width, (float)gl->height);
  glUniform2f(U("u_image_size"), (float)w, (float)h);
  glUniform2f(U("u_origin"), x, y);
  glUniform1f(U("u_zoom"), 1);
  glUniform4f(U("u_clip"), x, y, x + (float)w, y + (float)h);
  glUniform1i(U("u_overlay"), 0);
  glUniform1i(U("u_tile_grid"), 0);
  glUniform1i(U("u_device"), 0);
  glUniform1i(U("u_mask"), 0);
  glUniform1i(U("u_image"), 0);
#undef U
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, tex);
  float x1 = x + (float)w, y1 = y + (float)h;
  float q[12] = { x, y, x1, y, x1, y1, x, y, x1, y1, x, y1 };
  glBindVertexArray(gl->g.quad_vao);
  glBindBuffer(GL_ARRAY_BUFFER, gl->g.quad_vbo);
  glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof q, q);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glBindVertexArray(0);
}

/* Adds [a, b) of device time to one lane's columns (k: 0 running, 1 waiting), as the share
 * of each column's time it covers. */
static void cover(float *lane, int W, double col, uint64_t a, uint64_t b, int k)
{
  if (b <= a)
    return;
  int c0 = (int)((double)a / col), c1 = (int)((double)b / col);
  c1 = c1 >= W ? W - 1 : c1;
  for (int c = c0 < 0 ? 0 : c0; c <= c1; c++) {
    double lo = fmax((double)a, c * col), hi = fmin((double)b, (c + 1) * col);
    if (hi > lo)
      lane[c * 2 + k] += (float)((hi - lo) / col);
  }
}

/* The lanes of the device timeline, aggregated per pixel column so that thousands of groups
 * cost one texture: per column and lane the share of time its groups ran (green) and waited
 * (brown), and per column the groups in flight. Made once per run and size. */
static void build_gantt(vw_gl *gl, const vw_scene *s, int W, int H)
{
  const ts_dev_run *d = s->dev;
  if (W < 1 || H < 1 || (gl->gantt_run == s->run_ident && gl->gantt_w == W && gl->gantt_h == H))
    return;
  int L = d->lanes > 0 ? d->lanes : 1;
  float *cell = calloc((size_t)L * W * 2, sizeof *cell);
  float *flight = realloc(gl->gantt_flight, (size_t)W * 2 * sizeof *flight);
  uint8_t *px = malloc((size_t)W * H * 4);
  if (flight)
    gl->gantt_flight = flight;
  if (!cell || !flight || !px) {
    free(cell);
    free(px);
    return;
  }
  double col = (double)(d->t_end > 0 ? d->t_end : 1) / W;
  for (int p = 0; p < d->npasses; p++)
    for (uint32_t t = 0; t < d->pass[p].n; t++) {
      const ts_grec *g = &d->pass[p].rec[t];
      int l = g->lane < 0 ? 0 : g->lane >= L ? L - 1 : g->lane;
      /* A look-back group runs first (its own sums, up to its aggregate), then waits. */
      uint64_t w0 = d->pass[p].lookback ? g->published : g->start;
      if (w0 > g->start)
        cover(cell + (size_t)l * W * 2, W, col, g->start, w0, 0);
      cover(cell + (size_t)l * W * 2, W, col, w0, g->waited, 1);
      cover(cell + (size_t)l * W * 2, W, col, g->waited, g->end, 0);
    }
  float peak = 0;
  memset(flight, 0, (size_t)W * 2 * sizeof *flight);
  for (int l = 0; l < L; l++)
    for (int c = 0; c < W; c++) {
      const float *e = cell + ((size_t)l * W + c) * 2;
      flight[c] += e[0];
      flight[W + c] += e[1];
      peak = fmaxf(peak, e[0] + e[1]);
    }
  gl->gantt_peak = 0;
  for (int c = 0; c < W; c++)
    gl->gantt_peak = fmaxf(gl->gantt_peak, flight[c] + flight[W + c]);
  /* Rows: a lane per band of rows (a dark line between bands when they are tall enough), or
   * several lanes per row, averaged. */
  const float bg[3] = { 0.14f, 0.15f, 0.18f }, run[3] = { 0.2f, 0.8f, 0.32f },
              wait[3] = { 0.85f, 0.55f, 0.12f };
  for (int y = 0; y < H; y++) {
    int l0 = (int)((int64_t)y * L / H), l1 = (int)((int64_t)(y + 1) * L / H);
    l1 = l1 > l0 ? l1 : l0 + 1;
    int gap = L <= H / 4 && (int)((int64_t)(y + 1) * L / H) != l0;
    for (int c = 0; c < W; c++) {
      float r = 0, w = 0;
      for (int l = l0; l < l1; l++) {
        r += cell[((size_t)l * W + c) * 2];
        w += cell[((size_t)l * W + c) * 2 + 1];
      }
      r /= (float)(l1 - l0);
      w /= (float)(l1 - l0);
      float in = peak > 0 ? fminf(1, (r + w) / peak) : 0;
      uint8_t *o = px + ((size_t)y * W + c) * 4;
      for (int k = 0; k < 3; k++) {
        float fg = r + w > 0 ? (run[k] * r + wait[k] * w) / (r + w) : bg[k];
        float val = gap ? bg[k] * 0.6f : bg[k] + (fg - bg[k]) * (in > 0 ? 0.35f + 0.65f * in : 0);
        o[k] = (uint8_t)lroundf(fminf(1, val) * 255);
      }
      o[3] = 255;
    }
  }
  glBindTexture(GL_TEXTURE_2D, gl->gantt_tex);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
  gl_tex_params(4, 1);
  free(px);
  free(cell);
  gl->gantt_run = s->run_ident;
  gl->gantt_w = W;
  gl->gantt_h = H;
}

/* The transient status message at the right of the timeline's header row, which ends at
 * header_end: smaller and over a background where it would run into the header. */
static void draw_status(vw_gl *gl, const vw_scene *s, float header_end)
{
  const vw_rect *r = &s->timeline;
  if (!s->status)
    return;
  int font = FONT_UI;
  float w = (float)gfx_text_width(&gl->g, font, s->status), x = r->x + r->w - 10 - w;
  if (x < header_end + 20) {
    font = FONT_SMALL;
    w = (float)gfx_text_width(&gl->g, font, s->status);
    x = r->x + r->w - 10 - w;
    gfx_rect(&gl->g, x - 6, r->y + 4, w + 12, 22, BG);
  }
  gfx_text(&gl->g, font, x, r->y + 8, FOOT, s->status);
}

/* The device timeline's part that changes only with the run (the frame cache keeps it): the
 * background, groups in flight over device time, one lane per compute unit (or logical
 * lane), the passes' bounds. */
static void draw_dev_timeline_graph(vw_gl *gl, const vw_scene *s)
{
  const vw_rect *r = &s->timeline;
  const ts_dev_run *d = s->dev;
  float gx = r->x + 10, gw = floorf(r->w - 20), fy = r->y + 30, fh = 44;
  float ly = fy + fh + 6, lh = floorf(r->y + r->h - 22 - ly);
  double te = (double)(d->t_end > 0 ? d->t_end : 1);
  gfx_rect(&gl->g, r->x, r->y, r->w, r->h, BG);
  gfx_rect(&gl->g, r->x, r->y, r->w, 1, DIM);
  int W = (int)gw, H = (int)lh;
  build_gantt(gl, s, W, H);
  gfx_rect(&gl->g, gx, fy, gw, fh, gfx_rgba(0.14f, 0.15f, 0.18f, 1));
  if (gl->gantt_run == s->run_ident && gl->gantt_w == W) {
    float scale = gl->gantt_peak > 0 ? gl->gantt_peak : 1;
    for (int c = 0; c < W; c++) {
      float run = gl->gantt_flight[c], all = run + gl->gantt_flight[W + c];
      float ha = fh * all / scale, hr = fh * run / scale;
      gfx_rect(&gl->g, gx + (float)c, fy + fh - ha, 1, ha, gfx_rgba(0.35f, 0.28f, 0.12f, 1));
      gfx_rect(&gl->g, gx + (float)c, fy + fh - hr, 1, hr, gfx_rgba(0.2f, 0.75f, 0.3f, 1));
    }
    /* The lanes are a texture: what is batched so far is drawn first, then it. */
    gfx_flush(&gl->g);
    draw_texture(gl, gl->gantt_tex, W, H, gx, ly);
  }
  for (int p = 1; p < d->npasses; p++) {
    float px = gx + gw * (float)((double)s->dev_pass_end[p - 1] / te);
    gfx_rect(&gl->g, px, fy - 4, 1, ly + lh - fy + 8, ACCENT);
    gfx_textf(&gl->g, FONT_SMALL, px + 3, fy, ACCENT, "pass %d", p + 1);
  }
}

/* The device timeline over its graph: the hovered tile's bar outlined, the cursor at the
 * device time, the header and the key. Layer 0 is the graph alone, layer 1 the rest. */
static void draw_dev_timeline(vw_gl *gl, const vw_scene *s, int layer)
{
  if (layer == 0) {
    draw_dev_timeline_graph(gl, s);
    return;
  }
  const vw_rect *r = &s->timeline;
  const ts_dev_run *d = s->dev;
  float gx = r->x + 10, gw = floorf(r->w - 20), fy = r->y + 30, fh = 44;
  float ly = fy + fh + 6, lh = floorf(r->y + r->h - 22 - ly);
  double te = (double)(d->t_end > 0 ? d->t_end : 1);
  if (s->focus && s->focus_pass == s->pass) {
    const ts_grec *g = scene_dev_rec(s, s->focus_pass, s->focus_id);
    int L = d->lanes > 0 ? d->lanes : 1;
    float y0 = ly + floorf((float)g->lane * lh / (float)L), y1 = ly + floorf((float)(g->lane + 1) * lh / (float)L);
    float x0 = gx + gw * (float)((double)g->start / te), x1 = gx + gw * (float)((double)g->end / te);
    gfx_frame(&gl->g, x0 - 2, y0 - 2, fmaxf(x1 - x0, 1) + 4, fmaxf(y1 - y0, 1) + 4, 1, WHITE);
  }
  uint64_t now = s->dev_time;
  float cx = gx + gw * (float)((double)now / te);
  gfx_rect(&gl->g, cx - 1, fy - 6, 2, ly + lh - fy + 12, WHITE);
  char tn[32], tend[32];
  draw_fmt_dev_time(d, now, tn, sizeof tn);
  draw_fmt_dev_time(d, d->t_end, tend, sizeof tend);
  const uint32_t *c = s->dev_counts;
  char hdr[256];
  if (d->pass[s->pass].lookback) /* published: in flight, its aggregate out */
    snprintf(hdr, sizeof hdr, "device time %s of %s   in flight %u (%u published), %u done   %s",
             tn, tend, c[1] + c[2] + c[VW_DEV_PUBLISHED], c[VW_DEV_PUBLISHED], c[3],
             s->playing ? "playing" : "paused");
  else
    snprintf(hdr, sizeof hdr, "device time %s of %s   in flight %u (%u waiting), %u done   %s",
             tn, tend, c[1] + c[2], c[1], c[3], s->playing ? "playing" : "paused");
  gfx_text(&gl->g, FONT_UI, r->x + 10, r->y + 8, WHITE, hdr);
  gfx_textf(&gl->g, FONT_SMALL, gx, ly + lh + 5, DIM,
            "groups in flight: green past their wait, brown waiting; below, one lane per %s (%d)%s; "
            "click or drag to scrub",
            vw_dev_has_units(d) ? "compute unit" : "logical lane", d->lanes,
            d->clock_ns ? "" : ", logical clock");
  draw_status(gl, s, r->x + 10 + (float)gfx_text_width(&gl->g, FONT_UI, hdr));
}

/* The timeline; layer 0 is what changes only with the run (the frame cache keeps it: the
 * background and the occupancy graph), layer 1 the rest. */
void draw_timeline(vw_gl *gl, const vw_scene *sc, int layer)
{
  if (sc->dev) {
    draw_dev_timeline(gl, sc, layer);
    return;
  }
  const vw_rect *r = &sc->timeline;
  const ts_sched *s = sc->sched;
  float gx = r->x + 10, gw = r->w - 20, gy = r->y + 30, gh = r->h - 60, header_end = r->x;
  int64_t tick = sc->have_snap ? sc->snap->tick : 0;
  if (layer == 0) {
    gfx_rect(&gl->g, r->x, r->y, r->w, r->h, BG);
    gfx_rect(&gl->g, r->x, r->y, r->w, 1, DIM);
    gfx_rect(&gl->g, gx, gy, gw, gh, gfx_rgba(0.14f, 0.15f, 0.18f, 1));
  }
  if (layer == 0 && s && s->length > 0) {
    float scale = (float)(s->peak_resident > 0 ? s->peak_resident : 1);
    for (int i = 0; i < (int)gw; i++) {
      int64_t t = (int64_t)((double)i / gw * (double)s->length);
      uint32_t res, run;
      ts_sched_occupancy(s, t, &res, &run);
      float hr = gh * (float)res / scale, hu = gh * (float)run / scale;
      gfx_rect(&gl->g, gx + (float)i, gy + gh - hr, 1, hr, gfx_rgba(0.35f, 0.28f, 0.12f, 1));
      gfx_rect(&gl->g, gx + (float)i, gy + gh - hu, 1, hu, gfx_rgba(0.2f, 0.75f, 0.3f, 1));
    }
    for (int p = 1; p < s->npasses; p++) {
      float px = gx + gw * (float)s->pass[p].t_begin / (float)s->length;
      gfx_rect(&gl->g, px, gy - 4, 1, gh + 8, ACCENT);
      gfx_textf(&gl->g, FONT_SMALL, px + 3, gy, ACCENT, "pass %d", p + 1);
    }
  }
  if (layer == 0)
    return;
  if (s && s->length > 0) {
    float cx = gx + gw * (float)tick / (float)s->length;
    gfx_rect(&gl->g, cx - 1, gy - 6, 2, gh + 12, WHITE);
    uint32_t res, run;
    ts_sched_occupancy(s, tick, &res, &run);
    char hdr[256];
    snprintf(hdr, sizeof hdr,
             "tick %" PRId64 " of %" PRId64 "   running %u, resident %u of %d slots   %s %d ticks/s",
             tick, s->length, run, res, s->params.slots, sc->playing ? "playing" : "paused",
             sc->speed);
    gfx_text(&gl->g, FONT_UI, r->x + 10, r->y + 8, WHITE, hdr);
    header_end = r->x + 10 + (float)gfx_text_width(&gl->g, FONT_UI, hdr);
    gfx_text(&gl->g, FONT_SMALL, gx, gy + gh + 4, DIM,
             "occupancy: green running, brown resident and waiting; click or drag to scrub");
  }
  draw_status(gl, sc, header_end);
}

