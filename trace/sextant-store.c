/*
 * sextant-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The trace store: its connection, statements, transactions and chunk
 * writes. All SQL of Sextant lives in the store's statements
 * (sextant-store-sql.c), in the typed readers of the other
 * sextant-store-*.c files (through sextant_store_foreach_sql()), in the
 * schema resources and in the pattern catalogue. Two ways in:
 *
 *  - sextant_store_create() makes a new file for a bulk load: journal and
 *    fsync off (the importer writes a temporary file and renames it only when
 *    complete, so a crash loses nothing but the temporary file) and no
 *    indexes until sextant_store_finish_load(), which builds them and
 *    switches the file to WAL.
 *  - sextant_store_open() opens a finished store and checks its schema version.
 *
 * Both register the "sextant_columns" module on the connection: the big
 * event tables (visit, message, collective_member, lod) are column chunks
 * written with sextant_store_write_chunk(), a row per thousands of events,
 * and read as ordinary tables through that module (sextant-column-table.c).
 *
 * Cancelling: sextant_store_set_cancellable() connects the cancellable to
 * sqlite3_interrupt(), which stops the statements running on the connection
 * from whatever thread cancels; a progress handler (every PROGRESS_OPS
 * virtual machine instructions) catches the statements that start just
 * after the cancellation, which sqlite3_interrupt() would miss, and the
 * column tables check between chunks (their scans run in C, beside the
 * virtual machine). A statement stopped that way fails with
 * G_IO_ERROR_CANCELLED; an interrupted write rolls its transaction back.
 *
 * Workload: a bulk load is a few thousand chunk INSERTs and single-row
 * INSERTs for the definitions and the rarer events, from persistent prepared
 * statements inside one transaction; after that the file is read by views
 * and analyses.
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>

#include "sextant-chunk.h"
#include "sextant-column-table.h"
#include "sextant-store-union.h"
#include "sextant-sql-functions.h"
#include "sextant-row-private.h"
#include "sextant-store-private.h"
#include "sextant-store-shard-reads.h"
#include "sextant-store-shards.h"
#include "sextant-store-views-private.h"
#include "sextant-trace-resources.h"

struct _SextantStore
{
  GObject       parent_instance;

  char         *path;
  sqlite3      *db;
  sqlite3_stmt *stmts[SEXTANT_N_STMTS];  /* prepared on first use */
  SextantColumnModule *columns;          /* belongs to db */
  GMutex        lock;                    /* serializes run, exec, write_chunk and
                                          * write_encoded_chunk (the importer's decoding
                                          * threads call them at once); nothing else */
  GHashTable   *materialized;            /* views copied into temporary tables */
  SextantSharedViews *shared_views;      /* the analysis's, or NULL */
  GCancellable *cancellable;             /* interrupts db when cancelled, or NULL */
  gulong        cancelled_id;            /* its handler, which calls sqlite3_interrupt() */
  SextantShardUnion *shards;              /* a manifest's shards, read as one trace; or NULL */
  guint         in_transaction : 1;
};

const char * const sextant_category_names[SEXTANT_N_CATEGORIES] = {
  "MPI", "RMA", "USER", "OMP", "THREAD", "IO", "ACCEL", "OTHER",
};

G_DEFINE_FINAL_TYPE (SextantStore, sextant_store, G_TYPE_OBJECT)

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

/* Virtual machine instructions between two checks of the cancellable: a
 * check is an atomic read, and 1000 instructions take a few microseconds. */
#define PROGRESS_OPS 1000

