/* The drawing's GL resources (gl_resources.h): the image textures (input, output, the
 * device's output) made once per size with room for their mipmaps, updated by the rows a step
 * changed and their mipmaps made again only where they changed (make_mipmaps); the threads'
 * textures of the pass shown; the frame's framebuffer and the frame cache's. What they are
 * made from comes from the scene; nothing here reads the viewer. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_resources.h"

/* An image texture of c channels (1 and 2 drawn as grey, 3 as RGB, 4 as RGB with its alpha
 * ignored), uploaded from the pixels as they are: no RGBA copy, and a grey image takes a
 * quarter of the memory. Level 0 is drawn texel by texel when magnified; when minified the
 * shader reads the mipmaps (made on the first minified draw after a change, see
 * bind_image), so a zone plate at 7% does not alias into false rings. */
static const GLenum px_format[5] = { 0, GL_RED, GL_RG, GL_RGB, GL_RGBA };
/* RGB is kept as RGBA: llvmpipe stores RGB8 in four bytes a texel anyway, and converts RGB
 * rows slowly as they come; they are widened here a band at a time and copied as they are. */
static const GLenum internal[5] = { 0, GL_R8, GL_RG8, GL_RGBA8, GL_RGBA8 };

void gl_tex_params(int c, int levels)
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
  gl_tex_params(c, levels);
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

int gl_output_rows(vw_run_tex *t, const vw_snapshot *s, int whole)
{
  const ts_kctx *k = ts_run_kctx(s->run);
  const ts_buf *b = &k->buf[TS_BUF_OUT];
  if (!b->data)
    return 0;
  int fresh = tex_storage(&t->img[1], k->W, k->H, b->esize == 4 ? 1 : k->C);
  if (fresh || s->full || whole) {
    upload_values(&t->img[1], b->data, b->esize, 0, 0, k->W, k->H, s->scale);
  } else {
    for (int i = 0; i < s->nrects; i++) {
      const ts_rect *r = &s->rects[i];
      upload_values(&t->img[1], b->data, b->esize, r->x, r->y, r->x + r->w, r->y + r->h,
                    s->scale);
    }
  }
  return 1;
}

void gl_bind_image(vw_gl *gl, vw_run_tex *rt, float zoom, int i)
{
  vw_tex *t = &rt->img[i];
  glBindTexture(GL_TEXTURE_2D, t->id);
  if (zoom < 1 && (t->all_dirty || t->ndirty) && t->id) {
    vw_phase(&gl->ph, PH_PANES);
    make_mipmaps(t);
    vw_phase(&gl->ph, PH_MIPS);
  }
  /* Without mipmaps a mipmapping filter would leave the texture incomplete (black). */
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                  zoom < 1 ? GL_LINEAR_MIPMAP_LINEAR : GL_NEAREST);
}

/* Whether every work-group of the pass shown that wrote has ended by tick t (or there is no
 * record to step): plain_view_output_at would then mask nothing. */
static int plain_all_ended(const plain_view *pv, uint32_t t)
{
  const ts_plain_launch *L = plain_view_launch(pv);
  for (uint32_t g = 0; plain_view_ticks(pv) && g < L->ngroups_all; g++) {
    const ts_plain_group *G = &L->groups[g];
    if (G->wrote.x1 >= G->wrote.x0 && G->wrote.y1 >= G->wrote.y0 && !(G->end && G->end <= t))
      return 0;
  }
  return 1;
}

/* A plain kernel's output as it stood at the tick shown: made whole with each result or
 * pass, and after that again only where a work-group's end lies between the tick uploaded
 * and the tick shown (plain_view_changed_between). */
