/* Drawing text that belongs to no one panel: the side panel's lines (cut or wrapped to its
 * width), the titles over the panes, the help overlay, and device times in one unit for the
 * whole run. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "colors.h"
#include "draw_text.h"

void text_fit_middle(const char *text, size_t fits, char *out, size_t n)
{
  size_t len = strlen(text);
  if (len <= fits || fits < 8) {
    snprintf(out, n, "%.*s", (int)(len <= fits ? len : fits), text);
    return;
  }
  /* The start says what it is, the end which one: keep a little more of the start. */
  size_t tail = (fits - 3) / 2, head = fits - 3 - tail;
  snprintf(out, n, "%.*s...%s", (int)head, text, text + len - tail);
}

/* One line of text at (x, *y) unless it would pass the panel's bottom; *y moves down. */
static float panel_put(vw_gl *gl, float x, float *y, gfx_color c, const char *text)
{
  float lh = (float)gl->g.font[FONT_UI].height;
  float w = gl->panel_bottom > 0 && *y + lh > gl->panel_bottom ? 0 : gfx_text(&gl->g, FONT_UI, x, *y, c, text);
  *y += lh;
  return w;
}

float panel_line(vw_gl *gl, float x, float *y, gfx_color c, const char *fmt, ...)
{
  char buf[512], line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  size_t fits = (size_t)((PANEL_TEXT_W) / (float)gl->g.font[FONT_UI].advance);
  size_t len = strlen(buf);
  if (len <= fits)
    return panel_put(gl, x, y, c, buf);
  /* Too long: broken at the last space that leaves at least half a line, the rest indented
   * on a second line (shortened in its middle if it is still too long). A line with no such
   * space, or near the bottom of the inspector (where a second line would push the last ones
   * out), is shortened in its middle. */
  size_t cut = fits;
  while (cut > fits / 2 && buf[cut] != ' ')
    cut--;
  float lh = (float)gl->g.font[FONT_UI].height;
  int room = gl->panel_bottom <= 0 || *y + 6 * lh <= gl->panel_bottom;
  if (buf[cut] != ' ' || !room) {
    text_fit_middle(buf, fits, line, sizeof line);
    return panel_put(gl, x, y, c, line);
  }
  snprintf(line, sizeof line, "%.*s", (int)cut, buf);
  float w = panel_put(gl, x, y, c, line);
  const char *rest = buf + cut;
  while (*rest == ' ')
    rest++;
  char more[520];
  snprintf(more, sizeof more, "  %s", rest);
  text_fit_middle(more, fits, line, sizeof line);
  float w2 = panel_put(gl, x, y, c, line);
  return w > w2 ? w : w2;
}

void draw_clip_rect(vw_gl *gl, const vw_rect *c, float x, float y, float w, float h,
                    gfx_color col)
{
  float x0 = fmaxf(x, c->x), y0 = fmaxf(y, c->y);
  float x1 = fminf(x + w, c->x + c->w), y1 = fminf(y + h, c->y + c->h);
  if (x1 > x0 && y1 > y0)
    gfx_rect(&gl->g, x0, y0, x1 - x0, y1 - y0, col);
}

const char *draw_cl_device(const char *device)
{
  const char *label = getenv("TILESCOPE_DEVICE_LABEL");
  return label && *label ? label : device;
}

