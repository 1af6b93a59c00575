/* Device records (SPEC section 8) out of the run and back in: a one-line summary, the trace
 * file (Chrome / Perfetto trace-event JSON: one track per compute unit or logical lane, one
 * slice per work-group, and the simulated schedule of the same run as a second process), and
 * loading a saved trace so that a run recorded on one machine is viewed on another. The
 * trace carries everything needed to rebuild the run besides the input image, under the
 * top-level key "tilescope", which trace viewers ignore. */
#ifndef TS_RECORD_H
#define TS_RECORD_H

#include <stddef.h>

#include "ts_file.h"
#include "ts_run.h"

/* "device: 1200 groups on 2 lanes (logical clock), kernels 1.23 ms; 3 wrong tiles" and the
 * like, for the CLI and the viewer's panel. */
void ts_dev_summary(const ts_dev_run *d, char *buf, size_t size);
/* Mean time from start to end of wait over every group, in the record's unit. */
double ts_dev_mean_wait(const ts_dev_run *d);
/* The share of its groups' time that the record spent waiting: from the start (a look-back
 * kernel's aggregate: it waits for nothing before it) to the end of the wait, over start to
 * end, summed over every group; 0 for an empty record. */
double ts_dev_wait_share(const ts_dev_run *d);

/* The critical path of a recorded run: its longest chain of waits. A group waited for the
 * producer whose publication it read last (what a look-back kernel recorded, else the
 * producer of its effective wait set that ended last) when that came out after its wait
 * began; the chain goes on through that producer's own wait where what it read was the
 * producer's end, and stops there where it was a look-back's aggregate, which no wait
 * delays. */
typedef struct ts_dev_path {
  int pass;              /* the pass it lies in (the longest of them) */
  uint32_t groups;       /* groups on it: 1 when no group waited for another */
  uint32_t head, tail;   /* its first and last tickets */
  uint64_t t0, t1;       /* the head's start and the tail's end, in the record's unit */
  uint64_t span;         /* the run's length in the record: 0 to its last end */
  int through_aggregate; /* its first link read the head's aggregate */
} ts_dev_path;

/* Fills *p for the record d of a run with schedule s (the wait sets); chain: NULL, or room
 * for p->groups tickets (at most the pass's groups), head first. 0 when d holds no record. */
int ts_dev_critical_path(const ts_dev_run *d, const ts_sched *s, ts_dev_path *p,
                         uint32_t *chain, uint32_t chain_cap);
/* "critical path: 374 groups in a chain of waits, 0.690 of 0.730 ms" and the like (the
 * chain from its head's start to its tail's end, of the whole record). */
void ts_dev_path_line(const ts_dev_run *d, const ts_sched *s, char *buf, size_t size);

/* Writes the run's device record and its simulated schedule as trace-event JSON (to a
 * temporary file, then renamed). input: the input image's path as the user gave it. */
ts_status ts_trace_write(const char *path, const ts_run *run, const char *input, ts_error *err);
/* The same into an open output that the caller commits (ts_outfile_commit_all). */
ts_status ts_trace_write_to(ts_outfile *of, const ts_run *run, const char *input, ts_error *err);

/* What a saved trace says about its run: the parameters to rebuild it with. */
typedef struct ts_trace_info {
  char variant[64], pattern[32], walk[32], input[1024];
  int slots, cost, ksize;
  double sigma;
  int w, h, c;
} ts_trace_info;

/* Reads a trace written by ts_trace_write: the run's parameters and its device record
 * (ts_dev_run_free it). Every error names the file and what is wrong. */
ts_status ts_trace_read(const char *path, ts_trace_info *info, ts_dev_run **out, ts_error *err);
/* The same from len bytes of a trace, named path in the errors (the fuzz target's entry). */
ts_status ts_trace_decode(const char *data, size_t len, const char *path, ts_trace_info *info,
                          ts_dev_run **out, ts_error *err);

#endif
