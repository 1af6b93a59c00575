/* Reading a plain kernel's file with libclang (ts_plain.h): the parse (its first error, with
 * file and line, is the message), each kernel's arguments with their address spaces and
 * types, and the rewritten text of the file for observation (ts_instrument.c), whole for a
 * plain kernel or only its own part after the common parts for a dialect kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_instrument.h"
#include "ts_libclang.h"

/* ---- the kernels' signatures ---- */

/* A type's lanes, element kind and signedness (ct canonical: a typedef seen through). */
static void scalar_facts(CXType ct, ts_plain_param *out)
{
  out->lanes = ct.kind == CXType_ExtVector ? clang_getNumElements(ct) : 1;
  CXType et = ct.kind == CXType_ExtVector ? clang_getElementType(ct) : ct;
  enum CXTypeKind k = et.kind;
  out->is_float = k == CXType_Float || k == CXType_Double || k == CXType_Half;
  out->is_signed = k == CXType_Char_S || k == CXType_SChar || k == CXType_Short ||
                   k == CXType_Int || k == CXType_Long || k == CXType_LongLong || k == CXType_Enum;
  out->is_record = k == CXType_Record;
}

static int param_of(CXCursor p, ts_plain_param *out)
{
  memset(out, 0, sizeof *out);
  CXString ns = clang_getCursorSpelling(p);
  snprintf(out->name, sizeof out->name, "%s", clang_getCString(ns));
  clang_disposeString(ns);
  CXType t = clang_getCursorType(p);
  char *ts = ti_type_str(t);
  snprintf(out->type, sizeof out->type, "%s", ts ? ts : "");
  free(ts);
  if (t.kind == CXType_Pointer) {
    CXType pt = clang_getPointeeType(t);
    char *ps = ti_type_str(pt);
    out->space = strstr(ps, "__global")   ? TS_SPACE_GLOBAL
                 : strstr(ps, "__local")  ? TS_SPACE_LOCAL
                 : strstr(ps, "__constant") ? TS_SPACE_CONSTANT
                                          : TS_SPACE_PRIVATE;
    out->is_const = clang_isConstQualifiedType(pt);
    long long sz = clang_Type_getSizeOf(pt);
    out->elem_size = sz > 0 ? (int)sz : 1;
    CXType ct = clang_getCanonicalType(pt);
    scalar_facts(ct, out);
    free(ps);
    out->pointer = 1;
  } else if (strstr(out->type, "image1d") || strstr(out->type, "image2d") ||
             strstr(out->type, "image3d")) {
    /* an image: its pixels in __global memory, 4 lanes a pixel at most (ts_plain_run.c) */
    out->image = strstr(out->type, "image1d") ? 1 : strstr(out->type, "image2d") ? 2 : 3;
    out->image_write = strstr(out->type, "write_only") != NULL;
    out->is_const = !out->image_write;
    out->space = TS_SPACE_GLOBAL;
    out->lanes = out->elem_size = 4;
  } else {
    scalar_facts(clang_getCanonicalType(t), out);
    long long sz = clang_Type_getSizeOf(t);
    out->elem_size = sz > 0 ? (int)sz : 4;
    out->space = TS_SPACE_PRIVATE;
  }
  return 0;
}

static enum CXChildVisitResult find_kernels(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  walker *w = d;
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl ||
      !clang_Location_isFromMainFile(clang_getCursorLocation(c)) || !clang_isCursorDefinition(c))
    return CXChildVisit_Continue;
  span s = ti_span_of(w, c);
  if (!ti_is_kernel(w, c))
    return CXChildVisit_Continue;
  ts_plain_src *out = w->out;
  if (out->nkernels == TS_PLAIN_MAX_KERNELS)
    return CXChildVisit_Continue;
  ts_plain_kernel *kn = &out->kernels[out->nkernels++];
  memset(kn, 0, sizeof *kn);
  CXString ns = clang_getCursorSpelling(c);
  snprintf(kn->name, sizeof kn->name, "%s", clang_getCString(ns));
  clang_disposeString(ns);
  kn->line = (int)s.line;
  unsigned end = 0;
  clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), NULL, &end, NULL, NULL);
  kn->end_line = (int)end;
  int n = clang_Cursor_getNumArguments(c);
  for (int i = 0; i < n && kn->nparams < TS_PLAIN_MAX_PARAMS; i++)
    param_of(clang_Cursor_getArgument(c, (unsigned)i), &kn->params[kn->nparams++]);
  return CXChildVisit_Continue;
}

