/* A plain kernel's observed run as a page's data (see page_plain.h): per pass the work-groups'
 * records and rectangles as typed arrays, the tick from which each output pixel shows, the
 * findings as the command line words them, the output and its values. */
#include "page_plain.h"

#include <stdlib.h>
#include <string.h>

#include "page_data.h"

/* The tint a finding gives the work-groups it was made in, as the window draws them: 1
 * orange (a read of what nothing wrote, outside the declared tile or halo, misaligned), 2 red
 * (a race, outside a buffer, a divergence, the others). */
static int kind_tint(int kind)
{
  return kind == TS_FIND_UNINIT || kind == TS_FIND_FOOTPRINT || kind == TS_FIND_TILE ||
                 kind == TS_FIND_ALIGN
             ? 1
             : 2;
}

static int rect_empty(ts_plain_rect r)
{
  return r.x1 < r.x0 || r.y1 < r.y0;
}

static void put_key_str(FILE *f, const char *key, const char *value)
{
  fputc(',', f);
  pd_key(f, key);
  pd_string(f, value);
}

/* ,"key": and n numbers. */
static ts_status put_arr(FILE *f, const char *key, const int64_t *v, size_t n, ts_error *err)
{
  fputc(',', f);
  pd_key(f, key);
  return pd_array(f, v, n, err);
}

/* The groups' fields of one launch, an array each. */
enum { G_RX, G_RY, G_RW, G_RH, G_WX, G_WY, G_WW, G_WH, G_KINDS, G_START, G_END, G_TICKET, G_AS,
       G_SPINS, G_NBAR, G_COUNT };
static const char *const group_keys[G_COUNT] = { "rx", "ry", "rw", "rh", "wx", "wy", "ww", "wh",
                                                 "kinds", "start", "end", "ticket", "as",
                                                 "spins", "nbar" };

static int64_t group_field(const ts_plain_group *G, int field)
{
  ts_plain_rect r = field <= G_RH ? G->read : G->wrote;
  int none = rect_empty(r);
  switch (field) {
  case G_RX: case G_WX: return none ? 0 : r.x0;
  case G_RY: case G_WY: return none ? 0 : r.y0;
  case G_RW: case G_WW: return none ? 0 : (int64_t)r.x1 - r.x0 + 1;
  case G_RH: case G_WH: return none ? 0 : (int64_t)r.y1 - r.y0 + 1;
  case G_KINDS: return G->kinds;
  case G_START: return G->start;
  case G_END: return G->end;
  case G_TICKET: return G->ticket;
  case G_AS: return G->launched_as;
  case G_SPINS: return G->spins;
  default: return G->nbar;
  }
}

/* Raises each pixel of r on the w x h map m (r clipped to it) to at least e. */
static void raise_rect(uint32_t *m, int w, int h, ts_plain_rect r, uint32_t e)
{
  if (rect_empty(r) || r.x1 < 0 || r.y1 < 0 || r.x0 >= w || r.y0 >= h)
    return;
  int x0 = r.x0 > 0 ? r.x0 : 0, y0 = r.y0 > 0 ? r.y0 : 0;
  int x1 = r.x1 < w - 1 ? r.x1 : w - 1, y1 = r.y1 < h - 1 ? r.y1 : h - 1;
  for (int y = y0; y <= y1; y++) {
    uint32_t *row = m + (size_t)y * (size_t)w;
    for (int x = x0; x <= x1; x++)
      row[x] = row[x] > e ? row[x] : e;
  }
}

/* Per pixel of the w x h output in pass p's view, 1 + the tick of p's clock from which it
 * shows: every group of p whose tile (what it wrote) holds it has ended. 1 for a pixel no
 * group wrote, 0 for one that a group that never ended wrote, or that a later pass writes
 * (it is not there yet). As little-endian planes of as few bytes as the largest needs. */
