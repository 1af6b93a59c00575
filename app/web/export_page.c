/* A run as one web page: the replay that finds when each output pixel takes its value, the
 * run's data as JSON (page_data.h), and the page around it from the embedded template, style
 * and scripts (app/web/, see export_page.h). */
#include "export_page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "page_data.h"
#include "page_plain.h"
#include "ts_file.h"
#include "ts_record.h"

/* app/web/ as C strings, made at build time (app/web/embed.cmake). */
extern const char ts_web_html[], ts_web_css[], ts_web_js[];

/* Bytes of one output pixel's values in the run's buffer: C, or 4 for the integral image. */
static int out_bpp(const ts_kctx *k)
{
  return k->buf[TS_BUF_OUT].esize == 4 ? 4 : k->C;
}

static int cmp_i64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

ts_status ex_replay(ex_run *r, ts_error *err)
{
  ts_run *run = r->run;
  const ts_kctx *k = ts_run_kctx(run);
  const ts_sched *s = ts_run_sched(run);
  const ts_buf *b = &k->buf[TS_BUF_OUT];
  int bpp = out_bpp(k);
  size_t npx = (size_t)k->W * (size_t)k->H, bytes = npx * (size_t)bpp;
  if (s->length >= (int64_t)UINT32_MAX - 1)
    return ts_fail(err, TS_ERR_TOO_LARGE, "the run is %lld ticks long; a page holds up to %u",
                   (long long)s->length, UINT32_MAX - 2);
  ts_status st = TS_OK;
  if (ts_run_params_of(run)->exec_device && !ts_run_device_result(run)) {
    ts_dev_opts o = { .record = 1, .stuck = -1 };
    if ((st = ts_run_device(run, &o, err)) != TS_OK)
      return st;
    if (!(r->dev_out = malloc(bytes)))
      return ts_fail(err, TS_ERR_NOMEM, "out of memory");
    memcpy(r->dev_out, b->data, bytes);
  }
  /* Output changes only when threads end: the distinct end ticks, in order. */
  int64_t *ends = malloc(((size_t)s->total + 1) * sizeof *ends);
  uint8_t *prev = calloc(bytes ? bytes : 1, 1);
  ts_rect *rects = malloc(TS_VIEW_RECTS * sizeof *rects);
  r->changed = calloc(npx ? npx : 1, sizeof *r->changed);
  if (!ends || !prev || !rects || !r->changed) {
    st = ts_fail(err, TS_ERR_NOMEM, "out of memory");
    goto done;
  }
  size_t ne = 0;
  for (int p = 0; p < s->npasses; p++)
    for (uint32_t i = 0; i < s->pass[p].n; i++)
      ends[ne++] = s->pass[p].t[i].end_tick;
  qsort(ends, ne, sizeof *ends, cmp_i64);
  if ((st = ts_run_rewind(run, err)) != TS_OK)
    goto done;
  memcpy(prev, b->data, bytes);
  ts_run_take_changed_rects(run, rects, TS_VIEW_RECTS);
  r->multi = 0;
  for (size_t e = 0; e < ne; e++) {
    if (e > 0 && ends[e] == ends[e - 1])
      continue;
    int64_t t = ends[e];
    if ((st = ts_run_seek(run, t, err)) != TS_OK)
      goto done;
    int n = ts_run_take_changed_rects(run, rects, TS_VIEW_RECTS);
    for (int i = 0; i < n; i++)
      for (int y = rects[i].y; y < rects[i].y + rects[i].h; y++)
        for (int x = rects[i].x; x < rects[i].x + rects[i].w; x++) {
          size_t px = (size_t)y * (size_t)k->W + (size_t)x, o = px * (size_t)bpp;
          if (memcmp(prev + o, b->data + o, (size_t)bpp) == 0)
            continue;
          r->multi += r->changed[px] != 0;
          r->changed[px] = (uint32_t)(t + 1);
          memcpy(prev + o, b->data + o, (size_t)bpp);
        }
  }
  st = ts_run_seek(run, s->length, err);
done:
  free(ends);
  free(prev);
  free(rects);
  return st;
}

