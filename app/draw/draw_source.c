/* A plain kernel's source pane (draw_source.h), in the input pane's place when it is on: the
 * kernel file in a monospaced font with its line numbers; each line with findings marked in
 * the gutter by the colour the overlay gives their kind (red a race or an access outside a
 * buffer, orange an uninitialised read or a declared tile or halo crossed) and, on a row of
 * its own under it, each kind with its count; above the lines, the findings as a list of
 * entries. The selected finding's two accesses are its A and B: their lines tinted and
 * lettered in the pane, their work-groups outlined over the output and their runs marked on
 * the timeline, both work-items, the element and their place in time in the side panel. The
 * lines the hovered work-group and the watched pixel touched are ticked in the gutter. Long
 * lines are cut at the pane's edge. The layout is worked out once (src_layout) for the
 * drawing and for source_at, so that a click lands on what is drawn. Reads the scene, changes
 * nothing of it. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colors.h"
#include "draw_source.h"
#include "draw_text.h"

/* B, a race's other access (A takes its kind's colour); the watched pixel's cyan. */
static const gfx_color SIDE_B = { 1.0f, 0.42f, 0.88f, 1 }, WATCHED = { 0.15f, 0.95f, 1.0f, 1 },
                       CODE = { 0.86f, 0.88f, 0.92f, 1 };
enum { TITLE_H = 24, MAX_ENTRIES = 6, TAB = 4 };

/* Each kind in a few words, for the gutter's rows and the entries. */
static const char *const KIND_SHORT[TS_NFIND] = {
  "outside",  "race between groups", "race (local)",   "race (global)",  "uninitialised",
  "footprint", "tile",               "divergence",     "access mode",    "unaligned",
  "benign race", "private index",    "event",          "copy divergence", "forward progress" };

/* The file's lines, the findings at each, and where everything lies in the pane. */
typedef struct src_layout {
  const char *text;
  size_t len;
  size_t *start;            /* line i (from 1) runs from start[i - 1] to start[i] */
  int nlines;
  uint32_t *kinds;          /* per line, 1 << kind of the findings at it (any pass) */
  float lh, adv;            /* a row's height, a character's width (the small font) */
  vw_rect list, code;       /* the entries, the lines */
  int first_entry, nentries;
  int top, rows;            /* the first line shown, the rows that fit */
  int numw;                 /* the line numbers' digits */
  float num_x, letter_x, bar_x, touch_x, code_x;
} src_layout;

static void layout_free(src_layout *L)
{
  free(L->start);
  free(L->kinds);
}

/* The rows lines a..b take: one each, and one more under each with findings. */
static int rows_of(const src_layout *L, int a, int b)
{
  int n = 0;
  for (int i = a < 1 ? 1 : a; i <= b && i <= L->nlines; i++)
    n += 1 + (L->kinds[i] != 0);
  return n;
}

/* The lines the selection wants in sight: the selected finding's A and B (A alone when both
 * do not fit), the selected line, or the first finding's; 0 when none. */
static void wanted(const vw_scene *s, const src_layout *L, int *lo, int *hi)
{
  const ts_plain_finding *f = scene_finding(s);
  const ts_plain_result *r = s->plain->res;
  *lo = *hi = 0;
  if (f) {
    pv_side a, b;
    plain_view_sides(f, &a, &b);
    *lo = *hi = a.line;
    if (b.line > 0 && b.line <= L->nlines) {
      *lo = b.line < a.line ? b.line : a.line;
      *hi = b.line > a.line ? b.line : a.line;
      if (rows_of(L, *lo, *hi) > L->rows)
        *lo = *hi = a.line;
    }
  } else if (s->src_line > 0) {
    *lo = *hi = s->src_line;
  } else if (r && r->nfindings) {
    *lo = *hi = r->findings[0].line;
  }
  *lo = *lo > L->nlines ? L->nlines : *lo;
  *hi = *hi > L->nlines ? L->nlines : *hi;
}

/* The first line shown: the scene's, else a quarter of the pane above what the selection
 * wants; never so far down that the pane's foot is empty. */
static int first_line(const vw_scene *s, const src_layout *L)
{
  int last = L->nlines;
  while (last > 1 && rows_of(L, last - 1, L->nlines) <= L->rows)
    last--;
  int top = s->src_top;
  if (top <= 0) {
    int lo, hi;
    wanted(s, L, &lo, &hi);
    top = lo > 0 ? lo : 1;
    while (top > 1 && rows_of(L, top - 1, lo) <= L->rows / 4 + 1 &&
           rows_of(L, top - 1, hi) <= L->rows)
      top--;
  }
  return top > last ? last : top < 1 ? 1 : top;
}

