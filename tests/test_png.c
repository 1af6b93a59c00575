/* PNG input/output: every colour type and bit depth (palette, grey+alpha, 16-bit,
 * interlaced, tRNS) decodes to the expected 8-bit pixels; 8- and 16-bit saves round-trip;
 * truncated, corrupt and oversized files fail cleanly with the right status. */
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check.h"
#include "ts_image.h"

typedef struct membuf {
  uint8_t *data;
  size_t len, cap;
} membuf;

static void mem_write(png_structp png, png_bytep d, size_t n)
{
  membuf *m = png_get_io_ptr(png);
  if (m->len + n > m->cap) {
    m->cap = (m->len + n) * 2;
    m->data = realloc(m->data, m->cap);
  }
  memcpy(m->data + m->len, d, n);
  m->len += n;
}

static void mem_flush(png_structp png)
{
  (void)png;
}

/* Encodes w x h samples (already packed per libpng's row format) with libpng itself. */
static membuf encode(int w, int h, int type, int depth, int interlace, const uint8_t *rows,
                     size_t row_bytes, int trns, int npal)
{
  membuf m = { 0 };
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) {
    CHECK(0, "libpng failed to encode the test image");
    png_destroy_write_struct(&png, &info);
    return m;
  }
  png_set_write_fn(png, &m, mem_write, mem_flush);
  png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, depth, type,
               interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  if (type == PNG_COLOR_TYPE_PALETTE) {
    png_color pal[256];
    png_byte alpha[256];
    for (int i = 0; i < npal; i++) {
      pal[i] = (png_color){ (png_byte)(i * 3), (png_byte)(255 - i), (png_byte)(i * 7) };
      alpha[i] = (png_byte)(255 - i * 2);
    }
    png_set_PLTE(png, info, pal, npal);
    if (trns)
      png_set_tRNS(png, info, alpha, npal, NULL);
  } else if (trns) {
    png_color_16 key = { .gray = 1, .red = 1, .green = 2, .blue = 3 };
    png_set_tRNS(png, info, NULL, 0, &key);
  }
  png_write_info(png, info);
  png_bytep *rp = malloc(sizeof *rp * (size_t)h);
  for (int y = 0; y < h; y++)
    rp[y] = (png_bytep)rows + (size_t)y * row_bytes;
  png_write_image(png, rp);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  free(rp);
  return m;
}

/* Sample s (in 0 .. 2^depth - 1) of a synthetic image. */
static unsigned sample(int x, int y, int ch, int depth)
{
  unsigned maxv = (1u << depth) - 1;
  return (unsigned)(x * 37 + y * 11 + ch * 101) % (maxv + 1);
}

static uint8_t to8(unsigned v, int depth)
{
  if (depth == 16)
    return (uint8_t)((v * 255u + 32895u) >> 16);
  return (uint8_t)(v * 255u / ((1u << depth) - 1));
}

