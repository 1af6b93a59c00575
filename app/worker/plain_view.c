/* A plain kernel in the viewer (see plain_view.h): the loader thread that reads the file (at
 * once, while the window starts) and runs it observed on its own ts_cl, saying which it is
 * doing (the progress line), the window's side that asks for runs and takes them (the
 * last good one kept when one fails), the file's mtime, the watched pixel's accesses made
 * into rows, and the queries the drawing reads: the launch shown, the work-group under a
 * point, a finding's tint. */
#define _XOPEN_SOURCE 700 /* sigaltstack (thread_sigstack.h) */
#include <SDL2/SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "plain_view.h"
#include "thread_sigstack.h"
#include "ts_file.h"
#include "ts_sim.h"

struct pv_thread {
  SDL_Thread *thr;
  SDL_mutex *mu;
  SDL_cond *cv;
  char path[1024], launch[1024], kernels_dir[1024];
  int device;
  ts_plain_opts order;       /* its order fields (plain_view_order's when it started) */
  ts_cl *cl;                 /* the thread's own, made on its first run */
  /* asked for (under mu) */
  int stop, has_req, busy;
  ts_image *req_input;       /* a new image, or NULL: the one it has */
  ts_image *input;           /* the thread's */
  int req_watch_x, req_watch_y; /* the watched pixel asked for */
  int watch_x, watch_y;      /* the thread's */
  /* finished, not taken yet (under mu) */
  int has_out;
  ts_plain_desc *out_desc;
  ts_plain_result *out_res;
  char out_error[1100];
  ts_status out_status;
  int out_watch_x, out_watch_y;
  pv_progress prog; uint64_t phase_ms; /* the progress line's (under mu), ms since phase_ms */
  ts_plain_desc *pre_desc; int64_t pre_mtime; /* the file read at the start; its mtime then */
};

/* The watchdog of runs in a worker program (plain_view_isolate), or 0: in this process. */
static double isolate_timeout;

static int64_t file_mtime(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 ? ts_mtime_ns(&st) : 0;
}

/* The later mtime of the kernel file and its launch file. */
static int64_t files_mtime(const pv_thread *t)
{
  int64_t a = file_mtime(t->path), b = t->launch[0] ? file_mtime(t->launch) : 0;
  return a > b ? a : b;
}

static void set_phase(pv_thread *t, int phase)
{
  SDL_LockMutex(t->mu);
  t->prog.phase = phase;
  t->phase_ms = SDL_GetTicks64();
  SDL_UnlockMutex(t->mu);
}

/* The file and its launch read and described (an Oclgrind simulator file's too). */
static ts_status load(pv_thread *t, ts_plain_desc **d, ts_error *err)
{
  size_t pn = strlen(t->path);
  if (pn <= 4 || strcasecmp(t->path + pn - 4, ".sim") != 0) /* not Oclgrind's simulator file */
    return ts_plain_load_launch(t->path, t->launch[0] ? t->launch : NULL, NULL, 0,
                                isolate_timeout, d, err);
  ts_sim *sf = NULL; /* (and the image it gives, which the window has from a PNG of it) */
  ts_image *unused = NULL;
  ts_status st = ts_sim_load(t->path, isolate_timeout, &sf, d, &unused, err);
  ts_sim_free(sf);
  ts_image_destroy(unused);
  return st;
}

void plain_view_isolate(double timeout_s)
{
  isolate_timeout = timeout_s;
}

static ts_plain_opts run_order; /* its order fields */

void plain_view_order(const ts_plain_opts *o)
{
  run_order.order = o->order;
  run_order.order_seed = o->order_seed;
  run_order.resident = o->resident;
  snprintf(run_order.order_file, sizeof run_order.order_file, "%s", o->order_file);
}

void plain_view_order_words(char *b, size_t n)
{
  ts_plain_order_words(&run_order, b, n);
}

void plain_view_words(const plain_view *pv, char *b, size_t n)
{
  ts_plain_order_words(&pv->t->order, b, n);
}

void plain_view_order_name(const plain_view *pv, char *b, size_t n)
{
  const ts_plain_opts *o = &pv->t->order;
  const char *slash = strrchr(o->order_file, '/');
  if (o->order == TS_ORDER_REVERSE)
    snprintf(b, n, "reverse order");
  else if (o->order == TS_ORDER_RANDOM)
    snprintf(b, n, "order random:%u", o->order_seed);
  else if (o->order == TS_ORDER_LINEAR)
    snprintf(b, n, "linear order");
  else if (o->order == TS_ORDER_LIST)
    snprintf(b, n, "order %s", slash ? slash + 1 : o->order_file);
  else
    snprintf(b, n, "device order");
}

