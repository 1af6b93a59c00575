/* The observation buffer of a plain kernel's observed launch (ts_plain.h): laid out as
 * kernels/plain/observe.cl reads it (a header, per buffer its facts, the findings by kind and
 * line, the log, the work-groups' rectangles, scratch, and the shadows of every buffer the
 * kernel may write), filled before the launch, and read back after it into the result. */
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_plain_int.h"

/* observe.cl's ts_div reciprocal of d, ceil(2^64 / d) as two words (0 for d <= 1: there
 * the quotient is n itself), so that the kernel divides by a row's pitch or a pixel's bytes
 * with one multiply. */
static void put_recip(uint32_t *w, uint32_t d)
{
  uint64_t m = d > 1 ? UINT64_MAX / d + 1 : 0;
  w[0] = (uint32_t)m;
  w[1] = (uint32_t)(m >> 32);
}

/* A shadow covers one lane of a buffer (log2 of its bytes), or a byte for odd sizes. */
static int lane_shift(int lane)
{
  return lane == 8 ? 3 : lane == 4 ? 2 : lane == 2 ? 1 : 0;
}

/* The findings' words for nlines source lines: per kind and line a count, TS_NPLACES places
 * as they arrived, then per kind and line the least place and its lock (observe.cl's
 * ts_finding). */
static size_t find_words(uint32_t nlines)
{
  return (size_t)TS_NFIND * nlines * (1 + NPLACES * PLACE + PLACE + 1);
}

/* Where the least places begin in the findings. */
static size_t least_at(uint32_t nlines)
{
  return (size_t)TS_NFIND * nlines * (1 + NPLACES * PLACE);
}

/* The kernels whose fast shadows met an access only the full ones judge (ts_plain_ob_redo),
 * as a hash of the observed source, the entry and its options (^ 2: the __local reads,
 * whose readers were wanted): their later launches in this process (a bench's repeats, the
 * window's next replay) start with the full shadows. */
static _Atomic uint64_t needs_full[64];

static uint64_t launch_key(const runner *r, const ts_plain_pass *ps)
{
  uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */
  for (size_t i = 0; r->d->text && i < r->d->len; i++) /* (the file: not NUL-ended) */
    h = (h ^ (uint8_t)r->d->text[i]) * 0x100000001b3u;
  const char *parts[2] = { ps->entry, ps->options };
  for (int i = 0; i < 2; i++)
    for (const char *s = parts[i]; *s; s++)
      h = (h ^ (uint8_t)*s) * 0x100000001b3u;
  return h | 1; /* (0: an empty slot) */
}

/* Whether a launch was made again (ts_plain_ob_redo; its key ^ 2: for its __local reads),
 * and its key kept, the oldest of 64 forgotten. */
static int needed(uint64_t key)
{
  for (int i = 0; i < 64; i++)
    if (atomic_load(&needs_full[i]) == key)
      return 1;
  return 0;
}

static void remember(uint64_t key)
{
  static _Atomic unsigned next = 0;
  atomic_store(&needs_full[atomic_fetch_add(&next, 1) % 64], key);
}

/* Whether a launch of the pass tries fast shadows (observe.cl's TS_F_FAST): where its build
 * allows (runner.fast_ok), not once it needed the full ones, nor with TILESCOPE_OBSERVE_FULL
 * set (to compare the two). */
static int try_fast(const runner *r, int pass, uint64_t key)
{
  const char *full = getenv("TILESCOPE_OBSERVE_FULL");
  if ((full && *full && strcmp(full, "0") != 0) || !r->fast_ok[r->prog_of[pass]])
    return 0;
  return !needed(key);
}

/* An order given as a file (--order FILE): the launch's work-groups, one a line, as X,Y,Z
 * (Y and Z 0 when left out) or as a linear id N with `#` comments: each of them once. */
static ts_status order_list(runner *r, const char *path, const ts_plain_launch *L, int pass,
                            uint32_t **out)
{
  FILE *f = fopen(path, "r");
  if (!f)
    return ts_fail(r->err, TS_ERR_IO, "--order '%s': %s", path, strerror(errno));
  uint32_t n = L->ngroups_all, k = 0;
  uint32_t *list = malloc((size_t)n * 4 + 4);
  uint8_t *seen = calloc(n ? n : 1, 1);
  char line[256];
  int ln = 0;
  ts_status st = list && seen ? TS_OK : ts_fail(r->err, TS_ERR_NOMEM, "out of memory");
  while (st == TS_OK && fgets(line, sizeof line, f)) {
    ln++;
    char *hash = strchr(line, '#');
    if (hash)
      *hash = 0;
    long v[3] = { 0, 0, 0 };
    int nv = 0, used = 0;
    char *p = line;
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p == '\n' || *p == '\r' || *p == 0)
      continue;
    while (nv < 3 && sscanf(p, "%ld%n", &v[nv], &used) == 1) {
      p += used;
      nv++;
      while (*p == ' ' || *p == '\t')
        p++;
      if (*p != ',')
        break;
      p++;
    }
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
      p++;
    if (nv == 0 || *p) {
      st = ts_fail(r->err, TS_ERR_FORMAT, "--order '%s': line %d: not a work-group (X,Y,Z or "
                   "a linear id)", path, ln);
      break;
    }
    long id = v[0];
    if (nv > 1) {
      int bad = 0;
      for (int d = 0; d < 3; d++)
        bad |= v[d] < 0 || (uint64_t)v[d] >= L->ngroups[d];
      if (bad) {
        st = ts_fail(r->err, TS_ERR_ARG, "--order '%s': line %d: work-group (%ld,%ld,%ld) is "
                     "outside pass %d's %ux%ux%u", path, ln, v[0], v[1], v[2], pass + 1,
                     L->ngroups[0], L->ngroups[1], L->ngroups[2]);
        break;
      }
      id = v[0] + (long)L->ngroups[0] * (v[1] + (long)L->ngroups[1] * v[2]);
    }
    if (id < 0 || (uint64_t)id >= n) {
      st = ts_fail(r->err, TS_ERR_ARG, "--order '%s': line %d: work-group %ld is outside pass "
                   "%d's %u", path, ln, id, pass + 1, n);
      break;
    }
    if (seen[id]) {
      st = ts_fail(r->err, TS_ERR_ARG, "--order '%s': line %d: work-group %ld comes twice",
                   path, ln, id);
      break;
    }
    if (k == n) {
      st = ts_fail(r->err, TS_ERR_ARG, "--order '%s': line %d: more than pass %d's %u "
                   "work-groups", path, ln, pass + 1, n);
      break;
    }
    seen[id] = 1;
    list[k++] = (uint32_t)id;
  }
  fclose(f);
  if (st == TS_OK && k < n) {
    uint32_t miss = 0;
    while (seen[miss])
      miss++;
    st = ts_fail(r->err, TS_ERR_ARG, "--order '%s': %u of pass %d's %u work-groups, work-group "
                 "%u (%u,%u,%u) missing", path, k, pass + 1, n, miss, miss % L->ngroups[0],
                 miss / L->ngroups[0] % L->ngroups[1], miss / L->ngroups[0] / L->ngroups[1]);
  }
  free(seen);
  if (st != TS_OK) {
    free(list);
    list = NULL;
  }
  *out = list;
  return st;
}

