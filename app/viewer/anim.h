/* Animated GIFs of the viewer, for slides (`shot --frames A:B:S -o OUT.gif`, or a script's
 * pauses): frames go in as RGB pictures of the window, are scaled down to the GIF's size and
 * kept; at the end one palette of at most 255 colours is chosen for all of them (a median cut
 * on a 5-bit-per-channel histogram, deterministic: the same frames give the same bytes) and
 * the GIF is written through giflib, each frame as the rectangle that changed since the one
 * before, unchanged pixels transparent. A frame may carry a caption (a script's `caption`):
 * then every frame gets a strip under it with its caption's text, drawn with SDL2_ttf in the
 * viewer's font (TILESCOPE_FONT); nothing else here knows SDL, and nothing GL. */
#ifndef TS_APP_ANIM_H
#define TS_APP_ANIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct anim anim;

/* Frames of src_w x src_h pixels, written at out_w x out_h (no larger). Returns NULL on bad
 * sizes or no memory. */
anim *anim_create(int src_w, int src_h, int out_w, int out_h);
void anim_destroy(anim *a);
/* Whether nframes frames of out_w x out_h fit in the memory an animation may take; else 0,
 * with the line anim_add would give at the first frame past it. */
int anim_fits(int out_w, int out_h, long long nframes, char *err, size_t n);
/* Adds a frame (src_w x src_h RGB, rows top-down) shown for delay_cs hundredths of a second.
 * Returns 0, with a line in err, when the frames would take too much memory. */
int anim_add(anim *a, const uint8_t *rgb, int delay_cs, char *err, size_t n);
int anim_frames(const anim *a);
/* The caption of the frames added from now on ("" or NULL: none). Returns 0 without memory. */
int anim_caption(anim *a, const char *text);
/* While held (hold 1), anim_add keeps no frame but captions are still taken: a script run
 * before `shot --frames` sets the caption of the frames its ticks make, its pauses none. */
void anim_hold(anim *a, int hold);
/* Writes the GIF (a temporary file, renamed once whole). Returns 0 with a line in err. */
int anim_write(anim *a, const char *path, char *err, size_t n);

#endif
