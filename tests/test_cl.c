/* The OpenCL back end (label `opencl`): every variant's kernel equals the CPU model and the
 * reference bit for bit on grey, RGB and RGBA images of awkward sizes; at random ticks of
 * random schedules (hazardous ones included) the device's buffers equal the CPU model's byte
 * for byte, and at every tick on wide and tall images for the integral variants; the fast
 * whole-image path is exact; the device reports each kernel's memory; pocl's workers are
 * pinned one a core only where that is safe (ts_cl_pin_cpu_workers).
 * Without an OpenCL platform it is skipped (exit 77), except in CI, where that fails. */
#define _GNU_SOURCE /* sched_setaffinity */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include "ts_file.h"

static int same_buffers(const ts_run *a, const ts_run *b, const char *what)
{
  const ts_kctx *ka = ts_run_kctx(a), *kb = ts_run_kctx(b);
  for (int i = TS_BUF_OUT; i < TS_NBUF; i++) {
    const ts_buf *x = &ka->buf[i], *y = &kb->buf[i];
    if (!x->data)
      continue;
    size_t n = (size_t)x->cols * x->rows * x->esize;
    if (memcmp(x->data, y->data, n) != 0) {
      size_t k = 0;
      while (x->data[k] == y->data[k])
        k++;
      size_t e = k / (size_t)x->esize;
      CHECK(0, "%s: buffer %d differs first at column %zu row %zu (byte %u vs %u)", what, i,
            e % (size_t)x->cols, e / (size_t)x->cols, x->data[k], y->data[k]);
      return 0;
    }
  }
  return 1;
}

static ts_run *make(const ts_image *img, const ts_variant *v, ts_pattern pat, ts_walk walk,
                    int slots, int cost, ts_cl *cl)
{
  ts_run_params p = { .variant = v, .sched = { pat, walk, slots }, .cost = cost, .cl = cl };
  ts_run *run = NULL;
  ts_error err = { 0 };
  CHECK(ts_run_create(img, &p, &run, &err) == TS_OK, "%s: %s", v->name, err.msg);
  return run;
}

static void exact_everywhere(ts_cl *cl)
{
  /* 16, 48 and 4 wide: rows a multiple of 16 bytes (the word paths of boxquad, gaussquad)
   * in every channel count, one word wide included; 1031 and 1040: rows longer than one
   * chunk of integral_colrow's row scan (1024), odd and a multiple of 16; 1030 x 17 and
   * 1100 x 19: several of boxband's 1024-byte bands in a row and whole bands of 8 rows, the
   * row's last band narrower than a column (1030 grey: 6 bytes) or not a multiple of it. */
  static const int fixed[][2] = { { 1, 1 }, { 7, 1 }, { 1, 9 }, { 17, 13 }, { 33, 19 },
                                  { 50, 47 }, { 16, 9 }, { 48, 21 }, { 4, 3 }, { 1031, 7 },
                                  { 1040, 6 }, { 1030, 17 }, { 1100, 19 } };
  enum { NFIXED = (int)(sizeof fixed / sizeof fixed[0]) };
  static const int chans[] = { 1, 3, 4 };
  for (int trial = 0; trial < NFIXED + 3; trial++) {
    int w = trial < NFIXED ? fixed[trial][0] : 1 + (int)check_rand(120);
    int h = trial < NFIXED ? fixed[trial][1] : 1 + (int)check_rand(80);
    for (int ci = 0; ci < 3; ci++) {
      ts_image *img = random_image(w, h, chans[ci]);
      for (int vi = 0; vi < ts_variant_count(); vi++) {
        const ts_variant *v = ts_variant_at(vi);
        ts_walk walk = ts_pattern_default_walk(v->pattern);
        char what[128];
        snprintf(what, sizeof what, "cl %s %dx%dx%d", v->name, w, h, chans[ci]);
        testlib_cl = cl;
        ts_run *run = run_variant(img, v, v->pattern, walk, 168, 0, 0, 0, INT64_MAX);
        testlib_cl = NULL;
        if (!run)
          continue;
        compare_to_ref(run, img, what, 1);
        ts_error err = { 0 };
        CHECK(ts_run_finish_fast(run, &err) == TS_OK, "%s: %s", what, err.msg);
        snprintf(what, sizeof what, "cl fast %s %dx%dx%d", v->name, w, h, chans[ci]);
        compare_to_ref(run, img, what, 1);
        ts_run_destroy(run);
      }
      ts_image_destroy(img);
    }
  }
}

