/* tilescope: entry point and subcommand dispatch. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
  fprintf(f,
          "usage: tilescope <command> [options]   (tilescope <command> --help for more)\n"
          "commands:\n"
          "  run    run a variant under a schedule, headless, and write the result\n"
          "  diff   compare two images (exit 0 same, 1 different, 2 bad input)\n"
          "  bench  time every variant on the OpenCL device beside its copy bandwidth\n"
          "  list   list variants, patterns, walks and OpenCL devices\n");
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    usage(stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "run") == 0)
    return cmd_run(argc - 1, argv + 1);
  if (strcmp(cmd, "diff") == 0)
    return cmd_diff(argc - 1, argv + 1);
  if (strcmp(cmd, "list") == 0)
    return cmd_list(argc - 1, argv + 1);
  if (strcmp(cmd, "bench") == 0)
    return cmd_bench(argc - 1, argv + 1);
  if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
    usage(stdout);
    return EXIT_OK;
  }
  fprintf(stderr, "tilescope: unknown command '%s'\n", cmd);
  usage(stderr);
  return EXIT_USAGE;
}
