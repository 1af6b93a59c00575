/* Animated GIFs through giflib (see anim.h). The palette is one for the whole animation, so a
 * colour never flickers between frames; it is a median cut that splits the box of colours
 * with the largest squared error first, so that the few saturated colours of the overlay
 * (hazard red, the ramp) keep entries of their own beside the image's many greys. Each entry
 * is the exact mean of the pixels it stands for. Everything is integer or a fixed sequence
 * of double operations: the same frames give the same file. Captions are drawn once each, at
 * the end, into the strip that every frame then gets under it. */
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#include <errno.h>
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim.h"
#include "ts_file.h"

enum { NBINS = 1 << 15, TRANSPARENT = 255, MAX_COLOURS = 255, CAPTION_BYTES = 320 };
/* The kept frames' memory, at two bytes a pixel. */
#define ANIM_MAX_BYTES ((size_t)1 << 30)

struct anim {
  int sw, sh, w, h;
  int n, cap;
  uint16_t **frame;   /* per frame, per pixel: the colour's 5-5-5 bin */
  int *delay;
  int *caption;       /* per frame: its caption's index in text, or -1 */
  char **text;        /* the captions, each once */
  int ntext, cur;     /* cur: the caption of frames added from now on, or -1 */
  int strip;          /* rows of the caption strip once added (anim_write) */
  int hold;           /* anim_hold: frames are not kept */
  uint64_t count[NBINS], sum[NBINS][3];
};

int anim_fits(int out_w, int out_h, long long nframes, char *err, size_t n)
{
  size_t px = (size_t)out_w * (size_t)out_h;
  long long most = px ? (long long)(ANIM_MAX_BYTES / (px * 2)) : 0;
  if (nframes <= most)
    return 1;
  snprintf(err, n, "more than %lld frames of %dx%d do not fit in the %zu MiB an animation may "
           "take: fewer frames, or a smaller --scale", most, out_w, out_h, ANIM_MAX_BYTES >> 20);
  return 0;
}

anim *anim_create(int src_w, int src_h, int out_w, int out_h)
{
  if (src_w < 1 || src_h < 1 || out_w < 1 || out_h < 1 || out_w > src_w || out_h > src_h ||
      out_w > 65535 || out_h > 65535)
    return NULL;
  anim *a = calloc(1, sizeof *a);
  if (a) {
    a->sw = src_w;
    a->sh = src_h;
    a->w = out_w;
    a->h = out_h;
    a->cur = -1;
  }
  return a;
}

void anim_destroy(anim *a)
{
  if (!a)
    return;
  for (int i = 0; i < a->n; i++)
    free(a->frame[i]);
  free(a->frame);
  free(a->delay);
  free(a->caption);
  for (int i = 0; i < a->ntext; i++)
    free(a->text[i]);
  free(a->text);
  free(a);
}

int anim_frames(const anim *a)
{
  return a->n;
}

int anim_caption(anim *a, const char *text)
{
  if (!text || !*text) {
    a->cur = -1;
    return 1;
  }
  for (int i = 0; i < a->ntext; i++)
    if (strcmp(a->text[i], text) == 0) {
      a->cur = i;
      return 1;
    }
  char **t = realloc(a->text, (size_t)(a->ntext + 1) * sizeof *t), *copy = malloc(strlen(text) + 1);
  if (t)
    a->text = t;
  if (!t || !copy) {
    free(copy);
    return 0;
  }
  strcpy(copy, text);
  a->text[a->ntext] = copy;
  a->cur = a->ntext++;
  return 1;
}

void anim_hold(anim *a, int hold)
{
  a->hold = hold;
}

