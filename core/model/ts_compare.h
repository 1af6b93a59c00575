/* Image comparison for `tilescope diff` and the golden tests: per-channel tolerance, count
 * and share of differing pixels, largest difference, PSNR, the thresholds that would have
 * passed, and a diff image. */
#ifndef TS_COMPARE_H
#define TS_COMPARE_H

#include "ts_image.h"

typedef struct ts_diff_stats {
  size_t pixels;            /* compared */
  size_t differing;         /* pixels with a channel difference over the tolerance */
  int max_diff;             /* largest channel difference */
  double psnr;              /* dB; INFINITY when identical */
} ts_diff_stats;

/* a and b must have the same size and channel count. `diff_out` (may be NULL) receives an
 * RGB image: the first image dimmed to grey, differing pixels in red by magnitude. */
ts_status ts_image_compare(const ts_image *a, const ts_image *b, int tolerance,
                           ts_diff_stats *stats, ts_image **diff_out, ts_error *err);
/* Pixels whose largest channel difference exceeds each tolerance 0..255: hist[t]. */
ts_status ts_image_diff_profile(const ts_image *a, const ts_image *b, size_t hist[256],
                                ts_error *err);

#endif