/* Works out the layout of s's pane; 0 when there is none to draw (no pane, no file). */
static int layout(const vw_gl *gl, const vw_scene *s, src_layout *L)
{
  memset(L, 0, sizeof *L);
  const vw_rect *R = &s->source;
  const plain_view *pv = s->plain;
  if (!pv || R->w <= 0 || !pv->desc || !pv->desc->text)
    return 0;
  L->text = pv->desc->text;
  L->len = pv->desc->len;
  int n = 1;
  for (size_t i = 0; i < L->len; i++)
    n += L->text[i] == '\n' && i + 1 < L->len;
  L->start = malloc(((size_t)n + 1) * sizeof *L->start);
  L->kinds = calloc((size_t)n + 2, sizeof *L->kinds);
  if (!L->start || !L->kinds) {
    layout_free(L);
    return 0;
  }
  L->nlines = 0;
  L->start[0] = 0;
  for (size_t i = 0; i < L->len; i++)
    if (L->text[i] == '\n' && i + 1 < L->len)
      L->start[++L->nlines] = i + 1;
  L->start[++L->nlines] = L->len + 1;
  const ts_plain_result *r = pv->res;
  for (size_t i = 0; r && i < r->nfindings; i++)
    if (r->findings[i].line >= 1 && r->findings[i].line <= L->nlines)
      L->kinds[r->findings[i].line] |= 1u << r->findings[i].kind;
  const gfx_font *font = &gl->g.font[FONT_SMALL];
  L->lh = (float)font->height + 2;
  L->adv = (float)font->advance;
  /* the entries: as many as there are, up to MAX_ENTRIES and a fifth of the pane */
  size_t nf = r ? r->nfindings : 0;
  int fit = (int)((R->h - TITLE_H) / L->lh / 5);
  L->nentries = nf == 0 ? 1 : (int)(nf < MAX_ENTRIES ? nf : MAX_ENTRIES);
  L->nentries = L->nentries > fit ? (fit > 1 ? fit : 1) : L->nentries;
  if (s->src_finding >= L->nentries && nf)
    L->first_entry = s->src_finding - L->nentries + 1;
  L->list = (vw_rect){ R->x, R->y + TITLE_H, R->w, L->lh * (float)(L->nentries + 1) + 6 };
  float cy = L->list.y + L->list.h + 4;
  L->code = (vw_rect){ R->x, cy, R->w, R->y + R->h - cy - 2 };
  L->rows = (int)(L->code.h / L->lh);
  L->rows = L->rows < 1 ? 1 : L->rows;
  for (int d = L->nlines; d > 0; d /= 10)
    L->numw++;
  L->numw = L->numw < 2 ? 2 : L->numw;
  L->num_x = R->x + 6;
  L->letter_x = L->num_x + L->adv * (float)L->numw + 5;
  L->bar_x = L->letter_x + L->adv * 2 + 3;
  L->touch_x = L->bar_x + 6;
  L->code_x = L->touch_x + 10;
  L->top = first_line(s, L);
  return 1;
}

int source_first_line(const vw_gl *gl, const vw_scene *s)
{
  src_layout L;
  if (!layout(gl, s, &L))
    return 0;
  int top = L.top;
  layout_free(&L);
  return top;
}

int source_at(const vw_gl *gl, const vw_scene *s, float sx, float sy, int *what)
{
  const vw_rect *R = &s->source;
  if (R->w <= 0 || sx < R->x || sy < R->y || sx >= R->x + R->w || sy >= R->y + R->h)
    return -1;
  src_layout L;
  if (!layout(gl, s, &L))
    return SOURCE_NONE;
  int hit = SOURCE_NONE;
  size_t nf = s->plain->res ? s->plain->res->nfindings : 0;
  float ey = L.list.y + 3 + L.lh; /* under the list's heading, as draw_entries puts them */
  if (sy >= ey && sy < ey + L.lh * (float)L.nentries && nf) {
    int e = L.first_entry + (int)((sy - ey) / L.lh);
    if ((size_t)e < nf) {
      *what = e;
      hit = SOURCE_ENTRY;
    }
  } else if (sy >= L.code.y && sy < L.code.y + L.code.h) {
    float y = L.code.y;
    for (int line = L.top; line <= L.nlines && y < L.code.y + L.code.h; line++) {
      float h = L.lh * (float)(1 + (L.kinds[line] != 0));
      if (sy >= y && sy < y + h) {
        *what = line;
        hit = SOURCE_LINE;
        break;
      }
      y += h;
    }
  }
  layout_free(&L);
  return hit;
}

