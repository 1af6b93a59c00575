/* The viewer's worker thread: owns the OpenCL context and the runs, makes a new run when the
 * settings change, seeks to the asked tick, and publishes a snapshot (the output rows that
 * changed, timings, device figures). Runs are created and destroyed here only; the window
 * hands back the runs of snapshots it no longer shows.
 * The snapshot holds no copy of the pixels: the window reads the run's own output buffer,
 * under the lock, while the worker leaves it alone. After publishing a snapshot the worker
 * changes nothing until the window has taken it (and with it uploaded the changed rows),
 * and it withdraws the run (`readable`) before it touches the buffers again, so that the
 * window reads them only while they hold what the snapshot it shows says. The run the window
 * stopped showing keeps its schedule for the window but loses its buffers before the next
 * run is made (ts_run_release_buffers): two runs' pixels are never held at once. A new run is also run by the device
 * (--exec device), or gets a copy of a loaded record, before its first snapshot, so that
 * the device view never waits on anything but that snapshot. When it has nothing else to do,
 * the worker observes the current run (worker_obs.c: every buffer access recorded, for the
 * thread the window focuses its exact elements) if it is on the OpenCL back end and of at
 * most vw_observe_max_px pixels, and publishes the observation with the next snapshot; a
 * request that comes meanwhile waits for that one replay, the observation is not cut short.
 * So over vw_observe_quick_px (a replay of seconds) it starts only once the window has asked
 * for nothing for VW_OBSERVE_IDLE_MS, and the window reads how far it is for its progress
 * line (vw_worker_obs_progress).
 * The split view's two workers (viewer_split.c) take turns at the device: each one's work
 * holds a lock they share (pocl, asked for two contexts at once, fell back to the CPU model
 * or crashed). */
#define _DEFAULT_SOURCE /* mkstemps */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <SDL2/SDL.h>

#include "thread_sigstack.h"
#include "ts_file.h"
#include "worker.h"

extern char **environ;

enum { MAX_GRAVE = 32 };

struct vw_worker {
  SDL_Thread *thread;
  const ts_run *advised;  /* the run whose pattern advice `advice` holds */
  char advice[sizeof ((vw_snapshot *)0)->advice];
  int advice_warn;
  /* the run's kernel time and the device's figures for its kernels, for every snapshot of it
   * (measured once, when it is made) */
  double kernel_ms;
  uint64_t dev_private[TS_MAX_PASSES], dev_local[TS_MAX_PASSES];
  int have_dev_mem;
  SDL_mutex *mu;
  SDL_mutex *own_turn;    /* held while it works, or while it makes or frees its device */
  SDL_mutex *turn;        /* own_turn, or the one it shares (vw_worker_share_turns) */
  SDL_cond *cv;
  int stop;
  /* the request */
  int has_req, req_reload;
  uint64_t req_gen, req_input_gen;
  vw_settings req_set;
  ts_image *req_input;   /* a new image, ours once taken */
  uint64_t sent_input_gen;
  int64_t req_tick;
  /* published */
  vw_snapshot pending;
  int has_pending, busy;
  ts_run *readable;       /* the run whose buffers hold the last snapshot's tick, or NULL
                           * while the worker changes (or replaces) them */
  ts_run *grave[MAX_GRAVE];
  int ngrave;
  ts_run *shown;          /* the run of the snapshot the window took last: it is drawing it */
  /* worker-private */
  vw_settings job_set;    /* the request being served, copied under the lock: the window */
  uint64_t job_gen;       /* may post the next one meanwhile */
  int64_t job_tick;
  char kernels_dir[1024];
  ts_image *input;
  uint64_t input_gen, run_gen;
  vw_settings run_set;
  ts_run *run;
  ts_run *published;      /* the run of the last snapshot made */
  uint32_t scale;         /* the integral image's display scale, for `run` */
  ts_cl *cl;
  int cl_device;
  double copy_gbps;
  char *build_log;
  /* a loaded record, and what a run must be to take a copy of it */
  ts_dev_run *record;
  vw_settings record_set;
  uint64_t record_input_gen;
  /* The observation, under the lock: the thread the window wants observed, the run (by a
   * serial: a new run may sit at the address of an old one) and thread of the last
   * observation made, and whether the current run can be observed. */
  int obs_want_x, obs_want_y, obs_have_x, obs_have_y;
  uint64_t run_serial, obs_run_serial;
  int run_observable;
  /* The progress line's, under the lock: when the last request came and when the replay
   * running began (SDL ticks; 0: none running), the current run's size and whether it
   * replays quickly (vw_observe_quick_px), and the last replay's time and size. */
  uint64_t req_ms, obs_since_ms;
  int64_t run_px;
  int run_quick;
  double obs_last_ms;
  int64_t obs_last_px;
};

