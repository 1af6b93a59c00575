/* The command-line option parser (cli_parse in app/cli/cli.c) and the schedule options' checks
 * (cli_sched_resolve) under hostile arguments. The input is the argument list, NUL-separated.
 * Built with clang and -DTS_FUZZ=ON it is a libFuzzer target; otherwise its main() is a
 * deterministic smoke run for CTest over tests/corpus/cli (see fuzz_smoke.h). The options are
 * those of `shot` and `diff` together: every kind of option, short names, flags and
 * positional arguments. Every list must parse or fail with a usage error, and what parses and
 * resolves must be in range.
 * usage (smoke): fuzz_cli CORPUS_DIR [ITERATIONS] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz_smoke.h"

enum { MAX_ARGS = 64 };

/* A value given to an option must be an argument, or the part after '=' of one. */
static void check_inside(const char *v, char **argv, int argc, const char *what)
{
  if (!v)
    return;
  for (int i = 1; i < argc; i++)
    if (v >= argv[i] && v <= argv[i] + strlen(argv[i]))
      return;
  fuzz_fail("%s does not point into the arguments", what);
}

static void check_resolved(const cli_sched *cs, const ts_run_params *p)
{
  if (!p->variant || p->sched.slots < 1 || p->sched.slots > TS_SLOTS_MAX ||
      p->sched.pattern < 0 || p->sched.pattern >= TS_PAT_COUNT || p->sched.walk < 0 ||
      p->sched.walk >= TS_WALK_COUNT)
    fuzz_fail("resolved a schedule out of range (slots %d)", p->sched.slots);
  if (cs->cost != 0 && (p->cost < 1 || p->cost > TS_COST_MAX))
    fuzz_fail("resolved cost %d", p->cost);
  if (p->ksize < 3 || p->ksize > 15 || p->ksize % 2 == 0)
    fuzz_fail("resolved kernel size %d", p->ksize);
  if (cs->have_sigma && !(p->sigma >= 0.01 && p->sigma <= 100))
    fuzz_fail("resolved sigma %g", p->sigma);
  if (cs->have_tick && cs->tick < 0)
    fuzz_fail("resolved tick %lld", (long long)cs->tick);
}

static long accepted; /* parsed and resolved */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  /* argv[0], then the input cut at each NUL: the last argument ends where the input does. */
  char *buf = malloc(size + 1), *argv[MAX_ARGS + 1];
  if (!buf)
    return 0;
  memcpy(buf, data, size);
  buf[size] = 0;
  int argc = 0;
  argv[argc++] = "tilescope";
  for (char *a = buf; argc < MAX_ARGS && a <= buf + size; a += strlen(a) + 1)
    argv[argc++] = a;
  argv[argc] = NULL;

  cli_sched cs;
  cli_sched_defaults(&cs);
  const char *def_variant = cs.variant, *def_backend = cs.backend;
  const char *in = NULL, *out = NULL, *size_s = NULL, *overlay = NULL, *hover = NULL,
             *script = NULL, *allow = NULL;
  int help_overlay = 0, json = 0, tol = 0, seen_out = 0;
  double zoom = 0;
  const cli_opt opts[] = {
    { "--input", 'i', OPT_STR, &in, "IN.png", "input", NULL },
    { "--output", 'o', OPT_STR, &out, "OUT.png", "output", &seen_out },
    { "--size", 0, OPT_STR, &size_s, "WxH", "size", NULL },
    { "--overlay", 0, OPT_STR, &overlay, "MODE", "overlay", NULL },
    { "--hover", 0, OPT_STR, &hover, "X,Y", "hover", NULL },
    { "--zoom", 0, OPT_DBL, &zoom, "Z", "zoom", NULL },
    { "--help-overlay", 0, OPT_FLAG, &help_overlay, NULL, "help", NULL },
    { "--script", 0, OPT_STR, &script, "FILE", "script", NULL },
    { "--tolerance", 0, OPT_INT, &tol, "N", "tolerance", NULL },
    { "--max-diff-pixels", 0, OPT_STR, &allow, "N|P%", "allowance", NULL },
    { "--json", 0, OPT_FLAG, &json, NULL, "json", NULL },
    CLI_SCHED_OPTS(&cs),
  };
  const char *pos[2] = { NULL, NULL };
  int npos = -1;
  int r = cli_parse("fuzz", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), pos, 2, &npos,
                    "usage: fuzz");
  if (r != 0 && r != -1 && r != EXIT_USAGE)
    fuzz_fail("cli_parse returned %d", r);
  if (npos < 0 || npos > 2)
    fuzz_fail("%d positional arguments for 2 places", npos);
  for (int i = 0; i < npos; i++)
    check_inside(pos[i], argv, argc, "a positional argument");
  const char *strs[] = { in, out, size_s, overlay, hover, script, allow, cs.pattern, cs.walk,
                         cs.kernels, cs.variant == def_variant ? NULL : cs.variant,
                         cs.backend == def_backend ? NULL : cs.backend };
  for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
    check_inside(strs[i], argv, argc, "an option's value");
  if ((help_overlay | json) & ~1)
    fuzz_fail("a flag set to something other than 1");
  if (out && !seen_out)
    fuzz_fail("-o given but not marked as seen");
  if (r == 0) {
    ts_run_params p;
    if (cli_sched_resolve("fuzz", &cs, &p)) {
      check_resolved(&cs, &p);
      accepted++;
    }
  }
  free(buf);
  return 0;
}

#ifndef TS_FUZZ_LIBFUZZER
int main(int argc, char **argv)
{
  static const char *const tokens[] = {
    "-i", "-o", "-h", "--help", "--", "-", "--input", "--output=", "--size", "--zoom",
    "--zoom=nan", "--json", "--json=1", "--help-overlay", "--tolerance", "--tolerance=",
    "--max-diff-pixels", "--variant", "--variant=", "--pattern", "--walk", "--slots",
    "--slots=", "--cost", "--backend", "--device", "--kernels", "--kernel-size", "--sigma",
    "--tick", "--tick=", "--bogus", "-x", "-io", "integral", "gauss_local", "box2d", "none",
    "wavefront26", "zig", "cl", "cpu", "0", "1", "-1", "3", "4", "15", "17", "65536", "65537",
    "1000", "1001", "0.01", "0.0099", "100", "100.5", "nan", "inf", "-inf", "1e309", "0x10",
    " 5", "5 ", "+5", "2147483647", "2147483648", "-2147483649", "9223372036854775807",
    "9223372036854775808", "-9223372036854775809", "a.png", "=", "==", "",
  };
  fuzz_dict d = { tokens, (int)(sizeof tokens / sizeof tokens[0]), "\0", 1, &accepted };
  return fuzz_smoke_main(argc, argv, "fuzz_cli", &d);
}
#endif
