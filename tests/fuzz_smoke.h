/* The deterministic smoke run of the text fuzz targets (fuzz_script, fuzz_cli) for CTest:
 * every file of a corpus folder as it is, then mutants of them (flipped bits, cut ends,
 * tokens from a dictionary inserted or swapped in, slices repeated, files spliced), each
 * fed to the target's LLVMFuzzerTestOneInput, which checks its own invariants and aborts on a
 * broken one. With -DTS_FUZZ=ON the same targets are libFuzzer's instead. */
#ifndef TS_TESTS_FUZZ_SMOKE_H
#define TS_TESTS_FUZZ_SMOKE_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fuzz_dict {
  const char *const *tokens; /* what the target's grammar is made of, and hostile values */
  int n;
  const char *separators;    /* bytes that separate tokens (may include '\0': sep_len) */
  size_t sep_len;
  const long *accepted;      /* the target's count of inputs it accepted, for the summary */
} fuzz_dict;

/* usage: NAME CORPUS_DIR [ITERATIONS]. Output of the target goes to /dev/null; the
 * summary (and a broken invariant's message, through fuzz_fail) to the real stderr. */
int fuzz_smoke_main(int argc, char **argv, const char *name, const fuzz_dict *dict);

/* Prints why and aborts: a broken invariant, where both CTest and libFuzzer see it. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
