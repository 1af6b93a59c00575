/* A PNG's samples as they are stored, 8 or 16 bits (ts_image.h's ts_png_load_samples): the
 * reference of a kernel whose output is wider than 8 bits, compared value for value. The
 * 8-bit loader (ts_png.c) scales 16-bit files to 8 bits, which is right for images and
 * wrong for sums. */
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_file.h"
#include "ts_image.h"

typedef struct src {
  const uint8_t *data;
  size_t len, at;
  char msg[128]; /* libpng's error */
} src;

static void read_fn(png_structp png, png_bytep out, png_size_t n)
{
  src *s = png_get_io_ptr(png);
  if (n > s->len - s->at)
    png_error(png, "file is truncated");
  memcpy(out, s->data + s->at, n);
  s->at += n;
}

/* libpng's error: kept for the message, then back to setjmp (a handler that returned would
 * have libpng print it and jump itself). */
static void on_error(png_structp png, png_const_charp msg)
{
  src *s = png_get_error_ptr(png);
  snprintf(s->msg, sizeof s->msg, "%s", msg);
  png_longjmp(png, 1);
}

static void quiet(png_structp png, png_const_charp msg)
{
  (void)png;
  (void)msg;
}

ts_status ts_png_load_samples(const char *path, int *w, int *h, int *c, int *depth,
                              uint16_t **samples, ts_error *err)
{
  uint8_t *data = NULL;
  size_t len = 0;
  ts_status st = ts_file_read_all(path, (size_t)1 << 30, &data, &len, err);
  if (st != TS_OK)
    return st;
  if (len < 8 || png_sig_cmp(data, 0, 8) != 0) {
    free(data);
    return ts_fail(err, TS_ERR_FORMAT, "'%s' is not a PNG file", path);
  }
  src s = { data, len, 0, "" };
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &s, on_error, quiet);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  uint16_t *volatile out = NULL;
  if (!info) {
    png_destroy_read_struct(&png, NULL, NULL);
    free(data);
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, NULL);
    free(data);
    free(out);
    return ts_fail(err, TS_ERR_FORMAT, "'%s' is a corrupt PNG: %s", path,
                   s.msg[0] ? s.msg : "unreadable");
  }
  png_set_user_limits(png, TS_IMAGE_MAX_DIM, TS_IMAGE_MAX_DIM);
  png_set_read_fn(png, &s, read_fn);
  png_read_png(png, info, PNG_TRANSFORM_EXPAND, NULL); /* palettes and low depths to 8 bits */
  png_uint_32 pw = png_get_image_width(png, info), ph = png_get_image_height(png, info);
  int d = png_get_bit_depth(png, info), ch = png_get_channels(png, info);
  size_t n = (size_t)pw * ph * (size_t)ch;
  out = malloc(n * sizeof *out + 1);
  png_bytepp rows = png_get_rows(png, info);
  for (png_uint_32 y = 0; out && y < ph; y++)
    for (size_t i = 0; i < (size_t)pw * (size_t)ch; i++)
      out[(size_t)y * pw * (size_t)ch + i] =
          d == 16 ? (uint16_t)(rows[y][2 * i] << 8 | rows[y][2 * i + 1]) : rows[y][i];
  png_destroy_read_struct(&png, &info, NULL);
  free(data);
  if (!out)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  *w = (int)pw;
  *h = (int)ph;
  *c = ch;
  *depth = d;
  *samples = out;
  return TS_OK;
}
