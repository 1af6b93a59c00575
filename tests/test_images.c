/* OpenCL images in plain kernels (SPEC section 10): image2d_t arguments bound to the input,
 * the output and temporaries. The shipped box_image.cl equals the box reference plain and
 * observed on grey, RGB and RGBA images; read_image and write_image are observed as accesses
 * of the pixels they reach: a sampler-less read past the edge is a finding naming the pixel
 * (not made), a sampler that clamps to the edge or to the border is none, a linear filter at
 * normalised coordinates reads inside; two writers of one pixel race; a temporary image read
 * where the pass before did not write it is uninitialised; what cannot be bound is refused
 * in one line. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include "ts_plain.h"

static ts_cl *cl;
static char tmpdir[] = "/tmp/tilescope-images-XXXXXX";

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

static ts_plain_result *run(const char *path, const ts_image *img, int observe)
{
  ts_plain_desc *d = NULL;
  ts_error err = { 0 };
  CHECK(ts_plain_load(path, NULL, 0, &d, &err) == TS_OK, "%s: %s", path, err.msg);
  ts_plain_opts o = { .observe = observe, .chosen_pass = -1, .watch_x = -1 };
  o.chosen_group[0] = -1;
  ts_plain_result *r = NULL;
  CHECK(d && ts_plain_run(cl, d, img, &o, &r, &err) == TS_OK, "%s: %s", path, err.msg);
  ts_plain_desc_free(d);
  return r;
}

/* The findings' lines, one after another (for a message), and whether one starts `want`. */
static int has_line(const char *path, const ts_plain_result *r, const char *want, char *all,
                    size_t n)
{
  ts_plain_desc *d = NULL;
  ts_error err = { 0 };
  int found = 0;
  all[0] = 0;
  if (ts_plain_load(path, NULL, 0, &d, &err) != TS_OK)
    return 0;
  for (size_t i = 0; r && i < r->nfindings; i++) {
    char line[1024];
    ts_plain_finding_line(d, r, &r->findings[i], line, sizeof line);
    found |= strncmp(line, want, strlen(want)) == 0;
    snprintf(all + strlen(all), n - strlen(all), "\n  %s", line);
  }
  ts_plain_desc_free(d);
  return found;
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

static void box_image_equals_reference(void)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/kernels/plain/box_image.cl", TS_ASSETS_DIR);
  static const int sizes[][3] = { { 45, 31, 3 }, { 64, 48, 1 }, { 33, 17, 4 } };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    ts_image *img = random_image(sizes[s][0], sizes[s][1], sizes[s][2]), *ref = NULL;
    ts_ref_box3(img, &ref, NULL);
    ts_plain_result *p = run(path, img, 0), *o = run(path, img, 1);
    if (p && o) {
      CHECK(differ(p->out, ref) == 0, "box_image %dx%dx%d: %zu values differ from the reference",
            img->w, img->h, img->c, differ(p->out, ref));
      CHECK(differ(o->out, p->out) == 0, "box_image %dx%dx%d: observed output differs in %zu",
            img->w, img->h, img->c, differ(o->out, p->out));
      CHECK(o->nfindings == 0, "box_image %dx%dx%d: %zu findings", img->w, img->h, img->c,
            o->nfindings);
      /* every pixel read and written: the groups' rectangles cover the image */
      const ts_plain_launch *L = &o->launch[0];
      size_t covered = 0;
      for (uint32_t g = 0; L->groups && g < L->ngroups_all; g++) {
        const ts_plain_rect *w = &L->groups[g].wrote;
        if (w->x1 >= w->x0)
          covered += (size_t)(w->x1 - w->x0 + 1) * (size_t)(w->y1 - w->y0 + 1);
      }
      CHECK(covered == (size_t)img->w * img->h, "box_image: the groups' tiles cover %zu of %d",
            covered, img->w * img->h);
    }
    ts_plain_result_free(p);
    ts_plain_result_free(o);
    ts_image_destroy(img);
    ts_image_destroy(ref);
  }
}

static void expect(const char *path, const ts_image *img, const char *want)
{
  ts_plain_result *o = run(path, img, 1);
  char all[4096];
  int found = has_line(path, o, want, all, sizeof all);
  if (want[0])
    CHECK(found, "%s: no finding that starts '%s'; found:%s", path, want, all);
  else
    CHECK(o && o->nfindings == 0, "%s: findings on a correct kernel:%s", path, all);
  ts_plain_result_free(o);
}

