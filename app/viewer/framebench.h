/* --bench-frames N (framebench.c): the viewer's own speed, measured as a user meets it. */
#ifndef TS_APP_FRAMEBENCH_H
#define TS_APP_FRAMEBENCH_H

#include "view_state.h"

/* created_ms is when the viewer was created (CLOCK_MONOTONIC, ms); the steps go from tick
 * `from` (--tick, else 0). Prints the figures; returns 0 on a failure, after one error line. */
int bench_frames(viewer *v, int n, double created_ms, int64_t from);

#endif