/* "918", "15.3k", "918k", "7.4M": a count in a few characters. */
static void count_short(uint64_t n, char *b, size_t sz)
{
  double v = (double)n;
  if (n < 10000)
    snprintf(b, sz, "%llu", (unsigned long long)n);
  else if (v < 1e6)
    snprintf(b, sz, v < 1e5 ? "%.1fk" : "%.0fk", v / 1e3);
  else if (v < 1e9)
    snprintf(b, sz, v < 1e8 ? "%.1fM" : "%.0fM", v / 1e6);
  else
    snprintf(b, sz, "%.1fG", v / 1e9);
}

static gfx_color kind_color(int kind)
{
  return PLAIN_TINTS[plain_view_kind_tint(kind)];
}

/* Text cut to the characters that fit before x_end; returns where it ends. */
static float text_to(vw_gl *gl, float x, float y, float x_end, gfx_color c, const char *t)
{
  int fits = (int)((x_end - x) / (float)gl->g.font[FONT_SMALL].advance);
  int n = (int)strlen(t);
  if (fits <= 0)
    return x;
  return x + gfx_textf(&gl->g, FONT_SMALL, x, y, c, "%.*s", n < fits ? n : fits, t);
}

/* The first of a, b, c that fits `room` pixels in the font (c when none does). */
static const char *longest_fit(vw_gl *gl, int font, float room, const char *a, const char *b,
                               const char *c)
{
  if ((float)gfx_text_width(&gl->g, font, a) <= room)
    return a;
  return (float)gfx_text_width(&gl->g, font, b) <= room ? b : c;
}

/* The heading and the findings' entries: the selected one marked, each in its kind's colour. */
static void draw_entries(vw_gl *gl, const vw_scene *s, const src_layout *L)
{
  const vw_rect *R = &s->source, *E = &L->list;
  const ts_plain_result *r = s->plain->res;
  float right = R->x + R->w - 6, y = E->y + 3;
  gfx_rect(&gl->g, E->x, E->y, E->w, E->h, PANEL);
  size_t nf = r ? r->nfindings : 0;
  char head[3][160];
  for (int i = 0; i < 3; i++)
    snprintf(head[i], sizeof head[i], "%zu finding%s%s", nf, nf == 1 ? "" : "s",
             nf == 0 || i == 2 ? "" : i == 0 ? "  [n N] step, or click one or its line"
                                             : "  [n N] step");
  const char *h = r ? longest_fit(gl, FONT_SMALL, right - E->x - 6, head[0], head[1], head[2])
                    : "no run yet";
  text_to(gl, E->x + 6, y, right, ACCENT, h);
  y += L->lh;
  if (r && nf == 0)
    text_to(gl, E->x + 6, y, right, SEEN, "none: every access was in order");
  for (int i = 0; r && i < L->nentries && (size_t)(L->first_entry + i) < nf; i++) {
    int k = L->first_entry + i;
    const ts_plain_finding *f = &r->findings[k];
    char c[24], t[200], pass[24] = "";
    count_short(f->count, c, sizeof c);
    if (r->npasses > 1)
      snprintf(pass, sizeof pass, "pass %d ", f->pass + 1);
    snprintf(t, sizeof t, "%d  %sline %d  %s x%s", k + 1, pass, f->line, KIND_SHORT[f->kind], c);
    if (k == s->src_finding) {
      gfx_rect(&gl->g, E->x + 2, y - 1, E->w - 4, L->lh, gfx_rgba(1, 1, 1, 0.14f));
      gfx_text(&gl->g, FONT_SMALL, E->x + 4, y, WHITE, ">");
    }
    text_to(gl, E->x + 6 + L->adv, y, right, kind_color(f->kind), t);
    y += L->lh;
  }
  if (L->first_entry + L->nentries < (int)nf || L->first_entry > 0) {
    char more[48];
    snprintf(more, sizeof more, "%d-%d of %zu", L->first_entry + 1, L->first_entry + L->nentries,
             nf);
    float w = (float)gfx_text_width(&gl->g, FONT_SMALL, more);
    if (r && E->x + 6 + (float)gfx_text_width(&gl->g, FONT_SMALL, h) + 12 + w < right)
      gfx_text(&gl->g, FONT_SMALL, right - w, E->y + 3, DIM, more);
  }
}

/* Line `line`'s text with its tabs expanded and anything unprintable as '?', cut to `fits`
 * characters. */
static void line_text(const src_layout *L, int line, char *out, int fits)
{
  size_t a = L->start[line - 1], b = L->start[line] - 1; /* before its newline */
  int n = 0;
  for (size_t i = a; i < b && i < L->len && n < fits; i++) {
    char c = L->text[i];
    if (c == '\n')
      break;
    if (c == '\t')
      do
        out[n++] = ' ';
      while (n % TAB && n < fits);
    else if (c != '\r')
      out[n++] = (unsigned char)c < 32 || (unsigned char)c > 126 ? '?' : c;
  }
  out[n] = 0;
}

