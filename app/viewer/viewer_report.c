/* The state line that scripts print (`report`) and check (`expect FIELD VALUE`): what the
 * window shows, read from the scene a frame would draw (so that a script checks what is on
 * the screen), with the settings asked for, the process's memory and, in the split view, the
 * right half's. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "scene_make.h"
#include "viewer_report.h"

/* The process's resident memory in kB (VmRSS), or 0 where /proc does not say: the soak test
 * reads it from the state line. */
static long rss_kb(void)
{
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld", &kb) == 1)
      break;
  if (f)
    fclose(f);
  return kb;
}

/* The clicked thread, (x,y) in its pass's thread space, or none. */
static void selected_text(const vw_scene *s, char *out, size_t n)
{
  snprintf(out, n, "none");
  if (s->sel_pass >= 0 && s->run) {
    const ts_pass_sched *ps = &s->sched->pass[s->sel_pass];
    snprintf(out, n, "(%u,%u)", s->sel_id % (uint32_t)ps->tw, s->sel_id / (uint32_t)ps->tw);
  }
}

/* The thread the inspector describes (hovered, else selected), (x,y) or none; in the split
 * view after its half, "left:" or "right:". */
static void inspector_text(const vw_scene *s, char *out, size_t n)
{
  const vw_scene *h = s->inspects_right ? s->twin : s;
  const char *half = !s->twin ? "" : h == s ? "left:" : "right:";
  snprintf(out, n, "%snone", half);
  if (h->focus) {
    uint32_t tw = (uint32_t)h->sched->pass[h->focus_pass].tw;
    snprintf(out, n, "%s(%u,%u)", half, h->focus_id % tw, h->focus_id / tw);
  }
}

/* A plain kernel's source pane and selection: whether the pane shows; the finding selected
 * (N/COUNT), the lines of its two accesses and their work-groups (B's "several" when it
 * names none); the line selected and how many work-groups the result says ran it. */
static void source_text(const vw_scene *s, char *out, size_t n)
{
  const ts_plain_finding *f = scene_finding(s);
  const plain_view *pv = s->plain;
  char fnd[200] = " finding=none";
  if (f) {
    pv_side a, b;
    int two = plain_view_sides(f, &a, &b);
    const ts_plain_launch *L = &pv->res->launch[f->pass];
    char lines[32], ga[40] = "?", gb[48] = "";
    snprintf(lines, sizeof lines, b.line > 0 ? "%d,%d" : "%d", a.line, b.line);
    if (a.group < L->ngroups_all)
      ts_plain_group_name(L, a.group, ga, sizeof ga);
    if (two && b.group != a.group && b.group < L->ngroups_all) {
      gb[0] = '/';
      ts_plain_group_name(L, b.group, gb + 1, sizeof gb - 1);
    } else if (two && b.group != a.group) {
      snprintf(gb, sizeof gb, "/several");
    }
    snprintf(fnd, sizeof fnd, " finding=%d/%zu finding_lines=%s finding_groups=%s%s",
             s->src_finding + 1, pv->res->nfindings, lines, ga, gb);
  }
  snprintf(out, n, " source=%s%s src_line=%d line_groups=%zu", s->source.w > 0 ? "on" : "off",
           fnd, s->src_line, plain_view_line_groups(pv, s->src_line, NULL, 0));
}

