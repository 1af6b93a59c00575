/* Device records: summary line, trace-event JSON out, and back in (see ts_record.h).
 * The reader is a small recursive-descent JSON parser with a depth cap; it skips every
 * top-level key but "tilescope" without building anything, so a large trace costs no more
 * memory than its record. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_file.h"
#include "ts_number.h"
#include "ts_record.h"

double ts_dev_mean_wait(const ts_dev_run *d)
{
  double sum = 0;
  uint64_t n = 0;
  for (int p = 0; p < d->npasses; p++)
    for (uint32_t i = 0; d->pass[p].rec && i < d->pass[p].n; i++) {
      sum += (double)(d->pass[p].rec[i].waited - d->pass[p].rec[i].start);
      n++;
    }
  return n ? sum / (double)n : 0.0;
}

double ts_dev_wait_share(const ts_dev_run *d)
{
  double wait = 0, all = 0;
  for (int p = 0; p < d->npasses; p++)
    for (uint32_t i = 0; d->pass[p].rec && i < d->pass[p].n; i++) {
      const ts_grec *g = &d->pass[p].rec[i];
      uint64_t from = d->pass[p].lookback ? g->published : g->start;
      wait += (double)(g->waited - (from < g->waited ? from : g->waited));
      all += (double)(g->end - g->start);
    }
  return all > 0 ? wait / all : 0.0;
}

/* Whether ticket t of pass p waited for another group: the producer whose publication it
 * read last (*b), when that came out after t's wait began; *agg where it was that producer's
 * aggregate (a look-back's), which no wait of the producer's delayed. */
static int waited_for(const ts_dev_run *d, const ts_sched *s, int p, uint32_t t, uint32_t *b,
                      int *agg)
{
  const ts_dev_pass *dp = &d->pass[p];
  const ts_grec *g = &dp->rec[t];
  int32_t k = -1;
  *agg = 0;
  if (dp->lookback) {
    k = g->bound >= 0 && (uint32_t)g->bound < t ? g->bound : -1;
    *agg = k >= 0 && g->bound_agg;
  } else {
    const ts_pass_sched *ps = &s->pass[p];
    uint32_t tg[TS_PATTERN_MAX_VECTORS];
    int nw = ts_sched_waits(s, p, ps->order[t], tg);
    for (int i = 0; i < nw; i++) {
      uint32_t pt = ps->t[tg[i]].dispatch;
      if (pt < t && (k < 0 || dp->rec[pt].end > dp->rec[k].end))
        k = (int32_t)pt;
    }
  }
  if (k < 0)
    return 0;
  const ts_grec *pb = &dp->rec[k];
  *b = (uint32_t)k;
  return (*agg ? pb->published : pb->end) > (dp->lookback ? g->published : g->start);
}

int ts_dev_critical_path(const ts_dev_run *d, const ts_sched *s, ts_dev_path *out,
                         uint32_t *chain, uint32_t chain_cap)
{
  memset(out, 0, sizeof *out);
  if (!d || !s || d->npasses != s->npasses)
    return 0;
  int found = 0;
  for (int p = 0; p < d->npasses; p++) {
    const ts_dev_pass *dp = &d->pass[p];
    if (!dp->rec || dp->n == 0 || dp->n != s->pass[p].n)
      continue;
    /* depth[t]: groups on the longest chain ending with t's wait; head[t]: where it begins.
     * What bound a wait is an earlier ticket, so one pass in ticket order does. */
    uint32_t *depth = malloc((size_t)dp->n * 2 * sizeof *depth);
    if (!depth)
      return found;
    uint32_t *head = depth + dp->n;
    for (uint32_t t = 0; t < dp->n; t++) {
      uint32_t b;
      int agg;
      if (!waited_for(d, s, p, t, &b, &agg)) {
        depth[t] = 1;
        head[t] = t;
      } else {
        depth[t] = agg ? 2 : depth[b] + 1;
        head[t] = agg ? b : head[b];
      }
      const ts_grec *g = &dp->rec[t];
      uint64_t t0 = dp->rec[head[t]].start;
      if (!found || depth[t] > out->groups ||
          (depth[t] == out->groups && g->end - t0 > out->t1 - out->t0)) {
        found = 1;
        *out = (ts_dev_path){ .pass = p, .groups = depth[t], .head = head[t], .tail = t,
                              .t0 = t0, .t1 = g->end };
      }
    }
    free(depth);
  }
  if (!found)
    return 0;
  /* Back from the tail through what bound each wait, then head first. */
  uint32_t n = 0, t = out->tail;
  for (uint32_t i = 0; i < out->groups; i++) {
    if (chain && n < chain_cap)
      chain[n++] = t;
    uint32_t b;
    int agg;
    if (i + 1 < out->groups && waited_for(d, s, out->pass, t, &b, &agg)) {
      out->through_aggregate = agg;
      t = b;
    }
  }
  for (uint32_t i = 0; i < n / 2; i++) {
    uint32_t x = chain[i];
    chain[i] = chain[n - 1 - i];
    chain[n - 1 - i] = x;
  }
  out->span = d->t_end;
  return 1;
}