static void color_types(void)
{
  static const struct { int type, depth, channels, trns, want_c; } cases[] = {
    { PNG_COLOR_TYPE_GRAY, 1, 1, 0, 1 },       { PNG_COLOR_TYPE_GRAY, 2, 1, 0, 1 },
    { PNG_COLOR_TYPE_GRAY, 4, 1, 0, 1 },       { PNG_COLOR_TYPE_GRAY, 8, 1, 0, 1 },
    { PNG_COLOR_TYPE_GRAY, 16, 1, 0, 1 },      { PNG_COLOR_TYPE_GRAY, 8, 1, 1, 4 },
    { PNG_COLOR_TYPE_GRAY_ALPHA, 8, 2, 0, 4 }, { PNG_COLOR_TYPE_GRAY_ALPHA, 16, 2, 0, 4 },
    { PNG_COLOR_TYPE_RGB, 8, 3, 0, 3 },        { PNG_COLOR_TYPE_RGB, 16, 3, 0, 3 },
    { PNG_COLOR_TYPE_RGB, 8, 3, 1, 4 },        { PNG_COLOR_TYPE_RGB_ALPHA, 8, 4, 0, 4 },
    { PNG_COLOR_TYPE_RGB_ALPHA, 16, 4, 0, 4 }, { PNG_COLOR_TYPE_PALETTE, 1, 1, 0, 3 },
    { PNG_COLOR_TYPE_PALETTE, 2, 1, 0, 3 },    { PNG_COLOR_TYPE_PALETTE, 4, 1, 0, 3 },
    { PNG_COLOR_TYPE_PALETTE, 8, 1, 0, 3 },    { PNG_COLOR_TYPE_PALETTE, 8, 1, 1, 4 },
  };
  const int w = 13, h = 7;
  for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++)
    for (int interlace = 0; interlace < 2; interlace++) {
      int type = cases[ci].type, depth = cases[ci].depth, nch = cases[ci].channels;
      int npal = type == PNG_COLOR_TYPE_PALETTE ? 1 << depth : 0;
      size_t row_bytes = ((size_t)w * nch * depth + 7) / 8;
      uint8_t *rows = calloc(row_bytes * h, 1);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          for (int c = 0; c < nch; c++) {
            unsigned v = sample(x, y, c, depth);
            uint8_t *row = rows + (size_t)y * row_bytes;
            size_t bit = ((size_t)x * nch + c) * depth;
            if (depth == 16) {
              row[bit / 8] = (uint8_t)(v >> 8);
              row[bit / 8 + 1] = (uint8_t)v;
            } else {
              row[bit / 8] |= (uint8_t)(v << (8 - depth - bit % 8));
            }
          }
      membuf m = encode(w, h, type, depth, interlace, rows, row_bytes, cases[ci].trns, npal);
      ts_image *im = NULL;
      ts_error err = { 0 };
      CHECK(ts_image_decode_png(m.data, m.len, "mem", &im, &err) == TS_OK, "type %d depth %d: %s",
            type, depth, err.msg);
      if (im) {
        CHECK(im->w == w && im->h == h && im->c == cases[ci].want_c,
              "type %d depth %d: got %dx%dx%d", type, depth, im->w, im->h, im->c);
        int bad = 0;
        for (int y = 0; y < h && !bad && im->c == cases[ci].want_c; y++)
          for (int x = 0; x < w && !bad; x++) {
            uint8_t want[4];
            if (type == PNG_COLOR_TYPE_PALETTE) {
              unsigned i = sample(x, y, 0, depth);
              want[0] = (uint8_t)(i * 3);
              want[1] = (uint8_t)(255 - i);
              want[2] = (uint8_t)(i * 7);
              want[3] = (uint8_t)(255 - i * 2);
            } else if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) {
              unsigned g = sample(x, y, 0, depth);
              want[0] = want[1] = want[2] = to8(g, depth);
              want[3] = nch == 2 ? to8(sample(x, y, 1, depth), depth)
                                 : (cases[ci].trns && g == 1 ? 0 : 255);
            } else {
              for (int c = 0; c < 3; c++)
                want[c] = to8(sample(x, y, c, depth), depth);
              int key = sample(x, y, 0, depth) == 1 && sample(x, y, 1, depth) == 2 &&
                        sample(x, y, 2, depth) == 3;
              want[3] = nch == 4 ? to8(sample(x, y, 3, depth), depth)
                                 : (cases[ci].trns && key ? 0 : 255);
            }
            const uint8_t *p = im->data + ((size_t)y * w + x) * im->c;
            for (int c = 0; c < im->c; c++)
              if (p[c] != want[c]) {
                CHECK(0, "type %d depth %d interlace %d: (%d,%d) channel %d is %d, want %d", type,
                      depth, interlace, x, y, c, p[c], want[c]);
                bad = 1;
                break;
              }
          }
      }
      /* Every truncation of a valid file fails cleanly. */
      for (size_t cut = 0; cut < m.len; cut += 1 + cut / 8) {
        ts_image *t = NULL;
        ts_status st = ts_image_decode_png(m.data, cut, "cut", &t, &err);
        CHECK(st == TS_ERR_FORMAT && t == NULL, "truncated at %zu of %zu: status %d", cut, m.len,
              st);
        ts_image_destroy(t);
      }
      ts_image_destroy(im);
      free(m.data);
      free(rows);
    }
}

/* A PNG whose IHDR claims w x h; the CRC is right, so only the size can stop it. */
static membuf huge_header(uint32_t w, uint32_t h)
{
  uint8_t one[4] = { 0 };
  membuf m = encode(1, 1, PNG_COLOR_TYPE_GRAY, 8, 0, one, 1, 0, 0);
  uint8_t *ihdr = m.data + 8; /* length(4) "IHDR"(4) data(13) crc(4) */
  for (int i = 0; i < 4; i++) {
    ihdr[8 + i] = (uint8_t)(w >> (24 - 8 * i));
    ihdr[12 + i] = (uint8_t)(h >> (24 - 8 * i));
  }
  uint32_t crc = (uint32_t)crc32(0, ihdr + 4, 17);
  for (int i = 0; i < 4; i++)
    ihdr[21 + i] = (uint8_t)(crc >> (24 - 8 * i));
  return m;
}

