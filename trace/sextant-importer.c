/*
 * sextant-importer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The OTF2 -> SQLite import, in five steps:
 *
 *  1. resolve the archive (a directory or its anchor file) and its identity
 *     (anchor size and mtime, SHA-256 of the global definitions); a store
 *     whose identity matches is reused unless forced
 *     (sextant-import-files.c);
 *  2. read the global definitions into the store (sextant-import-def-files.c,
 *     sextant-import-defs.c), keeping in memory only what decoding events
 *     needs (regions, communicators -> locations);
 *  3. decode every location independently (sextant-location-decoder.c);
 *  4. match what spans locations: messages (send and receive halves joined
 *     on communicator, sender, receiver, tag and sequence number) and
 *     collective instances (the n-th operation of each member of a
 *     communicator); build the level-of-detail pyramid (sextant-lod.c);
 *  5. write meta and the import log, build indexes, rename the temporary
 *     file into place.
 *
 * This file has the importer object and the run: the steps in order, in
 * this process or a worker's, and the temporary file moved into place.
 * The state of one import is made and freed in sextant-import-state.c.
 * Only the import's files and the decoder talk to libotf2; every
 * OTF2_ErrorCode is turned into a GError that names the file and the
 * problem (_sextant_import_otf2_check()).
 */
#include "config.h"

#include <otf2/OTF2_Pthread_Locks.h>

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/file.h>
#include <unistd.h>

#include "sextant-salvage.h"
#include "sextant-import-private.h"
#include "sextant-importer.h"
#include "sextant-lod.h"

struct _SextantImporter
{
  GObject                parent_instance;

  char                  *archive;        /* as given */
  char                  *anchor;         /* resolved anchor file */
  char                  *db_path;        /* resolved target */
  char                  *worker;         /* the program that imports, or NULL: in this process */
  SextantImportProgress  progress;
  gpointer               progress_data;
  GDestroyNotify         progress_destroy;
  GThread               *closer;         /* closes the archive beside the end of a run */
  char                  *salvage_dir;    /* a crashed recording salvaged into this, or NULL */
  SextantImportShare     share;          /* a parallel import's share, if has_share */
  GArray                *share_locations; /* guint32: the locations the last run decoded */
  guint                  has_share : 1;
  guint                  force : 1;
  guint                  reused : 1;
};

G_DEFINE_FINAL_TYPE (SextantImporter, sextant_importer, G_TYPE_OBJECT)

gboolean
_sextant_import_otf2_check (OTF2_ErrorCode   status,
                            const char      *file,
                            const char      *what,
                            GError         **error)
{
  if (status == OTF2_SUCCESS)
    return TRUE;

  g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
               "%s: %s: %s (%s)", file, what, OTF2_Error_GetName (status),
               OTF2_Error_GetDescription (status));
  return FALSE;
}

static gpointer
close_archive (gpointer reader)
{
  OTF2_Reader_CloseEvtFiles (reader);
  OTF2_Reader_Close (reader);

  return NULL;
}

/* Waits for the thread that closes the archive, if one does. */
static void
join_closer (SextantImporter *self)
{
  if (self->closer != NULL)
    g_thread_join (g_steal_pointer (&self->closer));
}

/* A file descriptor closed when it goes out of scope. */
typedef int LockFd;

