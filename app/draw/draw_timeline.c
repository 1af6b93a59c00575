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

#include "draw.h"

/* A texture drawn 1:1 at (x, y) through the image program (no overlay). */
static void draw_texture(viewer *v, GLuint tex, int w, int h, float x, float y)
{
  GLuint prog = v->g.image_prog;
  glUseProgram(prog);
#define U(name) glGetUniformLocation(prog, name)
  glUniform2f(U("u_screen"), (float)v->width, (float)v->height);
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
  glBindVertexArray(v->g.quad_vao);
  glBindBuffer(GL_ARRAY_BUFFER, v->g.quad_vbo);
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
static void build_gantt(viewer *v, const ts_dev_run *d, int W, int H)
{
  if (W < 1 || H < 1 || (v->gantt_run == v->snap.run && v->gantt_w == W && v->gantt_h == H))
    return;
  int L = d->lanes > 0 ? d->lanes : 1;
  float *cell = calloc((size_t)L * W * 2, sizeof *cell);
  float *flight = realloc(v->gantt_flight, (size_t)W * 2 * sizeof *flight);
  uint8_t *px = malloc((size_t)W * H * 4);
  if (flight)
    v->gantt_flight = flight;
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
  v->gantt_peak = 0;
  for (int c = 0; c < W; c++)
    v->gantt_peak = fmaxf(v->gantt_peak, flight[c] + flight[W + c]);
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
  glBindTexture(GL_TEXTURE_2D, v->gantt_tex);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
  gl_tex_params(4, 1);
  free(px);
  free(cell);
  v->gantt_run = v->snap.run;
  v->gantt_w = W;
  v->gantt_h = H;
}

/* The transient status message at the right of the timeline's header row, which ends at
 * header_end: smaller and over a background where it would run into the header. */
static void draw_status(viewer *v, const vw_rect *r, float header_end)
{
  if (!v->status[0] || !(v->offscreen || SDL_GetTicks() < v->status_until))
    return;
  int font = FONT_UI;
  float w = (float)gfx_text_width(&v->g, font, v->status), x = r->x + r->w - 10 - w;
  if (x < header_end + 20) {
    font = FONT_SMALL;
    w = (float)gfx_text_width(&v->g, font, v->status);
    x = r->x + r->w - 10 - w;
    gfx_rect(&v->g, x - 6, r->y + 4, w + 12, 22, BG);
  }
  gfx_text(&v->g, font, x, r->y + 8, FOOT, v->status);
}

/* The device timeline's part that changes only with the run (the frame cache keeps it): the
 * background, groups in flight over device time, one lane per compute unit (or logical
 * lane), the passes' bounds. */
static void draw_dev_timeline_graph(viewer *v, const vw_rect *r, const ts_dev_run *d)
{
  float gx = r->x + 10, gw = floorf(r->w - 20), fy = r->y + 30, fh = 44;
  float ly = fy + fh + 6, lh = floorf(r->y + r->h - 22 - ly);
  double te = (double)(d->t_end > 0 ? d->t_end : 1);
  gfx_rect(&v->g, r->x, r->y, r->w, r->h, BG);
  gfx_rect(&v->g, r->x, r->y, r->w, 1, DIM);
  int W = (int)gw, H = (int)lh;
  build_gantt(v, d, W, H);
  gfx_rect(&v->g, gx, fy, gw, fh, gfx_rgba(0.14f, 0.15f, 0.18f, 1));
  if (v->gantt_run == v->snap.run && v->gantt_w == W) {
    float scale = v->gantt_peak > 0 ? v->gantt_peak : 1;
    for (int c = 0; c < W; c++) {
      float run = v->gantt_flight[c], all = run + v->gantt_flight[W + c];
      float ha = fh * all / scale, hr = fh * run / scale;
      gfx_rect(&v->g, gx + (float)c, fy + fh - ha, 1, ha, gfx_rgba(0.35f, 0.28f, 0.12f, 1));
      gfx_rect(&v->g, gx + (float)c, fy + fh - hr, 1, hr, gfx_rgba(0.2f, 0.75f, 0.3f, 1));
    }
    /* The lanes are a texture: what is batched so far is drawn first, then it. */
    gfx_flush(&v->g);
    draw_texture(v, v->gantt_tex, W, H, gx, ly);
  }
  for (int p = 1; p < d->npasses; p++) {
    float px = gx + gw * (float)((double)v->dev_pass_end[p - 1] / te);
    gfx_rect(&v->g, px, fy - 4, 1, ly + lh - fy + 8, ACCENT);
    gfx_textf(&v->g, FONT_SMALL, px + 3, fy, ACCENT, "pass %d", p + 1);
  }
}

/* The device timeline over its graph: the hovered tile's bar outlined, the cursor at the
 * device time, the header and the key. Layer 0 is the graph alone, layer 1 the rest. */
static void draw_dev_timeline(viewer *v, const vw_rect *r, const ts_dev_run *d, int layer)
{
  if (layer == 0) {
    draw_dev_timeline_graph(v, r, d);
    return;
  }
  float gx = r->x + 10, gw = floorf(r->w - 20), fy = r->y + 30, fh = 44;
  float ly = fy + fh + 6, lh = floorf(r->y + r->h - 22 - ly);
  double te = (double)(d->t_end > 0 ? d->t_end : 1);
  int pass;
  uint32_t id;
  if (viewer_focus_thread(v, &pass, &id) && pass == viewer_shown_pass(v)) {
    const ts_grec *g = viewer_dev_rec(v, d, pass, id);
    int L = d->lanes > 0 ? d->lanes : 1;
    float y0 = ly + floorf((float)g->lane * lh / (float)L), y1 = ly + floorf((float)(g->lane + 1) * lh / (float)L);
    float x0 = gx + gw * (float)((double)g->start / te), x1 = gx + gw * (float)((double)g->end / te);
    gfx_frame(&v->g, x0 - 2, y0 - 2, fmaxf(x1 - x0, 1) + 4, fmaxf(y1 - y0, 1) + 4, 1, WHITE);
  }
  uint64_t now = viewer_dev_time(v);
  float cx = gx + gw * (float)((double)now / te);
  gfx_rect(&v->g, cx - 1, fy - 6, 2, ly + lh - fy + 12, WHITE);
  char tn[32], tend[32];
  draw_fmt_dev_time(d, now, tn, sizeof tn);
  draw_fmt_dev_time(d, d->t_end, tend, sizeof tend);
  const uint32_t *c = v->dev_counts;
  char hdr[256];
  if (d->pass[viewer_shown_pass(v)].lookback) /* published: in flight, its aggregate out */
    snprintf(hdr, sizeof hdr, "device time %s of %s   in flight %u (%u published), %u done   %s",
             tn, tend, c[1] + c[2] + c[VW_DEV_PUBLISHED], c[VW_DEV_PUBLISHED], c[3],
             v->playing ? "playing" : "paused");
  else
    snprintf(hdr, sizeof hdr, "device time %s of %s   in flight %u (%u waiting), %u done   %s",
             tn, tend, c[1] + c[2], c[1], c[3], v->playing ? "playing" : "paused");
  gfx_text(&v->g, FONT_UI, r->x + 10, r->y + 8, WHITE, hdr);
  gfx_textf(&v->g, FONT_SMALL, gx, ly + lh + 5, DIM,
            "groups in flight: green past their wait, brown waiting; below, one lane per %s (%d)%s; "
            "click or drag to scrub",
            viewer_dev_has_units(d) ? "compute unit" : "logical lane", d->lanes,
            d->clock_ns ? "" : ", logical clock");
  draw_status(v, r, r->x + 10 + (float)gfx_text_width(&v->g, FONT_UI, hdr));
}

/* The timeline; layer 0 is what changes only with the run (the frame cache keeps it: the
 * background and the occupancy graph), layer 1 the rest. */
void draw_timeline(viewer *v, const vw_rect *r, int layer)
{
  const ts_dev_run *dev = viewer_dev(v);
  if (dev) {
    draw_dev_timeline(v, r, dev, layer);
    return;
  }
  const ts_sched *s = viewer_sched(v);
  float gx = r->x + 10, gw = r->w - 20, gy = r->y + 30, gh = r->h - 60, header_end = r->x;
  int64_t tick = v->have_snap ? v->snap.tick : 0;
  if (layer == 0) {
    gfx_rect(&v->g, r->x, r->y, r->w, r->h, BG);
    gfx_rect(&v->g, r->x, r->y, r->w, 1, DIM);
    gfx_rect(&v->g, gx, gy, gw, gh, gfx_rgba(0.14f, 0.15f, 0.18f, 1));
  }
  if (layer == 0 && s && s->length > 0) {
    float scale = (float)(s->peak_resident > 0 ? s->peak_resident : 1);
    for (int i = 0; i < (int)gw; i++) {
      int64_t t = (int64_t)((double)i / gw * (double)s->length);
      uint32_t res, run;
      ts_sched_occupancy(s, t, &res, &run);
      float hr = gh * (float)res / scale, hu = gh * (float)run / scale;
      gfx_rect(&v->g, gx + (float)i, gy + gh - hr, 1, hr, gfx_rgba(0.35f, 0.28f, 0.12f, 1));
      gfx_rect(&v->g, gx + (float)i, gy + gh - hu, 1, hu, gfx_rgba(0.2f, 0.75f, 0.3f, 1));
    }
    for (int p = 1; p < s->npasses; p++) {
      float px = gx + gw * (float)s->pass[p].t_begin / (float)s->length;
      gfx_rect(&v->g, px, gy - 4, 1, gh + 8, ACCENT);
      gfx_textf(&v->g, FONT_SMALL, px + 3, gy, ACCENT, "pass %d", p + 1);
    }
  }
  if (layer == 0)
    return;
  if (s && s->length > 0) {
    float cx = gx + gw * (float)tick / (float)s->length;
    gfx_rect(&v->g, cx - 1, gy - 6, 2, gh + 12, WHITE);
    uint32_t res, run;
    ts_sched_occupancy(s, tick, &res, &run);
    char hdr[256];
    snprintf(hdr, sizeof hdr,
             "tick %" PRId64 " of %" PRId64 "   running %u, resident %u of %d slots   %s %d ticks/s",
             tick, s->length, run, res, s->params.slots, v->playing ? "playing" : "paused",
             (int[]){ 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 }[v->speed_index]);
    gfx_text(&v->g, FONT_UI, r->x + 10, r->y + 8, WHITE, hdr);
    header_end = r->x + 10 + (float)gfx_text_width(&v->g, FONT_UI, hdr);
    gfx_text(&v->g, FONT_SMALL, gx, gy + gh + 4, DIM,
             "occupancy: green running, brown resident and waiting; click or drag to scrub");
  }
  draw_status(v, r, header_end);
}

