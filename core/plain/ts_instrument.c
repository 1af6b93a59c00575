/* The instrumenter of plain kernels (SPEC section 10): parses an OpenCL C file with libclang
 * and writes it again with every access of __global and __local memory passed through the
 * observation runtime (kernels/plain/observe.cl), whatever its spelling: subscripts, `*p`,
 * `p->f`, derived pointers (the type says where a pointer points, so a pointer made by
 * arithmetic is seen like its source), vloadN / vstoreN / vload_half and atomics. barrier()
 * becomes ts_barrier(), which counts the intervals, and the condition of a branch that
 * decides whether a barrier is reached goes through ts_uniform() (emit_branch). Every
 * function of the file takes the work-item's context first; each kernel gets the observation buffer as its last argument
 * (and two shadows per __local pointer argument), so the kernel's own arguments keep their
 * indices. A call of a built-in that takes a __global or __local pointer tilescope does not
 * know, and an access the rewrite cannot reach (several accesses inside one macro
 * expansion), is an error naming the line: nothing is left unobserved silently.
 *
 * The rewrite is text: each access E of type T becomes (*(T *)ts_g(ts_c, (__global uchar
 * *)&(E), sizeof(T), KIND, LINE)), so it stays an lvalue and is evaluated once. Source
 * positions are the expansion's, so an access spelt through a macro wraps the macro's use. */
#include <ctype.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_instrument.h"

enum { CTX_READ, CTX_WRITE, CTX_UPDATE, CTX_NONE };
/* Access kinds, as observe.cl's TS_K_*. */
enum { K_READ = 1, K_WRITE = 2, K_UPDATE = 3, K_ATOMIC = 4 };

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
static unsigned use_end(const walker *w, unsigned at)
{
  unsigned t = at;
  for (size_t i = 0; i < w->nuses; i++)
    if (w->uses[i].a == at && w->uses[i].b > t)
      t = w->uses[i].b;
  return t;
}

/* Where a cursor is: its extent as its expansion's offsets in the file (e: its macro's use,
 * where it comes from one), and as spelt (m1, m2, ml: the start's line; mok: in the file).
 * An extent that ends in a macro's argument (out[i] = ID(in[i]) for #define ID(x) x) ends,
 * expanded, where the macro's use starts (raw_end), as libclang leaves such an end in the
 * macro: e ends where the use ends. (An end elsewhere is a place in the file, where both
 * agree.) */
typedef struct where {
  span e;
  unsigned m1, m2, ml, raw_end;
  int mok;
} where;

static where where_of(walker *w, CXCursor c)
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
    p.e.t = use_end(w, o2);
  return p;
}

