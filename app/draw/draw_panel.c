/* Drawing the side panel: the variant and its pass, the schedule and its hazards, memory
 * and traffic (or the device's run beside the simulated one), the back end and its timing,
 * a failed kernel build's log; the inspector of the hovered pixel and the focused thread
 * (its schedule, the device's record of it, its waits, hazards and observed accesses); the
 * overlay's legend. Its background is in the frame cache. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colors.h"
#include "draw_panel.h"
#include "draw_panes.h"
#include "draw_split.h"
#include "draw_text.h"
#include "ts_record.h"

enum { GEN9_THREAD_BYTES = 4096 };

static void fmt_bytes(double b, char *out, size_t n)
{
  if (b >= 1e9)
    snprintf(out, n, "%.2f GB", b / 1e9);
  else if (b >= 1e6)
    snprintf(out, n, "%.2f MB", b / 1e6);
  else if (b >= 1e3)
    snprintf(out, n, "%.1f kB", b / 1e3);
  else
    snprintf(out, n, "%.0f B", b);
}

static void draw_bar(vw_gl *gl, float x, float y, float w, double frac, gfx_color c)
{
  gfx_rect(&gl->g, x, y, w, 8, gfx_rgba(0.25f, 0.26f, 0.3f, 1));
  gfx_rect(&gl->g, x, y, (float)fmin(1.0, frac) * w, 8, frac > 1 ? WARN : c);
}

static const char *const DEV_STATE_NAMES[5] = { "to start", "waiting", "running", "done",
                                                "wrong" };
#define PUBLISHED_NAME "published"

/* A device state's name and colour (vw_dev_state's, VW_DEV_PUBLISHED included). */
static const char *dev_state_name(int st)
{
  return st == VW_DEV_PUBLISHED ? PUBLISHED_NAME : DEV_STATE_NAMES[st];
}

static gfx_color dev_state_color(int st)
{
  return st == VW_DEV_PUBLISHED ? PUBLISHED_COLOR : STATE_COLORS[st];
}

/* Three device times of one group on a panel line: units on each, or the clock named once. */
static void fmt_dev_times(const ts_dev_run *d, const ts_grec *g, char *out, size_t n)
{
  if (!d->clock_ns) {
    snprintf(out, n, "events %" PRIu64 ", %" PRIu64 ", %" PRIu64 " (start, wait, end)", g->start,
             g->waited, g->end);
    return;
  }
  char a[32], b[32], c[32];
  draw_fmt_dev_time(d, g->start, a, sizeof a);
  draw_fmt_dev_time(d, g->waited, b, sizeof b);
  draw_fmt_dev_time(d, g->end, c, sizeof c);
  snprintf(out, n, "start %s, wait %s, end %s", a, b, c);
}

/* The hovered tile's record beside its simulated schedule. */
static void inspect_device(vw_gl *gl, const vw_scene *s, float x, float *y, int pass, uint32_t id)
{
  const ts_dev_run *d = s->dev;
  const ts_thread *t = &s->sched->pass[pass].t[id];
  const ts_grec *g = scene_dev_rec(s, pass, id);
  char times[128], now[32];
  if (g->unit >= 0)
    panel_line(gl, x, y, WHITE, "device: ticket #%u, unit %d, work-group %u", t->dispatch, g->unit,
               g->group);
  else
    panel_line(gl, x, y, WHITE, "device: ticket #%u, lane %d, work-group %u", t->dispatch, g->lane,
               g->group);
  fmt_dev_times(d, g, times, sizeof times);
  panel_line(gl, x, y, WHITE, "  %s", times);
  if (d->pass[pass].lookback) {
    draw_fmt_dev_time(d, g->published, now, sizeof now);
    panel_line(gl, x, y, WHITE, "  its aggregate published at %s", now);
  }
  uint64_t tn = s->dev_time;
  int st = vw_dev_state(d, pass, g, tn);
  int wrong = pass == d->npasses - 1 && d->wrong && d->wrong[id];
  draw_fmt_dev_time(d, tn, now, sizeof now);
  panel_line(gl, x, y, wrong && st == TS_STATE_DONE ? STATE_COLORS[4] : dev_state_color(st),
             "  at %s: %s%s", now, dev_state_name(st),
             !wrong ? "" : st == TS_STATE_DONE ? ", WRONG (not the reference)" : ", wrong when done");
  if (d->pass[pass].lookback && g->bound >= 0) {
    const ts_grec *b = &d->pass[pass].rec[g->bound];
    panel_line(gl, x, y, DIM, "  its wait read ticket #%d's %s last (tile %d,%d)", g->bound,
               g->bound_agg ? "aggregate" : "end", b->tx, b->ty);
  }
  panel_line(gl, x, y, DIM, "simulated: dispatch #%u, depth %d, slot %d", t->dispatch, t->depth,
             t->slot);
  panel_line(gl, x, y, t->hazards ? WARN : DIM,
             "  ticks %" PRId64 ", %" PRId64 ", %" PRId64 " (dispatch, start, end)%s",
             t->dispatch_tick, t->start_tick, t->end_tick, t->hazards ? ", hazard" : "");
}