void plain_view_set_order(plain_view *pv, int order, uint32_t seed, const char *file)
{
  pv_thread *t = pv->t;
  SDL_LockMutex(t->mu);
  t->order.order = order;
  t->order.order_seed = seed;
  snprintf(t->order.order_file, sizeof t->order.order_file, "%s", file ? file : "");
  if (order == TS_ORDER_DEVICE)
    t->order.resident = 0;
  SDL_UnlockMutex(t->mu);
}

/* One attempt: the file read and described, then run observed on the image. */
static void attempt(pv_thread *t, ts_plain_desc **d, ts_plain_result **r, char *error, size_t n,
                    ts_status *status)
{
  *status = TS_OK;
  ts_error err = { 0 };
  *d = NULL;
  *r = NULL;
  error[0] = 0;
  if (!t->input) {
    snprintf(error, n, "no image");
    return;
  }
  if (isolate_timeout <= 0 && !t->cl &&
      ts_cl_create(t->device, t->kernels_dir, &t->cl, &err) != TS_OK) {
    t->cl = NULL;
    snprintf(error, n, "%s", err.msg);
    return;
  }
  if (t->pre_desc && files_mtime(t) != t->pre_mtime) /* read at the start, changed since */
    ts_plain_desc_free(t->pre_desc);
  else
    *d = t->pre_desc;
  t->pre_desc = NULL;
  if (!*d)
    set_phase(t, PV_PHASE_PARSE);
  ts_status lst = *d ? TS_OK : load(t, d, &err);
  if (lst != TS_OK) {
    ts_plain_desc_free(*d);
    *d = NULL;
    snprintf(error, n, "%s", err.msg);
    return;
  }
  ts_plain_opts o = { .observe = 1, .chosen_pass = -1, .repeats = 1, .watch_x = t->watch_x,
                      .watch_y = t->watch_y, .order = t->order.order, .order_seed = t->order.order_seed,
                      .resident = t->order.resident };
  snprintf(o.order_file, sizeof o.order_file, "%s", t->order.order_file);
  for (int i = 0; i < 3; i++)
    o.chosen_group[i] = o.chosen_item[i] = i ? 0 : -1;
  /* isolated: a kernel that crashes, corrupts memory or never ends costs the worker program
   * (this process has threads: ts_plain_run_isolated execs one), and the window keeps its
   * last good run */
  set_phase(t, PV_PHASE_RUN);
  ts_status st = isolate_timeout > 0 ? ts_plain_run_isolated(t->device, t->kernels_dir, *d, t->input,
                                                             &o, isolate_timeout, r, &err)
                                     : ts_plain_run(t->cl, *d, t->input, &o, r, &err);
  *status = st;
  if (st != TS_OK) {
    *r = NULL;
    ts_plain_desc_free(*d);
    *d = NULL;
    snprintf(error, n, "%s", err.msg);
  }
}

static int loader_main(void *ud)
{
  pv_thread *t = ud;
  vw_sigstack ss; /* pocl's LLVM compiles here (thread_sigstack.h) */
  vw_sigstack_save(&ss);
  /* The file read now, while the window starts (a failure: the first attempt says why). */
  ts_error err = { 0 };
  t->pre_mtime = files_mtime(t);
  if (load(t, &t->pre_desc, &err) != TS_OK)
    t->pre_desc = NULL;
  SDL_LockMutex(t->mu);
  for (;;) {
    while (!t->stop && !t->has_req)
      SDL_CondWait(t->cv, t->mu);
    if (t->stop)
      break;
    t->has_req = 0;
    t->busy = 1;
    if (t->req_input) {
      ts_image_destroy(t->input);
      t->input = t->req_input;
      t->req_input = NULL;
    }
    t->watch_x = t->req_watch_x;
    t->watch_y = t->req_watch_y;
    t->prog.w = t->input ? t->input->w : 0;
    t->prog.h = t->input ? t->input->h : 0;
    SDL_UnlockMutex(t->mu);
    ts_plain_desc *d;
    ts_plain_result *r;
    char error[sizeof t->out_error];
    ts_status status;
    attempt(t, &d, &r, error, sizeof error, &status);
    SDL_LockMutex(t->mu);
    /* An attempt not taken yet is replaced by the newer one. */
    ts_plain_result_free(t->out_res);
    ts_plain_desc_free(t->out_desc);
    t->out_desc = d;
    t->out_res = r;
    snprintf(t->out_error, sizeof t->out_error, "%s", error);
    t->out_status = status;
    t->out_watch_x = t->watch_x;
    t->out_watch_y = t->watch_y;
    t->has_out = 1;
    t->busy = 0;
    t->prog.last_ms = r ? (double)(SDL_GetTicks64() - t->phase_ms) : t->prog.last_ms;
    t->prog.phase = PV_PHASE_NONE;
  }
  SDL_UnlockMutex(t->mu);
  vw_sigstack_restore(&ss);
  return 0;
}

