/* Drawing the viewer: the two image panes (input; output with the thread-space overlay),
 * hover footprint and dependency arrows, pixel values when zoomed in, the side panel with
 * the inspector and legend, the timeline, the help overlay. The device view draws the same
 * parts from the device's record: tiles by their state at the device time, the output masked
 * to the tiles finished by then, wrong tiles hatched, and a timeline of device time with one
 * lane per compute unit. llvmpipe pays for every pixel it shades, so a frame copies a cache of
 * what changes seldom (the panes without the hover, the panel's background, the timeline's
 * graph: draw_cached) and draws only the rest; textures get the rows a step changed and
 * mipmaps made again where they changed (make_mipmaps). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <time.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_record.h"
#include "viewer.h"

enum { GEN9_THREAD_BYTES = 4096 };
#define PANEL_TEXT_W 416.0f /* the side panel's width less its margins */

static const gfx_color WHITE = { 1, 1, 1, 1 }, DIM = { 0.62f, 0.65f, 0.70f, 1 },
                       BG = { 0.09f, 0.10f, 0.12f, 1 }, PANEL = { 0.13f, 0.14f, 0.17f, 1 },
                       ACCENT = { 0.45f, 0.75f, 1.0f, 1 }, WARN = { 1.0f, 0.45f, 0.35f, 1 },
                       WAITS = { 1.0f, 0.62f, 0.05f, 1 }, WAITERS = { 0.25f, 0.9f, 1.0f, 1 },
                       FOOT = { 1.0f, 0.9f, 0.2f, 1 }, SEEN = { 0.3f, 1.0f, 0.55f, 1 };

/* The observation's flags (VW_OBS_* bits in order), as the overlay draws them. */
static const gfx_color OBS_COLORS[VW_OBS_KINDS] = { { 0.95f, 0.20f, 0.85f, 1 },
                                                    { 1.00f, 0.55f, 0.05f, 1 },
                                                    { 0.10f, 0.85f, 0.85f, 1 },
                                                    { 0.95f, 0.10f, 0.10f, 1 } };
static const char *const OBS_NAMES[VW_OBS_KINDS] = { "footprint", "write", "conflict",
                                                     "hazard" };

static const gfx_color STATE_COLORS[5] = { { 0.25f, 0.25f, 0.25f, 1 }, { 1.0f, 0.62f, 0.05f, 1 },
                                           { 0.15f, 0.95f, 0.25f, 1 }, { 0.25f, 0.45f, 0.95f, 1 },
                                           { 0.95f, 0.1f, 0.1f, 1 } };
static const char *const STATE_NAMES[5] = { "pending", "waiting", "running", "done", "hazard" };

int viewer_pass_at_tick(const ts_sched *s, int64_t tick)
{
  for (int p = 0; p < s->npasses; p++)
    if (tick < s->pass[p].t_end)
      return p;
  return s->npasses - 1;
}

static const ts_sched *sched_of(const viewer *v)
{
  return v->have_snap && v->snap.run ? ts_run_sched(v->snap.run) : NULL;
}

/* The pass shown: the one running at the snapshot's tick, or at the device time. */
static int shown_pass(const viewer *v)
{
  const ts_sched *s = sched_of(v);
  if (!s)
    return 0;
  const ts_dev_run *d = viewer_dev(v);
  if (d) {
    uint64_t t = viewer_dev_time(v);
    for (int p = 0; p < d->npasses - 1; p++)
      if (t < v->dev_pass_end[p])
        return p;
    return d->npasses - 1;
  }
  return viewer_pass_at_tick(s, v->snap.tick);
}

int viewer_shown_pass(const viewer *v)
{
  return shown_pass(v);
}

/* A work-group's state at device time t: the same four states as a simulated thread. */
static ts_thread_state dev_state(const ts_grec *g, uint64_t t)
{
  return t < g->start ? TS_STATE_PENDING : t < g->waited ? TS_STATE_WAITING
                      : t < g->end ? TS_STATE_RUNNING : TS_STATE_DONE;
}

/* The record of thread `id` of pass p: tickets are dispatch indices. */
static const ts_grec *dev_rec(const viewer *v, const ts_dev_run *d, int p, uint32_t id)
{
  return &d->pass[p].rec[sched_of(v)->pass[p].t[id].dispatch];
}

/* Whether the device named its compute units (else the lanes are logical). */
static int dev_has_units(const ts_dev_run *d)
{
  return d->pass[0].n > 0 && d->pass[0].rec[0].unit >= 0;
}

/* Device times in one unit for the whole run, chosen by its length. */
static void fmt_dev_time(const ts_dev_run *d, uint64_t t, char *out, size_t n)
{
  if (!d->clock_ns)
    snprintf(out, n, "event %" PRIu64, t);
  else if (d->t_end < 10000)
    snprintf(out, n, "%" PRIu64 " ns", t);
  else if (d->t_end < 10000000)
    snprintf(out, n, "%.2f us", (double)t * 1e-3);
  else
    snprintf(out, n, "%.3f ms", (double)t * 1e-6);
}

/* A thread's tile in image pixels, and whether the pass's tiles are transposed. */
static ts_rect tile_of(const viewer *v, int pass, int tx, int ty)
{
  const ts_pass_desc *pd = &ts_run_params_of(v->snap.run)->variant->passes[pass];
  return pd->tile_px(ts_run_kctx(v->snap.run), tx, ty);
}

int viewer_thread_at(const viewer *v, float x, float y, int *pass, uint32_t *id)
{
  const ts_sched *s = sched_of(v);
  if (!s || x < 0 || y < 0 || !v->input || x >= (float)v->input->w || y >= (float)v->input->h)
    return 0;
  int p = shown_pass(v);
  ts_rect t0 = tile_of(v, p, 0, 0), t1 = tile_of(v, p, 1, 0);
  int transposed = t1.y != t0.y;
  int px = (int)x, py = (int)y, tx, ty;
  if (transposed) {
    tx = py / t0.h;
    ty = px / t0.w;
  } else {
    tx = px / t0.w;
    ty = py / t0.h;
  }
  const ts_pass_sched *ps = &s->pass[p];
  if (tx >= ps->tw || ty >= ps->th)
    return 0;
  *pass = p;
  *id = (uint32_t)ty * (uint32_t)ps->tw + (uint32_t)tx;
  return 1;
}

/* An image texture of c channels (1 and 2 drawn as grey, 3 as RGB, 4 as RGB with its alpha
 * ignored), uploaded from the pixels as they are: no RGBA copy, and a grey image takes a
 * quarter of the memory. Level 0 is drawn texel by texel when magnified; when minified the
 * shader reads the mipmaps (made on the first minified draw after a change, see
 * bind_image), so a zone plate at 7% does not alias into false rings. */
static const GLenum px_format[5] = { 0, GL_RED, GL_RG, GL_RGB, GL_RGBA };
/* RGB is kept as RGBA: llvmpipe stores RGB8 in four bytes a texel anyway, and converts RGB
 * rows slowly as they come; they are widened here a band at a time and copied as they are. */
static const GLenum internal[5] = { 0, GL_R8, GL_RG8, GL_RGBA8, GL_RGBA8 };

static void tex_params(int c, int levels)
{
  GLint grey = c <= 2 ? GL_RED : GL_GREEN;
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_G, grey);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_B, c <= 2 ? GL_RED : GL_BLUE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, levels - 1);
}

/* Lets go of t's storage; its serial goes on counting. */
static void tex_free(vw_tex *t)
{
  if (t->id)
    glDeleteTextures(1, &t->id);
  free(t->dirty);
  uint32_t serial = t->serial;
  memset(t, 0, sizeof *t);
  t->serial = serial;
}

/* The levels k whose parents have both sides even (at most 8): the first k levels of a
 * square of 2^k texels at a multiple of 2^k come from that square alone. */
static int mip_block_levels(const vw_tex *t)
{
  int k = 0;
  while (k + 1 < t->levels && k < 8 && t->w % (2 << k) == 0 && t->h % (2 << k) == 0)
    k++;
  return k;
}

/* Makes t's storage for a w x h image of c channels unless it has it: every mipmap level at
 * once (glTexStorage2D), so that llvmpipe allocates it once, and not a second time (level 0
 * copied over) when the mipmaps are first made. Leaves t bound; returns 1 when the storage
 * is new (its texels undefined). */
static int tex_storage(vw_tex *t, int w, int h, int c)
{
  if (t->id && t->w == w && t->h == h && t->c == c) {
    glBindTexture(GL_TEXTURE_2D, t->id);
    return 0;
  }
  tex_free(t);
  glGenTextures(1, &t->id);
  glBindTexture(GL_TEXTURE_2D, t->id);
  int levels = 1;
  while (((unsigned)w | (unsigned)h) >> levels)
    levels++;
  if (epoxy_gl_version() >= 42 || epoxy_has_gl_extension("GL_ARB_texture_storage")) {
    glTexStorage2D(GL_TEXTURE_2D, levels, internal[c], w, h);
  } else {
    for (int l = 0; l < levels; l++)
      glTexImage2D(GL_TEXTURE_2D, l, (GLint)internal[c], w >> l > 0 ? w >> l : 1,
                   h >> l > 0 ? h >> l : 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
  }
  tex_params(c, levels);
  *t = (vw_tex){ .id = t->id, .w = w, .h = h, .c = c, .levels = levels, .all_dirty = 1,
                 .serial = t->serial + 1 };
  /* Cells a multiple of the block that a partial update keeps apart (make_mipmaps). */
  int k = mip_block_levels(t);
  t->cell = k > 6 ? 1 << k : 64;
  t->cells_w = (w + t->cell - 1) / t->cell;
  t->cells_h = (h + t->cell - 1) / t->cell;
  t->dirty = k > 0 ? calloc((size_t)t->cells_w * (size_t)t->cells_h, 1) : NULL;
  return 1;
}

/* Level 0's texels [x0, x1) x [y0, y1) changed: the mipmaps are to be made again there. */
static void mip_dirty(vw_tex *t, int x0, int y0, int x1, int y1)
{
  if (t->all_dirty || !t->dirty) {
    t->all_dirty = 1;
    return;
  }
  for (int cy = y0 / t->cell; cy <= (y1 - 1) / t->cell; cy++)
    for (int cx = x0 / t->cell; cx <= (x1 - 1) / t->cell; cx++) {
      uint8_t *d = &t->dirty[(size_t)cy * (size_t)t->cells_w + (size_t)cx];
      t->ndirty += !*d;
      *d = 1;
    }
}

/* TILESCOPE_CHECK_MIPS=1: every partial update is compared with glGenerateMipmap on a copy,
 * level by level; a difference is reported on stderr ("mipmap check: ..."). */
static void check_mipmaps(const vw_tex *t)
{
  GLuint ref;
  glGenTextures(1, &ref);
  glBindTexture(GL_TEXTURE_2D, ref);
  glTexStorage2D(GL_TEXTURE_2D, t->levels, internal[t->c], t->w, t->h);
  glCopyImageSubData(t->id, GL_TEXTURE_2D, 0, 0, 0, 0, ref, GL_TEXTURE_2D, 0, 0, 0, 0, t->w,
                     t->h, 1);
  glGenerateMipmap(GL_TEXTURE_2D);
  size_t n = (size_t)t->w * (size_t)t->h * 4;
  uint8_t *a = malloc(n), *b = malloc(n);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  for (int l = 1; a && b && l < t->levels; l++) {
    int w = t->w >> l > 0 ? t->w >> l : 1, h = t->h >> l > 0 ? t->h >> l : 1;
    glBindTexture(GL_TEXTURE_2D, ref);
    glGetTexImage(GL_TEXTURE_2D, l, GL_RGBA, GL_UNSIGNED_BYTE, a);
    glBindTexture(GL_TEXTURE_2D, t->id);
    glGetTexImage(GL_TEXTURE_2D, l, GL_RGBA, GL_UNSIGNED_BYTE, b);
    for (size_t i = 0; i < (size_t)w * (size_t)h * 4; i++)
      if (a[i] != b[i]) {
        fprintf(stderr, "mipmap check: %dx%d level %d differs at (%zu,%zu): %u, whole %u\n", t->w,
                t->h, l, i / 4 % (size_t)w, i / 4 / (size_t)w, b[i], a[i]);
        break;
      }
  }
  free(a);
  free(b);
  glDeleteTextures(1, &ref);
  glBindTexture(GL_TEXTURE_2D, t->id);
}

/* t's mipmaps, made again where level 0 changed (t bound). llvmpipe makes a level from the
 * one above it by a linear blit at half the size, so where both sides of the level above are
 * even each texel is the mean of its own 2x2 block: for the first k levels (mip_block_levels)
 * a square of 2^k texels at a multiple of 2^k makes its own texels below it and no others.
 * The changed cells (multiples of such squares) are copied side by side into a scratch
 * texture whose mipmaps glGenerateMipmap makes (the same code on the same texels: the same
 * values), and copied back level by level; the levels past k are made again whole from
 * level k (they are small). A change to much of the image, or an image with an odd side (k
 * is 0), makes them all again. TILESCOPE_CHECK_MIPS=1 compares every partial update with
 * glGenerateMipmap on a copy. */
static void make_mipmaps(vw_tex *t)
{
  int k = mip_block_levels(t), cell = t->cell, n = t->ndirty;
  int partial = !t->all_dirty && t->dirty && k > 0 && n > 0 &&
                (double)n * cell * cell < 0.4 * (double)t->w * t->h &&
                (epoxy_gl_version() >= 43 || epoxy_has_gl_extension("GL_ARB_copy_image"));
  if (!partial) {
    glGenerateMipmap(GL_TEXTURE_2D);
  } else {
    int cols = 4096 / cell < n ? 4096 / cell : n, rows = (n + cols - 1) / cols;
    GLuint sc;
    glGenTextures(1, &sc);
    glBindTexture(GL_TEXTURE_2D, sc);
    glTexStorage2D(GL_TEXTURE_2D, k + 1, internal[t->c], cols * cell, rows * cell);
    for (int pass = 0; pass < 2; pass++) {
      int slot = 0;
      for (int cy = 0; cy < t->cells_h; cy++)
        for (int cx = 0; cx < t->cells_w; cx++) {
          if (!t->dirty[(size_t)cy * (size_t)t->cells_w + (size_t)cx])
            continue;
          int x0 = cx * cell, y0 = cy * cell, sx = slot % cols * cell, sy = slot / cols * cell;
          int w = t->w - x0 < cell ? t->w - x0 : cell, h = t->h - y0 < cell ? t->h - y0 : cell;
          slot++;
          if (pass == 0)
            glCopyImageSubData(t->id, GL_TEXTURE_2D, 0, x0, y0, 0, sc, GL_TEXTURE_2D, 0, sx, sy, 0,
                               w, h, 1);
          for (int l = 1; pass == 1 && l <= k; l++)
            glCopyImageSubData(sc, GL_TEXTURE_2D, l, sx >> l, sy >> l, 0, t->id, GL_TEXTURE_2D, l,
                               x0 >> l, y0 >> l, 0, w >> l, h >> l, 1);
        }
      if (pass == 0)
        glGenerateMipmap(GL_TEXTURE_2D);
    }
    glDeleteTextures(1, &sc);
    glBindTexture(GL_TEXTURE_2D, t->id);
    if (k + 1 < t->levels) {
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, k);
      glGenerateMipmap(GL_TEXTURE_2D);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);
    }
    const char *check = getenv("TILESCOPE_CHECK_MIPS");
    if (check && strcmp(check, "1") == 0)
      check_mipmaps(t);
  }
  t->all_dirty = 0;
  t->ndirty = 0;
  if (t->dirty)
    memset(t->dirty, 0, (size_t)t->cells_w * (size_t)t->cells_h);
}