/* Whether the device kept the scoreboard: every producer published (ended, or a look-back's
 * aggregate) before this group's wait ended. */
static void inspect_device_waits(vw_gl *gl, const vw_scene *s, float x, float *y, int pass,
                                 uint32_t id, const uint32_t *tg, int n)
{
  const ts_dev_run *d = s->dev;
  const ts_pass_sched *ps = &s->sched->pass[pass];
  const ts_grec *g = scene_dev_rec(s, pass, id);
  const char *what = d->pass[pass].lookback ? "published" : "ended";
  char late[160] = "";
  for (int i = 0; i < n; i++)
    if (scene_dev_rec(s, pass, tg[i])->published > g->waited)
      snprintf(late + strlen(late), sizeof late - strlen(late), " (%u,%u)",
               tg[i] % (uint32_t)ps->tw, tg[i] / (uint32_t)ps->tw);
  if (late[0])
    panel_line(gl, x, y, WARN, "  %s after its wait:%s", what, late);
  else
    panel_line(gl, x, y, WHITE, "  all %s before its wait did", what);
}

/* The kernels' memory against the budget, and the traffic of the whole run. */
static void draw_memory(vw_gl *gl, const vw_scene *s, float x, float *yp)
{
  const vw_rect *r = &s->panel;
  const vw_snapshot *sn = s->snap;
  int p = s->pass, live = s->live;
  const ts_variant *var = ts_run_params_of(s->run)->variant;
  const ts_kctx *k = ts_run_kctx(s->run);
  float y = *yp;
  panel_line(gl, x, &y, ACCENT, "memory per thread (budget 4 KB: one Gen9 EU thread)");
  char dev[64] = "";
  if (sn->have_dev_mem && live)
    snprintf(dev, sizeof dev, ", device %" PRIu64 " B", sn->dev_private[p]);
  panel_line(gl, x, &y, WHITE, "private: declared %d B%s", var->private_bytes, dev);
  draw_bar(gl, x, y, r->w - 24, (double)var->private_bytes / GEN9_THREAD_BYTES, ACCENT);
  y += 12;
  int lb = var->local_bytes ? var->local_bytes(k) : 0;
  if (sn->have_dev_mem && live)
    snprintf(dev, sizeof dev, ", device %" PRIu64 " B", sn->dev_local[p]);
  panel_line(gl, x, &y, WHITE, "local per work-group: declared %d B%s", lb, dev);
  char rb[32], wb[32];
  fmt_bytes(s->bytes_read, rb, sizeof rb);
  fmt_bytes(s->bytes_written, wb, sizeof wb);
  panel_line(gl, x, &y, WHITE, "traffic: %s read, %s written", rb, wb);
  *yp = y;
}

/* The device's run beside the simulated one: the record's summary and the simulator's
 * verdict on the same schedule, then the groups' states at the device time. */
static void draw_device_block(vw_gl *gl, const vw_scene *s, float x, float *y)
{
  const ts_dev_run *d = s->dev;
  panel_line(gl, x, y, ACCENT, "device schedule   [d] for the simulated one");
  /* Shots show no measured kernel time (it changes from run to run); the record's own
   * times are what the view draws. */
  ts_dev_run shown = *d;
  if (!s->live)
    shown.kernel_ms = 0;
  char line[400];
  ts_dev_summary(&shown, line, sizeof line);
  panel_wrap(gl, x, y, d->nwrong ? WARN : WHITE, line);
  size_t nh;
  ts_run_hazards(s->run, &nh);
  panel_line(gl, x, y, nh ? WARN : WHITE, "simulated: %" PRId64 " ticks, %zu hazards in %zu threads",
             s->sched->length, nh, ts_run_hazardous_threads(s->run));
  size_t nr;
  ts_run_races(s->run, &nr);
  panel_line(gl, x, y, nr ? WARN : WHITE, "races: %zu reads that no chain of waits orders", nr);
  if (s->record_name[0]) {
    panel_line(gl, x, y, DIM, "record %s (%s)", s->record_name, d->device);
    panel_line(gl, x, y, DIM, "a record holds no pixels: the output is simulated");
  }
  else
    panel_line(gl, x, y, DIM, "run on %s", d->device);
  panel_wrap(gl, x, y, WHITE, s->dev_path);
  char t[48];
  draw_fmt_dev_time(d, s->dev_time, t, sizeof t);
  const uint32_t *c = s->dev_counts;
  if (d->pass[s->pass].lookback)
    panel_line(gl, x, y, WHITE, "at %s: %u done, %u " PUBLISHED_NAME ", %u running", t, c[3],
               c[VW_DEV_PUBLISHED], c[2]);
  else
    panel_line(gl, x, y, WHITE, "at %s: %u done, %u running, %u waiting", t, c[3], c[2], c[1]);
}

