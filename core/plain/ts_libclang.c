/* libclang (Debian's libclang1-15), loaded when a plain kernel is first parsed rather than
 * with the program: its libraries, some 100 MB with LLVM's, had cost every start of tilescope
 * about 0.1 s of CPU (their relocations), a `list` or a `--help` as much as a run. Each
 * function of libclang's C API that core/plain/ calls is defined here as a call through its
 * pointer, which ts_libclang_load sets once (the program exports none of them: libclang's own
 * calls stay its own). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <clang-c/Index.h>

#include "ts_libclang.h"

/* R(returns, name, parameters, arguments); V(name, ...): returns nothing */
#define TS_CLANG_FNS(R, V) \
  R(CXEvalResult, clang_Cursor_Evaluate, (CXCursor a0), (a0)) \
  R(CXCursor, clang_Cursor_getArgument, (CXCursor a0, unsigned a1), (a0, a1)) \
  R(int, clang_Cursor_getNumArguments, (CXCursor a0), (a0)) \
  R(enum CX_StorageClass, clang_Cursor_getStorageClass, (CXCursor a0), (a0)) \
  R(int, clang_Cursor_isNull, (CXCursor a0), (a0)) \
  V(clang_EvalResult_dispose, (CXEvalResult a0), (a0)) \
  R(long long, clang_EvalResult_getAsLongLong, (CXEvalResult a0), (a0)) \
  R(CXEvalResultKind, clang_EvalResult_getKind, (CXEvalResult a0), (a0)) \
  R(int, clang_File_isEqual, (CXFile a0, CXFile a1), (a0, a1)) \
  R(int, clang_Location_isFromMainFile, (CXSourceLocation a0), (a0)) \
  R(long long, clang_Type_getSizeOf, (CXType a0), (a0)) \
  R(CXIndex, clang_createIndex, (int a0, int a1), (a0, a1)) \
  V(clang_disposeDiagnostic, (CXDiagnostic a0), (a0)) \
  V(clang_disposeIndex, (CXIndex a0), (a0)) \
  V(clang_disposeString, (CXString a0), (a0)) \
  V(clang_disposeTokens, (CXTranslationUnit a0, CXToken *a1, unsigned a2), (a0, a1, a2)) \
  V(clang_disposeTranslationUnit, (CXTranslationUnit a0), (a0)) \
  R(unsigned, clang_equalCursors, (CXCursor a0, CXCursor a1), (a0, a1)) \
  R(unsigned, clang_equalTypes, (CXType a0, CXType a1), (a0, a1)) \
  R(CXType, clang_getArrayElementType, (CXType a0), (a0)) \
  R(long long, clang_getArraySize, (CXType a0), (a0)) \
  R(const char *, clang_getCString, (CXString a0), (a0)) \
  R(CXType, clang_getCanonicalType, (CXType a0), (a0)) \
  R(CXCursor, clang_getCursorDefinition, (CXCursor a0), (a0)) \
  R(CXSourceRange, clang_getCursorExtent, (CXCursor a0), (a0)) \
  R(enum CXCursorKind, clang_getCursorKind, (CXCursor a0), (a0)) \
  R(CXSourceLocation, clang_getCursorLocation, (CXCursor a0), (a0)) \
  R(CXCursor, clang_getCursorReferenced, (CXCursor a0), (a0)) \
  R(CXCursor, clang_getCursorSemanticParent, (CXCursor a0), (a0)) \
  R(CXString, clang_getCursorSpelling, (CXCursor a0), (a0)) \
  R(CXType, clang_getCursorType, (CXCursor a0), (a0)) \
  R(CXDiagnostic, clang_getDiagnostic, (CXTranslationUnit a0, unsigned a1), (a0, a1)) \
  R(CXSourceLocation, clang_getDiagnosticLocation, (CXDiagnostic a0), (a0)) \
  R(CXString, clang_getDiagnosticOption, (CXDiagnostic a0, CXString *a1), (a0, a1)) \
  R(enum CXDiagnosticSeverity, clang_getDiagnosticSeverity, (CXDiagnostic a0), (a0)) \
  R(CXString, clang_getDiagnosticSpelling, (CXDiagnostic a0), (a0)) \
  R(CXType, clang_getElementType, (CXType a0), (a0)) \
  V(clang_getExpansionLocation, (CXSourceLocation a0, CXFile *a1, unsigned *a2, unsigned *a3, unsigned *a4), (a0, a1, a2, a3, a4)) \
  R(CXFile, clang_getFile, (CXTranslationUnit a0, const char *a1), (a0, a1)) \
  V(clang_getFileLocation, (CXSourceLocation a0, CXFile *a1, unsigned *a2, unsigned *a3, unsigned *a4), (a0, a1, a2, a3, a4)) \
  R(CXString, clang_getFileName, (CXFile a0), (a0)) \
  R(CXCursor, clang_getNullCursor, (void), ()) \
  R(unsigned, clang_getNumDiagnostics, (CXTranslationUnit a0), (a0)) \
  R(long long, clang_getNumElements, (CXType a0), (a0)) \
  R(CXType, clang_getPointeeType, (CXType a0), (a0)) \
  R(CXSourceLocation, clang_getRangeEnd, (CXSourceRange a0), (a0)) \
  R(CXSourceLocation, clang_getRangeStart, (CXSourceRange a0), (a0)) \
  R(CXTokenKind, clang_getTokenKind, (CXToken a0), (a0)) \
  R(CXSourceLocation, clang_getTokenLocation, (CXTranslationUnit a0, CXToken a1), (a0, a1)) \
  R(CXString, clang_getTokenSpelling, (CXTranslationUnit a0, CXToken a1), (a0, a1)) \
  R(CXCursor, clang_getTranslationUnitCursor, (CXTranslationUnit a0), (a0)) \
  R(CXString, clang_getTypeSpelling, (CXType a0), (a0)) \
  R(unsigned, clang_hashCursor, (CXCursor a0), (a0)) \
  R(unsigned, clang_isConstQualifiedType, (CXType a0), (a0)) \
  R(unsigned, clang_isCursorDefinition, (CXCursor a0), (a0)) \
  R(unsigned, clang_isExpression, (enum CXCursorKind a0), (a0)) \
  R(enum CXErrorCode, clang_parseTranslationUnit2, (CXIndex a0, const char *a1, const char *const *a2, int a3, struct CXUnsavedFile *a4, unsigned a5, unsigned a6, CXTranslationUnit *a7), (a0, a1, a2, a3, a4, a5, a6, a7)) \
  V(clang_tokenize, (CXTranslationUnit a0, CXSourceRange a1, CXToken **a2, unsigned *a3), (a0, a1, a2, a3)) \
  R(unsigned, clang_visitChildren, (CXCursor a0, CXCursorVisitor a1, CXClientData a2), (a0, a1, a2))