void ex_run_free(ex_run *r)
{
  free(r->changed);
  free(r->dev_out);
  r->changed = NULL;
  r->dev_out = NULL;
}

int ex_frame_add(ex_frame *frames, int *n, int run, const ex_view *view, const char *caption)
{
  caption = caption ? caption : "";
  if (*n > 0) {
    const ex_frame *l = &frames[*n - 1];
    const ex_view *v = &l->view;
    if (l->run == run && v->tick == view->tick && v->device == view->device &&
        v->dev_time == view->dev_time && v->dev_pct == view->dev_pct &&
        strcmp(v->overlay ? v->overlay : "", view->overlay ? view->overlay : "") == 0 &&
        v->hover == view->hover && v->hover_x == view->hover_x && v->hover_y == view->hover_y &&
        v->zoom == view->zoom && v->cx == view->cx && v->cy == view->cy &&
        strcmp(l->caption, caption) == 0)
      return 1;
  }
  if (*n >= EX_MAX_FRAMES)
    return 0;
  frames[(*n)++] = (ex_frame){ run, *view, caption };
  return 1;
}

/* ---- the run's data ---- */

/* Writes ,"key": and an array of n values that get(i) gives. */
typedef struct arr_buf {
  int64_t *v;
  size_t cap;
} arr_buf;

static int64_t *arr_room(arr_buf *a, size_t n, ts_error *err)
{
  if (n > a->cap || !a->v) {
    int64_t *v = realloc(a->v, (n ? n : 1) * sizeof *v);
    if (!v) {
      ts_fail(err, TS_ERR_NOMEM, "out of memory");
      return NULL;
    }
    a->v = v;
    a->cap = n ? n : 1;
  }
  return a->v;
}

static ts_status put_arr(FILE *f, const char *key, arr_buf *a, size_t n, ts_error *err)
{
  fputc(',', f);
  pd_key(f, key);
  return pd_array(f, a->v, n, err);
}

/* Per thread of pass p, one field of its ts_thread (or of its footprint). */
enum { F_DISPATCH, F_SLOT, F_DTICK, F_STICK, F_ETICK, F_DEPTH, F_HAZ, F_RDX, F_RDY, F_RW, F_RH,
       F_TX, F_TY, F_TW, F_TH, F_COUNT };
static const char *const field_names[F_COUNT] = { "dispatch", "slot", "dtick", "stick", "etick",
                                                  "depth", "hz", "rdx", "rdy", "rw", "rh",
                                                  "tx0", "ty0", "tww", "thh" };

/* The regular tile of thread (tx, ty), as the viewer's overlay draws it: tile t0's size from
 * (0, 0) on, the axes swapped in a transposed pass, clipped to the image. */
static ts_rect regular_tile(const ts_kctx *k, ts_rect t0, int transposed, int tx, int ty)
{
  ts_rect r = { (transposed ? ty : tx) * t0.w, (transposed ? tx : ty) * t0.h, t0.w, t0.h };
  if (r.x + r.w > k->W)
    r.w = k->W - r.x > 0 ? k->W - r.x : 0;
  if (r.y + r.h > k->H)
    r.h = k->H - r.y > 0 ? k->H - r.y : 0;
  return r;
}

