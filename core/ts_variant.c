/* The registry of variants, in the order the command line and the viewer list them. */
#include <string.h>

#include "variant_internal.h"

static const ts_variant *const registry[] = {
  &ts_variant_box2d,        &ts_variant_linear1d2,      &ts_variant_linearslide,
  &ts_variant_linearslide2, &ts_variant_transpose2pass, &ts_variant_boxstrip,
  &ts_variant_gauss_global,
  &ts_variant_gauss_local,  &ts_variant_gauss_local_sep, &ts_variant_gauss_slide,
  &ts_variant_integral,      &ts_variant_integral_scan,
};

int ts_variant_count(void)
{
  return (int)(sizeof registry / sizeof registry[0]);
}

const ts_variant *ts_variant_at(int i)
{
  return i >= 0 && i < ts_variant_count() ? registry[i] : NULL;
}

const ts_variant *ts_variant_find(const char *name)
{
  for (int i = 0; i < ts_variant_count(); i++)
    if (strcmp(registry[i]->name, name) == 0)
      return registry[i];
  return NULL;
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
