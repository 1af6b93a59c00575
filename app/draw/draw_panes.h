/* Drawing the image panes (draw_panes.c): the panes themselves, keyed so that the frame cache
 * keeps them, and what lies over them: the hovered tile, dispatch indices, pixel values and
 * the focused thread. draw_frame.c and draw_split.c (each half) call these. */
#ifndef TS_APP_DRAW_PANES_H
#define TS_APP_DRAW_PANES_H

#include "gl_resources.h"

/* What pane `pane` (0 input, 1 output) is drawn with, but the hover (norm: the overlay's
 * ramps' ends). */
void draw_pane_key(vw_gl *gl, const vw_scene *s, int pane, const float *norm, vw_pane_key *k);
/* Draws a pane as its key says, the tile at hover (x, y in the thread space) highlighted. */
void draw_pane(vw_gl *gl, const vw_scene *s, const vw_pane_key *k, const float *hover);
/* The output pane again where the hovered tile lies, with it highlighted. */
void draw_hover(vw_gl *gl, const vw_scene *s, const vw_pane_key *k);
/* Dispatch indices in the output pane's tiles, where they fit; under them the tile grid
 * where its tiles are too small on screen for the shader's (every Nth line instead). */
void draw_tile_labels(vw_gl *gl, const vw_scene *s);
/* Whether the output shows the tile grid (on, over a run's overlay or the device's output),
 * and its lines' spacing in tiles: every nx-th across and ny-th down (1: every tile's). */
int draw_grid_step(const vw_scene *s, int *nx, int *ny);
/* Pixel values in pane `pane`, zoomed in far enough. */
void draw_pixel_values(vw_gl *gl, const vw_scene *s, int pane);
/* The focused thread: its footprint, tile, dependencies, hazards and observed accesses. */
void draw_focus(vw_gl *gl, const vw_scene *s);

#endif