static void findings(void)
{
  ts_image *img = random_image(64, 48, 3);
  char path[1024];
  snprintf(path, sizeof path, "%s/kernels/plain/broken_image_edge.cl", TS_ASSETS_DIR);
  expect(path, img,
         "broken_image_edge.cl:16: access outside every buffer (not performed) in box_image: "
         "work-group (0,0) item (0,0) reads image in pixel (-1,-1), outside its 64x48; ");
  /* two work-items write one pixel */
  expect(write_kernel("race.cl",
                      "// tilescope: plain global=W,H local=8,8\n"
                      "__kernel void halve(read_only image2d_t in, write_only image2d_t out)\n"
                      "{\n"
                      "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
                      "  write_imageui(out, (int2)(p.x / 2, p.y), read_imageui(in, p));\n"
                      "}\n"),
         img, "race.cl:5: race in a work-group on __global memory in halve: work-group (0,0) "
              "item (1,0) writes out pixel (0,0)");
  /* clamp (the border colour) and a linear filter at normalised coordinates: inside */
  expect(write_kernel("border.cl",
                      "// tilescope: plain global=W,H local=8,8\n"
                      "__constant sampler_t b = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP |\n"
                      "                         CLK_FILTER_NEAREST;\n"
                      "__constant sampler_t l = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
                      "                         CLK_FILTER_LINEAR;\n"
                      "__kernel void shift(read_only image2d_t in, write_only image2d_t out)\n"
                      "{\n"
                      "  int x = get_global_id(0), y = get_global_id(1);\n"
                      "  float2 n = (float2)((x + 0.5f) / get_image_width(in), (y + 0.5f) / get_image_height(in));\n"
                      "  write_imagef(out, (int2)(x, y), (read_imagef(in, b, (int2)(x - 3, y + 2)) +\n"
                      "                                   read_imagef(in, l, n)) * 0.5f);\n"
                      "}\n"),
         img, "");
  /* a temporary image the first pass writes only part of */
  const char *two =
    "// tilescope: plain entry=first global=W,H local=8,8 tmp=buffer\n"
    "// tilescope: plain entry=second global=W,H local=8,8 tmp=buffer\n"
    "__kernel void first(read_only image2d_t in, write_only image2d_t tmp)\n"
    "{\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  if (p.x >= 4)\n"
    "    write_imagef(tmp, p, read_imagef(in, p));\n"
    "}\n"
    "__kernel void second(read_only image2d_t tmp, write_only image2d_t out)\n"
    "{\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  write_imagef(out, p, read_imagef(tmp, p));\n"
    "}\n";
  expect(write_kernel("two.cl", two), img,
         "two.cl:12: read of an element nothing wrote in second: work-group (0,0) item (0,0) "
         "reads temporary tmp element (0,0)");
  ts_image_destroy(img);
}

/* What cannot be bound, in one line naming the file and the argument. */
static void refused(void)
{
  struct {
    const char *file, *text, *want;
  } cases[] = {
    { "vol.cl",
      "// tilescope: plain global=W,H\n"
      "__kernel void vol(read_only image3d_t in, __global uchar *out) { out[0] = 0; }\n",
      "a 3-D image: tilescope binds 2-D images (image2d_t)" },
    { "helper.cl",
      "// tilescope: plain global=W,H\n"
      "uint4 at(read_only image2d_t im, int2 p) { return read_imageui(im, p); }\n"
      "__kernel void h(read_only image2d_t in, write_only image2d_t out)\n"
      "{\n"
      "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
      "  write_imageui(out, p, at(in, p));\n"
      "}\n",
      "helper.cl:2: read_imageui of an image that is not the kernel's own argument" },
  };
  ts_image *img = random_image(16, 16, 3);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *path = write_kernel(cases[i].file, cases[i].text);
    ts_plain_desc *d = NULL;
    ts_error err = { 0 };
    ts_status st = ts_plain_load(path, NULL, 0, &d, &err);
    ts_plain_result *r = NULL;
    if (st == TS_OK) {
      ts_plain_opts o = { .observe = 1, .chosen_pass = -1, .watch_x = -1 };
      o.chosen_group[0] = -1;
      st = ts_plain_run(cl, d, img, &o, &r, &err);
    }
    CHECK(st != TS_OK && strstr(err.msg, cases[i].want) && strstr(err.msg, cases[i].file) &&
              !strchr(err.msg, '\n'),
          "%s: '%s', wanted one line naming the file with '%s'", cases[i].file, err.msg,
          cases[i].want);
    ts_plain_result_free(r);
    ts_plain_desc_free(d);
  }
  ts_image_destroy(img);
}

int main(void)
{
  ts_error err = { 0 };
  if (ts_cl_create(-1, TS_KERNELS_DIR, &cl, &err) != TS_OK) {
    const char *ci = getenv("CI");
    fprintf(stderr, "test_images: %s\n", err.msg);
    if (ci && strcmp(ci, "true") == 0)
      return 1;
    printf("test_images: skipped, no OpenCL device\n");
    return 77;
  }
  if (!mkdtemp(tmpdir))
    return 1;
  box_image_equals_reference();
  findings();
  refused();
  ts_cl_destroy(cl);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0)
    fprintf(stderr, "test_images: could not remove %s\n", tmpdir);
  return check_exit("test_images");
}