span ti_span_of(walker *w, CXCursor c)
{
  where p = where_of(w, c);
  span s = p.e;
  unsigned o1 = s.s, o2 = p.raw_end, m1 = p.m1, m2 = p.m2;
  /* Made in the body of a macro used inside another's argument (the dereference of
   * loadpix(p) in storepix(loadpix(p), q)): spelt, the node is a point at that use's start,
   * and its text is that use, not the outer one (convertToDT(x) in storepix(convertToDT(x),
   * q) as well). */
  if (s.ok && p.mok && m1 == m2 && m1 > o1 && m1 < s.t) {
    unsigned t = use_end(w, m1);
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

/* A cursor's children, the first 64 (over: it has more; a block's statements are then
 * written one by one, emit_stmts, and anything else with more is refused). */
typedef struct kids {
  CXCursor c[64];
  int n, over;
} kids;

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

static void children(CXCursor c, kids *k)
{
  k->n = k->over = 0;
  clang_visitChildren(c, collect, k);
}

/* Sets of cursors: the accesses wrapped so far, and the second uses of a macro's argument
 * that its first use's text stands for (check_seen asks). */
static void set_add(walker *w, cset *set, CXCursor c)
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

static int set_has(const cset *set, CXCursor c)
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
static int space_of(CXType t)
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

static int is_array(CXType t)
{
  enum CXTypeKind k = t.kind;
  return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
         k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

/* The first token at or after offset `at` within the cursor's extent, as text; where that
 * is a macro's name, the first punctuation of its use past its '(' (the = of ID(=)). */
static int token_after(walker *w, CXCursor c, unsigned at, char *out, size_t n)
{
  CXToken *toks = NULL;
  unsigned nt = 0;
  clang_tokenize(w->tu, clang_getCursorExtent(c), &toks, &nt);
  int found = 0, named = 0;
  for (unsigned i = 0; i < nt && !found; i++) {
    unsigned off = 0;
    clang_getExpansionLocation(clang_getTokenLocation(w->tu, toks[i]), NULL, NULL, NULL, &off);
    if (off < at)
      continue;
    CXString s = clang_getTokenSpelling(w->tu, toks[i]);
    const char *t = clang_getCString(s);
    int ident = clang_getTokenKind(toks[i]) == CXToken_Identifier;
    if (!named && ident && i + 1 < nt && clang_getTokenKind(toks[i + 1]) == CXToken_Punctuation)
      named = 1; /* a use: look past its name and '(' */
    else if (!(named && (ident || strcmp(t, "(") == 0))) {
      snprintf(out, n, "%s", t);
      found = 1;
    }
    clang_disposeString(s);
  }
  clang_disposeTokens(w->tu, toks, nt);
  return found;
}

static void emit(walker *w, sbuf *o, CXCursor c, int ctx);
static void emit_stmts(walker *w, sbuf *o, CXCursor block, span s);
static int is_deref(CXCursor c);
static int kind_of(int ctx);
static int observed_call(CXCursor c);
static int vector_shape(const char *name, int *store, int *half);
typedef struct part part;
static void write_parts(walker *w, sbuf *o, span s, const part *p, int np, int wrap,
                        unsigned bline);

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

static int contexts(walker *w, CXCursor c, const kids *k, int ctx, int *kctx);

/* What of a cursor is written in turn: a child, or, where children span the whole of one
 * macro's use (parts made in the macro's body), what of them is spelt in the use's
 * arguments (PLUS1(in[i]) for ((v) + 1): in[i]). */
struct part {
  CXCursor c;
  span s;
  int ctx, index; /* index: the child's, or -1 for a part found inside the use */
  /* A pointer that the macro's body makes an access through (*(p), vload3(0, p)), sp 1 or 2:
   * the access's kind, its element type and lanes, and its offset in elements. */
  int sp, kind, lanes;
  CXType et;
  long long off;
  CXCursor acc; /* the access (or vector call) it stands for, observed once it is written */
};

static part plain_part(CXCursor c, span s, int ctx, int index)
{
  part p = { c, s, ctx, index, 0, 0, 0, clang_getCursorType(c), 0, c };
  return p;
}

enum { MAX_PARTS = 64 };

/* The parts of node n (in context ctx) that spans the whole of the use u: its children spelt
 * in the use's arguments, and those of its children that span the use too. A node that
 * spans the use and is itself an access was made in the macro's body from several parts:
 * it cannot be wrapped alone. */
/* The pointer argument under x that a macro's body reaches through parentheses and casts
 * only (OpenCV's storepix(val, addr) for *(__global T *)(addr) = val, or vstore3(val, 0,
 * (__global T1 *)(addr))): its text is spelt in the use's arguments, and it is the address
 * of the access the body makes (x: the dereference, or the call's pointer argument). */
static int pointer_argument(walker *w, CXCursor x, span u, CXCursor *ptr)
{
  span s0 = ti_span_of(w, x);
  if (s0.ok && !(s0.s == u.s && s0.t == u.t) && s0.s != s0.t && s0.s >= u.s && s0.t <= u.t) {
    *ptr = x; /* spelt in an argument itself */
    return clang_getCanonicalType(clang_getCursorType(x)).kind == CXType_Pointer;
  }
  for (int depth = 0; depth < 16; depth++) {
    kids k;
    children(x, &k);
    int last = -1;
    for (int i = 0; i < k.n; i++)
      if (clang_isExpression(clang_getCursorKind(k.c[i])))
        last = i;
    if (last < 0)
      return 0;
    x = k.c[last];
    span xs = ti_span_of(w, x);
    if (!xs.ok || xs.s < u.s || xs.t > u.t)
      return 0;
    if (!(xs.s == u.s && xs.t == u.t) && xs.s != xs.t) { /* spelt in an argument */
      *ptr = x;
      return clang_getCanonicalType(clang_getCursorType(x)).kind == CXType_Pointer;
    }
    enum CXCursorKind xk = clang_getCursorKind(x);
    if (xk != CXCursor_ParenExpr && xk != CXCursor_CStyleCastExpr && xk != CXCursor_UnexposedExpr)
      return 0;
  }
  return 0;
}

/* The length of the name at offset at (a macro's, where its use starts). */
static size_t name_len(const walker *w, unsigned at)
{
  size_t n = 0;
  while (at + n < w->len && n < 64 &&
         (isalnum((unsigned char)w->src[at + n]) || w->src[at + n] == '_'))
    n++;
  return n;
}

/* Adds q to the parts of the use u. A text used twice (SQ(x) for ((x) * (x))) is one part,
 * written once in the contexts of both uses; but a pointer argument that the body makes an
 * access through cannot be written twice over, nor once for two uses: refused. */
static void add_part(walker *w, span u, part *p, int *np, part q)
{
  int j = 0;
  while (j < *np && (p[j].s.s != q.s.s || p[j].s.t != q.s.t))
    j++;
  if (j < *np && (p[j].sp || q.sp)) {
    ti_fail(w, u.line, "%.*s uses its argument '%.*s' for an access and more besides (another "
            "access, a test); tilescope observes each access where its text is, so write them "
            "out here", (int)name_len(w, u.s), w->src + u.s, (int)(q.s.t - q.s.s),
            w->src + q.s.s);
    return;
  }
  if (j < *np) {
    set_add(w, &w->twins, q.c);
    if (p[j].ctx != q.ctx)
      p[j].ctx = p[j].ctx == CTX_NONE ? q.ctx : q.ctx == CTX_NONE ? p[j].ctx : CTX_UPDATE;
    return;
  }
  if (*np == MAX_PARTS) {
    ti_fail(w, u.line, "a macro's use with over %d arguments' parts", MAX_PARTS);
    return;
  }
  p[(*np)++] = q;
}

static void use_parts(walker *w, CXCursor n, int ctx, span u, part *p, int *np)
{
  kids k;
  children(n, &k);
  int kctx[64];
  int sp = contexts(w, n, &k, ctx, kctx);
  CXCursor ptr;
  if (sp && is_deref(n) && k.n == 1 && pointer_argument(w, k.c[0], u, &ptr)) {
    part q = plain_part(ptr, ti_span_of(w, ptr), ctx, -1);
    q.sp = sp;
    q.kind = kind_of(ctx);
    q.lanes = 1;
    q.et = clang_getCursorType(n);
    q.acc = n;
    add_part(w, u, p, np, q);
    return;
  }
  int skip = -1; /* a vector call's pointer, made a part here */
  if (!sp && clang_getCursorKind(n) == CXCursor_CallExpr && observed_call(n) &&
      k.n >= 3 && !w->dialect) {
    CXString ns = clang_getCursorSpelling(n);
    int store, half, lanes = vector_shape(clang_getCString(ns), &store, &half);
    clang_disposeString(ns);
    CXCursor arg, vp = k.c[k.n - 1];
    CXEvalResult ev = lanes && !half ? clang_Cursor_Evaluate(k.c[k.n - 2]) : NULL;
    int konst = ev && clang_EvalResult_getKind(ev) == CXEval_Int;
    long long off = konst ? clang_EvalResult_getAsLongLong(ev) : 0;
    if (ev)
      clang_EvalResult_dispose(ev);
    if (!konst || !pointer_argument(w, vp, u, &arg)) {
      ti_fail(w, u.line, "%.*s makes a vector access of __global or __local memory out of the "
              "parts of its use; tilescope observes each access where its text is, so write it "
              "out here", (int)name_len(w, u.s), w->src + u.s);
      return;
    }
    part q = plain_part(arg, ti_span_of(w, arg), CTX_NONE, -1);
    q.sp = observed_call(n);
    q.kind = store ? K_WRITE : K_READ;
    q.lanes = lanes;
    q.et = clang_getPointeeType(clang_getCursorType(vp));
    q.off = off;
    q.acc = n;
    add_part(w, u, p, np, q);
    skip = k.n - 1;
  }
  if (sp) {
    size_t nl = name_len(w, u.s);
    ti_fail(w, u.line, "%.*s makes an access of __global or __local memory out of the parts of "
            "its use; tilescope observes each access where its text is, so write the accesses "
            "out here (or give the macro each one whole, as one argument)", (int)nl, w->src + u.s);
    return;
  }
  for (int i = 0; i < k.n && !w->failed; i++) {
    span cs = ti_span_of(w, k.c[i]);
    if (!cs.ok || cs.s < u.s || cs.t > u.t || i == skip)
      continue;
    if ((cs.s == u.s && cs.t == u.t) || cs.s == cs.t) { /* (a point: a nested use's body) */
      use_parts(w, k.c[i], kctx[i], u, p, np);
      continue;
    }
    add_part(w, u, p, np, plain_part(k.c[i], cs, kctx[i], -1));
  }
}

static int part_cmp(const void *a, const void *b)
{
  const part *x = a, *y = b;
  return x->s.s < y->s.s ? -1 : x->s.s > y->s.s;
}

/* The cursor's text with its children rewritten, ctx[i] the context of child i; child wrap
 * (>= 0), a branch's condition, passed through ts_uniform with bline, the barrier's line. */
static void emit_body_wrap(walker *w, sbuf *o, CXCursor c, span s, const kids *k,
                           const int *ctx, int wrap, unsigned bline)
{
  part p[MAX_PARTS];
  span ks[64];
  int np = 0, use = 0;
  /* (a child with the parent's very text is the parent's own part, unless the parent is an
   * operator: then both were made in one macro's body, incpix(p) for (*(p))++) */
  enum CXCursorKind ck = clang_getCursorKind(c);
  int through = ck == CXCursor_ParenExpr || ck == CXCursor_UnexposedExpr ||
                ck == CXCursor_CStyleCastExpr || ck == CXCursor_CompoundStmt;
  for (int i = 0; i < k->n; i++) {
    span cs = ks[i] = ti_span_of(w, k->c[i]);
    if (cs.ok && ((cs.s == s.s && cs.t == s.t && (k->n > 1 || !through)) || cs.s == cs.t))
      use = 1; /* parts of one macro's use (a point: of a use nested in it): gathered below */
    else if (cs.ok && cs.s >= s.s && cs.t <= s.t && np < MAX_PARTS)
      p[np++] = plain_part(k->c[i], cs, ctx[i], i);
  }
  if (use) { /* then every child is part of the use: what its arguments spell, in order */
    np = 0;
    for (int i = 0; i < k->n && !w->failed; i++) {
      span cs = ks[i];
      if (cs.ok && ((cs.s == s.s && cs.t == s.t) || cs.s == cs.t))
        use_parts(w, k->c[i], ctx[i], s, p, &np);
      else if (cs.ok && cs.s >= s.s && cs.t <= s.t && np < MAX_PARTS)
        p[np++] = plain_part(k->c[i], cs, ctx[i], -1);
    }
    qsort(p, (size_t)np, sizeof *p, part_cmp);
  }
  write_parts(w, o, s, p, np, wrap, bline);
}

/* s's text with its parts p (in order) rewritten; part wrap's text through ts_uniform. */
static void write_parts(walker *w, sbuf *o, span s, const part *p, int np, int wrap,
                        unsigned bline)
{
  /* a for's or while's body, told its way (emit_branch), and its condition's line */
  int top = w->top_body, braced = w->top_braced;
  unsigned tline = w->top_line, id = w->top_id;
  w->top_body = -1;
  unsigned pos = s.s;
  for (int i = 0; i < np; i++) {
    if (p[i].s.s < pos)
      continue; /* overlapping texts: the first is written */
    ti_sb_add(o, w->src + pos, p[i].s.s - pos);
    int wrapped = p[i].index >= 0 && p[i].index == wrap;
    if (wrapped && w->sw_labels) {
      ti_sb_str(o, "ts_sw_begin(ts_c, (long)(");
      w->out->guards++;
    } else if (wrapped) {
      if (top >= 0 && !braced)
        ti_sb_fmt(o, "TS_HEAD_N(ts_c, %u, %u, %u, (", p[i].s.line - w->line_base,
                  bline - w->line_base, id);
      else
        ti_sb_fmt(o, "%s(ts_c, %u, %u, (", top < 0 ? "TS_UNIFORM" : "TS_HEAD",
                  p[i].s.line - w->line_base, bline - w->line_base);
      w->out->guards++;
    }
    int body = top >= 0 && p[i].index == top && wrap >= 0 &&
               clang_getCursorKind(p[i].c) == CXCursor_CompoundStmt;
    if (body)
      ti_sb_fmt(o, "{ TS_WAY(ts_c, %u, %u, %u); ", tline - w->line_base, bline - w->line_base, id);
    if (p[i].sp) { /* the pointer of an access the body makes: the access's address, checked */
      char *pt = ti_type_str(clang_getCursorType(p[i].c));
      char *et = ti_type_str(p[i].et);
      const char *as = p[i].sp == 1 ? "__global" : "__local";
      char by[160] = "0";
      if (p[i].off)
        snprintf(by, sizeof by, "(size_t)%lld * %d * sizeof(%s)", p[i].off, p[i].lanes, et);
      ti_sb_fmt(o, "((%s)(ts_%c(ts_c, (%s uchar *)(", pt, p[i].sp == 1 ? 'g' : 'l', as);
      emit(w, o, p[i].c, CTX_NONE);
      ti_sb_fmt(o, ") + %s, %d * sizeof(%s), %d, %u) - %s))", by, p[i].lanes, et, p[i].kind,
                p[i].s.line - w->line_base, by);
      set_add(w, &w->seen, p[i].acc);
      w->out->accesses++;
      free(pt);
      free(et);
    } else {
      emit(w, o, p[i].c, p[i].ctx);
    }
    if (wrapped && w->sw_labels)
      ti_sb_fmt(o, "))%s", w->sw_labels);
    else if (wrapped)
      ti_sb_str(o, "))");
    if (body)
      ti_sb_str(o, " }");
    pos = p[i].s.t;
  }
  ti_sb_add(o, w->src + pos, s.t - pos);
}

static void emit_body(walker *w, sbuf *o, CXCursor c, span s, const kids *k, const int *ctx)
{
  emit_body_wrap(w, o, c, s, k, ctx, -1, 0);
}

/* ---- branches before a barrier ----
 * A work-group's work-items must all reach the same barriers. A branch decides that when its
 * statement holds a barrier (an if's branches, a loop's body), or when it holds a return
 * with a barrier after it in the function, or a break or continue of a loop that holds one.
 * Its condition is passed through ts_uniform (observe.cl), which tells a group's items that
 * decide it apart. A call of a function that reaches a barrier counts as a barrier. */

static int is_barrier_call(walker *w, CXCursor c)
{
  if (clang_getCursorKind(c) != CXCursor_CallExpr)
    return 0;
  CXString ns = clang_getCursorSpelling(c);
  const char *n = clang_getCString(ns);
  int hit = n && (strcmp(n, "barrier") == 0 || strcmp(n, "work_group_barrier") == 0);
  for (int i = 0; n && !hit && i < w->nbfns; i++)
    hit = strcmp(n, w->bfns[i]) == 0;
  clang_disposeString(ns);
  return hit;
}

typedef struct bfind {
  walker *w;
  unsigned after, line; /* the first barrier at or after offset `after`: its line */
} bfind;

static enum CXChildVisitResult find_barrier(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  bfind *b = d;
  if (is_barrier_call(b->w, c)) {
    unsigned line = 0, off = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, &off);
    if (off >= b->after) {
      b->line = line ? line : 1;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Recurse;
}

/* The line of the first barrier in c's subtree at or after offset `after` (0: none). */
static unsigned barrier_in(walker *w, CXCursor c, unsigned after)
{
  bfind b = { w, after, 0 };
  clang_visitChildren(c, find_barrier, &b);
  return b.line;
}

static enum CXChildVisitResult note_fn(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  walker *w = d;
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
      w->nbfns == (int)(sizeof w->bfns / sizeof w->bfns[0]))
    return CXChildVisit_Continue;
  CXString ns = clang_getCursorSpelling(c);
  const char *n = clang_getCString(ns);
  int known = 0;
  for (int i = 0; n && i < w->nbfns; i++)
    known |= strcmp(n, w->bfns[i]) == 0;
  if (n && !known && barrier_in(w, c, 0)) {
    snprintf(w->bfns[w->nbfns++], sizeof w->bfns[0], "%s", n);
    w->bchanged = 1;
  }
  clang_disposeString(ns);
  return CXChildVisit_Continue;
}

void ti_barrier_fns(walker *w, CXCursor root)
{
  do {
    w->bchanged = 0;
    clang_visitChildren(root, note_fn, w);
  } while (w->bchanged);
}

typedef struct exits {
  int ret, brk, cont; /* a return, a break, a continue that the if's branches take */
} exits;

/* The exits an if's branches take themselves: not those under a nested if (which decides
 * them, and is checked itself), loop or switch (which keeps its breaks and continues). */
static enum CXChildVisitResult find_exit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  exits *e = d;
  switch (clang_getCursorKind(c)) {
  case CXCursor_ReturnStmt:
    e->ret = 1;
    return CXChildVisit_Continue;
  case CXCursor_BreakStmt:
    e->brk = 1;
    return CXChildVisit_Continue;
  case CXCursor_ContinueStmt:
    e->cont = 1;
    return CXChildVisit_Continue;
  case CXCursor_IfStmt:
  case CXCursor_ForStmt:
  case CXCursor_WhileStmt:
  case CXCursor_DoStmt:
  case CXCursor_SwitchStmt:
    return CXChildVisit_Continue;
  default:
    return CXChildVisit_Recurse;
  }
}

/* The index among k of a branch statement's condition (-1: none, as in for (;;)). A for's
 * children leave out the parts it lacks, so its condition is the child between the two
 * semicolons of its head. */
static int cond_index(walker *w, CXCursor c, const kids *k)
{
  enum CXCursorKind ck = clang_getCursorKind(c);
  if (ck != CXCursor_ForStmt) {
    for (int i = 0; i < k->n; i++) {
      int j = ck == CXCursor_DoStmt ? k->n - 1 - i : i;
      if (clang_isExpression(clang_getCursorKind(k->c[j])))
        return j;
    }
    return -1;
  }
  CXToken *toks = NULL;
  unsigned nt = 0, semi[2] = { 0, 0 };
  int depth = 0, ns = 0;
  clang_tokenize(w->tu, clang_getCursorExtent(c), &toks, &nt);
  for (unsigned i = 0; i < nt && ns < 2; i++) {
    CXString t = clang_getTokenSpelling(w->tu, toks[i]);
    const char *ts = clang_getCString(t);
    depth += strcmp(ts, "(") == 0;
    depth -= strcmp(ts, ")") == 0;
    if (depth == 1 && strcmp(ts, ";") == 0)
      clang_getExpansionLocation(clang_getTokenLocation(w->tu, toks[i]), NULL, NULL, NULL,
                                 &semi[ns++]);
    clang_disposeString(t);
  }
  clang_disposeTokens(w->tu, toks, nt);
  for (int i = 0; ns == 2 && i < k->n; i++) {
    span cs = ti_span_of(w, k->c[i]);
    if (cs.ok && cs.s > semi[0] && cs.t <= semi[1] &&
        clang_isExpression(clang_getCursorKind(k->c[i])))
      return i;
  }
  return -1;
}

/* A switch's case labels (not a nested switch's), evaluated. */
typedef struct labels {
  long long v[64];
  int n, bad;  /* bad: one that is no integer, or a range (case 1 ... 3), or more than 64 */
} labels;

static enum CXChildVisitResult find_label(CXCursor c, CXCursor parent, CXClientData data)
{
  (void)parent;
  labels *l = data;
  enum CXCursorKind ck = clang_getCursorKind(c);
  if (ck == CXCursor_SwitchStmt)
    return CXChildVisit_Continue;
  if (ck == CXCursor_CaseStmt) {
    kids k;
    children(c, &k);
    CXEvalResult r = k.n == 2 ? clang_Cursor_Evaluate(k.c[0]) : NULL;
    if (!r || clang_EvalResult_getKind(r) != CXEval_Int || l->n == 64)
      l->bad = 1;
    else
      l->v[l->n++] = clang_EvalResult_getAsLongLong(r);
    if (r)
      clang_EvalResult_dispose(r);
  }
  return CXChildVisit_Recurse;
}

/* A switch that decides a barrier (one in its body): its value goes through ts_sw_begin, and
 * each case label is a decision of its own (observe.cl's ts_sw_case). */
static void emit_switch(walker *w, sbuf *o, CXCursor c, span s, const kids *k, const int *kctx)
{
  unsigned bline = barrier_in(w, c, 0);
  int wrap = bline ? cond_index(w, c, k) : -1;
  if (wrap < 0) {
    emit_body(w, o, c, s, k, kctx);
    return;
  }
  labels l = { .n = 0 };
  clang_visitChildren(c, find_label, &l);
  if (l.bad) {
    ti_fail(w, ti_span_of(w, c).line, "a switch that decides a barrier, with a case label "
            "tilescope cannot evaluate (a range, or over 64); write it as ifs");
    return;
  }
  char text[64 * 64 + 64];
  long long most = l.n ? l.v[0] : 0, least = most;
  unsigned line = ti_span_of(w, k->c[wrap]).line - w->line_base, bl = bline - w->line_base;
  size_t at = 0;
  for (int i = 0; i < l.n; i++) {
    most = l.v[i] > most ? l.v[i] : most;
    least = l.v[i] < least ? l.v[i] : least;
    at += (size_t)snprintf(text + at, sizeof text - at, ", ts_sw_case(ts_c, %u, %u, %lldL)", line,
                           bl, l.v[i]);
  }
  snprintf(text + at, sizeof text - at, ", ts_sw_end(ts_c, %lldL)",
           most < LLONG_MAX ? most + 1 : least - 1);
  w->sw_labels = text;
  emit_body_wrap(w, o, c, s, k, kctx, wrap, bline);
  w->sw_labels = NULL;
}

/* An if, for, while or do in a function that reaches a barrier: its condition wrapped where
 * it decides a barrier, and what a return, break or continue inside it would skip. */
static void emit_branch(walker *w, sbuf *o, CXCursor c, span s, const kids *k, const int *kctx)
{
  int loop = clang_getCursorKind(c) != CXCursor_IfStmt;
  unsigned inside = barrier_in(w, c, 0), bline = inside;
  if (!bline && !loop) {
    exits e = { 0, 0, 0 };
    clang_visitChildren(c, find_exit, &e);
    if (e.ret)
      bline = w->ret_bline ? w->ret_bline : barrier_in(w, w->fn, s.t);
    if (!bline && e.brk) /* every later round of the loop */
      bline = w->brk_bline;
    if (!bline && e.cont && w->in_loop) /* the rest of this round */
      bline = barrier_in(w, w->loop, s.t);
  }
  unsigned ret = w->ret_bline, brk = w->brk_bline;
  CXCursor outer = w->loop;
  int in_loop = w->in_loop;
  if (loop) {
    w->brk_bline = inside; /* a break in its body leaves this loop only */
    if (inside)
      w->ret_bline = inside;
    w->loop = c;
    w->in_loop = 1;
  }
  int wrap = bline ? cond_index(w, c, k) : -1;
  /* A for or while that decides a barrier: its condition is checked where the device allows
   * (TS_HEAD: a GPU), and its body and its end tell the way taken (TS_WAY: pocl, which runs a
   * loop's inner branches by its first work-item's way when its condition does more) */
  int top = wrap >= 0 && clang_getCursorKind(c) != CXCursor_DoStmt && loop;
  /* Its end is told by a loop of one round around it, which keeps it one statement (the ';'
   * of a body without braces, an else after it); a body in braces tells its way at its
   * start. (The line is this loop's own: loops nested in the body set the walker's again.) */
  unsigned tline = top ? ti_span_of(w, k->c[wrap]).line : 0;
  if (top) {
    int braced = clang_getCursorKind(k->c[k->n - 1]) == CXCursor_CompoundStmt;
    unsigned id = w->out->loops < TS_PLAIN_LOOPS ? (unsigned)w->out->loops : TS_PLAIN_LOOPS;
    w->out->loops++;
    ti_sb_fmt(o, "for (int ts_once = 1; ts_once; TS_WAY_END(ts_c, %u, %u, %u, %d), ts_once = 0) ",
              tline - w->line_base, bline - w->line_base, id, braced);
    w->top_body = k->n - 1;
    w->top_line = tline;
    w->top_braced = braced;
    w->top_id = id;
  }
  emit_body_wrap(w, o, c, s, k, kctx, wrap, bline);
  w->top_body = -1;
  w->ret_bline = ret;
  w->brk_bline = brk;
  w->loop = outer;
  w->in_loop = in_loop;
}

/* Remembers an access's extent; two accesses with one extent are one macro's use. */
static void note_wrapped(walker *w, span s)
{
  for (size_t i = 0; i < w->nwrapped; i++)
    if (w->wrapped[i][0] == s.s && w->wrapped[i][1] == s.t) {
      ti_fail(w, s.line,
           "several memory accesses come from one macro's use here; tilescope observes each "
           "access, so write them out (or make the macro one access)");
      return;
    }
  if (w->nwrapped == w->capwrapped) {
    size_t cap = w->capwrapped ? w->capwrapped * 2 : 256;
    void *p = realloc(w->wrapped, cap * sizeof *w->wrapped);
    if (!p) {
      ti_fail(w, s.line, "out of memory");
      return;
    }
    w->wrapped = p;
    w->capwrapped = cap;
  }
  w->wrapped[w->nwrapped][0] = s.s;
  w->wrapped[w->nwrapped][1] = s.t;
  w->nwrapped++;
}

static int kind_of(int ctx)
{
  return ctx == CTX_WRITE ? K_WRITE : ctx == CTX_UPDATE ? K_UPDATE : K_READ;
}

/* (*(T *)ts_g(ts_c, (__global uchar *)&(E), sizeof(T), KIND, LINE)) */
static void emit_access(walker *w, sbuf *o, CXCursor c, span s, int sp, int ctx, const kids *k,
                        const int *kctx)
{
  if (w->dialect && sp != 1) {
    emit_body(w, o, c, s, k, kctx);
    return;
  }
  note_wrapped(w, s);
  w->out->accesses++;
  if (!w->dialect)
    set_add(w, &w->seen, c);
  char *t = ti_type_str(clang_getCursorType(c));
  const char *as = sp == 1 ? "__global" : "__local";
  if (w->dialect)
    ti_sb_fmt(o, "(*(%s *)ts_obs_direct(ts_o_, (%s uchar *)&(", t, as);
  else
    ti_sb_fmt(o, "(*(%s *)ts_%c(ts_c, (%s uchar *)&(", t, sp == 1 ? 'g' : 'l', as);
  emit_body(w, o, c, s, k, kctx);
  ti_sb_fmt(o, "), sizeof(%s), %d, %u))", t, kind_of(ctx), s.line - w->line_base);
  free(t);
}

static int vec_width(const char *name, const char *prefix)
{
  const char *p = name + strlen(prefix);
  int n = atoi(p);
  return n == 2 || n == 3 || n == 4 || n == 8 || n == 16 ? n : 0;
}

/* vloadN(off, p) / vstoreN(v, off, p) / vload_half[N](off, p) / vstore_half[N][_r](v, off, p):
 * the pointer argument becomes the element's own address, checked; the offset becomes 0. */
/* vloadN / vstoreN / vload_half[N] / vstore_half[N][_r]: its lanes (0: none of these),
 * whether it stores, whether it is a half one. */
static int vector_shape(const char *name, int *store, int *half)
{
  *store = strncmp(name, "vstore", 6) == 0;
  *half = strstr(name, "_half") != NULL;
  if (!*store && strncmp(name, "vload", 5) != 0)
    return 0;
  const char *p = name + (*store ? 6 : 5);
  if (*p == 'a')
    p++; /* vloada_half */
  if (*half)
    p += 5;
  int n = *half ? 1 : 0;
  if (isdigit((unsigned char)*p))
    n = vec_width(p, "");
  return n;
}

/* vloadN / vstoreN made in a macro's body from a pointer spelt in its arguments, at a constant
 * offset (OpenCV's loadpix(addr) for vload3(0, (__global const T1 *)(addr))): the use is
 * written with that pointer's text checked as the access's address. */
static int emit_vector_in_body(walker *w, sbuf *o, CXCursor c, span s)
{
  part p[MAX_PARTS];
  int np = 0;
  use_parts(w, c, CTX_READ, s, p, &np);
  qsort(p, (size_t)np, sizeof *p, part_cmp);
  write_parts(w, o, s, p, np, -1, 0);
  return 1;
}

static int emit_vector_call(walker *w, sbuf *o, CXCursor c, const char *name, span s,
                            const kids *k)
{
  int store, half, n = vector_shape(name, &store, &half);
  if (n == 0 || k->n < (store ? 4 : 3))
    return 0;
  CXCursor ptr = k->c[k->n - 1], off = k->c[k->n - 2];
  CXType pt = clang_getCursorType(ptr);
  int sp = space_of(clang_getPointeeType(pt));
  if (sp == 0 || (w->dialect && sp != 1))
    return 0; /* private or constant memory (or a dialect's __local): nothing to observe */
  set_add(w, &w->seen, c);
  span ps = ti_span_of(w, ptr);
  if (!w->dialect && ps.ok && ((ps.s == s.s && ps.t == s.t) || ps.s == ps.t))
    return emit_vector_in_body(w, o, c, s);
  char *ts = ti_type_str(pt);
  sbuf ob = { 0 }, pb = { 0 }, vb = { 0 };
  emit(w, &ob, off, CTX_READ);
  emit(w, &pb, ptr, CTX_NONE);
  if (store)
    emit(w, &vb, k->c[k->n - 3], CTX_READ);
  ti_sb_fmt(o, "%s(", name);
  if (store)
    ti_sb_fmt(o, "%s, ", vb.s ? vb.s : "");
  ti_sb_fmt(o, "0, (%s)%s(%s uchar *)((%s) + (size_t)(%s) * %d), %d * sizeof(*(%s)), %d, %u))",
         ts, w->dialect ? "ts_obs_direct(ts_o_, " : sp == 1 ? "ts_g(ts_c, " : "ts_l(ts_c, ",
         sp == 1 ? "__global" : "__local", pb.s ? pb.s : "", ob.s ? ob.s : "", n, n,
         pb.s ? pb.s : "", store ? K_WRITE : K_READ, s.line - w->line_base);
  note_wrapped(w, s);
  w->out->accesses++;
  free(ob.s);
  free(pb.s);
  free(vb.s);
  free(ts);
  return 1;
}

/* Whether the text at s is the name itself (not a macro's use that makes it). */
static int spelt_here(const walker *w, span s, const char *name)
{
  size_t n = strlen(name);
  return s.ok && s.t - s.s == n && s.t <= w->len && memcmp(w->src + s.s, name, n) == 0;
}

/* Whether the function's definition is in the file (its calls then pass the context). */
static int own_function(walker *w, CXCursor fn)
{
  CXCursor def = clang_getCursorDefinition(fn);
  CXFile f = NULL;
  if (!clang_Cursor_isNull(def))
    clang_getExpansionLocation(clang_getCursorLocation(def), &f, NULL, NULL, NULL);
  return f && clang_File_isEqual(f, w->file);
}

static int count_params(CXCursor fn)
{
  int n = clang_Cursor_getNumArguments(fn);
  return n > 0 ? n : 0;
}

/* A helper's head, from s.s to end, with the work-item's context as its first parameter:
 * `(` after the name gets `ts_ctx *ts_c, `, or its parameter list becomes it (f(void)). */
static void emit_params(walker *w, sbuf *o, CXCursor c, span s, unsigned end, int nparm)
{
  unsigned name = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &name);
  CXString ns = clang_getCursorSpelling(c);
  int here = spelt_here(w, (span){ name, name + (unsigned)strlen(clang_getCString(ns)), 0, 1 },
                        clang_getCString(ns));
  if (!here)
    ti_fail(w, s.line, "the name of the function %s is made by a macro; tilescope adds the "
            "work-item's context to its parameters, so spell the name out", clang_getCString(ns));
  clang_disposeString(ns);
  if (!here)
    return;
  unsigned open = name > s.s ? name : s.s;
  while (open < end && w->src[open] != '(')
    open++;
  unsigned close = open;
  for (int depth = 0; close < end; close++) {
    depth += w->src[close] == '(';
    if (w->src[close] == ')' && --depth == 0)
      break;
  }
  if (open >= end || close >= end) {
    ti_fail(w, s.line, "cannot rewrite the function's parameters");
    return;
  }
  ti_sb_add(o, w->src + s.s, open + 1 - s.s);
  if (nparm == 0) {
    ti_sb_str(o, "ts_ctx *ts_c");
    ti_sb_add(o, w->src + close, end - close);
  } else {
    ti_sb_str(o, "ts_ctx *ts_c, ");
    ti_sb_add(o, w->src + open + 1, end - open - 1);
  }
}

static int is_atomic(const char *name)
{
  return strncmp(name, "atomic_", 7) == 0 || strncmp(name, "atom_", 5) == 0;
}

/* A call: the file's own functions take the context, barrier() counts, the built-ins with
 * pointers are observed, and any other built-in given a __global or __local pointer is an
 * error rather than an access nobody sees. */
static int emit_call(walker *w, sbuf *o, CXCursor c, span s, const kids *k)
{
  CXString ns = clang_getCursorSpelling(c);
  char name[128];
  snprintf(name, sizeof name, "%s", clang_getCString(ns));
  clang_disposeString(ns);
  CXCursor callee = clang_getCursorReferenced(c);
  int own = !clang_Cursor_isNull(callee) &&
            clang_getCursorKind(callee) == CXCursor_FunctionDecl && own_function(w, callee);
  int nargs = clang_Cursor_getNumArguments(c);
  if (own && w->dialect)
    return 0; /* the dialect's functions take ts_o_ already */
  span named = k->n ? ti_span_of(w, k->c[0]) : s;
  if (own && !w->dialect && !spelt_here(w, named, name)) {
    ti_fail(w, s.line, "%s is called from a macro's body; tilescope passes the file's functions "
            "the work-item's context, which it cannot add there, so call it directly", name);
    return 1;
  }
  if (own) {
    /* name( -> name(ts_c, ...) */
    int ctx[64];
    for (int i = 0; i < k->n; i++)
      ctx[i] = CTX_READ;
    /* the callee's reference first, then '(' */
    sbuf tmp = { 0 };
    emit_body(w, &tmp, c, s, k, ctx);
    char *paren = tmp.s ? strchr(tmp.s, '(') : NULL;
    if (!paren) {
      free(tmp.s);
      ti_fail(w, s.line, "cannot rewrite the call of %s", name);
      return 1;
    }
    ti_sb_add(o, tmp.s, (size_t)(paren - tmp.s) + 1);
    ti_sb_str(o, nargs > 0 ? "ts_c, " : "ts_c");
    ti_sb_str(o, paren + 1);
    free(tmp.s);
    return 1;
  }
  if (!w->dialect && (strcmp(name, "barrier") == 0 || strcmp(name, "work_group_barrier") == 0)) {
    int ctx[64];
    for (int i = 0; i < k->n; i++)
      ctx[i] = CTX_READ;
    sbuf tmp = { 0 };
    emit_body(w, &tmp, c, s, k, ctx);
    char *paren = tmp.s ? strchr(tmp.s, '(') : NULL;
    if (!paren) {
      free(tmp.s);
      ti_fail(w, s.line, "cannot rewrite the barrier");
      return 1;
    }
    ti_sb_str(o, "ts_barrier(ts_c, ");
    ti_sb_str(o, paren + 1);
    free(tmp.s);
    return 1;
  }
  if ((strncmp(name, "vload", 5) == 0 || strncmp(name, "vstore", 6) == 0)) {
    if (emit_vector_call(w, o, c, name, s, k))
      return 1;
  }
  /* Which arguments are pointers to observed memory? */
  int first_ptr = -1, nptr = 0;
  for (int i = 0; i < nargs; i++) {
    CXType at = clang_getCursorType(clang_Cursor_getArgument(c, (unsigned)i));
    int asp = at.kind == CXType_Pointer ? space_of(clang_getPointeeType(at)) : 0;
    if (asp && (!w->dialect || asp == 1)) {
      nptr++;
      if (first_ptr < 0)
        first_ptr = i;
    }
  }
  if (nptr == 0)
    return 0;
  if (is_atomic(name) && nptr == 1 && first_ptr == 0) {
    CXCursor ptr = clang_Cursor_getArgument(c, 0);
    CXType pt = clang_getCursorType(ptr);
    int sp = space_of(clang_getPointeeType(pt));
    span ps = ti_span_of(w, ptr);
    if (!ps.ok) {
      ti_fail(w, s.line, "cannot rewrite the atomic %s (its pointer comes from a macro)", name);
      return 1;
    }
    char *ts = ti_type_str(pt);
    /* emit everything, with the pointer argument wrapped */
    unsigned pos = s.s;
    for (int i = 0; i < k->n; i++) {
      span cs = ti_span_of(w, k->c[i]);
      if (!cs.ok || cs.s < pos || cs.t > s.t)
        continue;
      ti_sb_add(o, w->src + pos, cs.s - pos);
      if (cs.s == ps.s && cs.t == ps.t) {
        sbuf pb = { 0 };
        set_add(w, &w->seen, c);
        w->out->accesses++;
        emit(w, &pb, k->c[i], CTX_NONE);
        ti_sb_fmt(o, "(%s)%s(%s uchar *)(%s), sizeof(*(%s)), %d, %u)", ts,
               w->dialect ? "ts_obs_direct(ts_o_, " : sp == 1 ? "ts_g(ts_c, " : "ts_l(ts_c, ",
               sp == 1 ? "__global" : "__local", pb.s ? pb.s : "", pb.s ? pb.s : "", K_ATOMIC,
               s.line - w->line_base);
        free(pb.s);
      } else {
        emit(w, o, k->c[i], CTX_READ);
      }
      pos = cs.t;
    }
    ti_sb_add(o, w->src + pos, s.t - pos);
    free(ts);
    return 1;
  }
  ti_fail(w, s.line,
       "%s() is given a __global or __local pointer, and tilescope cannot see what it does "
       "with it; observation would miss those accesses",
       name);
  return 1;
}

/* An operator made in a macro's body (SET(p, v) for (p) = (v)), where the use's tokens do
 * not show it (and libclang 15 gives no expression's operator): told from the operands'
 * types and conversions, as far as contexts() needs it. Binary: "=" when the first operand
 * is an lvalue used as it is, with no conversion (a[i], x, s.f, *p, in parentheses); any
 * other operator reads it. Unary: "*" when it takes a pointer to its own type, "&" when it
 * makes a pointer to its operand's, "++" (or --: the same context) when it takes an lvalue
 * as it is. */
static int same_type(CXType a, CXType b)
{
  return clang_equalTypes(clang_getCanonicalType(a), clang_getCanonicalType(b));
}

static int is_deref(CXCursor c)
{
  if (clang_getCursorKind(c) != CXCursor_UnaryOperator)
    return 0;
  kids k;
  children(c, &k);
  CXType ct = k.n == 1 ? clang_getCanonicalType(clang_getCursorType(k.c[0])) : clang_getCursorType(c);
  return k.n == 1 && ct.kind == CXType_Pointer &&
         same_type(clang_getPointeeType(ct), clang_getCursorType(c));
}

static int plain_lvalue(CXCursor x)
{
  kids k;
  while (clang_getCursorKind(x) == CXCursor_ParenExpr) {
    children(x, &k);
    if (k.n != 1)
      return 0;
    x = k.c[0];
  }
  enum CXCursorKind xk = clang_getCursorKind(x);
  return xk == CXCursor_DeclRefExpr || xk == CXCursor_ArraySubscriptExpr ||
         xk == CXCursor_MemberRefExpr || is_deref(x);
}

static void op_from_types(CXCursor c, const kids *k, int binary, char *op, size_t n)
{
  const char *o = "";
  if (binary)
    o = plain_lvalue(k->c[0]) ? "=" : "";
  else if (is_deref(c))
    o = "*";
  else if (clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Pointer &&
           same_type(clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(c))),
                     clang_getCursorType(k->c[0])))
    o = "&";
  else if (plain_lvalue(k->c[0]))
    o = "++"; /* -x, !x and ~x convert their operand; ++ and -- take it as it is */
  snprintf(op, n, "%s", o);
}

