/* Oclgrind's simulator files (core/plain/ts_sim.c): each argument form read against the
 * kernel's parameters as libclang gives them (contents byte for byte), the dump printed as
 * oclgrind-kernel prints it, and every malformed file refused with one line naming the file,
 * its line and the argument. Needs no device. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ts_sim.h"

static char dir[64];

static void put(const char *name, const char *text)
{
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL, "cannot write %s", path);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static const char *KERNEL =
    "typedef struct { float a, b, c; } S;\n"
    "__kernel void k(__global int *data, __global const uchar *bytes, __global float4 *v,\n"
    "                __local int *scratch, int n, int4 vec, S s, __global ulong *big,\n"
    "                __global short *nothing)\n"
    "{ data[0] = n; }\n";

/* Reads dir/name.sim against KERNEL's k; the status, and the error line in msg. */
static ts_status load(const char *name, const char *text, ts_sim **out, char *msg, size_t n)
{
  put("k.cl", KERNEL);
  put(name, text);
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  ts_error err = { 0 };
  *out = NULL;
  ts_sim *s = NULL;
  ts_status st = ts_sim_head(path, &s, &err);
  if (st == TS_OK) {
    ts_plain_src src = { 0 };
    st = ts_plain_parse(s->program, KERNEL, strlen(KERNEL), s->options, 0, &src, &err);
    CHECK(st == TS_OK, "parse: %s", err.msg);
    if (st == TS_OK)
      st = ts_sim_args(s, &src.kernels[0], &err);
    ts_plain_src_free(&src);
  }
  snprintf(msg, n, "%s", err.msg);
  if (st == TS_OK)
    *out = s;
  else
    ts_sim_free(s);
  return st;
}

static const char *GOOD =
    "# ARGS: --build-options -DX=1\n"
    "k.cl  # the file\n"
    "k\n"
    "16 1\n1   # sizes may break lines\n"
    "4 1 1\n"
    "<size=16 fill=-2 dump>\n"
    "<size=4 hex ro> ff 0x10 7f 0\n"
    "<size=32 range=0.5:0.25:2.25 wo>\n"
    "<size=64>\n"
    "<size=4> 42\n"
    "<size=16>\n  7 42\n  0 -1\n"
    "<size=12 float> 42 3 18\n"
    "<size=16 noinit dump hex>\n"
    "<null>\n";

static void test_good(void)
{
  ts_sim *s = NULL;
  char msg[1024];
  ts_status st = load("good.sim", GOOD, &s, msg, sizeof msg);
  CHECK(st == TS_OK, "good.sim: %s", msg);
  if (!s)
    return;
  CHECK(strcmp(s->kernel, "k") == 0, "kernel '%s'", s->kernel);
  CHECK(strcmp(s->options, "-DX=1") == 0, "options '%s'", s->options);
  CHECK(s->global[0] == 16 && s->global[1] == 1 && s->global[2] == 1, "global");
  CHECK(s->local[0] == 4, "local");
  CHECK(s->nargs == 9, "%d arguments", s->nargs);
  const ts_sim_arg *a = s->args;
  CHECK(a[0].kind == TS_SIM_BUFFER && a[0].type == TS_SIM_INT && a[0].dump, "data");
  int32_t d0[4];
  memcpy(d0, a[0].data, 16);
  CHECK(d0[0] == -2 && d0[3] == -2, "fill=-2: %d %d", d0[0], d0[3]);
  CHECK(a[1].type == TS_SIM_UCHAR && a[1].ro && a[1].hex, "bytes");
  CHECK(a[1].data[0] == 0xff && a[1].data[1] == 0x10 && a[1].data[2] == 0x7f, "hex values");
  CHECK(a[2].type == TS_SIM_FLOAT && a[2].wo, "float4* takes float");
  float f[8];
  memcpy(f, a[2].data, 32);
  CHECK(f[0] == 0.5f && f[7] == 2.25f, "range: %g .. %g", f[0], f[7]);
  CHECK(a[3].kind == TS_SIM_LOCAL && a[3].size == 64 && !a[3].data, "local");
  CHECK(a[4].kind == TS_SIM_VALUE && a[4].data && *(int32_t *)a[4].data == 42, "n");
  int32_t v[4];
  memcpy(v, a[5].data, 16);
  CHECK(v[0] == 7 && v[1] == 42 && v[2] == 0 && v[3] == -1, "vec over two lines");
  float sv[3];
  memcpy(sv, a[6].data, 12);
  CHECK(a[6].kind == TS_SIM_VALUE && sv[0] == 42 && sv[2] == 18, "struct by value");
  CHECK(a[7].noinit && !a[7].data && a[7].type == TS_SIM_ULONG, "ulong noinit");
  CHECK(a[8].kind == TS_SIM_NULL, "null");

  /* The dump, as oclgrind-kernel prints it: decimal, then hex of each width. */
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  ts_sim_dump(&a[0], a[0].data, m);
  ts_sim_arg h = a[7];
  uint64_t big[2] = { 0x8000000000000000ull, 1 };
  ts_sim_dump(&h, big, m);
  ts_sim_arg c = { .name = "c", .type = TS_SIM_CHAR, .size = 2, .hex = 1 };
  int8_t cs[2] = { -1, 5 };
  ts_sim_dump(&c, cs, m);
  ts_sim_arg g = { .name = "g", .type = TS_SIM_FLOAT, .size = 16 };
  float gs[4] = { 1.0f / 3, 1e10f, 42.24f, -0.0f };
  ts_sim_dump(&g, gs, m);
  fclose(m);
  const char *want = "\nArgument 'data': 16 bytes\n  data[0] = -2\n  data[1] = -2\n"
                     "  data[2] = -2\n  data[3] = -2\n\n"
                     "\nArgument 'big': 16 bytes\n  big[0] = 0x8000000000000000\n"
                     "  big[1] = 0x0000000000000001\n\n"
                     "\nArgument 'c': 2 bytes\n  c[0] = 0xffffffff\n  c[1] = 0x05\n\n"
                     "\nArgument 'g': 16 bytes\n  g[0] = 0.333333\n  g[1] = 1e+10\n"
                     "  g[2] = 42.24\n  g[3] = -0\n\n";
  CHECK(text && strcmp(text, want) == 0, "dump:\n%s\nwanted:\n%s", text ? text : "", want);
  free(text);
  ts_sim_free(s);
}

