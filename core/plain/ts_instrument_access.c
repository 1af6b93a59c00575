/* The rewrite of an access: a subscript, `*p` or `p->f` of __global or __local memory becomes
 * a checked call of the observation runtime (ts_g and ts_l; ts_obs_direct in a dialect
 * kernel), and so does the pointer given to vloadN, vstoreN or an atomic. Calls as a whole
 * are here too: the file's own functions are passed the work-item's context, barrier()
 * becomes ts_barrier, and a built-in given an observed pointer tilescope does not know is
 * refused, rather than left doing accesses nobody sees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_instrument_int.h"

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

/* The line word of the access whose text ti_access_line kept last, its kind beside the text
 * (a race's other side, named by its kind: ts_plain_obs.c). */
static unsigned kinded(walker *w, unsigned word, int kind)
{
  ts_plain_src *out = w->out;
  struct ts_access_text *t = out->natexts ? &out->atexts[out->natexts - 1] : NULL;
  if (t && t->line == (int)(word & 0xffff) && t->k == (int)(word >> 16))
    t->kind = kind;
  return word;
}

/* (*(T *)ts_g(ts_c, (__global uchar *)&(E), sizeof(T), KIND, LINE)) */
void ti_emit_access(walker *w, sbuf *o, CXCursor c, span s, int sp, int ctx, const kids *k,
                    const int *kctx)
{
  if (w->dialect && sp != 1) {
    ti_emit_body(w, o, c, s, k, kctx);
    return;
  }
  note_wrapped(w, s);
  w->out->accesses++;
  w->out->global_rmw += sp == 1 && ti_kind_of(ctx) != K_READ && ti_kind_of(ctx) != K_WRITE;
  if (!w->dialect)
    ti_set_add(w, &w->seen, c);
  char *t = ti_type_str(clang_getCursorType(c));
  const char *as = sp == 1 ? "__global" : "__local";
  if (w->dialect)
    ti_sb_fmt(o, "(*(%s *)ts_obs_direct(ts_o_, (%s uchar *)&(", t, as);
  else
    ti_sb_fmt(o, "(*(%s *)ts_%c(ts_c, (%s uchar *)&(", t, sp == 1 ? 'g' : 'l', as);
  ti_emit_body(w, o, c, s, k, kctx);
  ti_sb_fmt(o, "), sizeof(%s), %d, %u))", t, ti_kind_of(ctx),
            kinded(w, ti_access_line(w, s), ti_kind_of(ctx)));
  free(t);
}

/* An access's line word for the runtime, line | number << 16 (its number among its line's
 * accesses, in the order they are written), its text kept for the findings (atexts). */
unsigned ti_access_line(walker *w, span s)
{
  unsigned line = s.line - w->line_base;
  if (w->dialect) /* the dialect's runtime takes the line alone */
    return line;
  if (line != w->aline) {
    w->aline = line;
    w->acount = 0;
  }
  unsigned k = w->acount < 255 ? w->acount++ : 255;
  ts_plain_src *out = w->out;
  if (w->rewrite && !w->dialect && k < 255 && s.t > s.s && s.t <= w->len) {
    if ((out->natexts & (out->natexts + 1)) == 0 || out->natexts == 0) { /* 0, 1, 3, 7...: grow */
      void *na = realloc(out->atexts, ((size_t)out->natexts * 2 + 2) * sizeof *out->atexts);
      if (!na)
        return line | k << 16;
      out->atexts = na;
    }
    struct ts_access_text *t = &out->atexts[out->natexts++];
    t->line = (int)line;
    t->k = (int)k;
    /* the text on one line, its blanks runs made one */
    size_t n = 0;
    for (unsigned i = s.s; i < s.t && n + 4 < sizeof t->text; i++) {
      char ch = w->src[i] == '\n' || w->src[i] == '\t' ? ' ' : w->src[i];
      if (ch == ' ' && n > 0 && t->text[n - 1] == ' ')
        continue;
      t->text[n++] = ch;
    }
    if (s.t - s.s >= sizeof t->text - 4 && n + 4 >= sizeof t->text) {
      memcpy(t->text + n, "...", 3);
      n += 3;
    }
    t->text[n] = 0;
  }
  return line | k << 16;
}