/* The operator of a unary or binary expression: the first token after the first child (binary,
 * postfix) or before it (prefix); one made in a macro's body, from the types. */
static void op_of(walker *w, CXCursor c, const kids *k, int binary, char *op, size_t n)
{
  op[0] = 0;
  if (k->n == 0)
    return;
  span s = ti_span_of(w, c), cs = ti_span_of(w, k->c[0]);
  /* made in a macro's body: the expression is the whole use (ASSIGN(a, b) for a = b), or its
   * operand is (*p of DEREF(p)) */
  if ((cs.s == s.s && cs.t == s.t && (binary || k->n == 1)) || use_end(w, s.s) == s.t) {
    op_from_types(c, k, binary, op, n);
    return;
  }
  /* the operand as it is written at c's level: its macro's whole use where it is spelt in
   * the argument of a use that lies inside c (ID(out[i]) = v for #define ID(x) x) */
  span e = where_of(w, k->c[0]).e;
  if (e.ok && e.s >= s.s && e.t <= s.t && e.s <= cs.s && e.t >= cs.t)
    cs = e;
  if (!binary) {
    if (cs.s > s.s)
      token_after(w, c, s.s, op, n);
    else
      token_after(w, c, cs.t, op, n);
    return;
  }
  token_after(w, c, cs.t, op, n);
}