static ts_status put_shown(FILE *f, const ts_plain_result *res, int p, int w, int h,
                           ts_error *err)
{
  size_t npx = (size_t)w * (size_t)h;
  uint32_t *m = malloc((npx ? npx : 1) * sizeof *m);
  uint8_t *le = malloc(npx ? npx * 4 : 1);
  if (!m || !le) {
    free(m);
    free(le);
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  }
  for (size_t i = 0; i < npx; i++)
    m[i] = 1;
  for (int q = p; q < res->npasses; q++) {
    const ts_plain_launch *L = &res->launch[q];
    for (uint32_t g = 0; g < L->ngroups_all; g++) {
      const ts_plain_group *G = &L->groups[g];
      raise_rect(m, w, h, G->wrote, q == p && G->end ? G->end + 1 : UINT32_MAX);
    }
  }
  uint32_t mx = 0;
  for (size_t i = 0; i < npx; i++) {
    m[i] = m[i] == UINT32_MAX ? 0 : m[i];
    mx = m[i] > mx ? m[i] : mx;
    for (int b = 0; b < 4; b++)
      le[i * 4 + (size_t)b] = (uint8_t)(m[i] >> (8 * b));
  }
  int nb = mx < 1u << 8 ? 1 : mx < 1u << 16 ? 2 : mx < 1u << 24 ? 3 : 4;
  fprintf(f, ",\"shown_bytes\":%d,\"shown_planes\":", nb);
  ts_status st = pd_planes(f, w, h, le, 4, nb, err);
  free(m);
  free(le);
  return st;
}

static ts_status write_pass(FILE *f, const ex_plain *pl, int p, int64_t *v, ts_error *err)
{
  const ts_plain_launch *L = &pl->res->launch[p];
  const ts_plain_pass *ps = &pl->desc->pass[p];
  const ts_image *out = pl->res->out;
  fputc('{', f);
  pd_key(f, "entry");
  pd_string(f, L->entry);
  fprintf(f, ",\"dims\":%d,\"global\":[%zu,%zu,%zu],\"local\":[%zu,%zu,%zu],\"ngroups\":[%u,%u,%u],"
             "\"n\":%u,\"ticks\":%u,\"late\":%u,\"ms\":%.6g,\"tile\":[%d,%d,%d]",
          L->dims, L->global[0], L->global[1], L->global[2], L->local[0], L->local[1],
          L->local[2], L->ngroups[0], L->ngroups[1], L->ngroups[2], L->ngroups_all, L->ticks,
          L->late, L->ms, ps->tile_w, ps->tile_h, ps->halo);
  ts_status st = TS_OK;
  for (int fi = 0; fi < G_COUNT && st == TS_OK; fi++) {
    for (uint32_t g = 0; g < L->ngroups_all; g++)
      v[g] = group_field(&L->groups[g], fi);
    st = put_arr(f, group_keys[fi], v, L->ngroups_all, err);
  }
  /* the clock at each group's first barriers, TS_PLAIN_REC_BARS a group */
  for (uint32_t g = 0; g < L->ngroups_all && st == TS_OK; g++)
    for (int b = 0; b < TS_PLAIN_REC_BARS; b++)
      v[(size_t)g * TS_PLAIN_REC_BARS + (size_t)b] = L->groups[g].bar[b];
  if (st == TS_OK)
    st = put_arr(f, "bar", v, (size_t)L->ngroups_all * TS_PLAIN_REC_BARS, err);
  if (st == TS_OK)
    st = put_shown(f, pl->res, p, out->w, out->h, err);
  fputc('}', f);
  return st;
}

/* A finding's places, as the finding line names them: each place's work-group and work-item
 * (linear ids, and in words), what it did (acc: 1 read, 2 write, 3 both, 4 atomic), the
 * element; the other access of a race (its group, -1 for several, its item, what it did and
 * its line, 0 when not known). */
static void write_places(FILE *f, const ex_plain *pl, const ts_plain_finding *x)
{
  const ts_plain_result *r = pl->res;
  const ts_plain_launch *L = &r->launch[x->pass];
  fputs(",\"places\":[", f);
  for (int j = 0; j < x->nplaces; j++) {
    const ts_plain_place *p = &x->place[j];
    char gn[40], in[40], ogn[40] = "", oin[40] = "", el[200];
    ts_plain_group_name(L, p->group, gn, sizeof gn);
    ts_plain_item_name(L, p->item, in, sizeof in);
    if (p->other_group != UINT32_MAX && p->other_group < L->ngroups_all)
      ts_plain_group_name(L, p->other_group, ogn, sizeof ogn);
    if (p->other_item != UINT32_MAX)
      ts_plain_item_name(L, p->other_item, oin, sizeof oin);
    ts_plain_element_name(pl->desc, r, x->pass, p, el, sizeof el);
    fprintf(f, "%s{\"g\":%u,\"i\":%u,\"og\":%lld,\"oi\":%lld,\"acc\":%d,\"oacc\":%d,"
               "\"oline\":%d,\"space\":%d", j ? "," : "", p->group, p->item,
            p->other_group == UINT32_MAX || p->other_group >= L->ngroups_all ? -1LL
                                                                               : (long long)p->other_group,
            p->other_item == UINT32_MAX ? -1LL : (long long)p->other_item, p->acc, p->other_acc,
            p->other_line, p->space);
    put_key_str(f, "gn", gn);
    put_key_str(f, "in", in);
    put_key_str(f, "ogn", ogn);
    put_key_str(f, "oin", oin);
    put_key_str(f, "el", el);
    fputc('}', f);
  }
  fputc(']', f);
  put_key_str(f, "access", x->access);
}