static void
set_cancelled (GError **error)
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
    set_cancelled (error);
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
static gboolean
check_usable (SextantStore  *self,
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

static gboolean
exec_resource (SextantStore  *self,
               const char    *resource,
               GError       **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *sql = NULL;
  gsize size;
  const char *data;

  bytes = g_resource_lookup_data (sextant_trace_get_resource (), resource,
                                 G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return FALSE;

  data = g_bytes_get_data (bytes, &size);
  sql = g_strndup (data, size);

  return exec_sql (self, sql, error);
}

/**
 * sextant_store_schema_checksum:
 *
 * Returns: (transfer full): the SHA-256 of the schema this build writes. A
 * store written from another schema text is not reused, even of the same
 * schema version (development builds change the schema before a release).
 */
char *
sextant_store_schema_checksum (void)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  static const char * const files[] = {
    "/org/sextant/trace/schema-1.sql", "/org/sextant/trace/schema-1-index.sql",
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(GBytes) bytes = g_resource_lookup_data (sextant_trace_get_resource (), files[i],
                                                        G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
      gsize size = 0;
      const guchar *data = bytes != NULL ? g_bytes_get_data (bytes, &size) : NULL;

      g_assert (data != NULL);
      g_checksum_update (checksum, data, size);
    }

  return g_strdup (g_checksum_get_string (checksum));
}

static sqlite3_stmt *
get_stmt (SextantStore      *self,
          SextantStoreStmt   which,
          GError           **error)
{
  sqlite3_stmt *stmt = self->stmts[which];
  int rc;

  g_assert (which < SEXTANT_N_STMTS);
  g_assert (_sextant_store_stmt_sql[which] != NULL);

  if (stmt != NULL)
    {
      sqlite3_reset (stmt);
      sqlite3_clear_bindings (stmt);
      return stmt;
    }

  rc = sqlite3_prepare_v3 (self->db, _sextant_store_stmt_sql[which], -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      set_error_from_db (self, rc, "preparing a statement", error);
      return NULL;
    }

  self->stmts[which] = stmt;

  return stmt;
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

/* The column tables' check between chunks. */
static gboolean
columns_interrupted (gpointer user_data)
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

static SextantStore *
store_open_path (const char  *path,
                 int          flags,
                 GError     **error)
{
  g_autoptr(SextantStore) self = g_object_new (SEXTANT_TYPE_STORE, NULL);
  int rc;

  self->path = g_strdup (path);
  rc = sqlite3_open_v2 (path, &self->db, flags, NULL);
  if (rc != SQLITE_OK)
    {
      set_error_from_db (self, rc, "opening the database", error);
      return NULL;
    }
  sqlite3_extended_result_codes (self->db, 1);

  self->columns = sextant_column_table_register (self->db, NULL);
  if (self->columns == NULL || !sextant_sql_functions_register (self->db, NULL))
    {
      set_error_from_db (self, SQLITE_ERROR, "registering the column tables and functions", error);
      return NULL;
    }
  sextant_column_module_set_interrupt_func (self->columns, columns_interrupted, self);

  return g_steal_pointer (&self);
}

/**
 * sextant_store_create:
 * @path: a file that does not exist yet, or an empty one
 *
 * Creates a store for a bulk load, with the current schema and without
 * indexes. Call sextant_store_finish_load() when all rows are in.
 *
 * Threading: any thread; the store belongs to it (sextant-store.h).
 *
 * Returns: (transfer full): the store, or %NULL with @error set
 */
SextantStore *
sextant_store_create (const char  *path,
                      GError     **error)
{
  g_autoptr(SextantStore) self = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  self = store_open_path (path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, error);
  if (self == NULL)
    return NULL;

  if (!exec_sql (self,
                 "PRAGMA journal_mode = OFF;"
                 "PRAGMA synchronous = OFF;"
                 "PRAGMA locking_mode = EXCLUSIVE;"
                 /* 2 MiB: chunks are appended, so the pages spill as the
                  * rows come (on the thread that writes, beside the
                  * decoding), and the commit has little left to write
                  * (16 MiB cost 0.025 s of serial commit at 10 M events) */
                 "PRAGMA cache_size = -2048;"
                 "PRAGMA temp_store = FILE;"
                 "PRAGMA page_size = 8192;",
                 error) ||
      !exec_resource (self, "/org/sextant/trace/schema-1.sql", error))
    return NULL;

  return g_steal_pointer (&self);
}

/* sextant_store_open(), with or without the check of a manifest's shards */
static SextantStore *
open_store (const char  *path,
            gboolean     check_shards,
            GError     **error)
{
  g_autoptr(SextantStore) self = NULL;
  g_autofree char *version = NULL;
  g_autofree char *checksum = NULL;
  g_autofree char *current = NULL;
  g_autoptr(GPtrArray) shards = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_FOUND,
                   "%s: no such trace store", path);
      return NULL;
    }

  self = store_open_path (path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, error);
  if (self == NULL)
    return NULL;

  /* WAL with synchronous NORMAL: a commit is not synced (the checkpoint is);
   * what a crash could lose is the last analysis, which can be run again */
  if (!exec_sql (self, "PRAGMA busy_timeout = 5000; PRAGMA query_only = 0; PRAGMA synchronous = NORMAL;",
                 error))
    return NULL;

  version = sextant_store_get_meta (self, "schema_version");
  if (version != NULL && g_ascii_strtoll (version, NULL, 10) > SEXTANT_SCHEMA_VERSION_CURRENT)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA,
                   "%s: written by a newer Sextant (store schema version %s; this one reads version %d): "
                   "open it with that version, or import the archive again with this one",
                   path, version, SEXTANT_SCHEMA_VERSION_CURRENT);
      return NULL;
    }
  if (version == NULL || g_ascii_strtoll (version, NULL, 10) != SEXTANT_SCHEMA_VERSION_CURRENT)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA,
                   "%s: not a Sextant trace store of schema version %d%s%s",
                   path, SEXTANT_SCHEMA_VERSION_CURRENT,
                   version != NULL ? ", found version " : "",
                   version != NULL ? version : "");
      return NULL;
    }

  /* same version, other schema text: a development build wrote it */
  checksum = sextant_store_get_meta (self, "schema_checksum");
  current = sextant_store_schema_checksum ();
  if (g_strcmp0 (checksum, current) != 0)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA,
                   "%s: written by another build of Sextant; import the archive again "
                   "(sextant import --force ARCHIVE)", path);
      return NULL;
    }

  /* a parallel import's manifest: its shards must be as the import left
   * them, and are read as one trace */
  if (!(shards = check_shards ? sextant_store_list_shards (self, error)
                              : sextant_store_list_shards_unchecked (self, error)))
    return NULL;
  if (shards->len > 0 && !(self->shards = sextant_shard_union_new (self, self->db, shards, error)))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * sextant_store_open:
 * @path: (type filename): a store the importer finished
 *
 * Opens a finished store for reading and for analyses (which write their
 * results into it). Opening reads the meta table only: it is cheap, and
 * each thread that reads at the same time as another opens its own.
 *
 * Threading: any thread; the store belongs to it (see the file comment).
 *
 * Returns: (transfer full): the store, or %NULL with @error set:
 *   %SEXTANT_TRACE_ERROR_NOT_FOUND when @path is not a regular file,
 *   %SEXTANT_TRACE_ERROR_SCHEMA when it is not a Sextant store, or one of
 *   another schema version or of another build's schema (import the archive
 *   again), %SEXTANT_TRACE_ERROR_STORE when SQLite cannot open it
 */
SextantStore *
sextant_store_open (const char  *path,
                    GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);

  return open_store (path, TRUE, error);
}

/**
 * sextant_store_open_unchecked:
 * @path: (type filename): a store the importer finished
 *
 * As sextant_store_open(), but a parallel import's manifest opens even when
 * its shards' sizes and times are no longer those it recorded: for the
 * readers of a window that opened the manifest checked (its session's
 * load), while an analysis (its own or `sextant analyze` beside it)
 * changes the shards before it records them anew. A shard that is missing
 * fails the read that needs it.
 *
 * Returns: (transfer full): the store, or %NULL with @error set
 */