plain_view *plain_view_start(const char *path, const char *launch, const char *kernels_dir,
                             int device)
{
  if (!kernels_dir || !*kernels_dir) {
    fprintf(stderr, "tilescope: --kernel-file %s: a plain kernel is observed through "
                    "kernels/plain/observe.cl: give the kernels folder (--kernels DIR)\n", path);
    return NULL;
  }
  plain_view *pv = calloc(1, sizeof *pv);
  pv_thread *t = calloc(1, sizeof *t);
  if (!pv || !t) {
    fprintf(stderr, "tilescope: out of memory\n");
    free(pv);
    free(t);
    return NULL;
  }
  snprintf(pv->path, sizeof pv->path, "%s", path);
  const char *slash = strrchr(pv->path, '/');
  pv->name = slash ? slash + 1 : pv->path;
  pv->watch_x = pv->watch_y = pv->res_watch_x = pv->res_watch_y = -1;
  t->req_watch_x = t->req_watch_y = -1;
  pv->t = t;
  snprintf(t->path, sizeof t->path, "%s", path);
  snprintf(t->launch, sizeof t->launch, "%s", launch ? launch : "");
  pv->mtime = files_mtime(pv->t);
  snprintf(t->kernels_dir, sizeof t->kernels_dir, "%s", kernels_dir);
  t->device = device;
  t->order = run_order;
  t->mu = SDL_CreateMutex();
  t->cv = SDL_CreateCond();
  t->thr = t->mu && t->cv ? SDL_CreateThread(loader_main, "tilescope-plain", t) : NULL;
  if (!t->thr) {
    fprintf(stderr, "tilescope: cannot start the plain kernel's thread: %s\n", SDL_GetError());
    plain_view_stop(pv);
    return NULL;
  }
  return pv;
}

static void drop_result(plain_view *pv)
{
  for (int p = 0; p < TS_PLAIN_MAX_PASSES; p++) {
    free(pv->tint[p]);
    pv->tint[p] = NULL;
  }
  ts_plain_result_free(pv->res);
  ts_plain_desc_free(pv->desc);
  free(pv->rows);
  pv->res = NULL;
  pv->desc = NULL;
  pv->rows = NULL;
  pv->nrows = pv->nwriters = 0;
}

void plain_view_stop(plain_view *pv)
{
  if (!pv)
    return;
  pv_thread *t = pv->t;
  if (t->thr) {
    SDL_LockMutex(t->mu);
    t->stop = 1;
    SDL_CondSignal(t->cv);
    SDL_UnlockMutex(t->mu);
    SDL_WaitThread(t->thr, NULL);
  }
  if (t->cv)
    SDL_DestroyCond(t->cv);
  if (t->mu)
    SDL_DestroyMutex(t->mu);
  ts_plain_result_free(t->out_res);
  ts_plain_desc_free(t->out_desc);
  ts_plain_desc_free(t->pre_desc);
  ts_image_destroy(t->req_input);
  ts_image_destroy(t->input);
  ts_cl_destroy(t->cl);
  free(t);
  drop_result(pv);
  free(pv);
}

/* Hands the thread an attempt: on `copy` (a new image, taken) or the one it has, with the
 * watched pixel asked for. */
static void ask(plain_view *pv, ts_image *copy)
{
  pv->done = 0;
  pv_thread *t = pv->t;
  SDL_LockMutex(t->mu);
  if (copy) {
    ts_image_destroy(t->req_input);
    t->req_input = copy;
  }
  t->req_watch_x = pv->watch_x;
  t->req_watch_y = pv->watch_y;
  t->has_req = 1;
  SDL_CondSignal(t->cv);
  SDL_UnlockMutex(t->mu);
}

void plain_view_request(plain_view *pv, const ts_image *input, uint64_t input_gen, int reload)
{
  int new_input = !pv->requested || input_gen != pv->input_gen;
  if (!input || (!new_input && !reload))
    return;
  ts_image *copy = NULL;
  ts_error err = { 0 };
  if (new_input && ts_image_clone(input, &copy, &err) != TS_OK) {
    snprintf(pv->error, sizeof pv->error, "%s", err.msg);
    return;
  }
  pv->input_gen = input_gen;
  pv->requested = 1;
  ask(pv, copy);
}

void plain_view_watch(plain_view *pv, int x, int y)
{
  pv->watch_x = x < 0 || y < 0 ? -1 : x;
  pv->watch_y = x < 0 || y < 0 ? -1 : y;
  if (pv->requested) /* before the first request, the first run takes it */
    ask(pv, NULL);
}

