/* The OpenCL back end's device-scheduled launches (SPEC section 8) and what the device
 * reports: one launch per pass in which the work-groups keep the walk's order themselves
 * through the scoreboard (kernels/scoreboard.cl) and write a record each, the device's
 * memory per kernel, and the copy bandwidth that benchmarks are measured against. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_cl_int.h"

int ts_cl_clock_is_time(const ts_cl *cl)
{
  return cl->nvidia;
}

/* A record's words per ticket (kernels/scoreboard.cl: TS_REC_*); the board's head words
 * before the flags (TS_BOARD_*), of which the adversary's bound and seed are words 4, 5. */
enum { REC_WORDS = 8, BOARD_HEAD = 6 };

/* The board's words for n tickets: the header and a flag each; for a pass that looks back,
 * each tile's ticket and the sums it publishes (sums words a tile). */
static int board_words(size_t n, size_t sums, size_t *words)
{
  size_t w = BOARD_HEAD + n;
  if (sums > 0) {
    if (n > (SIZE_MAX / 8 - w) / (sums + 1))
      return 0;
    w += n + n * sums;
  }
  *words = w;
  return w <= SIZE_MAX / 8;
}

/* Kernels and buffers for launches of up to n work-groups and a board of `words`. */
static ts_status device_state(ts_cl_run *r, uint32_t n, size_t words, ts_error *err)
{
  ts_cl *cl = r->cl;
  ts_status st = TS_OK;
  for (int p = 0; p < r->v->npasses && st == TS_OK; p++)
    if (!r->dkernel[p])
      st = tscl_make_kernel_in(cl, r->v->passes[p].cl_file, 1,
                               ts_pass_kernel(&r->v->passes[p], r->C), &r->dkernel[p], err);
  if (st != TS_OK)
    return st;
  if (words > r->dboard_words) {
    if (r->board)
      clReleaseMemObject(r->board);
    r->board = NULL;
    r->dboard_words = 0;
    if ((st = ts_cl_new_buffer(cl, words * sizeof(cl_int), &r->board, err)) != TS_OK)
      return st;
    r->dboard_words = words;
  }
  if (n <= r->dcap)
    return st;
  cl_mem *bufs[] = { &r->dtiles, &r->dwaits, &r->drec };
  size_t sizes[] = { (size_t)n * 2 * sizeof(cl_int), (size_t)n * 8 * sizeof(cl_int),
                     (size_t)n * REC_WORDS * sizeof(cl_ulong) };
  for (int i = 0; i < 3; i++) {
    if (*bufs[i])
      clReleaseMemObject(*bufs[i]);
    *bufs[i] = NULL;
  }
  r->dcap = 0;
  for (int i = 0; i < 3 && st == TS_OK; i++)
    st = ts_cl_new_buffer(cl, sizes[i], bufs[i], err);
  if (st == TS_OK)
    r->dcap = n;
  return st;
}

