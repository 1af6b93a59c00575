/* The runtime of an observed plain kernel (SPEC section 10), prepended to the kernel as
 * core/plain/ts_instrument.c rewrote it. Every access of __global or __local memory in the
 * kernel became a call of ts_g or ts_l (vloadN, vstoreN and atomics pass their pointer
 * through the same calls), barrier() became ts_barrier, and every function of the file takes
 * the work-item's context (ts_ctx *) first. Each call checks the access against the buffers
 * and __local arrays it knows, and returns the pointer to use: the access itself, or, outside
 * every buffer, a scratch area (reads give 0, writes land nowhere), so an access outside a
 * buffer is never performed.
 *
 * The observation buffer (ts_ob, 32-bit words; core/plain/ts_plain_run.c lays it out and reads
 * it back) holds the header below, then per buffer TS_BI words, then the findings: per kind and
 * source line a count and the first TS_NPLACES places to arrive, then per kind and line the
 * least place (by work-group, then work-item) and its lock, then the chosen work-item's log, then
 * per work-group and image buffer the rectangles it read and wrote, then the shadows: per lane
 * (element of the argument's scalar type) of each global buffer the kernel may write, four
 * words (ts_gshadow).
 *
 * Races follow SPEC section 10: between work-groups, an element one group writes and another
 * reads or writes in the launch; inside a group, an element written by one work-item and read
 * or written by another in the same barrier interval of its address space (a barrier that does
 * not fence that space does not order it). Atomics do not race with each other. A branch
 * that decides whether a barrier is reached must be decided alike by a group's work-items
 * (ts_uniform); its decisions are kept per work-group after the rectangles' kinds. */

/* Header words. */
#define TS_H_NBUF 0      /* global buffers */
#define TS_H_NLINES 1    /* source lines: the findings table's rows per kind */
#define TS_H_CHOSEN_G 2  /* the chosen work-group (linear), or ~0 */
#define TS_H_CHOSEN_I 3  /* the chosen work-item in it (linear) */
#define TS_H_LOGCAP 4    /* the chosen work-item's log: capacity, in records */
#define TS_H_LOGN 5      /* records written (may pass the capacity) */
#define TS_H_FIND 6      /* word offset of the findings table */
#define TS_H_LOG 7       /* word offset of the log */
#define TS_H_RECT 8      /* word offset of the rectangles */
#define TS_H_TILE_W 9    /* a declared tile (0: none) and halo */
#define TS_H_TILE_H 10
#define TS_H_HALO 11
#define TS_H_SCRATCH 12  /* word offset of 64 zero words for reads outside a buffer */
#define TS_H_SINK 13     /* word offset of 64 words that writes outside a buffer land in */
#define TS_H_LOCAL_N 14  /* per local pointer argument: its size in bytes, words 16.. */
#define TS_H_LOCAL0 16
#define TS_H_WATCH_BUF 24 /* a watched range of one global buffer (~0: none): every access */
#define TS_H_WATCH_LO 25  /* that touches bytes [lo, hi) is logged, by any work-item */
#define TS_H_WATCH_HI 26
#define TS_H_NONCE 27     /* this launch's number: tells a group's bounds from stale ones */
#define TS_H_GFIND 28     /* word offset of a word a work-group: 1 << kind of its findings */
#define TS_H_UNI 29       /* word offset of TS_UNI_AREA words a work-group: the branches before
                           * a barrier, as its work-items decided them (ts_uniform), and on a
                           * CPU device its loops' counts (ts_loop_end); 0: none */
#define TS_H_WW 30        /* word offset of the writes that met another's (ts_ww): a count, then
                           * TS_WW_CAP records of TS_WW_REC words */
#define TS_H_ORDER 31     /* the order the groups start in (ts_begin), the low 3 bits: 0 the
                           * device's, 1 reversed, 2 shuffled (the seed: the word >> 3), 3 a
                           * list (TS_H_OLIST), 4 by their ids */
#define TS_H_TICKET 32    /* groups started: each group's ticket, in the device's order */
#define TS_H_DONE 33      /* groups ended */
#define TS_H_RESIDENT 34  /* in an order other than the device's, the groups that may run at
                           * once: a group with ticket t starts once t < done + resident */
#define TS_H_REC 35       /* word offset of the records, TS_REC_W words a group, by its id */
#define TS_H_CLOCK 36     /* the records' clock: a tick each start, barrier and end */
#define TS_H_OLIST 37     /* word offset of the list of an order given as one (mode 3) */
#define TS_H_SPIN 38      /* polls before a group stops waiting for its turn */
#define TS_H_LATE 39      /* groups that stopped waiting (the order was not kept) */
#define TS_H_ABORT 40     /* set once a spin can never end: waits end, spins are let go */
#define TS_H_REDO 41      /* set by a launch with TS_F_FAST shadows that met an access they
                           * cannot judge: the launch is made again with the full shadows */
#define TS_H_NWRITE 42    /* on a CPU device, the lanes written with TS_F_FAST shadows, as a
                           * 64-bit count (words 42, 43): the host holds it against the lanes
                           * the shadows name, which equal it only when none was written twice */
#define TS_H_LFAST 44     /* (built with TS_LFAST: a launch that may try fast shadows)
                           * __local reads tried fast: a byte's readers not named, only
                           * that some work-item read in the interval (TS_LRD_AT); a write or
                           * atomic in such an interval sets TS_H_LREDO (ts_lfastw), and the
                           * launch is made again with them named (its global shadows kept).
                           * On a CPU device, a read inside the group's window of the array
                           * (ts_lwin: bytes a plain write of an earlier interval made)
                           * costs two tests */
#define TS_H_LREDO 45
#define TS_HEADER 48
/* A work-group's record: when it started and ended on the records' clock (+1: 0 never), its
 * ticket, the id the device launched it as, the polls it waited for its turn, a word not used
 * (its work-items are counted in __local memory: TS_END_AT), its barriers, and the clock at
 * its first TS_REC_NBAR. */
#define TS_R_START 0
#define TS_R_END 1
#define TS_R_TICKET 2
#define TS_R_LAUNCH 3
#define TS_R_SPINS 4
#define TS_R_NBAR 6
#define TS_R_BAR 7
#define TS_REC_NBAR 5
#define TS_REC_W 12
#define TS_WW_CAP 1024
#define TS_WW_REC 5        /* the finding's row, the buffer, the lane's offset, and the lane's
                            * bytes before this write (what the last writer wrote), two words */

/* Per global buffer, TS_BI words from TS_HEADER + k * TS_BI. */
#define TS_B_SIZE 0      /* bytes */
#define TS_B_FLAGS 1     /* TS_F_* */
#define TS_B_PITCH 2     /* bytes per row of pixels (image roles) */
#define TS_B_PIXEL 3     /* bytes per pixel */
#define TS_B_SHADOW 4    /* word offset of its shadows (4 words a lane), or 0: none */
#define TS_B_RECT 5      /* its index among the image buffers (rectangles), or ~0 */
#define TS_B_W 6         /* pixels per row and rows (image roles) */
#define TS_B_H 7
#define TS_B_LANE 8      /* log2 of the bytes a shadow covers: the buffer's lane (0 uchar, 2 float) */
#define TS_B_OFFSET 9    /* bytes before its first row */
#define TS_B_PDIV 10     /* the pitch's reciprocal for ts_div, two words (12, 13: free) */
#define TS_B_MASK 14     /* word offset of a byte a lane: 1 where an earlier pass wrote it */
#define TS_BI 16
#define TS_BI_OF(ob, k) ((__global const uint *)(ob) + TS_HEADER + (k) * TS_BI) /* buffer k's */

#define TS_F_INPUT 1
#define TS_F_OUTPUT 2
#define TS_F_READONLY 4  /* declared const: no shadows needed for races on it */
#define TS_F_UNSET 8     /* the output, written by no earlier launch: a read nothing wrote */
#define TS_F_NOINIT 16   /* given uninitialised (a .sim's noinit): an atomic reads garbage too */
#define TS_F_RO 32       /* the launch made it read-only: a write is a finding, not performed */
#define TS_F_WO 64       /* write-only: a read is a finding */
#define TS_F_FAST 128    /* its shadows keep only the writing group, a word a lane (a byte on
                          * a CPU device, 1: written; ts_gfast):
                          * this launch is tried so, and made again in full (TS_H_REDO) unless
                          * every access of the buffer is a first plain write of its lane */

/* Kinds of access, and of finding. */
#define TS_K_READ 1
#define TS_K_WRITE 2
#define TS_K_UPDATE 3    /* read and write (+=, ++) */
#define TS_K_ATOMIC 4
#define TS_K_VECTOR 64   /* with READ or WRITE: vloadN / vstoreN, aligned to the element only */
#define TS_K_PROBE 128   /* with ATOMIC: the bounds of an atomic_cmpxchg's word, no shadow yet */
#define TS_K_FAILED 16   /* with ATOMIC: an atomic_cmpxchg that writes nothing, an atomic read */

#define TS_FIND_OOB 0          /* outside every buffer: not performed */
#define TS_FIND_RACE_GROUPS 1  /* two work-groups of the launch, one of them writing */
#define TS_FIND_RACE_LOCAL 2   /* two work-items of a group, __local, one barrier interval */
#define TS_FIND_RACE_GLOBAL 3  /* the same on __global memory */
#define TS_FIND_UNINIT 4       /* an output or __local element read before any write */
#define TS_FIND_FOOTPRINT 5    /* a read outside the declared tile and halo */
#define TS_FIND_TILE 6         /* a write outside the declared tile */
#define TS_FIND_DIVERGE 7      /* work-items of a group decide a branch before a barrier apart */
#define TS_FIND_MODE 8         /* a write of a read-only buffer, a read of a write-only one */
#define TS_FIND_ALIGN 9        /* an access through a pointer not aligned to its type */
#define TS_FIND_BENIGN 10      /* a race whose writers all wrote the same value (the host's) */
#define TS_FIND_PRIVATE 11     /* an index outside a private array */
#define TS_FIND_EVENT 12       /* a wait for an event no copy gave (acc 1), a copy never waited
                                * for (acc 2) */
#define TS_FIND_COPY_DIVERGE 13 /* work-items of a group ask for one copy with other arguments */
#define TS_FIND_PROGRESS 14    /* a work-group spins on memory no running group can change */
#define TS_NFIND 15
#define TS_UNI 32              /* the branches a work-group's items check, in their order */
#define TS_UNI_W 2             /* words a branch: its first decider (line + 1 << 12 | item <<
                                * 1 | way), and the word of the decisions TS_UNI, 2 * TS_UNI,
                                * ... after it (ts_uniform) */
#ifdef TS_GROUP_SERIAL
#define TS_LOOPS 16            /* the loops that hold a barrier, by their number in the file
                                * (ts_plain.h's TS_PLAIN_LOOPS): counted on a CPU device */
#define TS_LOOP_W 5            /* words a loop: line + 1, its barrier's line + 1, its most
                                * and fewest true conditions (ts_most_least), its most runs */
#define TS_UNI_AREA (TS_UNI * TS_UNI_W + TS_LOOPS * TS_LOOP_W)
/* word offset of loop k's words in group g's area (uni: TS_H_UNI) */
#define TS_LOOP_AT(uni, g, k) \
  ((size_t)(uni) + (size_t)(g) * TS_UNI_AREA + TS_UNI * TS_UNI_W + (size_t)(k) * TS_LOOP_W)
#else
#define TS_UNI_AREA (TS_UNI * TS_UNI_W)
#endif
#define TS_NPLACES 4           /* places kept per kind and line */
#define TS_PLACE 7             /* words a place: space | buffer << 8 | kind << 16, offset,
                                * group, item, other group, other item, other line */
#define TS_LOG_REC 6           /* words a log record: buffer | kind << 8 | space << 16,
                                * offset, bytes, line, group, item */
#ifndef TS_MAXG
#define TS_MAXG 8              /* global buffers, and __local arrays, a kernel may have (the
                                * host asks for 16 where a kernel has more than 8 buffers) */
#endif
#define TS_NOBODY 0u
#define TS_MANY 0xffffffffu

/* An access's checks: its few cheap tests copied into the access (ts_g, ts_l), the rest one
 * function each (TS_SLOW), into which the helpers are forced inline (TS_HOT: pocl's inliner
 * left ts_lshadow a call, which cost the tiled Gaussian about 15%). On a CPU device the rest
 * is called: a copy of it at every access had made pocl's first build of a kernel take 18 s
 * for conv2d's two accesses, 33 s for the tiled Gaussian's, minutes for a hundred; called,
 * about 6 s. A GPU's compiler copes, and a call costs it more, so there it is copied, unless
 * the kernel has many accesses (TS_CALLS, set by the host). */
#define TS_HOT inline __attribute__((always_inline))
#if defined(TS_GROUP_SERIAL) || defined(TS_CALLS)
#define TS_SLOW __attribute__((noinline))
#else
#define TS_SLOW inline __attribute__((always_inline))
#endif
/* The kernel's short helpers (the instrumenter marks them): on a CPU device copied into
 * their callers, as a plain build's would be, which the checks inside had kept a call. */
#ifdef TS_GROUP_SERIAL
#define TS_HELPER __attribute__((always_inline))
#else
#define TS_HELPER
#endif
/* A loop of the kernel's that runs a few times known before it starts (the instrumenter
 * marks it), unrolled, as a plain build's would be; TS_SMALL_NEST, one of a nest whose
 * innermost body runs more than a few times in all, on a CPU device only: on the H200 at
 * 4K, unrolled, conv2d's 3x3 taps took 1.68 ms instead of 1.85 and the separable passes' 5
 * 1.08 instead of 1.21, but the tiled Gaussian's 5x5 3.53 instead of 3.12. */
#define TS_SMALL_LOOP _Pragma("unroll")
#ifdef TS_GROUP_SERIAL
#define TS_SMALL_NEST _Pragma("unroll")
#else
#define TS_SMALL_NEST
#endif

/* A work-item's global buffers and the image bounds of its accesses, or on a CPU device
 * (TS_GROUP_SERIAL: one thread runs a work-group's work-items one after another, switching
 * only at barriers) its whole group's, kept in __local memory: the group's first work-item
 * looks its buffers up, the work-items of a row share their row's bounds, so that the first
 * access of each, which had found no row, is the cheap one, and the group's rectangles are
 * flushed once, by its last work-item, not once a work-item. The buffers: their addresses and
 * sizes (their words: TS_BI_OF), and the work their accesses have besides the log (TS_W_*), so
 * that an access of a buffer with none (a const temporary) costs one test after its bounds.
 * The bounds, per image (input,
 * output) and kind (read, write): the row of the last access, bytes [rs, re), and the least
 * and greatest byte it covers there (rlo > rhi: none), so that an access in the same row, the
 * usual next one, costs two tests and a min and a max, no division; and the rows left, folded:
 * the least and greatest offset and column (omin > omax: none). used: bit img * 2 + kind,
 * bounds to flush. key and ended (CPU): whose bounds these are, and its work-items done. */
/* Two windows, tested before the buffers are even looked up, never opened by a work-item
 * whose accesses ts_log logs. [glo, ghi]: all of a buffer with no work at all (a const
 * temporary), where a read costs two tests. [flo, fhi]: of a buffer whose only work is the
 * rectangles, the row of the last read, and in it [fmin, fmax], what the row's bounds covered
 * when the window opened and the reads since: a read there costs two tests, one elsewhere in
 * the row two more, a min and a max, and sets wdirty; ts_wfold folds [fmin, fmax] into that
 * row's bounds at the next access outside (wimg the image, wbase its first row's address;
 * wimg 2: nothing to fold). On a CPU device, whose group is one thread taking its work-items
 * in turn, they are the group's, as its bounds are: a work-item starts where the one before
 * left them, and they stay open across barriers; on a GPU each work-item's own. */
typedef struct ts_win {
  ulong glo, ghi, flo, fhi, fmin, fmax, wbase;
  uint wimg, wdirty;
#ifdef TS_GROUP_SERIAL
  /* (TS_H_LFAST) reads of __local bytes [lwb, lwb + lwn) cost two tests (ts_lwin), in the
   * barrier interval lwat */
  ulong lwb, lwn;
  uint lwat;
#endif
} ts_win;