SextantStore *
sextant_store_open_unchecked (const char  *path,
                              GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);

  return open_store (path, FALSE, error);
}

/**
 * sextant_store_get_n_shards:
 *
 * Threading: any thread.
 *
 * Returns: the shards of a parallel import's manifest, read as one trace;
 *   0 for a store that is no manifest
 */
guint
sextant_store_get_n_shards (SextantStore *self)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), 0);

  return self->shards != NULL ? sextant_shard_union_get_n_shards (self->shards) : 0;
}

/**
 * sextant_store_get_n_open_shards:
 *
 * Threading: the store's owning thread.
 *
 * Returns: the shards of a manifest opened so far (each is at its first
 *   read); 0 for a store that is no manifest
 */
guint
sextant_store_get_n_open_shards (SextantStore *self)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), 0);

  return self->shards != NULL ? sextant_shard_union_get_n_open (self->shards) : 0;
}

/**
 * sextant_store_get_location_shard:
 *
 * Threading: any thread.
 *
 * Returns: the rank of the shard that holds the events of @loc: 0 in a
 *   store that is no manifest, %G_MAXUINT for a location of none
 */
guint
sextant_store_get_location_shard (SextantStore *self,
                                  gint64        loc)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), G_MAXUINT);

  return self->shards != NULL ? sextant_shard_union_get_location_shard (self->shards, loc) : 0;
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

  if (!check_usable (self, error) || !exec_sql (self, "BEGIN", error))
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

/**
 * sextant_store_exec:
 * @stmt: a statement without parameters (possibly several, separated by ';')
 *
 * Threading: serialized on the store's lock: may be called by several
 * threads at once while the owning thread calls nothing else.
 */
gboolean
sextant_store_exec (SextantStore      *self,
                    SextantStoreStmt   stmt,
                    GError           **error)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (stmt < SEXTANT_N_STMTS, FALSE);

  {
    gboolean ok;

    g_mutex_lock (&self->lock);
    ok = exec_sql (self, _sextant_store_stmt_sql[stmt], error);
    /* it may have deleted chunks (the instances of an earlier analysis) */
    sextant_column_module_changed (self->columns);
    g_mutex_unlock (&self->lock);

    return ok;
  }
}

static gboolean
step_done (SextantStore  *self,
           sqlite3_stmt  *stmt,
           GError       **error)
{
  int rc = sqlite3_step (stmt);

  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    {
      sqlite3_reset (stmt);
      set_error_from_db (self, rc, "writing a row", error);
      return FALSE;
    }

  return TRUE;
}

/* Binds @values (typed by @types, see sextant_store_run()) to @stmt's
 * parameters from number @first on */
static void
bind_values (sqlite3_stmt             *stmt,
             int                       first,
             const char               *types,
             const SextantStoreValue  *values)
{
  for (int i = 0; types[i] != '\0'; i++)
    switch (types[i])
      {
      case 'i':
        sqlite3_bind_int64 (stmt, first + i, values[i].i);
        break;

      case 'n':
        if (values[i].i == SEXTANT_NULL)
          sqlite3_bind_null (stmt, first + i);
        else
          sqlite3_bind_int64 (stmt, first + i, values[i].i);
        break;

      case 't':
        sqlite3_bind_text (stmt, first + i, values[i].t, -1, SQLITE_TRANSIENT);
        break;

      case 'd':
        sqlite3_bind_double (stmt, first + i, values[i].d);
        break;

      default:
        g_assert_not_reached ();
      }
}

/* the parameters of a statement of sextant_store_run() or a query */
#define MAX_PARAMS 64

static void
bind_valist (sqlite3_stmt *stmt,
             const char   *types,
             va_list       args)
{
  SextantStoreValue values[MAX_PARAMS];

  g_assert (strlen (types) <= MAX_PARAMS);
  for (guint i = 0; types[i] != '\0'; i++)
    if (types[i] == 't')
      values[i].t = va_arg (args, const char *);
    else if (types[i] == 'd')
      values[i].d = va_arg (args, double);
    else
      values[i].i = va_arg (args, gint64);
  bind_values (stmt, 1, types, values);
}

/* Statement @which (kept prepared) with @args bound, the store's lock
 * taken (release it when done); NULL, the lock released, when it cannot
 * be prepared */
static sqlite3_stmt *
lock_bound_stmt (SextantStore      *self,
                 SextantStoreStmt   which,
                 GError           **error,
                 const char        *types,
                 va_list            args)
{
  sqlite3_stmt *stmt;

  g_mutex_lock (&self->lock);
  if (!(stmt = get_stmt (self, which, error)))
    {
      g_mutex_unlock (&self->lock);
      return NULL;
    }
  g_assert ((int)strlen (types) == sqlite3_bind_parameter_count (stmt));
  bind_valist (stmt, types, args);

  return stmt;
}

/**
 * sextant_store_run:
 * @types: one character per parameter: 'i' a gint64, 'n' a gint64 that is
 *   bound as NULL when it equals %SEXTANT_NULL, 't' a string (NULL allowed),
 *   'd' a double
 * @...: the values
 *
 * Binds the values to statement @stmt and runs it to completion.
 * Constraint violations fail with %SEXTANT_TRACE_ERROR_DUPLICATE, a full disk
 * with %SEXTANT_TRACE_ERROR_NO_SPACE, an interrupted statement with
 * %G_IO_ERROR_CANCELLED.
 *
 * Threading: serialized on the store's lock, as sextant_store_exec().
 */
gboolean
sextant_store_run (SextantStore      *self,
                   SextantStoreStmt   which,
                   GError           **error,
                   const char        *types,
                   ...)
{
  sqlite3_stmt *stmt;
  va_list args;
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (types != NULL, FALSE);

  va_start (args, types);
  stmt = lock_bound_stmt (self, which, error, types, args);
  va_end (args);
  if (stmt == NULL)
    return FALSE;
  ok = step_done (self, stmt, error);
  g_mutex_unlock (&self->lock);

  return ok;
}

