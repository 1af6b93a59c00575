/* A minimal test harness: CHECK prints the failing expression with its location and
 * counts; a test program returns check_exit() (0 when nothing failed). */
#ifndef TS_TEST_CHECK_H
#define TS_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>

static int check_failures;

#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    if (!(cond) && ++check_failures <= 30) {                               \
      fprintf(stderr, "%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond);    \
      fprintf(stderr, __VA_ARGS__);                                        \
      fputc('\n', stderr);                                                 \
    }                                                                      \
  } while (0)

static inline int check_exit(const char *name)
{
  if (check_failures)
    fprintf(stderr, "%s: %d check(s) failed\n", name, check_failures);
  else
    printf("%s: all checks passed\n", name);
  return check_failures ? 1 : 0;
}

/* Deterministic pseudo-random numbers (xorshift64*), so failures reproduce. */
static uint64_t check_rng = 0x9E3779B97F4A7C15ull;

static inline uint32_t check_rand(uint32_t n)
{
  check_rng ^= check_rng >> 12;
  check_rng ^= check_rng << 25;
  check_rng ^= check_rng >> 27;
  return (uint32_t)((check_rng * 0x2545F4914F6CDD1Dull) >> 33) % n;
}

#endif
