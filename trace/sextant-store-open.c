/*
 * sextant-store-open.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Creating and opening a store file (sextant-store.c has the object). Two
 * ways in:
 *
 *  - sextant_store_create() makes a new file for a bulk load: journal and
 *    fsync off (the importer writes a temporary file and renames it only when
 *    complete, so a crash loses nothing but the temporary file) and no
 *    indexes until sextant_store_finish_load(), which builds them and
 *    switches the file to WAL.
 *  - sextant_store_open() opens a finished store and checks its schema
 *    version, and a parallel import's manifest its shards.
 *
 * Both register the "sextant_columns" module on the connection: the big
 * event tables (visit, message, collective_member, lod) are column chunks
 * written with sextant_store_write_chunk(), a row per thousands of events,
 * and read as ordinary tables through that module (sextant-column-table.c).
 */
#include "config.h"

#include "sextant-manifest-lock.h"
#include "sextant-sql-functions.h"
#include "sextant-store-connection-private.h"
#include "sextant-store-shards.h"
#include "sextant-trace-resources.h"

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

  return _sextant_store_exec_sql (self, sql, error);
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

/* The column tables' check between chunks. */
static gboolean
columns_interrupted (gpointer user_data)
{
  SextantStore *self = user_data;

  return g_cancellable_is_cancelled (self->cancellable);
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
      _sextant_store_set_error_from_db (self, rc, "opening the database", error);
      return NULL;
    }
  sqlite3_extended_result_codes (self->db, 1);

  self->columns = sextant_column_table_register (self->db, NULL);
  if (self->columns == NULL || !sextant_sql_functions_register (self->db, NULL))
    {
      _sextant_store_set_error_from_db (self, SQLITE_ERROR, "registering the column tables and functions", error);
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

  if (!_sextant_store_exec_sql (self,
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
  g_autoptr(SextantManifestLock) lock = NULL;

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
  if (!_sextant_store_exec_sql (self, "PRAGMA busy_timeout = 5000; PRAGMA query_only = 0; PRAGMA synchronous = NORMAL;",
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
   * them, and are read as one trace, under the reader's lock (no analysis
   * writes into them meanwhile) */
  if (check_shards && !(lock = sextant_manifest_lock_take_read (self, error)))
    return NULL;
  if (!(shards = lock != NULL ? g_ptr_array_ref (sextant_manifest_lock_get_shards (lock))
                              : sextant_store_list_shards_unchecked (self, error)))
    return NULL;
  if (shards->len > 0 && !(self->shards = sextant_shard_union_new (self, self->db, shards, error)))
    return NULL;
  if (self->shards != NULL)
    sextant_shard_union_keep_lock (self->shards, g_steal_pointer (&lock));

  return g_steal_pointer (&self);
}

/**
 * sextant_store_open:
 * @path: (type filename): a store the importer finished
 *
 * Opens a finished store for reading and for analyses (which write their
 * results into it). Opening reads the meta table only: it is cheap, and
 * each thread that reads at the same time as another opens its own. A
 * manifest holds the reader's lock of its shards (sextant-manifest-lock.h)
 * until the store is freed: an analysis by another process waits for it.
 *
 * Threading: any thread; the store belongs to it (see the file comment).
 *
 * Returns: (transfer full): the store, or %NULL with @error set:
 *   %SEXTANT_TRACE_ERROR_NOT_FOUND when @path is not a regular file,
 *   %SEXTANT_TRACE_ERROR_SCHEMA when it is not a Sextant store, or one of
 *   another schema version or of another build's schema (import the archive
 *   again), %SEXTANT_TRACE_ERROR_STORE when SQLite cannot open it,
 *   %SEXTANT_TRACE_ERROR_BUSY for a manifest that an analysis is writing
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
         _sextant_store_exec_sql (self, "PRAGMA analysis_limit = 1000; ANALYZE;", error) &&
         _sextant_store_exec_sql (self, "PRAGMA locking_mode = NORMAL; PRAGMA journal_mode = WAL;", error);
}