static ts_status write_pass(FILE *f, const ts_run *run, int p, arr_buf *a, ts_error *err)
{
  const ts_sched *s = ts_run_sched(run);
  const ts_pass_sched *ps = &s->pass[p];
  const ts_kctx *k = ts_run_kctx(run);
  const ts_pass_desc *pd = &ts_run_params_of(run)->variant->passes[p];
  ts_rect t0 = pd->tile_px(k, 0, 0), t1 = ps->tw > 1 ? pd->tile_px(k, 1, 0) : t0;
  ts_rect r0 = pd->read_px(k, 0, 0);
  int transposed = t1.y != t0.y;
  int regular = 1;
  for (uint32_t id = 0; id < ps->n && regular; id++) {
    int tx = (int)(id % (uint32_t)ps->tw), ty = (int)(id / (uint32_t)ps->tw);
    ts_rect t = pd->tile_px(k, tx, ty), g = regular_tile(k, t0, transposed, tx, ty);
    regular = t.x == g.x && t.y == g.y && t.w == g.w && t.h == g.h;
  }
  fputs("{", f);
  pd_key(f, "name");
  pd_string(f, pd->name);
  fputc(',', f);
  pd_key(f, "tile_words");
  pd_string(f, pd->tile);
  fprintf(f, ",\"tw\":%d,\"th\":%d,\"cost\":%d,\"t_begin\":%lld,\"t_end\":%lld,\"n\":%u,"
             "\"tile\":[%d,%d],\"transposed\":%d,\"read0\":[%d,%d],\"regular\":%d",
          ps->tw, ps->th, ps->cost, (long long)ps->t_begin, (long long)ps->t_end, ps->n, t0.w,
          t0.h, transposed, r0.w, r0.h, regular);
  /* The wait sets, as offsets into one list. */
  size_t nw = 0;
  for (uint32_t id = 0; id < ps->n; id++)
    nw += (size_t)(ps->t[id].nwait > 0 ? ps->t[id].nwait : 0);
  int64_t *v = arr_room(a, (nw > ps->n ? nw : ps->n) + 1, err);
  if (!v)
    return err->code;
  uint32_t tg[TS_PATTERN_MAX_VECTORS];
  v[0] = 0;
  for (uint32_t id = 0; id < ps->n; id++)
    v[id + 1] = v[id] + ts_sched_waits(s, p, id, tg);
  ts_status st = put_arr(f, "woff", a, (size_t)ps->n + 1, err);
  size_t at = 0;
  for (uint32_t id = 0; id < ps->n && st == TS_OK; id++) {
    int n = ts_sched_waits(s, p, id, tg);
    if (at + (size_t)n > a->cap && !arr_room(a, at + (size_t)n, err))
      return err->code;
    for (int i = 0; i < n; i++)
      a->v[at++] = tg[i];
  }
  if (st == TS_OK)
    st = put_arr(f, "wait", a, at, err);
  for (int fi = 0; fi < F_COUNT && st == TS_OK; fi++) {
    if (regular && fi >= F_TX)
      break;
    v = a->v;
    for (uint32_t id = 0; id < ps->n; id++) {
      const ts_thread *t = &ps->t[id];
      int tx = (int)(id % (uint32_t)ps->tw), ty = (int)(id / (uint32_t)ps->tw);
      ts_rect tile = regular ? regular_tile(k, t0, transposed, tx, ty) : pd->tile_px(k, tx, ty);
      ts_rect rd = fi >= F_RDX && fi <= F_RH ? pd->read_px(k, tx, ty) : tile;
      switch (fi) {
      case F_DISPATCH: v[id] = t->dispatch; break;
      case F_SLOT: v[id] = t->slot; break;
      case F_DTICK: v[id] = t->dispatch_tick; break;
      case F_STICK: v[id] = t->start_tick; break;
      case F_ETICK: v[id] = t->end_tick; break;
      case F_DEPTH: v[id] = t->depth; break;
      case F_HAZ: v[id] = t->hazards; break;
      case F_RDX: v[id] = rd.x - tile.x; break;
      case F_RDY: v[id] = rd.y - tile.y; break;
      case F_RW: v[id] = rd.w; break;
      case F_RH: v[id] = rd.h; break;
      case F_TX: v[id] = tile.x; break;
      case F_TY: v[id] = tile.y; break;
      case F_TW: v[id] = tile.w; break;
      default: v[id] = tile.h; break;
      }
    }
    st = put_arr(f, field_names[fi], a, ps->n, err);
  }
  fputc('}', f);
  return st;
}

/* The device's record: per pass and ticket the group, unit, lane and times; the wrong tiles
 * of the last pass by thread id; its output when it has one of its own. */
