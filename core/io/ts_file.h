/* core/io/: what goes in and out of files. Reads bounded in size, outputs written to a
 * temporary and renamed (this file), PNG (ts_png.c, declared in
 * ts_image.h), JSON and CSV export, and the test chart.
 *
 * Whole-file reads with a size cap, and output files that appear atomically:
 * data goes to a temporary file beside the target, which is renamed over it only once
 * everything was written, so a failed or interrupted write never leaves half a file. */
#ifndef TS_FILE_H
#define TS_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ts_status.h"

typedef struct ts_outfile {
  FILE *f;
  char *path;
  char *tmp;   /* NULL when the target is written in place (a device such as /dev/null) */
  int slot;    /* where the temporary file is registered for ts_outfile_interrupted, or -1 */
} ts_outfile;

/* Opens a temporary file beside path. A path that names a directory is refused; one that
 * names something other than a regular file (a device, a pipe) is written in place, since
 * there is nothing there to replace atomically. */
ts_status ts_outfile_open(ts_outfile *o, const char *path, ts_error *err);
/* Flushes, closes and renames; on any failure removes the temporary file. */
ts_status ts_outfile_commit(ts_outfile *o, ts_error *err);
/* The outputs of one command, committed together: every file is flushed and closed, and only
 * when all were written whole are they renamed into place, with a signal that comes during
 * the renames held until the last (ts_outfile_interrupted). A failure removes every
 * temporary file: an interrupted or failed command leaves the old set of files or the new
 * (but for a rename refused after others were done: a target made a directory meanwhile). */
ts_status ts_outfile_commit_all(ts_outfile *o, int n, ts_error *err);
/* Closes and removes the temporary file; safe on an unopened or committed ts_outfile. */
void ts_outfile_abort(ts_outfile *o);
/* For a SIGINT or SIGTERM handler (async-signal-safe): removes every temporary file still
 * being written or waiting in a ts_outset and returns 1, so that an interrupted command
 * leaves none behind; or, while a set of outputs is being renamed into place, returns 0 and
 * raises sig again after the last rename. */
int ts_outfile_interrupted(int sig);

/* Many outputs written one after another and renamed into place together, as
 * ts_outfile_commit_all does, without holding them open: each is closed once written and
 * waits as its temporary file. The set is registered once for ts_outfile_interrupted, so
 * that 10000 frames need neither 10000 open files nor as many registrations. */
typedef struct ts_outset ts_outset;
/* A set for at most cap outputs; NULL, with the error, when out of memory. */
ts_outset *ts_outset_create(int cap, ts_error *err);
/* Flushes and closes o, written whole, and adds it to the set, not yet renamed. Takes o
 * over: on a failure its temporary file is removed (the set's others stay, for the caller
 * to abort). */
ts_status ts_outset_add(ts_outset *s, ts_outfile *o, ts_error *err);
/* Renames every output of the set into place, once every target was checked (not a
 * directory), with a signal held as ts_outfile_commit_all does, and frees the set. On a
 * failure removes the temporary files not renamed (those renamed before a refused rename
 * stay: a target made a directory meanwhile). */
ts_status ts_outset_commit(ts_outset *s, ts_error *err);
/* Removes every temporary file of the set and frees it; NULL is ignored. */
void ts_outset_abort(ts_outset *s);

ts_status ts_file_read_all(const char *path, size_t max_bytes, uint8_t **data, size_t *len,
                           ts_error *err);

/* A file's modification time in nanoseconds (an edit within the second counts). */
struct stat;
int64_t ts_mtime_ns(const struct stat *st);

/* Writes s as a JSON string: quotes, backslashes and control characters escaped, bytes that
 * are not UTF-8 (a file name is any bytes) replaced by U+FFFD, so that the JSON stays valid.
 * Every JSON writer's strings go through it. */
void ts_json_string(FILE *f, const char *s);

#endif
