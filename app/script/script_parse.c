/* Parsing viewer scripts (see script_parse.h): one action per line, every argument checked
 * (numbers whole or finite and in range, names known), so that what plays is what the
 * script says and nothing it says reaches the viewer out of range. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "script_parse.h"
#include "ts_number.h"
#include "ts_sched.h"
#include "ts_variant.h"

enum { MAX_ARGS = 8 };

const char *const script_key_names[SCRIPT_NAMED_KEYS] = { "space", "left",   "right",
                                                          "home",  "end",    "escape",
                                                          "f1",    "plus",   "minus",
                                                          "tab" };

/* The fields of the viewer's report line that `expect` may check. */
static const char *const report_fields[] = { "variant", "pattern", "walk",     "slots",
                                             "cost",    "backend", "tick",     "pass",
                                             "hazards", "overlay", "selected", "view",
                                             "devtime", "wrong",    "observe",  "footprint",
                                             "writes",  "conflicts", "obs_hazards", "chosen",
                                             "split",   "right_tick", "right_hazards",
                                             "right_view", "right_devtime", "right_wrong",
                                             "right_selected", "inspector", "source", "finding",
                                             "finding_lines", "finding_groups", "src_line",
                                             "line_groups" };

typedef struct parser {
  const char *name;
  int line;
  char *err;
  size_t errn;
} parser;

/* "NAME:LINE: what 'arg'", the argument cut short and its control characters shown as '?'. */
static int bad(parser *p, const char *what, const char *arg)
{
  char shown[68];
  size_t n = 0;
  for (; arg[n] && n < 64; n++)
    shown[n] = (unsigned char)arg[n] < 0x20 || arg[n] == 0x7f ? '?' : arg[n];
  snprintf(shown + n, sizeof shown - n, "%s", arg[n] ? "..." : "");
  snprintf(p->err, p->errn, "%s:%d: %s '%s'", p->name, p->line, what, shown);
  return 0;
}

static int on_off(const char *s, int *on)
{
  *on = strcmp(s, "on") == 0;
  return *on || strcmp(s, "off") == 0;
}

static int parse_key(parser *p, script_action *a, char **argv, int argc)
{
  const char *k = argv[1];
  if (k[0] && !k[1] && ((k[0] >= 'a' && k[0] <= 'z') || strchr("0123456789[]+-=", k[0]))) {
    a->key_char = k[0];
  } else {
    while (a->key_name < SCRIPT_NAMED_KEYS && strcmp(k, script_key_names[a->key_name]) != 0)
      a->key_name++;
    if (a->key_name == SCRIPT_NAMED_KEYS)
      return bad(p, "unknown key", k);
  }
  if (argc == 3 && strcmp(argv[2], "shift") != 0)
    return bad(p, "expected 'shift', got", argv[2]);
  a->shift = argc == 3;
  return 1;
}

static int point(parser *p, script_action *a, const char *x, const char *y)
{
  if (!ts_parse_real(x, -SCRIPT_COORD_MAX, SCRIPT_COORD_MAX, &a->x))
    return bad(p, "not a coordinate (a number within 1e6)", x);
  if (!ts_parse_real(y, -SCRIPT_COORD_MAX, SCRIPT_COORD_MAX, &a->y))
    return bad(p, "not a coordinate (a number within 1e6)", y);
  return 1;
}

/* caption TEXT: the rest of the line, blanks inside it kept (a tab as a blank), trimmed;
 * none, or only blanks, clears the caption. Printable text only, SCRIPT_CAPTION_MAX bytes. */
static int parse_caption(parser *p, script_action *a, char *rest)
{
  a->text = "";
  if (!rest)
    return 1;
  rest += strspn(rest, " \t\r\v\f");
  size_t n = strlen(rest);
  while (n > 0 && strchr(" \t\r\v\f", rest[n - 1]))
    rest[--n] = 0;
  if (n > SCRIPT_CAPTION_MAX)
    return bad(p, "a caption is at most 300 bytes, this one starts", rest);
  for (size_t i = 0; i < n; i++) {
    if (rest[i] == '\t')
      rest[i] = ' ';
    else if ((unsigned char)rest[i] < 0x20 || rest[i] == 0x7f)
      return bad(p, "a caption holds a control character:", rest);
  }
  a->text = rest;
  return 1;
}

