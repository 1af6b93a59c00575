/* Plain kernels (SPEC section 10): the shipped examples equal their filters' references,
 * plain and observed, and observation changes no output bit; each broken copy is caught
 * with its exact line; every spelling of an access (derived pointers, vload4 / vstore4,
 * atomics) is observed at its line, an access outside a buffer is not performed; barrier
 * intervals follow the address space a barrier fences; a launch with fast shadows that needs
 * the full ones is made again on the buffers as they were; launch descriptions' errors name
 * the file, line and field; bench's two runs take turns. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include "ts_plain.h"

static ts_cl *cl;

static ts_plain_desc *load(const char *path, const char *const *extra, int n)
{
  ts_plain_desc *d = NULL;
  ts_error err = { 0 };
  CHECK(ts_plain_load(path, extra, n, &d, &err) == TS_OK, "%s: %s", path, err.msg);
  return d;
}

static ts_plain_result *run(const ts_plain_desc *d, const ts_image *img, int observe, long gx,
                            long gy, long lx, long ly)
{
  ts_plain_opts o = { .observe = observe, .chosen_pass = -1, .watch_x = -1 };
  o.chosen_group[0] = gx, o.chosen_group[1] = gy, o.chosen_group[2] = 0;
  o.chosen_item[0] = lx, o.chosen_item[1] = ly, o.chosen_item[2] = 0;
  ts_plain_result *r = NULL;
  ts_error err = { 0 };
  CHECK(ts_plain_run(cl, d, img, &o, &r, &err) == TS_OK, "%s: %s", d ? d->path : "?", err.msg);
  return r;
}

static size_t differ(const ts_image *a, const ts_image *b)
{
  if (!a || !b || a->w != b->w || a->h != b->h || a->c != b->c)
    return SIZE_MAX;
  size_t n = 0;
  for (size_t i = 0; i < (size_t)a->w * a->h * a->c; i++)
    n += a->data[i] != b->data[i];
  return n;
}

static void examples_equal_references(void)
{
  static const struct {
    const char *file;
    int gauss;
  } ex[] = { { "conv2d.cl", 0 }, { "gauss_tiled.cl", 1 }, { "separable.cl", 1 } };
  static const int sizes[][3] = { { 45, 31, 3 }, { 64, 48, 1 }, { 33, 17, 4 }, { 16, 16, 3 } };
  for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/kernels/plain/%s", TS_ASSETS_DIR, ex[e].file);
    ts_plain_desc *d = load(path, NULL, 0);
    if (!d)
      continue;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      ts_image *img = random_image(sizes[s][0], sizes[s][1], sizes[s][2]), *ref = NULL;
      if (ex[e].gauss)
        ts_ref_gauss(img, 5, 0, &ref, NULL);
      else
        ts_ref_box3(img, &ref, NULL);
      ts_plain_result *p = run(d, img, 0, -1, 0, 0, 0), *o = run(d, img, 1, -1, 0, 0, 0);
      if (p && o) {
        CHECK(differ(p->out, ref) == 0, "%s %dx%dx%d: %zu values differ from the reference",
              ex[e].file, img->w, img->h, img->c, differ(p->out, ref));
        CHECK(differ(o->out, p->out) == 0, "%s %dx%dx%d: observed output differs in %zu values",
              ex[e].file, img->w, img->h, img->c, differ(o->out, p->out));
        CHECK(o->nfindings == 0, "%s %dx%dx%d: %zu findings on a correct kernel", ex[e].file,
              img->w, img->h, img->c, o->nfindings);
        for (size_t i = 0; i < o->nfindings && i < 3; i++) {
          char line[1024];
          ts_plain_finding_line(d, o, &o->findings[i], line, sizeof line);
          fprintf(stderr, "  %s\n", line);
        }
        /* the groups' observed tiles cover the image exactly once */
        const ts_plain_launch *L = &o->launch[o->npasses - 1];
        size_t covered = 0;
        for (uint32_t g = 0; L->groups && g < L->ngroups_all; g++) {
          const ts_plain_rect *w = &L->groups[g].wrote;
          if (w->x1 >= w->x0)
            covered += (size_t)(w->x1 - w->x0 + 1) * (size_t)(w->y1 - w->y0 + 1);
        }
        CHECK(covered == (size_t)img->w * img->h, "%s: the groups' tiles cover %zu of %d pixels",
              ex[e].file, covered, img->w * img->h);
      }
      ts_plain_result_free(p);
      ts_plain_result_free(o);
      ts_image_destroy(img);
      ts_image_destroy(ref);
    }
    ts_plain_desc_free(d);
  }
}

/* The groups' rectangles, exactly: what each group of the stencils read of the input (its
 * tile and the stencil's reach, clamped to the image) and wrote of the output (its tile), on
 * sizes that leave partial groups. observe.cl keeps them per work-item (per group on a CPU
 * device) in bytes, skips the accesses inside what a row already covers, and the host makes
 * them pixels: any slip there moves an edge. */
static void rectangles_exact(void)
{
  static const struct {
    const char *file;
    int read_pass, write_pass, rx, ry; /* the pass that reads the input, writes the output */
  } ex[] = { { "conv2d.cl", 0, 0, 1, 1 }, { "gauss_tiled.cl", 0, 0, 2, 2 }, { "separable.cl", 0, 1, 2, 0 } };
  static const int sizes[][3] = { { 45, 31, 3 }, { 64, 48, 1 } };
  for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/kernels/plain/%s", TS_ASSETS_DIR, ex[e].file);
    ts_plain_desc *d = load(path, NULL, 0);
    for (size_t s = 0; d && s < sizeof sizes / sizeof sizes[0]; s++) {
      ts_image *img = random_image(sizes[s][0], sizes[s][1], sizes[s][2]);
      int W = img->w, H = img->h;
      ts_plain_result *o = run(d, img, 1, -1, 0, 0, 0);
      for (int pass = 0; o && pass < o->npasses; pass++) {
        const ts_plain_launch *L = &o->launch[pass];
        int lw = (int)L->local[0], lh = (int)L->local[1], bad = 0;
        for (uint32_t g = 0; L->groups && g < L->ngroups_all && !bad; g++) {
          int gx = (int)(g % L->ngroups[0]), gy = (int)(g / L->ngroups[0]);
          int x0 = gx * lw, y0 = gy * lh;
          int x1 = x0 + lw - 1 < W - 1 ? x0 + lw - 1 : W - 1, y1 = y0 + lh - 1 < H - 1 ? y0 + lh - 1 : H - 1;
          ts_plain_rect none = { INT_MAX, INT_MAX, -1, -1 };
          ts_plain_rect rd = { x0 - ex[e].rx < 0 ? 0 : x0 - ex[e].rx, y0 - ex[e].ry < 0 ? 0 : y0 - ex[e].ry,
                               x1 + ex[e].rx > W - 1 ? W - 1 : x1 + ex[e].rx,
                               y1 + ex[e].ry > H - 1 ? H - 1 : y1 + ex[e].ry };
          ts_plain_rect wr = { x0, y0, x1, y1 };
          const ts_plain_rect *want[2] = { pass == ex[e].read_pass ? &rd : &none,
                                           pass == ex[e].write_pass ? &wr : &none };
          const ts_plain_rect *got[2] = { &L->groups[g].read, &L->groups[g].wrote };
          for (int k = 0; k < 2; k++)
            if (memcmp(want[k], got[k], sizeof *got[k]) != 0) {
              CHECK(0, "%s %dx%dx%d pass %d group (%d,%d): %s (%d,%d)-(%d,%d), want (%d,%d)-(%d,%d)",
                    ex[e].file, W, H, img->c, pass, gx, gy, k ? "wrote" : "read", got[k]->x0,
                    got[k]->y0, got[k]->x1, got[k]->y1, want[k]->x0, want[k]->y0, want[k]->x1,
                    want[k]->y1);
              bad = 1;
            }
        }
      }
      ts_plain_result_free(o);
      ts_image_destroy(img);
    }
    ts_plain_desc_free(d);
  }
}

/* The same for the scans, whose work-items walk a row (scan_rows: each group reads whole
 * rows of the input) and a column (scan_cols: each group writes whole columns of the output,
 * a new row at each write, which observe.cl's group write rectangle takes on a CPU device). */
static void scan_rectangles_exact(void)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/kernels/plain/integral_scan.cl", TS_ASSETS_DIR);
  ts_plain_desc *d = load(path, NULL, 0);
  static const int sizes[][3] = { { 45, 31, 3 }, { 300, 70, 1 } };
  for (size_t s = 0; d && s < sizeof sizes / sizeof sizes[0]; s++) {
    ts_image *img = random_image(sizes[s][0], sizes[s][1], sizes[s][2]);
    int W = img->w, H = img->h;
    ts_plain_result *o = run(d, img, 1, -1, 0, 0, 0);
    CHECK(o && o->npasses == 2, "integral_scan %dx%d: %d passes", W, H, o ? o->npasses : 0);
    for (int pass = 0; o && pass < o->npasses; pass++) {
      const ts_plain_launch *L = &o->launch[pass];
      int lw = (int)L->local[0], n = pass == 0 ? H : W;
      for (uint32_t g = 0; L->groups && g < L->ngroups_all; g++) {
        int a = (int)g * lw, b = a + lw - 1 < n - 1 ? a + lw - 1 : n - 1;
        ts_plain_rect none = { INT_MAX, INT_MAX, -1, -1 };
        ts_plain_rect rows = { 0, a, W - 1, b }, cols = { a, 0, b, H - 1 };
        const ts_plain_rect *want = pass == 0 ? &rows : &cols;
        const ts_plain_rect *got = pass == 0 ? &L->groups[g].read : &L->groups[g].wrote;
        const ts_plain_rect *other = pass == 0 ? &L->groups[g].wrote : &L->groups[g].read;
        if (memcmp(want, got, sizeof *got) != 0 || memcmp(&none, other, sizeof none) != 0) {
          CHECK(0, "integral_scan %dx%d pass %d group %u: %s (%d,%d)-(%d,%d), want (%d,%d)-(%d,%d)",
                W, H, pass, g, pass ? "wrote" : "read", got->x0, got->y0, got->x1, got->y1,
                want->x0, want->y0, want->x1, want->y1);
          break;
        }
      }
    }
    ts_plain_result_free(o);
    ts_image_destroy(img);
  }
  ts_plain_desc_free(d);
}

