/* Scalar reference filters (see ts_ref.h). */
#include <stdlib.h>

#include "ts_ref.h"
#include "ts_variant.h"

static uint8_t px(const ts_image *im, int x, int y, int c)
{
  x = x < 0 ? 0 : x >= im->w ? im->w - 1 : x;
  y = y < 0 ? 0 : y >= im->h ? im->h - 1 : y;
  return im->data[((size_t)y * im->w + x) * im->c + c];
}

ts_status ts_ref_box3(const ts_image *in, ts_image **out, ts_error *err)
{
  ts_image *o;
  ts_status st = ts_image_create(in->w, in->h, in->c, &o, err);
  if (st != TS_OK)
    return st;
  for (int y = 0; y < in->h; y++)
    for (int x = 0; x < in->w; x++)
      for (int c = 0; c < in->c; c++) {
        int s = 0;
        for (int j = -1; j <= 1; j++)
          for (int i = -1; i <= 1; i++)
            s += px(in, x + i, y + j, c);
        o->data[((size_t)y * in->w + x) * in->c + c] = (uint8_t)((float)s * 0.111f);
      }
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
  int r = ksize / 2;
  for (int y = 0; y < in->h; y++)
    for (int x = 0; x < in->w; x++)
      for (int c = 0; c < in->c; c++) {
        uint32_t s = 0;
        for (int j = -r; j <= r; j++)
          for (int i = -r; i <= r; i++)
            s += w[i + r] * w[j + r] * px(in, x + i, y + j, c);
        o->data[((size_t)y * in->w + x) * in->c + c] = (uint8_t)((s + 32768u) >> 16);
      }
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
