/*
 * sextant-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The trace store object: its errors, cancelling, transactions and
 * closing, and what the other files of trace/ reach of its connection.
 * All SQL of Sextant lives in the store's statements
 * (sextant-store-sql.c), in the typed readers of the other
 * sextant-store-*.c files (through sextant_store_foreach_sql()), in the
 * schema resources and in the pattern catalogue. The store object is split
 * by what it does (sextant-store-connection-private.h): creating and
 * opening a file in sextant-store-open.c, the store's own statements in
 * sextant-store-statements.c, reading rows in sextant-store-queries.c.
 *
 * Cancelling: sextant_store_set_cancellable() connects the cancellable to
 * sqlite3_interrupt(), which stops the statements running on the connection
 * from whatever thread cancels; a progress handler (every PROGRESS_OPS
 * virtual machine instructions) catches the statements that start just
 * after the cancellation, which sqlite3_interrupt() would miss, and the
 * column tables check between chunks (their scans run in C, beside the
 * virtual machine). A statement stopped that way fails with
 * G_IO_ERROR_CANCELLED; an interrupted write rolls its transaction back.
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <sys/resource.h>
#include <sys/statvfs.h>

#include "sextant-store-connection-private.h"
#include "sextant-store-shard-reads.h"

const char * const sextant_category_names[SEXTANT_N_CATEGORIES] = {
  "MPI", "RMA", "USER", "OMP", "THREAD", "IO", "ACCEL", "OTHER",
};

G_DEFINE_FINAL_TYPE (SextantStore, sextant_store, G_TYPE_OBJECT)


/* Virtual machine instructions between two checks of the cancellable: a
 * check is an atomic read, and 1000 instructions take a few microseconds. */
#define PROGRESS_OPS 1000

void
_sextant_store_set_cancelled (GError **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
}

/* Why a write failed, when SQLite's errno is gone (it often is: the error
 * surfaces on a later statement): a file size limit (ulimit -f; the
 * process ignores SIGXFSZ, see app/main.c) that the store reached, or a full
 * file system. 0 when neither holds. */
static int
write_failure_errno (const char *path)
{
  struct rlimit limit;
  struct statvfs fs;
  GStatBuf st;

  if (getrlimit (RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      g_stat (path, &st) == 0 && (guint64)st.st_size + 65536 >= (guint64)limit.rlim_cur)
    return EFBIG;
  if (statvfs (path, &fs) == 0 && (guint64)fs.f_bavail * fs.f_frsize < 1024 * 1024)
    return ENOSPC;

  return 0;
}

static void
set_error_from_db (SextantStore  *self,
                   int            rc,
                   const char    *what,
                   GError       **error)
{
  int primary = rc & 0xff;
  /* a failed write (SQLITE_IOERR_WRITE and kin) keeps the system's errno */
  int errsv = self->db != NULL && primary == SQLITE_IOERR ? sqlite3_system_errno (self->db) : 0;

  if (primary == SQLITE_IOERR && errsv != ENOSPC && errsv != EDQUOT && errsv != EFBIG && self->path != NULL)
    errsv = write_failure_errno (self->path);

  if (primary == SQLITE_INTERRUPT)
    _sextant_store_set_cancelled (error);
  else if (primary == SQLITE_FULL || errsv == ENOSPC || errsv == EDQUOT)
    g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NO_SPACE,
                 "%s: no space left on device (%s)", self->path, what);
  else if (errsv == EFBIG)
    g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_FILE_LIMIT,
                 "%s: the file size limit was reached (ulimit -f) (%s)", self->path, what);
  else if (primary == SQLITE_CONSTRAINT)
    g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_DUPLICATE,
                 "%s: %s", what, sqlite3_errmsg (self->db));
  else if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT)
    g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA,
                 "%s: not a Sextant trace store (%s)", self->path, sqlite3_errstr (rc));
  else
    g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                 "%s: %s: %s", self->path, what,
                 self->db != NULL ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc));
}

/* Whether a statement may start: the store is open and its cancellable
 * not cancelled (sqlite3_interrupt() does not reach a statement that
 * starts after it). */
gboolean
_sextant_store_check_usable (SextantStore  *self,
                             GError       **error)
{
  if (self->db == NULL)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE, "%s: the store is closed", self->path);
      return FALSE;
    }

  return !g_cancellable_set_error_if_cancelled (self->cancellable, error);
}