int anim_add(anim *a, const uint8_t *rgb, int delay_cs, char *err, size_t n)
{
  size_t px = (size_t)a->w * a->h;
  if (a->hold)
    return 1;
  if (!anim_fits(a->w, a->h, a->n + 1, err, n))
    return 0;
  if (a->n == a->cap) {
    int cap = a->cap ? 2 * a->cap : 16;
    uint16_t **f = realloc(a->frame, (size_t)cap * sizeof *f);
    if (f)
      a->frame = f;
    int *d = f ? realloc(a->delay, (size_t)cap * sizeof *d) : NULL;
    if (d)
      a->delay = d;
    int *c = d ? realloc(a->caption, (size_t)cap * sizeof *c) : NULL;
    if (!c) {
      snprintf(err, n, "out of memory for the animation's frames");
      return 0;
    }
    a->caption = c;
    a->cap = cap;
  }
  uint16_t *f = malloc(px * sizeof *f);
  if (!f) {
    snprintf(err, n, "out of memory for the animation's frames");
    return 0;
  }
  /* Each output pixel is the mean of the source pixels it covers (whole pixels). */
  for (int y = 0; y < a->h; y++) {
    int y0 = (int)((int64_t)y * a->sh / a->h), y1 = (int)((int64_t)(y + 1) * a->sh / a->h);
    for (int x = 0; x < a->w; x++) {
      int x0 = (int)((int64_t)x * a->sw / a->w), x1 = (int)((int64_t)(x + 1) * a->sw / a->w);
      uint32_t s[3] = { 0, 0, 0 }, area = (uint32_t)((y1 - y0) * (x1 - x0));
      for (int yy = y0; yy < y1; yy++)
        for (int xx = x0; xx < x1; xx++)
          for (int c = 0; c < 3; c++)
            s[c] += rgb[((size_t)yy * a->sw + xx) * 3 + c];
      uint32_t r = (s[0] + area / 2) / area, g = (s[1] + area / 2) / area,
               b = (s[2] + area / 2) / area;
      uint16_t bin = (uint16_t)((r >> 3) << 10 | (g >> 3) << 5 | b >> 3);
      f[(size_t)y * a->w + x] = bin;
      a->count[bin]++;
      a->sum[bin][0] += r;
      a->sum[bin][1] += g;
      a->sum[bin][2] += b;
    }
  }
  a->frame[a->n] = f;
  a->caption[a->n] = a->cur;
  a->delay[a->n++] = delay_cs < 2 ? 2 : delay_cs > 65535 ? 65535 : delay_cs;
  return 1;
}

/* ---- the palette ---- */

typedef struct cbin {
  uint16_t bin;
  uint32_t key;   /* the sort key: the component on the box's axis, then the bin */
  uint64_t count;
} cbin;

typedef struct cbox {
  int lo, hi;     /* bins [lo, hi) of the sorted list */
  double sse;     /* squared error around the box's mean, in bin units */
  int axis;       /* the axis of largest spread */
} cbox;

static int comp(uint16_t bin, int axis)
{
  return bin >> (10 - 5 * axis) & 31;
}

static void box_stats(const cbin *b, cbox *x)
{
  double sum[3] = { 0, 0, 0 }, sq[3] = { 0, 0, 0 }, cnt = 0;
  for (int i = x->lo; i < x->hi; i++)
    for (int c = 0; c < 3; c++) {
      double v = comp(b[i].bin, c), w = (double)b[i].count;
      sum[c] += w * v;
      sq[c] += w * v * v;
    }
  for (int i = x->lo; i < x->hi; i++)
    cnt += (double)b[i].count;
  x->sse = 0;
  x->axis = 0;
  double best = -1;
  for (int c = 0; c < 3; c++) {
    double e = sq[c] - sum[c] * sum[c] / cnt;
    x->sse += e;
    if (e > best) {
      best = e;
      x->axis = c;
    }
  }
  if (x->hi - x->lo < 2)
    x->sse = 0;
}

static int cmp_key(const void *p, const void *q)
{
  const cbin *a = p, *b = q;
  return (a->key > b->key) - (a->key < b->key);
}

