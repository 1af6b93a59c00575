/* Which nodes of a function are accesses of __global or __local memory, and whether each
 * reads, writes or updates what it reaches (its context): told from the operators, or from
 * the operands' types where a macro's body hides the operator; and the built-ins that take a
 * pointer to observed memory (vloadN, vstoreN, atomics). The rewrite and the check that
 * nothing went unseen ask here alike, so that they agree on what an access is. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_instrument_int.h"

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

/* An operator made in a macro's body (SET(p, v) for (p) = (v)), where the use's tokens do
 * not show it (and libclang 15 gives no expression's operator): told from the operands'
 * types and conversions, as far as ti_contexts() needs it. Binary: "=" when the first operand
 * is an lvalue used as it is, with no conversion (a[i], x, s.f, *p, in parentheses); any
 * other operator reads it. Unary: "*" when it takes a pointer to its own type, "&" when it
 * makes a pointer to its operand's, "++" (or --: the same context) when it takes an lvalue
 * as it is. */
static int same_type(CXType a, CXType b)
{
  return clang_equalTypes(clang_getCanonicalType(a), clang_getCanonicalType(b));
}

int ti_is_deref(CXCursor c)
{
  if (clang_getCursorKind(c) != CXCursor_UnaryOperator)
    return 0;
  kids k;
  ti_children(c, &k);
  CXType ct = k.n == 1 ? clang_getCanonicalType(clang_getCursorType(k.c[0])) : clang_getCursorType(c);
  return k.n == 1 && ct.kind == CXType_Pointer &&
         same_type(clang_getPointeeType(ct), clang_getCursorType(c));
}

static int plain_lvalue(CXCursor x)
{
  kids k;
  while (clang_getCursorKind(x) == CXCursor_ParenExpr) {
    ti_children(x, &k);
    if (k.n != 1)
      return 0;
    x = k.c[0];
  }
  enum CXCursorKind xk = clang_getCursorKind(x);
  return xk == CXCursor_DeclRefExpr || xk == CXCursor_ArraySubscriptExpr ||
         xk == CXCursor_MemberRefExpr || ti_is_deref(x);
}

static void op_from_types(CXCursor c, const kids *k, int binary, char *op, size_t n)
{
  const char *o = "";
  if (binary)
    o = plain_lvalue(k->c[0]) ? "=" : "";
  else if (ti_is_deref(c))
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
void ti_op_of(walker *w, CXCursor c, const kids *k, int binary, char *op, size_t n)
{
  op[0] = 0;
  if (k->n == 0)
    return;
  span s = ti_span_of(w, c), cs = ti_span_of(w, k->c[0]);
  /* made in a macro's body: the expression is the whole use (ASSIGN(a, b) for a = b), or its
   * operand is (*p of DEREF(p)) */
  if ((cs.s == s.s && cs.t == s.t && (binary || k->n == 1)) || ti_use_end(w, s.s) == s.t) {
    op_from_types(c, k, binary, op, n);
    return;
  }
  /* the operand as it is written at c's level: its macro's whole use where it is spelt in
   * the argument of a use that lies inside c (ID(out[i]) = v for #define ID(x) x) */
  span e = ti_where_of(w, k->c[0]).e;
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

/* The contexts of c's children (kctx) for c in context ctx; c's address space (1 __global,
 * 2 __local) when c itself is an access of observed memory there, else 0. */
int ti_contexts(walker *w, CXCursor c, const kids *k, int ctx, int *kctx)
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
    ti_op_of(w, c, k, 0, op, sizeof op);
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
    ti_op_of(w, c, k, 1, op, sizeof op);
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
  case CXCursor_DeclRefExpr: {
    /* a __local scalar declared in the kernel (`local int x;`) is __local memory: its every
     * use is an access (the dialect's kernels name none) */
    CXCursor d = clang_getCursorReferenced(c);
    if (!w->dialect && clang_getCursorKind(d) == CXCursor_VarDecl &&
        (clang_Cursor_getStorageClass(d) == CX_SC_OpenCLWorkGroupLocal ||
         ti_space_of(clang_getCursorType(d)) == 2) &&
        clang_getCanonicalType(t).kind != CXType_Pointer && !ti_is_array(t))
      return ctx != CTX_NONE ? 2 : 0;
    break;
  }
  case CXCursor_UnaryExpr: /* sizeof, vec_step: nothing evaluated */
    for (int i = 0; i < k->n; i++)
      kctx[i] = CTX_NONE;
    break;
  default:
    break;
  }
  return access && ctx != CTX_NONE && !ti_is_array(t) ? ti_space_of(t) : 0;
}

int ti_kind_of(int ctx)
{
  return ctx == CTX_WRITE ? K_WRITE : ctx == CTX_UPDATE ? K_UPDATE : K_READ;
}

static int vec_width(const char *name, const char *prefix)
{
  const char *p = name + strlen(prefix);
  int n = atoi(p);
  return n == 2 || n == 3 || n == 4 || n == 8 || n == 16 ? n : 0;
}

/* vloadN / vstoreN / vload_half[N] / vstore_half[N][_r]: its lanes (0: none of these),
 * whether it stores, whether it is a half one. */
int ti_vector_shape(const char *name, int *store, int *half)
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

int ti_is_atomic(const char *name)
{
  return strncmp(name, "atomic_", 7) == 0 || strncmp(name, "atom_", 5) == 0;
}

/* A vloadN / vstoreN / atomic given a __global or __local pointer: its space (else 0). */
int ti_observed_call(CXCursor c)
{
  CXString ns = clang_getCursorSpelling(c);
  const char *name = clang_getCString(ns);
  int nargs = clang_Cursor_getNumArguments(c), which = -1;
  if (name && (strncmp(name, "vload", 5) == 0 || strncmp(name, "vstore", 6) == 0))
    which = nargs - 1;
  else if (name && ti_is_atomic(name))
    which = 0;
  int image = name && (strncmp(name, "read_image", 10) == 0 || strncmp(name, "write_image", 11) == 0);
  clang_disposeString(ns);
  if (image)
    return 1; /* an image's pixel: __global memory */
  if (which < 0 || which >= nargs)
    return 0;
  CXType t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(c, (unsigned)which)));
  return t.kind == CXType_Pointer ? ti_space_of(clang_getPointeeType(t)) : 0;
}