/* The integral image as two scans: its 32-bit sums equal the reference's, plain and
 * observed, on grey, RGB and RGBA images; shown normalised. */
static void integral_equals_reference(void)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/kernels/plain/integral_scan.cl", TS_ASSETS_DIR);
  ts_plain_desc *d = load(path, NULL, 0);
  static const int sizes[][3] = { { 45, 31, 1 }, { 64, 48, 3 }, { 33, 17, 4 } };
  for (size_t s = 0; d && s < sizeof sizes / sizeof sizes[0]; s++) {
    ts_image *img = random_image(sizes[s][0], sizes[s][1], sizes[s][2]);
    uint32_t *ref = NULL;
    ts_ref_integral(img, &ref, NULL);
    for (int observe = 0; observe < 2; observe++) {
      ts_plain_result *r = run(d, img, observe, -1, 0, 0, 0);
      if (!r || !ref)
        continue;
      size_t n = (size_t)img->w * img->h;
      CHECK(r->raw_lane == 4 && r->raw_channels == 1 && r->raw_bytes == n * 4,
            "integral_scan: raw output of %d channels of %d bytes", r->raw_channels, r->raw_lane);
      CHECK(r->raw_bytes == n * 4 && memcmp(r->raw, ref, n * 4) == 0,
            "integral_scan %dx%dx%d (%s): the sums differ from the reference", img->w, img->h,
            img->c, observe ? "observed" : "plain");
      CHECK(r->out && r->out->c == 1 && strncmp(r->mapping, "normalised", 10) == 0,
            "integral_scan: shown %s", r->mapping);
      CHECK(!observe || r->nfindings == 0, "integral_scan: %zu findings", r->nfindings);
      ts_plain_result_free(r);
    }
    free(ref);
    ts_image_destroy(img);
  }
  ts_plain_desc_free(d);
}

/* The finding of `kind` whose line starts with `want`, among a run's. */
/* Every finding of a run as its line, each after a word (found, unexpected). */
static void print_findings(const ts_plain_desc *d, const ts_plain_result *o, const char *word)
{
  for (size_t i = 0; o && i < o->nfindings; i++) {
    char line[1024];
    ts_plain_finding_line(d, o, &o->findings[i], line, sizeof line);
    fprintf(stderr, "  %s: %s\n", word, line);
  }
}

static void expect_finding(const char *file, int kind, const char *want)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/kernels/plain/%s", TS_ASSETS_DIR, file);
  ts_plain_desc *d = load(path, NULL, 0);
  ts_image *img = random_image(64, 48, 3);
  ts_plain_result *o = d ? run(d, img, 1, -1, 0, 0, 0) : NULL;
  int found = 0;
  for (size_t i = 0; o && i < o->nfindings; i++) {
    char line[1024];
    ts_plain_finding_line(d, o, &o->findings[i], line, sizeof line);
    if (o->findings[i].kind == kind && strncmp(line, want, strlen(want)) == 0)
      found = 1;
  }
  CHECK(found, "%s: no finding that starts '%s'", file, want);
  if (!found)
    print_findings(d, o, "found");
  ts_plain_result_free(o);
  ts_image_destroy(img);
  ts_plain_desc_free(d);
}

/* A race between work-groups with `line` on one side or the other. */
static void expect_race_line(const char *file, int line)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/kernels/plain/%s", TS_ASSETS_DIR, file);
  ts_plain_desc *d = load(path, NULL, 0);
  ts_image *img = random_image(64, 48, 3);
  ts_plain_result *o = d ? run(d, img, 1, -1, 0, 0, 0) : NULL;
  int found = 0;
  for (size_t i = 0; o && i < o->nfindings; i++) {
    const ts_plain_finding *f = &o->findings[i];
    if (f->kind == TS_FIND_RACE_GROUPS && (f->line == line || f->place[0].other_line == line))
      found = 1;
  }
  CHECK(found, "%s: no race between work-groups at line %d", file, line);
  ts_plain_result_free(o);
  ts_image_destroy(img);
  ts_plain_desc_free(d);
}

/* A watched output pixel: every work-item that wrote it, with its line. */
static void watched_pixel(void)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/kernels/plain/broken_tile.cl", TS_ASSETS_DIR);
  ts_plain_desc *d = load(path, NULL, 0);
  ts_image *img = random_image(64, 48, 3);
  ts_plain_opts o = { .observe = 1, .chosen_pass = -1, .watch_x = 16, .watch_y = 0 };
  o.chosen_group[0] = -1;
  ts_plain_result *r = NULL;
  ts_error err = { 0 };
  CHECK(d && ts_plain_run(cl, d, img, &o, &r, &err) == TS_OK, "watch: %s", err.msg);
  int writers = 0, other = 0;
  for (size_t i = 0; r && i < r->launch[0].nlog; i++) {
    const ts_plain_access *a = &r->launch[0].log[i];
    if (!a->watched)
      continue;
    /* group (0,0) item (15,0) at line 22, group (1,0) item (0,0) at line 20, 3 channels each */
    if (a->acc == 2 && a->group == 0 && a->item == 15 && a->line == 22)
      writers |= 1;
    else if (a->acc == 2 && a->group == 1 && a->item == 0 && a->line == 20)
      writers |= 2;
    else if (a->acc == 2)
      other++;
  }
  CHECK(writers == 3 && other == 0, "pixel (16,0)'s writers: %d, and %d others", writers, other);
  ts_plain_result_free(r);
  ts_image_destroy(img);
  ts_plain_desc_free(d);
}

/* Each broken copy's finding, whole where the device's order cannot change it: a finding
 * names its least place (work-group, then work-item), whichever group ran first. */
static void broken_copies_caught(void)
{
  expect_finding("broken_nobarrier.cl", TS_FIND_RACE_LOCAL,
                 "broken_nobarrier.cl:31: race in a work-group on __local memory in gauss_tiled: "
                 "work-group (");
  expect_finding("broken_halo.cl", TS_FIND_UNINIT,
                 "broken_halo.cl:32: read of an element nothing wrote in gauss_tiled: work-group "
                 "(0,0) item (15,0) reads __local tile[57], before anything in the launch "
                 "wrote it; ");
  /* which of the two writes comes second depends on the device's order: the race names both */
  expect_race_line("broken_tile.cl", 22);
  expect_finding("broken_tile.cl", TS_FIND_TILE,
                 "broken_tile.cl:22: write outside the declared tile in tile_overwrite: "
                 "work-group (0,0) item (15,0) writes out[(y * W + x + 1) * C + c] at pixel (16,0) channel 0, outside its "
                 "tile of 16x16; ");
}

static char tmpdir[] = "/tmp/tilescope-plain-XXXXXX";

static const char *write_kernel(const char *name, const char *text)
{
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL, "%s", path);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  return path;
}

/* A derived pointer, vload4, vstore4 and an atomic, each seen at its line by the chosen
 * work-item; a read past the buffer through the derived pointer is reported and gives 0. */
