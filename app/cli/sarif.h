/* Findings as SARIF 2.1.0 (`--sarif FILE` of run, shot and diff), the OASIS format that code
 * review tools show inline at the file and line (GitHub and GitLab code scanning, VS Code's
 * SARIF viewer): one rule per kind of finding (its id, a short and a full description, help
 * naming the guide's section), one result per finding line, with the line as tilescope prints
 * it, its level (error for what fails the command, warning for what fails it only under
 * --fail-on, note for a benign race and advice), the kernel's .cl file and line as its
 * location, and the count, work-group, work-item or thread in its properties. The names of the
 * kinds of a plain kernel's findings, which its JSON uses too, are here. docs/ci.md: "Findings
 * as SARIF". */
#ifndef TS_APP_SARIF_H
#define TS_APP_SARIF_H

#include "ts_file.h"
#include "ts_observe.h"
#include "ts_plain.h"
#include "ts_run.h"

/* A plain kernel's finding kind (TS_FIND_*) as a word: "race_groups", "benign_race", ... */
const char *sarif_plain_kind_key(int kind);

typedef enum { SARIF_NOTE, SARIF_WARNING, SARIF_ERROR } sarif_level;

typedef struct sarif_log sarif_log;

/* An empty log of one run of tilescope; NULL when out of memory (said on stderr). */
sarif_log *sarif_create(void);
void sarif_destroy(sarif_log *log);
/* Whether memory ran out while results were added (said on stderr once). */
int sarif_failed(const sarif_log *log);

/* A plain kernel's findings (ts_plain_finding_line's lines) at the kernel file's lines: error,
 * but a benign race a note unless fail_benign. */
void sarif_add_plain(sarif_log *log, const ts_plain_desc *d, const ts_plain_result *r,
                     int fail_benign);

/* The same as a whole: a log of d's findings in r (NULL: none) written to path; says
 * "wrote PATH" to `said` (NULL: nothing). Returns 0 after the error line ("tilescope CMD:
 * --sarif: ..."). */
int sarif_write_plain(const char *cmd, const char *path, const ts_plain_desc *d,
                      const ts_plain_result *r, int fail_benign, FILE *said);

/* What fails a variant's run beside the errors (--fail-on, wrong tiles no race explains). */
typedef struct sarif_fails {
  int hazards, races, wrong;
} sarif_fails;
/* Lines a variant's run printed (its text summary, its observation's), each finding line a
 * result by its start ("hazard: ", "advice: ", "observed hazard: ", "race: ", "wrong tile: ",
 * "output differs from "), at the file and line of the kernel of the pass it names; the other
 * lines (summaries, times) are not findings. kernels_dir: where the built-in kernels were
 * found (NULL: a user kernel's own file only). */
void sarif_add_run_text(sarif_log *log, const ts_run *run, const char *kernels_dir,
                        const char *text, const sarif_fails *fails);
/* The observation's violations (ts_obs_finding_line's lines), errors. */
void sarif_add_observed(sarif_log *log, const ts_run *run, const char *kernels_dir,
                        const ts_obs_report *rep);
/* diff's verdict line for images that differ, at image a (b beside it). */
void sarif_add_image_diff(sarif_log *log, const char *line, const char *a, const char *b,
                          size_t differing, int max_diff);

/* Writes the log into an output opened by the caller, to be committed with its others. */
void sarif_write_to(const sarif_log *log, ts_outfile *of);
/* Writes the log to path, whole or not at all (a temporary file renamed into place). */
ts_status sarif_write(const sarif_log *log, const char *path, ts_error *err);
/* sarif_write for a command: "wrote PATH" to `said` (NULL: nothing), or the error line and 0
 * (also for a log that ran out of memory). */
int sarif_save(const sarif_log *log, const char *cmd, const char *path, FILE *said);

#endif
