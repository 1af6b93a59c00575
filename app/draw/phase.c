/* The profile of a frame for --bench-frames (phase.h): each mark waits for GL first, so that
 * the time of a phase is what GL spent on it too, not only what the CPU queued. */
#define _POSIX_C_SOURCE 200809L
#include <SDL2/SDL.h>
#include <epoxy/gl.h>
#include <time.h>

#include "phase.h"

double vw_phase_clock(const vw_phases *p)
{
  if (p->profile == 2) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
  }
  return (double)SDL_GetPerformanceCounter() * 1e3 / (double)SDL_GetPerformanceFrequency();
}

void vw_phase(vw_phases *p, int ph)
{
  if (!p->profile)
    return;
  glFinish();
  double t = vw_phase_clock(p);
  if (ph >= 0 && ph < PH_COUNT && p->t > 0)
    p->ms[ph] += t - p->t;
  p->t = t;
}

double vw_phase_start(const vw_phases *p)
{
  if (!p->profile)
    return 0;
  glFinish();
  return vw_phase_clock(p);
}

void vw_phase_since(vw_phases *p, int ph, double t0)
{
  if (!p->profile)
    return;
  glFinish();
  p->ms[ph] += vw_phase_clock(p) - t0;
}