/* Every Gaussian variant on the device at every kernel size, on images wide enough that
 * the strip variants have strips inside the image as well as at its edges; then at other
 * sigmas. */
static void gaussian_sizes_on_device(ts_cl *cl)
{
  static const int chans[] = { 1, 3, 4 };
  for (int k = 3; k <= TS_GAUSS_MAX_K; k += 2)
    for (int ci = 0; ci < 3; ci++) {
      /* 16 * (10 to 13) pixels wide: rows a multiple of 16 bytes, so gaussquad's 5 x 5 takes
       * its word path. */
      ts_image *img = random_image(16 * (10 + (int)check_rand(4)), 20 + (int)check_rand(90), chans[ci]);
      for (int vi = 0; vi < ts_variant_count(); vi++) {
        const ts_variant *v = ts_variant_at(vi);
        if (v->filter != TS_FILTER_GAUSS)
          continue;
        char what[128];
        snprintf(what, sizeof what, "cl %s k=%d %dx%dx%d", v->name, k, img->w, img->h, img->c);
        testlib_cl = cl;
        ts_run *run = run_variant(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, 168, 0, k, 0, 0);
        testlib_cl = NULL;
        if (!run)
          continue;
        ts_error err = { 0 };
        CHECK(ts_run_finish_fast(run, &err) == TS_OK, "%s: %s", what, err.msg);
        compare_to_ref(run, img, what, 1);
        ts_run_destroy(run);
      }
      ts_image_destroy(img);
    }
  /* Other sigmas: weights far from the default's (a centre of 256 and zeros at 0.3, nearly
   * flat at 40), rows of several of gauss_stream's 512-byte chunks. */
  static const struct { int k; double sigma; } other[] = { { 15, 0.3 }, { 5, 40.0 }, { 9, 3.5 } };
  for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
    for (int ci = 0; ci < 3; ci++) {
      ts_image *img = random_image(600 + (int)check_rand(200), 5 + (int)check_rand(9), chans[ci]);
      for (int vi = 0; vi < ts_variant_count(); vi++) {
        const ts_variant *v = ts_variant_at(vi);
        if (v->filter != TS_FILTER_GAUSS)
          continue;
        char what[128];
        snprintf(what, sizeof what, "cl %s k=%d sigma=%g %dx%dx%d", v->name, other[i].k,
                 other[i].sigma, img->w, img->h, img->c);
        testlib_cl = cl;
        ts_run *run = run_variant(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, 168, 0, other[i].k,
                                  other[i].sigma, 0);
        testlib_cl = NULL;
        if (!run)
          continue;
        ts_error err = { 0 };
        CHECK(ts_run_finish_fast(run, &err) == TS_OK, "%s: %s", what, err.msg);
        compare_to_ref(run, img, what, 1);
        ts_run_destroy(run);
      }
      ts_image_destroy(img);
    }
}

