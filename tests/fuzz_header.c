/* The kernel headers under hostile text: a user kernel's `// tilescope:` header
 * (ts_user_parse in core/variants/ts_user.c) and a plain kernel's launch description with its
 * expressions (ts_plain_read_desc and ts_plain_eval in core/plain/ts_plain_desc.c), each input
 * given to both. Built with clang and -DTS_FUZZ=ON it is a libFuzzer target; otherwise its
 * main() is a deterministic smoke run for CTest over tests/corpus/header (see fuzz_smoke.h).
 * What parses must be in range (what the runs take without a check of their own); what does
 * not must fail with one line naming the file.
 * usage (smoke): fuzz_header CORPUS_DIR [ITERATIONS]
 * longer, with libFuzzer (clang; a copy of the corpus, which libFuzzer adds to):
 *   CC=clang cmake -S . -B build/fuzz -DTS_FUZZ=ON -DTS_VIEWER=OFF
 *   cmake --build build/fuzz --target fuzz_header
 *   cp -r tests/corpus/header corpus-header
 *   build/fuzz/tests/fuzz_header corpus-header -dict=tests/corpus/header.dict \
 *     -max_total_time=300 -close_fd_mask=3 */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_smoke.h"
#include "ts_plain.h"
#include "ts_user.h"

static void check_error(const ts_error *err, const char *what)
{
  if (strncmp(err->msg, "fuzz.cl", 7) != 0 || strchr(err->msg, '\n'))
    fuzz_fail("a failed %s must say one line naming the file: '%s'", what, err->msg);
}