void ts_dev_path_line(const ts_dev_run *d, const ts_sched *s, char *buf, size_t size)
{
  ts_dev_path p;
  if (!ts_dev_critical_path(d, s, &p, NULL, 0)) {
    snprintf(buf, size, "critical path: no record");
    return;
  }
  if (p.groups == 1) {
    snprintf(buf, size, "critical path: no group waited for another's publication");
    return;
  }
  char pass[32] = "", how[64] = "";
  if (d->npasses > 1)
    snprintf(pass, sizeof pass, " in pass %d", p.pass + 1);
  if (p.through_aggregate)
    snprintf(how, sizeof how, ", from an aggregate");
  if (d->clock_ns)
    snprintf(buf, size, "critical path: %u group%s in a chain of waits%s%s, %.3f of %.3f ms",
             p.groups, p.groups == 1 ? "" : "s", pass, how, (double)(p.t1 - p.t0) * 1e-6,
             (double)p.span * 1e-6);
  else
    snprintf(buf, size, "critical path: %u group%s in a chain of waits%s%s, events %" PRIu64
             " to %" PRIu64 " of %" PRIu64, p.groups, p.groups == 1 ? "" : "s", pass, how, p.t0,
             p.t1, p.span + 1);
}

void ts_dev_summary(const ts_dev_run *d, char *buf, size_t size)
{
  uint32_t groups = 0;
  for (int p = 0; p < d->npasses; p++)
    groups += d->pass[p].n;
  char span[96] = "", kern[48] = "";
  if (d->clock_ns)
    snprintf(span, sizeof span, " in %.3f ms, mean %.2f us waiting", (double)d->t_end * 1e-6,
             ts_dev_mean_wait(d) * 1e-3);
  else
    snprintf(span, sizeof span, " (logical clock: %" PRIu64 " events)", d->t_end + 1);
  if (d->kernel_ms > 0)
    snprintf(kern, sizeof kern, ", kernels %.3f ms", d->kernel_ms);
  char adv[64] = "";
  if (d->adversary)
    snprintf(adv, sizeof adv, "; under the adversary (random delays, seed %" PRIu32 ")",
             d->adversary);
  snprintf(buf, size, "device: %u group%s on %d %s%s%s%s; %u wrong tile%s%s", groups,
           groups == 1 ? "" : "s", d->lanes, d->clock_ns ? "unit" : "lane",
           d->lanes == 1 ? "" : "s", span, kern, d->nwrong, d->nwrong == 1 ? "" : "s", adv);
}

/* ---- writing ---- */

/* Chrome's "ts" is in microseconds: device nanoseconds / 1000, one logical event = 1 us. */
static double to_us(const ts_dev_run *d, uint64_t t)
{
  return d->clock_ns ? (double)t * 1e-3 : (double)t;
}