/* The adversary's order: a random cycle of the launch's groups (Sattolo's shuffle), so that
 * every group starts somewhere else than the device's order puts it. */
static ts_status adversary_list(runner *r, uint32_t seed, const ts_plain_launch *L,
                                uint32_t **out)
{
  uint32_t n = L->ngroups_all;
  uint32_t *list = malloc((size_t)n * 4 + 4);
  if (!list)
    return ts_fail(r->err, TS_ERR_NOMEM, "out of memory");
  for (uint32_t i = 0; i < n; i++)
    list[i] = i;
  uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (uint32_t i = n; i > 1; i--) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
    uint32_t j = (uint32_t)(x % (i - 1)), t = list[i - 1];
    list[i - 1] = list[j];
    list[j] = t;
  }
  *out = list;
  return TS_OK;
}

/* (a CPU device's observation, ts_plain_ob_make) */
static void CL_CALLBACK free_host(cl_mem m, void *host)
{
  (void)m;
  ts_alloc_free(host);
}

ts_status ts_plain_ob_make(runner *r, const ts_plain_kernel *k, const ts_plain_pass *ps,
                         const ts_plain_launch *L, const rbuf **gb, int ng,
                         const ts_plain_opts *o, int pass, cl_mem *out, oblayout *lay)
{
  uint32_t nlines = (uint32_t)r->d->src.nlines;
  /* a shadow word names its work-item in 11 bits (observe.cl) */
  size_t items = L->local[0] * (L->dims > 1 ? L->local[1] : 1) * (L->dims > 2 ? L->local[2] : 1);
  if (items > 2047)
    return ts_fail(r->err, TS_ERR_UNSUPPORTED, "%s: %s: work-groups of %zu work-items; "
                   "observation tells at most 2047 of a group apart (give a smaller local size, "
                   "or run unobserved)", r->d->path, k->name, items);
  size_t w = HEADER + (size_t)BI * MAXG;
  lay->find = (uint32_t)w;
  w += find_words(nlines);
  lay->log = (uint32_t)w;
  w += (size_t)LOG_CAP * LOG_REC;
  w = (w + 3) & ~(size_t)3; /* the rectangles are filled 16 bytes at a time */
  lay->rect = (uint32_t)w;
  w += (size_t)L->ngroups_all * 16;
  lay->gfind = (uint32_t)w; /* a word a work-group: the kinds of finding its items made */
  w += (size_t)L->ngroups_all;
  lay->rec = (uint32_t)w; /* the groups' records, read back with the rectangles */
  w += (size_t)L->ngroups_all * REC_W;
  lay->olist = 0;
  if (o->order != TS_ORDER_DEVICE && o->resident > 1 && (uint32_t)o->resident > L->ngroups_all)
    return ts_fail(r->err, TS_ERR_ARG, "--resident %d: more than pass %d's %u work-groups "
                   "(%s)", o->resident, pass + 1, L->ngroups_all, k->name);
  if (o->order == TS_ORDER_LIST || o->order == TS_ORDER_ADVERSARY) {
    uint32_t *list = NULL;
    ts_status st = o->order == TS_ORDER_LIST ? order_list(r, o->order_file, L, pass, &list)
                                             : adversary_list(r, o->order_seed, L, &list);
    if (st != TS_OK)
      return st;
    lay->olist_src = list;
    lay->olist = (uint32_t)w;
    w += (size_t)L->ngroups_all;
  }
  /* the branches before a barrier, UNI a work-group of UNI_W words, and on a CPU device
   * TS_PLAIN_LOOPS loops of LOOP_W (observe.cl's ts_uniform, ts_loop_end): only where the
   * kernel has such a branch and a group has two work-items */
  lay->uni = 0;
  if (r->guards > 0 && items > 1) {
    lay->uni = (uint32_t)w;
    w += (size_t)L->ngroups_all * (UNI * UNI_W + (r->cpu ? TS_PLAIN_LOOPS * LOOP_W : 0));
  }
  lay->ww = (uint32_t)w; /* ts_ww: a count and its records */
  w += 1 + (size_t)WW_CAP * WW_REC;
  lay->scratch = (uint32_t)w;
  w += 64;
  lay->sink = (uint32_t)w;
  w += 64;
  for (int i = 0; i < ng; i++) {
    lay->img[i] = gb[i]->role == TS_ARG_INPUT                   ? 0
                  : gb[i]->role == TS_ARG_OUTPUT || gb[i]->shown ? 1
                                                                 : -1;
    lay->shadow[i] = lay->mask[i] = 0;
    lay->lanes[i] = 0;
    lay->mask_src[i] = NULL;
    lay->mask_lanes[i] = 0;
  }
  /* masks: of an output or temporary that earlier passes wrote part of, a byte a lane; none
   * where they wrote every lane (no read of it can find one nothing wrote, and a const
   * buffer without one is read at a window's cost: ts_g) */
  for (int i = 0; i < ng; i++)
    if (gb[i]->wmask &&
        memchr(gb[i]->wmask, 0, gb[i]->bytes >> lane_shift(gb[i]->lane_bytes)) != NULL) {
      lay->mask[i] = (uint32_t)w;
      lay->mask_src[i] = gb[i]->wmask;
      lay->mask_lanes[i] = gb[i]->bytes >> lane_shift(gb[i]->lane_bytes);
      w += (lay->mask_lanes[i] + 3) / 4;
    }
  /* shadows: for every buffer the kernel may write (its argument is not const), and one
   * given uninitialised (its reads are of what nothing wrote) */
  int gi = 0;
  for (int j = 0; j < k->nparams; j++) {
    const ts_plain_param *p = &k->params[j];
    if (!((p->pointer || p->image) && p->space == TS_SPACE_GLOBAL))
      continue;
    if (!p->is_const || (gb[gi]->data && !gb[gi]->data->bytes)) {
      if (w > UINT32_MAX - 16)
        return ts_fail(r->err, TS_ERR_TOO_LARGE, "%s: the observation needs over 16 GB",
                       r->d->path);
      lay->shadow[gi] = (uint32_t)w;
      lay->lanes[gi] = gb[gi]->bytes >> lane_shift(gb[gi]->lane_bytes);
      w += lay->lanes[gi] * 4; /* ts_gshadow */
    }
    gi++;
  }
  if (w > UINT32_MAX)
    return ts_fail(r->err, TS_ERR_TOO_LARGE, "%s: the observation needs over 16 GB", r->d->path);
  lay->words = w;
  lay->ngroups = L->ngroups_all;
  uint32_t *hdr = lay->hdr;
  memset(lay->hdr, 0, sizeof lay->hdr);
  hdr[H_NBUF] = (uint32_t)ng;
  hdr[H_NLINES] = nlines;
  int chosen = (o->chosen_pass < 0 || o->chosen_pass == pass) && o->chosen_group[0] >= 0;
  uint32_t cg = UINT32_MAX, ci = 0;
  if (chosen) {
    cg = (uint32_t)(o->chosen_group[0] + (long)L->ngroups[0] *
                    (o->chosen_group[1] + (long)L->ngroups[1] * o->chosen_group[2]));
    ci = (uint32_t)(o->chosen_item[0] + (long)L->local[0] *
                    (o->chosen_item[1] + (long)L->local[1] * o->chosen_item[2]));
  }
  hdr[H_CHOSEN_G] = cg;
  hdr[H_CHOSEN_I] = ci;
  hdr[H_LOGCAP] = LOG_CAP;
  hdr[H_FIND] = lay->find;
  hdr[H_LOG] = lay->log;
  hdr[H_RECT] = lay->rect;
  hdr[H_GFIND] = lay->gfind;
  hdr[H_UNI] = lay->uni;
  hdr[H_WW] = lay->ww;
  hdr[H_ORDER] = (uint32_t)((o->order == TS_ORDER_ADVERSARY ? TS_ORDER_LIST : o->order) & 7) |
                 (o->order_seed & 0x1fffffffu) << 3;
  hdr[H_REC] = lay->rec;
  hdr[H_OLIST] = lay->olist;
  hdr[H_RESIDENT] = o->resident > 0 ? (uint32_t)o->resident : 1;
  /* polls a group waits for its turn: seconds on a CPU device, where the group it waits for
   * may be off its core for a while on a loaded machine (at 2^28, about a quarter second,
   * the order was let go under a load of 10, and the output changed) */
  hdr[H_SPIN] = o->spin_limit ? o->spin_limit : r->cpu ? 1u << 31 : 1u << 24;
  hdr[H_TILE_W] = (uint32_t)ps->tile_w;
  hdr[H_TILE_H] = (uint32_t)ps->tile_h;
  hdr[H_HALO] = (uint32_t)ps->halo;
  hdr[H_SCRATCH] = lay->scratch;
  hdr[H_SINK] = lay->sink;
  int nl = 0;
  for (int j = 0; j < ps->nargs && nl < 8; j++)
    if (ps->args[j].role == TS_ARG_LOCAL) {
      double v = 0;
      ts_plain_eval(ps->args[j].expr, r->W, r->H, r->C, &v, NULL, NULL);
      hdr[H_LOCAL0 + nl++] = (uint32_t)v;
    }
  hdr[H_LOCAL_N] = (uint32_t)nl;
  /* a watched pixel: the output buffer's bytes of pixel (x, y) */
  hdr[H_WATCH_BUF] = UINT32_MAX;
  for (int i = 0; o->watch_x >= 0 && i < ng; i++)
    if (gb[i]->role == TS_ARG_OUTPUT && o->watch_x < gb[i]->cols && o->watch_y < gb[i]->rows) {
      uint64_t px = (uint64_t)gb[i]->channels * (uint64_t)gb[i]->lane_bytes;
      uint64_t lo = gb[i]->offset + (uint64_t)o->watch_y * gb[i]->step + (uint64_t)o->watch_x * px;
      if (lo + px <= UINT32_MAX) {
        hdr[H_WATCH_BUF] = (uint32_t)i;
        hdr[H_WATCH_LO] = (uint32_t)lo;
        hdr[H_WATCH_HI] = (uint32_t)(lo + px);
      }
    }
  for (int i = 0; i < ng; i++) {
    uint32_t *b = hdr + HEADER + i * BI;
    const rbuf *rb = gb[i];
    b[B_SIZE] = (uint32_t)(rb->bytes > UINT32_MAX ? UINT32_MAX : rb->bytes);
    /* F_UNSET: what this launch reads of the output or a temporary and did not write,
     * nothing wrote; B_MASK: nothing wrote but where the mask says an earlier pass did (an
     * earlier pass's writes are not in this launch's shadows) */
    int tracked = ((rb->role == TS_ARG_OUTPUT || rb->role == TS_ARG_BUFFER) &&
                   !(rb->decl && rb->decl->has_init)) || /* init=: its first values are meant */
                  (rb->role == TS_ARG_DATA && !rb->data->bytes); /* given uninitialised */
    b[B_FLAGS] = (rb->role == TS_ARG_INPUT ? F_INPUT : 0) | (rb->role == TS_ARG_OUTPUT ? F_OUTPUT : 0) |
                 (lay->shadow[i] ? 0 : F_READONLY) | (tracked && !rb->written ? F_UNSET : 0) |
                 (rb->data && !rb->data->bytes && !rb->written ? F_NOINIT : 0) |
                 ((rb->data && rb->data->ro) || (rb->decl && rb->decl->ro) ? F_RO : 0) |
                 ((rb->data && rb->data->wo) || (rb->decl && rb->decl->wo) ? F_WO : 0);
    b[B_MASK] = lay->mask[i];
    b[B_PIXEL] = (uint32_t)(rb->channels * rb->lane_bytes);
    b[B_PITCH] = (uint32_t)rb->step;
    b[B_OFFSET] = (uint32_t)rb->offset;
    b[B_SHADOW] = lay->shadow[i];
    b[B_RECT] = lay->img[i] >= 0 ? (uint32_t)lay->img[i] : UINT32_MAX;
    b[B_W] = (uint32_t)rb->cols;
    b[B_H] = (uint32_t)rb->rows;
    b[B_LANE] = (uint32_t)lane_shift(rb->lane_bytes);
    put_recip(b + B_PDIV, b[B_PITCH]);
  }
  /* the shadows tried fast first, where there are any (ts_plain_ob_redo) */
  lay->fast = 0;
  for (int i = 0; i < ng; i++)
    lay->fast |= lay->shadow[i] != 0;
  uint64_t key = launch_key(r, ps);
  lay->fast = lay->fast && try_fast(r, pass, key);
  /* and the __local reads (observe.cl's TS_H_LFAST), made again with their readers
   * named likewise (ts_plain_ob_redo) */
  lay->hdr[H_LFAST] = (uint32_t)(lay->fast && !needed(key ^ 2));
  for (int i = 0; lay->fast && i < ng; i++)
    if (lay->shadow[i])
      hdr[HEADER + i * BI + B_FLAGS] |= F_FAST;
  cl_int e;
  /* On a CPU device the observation is a block of ours (CL_MEM_USE_HOST_PTR), freed with the
   * buffer, so that the check after each fast-shadowed launch reads the header and the marks
   * where they are: a blocking read and map through pocl's queue had added about 0.2 ms to
   * each launch, and 1 to 3.5 ms to about one in three while the cores were busy. */
  uint32_t *host = r->cpu ? ts_alloc_zeroed(w * 4) : NULL;
  lay->host = NULL;
  *out = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE | (host ? CL_MEM_USE_HOST_PTR : 0), w * 4,
                        host, &e);
  if (e == CL_SUCCESS && host)
    e = clSetMemObjectDestructorCallback(*out, free_host, host);
  if (e != CL_SUCCESS) {
    if (*out)
      clReleaseMemObject(*out);
    else
      ts_alloc_free(host);
    *out = NULL;
    return clfail(r, e, "clCreateBuffer (observation)");
  }
  ts_status st = ts_plain_ob_reset(r, *out, lay);
  /* read in place only where the reset's header is there (its launch number aside): the
   * device works in our memory */
  uint32_t seen[HEADER + BI * MAXG];
  if (st == TS_OK && host && lay->hdr[H_NBUF]) {
    memcpy(seen, host, sizeof seen);
    seen[H_NONCE] = lay->hdr[H_NONCE];
    if (memcmp(seen, lay->hdr, sizeof seen) == 0)
      lay->host = host;
  }
  if (st != TS_OK) {
    clReleaseMemObject(*out);
    *out = NULL;
  }
  return st;
}

