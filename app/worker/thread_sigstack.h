/* The signal stack of a thread of ours where pocl's LLVM may compile (the viewer's workers, a
 * plain kernel's thread): LLVM gives the thread where it first compiles a signal stack of its
 * own (malloc'd), and AddressSanitizer, at the thread's end, unmaps the one it finds then as
 * its own, and aborts. The thread saves the one it started with and puts it back before it
 * ends. sigaltstack is XSI: the including file defines _XOPEN_SOURCE or _DEFAULT_SOURCE. */
#ifndef TS_APP_THREAD_SIGSTACK_H
#define TS_APP_THREAD_SIGSTACK_H

#include <signal.h>

typedef struct vw_sigstack {
  stack_t ss;
  int saved;
} vw_sigstack;

/* At the thread's start: the signal stack it has. */
static inline void vw_sigstack_save(vw_sigstack *s)
{
  s->saved = sigaltstack(NULL, &s->ss) == 0;
}

/* Before it ends: that one back. */
static inline void vw_sigstack_restore(const vw_sigstack *s)
{
  if (s->saved)
    sigaltstack(&s->ss, NULL);
}

#endif