void vw_snapshot_free(vw_snapshot *s)
{
  free(s->build_log);
  free(s->dev_raw);
  free(s->rects);
  vw_obs_free(s->obs);
  s->dev_raw = NULL;
  s->rects = NULL;
  s->nrects = 0;
  s->build_log = NULL;
  s->obs = NULL;
}

static char *dup_str(const char *s)
{
  if (!s)
    return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}


/* A copy of a device result, for one run to own. */
static ts_dev_run *dev_clone(const ts_dev_run *d)
{
  ts_dev_run *c = malloc(sizeof *c);
  if (!c)
    return NULL;
  *c = *d;
  c->wrong = NULL;
  for (int p = 0; p < TS_MAX_PASSES; p++)
    c->pass[p].rec = NULL;
  int ok = 1;
  for (int p = 0; p < d->npasses && ok; p++)
    if (d->pass[p].rec) {
      size_t bytes = (size_t)d->pass[p].n * sizeof(ts_grec);
      c->pass[p].rec = malloc(bytes ? bytes : 1);
      ok = c->pass[p].rec != NULL;
      if (ok)
        memcpy(c->pass[p].rec, d->pass[p].rec, bytes);
    }
  if (ok && d->wrong && d->npasses > 0) {
    size_t n = d->pass[d->npasses - 1].n;
    c->wrong = malloc(n ? n : 1);
    ok = c->wrong != NULL;
    if (ok)
      memcpy(c->wrong, d->wrong, n);
  }
  if (!ok) {
    ts_dev_run_free(c);
    return NULL;
  }
  return c;
}

/* Whether a run of `set` on the current input is the loaded record's run. (The record is set
 * before the first request and never changes after, so it is read here without the lock.) */
static int record_fits(const vw_worker *w, const vw_settings *set)
{
  const vw_settings *r = &w->record_set;
  return w->record && w->input_gen == w->record_input_gen && set->variant == r->variant &&
         set->pattern == r->pattern && set->walk == r->walk && set->slots == r->slots &&
         set->cost == r->cost && set->ksize == r->ksize && set->sigma == r->sigma;
}

/* A copy of the whole output, as the device view shows it (the run's buffers go on to the
 * simulated ticks). */
static void capture_output(vw_worker *w, vw_snapshot *s)
{
  const ts_buf *b = &ts_run_kctx(w->run)->buf[TS_BUF_OUT];
  size_t bytes = (size_t)b->cols * (size_t)b->rows * (size_t)b->esize;
  free(s->dev_raw);
  s->dev_raw = malloc(bytes);
  if (s->dev_raw)
    memcpy(s->dev_raw, b->data, bytes);
  else
    snprintf(s->note, sizeof s->note, "out of memory for the device view's output");
}

static void attach_record(vw_worker *w, vw_snapshot *s)
{
  ts_error err = { 0 };
  ts_dev_run *c = dev_clone(w->record);
  if (!c || ts_run_attach_device(w->run, c, &err) != TS_OK) {
    ts_dev_run_free(c);
    snprintf(s->note, sizeof s->note, "the record does not fit this run: %s",
             c ? err.msg : "out of memory");
    return;
  }
  /* A record holds no pixels: its view shows what the simulation committed by the end. */
  if (ts_run_seek(w->run, INT64_MAX, &err) != TS_OK)
    snprintf(s->error, sizeof s->error, "%s", err.msg);
  else
    capture_output(w, s);
}

