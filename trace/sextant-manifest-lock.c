/*
 * sextant-manifest-lock.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The analysis lock of a manifest (sextant-manifest-lock.h): flock() on the
 * directory of its shards: exclusive for an analysis, shared for a reader
 * (sextant_store_open() of a manifest, until the store is freed), neither
 * waiting for an analysis; an analysis waits for the readers. Not on the
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
#include "sextant-store-connection-private.h"
#include "sextant-store-shards.h"
#include "sextant-trace-error.h"

struct _SextantManifestLock
{
  int           fd;       /* the shards' directory, locked; -1: no lock taken */
  GPtrArray    *shards;   /* their paths, as checked under the lock */
  SextantStore *manifest; /* an analysis's: kept reading under the lock, shared,
                           * once it is released (a weak pointer), or NULL */
};

/* How long an analysis waits for the readers that hold the shared lock */
#define READERS_WAIT_USEC (30 * G_USEC_PER_SEC)

/* The shards' directory of @paths (the manifest's shards), opened to be
 * locked; -1 with errno set when it cannot be */
static int
open_dir (GPtrArray *paths)
{
  g_autofree char *dir = g_path_get_dirname (g_ptr_array_index (paths, 0));

  return g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
}

/* flock (@fd, LOCK_EX) for an analysis: 0, or the errno of the failure;
 * while readers only hold the lock (a shared lock is still granted), it
 * waits for them, polling (flock() would wait, but a reader that starts
 * meanwhile gets its shared lock all the same), ETIMEDOUT after
 * READERS_WAIT_USEC */
static int
lock_exclusive (int        fd,
                GPtrArray *paths)
{
  gint64 deadline = g_get_monotonic_time () + READERS_WAIT_USEC;

  for (;;)
    {
      int probe;
      gboolean readers;

      if (flock (fd, LOCK_EX | LOCK_NB) == 0)
        return 0;
      if (errno != EWOULDBLOCK)
        return errno;
      if ((probe = open_dir (paths)) < 0)
        return errno;
      readers = flock (probe, LOCK_SH | LOCK_NB) == 0;
      close (probe);   /* drops the probe's lock */
      if (!readers)
        return EWOULDBLOCK;
      if (g_get_monotonic_time () > deadline)
        return ETIMEDOUT;
      g_usleep (10000);
    }
}

/* The lock of @manifest's shards, shared (@exclusive FALSE) or not; the
 * shards' paths, checked under it as @check lists them */
static SextantManifestLock *
take (SextantStore   *manifest,
      gboolean        exclusive,
      GPtrArray    *(*check) (SextantStore *manifest, GError **error),
      GError        **error)
{
  g_autoptr(GPtrArray) paths = sextant_store_list_shards_unchecked (manifest, error);
  const char *path = sextant_store_get_path (manifest);
  SextantManifestLock *self;
  int fd;
  int failed;

  if (paths == NULL)
    return NULL;
  self = g_new0 (SextantManifestLock, 1);
  self->fd = -1;
  if (paths->len == 0)
    {
      self->shards = g_steal_pointer (&paths);
      return self;
    }

  fd = open_dir (paths);
  if (fd < 0 && !exclusive)
    /* the check below names the missing shard */
    failed = errno;
  else if (fd < 0)
    {
      int saved = errno;
      g_autofree char *dir = g_path_get_dirname (g_ptr_array_index (paths, 0));

      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_FOUND, "%s: cannot open the shards' "
                   "directory %s: %s", path, dir, g_strerror (saved));
      g_free (self);
      return NULL;
    }
  else if ((failed = exclusive ? lock_exclusive (fd, paths)
                               : flock (fd, LOCK_SH | LOCK_NB) == 0 ? 0 : errno) == 0)
    self->fd = fd;
  else if (failed == EWOULDBLOCK || failed == ETIMEDOUT)
    {
      if (!exclusive)
        g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_BUSY,
                     "%s: an analysis of this manifest is running (it writes into its shards): wait until it ends",
                     path);
      else if (failed == EWOULDBLOCK)
        g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_BUSY,
                     "%s: another analysis of this manifest is running (it writes into the same shards): "
                     "wait until it ends", path);
      else
        g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_BUSY,
                     "%s: readers of this manifest (sextant info, report, tree, matrix, a window opening it) "
                     "kept it open for %d s: analyse it when they end", path,
                     (int)(READERS_WAIT_USEC / G_USEC_PER_SEC));
      close (fd);
      g_free (self);
      return NULL;
    }
  if (failed != 0)
    {
      g_debug ("%s: no lock on the shards' directory (%s): %s without one", path, g_strerror (failed),
               exclusive ? "analysed" : "read");
      if (fd >= 0)
        close (fd);
    }

  /* under the lock */
  if (!(self->shards = check (manifest, error)))
    {
      sextant_manifest_lock_release (self);
      return NULL;
    }

  return self;
}

