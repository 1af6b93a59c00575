/* The scene of a frame, made from the viewer's state (scene_make.c): all the drawing reads,
 * and what the viewer's own input and scripts ask of what is shown. */
#ifndef TS_APP_SCENE_MAKE_H
#define TS_APP_SCENE_MAKE_H

#include "view_state.h"

/* Fills s with what v shows now; with a split and `right`, right with the right half's and
 * s->twin pointing to it (else s->twin is NULL). Both hold until v changes. Brings the
 * per-run figures the scene carries up to date (the traffic, the critical path). */
void viewer_scene(viewer *v, vw_scene *s, vw_scene *right);

#endif
