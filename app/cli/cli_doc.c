/* The command table, the top-level usage, the man page and the completions (cli_doc.h), all
 * made from the tables the commands parse: each command is called with a describer set, and
 * hands its usage text and option table to it instead of parsing. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_doc.h"
#include "cmd_lesson.h"
#include "ts_file.h"
#include "ts_plain.h"
#ifdef TS_HAVE_VIEWER
#include "scene.h"
#endif

#ifdef TS_HAVE_VIEWER
#define VIEWER_CMD(f) f
#else
#define VIEWER_CMD(f) NULL
#endif

const cli_command cli_commands[] = {
  { "view", "the viewer (the default): input, output and the thread-space overlay", VIEWER_CMD(cmd_view), NULL },
  { "shot", "what the viewer shows, rendered headless to a PNG", VIEWER_CMD(cmd_shot), NULL },
  { "run", "run a variant under a schedule, headless, and write the result", cmd_run, cmd_run_plain },
  { "diff", "compare two images (exit 0 same, 1 different, 2 bad input)", cmd_diff, NULL },
  { "export", "a run as one self-contained web page (--html OUT.html)", cmd_export, NULL },
  { "bench", "time every variant on the OpenCL device beside its copy bandwidth", cmd_bench, cmd_bench_plain },
  { "list", "list variants, patterns, walks and OpenCL devices", cmd_list, NULL },
  { "lesson", "the course: list it, or check answers (lesson N FILE... [--json])", cmd_lesson, NULL },
};
const int cli_ncommands = (int)(sizeof cli_commands / sizeof cli_commands[0]);

/* What every command takes besides its own options (main.c takes them out first). */
static const char global_text[] =
    "every command takes --kernel-file FILE.cl (repeatable): a user kernel, a variant\n"
    "declared by the file's header; the *.cl files of $TILESCOPE_USER_KERNELS (default\n"
    "~/.config/tilescope/kernels) are loaded too; --launch FILE gives a plain kernel's\n"
    "launch description beside its file (docs/kernel-authors.md); run --sim FILE.sim\n"
    "launches a kernel as an Oclgrind simulator file describes it, and shot --sim\n"
    "FILE.sim, the viewer's --sim or `tilescope FILE.sim` show that launch, the buffer it\n"
    "dumps as a grid of its elements\n";

void cli_usage(FILE *f)
{
  fprintf(f, "usage: tilescope [IN.png] [options]    opens the viewer\n"
             "       tilescope <command> [options]   (tilescope <command> --help for more)\n"
             "       tilescope --version\n"
             "commands:\n");
  for (int i = 0; i < cli_ncommands; i++)
    fprintf(f, "  %-6s %s\n", cli_commands[i].name, cli_commands[i].summary);
  fputs(global_text, f);
}

/* ---- a command's table, as it hands it to cli_parse ---- */

#define MAX_OPTS 64

typedef struct table {
  const char *usage;
  cli_opt opt[MAX_OPTS]; /* copies: the command's own lived on its stack */
  int n;
} table;

static void take(void *ctx, const char *cmd, const char *usage, const cli_opt *opts, int nopts)
{
  (void)cmd;
  table *t = ctx;
  t->usage = usage;
  t->n = nopts < MAX_OPTS ? nopts : MAX_OPTS;
  memcpy(t->opt, opts, (size_t)t->n * sizeof *opts);
}

static int read_table(int (*run)(int, char **), const char *name, table *t)
{
  char *argv[] = { (char *)name, (char *)"--help", NULL };
  memset(t, 0, sizeof *t);
  if (!run)
    return 0;
  cli_set_describer(take, t);
  run(2, argv);
  cli_set_describer(NULL, NULL);
  return t->usage != NULL;
}

/* ---- the man page ---- */

/* n bytes of s as roff text: backslashes, hyphens (minus signs, as options are typed), quotes
 * and a control character at a line's start escaped. */
static void roff(FILE *f, const char *s, size_t n)
{
  int bol = 1;
  for (size_t i = 0; i < n && s[i]; i++) {
    char c = s[i];
    if (bol && c == '.')
      fputs("\\&", f);
    bol = c == '\n';
    switch (c) {
    case '\\': fputs("\\e", f); break;
    case '-': fputs("\\-", f); break;
    case '\'': fputs("\\(aq", f); break;
    case '`': fputs("\\(ga", f); break;
    default: fputc(c, f);
    }
  }
}

static void roffs(FILE *f, const char *s)
{
  roff(f, s, strlen(s));
}

/* A usage text: its "usage:" lines (and those indented under them) as the synopsis, kept as
 * they are; the lines after them as a paragraph. */