void ts_plain_ob_full(oblayout *lay)
{
  lay->fast = 0;
  lay->hdr[H_LFAST] = 0;
  for (int i = 0; i < MAXG; i++)
    lay->hdr[HEADER + i * BI + B_FLAGS] &= ~(uint32_t)F_FAST;
}

/* The marks of n lanes' fast shadows on a CPU device (bytes, each 0 or 1: observe.cl's
 * ts_gfast), added up eight at a time: 255 words added as they are carry from no byte to the
 * next, and the sum's bytes are then added as 16-bit halves (at most 2040). A byte loop had
 * cost about 2 ms of a 1080p RGB pass's observed time. */
static uint64_t count_marks(const uint8_t *m, size_t n)
{
  uint64_t total = 0;
  size_t j = 0;
  while (n - j >= 8) {
    uint64_t acc = 0;
    for (size_t k = 0; k < 255 && n - j >= 8; k++, j += 8) {
      uint64_t w;
      memcpy(&w, m + j, 8);
      acc += w;
    }
    uint64_t s = (acc & 0x00ff00ff00ff00ffu) + (acc >> 8 & 0x00ff00ff00ff00ffu);
    total += (s * 0x0001000100010001u) >> 48;
  }
  for (; j < n; j++)
    total += m[j];
  return total;
}

