/* Plain kernels (SPEC section 10): an OpenCL C file as people write it, with no tilescope
 * dialect, run on any OpenCL device from a launch description, and observed access by access.
 *
 * The part has three pieces. The description (ts_plain_desc.c) says how to launch the file:
 * per pass its entry, global and local sizes as expressions of the image's W, H and C, the
 * declared tile and halo, and each argument's role; it comes from `// tilescope: plain` lines
 * at the top of the file or the same fields given on the command line, and defaults to one
 * work-item per pixel with arguments named in, out, W, H. The instrumenter (ts_instrument.c)
 * parses the file with libclang, learns each kernel's arguments, and for an observed run
 * rewrites every __global and __local access into a call of the observation runtime
 * (kernels/plain/observe.cl). The runner (ts_plain_run.c) builds the plain or the observed
 * program on the ts_cl's device, makes the buffers, launches the passes in sequence, and
 * reads back the output and, observed, the findings: accesses outside a buffer (not
 * performed), races between work-groups and inside one (per barrier interval and address
 * space), uninitialised reads, reads and writes outside a declared tile and halo, and
 * branches before a barrier that a group's work-items decide apart (barrier divergence), each
 * grouped by kind and source line with a count and its first places; per work-group the
 * rectangles it read and wrote; and one chosen work-item's every access.
 *
 *   // tilescope: plain entry=blur global=W,H local=16,16 halo=1 tile=16x16
 *
 * Fields: entry (the kernel; default the file's only one), global and local (one to three
 * expressions; local defaults to the largest of 16, 8, 4, 2, 1 dividing each global size),
 * tile=WxH and halo=N (declare a work-group's tile: then a read outside the tile and halo,
 * or a write outside the tile, is a finding with its line), options="-D ..." (build
 * options), and ARG=ROLE for the arguments: input, output (of the image's channels) or
 * output(N) (of N: an integral image is output(1)), buffer or buffer(N) (a temporary of the
 * image's size that passes between launches, by argument name), width, height, channels,
 * pitch (bytes per row of the input), local(EXPR) (a __local buffer of EXPR bytes), or an
 * expression (a constant: r=2, alpha=1/9.0).
 *
 * A library's kernel needs more than an image in and an image out; `buffer` lines declare
 * its buffers by name, and an argument names one (ARG=NAME):
 *
 *   // tilescope: buffer sum type=int shape=W+1,H+1 step=(W+1)*4 role=output
 *
 * with type (uchar char ushort short uint int float), shape=COLS,ROWS (elements; N for a
 * row, COLS,ROWS,SLICES for a 3-D buffer), channels (default 1), step (bytes per row; default
 * the row's bytes), offset (bytes before the first row), role (input: the image, converted
 * to the type, unless init= or file= gives its contents; output: read back and shown; temp:
 * passes between launches), init (zero, the default, a value every lane starts with, or
 * ramp(START,STEP)), file (its first contents: raw bytes or a .npy's data), access (ro, wo:
 * the launch's mode, checked observed) and map (how an output wider than 8 bits is shown:
 * normalised to its largest, the default, or low8, its low bits). The same lines, without `// tilescope: `, make a launch file
 * (--launch FILE) that sits beside a kernel file its owner ships unmodified. */
#ifndef TS_PLAIN_H
#define TS_PLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "ts_cl.h"
#include "ts_image.h"
#include "ts_isolate.h"
#include "ts_status.h"

#define TS_PLAIN_MAX_KERNELS 16
#define TS_PLAIN_MAX_PARAMS 32
#define TS_PLAIN_MAX_PASSES 8

/* ---- the file, as libclang reads it (ts_plain_parse.c) ---- */

enum { TS_SPACE_PRIVATE, TS_SPACE_GLOBAL, TS_SPACE_LOCAL, TS_SPACE_CONSTANT };

typedef struct ts_plain_param {
  char name[64];
  char type[128];   /* as written by libclang */
  int pointer;      /* a pointer argument (then space and the pointee's facts) */
  int space;        /* TS_SPACE_* of the pointee */
  int is_const, is_float, is_signed;
  int is_record;    /* a struct or union (by value: a launch line cannot give one) */
  int elem_size;    /* bytes of the pointee (or of the scalar) */
  int lanes;        /* vector lanes of the pointee, 1 for a scalar */
  int image;        /* an image (image2d_t): its dimensions (then space is __global, lanes 4
                     * and elem_size 4: a pixel), 0 for none */
  int image_write;  /* a write_only image */
} ts_plain_param;

