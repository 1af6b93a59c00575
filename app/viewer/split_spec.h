/* The split view's right half as text (`--split SPEC`, the script's `split SPEC`): what it
 * changes of the left half's settings, `pattern=wavefront26`, `walk=...`, `variant=...`,
 * `slots=N`, `cost=N` (several, comma-separated), or `device` (the same settings, shown as
 * the device ran them); for a plain kernel `order=ORDER` alone (device, linear, reverse,
 * random:SEED or a file of work-groups, as --order takes it): the same kernel observed in
 * that order. Needs only the core, no SDL: the script parser (fuzzed on its own)
 * checks a script's `split` with it. viewer_split.c applies it. */
#ifndef TS_APP_SPLIT_SPEC_H
#define TS_APP_SPLIT_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "ts_walk.h"

typedef struct vw_split_spec {
  int device;         /* the device's run (a record, or --exec device) of the left's settings */
  int variant;        /* index in the registry, or -1: the left's */
  int pattern, walk;  /* a ts_pattern, a ts_walk, or -1: the left's (a pattern brings its walk) */
  int slots, cost;    /* 0: the left's */
  int order;          /* a plain kernel's order=: 0 not given, else 1 + its TS_ORDER_* */
  uint32_t order_seed;   /* random:SEED's */
  char order_file[96];   /* a file of work-groups' */
  char text[96];      /* as given, for the panel and the state line */
} vw_split_spec;

/* Parses SPEC into *out; returns 1, or 0 with one line in err saying what is wrong (without
 * the option's name: the caller names it). */
int vw_split_parse(const char *s, vw_split_spec *out, char *err, size_t errn);

#endif
