/* The profile of a frame for --bench-frames: viewer_phase adds the time since its last call
 * to one of the phases (PH_*), waiting for GL first; the viewer and the drawing mark where
 * each phase ends. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "viewer.h"

double viewer_phase_clock(const viewer *v)
{
  if (v->profile == 2) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
  }
  return (double)SDL_GetPerformanceCounter() * 1e3 / (double)SDL_GetPerformanceFrequency();
}

void viewer_phase(viewer *v, int ph)
{
  if (!v->profile)
    return;
  glFinish();
  double t = viewer_phase_clock(v);
  if (ph >= 0 && ph < PH_COUNT && v->phase_t > 0)
    v->phase_ms[ph] += t - v->phase_t;
  v->phase_t = t;
}

