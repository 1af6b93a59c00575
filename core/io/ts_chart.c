/* Test chart drawing (see ts_chart.h), with a small 5x7 bitmap font for the text. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ts_chart.h"

#define PI 3.14159265358979323846

/* 5x7 glyphs, one string of 7 rows per character, '#' = ink. */
static const struct {
  char ch;
  const char *rows[7];
} font[] = {
  { 'A', { " ### ", "#   #", "#   #", "#####", "#   #", "#   #", "#   #" } },
  { 'B', { "#### ", "#   #", "#   #", "#### ", "#   #", "#   #", "#### " } },
  { 'C', { " ### ", "#   #", "#    ", "#    ", "#    ", "#   #", " ### " } },
  { 'D', { "#### ", "#   #", "#   #", "#   #", "#   #", "#   #", "#### " } },
  { 'E', { "#####", "#    ", "#    ", "#### ", "#    ", "#    ", "#####" } },
  { 'F', { "#####", "#    ", "#    ", "#### ", "#    ", "#    ", "#    " } },
  { 'G', { " ### ", "#   #", "#    ", "# ###", "#   #", "#   #", " ####" } },
  { 'H', { "#   #", "#   #", "#   #", "#####", "#   #", "#   #", "#   #" } },
  { 'I', { " ### ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### " } },
  { 'J', { "  ###", "   # ", "   # ", "   # ", "   # ", "#  # ", " ##  " } },
  { 'K', { "#   #", "#  # ", "# #  ", "##   ", "# #  ", "#  # ", "#   #" } },
  { 'L', { "#    ", "#    ", "#    ", "#    ", "#    ", "#    ", "#####" } },
  { 'M', { "#   #", "## ##", "# # #", "# # #", "#   #", "#   #", "#   #" } },
  { 'N', { "#   #", "##  #", "# # #", "#  ##", "#   #", "#   #", "#   #" } },
  { 'O', { " ### ", "#   #", "#   #", "#   #", "#   #", "#   #", " ### " } },
  { 'P', { "#### ", "#   #", "#   #", "#### ", "#    ", "#    ", "#    " } },
  { 'Q', { " ### ", "#   #", "#   #", "#   #", "# # #", "#  # ", " ## #" } },
  { 'R', { "#### ", "#   #", "#   #", "#### ", "# #  ", "#  # ", "#   #" } },
  { 'S', { " ####", "#    ", "#    ", " ### ", "    #", "    #", "#### " } },
  { 'T', { "#####", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  " } },
  { 'U', { "#   #", "#   #", "#   #", "#   #", "#   #", "#   #", " ### " } },
  { 'V', { "#   #", "#   #", "#   #", "#   #", "#   #", " # # ", "  #  " } },
  { 'W', { "#   #", "#   #", "#   #", "# # #", "# # #", "## ##", "#   #" } },
  { 'X', { "#   #", "#   #", " # # ", "  #  ", " # # ", "#   #", "#   #" } },
  { 'Y', { "#   #", "#   #", " # # ", "  #  ", "  #  ", "  #  ", "  #  " } },
  { 'Z', { "#####", "    #", "   # ", "  #  ", " #   ", "#    ", "#####" } },
  { '0', { " ### ", "#   #", "#  ##", "# # #", "##  #", "#   #", " ### " } },
  { '1', { "  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### " } },
  { '2', { " ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####" } },
  { '3', { "#####", "   # ", "  #  ", "   # ", "    #", "#   #", " ### " } },
  { '4', { "   # ", "  ## ", " # # ", "#  # ", "#####", "   # ", "   # " } },
  { '5', { "#####", "#    ", "#### ", "    #", "    #", "#   #", " ### " } },
  { '6', { "  ## ", " #   ", "#    ", "#### ", "#   #", "#   #", " ### " } },
  { '7', { "#####", "    #", "   # ", "  #  ", " #   ", " #   ", " #   " } },
  { '8', { " ### ", "#   #", "#   #", " ### ", "#   #", "#   #", " ### " } },
  { '9', { " ### ", "#   #", "#   #", " ####", "    #", "   # ", " ##  " } },
  { 'x', { "     ", "     ", "#   #", " # # ", "  #  ", " # # ", "#   #" } },
  { '-', { "     ", "     ", "     ", "#####", "     ", "     ", "     " } },
};

static void put(ts_image *im, int x, int y, uint8_t r, uint8_t g, uint8_t b)
{
  if (x < 0 || y < 0 || x >= im->w || y >= im->h)
    return;
  uint8_t *p = im->data + ((size_t)y * im->w + x) * 3;
  p[0] = r;
  p[1] = g;
  p[2] = b;
}

static void fill(ts_image *im, int x0, int y0, int w, int h, uint8_t r, uint8_t g, uint8_t b)
{
  for (int y = y0; y < y0 + h; y++)
    for (int x = x0; x < x0 + w; x++)
      put(im, x, y, r, g, b);
}

/* Draws text at (x, y) with glyph pixels of `scale` x `scale`; returns the width drawn. */
static int text(ts_image *im, int x, int y, int scale, const char *s, uint8_t v)
{
  int x0 = x;
  for (; *s; s++, x += 6 * scale) {
    for (size_t g = 0; g < sizeof font / sizeof font[0]; g++) {
      if (font[g].ch != *s)
        continue;
      for (int j = 0; j < 7; j++)
        for (int i = 0; i < 5; i++)
          if (font[g].rows[j][i] == '#')
            fill(im, x + i * scale, y + j * scale, scale, scale, v, v, v);
    }
  }
  return x - x0;
}

/* Hue in [0, 1) to a saturated RGB colour. */
static void hue_rgb(double h, uint8_t *rgb)
{
  double k[3] = { 5.0, 3.0, 1.0 };
  for (int i = 0; i < 3; i++) {
    double t = fmod(k[i] + h * 6.0, 6.0);
    double m = fmin(fmin(t, 4.0 - t), 1.0);
    rgb[i] = (uint8_t)lround(255.0 * (1.0 - fmax(m, 0.0)));
  }
}

ts_status ts_chart_render(int w, int h, ts_image **out, ts_error *err)
{
  if (w < 64 || h < 64)
    return ts_fail(err, TS_ERR_ARG, "chart size %dx%d: at least 64x64", w, h);
  ts_image *im;
  ts_status st = ts_image_create(w, h, 3, &im, err);
  if (st != TS_OK)
    return st;
  fill(im, 0, 0, w, h, 96, 96, 96);

  /* Top band: a grey ramp over the left half, hues over the right half. */
  int band = h / 8;
  for (int x = 0; x < w; x++) {
    uint8_t rgb[3];
    if (x < w / 2) {
      uint8_t v = (uint8_t)(x * 255 / (w / 2 - 1));
      rgb[0] = rgb[1] = rgb[2] = v;
    } else {
      hue_rgb((double)(x - w / 2) / (double)(w - w / 2), rgb);
    }
    for (int y = 0; y < band; y++) {
      /* fade the hues to white downwards so saturation varies too */
      double f = (double)y / band;
      put(im, x, y, (uint8_t)(rgb[0] + (255 - rgb[0]) * f * 0.6),
          (uint8_t)(rgb[1] + (255 - rgb[1]) * f * 0.6), (uint8_t)(rgb[2] + (255 - rgb[2]) * f * 0.6));
    }
  }

  /* Zone plate: cos(pi r^2 / 2R) reaches Nyquist (0.5 cycles per pixel) at radius R. */
  int zr = (h - band) * 3 / 8;
  int zcx = zr + 8, zcy = band + 8 + zr;
  for (int y = zcy - zr; y < zcy + zr; y++)
    for (int x = zcx - zr; x < zcx + zr; x++) {
      double dx = x - zcx + 0.5, dy = y - zcy + 0.5, r2 = dx * dx + dy * dy;
      if (r2 > (double)zr * zr)
        continue;
      uint8_t v = (uint8_t)lround(127.5 + 127.5 * cos(PI * r2 / (2.0 * zr)));
      put(im, x, y, v, v, v);
    }

  /* Siemens star: 36 spokes, sharp-edged. */
  int sr = zr * 2 / 3, scx = zcx + zr + 16 + sr, scy = band + 8 + sr;
  for (int y = scy - sr; y < scy + sr; y++)
    for (int x = scx - sr; x < scx + sr; x++) {
      double dx = x - scx + 0.5, dy = y - scy + 0.5;
      if (dx * dx + dy * dy > (double)sr * sr)
        continue;
      int spoke = (int)floor((atan2(dy, dx) + PI) / (2.0 * PI) * 36.0);
      uint8_t v = spoke % 2 ? 240 : 16;
      put(im, x, y, v, v, v);
    }

  /* Checkerboard of 8-pixel squares in two colours, then lines of width 1, 2 and 3. */
  int cx0 = scx + sr + 16, cy0 = band + 8, cw = w - cx0 - 8, ch = sr * 2;
  for (int y = 0; y < ch; y++)
    for (int x = 0; x < cw; x++) {
      int on = ((x / 8) + (y / 8)) % 2;
      put(im, cx0 + x, cy0 + y, on ? 230 : 20, on ? 200 : 40, on ? 40 : 160);
    }
  int ly = scy + sr + 12;
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < 6; k++)
      fill(im, zcx + zr + 16 + k * (2 * (i + 1) + 3), ly + i * 24, i + 1, 20, 250, 250, 250);

  /* Colour patches: primaries, secondaries, black and white. */
  static const uint8_t patch[8][3] = { { 255, 0, 0 }, { 0, 255, 0 }, { 0, 0, 255 },
                                       { 0, 255, 255 }, { 255, 0, 255 }, { 255, 255, 0 },
                                       { 0, 0, 0 }, { 255, 255, 255 } };
  int px0 = zcx + zr + 16 + 60, pw = (w - px0 - 8) / 8;
  for (int i = 0; i < 8 && pw > 0; i++)
    fill(im, px0 + i * pw, ly, pw - 2, 64, patch[i][0], patch[i][1], patch[i][2]);

  /* Text, dark on light and light on dark, at three sizes. */
  int ty = zcy + zr + 8;
  fill(im, 0, ty - 4, w, h - ty + 4, 236, 236, 228);
  text(im, 8, ty, 2, "TILESCOPE TEST CHART", 20);
  text(im, 8, ty + 20, 1, "THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG 0123456789", 20);
  fill(im, 0, ty + 32, w, h - ty - 32, 24, 24, 32);
  char dims[32];
  snprintf(dims, sizeof dims, "%dx%d", w, h);
  text(im, 8, ty + 38, 1, "BOX GAUSS INTEGRAL WAVEFRONT 2X2 3X3 5X5", 230);
  text(im, w - 8 - 6 * (int)strlen(dims), ty + 38, 1, dims, 230);
  *out = im;
  return TS_OK;
}