static void write_device_events(FILE *f, const ts_run *run, const ts_dev_run *d)
{
  const ts_sched *s = ts_run_sched(run);
  fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":");
  char name[256];
  snprintf(name, sizeof name, "device: %s (%s)", d->device,
           d->clock_ns ? "nanosecond timer" : "logical clock, 1 us per event");
  ts_json_string(f, name);
  fprintf(f, "}}");
  for (int l = 0; l < d->lanes; l++)
    fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":\"%s %d\"}}",
            l, d->clock_ns ? "unit" : "lane", l);
  for (int p = 0; p < d->npasses; p++) {
    const ts_dev_pass *dp = &d->pass[p];
    for (uint32_t t = 0; dp->rec && t < dp->n; t++) {
      const ts_grec *g = &dp->rec[t];
      uint32_t id = s->pass[p].order[t];
      int wrong = p == d->npasses - 1 && d->wrong && d->wrong[id];
      fprintf(f, ",\n{\"name\":\"tile %d,%d\",\"cat\":\"pass %d\",\"ph\":\"X\",\"pid\":1,"
                 "\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"ticket\":%u,\"tile\":[%d,%d],"
                 "\"pass\":%d,\"group\":%u,\"unit\":%d,\"wait\":%.3f,\"wrong\":%d}}",
              g->tx, g->ty, p + 1, g->lane, to_us(d, g->start), to_us(d, g->end - g->start), t,
              g->tx, g->ty, p + 1, g->group, g->unit, to_us(d, g->waited - g->start), wrong);
      if (g->waited > g->start)
        fprintf(f, ",\n{\"name\":\"wait\",\"cat\":\"pass %d\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,"
                   "\"ts\":%.3f,\"dur\":%.3f}",
                p + 1, g->lane, to_us(d, g->start), to_us(d, g->waited - g->start));
    }
  }
}

static void write_sim_events(FILE *f, const ts_run *run)
{
  const ts_sched *s = ts_run_sched(run);
  fprintf(f, ",\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":2,\"args\":{\"name\":"
             "\"simulated: %d slot%s, one tick = 1 us\"}}",
          s->params.slots, s->params.slots == 1 ? "" : "s");
  for (int p = 0; p < s->npasses; p++) {
    const ts_pass_sched *ps = &s->pass[p];
    for (uint32_t d = 0; d < ps->n; d++) {
      uint32_t id = ps->order[d];
      const ts_thread *t = &ps->t[id];
      fprintf(f, ",\n{\"name\":\"thread %u,%u\",\"cat\":\"pass %d\",\"ph\":\"X\",\"pid\":2,"
                 "\"tid\":%d,\"ts\":%" PRId64 ",\"dur\":%" PRId64 ",\"args\":{\"dispatch\":%u,"
                 "\"dispatch_tick\":%" PRId64 ",\"depth\":%d,\"hazards\":%d}}",
              id % (uint32_t)ps->tw, id / (uint32_t)ps->tw, p + 1, t->slot, t->start_tick,
              t->end_tick - t->start_tick, d, t->dispatch_tick, t->depth, t->hazards);
    }
  }
}

static void write_record(FILE *f, const ts_run *run, const ts_dev_run *d, const char *input)
{
  const ts_run_params *p = ts_run_params_of(run);
  const ts_kctx *k = ts_run_kctx(run);
  const ts_sched *s = ts_run_sched(run);
  fprintf(f, "{\"version\":1,\"variant\":");
  ts_json_string(f, p->variant->name);
  fprintf(f, ",\"pattern\":\"%s\",\"walk\":\"%s\",\"slots\":%d,\"cost\":%d,\"ksize\":%d,"
             "\"sigma\":%.17g,\"image\":[%d,%d,%d],\"input\":",
          ts_pattern_name(p->sched.pattern), ts_walk_name(p->sched.walk), p->sched.slots, p->cost,
          p->ksize, p->sigma, k->W, k->H, ts_run_output_u32(run) ? 1 : k->C);
  ts_json_string(f, input ? input : "");
  fprintf(f, ",\"device\":");
  ts_json_string(f, d->device);
  fprintf(f, ",\"clock\":\"%s\",\"kernel_ms\":%.6f,", d->clock_ns ? "ns" : "logical",
          d->kernel_ms);
  if (d->adversary)
    fprintf(f, "\"adversary\":%" PRIu32 ",", d->adversary);
  fputs("\n\"passes\":[", f);
  for (int pi = 0; pi < d->npasses; pi++) {
    const ts_dev_pass *dp = &d->pass[pi];
    fprintf(f, "%s{\"tw\":%d,\"th\":%d,%s\"groups\":[", pi ? ",\n" : "", s->pass[pi].tw,
            s->pass[pi].th, dp->lookback ? "\"lookback\":1," : "");
    for (uint32_t t = 0; dp->rec && t < dp->n; t++) {
      const ts_grec *g = &dp->rec[t];
      fprintf(f, "%s[%u,%d,%d,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64, t ? (t % 8 ? "," : ",\n")
              : "", g->group, g->unit, g->tx, g->ty, g->start, g->waited, g->end);
      if (dp->lookback)
        fprintf(f, ",%" PRIu64 ",%d,%d", g->published, g->bound, g->bound_agg);
      fputc(']', f);
    }
    fprintf(f, "]}");
  }
  fprintf(f, "],\n\"wrong\":[");
  const ts_pass_sched *last = &s->pass[s->npasses - 1];
  int any = 0;
  for (uint32_t id = 0; d->wrong && id < last->n; id++)
    if (d->wrong[id])
      fprintf(f, "%s%u", any++ ? "," : "", id);
  fprintf(f, "]}");
}

