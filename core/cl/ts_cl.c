/* The OpenCL back end (see ts_cl.h): devices, programs and replayed launches; the device-
 * scheduled launches are in ts_cl_device.c. Every OpenCL call's status goes through tscl_cl_check,
 * which names the call and the error. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <CL/cl.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ts_cl_int.h"
#include "ts_cl_handles.h"
#include "ts_plain.h"
#include "ts_file.h"

const char *tscl_cl_error_name(cl_int e)
{
  switch (e) {
#define E(x) case x: return #x;
    E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_BUILD_PROGRAM_FAILURE) E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT)
    E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_BINARY)
    E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE)
    E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX)
    E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS)
    E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE) E(CL_INVALID_WORK_ITEM_SIZE)
    E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION)
    E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_GLOBAL_WORK_SIZE)
#undef E
  case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
  default: return "unknown OpenCL error";
  }
}

ts_status tscl_cl_check(cl_int e, const char *call, ts_error *err)
{
  if (e == CL_SUCCESS)
    return TS_OK;
  return ts_fail(err, TS_ERR_DEVICE, "%s failed: %s (%d)", call, tscl_cl_error_name(e), (int)e);
}


/* ---- devices ---- */

static void fill_info(cl_platform_id p, cl_device_id d, ts_cl_device_info *info)
{
  memset(info, 0, sizeof *info);
  clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof info->platform - 1, info->platform, NULL);
  clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof info->name - 1, info->name, NULL);
  clGetDeviceInfo(d, CL_DEVICE_VERSION, sizeof info->version - 1, info->version, NULL);
  cl_device_type t = 0;
  clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
  snprintf(info->type, sizeof info->type, "%s",
           t & CL_DEVICE_TYPE_GPU ? "GPU" : t & CL_DEVICE_TYPE_CPU ? "CPU" : "accelerator");
  cl_uint cu = 0;
  clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
  info->compute_units = cu;
  cl_ulong gm = 0, lm = 0;
  clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gm, &gm, NULL);
  clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
  info->global_mem = gm;
  info->local_mem = lm;
}

/* Calls fn for every device of every platform, in a stable order. */
static ts_status each_device(int (*fn)(void *, int, cl_platform_id, cl_device_id), void *ud,
                             ts_error *err)
{
  cl_uint np = 0;
  cl_int e = clGetPlatformIDs(0, NULL, &np);
  if (e != CL_SUCCESS || np == 0)
    return ts_fail(err, TS_ERR_DEVICE, "no OpenCL platform found (%s)",
                   e != CL_SUCCESS ? tscl_cl_error_name(e) : "none installed");
  cl_platform_id plats[8];
  np = np > 8 ? 8 : np;
  CL_TRY(clGetPlatformIDs(np, plats, NULL), "clGetPlatformIDs");
  int index = 0;
  for (cl_uint i = 0; i < np; i++) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0)
      continue;
    cl_device_id devs[TS_CL_MAX_DEVICES];
    nd = nd > TS_CL_MAX_DEVICES ? TS_CL_MAX_DEVICES : nd;
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, nd, devs, NULL) != CL_SUCCESS)
      continue;
    for (cl_uint k = 0; k < nd; k++)
      if (!fn(ud, index++, plats[i], devs[k]))
        return TS_OK;
  }
  if (index == 0)
    return ts_fail(err, TS_ERR_DEVICE, "no OpenCL device found");
  return TS_OK;
}

typedef struct list_ctx {
  ts_cl_device_info *out;
  int max, n;
} list_ctx;

static int list_one(void *ud, int index, cl_platform_id p, cl_device_id d)
{
  list_ctx *c = ud;
  (void)index;
  if (c->n < c->max)
    fill_info(p, d, &c->out[c->n++]);
  return 1;
}

ts_status ts_cl_devices(ts_cl_device_info *out, int max, int *n, ts_error *err)
{
  list_ctx c = { out, max, 0 };
  ts_status st = each_device(list_one, &c, err);
  *n = c.n;
  return st;
}

typedef struct pick_ctx {
  int want, found, is_gpu;
  cl_platform_id p;
  cl_device_id d;
} pick_ctx;

static int pick_one(void *ud, int index, cl_platform_id p, cl_device_id d)
{
  pick_ctx *c = ud;
  cl_device_type t = 0;
  clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
  int gpu = (t & CL_DEVICE_TYPE_GPU) != 0;
  if (c->want == index || (c->want < 0 && (!c->found || (gpu && !c->is_gpu)))) {
    c->p = p;
    c->d = d;
    c->found = 1;
    c->is_gpu = gpu;
    return c->want < 0;
  }
  return 1;
}

static int pinned_by_us;

static int env_at_most(const char *name, long n)
{
  const char *v = getenv(name);
  return !v || !*v || (atol(v) >= 1 && atol(v) <= n);
}