/* ---- private arrays followed element by element ---- */

int ti_tracked_array(const walker *w, CXCursor decl)
{
  for (int i = 0; i < w->nparr; i++)
    if (clang_equalCursors(w->parr[i], decl))
      return 1;
  return 0;
}

/* A subscript's base before its decay to a pointer (through casts and parentheses). */
static CXCursor undecayed(CXCursor base)
{
  while (clang_getCursorKind(base) == CXCursor_UnexposedExpr ||
         clang_getCursorKind(base) == CXCursor_ParenExpr) {
    kids bk;
    ti_children(base, &bk);
    if (bk.n != 1)
      break;
    base = bk.c[0];
  }
  return base;
}

/* The array a subscript's base names (through its decay), or a null cursor. */
static CXCursor subscript_array(CXCursor base)
{
  base = undecayed(base);
  return clang_getCursorKind(base) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(base)
                                                          : clang_getNullCursor();
}

/* Candidates: private arrays of 1 to 64 elements (not of arrays) declared without a value. */
static void find_arrays(walker *w, CXCursor c)
{
  kids k;
  ti_children(c, &k);
  for (int i = 0; i < k.n; i++) {
    CXCursor x = k.c[i];
    if (clang_getCursorKind(x) == CXCursor_VarDecl && w->nparr < 16) {
      CXType t = clang_getCanonicalType(clang_getCursorType(x));
      kids vk;
      ti_children(x, &vk);
      int init = 0;
      for (int j = 0; j < vk.n; j++)
        init |= clang_isExpression(clang_getCursorKind(vk.c[j])) &&
                clang_getCursorKind(vk.c[j]) != CXCursor_IntegerLiteral; /* (its size) */
      if (t.kind == CXType_ConstantArray && !init && clang_getArraySize(t) <= 64 &&
          clang_getArrayElementType(t).kind != CXType_ConstantArray &&
          ti_space_of(clang_getCursorType(x)) == 0 &&
          clang_Cursor_getStorageClass(x) != CX_SC_OpenCLWorkGroupLocal)
        w->parr[w->nparr++] = x;
    }
    find_arrays(w, x);
  }
}

/* Drops an array named anywhere but as a subscript's base read or written (its address taken,
 * given to a function, sizeof): what is set through a pointer is not followed. */
static void drop_escaping(walker *w, CXCursor c, int as_base)
{
  if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && !as_base) {
    CXCursor d = clang_getCursorReferenced(c);
    for (int i = 0; i < w->nparr; i++)
      if (clang_equalCursors(w->parr[i], d))
        w->parr[i--] = w->parr[--w->nparr];
    return;
  }
  kids k;
  ti_children(c, &k);
  enum CXCursorKind ck = clang_getCursorKind(c);
  int addr = ck == CXCursor_UnaryOperator && clang_getCanonicalType(clang_getCursorType(c)).kind ==
                                                 CXType_Pointer;
  for (int i = 0; i < k.n; i++) {
    enum CXCursorKind kk = clang_getCursorKind(k.c[i]);
    int base = (ck == CXCursor_ArraySubscriptExpr && i == 0) ||
               (as_base && (ck == CXCursor_UnexposedExpr || ck == CXCursor_ParenExpr));
    /* &a[i] takes an element's address: a[i]'s base escapes */
    if (addr && kk == CXCursor_ArraySubscriptExpr) {
      kids ak;
      ti_children(k.c[i], &ak);
      if (ak.n == 2) {
        drop_escaping(w, ak.c[0], 0);
        drop_escaping(w, ak.c[1], 0);
      }
      continue;
    }
    drop_escaping(w, k.c[i], base);
  }
}