typedef struct ts_group {
  __global uchar *gb[TS_MAXG];
  ulong gsz[TS_MAXG];
  uint gwork[TS_MAXG];
  uint gk[2]; /* the buffer of the last read and write that passed the windows: hints */
  uint key0, key1, ended, used;
  uint rs[2][2], re[2][2], rlo[2][2], rhi[2][2];
  uint omin[2][2], cmin[2][2], omax[2][2], cmax[2][2];
  /* the reads' rectangle of one image so far, for a read's test (ts_g): rows [xr0, xr1]
   * (bytes [xb, xb + xend) hold them), columns [xc0, xc1] in bytes; xm the pitch's
   * reciprocal (ts_div), ximg its image; xend 0: none */
  ulong xb, xm, xend;
  uint xpitch, xr0, xr1, xc0, xc1, ximg;
#ifdef TS_GROUP_SERIAL
  /* a window for writes (ts_gwin), the group's as its bounds are: of a buffer whose work is
   * only fast shadows (TS_F_FAST) and perhaps the rectangles, [wlo, whi] what the bounds
   * cover of the row of its last write (an image buffer's) or all of it, wb the buffer, ws
   * its shadows, wsh its lane's log2; whi 0: none. And [wflo, wfhi]: all of that row (its
   * declared part), where a write widens the row's bounds (of image wimg, at wib) and the
   * window with them: a group's first row, whose every write is past what the row covered */
  ulong wlo, whi, wb, wflo, wfhi, wib;
  uint wimg;
  /* and for a column's walk, which opens no row window: the group's write rectangle so far
   * of one image buffer (ts_gat), rows [yr0, yr1] and columns [yc0, yc1] in bytes of the
   * image at yb (yend bytes; 0: none; ym the pitch's reciprocal), its lanes' fast shadows at
   * yws (of the buffer at ywb, 1 << ywsh bytes a lane): a write inside changes no bound */
  ulong yb, ym, yend, ywb;
  __global uint *yws;
  uint ypitch, yr0, yr1, yc0, yc1, ywsh, yrow;
  __global uint *ws;
  uint wsh;
  uint nwrite; /* its lanes written with fast shadows (ts_gfast), added up at its end */
  /* (TS_H_LFAST) per __local array, the interval its read window was found in (ts_lwin)
   * and its bytes [lwlo, lwhi) */
  uint lwint[TS_MAXG], lwlo[TS_MAXG], lwhi[TS_MAXG];
  ts_win win, quiet; /* the windows (ts_win), and a pair never opened (ts_ctx's w) */
#endif
} ts_group;

/* The group's copies and waits, TS_NCALL slots of three words after the scratch (and the
 * group's bounds): a tag of the launch, group and call (its ordinal among the work-item's
 * copies and waits), the first work-item's arguments' hash, and its element count. */
#define TS_NCALL 16
#ifdef TS_GROUP_SERIAL
#define TS_GS __local
#define TS_CALLS_AT (64 + sizeof(ts_group) / 4)
#define TS_GRP(c) ((c)->g)
#define TS_WIN(c) ((c)->w)          /* the windows its accesses test */
#define TS_GWIN(c) (&(c)->g->win)   /* the windows the bounds are folded from */
#else
#define TS_GS
#define TS_CALLS_AT 64
#define TS_GRP(c) (&(c)->t->g0)
#define TS_WIN(c) (&(c)->w0)
#define TS_GWIN(c) (&(c)->w0)
#endif
/* the group's id and its ids as the kernel sees them (ts_begin): its first work-item's
 * divisions, not every work-item's */
#define TS_TICKET_AT (TS_CALLS_AT + 3 * TS_NCALL)
/* (a GPU) the group's end: its work-items ended, the bounds below given (a bit an image and
 * kind), and per image and kind the least and greatest offset and column (ts_finish) */
#define TS_END_AT (TS_TICKET_AT + 4)
/* (TS_H_LFAST) the last local barrier interval, as (lmine & ~2047) | 1 (0: none), that a
 * work-item read __local memory in (a GPU) or a group's read window was found in (a CPU) */
#define TS_LRD_AT (TS_END_AT + 2 + 16)
#define TS_LSCR_WORDS (TS_LRD_AT + 1)

#define TS_PEND 4                /* copies a work-item keeps until its wait; more are made at once */

/* A work-item's tables, and what its rare paths (findings, logs, spins) need, apart from
 * ts_ctx, so that a compiler can keep ts_ctx in registers: one array of a struct indexed by a
 * number known only as the kernel runs (a buffer's, a __local array's), or a pointer to the
 * struct given to a function not inlined, keeps the whole struct in memory (LLVM's SROA
 * gives up on it). On a GPU that was the context's kilobyte in local memory, stored and
 * loaded by every work-item at its every access. */
typedef struct ts_tab {
  __global uint *ob;
  uint group, item;       /* as ts_ctx's */
  int chosen;             /* this is the work-item whose accesses are logged */
  uint watch_buf, watch_lo, watch_hi; /* a watched range (TS_H_WATCH_*) */
  __local uchar *lb[TS_MAXG]; /* the __local arrays (ts_lbuf): address, bytes, shadows */
  __local uint *ls[TS_MAXG];
  uint lsz[TS_MAXG];
  /* the group's copies asked for and not waited for (ts_async_*): made at the wait, as an
   * asynchronous copy lands by then */
  __local uchar *pl[TS_PEND];
  __global uchar *pg[TS_PEND];
  size_t pn[TS_PEND], pstride[TS_PEND];
  uint pes[TS_PEND], pdir[TS_PEND], pline[TS_PEND], pev[TS_PEND];
  ulong vlo[8], vhi[8];   /* the program-scope __global variables (ts_gvar) */
  uint spin_try;          /* the values a spin let go was given (ts_spin) */
  uint frow[2], fcount[2], fstate; /* (a GPU) the kinds and lines of two of its findings,
                           * and the findings of each since, not yet counted; fstate: the one
                           * to replace next (bit 0), and which are held (bits 1, 2), the one
                           * word ts_begin sets (ts_finding, ts_fflush) */
#ifndef TS_GROUP_SERIAL
  ts_group g0;            /* buffers and bounds: the work-item's own (TS_GRP) */
#endif
} ts_tab;

#ifndef TS_GROUP_SERIAL
/* (a GPU) An image window for reads, kept in registers: all of one image buffer whose only
 * work is the rectangles, from its first row (b) for len bytes (0: none), rows of p bytes (m
 * the reciprocal, ts_div), and the work-item's reads there so far, rows [r0, r1] and columns
 * [c0, c1] in bytes, folded into its bounds of image img at its end (ts_ifold): a read
 * anywhere in the image costs a multiply, a test and four mins and maxes, never the calls
 * that one in another row than the last had cost (a 3x3 stencil's rows, channel by channel).
 * (The same for writes, with their exchange, was slower on the H200: 2.33 ms against 2.10 for
 * conv2d at 4K RGB, each write's calls being cheaper than the registers it took.) */
typedef struct ts_iwin {
  ulong b, m;
  uint len, p, r0, r1, c0, c1, img;
} ts_iwin;

#endif

typedef struct ts_ctx {
  __global uint *ob;
  uint group, item;       /* linear ids */
  uint gmine, lmine;      /* (barriers passed that fenced global / local memory + 1) << 11 |
                           * (item + 1): a shadow's word for this work-item's accesses */
  /* the counts ts_begin zeroes, side by side (a few wide stores on a CPU device, where each
   * work-item has its copy of the context): */
  uint ng, nl;            /* its global buffers and __local arrays so far */
  uint lk;                /* the __local array of the last __local access */
  uint lqn;               /* (below) */
  uint nuni;              /* the branches before a barrier this work-item decided so far
                           * (on a CPU device, the ifs and dos: loops are counted apart) */
  uint npend;             /* the copies kept in its tables (ts_async_*) */
  uint nevent;            /* the events its copies gave so far (an event is its number) */
  uint nvar;              /* the program-scope __global variables (ts_gvar), not observed */
  uint ncall;             /* its copies and waits so far (the group's must agree) */
  uint spin_n;            /* (below) */
  __local uchar *lscratch;
  /* the array of the last access past ts_l's test (ts_lslow): its address, size (lqn, 0 while
   * ts_log has work) and shadows, for that test's few loads */
  ulong lqb;
  __local uint *lqs;
  int logs;               /* chosen, or a range is watched: ts_log has work (one test, not
                           * four, at every access of the usual run, which logs nothing) */
  uint tile_w;            /* a declared tile's width (0: none) */
#ifdef TS_LFAST
  uint lrs;               /* TS_H_LFAST: the interval whose __local read this work-item marked
                           * (ts_lread; a CPU device marks none: 0); ~0 without it */
#endif
  int hv;                 /* its last loop condition (TS_HEAD on a CPU device) */
  long sv, sres;          /* the switch being decided: its value, and the case taken */
  uint lg[3];             /* the group's ids as the kernel sees them (ts_order) */
  int sdone, sown;        /* (ts_sw_case) a case taken; the value is a label */
#ifdef TS_GROUP_SERIAL
  uint lt[TS_LOOPS + 1];  /* per loop: the times its condition held (TS_LOOPS: the loops past
                           * the counted ones) */
  uint le[TS_LOOPS + 1];  /* and the times it ran */
#endif
#ifdef TS_GROUP_SERIAL
  __local ts_group *g;    /* buffers and bounds: the group's (TS_GRP) */
#endif
  struct ts_tab *t;       /* its tables (ts_tab) */
  int fresh;              /* this work-item sets g up (ts_gbuf) */
#ifdef TS_GROUP_SERIAL
  __local ts_win *w;      /* the windows: the group's (ts_group's win), or where this
                           * work-item's accesses are logged, a pair never opened (quiet) */
#else
  ts_win w0;              /* the windows: the work-item's own */
  ts_iwin rd;             /* an image window for reads (ts_iwin) */
#endif
  /* a spin (ts_spin): the address of the last read, the times it was read in a row with the
   * same value (spin_n, above), and its first word */
  ulong spin_a;
  uint spin_v;
} ts_ctx;


#define TS_W_RECT 1      /* an image buffer: the group's rectangles */
#define TS_W_DECL 2      /* a declared tile and halo to check against */
#define TS_W_SHADOW 4    /* shadows: races and uninitialised reads */
#define TS_W_MASK 8      /* a mask of what earlier passes wrote: uninitialised reads */
#define TS_W_MODE 16     /* read-only or write-only for the launch */

/* n / d for any 32-bit n, by one 64-bit multiply: m is ceil(2^64 / d), which the host
 * computes (0 for d = 1). Exact: with m d = 2^64 + e, 0 <= e < d, n m / 2^64 exceeds n / d by
 * n e / (d 2^64) < 1 / d, too little to reach the next whole quotient. A division per access
 * (the rectangles' columns, the declared tile's pixel) had cost as much as the rest of a read. */
inline uint ts_mulhi(uint n, ulong m)
{
  /* the high word of n m from two 32-bit products: a device's mul_hi of two 64-bit values
   * makes four (pocl's, on x86), n's high half being zero or not */
  return (uint)(((ulong)n * (uint)(m >> 32) + (((ulong)n * (uint)m) >> 32)) >> 32);
}

inline uint ts_div(uint n, __global const uint *m, uint d)
{
  ulong mm = (ulong)m[0] | (ulong)m[1] << 32;
  return d == 1 ? n : ts_mulhi(n, mm);
}

#ifndef TS_GROUP_SERIAL
/* Whether the access of n bytes at a is inside image window w; if so it is in the bounds. */
TS_HOT int ts_ihit(ts_iwin *w, ulong a, uint n)
{
  if (a - w->b >= w->len)
    return 0;
  uint off = (uint)(a - w->b), row = ts_mulhi(off, w->m), col = off - row * w->p;
  if (col + n > w->p) /* (across rows) */
    return 0;
  w->r0 = min(w->r0, row);
  w->r1 = max(w->r1, row);
  w->c0 = min(w->c0, col);
  w->c1 = max(w->c1, col + n - 1);
  return 1;
}
#endif

/* No row window (ts_win's flo, fhi). */
inline void ts_nowin(TS_GS ts_win *w)
{
  w->flo = w->fmin = ~(ulong)0;
  w->fhi = w->fmax = 0;
  w->wimg = 2;
  w->wdirty = 0;
}

/* No windows at all. */
inline void ts_nowins(TS_GS ts_win *w)
{
  w->glo = ~(ulong)0;
  w->ghi = 0;
#ifdef TS_GROUP_SERIAL
  w->lwn = 0;
  w->lwat = 0;
#endif
  ts_nowin(w);
}

/* The reads inside the window, into the bounds of its row (the window stays). Only a window
 * that reads extended is dirty, and only an open one can be (wimg 0 or 1). */
inline void ts_wfold(TS_GS ts_group *g, TS_GS ts_win *w)
{
  if (!w->wdirty)
    return;
  g->rlo[w->wimg][0] = min(g->rlo[w->wimg][0], (uint)(w->fmin - w->wbase));
  g->rhi[w->wimg][0] = max(g->rhi[w->wimg][0], (uint)(w->fmax - w->wbase));
  w->wdirty = 0;
}

/* No row in the bounds (ts_group's rs, re, rlo, rhi): no access matches it. */
inline void ts_norow(TS_GS ts_group *g, uint img, uint k)
{
  g->rs[img][k] = 1;
  g->re[img][k] = 0;
  g->rlo[img][k] = 0xffffffffu;
  g->rhi[img][k] = 0;
}

/* Nothing in the bounds of image img and kind k. A GPU's work-item sets each up at its first
 * use (ts_rect1, ts_ifold: its bit in used), rather than all four at its start: each store
 * went to its tables in local memory. */
inline void ts_gentry(TS_GS ts_group *g, uint img, uint k)
{
  ts_norow(g, img, k);
  g->omin[img][k] = g->cmin[img][k] = 0xffffffffu;
  g->omax[img][k] = g->cmax[img][k] = 0;
}

/* A group's state with no buffer known and nothing in its bounds. */
inline void ts_gnew(TS_GS ts_group *g)
{
  g->used = 0;
#ifdef TS_GROUP_SERIAL
  g->gk[0] = g->gk[1] = 0;
  g->xend = g->yend = 0;
  g->yrow = ~0u;
  g->wlo = g->wflo = ~(ulong)0;
  g->whi = g->wfhi = 0;
  g->nwrite = 0;
  for (uint i = 0; i < 4; i++)
    ts_gentry(g, i >> 1, i & 1);
#endif
}

inline uint ts_lin_group(void)
{
  return (uint)(get_group_id(0) +
                get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2)));
}

