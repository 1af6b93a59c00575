/* The launch description of a plain kernel (ts_plain.h): `// tilescope: plain` and
 * `// tilescope: buffer` lines in the file, the same lines in a launch file beside it, or
 * the pass fields from the command line, checked against the kernels' arguments as libclang
 * reads them. Every argument ends with a role, from the description or from its name; one
 * that has none is an error naming the kernel and the argument. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_file.h"
#include "ts_number.h"
#include "ts_plain_int.h"

/* ---- expressions ---- */

typedef struct parser {
  const char *s;
  int W, H, C;
  int bad;
} parser;

typedef struct num {
  double v;
  int is_int;
} num;

static void skip(parser *p)
{
  while (*p->s == ' ' || *p->s == '\t')
    p->s++;
}

static num expr(parser *p);

static num atom(parser *p)
{
  skip(p);
  num n = { 0, 1 };
  if (*p->s == '(') {
    p->s++;
    n = expr(p);
    skip(p);
    if (*p->s == ')')
      p->s++;
    else
      p->bad = 1;
    return n;
  }
  if (*p->s == '-') {
    p->s++;
    n = atom(p);
    n.v = -n.v;
    return n;
  }
  if (isdigit((unsigned char)*p->s)) {
    size_t len = ts_scan_real(p->s, &n.v);
    if (len == 0) {
      p->bad = 1;
      return n;
    }
    n.is_int = strcspn(p->s, ".eE") >= len;
    p->s += len;
    if (*p->s == 'f')
      p->s++;
    return n;
  }
  if (*p->s == 'W' || *p->s == 'H' || *p->s == 'C') {
    char c = *p->s++;
    if (isalnum((unsigned char)*p->s) || *p->s == '_') {
      p->bad = 1;
      return n;
    }
    n.v = c == 'W' ? p->W : c == 'H' ? p->H : p->C;
    return n;
  }
  p->bad = 1;
  return n;
}

static num term(parser *p)
{
  num a = atom(p);
  for (;;) {
    skip(p);
    char op = *p->s;
    if (op != '*' && op != '/' && op != '%')
      return a;
    p->s++;
    num b = atom(p);
    /* integers as C divides them: only those a long long holds */
    int whole = a.is_int && b.is_int && fabs(a.v) < 9e18 && fabs(b.v) < 9e18;
    if (op == '*') {
      a.v *= b.v;
    } else if (b.v == 0 || (a.is_int && b.is_int && !whole)) {
      p->bad = 1;
      return a;
    } else if (op == '/') {
      a.v = a.is_int && b.is_int ? (double)((long long)a.v / (long long)b.v) : a.v / b.v;
    } else {
      if (!a.is_int || !b.is_int) {
        p->bad = 1;
        return a;
      }
      a.v = (double)((long long)a.v % (long long)b.v);
    }
    a.is_int = a.is_int && b.is_int;
  }
}

static num expr(parser *p)
{
  num a = term(p);
  for (;;) {
    skip(p);
    char op = *p->s;
    if (op != '+' && op != '-')
      return a;
    p->s++;
    num b = term(p);
    a.v = op == '+' ? a.v + b.v : a.v - b.v;
    a.is_int = a.is_int && b.is_int;
  }
}

ts_status ts_plain_eval(const char *e, int W, int H, int C, double *value, int *is_int,
                        ts_error *err)
{
  parser p = { e, W, H, C, 0 };
  num n = expr(&p);
  skip(&p);
  if (p.bad || *p.s || !*e || !isfinite(n.v))
    return ts_fail(err, TS_ERR_ARG, "'%s' is not an expression of W, H and C", e);
  *value = n.v;
  if (is_int)
    *is_int = n.is_int;
  return TS_OK;
}

/* ---- the description ---- */

int ts_plain_is_plain(const char *text, size_t len)
{
  const char *end = text + len;
  for (const char *l = text; l < end;) {
    const char *nl = memchr(l, '\n', (size_t)(end - l));
    size_t n = nl ? (size_t)(nl - l) : (size_t)(end - l);
    const char *t = l;
    while (t < l + n && (*t == ' ' || *t == '\t'))
      t++;
    if ((size_t)(l + n - t) >= 18 && strncmp(t, "// tilescope:", 13) == 0) {
      const char *f = t + 13;
      while (f < l + n && *f == ' ')
        f++;
      for (int w = 0; w < 2; w++) {
        size_t k = w ? 6 : 5;
        if ((size_t)(l + n - f) >= k && strncmp(f, w ? "buffer" : "plain", k) == 0 &&
            (f + k == l + n || f[k] == ' ' || f[k] == '\r'))
          return 1;
      }
    }
    l = nl ? nl + 1 : end;
  }
  return 0;
}