static void upload_plain(vw_run_tex *t, const vw_scene *s)
{
  const plain_view *pv = s->plain;
  const ts_image *o = pv->res ? pv->res->out : NULL;
  if (!o)
    return;
  int whole = t->plain_serial != pv->serial || t->plain_pass != pv->pass;
  ts_plain_rect box = { 0, 0, o->w - 1, o->h - 1 };
  if (!whole && (t->plain_tick == s->plain_tick ||
                 !plain_view_changed_between(pv, t->plain_tick, s->plain_tick, &box))) {
    t->plain_tick = s->plain_tick;
    return;
  }
  if (tex_storage(&t->img[1], o->w, o->h, o->c) || whole)
    box = (ts_plain_rect){ 0, 0, o->w - 1, o->h - 1 };
  box.x0 = box.x0 < 0 ? 0 : box.x0;
  box.y0 = box.y0 < 0 ? 0 : box.y0;
  box.x1 = box.x1 >= o->w ? o->w - 1 : box.x1;
  box.y1 = box.y1 >= o->h ? o->h - 1 : box.y1;
  t->plain_serial = pv->serial;
  t->plain_pass = pv->pass;
  t->plain_tick = s->plain_tick;
  if (plain_all_ended(pv, s->plain_tick)) { /* nothing masked: the output as it is, uncopied */
    upload_values(&t->img[1], o->data, 1, box.x0, box.y0, box.x1 + 1, box.y1 + 1, 0);
    return;
  }
  size_t need = (size_t)o->w * (size_t)o->h * (size_t)o->c;
  if (need > t->plain_cap) {
    uint8_t *b = realloc(t->plain_buf, need);
    if (!b)
      return;
    t->plain_buf = b;
    t->plain_cap = need;
  }
  plain_view_output_at(pv, s->plain_tick, box.x0, box.y0, box.x1 + 1, box.y1 + 1, t->plain_buf);
  upload_values(&t->img[1], t->plain_buf, 1, box.x0, box.y0, box.x1 + 1, box.y1 + 1, 0);
}