inline uint ts_lin_item(void)
{
  return (uint)(get_local_id(0) +
                get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}

/* The group that starts with ticket g of n, as the order asks: the reverse, a shuffle (a
 * bijection of the next power of two, walked until it falls inside), or g itself. */
inline uint ts_order(uint g, uint n, uint how)
{
  uint mode = how & 7, seed = how >> 3;
  if (mode == 1)
    return n - 1 - g;
  if (mode != 2 || n < 2)
    return g;
  uint bits = 32 - clz(n - 1), mask = bits >= 32 ? ~0u : (1u << bits) - 1;
  uint x = g;
  do {
    for (int round = 0; round < 3; round++) {
      x = (x * 0x2c1b3c6du + seed * 0x297a2d39u + (uint)round) & mask; /* odd: a bijection */
      x ^= x >> (bits / 2 + 1);
    }
  } while (x >= n);
  return x;
}

TS_HOT void ts_begin(ts_ctx *c, ts_tab *t, __global uint *ob, __local uint *lscr)
{
  __local uchar *lscratch = (__local uchar *)lscr;
  c->ob = t->ob = ob;
  c->t = t;
  uint ng = (uint)(get_num_groups(0) * get_num_groups(1) * get_num_groups(2));
  /* The group's first work-item takes a ticket, the device's order of starts. In an order of
   * tilescope's, ticket t is the order's t-th group, and it waits until fewer than
   * `resident` groups run: every group that took an earlier ticket is running or done, so
   * the wait ends (bounded all the same: past TS_H_SPIN polls the order is not kept). */
  __local volatile uint *tk = (__local volatile uint *)(lscr + TS_TICKET_AT);
  uint how = ob[TS_H_ORDER];
  if (ts_lin_item() == 0) {
    __global volatile uint *done = (__global volatile uint *)(ob + TS_H_DONE);
    uint t = atomic_inc(ob + TS_H_TICKET), polls = 0;
    uint g = (how & 7) == 0 ? ts_lin_group() : (how & 7) == 3 ? ob[ob[TS_H_OLIST] + t]
                                                               : ts_order(t, ng, how);
    if (how & 7) {
      uint resident = ob[TS_H_RESIDENT], limit = ob[TS_H_SPIN];
      __global volatile uint *abort = (__global volatile uint *)(ob + TS_H_ABORT);
      while (t >= *done + resident && !*abort) {
        if (++polls >= limit) {
          atomic_inc(ob + TS_H_LATE);
          break;
        }
      }
    }
    if (ob[TS_H_REC]) {
      __global uint *r = ob + ob[TS_H_REC] + (size_t)g * TS_REC_W;
      r[TS_R_START] = atomic_inc(ob + TS_H_CLOCK) + 1;
      r[TS_R_TICKET] = t;
      r[TS_R_LAUNCH] = ts_lin_group();
      r[TS_R_SPINS] = polls;
    }
    tk[0] = g;
    tk[1] = g % (uint)get_num_groups(0);
    tk[2] = g / (uint)get_num_groups(0) % (uint)get_num_groups(1);
    tk[3] = g / (uint)(get_num_groups(0) * get_num_groups(1));
#ifndef TS_GROUP_SERIAL
    __local volatile uint *e = lscr + TS_END_AT;
    e[0] = e[1] = 0;
    for (uint i = 0; i < 4; i++) {
      e[2 + i * 4] = e[3 + i * 4] = 0xffffffffu;
      e[4 + i * 4] = e[5 + i * 4] = 0;
    }
    lscr[TS_LRD_AT] = 0;
#endif
  }
#ifndef TS_GROUP_SERIAL
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
#endif
  c->group = tk[0];
  c->lg[0] = tk[1];
  c->lg[1] = tk[2];
  c->lg[2] = tk[3];
  c->item = ts_lin_item();
  t->group = c->group;
  t->item = c->item;
  c->gmine = c->lmine = 1u << 11 | (c->item + 1);
  c->ng = c->nl = c->lk = c->lqn = c->nuni = c->npend = c->nevent = c->nvar = c->ncall = 0;
  c->spin_n = 0;
  c->lscratch = lscratch;
  c->tile_w = ob[TS_H_TILE_W];
  c->spin_a = 0;
  t->spin_try = 0;
#ifndef TS_GROUP_SERIAL
  t->fstate = 0;
#endif
#ifdef TS_LFAST
  c->lrs = ob[TS_H_LFAST] ? 0 : ~0u;
#endif
#ifdef TS_GROUP_SERIAL
  for (int i = 0; ob[TS_H_UNI] && i <= TS_LOOPS; i++) /* read only where they count */
    c->lt[i] = c->le[i] = 0;
#endif
  int chosen = c->group == ob[TS_H_CHOSEN_G] && c->item == ob[TS_H_CHOSEN_I];
  uint watch = ob[TS_H_WATCH_BUF];
  c->logs = chosen || watch != TS_MANY;
  if (c->logs) { /* (ts_logt's words, stored only where it has work) */
    t->chosen = chosen;
    t->watch_buf = watch;
    t->watch_lo = ob[TS_H_WATCH_LO];
    t->watch_hi = ob[TS_H_WATCH_HI];
  }
#ifndef TS_GROUP_SERIAL
  ts_nowins(&c->w0);
  c->rd.len = 0;
#endif
#ifdef TS_GROUP_SERIAL
  /* the group's first work-item to arrive starts its bounds */
  c->g = (__local ts_group *)(lscr + 64);
  c->fresh = c->g->key0 != ob[TS_H_NONCE] || c->g->key1 != c->group;
  if (c->fresh) {
    ts_gnew(c->g);
    ts_nowins(&c->g->win);
    ts_nowins(&c->g->quiet);
    for (int k = 0; k < TS_MAXG; k++)
      c->g->lwint[k] = 0;
    lscr[TS_LRD_AT] = 0;
    c->g->key0 = ob[TS_H_NONCE];
    c->g->key1 = c->group;
    c->g->ended = 0;
  }
  c->w = c->logs ? &c->g->quiet : &c->g->win;
#else
  c->fresh = 1;
  ts_gnew(&t->g0);
#endif
#ifdef TS_GROUP_SERIAL
  for (uint i = 0; c->fresh && i < 128; i++) /* (the group's first work-item, at once) */
    lscratch[i] = 0;
#else
  uint n = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
  for (uint i = c->item; i < 128; i += n)
    lscratch[i] = 0;
#endif
}

/* get_group_id and get_global_id as the order gives them (the kernel's calls, rewritten). */
inline size_t ts_group_id(ts_ctx *c, uint d)
{
  /* (each index by a constant: ts_tab says why) */
  return d == 0 ? c->lg[0] : d == 1 ? c->lg[1] : d == 2 ? c->lg[2] : 0;
}

inline size_t ts_global_id(ts_ctx *c, uint d)
{
  return d < 3 ? ts_group_id(c, d) * get_local_size(d) + get_local_id(d) + get_global_offset(d) : 0;
}

/* [glo, ghi] as the row window too, where none is open: ts_g's first test takes it, two
 * tests a read less (wimg 2: nothing to fold). */
inline void ts_glowin(TS_GS ts_win *w)
{
  if (w->flo > w->fhi) {
    w->fmin = w->glo;
    w->fmax = w->ghi;
    w->wimg = 2;
  }
}

/* Buffer k of the kernel's global pointer arguments, in their order. */
TS_HOT void ts_gbuf(ts_ctx *c, __global uchar *p)
{
  uint k = c->ng++;
  TS_GS ts_group *g = TS_GRP(c);
  if (c->fresh) {
    __global const uint *bi = TS_BI_OF(c->ob, k);
    uint img = bi[TS_B_RECT];
    g->gb[k] = p;
    g->gsz[k] = bi[TS_B_SIZE];
    g->gwork[k] = (img <= 1 ? TS_W_RECT : 0) | (c->tile_w && img != TS_MANY ? TS_W_DECL : 0) |
                  (bi[TS_B_SHADOW] ? TS_W_SHADOW : 0) | (bi[TS_B_MASK] ? TS_W_MASK : 0) |
                  (bi[TS_B_FLAGS] & (TS_F_RO | TS_F_WO) ? TS_W_MODE : 0);
  }
  /* reads of a buffer with no work at all cost two tests from the first (ts_g) */
  if (p && g->gwork[k] == 0 && !c->logs && TS_WIN(c)->glo > TS_WIN(c)->ghi) {
    TS_WIN(c)->glo = (ulong)p;
    TS_WIN(c)->ghi = (ulong)p + g->gsz[k] - 1;
    ts_glowin(TS_WIN(c));
  }
}

/* A program-scope __global variable of n bytes (OpenCL C 2.0): the program's own memory,
 * not the launch's buffers; its accesses are made unobserved. */
inline void ts_gvar(ts_ctx *c, __global uchar *p, ulong n)
{
  c->t->vlo[c->nvar] = (ulong)p;
  c->t->vhi[c->nvar++] = (ulong)p + n;
}

/* A __local array (or pointer argument) of n bytes, with its shadows s, two words a byte
 * side by side (its write, then its readers: ts_lshadow's), 8-byte aligned, so that a read's
 * test loads both at once; zeroed by the group, the array too (so an observed run's output
 * does not depend on what the device left in local memory); the caller then waits at a
 * barrier. */
inline void ts_lbuf(ts_ctx *c, __local uchar *p, uint n, __local uint *s)
{
  uint k = c->nl++;
  c->t->lb[k] = p;
  c->t->lsz[k] = n;
  c->t->ls[k] = s;
  uint m = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
  for (uint i = c->item; i < n; i += m) {
    ((__local uint2 *)s)[i] = (uint2)(0, 0);
    p[i] = 0; /* a read of what nothing wrote gives 0, whatever the device left there */
  }
}

inline uint ts_lparam_size(ts_ctx *c, uint k)
{
  return c->ob[TS_H_LOCAL0 + k];
}

/* Findings are rare: kept out of line, so that the checks around them stay small. */
/* A GPU work-item's findings of row e counted only by it (ts_finding), into the launch's
 * count, and the row forgotten. */
inline void ts_fflush1(ts_tab *t, uint e)
{
#ifndef TS_GROUP_SERIAL
  if ((t->fstate & 2u << e) && t->fcount[e])
    atomic_add(t->ob + t->ob[TS_H_FIND] + t->frow[e], t->fcount[e]);
  t->fstate &= ~(2u << e);
#endif
}

inline void ts_fflush(ts_tab *t)
{
  ts_fflush1(t, 0);
  ts_fflush1(t, 1);
}

__attribute__((noinline)) void ts_finding(ts_tab *t, uint kind, uint line, uint space, uint buf, uint acc,
                       uint off, uint og, uint oi, uint oline)
{
  __global uint *ob = t->ob;
  /* after a barrier divergence what the group does is undefined: the divergence alone is
   * reported (Oclgrind's semantics) */
  if (kind != TS_FIND_DIVERGE && kind != TS_FIND_EVENT &&
      (ob[ob[TS_H_GFIND] + t->group] & (1u << TS_FIND_DIVERGE | 1u << TS_FIND_COPY_DIVERGE)))
    return;
  /* so is everything after a wait that could never end was let go (ts_spin) */
  if (kind != TS_FIND_PROGRESS && ob[TS_H_ABORT])
    return;
  uint nlines = ob[TS_H_NLINES];
  uint ax = line >> 16; /* an access's line word: its line, and its number on the line << 16 */
  line &= 0xffff;
  if (line >= nlines)
    line = nlines - 1;
  uint row = kind * nlines + line;
  __global uint *f = ob + ob[TS_H_FIND];
#ifndef TS_GROUP_SERIAL
  /* a GPU work-item's later findings of a kind and line whose places are all taken: only
   * counted, into the launch's count at its end, or when a third row takes the place of its
   * row (ts_fflush; not at a barrier, where pocl then took a loop's branches for the whole
   * group's), for none can be a place, nor the least one (its own
   * findings come in program order); a flood (every access of a line a race, or a read of
   * what nothing wrote, one or the other as the timing goes) then costs a private count, not
   * atomics on words that every work-item contends for */
  for (uint e = 0; e < 2; e++)
    if ((t->fstate & 2u << e) && row == t->frow[e]) {
      t->fcount[e]++;
      return;
    }
#endif
#ifdef TS_GROUP_SERIAL
  uint n = atomic_inc(f + row);
  atomic_or(ob + ob[TS_H_GFIND] + t->group, 1u << kind);
#else
  /* in a flood every work-item comes here for its first finding of a row: a read first, the
   * atomics only where they change something (the places' count below TS_NPLACES, the
   * group's bit not yet set) */
  __global volatile uint *gbit = (__global volatile uint *)(ob + ob[TS_H_GFIND] + t->group);
  if (!(*gbit & 1u << kind))
    atomic_or(gbit, 1u << kind);
  uint n = ((__global volatile uint *)f)[row];
  uint counted = n >= TS_NPLACES ? 1 : 0; /* this one, counted below with the row's later ones */
  if (!counted)
    n = atomic_inc(f + row);
  if (n >= TS_NPLACES) { /* (counted later: past the places' count) */
    uint e = t->fstate & 1;
    ts_fflush1(t, e);
    t->frow[e] = row;
    t->fcount[e] = counted;
    t->fstate = (t->fstate | 2u << e) ^ 1;
  }
#endif
  uint w0 = space | buf << 8 | (acc & 0xff) << 16 | min(ax, 255u) << 24; /* never 0: acc is */
  if (n < TS_NPLACES) {
    __global uint *p = f + TS_NFIND * nlines + (row * TS_NPLACES + n) * TS_PLACE;
    p[0] = w0;
    p[1] = off;
    p[2] = t->group;
    p[3] = t->item;
    p[4] = og;
    p[5] = oi;
    p[6] = oline;
  }
  /* The least place, which a report names first: the same from run to run whatever order
   * the groups ran in (a work-item's own findings come in program order). A plain read
   * first, the row's lock only for a place less than the least so far: rare, groups mostly
   * start in order. The spin is bounded, so a device whose work-items of a warp cannot wait
   * for each other loses at worst the order, never the kernel. */
  __global uint *least = f + TS_NFIND * nlines * (1 + TS_NPLACES * TS_PLACE);
  __global volatile uint *q = (__global volatile uint *)least + row * (TS_PLACE + 1);
  __global volatile int *lock = (__global volatile int *)(q + TS_PLACE);
  /* A least of a lower group, read at any moment, stays lower: the place changes under the
   * lock only to a lesser one. The test made again at each turn of the wait lets the waiters
   * go as soon as one of them has set it (in a flood every work-item of the first groups on
   * the device comes here at once, and a wait of each for its turn at the lock had cost a
   * GPU hundreds of ms); the item is compared under the lock only (its word and the group's
   * are written one after the other). The lock is tried where it reads free. */
  int held = 0;
  for (int n = 0; n < 100000 && !held; n++) {
    if (q[0] != 0 && q[2] < t->group)
      return;
    held = *lock == 0 && atomic_cmpxchg(lock, 0, 1) == 0;
  }
  if (!held)
    return;
  if (q[0] == 0 || t->group < q[2] || (t->group == q[2] && t->item < q[3])) {
    q[1] = off;
    q[2] = t->group;
    q[3] = t->item;
    q[4] = og;
    q[5] = oi;
    q[6] = oline;
    q[0] = w0;
  }
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  atomic_xchg(lock, 0);
}

/* A logged access (the chosen work-item's, or one of the watched range). */
TS_HOT void ts_logt(ts_tab *t, uint space, uint buf, uint acc, uint off, uint n, uint line)
{
  __global uint *ob = t->ob;
  int watched = space == 0 && buf == t->watch_buf && !(acc & 8) && off < t->watch_hi &&
                off + n > t->watch_lo;
  if (!t->chosen && !watched)
    return;
  uint i = atomic_inc(ob + TS_H_LOGN);
  if (i < ob[TS_H_LOGCAP]) {
    __global uint *r = ob + ob[TS_H_LOG] + i * TS_LOG_REC;
    r[0] = buf | acc << 8 | space << 16;
    r[1] = off;
    r[2] = n;
    r[3] = line & 0xffff;
    r[4] = t->group;
    r[5] = t->item;
  }
}

TS_HOT void ts_log(ts_ctx *c, uint space, uint buf, uint acc, uint off, uint n, uint line)
{
  if (c->logs)
    ts_logt(c->t, space, buf, acc, off, n, line);
}

/* A row's bounds folded into the rows left. */
inline void ts_fold(TS_GS ts_group *g, uint img, uint k)
{
  uint rs = g->rs[img][k], lo = g->rlo[img][k], hi = g->rhi[img][k];
  if (lo <= hi) {
    g->omin[img][k] = min(g->omin[img][k], lo);
    g->cmin[img][k] = min(g->cmin[img][k], lo - rs);
    g->omax[img][k] = max(g->omax[img][k], hi);
    g->cmax[img][k] = max(g->cmax[img][k], hi - rs);
  }
}

/* The bounds on an image buffer, bytes [off, last] past its first row (flushed by ts_end).
 * A row entered takes the columns the rows left already have: the rectangle spans them in
 * every row it spans, so later accesses there (the next channel's, the next row's of a
 * stencil) change nothing. With win (a read), the row becomes the window (at base, the
 * buffer's first row). */
/* The bytes [*lo, *hi] of a row of image buffer bi (from its first row's start) that this
 * group may read (kind 0) or write (1) as its declared tile and halo say (ts_declared): the
 * whole row where they say nothing of it; 0 where none. */
TS_HOT int ts_decl_row(ts_ctx *c, __global const uint *bi, uint row, uint kind, uint *lo,
                       uint *hi)
{
  __global uint *ob = c->ob;
  uint pitch = bi[TS_B_PITCH], px = bi[TS_B_PIXEL];
  *lo = 0;
  *hi = pitch - 1;
  if (c->tile_w == 0 || !(bi[TS_B_FLAGS] & (kind ? TS_F_OUTPUT : TS_F_INPUT)))
    return 1;
  long tw = ob[TS_H_TILE_W], th = ob[TS_H_TILE_H], halo = kind ? 0 : ob[TS_H_HALO];
  long x0 = (long)c->lg[0] * tw - halo, y0 = (long)c->lg[1] * th - halo;
  long x1 = x0 + tw + 2 * halo, y1 = y0 + th + 2 * halo; /* (past the last) */
  if ((long)row < y0 || (long)row >= y1)
    return 0;
  long b0 = max(x0, 0L) * (long)px, b1 = min(x1 * (long)px, (long)pitch) - 1;
  *lo = (uint)b0;
  *hi = (uint)b1;
  return b0 <= b1;
}

TS_HOT void ts_rect1(ts_ctx *c, __global const uint *bi, uint img, uint k, uint off, uint last,
                     int win, ulong base)
{
  TS_GS ts_group *g = TS_GRP(c);
  uint lo, hi;
#ifndef TS_GROUP_SERIAL
  if (!(g->used & (1u << (img * 2 + k))))
    ts_gentry(g, img, k);
#endif
  if (off >= g->rs[img][k] && last < g->re[img][k]) {
    lo = min(g->rlo[img][k], off);
    hi = max(g->rhi[img][k], last);
  } else {
    if (k == 0 && img == TS_GWIN(c)->wimg) /* the window's row is left (ts_gall folded it) */
      ts_nowin(TS_GWIN(c));
#ifdef TS_GROUP_SERIAL
    if (k == 1) /* and a write's (ts_gwin) */
      g->wlo = g->wflo = ~(ulong)0, g->whi = g->wfhi = 0;
#endif
    ts_fold(g, img, k);
    g->used |= 1u << (img * 2 + k);
    uint pitch = bi[TS_B_PITCH];
    uint row = ts_div(off, bi + TS_B_PDIV, pitch), rs = row * pitch;
#ifdef TS_GROUP_SERIAL
    if (win == 1 && pitch > 1) {
      /* the rectangle a read inside needs nothing of (ts_g): the rows entered so far, each of
       * which takes the columns of the rows left, and those columns */
      int same = g->xend && g->xb == base;
      g->xb = base;
      g->ximg = img;
      g->xm = (ulong)bi[TS_B_PDIV] | (ulong)bi[TS_B_PDIV + 1] << 32;
      g->xpitch = pitch;
      g->xr0 = same ? min(g->xr0, row) : row;
      g->xr1 = same ? max(g->xr1, row) : row;
      g->xend = ((ulong)g->xr1 + 1) * pitch;
      g->xc0 = g->cmin[img][0];
      g->xc1 = g->cmax[img][0];
    }
#endif
    if (last - rs >= pitch) { /* across rows: the whole width, into the rows left */
      g->omin[img][k] = min(g->omin[img][k], off);
      g->omax[img][k] = max(g->omax[img][k], last);
      g->cmin[img][k] = 0;
      g->cmax[img][k] = pitch - 1;
      ts_norow(g, img, k);
      if (win)
        ts_nowin(TS_WIN(c));
      return;
    }
    uint c0 = g->cmin[img][k], c1 = g->cmax[img][k];
    g->rs[img][k] = rs;
    g->re[img][k] = rs + pitch;
    lo = c0 <= c1 ? min(off, rs + c0) : off;
    hi = c0 <= c1 ? max(last, rs + c1) : last;
  }
  g->rlo[img][k] = lo;
  g->rhi[img][k] = hi;
  if (win) {
    uint rs = g->rs[img][k], re = g->re[img][k] - 1, dlo = 0, dhi = ~0u;
    /* (2: a declared tile and halo, the window only their part of the row; their finding
     * is made for each read outside, where the rows' bounds pass none) */
    if (win == 2 && !ts_decl_row(c, bi, ts_div(rs, bi + TS_B_PDIV, bi[TS_B_PITCH]), 0, &dlo, &dhi)) {
      ts_nowin(TS_WIN(c));
      return;
    }
    uint flo = rs + dlo, fhi = rs + min(re - rs, dhi);
    TS_WIN(c)->fmin = base + max(lo, flo);
    TS_WIN(c)->fmax = base + min(hi, fhi);
    TS_WIN(c)->flo = base + flo;
    TS_WIN(c)->fhi = base + fhi;
    TS_WIN(c)->wbase = base;
    TS_WIN(c)->wimg = img;
  }
}

TS_HOT void ts_rect(ts_ctx *c, __global const uint *bi, uint acc, uint off, uint n, int win,
                    ulong base)
{
  uint img = bi[TS_B_RECT], start = bi[TS_B_OFFSET];
  if (img > 1 || off < start)
    return;
  off -= start;
  /* an atomic reads and may write (a look-back's atomic loads widen what a group wrote by
   * the edge it read: the rectangles are bounds) */
  if (acc & (TS_K_READ | TS_K_ATOMIC))
    ts_rect1(c, bi, img, 0, off, off + n - 1, win, base + start);
  if ((acc & (TS_K_WRITE | TS_K_ATOMIC)) && !(acc & (TS_K_PROBE | TS_K_FAILED)))
    ts_rect1(c, bi, img, 1, off, off + n - 1, 0, 0);
}

#ifdef TS_GROUP_SERIAL
#define TS_RUN_MAX 0x1ffffeu
/* The greatest n into u[0], as the greatest of n << 11 | (2047 - item), and the least into
 * u[1], as the greatest of (TS_RUN_MAX + 1 - n) << 11 | (2047 - item): each with the least
 * item that has it; zero is none. */
inline void ts_most_least(uint item, __global uint *u, uint n)
{
  n = min(n, TS_RUN_MAX);
  atomic_max((__global volatile uint *)u, n << 11 | (2047 - item));
  atomic_max((__global volatile uint *)(u + 1), (TS_RUN_MAX + 1 - n) << 11 | (2047 - item));
}

#endif

/* At the kernel's end (every return of it): the bounds into the group's rectangles per image
 * and kind: least column (in bytes), least row, greatest column, greatest row. On a CPU
 * device the group's last work-item does it, once for the group. */
inline void ts_finish(ts_tab *t, TS_GS ts_group *g, uint ng, __local uint *lscr);

#ifndef TS_GROUP_SERIAL
/* Image window w opened on image buffer bi (at b, of n bytes), empty (the access that opens it
 * is in the bounds already), where its rows can be told apart. */
TS_HOT void ts_iopen(ts_iwin *w, __global const uint *bi, ulong b, ulong n)
{
  uint start = bi[TS_B_OFFSET];
  if (bi[TS_B_PITCH] <= 1 || start >= n)
    return;
  w->b = b + start;
  w->len = (uint)(n - start);
  w->p = bi[TS_B_PITCH];
  w->m = (ulong)bi[TS_B_PDIV] | (ulong)bi[TS_B_PDIV + 1] << 32;
  w->img = bi[TS_B_RECT];
  w->r0 = w->c0 = ~0u;
  w->r1 = w->c1 = 0;
}

/* Image window w's reads into the bounds, rows as their offsets. */
TS_HOT void ts_ifold(ts_group *g, ts_iwin *w)
{
  if (!w->len || w->r0 > w->r1)
    return;
  uint img = w->img;
  if (!(g->used & (1u << (img * 2))))
    ts_gentry(g, img, 0);
  g->omin[img][0] = min(g->omin[img][0], w->r0 * w->p);
  g->omax[img][0] = max(g->omax[img][0], w->r1 * w->p);
  g->cmin[img][0] = min(g->cmin[img][0], w->c0);
  g->cmax[img][0] = max(g->cmax[img][0], w->c1);
  g->used |= 1u << (img * 2);
}
#endif

/* Bounds p[0], p[1] (least) and p[2], p[3] (greatest), in global or __local memory, widened
 * to lo0, lo1, hi0, hi1. They only ever widen, so a bound these cannot widen (read plainly: a
 * stale value is only wider-than-needed work) needs no atomic: each was a locked
 * read-modify-write, and on a GPU a group's work-items queued on one word. */
#define TS_WIDEN(p, lo0, lo1, hi0, hi1)                                                      \
  do {                                                                                        \
    if ((lo0) < (p)[0])                                                                       \
      atomic_min((p), (lo0));                                                                 \
    if ((lo1) < (p)[1])                                                                       \
      atomic_min((p) + 1, (lo1));                                                             \
    if ((hi0) > (p)[2])                                                                       \
      atomic_max((p) + 2, (hi0));                                                             \
    if ((hi1) > (p)[3])                                                                       \
      atomic_max((p) + 3, (hi1));                                                             \
  } while (0)

/* A group's bounds of image buffer bi (which: image * 2 + kind; offsets omin, omax past its
 * first row, columns cmin, cmax in bytes) into the launch's rectangles: columns in bytes (the
 * host makes them pixels: rect_of in ts_plain_obs.c), rows as rows (as offsets, every
 * work-item along a row would widen the greatest). */
inline void ts_rect_out(__global uint *ob, uint group, __global const uint *bi, uint which,
                        uint omin, uint cmin, uint omax, uint cmax)
{
  if (omin > omax)
    return;
  __global uint *r = ob + ob[TS_H_RECT] + ((size_t)group * 4 + which) * 4;
  uint pitch = bi[TS_B_PITCH];
  omin = ts_div(omin, bi + TS_B_PDIV, pitch);
  omax = ts_div(omax, bi + TS_B_PDIV, pitch);
  TS_WIDEN(r, cmin, omin, cmax, omax);
}

TS_HOT void ts_end(ts_ctx *c)
{
  if (c->npend) /* a copy nothing waited for: its line */
    ts_finding(c->t, TS_FIND_EVENT, c->t->pline[0], 0, 0, 2, c->t->pev[0], 0, 0, 0);
#ifndef TS_GROUP_SERIAL
  ts_wfold(TS_GRP(c), &c->w0); /* (the window's reads into its row's bounds) */
  ts_ifold(TS_GRP(c), &c->rd);
#else
  __global uint *ob = c->ob;
  c->nuni = 0;
  /* each loop's counts into the group's words (ts_loop_end) */
  for (uint k = 0, uni = ob[TS_H_UNI]; uni && k < TS_LOOPS; k++) {
    __global uint *u = ob + TS_LOOP_AT(uni, c->group, k);
    if (c->le[k]) {
      ts_most_least(c->item, u + 2, c->lt[k]);
      atomic_max((__global volatile uint *)(u + 4), c->le[k]);
    }
  }
#endif
  ts_finish(c->t, TS_GRP(c), c->ng, (__local uint *)c->lscratch);
}

/* The rest of the end, from the tables alone (ts_tab says why). */
inline void ts_finish(ts_tab *t, TS_GS ts_group *g, uint ng, __local uint *lscr)
{
  __global uint *ob = t->ob;
#ifdef TS_GROUP_SERIAL
  if (++g->ended < get_local_size(0) * get_local_size(1) * get_local_size(2))
    return;
  ts_wfold(g, &g->win); /* the group's window's reads into its row's bounds */
  g->key0 = ~ob[TS_H_NONCE]; /* spent */
  if (g->nwrite) { /* (ts_gfast) */
    uint was = atomic_add(ob + TS_H_NWRITE, g->nwrite);
    if (was + g->nwrite < was)
      atomic_inc(ob + TS_H_NWRITE + 1);
  }
  /* the group's last work-item: each loop whose work-items' conditions held a different
   * number of times, naming the one whose held least, false where another's held; the round
   * counts the loop's runs together where it ran more than once */
  for (uint k = 0, uni = ob[TS_H_UNI]; uni && k < TS_LOOPS; k++) {
    __global uint *u = ob + TS_LOOP_AT(uni, t->group, k);
    uint item = t->item, most = u[2], least = u[3];
    uint fewest = TS_RUN_MAX + 1 - (least >> 11);
    if (u[0] && most && fewest != most >> 11) {
      /* off: the decision (false), the round it was made in, and whether that counts runs */
      t->item = 2047 - (least & 2047);
      ts_finding(t, TS_FIND_DIVERGE, u[0] - 1, 0, 0, 16,
                 min(fewest + 1, 0x1fffffffu) << 1 | (uint)(u[4] > 1) << 31, t->group,
                 2047 - (most & 2047), u[1] - 1);
    }
    t->item = item;
  }
#endif
  /* each image's bounds folded; on a GPU into the group's, in __local memory (TS_END_AT),
   * which its last work-item adds to the launch's once, rather than each work-item (a
   * division and four loads each, and an atomic where it widened them) */
#ifndef TS_GROUP_SERIAL
  __local volatile uint *e = lscr + TS_END_AT;
#endif
  for (uint k = 0; k < ng && g->used; k++) {
    __global const uint *bi = TS_BI_OF(ob, k);
    uint img = bi[TS_B_RECT];
    if (img > 1)
      continue;
    for (int kind = 0; kind < 2; kind++) {
      if (!(g->used & (1u << (img * 2 + kind))))
        continue;
      g->used &= ~(1u << (img * 2 + kind));
      ts_fold(g, img, kind);
      uint omin = g->omin[img][kind], cmin = g->cmin[img][kind];
      uint omax = g->omax[img][kind], cmax = g->cmax[img][kind];
      if (omin > omax)
        continue;
#ifdef TS_GROUP_SERIAL
      ts_rect_out(ob, t->group, bi, img * 2 + kind, omin, cmin, omax, cmax);
#else
      __local volatile uint *b = e + 2 + (img * 2 + kind) * 4;
      TS_WIDEN(b, omin, cmin, omax, cmax);
      if (!(e[1] & (1u << (img * 2 + kind))))
        atomic_or(e + 1, 1u << (img * 2 + kind));
#endif
    }
  }
  ts_fflush(t);
  /* the group's end, once its last work-item ends: on the clock, and counted (a group
   * waiting for its turn, ts_begin, sees its writes made) */
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  __global uint *r = ob + ob[TS_H_REC] + (size_t)t->group * TS_REC_W;
#ifndef TS_GROUP_SERIAL
  mem_fence(CLK_LOCAL_MEM_FENCE);
  if (atomic_inc(e) + 1 < get_local_size(0) * get_local_size(1) * get_local_size(2))
    return;
  mem_fence(CLK_LOCAL_MEM_FENCE);
  for (uint k = 0; k < ng && e[1]; k++) {
    __global const uint *bi = TS_BI_OF(ob, k);
    uint img = bi[TS_B_RECT];
    for (uint kind = 0; img <= 1 && kind < 2; kind++) {
      uint which = img * 2 + kind;
      __local volatile uint *b = e + 2 + which * 4;
      if (e[1] & (1u << which))
        ts_rect_out(ob, t->group, bi, which, b[0], b[1], b[2], b[3]);
      e[1] &= ~(1u << which);
    }
  }
#endif
  r[TS_R_END] = atomic_inc(ob + TS_H_CLOCK) + 1;
  atomic_inc(ob + TS_H_DONE);
}

/* A declared tile and halo: a read of the input outside this group's tile and halo, a
 * write of the output outside its tile (ts_decl_row's bytes of the access's row). */
TS_HOT void ts_declared(ts_ctx *c, __global const uint *bi, uint k, uint acc, uint off, uint line)
{
  uint pitch = bi[TS_B_PITCH], start = bi[TS_B_OFFSET];
  if (c->tile_w == 0 || bi[TS_B_RECT] == TS_MANY || off < start)
    return;
  uint rel = off - start, row = ts_div(rel, bi + TS_B_PDIV, pitch), col = rel - row * pitch;
  for (uint kind = 0, lo, hi; kind < 2; kind++)
    if ((acc & (kind ? TS_K_WRITE : TS_K_READ)) &&
        !(ts_decl_row(c, bi, row, kind, &lo, &hi) && col >= lo && col <= hi))
      ts_finding(c->t, kind ? TS_FIND_TILE : TS_FIND_FOOTPRINT, line, 0, k, acc, off, 0, 0, 0);
}

/* A write that meets another's (a write-write race, kind at line): the lane's bytes as the
 * last writer left them, for the host to hold against the lane's final value. When every
 * such write of a finding's row found the value it then wrote, every writer wrote the same
 * value: a benign race. */
__attribute__((noinline)) void ts_ww(ts_tab *t, TS_GS ts_group *g, uint kind, uint line, uint k,
                                     uint off)
{
  __global uint *ob = t->ob;
  uint at = ob[TS_H_WW], nlines = ob[TS_H_NLINES];
  if (at == 0 || !g->gb[k]) /* an image's pixel has no address to read its value at */
    return;
  uint i = atomic_inc(ob + at);
  if (i >= TS_WW_CAP)
    return;
  __global uint *e = ob + at + 1 + i * TS_WW_REC;
  __global volatile const uchar *p = (__global volatile const uchar *)(g->gb[k] + off);
  uint n = 1u << TS_BI_OF(ob, k)[TS_B_LANE], lo = 0, hi = 0;
  for (uint b = 0; b < n && b < 8; b++) {
    uint v = (uint)p[b];
    if (b < 4)
      lo |= v << (8 * b);
    else
      hi |= v << (8 * (b - 4));
  }
  e[0] = kind * nlines + min(line & 0xffff, nlines - 1);
  e[1] = k;
  e[2] = off;
  e[3] = lo;
  e[4] = hi;
}

/* The other side of a race, beside its line in a finding's last word: what it did. */
#define TS_O_READ (1u << 16)
#define TS_O_WRITE (2u << 16)
#define TS_O_ATOMIC (4u << 16)
#define TS_O_BY(word) ((word) & TS_ATOM ? TS_O_ATOMIC : TS_O_WRITE) /* a writer's record */

/* A shadow word's mark of an atomic access: (interval + 1) << 11 | (item + 1) keeps bit 31
 * free for the first 2^19 barriers. */
#define TS_ATOM 0x80000000u
/* A global lane's work-item word naming its readers, not its writer (ts_gshadow). */
#define TS_RDR 0x40000000u

/* Whether shadow word o names another work-item in the interval of mine. */
inline int ts_same_interval(uint o, uint mine)
{
  return (o & ~(TS_ATOM | TS_RDR)) >> 11 == mine >> 11 && (o & 2047) != (mine & 2047);
}

/* The other work-item a shadow word names: 2047 is several (~0). */
inline uint ts_other_item(uint o)
{
  return (o & 2047) == 2047 ? ~0u : (o & 2047) - 1;
}

/* Lane i's fast shadow (TS_F_FAST) in the shadows at sh: a word a lane, where the full
 * shadows have four, naming the writing group. A lane written once, and by nothing else, is
 * all a race-free kernel's output needs. A read, an atomic or a second write could be a race
 * or an uninitialised read, which only the full shadows tell: the launch is made again with
 * them (TS_H_REDO). A GPU tells a second write by an exchange. On a CPU device, where a
 * locked exchange cost more than the rest of a separable pass's write, a write marks a byte a
 * lane and counts (TS_H_NWRITE): the count passes the lanes marked exactly when a lane was
 * written twice, whichever threads wrote it and whenever. */
inline void ts_gfast(ts_ctx *c, __global uint *sh, uint i, uint acc)
{
#ifdef TS_GROUP_SERIAL
  if (acc == TS_K_WRITE) {
    ((__global uchar *)sh)[i] = 1;
    c->g->nwrite++;
    return;
  }
  if (!c->ob[TS_H_REDO])
#else
  if ((acc != TS_K_WRITE || atomic_xchg(sh + i, c->group + 1) != TS_NOBODY) && !c->ob[TS_H_REDO])
#endif
    c->ob[TS_H_REDO] = 1;
}

/* One lane of a global buffer's shadows, four words (16 bytes: a lane never straddles a cache
 * line, and a lane's first access is the miss that costs an observed write most): the writing
 * group, the writing work-item with its global barrier interval, the reading group(s), and the
 * lines of the last write and read as two 16-bit halves (separate locations: a write's and a
 * read's never tear each other): races and uninitialised reads. Once the last plain write is
 * of an earlier interval (or there was none), the work-item word names the interval's readers
 * instead (TS_RDR: one work-item, or several), so that a read then another work-item's write
 * with no global fence between is a race too; the writing group and its line stay. An atomic
 * record of the interval that its own work-item then reads plainly is marked so too
 * (TS_ATOM | TS_RDR), for another work-item's atomic of the interval to race with that read. */
TS_HOT void ts_gshadow(ts_ctx *c, __global uint *sh, uint flags, uint k, uint acc, uint off,
                       uint line, __global const uchar *m)
{
  if (acc & TS_K_PROBE)
    return;
  uint me = c->group + 1;
  uint mine = c->gmine;
  __global uint *w = sh, *wi = sh + 1, *rd = sh + 2;
  __global ushort *wl = (__global ushort *)(sh + 3), *rl = wl + 1;
  /* the writing group's word: its id + 1, TS_ATOM set when its record is an atomic (in the
   * same word, so that another group never reads a group without its kind: a GPU's groups
   * interleave between two words), TS_MANY several groups */
  uint o = *w;
  uint og = o == TS_MANY ? TS_MANY : o & ~TS_ATOM;
  int oatom = o != TS_MANY && (o & TS_ATOM);
  if (acc & TS_K_ATOMIC) {
    /* An atomic races with a plain access of another work-item that nothing orders, whichever
     * came first; never with another atomic. A plain write stays the lane's record (another
     * group's atomics race with it whenever they come); else the atomic becomes it, marked,
     * naming several work-items (2047) or groups (TS_MANY) once several made one. */
    uint oi = *wi, ol = *wl;
    if (o == TS_NOBODY && (flags & TS_F_NOINIT)) /* it reads what nothing wrote */
      ts_finding(c->t, TS_FIND_UNINIT, line, 0, k, acc, off, 0, 0, 0);
    int plain = o != TS_NOBODY && o != TS_MANY && !oatom;
    if (plain && og != me)
      ts_finding(c->t, TS_FIND_RACE_GROUPS, line, 0, k, acc, off, og - 1, 0, ol | TS_O_WRITE);
    else if ((oi & TS_RDR) ? !(acc & TS_K_FAILED) && *rd == me && ts_same_interval(oi, mine)
                           : plain && ts_same_interval(oi, mine))
      ts_finding(c->t, TS_FIND_RACE_GLOBAL, line, 0, k, acc, off, c->group, ts_other_item(oi),
                 oi & TS_RDR ? *rl | TS_O_READ : ol | TS_O_WRITE);
    if (acc & TS_K_FAILED) /* a read: against the writes only, and no record */
      return;
    uint r = *rd;
    if (r != TS_NOBODY && r != me)
      ts_finding(c->t, TS_FIND_RACE_GROUPS, line, 0, k, acc, off, r == TS_MANY ? ~0u : r - 1, 0,
                 *rl | TS_O_READ);
    if (!plain) {
      int several = og == me && ts_same_interval(oi, mine);
      atomic_xchg(w, o == TS_NOBODY || og == me ? me | TS_ATOM : TS_MANY);
      *wi = (several ? mine | 2047 : mine) | TS_ATOM;
      *wl = (ushort)(line & 0xffff);
    }
    return;
  }
  uint rmark = 0; /* a read of the update below, against earlier readers: not its own */
  if (acc & TS_K_READ) {
    uint oi = *wi;
    if (o == TS_NOBODY) {
      if (acc == TS_K_READ && ((flags & TS_F_UNSET) || (m && !*m)))
        ts_finding(c->t, TS_FIND_UNINIT, line, 0, k, acc, off, 0, 0, 0);
    } else if (og != me) {
      ts_finding(c->t, TS_FIND_RACE_GROUPS, line, 0, k, acc, off, og == TS_MANY ? ~0u : og - 1, 0,
                 *wl | (oatom ? TS_O_ATOMIC : TS_O_BY(oi)));
    } else if ((!(oi & TS_RDR) || (oi & TS_ATOM)) && ts_same_interval(oi, mine)) {
      ts_finding(c->t, TS_FIND_RACE_GLOBAL, line, 0, k, acc, off, c->group, ts_other_item(oi),
                 *wl | TS_O_BY(oi));
    }
    uint r = *rd;
    if (r == TS_NOBODY)
      r = atomic_cmpxchg(rd, TS_NOBODY, me);
    if (r != TS_NOBODY && r != me && r != TS_MANY)
      *rd = TS_MANY;
    /* this group's readers of the interval, while no other group read it (unless a write or
     * an atomic of it is the record) */
    rmark = oi;
    int kept = 0; /* the interval's readers already named: the line stays their first read's */
    if ((o == TS_NOBODY || og == me) && (r == TS_NOBODY || r == me) && !(oi & TS_ATOM)) {
      /* exchanged, not stored: a GPU's work-items of one group read at once, and a store
       * would keep one of them where several read */
      uint cur = oi;
      for (int tries = 0; tries < 4 && !(cur & TS_ATOM); tries++) {
        uint same = (cur & ~TS_RDR) >> 11 == mine >> 11;
        uint want = !same                             ? mine | TS_RDR
                    : !(cur & TS_RDR)                 ? cur
                    : (cur & 2047) == (mine & 2047)   ? cur
                                                      : mine | 2047 | TS_RDR;
        kept = want == cur && (cur & TS_RDR);
        if (want == cur)
          break;
        uint seen = atomic_cmpxchg(wi, cur, want);
        if (seen == cur)
          break;
        cur = seen;
      }
    } else if ((oi & TS_ATOM) && og == me && oi >> 11 == (mine | TS_ATOM) >> 11 &&
               (oi & 2047) == (mine & 2047)) {
      *wi = oi | TS_RDR; /* its own atomic of the interval, then its plain read: both its */
    }
    if (!kept)
      *rl = (ushort)(line & 0xffff);
  }
  if (acc & TS_K_WRITE) {
    o = atomic_xchg(w, me);
    og = o == TS_MANY ? TS_MANY : o & ~TS_ATOM;
    oatom = o != TS_MANY && (o & TS_ATOM);
    /* the work-item and line of the last write need no atomics: a group's work-items that
     * race on one element are a race whichever of them the word keeps */
    uint oi = (acc & TS_K_READ) ? rmark : *wi, ol = *wl, orl = *rl;
    *wi = mine;
    *wl = (ushort)(line & 0xffff);
    /* a plain write after another's: a race, benign if every writer wrote the same (ts_ww);
     * after another's atomic, or an update's, no value tells that */
    int ww = acc == TS_K_WRITE && !oatom && !(oi & (TS_ATOM | TS_RDR));
    if (o != TS_NOBODY && og != me) {
      ts_finding(c->t, TS_FIND_RACE_GROUPS, line, 0, k, acc, off, og == TS_MANY ? ~0u : og - 1, 0,
                 ol | (oatom ? TS_O_ATOMIC : TS_O_BY(oi)));
      if (ww)
        ts_ww(c->t, TS_GRP(c), TS_FIND_RACE_GROUPS, line, k, off);
    } else if ((oi & TS_RDR) && ts_same_interval(oi, mine) && *rd == me) {
      /* other work-items of the group read it in this interval: a read then a write */
      ts_finding(c->t, TS_FIND_RACE_GLOBAL, line, 0, k, acc, off, c->group, ts_other_item(oi),
                 orl | TS_O_READ);
    } else if (og == me && ts_same_interval(oi, mine)) {
      ts_finding(c->t, TS_FIND_RACE_GLOBAL, line, 0, k, acc, off, c->group, ts_other_item(oi), ol | TS_O_BY(oi));
      if (ww)
        ts_ww(c->t, TS_GRP(c), TS_FIND_RACE_GLOBAL, line, k, off);
    }
    uint r = *rd;
    if (r != TS_NOBODY && r != me)
      ts_finding(c->t, TS_FIND_RACE_GROUPS, line, 0, k, acc, off, r == TS_MANY ? ~0u : r - 1, 0,
                 *rl | TS_O_READ);
  }
}

/* An access of n bytes at address a outside every buffer (space 0) or __local array (1):
 * found, and named by the nearest one at its (signed) offset. */
__attribute__((noinline)) void ts_outside(ts_tab *t, TS_GS ts_group *g, uint count, int logs,
                                          uint space, ulong a, uint n, uint acc, uint line)
{
  uint best = 0;
  ulong bd = ~(ulong)0;
  long boff = 0;
  for (uint k = 0; k < count; k++) {
    ulong b = space ? (ulong)t->lb[k] : (ulong)g->gb[k];
    ulong e = b + (space ? (ulong)t->lsz[k] : g->gsz[k]);
    ulong d = a < b ? b - a : a + n - e;
    if (d < bd) {
      bd = d;
      best = k;
      boff = (long)(a - b);
    }
  }
  uint off = (uint)(int)clamp(boff, (long)INT_MIN, (long)INT_MAX);
  ts_finding(t, TS_FIND_OOB, line, space, best, acc | 8, off, 0, 0, 0);
  /* what it reads is no value anything wrote (observed, 0): an uninitialised value too */
  if (acc & (TS_K_READ | TS_K_ATOMIC))
    ts_finding(t, TS_FIND_UNINIT, line, space, best, acc | 8, off, 0, 0, 0);
  if (logs)
    ts_logt(t, space, best, acc | 8, off, n, line);
}

TS_HOT __global uchar *ts_gat(ts_ctx *c, uint k, ulong b, uint off, uint n, uint acc, uint line,
                              __global uchar *p);

/* Reads of one address in a row, with one value, that make a spin (ts_spin). */
#define TS_SPIN_N (1u << 20)
#define TS_SPIN_NEW ~0u /* (spin_n: the address's value not read yet) */

/* A work-item that read the n bytes at p TS_SPIN_N times in a row, finding one value: it
 * waits for another to change them. In an order of tilescope's with one group at a time,
 * nothing else runs: no group that has not started can, before this one ends, so the wait
 * never ends (OpenCL promises no forward progress between work-groups). The finding is
 * made, and the launch let go: waits for a turn end, and a spinning read is given other
 * values (the word + 1, 1, all ones, 2...) until its loop leaves. The pointer to use. */
__attribute__((noinline)) __global uchar *ts_spin(ts_tab *t, uint value, __global uchar *p,
                                                  uint n, uint k, uint off, uint acc, uint line)
{
  __global uint *ob = t->ob;
  __global volatile uint *abort = (__global volatile uint *)(ob + TS_H_ABORT);
  if (!*abort) {
    if ((ob[TS_H_ORDER] & 7) == 0 || ob[TS_H_RESIDENT] != 1)
      return p; /* the device's order, or several groups at once: others may change them */
    if (atomic_cmpxchg((__global uint *)abort, 0, 1) == 0)
      ts_finding(t, TS_FIND_PROGRESS, line, 0, k, acc, off, 0, 0, 0);
  }
  /* let go: another value each time, in a word of the scratch */
  uint x = value, turn = t->spin_try++ % 4;
  uint v = turn == 0 ? x + 1 : turn == 1 ? 1u : turn == 2 ? ~0u : 2u;
  __global uchar *s = (__global uchar *)(ob + ob[TS_H_SCRATCH] + 32);
  for (uint i = 0; i < n && i < 64; i++)
    s[i] = i < 4 ? (uchar)(v >> (8 * i)) : (uchar)(v >> 31 ? 0xff : 0);
  return s;
}

TS_SLOW __global uchar *ts_gslow(ts_ctx *c, __global uchar *p, uint n, uint acc, uint line);
TS_HOT __global uchar *ts_gall(ts_ctx *c, __global uchar *p, uint n, uint acc, uint line);
#ifdef TS_GROUP_SERIAL
inline __global uchar *ts_gwin(ts_ctx *c, __global uchar *p, uint n);
inline __global uchar *ts_gmark(ts_ctx *c, __global uchar *p, uint n, ulong b,
                                __global uint *ws, uint sh);
#endif

/* An access of n bytes at p of __global memory: the pointer to use. A read holds only the
 * windows' tests and calls the rest, one function (a copy of it at each access made pocl's
 * first build of a kernel take tens of seconds); a write, rarer in a kernel's text and each
 * one costing its shadows anyway, holds the whole (ts_gall): called, the row scan's one
 * write a pixel ran 1.5x slower. */
#ifdef TS_GROUP_SERIAL
/* A read inside the group's rectangle so far (ts_g), with no window open: where it is in the
 * row the group's bounds keep (a new work-item's reads of the row its neighbours read), the
 * window opens on that row, so that the work-item's next reads there cost two tests. */
inline void ts_xwin(ts_ctx *c, __local ts_group *g, uint off)
{
  uint img = g->ximg;
  if (off < g->rs[img][0] || off >= g->re[img][0] || g->rlo[img][0] > g->rhi[img][0])
    return;
  TS_WIN(c)->fmin = g->xb + g->rlo[img][0];
  TS_WIN(c)->fmax = g->xb + g->rhi[img][0];
  TS_WIN(c)->flo = g->xb + g->rs[img][0];
  TS_WIN(c)->fhi = g->xb + g->re[img][0] - 1;
  TS_WIN(c)->wbase = g->xb;
  TS_WIN(c)->wimg = img;
}
#endif

inline __attribute__((always_inline)) __global uchar *ts_g(ts_ctx *c, __global uchar *p,
                                                           uint n, uint acc, uint line)
{
  ulong a = (ulong)p;
  if (acc == TS_K_READ && a >= TS_WIN(c)->fmin && a + n - 1 <= TS_WIN(c)->fmax)
    return p;
  if (acc == TS_K_READ && a >= TS_WIN(c)->glo && a + n - 1 <= TS_WIN(c)->ghi)
    return p;
  if (acc == TS_K_READ && a >= TS_WIN(c)->flo && a + n - 1 <= TS_WIN(c)->fhi) {
    TS_WIN(c)->fmin = min(TS_WIN(c)->fmin, a);
    TS_WIN(c)->fmax = max(TS_WIN(c)->fmax, a + n - 1);
    TS_WIN(c)->wdirty = 1;
    return p;
  }
#ifndef TS_GROUP_SERIAL
  if (acc == TS_K_READ && ts_ihit(&c->rd, a, n))
    return p;
#endif
#ifdef TS_GROUP_SERIAL
  if (acc == TS_K_READ && !c->logs) { /* inside the group's rectangle so far: a division */
    __local ts_group *g = c->g;
    ulong off = a - g->xb;
    if (off < g->xend) {
      uint row = ts_mulhi((uint)off, g->xm), col = (uint)off - row * g->xpitch;
      if (row >= g->xr0 && col >= g->xc0 && col + n - 1 <= g->xc1) {
        if (TS_WIN(c)->wimg == 2)
          ts_xwin(c, g, (uint)off);
        return p;
      }
    }
  }
  /* a plain write of a lane, or of n lanes whole (aligned to n, a power of two), the windows'
   * kind (where ts_log has no work: tested last, after the window's bounds) */
  int wlanes = acc == TS_K_WRITE && !(a & (n - 1)) && !(n & (n - 1)) && n <= 16;
  if (wlanes && a >= c->g->wlo && a + n - 1 <= c->g->whi && !c->logs)
    return ts_gwin(c, p, n);
  /* elsewhere in the row: its bounds widened */
  if (wlanes && a >= c->g->wflo && a + n - 1 <= c->g->wfhi && !c->logs) {
    __local ts_group *g = c->g;
    uint img = g->wimg;
    g->rlo[img][1] = min(g->rlo[img][1], (uint)(a - g->wib));
    g->rhi[img][1] = max(g->rhi[img][1], (uint)(a + n - 1 - g->wib));
    g->wlo = min(g->wlo, a);
    g->whi = max(g->whi, a + n - 1);
    return ts_gwin(c, p, n);
  }
  /* inside the group's write rectangle so far: a division */
  if (wlanes && a - c->g->yb < c->g->yend && !c->logs) {
    __local ts_group *g = c->g;
    uint off = (uint)(a - g->yb), row = ts_mulhi(off, g->ym), col = off - row * g->ypitch;
    if (row >= g->yr0 && row <= g->yr1 && col >= g->yc0 && col + n - 1 <= g->yc1) {
      /* at the second such write in a row (a column's walk has none), the row's part
       * inside the rectangle becomes the write window, for the writes after it there
       * (ts_gwin: fewer tests than these) */
      if (row != g->yrow) {
        g->yrow = row;
        return ts_gmark(c, p, n, g->ywb, g->yws, g->ywsh);
      }
      ulong at = g->yb + (ulong)row * g->ypitch;
      g->wlo = at + g->yc0;
      g->whi = at + g->yc1;
      g->wflo = ~(ulong)0;
      g->wfhi = 0;
      g->wb = g->ywb;
      g->ws = g->yws;
      g->wsh = g->ywsh;
      return ts_gwin(c, p, n);
    }
  }
#endif
  if (acc & TS_K_WRITE)
    return ts_gall(c, p, n, acc, line);
  return ts_gslow(c, p, n, acc, line);
}

#ifdef TS_GROUP_SERIAL
/* A plain write in the group's write window (ts_group's wlo, whi): all ts_gat would do, each
 * lane's fast shadow marked and counted (as ts_gfast does on a CPU device), without looking
 * the buffer up; the window is what the row's bounds already cover, so they stay. */
inline __global uchar *ts_gmark(ts_ctx *c, __global uchar *p, uint n, ulong b,
                                __global uint *ws, uint sh)
{
  /* (aligned to n, a power of two: a lane, or n's lanes whole) */
  uint first = (uint)((ulong)p - b) >> sh, lanes = ((n - 1) >> sh) + 1;
  for (uint i = 0; i < lanes; i++)
    ts_gfast(c, ws, first + i, TS_K_WRITE);
  c->spin_a = 0;
  return p;
}

inline __global uchar *ts_gwin(ts_ctx *c, __global uchar *p, uint n)
{
  return ts_gmark(c, p, n, c->g->wb, c->g->ws, c->g->wsh);
}
#endif

/* The rest of a read's checks, called; the same as a write's. */
TS_SLOW __global uchar *ts_gslow(ts_ctx *c, __global uchar *p, uint n, uint acc, uint line)
{
  return ts_gall(c, p, n, acc, line);
}

/* Every check of an access past the windows: the buffer found, alignment, a spin, ts_gat. */
TS_HOT __global uchar *ts_gall(ts_ctx *c, __global uchar *p, uint n, uint acc, uint line)
{
  __global uint *ob = c->ob;
  uint vec = acc & TS_K_VECTOR;
  acc &= ~TS_K_VECTOR;
  ulong a = (ulong)p;
  TS_GS ts_group *g = TS_GRP(c);
  ts_wfold(g, TS_GWIN(c));
#ifdef TS_GROUP_SERIAL
  /* the buffer of the last such read or write first: usually this one's too */
  uint k = g->gk[(acc & TS_K_WRITE) != 0];
#else
  uint k = 0;     /* a GPU keeps the buffers' words in registers when indexed from 0 */
#endif
  ulong b = k < c->ng ? (ulong)g->gb[k] : 0; /* (as ts_lslow's) */
  if (k >= c->ng || a < b || a + n > b + g->gsz[k]) {
    for (k = 0; k < c->ng; k++) {
      b = (ulong)g->gb[k];
      if (a >= b && a + n <= b + g->gsz[k])
        break;
    }
    if (k == c->ng) {
      for (uint v = 0; v < c->nvar; v++)
        if (a >= c->t->vlo[v] && a + n <= c->t->vhi[v])
          return p;
      ts_outside(c->t, TS_GRP(c), c->ng, c->logs, 0, a, n, acc, line);
      return (__global uchar *)(ob + ob[(acc & TS_K_WRITE) ? TS_H_SINK : TS_H_SCRATCH]);
    }
#ifdef TS_GROUP_SERIAL
    g->gk[(acc & TS_K_WRITE) != 0] = k;
#endif
  }
  /* an access of a type through a pointer not aligned to it (a cast of a byte pointer) */
  if (!vec && (n & (n - 1)) == 0 && n <= 16 && (a & (n - 1)))
    ts_finding(c->t, TS_FIND_ALIGN, line, 0, k, acc, (uint)(a - b), 0, 0, 0);
  /* the same address (inside its buffer) read again and again, with the same value: a spin.
   * Its value is read from the address's second access in a row on, not at the first: a
   * GPU's work-item had waited for that load at every access past the windows (a look-back's
   * atomics, on its critical path) */
  if ((acc == TS_K_READ || (acc & TS_K_ATOMIC)) && a != c->spin_a) {
    c->spin_a = a;
    c->spin_n = TS_SPIN_NEW;
  } else if (acc == TS_K_READ || (acc & TS_K_ATOMIC)) {
    uint v = n >= 4 && !(a & 3) ? *(__global volatile uint *)p : (uint)*(__global volatile uchar *)p;
    if (c->spin_n == TS_SPIN_NEW || v != c->spin_v) {
      c->spin_v = v;
      c->spin_n = 0;
    } else if (++c->spin_n >= TS_SPIN_N || (c->spin_n >= 64 && ob[TS_H_ABORT])) {
      c->spin_n = TS_SPIN_N; /* (once let go, every spin is let go at once) */
      ts_gat(c, k, b, (uint)(a - b), n, acc, line, p);
      return ts_spin(c->t, c->spin_v, p, n, k, (uint)(a - b), acc, line);
    }
  } else {
    c->spin_a = 0;
  }
  return ts_gat(c, k, b, (uint)(a - b), n, acc, line, p);
}

/* The access of n bytes at offset off of buffer k (based at b), or of an image's pixel (p
 * NULL): the pointer to use (NULL: the sink, for an image's write not to be made). */
TS_HOT __global uchar *ts_gat(ts_ctx *c, uint k, ulong b, uint off, uint n, uint acc, uint line,
                              __global uchar *p)
{
  __global uint *ob = c->ob;
  TS_GS ts_group *g = TS_GRP(c);
  __global const uint *bi = TS_BI_OF(ob, k);
  ts_log(c, 0, k, acc, off, n, line);
  uint wk = g->gwork[k];
  if (wk & TS_W_MODE) {
    uint mode = bi[TS_B_FLAGS];
    int bad_w = (mode & TS_F_RO) && (acc & TS_K_WRITE), bad_r = (mode & TS_F_WO) && (acc & TS_K_READ);
    if (bad_w || bad_r)
      ts_finding(c->t, TS_FIND_MODE, line, 0, k, acc, off, 0, 0, 0);
    if (bad_w) /* a read-only buffer may sit in memory a write cannot reach: not made */
      return (__global uchar *)(ob + ob[TS_H_SINK]);
  }
#ifdef TS_GROUP_SERIAL
  /* a fast-shadowed write in the row the group wrote last (ts_gwin's window opens at the
   * second), told before ts_rect moves the row */
  uint wimg = bi[TS_B_RECT], wo = off - bi[TS_B_OFFSET];
  int wrow = acc == TS_K_WRITE && (bi[TS_B_FLAGS] & TS_F_FAST) && wimg <= 1 &&
             off >= bi[TS_B_OFFSET] && wo >= g->rs[wimg][1] && wo < g->re[wimg][1];
#endif
  if (wk & TS_W_RECT)
    ts_rect(c, bi, acc, off, n,
            p && acc == TS_K_READ && !c->logs
                ? (wk == TS_W_RECT ? 1 : wk == (TS_W_RECT | TS_W_DECL) ? 2 : 0) : 0,
            b);
  if (wk & TS_W_DECL)
    ts_declared(c, bi, k, acc, off, line);
  if (wk & (TS_W_SHADOW | TS_W_MASK)) {
    uint sh = bi[TS_B_SHADOW];
    uint flags = bi[TS_B_FLAGS], shift = bi[TS_B_LANE];
    __global const uchar *m = wk & TS_W_MASK ? (__global const uchar *)(ob + bi[TS_B_MASK]) : 0;
    for (uint i = off >> shift; i <= (off + n - 1) >> shift; i++) {
      if (sh && (flags & TS_F_FAST))
        ts_gfast(c, ob + sh, i, acc);
      else if (sh)
        ts_gshadow(c, ob + sh + (size_t)i * 4, flags, k, acc, i << shift, line, m ? m + i : 0);
      else if (acc == TS_K_READ && !m[i]) /* a const pointer: what earlier passes wrote */
        ts_finding(c->t, TS_FIND_UNINIT, line, 0, k, acc, i << shift, 0, 0, 0);
    }
  }
  if (p && acc == TS_K_READ && !c->logs && wk == 0) {
    TS_WIN(c)->glo = b;
    TS_WIN(c)->ghi = b + g->gsz[k] - 1;
    ts_glowin(TS_WIN(c));
  }
#ifndef TS_GROUP_SERIAL
  if (p && acc == TS_K_READ && !c->logs && wk == TS_W_RECT && c->rd.len == 0)
    ts_iopen(&c->rd, bi, b, g->gsz[k]);
#endif
#ifdef TS_GROUP_SERIAL
  uint dlo = 0, dhi = ~0u;
  if (p && acc == TS_K_WRITE && !c->logs && (wk & ~(TS_W_RECT | TS_W_DECL)) == TS_W_SHADOW &&
      (bi[TS_B_FLAGS] & TS_F_FAST) &&
      (!(wk & TS_W_RECT) || (wrow && g->rlo[wimg][1] <= g->rhi[wimg][1])) &&
      (!(wk & TS_W_DECL) ||
       ((wk & TS_W_RECT) && ts_decl_row(c, bi, ts_div(g->rs[wimg][1], bi + TS_B_PDIV,
                                                      bi[TS_B_PITCH]), 1, &dlo, &dhi)))) {
    if (!(wk & TS_W_RECT)) { /* no bounds: the whole buffer */
      g->wlo = b;
      g->whi = b + g->gsz[k] - 1;
      g->wflo = ~(ulong)0;
      g->wfhi = 0;
    } else { /* its row, where ts_rect left it (a column's walk: never), what the row's
              * bounds cover of it (a row entered covers the columns of the rows left), and of
              * that the declared tile's part */
      uint rs = g->rs[wimg][1];
      ulong row = b + bi[TS_B_OFFSET] + rs;
      g->wlo = row + max(g->rlo[wimg][1] - rs, dlo);
      g->whi = row + min(g->rhi[wimg][1] - rs, dhi);
      g->wflo = row + dlo;
      g->wfhi = row + min(g->re[wimg][1] - 1 - rs, dhi);
      g->wib = b + bi[TS_B_OFFSET];
      g->wimg = wimg;
    }
    g->wb = b;
    g->ws = ob + bi[TS_B_SHADOW];
    g->wsh = bi[TS_B_LANE];
  }
  if (p && acc == TS_K_WRITE && !c->logs && wk == (TS_W_RECT | TS_W_SHADOW) &&
      (bi[TS_B_FLAGS] & TS_F_FAST) && wimg <= 1 && bi[TS_B_PITCH] > 1 &&
      bi[TS_B_OFFSET] < g->gsz[k]) {
    /* the bounding box the bounds make (as ts_rect_out will): the rows left, then the row */
    uint r0 = ~0u, r1 = 0, c0 = ~0u, c1 = 0, rs = g->rs[wimg][1];
    if (g->omin[wimg][1] <= g->omax[wimg][1]) {
      r0 = ts_div(g->omin[wimg][1], bi + TS_B_PDIV, bi[TS_B_PITCH]);
      r1 = ts_div(g->omax[wimg][1], bi + TS_B_PDIV, bi[TS_B_PITCH]);
      c0 = g->cmin[wimg][1];
      c1 = g->cmax[wimg][1];
    }
    if (g->rlo[wimg][1] <= g->rhi[wimg][1]) {
      uint row = ts_div(rs, bi + TS_B_PDIV, bi[TS_B_PITCH]);
      r0 = min(r0, row);
      r1 = max(r1, row);
      c0 = min(c0, g->rlo[wimg][1] - rs);
      c1 = max(c1, g->rhi[wimg][1] - rs);
    }
    g->yb = b + bi[TS_B_OFFSET];
    g->yend = g->gsz[k] - bi[TS_B_OFFSET];
    g->ym = (ulong)bi[TS_B_PDIV] | (ulong)bi[TS_B_PDIV + 1] << 32;
    g->ypitch = bi[TS_B_PITCH];
    g->yr0 = r0;
    g->yr1 = r1;
    g->yc0 = c0;
    g->yc1 = c1;
    g->ywb = b;
    g->yws = ob + bi[TS_B_SHADOW];
    g->ywsh = bi[TS_B_LANE];
  }
#endif
  return p;
}

/* atomic_cmpxchg(p, cmp, v) on __global memory: one whose comparison fails writes nothing,
 * and is no write for the shadows (two work-items' failed exchanges beside a plain read of
 * the word do not race); one that succeeds is an atomic as any. */
TS_HOT __global uchar *ts_gcx(ts_ctx *c, __global uchar *p, uint n, long cmp, uint line)
{
  __global uchar *q = ts_g(c, p, n, TS_K_ATOMIC | TS_K_PROBE, line);
  long now = n == 8 ? *(__global volatile long *)q : (long)*(__global volatile int *)q;
  if (q == p)
    ts_g(c, p, n, (n == 8 ? now == cmp : (int)now == (int)cmp) ? TS_K_ATOMIC
                                                              : TS_K_ATOMIC | TS_K_FAILED, line);
  return q;
}

/* ---- images: an image2d_t argument is buffer slot k (no address, ts_gbuf given NULL), its
 * pixels of TS_B_PIXEL bytes at (y * w + x) * pixel, reached by coordinates ---- */

#define TS_ADDR_BITS (CLK_ADDRESS_NONE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_ADDRESS_CLAMP | \
                      CLK_ADDRESS_REPEAT | CLK_ADDRESS_MIRRORED_REPEAT)