void draw_device_heading(vw_gl *gl, float x, float *y, const char *heading, const char *device)
{
  char name[320], platform[320] = "", line[320];
  snprintf(name, sizeof name, "%s", device);
  /* The worker's words are "NAME (PLATFORM)": apart, each is shorter than the two. */
  char *open = strrchr(name, '(');
  size_t n = strlen(name);
  if (open && open > name + 1 && open[-1] == ' ' && name[n - 1] == ')') {
    snprintf(platform, sizeof platform, "%.*s", (int)(name + n - 1 - open - 1), open + 1);
    open[-1] = 0;
  }
  int adv = gl->g.font[FONT_UI].advance;
  size_t fits = (size_t)(PANEL_TEXT_W / (float)adv);
  float lh = (float)gl->g.font[FONT_UI].height;
  /* Beside the heading: the platform, or a name without one ("CPU model") where it fits. */
  size_t room = fits > strlen(heading) + 3 ? fits - strlen(heading) - 3 : 0;
  int one_line = !platform[0] && strlen(name) <= room;
  if (gl->panel_bottom <= 0 || *y + lh <= gl->panel_bottom) {
    float w = gfx_text(&gl->g, FONT_UI, x, *y, ACCENT, heading) + 3 * (float)adv;
    if (one_line) {
      gfx_text(&gl->g, FONT_UI, x + w, *y, WHITE, name);
    } else if (platform[0] && room >= 8) {
      text_fit_middle(platform, room, line, sizeof line);
      gfx_text(&gl->g, FONT_UI, x + w, *y, DIM, line);
    }
  }
  *y += lh;
  if (one_line)
    return;
  text_fit_middle(name, fits, line, sizeof line);
  panel_line(gl, x, y, WHITE, "%s", line);
}

int panel_wrap_font(vw_gl *gl, int font, float x, float *y, float bottom, gfx_color c,
                    const char *text)
{
  size_t fits = (size_t)(PANEL_TEXT_W / (float)gl->g.font[font].advance);
  float lh = (float)gl->g.font[font].height;
  int lines = 0;
  while (*text && *y + lh <= bottom) {
    size_t n = strlen(text);
    if (n > fits) {
      n = fits;
      while (n > 0 && text[n] != ' ')
        n--;
      if (n == 0)
        n = fits;
    }
    gfx_textf(&gl->g, font, x, *y, c, "%.*s", (int)n, text);
    *y += lh;
    lines++;
    text += n;
    while (*text == ' ')
      text++;
  }
  return lines;
}

void panel_wrap(vw_gl *gl, float x, float *y, gfx_color c, const char *text)
{
  panel_wrap_font(gl, FONT_UI, x, y, 1e9f, c, text);
}

/* Device times in one unit for the whole run, chosen by its length. */
void draw_fmt_dev_time(const ts_dev_run *d, uint64_t t, char *out, size_t n)
{
  if (!d->clock_ns)
    snprintf(out, n, "event %" PRIu64, t);
  else if (d->t_end < 10000)
    snprintf(out, n, "%" PRIu64 " ns", t);
  else if (d->t_end < 10000000)
    snprintf(out, n, "%.2f us", (double)t * 1e-3);
  else
    snprintf(out, n, "%.3f ms", (double)t * 1e-6);
}

void draw_help(vw_gl *gl, const vw_scene *s)
{
  static const char *const lines[] = {
    "space      play / pause",          "left right step one tick (shift: 10)",
    "home end   first / last tick",     "+ -        play speed",
    "v V        next / previous variant", "p P        cycle dependency pattern",
    "w W        cycle walk",            "[ ]        halve / double the slots",
    "c C        cost per thread up / down", "b          back end: OpenCL / CPU model",
    "d          device view / simulated view", "D          the adversary of device runs: on / off",
    "tab        a plain kernel's next pass",
    "l          a plain kernel's source pane",
    "n N        its next / previous finding",
    "x          split: two schedules side by side",
    "r          reload the kernels",    "o O        overlay: state order depth slot observed",
    "g          tile grid",             "f 1        fit / one to one",
    "wheel drag zoom about the cursor / pan", "click      select the thread that wrote a pixel",
    "s          screenshot",            "h F1       this help",
    "q esc      quit",                  "drop a PNG on the window to open it",
  };
  int n = (int)(sizeof lines / sizeof lines[0]);
  float lh = (float)gl->g.font[FONT_UI].height;
  float w = 460, h = lh * (float)n + 56;
  float x = ((float)s->width - w) / 2, y = ((float)s->height - h) / 2;
  gfx_rect(&gl->g, x, y, w, h, gfx_rgba(0.05f, 0.06f, 0.08f, 0.93f));
  gfx_frame(&gl->g, x, y, w, h, 1, ACCENT);
  gfx_text(&gl->g, FONT_UI, x + 16, y + 12, ACCENT, "tilescope keys");
  for (int i = 0; i < n; i++)
    gfx_text(&gl->g, FONT_UI, x + 16, y + 40 + lh * (float)i, WHITE, lines[i]);
}