static void add_local(walker *w, const char *name, int elem)
{
  ts_plain_kernel *kn = w->kernel;
  if (!kn)
    return;
  if (kn->nlocals == 8) {
    ti_fail(w, (unsigned)kn->line, "%s: more than 8 __local arrays and arguments", kn->name);
    return;
  }
  snprintf(kn->locals[kn->nlocals], sizeof kn->locals[0], "%s", name);
  kn->local_elem[kn->nlocals++] = elem > 0 ? elem : 1;
}

/* The kernel's prologue: its context, its global buffers in argument order, its __local
 * pointer arguments with their shadows. */
static void emit_prologue(walker *w, sbuf *o, ts_plain_kernel *kn)
{
  ti_sb_str(o, "\n  __local uint ts_lscr[TS_LSCR_WORDS];\n  ts_ctx ts_c0, *ts_c = &ts_c0;\n"
            "  ts_begin(ts_c, ts_ob, ts_lscr);\n");
  int nl = 0;
  for (int i = 0; i < kn->nparams; i++) {
    const ts_plain_param *p = &kn->params[i];
    if (p->space == TS_SPACE_GLOBAL)
      ti_sb_fmt(o, "  ts_gbuf(ts_c, (__global uchar *)%s);\n", p->name);
    else if (p->space == TS_SPACE_LOCAL) {
      add_local(w, p->name, p->elem_size / (p->lanes > 0 ? p->lanes : 1));
      ti_sb_fmt(o, "  ts_lbuf(ts_c, (__local uchar *)%s, ts_lparam_size(ts_c, %d), ts_lw%d, ts_lr%d);\n",
             p->name, nl, nl, nl);
      nl++;
    }
  }
  if (nl)
    ti_sb_str(o, "  barrier(CLK_LOCAL_MEM_FENCE);\n");
  (void)w;
}