/* The focused thread's observed accesses, per buffer: the rectangle (in the buffer's
 * elements: a pixel is C columns of a row) and the count of what it read and wrote, beside
 * what it declares where the two differ; then its violations, write conflicts and observed
 * hazards. Lines stop at `bottom`. */
static void inspect_observed(vw_gl *gl, const vw_scene *s, float x, float *y, float bottom,
                             int pass, uint32_t id)
{
  const vw_obs *o = s->obs;
  const ts_obs_pass *op = ts_observe_pass(o->ob, pass);
  const ts_pass_sched *ps = &s->sched->pass[pass];
  uint32_t tw = (uint32_t)ps->tw;
  float lh = (float)gl->g.font[FONT_UI].height;
  if (!op || *y + lh > bottom)
    return;
  const ts_kctx *k = ts_run_kctx(s->run);
  int tr = ts_run_params_of(s->run)->variant->passes[pass].src_transposed;
  int span = tr ? k->H : k->W;
  int per = span > 0 && op->cols[TS_ROLE_SRC] % span == 0 ? op->cols[TS_ROLE_SRC] / span : 0;
  char unit[48] = "";
  if (per > 1)
    snprintf(unit, sizeof unit, ", %s column %c*%d+c", ts_obs_buffer_name(op->buf[TS_ROLE_SRC]),
             tr ? 'y' : 'x', per);
  panel_line(gl, x, y, ACCENT, "observed%s%s", op->chosen == id ? ", every element" : "", unit);
  for (int r = 0; r < TS_NROLES; r++)
    for (int kd = 0; kd < 2; kd++) {
      const ts_obs_acc *a = ts_obs_at(op, id, r, kd);
      if (!a->count || *y + lh > bottom)
        continue;
      gfx_color c = a->outside ? OBS_COLORS[kd == TS_ACC_READ ? 0 : 1] : SEEN;
      panel_line(gl, x, y, c, "%s%s %s: cols %d..%d rows %d..%d, %u",
                 ts_obs_buffer_name(op->buf[r]), r == TS_ROLE_COMMITTED ? " (own)" : "",
                 kd ? "written" : "read", a->seen.x0, a->seen.x1, a->seen.y0, a->seen.y1,
                 a->count);
      if (a->outside && *y + 2 * lh <= bottom) {
        panel_line(gl, x, y, c, "  %u outside cols %d..%d rows %d..%d", a->outside,
                   a->declared.x0, a->declared.x1, a->declared.y0, a->declared.y1);
        panel_line(gl, x, y, c, "  (its %s); the first: col %d row %d",
                   kd ? "write rectangle" : "footprint", a->out_col, a->out_row);
      }
    }
  if (op->oob && op->oob_tid == id && *y + lh <= bottom)
    panel_line(gl, x, y, WARN, "%s %s col %d row %d: outside the buffer", op->oob_kind ? "wrote" : "read",
               ts_obs_buffer_name(op->buf[op->oob_role]), op->oob_col, op->oob_row);
  /* A write conflict: the first element of its writes that another thread wrote too. */
  const ts_obs_acc *wr = ts_obs_at(op, id, TS_ROLE_DST, TS_ACC_WRITE);
  int cols = op->cols[TS_ROLE_DST];
  for (int ry = wr->seen.y0; op->conflicts && wr->count && ry <= wr->seen.y1; ry++)
    for (int rx = wr->seen.x0; rx <= wr->seen.x1; rx++) {
      size_t e = (size_t)ry * (size_t)cols + (size_t)rx;
      uint32_t a = op->last[e], b = op->other[e];
      if (!a || !b || (a - 1 != id && b - 1 != id))
        continue;
      uint32_t w = a - 1 == id ? b - 1 : a - 1;
      if (*y + lh <= bottom)
        panel_line(gl, x, y, OBS_COLORS[2], "conflict: %s col %d row %d also by (%u,%u)",
                   ts_obs_buffer_name(op->buf[TS_ROLE_DST]), rx, ry, w % tw, w / tw);
      ry = wr->seen.y1;
      break;
    }
  char hz[160] = "";
  int nhz = 0;
  for (size_t i = 0; i < o->rep.nhazards; i++) {
    const ts_hazard *h = &o->rep.hazards[i];
    if (h->pass == pass && h->consumer == id && nhz++ < 5)
      snprintf(hz + strlen(hz), sizeof hz - strlen(hz), " (%u,%u)", h->producer % tw,
               h->producer / tw);
  }
  if (nhz && *y + lh <= bottom)
    panel_line(gl, x, y, OBS_COLORS[3], "observed hazard: read early from%s", hz);
}

