/* Image comparison (see ts_compare.h). */
#include <math.h>
#include <string.h>

#include "ts_compare.h"

static int pixel_diff(const uint8_t *p, const uint8_t *q, int c)
{
  int m = 0;
  for (int i = 0; i < c; i++) {
    int d = p[i] > q[i] ? p[i] - q[i] : q[i] - p[i];
    m = d > m ? d : m;
  }
  return m;
}

static ts_status check_same_shape(const ts_image *a, const ts_image *b, ts_error *err)
{
  if (a->w != b->w || a->h != b->h || a->c != b->c)
    return ts_fail(err, TS_ERR_ARG, "images differ in shape: %dx%dx%d and %dx%dx%d", a->w,
                   a->h, a->c, b->w, b->h, b->c);
  return TS_OK;
}

ts_status ts_image_compare(const ts_image *a, const ts_image *b, int tolerance,
                           ts_diff_stats *stats, ts_image **diff_out, ts_error *err)
{
  ts_status st = check_same_shape(a, b, err);
  if (st != TS_OK)
    return st;
  ts_image *d = NULL;
  if (diff_out && (st = ts_image_create(a->w, a->h, 3, &d, err)) != TS_OK)
    return st;
  ts_diff_stats s = { .pixels = (size_t)a->w * a->h };
  double se = 0.0;
  for (size_t i = 0; i < s.pixels; i++) {
    const uint8_t *p = a->data + i * a->c, *q = b->data + i * a->c;
    int m = pixel_diff(p, q, a->c);
    for (int c = 0; c < a->c; c++)
      se += (double)(p[c] - q[c]) * (double)(p[c] - q[c]);
    s.max_diff = m > s.max_diff ? m : s.max_diff;
    if (m > tolerance)
      s.differing++;
    if (d) {
      uint8_t grey = (uint8_t)((a->c == 1 ? p[0] : ts_luma(p[0], p[1], p[2])) / 4 + 32);
      uint8_t *o = d->data + i * 3;
      if (m > tolerance) {
        o[0] = (uint8_t)(128 + m / 2);
        o[1] = o[2] = 0;
      } else {
        o[0] = o[1] = o[2] = grey;
      }
    }
  }
  double mse = se / ((double)s.pixels * a->c);
  s.psnr = mse == 0.0 ? INFINITY : 10.0 * log10(255.0 * 255.0 / mse);
  *stats = s;
  if (diff_out)
    *diff_out = d;
  return TS_OK;
}

ts_status ts_image_diff_profile(const ts_image *a, const ts_image *b, size_t hist[256],
                                ts_error *err)
{
  ts_status st = check_same_shape(a, b, err);
  if (st != TS_OK)
    return st;
  size_t count[256] = { 0 };
  size_t n = (size_t)a->w * a->h;
  for (size_t i = 0; i < n; i++)
    count[pixel_diff(a->data + i * a->c, b->data + i * a->c, a->c)]++;
  /* hist[t] = pixels with difference > t */
  size_t above = 0;
  for (int t = 255; t >= 0; t--) {
    hist[t] = above;
    above += count[t];
  }
  return TS_OK;
}