static void random_ticks(ts_cl *cl)
{
  for (int trial = 0; trial < 40; trial++) {
    int w = 1 + (int)check_rand(100), h = 1 + (int)check_rand(70);
    int c = (int[]){ 1, 3, 4 }[check_rand(3)];
    /* The first trials: the integral image, the one variant whose threads read each
     * other's output, half of them under no dependency pattern (hazards). */
    const ts_variant *v = trial < 8 ? ts_variant_find("integral")
                                    : ts_variant_at((int)check_rand((uint32_t)ts_variant_count()));
    ts_pattern pat = trial < 4 ? TS_PAT_NONE : (ts_pattern)check_rand(TS_PAT_COUNT);
    ts_walk walk = (ts_walk)check_rand(TS_WALK_COUNT);
    int slots = trial < 4 ? 168 : 1 + (int)check_rand(300), cost = 1 + (int)check_rand(3);
    ts_image *img = random_image(w, h, c);
    ts_run *gpu = make(img, v, pat, walk, slots, cost, cl), *cpu = make(img, v, pat, walk, slots,
                                                                         cost, NULL);
    if (gpu && cpu) {
      int64_t len = ts_run_sched(cpu)->length;
      int64_t ticks[5] = { 0, (int64_t)check_rand((uint32_t)len + 1),
                           (int64_t)check_rand((uint32_t)len + 1), len / 2, len };
      for (int i = 0; i < 5; i++) {
        char what[160];
        snprintf(what, sizeof what, "%s %dx%dx%d %s/%s slots %d cost %d tick %lld", v->name, w,
                 h, c, ts_pattern_name(pat), ts_walk_name(walk), slots, cost, (long long)ticks[i]);
        ts_error err = { 0 };
        CHECK(ts_run_seek(gpu, ticks[i], &err) == TS_OK, "%s: %s", what, err.msg);
        CHECK(ts_run_seek(cpu, ticks[i], &err) == TS_OK, "%s: %s", what, err.msg);
        same_buffers(gpu, cpu, what);
      }
    }
    ts_run_destroy(gpu);
    ts_run_destroy(cpu);
    ts_image_destroy(img);
  }
}

/* The integral variants without a dependency pattern on images of several of integral_band's
 * 256-row bands, 4096-column chunks and 16-column vectors (its streamed stores where a row is
 * whole 64-byte lines): whole, against the reference, and integral_band stepped with two
 * slots against the CPU model at every tick. */
static void integral_shapes_on_device(ts_cl *cl)
{
  static const int sizes[][2] = { { 64, 600 }, { 129, 520 }, { 4100, 70 }, { 4096, 300 },
                                  { 8193, 3 } };
  for (int si = 0; si < (int)(sizeof sizes / sizeof sizes[0]); si++) {
    ts_image *img = random_image(sizes[si][0], sizes[si][1], si % 2 ? 3 : 1);
    for (int vi = 0; vi < ts_variant_count(); vi++) {
      const ts_variant *v = ts_variant_at(vi);
      if (v->filter != TS_FILTER_INTEGRAL || v->pattern != TS_PAT_NONE)
        continue;
      char what[128];
      int step = strcmp(v->name, "integral_band") == 0;
      ts_run *gpu = make(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, 2, 1, cl);
      ts_run *cpu = step ? make(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, 2, 1, NULL) : NULL;
      for (int64_t t = 0; gpu && cpu && t <= ts_run_sched(cpu)->length; t++) {
        snprintf(what, sizeof what, "cl %s %dx%dx%d 2 slots tick %lld", v->name, img->w,
                 img->h, img->c, (long long)t);
        ts_error err = { 0 };
        CHECK(ts_run_seek(gpu, t, &err) == TS_OK, "%s: %s", what, err.msg);
        CHECK(ts_run_seek(cpu, t, &err) == TS_OK, "%s: %s", what, err.msg);
        if (!same_buffers(gpu, cpu, what))
          break;
      }
      snprintf(what, sizeof what, "cl fast %s %dx%dx%d", v->name, img->w, img->h, img->c);
      ts_error err = { 0 };
      CHECK(gpu && ts_run_finish_fast(gpu, &err) == TS_OK, "%s: %s", what, err.msg);
      if (gpu)
        compare_to_ref(gpu, img, what, 1);
      ts_run_destroy(gpu);
      ts_run_destroy(cpu);
    }
    ts_image_destroy(img);
  }
}