/* Parses text as the file at path; the first error, with its file and line, is the message
 * (the OpenCL build would say the same). line_base: lines before the file's own text. */
static ts_status parse_tu(const char *path, const char *text, size_t len, const char *options,
                          unsigned line_base, CXIndex *pidx, CXTranslationUnit *ptu,
                          ts_error *err)
{
  /* OpenCL C 1.2 unless the options name a standard (an Oclgrind suite's -cl-std=CL2.0) */
  int std_given = options && strstr(options, "-cl-std=") != NULL;
  /* no warnings but clang's definite uses of what nothing set (ts_plain_src.uninit) */
  const char *args[1040] = { "-x", "cl", "-Xclang", "-finclude-default-header",
                             "-Wno-everything", "-Wuninitialized", "-cl-std=CL1.2" };
  int nargs = std_given ? 6 : 7;
#ifdef TS_CLANG_RESOURCE_DIR
  /* where opencl-c.h is, when libclang was unpacked somewhere of its own */
  const char *res = getenv("TILESCOPE_CLANG_RESOURCE");
  args[nargs++] = "-resource-dir";
  args[nargs++] = res && *res ? res : TS_CLANG_RESOURCE_DIR;
#endif
  char opts[2048];
  snprintf(opts, sizeof opts, "%s", options ? options : "");
  for (char *tok = strtok(opts, " \t"); tok && nargs < 1039; tok = strtok(NULL, " \t"))
    args[nargs++] = tok; /* (2047 characters make at most 1024 words) */
  ts_status lst = ts_libclang_load(err);
  if (lst != TS_OK)
    return lst;
  CXIndex idx = clang_createIndex(0, 0);
  struct CXUnsavedFile uf = { path, text, (unsigned long)len };
  CXTranslationUnit tu = NULL;
  enum CXErrorCode e = clang_parseTranslationUnit2(idx, path, args, nargs, &uf, 1,
                                                   CXTranslationUnit_DetailedPreprocessingRecord, &tu);
  if (e != CXError_Success || !tu) {
    clang_disposeIndex(idx);
    return ts_fail(err, TS_ERR_BUILD, "%s: libclang could not parse it (error %d)", path, (int)e);
  }
  for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    if (sev >= CXDiagnostic_Error) {
      CXString m = clang_getDiagnosticSpelling(d);
      unsigned line = 0;
      CXFile f = NULL;
      clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, NULL, NULL);
      CXFile mainf = clang_getFile(tu, path);
      if (f && mainf && !clang_File_isEqual(f, mainf)) {
        CXString fn = clang_getFileName(f);
        ts_fail(err, TS_ERR_BUILD, "%s: %s:%u: %s", path, clang_getCString(fn), line,
                clang_getCString(m));
        clang_disposeString(fn);
      } else {
        ts_fail(err, TS_ERR_BUILD, "%s:%u: %s", path, line > line_base ? line - line_base : line,
                clang_getCString(m));
      }
      clang_disposeString(m);
      clang_disposeDiagnostic(d);
      clang_disposeTranslationUnit(tu);
      clang_disposeIndex(idx);
      return TS_ERR_BUILD;
    }
    clang_disposeDiagnostic(d);
  }
  *pidx = idx;
  *ptu = tu;
  return TS_OK;
}

