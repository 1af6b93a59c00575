/* A plain kernel's run (ts_plain.h): the program built as written or, observed, as the
 * instrumenter rewrote it behind kernels/plain/observe.cl; the image, output and temporary
 * buffers made from the description's roles; the passes launched in sequence on the ts_cl's
 * queue; the output read back as an 8-bit image; and, observed, the observation buffer read
 * back into findings (grouped by pass, kind and line), work-group rectangles and the chosen
 * work-item's log. The buffer's layout is observe.cl's (TS_H_*, TS_B_*). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_cl_handles.h"
#include "ts_file.h"
#include "ts_plain.h"

/* observe.cl's layout */
enum { H_NBUF, H_NLINES, H_CHOSEN_G, H_CHOSEN_I, H_LOGCAP, H_LOGN, H_FIND, H_LOG, H_RECT,
       H_TILE_W, H_TILE_H, H_HALO, H_SCRATCH, H_SINK, H_LOCAL_N, H_LOCAL0 = 16,
       H_WATCH_BUF = 24, H_WATCH_LO, H_WATCH_HI, HEADER = 32 };
enum { B_SIZE, B_FLAGS, B_PITCH, B_PIXEL, B_SHADOW, B_RECT, B_W, B_H, B_LANE, BI = 12 };
enum { F_INPUT = 1, F_OUTPUT = 2, F_READONLY = 4 };
#define NPLACES 4
#define PLACE 7
#define LOG_REC 6
#define LOG_CAP 65536u
#define MAXG 8

static const char *kind_names[TS_NFIND] = {
  "access outside every buffer (not performed)",
  "race between work-groups",
  "race in a work-group on __local memory",
  "race in a work-group on __global memory",
  "read of an element nothing wrote",
  "read outside the declared tile and halo",
  "write outside the declared tile",
};

const char *ts_plain_kind_name(int kind)
{
  return kind >= 0 && kind < TS_NFIND ? kind_names[kind] : "?";
}

/* The buffers of a run, shared by the passes: the input, the output, and temporaries by
 * argument name. */
typedef struct rbuf {
  char name[64];
  ts_plain_role role;
  cl_mem mem;
  size_t bytes;
  int lane_bytes, is_float, is_signed;
  int channels;        /* per pixel: the image's, or output(N)'s */
} rbuf;

typedef struct runner {
  const ts_plain_desc *d;
  cl_context ctx;
  cl_device_id dev;
  cl_command_queue q;
  cl_program prog;
  int W, H, C;         /* the image the kernels see: C its channels */
  const char *kernels_dir;
  rbuf bufs[16];
  int nbufs;
  ts_error *err;
} runner;

static ts_status clfail(runner *r, cl_int e, const char *what)
{
  return ts_fail(r->err, TS_ERR_DEVICE, "%s: %s failed: %s (%d)", r->d->path, what,
                 ts_cl_error_name(e), (int)e);
}

static const ts_plain_kernel *kernel_of(const ts_plain_desc *d, const char *name)
{
  for (int i = 0; i < d->src.nkernels; i++)
    if (strcmp(d->src.kernels[i].name, name) == 0)
      return &d->src.kernels[i];
  return NULL;
}

/* The bytes of one lane of a pointer argument's element (uchar4 -> 1, float -> 4). */
static int lane_bytes(const ts_plain_param *p)
{
  int l = p->lanes > 0 ? p->lanes : 1;
  return p->elem_size / l > 0 ? p->elem_size / l : 1;
}

static rbuf *buffer_for(runner *r, const ts_plain_arg *a, const ts_plain_param *p)
{
  const char *key = a->role == TS_ARG_BUFFER ? a->name : a->role == TS_ARG_INPUT ? "<in>" : "<out>";
  for (int i = 0; i < r->nbufs; i++)
    if (strcmp(r->bufs[i].name, key) == 0)
      return &r->bufs[i];
  if (r->nbufs == 16)
    return NULL;
  rbuf *b = &r->bufs[r->nbufs++];
  memset(b, 0, sizeof *b);
  snprintf(b->name, sizeof b->name, "%s", key);
  b->role = a->role;
  b->lane_bytes = lane_bytes(p);
  b->is_float = p->is_float;
  b->is_signed = p->is_signed;
  b->channels = (a->role == TS_ARG_OUTPUT || a->role == TS_ARG_BUFFER) && a->expr[0]
                    ? atoi(a->expr) : r->C;
  b->bytes = (size_t)r->W * (size_t)r->H * (size_t)b->channels * (size_t)b->lane_bytes;
  return b;
}

