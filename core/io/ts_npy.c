/* NumPy .npy arrays of any element type (ts_npy.h): the header is a Python dict literal of
 * descr, fortran_order and shape, padded so that the data starts on a 64-byte boundary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_file.h"
#include "ts_npy.h"

const char *ts_npy_descr(int lane, int is_float, int is_signed)
{
  if (is_float)
    return lane == 8 ? "<f8" : "<f4";
  switch (lane) {
  case 1: return is_signed ? "|i1" : "|u1";
  case 2: return is_signed ? "<i2" : "<u2";
  case 8: return is_signed ? "<i8" : "<u8";
  default: return is_signed ? "<i4" : "<u4";
  }
}

void ts_npy_write_header(FILE *f, const ts_npy *a)
{
  char shape[128] = "";
  for (int i = 0; i < a->ndim; i++)
    snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%lld, ", (long long)a->shape[i]);
  if (a->ndim > 0)
    shape[strlen(shape) - 1] = 0; /* (3,) keeps its comma, (3, 4) loses the last one */
  if (a->ndim > 1)
    shape[strlen(shape) - 1] = 0;
  char dict[256];
  snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", a->descr,
           shape);
  /* magic (6) + version (2) + header length (2) + dict + padding + '\n', a multiple of 64 */
  size_t dl = strlen(dict), total = (10 + dl + 1 + 63) / 64 * 64, hl = total - 10;
  fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  fputc((int)(hl & 0xff), f);
  fputc((int)(hl >> 8), f);
  fputs(dict, f);
  for (size_t i = 10 + dl; i + 1 < total; i++)
    fputc(' ', f);
  fputc('\n', f);
}

ts_status ts_npy_write(const char *path, const ts_npy *a, ts_error *err)
{
  ts_outfile of;
  ts_status st = ts_outfile_open(&of, path, err);
  if (st != TS_OK)
    return st;
  ts_npy_write_header(of.f, a);
  fwrite(a->data, 1, a->bytes, of.f);
  return ts_outfile_commit(&of, err);
}

/* The value after 'key': in the header dict, or NULL. */
static const char *after(const char *h, const char *key)
{
  const char *p = strstr(h, key);
  if (!p)
    return NULL;
  p += strlen(key);
  while (*p == ' ' || *p == ':')
    p++;
  return p;
}

ts_status ts_npy_read(const char *path, ts_npy *a, ts_error *err)
{
  memset(a, 0, sizeof *a);
  uint8_t *f = NULL;
  size_t n = 0;
  ts_status st = ts_file_read_all(path, (size_t)1 << 31, &f, &n, err);
  if (st != TS_OK)
    return st;
  size_t hl = 0, start = 0;
  if (n >= 10 && memcmp(f, "\x93NUMPY", 6) == 0 && f[6] == 1) {
    hl = (size_t)f[8] | (size_t)f[9] << 8;
    start = 10;
  } else if (n >= 12 && memcmp(f, "\x93NUMPY", 6) == 0 && f[6] == 2) {
    hl = (size_t)f[8] | (size_t)f[9] << 8 | (size_t)f[10] << 16 | (size_t)f[11] << 24;
    start = 12;
  } else {
    free(f);
    return ts_fail(err, TS_ERR_FORMAT, "'%s' is not a NumPy .npy file", path);
  }
  if (hl > 65536 || start + hl > n) {
    free(f);
    return ts_fail(err, TS_ERR_FORMAT, "'%s': the .npy header is cut short", path);
  }
  char h[65537];
  memcpy(h, f + start, hl);
  h[hl] = 0;
  const char *d = after(h, "'descr'"), *fo = after(h, "'fortran_order'"), *sh = after(h, "'shape'");
  int ok = d && fo && sh && *d == '\'' && *sh == '(' && strncmp(fo, "False", 5) == 0;
  if (ok) {
    size_t k = strcspn(d + 1, "'");
    ok = k > 0 && k < sizeof a->descr;
    if (ok)
      snprintf(a->descr, sizeof a->descr, "%.*s", (int)k, d + 1);
  }
  int64_t count = 1;
  for (const char *p = sh + (ok ? 1 : 0); ok;) {
    while (*p == ' ' || *p == ',')
      p++;
    if (*p == ')')
      break;
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p || v < 0 || v > ((int64_t)1 << 31) || a->ndim == TS_NPY_MAX_DIMS) {
      ok = 0;
      break;
    }
    a->shape[a->ndim++] = v;
    if (__builtin_mul_overflow(count, (int64_t)v, &count))
      count = INT64_MAX; /* saturated: too many all the same */
    p = end;
  }
  int size = ok ? atoi(a->descr + 2) : 0;
  if (ok && size >= 1 && size <= 8 && count > ((int64_t)1 << 31)) {
    free(f);
    return ts_fail(err, TS_ERR_FORMAT, "'%s': %lld elements, more than tilescope reads (2^31)",
                   path, (long long)count);
  }
  if (!ok || size < 1 || size > 8) {
    free(f);
    /* the header as one line: its padding and newline, and any control byte, as spaces */
    size_t m = hl > 120 ? 120 : hl;
    for (size_t i = 0; i < m; i++)
      if ((unsigned char)h[i] < 32 || h[i] == 127)
        h[i] = ' ';
    while (m > 0 && h[m - 1] == ' ')
      m--;
    return ts_fail(err, TS_ERR_FORMAT, "'%s': a .npy header tilescope cannot read (C order, "
                   "at most %d dimensions): %.*s", path, TS_NPY_MAX_DIMS, (int)m, h);
  }
  a->bytes = (size_t)count * (size_t)size;
  if (n - start - hl != a->bytes) {
    free(f);
    return ts_fail(err, TS_ERR_FORMAT, "'%s': %zu bytes of data where its shape needs %zu", path,
                   n - start - hl, a->bytes);
  }
  a->data = malloc(a->bytes ? a->bytes : 1);
  if (!a->data) {
    free(f);
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  }
  memcpy(a->data, f + start + hl, a->bytes);
  free(f);
  return TS_OK;
}

void ts_npy_free(ts_npy *a)
{
  free(a->data);
  a->data = NULL;
}
