/* A plain kernel's run (ts_plain.h): the program built as written or, observed, as the
 * instrumenter rewrote it behind kernels/plain/observe.cl; the image, output and temporary
 * buffers made from the description's roles; the passes launched in sequence on the ts_cl's
 * queue; the output read back, raw and as an 8-bit image. Observed, each launch has an
 * observation buffer (ts_plain_obs.c) read back into findings, work-group rectangles and
 * the log. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include "ts_file.h"

#include "ts_plain_int.h"

/* Where a pass's line is: "FILE:LINE", or "FILE: --pass" for a pass given on the command
 * line, which has none. */
static const char *pass_at(const runner *r, const ts_plain_pass *ps, char *b, size_t n)
{
  if (ps->line > 0)
    snprintf(b, n, "%s:%d", r->d->path, ps->line);
  else
    snprintf(b, n, "%s: --pass", r->d->path);
  return b;
}

static ts_status eval_size(runner *r, const ts_plain_pass *ps, const char *field, const char *e,
                           size_t *out)
{
  double v;
  int is_int;
  ts_error e2 = { 0 };
  char at[4200];
  if (ts_plain_eval(e, r->W, r->H, r->C, &v, &is_int, &e2) != TS_OK || v < 1 || v > 1e9 ||
      v != floor(v))
    return ts_fail(r->err, TS_ERR_ARG, "%s: %s: '%s' is %s", pass_at(r, ps, at, sizeof at), field,
                   e, e2.code ? "not an expression of W, H and C" : "not a size of 1 or more here");
  *out = (size_t)v;
  return TS_OK;
}

/* The launch's geometry: global from the description (default W,H), local likewise (default
 * the largest of 16, 8, 4, 2, 1 dividing each, within the device's group size). */
static ts_status geometry(runner *r, const ts_plain_pass *ps, ts_plain_launch *L)
{
  ts_status st;
  L->dims = ps->gdims ? ps->gdims : 2;
  for (int i = 0; i < 3; i++)
    L->global[i] = L->local[i] = 1;
  if (!ps->gdims) {
    L->global[0] = (size_t)r->W;
    L->global[1] = (size_t)r->H;
  }
  for (int i = 0; i < ps->gdims; i++)
    if ((st = eval_size(r, ps, "global", ps->global[i], &L->global[i])) != TS_OK)
      return st;
  size_t maxg = 256;
  clGetDeviceInfo(r->dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxg, &maxg, NULL);
  if (ps->ldims) {
    char at[4200];
    if (ps->ldims != L->dims)
      return ts_fail(r->err, TS_ERR_ARG, "%s: local: %d sizes for a %d-dimensional global",
                     pass_at(r, ps, at, sizeof at), ps->ldims, L->dims);
    for (int i = 0; i < ps->ldims; i++)
      if ((st = eval_size(r, ps, "local", ps->local[i], &L->local[i])) != TS_OK)
        return st;
    /* OpenCL C 2.0 and later launch a last, smaller group, unless told otherwise */
    const char *std = strstr(ps->options, "-cl-std=CL");
    int partial = std && std[10] >= '2' && !strstr(ps->options, "-cl-uniform-work-group-size");
    for (int i = 0; i < L->dims && !partial; i++)
      if (L->global[i] % L->local[i])
        return ts_fail(r->err, TS_ERR_ARG,
                       "%s: local: %zu does not divide the global size %zu (dimension %d); "
                       "OpenCL 1.2 needs whole work-groups",
                       pass_at(r, ps, at, sizeof at), L->local[i], L->global[i], i);
  } else {
    size_t total = 1;
    for (int i = 0; i < L->dims; i++) {
      size_t want = i < 2 ? 16 : 1;
      while (want > 1 && (L->global[i] % want || total * want > maxg))
        want /= 2;
      L->local[i] = want;
      total *= want;
    }
  }
  uint64_t ng = 1;
  for (int i = 0; i < 3; i++) {
    L->ngroups[i] = (uint32_t)((L->global[i] + L->local[i] - 1) / L->local[i]);
    ng *= L->ngroups[i];
  }
  if (ng > (1u << 26))
    return ts_fail(r->err, TS_ERR_TOO_LARGE, "%s: %s: %llu work-groups, over the limit of %u",
                   r->d->path, ps->entry, (unsigned long long)ng, 1u << 26);
  L->ngroups_all = (uint32_t)ng;
  snprintf(L->entry, sizeof L->entry, "%s", ps->entry);
  return TS_OK;
}

/* Registers an observed kernel may take on NVIDIA's devices: fewer where it has __local
 * arrays, whose work-items wait for each other at barriers, so that more groups are resident
 * (docs/performance.md: on an H200 the tiled Gaussian and the look-back integral ran fastest
 * at 64, the kernels without at 80, 72 and 96 slower for both). */