/* The kinds at a line with their counts (of every pass), each in its colour, from x. */
static void draw_kinds(vw_gl *gl, const vw_scene *s, int line, float x, float y, float right)
{
  const ts_plain_result *r = s->plain->res;
  x = text_to(gl, x, y, right, DIM, "^ ");
  for (int k = 0; k < TS_NFIND && x < right; k++) {
    uint64_t n = 0;
    int any = 0;
    for (size_t i = 0; i < r->nfindings; i++)
      if (r->findings[i].line == line && r->findings[i].kind == k) {
        n += r->findings[i].count;
        any = 1;
      }
    if (!any)
      continue;
    char c[24], t[64];
    count_short(n, c, sizeof c);
    snprintf(t, sizeof t, "%s x%s  ", KIND_SHORT[k], c);
    x = text_to(gl, x, y, right, kind_color(k), t);
  }
}

/* The title bar's text, cut to the pane, and `at` at its right when both fit. */
static void title_text(vw_gl *gl, const vw_rect *R, const char *title, const char *at)
{
  float adv = (float)gl->g.font[FONT_UI].advance, room = R->w - 16;
  float tw = (float)strlen(title) * adv, aw = (float)gfx_text_width(&gl->g, FONT_SMALL, at);
  int fits = (int)(room / adv);
  gfx_textf(&gl->g, FONT_UI, R->x + 8, 4, WHITE, "%.*s", fits > 0 ? fits : 0, title);
  if (at[0] && tw + 12 + aw <= room)
    gfx_text(&gl->g, FONT_SMALL, R->x + R->w - 8 - aw, 7, DIM, at);
}

/* The strongest tint among the kinds of a line's findings. */
static gfx_color line_color(uint32_t kinds)
{
  int tint = PV_CLEAN;
  for (int k = 0; k < TS_NFIND; k++)
    if (kinds >> k & 1 && plain_view_kind_tint(k) > tint)
      tint = plain_view_kind_tint(k);
  return PLAIN_TINTS[tint];
}