static const char *role_names[] = { "", "input", "output", "buffer", "width", "height",
                                    "channels", "pitch" };

static ts_plain_role role_by_name(const char *n)
{
  static const struct {
    const char *name;
    ts_plain_role role;
  } defaults[] = {
    { "in", TS_ARG_INPUT },      { "src", TS_ARG_INPUT },     { "input", TS_ARG_INPUT },
    { "out", TS_ARG_OUTPUT },    { "dst", TS_ARG_OUTPUT },    { "output", TS_ARG_OUTPUT },
    { "W", TS_ARG_WIDTH },       { "w", TS_ARG_WIDTH },       { "width", TS_ARG_WIDTH },
    { "cols", TS_ARG_WIDTH },    { "H", TS_ARG_HEIGHT },      { "h", TS_ARG_HEIGHT },
    { "height", TS_ARG_HEIGHT }, { "rows", TS_ARG_HEIGHT },   { "C", TS_ARG_CHANNELS },
    { "channels", TS_ARG_CHANNELS }, { "cn", TS_ARG_CHANNELS }, { "pitch", TS_ARG_PITCH },
    { "stride", TS_ARG_PITCH },  { "step", TS_ARG_PITCH },
  };
  for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
    if (strcmp(n, defaults[i].name) == 0)
      return defaults[i].role;
  return TS_ARG_UNSET;
}

/* The file the description's lines come from: the launch file, else the kernel's. */
static const char *lines_path(const ts_plain_desc *d)
{
  return d->launch[0] ? d->launch : d->path;
}

static ts_status field_error(ts_error *err, const char *path, int line, const char *field,
                             const char *what)
{
  if (line > 0)
    return ts_fail(err, TS_ERR_FORMAT, "%s:%d: %s: %s", path, line, field, what);
  return ts_fail(err, TS_ERR_ARG, "%s: %s: %s", path, field, what);
}

/* A name (of a declared buffer): a C identifier that is not W, H or C. */
static int is_name(const char *v)
{
  if (!(isalpha((unsigned char)v[0]) || v[0] == '_'))
    return 0;
  for (const char *q = v; *q; q++)
    if (!(isalnum((unsigned char)*q) || *q == '_'))
      return 0;
  return strcmp(v, "W") && strcmp(v, "H") && strcmp(v, "C");
}

/* Splits "a,b,c" into up to three expressions. */
static int split3(const char *v, char out[3][64])
{
  int n = 0;
  const char *p = v;
  while (*p && n < 3) {
    const char *c = strchr(p, ',');
    size_t len = c ? (size_t)(c - p) : strlen(p);
    if (len == 0 || len >= 64)
      return 0;
    memcpy(out[n], p, len);
    out[n][len] = 0;
    n++;
    p = c ? c + 1 : p + len;
    if (c && !*p)
      return 0;
  }
  return *p ? 0 : n;
}

