/* Walk orders and dependency patterns (SPEC section 2). The sort-key walks share one sort;
 * `wavefront26z` is built in rounds, the way a dispatcher with per-column frontiers would. */
#include <stdlib.h>
#include <string.h>

#include "ts_walk.h"

static const struct {
  const char *name, *text;
} walks[] = {
#define TS_X(id, name, text) { name, text },
  TS_WALK_LIST(TS_X)
#undef TS_X
};

static const struct {
  const char *name;
  ts_walk walk;
} patterns[] = {
#define TS_X(id, name, walk) { name, walk },
  TS_PATTERN_LIST(TS_X)
#undef TS_X
};

static const ts_vec pat_wavefront[] = { { -1, 0 }, { -1, -1 }, { 0, -1 } };
static const ts_vec pat_wavefront26[] = { { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };
static const ts_vec pat_vertical[] = { { -1, 0 } };
static const ts_vec pat_horizontal[] = { { 0, -1 } };
static const ts_vec pat_wavefront26z[] = { { -1, 1 }, { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };
static const ts_vec pat_wavefront26x[] = { { -1, 3 }, { -1, 1 }, { -1, -1 }, { 0, -1 },
                                           { 0, -2 }, { 0, -3 }, { 1, -3 } };
static const ts_vec pat_wavefront26zi[] = { { -1, 1 }, { -2, 0 }, { -1, 0 }, { -1, -1 },
                                            { 0, -1 }, { 1, -1 }, { 1, 0 } };

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

const char *ts_walk_name(ts_walk w)
{
  return (unsigned)w < TS_WALK_COUNT ? walks[w].name : "?";
}

const char *ts_walk_describe(ts_walk w)
{
  return (unsigned)w < TS_WALK_COUNT ? walks[w].text : "?";
}

int ts_walk_parse(const char *name, ts_walk *out)
{
  for (int i = 0; i < TS_WALK_COUNT; i++)
    if (strcmp(name, walks[i].name) == 0) {
      *out = (ts_walk)i;
      return 1;
    }
  return 0;
}

const char *ts_pattern_name(ts_pattern p)
{
  return (unsigned)p < TS_PAT_COUNT ? patterns[p].name : "?";
}

int ts_pattern_parse(const char *name, ts_pattern *out)
{
  for (int i = 0; i < TS_PAT_COUNT; i++)
    if (strcmp(name, patterns[i].name) == 0) {
      *out = (ts_pattern)i;
      return 1;
    }
  return 0;
}

ts_walk ts_pattern_default_walk(ts_pattern p)
{
  return (unsigned)p < TS_PAT_COUNT ? patterns[p].walk : TS_WALK_HORIZONTAL;
}

int ts_pattern_vectors(ts_pattern p, const ts_vec **v)
{
  switch (p) {
  case TS_PAT_WAVEFRONT: *v = pat_wavefront; return N_OF(pat_wavefront);
  case TS_PAT_WAVEFRONT26: *v = pat_wavefront26; return N_OF(pat_wavefront26);
  case TS_PAT_VERTICAL: *v = pat_vertical; return N_OF(pat_vertical);
  case TS_PAT_HORIZONTAL: *v = pat_horizontal; return N_OF(pat_horizontal);
  case TS_PAT_WAVEFRONT26Z:
  case TS_PAT_WAVEFRONT26ZIG: *v = pat_wavefront26z; return N_OF(pat_wavefront26z);
  case TS_PAT_WAVEFRONT26X: *v = pat_wavefront26x; return N_OF(pat_wavefront26x);
  case TS_PAT_WAVEFRONT26ZI: *v = pat_wavefront26zi; return N_OF(pat_wavefront26zi);
  default: *v = NULL; return 0;
  }
}

/* A sort key of up to five components, compared lexicographically. */
typedef struct walk_key {
  int32_t k[5];
  uint32_t id;
} walk_key;

static int cmp_key(const void *a, const void *b)
{
  const walk_key *p = a, *q = b;
  for (int i = 0; i < 5; i++)
    if (p->k[i] != q->k[i])
      return p->k[i] < q->k[i] ? -1 : 1;
  return 0;
}

static void make_key(ts_walk w, int32_t x, int32_t y, int32_t *k)
{
  switch (w) {
  case TS_WALK_VERTICAL: k[0] = x; k[1] = y; break;
  case TS_WALK_WAVEFRONT: k[0] = x + y; k[1] = y; break;
  case TS_WALK_WAVEFRONT26: k[0] = x + 2 * y; k[1] = y; break;
  case TS_WALK_WAVEFRONT26X:
    k[0] = x + 2 * (y / 2); k[1] = y % 2; k[2] = y / 2; break;
  case TS_WALK_WAVEFRONT26ZIG:
    k[0] = x / 2 + 2 * (y / 2); k[1] = y / 2; k[2] = y % 2; k[3] = x % 2; break;
  case TS_WALK_WAVEFRONT26ZI: {
    int32_t bx = x / 16, by = y / 8, cx = x % 16;
    k[0] = bx + 2 * by; k[1] = by; k[2] = cx % 2; k[3] = cx / 2; k[4] = y % 8;
    break;
  }
  default: k[0] = y; k[1] = x; break;
  }
}

/* The board order: per-column frontiers advanced in rounds; a frontier thread is accepted
 * once every in-bounds target of its parity mask was accepted in an earlier round. */
static ts_status board_order(int tw, int th, uint32_t *order, ts_error *err)
{
  static const ts_vec m_ee[] = { { -1, 1 }, { -1, 0 }, { 0, -1 }, { 1, -1 } };
  static const ts_vec m_eo[] = { { -1, 0 }, { 0, -1 }, { 1, -1 } };
  static const ts_vec m_oe[] = { { -1, 0 }, { 0, -1 }, { 1, -1 } };
  static const ts_vec m_oo[] = { { -1, 0 }, { 0, -1 } };
  size_t n = (size_t)tw * th;
  int32_t *round = malloc(n * sizeof *round);
  int32_t *front = calloc((size_t)tw, sizeof *front);
  if (!round || !front) {
    free(round);
    free(front);
    return ts_fail(err, TS_ERR_NOMEM, "out of memory for a %dx%d walk", tw, th);
  }
  for (size_t i = 0; i < n; i++)
    round[i] = -1;
  size_t done = 0;
  for (int32_t r = 0; done < n; r++) {
    for (int x = 0; x < tw; x++) {
      int y = front[x];
      if (y >= th)
        continue;
      const ts_vec *m;
      int nm;
      if (x % 2 == 0) {
        m = y % 2 == 0 ? m_ee : m_eo;
        nm = y % 2 == 0 ? N_OF(m_ee) : N_OF(m_eo);
      } else {
        m = y % 2 == 0 ? m_oe : m_oo;
        nm = y % 2 == 0 ? N_OF(m_oe) : N_OF(m_oo);
      }
      int ok = 1;
      for (int i = 0; i < nm && ok; i++) {
        int tx = x + m[i].dx, ty = y + m[i].dy;
        if (tx < 0 || ty < 0 || tx >= tw || ty >= th)
          continue;
        int32_t tr = round[(size_t)ty * tw + tx];
        ok = tr >= 0 && tr < r;
      }
      if (ok) {
        round[(size_t)y * tw + x] = r;
        order[done++] = (uint32_t)((size_t)y * tw + x);
        front[x]++;
      }
    }
  }
  free(round);
  free(front);
  return TS_OK;
}

ts_status ts_walk_order(ts_walk w, int tw, int th, uint32_t *order, ts_error *err)
{
  if ((unsigned)w >= TS_WALK_COUNT)
    return ts_fail(err, TS_ERR_ARG, "unknown walk %d", (int)w);
  if (tw < 1 || th < 1 || (size_t)tw * (size_t)th > UINT32_MAX / 2)
    return ts_fail(err, TS_ERR_ARG, "bad thread space %dx%d", tw, th);
  if (w == TS_WALK_WAVEFRONT26Z)
    return board_order(tw, th, order, err);
  size_t n = (size_t)tw * th;
  if (w == TS_WALK_HORIZONTAL) {
    for (size_t i = 0; i < n; i++)
      order[i] = (uint32_t)i;
    return TS_OK;
  }
  walk_key *keys = malloc(n * sizeof *keys);
  if (!keys)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory for a %dx%d walk", tw, th);
  for (int y = 0; y < th; y++)
    for (int x = 0; x < tw; x++) {
      walk_key *k = &keys[(size_t)y * tw + x];
      memset(k->k, 0, sizeof k->k);
      k->id = (uint32_t)((size_t)y * tw + x);
      make_key(w, x, y, k->k);
    }
  qsort(keys, n, sizeof *keys, cmp_key);
  for (size_t i = 0; i < n; i++)
    order[i] = keys[i].id;
  free(keys);
  return TS_OK;
}
