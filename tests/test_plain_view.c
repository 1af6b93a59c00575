/* The viewer's plain kernel (app/worker/plain_view.c) without a window: a run observed on its
 * thread and taken; an edit seen by the mtime poll; a reload of a file that no longer builds
 * keeps the last good run beside the error line; the next good edit is taken, its findings
 * tinting the work-groups they name; the work-group under a point; a watched output pixel
 * (a click) lists both work-groups that write pixel (16,0) of broken_tile.cl, and a new one
 * keeps the last result until it arrives; the source pane's queries (a finding's two sides,
 * the groups of a line and the lines of a group, the steps, a race in time) on that result. Skips (77) without an OpenCL device. */
#define _POSIX_C_SOURCE 200809L
#include <SDL2/SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "check.h"
#include "plain_view.h"
#include "ts_file.h"

/* Waits for the attempt asked for and takes it; 0 on timeout. */
static int settle(plain_view *pv)
{
  for (int i = 0; i < 60000; i++) {
    plain_view_pick_up(pv);
    if (pv->done && !plain_view_busy(pv))
      return 1;
    SDL_Delay(1);
  }
  return 0;
}

/* Writes `src` (a file of the examples, or literal text when not found) to `path`, with an
 * mtime `age` seconds after the last. */
static void write_file(const char *path, const char *src, time_t when)
{
  uint8_t *text = NULL;
  size_t len = 0;
  char from[1024];
  snprintf(from, sizeof from, "%s/kernels/plain/%s", TS_ASSETS_DIR, src);
  int file = ts_file_read_all(from, 1u << 20, &text, &len, NULL) == TS_OK;
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(file ? (const char *)text : src, 1, file ? len : strlen(src), f);
    fclose(f);
  }
  free(text);
  struct utimbuf t = { when, when };
  utime(path, &t);
}

/* The row whose text is `text`, or NULL. */
static const pv_watch_row *row_of(const plain_view *pv, const char *text)
{
  for (size_t i = 0; i < pv->nrows; i++)
    if (strcmp(pv->rows[i].text, text) == 0)
      return &pv->rows[i];
  return NULL;
}

/* The source pane's queries on broken_tile.cl's result with pixel (16,0) watched: its race
 * between the two groups, A the write at line 20 by group (1,0) item (0,0), B group (0,0)'s
 * at line 22 (which of its work-items, the record does not keep); the groups of a line and the
 * lines of a group, as far as the findings and the watched pixel tell; the steps through the
 * findings, wrapping; the race placed in time, the writer first. */
static void source_queries(const plain_view *pv)
{
  const ts_plain_result *r = pv->res;
  size_t idx[8], n = plain_view_line_findings(pv, 20, idx, 8);
  int race = -1;
  for (size_t k = 0; k < n && k < 8; k++)
    if (r->findings[idx[k]].line == 20 && r->findings[idx[k]].kind == TS_FIND_RACE_GROUPS)
      race = (int)idx[k];
  CHECK(race >= 0, "a race between work-groups at line 20 (%zu findings there)", n);
  CHECK(plain_view_line_findings(pv, 3, idx, 8) == 0, "none at line 3, a comment");
  if (race < 0)
    return;
  pv_side a, b;
  CHECK(plain_view_sides(&r->findings[race], &a, &b) == 1, "a race has two sides");
  CHECK(a.line == 20 && a.group == 1 && a.item == 0 && a.acc == 2,
        "A: line 20, group (1,0) item (0,0) writes (%d, %u, %u, %d)", a.line, a.group, a.item,
        a.acc);
  CHECK(b.line == 22 && b.group == 0 && b.item == UINT32_MAX && b.acc == 2,
        "B: line 22, group (0,0), its work-item not known, writes (%d, %u, %u, %d)", b.line,
        b.group, b.item, b.acc);
  uint32_t g[8];
  size_t ng = plain_view_line_groups(pv, 20, g, 8);
  int has1 = 0;
  for (size_t k = 0; k < ng && k < 8; k++)
    has1 |= g[k] == 1;
  CHECK(ng >= 1 && has1, "line 20 was run by group (1,0) (%zu groups)", ng);
  ng = plain_view_line_groups(pv, 22, g, 8);
  CHECK(ng >= 1 && g[0] == 0, "line 22 by group (0,0) (%zu groups)", ng);
  CHECK(plain_view_line_groups(pv, 3, g, 8) == 0, "line 3 by none that the run tells");
  int lines[8];
  size_t nl = plain_view_group_lines(pv, 0, lines, 8);
  int has22 = 0;
  for (size_t k = 0; k < nl && k < 8; k++)
    has22 |= lines[k] == 22;
  CHECK(has22, "group (0,0) touched line 22 (%zu lines)", nl);
  nl = plain_view_group_lines(pv, 1, lines, 8);
  CHECK(nl >= 1 && lines[0] == 20, "group (1,0) line 20 first (%zu lines)", nl);
  int nf = (int)r->nfindings;
  CHECK(plain_view_finding_step(pv, -1, 1) == 0 && plain_view_finding_step(pv, -1, -1) == nf - 1 &&
        plain_view_finding_step(pv, nf - 1, 1) == 0 && plain_view_finding_step(pv, 0, -1) == nf - 1,
        "n and N step through the %d findings, wrapping", nf);
  char t[400];
  plain_view_finding_time(pv, (size_t)race, t, sizeof t);
  printf("  %s\n", t);
  CHECK(strncmp(t, "work-group (1,0) wrote it while running ticks ", 46) == 0 &&
        strstr(t, "; work-group (0,0) wrote it, ticks "), "the race in time: '%s'", t);
}

