/* Parsing the split view's SPEC (split_spec.h): `device`, or comma-separated KEY=VALUE pairs
 * naming what the right half changes, each value checked (a known name, a number in range),
 * each key at most once; a plain kernel's `order=ORDER`, as --order takes it. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "split_spec.h"
#include "ts_number.h"
#include "ts_plain.h"
#include "ts_sched.h"
#include "ts_variant.h"

static int fail(char *err, size_t n, const char *what, const char *arg, int len)
{
  snprintf(err, n, "%s '%.*s'", what, len > 64 ? 64 : len, arg);
  return 0;
}

int vw_split_parse(const char *s, vw_split_spec *out, char *err, size_t errn)
{
  vw_split_spec sp = { .variant = -1, .pattern = -1, .walk = -1 };
  size_t total = strlen(s);
  if (total == 0 || total >= sizeof sp.text)
    return fail(err, errn, "give device, or KEY=VALUE[,KEY=VALUE] with keys variant, pattern, "
                "walk, slots, cost; not", s, (int)total);
  snprintf(sp.text, sizeof sp.text, "%s", s);
  if (strcmp(s, "device") == 0) {
    sp.device = 1;
    *out = sp;
    return 1;
  }
  int changes = 0;
  for (const char *p = s; *p;) {
    const char *end = strchr(p, ',');
    int len = end ? (int)(end - p) : (int)strlen(p);
    const char *eq = memchr(p, '=', (size_t)len);
    if (!eq)
      return fail(err, errn, "expected KEY=VALUE (or device), got", p, len);
    char key[16], val[64];
    int kl = (int)(eq - p), vl = len - kl - 1;
    if (kl >= (int)sizeof key || vl >= (int)sizeof val || vl <= 0)
      return fail(err, errn, "expected KEY=VALUE, got", p, len);
    memcpy(key, p, (size_t)kl);
    key[kl] = 0;
    memcpy(val, eq + 1, (size_t)vl);
    val[vl] = 0;
    int64_t n = 0;
    int again = 0;
    if (strcmp(key, "variant") == 0) {
      const ts_variant *v = ts_variant_find(val);
      if (!v)
        return fail(err, errn, "unknown variant", val, vl);
      again = sp.variant >= 0;
      sp.variant = 0;
      while (ts_variant_at(sp.variant) != v)
        sp.variant++;
    } else if (strcmp(key, "pattern") == 0) {
      ts_pattern pt;
      if (!ts_pattern_parse(val, &pt))
        return fail(err, errn, "unknown pattern", val, vl);
      again = sp.pattern >= 0;
      sp.pattern = (int)pt;
    } else if (strcmp(key, "walk") == 0) {
      ts_walk w;
      if (!ts_walk_parse(val, &w))
        return fail(err, errn, "unknown walk", val, vl);
      again = sp.walk >= 0;
      sp.walk = (int)w;
    } else if (strcmp(key, "slots") == 0 || strcmp(key, "cost") == 0) {
      int slots = key[0] == 's';
      if (!ts_parse_int(val, 1, slots ? TS_SLOTS_MAX : TS_COST_MAX, &n))
        return fail(err, errn, slots ? "slots out of range (1..65536):" : "cost out of range (1..1000):",
                    val, vl);
      int *f = slots ? &sp.slots : &sp.cost;
      again = *f != 0;
      *f = (int)n;
    } else if (strcmp(key, "order") == 0) {
      char *e = NULL;
      unsigned long seed = 0;
      again = sp.order != 0;
      if (strcmp(val, "device") == 0) {
        sp.order = 1 + TS_ORDER_DEVICE;
      } else if (strcmp(val, "linear") == 0) {
        sp.order = 1 + TS_ORDER_LINEAR;
      } else if (strcmp(val, "reverse") == 0) {
        sp.order = 1 + TS_ORDER_REVERSE;
      } else if (strncmp(val, "random:", 7) == 0 && (seed = strtoul(val + 7, &e, 10), e != val + 7) &&
                 !*e && val[7] != '-' && seed < (1ul << 29)) {
        sp.order = 1 + TS_ORDER_RANDOM;
        sp.order_seed = (uint32_t)seed;
      } else if (strncmp(val, "random:", 7) != 0 && vl < (int)sizeof sp.order_file &&
                 access(val, R_OK) == 0) {
        sp.order = 1 + TS_ORDER_LIST;
        snprintf(sp.order_file, sizeof sp.order_file, "%s", val);
      } else {
        return fail(err, errn, "order is device, linear, reverse, random:SEED (below 2^29) or "
                    "a file of work-groups, not", val, vl);
      }
    } else if (strcmp(key, "device") == 0) {
      return fail(err, errn, "device stands alone, not", s, (int)total);
    } else {
      return fail(err, errn, "unknown key (variant, pattern, walk, slots, cost; a plain kernel's order)", key, kl);
    }
    if (again)
      return fail(err, errn, "a key given twice:", key, kl);
    changes++;
    p = end ? end + 1 : p + len;
    if (end && !*p)
      return fail(err, errn, "a trailing comma in", s, (int)total);
  }
  if (!changes)
    return fail(err, errn, "nothing to change in", s, (int)total);
  *out = sp;
  return 1;
}