/* Pixel (x, y) of image k (w x h), read or written through sampler bits smp (-1: none, as
 * the sampler-less built-ins and the writes): 1 when the device's access is to be made.
 * Outside the image clamp-to-edge reads the edge, repeat and mirrored-repeat wrap, clamp
 * reads the border colour (no pixel); with none it is a finding, and not made. */
int ts_ipx(ts_ctx *c, uint k, int x, int y, int w, int h, int smp, uint acc, uint line)
{
  if (x < 0 || y < 0 || x >= w || y >= h) {
    int am = smp < 0 ? CLK_ADDRESS_NONE : smp & TS_ADDR_BITS;
    if (am == CLK_ADDRESS_CLAMP_TO_EDGE) {
      x = clamp(x, 0, w - 1);
      y = clamp(y, 0, h - 1);
    } else if (am == CLK_ADDRESS_REPEAT) {
      x = (x % w + w) % w;
      y = (y % h + h) % h;
    } else if (am == CLK_ADDRESS_MIRRORED_REPEAT) {
      x = (x % (2 * w) + 2 * w) % (2 * w);
      y = (y % (2 * h) + 2 * h) % (2 * h);
      x = x < w ? x : 2 * w - 1 - x;
      y = y < h ? y : 2 * h - 1 - y;
    } else if (am == CLK_ADDRESS_CLAMP) {
      return 1;
    } else {
      /* space 3: an image's pixel outside it, x and y as they are */
      ts_finding(c->t, TS_FIND_OOB, line, 3, k, acc | 8, (uint)x, (uint)y, 0, 0);
      return 0;
    }
  }
  uint px = TS_BI_OF(c->ob, k)[TS_B_PIXEL];
  ts_gat(c, k, 0, ((uint)y * (uint)w + (uint)x) * px, px, acc, line, 0);
  return 1;
}