void ti_track_arrays(walker *w, CXCursor fn)
{
  w->nparr = 0;
  if (w->dialect)
    return;
  find_arrays(w, fn);
  drop_escaping(w, fn, 0);
}

/* a[i] of a private array of known size: the index is checked (ts_pidx), a[ts_pidx(ts_c, i,
 * N, LINE)]; one past the end is an address, not an access, where only the address is taken
 * (ctx CTX_NONE). Returns 0 when c is no such subscript. */
int ti_emit_private_index(walker *w, sbuf *o, CXCursor c, span s, const kids *k, int ctx)
{
  if (w->dialect || k->n != 2 || clang_getCursorKind(c) != CXCursor_ArraySubscriptExpr)
    return 0;
  CXCursor base = undecayed(k->c[0]); /* the array before its decay to a pointer */
  CXType at = clang_getCanonicalType(clang_getCursorType(base));
  if (at.kind != CXType_ConstantArray || ti_space_of(clang_getArrayElementType(at)) != 0)
    return 0;
  long long n = clang_getArraySize(at);
  CXCursor arr = subscript_array(k->c[0]);
  int tracked = ctx != CTX_NONE && !clang_Cursor_isNull(arr) && ti_tracked_array(w, arr);
  CXEvalResult ev = clang_Cursor_Evaluate(k->c[1]); /* a constant index inside: as it is */
  int inside = ev && clang_EvalResult_getKind(ev) == CXEval_Int &&
               clang_EvalResult_getAsLongLong(ev) >= 0 && clang_EvalResult_getAsLongLong(ev) < n;
  if (ev)
    clang_EvalResult_dispose(ev);
  if (inside && !tracked)
    return 0;
  span bs = ti_span_of(w, k->c[0]), is = ti_span_of(w, k->c[1]);
  if (n <= 0 || !bs.ok || !is.ok || bs.t > is.s || is.s < s.s || is.t > s.t)
    return 0; /* spelt by a macro, or in an order this cannot write: as it is */
  sbuf bb = { 0 }, ib = { 0 };
  ti_emit(w, &bb, k->c[0], CTX_NONE);
  ti_emit(w, &ib, k->c[1], CTX_READ);
  if (tracked) {
    CXString an = clang_getCursorSpelling(arr);
    ti_sb_fmt(o, "%s[ts_pw(ts_c, (long)(%s), %lld, %u, &ts_pw_%s, %d)]", bb.s ? bb.s : "",
              ib.s ? ib.s : "", n, s.line - w->line_base, clang_getCString(an), ti_kind_of(ctx));
    clang_disposeString(an);
  } else {
    ti_sb_fmt(o, "%s[ts_pidx(ts_c, (long)(%s), %lld, %u)]", bb.s ? bb.s : "", ib.s ? ib.s : "",
              n + (ctx == CTX_NONE), s.line - w->line_base);
  }
  free(bb.s);
  free(ib.s);
  return 1;
}

/* vloadN(off, p) / vstoreN(v, off, p) / vload_half[N](off, p) / vstore_half[N][_r](v, off, p):
 * the pointer argument becomes the element's own address, checked; the offset becomes 0. */
