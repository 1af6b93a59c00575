/* Inside the OpenCL back end (internal to core/cl/): the state of a device and of a run,
 * and the helpers that the replayed launches (ts_cl.c) and the device-scheduled ones
 * (ts_cl_device.c) share. ts_cl.c defines them; ts_cl_device.c only calls them. */
#ifndef TS_CL_INT_H
#define TS_CL_INT_H

#include <CL/cl.h>

#include "ts_cl.h"
#include "ts_cl_handles.h" /* ts_cl_new_buffer */

enum { MAX_PROGRAMS = 64, MAX_KERNELS_PER_RUN = TS_MAX_PASSES };

typedef struct program {
  char file[1024];
  int device_exec; /* 1: built with -DTS_DEVICE (the scoreboard entry points); 2: with
                    * -DTS_OBSERVE (every buffer access recorded) */
  cl_program prog;
} program;

struct ts_cl {
  cl_platform_id platform;
  cl_device_id device;
  cl_context ctx;
  cl_command_queue queue;
  ts_cl_device_info info;
  char *kernels_dir;
  program programs[MAX_PROGRAMS];
  int nprograms;
  char *log;
  size_t max_group;
  int sync; /* TILESCOPE_CL_SYNC=1: wait after every launch, so a fault names its kernel */
  /* The device works in the host's memory (a CPU device such as pocl's): a run's buffers are
   * the host's own (CL_MEM_USE_HOST_PTR), so the bytes are not held twice. */
  int unified;
  int nvidia; /* NVIDIA's platform: device time and multiprocessor ids through inline PTX */
};

struct ts_cl_run {
  ts_cl *cl;
  const ts_variant *v;
  cl_mem buf[TS_NBUF], shadow[TS_NBUF], tiles, rects, weights;
  size_t bytes[TS_NBUF];
  /* shared: buf[] live in the host buffers of the run (ts_cl.h); mapped[b]: buf[b] is mapped
   * for the host to read (after a download) until the next command that uses it. */
  int shared;
  void *mapped[TS_NBUF];
  int pitch[TS_NBUF]; /* bytes per row */
  cl_kernel kernel[MAX_KERNELS_PER_RUN], commit;
  /* Device-scheduled launches (made on first use): kernels, the scoreboard, the walk's tiles,
   * wait sets and records, sized for the largest pass. */
  cl_kernel dkernel[MAX_KERNELS_PER_RUN];
  /* Observed passes: the observe build's kernel, its observation buffer and what every
   * reset fills it with (ts_cl_run_observe). */
  cl_kernel okernel[MAX_KERNELS_PER_RUN];
  cl_mem obs[MAX_KERNELS_PER_RUN];
  uint32_t *obs_init[MAX_KERNELS_PER_RUN];
  size_t obs_words[MAX_KERNELS_PER_RUN];
  cl_mem board, dtiles, dwaits, drec;
  uint32_t dcap;
  size_t dboard_words; /* the board's size: flags, and for a look-back the tiles' tickets and sums */
  size_t lmem;
  int W, H, C, r;
  /* Passes whose threads are start-sequence indices rm_base[p] on, in row-major order of a
   * thread space rm_tw[p] wide (ts_cl_run_rowmajor); 0: any other order. */
  int rm_tw[MAX_KERNELS_PER_RUN];
  uint32_t rm_base[MAX_KERNELS_PER_RUN];
  cl_event *events;
  size_t nevents, cap_events;
};

#define CL_TRY(call, name)                                                      \
  do {                                                                          \
    ts_status st_ = tscl_cl_check((call), name, err);                           \
    if (st_ != TS_OK)                                                           \
      return st_;                                                               \
  } while (0)

const char *tscl_cl_error_name(cl_int e);
ts_status tscl_cl_check(cl_int e, const char *call, ts_error *err);
ts_status tscl_make_kernel(ts_cl *cl, const char *file, const char *name, cl_kernel *out,
                           ts_error *err);
ts_status tscl_make_kernel_in(ts_cl *cl, const char *file, int device_exec, const char *name,
                              cl_kernel *out, ts_error *err);
ts_status tscl_unmap_all(ts_cl_run *r, ts_error *err);
ts_status tscl_set_args(ts_cl_run *r, cl_kernel kern, cl_mem src, cl_mem dst, cl_mem committed,
                        cl_mem tiles, int first, int n, ts_error *err);
size_t tscl_local_bytes(const ts_variant *v, const ts_kctx *k);
ts_status tscl_keep_event(ts_cl_run *r, cl_event ev, ts_error *err);

#endif
