/*
 * sextant-manifest-lock.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The analysis lock of a manifest (sextant-manifest-lock.h): flock() on the
 * directory of its shards, exclusive and without waiting. Not on the
 * manifest file itself: where flock() is emulated by fcntl() locks (NFS),
 * those would meet SQLite's own on the same file. The kernel drops the
 * lock when its holder dies, so a killed analysis leaves none behind. A
 * file system without flock() (ENOLCK, EOPNOTSUPP) gets no lock, only a
 * debug message: the analysis runs as it did without one.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "sextant-manifest-lock.h"
#include "sextant-store-shards.h"
#include "sextant-trace-error.h"

struct _SextantManifestLock
{
  int        fd;       /* the shards' directory, locked; -1: no lock taken */
  GPtrArray *shards;   /* their paths, as checked under the lock */
};

/**
 * sextant_manifest_lock_take:
 * @manifest: an open manifest
 *
 * Locks @manifest's shards for an analysis until
 * sextant_manifest_lock_release().
 *
 * Returns: the lock, or %NULL with @error set: the shards cannot be
 *   listed, another process analyses the manifest
 *   (%SEXTANT_TRACE_ERROR_BUSY), or a shard is missing or changed since
 *   the import or the last analysis recorded it, and not by an analysis
 *   that did not finish (sextant_store_list_shards_to_analyse()).
 */
SextantManifestLock *
sextant_manifest_lock_take (SextantStore  *manifest,
                            GError       **error)
{
  g_autoptr(GPtrArray) paths = sextant_store_list_shards_unchecked (manifest, error);
  g_autofree char *dir = NULL;
  SextantManifestLock *self;
  int fd;

  if (paths == NULL)
    return NULL;
  self = g_new0 (SextantManifestLock, 1);
  self->fd = -1;
  if (paths->len == 0)
    {
      self->shards = g_steal_pointer (&paths);
      return self;
    }

  dir = g_path_get_dirname (g_ptr_array_index (paths, 0));
  fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_FOUND, "%s: cannot open the shards' "
                   "directory %s: %s", sextant_store_get_path (manifest), dir, g_strerror (saved));
      g_free (self);
      return NULL;
    }
  if (flock (fd, LOCK_EX | LOCK_NB) == 0)
    self->fd = fd;
  else if (errno == EWOULDBLOCK)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_BUSY,
                   "%s: another analysis of this manifest is running (it writes into the same shards): "
                   "wait until it ends", sextant_store_get_path (manifest));
      close (fd);
      g_free (self);
      return NULL;
    }
  else
    {
      g_debug ("%s: no lock on %s (%s): analysed without one", sextant_store_get_path (manifest), dir,
               g_strerror (errno));
      close (fd);
    }

  /* under the lock: the shards as recorded, or as an analysis that did not
   * finish left them */
  if (!(self->shards = sextant_store_list_shards_to_analyse (manifest, error)))
    {
      sextant_manifest_lock_release (self);
      return NULL;
    }

  return self;
}

/**
 * sextant_manifest_lock_get_shards:
 *
 * Returns: (transfer none) (element-type filename): the paths of the
 *   shards, as sextant_manifest_lock_take() checked them under the lock
 */
GPtrArray *
sextant_manifest_lock_get_shards (SextantManifestLock *self)
{
  return self->shards;
}

void
sextant_manifest_lock_release (SextantManifestLock *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    close (self->fd);   /* drops the lock */
  g_clear_pointer (&self->shards, g_ptr_array_unref);
  g_free (self);
}
