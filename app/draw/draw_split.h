/* Drawing the split view (draw_split.c): a scene with a twin, its right half, draws both
 * halves' panes, what lies over each and their titles in place of the single view's, and the
 * panel's block that compares the two runs (which draw_panel.c places). */
#ifndef TS_APP_DRAW_SPLIT_H
#define TS_APP_DRAW_SPLIT_H

#include "gl_resources.h"

void draw_split_panes(vw_gl *gl, const vw_scene *s, float *norm);
void draw_split_overlays(vw_gl *gl, const vw_scene *s);
void draw_split_titles(vw_gl *gl, const vw_scene *s);
/* A plain kernel's split view: each order's Gantt chart in its half of the timeline. */
void draw_plain_split_timelines(vw_gl *gl, const vw_scene *s);
/* The panel's block at (x, *y), *y moved past it; nothing without a split. */
void draw_split_block(vw_gl *gl, const vw_scene *s, float x, float *y);

#endif
