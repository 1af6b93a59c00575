/* A plain kernel's findings as people read them (ts_plain.h): each as one line naming the
 * file and line, the kind, the kernel, the work-group and work-item and the element (a
 * pixel and channel of an image buffer, an element of a __local array), and the names those
 * lines are made of. */
#include <stdio.h>
#include <string.h>

#include "ts_plain.h"

static const char *kind_names[TS_NFIND] = {
  "access outside every buffer (not performed)",
  "race between work-groups",
  "race in a work-group on __local memory",
  "race in a work-group on __global memory",
  "read of an element nothing wrote",
  "read outside the declared tile and halo",
  "write outside the declared tile",
  "barrier divergence",
  "access against the buffer's mode",
  "access through a misaligned pointer",
  "benign race",
  "index outside a private array",
  "wait for a copy",
  "copy divergence",
  "forward progress",
};

void ts_plain_order_words(const ts_plain_opts *o, char *b, size_t n)
{
  char k[40] = "";
  if (o->resident > 1)
    snprintf(k, sizeof k, ", %d at a time", o->resident);
  else if (o->order != TS_ORDER_DEVICE)
    snprintf(k, sizeof k, ", one at a time");
  if (o->order == TS_ORDER_REVERSE)
    snprintf(b, n, "reversed order%s (--order reverse)", k);
  else if (o->order == TS_ORDER_RANDOM)
    snprintf(b, n, "a shuffled order%s (--order random:%u)", k, o->order_seed);
  else if (o->order == TS_ORDER_LINEAR)
    snprintf(b, n, "the groups' order%s (--order linear)", k);
  else if (o->order == TS_ORDER_LIST)
    snprintf(b, n, "the order of %.*s%s", 120, o->order_file, k);
  else if (o->order == TS_ORDER_ADVERSARY)
    snprintf(b, n, "the adversary's order%s, where no group keeps its place (seed %u)", k,
             o->order_seed);
  else
    snprintf(b, n, "the device's order");
}

const char *ts_plain_unsafe_access(const ts_plain_result *r)
{
  int unset = 0; /* clang: a variable used before anything set it (an index, a pointer...) */
  for (size_t i = 0; i < r->nfindings; i++)
    unset |= r->findings[i].kind == TS_FIND_UNINIT && (r->findings[i].place[0].space == 4 ||
                                                      r->findings[i].place[0].space == 2);
  return r->counts[TS_FIND_OOB]       ? "access memory outside its buffers"
         : r->counts[TS_FIND_PRIVATE] ? "index outside a private array"
         : r->counts[TS_FIND_MODE]    ? "access a buffer against its mode"
         : unset                      ? "use private memory nothing set"
                                      : NULL;
}

const char *ts_plain_kind_name(int kind)
{
  return kind >= 0 && kind < TS_NFIND ? kind_names[kind] : "?";
}

void ts_plain_group_name(const ts_plain_launch *L, uint32_t g, char *b, size_t n)
{
  uint32_t gx = g % L->ngroups[0], gy = (g / L->ngroups[0]) % L->ngroups[1];
  uint32_t gz = g / L->ngroups[0] / L->ngroups[1];
  if (L->dims == 1)
    snprintf(b, n, "(%u)", gx);
  else if (L->dims == 2)
    snprintf(b, n, "(%u,%u)", gx, gy);
  else
    snprintf(b, n, "(%u,%u,%u)", gx, gy, gz);
}

void ts_plain_item_name(const ts_plain_launch *L, uint32_t i, char *b, size_t n)
{
  uint32_t lx = i % (uint32_t)L->local[0], ly = (i / (uint32_t)L->local[0]) % (uint32_t)L->local[1];
  uint32_t lz = i / (uint32_t)L->local[0] / (uint32_t)L->local[1];
  if (L->dims == 1)
    snprintf(b, n, "(%u)", lx);
  else if (L->dims == 2)
    snprintf(b, n, "(%u,%u)", lx, ly);
  else
    snprintf(b, n, "(%u,%u,%u)", lx, ly, lz);
}

/* A __global place's buffer (the launch's, in argument order), pixel, row and channel, from
 * the buffer's step and offset. 0 when the place is __local or its buffer unknown (then *a
 * is NULL); *y is -1 for a byte before the first row. */