static void man_usage(FILE *f, const char *usage)
{
  const char *p = usage;
  int in_synopsis = 0;
  fputs(".PP\n.nf\n", f);
  while (*p) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (strncmp(p, "usage: ", 7) == 0 || (in_synopsis && p[0] == ' ')) {
      size_t skip = 0;
      while (skip < 7 && skip < len && p[skip] == ' ')
        skip++;
      if (strncmp(p, "usage: ", 7) == 0)
        skip = 7;
      roff(f, p + skip, len - skip);
      fputc('\n', f);
      in_synopsis = 1;
    } else {
      if (in_synopsis)
        fputs(".fi\n.PP\n", f);
      in_synopsis = 0;
      roff(f, p, len);
      fputc('\n', f);
    }
    p += len + (e != NULL);
  }
  if (in_synopsis)
    fputs(".fi\n", f);
}

static void man_option(FILE *f, char short_name, const char *name, const char *arg,
                       const char *help)
{
  fputs(".TP\n", f);
  if (short_name)
    fprintf(f, "\\fB\\-%c\\fR, ", short_name);
  fputs("\\fB", f);
  roffs(f, name);
  fputs("\\fR", f);
  if (arg) {
    fputs(" \\fI", f);
    roffs(f, arg);
    fputs("\\fR", f);
  }
  fputc('\n', f);
  roffs(f, help);
  fputc('\n', f);
}

static void man_table(FILE *f, const table *t)
{
  man_usage(f, t->usage);
  for (int i = 0; i < t->n; i++)
    man_option(f, t->opt[i].short_name, t->opt[i].name, t->opt[i].arg, t->opt[i].help);
  man_option(f, 'h', "--help", NULL, "show this help");
}

typedef struct man_entry {
  const char *name, *text;
} man_entry;

static const man_entry exit_codes[] = {
  { "0", "it did what was asked, and nothing that fails by default was found" },
  { "1", "it ran, and found something: diff images that differ; run an output that differs from "
         "its reference or --expect, an observed violation, a plain kernel's finding (a benign "
         "race only under --fail-on benign), wrong device tiles, a device schedule that gave up "
         "waiting, what --fail-on names; a kernel that crashed or ran past --timeout in its own "
         "process; bench a variant whose output differs from its reference; a script whose "
         "expect failed; a shot past its --timeout" },
  { "2", "it could not do what was asked: a bad option or value, a file that cannot be read or "
         "is malformed, a kernel that does not build (shot still writes the error scene), "
         "OpenCL asked for by name and not there, an output that cannot be written" },
};

static const man_entry environment[] = {
  { "TILESCOPE_KERNELS", "the kernels folder (holding common.cl); --kernels gives it for one "
                         "command" },
  { "TILESCOPE_ASSETS", "the assets folder, whose chart.png is the default input" },
  { "TILESCOPE_SHADERS", "the viewer's shaders folder" },
  { "TILESCOPE_FONT", "the viewer's font (default "
                      "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf)" },
  { "TILESCOPE_USER_KERNELS", "a folder of user kernels, every *.cl of it loaded by every command "
                              "(default $XDG_CONFIG_HOME/tilescope/kernels, else "
                              "~/.config/tilescope/kernels)" },
  { "TILESCOPE_SUPERVISE", "0: run, shot and bench run in tilescope's own process, not a "
                           "supervised child (for a debugger)" },
  { "TILESCOPE_CLANG_RESOURCE", "libclang's resource folder (where opencl-c.h is), when it is not "
                                "where the build found it" },
  { "TILESCOPE_NO_SOURCE_TREE", "1: do not look in the source tree tilescope was built from "
                                "(to test an installed copy)" },
  { "TILESCOPE_DEVICE_LABEL", "the device's name as the window and shots print it, in place of "
                              "its own (so that a shot's goldens hold on another machine)" },
  { "TILESCOPE_CL_COPIES", "1: give OpenCL runs device buffers of their own, as on a GPU, where "
                           "the device would use the host's memory" },
  { "DISPLAY, WAYLAND_DISPLAY", "the viewer's display; without one it writes a screenshot "
                                "instead (tilescope-shot.png)" },
  { "SDL_VIDEODRIVER, LIBGL_ALWAYS_SOFTWARE, GALLIUM_DRIVER", "how the viewer and shot draw: a "
    "shot uses SDL's offscreen driver; llvmpipe makes shots that are the same from machine to "
    "machine (docs/ci.md)" },
};

/* Where the files are: the first of the folder named by its variable, beside the executable,
 * ../share/tilescope beside it (an installed copy), and the source tree. */
