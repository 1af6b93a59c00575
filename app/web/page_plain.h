/* A plain kernel's observed run as an exported page's data (export_page.h's ex_plain): the
 * kernel, launch and device in words; the output as the run left it (and its values, of their
 * own type); the findings, each with its line of text, the work-groups and pixels it names;
 * per pass each work-group's rectangles (what it read of the input, wrote of the output), the
 * kinds of its findings and its record on the launch's clock (start, end, ticket, the id it
 * was launched as, polls, barriers), and per output pixel the tick from which it shows (its
 * writers have all ended); each finding's places in words; the kernel's source text; for a
 * split view the second run, in another order, beside the first. The page's model_plain.js
 * reads it back. */
#ifndef TS_APP_PAGE_PLAIN_H
#define TS_APP_PAGE_PLAIN_H

#include <stdio.h>

#include "export_page.h"

/* One run of "runs" (an object), after the page's input, with the kernel's source text. */
ts_status pp_write_run(FILE *f, const ex_plain *pl, ts_error *err);
/* A split view's (export --split order=ORDER): the left run with the same kernel in another
 * order beside it, as its "twin", and how many elements their outputs differ at. */
ts_status pp_write_split(FILE *f, const ex_plain *left, const ex_plain *right, ts_error *err);

/* The elements at which two runs' outputs differ (ts_plain_differ), in words. */
void pp_differ_line(const ts_plain_result *a, const ts_plain_result *b, char *buf, size_t n);

#endif