static int element_of(const ts_plain_result *r, int pass, const ts_plain_place *p,
                      const ts_plain_buf **a, int64_t *x, int64_t *y, int64_t *c)
{
  const ts_plain_launch *L = &r->launch[pass];
  *a = NULL;
  if (p->space == 1 || p->buf < 0 || p->buf >= L->nbufs)
    return 0;
  *a = &L->buf[p->buf];
  int lane = (*a)->lane > 0 ? (*a)->lane : 1, C = (*a)->channels > 0 ? (*a)->channels : 1;
  int64_t px = (int64_t)C * lane;
  int64_t pitch = (*a)->step > 0 ? (*a)->step : (int64_t)((*a)->cols > 0 ? (*a)->cols : 1) * px;
  int64_t off = (p->off < 0 ? 0 : p->off) - (*a)->offset;
  if (off < 0) {
    *x = *c = 0;
    *y = -1;
    return 1;
  }
  *y = off / pitch;
  *x = (off % pitch) / px;
  *c = (off % px) / lane;
  return 1;
}

int ts_plain_place_pixel(const ts_plain_desc *d, const ts_plain_result *r, int pass,
                         const ts_plain_place *p, int *x, int *y)
{
  const ts_plain_buf *a;
  int64_t ex, ey, ec;
  if (pass < 0 || pass >= d->npasses || !r->out || p->off < 0 || p->acc == TS_PLACE_BRANCH ||
      !element_of(r, pass, p, &a, &ex, &ey, &ec) || ey < 0 || ey >= a->rows || ex >= a->cols ||
      a->temp || a->array)
    return 0;
  *x = (int)ex;
  *y = (int)ey;
  return 1;
}

void ts_plain_element_name(const ts_plain_desc *d, const ts_plain_result *r, int pass,
                           const ts_plain_place *p, char *b, size_t n)
{
  (void)d;
  const ts_plain_launch *L0 = &r->launch[pass];
  if (p->space == 2 && p->buf == 1) { /* a followed private vector's lane */
    char lane[8];
    if (p->other_item <= 4 && p->off >= 0 && p->off < 4)
      snprintf(lane, sizeof lane, ".%c", "xyzw"[p->off]);
    else
      snprintf(lane, sizeof lane, ".s%X", (unsigned)(p->off & 15));
    snprintf(b, n, "lane %s of a private vector of %u lanes", lane, p->other_item);
    return;
  }
  if (p->space == 2) {
    snprintf(b, n, "index %lld of a private array of %u elements", (long long)(int32_t)p->off,
             p->other_item);
    return;
  }
  if (p->space == 4) {
    snprintf(b, n, "a private variable");
    return;
  }
  if (p->space == 3) { /* an image's pixel outside it */
    const ts_plain_buf *a = p->buf >= 0 && p->buf < L0->nbufs ? &L0->buf[p->buf] : NULL;
    snprintf(b, n, "image %s pixel (%lld,%d), outside its %dx%d", a ? a->name : "?",
             (long long)p->off, (int)p->other_group, a ? a->cols : 0, a ? a->rows : 0);
    return;
  }
  if (p->space == 1) {
    int known = p->buf >= 0 && p->buf < L0->nlocals;
    const char *name = known ? L0->locals[p->buf] : "?";
    int es = known ? L0->local_elem[p->buf] : 1;
    const int *dims = known ? L0->local_dims[p->buf] : NULL;
    int esz = known ? L0->local_esz[p->buf] : 0;
    if (p->off < 0) {
      snprintf(b, n, "__local %s, %lld bytes before it", name, (long long)-p->off);
    } else if (dims && esz > 0 && (dims[0] > 0 || p->off < esz)) {
      /* as the source indexes it: tile[1][2], a scalar by its name */
      long long flat = p->off / esz, idx[3] = { 0, 0, 0 };
      int nd = dims[0] > 0 ? (dims[1] > 0 ? (dims[2] > 0 ? 3 : 2) : 1) : 0;
      for (int j = nd - 1; j >= 0; j--) {
        idx[j] = j > 0 ? flat % dims[j] : flat;
        flat = j > 0 ? flat / dims[j] : 0;
      }
      int len = snprintf(b, n, "__local %s", name);
      for (int j = 0; j < nd && len > 0 && (size_t)len < n; j++)
        len += snprintf(b + len, n - (size_t)len, "[%lld]", idx[j]);
    } else {
      snprintf(b, n, "__local %s element %lld", name, (long long)(p->off / es));
    }
    return;
  }
  const ts_plain_buf *a;
  int64_t x, y, c;
  if (!element_of(r, pass, p, &a, &x, &y, &c)) {
    snprintf(b, n, "buffer %d byte %lld", p->buf, (long long)p->off);
    return;
  }
  int C = a->channels > 0 ? a->channels : 1;
  const char *name = a->buffer[0] ? a->buffer : a->name;
  if (!a->array && a->buffer[0] && a->rows == 1 && C == 1 && p->off >= a->offset &&
      a->lane > 0 && (p->off - a->offset) / a->lane < a->cols) { /* a declared row: xs[3] */
    snprintf(b, n, "%s[%lld]", name, (long long)((p->off - a->offset) / a->lane));
    return;
  }
  if (a->array) { /* a buffer given whole: its elements as the source indexes them */
    int lane = a->lane > 0 ? a->lane : 1;
    if (a->array == 2)
      snprintf(b, n, "%s (a NULL buffer) byte %lld", name, (long long)p->off);
    else if (p->off < 0)
      snprintf(b, n, "%s, %lld bytes before its start", name, (long long)-p->off);
    else if (p->off / lane >= a->cols)
      snprintf(b, n, "%s[%lld], past its end (it has %d elements)", name,
               (long long)(p->off / lane), a->cols);
    else
      snprintf(b, n, "%s[%lld]", name, (long long)(p->off / lane));
    return;
  }
  const char *what = a->temp ? "element" : "pixel";
  char tmp[80] = "";
  if (a->temp)
    snprintf(tmp, sizeof tmp, "temporary ");
  if (p->off < 0) {
    snprintf(b, n, "%s%s, %lld bytes before its start", tmp, name, (long long)-p->off);
    return;
  }
  if (y < 0) {
    snprintf(b, n, "%s%s byte %lld, before its first row (offset %lld)", tmp, name,
             (long long)p->off, (long long)a->offset);
    return;
  }
  char ch[32] = "";
  if (C > 1)
    snprintf(ch, sizeof ch, " channel %lld", (long long)c);
  if (y >= a->rows)
    snprintf(b, n, "%s%s %s (%lld,%lld)%s, past its end (it has %d rows)", tmp, name, what,
             (long long)x, (long long)y, ch, a->rows);
  else if (x >= a->cols)
    snprintf(b, n, "%s%s %s (%lld,%lld)%s, past its row's %d %ss (in the step's padding)", tmp,
             name, what, (long long)x, (long long)y, ch, a->cols, what);
  else
    snprintf(b, n, "%s%s %s (%lld,%lld)%s", tmp, name, what, (long long)x, (long long)y, ch);
}