/* One pass's fields, "k=v k=v ..." (values may be "quoted"). */
static ts_status parse_fields(ts_plain_desc *d, ts_plain_pass *ps, const char *s, int line,
                              ts_error *err)
{
  const char *p = s;
  while (*p) {
    while (*p == ' ' || *p == '\t')
      p++;
    if (!*p)
      break;
    char key[64], val[2048];
    size_t k = 0;
    while (*p && *p != '=' && *p != ' ' && k < sizeof key - 1)
      key[k++] = *p++;
    key[k] = 0;
    if (*p != '=')
      return field_error(err, lines_path(d), line, key, "expected FIELD=VALUE");
    p++;
    size_t v = 0;
    if (*p == '"') {
      p++;
      while (*p && *p != '"' && v < sizeof val - 1)
        val[v++] = *p++;
      if (*p && *p != '"')
        return field_error(err, lines_path(d), line, key, "the value is longer than 2047 characters");
      if (*p != '"')
        return field_error(err, lines_path(d), line, key, "the quoted value has no closing \"");
      p++;
    } else {
      while (*p && *p != ' ' && *p != '\t' && v < sizeof val - 1)
        val[v++] = *p++;
      if (*p && *p != ' ' && *p != '\t')
        return field_error(err, lines_path(d), line, key, "the value is longer than 2047 characters");
    }
    val[v] = 0;
    if (strcmp(key, "entry") == 0) {
      if (v >= sizeof ps->entry)
        return field_error(err, lines_path(d), line, key, "the name is too long");
      memcpy(ps->entry, val, v + 1);
    } else if (strcmp(key, "global") == 0) {
      if (!(ps->gdims = split3(val, ps->global)))
        return field_error(err, lines_path(d), line, key, "expected one to three expressions, as W,H");
    } else if (strcmp(key, "local") == 0) {
      if (!(ps->ldims = split3(val, ps->local)))
        return field_error(err, lines_path(d), line, key, "expected one to three expressions, as 16,16");
    } else if (strcmp(key, "tile") == 0) {
      int64_t t[2];
      if (!ts_parse_ints(val, "x", 1, 4096, t)) {
        char what[200];
        snprintf(what, sizeof what, "expected WxH, as 16x16 (each 1..4096), not '%.64s'", val);
        return field_error(err, lines_path(d), line, key, what);
      }
      ps->tile_w = (int)t[0];
      ps->tile_h = (int)t[1];
    } else if (strcmp(key, "halo") == 0) {
      int64_t h;
      if (!ts_parse_int(val, 0, 64, &h)) {
        char what[200];
        snprintf(what, sizeof what, "expected 0 to 64 pixels, not '%.64s'", val);
        return field_error(err, lines_path(d), line, key, what);
      }
      ps->halo = (int)h;
    } else if (strcmp(key, "options") == 0) {
      /* the pass is built with its own; the first set given is the file's */
      snprintf(ps->options, sizeof ps->options, "%s", val);
      ps->own_options = 1;
      int first = 1;
      for (const ts_plain_pass *q = d->pass; q < ps; q++)
        first &= !q->own_options;
      if (first)
        snprintf(d->options, sizeof d->options, "%s", val);
    } else {
      if (ps->nargs == TS_PLAIN_MAX_PARAMS)
        return field_error(err, lines_path(d), line, key, "too many arguments");
      ts_plain_arg *a = &ps->args[ps->nargs++];
      memset(a, 0, sizeof *a);
      snprintf(a->name, sizeof a->name, "%s", key);
      a->line = line;
      a->role = TS_ARG_VALUE;
      for (int r = TS_ARG_INPUT; r <= TS_ARG_PITCH; r++)
        if (strcmp(val, role_names[r]) == 0)
          a->role = (ts_plain_role)r;
      int out_n = strncmp(val, "output(", 7) == 0, buf_n = strncmp(val, "buffer(", 7) == 0;
      if ((out_n || buf_n) && val[v - 1] == ')') {
        a->role = out_n ? TS_ARG_OUTPUT : TS_ARG_BUFFER;
        snprintf(a->expr, sizeof a->expr, "%.*s", (int)(v - 8), val + 7);
        if (strcmp(a->expr, "1") && strcmp(a->expr, "2") && strcmp(a->expr, "3") &&
            strcmp(a->expr, "4"))
          return field_error(err, lines_path(d), line, key,
                             out_n ? "output(N): N is the channels, 1 to 4"
                                   : "buffer(N): N is the channels, 1 to 4");
      } else if (strncmp(val, "local(", 6) == 0 && val[v - 1] == ')') {
        a->role = TS_ARG_LOCAL;
        snprintf(a->expr, sizeof a->expr, "%.*s", (int)(v - 7), val + 6);
      } else if (a->role == TS_ARG_VALUE) {
        if (v >= sizeof a->expr)
          return field_error(err, lines_path(d), line, key, "the value is longer than 127 bytes");
        memcpy(a->expr, val, v + 1);
        double x;
        ts_error e2 = { 0 };
        if (is_name(val)) {
          a->role = TS_ARG_NAMED; /* a declared buffer: ts_plain_resolve checks that it is one */
        } else if (ts_plain_eval(val, 64, 64, 3, &x, NULL, &e2) != TS_OK)
          return field_error(err, lines_path(d), line, key,
                             "expected input, output, output(CHANNELS), buffer, width, height, "
                             "channels, pitch, local(BYTES), a declared buffer's name or an "
                             "expression of W, H and C");
      }
    }
  }
  return TS_OK;
}

