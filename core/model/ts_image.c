/* Image allocation, copies and channel conversion. */
#include <stdlib.h>
#include <string.h>

#include "ts_image.h"

ts_status ts_image_check_size(int w, int h, int c, size_t *bytes, ts_error *err)
{
  if (c != 1 && c != 3 && c != 4)
    return ts_fail(err, TS_ERR_ARG, "%d channels (1, 3 or 4 are supported)", c);
  if (w < 1 || h < 1 || w > TS_IMAGE_MAX_DIM || h > TS_IMAGE_MAX_DIM)
    return ts_fail(err, TS_ERR_TOO_LARGE, "image size %dx%d is outside 1..%d per side", w, h,
                   TS_IMAGE_MAX_DIM);
  size_t px;
  if (!ts_mul_size((size_t)w, (size_t)h, &px) || px > TS_IMAGE_MAX_PIXELS ||
      !ts_mul_size(px, (size_t)c, bytes))
    return ts_fail(err, TS_ERR_TOO_LARGE, "image size %dx%d is over the limit of %zu pixels", w,
                   h, TS_IMAGE_MAX_PIXELS);
  return TS_OK;
}

ts_status ts_image_create(int w, int h, int c, ts_image **out, ts_error *err)
{
  size_t bytes;
  ts_status st = ts_image_check_size(w, h, c, &bytes, err);
  if (st != TS_OK)
    return st;
  ts_image *img = malloc(sizeof *img);
  uint8_t *data = img ? ts_alloc_zeroed(bytes) : NULL;
  if (!data) {
    free(img);
    return ts_fail(err, TS_ERR_NOMEM, "out of memory for a %dx%dx%d image", w, h, c);
  }
  *img = (ts_image){ .w = w, .h = h, .c = c, .data = data };
  *out = img;
  return TS_OK;
}

void ts_image_destroy(ts_image *img)
{
  if (!img || atomic_fetch_sub(&img->shares, 1) > 0)
    return;
  ts_alloc_free(img->data);
  free(img);
}

ts_image *ts_image_share(const ts_image *img)
{
  ts_image *owned = (ts_image *)img; /* only its count of owners changes */
  atomic_fetch_add(&owned->shares, 1);
  return owned;
}

ts_status ts_image_clone(const ts_image *src, ts_image **out, ts_error *err)
{
  ts_image *img = NULL;
  ts_status st = ts_image_create(src->w, src->h, src->c, &img, err);
  if (st != TS_OK)
    return st;
  memcpy(img->data, src->data, (size_t)src->w * src->h * src->c);
  *out = img;
  return TS_OK;
}

ts_status ts_image_convert(const ts_image *src, int c, ts_image **out, ts_error *err)
{
  ts_image *img = NULL;
  ts_status st = ts_image_create(src->w, src->h, c, &img, err);
  if (st != TS_OK)
    return st;
  size_t n = (size_t)src->w * src->h;
  for (size_t i = 0; i < n; i++) {
    const uint8_t *s = src->data + i * src->c;
    uint8_t *d = img->data + i * c;
    uint8_t rgba[4];
    if (src->c == 1) {
      rgba[0] = rgba[1] = rgba[2] = s[0];
      rgba[3] = 255;
    } else {
      memcpy(rgba, s, 3);
      rgba[3] = src->c == 4 ? s[3] : 255;
    }
    if (c == 1)
      d[0] = src->c == 1 ? s[0] : ts_luma(rgba[0], rgba[1], rgba[2]);
    else
      memcpy(d, rgba, (size_t)c);
  }
  *out = img;
  return TS_OK;
}
