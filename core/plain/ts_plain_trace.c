/* A plain kernel's work-group records as trace-event JSON (ui.perfetto.dev, chrome://tracing):
 * a process per pass, each work-group a slice from its start to its end on the launch's
 * clock (a tick a microsecond: the clock counts the groups' starts, barriers and ends in the
 * order the device made them, not time), its barriers as instants, packed into as few rows
 * as keep slices from overlapping; its ticket, its launch id and the polls it waited for its
 * turn as the slice's arguments. Written to a temporary file and renamed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_file.h"
#include "ts_plain.h"

/* The groups that started, by start: into by[], their number returned. */
static uint32_t by_start(const ts_plain_launch *L, uint32_t *by)
{
  uint32_t n = 0;
  for (uint32_t g = 0; g < L->ngroups_all; g++)
    if (L->groups[g].start)
      by[n++] = g;
  for (uint32_t i = 1; i < n; i++) { /* insertion: the ids come nearly in order */
    uint32_t x = by[i], j = i;
    while (j > 0 && L->groups[by[j - 1]].start > L->groups[x].start) {
      by[j] = by[j - 1];
      j--;
    }
    by[j] = x;
  }
  return n;
}

ts_status ts_plain_trace_write(const ts_plain_result *r, const char *path, ts_error *err)
{
  ts_outfile of;
  ts_status st = ts_outfile_open(&of, path, err);
  if (st != TS_OK)
    return st;
  FILE *f = of.f;
  fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"clock\":\"a tick each work-group "
             "start, barrier and end, in the device's order\"},\"traceEvents\":[");
  int first = 1;
  for (int p = 0; p < r->npasses; p++) {
    const ts_plain_launch *L = &r->launch[p];
    if (!L->groups)
      continue;
    fprintf(f, "%s{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":"
               "\"pass %d: %s, %u work-groups\"}}", first ? "" : ",", p + 1, p + 1, L->entry,
            L->ngroups_all);
    first = 0;
    uint32_t *by = malloc((size_t)L->ngroups_all * sizeof *by + 1);
    uint32_t *lane_end = calloc((size_t)L->ngroups_all + 1, sizeof *lane_end);
    if (!by || !lane_end) {
      free(by);
      free(lane_end);
      ts_outfile_abort(&of);
      return ts_fail(err, TS_ERR_NOMEM, "out of memory");
    }
    uint32_t n = by_start(L, by), lanes = 0;
    for (uint32_t i = 0; i < n; i++) {
      const ts_plain_group *G = &L->groups[by[i]];
      uint32_t s = G->start - 1, e = G->end ? G->end - 1 : L->ticks;
      uint32_t lane = 0; /* the first row free by the slice's start */
      while (lane < lanes && lane_end[lane] > s)
        lane++;
      if (lane == lanes)
        lanes++;
      lane_end[lane] = e + 1;
      uint32_t g = by[i];
      fprintf(f, ",{\"ph\":\"X\",\"name\":\"group (%u,%u,%u)\",\"pid\":%d,\"tid\":%u,\"ts\":%u,"
                 "\"dur\":%u,\"args\":{\"ticket\":%u,\"launched_as\":%u,\"spins\":%u,"
                 "\"barriers\":%u,\"ended\":%s}}",
              g % L->ngroups[0], g / L->ngroups[0] % L->ngroups[1],
              g / L->ngroups[0] / L->ngroups[1], p + 1, lane, s, e > s ? e - s : 1, G->ticket,
              G->launched_as, G->spins, G->nbar, G->end ? "true" : "false");
      for (uint32_t b = 0; b < G->nbar && b < TS_PLAIN_REC_BARS; b++)
        if (G->bar[b])
          fprintf(f, ",{\"ph\":\"i\",\"s\":\"t\",\"name\":\"barrier %u\",\"pid\":%d,\"tid\":%u,"
                     "\"ts\":%u}", b + 1, p + 1, lane, G->bar[b] - 1);
    }
    free(by);
    free(lane_end);
  }
  fprintf(f, "]}\n");
  return ts_outfile_commit(&of, err);
}