static const man_entry files[] = {
  { "\\fIPREFIX\\fR/share/tilescope/kernels/", "the built-in kernels, built at run time, and "
    "kernels/plain/observe.cl, the observation runtime of plain kernels (TILESCOPE_KERNELS)" },
  { "\\fIPREFIX\\fR/share/tilescope/shaders/", "the viewer's GLSL shaders (TILESCOPE_SHADERS)" },
  { "\\fIPREFIX\\fR/share/tilescope/assets/chart.png", "the default input (TILESCOPE_ASSETS)" },
  { "\\fIPREFIX\\fR/share/tilescope/assets/kernels/",
    "example kernels: user kernels of the dialect, and plain OpenCL C kernels in plain/, "
    "several broken on purpose" },
  { "\\fIPREFIX\\fR/share/tilescope/assets/lessons/", "the course that tilescope lesson checks" },
  { "\\fIPREFIX\\fR/share/tilescope/assets/demos/", "viewer scripts (--script)" },
  { "\\fIPREFIX\\fR/share/tilescope/docs/", "the guides: kernel authors, CI, schedules, teaching" },
  { "~/.config/tilescope/kernels/*.cl", "user kernels loaded by every command "
                                        "(TILESCOPE_USER_KERNELS)" },
};

static void man_entries(FILE *f, const man_entry *e, int n, int bold)
{
  for (int i = 0; i < n; i++) {
    fputs(".TP\n", f);
    fputs(bold ? "\\fB" : "", f);
    fputs(e[i].name, f); /* already roff */
    fputs(bold ? "\\fR\n" : "\n", f);
    roffs(f, e[i].text);
    fputc('\n', f);
  }
}

static void man_write(FILE *f)
{
  fprintf(f, ".\\\" tilescope(1), made by `tilescope --man` from the option tables that --help\n"
             ".\\\" prints (app/cli/cli_doc.c): edit those, not this file.\n"
             ".TH TILESCOPE 1 \"\" \"tilescope %s\" \"User Commands\"\n.nh\n", TS_VERSION);
  fputs(".SH NAME\ntilescope \\- a visual debugger for tiled image-filter kernels and their "
        "thread schedules\n", f);
  fputs(".SH SYNOPSIS\n.B tilescope\n[\\fIIN.png\\fR] [\\fIoptions\\fR]\n.br\n.B tilescope\n"
        "\\fIcommand\\fR [\\fIoptions\\fR]\n.br\n.B tilescope \\-\\-help\n.br\n"
        ".B tilescope \\-\\-version\n", f);
  fputs(".SH DESCRIPTION\n", f);
  roffs(f, "tilescope simulates a GPU's thread dispatcher tick by tick (thread spaces, walk "
           "orders, dependency patterns, resident thread slots) and runs each OpenCL kernel in "
           "that order, on pocl or any OpenCL device, beside a bit-exact CPU model; it observes "
           "plain OpenCL C kernels, naming every out-of-bounds access, race, uninitialised read "
           "and barrier divergence by file and line. The viewer draws it; the commands run it "
           "headless for scripts and CI.\n");
  fputs(".PP\nE", f); /* the usage's sentence, as one of its own */
  roffs(f, global_text + 1);
  fputs(".SH COMMANDS\n", f);
  for (int i = 0; i < cli_ncommands; i++) {
    const cli_command *c = &cli_commands[i];
    table t;
    if (!read_table(c->run, c->name, &t))
      continue; /* not in this build */
    fprintf(f, ".SS %s\n", c->name);
    roffs(f, c->summary);
    fputc('\n', f);
    man_table(f, &t);
    if (read_table(c->run_plain, c->name, &t)) {
      fprintf(f, ".SS \"%s with a plain kernel\"\n", c->name);
      man_table(f, &t);
    }
  }
  fputs(".SH \"GLOBAL OPTIONS\"\n", f);
  man_option(f, 0, "--kernel-file", "FILE.cl", "a user kernel (repeatable): a variant declared "
             "by the file's header, or a plain OpenCL C kernel (run, bench, shot and the viewer)");
  man_option(f, 0, "--launch", "FILE", "a plain kernel's launch description, beside its file");
  man_option(f, 'h', "--help", NULL, "the forms and the commands; after a command, its options");
  man_option(f, 0, "--version", NULL, "the version");
  fputs(".SH \"EXIT STATUS\"\n", f);
  man_entries(f, exit_codes, (int)(sizeof exit_codes / sizeof exit_codes[0]), 1);
  fputs(".PP\nEvery error is one line on standard error naming the file or option at fault. "
        "Outputs are written to a temporary file and renamed, so a failed write never leaves "
        "half a file.\n", f);
  fputs(".SH ENVIRONMENT\n", f);
  man_entries(f, environment, (int)(sizeof environment / sizeof environment[0]), 1);
  fputs(".SH FILES\n", f);
  roffs(f, "Each folder is looked for, in order: where its variable says, beside the "
           "executable, in ../share/tilescope beside it (an installed copy, PREFIX being the "
           "folder above bin/), and in the source tree tilescope was built from.\n");
  man_entries(f, files, (int)(sizeof files / sizeof files[0]), 0);
  fputs(".SH \"SEE ALSO\"\n", f);
  roffs(f, "The guides in PREFIX/share/tilescope/docs: kernel-authors.md (plain and dialect "
           "kernels, what observation finds), ci.md (exit codes, JSON, SARIF, golden shots), "
           "schedules.md, teaching.md, limits.md.\n");
}

