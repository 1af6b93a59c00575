/* Viewer scripts: a plain-text list of actions played in order, for recorded demos and for
 * tests. One action per line; '#' starts a comment.
 *   key NAME [shift]        press a key (a letter, digit, [ ] + -, space, left, right, home,
 *                           end, escape, f1)
 *   move X Y [input]        hover image point (X, Y) on the output (or the input) pane
 *   click X Y               select the thread that wrote output pixel (X, Y)
 *   tick N | end            go to a tick;      wait N     draw N frames (a pause)
 *   devtime T | P% | end    in the device view, go to device time T (the record's unit) or P%
 *   variant NAME, pattern NAME, walk NAME, slots N, cost N, backend cl|cpu
 *   overlay MODE, grid on|off, help on|off, zoom Z [X Y], fit
 *   shot FILE               write a screenshot;  report   print the viewer's state line
 *   expect FIELD VALUE      check a field of the state line (variant, pattern, walk, slots,
 *                           cost, backend, tick, pass, hazards, overlay, selected, view; in
 *                           the device view also devtime (T/END) and wrong)
 *   expect-pixel X Y V...   check the output's values at pixel (X, Y)
 *   quit
 * Every action that looks at the result first waits for the worker to catch up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viewer.h"

static SDL_Keycode key_code(const char *name)
{
  static const struct { const char *name; SDL_Keycode key; } named[] = {
    { "space", SDLK_SPACE }, { "left", SDLK_LEFT }, { "right", SDLK_RIGHT },
    { "home", SDLK_HOME },   { "end", SDLK_END },   { "escape", SDLK_ESCAPE },
    { "f1", SDLK_F1 },       { "plus", SDLK_PLUS }, { "minus", SDLK_MINUS },
  };
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (strcmp(name, named[i].name) == 0)
      return named[i].key;
  if (strlen(name) == 1 && (name[0] >= 'a' && name[0] <= 'z'))
    return (SDL_Keycode)name[0];
  if (strlen(name) == 1 && strchr("0123456789[]+-=", name[0]))
    return (SDL_Keycode)name[0];
  return SDLK_UNKNOWN;
}

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

static int bad(const char *path, int line, const char *what, const char *arg)
{
  fprintf(stderr, "tilescope: script %s:%d: %s '%s'\n", path, line, what, arg);
  return -1;
}

int script_run(viewer *v, const char *path)
{
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "tilescope: cannot open script '%s'\n", path);
    return -1;
  }
  char buf[1024];
  int line = 0, failures = 0;
  while (fgets(buf, sizeof buf, f) && !v->quit) {
    line++;
    char *hash = strchr(buf, '#');
    if (hash)
      *hash = 0;
    char *argv[8];
    int argc = 0;
    for (char *tok = strtok(buf, " \t\r\n"); tok && argc < 8; tok = strtok(NULL, " \t\r\n"))
      argv[argc++] = tok;
    if (argc == 0)
      continue;
    const char *cmd = argv[0];
    char report[1024];
    if (strcmp(cmd, "key") == 0 && argc >= 2) {
      SDL_Keycode k = key_code(argv[1]);
      if (k == SDLK_UNKNOWN) {
        fclose(f);
        return bad(path, line, "unknown key", argv[1]);
      }
      viewer_key(v, k, argc > 2 && strcmp(argv[2], "shift") == 0);
    } else if ((strcmp(cmd, "move") == 0 || strcmp(cmd, "click") == 0) && argc >= 3) {
      viewer_sync(v, 60000);
      int pane = argc > 3 && strcmp(argv[3], "input") == 0 ? 0 : 1;
      float sx, sy;
      viewer_image_to_screen(v, pane, (float)atof(argv[1]) + 0.5f, (float)atof(argv[2]) + 0.5f, &sx, &sy);
      if (cmd[0] == 'm')
        viewer_mouse_move(v, sx, sy);
      else
        viewer_click(v, sx, sy);
    } else if (strcmp(cmd, "tick") == 0 && argc == 2) {
      viewer_sync(v, 60000);
      viewer_set_tick(v, strcmp(argv[1], "end") == 0 ? INT64_MAX / 4 : atoll(argv[1]));
    } else if (strcmp(cmd, "devtime") == 0 && argc == 2) {
      viewer_sync(v, 60000);
      const ts_dev_run *d = viewer_dev(v);
      char *end;
      double t = strtod(argv[1], &end);
      if (!d) {
        fprintf(stderr, "tilescope: script %s:%d: devtime needs the device view\n", path, line);
        failures++;
      } else if (strcmp(argv[1], "end") == 0) {
        viewer_set_dev_time(v, (int64_t)d->t_end);
      } else if (end != argv[1] && strcmp(end, "%") == 0) {
        viewer_set_dev_time(v, (int64_t)(t / 100.0 * (double)d->t_end + 0.5));
      } else if (end != argv[1] && !*end) {
        viewer_set_dev_time(v, (int64_t)t);
      } else {
        fclose(f);
        return bad(path, line, "bad device time", argv[1]);
      }
    } else if (strcmp(cmd, "variant") == 0 && argc == 2) {
      const ts_variant *var = ts_variant_find(argv[1]);
      int i = 0;
      while (var && ts_variant_at(i) != var)
        i++;
      if (!var) {
        fclose(f);
        return bad(path, line, "unknown variant", argv[1]);
      }
      v->set.variant = i;
      v->set.pattern = var->pattern;
      v->set.walk = ts_pattern_default_walk(var->pattern);
      viewer_apply(v);
    } else if (strcmp(cmd, "pattern") == 0 && argc == 2) {
      if (!ts_pattern_parse(argv[1], &v->set.pattern)) {
        fclose(f);
        return bad(path, line, "unknown pattern", argv[1]);
      }
      v->set.walk = ts_pattern_default_walk(v->set.pattern);
      viewer_apply(v);
    } else if (strcmp(cmd, "walk") == 0 && argc == 2) {
      if (!ts_walk_parse(argv[1], &v->set.walk)) {
        fclose(f);
        return bad(path, line, "unknown walk", argv[1]);
      }
      viewer_apply(v);
    } else if ((strcmp(cmd, "slots") == 0 || strcmp(cmd, "cost") == 0) && argc == 2) {
      int n = atoi(argv[1]);
      if (n < 1 || n > (cmd[0] == 's' ? TS_SLOTS_MAX : TS_COST_MAX)) {
        fclose(f);
        return bad(path, line, "out of range", argv[1]);
      }
      *(cmd[0] == 's' ? &v->set.slots : &v->set.cost) = n;
      viewer_apply(v);
    } else if (strcmp(cmd, "backend") == 0 && argc == 2) {
      v->set.use_cl = strcmp(argv[1], "cl") == 0;
      viewer_apply(v);
    } else if (strcmp(cmd, "overlay") == 0 && argc == 2) {
      if (!overlay_parse(argv[1], &v->mode)) {
        fclose(f);
        return bad(path, line, "unknown overlay", argv[1]);
      }
    } else if ((strcmp(cmd, "grid") == 0 || strcmp(cmd, "help") == 0) && argc == 2) {
      *(cmd[0] == 'g' ? &v->tile_grid : &v->help) = strcmp(argv[1], "on") == 0;
    } else if (strcmp(cmd, "zoom") == 0 && argc >= 2) {
      v->zoom = (float)atof(argv[1]);
      if (argc >= 4) {
        v->cx = (float)atof(argv[2]);
        v->cy = (float)atof(argv[3]);
      }
    } else if (strcmp(cmd, "fit") == 0) {
      viewer_key(v, SDLK_f, 0);
    } else if (strcmp(cmd, "wait") == 0 && argc == 2) {
      viewer_sync(v, 60000);
      /* Offscreen nobody watches: one frame stands for the pause. */
      int frames = v->offscreen ? 1 : atoi(argv[1]);
      for (int i = 0; i < frames && !v->quit; i++)
        viewer_frame(v, 1);
    } else if (strcmp(cmd, "shot") == 0 && argc == 2) {
      viewer_sync(v, 60000);
      if (!viewer_screenshot(v, argv[1]))
        failures++;
    } else if (strcmp(cmd, "report") == 0) {
      viewer_sync(v, 60000);
      viewer_report(v, report, sizeof report);
      printf("%s\n", report);
    } else if (strcmp(cmd, "expect") == 0 && argc == 3) {
      viewer_sync(v, 60000);
      viewer_report(v, report, sizeof report);
      char got[256];
      if (!report_field(report, argv[1], got, sizeof got)) {
        fclose(f);
        return bad(path, line, "unknown field", argv[1]);
      }
      if (strcmp(got, argv[2]) != 0) {
        fprintf(stderr, "tilescope: script %s:%d: expected %s=%s, got %s=%s\n", path, line,
                argv[1], argv[2], argv[1], got);
        failures++;
      }
    } else if (strcmp(cmd, "expect-pixel") == 0 && argc >= 4) {
      viewer_sync(v, 60000);
      int x = atoi(argv[1]), y = atoi(argv[2]);
      const ts_kctx *k = v->snap.run ? ts_run_kctx(v->snap.run) : NULL;
      const uint8_t *out_raw = viewer_out_raw(v);
      if (!k || !out_raw || x < 0 || y < 0 || x >= k->W || y >= k->H) {
        fprintf(stderr, "tilescope: script %s:%d: no output pixel (%d,%d)\n", path, line, x, y);
        failures++;
        continue;
      }
      for (int c = 0; c + 3 < argc; c++) {
        unsigned long want = strtoul(argv[3 + c], NULL, 10), got;
        if (k->buf[TS_BUF_OUT].esize == 4)
          got = ((const uint32_t *)out_raw)[(size_t)y * k->W + x];
        else
          got = out_raw[((size_t)y * k->W + x) * k->C + (c < k->C ? c : k->C - 1)];
        if (got != want) {
          fprintf(stderr, "tilescope: script %s:%d: pixel (%d,%d) channel %d is %lu, expected %lu\n",
                  path, line, x, y, c, got, want);
          failures++;
        }
      }
    } else if (strcmp(cmd, "quit") == 0) {
      v->quit = 1;
    } else {
      fclose(f);
      return bad(path, line, "unknown action", cmd);
    }
  }
  fclose(f);
  viewer_sync(v, 60000);
  return failures;
}