static void
lock_fd_clear (LockFd *fd)
{
  if (*fd >= 0)
    close (*fd);
  *fd = -1;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (LockFd, lock_fd_clear)

/* libotf2 clears a buffer of one chunk for every reader it opens: where
 * the archive's files are smaller than its chunks, it reads a view of it
 * that declares smaller ones (sextant-small-chunks.c), unless
 * SEXTANT_IMPORT_FULL_CHUNKS is set (for comparisons). */
static void
open_small_chunks (SextantImport *import,
                   const char    *anchor)
{
  g_autoptr(GError) error = NULL;

  if (g_getenv ("SEXTANT_IMPORT_FULL_CHUNKS") != NULL)
    return;
  import->small_chunks = sextant_small_chunks_new (anchor, &error);
  if (import->small_chunks != NULL)
    g_debug ("libotf2 reads %s: chunks of %" G_GUINT64_FORMAT " bytes of events, %" G_GUINT64_FORMAT " of definitions",
             sextant_small_chunks_get_anchor (import->small_chunks),
             sextant_small_chunks_get_event_chunk (import->small_chunks),
             sextant_small_chunks_get_def_chunk (import->small_chunks));
  else if (error != NULL)
    g_debug ("libotf2 reads the archive's own chunks: %s", error->message);
}

static gboolean
import_archive (SextantImporter               *self,
                const SextantArchiveIdentity  *id,
                const char                    *defs_path,
                const char                    *tmp_path,
                GCancellable                  *cancellable,
                GError                       **error)
{
  g_auto(SextantImport) import;

  _sextant_import_init (&import, self->anchor);
  import.cancellable = cancellable;
  import.progress = self->progress;
  import.progress_data = self->progress_data;

  if (!(import.store = sextant_store_create (tmp_path, error)))
    return FALSE;
  /* the rounds check the cancellable between tasks; the store's statements
   * (the indexes and ANALYZE at the end take seconds on a large trace) stop
   * when it is cancelled */
  sextant_store_set_cancellable (import.store, cancellable);
  import.chunks = sextant_chunk_queue_new (import.store);
  import.blocks = sextant_block_pool_new ();

  open_small_chunks (&import, self->anchor);
  if (!(import.reader = OTF2_Reader_Open (import.small_chunks != NULL
                                          ? sextant_small_chunks_get_anchor (import.small_chunks)
                                          : self->anchor)))
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_ARCHIVE,
                   "%s: not an OTF2 archive (libotf2 cannot open the anchor file)", self->anchor);
      return FALSE;
    }
  /* the locations' events are read by several threads */
  if (OTF2_Pthread_Reader_SetLockingCallbacks (import.reader, NULL) != OTF2_SUCCESS)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                   "%s: cannot make libotf2's reader thread-safe", self->anchor);
      return FALSE;
    }

  if (!sextant_store_begin (import.store, error) ||
      !_sextant_import_read_definitions (&import, self->anchor, defs_path, error))
    return FALSE;
  if (self->has_share)
    {
      import.share = &self->share;
      _sextant_import_plan_share (&import);
      g_clear_pointer (&self->share_locations, g_array_unref);
      self->share_locations = g_array_ref (import.share_locations);
    }
  if (!_sextant_import_read_local_definitions (&import, error))
    return FALSE;
  _sextant_salvage_log (&import);

  if (import.locations->len > 0 &&
      !_sextant_import_otf2_check (OTF2_Reader_OpenEvtFiles (import.reader), self->anchor,
                                   "cannot open the event files", error))
    return FALSE;

  _sextant_lod_plan (&import);
  g_debug ("definitions read: %.3f s", (g_get_monotonic_time () - import.start_usec) / 1e6);

  /* the locations whose rows are buffered at once are those of a batch */
  import.chunk_rows = _sextant_import_plan_chunk_rows (_sextant_import_plan_batch (&import));
  import.matcher = _sextant_matcher_new (&import, import.chunk_rows);
  if (!_sextant_import_decode_events (&import, error))
    return FALSE;

  /* the archive's creator and version go into meta before it closes */
  if (!_sextant_import_write_meta (&import, id, error))
    return FALSE;

  /* Closing the archive frees libotf2's chunks, two per location (0.02 s
   * at 64 locations): a thread of its own does it beside the commit and the
   * move, and the run waits for it at its end. */
  if (import.locations->len > 0)
    self->closer = g_thread_new ("sextant-close", close_archive, g_steal_pointer (&import.reader));
  g_debug ("events decoded and matched: %.3f s", (g_get_monotonic_time () - import.start_usec) / 1e6);

  if (!_sextant_lod_build (&import, error))
    return FALSE;
  g_debug ("level of detail built: %.3f s", (g_get_monotonic_time () - import.start_usec) / 1e6);

  if (!_sextant_import_write_log (&import, error) ||
      !sextant_store_run (import.store, SEXTANT_STMT_META, error, "ti", "import_complete", (gint64)1) ||
      !sextant_store_commit (import.store, error) ||
      !sextant_store_finish_load (import.store, error) ||
      !sextant_store_close (import.store, error))
    return FALSE;
  g_debug ("indexed and closed: %.3f s", (g_get_monotonic_time () - import.start_usec) / 1e6);

  if (import.progress != NULL)
    {
      double elapsed = (g_get_monotonic_time () - import.start_usec) / (double)G_USEC_PER_SEC;

      import.progress (1.0, elapsed > 0 ? import.events_read / elapsed : 0, import.progress_data);
    }

  return TRUE;
}

