/* The buffers of a plain kernel's run (ts_plain_run.c): each argument's buffer or image made
 * from its role, the declaration or what the launch gives whole; their first contents (the
 * image's pixels, an init value, a ramp, a file); a lane's value, the output and the dumped
 * buffers read back. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_file.h"

#include "ts_plain_int.h"

/* The bytes of one lane of a pointer argument's element (uchar4 -> 1, float -> 4). */
static int lane_bytes(const ts_plain_param *p)
{
  int l = p->lanes > 0 ? p->lanes : 1;
  return p->elem_size / l > 0 ? p->elem_size / l : 1;
}

/* The value of an expression of the run's W, H and C as a size (0 when it is none). */
static int64_t size_of(const runner *r, const char *e, int64_t lo, int64_t hi)
{
  double v = 0;
  int is_int = 0;
  ts_error e2 = { 0 };
  if (ts_plain_eval(e, r->W, r->H, r->C, &v, &is_int, &e2) != TS_OK || !is_int || v < (double)lo ||
      v > (double)hi)
    return -1;
  return (int64_t)v;
}

/* What an image argument's pixels are to the kernel: read_imageui/write_imageui on it makes
 * them unsigned integers, read_imagei signed ones, else (read_imagef) normalised. */
static unsigned image_type(const char *text, size_t len, const char *name)
{
  size_t n = strlen(name);
  for (size_t i = 0; i + 12 < len; i++) {
    const char *t = text + i;
    int rd = strncmp(t, "read_image", 10) == 0, wr = strncmp(t, "write_image", 11) == 0;
    if (!rd && !wr)
      continue;
    const char *f = t + (rd ? 10 : 11);
    int ui = f[0] == 'u' && f[1] == 'i', si = f[0] == 'i';
    if (!ui && !si)
      continue;
    const char *q = f + (ui ? 2 : 1);
    while (*q == ' ' || *q == '\t' || *q == '\n')
      q++;
    if (*q++ != '(')
      continue;
    while (*q == ' ' || *q == '\t' || *q == '\n')
      q++;
    if (strncmp(q, name, n) == 0 && !(isalnum((unsigned char)q[n]) || q[n] == '_'))
      return ui ? CL_UNSIGNED_INT8 : CL_SIGNED_INT8;
  }
  return CL_UNORM_INT8;
}

/* An image of b's shape and type, with the first contents (NULL: zeros). */
ts_status ts_plain_new_image(runner *r, rbuf *b, const uint8_t *first)
{
  cl_bool ok = CL_FALSE;
  clGetDeviceInfo(r->dev, CL_DEVICE_IMAGE_SUPPORT, sizeof ok, &ok, NULL);
  if (!ok)
    return ts_fail(r->err, TS_ERR_UNSUPPORTED, "%s: the device has no image support, and %s is "
                   "an image", r->d->path, b->name);
  cl_image_format f = { b->channels == 1 ? CL_R : b->channels == 2 ? CL_RG : CL_RGBA,
                        b->img_type };
  cl_image_desc id = { 0 };
  id.image_type = CL_MEM_OBJECT_IMAGE2D;
  id.image_width = (size_t)b->cols;
  id.image_height = (size_t)b->rows;
  cl_int e;
  b->mem = clCreateImage(r->ctx, CL_MEM_READ_WRITE, &f, &id, NULL, &e);
  if (e != CL_SUCCESS)
    return clfail(r, e, "making an image");
  size_t origin[3] = { 0, 0, 0 }, region[3] = { (size_t)b->cols, (size_t)b->rows, 1 };
  e = clEnqueueWriteImage(r->q, b->mem, CL_TRUE, origin, region, b->step, 0, first, 0, NULL, NULL);
  return e == CL_SUCCESS ? TS_OK : clfail(r, e, "writing an image");
}

/* b's contents copied from `from` into *to (made like b when NULL): a buffer's bytes or an
 * image's pixels, on the device. */
