/* The default input: a test chart the project draws itself, with something for every filter
 * to act on: grey and colour ramps, a zone plate (every spatial frequency up to Nyquist),
 * sharp edges (checkerboard, Siemens star, one-pixel lines) and lines of text. */
#ifndef TS_CHART_H_INCLUDED
#define TS_CHART_H_INCLUDED

#include "ts_image.h"

#define TS_CHART_W 640
#define TS_CHART_H 480

/* An RGB chart; any size from 64x64 up (the layout scales). */
ts_status ts_chart_render(int w, int h, ts_image **out, ts_error *err);

#endif