/* broken_tile.cl on 40x24 (2x1 work-groups of 16x16): its groups' last column also writes the
 * next column, so pixel (16,0) is written by group (0,0) item (15,0) at line 22 and by group
 * (1,0) item (0,0) at line 20, three channels each. Run in the linear order (one group at a
 * time, by id), so that the race is found at the second write, (1,0)'s, in every run: in the
 * device's order either group may write first. */
static void watched(const ts_image *img)
{
  ts_plain_opts lin = { 0 };
  lin.order = TS_ORDER_LINEAR;
  plain_view_order(&lin);
  char path[1024];
  snprintf(path, sizeof path, "%s/kernels/plain/broken_tile.cl", TS_ASSETS_DIR);
  plain_view *pv = plain_view_start(path, NULL, TS_KERNELS_DIR, -1);
  CHECK(pv != NULL, "plain_view_start broken_tile.cl");
  if (!pv)
    return;
  plain_view_watch(pv, 16, 0); /* before the first request: the first run watches it */
  CHECK(!plain_view_busy(pv), "a watch before the first request runs nothing yet");
  plain_view_request(pv, img, 1, 0);
  CHECK(settle(pv) && pv->res && !pv->error[0], "the watched run finishes: %s", pv->error);
  CHECK(pv->res_watch_x == 16 && pv->res_watch_y == 0, "the result watched (16,0)");
  const char *a = "line 22: work-group (0,0) item (15,0) writes out pixel (16,0) channels 0-2",
             *b = "line 20: work-group (1,0) item (0,0) writes out pixel (16,0) channels 0-2";
  CHECK(pv->nrows == 2 && pv->nwriters == 2, "two lines, both writers (%zu, %zu)", pv->nrows,
        pv->nwriters);
  for (size_t i = 0; i < pv->nrows; i++)
    printf("  %s\n", pv->rows[i].text);
  const pv_watch_row *ra = row_of(pv, a), *rb = row_of(pv, b);
  CHECK(ra && ra->group == 0 && ra->item == 15 && ra->line == 22, "lists '%s'", a);
  CHECK(rb && rb->group == 1 && rb->item == 0 && rb->line == 20, "lists '%s'", b);
  CHECK(plain_view_group_wrote_watched(pv, 0) && plain_view_group_wrote_watched(pv, 1),
        "both groups wrote it");
  source_queries(pv);

  /* Another pixel: the last result stays until the new one is taken. */
  plain_view_watch(pv, 5, 5);
  CHECK(plain_view_busy(pv), "a new watched pixel runs again");
  CHECK(pv->res && pv->res_watch_x == 16 && pv->nrows == 2, "the last result stays meanwhile");
  CHECK(settle(pv) && pv->serial == 2 && pv->res_watch_x == 5 && pv->res_watch_y == 5,
        "the new one is taken");
  CHECK(pv->nrows == 1 && pv->nwriters == 1 && row_of(pv, "line 20: work-group (0,0) item (5,5) "
                                                           "writes out pixel (5,5) channels 0-2"),
        "pixel (5,5): its one writer (%zu lines)", pv->nrows);
  CHECK(!plain_view_group_wrote_watched(pv, 1), "group (1,0) did not write it");

  /* No pixel: no rows. */
  plain_view_watch(pv, -1, -1);
  CHECK(settle(pv) && pv->serial == 3 && pv->res_watch_x < 0 && pv->nrows == 0,
        "unwatched: no rows");
  plain_view_stop(pv);
  ts_plain_opts device = { 0 };
  plain_view_order(&device); /* the device's again */
}

