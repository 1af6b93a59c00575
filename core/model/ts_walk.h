/* Thread spaces, walks (dispatch orders) and dependency patterns.
 * A thread space is TW x TH threads, thread id = y * TW + x. A walk is a permutation of the
 * ids; a pattern is a set of vectors (dx, dy): thread (x, y) waits for (x + dx, y + dy). */
#ifndef TS_WALK_H
#define TS_WALK_H

#include <stdint.h>

#include "ts_status.h"

#define TS_WALK_LIST(X)                                                              \
  X(TS_WALK_HORIZONTAL, "horizontal", "row by row, left to right")                   \
  X(TS_WALK_VERTICAL, "vertical", "column by column, top to bottom")                 \
  X(TS_WALK_WAVEFRONT, "wavefront", "45-degree anti-diagonals (x + y)")              \
  X(TS_WALK_WAVEFRONT26, "wavefront26", "26-degree waves (x + 2y)")                  \
  X(TS_WALK_WAVEFRONT26X, "wavefront26x", "26-degree waves over row pairs")          \
  X(TS_WALK_WAVEFRONT26ZIG, "wavefront26zig", "2x2 blocks on a 26-degree wave")      \
  X(TS_WALK_WAVEFRONT26Z, "wavefront26z", "Z order in 2x2 blocks, board rounds")     \
  X(TS_WALK_WAVEFRONT26ZI, "wavefront26zi", "16x8 macro-blocks, even then odd columns")

typedef enum ts_walk {
#define TS_X(id, name, text) id,
  TS_WALK_LIST(TS_X)
#undef TS_X
  TS_WALK_COUNT
} ts_walk;

#define TS_PATTERN_LIST(X)                                                                \
  X(TS_PAT_NONE, "none", TS_WALK_HORIZONTAL)                                              \
  X(TS_PAT_WAVEFRONT, "wavefront", TS_WALK_WAVEFRONT)                                     \
  X(TS_PAT_WAVEFRONT26, "wavefront26", TS_WALK_WAVEFRONT26)                               \
  X(TS_PAT_VERTICAL, "vertical", TS_WALK_VERTICAL)                                        \
  X(TS_PAT_HORIZONTAL, "horizontal", TS_WALK_HORIZONTAL)                                  \
  X(TS_PAT_WAVEFRONT26Z, "wavefront26z", TS_WALK_WAVEFRONT26Z)                            \
  X(TS_PAT_WAVEFRONT26ZIG, "wavefront26zig", TS_WALK_WAVEFRONT26ZIG)                      \
  X(TS_PAT_WAVEFRONT26X, "wavefront26x", TS_WALK_WAVEFRONT26X)                            \
  X(TS_PAT_WAVEFRONT26ZI, "wavefront26zi", TS_WALK_WAVEFRONT26ZI)

typedef enum ts_pattern {
#define TS_X(id, name, walk) id,
  TS_PATTERN_LIST(TS_X)
#undef TS_X
  TS_PAT_COUNT
} ts_pattern;

#define TS_PATTERN_MAX_VECTORS 8

typedef struct ts_vec {
  int dx, dy;
} ts_vec;

const char *ts_walk_name(ts_walk w);
const char *ts_walk_describe(ts_walk w);
/* Returns 1 and sets *out when name is a walk. */
int ts_walk_parse(const char *name, ts_walk *out);

const char *ts_pattern_name(ts_pattern p);
int ts_pattern_parse(const char *name, ts_pattern *out);
ts_walk ts_pattern_default_walk(ts_pattern p);
/* The pattern's vectors; returns their count. */
int ts_pattern_vectors(ts_pattern p, const ts_vec **v);

/* Fills order[0 .. tw*th-1] with thread ids in dispatch order. */
ts_status ts_walk_order(ts_walk w, int tw, int th, uint32_t *order, ts_error *err);

#endif