ts_status ts_trace_write_to(ts_outfile *of, const ts_run *run, const char *input, ts_error *err)
{
  const ts_dev_run *d = ts_run_device_result(run);
  if (!d || !d->pass[0].rec)
    return ts_fail(err, TS_ERR_ARG, "%s: no device record to write (--trace needs --exec device)",
                   of->path);
  fprintf(of->f, "{\"tilescope\":");
  write_record(of->f, run, d, input);
  fprintf(of->f, ",\n\"displayTimeUnit\":\"ns\",\n\"traceEvents\":[\n");
  write_device_events(of->f, run, d);
  write_sim_events(of->f, run);
  fprintf(of->f, "\n]}\n");
  return TS_OK;
}

ts_status ts_trace_write(const char *path, const ts_run *run, const char *input, ts_error *err)
{
  ts_outfile of;
  ts_status st = ts_outfile_open(&of, path, err);
  if (st == TS_OK && (st = ts_trace_write_to(&of, run, input, err)) == TS_OK)
    return ts_outfile_commit(&of, err);
  ts_outfile_abort(&of);
  return st;
}

/* ---- reading ---- */

enum { JSON_MAX_DEPTH = 64 };

typedef struct jp {
  const char *s, *end, *path, *base;
  int depth;
  ts_error *err;
} jp;

static void ws(jp *j)
{
  while (j->s < j->end && (*j->s == ' ' || *j->s == '\n' || *j->s == '\r' || *j->s == '\t'))
    j->s++;
}

static ts_status bad(jp *j, const char *what)
{
  return ts_fail(j->err, TS_ERR_FORMAT, "%s: not a tilescope trace: %s at byte %td", j->path,
                 what, j->s - j->base);
}

static int eat(jp *j, char c)
{
  ws(j);
  if (j->s < j->end && *j->s == c) {
    j->s++;
    return 1;
  }
  return 0;
}

/* A string into buf (truncated to size - 1; escapes other than \uXXXX kept simple). */
static ts_status str(jp *j, char *buf, size_t size)
{
  size_t n = 0;
  if (!eat(j, '"'))
    return bad(j, "expected a string");
  while (j->s < j->end && *j->s != '"') {
    char c = *j->s++;
    if (c == '\\') {
      if (j->s >= j->end)
        break;
      c = *j->s++;
      if (c == 'u') {
        if (j->end - j->s < 4)
          return bad(j, "short \\u escape");
        j->s += 4;
        c = '?';
      } else if (c == 'n') {
        c = '\n';
      } else if (c == 't') {
        c = '\t';
      }
    } else if ((unsigned char)c < 0x20) {
      return bad(j, "control character in a string");
    }
    if (buf && n + 1 < size)
      buf[n++] = c;
  }
  if (buf && size)
    buf[n] = 0;
  if (j->s >= j->end)
    return bad(j, "unterminated string");
  j->s++;
  return TS_OK;
}

