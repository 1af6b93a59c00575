/* Viewer scripts as text: the whole script parsed and checked into a list of actions before
 * any of them plays (script.c plays them). Needs only the core, no SDL, so that the parser is
 * fuzzed on its own (tests/fuzz_script.c). The format is described in script.c. */
#ifndef TS_APP_SCRIPT_PARSE_H
#define TS_APP_SCRIPT_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "split_spec.h"
#include "ts_walk.h"

typedef enum {
  SCRIPT_KEY, SCRIPT_MOVE, SCRIPT_CLICK, SCRIPT_TICK, SCRIPT_WAIT, SCRIPT_VARIANT,
  SCRIPT_PATTERN, SCRIPT_WALK, SCRIPT_SLOTS, SCRIPT_COST, SCRIPT_BACKEND, SCRIPT_OVERLAY,
  SCRIPT_GRID, SCRIPT_HELP, SCRIPT_ZOOM, SCRIPT_FIT, SCRIPT_SHOT, SCRIPT_REPORT, SCRIPT_EXPECT,
  SCRIPT_EXPECT_PIXEL, SCRIPT_QUIT, SCRIPT_DEVTIME, SCRIPT_OPEN, SCRIPT_EXPECT_STATUS, SCRIPT_COPY,
  SCRIPT_SPLIT, SCRIPT_CAPTION, SCRIPT_SOURCE_LINE
} script_op;

/* What a script may ask for: far outside any image (at most 32768 pixels a side), and small
 * enough that no screen or pixel computation from it overflows. */
#define SCRIPT_COORD_MAX 1e6
#define SCRIPT_ZOOM_MIN 0.02
#define SCRIPT_ZOOM_MAX 256.0
enum {
  SCRIPT_WAIT_MAX = 100000,   /* frames */
  SCRIPT_PIXEL_MAX = 1000000, /* expect-pixel coordinates */
  SCRIPT_MAX_VALUES = 4,      /* expect-pixel: one per channel, RGBA at most */
  SCRIPT_MAX_BYTES = 1 << 20,
  SCRIPT_NAMED_KEYS = 10,
  SCRIPT_CAPTION_MAX = 300    /* bytes of a caption */
};
#define SCRIPT_TICK_END (-1)

/* The named keys, in the order of script_action.key_name. */
extern const char *const script_key_names[SCRIPT_NAMED_KEYS];

typedef struct script_action {
  script_op op;
  int line;
  char key_char;       /* key: a letter, digit or one of []+-=, or 0 for a named key */
  int key_name;        /* key: index in script_key_names when key_char is 0 */
  int shift;           /* key NAME shift */
  int input_pane;      /* move X Y input */
  int right_half;      /* move or click X Y right: the split view's right half */
  double x, y;         /* move, click, the zoom centre, expect-pixel */
  int have_center;     /* zoom Z X Y */
  double zoom;
  int64_t n;           /* tick and devtime (SCRIPT_TICK_END: the end), wait frames, slots, cost,
                        * source-line's line */
  int percent;         /* devtime P%: the share is in zoom */
  int on;              /* grid and help: on; backend: cl; split: a spec (not off) */
  vw_split_spec split; /* split SPEC */
  int variant;         /* index in the registry */
  ts_pattern pattern;
  ts_walk walk;
  const char *text;    /* shot, open, copy: the file; overlay: the mode's name; expect: the
                        * field; expect-status, caption: the rest of the line ("": no caption) */
  const char *value;   /* expect: the value; copy: where to */
  uint32_t values[SCRIPT_MAX_VALUES];
  int nvalues;
} script_action;

typedef struct script {
  char *text;          /* the script's own copy, cut into the strings above */
  script_action *act;
  int n;
} script;

/* Parses `len` bytes of script text. Returns 1 and fills s, or 0 with one line in err
 * ("NAME:LINE: what 'argument'") and s empty. script_free frees s (and accepts an empty one). */
int script_parse(const char *text, size_t len, const char *name, script *s, char *err,
                 size_t errn);
void script_free(script *s);

#endif