static int emit_vector_call(walker *w, sbuf *o, CXCursor c, const char *name, span s,
                            const kids *k)
{
  int store, half, n = ti_vector_shape(name, &store, &half);
  if (n == 0 || k->n < (store ? 4 : 3))
    return 0;
  CXCursor ptr = k->c[k->n - 1], off = k->c[k->n - 2];
  CXType pt = clang_getCursorType(ptr);
  int sp = ti_space_of(clang_getPointeeType(pt));
  if (sp == 0 || (w->dialect && sp != 1))
    return 0; /* private or constant memory (or a dialect's __local): nothing to observe */
  ti_set_add(w, &w->seen, c);
  span ps = ti_span_of(w, ptr);
  if (!w->dialect && ps.ok && ((ps.s == s.s && ps.t == s.t) || ps.s == ps.t))
    return ti_emit_vector_in_body(w, o, c, s);
  char *ts = ti_type_str(pt);
  sbuf ob = { 0 }, pb = { 0 }, vb = { 0 };
  ti_emit(w, &ob, off, CTX_READ);
  ti_emit(w, &pb, ptr, CTX_NONE);
  if (store)
    ti_emit(w, &vb, k->c[k->n - 3], CTX_READ);
  ti_sb_fmt(o, "%s(", name);
  if (store)
    ti_sb_fmt(o, "%s, ", vb.s ? vb.s : "");
  ti_sb_fmt(o, "0, (%s)%s(%s uchar *)((%s) + (size_t)(%s) * %d), %d * sizeof(*(%s)), %d, %u))",
         ts, w->dialect ? "ts_obs_direct(ts_o_, " : sp == 1 ? "ts_g(ts_c, " : "ts_l(ts_c, ",
         sp == 1 ? "__global" : "__local", pb.s ? pb.s : "", ob.s ? ob.s : "", n, n,
         pb.s ? pb.s : "", (store ? K_WRITE : K_READ) | K_VECTOR, ti_access_line(w, s));
  note_wrapped(w, s);
  w->out->accesses++;
  free(ob.s);
  free(pb.s);
  free(vb.s);
  free(ts);
  return 1;
}

/* The group's copies: async_work_group_copy(dst, src, n, ev) and its strided form become
 * ts_async_lg (to __local) or ts_async_gl (to __global), which make the copy's accesses,
 * checked, as the group's own (observe.cl); wait_group_events(n, list) becomes
 * ts_wait_events, the copies' ordering point; prefetch(p, n) does nothing. */
static int emit_group_copy(walker *w, sbuf *o, CXCursor c, const char *name, span s)
{
  int strided = strcmp(name, "async_work_group_strided_copy") == 0;
  int plain = strcmp(name, "async_work_group_copy") == 0;
  int nargs = clang_Cursor_getNumArguments(c);
  if (strcmp(name, "prefetch") == 0) {
    ti_set_add(w, &w->seen, c);
    ti_sb_str(o, "((void)0)");
    return 1;
  }
  if (strcmp(name, "wait_group_events") == 0 && nargs == 2) {
    sbuf nb = { 0 }, lb = { 0 };
    ti_emit(w, &nb, clang_Cursor_getArgument(c, 0), CTX_READ);
    ti_emit(w, &lb, clang_Cursor_getArgument(c, 1), CTX_READ);
    ti_sb_fmt(o, "ts_wait_events(ts_c, %s, %s, %u)", nb.s ? nb.s : "", lb.s ? lb.s : "",
              s.line - w->line_base);
    free(nb.s);
    free(lb.s);
    return 1;
  }
  if (!(plain && nargs == 4) && !(strided && nargs == 5))
    return 0;
  CXCursor dst = clang_Cursor_getArgument(c, 0), src = clang_Cursor_getArgument(c, 1);
  int dsp = ti_space_of(clang_getPointeeType(clang_getCursorType(dst)));
  int ssp = ti_space_of(clang_getPointeeType(clang_getCursorType(src)));
  if (!((dsp == 2 && ssp == 1) || (dsp == 1 && ssp == 2)))
    return 0;
  ti_set_add(w, &w->seen, c);
  w->out->accesses += 2;
  sbuf db = { 0 }, sb = { 0 }, nb = { 0 }, eb = { 0 }, tb = { 0 };
  ti_emit(w, &db, dst, CTX_NONE);
  ti_emit(w, &sb, src, CTX_NONE);
  ti_emit(w, &nb, clang_Cursor_getArgument(c, 2), CTX_READ);
  if (strided)
    ti_emit(w, &tb, clang_Cursor_getArgument(c, 3), CTX_READ);
  ti_emit(w, &eb, clang_Cursor_getArgument(c, strided ? 4 : 3), CTX_READ);
  const char *l = dsp == 2 ? db.s : sb.s, *g = dsp == 2 ? sb.s : db.s;
  ti_sb_fmt(o, "ts_async_%s(ts_c, (__local uchar *)(%s), (__global uchar *)(%s), (size_t)(%s), "
            "(size_t)(%s), sizeof(*(%s)), %s, %u)", dsp == 2 ? "lg" : "gl", l ? l : "", g ? g : "",
            nb.s ? nb.s : "", strided ? (tb.s ? tb.s : "") : "1", db.s ? db.s : "",
            eb.s ? eb.s : "", s.line - w->line_base);
  free(db.s);
  free(sb.s);
  free(nb.s);
  free(eb.s);
  free(tb.s);
  return 1;
}