static void emit_function(walker *w, sbuf *o, CXCursor c, span s, const kids *k)
{
  /* Is it a kernel? Its first token says. */
  int kernel = ti_is_kernel(w, c);
  if (w->dialect) {
    /* a dialect's kernel is its entry macro's: nothing of its own to observe */
    if (kernel) {
      ti_sb_add(o, w->src + s.s, s.t - s.s);
      return;
    }
    int ctx[64];
    for (int i = 0; i < k->n; i++)
      ctx[i] = CTX_READ;
    emit_body(w, o, c, s, k, ctx);
    return;
  }
  ts_plain_kernel *kn = NULL;
  if (kernel) {
    CXString ns = clang_getCursorSpelling(c);
    for (int i = 0; i < w->out->nkernels; i++)
      if (strcmp(w->out->kernels[i].name, clang_getCString(ns)) == 0)
        kn = &w->out->kernels[i];
    clang_disposeString(ns);
  }
  w->kernel = kn;
  w->fn = c;
  w->fn_barrier = barrier_in(w, c, 0) != 0;
  w->ret_bline = w->brk_bline = 0;
  w->in_loop = 0;
  int body = -1, nparm = 0, lastparm = -1;
  for (int i = 0; i < k->n; i++) {
    enum CXCursorKind ck = clang_getCursorKind(k->c[i]);
    if (ck == CXCursor_CompoundStmt)
      body = i;
    if (ck == CXCursor_ParmDecl) {
      nparm++;
      lastparm = i;
    }
  }
  if (body < 0) { /* a declaration: copy it as it is (none of ours call it) */
    ti_sb_add(o, w->src + s.s, s.t - s.s);
    return;
  }
  span bs = ti_span_of(w, k->c[body]);
  /* the signature: '(' gets the context (helpers) or ')' the buffers (kernels) */
  char sig[8192];
  size_t sl = bs.s - s.s < sizeof sig - 1 ? bs.s - s.s : sizeof sig - 1;
  memcpy(sig, w->src + s.s, sl);
  sig[sl] = 0;
  if (!kernel) {
    emit_params(w, o, c, s, bs.s, nparm);
  } else {
    span ls = lastparm >= 0 ? ti_span_of(w, k->c[lastparm]) : s;
    char *close = NULL;
    if (lastparm >= 0 && ls.t > s.s && ls.t <= bs.s) {
      ti_sb_add(o, w->src + s.s, ls.t - s.s);
      ti_sb_str(o, ", __global uint *ts_ob");
      for (int i = 0, nl = 0; kn && i < kn->nparams; i++)
        if (kn->params[i].space == TS_SPACE_LOCAL) {
          ti_sb_fmt(o, ", __local uint *ts_lw%d, __local uint *ts_lr%d", nl, nl);
          nl++;
        }
      ti_sb_add(o, w->src + ls.t, bs.s - ls.t);
    } else {
      close = strrchr(sig, ')');
      char *open = strchr(sig, '(');
      if (!close || !open) {
        ti_fail(w, s.line, "cannot rewrite the kernel's parameters");
        return;
      }
      ti_sb_add(o, sig, (size_t)(open - sig) + 1);
      ti_sb_str(o, "__global uint *ts_ob");
      ti_sb_str(o, close);
    }
  }
  /* the body: after '{', the prologue (kernels) */
  w->in_kernel = kernel;
  kids bk;
  children(k->c[body], &bk);
  int ctx[64];
  for (int i = 0; i < bk.n; i++)
    ctx[i] = CTX_READ;
  ti_sb_str(o, "{");
  if (kernel && kn)
    emit_prologue(w, o, kn);
  span inner = bs;
  inner.s += 1;
  if (kernel && kn && inner.t > inner.s)
    inner.t -= 1; /* its closing brace: the work-item's bounds are flushed before it */
  if (bk.over)
    emit_stmts(w, o, k->c[body], inner);
  else
    emit_body(w, o, k->c[body], inner, &bk, ctx);
  if (kernel && kn && inner.t < bs.t)
    ti_sb_str(o, "ts_end(ts_c);\n}");
  ti_sb_add(o, w->src + bs.t, s.t - bs.t);
  w->in_kernel = 0;
  w->kernel = NULL;
}

