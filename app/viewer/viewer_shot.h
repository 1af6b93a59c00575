/* Drawing a frame of the viewer, and taking it as a screenshot or an animation's frame
 * (viewer_shot.c). */
#ifndef TS_APP_VIEWER_SHOT_H
#define TS_APP_VIEWER_SHOT_H

#include "view_state.h"

struct anim;
struct ts_outset;

/* Asks for the output values the frame shows (viewer_want_values), makes its scene and draws
 * it. */
void viewer_draw(viewer *v);
/* Renders the current view and writes it as a PNG. With a set, the PNG waits as a
 * temporary file in it, renamed into place with the set (ts_outset_commit); NULL writes it
 * now. On failure says why and returns 0. */
int viewer_screenshot(viewer *v, const char *path, struct ts_outset *set);
/* Renders the current view as the next frame of an; on failure says why, sets
 * anim_failed and returns 0. */
int viewer_anim_frame(viewer *v, struct anim *an, int delay_cs);

#endif