static gboolean
exec_sql (SextantStore  *self,
          const char    *sql,
          GError       **error)
{
  int rc = sqlite3_exec (self->db, sql, NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    {
      set_error_from_db (self, rc, "executing SQL", error);
      return FALSE;
    }

  return TRUE;
}

/* The cancellable's handler, in the thread that cancels. */
static void
interrupt_db (GCancellable *cancellable,
              gpointer      user_data)
{
  SextantStore *self = user_data;

  /* safe from any thread; sextant_store_close() and the finalizer
   * disconnect (which waits for a running handler) before closing db */
  if (self->db != NULL)
    sqlite3_interrupt (self->db);
}

/* SQLite's progress handler: a non-zero return interrupts the statement. */
static int
progress_check (void *user_data)
{
  SextantStore *self = user_data;

  return g_cancellable_is_cancelled (self->cancellable);
}

static void
disconnect_cancellable (SextantStore *self)
{
  if (self->cancellable == NULL)
    return;

  g_cancellable_disconnect (self->cancellable, self->cancelled_id);
  self->cancelled_id = 0;
  g_clear_object (&self->cancellable);
  if (self->db != NULL)
    sqlite3_progress_handler (self->db, 0, NULL, NULL);
}

/**
 * sextant_store_set_cancellable:
 * @cancellable: (nullable): what stops the store's statements, or %NULL
 *   for none
 *
 * From now on, cancelling @cancellable (from any thread) stops the
 * statement the store's connection runs, and every statement it starts
 * while @cancellable stays cancelled: each fails with
 * %G_IO_ERROR_CANCELLED, and an interrupted write rolls its transaction
 * back. Replaces the cancellable set before; %NULL removes it.
 *
 * Threading: called by the thread that owns the store, while no statement
 * runs.
 */
void
sextant_store_set_cancellable (SextantStore *self,
                               GCancellable *cancellable)
{
  g_return_if_fail (SEXTANT_IS_STORE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  if (cancellable == self->cancellable)
    return;

  disconnect_cancellable (self);
  if (cancellable == NULL || self->db == NULL)
    return;

  self->cancellable = g_object_ref (cancellable);
  sqlite3_progress_handler (self->db, PROGRESS_OPS, progress_check, self);
  /* runs interrupt_db at once if it is cancelled already (a no-op then:
   * no statement runs; the progress handler and the checks before each
   * statement do it) */
  self->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (interrupt_db), self, NULL);
}

/**
 * sextant_store_get_cancellable:
 *
 * Returns: (transfer none) (nullable): the cancellable set with
 *   sextant_store_set_cancellable()
 */
GCancellable *
sextant_store_get_cancellable (SextantStore *self)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  return self->cancellable;
}

/**
 * sextant_store_set_error_if_cancelled:
 *
 * Returns: %TRUE, with @error set to %G_IO_ERROR_CANCELLED, if the store's
 *   cancellable is cancelled
 */
gboolean
sextant_store_set_error_if_cancelled (SextantStore  *self,
                                      GError       **error)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);

  return g_cancellable_set_error_if_cancelled (self->cancellable, error);
}

static void
sextant_store_finalize (GObject *object)
{
  SextantStore *self = (SextantStore *)object;

  disconnect_cancellable (self);
  for (guint i = 0; i < SEXTANT_N_STMTS; i++)
    g_clear_pointer (&self->stmts[i], sqlite3_finalize);
  g_clear_pointer (&self->db, sqlite3_close);
  g_clear_pointer (&self->shards, sextant_shard_union_free);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->materialized, g_hash_table_unref);
  g_clear_pointer (&self->shared_views, sextant_shared_views_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (sextant_store_parent_class)->finalize (object);
}

static void
sextant_store_class_init (SextantStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sextant_store_finalize;
}

static void
sextant_store_init (SextantStore *self)
{
  g_mutex_init (&self->lock);
  self->materialized = g_hash_table_new (g_str_hash, g_str_equal);
}

/**
 * sextant_store_get_path:
 *
 * Threading: any thread (the path never changes).
 *
 * Returns: (transfer none) (type filename): the file the store was opened
 *   or created at
 */
const char *
sextant_store_get_path (SextantStore *self)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  return self->path;
}

/**
 * sextant_store_close:
 *
 * Finalizes the statements and closes the file, reporting a failure that
 * dropping the last reference would only log; removes the cancellable.
 * The object stays valid but unusable: every later call but
 * sextant_store_get_path() and sextant_store_close() fails. Closing a
 * closed store does nothing. Dropping the last reference closes it too.
 *
 * Threading: the store's owning thread.
 *
 * Returns: %TRUE, or %FALSE with @error set (%SEXTANT_TRACE_ERROR_STORE)
 */
