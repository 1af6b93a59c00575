/* tilescope: entry point and subcommand dispatch. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
  fprintf(f,
          "usage: tilescope [IN.png] [options]    opens the viewer\n"
          "       tilescope <command> [options]   (tilescope <command> --help for more)\n"
          "commands:\n"
          "  view   the viewer (the default): input, output and the thread-space overlay\n"
          "  shot   what the viewer shows, rendered headless to a PNG\n"
          "  run    run a variant under a schedule, headless, and write the result\n"
          "  diff   compare two images (exit 0 same, 1 different, 2 bad input)\n"
          "  bench  time every variant on the OpenCL device beside its copy bandwidth\n"
          "  list   list variants, patterns, walks and OpenCL devices\n");
}

static int ends_with(const char *s, const char *tail)
{
  size_t n = strlen(s), t = strlen(tail);
  return n > t && strcmp(s + n - t, tail) == 0;
}

int main(int argc, char **argv)
{
  const char *cmd = argc > 1 ? argv[1] : NULL;
  if (cmd && (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0)) {
    usage(stdout);
    return EXIT_OK;
  }
  if (cmd && strcmp(cmd, "run") == 0)
    return cmd_run(argc - 1, argv + 1);
  if (cmd && strcmp(cmd, "diff") == 0)
    return cmd_diff(argc - 1, argv + 1);
  if (cmd && strcmp(cmd, "list") == 0)
    return cmd_list(argc - 1, argv + 1);
  if (cmd && strcmp(cmd, "bench") == 0)
    return cmd_bench(argc - 1, argv + 1);
#ifdef TS_HAVE_VIEWER
  if (cmd && strcmp(cmd, "shot") == 0)
    return cmd_shot(argc - 1, argv + 1);
  if (cmd && strcmp(cmd, "view") == 0)
    return cmd_view(argc - 1, argv + 1);
  if (!cmd || cmd[0] == '-' || ends_with(cmd, ".png"))
    return cmd_view(argc, argv); /* the viewer is the default command */
#else
  if (!cmd) {
    fprintf(stderr, "tilescope: this build has no viewer (configured with TS_VIEWER=OFF)\n");
    usage(stderr);
    return EXIT_USAGE;
  }
#endif
  fprintf(stderr, "tilescope: unknown command '%s'\n", cmd);
  usage(stderr);
  return EXIT_USAGE;
}
