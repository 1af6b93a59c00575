/* ts_mkchart OUT.png [WxH]: draws the default test chart (see core/io/ts_chart.h). The chart in
 * this folder is its output at the default size: `cmake --build <dir> --target chart`. */
#include <stdio.h>

#include "ts_chart.h"

int main(int argc, char **argv)
{
  int w = TS_CHART_W, h = TS_CHART_H;
  if (argc < 2 || argc > 3 || (argc == 3 && sscanf(argv[2], "%dx%d", &w, &h) != 2)) {
    fprintf(stderr, "usage: ts_mkchart OUT.png [WxH]\n");
    return 2;
  }
  ts_error err = { 0 };
  ts_image *im = NULL;
  if (ts_chart_render(w, h, &im, &err) != TS_OK || ts_image_save_png(argv[1], im, &err) != TS_OK) {
    fprintf(stderr, "ts_mkchart: %s\n", err.msg);
    ts_image_destroy(im);
    return 2;
  }
  ts_image_destroy(im);
  return 0;
}