static ts_status write_device(FILE *f, const ex_run *r, arr_buf *a, ts_error *err)
{
  const ts_dev_run *d = ts_run_device_result(r->run);
  const ts_sched *s = ts_run_sched(r->run);
  const ts_kctx *k = ts_run_kctx(r->run);
  char line[400];
  ts_dev_summary(d, line, sizeof line);
  size_t nr;
  ts_run_races(r->run, &nr);
  fprintf(f, "{\"clock_ns\":%d,\"t_end\":%llu,\"lanes\":%d,\"units\":%d,\"nwrong\":%u,"
             "\"races\":%zu,\"mean_wait\":%.6g,\"kernel_ms\":%.6g,",
          d->clock_ns, (unsigned long long)d->t_end, d->lanes,
          d->npasses > 0 && d->pass[0].n > 0 && d->pass[0].rec[0].unit >= 0, d->nwrong, nr,
          ts_dev_mean_wait(d), d->kernel_ms);
  pd_key(f, "device");
  pd_string(f, d->device);
  fputc(',', f);
  pd_key(f, "summary");
  pd_string(f, line);
  fputc(',', f);
  pd_key(f, "record");
  pd_string(f, r->record);
  fputs(",\"passes\":[", f);
  ts_status st = TS_OK;
  for (int p = 0; p < d->npasses && st == TS_OK; p++) {
    const ts_dev_pass *dp = &d->pass[p];
    int64_t *v = arr_room(a, dp->n + 1, err);
    if (!v)
      return err->code;
    fprintf(f, "%s{\"n\":%u", p ? "," : "", dp->n);
    static const char *const keys[6] = { "group", "unit", "lane", "start", "waited", "end" };
    for (int fi = 0; fi < 6 && st == TS_OK; fi++) {
      for (uint32_t t = 0; t < dp->n; t++) {
        const ts_grec *g = &dp->rec[t];
        v[t] = fi == 0 ? g->group : fi == 1 ? g->unit : fi == 2 ? g->lane
             : fi == 3 ? (int64_t)g->start : fi == 4 ? (int64_t)g->waited : (int64_t)g->end;
      }
      st = put_arr(f, keys[fi], a, dp->n, err);
    }
    fputc('}', f);
  }
  const ts_pass_sched *last = &s->pass[s->npasses - 1];
  fputc(']', f);
  if (st == TS_OK && arr_room(a, last->n, err)) {
    for (uint32_t id = 0; id < last->n; id++)
      a->v[id] = d->wrong ? d->wrong[id] : 0;
    st = put_arr(f, "wrong", a, last->n, err);
  } else if (st == TS_OK) {
    st = err->code;
  }
  fputs(",\"out\":", f);
  if (st == TS_OK && r->dev_out)
    st = pd_planes(f, k->W, k->H, r->dev_out, out_bpp(k), out_bpp(k), err);
  else
    fputs("null", f);
  fputc('}', f);
  return st;
}

static void put_str(FILE *f, const char *key, const char *value)
{
  fputc(',', f);
  pd_key(f, key);
  pd_string(f, value);
}

static ts_status write_view(FILE *f, const ex_view *v)
{
  fprintf(f, "{\"tick\":%lld,", (long long)v->tick);
  pd_key(f, "overlay");
  pd_string(f, v->overlay ? v->overlay : "state");
  if (v->hover)
    fprintf(f, ",\"hover\":[%d,%d]", v->hover_x, v->hover_y);
  fprintf(f, ",\"device\":%d,\"dev_time\":%lld,\"dev_pct\":%.17g,\"zoom\":%.17g,"
             "\"center\":[%.17g,%.17g]}", v->device, (long long)v->dev_time, v->dev_pct, v->zoom,
          v->cx, v->cy);
  return TS_OK;
}