gboolean
sextant_store_close (SextantStore  *self,
                     GError       **error)
{
  int rc;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);

  disconnect_cancellable (self);
  for (guint i = 0; i < SEXTANT_N_STMTS; i++)
    g_clear_pointer (&self->stmts[i], sqlite3_finalize);

  if (self->db == NULL)
    return TRUE;

  rc = sqlite3_close (self->db);
  if (rc != SQLITE_OK)
    {
      set_error_from_db (self, rc, "closing the database", error);
      return FALSE;
    }
  self->db = NULL;
  g_clear_pointer (&self->shards, sextant_shard_union_free);

  return TRUE;
}

/* Runs COMMIT or ROLLBACK without the progress handler: a cancellation
 * that comes after the last statement of a transaction does not split its
 * end (sqlite3_interrupt() can still stop a COMMIT that is under way; then
 * it fails and the transaction is rolled back). */
static int
exec_uninterrupted (SextantStore *self,
                    const char   *sql)
{
  int rc;

  if (self->cancellable != NULL)
    sqlite3_progress_handler (self->db, 0, NULL, NULL);
  rc = sqlite3_exec (self->db, sql, NULL, NULL, NULL);
  if (self->cancellable != NULL)
    sqlite3_progress_handler (self->db, PROGRESS_OPS, progress_check, self);

  return rc;
}

/**
 * sextant_store_begin:
 *
 * Starts a transaction (one at a time). Fails with %G_IO_ERROR_CANCELLED if
 * the store's cancellable is cancelled.
 */
gboolean
sextant_store_begin (SextantStore  *self,
                     GError       **error)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (!self->in_transaction, FALSE);

  if (!_sextant_store_check_usable (self, error) || !exec_sql (self, "BEGIN", error))
    return FALSE;
  self->in_transaction = TRUE;

  return TRUE;
}

/**
 * sextant_store_commit:
 *
 * Commits the transaction sextant_store_begin() started. On failure the
 * transaction is rolled back: either all of it is in the file or none.
 */
gboolean
sextant_store_commit (SextantStore  *self,
                      GError       **error)
{
  int rc;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (self->in_transaction, FALSE);

  self->in_transaction = FALSE;
  rc = exec_uninterrupted (self, "COMMIT");
  if (rc != SQLITE_OK)
    {
      set_error_from_db (self, rc, "committing", error);
      if (!sqlite3_get_autocommit (self->db))
        exec_uninterrupted (self, "ROLLBACK");
      return FALSE;
    }

  return TRUE;
}

/* Abandons the open transaction, if any (an interrupted write has rolled
 * it back already); never fails. */
void
sextant_store_rollback (SextantStore *self)
{
  g_return_if_fail (SEXTANT_IS_STORE (self));

  if (self->in_transaction && !sqlite3_get_autocommit (self->db))
    exec_uninterrupted (self, "ROLLBACK");
  self->in_transaction = FALSE;
}

SextantShardUnion *
_sextant_store_get_shard_union (SextantStore *self)
{
  return self->shards;
}

/* For the shared views computed in other files (sextant-store-views-private.h) */
sqlite3 *
_sextant_store_get_db (SextantStore *self)
{
  return self->db;
}

SextantColumnModule *
_sextant_store_get_columns (SextantStore *self)
{
  return self->columns;
}

GHashTable *
_sextant_store_get_materialized (SextantStore *self)
{
  return self->materialized;
}

SextantSharedViews *
_sextant_store_get_shared_views (SextantStore *self)
{
  return self->shared_views;
}

gboolean
_sextant_store_exec_sql (SextantStore  *self,
                         const char    *sql,
                         GError       **error)
{
  return exec_sql (self, sql, error);
}

void
_sextant_store_set_error_from_db (SextantStore  *self,
                                  int            rc,
                                  const char    *what,
                                  GError       **error)
{
  set_error_from_db (self, rc, what, error);
}

/**
 * sextant_store_set_shared_views:
 * @views: (nullable): the shared views of an analysis
 *
 * Makes sextant_store_materialize_views() compute each view at most once
 * among the connections given the same @views: a view that another
 * connection computes or has computed is waited for and read from its
 * chunks.
 *
 * Threading: the store's owning thread.
 */
void
sextant_store_set_shared_views (SextantStore       *self,
                                SextantSharedViews *views)
{
  g_return_if_fail (SEXTANT_IS_STORE (self));

  g_clear_pointer (&self->shared_views, sextant_shared_views_unref);
  if (views != NULL)
    self->shared_views = sextant_shared_views_ref (views);
}