#define ROWS_PER_INSERT SEXTANT_STORE_ROWS_PER_INSERT

/* @which's INSERT with ROWS_PER_INSERT rows of @n_cols parameters after
 * its VALUES */
static sqlite3_stmt *
prepare_many (SextantStore      *self,
              SextantStoreStmt   which,
              guint              n_cols,
              gboolean           or_ignore,
              GError           **error)
{
  const char *sql = _sextant_store_stmt_sql[which];
  const char *values = strstr (sql, " VALUES ");
  g_autoptr(GString) many = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc;

  g_assert (values != NULL);
  g_assert (!or_ignore || g_str_has_prefix (sql, "INSERT INTO "));
  many = or_ignore ? g_string_new ("INSERT OR IGNORE INTO ") : g_string_new (NULL);
  g_string_append_len (many, sql + (or_ignore ? strlen ("INSERT INTO ") : 0),
                       values - sql - (or_ignore ? (gssize)strlen ("INSERT INTO ") : 0));
  g_string_append (many, " VALUES ");
  for (guint r = 0; r < ROWS_PER_INSERT; r++)
    {
      g_string_append (many, r > 0 ? ", (?" : "(?");
      for (guint c = 1; c < n_cols; c++)
        g_string_append (many, ", ?");
      g_string_append_c (many, ')');
    }
  rc = sqlite3_prepare_v2 (self->db, many->str, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      set_error_from_db (self, rc, "preparing a statement", error);
      return NULL;
    }

  return stmt;
}

/**
 * sextant_store_run_rows:
 * @which: an INSERT ... VALUES (...) statement
 * @types: its parameters, as for sextant_store_run() ('d' too)
 * @values: @n_rows rows of strlen (@types) values
 *
 * Runs @which for each row of @values, as sextant_store_run() would one
 * by one, but ROWS_PER_INSERT rows a statement: a statement of one small
 * row costs SQLite 3 to 4 times what the row itself does (its step, the
 * end of the statement and a seek from the B-tree's root for each row).
 *
 * Threading: serialized on the store's lock, as sextant_store_run().
 */
gboolean
sextant_store_run_rows (SextantStore             *self,
                        SextantStoreStmt          which,
                        const char               *types,
                        const SextantStoreValue  *values,
                        guint                     n_rows,
                        GError                  **error)
{
  guint n_cols = (guint)strlen (types);
  sqlite3_stmt *stmt;
  gboolean ok = TRUE;
  guint row = 0;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (n_cols > 0 && n_cols * ROWS_PER_INSERT <= 32766, FALSE);

  g_mutex_lock (&self->lock);
  if (n_rows >= ROWS_PER_INSERT)
    {
      ok = (stmt = prepare_many (self, which, n_cols, FALSE, error)) != NULL;
      for (; ok && row + ROWS_PER_INSERT <= n_rows; row += ROWS_PER_INSERT)
        {
          for (guint r = 0; r < ROWS_PER_INSERT; r++)
            bind_values (stmt, (int)(r * n_cols) + 1, types, values + (gsize)(row + r) * n_cols);
          ok = step_done (self, stmt, error);
          sqlite3_reset (stmt);
        }
      sqlite3_finalize (stmt);
    }
  /* the rest one by one */
  for (; ok && row < n_rows; row++)
    {
      ok = (stmt = get_stmt (self, which, error)) != NULL;
      if (ok)
        {
          g_assert (sqlite3_bind_parameter_count (stmt) == (int)n_cols);
          bind_values (stmt, 1, types, values + (gsize)row * n_cols);
          ok = step_done (self, stmt, error);
        }
    }
  g_mutex_unlock (&self->lock);

  return ok;
}

/**
 * sextant_store_run_rows_keep_first:
 * @n_rows: a multiple of %SEXTANT_STORE_ROWS_PER_INSERT
 * @n_skipped: (out): the rows skipped
 *
 * Runs @which for the rows of @values as sextant_store_run_rows() does,
 * but a row that breaks a constraint (an id given before: the first row
 * is kept) is skipped rather than failing the statement, whose other rows
 * SQLite would otherwise leave half written (a store being loaded has no
 * journal to undo a statement with).
 *
 * Threading: serialized on the store's lock, as sextant_store_run().
 */
gboolean
sextant_store_run_rows_keep_first (SextantStore             *self,
                                   SextantStoreStmt          which,
                                   const char               *types,
                                   const SextantStoreValue  *values,
                                   guint                     n_rows,
                                   guint                    *n_skipped,
                                   GError                  **error)
{
  guint n_cols = (guint)strlen (types);
  sqlite3_stmt *stmt;
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (n_rows % ROWS_PER_INSERT == 0, FALSE);
  g_return_val_if_fail (n_cols > 0 && n_cols * ROWS_PER_INSERT <= 32766, FALSE);

  *n_skipped = 0;
  if (n_rows == 0)
    return TRUE;
  g_mutex_lock (&self->lock);
  ok = (stmt = prepare_many (self, which, n_cols, TRUE, error)) != NULL;
  for (guint row = 0; ok && row < n_rows; row += ROWS_PER_INSERT)
    {
      for (guint r = 0; r < ROWS_PER_INSERT; r++)
        bind_values (stmt, (int)(r * n_cols) + 1, types, values + (gsize)(row + r) * n_cols);
      ok = step_done (self, stmt, error);
      *n_skipped += ROWS_PER_INSERT - (guint)sqlite3_changes (self->db);
      sqlite3_reset (stmt);
    }
  sqlite3_finalize (stmt);
  g_mutex_unlock (&self->lock);

  return ok;
}

