/* tilescope: entry point and subcommand dispatch. User kernels are loaded here, before
 * any subcommand: every *.cl of the user kernels folder, then each --kernel-file (an option
 * of every command, taken out of the arguments before the command parses them). An
 * interrupted command removes the temporary files of the outputs it was writing (they are
 * renamed into place only whole, a command's outputs together), and a command whose standard
 * output could not be written fails. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "cli_doc.h"
#include "cmd_lesson.h"
#include "ts_cl.h"
#include "ts_file.h"
#include "ts_isolate.h"
#include "ts_plain.h"
#include "ts_user.h"

static void on_signal(int sig)
{
  if (!ts_outfile_interrupted(sig))
    return; /* outputs are being renamed into place: the signal comes again after them */
  signal(sig, SIG_DFL);
  raise(sig); /* die of the signal, as the caller expects (exit status 128 + sig) */
}

/* Installed before SDL starts, which then leaves SIGINT and SIGTERM alone: Ctrl-C ends even a
 * `shot` that plays a script and reads no events. */
static void catch_signals(void)
{
  /* and, outside the sanitizer builds (whose own handlers report), the crashes: a supervised
   * command's temporary outputs go with it */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
#else
  static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
#endif
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sigs[i], &sa, NULL);
  }
}

/* The variants of the --kernel-file options, in order: with no --variant, the command runs
 * the file's (main below). */
#define MAX_FILE_VARIANTS 16
static const char *file_variants[MAX_FILE_VARIANTS];
static int nfile_variants;

static void skipped_user_kernel(const char *why)
{
  fprintf(stderr, "tilescope: warning: %s (this kernel is skipped)\n", why);
}

/* The *.cl files of the user kernels folder, each a variant. */
static void load_user_dir(void (*skipped)(const char *why))
{
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
  if (*dir)
    ts_user_load_dir(dir, skipped);
}

/* Completions say nothing but the words: a user kernel that does not load is not one. */
static void skipped_quietly(const char *why)
{
  (void)why;
}

/* Loads the user kernels and removes the --kernel-file options from argv; returns 0 after
 * printing the error. */