/* SextantImporter ----------------------------------------------------------- */

G_LOCK_DEFINE_STATIC (default_worker);
static char *default_worker;

static void
sextant_importer_finalize (GObject *object)
{
  SextantImporter *self = (SextantImporter *)object;

  join_closer (self);
  _sextant_salvage_remove (&self->salvage_dir);
  if (self->progress_destroy != NULL)
    self->progress_destroy (self->progress_data);
  g_clear_pointer (&self->archive, g_free);
  g_clear_pointer (&self->anchor, g_free);
  g_clear_pointer (&self->share_locations, g_array_unref);
  g_clear_pointer (&self->db_path, g_free);
  g_clear_pointer (&self->worker, g_free);

  G_OBJECT_CLASS (sextant_importer_parent_class)->finalize (object);
}

static void
sextant_importer_class_init (SextantImporterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sextant_importer_finalize;
}

static void
sextant_importer_init (SextantImporter *self)
{
}

/**
 * sextant_importer_new:
 * @archive: an OTF2 anchor file or the directory that holds it
 * @db_path: (nullable): the store to write; %NULL for the default beside
 *   the anchor (see sextant_archive_default_db_path())
 */
SextantImporter *
sextant_importer_new (const char *archive,
                      const char *db_path)
{
  SextantImporter *self;

  g_return_val_if_fail (archive != NULL, NULL);

  self = g_object_new (SEXTANT_TYPE_IMPORTER, NULL);
  self->archive = g_strdup (archive);
  self->db_path = g_strdup (db_path);
  G_LOCK (default_worker);
  self->worker = g_strdup (default_worker);
  G_UNLOCK (default_worker);

  return self;
}

/* Re-import even if the store is current. */
void
sextant_importer_set_force (SextantImporter *self,
                            gboolean         force)
{
  g_return_if_fail (SEXTANT_IS_IMPORTER (self));

  self->force = !!force;
}

/**
 * sextant_importer_set_default_worker:
 * @program: (nullable): the `sextant` executable, or %NULL
 *
 * The worker (see sextant_importer_set_worker()) of the importers made from
 * now on in this process: the window sets it to its own executable.
 */
void
sextant_importer_set_default_worker (const char *program)
{
  G_LOCK (default_worker);
  g_free (default_worker);
  default_worker = g_strdup (program);
  G_UNLOCK (default_worker);
}

/**
 * sextant_importer_set_worker:
 * @program: (nullable): the `sextant` executable, or %NULL
 *
 * Has sextant_importer_run() import in a worker process, `@program import
 * --worker-into TMP ARCHIVE`, that it watches: a crash or a hang in libotf2
 * on a damaged archive then ends the import with an error instead of the
 * calling process, and cancelling stops it at once (see
 * sextant-import-worker.c). %NULL (the default) imports in this process.
 */
void
sextant_importer_set_worker (SextantImporter *self,
                             const char      *program)
{
  g_return_if_fail (SEXTANT_IS_IMPORTER (self));

  g_free (self->worker);
  self->worker = g_strdup (program);
}

void
sextant_importer_set_progress_func (SextantImporter       *self,
                                    SextantImportProgress  func,
                                    gpointer               user_data,
                                    GDestroyNotify         destroy)
{
  g_return_if_fail (SEXTANT_IS_IMPORTER (self));

  if (self->progress_destroy != NULL)
    self->progress_destroy (self->progress_data);
  self->progress = func;
  self->progress_data = user_data;
  self->progress_destroy = destroy;
}

/* Valid after sextant_importer_run() resolved it (even if it failed later). */
const char *
sextant_importer_get_db_path (SextantImporter *self)
{
  g_return_val_if_fail (SEXTANT_IS_IMPORTER (self), NULL);

  return self->db_path;
}

/* The anchor file; for a crashed recording that was salvaged, the
 * recording's directory (the salvaged anchor is temporary). */
const char *
sextant_importer_get_anchor_path (SextantImporter *self)
{
  g_return_val_if_fail (SEXTANT_IS_IMPORTER (self), NULL);

  return self->salvage_dir != NULL ? self->archive : self->anchor;
}

