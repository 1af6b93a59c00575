/* GL helpers: shader programs, the UI batch, the font atlas (see gfx.h). */
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx.h"
#include "ts_file.h"

static GLuint compile(GLenum type, const char *dir, const char *file, char *err, size_t errlen)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  uint8_t *src = NULL;
  size_t len = 0;
  ts_error e = { 0 };
  if (ts_file_read_all(path, 1 << 20, &src, &len, &e) != TS_OK) {
    snprintf(err, errlen, "%s", e.msg);
    return 0;
  }
  GLuint sh = glCreateShader(type);
  const GLchar *text = (const GLchar *)src;
  GLint n = (GLint)len, ok = 0;
  glShaderSource(sh, 1, &text, &n);
  glCompileShader(sh);
  free(src);
  glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = "";
    glGetShaderInfoLog(sh, sizeof log, NULL, log);
    char *nl = strchr(log, '\n');
    if (nl)
      *nl = 0;
    snprintf(err, errlen, "%s: %s", path, log);
    glDeleteShader(sh);
    return 0;
  }
  return sh;
}

static GLuint program(const char *dir, const char *vs, const char *fs, char *err, size_t errlen)
{
  GLuint v = compile(GL_VERTEX_SHADER, dir, vs, err, errlen);
  GLuint f = v ? compile(GL_FRAGMENT_SHADER, dir, fs, err, errlen) : 0;
  if (!f) {
    glDeleteShader(v);
    return 0;
  }
  GLuint p = glCreateProgram();
  glAttachShader(p, v);
  glAttachShader(p, f);
  glLinkProgram(p);
  glDeleteShader(v);
  glDeleteShader(f);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[512] = "";
    glGetProgramInfoLog(p, sizeof log, NULL, log);
    snprintf(err, errlen, "%s/%s: link: %s", dir, fs, log);
    glDeleteProgram(p);
    return 0;
  }
  return p;
}

/* Renders ASCII 32..127 of `path` at two sizes into one R8 atlas. */
static int build_atlas(gfx *g, const char *path, char *err, size_t errlen)
{
  static const int sizes[FONT_COUNT] = { 14, 10 };
  enum { AW = 1024, AH = 256 };
  uint8_t *pix = calloc(AW * AH, 1);
  if (!pix || (!TTF_WasInit() && TTF_Init() != 0)) {
    snprintf(err, errlen, "SDL_ttf: %s", pix ? TTF_GetError() : "out of memory");
    free(pix);
    return 0;
  }
  int pen_x = 1, pen_y = 1, row_h = 0;
  for (int f = 0; f < FONT_COUNT; f++) {
    TTF_Font *font = TTF_OpenFont(path, sizes[f]);
    if (!font) {
      snprintf(err, errlen, "font '%s': %s", path, TTF_GetError());
      free(pix);
      return 0;
    }
    TTF_SetFontHinting(font, TTF_HINTING_LIGHT);
    gfx_font *gf = &g->font[f];
    gf->size = sizes[f];
    gf->height = TTF_FontLineSkip(font);
    gf->ascent = TTF_FontAscent(font);
    int adv = 0;
    TTF_GlyphMetrics(font, 'M', NULL, NULL, NULL, NULL, &adv);
    gf->advance = adv;
    for (int ch = 32; ch < 128; ch++) {
      int i = ch - 32;
      SDL_Surface *s = ch == 32 || ch == 127 ? NULL
                                             : TTF_RenderGlyph_Blended(font, (Uint16)ch,
                                                                       (SDL_Color){ 255, 255, 255, 255 });
      int w = s ? s->w : 0, h = s ? s->h : 0;
      if (pen_x + w + 1 >= AW) {
        pen_x = 1;
        pen_y += row_h + 1;
        row_h = 0;
      }
      if (s && pen_y + h < AH) {
        SDL_Surface *c = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_ARGB8888, 0);
        for (int y = 0; c && y < h; y++)
          for (int x = 0; x < w; x++) {
            uint32_t px = ((uint32_t *)((uint8_t *)c->pixels + y * c->pitch))[x];
            pix[(pen_y + y) * AW + pen_x + x] = (uint8_t)(px >> 24);
          }
        SDL_FreeSurface(c);
      }
      gf->gx[i] = pen_x;
      gf->gy[i] = pen_y;
      gf->gw[i] = w;
      gf->gh[i] = h;
      gf->u0[i] = (float)pen_x / AW;
      gf->v0[i] = (float)pen_y / AH;
      gf->u1[i] = (float)(pen_x + w) / AW;
      gf->v1[i] = (float)(pen_y + h) / AH;
      pen_x += w + 1;
      row_h = h > row_h ? h : row_h;
      SDL_FreeSurface(s);
    }
    TTF_CloseFont(font);
    pen_x = 1;
    pen_y += row_h + 1;
    row_h = 0;
  }
  glGenTextures(1, &g->atlas);
  glBindTexture(GL_TEXTURE_2D, g->atlas);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, AW, AH, 0, GL_RED, GL_UNSIGNED_BYTE, pix);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  free(pix);
  return 1;
}