/* A __local array declared in a kernel: its two shadows and its registration follow it. */
static void emit_decl_stmt(walker *w, sbuf *o, CXCursor c, span s, const kids *k)
{
  int ctx[64];
  for (int i = 0; i < k->n; i++)
    ctx[i] = CTX_READ;
  emit_body(w, o, c, s, k, ctx);
  if (w->dialect)
    return;
  int any = 0;
  for (int i = 0; i < k->n; i++) {
    if (clang_getCursorKind(k->c[i]) != CXCursor_VarDecl)
      continue;
    CXType t = clang_getCursorType(k->c[i]);
    /* (a pointer to __local memory, `__local int *p;`, is a private variable) */
    if (clang_getCanonicalType(t).kind == CXType_Pointer ||
        (clang_Cursor_getStorageClass(k->c[i]) != CX_SC_OpenCLWorkGroupLocal && space_of(t) != 2))
      continue;
    if (!w->in_kernel) {
      ti_fail(w, s.line, "a __local variable outside a kernel");
      return;
    }
    CXString ns = clang_getCursorSpelling(k->c[i]);
    const char *n = clang_getCString(ns);
    CXType et = t;
    while (is_array(et))
      et = clang_getArrayElementType(et);
    CXType ct = clang_getCanonicalType(et);
    long long esz = clang_Type_getSizeOf(ct.kind == CXType_ExtVector ? clang_getElementType(ct) : ct);
    add_local(w, n, esz > 0 ? (int)esz : 1);
    ti_sb_fmt(o, "\n  __local uint ts_lw_%s[sizeof(%s)], ts_lr_%s[sizeof(%s)];\n"
              "  ts_lbuf(ts_c, (__local uchar *)%s%s, sizeof(%s), ts_lw_%s, ts_lr_%s);",
           n, n, n, n, is_array(t) ? "" : "&", n, n, n, n);
    clang_disposeString(ns);
    any = 1;
  }
  if (any)
    ti_sb_str(o, "\n  barrier(CLK_LOCAL_MEM_FENCE);");
}

