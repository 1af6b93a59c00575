/* Branches before a barrier (barrier divergence). A work-group's work-items must all reach
 * the same barriers. A branch decides that when its statement holds a barrier (an if's
 * branches, a loop's body), or when it holds a return with a barrier after it in the
 * function, or a break or continue of a loop that holds one. Its condition is passed through
 * ts_uniform (observe.cl), which tells a group's items that decide it apart. A call of a
 * function that reaches a barrier counts as a barrier. A switch that decides one passes its
 * value through ts_sw_begin, and each case label is a decision of its own. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ts_instrument_int.h"

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
unsigned ti_barrier_in(walker *w, CXCursor c, unsigned after)
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
  if (n && !known && ti_barrier_in(w, c, 0)) {
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
    ti_children(c, &k);
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
void ti_emit_switch(walker *w, sbuf *o, CXCursor c, span s, const kids *k, const int *kctx)
{
  unsigned bline = ti_barrier_in(w, c, 0);
  int wrap = bline ? cond_index(w, c, k) : -1;
  if (wrap < 0) {
    ti_emit_body(w, o, c, s, k, kctx);
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
  ti_emit_body_wrap(w, o, c, s, k, kctx, wrap, bline);
  w->sw_labels = NULL;
}

/* An if, for, while or do in a function that reaches a barrier: its condition wrapped where
 * it decides a barrier, and what a return, break or continue inside it would skip. */
void ti_emit_branch(walker *w, sbuf *o, CXCursor c, span s, const kids *k, const int *kctx)
{
  int loop = clang_getCursorKind(c) != CXCursor_IfStmt;
  unsigned inside = ti_barrier_in(w, c, 0), bline = inside;
  if (!bline && !loop) {
    exits e = { 0, 0, 0 };
    clang_visitChildren(c, find_exit, &e);
    if (e.ret)
      bline = w->ret_bline ? w->ret_bline : ti_barrier_in(w, w->fn, s.t);
    if (!bline && e.brk) /* every later round of the loop */
      bline = w->brk_bline;
    if (!bline && e.cont && w->in_loop) /* the rest of this round */
      bline = ti_barrier_in(w, w->loop, s.t);
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
  ti_emit_body_wrap(w, o, c, s, k, kctx, wrap, bline);
  w->top_body = -1;
  w->ret_bline = ret;
  w->brk_bline = brk;
  w->loop = outer;
  w->in_loop = in_loop;
}