void draw_source_pane(vw_gl *gl, const vw_scene *s)
{
  const vw_rect *R = &s->source;
  if (R->w <= 0 || !s->plain)
    return;
  const plain_view *pv = s->plain;
  gfx_rect(&gl->g, R->x, R->y, R->w, R->h, BG);
  gfx_rect(&gl->g, R->x, R->y, R->w, TITLE_H, PANEL);
  const char *slash = pv->desc ? strrchr(pv->desc->path, '/') : NULL;
  const char *name = pv->desc ? (slash ? slash + 1 : pv->desc->path) : pv->name;
  char t3[3][1100];
  snprintf(t3[0], sizeof t3[0], "source  %s  [l] hide", name);
  snprintf(t3[1], sizeof t3[1], "source  %s", name);
  snprintf(t3[2], sizeof t3[2], "%s", name);
  const char *title = longest_fit(gl, FONT_UI, R->w - 16, t3[0], t3[1], t3[2]);
  src_layout L;
  if (!layout(gl, s, &L)) {
    title_text(gl, R, title, "");
    gfx_text(&gl->g, FONT_SMALL, R->x + 8, R->y + TITLE_H + 8, DIM,
             pv->error[0] ? "no source: the file did not load" : "loading...");
    return;
  }
  draw_entries(gl, s, &L);
  /* what is selected, hovered and watched: A and B, the line, the group's and pixel's lines */
  pv_side a = { 0 }, b = { 0 };
  const ts_plain_finding *f = scene_finding(s);
  gfx_color ca = f ? kind_color(f->kind) : WHITE;
  if (f)
    plain_view_sides(f, &a, &b);
  int glines[64];
  size_t ng = 0;
  uint32_t g;
  if (s->hover_pane >= 0 && plain_view_group_at(pv, s->hover_x, s->hover_y, &g))
    ng = plain_view_group_lines(pv, g, glines, 64);
  float right = R->x + R->w - 4, y = L.code.y, bottom = L.code.y + L.code.h;
  int last = L.top - 1;
  char text[1024];
  int maxc = (int)((right - L.code_x) / L.adv);
  maxc = maxc < 0 ? 0 : maxc > (int)sizeof text - 1 ? (int)sizeof text - 1 : maxc;
  for (int line = L.top; line <= L.nlines && y + L.lh <= bottom; line++) {
    int is_a = f && line == a.line, is_b = f && b.line > 0 && line == b.line;
    if (is_a)
      gfx_rect(&gl->g, R->x, y, R->w, L.lh, color_alpha(ca, 0.22f));
    if (is_b)
      gfx_rect(&gl->g, R->x, y, R->w, L.lh, color_alpha(SIDE_B, 0.22f));
    if (!f && line == s->src_line)
      gfx_rect(&gl->g, R->x, y, R->w, L.lh, gfx_rgba(1, 1, 1, 0.14f));
    char num[16];
    snprintf(num, sizeof num, "%*d", L.numw, line);
    gfx_text(&gl->g, FONT_SMALL, L.num_x, y + 1, L.kinds[line] || line == s->src_line ? WHITE : DIM,
             num);
    if (is_a || is_b) /* the letters on a dark backing, to read over the line's tint */
      gfx_rect(&gl->g, L.letter_x - 2, y, L.adv * (float)(is_a + is_b) + 4, L.lh - 1,
               gfx_rgba(0, 0, 0, 0.7f));
    if (is_a)
      gfx_text(&gl->g, FONT_SMALL, L.letter_x, y + 1, ca, "A");
    if (is_b)
      gfx_text(&gl->g, FONT_SMALL, L.letter_x + (is_a ? L.adv : 0), y + 1, SIDE_B, "B");
    if (L.kinds[line])
      gfx_rect(&gl->g, L.bar_x, y, 4, fminf(L.lh * 2, bottom - y) - 1, line_color(L.kinds[line]));
    for (size_t i = 0; i < ng; i++)
      if (glines[i] == line)
        gfx_rect(&gl->g, L.touch_x, y + 2, 5, 5, WHITE);
    for (size_t i = 0; i < pv->nrows; i++)
      if (pv->rows[i].line == line) {
        gfx_rect(&gl->g, L.touch_x, y + L.lh - 7, 5, 5, WATCHED);
        break;
      }
    line_text(&L, line, text, maxc);
    const char *t = text + strspn(text, " "); /* a comment's line dim */
    int comment = strncmp(t, "//", 2) == 0 || strncmp(t, "/*", 2) == 0 || *t == '*';
    gfx_text(&gl->g, FONT_SMALL, L.code_x, y + 1, comment ? DIM : CODE, text);
    last = line;
    y += L.lh;
    if (L.kinds[line] && y + L.lh <= bottom)
      draw_kinds(gl, s, line, L.code_x + 2 * L.adv, y + 1, right);
    y += L.kinds[line] ? L.lh : 0;
  }
  /* where the pane stands in the file, when it does not show it all */
  char at[64] = "";
  if (L.top > 1 || last < L.nlines)
    snprintf(at, sizeof at, "%d-%d of %d", L.top, last, L.nlines);
  title_text(gl, R, title, at);
  layout_free(&L);
}

/* ---- the selection over the output pane, on the timeline, in the panel ---- */

/* A frame of thickness t round (x, y, w, h) with a dark edge, cut to the clip; dashed when
 * `dash`. */
static void frame(vw_gl *gl, const vw_rect *c, float x, float y, float w, float h, float t,
                  gfx_color col, int dash)
{
  for (int pass = 0; pass < 2; pass++) {
    float e = pass ? 0 : 1, th = pass ? t : t + 2;
    gfx_color k = pass ? col : gfx_rgba(0, 0, 0, 0.6f);
    float on = dash && pass ? 7 : w + h + 4, gap = dash && pass ? 5 : 0;
    float X = x - e, Y = y - e, W = w + 2 * e, H = h + 2 * e;
    for (float d = 0; d < W; d += on + gap) {
      draw_clip_rect(gl, c, X + d, Y, fminf(on, W - d), th, k);
      draw_clip_rect(gl, c, X + d, Y + H - th, fminf(on, W - d), th, k);
    }
    for (float d = 0; d < H; d += on + gap) {
      draw_clip_rect(gl, c, X, Y + d, th, fminf(on, H - d), k);
      draw_clip_rect(gl, c, X + W - th, Y + d, th, fminf(on, H - d), k);
    }
  }
}

/* A label on a dark backing, kept inside the clip (nothing when it cannot be). */
static void tag(vw_gl *gl, const vw_rect *c, float x, float y, gfx_color col, const char *t)
{
  float w = (float)gfx_text_width(&gl->g, FONT_SMALL, t), h = (float)gl->g.font[FONT_SMALL].height;
  x = fmaxf(c->x + 3, fminf(x, c->x + c->w - w - 4));
  y = fmaxf(c->y + 2, fminf(y, c->y + c->h - h - 2));
  if (w + 6 > c->w || h + 4 > c->h)
    return;
  gfx_rect(&gl->g, x - 2, y - 1, w + 4, h + 2, gfx_rgba(0, 0, 0, 0.75f));
  gfx_text(&gl->g, FONT_SMALL, x, y, col, t);
}

