/* Kernels as libraries ship them (SPEC section 10): kernels written in a library's style
 * (tests/kernels/lib_*.cl: punned vload4 reads over 8-bit rows, byte steps, build options,
 * a transposed temporary buffer between two passes, an int32 output one pixel larger than
 * the input at a byte offset) launched from a launch file or their own lines, each equal to
 * a reference computed here bit for bit, observed and not; the box kernel launched outside
 * its contract reported at its exact lines; each launch-description error with its message. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include "ts_plain.h"

static ts_cl *cl;
static char tmpdir[] = "/tmp/ts_launch_XXXXXX";

static ts_plain_desc *load(const char *file, const char *launch, const char *const *extra, int n)
{
  char path[1024], lpath[1024];
  snprintf(path, sizeof path, "%s/%s", TS_TESTS_DIR, file);
  if (launch)
    snprintf(lpath, sizeof lpath, "%s/%s", TS_TESTS_DIR, launch);
  ts_plain_desc *d = NULL;
  ts_error err = { 0 };
  CHECK(ts_plain_load_launch(path, launch ? lpath : NULL, extra, n, 0, &d, &err) == TS_OK, "%s: %s",
        path, err.msg);
  return d;
}

static ts_plain_result *run(const ts_plain_desc *d, const ts_image *img, int observe)
{
  ts_plain_opts o = { .observe = observe, .chosen_pass = -1, .watch_x = -1 };
  o.chosen_group[0] = -1;
  ts_plain_result *r = NULL;
  ts_error err = { 0 };
  CHECK(ts_plain_run(cl, d, img, &o, &r, &err) == TS_OK, "%s: %s", d->path, err.msg);
  return r;
}

static void print_findings(const ts_plain_desc *d, const ts_plain_result *r)
{
  for (size_t i = 0; i < r->nfindings && i < 8; i++) {
    char line[1024];
    ts_plain_finding_line(d, r, &r->findings[i], line, sizeof line);
    fprintf(stderr, "  %s\n", line);
  }
}

/* The box kernel's filter: a 3x3 sum (borders repeated, or zeros), times alpha in float and
 * rounded to nearest even, or saturated. */
static uint8_t box_at(const ts_image *g, int x, int y, int replicate, int scale)
{
  int sum = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      int xx = x + dx, yy = y + dy;
      if (!replicate && (xx < 0 || yy < 0 || xx >= g->w || yy >= g->h))
        continue;
      xx = xx < 0 ? 0 : xx >= g->w ? g->w - 1 : xx;
      yy = yy < 0 ? 0 : yy >= g->h ? g->h - 1 : yy;
      sum += g->data[(size_t)yy * (size_t)g->w + (size_t)xx];
    }
  if (!scale)
    return (uint8_t)(sum > 255 ? 255 : sum);
  float v = (float)sum * (1 / 9.0f);
  float r = rintf(v);
  return (uint8_t)(r > 255 ? 255 : r);
}