ts_status ts_plain_copy_mem(runner *r, const rbuf *b, cl_mem from, cl_mem *to)
{
  cl_int e = CL_SUCCESS;
  if (!*to && b->image) {
    cl_image_format f;
    cl_image_desc id = { 0 };
    id.image_type = CL_MEM_OBJECT_IMAGE2D;
    id.image_width = (size_t)b->cols;
    id.image_height = (size_t)b->rows;
    e = clGetImageInfo(from, CL_IMAGE_FORMAT, sizeof f, &f, NULL);
    if (e == CL_SUCCESS)
      *to = clCreateImage(r->ctx, CL_MEM_READ_WRITE, &f, &id, NULL, &e);
  } else if (!*to) {
    *to = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE, b->bytes ? b->bytes : 1, NULL, &e);
  }
  if (e != CL_SUCCESS)
    return clfail(r, e, "copying a buffer");
  size_t origin[3] = { 0, 0, 0 }, region[3] = { (size_t)b->cols, (size_t)b->rows, 1 };
  e = b->image ? clEnqueueCopyImage(r->q, from, *to, origin, origin, region, 0, NULL, NULL)
      : b->bytes ? clEnqueueCopyBuffer(r->q, from, *to, 0, 0, b->bytes, 0, NULL, NULL)
                 : CL_SUCCESS;
  if (e == CL_SUCCESS)
    e = clFinish(r->q);
  return e == CL_SUCCESS ? TS_OK : clfail(r, e, "copying a buffer");
}

/* The run's buffer of an argument: the image roles by role (temporaries by argument name),
 * a declared buffer by its name; made on first use. NULL after the error line. */