void ts_cl_pin_cpu_workers(void)
{
  const char *set = getenv("POCL_AFFINITY");
  if (set && !pinned_by_us)
    return; /* the user's */
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  cpu_set_t mine;
  int ok = n >= 2 && n <= CPU_SETSIZE && sched_getaffinity(0, sizeof mine, &mine) == 0 &&
           CPU_COUNT(&mine) == n && env_at_most("POCL_MAX_PTHREAD_COUNT", n) &&
           env_at_most("POCL_CPU_MAX_CU_COUNT", n);
  for (long i = 0; ok && i < n; i++)
    ok = CPU_ISSET((int)i, &mine);
  if (ok && !set)
    pinned_by_us = setenv("POCL_AFFINITY", "1", 0) == 0;
  else if (!ok && pinned_by_us) {
    unsetenv("POCL_AFFINITY");
    pinned_by_us = 0;
  }
}

ts_status ts_cl_create(int device, const char *kernels_dir, ts_cl **out, ts_error *err)
{
  pick_ctx pc = { .want = device };
  ts_status st = each_device(pick_one, &pc, err);
  if (st != TS_OK)
    return st;
  if (!pc.found)
    return ts_fail(err, TS_ERR_ARG, "--device %d: no such OpenCL device (see tilescope list)",
                   device);
  ts_cl *cl = calloc(1, sizeof *cl);
  if (!cl)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  cl->platform = pc.p;
  cl->device = pc.d;
  fill_info(pc.p, pc.d, &cl->info);
  size_t n = strlen(kernels_dir) + 1;
  cl->kernels_dir = malloc(n);
  if (cl->kernels_dir)
    memcpy(cl->kernels_dir, kernels_dir, n);
  cl_int e;
  cl->ctx = clCreateContext(NULL, 1, &cl->device, NULL, NULL, &e);
  if ((st = tscl_cl_check(e, "clCreateContext", err)) != TS_OK)
    goto fail;
  cl->queue = clCreateCommandQueue(cl->ctx, cl->device, CL_QUEUE_PROFILING_ENABLE, &e);
  if ((st = tscl_cl_check(e, "clCreateCommandQueue", err)) != TS_OK)
    goto fail;
  clGetDeviceInfo(cl->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof cl->max_group,
                  &cl->max_group, NULL);
  const char *sync = getenv("TILESCOPE_CL_SYNC");
  cl->sync = sync && strcmp(sync, "1") == 0;
  cl->nvidia = strstr(cl->info.platform, "NVIDIA") != NULL;
  cl_bool unified = CL_FALSE;
  clGetDeviceInfo(cl->device, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);
  const char *copies = getenv("TILESCOPE_CL_COPIES");
  cl->unified = unified == CL_TRUE && !(copies && strcmp(copies, "1") == 0);
  *out = cl;
  return TS_OK;
fail:
  ts_cl_destroy(cl);
  return st;
}

void ts_cl_destroy(ts_cl *cl)
{
  if (!cl)
    return;
  for (int i = 0; i < cl->nprograms; i++)
    clReleaseProgram(cl->programs[i].prog);
  if (cl->queue)
    clReleaseCommandQueue(cl->queue);
  if (cl->ctx)
    clReleaseContext(cl->ctx);
  free(cl->kernels_dir);
  free(cl->log);
  free(cl);
}

const ts_cl_device_info *ts_cl_device(const ts_cl *cl)
{
  return &cl->info;
}

void ts_cl_handles(const ts_cl *cl, cl_context *ctx, cl_device_id *dev, cl_command_queue *q)
{
  *ctx = cl->ctx;
  *dev = cl->device;
  *q = cl->queue;
}

const char *ts_cl_error_name(cl_int e)
{
  return tscl_cl_error_name(e);
}

const char *ts_cl_kernels_dir(const ts_cl *cl)
{
  return cl->kernels_dir;
}

const char *ts_cl_build_log(const ts_cl *cl)
{
  return cl->log ? cl->log : "";
}

/* ---- programs ---- */

/* A file name without a slash is in the kernels folder; a path (a user kernel) is as given. */
static void kernel_path(const ts_cl *cl, const char *file, char *path, size_t size)
{
  if (strchr(file, '/'))
    snprintf(path, size, "%s", file);
  else
    snprintf(path, size, "%s/%s", cl->kernels_dir, file);
}

static ts_status read_kernel_file(const ts_cl *cl, const char *file, char **text, ts_error *err)
{
  char path[4096];
  kernel_path(cl, file, path, sizeof path);
  uint8_t *data;
  size_t len;
  ts_status st = ts_file_read_all(path, 1u << 20, &data, &len, err);
  if (st != TS_OK)
    return st;
  char *s = malloc(len + 1);
  if (!s) {
    free(data);
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  }
  memcpy(s, data, len);
  s[len] = 0;
  free(data);
  *text = s;
  return TS_OK;
}

