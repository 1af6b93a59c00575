/* Drawing the timeline under the panes: the simulated run's occupancy over ticks with the
 * cursor at the tick shown, or in the device view groups in flight over device time and one
 * lane per compute unit (a texture made once per run and size: build_gantt); the header and
 * the transient status message; and a plain kernel's pass as a Gantt chart of its
 * work-groups on their records' clock (draw_plain_timeline). */
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

/* The first of n texts that fits w pixels in `font`, drawn at (x, y) (the last cut to w
 * where none does): a row says as much as the timeline's width has room for, and never runs
 * on into the panel. Returns where it ends. */
static float text_first_fit(vw_gl *gl, int font, float x, float y, float w, gfx_color c,
                            const char *const *texts, int n)
{
  int i = 0;
  while (i < n - 1 && (float)gfx_text_width(&gl->g, font, texts[i]) > w)
    i++;
  int fits = (int)(w / (float)gl->g.font[font].advance);
  char line[600];
  snprintf(line, sizeof line, "%.*s", fits > 0 ? fits : 0, texts[i]);
  return x + gfx_text(&gl->g, font, x, y, c, line);
}

/* The transient status message at the right of the timeline's header row, which ends at
 * header_end: smaller and over a background where it would run into the header. Without one,
 * the observation under way (dimmer): its progress whatever the panel shows. */
static void draw_status(vw_gl *gl, const vw_scene *s, float header_end)
{
  const vw_rect *r = &s->timeline;
  const char *text = s->status ? s->status : s->progress[0] ? s->progress : NULL;
  if (!text)
    return;
  int font = FONT_UI;
  float w = (float)gfx_text_width(&gl->g, font, text), x = r->x + r->w - 10 - w;
  if (x < header_end + 20) {
    font = FONT_SMALL;
    w = (float)gfx_text_width(&gl->g, font, text);
    x = r->x + r->w - 10 - w;
    gfx_rect(&gl->g, x - 6, r->y + 4, w + 12, 22, BG);
  }
  gfx_text(&gl->g, font, x, r->y + 8, s->status ? FOOT : DIM, text);
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
  /* The whole header where it fits, shorter ones in a narrow window. */
  char hdr[4][256], counts[128];
  int lookback = d->pass[s->pass].lookback; /* published: in flight, its aggregate out */
  uint32_t flight = c[1] + c[2] + (lookback ? c[VW_DEV_PUBLISHED] : 0);
  snprintf(counts, sizeof counts, "in flight %u (%u %s), %u done", flight,
           lookback ? c[VW_DEV_PUBLISHED] : c[1], lookback ? "published" : "waiting", c[3]);
  snprintf(hdr[0], sizeof hdr[0], "device time %s of %s   %s   %s", tn, tend, counts,
           s->playing ? "playing" : "paused");
  snprintf(hdr[1], sizeof hdr[1], "device time %s of %s   %s", tn, tend, counts);
  snprintf(hdr[2], sizeof hdr[2], "%s of %s   %s", tn, tend, counts);
  snprintf(hdr[3], sizeof hdr[3], "%s of %s   %u in flight, %u done", tn, tend, flight, c[3]);
  const char *const hdrs[4] = { hdr[0], hdr[1], hdr[2], hdr[3] };
  float end = text_first_fit(gl, FONT_UI, r->x + 10, r->y + 8, r->w - 20, WHITE, hdrs, 4);
  char foot[2][256];
  const char *lanes = vw_dev_has_units(d) ? "compute unit" : "logical lane";
  snprintf(foot[0], sizeof foot[0],
           "groups in flight: green past their wait, brown waiting; below, one lane per %s (%d)%s; "
           "click or drag to scrub", lanes, d->lanes, d->clock_ns ? "" : ", logical clock");
  snprintf(foot[1], sizeof foot[1], "in flight: green past their wait, brown waiting; a lane per %s (%d)",
           lanes, d->lanes);
  const char *const foots[2] = { foot[0], foot[1] };
  text_first_fit(gl, FONT_SMALL, gx, ly + lh + 5, gw, DIM, foots, 2);
  draw_status(gl, s, end);
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
    char hdr[3][256];
    snprintf(hdr[0], sizeof hdr[0],
             "tick %" PRId64 " of %" PRId64 "   running %u, resident %u of %d slots   %s %d ticks/s",
             tick, s->length, run, res, s->params.slots, sc->playing ? "playing" : "paused",
             sc->speed);
    snprintf(hdr[1], sizeof hdr[1], "tick %" PRId64 " of %" PRId64 "   running %u, resident %u of %d",
             tick, s->length, run, res, s->params.slots);
    snprintf(hdr[2], sizeof hdr[2], "tick %" PRId64 "/%" PRId64 "   %u running", tick, s->length,
             run);
    const char *const hdrs[3] = { hdr[0], hdr[1], hdr[2] };
    header_end = text_first_fit(gl, FONT_UI, r->x + 10, r->y + 8, r->w - 20, WHITE, hdrs, 3);
    gfx_text(&gl->g, FONT_SMALL, gx, gy + gh + 4, DIM,
             "occupancy: green running, brown resident and waiting; click or drag to scrub");
  }
  draw_status(gl, sc, header_end);
}