/* The pass shown, its tile and footprint; the schedule, its size and hazards. */
static void panel_schedule(vw_gl *gl, const vw_scene *sc, float x, float *yp)
{
  float y = *yp;
  gfx_color head = ACCENT;
  /* The run shown may still be of the variant before: its passes, not the asked one's. */
  const ts_variant *var = ts_run_params_of(sc->run)->variant;
  const ts_sched *s = sc->sched;
  const ts_kctx *k = ts_run_kctx(sc->run);
  int p = sc->pass;
  const ts_dev_run *dev = sc->dev;
  const ts_pass_desc *pd = &var->passes[p];
  ts_rect tile = pd->tile_px(k, 0, 0), rd = pd->read_px(k, 0, 0);
  panel_line(gl, x, &y, WHITE, "pass %d of %d: %s", p + 1, s->npasses, pd->name);
  panel_line(gl, x, &y, WHITE, "tile %s = %dx%d px", pd->tile, tile.w, tile.h);
  panel_line(gl, x, &y, WHITE, "footprint %dx%d px, read amplification %.2fx", rd.w, rd.h,
             (double)rd.w * rd.h / ((double)tile.w * tile.h));
  y += 6;
  panel_line(gl, x, &y, head, "schedule");
  panel_line(gl, x, &y, WHITE, "pattern %s [p]   walk %s [w]", ts_pattern_name(s->params.pattern),
             ts_walk_name(s->params.walk));
  if (s->params.pattern != TS_PAT_NONE && s->params.walk != ts_pattern_default_walk(s->params.pattern))
    panel_line(gl, x, &y, WARN, "walk is not the pattern's own: dependencies may drop");
  panel_line(gl, x, &y, WHITE, "%d slots [ ]   cost %d tick%s [c]", s->params.slots,
             ts_run_params_of(sc->run)->cost, ts_run_params_of(sc->run)->cost > 1 ? "s" : "");
  if (s->npasses > 1) /* the total over the passes; the shown pass's thread space */
    panel_line(gl, x, &y, WHITE, "%u threads in %d passes (this one %dx%d), %" PRId64 " ticks",
               s->total, s->npasses, s->pass[p].tw, s->pass[p].th, s->length);
  else
    panel_line(gl, x, &y, WHITE, "%u threads (%dx%d), %" PRId64 " ticks", s->total,
               s->pass[p].tw, s->pass[p].th, s->length);
  panel_line(gl, x, &y, WHITE, "mean %.1f running, peak %u resident",
             ts_sched_mean_running(s), s->peak_resident);
  size_t nh;
  const ts_hazard *hz = ts_run_hazards(sc->run, &nh);
  if (nh) {
    const ts_pass_sched *hp = &s->pass[hz[0].pass];
    panel_line(gl, x, &y, WARN, "%zu hazards in %zu threads", nh, ts_run_hazardous_threads(sc->run));
    panel_line(gl, x, &y, WARN, "  e.g. (%u,%u) read (%u,%u) before it finished",
               hz[0].consumer % (uint32_t)hp->tw, hz[0].consumer / (uint32_t)hp->tw,
               hz[0].producer % (uint32_t)hp->tw, hz[0].producer / (uint32_t)hp->tw);
  } else {
    panel_line(gl, x, &y, WHITE, "no hazards");
  }
  if (sc->snap->advice[0])
    panel_wrap(gl, x, &y, sc->snap->advice_warn ? WARN : DIM, sc->snap->advice);
  /* Not in the split view: its left half is always the simulation (a device half shows the
   * device's run). */
  if (!dev && !sc->split_side && sc->dev_available)
    panel_line(gl, x, &y, ACCENT, "the device's run of it: d shows it");
  *yp = y;
}