int plain_view_kind_tint(int kind)
{
  int orange = kind == TS_FIND_UNINIT || kind == TS_FIND_FOOTPRINT || kind == TS_FIND_TILE ||
               kind == TS_FIND_ALIGN;
  return orange ? PV_ORANGE : PV_RED;
}

/* Each work-group's tint: the strongest of the findings whose places name it. */
static void make_tints(plain_view *pv)
{
  const ts_plain_result *r = pv->res;
  memset(pv->ntinted, 0, sizeof pv->ntinted);
  for (int p = 0; p < r->npasses; p++)
    pv->tint[p] = calloc(r->launch[p].ngroups_all + 1u, 1);
  /* every work-group a finding was made in (a finding keeps only its first places) */
  for (int p = 0; p < r->npasses; p++)
    for (uint32_t g = 0; pv->tint[p] && r->launch[p].groups && g < r->launch[p].ngroups_all; g++)
      for (int kind = 0; kind < TS_NFIND; kind++)
        if (r->launch[p].groups[g].kinds >> kind & 1 &&
            pv->tint[p][g] < (uint8_t)plain_view_kind_tint(kind))
          pv->tint[p][g] = (uint8_t)plain_view_kind_tint(kind);
  for (size_t i = 0; i < r->nfindings; i++) { /* where no group's kinds came back */
    const ts_plain_finding *f = &r->findings[i];
    if (f->pass < 0 || f->pass >= r->npasses || !pv->tint[f->pass] || r->launch[f->pass].groups)
      continue;
    for (int j = 0; j < f->nplaces; j++) {
      uint32_t g = f->place[j].group;
      uint8_t tint = (uint8_t)plain_view_kind_tint(f->kind);
      if (g < r->launch[f->pass].ngroups_all && pv->tint[f->pass][g] < tint)
        pv->tint[f->pass][g] = tint;
    }
  }
  for (int p = 0; p < r->npasses; p++)
    for (uint32_t g = 0; pv->tint[p] && g < r->launch[p].ngroups_all; g++)
      pv->ntinted[p][pv->tint[p][g]]++;
}

/* The channels of a row: "channel 2", "channels 0-2" or "channels 0,2". */
static void channels_text(uint64_t m, char *b, size_t n)
{
  int lo = -1, hi = -1, count = 0, contiguous = 1;
  for (int c = 0; c < 64; c++)
    if (m >> c & 1) {
      if (lo < 0)
        lo = c;
      else if (c != hi + 1)
        contiguous = 0;
      hi = c;
      count++;
    }
  if (count == 1) {
    snprintf(b, n, "channel %d", lo);
  } else if (contiguous) {
    snprintf(b, n, "channels %d-%d", lo, hi);
  } else {
    size_t len = (size_t)snprintf(b, n, "channels ");
    for (int c = 0; c < 64 && len < n; c++)
      if (m >> c & 1)
        len += (size_t)snprintf(b + len, n - len, "%s%d", c == lo ? "" : ",", c);
  }
}

/* One access of the watched pixel: its element without the channel, and the channels it
 * spans (0 when the element has none: a one-channel buffer, __local memory). */
static uint64_t access_element(const plain_view *pv, int pass, const ts_plain_access *a,
                               char *el, size_t n)
{
  const ts_plain_launch *L = &pv->res->launch[pass];
  ts_plain_place pl = { .space = a->space, .buf = a->buf, .acc = a->acc, .off = a->off };
  if (a->space == 1 || a->buf < 0 || a->buf >= L->nbufs || a->off < 0 || L->buf[a->buf].channels <= 1) {
    ts_plain_element_name(pv->desc, pv->res, pass, &pl, el, n);
    return 0;
  }
  int lane = L->buf[a->buf].lane > 0 ? L->buf[a->buf].lane : 1, C = L->buf[a->buf].channels;
  int64_t c = a->off % ((int64_t)C * lane) / lane;
  pl.off = a->off - c * lane; /* channel 0 of its pixel */
  ts_plain_element_name(pv->desc, pv->res, pass, &pl, el, n);
  char *ch = strstr(el, " channel 0");
  if (!ch || ch[10] != 0)
    return 0;
  *ch = 0;
  uint64_t m = 0;
  int64_t lanes = a->bytes > (uint32_t)lane ? a->bytes / (uint32_t)lane : 1;
  for (int64_t k = c; k < c + lanes && k < C && k < 64; k++)
    m |= 1ull << k;
  return m;
}

/* The watched pixel's accesses of every pass as rows: one per work-item, line, kind of
 * access and element, its channels collapsed; writers first, each in the log's order. */
