/* Where a frame's time goes, for --bench-frames (phase.c): the viewer and the drawing mark
 * where each phase ends, and with the profile on each mark waits for GL (glFinish) and adds
 * the time since the mark before to its phase. */
#ifndef TS_APP_PHASE_H
#define TS_APP_PHASE_H

enum { PH_PICKUP,  /* events, the worker's snapshot and the output rows it changed */
       PH_UPLOAD,  /* the input's and the device output's textures, the threads' texture */
       PH_MIPS,    /* mipmaps of changed images drawn minified */
       PH_PANES,   /* the two image panes */
       PH_BATCH,   /* the panel, timeline, labels and text, built on the CPU */
       PH_UI,      /* that batch drawn */
       PH_SHOW,    /* the frame to the window */
       PH_WAIT,    /* a step: asking the worker for the tick, until its snapshot is taken
                    * (wall time) */
       PH_ROWS,    /* of pick-up or wait: the changed output rows into the texture */
       PH_COUNT };

typedef struct vw_phases {
  int profile;          /* 0 off; 1 wall time; 2 this thread's CPU time */
  double ms[PH_COUNT];  /* the time of each phase, added up */
  double t;             /* the clock at the last mark */
} vw_phases;

/* The clock the profile uses, in ms. */
double vw_phase_clock(const vw_phases *p);
/* With the profile on: waits for GL and adds the time since the last mark to phase ph (-1:
 * only starts the clock). */
void vw_phase(vw_phases *p, int ph);
/* A phase inside another (PH_ROWS): vw_phase_start waits for GL and returns the clock (0 with
 * the profile off), vw_phase_since waits again and adds the time since t0 to phase ph. */
double vw_phase_start(const vw_phases *p);
void vw_phase_since(vw_phases *p, int ph, double t0);

#endif