/* Binds and runs an INSERT of one chunk row (first_row, n, header, data). */
static int
step_chunk_row (sqlite3_stmt  *stmt,
                gint64         first_row,
                guint          n_rows,
                const guint8  *header,
                guint          n_cols,
                gconstpointer  data,
                gsize          size)
{
  int rc;

  sqlite3_bind_int64 (stmt, 1, first_row);
  sqlite3_bind_int64 (stmt, 2, n_rows);
  sqlite3_bind_blob (stmt, 3, header, sextant_chunk_header_size (n_cols), SQLITE_STATIC);
  sqlite3_bind_blob (stmt, 4, size > 0 ? data : "", size, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  sqlite3_reset (stmt);

  return rc;
}

/* The column tables: their chunk INSERT and number of stored columns. */
static const SextantStoreStmt chunk_stmts[SEXTANT_N_CHUNK_TABLES] = {
  [SEXTANT_CHUNK_VISIT] = SEXTANT_STMT_VISIT_CHUNK,
  [SEXTANT_CHUNK_MESSAGE] = SEXTANT_STMT_MESSAGE_CHUNK,
  [SEXTANT_CHUNK_COLLECTIVE_MEMBER] = SEXTANT_STMT_COLLECTIVE_MEMBER_CHUNK,
  [SEXTANT_CHUNK_LOD] = SEXTANT_STMT_LOD_CHUNK,
  [SEXTANT_CHUNK_PATTERN_INSTANCE] = SEXTANT_STMT_PATTERN_INSTANCE_CHUNK,
  [SEXTANT_CHUNK_WAIT_STATE] = SEXTANT_STMT_WAIT_STATE_CHUNK,
};
static const guint chunk_columns[SEXTANT_N_CHUNK_TABLES] = {
  [SEXTANT_CHUNK_VISIT] = SEXTANT_VISIT_N_COLUMNS,
  [SEXTANT_CHUNK_MESSAGE] = SEXTANT_MESSAGE_N_COLUMNS,
  [SEXTANT_CHUNK_COLLECTIVE_MEMBER] = SEXTANT_MEMBER_N_COLUMNS,
  [SEXTANT_CHUNK_LOD] = SEXTANT_LOD_N_COLUMNS,
  [SEXTANT_CHUNK_PATTERN_INSTANCE] = SEXTANT_INSTANCE_N_COLUMNS,
  [SEXTANT_CHUNK_WAIT_STATE] = SEXTANT_WAIT_STATE_N_COLUMNS,
};

/**
 * sextant_store_write_encoded_chunk:
 * @table: which column table
 * @header: (array): the chunk's header, sextant_chunk_header_size (@n_cols)
 *   bytes, and @data, @size: its data, as sextant_chunk_encode() made them
 *
 * Writes a chunk like sextant_store_write_chunk() does, of rows encoded
 * beforehand: the importer's threads encode in parallel and write from one
 * (sextant-chunk-queue.c).
 *
 * Threading: serialized on the store's lock, as sextant_store_exec().
 */
gboolean
sextant_store_write_encoded_chunk (SextantStore      *self,
                                   SextantChunkTable  table,
                                   gint64             first_row,
                                   const guint8      *header,
                                   guint              n_cols,
                                   guint              n_rows,
                                   gconstpointer      data,
                                   gsize              size,
                                   GError           **error)
{
  sqlite3_stmt *stmt;
  int rc;

  g_return_val_if_fail (table < SEXTANT_N_CHUNK_TABLES, FALSE);
  g_return_val_if_fail (n_cols == chunk_columns[table], FALSE);
  g_return_val_if_fail (n_rows > 0 && n_rows <= SEXTANT_CHUNK_MAX_ROWS, FALSE);

  g_mutex_lock (&self->lock);
  if (!(stmt = get_stmt (self, chunk_stmts[table], error)))
    {
      g_mutex_unlock (&self->lock);
      return FALSE;
    }
  rc = step_chunk_row (stmt, first_row, n_rows, header, n_cols, data, size);
  if (rc != SQLITE_DONE)
    set_error_from_db (self, rc, "writing a chunk", error);
  else
    sextant_column_module_changed (self->columns);
  g_mutex_unlock (&self->lock);

  return rc == SQLITE_DONE;
}

/**
 * sextant_store_write_chunk:
 * @table: which column table
 * @first_row: the row id of the chunk's first row
 * @columns: (array length=n_cols): the values, @columns[c][r * @stride] for
 *   row r of stored column c, SEXTANT_NULL for NULL; %NULL for a column
 *   that holds @constants[c] in every row
 *
 * Writes @n_rows rows of a column table (visit, message, collective_member,
 * lod, pattern_instance_data) as one chunk (see
 * sextant_chunk_encode_strided()). The rows of a table are ids @first_row
 * onwards; chunks must not overlap.
 *
 * Threading: serialized on the store's lock, as sextant_store_exec().
 */
gboolean
sextant_store_write_chunk (SextantStore         *self,
                           SextantChunkTable     table,
                           gint64                first_row,
                           const gint64 * const *columns,
                           gsize                 stride,
                           const gint64         *constants,
                           guint                 n_cols,
                           guint                 n_rows,
                           GError              **error)
{
  guint8 header[SEXTANT_CHUNK_MAX_COLS * 18];
  g_autoptr(GBytes) data = NULL;
  gsize size;
  const void *bytes;

  g_return_val_if_fail (table < SEXTANT_N_CHUNK_TABLES && n_cols == chunk_columns[table], FALSE);
  g_assert (sextant_chunk_header_size (n_cols) <= sizeof header);

  data = sextant_chunk_encode_strided (columns, stride, constants, n_cols, n_rows, header);
  bytes = g_bytes_get_data (data, &size);

  return sextant_store_write_encoded_chunk (self, table, first_row, header, n_cols, n_rows, bytes, size, error);
}


/* Prepares @sql (not cached: a callback may run another query of the same
 * kind), binds the parameters and hands each row to @func. A callback that
 * returns %FALSE with its error set fails the call; with @stop_ok, one that
 * returns %FALSE without an error ends the scan, and the call succeeds. */
static gboolean
foreach_valist (SextantStore    *self,
                const char      *sql,
                gboolean         stop_ok,
                SextantRowFunc   func,
                gpointer         user_data,
                GError         **error,
                const char      *types,
                va_list          args)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  SextantRow row;
  int rc;

  if (!check_usable (self, error))
    return FALSE;

  rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      set_error_from_db (self, rc, "preparing a query", error);
      return FALSE;
    }

  bind_valist (stmt, types, args);

  row.stmt = stmt;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      GError *local = NULL;

      if (!func (&row, user_data, &local))
        {
          if (local == NULL && stop_ok)
            return TRUE;
          if (local != NULL)
            g_propagate_error (error, local);
          return FALSE;
        }
    }

  if (rc != SQLITE_DONE)
    {
      set_error_from_db (self, rc, "reading rows", error);
      return FALSE;
    }

  return TRUE;
}