rbuf *ts_plain_buffer_for(runner *r, const ts_plain_arg *a, const ts_plain_param *p)
{
  const ts_plain_bufdecl *dc = a->role == TS_ARG_NAMED ? ts_plain_buf_named(r->d, a->expr) : NULL;
  const ts_plain_data *dt = a->role == TS_ARG_DATA || a->role == TS_ARG_NULL
                                ? &r->d->data[atoi(a->expr)] : NULL;
  const char *key = dt                          ? dt->name
                    : dc                        ? dc->name
                    : a->role == TS_ARG_BUFFER ? a->name
                    : a->role == TS_ARG_INPUT  ? "<in>"
                                               : "<out>";
  for (int i = 0; i < r->nbufs; i++)
    if (strcmp(r->bufs[i].name, key) == 0) {
      if (r->bufs[i].image != (p->image != 0)) {
        ts_fail(r->err, TS_ERR_ARG, "%s: argument '%s' is %s, but another pass has it as %s",
                r->d->path, p->name, p->image ? "an image" : "a buffer",
                p->image ? "a buffer" : "an image");
        return NULL;
      }
      return &r->bufs[i];
    }
  if (r->nbufs == 16) {
    ts_fail(r->err, TS_ERR_ARG, "%s: more than 16 buffers", r->d->path);
    return NULL;
  }
  rbuf *b = &r->bufs[r->nbufs];
  memset(b, 0, sizeof *b);
  snprintf(b->name, sizeof b->name, "%s", key);
  if (dt) {
    /* a buffer given whole: a row of its elements (NULL: none, every access outside it) */
    b->data = dt;
    b->role = a->role;
    b->lane_bytes = dt->lane;
    b->is_float = dt->is_float;
    b->is_signed = dt->is_signed;
    b->channels = b->rows = 1;
    b->cols = (int)(dt->size / (size_t)dt->lane);
    b->step = dt->size;
    if (dt->shown && a->role == TS_ARG_DATA) { /* shown: a grid of its elements */
      b->shown = 1;
      ts_plain_grid(dt->size / (size_t)dt->lane, &b->cols, &b->rows);
      b->step = (size_t)b->cols * (size_t)dt->lane;
    }
    b->bytes = a->role == TS_ARG_NULL ? 0 : dt->size;
    r->nbufs++;
    return b;
  }
  if (dc) {
    const char *lp = r->d->launch[0] ? r->d->launch : r->d->path;
    b->decl = dc;
    b->role = dc->role == TS_BUF_INPUT ? TS_ARG_INPUT : dc->role == TS_BUF_OUTPUT ? TS_ARG_OUTPUT : TS_ARG_BUFFER;
    b->lane_bytes = dc->lane;
    b->is_float = dc->is_float;
    b->is_signed = dc->is_signed;
    int64_t cols = size_of(r, dc->cols, 1, 1 << 20), rows = size_of(r, dc->rows, 1, 1 << 20);
    int64_t ch = dc->channels[0] ? size_of(r, dc->channels, 1, 4) : 1;
    if (cols < 0 || rows < 0 || ch < 0) {
      ts_fail(r->err, TS_ERR_ARG, "%s:%d: %s: %s is not %s on a %dx%dx%d image", lp, dc->line, dc->name,
              ch < 0 ? "channels" : "shape", ch < 0 ? "1 to 4" : "two whole sizes of 1 to 1048576",
              r->W, r->H, r->C);
      return NULL;
    }
    int64_t row = cols * ch * dc->lane;
    int64_t step = dc->step[0] ? size_of(r, dc->step, row, (int64_t)1 << 31) : row;
    int64_t off = dc->offset[0] ? size_of(r, dc->offset, 0, (int64_t)1 << 31) : 0;
    if (step < 0 || off < 0) {
      ts_fail(r->err, TS_ERR_ARG, "%s:%d: %s: %s is not %s on a %dx%dx%d image", lp, dc->line, dc->name,
              step < 0 ? "step" : "offset",
              step < 0 ? "a whole number of bytes at least the row's" : "a whole number of bytes",
              r->W, r->H, r->C);
      return NULL;
    }
    if (off + step * rows > ((int64_t)1 << 32)) {
      ts_fail(r->err, TS_ERR_TOO_LARGE, "%s:%d: %s: over the limit of 4 GB", lp, dc->line, dc->name);
      return NULL;
    }
    b->channels = (int)ch;
    b->cols = (int)cols;
    b->rows = (int)rows;
    b->step = (size_t)step;
    b->offset = (size_t)off;
  } else if (p->image) {
    /* an image of 8-bit channels: one for grey, two, or RGBA (an RGB image gains its alpha) */
    b->role = a->role;
    b->image = 1;
    b->img_type = image_type(r->d->text, r->d->len, p->name);
    b->lane_bytes = 1;
    b->is_signed = b->img_type == CL_SIGNED_INT8;
    b->channels = r->C >= 3 ? 4 : r->C;
    b->cols = r->W;
    b->rows = r->H;
    b->step = (size_t)r->W * (size_t)b->channels;
  } else {
    b->role = a->role;
    b->lane_bytes = lane_bytes(p);
    b->is_float = p->is_float;
    b->is_signed = p->is_signed;
    b->channels = (a->role == TS_ARG_OUTPUT || a->role == TS_ARG_BUFFER) && a->expr[0]
                      ? atoi(a->expr) : r->C;
    b->cols = r->W;
    b->rows = r->H;
    b->step = (size_t)r->W * (size_t)b->channels * (size_t)b->lane_bytes;
  }
  b->bytes = b->offset + b->step * (size_t)b->rows;
  r->nbufs++;
  return b;
}

/* One lane of value v in the buffer's type, at q. */
static void put_lane(uint8_t *q, const rbuf *b, double v)
{
  if (b->is_float) {
    float f = (float)v;
    memcpy(q, &f, 4);
  } else if (b->lane_bytes == 1) {
    *q = (uint8_t)(int64_t)v;
  } else if (b->lane_bytes == 2) {
    uint16_t u = (uint16_t)(int64_t)v;
    memcpy(q, &u, 2);
  } else {
    uint32_t u = (uint32_t)(int64_t)v;
    memcpy(q, &u, 4);
  }
}

/* A declared buffer's file= contents into m: raw bytes, or a .npy's data, exactly as many as
 * its elements (row after row, each placed at its step), relative to the launch's folder. */