static void make_rows(plain_view *pv)
{
  const ts_plain_result *r = pv->res;
  size_t total = 0;
  pv->log_cut = 0;
  for (int p = 0; p < r->npasses; p++) {
    total += r->launch[p].nlog;
    pv->log_cut |= r->launch[p].nlog < r->launch[p].nlog_all;
  }
  pv_watch_row *rows = total ? calloc(total, sizeof *rows) : NULL;
  size_t n = 0;
  for (int p = 0; rows && p < r->npasses; p++) {
    const ts_plain_launch *L = &r->launch[p];
    for (size_t i = 0; i < L->nlog; i++) {
      const ts_plain_access *a = &L->log[i];
      if (!a->watched)
        continue;
      pv_watch_row w = { .pass = p, .line = a->line, .acc = a->acc, .group = a->group,
                         .item = a->item, .space = a->space, .buf = a->buf,
                         .writes = a->acc >= 2 && a->acc <= 4 };
      w.channels = access_element(pv, p, a, w.element, sizeof w.element);
      /* The row to join: among the last 256 (a work-item's channels come close together
       * in the log; a pixel that thousands of work-items touch stays linear) */
      size_t j = n > 256 ? n - 256 : 0;
      while (j < n && !(rows[j].pass == p && rows[j].line == w.line && rows[j].acc == w.acc &&
                        rows[j].group == w.group && rows[j].item == w.item &&
                        rows[j].space == w.space && rows[j].buf == w.buf &&
                        strcmp(rows[j].element, w.element) == 0))
        j++;
      if (j < n)
        rows[j].channels |= w.channels;
      else
        rows[n++] = w;
    }
  }
  /* Writers first, a stable order. */
  pv->rows = n ? malloc(n * sizeof *rows) : NULL;
  pv->nrows = pv->nwriters = 0;
  for (int pick = 1; pv->rows && pick >= 0; pick--)
    for (size_t j = 0; j < n; j++)
      if (rows[j].writes == pick)
        pv->rows[pv->nrows++] = rows[j];
  free(rows);
  static const char *const verbs[] = { "reads", "reads", "writes", "updates", "atomic on" };
  for (size_t j = 0; j < pv->nrows; j++) {
    pv_watch_row *w = &pv->rows[j];
    const ts_plain_launch *L = &r->launch[w->pass];
    char g[40], it[40], ch[96] = "", pass[24] = "";
    ts_plain_group_name(L, w->group, g, sizeof g);
    ts_plain_item_name(L, w->item, it, sizeof it);
    if (w->channels) {
      ch[0] = ' ';
      channels_text(w->channels, ch + 1, sizeof ch - 1);
    }
    if (r->npasses > 1)
      snprintf(pass, sizeof pass, "pass %d, ", w->pass + 1);
    int split = snprintf(w->text, sizeof w->text, "%sline %d: work-group %s item %s", pass,
                         w->line, g, it);
    w->split = split > 0 && (size_t)split < sizeof w->text ? split : 0;
    snprintf(w->text + w->split, sizeof w->text - (size_t)w->split, " %s %s%s",
             verbs[w->acc >= 1 && w->acc <= 4 ? w->acc : 1], w->element, ch);
    pv->nwriters += (size_t)w->writes;
  }
}

int plain_view_pick_up(plain_view *pv)
{
  pv_thread *t = pv->t;
  SDL_LockMutex(t->mu);
  int took = t->has_out;
  ts_plain_desc *d = t->out_desc;
  ts_plain_result *r = t->out_res;
  int wx = t->out_watch_x, wy = t->out_watch_y;
  if (took) {
    snprintf(pv->error, sizeof pv->error, "%s", t->out_error);
    pv->error_status = t->out_status;
    t->out_desc = NULL;
    t->out_res = NULL;
    t->has_out = 0;
  }
  SDL_UnlockMutex(t->mu);
  if (!took)
    return 0;
  pv->done = 1;
  if (r) {
    drop_result(pv);
    pv->desc = d;
    pv->res = r;
    make_tints(pv);
    pv->res_watch_x = wx;
    pv->res_watch_y = wy;
    if (wx >= 0)
      make_rows(pv);
    pv->serial++;
    if (pv->pass < 0 || pv->pass >= r->npasses || pv->serial == 1)
      pv->pass = r->npasses - 1; /* the pass that writes the output */
  }
  return 1;
}

void plain_view_progress(const plain_view *pv, pv_progress *p)
{
  SDL_LockMutex(pv->t->mu);
  *p = pv->t->prog;
  p->ms = p->phase ? (double)(SDL_GetTicks64() - pv->t->phase_ms) : 0;
  SDL_UnlockMutex(pv->t->mu);
}

