/* `tilescope diff A.png B.png`: exit 0 when the images match within the tolerance and the
 * allowed number of differing pixels, 1 when they differ, 2 on bad input. Reports the
 * differing pixels, the largest channel difference, PSNR, and what thresholds would pass. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ts_compare.h"

static const char usage[] =
    "usage: tilescope diff A.png B.png [--tolerance N] [--max-diff-pixels N|P%] [-o DIFF.png]\n"
    "Compares two images. A pixel differs when one of its channels differs by more than the\n"
    "tolerance. Exit 0: same within the limits, 1: different, 2: bad input.";

/* Parses "N" or "P%" into a pixel count for `total` pixels. */
static int parse_allowance(const char *s, size_t total, size_t *out)
{
  char *end;
  double v = strtod(s, &end);
  if (end == s || v < 0 || !isfinite(v))
    return 0;
  if (*end == '%' && end[1] == 0) {
    if (v > 100)
      return 0;
    *out = (size_t)floor(v / 100.0 * (double)total);
    return 1;
  }
  if (*end || v != floor(v))
    return 0;
  *out = (size_t)v;
  return 1;
}

int cmd_diff(int argc, char **argv)
{
  int tol = 0;
  const char *allow = NULL, *out_path = NULL;
  const cli_opt opts[] = {
    { "--tolerance", 0, OPT_INT, &tol, "N", "largest channel difference that counts as equal (0..255, default 0)", NULL },
    { "--max-diff-pixels", 0, OPT_STR, &allow, "N|P%", "differing pixels allowed (default 0)", NULL },
    { "--output", 'o', OPT_STR, &out_path, "DIFF.png", "write a diff image (differences in red)", NULL },
  };
  const char *pos[2];
  int npos;
  int r = cli_parse("diff", argc, argv, opts, 3, pos, 2, &npos, usage);
  if (r)
    return r < 0 ? EXIT_OK : r;
  if (npos != 2) {
    fprintf(stderr, "tilescope diff: needs two images (see tilescope diff --help)\n");
    return EXIT_USAGE;
  }
  if (tol < 0 || tol > 255) {
    fprintf(stderr, "tilescope diff: --tolerance %d: must be 0..255\n", tol);
    return EXIT_USAGE;
  }
  ts_error err = { 0 };
  ts_image *a = NULL, *b = NULL, *a2 = NULL, *b2 = NULL, *d = NULL;
  int rc = EXIT_USAGE;
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
  if (a->w != b->w || a->h != b->h) {
    printf("different: %s is %dx%d, %s is %dx%d\n", pos[0], a->w, a->h, pos[1], b->w, b->h);
    rc = EXIT_DIFF;
    goto out;
  }
  /* Grey, RGB and RGBA compare after widening both to the larger channel count. */
  int c = a->c > b->c ? a->c : b->c;
  if (ts_image_convert(a, c, &a2, &err) != TS_OK || ts_image_convert(b, c, &b2, &err) != TS_OK)
    goto fail;
  ts_diff_stats s;
  size_t hist[256];
  if (ts_image_compare(a2, b2, tol, &s, out_path ? &d : NULL, &err) != TS_OK ||
      ts_image_diff_profile(a2, b2, hist, &err) != TS_OK)
    goto fail;
  if (out_path && ts_image_save_png(out_path, d, &err) != TS_OK)
    goto fail;
  int same = s.differing <= allowed;
  printf("%s: %zu of %zu pixels differ by more than %d (%.4f%%), largest difference %d, ",
         same ? "same" : "different", s.differing, s.pixels, tol,
         100.0 * (double)s.differing / (double)s.pixels, s.max_diff);
  if (isinf(s.psnr))
    printf("PSNR inf\n");
  else
    printf("PSNR %.2f dB\n", s.psnr);
  if (!same) {
    /* The smallest tolerance that passes with this pixel allowance. */
    int t = tol;
    while (t < 255 && hist[t] > allowed)
      t++;
    printf("would pass with --tolerance %d, or with --max-diff-pixels %zu (%.4f%%)\n", t,
           s.differing, 100.0 * (double)s.differing / (double)s.pixels);
  }
  if (out_path)
    printf("wrote %s\n", out_path);
  rc = same ? EXIT_OK : EXIT_DIFF;
  goto out;
fail:
  fprintf(stderr, "tilescope diff: %s\n", err.msg);
out:
  ts_image_destroy(a);
  ts_image_destroy(b);
  ts_image_destroy(a2);
  ts_image_destroy(b2);
  ts_image_destroy(d);
  return rc;
}