/* The input's bytes as the kernel's lane type sees them. */
static void *input_bytes(const ts_image *img, const rbuf *b)
{
  size_t n = (size_t)img->w * (size_t)img->h * (size_t)img->c;
  if (b->lane_bytes == 1)
    return NULL; /* the image itself */
  void *out = malloc(n * (size_t)b->lane_bytes);
  if (!out)
    return NULL;
  for (size_t i = 0; i < n; i++) {
    uint8_t v = img->data[i];
    if (b->is_float && b->lane_bytes == 4)
      ((float *)out)[i] = v;
    else if (b->lane_bytes == 2)
      ((uint16_t *)out)[i] = v;
    else if (b->lane_bytes == 4)
      ((uint32_t *)out)[i] = v;
    else
      ((uint8_t *)out)[i * (size_t)b->lane_bytes] = v;
  }
  return out;
}

/* One lane's value, whatever its type. */
static double lane_value(const uint8_t *p, const rbuf *b)
{
  if (b->lane_bytes == 1)
    return b->is_signed ? (double)*(const int8_t *)p : (double)*p;
  if (b->lane_bytes == 2) {
    uint16_t u;
    memcpy(&u, p, 2);
    return b->is_signed ? (double)(int16_t)u : (double)u;
  }
  if (b->lane_bytes == 4) {
    uint32_t u;
    memcpy(&u, p, 4);
    float f;
    memcpy(&f, p, 4);
    return b->is_float ? (isnan(f) ? 0 : (double)f) : b->is_signed ? (double)(int32_t)u : (double)u;
  }
  double f;
  memcpy(&f, p, 8);
  return isnan(f) ? 0 : f;
}

static uint8_t to_u8(const uint8_t *p, const rbuf *b)
{
  double v;
  if (b->lane_bytes == 1)
    return b->is_signed ? (uint8_t)(*(const int8_t *)p < 0 ? 0 : *(const int8_t *)p) : *p;
  if (b->lane_bytes == 2) {
    uint16_t u;
    memcpy(&u, p, 2);
    v = b->is_signed ? (double)(int16_t)u : (double)u;
  } else if (b->lane_bytes == 4 && b->is_float) {
    float f;
    memcpy(&f, p, 4);
    v = isnan(f) ? 0 : floor((double)f + 0.5);
  } else if (b->lane_bytes == 4) {
    uint32_t u;
    memcpy(&u, p, 4);
    v = b->is_signed ? (double)(int32_t)u : (double)u;
  } else {
    double f;
    memcpy(&f, p, 8);
    v = isnan(f) ? 0 : floor(f + 0.5);
  }
  return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

static ts_status eval_size(runner *r, const ts_plain_pass *ps, const char *field, const char *e,
                           size_t *out)
{
  double v;
  int is_int;
  ts_error e2 = { 0 };
  if (ts_plain_eval(e, r->W, r->H, r->C, &v, &is_int, &e2) != TS_OK || v < 1 || v > 1e9 ||
      v != floor(v)) {
    if (ps->line)
      return ts_fail(r->err, TS_ERR_ARG, "%s:%d: %s: '%s' is %s", r->d->path, ps->line, field, e,
                     e2.code ? "not an expression of W, H and C" : "not a size of 1 or more here");
    return ts_fail(r->err, TS_ERR_ARG, "%s: %s: '%s' is %s", r->d->path, field, e,
                   e2.code ? "not an expression of W, H and C" : "not a size of 1 or more here");
  }
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
    if (ps->ldims != L->dims)
      return ts_fail(r->err, TS_ERR_ARG, "%s:%d: local: %d sizes for a %d-dimensional global",
                     r->d->path, ps->line, ps->ldims, L->dims);
    for (int i = 0; i < ps->ldims; i++)
      if ((st = eval_size(r, ps, "local", ps->local[i], &L->local[i])) != TS_OK)
        return st;
    for (int i = 0; i < L->dims; i++)
      if (L->global[i] % L->local[i])
        return ts_fail(r->err, TS_ERR_ARG,
                       "%s:%d: local: %zu does not divide the global size %zu (dimension %d); "
                       "OpenCL 1.2 needs whole work-groups",
                       r->d->path, ps->line, L->local[i], L->global[i], i);
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
    L->ngroups[i] = (uint32_t)(L->global[i] / L->local[i]);
    ng *= L->ngroups[i];
  }
  if (ng > (1u << 26))
    return ts_fail(r->err, TS_ERR_TOO_LARGE, "%s: %s: %llu work-groups, over the limit of %u",
                   r->d->path, ps->entry, (unsigned long long)ng, 1u << 26);
  L->ngroups_all = (uint32_t)ng;
  snprintf(L->entry, sizeof L->entry, "%s", ps->entry);
  return TS_OK;
}

