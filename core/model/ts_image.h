/* 8-bit images with 1, 3 or 4 interleaved channels, and their PNG input/output.
 * Every PNG colour type and bit depth loads (palette, grey+alpha, 16-bit, interlaced are
 * converted to 8-bit grey, RGB or RGBA). Hostile files are bounded: dimensions, pixel
 * count and file size are capped and every size multiplication is checked. */
#ifndef TS_IMAGE_H
#define TS_IMAGE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ts_status.h"

#define TS_IMAGE_MAX_DIM 32768
#define TS_IMAGE_MAX_PIXELS ((size_t)1 << 27) /* 134 Mpixel: 16K x 8K */
#define TS_PNG_MAX_FILE_BYTES ((size_t)1 << 30)

typedef struct ts_image {
  int w, h, c;    /* c in {1, 3, 4} */
  uint8_t *data;  /* h rows of w * c bytes, no padding */
  atomic_int shares; /* owners besides the first (ts_image_share); 0 for most images */
} ts_image;

/* Checks w, h, c against the caps and returns the byte size in *bytes. */
ts_status ts_image_check_size(int w, int h, int c, size_t *bytes, ts_error *err);
/* A zero-filled image. */
ts_status ts_image_create(int w, int h, int c, ts_image **out, ts_error *err);
/* Drops one owner; the last one frees the image. */
void ts_image_destroy(ts_image *img);
/* One more owner of img, for another thread or object that only reads it: an image is never
 * written after it is made, so a shared one needs no copy. Returns img; the count of owners
 * is bookkeeping, not content, so a const image can be shared. */
ts_image *ts_image_share(const ts_image *img);
ts_status ts_image_clone(const ts_image *src, ts_image **out, ts_error *err);
/* Converts to c channels (grey <-> RGB by replication / luma, alpha added opaque or dropped). */
ts_status ts_image_convert(const ts_image *src, int c, ts_image **out, ts_error *err);

/* Y = (77 R + 150 G + 29 B + 128) >> 8, the integral image's luma; grey passes through. */
static inline uint8_t ts_luma(uint8_t r, uint8_t g, uint8_t b)
{
  return (uint8_t)((77u * r + 150u * g + 29u * b + 128u) >> 8);
}

ts_status ts_image_load_png(const char *path, ts_image **out, ts_error *err);
/* `name` is used only in error messages. */
ts_status ts_image_decode_png(const uint8_t *data, size_t len, const char *name, ts_image **out,
                              ts_error *err);
ts_status ts_image_save_png(const char *path, const ts_image *img, ts_error *err);
/* A PNG's samples as stored (8 or 16 bits, palettes expanded), for comparing values wider
 * than a byte (ts_png16.c); *samples is malloc'ed, C order. */
ts_status ts_png_load_samples(const char *path, int *w, int *h, int *c, int *depth,
                              uint16_t **samples, ts_error *err);
/* A 16-bit PNG of c channels (1, 3 or 4) from native-endian samples. */
ts_status ts_png_save16(const char *path, int w, int h, int c, const uint16_t *samples,
                        ts_error *err);
/* The same into an open output (ts_file.h) that the caller commits, with others that must
 * appear together (ts_outfile_commit_all) or alone. */
struct ts_outfile;
ts_status ts_image_write_png(struct ts_outfile *o, const ts_image *img, ts_error *err);
ts_status ts_png_write16(struct ts_outfile *o, int w, int h, int c, const uint16_t *samples,
                         ts_error *err);
/* An 8-bit PNG of c channels (1, 3 or 4) in memory, for what embeds its images (a page):
 * *png is malloc'd, *len bytes. */
ts_status ts_png_encode(int w, int h, int c, const uint8_t *pixels, uint8_t **png, size_t *len,
                        ts_error *err);

#endif
