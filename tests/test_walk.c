/* Walks: the SPEC's dispatch tables, and every walk a permutation of its thread space. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ts_walk.h"

/* Compares a walk's dispatch indices, row by row, with an expected table. */
static void expect_table(ts_walk w, int tw, int th, const int *want)
{
  uint32_t order[64];
  int got[64];
  ts_error err = { 0 };
  CHECK(ts_walk_order(w, tw, th, order, &err) == TS_OK, "%s", err.msg);
  for (int r = 0; r < tw * th; r++)
    got[order[r]] = r;
  for (int i = 0; i < tw * th; i++)
    CHECK(got[i] == want[i], "walk %s %dx%d: thread (%d,%d) has dispatch index %d, want %d",
          ts_walk_name(w), tw, th, i % tw, i / tw, got[i], want[i]);
}

static void spec_tables(void)
{
  static const int horizontal[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 };
  static const int vertical[] = { 0, 3, 6, 9, 12, 1, 4, 7, 10, 13, 2, 5, 8, 11, 14 };
  static const int wavefront[] = { 0, 1, 3, 6, 9, 2, 4, 7, 10, 12, 5, 8, 11, 13, 14 };
  static const int wavefront26[] = { 0, 1, 2, 4, 6, 3, 5, 7, 9, 11, 8, 10, 12, 13, 14 };
  static const int wavefront26x[] = { 0, 2, 4, 7, 10, 1, 3, 6, 9, 12, 5, 8, 11, 13, 14 };
  static const int wavefront26zig[] = { 0, 1, 4, 5, 8, 2, 3, 6, 7, 9, 10, 11, 12, 13, 14 };
  static const int wavefront26zi[] = { 0, 9, 3, 12, 6, 1, 10, 4, 13, 7, 2, 11, 5, 14, 8 };
  static const int board6x4[] = { 0,  1,  5,  6,  11, 13, 2,  3,  7,  9,  15, 17,
                                  4,  8,  14, 16, 20, 21, 10, 12, 18, 19, 22, 23 };
  expect_table(TS_WALK_HORIZONTAL, 5, 3, horizontal);
  expect_table(TS_WALK_VERTICAL, 5, 3, vertical);
  expect_table(TS_WALK_WAVEFRONT, 5, 3, wavefront);
  expect_table(TS_WALK_WAVEFRONT26, 5, 3, wavefront26);
  expect_table(TS_WALK_WAVEFRONT26X, 5, 3, wavefront26x);
  expect_table(TS_WALK_WAVEFRONT26ZIG, 5, 3, wavefront26zig);
  expect_table(TS_WALK_WAVEFRONT26ZI, 5, 3, wavefront26zi);
  expect_table(TS_WALK_WAVEFRONT26Z, 6, 4, board6x4);
}

static void permutations(void)
{
  int sizes[][2] = { { 1, 1 }, { 1, 9 }, { 9, 1 }, { 2, 2 }, { 16, 8 }, { 17, 9 }, { 33, 17 } };
  int nfixed = (int)(sizeof sizes / sizeof sizes[0]);
  for (int trial = 0; trial < nfixed + 40; trial++) {
    int tw = trial < nfixed ? sizes[trial][0] : 1 + (int)check_rand(70);
    int th = trial < nfixed ? sizes[trial][1] : 1 + (int)check_rand(50);
    size_t n = (size_t)tw * th;
    uint32_t *order = malloc(n * sizeof *order);
    uint8_t *seen = calloc(n, 1);
    for (int w = 0; w < TS_WALK_COUNT; w++) {
      ts_error err = { 0 };
      memset(seen, 0, n);
      CHECK(ts_walk_order((ts_walk)w, tw, th, order, &err) == TS_OK, "%s", err.msg);
      int dup = 0;
      for (size_t i = 0; i < n; i++) {
        if (order[i] >= n || seen[order[i]])
          dup = 1;
        else
          seen[order[i]] = 1;
      }
      CHECK(!dup, "walk %s on %dx%d is not a permutation", ts_walk_name((ts_walk)w), tw, th);
    }
    free(order);
    free(seen);
  }
}

/* The board order never issues a thread before its left or upper neighbour. */
static void board_respects_neighbours(void)
{
  for (int trial = 0; trial < 20; trial++) {
    int tw = 1 + (int)check_rand(40), th = 1 + (int)check_rand(30);
    size_t n = (size_t)tw * th;
    uint32_t *order = malloc(n * sizeof *order), *rank = malloc(n * sizeof *rank);
    ts_walk_order(TS_WALK_WAVEFRONT26Z, tw, th, order, NULL);
    for (size_t r = 0; r < n; r++)
      rank[order[r]] = (uint32_t)r;
    static const ts_vec need[] = { { -1, 0 }, { 0, -1 } };
    for (int y = 0; y < th; y++)
      for (int x = 0; x < tw; x++)
        for (int i = 0; i < 2; i++) {
          int px = x + need[i].dx, py = y + need[i].dy;
          if (px < 0 || py < 0 || px >= tw || py >= th)
            continue;
          CHECK(rank[py * tw + px] < rank[y * tw + x], "board %dx%d: (%d,%d) before (%d,%d)", tw,
                th, x, y, px, py);
        }
    free(order);
    free(rank);
  }
}

int main(void)
{
  spec_tables();
  permutations();
  board_respects_neighbours();
  return check_exit("test_walk");
}
