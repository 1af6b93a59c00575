/* Drawing one frame of a scene: the panes, what lies over them, the side panel, the timeline
 * and the help, in that order (for a plain kernel, draw_plain.c's overlay, title and panel
 * instead of the variant's, and draw_source.c's source pane in the input pane's place when it
 * is on). llvmpipe pays for every pixel it shades, so a frame copies a
 * cache of what changes seldom (the panes without the hover, the panel's background, the
 * timeline's graph: draw_cached) and draws only the rest. The split view (two runs side by
 * side, draw_split.c) draws its two halves in place of the panes, every frame. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "colors.h"
#include "draw_frame.h"
#include "draw_panel.h"
#include "draw_panes.h"
#include "draw_plain.h"
#include "draw_source.h"
#include "draw_split.h"
#include "draw_text.h"
#include "draw_timeline.h"

/* A clear of screen rectangle r (origin top-left) to c. */
static void clear_rect(const vw_scene *s, const vw_rect *r, gfx_color c)
{
  glEnable(GL_SCISSOR_TEST);
  glScissor((GLint)r->x, s->height - (GLint)(r->y + r->h), (GLsizei)r->w, (GLsizei)r->h);
  glClearColor(c.r, c.g, c.b, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
}

/* Brings the frame cache up to date (the panes without the hover; the panel's background and
 * the timeline's graph) and copies it into the frame; returns 0 when there is no cache (then
 * the caller draws those parts itself). */
static int draw_cached(vw_gl *gl, const vw_scene *s, const float *norm)
{
  const vw_rect *rout = &s->pane[1], *panel = &s->panel, *tl = &s->timeline;
  GLuint fbo = gl_cache_fbo(gl);
  if (!fbo)
    return 0;
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  vw_pane_key k[2];
  draw_pane_key(gl, s, 0, norm, &k[0]);
  draw_pane_key(gl, s, 1, norm, &k[1]);
  /* Each pane with what lies above it and, for the input's, the gap between them. */
  vw_rect region[2] = { { 0, 0, rout->x, tl->y }, { rout->x, 0, panel->x - rout->x, tl->y } };
  for (int i = 0; i < 2; i++)
    if (memcmp(&k[i], &gl->pane_keys[i], sizeof k[i]) != 0) {
      clear_rect(s, &region[i], BG);
      glDisable(GL_BLEND);
      draw_pane(gl, s, &k[i], NULL);
      gl->pane_keys[i] = k[i];
    }
  vw_phase(&gl->ph, PH_PANES);
  vw_ui_key u = { .w = s->width, .h = s->height, .device = s->dev != NULL,
                  .run = s->run ? s->run_ident : 0 };
  if (!gl->cache_ui_ok || memcmp(&u, &gl->ui_key, sizeof u) != 0) {
    gfx_begin(&gl->g, s->width, s->height);
    gfx_rect(&gl->g, panel->x, panel->y, panel->w, panel->h, PANEL);
    draw_timeline(gl, s, 0);
    gfx_flush(&gl->g);
    gl->ui_key = u;
    gl->cache_ui_ok = 1;
  }
  vw_phase(&gl->ph, PH_BATCH);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, gl->fbo);
  glBlitFramebuffer(0, 0, s->width, s->height, 0, 0, s->width, s->height, GL_COLOR_BUFFER_BIT,
                    GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, gl->fbo);
  vw_phase(&gl->ph, PH_SHOW);
  glDisable(GL_BLEND);
  draw_hover(gl, s, &k[1]);
  vw_phase(&gl->ph, PH_PANES);
  return 1;
}

void render_frame(vw_gl *gl, const vw_scene *s)
{
  glBindFramebuffer(GL_FRAMEBUFFER, gl->fbo);
  glViewport(0, 0, s->width, s->height);
  glDisable(GL_DEPTH_TEST);
  gl_upload_images(gl_run(gl, s->split_side), s);
  float norm[3] = { 1, 1, 1 };
  gl_update_threads(gl_run(gl, s->split_side), s, norm);
  vw_phase(&gl->ph, PH_UPLOAD);
  const vw_rect *rin = &s->pane[0], *panel = &s->panel;
  /* The split view draws both halves each frame (draw_split.c): no cache. */
  int split = s->twin != NULL;
  int cached = !split && draw_cached(gl, s, norm);
  if (split) {
    glClearColor(BG.r, BG.g, BG.b, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_BLEND);
    draw_split_panes(gl, s, norm);
    vw_phase(&gl->ph, PH_PANES);
  } else if (!cached) {
    glClearColor(BG.r, BG.g, BG.b, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_BLEND);
    vw_pane_key k[2];
    const float *hover = s->hover ? s->hover_tile : NULL;
    draw_pane_key(gl, s, 0, norm, &k[0]);
    draw_pane_key(gl, s, 1, norm, &k[1]);
    draw_pane(gl, s, &k[0], hover);
    draw_pane(gl, s, &k[1], hover);
    vw_phase(&gl->ph, PH_PANES);
  }

  /* What is drawn over the panes, cut to them (the titles, panel and timeline drawn after
   * it covered the rest before the cache, and must still). */
  gfx_begin(&gl->g, s->width, s->height);
  if (split) {
    draw_split_overlays(gl, s); /* each half's, drawn and cut to it */
  } else {
    draw_pixel_values(gl, s, 0);
    draw_pixel_values(gl, s, 1);
    if (s->plain) {
      draw_plain_overlay(gl, s);
      draw_source_overlay(gl, s);
    } else {
      draw_tile_labels(gl, s);
      draw_focus(gl, s);
    }
  }
  if (cached) {
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, s->height - (GLint)s->timeline.y, (GLsizei)panel->x,
              (GLsizei)(s->timeline.y - rin->y));
    gfx_flush(&gl->g);
    glDisable(GL_SCISSOR_TEST);
  } else {
    gfx_rect(&gl->g, panel->x, panel->y, panel->w, panel->h, PANEL);
  }
  if (split)
    draw_split_titles(gl, s);
  else
    draw_titles(gl, s);
  if (s->plain) {
    if (!split)
      draw_plain_title(gl, s);
    draw_source_pane(gl, s);
    draw_plain_panel(gl, s);
  } else {
    draw_panel(gl, s);
  }
  if (!cached)
    draw_timeline(gl, s, 0);
  if (s->plain && split)
    draw_plain_split_timelines(gl, s);
  else if (s->plain) {
    draw_plain_timeline(gl, s);
    draw_source_timeline(gl, s);
  }
  else
    draw_timeline(gl, s, 1);
  if (s->help)
    draw_help(gl, s);
  vw_phase(&gl->ph, PH_BATCH);
  gfx_flush(&gl->g);
  vw_phase(&gl->ph, PH_UI);

  if (!s->offscreen) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, gl->fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, s->width, s->height, 0, 0, s->width, s->height, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}