ts_status ts_plain_rewrite_dialect(const char *path, const char *prefix, size_t plen,
                                   const char *text, size_t len, const char *options,
                                   char **out, ts_error *err)
{
  *out = NULL;
  char *all = malloc(plen + len + 1);
  if (!all)
    return ts_fail(err, TS_ERR_NOMEM, "out of memory");
  memcpy(all, prefix, plen);
  memcpy(all + plen, text, len);
  all[plen + len] = 0;
  unsigned base = 0;
  for (size_t i = 0; i < plen; i++)
    base += prefix[i] == '\n';
  CXIndex idx;
  CXTranslationUnit tu;
  ts_status st = parse_tu(path, all, plen + len, options, base, &idx, &tu, err);
  if (st != TS_OK) {
    free(all);
    return st;
  }
  ts_plain_src src = { 0 };
  walker w = { 0 };
  w.top_body = -1;
  w.src = all;
  w.len = plen + len;
  w.tu = tu;
  w.file = clang_getFile(tu, path);
  w.path = path;
  w.rewrite = 1;
  w.err = err;
  w.out = &src;
  w.dialect = 1;
  w.line_base = base;
  sbuf o = { 0 };
  unsigned pos = (unsigned)plen;
  void *pp[3] = { &w, &o, &pos };
  ti_note_uses(&w, clang_getTranslationUnitCursor(tu));
  clang_visitChildren(clang_getTranslationUnitCursor(tu), ti_top_level, pp);
  ti_sb_add(&o, all + pos, plen + len - pos);
  if (o.oom && !w.failed)
    ti_fail(&w, 0, "out of memory");
  free(w.wrapped);
  free(w.uses);
  free(w.seen.c);
  free(w.twins.c);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
  free(all);
  if (w.failed) {
    free(o.s);
    return err && err->code ? err->code : TS_ERR_UNSUPPORTED;
  }
  *out = o.s ? o.s : calloc(1, 1);
  return *out ? TS_OK : ts_fail(err, TS_ERR_NOMEM, "out of memory");
}

ts_status ts_plain_parse(const char *path, const char *text, size_t len, const char *options,
                         int rewrite, ts_plain_src *out, ts_error *err)
{
  memset(out, 0, sizeof *out);
  CXIndex idx;
  CXTranslationUnit tu;
  ts_status pst = parse_tu(path, text, len, options, 0, &idx, &tu, err);
  if (pst != TS_OK)
    return pst;
  walker w = { 0 };
  w.top_body = -1;
  w.src = text;
  w.len = len;
  w.tu = tu;
  w.file = clang_getFile(tu, path);
  w.path = path;
  w.rewrite = rewrite;
  w.err = err;
  w.out = out;
  CXCursor root = clang_getTranslationUnitCursor(tu);
  clang_visitChildren(root, find_kernels, &w);
  /* clang's definite uses of what nothing set, in the file itself */
  CXFile mainf = clang_getFile(tu, path);
  for (unsigned i = 0; i < clang_getNumDiagnostics(tu) && out->nuninit < 8; i++) {
    CXDiagnostic dg = clang_getDiagnostic(tu, i);
    CXString opt = clang_getDiagnosticOption(dg, NULL);
    unsigned line = 0;
    CXFile f = NULL;
    clang_getExpansionLocation(clang_getDiagnosticLocation(dg), &f, &line, NULL, NULL);
    if (strcmp(clang_getCString(opt), "-Wuninitialized") == 0 && f && mainf &&
        clang_File_isEqual(f, mainf)) {
      CXString m = clang_getDiagnosticSpelling(dg);
      out->uninit[out->nuninit].line = (int)line;
      snprintf(out->uninit[out->nuninit++].text, sizeof out->uninit[0].text, "%s",
               clang_getCString(m));
      clang_disposeString(m);
    }
    clang_disposeString(opt);
    clang_disposeDiagnostic(dg);
  }
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\n')
      out->nlines++;
  out->nlines += 2;
  ts_status st = TS_OK;
  if (rewrite && !w.failed) {
    sbuf o = { 0 };
    unsigned pos = 0;
    ti_sb_fmt(&o, "#line 1 \"%s\"\n", strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
    void *pp[3] = { &w, &o, &pos };
    ti_barrier_fns(&w, root);
    ti_note_uses(&w, root);
    clang_visitChildren(root, ti_top_level, pp);
    ti_sb_add(&o, text + pos, len - pos);
    if (o.oom && !w.failed)
      ti_fail(&w, 0, "out of memory");
    out->source = o.s;
    if (w.failed) { /* nothing of the rewrite is kept: the caller has no source to free */
      free(o.s);
      out->source = NULL;
      free(out->atexts);
      out->atexts = NULL;
      out->natexts = 0;
    }
  }
  if (w.failed)
    st = err && err->code ? err->code : TS_ERR_UNSUPPORTED;
  free(w.wrapped);
  free(w.uses);
  free(w.seen.c);
  free(w.twins.c);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
  return st;
}

void ts_plain_src_free(ts_plain_src *s)
{
  free(s->source);
  s->source = NULL;
  free(s->atexts);
  s->atexts = NULL;
  s->natexts = 0;
}
