/* Drawing text (draw_text.c): the side panel's lines, cut or wrapped to its width, which every
 * panel's file writes with; device times in one unit for the whole run; the titles over the
 * panes and the help. */
#ifndef TS_APP_DRAW_TEXT_H
#define TS_APP_DRAW_TEXT_H

#include "gl_resources.h"

#define PANEL_TEXT_W 416.0f /* the side panel's width less its margins */
/* One line of the side panel at (x, *y), cut to its width ("..." at the end); *y moves down a
 * line. Nothing is drawn below gl->panel_bottom when it is set. Returns the width drawn. */
float panel_line(vw_gl *gl, float x, float *y, gfx_color c, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* A long line broken at spaces over as many panel lines as it needs. */
void panel_wrap(vw_gl *gl, float x, float *y, gfx_color c, const char *text);
/* The same in a font, stopping before a line would pass `bottom`; returns the lines drawn. */
int panel_wrap_font(vw_gl *gl, int font, float x, float *y, float bottom, gfx_color c,
                    const char *text);
/* Device times in one unit for the whole run, chosen by its length. */
void draw_fmt_dev_time(const ts_dev_run *d, uint64_t t, char *out, size_t n);
/* The titles over the panes (and a failed run's error in the output pane). */
void draw_titles(vw_gl *gl, const vw_scene *s);
void draw_help(vw_gl *gl, const vw_scene *s);

#endif
