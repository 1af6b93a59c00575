/* `tilescope diff A.png B.png`: exit 0 when the images match within the tolerance and the
 * allowed number of differing pixels, 1 when they differ (images of different sizes or
 * channel counts included), 2 on bad input. Reports the differing pixels, the largest channel
 * difference, PSNR, and what thresholds would pass; as text, or one JSON object (--json). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sarif.h"
#include "ts_compare.h"
#include "ts_number.h"

static const char usage[] =
    "usage: tilescope diff A.png B.png [--tolerance N] [--max-diff-pixels N|P%] [-o DIFF.png] [--json]\n"
    "Compares two images. A pixel differs when one of its channels differs by more than the\n"
    "tolerance. Images of different sizes or channel counts differ. Exit 0: same within the\n"
    "limits, 1: different, 2: bad input.";

/* Parses "N" or "P%" into a pixel count for `total` pixels. */
static int parse_allowance(const char *s, size_t total, size_t *out)
{
  double v;
  size_t n = ts_scan_real(s, &v);
  if (n && s[n] == '%' && s[n + 1] == 0 && s[0] != '-' && v <= 100) {
    /* rounded down, but not below a count the share names exactly (v / 100 * total may
     * come out a hair under it) */
    *out = (size_t)floor(v / 100.0 * (double)total + 1e-6);
    return 1;
  }
  int64_t count;
  if (!ts_parse_int(s, 0, INT64_MAX, &count))
    return 0;
  /* More than every pixel allows every pixel. */
  *out = (uint64_t)count >= total ? total : (size_t)count;
  return 1;
}

/* Images that cannot be compared pixel for pixel: one line (also into line, for --sarif), or a
 * JSON object, and exit 1. */
static int report_mismatch(const char *pa, const ts_image *a, const char *pb, const ts_image *b,
                           int json, char *line, size_t n)
{
  char reason[64 + 2 * 4096];
  if (a->w != b->w || a->h != b->h)
    snprintf(reason, sizeof reason, "%s is %dx%d, %s is %dx%d", pa, a->w, a->h, pb, b->w, b->h);
  else
    snprintf(reason, sizeof reason, "%s has %d channel%s, %s has %d", pa, a->c,
             a->c > 1 ? "s" : "", pb, b->c);
  snprintf(line, n, "different: %s", reason);
  if (!json) {
    printf("different: %s\n", reason);
    return EXIT_DIFF;
  }
  printf("{\"a\": ");
  cli_json_string(pa);
  printf(", \"b\": ");
  cli_json_string(pb);
  printf(", \"same\": false, \"reason\": ");
  cli_json_string(reason);
  printf(", \"a_width\": %d, \"a_height\": %d, \"a_channels\": %d, \"b_width\": %d, "
         "\"b_height\": %d, \"b_channels\": %d}\n",
         a->w, a->h, a->c, b->w, b->h, b->c);
  return EXIT_DIFF;
}