/* Fills pal (RGB, MAX_COLOURS entries at most) and lut (bin -> entry); returns the entries. */
static int make_palette(const anim *a, GifColorType *pal, uint8_t *lut)
{
  int m = 0;
  for (int i = 0; i < NBINS; i++)
    m += a->count[i] > 0;
  cbin *b = malloc((size_t)(m ? m : 1) * sizeof *b);
  if (!b)
    return 0;
  m = 0;
  for (int i = 0; i < NBINS; i++)
    if (a->count[i])
      b[m++] = (cbin){ (uint16_t)i, 0, a->count[i] };
  cbox box[MAX_COLOURS];
  int nb = 1;
  box[0] = (cbox){ 0, m, 0, 0 };
  box_stats(b, &box[0]);
  while (nb < MAX_COLOURS) {
    int k = 0;
    for (int i = 1; i < nb; i++)
      if (box[i].sse > box[k].sse)
        k = i;
    if (box[k].sse <= 0)
      break;
    /* qsort's order among equal keys is unspecified: the bin in the key breaks every tie. */
    for (int i = box[k].lo; i < box[k].hi; i++)
      b[i].key = (uint32_t)comp(b[i].bin, box[k].axis) << 16 | b[i].bin;
    qsort(b + box[k].lo, (size_t)(box[k].hi - box[k].lo), sizeof *b, cmp_key);
    uint64_t total = 0, run = 0;
    for (int i = box[k].lo; i < box[k].hi; i++)
      total += b[i].count;
    int cut = box[k].lo + 1;
    for (int i = box[k].lo; i < box[k].hi - 1; i++) {
      run += b[i].count;
      cut = i + 1;
      if (2 * run >= total)
        break;
    }
    box[nb] = (cbox){ cut, box[k].hi, 0, 0 };
    box[k].hi = cut;
    box_stats(b, &box[k]);
    box_stats(b, &box[nb]);
    nb++;
  }
  for (int k = 0; k < nb; k++) {
    uint64_t s[3] = { 0, 0, 0 }, cnt = 0;
    for (int i = box[k].lo; i < box[k].hi; i++) {
      lut[b[i].bin] = (uint8_t)k;
      cnt += b[i].count;
      for (int c = 0; c < 3; c++)
        s[c] += a->sum[b[i].bin][c];
    }
    pal[k] = (GifColorType){ (GifByteType)((s[0] + cnt / 2) / cnt),
                             (GifByteType)((s[1] + cnt / 2) / cnt),
                             (GifByteType)((s[2] + cnt / 2) / cnt) };
  }
  free(b);
  return nb;
}

/* ---- the caption strip ---- */

/* The text's first len bytes fit in avail pixels of the font (a "..." after them with dots). */
static int text_fits(TTF_Font *font, const char *s, size_t len, int dots, int avail)
{
  char buf[CAPTION_BYTES + 8];
  int w = 0, h = 0;
  snprintf(buf, sizeof buf, "%.*s%s", (int)len, s, dots ? "..." : "");
  return TTF_SizeUTF8(font, buf, &w, &h) == 0 && w <= avail;
}

/* One line of text, centred at row y0 of the strip's coverage mask (w wide, sh rows). */
static void draw_line(TTF_Font *font, const char *s, size_t len, int dots, uint8_t *mask, int w,
                      int sh, int y0)
{
  char buf[CAPTION_BYTES + 8];
  snprintf(buf, sizeof buf, "%.*s%s", (int)len, s, dots ? "..." : "");
  if (!buf[0])
    return;
  SDL_Surface *t = TTF_RenderUTF8_Blended(font, buf, (SDL_Color){ 255, 255, 255, 255 });
  SDL_Surface *c = t ? SDL_ConvertSurfaceFormat(t, SDL_PIXELFORMAT_ARGB8888, 0) : NULL;
  for (int y = 0; c && y < c->h; y++)
    for (int x = 0; x < c->w; x++) {
      int mx = (w - c->w) / 2 + x, my = y0 + y;
      if (mx < 0 || mx >= w || my < 0 || my >= sh)
        continue;
      uint32_t px = ((const uint32_t *)((const uint8_t *)c->pixels + (size_t)y * (size_t)c->pitch))[x];
      mask[(size_t)my * (size_t)w + (size_t)mx] = (uint8_t)(px >> 24);
    }
  SDL_FreeSurface(c);
  SDL_FreeSurface(t);
}

/* A caption over at most two lines, broken at blanks (a word too long for a line is cut at a
 * character), the second ending in "..." when the rest does not fit. */
