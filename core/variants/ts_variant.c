/* The registry of variants, in the order the command line and the viewer list them. */
#include <string.h>

#include "variant_internal.h"

static const ts_variant *const registry[] = {
  &ts_variant_box2d,        &ts_variant_linear1d2,      &ts_variant_linearslide,
  &ts_variant_linearslide2, &ts_variant_transpose2pass, &ts_variant_boxstrip, &ts_variant_boxband,
  &ts_variant_boxword,
  &ts_variant_boxquad,
  &ts_variant_gauss_global,
  &ts_variant_gauss_local,  &ts_variant_gauss_local_sep, &ts_variant_gauss_slide, &ts_variant_gaussword,
  &ts_variant_gaussquad,     &ts_variant_gauss_stream,
  &ts_variant_integral,      &ts_variant_integral_scan, &ts_variant_integral_colrow,
  &ts_variant_integral_band, &ts_variant_integral_lookback,
  &ts_variant_integral_lookback_wide,
  &ts_variant_integral_lookback_band,
};

enum { NBUILTIN = (int)(sizeof registry / sizeof registry[0]) };

/* User kernels, after the built-ins: the library's one mutable table, filled by the
 * command line at start-up (ts_variant_add) before any other thread runs. */
static const ts_variant *user[TS_USER_MAX];
static int nuser;

int ts_variant_count(void)
{
  return NBUILTIN + nuser;
}

const ts_variant *ts_variant_at(int i)
{
  if (i < 0 || i >= ts_variant_count())
    return NULL;
  return i < NBUILTIN ? registry[i] : user[i - NBUILTIN];
}

const ts_variant *ts_variant_find(const char *name)
{
  for (int i = 0; i < ts_variant_count(); i++)
    if (strcmp(ts_variant_at(i)->name, name) == 0)
      return ts_variant_at(i);
  return NULL;
}

ts_status ts_variant_add(const ts_variant *v, ts_error *err)
{
  const ts_variant *same = ts_variant_find(v->name);
  if (same)
    return ts_fail(err, TS_ERR_ARG, "variant '%s' exists already%s%s", v->name,
                   same->file ? " in " : " (a built-in)", same->file ? same->file : "");
  if (nuser == TS_USER_MAX)
    return ts_fail(err, TS_ERR_ARG, "more than %d user kernels", TS_USER_MAX);
  user[nuser++] = v;
  return TS_OK;
}

const char *ts_filter_name(ts_filter f)
{
  switch (f) {
  case TS_FILTER_BOX3: return "box 3x3";
  case TS_FILTER_GAUSS: return "gaussian";
  case TS_FILTER_INTEGRAL: return "integral image";
  }
  return "?";
}
