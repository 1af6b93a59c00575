/* The viewer's input (viewer_input.c): keys, the mouse, the window's events; scripts play
 * keys and the mouse through the same functions. */
#ifndef TS_APP_VIEWER_INPUT_H
#define TS_APP_VIEWER_INPUT_H

#include "view_state.h"

void viewer_key(viewer *v, SDL_Keycode key, int shift);
void viewer_mouse_move(viewer *v, float sx, float sy);
void viewer_click(viewer *v, float sx, float sy);
/* One SDL event: keys, the mouse, a dropped file, the window's size. */
void viewer_handle_event(viewer *v, const SDL_Event *e);

#endif