#define TS_PTR_R(ret, name, params, args) static ret(*p_##name) params;
#define TS_PTR_V(name, params, args) static void(*p_##name) params;
TS_CLANG_FNS(TS_PTR_R, TS_PTR_V)

#define TS_DEF_R(ret, name, params, args) \
  ret name params { return p_##name args; }
#define TS_DEF_V(name, params, args) \
  void name params { p_##name args; }
TS_CLANG_FNS(TS_DEF_R, TS_DEF_V)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char why[512]; /* empty: loaded */

static void load(void)
{
  /* the library the build found first, then its name wherever the loader looks */
  static const char *const names[] = {
#ifdef TS_LIBCLANG_FILE
    TS_LIBCLANG_FILE,
#endif
    "libclang-15.so.15", "libclang-15.so.1" };
  void *lib = NULL;
  for (size_t i = 0; !lib && i < sizeof names / sizeof names[0]; i++)
    lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *e = dlerror();
    snprintf(why, sizeof why, "%s", e ? e : "not found");
    return;
  }
  void *s;
#define TS_SYM(name)                                                                  \
  if ((s = dlsym(lib, #name)) == NULL && !why[0])                                     \
    snprintf(why, sizeof why, "it has no %s", #name);                                 \
  memcpy(&p_##name, &s, sizeof s);
#define TS_SYM_R(ret, name, params, args) TS_SYM(name)
#define TS_SYM_V(name, params, args) TS_SYM(name)
  TS_CLANG_FNS(TS_SYM_R, TS_SYM_V)
}

ts_status ts_libclang_load(ts_error *err)
{
  pthread_once(&once, load);
  if (why[0])
    return ts_fail(err, TS_ERR_UNSUPPORTED,
                   "libclang 15, which reads plain kernels, cannot be loaded: %s (apt-get install "
                   "libclang1-15)", why);
  return TS_OK;
}