void gl_upload_images(vw_run_tex *t, const vw_scene *s)
{
  const ts_image *in = s->input;
  if (in && s->split_side != 2 && t->in_uploaded != s->input_generation) {
    tex_storage(&t->img[0], in->w, in->h, in->c);
    upload_values(&t->img[0], in->data, 1, 0, 0, in->w, in->h, 0);
    t->in_uploaded = s->input_generation;
  }
  if (s->plain)
    upload_plain(t, s);
  if (s->dev_out && s->dev_out_run && t->dev_serial != s->dev_out_serial) {
    const ts_kctx *k = ts_run_kctx(s->dev_out_run);
    int esize = k->buf[TS_BUF_OUT].esize;
    tex_storage(&t->img[2], k->W, k->H, esize == 4 ? 1 : k->C);
    upload_values(&t->img[2], s->dev_out, esize, 0, 0, k->W, k->H, s->dev_out_scale);
    t->dev_serial = s->dev_out_serial;
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
static const uint32_t *dev_ranks(vw_run_tex *t, const vw_scene *s, int p)
{
  const ts_pass_sched *ps = &s->sched->pass[p];
  if (t->rank_run == s->run_ident && t->rank_pass == p)
    return t->dev_rank;
  start_key *k = malloc((size_t)ps->n * sizeof *k + 1);
  if (ps->n > t->dev_rank_cap) {
    uint32_t *r = realloc(t->dev_rank, (size_t)ps->n * sizeof *r);
    if (r) {
      t->dev_rank = r;
      t->dev_rank_cap = ps->n;
    }
  }
  if (!k || ps->n > t->dev_rank_cap) {
    free(k);
    return NULL;
  }
  for (uint32_t i = 0; i < ps->n; i++)
    k[i] = (start_key){ s->dev->pass[p].rec[i].start, i };
  qsort(k, ps->n, sizeof *k, cmp_start);
  for (uint32_t r = 0; r < ps->n; r++)
    t->dev_rank[ps->order[k[r].ticket]] = r;
  free(k);
  t->rank_run = s->run_ident;
  t->rank_pass = p;
  return t->dev_rank;
}

/* The threads of the pass shown are two textures: thr_tex, one RGBA32F texel a thread with
 * what changes only with the run, pass or observation (made again then), and state_tex,
 * one byte a thread, its state at the tick or device time (made again at each). The shader
 * adds the byte to the texel's alpha, which gives the one value it reads. */
static void upload_static(vw_run_tex *t, const ts_pass_sched *ps, const float *texels)
{
  glBindTexture(GL_TEXTURE_2D, t->thr_tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, ps->tw, ps->th, 0, GL_RGBA, GL_FLOAT, texels);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  t->thr_serial++;
}

static void upload_states(vw_run_tex *t, const ts_pass_sched *ps)
{
  glBindTexture(GL_TEXTURE_2D, t->state_tex);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8UI, ps->tw, ps->th, 0, GL_RED_INTEGER, GL_UNSIGNED_BYTE,
               t->thr_state);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  t->thr_serial++;
}

/* The byte a thread of the pass; 0 when out of memory. */
static int state_bytes(vw_run_tex *t, uint32_t n)
{
  if (n <= t->thr_cap)
    return 1;
  uint8_t *b = realloc(t->thr_state, n ? n : 1);
  if (!b)
    return 0;
  t->thr_state = b;
  t->thr_cap = n;
  return 1;
}

/* The device view's threads: observed order, time waiting, lane and +4 for a wrong tile;
 * the state at the device time. */
static void update_threads_device(vw_run_tex *t, const vw_scene *s, float *norm)
{
  const ts_dev_run *d = s->dev;
  int p = s->pass;
  const ts_pass_sched *ps = &s->sched->pass[p];
  const ts_dev_pass *dp = &d->pass[p];
  uint64_t now = s->dev_time;
  if (!(t->thr_run == s->run_ident && t->thr_dev && t->thr_pass == p)) {
    float *tx = malloc((size_t)ps->n * 4 * sizeof *tx + 1);
    if (!tx || !state_bytes(t, ps->n)) {
      free(tx);
      return;
    }
    const uint32_t *rank = dev_ranks(t, s, p);
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
    upload_static(t, ps, tx);
    free(tx);
    t->thr_norm[0] = (float)(ps->n > 1 ? ps->n - 1 : 1);
    t->thr_norm[1] = (float)maxw;
    t->thr_norm[2] = (float)(d->lanes > 1 ? d->lanes - 1 : 1);
    t->thr_run = s->run_ident;
    t->thr_pass = p;
    t->thr_dev = 1;
    t->thr_dev_time = -1;
  }
  memcpy(norm, t->thr_norm, sizeof t->thr_norm);
  if (t->thr_dev_time == (int64_t)now)
    return;
  for (uint32_t id = 0; id < ps->n; id++) {
    int st = vw_dev_state(d, p, &dp->rec[ps->t[id].dispatch], now);
    /* the shader's state byte: 0..3, and an aggregate out as running + 8 */
    t->thr_state[id] = (uint8_t)(st == VW_DEV_PUBLISHED ? 8 + TS_STATE_RUNNING : st);
  }
  upload_states(t, ps);
  t->thr_dev_time = (int64_t)now;
}

/* The simulated threads: dispatch index, depth, slot, and +4 for a hazard, 128 + 8 x the
 * observation's flags when there is one; the state at the tick. */
void gl_update_threads(vw_run_tex *t, const vw_scene *s, float *norm)
{
  const ts_sched *sc = s->sched;
  if (!sc)
    return;
  if (s->dev) {
    update_threads_device(t, s, norm);
    return;
  }
  int p = s->pass;
  const ts_pass_sched *ps = &sc->pass[p];
  int64_t tick = s->snap->tick;
  if (!(t->thr_run == s->run_ident && t->thr_pass == p && !t->thr_dev &&
        t->thr_obs == s->obs_serial)) {
    float *tx = malloc((size_t)ps->n * 4 * sizeof *tx + 1);
    if (!tx || !state_bytes(t, ps->n)) {
      free(tx);
      return;
    }
    const vw_obs *o = s->obs;
    const uint8_t *flags = o ? o->flags[p] : NULL;
    t->thr_norm[0] = (float)(ps->n > 1 ? ps->n - 1 : 1);
    t->thr_norm[1] = 1;
    t->thr_norm[2] = (float)(sc->params.slots - 1 > 0 ? sc->params.slots - 1 : 1);
    for (uint32_t i = 0; i < ps->n; i++) {
      const ts_thread *th = &ps->t[i];
      float *d = tx + (size_t)i * 4;
      d[0] = (float)th->dispatch;
      d[1] = (float)th->depth;
      d[2] = (float)(th->slot < 0 ? 0 : th->slot);
      d[3] = (th->hazards > 0 ? 4.0f : 0.0f) + (o ? 128.0f + 8.0f * (float)flags[i] : 0.0f);
      if ((float)th->depth > t->thr_norm[1])
        t->thr_norm[1] = (float)th->depth;
    }
    if ((uint32_t)t->thr_norm[2] + 1 > ps->n)
      t->thr_norm[2] = t->thr_norm[0];
    upload_static(t, ps, tx);
    free(tx);
    t->thr_run = s->run_ident;
    t->thr_pass = p;
    t->thr_dev = 0;
    t->thr_obs = s->obs_serial;
    t->thr_tick = INT64_MIN;
  }
  memcpy(norm, t->thr_norm, sizeof t->thr_norm);
  if (t->thr_tick == tick)
    return;
  for (uint32_t i = 0; i < ps->n; i++)
    t->thr_state[i] = (uint8_t)ts_thread_state_at(&ps->t[i], tick);
  upload_states(t, ps);
  t->thr_tick = tick;
}

/* A texture of w x h RGBA8 texels as a framebuffer's colour; 0 when incomplete (then nothing
 * of it is kept). */
static GLuint make_target(GLuint *tex, int w, int h)
{
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glGenTextures(1, tex);
  glBindTexture(GL_TEXTURE_2D, *tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, *tex, 0);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, tex);
    *tex = fbo = 0;
  }
  return fbo;
}

