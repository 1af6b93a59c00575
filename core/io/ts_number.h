/* Numbers read from text: options, kernel headers, launch descriptions, scripts and records.
 * Each has one form, so that what is accepted is what was meant: decimal digits, a '-' only
 * where the value may be negative, no '+', no spaces, no hexadecimal, no nan or inf. A real
 * number is JSON's: -?D+(.D+)?([eE][+-]?D+)?, and finite. */
#ifndef TS_NUMBER_H
#define TS_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/* The length of the whole number that s starts with (-?D+), 0 when it starts with none or the
 * number does not fit an int64_t. */
size_t ts_scan_int(const char *s, int64_t *out);
/* The length of the real number that s starts with, 0 when none (or it is not finite). */
size_t ts_scan_real(const char *s, double *out);

/* All of s one whole number in lo..hi ('-' allowed only when lo < 0): 1 and *out set, else
 * 0 and *out untouched. */
int ts_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out);
/* All of s one real number in lo..hi. */
int ts_parse_real(const char *s, double lo, double hi, double *out);
/* strlen(seps) + 1 whole numbers in lo..hi, the k-th followed by seps[k] and the last by the
 * end: ts_parse_ints("16x8", "x", ...) for a size, ",:," for "1,2:3,4". */
int ts_parse_ints(const char *s, const char *seps, int64_t lo, int64_t hi, int64_t *out);

#endif