/* The same at float coordinates: normalised ones scaled; a linear filter reads the four
 * pixels around the point. */
int ts_ipxf(ts_ctx *c, uint k, float2 p, int w, int h, int smp, uint acc, uint line)
{
  p = clamp(p, -1.0e7f, 1.0e7f); /* NaN is outside every image too */
  if (smp >= 0 && (smp & CLK_NORMALIZED_COORDS_TRUE))
    p *= (float2)((float)w, (float)h);
  if (smp >= 0 && (smp & CLK_FILTER_LINEAR) == CLK_FILTER_LINEAR) {
    int x0 = (int)floor(p.x - 0.5f), y0 = (int)floor(p.y - 0.5f);
    int ok = ts_ipx(c, k, x0, y0, w, h, smp, acc, line);
    ok &= ts_ipx(c, k, x0 + 1, y0, w, h, smp, acc, line);
    ok &= ts_ipx(c, k, x0, y0 + 1, w, h, smp, acc, line);
    ok &= ts_ipx(c, k, x0 + 1, y0 + 1, w, h, smp, acc, line);
    return ok;
  }
  return ts_ipx(c, k, (int)floor(p.x), (int)floor(p.y), w, h, smp, acc, line);
}

/* read_imageF(img, sampler, int2 / float2) and read_imageF(img, int2), and write_imageF. */
#define TS_IMAGE_FNS(F, T)                                                                     \
  T ts_read_image##F##_si(ts_ctx *c, uint k, read_only image2d_t im, sampler_t s, int sb,      \
                          int2 p, uint line)                                                   \
  {                                                                                            \
    int w = get_image_width(im), h = get_image_height(im);                                     \
    return ts_ipx(c, k, p.x, p.y, w, h, sb, TS_K_READ, line) ? read_image##F(im, s, p) : (T)0; \
  }                                                                                            \
  T ts_read_image##F##_sf(ts_ctx *c, uint k, read_only image2d_t im, sampler_t s, int sb,      \
                          float2 p, uint line)                                                 \
  {                                                                                            \
    int w = get_image_width(im), h = get_image_height(im);                                     \
    return ts_ipxf(c, k, p, w, h, sb, TS_K_READ, line) ? read_image##F(im, s, p) : (T)0;       \
  }                                                                                            \
  T ts_read_image##F##_n(ts_ctx *c, uint k, read_only image2d_t im, int2 p, uint line)         \
  {                                                                                            \
    int w = get_image_width(im), h = get_image_height(im);                                     \
    return ts_ipx(c, k, p.x, p.y, w, h, -1, TS_K_READ, line) ? read_image##F(im, p) : (T)0;    \
  }                                                                                            \
  void ts_write_image##F##_n(ts_ctx *c, uint k, write_only image2d_t im, int2 p, T v,          \
                             uint line)                                                        \
  {                                                                                            \
    int w = get_image_width(im), h = get_image_height(im);                                     \
    if (ts_ipx(c, k, p.x, p.y, w, h, -1, TS_K_WRITE, line))                                    \
      write_image##F(im, p, v);                                                                \
  }