/* The declaration an expression names (through casts and parentheses), or a null cursor. */
static CXCursor named_decl(CXCursor e)
{
  for (int depth = 0; depth < 8; depth++) {
    if (clang_getCursorKind(e) == CXCursor_DeclRefExpr)
      return clang_getCursorReferenced(e);
    kids k;
    ti_children(e, &k);
    if (k.n != 1)
      break;
    e = k.c[0];
  }
  return clang_getNullCursor();
}

/* Whether an expression is a constant number (through casts and parentheses). */
static int is_literal(CXCursor e)
{
  for (int depth = 0; depth < 8; depth++) {
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_IntegerLiteral)
      return 1;
    kids ks;
    ti_children(e, &ks);
    if (ks.n != 1)
      break;
    e = ks.c[0];
  }
  return 0;
}

/* A sampler's bits as an expression of the CLK_ constants: its declaration's initialiser, or
 * the expression itself where it is one; "-1" where it cannot be known (a sampler argument). */
static void sampler_bits(walker *w, CXCursor e, sbuf *o)
{
  CXCursor d = named_decl(e), init = e;
  if (!clang_Cursor_isNull(d)) {
    if (clang_getCursorKind(d) != CXCursor_VarDecl) {
      ti_sb_str(o, "-1");
      return;
    }
    kids k;
    ti_children(d, &k);
    if (k.n == 0) {
      ti_sb_str(o, "-1");
      return;
    }
    init = k.c[k.n - 1];
  }
  span is = ti_span_of(w, init);
  if (!is.ok || is.t <= is.s) {
    ti_sb_str(o, "-1");
    return;
  }
  ti_sb_str(o, "(int)(");
  ti_sb_add(o, w->src + is.s, is.t - is.s);
  ti_sb_str(o, ")");
}

/* read_image{f,i,ui}(img, [sampler,] coord) and write_image{f,i,ui}(img, coord, value) on one
 * of the kernel's image arguments become observe.cl's ts_<name>_si (a sampler, int
 * coordinates), _sf (a sampler, float ones) or _n (none): the pixel checked as the sampler's
 * addressing mode says, and made an access of the image's buffer slot (the kernel's __global
 * arguments and images, in their order). */