static void spellings_observed(void)
{
  const char *path = write_kernel("spell.cl",
    "// tilescope: plain global=W,H local=4,4\n"                                    /* 1 */
    "__kernel void spell(__global const uchar *in, __global uchar *out, int W, int H)\n"
    "{\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  __global const uchar *row = in + y * W * 4;\n"                               /* 5 */
    "  uchar4 v = vload4(x, row);\n"                                                /* 6 */
    "  if (x == W - 1 && y == H - 1)\n"
    "    v += vload4(x + 1, row);\n"                                                /* 8 */
    "  __global uchar *o = out + (y * W + x) * 4;\n"
    "  vstore4(v, 0, o);\n"                                                         /* 10 */
    "  if (x == 1 && y == 1)\n"
    "    atomic_inc((volatile __global int *)o);\n"                                 /* 12 */
    "  *o = *o;\n"                                                                  /* 13 */
    "}\n");
  ts_plain_desc *d = load(path, NULL, 0);
  ts_image *img = random_image(8, 8, 4);
  /* Observed only: the plain run's read past the buffer would fault in the guard beyond it
   * (on pocl), which is why a command makes no plain run of a kernel observed doing that. */
  ts_plain_result *o = d ? run(d, img, 1, 0, 0, 1, 1) : NULL;
  if (o) {
    /* the observed read past the buffer gives 0: out equals in, but for pixel (1,1) whose
     * first 4 bytes, as an int, went up by one */
    ts_image *want = NULL;
    ts_image_clone(img, &want, NULL);
    uint8_t *q = want->data + (1 * 8 + 1) * 4;
    uint32_t v;
    memcpy(&v, q, 4);
    v++;
    memcpy(q, &v, 4);
    CHECK(differ(o->out, want) == 0, "spell: %zu values differ from what it computes",
          differ(o->out, want));
    ts_image_destroy(want);
    const ts_plain_launch *L = &o->launch[0];
    int lines[16] = { 0 };
    for (size_t i = 0; i < L->nlog; i++)
      if (L->log[i].line < 16)
        lines[L->log[i].line] |= L->log[i].acc;
    CHECK(lines[6] == 1, "vload4 at line 6 not seen as a read (%d)", lines[6]);
    CHECK(lines[10] == 2, "vstore4 at line 10 not seen as a write (%d)", lines[10]);
    CHECK(lines[12] == 4, "atomic_inc at line 12 not seen as an atomic (%d)", lines[12]);
    CHECK(lines[13] == 3, "*o = *o at line 13 not seen as a read and a write (%d)", lines[13]);
    CHECK(L->nlog == 5, "the chosen work-item made %zu accesses, not 5", L->nlog);
    for (size_t i = 0; i < L->nlog; i++)
      if (L->log[i].line == 6)
        CHECK(L->log[i].off == (1 * 8 + 1) * 4 && L->log[i].bytes == 4,
              "vload4: offset %lld, %u bytes", (long long)L->log[i].off, L->log[i].bytes);
    CHECK(o->counts[TS_FIND_OOB] == 1, "%llu accesses outside a buffer, not 1",
          (unsigned long long)o->counts[TS_FIND_OOB]);
    int oob_line = 0;
    for (size_t i = 0; i < o->nfindings; i++)
      if (o->findings[i].kind == TS_FIND_OOB)
        oob_line = o->findings[i].line;
    CHECK(oob_line == 8, "the read past the buffer is at line %d, not 8", oob_line);
    CHECK(o->counts[TS_FIND_RACE_GROUPS] == 0 && o->counts[TS_FIND_RACE_GLOBAL] == 0,
          "spell: races where there are none");
  }
  ts_plain_result_free(o);
  ts_image_destroy(img);
  ts_plain_desc_free(d);
}

/* A __global element written before barrier(CLK_LOCAL_MEM_FENCE) and read by a neighbour
 * after it is a race; after barrier(CLK_GLOBAL_MEM_FENCE) it is not. */
static void barrier_spaces(void)
{
  for (int global = 0; global < 2; global++) {
    char text[1024];
    snprintf(text, sizeof text,
             "// tilescope: plain global=W,H local=8,1\n"
             "__kernel void k(__global const uchar *in, __global uchar *out, int W, int H)\n"
             "{\n"
             "  int x = get_global_id(0), y = get_global_id(1), lx = get_local_id(0);\n"
             "  out[y * W + x] = in[y * W + x];\n"
             "  barrier(%s);\n"
             "  uchar n = out[y * W + (x - lx) + (lx + 1) %% 8];\n"    /* line 7 */
             "  barrier(%s);\n"
             "  out[y * W + x] = n;\n"
             "}\n",
             global ? "CLK_GLOBAL_MEM_FENCE" : "CLK_LOCAL_MEM_FENCE",
             global ? "CLK_GLOBAL_MEM_FENCE" : "CLK_LOCAL_MEM_FENCE");
    const char *path = write_kernel("fence.cl", text);
    ts_plain_desc *d = load(path, NULL, 0);
    ts_image *img = random_image(16, 4, 1);
    ts_plain_result *o = d ? run(d, img, 1, -1, 0, 0, 0) : NULL;
    if (o) {
      uint64_t races = o->counts[TS_FIND_RACE_GLOBAL];
      if (global)
        CHECK(races == 0 && o->nfindings == 0, "global fences: %zu findings", o->nfindings);
      else
        CHECK(races > 0, "a local fence ordered __global memory");
      for (size_t i = 0; !global && i < o->nfindings; i++)
        if (o->findings[i].kind == TS_FIND_RACE_GLOBAL)
          CHECK(o->findings[i].line == 7 || o->findings[i].line == 9, "race at line %d",
                o->findings[i].line);
    }
    ts_plain_result_free(o);
    ts_image_destroy(img);
    ts_plain_desc_free(d);
  }
}

/* Whether a run's findings hold one of the kind at the line (and, where bline > 0, naming
 * that barrier line). */
static int has_finding(const ts_plain_result *o, int kind, int line, int bline)
{
  for (size_t i = 0; o && i < o->nfindings; i++)
    if (o->findings[i].kind == kind && o->findings[i].line == line &&
        (bline <= 0 || o->findings[i].place[0].other_line == bline))
      return 1;
  return 0;
}

/* Barrier divergence: a branch before a barrier that a work-group's items decide apart is
 * named at its condition's line with the barrier's, first of the findings; the same kernel
 * on an image its groups divide, and a correct reduction, have none. */
static void barrier_divergence(void)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/kernels/plain/broken_divergence.cl", TS_ASSETS_DIR);
  ts_plain_desc *d = load(path, NULL, 0);
  for (int odd = 0; d && odd < 2; odd++) {
    ts_image *img = odd ? random_image(45, 31, 3) : random_image(64, 48, 3);
    ts_plain_result *o = run(d, img, 1, -1, 0, 0, 0);
    if (odd) {
      CHECK(o && o->nfindings > 0 && o->findings[0].kind == TS_FIND_DIVERGE &&
            o->findings[0].line == 21 && o->findings[0].place[0].other_line == 29,
            "broken_divergence.cl 45x31: not a divergence at line 21 (barrier 29) first");
      if (o && o->nfindings > 0) {
        char line[1024], want[] = "broken_divergence.cl:21: barrier divergence in gauss_tiled: "
                                  "work-group (";
        ts_plain_finding_line(d, o, &o->findings[0], line, sizeof line);
        CHECK(strncmp(line, want, strlen(want)) == 0 && strstr(line, "the barrier at line 29"),
              "broken_divergence.cl: '%s'", line);
        /* 45 = 2 * 16 + 13: the least group that diverges is (2,0), whatever the order (the
         * count and the items named depend on which item decided first) */
        CHECK(o->findings[0].place[0].group == 2, "divergence named group %u, not (2,0)",
              o->findings[0].place[0].group);
      }
    } else
      CHECK(o && o->counts[TS_FIND_DIVERGE] == 0, "broken_divergence.cl 64x48: a divergence");
    ts_plain_result_free(o);
    ts_image_destroy(img);
  }
  ts_plain_desc_free(d);
  /* a reduction whose loop runs apart, a barrier in a helper, a break before a barrier; then
   * the same shapes decided alike */
  for (int ok = 0; ok < 2; ok++) {
    char text[2048];
    snprintf(text, sizeof text,
             "// tilescope: plain global=W,H local=16,4\n"
             "void sync_all(void) { barrier(CLK_LOCAL_MEM_FENCE); }\n"
             "__kernel void k(__global const uchar *in, __global uchar *out, int W, int H)\n"
             "{\n"
             "  __local uint acc[64];\n"
             "  int l = get_local_id(1) * 16 + get_local_id(0), x = get_global_id(0);\n"
             "  acc[l] = in[get_global_id(1) * W + x];\n"
             "  sync_all();\n"
             "  for (int s = %s; s > 0; s >>= 1) {\n"                   /* line 9 */
             "    uint v = l < s ? acc[l + s] : 0;\n"
             "    sync_all();\n"
             "    if (l < s)\n"
             "      acc[l] += v;\n"
             "    sync_all();\n"
             "  }\n"
             "  if (%s)\n"                                               /* line 16 */
             "    sync_all();\n"
             "  for (int i = 0; i < 3; i++) {\n"
             "    if (i == 1 && %s)\n"                                   /* line 19 */
             "      break;\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"                       /* line 21 */
             "  }\n"
             "  for (int r = 0; r < %s; r++) {\n"                        /* line 23 */
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "  }\n"
             "  for (int r = 0; r < %s; r++)\n"                          /* line 26 */
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "  for (int r = 0; r < 40; r++) {\n"
             "    if (%s)\n"                                               /* line 29 */
             "      barrier(CLK_LOCAL_MEM_FENCE);\n"
             "  }\n"
             "  for (int o = 0; o < 30; o++) {\n"
             "    for (int i = 0; i < %s; i++) {\n"                        /* line 33 */
             "      barrier(CLK_LOCAL_MEM_FENCE);\n"
             "    }\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "  }\n"
             "  if (x >= W)\n"
             "    return;\n"
             "  out[get_global_id(1) * W + x] = (uchar)acc[0];\n"
             "}\n",
             ok ? "32" : "(l & 1) ? 16 : 32", ok ? "H > 0" : "l == 0", ok ? "W < 0" : "x == 3",
             ok ? "100" : "(l == 37 ? 70 : 100)", ok ? "H + 90" : "(l == 40 ? 80 : 90)",
             ok ? "r < H + 40" : "r < 35 || l != 9", ok ? "3" : "(o == 20 && l == 7 ? 2 : 3)");
    const char *kp = write_kernel("diverge.cl", text);
    ts_plain_desc *dk = load(kp, NULL, 0);
    ts_image *img = random_image(32, 8, 1);
    ts_plain_result *o = dk ? run(dk, img, 1, -1, 0, 0, 0) : NULL;
    if (ok)
      CHECK(o && o->nfindings == 0, "diverge.cl decided alike: %zu findings",
            o ? o->nfindings : 0);
    else {
      CHECK(has_finding(o, TS_FIND_DIVERGE, 9, 11), "diverge.cl: no divergence of the loop at 9");
      CHECK(has_finding(o, TS_FIND_DIVERGE, 16, 17), "diverge.cl: no divergence at 16 (helper)");
      CHECK(has_finding(o, TS_FIND_DIVERGE, 19, 21), "diverge.cl: no divergence at 19 (break)");
      /* loops of more rounds than a group's 32 decision slots, with and without braces: on
       * a CPU device a run of one loop's decisions takes one slot, and the finding names the
       * round; a GPU uses the slots again past the 32nd, and does not hang at round 33 */
      /* (TILESCOPE_PLAIN_PORTABLE=1 builds a CPU's observed kernel as a GPU's) */
      const char *portable = getenv("TILESCOPE_PLAIN_PORTABLE");
      int serial = strcmp(ts_cl_device(cl)->type, "CPU") == 0 && !(portable && *portable == '1');
      CHECK(has_finding(o, TS_FIND_DIVERGE, 23, 24), "diverge.cl: no divergence at 23 (round 71)");
      CHECK(has_finding(o, TS_FIND_DIVERGE, 26, 27), "diverge.cl: no divergence at 26 (round 81)");
      /* and an if decided in every round: its 36th decision is past the 32 slots */
      CHECK(has_finding(o, TS_FIND_DIVERGE, 29, 30), "diverge.cl: no divergence at 29 (round 36)");
      /* and a loop nested in another, which parts in the outer one's round 21 */
      CHECK(has_finding(o, TS_FIND_DIVERGE, 33, 34), "diverge.cl: no divergence at 33 (nested)");
      /* each finding names two work-items of its group that decided apart, each with its own
       * decision: at 9 the loop goes on while s > 0, so an odd item (from 16) stops a round
       * before an even one (from 32); at 16 only item 0 holds; at 19 only x == 3 */
      for (size_t i = 0; o && i < o->nfindings; i++) {
        const ts_plain_finding *f = &o->findings[i];
        for (int j = 0; f->kind == TS_FIND_DIVERGE && j < f->nplaces; j++) {
          const ts_plain_place *pl = &f->place[j];
          uint32_t it[2] = { pl->item, pl->other_item };
          int own[2];
          for (int k = 0; k < 2; k++)
            own[k] = f->line == 9    ? !(it[k] & 1)
                     : f->line == 16 ? it[k] == 0
                     : f->line == 19 ? pl->group % 2 == 0 && it[k] % 16 == 3
                     : f->line == 23 ? it[k] != 37
                     : f->line == 26 ? it[k] != 40
                     : f->line == 29 ? it[k] != 9
                                     : it[k] != 7;
          /* the round named: a loop's first whose decisions parted (none for an if); for the
           * nested loop, which ran 30 times, one more than the times item 7's condition held
           * in all (89: 3 a run, but 2 in its 21st) */
          int64_t round = !serial ? 0 : f->line == 9 ? 6 : f->line == 23 ? 71 : f->line == 26 ? 81
                                      : f->line == 33 ? 90 : 0;
          int runs = serial && f->line == 33;
          CHECK((pl->off >> 1 & 0x1fffffff) == round && (pl->off >> 31 & 1) == runs,
                "diverge.cl:%d: round %lld named%s, not %lld", f->line,
                (long long)(pl->off >> 1 & 0x1fffffff), pl->off >> 31 & 1 ? " (over runs)" : "",
                (long long)round);
          CHECK(pl->group == pl->other_group && own[0] == (int)(pl->off & 1) && own[1] != own[0],
                "diverge.cl:%d: group %u items %u (%s) and %u, not two that decided apart",
                f->line, pl->group, it[0], pl->off & 1 ? "true" : "false", it[1]);
        }
      }
    }
    print_findings(dk, o, ok ? "unexpected" : "found");
    ts_plain_result_free(o);
    ts_image_destroy(img);
    ts_plain_desc_free(dk);
  }
}

