/* Where tilescope finds what it reads at run time (kernels, shaders, assets): an environment
 * variable, next to the executable, an installed share/ folder, or the source tree it was
 * built from. Shared by the commands and the viewer. */
#ifndef TS_APP_PATHS_H
#define TS_APP_PATHS_H

#include <stddef.h>

/* The default input: the chart in the assets folder (TILESCOPE_ASSETS, next to the
 * executable, or the source tree). Returns NULL and prints an error when not found. */
const char *paths_default_asset(void);
/* Finds the folder `folder` holding `file`: $env_name, next to the executable, ../ of it,
 * ../share/tilescope/ of it (where `cmake --install` puts it), the source tree (unless
 * TILESCOPE_NO_SOURCE_TREE=1). Copies it into path and returns it, or prints an error and
 * returns NULL. */
const char *paths_find_dir(const char *env_name, const char *folder, const char *file, char *path,
                         size_t size);
/* The same, saying nothing when it is not found. */
const char *paths_find_quiet(const char *env_name, const char *folder, const char *file,
                             char *path, size_t size);
/* A guide, docs/NAME, as installed (share/tilescope/docs) or in the source tree, into path;
 * NULL, and nothing said, when there is none. */
const char *paths_doc(const char *name, char *path, size_t size);
/* The kernels folder: --kernels, TILESCOPE_KERNELS, next to the executable, the source. */
const char *paths_kernels_dir(const char *given);

#endif