static void free_target(GLuint *fbo, GLuint *tex)
{
  if (*fbo) {
    glDeleteFramebuffers(1, fbo);
    glDeleteTextures(1, tex);
  }
  *fbo = *tex = 0;
}

/* The frame cache's framebuffer, of the frame's size; 0 when it cannot be made (then every
 * frame draws everything). */
GLuint gl_cache_fbo(vw_gl *gl)
{
  if (gl->cache_fbo && gl->cache_w == gl->width && gl->cache_h == gl->height)
    return gl->cache_fbo;
  free_target(&gl->cache_fbo, &gl->cache_tex);
  memset(gl->pane_keys, 0, sizeof gl->pane_keys);
  gl->cache_ui_ok = 0;
  gl->cache_fbo = make_target(&gl->cache_tex, gl->width, gl->height);
  gl->cache_w = gl->width;
  gl->cache_h = gl->height;
  return gl->cache_fbo;
}

int gl_resize(vw_gl *gl, int w, int h)
{
  free_target(&gl->fbo, &gl->fbo_tex);
  gl->width = w;
  gl->height = h;
  gl->fbo = make_target(&gl->fbo_tex, w, h);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return gl->fbo != 0;
}

void gl_run_init(vw_run_tex *t)
{
  glGenTextures(1, &t->thr_tex);
  glGenTextures(1, &t->state_tex);
}

void gl_run_free(vw_run_tex *t)
{
  for (int i = 0; i < 3; i++) {
    if (t->img[i].id)
      glDeleteTextures(1, &t->img[i].id);
    free(t->img[i].dirty);
  }
  if (t->thr_tex)
    glDeleteTextures(1, &t->thr_tex);
  if (t->state_tex)
    glDeleteTextures(1, &t->state_tex);
  free(t->thr_state);
  free(t->dev_rank);
  free(t->plain_buf);
  memset(t, 0, sizeof *t);
}

int gl_init(vw_gl *gl, const char *shaders_dir, const char *font_path, int w, int h, char *err,
            size_t n)
{
  if (!gfx_init(&gl->g, shaders_dir, font_path, err, n))
    return 0;
  if (!gl_resize(gl, w, h))
    return 0;
  gl_run_init(&gl->run[0]);
  glGenTextures(1, &gl->gantt_tex);
  return 1;
}

void gl_free(vw_gl *gl)
{
  gfx_free(&gl->g);
  free_target(&gl->cache_fbo, &gl->cache_tex);
  for (int i = 0; i < 2; i++)
    gl_run_free(&gl->run[i]);
  if (gl->gantt_tex)
    glDeleteTextures(1, &gl->gantt_tex);
  free(gl->gantt_flight);
  free_target(&gl->fbo, &gl->fbo_tex);
}

void gl_finish(void)
{
  glFinish();
}

void gl_read_rgb(vw_gl *gl, uint8_t *rgb, uint8_t *rgba)
{
  int w = gl->width, h = gl->height;
  glBindFramebuffer(GL_READ_FRAMEBUFFER, gl->fbo);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  for (int y = 0; y < h; y++) /* GL rows run bottom-up */
    for (int x = 0; x < w; x++)
      memcpy(rgb + ((size_t)y * w + x) * 3, rgba + ((size_t)(h - 1 - y) * w + x) * 4, 3);
}
