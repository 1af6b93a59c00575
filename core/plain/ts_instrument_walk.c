/* The walk over the file's functions, the top of the instrumenter: each function written
 * again (a helper takes the work-item's context first; a kernel the observation buffer last,
 * and its prologue; a __local array declared in it gets its shadows), each node handed to
 * the piece that rewrites it (emit), and each function then checked for an access left
 * unseen. */
#include <stdio.h>
#include <string.h>

#include "ts_instrument_int.h"

static void emit(walker *w, sbuf *o, CXCursor c, int ctx);
static void emit_stmts(walker *w, sbuf *o, CXCursor block, span s);

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
  int here = ti_spelt_here(w, (span){ name, name + (unsigned)strlen(clang_getCString(ns)), 0, 1 },
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

/* A __local array or pointer argument of the kernel: its name, its lanes' bytes, and for a
 * declared one (t not a null type) its sizes, for the findings' names (tile[0][1]). */
static void add_local(walker *w, const char *name, int elem, CXType t)
{
  ts_plain_kernel *kn = w->kernel;
  if (!kn)
    return;
  if (kn->nlocals == 8) {
    ti_fail(w, (unsigned)kn->line, "%s: more than 8 __local arrays and arguments", kn->name);
    return;
  }
  int i = kn->nlocals++;
  snprintf(kn->locals[i], sizeof kn->locals[0], "%s", name);
  kn->local_elem[i] = elem > 0 ? elem : 1;
  memset(kn->local_dims[i], 0, sizeof kn->local_dims[i]);
  kn->local_esz[i] = 0;
  for (int d = 0; t.kind != CXType_Invalid && ti_is_array(t); d++) {
    if (d < 3)
      kn->local_dims[i][d] = (int)clang_getArraySize(clang_getCanonicalType(t));
    t = clang_getArrayElementType(clang_getCanonicalType(t));
  }
  if (t.kind != CXType_Invalid) {
    long long sz = clang_Type_getSizeOf(t);
    kn->local_esz[i] = sz > 0 ? (int)sz : 0;
  }
}

/* The kernel's prologue: its context, its global buffers in argument order, its __local
 * pointer arguments with their shadows. */
static void emit_prologue(walker *w, sbuf *o, ts_plain_kernel *kn)
{
  ti_sb_str(o, "\n  __local uint ts_lscr[TS_LSCR_WORDS];\n  ts_tab ts_t0;\n"
            "  ts_ctx ts_c0, *ts_c = &ts_c0;\n  ts_begin(ts_c, &ts_t0, ts_ob, ts_lscr);\n");
  int nl = 0;
  for (int i = 0; i < kn->nparams; i++) {
    const ts_plain_param *p = &kn->params[i];
    if (p->space == TS_SPACE_GLOBAL && p->image) /* its pixels come by coordinates */
      ti_sb_str(o, "  ts_gbuf(ts_c, (__global uchar *)0);\n");
    else if (p->space == TS_SPACE_GLOBAL)
      ti_sb_fmt(o, "  ts_gbuf(ts_c, (__global uchar *)%s);\n", p->name);
    else if (p->space == TS_SPACE_LOCAL) {
      CXType none = { CXType_Invalid, { 0, 0 } };
      add_local(w, p->name, p->elem_size / (p->lanes > 0 ? p->lanes : 1), none);
      ti_sb_fmt(o,
                "  ts_lbuf(ts_c, (__local uchar *)%s, ts_lparam_size(ts_c, %d),"
                " (__local uint *)ts_ls%d);\n",
                p->name, nl, nl);
      nl++;
    }
  }
  if (nl)
    ti_sb_str(o, "  barrier(CLK_LOCAL_MEM_FENCE);\n");
  for (int i = 0; i < w->ngvars; i++)
    ti_sb_fmt(o, "  ts_gvar(ts_c, (__global uchar *)&%s, sizeof(%s));\n", w->gvars[i],
              w->gvars[i]);
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
    ti_emit_body(w, o, c, s, k, ctx);
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
  ti_track_arrays(w, c);
  ti_track_vectors(w, c);
  w->fn_barrier = ti_barrier_in(w, c, 0) != 0;
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
    /* a short helper is copied into its callers where observe.cl says so (TS_HELPER: on a
     * CPU device, where the checks it holds had left it a call, and the loop around it
     * unoptimised: the row scan's luma, 10% of its work) */
    if (bs.t - bs.s <= 800 && !strstr(sig, "noinline"))
      ti_sb_str(o, "TS_HELPER ");
    emit_params(w, o, c, s, bs.s, nparm);
  } else {
    span ls = lastparm >= 0 ? ti_span_of(w, k->c[lastparm]) : s;
    char *close = NULL;
    if (lastparm >= 0 && ls.t > s.s && ls.t <= bs.s) {
      ti_sb_add(o, w->src + s.s, ls.t - s.s);
      ti_sb_str(o, ", __global uint *ts_ob");
      for (int i = 0, nl = 0; kn && i < kn->nparams; i++)
        if (kn->params[i].space == TS_SPACE_LOCAL) {
          ti_sb_fmt(o, ", __local uint2 *ts_ls%d", nl);
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
  ti_children(k->c[body], &bk);
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
    ti_emit_body(w, o, k->c[body], inner, &bk, ctx);
  if (kernel && kn && inner.t < bs.t)
    ti_sb_str(o, "ts_end(ts_c);\n}");
  ti_sb_add(o, w->src + bs.t, s.t - bs.t);
  w->in_kernel = 0;
  w->kernel = NULL;
}

/* Whether declaration d is a private scalar (a number or a pointer) given no value, neither
 * const nor static. */
static int unset_scalar(CXCursor d)
{
  CXType t = clang_getCursorType(d), ct = clang_getCanonicalType(t);
  int scalar = (ct.kind >= CXType_Bool && ct.kind <= CXType_LongDouble) || ct.kind == CXType_Half ||
               ct.kind == CXType_Float16 || ct.kind == CXType_Pointer;
  if (!scalar || clang_isConstQualifiedType(t) || ti_space_of(t) != 0 ||
      clang_Cursor_getStorageClass(d) == CX_SC_Static ||
      clang_Cursor_getStorageClass(d) == CX_SC_OpenCLWorkGroupLocal ||
      clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_FunctionDecl)
    return 0;
  kids k;
  ti_children(d, &k);
  for (int j = 0; j < k.n; j++)
    if (clang_isExpression(clang_getCursorKind(k.c[j])))
      return 0;
  return 1;
}

/* A __local array declared in a kernel: its shadows and its registration follow it. */
static void emit_decl_stmt(walker *w, sbuf *o, CXCursor c, span s, const kids *k)
{
  int ctx[64];
  for (int i = 0; i < k->n; i++)
    ctx[i] = CTX_READ;
  ti_emit_body(w, o, c, s, k, ctx);
  if (w->dialect)
    return;
  for (int i = 0; i < k->n; i++) /* a followed private array: its mask of elements set */
    if (clang_getCursorKind(k->c[i]) == CXCursor_VarDecl && ti_tracked_array(w, k->c[i])) {
      CXString ns = clang_getCursorSpelling(k->c[i]);
      /* zeroed, so that the observed output does not depend on what was left there */
      ti_sb_fmt(o, " ulong ts_pw_%s = 0; for (uint ts_i = 0; ts_i < sizeof(%s); ts_i++) "
                "((__private uchar *)%s)[ts_i] = 0;", clang_getCString(ns), clang_getCString(ns),
                clang_getCString(ns));
      clang_disposeString(ns);
    } else if (clang_getCursorKind(k->c[i]) == CXCursor_VarDecl && ti_tracked_vector(w, k->c[i])) {
      CXString ns = clang_getCursorSpelling(k->c[i]); /* its mask of lanes set, and zeroed */
      ti_sb_fmt(o, " uint ts_pv_%s = 0; %s = 0;", clang_getCString(ns), clang_getCString(ns));
      clang_disposeString(ns);
    } else if (clang_getCursorKind(k->c[i]) == CXCursor_VarDecl && unset_scalar(k->c[i]) &&
               !clang_equalCursors(c, w->for_init)) {
      /* a private scalar declared without a value: zeroed too (its uninitialised uses are
       * found from the source), so that an index made of it does not land where the stack's
       * leftovers say, outside an array in one build and inside in another */
      CXString ns = clang_getCursorSpelling(k->c[i]);
      ti_sb_fmt(o, " %s = 0;", clang_getCString(ns));
      clang_disposeString(ns);
    }
  int any = 0;
  for (int i = 0; i < k->n; i++) {
    if (clang_getCursorKind(k->c[i]) != CXCursor_VarDecl)
      continue;
    CXType t = clang_getCursorType(k->c[i]);
    /* (a pointer to __local memory, `__local int *p;`, is a private variable) */
    if (clang_getCanonicalType(t).kind == CXType_Pointer ||
        (clang_Cursor_getStorageClass(k->c[i]) != CX_SC_OpenCLWorkGroupLocal &&
         ti_space_of(t) != 2))
      continue;
    if (!w->in_kernel) {
      ti_fail(w, s.line, "a __local variable outside a kernel");
      return;
    }
    CXString ns = clang_getCursorSpelling(k->c[i]);
    const char *n = clang_getCString(ns);
    CXType et = t;
    while (ti_is_array(et))
      et = clang_getArrayElementType(et);
    CXType ct = clang_getCanonicalType(et);
    long long esz = clang_Type_getSizeOf(ct.kind == CXType_ExtVector ? clang_getElementType(ct) : ct);
    add_local(w, n, esz > 0 ? (int)esz : 1, t);
    ti_sb_fmt(o, "\n  __local uint2 ts_ls_%s[sizeof(%s)];\n"
              "  ts_lbuf(ts_c, (__local uchar *)%s%s, sizeof(%s), (__local uint *)ts_ls_%s);",
           n, n, ti_is_array(t) ? "" : "&", n, n, n);
    clang_disposeString(ns);
    any = 1;
  }
  if (any)
    ti_sb_str(o, "\n  barrier(CLK_LOCAL_MEM_FENCE);");
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
    return CXChildVisit_Continue; /* its text is written as it is (ti_check_seen looks at it) */
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

/* The integer an expression evaluates to, into *v: 1, or 0 when it is none. */
static int int_value(CXCursor e, long long *v)
{
  CXEvalResult r = clang_Cursor_Evaluate(e);
  int ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok)
    *v = clang_EvalResult_getAsLongLong(r);
  if (r)
    clang_EvalResult_dispose(r);
  return ok;
}

/* The variable an expression names, through its implicit casts (a null cursor: none). */
static CXCursor named_var(CXCursor e)
{
  while (clang_getCursorKind(e) == CXCursor_UnexposedExpr ||
         clang_getCursorKind(e) == CXCursor_ParenExpr) {
    kids k;
    ti_children(e, &k);
    if (k.n != 1)
      return clang_getNullCursor();
    e = k.c[0];
  }
  return clang_getCursorKind(e) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(e)
                                                        : clang_getNullCursor();
}

/* How many times a for loop runs where that is a few known before it starts, its body no
 * barrier: `for (int i = A; i OP B; i++)` (or --) with A and B constant, OP a comparison, at
 * most 8 times; else 0. The observed build asks for it unrolled (TS_SMALL_LOOP): its plain
 * build's compiler unrolls it, and the checks in its body had kept the observed one's a loop,
 * its indices worked out at each pass (the separable Gaussian's taps: a quarter of its
 * observed work). */
static long small_loop(walker *w, const kids *k)
{
  if (k->n != 4 || clang_getCursorKind(k->c[0]) != CXCursor_DeclStmt ||
      ti_barrier_in(w, k->c[3], 0))
    return 0;
  kids d, v, cond, inc;
  ti_children(k->c[0], &d);
  if (d.n != 1 || clang_getCursorKind(d.c[0]) != CXCursor_VarDecl)
    return 0;
  ti_children(d.c[0], &v);
  long long a, b;
  if (v.n < 1 || !int_value(v.c[v.n - 1], &a))
    return 0;
  ti_children(k->c[1], &cond);
  ti_children(k->c[2], &inc);
  if (clang_getCursorKind(k->c[1]) != CXCursor_BinaryOperator || cond.n != 2 ||
      !clang_equalCursors(named_var(cond.c[0]), d.c[0]) || !int_value(cond.c[1], &b) ||
      clang_getCursorKind(k->c[2]) != CXCursor_UnaryOperator || inc.n != 1 ||
      !clang_equalCursors(named_var(inc.c[0]), d.c[0]))
    return 0;
  char op[16], step[16];
  ti_op_of(w, k->c[1], &cond, 1, op, sizeof op);
  ti_op_of(w, k->c[2], &inc, 0, step, sizeof step);
  long long n = -1;
  if (strcmp(step, "++") == 0)
    n = strcmp(op, "<") == 0 ? b - a : strcmp(op, "<=") == 0 ? b - a + 1 : -1;
  else if (strcmp(step, "--") == 0)
    n = strcmp(op, ">") == 0 ? a - b : strcmp(op, ">=") == 0 ? a - b + 1 : -1;
  return n >= 1 && n <= 8 ? n : 0;
}

typedef struct nest {
  walker *w;
  long most; /* the most times a body runs, of the small loops' nests found */
} nest;

static long nest_runs(walker *w, CXCursor body);

static enum CXChildVisitResult find_nest(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  nest *t = d;
  if (clang_getCursorKind(c) == CXCursor_ForStmt) {
    kids k;
    ti_children(c, &k);
    long n = k.over ? 0 : small_loop(t->w, &k);
    if (n) {
      long runs = n * nest_runs(t->w, k.c[3]);
      t->most = runs > t->most ? runs : t->most;
      return CXChildVisit_Continue;
    }
  }
  return CXChildVisit_Recurse;
}

/* The times the innermost body of the small loops inside `body` runs for one run of it (1:
 * none), the largest of its nests. */
static long nest_runs(walker *w, CXCursor body)
{
  nest t = { w, 1 };
  if (find_nest(body, clang_getNullCursor(), &t) == CXChildVisit_Recurse) /* (a body unbraced) */
    clang_visitChildren(body, find_nest, &t);
  return t.most;
}

static void emit_one(walker *w, sbuf *o, CXCursor c, int ctx);

/* A node's rewrite (emit_one), the nest of small loops it opens closed after it. */
static void emit(walker *w, sbuf *o, CXCursor c, int ctx)
{
  long nest_was = w->small_nest;
  emit_one(w, o, c, ctx);
  w->small_nest = nest_was;
}

static void emit_one(walker *w, sbuf *o, CXCursor c, int ctx)
{
  if (w->failed)
    return;
  span s = ti_span_of(w, c);
  if (!s.ok)
    return;
  kids k;
  ti_children(c, &k);
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
  case CXCursor_ForStmt: {
    /* a nest of small loops whose innermost body runs more than TS_GPU_UNROLL times is
     * unrolled on a CPU device only (TS_SMALL_NEST): on a GPU, the tiled Gaussian's 25 taps
     * unrolled took 13% longer, where conv2d's 9 and the separable passes' 5 took 10% less */
    long n = w->dialect ? 0 : small_loop(w, &k);
    if (n && !w->small_nest)
      w->small_nest = n * nest_runs(w, k.c[3]);
    if (n)
      ti_sb_str(o, w->small_nest <= TS_GPU_UNROLL ? "TS_SMALL_LOOP " : "TS_SMALL_NEST ");
  }
    if (k.n > 0 && clang_getCursorKind(k.c[0]) == CXCursor_DeclStmt)
      w->for_init = k.c[0]; /* (no statement can follow it there) */
    /* fall through */
  case CXCursor_IfStmt:
  case CXCursor_WhileStmt:
  case CXCursor_DoStmt:
    if (!w->dialect && w->fn_barrier) {
      ti_emit_branch(w, o, c, s, &k, kctx);
      return;
    }
    break;
  case CXCursor_SwitchStmt:
    if (!w->dialect && w->fn_barrier) { /* a break in it leaves the switch only */
      unsigned brk = w->brk_bline;
      w->brk_bline = 0;
      ti_emit_switch(w, o, c, s, &k, kctx);
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
    if (ti_emit_call(w, o, c, s, &k))
      return;
    break;
  default:
    break;
  }
  if (ti_emit_private_vector(w, o, c, s, &k, ctx))
    return;
  int sp = ti_contexts(w, c, &k, ctx, kctx);
  if (!sp && ti_emit_private_index(w, o, c, s, &k, ctx))
    return;
  if (sp) {
    ti_emit_access(w, o, c, s, sp, ctx, &k, kctx);
    return;
  }
  ti_emit_body(w, o, c, s, &k, kctx);
}

enum CXChildVisitResult ti_top_level(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  void **pp = d;
  walker *w = pp[0];
  sbuf *o = pp[1];
  unsigned *pos = pp[2];
  w->emit_node = emit; /* the pieces write their nodes' children through it (ti_emit) */
  if (w->failed)
    return CXChildVisit_Break;
  span s = ti_span_of(w, c);
  if (!s.ok || s.s < *pos)
    return CXChildVisit_Continue;
  if (clang_getCursorKind(c) == CXCursor_VarDecl && w->ngvars < 8 &&
      ti_space_of(clang_getCursorType(c)) == 1) {
    CXString ns = clang_getCursorSpelling(c);
    snprintf(w->gvars[w->ngvars++], sizeof w->gvars[0], "%s", clang_getCString(ns));
    clang_disposeString(ns);
  }
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl)
    return CXChildVisit_Continue; /* copied as text with what lies between */
  if (!clang_isCursorDefinition(c)) {
    /* a prototype of the file's own function: as its definition is written */
    if (w->dialect || !ti_own_function(w, c))
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
    ti_check_seen(w, c, CTX_READ);
  *pos = s.t;
  return CXChildVisit_Continue;
}
