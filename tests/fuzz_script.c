/* The viewer-script parser (app/script/script_parse.c) under hostile text. Built with clang and
 * -DTS_FUZZ=ON it is a libFuzzer target; otherwise its main() is a deterministic smoke run
 * for CTest over tests/corpus/script (see fuzz_smoke.h). Every input must parse into actions
 * whose every field is in range (what the viewer can take without a check of its own), or
 * fail with one line that names the script and the line.
 * usage (smoke): fuzz_script CORPUS_DIR [ITERATIONS] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_smoke.h"
#include "script_parse.h"
#include "ts_sched.h"
#include "ts_variant.h"

static void check_word(const script_action *a, const char *s)
{
  if (!s || !*s || strpbrk(s, " \t\r\n\v\f#"))
    fuzz_fail("line %d: action %d has an empty or unsplit word", a->line, (int)a->op);
}

static void check_point(const script_action *a)
{
  if (!(fabs(a->x) <= SCRIPT_COORD_MAX && fabs(a->y) <= SCRIPT_COORD_MAX))
    fuzz_fail("line %d: coordinate (%g, %g) out of range", a->line, a->x, a->y);
}

static void check_action(const script_action *a, int prev_line)
{
  if (a->line <= prev_line)
    fuzz_fail("line numbers do not increase: %d after %d", a->line, prev_line);
  switch (a->op) {
  case SCRIPT_KEY:
    if (a->key_char ? !strchr("abcdefghijklmnopqrstuvwxyz0123456789[]+-=", a->key_char)
                    : (a->key_name < 0 || a->key_name >= SCRIPT_NAMED_KEYS))
      fuzz_fail("line %d: key %d/%d", a->line, a->key_char, a->key_name);
    break;
  case SCRIPT_MOVE:
  case SCRIPT_CLICK:
    check_point(a);
    break;
  case SCRIPT_TICK:
    if (a->n != SCRIPT_TICK_END && (a->n < 0 || a->n > INT64_MAX / 4))
      fuzz_fail("line %d: tick %lld", a->line, (long long)a->n);
    break;
  case SCRIPT_WAIT:
    if (a->n < 0 || a->n > SCRIPT_WAIT_MAX)
      fuzz_fail("line %d: wait %lld", a->line, (long long)a->n);
    break;
  case SCRIPT_VARIANT:
    if (a->variant < 0 || a->variant >= ts_variant_count())
      fuzz_fail("line %d: variant %d", a->line, a->variant);
    break;
  case SCRIPT_PATTERN:
    if (a->pattern < 0 || a->pattern >= TS_PAT_COUNT)
      fuzz_fail("line %d: pattern %d", a->line, (int)a->pattern);
    break;
  case SCRIPT_WALK:
    if (a->walk < 0 || a->walk >= TS_WALK_COUNT)
      fuzz_fail("line %d: walk %d", a->line, (int)a->walk);
    break;
  case SCRIPT_SLOTS:
  case SCRIPT_COST:
    if (a->n < 1 || a->n > (a->op == SCRIPT_SLOTS ? TS_SLOTS_MAX : TS_COST_MAX))
      fuzz_fail("line %d: slots or cost %lld", a->line, (long long)a->n);
    break;
  case SCRIPT_ZOOM:
    if (!(a->zoom >= SCRIPT_ZOOM_MIN && a->zoom <= SCRIPT_ZOOM_MAX))
      fuzz_fail("line %d: zoom %g", a->line, a->zoom);
    if (a->have_center)
      check_point(a);
    break;
  case SCRIPT_OVERLAY:
  case SCRIPT_SHOT:
  case SCRIPT_OPEN:
    check_word(a, a->text);
    break;
  case SCRIPT_EXPECT_STATUS:
    if (!a->text || !*a->text || strpbrk(a->text, "\n#") || strchr(" \t\r\v\f", a->text[0]))
      fuzz_fail("line %d: expect-status text '%s'", a->line, a->text ? a->text : "(null)");
    break;
  case SCRIPT_DEVTIME:
    if (a->percent ? !(a->zoom >= 0 && a->zoom <= 100)
                   : a->n != SCRIPT_TICK_END && (a->n < 0 || a->n > INT64_MAX / 4))
      fuzz_fail("line %d: devtime %lld / %g%%", a->line, (long long)a->n, a->zoom);
    break;
  case SCRIPT_EXPECT:
    check_word(a, a->text);
    check_word(a, a->value);
    break;
  case SCRIPT_EXPECT_PIXEL:
    if (!(a->x >= 0 && a->x <= SCRIPT_PIXEL_MAX && a->y >= 0 && a->y <= SCRIPT_PIXEL_MAX) ||
        a->x != floor(a->x) || a->y != floor(a->y) || a->nvalues < 1 ||
        a->nvalues > SCRIPT_MAX_VALUES)
      fuzz_fail("line %d: expect-pixel %g %g with %d values", a->line, a->x, a->y, a->nvalues);
    break;
  case SCRIPT_BACKEND:
  case SCRIPT_GRID:
  case SCRIPT_HELP:
    if (a->on != 0 && a->on != 1)
      fuzz_fail("line %d: on/off %d", a->line, a->on);
    break;
  case SCRIPT_COPY:
    check_word(a, a->text);
    check_word(a, a->value);
    break;
  case SCRIPT_CAPTION:
    if (!a->text || strlen(a->text) > SCRIPT_CAPTION_MAX)
      fuzz_fail("line %d: caption of %zu bytes", a->line, a->text ? strlen(a->text) : 0);
    for (const char *t = a->text; t && *t; t++)
      if ((unsigned char)*t < 0x20 || *t == 0x7f)
        fuzz_fail("line %d: a caption with control character %d", a->line, *t);
    break;
  case SCRIPT_SOURCE_LINE:
    if (a->n < 1 || a->n > 1 << 24)
      fuzz_fail("line %d: source line %lld", a->line, (long long)a->n);
    break;
  case SCRIPT_SPLIT:
    if (a->on != 0 && a->on != 1)
      fuzz_fail("line %d: split on/off %d", a->line, a->on);
    break;
  case SCRIPT_FIT:
  case SCRIPT_REPORT:
  case SCRIPT_QUIT:
    break;
  default:
    fuzz_fail("line %d: unknown op %d", a->line, (int)a->op);
  }
}

static long accepted;

/* Parses data as one script and checks the result; returns 1 when it parsed. */
static int parse_and_check(const uint8_t *data, size_t size)
{
  script s;
  char err[1400] = "";
  if (!script_parse((const char *)data, size, "fuzz.txt", &s, err, sizeof err)) {
    if (strncmp(err, "fuzz.txt:", 9) != 0 || strchr(err, '\n') || s.n != 0 || s.act)
      fuzz_fail("a failed parse must leave the script empty and say one line naming the "
                "file: '%s'", err);
    return 0;
  }
  for (int i = 0, prev = 0; i < s.n; prev = s.act[i].line, i++)
    check_action(&s.act[i], prev);
  /* The strings point into the script's own copy, never into the input. */
  for (int i = 0; i < s.n; i++)
    if (s.act[i].text && (const uint8_t *)s.act[i].text >= data &&
        (const uint8_t *)s.act[i].text < data + size)
      fuzz_fail("line %d: a string points into the caller's buffer", s.act[i].line);
  script_free(&s);
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  accepted += parse_and_check(data, size);
  /* Each line on its own too: one bad line stops a script, and a mutation that makes a
   * value out of range would go unseen behind an error on another line. */
  const uint8_t *end = data + size;
  for (const uint8_t *line = data; line < end;) {
    const uint8_t *nl = memchr(line, '\n', (size_t)(end - line));
    size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
    parse_and_check(line, len);
    line += len + 1;
  }
  return 0;
}