/* The back end: the device it runs on and, in the window, the kernels' time. */
static void panel_backend(vw_gl *gl, const vw_scene *s, float x, float *yp)
{
  float y = *yp;
  int live = s->live;
  const vw_snapshot *sn = s->snap;
  const ts_kctx *k = ts_run_kctx(s->run);
  /* The device named once: its platform beside the heading, its name under it (the
   * middle of a long one left out). A shot leaves the kernels' time out (it varies from run
   * to run; --show-times draws it). */
  draw_device_heading(gl, x, &y, "device   [b]", sn->on_cl ? draw_cl_device(sn->device) : sn->device);
  if (sn->on_cl && sn->kernel_ms > 0 && live) {
    double px = (double)k->W * k->H, gbps = (s->bytes_read + s->bytes_written) / (sn->kernel_ms * 1e6);
    panel_line(gl, x, &y, WHITE, "kernels %.3f ms, %.2f ns/px, %.2f GB/s", sn->kernel_ms,
               sn->kernel_ms * 1e6 / px, gbps);
    if (sn->copy_gbps > 0)
      panel_line(gl, x, &y, WHITE, "%.1f%% of the device's copy (%.1f GB/s)",
                 100.0 * gbps / sn->copy_gbps, sn->copy_gbps);
  } else if (!sn->on_cl) {
    panel_line(gl, x, &y, DIM, "the CPU model is not timed");
  }
  *yp = y; /* (an observation's progress: the timeline's status line) */
}

/* The last failed kernel build's log. */
static void panel_build_log(vw_gl *gl, const vw_scene *sc, float x, float *yp)
{
  float y = *yp;
  if (sc->snap->build_log && sc->snap->build_log[0]) {
    y += 6;
    panel_line(gl, x, &y, WARN, "kernel build failed (r to retry):");
    /* The log, wrapped to the panel: up to ten lines. */
    int fits = (int)(PANEL_TEXT_W / (float)gl->g.font[FONT_SMALL].advance);
    const char *s = sc->snap->build_log;
    for (int n = 0; *s && n < 10; n++) {
      size_t len = strcspn(s, "\n");
      size_t take = len > (size_t)fits ? (size_t)fits : len;
      gfx_textf(&gl->g, FONT_SMALL, x, y, WARN, "%.*s", (int)take, s);
      y += (float)gl->g.font[FONT_SMALL].height;
      s += take;
      if (take == len && *s)
        s++;
    }
  }
  *yp = y;
}