/* Each finding: its pass, kind, line, count and text, its places, the groups its places name
 * and the output pixels they are at (x, y after each other). */
static void write_findings(FILE *f, const ex_plain *pl)
{
  const ts_plain_result *r = pl->res;
  fputs(",\"findings\":[", f);
  for (size_t i = 0; i < r->nfindings; i++) {
    const ts_plain_finding *x = &r->findings[i];
    char line[1024];
    ts_plain_finding_line(pl->desc, r, x, line, sizeof line);
    fprintf(f, "%s\n{\"pass\":%d,\"kind\":%d,\"line\":%d,\"count\":%llu,", i ? "," : "", x->pass,
            x->kind, x->line, (unsigned long long)x->count);
    pd_key(f, "text");
    pd_string(f, line);
    if (x->pass >= 0 && x->pass < r->npasses)
      write_places(f, pl, x);
    fputs(",\"groups\":[", f);
    for (int j = 0, n = 0; j < x->nplaces; j++) {
      int seen = 0;
      for (int k = 0; k < j; k++)
        seen |= x->place[k].group == x->place[j].group;
      if (!seen)
        fprintf(f, "%s%u", n++ ? "," : "", x->place[j].group);
    }
    fputs("],\"pixels\":[", f);
    for (int j = 0, n = 0; j < x->nplaces; j++) {
      int px, py;
      if (x->pass >= 0 && x->pass < r->npasses &&
          ts_plain_place_pixel(pl->desc, r, x->pass, &x->place[j], &px, &py))
        fprintf(f, "%s%d,%d", n++ ? "," : "", px, py);
    }
    fputs("]}", f);
  }
  fputs("]", f);
}

/* The output as shown (bytes, as the run mapped it) and, where they fit its grid and are not
 * those bytes themselves, its values as the kernel left them: lane bytes of each channel,
 * planes of the bytes. */
static ts_status write_output(FILE *f, const ts_plain_result *r, ts_error *err)
{
  const ts_image *o = r->out;
  fprintf(f, ",\"out\":{\"w\":%d,\"h\":%d,\"c\":%d", o->w, o->h, o->c);
  put_key_str(f, "mapping", r->mapping);
  fputs(",\"planes\":", f);
  ts_status st = pd_planes(f, o->w, o->h, o->data, o->c, o->c, err);
  int bpp = r->raw_lane * r->raw_channels;
  size_t shown = (size_t)o->w * (size_t)o->h * (size_t)o->c;
  int raw = r->raw && r->raw_cols == o->w && r->raw_rows == o->h && bpp > 0 && bpp <= 32 &&
            r->raw_bytes == (size_t)o->w * (size_t)o->h * (size_t)bpp &&
            !(r->raw_bytes == shown && r->raw_lane == 1 && !r->raw_float && !r->raw_signed &&
              memcmp(r->raw, o->data, shown) == 0);
  if (st == TS_OK && raw) {
    fprintf(f, ",\"raw\":{\"lane\":%d,\"channels\":%d,\"float\":%d,\"signed\":%d,\"planes\":",
            r->raw_lane, r->raw_channels, r->raw_float, r->raw_signed);
    st = pd_planes(f, o->w, o->h, r->raw, bpp, bpp, err);
    fputc('}', f);
  } else {
    fputs(",\"raw\":null", f);
  }
  fputc('}', f);
  return st;
}

/* The kernel file's text for the page's source pane: its name and its text, whose lines the
 * findings number. */