/* Whether the last run found the store current and did not import. */
gboolean
sextant_importer_get_reused (SextantImporter *self)
{
  g_return_val_if_fail (SEXTANT_IS_IMPORTER (self), FALSE);

  return self->reused;
}

/* The anchor, its definitions' path and the archive's identity. */
static gboolean
resolve_archive (SextantImporter         *self,
                 SextantArchiveIdentity  *id,
                 char                   **defs_path,
                 GError                 **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;

  g_clear_pointer (&self->anchor, g_free);
  _sextant_salvage_remove (&self->salvage_dir);
  if (_sextant_salvage_needed (self->archive))
    {
      /* a crashed recording: the store goes where its anchor would be */
      if (!(self->anchor = _sextant_salvage_archive (self->archive, &self->salvage_dir, error)))
        return FALSE;
      if (self->db_path == NULL)
        self->db_path = g_build_filename (self->archive, "traces.sextant.db", NULL);
    }
  else if (!(self->anchor = sextant_archive_find_anchor (self->archive, error)))
    return FALSE;

  dir = g_path_get_dirname (self->anchor);
  base = _sextant_import_anchor_base_name (self->anchor);
  *defs_path = g_strconcat (dir, G_DIR_SEPARATOR_S, base, ".def", NULL);

  if (!_sextant_import_read_identity (self->anchor, *defs_path, id, error))
    return FALSE;
  if (self->salvage_dir != NULL)
    {
      /* the store names the recording, not the temporary copy */
      g_free (id->anchor_abs);
      id->anchor_abs = g_canonicalize_filename (self->archive, NULL);
    }
  return TRUE;
}

/**
 * sextant_importer_set_share:
 * @share: (nullable): the rank's share of a parallel import, %NULL for all
 *
 * Makes the runs import only @share's locations (parallel/): see
 * sextant-import-share.h.
 */
void
sextant_importer_set_share (SextantImporter          *self,
                            const SextantImportShare *share)
{
  g_return_if_fail (SEXTANT_IS_IMPORTER (self));

  self->has_share = share != NULL;
  if (share != NULL)
    self->share = *share;
}

/**
 * sextant_importer_get_share_locations:
 *
 * Returns: (transfer none) (nullable): the location ids (guint32, ascending)
 * the last run with a share decoded
 */
GArray *
sextant_importer_get_share_locations (SextantImporter *self)
{
  g_return_val_if_fail (SEXTANT_IS_IMPORTER (self), NULL);

  return self->share_locations;
}

/**
 * sextant_importer_run_into:
 * @path: an empty file the caller created
 *
 * The worker's side of sextant_importer_set_worker(): imports the archive
 * into @path and leaves it there, complete or not; the caller removes it
 * after a failure.
 */
gboolean
sextant_importer_run_into (SextantImporter  *self,
                           const char       *path,
                           GCancellable     *cancellable,
                           GError          **error)
{
  g_auto(SextantArchiveIdentity) id = { NULL };
  g_autofree char *defs_path = NULL;
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_IMPORTER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!resolve_archive (self, &id, &defs_path, error))
    return FALSE;
  ok = import_archive (self, &id, defs_path, path, cancellable, error);
  join_closer (self);

  return ok;
}

/**
 * sextant_importer_run:
 *
 * Imports the archive, or leaves a current store alone (see
 * sextant_importer_get_reused()). On failure or cancellation no store and
 * no temporary file is left behind and an existing store is untouched.
 */
