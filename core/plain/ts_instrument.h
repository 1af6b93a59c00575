/* What the instrumenter (ts_instrument.c and the pieces it names) offers the file's parsing
 * (ts_plain_parse.c), internal to core/plain/: a growing string, the walker over one
 * translation unit, source spans in the file's own offsets, and the visitor that writes the
 * file rewritten. */
#ifndef TS_INSTRUMENT_H
#define TS_INSTRUMENT_H

#include <clang-c/Index.h>

#include "ts_plain.h"

typedef struct sbuf {
  char *s;
  size_t n, cap;
  int oom;
} sbuf;

void ti_sb_add(sbuf *b, const char *p, size_t n);
void ti_sb_str(sbuf *b, const char *s);
void ti_sb_fmt(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A macro's use in the file: its extent [a, b). */
typedef struct macro_use {
  unsigned a, b;
} macro_use;

typedef struct cset {
  CXCursor *c;
  size_t n, cap;
} cset;

typedef struct walker {
  const char *src;
  size_t len;
  CXTranslationUnit tu;
  CXFile file;
  const char *path;
  int rewrite;
  ts_error *err;
  int failed;
  /* The kernel being written: its __local pointer arguments' shadows. */
  int in_kernel;
  int dialect;             /* a dialect kernel's observe build: __global accesses only, through
                            * ts_obs_direct and the function's own ts_o_ */
  unsigned line_base;      /* lines before the file's own text */
  ts_plain_kernel *kernel; /* the kernel being written, for its __local names */
  /* Extents of the accesses wrapped so far, to refuse two with one extent. */
  unsigned (*wrapped)[2];
  size_t nwrapped, capwrapped;
  /* The macros' uses in the file, nested ones too (ti_note_uses). */
  macro_use *uses;
  size_t nuses, capuses;
  /* For the check that no access was left unseen (plain kernels): the accesses wrapped,
   * and the second uses of a macro's argument, written as its first. */
  cset seen, twins;
  ts_plain_src *out;
  /* Barrier divergence: the file's functions that reach a barrier (ti_barrier_fns), whether
   * the function being written does, and the line of the barrier that a return, or a break
   * or continue, would skip from where the writing is (0: none). */
  char bfns[128][64];
  int nbfns, bchanged;
  CXCursor fn, loop;       /* the function, and the innermost loop (in_loop) */
  int fn_barrier, in_loop;
  unsigned ret_bline, brk_bline; /* brk_bline: the innermost loop's, 0 inside a switch */
  int top_body;            /* a for's or while's body to tell its way (-1: none) */
  unsigned top_line;       /* its condition's line */
  int top_braced;          /* its body is in braces (else its rounds are counted in its
                            * condition: TS_HEAD_N) */
  unsigned top_id;         /* its number among the file's loops that hold a barrier (at most
                            * TS_PLAIN_LOOPS: the loops past the counted ones) */
  const char *sw_labels;   /* a switch that decides a barrier: what follows its value (each
                            * label's ts_sw_case, then ts_sw_end), or NULL */
  /* The rewrite of one node, the walk's (ts_instrument_walk.c, set by ti_top_level): the
   * pieces below the walk write their nodes' children through it (ti_emit), so that none of
   * them calls the file above it. */
  void (*emit_node)(struct walker *w, sbuf *o, CXCursor c, int ctx);
  /* The program-scope __global variables declared so far (OpenCL C 2.0): each kernel's
   * prologue names them (ts_gvar), so that an access of one is not outside every buffer. */
  char gvars[8][64];
  int ngvars;
  /* The function's private arrays whose elements are followed (ti_track_arrays): declared
   * without a value, of at most 64 elements, used only by index; each gets a mask of the
   * elements set so far, ts_pw_NAME, so that a read of one nothing set is a finding. */
  CXCursor parr[16];
  int nparr;
  /* Its private vectors followed lane by lane (ts_instrument_vector.c): ts_pv_NAME. */
  CXCursor pvec[16];
  CXCursor for_init;       /* the declaration that opens the `for` being written, if any */
  int npvec;
  /* the line of the last access numbered, and how many it has (ti_access_line) */
  unsigned aline, acount;
  long small_nest;         /* the times the innermost body of the nest of small loops being
                            * written runs (0: none is) */
} walker;

/* The most times a nest of small loops' innermost body may run for it to be unrolled on a
 * GPU too. */
#define TS_GPU_UNROLL 9

typedef struct span {
  unsigned s, t, line;
  int ok; /* in the main file, in order */
} span;

/* A cursor's extent as offsets in the file (its expansion, for a macro's use). */
span ti_span_of(walker *w, CXCursor c);
/* The first failure: PATH:LINE: what, into the walker's error. */
void ti_fail(walker *w, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A type as libclang spells it (malloc'd). */
char *ti_type_str(CXType t);
/* Whether a function is a kernel: __kernel (or kernel) comes before its name. */
int ti_is_kernel(walker *w, CXCursor c);
/* Notes the functions of the translation unit that reach a barrier, themselves or through
 * the functions they call, for the rewrite's branches (before ti_top_level). */
void ti_barrier_fns(walker *w, CXCursor root);
/* Notes the extents of the macros' uses in the file (before ti_top_level). */
void ti_note_uses(walker *w, CXCursor root);
/* The top-level visitor: client data { walker *, sbuf *, unsigned *pos }: writes the text
 * from *pos to each function's start as it is and the function rewritten. */
enum CXChildVisitResult ti_top_level(CXCursor c, CXCursor parent, CXClientData d);

#endif