/* A JSON number (ts_scan_real's form), read from a copy: the text is not NUL-terminated. */
static ts_status num(jp *j, double *v)
{
  ws(j);
  char tmp[48];
  size_t n = 0;
  while (n < sizeof tmp - 1 && j->s + n < j->end && j->s[n] && strchr("+-0123456789.eE", j->s[n]))
    n++;
  memcpy(tmp, j->s, n);
  tmp[n] = 0;
  size_t len = n ? ts_scan_real(tmp, v) : 0;
  if (len == 0 || len != n)
    return bad(j, n ? "malformed number" : "expected a number");
  j->s += n;
  return TS_OK;
}

static ts_status skip(jp *j)
{
  ws(j);
  if (j->s >= j->end)
    return bad(j, "unexpected end");
  if (++j->depth > JSON_MAX_DEPTH)
    return bad(j, "nested too deep");
  ts_status st = TS_OK;
  char c = *j->s;
  if (c == '{' || c == '[') {
    char close = c == '{' ? '}' : ']';
    j->s++;
    if (!eat(j, close)) {
      do {
        if (c == '{' && ((st = str(j, NULL, 0)) != TS_OK || (!eat(j, ':') && (st = bad(j, "expected ':'")))))
          break;
        if ((st = skip(j)) != TS_OK)
          break;
      } while (eat(j, ','));
      if (st == TS_OK && !eat(j, close))
        st = bad(j, "expected ',' or a closing bracket");
    }
  } else if (c == '"') {
    st = str(j, NULL, 0);
  } else if (c == 't' || c == 'f' || c == 'n') {
    const char *w = c == 't' ? "true" : c == 'f' ? "false" : "null";
    size_t n = strlen(w);
    if ((size_t)(j->end - j->s) < n || memcmp(j->s, w, n) != 0)
      st = bad(j, "unknown word");
    else
      j->s += n;
  } else {
    double v;
    st = num(j, &v);
  }
  j->depth--;
  return st;
}

static ts_status int_in(jp *j, double lo, double hi, const char *what, int64_t *out)
{
  double v;
  ts_status st = num(j, &v);
  if (st != TS_OK)
    return st;
  if (v < lo || v > hi || v != floor(v))
    return ts_fail(j->err, TS_ERR_FORMAT, "%s: %s %g is out of range (a whole number, %.16g..%.16g)",
                   j->path, what, v, lo, hi);
  *out = (int64_t)v;
  return TS_OK;
}

/* [group, unit, tx, ty, start, waited, end], and for a pass that looks back (n = 10)
 * [..., published, bound, bound_agg]. */
static ts_status group_rec(jp *j, ts_grec *g, int n)
{
  int64_t v[10];
  static const char *const names[] = { "group", "unit", "tile x", "tile y", "start", "wait",
                                       "end", "publication", "bound", "bound's state" };
  static const double lo[] = { 0, -1, 0, 0, 0, 0, 0, 0, -1, 0 };
  static const double hi[] = { 2147483647.0, 65535.0, 2147483647.0, 2147483647.0,
                               9007199254740992.0, 9007199254740992.0, 9007199254740992.0,
                               9007199254740992.0, 2147483647.0, 1 };
  if (!eat(j, '['))
    return bad(j, "expected a group record");
  for (int i = 0; i < n; i++) {
    if (i && !eat(j, ','))
      return bad(j, n == 7 ? "a group record has 7 numbers"
                           : "a group record of a look-back pass has 10 numbers");
    /* a compute unit past the logical lanes' limit is no device's (a GPU has a few hundred):
     * the Gantt chart has a row for every one */
    ts_status st = int_in(j, lo[i], i == 1 ? TS_DEV_MAX_LANES - 1 : hi[i], names[i], &v[i]);
    if (st != TS_OK)
      return st;
  }
  if (!eat(j, ']'))
    return bad(j, n == 7 ? "a group record has 7 numbers"
                         : "a group record of a look-back pass has 10 numbers");
  if (v[5] < v[4] || v[6] < v[5] || (n == 10 && (v[7] < v[4] || v[7] > v[6])))
    return ts_fail(j->err, TS_ERR_FORMAT, "%s: a group's times are out of order", j->path);
  *g = (ts_grec){ .group = (uint32_t)v[0], .unit = (int32_t)v[1], .tx = (int32_t)v[2],
                  .ty = (int32_t)v[3], .start = (uint64_t)v[4], .waited = (uint64_t)v[5],
                  .end = (uint64_t)v[6], .published = (uint64_t)(n == 10 ? v[7] : v[6]),
                  .bound = n == 10 ? (int32_t)v[8] : -1, .bound_agg = n == 10 && v[9] };
  return TS_OK;
}