ts_status ts_cl_run_device(ts_cl_run *r, int pass, const ts_cl_dev_launch *l, ts_grec *rec,
                           ts_cl_dev_result *res, ts_error *err)
{
  memset(res, 0, sizeof *res);
  if (l->n == 0)
    return TS_OK;
  const ts_pass_desc *pd = &r->v->passes[pass];
  size_t n = l->n, words;
  if (!board_words(n, l->sums, &words))
    return ts_fail(err, TS_ERR_TOO_LARGE, "%u work-groups: too many for the board", l->n);
  if (l->sums > 0 && !l->ticket_of)
    return ts_fail(err, TS_ERR_ARG, "kernel %s looks back: its launch needs the tiles' tickets",
                   ts_pass_kernel(pd, r->C));
  ts_status st = device_state(r, l->n, words, err);
  if (st == TS_OK)
    st = tscl_unmap_all(r, err);
  if (st != TS_OK)
    return st;
  ts_cl *cl = r->cl;
  const cl_int zero = 0;
  /* The head, then the flags at zero; a look-back's sums need not start at zero, as no tile
   * reads a tile's sums before its flag says they are out. */
  cl_int head[BOARD_HEAD] = { 0, 0, 0, 0, (cl_int)l->delay, (cl_int)l->seed };
  CL_TRY(clEnqueueWriteBuffer(cl->queue, r->board, CL_FALSE, 0, sizeof head, head, 0, NULL, NULL),
         "clEnqueueWriteBuffer");
  CL_TRY(clEnqueueFillBuffer(cl->queue, r->board, &zero, sizeof zero, sizeof head, n * sizeof zero,
                             0, NULL, NULL),
         "clEnqueueFillBuffer");
  if (l->sums > 0)
    CL_TRY(clEnqueueWriteBuffer(cl->queue, r->board, CL_FALSE, (n + BOARD_HEAD) * sizeof(cl_int),
                                n * sizeof(cl_int), l->ticket_of, 0, NULL, NULL),
           "clEnqueueWriteBuffer");
  CL_TRY(clEnqueueWriteBuffer(cl->queue, r->dtiles, CL_FALSE, 0, n * 2 * sizeof(cl_int), l->tiles,
                              0, NULL, NULL),
         "clEnqueueWriteBuffer");
  CL_TRY(clEnqueueWriteBuffer(cl->queue, r->dwaits, CL_FALSE, 0, n * 8 * sizeof(cl_int), l->waits,
                              0, NULL, NULL),
         "clEnqueueWriteBuffer");
  cl_kernel kern = r->dkernel[pass];
  int first = 0, ntiles = (int)n, record = rec != NULL, stuck = l->stuck;
  /* The default bound: 2^24 polls on a GPU (each with a 100 ns back-off); 2^30 on a CPU,
   * where a poll takes a few ns and a loaded machine can leave the producer's thread
   * unscheduled for longer than 2^27 of them (pocl on 2 shared cores, load 8 to 10: three
   * give-ups whose producers had all signalled by the end). A real stall then reports in
   * seconds. */
  cl_uint spin = l->spin_limit ? l->spin_limit : cl->info.type[0] == 'G' ? 1u << 24 : 1u << 30;
  cl_mem dst = r->buf[pd->dst];
  if ((st = tscl_set_args(r, kern, r->buf[pd->src], dst, dst, r->dtiles, first, ntiles, err)) != TS_OK)
    return st;
  cl_int e = 0;
  /* On a GPU a wavefront keeps a few diagonals busy, yet every resident group that waits
   * polls its producers' flags, and thousands of them slow the very groups they wait for.
   * Where the pass waits at all, the launch asks for half the device's local memory per
   * group, which caps residency (9 groups per multiprocessor on an H200, not 32): the 4K
   * integral image took 0.76 ms instead of 1.25. */
  size_t used = 0, want = (size_t)(cl->info.local_mem / 2);
  int waits_any = 0;
  for (size_t t = 0; t < n && !waits_any; t++)
    waits_any = l->waits[8 * t] > 0;
  if (cl->info.type[0] == 'G' && waits_any &&
      clGetKernelWorkGroupInfo(kern, cl->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used,
                               NULL) == CL_SUCCESS && used < want)
    e |= clSetKernelArg(kern, 11, r->lmem + (want - used) / 4 * 4, NULL);
  e |= clSetKernelArg(kern, 12, sizeof(cl_mem), &r->board);
  e |= clSetKernelArg(kern, 13, sizeof(cl_mem), &r->dwaits);
  e |= clSetKernelArg(kern, 14, sizeof(cl_mem), &r->drec);
  e |= clSetKernelArg(kern, 15, sizeof(int), &record);
  e |= clSetKernelArg(kern, 16, sizeof(int), &stuck);
  e |= clSetKernelArg(kern, 17, sizeof(cl_uint), &spin);
  CL_TRY(e, "clSetKernelArg");
  /* One tile per work-group: the work-group kernels keep their shape, the one-work-item
   * kernels run as groups of one. */
  size_t local[2] = { pd->cl_dev_group_w > 0 ? (size_t)pd->cl_dev_group_w : 1, 1 }, global[2];
  if (pd->cl_group_w > 0) {
    local[0] = (size_t)pd->cl_group_w;
    local[1] = (size_t)pd->cl_group_h;
  }
  global[0] = n * local[0];
  global[1] = local[1];
  cl_event ev;
  CL_TRY(clEnqueueNDRangeKernel(cl->queue, kern, 2, NULL, global, local, 0, NULL, &ev),
         "clEnqueueNDRangeKernel");
  cl_int fin = clWaitForEvents(1, &ev);
  if ((st = tscl_keep_event(r, ev, err)) != TS_OK)
    return st;
  if (fin != CL_SUCCESS)
    return ts_fail(err, TS_ERR_DEVICE, "kernel %s (pass %d, one launch of %u work-groups) failed: %s (%d)",
                   ts_pass_kernel(pd, r->C), pass + 1, l->n, tscl_cl_error_name(fin), (int)fin);
  cl_int board[4];
  CL_TRY(clEnqueueReadBuffer(cl->queue, r->board, CL_TRUE, 0, sizeof board, board, 0, NULL, NULL),
         "clEnqueueReadBuffer");
  res->tickets = (uint32_t)board[0];
  res->gave_up = board[1];
  res->waited_for = board[3];
  res->spin_limit = spin;
  res->root = -1;
  if (res->gave_up) {
    int *flags = malloc(n * sizeof *flags);
    if (flags && clEnqueueReadBuffer(cl->queue, r->board, CL_TRUE, BOARD_HEAD * sizeof(cl_int),
                                     n * sizeof *flags, flags, 0, NULL, NULL) == CL_SUCCESS)
      for (size_t t = 0; t < n && res->root < 0; t++) {
        const int32_t *w = l->waits + 8 * t;
        int ready = !flags[t];
        for (int i = 0; i < w[0] && ready; i++)
          ready = flags[w[1 + i]] != 0;
        if (ready)
          res->root = (int)t;
      }
    free(flags);
  }
  if (rec) {
    cl_ulong *raw = malloc(n * REC_WORDS * sizeof *raw);
    if (!raw)
      return ts_fail(err, TS_ERR_NOMEM, "out of memory for %zu records", n);
    e = clEnqueueReadBuffer(cl->queue, r->drec, CL_TRUE, 0, n * REC_WORDS * sizeof *raw, raw, 0,
                            NULL, NULL);
    if (e == CL_SUCCESS)
      for (size_t t = 0; t < n; t++) {
        const cl_ulong *q = raw + REC_WORDS * t;
        /* bound: 1 + a ticket, + 2^32 where it read that ticket's aggregate; 0 none */
        uint32_t b = (uint32_t)q[7];
        int lookback = l->sums > 0 && b >= 1 && b <= n;
        rec[t] = (ts_grec){ .group = (uint32_t)q[0],
                            .unit = q[1] == 0xffffffffu ? -1 : (int32_t)q[1],
                            .tx = (int32_t)(uint32_t)q[2], .ty = (int32_t)(uint32_t)(q[2] >> 32),
                            .start = q[3], .waited = q[4], .end = q[5], .published = q[6],
                            .bound = lookback ? (int32_t)(b - 1) : -1,
                            .bound_agg = lookback && (q[7] >> 32) != 0 };
      }
    free(raw);
    CL_TRY(e, "clEnqueueReadBuffer");
  }
  return TS_OK;
}