/* The timeline: the pass shown as a Gantt chart on its launch's clock (x: the tick; a bar per
 * work-group from its start to its end, its barriers ticked in violet; coloured by its state
 * at the tick shown), the cursor at that tick, and a caption with the tick, the groups
 * running and done, and the order they ran in. A bar is at least BAR_MIN_W pixels wide, so
 * that a group that ran for a tick still shows. The rows: a group each, by start order, when
 * they fit; else lanes, each group in the first lane whose last group had ended when it
 * started: as many lanes as groups ran at once, so that 1,200 groups run one at a time are
 * one lane and not a field of stripes (a later bar is drawn over an earlier one's least
 * width); and when even those do not fit, a strip of how many groups ran at each column.
 * Lanes of many more bars than pixels (a 4K image's 32,400 groups in two lanes) are drawn as
 * runs: neighbours of one colour in a lane as one rectangle, a barrier tick per column
 * (gantt_runs), which the window draws in a millisecond instead of a frame's worth. */
enum { BAR_MIN_W = 3, ROW_MAX_H = 20, ROW_MIN_H = 3, DENSE_BARS = 4 };

typedef struct gantt_key {
  uint32_t key, g;
} gantt_key;

static int cmp_gantt_key(const void *a, const void *b)
{
  const gantt_key *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->g < y->g ? -1 : x->g > y->g;
}

/* The chart's place and scale, and its rows: lane[i] for the group keys[i].g (of n started,
 * by start), nlanes of row_h pixels; nlanes 0: the density strip. */
typedef struct gantt {
  float gx, gy, gw, gh, row_h, top;
  uint32_t ticks;
  gantt_key *keys;
  int *lane;
  uint32_t n;
  int nlanes, by_ticket;
} gantt;

/* A line of text cut to w pixels (the font is monospaced: whole characters). */
static void text_cut(vw_gl *gl, int font, float x, float y, float w, gfx_color c, const char *s)
{
  int fits = (int)(w / (float)gl->g.font[font].advance);
  gfx_textf(&gl->g, font, x, y, c, "%.*s", fits > 0 ? fits : 0, s);
}

static float gantt_x(const gantt *c, uint32_t t)
{
  return c->gx + c->gw * (float)((double)t / (double)c->ticks);
}

/* A started group's bar on screen: from its start to its end (the launch's end when it never
 * ended), at least BAR_MIN_W wide. */
static void gantt_span(const gantt *c, const ts_plain_group *G, float *x0, float *x1)
{
  *x0 = gantt_x(c, G->start);
  *x1 = fmaxf(gantt_x(c, G->end ? G->end : c->ticks), *x0 + BAR_MIN_W);
}