static void box_equals_reference(void)
{
  static const int sizes[][3] = { { 64, 32, 1 }, { 48, 18, 3 }, { 16, 2, 1 }, { 80, 46, 4 } };
  static const char *const bare[] = {
    "entry=box16x2 global=W/16,H/2 src_step=W dst_step=W rows=H cols=W"
  };
  for (int variant = 0; variant < 2; variant++) {
    /* the launch file's options (-D REPLICATE -D SCALE), then none (a pass on the command
     * line: zeros at the border, the sum saturated) */
    ts_plain_desc *d = load("kernels/lib_box16.cl", "kernels/lib_box16.launch", bare, variant);
    if (!d)
      continue;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      ts_image *img = random_image(sizes[s][0], sizes[s][1], sizes[s][2]), *g = NULL;
      ts_image_convert(img, 1, &g, NULL);
      ts_plain_result *p = run(d, img, 0), *o = run(d, img, 1);
      if (p && o && g) {
        size_t bad = 0, first = SIZE_MAX;
        for (int y = 0; y < g->h; y++)
          for (int x = 0; x < g->w; x++) {
            uint8_t want = box_at(g, x, y, !variant, !variant);
            if (p->out->data[(size_t)y * (size_t)g->w + (size_t)x] != want) {
              bad++;
              first = first == SIZE_MAX ? (size_t)y * (size_t)g->w + (size_t)x : first;
            }
          }
        CHECK(p->out->c == 1 && p->raw_lane == 1 && bad == 0,
              "box16x2 (%s) %dx%dx%d: %zu pixels differ from the reference, first at %zu",
              variant ? "no options" : "REPLICATE SCALE", img->w, img->h, img->c, bad, first);
        CHECK(p->raw_bytes == o->raw_bytes && memcmp(p->raw, o->raw, p->raw_bytes) == 0,
              "box16x2 %dx%d: the observed output differs from the plain run's", img->w, img->h);
        CHECK(o->nfindings == 0, "box16x2 %dx%d: %zu findings within its contract", img->w, img->h,
              o->nfindings);
        print_findings(d, o);
      }
      ts_plain_result_free(p);
      ts_plain_result_free(o);
      ts_image_destroy(img);
      ts_image_destroy(g);
    }
    ts_plain_desc_free(d);
  }
}

/* Launched outside its contract (a width that is no multiple of 16, an odd height, the
 * launch rounded up): the reads and writes past the buffer and the bytes two groups write. */
static void box_outside_contract(void)
{
  static const char *const up[] = {
    "entry=box16x2 options=\"-D REPLICATE -D SCALE\" global=(W+15)/16,(H+1)/2 src_step=W "
    "dst_step=W rows=H cols=W alpha=1/9.0"
  };
  ts_plain_desc *d = load("kernels/lib_box16.cl", "kernels/lib_box16.launch", up, 1);
  ts_image *img = random_image(40, 31, 1);
  ts_plain_result *o = d ? run(d, img, 1) : NULL;
  if (o) {
    /* every access outside a buffer is found at its line (each access is checked); which
     * of two racing writes is found depends on their order, so a race at either store */
    static const int oob_lines[] = { 30, 34, 52, 53 };
    for (size_t i = 0; i < sizeof oob_lines / sizeof oob_lines[0]; i++) {
      int seen = 0;
      for (size_t f = 0; f < o->nfindings; f++)
        seen |= o->findings[f].kind == TS_FIND_OOB && o->findings[f].line == oob_lines[i];
      CHECK(seen, "box16x2 on 40x31: no access outside a buffer at line %d", oob_lines[i]);
    }
    int races = 0, other = 0;
    for (size_t f = 0; f < o->nfindings; f++) {
      const ts_plain_finding *x = &o->findings[f];
      races += x->kind == TS_FIND_RACE_GROUPS && (x->line == 52 || x->line == 53);
      other += x->kind != TS_FIND_OOB && x->kind != TS_FIND_RACE_GROUPS &&
               !(x->kind == TS_FIND_UNINIT && x->place[0].outside); /* what the stray reads give */
    }
    CHECK(races >= 1 && other == 0, "box16x2 on 40x31: %d races between groups at its stores, %d "
          "other findings", races, other);
    print_findings(d, o);
    /* the last group's stray row: named as the pixel it lands on, past the end */
    char line[1024] = "";
    for (size_t f = 0; f < o->nfindings; f++)
      if (o->findings[f].kind == TS_FIND_OOB && o->findings[f].line == 34)
        ts_plain_finding_line(d, o, &o->findings[f], line, sizeof line);
    CHECK(strstr(line, "lib_box16.cl:34: access outside every buffer (not performed) in box16x2: "
                       "work-group (2,0) item (0,") &&
              strstr(line, "src pixel (7,31), past its end (it has 31 rows)"),
          "the stray read: '%s'", line);
    line[0] = 0;
    for (size_t f = 0; f < o->nfindings; f++)
      if (o->findings[f].kind == TS_FIND_RACE_GROUPS)
        ts_plain_finding_line(d, o, &o->findings[f], line, sizeof line);
    CHECK(strstr(line, "race between work-groups in box16x2: ") && strstr(line, "writes dst pixel (0,") &&
              strstr(line, "also writes at line 5"),
          "the race: '%s'", line);
  }
  ts_plain_result_free(o);
  ts_image_destroy(img);
  ts_plain_desc_free(d);
}