/* The contexts of c's children (kctx) for c in context ctx; c's address space (1 __global,
 * 2 __local) when c itself is an access of observed memory there, else 0. */
static int contexts(walker *w, CXCursor c, const kids *k, int ctx, int *kctx)
{
  for (int i = 0; i < k->n; i++)
    kctx[i] = CTX_READ;
  CXType t = clang_getCursorType(c);
  char op[16];
  int access = 0;
  switch (clang_getCursorKind(c)) {
  case CXCursor_ArraySubscriptExpr:
    if (k->n == 2)
      kctx[0] = CTX_NONE, kctx[1] = CTX_READ;
    access = 1;
    break;
  case CXCursor_MemberRefExpr:
    /* p->f is an access of f; s.f passes the context to s only when s is not observed
     * memory itself (then s.f is the access) */
    if (k->n >= 1)
      kctx[0] = CTX_NONE;
    access = 1;
    break;
  case CXCursor_UnaryOperator:
    op_of(w, c, k, 0, op, sizeof op);
    if (strcmp(op, "&") == 0) {
      kctx[0] = CTX_NONE;
    } else if (strcmp(op, "*") == 0) {
      kctx[0] = CTX_NONE;
      access = 1;
    } else if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0) {
      kctx[0] = CTX_UPDATE;
    }
    break;
  case CXCursor_BinaryOperator:
    op_of(w, c, k, 1, op, sizeof op);
    if (strcmp(op, "=") == 0 && k->n == 2)
      kctx[0] = CTX_WRITE;
    break;
  case CXCursor_CompoundAssignOperator:
    if (k->n == 2)
      kctx[0] = CTX_UPDATE;
    break;
  case CXCursor_ParenExpr:
  case CXCursor_UnexposedExpr:
    /* implicit conversions and vector components: the context passes through */
    for (int i = 0; i < k->n; i++)
      kctx[i] = ctx;
    break;
  case CXCursor_UnaryExpr: /* sizeof, vec_step: nothing evaluated */
    for (int i = 0; i < k->n; i++)
      kctx[i] = CTX_NONE;
    break;
  default:
    break;
  }
  return access && ctx != CTX_NONE && !is_array(t) ? space_of(t) : 0;
}