ts_status ts_plain_ob_redo(runner *r, cl_mem ob, oblayout *lay, const ts_plain_pass *ps,
                           int *redo)
{
  uint32_t v[5] = { 0 }; /* H_REDO, H_NWRITE's two words, H_LFAST, H_LREDO */
  cl_int e = CL_SUCCESS;
  if (lay->host) /* (the launch has ended: its writes are in our memory) */
    memcpy(v, lay->host + H_REDO, sizeof v);
  else
    e = clEnqueueReadBuffer(r->q, ob, CL_TRUE, H_REDO * 4, sizeof v, v, 0, NULL, NULL);
  if (e != CL_SUCCESS)
    return clfail(r, e, "reading the observation back");
  *redo = v[0] != 0;
  /* on a CPU device a write marks and counts rather than exchanges (observe.cl's ts_gfast):
   * a lane written twice, by any threads at any time, leaves the lanes marked short of the
   * count */
  uint64_t written = (uint64_t)v[2] << 32 | v[1], marked = 0;
  for (int i = 0; r->cpu && !*redo && i < MAXG && e == CL_SUCCESS; i++) {
    if (!lay->shadow[i] || !lay->lanes[i])
      continue;
    if (lay->host) {
      marked += count_marks((const uint8_t *)(lay->host + lay->shadow[i]), lay->lanes[i]);
      continue;
    }
    const uint8_t *m = clEnqueueMapBuffer(r->q, ob, CL_TRUE, CL_MAP_READ,
                                          (size_t)lay->shadow[i] * 4, lay->lanes[i], 0, NULL,
                                          NULL, &e);
    if (e != CL_SUCCESS)
      break;
    marked += count_marks(m, lay->lanes[i]);
    e = clEnqueueUnmapMemObject(r->q, ob, (void *)m, 0, NULL, NULL);
  }
  if (e != CL_SUCCESS)
    return clfail(r, e, "reading the shadows back");
  *redo = *redo || (r->cpu && marked != written);
  if (!*redo && v[4]) { /* only the __local reads' readers were wanted */
    *redo = 1;
    lay->hdr[H_LFAST] = 0;
    remember(launch_key(r, ps) ^ 2);
    return TS_OK;
  }
  if (!*redo)
    return TS_OK;
  ts_plain_ob_full(lay);
  remember(launch_key(r, ps));
  return TS_OK;
}

