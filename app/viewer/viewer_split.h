/* The split view, two runs of the same image side by side on one cursor (viewer_split.c). */
#ifndef TS_APP_VIEWER_SPLIT_H
#define TS_APP_VIEWER_SPLIT_H

#include "view_state.h"

/* Opens the split view with `sp` as its right half (replacing one that is open); returns 0
 * with the reason in the status line when it cannot (a device half without a record or the
 * OpenCL back end, a plain kernel). */
int viewer_split_start(viewer *v, const vw_split_spec *sp);
void viewer_split_stop(viewer *v);
/* The x key: closes the split, or opens it again with the last right half (without one: the
 * device's run beside the simulation when there is one, else the next pattern). */
void viewer_split_toggle(viewer *v);
/* Once per frame and before a sync: the twin follows the left's settings (with its changes),
 * view and cursor, and is asked for a new run or tick when they changed. */
void viewer_split_follow(viewer *v);

#endif