static void draw_caption(TTF_Font *font, const char *s, uint8_t *mask, int w, int sh, int line)
{
  int avail = w - 16 > 8 ? w - 16 : 8;
  for (int l = 0; l < 2; l++) {
    while (*s == ' ')
      s++;
    size_t len = strlen(s), best = 0;
    if (!len)
      return;
    int last = l == 1 && !text_fits(font, s, len, 0, avail);
    for (size_t k = 1; k <= len; k++) {
      if (k < len && ((unsigned char)s[k] & 0xC0) == 0x80)
        continue; /* inside a character */
      int fits = text_fits(font, s, k, last, avail);
      if (fits && (last || k == len || s[k] == ' '))
        best = k;
      else if (!fits)
        break;
    }
    if (best == 0) /* one word wider than the line: as much of it as fits */
      for (size_t k = 1; k <= len && text_fits(font, s, k, last, avail); k++)
        if (k == len || ((unsigned char)s[k] & 0xC0) != 0x80)
          best = k;
    draw_line(font, s, best, last, mask, w, sh, 4 + l * line);
    s += best ? best : len;
  }
}

/* When a frame has a caption, every frame gets a strip under it: the panel's grey, and the
 * caption (if it has one) in white. Its pixels join the histogram, as the frames' do. */
static int add_strip(anim *a, char *err, size_t n)
{
  int any = 0;
  for (int i = 0; i < a->n; i++)
    any |= a->caption[i] >= 0;
  if (!any || a->strip)
    return 1;
  const char *path = getenv("TILESCOPE_FONT");
  if (!path || !*path)
    path = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
  int size = a->h / 32 < 11 ? 11 : a->h / 32 > 26 ? 26 : a->h / 32;
  TTF_Font *font = (TTF_WasInit() || TTF_Init() == 0) ? TTF_OpenFont(path, size) : NULL;
  if (!font) {
    snprintf(err, n, "the captions' font '%s': %s", path, TTF_GetError());
    return 0;
  }
  int line = TTF_FontLineSkip(font), sh = 2 * line + 8, w = a->w;
  size_t strip_px = (size_t)w * (size_t)sh;
  uint8_t *mask = calloc(strip_px * (size_t)a->ntext + 1, 1);
  if (a->h + sh > 65535 || !anim_fits(w, a->h + sh, a->n, err, n) || !mask) {
    if (a->h + sh > 65535 || !mask)
      snprintf(err, n, "no room for the captions' strip under %dx%d frames", w, a->h);
    free(mask);
    TTF_CloseFont(font);
    return 0;
  }
  for (int c = 0; c < a->ntext; c++)
    draw_caption(font, a->text[c], mask + strip_px * (size_t)c, w, sh, line);
  TTF_CloseFont(font);
  static const int bg[3] = { 33, 36, 43 }, rule[3] = { 52, 56, 66 };
  size_t px = (size_t)w * (size_t)a->h;
  for (int i = 0; i < a->n; i++) {
    uint16_t *f = realloc(a->frame[i], (px + strip_px) * sizeof *f);
    if (!f) {
      free(mask);
      snprintf(err, n, "out of memory for the captions' strip");
      return 0;
    }
    a->frame[i] = f;
    const uint8_t *m = a->caption[i] >= 0 ? mask + strip_px * (size_t)a->caption[i] : NULL;
    for (size_t p = 0; p < strip_px; p++) {
      uint32_t cov = m ? m[p] : 0, rgb[3];
      for (int k = 0; k < 3; k++) {
        int base = p < (size_t)w ? rule[k] : bg[k];
        rgb[k] = (uint32_t)(base + ((255 - base) * (int)cov + 127) / 255);
      }
      uint16_t bin = (uint16_t)((rgb[0] >> 3) << 10 | (rgb[1] >> 3) << 5 | rgb[2] >> 3);
      f[px + p] = bin;
      a->count[bin]++;
      for (int k = 0; k < 3; k++)
        a->sum[bin][k] += rgb[k];
    }
  }
  free(mask);
  a->h += sh;
  a->strip = sh;
  return 1;
}

/* ---- writing ---- */

static int put(GifFileType *g, const GifByteType *buf, int len)
{
  return (int)fwrite(buf, 1, (size_t)len, g->UserData);
}

/* Frame i as the rectangle that changed since frame i - 1 (all of frame 0), pixels that did
 * not change transparent; an unchanged frame is one transparent pixel. */