static void integral_hazards_on_device(ts_cl *cl)
{
  ts_image *img = random_image(203, 150, 3);
  const ts_variant *v = ts_variant_find("integral");
  ts_run *gpu = make(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, 168, 1, cl);
  ts_run *cpu = make(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, 168, 1, NULL);
  if (gpu && cpu) {
    ts_run_seek(gpu, INT64_MAX, NULL);
    ts_run_seek(cpu, INT64_MAX, NULL);
    same_buffers(gpu, cpu, "integral none");
    CHECK(compare_to_ref(gpu, img, "integral none on the device", 0) > 1000,
          "the hazardous integral image is right on the device");
  }
  ts_run_destroy(gpu);
  ts_run_destroy(cpu);
  ts_image_destroy(img);
}

static void device_memory(ts_cl *cl)
{
  ts_image *img = random_image(40, 30, 3);
  for (int vi = 0; vi < ts_variant_count(); vi++) {
    const ts_variant *v = ts_variant_at(vi);
    ts_run *run = make(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, 168, 1, NULL);
    for (int p = 0; run && p < v->npasses; p++) {
      uint64_t priv = 0, local = 0;
      ts_error err = { 0 };
      CHECK(ts_cl_kernel_mem(cl, v, p, ts_run_kctx(run), &priv, &local, &err) == TS_OK, "%s: %s",
            v->name, err.msg);
      if (v->local_bytes)
        CHECK(local >= (uint64_t)v->local_bytes(ts_run_kctx(run)), "%s: local %llu", v->name,
              (unsigned long long)local);
    }
    ts_run_destroy(run);
  }
  ts_image_destroy(img);
  double gbps = 0;
  CHECK(ts_cl_copy_bandwidth(cl, 1 << 22, 3, &gbps, NULL) == TS_OK && gbps > 0, "copy bandwidth");
}

/* Copies a kernel file, optionally appending text. */
static void copy_kernel(const char *from_dir, const char *to_dir, const char *file,
                        const char *extra)
{
  char a[512], b[512];
  snprintf(a, sizeof a, "%s/%s", from_dir, file);
  snprintf(b, sizeof b, "%s/%s", to_dir, file);
  uint8_t *data = NULL;
  size_t len = 0;
  CHECK(ts_file_read_all(a, 1 << 20, &data, &len, NULL) == TS_OK, "read %s", a);
  FILE *f = fopen(b, "wb");
  CHECK(f != NULL, "write %s", b);
  if (f) {
    fwrite(data, 1, len, f);
    if (extra)
      fputs(extra, f);
    fclose(f);
  }
  free(data);
}

/* A kernel edited into a build error: reload fails with the log, and the last good build
 * keeps running. */
static void reload_keeps_last_good(void)
{
  char dir[] = "/tmp/tilescope-kernels-XXXXXX";
  CHECK(mkdtemp(dir) != NULL, "mkdtemp");
  const char *files[] = { "common.cl", "scoreboard.cl", "access.cl", "helpers.cl", "box.cl",
                          "gauss.cl", "integral.cl", "commit.cl" };
  for (int i = 0; i < (int)(sizeof files / sizeof files[0]); i++)
    copy_kernel(TS_KERNELS_DIR, dir, files[i], NULL);
  ts_cl *cl = NULL;
  ts_error err = { 0 };
  CHECK(ts_cl_create(-1, dir, &cl, &err) == TS_OK, "%s", err.msg);
  ts_image *img = random_image(45, 31, 3);
  const ts_variant *v = ts_variant_find("linearslide");
  testlib_cl = cl;
  ts_run *run = run_variant(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, 168, 0, 0, 0, INT64_MAX);
  ts_run_destroy(run);
  copy_kernel(TS_KERNELS_DIR, dir, "box.cl", "\n__kernel void broken(void) { nonsense }\n");
  /* (the compiler's own "1 error generated." is muted by the build: ts_cl_build) */
  ts_status st = ts_cl_reload(cl, &err);
  CHECK(st == TS_ERR_BUILD, "a broken kernel reloaded");
  CHECK(strstr(err.msg, "box.cl") != NULL, "message: %s", err.msg);
  CHECK(strstr(ts_cl_build_log(cl), "nonsense") != NULL, "log: %s", ts_cl_build_log(cl));
  run = run_variant(img, v, TS_PAT_NONE, TS_WALK_HORIZONTAL, 168, 0, 0, 0, INT64_MAX);
  CHECK(run && compare_to_ref(run, img, "after a failed reload", 1) == 0, "last good build");
  ts_run_destroy(run);
  copy_kernel(TS_KERNELS_DIR, dir, "box.cl", NULL);
  CHECK(ts_cl_reload(cl, &err) == TS_OK, "fixed kernel: %s", err.msg);
  testlib_cl = NULL;
  ts_image_destroy(img);
  ts_cl_destroy(cl);
  for (int i = 0; i < 5; i++) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, files[i]);
    remove(p);
  }
  rmdir(dir);
}