static int emit_image_call(walker *w, sbuf *o, CXCursor c, const char *name, span s)
{
  int rd = strncmp(name, "read_image", 10) == 0, wr = strncmp(name, "write_image", 11) == 0;
  if (!rd && !wr)
    return 0;
  const char *t = name + (rd ? 10 : 11);
  int nargs = clang_Cursor_getNumArguments(c);
  if ((strcmp(t, "f") && strcmp(t, "i") && strcmp(t, "ui")) || nargs < 2 || nargs > 3) {
    ti_fail(w, s.line, "%s: tilescope observes read_image and write_image of f, i and ui", name);
    return 1;
  }
  CXCursor pd = named_decl(clang_Cursor_getArgument(c, 0));
  int slot = -1;
  if (w->kernel && !clang_Cursor_isNull(pd) && clang_getCursorKind(pd) == CXCursor_ParmDecl) {
    CXString ns = clang_getCursorSpelling(pd);
    for (int i = 0, g = 0; i < w->kernel->nparams; i++) {
      const ts_plain_param *p = &w->kernel->params[i];
      if (p->image && strcmp(p->name, clang_getCString(ns)) == 0)
        slot = g;
      g += p->space == TS_SPACE_GLOBAL;
    }
    clang_disposeString(ns);
  }
  if (slot < 0) {
    ti_fail(w, s.line, "%s of an image that is not the kernel's own argument: tilescope "
            "observes an image's pixels where the kernel names its image argument", name);
    return 1;
  }
  int sampled = rd && nargs == 3;
  CXCursor coord = clang_Cursor_getArgument(c, rd ? (unsigned)nargs - 1 : 1);
  CXType ct = clang_getCanonicalType(clang_getCursorType(coord));
  int lanes = ct.kind == CXType_ExtVector ? clang_getNumElements(ct) : 1;
  CXType et = ct.kind == CXType_ExtVector ? clang_getElementType(ct) : ct;
  int fl = et.kind == CXType_Float;
  if (lanes != 2 || (fl && !sampled)) {
    ti_fail(w, s.line, "%s: tilescope observes a 2-D image's pixels at int2 or float2 coordinates",
            name);
    return 1;
  }
  ti_set_add(w, &w->seen, c);
  w->out->accesses++;
  sbuf ib = { 0 }, sb = { 0 }, bb = { 0 }, cb = { 0 }, vb = { 0 };
  ti_emit(w, &ib, clang_Cursor_getArgument(c, 0), CTX_READ);
  ti_emit(w, &cb, coord, CTX_READ);
  if (sampled) {
    ti_emit(w, &sb, clang_Cursor_getArgument(c, 1), CTX_READ);
    sampler_bits(w, clang_Cursor_getArgument(c, 1), &bb);
  }
  if (wr)
    ti_emit(w, &vb, clang_Cursor_getArgument(c, 2), CTX_READ);
  ti_sb_fmt(o, "ts_%s_%s(ts_c, %d, %s, ", name, !sampled ? "n" : fl ? "sf" : "si", slot,
            ib.s ? ib.s : "");
  if (sampled)
    ti_sb_fmt(o, "%s, %s, ", sb.s ? sb.s : "", bb.s ? bb.s : "-1");
  ti_sb_fmt(o, "%s, ", cb.s ? cb.s : "");
  if (wr)
    ti_sb_fmt(o, "%s, ", vb.s ? vb.s : "");
  ti_sb_fmt(o, "%u)", ti_access_line(w, s));
  free(ib.s);
  free(sb.s);
  free(bb.s);
  free(cb.s);
  free(vb.s);
  return 1;
}

/* A call: the file's own functions take the context, barrier() counts, the built-ins with
 * pointers are observed, and any other built-in given a __global or __local pointer is an
 * error rather than an access nobody sees. */
