/* Private vectors followed lane by lane: a vector declared without a value (`float4 f;`) and
 * then set in part (`f.xzw = 1.0f`) gives an undefined value in the lanes nothing set. Each
 * such variable gets a mask of the lanes set so far, ts_pv_NAME: an assignment to the vector
 * or to its components sets their bits, and a read of the vector or of its components checks
 * them (ts_pvr). A vector whose address is taken, that is indexed, or that is set any other
 * way is not followed: what is set through a pointer cannot be seen here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_instrument_int.h"

static int tracked(const walker *w, CXCursor d)
{
  for (int i = 0; i < w->npvec; i++)
    if (clang_equalCursors(w->pvec[i], d))
      return i;
  return -1;
}

static void drop(walker *w, int i)
{
  if (i >= 0)
    w->pvec[i] = w->pvec[--w->npvec];
}

/* The lanes of accessor a (`xzw`, `s01`, `hi`...) of a value of m lanes whose lanes are
 * lane[] of the variable: into out, their number; -1 when a is no accessor known here. */
static int accessor_lanes(const char *a, const int *lane, int m, int *out)
{
  int half = (m == 3 ? 4 : m) / 2, idx[16], n = 0;
  if (strcmp(a, "lo") == 0 || strcmp(a, "hi") == 0) {
    for (int i = 0; i < half; i++)
      idx[n++] = (a[0] == 'h' ? half : 0) + i;
  } else if (strcmp(a, "even") == 0 || strcmp(a, "odd") == 0) {
    for (int i = 0; i < half; i++)
      idx[n++] = 2 * i + (a[0] == 'o');
  } else if (a[0] == 's' || a[0] == 'S') {
    for (const char *p = a + 1; *p && n < 16; p++) {
      const char *hex = "0123456789abcdef", *q = strchr(hex, *p >= 'A' && *p <= 'F' ? *p + 32 : *p);
      if (!q || !*q)
        return -1;
      idx[n++] = (int)(q - hex);
    }
  } else {
    for (const char *p = a; *p && n < 16; p++) {
      const char *q = strchr("xyzw", *p), *r = strchr("rgba", *p);
      if ((!q || !*q) && (!r || !*r))
        return -1;
      idx[n++] = q && *q ? (int)(q - "xyzw") : (int)(r - "rgba");
    }
  }
  if (n == 0)
    return -1;
  int k = 0;
  for (int i = 0; i < n; i++)
    if (idx[i] < m) /* (a 3-vector's .hi names a fourth lane that is not there) */
      out[k++] = lane[idx[i]];
  return k;
}

/* When c is a followed vector, or its components through parentheses and conversions: 1,
 * the vector's index in pvec (*v) and the lanes c names (lane, *n); 0 when it is none; -1
 * when it is one in a form this cannot read (then it must not be followed). */
static int chain(walker *w, CXCursor c, int *lane, int *n, int *v)
{
  enum CXCursorKind ck = clang_getCursorKind(c);
  if (ck == CXCursor_DeclRefExpr) {
    *v = tracked(w, clang_getCursorReferenced(c));
    if (*v < 0)
      return 0;
    CXType t = clang_getCanonicalType(clang_getCursorType(w->pvec[*v]));
    *n = (int)clang_getNumElements(t);
    for (int j = 0; j < *n; j++)
      lane[j] = j;
    return 1;
  }
  if (ck != CXCursor_ParenExpr && ck != CXCursor_UnexposedExpr)
    return 0;
  kids k;
  ti_children(c, &k);
  if (k.n != 1)
    return 0;
  int inner[16], m = 0;
  int r = chain(w, k.c[0], inner, &m, v);
  if (r <= 0)
    return r;
  span cs = ti_span_of(w, c), ks = ti_span_of(w, k.c[0]);
  if (!cs.ok || !ks.ok || ks.t > cs.t)
    return -1;
  unsigned p = ks.t;
  while (p < cs.t && (w->src[p] == ' ' || w->src[p] == '\t' || w->src[p] == '\n'))
    p++;
  if (p == cs.t || w->src[p] == ')') { /* a conversion, or parentheses */
    memcpy(lane, inner, sizeof(int) * (size_t)m);
    *n = m;
    return 1;
  }
  if (w->src[p] != '.')
    return -1;
  char a[24];
  size_t an = 0;
  for (p++; p < cs.t && an + 1 < sizeof a; p++)
    if (w->src[p] != ' ' && w->src[p] != '\t' && w->src[p] != '\n')
      a[an++] = w->src[p];
  a[an] = 0;
  *n = accessor_lanes(a, inner, m, lane);
  return *n < 0 ? -1 : 1;
}

static int is_chain_kind(CXCursor c)
{
  enum CXCursorKind ck = clang_getCursorKind(c);
  return ck == CXCursor_DeclRefExpr || ck == CXCursor_ParenExpr || ck == CXCursor_UnexposedExpr;
}

/* Drops the vectors used in a way not followed: anything but a read, or an assignment (plain
 * or compound) to the vector or its components. */
