/* core/cl/: the OpenCL back end. Devices and the context, programs built from kernels/ at
 * run time, the replayed launches of a run, the one-launch device schedule with its
 * scoreboard (this file), and device records and traces (ts_record). Parts that launch
 * kernels of their own share its device through ts_cl_handles.h.
 *
 * The OpenCL back end. A ts_cl holds one device, its queue (with profiling) and the kernel
 * programs, built from the kernels folder at run time (common.cl + one file per family), so
 * an edited kernel needs no rebuild of tilescope: ts_cl_reload rebuilds, and on a build
 * error keeps the last good programs and reports the log. A ts_cl_run holds one run's
 * device buffers and replays batches of threads on the device with the executor's
 * semantics: threads write a shadow buffer, and a commit kernel publishes each thread's
 * write rectangle at its end tick. */
#ifndef TS_CL_H
#define TS_CL_H

#include <stdint.h>

#include "ts_variant.h"

typedef struct ts_cl ts_cl;
typedef struct ts_cl_run ts_cl_run;

typedef struct ts_cl_device_info {
  char platform[128];
  char name[128];
  char type[16];       /* "GPU", "CPU", "accelerator" */
  char version[64];
  unsigned compute_units;
  uint64_t global_mem, local_mem;
} ts_cl_device_info;

#define TS_CL_MAX_DEVICES 16

/* Lists every device of every platform; *n = 0 with TS_ERR_DEVICE when there is none. */
ts_status ts_cl_devices(ts_cl_device_info *out, int max, int *n, ts_error *err);

/* pocl's CPU workers, one on each core (POCL_AFFINITY), unless the user chose: where the
 * kernel was free to put two of them on one core, a short launch took twice its time in
 * runs of tens of launches (docs/performance.md). Only where worker i's core i is this
 * process's to use: every online core allowed, at most that many workers. Read by pocl when
 * its platform starts: called from main before any thread, and again after a change of
 * POCL_MAX_PTHREAD_COUNT (withdrawn then, when it no longer holds). */
void ts_cl_pin_cpu_workers(void);

/* device: index from ts_cl_devices, or -1 for the first GPU (else the first device). */
ts_status ts_cl_create(int device, const char *kernels_dir, ts_cl **out, ts_error *err);
void ts_cl_destroy(ts_cl *cl);
const ts_cl_device_info *ts_cl_device(const ts_cl *cl);
const char *ts_cl_kernels_dir(const ts_cl *cl);

/* Rebuilds every program that was built before. On failure the previous programs stay in
 * use; err names the file and ts_cl_build_log has the compiler's log. */
ts_status ts_cl_reload(ts_cl *cl, ts_error *err);
const char *ts_cl_build_log(const ts_cl *cl);

/* What the device reports for a pass's kernel: private bytes per work-item and local bytes
 * per work-group (CL_KERNEL_PRIVATE_MEM_SIZE, CL_KERNEL_LOCAL_MEM_SIZE). */
ts_status ts_cl_kernel_mem(ts_cl *cl, const ts_variant *v, int pass, const ts_kctx *k,
                           uint64_t *private_bytes, uint64_t *local_bytes, ts_error *err);

/* The device's copy bandwidth in GB/s (bytes read + bytes written per second), the median
 * of `repeats` copies of `bytes` after a warm-up. */
ts_status ts_cl_copy_bandwidth(ts_cl *cl, size_t bytes, int repeats, double *gbps,
                               ts_error *err);

/* A run's device state: buffers shaped like k's, the input uploaded, the rest zero.
 * seq_tiles / seq_rects: for each index of the schedule's start sequence, the thread's
 * coordinates and its write rectangle in bytes (x, y, width, height). shadows[b]: buffer b
 * gets a shadow for ts_cl_run_exec to write and ts_cl_run_commit to publish.
 * On a device that works in the host's memory (CL_DEVICE_HOST_UNIFIED_MEMORY, e.g. pocl)
 * the buffers are k's host buffers themselves (CL_MEM_USE_HOST_PTR): they must stay
 * allocated until ts_cl_run_destroy, and the host reads them only after
 * ts_cl_run_download (which maps them) and writes them never. TILESCOPE_CL_COPIES=1 gives
 * every run device buffers of its own instead, as on a GPU. */
ts_status ts_cl_run_create(ts_cl *cl, const ts_variant *v, const ts_kctx *k, uint32_t total,
                           const int32_t *seq_tiles, const int32_t *seq_rects,
                           const int *shadows, ts_cl_run **out, ts_error *err);
void ts_cl_run_destroy(ts_cl_run *r);
ts_status ts_cl_run_reset(ts_cl_run *r, ts_error *err);
/* Pass `pass`'s threads are start-sequence indices base on, in row-major order of its thread
 * space, tw wide: its kernels compute a thread's coordinates from its index rather than load
 * them, which on a GPU is a memory round trip before the thread's first access (an H200 ran
 * boxquad at 8K RGB in 0.076 ms against 0.078, gaussquad in 0.103 against 0.105). */