/* Pixels [x0, x1) x [y0, y1) of a bound texture from an image's values (W x C bytes, or W
 * uint32 a row for the integral image, drawn as grey at `scale`): the sums are turned into
 * grey, and RGB into RGBA, a band of rows at a time, so no copy of the whole image is kept. */
static void upload_values(vw_tex *t, const uint8_t *vals, int esize, int x0, int y0, int x1,
                          int y1, uint32_t scale)
{
  if (x1 <= x0 || y1 <= y0)
    return;
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  mip_dirty(t, x0, y0, x1, y1);
  t->serial++;
  int w = x1 - x0;
  if (esize != 4 && t->c != 3) {
    glPixelStorei(GL_UNPACK_ROW_LENGTH, t->w);
    glTexSubImage2D(GL_TEXTURE_2D, 0, x0, y0, w, y1 - y0, px_format[t->c], GL_UNSIGNED_BYTE,
                    vals + ((size_t)y0 * (size_t)t->w + (size_t)x0) * (size_t)t->c);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    return;
  }
  enum { BAND = 64 };
  int out = esize == 4 ? 1 : 4; /* bytes a texel in the band */
  uint8_t *band = malloc((size_t)w * BAND * (size_t)out);
  for (int y = y0; band && y < y1; y += BAND) {
    int n = y1 - y < BAND ? y1 - y : BAND;
    for (int r = 0; r < n; r++) {
      size_t at = (size_t)(y + r) * (size_t)t->w + (size_t)x0;
      uint8_t *o = band + (size_t)r * (size_t)w * (size_t)out;
      if (esize == 4) {
        ts_integral_grey((const uint32_t *)vals + at, (size_t)w, scale, o);
        continue;
      }
      const uint8_t *p = vals + at * 3;
      for (int i = 0; i < w; i++, p += 3, o += 4) {
        o[0] = p[0];
        o[1] = p[1];
        o[2] = p[2];
        o[3] = 255;
      }
    }
    glTexSubImage2D(GL_TEXTURE_2D, 0, x0, y, w, n, esize == 4 ? GL_RED : GL_RGBA,
                    GL_UNSIGNED_BYTE, band);
  }
  free(band);
}

void render_output_rows(viewer *v, const vw_snapshot *s)
{
  const ts_kctx *k = ts_run_kctx(s->run);
  const ts_buf *b = &k->buf[TS_BUF_OUT];
  if (!b->data)
    return;
  int fresh = tex_storage(&v->img[1], k->W, k->H, b->esize == 4 ? 1 : k->C);
  if (fresh || s->full || v->out_run != s->run) {
    upload_values(&v->img[1], b->data, b->esize, 0, 0, k->W, k->H, s->scale);
  } else {
    for (int i = 0; i < s->nrects; i++) {
      const ts_rect *r = &s->rects[i];
      upload_values(&v->img[1], b->data, b->esize, r->x, r->y, r->x + r->w, r->y + r->h,
                    s->scale);
    }
  }
  v->out_run = s->run;
}

/* Binds image texture i (0 input, 1 output, 2 the device's output) to unit 0, making its
 * mipmaps first when it is drawn minified and has changed since. */
static void bind_image(viewer *v, int i)
{
  vw_tex *t = &v->img[i];
  glBindTexture(GL_TEXTURE_2D, t->id);
  if (v->zoom < 1 && (t->all_dirty || t->ndirty) && t->id) {
    viewer_phase(v, PH_PANES);
    make_mipmaps(t);
    viewer_phase(v, PH_MIPS);
  }
  /* Without mipmaps a mipmapping filter would leave the texture incomplete (black). */
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                  v->zoom < 1 ? GL_LINEAR_MIPMAP_LINEAR : GL_NEAREST);
}

static void upload_images(viewer *v)
{
  if (v->input && v->in_uploaded != v->input_generation) {
    tex_storage(&v->img[0], v->input->w, v->input->h, v->input->c);
    upload_values(&v->img[0], v->input->data, 1, 0, 0, v->input->w, v->input->h, 0);
    v->in_uploaded = v->input_generation;
  }
  if (v->dev_raw && v->dev_run && !v->dev_uploaded) {
    const ts_kctx *k = ts_run_kctx(v->dev_run);
    int esize = k->buf[TS_BUF_OUT].esize;
    tex_storage(&v->img[2], k->W, k->H, esize == 4 ? 1 : k->C);
    upload_values(&v->img[2], v->dev_raw, esize, 0, 0, k->W, k->H, v->dev_scale);
    v->dev_uploaded = 1;
  }
}

typedef struct start_key {
  uint64_t start;
  uint32_t ticket;
} start_key;

static int cmp_start(const void *a, const void *b)
{
  const start_key *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->ticket < y->ticket ? -1 : x->ticket > y->ticket;
}

/* The observed dispatch order of pass p: each group's rank by start time (ties by ticket). */
static const uint32_t *dev_ranks(viewer *v, const ts_dev_run *d, int p)
{
  const ts_pass_sched *ps = &sched_of(v)->pass[p];
  if (v->rank_run == v->snap.run && v->rank_pass == p)
    return v->dev_rank;
  start_key *k = malloc((size_t)ps->n * sizeof *k + 1);
  if (ps->n > v->dev_rank_cap) {
    uint32_t *r = realloc(v->dev_rank, (size_t)ps->n * sizeof *r);
    if (r) {
      v->dev_rank = r;
      v->dev_rank_cap = ps->n;
    }
  }
  if (!k || ps->n > v->dev_rank_cap) {
    free(k);
    return NULL;
  }
  for (uint32_t t = 0; t < ps->n; t++)
    k[t] = (start_key){ d->pass[p].rec[t].start, t };
  qsort(k, ps->n, sizeof *k, cmp_start);
  for (uint32_t r = 0; r < ps->n; r++)
    v->dev_rank[ps->order[k[r].ticket]] = r;
  free(k);
  v->rank_run = v->snap.run;
  v->rank_pass = p;
  return v->dev_rank;
}

/* The threads of the pass shown are two textures: thr_tex, one RGBA32F texel a thread with
 * what changes only with the run, pass or observation (made again then), and state_tex,
 * one byte a thread, its state at the tick or device time (made again at each). The shader
 * adds the byte to the texel's alpha, which gives the one value it reads. */
static void upload_static(viewer *v, const ts_pass_sched *ps, const float *texels)
{
  glBindTexture(GL_TEXTURE_2D, v->thr_tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, ps->tw, ps->th, 0, GL_RGBA, GL_FLOAT, texels);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  v->thr_serial++;
}

static void upload_states(viewer *v, const ts_pass_sched *ps)
{
  glBindTexture(GL_TEXTURE_2D, v->state_tex);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8UI, ps->tw, ps->th, 0, GL_RED_INTEGER, GL_UNSIGNED_BYTE,
               v->thr_state);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  v->thr_serial++;
}

/* The byte a thread of the pass; 0 when out of memory. */
static int state_bytes(viewer *v, uint32_t n)
{
  if (n <= v->thr_cap)
    return 1;
  uint8_t *b = realloc(v->thr_state, n ? n : 1);
  if (!b)
    return 0;
  v->thr_state = b;
  v->thr_cap = n;
  return 1;
}

/* The device view's threads: observed order, time waiting, lane and +4 for a wrong tile;
 * the state at the device time. */
static void update_threads_device(viewer *v, const ts_dev_run *d, int p, float *norm)
{
  const ts_pass_sched *ps = &sched_of(v)->pass[p];
  const ts_dev_pass *dp = &d->pass[p];
  uint64_t now = viewer_dev_time(v);
  if (!(v->thr_run == v->snap.run && v->thr_dev && v->thr_pass == p)) {
    float *tx = malloc((size_t)ps->n * 4 * sizeof *tx + 1);
    if (!tx || !state_bytes(v, ps->n)) {
      free(tx);
      return;
    }
    const uint32_t *rank = dev_ranks(v, d, p);
    const uint8_t *wrong = p == d->npasses - 1 ? d->wrong : NULL;
    uint64_t maxw = 1;
    for (uint32_t id = 0; id < ps->n; id++) {
      const ts_grec *g = &dp->rec[ps->t[id].dispatch];
      float *o = tx + (size_t)id * 4;
      o[0] = (float)(rank ? rank[id] : ps->t[id].dispatch);
      o[1] = (float)(g->waited - g->start);
      o[2] = (float)(g->lane < 0 ? 0 : g->lane);
      o[3] = wrong && wrong[id] ? 4.0f : 0.0f;
      maxw = g->waited - g->start > maxw ? g->waited - g->start : maxw;
    }
    upload_static(v, ps, tx);
    free(tx);
    v->thr_norm[0] = (float)(ps->n > 1 ? ps->n - 1 : 1);
    v->thr_norm[1] = (float)maxw;
    v->thr_norm[2] = (float)(d->lanes > 1 ? d->lanes - 1 : 1);
    v->thr_run = v->snap.run;
    v->thr_pass = p;
    v->thr_dev = 1;
    v->thr_dev_time = -1;
  }
  memcpy(norm, v->thr_norm, sizeof v->thr_norm);
  if (v->thr_dev_time == (int64_t)now)
    return;
  memset(v->dev_counts, 0, sizeof v->dev_counts);
  for (uint32_t id = 0; id < ps->n; id++) {
    ts_thread_state st = dev_state(&dp->rec[ps->t[id].dispatch], now);
    v->dev_counts[st]++;
    v->thr_state[id] = (uint8_t)st;
  }
  upload_states(v, ps);
  v->thr_dev_time = (int64_t)now;
}

/* The simulated threads: dispatch index, depth, slot, and +4 for a hazard, 128 + 8 x the
 * observation's flags when there is one; the state at the tick. */
static void update_threads(viewer *v, float *norm)
{
  const ts_sched *s = sched_of(v);
  if (!s)
    return;
  int p = shown_pass(v);
  const ts_dev_run *dev = viewer_dev(v);
  if (dev) {
    update_threads_device(v, dev, p, norm);
    return;
  }
  const ts_pass_sched *ps = &s->pass[p];
  int64_t tick = v->snap.tick;
  if (!(v->thr_run == v->snap.run && v->thr_pass == p && !v->thr_dev &&
        v->thr_obs == v->obs_serial)) {
    float *tx = malloc((size_t)ps->n * 4 * sizeof *tx + 1);
    if (!tx || !state_bytes(v, ps->n)) {
      free(tx);
      return;
    }
    const vw_obs *o = viewer_obs(v);
    const uint8_t *flags = o ? o->flags[p] : NULL;
    v->thr_norm[0] = (float)(ps->n > 1 ? ps->n - 1 : 1);
    v->thr_norm[1] = 1;
    v->thr_norm[2] = (float)(s->params.slots - 1 > 0 ? s->params.slots - 1 : 1);
    for (uint32_t i = 0; i < ps->n; i++) {
      const ts_thread *t = &ps->t[i];
      float *d = tx + (size_t)i * 4;
      d[0] = (float)t->dispatch;
      d[1] = (float)t->depth;
      d[2] = (float)(t->slot < 0 ? 0 : t->slot);
      d[3] = (t->hazards > 0 ? 4.0f : 0.0f) + (o ? 128.0f + 8.0f * (float)flags[i] : 0.0f);
      if ((float)t->depth > v->thr_norm[1])
        v->thr_norm[1] = (float)t->depth;
    }
    if ((uint32_t)v->thr_norm[2] + 1 > ps->n)
      v->thr_norm[2] = v->thr_norm[0];
    upload_static(v, ps, tx);
    free(tx);
    v->thr_run = v->snap.run;
    v->thr_pass = p;
    v->thr_dev = 0;
    v->thr_obs = v->obs_serial;
    v->thr_tick = INT64_MIN;
  }
  memcpy(norm, v->thr_norm, sizeof v->thr_norm);
  if (v->thr_tick == tick)
    return;
  for (uint32_t i = 0; i < ps->n; i++)
    v->thr_state[i] = (uint8_t)ts_thread_state_at(&ps->t[i], tick);
  upload_states(v, ps);
  v->thr_tick = tick;
}