int plain_view_busy(plain_view *pv)
{
  pv_thread *t = pv->t;
  SDL_LockMutex(t->mu);
  int busy = t->has_req || t->busy || t->has_out;
  SDL_UnlockMutex(t->mu);
  return busy;
}

int plain_view_poll(plain_view *pv)
{
  int64_t m = files_mtime(pv->t);
  if (m == pv->mtime)
    return 0;
  pv->mtime = m;
  return 1;
}

void plain_view_next_pass(plain_view *pv)
{
  if (pv->res && pv->res->npasses > 0)
    pv->pass = (pv->pass + 1) % pv->res->npasses;
}

const ts_plain_launch *plain_view_launch(const plain_view *pv)
{
  if (!pv || !pv->res || pv->pass < 0 || pv->pass >= pv->res->npasses)
    return NULL;
  return &pv->res->launch[pv->pass];
}

int plain_view_group_wrote_watched(const plain_view *pv, uint32_t g)
{
  for (size_t i = 0; i < pv->nwriters; i++)
    if (pv->rows[i].pass == pv->pass && pv->rows[i].group == g)
      return 1;
  return 0;
}

int plain_view_group_at(const plain_view *pv, float x, float y, uint32_t *g)
{
  const ts_plain_launch *L = plain_view_launch(pv);
  if (!L || !L->groups || x < 0 || y < 0)
    return 0;
  int px = (int)x, py = (int)y, best = -1;
  for (uint32_t i = 0; i < L->ngroups_all; i++) {
    ts_plain_rect r = L->groups[i].wrote;
    if (px < r.x0 || py < r.y0 || px > r.x1 || py > r.y1)
      continue;
    int d = (px - r.x0) + (py - r.y0);
    if (best < 0 || d < best) {
      best = d;
      *g = i;
    }
  }
  return best >= 0;
}

int plain_view_barriers_by(const ts_plain_group *G, uint32_t t)
{
  int n = 0;
  for (uint32_t b = 0; b < G->nbar && b < TS_PLAIN_REC_BARS; b++)
    n += G->bar[b] && G->bar[b] <= t;
  return n;
}

int plain_view_group_state(const ts_plain_group *G, uint32_t t)
{
  if (!G->start || G->start > t)
    return PV_PENDING;
  if (G->end && G->end <= t)
    return PV_DONE;
  return plain_view_barriers_by(G, t) ? PV_PAST_BARRIER : PV_RUNNING;
}

uint32_t plain_view_ticks(const plain_view *pv)
{
  const ts_plain_launch *L = plain_view_launch(pv);
  return L && L->groups ? L->ticks : 0;
}

static int rect_none(ts_plain_rect r)
{
  return r.x1 < r.x0 || r.y1 < r.y0;
}

int plain_view_changed_between(const plain_view *pv, uint32_t a, uint32_t b, ts_plain_rect *r)
{
  const ts_plain_launch *L = plain_view_launch(pv);
  uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
  int any = 0;
  for (uint32_t g = 0; L && L->groups && lo != hi && g < L->ngroups_all; g++) {
    const ts_plain_group *G = &L->groups[g];
    if (!G->end || G->end <= lo || G->end > hi || rect_none(G->wrote))
      continue;
    if (!any)
      *r = G->wrote;
    r->x0 = G->wrote.x0 < r->x0 ? G->wrote.x0 : r->x0;
    r->y0 = G->wrote.y0 < r->y0 ? G->wrote.y0 : r->y0;
    r->x1 = G->wrote.x1 > r->x1 ? G->wrote.x1 : r->x1;
    r->y1 = G->wrote.y1 > r->y1 ? G->wrote.y1 : r->y1;
    any = 1;
  }
  return any;
}

