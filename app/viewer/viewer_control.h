/* What changes the viewer's state, but for input and the frame loop (viewer_control.c): the
 * settings, tick and device time, the image, the zoom's fit, the status line, the output
 * values read for drawing. */
#ifndef TS_APP_VIEWER_CONTROL_H
#define TS_APP_VIEWER_CONTROL_H

#include "view_state.h"

void viewer_apply(viewer *v);       /* after changing v->set: start a new run */
/* Asks the worker for the current settings and tick (reload: build the kernels again). */
void viewer_request(viewer *v, int reload);
void viewer_set_tick(viewer *v, int64_t t);
void viewer_set_dev_time(viewer *v, int64_t t);
/* A plain kernel's tick once its pass shown or its result changed (end: the length before,
 * INT64_MAX / 4 when there was none): at the end before, the end now; else the same tick,
 * within the new length. */
void viewer_plain_retick(viewer *v, int64_t end);
/* Fits the image to the panes. */
void viewer_fit(viewer *v);
/* The device view has its own layout: refit when it comes or goes, unless the user zoomed. */
void viewer_relayout(viewer *v);
/* A transient message at the bottom. */
void viewer_set_status(viewer *v, const char *msg);
/* Opens an image as a dropped file does: decoded on a thread of its own, picked up by a later
 * frame; one that fails to load leaves the current image and says why in the status line. */
void viewer_open(viewer *v, const char *path);
/* Picks up an image the loader thread finished: returns 1 when it opened one or said why it
 * could not. */
int viewer_pick_up_image(viewer *v);
/* Asks that the output values of [x0, x1) x [y0, y1) be at hand for the scene (scene_out_px):
 * read from the worker's run now if it allows (it does whenever it is not making the next
 * tick), and again with each snapshot taken. */
void viewer_want_values(viewer *v, int x0, int y0, int x1, int y1);
/* Copies the wanted rectangle of the run's output (ud: the viewer; the worker keeps off it
 * meanwhile): vw_worker_read's callback, and vw_worker_take's through viewer.c. */
void viewer_read_values(void *ud, const ts_kctx *k);

#endif
