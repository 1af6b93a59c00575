/* Playing a viewer script (script.c; the format is described there). */
#ifndef TS_APP_SCRIPT_H
#define TS_APP_SCRIPT_H

#include "view_state.h"

/* Runs a script; returns the number of failed expectations, -1 on a bad script. */
int script_run(viewer *v, const char *path);

#endif