TS_IMAGE_FNS(f, float4)
TS_IMAGE_FNS(i, int4)
TS_IMAGE_FNS(ui, uint4)

#ifndef TS_GROUP_SERIAL
/* (a GPU) A __local byte's readers of the interval, r (read as old), given this work-item
 * (mine): it alone, or several (2047). */
inline void ts_lname(__local uint *r, uint old, uint mine)
{
  for (int tries = 0; tries < 4; tries++) {
    uint want = old >> 11 != mine >> 11                 ? mine
                : (old & 2047) == (mine & 2047)         ? old
                                                        : (mine | 2047);
    if (want == old)
      break;
    uint seen = atomic_cmpxchg(r, old, want);
    if (seen == old)
      break;
    old = seen;
  }
}
#endif

/* What a write of byte off of __local array k met: the write o it replaced, the readers rd
 * of the byte (ts_lshadow's words), each a race where it is another work-item's of the
 * interval. */
inline void ts_lwfound(ts_ctx *c, uint k, uint acc, uint off, uint o, uint rd, uint line)
{
  uint mine = c->lmine;
  if (ts_same_interval(o, mine))
    ts_finding(c->t, TS_FIND_RACE_LOCAL, line, 1, k, acc, off, c->group, (o & 2047) - 1,
               TS_O_BY(o));
  if (ts_same_interval(rd, mine))
    ts_finding(c->t, TS_FIND_RACE_LOCAL, line, 1, k, acc, off, c->group,
               (rd & 2047) == 2047 ? ~0u : (rd & 2047) - 1, TS_O_READ);
}