static ts_status build(runner *r, int observe)
{
  const ts_plain_desc *d = r->d;
  char *rt = NULL;
  ts_plain_src src = { 0 };
  const char *parts[2];
  cl_uint nparts = 1;
  ts_status st = TS_OK;
  size_t rtlen = 0;
  if (observe) {
    st = ts_plain_parse(d->path, d->text, d->len, d->options, 1, &src, r->err);
    if (st != TS_OK)
      return st;
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
      dm->src.kernels[i].nlocals = src.kernels[i].nlocals;
      memcpy(dm->src.kernels[i].locals, src.kernels[i].locals, sizeof src.kernels[i].locals);
      memcpy(dm->src.kernels[i].local_elem, src.kernels[i].local_elem,
             sizeof src.kernels[i].local_elem);
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
  r->prog = clCreateProgramWithSource(r->ctx, nparts, parts, lens, &e);
  free(rt);
  free(line0);
  ts_plain_src_free(&src);
  if (e != CL_SUCCESS)
    return clfail(r, e, "clCreateProgramWithSource");
  char opts[700];
  snprintf(opts, sizeof opts, "-cl-std=CL1.2 %s", d->options);
  e = clBuildProgram(r->prog, 1, &r->dev, opts, NULL, NULL);
  if (e != CL_SUCCESS) {
    size_t n = 0;
    clGetProgramBuildInfo(r->prog, r->dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(n + 1, 1);
    if (log)
      clGetProgramBuildInfo(r->prog, r->dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
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

/* ---- the observation buffer ---- */

/* A shadow covers one lane of a buffer (log2 of its bytes), or a byte for odd sizes. */
static int lane_shift(int lane)
{
  return lane == 8 ? 3 : lane == 4 ? 2 : lane == 2 ? 1 : 0;
}

typedef struct oblayout {
  size_t words;
  uint32_t find, log, rect, scratch, sink;
  uint32_t shadow[MAXG];
  int img[MAXG];
} oblayout;

static ts_status ob_make(runner *r, const ts_plain_kernel *k, const ts_plain_pass *ps,
                         const ts_plain_launch *L, const rbuf **gb, int ng,
                         const ts_plain_opts *o, int pass, cl_mem *out, oblayout *lay)
{
  uint32_t nlines = (uint32_t)r->d->src.nlines;
  size_t w = HEADER + (size_t)BI * MAXG;
  lay->find = (uint32_t)w;
  w += (size_t)TS_NFIND * nlines * (1 + NPLACES * PLACE);
  lay->log = (uint32_t)w;
  w += (size_t)LOG_CAP * LOG_REC;
  w = (w + 3) & ~(size_t)3; /* the rectangles are filled 16 bytes at a time */
  lay->rect = (uint32_t)w;
  w += (size_t)L->ngroups_all * 16;
  lay->scratch = (uint32_t)w;
  w += 64;
  lay->sink = (uint32_t)w;
  w += 64;
  for (int i = 0; i < ng; i++) {
    lay->img[i] = gb[i]->role == TS_ARG_INPUT ? 0 : gb[i]->role == TS_ARG_OUTPUT ? 1 : -1;
    lay->shadow[i] = 0;
  }
  /* shadows: for every buffer the kernel may write (its argument is not const) */
  int gi = 0;
  for (int j = 0; j < k->nparams; j++) {
    const ts_plain_param *p = &k->params[j];
    if (!(p->pointer && p->space == TS_SPACE_GLOBAL))
      continue;
    if (!p->is_const) {
      if (w > UINT32_MAX - 16)
        return ts_fail(r->err, TS_ERR_TOO_LARGE, "%s: the observation needs over 16 GB",
                       r->d->path);
      lay->shadow[gi] = (uint32_t)w;
      w += (gb[gi]->bytes >> lane_shift(gb[gi]->lane_bytes)) * 5;
    }
    gi++;
  }
  if (w > UINT32_MAX)
    return ts_fail(r->err, TS_ERR_TOO_LARGE, "%s: the observation needs over 16 GB", r->d->path);
  lay->words = w;
  cl_int e;
  *out = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE, w * 4, NULL, &e);
  if (e != CL_SUCCESS)
    return clfail(r, e, "clCreateBuffer (observation)");
  uint32_t zero = 0;
  e = clEnqueueFillBuffer(r->q, *out, &zero, 4, 0, w * 4, 0, NULL, NULL);
  int32_t empty[4] = { INT_MAX, INT_MAX, -1, -1 };
  if (e == CL_SUCCESS)
    e = clEnqueueFillBuffer(r->q, *out, empty, sizeof empty, (size_t)lay->rect * 4,
                            (size_t)L->ngroups_all * 64, 0, NULL, NULL);
  uint32_t hdr[HEADER + BI * MAXG];
  memset(hdr, 0, sizeof hdr);
  hdr[H_NBUF] = (uint32_t)ng;
  hdr[H_NLINES] = nlines;
  int chosen = (o->chosen_pass < 0 || o->chosen_pass == pass) && o->chosen_group[0] >= 0;
  uint32_t cg = UINT32_MAX, ci = 0;
  if (chosen) {
    cg = (uint32_t)(o->chosen_group[0] + (long)L->ngroups[0] *
                    (o->chosen_group[1] + (long)L->ngroups[1] * o->chosen_group[2]));
    ci = (uint32_t)(o->chosen_item[0] + (long)L->local[0] *
                    (o->chosen_item[1] + (long)L->local[1] * o->chosen_item[2]));
  }
  hdr[H_CHOSEN_G] = cg;
  hdr[H_CHOSEN_I] = ci;
  hdr[H_LOGCAP] = LOG_CAP;
  hdr[H_FIND] = lay->find;
  hdr[H_LOG] = lay->log;
  hdr[H_RECT] = lay->rect;
  hdr[H_TILE_W] = (uint32_t)ps->tile_w;
  hdr[H_TILE_H] = (uint32_t)ps->tile_h;
  hdr[H_HALO] = (uint32_t)ps->halo;
  hdr[H_SCRATCH] = lay->scratch;
  hdr[H_SINK] = lay->sink;
  int nl = 0;
  for (int j = 0; j < ps->nargs && nl < 8; j++)
    if (ps->args[j].role == TS_ARG_LOCAL) {
      double v = 0;
      ts_plain_eval(ps->args[j].expr, r->W, r->H, r->C, &v, NULL, NULL);
      hdr[H_LOCAL0 + nl++] = (uint32_t)v;
    }
  hdr[H_LOCAL_N] = (uint32_t)nl;
  /* a watched pixel: the output buffer's bytes of pixel (x, y) */
  hdr[H_WATCH_BUF] = UINT32_MAX;
  for (int i = 0; o->watch_x >= 0 && i < ng; i++)
    if (gb[i]->role == TS_ARG_OUTPUT && o->watch_x < r->W && o->watch_y < r->H) {
      uint64_t px = (uint64_t)gb[i]->channels * (uint64_t)gb[i]->lane_bytes;
      uint64_t lo = ((uint64_t)o->watch_y * (uint64_t)r->W + (uint64_t)o->watch_x) * px;
      if (lo + px <= UINT32_MAX) {
        hdr[H_WATCH_BUF] = (uint32_t)i;
        hdr[H_WATCH_LO] = (uint32_t)lo;
        hdr[H_WATCH_HI] = (uint32_t)(lo + px);
      }
    }
  for (int i = 0; i < ng; i++) {
    uint32_t *b = hdr + HEADER + i * BI;
    const rbuf *rb = gb[i];
    b[B_SIZE] = (uint32_t)(rb->bytes > UINT32_MAX ? UINT32_MAX : rb->bytes);
    b[B_FLAGS] = (rb->role == TS_ARG_INPUT ? F_INPUT : 0) | (rb->role == TS_ARG_OUTPUT ? F_OUTPUT : 0) |
                 (lay->shadow[i] ? 0 : F_READONLY);
    b[B_PIXEL] = (uint32_t)(rb->channels * rb->lane_bytes);
    b[B_PITCH] = (uint32_t)r->W * b[B_PIXEL];
    b[B_SHADOW] = lay->shadow[i];
    b[B_RECT] = lay->img[i] >= 0 ? (uint32_t)lay->img[i] : UINT32_MAX;
    b[B_W] = (uint32_t)r->W;
    b[B_H] = (uint32_t)r->H;
    b[B_LANE] = (uint32_t)lane_shift(rb->lane_bytes);
  }
  if (e == CL_SUCCESS)
    e = clEnqueueWriteBuffer(r->q, *out, CL_TRUE, 0, sizeof hdr, hdr, 0, NULL, NULL);
  if (e != CL_SUCCESS) {
    clReleaseMemObject(*out);
    return clfail(r, e, "writing the observation buffer");
  }
  return TS_OK;
}

static void place_of(const uint32_t *p, ts_plain_place *pl)
{
  pl->space = (int)(p[0] & 0xff);
  pl->buf = (int)((p[0] >> 8) & 0xff);
  pl->acc = (int)((p[0] >> 16) & 0xff);
  pl->off = pl->acc & 8 ? (int64_t)(int32_t)p[1] : (int64_t)p[1];
  pl->group = p[2];
  pl->item = p[3];
  pl->other_group = p[4];
  pl->other_item = p[5];
  pl->other_line = (int)p[6];
}

static ts_status ob_read(runner *r, cl_mem ob, const oblayout *lay, int pass, ts_plain_launch *L,
                         ts_plain_result *res)
{
  uint32_t nlines = (uint32_t)r->d->src.nlines;
  size_t nfind = (size_t)TS_NFIND * nlines * (1 + NPLACES * PLACE);
  size_t nrect = (size_t)L->ngroups_all * 16;
  uint32_t *f = malloc(nfind * 4), *rect = malloc(nrect * 4), *log = malloc((size_t)LOG_CAP * LOG_REC * 4);
  uint32_t hdr[HEADER];
  if (!f || !rect || !log) {
    free(f);
    free(rect);
    free(log);
    return ts_fail(r->err, TS_ERR_NOMEM, "out of memory");
  }
  cl_int e = clEnqueueReadBuffer(r->q, ob, CL_TRUE, 0, sizeof hdr, hdr, 0, NULL, NULL);
  if (e == CL_SUCCESS)
    e = clEnqueueReadBuffer(r->q, ob, CL_TRUE, (size_t)lay->find * 4, nfind * 4, f, 0, NULL, NULL);
  if (e == CL_SUCCESS)
    e = clEnqueueReadBuffer(r->q, ob, CL_TRUE, (size_t)lay->rect * 4, nrect * 4, rect, 0, NULL, NULL);
  size_t nlog = hdr[H_LOGN] < LOG_CAP ? hdr[H_LOGN] : LOG_CAP;
  if (e == CL_SUCCESS && nlog)
    e = clEnqueueReadBuffer(r->q, ob, CL_TRUE, (size_t)lay->log * 4, nlog * LOG_REC * 4, log, 0,
                            NULL, NULL);
  if (e != CL_SUCCESS) {
    free(f);
    free(rect);
    free(log);
    return clfail(r, e, "reading the observation back");
  }
  /* findings */
  for (uint32_t kind = 0; kind < TS_NFIND; kind++)
    for (uint32_t line = 0; line < nlines; line++) {
      uint32_t n = f[kind * nlines + line];
      if (!n)
        continue;
      ts_plain_finding *nf = realloc(res->findings, (res->nfindings + 1) * sizeof *nf);
      if (!nf)
        break;
      res->findings = nf;
      ts_plain_finding *x = &nf[res->nfindings++];
      memset(x, 0, sizeof *x);
      x->pass = pass;
      x->kind = (int)kind;
      x->line = (int)line;
      x->count = n;
      x->nplaces = n < NPLACES ? (int)n : NPLACES;
      for (int i = 0; i < x->nplaces; i++)
        place_of(f + (size_t)TS_NFIND * nlines + ((size_t)(kind * nlines + line) * NPLACES + (size_t)i) * PLACE,
                 &x->place[i]);
      res->counts[kind] += n;
    }
  /* rectangles: input reads, output writes */
  L->groups = calloc(L->ngroups_all, sizeof *L->groups);
  if (L->groups)
    for (uint32_t g = 0; g < L->ngroups_all; g++) {
      const int32_t *q = (const int32_t *)rect + (size_t)g * 16;
      L->groups[g].read = (ts_plain_rect){ q[0], q[1], q[2], q[3] };
      L->groups[g].wrote = (ts_plain_rect){ q[12], q[13], q[14], q[15] };
    }
  L->nlog_all = hdr[H_LOGN];
  if (nlog) {
    L->log = calloc(nlog, sizeof *L->log);
    if (L->log) {
      L->nlog = nlog;
      for (size_t i = 0; i < nlog; i++) {
        const uint32_t *q = log + i * LOG_REC;
        ts_plain_access *a = &L->log[i];
        a->buf = (int)(q[0] & 0xff);
        a->acc = (int)((q[0] >> 8) & 7);
        a->outside = (int)((q[0] >> 8) & 8) != 0;
        a->space = (int)((q[0] >> 16) & 0xff);
        a->off = a->outside ? (int64_t)(int32_t)q[1] : (int64_t)q[1];
        a->bytes = q[2];
        a->line = (int)q[3];
        a->group = q[4];
        a->item = q[5];
        a->watched = a->space == 0 && !a->outside && (uint32_t)a->buf == hdr[H_WATCH_BUF] &&
                     a->off < hdr[H_WATCH_HI] && a->off + a->bytes > hdr[H_WATCH_LO];
      }
    }
  }
  free(f);
  free(rect);
  free(log);
  return TS_OK;
}

/* ---- the run ---- */

static ts_status run_pass(runner *r, int pass, const ts_plain_opts *o, ts_plain_result *res)
{
  const ts_plain_pass *ps = &r->d->pass[pass];
  const ts_plain_kernel *k = kernel_of(r->d, ps->entry);
  ts_plain_launch *L = &res->launch[pass];
  ts_status st = geometry(r, ps, L);
  if (st != TS_OK)
    return st;
  cl_int e;
  cl_kernel kn = clCreateKernel(r->prog, ps->entry, &e);
  if (e != CL_SUCCESS)
    return ts_fail(r->err, TS_ERR_BUILD, "%s:%d: entry: clCreateKernel('%s') failed: %s",
                   r->d->path, ps->line ? ps->line : k->line, ps->entry, ts_cl_error_name(e));
  const rbuf *gb[MAXG];
  int ng = 0, nl = 0;
  for (int j = 0; j < k->nparams && st == TS_OK; j++) {
    const ts_plain_param *p = &k->params[j];
    const ts_plain_arg *a = &ps->args[j];
    switch (a->role) {
    case TS_ARG_INPUT:
    case TS_ARG_OUTPUT:
    case TS_ARG_BUFFER: {
      rbuf *b = buffer_for(r, a, p);
      if (!b) {
        st = ts_fail(r->err, TS_ERR_ARG, "%s: too many buffers", r->d->path);
        break;
      }
      if (!b->mem) {
        b->mem = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE, b->bytes, NULL, &e);
        if (e != CL_SUCCESS) {
          st = clfail(r, e, "clCreateBuffer");
          break;
        }
        uint8_t zero = 0;
        clEnqueueFillBuffer(r->q, b->mem, &zero, 1, 0, b->bytes, 0, NULL, NULL);
      }
      if (ng == MAXG) {
        st = ts_fail(r->err, TS_ERR_UNSUPPORTED, "%s: %s has more than %d buffers", r->d->path,
                     k->name, MAXG);
        break;
      }
      L->buf[ng].channels = b->channels;
      L->buf[ng].lane = b->lane_bytes;
      snprintf(L->buf[ng].name, sizeof L->buf[ng].name, "%s", a->name);
      L->nbufs = ng + 1;
      gb[ng++] = b;
      e = clSetKernelArg(kn, (cl_uint)j, sizeof(cl_mem), &b->mem);
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
      if (p->is_float && sz == 4)
        u.f = (float)v;
      else if (p->is_float)
        u.d = v;
      else if (sz == 1)
        u.c = (int8_t)v;
      else if (sz == 2)
        u.s = (int16_t)v;
      else if (sz == 8)
        u.l = (int64_t)v;
      else
        u.i = (int32_t)v, sz = 4;
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
    st = ob_make(r, k, ps, L, gb, ng, o, pass, &ob, &lay);
    cl_uint idx = (cl_uint)k->nparams;
    if (st == TS_OK && (e = clSetKernelArg(kn, idx++, sizeof ob, &ob)) != CL_SUCCESS)
      st = clfail(r, e, "clSetKernelArg (observation)");
    for (int j = 0, li = 0; st == TS_OK && j < k->nparams; j++)
      if (ps->args[j].role == TS_ARG_LOCAL) {
        double v = 0;
        ts_plain_eval(ps->args[j].expr, r->W, r->H, r->C, &v, NULL, NULL);
        clSetKernelArg(kn, idx++, (size_t)v * 4, NULL);
        clSetKernelArg(kn, idx++, (size_t)v * 4, NULL);
        li++;
      }
  }
  int repeats = o->repeats > 0 ? o->repeats : 1;
  double best = 0;
  for (int rep = 0; st == TS_OK && rep < repeats; rep++) {
    cl_event ev = NULL;
    e = clEnqueueNDRangeKernel(r->q, kn, (cl_uint)L->dims, NULL, L->global, L->local, 0, NULL, &ev);
    if (e == CL_SUCCESS)
      e = clWaitForEvents(1, &ev);
    if (e != CL_SUCCESS) {
      st = ts_fail(r->err, TS_ERR_DEVICE, "%s: %s: the launch failed: %s (%d)", r->d->path,
                   ps->entry, ts_cl_error_name(e), (int)e);
    } else {
      cl_ulong t0 = 0, t1 = 0;
      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
      double ms = (double)(t1 - t0) / 1e6;
      if (rep == 0 || ms < best)
        best = ms;
    }
    if (ev)
      clReleaseEvent(ev);
  }
  L->ms = best;
  if (st == TS_OK && ob)
    st = ob_read(r, ob, &lay, pass, L, res);
  if (ob)
    clReleaseMemObject(ob);
  clReleaseKernel(kn);
  return st;
}

ts_status ts_plain_run(ts_cl *cl, const ts_plain_desc *d, const ts_image *in,
                       const ts_plain_opts *o, ts_plain_result **out, ts_error *err)
{
  runner r = { 0 };
  r.d = d;
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
    const ts_plain_kernel *k = kernel_of(d, d->pass[i].entry);
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
  st = build(&r, o->observe);
  /* buffers come with the passes; the input is filled once it exists */
  for (int i = 0; st == TS_OK && i < d->npasses; i++) {
    if (i == 0) {
      /* make the input buffer now so it can be filled before the first launch */
      const ts_plain_kernel *k = kernel_of(d, d->pass[0].entry);
      for (int j = 0; k && j < k->nparams; j++)
        if (d->pass[0].args[j].role == TS_ARG_INPUT) {
          rbuf *b = buffer_for(&r, &d->pass[0].args[j], &k->params[j]);
          if (!b || b->mem)
            continue;
          cl_int e;
          b->mem = clCreateBuffer(r.ctx, CL_MEM_READ_WRITE, b->bytes, NULL, &e);
          if (e != CL_SUCCESS) {
            st = clfail(&r, e, "clCreateBuffer (input)");
            break;
          }
          void *conv = input_bytes(img, b);
          e = clEnqueueWriteBuffer(r.q, b->mem, CL_TRUE, 0, b->bytes, conv ? conv : img->data, 0,
                                   NULL, NULL);
          free(conv);
          if (e != CL_SUCCESS)
            st = clfail(&r, e, "writing the input");
        }
    }
    if (st == TS_OK)
      st = run_pass(&r, i, o, res);
  }
  /* the output */
  rbuf *ob = NULL;
  for (int i = 0; i < r.nbufs; i++)
    if (r.bufs[i].role == TS_ARG_OUTPUT)
      ob = &r.bufs[i];
  if (st == TS_OK && !ob)
    st = ts_fail(err, TS_ERR_ARG, "%s: no pass has an output argument (name it out, or say ARG=output)",
                 d->path);
  if (st == TS_OK) {
    uint8_t *bytes = malloc(ob->bytes);
    ts_image *o8 = NULL;
    if (!bytes)
      st = ts_fail(err, TS_ERR_NOMEM, "out of memory");
    cl_int e = CL_SUCCESS;
    if (st == TS_OK)
      e = clEnqueueReadBuffer(r.q, ob->mem, CL_TRUE, 0, ob->bytes, bytes, 0, NULL, NULL);
    if (st == TS_OK && e != CL_SUCCESS)
      st = clfail(&r, e, "reading the output");
    if (st == TS_OK)
      st = ts_image_create(r.W, r.H, ob->channels == 2 ? 1 : ob->channels, &o8, err);
    if (st == TS_OK) {
      /* 8-bit values as they are; wider ones as they are when none passes 255, else
       * normalised to the largest (an integral image's sums) */
      size_t n = (size_t)r.W * (size_t)r.H * (size_t)ob->channels;
      double top = 0;
      for (size_t i = 0; ob->lane_bytes > 1 && i < n; i++) {
        double v = lane_value(bytes + i * (size_t)ob->lane_bytes, ob);
        top = v > top ? v : top;
      }
      snprintf(res->mapping, sizeof res->mapping, top > 255 ? "normalised: %.17g is 255" : "as is",
               top);
      int step = ob->channels == 2 ? 2 : 1; /* two channels: the first, as grey */
      for (size_t i = 0, j = 0; i < n; i += (size_t)step, j++) {
        const uint8_t *q = bytes + i * (size_t)ob->lane_bytes;
        o8->data[j] = top > 255 ? (uint8_t)(lane_value(q, ob) * 255.0 / top) : to_u8(q, ob);
      }
      if (ob->channels == r.C && r.C != in->c) {
        ts_image *back = NULL;
        st = ts_image_convert(o8, in->c, &back, err);
        ts_image_destroy(o8);
        o8 = back;
      }
      res->raw = bytes;
      bytes = NULL;
      res->raw_bytes = ob->bytes;
      res->raw_lane = ob->lane_bytes;
      res->raw_channels = ob->channels;
      res->raw_float = ob->is_float;
      res->raw_signed = ob->is_signed;
      res->out = o8;
    }
    free(bytes);
  }
  for (int i = 0; i < r.nbufs; i++)
    if (r.bufs[i].mem)
      clReleaseMemObject(r.bufs[i].mem);
  if (r.prog)
    clReleaseProgram(r.prog);
  ts_image_destroy(img);
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
  free(r);
}

/* ---- findings as lines ---- */

void ts_plain_group_name(const ts_plain_launch *L, uint32_t g, char *b, size_t n)
{
  uint32_t gx = g % L->ngroups[0], gy = (g / L->ngroups[0]) % L->ngroups[1];
  if (L->dims == 1)
    snprintf(b, n, "(%u)", gx);
  else
    snprintf(b, n, "(%u,%u)", gx, gy);
}

void ts_plain_item_name(const ts_plain_launch *L, uint32_t i, char *b, size_t n)
{
  uint32_t lx = i % (uint32_t)L->local[0], ly = (i / (uint32_t)L->local[0]) % (uint32_t)L->local[1];
  if (L->dims == 1)
    snprintf(b, n, "(%u)", lx);
  else
    snprintf(b, n, "(%u,%u)", lx, ly);
}

/* A __global place's buffer (the launch's, in argument order), pixel, row and channel. 0
 * when the place is __local or its buffer unknown (then *a is NULL). */
static int element_of(const ts_plain_result *r, int pass, const ts_plain_place *p,
                      const ts_plain_buf **a, int64_t *x, int64_t *y, int64_t *c)
{
  const ts_plain_launch *L = &r->launch[pass];
  *a = NULL;
  if (p->space == 1 || p->buf < 0 || p->buf >= L->nbufs)
    return 0;
  *a = &L->buf[p->buf];
  int lane = (*a)->lane > 0 ? (*a)->lane : 1, C = (*a)->channels > 0 ? (*a)->channels : 1;
  int W = r->out ? r->out->w : 1;
  int64_t pitch = (int64_t)W * C * lane, off = p->off < 0 ? 0 : p->off;
  *y = off / pitch;
  *x = (off % pitch) / ((int64_t)C * lane);
  *c = (off % ((int64_t)C * lane)) / lane;
  return 1;
}

int ts_plain_place_pixel(const ts_plain_desc *d, const ts_plain_result *r, int pass,
                         const ts_plain_place *p, int *x, int *y)
{
  const ts_plain_buf *a;
  int64_t ex, ey, ec;
  if (pass < 0 || pass >= d->npasses || !r->out || p->off < 0 ||
      !element_of(r, pass, p, &a, &ex, &ey, &ec) || ey >= r->out->h)
    return 0;
  *x = (int)ex;
  *y = (int)ey;
  return 1;
}

void ts_plain_element_name(const ts_plain_desc *d, const ts_plain_result *r, int pass,
                           const ts_plain_place *p, char *b, size_t n)
{
  const ts_plain_kernel *kn = kernel_of(d, d->pass[pass].entry);
  if (p->space == 1) {
    const char *name = kn && p->buf < kn->nlocals ? kn->locals[p->buf] : "?";
    int es = kn && p->buf < kn->nlocals ? kn->local_elem[p->buf] : 1;
    if (p->off < 0)
      snprintf(b, n, "__local %s, %lld bytes before it", name, (long long)-p->off);
    else
      snprintf(b, n, "__local %s element %lld", name, (long long)(p->off / es));
    return;
  }
  const ts_plain_buf *a;
  int64_t x, y, c;
  if (!element_of(r, pass, p, &a, &x, &y, &c)) {
    snprintf(b, n, "buffer %d byte %lld", p->buf, (long long)p->off);
    return;
  }
  int C = a->channels > 0 ? a->channels : 1;
  if (p->off < 0) {
    snprintf(b, n, "%s, %lld bytes before its start", a->name, (long long)-p->off);
    return;
  }
  int H = r->out ? r->out->h : 1;
  if (y >= H)
    snprintf(b, n, "%s pixel (%lld,%lld) channel %lld, past its end (the image has %d rows)",
             a->name, (long long)x, (long long)y, (long long)c, H);
  else if (C == 1)
    snprintf(b, n, "%s pixel (%lld,%lld)", a->name, (long long)x, (long long)y);
  else
    snprintf(b, n, "%s pixel (%lld,%lld) channel %lld", a->name, (long long)x, (long long)y,
             (long long)c);
}

void ts_plain_finding_line(const ts_plain_desc *d, const ts_plain_result *r,
                           const ts_plain_finding *f, char *buf, size_t n)
{
  const ts_plain_launch *L = &r->launch[f->pass];
  const ts_plain_place *p = &f->place[0];
  char g[32], it[32], el[200], og[32] = "", oi[32] = "";
  ts_plain_group_name(L, p->group, g, sizeof g);
  ts_plain_item_name(L, p->item, it, sizeof it);
  ts_plain_element_name(d, r, f->pass, p, el, sizeof el);
  const char *verb = p->acc == 4 ? "atomic on" : p->acc == 2 ? "writes" : p->acc == 3 ? "updates" : "reads";
  char more[64] = "";
  if (f->count > 1)
    snprintf(more, sizeof more, "; %llu times in all", (unsigned long long)f->count);
  const char *base = strrchr(d->path, '/') ? strrchr(d->path, '/') + 1 : d->path;
  char what[300];
  switch (f->kind) {
  case TS_FIND_RACE_GROUPS:
    if (p->other_group == UINT32_MAX)
      snprintf(what, sizeof what, "which several other work-groups also access");
    else {
      ts_plain_group_name(L, p->other_group, og, sizeof og);
      char at[32] = "";
      if (p->other_line > 0)
        snprintf(at, sizeof at, " at line %d", p->other_line);
      snprintf(what, sizeof what, "which work-group %s also %s%s (groups of one launch have no order)",
               og, p->acc & 2 ? "accesses" : "writes", at);
    }
    break;
  case TS_FIND_RACE_LOCAL:
  case TS_FIND_RACE_GLOBAL:
    if (p->other_item == UINT32_MAX)
      snprintf(what, sizeof what, "which other work-items read in the same barrier interval");
    else {
      ts_plain_item_name(L, p->other_item, oi, sizeof oi);
      char at[32] = "";
      if (p->other_line > 0)
        snprintf(at, sizeof at, " at line %d", p->other_line);
      snprintf(what, sizeof what, "which work-item %s accessed%s in the same barrier interval (a missing barrier(%s)?)",
               oi, at, f->kind == TS_FIND_RACE_LOCAL ? "CLK_LOCAL_MEM_FENCE" : "CLK_GLOBAL_MEM_FENCE");
    }
    break;
  case TS_FIND_UNINIT:
    snprintf(what, sizeof what, "before anything in the launch wrote it");
    break;
  case TS_FIND_FOOTPRINT:
  case TS_FIND_TILE: {
    const ts_plain_pass *ps = &d->pass[f->pass];
    snprintf(what, sizeof what, "outside its tile of %dx%d%s", ps->tile_w, ps->tile_h,
             f->kind == TS_FIND_FOOTPRINT ? (ps->halo ? " and its halo" : "") : "");
    if (f->kind == TS_FIND_FOOTPRINT && ps->halo)
      snprintf(what + strlen(what), sizeof what - strlen(what), " of %d", ps->halo);
    break;
  }
  default:
    what[0] = 0;
  }
  snprintf(buf, n, "%s:%d: %s in %s: work-group %s item %s %s %s%s%s%s", base, f->line,
           ts_plain_kind_name(f->kind), L->entry, g, it, verb, el, what[0] ? ", " : "", what,
           more);
}