void ts_plain_finding_line(const ts_plain_desc *d, const ts_plain_result *r,
                           const ts_plain_finding *f, char *buf, size_t n)
{
  const ts_plain_launch *L = &r->launch[f->pass];
  const ts_plain_place *p = &f->place[0];
  char g[40], it[40], el[200], og[40] = "", oi[40] = "";
  ts_plain_group_name(L, p->group, g, sizeof g);
  ts_plain_item_name(L, p->item, it, sizeof it);
  ts_plain_element_name(d, r, f->pass, p, el, sizeof el);
  const char *verb = p->acc == 4 ? "atomic on" : p->acc == 2 ? "writes" : p->acc == 3 ? "updates" : "reads";
  char more[64] = "";
  if (f->count > 1)
    snprintf(more, sizeof more, "; %llu times in all", (unsigned long long)f->count);
  const char *base = strrchr(d->path, '/') ? strrchr(d->path, '/') + 1 : d->path;
  if (p->space == 4) { /* clang's analysis, no run's: the variable's use, in its words */
    snprintf(buf, n, "%s:%d: %s in %s: %s (clang's analysis of the source: on every way to "
             "this use nothing sets it)", base, f->line, ts_plain_kind_name(f->kind), L->entry,
             f->value);
    return;
  }
  if ((f->kind == TS_FIND_DIVERGE && p->acc == 32) || f->kind == TS_FIND_COPY_DIVERGE) {
    snprintf(buf, n, "%s:%d: %s in %s: work-group %s: item %s %s than the group's first work-item "
             "(every work-item of a group must make the same call)%s", base, f->line,
             ts_plain_kind_name(f->kind), L->entry, g, it,
             f->kind == TS_FIND_DIVERGE ? "waits for other events"
                                        : "asks for the copy with other arguments",
             more);
    return;
  }
  if (f->kind == TS_FIND_EVENT) {
    if (p->acc == 2)
      snprintf(buf, n, "%s:%d: %s in %s: work-group %s item %s ended without waiting for the "
               "copy asked for here (wait_group_events)%s", base, f->line,
               ts_plain_kind_name(f->kind), L->entry, g, it, more);
    else
      snprintf(buf, n, "%s:%d: %s in %s: work-group %s item %s waits for an event no copy gave "
               "(%lld)%s", base, f->line, ts_plain_kind_name(f->kind), L->entry, g, it,
               (long long)p->off, more);
    return;
  }
  if (f->kind == TS_FIND_DIVERGE) {
    /* off: the item's decision | the loop's round (from 1, 0: not a loop's) << 1 | a switch's
     * case label << 30 | whether the loop ran several times << 31, when the round counts its
     * rounds over all its runs; other_line: the barrier's */
    ts_plain_item_name(L, p->other_item, oi, sizeof oi);
    char at[48] = "a barrier", way[200];
    if (p->other_line > 0)
      snprintf(at, sizeof at, "the barrier at line %d", p->other_line);
    long long nround = (long long)(p->off >> 1 & 0x1fffffff);
    if (p->off >> 30 & 1)
      snprintf(way, sizeof way, "the switch takes a case for item %s that it does not take for "
               "item %s", p->off & 1 ? it : oi, p->off & 1 ? oi : it);
    else if (nround && (p->off >> 31 & 1))
      snprintf(way, sizeof way, "the condition held %lld time%s for item %s and more for item "
               "%s, over all the loop's runs", nround - 1, nround == 2 ? "" : "s", it, oi);
    else if (nround)
      snprintf(way, sizeof way, "the condition is false for item %s and true for item %s in "
               "round %lld", it, oi, nround);
    else
      snprintf(way, sizeof way, "the condition is %s for item %s and %s for item %s",
               p->off & 1 ? "true" : "false", it, p->off & 1 ? "false" : "true", oi);
    snprintf(buf, n, "%s:%d: %s in %s: work-group %s: %s, and %s depends on it (every work-item "
             "of a group must reach the same barriers)%s", base, f->line,
             ts_plain_kind_name(f->kind), L->entry, g, way, at, more);
    return;
  }
  char what[300];
  switch (f->kind) {
  case TS_FIND_RACE_GROUPS: {
    /* the other side: what it did (a read, a write, an atomic) and where */
    const char *did = p->other_acc == 1   ? "reads"
                      : p->other_acc == 2 ? "writes"
                      : p->other_acc == 4 ? "updates atomically"
                      : p->acc & 2        ? "accesses"
                                          : "writes";
    char at[32] = "";
    if (p->other_line > 0)
      snprintf(at, sizeof at, " at line %d", p->other_line);
    if (p->other_group == UINT32_MAX)
      snprintf(what, sizeof what, "which several other work-groups also %s%s", did, at);
    else {
      ts_plain_group_name(L, p->other_group, og, sizeof og);
      snprintf(what, sizeof what, "which work-group %s also %s%s (groups of one launch have no order)",
               og, did, at);
    }
    break;
  }
  case TS_FIND_RACE_LOCAL:
  case TS_FIND_RACE_GLOBAL: {
    const char *did = p->other_acc == 1   ? "read"
                      : p->other_acc == 2 ? "wrote"
                      : p->other_acc == 4 ? "updated atomically"
                                          : "accessed";
    char at[32] = "";
    if (p->other_line > 0)
      snprintf(at, sizeof at, " at line %d", p->other_line);
    char who[80] = "other work-items";
    if (p->other_item != UINT32_MAX) {
      ts_plain_item_name(L, p->other_item, oi, sizeof oi);
      snprintf(who, sizeof who, "work-item %s", oi);
    }
    snprintf(what, sizeof what, "which %s %s%s in the same barrier interval (a missing barrier(%s)?)",
             who, did, at, f->kind == TS_FIND_RACE_LOCAL ? "CLK_LOCAL_MEM_FENCE" : "CLK_GLOBAL_MEM_FENCE");
    break;
  }
  case TS_FIND_UNINIT:
    if (p->outside) {
      snprintf(what, sizeof what, "outside the buffer: the value it gives is undefined "
               "(observed, 0)");
      break;
    }
    snprintf(what, sizeof what, p->space == 2 ? "before anything set it"
                                : p->space == 1 ? "before anything in the launch wrote it"
                                              : "which nothing wrote, in this launch or an "
                                                "earlier pass");
    break;
  case TS_FIND_FOOTPRINT:
  case TS_FIND_TILE: {
    const ts_plain_pass *ps = &d->pass[f->pass];
    snprintf(what, sizeof what, "outside its tile of %dx%d%s", ps->tile_w, ps->tile_h,
             f->kind == TS_FIND_FOOTPRINT ? (ps->halo ? " and its halo" : "") : "");
    if (f->kind == TS_FIND_FOOTPRINT && ps->halo)
      snprintf(what + strlen(what), sizeof what - strlen(what), " of %d", ps->halo);
    break;
  }
  case TS_FIND_MODE:
    snprintf(what, sizeof what, "which the launch made %s", p->acc & 2 ? "read-only" : "write-only");
    break;
  case TS_FIND_BENIGN:
    snprintf(what, sizeof what, "as other work-items did: every writer wrote %s (a note; "
             "run --fail-on benign fails on it)", f->value);
    break;
  case TS_FIND_ALIGN:
    snprintf(what, sizeof what, "at byte %lld, not a multiple of the access's size",
             (long long)p->off);
    break;
  case TS_FIND_PROGRESS:
    snprintf(what, sizeof what, "again and again, finding one value that only a work-group "
             "that has not started could change, and under this order (one work-group at a "
             "time) none can start before this one ends: OpenCL does not promise that it will; "
             "the launch was let go from here, and its output means nothing");
    break;
  default:
    what[0] = 0;
  }
  /* the element as the source reaches it, where that says more than its name: out[(y * W
   * + x) * C + c] at pixel (5,3) channel 1 */
  char at[300];
  const char *bra = strchr(f->access, '[');
  size_t wn = bra ? (size_t)(bra - f->access) : 0; /* "out pixel (5,3)": "pixel (5,3)" */
  const char *rest = wn && strncmp(el, f->access, wn) == 0 && el[wn] == ' ' ? el + wn + 1 : el;
  char tmpel[200]; /* "temporary tmp element (0,1)": "temporary element (0,1)" */
  if (wn && strncmp(el, "temporary ", 10) == 0 && strncmp(el + 10, f->access, wn) == 0 &&
      el[10 + wn] == ' ') {
    snprintf(tmpel, sizeof tmpel, "temporary %s", el + 10 + wn + 1);
    rest = tmpel;
  }
  if (f->access[0] && bra && p->space == 0 && !strstr(el, f->access) && wn &&
      strncmp(el, f->access, wn) == 0 && el[wn] == ',') /* "in, 3 bytes before its start" */
    snprintf(at, sizeof at, "%s%s", f->access, el + wn);
  else if (f->access[0] && bra && p->space == 0 && !strstr(el, f->access))
    snprintf(at, sizeof at, "%s at %s", f->access, rest);
  else if (f->access[0] && p->space == 2 && p->buf == 1) /* "f, lane .y of a private vector" */
    snprintf(at, sizeof at, "%s, %s", f->access, el);
  else
    snprintf(at, sizeof at, "%s", el);
  snprintf(buf, n, "%s:%d: %s in %s: work-group %s item %s %s %s%s%s%s", base, f->line,
           ts_plain_kind_name(f->kind), L->entry, g, it, verb, at, what[0] ? ", " : "", what,
           more);
}