typedef struct ts_plain_kernel {
  char name[64];
  int line, end_line; /* its definition's first and last lines */
  int nparams;
  ts_plain_param params[TS_PLAIN_MAX_PARAMS];
  /* observed: its __local memory in the order the runtime numbers it (the __local pointer
   * arguments, then the arrays it declares), with the bytes of an element of each */
  int nlocals;
  char locals[8][64];
  int local_elem[8];
  int local_dims[8][3]; /* each's array sizes, outermost first (0: no more; none: a pointer
                         * argument or a scalar), and the bytes of one element of the last */
  int local_esz[8];
} ts_plain_kernel;

/* Over this many checked accesses, an observed kernel's checks are calls on a GPU too, not
 * copies (observe.cl's TS_CALLS; a CPU device's always are). */
#define TS_MANY_AT 32
#define TS_PLAIN_LOOPS 16

typedef struct ts_plain_src {
  int nkernels;
  ts_plain_kernel kernels[TS_PLAIN_MAX_KERNELS];
  int nlines;
  int guards;   /* branches whose condition decides whether a barrier is reached (wrapped in
                 * ts_uniform when rewritten) */
  int loops;    /* the fors and whiles among them (on a CPU device each work-item counts
                 * the first TS_PLAIN_LOOPS' rounds: observe.cl's TS_LOOPS) */
  int accesses; /* the places rewritten to check an access (TS_CALLS in observe.cl) */
  int global_rmw; /* the atomics and updates (+=) of __global memory among them */
  char *source; /* rewritten for observation (rewrite != 0), else NULL */
  /* rewritten: each observed __global or __local access's text, by its line and its number
   * among the line's accesses (the runtime's line word: line | number << 16) */
  struct ts_access_text {
    int line, k;
    int kind; /* 1 read, 2 write, 3 both, 4 atomic; 0 not known */
    char text[80];
  } *atexts;
  int natexts;
  /* clang's analysis of the source: a private variable used before anything set it on every
   * way to the use (-Wuninitialized), its line and clang's words */
  int nuninit;
  struct {
    int line;
    char text[96];
  } uninit[8];
} ts_plain_src;

/* Parses `text` (the file at `path`) with the build options; with rewrite, writes the
 * observed source. A parse error is TS_ERR_BUILD with PATH:LINE: the compiler's message; an
 * access that cannot be observed is TS_ERR_UNSUPPORTED with PATH:LINE: why. */
ts_status ts_plain_parse(const char *path, const char *text, size_t len, const char *options,
                         int rewrite, ts_plain_src *out, ts_error *err);
void ts_plain_src_free(ts_plain_src *s);

/* A dialect kernel's observe build: parses prefix (the common parts, as built) followed by
 * text (the kernel file at path) and returns the file's text with every direct __global
 * access (one not made through an accessor) passed through ts_obs_direct (kernels/access.cl),
 * so that the accessor observation sees it too. */
ts_status ts_plain_rewrite_dialect(const char *path, const char *prefix, size_t plen,
                                   const char *text, size_t len, const char *options,
                                   char **out, ts_error *err);

/* ---- the launch description (ts_plain_desc.c) ---- */

typedef enum ts_plain_role {
  TS_ARG_UNSET,
  TS_ARG_INPUT,
  TS_ARG_OUTPUT,
  TS_ARG_BUFFER,   /* a temporary of the image's shape, by the argument's name */
  TS_ARG_WIDTH,
  TS_ARG_HEIGHT,
  TS_ARG_CHANNELS,
  TS_ARG_PITCH,    /* bytes per row of the input */
  TS_ARG_LOCAL,    /* a __local buffer of `expr` bytes */
  TS_ARG_VALUE,    /* the value of `expr` */
  TS_ARG_NAMED,    /* the declared buffer named `expr` (ts_plain_bufdecl) */
  TS_ARG_DATA,     /* a buffer the launch gives whole: d->data[atoi(expr)] */
  TS_ARG_BYTES,    /* a value given as its bytes (a scalar, vector or struct): d->data[...] */
  TS_ARG_NULL,     /* a NULL buffer */
} ts_plain_role;

/* A buffer or value a launch gives whole, as an Oclgrind simulator file does (ts_sim.h): its
 * size, element and first contents, whether the kernel may only read it (ro) or only write
 * it (wo), and whether its contents are printed after the run (dump). */
