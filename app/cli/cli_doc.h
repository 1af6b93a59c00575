/* The command table, and what is made of the option tables that --help prints, so that none
 * of it can drift from the parser: the top-level usage, the man page (`tilescope --man`, made
 * at build time: tilescope.1) and the shell's completions (`tilescope --complete`, which
 * dist/tilescope.bash calls). Each command's table is read by calling the command with a
 * describer set (cli_set_describer): the table it hands cli_parse is the one it parses. */
#ifndef TS_APP_CLI_DOC_H
#define TS_APP_CLI_DOC_H

#include <stdio.h>

typedef struct cli_command {
  const char *name, *summary;
  int (*run)(int argc, char **argv);       /* NULL: not in this build (the viewer's) */
  int (*run_plain)(int argc, char **argv); /* its form for a plain kernel file, or NULL */
} cli_command;

extern const cli_command cli_commands[];
extern const int cli_ncommands;

/* `tilescope --help`: the forms, the commands and the options every command takes. */
void cli_usage(FILE *f);
/* `tilescope --man [FILE]`: the man page, as roff, to FILE (written whole, then renamed into
 * place) or to stdout. Returns the exit code, after the error line. */
int cli_man(int argc, char **argv);
/* `tilescope --complete N WORD...`: the words that complete WORD number N (the program is word
 * 0), one a line: commands, options, and the values of options that take names (variants,
 * patterns, walks, overlays, ...); none where a file name goes, which the shell completes. */
int cli_complete(int argc, char **argv);

#endif
