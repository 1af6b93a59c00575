/* A node's text written again around its rewritten children. Where the children span the
 * whole of one macro's use (they were made in the macro's body), what is rewritten is what
 * the use's arguments spell: its parts, each written once, and a pointer that the body makes
 * an access through, checked as that access's address. A branch's condition (ts_uniform, a
 * loop's head and its way) is wrapped here too, as it is one of its statement's parts. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "ts_instrument_int.h"

typedef struct part part;
static void write_parts(walker *w, sbuf *o, span s, const part *p, int np, int wrap,
                        unsigned bline);

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
    ti_children(x, &k);
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
    ti_set_add(w, &w->twins, q.c);
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
  ti_children(n, &k);
  int kctx[64];
  int sp = ti_contexts(w, n, &k, ctx, kctx);
  CXCursor ptr;
  if (sp && ti_is_deref(n) && k.n == 1 && pointer_argument(w, k.c[0], u, &ptr)) {
    part q = plain_part(ptr, ti_span_of(w, ptr), ctx, -1);
    q.sp = sp;
    q.kind = ti_kind_of(ctx);
    q.lanes = 1;
    q.et = clang_getCursorType(n);
    q.acc = n;
    add_part(w, u, p, np, q);
    return;
  }
  int skip = -1; /* a vector call's pointer, made a part here */
  if (!sp && clang_getCursorKind(n) == CXCursor_CallExpr && ti_observed_call(n) &&
      k.n >= 3 && !w->dialect) {
    CXString ns = clang_getCursorSpelling(n);
    int store, half, lanes = ti_vector_shape(clang_getCString(ns), &store, &half);
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
    q.sp = ti_observed_call(n);
    q.kind = (store ? K_WRITE : K_READ) | K_VECTOR;
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
void ti_emit_body_wrap(walker *w, sbuf *o, CXCursor c, span s, const kids *k,
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
  /* a for's or while's body, told its way (ti_emit_branch), and its condition's line */
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
      ti_emit(w, o, p[i].c, CTX_NONE);
      ti_sb_fmt(o, ") + %s, %d * sizeof(%s), %d, %u) - %s))", by, p[i].lanes, et, p[i].kind,
                p[i].s.line - w->line_base, by);
      ti_set_add(w, &w->seen, p[i].acc);
      w->out->accesses++;
      free(pt);
      free(et);
    } else {
      ti_emit(w, o, p[i].c, p[i].ctx);
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

void ti_emit_body(walker *w, sbuf *o, CXCursor c, span s, const kids *k, const int *ctx)
{
  ti_emit_body_wrap(w, o, c, s, k, ctx, -1, 0);
}

/* vloadN / vstoreN made in a macro's body from a pointer spelt in its arguments, at a constant
 * offset (OpenCV's loadpix(addr) for vload3(0, (__global const T1 *)(addr))): the use is
 * written with that pointer's text checked as the access's address. */
int ti_emit_vector_in_body(walker *w, sbuf *o, CXCursor c, span s)
{
  part p[MAX_PARTS];
  int np = 0;
  use_parts(w, c, CTX_READ, s, p, &np);
  qsort(p, (size_t)np, sizeof *p, part_cmp);
  write_parts(w, o, s, p, np, -1, 0);
  return 1;
}
