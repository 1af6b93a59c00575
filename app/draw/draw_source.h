/* A plain kernel's source pane (draw_source.c), in the input pane's place: the kernel file's
 * lines with their findings, the finding or line selected and what it concerns over the
 * output pane, on the timeline and in the side panel; and where a point of the pane falls,
 * which the viewer's clicks and wheel ask (the same layout the drawing uses). */
#ifndef TS_APP_DRAW_SOURCE_H
#define TS_APP_DRAW_SOURCE_H

#include "gl_resources.h"

/* The pane (s->source; nothing when it is 0 wide). */
void draw_source_pane(vw_gl *gl, const vw_scene *s);
/* Over the output pane: the selected finding's work-groups outlined (A its access's, B the
 * other's) and its element, or the groups that ran the selected line. */
void draw_source_overlay(vw_gl *gl, const vw_scene *s);
/* Over the plain kernel's timeline: the intervals the selected finding's groups ran in. */
void draw_source_timeline(vw_gl *gl, const vw_scene *s);
/* The side panel's part at (x, *y): the selected finding's two accesses and its place in
 * time, or the selected line's work-groups, or how to select one. */
void draw_source_panel(vw_gl *gl, const vw_scene *s, float x, float *y);


enum { SOURCE_NONE, SOURCE_LINE, SOURCE_ENTRY };
/* What lies at screen point (sx, sy): SOURCE_LINE and its line (a source line's row, or its
 * findings' row under it), SOURCE_ENTRY and a finding's index (its entry in the pane's list),
 * SOURCE_NONE elsewhere in the pane; -1 outside it. */
int source_at(const vw_gl *gl, const vw_scene *s, float sx, float sy, int *what);
/* The first line shown (the scene's src_top, else where the selection puts it, kept within
 * the file); 0 without a pane. */
int source_first_line(const vw_gl *gl, const vw_scene *s);

#endif
