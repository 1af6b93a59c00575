/* The data of an exported page (cmd_export.c) as JSON written straight to a file: strings safe
 * inside an HTML <script> element, whole numbers, typed arrays as base64 of little-endian
 * integers in the narrowest type that holds them (or one constant when all are equal), and
 * byte planes as base64 PNG through the project's PNG writer. The page's data.js reads them
 * back. No allocation outlives a call; an error is one ts_error. */
#ifndef TS_APP_PAGE_DATA_H
#define TS_APP_PAGE_DATA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ts_status.h"

/* A JSON string: quotes, backslashes and control characters escaped, and '<', '>' and '&' as
 * \u escapes, so that no text closes the <script> element it sits in. */
void pd_string(FILE *f, const char *s);
/* "key": (the key as pd_string writes it, then a colon). */
void pd_key(FILE *f, const char *key);
/* base64 of n bytes. */
void pd_base64(FILE *f, const uint8_t *data, size_t n);
/* An array of n whole numbers: {"n": N, "c": V} when all equal V, else {"n": N, "t": TYPE,
 * "b": BASE64} with TYPE u8, u16, u32, i32 or f64 (exact up to 2^53), little-endian. */
ts_status pd_array(FILE *f, const int64_t *v, size_t n, ts_error *err);
/* Planes of a w x h image of `bpp` interleaved bytes a pixel, plane k holding byte k of each
 * pixel: a JSON array of `planes` (<= bpp) base64 8-bit grey PNGs, each w x h. */
ts_status pd_planes(FILE *f, int w, int h, const uint8_t *px, int bpp, int planes, ts_error *err);

#endif