/* Bytes of a lane's fast shadow: a word naming the writing group, a byte on a CPU device
 * (observe.cl's ts_gfast); and of a buffer's, a whole number of words. */
static size_t fast_lane(const runner *r)
{
  return r->cpu ? 1 : 4;
}

static size_t fast_bytes(const runner *r, size_t lanes)
{
  return (lanes * fast_lane(r) + 3) & ~(size_t)3;
}

ts_status ts_plain_ob_reset(runner *r, cl_mem ob, const oblayout *lay)
{
  /* zeros: all of it, or with fast shadows all before the shadows and of each its fast ones */
  uint32_t zero = 0;
  size_t upto = lay->words;
  for (int i = 0; lay->fast && i < MAXG; i++)
    if (lay->shadow[i] && lay->shadow[i] < upto)
      upto = lay->shadow[i];
  cl_int e = clEnqueueFillBuffer(r->q, ob, &zero, 4, 0, upto * 4, 0, NULL, NULL);
  for (int i = 0; lay->fast && i < MAXG && e == CL_SUCCESS; i++)
    if (lay->shadow[i] && lay->lanes[i])
      e = clEnqueueFillBuffer(r->q, ob, &zero, 4, (size_t)lay->shadow[i] * 4,
                              fast_bytes(r, lay->lanes[i]), 0, NULL, NULL);
  uint32_t empty[4] = { UINT32_MAX, UINT32_MAX, 0, 0 }; /* bytes: see rect_of */
  if (e == CL_SUCCESS)
    e = clEnqueueFillBuffer(r->q, ob, empty, sizeof empty, (size_t)lay->rect * 4,
                            (size_t)lay->ngroups * 64, 0, NULL, NULL);
  /* each launch its own number, so that a CPU device's group bounds in local memory are
   * never taken for an earlier launch's (observe.cl, ts_begin) */
  static _Atomic uint32_t launches = 0x5bd1e995u;
  uint32_t hdr[HEADER + BI * MAXG];
  memcpy(hdr, lay->hdr, sizeof hdr);
  hdr[H_NONCE] = atomic_fetch_add(&launches, 1);
  if (e == CL_SUCCESS && lay->olist && lay->olist_src)
    e = clEnqueueWriteBuffer(r->q, ob, CL_FALSE, (size_t)lay->olist * 4,
                             (size_t)lay->ngroups * 4, lay->olist_src, 0, NULL, NULL);
  for (int i = 0; i < MAXG && e == CL_SUCCESS; i++)
    if (lay->mask[i])
      e = clEnqueueWriteBuffer(r->q, ob, CL_FALSE, (size_t)lay->mask[i] * 4, lay->mask_lanes[i],
                               lay->mask_src[i], 0, NULL, NULL);
  if (e == CL_SUCCESS)
    e = clEnqueueWriteBuffer(r->q, ob, CL_TRUE, 0, sizeof hdr, hdr, 0, NULL, NULL);
  return e == CL_SUCCESS ? TS_OK : clfail(r, e, "writing the observation buffer");
}