/* The two-pass integral: its (W+1)x(H+1) int sums, at the buffer's offset and step, equal
 * the sums computed here; the temporary between the passes is named as such. */
static void integral_equals_reference(void)
{
  static const int sizes[][3] = { { 37, 23, 3 }, { 64, 64, 1 }, { 1, 1, 1 }, { 130, 17, 4 } };
  ts_plain_desc *d = load("kernels/lib_integral.cl", NULL, NULL, 0);
  if (!d)
    return;
  CHECK(d->nbufs == 3 && d->npasses == 2 && strcmp(d->options, "-D TILE=16 -D sumT=int") == 0,
        "lib_integral.cl: %d buffers, %d passes, options '%s'", d->nbufs, d->npasses, d->options);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    ts_image *img = random_image(sizes[s][0], sizes[s][1], sizes[s][2]), *g = NULL;
    ts_image_convert(img, 1, &g, NULL);
    ts_plain_result *p = run(d, img, 0), *o = run(d, img, 1);
    if (p && o && g) {
      int W = g->w, H = g->h;
      CHECK(p->raw_cols == W + 1 && p->raw_rows == H + 1 && p->raw_lane == 4 && p->raw_signed &&
                p->out->w == W + 1 && p->out->h == H + 1,
            "integral %dx%d: output %dx%d of %d bytes, shown %dx%d", W, H, p->raw_cols,
            p->raw_rows, p->raw_lane, p->out->w, p->out->h);
      int32_t *want = calloc((size_t)(W + 1) * (size_t)(H + 1), 4);
      size_t bad = 0;
      for (int y = 1; y <= H && want; y++)
        for (int x = 1; x <= W; x++)
          want[y * (W + 1) + x] = g->data[(size_t)(y - 1) * (size_t)W + (size_t)(x - 1)] +
                                  want[(y - 1) * (W + 1) + x] + want[y * (W + 1) + x - 1] -
                                  want[(y - 1) * (W + 1) + x - 1];
      for (size_t i = 0; want && i < (size_t)(W + 1) * (size_t)(H + 1); i++) {
        int32_t v;
        memcpy(&v, (const uint8_t *)p->raw + i * 4, 4);
        bad += v != want[i];
      }
      free(want);
      CHECK(bad == 0, "integral %dx%d: %zu sums differ from the reference", W, H, bad);
      CHECK(p->raw_bytes == o->raw_bytes && memcmp(p->raw, o->raw, p->raw_bytes) == 0,
            "integral %dx%d: the observed sums differ from the plain run's", W, H);
      CHECK(o->nfindings == 0, "integral %dx%d: %zu findings on a correct kernel", W, H,
            o->nfindings);
      print_findings(d, o);
      CHECK(o->launch[0].nbufs == 2 && o->launch[0].buf[1].temp &&
                strcmp(o->launch[0].buf[1].buffer, "colsums") == 0,
            "integral: the first pass's second buffer is not the temporary colsums");
    }
    ts_plain_result_free(p);
    ts_plain_result_free(o);
    ts_image_destroy(img);
    ts_image_destroy(g);
  }
  ts_plain_desc_free(d);
}

static const char *write_file(const char *name, const char *text)
{
  static char path[1100];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  return path;
}