#define TS_NV_REGS 80
#define TS_NV_REGS_LOCAL 64

/* The file built with one pass's options (pass p), as r->progs[r->nprogs++]; observed, its
 * kernels' __local names (for the findings) are those of the passes built with it. */
static ts_status build(runner *r, int observe, int p)
{
  const ts_plain_desc *d = r->d;
  const char *options = d->pass[p].options;
  char *rt = NULL;
  ts_plain_src src = { 0 };
  const char *parts[2];
  cl_uint nparts = 1;
  ts_status st = TS_OK;
  size_t rtlen = 0;
  int locals = 0; /* a kernel built here has __local arrays */
  if (observe) {
    st = ts_plain_parse(d->path, d->text, d->len, options, 1, &src, r->err);
    if (st != TS_OK)
      return st;
    r->guards += src.guards;
    r->many = src.accesses > TS_MANY_AT;
    char path[4096];
    snprintf(path, sizeof path, "%s/plain/observe.cl", r->kernels_dir);
    uint8_t *data = NULL;
    size_t len = 0;
    if ((st = ts_file_read_all(path, 1 << 20, &data, &len, r->err)) != TS_OK) {
      ts_plain_src_free(&src);
      return st;
    }
    rt = (char *)data;
    rtlen = len;
    /* TILESCOPE_PLAIN_DUMP=FILE: the observed source as it is built, to read */
    const char *dump = getenv("TILESCOPE_PLAIN_DUMP");
    FILE *df = dump && *dump ? fopen(dump, "w") : NULL;
    if (df) {
      fputs(src.source, df);
      fclose(df);
    }
    parts[0] = rt;
    parts[1] = src.source;
    nparts = 2;
    /* the observed kernels' __local names, for the findings */
    ts_plain_desc *dm = (ts_plain_desc *)d;
    for (int i = 0; i < src.nkernels && i < dm->src.nkernels; i++) {
      int used = 0; /* by a pass built with these options */
      for (int q = 0; q < d->npasses; q++)
        used |= strcmp(d->pass[q].entry, src.kernels[i].name) == 0 &&
                strcmp(d->pass[q].options, options) == 0;
      if (!used)
        continue;
      locals |= src.kernels[i].nlocals > 0;
      dm->src.kernels[i].nlocals = src.kernels[i].nlocals;
      memcpy(dm->src.kernels[i].locals, src.kernels[i].locals, sizeof src.kernels[i].locals);
      memcpy(dm->src.kernels[i].local_elem, src.kernels[i].local_elem,
             sizeof src.kernels[i].local_elem);
      memcpy(dm->src.kernels[i].local_dims, src.kernels[i].local_dims,
             sizeof src.kernels[i].local_dims);
      memcpy(dm->src.kernels[i].local_esz, src.kernels[i].local_esz,
             sizeof src.kernels[i].local_esz);
    }
  } else {
    parts[0] = d->text;
  }
  char *line0 = NULL;
  if (!observe) {
    const char *base = strrchr(d->path, '/') ? strrchr(d->path, '/') + 1 : d->path;
    size_t n = strlen(base) + 32;
    line0 = malloc(n);
    if (line0) {
      snprintf(line0, n, "#line 1 \"%s\"\n", base);
      parts[0] = line0;
      parts[1] = d->text;
      nparts = 2;
    }
  }
  size_t lens[2] = { observe ? rtlen : strlen(parts[0]), 0 };
  if (nparts > 1)
    lens[1] = observe ? strlen(parts[1]) : d->len;
  if (!observe && !line0)
    lens[0] = d->len;
  cl_int e;
  cl_program prog = clCreateProgramWithSource(r->ctx, nparts, parts, lens, &e);
  free(rt);
  free(line0);
  /* fast shadows first (ts_plain_ob_make) but where they would surely be made again: an
   * atomic or an update (+=) of __global memory reads what it writes; and not where the
   * kernel prints, which a launch made again would print twice */
  r->fast_ok[r->nprogs] = observe && !src.global_rmw && src.source && !strstr(src.source, "printf");
  if (src.atexts) { /* the accesses' texts, for the findings (the last build's: same lines) */
    free(r->atexts);
    r->atexts = src.atexts;
    r->natexts = src.natexts;
    src.atexts = NULL;
  }
  ts_plain_src_free(&src);
  if (e != CL_SUCCESS)
    return clfail(r, e, "clCreateProgramWithSource");
  r->progs[r->nprogs++] = prog;
  /* a CPU device runs a work-group's work-items in one thread, switching at barriers only:
   * observe.cl keeps the group's bounds in local memory there (TS_GROUP_SERIAL) */
  cl_device_type type = 0;
  clGetDeviceInfo(r->dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  r->cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
  /* TILESCOPE_PLAIN_PORTABLE=1: the observed kernel built as for a GPU (no TS_GROUP_SERIAL),
   * on any device: that runtime's path tested where there is no GPU */
  const char *portable = getenv("TILESCOPE_PLAIN_PORTABLE");
  if (portable && *portable == '1')
    r->cpu = 0;
  /* the kernel file's folder for its #include "...", as a compiler given the file would
   * have it (the runtime builds from a string); only for a file that includes one, since the
   * options key the runtime's cache of builds; a folder whose name has a space goes
   * without, since build options are split at spaces */
  char inc[4200] = "";
  const char *slash = strrchr(d->path, '/');
  int includes = 0;
  for (size_t i = 0; !includes && i + 8 <= d->len; i++) { /* (the text has no terminator) */
    if (memcmp(d->text + i, "#include", 8) != 0)
      continue;
    const char *nl = memchr(d->text + i, '\n', d->len - i);
    size_t end = nl ? (size_t)(nl - d->text) : d->len;
    includes = memchr(d->text + i + 8, '"', end - i - 8) != NULL;
  }
  if (includes && !slash)
    snprintf(inc, sizeof inc, " -I .");
  else if (includes && !memchr(d->path, ' ', (size_t)(slash - d->path)))
    snprintf(inc, sizeof inc, " -I %.*s", slash == d->path ? 1 : (int)(slash - d->path), d->path);
  int most = 0; /* the most __global buffers (and images) a kernel of the file takes */
  for (int k = 0; k < d->src.nkernels; k++) {
    int n = 0;
    for (int j = 0; j < d->src.kernels[k].nparams; j++)
      n += d->src.kernels[k].params[j].space == TS_SPACE_GLOBAL;
    most = n > most ? n : most;
  }
  /* On NVIDIA's devices an observed kernel's registers are capped (TILESCOPE_NV_REGS, 0: no
   * cap): uncapped, its context kept in registers took 86 to 102 a work-item, which left
   * room for two groups of 256 on a multiprocessor rather than four (TS_NV_REGS) */
  char regs[64] = "";
  if (observe && !r->cpu && strstr(ts_cl_device(r->cl)->platform, "NVIDIA")) {
    const char *env = getenv("TILESCOPE_NV_REGS");
    int cap = env && *env ? atoi(env) : locals ? TS_NV_REGS_LOCAL : TS_NV_REGS;
    if (cap > 0)
      snprintf(regs, sizeof regs, " -cl-nv-maxrregcount=%d", cap);
  }
  char opts[8192]; /* the standard, the include folder and the options, whole */
  snprintf(opts, sizeof opts, "%s%s%s%s%s%s%s %s",
           strstr(options, "-cl-std=") ? "" : "-cl-std=CL1.2", /* unless the options name one */
           observe && r->cpu ? " -DTS_GROUP_SERIAL=1" : "",
           /* (__local reads tried fast where the launch may try fast shadows: the test
            * costs a kernel that never does, the look-back, 3% on an H200) */
           observe && r->fast_ok[r->nprogs - 1] ? " -DTS_LFAST=1" : "",
           observe && r->many && !r->cpu ? " -DTS_CALLS=1" : "",
           observe && most > 8 ? " -DTS_MAXG=16" : "", regs, inc, options);
  e = ts_cl_build(prog, r->dev, opts);
  if (e != CL_SUCCESS) {
    size_t n = 0;
    clGetProgramBuildInfo(prog, r->dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(n + 1, 1);
    if (log)
      clGetProgramBuildInfo(prog, r->dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    /* the log's first error line names the file and line */
    char first[600] = "";
    for (char *l = log; l && *l;) {
      char *nl = strchr(l, '\n');
      if (nl)
        *nl = 0;
      if (strstr(l, "error")) {
        snprintf(first, sizeof first, "%s", l);
        break;
      }
      l = nl ? nl + 1 : NULL;
    }
    free(log);
    return ts_fail(r->err, TS_ERR_BUILD, "%s: the kernel does not build%s: %s", d->path,
                   observe ? " for observation" : "", first[0] ? first : ts_cl_error_name(e));
  }
  return st;
}

/* ---- the run ---- */

/* For the median of the repeats. */
/* clang's definite uses of a private variable nothing set (ts_plain_src.uninit), as
 * uninitialised reads of the pass: each once, with the first pass whose kernel holds its
 * line (the first pass for one in another function). */
static ts_status static_uninit(runner *r, int pass, ts_plain_result *res)
{
  const ts_plain_src *src = &r->d->src;
  for (int i = 0; i < src->nuninit; i++) {
    int line = src->uninit[i].line, owner = 0;
    for (int p = r->d->npasses - 1; p >= 0; p--) {
      const ts_plain_kernel *k = ts_plain_kernel_named(r->d, r->d->pass[p].entry);
      if (k && line >= k->line && line <= k->end_line)
        owner = p;
    }
    if (owner != pass)
      continue;
    ts_plain_finding *nf = realloc(res->findings, (res->nfindings + 1) * sizeof *nf);
    if (!nf)
      return ts_fail(r->err, TS_ERR_NOMEM, "out of memory");
    res->findings = nf;
    ts_plain_finding *x = &nf[res->nfindings++];
    memset(x, 0, sizeof *x);
    x->pass = pass;
    x->kind = TS_FIND_UNINIT;
    x->line = line;
    x->count = 1;
    x->nplaces = 1;
    x->place[0].space = 4;
    snprintf(x->value, sizeof x->value, "%s", src->uninit[i].text);
    res->counts[TS_FIND_UNINIT]++;
  }
  return TS_OK;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* In turns with another run (ts_plain_run_turns): the turn held so far given up, and the
 * next one waited for. */
static ts_status take_turn(runner *r, int fd)
{
  char c = 0;
  ssize_t n;
  while ((n = send(fd, &c, 1, MSG_NOSIGNAL)) < 0 && errno == EINTR)
    ;
  while (n == 1 && (n = recv(fd, &c, 1, 0)) < 0 && errno == EINTR)
    ;
  return n == 1 ? TS_OK : ts_fail(r->err, TS_ERR_IO, "%s: the run was not wanted after all",
                                  r->d->path);
}

/* One launch of the pass, waited for: its time on the device into *ms. */
static ts_status launch(runner *r, const ts_plain_pass *ps, cl_kernel kn,
                        const ts_plain_launch *L, double *ms)
{
  cl_event ev = NULL;
  cl_int e = clEnqueueNDRangeKernel(r->q, kn, (cl_uint)L->dims, NULL, L->global, L->local, 0,
                                    NULL, &ev);
  if (e == CL_SUCCESS)
    e = clWaitForEvents(1, &ev);
  cl_ulong t0 = 0, t1 = 0;
  if (e == CL_SUCCESS) {
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
  }
  if (ev)
    clReleaseEvent(ev);
  *ms = (double)(t1 - t0) / 1e6;
  return e == CL_SUCCESS ? TS_OK
                         : ts_fail(r->err, TS_ERR_DEVICE, "%s: %s: the launch failed: %s (%d)",
                                   r->d->path, ps->entry, ts_cl_error_name(e), (int)e);
}

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* An observed launch tried with fast shadows (lay->fast): whether it met an access only the
 * full ones judge, the time that took to tell added to *ms (on a CPU device, a pass over the
 * shadows); if it did, the buffers it may have written put back as they were before the pass
 * (saved), and the launch made again with the full shadows, its time added too. */
static ts_status launch_again(runner *r, const ts_plain_pass *ps, cl_kernel kn,
                              const ts_plain_launch *L, cl_mem ob, oblayout *lay,
                              const rbuf **gb, int ng, cl_mem *saved, double *ms)
{
  int redo = 0;
  double t0 = now_ms();
  ts_status st = ts_plain_ob_redo(r, ob, lay, ps, &redo);
  *ms += now_ms() - t0;
  for (int i = 0; st == TS_OK && redo && i < ng; i++) {
    cl_mem to = gb[i]->mem;
    if (saved[i])
      st = ts_plain_copy_mem(r, gb[i], saved[i], &to);
  }
  double again = 0;
  if (st == TS_OK && redo && (st = ts_plain_ob_reset(r, ob, lay)) == TS_OK &&
      (st = launch(r, ps, kn, L, &again)) == TS_OK)
    *ms += again;
  return st;
}

static ts_status run_pass(runner *r, int pass, const ts_plain_opts *o, ts_plain_result *res)
{
  const ts_plain_pass *ps = &r->d->pass[pass];
  const ts_plain_kernel *k = ts_plain_kernel_named(r->d, ps->entry);
  ts_plain_launch *L = &res->launch[pass];
  if (k) {
    L->nlocals = k->nlocals;
    memcpy(L->locals, k->locals, sizeof L->locals);
    memcpy(L->local_elem, k->local_elem, sizeof L->local_elem);
    memcpy(L->local_dims, k->local_dims, sizeof L->local_dims);
    memcpy(L->local_esz, k->local_esz, sizeof L->local_esz);
  }
  ts_status st = geometry(r, ps, L);
  if (st != TS_OK)
    return st;
  cl_int e;
  cl_kernel kn = clCreateKernel(r->progs[r->prog_of[pass]], ps->entry, &e);
  if (e != CL_SUCCESS)
    return ts_fail(r->err, TS_ERR_BUILD, "%s:%d: entry: clCreateKernel('%s') failed: %s",
                   r->d->path, ps->line ? ps->line : k->line, ps->entry, ts_cl_error_name(e));
  /* the arguments were read with the file's options (the first pass's): a pass whose own
   * options change them is refused rather than given the wrong buffers (observed, the
   * kernel has the observation's arguments after its own) */
  cl_uint nargs = 0, want = (cl_uint)k->nparams + (o->observe ? 1 : 0); /* + ts_ob */
  for (int j = 0; o->observe && j < k->nparams; j++) /* + a __local pointer's shadows */
    want += k->params[j].pointer && k->params[j].space == TS_SPACE_LOCAL;
  if (clGetKernelInfo(kn, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL) == CL_SUCCESS &&
      nargs != want) {
    clReleaseKernel(kn);
    return ts_fail(r->err, TS_ERR_ARG, "%s:%d: options: with them %s takes other arguments "
                   "than with the file's options (\"%s\"): a pass's options may change its "
                   "kernel's code, not its arguments", r->d->path,
                   ps->line ? ps->line : k->line, ps->entry, r->d->options);
  }
  const rbuf *gb[MAXG];
  int ng = 0, nl = 0;
  for (int j = 0; j < k->nparams && st == TS_OK; j++) {
    const ts_plain_param *p = &k->params[j];
    const ts_plain_arg *a = &ps->args[j];
    switch (a->role) {
    case TS_ARG_INPUT:
    case TS_ARG_OUTPUT:
    case TS_ARG_BUFFER:
    case TS_ARG_NAMED:
    case TS_ARG_DATA:
    case TS_ARG_NULL: {
      rbuf *b = ts_plain_buffer_for(r, a, p);
      if (!b) {
        st = TS_ERR_ARG;
        break;
      }
      if (!b->mem && a->role != TS_ARG_NULL) {
        uint8_t *first = NULL;
        if ((st = ts_plain_first_contents(r, r->img, b, &first)) != TS_OK)
          break;
        if (b->image) {
          st = ts_plain_new_image(r, b, first);
          free(first);
          if (st != TS_OK)
            break;
        /* guarded on pocl: past its end or before its start is no other buffer */
        } else if ((st = ts_cl_new_buffer(r->cl, b->bytes, &b->mem, r->err)) != TS_OK) {
          free(first);
          break;
        } else {
          e = clEnqueueWriteBuffer(r->q, b->mem, CL_TRUE, 0, b->bytes, first, 0, NULL, NULL);
          free(first);
        }
        if (e != CL_SUCCESS) {
          st = clfail(r, e, "making a buffer");
          break;
        }
      }
      if (p->space != TS_SPACE_GLOBAL) { /* __constant: not observed (ts_instrument_walk.c) */
        e = clSetKernelArg(kn, (cl_uint)j, sizeof(cl_mem), a->role == TS_ARG_NULL ? NULL : &b->mem);
        break;
      }
      if (ng == MAXG) {
        st = ts_fail(r->err, TS_ERR_UNSUPPORTED, "%s: %s has more than %d buffers", r->d->path,
                     k->name, MAXG);
        break;
      }
      ts_plain_buf *lb = &L->buf[ng];
      lb->channels = b->channels;
      lb->lane = b->lane_bytes;
      lb->cols = b->cols;
      lb->rows = b->rows;
      lb->step = (int64_t)b->step;
      lb->offset = (int64_t)b->offset;
      lb->temp = b->role == TS_ARG_BUFFER;
      lb->array = b->role == TS_ARG_DATA ? 1 : b->role == TS_ARG_NULL ? 2 : 0;
      snprintf(lb->name, sizeof lb->name, "%s", a->name);
      snprintf(lb->buffer, sizeof lb->buffer, "%s", b->decl ? b->decl->name : "");
      L->nbufs = ng + 1;
      gb[ng++] = b;
      e = clSetKernelArg(kn, (cl_uint)j, sizeof(cl_mem), a->role == TS_ARG_NULL ? NULL : &b->mem);
      break;
    }
    case TS_ARG_BYTES: {
      const ts_plain_data *dt = &r->d->data[atoi(a->expr)];
      if (dt->size < (size_t)p->elem_size)
        st = ts_fail(r->err, TS_ERR_ARG, "%s: %s: argument '%s' (%s): %zu bytes given, %d wanted",
                     r->d->path, k->name, p->name, p->type, dt->size, p->elem_size);
      else
        e = clSetKernelArg(kn, (cl_uint)j, (size_t)p->elem_size, dt->bytes);
      break;
    }
    case TS_ARG_LOCAL: {
      double v = 0;
      ts_error e2 = { 0 };
      if (ts_plain_eval(a->expr, r->W, r->H, r->C, &v, NULL, &e2) != TS_OK || v < 1 || v > (1 << 20))
        st = ts_fail(r->err, TS_ERR_ARG, "%s: %s: local(%s) is not a size in bytes", r->d->path,
                     a->name, a->expr);
      else
        e = clSetKernelArg(kn, (cl_uint)j, (size_t)v, NULL);
      nl++;
      break;
    }
    default: {
      double v = 0;
      switch (a->role) {
      case TS_ARG_WIDTH: v = r->W; break;
      case TS_ARG_HEIGHT: v = r->H; break;
      case TS_ARG_CHANNELS: v = r->C; break;
      case TS_ARG_PITCH: v = (double)r->W * r->C; break;
      default:
        if (ts_plain_eval(a->expr, r->W, r->H, r->C, &v, NULL, r->err) != TS_OK)
          st = TS_ERR_ARG;
      }
      union {
        int8_t c;
        int16_t s;
        int32_t i;
        int64_t l;
        float f;
        double d;
      } u;
      size_t sz = (size_t)p->elem_size;
      /* a scalar of the argument's own type: an integer that fits it, whole */
      int bits = sz == 1 || sz == 2 || sz == 8 ? 8 * (int)sz : 32;
      double lo = p->is_signed ? -ldexp(1, bits - 1) : 0;
      double hi = p->is_signed ? ldexp(1, bits - 1) - 1 : ldexp(1, bits) - 1;
      if (st == TS_OK && (p->lanes > 1 || p->is_record || (sz != 1 && sz != 2 &&
                                                                      sz != 4 && sz != 8)))
        st = ts_fail(r->err, TS_ERR_ARG, "%s: %s: argument '%s' (%s): a launch line gives "
                     "scalars only, not a vector or a struct", r->d->path, k->name, p->name,
                     p->type);
      else if (st == TS_OK && !p->is_float && !(v >= lo && v <= hi && v == floor(v)))
        st = ts_fail(r->err, TS_ERR_ARG, "%s: %s: argument '%s' (%s): %.17g is not a whole "
                     "number in %.0f..%.0f", r->d->path, k->name, p->name, p->type, v, lo, hi);
      if (st != TS_OK)
        u.l = 0;
      else if (p->is_float && sz == 4)
        u.f = (float)v;
      else if (p->is_float)
        u.d = v;
      else if (sz == 1)
        u.c = (int8_t)(uint8_t)(int64_t)v;
      else if (sz == 2)
        u.s = (int16_t)(uint16_t)(int64_t)v;
      else if (sz == 8)
        u.l = p->is_signed || v < ldexp(1, 63) ? (int64_t)v
                                               : (int64_t)(uint64_t)(v - ldexp(1, 63)) + INT64_MIN;
      else
        u.i = (int32_t)(uint32_t)(int64_t)v, sz = 4;
      if (st == TS_OK)
        e = clSetKernelArg(kn, (cl_uint)j, sz, &u);
    }
    }
    if (st == TS_OK && e != CL_SUCCESS) {
      st = ts_fail(r->err, TS_ERR_ARG, "%s: %s: argument '%s' (%s): clSetKernelArg failed: %s",
                   r->d->path, k->name, p->name, p->type, ts_cl_error_name(e));
    }
  }
  cl_mem ob = NULL;
  oblayout lay = { 0 };
  if (st == TS_OK && o->observe) {
    st = ts_plain_ob_make(r, k, ps, L, gb, ng, o, pass, &ob, &lay);
    cl_uint idx = (cl_uint)k->nparams;
    if (st == TS_OK && (e = clSetKernelArg(kn, idx++, sizeof ob, &ob)) != CL_SUCCESS)
      st = clfail(r, e, "clSetKernelArg (observation)");
    for (int j = 0, li = 0; st == TS_OK && j < k->nparams; j++)
      if (ps->args[j].role == TS_ARG_LOCAL) {
        double v = 0;
        ts_plain_eval(ps->args[j].expr, r->W, r->H, r->C, &v, NULL, NULL);
        clSetKernelArg(kn, idx++, (size_t)v * 8, NULL); /* its shadows (ts_lbuf) */
        li++;
      }
  }
  /* __local memory past the device's would fail the launch, or abort the runtime (pocl): said
   * first. The kernel's figure counts its arrays and its __local arguments set above. */
  cl_ulong lneed = 0, lhave = 0;
  if (st == TS_OK &&
      clGetKernelWorkGroupInfo(kn, r->dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lneed, &lneed,
                               NULL) == CL_SUCCESS &&
      clGetDeviceInfo(r->dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lhave, &lhave, NULL) ==
          CL_SUCCESS &&
      lhave > 0 && lneed > lhave)
    st = ts_fail(r->err, TS_ERR_UNSUPPORTED, "%s: %s: %s %llu bytes of __local memory a "
                 "work-group, more than the device's %llu%s", r->d->path, ps->entry,
                 o->observe ? "observed, it needs" : "it needs", (unsigned long long)lneed,
                 (unsigned long long)lhave, o->observe ? " (observation keeps two words "
                 "beside each __local element: run it unobserved)" : "");
  /* a group the device cannot run this kernel in: said before the launch, as the launch
   * description's fault (observed, the kernel may take more registers than plain) */
  size_t wgmax = 0, items = 1;
  for (int i = 0; i < L->dims; i++)
    items *= L->local[i];
  if (st == TS_OK &&
      clGetKernelWorkGroupInfo(kn, r->dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wgmax, &wgmax,
                               NULL) == CL_SUCCESS &&
      wgmax > 0 && items > wgmax)
    st = ts_fail(r->err, o->observe ? TS_ERR_UNSUPPORTED : TS_ERR_ARG,
                 "%s: %s: work-groups of %zu work-items; the device runs this kernel%s in "
                 "groups of at most %zu (give a smaller local size%s)", r->d->path, ps->entry,
                 items, o->observe ? " observed" : "", wgmax,
                 o->observe ? ", or run it unobserved" : "");
  int repeats = o->repeats > 0 ? o->repeats : 1;
  double best = 0, times[1000];
  if (repeats > 1000)
    repeats = 1000;
  /* With fast shadows the buffers the launch may write are kept as they are before it, for
   * the launch to be made again with the full ones (launch_again); without the room for a
   * copy, the full shadows from the start. */
  cl_mem saved[MAXG] = { 0 };
  for (int i = 0; st == TS_OK && lay.fast && i < ng; i++)
    if (lay.shadow[i] && ts_plain_copy_mem(r, gb[i], gb[i]->mem, &saved[i]) != TS_OK) {
      if (r->err) /* (not the run's failure: it goes on without the copies) */
        *r->err = (ts_error){ 0 };
      ts_plain_ob_full(&lay);
      st = ts_plain_ob_reset(r, ob, &lay);
    }
  for (int rep = -(o->warmup > 0 ? o->warmup : 0); st == TS_OK && rep < repeats; rep++) {
    if (o->turn_fd > 0 && (st = take_turn(r, o->turn_fd)) != TS_OK)
      break;
    /* the observation filled afresh each repeat: the findings are one launch's, not N
     * times it */
    if (rep > -o->warmup && ob && (st = ts_plain_ob_reset(r, ob, &lay)) != TS_OK)
      break;
    double ms = 0;
    if (rep >= 0 && rep < 8)
      L->began[rep] = now_ms() / 1e3;
    st = launch(r, ps, kn, L, &ms);
    if (st == TS_OK && lay.fast)
      st = launch_again(r, ps, kn, L, ob, &lay, gb, ng, saved, &ms);
    if (st == TS_OK) {
      if (rep >= 0)
        times[rep] = ms;
      if (rep == 0 || (rep > 0 && ms < best))
        best = ms;
    }
    if (rep == -(o->warmup > 0 ? o->warmup : 0)) { /* where the first launch's printing ends */
      fflush(stdout);
      res->printed_first[pass] = (long)lseek(1, 0, SEEK_CUR);
    }
  }
  L->ms = best;
  if (st == TS_OK) {
    qsort(times, (size_t)repeats, sizeof times[0], cmp_double);
    L->ms_median = repeats % 2 ? times[repeats / 2]
                               : (times[repeats / 2 - 1] + times[repeats / 2]) / 2;
  }
  size_t first = res->nfindings;
  if (st == TS_OK && ob)
    st = ts_plain_ob_read(r, ob, &lay, pass, L, res);
  if (st == TS_OK && ob)
    st = static_uninit(r, pass, res);
  if (st == TS_OK && ob)
    st = ts_plain_ob_benign(r, ob, &lay, gb, ng, first, res);
  if (st == TS_OK && ob && pass + 1 < r->d->npasses)
    st = ts_plain_ob_written(r, ob, &lay, gb, ng);
  /* what it may have written, for the next passes' checks of reads nothing wrote */
  for (int j = 0; st == TS_OK && j < k->nparams; j++) {
    const ts_plain_param *p = &k->params[j];
    ts_plain_role role = ps->args[j].role;
    if ((p->pointer || p->image) && p->space == TS_SPACE_GLOBAL && !p->is_const &&
        (role == TS_ARG_INPUT || role == TS_ARG_OUTPUT || role == TS_ARG_BUFFER ||
         role == TS_ARG_NAMED || role == TS_ARG_DATA)) {
      rbuf *b = ts_plain_buffer_for(r, &ps->args[j], p);
      if (b)
        b->written = 1;
    }
  }
  if (ob)
    clReleaseMemObject(ob);
  for (int i = 0; i < MAXG; i++)
    if (saved[i])
      clReleaseMemObject(saved[i]);
  free((void *)lay.olist_src);
  clReleaseKernel(kn);
  return st;
}

ts_status ts_plain_run(ts_cl *cl, const ts_plain_desc *d, const ts_image *in,
                       const ts_plain_opts *o, ts_plain_result **out, ts_error *err)
{
  runner r = { 0 };
  r.d = d;
  r.cl = cl;
  r.err = err;
  ts_cl_handles(cl, &r.ctx, &r.dev, &r.q);
  r.kernels_dir = ts_cl_kernels_dir(cl);
  ts_plain_result *res = calloc(1, sizeof *res);
  if (!res)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  res->npasses = d->npasses;
  snprintf(res->device, sizeof res->device, "%s", ts_cl_device(cl)->name);
  /* the image as the first pass's input argument sees it: uchar4 wants 4 channels */
  ts_image *img = NULL;
  int want_c = in->c;
  for (int i = 0; i < d->npasses; i++) {
    const ts_plain_kernel *k = ts_plain_kernel_named(d, d->pass[i].entry);
    for (int j = 0; k && j < k->nparams; j++)
      if (d->pass[i].args[j].role == TS_ARG_INPUT && k->params[j].lanes == 4)
        want_c = 4;
  }
  ts_status st = want_c != in->c ? ts_image_convert(in, want_c, &img, err)
                                 : ts_image_clone(in, &img, err);
  if (st != TS_OK) {
    free(res);
    return st;
  }
  r.W = img->w;
  r.H = img->h;
  r.C = img->c;
  r.img = img;
  /* a build a distinct set of options, in the order the passes first ask for it */
  for (int p = 0; st == TS_OK && p < d->npasses; p++) {
    int q = 0;
    while (q < p && strcmp(d->pass[q].options, d->pass[p].options) != 0)
      q++;
    if (q < p)
      r.prog_of[p] = r.prog_of[q];
    else if ((st = build(&r, o->observe, p)) == TS_OK)
      r.prog_of[p] = r.nprogs - 1;
  }
  /* built beside another run: launched when that one has ended (its times its own) */
  if (st == TS_OK && o->start_fd > 0) {
    char go = 0;
    ssize_t n;
    while ((n = read(o->start_fd, &go, 1)) < 0 && errno == EINTR)
      ;
    if (n != 1)
      st = ts_fail(err, TS_ERR_IO, "%s: the run was not wanted after all", d->path);
  }
  /* buffers come with the passes; the input is filled once it exists */
  for (int i = 0; st == TS_OK && i < d->npasses; i++) {
    /* where the pass's printf output starts, in a run whose standard output is captured
     * (ts_plain_job_do: a file of its own; -1 elsewhere) */
    fflush(stdout);
    res->printed_at[i] = (long)lseek(1, 0, SEEK_CUR);
    if (st == TS_OK)
      st = run_pass(&r, i, o, res);
  }
  if (o->turn_fd > 0)
    close(o->turn_fd); /* (the other run goes on alone) */
  fflush(stdout);
  /* the output: the first buffer of that role */
  rbuf *ob = NULL;
  for (int i = r.nbufs - 1; i >= 0; i--)
    if (r.bufs[i].role == TS_ARG_OUTPUT || (d->whole && r.bufs[i].shown && r.bufs[i].mem))
      ob = &r.bufs[i];
  if (st == TS_OK && !ob && !d->whole)
    st = ts_fail(err, TS_ERR_ARG, "%s: no pass has an output argument (name it out, or say ARG=output)",
                 d->path);
  if (st == TS_OK && ob)
    st = ts_plain_read_output(&r, ob, in, res);
  if (st == TS_OK)
    st = ts_plain_read_dumps(&r, res);
  for (int i = 0; i < r.nbufs; i++) {
    if (r.bufs[i].mem)
      clReleaseMemObject(r.bufs[i].mem);
    free(r.bufs[i].wmask);
  }
  for (int i = 0; i < r.nprogs; i++)
    clReleaseProgram(r.progs[i]);
  ts_image_destroy(img);
  free(r.atexts);
  if (st != TS_OK) {
    ts_plain_result_free(res);
    return st;
  }
  *out = res;
  return TS_OK;
}

void ts_plain_result_free(ts_plain_result *r)
{
  if (!r)
    return;
  ts_image_destroy(r->out);
  free(r->raw);
  for (int i = 0; i < TS_PLAIN_MAX_PASSES; i++) {
    free(r->launch[i].groups);
    free(r->launch[i].log);
  }
  free(r->findings);
  free(r->dump);
  free(r->printed);
  free(r);
}
