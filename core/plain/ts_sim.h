/* Oclgrind's simulator files (`.sim`), read as `oclgrind-kernel` reads them: the kernel file
 * and name, the NDRange and work-group size (always three numbers each), then one argument
 * description per kernel parameter in order:
 *
 *   <size=64 int fill=0 dump>      a buffer of 64 bytes, every int 0, printed after the run
 *   <size=16 float range=0:1:3>    0 1 2 3
 *   <size=8 uint> 7 9              listed values, after the header or on later lines
 *   <size=12 char noinit ro>       uninitialised, read-only (wo: write-only; hex: values in hex)
 *   <null>                         a NULL buffer
 *   <size=64>                      a __local parameter: its size alone
 *   <size=16> 7 42 0 -1            a scalar, vector or struct by value: its bytes
 *
 * `#` starts a comment anywhere; a first line `# ARGS: --build-options OPTS` gives build
 * options, as Oclgrind's test runner reads it. Without a type word, the element type is the
 * parameter's own (int for int4*, float for float4), as Oclgrind takes it. Where Oclgrind
 * reads past its buffer or divides by zero, this reader refuses: a value argument's size must
 * be the parameter's, a work-group size must not be 0. The kernel file is found beside the
 * .sim first, then from the current folder. Every error names PATH:LINE and the argument. */
#ifndef TS_SIM_H
#define TS_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ts_plain.h"

enum { TS_SIM_BUFFER = 1, TS_SIM_LOCAL, TS_SIM_VALUE, TS_SIM_NULL };

/* The element types a description may name, in Oclgrind's order. */
typedef enum ts_sim_type {
  TS_SIM_CHAR, TS_SIM_UCHAR, TS_SIM_SHORT, TS_SIM_USHORT, TS_SIM_INT, TS_SIM_UINT,
  TS_SIM_LONG, TS_SIM_ULONG, TS_SIM_FLOAT, TS_SIM_DOUBLE, TS_SIM_NTYPES
} ts_sim_type;

/* Buffers over this many bytes are refused. */
#define TS_SIM_MAX_BYTES ((size_t)1 << 30)

typedef struct ts_sim_arg {
  char name[64];       /* the parameter's */
  int line;            /* of its header */
  int kind;            /* TS_SIM_* */
  ts_sim_type type;
  size_t size;         /* bytes */
  int param_size;      /* bytes of the parameter itself (a value's: what is passed) */
  uint8_t *data;       /* size bytes of initial contents (value and buffer), NULL for
                        * noinit, local and null */
  int noinit, ro, wo, dump, hex;
} ts_sim_arg;

typedef struct ts_sim {
  char path[1024];      /* the .sim */
  char program[1024];   /* the kernel file, as found */
  char kernel[64];
  char options[2048];   /* from `# ARGS: --build-options ...`, or "" */
  size_t global[3], local[3];
  int nargs;
  ts_sim_arg args[TS_PLAIN_MAX_PARAMS];
  /* the reader's place, between ts_sim_head and ts_sim_args */
  char *text;
  size_t len, at;
  int line;
} ts_sim;

/* Reads the file's head: program, kernel, sizes, the ARGS line. */
ts_status ts_sim_head(const char *path, ts_sim **out, ts_error *err);
/* Reads the argument descriptions against the kernel's parameters (ts_plain_parse's). */
ts_status ts_sim_args(ts_sim *s, const ts_plain_kernel *k, ts_error *err);
void ts_sim_free(ts_sim *s);
/* The launch as d's one pass (d from ts_plain_load_kernels with s->options): entry, the
 * three sizes, and each argument's role; the contents are copied into d->data. */
ts_status ts_sim_desc(const ts_sim *s, ts_plain_desc *d, ts_error *err);

/* Bytes of one element of a type, and its name. */
int ts_sim_type_size(ts_sim_type t);
const char *ts_sim_type_name(ts_sim_type t);
/* Prints argument a's dump of `bytes` (a->size of them) as Oclgrind does: a blank line,
 * `Argument 'NAME': N bytes`, one `  NAME[i] = V` line per element, a blank line. */
void ts_sim_dump(const ts_sim_arg *a, const void *bytes, FILE *f);

/* A simulator file's launch, whole (ts_plain_load.c): its head, its kernel file parsed
 * (isolated with timeout_s > 0), its arguments read against the kernel's, the description's
 * one pass; and the input the window shows, the shown buffer's first contents as a grey grid
 * (1x1 when it has none). */
ts_status ts_sim_load(const char *path, double timeout_s, ts_sim **sim, ts_plain_desc **d,
                      ts_image **in, ts_error *err);

#endif
