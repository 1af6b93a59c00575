/* Reading Oclgrind's simulator files (ts_sim.h). The reader keeps Oclgrind's tokenizer: one
 * line at a time, `#` ending a line's text, values spread over lines as they come, a
 * header running from `<` to the last `>` of its line; and its value syntax: integers in
 * decimal (hex after `hex`), chars read as ints and range-checked, unsigned types wrapping a
 * leading minus, floats in decimal only. */
#define _XOPEN_SOURCE 700 /* strdup */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ts_file.h"
#include "ts_sim.h"

static const struct {
  const char *name;
  int size, is_float, is_signed;
} TYPES[TS_SIM_NTYPES] = {
  { "char", 1, 0, 1 },  { "uchar", 1, 0, 0 }, { "short", 2, 0, 1 }, { "ushort", 2, 0, 0 },
  { "int", 4, 0, 1 },   { "uint", 4, 0, 0 },  { "long", 8, 0, 1 },  { "ulong", 8, 0, 0 },
  { "float", 4, 1, 1 }, { "double", 8, 1, 1 },
};

int ts_sim_type_size(ts_sim_type t)
{
  return TYPES[t].size;
}

const char *ts_sim_type_name(ts_sim_type t)
{
  return TYPES[t].name;
}

/* ---- the tokenizer: s->at within the current line, which ends (comment aside) at eol ---- */

typedef struct reader {
  ts_sim *s;
  size_t eol;        /* end of the current line's text, before any comment */
  size_t next;       /* start of the next line */
  const char *what;  /* what is being read, for errors: "the NDRange", "argument 2 'data'" */
  char what_buf[128];
  ts_error *err;
} reader;

static void load_line(reader *r, size_t start)
{
  ts_sim *s = r->s;
  size_t e = start;
  while (e < s->len && s->text[e] != '\n')
    e++;
  r->next = e < s->len ? e + 1 : e;
  const char *hash = memchr(s->text + start, '#', e - start);
  r->eol = hash ? (size_t)(hash - s->text) : e;
  s->at = start;
  s->line++;
}

/* Skips to the next non-space character, across lines; 0 at the end of the file. */
static int skip_space(reader *r)
{
  ts_sim *s = r->s;
  for (;;) {
    while (s->at < r->eol && isspace((unsigned char)s->text[s->at]))
      s->at++;
    if (s->at < r->eol)
      return 1;
    if (r->next >= s->len)
      return 0;
    load_line(r, r->next);
  }
}

static ts_status fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static ts_status fail(reader *r, const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return ts_fail(r->err, TS_ERR_FORMAT, "%s:%d: %s: %s", r->s->path, r->s->line, r->what, msg);
}

/* The next whitespace-free token, across lines. */
static ts_status token(reader *r, char *out, size_t cap)
{
  ts_sim *s = r->s;
  if (!skip_space(r))
    return ts_fail(r->err, TS_ERR_FORMAT, "%s:%d: %s: the file ends before it", s->path, s->line,
                   r->what);
  size_t b = s->at;
  while (s->at < r->eol && !isspace((unsigned char)s->text[s->at]))
    s->at++;
  size_t n = s->at - b;
  if (n >= cap)
    return fail(r, "a value of %zu characters", n);
  memcpy(out, s->text + b, n);
  out[n] = 0;
  return TS_OK;
}

/* ---- values ---- */

