/*
 * sextant-column-table-cache.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A column table's chunk directory and cache (sextant-column-table.c has
 * the module). Per table and connection it keeps the chunk directory
 * (first row, row count and parsed header of every chunk, sorted by first
 * row), reloaded when the connection's module reports a write, and an LRU
 * cache of chunk data of at most CACHE_BYTES, filled through the
 * incremental blob API. Cursors hold a reference on the data they read, so
 * eviction never pulls a chunk from under a running scan.
 */
#include "config.h"

#include <string.h>

#ifdef SEXTANT_SQLITE_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif

#include "sextant-column-table-private.h"


/* Per table and connection. A scan needs one chunk at a time and a join by
 * id the chunks of the calls under way on every location (64 x 50 KB on
 * the 10 M-event trace); an analysis has a connection per worker, each
 * reading the visits and the messages: at 96 MiB each cached both tables
 * whole (160 MiB of the 395 MiB peak), at 16 MiB the queries take the same
 * CPU within the noise (docs/benchmarks.md, "Pattern analysis"). */
#define CACHE_BYTES (16 * 1024 * 1024)
/* The copies of shared views come from the page cache with a pread() that
 * costs what copying them does: a few chunks are enough for a join. */
#define MEMORY_CACHE_BYTES (2 * 1024 * 1024)
/* The directory --------------------------------------------------------------- */

static void
set_error (ColumnTable *self,
           const char  *format,
           ...) G_GNUC_PRINTF (2, 3);

static void
set_error (ColumnTable *self,
           const char  *format,
           ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  sqlite3_free (self->base.zErrMsg);
  self->base.zErrMsg = sqlite3_mprintf ("%s", message);
}

/* Zone-map sums of the directory being loaded. */
typedef struct
{
  double col_min[SEXTANT_CHUNK_MAX_COLS];
  double col_max[SEXTANT_CHUNK_MAX_COLS];
  double sum_range[SEXTANT_CHUNK_MAX_COLS];
  guint64 n_valued[SEXTANT_CHUNK_MAX_COLS];   /* rows in the chunks with values */
} Spread;

/* Appends the chunk of @n rows at @first_row with @header to the
 * directory; FALSE (the error set) when it is damaged. */
static gboolean
add_entry (ColumnTable  *self,
           Spread       *spread,
           gint64        first_row,
           gint64        n,
           const guint8 *header,
           gsize         header_size)
{
  DirEntry entry = { 0 };

  entry.first_row = first_row;
  if (n < 0 || n > SEXTANT_CHUNK_MAX_ROWS ||
      !sextant_chunk_parse_header (&entry.chunk, header, header_size, (guint)n, self->n_stored) ||
      (self->dir->len > 0 &&
       g_array_index (self->dir, DirEntry, self->dir->len - 1).first_row +
       g_array_index (self->dir, DirEntry, self->dir->len - 1).chunk.n_rows > entry.first_row))
    {
      set_error (self, "%s: chunk at row %" G_GINT64_FORMAT " is damaged", self->chunk_table, entry.first_row);
      return FALSE;
    }

  for (guint c = 0; c < self->n_stored; c++)
    {
      const SextantChunkColumn *col = &entry.chunk.cols[c];

      if (col->all_null)
        continue;
      if (spread->n_valued[c] == 0 || col->min < spread->col_min[c])
        spread->col_min[c] = col->min;
      if (spread->n_valued[c] == 0 || col->max > spread->col_max[c])
        spread->col_max[c] = col->max;
      /* by rows: the share of the rows an equality reads, whatever the
       * chunks' sizes (a shard's halo adds a chunk per run of visits,
       * most of them of one row) */
      spread->sum_range[c] += ((double)col->max - (double)col->min + 1) * (double)n;
      spread->n_valued[c] += (guint64)n;
    }

  self->n_rows += n;
  g_array_append_val (self->dir, entry);

  return TRUE;
}

/* The directory of a table whose chunks are outside the store: chunk i of
 * the directory is chunk i of the list. */
static int
load_memory_directory (ColumnTable *self,
                       Spread      *spread)
{
  SextantColumnChunks *chunks = self->memory;

  if (sextant_column_chunks_get_n_cols (chunks) != self->n_stored)
    {
      set_error (self, "%s: %u columns in memory, %u declared", self->chunk_table,
                 sextant_column_chunks_get_n_cols (chunks), self->n_stored);
      return SQLITE_CORRUPT;
    }
  for (guint i = 0; i < sextant_column_chunks_get_len (chunks); i++)
    {
      const SextantColumnChunk *chunk = sextant_column_chunks_get (chunks, i);

      if (!add_entry (self, spread, chunk->first_row, chunk->n_rows, chunk->header,
                      sextant_chunk_header_size (self->n_stored)))
        return SQLITE_CORRUPT;
    }

  return SQLITE_OK;
}

static int
load_stored_directory (ColumnTable *self,
                       Spread      *spread)
{
  sqlite3_stmt *stmt = NULL;
  char *sql;
  int rc;

  sql = sqlite3_mprintf ("SELECT first_row, n, header FROM \"%w\".\"%w\" ORDER BY first_row",
                         self->schema, self->chunk_table);
  rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);
  sqlite3_free (sql);
  if (rc != SQLITE_OK)
    {
      set_error (self, "%s: %s", self->chunk_table, sqlite3_errmsg (self->db));
      return rc;
    }

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    if (!add_entry (self, spread, sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1),
                    sqlite3_column_blob (stmt, 2), sqlite3_column_bytes (stmt, 2)))
      {
        sqlite3_finalize (stmt);
        return SQLITE_CORRUPT;
      }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      set_error (self, "%s: %s", self->chunk_table, sqlite3_errmsg (self->db));
      return rc;
    }

  return SQLITE_OK;
}

