/* libclang, loaded at its first use (ts_libclang.c). */
#ifndef TS_LIBCLANG_H
#define TS_LIBCLANG_H

#include "ts_status.h"

/* Loads libclang once, for every thread: TS_OK, or why it cannot be (one line). */
ts_status ts_libclang_load(ts_error *err);

#endif