/* Accesses spelt in a macro's arguments are observed each at its own text, in the context
 * the macro's body gives it, and one made in the body (DEREF) wraps the use: the chosen
 * work-item's log has each access once per evaluation, with its kind. */
static void macro_spellings(void)
{
  const char *path = write_kernel("macros.cl",
    "// tilescope: plain global=W,H local=4,4\n"                                    /* 1 */
    "#define PLUS1(v) ((v) + 1)\n"
    "#define SET(p, v) (p) = (v)\n"
    "#define ADD(a, b) ((a) + (b))\n"
    "#define SQ(x) ((x) * (x))\n"                                                   /* 5 */
    "#define DEREF(p) (*(p))\n"
    "#define INC(x) ((x)++)\n"
    "#define ID(x) x\n"
    "#define ID2(x) (x)\n"
    "__kernel void mac(__global const uchar *in, __global uchar *out, int W, int H)\n"
    "{\n"
    "  int i = (get_global_id(1) * W + get_global_id(0)) * 4;\n"                   /* 12 */
    "  out[i] = PLUS1(in[i]);\n"                                                    /* 13 */
    "  SET(out[i + 1], ADD(in[i], in[i + 1]));\n"                                   /* 14 */
    "  out[i + 2] = SQ(in[i + 2]);\n"                                               /* 15 */
    "  out[i + 3] = DEREF(in + i + 3);\n"                                           /* 16 */
    "  INC(out[i + 3]);\n"                                                          /* 17 */
    "  out[i + 2] += PLUS1(ADD(1, SQ(in[i + 3])));\n"                              /* 18 */
    "  ID(out[i + 1]) = ID(in[i + 1]) + 1;\n"                                       /* 19 */
    "  ID(out[i])++;\n"                                                             /* 20 */
    "  out[i + 3] = ID(ID2(in[i + 2])) + ID2(ID(in[i]));\n"                         /* 21 */
    "  ID(out[i]) ID(=) ID(in[i + 3]);\n"                                           /* 22 */
    "  ID(out[i + 2]) ID(+=) 1;\n"                                                  /* 23 */
    "}\n");
  ts_plain_desc *d = load(path, NULL, 0);
  ts_image *img = random_image(8, 8, 4);
  ts_plain_result *p = d ? run(d, img, 0, -1, 0, 0, 0) : NULL, *o = d ? run(d, img, 1, 0, 0, 1, 1) : NULL;
  CHECK(o && o->nfindings == 0, "macros.cl: not observed, or %zu findings", o ? o->nfindings : 0);
  CHECK(p && o && differ(o->out, p->out) == 0, "macros.cl: the observed output differs");
  if (o) {
    /* per line: reads, writes, updates (sorted: the order of a line's accesses is the
     * compiler's); line 18's reads are spelt inside macros nested in a macro's use; lines 19
     * to 21 end in a macro's argument (ID's body is its argument alone); 22 and 23 spell
     * their operator in one */
    static const char *want[24] = { [13] = "rw", [14] = "rrw", [15] = "rrw", [16] = "rw",
                                    [17] = "u", [18] = "rru", [19] = "rw", [20] = "u",
                                    [21] = "rrw", [22] = "rw", [23] = "u" };
    char got[24][8] = { { 0 } };
    const ts_plain_launch *L = &o->launch[0];
    for (size_t i = 0; i < L->nlog; i++) {
      int ln = L->log[i].line;
      size_t n = ln >= 0 && ln < 24 ? strlen(got[ln]) : 7;
      char a = L->log[i].acc == 1 ? 'r' : L->log[i].acc == 2 ? 'w' : L->log[i].acc == 3 ? 'u' : '?';
      for (; n < 7 && n > 0 && got[ln][n - 1] > a; n--) /* insertion, sorted */
        got[ln][n] = got[ln][n - 1];
      if (n < 7)
        got[ln][n] = a;
    }
    for (int ln = 13; ln <= 23; ln++)
      CHECK(strcmp(got[ln], want[ln]) == 0, "macros.cl line %d: accesses '%s', not '%s'", ln,
            got[ln], want[ln]);
  }
  ts_plain_result_free(p);
  ts_plain_result_free(o);
  ts_image_destroy(img);
  ts_plain_desc_free(d);
}

/* A branch that differs within a group, inside a loop whose condition decides a barrier (as
 * OpenCV's boxFilter.cl has): each work-item takes its own way, observed as plain, in a for,
 * a while and a do loop; and after a for whose body (a barrier) has no braces. On pocl the loop's check in its condition made every such branch the
 * group's first work-item's. */