/* Each malformed file: refused, and its line names the file, the line and what is wrong. */
static void test_bad(void)
{
  static const struct {
    const char *text, *want;
  } cases[] = {
    { "nope.cl\nk\n1 1 1\n1 1 1\n", "bad.sim:1: the kernel file 'nope.cl' cannot be read" },
    { "k.cl\nk\n1 1\n", "bad.sim:3: the NDRange: the file ends" },
    { "k.cl\nk\n1 1 1\n0 1 1\n", "bad.sim:4: the work-group size: a work-group size of 0" },
    { "k.cl\nk\n4 1 1\n1 1 1\n<size=6 int>\n", "bad.sim:5: argument 0 'data': its size is not "
                                               "a whole number of int" },
    { "k.cl\nk\n4 1 1\n1 1 1\n<size=4> 1 2\n", "bad.sim:5: argument 1 'bytes': expected its "
                                               "description" },
    { "k.cl\nk\n4 1 1\n1 1 1\n<size=4 fill=x>\n", "argument 0 'data': fill=x is not a value" },
    { "k.cl\nk\n4 1 1\n1 1 1\n<size=4 int\n", "argument 0 'data': its description has no "
                                              "closing '>'" },
    { "k.cl\nk\n4 1 1\n1 1 1\n<size=2147483648>\n", "argument 0 'data': size=2147483648 is "
                                                    "over 1 GiB" },
    { "k.cl\nk\n4 1 1\n1 1 1\n<size=4 bogus>\n", "'bogus' is not a word of a description" },
    { "k.cl\nk\n4 1 1\n1 1 1\n<size=4 fill=0>\n<size=4> 256 0 0 0\n",
      "argument 1 'bytes': '256' is not a value of its type" },
    { "k.cl\nk\n4 1 1\n1 1 1\n<size=8 range=0:1:5>\n", "range=0:1:5 does not make as many" },
    { "k.cl\nk\n4 1 1\n1 1 1\n<size=4 fill=0>\n<size=4 fill=0>\n<size=16 fill=0>\n<size=4>\n"
      "<size=2 short> 1\n", "argument 4 'n': size=2 is smaller than the parameter's 4 bytes" },
    { "k.cl\nk\n4 1 1\n1 1 1\n<size=4 fill=0 dump>\n<size=4 fill=0>\n<size=16 fill=0>\n"
      "<size=4 dump>\n", "argument 3 'scratch': 'dump' is for __global" },
    { "k.cl\nk\n1 1 1\n1 1 1\n<size=4 fill=0>\n<size=4 fill=0>\n<size=16 fill=0>\n<size=4>\n"
      "<size=4> 1\n<size=16 fill=0>\n<size=12 float fill=0>\n<size=8 fill=0>\n<size=2 fill=0>\n"
      "<null>\n",
      "more than the kernel's 9 arguments" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ts_sim *s = NULL;
    char msg[1024];
    ts_status st = load("bad.sim", cases[i].text, &s, msg, sizeof msg);
    CHECK(st != TS_OK, "case %zu: accepted", i);
    CHECK(strstr(msg, cases[i].want) != NULL, "case %zu: '%s', wanted '%s'", i, msg,
          cases[i].want);
    CHECK(strchr(msg, '\n') == NULL, "case %zu: more than one line", i);
    ts_sim_free(s);
  }
}

int main(void)
{
  snprintf(dir, sizeof dir, "/tmp/test_sim.XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_good();
  test_bad();
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", dir);
  return check_exit("test_sim");
}
