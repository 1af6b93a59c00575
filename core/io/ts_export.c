/* .npy (format version 1.0) and CSV writers, through atomic output files. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ts_export.h"
#include "ts_file.h"
#include "ts_npy.h"

ts_status ts_export_npy_to(ts_outfile *of, const ts_run *run, ts_error *err)
{
  (void)err;
  const ts_kctx *k = ts_run_kctx(run);
  const ts_buf *b = &k->buf[TS_BUF_OUT];
  int wide = ts_run_output_u32(run) != NULL;
  ts_npy a = { .ndim = wide ? 2 : 3, .shape = { k->H, k->W, k->C } };
  snprintf(a.descr, sizeof a.descr, "%s", wide ? "<u4" : "|u1");
  ts_npy_write_header(of->f, &a);
  size_t n = (size_t)b->cols * (size_t)b->rows;
  if (wide) {
    const uint32_t *s = ts_run_output_u32(run);
    for (size_t i = 0; i < n; i++) {
      uint8_t le[4] = { (uint8_t)s[i], (uint8_t)(s[i] >> 8), (uint8_t)(s[i] >> 16),
                        (uint8_t)(s[i] >> 24) };
      fwrite(le, 1, 4, of->f);
    }
  } else {
    fwrite(b->data, 1, n, of->f);
  }
  return TS_OK; /* a write error shows when the caller commits */
}

ts_status ts_export_schedule_csv_to(ts_outfile *of, const ts_run *run, ts_error *err)
{
  (void)err;
  const ts_sched *s = ts_run_sched(run);
  fputs("pass,x,y,dispatch,slot,dispatch_tick,start_tick,end_tick,depth,hazards\n", of->f);
  for (int p = 0; p < s->npasses; p++) {
    const ts_pass_sched *ps = &s->pass[p];
    for (uint32_t r = 0; r < ps->n; r++) {
      uint32_t id = ps->order[r];
      const ts_thread *t = &ps->t[id];
      fprintf(of->f, "%d,%u,%u,%" PRIu32 ",%" PRId32 ",%" PRId64 ",%" PRId64 ",%" PRId64
                    ",%" PRId32 ",%" PRId32 "\n",
              p + 1, id % (uint32_t)ps->tw, id / (uint32_t)ps->tw, t->dispatch, t->slot,
              t->dispatch_tick, t->start_tick, t->end_tick, t->depth, t->hazards);
    }
  }
  return TS_OK; /* a write error shows when the caller commits */
}

typedef ts_status (*writer)(ts_outfile *of, const ts_run *run, ts_error *err);

static ts_status write_file(const char *path, writer fn, const ts_run *run, ts_error *err)
{
  ts_outfile of;
  ts_status st = ts_outfile_open(&of, path, err);
  if (st == TS_OK && (st = fn(&of, run, err)) == TS_OK)
    return ts_outfile_commit(&of, err);
  ts_outfile_abort(&of);
  return st;
}

ts_status ts_export_npy(const char *path, const ts_run *run, ts_error *err)
{
  return write_file(path, ts_export_npy_to, run, err);
}

ts_status ts_export_schedule_csv(const char *path, const ts_run *run, ts_error *err)
{
  return write_file(path, ts_export_schedule_csv_to, run, err);
}
