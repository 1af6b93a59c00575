/* The OpenCL handles of a ts_cl, for the parts of the core that build and launch kernels of
 * their own (core/plain/): they share the device, its context and its in-order queue. */
#ifndef TS_CL_HANDLES_H
#define TS_CL_HANDLES_H

#include <CL/cl.h>

#include "ts_cl.h"

void ts_cl_handles(const ts_cl *cl, cl_context *ctx, cl_device_id *dev, cl_command_queue *q);
/* clBuildProgram with the compiler's own lines on stderr ("2 errors generated.") muted: the
 * caller reads the build log and says what failed in one line of its own. */
cl_int ts_cl_build(cl_program p, cl_device_id dev, const char *opts);
/* A device buffer of `bytes`. Where the device works in the host's memory (pocl), it is a
 * guarded block of ours (ts_alloc_zeroed), freed when the buffer goes: a kernel that writes
 * past it faults at once, or, observed, lands in no buffer, instead of corrupting the heap or
 * reaching its neighbour. */
ts_status ts_cl_new_buffer(ts_cl *cl, size_t bytes, cl_mem *out, ts_error *err);
/* OpenCL's name for an error code (CL_INVALID_KERNEL_NAME, ...). */
const char *ts_cl_error_name(cl_int e);

#endif