static ts_status file_contents(runner *r, const rbuf *b, uint8_t *m)
{
  const ts_plain_bufdecl *dc = b->decl;
  const char *lp = r->d->launch[0] ? r->d->launch : r->d->path;
  char path[1600];
  const char *slash = strrchr(lp, '/');
  if (dc->file[0] == '/' || !slash)
    snprintf(path, sizeof path, "%s", dc->file);
  else
    snprintf(path, sizeof path, "%.*s/%s", (int)(slash - lp), lp, dc->file);
  size_t row = (size_t)b->cols * (size_t)b->channels * (size_t)b->lane_bytes;
  size_t want = row * (size_t)b->rows;
  uint8_t *data = NULL;
  size_t len = 0;
  ts_error e2 = { 0 };
  if (ts_file_read_all(path, (size_t)1 << 31, &data, &len, &e2) != TS_OK)
    return ts_fail(r->err, TS_ERR_ARG, "%s:%d: %s: file=%s: %s", lp, dc->line, dc->name, dc->file,
                   e2.msg);
  size_t at = 0;
  if (len >= 10 && memcmp(data, "\x93NUMPY", 6) == 0) { /* a .npy: its header, then the data */
    size_t hl = data[6] == 1 ? (size_t)data[8] | (size_t)data[9] << 8
                             : len >= 12 ? (size_t)data[8] | (size_t)data[9] << 8 |
                                               (size_t)data[10] << 16 | (size_t)data[11] << 24
                                         : len;
    at = (data[6] == 1 ? 10 : 12) + hl;
    if (at > len)
      at = len;
  }
  if (len - at != want) {
    free(data);
    return ts_fail(r->err, TS_ERR_ARG, "%s:%d: %s: file=%s holds %zu bytes of data, and the "
                   "buffer's %dx%d elements of %d channel(s) of %s take %zu", lp, dc->line,
                   dc->name, dc->file, len - at, b->cols, b->rows, b->channels, dc->type, want);
  }
  for (size_t y = 0; y < (size_t)b->rows; y++)
    memcpy(m + b->offset + y * b->step, data + at + y * row, row);
  free(data);
  return TS_OK;
}

/* A buffer's first contents: the image's pixels, as the buffer's type, channels, step and
 * offset see them, for the input; its init value (zero by default) everywhere else. */
ts_status ts_plain_first_contents(runner *r, const ts_image *img, const rbuf *b, uint8_t **out)
{
  uint8_t *m = calloc(1, b->bytes ? b->bytes : 1);
  if (!m)
    return ts_fail(r->err, TS_ERR_NOMEM, "out of memory");
  if (b->data) { /* its own contents, or zeros where it has none (uninitialised) */
    if (b->data->bytes)
      memcpy(m, b->data->bytes, b->bytes);
    *out = m;
    return TS_OK;
  }
  double init = b->decl ? b->decl->init : 0, ramp = b->decl ? b->decl->ramp : 0;
  if (ramp != 0) { /* lane i of the elements, in order (not the rows' padding) */
    size_t row = (size_t)b->cols * (size_t)b->channels, i = 0;
    for (size_t y = 0; y < (size_t)b->rows; y++)
      for (size_t x = 0; x < row; x++, i++)
        put_lane(m + b->offset + y * b->step + x * (size_t)b->lane_bytes, b,
                 init + (double)i * ramp);
  } else if (init != 0) {
    for (size_t i = 0; i + (size_t)b->lane_bytes <= b->bytes; i += (size_t)b->lane_bytes)
      put_lane(m + i, b, init);
  }
  if (b->decl && b->decl->file[0]) {
    ts_status st = file_contents(r, b, m);
    if (st != TS_OK) {
      free(m);
      return st;
    }
  }
  if (b->role == TS_ARG_INPUT && !(b->decl && b->decl->has_init)) { /* (init= or file= instead) */
    ts_image *conv = NULL;
    const ts_image *src = img;
    if (img->c != b->channels) {
      ts_status st = ts_image_convert(img, b->channels, &conv, r->err);
      if (st != TS_OK) {
        free(m);
        return st;
      }
      src = conv;
    }
    int cols = b->cols < src->w ? b->cols : src->w, rows = b->rows < src->h ? b->rows : src->h;
    int as_bytes = b->lane_bytes == 1 && !b->is_float; /* the pixels' bytes as they are */
    for (int y = 0; y < rows && as_bytes; y++)
      memcpy(m + b->offset + (size_t)y * b->step, src->data + (size_t)y * (size_t)src->w * (size_t)src->c,
             (size_t)cols * (size_t)b->channels);
    for (int y = 0; y < rows && !as_bytes; y++)
      for (int x = 0; x < cols; x++)
        for (int c = 0; c < b->channels; c++)
          put_lane(m + b->offset + (size_t)y * b->step +
                       ((size_t)x * (size_t)b->channels + (size_t)c) * (size_t)b->lane_bytes,
                   b, src->data[((size_t)y * (size_t)src->w + (size_t)x) * (size_t)src->c + (size_t)c]);
    ts_image_destroy(conv);
  }
  *out = m;
  return TS_OK;
}