int
_sextant_column_table_load_directory (ColumnTable *self)
{
  Spread spread;
  int rc;

  if (self->loaded && self->generation == self->module->generation)
    return SQLITE_OK;
  /* not before: it is large, and most calls find the directory loaded */
  memset (&spread, 0, sizeof spread);

  for (guint i = 0; i < self->dir->len; i++)
    g_clear_pointer (&g_array_index (self->dir, DirEntry, i).data, g_bytes_unref);
  g_array_set_size (self->dir, 0);
  self->cache_bytes = 0;
  self->oldest = self->newest = NO_ENTRY;
  self->n_rows = 0;

  rc = self->memory != NULL ? load_memory_directory (self, &spread) : load_stored_directory (self, &spread);
  if (rc != SQLITE_OK)
    return rc;

  for (guint c = 0; c < self->n_stored; c++)
    self->spread[c] = spread.n_valued[c] == 0 ? 1.0
                      : MIN (1.0, spread.sum_range[c] / spread.n_valued[c] /
                                  (spread.col_max[c] - spread.col_min[c] + 1));

  self->loaded = TRUE;
  self->generation = self->module->generation;

  return SQLITE_OK;
}

static gsize
cache_limit (ColumnTable *self)
{
  return self->memory != NULL ? MEMORY_CACHE_BYTES : CACHE_BYTES;
}

static DirEntry *
dir_entry (ColumnTable *self,
           guint        i)
{
  return &g_array_index (self->dir, DirEntry, i);
}

/* Takes entry @i out of the list of cached entries */
static void
unlink_entry (ColumnTable *self,
              guint        i)
{
  DirEntry *e = dir_entry (self, i);

  if (e->older != NO_ENTRY)
    dir_entry (self, e->older)->newer = e->newer;
  else
    self->oldest = e->newer;
  if (e->newer != NO_ENTRY)
    dir_entry (self, e->newer)->older = e->older;
  else
    self->newest = e->older;
  e->newer = e->older = NO_ENTRY;
}

/* Puts entry @i at the end of the list: the most recently used */
static void
link_newest (ColumnTable *self,
             guint        i)
{
  DirEntry *e = dir_entry (self, i);

  e->older = self->newest;
  e->newer = NO_ENTRY;
  if (self->newest != NO_ENTRY)
    dir_entry (self, self->newest)->newer = i;
  else
    self->oldest = i;
  self->newest = i;
}

static void
evict (ColumnTable *self)
{
  while (self->cache_bytes > cache_limit (self) && self->oldest != NO_ENTRY)
    {
      guint i = self->oldest;
      DirEntry *e = dir_entry (self, i);

      unlink_entry (self, i);
      self->cache_bytes -= g_bytes_get_size (e->data);
      g_clear_pointer (&e->data, g_bytes_unref);
    }
}

/* Caches @data, just read, as entry @i's; returns it. */
static GBytes *
keep (ColumnTable *self,
      guint        i,
      GBytes      *data)
{
  gsize size = g_bytes_get_size (data);

  /* a chunk bigger than the whole cache is read but not kept */
  if (size <= cache_limit (self))
    {
      dir_entry (self, i)->data = g_bytes_ref (data);
      link_newest (self, i);
      self->cache_bytes += size;
      evict (self);
    }

  return data;
}

/* The data of chunk @i, cached. */
GBytes *
_sextant_column_table_chunk_data (ColumnTable *self,
                                  guint        i,
                                  int         *rc)
{
  DirEntry *e = &g_array_index (self->dir, DirEntry, i);
  sqlite3_blob *blob = NULL;
  guint8 *bytes;
  int size;

  if (e->data != NULL)
    {
      if (self->newest != i)
        {
          unlink_entry (self, i);
          link_newest (self, i);
        }
      return g_bytes_ref (e->data);
    }

  if (self->memory != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) data = NULL;

      if (!(data = sextant_column_chunks_read (self->memory, i, &error)))
        {
          set_error (self, "%s: %s", self->chunk_table, error->message);
          *rc = SQLITE_IOERR;
          return NULL;
        }
      size = (int)g_bytes_get_size (data);
      if ((gsize)size != sextant_chunk_data_size (&e->chunk))
        {
          set_error (self, "%s: chunk %" G_GINT64_FORMAT " is damaged", self->chunk_table, e->first_row);
          *rc = SQLITE_CORRUPT;
          return NULL;
        }
      return keep (self, i, g_steal_pointer (&data));
    }

  *rc = sqlite3_blob_open (self->db, self->schema, self->chunk_table, "data", e->first_row, 0, &blob);
  if (*rc != SQLITE_OK)
    {
      set_error (self, "%s: cannot read chunk %" G_GINT64_FORMAT ": %s", self->chunk_table,
                 e->first_row, sqlite3_errmsg (self->db));
      return NULL;
    }
  size = sqlite3_blob_bytes (blob);
  bytes = g_malloc (MAX (size, 1));
  *rc = sqlite3_blob_read (blob, bytes, size, 0);
  sqlite3_blob_close (blob);
  if (*rc != SQLITE_OK || (gsize)size != sextant_chunk_data_size (&e->chunk))
    {
      g_free (bytes);
      set_error (self, "%s: chunk %" G_GINT64_FORMAT " is damaged", self->chunk_table, e->first_row);
      *rc = SQLITE_CORRUPT;
      return NULL;
    }

  return keep (self, i, g_bytes_new_take (bytes, size));
}
