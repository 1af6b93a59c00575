/* A plain kernel's source pane and its selection (viewer_source.h): what the keys, clicks,
 * the wheel and scripts change of them. Where a point of the pane falls is the drawing's
 * answer (draw_source.h's source_at, from the scene this frame draws), so that a click lands
 * on what is shown. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "draw_source.h"
#include "scene_make.h"
#include "viewer_control.h"
#include "viewer_source.h"

void viewer_source_toggle(viewer *v)
{
  if (!v->plain) {
    viewer_set_status(v, "l: the source pane shows a plain kernel's file (--kernel-file K.cl)");
    return;
  }
  if (v->plain2) {
    viewer_set_status(v, "l: the split view has no room for the source pane");
    return;
  }
  v->source = !v->source;
  if (v->fitted)
    viewer_fit(v);
  viewer_set_status(v, v->source ? "the source pane: n N step through the findings, a click on a "
                                   "line selects it"
                                 : "the source pane is off [l]");
}

void viewer_finding_select(viewer *v, int i)
{
  plain_view *pv = v->plain;
  const ts_plain_result *r = pv ? pv->res : NULL;
  if (!r || i < 0 || (size_t)i >= r->nfindings) {
    v->src_finding = -1;
    return;
  }
  const ts_plain_finding *f = &r->findings[i];
  v->src_finding = i;
  v->src_line = f->line;
  v->src_top = 0;
  if (f->pass != pv->pass && f->pass >= 0 && f->pass < r->npasses) {
    int64_t end = viewer_run_length(v);
    pv->pass = f->pass;
    viewer_plain_retick(v, end);
  }
  char msg[200];
  snprintf(msg, sizeof msg, "finding %d of %zu: line %d, %s", i + 1, r->nfindings, f->line,
           ts_plain_kind_name(f->kind));
  viewer_set_status(v, msg);
}

void viewer_finding_step(viewer *v, int dir)
{
  if (!v->plain)
    return;
  if (!v->plain->res && !v->plain->error[0]) {
    /* before the first run is in (a script's keys do not wait for it): made when it comes */
    v->src_pending = dir > 0 ? v->src_pending + 1 : v->src_pending > 0 ? v->src_pending - 1 : -1;
    return;
  }
  int i = plain_view_finding_step(v->plain, v->src_finding, dir);
  if (i < 0)
    viewer_set_status(v, v->plain->res ? "no finding: every access was in order" : "no run yet");
  else
    viewer_finding_select(v, i);
}

void viewer_source_line(viewer *v, int line)
{
  if (!v->plain || line <= 0)
    return;
  size_t idx[64];
  size_t n = plain_view_line_findings(v->plain, line, idx, 64);
  n = n > 64 ? 64 : n;
  if (n) {
    size_t next = 0; /* after the one selected, when it is at this line */
    for (size_t k = 0; k < n; k++)
      if ((int)idx[k] == v->src_finding)
        next = (k + 1) % n;
    viewer_finding_select(v, (int)idx[next]);
    return;
  }
  int again = v->src_finding < 0 && v->src_line == line;
  v->src_finding = -1;
  v->src_line = again ? 0 : line;
  char msg[96];
  snprintf(msg, sizeof msg, again ? "no line selected" : "line %d selected", line);
  viewer_set_status(v, msg);
}

int viewer_source_has(const viewer *v, float sx, float sy)
{
  vw_rect r;
  return viewer_source_pane(v, &r) && sx >= r.x && sy >= r.y && sx < r.x + r.w &&
         sy < r.y + r.h;
}

int viewer_source_click(viewer *v, float sx, float sy)
{
  if (!viewer_source_has(v, sx, sy) || !v->gl)
    return 0;
  vw_scene s;
  viewer_scene(v, &s, NULL);
  int what = 0, hit = source_at(v->gl, &s, sx, sy, &what);
  if (hit == SOURCE_ENTRY)
    viewer_finding_select(v, what);
  else if (hit == SOURCE_LINE)
    viewer_source_line(v, what);
  return 1;
}

int viewer_source_wheel(viewer *v, float sx, float sy, int dy)
{
  if (!viewer_source_has(v, sx, sy) || !v->gl)
    return 0;
  vw_scene s;
  viewer_scene(v, &s, NULL);
  int top = source_first_line(v->gl, &s);
  v->src_top = top - 3 * dy < 1 ? 1 : top - 3 * dy;
  viewer_scene(v, &s, NULL);
  v->src_top = source_first_line(v->gl, &s); /* kept within the file */
  return 1;
}

void viewer_source_picked(viewer *v)
{
  const ts_plain_result *r = v->plain ? v->plain->res : NULL;
  if (!r)
    return;
  if (v->src_pending >= 0) {
    /* asked for with the options: no status line of its own over the timeline */
    char keep[sizeof v->status];
    uint32_t until = v->status_until;
    snprintf(keep, sizeof keep, "%s", v->status);
    viewer_finding_select(v, v->src_pending);
    snprintf(v->status, sizeof v->status, "%s", keep);
    v->status_until = until;
    v->src_pending = -1;
  } else if (v->src_finding >= 0 && (size_t)v->src_finding >= r->nfindings) {
    v->src_finding = -1;
  }
}