static void run_on_device(vw_worker *w, vw_snapshot *s)
{
  if (!ts_run_params_of(w->run)->cl) {
    if (!s->note[0])
      snprintf(s->note, sizeof s->note,
               "the device schedule needs the OpenCL back end [b]; showing the simulation");
    return;
  }
  ts_error err = { 0 };
  ts_dev_opts o = { .record = 1, .stuck = -1 };
  if (ts_run_device(w->run, &o, &err) != TS_OK) {
    snprintf(s->note, sizeof s->note, "%s", err.msg);
    return;
  }
  capture_output(w, s);
}

/* Hands the pages of what was freed back to the system. glibc keeps freed blocks below its
 * mmap threshold (which rises to 32 MB once such a block is freed) in its arenas: a
 * schedule's arrays and the like, and what pocl's compiler frees, some 130 MB on a first
 * build, which the next run and the window's textures would otherwise come on top of. */
static void trim(void)
{
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

/* The program that tries a user kernel before the window runs it (vw_use_probe), "" none. */
static char probe_exe[4096], probe_kernels[4096];
static double probe_timeout = 120;
/* The last kernel tried: file, its version, the image, the variant; its verdict. */
static char probe_key[1400], probe_error[600];

void vw_use_probe(const char *exe, const char *kernels_dir, double timeout_s)
{
  snprintf(probe_exe, sizeof probe_exe, "%s", exe ? exe : "");
  snprintf(probe_kernels, sizeof probe_kernels, "%s", kernels_dir ? kernels_dir : "");
  probe_timeout = timeout_s;
}

/* A user kernel (the dialect's; plain kernels have a worker of their own, plain_view.c)
 * runs in the window's process only after a run of it on the same image, in a process of
 * its own (`tilescope run`, with its supervisor and watchdog), ended without a crash or a
 * hang: a kernel that writes past its buffer or never ends then costs that process, and
 * the panel says so. Once per version of the file, image and variant (a schedule or a
 * device that alone makes it fail is not caught). Returns 0 with the error line. */
static int probe_user_kernel(vw_worker *w, const ts_variant *v, const vw_settings *set,
                             char *error, size_t n)
{
  struct stat st;
  if (!probe_exe[0] || !v->file || !set->use_cl || stat(v->file, &st) != 0)
    return 1;
  char key[sizeof probe_key];
  snprintf(key, sizeof key, "%s|%lld|%llu|%s|%d", v->file, (long long)ts_mtime_ns(&st),
           (unsigned long long)w->input_gen, v->name, set->device);
  if (strcmp(key, probe_key) == 0) {
    snprintf(error, n, "%s", probe_error);
    return !probe_error[0];
  }
  char png[] = "/tmp/tilescope-probe-XXXXXX.png";
  int fd = mkstemps(png, 4), pipefd[2] = { -1, -1 };
  ts_error err = { 0 };
  if (fd < 0)
    return 1; /* nowhere to put the image: run it as before */
  close(fd);
  char slots[16], cost[16], ksize[16], device[16], timeout[32];
  snprintf(slots, sizeof slots, "%d", set->slots);
  snprintf(cost, sizeof cost, "%d", set->cost > 0 ? set->cost : 1);
  snprintf(ksize, sizeof ksize, "%d", set->ksize > 0 ? set->ksize : 5);
  snprintf(device, sizeof device, "%d", set->device);
  snprintf(timeout, sizeof timeout, "%g", probe_timeout);
  char *argv[32];
  int a = 0;
  argv[a++] = probe_exe;
  argv[a++] = "run";
  argv[a++] = "--kernel-file";
  argv[a++] = (char *)v->file;
  argv[a++] = "--variant";
  argv[a++] = (char *)v->name;
  argv[a++] = "-i";
  argv[a++] = png;
  argv[a++] = "--pattern";
  argv[a++] = (char *)ts_pattern_name(set->pattern);
  argv[a++] = "--walk";
  argv[a++] = (char *)ts_walk_name(set->walk);
  argv[a++] = "--slots";
  argv[a++] = slots;
  if (set->cost > 0) {
    argv[a++] = "--cost";
    argv[a++] = cost;
  }
  argv[a++] = "--kernel-size";
  argv[a++] = ksize;
  if (set->device >= 0) {
    argv[a++] = "--device";
    argv[a++] = device;
  }
  if (probe_kernels[0]) {
    argv[a++] = "--kernels";
    argv[a++] = probe_kernels;
  }
  argv[a++] = "--timeout";
  argv[a++] = timeout;
  argv[a] = NULL;
  char out[2048] = "";
  size_t got = 0;
  int status = 0, ok = 1;
  posix_spawn_file_actions_t fa;
  pid_t pid = -1;
  if (ts_image_save_png(png, w->input, &err) == TS_OK && pipe(pipefd) == 0 &&
      posix_spawn_file_actions_init(&fa) == 0) {
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    if (posix_spawn(&pid, probe_exe, &fa, NULL, argv, environ) != 0)
      pid = -1;
    posix_spawn_file_actions_destroy(&fa);
  }
  if (pipefd[1] >= 0)
    close(pipefd[1]);
  if (pid > 0) {
    /* the child's own watchdog ends it: read its error lines until it closes them */
    ssize_t r;
    char buf[512];
    while ((r = read(pipefd[0], buf, sizeof buf)) > 0 || (r < 0 && errno == EINTR))
      for (ssize_t i = 0; i < r && got + 1 < sizeof out; i++)
        out[got++] = buf[i];
    out[got] = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    /* a crash or a hang, as the supervisor words them (main.c); other failures (a build
     * error, an output that differs) the window shows from its own run */
    ok = !(WIFSIGNALED(status) || strstr(out, ": crashed (") || strstr(out, "did not finish in"));
  }
  if (pipefd[0] >= 0)
    close(pipefd[0]);
  remove(png);
  probe_error[0] = 0;
  if (!ok) {
    char *line = strstr(out, "tilescope run: ");
    line = line ? line + strlen("tilescope run: ") : out;
    line[strcspn(line, "\n")] = 0;
    snprintf(probe_error, sizeof probe_error, "%.500s; tried in a process of its own, not run here",
             line[0] ? line : "the kernel's trial run crashed");
  }
  snprintf(probe_key, sizeof probe_key, "%s", key);
  snprintf(error, n, "%s", probe_error);
  return ok;
}

/* The pattern advice (ts_run_advice) in one line for the panel; "" when there is nothing to
 * say (nothing read, nothing waited for). */
static void advise(const ts_run *run, char *out, size_t n, int *warn)
{
  ts_advice a;
  ts_error err = { 0 };
  /* a dialect kernel's header declares no reads of its output as committed (cmd_run.c) */
  if (ts_run_params_of(run)->variant->file || ts_run_advice(run, &a, &err) != TS_OK)
    return;
  ts_vec v[TS_ADVICE_MAX];
  char l1[96], l2[96];
  if (a.nmissing) {
    for (int i = 0; i < a.nmissing; i++)
      v[i] = a.missing[i].v;
    ts_vec_list(v, a.nmissing, l1, sizeof l1);
    ts_vec_list(a.suggest, a.nsuggest, l2, sizeof l2);
    *warn = 1;
    if (a.suggest_ok)
      snprintf(out, n, "advice: %s missing; %s would order every read "
               "(%" PRId64 " ticks)", l1, l2, a.suggest_ticks);
    else
      snprintf(out, n, "advice: %s missing; no pattern orders every read "
               "under this walk", l1);
  } else if (a.nunneeded) {
    for (int i = 0; i < a.nunneeded; i++)
      v[i] = a.unneeded[i].v;
    ts_vec_list(v, a.nunneeded, l1, sizeof l1);
    int64_t without = a.unneeded[a.nunneeded - 1].ticks_without;
    if (without < a.ticks)
      snprintf(out, n, "advice: %s unneeded; without %s: %" PRId64 " ticks, not %" PRId64, l1,
               a.nunneeded == 1 ? "it" : "them", without, a.ticks);
    else
      snprintf(out, n, "advice: %s unneeded; %s no tick", l1,
               a.nunneeded == 1 ? "it costs" : "they cost");
  } else if (a.nneeded) {
    snprintf(out, n, "advice: each of the pattern's %d vector%s is needed",
             a.nneeded, a.nneeded == 1 ? "" : "s");
  }
}

/* Makes the run for the current request; fills the snapshot's error, note and figures. */
static void make_run(vw_worker *w, vw_snapshot *s, int reload)
{
  const vw_settings *set = &w->job_set;
  /* The window draws the last run from its textures: its pixels can go before the next
   * run's are made (the window hands the run itself back later). */
  ts_run_release_buffers(w->run);
  trim();
  if (set->use_cl && w->cl && w->cl_device != set->device) {
    ts_cl_destroy(w->cl);
    w->cl = NULL;
  }
  if (set->use_cl && !w->cl) {
    ts_error err = { 0 };
    if (ts_cl_create(set->device, w->kernels_dir, &w->cl, &err) != TS_OK) {
      snprintf(s->note, sizeof s->note, "%s; showing the CPU model", err.msg);
      w->cl = NULL;
    } else {
      w->cl_device = set->device;
      w->copy_gbps = 0;
      ts_cl_copy_bandwidth(w->cl, 8u << 20, 5, &w->copy_gbps, NULL);
    }
  }
  if (reload && w->cl) {
    ts_error err = { 0 };
    free(w->build_log);
    w->build_log = NULL;
    if (ts_cl_reload(w->cl, &err) != TS_OK) {
      w->build_log = dup_str(ts_cl_build_log(w->cl));
      snprintf(s->note, sizeof s->note, "%s; the last good build keeps running", err.msg);
    }
  }
  ts_run_params p = { .variant = ts_variant_at(set->variant),
                      .sched = { .pattern = set->pattern, .walk = set->walk, .slots = set->slots },
                      .cost = set->cost, .ksize = set->ksize, .sigma = set->sigma,
                      .cl = set->use_cl ? w->cl : NULL, .adversary = set->adversary };
  ts_error err = { 0 };
  ts_run *run = NULL;
  char why[600];
  if (!probe_user_kernel(w, p.variant, set, why, sizeof why)) {
    snprintf(s->error, sizeof s->error, "%s", why);
    snprintf(s->note, sizeof s->note, "%s", why);
  } else if (ts_run_create(w->input, &p, &run, &err) != TS_OK) {
    if (err.code == TS_ERR_BUILD && p.cl) {
      free(w->build_log);
      w->build_log = dup_str(ts_cl_build_log(p.cl));
    }
    snprintf(s->error, sizeof s->error, "%s", err.msg);
    run = NULL;
  }
  w->run = run;
  w->published = NULL; /* a new run, even one at the address of a run since destroyed */
  w->advised = NULL;
  w->kernel_ms = 0;
  w->have_dev_mem = 0;
  memset(w->dev_private, 0, sizeof w->dev_private);
  memset(w->dev_local, 0, sizeof w->dev_local);
  w->run_gen = w->job_gen;
  w->run_set = *set;
  if (!run)
    return;
  w->scale = ts_run_integral_scale(run);
  if (record_fits(w, set))
    attach_record(w, s);
  else if (set->exec_device)
    run_on_device(w, s);
  if (!p.cl) {
    trim();
    return;
  }
  /* The whole image, one launch per pass: the kernel time the panel shows. */
  double t[5];
  int ok = 1;
  for (int i = 0; i < 5 && ok; i++) {
    ok = ts_run_finish_fast(run, NULL) == TS_OK;
    t[i] = ts_run_take_kernel_ms(run);
  }
  if (ok) {
    qsort(t, 5, sizeof t[0], cmp_double);
    w->kernel_ms = t[2];
  }
  for (int i = 0; i < p.variant->npasses; i++)
    if (ts_cl_kernel_mem(w->cl, p.variant, i, ts_run_kctx(run), &w->dev_private[i],
                         &w->dev_local[i], NULL) == TS_OK)
      w->have_dev_mem = 1;
  trim(); /* (fill_snapshot hands the figures to this snapshot and every later one) */
}


/* Seeks, then names the output pixels that changed since the last snapshot (all of them
 * for a new run). The window has taken the last snapshot (the worker waits for that), so these are all
 * it has not seen. */
static void fill_snapshot(vw_worker *w, vw_snapshot *s)
{
  s->generation = w->run_gen;
  s->run = w->run;
  s->copy_gbps = w->copy_gbps;
  s->kernel_ms = w->kernel_ms;
  s->have_dev_mem = w->have_dev_mem;
  memcpy(s->dev_private, w->dev_private, sizeof s->dev_private);
  memcpy(s->dev_local, w->dev_local, sizeof s->dev_local);
  s->build_log = dup_str(w->build_log);
  s->on_cl = w->run && ts_run_params_of(w->run)->cl != NULL;
  if (s->on_cl)
    snprintf(s->device, sizeof s->device, "%s (%s)", ts_cl_device(w->cl)->name,
             ts_cl_device(w->cl)->platform);
  else
    snprintf(s->device, sizeof s->device, "CPU model");
  if (!w->run)
    return;
  ts_error err = { 0 };
  if (ts_run_seek(w->run, w->job_tick, &err) != TS_OK)
    snprintf(s->error, sizeof s->error, "%s", err.msg);
  s->tick = ts_run_tick(w->run);
  if (w->published != w->run) {
    w->published = w->run;
    w->scale = ts_run_integral_scale(w->run);
    s->full = 1;
  }
  s->scale = w->scale;
  if (w->advised != w->run) { /* once a run: a few schedules each one vector short */
    w->advice[0] = 0;
    w->advice_warn = 0;
    advise(w->run, w->advice, sizeof w->advice, &w->advice_warn);
    w->advised = w->run;
  }
  memcpy(s->advice, w->advice, sizeof s->advice);
  s->advice_warn = w->advice_warn;
  s->rects = malloc(TS_VIEW_RECTS * sizeof *s->rects);
  s->nrects = s->rects ? ts_run_take_changed_rects(w->run, s->rects, TS_VIEW_RECTS) : 0;
  if (!s->rects) {
    ts_run_take_changed_rects(w->run, NULL, 0);
    s->full = 1; /* all of it, then */
  }
}

/* Whether the current run is to be observed (again): the lock is held. */
static int obs_due(const vw_worker *w)
{
  return w->run_observable && (w->obs_run_serial != w->run_serial ||
                               w->obs_have_x != w->obs_want_x || w->obs_have_y != w->obs_want_y);
}

/* How long a due observation still waits for the window to stay idle (ms; 0: it may start). */
static uint64_t obs_wait_ms(const vw_worker *w)
{
  uint64_t now = SDL_GetTicks64(), idle = now - w->req_ms;
  return w->run_quick || idle >= VW_OBSERVE_IDLE_MS ? 0 : VW_OBSERVE_IDLE_MS - idle;
}

static int worker_main(void *ud)
{
  vw_worker *w = ud;
  vw_sigstack ss; /* pocl's LLVM compiles here (thread_sigstack.h) */
  vw_sigstack_save(&ss);
  SDL_LockMutex(w->mu);
  for (;;) {
    /* Work waits until the window has taken the last snapshot, and an observation due until
     * the window has asked for nothing a while where a replay is long (see the top). */
    while (!w->stop && w->ngrave == 0 &&
           (w->has_pending || (!w->has_req && (!obs_due(w) || obs_wait_ms(w))))) {
      if (!w->has_pending && !w->has_req && obs_due(w))
        SDL_CondWaitTimeout(w->cv, w->mu, (Uint32)obs_wait_ms(w));
      else
        SDL_CondWait(w->cv, w->mu);
    }
    if (w->stop)
      break;
    ts_run *grave[MAX_GRAVE];
    int ngrave = w->ngrave;
    memcpy(grave, w->grave, sizeof grave);
    w->ngrave = 0;
    int has_req = !w->has_pending && w->has_req, reload = has_req && w->req_reload;
    /* Requests first: an observation waits until the window asks for nothing else. */
    int do_obs = !w->has_pending && !has_req && obs_due(w) && !obs_wait_ms(w),
        ox = w->obs_want_x, oy = w->obs_want_y;
    w->obs_since_ms = do_obs ? SDL_GetTicks64() : 0;
    if (has_req) {
      w->has_req = w->req_reload = 0;
      w->job_set = w->req_set;
      w->job_gen = w->req_gen;
      w->job_tick = w->req_tick;
    }
    w->busy = has_req || do_obs;
    if (w->busy)
      w->readable = NULL;
    if (has_req && w->req_input) {
      ts_image_destroy(w->input);
      w->input = w->req_input;
      w->req_input = NULL;
      w->input_gen = w->req_input_gen;
    }
    SDL_UnlockMutex(w->mu);

    SDL_LockMutex(w->turn);
    for (int i = 0; i < ngrave; i++)
      ts_run_destroy(grave[i]);
    if (!has_req && !do_obs) {
      SDL_UnlockMutex(w->turn);
      SDL_LockMutex(w->mu);
      continue;
    }
    vw_snapshot s = { 0 };
    int made = 0;
    /* A new image comes with a new generation, so it makes a new run too. The old run was
     * published: the window hands it back through the grave when it lets go of it. */
    if (do_obs) {
      s.obs = vw_obs_make(w->run, ox, oy);
      if (!s.obs)
        snprintf(s.note, sizeof s.note, "out of memory for the observation");
    } else if (w->input && (!w->run || w->run_gen != w->job_gen || reload)) {
      make_run(w, &s, reload);
      made = 1;
    } else if (!w->input) {
      snprintf(s.error, sizeof s.error, "no image");
    }
    fill_snapshot(w, &s);
    SDL_UnlockMutex(w->turn);

    SDL_LockMutex(w->mu);
    if (made) {
      w->run_serial++;
      w->run_observable = vw_observable(w->run);
      const ts_kctx *k = w->run ? ts_run_kctx(w->run) : NULL;
      w->run_px = k ? (int64_t)k->W * k->H : 0;
      w->run_quick = w->run_px <= vw_observe_quick_px(w->run);
    }
    if (do_obs) {
      w->obs_since_ms = 0;
      if (s.obs && s.obs->ob) {
        w->obs_last_ms = s.obs->ms;
        w->obs_last_px = w->run_px;
      }
      w->obs_run_serial = w->run_serial;
      w->obs_have_x = ox;
      w->obs_have_y = oy;
    }
    /* The window took the last snapshot before this work began: none is pending. */
    w->pending = s;
    w->has_pending = 1;
    w->busy = 0;
    w->readable = w->run;
  }
  SDL_UnlockMutex(w->mu);
  vw_sigstack_restore(&ss);
  return 0;
}

vw_worker *vw_worker_start(const char *kernels_dir)
{
  vw_worker *w = calloc(1, sizeof *w);
  if (!w)
    return NULL;
  snprintf(w->kernels_dir, sizeof w->kernels_dir, "%s", kernels_dir ? kernels_dir : "");
  w->cl_device = -2;
  w->obs_want_x = w->obs_want_y = -1;
  w->mu = SDL_CreateMutex();
  w->cv = SDL_CreateCond();
  w->turn = w->own_turn = SDL_CreateMutex();
  w->thread = w->mu && w->cv && w->own_turn ? SDL_CreateThread(worker_main, "tilescope-worker", w)
                                            : NULL;
  if (!w->thread) {
    SDL_DestroyCond(w->cv);
    SDL_DestroyMutex(w->mu);
    SDL_DestroyMutex(w->own_turn);
    free(w);
    return NULL;
  }
  return w;
}

void vw_worker_share_turns(vw_worker *w, vw_worker *with)
{
  SDL_LockMutex(w->mu);
  w->turn = with->turn; /* read by its thread only once it is woken, under w->mu */
  SDL_UnlockMutex(w->mu);
}

void vw_worker_request(vw_worker *w, uint64_t generation, const vw_settings *set,
                       ts_image *input, uint64_t input_generation, int64_t tick,
                       int reload)
{
  SDL_LockMutex(w->mu);
  w->req_gen = generation;
  w->req_set = *set;
  if (input_generation != w->sent_input_gen) {
    /* The worker shares the window's image (neither writes it): the window may replace
     * its own at any time, and the last owner frees it. */
    ts_image_destroy(w->req_input);
    w->req_input = ts_image_share(input);
    w->req_input_gen = input_generation;
    w->sent_input_gen = input_generation;
  }
  w->req_tick = tick;
  w->req_ms = SDL_GetTicks64();
  w->req_reload |= reload;
  w->has_req = 1;
  SDL_CondSignal(w->cv);
  SDL_UnlockMutex(w->mu);
}

int vw_worker_take(vw_worker *w, vw_snapshot *snap, void (*rows)(void *ud, const vw_snapshot *s),
                   void *ud)
{
  SDL_LockMutex(w->mu);
  int got = w->has_pending;
  if (got) {
    if (snap->run && snap->run != w->pending.run && w->ngrave < MAX_GRAVE)
      w->grave[w->ngrave++] = snap->run;
    vw_snapshot_free(snap);
    *snap = w->pending;
    w->shown = snap->run;
    memset(&w->pending, 0, sizeof w->pending);
    w->has_pending = 0;
    /* The run's buffers hold what the snapshot says until the worker, woken below, starts
     * on the next request: the window reads them now. */
    if (rows && snap->run && snap->run == w->readable)
      rows(ud, snap);
    SDL_CondSignal(w->cv);
  }
  SDL_UnlockMutex(w->mu);
  return got;
}

int vw_worker_read(vw_worker *w, const ts_run *run, void (*fn)(void *ud, const ts_kctx *k),
                   void *ud)
{
  SDL_LockMutex(w->mu);
  int ok = run && run == w->readable && !w->has_pending;
  if (ok)
    fn(ud, ts_run_kctx(run));
  SDL_UnlockMutex(w->mu);
  return ok;
}

void vw_worker_set_record(vw_worker *w, ts_dev_run *rec, const vw_settings *set,
                          uint64_t input_generation)
{
  SDL_LockMutex(w->mu);
  ts_dev_run_free(w->record);
  w->record = rec;
  w->record_set = *set;
  w->record_input_gen = input_generation;
  SDL_UnlockMutex(w->mu);
}

void vw_worker_observe(vw_worker *w, int x, int y)
{
  SDL_LockMutex(w->mu);
  w->obs_want_x = x;
  w->obs_want_y = y;
  SDL_CondSignal(w->cv);
  SDL_UnlockMutex(w->mu);
}

int vw_worker_busy(vw_worker *w)
{
  SDL_LockMutex(w->mu);
  int busy = w->busy || w->has_req || w->has_pending || obs_due(w);
  SDL_UnlockMutex(w->mu);
  return busy;
}

void vw_worker_obs_progress(vw_worker *w, vw_obs_progress *p)
{
  *p = (vw_obs_progress){ 0 };
  SDL_LockMutex(w->mu);
  if (w->obs_since_ms) {
    p->state = VW_OBSP_RUNNING;
    p->elapsed_ms = (double)(SDL_GetTicks64() - w->obs_since_ms);
    p->queued = w->has_req;
    if (w->obs_last_px > 0)
      p->expect_ms = w->obs_last_ms * (double)w->run_px / (double)w->obs_last_px;
  } else if (obs_due(w) && !w->run_quick) {
    p->state = VW_OBSP_WAITING;
  }
  SDL_UnlockMutex(w->mu);
}

void vw_worker_stop(vw_worker *w, ts_run *held)
{
  if (!w)
    return;
  SDL_LockMutex(w->mu);
  w->stop = 1;
  SDL_CondSignal(w->cv);
  SDL_UnlockMutex(w->mu);
  SDL_WaitThread(w->thread, NULL);
  /* Every run still alive, once each. */
  ts_run *runs[MAX_GRAVE + 3];
  int n = 0;
  ts_run *cand[MAX_GRAVE + 3];
  int nc = 0;
  for (int i = 0; i < w->ngrave; i++)
    cand[nc++] = w->grave[i];
  cand[nc++] = w->run;
  cand[nc++] = w->has_pending ? w->pending.run : NULL;
  cand[nc++] = held;
  for (int i = 0; i < nc; i++) {
    int dup = !cand[i];
    for (int k = 0; k < n && !dup; k++)
      dup = runs[k] == cand[i];
    if (!dup)
      runs[n++] = cand[i];
  }
  SDL_LockMutex(w->turn);
  for (int i = 0; i < n; i++)
    ts_run_destroy(runs[i]);
  vw_snapshot_free(&w->pending);
  ts_cl_destroy(w->cl);
  SDL_UnlockMutex(w->turn);
  ts_image_destroy(w->input);
  ts_image_destroy(w->req_input);
  ts_dev_run_free(w->record);
  free(w->build_log);
  SDL_DestroyCond(w->cv);
  SDL_DestroyMutex(w->mu);
  SDL_DestroyMutex(w->own_turn);
  free(w);
}