/**
 * sextant_manifest_lock_take:
 * @manifest: an open manifest
 *
 * Locks @manifest's shards for an analysis until
 * sextant_manifest_lock_release(). A reader's lock that @manifest holds
 * itself (sextant_store_open()) is dropped first; other readers are
 * waited for, 30 s at most.
 *
 * Returns: the lock, or %NULL with @error set: the shards cannot be
 *   listed, another process analyses the manifest, or readers kept it
 *   (%SEXTANT_TRACE_ERROR_BUSY), or a shard is missing or changed since
 *   the import or the last analysis recorded it, and not by an analysis
 *   that did not finish (sextant_store_list_shards_to_analyse()).
 */
SextantManifestLock *
sextant_manifest_lock_take (SextantStore  *manifest,
                            GError       **error)
{
  SextantManifestLock *self;

  /* (two locks of one process on two descriptors exclude each other) */
  if (manifest->shards != NULL)
    sextant_shard_union_keep_lock (manifest->shards, NULL);
  if ((self = take (manifest, TRUE, sextant_store_list_shards_to_analyse, error)) != NULL &&
      manifest->shards != NULL)
    {
      self->manifest = manifest;
      g_object_add_weak_pointer (G_OBJECT (manifest), (gpointer *)&self->manifest);
    }

  return self;
}

/**
 * sextant_manifest_lock_take_read:
 * @manifest: a manifest being opened
 *
 * The reader's lock, shared: while it is held no analysis writes into
 * the shards, so that what a reader reads of them (each opened at its
 * first read) is one analysis's, whole.
 *
 * Returns: the lock, or %NULL with @error set: an analysis of the
 *   manifest is running (%SEXTANT_TRACE_ERROR_BUSY), or a shard is
 *   missing or changed, or the last analysis did not finish
 *   (sextant_store_list_shards())
 */
SextantManifestLock *
sextant_manifest_lock_take_read (SextantStore  *manifest,
                                 GError       **error)
{
  return take (manifest, FALSE, sextant_store_list_shards, error);
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

/**
 * sextant_manifest_lock_release:
 *
 * Drops the lock. An analysis's lock (sextant_manifest_lock_take())
 * becomes the reader's lock of its manifest, if that is still open:
 * what it reads next (`sextant analyze --json`, a report) is that
 * analysis's, not one that another process starts meanwhile.
 */
void
sextant_manifest_lock_release (SextantManifestLock *self)
{
  if (self == NULL)
    return;
  if (self->manifest != NULL)
    {
      SextantStore *manifest = g_steal_pointer (&self->manifest);

      g_object_remove_weak_pointer (G_OBJECT (manifest), (gpointer *)&self->manifest);
      /* (a lock held exclusive conflicts with no other: the change to
       * shared does not wait, and no analysis comes between) */
      if (self->fd >= 0 && flock (self->fd, LOCK_SH | LOCK_NB) == 0)
        {
          sextant_shard_union_keep_lock (manifest->shards, self);
          return;
        }
    }
  if (self->fd >= 0)
    close (self->fd);   /* drops the lock */
  g_clear_pointer (&self->shards, g_ptr_array_unref);
  g_free (self);
}
