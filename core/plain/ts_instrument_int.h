/* What the pieces of the instrumenter share, internal to core/plain/ (ts_instrument.c says
 * how it is split): the contexts an access is made in, where a cursor is spelt, a node's
 * children, and each piece's entries for the pieces above it, each commented where it is
 * defined. ts_instrument.c defines the helpers; a piece calls only what lies below it, and
 * writes its node's children through ti_emit (the walk's, by the walker's pointer), never
 * the walk itself. */
#ifndef TS_INSTRUMENT_INT_H
#define TS_INSTRUMENT_INT_H

#include "ts_instrument.h"

enum { CTX_READ, CTX_WRITE, CTX_UPDATE, CTX_NONE };
/* Access kinds, as observe.cl's TS_K_*. */
enum { K_READ = 1, K_WRITE = 2, K_UPDATE = 3, K_ATOMIC = 4,
       K_VECTOR = 64 /* vloadN / vstoreN: aligned to the element, not the vector */ };

/* ---- the helpers (ts_instrument.c) ---- */

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

where ti_where_of(walker *w, CXCursor c);
unsigned ti_use_end(const walker *w, unsigned at);

/* A cursor's children, the first 64 (over: it has more; a block's statements are then
 * written one by one, emit_stmts, and anything else with more is refused). */
typedef struct kids {
  CXCursor c[64];
  int n, over;
} kids;

void ti_children(CXCursor c, kids *k);
void ti_set_add(walker *w, cset *set, CXCursor c);
int ti_set_has(const cset *set, CXCursor c);
int ti_space_of(CXType t);
int ti_is_array(CXType t);
int ti_spelt_here(const walker *w, span s, const char *name);
int ti_own_function(walker *w, CXCursor fn);
/* c rewritten in context ctx, by the walk (ts_instrument_walk.c) through w->emit_node. */
void ti_emit(walker *w, sbuf *o, CXCursor c, int ctx);

/* ---- what an access is (ts_instrument_context.c) ---- */

int ti_contexts(walker *w, CXCursor c, const kids *k, int ctx, int *kctx);
/* The operator of a unary or binary expression c (its children k), into op. */
void ti_op_of(walker *w, CXCursor c, const kids *k, int binary, char *op, size_t n);
int ti_is_deref(CXCursor c);
int ti_kind_of(int ctx);
int ti_vector_shape(const char *name, int *store, int *half);
int ti_is_atomic(const char *name);
int ti_observed_call(CXCursor c);

/* ---- the check that no access went unseen (ts_instrument_check.c) ---- */

void ti_check_seen(walker *w, CXCursor c, int ctx);

/* ---- a node written around its children, macros' uses (ts_instrument_macro.c) ---- */

void ti_emit_body_wrap(walker *w, sbuf *o, CXCursor c, span s, const kids *k,
                       const int *ctx, int wrap, unsigned bline);
void ti_emit_body(walker *w, sbuf *o, CXCursor c, span s, const kids *k, const int *ctx);
int ti_emit_vector_in_body(walker *w, sbuf *o, CXCursor c, span s);

/* ---- barriers and the branches before them (ts_instrument_branch.c) ---- */

unsigned ti_barrier_in(walker *w, CXCursor c, unsigned after);
void ti_emit_switch(walker *w, sbuf *o, CXCursor c, span s, const kids *k, const int *kctx);
void ti_emit_branch(walker *w, sbuf *o, CXCursor c, span s, const kids *k, const int *kctx);

/* ---- accesses and calls (ts_instrument_access.c) ---- */

void ti_emit_access(walker *w, sbuf *o, CXCursor c, span s, int sp, int ctx, const kids *k,
                    const int *kctx);

/* ---- private vectors followed lane by lane (ts_instrument_vector.c) ---- */

void ti_track_vectors(walker *w, CXCursor fn);
int ti_tracked_vector(const walker *w, CXCursor decl);
int ti_emit_private_vector(walker *w, sbuf *o, CXCursor c, span s, const kids *k, int ctx);
int ti_emit_call(walker *w, sbuf *o, CXCursor c, span s, const kids *k);
int ti_emit_private_index(walker *w, sbuf *o, CXCursor c, span s, const kids *k, int ctx);
void ti_track_arrays(walker *w, CXCursor fn);
unsigned ti_access_line(walker *w, span s);
int ti_tracked_array(const walker *w, CXCursor decl);

#endif