/* What pane `pane` is drawn with, but the hover: the shader's uniforms, the textures and
 * their contents (serials), and the quad (only where the image lies within the pane:
 * llvmpipe pays for every fragment). Zeroed first, so that two compare with memcmp. */
static void pane_key(viewer *v, int pane, const vw_rect *r, const float *norm, vw_pane_key *k)
{
  memset(k, 0, sizeof *k);
  if (!v->input)
    return;
  k->drawn = 1;
  k->screen[0] = (float)v->width;
  k->screen[1] = (float)v->height;
  k->image[0] = (float)v->input->w;
  k->image[1] = (float)v->input->h;
  viewer_image_to_screen(v, pane, 0, 0, &k->origin[0], &k->origin[1]);
  k->zoom = v->zoom;
  k->clip[0] = r->x;
  k->clip[1] = r->y;
  k->clip[2] = r->x + r->w;
  k->clip[3] = r->y + r->h;
  k->overlay = pane == 1 && v->have_snap && v->snap.run ? (int)v->mode : 0;
  k->tile_grid = pane == 1 && v->tile_grid && v->have_snap && v->snap.run;
  /* The device view's output: tiles not finished by the device time are masked (all of it
   * while an earlier pass runs), finished wrong tiles hatched. */
  const ts_dev_run *dev = pane == 1 ? viewer_dev(v) : NULL;
  k->device = dev != NULL;
  k->mask = dev ? (shown_pass(v) == dev->npasses - 1 ? 1 : 2) : 0;
  if (v->have_snap && v->snap.run) {
    const ts_sched *s = sched_of(v);
    int p = shown_pass(v);
    ts_rect t0 = tile_of(v, p, 0, 0), t1 = tile_of(v, p, 1, 0);
    k->space[0] = (float)s->pass[p].tw;
    k->space[1] = (float)s->pass[p].th;
    k->tile[0] = (float)t0.w;
    k->tile[1] = (float)t0.h;
    k->transposed = t1.y != t0.y;
    memcpy(k->norm, norm, sizeof k->norm);
  }
  k->image_index = dev ? 2 : pane == 1 && v->out_run ? 1 : 0;
  k->image_tex = v->img[k->image_index].id;
  k->image_serial = v->img[k->image_index].serial;
  if (k->overlay || k->device) {
    k->thr_serial = v->thr_serial;
  } else {
    /* The shader reads nothing of the threads: their changes do not change the pane. */
    memset(k->space, 0, sizeof k->space);
    memset(k->tile, 0, sizeof k->tile);
    memset(k->norm, 0, sizeof k->norm);
    k->transposed = 0;
  }
  if (pane == 1 && !v->out_run)
    return;
  float x0 = fmaxf(r->x, floorf(k->origin[0])), y0 = fmaxf(r->y, floorf(k->origin[1]));
  float x1 = fminf(r->x + r->w, ceilf(k->origin[0] + (float)v->input->w * v->zoom));
  float y1 = fminf(r->y + r->h, ceilf(k->origin[1] + (float)v->input->h * v->zoom));
  if (x1 > x0 && y1 > y0) {
    k->quad[0] = x0;
    k->quad[1] = y0;
    k->quad[2] = x1;
    k->quad[3] = y1;
  }
}

/* Draws a pane as its key says, the hovered thread's tile highlighted when hover is given
 * (its tile's x, y in the thread space). */
static void draw_pane(viewer *v, const vw_pane_key *k, const float *hover)
{
  if (!k->drawn)
    return;
  GLuint prog = v->g.image_prog;
  glUseProgram(prog);
#define U(name) glGetUniformLocation(prog, name)
  glUniform2f(U("u_screen"), k->screen[0], k->screen[1]);
  glUniform2f(U("u_image_size"), k->image[0], k->image[1]);
  glUniform2f(U("u_origin"), k->origin[0], k->origin[1]);
  glUniform1f(U("u_zoom"), k->zoom);
  glUniform4f(U("u_clip"), k->clip[0], k->clip[1], k->clip[2], k->clip[3]);
  glUniform1i(U("u_overlay"), k->overlay);
  glUniform1i(U("u_image"), 0);
  glUniform1i(U("u_threads"), 1);
  glUniform1i(U("u_states"), 2);
  glUniform1f(U("u_alpha"), 0.45f);
  glUniform1i(U("u_tile_grid"), k->tile_grid);
  glUniform2f(U("u_hover"), hover ? hover[0] : -1, hover ? hover[1] : -1);
  glUniform1i(U("u_device"), k->device);
  glUniform1i(U("u_mask"), k->mask);
  glUniform2f(U("u_space"), k->space[0], k->space[1]);
  glUniform2f(U("u_tile"), k->tile[0], k->tile[1]);
  glUniform1i(U("u_transposed"), k->transposed);
  glUniform3f(U("u_norm"), k->norm[0], k->norm[1], k->norm[2]);
#undef U
  glActiveTexture(GL_TEXTURE0);
  bind_image(v, k->image_index);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, v->thr_tex);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_2D, v->state_tex);
  glActiveTexture(GL_TEXTURE0);
  if (k->quad[2] <= k->quad[0])
    return;
  float x0 = k->quad[0], y0 = k->quad[1], x1 = k->quad[2], y1 = k->quad[3];
  float q[12] = { x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1 };
  glBindVertexArray(v->g.quad_vao);
  glBindBuffer(GL_ARRAY_BUFFER, v->g.quad_vbo);
  glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof q, q);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glBindVertexArray(0);
}

/* Screen rectangle of an image rectangle in a pane. */
static void rect_to_screen(const viewer *v, int pane, ts_rect r, float *x, float *y, float *w,
                           float *h)
{
  float x1, y1;
  viewer_image_to_screen(v, pane, (float)r.x, (float)r.y, x, y);
  viewer_image_to_screen(v, pane, (float)(r.x + r.w), (float)(r.y + r.h), &x1, &y1);
  *w = x1 - *x;
  *h = y1 - *y;
}

static int clipped(const vw_rect *c, float x, float y)
{
  return x >= c->x && y >= c->y && x < c->x + c->w && y < c->y + c->h;
}

/* Dispatch indices in tiles big enough on screen. */
static void draw_tile_labels(viewer *v, const vw_rect *r)
{
  const ts_sched *s = sched_of(v);
  if (!s || v->mode == OV_NONE)
    return;
  int p = shown_pass(v);
  const ts_pass_sched *ps = &s->pass[p];
  ts_rect t0 = tile_of(v, p, 0, 0);
  float tw = (float)t0.w * v->zoom, th = (float)t0.h * v->zoom;
  char digits[16];
  snprintf(digits, sizeof digits, "%u", ps->n - 1);
  int font = FONT_SMALL;
  float need = (float)gfx_text_width(&v->g, font, digits) + 4;
  if (tw < need || th < (float)v->g.font[font].height + 2 || (double)ps->n * tw * th < 1)
    return;
  int drawn = 0;
  for (uint32_t id = 0; id < ps->n && drawn < 4000; id++) {
    int tx = (int)(id % (uint32_t)ps->tw), ty = (int)(id / (uint32_t)ps->tw);
    float x, y, w, h;
    rect_to_screen(v, 1, tile_of(v, p, tx, ty), &x, &y, &w, &h);
    if (x + w < r->x || y + h < r->y || x > r->x + r->w || y > r->y + r->h)
      continue;
    char label[16];
    snprintf(label, sizeof label, "%u", ps->t[id].dispatch);
    float lw = (float)gfx_text_width(&v->g, font, label);
    float lx = x + (w - lw) / 2, ly = y + (h - (float)v->g.font[font].height) / 2;
    if (!clipped(r, lx, ly) || !clipped(r, lx + lw, ly + (float)v->g.font[font].height))
      continue;
    gfx_text(&v->g, font, lx + 1, ly + 1, gfx_rgba(0, 0, 0, 0.8f), label);
    gfx_text(&v->g, font, lx, ly, WHITE, label);
    drawn++;
  }
}

/* Pixel values written in each pixel when zoomed in far enough for them to fit. */
static void draw_pixel_values(viewer *v, int pane, const vw_rect *r)
{
  if (v->zoom < 16 || !v->input)
    return;
  const ts_kctx *k = v->have_snap && v->snap.run ? ts_run_kctx(v->snap.run) : NULL;
  int wide = pane == 1 && k && k->buf[TS_BUF_OUT].esize == 4;
  int C = pane == 0 ? v->input->c : (k ? k->C : 0);
  if (pane == 1 && !k)
    return;
  int font = FONT_SMALL, lh = v->g.font[font].height;
  float x0, y0;
  int px0 = (int)fmaxf(0, floorf(v->cx - r->w / 2 / v->zoom));
  int py0 = (int)fmaxf(0, floorf(v->cy - r->h / 2 / v->zoom));
  int px1 = (int)fminf((float)v->input->w, ceilf(v->cx + r->w / 2 / v->zoom));
  int py1 = (int)fminf((float)v->input->h, ceilf(v->cy + r->h / 2 / v->zoom));
  int lines = wide ? 1 : C;
  if ((float)(lines * lh) > v->zoom - 2) {
    if ((float)lh > v->zoom - 2)
      return;
    lines = 1; /* only the first channel fits */
  }
  for (int py = py0; py < py1; py++)
    for (int px = px0; px < px1; px++) {
      viewer_image_to_screen(v, pane, (float)px, (float)py, &x0, &y0);
      const uint8_t *vals = pane == 0 ? v->input->data + ((size_t)py * v->input->w + px) * C
                                      : viewer_out_px(v, px, py);
      if (!vals)
        continue; /* not read yet: it comes with the next snapshot */
      for (int c = 0; c < lines; c++) {
        char s[16];
        uint32_t sum = 0;
        if (wide)
          memcpy(&sum, vals, sizeof sum);
        if (wide)
          snprintf(s, sizeof s, "%u", sum);
        else
          snprintf(s, sizeof s, "%u", vals[c]);
        float w = (float)gfx_text_width(&v->g, font, s);
        if (w > v->zoom - 2)
          continue;
        float tx = x0 + (v->zoom - w) / 2, ty = y0 + (v->zoom - (float)(lines * lh)) / 2 + (float)(c * lh);
        if (!clipped(r, tx, ty) || !clipped(r, tx + w, ty + (float)lh))
          continue;
        uint8_t val = wide ? 128 : vals[c];
        gfx_color col = val > 140 ? gfx_rgba(0, 0, 0, 1) : WHITE;
        if (lines == 3)
          col = c == 0 ? gfx_rgba(1, 0.45f, 0.45f, 1) : c == 1 ? gfx_rgba(0.4f, 1, 0.4f, 1) : gfx_rgba(0.5f, 0.7f, 1, 1);
        if (lines == 3 && val > 140)
          col = c == 0 ? gfx_rgba(0.5f, 0, 0, 1) : c == 1 ? gfx_rgba(0, 0.4f, 0, 1) : gfx_rgba(0, 0, 0.6f, 1);
        gfx_text(&v->g, font, tx, ty, col, s);
      }
    }
}

/* Asks for the output values this frame draws: the pixels in view when they are written in
 * (zoom 16 and up), and the one under the cursor, for the inspector. */
static void want_values(viewer *v, const vw_rect *r)
{
  if (!v->input)
    return;
  int x0 = v->input->w, y0 = v->input->h, x1 = 0, y1 = 0;
  if (v->zoom >= 16) {
    x0 = (int)fmaxf(0, floorf(v->cx - r->w / 2 / v->zoom));
    y0 = (int)fmaxf(0, floorf(v->cy - r->h / 2 / v->zoom));
    x1 = (int)fminf((float)v->input->w, ceilf(v->cx + r->w / 2 / v->zoom));
    y1 = (int)fminf((float)v->input->h, ceilf(v->cy + r->h / 2 / v->zoom));
  }
  if (v->hover_pane >= 0 && v->hover_x >= 0 && v->hover_y >= 0 &&
      v->hover_x < (float)v->input->w && v->hover_y < (float)v->input->h) {
    int hx = (int)v->hover_x, hy = (int)v->hover_y;
    x0 = hx < x0 ? hx : x0;
    y0 = hy < y0 ? hy : y0;
    x1 = hx + 1 > x1 ? hx + 1 : x1;
    y1 = hy + 1 > y1 ? hy + 1 : y1;
  }
  viewer_want_values(v, x0, y0, x1, y1);
}

/* The focused thread: hovered, else clicked. */
int viewer_focus_thread(const viewer *v, int *pass, uint32_t *id)
{
  if (v->hover_pane >= 0 && viewer_thread_at(v, v->hover_x, v->hover_y, pass, id))
    return 1;
  if (v->sel_pass >= 0 && sched_of(v) && v->sel_pass < sched_of(v)->npasses) {
    *pass = v->sel_pass;
    *id = v->sel_id;
    return 1;
  }
  return 0;
}

