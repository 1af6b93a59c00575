/* Drawing the viewer (draw_*.c): what one file of the drawing offers the others, and the
 * colours they share. Drawing reads the viewer's state and layout (view_state.c) and changes
 * nothing of it but its own caches (GL resources, per-run figures); the viewer calls it, it
 * never calls the viewer. Within the drawing, draw_frame.c calls the others, and draw_panel.c,
 * draw_timeline.c, draw_panes.c and draw_plain.c call only draw_text.c and the GL resources
 * (gl_res.h); draw_plain.c reads plain_view.h's state and const queries. */
#ifndef TS_APP_DRAW_H
#define TS_APP_DRAW_H

#include "gl_res.h"
#include "viewer.h"

static const gfx_color WHITE = { 1, 1, 1, 1 }, DIM = { 0.62f, 0.65f, 0.70f, 1 },
                       BG = { 0.09f, 0.10f, 0.12f, 1 }, PANEL = { 0.13f, 0.14f, 0.17f, 1 },
                       ACCENT = { 0.45f, 0.75f, 1.0f, 1 }, WARN = { 1.0f, 0.45f, 0.35f, 1 },
                       WAITS = { 1.0f, 0.62f, 0.05f, 1 }, WAITERS = { 0.25f, 0.9f, 1.0f, 1 },
                       FOOT = { 1.0f, 0.9f, 0.2f, 1 }, SEEN = { 0.3f, 1.0f, 0.55f, 1 };

/* The observation's flags (VW_OBS_* bits in order), as the overlay draws them. */
static const gfx_color OBS_COLORS[VW_OBS_KINDS] = { { 0.95f, 0.20f, 0.85f, 1 },
                                                    { 1.00f, 0.55f, 0.05f, 1 },
                                                    { 0.10f, 0.85f, 0.85f, 1 },
                                                    { 0.95f, 0.10f, 0.10f, 1 } };
static const char *const OBS_NAMES[VW_OBS_KINDS] = { "footprint", "write", "conflict",
                                                     "hazard" };

static const gfx_color STATE_COLORS[5] = { { 0.25f, 0.25f, 0.25f, 1 }, { 1.0f, 0.62f, 0.05f, 1 },
                                           { 0.15f, 0.95f, 0.25f, 1 }, { 0.25f, 0.45f, 0.95f, 1 },
                                           { 0.95f, 0.1f, 0.1f, 1 } };
static const char *const STATE_NAMES[5] = { "pending", "waiting", "running", "done", "hazard" };
/* A look-back group with its aggregate out (VW_DEV_PUBLISHED): the shader's colour too. */
static const gfx_color PUBLISHED_COLOR = { 0.10f, 0.80f, 0.78f, 1 };

/* draw_frame.c: one frame of the window (or of a shot) into v->fbo, shown in the window
 * unless offscreen. */
void render_frame(viewer *v);

/* draw_panes.c: the image panes and what is drawn over them. */
/* What pane `pane` is drawn with, but the hover (norm: the overlay's ramps' ends). */
void draw_pane_key(viewer *v, int pane, const vw_rect *r, const float *norm, vw_pane_key *k);
/* Draws a pane as its key says, the tile at hover (x, y in the thread space) highlighted. */
void draw_pane(viewer *v, const vw_pane_key *k, const float *hover);
/* The output pane again where the hovered tile lies, with it highlighted. */
void draw_hover(viewer *v, const vw_pane_key *k);
void draw_tile_labels(viewer *v, const vw_rect *r);
void draw_pixel_values(viewer *v, int pane, const vw_rect *r);
/* The focused thread: its footprint, tile, dependencies, hazards and observed accesses. */
void draw_focus(viewer *v, const vw_rect *rin, const vw_rect *rout);

/* draw_panel.c: the side panel's text, bars, inspector and legend. */
void draw_panel(viewer *v, const vw_rect *r);

/* draw_plain.c: a plain kernel's view (v->plain): its work-groups over the panes, the
 * hovered one's footprint and tile, the title over the output and the side panel. */
void draw_plain_overlay(viewer *v, const vw_rect *rin, const vw_rect *rout);
void draw_plain_title(viewer *v, const vw_rect *rout);
void draw_plain_panel(viewer *v, const vw_rect *r);
void draw_plain_timeline(viewer *v, const vw_rect *tl);

/* draw_split.c: the split view (v->twin): both halves' panes, what lies over each, their
 * titles, and the panel's block comparing the two runs. */
void draw_split_panes(viewer *v, float *norm);
void draw_split_overlays(viewer *v);
void draw_split_titles(viewer *v);
void draw_split_block(viewer *v, float x, float *y);

/* draw_timeline.c: layer 0 what changes only with the run, layer 1 the rest. */
void draw_timeline(viewer *v, const vw_rect *r, int layer);

/* draw_text.c */
#define PANEL_TEXT_W 416.0f /* the side panel's width less its margins */
/* One line of the side panel at (x, *y), cut to its width ("..." at the end); *y moves down a
 * line. Returns the width drawn. */
float panel_line(viewer *v, float x, float *y, gfx_color c, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* A long line broken at spaces over as many panel lines as it needs. */
void panel_wrap(viewer *v, float x, float *y, gfx_color c, const char *text);
/* The same in a font, stopping before a line would pass `bottom`; returns the lines drawn. */
int panel_wrap_font(viewer *v, int font, float x, float *y, float bottom, gfx_color c,
                    const char *text);
/* Device times in one unit for the whole run, chosen by its length. */
void draw_fmt_dev_time(const ts_dev_run *d, uint64_t t, char *out, size_t n);
/* The titles over the panes (and a failed run's error in the output pane). */
void draw_titles(viewer *v, const vw_rect *rin, const vw_rect *rout);
void draw_help(viewer *v);

#endif