/* A block of more than 64 statements, written one statement after another. */
typedef struct stmts {
  walker *w;
  sbuf *o;
  unsigned pos, end;
} stmts;

static enum CXChildVisitResult emit_stmt(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  stmts *st = d;
  if (st->w->failed)
    return CXChildVisit_Break;
  span cs = ti_span_of(st->w, c);
  if (!cs.ok || cs.s < st->pos || cs.t > st->end)
    return CXChildVisit_Continue; /* its text is written as it is (check_seen looks at it) */
  ti_sb_add(st->o, st->w->src + st->pos, cs.s - st->pos);
  emit(st->w, st->o, c, CTX_READ);
  st->pos = cs.t;
  return CXChildVisit_Continue;
}

static void emit_stmts(walker *w, sbuf *o, CXCursor block, span s)
{
  stmts st = { w, o, s.s, s.t };
  clang_visitChildren(block, emit_stmt, &st);
  ti_sb_add(o, w->src + st.pos, s.t - st.pos);
}

static void emit(walker *w, sbuf *o, CXCursor c, int ctx)
{
  if (w->failed)
    return;
  span s = ti_span_of(w, c);
  if (!s.ok)
    return;
  kids k;
  children(c, &k);
  if (k.over) { /* a block's statements, or an initialiser's values, one after another */
    enum CXCursorKind ck = clang_getCursorKind(c);
    if (ck == CXCursor_CompoundStmt || ck == CXCursor_InitListExpr)
      emit_stmts(w, o, c, s);
    else
      ti_fail(w, s.line, "more than 64 parts in one expression or statement; tilescope cannot "
              "rewrite it for observation");
    return;
  }
  int kctx[64];
  for (int i = 0; i < k.n; i++)
    kctx[i] = CTX_READ;
  switch (clang_getCursorKind(c)) {
  case CXCursor_FunctionDecl:
    emit_function(w, o, c, s, &k);
    return;
  case CXCursor_DeclStmt:
    emit_decl_stmt(w, o, c, s, &k);
    return;
  case CXCursor_IfStmt:
  case CXCursor_ForStmt:
  case CXCursor_WhileStmt:
  case CXCursor_DoStmt:
    if (!w->dialect && w->fn_barrier) {
      emit_branch(w, o, c, s, &k, kctx);
      return;
    }
    break;
  case CXCursor_SwitchStmt:
    if (!w->dialect && w->fn_barrier) { /* a break in it leaves the switch only */
      unsigned brk = w->brk_bline;
      w->brk_bline = 0;
      emit_switch(w, o, c, s, &k, kctx);
      w->brk_bline = brk;
      return;
    }
    break;
  case CXCursor_ReturnStmt:
    /* a kernel's return flushes the work-item's bounds first; `for` keeps it one statement
     * (an `else` after it still belongs to the `if` before it) */
    if (w->in_kernel && w->kernel && !w->dialect)
      ti_sb_str(o, "for (ts_end(ts_c);;) ");
    break;
  case CXCursor_CallExpr:
    if (emit_call(w, o, c, s, &k))
      return;
    break;
  default:
    break;
  }
  int sp = contexts(w, c, &k, ctx, kctx);
  if (sp) {
    emit_access(w, o, c, s, sp, ctx, &k, kctx);
    return;
  }
  emit_body(w, o, c, s, &k, kctx);
}

/* A vloadN / vstoreN / atomic given a __global or __local pointer: its space (else 0). */
static int observed_call(CXCursor c)
{
  CXString ns = clang_getCursorSpelling(c);
  const char *name = clang_getCString(ns);
  int nargs = clang_Cursor_getNumArguments(c), which = -1;
  if (name && (strncmp(name, "vload", 5) == 0 || strncmp(name, "vstore", 6) == 0))
    which = nargs - 1;
  else if (name && is_atomic(name))
    which = 0;
  clang_disposeString(ns);
  if (which < 0 || which >= nargs)
    return 0;
  CXType t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(c, (unsigned)which)));
  return t.kind == CXType_Pointer ? space_of(clang_getPointeeType(t)) : 0;
}

/* After a function is written: every access of observed memory in it was wrapped, or the
 * rewrite fails here, naming it. Whatever the rewrite could not reach (an access in text
 * that a macro's use shapes in a way it does not know) is refused, never left unseen. */
static void check_seen(walker *w, CXCursor c, int ctx);

static enum CXChildVisitResult check_stmt(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  walker *w = d;
  check_seen(w, c, CTX_READ);
  return w->failed ? CXChildVisit_Break : CXChildVisit_Continue;
}

static void check_seen(walker *w, CXCursor c, int ctx)
{
  if (w->failed || set_has(&w->twins, c))
    return;
  kids k;
  children(c, &k);
  if (k.over) {
    clang_visitChildren(c, check_stmt, w);
    return;
  }
  int kctx[64];
  int sp = contexts(w, c, &k, ctx, kctx);
  if (!sp && clang_getCursorKind(c) == CXCursor_CallExpr)
    sp = observed_call(c);
  if (sp && !set_has(&w->seen, c)) {
    span s = ti_span_of(w, c);
    ti_fail(w, s.line, "an access of %s memory that tilescope cannot rewrite where it is written "
            "(in or around a macro's use), so it would go unseen; write it out",
            sp == 1 ? "__global" : "__local");
    return;
  }
  for (int i = 0; i < k.n && !w->failed; i++)
    check_seen(w, k.c[i], kctx[i]);
}

enum CXChildVisitResult ti_top_level(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  void **pp = d;
  walker *w = pp[0];
  sbuf *o = pp[1];
  unsigned *pos = pp[2];
  if (w->failed)
    return CXChildVisit_Break;
  span s = ti_span_of(w, c);
  if (!s.ok || s.s < *pos)
    return CXChildVisit_Continue;
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl)
    return CXChildVisit_Continue; /* copied as text with what lies between */
  if (!clang_isCursorDefinition(c)) {
    /* a prototype of the file's own function: as its definition is written */
    if (w->dialect || !own_function(w, c))
      return CXChildVisit_Continue;
    ti_sb_add(o, w->src + *pos, s.s - *pos);
    if (ti_is_kernel(w, c))
      ti_sb_str(o, "/* (a kernel's prototype) */");
    else
      emit_params(w, o, c, s, s.t, count_params(c));
    *pos = s.t;
    return CXChildVisit_Continue;
  }
  ti_sb_add(o, w->src + *pos, s.s - *pos);
  emit(w, o, c, CTX_READ);
  if (!w->dialect)
    check_seen(w, c, CTX_READ);
  *pos = s.t;
  return CXChildVisit_Continue;
}