/* Work-group g's tile (what it wrote) on the output pane, in screen coordinates; 0 when it
 * wrote nothing of it. */
static int group_box(const vw_scene *s, const ts_plain_launch *L, uint32_t g, float *x, float *y,
                     float *w, float *h)
{
  if (g >= L->ngroups_all || !L->groups)
    return 0;
  ts_plain_rect r = L->groups[g].wrote;
  if (r.x1 < r.x0 || r.y1 < r.y0)
    return 0;
  scene_rect_to_screen(s, 1, (ts_rect){ r.x0, r.y0, r.x1 - r.x0 + 1, r.y1 - r.y0 + 1 }, x, y, w,
                       h);
  return 1;
}

static int meet(const float a[4], const float b[4])
{
  return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
}

/* A's and B's names on one dark backing, above their two tiles or else below them: never over
 * the hovered work-group's name (draw_plain.c writes it under its tile), nor cut by the pane;
 * left out when neither place is free (the panel names them too). */
static void pair_tag(vw_gl *gl, const vw_scene *s, float box[2][4], const int have[2],
                     const char *ta, gfx_color ca, const char *tb)
{
  const vw_rect *c = &s->pane[1];
  float lh = (float)gl->g.font[FONT_SMALL].height, top = 1e9f, bot = -1e9f, left = 1e9f;
  for (int k = 0; k < 2; k++)
    if (have[k]) {
      top = fminf(top, box[k][1]);
      bot = fmaxf(bot, box[k][1] + box[k][3]);
      left = fminf(left, box[k][0]);
    }
  if (!have[0] && !have[1])
    return;
  float wa = ta[0] ? (float)gfx_text_width(&gl->g, FONT_SMALL, ta) : 0;
  float wb = tb[0] ? (float)gfx_text_width(&gl->g, FONT_SMALL, tb) : 0;
  float w = wa + (ta[0] && tb[0] ? 14 : 0) + wb;
  float hover[4] = { 0, 0, 0, 0 }, hb[4];
  uint32_t g;
  const ts_plain_launch *L = plain_view_launch(s->plain);
  if (s->hover_pane >= 0 && plain_view_group_at(s->plain, s->hover_x, s->hover_y, &g) &&
      group_box(s, L, g, &hb[0], &hb[1], &hb[2], &hb[3])) {
    /* its name: under its tile, from its left (draw_plain.c's label), a margin round it */
    hover[0] = hb[0] - 12;
    hover[1] = hb[1] + hb[3] + 2;
    hover[2] = 200;
    hover[3] = lh + 8;
  }
  float ys[2] = { top - lh - 10, bot + 8 };
  for (int i = 0; i < 2; i++) {
    float x = fmaxf(c->x + 3, fminf(left, c->x + c->w - w - 4)), y = ys[i];
    float me[4] = { x - 2, y - 1, w + 4, lh + 2 };
    if (w + 8 > c->w || y < c->y + 2 || y + lh + 2 > c->y + c->h || meet(me, hover))
      continue;
    gfx_rect(&gl->g, me[0], me[1], me[2], me[3], gfx_rgba(0, 0, 0, 0.75f));
    if (ta[0])
      gfx_text(&gl->g, FONT_SMALL, x, y, ca, ta);
    if (tb[0])
      gfx_text(&gl->g, FONT_SMALL, x + w - wb, y, SIDE_B, tb);
    return;
  }
}