/* The run stepped tick by tick (gauss_tiled on 40x24: six groups with a barrier each): the
 * clock's ticks are the groups' starts, barriers and ends; every group is pending at tick 0
 * and done at the end, between its start and end running, past its barrier once that tick
 * came; the output at a tick is dark over what a group wrote until that group ends, the output
 * itself at the end; and the output changes between two ticks exactly where a group ended. */
static void stepped(const plain_view *pv, const ts_plain_launch *L)
{
  uint32_t n = plain_view_ticks(pv), events = 0;
  for (uint32_t g = 0; g < L->ngroups_all; g++)
    events += 2 + (L->groups[g].nbar < TS_PLAIN_REC_BARS ? L->groups[g].nbar : TS_PLAIN_REC_BARS);
  CHECK(n > 0 && n == events, "the ticks are the groups' starts, barriers and ends (%u, %u)", n,
        events);
  for (uint32_t g = 0; g < L->ngroups_all; g++) {
    const ts_plain_group *G = &L->groups[g];
    CHECK(G->start && G->end && G->nbar == 1 && G->start < G->bar[0] && G->bar[0] < G->end &&
          G->end <= n, "group %u: start %u < barrier %u < end %u <= %u", g, G->start, G->bar[0],
          G->end, n);
    CHECK(plain_view_group_state(G, 0) == PV_PENDING && plain_view_group_state(G, n) == PV_DONE,
          "group %u: pending at 0, done at the end", g);
    CHECK(plain_view_group_state(G, G->start) == PV_RUNNING &&
          plain_view_group_state(G, G->bar[0] - 1) == PV_RUNNING &&
          plain_view_group_state(G, G->bar[0]) == PV_PAST_BARRIER &&
          plain_view_group_state(G, G->end - 1) == PV_PAST_BARRIER &&
          plain_view_group_state(G, G->end) == PV_DONE &&
          plain_view_group_state(G, G->start - 1) == PV_PENDING,
          "group %u: running from its start, past its barrier from its tick, done from its end", g);
    CHECK(plain_view_barriers_by(G, G->bar[0] - 1) == 0 && plain_view_barriers_by(G, n) == 1,
          "group %u: its barrier counted from its tick", g);
  }
  const ts_image *o = pv->res->out;
  size_t bytes = (size_t)o->w * o->h * o->c;
  uint8_t *at = malloc(bytes), *before = malloc(bytes);
  if (!at || !before) {
    free(at);
    free(before);
    return;
  }
  plain_view_output_at(pv, n, 0, 0, o->w, o->h, at);
  CHECK(memcmp(at, o->data, bytes) == 0, "at the end, the output itself");
  const ts_plain_group *G0 = &L->groups[0];
  plain_view_output_at(pv, G0->end - 1, 0, 0, o->w, o->h, before);
  plain_view_output_at(pv, G0->end, 0, 0, o->w, o->h, at);
  size_t px = ((size_t)G0->wrote.y0 * o->w + G0->wrote.x0) * o->c;
  CHECK(memcmp(at + px, o->data + px, o->c) == 0 && before[px] < 40,
        "group 0's pixel: dark before its end (%u), the output from it", before[px]);
  size_t differ = 0, outside = 0;
  for (int y = 0; y < o->h; y++)
    for (int x = 0; x < o->w; x++) {
      size_t i = ((size_t)y * o->w + x) * o->c;
      int in = x >= G0->wrote.x0 && x <= G0->wrote.x1 && y >= G0->wrote.y0 && y <= G0->wrote.y1;
      int d = memcmp(at + i, before + i, o->c) != 0;
      differ += d;
      outside += d && !in;
    }
  CHECK(differ > 0 && outside == 0, "its end changes its rectangle alone (%zu, %zu outside)",
        differ, outside);
  ts_plain_rect r = { 0 };
  CHECK(plain_view_changed_between(pv, G0->end, G0->end - 1, &r) && r.x0 == G0->wrote.x0 &&
        r.y0 == G0->wrote.y0 && r.x1 == G0->wrote.x1 && r.y1 == G0->wrote.y1,
        "a change of one tick over its end: its rectangle");
  CHECK(!plain_view_changed_between(pv, G0->bar[0], G0->bar[0] - 1, &r) &&
        !plain_view_changed_between(pv, 5, 5, &r), "over no end: no change");
  CHECK(plain_view_changed_between(pv, 0, n, &r) && r.x0 == 0 && r.y0 == 0 && r.x1 == o->w - 1 &&
        r.y1 == o->h - 1, "from the start to the end: all of it");
  free(at);
  free(before);
}

