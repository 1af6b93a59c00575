/* Viewer scripts: a plain-text list of actions played in order, for recorded demos and for
 * tests. One action per line; '#' starts a comment.
 *   key NAME [shift]        press a key (a letter, digit, [ ] + -, space, left, right, home,
 *                           end, escape, f1)
 *   move X Y [input|right]  hover image point (X, Y) on the output (or the input) pane, or
 *                           on the split view's right half
 *   click X Y [right]       select the thread that wrote output pixel (X, Y) (in the split
 *                           view's right half: the thread of the right half's run)
 *   tick N | end            go to a tick;      wait N     draw N frames (a pause; in
 *                           `shot -o OUT.gif` one frame of the animation, shown N/60 s)
 *   devtime T | P% | end    in the device view, go to device time T (the record's unit) or P%
 *   variant NAME, pattern NAME, walk NAME, slots N, cost N, backend cl|cpu
 *   overlay MODE, grid on|off, help on|off, zoom Z [X Y], fit
 *   split SPEC | off        the split view: the right half changes pattern=P, walk=W,
 *                           variant=V, slots=N, cost=N, or is the device's run (device)
 *   shot FILE               write a screenshot;  report   print the viewer's state line
 *   expect FIELD VALUE      check a field of the state line (variant, pattern, walk, slots,
 *                           cost, backend, tick, pass, hazards, overlay, selected,
 *                           inspector (the thread the inspector describes), view; in
 *                           the device view also devtime (T/END) and wrong; the observation:
 *                           observe (done, pending, failed, off), and once done footprint,
 *                           writes and conflicts (threads flagged), obs_hazards, chosen; in
 *                           the split view split, right_tick, right_hazards, right_view,
 *                           right_selected, and for a device half right_devtime and
 *                           right_wrong; for a plain kernel source (on, off), finding
 *                           (N/COUNT, none), finding_lines (A,B), finding_groups (A/B),
 *                           src_line, line_groups)
 *   source-line N           a plain kernel: click source line N (its next finding, or it)
 *   expect-pixel X Y V...   check the output's values at pixel (X, Y)
 *   expect-status TEXT...   check that the status line (bottom) holds TEXT
 *   open FILE               open an image as if dropped on the window (waits for the load)
 *   caption TEXT            the caption of what follows (the rest of the line; none: no
 *                           caption): under each frame of `shot -o OUT.gif`, and under each
 *                           pause of the script in a page (`export --html --script`)
 *   quit
 * The whole script is read and checked first (script_parse.c): an unknown action, key, name
 * or field, a missing or extra argument, or a number that is not one or out of range stops it
 * before anything plays. Coordinates lie within 1e6, zoom in 0.02..256, waits up to 100000
 * frames. Every action that looks at the result first waits for the worker to catch up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim.h"
#include "scene_make.h"
#include "script.h"
#include "script_parse.h"
#include "ts_file.h"
#include "viewer.h"
#include "viewer_control.h"
#include "viewer_input.h"
#include "viewer_report.h"
#include "viewer_shot.h"
#include "viewer_source.h"
#include "viewer_split.h"

/* SDL's codes for script_key_names, in the same order. */
static const SDL_Keycode named_keys[SCRIPT_NAMED_KEYS] = {
  SDLK_SPACE, SDLK_LEFT, SDLK_RIGHT, SDLK_HOME, SDLK_END, SDLK_ESCAPE, SDLK_F1, SDLK_PLUS, SDLK_MINUS,
  SDLK_TAB,
};

/* The value of `field` in a report line "a=b c=d ...". */
static int report_field(const char *report, const char *field, char *out, size_t n)
{
  size_t fl = strlen(field);
  for (const char *p = report; (p = strstr(p, field)) != NULL; p++) {
    if ((p == report || p[-1] == ' ') && p[fl] == '=') {
      size_t len = strcspn(p + fl + 1, " ");
      snprintf(out, n, "%.*s", (int)len, p + fl + 1);
      return 1;
    }
  }
  return 0;
}