/* POCL_AFFINITY=1 where every online core is this process's and at most that many workers
 * are asked for; never over a user's own setting; withdrawn when either stops holding. */
static void pin_cpu_workers(void)
{
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  cpu_set_t all;
  if (n < 2 || sched_getaffinity(0, sizeof all, &all) != 0 || CPU_COUNT(&all) != n)
    return; /* (a machine or a cpuset where it never pins) */
  unsetenv("POCL_AFFINITY");
  unsetenv("POCL_MAX_PTHREAD_COUNT");
  unsetenv("POCL_CPU_MAX_CU_COUNT");
  ts_cl_pin_cpu_workers();
  const char *a = getenv("POCL_AFFINITY");
  CHECK(a && strcmp(a, "1") == 0, "pinning: not set with every core ours");
  char more[24];
  snprintf(more, sizeof more, "%ld", n + 1);
  setenv("POCL_MAX_PTHREAD_COUNT", more, 1);
  ts_cl_pin_cpu_workers();
  CHECK(!getenv("POCL_AFFINITY"), "pinning: kept with more workers than cores");
  unsetenv("POCL_MAX_PTHREAD_COUNT");
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  if (sched_setaffinity(0, sizeof one, &one) == 0) {
    ts_cl_pin_cpu_workers();
    CHECK(!getenv("POCL_AFFINITY"), "pinning: set with one core of %ld ours", n);
    sched_setaffinity(0, sizeof all, &all);
  }
  setenv("POCL_AFFINITY", "0", 1);
  ts_cl_pin_cpu_workers();
  a = getenv("POCL_AFFINITY");
  CHECK(a && strcmp(a, "0") == 0, "pinning: the user's POCL_AFFINITY=0 not kept");
  unsetenv("POCL_AFFINITY");
}

int main(void)
{
  ts_error err = { 0 };
  ts_cl *cl = NULL;
  if (ts_cl_create(-1, TS_KERNELS_DIR, &cl, &err) != TS_OK) {
    const char *ci = getenv("CI");
    fprintf(stderr, "test_cl: %s\n", err.msg);
    if (ci && strcmp(ci, "true") == 0) {
      fprintf(stderr, "test_cl: CI must have OpenCL (pocl): failing instead of skipping\n");
      return 1;
    }
    printf("test_cl: skipped, no OpenCL device\n");
    return 77;
  }
  printf("test_cl: on %s (%s)\n", ts_cl_device(cl)->name, ts_cl_device(cl)->platform);
  exact_everywhere(cl);
  gaussian_sizes_on_device(cl);
  random_ticks(cl);
  integral_shapes_on_device(cl);
  integral_hazards_on_device(cl);
  device_memory(cl);
  ts_cl_destroy(cl);
  reload_keeps_last_good();
  pin_cpu_workers();
  return check_exit("test_cl");
}