int cmd_diff(int argc, char **argv)
{
  int tol = 0, json = 0;
  const char *allow = NULL, *out_path = NULL, *sarif_path = NULL;
  const cli_opt opts[] = {
    { "--tolerance", 0, OPT_INT, &tol, "N", "largest channel difference that counts as equal (0..255, default 0)", NULL },
    { "--max-diff-pixels", 0, OPT_STR, &allow, "N|P%", "differing pixels allowed (default 0)", NULL },
    { "--output", 'o', OPT_STR, &out_path, "DIFF.png", "write a diff image (differences in red)", NULL },
    { "--json", 0, OPT_FLAG, &json, NULL, "print the result as one JSON object", NULL },
    { "--sarif", 0, OPT_STR, &sarif_path, "OUT.sarif", "write the verdict as SARIF 2.1.0, a result at A when they differ (docs/ci.md)", NULL },
  };
  const char *pos[2];
  int npos;
  int r = cli_parse("diff", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), pos, 2, &npos,
                    usage);
  if (r)
    return r < 0 ? EXIT_OK : r;
  if (npos != 2) {
    fprintf(stderr, "tilescope diff: needs two images (see tilescope diff --help)\n");
    return EXIT_USAGE;
  }
  if (out_path && !cli_image_name("diff", "-o", out_path, 0))
    return EXIT_USAGE;
  if (tol < 0 || tol > 255) {
    fprintf(stderr, "tilescope diff: --tolerance %d: must be 0..255\n", tol);
    return EXIT_USAGE;
  }
  const cli_file ins[] = { { "A", pos[0] }, { "B", pos[1] } },
                 outs[] = { { "-o", out_path }, { "--sarif", sarif_path } };
  if (!cli_check_files("diff", ins, 2, outs, 2))
    return EXIT_USAGE;
  ts_error err = { 0 };
  ts_image *a = NULL, *b = NULL, *d = NULL;
  int rc = EXIT_USAGE;
  char verdict[128 + 2 * 4096] = ""; /* "different: ..." for --sarif; "" when the same */
  size_t differing = 0;
  int max_diff = -1;
  if (ts_image_load_png(pos[0], &a, &err) != TS_OK || ts_image_load_png(pos[1], &b, &err) != TS_OK) {
    fprintf(stderr, "tilescope diff: %s\n", err.msg);
    goto out;
  }
  size_t allowed = 0;
  if (allow && !parse_allowance(allow, (size_t)a->w * a->h, &allowed)) {
    fprintf(stderr, "tilescope diff: --max-diff-pixels '%s': give a pixel count or a percentage such as 0.5%%\n",
            allow);
    goto out;
  }
  if (a->w != b->w || a->h != b->h || a->c != b->c) {
    rc = report_mismatch(pos[0], a, pos[1], b, json, verdict, sizeof verdict);
    if (out_path && !json)
      printf("no diff image: %s was not written\n", out_path);
    goto verdict;
  }
  ts_diff_stats s;
  size_t hist[256];
  if (ts_image_compare(a, b, tol, &s, out_path ? &d : NULL, &err) != TS_OK ||
      ts_image_diff_profile(a, b, hist, &err) != TS_OK)
    goto fail;
  if (out_path && ts_image_save_png(out_path, d, &err) != TS_OK)
    goto fail;
  int same = s.differing <= allowed;
  double share = (double)s.differing / (double)s.pixels;
  if (!same) {
    snprintf(verdict, sizeof verdict, "different: %zu of %zu pixels differ by more than %d "
             "(%.4f%%), largest difference %d, PSNR %.2f dB", s.differing, s.pixels, tol,
             100.0 * share, s.max_diff, s.psnr);
    differing = s.differing;
    max_diff = s.max_diff;
  }
  /* The smallest tolerance that passes with this pixel allowance (hist falls as t grows and
   * hist[255] is 0), and the smallest allowance that passes with this tolerance. */
  int pass_tol = 0;
  while (pass_tol < 255 && hist[pass_tol] > allowed)
    pass_tol++;
  if (json) {
    printf("{\"a\": ");
    cli_json_string(pos[0]);
    printf(", \"b\": ");
    cli_json_string(pos[1]);
    printf(", \"same\": %s, \"width\": %d, \"height\": %d, \"channels\": %d, \"pixels\": %zu, "
           "\"differing_pixels\": %zu, \"share\": %.6f, \"max_diff\": %d, ",
           same ? "true" : "false", a->w, a->h, a->c, s.pixels, s.differing, share, s.max_diff);
    if (isinf(s.psnr))
      printf("\"psnr\": null, ");
    else
      printf("\"psnr\": %.3f, ", s.psnr);
    printf("\"tolerance\": %d, \"max_diff_pixels\": %zu, \"passing_tolerance\": %d, "
           "\"passing_max_diff_pixels\": %zu, \"diff_image\": ",
           tol, allowed, pass_tol, s.differing);
    if (out_path)
      cli_json_string(out_path);
    else
      printf("null");
    printf("}\n");
  } else {
    printf("%s: %zu of %zu pixels differ by more than %d (%.4f%%), largest difference %d, ",
           same ? "same" : "different", s.differing, s.pixels, tol, 100.0 * share, s.max_diff);
    if (isinf(s.psnr))
      printf("PSNR inf\n");
    else
      printf("PSNR %.2f dB\n", s.psnr);
    if (!same) /* the share rounded up, so that it passes as given */
      printf("would pass with --tolerance %d, or with --max-diff-pixels %zu (%.4f%%)\n",
             pass_tol, s.differing, ceil(1e6 * share) / 1e4);
    if (out_path)
      printf("wrote %s\n", out_path);
  }
  rc = same ? EXIT_OK : EXIT_DIFF;
verdict:
  if (sarif_path) { /* no result when they are the same */
    sarif_log *log = sarif_create();
    if (verdict[0])
      sarif_add_image_diff(log, verdict, pos[0], pos[1], differing, max_diff);
    if (!sarif_save(log, "diff", sarif_path, json ? NULL : stdout))
      rc = EXIT_USAGE;
    sarif_destroy(log);
  }
  goto out;
fail:
  fprintf(stderr, "tilescope diff: %s\n", err.msg);
out:
  ts_image_destroy(a);
  ts_image_destroy(b);
  ts_image_destroy(d);
  return rc;
}
