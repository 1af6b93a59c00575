/* Drawing one frame (draw_frame.c): what the viewer calls, once a frame, with its scene. */
#ifndef TS_APP_DRAW_FRAME_H
#define TS_APP_DRAW_FRAME_H

#include "gl_resources.h"

/* One frame of the window (or of a shot) into gl's framebuffer, shown in the window unless
 * the scene is offscreen. */
void render_frame(vw_gl *gl, const vw_scene *s);

#endif