static ts_status write_source(FILE *f, const ts_plain_desc *d, ts_error *err)
{
  char *text = malloc(d->len + 1);
  if (!text)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  if (d->len && d->text)
    memcpy(text, d->text, d->len);
  text[d->len] = 0;
  const char *slash = strrchr(d->path, '/');
  fputs(",\"source\":{", f);
  pd_key(f, "name");
  pd_string(f, slash ? slash + 1 : d->path);
  put_key_str(f, "text", text);
  fputc('}', f);
  free(text);
  return TS_OK;
}

void pp_differ_line(const ts_plain_result *x, const ts_plain_result *y, char *buf, size_t n)
{
  long long d = ts_plain_differ(x, y);
  if (d < 0)
    snprintf(buf, n, "no output to compare in one order");
  else
    ts_plain_differ_words(d, buf, n);
}

static ts_status write_run(FILE *f, const ex_plain *pl, const ex_plain *twin, int source,
                           ts_error *err);

ts_status pp_write_run(FILE *f, const ex_plain *pl, ts_error *err)
{
  return write_run(f, pl, NULL, 1, err);
}

ts_status pp_write_split(FILE *f, const ex_plain *left, const ex_plain *right, ts_error *err)
{
  return write_run(f, left, right, 1, err);
}

/* A run: its words, view, findings, output and passes; the kernel's source where asked; a
 * split view's right run (twin) as "twin", with the differing elements of the two outputs. */
static ts_status write_run(FILE *f, const ex_plain *pl, const ex_plain *twin, int source,
                           ts_error *err)
{
  const ts_plain_result *r = pl->res;
  const ts_image *in = pl->input;
  if (!r->out)
    return ts_fail(err, TS_ERR_ARG, "%s: the run has no output to show", pl->file);
  uint32_t most = 0;
  for (int p = 0; p < r->npasses; p++) {
    if (!r->launch[p].groups)
      return ts_fail(err, TS_ERR_ARG, "%s: pass %d was not observed (no work-group records)",
                     pl->file, p + 1);
    most = r->launch[p].ngroups_all > most ? r->launch[p].ngroups_all : most;
  }
  fputc('{', f);
  pd_key(f, "label");
  pd_string(f, pl->file);
  put_key_str(f, "file", pl->file);
  put_key_str(f, "launched", pl->launched);
  put_key_str(f, "input", pl->input_name);
  put_key_str(f, "device", r->device);
  put_key_str(f, "order", pl->order);
  fprintf(f, ",\"W\":%d,\"H\":%d,\"Cin\":%d,\"input_index\":0,\"view\":{\"tick\":%lld,", in->w,
          in->h, in->c, (long long)pl->view.tick);
  pd_key(f, "overlay");
  pd_string(f, pl->view.overlay ? pl->view.overlay : "state");
  if (pl->view.hover)
    fprintf(f, ",\"hover\":[%d,%d]", pl->view.hover_x, pl->view.hover_y);
  fprintf(f, ",\"zoom\":%.17g,\"center\":[%.17g,%.17g]}", pl->view.zoom, pl->view.cx,
          pl->view.cy);
  fputs(",\"kinds\":[", f);
  for (int k = 0, n = 0; k < TS_NFIND; k++) {
    fprintf(f, "%s{\"count\":%llu,\"tint\":%d,", n++ ? "," : "", (unsigned long long)r->counts[k],
            kind_tint(k));
    pd_key(f, "name");
    pd_string(f, ts_plain_kind_name(k));
    fputc('}', f);
  }
  fputc(']', f);
  write_findings(f, pl);
  ts_status st = write_output(f, r, err);
  int64_t *v = malloc(((size_t)most * TS_PLAIN_REC_BARS + 1) * sizeof *v);
  if (st == TS_OK && !v)
    st = ts_fail(err, TS_ERR_NOMEM, "out of memory");
  fputs(",\"passes\":[", f);
  for (int p = 0; p < r->npasses && st == TS_OK; p++) {
    if (p)
      fputs(",\n", f);
    st = write_pass(f, pl, p, v, err);
  }
  fputc(']', f);
  free(v);
  if (st == TS_OK && source)
    st = write_source(f, pl->desc, err);
  if (st == TS_OK && twin) {
    char line[160];
    pp_differ_line(r, twin->res, line, sizeof line);
    fprintf(f, ",\"differ\":%lld", ts_plain_differ(r, twin->res));
    put_key_str(f, "differ_text", line);
    fputs(",\n\"twin\":", f);
    st = write_run(f, twin, NULL, 0, err);
  }
  fputc('}', f);
  return st;
}