int cli_man(int argc, char **argv)
{
  if (argc > 1) {
    fprintf(stderr, "tilescope --man: one file at most (%s, %s)\n", argv[0], argv[1]);
    return EXIT_USAGE;
  }
  if (argc == 0) {
    man_write(stdout);
    return EXIT_OK;
  }
  ts_outfile of;
  ts_error err = { 0 };
  const cli_file out[] = { { "--man", argv[0] } };
  if (!cli_check_files("--man", NULL, 0, out, 1))
    return EXIT_USAGE;
  if (ts_outfile_open(&of, argv[0], &err) != TS_OK) {
    fprintf(stderr, "tilescope --man: %s\n", err.msg);
    return EXIT_USAGE;
  }
  man_write(of.f);
  if (ts_outfile_commit(&of, &err) != TS_OK) {
    fprintf(stderr, "tilescope --man: %s\n", err.msg);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

/* ---- completions ---- */

static void offer(const char *word, const char *cur)
{
  if (strncmp(word, cur, strlen(cur)) == 0)
    printf("%s\n", word);
}

/* One item of a comma-separated list: what comes before the last comma, kept. */
static void offer_item(const char *head, size_t nhead, const char *word, const char *cur)
{
  char w[256];
  snprintf(w, sizeof w, "%.*s%s", (int)nhead, head, word);
  offer(w, cur);
}

/* The values of option o (of a table): names the program knows, or the words of its argument
 * where that is a choice of lower-case words ("cl|cpu"). */
static void offer_values(const cli_opt *o, const char *cur)
{
  const char *comma = strrchr(cur, ',');
  size_t nhead = comma ? (size_t)(comma - cur + 1) : 0;
  if (strcmp(o->name, "--variant") == 0 || strcmp(o->name, "--variants") == 0) {
    for (int i = 0; i < ts_variant_count(); i++)
      offer_item(cur, strcmp(o->name, "--variants") == 0 ? nhead : 0, ts_variant_at(i)->name, cur);
  } else if (strcmp(o->name, "--pattern") == 0) {
    for (int p = 0; p < TS_PAT_COUNT; p++)
      offer(ts_pattern_name((ts_pattern)p), cur);
  } else if (strcmp(o->name, "--walk") == 0) {
    for (int w = 0; w < TS_WALK_COUNT; w++)
      offer(ts_walk_name((ts_walk)w), cur);
  } else if (strcmp(o->name, "--overlay") == 0) {
#ifdef TS_HAVE_VIEWER
    for (int d = 0; d < 2; d++)
      for (int m = 0; m < OV_COUNT; m++)
        if (d == 0 || strcmp(overlay_name((overlay_mode)m, 1), overlay_name((overlay_mode)m, 0)))
          offer(overlay_name((overlay_mode)m, d), cur);
#endif
  } else if (strcmp(o->name, "--fail-on") == 0 && o->arg && strcmp(o->arg, "LIST") == 0) {
    static const char *const kinds[] = { "hazards", "races", "wrong", "any" };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
      offer_item(cur, nhead, kinds[i], cur);
  } else if (o->arg && strspn(o->arg, "abcdefghijklmnopqrstuvwxyz|") == strlen(o->arg)) {
    char words[128];
    snprintf(words, sizeof words, "%s", o->arg);
    for (char *save = NULL, *w = strtok_r(words, "|", &save); w; w = strtok_r(NULL, "|", &save))
      offer(w, cur);
  }
}

static const cli_command *command_named(const char *name)
{
  for (int i = 0; i < cli_ncommands; i++)
    if (strcmp(cli_commands[i].name, name) == 0 && cli_commands[i].run)
      return &cli_commands[i];
  return NULL;
}

/* Whether the words name a plain kernel (--kernel-file of one, --launch, or --sim), as main.c
 * decides: then run and bench take the plain form's options. */
static int names_plain(int n, char **w)
{
  for (int i = 1; i < n; i++) {
    const char *file = NULL;
    if (strcmp(w[i], "--sim") == 0 || strncmp(w[i], "--sim=", 6) == 0 ||
        strcmp(w[i], "--launch") == 0 || strncmp(w[i], "--launch=", 9) == 0)
      return 1;
    if (strcmp(w[i], "--kernel-file") == 0 && i + 1 < n)
      file = w[i + 1];
    else if (strncmp(w[i], "--kernel-file=", 14) == 0)
      file = w[i] + 14;
    uint8_t *text = NULL;
    size_t len = 0;
    ts_error err = { 0 };
    if (file && ts_file_read_all(file, 4u << 20, &text, &len, &err) == TS_OK) {
      int plain = ts_plain_is_plain((const char *)text, len);
      free(text);
      if (plain)
        return 1;
    }
  }
  return 0;
}

static const cli_opt global_opts[] = {
  { "--kernel-file", 0, OPT_STR, NULL, "FILE.cl", "", NULL },
  { "--launch", 0, OPT_STR, NULL, "FILE", "", NULL },
};

static const cli_opt *find_opt(const table *t, const char *name)
{
  for (int i = 0; i < t->n; i++)
    if (strcmp(t->opt[i].name, name) == 0 ||
        (name[0] == '-' && name[1] && !name[2] && name[1] == t->opt[i].short_name))
      return &t->opt[i];
  for (size_t i = 0; i < sizeof global_opts / sizeof global_opts[0]; i++)
    if (strcmp(global_opts[i].name, name) == 0)
      return &global_opts[i];
  return NULL;
}

static void offer_options(const table *t, const char *cur)
{
  for (int i = 0; i < t->n; i++)
    offer(t->opt[i].name, cur);
  for (size_t i = 0; i < sizeof global_opts / sizeof global_opts[0]; i++)
    offer(global_opts[i].name, cur);
  offer("--help", cur);
}

int cli_complete(int argc, char **argv)
{
  char *end;
  long cword = argc > 0 ? strtol(argv[0], &end, 10) : -1;
  if (argc < 2 || *end || cword < 1 || cword > argc - 1) {
    fprintf(stderr, "tilescope --complete: give the number of the word to complete (from 1), "
                    "then the words\n");
    return EXIT_USAGE;
  }
  char **w = argv + 1;
  int n = argc - 1;
  const char *cur = cword < n ? w[cword] : "";
  /* "--variant=bo": the shell splits at '=' (COMP_WORDBREAKS) and completes what follows */
  const char *prev = cword >= 1 ? w[cword - 1] : "";
  if (strcmp(cur, "=") == 0) {
    cur = "";
  } else if (strcmp(prev, "=") == 0 && cword >= 2) {
    prev = w[cword - 2];
  }
  /* the command: the first word that is not a global option or its value */
  int at = 1;
  while (at < cword) {
    int joined = strncmp(w[at], "--kernel-file=", 14) == 0 || strncmp(w[at], "--launch=", 9) == 0;
    if (!joined && strcmp(w[at], "--kernel-file") != 0 && strcmp(w[at], "--launch") != 0)
      break;
    at += joined ? 1 : 2;
  }
  if (at > cword)
    return EXIT_OK; /* a global option's file */
  /* the command named there, else the viewer's (the default command), whose word that is */
  const cli_command *c = at < cword ? command_named(w[at]) : NULL;
  const cli_command *view = command_named("view");
  table t = { 0 };
  if (c && c->run_plain && names_plain(cword, w) && read_table(c->run_plain, c->name, &t))
    ;
  else if (c)
    read_table(c->run, c->name, &t);
  else if (view)
    read_table(view->run, view->name, &t);
  if (at == cword) { /* the command's place */
    for (int i = 0; i < cli_ncommands; i++)
      if (cli_commands[i].run)
        offer(cli_commands[i].name, cur);
    if (cur[0] == '-') {
      offer("--version", cur);
      offer_options(&t, cur);
    }
    return EXIT_OK;
  }
  const cli_opt *o = find_opt(&t, prev);
  if (o && o->kind != OPT_FLAG) {
    offer_values(o, cur);
    return EXIT_OK;
  }
  if (cur[0] == '-')
    offer_options(&t, cur);
  return EXIT_OK;
}