static void branches_inside_checked_loops(void)
{
  static const char *const loops[4][2] = {
    { "for (int i = 0; i < 2; ++i) {", "}" },
    { "int i = 0; while (i < 2) {", "++i; }" },
    { "int i = 0; do {", "++i; } while (i < 2);" },
    /* a loop whose body has no braces, then the block once */
    { "int i = 1; for (int j = 0; j < 2; j++) barrier(CLK_LOCAL_MEM_FENCE); {", "}" },
  };
  for (int v = 0; v < 4; v++) {
    char text[1024];
    snprintf(text, sizeof text,
             "// tilescope: plain global=W,H local=16,1\n"
             "__kernel void k(__global const uchar *in, __global uchar *out, int W, int H)\n"
             "{\n"
             "  __local uchar t[16];\n"
             "  int lx = get_local_id(0), at = get_global_id(1) * W + get_global_id(0);\n"
             "  %s\n"
             "    if (lx >= 1)\n"
             "      out[at] = (uchar)(in[at] + i + 1);\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "    t[lx] = (uchar)i;\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "  %s\n"
             "  if (lx == 0)\n"
             "    out[at] = t[15];\n"
             "}\n",
             loops[v][0], loops[v][1]);
    const char *path = write_kernel("loops.cl", text);
    ts_plain_desc *d = load(path, NULL, 0);
    ts_image *img = random_image(48, 4, 1);
    ts_plain_result *p = d ? run(d, img, 0, -1, 0, 0, 0) : NULL, *o = d ? run(d, img, 1, -1, 0, 0, 0) : NULL;
    CHECK(o && o->nfindings == 0, "loops.cl (%s): %zu findings", loops[v][0], o ? o->nfindings : 0);
    CHECK(p && o && differ(o->out, p->out) == 0, "loops.cl (%s): the observed output differs",
          loops[v][0]);
    ts_plain_result_free(p);
    ts_plain_result_free(o);
    ts_image_destroy(img);
    ts_plain_desc_free(d);
  }
}

/* The kernel text written as name, run plain and observed (work-item (1,1) of group (0,0)
 * logged) on a random 8x8 image of c channels: no finding and the same output. The observed
 * result, for the caller to free, or NULL. */
static ts_plain_result *observed_alike(const char *name, const char *text, int c)
{
  const char *path = write_kernel(name, text);
  ts_plain_desc *d = load(path, NULL, 0);
  ts_image *img = random_image(8, 8, c);
  ts_plain_result *p = d ? run(d, img, 0, -1, 0, 0, 0) : NULL;
  ts_plain_result *o = d ? run(d, img, 1, 0, 0, 1, 1) : NULL;
  CHECK(o && o->nfindings == 0, "%s: not observed, or %zu findings", name, o ? o->nfindings : 0);
  CHECK(p && o && differ(o->out, p->out) == 0, "%s: the observed output differs", name);
  ts_plain_result_free(p);
  ts_image_destroy(img);
  ts_plain_desc_free(d);
  return o;
}

/* A switch that decides a barrier: each case label is checked in turn, so a group whose
 * work-items enter different cases is a finding at the switch, with its first barrier; one
 * decided alike has none, and runs observed as it runs plain (its labels a macro's, and two
 * on one case). A switch with no barrier in it is left as it is. */
static void switch_divergence(void)
{
  for (int ok = 0; ok < 2; ok++) {
    char text[1024];
    snprintf(text, sizeof text,
             "// tilescope: plain global=W,H local=4,4\n"
             "#define TWO 2\n"
             "__kernel void k(__global const uchar *in, __global uchar *out, int W, int H)\n"
             "{\n"
             "  __local uint acc[16];\n"
             "  int l = get_local_id(1) * 4 + get_local_id(0), i = get_global_id(1) * W + get_global_id(0);\n"
             "  acc[l] = in[i];\n"
             "  switch (%s ? TWO : 7) {\n"                                  /* line 8 */
             "  case TWO:\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"                          /* line 10 */
             "    out[i] = (uchar)acc[l ^ 1];\n"
             "    break;\n"
             "  case 7:\n"
             "  case 8:\n"
             "    acc[l] += 1;\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "    out[i] = (uchar)acc[l ^ 2];\n"
             "    break;\n"
             "  }\n"
             "  switch (l & 3) {\n"
             "  case 0: out[i] += 1; break;\n"
             "  default: break;\n"
             "  }\n"
             "}\n",
             ok ? "W > 4" : "l == 5");
    if (ok) {
      ts_plain_result_free(observed_alike("switch.cl", text, 1));
      continue;
    }
    ts_plain_desc *d = load(write_kernel("switch.cl", text), NULL, 0);
    ts_image *img = random_image(8, 8, 1);
    ts_plain_result *o = d ? run(d, img, 1, -1, 0, 0, 0) : NULL;
    CHECK(has_finding(o, TS_FIND_DIVERGE, 8, 10), "switch.cl: no divergence at its switch");
    for (size_t f = 0; o && f < o->nfindings; f++)
      CHECK(o->findings[f].kind == TS_FIND_DIVERGE && o->findings[f].line == 8 &&
                (o->findings[f].place[0].off >> 30 & 1),
            "switch.cl: a finding of kind %d at line %d, not a switch's", o->findings[f].kind,
            o->findings[f].line);
    print_findings(d, o, "found");
    ts_plain_result_free(o);
    ts_image_destroy(img);
    ts_plain_desc_free(d);
  }
}

/* The loops that run a few times known before they start are marked for unrolling: on a
 * GPU too (TS_SMALL_LOOP) unless they make a nest whose innermost body runs more than
 * TS_GPU_UNROLL times (TS_SMALL_NEST, a CPU device only); a loop of a bound not known, none. */
static void small_loops_marked(void)
{
  static const char text[] =
      "// tilescope: plain global=W,H local=4,4\n"
      "__kernel void k(__global const uchar *in, __global uchar *out, int W, int H)\n"
      "{\n"
      "  int x = get_global_id(0), s = 0;\n"
      "  for (int j = 0; j < 5; j++)\n"
      "    for (int i = 0; i < 5; i++)\n"
      "      s += in[x + i + j];\n"
      "  for (int j = -1; j <= 1; j++) {\n"
      "    for (int i = -1; i <= 1; i++)\n"
      "      s += in[x + 2 + i + j];\n"
      "  }\n"
      "  for (int i = 4; i > 0; i--)\n"
      "    s += in[x + i];\n"
      "  for (int i = 0; i < W; i++)\n"
      "    s += in[i];\n"
      "  out[x] = (uchar)s;\n"
      "}\n";
  ts_plain_src src = { 0 };
  ts_error err = { 0 };
  ts_status st = ts_plain_parse("loops.cl", text, strlen(text), "", 1, &src, &err);
  CHECK(st == TS_OK, "loops.cl: %s", err.msg);
  char marks[256] = "";
  for (const char *p = st == TS_OK ? src.source : ""; (p = strstr(p, "TS_SMALL_")) != NULL; p++)
    snprintf(marks + strlen(marks), sizeof marks - strlen(marks), "%s ",
             strncmp(p, "TS_SMALL_NEST", 13) == 0 ? "nest" : "loop");
  CHECK(strcmp(marks, "nest nest loop loop loop ") == 0, "loops.cl's marks: '%s'", marks);
  ts_plain_src_free(&src);
}

/* What the rewrite cannot see through is refused, never left unseen: a block of more than
 * 64 statements is written whole, prototypes of the file's functions take the context as
 * their definitions do, and a macro that makes an access from the parts of its use (p[i]
 * from p and i, in p[i] = v) is one line naming it. */
