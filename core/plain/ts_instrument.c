/* The instrumenter of plain kernels (SPEC section 10): parses an OpenCL C file with libclang
 * and writes it again with every access of __global and __local memory passed through the
 * observation runtime (kernels/plain/observe.cl), whatever its spelling: subscripts, `*p`,
 * `p->f`, derived pointers (the type says where a pointer points, so a pointer made by
 * arithmetic is seen like its source), vloadN / vstoreN / vload_half and atomics. barrier()
 * becomes ts_barrier(), which counts the intervals, and the condition of a branch that
 * decides whether a barrier is reached goes through ts_uniform() (ts_instrument_branch.c).
 * Every function of the file takes the work-item's context first; each kernel gets the
 * observation buffer as its last argument (and one of shadows per __local pointer argument), so
 * the kernel's own arguments keep their indices. A call of a built-in that takes a __global
 * or __local pointer tilescope does not know, and an access the rewrite cannot reach (several
 * accesses inside one macro expansion), is an error naming the line: nothing is left
 * unobserved silently.
 *
 * The rewrite is text: each access E of type T becomes (*(T *)ts_g(ts_c, (__global uchar
 * *)&(E), sizeof(T), KIND, LINE)), so it stays an lvalue and is evaluated once. Source
 * positions are the expansion's, so an access spelt through a macro wraps the macro's use.
 *
 * It is split by what it rewrites, each file on a floor of its own. This one, at the bottom,
 * holds what every piece reads (ts_instrument_int.h): the growing string, the file's text
 * through its macros' uses, a node's children, types, the first failure. Above it,
 * ts_instrument_context.c tells accesses and their contexts; ts_instrument_check.c refuses
 * an access left unseen; ts_instrument_macro.c writes a node around its rewritten children,
 * the parts of a macro's use among them; ts_instrument_access.c (accesses and calls) and
 * ts_instrument_branch.c (barriers and the branches before them) write their own nodes; and
 * ts_instrument_walk.c, at the top, walks each function and hands each node to its piece.
 * A piece writes its node's children through ti_emit, which reaches the walk by the walker's
 * pointer, so that no file calls one above it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_instrument_int.h"

void ti_sb_add(sbuf *b, const char *p, size_t n)
{
  if (b->oom)
    return;
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + n + 1)
      cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
      b->oom = 1;
      return;
    }
    b->s = s;
    b->cap = cap;
  }
  memcpy(b->s + b->n, p, n);
  b->n += n;
  b->s[b->n] = 0;
}

void ti_sb_str(sbuf *b, const char *s) { ti_sb_add(b, s, strlen(s)); }

void ti_sb_fmt(sbuf *b, const char *fmt, ...)
{
  char tmp[1024], *t = tmp;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n >= (int)sizeof tmp) { /* a long expression's text: formatted again, whole */
    t = malloc((size_t)n + 1);
    if (!t) {
      b->oom = 1;
      return;
    }
    va_start(ap, fmt);
    vsnprintf(t, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  if (n > 0)
    ti_sb_add(b, t, (size_t)n);
  if (t != tmp)
    free(t);
}

/* Whether text holds a comma outside parentheses and brackets: the range of several macro
 * arguments (AT(p, i) for p[i]), not one argument's text. */
static int spans_arguments(const char *text, size_t n)
{
  int depth = 0;
  for (size_t i = 0; i < n; i++) {
    char ch = text[i];
    depth += ch == '(' || ch == '[' || ch == '{';
    depth -= ch == ')' || ch == ']' || ch == '}';
    if (ch == ',' && depth <= 0)
      return 1;
  }
  return 0;
}

static enum CXChildVisitResult note_use(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  walker *w = d;
  if (clang_getCursorKind(c) != CXCursor_MacroExpansion)
    return CXChildVisit_Continue;
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile f1 = NULL, f2 = NULL;
  unsigned a = 0, b = 0;
  clang_getFileLocation(clang_getRangeStart(r), &f1, NULL, NULL, &a);
  clang_getFileLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &b);
  if (!f1 || !f2 || !clang_File_isEqual(f1, w->file) || !clang_File_isEqual(f2, w->file) || a >= b)
    return CXChildVisit_Continue;
  if (w->nuses == w->capuses) {
    size_t cap = w->capuses ? w->capuses * 2 : 256;
    void *p = realloc(w->uses, cap * sizeof *w->uses);
    if (!p) {
      ti_fail(w, 0, "out of memory");
      return CXChildVisit_Break;
    }
    w->uses = p;
    w->capuses = cap;
  }
  w->uses[w->nuses].a = a;
  w->uses[w->nuses].b = b;
  w->nuses++;
  return CXChildVisit_Continue;
}