/* Lays out the started groups of L: 0 when out of memory. */
static int gantt_layout(gantt *c, const ts_plain_launch *L)
{
  c->keys = malloc(((size_t)L->ngroups_all + 1) * sizeof *c->keys);
  c->lane = malloc(((size_t)L->ngroups_all + 1) * sizeof *c->lane);
  if (!c->keys || !c->lane)
    return 0;
  c->n = 0;
  int fit = (int)(c->gh / ROW_MIN_H);
  c->by_ticket = L->ngroups_all <= (uint32_t)fit;
  for (uint32_t g = 0; g < L->ngroups_all; g++)
    if (L->groups[g].start)
      c->keys[c->n++] = (gantt_key){ c->by_ticket ? L->groups[g].ticket : L->groups[g].start, g };
  qsort(c->keys, c->n, sizeof *c->keys, cmp_gantt_key);
  if (c->by_ticket) {
    for (uint32_t i = 0; i < c->n; i++)
      c->lane[i] = (int)i;
    c->nlanes = (int)c->n;
  } else {
    uint32_t free_at[256]; /* the tick each lane's last group ended at */
    c->nlanes = 0;
    for (uint32_t i = 0; i < c->n && c->nlanes >= 0; i++) {
      const ts_plain_group *G = &L->groups[c->keys[i].g];
      int l = 0;
      while (l < c->nlanes && free_at[l] > G->start)
        l++;
      if (l == c->nlanes && (l >= fit || l >= 256)) {
        c->nlanes = -1; /* more at once than rows fit */
        break;
      }
      if (l == c->nlanes)
        c->nlanes++;
      free_at[l] = G->end ? G->end : c->ticks + 1;
      c->lane[i] = l;
    }
    c->nlanes = c->nlanes < 0 ? 0 : c->nlanes;
  }
  c->row_h = c->nlanes ? fminf(ROW_MAX_H, floorf(c->gh / (float)c->nlanes)) : 0;
  c->top = c->gy + floorf((c->gh - c->row_h * (float)c->nlanes) / 2); /* the rows centred */
  return 1;
}

/* Row `row`'s top and its bars' height, on screen. */
static void gantt_row(const gantt *c, int row, float *y, float *h)
{
  *y = c->top + (float)row * c->row_h;
  *h = c->row_h >= 3 ? c->row_h - 1 : c->row_h;
}

/* Group g's bar in its row, on screen. */
static void gantt_box(const gantt *c, const ts_plain_group *G, int row, float *x0, float *x1,
                      float *y, float *h)
{
  gantt_span(c, G, x0, x1);
  gantt_row(c, row, y, h);
}

/* The bar of group g in its row: coloured by its state at tick t (the part run so far bright,
 * what it had left dim; done: its tint), its barriers ticked over its top third. */
static void gantt_bar(vw_gl *gl, const gantt *c, const plain_view *pv, const ts_plain_launch *L,
                      uint32_t g, int row, uint32_t t)
{
  const ts_plain_group *G = &L->groups[g];
  float x0, x1, y, h;
  gantt_box(c, G, row, &x0, &x1, &y, &h);
  int st = plain_view_group_state(G, t);
  uint8_t tint = pv->tint[pv->pass] ? pv->tint[pv->pass][g] : 0;
  if (st == PV_DONE) {
    gfx_rect(&gl->g, x0, y, x1 - x0, h, tint ? PLAIN_TINTS[tint] : PLAIN_DONE);
  } else if (st == PV_PENDING) {
    gfx_rect(&gl->g, x0, y, x1 - x0, h, gfx_rgba(0.55f, 0.58f, 0.64f, 0.45f));
  } else {
    float xt = fminf(fmaxf(gantt_x(c, t), x0 + 1), x1);
    gfx_rect(&gl->g, x0, y, xt - x0, h, PLAIN_RUNNING);
    gfx_rect(&gl->g, xt, y, x1 - xt, h, color_alpha(PLAIN_RUNNING, 0.35f));
  }
  if (!G->end) /* never ended: its open end */
    gfx_rect(&gl->g, x1 - 1, y, 1, h, WARN);
  for (uint32_t b = 0; b < G->nbar && b < TS_PLAIN_REC_BARS; b++)
    if (G->bar[b]) {
      gfx_color bc = PLAIN_BARRIER;
      bc.a = G->bar[b] <= t ? 1 : 0.45f;
      gfx_rect(&gl->g, fminf(gantt_x(c, G->bar[b]), x1 - 1), y, 1, fmaxf(2, ceilf(h / 3)), bc);
    }
}

