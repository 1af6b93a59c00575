/* A plain kernel's source pane and its selection, as the viewer changes them
 * (viewer_source.c): the pane on and off, a finding selected (n N, --select-finding, a click
 * on its entry or line), a source line selected, the pane scrolled. */
#ifndef TS_APP_VIEWER_SOURCE_H
#define TS_APP_VIEWER_SOURCE_H

#include "view_state.h"

/* l: the pane on or off (a plain kernel's, and not in its split view: the status says why). */
void viewer_source_toggle(viewer *v);
/* Selects finding i of the result shown (-1: none), showing its pass and scrolling the pane
 * to its lines; the status line names it. */
void viewer_finding_select(viewer *v, int i);
/* n (dir 1), N (-1): the next or previous finding. */
void viewer_finding_step(viewer *v, int dir);
/* Selects source line `line`: its next finding after the one selected when it has any, else
 * the line alone (again: nothing). */
void viewer_source_line(viewer *v, int line);
/* A click at screen point (sx, sy): 1 when it was in the pane (a line or an entry selected). */
int viewer_source_click(viewer *v, float sx, float sy);
/* Whether screen point (sx, sy) is in the pane. */
int viewer_source_has(const viewer *v, float sx, float sy);
/* The wheel over the pane (dy notches, up positive) scrolls it; 1 when the point was in it. */
int viewer_source_wheel(viewer *v, float sx, float sy, int dy);
/* After a new result was taken: a selection asked for before it is made, one it no longer has
 * is dropped. */
void viewer_source_picked(viewer *v);

#endif