/* Parses text as one value of type t into out (TYPES[t].size bytes); 0 when it is not one. */
static int parse_value(const char *text, ts_sim_type t, int hex, void *out)
{
  if (!*text)
    return 0;
  char *end;
  errno = 0;
  if (TYPES[t].is_float) {
    for (const char *p = text; *p; p++)
      if (!isdigit((unsigned char)*p) && !strchr("+-.eE", *p))
        return 0; /* no inf, nan, hex floats or suffixes: Oclgrind takes none */
    double d = strtod(text, &end);
    if (*end || errno == ERANGE || end == text)
      return errno == ERANGE && *end == 0 && fabs(d) < 1 ? (memset(out, 0, (size_t)TYPES[t].size), 1)
                                                          : 0;
    if (t == TS_SIM_FLOAT) {
      if (fabs(d) > FLT_MAX)
        return 0;
      float f = (float)d;
      memcpy(out, &f, 4);
    } else {
      memcpy(out, &d, 8);
    }
    return 1;
  }
  int base = hex ? 16 : 10;
  int neg = text[0] == '-';
  const char *digits = text + (text[0] == '-' || text[0] == '+');
  if (!isxdigit((unsigned char)digits[0]) || (!hex && !isdigit((unsigned char)digits[0])))
    return 0;
  if (hex && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') && !digits[2])
    return 0;
  unsigned long long mag = strtoull(digits, &end, base);
  if (*end || errno == ERANGE)
    return 0;
  int size = TYPES[t].size;
  if (t == TS_SIM_CHAR || t == TS_SIM_UCHAR) {
    /* Read as an int, then it must be a value of the 8-bit type. */
    if (mag > (neg ? 2147483648ull : 2147483647ull))
      return 0;
    long long v = neg ? -(long long)mag : (long long)mag;
    if (t == TS_SIM_CHAR ? (v < -128 || v > 127) : (v < 0 || v > 255))
      return 0;
    uint8_t b = (uint8_t)(int8_t)v;
    memcpy(out, &b, 1);
    return 1;
  }
  unsigned long long umax = size == 8 ? ~0ull : (1ull << (size * 8)) - 1;
  uint64_t bits;
  if (TYPES[t].is_signed) {
    unsigned long long lim = umax / 2 + (neg ? 1 : 0);
    if (mag > lim)
      return 0;
    bits = neg ? (uint64_t)0 - mag : mag;
  } else {
    if (mag > umax)
      return 0;
    bits = neg ? (uint64_t)0 - mag : mag; /* unsigned: a minus wraps */
  }
  switch (size) {
  case 2: { uint16_t v = (uint16_t)bits; memcpy(out, &v, 2); break; }
  case 4: { uint32_t v = (uint32_t)bits; memcpy(out, &v, 4); break; }
  default: memcpy(out, &bits, 8);
  }
  return 1;
}

/* A value as a double and back, for ranges: arithmetic in the type itself. */
static void add_value(ts_sim_type t, void *v, const void *inc)
{
  switch (t) {
  case TS_SIM_CHAR: case TS_SIM_UCHAR: { uint8_t a, b; memcpy(&a, v, 1); memcpy(&b, inc, 1); a = (uint8_t)(a + b); memcpy(v, &a, 1); break; }
  case TS_SIM_SHORT: case TS_SIM_USHORT: { uint16_t a, b; memcpy(&a, v, 2); memcpy(&b, inc, 2); a = (uint16_t)(a + b); memcpy(v, &a, 2); break; }
  case TS_SIM_INT: case TS_SIM_UINT: { uint32_t a, b; memcpy(&a, v, 4); memcpy(&b, inc, 4); a += b; memcpy(v, &a, 4); break; }
  case TS_SIM_LONG: case TS_SIM_ULONG: { uint64_t a, b; memcpy(&a, v, 8); memcpy(&b, inc, 8); a += b; memcpy(v, &a, 8); break; }
  case TS_SIM_FLOAT: { float a, b; memcpy(&a, v, 4); memcpy(&b, inc, 4); a += b; memcpy(v, &a, 4); break; }
  default: { double a, b; memcpy(&a, v, 8); memcpy(&b, inc, 8); a += b; memcpy(v, &a, 8); break; }
  }
}

static double as_double(ts_sim_type t, const void *v)
{
  switch (t) {
  case TS_SIM_CHAR: { int8_t x; memcpy(&x, v, 1); return x; }
  case TS_SIM_UCHAR: { uint8_t x; memcpy(&x, v, 1); return x; }
  case TS_SIM_SHORT: { int16_t x; memcpy(&x, v, 2); return x; }
  case TS_SIM_USHORT: { uint16_t x; memcpy(&x, v, 2); return x; }
  case TS_SIM_INT: { int32_t x; memcpy(&x, v, 4); return x; }
  case TS_SIM_UINT: { uint32_t x; memcpy(&x, v, 4); return x; }
  case TS_SIM_LONG: { int64_t x; memcpy(&x, v, 8); return (double)x; }
  case TS_SIM_ULONG: { uint64_t x; memcpy(&x, v, 8); return (double)x; }
  case TS_SIM_FLOAT: { float x; memcpy(&x, v, 4); return x; }
  default: { double x; memcpy(&x, v, 8); return x; }
  }
}

/* ---- the head ---- */

static ts_status read_size3(reader *r, const char *what, size_t out[3])
{
  r->what = what;
  char tok[64];
  for (int i = 0; i < 3; i++) {
    ts_status st = token(r, tok, sizeof tok);
    if (st)
      return st;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(tok, &end, 10);
    if (*end || errno || tok[0] == '-' || !isdigit((unsigned char)tok[0]))
      return fail(r, "'%s' is not a size", tok);
    if (v > ((size_t)1 << 32))
      return fail(r, "'%s' is over 2^32", tok);
    out[i] = (size_t)v;
  }
  return TS_OK;
}

/* The ARGS line: only its --build-options, as Oclgrind's test runner passes them on. */
static void read_args_line(ts_sim *s)
{
  if (strncmp(s->text, "# ARGS:", 7) != 0)
    return;
  const char *e = memchr(s->text, '\n', s->len);
  size_t n = e ? (size_t)(e - s->text) : s->len;
  char line[2048];
  snprintf(line, sizeof line, "%.*s", (int)(n - 7 < sizeof line ? n - 7 : sizeof line - 1),
           s->text + 7);
  char *save = NULL;
  for (char *w = strtok_r(line, " \t\r", &save); w; w = strtok_r(NULL, " \t\r", &save))
    if (strcmp(w, "--build-options") == 0) {
      char *o = strtok_r(NULL, " \t\r", &save);
      if (o)
        snprintf(s->options + strlen(s->options), sizeof s->options - strlen(s->options),
                 "%s%s", s->options[0] ? " " : "", o);
    }
}

ts_status ts_sim_head(const char *path, ts_sim **out, ts_error *err)
{
  *out = NULL;
  ts_sim *s = calloc(1, sizeof *s);
  if (!s)
    return ts_fail(err, TS_ERR_NOMEM, "%s: out of memory", path);
  snprintf(s->path, sizeof s->path, "%s", path);
  uint8_t *data = NULL;
  ts_status st = ts_file_read_all(path, (size_t)64 << 20, &data, &s->len, err);
  if (st) {
    free(s);
    return st;
  }
  s->text = (char *)data;
  read_args_line(s);
  reader r = { .s = s, .err = err };
  load_line(&r, 0);
  char tok[1024];
  r.what = "the kernel file";
  if ((st = token(&r, tok, sizeof tok)))
    goto fail;
  /* Beside the .sim first (a suite run from anywhere), then from the current folder, where
   * oclgrind-kernel looks. */
  const char *slash = strrchr(path, '/');
  if (tok[0] != '/' && slash)
    snprintf(s->program, sizeof s->program, "%.*s/%.500s", (int)(slash - path < 500 ? slash - path : 500), path, tok);
  else
    snprintf(s->program, sizeof s->program, "%s", tok);
  if (access(s->program, R_OK) != 0) {
    if (access(tok, R_OK) != 0) {
      st = ts_fail(err, TS_ERR_IO, "%s:%d: the kernel file '%s' cannot be read", path, s->line,
                   tok);
      goto fail;
    }
    snprintf(s->program, sizeof s->program, "%s", tok);
  }
  r.what = "the kernel's name";
  if ((st = token(&r, tok, sizeof tok)))
    goto fail;
  if (strlen(tok) >= sizeof s->kernel) {
    st = fail(&r, "'%s' is too long", tok);
    goto fail;
  }
  snprintf(s->kernel, sizeof s->kernel, "%.63s", tok);
  if ((st = read_size3(&r, "the NDRange", s->global)) ||
      (st = read_size3(&r, "the work-group size", s->local)))
    goto fail;
  for (int i = 0; i < 3; i++)
    if (s->local[i] == 0) {
      st = fail(&r, "a work-group size of 0");
      goto fail;
    }
  /* The place after the head stays in s->at and s->line, for ts_sim_args. */
  *out = s;
  return TS_OK;
fail:
  ts_sim_free(s);
  return st;
}

void ts_sim_free(ts_sim *s)
{
  if (!s)
    return;
  for (int i = 0; i < s->nargs; i++)
    free(s->args[i].data);
  free(s->text);
  free(s);
}

/* ---- the arguments ---- */

/* The element type Oclgrind takes for a parameter without a type word: the first of its
 * names that begins the parameter's type, its address space and qualifiers aside. */
static int default_type(const ts_plain_param *p, ts_sim_type *t)
{
  static const char *const drop[] = { "__global", "global", "__constant", "constant",
                                      "__local", "local", "__private", "private", "const",
                                      "volatile", "restrict", "__restrict" };
  char buf[160] = "", word[128];
  const char *q = p->type;
  int unsig = 0;
  while (*q) {
    while (*q == ' ')
      q++;
    size_t n = 0;
    while (q[n] && q[n] != ' ' && q[n] != '*')
      n++;
    if (n == 0) { /* a '*' */
      strncat(buf, q, 1);
      q++;
      continue;
    }
    snprintf(word, sizeof word, "%.*s", (int)n, q);
    q += n;
    int skip = 0;
    for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
      skip |= strcmp(word, drop[i]) == 0;
    if (skip)
      continue;
    if (strcmp(word, "unsigned") == 0) {
      unsig = 1;
      continue;
    }
    if (unsig) {
      strncat(buf, "u", sizeof buf - strlen(buf) - 1);
      unsig = 0;
    }
    strncat(buf, word, sizeof buf - strlen(buf) - 1);
  }
  if (unsig)
    strncat(buf, "uint", sizeof buf - strlen(buf) - 1);
  for (int i = 0; i < TS_SIM_NTYPES; i++)
    if (strncmp(buf, TYPES[i].name, strlen(TYPES[i].name)) == 0) {
      *t = (ts_sim_type)i;
      return 1;
    }
  if (strncmp(buf, "void*", 5) == 0) {
    *t = TS_SIM_UCHAR;
    return 1;
  }
  return 0;
}

/* One argument's header and values. */
static ts_status read_arg(reader *r, const ts_plain_param *p, ts_sim_arg *a)
{
  ts_sim *s = r->s;
  if (!skip_space(r))
    return ts_fail(r->err, TS_ERR_FORMAT, "%s:%d: %s: the file ends before it", s->path,
                   s->line, r->what);
  a->line = s->line;
  a->param_size = p->elem_size;
  if (s->text[s->at] != '<')
    return fail(r, "expected its description <...>");
  s->at++;
  size_t gt = r->eol;
  while (gt > s->at && s->text[gt - 1] != '>')
    gt--;
  if (gt == s->at && (gt >= r->eol || s->text[gt - 1] != '>'))
    return fail(r, "its description has no closing '>'");
  char head[512];
  size_t hn = gt - 1 - s->at;
  if (hn >= sizeof head)
    return fail(r, "its description is too long");
  memcpy(head, s->text + s->at, hn);
  head[hn] = 0;
  s->at = gt;

  int have_type = 0, have_size = 0, null = 0;
  char fill[128] = "", range[256] = "";
  int has_fill = 0, has_range = 0;
  char *save = NULL;
  for (char *w = strtok_r(head, " \t\r", &save); w; w = strtok_r(NULL, " \t\r", &save)) {
    int ty = -1;
    for (int i = 0; i < TS_SIM_NTYPES; i++)
      if (strcmp(w, TYPES[i].name) == 0)
        ty = i;
    if (ty >= 0) {
      if (have_type)
        return fail(r, "a second type '%s'", w);
      a->type = (ts_sim_type)ty;
      have_type = 1;
    } else if (strncmp(w, "dump", 4) == 0) {
      a->dump = 1;
    } else if (strncmp(w, "fill=", 5) == 0 && w[5]) {
      snprintf(fill, sizeof fill, "%s", w + 5);
      has_fill = 1;
    } else if (strncmp(w, "range=", 6) == 0 && w[6]) {
      snprintf(range, sizeof range, "%s", w + 6);
      has_range = 1;
    } else if (strncmp(w, "size=", 5) == 0) {
      char *end;
      errno = 0;
      unsigned long long v = strtoull(w + 5, &end, 10);
      if (*end || errno || !isdigit((unsigned char)w[5]))
        return fail(r, "'%s' is not a size", w);
      if (v > TS_SIM_MAX_BYTES)
        return fail(r, "%s is over 1 GiB", w);
      a->size = (size_t)v;
      have_size = 1;
    } else if (strcmp(w, "hex") == 0) {
      a->hex = 1;
    } else if (strcmp(w, "noinit") == 0) {
      a->noinit = 1;
    } else if (strcmp(w, "null") == 0) {
      null = 1;
    } else if (strcmp(w, "ro") == 0 || strcmp(w, "wo") == 0) {
      *(w[0] == 'r' ? &a->ro : &a->wo) = 1;
      if (a->ro && a->wo)
        return fail(r, "'ro' and 'wo' together");
    } else {
      return fail(r, "'%s' is not a word of a description (size= type fill= range= hex noinit "
                     "null ro wo dump)", w);
    }
  }
  int buffer = p->pointer && (p->space == TS_SPACE_GLOBAL || p->space == TS_SPACE_CONSTANT);
  int local = p->pointer && p->space == TS_SPACE_LOCAL;
  if ((a->noinit || null) && !buffer)
    return fail(r, "'%s' is for __global and __constant buffers", a->noinit ? "noinit" : "null");
  if ((a->ro || a->wo) && !(p->pointer && p->space == TS_SPACE_GLOBAL))
    return fail(r, "'%s' is for __global buffers", a->ro ? "ro" : "wo");
  if (null) {
    if (have_size || has_fill || has_range || a->noinit || a->dump)
      return fail(r, "'null' takes no other word");
    a->kind = TS_SIM_NULL;
    return TS_OK;
  }
  if (!have_size)
    return fail(r, "its size is missing (size=BYTES)");
  if (!have_type && !default_type(p, &a->type))
    return fail(r, "its type cannot be told from '%s': name it (char uchar short ushort int "
                   "uint long ulong float double)", p->type);
  size_t es = (size_t)TYPES[a->type].size;
  if (a->size % es)
    return fail(r, "its size is not a whole number of %s", TYPES[a->type].name);
  if (a->dump && !buffer)
    return fail(r, "'dump' is for __global and __constant buffers");
  if (a->noinit + has_fill + has_range > 1)
    return fail(r, "more than one of noinit, fill= and range=");
  a->kind = local ? TS_SIM_LOCAL : buffer ? TS_SIM_BUFFER : TS_SIM_VALUE;
  if (local || a->noinit)
    return TS_OK; /* a __local parameter's fill or range is ignored, as Oclgrind does */
  if (a->kind == TS_SIM_VALUE && a->size < (size_t)p->elem_size)
    return ts_fail(r->err, TS_ERR_FORMAT, "%s:%d: %s: size=%zu is smaller than the parameter's "
                   "%d bytes", s->path, s->line, r->what, a->size, p->elem_size);
  size_t alloc = a->size ? a->size : 1;
  if (!(a->data = calloc(1, alloc)))
    return ts_fail(r->err, TS_ERR_NOMEM, "%s:%d: %s: out of memory", s->path, s->line, r->what);
  size_t n = a->size / es;
  uint8_t v[8];
  if (has_fill) {
    if (!parse_value(fill, a->type, a->hex, v))
      return fail(r, "fill=%s is not a value of its type", fill);
    for (size_t i = 0; i < n; i++)
      memcpy(a->data + i * es, v, es);
  } else if (has_range) {
    char given[256];
    snprintf(given, sizeof given, "%s", range);
    char *c1 = strchr(range, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    uint8_t lo[8], inc[8], hi[8];
    if (!c2 || strchr(c2 + 1, ':'))
      return fail(r, "range=%s is not START:STEP:END", given);
    *c1 = *c2 = 0;
    if (!parse_value(range, a->type, a->hex, lo) || !parse_value(c1 + 1, a->type, a->hex, inc) ||
        !parse_value(c2 + 1, a->type, a->hex, hi))
      return fail(r, "range=%s is not START:STEP:END of its type", given);
    /* Oclgrind's count: (END - START + STEP) / STEP, the sums in the type. */
    double step = as_double(a->type, inc);
    double count = (as_double(a->type, hi) - as_double(a->type, lo) + step) / step;
    if (step == 0 || count != floor(count) || count < 0 || (size_t)count != n)
      return fail(r, "range=%s does not make as many elements as its size holds", given);
    memcpy(v, lo, 8);
    for (size_t i = 0; i < n; i++) {
      memcpy(a->data + i * es, v, es);
      add_value(a->type, v, inc);
    }
  } else {
    char tok[128];
    for (size_t i = 0; i < n; i++) {
      ts_status st = token(r, tok, sizeof tok);
      if (st)
        return st;
      if (!parse_value(tok, a->type, a->hex, v))
        return fail(r, "'%s' is not a value of its type", tok);
      memcpy(a->data + i * es, v, es);
    }
  }
  return TS_OK;
}

ts_status ts_sim_args(ts_sim *s, const ts_plain_kernel *k, ts_error *err)
{
  reader r = { .s = s, .err = err };
  /* Back to the line the head ended on: its text after the head's last value. */
  size_t start = s->at;
  while (start > 0 && s->text[start - 1] != '\n')
    start--;
  int line = s->line, at = (int)(s->at - start);
  s->line--;
  load_line(&r, start);
  s->at = start + (size_t)at;
  s->line = line;
  for (int i = 0; i < k->nparams; i++) {
    ts_sim_arg *a = &s->args[i];
    snprintf(a->name, sizeof a->name, "%s", k->params[i].name);
    snprintf(r.what_buf, sizeof r.what_buf, "argument %d '%s'", i, k->params[i].name);
    r.what = r.what_buf;
    s->nargs = i + 1;
    ts_status st = read_arg(&r, &k->params[i], a);
    if (st)
      return st;
  }
  /* Nothing may follow on a later line (text after the last value on its line is left,
   * as Oclgrind leaves it). */
  s->at = r.next;
  r.eol = r.next;
  if (r.next < s->len) {
    load_line(&r, r.next);
    if (skip_space(&r))
      return ts_fail(err, TS_ERR_FORMAT, "%s:%d: more than the kernel's %d arguments",
                     s->path, s->line, k->nparams);
  }
  return TS_OK;
}

/* ---- the launch as a description's pass ---- */

ts_status ts_sim_desc(const ts_sim *s, ts_plain_desc *d, ts_error *err)
{
  ts_plain_pass *ps = &d->pass[0];
  memset(ps, 0, sizeof *ps);
  d->npasses = 1;
  snprintf(ps->entry, sizeof ps->entry, "%s", s->kernel);
  snprintf(ps->options, sizeof ps->options, "%s", s->options);
  ps->gdims = ps->ldims = 3;
  for (int i = 0; i < 3; i++) {
    snprintf(ps->global[i], sizeof ps->global[i], "%zu", s->global[i]);
    snprintf(ps->local[i], sizeof ps->local[i], "%zu", s->local[i]);
  }
  ps->nargs = s->nargs;
  d->whole = 1;
  d->ndata = 0;
  for (int i = 0; i < s->nargs; i++) {
    const ts_sim_arg *a = &s->args[i];
    ts_plain_arg *pa = &ps->args[i];
    snprintf(pa->name, sizeof pa->name, "%s", a->name);
    pa->line = a->line;
    if (a->kind == TS_SIM_LOCAL) {
      pa->role = TS_ARG_LOCAL;
      snprintf(pa->expr, sizeof pa->expr, "%zu", a->size);
      continue;
    }
    ts_plain_data *dt = &d->data[d->ndata];
    memset(dt, 0, sizeof *dt);
    snprintf(dt->name, sizeof dt->name, "%s", a->name);
    dt->size = a->size;
    dt->lane = TYPES[a->type].size;
    dt->is_float = TYPES[a->type].is_float;
    dt->is_signed = TYPES[a->type].is_signed;
    dt->ro = a->ro;
    dt->wo = a->wo;
    dt->dump = a->dump;
    if (a->data) {
      if (!(dt->bytes = malloc(a->size ? a->size : 1)))
        return ts_fail(err, TS_ERR_NOMEM, "%s: out of memory", s->path);
      memcpy(dt->bytes, a->data, a->size);
    }
    pa->role = a->kind == TS_SIM_VALUE ? TS_ARG_BYTES
               : a->kind == TS_SIM_NULL ? TS_ARG_NULL
                                        : TS_ARG_DATA;
    snprintf(pa->expr, sizeof pa->expr, "%d", d->ndata++);
  }
  /* the buffer shown: the first dumped, else the first */
  int shown = -1;
  for (int i = 0; i < d->ndata && shown < 0; i++)
    if (d->data[i].dump && d->data[i].size >= (size_t)d->data[i].lane)
      shown = i;
  for (int i = 0; i < s->nargs && shown < 0; i++)
    if (s->args[i].kind == TS_SIM_BUFFER)
      for (int j = 0; j < d->ndata && shown < 0; j++)
        if (strcmp(d->data[j].name, s->args[i].name) == 0 && d->data[j].size >= (size_t)d->data[j].lane)
          shown = j;
  if (shown >= 0)
    d->data[shown].shown = 1;
  return TS_OK;
}

void ts_plain_grid(size_t n, int *cols, int *rows)
{
  size_t c = n;
  if (n > 64) {
    size_t best = 0, root = 1;
    while ((root + 1) * (root + 1) <= n)
      root++;
    for (size_t k = 8; k <= 64; k++)
      if (n % k == 0 && (!best || (k > root ? k - root : root - k) < (best > root ? best - root : root - best)))
        best = k;
    c = best ? best : n;
  }
  *cols = (int)(c ? c : 1);
  *rows = (int)(c ? n / c : 1);
}

/* ---- the dump ---- */

void ts_sim_dump(const ts_sim_arg *a, const void *bytes, FILE *f)
{
  int es = TYPES[a->type].size;
  size_t n = a->size / (size_t)es;
  fprintf(f, "\nArgument '%s': %zu bytes\n", a->name, a->size);
  const uint8_t *b = bytes;
  for (size_t i = 0; i < n; i++) {
    const uint8_t *e = b + i * (size_t)es;
    char v[64];
    if (TYPES[a->type].is_float) {
      char g[48];
      snprintf(g, sizeof g, "%g", as_double(a->type, e));
      /* with hex, Oclgrind pads the decimal text with zeros to the hex width */
      int pad = a->hex ? es * 2 - (int)strlen(g) : 0;
      snprintf(v, sizeof v, "%s%.*s%s", a->hex ? "0x" : "", pad > 0 ? pad : 0,
               "0000000000000000", g);
    } else if (a->hex) {
      uint64_t u = 0;
      if (a->type == TS_SIM_CHAR) /* printed through an int: a negative char has 8 digits */
        u = (uint64_t)(uint32_t)(int32_t)(int8_t)e[0];
      else
        memcpy(&u, e, (size_t)es); /* little-endian */
      snprintf(v, sizeof v, "0x%0*" PRIx64, es * 2, u);
    } else if (TYPES[a->type].is_signed) {
      int64_t x = a->type == TS_SIM_CHAR    ? (int8_t)e[0]
                  : a->type == TS_SIM_SHORT ? (int16_t)(e[0] | e[1] << 8)
                                            : 0;
      if (a->type == TS_SIM_INT) {
        int32_t y;
        memcpy(&y, e, 4);
        x = y;
      } else if (a->type == TS_SIM_LONG) {
        memcpy(&x, e, 8);
      }
      snprintf(v, sizeof v, "%" PRId64, x);
    } else {
      uint64_t u = 0;
      memcpy(&u, e, (size_t)es);
      snprintf(v, sizeof v, "%" PRIu64, u);
    }
    fprintf(f, "  %s[%zu] = %s\n", a->name, i, v);
  }
  fputc('\n', f);
}