/* The parts every kernel file is built after, in order (kernels/common.cl says what each
 * holds). */
static const char *const common_parts[] = { "common.cl", "scoreboard.cl", "access.cl",
                                            "helpers.cl" };
#define NCOMMON ((int)(sizeof common_parts / sizeof common_parts[0]))

/* Builds the common parts + file; on failure stores the log and leaves *out alone. */
static ts_status build(ts_cl *cl, const char *file, int device_exec, cl_program *out,
                       ts_error *err)
{
  char *src[NCOMMON + 1] = { NULL };
  ts_status st = TS_OK;
  for (int i = 0; i < NCOMMON && st == TS_OK; i++)
    st = read_kernel_file(cl, common_parts[i], &src[i], err);
  if (st == TS_OK)
    st = read_kernel_file(cl, file, &src[NCOMMON], err);
  if (st != TS_OK) {
    for (int i = 0; i <= NCOMMON; i++)
      free(src[i]);
    return st;
  }
  /* #line keeps the compiler's messages pointing into the right file and line. */
  char lines[NCOMMON + 1][1100];
  const char *parts[2 * (NCOMMON + 1)];
  for (int i = 0; i <= NCOMMON; i++) {
    const char *name = i < NCOMMON ? common_parts[i] : file;
    const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
    snprintf(lines[i], sizeof lines[i], "%s#line 1 \"%s\"\n", i ? "\n" : "", base);
    parts[2 * i] = lines[i];
    parts[2 * i + 1] = src[i];
  }
  /* A user's dialect kernel observed: its direct accesses (src[i] rather than TS_LD8) are
   * passed through the observation too, so that a kernel cannot step around it. */
  if (device_exec == 2 && strchr(file, '/')) {
    size_t plen = 0;
    for (int i = 0; i < 2 * NCOMMON + 1; i++)
      plen += strlen(parts[i]);
    char *prefix = malloc(plen + 1), *rewritten = NULL;
    if (!prefix)
      st = ts_fail(err, TS_ERR_NOMEM, "out of memory");
    else {
      prefix[0] = 0;
      for (int i = 0; i < 2 * NCOMMON + 1; i++)
        strcat(prefix, parts[i]);
      char path[4096];
      kernel_path(cl, file, path, sizeof path);
      st = ts_plain_rewrite_dialect(path, prefix, plen, src[NCOMMON], strlen(src[NCOMMON]),
                                    "-DTS_OBSERVE=1", &rewritten, err);
      free(prefix);
    }
    if (st != TS_OK) {
      for (int i = 0; i <= NCOMMON; i++)
        free(src[i]);
      return st;
    }
    free(src[NCOMMON]);
    src[NCOMMON] = rewritten;
    parts[2 * NCOMMON + 1] = rewritten;
  }
  cl_int e;
  cl_program p = clCreateProgramWithSource(cl->ctx, 2 * (NCOMMON + 1), parts, NULL, &e);
  for (int i = 0; i <= NCOMMON; i++)
    free(src[i]);
  if ((st = tscl_cl_check(e, "clCreateProgramWithSource", err)) != TS_OK)
    return st;
  /* TS_CPU: a CPU device runs a work-group's work-items in one thread, in program order
   * (kernels/scoreboard.cl fences once a group there instead of once a work-item). */
  const char *opts = !device_exec                ? "-cl-std=CL1.2"
                     : device_exec == 2           ? "-cl-std=CL1.2 -DTS_OBSERVE=1"
                     : cl->nvidia                 ? "-cl-std=CL1.2 -DTS_DEVICE=1 -DTS_NVIDIA=1"
                     : cl->info.type[0] == 'C'    ? "-cl-std=CL1.2 -DTS_DEVICE=1 -DTS_CPU=1"
                                                  : "-cl-std=CL1.2 -DTS_DEVICE=1";
  e = ts_cl_build(p, cl->device, opts);
  if (e != CL_SUCCESS) {
    size_t n = 0;
    clGetProgramBuildInfo(p, cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    free(cl->log);
    cl->log = malloc(n + 1);
    if (cl->log) {
      cl->log[0] = 0;
      clGetProgramBuildInfo(p, cl->device, CL_PROGRAM_BUILD_LOG, n, cl->log, NULL);
      cl->log[n] = 0;
    }
    clReleaseProgram(p);
    char path[4096];
    kernel_path(cl, file, path, sizeof path);
    /* the log's first error names the file and line (each part is behind its #line) */
    char first[400] = "";
    for (const char *l = cl->log; l && *l && !first[0];) {
      const char *nl = strchr(l, '\n');
      size_t len = nl ? (size_t)(nl - l) : strlen(l);
      if (len < sizeof first) {
        memcpy(first, l, len);
        first[len] = 0;
        if (!strstr(first, "error:"))
          first[0] = 0;
      }
      l = nl ? nl + 1 : NULL;
    }
    return ts_fail(err, TS_ERR_BUILD, "%s: the kernel does not build%s (%s)%s%s", path,
                   device_exec == 2 ? " for observation" : "", tscl_cl_error_name(e),
                   first[0] ? ": " : "", first);
  }
  *out = p;
  return TS_OK;
}

static ts_status get_program(ts_cl *cl, const char *file, int device_exec, cl_program *out,
                             ts_error *err)
{
  for (int i = 0; i < cl->nprograms; i++)
    if (strcmp(cl->programs[i].file, file) == 0 && cl->programs[i].device_exec == device_exec) {
      *out = cl->programs[i].prog;
      return TS_OK;
    }
  if (cl->nprograms == MAX_PROGRAMS)
    return ts_fail(err, TS_ERR_ARG, "%s: more than %d kernel files, over the limit", file,
                   MAX_PROGRAMS);
  cl_program p = NULL;
  ts_status st = build(cl, file, device_exec, &p, err);
  if (st != TS_OK)
    return st;
  program *pr = &cl->programs[cl->nprograms++];
  snprintf(pr->file, sizeof pr->file, "%s", file);
  pr->device_exec = device_exec;
  pr->prog = p;
  *out = p;
  return TS_OK;
}

ts_status ts_cl_reload(ts_cl *cl, ts_error *err)
{
  cl_program fresh[MAX_PROGRAMS];
  for (int i = 0; i < cl->nprograms; i++) {
    ts_status st = build(cl, cl->programs[i].file, cl->programs[i].device_exec, &fresh[i], err);
    if (st != TS_OK) {
      for (int k = 0; k < i; k++)
        clReleaseProgram(fresh[k]);
      return st;
    }
  }
  for (int i = 0; i < cl->nprograms; i++) {
    clReleaseProgram(cl->programs[i].prog);
    cl->programs[i].prog = fresh[i];
  }
  return TS_OK;
}

ts_status tscl_make_kernel_in(ts_cl *cl, const char *file, int device_exec, const char *name,
                              cl_kernel *out, ts_error *err)
{
  cl_program p = NULL;
  ts_status st = get_program(cl, file, device_exec, &p, err);
  if (st != TS_OK)
    return st;
  cl_int e;
  *out = clCreateKernel(p, name, &e);
  if (e == CL_INVALID_KERNEL_NAME) {
    char path[4096];
    kernel_path(cl, file, path, sizeof path);
    return ts_fail(err, TS_ERR_FORMAT, "%s: entry=%s: the file has no __kernel of that name",
                   path, name);
  }
  return tscl_cl_check(e, "clCreateKernel", err);
}

ts_status tscl_make_kernel(ts_cl *cl, const char *file, const char *name, cl_kernel *out,
                           ts_error *err)
{
  return tscl_make_kernel_in(cl, file, 0, name, out, err);
}

/* ---- runs ---- */

size_t tscl_local_bytes(const ts_variant *v, const ts_kctx *k)
{
  int n = v->local_bytes ? v->local_bytes(k) : 0;
  return n > 0 ? ((size_t)n + 3) / 4 * 4 : 4; /* whole 32-bit words */
}

/* The arguments every kernel shares (TS_ARGS in common.cl); device-scheduled launches add
 * the scoreboard's after them. */
ts_status tscl_set_args(ts_cl_run *r, cl_kernel kern, cl_mem src, cl_mem dst, cl_mem committed,
                        cl_mem tiles, int first, int n, ts_error *err)
{
  cl_int e = 0;
  e |= clSetKernelArg(kern, 0, sizeof(cl_mem), &src);
  e |= clSetKernelArg(kern, 1, sizeof(cl_mem), &dst);
  e |= clSetKernelArg(kern, 2, sizeof(cl_mem), &committed);
  e |= clSetKernelArg(kern, 3, sizeof(cl_mem), &tiles);
  e |= clSetKernelArg(kern, 4, sizeof(int), &first);
  e |= clSetKernelArg(kern, 5, sizeof(int), &n);
  e |= clSetKernelArg(kern, 6, sizeof(int), &r->W);
  e |= clSetKernelArg(kern, 7, sizeof(int), &r->H);
  e |= clSetKernelArg(kern, 8, sizeof(int), &r->C);
  e |= clSetKernelArg(kern, 9, sizeof(cl_mem), &r->weights);
  e |= clSetKernelArg(kern, 10, sizeof(int), &r->r);
  e |= clSetKernelArg(kern, 11, r->lmem, NULL);
  return tscl_cl_check(e, "clSetKernelArg", err);
}

static void CL_CALLBACK free_guarded(cl_mem m, void *host)
{
  (void)m;
  ts_alloc_free(host);
}

/* A device buffer. Where the device works in the host's memory (pocl), it is a guarded
 * block of ours (ts_alloc_zeroed), freed when the buffer goes: a kernel that writes past it
 * faults at once instead of corrupting the heap that the runtime's own allocation lies in. */
ts_status ts_cl_new_buffer(ts_cl *cl, size_t bytes, cl_mem *out, ts_error *err)
{
  cl_int e;
  if (cl->unified) {
    void *host = ts_alloc_zeroed(bytes ? bytes : 4);
    if (!host)
      return ts_fail(err, TS_ERR_NOMEM, "out of memory for a %zu-byte device buffer", bytes);
    *out = clCreateBuffer(cl->ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes ? bytes : 4,
                          host, &e);
    if (e == CL_SUCCESS)
      e = clSetMemObjectDestructorCallback(*out, free_guarded, host);
    if (e != CL_SUCCESS) {
      if (*out)
        clReleaseMemObject(*out);
      ts_alloc_free(host);
      *out = NULL;
    }
    return tscl_cl_check(e, "clCreateBuffer", err);
  }
  *out = clCreateBuffer(cl->ctx, CL_MEM_READ_WRITE, bytes ? bytes : 4, NULL, &e);
  return tscl_cl_check(e, "clCreateBuffer", err);
}

cl_int ts_cl_build(cl_program p, cl_device_id dev, const char *opts)
{
  fflush(stderr);
  int saved = dup(2), quiet = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (saved >= 0 && quiet >= 0)
    dup2(quiet, 2);
  cl_int e = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
  if (saved >= 0 && quiet >= 0)
    dup2(saved, 2);
  if (saved >= 0)
    close(saved);
  if (quiet >= 0)
    close(quiet);
  return e;
}

/* A buffer in the host's memory at `host` (bytes > 0). */
static ts_status host_buffer(ts_cl *cl, size_t bytes, void *host, cl_mem *out, ts_error *err)
{
  cl_int e;
  *out = clCreateBuffer(cl->ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, host, &e);
  return tscl_cl_check(e, "clCreateBuffer", err);
}

/* Ends the host's reads of the shared buffers: the next command may change them. */
ts_status tscl_unmap_all(ts_cl_run *r, ts_error *err)
{
  for (int b = 0; b < TS_NBUF; b++)
    if (r->mapped[b]) {
      void *p = r->mapped[b];
      r->mapped[b] = NULL;
      CL_TRY(clEnqueueUnmapMemObject(r->cl->queue, r->buf[b], p, 0, NULL, NULL),
             "clEnqueueUnmapMemObject");
    }
  return TS_OK;
}

ts_status ts_cl_run_create(ts_cl *cl, const ts_variant *v, const ts_kctx *k, uint32_t total,
                           const int32_t *seq_tiles, const int32_t *seq_rects,
                           const int *shadows, ts_cl_run **out, ts_error *err)
{
  ts_cl_run *r = calloc(1, sizeof *r);
  if (!r)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  r->cl = cl;
  r->v = v;
  r->W = k->W;
  r->H = k->H;
  r->C = k->in_c; /* the kernel's C: its input's channels */
  r->r = k->r;
  r->lmem = tscl_local_bytes(v, k);
  r->shared = cl->unified;
  ts_status st = TS_OK;
  for (int p = 0; p < v->npasses && st == TS_OK; p++)
    st = tscl_make_kernel(cl, v->passes[p].cl_file, ts_pass_kernel(&v->passes[p], r->C),
                          &r->kernel[p], err);
  if (st == TS_OK)
    st = tscl_make_kernel(cl, "commit.cl", "commit_rects", &r->commit, err);
  for (int b = 0; b < TS_NBUF && st == TS_OK; b++) {
    const ts_buf *hb = &k->buf[b];
    if (!hb->data)
      continue;
    r->bytes[b] = (size_t)hb->cols * hb->rows * hb->esize;
    r->pitch[b] = hb->cols * hb->esize;
    st = r->shared ? host_buffer(cl, r->bytes[b], hb->data, &r->buf[b], err)
                   : ts_cl_new_buffer(cl, r->bytes[b], &r->buf[b], err);
    if (st == TS_OK && b != TS_BUF_IN && shadows[b])
      st = ts_cl_new_buffer(cl, r->bytes[b], &r->shadow[b], err);
  }
  if (st == TS_OK)
    st = ts_cl_new_buffer(cl, (size_t)total * 2 * sizeof(int32_t), &r->tiles, err);
  if (st == TS_OK)
    st = ts_cl_new_buffer(cl, (size_t)total * 4 * sizeof(int32_t), &r->rects, err);
  if (st == TS_OK)
    st = ts_cl_new_buffer(cl, sizeof k->w1, &r->weights, err);
  if (st == TS_OK && !r->shared)
    st = tscl_cl_check(clEnqueueWriteBuffer(cl->queue, r->buf[TS_BUF_IN], CL_TRUE, 0,
                                       r->bytes[TS_BUF_IN], k->buf[TS_BUF_IN].data, 0, NULL, NULL),
                  "clEnqueueWriteBuffer", err);
  if (st == TS_OK)
    st = tscl_cl_check(clEnqueueWriteBuffer(cl->queue, r->tiles, CL_TRUE, 0,
                                       (size_t)total * 2 * sizeof(int32_t), seq_tiles, 0, NULL,
                                       NULL),
                  "clEnqueueWriteBuffer", err);
  if (st == TS_OK)
    st = tscl_cl_check(clEnqueueWriteBuffer(cl->queue, r->rects, CL_TRUE, 0,
                                       (size_t)total * 4 * sizeof(int32_t), seq_rects, 0, NULL,
                                       NULL),
                  "clEnqueueWriteBuffer", err);
  if (st == TS_OK)
    st = tscl_cl_check(clEnqueueWriteBuffer(cl->queue, r->weights, CL_TRUE, 0, sizeof k->w1, k->w1, 0,
                                       NULL, NULL),
                  "clEnqueueWriteBuffer", err);
  if (st == TS_OK)
    st = ts_cl_run_reset(r, err);
  if (st != TS_OK) {
    ts_cl_run_destroy(r);
    return st;
  }
  *out = r;
  return TS_OK;
}

static void release_events(ts_cl_run *r)
{
  for (size_t i = 0; i < r->nevents; i++)
    clReleaseEvent(r->events[i]);
  r->nevents = 0;
}

void ts_cl_run_destroy(ts_cl_run *r)
{
  if (!r)
    return;
  tscl_unmap_all(r, NULL);
  if (r->cl->queue)
    clFinish(r->cl->queue);
  release_events(r);
  free(r->events);
  for (int p = 0; p < MAX_KERNELS_PER_RUN; p++) {
    if (r->kernel[p])
      clReleaseKernel(r->kernel[p]);
    if (r->dkernel[p])
      clReleaseKernel(r->dkernel[p]);
    if (r->okernel[p])
      clReleaseKernel(r->okernel[p]);
    if (r->obs[p])
      clReleaseMemObject(r->obs[p]);
    free(r->obs_init[p]);
  }
  if (r->commit)
    clReleaseKernel(r->commit);
  for (int b = 0; b < TS_NBUF; b++) {
    if (r->buf[b])
      clReleaseMemObject(r->buf[b]);
    if (r->shadow[b])
      clReleaseMemObject(r->shadow[b]);
  }
  cl_mem extra[] = { r->tiles, r->rects, r->weights, r->board, r->dtiles, r->dwaits, r->drec };
  for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
    if (extra[i])
      clReleaseMemObject(extra[i]);
  free(r);
}

ts_status ts_cl_run_reset(ts_cl_run *r, ts_error *err)
{
  const cl_uchar zero = 0;
  ts_status st = tscl_unmap_all(r, err);
  if (st != TS_OK)
    return st;
  for (int p = 0; p < MAX_KERNELS_PER_RUN; p++)
    if (r->obs[p])
      CL_TRY(clEnqueueWriteBuffer(r->cl->queue, r->obs[p], CL_FALSE, 0,
                                  r->obs_words[p] * sizeof(uint32_t), r->obs_init[p], 0, NULL,
                                  NULL),
             "clEnqueueWriteBuffer");
  for (int b = TS_BUF_OUT; b < TS_NBUF; b++) {
    if (!r->buf[b])
      continue;
    CL_TRY(clEnqueueFillBuffer(r->cl->queue, r->buf[b], &zero, 1, 0, r->bytes[b], 0, NULL, NULL),
           "clEnqueueFillBuffer");
    if (r->shadow[b])
      CL_TRY(clEnqueueFillBuffer(r->cl->queue, r->shadow[b], &zero, 1, 0, r->bytes[b], 0, NULL,
                                 NULL),
             "clEnqueueFillBuffer");
  }
  return TS_OK;
}

ts_status tscl_keep_event(ts_cl_run *r, cl_event ev, ts_error *err)
{
  if (r->nevents == r->cap_events) {
    size_t cap = r->cap_events ? r->cap_events * 2 : 256;
    cl_event *e = realloc(r->events, cap * sizeof *e);
    if (!e) {
      clReleaseEvent(ev);
      return ts_fail(err, TS_ERR_NOMEM, "out of memory");
    }
    r->events = e;
    r->cap_events = cap;
  }
  r->events[r->nevents++] = ev;
  return TS_OK;
}

void ts_cl_run_rowmajor(ts_cl_run *r, int pass, uint32_t base, int tw)
{
  r->rm_tw[pass] = tw;
  r->rm_base[pass] = base;
}

ts_status ts_cl_run_exec(ts_cl_run *r, int pass, uint32_t first, uint32_t n, int direct,
                         ts_error *err)
{
  if (n == 0)
    return TS_OK;
  const ts_pass_desc *pd = &r->v->passes[pass];
  cl_kernel kern = r->obs[pass] ? r->okernel[pass] : r->kernel[pass];
  if (!direct && !r->shadow[pd->dst])
    return ts_fail(err, TS_ERR_ARG, "pass %d has no shadow buffer to write", pass + 1);
  cl_mem dst = direct ? r->buf[pd->dst] : r->shadow[pd->dst];
  ts_status st = tscl_unmap_all(r, err);
  if (st != TS_OK)
    return st;
  /* a pass in row-major order: first counts from its first thread, whose coordinates the
   * one-work-item kernel computes (TS_BEGIN_ITEM) */
  int tw = r->rm_tw[pass], f = (int)(tw > 0 ? first - r->rm_base[pass] : first);
  st = tscl_set_args(r, kern, r->buf[pd->src], dst, r->buf[pd->dst], r->tiles, f, (int)n, err);
  if (st != TS_OK)
    return st;
  if (r->obs[pass])
    CL_TRY(clSetKernelArg(kern, 12, sizeof(cl_mem), &r->obs[pass]), "clSetKernelArg");
  if (pd->cl_group_w == 0) /* a one-work-item kernel's last argument (TS_ITEM_KARG) */
    CL_TRY(clSetKernelArg(kern, r->obs[pass] ? 13 : 12, sizeof(int), &tw), "clSetKernelArg");
  size_t global[2], local[2];
  cl_uint dims;
  if (pd->cl_group_w > 0) {
    local[0] = (size_t)pd->cl_group_w;
    local[1] = (size_t)pd->cl_group_h;
    global[0] = (size_t)n * local[0];
    global[1] = local[1];
    dims = 2;
  } else {
    /* One work-item per tile, 64 to a group, but small launches (a wavefront's diagonal)
     * in smaller groups so that every compute unit gets several. */
    size_t groups_wanted = 4 * (size_t)(r->cl->info.compute_units ? r->cl->info.compute_units : 1);
    local[0] = r->cl->max_group >= 64 ? 64 : r->cl->max_group;
    while (local[0] > 1 && (size_t)n < local[0] * groups_wanted)
      local[0] /= 2;
    global[0] = ((size_t)n + local[0] - 1) / local[0] * local[0];
    dims = 1;
  }
  cl_event ev;
  CL_TRY(clEnqueueNDRangeKernel(r->cl->queue, kern, dims, NULL, global, local, 0, NULL, &ev),
         "clEnqueueNDRangeKernel");
  if (r->cl->sync) {
    cl_int e = clFinish(r->cl->queue);
    if (e != CL_SUCCESS) {
      clReleaseEvent(ev);
      return ts_fail(err, TS_ERR_DEVICE,
                     "kernel %s (pass %d, %u tiles from %u, %s launch, W %d H %d C %d r %d, "
                     "local memory %zu) failed: %s (%d)",
                     ts_pass_kernel(pd, r->C), pass + 1, n, first, direct ? "direct" : "shadow",
                     r->W, r->H, r->C, r->r, r->lmem, tscl_cl_error_name(e), (int)e);
    }
  }
  return tscl_keep_event(r, ev, err);
}

ts_status ts_cl_run_commit(ts_cl_run *r, int pass, uint32_t first, uint32_t n, ts_error *err)
{
  if (n == 0)
    return TS_OK;
  int b = r->v->passes[pass].dst, f = (int)first;
  if (!r->shadow[b])
    return ts_fail(err, TS_ERR_ARG, "pass %d has no shadow buffer to commit", pass + 1);
  ts_status st = tscl_unmap_all(r, err);
  if (st != TS_OK)
    return st;
  cl_int e = 0;
  e |= clSetKernelArg(r->commit, 0, sizeof(cl_mem), &r->shadow[b]);
  e |= clSetKernelArg(r->commit, 1, sizeof(cl_mem), &r->buf[b]);
  e |= clSetKernelArg(r->commit, 2, sizeof(cl_mem), &r->rects);
  e |= clSetKernelArg(r->commit, 3, sizeof(int), &f);
  e |= clSetKernelArg(r->commit, 4, sizeof(int), &r->pitch[b]);
  CL_TRY(e, "clSetKernelArg");
  size_t local = r->cl->max_group >= 64 ? 64 : r->cl->max_group, global = (size_t)n * local;
  CL_TRY(clEnqueueNDRangeKernel(r->cl->queue, r->commit, 1, NULL, &global, &local, 0, NULL, NULL),
         "clEnqueueNDRangeKernel");
  if (r->cl->sync) {
    cl_int e2 = clFinish(r->cl->queue);
    if (e2 != CL_SUCCESS)
      return ts_fail(err, TS_ERR_DEVICE, "kernel commit_rects (pass %d, %u rects from %u) failed: %s (%d)",
                     pass + 1, n, first, tscl_cl_error_name(e2), (int)e2);
  }
  return TS_OK;
}

ts_status ts_cl_run_download(ts_cl_run *r, ts_kctx *k, const int *lo, const int *hi,
                             ts_error *err)
{
  for (int b = TS_BUF_OUT; b < TS_NBUF && r->shared; b++) {
    /* The host's buffer is the device's: mapping it makes the device's writes visible there
     * (no copy where the device works in host memory). */
    if (!r->buf[b] || r->mapped[b])
      continue;
    cl_int e;
    void *p = clEnqueueMapBuffer(r->cl->queue, r->buf[b], CL_TRUE, CL_MAP_READ, 0, r->bytes[b], 0,
                                 NULL, NULL, &e);
    CL_TRY(e, "clEnqueueMapBuffer");
    r->mapped[b] = p;
    if (p != k->buf[b].data)
      return ts_fail(err, TS_ERR_DEVICE, "clEnqueueMapBuffer gave another address than the "
                     "host buffer (%p, not %p)", p, (void *)k->buf[b].data);
  }
  for (int b = TS_BUF_OUT; b < TS_NBUF && !r->shared; b++) {
    if (!r->buf[b] || hi[b] <= lo[b])
      continue;
    size_t off = (size_t)lo[b] * (size_t)r->pitch[b], n = (size_t)(hi[b] - lo[b]) * (size_t)r->pitch[b];
    CL_TRY(clEnqueueReadBuffer(r->cl->queue, r->buf[b], CL_FALSE, off, n, k->buf[b].data + off, 0,
                               NULL, NULL),
           "clEnqueueReadBuffer");
  }
  CL_TRY(clFinish(r->cl->queue), "clFinish");
  return TS_OK;
}

double ts_cl_run_take_kernel_ms(ts_cl_run *r)
{
  clFinish(r->cl->queue);
  double ns = 0;
  for (size_t i = 0; i < r->nevents; i++) {
    cl_ulong a = 0, b = 0;
    if (clGetEventProfilingInfo(r->events[i], CL_PROFILING_COMMAND_START, sizeof a, &a, NULL) ==
            CL_SUCCESS &&
        clGetEventProfilingInfo(r->events[i], CL_PROFILING_COMMAND_END, sizeof b, &b, NULL) ==
            CL_SUCCESS &&
        b > a)
      ns += (double)(b - a);
  }
  release_events(r);
  return ns * 1e-6;
}

/* ---- observation ---- */

ts_status ts_cl_run_observe(ts_cl_run *r, int pass, const uint32_t *init, size_t nwords,
                            ts_error *err)
{
  if (pass < 0 || pass >= r->v->npasses)
    return ts_fail(err, TS_ERR_ARG, "no pass %d to observe", pass + 1);
  if (r->obs[pass])
    clReleaseMemObject(r->obs[pass]);
  free(r->obs_init[pass]);
  r->obs[pass] = NULL;
  r->obs_init[pass] = NULL;
  r->obs_words[pass] = 0;
  if (!init)
    return TS_OK;
  ts_status st = TS_OK;
  if (!r->okernel[pass])
    st = tscl_make_kernel_in(r->cl, r->v->passes[pass].cl_file, 2,
                             ts_pass_kernel(&r->v->passes[pass], r->C),
                        &r->okernel[pass], err);
  if (st != TS_OK)
    return st;
  size_t bytes = nwords * sizeof(uint32_t);
  if (nwords == 0 || bytes / sizeof(uint32_t) != nwords || !(r->obs_init[pass] = malloc(bytes)))
    return ts_fail(err, TS_ERR_NOMEM, "out of memory for the observation of pass %d", pass + 1);
  memcpy(r->obs_init[pass], init, bytes);
  r->obs_words[pass] = nwords;
  if ((st = ts_cl_new_buffer(r->cl, bytes, &r->obs[pass], err)) == TS_OK)
    st = tscl_cl_check(clEnqueueWriteBuffer(r->cl->queue, r->obs[pass], CL_TRUE, 0, bytes, init, 0,
                                       NULL, NULL),
                  "clEnqueueWriteBuffer", err);
  if (st != TS_OK)
    ts_cl_run_observe(r, pass, NULL, 0, err);
  return st;
}

ts_status ts_cl_run_observe_read(ts_cl_run *r, int pass, uint32_t *out, ts_error *err)
{
  if (pass < 0 || pass >= r->v->npasses || !r->obs[pass])
    return ts_fail(err, TS_ERR_ARG, "pass %d is not observed", pass + 1);
  CL_TRY(clEnqueueReadBuffer(r->cl->queue, r->obs[pass], CL_TRUE, 0,
                             r->obs_words[pass] * sizeof(uint32_t), out, 0, NULL, NULL),
         "clEnqueueReadBuffer");
  return TS_OK;
}