/* One lane's value, whatever its type. */
double ts_plain_lane_value(const uint8_t *p, const rbuf *b)
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

/* One lane as a byte: rounded and clamped to 0..255. */
uint8_t ts_plain_to_u8(const uint8_t *p, const rbuf *b)
{
  double v = floor(ts_plain_lane_value(p, b) + 0.5);
  return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* The output buffer read back: its pixels packed into res->raw, and shown as 8-bit values
 * in res->out: as they are when every one fits, else normalised to the largest (an integral
 * image's sums) or, with map=low8, their low 8 bits. */
ts_status ts_plain_read_output(runner *r, const rbuf *ob, const ts_image *in,
                               ts_plain_result *res)
{
  uint8_t *bytes = malloc(ob->bytes ? ob->bytes : 1);
  size_t row = (size_t)ob->cols * (size_t)ob->channels * (size_t)ob->lane_bytes;
  /* rows without padding are already packed: the bytes read are the raw pixels, not copied */
  int packed = ob->offset == 0 && ob->step == row && ob->bytes >= row * (size_t)ob->rows;
  uint8_t *raw = packed ? bytes : malloc(row * (size_t)ob->rows + 1);
  ts_image *o8 = NULL;
  ts_status st = TS_OK;
  if (!bytes || !raw)
    st = ts_fail(r->err, TS_ERR_NOMEM, "out of memory");
  cl_int e = CL_SUCCESS;
  size_t origin[3] = { 0, 0, 0 }, region[3] = { (size_t)ob->cols, (size_t)ob->rows, 1 };
  if (st == TS_OK)
    e = ob->image ? clEnqueueReadImage(r->q, ob->mem, CL_TRUE, origin, region, ob->step, 0, bytes,
                                       0, NULL, NULL)
                  : clEnqueueReadBuffer(r->q, ob->mem, CL_TRUE, 0, ob->bytes, bytes, 0, NULL, NULL);
  if (st == TS_OK && e != CL_SUCCESS)
    st = clfail(r, e, "reading the output");
  if (st == TS_OK)
    st = ts_image_create(ob->cols, ob->rows, ob->channels == 2 ? 1 : ob->channels, &o8, r->err);
  if (st == TS_OK) {
    for (int y = 0; y < ob->rows && !packed; y++)
      memcpy(raw + (size_t)y * row, bytes + ob->offset + (size_t)y * ob->step, row);
    size_t n = (size_t)ob->cols * (size_t)ob->rows * (size_t)ob->channels;
    int low8 = ob->decl && ob->decl->low8 && !ob->is_float;
    /* as they are when every value is a whole number in 0..255; else normalised, from 0 (or
     * the least value, when one is negative) to the largest */
    double top = 0, bottom = 0;
    int whole = 1;
    for (size_t i = 0; (ob->lane_bytes > 1 || ob->shown) && i < n; i++) {
      double v = ts_plain_lane_value(raw + i * (size_t)ob->lane_bytes, ob);
      top = v > top ? v : top;
      bottom = v < bottom ? v : bottom;
      whole &= v == floor(v);
    }
    /* a buffer shown as a grid: always spread over the greys, small counts too */
    int norm = (top > 255 || bottom < 0 || !whole || ob->shown) && top > bottom && !low8;
    if (low8)
      snprintf(res->mapping, sizeof res->mapping, "as their low 8 bits");
    else if (norm && bottom < 0)
      snprintf(res->mapping, sizeof res->mapping, "normalised: %.9g is 0, %.9g is 255", bottom,
               top);
    else
      snprintf(res->mapping, sizeof res->mapping, norm ? "normalised: %.17g is 255" : "as is", top);
    int step = ob->channels == 2 ? 2 : 1; /* two channels: the first, as grey */
    if (ob->lane_bytes == 1 && !ob->is_float && !ob->is_signed && !norm && step == 1) {
      memcpy(o8->data, raw, n); /* bytes as they are (each lane's own value, rounded) */
      n = 0;
    }
    for (size_t i = 0, j = 0; i < n; i += (size_t)step, j++) {
      const uint8_t *q = raw + i * (size_t)ob->lane_bytes;
      o8->data[j] = low8   ? (uint8_t)(int64_t)ts_plain_lane_value(q, ob)
                    : norm ? (uint8_t)((ts_plain_lane_value(q, ob) - bottom) * 255.0 / (top - bottom))
                           : ts_plain_to_u8(q, ob);
    }
    if (!ob->decl && (ob->channels == r->C || ob->image) && ob->channels != in->c) {
      ts_image *back = NULL;
      st = ts_image_convert(o8, in->c, &back, r->err);
      ts_image_destroy(o8);
      o8 = back;
    }
    res->raw = raw;
    raw = NULL;
    res->raw_bytes = row * (size_t)ob->rows;
    res->raw_cols = ob->cols;
    res->raw_rows = ob->rows;
    res->raw_lane = ob->lane_bytes;
    res->raw_channels = ob->channels;
    res->raw_float = ob->is_float;
    res->raw_signed = ob->is_signed;
    res->out = o8;
    o8 = NULL;
  }
  ts_image_destroy(o8);
  if (raw != bytes)
    free(raw);
  if (res->raw != bytes)
    free(bytes);
  return st;
}

/* The buffers given whole that the launch marks dump, read back in their order. */
ts_status ts_plain_read_dumps(runner *r, ts_plain_result *res)
{
  size_t n = 0;
  for (int i = 0; i < r->d->ndata; i++)
    n += r->d->data[i].dump ? r->d->data[i].size : 0;
  if (n == 0)
    return TS_OK;
  if (!(res->dump = malloc(n)))
    return ts_fail(r->err, TS_ERR_NOMEM, "out of memory");
  for (int i = 0; i < r->d->ndata; i++) {
    const ts_plain_data *dt = &r->d->data[i];
    if (!dt->dump || !dt->size)
      continue;
    const rbuf *b = NULL;
    for (int j = 0; j < r->nbufs; j++)
      if (r->bufs[j].data == dt && r->bufs[j].mem)
        b = &r->bufs[j];
    cl_int e = b ? clEnqueueReadBuffer(r->q, b->mem, CL_TRUE, 0, dt->size, res->dump +
                                       res->dump_bytes, 0, NULL, NULL)
                 : CL_SUCCESS; /* no pass took it: its first contents */
    if (!b && dt->bytes)
      memcpy(res->dump + res->dump_bytes, dt->bytes, dt->size);
    else if (!b)
      memset(res->dump + res->dump_bytes, 0, dt->size);
    if (e != CL_SUCCESS)
      return clfail(r, e, "reading a dumped buffer");
    res->dump_bytes += dt->size;
  }
  return TS_OK;
}