/* A bar's colour when it is one colour (done or not started, and ended); 0 when it is not
 * (running at tick t: two parts; never ended: its open end marked). */
static int bar_colour(const plain_view *pv, const ts_plain_group *G, uint32_t g,
                            uint32_t t, gfx_color *col)
{
  int st = plain_view_group_state(G, t);
  uint8_t tint = pv->tint[pv->pass] ? pv->tint[pv->pass][g] : 0;
  if (!G->end || (st != PV_DONE && st != PV_PENDING))
    return 0;
  *col = st == PV_PENDING ? gfx_rgba(0.55f, 0.58f, 0.64f, 0.45f)
         : tint          ? PLAIN_TINTS[tint]
                         : PLAIN_DONE;
  return 1;
}

/* Dense lanes (more than DENSE_BARS bars a pixel): each lane's neighbouring bars of one colour
 * as one rectangle, the others as gantt_bar draws them, then the barrier ticks, one a column
 * of each lane. The picture of every bar drawn, but for overlapping translucent bars (not
 * started: no darker where more of them lie) and ticks drawn over the bars after theirs. */
static void gantt_runs(vw_gl *gl, const gantt *c, const plain_view *pv, const ts_plain_launch *L,
                       uint32_t t)
{
  enum { MAX_LANES = 256 }; /* (gantt_layout makes no more) */
  float rx0[MAX_LANES], rx1[MAX_LANES], tick_x[MAX_LANES], y, h;
  gfx_color rc[MAX_LANES];
  int open[MAX_LANES] = { 0 };
  for (uint32_t i = 0; i < c->n; i++) {
    uint32_t g = c->keys[i].g;
    int l = c->lane[i];
    float x0, x1;
    gfx_color col;
    gantt_box(c, &L->groups[g], l, &x0, &x1, &y, &h);
    int one = l < MAX_LANES && bar_colour(pv, &L->groups[g], g, t, &col);
    if (one && open[l] && x0 <= rx1[l] && memcmp(&col, &rc[l], sizeof col) == 0) {
      rx1[l] = fmaxf(rx1[l], x1); /* the run goes on */
      continue;
    }
    if (l < MAX_LANES && open[l])
      gfx_rect(&gl->g, rx0[l], y, rx1[l] - rx0[l], h, rc[l]);
    if (l < MAX_LANES)
      open[l] = one;
    if (one) {
      rx0[l] = x0;
      rx1[l] = x1;
      rc[l] = col;
    } else {
      gantt_bar(gl, c, pv, L, g, l, t);
    }
  }
  for (int l = 0; l < c->nlanes && l < MAX_LANES; l++) {
    gantt_row(c, l, &y, &h);
    if (open[l])
      gfx_rect(&gl->g, rx0[l], y, rx1[l] - rx0[l], h, rc[l]);
    tick_x[l] = -1;
  }
  for (uint32_t i = 0; i < c->n; i++) {
    const ts_plain_group *G = &L->groups[c->keys[i].g];
    int l = c->lane[i];
    float x0, x1;
    gantt_box(c, G, l, &x0, &x1, &y, &h);
    for (uint32_t b = 0; l < MAX_LANES && b < G->nbar && b < TS_PLAIN_REC_BARS; b++) {
      float bx = floorf(fminf(gantt_x(c, G->bar[b]), x1 - 1));
      if (!G->bar[b] || bx == tick_x[l])
        continue;
      gfx_color bc = PLAIN_BARRIER;
      bc.a = G->bar[b] <= t ? 1 : 0.45f;
      gfx_rect(&gl->g, bx, y, 1, fmaxf(2, ceilf(h / 3)), bc);
      tick_x[l] = bx;
    }
  }
}

