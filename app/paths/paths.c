/* Finding the folders tilescope reads at run time (paths.h). */
#define _XOPEN_SOURCE 700 /* readlink */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"

static int readable(const char *path)
{
  return access(path, R_OK) == 0;
}

/* Finds `file` in a folder named `folder`: env (env_name NULL: none), next to the executable
 * (or ../ of it, or ../share/tilescope/ of it: an installed copy), the source tree; says why
 * not unless quiet. */
static const char *find_dir(const char *env_name, const char *folder, const char *file,
                            char *path, size_t size, int quiet)
{
  const char *env = env_name ? getenv(env_name) : NULL;
  if (env && *env) {
    snprintf(path, size, "%s/%s", env, file);
    if (readable(path)) {
      snprintf(path, size, "%s", env);
      return path;
    }
    if (!quiet)
      fprintf(stderr, "tilescope: %s='%s' has no %s\n", env_name, env, file);
    return NULL;
  }
  char exe[PATH_MAX / 2];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
      *slash = 0;
    const char *rel[] = { "", "../", "../share/tilescope/" };
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
      snprintf(path, size, "%s/%s%s/%s", exe, rel[i], folder, file);
      if (readable(path)) {
        snprintf(path, size, "%s/%s%s", exe, rel[i], folder);
        return path;
      }
    }
  }
  /* the source tree it was built from, for developers (TILESCOPE_NO_SOURCE_TREE=1: not, to
   * test an installed copy where that tree is still there) */
  const char *no_src = getenv("TILESCOPE_NO_SOURCE_TREE");
  snprintf(path, size, "%s/%s/%s", TS_SOURCE_DIR, folder, file);
  if (!(no_src && strcmp(no_src, "1") == 0) && readable(path)) {
    snprintf(path, size, "%s/%s", TS_SOURCE_DIR, folder);
    return path;
  }
  if (!quiet)
    fprintf(stderr, "tilescope: %s was not found (set %s)\n", file, env_name);
  return NULL;
}

const char *paths_find_dir(const char *env_name, const char *folder, const char *file,
                           char *path, size_t size)
{
  return find_dir(env_name, folder, file, path, size, 0);
}

const char *paths_find_quiet(const char *env_name, const char *folder, const char *file,
                             char *path, size_t size)
{
  return find_dir(env_name, folder, file, path, size, 1);
}

const char *paths_doc(const char *name, char *path, size_t size)
{
  char dir[PATH_MAX];
  if (!find_dir(NULL, "docs", name, dir, sizeof dir, 1))
    return NULL;
  snprintf(path, size, "%s/%s", dir, name);
  return path;
}

const char *paths_default_asset(void)
{
  static char dir[PATH_MAX], path[PATH_MAX + 16];
  if (!paths_find_dir("TILESCOPE_ASSETS", "assets", "chart.png", dir, sizeof dir))
    return NULL;
  snprintf(path, sizeof path, "%s/chart.png", dir);
  return path;
}

const char *paths_kernels_dir(const char *given)
{
  static char dir[PATH_MAX];
  if (given) {
    snprintf(dir, sizeof dir, "%s/common.cl", given);
    if (!readable(dir)) {
      fprintf(stderr, "tilescope: --kernels '%s': no common.cl there\n", given);
      return NULL;
    }
    snprintf(dir, sizeof dir, "%s", given);
    return dir;
  }
  return paths_find_dir("TILESCOPE_KERNELS", "kernels", "common.cl", dir, sizeof dir);
}