static void tile_center(const viewer *v, int pass, uint32_t id, float *x, float *y)
{
  const ts_pass_sched *ps = &sched_of(v)->pass[pass];
  float w, h;
  rect_to_screen(v, 1, tile_of(v, pass, (int)(id % (uint32_t)ps->tw), (int)(id / (uint32_t)ps->tw)),
                 x, y, &w, &h);
  *x += w / 2;
  *y += h / 2;
}

/* A frame of dashes, so that the observed rectangle reads apart from the declared one's
 * solid frame wherever the two coincide. */
static void dashed_frame(viewer *v, float x, float y, float w, float h, float t, gfx_color c)
{
  const float dash = 6, gap = 4;
  for (float d = 0; d < w; d += dash + gap) {
    float len = fminf(dash, w - d);
    gfx_rect(&v->g, x + d, y, len, t, c);
    gfx_rect(&v->g, x + d, y + h - t, len, t, c);
  }
  for (float d = 0; d < h; d += dash + gap) {
    float len = fminf(dash, h - d);
    gfx_rect(&v->g, x, y + d, t, len, c);
    gfx_rect(&v->g, x + w - t, y + d, t, len, c);
  }
}

/* An inclusive rectangle of a buffer's elements as image pixels: `per` elements a pixel,
 * rows and columns swapped in a transposed buffer. Empty: w or h 0. */
static ts_rect elems_to_px(ts_obs_rect e, int per, int transposed)
{
  if (e.x1 < e.x0 || e.y1 < e.y0 || per < 1)
    return (ts_rect){ 0, 0, 0, 0 };
  int c0 = e.x0 / per, c1 = e.x1 / per;
  return transposed ? (ts_rect){ e.y0, c0, e.y1 - e.y0 + 1, c1 - c0 + 1 }
                    : (ts_rect){ c0, e.y0, c1 - c0 + 1, e.y1 - e.y0 + 1 };
}

static int px_inside(ts_rect r, int x, int y)
{
  return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h;
}

/* What thread `id` of pass `pass` was observed to read from one role's buffer, drawn on a
 * pane over its declared rectangle (drawn by the caller, solid): the observed bounding
 * rectangle dashed in green and, where it leaves the declared one, filled magenta; zoomed in
 * (a pixel 4 screen pixels or more) and for the thread observed exactly, every pixel read
 * (any of its channels) instead, green inside the declaration and magenta outside. */