void plain_view_output_at(const plain_view *pv, uint32_t t, int x0, int y0, int x1, int y1,
                          uint8_t *dst)
{
  const ts_image *o = pv->res ? pv->res->out : NULL;
  if (!o)
    return;
  x0 = x0 < 0 ? 0 : x0;
  y0 = y0 < 0 ? 0 : y0;
  x1 = x1 > o->w ? o->w : x1;
  y1 = y1 > o->h ? o->h : y1;
  if (x1 <= x0 || y1 <= y0)
    return;
  size_t C = (size_t)o->c, row = (size_t)o->w * C;
  for (int y = y0; y < y1; y++)
    memcpy(dst + (size_t)y * row + (size_t)x0 * C, o->data + (size_t)y * row + (size_t)x0 * C,
           (size_t)(x1 - x0) * C);
  const ts_plain_launch *L = plain_view_launch(pv);
  if (!plain_view_ticks(pv))
    return; /* no record: the output as it ended */
  /* Not there yet: the background's dark, a trace of the value left in it (the shader's
   * masked(), image.frag, as the device view masks its unfinished tiles). */
  static const uint8_t bg[4] = { 26, 28, 33, 255 };
  for (uint32_t g = 0; g < L->ngroups_all; g++) {
    const ts_plain_group *G = &L->groups[g];
    if ((G->end && G->end <= t) || rect_none(G->wrote))
      continue;
    int gx0 = G->wrote.x0 > x0 ? G->wrote.x0 : x0, gy0 = G->wrote.y0 > y0 ? G->wrote.y0 : y0;
    int gx1 = G->wrote.x1 + 1 < x1 ? G->wrote.x1 + 1 : x1;
    int gy1 = G->wrote.y1 + 1 < y1 ? G->wrote.y1 + 1 : y1;
    for (int y = gy0; y < gy1; y++) {
      const uint8_t *s = o->data + (size_t)y * row + (size_t)gx0 * C;
      uint8_t *d = dst + (size_t)y * row + (size_t)gx0 * C;
      for (int x = gx0; x < gx1; x++, s += C, d += C)
        for (size_t c = 0; c < C && c < 3; c++) {
          unsigned b = C <= 2 ? bg[1] : bg[c];
          d[c] = (uint8_t)((s[c] * 7u + b * 93u + 50u) / 100u);
        }
    }
  }
}

long long plain_view_differ(const plain_view *a, const plain_view *b)
{
  return ts_plain_differ(a->res, b->res);
}

void plain_view_differ_line(const plain_view *a, const plain_view *b, char *buf, size_t n)
{
  long long d = plain_view_differ(a, b);
  if (d < 0)
    snprintf(buf, n, "%s", a->res || a->error[0] ? "no output to compare in one order yet"
                                                 : "comparing the outputs...");
  else
    ts_plain_differ_words(d, buf, n);
}

/* ---- findings and source lines, for the source pane (draw_source.c) ---- */

int plain_view_sides(const ts_plain_finding *f, pv_side *a, pv_side *b)
{
  const ts_plain_place *p = &f->place[0];
  *a = (pv_side){ f->line, p->acc, p->group, p->item };
  *b = (pv_side){ 0, 0, UINT32_MAX, UINT32_MAX };
  if (f->nplaces < 1) {
    a->group = a->item = UINT32_MAX;
    return 0;
  }
  switch (f->kind) {
  case TS_FIND_RACE_GROUPS: /* the other group, not its work-item (the record keeps none) */
    *b = (pv_side){ p->other_line, p->other_acc, p->other_group, UINT32_MAX };
    return 1;
  case TS_FIND_RACE_LOCAL:
  case TS_FIND_RACE_GLOBAL:
    *b = (pv_side){ p->other_line, p->other_acc, p->group, p->other_item };
    return 1;
  case TS_FIND_DIVERGE: /* the barrier that depends on the branch */
    b->line = p->other_line;
    return 0;
  default:
    return 0;
  }
}

size_t plain_view_line_findings(const plain_view *pv, int line, size_t *idx, size_t max)
{
  size_t n = 0;
  for (size_t i = 0; pv->res && line > 0 && i < pv->res->nfindings; i++)
    if (pv->res->findings[i].line == line) {
      if (n < max)
        idx[n] = i;
      n++;
    }
  return n;
}

