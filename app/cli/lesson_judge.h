/* The lessons' checkers (lesson_judge.c): a student's file judged by running it through
 * tilescope's core, never by reading its text, and what is still wrong said in a student's
 * words (a verdict: the first few findings, then a count). cmd_lesson.c holds the course's
 * table and the command. */
#ifndef TS_APP_LESSON_JUDGE_H
#define TS_APP_LESSON_JUDGE_H

#include "ts_image.h"
#include "ts_plain.h"
#include "ts_ref.h"

/* ---- what the checker says: the first few findings, then a count ---- */

#define SHOWN 5

typedef struct verdict {
  char line[SHOWN][640];
  int n;            /* findings said */
  char more[400];   /* what the count line adds (e.g. "1200 threads in all"), or "" */
} verdict;


typedef enum { KIND_PLAIN, KIND_PATTERN, KIND_WALK, KIND_SCOREBOARD } lesson_kind;

typedef struct lesson {
  const char *dir, *title, *file_kind;
  lesson_kind kind;
  ts_filter ref;               /* plain lessons: the reference the output must equal */
  int transpose;               /* plain: both passes must be horizontal code */
  const char *hint[TS_NFIND];  /* plain: what a finding of each kind means in this lesson */
  int order;                   /* plain: the order its work-groups are run in, one at a time
                                * (ts_plain_opts.order; 0: the device's) */
} lesson;

/* One finding said (the first SHOWN kept), counted. */
void say(verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A plain kernel (lessons 1, 4, 5), a schedule file (2, 3), a dialect kernel (6): into v;
 * 0, or EXIT_USAGE after one error line when the file cannot be checked. */
int check_plain(const lesson *l, const char *path, const ts_image *in, int device, verdict *v);
int check_schedule(const lesson *l, const char *path, const ts_image *in, verdict *v);
int check_scoreboard(const char *path, const ts_image *in, int device, verdict *v);

#endif