void ti_note_uses(walker *w, CXCursor root)
{
  clang_visitChildren(root, note_use, w);
}

/* s widened over every macro's use it overlaps in part, so that its text is whole uses, or
 * lies within one use's parentheses (an argument's text). */
static span whole_uses(const walker *w, span s)
{
  for (int again = 1; again;) {
    again = 0;
    for (size_t i = 0; i < w->nuses; i++) {
      unsigned a = w->uses[i].a, b = w->uses[i].b;
      if (a < s.t && b > s.s && !(s.s <= a && b <= s.t) && !(a < s.s && s.t < b)) {
        s.s = a < s.s ? a : s.s;
        s.t = b > s.t ? b : s.t;
        again = 1;
      }
    }
  }
  return s;
}

/* The end of the widest macro's use that starts at offset at (at itself: none). */
unsigned ti_use_end(const walker *w, unsigned at)
{
  unsigned t = at;
  for (size_t i = 0; i < w->nuses; i++)
    if (w->uses[i].a == at && w->uses[i].b > t)
      t = w->uses[i].b;
  return t;
}

where ti_where_of(walker *w, CXCursor c)
{
  where p = { { 0, 0, 0, 0 }, 0, 0, 0, 0, 0 };
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile f1 = NULL, f2 = NULL, g1 = NULL, g2 = NULL;
  unsigned l1 = 0, o1 = 0, o2 = 0;
  clang_getExpansionLocation(clang_getRangeStart(r), &f1, &l1, NULL, &o1);
  clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &o2);
  clang_getFileLocation(clang_getRangeStart(r), &g1, &p.ml, NULL, &p.m1);
  clang_getFileLocation(clang_getRangeEnd(r), &g2, NULL, NULL, &p.m2);
  p.e = (span){ o1, o2, l1, 0 };
  p.e.ok = f1 && f2 && clang_File_isEqual(f1, w->file) && clang_File_isEqual(f2, w->file) &&
           o1 <= o2 && o2 <= w->len;
  p.mok = g1 && g2 && clang_File_isEqual(g1, w->file) && clang_File_isEqual(g2, w->file);
  p.raw_end = o2;
  if (p.e.ok && g2 && o2 != p.m2)
    p.e.t = ti_use_end(w, o2);
  return p;
}

span ti_span_of(walker *w, CXCursor c)
{
  where p = ti_where_of(w, c);
  span s = p.e;
  unsigned o1 = s.s, o2 = p.raw_end, m1 = p.m1, m2 = p.m2;
  /* Made in the body of a macro used inside another's argument (the dereference of
   * loadpix(p) in storepix(loadpix(p), q)): spelt, the node is a point at that use's start,
   * and its text is that use, not the outer one (convertToDT(x) in storepix(convertToDT(x),
   * q) as well). */
  if (s.ok && p.mok && m1 == m2 && m1 > o1 && m1 < s.t) {
    unsigned t = ti_use_end(w, m1);
    if (t > m1 && t <= s.t) {
      s.s = m1;
      s.t = t;
      s.line = p.ml;
      return whole_uses(w, s);
    }
  }
  /* Spelt in a macro's argument (as_uchar16(vload4(...))): the argument's own text, where
   * that lies inside the use, so the access is rewritten there and not around the use.
   * Not where the access is made by the macro from several of its arguments (AT(p, i) for
   * p[i]): then the use is wrapped, as for an access in the macro's body. */
  if (s.ok && p.mok && m1 < m2 && m2 <= w->len && (o1 == o2 || (m1 >= o1 && m2 <= o2)) &&
      (m1 != o1 || m2 != o2) && !spans_arguments(w->src + m1, m2 - m1)) {
    s.s = m1;
    s.t = m2;
    s.line = p.ml;
  }
  return s.ok ? whole_uses(w, s) : s;
}