static float draw_observed(viewer *v, int pane, const vw_rect *clip, const vw_obs *o, int pass,
                           uint32_t id, int role)
{
  const ts_obs_pass *op = ts_observe_pass(o->ob, pass);
  const ts_kctx *k = ts_run_kctx(v->snap.run);
  const ts_pass_desc *pd = &ts_run_params_of(v->snap.run)->variant->passes[pass];
  const ts_obs_acc *a = ts_obs_at(op, id, role, TS_ACC_READ);
  if (!op || !a->count)
    return 1e9f;
  int transposed = role == TS_ROLE_SRC && pd->src_transposed;
  int span = transposed ? k->H : k->W, cols = op->cols[role];
  if (cols % span != 0 || (role != TS_ROLE_SRC && op->buf[role] != TS_BUF_OUT))
    return 1e9f;
  int per = cols / span;
  ts_rect seen = elems_to_px(a->seen, per, transposed), decl = elems_to_px(a->declared, per, transposed);
  gfx_color in = SEEN, out = OBS_COLORS[0];
  in.a = 0.38f;
  out.a = 0.75f;
  float x, y, w, h;
  if (v->zoom >= 4 && op->chosen == id) {
    /* The pixels of the observed rectangle on screen, each tested channel by channel. */
    int px0 = (int)fmaxf((float)seen.x, floorf(v->cx - clip->w / 2 / v->zoom));
    int py0 = (int)fmaxf((float)seen.y, floorf(v->cy - clip->h / 2 / v->zoom));
    int px1 = (int)fminf((float)(seen.x + seen.w), ceilf(v->cx + clip->w / 2 / v->zoom));
    int py1 = (int)fminf((float)(seen.y + seen.h), ceilf(v->cy + clip->h / 2 / v->zoom));
    for (int py = py0; py < py1; py++)
      for (int px = px0; px < px1; px++) {
        int hit = 0;
        for (int c = 0; c < per && !hit; c++)
          hit = transposed ? ts_obs_chosen_has(op, role, TS_ACC_READ, py * per + c, px)
                           : ts_obs_chosen_has(op, role, TS_ACC_READ, px * per + c, py);
        if (!hit)
          continue;
        viewer_image_to_screen(v, pane, (float)px, (float)py, &x, &y);
        /* Apart, where a pixel is large enough for the gap to show. */
        float gap = v->zoom >= 8 ? 1 : 0;
        gfx_rect(&v->g, x + gap, y + gap, v->zoom - 2 * gap, v->zoom - 2 * gap,
                 px_inside(decl, px, py) ? in : out);
      }
  } else {
    /* The bands of the observed rectangle outside the declared one (all of it when nothing
     * is declared there). */
    ts_rect band[4] = { seen, { 0, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
    if (decl.w > 0 && decl.h > 0) {
      int sx1 = seen.x + seen.w, sy1 = seen.y + seen.h;
      int dx0 = decl.x, dy0 = decl.y, dx1 = decl.x + decl.w, dy1 = decl.y + decl.h;
      int top = dy0 < sy1 ? dy0 : sy1, bottom = dy1 > seen.y ? dy1 : seen.y;
      int left = dx0 < sx1 ? dx0 : sx1, right = dx1 > seen.x ? dx1 : seen.x;
      int my0 = seen.y > dy0 ? seen.y : dy0, my1 = sy1 < dy1 ? sy1 : dy1;
      band[0] = (ts_rect){ seen.x, seen.y, seen.w, top - seen.y };
      band[1] = (ts_rect){ seen.x, bottom, seen.w, sy1 - bottom };
      band[2] = (ts_rect){ seen.x, my0, left - seen.x, my1 - my0 };
      band[3] = (ts_rect){ right, my0, sx1 - right, my1 - my0 };
    }
    for (int i = 0; i < 4; i++)
      if (band[i].w > 0 && band[i].h > 0) {
        rect_to_screen(v, pane, band[i], &x, &y, &w, &h);
        gfx_rect(&v->g, x, y, fmaxf(w, 1), fmaxf(h, 1), out);
      }
  }
  if (role != TS_ROLE_SRC && decl.w > 0) {
    rect_to_screen(v, pane, decl, &x, &y, &w, &h);
    gfx_frame(&v->g, x - 1, y - 1, w + 2, h + 2, 2, FOOT);
  }
  rect_to_screen(v, pane, seen, &x, &y, &w, &h);
  dashed_frame(v, x - 3, y - 3, w + 6, h + 6, 2, SEEN);
  gfx_text(&v->g, FONT_SMALL, x - 3, y + h + 4, SEEN, "observed");
  return y - 3;
}

static void draw_focus(viewer *v, const vw_rect *rin, const vw_rect *rout)
{
  int pass;
  uint32_t id;
  if (!viewer_focus_thread(v, &pass, &id) || pass != shown_pass(v))
    return;
  const ts_sched *s = sched_of(v);
  const ts_pass_sched *ps = &s->pass[pass];
  const ts_pass_desc *pd = &ts_run_params_of(v->snap.run)->variant->passes[pass];
  int tx = (int)(id % (uint32_t)ps->tw), ty = (int)(id / (uint32_t)ps->tw);
  float x, y, w, h;
  /* On the input: the read footprint with its halo, and the tile inside it; with an
   * observation, what the thread really read over it (and on the output, what it read of
   * its own output, as the integral image does). */
  const vw_obs *o = viewer_obs(v);
  float top = 1e9f;
  if (o) {
    top = draw_observed(v, 0, rin, o, pass, id, TS_ROLE_SRC);
    draw_observed(v, 1, rout, o, pass, id, TS_ROLE_COMMITTED);
  }
  rect_to_screen(v, 0, pd->read_px(ts_run_kctx(v->snap.run), tx, ty), &x, &y, &w, &h);
  if (clipped(rin, x + w / 2, y + h / 2) || w > 4) {
    gfx_frame(&v->g, x - 1, y - 1, w + 2, h + 2, 2, FOOT);
    /* Above the observed frame where that one reaches higher. */
    gfx_text(&v->g, FONT_SMALL, x, o ? fminf(y - 1, top) - 14 : y - 13, FOOT,
             o ? "declared reads" : "reads");
  }
  rect_to_screen(v, 0, tile_of(v, pass, tx, ty), &x, &y, &w, &h);
  gfx_frame(&v->g, x, y, w, h, 1, WHITE);
  /* On the output: the tile, arrows to what it waits for and from what waits for it. */
  rect_to_screen(v, 1, tile_of(v, pass, tx, ty), &x, &y, &w, &h);
  gfx_frame(&v->g, x - 1, y - 1, w + 2, h + 2, 2, WHITE);
  float cx, cy;
  tile_center(v, pass, id, &cx, &cy);
  uint32_t tg[TS_PATTERN_MAX_VECTORS];
  int n = ts_sched_waits(s, pass, id, tg);
  float th = fmaxf(1.5f, fminf(3.0f, v->zoom * 0.5f));
  for (int i = 0; i < n; i++) {
    float ox, oy;
    tile_center(v, pass, tg[i], &ox, &oy);
    gfx_arrow(&v->g, cx, cy, ox, oy, th, WAITS);
  }
  n = ts_sched_waiters(s, pass, id, tg);
  for (int i = 0; i < n; i++) {
    float ox, oy;
    tile_center(v, pass, tg[i], &ox, &oy);
    gfx_arrow(&v->g, ox, oy, cx, cy, th, WAITERS);
  }
  /* Hazards: lines to the producers it read too early (the simulation's, so not here in the
   * device view, which marks wrong tiles instead). */
  size_t nh = 0;
  const ts_hazard *hz = viewer_dev(v) ? NULL : ts_run_hazards(v->snap.run, &nh);
  for (size_t i = 0; i < nh; i++)
    if (hz[i].pass == pass && hz[i].consumer == id) {
      float ox, oy;
      tile_center(v, pass, hz[i].producer, &ox, &oy);
      gfx_arrow(&v->g, ox, oy, cx, cy, th, STATE_COLORS[4]);
    }
  (void)rout;
}

static float panel_line(viewer *v, float x, float *y, gfx_color c, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static float panel_line(viewer *v, float x, float *y, gfx_color c, const char *fmt, ...)
{
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  /* Lines longer than the panel end in "..." */
  size_t fits = (size_t)((PANEL_TEXT_W) / (float)v->g.font[FONT_UI].advance);
  if (strlen(buf) > fits && fits > 3)
    memcpy(buf + fits - 3, "...", 4);
  float w = gfx_text(&v->g, FONT_UI, x, *y, c, buf);
  *y += (float)v->g.font[FONT_UI].height;
  return w;
}

/* A long line broken at spaces over as many panel lines as it needs. */
static void panel_wrap(viewer *v, float x, float *y, gfx_color c, const char *text)
{
  size_t fits = (size_t)(PANEL_TEXT_W / (float)v->g.font[FONT_UI].advance);
  while (*text) {
    size_t n = strlen(text);
    if (n > fits) {
      n = fits;
      while (n > 0 && text[n] != ' ')
        n--;
      if (n == 0)
        n = fits;
    }
    panel_line(v, x, y, c, "%.*s", (int)n, text);
    text += n;
    while (*text == ' ')
      text++;
  }
}

static void fmt_bytes(double b, char *out, size_t n)
{
  if (b >= 1e9)
    snprintf(out, n, "%.2f GB", b / 1e9);
  else if (b >= 1e6)
    snprintf(out, n, "%.2f MB", b / 1e6);
  else if (b >= 1e3)
    snprintf(out, n, "%.1f kB", b / 1e3);
  else
    snprintf(out, n, "%.0f B", b);
}

/* Bytes every thread reads (its clipped footprint) and writes, over all passes. */
static void traffic(viewer *v)
{
  if (v->stats_run == v->snap.run)
    return;
  v->stats_run = v->snap.run;
  v->bytes_read = v->bytes_written = 0;
  if (!v->snap.run)
    return;
  const ts_sched *s = ts_run_sched(v->snap.run);
  const ts_kctx *k = ts_run_kctx(v->snap.run);
  const ts_variant *var = ts_run_params_of(v->snap.run)->variant;
  for (int p = 0; p < s->npasses; p++) {
    const ts_pass_desc *pd = &var->passes[p];
    int src_px_bytes = k->C * k->buf[pd->src].esize;
    for (uint32_t id = 0; id < s->pass[p].n; id++) {
      int tx = (int)(id % (uint32_t)s->pass[p].tw), ty = (int)(id / (uint32_t)s->pass[p].tw);
      ts_rect r = pd->read_px(k, tx, ty);
      int x0 = r.x < 0 ? 0 : r.x, y0 = r.y < 0 ? 0 : r.y;
      int x1 = r.x + r.w > k->W ? k->W : r.x + r.w, y1 = r.y + r.h > k->H ? k->H : r.y + r.h;
      if (x1 > x0 && y1 > y0)
        v->bytes_read += (double)(x1 - x0) * (y1 - y0) * src_px_bytes;
      ts_rect wr = pd->write_rect(k, tx, ty);
      v->bytes_written += (double)wr.w * wr.h * k->buf[pd->dst].esize;
    }
  }
}

static void draw_bar(viewer *v, float x, float y, float w, double frac, gfx_color c)
{
  gfx_rect(&v->g, x, y, w, 8, gfx_rgba(0.25f, 0.26f, 0.3f, 1));
  gfx_rect(&v->g, x, y, (float)fmin(1.0, frac) * w, 8, frac > 1 ? WARN : c);
}

static const char *const DEV_STATE_NAMES[5] = { "to start", "waiting", "running", "done",
                                                "wrong" };

/* Three device times of one group on a panel line: units on each, or the clock named once. */
static void fmt_dev_times(const ts_dev_run *d, const ts_grec *g, char *out, size_t n)
{
  if (!d->clock_ns) {
    snprintf(out, n, "events %" PRIu64 ", %" PRIu64 ", %" PRIu64 " (start, wait, end)", g->start,
             g->waited, g->end);
    return;
  }
  char a[32], b[32], c[32];
  fmt_dev_time(d, g->start, a, sizeof a);
  fmt_dev_time(d, g->waited, b, sizeof b);
  fmt_dev_time(d, g->end, c, sizeof c);
  snprintf(out, n, "start %s, wait %s, end %s", a, b, c);
}

/* The hovered tile's record beside its simulated schedule. */
static void inspect_device(viewer *v, float x, float *y, const ts_dev_run *d, int pass, uint32_t id)
{
  const ts_thread *t = &sched_of(v)->pass[pass].t[id];
  const ts_grec *g = dev_rec(v, d, pass, id);
  char times[128], now[32];
  if (g->unit >= 0)
    panel_line(v, x, y, WHITE, "device: ticket #%u, unit %d, work-group %u", t->dispatch, g->unit,
               g->group);
  else
    panel_line(v, x, y, WHITE, "device: ticket #%u, lane %d, work-group %u", t->dispatch, g->lane,
               g->group);
  fmt_dev_times(d, g, times, sizeof times);
  panel_line(v, x, y, WHITE, "  %s", times);
  uint64_t tn = viewer_dev_time(v);
  ts_thread_state st = dev_state(g, tn);
  int wrong = pass == d->npasses - 1 && d->wrong && d->wrong[id];
  fmt_dev_time(d, tn, now, sizeof now);
  panel_line(v, x, y, STATE_COLORS[wrong && st == TS_STATE_DONE ? 4 : st], "  at %s: %s%s", now,
             DEV_STATE_NAMES[st], !wrong ? "" : st == TS_STATE_DONE ? ", WRONG (not the reference)"
                                                                 : ", wrong when done");
  panel_line(v, x, y, DIM, "simulated: dispatch #%u, depth %d, slot %d", t->dispatch, t->depth,
             t->slot);
  panel_line(v, x, y, t->hazards ? WARN : DIM,
             "  ticks %" PRId64 ", %" PRId64 ", %" PRId64 " (dispatch, start, end)%s",
             t->dispatch_tick, t->start_tick, t->end_tick, t->hazards ? ", hazard" : "");
}

/* Whether the device kept the scoreboard: every producer ended before this group's wait did. */
static void inspect_device_waits(viewer *v, float x, float *y, const ts_dev_run *d, int pass,
                                 uint32_t id, const uint32_t *tg, int n)
{
  const ts_pass_sched *ps = &sched_of(v)->pass[pass];
  const ts_grec *g = dev_rec(v, d, pass, id);
  char late[160] = "";
  for (int i = 0; i < n; i++)
    if (dev_rec(v, d, pass, tg[i])->end > g->waited)
      snprintf(late + strlen(late), sizeof late - strlen(late), " (%u,%u)",
               tg[i] % (uint32_t)ps->tw, tg[i] / (uint32_t)ps->tw);
  if (late[0])
    panel_line(v, x, y, WARN, "  ended after its wait:%s", late);
  else
    panel_line(v, x, y, WHITE, "  all ended before its wait did");
}

/* The kernels' memory against the budget, and the traffic of the whole run. */
static void draw_memory(viewer *v, float x, float *yp, const vw_rect *r, int p, int live)
{
  const ts_variant *var = ts_run_params_of(v->snap.run)->variant;
  const ts_kctx *k = ts_run_kctx(v->snap.run);
  float y = *yp;
  panel_line(v, x, &y, ACCENT, "memory per thread (budget 4 KB: one Gen9 EU thread)");
  char dev[64] = "";
  if (v->snap.have_dev_mem && live)
    snprintf(dev, sizeof dev, ", device %" PRIu64 " B", v->snap.dev_private[p]);
  panel_line(v, x, &y, WHITE, "private: declared %d B%s", var->private_bytes, dev);
  draw_bar(v, x, y, r->w - 24, (double)var->private_bytes / GEN9_THREAD_BYTES, ACCENT);
  y += 12;
  int lb = var->local_bytes ? var->local_bytes(k) : 0;
  if (v->snap.have_dev_mem && live)
    snprintf(dev, sizeof dev, ", device %" PRIu64 " B", v->snap.dev_local[p]);
  panel_line(v, x, &y, WHITE, "local per work-group: declared %d B%s", lb, dev);
  char rb[32], wb[32];
  fmt_bytes(v->bytes_read, rb, sizeof rb);
  fmt_bytes(v->bytes_written, wb, sizeof wb);
  panel_line(v, x, &y, WHITE, "traffic: %s read, %s written", rb, wb);
  *yp = y;
}

/* The device's run beside the simulated one: the record's summary and the simulator's
 * verdict on the same schedule, then the groups' states at the device time. */
static void draw_device_block(viewer *v, float x, float *y, const ts_dev_run *d)
{
  const ts_sched *s = sched_of(v);
  panel_line(v, x, y, ACCENT, "device schedule   [d] for the simulated one");
  /* Shots show no measured kernel time (it changes from run to run); the record's own
   * times are what the view draws. */
  ts_dev_run shown = *d;
  if (v->offscreen && !v->show_times)
    shown.kernel_ms = 0;
  char line[400];
  ts_dev_summary(&shown, line, sizeof line);
  panel_wrap(v, x, y, d->nwrong ? WARN : WHITE, line);
  size_t nh;
  ts_run_hazards(v->snap.run, &nh);
  panel_line(v, x, y, nh ? WARN : WHITE, "simulated: %" PRId64 " ticks, %zu hazards in %zu threads",
             s->length, nh, ts_run_hazardous_threads(v->snap.run));
  size_t nr;
  ts_run_races(v->snap.run, &nr);
  panel_line(v, x, y, nr ? WARN : WHITE, "races: %zu reads that no chain of waits orders", nr);
  if (v->record_name[0]) {
    panel_line(v, x, y, DIM, "record %s (%s)", v->record_name, d->device);
    panel_line(v, x, y, DIM, "a record holds no pixels: the output is simulated");
  }
  else
    panel_line(v, x, y, DIM, "run on %s", d->device);
  char t[48];
  fmt_dev_time(d, viewer_dev_time(v), t, sizeof t);
  const uint32_t *c = v->dev_counts;
  panel_line(v, x, y, WHITE, "at %s: %u done, %u running, %u waiting", t, c[3], c[2], c[1]);
}

/* The focused thread's observed accesses, per buffer: the rectangle (in the buffer's
 * elements: a pixel is C columns of a row) and the count of what it read and wrote, beside
 * what it declares where the two differ; then its violations, write conflicts and observed
 * hazards. Lines stop at `bottom`. */
static void inspect_observed(viewer *v, float x, float *y, float bottom, const vw_obs *o,
                             int pass, uint32_t id)
{
  const ts_obs_pass *op = ts_observe_pass(o->ob, pass);
  const ts_pass_sched *ps = &sched_of(v)->pass[pass];
  uint32_t tw = (uint32_t)ps->tw;
  float lh = (float)v->g.font[FONT_UI].height;
  if (!op || *y + lh > bottom)
    return;
  const ts_kctx *k = ts_run_kctx(v->snap.run);
  int tr = ts_run_params_of(v->snap.run)->variant->passes[pass].src_transposed;
  int span = tr ? k->H : k->W;
  int per = span > 0 && op->cols[TS_ROLE_SRC] % span == 0 ? op->cols[TS_ROLE_SRC] / span : 0;
  char unit[48] = "";
  if (per > 1)
    snprintf(unit, sizeof unit, ", %s column %c*%d+c", ts_obs_buffer_name(op->buf[TS_ROLE_SRC]),
             tr ? 'y' : 'x', per);
  panel_line(v, x, y, ACCENT, "observed%s%s", op->chosen == id ? ", every element" : "", unit);
  for (int r = 0; r < TS_NROLES; r++)
    for (int kd = 0; kd < 2; kd++) {
      const ts_obs_acc *a = ts_obs_at(op, id, r, kd);
      if (!a->count || *y + lh > bottom)
        continue;
      gfx_color c = a->outside ? OBS_COLORS[kd == TS_ACC_READ ? 0 : 1] : SEEN;
      panel_line(v, x, y, c, "%s%s %s: cols %d..%d rows %d..%d, %u",
                 ts_obs_buffer_name(op->buf[r]), r == TS_ROLE_COMMITTED ? " (own)" : "",
                 kd ? "written" : "read", a->seen.x0, a->seen.x1, a->seen.y0, a->seen.y1,
                 a->count);
      if (a->outside && *y + 2 * lh <= bottom) {
        panel_line(v, x, y, c, "  %u outside cols %d..%d rows %d..%d", a->outside,
                   a->declared.x0, a->declared.x1, a->declared.y0, a->declared.y1);
        panel_line(v, x, y, c, "  (its %s); the first: col %d row %d",
                   kd ? "write rectangle" : "footprint", a->out_col, a->out_row);
      }
    }
  if (op->oob && op->oob_tid == id && *y + lh <= bottom)
    panel_line(v, x, y, WARN, "%s %s col %d row %d: outside the buffer", op->oob_kind ? "wrote" : "read",
               ts_obs_buffer_name(op->buf[op->oob_role]), op->oob_col, op->oob_row);
  /* A write conflict: the first element of its writes that another thread wrote too. */
  const ts_obs_acc *wr = ts_obs_at(op, id, TS_ROLE_DST, TS_ACC_WRITE);
  int cols = op->cols[TS_ROLE_DST];
  for (int ry = wr->seen.y0; op->conflicts && wr->count && ry <= wr->seen.y1; ry++)
    for (int rx = wr->seen.x0; rx <= wr->seen.x1; rx++) {
      size_t e = (size_t)ry * (size_t)cols + (size_t)rx;
      uint32_t a = op->last[e], b = op->other[e];
      if (!a || !b || (a - 1 != id && b - 1 != id))
        continue;
      uint32_t w = a - 1 == id ? b - 1 : a - 1;
      if (*y + lh <= bottom)
        panel_line(v, x, y, OBS_COLORS[2], "conflict: %s col %d row %d also by (%u,%u)",
                   ts_obs_buffer_name(op->buf[TS_ROLE_DST]), rx, ry, w % tw, w / tw);
      ry = wr->seen.y1;
      break;
    }
  char hz[160] = "";
  int nhz = 0;
  for (size_t i = 0; i < o->rep.nhazards; i++) {
    const ts_hazard *h = &o->rep.hazards[i];
    if (h->pass == pass && h->consumer == id && nhz++ < 5)
      snprintf(hz + strlen(hz), sizeof hz - strlen(hz), " (%u,%u)", h->producer % tw,
               h->producer / tw);
  }
  if (nhz && *y + lh <= bottom)
    panel_line(v, x, y, OBS_COLORS[3], "observed hazard: read early from%s", hz);
}

/* The panel's text, bars and legend; its background is in the frame cache. */
static void draw_panel(viewer *v, const vw_rect *r)
{
  float x = r->x + 12, y = r->y + 10;
  const ts_variant *var = ts_variant_at(v->set.variant);
  gfx_color head = ACCENT;
  panel_line(v, x, &y, head, "%s  (%s)   [v]", var->name, ts_filter_name(var->filter));
  panel_line(v, x, &y, DIM, "%s", var->summary);
  y += 6;
  if (!v->have_snap || !v->snap.run) {
    panel_line(v, x, &y, v->snap.error[0] ? WARN : DIM, "%s",
               v->snap.error[0] ? v->snap.error : "working...");
  } else {
    /* The run shown may still be of the variant before: its passes, not the asked one's. */
    var = ts_run_params_of(v->snap.run)->variant;
    const ts_sched *s = ts_run_sched(v->snap.run);
    const ts_kctx *k = ts_run_kctx(v->snap.run);
    int p = shown_pass(v);
    const ts_dev_run *dev = viewer_dev(v);
    const ts_pass_desc *pd = &var->passes[p];
    ts_rect tile = pd->tile_px(k, 0, 0), rd = pd->read_px(k, 0, 0);
    panel_line(v, x, &y, WHITE, "pass %d of %d: %s", p + 1, s->npasses, pd->name);
    panel_line(v, x, &y, WHITE, "tile %s = %dx%d px", pd->tile, tile.w, tile.h);
    panel_line(v, x, &y, WHITE, "footprint %dx%d px, read amplification %.2fx", rd.w, rd.h,
               (double)rd.w * rd.h / ((double)tile.w * tile.h));
    y += 6;
    panel_line(v, x, &y, head, "schedule");
    panel_line(v, x, &y, WHITE, "pattern %s [p]   walk %s [w]", ts_pattern_name(s->params.pattern),
               ts_walk_name(s->params.walk));
    if (s->params.pattern != TS_PAT_NONE && s->params.walk != ts_pattern_default_walk(s->params.pattern))
      panel_line(v, x, &y, WARN, "walk is not the pattern's own: dependencies may drop");
    panel_line(v, x, &y, WHITE, "%d slots [ ]   cost %d tick%s [c]", s->params.slots,
               ts_run_params_of(v->snap.run)->cost, ts_run_params_of(v->snap.run)->cost > 1 ? "s" : "");
    panel_line(v, x, &y, WHITE, "%u threads (%dx%d), %" PRId64 " ticks", s->total, s->pass[p].tw,
               s->pass[p].th, s->length);
    panel_line(v, x, &y, WHITE, "mean %.1f running, peak %u resident",
               ts_sched_mean_running(s), s->peak_resident);
    size_t nh;
    const ts_hazard *hz = ts_run_hazards(v->snap.run, &nh);
    if (nh) {
      const ts_pass_sched *hp = &s->pass[hz[0].pass];
      panel_line(v, x, &y, WARN, "%zu hazards in %zu threads", nh, ts_run_hazardous_threads(v->snap.run));
      panel_line(v, x, &y, WARN, "  e.g. (%u,%u) read (%u,%u) before it finished",
                 hz[0].consumer % (uint32_t)hp->tw, hz[0].consumer / (uint32_t)hp->tw,
                 hz[0].producer % (uint32_t)hp->tw, hz[0].producer / (uint32_t)hp->tw);
    } else {
      panel_line(v, x, &y, WHITE, "no hazards");
    }
    if (!dev && ts_run_device_result(v->snap.run) && v->dev_run == v->snap.run)
      panel_line(v, x, &y, ACCENT, "the device's run of it: d shows it");
    y += 6;
    /* What may differ between two runs of the same options: left out of shots by default. */
    int live = !v->offscreen || v->show_times;
    traffic(v);
    if (dev)
      draw_device_block(v, x, &y, dev);
    else
      draw_memory(v, x, &y, r, p, live);
    y += 6;
    panel_line(v, x, &y, head, "device   [b]");
    /* A shot names no OpenCL device (it differs from machine to machine), unless asked. */
    if (v->snap.on_cl && !live)
      panel_line(v, x, &y, WHITE, "OpenCL (the device: --show-times)");
    else
      panel_line(v, x, &y, WHITE, "%.52s", v->snap.device);
    if (v->snap.on_cl && !live) {
      panel_line(v, x, &y, DIM, "kernel time: measured in the window (--show-times)");
    } else if (v->snap.on_cl && v->snap.kernel_ms > 0) {
      double px = (double)k->W * k->H, gbps = (v->bytes_read + v->bytes_written) / (v->snap.kernel_ms * 1e6);
      panel_line(v, x, &y, WHITE, "kernels %.3f ms, %.2f ns/px, %.2f GB/s", v->snap.kernel_ms,
                 v->snap.kernel_ms * 1e6 / px, gbps);
      if (v->snap.copy_gbps > 0)
        panel_line(v, x, &y, WHITE, "%.1f%% of the device's copy (%.1f GB/s)",
                   100.0 * gbps / v->snap.copy_gbps, v->snap.copy_gbps);
    } else if (!v->snap.on_cl) {
      panel_line(v, x, &y, DIM, "the CPU model is not timed");
    }
  }
  if (v->snap.build_log && v->snap.build_log[0]) {
    y += 6;
    panel_line(v, x, &y, WARN, "kernel build failed (r to retry):");
    /* The log, wrapped to the panel: up to ten lines. */
    int fits = (int)(PANEL_TEXT_W / (float)v->g.font[FONT_SMALL].advance);
    const char *s = v->snap.build_log;
    for (int n = 0; *s && n < 10; n++) {
      size_t len = strcspn(s, "\n");
      size_t take = len > (size_t)fits ? (size_t)fits : len;
      gfx_textf(&v->g, FONT_SMALL, x, y, WARN, "%.*s", (int)take, s);
      y += (float)v->g.font[FONT_SMALL].height;
      s += take;
      if (take == len && *s)
        s++;
    }
  }
  /* The inspector. */
  y += 8;
  gfx_rect(&v->g, r->x + 8, y - 4, r->w - 16, 1, DIM);
  panel_line(v, x, &y, head, "inspector");
  int pass;
  uint32_t id;
  if (v->hover_pane >= 0 && v->input && v->hover_x >= 0 && v->hover_y >= 0 &&
      v->hover_x < (float)v->input->w && v->hover_y < (float)v->input->h) {
    int px = (int)v->hover_x, py = (int)v->hover_y;
    char in[48] = "", out[64] = "";
    const uint8_t *ip = v->input->data + ((size_t)py * v->input->w + px) * v->input->c;
    for (int c = 0; c < v->input->c; c++)
      snprintf(in + strlen(in), sizeof in - strlen(in), "%s%u", c ? " " : "", ip[c]);
    /* The run shown may still be of the image before, of another size: NULL outside it. */
    const uint8_t *op = viewer_out_px(v, px, py);
    const ts_kctx *k = v->have_snap && v->snap.run ? ts_run_kctx(v->snap.run) : NULL;
    if (k && op && k->buf[TS_BUF_OUT].esize == 4) {
      uint32_t sum;
      memcpy(&sum, op, sizeof sum);
      snprintf(out, sizeof out, "%u", sum);
    } else if (k && op) {
      for (int c = 0; c < k->C; c++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%u", c ? " " : "", op[c]);
    }
    panel_line(v, x, &y, WHITE, "pixel (%d,%d)  in %s  out %s", px, py, in, out);
  }
  if (viewer_focus_thread(v, &pass, &id)) {
    const ts_sched *s = sched_of(v);
    const ts_pass_sched *ps = &s->pass[pass];
    const ts_thread *t = &ps->t[id];
    ts_thread_state st = ts_thread_state_at(t, v->snap.tick);
    panel_line(v, x, &y, WHITE, "thread (%u,%u) of pass %d%s", id % (uint32_t)ps->tw,
               id / (uint32_t)ps->tw, pass + 1, v->sel_pass == pass && v->sel_id == id ? "  [selected]" : "");
    const ts_dev_run *dev = viewer_dev(v);
    if (dev) {
      inspect_device(v, x, &y, dev, pass, id);
    } else {
    panel_line(v, x, &y, WHITE, "dispatch #%u, depth %d, slot %d", t->dispatch, t->depth, t->slot);
    panel_line(v, x, &y, WHITE, "ticks: dispatched %" PRId64 ", started %" PRId64 ", ends %" PRId64,
               t->dispatch_tick, t->start_tick, t->end_tick);
    panel_line(v, x, &y, STATE_COLORS[t->hazards && st >= TS_STATE_RUNNING ? 4 : st], "state at tick %" PRId64 ": %s%s",
               v->snap.tick, ts_thread_state_name(st), t->hazards ? ", HAZARD" : "");
    }
    uint32_t tg[TS_PATTERN_MAX_VECTORS];
    int n = ts_sched_waits(s, pass, id, tg);
    char ws[256] = "";
    for (int i = 0; i < n; i++)
      snprintf(ws + strlen(ws), sizeof ws - strlen(ws), "%s(%u,%u)", i ? " " : "",
               tg[i] % (uint32_t)ps->tw, tg[i] / (uint32_t)ps->tw);
    panel_line(v, x, &y, WAITS, "waits for: %s", n ? ws : "nothing");
    if (n && dev)
      inspect_device_waits(v, x, &y, dev, pass, id, tg, n);
    else if (n)
      panel_line(v, x, &y, WHITE, "  %s at its start tick", "all finished");
    size_t nh = 0;
    const ts_hazard *hz = dev ? NULL : ts_run_hazards(v->snap.run, &nh);
    ws[0] = 0;
    int nhz = 0;
    for (size_t i = 0; i < nh; i++)
      if (hz[i].pass == pass && hz[i].consumer == id && nhz++ < 6)
        snprintf(ws + strlen(ws), sizeof ws - strlen(ws), "%s(%u,%u)", nhz > 1 ? " " : "",
                 hz[i].producer % (uint32_t)ps->tw, hz[i].producer / (uint32_t)ps->tw);
    if (nhz)
      panel_line(v, x, &y, WARN, "read before they finished: %s", ws);
    /* The observation: who wrote the hovered pixel, and what the thread really touched. */
    float bottom = r->y + r->h - 72;
    const vw_obs *o = viewer_obs(v);
    int wp;
    uint32_t wid;
    if (o && v->hover_pane >= 0 && viewer_observed_writer(v, v->hover_x, v->hover_y, &wp, &wid) >= 0 &&
        y + (float)v->g.font[FONT_UI].height <= bottom) {
      if (viewer_observed_writer(v, v->hover_x, v->hover_y, &wp, &wid) == 1)
        panel_line(v, x, &y, WHITE, "pixel (%d,%d) last written by (%u,%u)", (int)v->hover_x,
                   (int)v->hover_y, wid % (uint32_t)s->pass[wp].tw, wid / (uint32_t)s->pass[wp].tw);
      else
        panel_line(v, x, &y, WARN, "pixel (%d,%d): no thread wrote it", (int)v->hover_x,
                   (int)v->hover_y);
    }
    if (o) {
      inspect_observed(v, x, &y, bottom, o, pass, id);
    } else if (v->snap.on_cl && !dev && y + (float)v->g.font[FONT_UI].height <= bottom) {
      char why[600];
      viewer_obs_why_not(v, why, sizeof why);
      panel_line(v, x, &y, DIM, "%s", why);
    }
  } else if (y < r->y + r->h - 140) {
    panel_line(v, x, &y, DIM, "hover a tile; click to select the thread");
    panel_line(v, x, &y, DIM, "that wrote a pixel. h: help");
  }
  /* The legend of the overlay. */
  const ts_dev_run *dev = viewer_dev(v);
  float ly = r->y + r->h - 64;
  gfx_rect(&v->g, r->x + 8, ly - 6, r->w - 16, 1, DIM);
  gfx_textf(&v->g, FONT_UI, x, ly, head, "overlay: %s [o]   tile grid %s [g]",
            overlay_name(v->mode, dev != NULL), v->tile_grid ? "on" : "off");
  ly += 20;
  if (v->mode == OV_STATE) {
    float lx = x;
    for (int i = 0; i < 5; i++) {
      gfx_rect(&v->g, lx, ly + 2, 12, 12, STATE_COLORS[i]);
      lx += 16 + gfx_text(&v->g, FONT_UI, lx + 16, ly, WHITE, (dev ? DEV_STATE_NAMES : STATE_NAMES)[i]) + 10;
    }
    if (dev)
      gfx_text(&v->g, FONT_SMALL, x, ly + 17, DIM,
               "wrong: a finished tile that differs from the reference (hatched)");
  } else if (v->mode == OV_ORDER || v->mode == OV_DEPTH) {
    static const float stops[5][3] = { { 0.18f, 0.05f, 0.45f }, { 0.12f, 0.35f, 0.75f },
                                       { 0.10f, 0.65f, 0.62f }, { 0.45f, 0.82f, 0.30f },
                                       { 0.99f, 0.90f, 0.15f } };
    float bw = r->w - 140;
    for (int i = 0; i < 64; i++) {
      float t = (float)i / 63 * 4;
      int k = (int)fminf(3, floorf(t));
      float f = t - (float)k;
      gfx_color c = { stops[k][0] + (stops[k + 1][0] - stops[k][0]) * f,
                      stops[k][1] + (stops[k + 1][1] - stops[k][1]) * f,
                      stops[k][2] + (stops[k + 1][2] - stops[k][2]) * f, 1 };
      gfx_rect(&v->g, x + 30 + bw * (float)i / 64, ly + 2, bw / 64 + 1, 12, c);
    }
    const ts_sched *s = sched_of(v);
    uint32_t mx = 0;
    if (s) {
      const ts_pass_sched *ps = &s->pass[shown_pass(v)];
      if (v->mode == OV_ORDER)
        mx = ps->n - 1;
      else
        for (uint32_t i = 0; i < ps->n; i++)
          mx = (uint32_t)ps->t[i].depth > mx ? (uint32_t)ps->t[i].depth : mx;
    }
    gfx_text(&v->g, FONT_UI, x, ly, WHITE, "0");
    if (dev && v->mode == OV_DEPTH) {
      const ts_dev_pass *dp = &dev->pass[shown_pass(v)];
      uint64_t mw = 0;
      for (uint32_t i = 0; i < dp->n; i++)
        mw = dp->rec[i].waited - dp->rec[i].start > mw ? dp->rec[i].waited - dp->rec[i].start : mw;
      char t[32];
      if (dev->clock_ns)
        fmt_dev_time(dev, mw, t, sizeof t);
      else
        snprintf(t, sizeof t, "%" PRIu64, mw);
      gfx_text(&v->g, FONT_UI, x + 36 + bw, ly, WHITE, t);
    } else {
      gfx_textf(&v->g, FONT_UI, x + 36 + bw, ly, WHITE, "%u", mx);
    }
    gfx_text(&v->g, FONT_SMALL, x + 30, ly + 17, DIM,
             dev ? (v->mode == OV_ORDER ? "observed order: rank of each group's start on the device"
                                        : "time waiting: from its start to the end of its wait")
                 : v->mode == OV_ORDER ? "dispatch index (first to last)" : "depth: dependency wave");
  } else if (v->mode == OV_SLOT && dev) {
    gfx_textf(&v->g, FONT_UI, x, ly, WHITE, "one hue per %s (%d)",
              dev_has_units(dev) ? "compute unit" : "logical lane", dev->lanes);
    if (!dev_has_units(dev))
      gfx_text(&v->g, FONT_SMALL, x, ly + 17, DIM,
               "no unit ids here: lanes hold the groups that overlapped");
  } else if (v->mode == OV_OBSERVED) {
    const vw_obs *o = viewer_obs(v);
    if (o) {
      float lx = x;
      for (int i = 0; i < VW_OBS_KINDS; i++) {
        char item[48];
        snprintf(item, sizeof item, "%s %u", OBS_NAMES[i], o->flagged[i]);
        gfx_rect(&v->g, lx, ly + 2, 12, 12, OBS_COLORS[i]);
        lx += 16 + gfx_text(&v->g, FONT_UI, lx + 16, ly, o->flagged[i] ? WHITE : DIM, item) + 10;
      }
      gfx_text(&v->g, FONT_SMALL, x, ly + 17, DIM,
               "threads the observed accesses flag; striped: several; dark: clean");
    } else {
      char why[600];
      viewer_obs_why_not(v, why, sizeof why);
      gfx_text(&v->g, FONT_UI, x, ly, DIM, why);
    }
  } else if (v->mode == OV_SLOT) {
    gfx_text(&v->g, FONT_UI, x, ly, WHITE, "one hue per resident thread slot");
  } else {
    gfx_text(&v->g, FONT_UI, x, ly, DIM, "no overlay");
  }
}

/* A texture drawn 1:1 at (x, y) through the image program (no overlay). */
static void draw_texture(viewer *v, GLuint tex, int w, int h, float x, float y)
{
  GLuint prog = v->g.image_prog;
  glUseProgram(prog);
#define U(name) glGetUniformLocation(prog, name)
  glUniform2f(U("u_screen"), (float)v->width, (float)v->height);
  glUniform2f(U("u_image_size"), (float)w, (float)h);
  glUniform2f(U("u_origin"), x, y);
  glUniform1f(U("u_zoom"), 1);
  glUniform4f(U("u_clip"), x, y, x + (float)w, y + (float)h);
  glUniform1i(U("u_overlay"), 0);
  glUniform1i(U("u_tile_grid"), 0);
  glUniform1i(U("u_device"), 0);
  glUniform1i(U("u_mask"), 0);
  glUniform1i(U("u_image"), 0);
#undef U
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, tex);
  float x1 = x + (float)w, y1 = y + (float)h;
  float q[12] = { x, y, x1, y, x1, y1, x, y, x1, y1, x, y1 };
  glBindVertexArray(v->g.quad_vao);
  glBindBuffer(GL_ARRAY_BUFFER, v->g.quad_vbo);
  glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof q, q);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glBindVertexArray(0);
}

/* Adds [a, b) of device time to one lane's columns (k: 0 running, 1 waiting), as the share
 * of each column's time it covers. */
static void cover(float *lane, int W, double col, uint64_t a, uint64_t b, int k)
{
  if (b <= a)
    return;
  int c0 = (int)((double)a / col), c1 = (int)((double)b / col);
  c1 = c1 >= W ? W - 1 : c1;
  for (int c = c0 < 0 ? 0 : c0; c <= c1; c++) {
    double lo = fmax((double)a, c * col), hi = fmin((double)b, (c + 1) * col);
    if (hi > lo)
      lane[c * 2 + k] += (float)((hi - lo) / col);
  }
}

/* The lanes of the device timeline, aggregated per pixel column so that thousands of groups
 * cost one texture: per column and lane the share of time its groups ran (green) and waited
 * (brown), and per column the groups in flight. Made once per run and size. */
static void build_gantt(viewer *v, const ts_dev_run *d, int W, int H)
{
  if (W < 1 || H < 1 || (v->gantt_run == v->snap.run && v->gantt_w == W && v->gantt_h == H))
    return;
  int L = d->lanes > 0 ? d->lanes : 1;
  float *cell = calloc((size_t)L * W * 2, sizeof *cell);
  float *flight = realloc(v->gantt_flight, (size_t)W * 2 * sizeof *flight);
  uint8_t *px = malloc((size_t)W * H * 4);
  if (flight)
    v->gantt_flight = flight;
  if (!cell || !flight || !px) {
    free(cell);
    free(px);
    return;
  }
  double col = (double)(d->t_end > 0 ? d->t_end : 1) / W;
  for (int p = 0; p < d->npasses; p++)
    for (uint32_t t = 0; t < d->pass[p].n; t++) {
      const ts_grec *g = &d->pass[p].rec[t];
      int l = g->lane < 0 ? 0 : g->lane >= L ? L - 1 : g->lane;
      cover(cell + (size_t)l * W * 2, W, col, g->start, g->waited, 1);
      cover(cell + (size_t)l * W * 2, W, col, g->waited, g->end, 0);
    }
  float peak = 0;
  memset(flight, 0, (size_t)W * 2 * sizeof *flight);
  for (int l = 0; l < L; l++)
    for (int c = 0; c < W; c++) {
      const float *e = cell + ((size_t)l * W + c) * 2;
      flight[c] += e[0];
      flight[W + c] += e[1];
      peak = fmaxf(peak, e[0] + e[1]);
    }
  v->gantt_peak = 0;
  for (int c = 0; c < W; c++)
    v->gantt_peak = fmaxf(v->gantt_peak, flight[c] + flight[W + c]);
  /* Rows: a lane per band of rows (a dark line between bands when they are tall enough), or
   * several lanes per row, averaged. */
  const float bg[3] = { 0.14f, 0.15f, 0.18f }, run[3] = { 0.2f, 0.8f, 0.32f },
              wait[3] = { 0.85f, 0.55f, 0.12f };
  for (int y = 0; y < H; y++) {
    int l0 = (int)((int64_t)y * L / H), l1 = (int)((int64_t)(y + 1) * L / H);
    l1 = l1 > l0 ? l1 : l0 + 1;
    int gap = L <= H / 4 && (int)((int64_t)(y + 1) * L / H) != l0;
    for (int c = 0; c < W; c++) {
      float r = 0, w = 0;
      for (int l = l0; l < l1; l++) {
        r += cell[((size_t)l * W + c) * 2];
        w += cell[((size_t)l * W + c) * 2 + 1];
      }
      r /= (float)(l1 - l0);
      w /= (float)(l1 - l0);
      float in = peak > 0 ? fminf(1, (r + w) / peak) : 0;
      uint8_t *o = px + ((size_t)y * W + c) * 4;
      for (int k = 0; k < 3; k++) {
        float fg = r + w > 0 ? (run[k] * r + wait[k] * w) / (r + w) : bg[k];
        float val = gap ? bg[k] * 0.6f : bg[k] + (fg - bg[k]) * (in > 0 ? 0.35f + 0.65f * in : 0);
        o[k] = (uint8_t)lroundf(fminf(1, val) * 255);
      }
      o[3] = 255;
    }
  }
  glBindTexture(GL_TEXTURE_2D, v->gantt_tex);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
  tex_params(4, 1);
  free(px);
  free(cell);
  v->gantt_run = v->snap.run;
  v->gantt_w = W;
  v->gantt_h = H;
}

/* The transient status message at the right of the timeline's header row, which ends at
 * header_end: smaller and over a background where it would run into the header. */
static void draw_status(viewer *v, const vw_rect *r, float header_end)
{
  if (!v->status[0] || !(v->offscreen || SDL_GetTicks() < v->status_until))
    return;
  int font = FONT_UI;
  float w = (float)gfx_text_width(&v->g, font, v->status), x = r->x + r->w - 10 - w;
  if (x < header_end + 20) {
    font = FONT_SMALL;
    w = (float)gfx_text_width(&v->g, font, v->status);
    x = r->x + r->w - 10 - w;
    gfx_rect(&v->g, x - 6, r->y + 4, w + 12, 22, BG);
  }
  gfx_text(&v->g, font, x, r->y + 8, FOOT, v->status);
}

/* The device timeline's part that changes only with the run (the frame cache keeps it): the
 * background, groups in flight over device time, one lane per compute unit (or logical
 * lane), the passes' bounds. */
static void draw_dev_timeline_graph(viewer *v, const vw_rect *r, const ts_dev_run *d)
{
  float gx = r->x + 10, gw = floorf(r->w - 20), fy = r->y + 30, fh = 44;
  float ly = fy + fh + 6, lh = floorf(r->y + r->h - 22 - ly);
  double te = (double)(d->t_end > 0 ? d->t_end : 1);
  gfx_rect(&v->g, r->x, r->y, r->w, r->h, BG);
  gfx_rect(&v->g, r->x, r->y, r->w, 1, DIM);
  int W = (int)gw, H = (int)lh;
  build_gantt(v, d, W, H);
  gfx_rect(&v->g, gx, fy, gw, fh, gfx_rgba(0.14f, 0.15f, 0.18f, 1));
  if (v->gantt_run == v->snap.run && v->gantt_w == W) {
    float scale = v->gantt_peak > 0 ? v->gantt_peak : 1;
    for (int c = 0; c < W; c++) {
      float run = v->gantt_flight[c], all = run + v->gantt_flight[W + c];
      float ha = fh * all / scale, hr = fh * run / scale;
      gfx_rect(&v->g, gx + (float)c, fy + fh - ha, 1, ha, gfx_rgba(0.35f, 0.28f, 0.12f, 1));
      gfx_rect(&v->g, gx + (float)c, fy + fh - hr, 1, hr, gfx_rgba(0.2f, 0.75f, 0.3f, 1));
    }
    /* The lanes are a texture: what is batched so far is drawn first, then it. */
    gfx_flush(&v->g);
    draw_texture(v, v->gantt_tex, W, H, gx, ly);
  }
  for (int p = 1; p < d->npasses; p++) {
    float px = gx + gw * (float)((double)v->dev_pass_end[p - 1] / te);
    gfx_rect(&v->g, px, fy - 4, 1, ly + lh - fy + 8, ACCENT);
    gfx_textf(&v->g, FONT_SMALL, px + 3, fy, ACCENT, "pass %d", p + 1);
  }
}

/* The device timeline over its graph: the hovered tile's bar outlined, the cursor at the
 * device time, the header and the key. Layer 0 is the graph alone, layer 1 the rest. */
static void draw_dev_timeline(viewer *v, const vw_rect *r, const ts_dev_run *d, int layer)
{
  if (layer == 0) {
    draw_dev_timeline_graph(v, r, d);
    return;
  }
  float gx = r->x + 10, gw = floorf(r->w - 20), fy = r->y + 30, fh = 44;
  float ly = fy + fh + 6, lh = floorf(r->y + r->h - 22 - ly);
  double te = (double)(d->t_end > 0 ? d->t_end : 1);
  int pass;
  uint32_t id;
  if (viewer_focus_thread(v, &pass, &id) && pass == shown_pass(v)) {
    const ts_grec *g = dev_rec(v, d, pass, id);
    int L = d->lanes > 0 ? d->lanes : 1;
    float y0 = ly + floorf((float)g->lane * lh / (float)L), y1 = ly + floorf((float)(g->lane + 1) * lh / (float)L);
    float x0 = gx + gw * (float)((double)g->start / te), x1 = gx + gw * (float)((double)g->end / te);
    gfx_frame(&v->g, x0 - 2, y0 - 2, fmaxf(x1 - x0, 1) + 4, fmaxf(y1 - y0, 1) + 4, 1, WHITE);
  }
  uint64_t now = viewer_dev_time(v);
  float cx = gx + gw * (float)((double)now / te);
  gfx_rect(&v->g, cx - 1, fy - 6, 2, ly + lh - fy + 12, WHITE);
  char tn[32], tend[32];
  fmt_dev_time(d, now, tn, sizeof tn);
  fmt_dev_time(d, d->t_end, tend, sizeof tend);
  const uint32_t *c = v->dev_counts;
  char hdr[256];
  snprintf(hdr, sizeof hdr, "device time %s of %s   in flight %u (%u waiting), %u done   %s", tn,
           tend, c[1] + c[2], c[1], c[3], v->playing ? "playing" : "paused");
  gfx_text(&v->g, FONT_UI, r->x + 10, r->y + 8, WHITE, hdr);
  gfx_textf(&v->g, FONT_SMALL, gx, ly + lh + 5, DIM,
            "groups in flight: green past their wait, brown waiting; below, one lane per %s (%d)%s; "
            "click or drag to scrub",
            dev_has_units(d) ? "compute unit" : "logical lane", d->lanes,
            d->clock_ns ? "" : ", logical clock");
  draw_status(v, r, r->x + 10 + (float)gfx_text_width(&v->g, FONT_UI, hdr));
}

/* The timeline; layer 0 is what changes only with the run (the frame cache keeps it: the
 * background and the occupancy graph), layer 1 the rest. */
static void draw_timeline(viewer *v, const vw_rect *r, int layer)
{
  const ts_dev_run *dev = viewer_dev(v);
  if (dev) {
    draw_dev_timeline(v, r, dev, layer);
    return;
  }
  const ts_sched *s = sched_of(v);
  float gx = r->x + 10, gw = r->w - 20, gy = r->y + 30, gh = r->h - 60, header_end = r->x;
  int64_t tick = v->have_snap ? v->snap.tick : 0;
  if (layer == 0) {
    gfx_rect(&v->g, r->x, r->y, r->w, r->h, BG);
    gfx_rect(&v->g, r->x, r->y, r->w, 1, DIM);
    gfx_rect(&v->g, gx, gy, gw, gh, gfx_rgba(0.14f, 0.15f, 0.18f, 1));
  }
  if (layer == 0 && s && s->length > 0) {
    float scale = (float)(s->peak_resident > 0 ? s->peak_resident : 1);
    for (int i = 0; i < (int)gw; i++) {
      int64_t t = (int64_t)((double)i / gw * (double)s->length);
      uint32_t res, run;
      ts_sched_occupancy(s, t, &res, &run);
      float hr = gh * (float)res / scale, hu = gh * (float)run / scale;
      gfx_rect(&v->g, gx + (float)i, gy + gh - hr, 1, hr, gfx_rgba(0.35f, 0.28f, 0.12f, 1));
      gfx_rect(&v->g, gx + (float)i, gy + gh - hu, 1, hu, gfx_rgba(0.2f, 0.75f, 0.3f, 1));
    }
    for (int p = 1; p < s->npasses; p++) {
      float px = gx + gw * (float)s->pass[p].t_begin / (float)s->length;
      gfx_rect(&v->g, px, gy - 4, 1, gh + 8, ACCENT);
      gfx_textf(&v->g, FONT_SMALL, px + 3, gy, ACCENT, "pass %d", p + 1);
    }
  }
  if (layer == 0)
    return;
  if (s && s->length > 0) {
    float cx = gx + gw * (float)tick / (float)s->length;
    gfx_rect(&v->g, cx - 1, gy - 6, 2, gh + 12, WHITE);
    uint32_t res, run;
    ts_sched_occupancy(s, tick, &res, &run);
    char hdr[256];
    snprintf(hdr, sizeof hdr,
             "tick %" PRId64 " of %" PRId64 "   running %u, resident %u of %d slots   %s %d ticks/s",
             tick, s->length, run, res, s->params.slots, v->playing ? "playing" : "paused",
             (int[]){ 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 }[v->speed_index]);
    gfx_text(&v->g, FONT_UI, r->x + 10, r->y + 8, WHITE, hdr);
    header_end = r->x + 10 + (float)gfx_text_width(&v->g, FONT_UI, hdr);
    gfx_text(&v->g, FONT_SMALL, gx, gy + gh + 4, DIM,
             "occupancy: green running, brown resident and waiting; click or drag to scrub");
  }
  draw_status(v, r, header_end);
}

static void draw_help(viewer *v)
{
  static const char *const lines[] = {
    "space      play / pause",          "left right step one tick (shift: 10)",
    "home end   first / last tick",     "+ -        play speed",
    "v V        next / previous variant", "p P        cycle dependency pattern",
    "w W        cycle walk",            "[ ]        halve / double the slots",
    "c C        cost per thread up / down", "b          back end: OpenCL / CPU model",
    "d          device view / simulated view",
    "r          reload the kernels",    "o O        overlay: state order depth slot observed",
    "g          tile grid",             "f 1        fit / one to one",
    "wheel drag zoom about the cursor / pan", "click      select the thread that wrote a pixel",
    "s          screenshot",            "h F1       this help",
    "q esc      quit",                  "drop a PNG on the window to open it",
  };
  int n = (int)(sizeof lines / sizeof lines[0]);
  float lh = (float)v->g.font[FONT_UI].height;
  float w = 460, h = lh * (float)n + 56;
  float x = ((float)v->width - w) / 2, y = ((float)v->height - h) / 2;
  gfx_rect(&v->g, x, y, w, h, gfx_rgba(0.05f, 0.06f, 0.08f, 0.93f));
  gfx_frame(&v->g, x, y, w, h, 1, ACCENT);
  gfx_text(&v->g, FONT_UI, x + 16, y + 12, ACCENT, "tilescope keys");
  for (int i = 0; i < n; i++)
    gfx_text(&v->g, FONT_UI, x + 16, y + 40 + lh * (float)i, WHITE, lines[i]);
}

double viewer_phase_clock(const viewer *v)
{
  if (v->profile == 2) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
  }
  return (double)SDL_GetPerformanceCounter() * 1e3 / (double)SDL_GetPerformanceFrequency();
}

void viewer_phase(viewer *v, int ph)
{
  if (!v->profile)
    return;
  glFinish();
  double t = viewer_phase_clock(v);
  if (ph >= 0 && ph < PH_COUNT && v->phase_t > 0)
    v->phase_ms[ph] += t - v->phase_t;
  v->phase_t = t;
}

/* The frame cache's framebuffer, of the window's size; 0 when it cannot be made (then every
 * frame draws everything). */
static GLuint cache_fbo(viewer *v)
{
  if (v->cache_fbo && v->cache_w == v->width && v->cache_h == v->height)
    return v->cache_fbo;
  if (v->cache_fbo) {
    glDeleteFramebuffers(1, &v->cache_fbo);
    glDeleteTextures(1, &v->cache_tex);
  }
  memset(v->pane_keys, 0, sizeof v->pane_keys);
  v->cache_ui_ok = 0;
  glGenFramebuffers(1, &v->cache_fbo);
  glGenTextures(1, &v->cache_tex);
  glBindTexture(GL_TEXTURE_2D, v->cache_tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, v->width, v->height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               NULL);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, v->cache_fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, v->cache_tex, 0);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    glDeleteFramebuffers(1, &v->cache_fbo);
    glDeleteTextures(1, &v->cache_tex);
    v->cache_fbo = v->cache_tex = 0;
  }
  v->cache_w = v->width;
  v->cache_h = v->height;
  return v->cache_fbo;
}