static ts_status write_run(FILE *f, const ex_run *r, int input_index, ts_error *err)
{
  const ts_run *run = r->run;
  const ts_run_params *p = ts_run_params_of(run);
  const ts_variant *var = p->variant;
  const ts_sched *s = ts_run_sched(run);
  const ts_kctx *k = ts_run_kctx(run);
  const ts_cl *cl = p->cl;
  arr_buf a = { 0 };
  double rd, wr;
  ts_run_traffic(run, &rd, &wr);
  fputc('{', f);
  pd_key(f, "label");
  pd_string(f, r->label);
  put_str(f, "variant", var->name);
  put_str(f, "filter", ts_filter_name(var->filter));
  put_str(f, "summary", var->summary ? var->summary : "");
  put_str(f, "pattern", ts_pattern_name(s->params.pattern));
  put_str(f, "walk", ts_walk_name(s->params.walk));
  put_str(f, "own_walk", ts_walk_name(ts_pattern_default_walk(s->params.pattern)));
  put_str(f, "backend", cl ? "cl" : "cpu");
  put_str(f, "device", cl ? ts_cl_device(cl)->name : "CPU model");
  put_str(f, "input", r->input_name);
  put_str(f, "note", r->note ? r->note : "");
  size_t nh;
  const ts_hazard *hz = ts_run_hazards(run, &nh);
  fprintf(f, ",\"slots\":%d,\"cost\":%d,\"W\":%d,\"H\":%d,\"Cin\":%d,\"C\":%d,\"bpp\":%d,"
             "\"wide\":%d,\"scale\":%u,\"length\":%lld,\"total\":%u,\"peak\":%u,"
             "\"mean_running\":%.6g,\"private\":%d,\"local\":%d,\"read_bytes\":%.17g,"
             "\"written_bytes\":%.17g,\"multi\":%zu,\"nhazards\":%zu,\"hazard_threads\":%zu,"
             "\"input_index\":%d,\"view\":",
          s->params.slots, p->cost, k->W, k->H, r->input->c, k->C, out_bpp(k),
          ts_run_output_u32(run) != NULL, ts_run_integral_scale(run), (long long)s->length,
          s->total, s->peak_resident, ts_sched_mean_running(s), var->private_bytes,
          var->local_bytes ? var->local_bytes(k) : 0, rd, wr, r->multi, nh,
          ts_run_hazardous_threads(run), input_index);
  write_view(f, &r->view);
  ts_status st = TS_OK;
  /* The hazards: pass, consumer and producer, in the run's order. */
  static const char *const hkeys[3] = { "hz_pass", "hz_consumer", "hz_producer" };
  for (int fi = 0; fi < 3 && st == TS_OK; fi++) {
    if (!arr_room(&a, nh, err)) {
      st = err->code;
      break;
    }
    for (size_t i = 0; i < nh; i++)
      a.v[i] = fi == 0 ? (int64_t)hz[i].pass : fi == 1 ? (int64_t)hz[i].consumer : (int64_t)hz[i].producer;
    st = put_arr(f, hkeys[fi], &a, nh, err);
  }
  /* Occupancy's change points. */
  static const char *const okeys[3] = { "occ_tick", "occ_resident", "occ_running" };
  for (int fi = 0; fi < 3 && st == TS_OK; fi++) {
    if (!arr_room(&a, s->nocc, err)) {
      st = err->code;
      break;
    }
    for (size_t i = 0; i < s->nocc; i++)
      a.v[i] = fi == 0 ? s->occ[i].tick : fi == 1 ? s->occ[i].resident : s->occ[i].running;
    st = put_arr(f, okeys[fi], &a, s->nocc, err);
  }
  fputs(",\"passes\":[", f);
  for (int pi = 0; pi < s->npasses && st == TS_OK; pi++) {
    if (pi)
      fputc(',', f);
    st = write_pass(f, run, pi, &a, err);
  }
  fputs("],\"out_planes\":", f);
  if (st == TS_OK)
    st = pd_planes(f, k->W, k->H, k->buf[TS_BUF_OUT].data, out_bpp(k), out_bpp(k), err);
  /* The tick map in as few bytes a pixel as its largest value needs. */
  uint32_t mx = 0;
  size_t npx = (size_t)k->W * (size_t)k->H;
  for (size_t i = 0; i < npx; i++)
    mx = r->changed[i] > mx ? r->changed[i] : mx;
  int nb = mx < 1u << 8 ? 1 : mx < 1u << 16 ? 2 : mx < 1u << 24 ? 3 : 4;
  fprintf(f, ",\"changed_bytes\":%d,\"changed_planes\":", nb);
  if (st == TS_OK) {
    /* little-endian bytes of each value, whatever the host's order */
    uint8_t *le = malloc(npx ? npx * 4 : 1);
    if (!le) {
      st = ts_fail(err, TS_ERR_NOMEM, "out of memory");
    } else {
      for (size_t i = 0; i < npx; i++)
        for (int b = 0; b < 4; b++)
          le[i * 4 + (size_t)b] = (uint8_t)(r->changed[i] >> (8 * b));
      st = pd_planes(f, k->W, k->H, le, 4, nb, err);
      free(le);
    }
  }
  fputs(",\"dev\":", f);
  const ts_dev_run *d = ts_run_device_result(run);
  if (st == TS_OK && d && d->npasses > 0 && d->pass[0].rec)
    st = write_device(f, r, &a, err);
  else
    fputs("null", f);
  fputc('}', f);
  free(a.v);
  return st;
}

