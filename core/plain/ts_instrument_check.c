/* After a function is written: every access of observed memory in it was wrapped, or the
 * rewrite fails here, naming it. Whatever the rewrite could not reach (an access in text
 * that a macro's use shapes in a way it does not know) is refused, never left unseen. The
 * function is read again with the contexts the rewrite used (ts_instrument_context.c), and
 * each access is looked up among those the rewrite saw (the walker's seen and twins). */
#include "ts_instrument_int.h"

static enum CXChildVisitResult check_stmt(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  walker *w = d;
  ti_check_seen(w, c, CTX_READ);
  return w->failed ? CXChildVisit_Break : CXChildVisit_Continue;
}

void ti_check_seen(walker *w, CXCursor c, int ctx)
{
  if (w->failed || ti_set_has(&w->twins, c))
    return;
  kids k;
  ti_children(c, &k);
  if (k.over) {
    clang_visitChildren(c, check_stmt, w);
    return;
  }
  int kctx[64];
  int sp = ti_contexts(w, c, &k, ctx, kctx);
  if (!sp && clang_getCursorKind(c) == CXCursor_CallExpr)
    sp = ti_observed_call(c);
  if (sp && !ti_set_has(&w->seen, c)) {
    span s = ti_span_of(w, c);
    ti_fail(w, s.line, "an access of %s memory that tilescope cannot rewrite where it is written "
            "(in or around a macro's use), so it would go unseen; write it out",
            sp == 1 ? "__global" : "__local");
    return;
  }
  for (int i = 0; i < k.n && !w->failed; i++)
    ti_check_seen(w, k.c[i], kctx[i]);
}