void draw_source_overlay(vw_gl *gl, const vw_scene *s)
{
  const plain_view *pv = s->plain;
  const ts_plain_launch *L = plain_view_launch(pv);
  const vw_rect *rout = &s->pane[1];
  const ts_plain_finding *f = scene_finding(s);
  float x, y, w, h, lh = (float)gl->g.font[FONT_SMALL].height;
  char t[96], gn[40];
  if (!L || !L->groups || !s->input || s->twin)
    return;
  if (f && f->pass == pv->pass) {
    pv_side a, b;
    int two = plain_view_sides(f, &a, &b);
    gfx_color ca = kind_color(f->kind);
    int same = two && b.group == a.group;
    float box[2][4];
    int have[2] = { group_box(s, L, a.group, &box[0][0], &box[0][1], &box[0][2], &box[0][3]),
                    two && !same &&
                        group_box(s, L, b.group, &box[1][0], &box[1][1], &box[1][2], &box[1][3]) };
    for (int k = 1; k >= 0; k--)
      if (have[k])
        frame(gl, rout, box[k][0] - 2, box[k][1] - 2, box[k][2] + 4, box[k][3] + 4, 3,
              k ? SIDE_B : ca, k);
    char ta[64] = "", tb[64] = "";
    if (have[0]) {
      ts_plain_group_name(L, a.group, gn, sizeof gn);
      snprintf(ta, sizeof ta, "%s: work-group %s", same ? "A B" : "A", gn);
    }
    if (have[1]) {
      ts_plain_group_name(L, b.group, gn, sizeof gn);
      snprintf(tb, sizeof tb, "B: work-group %s", gn);
    }
    pair_tag(gl, s, box, have, ta, ca, tb);
    int px, py;
    if (f->nplaces > 0 && ts_plain_place_pixel(pv->desc, pv->res, f->pass, &f->place[0], &px, &py)) {
      float side = fmaxf(s->zoom, 5) + 8;
      scene_to_screen(s, 1, (float)px + 0.5f, (float)py + 0.5f, &x, &y);
      frame(gl, rout, x - side / 2, y - side / 2, side, side, 2, WHITE, 0);
    }
    return;
  }
  if (f || s->src_line <= 0)
    return;
  uint32_t g[512];
  size_t n = plain_view_line_groups(pv, s->src_line, g, 512), first = 1;
  for (size_t i = 0; i < n && i < 512; i++)
    if (group_box(s, L, g[i], &x, &y, &w, &h)) {
      frame(gl, rout, x - 1, y - 1, w + 2, h + 2, 2, WHITE, 1);
      if (first) {
        snprintf(t, sizeof t, "line %d: %zu work-group%s", s->src_line, n, n == 1 ? "" : "s");
        tag(gl, rout, x - 1, y - lh - 7, WHITE, t);
        first = 0;
      }
    }
}

void draw_source_timeline(vw_gl *gl, const vw_scene *s)
{
  const plain_view *pv = s->plain;
  const ts_plain_launch *L = plain_view_launch(pv);
  const ts_plain_finding *f = scene_finding(s);
  uint32_t ticks = plain_view_ticks(pv);
  if (!f || !L || !ticks || f->pass != pv->pass || s->twin)
    return;
  pv_side side[2];
  int two = plain_view_sides(f, &side[0], &side[1]);
  /* the Gantt chart's place, as draw_timeline.c lays it out */
  const vw_rect *r = &s->timeline;
  float gx = r->x + 10, gw = floorf(r->w - 20), gy = r->y + 30, gh = r->h - 60;
  float lh = (float)gl->g.font[FONT_SMALL].height;
  vw_rect clip = { r->x, r->y + 26, r->w, r->h - 26 };
  for (int k = two && side[1].group != side[0].group ? 1 : 0; k >= 0; k--) {
    if (side[k].group >= L->ngroups_all || !L->groups[side[k].group].start)
      continue;
    const ts_plain_group *G = &L->groups[side[k].group];
    gfx_color c = k ? SIDE_B : kind_color(f->kind);
    float x0 = gx + gw * (float)((double)G->start / ticks);
    float x1 = gx + gw * (float)((double)(G->end ? G->end : ticks) / ticks);
    x1 = fmaxf(x1, x0 + 3);
    gfx_rect(&gl->g, x0, gy - 3, x1 - x0, gh + 6, color_alpha(c, 0.22f));
    gfx_rect(&gl->g, x0, gy - 3, 2, gh + 6, c);
    gfx_rect(&gl->g, x1 - 2, gy - 3, 2, gh + 6, c);
    gfx_rect(&gl->g, x0, gy - 3, x1 - x0, 2, c);
    /* A's name at the chart's top, B's at its foot: never one over the other */
    const char *name = k ? "B" : two && side[1].group == side[0].group ? "A B" : "A";
    tag(gl, &clip, x1 + 4, k ? gy + gh - lh - 2 : gy + 1, c, name);
  }
}

/* A side's access in words, present: "reads", "writes"... */
static const char *does(int acc)
{
  return acc == 1 ? "reads" : acc == 2 ? "writes" : acc == 3 ? "updates"
                            : acc == 4 ? "updates atomically" : "accesses";
}

static const char *did(int acc)
{
  return acc == 1 ? "read" : acc == 2 ? "wrote" : acc == 3 ? "updated"
                           : acc == 4 ? "updated atomically" : "accessed";
}

/* The selected finding: its entry, its two accesses (work-group, work-item, element, line)
 * and its place in time. */
