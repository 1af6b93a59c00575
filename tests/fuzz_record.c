/* The device-record reader (ts_trace_decode in core/cl/ts_record.c: `shot --record`'s JSON)
 * under hostile text. Built with clang and -DTS_FUZZ=ON it is a libFuzzer target; otherwise
 * its main() is a deterministic smoke run for CTest over tests/corpus/record (see
 * fuzz_smoke.h). Every input must load into a record whose every number is within what a run
 * allows (what the viewer draws without a check of its own), or fail with one line that
 * names the file, leaving the output alone.
 * usage (smoke): fuzz_record CORPUS_DIR [ITERATIONS]
 * longer, with libFuzzer (clang; a copy of the corpus, which libFuzzer adds to):
 *   CC=clang cmake -S . -B build/fuzz -DTS_FUZZ=ON -DTS_VIEWER=OFF
 *   cmake --build build/fuzz --target fuzz_record
 *   cp -r tests/corpus/record corpus-record
 *   build/fuzz/tests/fuzz_record corpus-record -dict=tests/corpus/record.dict \
 *     -max_total_time=300 -close_fd_mask=3 */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdint.h>
#include <string.h>

#include "fuzz_smoke.h"
#include "ts_image.h"
#include "ts_record.h"
#include "ts_sched.h"

static void check_string(const char *s, size_t size, const char *what)
{
  if (strnlen(s, size) >= size)
    fuzz_fail("%s is not terminated", what);
}

static void check_info(const ts_trace_info *i)
{
  check_string(i->variant, sizeof i->variant, "variant");
  check_string(i->pattern, sizeof i->pattern, "pattern");
  check_string(i->walk, sizeof i->walk, "walk");
  check_string(i->input, sizeof i->input, "input");
  if (!i->variant[0] || i->w < 1 || i->h < 1 || i->w > TS_IMAGE_MAX_DIM ||
      i->h > TS_IMAGE_MAX_DIM || (i->c != 1 && i->c != 3 && i->c != 4))
    fuzz_fail("variant '%s' on a %dx%dx%d image", i->variant, i->w, i->h, i->c);
  /* 0: not in the record (the run's default) */
  if (i->slots < 0 || i->slots > TS_SLOTS_MAX || i->cost < 0 || i->cost > TS_COST_MAX)
    fuzz_fail("slots %d, cost %d", i->slots, i->cost);
  if (i->ksize != 0 && (i->ksize < 3 || i->ksize > 15 || i->ksize % 2 == 0))
    fuzz_fail("ksize %d", i->ksize);
  if (i->sigma != 0 && !(i->sigma >= 0.01 && i->sigma <= 100))
    fuzz_fail("sigma %g", i->sigma);
}

static void check_record(const ts_dev_run *d)
{
  check_string(d->device, sizeof d->device, "device");
  if (d->npasses < 1 || d->npasses > TS_MAX_PASSES)
    fuzz_fail("%d passes", d->npasses);
  if (d->lanes < 0 || d->lanes > TS_DEV_MAX_LANES)
    fuzz_fail("%d lanes", d->lanes);
  for (int p = 0; p < d->npasses; p++) {
    const ts_dev_pass *dp = &d->pass[p];
    for (uint32_t t = 0; t < dp->n; t++) {
      const ts_grec *g = &dp->rec[t];
      if (g->group >= dp->n || g->unit < -1 || g->unit >= TS_DEV_MAX_LANES || g->tx < 0 ||
          g->ty < 0)
        fuzz_fail("pass %d ticket %u: group %u, unit %d, tile %d,%d", p + 1, t, g->group,
                  g->unit, g->tx, g->ty);
      if (g->lane < 0 || g->lane >= TS_DEV_MAX_LANES || (d->lanes && g->lane >= d->lanes))
        fuzz_fail("pass %d ticket %u: lane %d of %d", p + 1, t, g->lane, d->lanes);
      if (g->start > g->waited || g->waited > g->end || g->end > d->t_end)
        fuzz_fail("pass %d ticket %u: times %llu %llu %llu, end %llu", p + 1, t,
                  (unsigned long long)g->start, (unsigned long long)g->waited,
                  (unsigned long long)g->end, (unsigned long long)d->t_end);
    }
  }
  const ts_dev_pass *last = &d->pass[d->npasses - 1];
  uint32_t wrong = 0;
  for (uint32_t t = 0; t < last->n; t++)
    wrong += d->wrong[t] != 0;
  if (wrong != d->nwrong)
    fuzz_fail("%u wrong tiles counted, %u marked", d->nwrong, wrong);
}

static long accepted;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  ts_trace_info info;
  ts_error err = { 0 };
  ts_dev_run *d = (ts_dev_run *)&accepted; /* must stay as it is on a failure */
  if (ts_trace_decode((const char *)data, size, "fuzz.json", &info, &d, &err) != TS_OK) {
    if (strncmp(err.msg, "fuzz.json", 9) != 0 || strchr(err.msg, '\n'))
      fuzz_fail("a failed read must say one line naming the file: '%s'", err.msg);
    if (d != (ts_dev_run *)&accepted)
      fuzz_fail("a failed read set its output");
    return 0;
  }
  check_info(&info);
  check_record(d);
  ts_dev_run_free(d);
  accepted++;
  return 0;
}

#ifndef TS_FUZZ_LIBFUZZER
int main(int argc, char **argv)
{
  static const char *const tokens[] = {
    "{", "}", "[", "]", ",", ":", "\"tilescope\"", "\"version\"", "\"variant\"", "\"integral\"",
    "\"box2d\"", "\"pattern\"", "\"walk\"", "\"slots\"", "\"cost\"", "\"ksize\"", "\"sigma\"",
    "\"image\"", "\"input\"", "\"device\"", "\"clock\"", "\"ns\"", "\"logical\"", "\"passes\"",
    "\"tw\"", "\"th\"", "\"groups\"", "\"wrong\"", "\"kernel_ms\"", "\"traceEvents\"",
    "[0,-1,0,0,0,1,2]", "[1,3,1,0,5,9,20]", "[48,24,1]", "[1,1,2]", "true", "false", "null",
    "\"\\u00ff\"", "\"\\\"", "\"a\\\"b\"", "0", "1", "-1", "-2", "2", "3", "4", "5", "15", "17",
    "1000", "1001", "1023", "1024", "32768", "32769", "65536", "65537", "0.01", "0.009",
    "100", "100.5", "-0", "1e3", "1e999", "+5", "0x10", "nan", "inf", "1.", ".5",
    "2147483647", "2147483648", "4294967295", "9007199254740992", "9007199254740993",
    "67108864", "\"\"",
  };
  fuzz_dict d = { tokens, (int)(sizeof tokens / sizeof tokens[0]), ",:[]{} \n", 9, &accepted };
  return fuzz_smoke_main(argc, argv, "fuzz_record", &d);
}
#endif