/* The density strip, when the groups that ran at once are more than rows fit: per column the
 * groups running in its ticks (bright before the cursor), a violet dot where one passed a
 * barrier. */
static void gantt_density(vw_gl *gl, const gantt *c, const ts_plain_launch *L, uint32_t t)
{
  int W = (int)c->gw;
  int *run = calloc((size_t)W + 2, sizeof *run), *bars = calloc((size_t)W + 1, sizeof *bars);
  if (!run || !bars || W < 1) {
    free(run);
    free(bars);
    return;
  }
  for (uint32_t i = 0; i < c->n; i++) {
    const ts_plain_group *G = &L->groups[c->keys[i].g];
    int a = (int)((double)G->start / c->ticks * W);
    int b = (int)((double)(G->end ? G->end : c->ticks) / c->ticks * W);
    a = a < 0 ? 0 : a >= W ? W - 1 : a;
    b = b < a ? a : b >= W ? W - 1 : b;
    run[a]++;
    run[b + 1]--;
    for (uint32_t k = 0; k < G->nbar && k < TS_PLAIN_REC_BARS; k++)
      if (G->bar[k]) {
        int x = (int)((double)G->bar[k] / c->ticks * W);
        bars[x < 0 ? 0 : x >= W ? W - 1 : x]++;
      }
  }
  int peak = 1;
  for (int x = 0, on = 0; x < W; x++) {
    on += run[x];
    run[x] = on;
    peak = on > peak ? on : peak;
  }
  float cx = gantt_x(c, t);
  for (int x = 0; x < W; x++) {
    float h = c->gh * (float)run[x] / (float)peak, px = c->gx + (float)x;
    gfx_color col = px < cx ? PLAIN_RUNNING : color_alpha(PLAIN_RUNNING, 0.35f);
    gfx_rect(&gl->g, px, c->gy + c->gh - h, 1, h, col);
    if (bars[x])
      gfx_rect(&gl->g, px, fmaxf(c->gy, c->gy + c->gh - h - 3), 1, 2, PLAIN_BARRIER);
  }
  free(run);
  free(bars);
}

