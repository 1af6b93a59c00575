/* Command-line plumbing shared by the subcommands: a table-driven option parser, the
 * schedule options every subcommand takes, and finding the default asset. Every error is
 * one line on stderr naming the option or file; usage errors exit 2. */
#ifndef TS_APP_CLI_H
#define TS_APP_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "paths.h"
#include "ts_plain.h"
#include "ts_run.h"

enum { EXIT_OK = 0, EXIT_DIFF = 1, EXIT_USAGE = 2 };

typedef enum { OPT_FLAG, OPT_STR, OPT_INT, OPT_UINT, OPT_I64, OPT_DBL } opt_kind;

typedef struct cli_opt {
  const char *name;   /* "--variant" */
  char short_name;    /* 'i' or 0 */
  opt_kind kind;
  void *dst;          /* int* (INT, UINT: 0 or more), const char**, int64_t*, double* */
  const char *arg, *help;
  int *seen;          /* set to 1 when given (may be NULL) */
} cli_opt;

/* The options that pick what runs: shared by run, shot and bench. */
typedef struct cli_sched {
  const char *variant, *pattern, *walk, *backend, *kernels, *exec;
  int slots, cost, ksize, device;
  double sigma;
  int64_t tick;
  int have_tick, have_walk, have_sigma, have_backend, have_cost, adversary;
} cli_sched;

#define CLI_SCHED_OPTS(s)                                                                      \
  { "--variant", 0, OPT_STR, &(s)->variant, "NAME", "variant to run (default box2d)", NULL },  \
  { "--pattern", 0, OPT_STR, &(s)->pattern, "NAME", "dependency pattern (default: the variant's)", NULL }, \
  { "--walk", 0, OPT_STR, &(s)->walk, "NAME", "dispatch order (default: the pattern's)", &(s)->have_walk }, \
  { "--slots", 0, OPT_INT, &(s)->slots, "N", "resident thread slots, 1..65536 (default 168)", NULL }, \
  { "--cost", 0, OPT_INT, &(s)->cost, "N", "ticks per thread, 1..1000 (default: the variant's)", &(s)->have_cost },  \
  { "--backend", 0, OPT_STR, &(s)->backend, "cl|cpu", "OpenCL or the CPU model (default cl)", &(s)->have_backend }, \
  { "--device", 0, OPT_UINT, &(s)->device, "N", "OpenCL device (see tilescope list; default: first GPU, else first)", NULL }, \
  { "--kernels", 0, OPT_STR, &(s)->kernels, "DIR", "kernels folder (default: TILESCOPE_KERNELS, next to the executable, or the source tree)", NULL }, \
  { "--kernel-size", 0, OPT_INT, &(s)->ksize, "K", "Gaussian size, odd 3..15 (default 5)", NULL }, \
  { "--sigma", 0, OPT_DBL, &(s)->sigma, "S", "Gaussian sigma (default 0.3((K-1)/2-1)+0.8)", &(s)->have_sigma }, \
  { "--tick", 0, OPT_I64, &(s)->tick, "T", "stop at tick T (default: the end)", &(s)->have_tick }, \
  { "--exec", 0, OPT_STR, &(s)->exec, "sim|device", "sim: replay the simulated schedule tick by tick; device: one launch per pass, the device keeps the walk order with a scoreboard (default sim)", NULL }, \
  { "--adversary", 0, OPT_FLAG, &(s)->adversary, NULL, "device runs: delay groups at random and use every lane the runtime allows, so that a missing dependency shows on a CPU device too", NULL }

void cli_sched_defaults(cli_sched *s);
/* Turns the names into run parameters; prints the error and returns 0 on a bad value,
 * prints a warning when the walk is not the pattern's own. */
int cli_sched_resolve(const char *cmd, const cli_sched *s, ts_run_params *p);

/* Opens the OpenCL back end when --backend is cl (the default) and sets p->cl. Without any
 * OpenCL platform it says so and carries on with the CPU model, unless cl was asked for
 * explicitly or --exec device needs it. Returns 0 (after printing the error) when the
 * command must stop. */
int cli_open_backend(const char *cmd, const cli_sched *s, ts_run_params *p);
/* Prints a failed run's error; for a kernel build error, the compiler's log after it. */
void cli_report_run_error(const char *cmd, const char *what, const ts_error *err,
                          const ts_run_params *p);

/* Parses argv[1..] against opts; positional arguments are collected in pos (up to maxpos).
 * Returns -1 after printing help (for --help), 0 on success, EXIT_USAGE on error. */
int cli_parse(const char *cmd, int argc, char **argv, const cli_opt *opts, int nopts,
              const char **pos, int maxpos, int *npos, const char *usage);

/* What a describer is handed instead of a parse: the command, its usage text and its
 * option table, as --help prints them (cli_doc.c makes the man page and the completions of
 * them). While one is set, cli_parse calls it and returns -1, as after --help; NULL unsets. */
typedef void (*cli_describer)(void *ctx, const char *cmd, const char *usage, const cli_opt *opts,
                              int nopts);
void cli_set_describer(cli_describer fn, void *ctx);

/* Whether an image output's name says what is written: no extension, .png (or .gif when gif
 * is set); else prints the error (naming cmd's option opt) and returns 0. */
int cli_image_name(const char *cmd, const char *opt, const char *path, int gif);
/* --order's value (device, linear, reverse, random:SEED or a file of work-groups) and
 * --resident's (NULL: not given) into po's order fields; else prints the error (naming cmd)
 * and returns 0. */
int cli_order(const char *cmd, const char *s, const char *resident, ts_plain_opts *po);
/* A file a command reads or writes, by the option that names it ("-o", "--expect"); path
 * NULL when not given. */
typedef struct cli_file {
  const char *opt, *path;
} cli_file;
/* Before any work: every input can be read, every output's folder exists and can be written
 * to, and no output is an input or another output (it would overwrite it, and the command
 * would report success). Prints one line naming the option and returns 0 at the first
 * problem. */
int cli_check_files(const char *cmd, const cli_file *in, int nin, const cli_file *out,
                    int nout);
/* The input a record's run is rebuilt on, into *input: `given` (-i); else the path the
 * record names (`named`), as given or beside the record when the two were moved together
 * (built in buf); NULL, the default chart, for a record that names none. Prints the error and
 * returns 0 when the named input is in neither place. */
int cli_record_input(const char *cmd, const char *given, const char *record, const char *named,
                     char *buf, size_t n, const char **input);
/* Prints s to stdout as a JSON string (ts_json_string). */
void cli_json_string(const char *s);

/* A run's hazards and pattern advice, as `run` prints them (cmd_run.c; shot --sarif reads
 * them too). */
void cli_print_findings(FILE *out, const ts_run *run);

int cmd_run(int argc, char **argv);
/* A plain kernel given with --kernel-file (main.c sets it), and its run (cmd_plain.c). */
extern const char *cli_plain_file;
/* Its launch file (--launch FILE, main.c), or NULL. */
extern const char *cli_plain_launch;
/* cli_plain_file is an Oclgrind simulator file (--sim, or `tilescope FILE.sim`) */
extern int cli_plain_sim;
int cmd_run_plain(int argc, char **argv);
int cmd_bench_plain(int argc, char **argv);
int cmd_plain_worker(void);
int cmd_diff(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_shot(int argc, char **argv);
int cmd_export(int argc, char **argv);

#endif