int ti_emit_call(walker *w, sbuf *o, CXCursor c, span s, const kids *k)
{
  CXString ns = clang_getCursorSpelling(c);
  char name[128];
  snprintf(name, sizeof name, "%s", clang_getCString(ns));
  clang_disposeString(ns);
  CXCursor callee = clang_getCursorReferenced(c);
  int own = !clang_Cursor_isNull(callee) &&
            clang_getCursorKind(callee) == CXCursor_FunctionDecl && ti_own_function(w, callee);
  int nargs = clang_Cursor_getNumArguments(c);
  if (own && w->dialect)
    return 0; /* the dialect's functions take ts_o_ already */
  span named = k->n ? ti_span_of(w, k->c[0]) : s;
  if (own && !w->dialect && !ti_spelt_here(w, named, name)) {
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
    ti_emit_body(w, &tmp, c, s, k, ctx);
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
  /* the group's ids as the observation orders the groups (observe.cl's ts_order) */
  if (!w->dialect && !own && nargs == 1 &&
      (strcmp(name, "get_group_id") == 0 || strcmp(name, "get_global_id") == 0)) {
    sbuf ab = { 0 };
    ti_emit(w, &ab, clang_Cursor_getArgument(c, 0), CTX_READ);
    ti_sb_fmt(o, "ts_%s(ts_c, (uint)(%s))", name + 4, ab.s ? ab.s : "0");
    free(ab.s);
    return 1;
  }
  if (!w->dialect && (strcmp(name, "barrier") == 0 || strcmp(name, "work_group_barrier") == 0)) {
    int ctx[64];
    for (int i = 0; i < k->n; i++)
      ctx[i] = CTX_READ;
    sbuf tmp = { 0 };
    ti_emit_body(w, &tmp, c, s, k, ctx);
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
  if (!w->dialect && emit_group_copy(w, o, c, name, s))
    return 1;
  if (!w->dialect && emit_image_call(w, o, c, name, s))
    return 1;
  /* Which arguments are pointers to observed memory? */
  int first_ptr = -1, nptr = 0;
  for (int i = 0; i < nargs; i++) {
    CXType at = clang_getCursorType(clang_Cursor_getArgument(c, (unsigned)i));
    int asp = at.kind == CXType_Pointer ? ti_space_of(clang_getPointeeType(at)) : 0;
    if (asp && (!w->dialect || asp == 1)) {
      nptr++;
      if (first_ptr < 0)
        first_ptr = i;
    }
  }
  if (nptr == 0)
    return 0;
  /* the math built-ins that store a second result through a pointer (its last argument) */
  static const char *const out_fns[] = { "fract", "modf", "frexp", "lgamma_r", "remquo",
                                         "sincos" };
  int out_fn = 0;
  for (size_t i = 0; i < sizeof out_fns / sizeof out_fns[0]; i++)
    out_fn |= strcmp(name, out_fns[i]) == 0;
  if ((ti_is_atomic(name) && nptr == 1 && first_ptr == 0) ||
      (out_fn && nptr == 1 && first_ptr == nargs - 1)) {
    CXCursor ptr = clang_Cursor_getArgument(c, (unsigned)first_ptr);
    CXType pt = clang_getCursorType(ptr);
    int sp = ti_space_of(clang_getPointeeType(pt));
    span ps = ti_span_of(w, ptr);
    if (!ps.ok) {
      ti_fail(w, s.line, "cannot rewrite %s (its pointer comes from a macro)", name);
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
        ti_set_add(w, &w->seen, c);
        w->out->accesses++;
        w->out->global_rmw += sp == 1 && !out_fn;
        ti_emit(w, &pb, k->c[i], CTX_NONE);
        /* an exchange whose comparison is a variable or a constant (evaluated once more):
         * ts_gcx / ts_lcx tell a failed one, which writes nothing */
        CXCursor cmp = nargs == 3 ? clang_Cursor_getArgument(c, 1) : clang_getNullCursor();
        span cms = ti_span_of(w, cmp);
        int cx = !w->dialect && strstr(name, "cmpxchg") && nargs == 3 && cms.ok &&
                 (!clang_Cursor_isNull(named_decl(cmp)) || is_literal(cmp));
        if (cx)
          ti_sb_fmt(o, "(%s)%s(ts_c, (%s uchar *)(%s), sizeof(*(%s)), (long)(%.*s), %u)", ts,
                    sp == 1 ? "ts_gcx" : "ts_lcx", sp == 1 ? "__global" : "__local",
                    pb.s ? pb.s : "", pb.s ? pb.s : "", (int)(cms.t - cms.s), w->src + cms.s,
                    kinded(w, ti_access_line(w, s), K_ATOMIC));
        else
          ti_sb_fmt(o, "(%s)%s(%s uchar *)(%s), sizeof(*(%s)), %d, %u)", ts,
                 w->dialect ? "ts_obs_direct(ts_o_, " : sp == 1 ? "ts_g(ts_c, " : "ts_l(ts_c, ",
                 sp == 1 ? "__global" : "__local", pb.s ? pb.s : "", pb.s ? pb.s : "",
                 out_fn ? K_WRITE : K_ATOMIC,
                 kinded(w, ti_access_line(w, s), out_fn ? K_WRITE : K_ATOMIC));
        free(pb.s);
      } else {
        ti_emit(w, o, k->c[i], CTX_READ);
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