/* An expression field's value: one that evaluates for some image (64x64x3). */
static int expr_ok(const char *v)
{
  double x;
  ts_error e2 = { 0 };
  return ts_plain_eval(v, 64, 64, 3, &x, NULL, &e2) == TS_OK;
}

static const struct {
  const char *name;
  int lane, is_float, is_signed;
} types[] = {
  { "uchar", 1, 0, 0 }, { "char", 1, 0, 1 }, { "ushort", 2, 0, 0 }, { "short", 2, 0, 1 },
  { "uint", 4, 0, 0 },  { "int", 4, 0, 1 },  { "float", 4, 1, 1 },
};

/* A `buffer NAME field=value ...` line. */
static ts_status parse_buffer(ts_plain_desc *d, const char *s, int line, ts_error *err)
{
  const char *path = lines_path(d);
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strcspn(s, " \t");
  char name[64];
  if (n == 0 || n >= sizeof name)
    return field_error(err, path, line, "buffer", "give the buffer a name: buffer NAME type=...");
  memcpy(name, s, n);
  name[n] = 0;
  if (!is_name(name))
    return field_error(err, path, line, "buffer", "a buffer's name is a C identifier, not W, H or C");
  if (ts_plain_buf_named(d, name))
    return field_error(err, path, line, name, "a buffer of that name is declared already");
  if (d->nbufs == TS_PLAIN_MAX_BUFS)
    return field_error(err, path, line, name, "more than 8 buffers");
  ts_plain_bufdecl *b = &d->bufs[d->nbufs];
  memset(b, 0, sizeof *b);
  snprintf(b->name, sizeof b->name, "%s", name);
  b->line = line;
  int have_role = 0, have_type = 0, have_shape = 0;
  const char *p = s + n;
  while (*p) {
    while (*p == ' ' || *p == '\t')
      p++;
    if (!*p)
      break;
    char key[32], val[128];
    size_t k = strcspn(p, "= \t"), v;
    if (k == 0 || k >= sizeof key || p[k] != '=')
      return field_error(err, path, line, name, "expected FIELD=VALUE after the buffer's name");
    memcpy(key, p, k);
    key[k] = 0;
    p += k + 1;
    v = strcspn(p, " \t");
    if (v == 0 || v >= sizeof val)
      return field_error(err, path, line, key, "no value, or one too long");
    memcpy(val, p, v);
    val[v] = 0;
    p += v;
    if (strcmp(key, "type") == 0) {
      size_t t = 0;
      while (t < sizeof types / sizeof types[0] && strcmp(types[t].name, val))
        t++;
      if (t == sizeof types / sizeof types[0])
        return field_error(err, path, line, key, "expected uchar, char, ushort, short, uint, int or float");
      snprintf(b->type, sizeof b->type, "%s", types[t].name);
      b->lane = types[t].lane;
      b->is_float = types[t].is_float;
      b->is_signed = types[t].is_signed;
      have_type = 1;
    } else if (strcmp(key, "shape") == 0) {
      /* N (a row of N), COLS,ROWS, or COLS,ROWS,SLICES (a 3-D buffer, slice after slice) */
      char parts[3][64];
      int np = split3(val, parts);
      for (int i = 0; i < np; i++)
        if (!expr_ok(parts[i]))
          np = 0;
      if (np == 0)
        return field_error(err, path, line, key, "expected N, COLS,ROWS or COLS,ROWS,SLICES: "
                           "expressions of W, H and C");
      memcpy(b->cols, parts[0], sizeof b->cols);
      if (np == 1)
        snprintf(b->rows, sizeof b->rows, "1");
      else if (np == 2)
        memcpy(b->rows, parts[1], sizeof b->rows);
      else if (snprintf(b->rows, sizeof b->rows, "(%s)*(%s)", parts[1], parts[2]) >=
               (int)sizeof b->rows)
        return field_error(err, path, line, key, "its rows and slices are too long");
      have_shape = 1;
    } else if (strcmp(key, "channels") == 0 || strcmp(key, "step") == 0 ||
               strcmp(key, "offset") == 0) {
      if (!expr_ok(val) || strlen(val) >= sizeof b->step)
        return field_error(err, path, line, key, "expected an expression of W, H and C");
      memcpy(key[0] == 'c' ? b->channels : key[0] == 's' ? b->step : b->offset, val,
             strlen(val) + 1);
    } else if (strcmp(key, "role") == 0) {
      b->role = strcmp(val, "input") == 0    ? TS_BUF_INPUT
                : strcmp(val, "output") == 0 ? TS_BUF_OUTPUT
                : strcmp(val, "temp") == 0   ? TS_BUF_TEMP
                                             : 0;
      if (!b->role)
        return field_error(err, path, line, key, "expected input, output or temp");
      have_role = 1;
    } else if (strcmp(key, "init") == 0) {
      b->has_init = 1;
      double x = 0;
      int is_int = 0;
      ts_error e2 = { 0 };
      double st = 0;
      char tail = 0;
      if (strcmp(val, "zero") == 0)
        b->init = 0;
      else if (sscanf(val, "ramp(%lf,%lf%c", &x, &st, &tail) == 3 && tail == ')' &&
               isfinite(x) && isfinite(st))
        b->init = x, b->ramp = st;
      else if (ts_plain_eval(val, 1, 1, 1, &x, &is_int, &e2) == TS_OK)
        b->init = x;
      else
        return field_error(err, path, line, key, "expected zero, a number or ramp(START,STEP)");
    } else if (strcmp(key, "file") == 0) {
      if (strlen(val) >= sizeof b->file)
        return field_error(err, path, line, key, "the path is too long");
      snprintf(b->file, sizeof b->file, "%s", val);
      b->has_init = 1;
    } else if (strcmp(key, "access") == 0) {
      if (strcmp(val, "ro") && strcmp(val, "wo") && strcmp(val, "rw"))
        return field_error(err, path, line, key, "expected ro, wo or rw");
      b->ro = strcmp(val, "ro") == 0;
      b->wo = strcmp(val, "wo") == 0;
    } else if (strcmp(key, "map") == 0) {
      if (strcmp(val, "normalised") && strcmp(val, "low8"))
        return field_error(err, path, line, key, "expected normalised or low8");
      b->low8 = val[0] == 'l';
    } else {
      return field_error(err, path, line, key,
                         "a buffer has type, shape, channels, step, offset, role, init, file, "
                         "access and map");
    }
  }
  if (!have_type || !have_shape || !have_role)
    return field_error(err, path, line, name,
                       !have_type ? "the buffer needs type=" : !have_shape ? "the buffer needs shape=COLS,ROWS"
                                                                           : "the buffer needs role=input, output or temp");
  d->nbufs++;
  return TS_OK;
}