/* ---- the page ---- */

/* Writes the template up to (not including) `marker` from *at, and moves *at past it. */
static int put_until(FILE *f, const char **at, const char *marker)
{
  const char *m = strstr(*at, marker);
  if (!m)
    return 0;
  fwrite(*at, 1, (size_t)(m - *at), f);
  *at = m + strlen(marker);
  return 1;
}

/* What a page's data holds after its title and size: its inputs and runs. */
typedef ts_status (*page_body)(FILE *f, const void *ctx, ts_error *err);

/* The page: the template with its style, the data (kind: "plain" for a plain kernel's run, or
 * NULL; then the body's inputs and runs) and the scripts, to a temporary file then renamed. */
static ts_status write_page(const char *path, const char *title, const char *kind, int size_w,
                            int size_h, page_body body, const void *ctx, ts_error *err)
{
  /* A script that closed its own element would end the page's code early. */
  if (strstr(ts_web_js, "</script") || strstr(ts_web_css, "</style"))
    return ts_fail(err, TS_ERR_ARG, "the page's embedded script or style closes its element");
  ts_outfile of;
  ts_status st = ts_outfile_open(&of, path, err);
  if (st != TS_OK)
    return st;
  FILE *f = of.f;
  const char *at = ts_web_html;
  if (!put_until(f, &at, "<!--TS:STYLE-->")) {
    ts_outfile_abort(&of);
    return ts_fail(err, TS_ERR_ARG, "the page template has no <!--TS:STYLE--> marker");
  }
  fprintf(f, "<style>\n%s</style>", ts_web_css);
  if (!put_until(f, &at, "<!--TS:DATA-->")) {
    ts_outfile_abort(&of);
    return ts_fail(err, TS_ERR_ARG, "the page template has no <!--TS:DATA--> marker");
  }
  fputs("<script type=\"application/json\" id=\"ts-data\">{\"format\":1,", f);
  if (kind) {
    pd_key(f, "kind");
    pd_string(f, kind);
    fputc(',', f);
  }
  pd_key(f, "title");
  pd_string(f, title);
  fprintf(f, ",\"size\":[%d,%d],", size_w, size_h);
  st = body(f, ctx, err);
  fputs("}</script>", f);
  if (st == TS_OK && !put_until(f, &at, "<!--TS:SCRIPT-->"))
    st = ts_fail(err, TS_ERR_ARG, "the page template has no <!--TS:SCRIPT--> marker");
  if (st != TS_OK) {
    ts_outfile_abort(&of);
    return st;
  }
  fprintf(f, "<script>\n%s</script>", ts_web_js);
  fputs(at, f);
  return ts_outfile_commit(&of, err);
}

/* An input image: its size, channels and planes. */
static ts_status put_input(FILE *f, const ts_image *in, ts_error *err)
{
  fprintf(f, "{\"w\":%d,\"h\":%d,\"c\":%d,\"planes\":", in->w, in->h, in->c);
  ts_status st = pd_planes(f, in->w, in->h, in->data, in->c, in->c, err);
  fputc('}', f);
  return st;
}

typedef struct sched_page {
  const ex_run *runs;
  int nruns;
  const ex_frame *frames;
  int nframes;
  const char *split; /* a split view's SPEC (runs[1] the right half), or NULL */
} sched_page;

