/* Drawing text (draw_text.c): the side panel's lines, cut or wrapped to its width, which every
 * panel's file writes with; device times in one unit for the whole run; the titles over the
 * panes and the help. */
#ifndef TS_APP_DRAW_TEXT_H
#define TS_APP_DRAW_TEXT_H

#include "gl_resources.h"

#define PANEL_TEXT_W 416.0f /* the side panel's width less its margins */
/* One line of the side panel at (x, *y), whole where it fits its width; a longer one goes on
 * over a second, indented line (broken at a space), shortened in the middle where even that
 * is too short; *y moves down a line for each. Nothing is drawn below gl->panel_bottom when
 * it is set. Returns the width drawn. */
float panel_line(vw_gl *gl, float x, float *y, gfx_color c, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* text in at most `fits` characters into out (n bytes): whole, or its start and end about
 * "..." (a file's or device's name keeps what tells it apart). */
void text_fit_middle(const char *text, size_t fits, char *out, size_t n);
/* A long line broken at spaces over as many panel lines as it needs. */
void panel_wrap(vw_gl *gl, float x, float *y, gfx_color c, const char *text);
/* The same in a font, stopping before a line would pass `bottom`; returns the lines drawn. */
int panel_wrap_font(vw_gl *gl, int font, float x, float *y, float bottom, gfx_color c,
                    const char *text);
/* A rectangle cut to the clip c (screen coordinates). */
void draw_clip_rect(vw_gl *gl, const vw_rect *c, float x, float y, float w, float h,
                    gfx_color col);
/* An OpenCL device's name as shown: TILESCOPE_DEVICE_LABEL where set (so that goldens shot
 * on one machine hold on another), else its own. */
const char *draw_cl_device(const char *device);
/* The device a run is on, named once: `heading` ("device   [b]") with the platform beside it
 * (dimmed) and the device's name on the line under it, each whole where it fits and else
 * shortened in its middle; a name without a platform ("CPU model") beside the heading.
 * `device` is the worker's "NAME (PLATFORM)", or a name alone. */
void draw_device_heading(vw_gl *gl, float x, float *y, const char *heading, const char *device);
/* Device times in one unit for the whole run, chosen by its length. */
void draw_fmt_dev_time(const ts_dev_run *d, uint64_t t, char *out, size_t n);
/* The titles over the panes (and a failed run's error in the output pane). */
void draw_titles(vw_gl *gl, const vw_scene *s);
void draw_help(vw_gl *gl, const vw_scene *s);

#endif