/* A group's rectangle as observe.cl keeps it: the least byte column of its image buffer's
 * rows, the least row, the greatest column, the greatest row (empty while the least row
 * exceeds the greatest), as pixels: the kernel divides no column by the pixel's bytes, and
 * the quotients of the extremes are the extremes of the quotients. */
static ts_plain_rect rect_of(const uint32_t *q, const ts_plain_buf *b)
{
  if (!b || q[1] > q[3])
    return (ts_plain_rect){ INT_MAX, INT_MAX, -1, -1 };
  uint64_t px = (uint64_t)b->channels * (uint64_t)b->lane;
  if (px == 0)
    return (ts_plain_rect){ INT_MAX, INT_MAX, -1, -1 };
  return (ts_plain_rect){ (int)(q[0] / px), (int)q[1], (int)(q[2] / px), (int)q[3] };
}

static void place_of(const uint32_t *p, ts_plain_place *pl)
{
  pl->space = (int)(p[0] & 0xff);
  pl->buf = (int)((p[0] >> 8) & 0xff);
  int acc = (int)((p[0] >> 16) & 0xff);
  pl->acc = acc & ~8; /* 8: outside every buffer, its offset from the nearest one */
  pl->outside = (acc & 8) != 0;
  /* signed outside a buffer, and always in __local memory (no array reaches 2 GiB): an
   * access before a __local array is a negative offset whether or not it was flagged */
  pl->off = acc & 8 || pl->space == 1 ? (int64_t)(int32_t)p[1] : (int64_t)p[1];
  pl->group = p[2];
  pl->item = p[3];
  pl->other_group = p[4];
  pl->other_item = p[5];
  pl->other_line = (int)(p[6] & 0xffff);
  pl->other_acc = (int)(p[6] >> 16);
  pl->ax = (int)(p[0] >> 24);
}

