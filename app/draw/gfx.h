/* OpenGL helpers for the drawing: shader programs read from the shaders folder at run time,
 * and one batch of screen-space triangles for panels, lines, arrows and text (glyphs from an
 * SDL2_ttf atlas of a monospaced font at two sizes), cut to a rectangle (a pane) while one is
 * set. The app's GL calls all live in draw/:
 * here, in gl_resources.c (textures, framebuffers, reading a frame back), phase.c (the
 * profile's waits) and the drawing (draw_*.c); the viewer makes none. */
#ifndef TS_APP_GFX_H
#define TS_APP_GFX_H

#include <epoxy/gl.h>
#include <stdint.h>

typedef struct gfx_color {
  float r, g, b, a;
} gfx_color;

enum { FONT_UI, FONT_SMALL, FONT_COUNT };

typedef struct gfx_font {
  int size, advance, height, ascent;
  float u0[96], v0[96], u1[96], v1[96]; /* ASCII 32..127 */
  int gw[96], gh[96], gx[96], gy[96];
} gfx_font;

typedef struct gfx {
  GLuint image_prog, ui_prog;
  GLuint quad_vao, quad_vbo, ui_vao, ui_vbo, atlas;
  float *verts; /* x, y, u, v, r, g, b, a */
  size_t nverts, cap;
  gfx_font font[FONT_COUNT];
  int screen_w, screen_h;
  /* While clipping: what is added to the batch is cut to x0, y0, x1, y1 (gfx_clip). */
  int clipping;
  float clip[4];
} gfx;

/* Loads shaders from shaders_dir and the font; on failure writes one line to err. */
int gfx_init(gfx *g, const char *shaders_dir, const char *font_path, char *err, size_t errlen);
void gfx_free(gfx *g);
void gfx_begin(gfx *g, int w, int h);
/* Draws and empties the batch. */
void gfx_flush(gfx *g);
/* Until gfx_unclip (or the next gfx_begin), what is added to the batch is cut to the screen
 * rectangle x, y, w, h: a pane's drawing stays in its pane however the batch is flushed. */
void gfx_clip(gfx *g, float x, float y, float w, float h);
void gfx_unclip(gfx *g);

void gfx_rect(gfx *g, float x, float y, float w, float h, gfx_color c);
void gfx_frame(gfx *g, float x, float y, float w, float h, float t, gfx_color c);
void gfx_line(gfx *g, float x0, float y0, float x1, float y1, float t, gfx_color c);
void gfx_arrow(gfx *g, float x0, float y0, float x1, float y1, float t, gfx_color c);
void gfx_tri(gfx *g, float x0, float y0, float x1, float y1, float x2, float y2, gfx_color c);
/* Text at (x, y) = top-left; returns the width. Lines break at '\n'. */
float gfx_text(gfx *g, int font, float x, float y, gfx_color c, const char *s);
float gfx_textf(gfx *g, int font, float x, float y, gfx_color c, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
int gfx_text_width(const gfx *g, int font, const char *s);

static inline gfx_color gfx_rgba(float r, float g, float b, float a)
{
  gfx_color c = { r, g, b, a };
  return c;
}

#endif