int gfx_init(gfx *g, const char *shaders_dir, const char *font_path, char *err, size_t errlen)
{
  memset(g, 0, sizeof *g);
  g->image_prog = program(shaders_dir, "image.vert", "image.frag", err, errlen);
  g->ui_prog = g->image_prog ? program(shaders_dir, "ui.vert", "ui.frag", err, errlen) : 0;
  if (!g->ui_prog || !build_atlas(g, font_path, err, errlen))
    return 0;
  glGenVertexArrays(1, &g->quad_vao);
  glGenBuffers(1, &g->quad_vbo);
  glBindVertexArray(g->quad_vao);
  glBindBuffer(GL_ARRAY_BUFFER, g->quad_vbo);
  glBufferData(GL_ARRAY_BUFFER, 12 * sizeof(float), NULL, GL_DYNAMIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), (void *)0);
  glGenVertexArrays(1, &g->ui_vao);
  glGenBuffers(1, &g->ui_vbo);
  glBindVertexArray(g->ui_vao);
  glBindBuffer(GL_ARRAY_BUFFER, g->ui_vbo);
  for (int i = 0; i < 3; i++)
    glEnableVertexAttribArray((GLuint)i);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 8 * sizeof(float), (void *)0);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 8 * sizeof(float), (void *)(2 * sizeof(float)));
  glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, 8 * sizeof(float), (void *)(4 * sizeof(float)));
  glBindVertexArray(0);
  return 1;
}

void gfx_free(gfx *g)
{
  if (g->image_prog)
    glDeleteProgram(g->image_prog);
  if (g->ui_prog)
    glDeleteProgram(g->ui_prog);
  GLuint bufs[] = { g->quad_vbo, g->ui_vbo };
  glDeleteBuffers(2, bufs);
  GLuint vaos[] = { g->quad_vao, g->ui_vao };
  glDeleteVertexArrays(2, vaos);
  if (g->atlas)
    glDeleteTextures(1, &g->atlas);
  free(g->verts);
  memset(g, 0, sizeof *g);
}

void gfx_begin(gfx *g, int w, int h)
{
  g->screen_w = w;
  g->screen_h = h;
  g->nverts = 0;
  g->clipping = 0;
}

void gfx_clip(gfx *g, float x, float y, float w, float h)
{
  g->clipping = 1;
  g->clip[0] = x;
  g->clip[1] = y;
  g->clip[2] = x + w;
  g->clip[3] = y + h;
}

void gfx_unclip(gfx *g)
{
  g->clipping = 0;
}

static void push(gfx *g, float x, float y, float u, float v, gfx_color c)
{
  if (g->nverts == g->cap) {
    size_t cap = g->cap ? g->cap * 2 : 4096;
    float *n = realloc(g->verts, cap * 8 * sizeof(float));
    if (!n)
      return;
    g->verts = n;
    g->cap = cap;
  }
  float *p = g->verts + g->nverts++ * 8;
  p[0] = x;
  p[1] = y;
  p[2] = u;
  p[3] = v;
  p[4] = c.r;
  p[5] = c.g;
  p[6] = c.b;
  p[7] = c.a;
}

/* A vertex being clipped: position and atlas coordinates. */
typedef struct clip_vert {
  float x, y, u, v;
} clip_vert;

/* Cuts polygon in (n vertices) by the half-plane where coordinate `axis` (0 x, 1 y) is at
 * least (keep_above) or at most `at`; returns the vertex count of out. */
static int clip_edge(const clip_vert *in, int n, int axis, float at, int keep_above,
                     clip_vert *out)
{
  int m = 0;
  for (int i = 0; i < n; i++) {
    const clip_vert *a = &in[i], *b = &in[(i + 1) % n];
    float da = (axis ? a->y : a->x) - at, db = (axis ? b->y : b->x) - at;
    if (!keep_above) {
      da = -da;
      db = -db;
    }
    if (da >= 0)
      out[m++] = *a;
    if ((da >= 0) != (db >= 0)) {
      float t = da / (da - db);
      out[m++] = (clip_vert){ a->x + (b->x - a->x) * t, a->y + (b->y - a->y) * t,
                              a->u + (b->u - a->u) * t, a->v + (b->v - a->v) * t };
    }
  }
  return m;
}

/* A triangle into the batch, cut to the clip rectangle while there is one. */
static void tri_uv(gfx *g, clip_vert a, clip_vert b, clip_vert c, gfx_color col)
{
  const float *r = g->clip;
  int inside = !g->clipping;
  if (!inside) {
    float x0 = fminf(a.x, fminf(b.x, c.x)), x1 = fmaxf(a.x, fmaxf(b.x, c.x));
    float y0 = fminf(a.y, fminf(b.y, c.y)), y1 = fmaxf(a.y, fmaxf(b.y, c.y));
    if (x1 <= r[0] || x0 >= r[2] || y1 <= r[1] || y0 >= r[3])
      return;
    inside = x0 >= r[0] && x1 <= r[2] && y0 >= r[1] && y1 <= r[3];
  }
  if (inside) {
    push(g, a.x, a.y, a.u, a.v, col);
    push(g, b.x, b.y, b.u, b.v, col);
    push(g, c.x, c.y, c.u, c.v, col);
    return;
  }
  /* A triangle cut by four edges has at most seven vertices. */
  clip_vert p[8] = { a, b, c }, q[8];
  int n = clip_edge(p, 3, 0, r[0], 1, q);
  n = clip_edge(q, n, 0, r[2], 0, p);
  n = clip_edge(p, n, 1, r[1], 1, q);
  n = clip_edge(q, n, 1, r[3], 0, p);
  for (int i = 1; i + 1 < n; i++) {
    push(g, p[0].x, p[0].y, p[0].u, p[0].v, col);
    push(g, p[i].x, p[i].y, p[i].u, p[i].v, col);
    push(g, p[i + 1].x, p[i + 1].y, p[i + 1].u, p[i + 1].v, col);
  }
}