static int cmp_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* What the result tells of which work-groups of the pass shown ran which lines (each side of
 * each finding's places, each watched row): with line > 0 the groups that ran it, else the
 * lines that group `group` ran; the ascending distinct ones, the first max into out. */
static size_t lines_and_groups(const plain_view *pv, int line, uint32_t group, uint32_t *out,
                               size_t max)
{
  const ts_plain_launch *L = plain_view_launch(pv);
  size_t cap = 0, n = 0, k = 0;
  for (size_t i = 0; L && i < pv->res->nfindings; i++)
    cap += 2 * TS_PLAIN_PLACES;
  uint32_t *v = L ? malloc((cap + pv->nrows + 1) * sizeof *v) : NULL;
  for (size_t i = 0; v && i < pv->res->nfindings; i++) {
    const ts_plain_finding *f = &pv->res->findings[i];
    for (int j = 0; f->pass == pv->pass && j < f->nplaces && j < TS_PLAIN_PLACES; j++) {
      ts_plain_finding one = *f;
      one.place[0] = f->place[j];
      pv_side s[2];
      int sides = 1 + plain_view_sides(&one, &s[0], &s[1]);
      for (int e = 0; e < sides; e++)
        if (s[e].line > 0 && s[e].group < L->ngroups_all &&
            (line > 0 ? s[e].line == line : s[e].group == group))
          v[n++] = line > 0 ? s[e].group : (uint32_t)s[e].line;
    }
  }
  for (size_t i = 0; v && i < pv->nrows; i++) {
    const pv_watch_row *w = &pv->rows[i];
    if (w->pass == pv->pass && w->group < L->ngroups_all &&
        (line > 0 ? w->line == line : w->group == group))
      v[n++] = line > 0 ? w->group : (uint32_t)w->line;
  }
  if (n)
    qsort(v, n, sizeof *v, cmp_u32);
  for (size_t i = 0; i < n; i++)
    if (i == 0 || v[i] != v[i - 1]) {
      if (k < max)
        out[k] = v[i];
      k++;
    }
  free(v);
  return k;
}

size_t plain_view_line_groups(const plain_view *pv, int line, uint32_t *g, size_t max)
{
  return line > 0 ? lines_and_groups(pv, line, 0, g, max) : 0;
}

size_t plain_view_group_lines(const plain_view *pv, uint32_t g, int *lines, size_t max)
{
  uint32_t out[64];
  size_t n = lines_and_groups(pv, 0, g, out, max < 64 ? max : 64);
  for (size_t i = 0; i < n && i < max && i < 64; i++)
    lines[i] = (int)out[i];
  return n;
}

int plain_view_finding_step(const plain_view *pv, int cur, int dir)
{
  int n = pv->res ? (int)pv->res->nfindings : 0;
  if (n <= 0)
    return -1;
  if (cur < 0 || cur >= n)
    return dir < 0 ? n - 1 : 0;
  return ((cur + (dir < 0 ? -1 : 1)) % n + n) % n;
}

/* What an access did, in the past: "wrote", "read", ... */
static const char *did_words(int acc)
{
  return acc == 1 ? "read" : acc == 2 ? "wrote" : acc == 3 ? "updated"
                           : acc == 4 ? "updated atomically" : "accessed";
}

/* A group's ticks on the launch's clock: "ticks 3-7", "ticks 3-, never ended". */
static void ticks_words(const ts_plain_group *G, char *b, size_t n)
{
  if (!G->start)
    snprintf(b, n, "never started");
  else if (!G->end)
    snprintf(b, n, "ticks %u-, never ended", G->start);
  else
    snprintf(b, n, "ticks %u-%u", G->start, G->end);
}

void plain_view_finding_time(const plain_view *pv, size_t i, char *buf, size_t n)
{
  snprintf(buf, n, "no record of its work-groups' times");
  if (!pv->res || i >= pv->res->nfindings)
    return;
  const ts_plain_finding *f = &pv->res->findings[i];
  const ts_plain_launch *L =
      f->pass >= 0 && f->pass < pv->res->npasses ? &pv->res->launch[f->pass] : NULL;
  pv_side a, b;
  int two = plain_view_sides(f, &a, &b);
  if (!L || !L->groups || !L->ticks || a.group >= L->ngroups_all)
    return;
  if (two && (b.acc == 2 || b.acc == 4) && a.acc == 1) { /* the writer first */
    pv_side t = a;
    a = b;
    b = t;
  }
  char ga[40], gb[40], ta[48], tb[48];
  ts_plain_group_name(L, a.group, ga, sizeof ga);
  ticks_words(&L->groups[a.group], ta, sizeof ta);
  if (!two || b.group == a.group) {
    if (!two)
      snprintf(buf, n, "work-group %s %s it while running %s", ga, did_words(a.acc), ta);
    else
      snprintf(buf, n, "work-group %s ran %s: one work-item %s it and another %s it, with no "
               "barrier between them", ga, ta, did_words(a.acc), did_words(b.acc));
    return;
  }
  if (b.group >= L->ngroups_all) {
    snprintf(buf, n, "work-group %s %s it while running %s; several other work-groups %s it "
             "too", ga, did_words(a.acc), ta, did_words(b.acc));
    return;
  }
  const ts_plain_group *A = &L->groups[a.group], *B = &L->groups[b.group];
  ts_plain_group_name(L, b.group, gb, sizeof gb);
  ticks_words(B, tb, sizeof tb);
  uint32_t ae = A->end ? A->end : UINT32_MAX, be = B->end ? B->end : UINT32_MAX;
  const char *when = !A->start || !B->start ? ""
                     : A->start < be && B->start < ae
                         ? ": they ran at the same time"
                         : ": one after the other in this run, an order nothing promises";
  snprintf(buf, n, "work-group %s %s it while running %s; work-group %s %s it, %s%s", ga,
           did_words(a.acc), ta, gb, did_words(b.acc), tb, when);
}