static int put_frame(GifFileType *g, const anim *a, const uint8_t *lut, int i, uint8_t *row)
{
  const uint16_t *f = a->frame[i], *prev = i ? a->frame[i - 1] : NULL;
  int x0 = 0, y0 = 0, x1 = a->w, y1 = a->h;
  if (prev) {
    x0 = a->w, y0 = a->h, x1 = y1 = 0;
    for (int y = 0; y < a->h; y++)
      for (int x = 0; x < a->w; x++) {
        size_t p = (size_t)y * a->w + x;
        if (lut[f[p]] != lut[prev[p]]) {
          x0 = x < x0 ? x : x0;
          x1 = x + 1 > x1 ? x + 1 : x1;
          y0 = y < y0 ? y : y0;
          y1 = y + 1 > y1 ? y + 1 : y1;
        }
      }
    if (x1 == 0)
      x0 = y0 = 0, x1 = y1 = 1;
  }
  GraphicsControlBlock gcb = { .DisposalMode = DISPOSE_DO_NOT, .DelayTime = a->delay[i],
                               .TransparentColor = prev ? TRANSPARENT : NO_TRANSPARENT_COLOR };
  GifByteType ext[4];
  size_t len = EGifGCBToExtension(&gcb, ext);
  if (EGifPutExtension(g, GRAPHICS_EXT_FUNC_CODE, (int)len, ext) == GIF_ERROR ||
      EGifPutImageDesc(g, x0, y0, x1 - x0, y1 - y0, false, NULL) == GIF_ERROR)
    return 0;
  for (int y = y0; y < y1; y++) {
    for (int x = x0; x < x1; x++) {
      size_t p = (size_t)y * a->w + x;
      row[x - x0] = prev && lut[f[p]] == lut[prev[p]] ? TRANSPARENT : lut[f[p]];
    }
    if (EGifPutLine(g, row, x1 - x0) == GIF_ERROR)
      return 0;
  }
  return 1;
}

int anim_write(anim *a, const char *path, char *err, size_t n)
{
  if (a->n == 0) {
    snprintf(err, n, "%s: no frames to write", path);
    return 0;
  }
  if (!add_strip(a, err, n))
    return 0;
  GifColorType pal[256];
  uint8_t *lut = calloc(NBINS, 1), *row = malloc((size_t)a->w);
  memset(pal, 0, sizeof pal);
  if (!lut || !row || make_palette(a, pal, lut) == 0) {
    free(lut);
    free(row);
    snprintf(err, n, "%s: out of memory", path);
    return 0;
  }
  ts_outfile o;
  ts_error e = { 0 };
  if (ts_outfile_open(&o, path, &e) != TS_OK) {
    free(lut);
    free(row);
    snprintf(err, n, "%s", e.msg);
    return 0;
  }
  int code = 0, ok = 0;
  GifFileType *g = EGifOpen(o.f, put, &code);
  ColorMapObject *cm = GifMakeMapObject(256, pal);
  if (g && cm) {
    static const GifByteType loop[3] = { 1, 0, 0 }; /* repeat for ever */
    EGifSetGifVersion(g, true);
    ok = EGifPutScreenDesc(g, a->w, a->h, 8, 0, cm) != GIF_ERROR &&
         EGifPutExtensionLeader(g, APPLICATION_EXT_FUNC_CODE) != GIF_ERROR &&
         EGifPutExtensionBlock(g, 11, "NETSCAPE2.0") != GIF_ERROR &&
         EGifPutExtensionBlock(g, 3, loop) != GIF_ERROR &&
         EGifPutExtensionTrailer(g) != GIF_ERROR;
    for (int i = 0; i < a->n && ok; i++)
      ok = put_frame(g, a, lut, i, row);
    if (!ok)
      code = g->Error;
  }
  int close_code = 0; /* (giflib sets it to 0 on success, so not code) */
  if (g && EGifCloseFile(g, &close_code) == GIF_ERROR) {
    ok = 0;
    code = close_code;
  }
  int why = errno; /* a failed write's reason (ENOSPC), which giflib only calls a write error */
  GifFreeMapObject(cm);
  free(lut);
  free(row);
  if (!ok) {
    snprintf(err, n, "cannot write '%s': %s", path,
             ferror(o.f) && why ? strerror(why) : code ? GifErrorString(code) : "out of memory");
    ts_outfile_abort(&o);
    return 0;
  }
  if (ts_outfile_commit(&o, &e) != TS_OK) {
    snprintf(err, n, "%s", e.msg);
    return 0;
  }
  return 1;
}
