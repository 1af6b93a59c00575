/* The drawing's own state (gl_resources.c), which the viewer holds and hands down with each
 * scene, and nothing else writes: the batch and programs (gfx), the frame's framebuffer, the
 * frame cache and what it was drawn from, the device timeline's lanes, the profile, and for
 * each run shown (two in the split view) its textures: the images with their mipmaps, and the
 * threads of the pass shown. The viewer makes and frees it, resizes the frame and fills the
 * output texture as snapshots arrive (their rows are read while the worker keeps off the
 * run); the drawing brings the rest up to date from the scene as it draws. */
#ifndef TS_APP_GL_RESOURCES_H
#define TS_APP_GL_RESOURCES_H

#include "gfx.h"
#include "phase.h"
#include "scene.h"

/* An image texture (the input, the output, the device's output): its storage is made once
 * per size and channel count with room for its mipmaps, which are made when it is drawn
 * minified after a change. */
typedef struct vw_tex {
  GLuint id;
  int w, h, c, levels;
  /* Where level 0 changed since the mipmaps were made: all of it, or the cells (squares of
   * `cell` texels, cells_w a row) marked in `dirty`, ndirty of them (gl_resources.c). */
  int all_dirty, cell, cells_w, cells_h, ndirty;
  uint8_t *dirty;
  uint32_t serial;      /* counts the changes of its texels */
} vw_tex;

/* What an image pane is drawn with, the hover aside (draw_panes.c): the panes are kept drawn in
 * the frame cache until it changes. */
typedef struct vw_pane_key {
  int drawn;
  float screen[2], image[2], origin[2], zoom, clip[4];
  int overlay, tile_grid, device, mask, transposed;
  float space[2], tile[2], norm[3];
  int image_index;
  GLuint image_tex;
  uint32_t image_serial, thr_serial;
  float quad[4];        /* x0, y0, x1, y1; empty: nothing to draw */
} vw_pane_key;

/* What the cached background of the panel and timeline is drawn from. */
typedef struct vw_ui_key {
  int w, h, device;
  uint64_t run;         /* run_ident of the run shown */
} vw_ui_key;

/* The textures of one run shown. The threads of the pass shown are two: thr_tex, one texel a
 * thread with what changes only with the run, pass or observation, and state_tex, one byte a
 * thread, its state at the tick or device time; each made again when what it was made for
 * (thr_run: a run_ident, thr_pass, ...) changes. */
typedef struct vw_run_tex {
  vw_tex img[3];        /* the input, the output, the device's output */
  uint64_t in_uploaded; /* the input generation img[0] holds */
  uint64_t plain_serial; /* the plain kernel's result img[1] holds (0: none), of which pass */
  int plain_pass;       /* at which tick: masked where work-groups had not ended */
  uint32_t plain_tick;
  uint8_t *plain_buf;   /* that output as uploaded (the output's size) */
  size_t plain_cap;
  uint64_t dev_serial;  /* the device output img[2] holds (dev_out_serial) */
  GLuint thr_tex, state_tex;
  uint32_t thr_serial;  /* counts the uploads of either */
  uint8_t *thr_state;
  size_t thr_cap;
  float thr_norm[3];    /* the overlay's ramps' ends */
  uint64_t thr_run, thr_obs;
  int thr_pass, thr_dev;
  int64_t thr_tick, thr_dev_time;
  /* the device view: observed start order of the pass shown, by thread id */
  uint32_t *dev_rank;
  size_t dev_rank_cap;
  uint64_t rank_run;
  int rank_pass;
} vw_run_tex;

typedef struct vw_gl {
  gfx g;
  int width, height;    /* the frame's */
  GLuint fbo, fbo_tex;
  /* The frame cache: the parts of a frame that change seldom, drawn into a texture of the
   * frame's size and copied into each frame: the panes without the hover, the panel's
   * background and the timeline's graph. Redrawn when their keys change. */
  GLuint cache_fbo, cache_tex;
  int cache_w, cache_h;
  vw_pane_key pane_keys[2];
  vw_ui_key ui_key;
  int cache_ui_ok;
  /* The device timeline's lanes as a texture, and groups in flight per column: 2 x gantt_w,
   * mean groups running, and waiting; made for run gantt_run (a run_ident). */
  GLuint gantt_tex;
  uint64_t gantt_run;
  int gantt_w, gantt_h;
  float *gantt_flight;
  float gantt_peak;
  float panel_bottom;   /* panel_line draws nothing below this (0: no limit): the inspector
                         * stops above the legend (near it, long lines keep to one) */
  vw_run_tex run[2];    /* the run shown; in the split view the left's, and the right's */
  vw_phases ph;
} vw_gl;

/* The textures of the run a scene shows: the split view's right half has its own. */
static inline vw_run_tex *gl_run(vw_gl *gl, int split_side)
{
  return &gl->run[split_side == 2];
}

/* Loads the programs (from shaders_dir) and the font and makes a frame of w x h; on failure
 * writes one line to err and returns 0 (gl_free frees what was made). */
int gl_init(vw_gl *gl, const char *shaders_dir, const char *font_path, int w, int h, char *err,
            size_t n);
/* Deletes every texture and framebuffer (the GL context still current). */
void gl_free(vw_gl *gl);
/* The frame's framebuffer at a new size; returns 0 when incomplete. */
int gl_resize(vw_gl *gl, int w, int h);
/* Names the threads' textures of a run's (the split view's right half's, when it opens). */
void gl_run_init(vw_run_tex *t);
/* Deletes its textures and what they were made from, leaving it zeroed. */
void gl_run_free(vw_run_tex *t);
/* Uploads the output rows that snapshot s says changed (all of them for a new texture, or
 * when `whole`: the texture holds another run's) from its run's buffer into the output
 * texture; 0 when the run has no output buffer. From vw_worker_take's callback. */
int gl_output_rows(vw_run_tex *t, const vw_snapshot *s, int whole);
/* The input's (but in the split view's right half, which draws no input), a plain kernel's
 * output at its tick (again where a work-group's end passed) and the device output's
 * textures, when they changed. */
void gl_upload_images(vw_run_tex *t, const vw_scene *s);
/* Binds image texture i (0 input, 1 output, 2 the device's output) to unit 0, making its
 * mipmaps first when it is drawn minified (zoom under 1) and has changed since. */
void gl_bind_image(vw_gl *gl, vw_run_tex *t, float zoom, int i);
/* The threads' textures of the pass shown, made again where they changed; norm gets the
 * overlay's ramps' ends. */
void gl_update_threads(vw_run_tex *t, const vw_scene *s, float *norm);
/* A bound texture's parameters for c channels (grey from 1 or 2) and `levels` levels. */
void gl_tex_params(int c, int levels);
/* The frame cache's framebuffer, of the frame's size; 0 when it cannot be made. */
GLuint gl_cache_fbo(vw_gl *gl);
/* Waits until GL has drawn all it was asked to (--bench-frames times whole frames). */
void gl_finish(void);
/* The frame drawn last as RGB (rgb: width x height x 3, rows top-down; rgba: room for
 * width x height x 4). */
void gl_read_rgb(vw_gl *gl, uint8_t *rgb, uint8_t *rgba);

#endif