/* One byte of a __local array's shadows (the group's own): races inside the group, and
 * reads of what nothing wrote. Words: (local barrier interval + 1) << 11 | (item + 1). */
TS_HOT void ts_lshadow(ts_ctx *c, __local uint *w, __local uint *r, uint k, uint acc, uint off,
                       uint line)
{
  if (acc & TS_K_PROBE)
    return;
  uint mine = c->lmine;
  if (acc & TS_K_ATOMIC) { /* as ts_gshadow's: against plain accesses of the interval */
    uint o = *w;
    if (o == 0) /* it reads what nothing wrote */
      ts_finding(c->t, TS_FIND_UNINIT, line, 1, k, acc, off, 0, 0, 0);
    if (o != 0 && !(o & TS_ATOM) && ts_same_interval(o, mine))
      ts_finding(c->t, TS_FIND_RACE_LOCAL, line, 1, k, acc, off, c->group, (o & 2047) - 1,
                 TS_O_BY(o));
    if (acc & TS_K_FAILED)
      return;
    uint rd = *r;
    if (ts_same_interval(rd, mine))
      ts_finding(c->t, TS_FIND_RACE_LOCAL, line, 1, k, acc, off, c->group,
                 (rd & 2047) == 2047 ? ~0u : (rd & 2047) - 1, TS_O_READ);
    /* it becomes the byte's record unless a plain write of the interval is there (a group's
     * own memory: an earlier interval's is ordered) */
    if (o == 0 || (o & TS_ATOM) || o >> 11 != mine >> 11)
      atomic_xchg(w, ((o & TS_ATOM) && ts_same_interval(o, mine) ? mine | 2047 : mine) | TS_ATOM);
    return;
  }
  if (acc & TS_K_READ) {
    uint o = *w;
    if (o == 0) {
      if (acc == TS_K_READ)
        ts_finding(c->t, TS_FIND_UNINIT, line, 1, k, acc, off, 0, 0, 0);
    } else if (ts_same_interval(o, mine)) {
      ts_finding(c->t, TS_FIND_RACE_LOCAL, line, 1, k, acc, off, c->group, (o & 2047) - 1,
                 TS_O_BY(o));
    }
    /* who read it in this interval: this work-item (mine), or several; usually it is already
     * so, and nothing is written. The two spellings measured best each on its own device
     * (a CPU: callgrind; the H200: the tiled Gaussian at 4K, 7.9 ms with the first, 6.7 ms
     * with the second) */
    uint old = *r;
#ifdef TS_GROUP_SERIAL
    uint sev = mine | 2047;
    for (int tries = 0; tries < 4 && old != mine && old != sev; tries++) {
      uint seen = atomic_cmpxchg(r, old, old >> 11 != mine >> 11 ? mine : sev);
      if (seen == old)
        break;
      old = seen;
    }
#else
    ts_lname(r, old, mine);
#endif
  }
  if (acc & TS_K_WRITE) {
    uint o = atomic_xchg(w, mine);
    ts_lwfound(c, k, acc, off, o, *r, line);
  }
}

TS_SLOW __local uchar *ts_lslow(ts_ctx *c, __local uchar *p, uint n, uint acc, uint line);
#ifndef TS_GROUP_SERIAL
/* (a GPU) What a write at byte off of the array of the last access met (ts_l): the write o
 * it replaced, the readers rd of the byte, as ts_lshadow reports them. */
TS_SLOW void ts_lwrace(ts_ctx *c, uint off, uint o, uint rd, uint line)
{
  uint k = 0;
  while (k + 1 < c->nl && (ulong)c->t->lb[k] != c->lqb)
    k++;
  ts_lwfound(c, k, TS_K_WRITE, off, o, rd, line);
}
#endif

/* An access of n bytes at p of __local memory: the pointer to use. Copied into each access:
 * a read of the array of the last access past it whose bytes are a plain write of an
 * earlier interval, or this work-item's, and whose readers of the interval are already
 * named, the usual read of a tile; on a CPU device, where a group's work-items run one after
 * another and nothing else touches its __local memory, the naming too, and a write that
 * meets no other work-item's access of the interval, each a few plain loads and stores (on a
 * GPU, a read of an earlier interval's write names its reader here, an atomic where it is the
 * byte's first or second reader of the interval). The
 * rest is one function, called, as ts_g's. The test reads the array from ts_ctx's flat copy
 * (lqb...), not its tables: through pocl's copy of a context per work-item each table's
 * entry had been two loads more. */
#ifdef TS_LFAST
/* (TS_H_LFAST) A fast read's mark: some work-item read __local memory in this interval. */
inline void ts_lread(ts_ctx *c, uint first)
{
  c->lrs = first;
  ((__local volatile uint *)c->lscratch)[TS_LRD_AT] = first | 1;
}

/* (TS_H_LFAST) A write or atomic of __local memory in an interval that some work-item read
 * it in: the readers it would race with were not named, so the launch is made again with
 * them (TS_H_LREDO). */
inline void ts_lfastw(ts_ctx *c)
{
  if (c->lrs != ~0u &&
      ((__local volatile uint *)c->lscratch)[TS_LRD_AT] == ((c->lmine & ~2047u) | 1) &&
      !c->ob[TS_H_LREDO])
    c->ob[TS_H_LREDO] = 1;
}
#else
inline void ts_lfastw(ts_ctx *c) {}
#endif