/* A clear of screen rectangle r (origin top-left) to c. */
static void clear_rect(const viewer *v, const vw_rect *r, gfx_color c)
{
  glEnable(GL_SCISSOR_TEST);
  glScissor((GLint)r->x, v->height - (GLint)(r->y + r->h), (GLsizei)r->w, (GLsizei)r->h);
  glClearColor(c.r, c.g, c.b, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
}

/* The hovered thread's tile (x, y in its thread space), to highlight; 0 when none. */
static int hover_tile(const viewer *v, float *xy)
{
  int hp;
  uint32_t hid;
  if (!v->have_snap || !v->snap.run || v->hover_pane < 0 ||
      !viewer_thread_at(v, v->hover_x, v->hover_y, &hp, &hid))
    return 0;
  uint32_t tw = (uint32_t)sched_of(v)->pass[hp].tw;
  xy[0] = (float)(hid % tw);
  xy[1] = (float)(hid / tw);
  return 1;
}

/* The output pane again where the hovered tile lies, with it highlighted: the same quad as
 * the whole pane's (so the same interpolated positions), cut by a scissor. */
static void draw_hover(viewer *v, const vw_pane_key *k)
{
  float xy[2];
  int pass;
  uint32_t id;
  if (!k->drawn || k->overlay == 0 || k->quad[2] <= k->quad[0] || !hover_tile(v, xy) ||
      !viewer_thread_at(v, v->hover_x, v->hover_y, &pass, &id))
    return;
  float x, y, w, h;
  rect_to_screen(v, 1, tile_of(v, pass, (int)xy[0], (int)xy[1]), &x, &y, &w, &h);
  float x0 = fmaxf(floorf(x) - 1, k->quad[0]), y0 = fmaxf(floorf(y) - 1, k->quad[1]);
  float x1 = fminf(ceilf(x + w) + 1, k->quad[2]), y1 = fminf(ceilf(y + h) + 1, k->quad[3]);
  if (x1 <= x0 || y1 <= y0)
    return;
  glEnable(GL_SCISSOR_TEST);
  glScissor((GLint)x0, v->height - (GLint)y1, (GLsizei)(x1 - x0), (GLsizei)(y1 - y0));
  draw_pane(v, k, xy);
  glDisable(GL_SCISSOR_TEST);
}

/* Brings the frame cache up to date (the panes without the hover; the panel's background and
 * the timeline's graph) and copies it into the frame; returns 0 when there is no cache (then
 * the caller draws those parts itself). */
static int draw_cached(viewer *v, const vw_rect *rin, const vw_rect *rout, const vw_rect *panel,
                       const vw_rect *tl, const float *norm)
{
  GLuint fbo = cache_fbo(v);
  if (!fbo)
    return 0;
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  vw_pane_key k[2];
  pane_key(v, 0, rin, norm, &k[0]);
  pane_key(v, 1, rout, norm, &k[1]);
  /* Each pane with what lies above it and, for the input's, the gap between them. */
  vw_rect region[2] = { { 0, 0, rout->x, tl->y }, { rout->x, 0, panel->x - rout->x, tl->y } };
  for (int i = 0; i < 2; i++)
    if (memcmp(&k[i], &v->pane_keys[i], sizeof k[i]) != 0) {
      clear_rect(v, &region[i], BG);
      glDisable(GL_BLEND);
      draw_pane(v, &k[i], NULL);
      v->pane_keys[i] = k[i];
    }
  viewer_phase(v, PH_PANES);
  vw_ui_key u = { .w = v->width, .h = v->height, .device = viewer_dev(v) != NULL,
                  .run = v->have_snap && v->snap.run ? v->run_ident : 0 };
  if (!v->cache_ui_ok || memcmp(&u, &v->ui_key, sizeof u) != 0) {
    gfx_begin(&v->g, v->width, v->height);
    gfx_rect(&v->g, panel->x, panel->y, panel->w, panel->h, PANEL);
    draw_timeline(v, tl, 0);
    gfx_flush(&v->g);
    v->ui_key = u;
    v->cache_ui_ok = 1;
  }
  viewer_phase(v, PH_BATCH);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, v->fbo);
  glBlitFramebuffer(0, 0, v->width, v->height, 0, 0, v->width, v->height, GL_COLOR_BUFFER_BIT,
                    GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, v->fbo);
  viewer_phase(v, PH_SHOW);
  glDisable(GL_BLEND);
  draw_hover(v, &k[1]);
  viewer_phase(v, PH_PANES);
  return 1;
}