typedef struct ts_plain_data {
  char name[64];
  size_t size;
  uint8_t *bytes;                /* size bytes; NULL: uninitialised */
  int lane, is_float, is_signed; /* its element: bytes, kind */
  int ro, wo, dump;
  int shown;                     /* the one shown (the first dumped, else the first buffer):
                                  * read back as the output, a grid of elements
                                  * (ts_plain_grid), and its first contents the input */
} ts_plain_data;

/* The grid a buffer of n elements is shown as: n in a row up to 64, else rows of the greatest
 * whole divisor of n from 8 to 64 nearest its square root (one row when none is). */
void ts_plain_grid(size_t n, int *cols, int *rows);

/* A buffer a `buffer` line declares. */
typedef enum ts_plain_bufrole { TS_BUF_INPUT = 1, TS_BUF_OUTPUT, TS_BUF_TEMP } ts_plain_bufrole;

typedef struct ts_plain_bufdecl {
  char name[64];
  ts_plain_bufrole role;
  char type[16];
  int lane, is_float, is_signed;   /* from the type */
  char cols[64], rows[64];         /* its shape: expressions of W, H and C */
  char channels[64], step[64], offset[64]; /* "" for the defaults */
  double init;                     /* every lane's first value (init=ramp: the first's) */
  double ramp;                     /* init=ramp(START,STEP): lane i starts START + i * STEP */
  int has_init;                    /* init= or file= was given (its first values are meant to
                                    * be read) */
  char file[256];                  /* file=PATH: its first contents, raw bytes or a .npy's
                                    * data, as many as the buffer holds (relative to the
                                    * launch's folder) */
  int ro, wo;                      /* access=ro / wo: a kernel's write (read) is a finding */
  int low8;                        /* map=low8 */
  int line;                        /* where it was declared */
} ts_plain_bufdecl;

#define TS_PLAIN_MAX_BUFS 8

typedef struct ts_plain_arg {
  char name[64];
  ts_plain_role role;
  char expr[128];
  int line;        /* where the description set it (0: a default) */
} ts_plain_arg;

typedef struct ts_plain_pass {
  char entry[64];
  char global[3][64], local[3][64];
  int gdims, ldims;            /* expressions given; 0: the defaults */
  int tile_w, tile_h, halo;    /* a declared tile (tile_w 0: none) */
  int nargs;
  ts_plain_arg args[TS_PLAIN_MAX_PARAMS];
  int line;                    /* of its `plain` line, 0 when given as an option */
  char options[2048];          /* its build options: its own options=, else the file's */
  int own_options;             /* it gave options= */
} ts_plain_pass;

typedef struct ts_plain_desc {
  char path[1024];
  char launch[1024];           /* the launch file, or "" (then the kernel file's lines) */
  char options[2048];          /* the file's build options: the first pass's options= (a
                                * pass without its own is built with these; the kernels'
                                * arguments are read with these) */
  int nbufs;
  ts_plain_bufdecl bufs[TS_PLAIN_MAX_BUFS];
  int npasses;
  ts_plain_pass pass[TS_PLAIN_MAX_PASSES];
  char *text;                  /* the file */
  size_t len;
  ts_plain_src src;            /* its kernels */
  int whole;                   /* the launch is given whole (an Oclgrind simulator file): it
                                * takes no image, and what it dumps is its output */
  int ndata;                   /* what the launch gives whole (TS_ARG_DATA, TS_ARG_BYTES) */
  ts_plain_data data[TS_PLAIN_MAX_PARAMS];
} ts_plain_desc;

/* Whether a kernel file is a plain one: it has a `// tilescope: plain` or `buffer` line. */
int ts_plain_is_plain(const char *text, size_t len);

/* Reads the file, its `plain` lines, then `extra` (the same fields, one pass per string,
 * from the command line: they replace the file's passes), and checks them against the
 * kernels' arguments: every argument gets a role. Errors name PATH:LINE: FIELD.
 * (ts_plain_load.c) */
ts_status ts_plain_load(const char *path, const char *const *extra, int nextra,
                        ts_plain_desc **out, ts_error *err);
/* The same with a launch file (NULL: none): its lines replace the kernel file's. With
 * parse_timeout_s > 0, libclang parses the file in a process of its own with that watchdog
 * (core/isolate/), so that a file that makes it crash or run on (a macro that expands
 * without end) costs one line; 0 parses it in this process (ts_plain_load does). */