static ts_status pass_rec(jp *j, ts_dev_pass *dp, int *tw, int *th)
{
  if (!eat(j, '{'))
    return bad(j, "expected a pass object");
  ts_status st = TS_OK;
  size_t cap = 0;
  do {
    char key[32];
    if ((st = str(j, key, sizeof key)) != TS_OK)
      return st;
    if (!eat(j, ':'))
      return bad(j, "expected ':'");
    int64_t v = 0;
    if (strcmp(key, "tw") == 0 || strcmp(key, "th") == 0) {
      if ((st = int_in(j, 1, TS_IMAGE_MAX_DIM, key, &v)) != TS_OK)
        return st;
      *(key[1] == 'w' ? tw : th) = (int)v;
    } else if (strcmp(key, "lookback") == 0) {
      if (dp->n > 0)
        return bad(j, "\"lookback\" comes after the groups");
      if ((st = int_in(j, 0, 1, key, &v)) != TS_OK)
        return st;
      dp->lookback = (int)v;
    } else if (strcmp(key, "groups") == 0) {
      if (!eat(j, '['))
        return bad(j, "expected the groups array");
      if (!eat(j, ']')) {
        do {
          if (dp->n == cap) {
            if (cap >= (1u << 26))
              return ts_fail(j->err, TS_ERR_TOO_LARGE, "%s: a pass of more than %u groups, "
                             "over the limit", j->path, 1u << 26);
            size_t nc = cap ? cap * 2 : 1024;
            ts_grec *r = realloc(dp->rec, nc * sizeof *r);
            if (!r)
              return ts_fail(j->err, TS_ERR_NOMEM, "out of memory");
            dp->rec = r;
            cap = nc;
          }
          if ((st = group_rec(j, &dp->rec[dp->n], dp->lookback ? 10 : 7)) != TS_OK)
            return st;
          dp->n++;
        } while (eat(j, ','));
        if (!eat(j, ']'))
          return bad(j, "expected ',' or ']' in groups");
      }
    } else if ((st = skip(j)) != TS_OK) {
      return st;
    }
  } while (eat(j, ','));
  if (!eat(j, '}'))
    return bad(j, "expected '}' after a pass");
  /* one work-group per tile, numbered from 0 */
  if ((uint64_t)*tw * (uint64_t)*th != dp->n)
    return ts_fail(j->err, TS_ERR_FORMAT, "%s: a pass of %dx%d tiles has %u work-groups",
                   j->path, *tw, *th, dp->n);
  for (uint32_t t = 0; t < dp->n; t++)
    if (dp->rec[t].group >= dp->n)
      return ts_fail(j->err, TS_ERR_FORMAT, "%s: group %u is out of range (a pass of %u groups)",
                     j->path, dp->rec[t].group, dp->n);
  /* What bound a wait is an earlier ticket: the critical path follows it back. */
  for (uint32_t t = 0; t < dp->n; t++)
    if (dp->rec[t].bound >= (int32_t)t)
      return ts_fail(j->err, TS_ERR_FORMAT, "%s: ticket %u's wait is bound by a later ticket, %d",
                     j->path, t, dp->rec[t].bound);
  return TS_OK;
}