static void rewrite_reaches_everything(void)
{
  char text[4096];
  int n = snprintf(text, sizeof text,
                   "// tilescope: plain global=W,H local=4,4\n"
                   "uchar pick(__global const uchar *in, int i);\n"
                   "int none(void);\n"
                   "__kernel void k(__global const uchar *in, __global uchar *out, int W, int H);\n"
                   "__kernel void k(__global const uchar *in, __global uchar *out, int W, int H)\n"
                   "{\n"
                   "  int i = get_global_id(1) * W + get_global_id(0), a = none();\n");
  for (int j = 0; j < 70; j++)
    n += snprintf(text + n, sizeof text - (size_t)n, "  a += %d;\n", j);
  snprintf(text + n, sizeof text - (size_t)n,
           "  out[i] = (uchar)(pick(in, i) + a);\n" /* line 78 */
           "}\n"
           "uchar pick(__global const uchar *in, int i) { return in[i]; }\n" /* line 80 */
           "int none(void) { return 0; }\n");
  ts_plain_result *o = observed_alike("long.cl", text, 1);
  int seen = 0;
  for (size_t i = 0; o && i < o->launch[0].nlog; i++)
    seen |= (o->launch[0].log[i].line == 78 && o->launch[0].log[i].acc == 2 ? 1 : 0) |
            (o->launch[0].log[i].line == 80 && o->launch[0].log[i].acc == 1 ? 2 : 0);
  CHECK(seen == 3, "long.cl: the write at line 78 or the read at line 80 went unseen (%d)", seen);
  ts_plain_result_free(o);

  /* many accesses (35, each a few tests and a call of the checks): every one logged */
  {
    char many[4096];
    int mn = snprintf(many, sizeof many,
                      "// tilescope: plain global=W,H local=4,4\n"
                      "__kernel void k(__global const uchar *in, __global uchar *out, int W, int H)\n"
                      "{\n"
                      "  int i = get_global_id(1) * W + get_global_id(0);\n"
                      "  out[i] = 0;\n");
    for (int j = 0; j < 17; j++) /* two accesses a line, from line 6 */
      mn += snprintf(many + mn, sizeof many - (size_t)mn, "  out[i] += in[i] + %d;\n", j);
    snprintf(many + mn, sizeof many - (size_t)mn, "}\n");
    o = observed_alike("many.cl", many, 1);
    size_t updates = 0;
    for (size_t i = 0; o && i < o->launch[0].nlog; i++)
      updates += o->launch[0].log[i].acc == 3 && o->launch[0].log[i].line >= 6;
    CHECK(updates == 17, "many.cl: %zu updates logged, not %d", updates,
          17);
    ts_plain_result_free(o);
  }

  /* OpenCV's own way (boxFilter.cl and others): loadpix / storepix dereference, or vload3 /
   * vstore3 at offset 0, a pointer spelt in the use's arguments */
  for (int cn = 1; cn <= 3; cn += 2) {
    char ocv[2048];
    snprintf(ocv, sizeof ocv,
             "// tilescope: plain global=W,H local=4,4 options=-Dcn=%d\n"
             "#if cn != 3\n"
             "#define loadpix(addr) *(__global const uchar *)(addr)\n"
             "#define storepix(val, addr)  *(__global uchar *)(addr) = val\n"
             "#define T uchar\n"
             "#else\n"
             "#define loadpix(addr) vload3(0, (__global const uchar *)(addr))\n"
             "#define storepix(val, addr) vstore3(val, 0, (__global uchar *)(addr))\n"
             "#define T uchar3\n"
             "#endif\n"
             "#define convertToDT noconvert\n"
             "#define noconvert\n"
             "__kernel void k(__global const uchar *src, __global uchar *dst, int W, int H)\n"
             "{\n"
             "  int off = (get_global_id(1) * W + get_global_id(0)) * cn;\n"
             "  T v = loadpix(src + off);\n"                                       /* 16 */
             "  storepix(v + (T)1, dst + off);\n"                                  /* 17 */
             "  storepix(convertToDT(loadpix(dst + off) + (T)1), dst + off);\n"    /* 18 */
             "}\n", cn);
    o = observed_alike(cn == 1 ? "pix1.cl" : "pix3.cl", ocv, cn);
    /* the chosen work-item's accesses: line 16 reads cn bytes, 17 writes them, 18 both (the
     * read spelt in a macro's use nested in another's argument) */
    char got[3] = { 0, 0, 0 };
    for (size_t i = 0; o && i < o->launch[0].nlog; i++) {
      const ts_plain_access *g = &o->launch[0].log[i];
      if (g->line >= 16 && g->line <= 18 && g->bytes == (unsigned)cn)
        got[g->line - 16] |= (char)(g->acc == 1 ? 1 : g->acc == 2 ? 2 : 4);
    }
    CHECK(got[0] == 1 && got[1] == 2 && got[2] == 3, "pix.cl cn=%d: accesses by line %d %d %d",
          cn, got[0], got[1], got[2]);
    ts_plain_result_free(o);
  }

  /* operators made in a macro's body, and a private table of more than 64 values */
  {
    char tab[600];
    int tn = 0;
    for (int j = 0; j < 70; j++)
      tn += snprintf(tab + tn, sizeof tab - (size_t)tn, "%s%d", j ? ", " : "", j);
    char text2[2048];
    snprintf(text2, sizeof text2,
             "// tilescope: plain global=W,H local=4,4\n"
             "#define ASSIGN(a, b) a = b\n"
             "#define INC(a) a++\n#define INCP(p) (*(p))++\n"
             "#define ST(p, v) *p = v\n"
             "__kernel void k(__global const uchar *in, __global uchar *out, int W, int H)\n"
             "{\n"
             "  int i = get_global_id(1) * W + get_global_id(0);\n"
             "  const uchar tab[70] = { %s };\n"
             "  ASSIGN(out[i], tab[in[i] %% 70]);\n"                          /* 10 */
             "  INC(out[i]);\n"                                             /* 11 */
             "  __global uchar *r = out + i;\n"
             "  ST(r, out[i] + 1);\n"                                       /* 13 */
             "  INCP(r);\n"                                                 /* 14 */
             "}\n", tab);
    o = observed_alike("ops.cl", text2, 1);
    char got[4] = { 0, 0, 0, 0 }; /* lines 10, 11, 13, 14: 1 read, 2 write, 4 update */
    for (size_t i = 0; o && i < o->launch[0].nlog; i++) {
      const ts_plain_access *g = &o->launch[0].log[i];
      int at = g->line == 10 ? 0 : g->line == 11 ? 1 : g->line == 13 ? 2 : g->line == 14 ? 3 : -1;
      if (at >= 0)
        got[at] |= (char)(g->acc == 1 ? 1 : g->acc == 2 ? 2 : 4);
    }
    CHECK(got[0] == 3 && got[1] == 4 && got[2] == 3 && got[3] == 4,
          "ops.cl: accesses by line %d %d %d %d", got[0], got[1], got[2], got[3]);
    ts_plain_result_free(o);
  }

  /* refused, each at its line (6, or 7 after a function): a pointer argument used for two
   * accesses, a function of the file called from a macro's body, an access a macro's body
   * makes from two of its arguments */
  static const char *const refused[3][3] = {
    { "#define minpix(v, a) *(__global uchar *)(a) = min(*(__global uchar *)(a), v)",
      "minpix((uchar)1, out + i);", "minpix uses its argument 'out + i' for an access and more" },
    { "uchar get(__global const uchar *p, int i) { return p[i]; }\n#define GET(p, i) get(p, i)",
      "out[i] = GET(in, i);", "get is called from a macro's body" },
    { "#define STORE(p, i, v) p[i] = v", "STORE(out, i, in[i]);",
      "STORE makes an access of __global or __local memory out of the parts of its use" },
  };
  for (int v = 0; v < 3; v++) {
    char text3[1024];
    snprintf(text3, sizeof text3,
             "// tilescope: plain global=W,H\n"
             "%s\n"
             "__kernel void k(__global const uchar *in, __global uchar *out, int W, int H)\n"
             "{\n"
             "  int i = get_global_id(1) * W + get_global_id(0);\n"
             "  %s\n"
             "}\n", refused[v][0], refused[v][1]);
    const char *path = write_kernel("refused.cl", text3);
    ts_plain_desc *d = load(path, NULL, 0);
    ts_image *img = random_image(8, 8, 1);
    ts_plain_opts ro = { .observe = 1, .chosen_pass = -1, .watch_x = -1 };
    ts_plain_result *rr = NULL;
    ts_error rerr = { 0 };
    ts_status rst = d ? ts_plain_run(cl, d, img, &ro, &rr, &rerr) : TS_ERR_IO;
    char at[32];
    snprintf(at, sizeof at, "refused.cl:%d: ", v == 1 ? 7 : 6);
    CHECK(rst != TS_OK && strstr(rerr.msg, at) && strstr(rerr.msg, refused[v][2]),
          "refused.cl (%s): not refused at its line (%d: %s)", refused[v][1], (int)rst, rerr.msg);
    ts_plain_result_free(rr);
    ts_image_destroy(img);
    ts_plain_desc_free(d);
  }
}

/* A temporary that the first pass writes only part of (its even rows): the second pass's
 * reads of the rest are reads nothing wrote, through a const pointer or not; lanes the first
 * pass updated atomically count as written. */
static void temporary_across_passes(void)
{
  for (int v = 0; v < 3; v++) {
    char text[1536];
    snprintf(text, sizeof text,
             "// tilescope: buffer tmp type=uint shape=W,H role=temp\n"
             "// tilescope: plain entry=fill global=W,H\n"
             "// tilescope: plain entry=use global=W,H\n"
             "__kernel void fill(__global const uchar *in, __global uint *tmp, int W, int H)\n"
             "{\n"                                                                   /* 5 */
             "  int x = get_global_id(0), y = get_global_id(1);\n"
             "  if (%s)\n"
             "    %s;\n"
             "}\n"
             "__kernel void use(__global %suint *tmp, __global uchar *out, int W, int H)\n" /* 10 */
             "{\n"
             "  int x = get_global_id(0), y = get_global_id(1);\n"
             "  out[y * W + x] = (uchar)tmp[(y / 2 * 2) * W + x];\n"                   /* 13 */
             "  out[y * W + x] += (uchar)tmp[y * W + x];\n"                            /* 14 */
             "}\n",
             v == 2 ? "1" : "y % 2 == 0",
             v == 2 ? "atomic_inc(&tmp[y * W + x])" : "tmp[y * W + x] = in[y * W + x]",
             v == 1 ? "" : "const ");
    const char *path = write_kernel("passes.cl", text);
    ts_plain_desc *d = load(path, NULL, 0);
    ts_image *img = random_image(20, 9, 1);
    ts_plain_result *o = d ? run(d, img, 1, -1, 0, 0, 0) : NULL;
    if (v < 2) {
      CHECK(o && o->nfindings == 1 && o->findings[0].kind == TS_FIND_UNINIT &&
                o->findings[0].line == 14 && o->findings[0].count == 20 * 4,
            "passes.cl (%s reader): not one read nothing wrote at line 14, 80 times",
            v ? "a writable" : "a const");
      if (o && o->nfindings > 0) {
        char line[1024], want[] = "passes.cl:14: read of an element nothing wrote in use: "
                                  "work-group (0,1) item (0,0) reads tmp[y * W + x] at temporary element (0,1), "
                                  "which nothing wrote, in this launch or an earlier pass; 80 times in all";
        ts_plain_finding_line(d, o, &o->findings[0], line, sizeof line);
        CHECK(strcmp(line, want) == 0, "passes.cl: '%s'", line);
      }
    } else
      CHECK(o && o->nfindings == 0, "passes.cl (atomics): %zu findings", o ? o->nfindings : 0);
    ts_plain_result_free(o);
    ts_image_destroy(img);
    ts_plain_desc_free(d);
  }
}

