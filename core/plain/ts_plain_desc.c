/* The launch description of a plain kernel (ts_plain.h): `// tilescope: plain` lines at the
 * top of the file, or the same fields from the command line, checked against the kernels'
 * arguments as libclang reads them. Every argument ends with a role, from the description or
 * from its name; one that has none is an error naming the kernel and the argument. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_file.h"
#include "ts_number.h"
#include "ts_plain.h"

#define MAX_FILE (4u << 20)

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
      if ((size_t)(l + n - f) >= 5 && strncmp(f, "plain", 5) == 0 &&
          (f + 5 == l + n || f[5] == ' ' || f[5] == '\r'))
        return 1;
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

static ts_status field_error(ts_error *err, const char *path, int line, const char *field,
                             const char *what)
{
  if (line > 0)
    return ts_fail(err, TS_ERR_FORMAT, "%s:%d: %s: %s", path, line, field, what);
  return ts_fail(err, TS_ERR_ARG, "%s: %s: %s", path, field, what);
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
    char key[64], val[120];
    size_t k = 0;
    while (*p && *p != '=' && *p != ' ' && k < sizeof key - 1)
      key[k++] = *p++;
    key[k] = 0;
    if (*p != '=')
      return field_error(err, d->path, line, key, "expected FIELD=VALUE");
    p++;
    size_t v = 0;
    if (*p == '"') {
      p++;
      while (*p && *p != '"' && v < sizeof val - 1)
        val[v++] = *p++;
      if (*p != '"')
        return field_error(err, d->path, line, key, "the quoted value has no closing \"");
      p++;
    } else {
      while (*p && *p != ' ' && *p != '\t' && v < sizeof val - 1)
        val[v++] = *p++;
    }
    val[v] = 0;
    if (strcmp(key, "entry") == 0) {
      if (v >= sizeof ps->entry)
        return field_error(err, d->path, line, key, "the name is too long");
      memcpy(ps->entry, val, v + 1);
    } else if (strcmp(key, "global") == 0) {
      if (!(ps->gdims = split3(val, ps->global)))
        return field_error(err, d->path, line, key, "expected one to three expressions, as W,H");
    } else if (strcmp(key, "local") == 0) {
      if (!(ps->ldims = split3(val, ps->local)))
        return field_error(err, d->path, line, key, "expected one to three expressions, as 16,16");
    } else if (strcmp(key, "tile") == 0) {
      int64_t t[2];
      if (!ts_parse_ints(val, "x", 1, 4096, t)) {
        char what[200];
        snprintf(what, sizeof what, "expected WxH, as 16x16 (each 1..4096), not '%.64s'", val);
        return field_error(err, d->path, line, key, what);
      }
      ps->tile_w = (int)t[0];
      ps->tile_h = (int)t[1];
    } else if (strcmp(key, "halo") == 0) {
      int64_t h;
      if (!ts_parse_int(val, 0, 64, &h)) {
        char what[200];
        snprintf(what, sizeof what, "expected 0 to 64 pixels, not '%.64s'", val);
        return field_error(err, d->path, line, key, what);
      }
      ps->halo = (int)h;
    } else if (strcmp(key, "options") == 0) {
      snprintf(d->options, sizeof d->options, "%s", val);
    } else {
      if (ps->nargs == TS_PLAIN_MAX_PARAMS)
        return field_error(err, d->path, line, key, "too many arguments");
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
          return field_error(err, d->path, line, key,
                             out_n ? "output(N): N is the channels, 1 to 4"
                                   : "buffer(N): N is the channels, 1 to 4");
      } else if (strncmp(val, "local(", 6) == 0 && val[v - 1] == ')') {
        a->role = TS_ARG_LOCAL;
        snprintf(a->expr, sizeof a->expr, "%.*s", (int)(v - 7), val + 6);
      } else if (a->role == TS_ARG_VALUE) {
        snprintf(a->expr, sizeof a->expr, "%s", val);
        double x;
        ts_error e2 = { 0 };
        if (ts_plain_eval(val, 64, 64, 3, &x, NULL, &e2) != TS_OK)
          return field_error(err, d->path, line, key,
                             "expected input, output, output(CHANNELS), buffer, width, height, "
                             "channels, pitch, local(BYTES) or an expression of W, H and C");
      }
    }
  }
  return TS_OK;
}

const ts_plain_kernel *ts_plain_kernel_named(const ts_plain_desc *d, const char *name)
{
  for (int i = 0; i < d->src.nkernels; i++)
    if (strcmp(d->src.kernels[i].name, name) == 0)
      return &d->src.kernels[i];
  return NULL;
}

/* Fills the pass's entry, and a role for every argument of its kernel. */
static ts_status resolve(ts_plain_desc *d, ts_plain_pass *ps, ts_error *err)
{
  int line = ps->line;
  if (!ps->entry[0]) {
    if (d->src.nkernels != 1) {
      char names[512] = "";
      for (int i = 0; i < d->src.nkernels; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                 d->src.kernels[i].name);
      return field_error(err, d->path, line, "entry",
                         d->src.nkernels ? "the file has several kernels; name one" : "the file has no __kernel");
    }
    snprintf(ps->entry, sizeof ps->entry, "%s", d->src.kernels[0].name);
  }
  const ts_plain_kernel *k = ts_plain_kernel_named(d, ps->entry);
  if (!k) {
    char what[512];
    snprintf(what, sizeof what, "no __kernel named '%s' in the file", ps->entry);
    return field_error(err, d->path, line, "entry", what);
  }
  for (int i = 0; i < ps->nargs; i++) {
    int found = 0;
    for (int j = 0; j < k->nparams; j++)
      found |= strcmp(k->params[j].name, ps->args[i].name) == 0;
    if (!found) {
      char what[512];
      snprintf(what, sizeof what, "%s has no argument of that name", k->name);
      return field_error(err, d->path, ps->args[i].line ? ps->args[i].line : line,
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
    if (a.role == TS_ARG_UNSET)
      a.role = role_by_name(p->name);
    char what[512];
    if (a.role == TS_ARG_UNSET) {
      snprintf(what, sizeof what,
               "%s's argument '%s' has no role: say %s=input, output, buffer, width, height, "
               "channels, pitch, local(BYTES) or a value",
               k->name, p->name, p->name);
      return field_error(err, d->path, line ? line : k->line, p->name, what);
    }
    int is_buf = a.role == TS_ARG_INPUT || a.role == TS_ARG_OUTPUT || a.role == TS_ARG_BUFFER;
    if (is_buf && !(p->pointer && p->space == TS_SPACE_GLOBAL)) {
      snprintf(what, sizeof what, "%s is an image buffer but the argument is not a __global pointer", role_names[a.role]);
      return field_error(err, d->path, a.line ? a.line : k->line, p->name, what);
    }
    if (a.role == TS_ARG_LOCAL && !(p->pointer && p->space == TS_SPACE_LOCAL))
      return field_error(err, d->path, a.line ? a.line : k->line, p->name,
                         "local(BYTES) is for a __local pointer argument");
    if (!is_buf && a.role != TS_ARG_LOCAL && p->pointer) {
      snprintf(what, sizeof what, "a pointer argument needs input, output, buffer or local(BYTES), not %s",
               a.role == TS_ARG_VALUE ? "a value" : role_names[a.role]);
      return field_error(err, d->path, a.line ? a.line : k->line, p->name, what);
    }
    if (p->pointer && p->space == TS_SPACE_LOCAL && a.role != TS_ARG_LOCAL)
      return field_error(err, d->path, a.line ? a.line : k->line, p->name,
                         "a __local pointer argument needs local(BYTES)");
    args[j] = a;
  }
  memcpy(ps->args, args, sizeof args[0] * (size_t)k->nparams);
  ps->nargs = k->nparams;
  return TS_OK;
}

ts_status ts_plain_read_desc(ts_plain_desc *d, const char *const *extra, int nextra,
                             ts_error *err)
{
  ts_status st = TS_OK;
  /* the header's plain lines */
  int line = 0;
  const char *end = d->text + d->len;
  for (const char *l = d->text; l < end && st == TS_OK;) {
    const char *nl = memchr(l, '\n', (size_t)(end - l));
    size_t n = nl ? (size_t)(nl - l) : (size_t)(end - l);
    line++;
    const char *t = l;
    while (t < l + n && (*t == ' ' || *t == '\t'))
      t++;
    if ((size_t)(l + n - t) > 13 && strncmp(t, "// tilescope:", 13) == 0) {
      char buf[1024];
      snprintf(buf, sizeof buf, "%.*s", (int)(l + n - t - 13), t + 13);
      char *f = buf;
      while (*f == ' ')
        f++;
      if (strncmp(f, "plain", 5) == 0 && (f[5] == ' ' || f[5] == 0 || f[5] == '\r')) {
        char *cr = strchr(f, '\r');
        if (cr)
          *cr = 0;
        if (d->npasses == TS_PLAIN_MAX_PASSES)
          st = field_error(err, d->path, line, "plain", "more than 8 passes");
        else {
          ts_plain_pass *ps = &d->pass[d->npasses++];
          ps->line = line;
          st = parse_fields(d, ps, f + 5, line, err);
        }
      }
    }
    l = nl ? nl + 1 : end;
  }
  if (st == TS_OK && nextra > 0) {
    d->npasses = 0;
    for (int i = 0; i < nextra && st == TS_OK; i++) {
      if (d->npasses == TS_PLAIN_MAX_PASSES)
        st = ts_fail(err, TS_ERR_ARG, "--pass: more than 8 passes");
      else {
        ts_plain_pass *ps = &d->pass[d->npasses++];
        memset(ps, 0, sizeof *ps);
        st = parse_fields(d, ps, extra[i], 0, err);
      }
    }
  }
  if (st == TS_OK && d->npasses == 0)
    d->npasses = 1; /* the defaults */
  return st;
}

ts_status ts_plain_load(const char *path, const char *const *extra, int nextra,
                        ts_plain_desc **out, ts_error *err)
{
  ts_plain_desc *d = calloc(1, sizeof *d);
  if (!d)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  snprintf(d->path, sizeof d->path, "%s", path);
  uint8_t *data = NULL;
  ts_status st = ts_file_read_all(path, MAX_FILE, &data, &d->len, err);
  if (st != TS_OK) {
    free(d);
    return st;
  }
  d->text = (char *)data;
  st = ts_plain_read_desc(d, extra, nextra, err);
  if (st == TS_OK)
    st = ts_plain_parse(d->path, d->text, d->len, d->options, 0, &d->src, err);
  for (int i = 0; st == TS_OK && i < d->npasses; i++)
    st = resolve(d, &d->pass[i], err);
  if (st != TS_OK) {
    ts_plain_desc_free(d);
    return st;
  }
  *out = d;
  return TS_OK;
}

void ts_plain_desc_free(ts_plain_desc *d)
{
  if (!d)
    return;
  ts_plain_src_free(&d->src);
  free(d->text);
  free(d);
}
