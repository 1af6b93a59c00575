/* The PNG loader under hostile input. Built with clang and -DTS_FUZZ=ON it is a libFuzzer
 * target (LLVMFuzzerTestOneInput); otherwise its main() is a deterministic smoke run for
 * CTest: thousands of mutations (flipped bits, cut tails, patched chunk lengths, huge sizes)
 * of a valid file, each of which must load cleanly or fail with a status, never crash. Under
 * the asan preset this is where a bad read would show.
 * usage (smoke): fuzz_png SEED.png [ITERATIONS] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_file.h"
#include "ts_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  ts_image *img = NULL;
  if (ts_image_decode_png(data, size, "fuzz", &img, NULL) == TS_OK)
    ts_image_destroy(img);
  return 0;
}

#ifndef TS_FUZZ_LIBFUZZER
static uint64_t rng = 0x243F6A8885A308D3ull;

static uint32_t next(uint32_t n)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng % n);
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: fuzz_png SEED.png [ITERATIONS]\n");
    return 2;
  }
  uint8_t *seed;
  size_t len;
  ts_error err = { 0 };
  if (ts_file_read_all(argv[1], 64u << 20, &seed, &len, &err) != TS_OK) {
    fprintf(stderr, "fuzz_png: %s\n", err.msg);
    return 2;
  }
  int iterations = argc > 2 ? atoi(argv[2]) : 3000;
  uint8_t *buf = malloc(len);
  int loaded = 0;
  for (int i = 0; i < iterations; i++) {
    memcpy(buf, seed, len);
    size_t n = len;
    switch (next(4)) {
    case 0: /* flip a few bits anywhere, the header included */
      for (int k = 0, m = 1 + (int)next(8); k < m; k++)
        buf[next((uint32_t)n)] ^= (uint8_t)(1u << next(8));
      break;
    case 1: /* cut the tail */
      n = next((uint32_t)n);
      break;
    case 2: /* a huge or zero width or height in IHDR (the CRC then fails, or not) */
      buf[16 + next(8)] = (uint8_t)(next(2) ? 0xff : 0x00);
      break;
    default: /* a chunk length pointing far away */
      if (n > 40) {
        size_t at = 33 + next((uint32_t)(n - 40));
        buf[at] = 0x7f;
      }
      break;
    }
    ts_image *img = NULL;
    if (ts_image_decode_png(buf, n, "mutant", &img, NULL) == TS_OK) {
      loaded++;
      ts_image_destroy(img);
    }
  }
  free(buf);
  free(seed);
  printf("fuzz_png: %d mutants, %d still loaded, none crashed\n", iterations,
         loaded);
  return 0;
}
#endif