void viewer_report(viewer *v, char *buf, size_t n)
{
  vw_scene s, right;
  viewer_scene(v, &s, &right);
  const ts_variant *var = ts_variant_at(v->set.variant);
  int64_t len = s.run ? s.sched->length : 0;
  size_t nh = 0;
  int pass = 0;
  if (s.run) {
    ts_run_hazards(s.run, &nh);
    pass = s.pass + 1;
  }
  char sel[48], insp[48];
  selected_text(&s, sel, sizeof sel);
  inspector_text(&s, insp, sizeof insp);
  const ts_dev_run *d = s.dev;
  char dev[96] = "";
  if (d)
    snprintf(dev, sizeof dev, " devtime=%llu/%llu wrong=%u", (unsigned long long)s.dev_time,
             (unsigned long long)d->t_end, d->nwrong);
  /* The observation: done (with the threads it flags, its hazards and the thread whose
   * exact elements it holds), pending, failed, or off (the CPU model, a large image, the
   * device view). */
  char obs[160] = " observe=off";
  const vw_obs *o = s.obs;
  char why[600];
  scene_obs_why_not(&s, why, sizeof why);
  if (o) {
    char chosen[48] = "none";
    if (o->chosen_x >= 0)
      snprintf(chosen, sizeof chosen, "(%d,%d)", o->chosen_x, o->chosen_y);
    snprintf(obs, sizeof obs, " observe=done footprint=%u writes=%u conflicts=%u obs_hazards=%zu chosen=%s",
             o->flagged[0], o->flagged[1], o->flagged[2], o->rep.nhazards, chosen);
  } else if (strncmp(why, "observing", 9) == 0) {
    snprintf(obs, sizeof obs, " observe=pending");
  } else if (strncmp(why, "observation failed", 18) == 0) {
    snprintf(obs, sizeof obs, " observe=failed");
  }
  /* A plain kernel: its file, the results taken, the findings of the last good one,
   * whether the last attempt failed (the last good result then stays), the watched pixel
   * of the result shown with its accesses' lines and the work-items that wrote it, and the
   * tick of the pass shown of its ticks. */
  char plain[600] = "", watch[96] = " watch=none";
  const plain_view *pv = s.plain;
  if (pv && pv->res_watch_x >= 0)
    snprintf(watch, sizeof watch, " watch=(%d,%d) watch_lines=%zu watch_writers=%zu",
             pv->res_watch_x, pv->res_watch_y, pv->nrows, pv->nwriters);
  char source[256] = "";
  if (pv)
    source_text(&s, source, sizeof source);
  if (pv)
    snprintf(plain, sizeof plain,
             " plain=%s runs=%llu findings=%zu plain_error=%d%s plain_tick=%u/%u%s", pv->name,
             (unsigned long long)pv->serial, pv->res ? pv->res->nfindings : 0, pv->error[0] != 0,
             watch, s.plain_tick, plain_view_ticks(pv), source);
  /* The split view: the right half's spec, tick and hazards, what it shows and its clicked
   * thread. */
  char split[256] = " split=off";
  const vw_scene *t = s.twin;
  if (t && t->plain) {
    /* a plain kernel's: the other order's tick and whether the two outputs differ */
    snprintf(split, sizeof split, " split=%s right_tick=%u/%u differ=%lld", s.split_text,
             t->plain_tick, plain_view_ticks(t->plain), plain_view_differ(s.plain, t->plain));
  } else if (t) {
    size_t th = 0;
    if (t->run)
      ts_run_hazards(t->run, &th);
    const ts_dev_run *td = t->dev;
    char tsel[48];
    selected_text(t, tsel, sizeof tsel);
    snprintf(split, sizeof split,
             " split=%s right_tick=%lld/%lld right_hazards=%zu right_view=%s right_selected=%s",
             s.split_text, (long long)(t->have_snap ? t->snap->tick : 0),
             (long long)(t->run ? t->sched->length : 0), th, td ? "device" : "sim", tsel);
    if (td)
      snprintf(split + strlen(split), sizeof split - strlen(split),
               " right_devtime=%llu/%llu right_wrong=%u", (unsigned long long)t->dev_time,
               (unsigned long long)td->t_end, td->nwrong);
  }
  snprintf(buf, n,
           "variant=%s pattern=%s walk=%s slots=%d cost=%d backend=%s tick=%lld/%lld pass=%d "
           "hazards=%zu overlay=%s selected=%s inspector=%s view=%s rss=%ld%s%s%s%s%s%s",
           var->name, ts_pattern_name(v->set.pattern), ts_walk_name(v->set.walk), v->set.slots,
           v->set.cost, v->snap.on_cl ? "cl" : "cpu", (long long)(v->have_snap ? v->snap.tick : 0),
           (long long)len, pass, nh, overlay_name(v->mode, d != NULL), sel, insp,
           d ? "device" : "sim",
           rss_kb(), dev, split, obs, plain, v->snap.error[0] ? " error=" : "", v->snap.error);
}