ts_status ts_plain_ob_read(runner *r, cl_mem ob, const oblayout *lay, int pass, ts_plain_launch *L,
                         ts_plain_result *res)
{
  uint32_t nlines = (uint32_t)r->d->src.nlines;
  size_t nfind = find_words(nlines);
  /* the rectangles, then the kinds (gfind), then the records */
  size_t nrect = (size_t)L->ngroups_all * (17 + REC_W);
  uint32_t *f = malloc(nfind * 4), *rect = malloc(nrect * 4), *log = malloc((size_t)LOG_CAP * LOG_REC * 4);
  uint32_t hdr[HEADER];
  if (!f || !rect || !log) {
    free(f);
    free(rect);
    free(log);
    return ts_fail(r->err, TS_ERR_NOMEM, "out of memory");
  }
  cl_int e = clEnqueueReadBuffer(r->q, ob, CL_TRUE, 0, sizeof hdr, hdr, 0, NULL, NULL);
  if (e == CL_SUCCESS)
    e = clEnqueueReadBuffer(r->q, ob, CL_TRUE, (size_t)lay->find * 4, nfind * 4, f, 0, NULL, NULL);
  if (e == CL_SUCCESS)
    e = clEnqueueReadBuffer(r->q, ob, CL_TRUE, (size_t)lay->rect * 4, nrect * 4, rect, 0, NULL, NULL);
  size_t nlog = hdr[H_LOGN] < LOG_CAP ? hdr[H_LOGN] : LOG_CAP;
  if (e == CL_SUCCESS && nlog)
    e = clEnqueueReadBuffer(r->q, ob, CL_TRUE, (size_t)lay->log * 4, nlog * LOG_REC * 4, log, 0,
                            NULL, NULL);
  if (e != CL_SUCCESS) {
    free(f);
    free(rect);
    free(log);
    return clfail(r, e, "reading the observation back");
  }
  /* findings, a barrier divergence first: on a device that takes one branch for the whole
   * group (pocl) the accesses past the image that follow from it come after it */
  for (uint32_t ki = 0; ki < TS_NFIND; ki++)
    for (uint32_t line = 0, kind = (ki + TS_FIND_DIVERGE) % TS_NFIND; line < nlines; line++) {
      uint32_t n = f[kind * nlines + line];
      if (!n)
        continue;
      ts_plain_finding *nf = realloc(res->findings, (res->nfindings + 1) * sizeof *nf);
      if (!nf)
        break;
      res->findings = nf;
      ts_plain_finding *x = &nf[res->nfindings++];
      memset(x, 0, sizeof *x);
      x->pass = pass;
      x->kind = (int)kind;
      x->line = (int)line;
      x->count = n;
      /* the least place first (observe.cl keeps it apart), then the first to arrive but it */
      size_t row = (size_t)kind * nlines + line;
      const uint32_t *least = f + least_at(nlines) + row * (PLACE + 1);
      if (least[0])
        place_of(least, &x->place[x->nplaces++]);
      for (uint32_t i = 0; i < n && i < NPLACES && x->nplaces < TS_PLAIN_PLACES; i++) {
        const uint32_t *p = f + (size_t)TS_NFIND * nlines + (row * NPLACES + i) * PLACE;
        if (!least[0] || memcmp(p, least, PLACE * sizeof *p) != 0)
          place_of(p, &x->place[x->nplaces++]);
      }
      res->counts[kind] += n;
      /* a __local race's other side keeps no line (two words a byte): where the other side's
       * kind of access to that array is made at one line only, that line */
      for (int pi = 0; kind == TS_FIND_RACE_LOCAL && pi < x->nplaces; pi++) {
        ts_plain_place *pl = &x->place[pi];
        if (pl->other_line || pl->buf < 0 || pl->buf >= L->nlocals || !pl->other_acc)
          continue;
        const char *name = L->locals[pl->buf];
        size_t len = strlen(name);
        int only = 0;
        for (int a = 0; a < r->natexts && only >= 0; a++) {
          const struct ts_access_text *t = &r->atexts[a];
          /* the array the access is of: its text's start (tile[...], x), or an atomic's
           * first argument (atomic_inc(&bins[v])) */
          const char *at = t->text;
          if (t->kind == 4 && (at = strchr(t->text, '(')) != NULL)
            at += 1 + (at[1] == '&');
          int named = at && strncmp(at, name, len) == 0 &&
                      (at[len] == '[' || at[len] == 0 || at[len] == ')' || at[len] == ',');
          if (named && (t->kind & pl->other_acc))
            only = only == 0 || only == t->line ? t->line : -1;
        }
        if (only > 0)
          pl->other_line = only;
      }
      /* the first place's access as the source writes it */
      for (int a = 0; x->nplaces && a < r->natexts; a++)
        if (r->atexts[a].line == x->line && r->atexts[a].k == x->place[0].ax && (x->place[0].space < 2 || (x->place[0].space == 2 && x->place[0].buf == 1)))
          snprintf(x->access, sizeof x->access, "%s", r->atexts[a].text);
    }
  /* rectangles: input reads, output writes; each image's the first of its buffers (the one
   * whose pitch observe.cl measured its columns by) */
  const ts_plain_buf *ib[2] = { NULL, NULL };
  for (int i = L->nbufs - 1; i >= 0; i--)
    if (lay->img[i] == 0 || lay->img[i] == 1)
      ib[lay->img[i]] = &L->buf[i];
  L->groups = calloc(L->ngroups_all, sizeof *L->groups);
  if (L->groups)
    for (uint32_t g = 0; g < L->ngroups_all; g++) {
      const uint32_t *q = rect + (size_t)g * 16;
      L->groups[g].read = rect_of(q, ib[0]);
      L->groups[g].wrote = rect_of(q + 12, ib[1]);
      L->groups[g].kinds = rect[(size_t)L->ngroups_all * 16 + g];
      const uint32_t *rc = rect + (size_t)L->ngroups_all * 17 + (size_t)g * REC_W;
      ts_plain_group *G = &L->groups[g];
      G->start = rc[R_START];
      G->end = rc[R_END];
      G->ticket = rc[R_TICKET];
      G->launched_as = rc[R_LAUNCH];
      G->spins = rc[R_SPINS];
      G->nbar = rc[R_NBAR];
      for (int b = 0; b < TS_PLAIN_REC_BARS; b++)
        G->bar[b] = rc[R_BAR + b];
    }
  L->ticks = hdr[H_CLOCK];
  L->late = hdr[H_LATE];
  L->nlog_all = hdr[H_LOGN];
  if (nlog) {
    L->log = calloc(nlog, sizeof *L->log);
    if (L->log) {
      L->nlog = nlog;
      for (size_t i = 0; i < nlog; i++) {
        const uint32_t *q = log + i * LOG_REC;
        ts_plain_access *a = &L->log[i];
        a->buf = (int)(q[0] & 0xff);
        a->acc = (int)((q[0] >> 8) & 7);
        a->outside = (int)((q[0] >> 8) & 8) != 0;
        a->space = (int)((q[0] >> 16) & 0xff);
        a->off = a->outside || a->space == 1 ? (int64_t)(int32_t)q[1] : (int64_t)q[1];
        a->bytes = q[2];
        a->line = (int)q[3];
        a->group = q[4];
        a->item = q[5];
        a->watched = a->space == 0 && !a->outside && (uint32_t)a->buf == hdr[H_WATCH_BUF] &&
                     a->off < hdr[H_WATCH_HI] && a->off + a->bytes > hdr[H_WATCH_LO];
      }
    }
  }
  free(f);
  free(rect);
  free(log);
  return TS_OK;
}