void ts_cl_run_rowmajor(ts_cl_run *r, int pass, uint32_t base, int tw);
/* Runs the threads at start-sequence indices first .. first + n - 1, all of pass `pass`:
 * into the shadow, or (direct) straight into the buffer. */
ts_status ts_cl_run_exec(ts_cl_run *r, int pass, uint32_t first, uint32_t n, int direct,
                         ts_error *err);
ts_status ts_cl_run_commit(ts_cl_run *r, int pass, uint32_t first, uint32_t n, ts_error *err);
/* Waits for the device and copies rows lo[b] .. hi[b] - 1 of the committed OUT and MID
 * buffers into k (an empty range copies nothing); with shared buffers, maps them instead,
 * until the next command that uses them. */
ts_status ts_cl_run_download(ts_cl_run *r, ts_kctx *k, const int *lo, const int *hi,
                             ts_error *err);
/* Kernel time (profiling events) of the launches since the last call, in ms. */
double ts_cl_run_take_kernel_ms(ts_cl_run *r);

/* ---- observation (SPEC section 9) ----
 * Pass `pass` runs its kernel's observe build (-DTS_OBSERVE) from now on, with an
 * observation buffer of nwords 32-bit words that every reset fills with `init` (its layout
 * is common.cl's and ts_observe.c's). init NULL: back to the normal build. */
ts_status ts_cl_run_observe(ts_cl_run *r, int pass, const uint32_t *init, size_t nwords,
                            ts_error *err);
/* Waits for the device and copies pass `pass`'s observation buffer (nwords words) to out. */
ts_status ts_cl_run_observe_read(ts_cl_run *r, int pass, uint32_t *out, ts_error *err);

/* ---- device-scheduled launches (SPEC section 8) ----
 * One launch runs a whole pass: each work-group takes a ticket, works on the ticket's tile of
 * the walk, waits on the done flags of its effective wait set, and signals its own. */

/* What one work-group of a device-scheduled launch did, by ticket. Times are nanoseconds of
 * the device's clock where ts_cl_clock_is_time, else a logical clock (event order only). */
typedef struct ts_grec {
  uint32_t group;         /* the work-group id the device gave it */
  int32_t unit;           /* compute unit, or -1 where the device cannot say */
  int32_t tx, ty;         /* the tile it worked on */
  uint64_t start, waited, end;
  /* When its successors could first read from it: a look-back kernel's aggregate (between
   * start and the end of its wait), else its end. */
  uint64_t published;
  /* Recorded by look-back kernels: the ticket whose publication the wait read last (-1:
   * none), and whether that was its aggregate (1) or its end (0). Elsewhere -1, and the
   * critical path finds it from the wait set (ts_dev_critical_path). */
  int32_t bound, bound_agg;
  int32_t lane;           /* for drawing: the unit, or a logical lane (filled by ts_run) */
} ts_grec;

typedef struct ts_cl_dev_launch {
  const int32_t *tiles;   /* n tiles (x, y) in walk order: ticket t works on tiles[t] */
  const int32_t *waits;   /* n x 8: the size of ticket t's wait set, then its producers' tickets */
  const int32_t *ticket_of; /* n: each tile's ticket by thread id, for a pass that looks back */
  uint32_t n;
  uint32_t sums;          /* words of sums each tile publishes (a pass that looks back), or 0 */
  int stuck;              /* a ticket that never signals (tests), or -1 */
  uint32_t spin_limit;    /* spins before a wait gives up; 0: the default for the device */
  uint32_t delay, seed;   /* the adversary: delays of up to `delay` polls (0: none), drawn
                           * from the seed and the ticket (kernels/scoreboard.cl) */
} ts_cl_dev_launch;

typedef struct ts_cl_dev_result {
  uint32_t tickets;       /* tickets taken: n when every group ran */
  int gave_up;            /* 0, or 1 + the ticket of the first group whose wait gave up */
  int waited_for;         /* the ticket it was waiting for */
  int root;               /* the first ticket whose producers all signalled but that did not
                           * signal itself (where a stall began), or -1 */
  uint32_t spin_limit;
} ts_cl_dev_result;

/* 1 when device records are in nanoseconds (NVIDIA), 0 for the logical clock. */
int ts_cl_clock_is_time(const ts_cl *cl);
/* Runs pass `pass` in one launch, straight into its buffer, and waits for it. rec: n records
 * to fill, or NULL to launch without recording. */
ts_status ts_cl_run_device(ts_cl_run *r, int pass, const ts_cl_dev_launch *l, ts_grec *rec,
                           ts_cl_dev_result *res, ts_error *err);

#endif