/* The built-in variants' runs: each input once, however many runs show it, then the runs. */
static ts_status sched_body(FILE *f, const void *ctx, ts_error *err)
{
  const sched_page *sp = ctx;
  const ex_run *runs = sp->runs;
  ts_status st = TS_OK;
  int index[64], ninputs = 0;
  fputs("\"inputs\":[\n", f);
  for (int i = 0; i < sp->nruns && st == TS_OK; i++) {
    int k = 0;
    while (k < i && runs[k].input != runs[i].input)
      k++;
    if (k < i) {
      index[i] = index[k];
      continue;
    }
    index[i] = ninputs++;
    if (index[i])
      fputs(",\n", f);
    st = put_input(f, runs[i].input, err);
  }
  fputs("],\"runs\":[\n", f);
  for (int i = 0; i < sp->nruns && st == TS_OK; i++) {
    if (i)
      fputs(",\n", f);
    st = write_run(f, &runs[i], index[i], err);
  }
  /* A script's pauses: the page's captions and its printed handout. */
  fputs("],\n\"frames\":[", f);
  for (int i = 0; i < sp->nframes && st == TS_OK; i++) {
    fprintf(f, "%s{\"run\":%d,\"view\":", i ? ",\n" : "", sp->frames[i].run);
    write_view(f, &sp->frames[i].view);
    put_str(f, "caption", sp->frames[i].caption ? sp->frames[i].caption : "");
    fputc('}', f);
  }
  fputc(']', f);
  if (sp->split)
    put_str(f, "split", sp->split);
  return st;
}

ts_status ex_write_page(const char *path, const char *title, const ex_run *runs, int nruns,
                        const ex_frame *frames, int nframes, int size_w, int size_h,
                        ts_error *err)
{
  if (nruns < 1 || nruns > 64)
    return ts_fail(err, TS_ERR_ARG, "%s: a page holds 1 to 64 runs, not %d", path, nruns);
  for (int i = 0; i < nframes; i++)
    if (frames[i].run < 0 || frames[i].run >= nruns)
      return ts_fail(err, TS_ERR_ARG, "%s: frame %d shows run %d of %d", path, i, frames[i].run,
                     nruns);
  sched_page sp = { runs, nruns, frames, nframes, NULL };
  return write_page(path, title, NULL, size_w, size_h, sched_body, &sp, err);
}

ts_status ex_write_split_page(const char *path, const char *title, const ex_run *left,
                              const ex_run *right, const char *spec, int size_w, int size_h,
                              ts_error *err)
{
  ex_run two[2] = { *left, *right };
  sched_page sp = { two, 2, NULL, 0, spec };
  return write_page(path, title, NULL, size_w, size_h, sched_body, &sp, err);
}

/* A plain kernel's run: its input, then the run (page_plain.c); a split view's second run
 * (ctx: two ex_plain pointers, the second NULL for none) beside it. */
static ts_status plain_body(FILE *f, const void *ctx, ts_error *err)
{
  const ex_plain *const *pl = ctx;
  fputs("\"inputs\":[\n", f);
  ts_status st = put_input(f, pl[0]->input, err);
  fputs("],\"runs\":[\n", f);
  if (st == TS_OK)
    st = pl[1] ? pp_write_split(f, pl[0], pl[1], err) : pp_write_run(f, pl[0], err);
  fputc(']', f);
  return st;
}

ts_status ex_write_plain_page(const char *path, const char *title, const ex_plain *pl, int size_w,
                              int size_h, ts_error *err)
{
  const ex_plain *two[2] = { pl, NULL };
  return write_page(path, title, "plain", size_w, size_h, plain_body, two, err);
}

/* Declared in page_plain.h. */
ts_status ex_write_plain_split(const char *path, const char *title, const ex_plain *left,
                               const ex_plain *right, int size_w, int size_h, ts_error *err)
{
  const ex_plain *two[2] = { left, right };
  return write_page(path, title, "plain", size_w, size_h, plain_body, two, err);
}
