/* User kernels (SPEC section 9): a .cl file of the user's own becomes a variant. Its
 * header, the comment lines at the top of the file that begin with `// tilescope:`,
 * declares what a built-in variant declares in variants_*.c:
 *
 *   // tilescope: variant name=mybox equals=box3 pattern=none cost=1
 *   // tilescope: pass entry=mybox tile=16x16 group=16x16 halo=1 src=in dst=out
 *
 * variant (one, first): name (required: letters, digits, _ and -), summary ("quoted" text),
 *   equals (box3, gauss or integral: the built-in filter whose reference it must equal,
 *   which also sets the buffers: the integral image reads luma and writes uint32), pattern
 *   (default none), cost (ticks per thread, default 1), mid (u8, u16 or u32: an intermediate
 *   buffer of the image's size for two passes), local (bytes of local memory per group).
 * pass (one to four, in order): entry (the __kernel, required), tile (WxH pixels one thread
 *   owns, required), group (WxH work-items per tile, or `item`: one work-item per tile, the
 *   default), halo (pixels read around the tile, default 0), src (in or mid, default in),
 *   dst (out or mid, default out).
 * The kernel is built after kernels/common.cl like the built-ins, so it uses the same
 * TS_GROUP_ENTRY / TS_ITEM_ENTRY entries and buffer accessors, and runs in every mode (the
 * simulated order, --exec device, observation). It has no CPU model. A header mistake is
 * one error line: FILE:LINE: FIELD: what is wrong. */
#ifndef TS_USER_H
#define TS_USER_H

#include "ts_variant.h"

/* Reads the header of the kernel file at `path` and makes its variant (the file is read
 * again by the OpenCL back end when it builds it). */
ts_status ts_user_load(const char *path, ts_variant **out, ts_error *err);
/* The same from len bytes of the file's text, named path (the fuzz target's entry). */
ts_status ts_user_parse(const char *text, size_t len, const char *path, ts_variant **out,
                        ts_error *err);
void ts_user_free(ts_variant *v);

/* Loads and registers (ts_variant_add) every *.cl file of a folder, in name order; a folder
 * that does not exist holds none. A file that does not load (a bad header, a name taken) is
 * skipped, its error passed to `skipped` (may be NULL), so that one broken file costs only its
 * own variant. Returns the number skipped. */
int ts_user_load_dir(const char *dir, void (*skipped)(const char *why));

#endif