/**
 * sextant_store_foreach:
 * @func: called for each row; returning %FALSE (with its error set) stops
 * @types: parameter types as for sextant_store_run(), "" for none
 *
 * Runs a query and hands each row to @func.
 *
 * Threading: the store's owning thread. Fails with %G_IO_ERROR_CANCELLED
 * when the store's cancellable is cancelled, before or while it runs.
 */
gboolean
sextant_store_foreach (SextantStore      *self,
                       SextantStoreStmt   query,
                       SextantRowFunc     func,
                       gpointer           user_data,
                       GError           **error,
                       const char        *types,
                       ...)
{
  va_list args;
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  va_start (args, types);
  /* a count over the shards' own rows: summed over the shards */
  if (strstr (_sextant_store_stmt_sql[query], "@each(") != NULL)
    ok = _sextant_store_foreach_each_valist (self, _sextant_store_stmt_sql[query], func, user_data, error, types,
                                             args);
  else if (strstr (_sextant_store_stmt_sql[query], "@rows(") != NULL)
    ok = _sextant_store_foreach_summed_valist (self, _sextant_store_stmt_sql[query], func, user_data, error, types,
                                               args);
  else
    ok = foreach_valist (self, _sextant_store_stmt_sql[query], FALSE, func, user_data, error, types, args);
  va_end (args);

  return ok;
}

/* foreach_valist() (stopped early without an error: a success) for
 * sextant-store-shard-reads.c */
gboolean
_sextant_store_foreach_sql_valist (SextantStore    *self,
                                   const char      *sql,
                                   SextantRowFunc   func,
                                   gpointer         user_data,
                                   GError         **error,
                                   const char      *types,
                                   va_list          args)
{
  return foreach_valist (self, sql, TRUE, func, user_data, error, types, args);
}

SextantShardUnion *
_sextant_store_get_shard_union (SextantStore *self)
{
  return self->shards;
}

/**
 * sextant_store_foreach_sql:
 * @sql: one statement of trace/ (the typed readers of the
 *   sextant-store-*.c files keep their SQL beside them)
 * @func: called for each row; returning %FALSE with its error set fails the
 *   call, returning %FALSE without an error ends the scan early (the call
 *   then succeeds)
 * @types: parameter types as for sextant_store_run(), "" for none
 *
 * sextant_store_foreach() for a statement that is not in the store's
 * table, prepared for this call.
 *
 * Threading: the store's owning thread; cancelled as sextant_store_foreach().
 */
gboolean
sextant_store_foreach_sql (SextantStore    *self,
                           const char      *sql,
                           SextantRowFunc   func,
                           gpointer         user_data,
                           GError         **error,
                           const char      *types,
                           ...)
{
  va_list args;
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (sql != NULL && func != NULL, FALSE);

  va_start (args, types);
  ok = foreach_valist (self, sql, TRUE, func, user_data, error, types, args);
  va_end (args);

  return ok;
}

/**
 * sextant_store_foreach_prepared:
 * @query: a query of the store's table, kept prepared
 * @func: called for each row, as for sextant_store_foreach_sql() (%FALSE
 *   without an error ends the scan, and the call succeeds); it must not
 *   use the store: the statement and the store's lock are held meanwhile
 * @types: parameter types as for sextant_store_run(), "" for none
 *
 * sextant_store_foreach() without preparing @query again: for a query
 * run for every frame, whose preparation would cost more than its rows
 * (a view of one-sided operations: 30-40 us a statement).
 *
 * Threading: serialized on the store's lock, as sextant_store_run();
 * cancelled as sextant_store_foreach().
 */
gboolean
sextant_store_foreach_prepared (SextantStore      *self,
                                SextantStoreStmt   query,
                                SextantRowFunc     func,
                                gpointer           user_data,
                                GError           **error,
                                const char        *types,
                                ...)
{
  sqlite3_stmt *stmt;
  SextantRow row;
  va_list args;
  gboolean ok = TRUE;
  int rc;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (func != NULL && types != NULL, FALSE);

  if (!check_usable (self, error))
    return FALSE;
  va_start (args, types);
  stmt = lock_bound_stmt (self, query, error, types, args);
  va_end (args);
  if (stmt == NULL)
    return FALSE;

  row.stmt = stmt;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      GError *local = NULL;

      if (!func (&row, user_data, &local))
        {
          ok = local == NULL;
          if (local != NULL)
            g_propagate_error (error, local);
          break;
        }
    }
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      set_error_from_db (self, rc, "reading rows", error);
      ok = FALSE;
    }
  /* done with: no read transaction left open */
  sqlite3_reset (stmt);
  g_mutex_unlock (&self->lock);

  return ok;
}

/* Whether the query returns its visits' context itself (a view that read
 * the visits already, such as collective_visit): then it is not joined on. */