ts_status ts_plain_ob_written(runner *r, cl_mem ob, const oblayout *lay, const rbuf **gb,
                             int ng)
{
  enum { CHUNK = 1 << 16 }; /* lanes read back at a time */
  uint32_t *sh = NULL;
  for (int i = 0; i < ng; i++) {
    rbuf *b = &r->bufs[gb[i] - r->bufs]; /* the run's own buffer, whose mask grows */
    if (!lay->shadow[i] || !(b->role == TS_ARG_OUTPUT || b->role == TS_ARG_BUFFER))
      continue;
    size_t lanes = b->bytes >> lane_shift(b->lane_bytes);
    if ((!b->wmask && !(b->wmask = calloc(lanes ? lanes : 1, 1))) ||
        (!sh && !(sh = malloc((size_t)CHUNK * 16)))) {
      free(sh);
      return ts_fail(r->err, TS_ERR_NOMEM, "out of memory");
    }
    size_t bytes = lay->fast ? fast_lane(r) : 16; /* a lane's shadow */
    for (size_t at = 0; at < lanes; at += CHUNK) {
      size_t n = lanes - at < CHUNK ? lanes - at : CHUNK;
      cl_int e = clEnqueueReadBuffer(r->q, ob, CL_TRUE, (size_t)lay->shadow[i] * 4 + at * bytes,
                                     n * bytes, sh, 0, NULL, NULL);
      if (e != CL_SUCCESS) {
        free(sh);
        return clfail(r, e, "reading the shadows back");
      }
      /* written: marked, a writing group (word 0), or the line of an atomic update (word 3's
       * low half, where nothing wrote plainly; observe.cl's ts_gshadow) */
      const uint8_t *mark = (const uint8_t *)sh;
      for (size_t j = 0; j < n; j++)
        if (bytes == 1 ? mark[j] != 0 : bytes == 4 ? sh[j] != 0
                                                   : sh[j * 4] || (sh[j * 4 + 3] & 0xffffu))
          b->wmask[at + j] = 1;
    }
  }
  free(sh);
  return TS_OK;
}

/* A lane's bytes as one value of its buffer's type, for the finding's line. */
static void lane_text(const rbuf *b, const uint8_t *v, char *out, size_t n)
{
  uint64_t u = 0;
  memcpy(&u, v, (size_t)(b->lane_bytes < 8 ? b->lane_bytes : 8));
  if (b->is_float && b->lane_bytes == 4) {
    float f;
    memcpy(&f, v, 4);
    snprintf(out, n, "%.9g", (double)f);
  } else if (b->is_float && b->lane_bytes == 8) {
    double d;
    memcpy(&d, v, 8);
    snprintf(out, n, "%.17g", d);
  } else if (b->is_signed) {
    int bits = 8 * b->lane_bytes;
    int64_t s = bits < 64 && (u >> (bits - 1)) ? (int64_t)(u | ~((1ull << bits) - 1)) : (int64_t)u;
    snprintf(out, n, "%lld", (long long)s);
  } else {
    snprintf(out, n, "%llu", (unsigned long long)u);
  }
}

ts_status ts_plain_ob_benign(runner *r, cl_mem ob, const oblayout *lay, const rbuf **gb, int ng,
                             size_t first, ts_plain_result *res)
{
  uint32_t count = 0;
  cl_int e = clEnqueueReadBuffer(r->q, ob, CL_TRUE, (size_t)lay->ww * 4, 4, &count, 0, NULL, NULL);
  if (e != CL_SUCCESS)
    return clfail(r, e, "reading the observation back");
  if (count == 0 || count > WW_CAP) /* none, or more than were kept: no verdict but a race */
    return TS_OK;
  uint32_t *rec = malloc((size_t)count * WW_REC * 4);
  if (!rec)
    return ts_fail(r->err, TS_ERR_NOMEM, "out of memory");
  e = clEnqueueReadBuffer(r->q, ob, CL_TRUE, ((size_t)lay->ww + 1) * 4, (size_t)count * WW_REC * 4,
                          rec, 0, NULL, NULL);
  uint32_t nlines = (uint32_t)r->d->src.nlines;
  for (size_t i = first; e == CL_SUCCESS && i < res->nfindings; i++) {
    ts_plain_finding *x = &res->findings[i];
    if (x->kind != TS_FIND_RACE_GROUPS && x->kind != TS_FIND_RACE_GLOBAL)
      continue;
    uint32_t row = (uint32_t)x->kind * nlines + (uint32_t)x->line;
    uint64_t n = 0;
    int same = 1;
    uint8_t final[8], kept[8], named[8] = { 0 };
    const rbuf *b = NULL, *nb = NULL;
    for (uint32_t j = 0; j < count && same; j++) {
      const uint32_t *q = rec + (size_t)j * WW_REC;
      if (q[0] != row)
        continue;
      n++;
      if (q[1] >= (uint32_t)ng || !gb[q[1]]->mem || gb[q[1]]->image) {
        same = 0;
        break;
      }
      b = gb[q[1]];
      size_t lane = (size_t)(b->lane_bytes < 8 ? b->lane_bytes : 8);
      memcpy(kept, &q[3], 4);
      memcpy(kept + 4, &q[4], 4);
      e = clEnqueueReadBuffer(r->q, b->mem, CL_TRUE, q[2], lane, final, 0, NULL, NULL);
      same = e == CL_SUCCESS && memcmp(kept, final, lane) == 0;
      if (!nb || (int64_t)q[2] == x->place[0].off) { /* the value at the place named first */
        nb = b;
        memcpy(named, final, 8);
      }
    }
    /* every write of the row met a write of the value it found, and nothing else did */
    if (same && b && n == x->count) {
      lane_text(nb, named, x->value, sizeof x->value);
      res->counts[x->kind] -= x->count;
      x->kind = TS_FIND_BENIGN;
      res->counts[TS_FIND_BENIGN] += x->count;
    }
  }
  free(rec);
  /* a line's benign races between groups and in a group are one note */
  for (size_t i = first; i < res->nfindings; i++)
    for (size_t j = i + 1; res->findings[i].kind == TS_FIND_BENIGN && j < res->nfindings; j++)
      if (res->findings[j].kind == TS_FIND_BENIGN && res->findings[j].line == res->findings[i].line) {
        res->findings[i].count += res->findings[j].count;
        memmove(&res->findings[j], &res->findings[j + 1],
                (res->nfindings - j - 1) * sizeof res->findings[j]);
        res->nfindings--;
        j--;
      }
  return e == CL_SUCCESS ? TS_OK : clfail(r, e, "reading a buffer back");
}
