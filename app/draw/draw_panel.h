/* Drawing the side panel of a variant's run (draw_panel.c): the run, the inspector, the
 * legend. */
#ifndef TS_APP_DRAW_PANEL_H
#define TS_APP_DRAW_PANEL_H

#include "gl_resources.h"

void draw_panel(vw_gl *gl, const vw_scene *s);

#endif