/* The file observed twice on img, fast shadows first (o[0]) and then full (o[1],
 * TILESCOPE_OBSERVE_FULL), with the first two findings of each as lines in found[i]. */
static void both_ways(const char *path, const ts_image *img, ts_plain_desc *d[2],
                      ts_plain_result *o[2], char found[2][2048])
{
  for (int full = 0; full < 2; full++) {
    if (full)
      setenv("TILESCOPE_OBSERVE_FULL", "1", 1);
    d[full] = load(path, NULL, 0);
    o[full] = d[full] ? run(d[full], img, 1, -1, 0, 0, 0) : NULL;
    unsetenv("TILESCOPE_OBSERVE_FULL");
    found[full][0] = 0;
    for (size_t k = 0; o[full] && k < o[full]->nfindings && k < 2; k++) {
      size_t at = strlen(found[full]);
      ts_plain_finding_line(d[full], o[full], &o[full]->findings[k], found[full] + at,
                            sizeof found[full] - at);
    }
  }
}

/* An observed launch is first made with fast shadows and made again with the full ones where
 * a buffer it writes is read or written twice: the buffers are put back first (a pass that adds
 * one to its own temporary adds it once), and the findings are the full shadows' (the same as
 * with TILESCOPE_OBSERVE_FULL set, which starts with them). */
static void fast_shadows_made_again(void)
{
  const char *path = write_kernel(
      "again.cl",
      "// tilescope: buffer tmp type=uint shape=W,H role=temp\n"
      "// tilescope: plain entry=fill global=W,H\n"
      "// tilescope: plain entry=bump global=W,H\n"
      "// tilescope: plain entry=clash global=W,H local=W,H\n"
      "__kernel void fill(__global const uchar *in, __global uint *tmp, int W)\n"
      "{\n"                                                                     /* 5 */
      "  int i = get_global_id(1) * W + get_global_id(0);\n"
      "  tmp[i] = in[i];\n"
      "}\n"
      "__kernel void bump(__global uint *tmp, int W)\n"
      "{\n"                                                                     /* 10 */
      "  int i = get_global_id(1) * W + get_global_id(0);\n"
      "  tmp[i] = tmp[i] + 1;\n"
      "}\n"
      "__kernel void clash(__global const uint *tmp, __global uchar *out, int W)\n"
      "{\n"                                                                     /* 15 */
      "  int i = get_global_id(1) * W + get_global_id(0);\n"
      "  out[i] = (uchar)tmp[i];\n"
      "  out[(i + 1) % (W * get_global_size(1))] = (uchar)tmp[i];\n"          /* 18 */
      "}\n");
  ts_image *img = random_image(8, 4, 1);
  for (size_t i = 0; img && i < 8 * 4; i++)
    img->data[i] = (uint8_t)(img->data[i] % 200);
  char found[2][2048];
  ts_plain_desc *ds[2];
  ts_plain_result *os[2];
  both_ways(path, img, ds, os, found);
  for (int full = 0; full < 2; full++) {
    const ts_plain_result *o = os[full];
    size_t wrong = 0;
    for (size_t i = 0; o && o->out && i < 8 * 4; i++) {
      /* each element of out holds its own value + 1, or its left neighbour's: both clash */
      uint8_t v = o->out->data[i], own = (uint8_t)(img->data[i] + 1);
      uint8_t left = (uint8_t)(img->data[(i + 31) % 32] + 1);
      wrong += v != own && v != left;
    }
    CHECK(o && wrong == 0, "again.cl (%s): %zu elements are not their value + 1 (added twice?)",
          full ? "full shadows" : "fast first", wrong);
    /* races in the work-group, at the line of whichever write came second: on a CPU device,
     * which runs the group's work-items one after another, the next work-item's line 17
     * after its neighbour's line 18, and the first's line 17 before the last's line 18; on a
     * GPU, whose work-items run each line together, every line 18 after line 17 */
    size_t races = 0;
    for (size_t k = 0; o && k < o->nfindings; k++)
      races += o->findings[k].kind == TS_FIND_RACE_GLOBAL;
    CHECK(o && o->nfindings >= 1 && o->nfindings <= 2 && races == o->nfindings,
          "again.cl (%s): %zu findings, not one or two races in the work-group",
          full ? "full shadows" : "fast first", o ? o->nfindings : 0);
    ts_plain_result_free(os[full]);
    ts_plain_desc_free(ds[full]);
  }
  CHECK(strcmp(found[0], found[1]) == 0, "again.cl: fast first found '%s', full '%s'", found[0],
        found[1]);
  ts_image_destroy(img);
}

/* __local reads are tried fast (observe.cl's TS_H_LFAST: no byte's readers named; on a CPU
 * device, those inside the group's read window of the array), and a write in an interval with
 * such reads makes the launch again with them named: a read of a neighbour's byte then a
 * write of one's own, in one interval, is the same race either way. On a CPU device only the
 * first read goes the long way (and finds the window), and no write meets a reader it named,
 * so the writes' own test is what makes the launch again. Built for this device, then as for
 * a GPU (TILESCOPE_PLAIN_PORTABLE). */
static void local_reads_made_again(void)
{
  const char *path = write_kernel(
      "lagain.cl",
      "// tilescope: plain global=W,H local=W,H\n"
      "__kernel void rw(__global const uchar *in, __global uchar *out, int W)\n"
      "{\n"
      "  __local uchar t[32];\n"
      "  int i = get_local_id(1) * W + get_local_id(0);\n"              /* 5 */
      "  t[i] = in[i];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  uchar v = t[(i + 31) % 32];\n"
      "  if (i != 31)\n"
      "    t[i] = v;\n"                                                 /* 10 */
      "  out[i] = v;\n"
      "}\n");
  ts_image *img = random_image(8, 4, 1);
  for (int portable = 0; portable < 2; portable++) {
    char found[2][2048];
    ts_plain_desc *ds[2];
    ts_plain_result *os[2];
    if (portable)
      setenv("TILESCOPE_PLAIN_PORTABLE", "1", 1);
    both_ways(path, img, ds, os, found);
    unsetenv("TILESCOPE_PLAIN_PORTABLE");
    for (int full = 0; full < 2; full++) {
      const ts_plain_result *o = os[full];
      size_t races = 0;
      for (size_t k = 0; o && k < o->nfindings; k++)
        races += o->findings[k].kind == TS_FIND_RACE_LOCAL;
      CHECK(o && races >= 1 && races == o->nfindings,
            "lagain.cl (%s%s): %zu findings, %zu races in __local memory",
            full ? "full" : "fast first", portable ? ", as for a GPU" : "",
            o ? o->nfindings : 0, races);
      ts_plain_result_free(os[full]);
      ts_plain_desc_free(ds[full]);
    }
    CHECK(strcmp(found[0], found[1]) == 0, "lagain.cl%s: fast first found '%s', full '%s'",
          portable ? " (as for a GPU)" : "", found[0], found[1]);
  }
  ts_image_destroy(img);
}

/* A private pointer to __local memory (`__local uchar *p;`, as OpenCV's integral_sum.cl
 * declares one) is a pointer, not a __local array: it builds observed, and its accesses are
 * the array's. */
static void local_pointer_variable(void)
{
  const char *path = write_kernel("lptr.cl",
    "// tilescope: plain global=W,H local=16,1\n"
    "__kernel void k(__global const uchar *in, __global uchar *out, int W, int H)\n"
    "{\n"
    "  __local uchar tile[16];\n"
    "  __local uchar *p;\n"
    "  int x = get_global_id(0), y = get_global_id(1), l = get_local_id(0);\n"
    "  p = tile + l;\n"
    "  *p = in[y * W + x];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[y * W + x] = tile[15 - l];\n"
    "}\n");
  ts_plain_desc *d = load(path, NULL, 0);
  ts_image *img = random_image(32, 4, 1);
  ts_plain_result *p = d ? run(d, img, 0, -1, 0, 0, 0) : NULL, *o = d ? run(d, img, 1, -1, 0, 0, 0) : NULL;
  CHECK(o && o->nfindings == 0, "lptr.cl: not observed, or %zu findings", o ? o->nfindings : 0);
  CHECK(p && o && differ(o->out, p->out) == 0, "lptr.cl: the observed output differs");
  CHECK(p && p->out->data[0] == img->data[15], "lptr.cl: the plain output is not the tile reversed");
  ts_plain_result_free(p);
  ts_plain_result_free(o);
  ts_image_destroy(img);
  ts_plain_desc_free(d);
}

/* Exits that skip no barrier are no divergence: a continue after a loop's last barrier, a
 * break that leaves a switch; and a temporary given init= may be read before any pass
 * writes it. No finding, on a size the groups do not divide. */
