/* Exact results and schedules for scripts: NumPy .npy arrays and a per-thread CSV. */
#ifndef TS_EXPORT_H
#define TS_EXPORT_H

#include "ts_file.h"
#include "ts_run.h"

/* The committed output: uint8 H x W x C, or uint32 H x W for the integral image. */
ts_status ts_export_npy(const char *path, const ts_run *run, ts_error *err);
/* One row per thread: pass, x, y, dispatch index, slot, dispatch/start/end ticks, depth,
 * hazards. */
ts_status ts_export_schedule_csv(const char *path, const ts_run *run, ts_error *err);
/* The same into an open output that the caller commits (ts_outfile_commit_all). */
ts_status ts_export_npy_to(ts_outfile *of, const ts_run *run, ts_error *err);
ts_status ts_export_schedule_csv_to(ts_outfile *of, const ts_run *run, ts_error *err);

#endif