static gboolean
has_visit_context (const SextantRow *row)
{
  static const char * const context[] = {
    "sextant_scl", "sextant_context", "sextant_path", "sextant_region", "sextant_enter", "sextant_leave",
  };

  for (guint i = 0; i < G_N_ELEMENTS (context); i++)
    if (sextant_row_find_column (row, context[i]) < 0)
      return FALSE;

  return TRUE;
}

/**
 * sextant_store_run_query:
 * @sql: one SELECT statement, e.g. a pattern query from a file
 * @parameters: (nullable): name (without ':') -> GVariant of type int64 or
 *   double, bound to the statement's named parameters
 * @required_columns: (nullable): NULL-terminated names the result must have
 * @with_visit_context: if the query has a column `visit` (or
 *   `example_visit`), add the columns sextant_scl, sextant_context,
 *   sextant_path, sextant_region, sextant_enter and sextant_leave of that
 *   visit, unless the query returns all six itself
 *
 * Runs a query that is not Sextant's own. It is validated first: it must
 * compile, be a single statement, not write to the store, name only known
 * parameters and return the required columns; otherwise it fails with
 * %SEXTANT_TRACE_ERROR_QUERY and a message that says which rule it broke.
 */
gboolean
sextant_store_run_query (SextantStore        *self,
                         const char          *sql,
                         GHashTable          *parameters,
                         const char * const  *required_columns,
                         gboolean             with_visit_context,
                         SextantRowFunc       func,
                         gpointer             user_data,
                         GError             **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  const char *tail = NULL;
  SextantRow row;
  int rc;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (sql != NULL, FALSE);

  if (!check_usable (self, error))
    return FALSE;

  rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, &tail);
  if (rc != SQLITE_OK || stmt == NULL)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                   "invalid SQL: %s", stmt == NULL && rc == SQLITE_OK ? "no statement" : sqlite3_errmsg (self->db));
      return FALSE;
    }

  /* A query that names the visit of each row (or, not charged to it, an
   * example_visit that shows where) gets that visit's call path, region,
   * call-site ids, enter and leave joined on, in the same pass. */
  row.stmt = stmt;
  if (with_visit_context && tail != NULL &&
      (sextant_row_find_column (&row, "visit") >= 0 || sextant_row_find_column (&row, "example_visit") >= 0) &&
      !has_visit_context (&row))
    {
      gboolean charged = sextant_row_find_column (&row, "visit") >= 0;
      gboolean example = sextant_row_find_column (&row, "example_visit") >= 0;
      g_autofree char *body = g_strndup (sql, tail - sql);
      g_autofree char *wrapped = NULL;
      g_autoptr(sqlite3_stmt) outer = NULL;

      g_strchomp (body);
      if (g_str_has_suffix (body, ";"))
        body[strlen (body) - 1] = '\0';
      wrapped = g_strconcat ("SELECT q.*, v.scl AS sextant_scl, v.context AS sextant_context, "
                             "v.path AS sextant_path, v.region AS sextant_region, "
                             "v.enter AS sextant_enter, v.leave AS sextant_leave "
                             "FROM (\n", body, "\n) AS q LEFT JOIN visit AS v ON v.id = ",
                             charged && example ? "coalesce (q.visit, q.example_visit)"
                             : charged          ? "q.visit"
                                                : "q.example_visit",
                             NULL);
      if (sqlite3_prepare_v2 (self->db, wrapped, -1, &outer, NULL) != SQLITE_OK)
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                       "invalid SQL: %s", sqlite3_errmsg (self->db));
          return FALSE;
        }
      if (sqlite3_stmt_readonly (stmt) && sqlite3_column_count (stmt) > 0)
        {
          g_clear_pointer (&stmt, sqlite3_finalize);
          stmt = g_steal_pointer (&outer);
        }
    }
  while (tail != NULL && g_ascii_isspace (*tail))
    tail++;
  if (tail != NULL && *tail != '\0' && *tail != ';')
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                   "only one SQL statement is allowed (more follows: \"%.30s\")", tail);
      return FALSE;
    }
  if (!sqlite3_stmt_readonly (stmt) || sqlite3_column_count (stmt) == 0)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                   "the query must be a SELECT that does not change the store");
      return FALSE;
    }

  row.stmt = stmt;
  for (guint i = 0; required_columns != NULL && required_columns[i] != NULL; i++)
    if (sextant_row_find_column (&row, required_columns[i]) < 0)
      {
        g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                     "the query has no column named \"%s\"", required_columns[i]);
        return FALSE;
      }

  for (int i = 1; i <= sqlite3_bind_parameter_count (stmt); i++)
    {
      const char *name = sqlite3_bind_parameter_name (stmt, i);
      GVariant *value = NULL;

      if (name == NULL || (name[0] != ':' && name[0] != '$' && name[0] != '@'))
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                       "parameters must be named (:name), found \"%s\"", name != NULL ? name : "?");
          return FALSE;
        }
      if (parameters != NULL)
        value = g_hash_table_lookup (parameters, name + 1);
      if (value == NULL)
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                       "unknown parameter %s", name);
          return FALSE;
        }
      if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
        sqlite3_bind_int64 (stmt, i, g_variant_get_int64 (value));
      else if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
        sqlite3_bind_double (stmt, i, g_variant_get_double (value));
      else
        sqlite3_bind_text (stmt, i, g_variant_get_string (value, NULL), -1, SQLITE_TRANSIENT);
    }

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      if (!func (&row, user_data, error))
        return FALSE;
    }

  if ((rc & 0xff) == SQLITE_INTERRUPT)
    {
      set_cancelled (error);
      return FALSE;
    }
  if (rc != SQLITE_DONE)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                   "the query failed: %s", sqlite3_errmsg (self->db));
      return FALSE;
    }

  return TRUE;
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

/**
 * sextant_store_finish_load:
 *
 * Ends a bulk load: builds the indexes, gathers
 * statistics for the query planner and switches the file to WAL.
 */