/* ---- what the device reports ---- */

ts_status ts_cl_kernel_mem(ts_cl *cl, const ts_variant *v, int pass, const ts_kctx *k,
                           uint64_t *private_bytes, uint64_t *local_bytes_out, ts_error *err)
{
  cl_kernel kern;
  ts_status st = tscl_make_kernel(cl, v->passes[pass].cl_file,
                                 ts_pass_kernel(&v->passes[pass], k->in_c), &kern, err);
  if (st != TS_OK)
    return st;
  cl_int e = clSetKernelArg(kern, 11, tscl_local_bytes(v, k), NULL);
  cl_ulong pm = 0, lm = 0;
  if (e == CL_SUCCESS)
    e = clGetKernelWorkGroupInfo(kern, cl->device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pm, &pm,
                                 NULL);
  if (e == CL_SUCCESS)
    e = clGetKernelWorkGroupInfo(kern, cl->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
  clReleaseKernel(kern);
  CL_TRY(e, "clGetKernelWorkGroupInfo");
  *private_bytes = pm;
  *local_bytes_out = lm;
  return TS_OK;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

ts_status ts_cl_copy_bandwidth(ts_cl *cl, size_t bytes, int repeats, double *gbps, ts_error *err)
{
  bytes = (bytes + 15) / 16 * 16;
  cl_mem a = NULL, b = NULL;
  cl_kernel kern = NULL;
  ts_status st = ts_cl_new_buffer(cl, bytes, &a, err);
  if (st == TS_OK)
    st = ts_cl_new_buffer(cl, bytes, &b, err);
  if (st == TS_OK)
    st = tscl_make_kernel(cl, "commit.cl", "copy_words", &kern, err);
  double *t = calloc((size_t)repeats, sizeof *t);
  if (st == TS_OK && !t)
    st = ts_fail(err, TS_ERR_NOMEM, "out of memory");
  const cl_uchar fill = 7;
  if (st == TS_OK)
    st = tscl_cl_check(clEnqueueFillBuffer(cl->queue, a, &fill, 1, 0, bytes, 0, NULL, NULL),
                  "clEnqueueFillBuffer", err);
  if (st == TS_OK)
    st = tscl_cl_check(clSetKernelArg(kern, 0, sizeof a, &a) | clSetKernelArg(kern, 1, sizeof b, &b),
                  "clSetKernelArg", err);
  size_t global = bytes / 16;
  for (int i = -2; i < repeats && st == TS_OK; i++) {
    cl_event ev;
    st = tscl_cl_check(clEnqueueNDRangeKernel(cl->queue, kern, 1, NULL, &global, NULL, 0, NULL, &ev),
                  "clEnqueueNDRangeKernel", err);
    if (st != TS_OK)
      break;
    clWaitForEvents(1, &ev);
    cl_ulong s = 0, e = 0;
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
    clReleaseEvent(ev);
    if (i >= 0)
      t[i] = (double)(e - s);
  }
  if (st == TS_OK) {
    qsort(t, (size_t)repeats, sizeof *t, cmp_double);
    double med = t[repeats / 2];
    *gbps = med > 0 ? 2.0 * (double)bytes / med : 0.0;
  }
  free(t);
  if (kern)
    clReleaseKernel(kern);
  if (a)
    clReleaseMemObject(a);
  if (b)
    clReleaseMemObject(b);
  return st;
}
