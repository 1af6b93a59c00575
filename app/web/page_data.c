/* JSON values, typed arrays and PNG planes of an exported page (see page_data.h). */
#include "page_data.h"

#include <stdlib.h>
#include <string.h>

#include "ts_image.h"

void pd_string(FILE *f, const char *s)
{
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20 || *p == 0x7f || *p == '<' || *p == '>' || *p == '&')
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

void pd_key(FILE *f, const char *key)
{
  pd_string(f, key);
  fputc(':', f);
}

void pd_base64(FILE *f, const uint8_t *d, size_t n)
{
  static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char out[4 * 256];
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)d[i] << 16;
    if (i + 1 < n)
      v |= (uint32_t)d[i + 1] << 8;
    if (i + 2 < n)
      v |= d[i + 2];
    out[o++] = A[(v >> 18) & 63];
    out[o++] = A[(v >> 12) & 63];
    out[o++] = i + 1 < n ? A[(v >> 6) & 63] : '=';
    out[o++] = i + 2 < n ? A[v & 63] : '=';
    if (o == sizeof out) {
      fwrite(out, 1, o, f);
      o = 0;
    }
  }
  fwrite(out, 1, o, f);
}

ts_status pd_array(FILE *f, const int64_t *v, size_t n, ts_error *err)
{
  int64_t lo = 0, hi = 0;
  for (size_t i = 0; i < n; i++) {
    lo = i == 0 || v[i] < lo ? v[i] : lo;
    hi = i == 0 || v[i] > hi ? v[i] : hi;
  }
  if (n == 0 || lo == hi) {
    fprintf(f, "{\"n\":%zu,\"c\":%lld}", n, (long long)lo);
    return TS_OK;
  }
  const char *type;
  size_t size;
  if (lo >= 0 && hi <= UINT8_MAX)
    type = "u8", size = 1;
  else if (lo >= 0 && hi <= UINT16_MAX)
    type = "u16", size = 2;
  else if (lo >= 0 && hi <= UINT32_MAX)
    type = "u32", size = 4;
  else if (lo >= INT32_MIN && hi <= INT32_MAX)
    type = "i32", size = 4;
  else
    type = "f64", size = 8;
  if (n > SIZE_MAX / size)
    return ts_fail(err, TS_ERR_TOO_LARGE, "an array of %zu numbers is too large", n);
  uint8_t *b = malloc(n * size);
  if (!b)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < n; i++) {
    uint8_t *o = b + i * size;
    if (size == 8) {
      double d = (double)v[i];
      uint64_t u;
      memcpy(&u, &d, sizeof u);
      for (size_t k = 0; k < 8; k++)
        o[k] = (uint8_t)(u >> (8 * k));
    } else {
      uint32_t u = (uint32_t)v[i]; /* two's complement for i32 */
      for (size_t k = 0; k < size; k++)
        o[k] = (uint8_t)(u >> (8 * k));
    }
  }
  fprintf(f, "{\"n\":%zu,\"t\":\"%s\",\"b\":\"", n, type);
  pd_base64(f, b, n * size);
  fputs("\"}", f);
  free(b);
  return TS_OK;
}

ts_status pd_planes(FILE *f, int w, int h, const uint8_t *px, int bpp, int planes, ts_error *err)
{
  size_t n = (size_t)w * (size_t)h;
  uint8_t *plane = malloc(n ? n : 1);
  if (!plane)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  fputc('[', f);
  for (int k = 0; k < planes; k++) {
    for (size_t i = 0; i < n; i++)
      plane[i] = px[i * (size_t)bpp + (size_t)k];
    uint8_t *png = NULL;
    size_t len = 0;
    ts_status st = ts_png_encode(w, h, 1, plane, &png, &len, err);
    if (st != TS_OK) {
      free(plane);
      return st;
    }
    fputs(k ? ",\"" : "\"", f);
    pd_base64(f, png, len);
    fputc('"', f);
    free(png);
  }
  fputc(']', f);
  free(plane);
  return TS_OK;
}
