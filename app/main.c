/* tilescope: entry point and subcommand dispatch; an interrupted command removes the
 * temporary files of the outputs it was writing (they are renamed into place only whole). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ts_file.h"

static void on_signal(int sig)
{
  ts_outfile_remove_all();
  signal(sig, SIG_DFL);
  raise(sig); /* die of the signal, as the caller expects (exit status 128 + sig) */
}

/* Installed before SDL starts, which then leaves SIGINT and SIGTERM alone: Ctrl-C ends even a
 * `shot` that plays a script and reads no events. */
static void catch_signals(void)
{
  static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sigs[i], &sa, NULL);
  }
}

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
  catch_signals();
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