void gfx_tri(gfx *g, float x0, float y0, float x1, float y1, float x2, float y2, gfx_color c)
{
  tri_uv(g, (clip_vert){ x0, y0, -1, -1 }, (clip_vert){ x1, y1, -1, -1 },
         (clip_vert){ x2, y2, -1, -1 }, c);
}

void gfx_rect(gfx *g, float x, float y, float w, float h, gfx_color c)
{
  gfx_tri(g, x, y, x + w, y, x + w, y + h, c);
  gfx_tri(g, x, y, x + w, y + h, x, y + h, c);
}

void gfx_frame(gfx *g, float x, float y, float w, float h, float t, gfx_color c)
{
  gfx_rect(g, x, y, w, t, c);
  gfx_rect(g, x, y + h - t, w, t, c);
  gfx_rect(g, x, y + t, t, h - 2 * t, c);
  gfx_rect(g, x + w - t, y + t, t, h - 2 * t, c);
}

void gfx_line(gfx *g, float x0, float y0, float x1, float y1, float t, gfx_color c)
{
  float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
  if (len < 1e-3f)
    return;
  float nx = -dy / len * t * 0.5f, ny = dx / len * t * 0.5f;
  gfx_tri(g, x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, c);
  gfx_tri(g, x0 + nx, y0 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny, c);
}

void gfx_arrow(gfx *g, float x0, float y0, float x1, float y1, float t, gfx_color c)
{
  float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
  if (len < 1e-3f)
    return;
  float ux = dx / len, uy = dy / len, head = 4.0f * t + 4.0f;
  if (head > len * 0.6f)
    head = len * 0.6f;
  float bx = x1 - ux * head, by = y1 - uy * head;
  gfx_line(g, x0, y0, bx, by, t, c);
  gfx_tri(g, x1, y1, bx - uy * head * 0.55f, by + ux * head * 0.55f, bx + uy * head * 0.55f,
          by - ux * head * 0.55f, c);
}

int gfx_text_width(const gfx *g, int font, const char *s)
{
  int w = 0, best = 0;
  for (; *s; s++) {
    if (*s == '\n') {
      best = w > best ? w : best;
      w = 0;
    } else {
      w += g->font[font].advance;
    }
  }
  return w > best ? w : best;
}

float gfx_text(gfx *g, int font, float x, float y, gfx_color c, const char *s)
{
  const gfx_font *f = &g->font[font];
  float x0 = x, best = 0;
  for (; *s; s++) {
    unsigned ch = (unsigned char)*s;
    if (ch == '\n') {
      best = x - x0 > best ? x - x0 : best;
      x = x0;
      y += (float)f->height;
      continue;
    }
    if (ch < 32 || ch > 127)
      ch = '?';
    int i = (int)ch - 32;
    if (f->gw[i] > 0) {
      float gx = roundf(x), gy = roundf(y), w = (float)f->gw[i], h = (float)f->gh[i];
      clip_vert q0 = { gx, gy, f->u0[i], f->v0[i] }, q1 = { gx + w, gy, f->u1[i], f->v0[i] },
                q2 = { gx + w, gy + h, f->u1[i], f->v1[i] }, q3 = { gx, gy + h, f->u0[i], f->v1[i] };
      tri_uv(g, q0, q1, q2, c);
      tri_uv(g, q0, q2, q3, c);
    }
    x += (float)f->advance;
  }
  return (x - x0 > best ? x - x0 : best);
}

float gfx_textf(gfx *g, int font, float x, float y, gfx_color c, const char *fmt, ...)
{
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return gfx_text(g, font, x, y, c, buf);
}

void gfx_flush(gfx *g)
{
  if (g->nverts == 0)
    return;
  glUseProgram(g->ui_prog);
  glUniform2f(glGetUniformLocation(g->ui_prog, "u_screen"), (float)g->screen_w, (float)g->screen_h);
  glUniform1i(glGetUniformLocation(g->ui_prog, "u_atlas"), 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, g->atlas);
  glBindVertexArray(g->ui_vao);
  glBindBuffer(GL_ARRAY_BUFFER, g->ui_vbo);
  glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(g->nverts * 8 * sizeof(float)), g->verts,
               GL_STREAM_DRAW);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDrawArrays(GL_TRIANGLES, 0, (GLsizei)g->nverts);
  glBindVertexArray(0);
  g->nverts = 0;
}