static void drop_unfollowed(walker *w, CXCursor c)
{
  kids k;
  ti_children(c, &k);
  int kctx[64];
  ti_contexts(w, c, &k, CTX_READ, kctx);
  enum CXCursorKind ck = clang_getCursorKind(c);
  int assign = ck == CXCursor_BinaryOperator || ck == CXCursor_CompoundAssignOperator;
  for (int i = 0; i < k.n; i++) {
    int lane[16], n = 0, v = -1;
    int r = is_chain_kind(k.c[i]) ? chain(w, k.c[i], lane, &n, &v) : 0;
    if (r == 0) {
      drop_unfollowed(w, k.c[i]);
      continue;
    }
    if (r < 0 || kctx[i] == CTX_NONE ||
        ((kctx[i] == CTX_WRITE || kctx[i] == CTX_UPDATE) && !(assign && i == 0)))
      drop(w, v);
  }
}

/* Candidates: private vectors declared without a value. */
static void find_vectors(walker *w, CXCursor c)
{
  kids k;
  ti_children(c, &k);
  for (int i = 0; i < k.n; i++) {
    CXCursor x = k.c[i];
    if (clang_getCursorKind(x) == CXCursor_VarDecl && w->npvec < 16) {
      CXType t = clang_getCanonicalType(clang_getCursorType(x));
      kids vk;
      ti_children(x, &vk);
      int init = 0;
      for (int j = 0; j < vk.n; j++)
        init |= clang_isExpression(clang_getCursorKind(vk.c[j]));
      span s = ti_span_of(w, x);
      if (t.kind == CXType_ExtVector && !init && s.ok && clang_getNumElements(t) <= 16 &&
          ti_space_of(clang_getCursorType(x)) == 0 &&
          clang_Cursor_getStorageClass(x) != CX_SC_OpenCLWorkGroupLocal &&
          clang_getCursorKind(clang_getCursorSemanticParent(x)) == CXCursor_FunctionDecl)
        w->pvec[w->npvec++] = x;
    }
    find_vectors(w, x);
  }
}

void ti_track_vectors(walker *w, CXCursor fn)
{
  w->npvec = 0;
  if (w->dialect)
    return;
  find_vectors(w, fn);
  if (w->npvec)
    drop_unfollowed(w, fn);
}

int ti_tracked_vector(const walker *w, CXCursor decl)
{
  return tracked(w, decl) >= 0;
}

static unsigned mask_of(const int *lane, int n)
{
  unsigned m = 0;
  for (int i = 0; i < n; i++)
    m |= 1u << lane[i];
  return m;
}

int ti_emit_private_vector(walker *w, sbuf *o, CXCursor c, span s, const kids *k, int ctx)
{
  if (w->dialect || w->npvec == 0)
    return 0;
  int lane[16], n = 0;
  if (ctx == CTX_READ && is_chain_kind(c)) { /* a read: its lanes checked, then the value */
    int v = -1;
    if (chain(w, c, lane, &n, &v) <= 0)
      return 0;
    CXString ns = clang_getCursorSpelling(w->pvec[v]);
    CXType t = clang_getCanonicalType(clang_getCursorType(w->pvec[v]));
    ti_sb_fmt(o, "(ts_pvr(ts_c, ts_pv_%s, %uu, %u, %u), ", clang_getCString(ns), mask_of(lane, n),
              (unsigned)clang_getNumElements(t), ti_access_line(w, s));
    ti_sb_add(o, w->src + s.s, s.t - s.s);
    ti_sb_str(o, ")");
    clang_disposeString(ns);
    return 1;
  }
  enum CXCursorKind ck = clang_getCursorKind(c);
  if ((ck != CXCursor_BinaryOperator && ck != CXCursor_CompoundAssignOperator) || k->n != 2)
    return 0;
  int kctx[64];
  ti_contexts(w, c, k, ctx, kctx);
  if (kctx[0] != CTX_WRITE && kctx[0] != CTX_UPDATE)
    return 0;
  int v = -1;
  if (chain(w, k->c[0], lane, &n, &v) <= 0)
    return 0;
  /* ({ T ts_v = (LHS = RHS); ts_pv_f |= LANES; ts_v; }): the lanes are set once the value
   * on the right (which may read them) is made; an update reads them first */
  CXString ns = clang_getCursorSpelling(w->pvec[v]);
  const char *name = clang_getCString(ns);
  CXType vt = clang_getCanonicalType(clang_getCursorType(w->pvec[v]));
  unsigned m = mask_of(lane, n);
  char *t = ti_type_str(clang_getCursorType(c));
  ti_sb_str(o, "({ ");
  if (kctx[0] == CTX_UPDATE)
    ti_sb_fmt(o, "ts_pvr(ts_c, ts_pv_%s, %uu, %u, %u); ", name, m,
              (unsigned)clang_getNumElements(vt), ti_access_line(w, ti_span_of(w, k->c[0])));
  ti_sb_fmt(o, "%s ts_v = (", t);
  ti_emit_body(w, o, c, s, k, kctx);
  ti_sb_fmt(o, "); ts_pv_%s |= %uu; ts_v; })", name, m);
  free(t);
  clang_disposeString(ns);
  return 1;
}