static void launch_errors(void)
{
  static const char *kernel =
      "__kernel void k(__global const uint *src, int src_step, __global uint *dst, int rows) {"
      " dst[get_global_id(0)] = src[get_global_id(0)]; }\n";
  static const struct {
    const char *launch, *want;
  } cases[] = {
    { "buffer src type=uchar4 shape=W,H role=input\n",
      "k.launch:1: type: expected uchar, char, ushort, short, uint, int or float" },
    { "# a comment\n\nbuffer src type=uchar role=input\n", "k.launch:3: src: the buffer needs shape=COLS,ROWS" },
    { "buffer src type=uchar shape=W,H role=image\n", "k.launch:1: role: expected input, output or temp" },
    { "buffer src type=uchar shape=W,H,3,2 role=input\n",
      "k.launch:1: shape: expected N, COLS,ROWS or COLS,ROWS,SLICES" },
    { "buffer src type=uchar shape=W role=input init=ramp(1)\n",
      "k.launch:1: init: expected zero, a number or ramp(START,STEP)" },
    { "buffer src type=uchar shape=W role=input access=rx\n", "k.launch:1: access: expected ro, wo or rw" },
    { "buffer src type=uchar shape=W,H role=input file=absent.raw\nbuffer dst type=uint shape=W,H role=output\n"
      "pass entry=k global=W src_step=W rows=H\n",
      "k.launch:1: src: file=absent.raw: " },
    { "buffer src type=uchar shape=W,H step=W+ role=input\n",
      "k.launch:1: step: expected an expression of W, H and C" },
    { "buffer src type=uchar shape=W,H role=input\nbuffer src type=uchar shape=W,H role=temp\n",
      "k.launch:2: src: a buffer of that name is declared already" },
    { "buffer src type=uchar shape=W,H role=input\npass entry=k src_step=W dst=out2 rows=H\n",
      "k.launch:2: dst: no buffer named 'out2' is declared" },
    { "buffer src type=uchar shape=W,H role=input\nlaunch entry=k\n",
      "k.launch:2: line: expected pass (or plain), buffer, or a # comment" },
    { "buffer src type=uchar shape=W,H role=input\n", "k.launch: pass: the launch file has no pass line" },
    { "buffer src type=uchar shape=W,H role=input\nbuffer dst type=uint shape=W-100,H role=output\n"
      "pass entry=k global=W src_step=W rows=H\n",
      "k.launch:2: dst: shape is not two whole sizes of 1 to 1048576 on a 16x16x1 image" },
    { "buffer src type=uchar shape=W,H role=input\nbuffer dst type=uint shape=W,H step=2 role=output\n"
      "pass entry=k global=W src_step=W rows=H\n",
      "k.launch:2: dst: step is not a whole number of bytes at least the row's on a 16x16x1 image" },
    { "buffer src type=uchar shape=W,H map=low role=input\n", "k.launch:1: map: expected normalised or low8" },
  };
  const char *kpath = write_file("k.cl", kernel);
  char kcopy[1100];
  snprintf(kcopy, sizeof kcopy, "%s", kpath);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *lpath = write_file("k.launch", cases[i].launch);
    ts_plain_desc *d = NULL;
    ts_error err = { 0 };
    ts_status st = ts_plain_load_launch(kcopy, lpath, NULL, 0, 0, &d, &err);
    ts_image *img = random_image(16, 16, 1);
    ts_plain_result *r = NULL;
    if (st == TS_OK) {
      ts_plain_opts o = { .observe = 0, .chosen_pass = -1, .chosen_group = { -1 }, .watch_x = -1 };
      st = ts_plain_run(cl, d, img, &o, &r, &err);
    }
    CHECK(st != TS_OK && strstr(err.msg, cases[i].want), "case %zu: '%s', want '%s'", i, err.msg,
          cases[i].want);
    ts_plain_result_free(r);
    ts_plain_desc_free(d);
    ts_image_destroy(img);
  }
}

/* Buffers that are not images: a row with a ramp of first values and read-only, a 3-D
 * output (slices of rows), a row read from a raw file; the output exact, a write of the
 * read-only row a finding named as the source indexes it. */