/* Titles over the panes: the input's name, size and zoom; the output's tick (or device time)
 * and pass, or the error of a run that could not be made, wrapped to the pane. */
void draw_titles(vw_gl *gl, const vw_scene *s)
{
  const vw_rect *rin = &s->pane[0], *rout = &s->pane[1];
  gfx_rect(&gl->g, 0, 0, rin->w + rout->w + 2, rin->y, PANEL);
  const char *slash = strrchr(s->input_name, '/');
  if (s->input) {
    /* the longest of these that fits the pane, so that the zoom stays in sight */
    const char *name = slash ? slash + 1 : s->input_name;
    const ts_image *im = s->input;
    char t[4][600];
    snprintf(t[0], sizeof t[0], "input  %s  %dx%d, %d channel%s   zoom %.0f%%", name, im->w,
             im->h, im->c, im->c > 1 ? "s" : "", s->zoom * 100);
    snprintf(t[1], sizeof t[1], "input  %s  %dx%dx%d  zoom %.0f%%", name, im->w, im->h, im->c,
             s->zoom * 100);
    snprintf(t[2], sizeof t[2], "%s  %dx%dx%d  %.0f%%", name, im->w, im->h, im->c,
             s->zoom * 100);
    snprintf(t[3], sizeof t[3], "zoom %.0f%%  %s", s->zoom * 100, name);
    int k = 0;
    while (k < 3 && (float)gfx_text_width(&gl->g, FONT_UI, t[k]) > rin->w - 12)
      k++;
    gfx_textf(&gl->g, FONT_UI, rin->x + 8, 4, WHITE, "%s", t[k]);
  }
  /* A long input title stops at its pane. */
  gfx_rect(&gl->g, rout->x - 2, 0, rout->w + 2, rin->y, PANEL);
  const ts_dev_run *dev = s->dev;
  if (dev) {
    char pass[48] = "", tn[32], te[32];
    if (dev->npasses > 1)
      snprintf(pass, sizeof pass, "   pass %d of %d", s->pass + 1, dev->npasses);
    draw_fmt_dev_time(dev, s->dev_time, tn, sizeof tn);
    draw_fmt_dev_time(dev, dev->t_end, te, sizeof te);
    gfx_textf(&gl->g, FONT_UI, rout->x + 8, 4, WHITE, "device at %s / %s%s", tn, te, pass);
  } else if (s->run) {
    char pass[48] = "";
    if (s->sched->npasses > 1)
      snprintf(pass, sizeof pass, "   pass %d of %d", s->pass + 1, s->sched->npasses);
    gfx_textf(&gl->g, FONT_UI, rout->x + 8, 4, WHITE, "output at tick %" PRId64 " / %" PRId64 "%s",
              s->snap->tick, s->sched->length, pass);
  } else if (s->have_snap && s->snap->error[0]) {
    /* The error, wrapped to the pane. */
    int fits = (int)((rout->w - 24) / (float)gl->g.font[FONT_UI].advance);
    const char *e = s->snap->error;
    for (float ey = rout->y + 12; *e && fits > 8; ey += (float)gl->g.font[FONT_UI].height) {
      int take = (int)strlen(e) > fits ? fits : (int)strlen(e);
      gfx_textf(&gl->g, FONT_UI, rout->x + 12, ey, WARN, "%.*s", take, e);
      e += take;
    }
  }
  gfx_rect(&gl->g, rin->x + rin->w, 0, 2, rin->y + rin->h, BG);
}