void draw_plain_timeline(vw_gl *gl, const vw_scene *s)
{
  const vw_rect *r = &s->timeline;
  const plain_view *pv = s->plain;
  const ts_plain_launch *L = plain_view_launch(pv);
  gantt c = { .gx = r->x + 10, .gy = r->y + 30, .gw = floorf(r->w - 20), .gh = r->h - 60,
              .ticks = plain_view_ticks(pv) };
  char how[600];
  plain_view_words(pv, how, sizeof how);
  if (!L || !c.ticks) {
    text_cut(gl, FONT_UI, c.gx + 10, c.gy + 8, c.gw - 20, DIM,
             !pv->res ? (pv->error[0] ? "no run to step"
                         : s->progress[0] ? s->progress : "running it observed...")
                      : "no record of its work-groups: nothing to step");
    if (s->split_side != 2)
      draw_status(gl, s, r->x);
    return;
  }
  uint32_t t = s->plain_tick, count[4] = { 0 };
  for (uint32_t g = 0; g < L->ngroups_all; g++)
    count[plain_view_group_state(&L->groups[g], t)]++;
  uint32_t hov = UINT32_MAX, g;
  int hov_row = -1;
  if (s->hover_pane >= 0 && plain_view_group_at(pv, s->hover_x, s->hover_y, &g))
    hov = g;
  if (!gantt_layout(&c, L)) {
    free(c.keys);
    free(c.lane);
    return;
  }
  int dense = c.nlanes && c.n > DENSE_BARS * (uint32_t)c.gw * (uint32_t)c.nlanes;
  if (dense)
    gantt_runs(gl, &c, pv, L, t);
  for (uint32_t i = 0; c.nlanes && i < c.n; i++) {
    if (!dense)
      gantt_bar(gl, &c, pv, L, c.keys[i].g, c.lane[i], t);
    if (c.keys[i].g == hov)
      hov_row = c.lane[i];
  }
  if (!c.nlanes)
    gantt_density(gl, &c, L, t);
  if (hov_row >= 0) { /* the hovered group's bar, framed over the others */
    float x0, x1, y, h;
    gantt_box(&c, &L->groups[hov], hov_row, &x0, &x1, &y, &h);
    gfx_frame(&gl->g, x0 - 2, y - 2, x1 - x0 + 4, h + 4, 1, WHITE);
  }
  float cx = gantt_x(&c, t);
  gfx_rect(&gl->g, cx - 1, c.gy - 6, 2, c.gh + 12, WHITE);

  char hdr[3][256], never[48] = "";
  if (c.n < L->ngroups_all)
    snprintf(never, sizeof never, ", %u never started", L->ngroups_all - c.n);
  uint32_t running = count[PV_RUNNING] + count[PV_PAST_BARRIER];
  snprintf(hdr[0], sizeof hdr[0], "tick %u of %u   %u running (%u past a barrier), %u done of %u "
           "work-groups%s   %s %d ticks/s", t, c.ticks, running, count[PV_PAST_BARRIER],
           count[PV_DONE], L->ngroups_all, never, s->playing ? "playing" : "paused", s->speed);
  snprintf(hdr[1], sizeof hdr[1], "tick %u of %u   %u running (%u past a barrier), %u of %u done%s",
           t, c.ticks, running, count[PV_PAST_BARRIER], count[PV_DONE], L->ngroups_all, never);
  /* and half the timeline (the split view's): the counts alone */
  snprintf(hdr[2], sizeof hdr[2], "tick %u of %u   %u running, %u done of %u%s", t, c.ticks,
           running, count[PV_DONE], L->ngroups_all, never);
  const char *const hdrs[3] = { hdr[0], hdr[1], hdr[2] };
  float end = text_first_fit(gl, FONT_UI, r->x + 10, r->y + 8, r->w - 20, WHITE,
                             hdrs + (s->split_side ? 2 : 0), s->split_side ? 1 : 3);
  char rows[80], foot[900];
  if (c.by_ticket)
    snprintf(rows, sizeof rows, "a row each, by start");
  else if (c.nlanes == 1)
    snprintf(rows, sizeof rows, "one lane: they ran one at a time");
  else if (c.nlanes)
    snprintf(rows, sizeof rows, "%d lanes: at most %d ran at once", c.nlanes, c.nlanes);
  else
    snprintf(rows, sizeof rows, "how many ran at once, over time");
  const char *tab = pv->res->npasses > 1 ? "; tab: next pass" : "";
  int barriers = 0;
  for (uint32_t i = 0; i < L->ngroups_all && !barriers; i++)
    barriers = L->groups[i].nbar > 0;
  snprintf(foot, sizeof foot, "work-groups in %s: %s%s; click or drag to scrub%s", how, rows,
           barriers ? ", violet ticks their barriers" : "", tab);
  if (gfx_text_width(&gl->g, FONT_SMALL, foot) > c.gw)
    snprintf(foot, sizeof foot, "work-groups in %s: %s%s", how, rows, tab);
  if (s->split_side && gfx_text_width(&gl->g, FONT_SMALL, foot) > c.gw)
    snprintf(foot, sizeof foot, "%s: %s", s->label, rows);
  text_cut(gl, FONT_SMALL, c.gx, c.gy + c.gh + 4, c.gw, DIM, foot);
  if (s->split_side != 2)
    draw_status(gl, s, end);
  free(c.keys);
  free(c.lane);
}