/* A user variant: its passes' thread spaces and footprints on a large image. */
static void check_user(const ts_variant *v)
{
  if (!v->name || !v->name[0] || strlen(v->name) > 63 || strspn(v->name,
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != strlen(v->name))
    fuzz_fail("variant name '%s'", v->name ? v->name : "(null)");
  if (v->npasses < 1 || v->npasses > TS_MAX_PASSES || v->cost < 1 || v->cost > TS_COST_MAX ||
      v->pattern < 0 || v->pattern >= TS_PAT_COUNT)
    fuzz_fail("%d passes, cost %d, pattern %d", v->npasses, v->cost, (int)v->pattern);
  ts_kctx k = { .W = 4096, .H = 4096, .C = 3, .in_c = 3, .variant = v };
  v->setup(&k);
  for (int p = 0; p < v->npasses; p++) {
    const ts_pass_desc *pd = &v->passes[p];
    int tw = 0, th = 0;
    pd->space(&k, &tw, &th);
    ts_rect r = pd->read_px(&k, 0, 0), t = pd->tile_px(&k, 0, 0);
    if (tw < 1 || th < 1 || tw > 4096 || th > 4096 || t.w < 1 || t.h < 1 || t.w > 4096 ||
        t.h > 4096 || r.w - t.w > 128 || r.w < t.w)
      fuzz_fail("pass %d: %dx%d threads, tile %dx%d, footprint %dx%d", p + 1, tw, th, t.w, t.h,
                r.w, r.h);
    if (pd->cl_group_w < 0 || pd->cl_group_h < 0 || pd->cl_group_w * pd->cl_group_h > 1024)
      fuzz_fail("pass %d: group %dx%d", p + 1, pd->cl_group_w, pd->cl_group_h);
    /* the input buffer is the run's; the others the variant's setup makes */
    if (!pd->cl_kernel || !pd->cl_kernel[0] || pd->dst == TS_BUF_IN ||
        (pd->src != TS_BUF_IN && k.buf[pd->src].cols == 0) || k.buf[pd->dst].cols == 0)
      fuzz_fail("pass %d: entry '%s', buffers %d -> %d", p + 1,
                pd->cl_kernel ? pd->cl_kernel : "(null)", pd->src, pd->dst);
  }
}

/* A plain description: its fields in range, and every expression evaluates or fails cleanly. */
static void check_plain(const ts_plain_desc *d)
{
  if (d->npasses < 1 || d->npasses > TS_PLAIN_MAX_PASSES)
    fuzz_fail("%d plain passes", d->npasses);
  for (int p = 0; p < d->npasses; p++) {
    const ts_plain_pass *ps = &d->pass[p];
    if (ps->tile_w < 0 || ps->tile_w > 4096 || ps->tile_h < 0 || ps->tile_h > 4096 ||
        (ps->tile_w > 0) != (ps->tile_h > 0) || ps->halo < 0 || ps->halo > 64 ||
        ps->gdims < 0 || ps->gdims > 3 || ps->ldims < 0 || ps->ldims > 3 || ps->nargs < 0 ||
        ps->nargs > TS_PLAIN_MAX_PARAMS || strnlen(ps->entry, sizeof ps->entry) >= sizeof ps->entry)
      fuzz_fail("plain pass %d: tile %dx%d halo %d, %d/%d dims, %d arguments", p + 1,
                ps->tile_w, ps->tile_h, ps->halo, ps->gdims, ps->ldims, ps->nargs);
    double x;
    int is_int;
    ts_error err = { 0 };
    for (int i = 0; i < ps->gdims; i++)
      if (ts_plain_eval(ps->global[i], 640, 480, 3, &x, &is_int, &err) != TS_OK &&
          strchr(err.msg, '\n'))
        fuzz_fail("global '%s': '%s'", ps->global[i], err.msg);
    for (int i = 0; i < ps->ldims; i++)
      if (ts_plain_eval(ps->local[i], 640, 480, 3, &x, &is_int, &err) != TS_OK &&
          strchr(err.msg, '\n'))
        fuzz_fail("local '%s': '%s'", ps->local[i], err.msg);
    for (int i = 0; i < ps->nargs; i++)
      if (ps->args[i].role == TS_ARG_UNSET || ps->args[i].role > TS_ARG_NAMED)
        fuzz_fail("argument '%s': role %d", ps->args[i].name, (int)ps->args[i].role);
  }
  /* declared buffers: a known type, role and lane, shapes that evaluate or fail cleanly */
  if (d->nbufs < 0 || d->nbufs > TS_PLAIN_MAX_BUFS)
    fuzz_fail("%d buffers", d->nbufs);
  for (int i = 0; i < d->nbufs; i++) {
    const ts_plain_bufdecl *b = &d->bufs[i];
    double x;
    ts_error err = { 0 };
    if (b->role < TS_BUF_INPUT || b->role > TS_BUF_TEMP || (b->lane != 1 && b->lane != 2 && b->lane != 4))
      fuzz_fail("buffer '%s': role %d, lane %d", b->name, (int)b->role, b->lane);
    if ((ts_plain_eval(b->cols, 640, 480, 3, &x, NULL, &err) != TS_OK && strchr(err.msg, '\n')) ||
        (ts_plain_eval(b->rows, 640, 480, 3, &x, NULL, &err) != TS_OK && strchr(err.msg, '\n')))
      fuzz_fail("buffer '%s': shape '%s,%s': '%s'", b->name, b->cols, b->rows, err.msg);
  }
}

static long accepted; /* by either parser */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  ts_error err = { 0 };
  ts_variant *v = NULL;
  int ok = 0;
  if (ts_user_parse((const char *)data, size, "fuzz.cl", &v, &err) == TS_OK) {
    check_user(v);
    ts_user_free(v);
    ok = 1;
  } else {
    check_error(&err, "header");
  }
  /* the description's text is the file's, not NUL-terminated: a copy of its own length; the
   * description (180 KB) is made once, as a fresh one for each input would cost a sanitizer
   * build an mmap and munmap every time */
  static ts_plain_desc desc;
  ts_plain_desc *d = &desc;
  memset(d, 0, sizeof *d);
  char *text = malloc(size ? size : 1);
  if (text) {
    memcpy(text, data, size);
    strcpy(d->path, "fuzz.cl");
    d->text = text;
    d->len = size;
    (void)ts_plain_is_plain(text, size);
    if (ts_plain_read_desc(d, NULL, 0, &err) == TS_OK) {
      check_plain(d);
      ok = 1;
    } else {
      check_error(&err, "description");
    }
  }
  free(text);
  accepted += ok;
  return 0;
}

#ifndef TS_FUZZ_LIBFUZZER
int main(int argc, char **argv)
{
  static const char *const tokens[] = {
    "// tilescope:", "variant", "pass", "plain", "name=", "summary=\"", "\"", "equals=", "box3",
    "gauss", "integral", "pattern=", "wavefront", "none", "cost=", "mid=", "u8", "u16", "u32",
    "local=", "entry=", "tile=", "group=", "item", "halo=", "src=", "dst=", "in", "mid", "out",
    "global=", "options=", "tmp=", "buffer(1)", "output(3)", "output(5)", "local(256)",
    "input", "width", "height", "pitch", "W", "H", "C", "(W+15)/16*16", "W/0", "W%0", "1.5%2",
    "((((((((", "-", "16x16", "1x1", "4096x4096", "4097x1", "0x10", " 32x 4", "+32x+4",
    "1024x1", "33x32", "0", "1", "-1", "64", "65", "1000", "1001", "1048576", "1048577",
    "2147483648", "9223372036854775808", "nan", "inf", "1e308*1e308", "1e999", "\r", "\n",
    "x", "=", "__kernel",
  };
  fuzz_dict d = { tokens, (int)(sizeof tokens / sizeof tokens[0]), " \t\n=,", 5, &accepted };
  return fuzz_smoke_main(argc, argv, "fuzz_header", &d);
}
#endif