static void buffers_whole(void)
{
  const char *kpath = write_file("scale.cl",
      "__kernel void scale(__global float *xs, __global float *ys)\n"
      "{\n"
      "  int i = get_global_id(0);\n"
      "  ys[i] = 2.0f * xs[i];\n"
      "  if (i == 3)\n"
      "    xs[i] = 0;\n"
      "}\n");
  char kcopy[1100];
  snprintf(kcopy, sizeof kcopy, "%s", kpath);
  float raw[64];
  for (int i = 0; i < 64; i++)
    raw[i] = (float)(i * i);
  char rpath[600];
  snprintf(rpath, sizeof rpath, "%s/vals.raw", tmpdir);
  FILE *f = fopen(rpath, "wb");
  CHECK(f && fwrite(raw, sizeof raw, 1, f) == 1, "%s", rpath);
  if (f)
    fclose(f);
  static const char *launches[] = {
    "buffer xs type=float shape=64 role=input init=ramp(1,0.5) access=ro\n"
    "buffer ys type=float shape=8,4,2 role=output\npass entry=scale global=64 local=16\n",
    "buffer xs type=float shape=64 role=input file=vals.raw\n"
    "buffer ys type=float shape=8,4,2 role=output\npass entry=scale global=64 local=16\n",
  };
  for (int c = 0; c < 2; c++) {
    const char *lpath = write_file("scale.launch", launches[c]);
    ts_plain_desc *d = NULL;
    ts_error err = { 0 };
    CHECK(ts_plain_load_launch(kcopy, lpath, NULL, 0, 0, &d, &err) == TS_OK, "%s", err.msg);
    ts_image *img = random_image(16, 16, 1);
    ts_plain_result *r = NULL;
    ts_plain_opts o = { .observe = 1, .chosen_pass = -1, .chosen_group = { -1 }, .watch_x = -1 };
    CHECK(d && ts_plain_run(cl, d, img, &o, &r, &err) == TS_OK, "%s", err.msg);
    if (r) {
      CHECK(r->raw_cols == 8 && r->raw_rows == 8 && r->raw_lane == 4 && r->raw_float,
            "ys: %dx%d of %d bytes", r->raw_cols, r->raw_rows, r->raw_lane);
      int wrong = 0;
      for (int i = 0; i < 64 && r->raw; i++) {
        float v;
        memcpy(&v, r->raw + 4 * i, 4);
        float want = 2.0f * (c == 0 ? 1.0f + 0.5f * (float)i : (float)(i * i));
        wrong += v != want;
      }
      CHECK(wrong == 0, "case %d: %d of ys's 64 values differ", c, wrong);
      char line[1024] = "";
      for (size_t i = 0; i < r->nfindings; i++)
        if (r->findings[i].kind == TS_FIND_MODE)
          ts_plain_finding_line(d, r, &r->findings[i], line, sizeof line);
      if (c == 0)
        CHECK(strstr(line, "scale.cl:6: access against the buffer's mode in scale: work-group (0) "
                           "item (3) writes xs[i] at xs[3], which the launch made read-only"),
              "the read-only row's write: '%s'", line);
      else
        CHECK(r->nfindings == 0, "case 1: %zu findings", r->nfindings);
    }
    ts_plain_result_free(r);
    ts_plain_desc_free(d);
    ts_image_destroy(img);
  }
}

int main(void)
{
  ts_error err = { 0 };
  if (ts_cl_create(-1, TS_KERNELS_DIR, &cl, &err) != TS_OK) {
    const char *ci = getenv("CI");
    fprintf(stderr, "test_launch: %s\n", err.msg);
    if (ci && strcmp(ci, "true") == 0)
      return 1;
    printf("test_launch: skipped, no OpenCL device\n");
    return 77;
  }
  if (!mkdtemp(tmpdir))
    return 1;
  box_equals_reference();
  box_outside_contract();
  integral_equals_reference();
  buffers_whole();
  launch_errors();
  ts_cl_destroy(cl);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0)
    fprintf(stderr, "test_launch: could not remove %s\n", tmpdir);
  return check_exit("test_launch");
}
