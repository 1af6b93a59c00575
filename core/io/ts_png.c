/* PNG decoding and encoding through libpng. libpng's setjmp error handling stays inside
 * this file; every error becomes a ts_error naming the file. */
#include <png.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_file.h"
#include "ts_image.h"

typedef struct png_ctx {
  const uint8_t *data;
  size_t len, pos;
  char msg[256];
} png_ctx;

static void on_error(png_structp png, png_const_charp msg)
{
  png_ctx *ctx = png_get_error_ptr(png);
  snprintf(ctx->msg, sizeof ctx->msg, "%s", msg);
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
  (void)png;
  (void)msg;
}

static void read_mem(png_structp png, png_bytep out, size_t n)
{
  png_ctx *ctx = png_get_io_ptr(png);
  if (n > ctx->len - ctx->pos)
    png_error(png, "file is truncated");
  memcpy(out, ctx->data + ctx->pos, n);
  ctx->pos += n;
}

/* img->data holds w * h palette indices: checks them, then expands them in place to RGB (or
 * RGBA with the tRNS chunk's alphas), from the last pixel back, so that no index is
 * overwritten before it is read. */
static ts_status expand_palette(png_structp png, png_infop info, ts_image *img,
                                const char *name, ts_error *err)
{
  png_colorp pal = NULL;
  int npal = 0, ntrans = 0;
  png_bytep alpha = NULL;
  png_get_PLTE(png, info, &pal, &npal);
  if (png_get_valid(png, info, PNG_INFO_tRNS))
    png_get_tRNS(png, info, &alpha, &ntrans, NULL);
  size_t n = (size_t)img->w * (size_t)img->h;
  for (size_t i = 0; i < n; i++)
    if (img->data[i] >= npal)
      return ts_fail(err, TS_ERR_FORMAT, "'%s' is a corrupt PNG: pixel (%zu,%zu) has palette "
                     "index %d, past its %d colour%s", name, i % (size_t)img->w,
                     i / (size_t)img->w, img->data[i], npal, npal == 1 ? "" : "s");
  for (size_t i = n; i-- > 0;) {
    int k = img->data[i];
    uint8_t *o = img->data + i * (size_t)img->c;
    if (img->c == 4)
      o[3] = k < ntrans ? alpha[k] : 255;
    o[0] = pal[k].red;
    o[1] = pal[k].green;
    o[2] = pal[k].blue;
  }
  return TS_OK;
}

ts_status ts_image_decode_png(const uint8_t *data, size_t len, const char *name, ts_image **out,
                              ts_error *err)
{
  if (len < 8 || png_sig_cmp(data, 0, 8) != 0)
    return ts_fail(err, TS_ERR_FORMAT, "'%s' is not a PNG file", name);
  png_ctx ctx = { .data = data, .len = len };
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!info) {
    png_destroy_read_struct(&png, NULL, NULL);
    return ts_fail(err, TS_ERR_NOMEM, "'%s': out of memory", name);
  }
  ts_image *volatile img = NULL;
  png_bytep *volatile rows = NULL;
  volatile ts_status st = TS_OK;
  ts_error sub = { 0 };
  if (setjmp(png_jmpbuf(png))) {
    if (st == TS_OK)
      st = ts_fail(err, TS_ERR_FORMAT, "'%s' is a corrupt PNG: %s", name, ctx.msg);
    goto done;
  }
  png_set_user_limits(png, 1u << 20, 1u << 20); /* a backstop; the caps below are ours */
  png_set_chunk_malloc_max(png, 64u << 20);
  png_set_read_fn(png, &ctx, read_mem);
  png_read_info(png, info);

  png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
  int type = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
  /* A palette image is read as indices, a byte each, and expanded below once every index is
   * known to be in the palette (libpng's expansion would make one past it black). */
  int indexed = type == PNG_COLOR_TYPE_PALETTE;
  if (indexed)
    png_set_packing(png);
  if (type == PNG_COLOR_TYPE_GRAY && depth < 8)
    png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, info, PNG_INFO_tRNS) && !indexed)
    png_set_tRNS_to_alpha(png);
  if (depth == 16)
    png_set_scale_16(png);
  if (type == PNG_COLOR_TYPE_GRAY_ALPHA ||
      (type == PNG_COLOR_TYPE_GRAY && png_get_valid(png, info, PNG_INFO_tRNS)))
    png_set_gray_to_rgb(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  int c = indexed ? (png_get_valid(png, info, PNG_INFO_tRNS) ? 4 : 3) : png_get_channels(png, info);
  if (c != 1 && c != 3 && c != 4) {
    st = ts_fail(err, TS_ERR_UNSUPPORTED, "'%s': %d channels after conversion", name, c);
    goto done;
  }
  size_t bytes;
  if (w > TS_IMAGE_MAX_DIM || h > TS_IMAGE_MAX_DIM ||
      ts_image_check_size((int)w, (int)h, c, &bytes, &sub) != TS_OK) {
    st = ts_fail(err, TS_ERR_TOO_LARGE, "'%s': %ux%u pixels is over the limit of %d per side and %zu in all",
                 name, (unsigned)w, (unsigned)h, TS_IMAGE_MAX_DIM, TS_IMAGE_MAX_PIXELS);
    goto done;
  }
  ts_image *tmp;
  ts_status cst = ts_image_create((int)w, (int)h, c, &tmp, err);
  if (cst != TS_OK) {
    st = cst;
    goto done;
  }
  img = tmp;
  rows = malloc(sizeof(png_bytep) * h);
  if (!rows) {
    st = ts_fail(err, TS_ERR_NOMEM, "'%s': out of memory", name);
    goto done;
  }
  for (png_uint_32 y = 0; y < h; y++)
    rows[y] = img->data + (size_t)y * w * (size_t)(indexed ? 1 : c);
  png_read_image(png, (png_bytepp)rows);
  png_read_end(png, NULL);
  if (indexed)
    st = expand_palette(png, info, img, name, err);

done:
  png_destroy_read_struct(&png, &info, NULL);
  free((void *)rows);
  if (st != TS_OK) {
    ts_image_destroy(img);
    return st;
  }
  *out = img;
  return TS_OK;
}

