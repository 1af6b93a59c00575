/* The viewer's state in one line (viewer_report.c), as scripts print and check it. */
#ifndef TS_APP_VIEWER_REPORT_H
#define TS_APP_VIEWER_REPORT_H

#include <stddef.h>

#include "view_state.h"

/* "variant=... pattern=... tick=T/LEN ...": what the window shows, field by field. */
void viewer_report(viewer *v, char *buf, size_t n);

#endif
