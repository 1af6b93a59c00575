/* User kernels: the header parser and the variant it makes (see ts_user.h). A user variant
 * is a ts_variant followed by its parsed geometry; its callbacks find that geometry through
 * the kernel context's variant pointer, one set of callbacks per pass index. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_file.h"
#include "ts_number.h"
#include "ts_user.h"
#include "variant_internal.h"

typedef struct user_pass {
  int tile_w, tile_h, halo;
} user_pass;

typedef struct user_variant {
  ts_variant v; /* first: a ts_variant * to it is a user_variant * */
  ts_pass_desc pass[TS_MAX_PASSES];
  user_pass geom[TS_MAX_PASSES];
  int mid_esize, local;
  char name[64], summary[200], path[1024], entry[TS_MAX_PASSES][64], tile[TS_MAX_PASSES][48];
} user_variant;

static const user_variant *uv(const ts_kctx *k)
{
  return (const user_variant *)k->variant;
}

/* Elements per pixel of a buffer: C for 8-bit images, 1 for the integral image's. */
static int epp(const ts_kctx *k, int b)
{
  return k->buf[b].cols / k->W;
}

static void u_space(const ts_kctx *k, int p, int *tw, int *th)
{
  *tw = ts_ceil_div(k->W, uv(k)->geom[p].tile_w);
  *th = ts_ceil_div(k->H, uv(k)->geom[p].tile_h);
}

static ts_rect u_write(const ts_kctx *k, int p, int tx, int ty)
{
  const user_pass *g = &uv(k)->geom[p];
  int dst = uv(k)->pass[p].dst, e = epp(k, dst);
  return ts_clip(&k->buf[dst], tx * g->tile_w * e, ty * g->tile_h, g->tile_w * e, g->tile_h);
}

static ts_rect u_tile(const ts_kctx *k, int p, int tx, int ty)
{
  const user_pass *g = &uv(k)->geom[p];
  return (ts_rect){ tx * g->tile_w, ty * g->tile_h, g->tile_w, g->tile_h };
}

static ts_rect u_read(const ts_kctx *k, int p, int tx, int ty)
{
  const user_pass *g = &uv(k)->geom[p];
  return (ts_rect){ tx * g->tile_w - g->halo, ty * g->tile_h - g->halo, g->tile_w + 2 * g->halo,
                    g->tile_h + 2 * g->halo };
}

#define USER_PASS_FNS(p)                                                                  \
  static void u_space##p(const ts_kctx *k, int *tw, int *th) { u_space(k, p, tw, th); }   \
  static ts_rect u_write##p(const ts_kctx *k, int tx, int ty) { return u_write(k, p, tx, ty); } \
  static ts_rect u_tile##p(const ts_kctx *k, int tx, int ty) { return u_tile(k, p, tx, ty); } \
  static ts_rect u_read##p(const ts_kctx *k, int tx, int ty) { return u_read(k, p, tx, ty); }
USER_PASS_FNS(0)
USER_PASS_FNS(1)
USER_PASS_FNS(2)
USER_PASS_FNS(3)

static void (*const space_fns[])(const ts_kctx *, int *, int *) = { u_space0, u_space1, u_space2,
                                                                    u_space3 };
static ts_rect (*const write_fns[])(const ts_kctx *, int, int) = { u_write0, u_write1, u_write2,
                                                                   u_write3 };
static ts_rect (*const tile_fns[])(const ts_kctx *, int, int) = { u_tile0, u_tile1, u_tile2,
                                                                  u_tile3 };
static ts_rect (*const read_fns[])(const ts_kctx *, int, int) = { u_read0, u_read1, u_read2,
                                                                  u_read3 };

static void u_setup(ts_kctx *k)
{
  const user_variant *u = uv(k);
  int integral = u->v.filter == TS_FILTER_INTEGRAL;
  int cols = integral ? k->W : k->W * k->C;
  k->buf[TS_BUF_OUT] = (ts_buf){ .cols = cols, .rows = k->H, .esize = integral ? 4 : 1 };
  if (u->mid_esize)
    k->buf[TS_BUF_MID] = (ts_buf){ .cols = cols, .rows = k->H, .esize = u->mid_esize };
}

static int u_local(const ts_kctx *k)
{
  return uv(k)->local;
}

/* ---- the header ---- */

typedef struct parser {
  const char *path;
  int line;
  ts_error *err;
} parser;