static void panel_finding(vw_gl *gl, const vw_scene *s, float x, float *y, float bottom)
{
  const plain_view *pv = s->plain;
  const ts_plain_result *r = pv->res;
  const ts_plain_finding *f = scene_finding(s);
  const ts_plain_launch *L = &r->launch[f->pass];
  pv_side a, b;
  int two = plain_view_sides(f, &a, &b);
  gfx_color ca = kind_color(f->kind);
  char pass[48] = "", t[600], g[40], it[40], el[200];
  if (r->npasses > 1)
    snprintf(pass, sizeof pass, ", pass %d%s", f->pass + 1, f->pass != pv->pass ? " (tab)" : "");
  panel_line(gl, x, y, ACCENT, "finding %d of %zu [n N]: line %d%s", s->src_finding + 1,
             r->nfindings, f->line, pass);
  snprintf(t, sizeof t, "%s, %llu time%s", ts_plain_kind_name(f->kind),
           (unsigned long long)f->count, f->count == 1 ? "" : "s");
  panel_wrap_font(gl, FONT_SMALL, x, y, bottom, ca, t);
  ts_plain_group_name(L, a.group, g, sizeof g);
  ts_plain_item_name(L, a.item, it, sizeof it);
  if (f->nplaces > 0)
    ts_plain_element_name(pv->desc, r, f->pass, &f->place[0], el, sizeof el);
  else
    snprintf(el, sizeof el, "an element");
  snprintf(t, sizeof t, "A  line %d: work-group %s item %s %s %s", a.line, g, it, does(a.acc), el);
  panel_wrap_font(gl, FONT_SMALL, x, y, bottom, ca, t);
  char at[32] = "at a line not recorded";
  if (b.line > 0)
    snprintf(at, sizeof at, "line %d", b.line);
  if (two && f->kind == TS_FIND_RACE_GROUPS && b.group >= L->ngroups_all) {
    snprintf(t, sizeof t, "B  %s: several other work-groups %s it", at, did(b.acc));
  } else if (two && f->kind == TS_FIND_RACE_GROUPS) {
    ts_plain_group_name(L, b.group, g, sizeof g);
    snprintf(t, sizeof t, "B  %s: work-group %s %s it (which of its work-items, the run does "
             "not record)", at, g, did(b.acc));
  } else if (two && b.item == UINT32_MAX) {
    snprintf(t, sizeof t, "B  %s: other work-items of the same group %s it", at, did(b.acc));
  } else if (two) {
    ts_plain_item_name(L, b.item, it, sizeof it);
    snprintf(t, sizeof t, "B  %s: work-item %s of the same group %s it", at, it, did(b.acc));
  } else if (b.line > 0) {
    snprintf(t, sizeof t, "B  %s: the barrier that depends on the branch", at);
  } else {
    t[0] = 0;
  }
  if (t[0])
    panel_wrap_font(gl, FONT_SMALL, x, y, bottom, SIDE_B, t);
  plain_view_finding_time(pv, (size_t)s->src_finding, t, sizeof t);
  panel_wrap_font(gl, FONT_SMALL, x, y, bottom, WHITE, t);
}

void draw_source_panel(vw_gl *gl, const vw_scene *s, float x, float *y)
{
  const plain_view *pv = s->plain;
  const ts_plain_result *r = pv->res;
  float bottom = s->panel.y + s->panel.h - 100;
  if (!r)
    return;
  if (scene_finding(s)) {
    panel_finding(gl, s, x, y, bottom);
    return;
  }
  if (s->src_line <= 0) {
    if (r->nfindings && s->source.w > 0)
      panel_line(gl, x, y, DIM, "[n N] or a click on a line: select a finding");
    return;
  }
  uint32_t g[6];
  size_t n = plain_view_line_groups(pv, s->src_line, g, 6);
  const ts_plain_launch *L = plain_view_launch(pv);
  panel_line(gl, x, y, ACCENT, "line %d: work-groups that ran it", s->src_line);
  char t[400] = "", gn[40];
  size_t len = 0;
  for (size_t i = 0; L && i < n && i < 6 && len < sizeof t; i++) {
    ts_plain_group_name(L, g[i], gn, sizeof gn);
    len += (size_t)snprintf(t + len, sizeof t - len, "%s%s", i ? ", " : "", gn);
  }
  if (n > 6 && len < sizeof t)
    snprintf(t + len, sizeof t - len, " and %zu more", n - 6);
  if (n)
    snprintf(t + strlen(t), sizeof t - strlen(t), ", as far as this run tells (its findings' "
             "accesses, the watched pixel's)");
  else
    snprintf(t, sizeof t, "none that this run tells: no finding or watched pixel's access is "
             "at it (it keeps no record of the lines each group ran)");
  panel_wrap_font(gl, FONT_SMALL, x, y, bottom, n ? WHITE : DIM, t);
}