ts_status ts_plain_load_launch(const char *path, const char *launch, const char *const *extra,
                               int nextra, double parse_timeout_s, ts_plain_desc **out,
                               ts_error *err);
/* The file and its kernels alone, parsed with `options`, with no pass yet: for a launch
 * described elsewhere (an Oclgrind simulator file, ts_sim.h), which fills the passes. */
ts_status ts_plain_load_kernels(const char *path, const char *options, double parse_timeout_s,
                                ts_plain_desc **out, ts_error *err);
/* The declared buffer of that name, or NULL. */
const ts_plain_bufdecl *ts_plain_buf_named(const ts_plain_desc *d, const char *name);
void ts_plain_desc_free(ts_plain_desc *d);
/* The description alone (ts_plain_load's first step, and the fuzz target's): the `plain`
 * lines of d->text (d->len bytes, named d->path), then `extra`, into d's passes. */
ts_status ts_plain_read_desc(ts_plain_desc *d, const char *const *extra, int nextra,
                             ts_error *err);
/* The file's __kernel of that name, or NULL. */
const ts_plain_kernel *ts_plain_kernel_named(const ts_plain_desc *d, const char *name);

/* An expression of W, H and C (+ - * / %, parentheses, integers and decimals; / of two
 * integers is the integer quotient, as in C). */
ts_status ts_plain_eval(const char *expr, int W, int H, int C, double *value, int *is_int,
                        ts_error *err);

/* ---- a run (ts_plain_run.c) ---- */

enum {
  TS_FIND_OOB,          /* outside every buffer: not performed */
  TS_FIND_RACE_GROUPS,  /* two work-groups of one launch, one writing */
  TS_FIND_RACE_LOCAL,   /* two work-items of a group, __local, one barrier interval */
  TS_FIND_RACE_GLOBAL,  /* the same on __global memory */
  TS_FIND_UNINIT,       /* an output or __local element read before any write */
  TS_FIND_FOOTPRINT,    /* a read outside the declared tile and halo */
  TS_FIND_TILE,         /* a write outside the declared tile */
  TS_FIND_DIVERGE,      /* work-items of a group decide a branch before a barrier apart */
  TS_FIND_MODE,         /* a write of a buffer the launch made read-only (not performed), a
                         * read of a write-only one */
  TS_FIND_ALIGN,        /* an access through a pointer not aligned to its type */
  TS_FIND_BENIGN,       /* a race whose writers all wrote the same value: a note, failing a
                         * run only when asked (run --fail-on benign) */
  TS_FIND_PRIVATE,      /* an index outside a private array (the access lands on its first
                         * element) */
  TS_FIND_EVENT,        /* a wait for an event no copy gave (acc 1), or a work-item that ended
                         * with a copy nothing waited for (acc 2) */
  TS_FIND_COPY_DIVERGE, /* work-items of a group ask for one async copy with other arguments */
  TS_FIND_PROGRESS,     /* a work-group spins on memory that no group able to run can change
                         * (in an order of tilescope's, one group at a time) */
  TS_NFIND
};

typedef struct ts_plain_place {
  int space;            /* 0 __global, 1 __local, 2 a private array (off: the index,
                         * other_item: its elements) */
  int buf;              /* the kernel's global buffer (or __local array) index */
  int acc;              /* 1 read, 2 write, 3 both, 4 atomic; TS_PLACE_BRANCH: a barrier
                         * divergence's, which names no element (off: the item's decision) */
  int64_t off;          /* byte offset in that buffer (signed outside it) */
  int outside;          /* outside the buffer (an access outside every buffer, and the value
                         * such a read gives) */
  uint32_t group, item, other_group, other_item;
  int other_line;       /* the other access of a race, where known (0: not) */
  int other_acc;        /* and what it did: 1 read, 2 wrote, 4 atomic (0: not known) */
  int ax;               /* the access's number among its line's (ts_plain_src.atexts) */
} ts_plain_place;

#define TS_PLAIN_PLACES 4
#define TS_PLACE_BRANCH 16 /* observe.cl's ts_uniform */

/* One kind of finding at one source line of one pass, with its count and places: the least
 * (by work-group, then work-item; the same from run to run where the finding itself is) first,
 * then the first others to arrive. */