static ts_status bad(const parser *ps, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* One error line: FILE:LINE: FIELD: what is wrong. */
static ts_status bad(const parser *ps, const char *field, const char *fmt, ...)
{
  char what[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return ts_fail(ps->err, TS_ERR_FORMAT, "%s:%d: %s: %s", ps->path, ps->line, field, what);
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
  int64_t v;
  if (!ts_parse_int(s, lo, hi, &v))
    return 0;
  *out = (int)v;
  return 1;
}

static int parse_wxh(const char *s, int hi, int *w, int *h)
{
  int64_t v[2];
  if (!ts_parse_ints(s, "x", 1, hi, v))
    return 0;
  *w = (int)v[0];
  *h = (int)v[1];
  return 1;
}

static int valid_name(const char *s, size_t max)
{
  size_t n = strlen(s);
  if (n == 0 || n >= max)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
      return 0;
  return 1;
}

/* Splits "key=value" tokens of a header line; a value may be "quoted". Returns the number
 * of fields, or -1 with *bad_at set at a malformed token. */
static int split_fields(char *s, char *keys[], char *vals[], int max, char **bad_at)
{
  int n = 0;
  while (*s) {
    while (*s == ' ' || *s == '\t')
      s++;
    if (!*s)
      break;
    char *key = s, *eq = NULL;
    while (*s && *s != ' ' && *s != '\t' && *s != '=')
      s++;
    if (*s != '=' || n == max) {
      *bad_at = key;
      while (*s && *s != ' ' && *s != '\t')
        s++;
      *s = 0;
      return -1;
    }
    eq = s;
    *eq = 0;
    char *val = eq + 1;
    if (*val == '"') {
      char *close = strchr(val + 1, '"');
      if (!close) {
        *bad_at = key;
        return -1;
      }
      *close = 0;
      val++;
      s = close + 1;
    } else {
      s = val;
      while (*s && *s != ' ' && *s != '\t')
        s++;
      if (*s)
        *s++ = 0;
    }
    keys[n] = key;
    vals[n] = val;
    n++;
  }
  return n;
}

static ts_status parse_variant(const parser *ps, char **keys, char **vals, int n, user_variant *u)
{
  for (int i = 0; i < n; i++) {
    const char *k = keys[i], *v = vals[i];
    if (strcmp(k, "name") == 0) {
      if (!valid_name(v, sizeof u->name))
        return bad(ps, "name", "'%s' is not a name (letters, digits, _ and -, up to 63)", v);
      snprintf(u->name, sizeof u->name, "%s", v);
    } else if (strcmp(k, "summary") == 0) {
      snprintf(u->summary, sizeof u->summary, "%s", v);
    } else if (strcmp(k, "equals") == 0) {
      if (strcmp(v, "box3") == 0)
        u->v.filter = TS_FILTER_BOX3;
      else if (strcmp(v, "gauss") == 0)
        u->v.filter = TS_FILTER_GAUSS;
      else if (strcmp(v, "integral") == 0)
        u->v.filter = TS_FILTER_INTEGRAL;
      else
        return bad(ps, "equals", "'%s' is not a built-in filter (box3, gauss or integral)", v);
      u->v.unchecked = 0;
    } else if (strcmp(k, "pattern") == 0) {
      if (!ts_pattern_parse(v, &u->v.pattern))
        return bad(ps, "pattern", "'%s' is not a dependency pattern (see tilescope list)", v);
    } else if (strcmp(k, "cost") == 0) {
      if (!parse_int(v, 1, TS_COST_MAX, &u->v.cost))
        return bad(ps, "cost", "'%s' is not a whole number of ticks, 1..1000", v);
    } else if (strcmp(k, "mid") == 0) {
      u->mid_esize = strcmp(v, "u8") == 0 ? 1 : strcmp(v, "u16") == 0 ? 2
                     : strcmp(v, "u32") == 0 ? 4 : 0;
      if (!u->mid_esize)
        return bad(ps, "mid", "'%s' is not an element type (u8, u16 or u32)", v);
    } else if (strcmp(k, "local") == 0) {
      if (!parse_int(v, 0, 1 << 20, &u->local))
        return bad(ps, "local", "'%s' is not a byte count, 0..1048576", v);
    } else {
      return bad(ps, k, "unknown field of `variant` (name, summary, equals, pattern, cost, mid, local)%s", "");
    }
  }
  if (!u->name[0])
    return bad(ps, "name", "missing (variant name=NAME)%s", "");
  return TS_OK;
}

static ts_status parse_pass(const parser *ps, char **keys, char **vals, int n, user_variant *u)
{
  int p = u->v.npasses;
  if (p == TS_MAX_PASSES)
    return bad(ps, "pass", "more than %d passes", TS_MAX_PASSES);
  ts_pass_desc *pd = &u->pass[p];
  user_pass *g = &u->geom[p];
  pd->src = TS_BUF_IN;
  pd->dst = TS_BUF_OUT;
  for (int i = 0; i < n; i++) {
    const char *k = keys[i], *v = vals[i];
    if (strcmp(k, "entry") == 0) {
      if (!valid_name(v, sizeof u->entry[p]) || strchr(v, '-') || isdigit((unsigned char)v[0]))
        return bad(ps, "entry", "'%s' is not a kernel name", v);
      snprintf(u->entry[p], sizeof u->entry[p], "%s", v);
    } else if (strcmp(k, "tile") == 0) {
      if (!parse_wxh(v, 4096, &g->tile_w, &g->tile_h))
        return bad(ps, "tile", "'%s' is not WxH pixels, each 1..4096 (e.g. tile=16x16)", v);
    } else if (strcmp(k, "group") == 0) {
      if (strcmp(v, "item") == 0) {
        pd->cl_group_w = pd->cl_group_h = 0;
      } else if (!parse_wxh(v, 1024, &pd->cl_group_w, &pd->cl_group_h) ||
                 pd->cl_group_w * pd->cl_group_h > 1024) {
        return bad(ps, "group", "'%s' is not WxH work-items (at most 1024) or `item`", v);
      }
    } else if (strcmp(k, "halo") == 0) {
      if (!parse_int(v, 0, 64, &g->halo))
        return bad(ps, "halo", "'%s' is not a whole number of pixels, 0..64", v);
    } else if (strcmp(k, "src") == 0) {
      if (strcmp(v, "in") != 0 && strcmp(v, "mid") != 0)
        return bad(ps, "src", "'%s' is not a buffer a pass reads (in or mid)", v);
      pd->src = v[0] == 'i' ? TS_BUF_IN : TS_BUF_MID;
    } else if (strcmp(k, "dst") == 0) {
      if (strcmp(v, "out") != 0 && strcmp(v, "mid") != 0)
        return bad(ps, "dst", "'%s' is not a buffer a pass writes (out or mid)", v);
      pd->dst = v[0] == 'o' ? TS_BUF_OUT : TS_BUF_MID;
    } else {
      return bad(ps, k, "unknown field of `pass` (entry, tile, group, halo, src, dst)%s", "");
    }
  }
  if (!u->entry[p][0])
    return bad(ps, "entry", "missing (each pass names its __kernel: entry=NAME)%s", "");
  if (!g->tile_w)
    return bad(ps, "tile", "missing (the pixels one thread owns: tile=WxH)%s", "");
  if ((pd->src == TS_BUF_MID || pd->dst == TS_BUF_MID) && !u->mid_esize)
    return bad(ps, pd->src == TS_BUF_MID ? "src" : "dst",
               "mid needs the variant's mid=u8|u16|u32%s", "");
  snprintf(u->tile[p], sizeof u->tile[p], "%dx%d pixels%s", g->tile_w, g->tile_h,
           pd->cl_group_w ? " (one work-group)" : "");
  pd->name = u->entry[p];
  pd->tile = u->tile[p];
  pd->space = space_fns[p];
  pd->write_rect = write_fns[p];
  pd->tile_px = tile_fns[p];
  pd->read_px = read_fns[p];
  pd->cl_file = u->path;
  pd->cl_kernel = u->entry[p];
  u->v.npasses = p + 1;
  return TS_OK;
}

ts_status ts_user_load(const char *path, ts_variant **out, ts_error *err)
{
  uint8_t *data = NULL;
  size_t len = 0;
  ts_status st = ts_file_read_all(path, 1u << 20, &data, &len, err);
  if (st != TS_OK)
    return st;
  st = ts_user_parse((const char *)data, len, path, out, err);
  free(data);
  return st;
}

ts_status ts_user_parse(const char *data, size_t len, const char *path, ts_variant **out,
                        ts_error *err)
{
  ts_status st = TS_OK;
  user_variant *u = calloc(1, sizeof *u);
  char *text = malloc(len + 1);
  if (!u || !text) {
    free(u);
    free(text);
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  }
  memcpy(text, data, len);
  text[len] = 0;
  /* A path without a slash is in the working folder: say so, as the back end reads a name
   * without one from the kernels folder. */
  snprintf(u->path, sizeof u->path, "%s%s", strchr(path, '/') ? "" : "./", path);
  u->v.filter = TS_FILTER_BOX3;
  u->v.unchecked = 1;
  u->v.pattern = TS_PAT_NONE;
  u->v.cost = 1;
  parser ps = { path, 0, err };
  int seen_variant = 0; /* the variant line's number */
  char *line = text;
  while (st == TS_OK && line && *line) {
    char *next = strchr(line, '\n');
    if (next)
      *next++ = 0;
    ps.line++;
    char *s = line;
    while (*s == ' ' || *s == '\t' || *s == '\r')
      s++;
    line = next;
    if (!*s)
      continue;
    if (strncmp(s, "//", 2) != 0)
      break; /* the header block ends at the first line of code */
    s += 2;
    while (*s == ' ' || *s == '\t')
      s++;
    if (strncmp(s, "tilescope:", 10) != 0)
      continue;
    s += 10;
    char *cr = strchr(s, '\r');
    if (cr)
      *cr = 0;
    while (*s == ' ' || *s == '\t')
      s++;
    char *word = s;
    while (*s && *s != ' ' && *s != '\t')
      s++;
    if (*s)
      *s++ = 0;
    char *keys[16], *vals[16], *bad_at = NULL;
    int n = split_fields(s, keys, vals, 16, &bad_at);
    if (n < 0) {
      st = bad(&ps, bad_at, "not a field=value (or a \"quoted\" value without its end)%s", "");
    } else if (strcmp(word, "variant") == 0) {
      st = seen_variant ? bad(&ps, "variant", "a second variant line%s", "")
                        : parse_variant(&ps, keys, vals, n, u);
      seen_variant = ps.line;
    } else if (strcmp(word, "pass") == 0) {
      st = !seen_variant ? bad(&ps, "pass", "comes before the variant line%s", "")
                         : parse_pass(&ps, keys, vals, n, u);
    } else {
      st = bad(&ps, "tilescope", "'%s' is not a header line (variant or pass)", word);
    }
  }
  if (st == TS_OK && !seen_variant) {
    ps.line = 1;
    st = bad(&ps, "tilescope",
             "no header (the file opens with comment lines such as // tilescope: variant "
             "name=NAME%s)", ", or // tilescope: plain for a plain OpenCL C kernel");
  } else if (st == TS_OK && u->v.npasses == 0) {
    ps.line = seen_variant;
    st = bad(&ps, "pass", "no pass line (// tilescope: pass entry=KERNEL tile=WxH%s)", "");
  }
  free(text);
  if (st != TS_OK) {
    free(u);
    return st;
  }
  if (!u->summary[0])
    snprintf(u->summary, sizeof u->summary, "user kernel %.180s", u->path);
  u->v.name = u->name;
  u->v.summary = u->summary;
  u->v.passes = u->pass;
  u->v.setup = u_setup;
  u->v.local_bytes = u->local ? u_local : NULL;
  u->v.file = u->path;
  *out = &u->v;
  return TS_OK;
}

void ts_user_free(ts_variant *v)
{
  free((user_variant *)v);
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int ts_user_load_dir(const char *dir, void (*skipped)(const char *why))
{
  DIR *d = opendir(dir);
  if (!d)
    return 0;
  char *names[TS_USER_MAX + 1];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n <= TS_USER_MAX) {
    size_t len = strlen(e->d_name);
    if (len > 3 && strcmp(e->d_name + len - 3, ".cl") == 0 && e->d_name[0] != '.')
      names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, names[i] ? names[i] : "");
    ts_variant *v = NULL;
    ts_error err = { 0 };
    ts_status st = names[i] ? ts_user_load(path, &v, &err)
                            : ts_fail(&err, TS_ERR_NOMEM, "out of memory");
    if (st == TS_OK && (st = ts_variant_add(v, &err)) != TS_OK) {
      ts_user_free(v);
      char what[sizeof err.msg];
      snprintf(what, sizeof what, "%s", err.msg);
      ts_fail(&err, st, "%s: %s", path, what);
    }
    if (st != TS_OK) {
      bad++;
      if (skipped)
        skipped(err.msg);
    }
    free(names[i]);
  }
  return bad;
}