int main(void)
{
  ts_cl *probe = NULL;
  if (ts_cl_create(-1, TS_KERNELS_DIR, &probe, NULL) != TS_OK) {
    printf("test_plain_view: skipped: no OpenCL device\n");
    return 77;
  }
  ts_cl_destroy(probe);
  if (SDL_Init(0) != 0) {
    fprintf(stderr, "test_plain_view: SDL_Init: %s\n", SDL_GetError());
    return 1;
  }
  char path[64];
  snprintf(path, sizeof path, "/tmp/tilescope-plain-view-%d.cl", (int)getpid());
  time_t t0 = time(NULL) - 100;
  write_file(path, "gauss_tiled.cl", t0);
  ts_image *img = NULL;
  ts_image_create(40, 24, 3, &img, NULL);
  for (size_t i = 0; i < (size_t)40 * 24 * 3; i++)
    img->data[i] = (uint8_t)(i * 37 % 251);

  plain_view *pv = plain_view_start(path, NULL, TS_KERNELS_DIR, -1);
  CHECK(pv != NULL, "plain_view_start");
  if (!pv)
    return check_exit("test_plain_view");
  CHECK(!plain_view_poll(pv), "an unchanged file polls as unchanged");
  plain_view_request(pv, img, 1, 0);
  CHECK(settle(pv), "the first run finishes");
  CHECK(pv->res && !pv->error[0] && pv->serial == 1, "the first run is taken: %s", pv->error);
  CHECK(pv->res && pv->res->nfindings == 0, "gauss_tiled is clean");
  const ts_plain_launch *L = plain_view_launch(pv);
  CHECK(L && L->ngroups_all == 6, "40x24 in 16x16 groups: 3x2 of them");
  uint32_t g = 99;
  CHECK(plain_view_group_at(pv, 20.5f, 17.5f, &g) && g == 4, "pixel (20,17) is group (1,1): %u", g);
  CHECK(!plain_view_group_at(pv, 41, 3, &g), "no group outside the image");
  if (L)
    stepped(pv, L);
  plain_view_request(pv, img, 1, 0);
  CHECK(!plain_view_busy(pv), "the same image asks for nothing");

  /* An edit that does not build: the poll sees it, the reload keeps the last good run. */
  write_file(path, "__kernel void gauss_tiled(__global const uchar *in, __global uchar *out, "
                   "int W, int H, int C) { oops }\n// tilescope: plain\n", t0 + 10);
  CHECK(plain_view_poll(pv), "the edit polls as changed");
  CHECK(!plain_view_poll(pv), "once");
  plain_view_request(pv, img, 1, 1);
  CHECK(settle(pv), "the failed reload finishes");
  CHECK(pv->error[0] && strstr(pv->error, path), "its error names the file: '%s'", pv->error);
  CHECK(!strchr(pv->error, '\n'), "in one line");
  CHECK(pv->res && pv->serial == 1 && pv->res->nfindings == 0, "the last good run stays");

  /* The next good edit is taken: broken_nobarrier's findings name work-groups. */
  write_file(path, "broken_nobarrier.cl", t0 + 20);
  CHECK(plain_view_poll(pv), "the second edit polls as changed");
  plain_view_request(pv, img, 1, 1);
  CHECK(settle(pv), "the good reload finishes");
  CHECK(!pv->error[0] && pv->serial == 2, "taken: '%s'", pv->error);
  CHECK(pv->res && pv->res->nfindings > 0, "broken_nobarrier has findings");
  uint32_t red = pv->ntinted[pv->pass][PV_RED], clean = pv->ntinted[pv->pass][PV_CLEAN];
  CHECK(red >= 1 && red + pv->ntinted[pv->pass][PV_ORANGE] + clean == 6,
        "its races tint the groups they name red (%u red, %u clean)", red, clean);
  for (size_t i = 0; pv->res && i < pv->res->nfindings; i++)
    for (int j = 0; j < pv->res->findings[i].nplaces; j++)
      CHECK(pv->tint[0][pv->res->findings[i].place[j].group] >= PV_ORANGE,
            "a group a finding names is tinted");

  /* A new image runs again. */
  img->data[0] ^= 1;
  plain_view_request(pv, img, 2, 0);
  CHECK(settle(pv) && pv->serial == 3, "a new image runs again");
  plain_view_stop(pv);

  watched(img);
  ts_image_destroy(img);
  remove(path);
  SDL_Quit();
  return check_exit("test_plain_view");
}