ts_status ts_image_load_png(const char *path, ts_image **out, ts_error *err)
{
  uint8_t *data;
  size_t len;
  ts_status st = ts_file_read_all(path, TS_PNG_MAX_FILE_BYTES, &data, &len, err);
  if (st != TS_OK)
    return st;
  st = ts_image_decode_png(data, len, path, out, err);
  free(data);
  return st;
}

/* Writes rows of w * c samples of `depth` bits to an open output; the caller commits it. */
static ts_status write_png(ts_outfile *of, int w, int h, int c, int depth, const void *pixels,
                           ts_error *err)
{
  static const int types[5] = { 0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA };
  if (w < 1 || h < 1 || c < 1 || c > 4)
    return ts_fail(err, TS_ERR_ARG, "'%s': bad image size %dx%dx%d", of->path, w, h, c);
  png_ctx ctx = { 0 };
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!info) {
    png_destroy_write_struct(&png, NULL);
    return ts_fail(err, TS_ERR_NOMEM, "'%s': out of memory", of->path);
  }
  if (setjmp(png_jmpbuf(png))) {
    /* libpng says "Write Error" for a short write; the stream's errno says why (ENOSPC). */
    int e = errno, io = ferror(of->f);
    png_destroy_write_struct(&png, &info);
    return ts_fail(err, TS_ERR_IO, "cannot write '%s': %s", of->path,
                   io && e ? strerror(e) : ctx.msg);
  }
  png_init_io(png, of->f);
  png_set_compression_level(png, 6);
  png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, depth, types[c], PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  if (depth == 16) {
    uint16_t probe = 1;
    if (*(const uint8_t *)&probe == 1)
      png_set_swap(png);
  }
  size_t row_bytes = (size_t)w * (size_t)c * (size_t)(depth / 8);
  for (int y = 0; y < h; y++)
    png_write_row(png, (png_const_bytep)pixels + (size_t)y * row_bytes);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return TS_OK;
}

ts_status ts_image_write_png(ts_outfile *o, const ts_image *img, ts_error *err)
{
  return write_png(o, img->w, img->h, img->c, 8, img->data, err);
}

ts_status ts_png_write16(ts_outfile *o, int w, int h, int c, const uint16_t *samples,
                         ts_error *err)
{
  return write_png(o, w, h, c, 16, samples, err);
}

ts_status ts_image_save_png(const char *path, const ts_image *img, ts_error *err)
{
  ts_outfile of;
  ts_status st = ts_outfile_open(&of, path, err);
  if (st == TS_OK && (st = ts_image_write_png(&of, img, err)) == TS_OK)
    return ts_outfile_commit(&of, err);
  ts_outfile_abort(&of);
  return st;
}

ts_status ts_png_save16(const char *path, int w, int h, int c, const uint16_t *samples,
                        ts_error *err)
{
  ts_outfile of;
  ts_status st = ts_outfile_open(&of, path, err);
  if (st == TS_OK && (st = ts_png_write16(&of, w, h, c, samples, err)) == TS_OK)
    return ts_outfile_commit(&of, err);
  ts_outfile_abort(&of);
  return st;
}

/* ---- encoding into memory (a page that embeds its images) ---- */

typedef struct png_sink {
  uint8_t *data;
  size_t len, cap;
  int nomem;
} png_sink;

static void write_mem(png_structp png, png_bytep in, size_t n)
{
  png_sink *s = png_get_io_ptr(png);
  if (n > s->cap - s->len) {
    size_t cap = s->cap ? s->cap : 4096;
    while (cap - s->len < n) {
      if (cap > SIZE_MAX / 2) {
        s->nomem = 1;
        png_error(png, "out of memory");
      }
      cap *= 2;
    }
    uint8_t *d = realloc(s->data, cap);
    if (!d) {
      s->nomem = 1;
      png_error(png, "out of memory");
    }
    s->data = d;
    s->cap = cap;
  }
  memcpy(s->data + s->len, in, n);
  s->len += n;
}

static void flush_mem(png_structp png)
{
  (void)png;
}

ts_status ts_png_encode(int w, int h, int c, const uint8_t *pixels, uint8_t **png_out,
                        size_t *len, ts_error *err)
{
  static const int types[5] = { 0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA };
  size_t bytes;
  ts_status st = ts_image_check_size(w, h, c, &bytes, err);
  if (st != TS_OK)
    return st;
  png_ctx ctx = { 0 };
  /* On the heap: what libpng's callbacks change must survive its longjmp. */
  png_sink *sink = calloc(1, sizeof *sink);
  png_structp png = sink ? png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error,
                                                   on_warning) : NULL;
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!info) {
    png_destroy_write_struct(&png, NULL);
    free(sink);
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    st = ts_fail(err, sink->nomem ? TS_ERR_NOMEM : TS_ERR_IO, "PNG encoding: %s", ctx.msg);
    free(sink->data);
    free(sink);
    return st;
  }
  png_set_write_fn(png, sink, write_mem, flush_mem);
  png_set_compression_level(png, 9);
  png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, types[c], PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  size_t row_bytes = (size_t)w * (size_t)c;
  for (int y = 0; y < h; y++)
    png_write_row(png, pixels + (size_t)y * row_bytes);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  *png_out = sink->data;
  *len = sink->len;
  free(sink);
  return TS_OK;
}
