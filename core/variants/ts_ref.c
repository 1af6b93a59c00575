/* Scalar reference filters (see ts_ref.h). The box and the Gaussian are their definitions
 * pixel by pixel, run on bands of rows, a thread a band: at 7680x4320 RGB the Gaussian's 25
 * taps a byte took seconds on one core, and `bench` and every device run check against it. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "ts_ref.h"
#include "ts_variant.h"

static uint8_t px(const ts_image *im, int x, int y, int c)
{
  x = x < 0 ? 0 : x >= im->w ? im->w - 1 : x;
  y = y < 0 ? 0 : y >= im->h ? im->h - 1 : y;
  return im->data[((size_t)y * im->w + x) * im->c + c];
}

/* One band of rows of a filter: rows y0 .. y1 - 1 of out from in, the weighted sum over the
 * clamped (2r + 1)^2 window, w the 1-D weights: the Gaussian's, or 1 1 1 for the box, whose
 * sum is scaled instead of rounded. */
typedef struct {
  const ts_image *in;
  ts_image *out;
  const uint32_t *w;
  int r, box, y0, y1;
} ref_band;

static void *filter_rows(void *arg)
{
  const ref_band *b = arg;
  const ts_image *in = b->in;
  const uint32_t *w = b->w;
  int r = b->r;
  for (int y = b->y0; y < b->y1; y++)
    for (int x = 0; x < in->w; x++)
      for (int c = 0; c < in->c; c++) {
        uint32_t s = 0;
        for (int j = -r; j <= r; j++)
          for (int i = -r; i <= r; i++)
            s += w[i + r] * w[j + r] * px(in, x + i, y + j, c);
        b->out->data[((size_t)y * in->w + x) * in->c + c] =
            b->box ? (uint8_t)((float)s * 0.111f) : (uint8_t)((s + 32768u) >> 16);
      }
  return NULL;
}

/* Filters the image in bands of rows, one thread a band (a band whose thread does not start
 * runs on this one): as many bands as cores, up to 64, and at least 32 rows a band. */
static void in_bands(ref_band job)
{
  enum { MAXT = 64, MINROWS = 32 };
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int n = cores < 1 ? 1 : cores > MAXT ? MAXT : (int)cores, h = job.in->h;
  if (n > (h + MINROWS - 1) / MINROWS)
    n = (h + MINROWS - 1) / MINROWS;
  ref_band band[MAXT];
  pthread_t tid[MAXT];
  int started[MAXT] = { 0 };
  for (int t = 0; t < n; t++) {
    band[t] = job;
    band[t].y0 = (int)((long long)h * t / n);
    band[t].y1 = (int)((long long)h * (t + 1) / n);
    if (t > 0)
      started[t] = pthread_create(&tid[t], NULL, filter_rows, &band[t]) == 0;
  }
  filter_rows(&band[0]);
  for (int t = 1; t < n; t++)
    if (started[t])
      pthread_join(tid[t], NULL);
    else
      filter_rows(&band[t]);
}

ts_status ts_ref_box3(const ts_image *in, ts_image **out, ts_error *err)
{
  ts_image *o;
  ts_status st = ts_image_create(in->w, in->h, in->c, &o, err);
  if (st != TS_OK)
    return st;
  static const uint32_t ones[3] = { 1, 1, 1 };
  in_bands((ref_band){ .in = in, .out = o, .w = ones, .r = 1, .box = 1 });
  *out = o;
  return TS_OK;
}

ts_status ts_ref_gauss(const ts_image *in, int ksize, double sigma, ts_image **out,
                       ts_error *err)
{
  uint32_t w[TS_GAUSS_MAX_K];
  ts_status st = ts_gauss_weights(ksize, sigma, w, err);
  if (st != TS_OK)
    return st;
  ts_image *o;
  if ((st = ts_image_create(in->w, in->h, in->c, &o, err)) != TS_OK)
    return st;
  in_bands((ref_band){ .in = in, .out = o, .w = w, .r = ksize / 2 });
  *out = o;
  return TS_OK;
}

ts_status ts_ref_integral(const ts_image *in, uint32_t **out, ts_error *err)
{
  size_t n = (size_t)in->w * in->h;
  uint32_t *s = malloc(n * sizeof *s);
  if (!s)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory for the integral image");
  for (int y = 0; y < in->h; y++) {
    uint32_t row = 0;
    for (int x = 0; x < in->w; x++) {
      const uint8_t *p = in->data + ((size_t)y * in->w + x) * in->c;
      row += in->c == 1 ? p[0] : ts_luma(p[0], p[1], p[2]);
      s[(size_t)y * in->w + x] = row + (y > 0 ? s[(size_t)(y - 1) * in->w + x] : 0);
    }
  }
  *out = s;
  return TS_OK;
}