const ts_plain_bufdecl *ts_plain_buf_named(const ts_plain_desc *d, const char *name)
{
  for (int i = 0; i < d->nbufs; i++)
    if (strcmp(d->bufs[i].name, name) == 0)
      return &d->bufs[i];
  return NULL;
}

const ts_plain_kernel *ts_plain_kernel_named(const ts_plain_desc *d, const char *name)
{
  for (int i = 0; i < d->src.nkernels; i++)
    if (strcmp(d->src.kernels[i].name, name) == 0)
      return &d->src.kernels[i];
  return NULL;
}

ts_status ts_plain_resolve(ts_plain_desc *d, ts_plain_pass *ps, ts_error *err)
{
  int line = ps->line;
  if (!ps->entry[0]) {
    if (d->src.nkernels != 1) {
      char names[512] = "";
      for (int i = 0; i < d->src.nkernels; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                 d->src.kernels[i].name);
      return field_error(err, lines_path(d), line, "entry",
                         d->src.nkernels ? "the file has several kernels; name one" : "the file has no __kernel");
    }
    snprintf(ps->entry, sizeof ps->entry, "%s", d->src.kernels[0].name);
  }
  const ts_plain_kernel *k = ts_plain_kernel_named(d, ps->entry);
  if (!k) {
    char what[512];
    snprintf(what, sizeof what, "no __kernel named '%s' in the file", ps->entry);
    return field_error(err, lines_path(d), line, "entry", what);
  }
  for (int i = 0; i < ps->nargs; i++) {
    int found = 0;
    for (int j = 0; j < k->nparams; j++)
      found |= strcmp(k->params[j].name, ps->args[i].name) == 0;
    if (!found) {
      char what[512];
      snprintf(what, sizeof what, "%s has no argument of that name", k->name);
      return field_error(err, lines_path(d), ps->args[i].line ? ps->args[i].line : line,
                         ps->args[i].name, what);
    }
  }
  ts_plain_arg args[TS_PLAIN_MAX_PARAMS];
  for (int j = 0; j < k->nparams; j++) {
    const ts_plain_param *p = &k->params[j];
    ts_plain_arg a = { 0 };
    snprintf(a.name, sizeof a.name, "%s", p->name);
    for (int i = 0; i < ps->nargs; i++)
      if (strcmp(ps->args[i].name, p->name) == 0)
        a = ps->args[i];
    if (a.role == TS_ARG_UNSET && ts_plain_buf_named(d, p->name)) {
      a.role = TS_ARG_NAMED; /* an argument named as a declared buffer is that buffer */
      snprintf(a.expr, sizeof a.expr, "%s", p->name);
    }
    if (a.role == TS_ARG_UNSET)
      a.role = role_by_name(p->name);
    if (a.role == TS_ARG_UNSET && p->image) /* an image read is the input, one written the output */
      a.role = p->image_write ? TS_ARG_OUTPUT : TS_ARG_INPUT;
    char what[512];
    if (a.role == TS_ARG_UNSET) {
      snprintf(what, sizeof what,
               "%s's argument '%s' has no role: say %s=input, output, buffer, width, height, "
               "channels, pitch, local(BYTES) or a value",
               k->name, p->name, p->name);
      return field_error(err, line ? lines_path(d) : d->path, line ? line : k->line, p->name, what);
    }
    if (a.role == TS_ARG_NAMED && !ts_plain_buf_named(d, a.expr)) {
      snprintf(what, sizeof what, "no buffer named '%s' is declared (buffer %s type=... shape=... role=...)",
               a.expr, a.expr);
      return field_error(err, lines_path(d), a.line ? a.line : line, p->name, what);
    }
    int is_buf = a.role == TS_ARG_INPUT || a.role == TS_ARG_OUTPUT || a.role == TS_ARG_BUFFER ||
                 a.role == TS_ARG_NAMED;
    if (p->image && (!is_buf || a.role == TS_ARG_NAMED || p->image != 2)) {
      snprintf(what, sizeof what, p->image != 2 ? "a %d-D image: tilescope binds 2-D images (image2d_t)"
                                                : "an image argument needs input, output or buffer",
               p->image);
      return field_error(err, a.line ? lines_path(d) : d->path, a.line ? a.line : k->line, p->name, what);
    }
    if (is_buf && !p->image && !(p->pointer && p->space == TS_SPACE_GLOBAL)) {
      snprintf(what, sizeof what, "%s is a buffer but the argument is not a __global pointer",
               a.role == TS_ARG_NAMED ? a.expr : role_names[a.role]);
      return field_error(err, a.line ? lines_path(d) : d->path, a.line ? a.line : k->line, p->name, what);
    }
    if (a.role == TS_ARG_LOCAL && !(p->pointer && p->space == TS_SPACE_LOCAL))
      return field_error(err, a.line ? lines_path(d) : d->path, a.line ? a.line : k->line, p->name,
                         "local(BYTES) is for a __local pointer argument");
    if (!is_buf && a.role != TS_ARG_LOCAL && p->pointer) {
      snprintf(what, sizeof what, "a pointer argument needs input, output, buffer or local(BYTES), not %s",
               a.role == TS_ARG_VALUE ? "a value" : role_names[a.role]);
      return field_error(err, a.line ? lines_path(d) : d->path, a.line ? a.line : k->line, p->name, what);
    }
    if (p->pointer && p->space == TS_SPACE_LOCAL && a.role != TS_ARG_LOCAL)
      return field_error(err, a.line ? lines_path(d) : d->path, a.line ? a.line : k->line, p->name,
                         "a __local pointer argument needs local(BYTES)");
    args[j] = a;
  }
  memcpy(ps->args, args, sizeof args[0] * (size_t)k->nparams);
  ps->nargs = k->nparams;
  return TS_OK;
}

