/* A plain kernel's loading (ts_plain.h): the file read, its description (ts_plain_desc.c),
 * the kernels' arguments from libclang (here, or in a process of its own through the job of
 * ts_plain_pack.c, so that a file that makes libclang crash or run on costs one line), and
 * every pass's arguments given their roles. It sits above the job so that the description
 * below calls nothing back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_file.h"
#include "ts_plain_int.h"
#include "ts_sim.h"

#define MAX_FILE (4u << 20)

ts_status ts_plain_load(const char *path, const char *const *extra, int nextra,
                        ts_plain_desc **out, ts_error *err)
{
  return ts_plain_load_launch(path, NULL, extra, nextra, 0, out, err);
}

/* d's kernels, parsed here (timeout_s <= 0), or in a process of its own with that watchdog
 * (ts_plain_job_isolated). */
static ts_status parse(ts_plain_desc *d, double timeout_s, ts_error *err)
{
  if (timeout_s <= 0)
    return ts_plain_parse(d->path, d->text, d->len, d->options, 0, &d->src, err);
  char what[sizeof d->path + 16];
  const char *base = strrchr(d->path, '/') ? strrchr(d->path, '/') + 1 : d->path;
  snprintf(what, sizeof what, "%s, parsed", base);
  ts_plain_request q = { .job = TS_JOB_PARSE };
  ts_blob r;
  ts_status st = ts_plain_job_isolated(what, &q, d, NULL, timeout_s, &r, err);
  if (st == TS_OK && r.n != sizeof d->src)
    st = ts_fail(err, TS_ERR_DEVICE, "%s: the parse sent %zu bytes, not %zu", what, r.n,
                 sizeof d->src);
  if (st == TS_OK)
    memcpy(&d->src, r.p, sizeof d->src);
  ts_blob_free(&r);
  return st;
}

/* A description of the file at path with its text and nothing else yet. */
static ts_status read_file(const char *path, ts_plain_desc **out, ts_error *err)
{
  ts_plain_desc *d = calloc(1, sizeof *d);
  if (!d)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  snprintf(d->path, sizeof d->path, "%s", path);
  uint8_t *data = NULL;
  ts_status st = ts_file_read_all(path, MAX_FILE, &data, &d->len, err);
  if (st != TS_OK) {
    free(d);
    return st;
  }
  d->text = (char *)data;
  *out = d;
  return TS_OK;
}

ts_status ts_plain_load_launch(const char *path, const char *launch, const char *const *extra,
                               int nextra, double parse_timeout_s, ts_plain_desc **out,
                               ts_error *err)
{
  ts_plain_desc *d = NULL;
  ts_status st = read_file(path, &d, err);
  if (st != TS_OK)
    return st;
  st = ts_plain_read_launch(d, launch, extra, nextra, err);
  for (int i = 0; i < d->npasses; i++) /* a pass without options= is built with the file's */
    if (!d->pass[i].own_options)
      snprintf(d->pass[i].options, sizeof d->pass[i].options, "%s", d->options);
  if (st == TS_OK)
    st = parse(d, parse_timeout_s, err);
  for (int i = 0; st == TS_OK && i < d->npasses; i++)
    st = ts_plain_resolve(d, &d->pass[i], err);
  if (st != TS_OK) {
    ts_plain_desc_free(d);
    return st;
  }
  *out = d;
  return TS_OK;
}

ts_status ts_plain_load_kernels(const char *path, const char *options, double parse_timeout_s,
                                ts_plain_desc **out, ts_error *err)
{
  ts_plain_desc *d = NULL;
  ts_status st = read_file(path, &d, err);
  if (st != TS_OK)
    return st;
  snprintf(d->options, sizeof d->options, "%s", options ? options : "");
  if ((st = parse(d, parse_timeout_s, err)) != TS_OK) {
    ts_plain_desc_free(d);
    return st;
  }
  *out = d;
  return TS_OK;
}

/* One element of a buffer given whole, as a number. */
static double element(const ts_plain_data *dt, size_t i)
{
  const uint8_t *p = dt->bytes + i * (size_t)dt->lane;
  if (dt->is_float)
    return dt->lane == 8 ? *(const double *)(const void *)p : *(const float *)(const void *)p;
  int64_t v = 0;
  uint64_t u = 0;
  memcpy(&u, p, (size_t)dt->lane);
  if (dt->is_signed && dt->lane < 8 && (u >> (8 * dt->lane - 1) & 1))
    u |= ~(uint64_t)0 << (8 * dt->lane);
  v = (int64_t)u;
  return dt->is_signed ? (double)v : (double)u;
}

ts_status ts_sim_load(const char *path, double timeout_s, ts_sim **sim, ts_plain_desc **d,
                      ts_image **in, ts_error *err)
{
  *sim = NULL;
  *d = NULL;
  *in = NULL;
  ts_status st = ts_sim_head(path, sim, err);
  if (st == TS_OK)
    st = ts_plain_load_kernels((*sim)->program, (*sim)->options, timeout_s, d, err);
  const ts_plain_kernel *k = st == TS_OK ? ts_plain_kernel_named(*d, (*sim)->kernel) : NULL;
  if (st == TS_OK && !k)
    st = ts_fail(err, TS_ERR_ARG, "%s:2: the kernel file %s has no kernel '%s'", path,
                 (*sim)->program, (*sim)->kernel);
  if (st == TS_OK)
    st = ts_sim_args(*sim, k, err);
  if (st == TS_OK)
    st = ts_sim_desc(*sim, *d, err);
  /* the input shown: the shown buffer's first contents, normalised to grey (1x1 without) */
  const ts_plain_data *dt = NULL;
  for (int i = 0; st == TS_OK && *d && i < (*d)->ndata; i++)
    if ((*d)->data[i].shown)
      dt = &(*d)->data[i];
  int cols = 1, rows = 1;
  if (dt)
    ts_plain_grid(dt->size / (size_t)dt->lane, &cols, &rows);
  if (st == TS_OK && (st = ts_image_create(cols, rows, 1, in, err)) == TS_OK) {
    size_t n = (size_t)cols * (size_t)rows;
    memset((*in)->data, 0, n);
    if (dt && dt->bytes) {
      double lo = 0, hi = 0;
      for (size_t i = 0; i < n; i++) {
        double v = element(dt, i);
        lo = i == 0 || v < lo ? v : lo;
        hi = i == 0 || v > hi ? v : hi;
      }
      for (size_t i = 0; i < n; i++) {
        double v = element(dt, i);
        (*in)->data[i] = lo >= 0 && hi <= 255 && hi > lo ? (uint8_t)v
                         : hi > lo                        ? (uint8_t)((v - lo) * 255.0 / (hi - lo))
                                                          : 0;
      }
    }
  }
  return st;
}
