/* NumPy .npy arrays (format 1.0) of any element type, written through an atomic output
 * file and read back with their type and shape checked: a plain kernel's typed output
 * (--raw) and its expected values (--expect REF.npy). */
#ifndef TS_NPY_H
#define TS_NPY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ts_status.h"

#define TS_NPY_MAX_DIMS 4

typedef struct ts_npy {
  char descr[8];                  /* as NumPy writes it: "|u1", "<i4", "<f4", ... */
  int ndim;
  int64_t shape[TS_NPY_MAX_DIMS];
  uint8_t *data;                  /* C order, little-endian */
  size_t bytes;
} ts_npy;

/* The descr of an element of lane bytes: float, signed or not. */
const char *ts_npy_descr(int lane, int is_float, int is_signed);
ts_status ts_npy_write(const char *path, const ts_npy *a, ts_error *err);
/* The header alone (descr, ndim and shape of a), for a writer that streams its data. */
void ts_npy_write_header(FILE *f, const ts_npy *a);
/* Reads a C-order array; one that is not (or a file that is not .npy 1.0 or 2.0) is an error
 * naming the file. */
ts_status ts_npy_read(const char *path, ts_npy *a, ts_error *err);
void ts_npy_free(ts_npy *a);

#endif