#ifndef TS_FUZZ_LIBFUZZER
int main(int argc, char **argv)
{
  static const char *const tokens[] = {
    "key", "move", "click", "tick", "wait", "variant", "pattern", "walk", "slots", "cost",
    "backend", "overlay", "grid", "help", "zoom", "fit", "shot", "report", "expect",
    "expect-pixel", "expect-status", "open", "devtime", "50%", "101%", "quit", "shift",
    "input", "end", "on", "off", "cl", "cpu", "integral",
    "box2d", "wavefront", "none", "state", "space", "f1", "[", "-", "0", "1", "-1", "7",
    "65536", "65537", "1000", "1001", "0.02", "0.019", "256", "256.1", "1e6", "-1e6", "1e6.1",
    "1000001", "nan", "-nan", "inf", "-inf", "1e30", "-1e309", "0x1p3", "4294967295",
    "4294967296", "9223372036854775807", "9223372036854775808", "2305843009213693951",
    "2305843009213693952", "\n", "#", "tick", "pass", "hazards", "selected", "x.png",
  };
  fuzz_dict d = { tokens, (int)(sizeof tokens / sizeof tokens[0]), " \t\n", 3, &accepted };
  return fuzz_smoke_main(argc, argv, "fuzz_script", &d);
}
#endif
