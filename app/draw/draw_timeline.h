/* Drawing the timeline under the panes (draw_timeline.c): the simulated run's occupancy over
 * ticks, or in the device view groups in flight and the lanes over device time, or a plain
 * kernel's pass as a Gantt chart of its work-groups over its records' clock. */
#ifndef TS_APP_DRAW_TIMELINE_H
#define TS_APP_DRAW_TIMELINE_H

#include "gl_resources.h"

/* Layer 0 is what changes only with the run (the frame cache keeps it), layer 1 the rest. */
void draw_timeline(vw_gl *gl, const vw_scene *s, int layer);
/* A plain kernel's (s->plain): over what layer 0 drew, every frame. */
void draw_plain_timeline(vw_gl *gl, const vw_scene *s);

#endif