typedef struct ts_plain_finding {
  int pass, kind, line;
  uint64_t count;
  int nplaces;
  ts_plain_place place[TS_PLAIN_PLACES];
  char value[96];       /* a benign race's: the value every writer wrote; clang's words for
                         * a use of a variable nothing set (place space 4) */
  char access[80];      /* the first place's access as the source writes it (out[i + 1]),
                         * or "" */
} ts_plain_finding;

/* A work-group's rectangles on the images: what it read of the input and wrote of the
 * output, in pixels, inclusive (x1 < x0: none). */
typedef struct ts_plain_rect {
  int x0, y0, x1, y1;
} ts_plain_rect;

/* The barriers a work-group's record stamps (observe.cl's TS_REC_NBAR). */
#define TS_PLAIN_REC_BARS 5

typedef struct ts_plain_group {
  ts_plain_rect read, wrote;
  uint32_t kinds;              /* 1 << kind of every finding made by one of its work-items */
  /* observed: its record, on the launch's clock (a tick each group's start, barrier and
   * end, in the order the device made them; 0: never) */
  uint32_t start, end;
  uint32_t ticket;             /* its start among the launch's groups (from 0) */
  uint32_t launched_as;        /* the linear id the device gave it (another order maps it) */
  uint32_t spins;              /* polls it waited for its turn, in an order of tilescope's */
  uint32_t nbar;               /* barriers its work-items passed */
  uint32_t bar[TS_PLAIN_REC_BARS]; /* the clock at the first of them */
} ts_plain_group;

typedef struct ts_plain_access {
  int space, buf, acc, outside;
  int64_t off;
  uint32_t bytes;
  int line;
  uint32_t group, item;        /* who made it (linear ids) */
  int watched;                 /* it touched the watched pixel */
} ts_plain_access;

/* A global buffer argument of a launch, in argument order: what its elements are. */
typedef struct ts_plain_buf {
  char name[64];        /* the argument's */
  char buffer[64];      /* the declared buffer's ("" for the image roles) */
  int channels, lane;   /* per pixel, and bytes of each */
  int cols, rows;       /* its shape, in pixels */
  int64_t step, offset; /* bytes per row, and before the first row */
  int temp;             /* a temporary (not an image) */
  int array;            /* a buffer given whole (TS_ARG_DATA): its elements are NAME[i]; 2:
                         * NULL (TS_ARG_NULL) */
} ts_plain_buf;

typedef struct ts_plain_launch {
  char entry[64];
  int nbufs;
  ts_plain_buf buf[16];
  int nlocals;                 /* observed: the kernel's __local memory, as the runtime */
  char locals[8][64];          /* numbers it (ts_plain_kernel), kept with the result so that */
  int local_elem[8];           /* a run made in another process names it too */
  int local_dims[8][3];
  int local_esz[8];
  size_t global[3], local[3];
  int dims;
  uint32_t ngroups[3], ngroups_all;
  ts_plain_group *groups;      /* observed: by linear group id */
  uint32_t ticks;              /* observed: the records' clock at the end */
  uint32_t late;               /* groups that stopped waiting for their turn (the order was
                                * not kept: --spin-limit) */
  ts_plain_access *log;        /* observed: the chosen work-item's accesses, and every access
                                * of the watched pixel, in the order they happened */
  size_t nlog, nlog_all;
  double ms;                   /* kernel time, the fastest of the repeats */
  double ms_median;            /* and their median */
  double began[8];             /* the host's monotonic clock (s) as each of the first 8 of
                                * them began: in turns (ts_plain_run_turns), the other run's
                                * launches between */
} ts_plain_launch;

typedef struct ts_plain_opts {
  int observe;
  int chosen_pass;             /* the pass whose chosen work-item is logged (-1: every) */
  long chosen_group[3], chosen_item[3]; /* -1: none */
  int watch_x, watch_y;        /* an output pixel whose every access is logged (-1: none) */
  int repeats;                 /* timed launches of each pass (0: 1) */
  int warmup;                  /* untimed launches of each pass before them */
  int order;                   /* observed: the order the work-groups start in: the device's
                                * (TS_ORDER_DEVICE), or one of tilescope's, `resident` at a
                                * time: reversed, shuffled, a list (order_file), by id */
  uint32_t order_seed;         /* the shuffle's */
  int resident;                /* groups at once in tilescope's orders (0: 1) */
  char order_file[512];        /* TS_ORDER_LIST: a file of the groups, one a line */
  uint32_t spin_limit;         /* polls a group waits for its turn (0: the default) */
  int start_fd;                /* > 0: the kernels built, wait for a byte here before the
                                * first launch (a run built beside another, run after it) */
  int turn_fd;                 /* > 0: launches in turns with another run (ts_plain_run_turns):
                                * a byte written here and one read before each repeat, the
                                * descriptor closed after the last pass's launches */
} ts_plain_opts;

