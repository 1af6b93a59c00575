/* Drawing one frame of the viewer: the panes, what lies over them, the side panel, the
 * timeline and the help, in that order (for a plain kernel, draw_plain.c's overlay, title
 * and panel instead of the variant's). llvmpipe pays for every pixel it shades, so a frame
 * copies a cache of what changes seldom (the panes without the hover, the panel's background,
 * the timeline's graph: draw_cached) and draws only the rest. The split view (two runs side
 * by side, draw_split.c) draws its two halves in place of the panes, every frame. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"

/* A clear of screen rectangle r (origin top-left) to c. */
static void clear_rect(const viewer *v, const vw_rect *r, gfx_color c)
{
  glEnable(GL_SCISSOR_TEST);
  glScissor((GLint)r->x, v->height - (GLint)(r->y + r->h), (GLsizei)r->w, (GLsizei)r->h);
  glClearColor(c.r, c.g, c.b, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
}

/* Brings the frame cache up to date (the panes without the hover; the panel's background and
 * the timeline's graph) and copies it into the frame; returns 0 when there is no cache (then
 * the caller draws those parts itself). */
static int draw_cached(viewer *v, const vw_rect *rin, const vw_rect *rout, const vw_rect *panel,
                       const vw_rect *tl, const float *norm)
{
  GLuint fbo = gl_cache_fbo(v);
  if (!fbo)
    return 0;
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  vw_pane_key k[2];
  draw_pane_key(v, 0, rin, norm, &k[0]);
  draw_pane_key(v, 1, rout, norm, &k[1]);
  /* Each pane with what lies above it and, for the input's, the gap between them. */
  vw_rect region[2] = { { 0, 0, rout->x, tl->y }, { rout->x, 0, panel->x - rout->x, tl->y } };
  for (int i = 0; i < 2; i++)
    if (memcmp(&k[i], &v->pane_keys[i], sizeof k[i]) != 0) {
      clear_rect(v, &region[i], BG);
      glDisable(GL_BLEND);
      draw_pane(v, &k[i], NULL);
      v->pane_keys[i] = k[i];
    }
  viewer_phase(v, PH_PANES);
  vw_ui_key u = { .w = v->width, .h = v->height, .device = viewer_dev(v) != NULL,
                  .run = v->have_snap && v->snap.run ? v->run_ident : 0 };
  if (!v->cache_ui_ok || memcmp(&u, &v->ui_key, sizeof u) != 0) {
    gfx_begin(&v->g, v->width, v->height);
    gfx_rect(&v->g, panel->x, panel->y, panel->w, panel->h, PANEL);
    draw_timeline(v, tl, 0);
    gfx_flush(&v->g);
    v->ui_key = u;
    v->cache_ui_ok = 1;
  }
  viewer_phase(v, PH_BATCH);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, v->fbo);
  glBlitFramebuffer(0, 0, v->width, v->height, 0, 0, v->width, v->height, GL_COLOR_BUFFER_BIT,
                    GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, v->fbo);
  viewer_phase(v, PH_SHOW);
  glDisable(GL_BLEND);
  draw_hover(v, &k[1]);
  viewer_phase(v, PH_PANES);
  return 1;
}

void render_frame(viewer *v)
{
  glBindFramebuffer(GL_FRAMEBUFFER, v->fbo);
  glViewport(0, 0, v->width, v->height);
  glDisable(GL_DEPTH_TEST);
  gl_upload_images(v);
  float norm[3] = { 1, 1, 1 };
  gl_update_threads(v, norm);
  viewer_phase(v, PH_UPLOAD);
  vw_rect rin, rout, panel, tl;
  viewer_layout(v, &rin, &rout, &panel, &tl);
  /* The split view draws both halves each frame (draw_split.c): no cache. */
  int split = v->twin != NULL;
  int cached = !split && draw_cached(v, &rin, &rout, &panel, &tl, norm);
  if (split) {
    glClearColor(BG.r, BG.g, BG.b, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_BLEND);
    draw_split_panes(v, norm);
    viewer_phase(v, PH_PANES);
  } else if (!cached) {
    glClearColor(BG.r, BG.g, BG.b, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_BLEND);
    vw_pane_key k[2];
    float xy[2];
    int hover = viewer_hover_tile(v, xy);
    draw_pane_key(v, 0, &rin, norm, &k[0]);
    draw_pane_key(v, 1, &rout, norm, &k[1]);
    draw_pane(v, &k[0], hover ? xy : NULL);
    draw_pane(v, &k[1], hover ? xy : NULL);
    viewer_phase(v, PH_PANES);
  }

  /* What is drawn over the panes, cut to them (the titles, panel and timeline drawn after
   * it covered the rest before the cache, and must still). */
  gfx_begin(&v->g, v->width, v->height);
  if (split) {
    draw_split_overlays(v);
  } else {
    draw_pixel_values(v, 0, &rin);
    draw_pixel_values(v, 1, &rout);
  }
  if (split) {
    /* each half's, drawn and cut to it above */
  } else if (v->plain) {
    draw_plain_overlay(v, &rin, &rout);
  } else {
    draw_tile_labels(v, &rout);
    draw_focus(v, &rin, &rout);
  }
  if (cached) {
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, v->height - (GLint)tl.y, (GLsizei)panel.x, (GLsizei)(tl.y - rin.y));
    gfx_flush(&v->g);
    glDisable(GL_SCISSOR_TEST);
  } else {
    gfx_rect(&v->g, panel.x, panel.y, panel.w, panel.h, PANEL);
  }
  if (split)
    draw_split_titles(v);
  else
    draw_titles(v, &rin, &rout);
  if (v->plain) {
    draw_plain_title(v, &rout);
    draw_plain_panel(v, &panel);
  } else {
    draw_panel(v, &panel);
  }
  if (!cached)
    draw_timeline(v, &tl, 0);
  if (v->plain)
    draw_plain_timeline(v, &tl);
  else
    draw_timeline(v, &tl, 1);
  if (v->help)
    draw_help(v);
  viewer_phase(v, PH_BATCH);
  gfx_flush(&v->g);
  viewer_phase(v, PH_UI);

  if (!v->offscreen) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, v->fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, v->width, v->height, 0, 0, v->width, v->height, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