/* The words of a line: its tokens, or for `caption` the word and the rest of the line as it
 * stands (a caption's blanks are its own). Returns the count, or -1 past MAX_ARGS. */
static int split_line(char *line, char **argv, char **extra)
{
  static const char blanks[] = " \t\r\v\f";
  char *w = line + strspn(line, blanks), *save = NULL;
  if (strncmp(w, "caption", 7) == 0 && (w[7] == 0 || strchr(blanks, w[7]))) {
    argv[0] = w;
    if (!w[7])
      return 1;
    w[7] = 0;
    argv[1] = w + 8;
    return 2;
  }
  int argc = 0;
  for (char *tok = strtok_r(line, blanks, &save); tok; tok = strtok_r(NULL, blanks, &save)) {
    if (argc == MAX_ARGS) {
      *extra = tok;
      return -1;
    }
    argv[argc++] = tok;
  }
  return argc;
}

/* One line's tokens into an action; returns 0 after writing the error. */
static int parse_action(parser *p, script_action *a, char **argv, int argc)
{
  static const struct {
    const char *name;
    script_op op;
    int min, max; /* arguments after the name */
  } ops[] = {
    { "key", SCRIPT_KEY, 1, 2 },         { "move", SCRIPT_MOVE, 2, 3 },
    { "click", SCRIPT_CLICK, 2, 3 },     { "tick", SCRIPT_TICK, 1, 1 },
    { "wait", SCRIPT_WAIT, 1, 1 },       { "variant", SCRIPT_VARIANT, 1, 1 },
    { "pattern", SCRIPT_PATTERN, 1, 1 }, { "walk", SCRIPT_WALK, 1, 1 },
    { "slots", SCRIPT_SLOTS, 1, 1 },     { "cost", SCRIPT_COST, 1, 1 },
    { "backend", SCRIPT_BACKEND, 1, 1 }, { "overlay", SCRIPT_OVERLAY, 1, 1 },
    { "grid", SCRIPT_GRID, 1, 1 },       { "help", SCRIPT_HELP, 1, 1 },
    { "zoom", SCRIPT_ZOOM, 1, 3 },       { "fit", SCRIPT_FIT, 0, 0 },
    { "shot", SCRIPT_SHOT, 1, 1 },       { "report", SCRIPT_REPORT, 0, 0 },
    { "expect", SCRIPT_EXPECT, 2, 2 },   { "expect-pixel", SCRIPT_EXPECT_PIXEL, 3, 2 + SCRIPT_MAX_VALUES },
    { "quit", SCRIPT_QUIT, 0, 0 },       { "devtime", SCRIPT_DEVTIME, 1, 1 },
    { "open", SCRIPT_OPEN, 1, 1 },       { "expect-status", SCRIPT_EXPECT_STATUS, 1, MAX_ARGS - 1 },
    { "copy", SCRIPT_COPY, 2, 2 },       { "split", SCRIPT_SPLIT, 1, 1 },
    { "caption", SCRIPT_CAPTION, 0, 1 },  { "source-line", SCRIPT_SOURCE_LINE, 1, 1 },
  };
  size_t i = 0;
  while (i < sizeof ops / sizeof ops[0] && strcmp(argv[0], ops[i].name) != 0)
    i++;
  if (i == sizeof ops / sizeof ops[0])
    return bad(p, "unknown action", argv[0]);
  if (argc - 1 < ops[i].min || argc - 1 > ops[i].max)
    return bad(p, "wrong number of arguments for", argv[0]);
  memset(a, 0, sizeof *a);
  a->op = ops[i].op;
  a->line = p->line;
  const char *arg = argc > 1 ? argv[1] : "";
  switch (a->op) {
  case SCRIPT_KEY:
    return parse_key(p, a, argv, argc);
  case SCRIPT_MOVE:
  case SCRIPT_CLICK:
    if (argc == 4) {
      a->input_pane = a->op == SCRIPT_MOVE && strcmp(argv[3], "input") == 0;
      a->right_half = strcmp(argv[3], "right") == 0;
      if (!a->input_pane && !a->right_half)
        return bad(p, a->op == SCRIPT_MOVE ? "expected 'input' or 'right', got"
                                           : "expected 'right', got", argv[3]);
    }
    return point(p, a, argv[1], argv[2]);
  case SCRIPT_TICK:
    if (strcmp(arg, "end") == 0)
      a->n = SCRIPT_TICK_END;
    else if (!ts_parse_int(arg, 0, INT64_MAX / 4, &a->n))
      return bad(p, "not a tick (a whole number from 0, or end)", arg);
    return 1;
  case SCRIPT_DEVTIME: {
    size_t len = strlen(arg);
    if (strcmp(arg, "end") == 0) {
      a->n = SCRIPT_TICK_END;
    } else if (len > 1 && arg[len - 1] == '%') {
      char num[32];
      snprintf(num, sizeof num, "%.*s", (int)(len - 1), arg);
      if (len - 1 >= sizeof num || !ts_parse_real(num, 0, 100, &a->zoom))
        return bad(p, "not a device time (T, P% from 0 to 100, or end)", arg);
      a->percent = 1;
    } else if (!ts_parse_int(arg, 0, INT64_MAX / 4, &a->n)) {
      return bad(p, "not a device time (T, P% from 0 to 100, or end)", arg);
    }
    return 1;
  }
  case SCRIPT_WAIT:
    if (!ts_parse_int(arg, 0, SCRIPT_WAIT_MAX, &a->n))
      return bad(p, "not a number of frames (0..100000)", arg);
    return 1;
  case SCRIPT_VARIANT: {
    const ts_variant *v = ts_variant_find(arg);
    if (!v)
      return bad(p, "unknown variant", arg);
    while (ts_variant_at(a->variant) != v)
      a->variant++;
    return 1;
  }
  case SCRIPT_PATTERN:
    return ts_pattern_parse(arg, &a->pattern) ? 1 : bad(p, "unknown pattern", arg);
  case SCRIPT_WALK:
    return ts_walk_parse(arg, &a->walk) ? 1 : bad(p, "unknown walk", arg);
  case SCRIPT_SOURCE_LINE:
    return ts_parse_int(arg, 1, 1 << 24, &a->n) ? 1 : bad(p, "not a source line (from 1)", arg);
  case SCRIPT_SLOTS:
  case SCRIPT_COST:
    if (!ts_parse_int(arg, 1, a->op == SCRIPT_SLOTS ? TS_SLOTS_MAX : TS_COST_MAX, &a->n))
      return bad(p, "out of range", arg);
    return 1;
  case SCRIPT_BACKEND:
    a->on = strcmp(arg, "cl") == 0;
    return a->on || strcmp(arg, "cpu") == 0 ? 1 : bad(p, "unknown back end (cl or cpu)", arg);
  case SCRIPT_SPLIT: {
    char why[200];
    a->on = strcmp(arg, "off") != 0;
    if (a->on && !vw_split_parse(arg, &a->split, why, sizeof why))
      return bad(p, "not a split (off, device, or KEY=VALUE,...):", arg);
    return 1;
  }
  case SCRIPT_GRID:
  case SCRIPT_HELP:
    return on_off(arg, &a->on) ? 1 : bad(p, "expected on or off, got", arg);
  case SCRIPT_ZOOM:
    if (argc == 3)
      return bad(p, "zoom takes Z, or Z X Y, not two numbers:", argv[2]);
    if (!ts_parse_real(arg, SCRIPT_ZOOM_MIN, SCRIPT_ZOOM_MAX, &a->zoom))
      return bad(p, "not a zoom (0.02..256)", arg);
    a->have_center = argc == 4;
    return argc == 4 ? point(p, a, argv[2], argv[3]) : 1;
  case SCRIPT_SHOT: {
    /* a screenshot is a PNG: a name that says otherwise is refused */
    const char *base = strrchr(arg, '/'), *dot = strrchr(base ? base + 1 : arg, '.');
    if (dot && dot != (base ? base + 1 : arg) && strcasecmp(dot, ".png") != 0)
      return bad(p, "a screenshot is a PNG: name it .png, not", arg);
    a->text = arg;
    return 1;
  }
  case SCRIPT_OVERLAY: /* the viewer knows the modes' names: script.c checks them */
  case SCRIPT_OPEN:
    a->text = arg;
    return 1;
  case SCRIPT_COPY:
    a->text = arg;
    a->value = argv[2];
    return 1;
  case SCRIPT_CAPTION:
    return parse_caption(p, a, argc > 1 ? argv[1] : NULL);
  case SCRIPT_EXPECT_STATUS:
    /* The words as one string again: give back the separators tokenising took. */
    for (int k = 1; k < argc - 1; k++)
      argv[k][strlen(argv[k])] = ' ';
    a->text = arg;
    return 1;
  case SCRIPT_EXPECT: {
    size_t k = 0;
    while (k < sizeof report_fields / sizeof report_fields[0] && strcmp(arg, report_fields[k]) != 0)
      k++;
    if (k == sizeof report_fields / sizeof report_fields[0])
      return bad(p, "unknown field", arg);
    a->text = arg;
    a->value = argv[2];
    return 1;
  }
  case SCRIPT_EXPECT_PIXEL: {
    int64_t v[2 + SCRIPT_MAX_VALUES] = { 0 };
    for (int c = 1; c < argc; c++)
      if (!ts_parse_int(argv[c], 0, c < 3 ? SCRIPT_PIXEL_MAX : UINT32_MAX, &v[c - 1]))
        return bad(p, c < 3 ? "not a pixel position" : "not a pixel value (0..4294967295)",
                   argv[c]);
    a->x = (double)v[0];
    a->y = (double)v[1];
    for (int c = 3; c < argc; c++)
      a->values[a->nvalues++] = (uint32_t)v[c - 1];
    return 1;
  }
  case SCRIPT_FIT:
  case SCRIPT_REPORT:
  case SCRIPT_QUIT:
    return 1;
  }
  return bad(p, "unknown action", argv[0]);
}