void ti_fail(walker *w, unsigned line, const char *fmt, ...)
{
  if (w->failed)
    return;
  w->failed = 1;
  char tmp[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  ts_fail(w->err, TS_ERR_UNSUPPORTED, "%s:%u: %s", w->path, line, tmp);
}

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  kids *k = d;
  if (k->n == 64) {
    k->over = 1;
    return CXChildVisit_Break;
  }
  k->c[k->n++] = c;
  return CXChildVisit_Continue;
}

void ti_children(CXCursor c, kids *k)
{
  k->n = k->over = 0;
  clang_visitChildren(c, collect, k);
}

/* Sets of cursors: the accesses wrapped so far, and the second uses of a macro's argument
 * that its first use's text stands for (ti_check_seen asks). */
void ti_set_add(walker *w, cset *set, CXCursor c)
{
  if (set->n == set->cap) {
    size_t cap = set->cap ? set->cap * 2 : 256;
    void *p = realloc(set->c, cap * sizeof *set->c);
    if (!p) {
      ti_fail(w, 0, "out of memory");
      return;
    }
    set->c = p;
    set->cap = cap;
  }
  set->c[set->n++] = c;
}

int ti_set_has(const cset *set, CXCursor c)
{
  unsigned h = clang_hashCursor(c);
  for (size_t i = 0; i < set->n; i++)
    if (clang_hashCursor(set->c[i]) == h && clang_equalCursors(set->c[i], c))
      return 1;
  return 0;
}

char *ti_type_str(CXType t)
{
  CXString s = clang_getTypeSpelling(t);
  const char *c = clang_getCString(s);
  size_t n = c ? strlen(c) + 1 : 1;
  char *r = malloc(n);
  if (r)
    memcpy(r, c ? c : "", n);
  clang_disposeString(s);
  return r;
}

/* 1: __global, 2: __local, 0: elsewhere, for an lvalue's type as libclang spells it. */
int ti_space_of(CXType t)
{
  char *s = ti_type_str(t);
  int sp = 0;
  if (s && strstr(s, "__global"))
    sp = 1;
  else if (s && strstr(s, "__local"))
    sp = 2;
  free(s);
  return sp;
}

int ti_is_array(CXType t)
{
  enum CXTypeKind k = t.kind;
  return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
         k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

/* A function is a kernel when __kernel (or kernel) comes before its name. */
int ti_is_kernel(walker *w, CXCursor c)
{
  unsigned name = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &name);
  CXToken *toks = NULL;
  unsigned nt = 0;
  clang_tokenize(w->tu, clang_getCursorExtent(c), &toks, &nt);
  int kernel = 0;
  for (unsigned i = 0; i < nt; i++) {
    unsigned off = 0;
    clang_getExpansionLocation(clang_getTokenLocation(w->tu, toks[i]), NULL, NULL, NULL, &off);
    if (off >= name)
      break;
    CXString t = clang_getTokenSpelling(w->tu, toks[i]);
    const char *ts = clang_getCString(t);
    kernel |= strcmp(ts, "__kernel") == 0 || strcmp(ts, "kernel") == 0;
    clang_disposeString(t);
  }
  clang_disposeTokens(w->tu, toks, nt);
  return kernel;
}

/* Whether the text at s is the name itself (not a macro's use that makes it). */
int ti_spelt_here(const walker *w, span s, const char *name)
{
  size_t n = strlen(name);
  return s.ok && s.t - s.s == n && s.t <= w->len && memcmp(w->src + s.s, name, n) == 0;
}

/* Whether the function's definition is in the file (its calls then pass the context). */
int ti_own_function(walker *w, CXCursor fn)
{
  CXCursor def = clang_getCursorDefinition(fn);
  CXFile f = NULL;
  if (!clang_Cursor_isNull(def))
    clang_getExpansionLocation(clang_getCursorLocation(def), &f, NULL, NULL, NULL);
  return f && clang_File_isEqual(f, w->file);
}

void ti_emit(walker *w, sbuf *o, CXCursor c, int ctx)
{
  w->emit_node(w, o, c, ctx);
}
