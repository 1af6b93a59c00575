/* tilescope: entry point and subcommand dispatch. User kernels are loaded here, before
 * any subcommand: every *.cl of the user kernels folder, then each --kernel-file (an option
 * of every command, taken out of the arguments before the command parses them). An
 * interrupted command removes the temporary files of the outputs it was writing (they are
 * renamed into place only whole). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ts_file.h"
#include "ts_plain.h"
#include "ts_user.h"

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
          "  export a run as one self-contained web page (--html OUT.html)\n"
          "  bench  time every variant on the OpenCL device beside its copy bandwidth\n"
          "  list   list variants, patterns, walks and OpenCL devices\n"
          "every command takes --kernel-file FILE.cl (repeatable): a user kernel, a variant\n"
          "declared by the file's header; the *.cl files of $TILESCOPE_USER_KERNELS (default\n"
          "~/.config/tilescope/kernels) are loaded too\n");
}

/* The variants of the --kernel-file options, in order: with no --variant, the command runs
 * the file's (main below). */
#define MAX_FILE_VARIANTS 16
static const char *file_variants[MAX_FILE_VARIANTS];
static int nfile_variants;

/* Loads the user kernels and removes the --kernel-file options from argv; returns 0 after
 * printing the error. */
static int load_user_kernels(int *argc, char **argv)
{
  ts_error err = { 0 };
  const char *dir = getenv("TILESCOPE_USER_KERNELS");
  char path[4096];
  if (!dir || !*dir) {
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
      snprintf(path, sizeof path, "%s/tilescope/kernels", xdg);
    else if (home && *home)
      snprintf(path, sizeof path, "%s/.config/tilescope/kernels", home);
    else
      path[0] = 0;
    dir = path;
  }
  if (*dir && ts_user_load_dir(dir, &err) != TS_OK) {
    fprintf(stderr, "tilescope: %s\n", err.msg);
    return 0;
  }
  int out = 1;
  for (int i = 1; i < *argc; i++) {
    const char *file = NULL;
    if (strcmp(argv[i], "--") == 0) {
      while (i < *argc)
        argv[out++] = argv[i++];
      break;
    }
    if (strcmp(argv[i], "--kernel-file") == 0) {
      if (i + 1 == *argc) {
        fprintf(stderr, "tilescope: --kernel-file needs a value (FILE.cl)\n");
        return 0;
      }
      file = argv[++i];
    } else if (strncmp(argv[i], "--kernel-file=", 14) == 0) {
      file = argv[i] + 14;
    } else {
      argv[out++] = argv[i];
      continue;
    }
    uint8_t *text = NULL;
    size_t len = 0;
    if (ts_file_read_all(file, 4u << 20, &text, &len, &err) != TS_OK) {
      fprintf(stderr, "tilescope: %s\n", err.msg);
      return 0;
    }
    int plain = ts_plain_is_plain((const char *)text, len);
    free(text);
    if (plain) {
      if (cli_plain_file) {
        fprintf(stderr, "tilescope: --kernel-file %s: one plain kernel file at a time (%s was given too)\n",
                file, cli_plain_file);
        return 0;
      }
      cli_plain_file = file;
      continue;
    }
    ts_variant *v = NULL;
    if (ts_user_load(file, &v, &err) != TS_OK) {
      fprintf(stderr, "tilescope: %s\n", err.msg);
      return 0;
    }
    if (ts_variant_add(v, &err) != TS_OK) {
      fprintf(stderr, "tilescope: --kernel-file %s: %s\n", file, err.msg);
      ts_user_free(v);
      return 0;
    }
    if (nfile_variants < MAX_FILE_VARIANTS)
      file_variants[nfile_variants++] = v->name;
  }
  argv[out] = NULL;
  *argc = out;
  return 1;
}

static int ends_with(const char *s, const char *tail)
{
  size_t n = strlen(s), t = strlen(tail);
  return n > t && strcmp(s + n - t, tail) == 0;
}

int main(int argc, char **argv)
{
  if (!load_user_kernels(&argc, argv))
    return EXIT_USAGE;
  const char *cmd = argc > 1 ? argv[1] : NULL;
  catch_signals();
  if (cmd && (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0)) {
    usage(stdout);
    return EXIT_OK;
  }
  if (cmd && strcmp(cmd, "run") == 0 && cli_plain_file)
    return cmd_run_plain(argc - 1, argv + 1);
  /* --kernel-file without --variant: run, shot and the viewer take the file's variant. */
  /* (A script picks its own, and the window lets the user switch between several.) */
  int named = 0, scripted = 0;
  for (int i = 1; i < argc; i++) {
    named |= strcmp(argv[i], "--variant") == 0 || strncmp(argv[i], "--variant=", 10) == 0;
    scripted |= strcmp(argv[i], "--script") == 0 || strncmp(argv[i], "--script=", 9) == 0;
  }
  int window = !cmd || cmd[0] == '-' || ends_with(cmd, ".png") || strcmp(cmd, "view") == 0;
  int picks = !scripted && (window || strcmp(cmd, "run") == 0 || strcmp(cmd, "shot") == 0 ||
                            strcmp(cmd, "export") == 0);
  static char *with_variant[4096];
  if (picks && !named && nfile_variants > 0 && !(window && nfile_variants > 1)) {
    if (nfile_variants > 1) {
      fprintf(stderr, "tilescope: --kernel-file: %d kernels (%s, %s%s): name one with --variant\n",
              nfile_variants, file_variants[0], file_variants[1], nfile_variants > 2 ? ", ..." : "");
      return EXIT_USAGE;
    }
    if (argc + 3 > (int)(sizeof with_variant / sizeof with_variant[0])) {
      fprintf(stderr, "tilescope: too many arguments\n");
      return EXIT_USAGE;
    }
    /* after the command's name (or first, for the viewer's default command) */
    int at = cmd && cmd[0] != '-' && !ends_with(cmd, ".png") ? 2 : 1, n = 0;
    for (int i = 0; i < at; i++)
      with_variant[n++] = argv[i];
    with_variant[n++] = (char *)"--variant";
    with_variant[n++] = (char *)file_variants[0];
    for (int i = at; i < argc; i++)
      with_variant[n++] = argv[i];
    with_variant[n] = NULL;
    argv = with_variant;
    argc = n;
  }
  /* The viewer and shot show a plain kernel too (cmd_view.c reads cli_plain_file). */
  int viewer_cmd = !cmd || cmd[0] == '-' || ends_with(cmd, ".png") || strcmp(cmd, "shot") == 0 ||
                   strcmp(cmd, "view") == 0;
#ifndef TS_HAVE_VIEWER
  viewer_cmd = 0;
#endif
  if (cli_plain_file && !viewer_cmd) {
    fprintf(stderr, "tilescope: --kernel-file %s: a plain kernel runs with `tilescope run`, "
                    "`shot` or the viewer (bench and list take the dialect's kernels)\n",
            cli_plain_file);
    return EXIT_USAGE;
  }
  if (cmd && strcmp(cmd, "run") == 0)
    return cmd_run(argc - 1, argv + 1);
  if (cmd && strcmp(cmd, "diff") == 0)
    return cmd_diff(argc - 1, argv + 1);
  if (cmd && strcmp(cmd, "export") == 0)
    return cmd_export(argc - 1, argv + 1);
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