void render_frame(viewer *v)
{
  glBindFramebuffer(GL_FRAMEBUFFER, v->fbo);
  glViewport(0, 0, v->width, v->height);
  glDisable(GL_DEPTH_TEST);
  upload_images(v);
  float norm[3] = { 1, 1, 1 };
  update_threads(v, norm);
  viewer_phase(v, PH_UPLOAD);
  vw_rect rin, rout, panel, tl;
  viewer_layout(v, &rin, &rout, &panel, &tl);
  int cached = draw_cached(v, &rin, &rout, &panel, &tl, norm);
  if (!cached) {
    glClearColor(BG.r, BG.g, BG.b, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_BLEND);
    vw_pane_key k[2];
    float xy[2];
    int hover = hover_tile(v, xy);
    pane_key(v, 0, &rin, norm, &k[0]);
    pane_key(v, 1, &rout, norm, &k[1]);
    draw_pane(v, &k[0], hover ? xy : NULL);
    draw_pane(v, &k[1], hover ? xy : NULL);
    viewer_phase(v, PH_PANES);
  }

  /* What is drawn over the panes, cut to them (the titles, panel and timeline drawn after
   * it covered the rest before the cache, and must still). */
  gfx_begin(&v->g, v->width, v->height);
  want_values(v, &rout);
  draw_pixel_values(v, 0, &rin);
  draw_pixel_values(v, 1, &rout);
  draw_tile_labels(v, &rout);
  draw_focus(v, &rin, &rout);
  if (cached) {
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, v->height - (GLint)tl.y, (GLsizei)panel.x, (GLsizei)(tl.y - rin.y));
    gfx_flush(&v->g);
    glDisable(GL_SCISSOR_TEST);
  } else {
    gfx_rect(&v->g, panel.x, panel.y, panel.w, panel.h, PANEL);
  }
  /* Titles over the panes. */
  gfx_rect(&v->g, 0, 0, rin.w + rout.w + 2, rin.y, PANEL);
  const char *slash = strrchr(v->input_name, '/');
  if (v->input)
    gfx_textf(&v->g, FONT_UI, rin.x + 8, 4, WHITE, "input  %s  %dx%d, %d channel%s   zoom %.0f%%",
              slash ? slash + 1 : v->input_name, v->input->w, v->input->h, v->input->c,
              v->input->c > 1 ? "s" : "", v->zoom * 100);
  /* A long input title stops at its pane. */
  gfx_rect(&v->g, rout.x - 2, 0, rout.w + 2, rin.y, PANEL);
  const ts_dev_run *dev = viewer_dev(v);
  if (dev) {
    char pass[48] = "", tn[32], te[32];
    if (dev->npasses > 1)
      snprintf(pass, sizeof pass, "   pass %d of %d", shown_pass(v) + 1, dev->npasses);
    fmt_dev_time(dev, viewer_dev_time(v), tn, sizeof tn);
    fmt_dev_time(dev, dev->t_end, te, sizeof te);
    gfx_textf(&v->g, FONT_UI, rout.x + 8, 4, WHITE, "device at %s / %s%s", tn, te, pass);
  } else if (v->have_snap && v->snap.run) {
    const ts_sched *s = sched_of(v);
    char pass[48] = "";
    if (s->npasses > 1)
      snprintf(pass, sizeof pass, "   pass %d of %d", shown_pass(v) + 1, s->npasses);
    gfx_textf(&v->g, FONT_UI, rout.x + 8, 4, WHITE, "output at tick %" PRId64 " / %" PRId64 "%s",
              v->snap.tick, s->length, pass);
  } else if (v->have_snap && v->snap.error[0]) {
    /* The error, wrapped to the pane. */
    int fits = (int)((rout.w - 24) / (float)v->g.font[FONT_UI].advance);
    const char *e = v->snap.error;
    for (float ey = rout.y + 12; *e && fits > 8; ey += (float)v->g.font[FONT_UI].height) {
      int take = (int)strlen(e) > fits ? fits : (int)strlen(e);
      gfx_textf(&v->g, FONT_UI, rout.x + 12, ey, WARN, "%.*s", take, e);
      e += take;
    }
  }
  gfx_rect(&v->g, rin.x + rin.w, 0, 2, rin.y + rin.h, BG);
  draw_panel(v, &panel);
  if (!cached)
    draw_timeline(v, &tl, 0);
  draw_timeline(v, &tl, 1);
  if (v->help)
    draw_help(v);
  viewer_phase(v, PH_BATCH);
  gfx_flush(&v->g);
  viewer_phase(v, PH_UI);

  if (!v->offscreen) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, v->fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, v->width, v->height, 0, 0, v->width, v->height, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}