/* One line of a description: `plain FIELDS` (or `pass FIELDS`) or `buffer NAME FIELDS`;
 * 0 when it is neither. */
static int parse_line(ts_plain_desc *d, char *f, int line, ts_status *st, ts_error *err)
{
  char *cr = strchr(f, '\r');
  if (cr)
    *cr = 0;
  size_t k = strcspn(f, " \t");
  if ((k == 5 && strncmp(f, "plain", 5) == 0) || (k == 4 && strncmp(f, "pass", 4) == 0)) {
    if (d->npasses == TS_PLAIN_MAX_PASSES) {
      *st = field_error(err, lines_path(d), line, "pass", "more than 8 passes");
    } else {
      ts_plain_pass *ps = &d->pass[d->npasses++];
      ps->line = line;
      *st = parse_fields(d, ps, f + k, line, err);
    }
    return 1;
  }
  if (k == 6 && strncmp(f, "buffer", 6) == 0) {
    *st = parse_buffer(d, f + k, line, err);
    return 1;
  }
  return 0;
}

/* The description's lines: in a kernel file, those that start `// tilescope:` with plain or
 * buffer; in a launch file (launch != 0), every line but blank ones and # comments. */
static ts_status read_lines(ts_plain_desc *d, const char *text, size_t len, int launch,
                            ts_error *err)
{
  ts_status st = TS_OK;
  int line = 0;
  const char *end = text + len;
  for (const char *l = text; l < end && st == TS_OK;) {
    const char *nl = memchr(l, '\n', (size_t)(end - l));
    size_t n = nl ? (size_t)(nl - l) : (size_t)(end - l);
    line++;
    const char *t = l;
    while (t < l + n && (*t == ' ' || *t == '\t'))
      t++;
    size_t rest = (size_t)(l + n - t);
    if (launch && rest && *t != '#' && *t != '\r') {
      char buf[2048];
      if (rest >= sizeof buf)
        return field_error(err, d->launch, line, "line", "longer than 2047 bytes");
      snprintf(buf, sizeof buf, "%.*s", (int)rest, t);
      if (!parse_line(d, buf, line, &st, err))
        return field_error(err, d->launch, line, "line", "expected pass (or plain), buffer, or a # comment");
    } else if (!launch && rest > 13 && strncmp(t, "// tilescope:", 13) == 0) {
      char buf[2048];
      snprintf(buf, sizeof buf, "%.*s", (int)(rest - 13), t + 13);
      char *f = buf;
      while (*f == ' ')
        f++;
      parse_line(d, f, line, &st, err);
    }
    l = nl ? nl + 1 : end;
  }
  return st;
}

