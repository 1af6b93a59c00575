/* `--bench-frames N`: the viewer's own speed, measured the way a user meets it. Three
 * figures: the first frame (from the viewer's creation until a frame shows the finished
 * run), N frames drawn while the hover moves across the output (the overlay, footprint and
 * inspector redrawn each time: the cost of interaction), and N steps of one tick each (the
 * worker runs the tick, the viewer picks the new output up, uploads the changed rows and
 * draws). Each frame ends with glFinish, so the time is the GPU's (llvmpipe's) too. Then the
 * same frames again, each phase ended by glFinish, for the medians of where the time goes.
 * TILESCOPE_PHASE_CPU=1 takes those in the main thread's CPU time instead: with
 * LP_NUM_THREADS=0 llvmpipe draws on that thread, and the figures hold still on a machine
 * that other jobs share. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "framebench.h"
#include "gl_resources.h"
#include "viewer.h"
#include "viewer_control.h"
#include "viewer_input.h"

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Sorts t and prints its median, 95th percentile and maximum. */
static void print_times(const char *what, double *t, int n)
{
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  int p95 = (int)((double)(n - 1) * 0.95 + 0.5);
  printf("%s: %d, median %.2f ms, 95th percentile %.2f ms, max %.2f ms\n", what, n,
         t[(n - 1) / 2], t[p95], t[n - 1]);
}

/* The median of each phase over n frames (ph: n x PH_COUNT, sorted here), on one line. */
static void print_phases(double *ph, int n)
{
  static const char *const names[PH_COUNT] = { "pick-up", "uploads", "mipmaps", "panes",
                                               "ui-cpu", "ui-draw", "show", "wait",
                                               "(rows)" };
  double *col = malloc((size_t)(n > 0 ? n : 1) * sizeof *col);
  if (!col)
    return;
  printf("  medians by phase (each waits for GL):");
  for (int p = 0; p < PH_COUNT; p++) {
    for (int i = 0; i < n; i++)
      col[i] = ph[(size_t)i * PH_COUNT + (size_t)p];
    qsort(col, (size_t)n, sizeof col[0], cmp_double);
    printf(" %s %.2f", names[p], col[(n - 1) / 2]);
  }
  printf(" ms\n");
  free(col);
}

int bench_frames(viewer *v, int n, double created_ms, int64_t from)
{
  double *t = malloc((size_t)n * sizeof *t);
  double *ph = calloc((size_t)n * PH_COUNT, sizeof *ph);
  if (!t || !ph) {
    free(t);
    free(ph);
    fprintf(stderr, "tilescope: --bench-frames: out of memory\n");
    return 0;
  }
  if (!viewer_sync(v, 600000)) {
    fprintf(stderr, "tilescope: --bench-frames: the run did not finish in 10 minutes\n");
    free(t);
    free(ph);
    return 0;
  }
  double synced = now_ms();
  vw_phases *prof = &v->gl->ph;
  const char *cpu = getenv("TILESCOPE_PHASE_CPU");
  int profile = cpu && strcmp(cpu, "1") == 0 ? 2 : 1;
  memset(prof->ms, 0, sizeof prof->ms);
  prof->profile = profile;
  viewer_frame(v, 1);
  gl_finish();
  prof->profile = 0;
  struct timespec cpu_t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_t);
  printf("first frame: %.1f ms after the viewer was created (the whole run, then drawn); "
         "drawing it %.1f ms; the process's CPU time by then %.1f ms\n", now_ms() - created_ms,
         now_ms() - synced, (double)cpu_t.tv_sec * 1e3 + (double)cpu_t.tv_nsec / 1e6);
  print_phases(prof->ms, 1);
  vw_rect in, out, panel;
  viewer_layout(v, &in, &out, &panel, NULL);
  /* The frames are timed twice: as they run, then with each phase waiting for GL (which
   * costs a little: llvmpipe no longer overlaps them), for where the time goes. */
  for (int pass = 0; pass < 2; pass++) {
    prof->profile = pass ? profile : 0;
    for (int i = 0; i < n; i++) {
      memset(prof->ms, 0, sizeof prof->ms);
      double t0 = now_ms();
      viewer_mouse_move(v, out.x + out.w * (float)(i % 97 + 1) / 98.0f,
                        out.y + out.h * (float)(i % 53 + 1) / 54.0f);
      viewer_frame(v, 1);
      gl_finish();
      t[i] = now_ms() - t0;
      memcpy(ph + (size_t)i * PH_COUNT, prof->ms, sizeof prof->ms);
    }
    if (pass == 0)
      print_times("frames with the hover moving", t, n);
    else
      print_phases(ph, n);
  }
  for (int pass = 0; pass < 2; pass++) {
    prof->profile = pass ? profile : 0;
    /* Back to tick `from`, drawn (the seek back made every row new: that is not a step's), and
     * one step untimed: llvmpipe compiles the shaders of a partial mipmap update on their
     * first use. */
    for (int k = 0; k < 2; k++) {
      viewer_set_tick(v, from + k);
      viewer_sync(v, 600000);
      viewer_frame(v, 1);
      gl_finish();
    }
    for (int i = 0; i < n; i++) {
      memset(prof->ms, 0, sizeof prof->ms);
      double t0 = now_ms();
      viewer_set_tick(v, from + i + 2);
      viewer_sync(v, 600000);
      prof->ms[PH_WAIT] = now_ms() - t0;
      viewer_frame(v, 1);
      gl_finish();
      t[i] = now_ms() - t0;
      memcpy(ph + (size_t)i * PH_COUNT, prof->ms, sizeof prof->ms);
    }
    if (pass == 0)
      print_times("steps of one tick, drawn", t, n);
    else
      print_phases(ph, n);
  }
  prof->profile = 0;
  free(t);
  free(ph);
  return 1;
}
