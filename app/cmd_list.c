/* `tilescope list`: the variants (with tile, passes, declared storage), patterns and walks. */
#include <stdio.h>

#include "cli.h"

static const char usage[] = "usage: tilescope list\nPrints the variants, dependency patterns and walks.";

int cmd_list(int argc, char **argv)
{
  const char *pos[1];
  int npos;
  int r = cli_parse("list", argc, argv, NULL, 0, pos, 0, &npos, usage);
  if (r)
    return r < 0 ? EXIT_OK : r;
  printf("variants:\n");
  for (int i = 0; i < ts_variant_count(); i++) {
    const ts_variant *v = ts_variant_at(i);
    printf("  %-16s %-15s %d pass%s, %s; %d B private; default pattern %s\n", v->name,
           ts_filter_name(v->filter), v->npasses, v->npasses > 1 ? "es" : "", v->passes[0].tile,
           v->private_bytes, ts_pattern_name(v->pattern));
    printf("  %-16s %s\n", "", v->summary);
  }
  printf("patterns (vectors: a thread waits for (x+dx, y+dy)):\n");
  for (int p = 0; p < TS_PAT_COUNT; p++) {
    const ts_vec *vec;
    int n = ts_pattern_vectors((ts_pattern)p, &vec);
    printf("  %-16s default walk %-15s", ts_pattern_name((ts_pattern)p),
           ts_walk_name(ts_pattern_default_walk((ts_pattern)p)));
    for (int i = 0; i < n; i++)
      printf(" (%d,%d)", vec[i].dx, vec[i].dy);
    printf("\n");
  }
  printf("walks:\n");
  for (int w = 0; w < TS_WALK_COUNT; w++)
    printf("  %-16s %s\n", ts_walk_name((ts_walk)w), ts_walk_describe((ts_walk)w));
  return EXIT_OK;
}