void script_free(script *s)
{
  free(s->text);
  free(s->act);
  memset(s, 0, sizeof *s);
}

int script_parse(const char *text, size_t len, const char *name, script *s, char *err,
                 size_t errn)
{
  memset(s, 0, sizeof *s);
  parser p = { name, 0, err, errn };
  if (len > SCRIPT_MAX_BYTES) {
    snprintf(err, errn, "%s: over %d bytes: not a script", name, SCRIPT_MAX_BYTES);
    return 0;
  }
  if (memchr(text, 0, len)) {
    snprintf(err, errn, "%s: holds a NUL byte: not a text file", name);
    return 0;
  }
  s->text = malloc(len + 1);
  if (!s->text) {
    snprintf(err, errn, "%s: out of memory", name);
    return 0;
  }
  memcpy(s->text, text, len);
  s->text[len] = 0;
  int cap = 0;
  for (char *line = s->text, *next; line; line = next) {
    p.line++;
    next = strchr(line, '\n');
    if (next)
      *next++ = 0;
    char *hash = strchr(line, '#');
    if (hash)
      *hash = 0;
    char *argv[MAX_ARGS + 1], *extra = NULL;
    int argc = split_line(line, argv, &extra);
    if (argc < 0) {
      bad(&p, "too many arguments, from", extra);
      script_free(s);
      return 0;
    }
    if (argc == 0)
      continue;
    if (s->n == cap) {
      script_action *more = realloc(s->act, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *more);
      if (!more) {
        snprintf(err, errn, "%s: out of memory", name);
        script_free(s);
        return 0;
      }
      s->act = more;
    }
    if (!parse_action(&p, &s->act[s->n], argv, argc)) {
      script_free(s);
      return 0;
    }
    s->n++;
  }
  return 1;
}
