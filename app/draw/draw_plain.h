/* Drawing a plain kernel's view (draw_plain.c), in place of a variant's: its work-groups over
 * the panes at the tick shown, the hovered one's footprint and tile, the title over the
 * output and the side panel (its timeline: draw_timeline.h). */
#ifndef TS_APP_DRAW_PLAIN_H
#define TS_APP_DRAW_PLAIN_H

#include "gl_resources.h"

void draw_plain_overlay(vw_gl *gl, const vw_scene *s);
void draw_plain_title(vw_gl *gl, const vw_scene *s);
void draw_plain_panel(vw_gl *gl, const vw_scene *s);

#endif