static int load_user_kernels(int *argc, char **argv)
{
  ts_error err = { 0 };
  load_user_dir(skipped_user_kernel);
  /* --launch FILE: the launch file of the plain kernel file given (its kernel file needs no
   * lines of its own, as a library ships it) */
  int out = 1;
  for (int i = 1; i < *argc; i++) {
    if (strcmp(argv[i], "--") == 0) {
      while (i < *argc)
        argv[out++] = argv[i++];
      break;
    }
    /* --sim FILE.sim for the window and shot (run reads its own): the launch that Oclgrind's
     * simulator file gives, shown as a plain kernel's; `tilescope FILE.sim` opens it */
    const char *c1 = *argc > 1 ? argv[1] : "";
    size_t c1n = strlen(c1);
    int shows = strcmp(c1, "shot") == 0 || strcmp(c1, "view") == 0 || c1[0] == '-' ||
                (c1n > 4 && strcasecmp(c1 + c1n - 4, ".sim") == 0) ||
                (c1n > 4 && strcasecmp(c1 + c1n - 4, ".png") == 0);
    if (i == 1 && c1n > 4 && strcasecmp(c1 + c1n - 4, ".sim") == 0) {
      cli_plain_file = c1;
      cli_plain_sim = 1;
      continue;
    }
    if (shows && (strcmp(argv[i], "--sim") == 0 || strncmp(argv[i], "--sim=", 6) == 0)) {
      const char *f = argv[i][5] == '=' ? argv[i] + 6 : i + 1 < *argc ? argv[++i] : NULL;
      if (!f || !*f || cli_plain_sim) {
        fprintf(stderr, "tilescope: --sim %s\n", !f || !*f ? "needs a value (FILE.sim)" : "is given twice");
        return 0;
      }
      cli_plain_file = f;
      cli_plain_sim = 1;
      continue;
    }
    if (strcmp(argv[i], "--launch") == 0 || strncmp(argv[i], "--launch=", 9) == 0) {
      const char *f = argv[i][8] == '=' ? argv[i] + 9 : i + 1 < *argc ? argv[++i] : NULL;
      if (!f || !*f || cli_plain_launch) {
        fprintf(stderr, "tilescope: --launch %s\n", !f || !*f ? "needs a value (FILE)" : "is given twice");
        return 0;
      }
      cli_plain_launch = f;
    } else {
      argv[out++] = argv[i];
    }
  }
  *argc = out;
  out = 1;
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
    int plain = cli_plain_launch || ts_plain_is_plain((const char *)text, len);
    free(text);
    if (plain) {
      if (cli_plain_file && cli_plain_sim) {
        fprintf(stderr, "tilescope: --kernel-file %s: the simulator file %s names its kernel "
                "file itself\n", file, cli_plain_file);
        return 0;
      }
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
  if (cli_plain_launch && !cli_plain_file) {
    fprintf(stderr, "tilescope: --launch %s: give the kernel file it launches (--kernel-file FILE.cl)\n",
            cli_plain_launch);
    return 0;
  }
  return 1;
}

/* run, shot and bench go on in a child process under a supervisor (core/isolate/): a kernel
 * that crashes the process, corrupts its heap or never ends costs one line naming what ran,
 * exit 1 and no output, never a core dump or a hang. The watchdog is the command's --timeout
 * (default 600 s), with room for a shot's own watchdog and a plain kernel's two runs (run,
 * bench) to speak first. TILESCOPE_SUPERVISE=0 runs the command in this process (for a debugger).
 * Returns 1 in the child; 0 in the parent, with the exit code. */
static int supervise(const char *cmd, int argc, char **argv, int *code)
{
  const char *env = getenv("TILESCOPE_SUPERVISE");
  double timeout = 600;
  const char *variant = NULL;
  for (int i = 2; i < argc; i++) {
    const char *v = strncmp(argv[i], "--timeout=", 10) == 0 ? argv[i] + 10
                    : strcmp(argv[i], "--timeout") == 0 && i + 1 < argc ? argv[i + 1]
                                                                         : NULL;
    char *end;
    double t = v ? strtod(v, &end) : 0;
    if (v && end != v && !*end && t > 0 && t <= 86400)
      timeout = t;
    if (strcmp(argv[i], "--variant") == 0 && i + 1 < argc)
      variant = argv[i + 1];
    if ((strcmp(argv[i], "--record") == 0 || strncmp(argv[i], "--record=", 9) == 0) && !variant)
      variant = "of the record";
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
      return 1;
  }
  if (env && strcmp(env, "0") == 0)
    return 1;
  char what[600];
  if (cli_plain_file)
    snprintf(what, sizeof what, "%s: the kernel file %s", cmd, cli_plain_file);
  else
    snprintf(what, sizeof what, "%s: the variant %s", cmd,
             variant ? variant : nfile_variants ? file_variants[0] : "box2d");
  int plain_run = cli_plain_file && (strcmp(cmd, "run") == 0 || strcmp(cmd, "bench") == 0);
  int shot = strcmp(cmd, "shot") == 0;
  return ts_supervise(what, plain_run ? 2 * timeout + 30 : shot ? timeout + 30 : timeout, code);
}

/* Whether s ends with tail, in either case (Photo.PNG is a PNG too). */
static int ends_with(const char *s, const char *tail)
{
  size_t n = strlen(s), t = strlen(tail);
  return n > t && strcasecmp(s + n - t, tail) == 0;
}

static int run_command(int argc, char **argv)
{
  if (argc == 2 && strcmp(argv[1], "__plain-worker") == 0)
    return cmd_plain_worker(); /* a threaded process's worker (cmd_plain.c) */
  /* the program that isolated work starts where a fork would not do (ts_isolate.h) */
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len > 0) {
    exe[len] = 0;
    ts_isolate_set_program(exe);
  }
  /* hidden: the man page (made at build time, so no user kernels in it) and the shell's
   * completions (dist/tilescope.bash), from the commands' own tables (cli_doc.c) */
  if (argc >= 2 && strcmp(argv[1], "--man") == 0)
    return cli_man(argc - 2, argv + 2);
  if (argc >= 2 && strcmp(argv[1], "--complete") == 0) {
    load_user_dir(skipped_quietly);
    return cli_complete(argc - 2, argv + 2);
  }
  catch_signals(); /* first: a SIGINT while the user kernels load ends the command too */
  if (!load_user_kernels(&argc, argv))
    return EXIT_USAGE;
  const char *cmd = argc > 1 ? argv[1] : NULL;
  if (cmd && (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0)) {
    cli_usage(stdout);
    return EXIT_OK;
  }
  if (cmd && strcmp(cmd, "--version") == 0) {
    printf("tilescope %s\n", TS_VERSION);
    return EXIT_OK;
  }
  if (cmd && (strcmp(cmd, "run") == 0 || strcmp(cmd, "shot") == 0 || strcmp(cmd, "bench") == 0)) {
    int code;
    if (!supervise(cmd, argc, argv, &code))
      return code;
  }
  if (cmd && strcmp(cmd, "run") == 0 && cli_plain_file)
    return cmd_run_plain(argc - 1, argv + 1);
  for (int i = 2; cmd && strcmp(cmd, "run") == 0 && i < argc; i++)
    if (strcmp(argv[i], "--sim") == 0 || strncmp(argv[i], "--sim=", 6) == 0)
      return cmd_run_plain(argc - 1, argv + 1);
  if (cmd && strcmp(cmd, "bench") == 0 && cli_plain_file)
    return cmd_bench_plain(argc - 1, argv + 1);
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
      fprintf(stderr, "tilescope: %d arguments, over the limit of %d\n", argc,
              (int)(sizeof with_variant / sizeof with_variant[0]) - 3);
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
  /* ... and export's page (cmd_export.c). */
  if (cli_plain_file && !viewer_cmd && strcmp(cmd, "export") != 0) {
    fprintf(stderr, "tilescope: --kernel-file %s: a plain kernel runs with `tilescope run`, "
                    "`bench`, `shot`, `export` or the viewer (list takes the dialect's kernels)\n",
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
  if (cmd && strcmp(cmd, "lesson") == 0)
    return cmd_lesson(argc - 1, argv + 1);
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
    cli_usage(stderr);
    return EXIT_USAGE;
  }
#endif
  fprintf(stderr, "tilescope: unknown command '%s'\n", cmd);
  cli_usage(stderr);
  return EXIT_USAGE;
}

/* What the command printed must reach standard output whole: a write error there (a full
 * disk, a file system gone) fails the command as an output file it could not write would. */
int main(int argc, char **argv)
{
  ts_cl_pin_cpu_workers(); /* (before any thread) */
  int rc = run_command(argc, argv);
  int failed = fflush(stdout) != 0 || ferror(stdout), e = errno;
  if (fclose(stdout) != 0 && !failed) {
    failed = 1;
    e = errno;
  }
  if (!failed)
    return rc;
  /* argv[1] is the command, if any, after load_user_kernels took the --kernel-file options */
  const char *cmd = argc > 1 && argv[1] && argv[1][0] != '-' && !ends_with(argv[1], ".png")
                    ? argv[1] : NULL;
  fprintf(stderr, "tilescope%s%s: cannot write standard output: %s\n", cmd ? " " : "",
          cmd ? cmd : "", e ? strerror(e) : "write error");
  return EXIT_USAGE;
}