/* ts_plain_opts.order; TS_ORDER_ADVERSARY: a random cycle of the groups (order_seed), so
 * that no group starts in its own place: the first and the last are never the device's */
enum { TS_ORDER_DEVICE, TS_ORDER_REVERSE, TS_ORDER_RANDOM, TS_ORDER_LIST, TS_ORDER_LINEAR,
       TS_ORDER_ADVERSARY };

typedef struct ts_plain_result {
  ts_image *out;               /* the output image, as uchar (see mapping) */
  void *raw;                   /* the output's pixels as the kernel left them, rows packed
                                * (cols * channels * raw_lane bytes a row, no step, no offset) */
  size_t raw_bytes;
  int raw_cols, raw_rows;
  int raw_lane, raw_channels, raw_float, raw_signed;
  char mapping[96];            /* how raw became out: "as is", or normalised to its largest */
  int npasses;
  ts_plain_launch launch[TS_PLAIN_MAX_PASSES];
  ts_plain_finding *findings;
  size_t nfindings;
  uint64_t counts[TS_NFIND];   /* every finding of each kind, all passes */
  char device[160];
  uint8_t *dump;               /* the contents of each d->data marked dump after the run, in
                                * their order (each its size) */
  size_t dump_bytes;
  char *printed;               /* what the kernel printed (printf), in a run made in a process
                                * of its own (else it went to standard output as it came) */
  size_t printed_bytes;
  long printed_at[TS_PLAIN_MAX_PASSES]; /* where each pass's printing starts in printed (-1:
                                         * not known, a run made in this process) */
  long printed_first[TS_PLAIN_MAX_PASSES]; /* and where its first launch's ends (of several,
                                            * bench's repeats) */
} ts_plain_result;

ts_status ts_plain_run(ts_cl *cl, const ts_plain_desc *d, const ts_image *in,
                       const ts_plain_opts *o, ts_plain_result **out, ts_error *err);
void ts_plain_result_free(ts_plain_result *r);

/* ts_plain_run in a child process of its own (core/isolate/), on a device and context it
 * makes there (the caller must not have made one): a kernel that crashes, corrupts memory
 * or runs past timeout_s seconds (<= 0: no limit) ends the child with one error line naming
 * the file, never the caller. */
ts_status ts_plain_run_isolated(int device, const char *kernels_dir, const ts_plain_desc *d,
                                const ts_image *in, const ts_plain_opts *o, double timeout_s,
                                ts_plain_result **out, ts_error *err);
/* The same in two steps, for a run that goes on beside the caller's work (`run` makes the
 * plain run while the observed one builds): ts_plain_run_finish waits for the result,
 * ts_isolate_cancel (ts_isolate.h) drops it. */
ts_status ts_plain_run_start(int device, const char *kernels_dir, const ts_plain_desc *d,
                             const ts_image *in, const ts_plain_opts *o, double timeout_s,
                             ts_isolated *h, ts_error *err);
ts_status ts_plain_run_finish(ts_isolated *h, ts_plain_result **out, ts_error *err);
/* Two runs of d, each isolated, made side by side with their repeats in turns (a's first,
 * then b's, a's...; one of them alone once the other has ended), so that a machine that
 * slows down for a while (a neighbour on its cores) slows both alike and the ratio of their
 * times holds (bench). Where this process has threads, one after the other. */
ts_status ts_plain_run_turns(int device, const char *kernels_dir, const ts_plain_desc *d,
                             const ts_image *in, const ts_plain_opts *oa,
                             const ts_plain_opts *ob, double timeout_s, ts_plain_result **ra,
                             ts_plain_result **rb, ts_error *err);
/* The same work in a worker process of tilescope's own program (`tilescope __plain-worker`,
 * started with exec, not a fork): for a caller with threads (the viewer, a shot: SDL's, the
 * GL driver's), whose locks a fork would copy held. ts_plain_run_isolated and the parse of
 * ts_plain_load_launch go there by themselves when this process has more than one thread
 * and ts_isolate_set_program named the program. The request carries the description whole
 * (its text too), the image, and what to do with them. */