/* The command line's passes: they replace the lines' passes, with their build options. */
static ts_status read_extra(ts_plain_desc *d, const char *const *extra, int nextra,
                            ts_error *err)
{
  ts_status st = TS_OK;
  if (nextra > 0) {
    d->npasses = 0;
    d->options[0] = 0;
  }
  for (int i = 0; i < nextra && st == TS_OK; i++) {
    if (d->npasses == TS_PLAIN_MAX_PASSES)
      return ts_fail(err, TS_ERR_ARG, "--pass: more than 8 passes");
    ts_plain_pass *ps = &d->pass[d->npasses++];
    memset(ps, 0, sizeof *ps);
    st = parse_fields(d, ps, extra[i], 0, err);
  }
  if (st == TS_OK && d->npasses == 0)
    d->npasses = 1; /* the defaults */
  return st;
}

ts_status ts_plain_read_desc(ts_plain_desc *d, const char *const *extra, int nextra,
                             ts_error *err)
{
  ts_status st = read_lines(d, d->text, d->len, 0, err);
  return st == TS_OK ? read_extra(d, extra, nextra, err) : st;
}

ts_status ts_plain_read_launch(ts_plain_desc *d, const char *launch, const char *const *extra,
                               int nextra, ts_error *err)
{
  if (!launch)
    return ts_plain_read_desc(d, extra, nextra, err);
  snprintf(d->launch, sizeof d->launch, "%s", launch);
  uint8_t *ltext = NULL;
  size_t llen = 0;
  ts_status st = ts_file_read_all(launch, 1u << 20, &ltext, &llen, err);
  if (st == TS_OK)
    st = read_lines(d, (const char *)ltext, llen, 1, err);
  free(ltext);
  if (st == TS_OK && d->npasses == 0)
    st = field_error(err, launch, 0, "pass", "the launch file has no pass line");
  if (st == TS_OK)
    st = read_extra(d, extra, nextra, err);
  return st;
}

void ts_plain_desc_free(ts_plain_desc *d)
{
  if (!d)
    return;
  ts_plain_src_free(&d->src);
  free(d->text);
  for (int i = 0; i < d->ndata && i < TS_PLAIN_MAX_PARAMS; i++)
    free(d->data[i].bytes);
  free(d);
}