static void hostile(void)
{
  ts_error err = { 0 };
  ts_image *im = NULL;
  membuf m = huge_header(30000, 30000);
  CHECK(ts_image_decode_png(m.data, m.len, "huge", &im, &err) == TS_ERR_TOO_LARGE && !im,
        "30000x30000 header: %s", err.msg);
  CHECK(strstr(err.msg, "over the limit") != NULL, "message: %s", err.msg);
  free(m.data);
  m = huge_header(2000000, 4);
  CHECK(ts_image_decode_png(m.data, m.len, "wide", &im, &err) != TS_OK && !im, "2e6 wide");
  free(m.data);
  const uint8_t junk[] = "this is not a png file at all";
  CHECK(ts_image_decode_png(junk, sizeof junk, "junk", &im, &err) == TS_ERR_FORMAT,
        "junk accepted");
  CHECK(strstr(err.msg, "not a PNG") != NULL, "message: %s", err.msg);
  /* A flipped byte in the image data: a CRC or zlib error, never a crash. */
  uint8_t rows[64 * 3 * 8];
  for (size_t i = 0; i < sizeof rows; i++)
    rows[i] = (uint8_t)(i * 13);
  m = encode(64, 8, PNG_COLOR_TYPE_RGB, 8, 0, rows, 64 * 3, 0, 0);
  for (size_t pos = 33; pos < m.len; pos += 7) {
    m.data[pos] ^= 0x5a;
    ts_image *t = NULL;
    ts_status st = ts_image_decode_png(m.data, m.len, "flipped", &t, &err);
    CHECK(st == TS_OK || (st == TS_ERR_FORMAT && !t), "flipped byte %zu: status %d", pos, st);
    ts_image_destroy(t);
    m.data[pos] ^= 0x5a;
  }
  free(m.data);
}

static void round_trips(const char *dir)
{
  char path[512];
  for (int c = 1; c <= 4; c++) {
    if (c == 2)
      continue;
    ts_image *im = NULL, *back = NULL;
    ts_image_create(31, 17, c, &im, NULL);
    for (size_t i = 0; i < (size_t)31 * 17 * c; i++)
      im->data[i] = (uint8_t)check_rand(256);
    snprintf(path, sizeof path, "%s/rt%d.png", dir, c);
    ts_error err = { 0 };
    CHECK(ts_image_save_png(path, im, &err) == TS_OK, "%s", err.msg);
    CHECK(ts_image_load_png(path, &back, &err) == TS_OK, "%s", err.msg);
    CHECK(back && back->c == c && memcmp(back->data, im->data, (size_t)31 * 17 * c) == 0,
          "%d-channel round trip", c);
    ts_image_destroy(im);
    ts_image_destroy(back);
  }
  /* 16-bit: each value v maps back to round(v * 255 / 65535) on load. */
  uint16_t px[4 * 3];
  for (int i = 0; i < 12; i++)
    px[i] = (uint16_t)(i * 5957);
  snprintf(path, sizeof path, "%s/rt16.png", dir);
  ts_image *back = NULL;
  CHECK(ts_png_save16(path, 4, 3, 1, px, NULL) == TS_OK, "16-bit save");
  CHECK(ts_image_load_png(path, &back, NULL) == TS_OK, "16-bit load");
  for (int i = 0; back && i < 12; i++)
    CHECK(back->data[i] == to8(px[i], 16), "16-bit sample %d: %d", i, back->data[i]);
  ts_image_destroy(back);
  /* An unwritable path fails and leaves nothing behind. */
  ts_error err = { 0 };
  ts_image *im = NULL;
  ts_image_create(2, 2, 1, &im, NULL);
  CHECK(ts_image_save_png("/nonexistent-dir/x.png", im, &err) == TS_ERR_IO, "bad path saved");
  CHECK(strstr(err.msg, "/nonexistent-dir/x.png") != NULL, "message: %s", err.msg);
  ts_image_destroy(im);
  CHECK(ts_image_load_png("/nonexistent-dir/x.png", &im, &err) == TS_ERR_IO, "missing file");
}

int main(int argc, char **argv)
{
  color_types();
  hostile();
  round_trips(argc > 1 ? argv[1] : ".");
  return check_exit("test_png");
}