typedef enum ts_plain_job { TS_JOB_PARSE = 1, TS_JOB_RUN } ts_plain_job;

typedef struct ts_plain_request {
  ts_plain_job job;
  char kernels_dir[1024];
  int device;
  ts_plain_opts opts;
} ts_plain_request;

/* A run's or a parse's request as bytes and back; unpack makes *d (and *in for a run). */
void ts_plain_request_pack(const ts_plain_request *q, const ts_plain_desc *d, const ts_image *in,
                           ts_blob *b);
ts_status ts_plain_request_unpack(const ts_blob *b, ts_plain_request *q, ts_plain_desc **d,
                                  ts_image **in, ts_error *err);
/* The job itself, where it runs (the worker program, or a forked child): TS_JOB_PARSE puts d's
 * kernels' facts (a ts_plain_src, no rewritten source) into out, TS_JOB_RUN the result of d run
 * on in (ts_plain_result_pack). */
ts_status ts_plain_job_do(const ts_plain_request *q, const ts_plain_desc *d, const ts_image *in,
                          ts_blob *out, ts_error *err);
/* The job in a process of its own with a watchdog of timeout_s: the worker program where this
 * process has threads, else a forked child; `what` names it in the error lines. */
ts_status ts_plain_job_isolated(const char *what, const ts_plain_request *q, const ts_plain_desc *d,
                                const ts_image *in, double timeout_s, ts_blob *res, ts_error *err);

/* A result as bytes and back (ts_plain_pack.c), for a run made in a child process. */
void ts_plain_result_pack(const ts_plain_result *r, ts_blob *b);
ts_status ts_plain_result_unpack(const ts_blob *b, ts_plain_result **out, ts_error *err);

/* The order o's work-groups start in, in words: "the device's order", "reversed order, one
 * at a time (--order reverse)"... (ts_plain_findings.c) */
void ts_plain_order_words(const ts_plain_opts *o, char *b, size_t n);
/* The elements two runs' outputs differ at (their raw lanes where both have them, else their
 * 8-bit images' bytes; every element of the larger where the shapes differ); -1 where one has
 * no output. And that count in words: "the outputs differ at 21125 elements: the result
 * depends on the order", or "the same output in both orders". */
long long ts_plain_differ(const ts_plain_result *x, const ts_plain_result *y);
void ts_plain_differ_words(long long d, char *b, size_t n);

/* The work-groups' records of r (observed) as trace-event JSON at path (ts_plain_trace.c). */
ts_status ts_plain_trace_write(const ts_plain_result *r, const char *path, ts_error *err);

/* One finding as one line: PATH:LINE: KIND in KERNEL: group (gx,gy) item (lx,ly) ... element
 * (x,y) channel c of BUFFER ..., and N more. */
void ts_plain_finding_line(const ts_plain_desc *d, const ts_plain_result *r,
                           const ts_plain_finding *f, char *buf, size_t n);
const char *ts_plain_kind_name(int kind);
/* What r's plain run would do that its observed run found it must not (an access outside a
 * buffer or a private array, a write of a read-only buffer, which the observed run did not
 * make; a use of a variable nothing set, undefined): "access memory outside its buffers",
 * ...; NULL when there is none. */
const char *ts_plain_unsafe_access(const ts_plain_result *r);
/* A work-group and work-item by their linear ids, as (x,y); an element as the finding lines
 * name it ("out pixel (3,4) channel 1", "__local tile element 7"). */
void ts_plain_group_name(const ts_plain_launch *L, uint32_t g, char *buf, size_t n);
void ts_plain_item_name(const ts_plain_launch *L, uint32_t i, char *buf, size_t n);
void ts_plain_element_name(const ts_plain_desc *d, const ts_plain_result *r, int pass,
                           const ts_plain_place *p, char *buf, size_t n);
/* The image pixel of a finding's place, with the arithmetic of its line's element: 1 and
 * (x, y) for a __global place inside an image-shaped buffer of pass `pass`; 0 for a __local
 * place or one outside the image. */
int ts_plain_place_pixel(const ts_plain_desc *d, const ts_plain_result *r, int pass,
                         const ts_plain_place *p, int *x, int *y);

#endif
