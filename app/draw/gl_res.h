/* The viewer's GL resources (gl_resources.c): the image textures and their mipmaps, the
 * threads' textures of the pass shown, the frame's framebuffer and the frame cache's. The
 * viewer makes and frees them and fills the output texture as snapshots arrive; the drawing
 * brings the rest up to date as it draws. */
#ifndef TS_APP_GL_RES_H
#define TS_APP_GL_RES_H

#include "viewer.h"

/* The frame's framebuffer (v->fbo), of the window's size; returns 0 when incomplete. */
int gl_make_fbo(viewer *v);
/* Deletes every texture and framebuffer (the GL context still current). */
void gl_res_free(viewer *v);
/* Uploads the output rows that snapshot s says changed (all of them for a new texture or
 * run) from its run's buffer into the output texture. From vw_worker_take's callback. */
void render_output_rows(viewer *v, const vw_snapshot *s);
/* The input's, a plain kernel's output and the device output's textures, when they
 * changed. */
void gl_upload_images(viewer *v);
/* Binds image texture i (0 input, 1 output, 2 the device's output) to unit 0, making its
 * mipmaps first when it is drawn minified and has changed since. */
void gl_bind_image(viewer *v, int i);
/* The threads' textures of the pass shown, made again where they changed; norm gets the
 * overlay's ramps' ends. */
void gl_update_threads(viewer *v, float *norm);
/* A bound texture's parameters for c channels (grey from 1 or 2) and `levels` levels. */
void gl_tex_params(int c, int levels);
/* The frame cache's framebuffer, of the window's size; 0 when it cannot be made. */
GLuint gl_cache_fbo(viewer *v);

#endif