long long ts_plain_differ(const ts_plain_result *x, const ts_plain_result *y)
{
  if (!x || !y)
    return -1;
  if (x->raw && y->raw && x->raw_lane > 0 && x->raw_lane == y->raw_lane) {
    size_t lane = (size_t)x->raw_lane, nx = x->raw_bytes / lane, ny = y->raw_bytes / lane;
    size_t n = nx < ny ? nx : ny;
    long long d = (long long)(nx > ny ? nx - ny : ny - nx);
    for (size_t i = 0; i < n; i++)
      d += memcmp(x->raw + i * lane, y->raw + i * lane, lane) != 0;
    return d;
  }
  const ts_image *o = x->out, *u = y->out;
  if (!o || !u)
    return -1;
  size_t no = (size_t)o->w * (size_t)o->h * (size_t)o->c;
  size_t nu = (size_t)u->w * (size_t)u->h * (size_t)u->c;
  if (o->w != u->w || o->h != u->h || o->c != u->c)
    return (long long)(no > nu ? no : nu);
  long long d = 0;
  for (size_t i = 0; i < no; i++)
    d += o->data[i] != u->data[i];
  return d;
}

void ts_plain_differ_words(long long d, char *b, size_t n)
{
  if (d > 0)
    snprintf(b, n, "the outputs differ at %lld element%s: the result depends on the order", d,
             d == 1 ? "" : "s");
  else
    snprintf(b, n, "the same output in both orders");
}