static ts_status record(jp *j, ts_trace_info *info, ts_dev_run *d, uint32_t **wrong, size_t *nw)
{
  if (!eat(j, '{'))
    return bad(j, "\"tilescope\" is not an object");
  ts_status st = TS_OK;
  int version = 0, have_passes = 0;
  size_t cap = 0;
  do {
    char key[32], clock[16];
    int64_t v = 0;
    if ((st = str(j, key, sizeof key)) != TS_OK)
      return st;
    if (!eat(j, ':'))
      return bad(j, "expected ':'");
    if (strcmp(key, "version") == 0) {
      if ((st = int_in(j, 1, 1, "version", &v)) != TS_OK)
        return st;
      version = 1;
    } else if (strcmp(key, "variant") == 0) {
      st = str(j, info->variant, sizeof info->variant);
    } else if (strcmp(key, "pattern") == 0) {
      st = str(j, info->pattern, sizeof info->pattern);
    } else if (strcmp(key, "walk") == 0) {
      st = str(j, info->walk, sizeof info->walk);
    } else if (strcmp(key, "input") == 0) {
      st = str(j, info->input, sizeof info->input);
    } else if (strcmp(key, "device") == 0) {
      st = str(j, d->device, sizeof d->device);
    } else if (strcmp(key, "clock") == 0) {
      if ((st = str(j, clock, sizeof clock)) == TS_OK)
        d->clock_ns = strcmp(clock, "ns") == 0;
    } else if (strcmp(key, "adversary") == 0) {
      if ((st = int_in(j, 1, UINT32_MAX, key, &v)) == TS_OK)
        d->adversary = (uint32_t)v;
    } else if (strcmp(key, "slots") == 0) {
      if ((st = int_in(j, 1, TS_SLOTS_MAX, key, &v)) == TS_OK)
        info->slots = (int)v;
    } else if (strcmp(key, "cost") == 0) {
      if ((st = int_in(j, 0, TS_COST_MAX, key, &v)) == TS_OK) /* 0: the variant's */
        info->cost = (int)v;
    } else if (strcmp(key, "ksize") == 0) {
      if ((st = int_in(j, 0, TS_GAUSS_MAX_K, key, &v)) == TS_OK && v != 0 && (v < 3 || v % 2 == 0))
        st = ts_fail(j->err, TS_ERR_FORMAT, "%s: ksize %d is not a Gaussian's size (odd, 3..%d)",
                     j->path, (int)v, TS_GAUSS_MAX_K);
      info->ksize = (int)v;
    } else if (strcmp(key, "sigma") == 0) {
      if ((st = num(j, &info->sigma)) == TS_OK && info->sigma != 0 &&
          !(info->sigma >= 0.01 && info->sigma <= 100))
        st = ts_fail(j->err, TS_ERR_FORMAT, "%s: sigma %g is out of range (0 for the default, "
                     "or 0.01..100)", j->path, info->sigma);
    } else if (strcmp(key, "image") == 0) {
      int64_t w = 0, h = 0, c = 0;
      if (!eat(j, '[') || (st = int_in(j, 1, TS_IMAGE_MAX_DIM, "width", &w)) != TS_OK ||
          !eat(j, ',') || (st = int_in(j, 1, TS_IMAGE_MAX_DIM, "height", &h)) != TS_OK ||
          !eat(j, ',') || (st = int_in(j, 1, 4, "channels", &c)) != TS_OK || !eat(j, ']'))
        return st != TS_OK ? st : bad(j, "\"image\" is [width, height, channels]");
      if (c == 2)
        return ts_fail(j->err, TS_ERR_FORMAT, "%s: channels 2 is not an image's (1, 3 or 4)",
                       j->path);
      info->w = (int)w;
      info->h = (int)h;
      info->c = (int)c;
    } else if (strcmp(key, "passes") == 0) {
      if (!eat(j, '['))
        return bad(j, "expected the passes array");
      do {
        if (d->npasses == TS_MAX_PASSES)
          return ts_fail(j->err, TS_ERR_FORMAT, "%s: more than %d passes", j->path,
                         TS_MAX_PASSES);
        int tw = 0, th = 0;
        if ((st = pass_rec(j, &d->pass[d->npasses], &tw, &th)) != TS_OK)
          return st;
        d->npasses++;
      } while (eat(j, ','));
      if (!eat(j, ']'))
        return bad(j, "expected ']' after the passes");
      have_passes = 1;
    } else if (strcmp(key, "wrong") == 0) {
      if (!eat(j, '['))
        return bad(j, "expected the wrong tiles array");
      if (!eat(j, ']')) {
        do {
          if (*nw == cap) {
            if (cap >= (1u << 26))
              return ts_fail(j->err, TS_ERR_TOO_LARGE, "%s: more than %u wrong tiles, over "
                             "the limit", j->path, 1u << 26);
            size_t nc = cap ? cap * 2 : 256;
            uint32_t *r = realloc(*wrong, nc * sizeof *r);
            if (!r)
              return ts_fail(j->err, TS_ERR_NOMEM, "out of memory");
            *wrong = r;
            cap = nc;
          }
          if ((st = int_in(j, 0, 4294967295.0, "wrong tile", &v)) != TS_OK)
            return st;
          (*wrong)[(*nw)++] = (uint32_t)v;
        } while (eat(j, ','));
        if (!eat(j, ']'))
          return bad(j, "expected ']' after the wrong tiles");
      }
    } else {
      st = skip(j);
    }
    if (st != TS_OK)
      return st;
  } while (eat(j, ','));
  if (!eat(j, '}'))
    return bad(j, "expected '}' after the record");
  if (!version || !have_passes || !info->variant[0] || !info->w)
    return ts_fail(j->err, TS_ERR_FORMAT,
                   "%s: the \"tilescope\" record lacks its version, variant, image or passes",
                   j->path);
  return TS_OK;
}