static void exits_that_skip_no_barrier(void)
{
  const char *path = write_kernel("legal.cl",
    "// tilescope: buffer acc type=uint shape=W,H role=temp init=7\n"
    "// tilescope: plain global=(W+15)/16*16,(H+15)/16*16 local=16,16\n"
    "__kernel void k(__global const uchar *in, __global uint *acc, __global uchar *out, int W, int H)\n"
    "{\n"
    "  __local uchar t[256];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1), x = get_global_id(0), y = get_global_id(1);\n"
    "  int xx = min(x, W - 1), yy = min(y, H - 1), s = 0;\n"
    "  for (int r = 0; r < 2; r++) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    t[ly * 16 + lx] = in[yy * W + xx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    switch (lx & 1) {\n"
    "    case 1: if (ly & 1) break; s += 1; break;\n"
    "    default: s += t[ly * 16 + (15 - lx)];\n"
    "    }\n"
    "    if (x >= W || y >= H)\n"
    "      continue;\n"
    "    s += acc[y * W + x];\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (x < W && y < H)\n"
    "    out[y * W + x] = (uchar)s;\n"
    "}\n");
  ts_plain_desc *d = load(path, NULL, 0);
  ts_image *img = random_image(37, 29, 1);
  ts_plain_result *o = d ? run(d, img, 1, -1, 0, 0, 0) : NULL;
  CHECK(o && o->nfindings == 0, "legal.cl: %zu findings", o ? o->nfindings : 0);
  print_findings(d, o, "unexpected");
  ts_plain_result_free(o);
  ts_image_destroy(img);
  ts_plain_desc_free(d);
}

/* Description errors name the file, line and field. */
static void description_errors(void)
{
  static const struct {
    const char *text, *want;
  } cases[] = {
    { "// tilescope: plain global=W,H local=7,7\n__kernel void k(__global const uchar *in, "
      "__global uchar *out, int W, int H) {}\n",
      "bad.cl:1: local: 7 does not divide the global size" },
    { "// tilescope: plain entry=nothere\n__kernel void k(__global const uchar *in, __global "
      "uchar *out, int W, int H) {}\n",
      "bad.cl:1: entry: no __kernel named 'nothere' in the file" },
    { "// tilescope: plain\n__kernel void k(__global const uchar *in, __global uchar *out, "
      "int W, int H, float sigma) {}\n",
      "bad.cl:1: sigma: k's argument 'sigma' has no role" },
    { "// tilescope: plain global=W+,H\n__kernel void k(__global const uchar *in, __global "
      "uchar *out, int W, int H) {}\n",
      "bad.cl:1: global: 'W+' is not an expression of W, H and C" },
    { "// tilescope: plain tile=16\n__kernel void k(__global const uchar *in) {}\n",
      "bad.cl:1: tile: expected WxH" },
    { "// tilescope: plain\n__kernel void k(__global const uchar *in, __global uchar *out, "
      "int W, int H) { out[0] = in[0] }\n",
      "bad.cl:2: expected ';'" },
    { "// tilescope: plain\nvoid __kernel k(__global uchar *in, __global uchar *out, int W, "
      "int H) { printf(\"%p\\n\", in); }\n",
      "bad.cl:2: printf() is given a __global or __local pointer" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *path = write_kernel("bad.cl", cases[i].text);
    ts_plain_desc *d = NULL;
    ts_error err = { 0 };
    ts_status st = ts_plain_load(path, NULL, 0, &d, &err);
    ts_image *img = random_image(16, 16, 1);
    ts_plain_result *r = NULL;
    if (st == TS_OK) {
      ts_plain_opts o = { .observe = 1, .chosen_pass = -1, .chosen_group = { -1 }, .watch_x = -1 };
      st = ts_plain_run(cl, d, img, &o, &r, &err);
    }
    CHECK(st != TS_OK && strstr(err.msg, cases[i].want), "case %zu: '%s', want '%s'", i,
          err.msg, cases[i].want);
    ts_plain_result_free(r);
    ts_plain_desc_free(d);
    ts_image_destroy(img);
  }
}

/* bench's two runs in turns (ts_plain_run_turns): each process's repeats between the
 * other's, the outputs equal; a run that crashes or never ends ends the pair with one line
 * naming it, the other not waited for. Made before this process starts OpenCL (each run
 * forks a child that makes its own). */
static void turns_alternate(void)
{
  ts_plain_desc *d = load(TS_ASSETS_DIR "/kernels/plain/conv2d.cl", NULL, 0);
  ts_image *img = random_image(64, 48, 3);
  ts_plain_opts oa = { .observe = 1, .chosen_pass = -1, .watch_x = -1, .repeats = 4,
                       .warmup = 1 };
  for (int i = 0; i < 3; i++)
    oa.chosen_group[i] = oa.chosen_item[i] = -1;
  ts_plain_opts ob = oa;
  ob.observe = 0;
  ts_plain_result *ra = NULL, *rb = NULL;
  ts_error err = { 0 };
  ts_status st = ts_plain_run_turns(-1, TS_KERNELS_DIR, d, img, &oa, &ob, 60, &ra, &rb, &err);
  if (st == TS_ERR_DEVICE && strstr(err.msg, "no OpenCL")) { /* (main says it: skipped, or
                                                               * in CI failed) */
    ts_image_destroy(img);
    ts_plain_desc_free(d);
    return;
  }
  CHECK(st == TS_OK && ra && rb, "turns: %s", err.msg);
  if (st == TS_OK && ra && rb) {
    const ts_plain_launch *a = &ra->launch[0], *b = &rb->launch[0];
    CHECK(differ(ra->out, rb->out) == 0, "turns: the observed output differs from the plain");
    for (int i = 0; i < oa.repeats; i++)
      CHECK(a->began[i] < b->began[i] && (i + 1 == oa.repeats || b->began[i] < a->began[i + 1]),
            "turns: the plain run's repeat %d did not come between the observed run's %d and "
            "%d (%.6f, %.6f, %.6f)", i, i, i + 1, a->began[i], b->began[i],
            i + 1 < oa.repeats ? a->began[i + 1] : 0.0);
  }
  ts_plain_result_free(ra);
  ts_plain_result_free(rb);
  ra = rb = NULL;
  const char *bad[] = { "far.cl", "forever.cl" };
  for (int i = 0; i < 2; i++) {
    char path[600];
    snprintf(path, sizeof path, "%s/../tests/kernels/%s", TS_ASSETS_DIR, bad[i]);
    ts_plain_desc *e = load(path, NULL, 0);
    ts_plain_opts pa = ob;
    err = (ts_error){ 0 };
    st = e ? ts_plain_run_turns(-1, TS_KERNELS_DIR, e, img, &pa, &ob, i ? 2 : 60, &ra, &rb,
                                &err)
           : TS_ERR_IO;
    /* (far.cl's write past its buffer: a crash on a CPU device, a failed launch on a GPU) */
    CHECK(st != TS_OK && strstr(err.msg, bad[i]) && !ra && !rb &&
          (i ? strstr(err.msg, "did not finish in 2 s") != NULL
             : strstr(err.msg, "crashed") || strstr(err.msg, "launch failed")),
          "turns with %s: %d '%s'", bad[i], (int)st, err.msg);
    ts_plain_result_free(ra);
    ts_plain_result_free(rb);
    ra = rb = NULL;
    ts_plain_desc_free(e);
  }
  ts_image_destroy(img);
  ts_plain_desc_free(d);
}

/* test_plain [PART...]: the parts named, or all of them. */
int main(int argc, char **argv)
{
  static const struct {
    const char *name;
    void (*run)(void);
  } parts[] = {
    { "examples_equal_references", examples_equal_references },
    { "integral_equals_reference", integral_equals_reference },
    { "rectangles_exact", rectangles_exact },
    { "scan_rectangles_exact", scan_rectangles_exact },
    { "broken_copies_caught", broken_copies_caught },
    { "watched_pixel", watched_pixel },
    { "spellings_observed", spellings_observed },
    { "barrier_spaces", barrier_spaces },
    { "barrier_divergence", barrier_divergence },
    { "switch_divergence", switch_divergence },
    { "exits_that_skip_no_barrier", exits_that_skip_no_barrier },
    { "local_pointer_variable", local_pointer_variable },
    { "temporary_across_passes", temporary_across_passes },
    { "fast_shadows_made_again", fast_shadows_made_again },
    { "local_reads_made_again", local_reads_made_again },
    { "macro_spellings", macro_spellings },
    { "rewrite_reaches_everything", rewrite_reaches_everything },
    { "small_loops_marked", small_loops_marked },
    { "branches_inside_checked_loops", branches_inside_checked_loops },
    { "description_errors", description_errors },
  };
  int all = argc == 1;
  for (int a = 1; a < argc; a++)
    all |= strcmp(argv[a], "turns_alternate") == 0;
  if (all) /* (before this process's OpenCL) */
    turns_alternate();
  ts_error err = { 0 };
  if (ts_cl_create(-1, TS_KERNELS_DIR, &cl, &err) != TS_OK) {
    const char *ci = getenv("CI");
    fprintf(stderr, "test_plain: %s\n", err.msg);
    if (ci && strcmp(ci, "true") == 0)
      return 1;
    printf("test_plain: skipped, no OpenCL device\n");
    return 77;
  }
  if (!mkdtemp(tmpdir))
    return 1;
  for (int a = 1; a < argc; a++) {
    int known = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
      known |= strcmp(argv[a], parts[i].name) == 0;
    known |= strcmp(argv[a], "turns_alternate") == 0;
    if (!known) {
      fprintf(stderr, "test_plain: %s: no such part\n", argv[a]);
      return 2;
    }
  }
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    int named = argc == 1;
    for (int a = 1; a < argc; a++)
      named |= strcmp(argv[a], parts[i].name) == 0;
    if (named)
      parts[i].run();
  }
  ts_cl_destroy(cl);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0)
    fprintf(stderr, "test_plain: could not remove %s\n", tmpdir);
  return check_exit("test_plain");
}