/* The hovered pixel's values, in and out. */
static void inspect_pixel(vw_gl *gl, const vw_scene *s, float x, float *yp)
{
  float y = *yp;
  const ts_image *im = s->input;
  if (s->hover_pane >= 0 && im && s->hover_x >= 0 && s->hover_y >= 0 &&
      s->hover_x < (float)im->w && s->hover_y < (float)im->h) {
    int px = (int)s->hover_x, py = (int)s->hover_y;
    char in[48] = "", out[64] = "";
    const uint8_t *ip = im->data + ((size_t)py * im->w + px) * im->c;
    for (int c = 0; c < im->c; c++)
      snprintf(in + strlen(in), sizeof in - strlen(in), "%s%u", c ? " " : "", ip[c]);
    /* The run shown may still be of the image before, of another size: NULL outside it. */
    const uint8_t *op = scene_out_px(s, px, py);
    const ts_kctx *k = s->run ? ts_run_kctx(s->run) : NULL;
    if (k && op && k->buf[TS_BUF_OUT].esize == 4) {
      uint32_t sum;
      memcpy(&sum, op, sizeof sum);
      snprintf(out, sizeof out, "%u", sum);
    } else if (k && op) {
      for (int c = 0; c < k->C; c++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%u", c ? " " : "", op[c]);
    }
    panel_line(gl, x, &y, WHITE, "pixel (%d,%d)  in %s  out %s", px, py, in, out);
  }
  *yp = y;
}

/* The focused thread: its schedule (or the device's record of it), what it waits for,
 * the hazards it read, who wrote the hovered pixel, and what it was observed to touch. */
static void inspect_thread(vw_gl *gl, const vw_scene *sc, float x, float *yp, int pass,
                           uint32_t id)
{
  float y = *yp;
  const ts_sched *s = sc->sched;
  const ts_pass_sched *ps = &s->pass[pass];
  const ts_thread *t = &ps->t[id];
  ts_thread_state st = ts_thread_state_at(t, sc->snap->tick);
  panel_line(gl, x, &y, WHITE, "thread (%u,%u) of pass %d%s", id % (uint32_t)ps->tw,
             id / (uint32_t)ps->tw, pass + 1, sc->sel_pass == pass && sc->sel_id == id ? "  [selected]" : "");
  const ts_dev_run *dev = sc->dev;
  if (dev) {
    inspect_device(gl, sc, x, &y, pass, id);
  } else {
  panel_line(gl, x, &y, WHITE, "dispatch #%u, depth %d, slot %d", t->dispatch, t->depth, t->slot);
  panel_line(gl, x, &y, WHITE, "ticks: dispatched %" PRId64 ", started %" PRId64 ", ends %" PRId64,
             t->dispatch_tick, t->start_tick, t->end_tick);
  panel_line(gl, x, &y, STATE_COLORS[t->hazards && st >= TS_STATE_RUNNING ? 4 : st], "state at tick %" PRId64 ": %s%s",
             sc->snap->tick, ts_thread_state_name(st), t->hazards ? ", HAZARD" : "");
  }
  uint32_t tg[TS_PATTERN_MAX_VECTORS];
  int n = ts_sched_waits(s, pass, id, tg);
  char ws[256] = "";
  for (int i = 0; i < n; i++)
    snprintf(ws + strlen(ws), sizeof ws - strlen(ws), "%s(%u,%u)", i ? " " : "",
             tg[i] % (uint32_t)ps->tw, tg[i] / (uint32_t)ps->tw);
  panel_line(gl, x, &y, WAITS, "waits for: %s", n ? ws : "nothing");
  if (n && dev)
    inspect_device_waits(gl, sc, x, &y, pass, id, tg, n);
  else if (n)
    panel_line(gl, x, &y, WHITE, "  %s at its start tick", "all finished");
  size_t nh = 0;
  const ts_hazard *hz = dev ? NULL : ts_run_hazards(sc->run, &nh);
  ws[0] = 0;
  int nhz = 0;
  for (size_t i = 0; i < nh; i++)
    if (hz[i].pass == pass && hz[i].consumer == id && nhz++ < 6)
      snprintf(ws + strlen(ws), sizeof ws - strlen(ws), "%s(%u,%u)", nhz > 1 ? " " : "",
               hz[i].producer % (uint32_t)ps->tw, hz[i].producer / (uint32_t)ps->tw);
  if (nhz)
    panel_line(gl, x, &y, WARN, "read before they finished: %s", ws);
  /* The observation: who wrote the hovered pixel, and what the thread really touched. */
  float bottom = gl->panel_bottom; /* the legend's top (set by the panel) */
  const vw_obs *o = sc->obs;
  int wp;
  uint32_t wid;
  int wrote = o && sc->hover_pane >= 0
                  ? vw_observed_writer(o, sc->run, sc->pass, sc->hover_x, sc->hover_y, &wp, &wid)
                  : -1;
  if (wrote >= 0 && y + (float)gl->g.font[FONT_UI].height <= bottom) {
    if (wrote == 1)
      panel_line(gl, x, &y, WHITE, "pixel (%d,%d) last written by (%u,%u)", (int)sc->hover_x,
                 (int)sc->hover_y, wid % (uint32_t)s->pass[wp].tw, wid / (uint32_t)s->pass[wp].tw);
    else
      panel_line(gl, x, &y, WARN, "pixel (%d,%d): no thread wrote it", (int)sc->hover_x,
                 (int)sc->hover_y);
  }
  if (o) {
    inspect_observed(gl, sc, x, &y, bottom, pass, id);
  } else if (sc->snap->on_cl && !dev && y + (float)gl->g.font[FONT_UI].height <= bottom) {
    char why[600];
    scene_obs_why_not(sc, why, sizeof why);
    panel_line(gl, x, &y, DIM, "%s", why);
  }
  *yp = y;
}

/* The legend of the order and depth overlays: a ramp from 0 to its largest value. */
static void legend_ramp(vw_gl *gl, const vw_scene *s, float x, float ly, int mode)
{
  const vw_rect *r = &s->panel;
  const ts_dev_run *dev = s->dev;
  static const float stops[5][3] = { { 0.18f, 0.05f, 0.45f }, { 0.12f, 0.35f, 0.75f },
                                     { 0.10f, 0.65f, 0.62f }, { 0.45f, 0.82f, 0.30f },
                                     { 0.99f, 0.90f, 0.15f } };
  float bw = r->w - 140;
  for (int i = 0; i < 64; i++) {
    float t = (float)i / 63 * 4;
    int k = (int)fminf(3, floorf(t));
    float f = t - (float)k;
    gfx_color c = { stops[k][0] + (stops[k + 1][0] - stops[k][0]) * f,
                    stops[k][1] + (stops[k + 1][1] - stops[k][1]) * f,
                    stops[k][2] + (stops[k + 1][2] - stops[k][2]) * f, 1 };
    gfx_rect(&gl->g, x + 30 + bw * (float)i / 64, ly + 2, bw / 64 + 1, 12, c);
  }
  uint32_t mx = 0;
  if (s->sched) {
    const ts_pass_sched *ps = &s->sched->pass[s->pass];
    if (mode == OV_ORDER)
      mx = ps->n - 1;
    else
      for (uint32_t i = 0; i < ps->n; i++)
        mx = (uint32_t)ps->t[i].depth > mx ? (uint32_t)ps->t[i].depth : mx;
  }
  gfx_text(&gl->g, FONT_UI, x, ly, WHITE, "0");
  if (dev && mode == OV_DEPTH) {
    const ts_dev_pass *dp = &dev->pass[s->pass];
    uint64_t mw = 0;
    for (uint32_t i = 0; i < dp->n; i++)
      mw = dp->rec[i].waited - dp->rec[i].start > mw ? dp->rec[i].waited - dp->rec[i].start : mw;
    char t[32];
    if (dev->clock_ns)
      draw_fmt_dev_time(dev, mw, t, sizeof t);
    else
      snprintf(t, sizeof t, "%" PRIu64, mw);
    gfx_text(&gl->g, FONT_UI, x + 36 + bw, ly, WHITE, t);
  } else {
    gfx_textf(&gl->g, FONT_UI, x + 36 + bw, ly, WHITE, "%u", mx);
  }
  gfx_text(&gl->g, FONT_SMALL, x + 30, ly + 17, DIM,
           dev ? (mode != OV_ORDER ? "time waiting: from its start to the end of its wait"
                  : s->mode == OV_SLOT ? "one lane: groups ran one at a time; hues: their order"
                                       : "observed order: rank of each group's start on the device")
               : mode == OV_ORDER ? "dispatch index (first to last)" : "depth: dependency wave");
}

/* English's ending of the ordinal n (1st, 2nd, 3rd, 4th, 11th, 22nd). */
static const char *ordinal(int n)
{
  if (n % 100 >= 11 && n % 100 <= 13)
    return "th";
  return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

/* The legend of the overlay, at the bottom of the panel. */
static void draw_legend(vw_gl *gl, const vw_scene *s, float x)
{
  const vw_rect *r = &s->panel;
  gfx_color head = ACCENT;
  const ts_dev_run *dev = s->dev;
  float ly = r->y + r->h - 64;
  gfx_rect(&gl->g, r->x + 8, ly - 6, r->w - 16, 1, DIM);
  /* The tile grid as the output shows it: every tile's, every Nth line where tiles are small
   * on screen, or none without an overlay to draw it on. */
  char grid[64];
  int nx, ny;
  if (!s->tile_grid)
    snprintf(grid, sizeof grid, "tile grid off [g]");
  else if (!draw_grid_step(s, &nx, &ny) && s->run)
    snprintf(grid, sizeof grid, "tile grid [g]: needs an overlay");
  else if (!s->run || (nx == 1 && ny == 1))
    snprintf(grid, sizeof grid, "tile grid on [g]");
  else if (nx == ny)
    snprintf(grid, sizeof grid, "tile grid [g]: every %d%s line", nx, ordinal(nx));
  else if (ny == 1 || nx == 1)
    snprintf(grid, sizeof grid, "tile grid [g]: every %d%s %s", nx > ny ? nx : ny,
             ordinal(nx > ny ? nx : ny), ny == 1 ? "across" : "down");
  else
    snprintf(grid, sizeof grid, "tile grid [g]: every %d%s/%d%s", nx, ordinal(nx), ny, ordinal(ny));
  gfx_textf(&gl->g, FONT_UI, x, ly, head, "overlay: %s [o]   %s", overlay_name(s->mode, dev != NULL),
            grid);
  ly += 20;
  if (s->mode == OV_STATE) {
    float lx = x;
    /* A look-back's groups never wait before their aggregate is out: "published" (its
     * aggregate out, not finished) in place of "waiting". The last entry is "wrong". */
    static const int lookback_states[4] = { TS_STATE_PENDING, TS_STATE_RUNNING,
                                            VW_DEV_PUBLISHED, TS_STATE_DONE };
    int lookback = dev && dev->pass[s->pass].lookback;
    for (int i = 0; i < 5; i++) {
      int st = lookback && i < 4 ? lookback_states[i] : i;
      gfx_color c = !dev || i == 4 ? STATE_COLORS[i] : dev_state_color(st);
      const char *name = !dev ? STATE_NAMES[i] : i == 4 ? DEV_STATE_NAMES[4] : dev_state_name(st);
      gfx_rect(&gl->g, lx, ly + 2, 12, 12, c);
      lx += 16 + gfx_text(&gl->g, FONT_UI, lx + 16, ly, WHITE, name) + 10;
    }
    if (dev)
      gfx_text(&gl->g, FONT_SMALL, x, ly + 17, DIM,
               "wrong: a finished tile that differs from the reference (hatched)");
  } else if (s->mode == OV_ORDER || s->mode == OV_DEPTH) {
    legend_ramp(gl, s, x, ly, (int)s->mode);
  } else if (s->mode == OV_SLOT && dev && dev->lanes <= 1) {
    legend_ramp(gl, s, x, ly, OV_ORDER); /* one lane: the order instead (draw_panes.c) */
  } else if (s->mode == OV_SLOT && dev) {
    gfx_textf(&gl->g, FONT_UI, x, ly, WHITE, "one hue per %s (%d)",
              vw_dev_has_units(dev) ? "compute unit" : "logical lane", dev->lanes);
    if (!vw_dev_has_units(dev))
      gfx_text(&gl->g, FONT_SMALL, x, ly + 17, DIM,
               "no unit ids here: lanes hold the groups that overlapped");
  } else if (s->mode == OV_OBSERVED) {
    const vw_obs *o = s->obs;
    if (o) {
      float lx = x;
      for (int i = 0; i < VW_OBS_KINDS; i++) {
        char item[48];
        snprintf(item, sizeof item, "%s %u", OBS_NAMES[i], o->flagged[i]);
        gfx_rect(&gl->g, lx, ly + 2, 12, 12, OBS_COLORS[i]);
        lx += 16 + gfx_text(&gl->g, FONT_UI, lx + 16, ly, o->flagged[i] ? WHITE : DIM, item) + 10;
      }
      gfx_text(&gl->g, FONT_SMALL, x, ly + 17, DIM,
               "threads the observed accesses flag; striped: several; dark: clean");
    } else {
      char why[600];
      scene_obs_why_not(s, why, sizeof why);
      float wy = ly; /* (two lines at most: the second is the legend's small one) */
      panel_wrap_font(gl, FONT_UI, x, &wy, ly + 36, DIM, why);
    }
  } else if (s->mode == OV_SLOT) {
    gfx_text(&gl->g, FONT_UI, x, ly, WHITE, "one hue per resident thread slot");
  } else {
    gfx_text(&gl->g, FONT_UI, x, ly, DIM, "no overlay");
  }
}

/* The panel's text, bars and legend; its background is in the frame cache. */
void draw_panel(vw_gl *gl, const vw_scene *s)
{
  const vw_rect *r = &s->panel;
  float x = r->x + 12, y = r->y + 10;
  const ts_variant *var = s->variant;
  gfx_color head = ACCENT;
  /* a user kernel without equals= is checked against no filter */
  panel_line(gl, x, &y, head, "%s  (%s)   [v]", var->name,
             var->unchecked ? "unchecked user kernel" : ts_filter_name(var->filter));
  panel_line(gl, x, &y, DIM, "%s", var->summary);
  y += 6;
  draw_split_block(gl, s, x, &y); /* the split view's two runs side by side, when open */
  if (!s->run) {
    panel_line(gl, x, &y, s->snap->error[0] ? WARN : DIM, "%s",
               s->snap->error[0] ? s->snap->error : "working...");
  } else {
    panel_schedule(gl, s, x, &y);
    y += 6;
    if (s->dev)
      draw_device_block(gl, s, x, &y);
    else
      draw_memory(gl, s, x, &y);
    y += 6;
    panel_backend(gl, s, x, &y);
  }
  panel_build_log(gl, s, x, &y);
  /* The inspector; in the split view, of the half it describes (the right half's run is the
   * twin's). */
  y += 8;
  gfx_rect(&gl->g, r->x + 8, y - 4, r->w - 16, 1, DIM);
  const vw_scene *is = s->inspects_right ? s->twin : s;
  if (s->twin)
    panel_line(gl, x, &y, head, "inspector   %s half", is == s ? "left" : "right");
  else
    panel_line(gl, x, &y, head, "inspector");
  gl->panel_bottom = r->y + r->h - 72; /* the legend's top */
  inspect_pixel(gl, is, x, &y);
  if (is->focus) {
    inspect_thread(gl, is, x, &y, is->focus_pass, is->focus_id);
  } else if (y < r->y + r->h - 140) {
    panel_line(gl, x, &y, DIM, "hover a tile; click to select the thread");
    panel_line(gl, x, &y, DIM, "that wrote a pixel. h: help");
  }
  gl->panel_bottom = 0;
  draw_legend(gl, s, x);
}