ts_status ts_trace_read(const char *path, ts_trace_info *info, ts_dev_run **out, ts_error *err)
{
  uint8_t *data;
  size_t len;
  ts_status st = ts_file_read_all(path, (size_t)1 << 30, &data, &len, err);
  if (st != TS_OK)
    return st;
  st = ts_trace_decode((const char *)data, len, path, info, out, err);
  free(data);
  return st;
}

ts_status ts_trace_decode(const char *data, size_t len, const char *path, ts_trace_info *info,
                          ts_dev_run **out, ts_error *err)
{
  ts_status st = TS_OK;
  memset(info, 0, sizeof *info);
  ts_dev_run *d = calloc(1, sizeof *d);
  uint32_t *wrong = NULL;
  size_t nw = 0;
  jp j = { data, data + len, path, data, 0, err };
  int found = 0;
  if (!d) {
    st = ts_fail(err, TS_ERR_NOMEM, "out of memory");
  } else if (!eat(&j, '{')) {
    st = bad(&j, "expected a JSON object");
  } else if (!eat(&j, '}')) {
    do {
      char key[32];
      if ((st = str(&j, key, sizeof key)) != TS_OK)
        break;
      if (!eat(&j, ':')) {
        st = bad(&j, "expected ':'");
        break;
      }
      if (strcmp(key, "tilescope") == 0 && !found) {
        found = 1;
        st = record(&j, info, d, &wrong, &nw);
      } else {
        st = skip(&j);
      }
    } while (st == TS_OK && eat(&j, ','));
    if (st == TS_OK && !eat(&j, '}'))
      st = bad(&j, "expected '}' at the end");
  }
  if (st == TS_OK) {
    ws(&j);
    if (j.s != j.end)
      st = bad(&j, "something follows the closing '}'");
  }
  if (st == TS_OK && !found)
    st = ts_fail(err, TS_ERR_FORMAT, "%s: no \"tilescope\" record (not written by tilescope run --trace)",
                 path);
  if (st == TS_OK && d->npasses > 0) {
    uint32_t nlast = d->pass[d->npasses - 1].n;
    d->wrong = calloc(nlast ? nlast : 1, 1);
    if (!d->wrong)
      st = ts_fail(err, TS_ERR_NOMEM, "out of memory");
    for (size_t i = 0; st == TS_OK && i < nw; i++) {
      if (wrong[i] >= nlast) {
        st = ts_fail(err, TS_ERR_FORMAT, "%s: wrong tile %u is not a thread of the last pass",
                     path, wrong[i]);
        break;
      }
      d->nwrong += !d->wrong[wrong[i]];
      d->wrong[wrong[i]] = 1;
    }
  }
  free(wrong);
  if (st != TS_OK) {
    ts_dev_run_free(d);
    return st;
  }
  ts_dev_run_finish(d);
  *out = d;
  return TS_OK;
}