/* Plays one action; returns the number of failed expectations (0 or more). */
static int play(viewer *v, const char *path, const script_action *a)
{
  char report[2048];
  int failures = 0;
  switch (a->op) {
  case SCRIPT_KEY:
    viewer_key(v, a->key_char ? (SDL_Keycode)a->key_char : named_keys[a->key_name], a->shift);
    break;
  case SCRIPT_MOVE:
  case SCRIPT_CLICK: {
    viewer_sync(v, 60000);
    if (a->right_half && !v->twin) {
      fprintf(stderr, "tilescope: script %s:%d: %s %g %g right: the split view is off\n", path,
              a->line, a->op == SCRIPT_MOVE ? "move" : "click", a->x, a->y);
      return 1;
    }
    float sx, sy;
    vw_scene sc;
    viewer_scene(a->right_half ? v->twin : v, &sc, NULL);
    scene_to_screen(&sc, a->input_pane ? 0 : 1, (float)a->x + 0.5f, (float)a->y + 0.5f, &sx, &sy);
    if (a->op == SCRIPT_MOVE)
      viewer_mouse_move(v, sx, sy);
    else
      viewer_click(v, sx, sy);
    break;
  }
  case SCRIPT_TICK:
    viewer_sync(v, 60000);
    viewer_set_tick(v, a->n == SCRIPT_TICK_END ? INT64_MAX / 4 : a->n);
    break;
  case SCRIPT_DEVTIME: {
    viewer_sync(v, 60000);
    const ts_dev_run *d = viewer_dev(v);
    if (!d) {
      fprintf(stderr, "tilescope: script %s:%d: devtime needs the device view\n", path, a->line);
      return 1;
    }
    viewer_set_dev_time(v, a->n == SCRIPT_TICK_END ? (int64_t)d->t_end
                           : a->percent ? (int64_t)(a->zoom / 100.0 * (double)d->t_end + 0.5)
                                        : a->n);
    break;
  }
  case SCRIPT_VARIANT:
    v->set.variant = a->variant;
    v->set.pattern = ts_variant_at(a->variant)->pattern;
    v->set.walk = ts_pattern_default_walk(v->set.pattern);
    viewer_apply(v);
    break;
  case SCRIPT_PATTERN:
    v->set.pattern = a->pattern;
    v->set.walk = ts_pattern_default_walk(a->pattern);
    viewer_apply(v);
    break;
  case SCRIPT_WALK:
    v->set.walk = a->walk;
    viewer_apply(v);
    break;
  case SCRIPT_SLOTS:
  case SCRIPT_COST:
    *(a->op == SCRIPT_SLOTS ? &v->set.slots : &v->set.cost) = (int)a->n;
    viewer_apply(v);
    break;
  case SCRIPT_BACKEND:
    v->set.use_cl = a->on;
    viewer_apply(v);
    break;
  case SCRIPT_OVERLAY:
    overlay_parse(a->text, &v->mode); /* checked before playing */
    break;
  case SCRIPT_SPLIT:
    viewer_sync(v, 60000);
    if (!a->on) {
      viewer_split_stop(v);
      viewer_relayout(v);
    } else if (!viewer_split_start(v, &a->split)) {
      /* the status names the split ("split device: ...") */
      fprintf(stderr, "tilescope: script %s:%d: %s\n", path, a->line, v->status);
      return 1;
    }
    break;
  case SCRIPT_GRID:
  case SCRIPT_HELP:
    *(a->op == SCRIPT_GRID ? &v->tile_grid : &v->help) = a->on;
    break;
  case SCRIPT_ZOOM:
    v->zoom = (float)a->zoom;
    if (a->have_center) {
      v->cx = (float)a->x;
      v->cy = (float)a->y;
    }
    break;
  case SCRIPT_FIT:
    viewer_key(v, SDLK_f, 0);
    break;
  case SCRIPT_WAIT: {
    viewer_sync(v, 60000);
    /* Recording an animation: the pause is a frame shown as long (N frames at 60 Hz). */
    if (v->anim && !v->anim_failed)
      viewer_anim_frame(v, v->anim, (int)((a->n * 100 + 30) / 60));
    /* Offscreen nobody watches: one frame stands for the pause. */
    int frames = v->offscreen ? 1 : (int)a->n;
    for (int i = 0; i < frames && !v->quit; i++)
      viewer_frame(v, 1);
    break;
  }
  case SCRIPT_SHOT:
    viewer_sync(v, 60000);
    if (!viewer_screenshot(v, a->text, NULL))
      failures++;
    break;
  case SCRIPT_REPORT:
    viewer_sync(v, 60000);
    viewer_report(v, report, sizeof report);
    printf("%s\n", report);
    fflush(stdout); /* a test may act on it while the script goes on */
    break;
  case SCRIPT_EXPECT: {
    viewer_sync(v, 60000);
    viewer_report(v, report, sizeof report);
    char got[256] = "";
    report_field(report, a->text, got, sizeof got);
    if (strcmp(got, a->value) != 0) {
      fprintf(stderr, "tilescope: script %s:%d: expected %s=%s, got %s=%s\n", path, a->line,
              a->text, a->value, a->text, got);
      failures++;
    }
    break;
  }
  case SCRIPT_EXPECT_PIXEL: {
    viewer_sync(v, 60000);
    int x = (int)a->x, y = (int)a->y;
    if (v->plain) {
      /* a plain kernel's output as shown (its 8-bit image) */
      const ts_image *o = v->plain->res ? v->plain->res->out : NULL;
      if (!o || x < 0 || y < 0 || x >= o->w || y >= o->h) {
        fprintf(stderr, "tilescope: script %s:%d: no output pixel (%d,%d)%s\n", path, a->line, x,
                y, o ? "" : ": the plain kernel has no run");
        return 1;
      }
      if (a->nvalues > o->c) {
        fprintf(stderr, "tilescope: script %s:%d: expect-pixel gives %d values, the output has %d "
                "channel%s\n", path, a->line, a->nvalues, o->c, o->c == 1 ? "" : "s");
        return 1;
      }
      for (int c = 0; c < a->nvalues; c++) {
        unsigned got = o->data[((size_t)y * (size_t)o->w + (size_t)x) * (size_t)o->c + (size_t)c];
        if (got != a->values[c]) {
          fprintf(stderr, "tilescope: script %s:%d: pixel (%d,%d) channel %d is %u, expected %u\n",
                  path, a->line, x, y, c, got, (unsigned)a->values[c]);
          failures++;
        }
      }
      break;
    }
    const ts_kctx *k = v->snap.run ? ts_run_kctx(v->snap.run) : NULL;
    viewer_want_values(v, x, y, x + 1, y + 1);
    vw_scene sc;
    viewer_scene(v, &sc, NULL);
    const uint8_t *px = scene_out_px(&sc, x, y);
    if (!k || !px) {
      fprintf(stderr, "tilescope: script %s:%d: no output pixel (%d,%d)\n", path, a->line, x, y);
      return 1;
    }
    int wide = k->buf[TS_BUF_OUT].esize == 4, channels = wide ? 1 : k->C;
    if (a->nvalues > channels) {
      fprintf(stderr, "tilescope: script %s:%d: expect-pixel gives %d values, the output has %d "
              "channel%s\n", path, a->line, a->nvalues, channels, channels == 1 ? "" : "s");
      return 1;
    }
    for (int c = 0; c < a->nvalues; c++) {
      unsigned long want = a->values[c], got;
      uint32_t sum;
      if (wide) {
        memcpy(&sum, px, sizeof sum);
        got = sum;
      } else {
        got = px[c];
      }
      if (got != want) {
        fprintf(stderr, "tilescope: script %s:%d: pixel (%d,%d) channel %d is %lu, expected %lu\n",
                path, a->line, x, y, c, got, want);
        failures++;
      }
    }
    break;
  }
  case SCRIPT_OPEN: {
    viewer_open(v, a->text);
    uint32_t t0 = SDL_GetTicks();
    while (v->load_pending && SDL_GetTicks() - t0 < 60000) {
      viewer_frame(v, 1);
      SDL_Delay(1);
    }
    break;
  }
  case SCRIPT_COPY: {
    /* a file saved over another, as an editor saves it; the window sees the change as it
     * sees an edit, and the script waits for what it rebuilt */
    uint8_t *data = NULL;
    size_t len = 0;
    ts_error err = { 0 };
    ts_outfile of;
    ts_status st = ts_file_read_all(a->text, 64u << 20, &data, &len, &err);
    if (st == TS_OK && (st = ts_outfile_open(&of, a->value, &err)) == TS_OK) {
      fwrite(data, 1, len, of.f);
      st = ts_outfile_commit(&of, &err);
    }
    free(data);
    if (st != TS_OK) {
      fprintf(stderr, "tilescope: script %s:%d: copy: %s\n", path, a->line, err.msg);
      failures++;
      break;
    }
    if (viewer_poll_files(v))
      viewer_sync(v, 60000);
    break;
  }
  case SCRIPT_EXPECT_STATUS:
    viewer_sync(v, 60000); /* and with it the note of the last snapshot */
    if (!strstr(v->status, a->text)) {
      fprintf(stderr, "tilescope: script %s:%d: expected the status line to hold '%s', it says '%s'\n",
              path, a->line, a->text, v->status);
      failures++;
    }
    break;
  case SCRIPT_SOURCE_LINE:
    viewer_sync(v, 60000);
    if (!v->plain) {
      fprintf(stderr, "tilescope: script %s:%d: source-line goes with a plain kernel\n", path,
              a->line);
      return 1;
    }
    viewer_source_line(v, (int)a->n);
    break;
  case SCRIPT_QUIT:
    v->quit = 1;
    break;
  case SCRIPT_CAPTION:
    /* recording an animation: the frames from here on carry it in a strip under them */
    if (v->anim && !v->anim_failed && !anim_caption(v->anim, a->text)) {
      fprintf(stderr, "tilescope: script %s:%d: out of memory for the caption\n", path, a->line);
      v->anim_failed = 1;
    }
    break;
  }
  return failures;
}

int script_run(viewer *v, const char *path)
{
  uint8_t *text = NULL;
  size_t len = 0;
  ts_error err = { 0 };
  if (ts_file_read_all(path, SCRIPT_MAX_BYTES, &text, &len, &err) != TS_OK) {
    fprintf(stderr, "tilescope: --script: %s\n", err.msg);
    return -1;
  }
  script s;
  char msg[1400];
  int ok = script_parse((const char *)text, len, path, &s, msg, sizeof msg);
  free(text);
  if (!ok) {
    fprintf(stderr, "tilescope: script %s\n", msg);
    return -1;
  }
  overlay_mode mode;
  for (int i = 0; i < s.n; i++)
    if (s.act[i].op == SCRIPT_OVERLAY && !overlay_parse(s.act[i].text, &mode)) {
      fprintf(stderr, "tilescope: script %s:%d: unknown overlay '%.64s'\n", path, s.act[i].line,
              s.act[i].text);
      script_free(&s);
      return -1;
    }
  int failures = 0;
  for (int i = 0; i < s.n && !v->quit; i++)
    failures += play(v, path, &s.act[i]);
  script_free(&s);
  viewer_sync(v, 60000);
  return failures;
}
