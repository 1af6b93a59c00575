/* Strict numbers of text (see ts_number.h): the form is checked here, digit by digit, and only
 * a checked real number is handed to strtod, which alone would take " +0x1p3", "nan" or
 * "infinity". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ts_number.h"

static size_t digits(const char *s)
{
  size_t n = 0;
  while (s[n] >= '0' && s[n] <= '9')
    n++;
  return n;
}

size_t ts_scan_int(const char *s, int64_t *out)
{
  int neg = s[0] == '-';
  size_t n = digits(s + neg);
  if (n == 0)
    return 0;
  /* accumulated negative, so that INT64_MIN fits */
  int64_t v = 0;
  for (size_t i = neg; i < neg + n; i++) {
    int d = s[i] - '0';
    if (v < (INT64_MIN + d) / 10)
      return 0;
    v = v * 10 - d;
  }
  if (!neg && v == INT64_MIN)
    return 0;
  *out = neg ? v : -v;
  return neg + n;
}

size_t ts_scan_real(const char *s, double *out)
{
  size_t i = s[0] == '-', n = digits(s + i);
  if (n == 0)
    return 0;
  i += n;
  if (s[i] == '.') {
    if ((n = digits(s + i + 1)) == 0)
      return 0;
    i += 1 + n;
  }
  if (s[i] == 'e' || s[i] == 'E') {
    size_t e = i + 1 + (s[i + 1] == '+' || s[i + 1] == '-');
    if ((n = digits(s + e)) == 0)
      return 0;
    i = e + n;
  }
  /* strtod on a copy: on s itself it could read on past the form ("0x10" from "0") */
  char buf[64];
  if (i >= sizeof buf)
    return 0;
  memcpy(buf, s, i);
  buf[i] = 0;
  double v = strtod(buf, NULL);
  if (!isfinite(v))
    return 0;
  *out = v;
  return i;
}

int ts_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
  int64_t v;
  size_t n = ts_scan_int(s, &v);
  if (n == 0 || s[n] || v < lo || v > hi || (s[0] == '-' && lo >= 0))
    return 0;
  *out = v;
  return 1;
}

int ts_parse_real(const char *s, double lo, double hi, double *out)
{
  double v;
  size_t n = ts_scan_real(s, &v);
  if (n == 0 || s[n] || !(v >= lo && v <= hi) || (s[0] == '-' && lo >= 0))
    return 0;
  *out = v;
  return 1;
}

int ts_parse_ints(const char *s, const char *seps, int64_t lo, int64_t hi, int64_t *out)
{
  int64_t v[16];
  size_t k = 0, nseps = strlen(seps);
  if (nseps >= sizeof v / sizeof v[0])
    return 0;
  for (;; k++) {
    size_t n = ts_scan_int(s, &v[k]);
    if (n == 0 || v[k] < lo || v[k] > hi || (s[0] == '-' && lo >= 0))
      return 0;
    s += n;
    if (k == nseps)
      break;
    if (*s++ != seps[k])
      return 0;
  }
  if (*s)
    return 0;
  memcpy(out, v, (nseps + 1) * sizeof *out);
  return 1;
}