gboolean
sextant_store_finish_load (SextantStore  *self,
                           GError       **error)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);

  for (guint i = 0; i < SEXTANT_N_STMTS; i++)
    g_clear_pointer (&self->stmts[i], sqlite3_finalize);

  return exec_resource (self, "/org/sextant/trace/schema-1-index.sql", error) &&
         sextant_store_index_onecoll (self, error) &&
         exec_sql (self, "PRAGMA analysis_limit = 1000; ANALYZE;", error) &&
         exec_sql (self, "PRAGMA locking_mode = NORMAL; PRAGMA journal_mode = WAL;", error);
}

/* The value of @key in meta, or NULL when it has none: FALSE only when the
 * read fails. */
static gboolean
get_meta (SextantStore  *self,
          const char    *key,
          char         **value,
          GError       **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  *value = NULL;
  if (!check_usable (self, error))
    return FALSE;
  rc = sqlite3_prepare_v2 (self->db, "SELECT value FROM meta WHERE key = ?1", -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      set_error_from_db (self, rc, "reading meta", error);
      return FALSE;
    }

  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    *value = g_strdup ((const char *)sqlite3_column_text (stmt, 0));
  else if (rc != SQLITE_DONE)
    {
      set_error_from_db (self, rc, "reading meta", error);
      return FALSE;
    }

  return TRUE;
}

/**
 * sextant_store_get_meta:
 * @key: a key of the meta table (docs/schema.md): "resolution", "time_begin", ...
 *
 * Threading: the store's owning thread.
 *
 * Returns: (transfer full) (nullable): the value of @key in the meta table
 *   as text; %NULL when the store has no such key, and when the read fails
 *   (a cancelled store, a damaged file)
 */
char *
sextant_store_get_meta (SextantStore *self,
                        const char   *key)
{
  char *value = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  get_meta (self, key, &value, NULL);

  return value;
}

static gboolean
name_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  gint64 *id = g_new (gint64, 1);

  *id = sextant_row_get_int (row, 0);
  g_hash_table_insert (user_data, id, g_strdup (sextant_row_is_null (row, 1) ? "?" : sextant_row_get_text (row, 1)));

  return TRUE;
}

GHashTable *
sextant_store_read_names (SextantStore      *self,
                          SextantStoreStmt   query,
                          GError           **error)
{
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  if (!sextant_store_foreach (self, query, name_row, names, error, ""))
    return NULL;

  return g_steal_pointer (&names);
}

/**
 * sextant_store_find_delay_activity:
 * @loc: the location that made another wait (location.id)
 * @begin: ticks: the interval of the wait
 * @activity: (out caller-allocates): what @loc did then; its @visit is
 *   %SEXTANT_NULL when @loc has no visit there. Clear it with
 *   sextant_delay_activity_clear().
 *
 * Where @loc spent [@begin, @end]: the region of the program with the most
 * exclusive time there, or, in a trace of MPI calls only, the late call
 * and the function it is made in (sextant_delay_activity_find(),
 * sextant-sql-functions.c, has the rule). Reads the visits of @loc around
 * the interval: a few chunks.
 *
 * Threading: the store's owning thread.
 */
gboolean
sextant_store_find_delay_activity (SextantStore          *self,
                                   gint64                 loc,
                                   gint64                 begin,
                                   gint64                 end,
                                   SextantDelayActivity  *activity,
                                   GError               **error)
{
  int rc;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (activity != NULL, FALSE);

  memset (activity, 0, sizeof *activity);
  activity->visit = SEXTANT_NULL;
  activity->region = SEXTANT_NULL;
  if (!check_usable (self, error))
    return FALSE;
  rc = sextant_delay_activity_find (self->db, loc, begin, end, activity);
  if (rc != SQLITE_OK)
    {
      sextant_delay_activity_clear (activity);
      set_error_from_db (self, rc, "reading the visits of a delay", error);
      return FALSE;
    }

  return TRUE;
}

/**
 * sextant_analysis_scope_clear:
 * @scope: a scope sextant_store_get_analysis_scope() filled in
 *
 * Frees what @scope holds and zeroes it; clearing it twice is harmless.
 */
void
sextant_analysis_scope_clear (SextantAnalysisScope *scope)
{
  g_return_if_fail (scope != NULL);

  g_clear_pointer (&scope->selected, g_strfreev);
  g_clear_pointer (&scope->parameters, g_free);
  scope->analysed = FALSE;
}

/**
 * sextant_store_get_analysis_scope:
 * @scope: (out caller-allocates): what the last analysis ran; clear it with
 *   sextant_analysis_scope_clear()
 *
 * Reads what the last analysis recorded with its results (meta
 * analysis_selected and analysis_parameters, written in the same
 * transaction): whether there was one, which patterns it was restricted to
 * and its parameter overrides. A store never analysed gives
 * @scope->analysed %FALSE.
 *
 * Threading: the store's owning thread.
 *
 * Returns: %TRUE, or %FALSE with @error set (%G_IO_ERROR_CANCELLED or a
 *   %SEXTANT_TRACE_ERROR) and @scope zeroed
 */
gboolean
sextant_store_get_analysis_scope (SextantStore          *self,
                                  SextantAnalysisScope  *scope,
                                  GError               **error)
{
  g_autofree char *selected = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (scope != NULL, FALSE);

  memset (scope, 0, sizeof *scope);
  if (!get_meta (self, "analysis_selected", &selected, error) ||
      !get_meta (self, "analysis_parameters", &scope->parameters, error))
    {
      sextant_analysis_scope_clear (scope);
      return FALSE;
    }

  scope->analysed = selected != NULL;
  if (selected != NULL && !g_str_equal (selected, SEXTANT_ANALYSIS_ALL_PATTERNS))
    scope->selected = g_strsplit (selected, " ", -1);
  if (scope->parameters != NULL && *scope->parameters == '\0')
    g_clear_pointer (&scope->parameters, g_free);

  return TRUE;
}