gboolean
sextant_importer_run (SextantImporter  *self,
                      GCancellable     *cancellable,
                      GError          **error)
{
  g_auto(SextantArchiveIdentity) id = { NULL };
  g_autofree char *defs_path = NULL;
  g_autofree char *tmp_path = NULL;
  g_autofree char *old_path = NULL;
  g_autoptr(GError) local_error = NULL;
  g_auto(LockFd) fd = -1;
  gboolean moved_aside;
  gint64 rename_start;

  g_return_val_if_fail (SEXTANT_IS_IMPORTER (self), FALSE);

  self->reused = FALSE;
  if (!resolve_archive (self, &id, &defs_path, error))
    return FALSE;
  if (self->db_path == NULL)
    self->db_path = sextant_archive_default_db_path (self->anchor);
  _sextant_import_remove_stale_temporaries (self->db_path);

  if (!self->force && _sextant_import_store_is_current (self->db_path, &id))
    {
      self->reused = TRUE;
      return TRUE;
    }

  tmp_path = g_strconcat (self->db_path, ".XXXXXX", NULL);
  /* 0666 less the umask, as SQLite creates a database: the store is a file
   * the user shares like the archive (g_mkstemp()'s 0600 is for secrets) */
  if ((fd = g_mkstemp_full (tmp_path, O_RDWR | O_CLOEXEC, 0666)) < 0)
    {
      int errsv = errno;

      g_set_error (error, SEXTANT_TRACE_ERROR,
                   errsv == ENOSPC ? SEXTANT_TRACE_ERROR_NO_SPACE : SEXTANT_TRACE_ERROR_STORE,
                   "%s: cannot create the database: %s", self->db_path, g_strerror (errsv));
      return FALSE;
    }
  /* held until this function returns: marks the temporary files as a live
   * import's (see _sextant_import_remove_stale_temporaries()) */
  flock (fd, LOCK_EX);

  if (self->worker != NULL
      ? !_sextant_import_in_worker (self->worker, self->anchor, tmp_path, self->progress, self->progress_data,
                                    cancellable, &local_error)
      : !import_archive (self, &id, defs_path, tmp_path, cancellable, &local_error))
    {
      join_closer (self);
      sextant_store_remove_files (tmp_path);
      /* the store's message names the temporary file */
      if (g_error_matches (local_error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NO_SPACE))
        g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NO_SPACE,
                     "%s: no space left on device; nothing was written", self->db_path);
      else if (g_error_matches (local_error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_FILE_LIMIT))
        g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_FILE_LIMIT,
                     "%s: the file size limit was reached (ulimit -f); nothing was written", self->db_path);
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  /* The new store takes the old one's place in one step: the two names are
   * exchanged (renameat2), so at every moment the store's name holds a
   * complete store, and then the old one, now at the temporary name, is
   * removed (a killed import leaves it to
   * _sextant_import_remove_stale_temporaries()).
   * Renaming over an existing file would also have ext4 (auto_da_alloc)
   * write the new file's delayed blocks out: 0.07-0.15 s for 100 MB, more
   * than the commit; a store is derived from the archive and not synced.
   * Where the file system cannot exchange, the old store is moved aside
   * first and back if the new one cannot take its place. */
  rename_start = g_get_monotonic_time ();
  if (renameat2 (AT_FDCWD, tmp_path, AT_FDCWD, self->db_path, RENAME_EXCHANGE) == 0)
    sextant_store_remove_files (tmp_path);
  else
    {
      old_path = g_strconcat (tmp_path, "-old", NULL);
      moved_aside = g_rename (self->db_path, old_path) == 0;
      if (g_rename (tmp_path, self->db_path) != 0)
        {
          int errsv = errno;

          if (moved_aside)
            g_rename (old_path, self->db_path);
          join_closer (self);
          sextant_store_remove_files (tmp_path);
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                       "%s: cannot move the finished database into place: %s",
                       self->db_path, g_strerror (errsv));
          return FALSE;
        }
      if (moved_aside)
        g_unlink (old_path);
    }

  /* An older store's WAL must not be replayed into the new file. */
  {
    g_autofree char *wal = g_strconcat (self->db_path, "-wal", NULL);
    g_autofree char *shm = g_strconcat (self->db_path, "-shm", NULL);

    g_unlink (wal);
    g_unlink (shm);
  }
  /* replacing a store frees the old file's blocks and cached pages */
  g_debug ("moved into place: %.3f s", (g_get_monotonic_time () - rename_start) / (double)G_USEC_PER_SEC);
  join_closer (self);

  return TRUE;
}

static void
run_worker (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  g_autoptr(GError) error = NULL;

  if (!sextant_importer_run (source_object, cancellable, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * sextant_importer_run_async:
 *
 * Runs the import in a worker thread. The progress function is called in
 * that thread; marshal to the main context before touching widgets.
 */
void
sextant_importer_run_async (SextantImporter     *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SEXTANT_IS_IMPORTER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sextant_importer_run_async);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, run_worker);
}

gboolean
sextant_importer_run_finish (SextantImporter  *self,
                             GAsyncResult     *result,
                             GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
