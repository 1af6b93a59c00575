/* The colours the drawing's files share: the panel's text and background, the focused
 * thread's marks (waits, waiters, footprint, what was observed), the threads' states and the
 * observation's flags as the overlay's shader draws them too (shaders/image.frag), and a
 * plain kernel's work-groups (draw_plain.c's tiles, draw_timeline.c's Gantt chart). */
#ifndef TS_APP_COLORS_H
#define TS_APP_COLORS_H

#include "gfx.h"
#include "plain_view.h"
#include "worker.h"

static const gfx_color WHITE = { 1, 1, 1, 1 }, DIM = { 0.62f, 0.65f, 0.70f, 1 },
                       BG = { 0.09f, 0.10f, 0.12f, 1 }, PANEL = { 0.13f, 0.14f, 0.17f, 1 },
                       ACCENT = { 0.45f, 0.75f, 1.0f, 1 }, WARN = { 1.0f, 0.45f, 0.35f, 1 },
                       WAITS = { 1.0f, 0.62f, 0.05f, 1 }, WAITERS = { 0.25f, 0.9f, 1.0f, 1 },
                       FOOT = { 1.0f, 0.9f, 0.2f, 1 }, SEEN = { 0.3f, 1.0f, 0.55f, 1 };

/* The observation's flags (VW_OBS_* bits in order), as the overlay draws them. */
static const gfx_color OBS_COLORS[VW_OBS_KINDS] = { { 0.95f, 0.20f, 0.85f, 1 },
                                                    { 1.00f, 0.55f, 0.05f, 1 },
                                                    { 0.10f, 0.85f, 0.85f, 1 },
                                                    { 0.95f, 0.10f, 0.10f, 1 } };
static const char *const OBS_NAMES[VW_OBS_KINDS] = { "footprint", "write", "conflict",
                                                     "hazard" };

static const gfx_color STATE_COLORS[5] = { { 0.25f, 0.25f, 0.25f, 1 }, { 1.0f, 0.62f, 0.05f, 1 },
                                           { 0.15f, 0.95f, 0.25f, 1 }, { 0.25f, 0.45f, 0.95f, 1 },
                                           { 0.95f, 0.1f, 0.1f, 1 } };
static const char *const STATE_NAMES[5] = { "pending", "waiting", "running", "done", "hazard" };
/* A look-back group with its aggregate out (VW_DEV_PUBLISHED): the shader's colour too. */
static const gfx_color PUBLISHED_COLOR = { 0.10f, 0.80f, 0.78f, 1 };

/* A plain kernel's work-group: done, by what the findings that name it found (PV_CLEAN,
 * PV_ORANGE, PV_RED: a clean tile is outlined faintly); at the tick shown running, running
 * past a barrier, not started; a done group's bar in the timeline when clean. */
static const gfx_color PLAIN_TINTS[PV_NTINTS] = { { 0.80f, 0.84f, 0.92f, 0.30f },
                                                  { 1.00f, 0.60f, 0.10f, 1 },
                                                  { 0.97f, 0.16f, 0.12f, 1 } };
static const gfx_color PLAIN_RUNNING = { 1.0f, 0.86f, 0.12f, 1 },
                       PLAIN_BARRIER = { 0.78f, 0.48f, 1.0f, 1 },
                       PLAIN_PENDING = { 0.80f, 0.84f, 0.92f, 0.12f },
                       PLAIN_DONE = { 0.30f, 0.50f, 0.95f, 1 };

/* c at opacity a. */
static inline gfx_color color_alpha(gfx_color c, float a)
{
  c.a = a;
  return c;
}

#endif
