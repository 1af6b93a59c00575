/* A plain kernel in the viewer (see plain_view.h): the loader thread that reads the file and
 * runs it observed on its own ts_cl, the window's side that asks for runs and takes them (the
 * last good one kept when one fails), the file's mtime, and the queries the drawing reads:
 * the launch shown, the work-group under a point, a finding's tint. */
#define _POSIX_C_SOURCE 200809L
#include <SDL2/SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plain_view.h"

struct pv_thread {
  SDL_Thread *thr;
  SDL_mutex *mu;
  SDL_cond *cv;
  char path[1024], kernels_dir[1024];
  int device;
  ts_cl *cl;                 /* the thread's own, made on its first run */
  /* asked for (under mu) */
  int stop, has_req, busy;
  ts_image *req_input;       /* a new image, or NULL: the one it has */
  ts_image *input;           /* the thread's */
  /* finished, not taken yet (under mu) */
  int has_out;
  ts_plain_desc *out_desc;
  ts_plain_result *out_res;
  char out_error[1100];
};

/* One attempt: the file read and described, then run observed on the image. */
static void attempt(pv_thread *t, ts_plain_desc **d, ts_plain_result **r, char *error, size_t n)
{
  ts_error err = { 0 };
  *d = NULL;
  *r = NULL;
  error[0] = 0;
  if (!t->input) {
    snprintf(error, n, "no image");
    return;
  }
  if (!t->cl && ts_cl_create(t->device, t->kernels_dir, &t->cl, &err) != TS_OK) {
    t->cl = NULL;
    snprintf(error, n, "%s", err.msg);
    return;
  }
  if (ts_plain_load(t->path, NULL, 0, d, &err) != TS_OK) {
    *d = NULL;
    snprintf(error, n, "%s", err.msg);
    return;
  }
  ts_plain_opts o = { .observe = 1, .chosen_pass = -1, .repeats = 1, .watch_x = -1 };
  for (int i = 0; i < 3; i++)
    o.chosen_group[i] = o.chosen_item[i] = i ? 0 : -1;
  if (ts_plain_run(t->cl, *d, t->input, &o, r, &err) != TS_OK) {
    *r = NULL;
    ts_plain_desc_free(*d);
    *d = NULL;
    snprintf(error, n, "%s", err.msg);
  }
}

static int loader_main(void *ud)
{
  pv_thread *t = ud;
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
    SDL_UnlockMutex(t->mu);
    ts_plain_desc *d;
    ts_plain_result *r;
    char error[sizeof t->out_error];
    attempt(t, &d, &r, error, sizeof error);
    SDL_LockMutex(t->mu);
    /* An attempt not taken yet is replaced by the newer one. */
    ts_plain_result_free(t->out_res);
    ts_plain_desc_free(t->out_desc);
    t->out_desc = d;
    t->out_res = r;
    snprintf(t->out_error, sizeof t->out_error, "%s", error);
    t->has_out = 1;
    t->busy = 0;
  }
  SDL_UnlockMutex(t->mu);
  return 0;
}

static time_t file_mtime(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 ? st.st_mtime : 0;
}

plain_view *plain_view_start(const char *path, const char *kernels_dir, int device)
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
  pv->mtime = file_mtime(path);
  pv->t = t;
  snprintf(t->path, sizeof t->path, "%s", path);
  snprintf(t->kernels_dir, sizeof t->kernels_dir, "%s", kernels_dir);
  t->device = device;
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
  pv->res = NULL;
  pv->desc = NULL;
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
  ts_image_destroy(t->req_input);
  ts_image_destroy(t->input);
  ts_cl_destroy(t->cl);
  free(t);
  drop_result(pv);
  free(pv);
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
  pv->done = 0;
  pv_thread *t = pv->t;
  SDL_LockMutex(t->mu);
  if (copy) {
    ts_image_destroy(t->req_input);
    t->req_input = copy;
  }
  t->has_req = 1;
  SDL_CondSignal(t->cv);
  SDL_UnlockMutex(t->mu);
}

int plain_view_kind_tint(int kind)
{
  return kind == TS_FIND_UNINIT || kind == TS_FIND_FOOTPRINT || kind == TS_FIND_TILE ? PV_ORANGE
                                                                                    : PV_RED;
}

/* Each work-group's tint: the strongest of the findings whose places name it. */
static void make_tints(plain_view *pv)
{
  const ts_plain_result *r = pv->res;
  memset(pv->ntinted, 0, sizeof pv->ntinted);
  for (int p = 0; p < r->npasses; p++)
    pv->tint[p] = calloc(r->launch[p].ngroups_all + 1u, 1);
  for (size_t i = 0; i < r->nfindings; i++) {
    const ts_plain_finding *f = &r->findings[i];
    if (f->pass < 0 || f->pass >= r->npasses || !pv->tint[f->pass])
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

int plain_view_pick_up(plain_view *pv)
{
  pv_thread *t = pv->t;
  SDL_LockMutex(t->mu);
  int took = t->has_out;
  ts_plain_desc *d = t->out_desc;
  ts_plain_result *r = t->out_res;
  if (took) {
    snprintf(pv->error, sizeof pv->error, "%s", t->out_error);
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
    pv->serial++;
    if (pv->pass < 0 || pv->pass >= r->npasses || pv->serial == 1)
      pv->pass = r->npasses - 1; /* the pass that writes the output */
  }
  return 1;
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
  time_t m = file_mtime(pv->path);
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