inline __attribute__((always_inline)) __local uchar *ts_l(ts_ctx *c, __local uchar *p, uint n,
                                                          uint acc, uint line)
{
#if defined(TS_GROUP_SERIAL) && defined(TS_LFAST)
  if (acc == TS_K_READ) { /* the group's read window (ts_lwin) */
    ulong d = (ulong)p - TS_WIN(c)->lwb;
    if (d < TS_WIN(c)->lwn && d + n <= TS_WIN(c)->lwn)
      return p;
  }
#endif
#ifdef TS_GROUP_SERIAL
  if ((acc == TS_K_READ || acc == TS_K_WRITE) && n <= 4) {
#else
  if (acc == TS_K_READ && n <= 4) {
#endif
    ulong d = (ulong)p - c->lqb;
    if (d < c->lqn && d + n <= c->lqn) {
      /* a plain write of an earlier interval: 0 < o < the interval's first word (an atomic's
       * mark is above it, and goes the long way) */
      uint mine = c->lmine, first = mine & ~2047u, sev = mine | 2047;
      __local uint *s = c->lqs + 2 * d;
#if defined(TS_LFAST) && defined(TS_GROUP_SERIAL)
      if (acc == TS_K_WRITE)
        ts_lfastw(c);
#elif defined(TS_LFAST)
      if (c->lrs != ~0u) { /* its write's word alone: the interval marked read, once */
        int quiet = 1;
        for (uint i = 0; i < n; i++) {
          uint o = s[2 * i];
          quiet &= o - 1 < first - 1 || o == mine;
        }
        if (!quiet)
          return ts_lslow(c, p, n, acc, line);
        if (c->lrs != first)
          ts_lread(c, first);
        return p;
      }
#endif
      uint2 wr[4];
      int quiet = 1;
      for (uint i = 0; i < n; i++) {
        wr[i] = ((__local uint2 *)s)[i]; /* its write and its readers, one load */
        uint o = wr[i].x;
#ifdef TS_GROUP_SERIAL
        uint rd = wr[i].y;
        quiet &= acc == TS_K_READ ? o - 1 < first - 1 || o == mine
                                  : (o < first || o == mine) && (rd < first || rd == mine);
#else
        quiet &= o - 1 < first - 1 || o == mine;
#endif
      }
      if (quiet) {
        for (uint i = 0; i < n; i++) {
          uint rd = wr[i].y;
#ifdef TS_GROUP_SERIAL
          if (acc == TS_K_WRITE) /* (ts_lshadow's record) */
            s[2 * i] = mine;
          else if (rd != mine && rd != sev) /* its reader: this one, or several */
            s[2 * i + 1] = rd >> 11 == mine >> 11 ? sev : mine;
#else
          /* its reader named here too (ts_lshadow's): each byte's first two readers of an
           * interval had taken the whole of ts_lslow, and a warp waits for its slowest lane,
           * so a tile's reads (the tiled Gaussian's 75) took it at most */
          if (rd != mine && rd != sev)
            ts_lname(s + 2 * i + 1, rd, mine);
#endif
        }
        return p;
      }
    }
  }
#ifndef TS_GROUP_SERIAL
  /* (a GPU) a write of the array of the last access, as ts_lshadow makes it; what it finds,
   * rare, the long way (the serial scans of a tile, one work-item a row, had taken the whole
   * of ts_lslow at each step) */
  if (acc == TS_K_WRITE && n <= 4) {
    ulong d = (ulong)p - c->lqb;
    if (d < c->lqn && d + n <= c->lqn) {
      uint mine = c->lmine;
      __local uint *s = c->lqs + 2 * d;
      ts_lfastw(c);
      for (uint i = 0; i < n; i++) {
        uint o = atomic_xchg(s + 2 * i, mine), rd = s[2 * i + 1];
        if (ts_same_interval(o, mine) || ts_same_interval(rd, mine))
          ts_lwrace(c, (uint)d + i, o, rd, line);
      }
      return p;
    }
  }
#endif
  return ts_lslow(c, p, n, acc, line);
}

#if defined(TS_GROUP_SERIAL) && defined(TS_LFAST)
/* (TS_H_LFAST, a CPU device) After a read of byte off of __local array k (at b) that went
 * the long way: the group's read window of the array for this barrier interval, found once
 * an interval: the bytes around off (TS_LWIN_SPAN each side at most) that a plain write of
 * an earlier interval made (0 < o < the interval's first word). A read there is then two
 * tests (ts_l) and names no reader, so the interval is marked read (TS_LRD_AT): a write or
 * atomic of __local memory in it sets TS_H_LREDO (ts_lfastw), and the launch is made again
 * with every reader named. The tiled Gaussian's 75 reads a work-item had cost about 36
 * instructions each, most of them loads of the context that pocl's work-item loops keep in
 * memory. */
#define TS_LWIN_SPAN 2048 /* bytes a window reaches each side of its first read: the scan's
                           * cost bounded where an interval reads little of a large array */
inline void ts_lwin(ts_ctx *c, uint k, ulong b, uint off)
{
  __local ts_group *g = c->g;
  uint first = c->lmine & ~2047u;
  if (g->lwint[k] != first) {
    __local const uint *s = c->t->ls[k];
    uint lo = off, hi = off, lmin = off > TS_LWIN_SPAN ? off - TS_LWIN_SPAN : 0,
         hmax = min(c->t->lsz[k], off + TS_LWIN_SPAN);
    while (lo > lmin && s[2 * (lo - 1)] - 1 < first - 1)
      lo--;
    while (hi < hmax && s[2 * hi] - 1 < first - 1)
      hi++;
    g->lwint[k] = first;
    g->lwlo[k] = lo;
    g->lwhi[k] = hi;
  }
  if (g->lwhi[k] <= g->lwlo[k])
    return;
  TS_WIN(c)->lwb = b + g->lwlo[k];
  TS_WIN(c)->lwn = g->lwhi[k] - g->lwlo[k];
  TS_WIN(c)->lwat = first;
  ((__local volatile uint *)c->lscratch)[TS_LRD_AT] = first | 1;
}
#endif

TS_SLOW __local uchar *ts_lslow(ts_ctx *c, __local uchar *p, uint n, uint acc, uint line)
{
  acc &= ~TS_K_VECTOR;
  ulong a = (ulong)p;
  if (acc & (TS_K_WRITE | TS_K_ATOMIC))
    ts_lfastw(c);
#ifdef TS_GROUP_SERIAL
  uint k = c->lk; /* the array of the last access first: usually this one's too */
#else
  uint k = 0;     /* as ts_g */
#endif
  /* (its tables hold only the arrays there are: each store at the start was one a work-item) */
  ulong b = k < c->nl ? (ulong)c->t->lb[k] : 0;
  if (k >= c->nl || a < b || a + n > b + c->t->lsz[k]) {
    for (k = 0; k < c->nl; k++) {
      b = (ulong)c->t->lb[k];
      if (a >= b && a + n <= b + c->t->lsz[k])
        break;
    }
    if (k == c->nl) {
      ts_outside(c->t, TS_GRP(c), c->nl, c->logs, 1, a, n, acc, line);
      return c->lscratch + ((acc & TS_K_WRITE) ? 128 : 0);
    }
#ifdef TS_GROUP_SERIAL
    c->lk = k;
#endif
  }
  if (!c->logs) { /* ts_l's test: this array */
    c->lqb = b;
    c->lqn = c->t->lsz[k];
    c->lqs = c->t->ls[k];
  }
  uint off = (uint)(a - b);
  ts_log(c, 1, k, acc, off, n, line);
  __local uint *s = c->t->ls[k] + 2 * off;
  for (uint i = 0; i < n; i++)
    ts_lshadow(c, s + 2 * i, s + 2 * i + 1, k, acc, off + i, line);
#if defined(TS_GROUP_SERIAL) && defined(TS_LFAST)
  if (acc == TS_K_READ && c->lrs != ~0u && !c->logs)
    ts_lwin(c, k, b, off);
#endif
  return p;
}

/* atomic_cmpxchg on __local memory: as ts_gcx. */
TS_HOT __local uchar *ts_lcx(ts_ctx *c, __local uchar *p, uint n, long cmp, uint line)
{
  __local uchar *q = ts_l(c, p, n, TS_K_ATOMIC | TS_K_PROBE, line);
  long now = n == 8 ? *(__local volatile long *)q : (long)*(__local volatile int *)q;
  if (q == p)
    ts_l(c, p, n, (n == 8 ? now == cmp : (int)now == (int)cmp) ? TS_K_ATOMIC
                                                              : TS_K_ATOMIC | TS_K_FAILED, line);
  return q;
}

/* The group's copy between __global and __local memory (async_work_group_copy, strided by
 * `stride` elements on the __global side): made at the call, each work-item its share of the
 * elements, every access checked as the group's own, no work-item's (item bits 2047), so that
 * a work-item's own access of an element the copy moves in the same interval is a race; the
 * wait (ts_wait_events) orders them. */
inline void ts_async_copy(ts_ctx *c, __local uchar *l, __global uchar *g, size_t n,
                          size_t stride, uint es, int to_local, uint line)
{
  uint gm = c->gmine, lm = c->lmine;
  c->gmine |= 2047;
  c->lmine |= 2047;
  size_t step = get_local_size(0) * get_local_size(1) * get_local_size(2);
  for (size_t e = ts_lin_item(); e < n; e += step) {
    __global uchar *gp = ts_g(c, g + e * stride * es, es, to_local ? TS_K_READ : TS_K_WRITE, line);
    __local uchar *lp = ts_l(c, l + e * es, es, to_local ? TS_K_WRITE : TS_K_READ, line);
    for (uint b = 0; b < es; b++) {
      if (to_local)
        lp[b] = gp[b];
      else
        gp[b] = lp[b];
    }
  }
  c->gmine = gm;
  c->lmine = lm;
}

/* The group's agreement on a copy or a wait: the first of its work-items to make the call
 * keeps its arguments' hash h and count n in the call's slot; a work-item that comes with
 * other arguments is a finding of `kind` (the group's work-items must call alike), and takes
 * the first's count. (On a GPU the first's words may not yet be there for a work-item that
 * comes at the same time: it then agrees.) */
inline size_t ts_agree(ts_ctx *c, uint h, size_t n, uint kind, uint line)
{
  uint call = c->ncall++;
  __local volatile uint *s = (__local volatile uint *)((__local uint *)c->lscratch + TS_CALLS_AT +
                                                       3 * (call % TS_NCALL));
  uint tag = (c->ob[TS_H_NONCE] * 0x9e3779b1u ^ c->group * 0x85ebca6bu ^ call) | 1;
  uint was = s[0];
  /* the hash's low bit: a copy's (a copy where the first made a wait, or the other way
   * round, is the copies' divergence) */
  h = (h & ~1u) | (kind == TS_FIND_COPY_DIVERGE);
  if (was != tag && atomic_cmpxchg((__local volatile uint *)s, was, tag) == was) {
    s[1] = h;
    s[2] = (uint)n;
    return n;
  }
  if (s[1] != h) {
    if ((s[1] | h) & 1)
      kind = TS_FIND_COPY_DIVERGE;
    ts_finding(c->t, kind, line, 0, 0, 32, call, 0, 0, 0); /* acc 32: a group's call */
    return s[2];
  }
  return n;
}

inline uint ts_hash(uint h, ulong v)
{
  h ^= (uint)v * 0xcc9e2d51u;
  h = (h << 13 | h >> 19) * 5u + 0xe6546b64u;
  h ^= (uint)(v >> 32) * 0x1b873593u;
  return (h << 13 | h >> 19) * 5u + 0x52dce729u;
}

/* A copy asked for: kept until a wait names its event (made at once past TS_PEND kept). Its
 * event is the one given (a copy chained to an earlier one's), else a new one. */
inline uint ts_async_keep(ts_ctx *c, __local uchar *l, __global uchar *g, size_t n,
                          size_t stride, uint es, uint to_local, uint ev, uint line)
{
  uint h = ts_hash(ts_hash(ts_hash(to_local, (ulong)l), (ulong)g), (ulong)n ^ (ulong)stride << 40);
  n = ts_agree(c, h, n, TS_FIND_COPY_DIVERGE, line);
  uint e = ev ? ev : ++c->nevent;
  if (c->npend == TS_PEND) {
    ts_async_copy(c, l, g, n, stride, es, (int)to_local, line);
    return e;
  }
  uint i = c->npend++;
  c->t->pl[i] = l;
  c->t->pg[i] = g;
  c->t->pn[i] = n;
  c->t->pstride[i] = stride;
  c->t->pes[i] = es;
  c->t->pdir[i] = to_local;
  c->t->pline[i] = line;
  c->t->pev[i] = e;
  return e;
}

inline uint ts_async_lg(ts_ctx *c, __local uchar *l, __global uchar *g, size_t n,
                        size_t stride, uint es, uint ev, uint line)
{
  return ts_async_keep(c, l, g, n, stride, es, 1, ev, line);
}

inline uint ts_async_gl(ts_ctx *c, __local uchar *l, __global uchar *g, size_t n,
                        size_t stride, uint es, uint ev, uint line)
{
  return ts_async_keep(c, l, g, n, stride, es, 0, ev, line);
}

inline void ts_barrier(ts_ctx *c, cl_mem_fence_flags flags);

/* wait_group_events(n, list): the copies of the events listed land, ordered after as by a
 * barrier; an event no copy gave is a finding, and so is a group whose work-items wait for
 * other events (a barrier's divergence). The observed source's event_t is a uint (the end of
 * this file), so that an event is its number. */
inline void ts_wait_events(ts_ctx *c, int n, uint *list, uint line)
{
  uint h = ts_hash(0x5741u, (ulong)n);
  for (int j = 0; j < n && j < 64; j++) {
    uint e = list[j];
    h = ts_hash(h, e);
    if (e == 0 || e > c->nevent)
      ts_finding(c->t, TS_FIND_EVENT, line, 0, 0, 1, e, 0, 0, 0);
  }
  ts_agree(c, h, 0, TS_FIND_DIVERGE, line);
  uint kept = 0;
  for (uint i = 0; i < c->npend; i++) {
    int named = 0;
    for (int j = 0; j < n && j < 64; j++)
      named |= list[j] == c->t->pev[i];
    if (named) {
      ts_async_copy(c, c->t->pl[i], c->t->pg[i], c->t->pn[i], c->t->pstride[i], c->t->pes[i], (int)c->t->pdir[i],
                    c->t->pline[i]);
      continue;
    }
    c->t->pl[kept] = c->t->pl[i];
    c->t->pg[kept] = c->t->pg[i];
    c->t->pn[kept] = c->t->pn[i];
    c->t->pstride[kept] = c->t->pstride[i];
    c->t->pes[kept] = c->t->pes[i];
    c->t->pdir[kept] = c->t->pdir[i];
    c->t->pline[kept] = c->t->pline[i];
    c->t->pev[kept] = c->t->pev[i];
    kept++;
  }
  c->npend = kept;
  ts_barrier(c, CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

/* The index of an access of a private array of n elements: i when inside it, else a finding,
 * and the access is made on the array's first element instead (never past the array). */
inline long ts_pidx(ts_ctx *c, long i, long n, uint line)
{
  if (i >= 0 && i < n)
    return i;
  ts_finding(c->t, TS_FIND_PRIVATE, line, 2, 0, TS_K_READ, (uint)(int)clamp(i, (long)INT_MIN,
             (long)INT_MAX), 0, (uint)n, 0);
  return 0;
}

/* The index of an access of a followed private array (ts_pw_NAME, a bit an element set so
 * far): checked as ts_pidx; a read of an element nothing set is a finding. */
inline long ts_pw(ts_ctx *c, long i, long n, uint line, ulong *set, uint acc)
{
  if (i < 0 || i >= n)
    return ts_pidx(c, i, n, line);
  if ((acc & TS_K_READ) && !(*set >> i & 1))
    ts_finding(c->t, TS_FIND_UNINIT, line, 2, 0, acc, (uint)i, 0, (uint)n, 0);
  if (acc & TS_K_WRITE)
    *set |= 1ul << i;
  return i;
}

/* A read of the lanes `want` of a followed private vector of n lanes (ts_pv_NAME, a bit a
 * lane set so far): a lane nothing set is a finding, naming the first. */
inline void ts_pvr(ts_ctx *c, uint set, uint want, uint n, uint line)
{
  uint miss = want & ~set;
  if (miss)
    ts_finding(c->t, TS_FIND_UNINIT, line, 2, 1, TS_K_READ, 31 - clz(miss & (0u - miss)), 0, n, 0);
}

/* barrier(flags): the intervals it closes. */
/* A branch that decides whether a barrier is reached (the instrumenter wraps its condition:
 * one that holds a barrier, or leaves by return, break or continue with a barrier after it):
 * every work-item of a group must decide it alike. The group's n-th such decision is kept
 * as the first of its items to make it decided it, (line + 1) << 12 | item << 1 | v; an item
 * that decides the same line the other way is a finding, naming that item and bline, the
 * barrier's line. Each item's own condition is what is checked, so the finding does not
 * depend on what the device does with a divergence; and every item then takes the group's
 * way, as pocl makes a group do, so that a device whose work-items really part (a GPU) does
 * not hang at the barrier: the observed run ends, with its finding. Past TS_UNI decisions the
 * slots are used again, stamped. */
inline int ts_uniform_as(ts_ctx *c, uint line, uint bline, int v, uint as)
{
  __global uint *ob = c->ob;
  uint n = c->nuni++;
  if (ob[TS_H_UNI] == 0)
    return v;
  __global volatile uint *s = (__global volatile uint *)(ob + ob[TS_H_UNI] +
                                                         (size_t)c->group * TS_UNI_AREA + n % TS_UNI * TS_UNI_W);
  uint was;
  if (n < TS_UNI) {
    uint me = (line + 1) << 12 | c->item << 1 | (v != 0);
    was = *s;
    if (was == 0)
      was = atomic_cmpxchg(s, 0, me);
    if (was == 0 || was >> 12 != line + 1) /* the group's first, or (unchecked) another branch */
      return v;
  } else {
    /* Past the group's first TS_UNI decisions (a loop's rounds): each slot's last word
     * holds one decision after another, stamped with its turn, n / TS_UNI: the first to
     * make decision n stamps it, and the group takes its way, so that a GPU does not hang
     * at round 33. One overtaken (the word stamped later: items that went on by TS_UNI
     * decisions without a barrier) takes its own way, unchecked. */
    uint stamp = min(n / TS_UNI, 0xfffffu), me = stamp << 12 | c->item << 1 | (v != 0);
    s += TS_UNI_W - 1;
    was = *s;
    while (was >> 12 < stamp) {
      uint got = atomic_cmpxchg(s, was, me);
      was = got == was ? me : got;
    }
    if (was >> 12 != stamp)
      return v;
  }
  if ((was & 1) != (uint)(v != 0))
    ts_finding(c->t, TS_FIND_DIVERGE, line, 0, 0, 16, (v != 0) | as, c->group, (was >> 1) & 2047, bline);
  return (int)(was & 1);
}
/* as: what the finding's decision word says beside the way (1 << 30: a switch's label) */
#define ts_uniform(c, line, bline, v) ts_uniform_as((c), (line), (bline), (v), 0)

#ifdef TS_GROUP_SERIAL
/* On a CPU device (pocl) a for's or while's condition is left as it is, kept in hv: pocl runs
 * a group whose work-items part at a barrier as its first one decides, so there is no hang
 * to prevent; and control flow in a loop's condition (ts_uniform's early returns, or its
 * value as the condition) made it run every branch inside a loop that holds a barrier the
 * way the group's first work-item went, whatever the others' own conditions were. Each
 * work-item counts the times its own condition held, loop by loop (id: the loop's number in
 * the file), at the start of a body in braces (TS_WAY) or in the condition of one without
 * (TS_HEAD_N); the counts are compared at the kernel's end (ts_end), so a loop of any length,
 * nested or not, is checked to its last round. Every count is at a constant place (id is a
 * constant), and the way is read back as volatile: on the loop's exit the compiler knows the
 * condition false, while pocl takes work-items whose own condition holds down that edge. */
#define TS_HEAD(c, line, bline, v) ((c)->hv = (v) != 0)
#define TS_HEAD_N(c, line, bline, id, v) ((c)->hv = (v) != 0, (c)->lt[id] += (uint)(c)->hv, (c)->hv)
#define TS_WAY(c, line, bline, id) ((c)->lt[id] += (uint)*(volatile int *)&(c)->hv)
/* The loop's end: its last condition, false unless pocl took the work-item out while its own
 * held (counted here where the body told the rounds; in the condition where it did not), its
 * runs, and its lines for the report */
inline void ts_loop_end(ts_ctx *c, uint line, uint bline, uint id, uint braced)
{
  __global uint *ob = c->ob;
  c->lt[id] += braced & (uint)*(volatile int *)&c->hv;
  c->le[id] += 1;
  uint uni = ob[TS_H_UNI];
  size_t ok = (size_t)0 - (size_t)((id < TS_LOOPS) & (uni != 0));
  size_t at = TS_LOOP_AT(uni, c->group, id) & ok | (size_t)ob[TS_H_SINK] & ~ok;
  atomic_cmpxchg((__global volatile uint *)(ob + at), 0, line + 1);
  atomic_cmpxchg((__global volatile uint *)(ob + at + 1), 0, bline + 1);
}
#define TS_WAY_END(c, line, bline, id, braced) ts_loop_end((c), (line), (bline), (id), (braced))
#else
#define TS_HEAD(c, line, bline, v) ts_uniform((c), (line), (bline), (v) != 0)
#define TS_HEAD_N(c, line, bline, id, v) TS_HEAD((c), (line), (bline), (v))
#define TS_WAY(c, line, bline, id) ((void)0)
#define TS_WAY_END(c, line, bline, id, braced) ((void)0)
#endif
/* An if's or a do's condition: checked, and the group's first way taken, on every device */
#define TS_UNIFORM(c, line, bline, v) ts_uniform((c), (line), (bline), (v) != 0)

/* A switch that decides a barrier: its value (ts_sw_begin), then each case label in turn as
 * a decision of its own, value == label, checked and forced as an if's (ts_sw_case), so
 * that every work-item of a group enters the case the group's first entered; one whose own
 * case the group did not take goes to the default (ts_sw_end's none: a value no label has).
 * The instrumenter writes switch (ts_sw_begin(c, v), ts_sw_case(c, line, bline, label), ...,
 * ts_sw_end(c, none)). */
inline void ts_sw_begin(ts_ctx *c, long v)
{
  c->sv = v;
  c->sdone = c->sown = 0;
}
inline void ts_sw_case(ts_ctx *c, uint line, uint bline, long label)
{
  if (c->sdone)
    return;
  c->sown |= c->sv == label;
  if (ts_uniform_as(c, line, bline, c->sv == label, 1u << 30)) {
    c->sres = label;
    c->sdone = 1;
  }
}
inline long ts_sw_end(ts_ctx *c, long none)
{
  return c->sdone ? c->sres : c->sown ? none : c->sv;
}

inline void ts_barrier(ts_ctx *c, cl_mem_fence_flags flags)
{
  barrier(flags);
  __global uint *ob = c->ob;
  if (c->item == 0 && ob[TS_H_REC]) { /* the group's record: its barrier on the clock */
    __global uint *r = ob + ob[TS_H_REC] + (size_t)c->group * TS_REC_W;
    uint nb = r[TS_R_NBAR]++;
    if (nb < TS_REC_NBAR)
      r[TS_R_BAR + nb] = atomic_inc(ob + TS_H_CLOCK) + 1;
  }
  if (flags & CLK_LOCAL_MEM_FENCE)
    c->lmine += 1u << 11;
#if defined(TS_GROUP_SERIAL) && defined(TS_LFAST)
  /* the group's read window, found in an interval before this one (ts_lwin), closes: its
   * reads named no reader and marked that interval alone; the next access goes the long
   * way, which finds this interval's */
  int stale = TS_WIN(c)->lwat != (c->lmine & ~2047u); /* (selects, not a branch: a branch
                                                        * after every barrier had tripled
                                                        * pocl's build of a kernel of many) */
  TS_WIN(c)->lwn = stale ? 0 : TS_WIN(c)->lwn;
  c->lqn = stale ? 0 : c->lqn;
#endif
  if (flags & CLK_GLOBAL_MEM_FENCE)
    c->gmine += 1u << 11;
}

/* The observed source's events are numbers (ts_wait_events): the kernel's own event_t
 * variables hold what ts_async_lg and ts_async_gl return. */
#define event_t uint
