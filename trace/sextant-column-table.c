/*
 * sextant-column-table.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The "sextant_columns" virtual table module (see sextant-column-table.h).
 *
 * Per table and connection it keeps the chunk directory (first row, row
 * count and parsed header of every chunk, sorted by first row), reloaded
 * when the connection's module reports a write, and an LRU cache of chunk
 * data of at most CACHE_BYTES, filled through the incremental blob API.
 * Cursors hold a reference on the data they read, so eviction never pulls
 * a chunk from under a running scan.
 *
 * Planning: the row id (and its alias column) supports =, <, <=, >, >=;
 * every integer column supports the same against its chunks' zone maps. The
 * selectivity a constraint is credited with comes from the zone maps
 * themselves: a column whose chunks each cover a narrow part of its range
 * (the location of a visit, the level of a pyramid row) prunes well, one
 * whose every chunk covers everything (the sender of a message) not at all,
 * so the planner does not loop over a table that cannot be searched.
 * Constraints are always rechecked by SQLite (omit = 0): the cursor only
 * filters early.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#ifdef SEXTANT_SQLITE_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif

#include "sextant-chunk.h"
#include "sextant-column-chunks.h"
#include "sextant-column-table.h"

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

struct _SextantColumnModule
{
  guint64    generation;
  gboolean (*interrupted) (gpointer data);   /* or NULL */
  gpointer   interrupted_data;
  GHashTable *memory;                        /* temp table name -> SextantColumnChunks */
};

typedef struct
{
  char   *name;
  gint    stored;        /* index among the stored columns, -1 for the row id */
  GStrv   texts;         /* TEXT columns: the strings, by stored value */
} Column;

typedef struct
{
  gint64        first_row;
  SextantChunk  chunk;       /* header only: data is NULL */
  GBytes       *data;        /* cached, or NULL */
  guint         newer;       /* the cached entries, a list from the least */
  guint         older;       /* recently used: indexes, or NO_ENTRY */
} DirEntry;

#define NO_ENTRY G_MAXUINT

typedef struct
{
  sqlite3_vtab          base;
  sqlite3              *db;
  SextantColumnModule  *module;
  char                 *schema;
  char                 *chunk_table;
  SextantColumnChunks  *memory;       /* or NULL: the chunks are in chunk_table */
  guint                 n_cols;
  Column               *cols;
  guint                 n_stored;

  /* directory */
  guint64               generation;
  gboolean              loaded;
  GArray               *dir;          /* DirEntry by first_row */
  gint64                n_rows;
  double                spread[SEXTANT_CHUNK_MAX_COLS];  /* chunk range, mean over the rows / column range */

  /* cache: the entries with data, from the least recently used (a
   * directory of 150,000 chunks, as a shard's visits with the halo's, makes
   * a search for the oldest cost more than reading the chunk) */
  gsize                 cache_bytes;
  guint                 oldest;
  guint                 newest;
} ColumnTable;

typedef struct
{
  guint   col;             /* stored column */
  gint64  lo;
  gint64  hi;
} Range;

typedef struct
{
  sqlite3_vtab_cursor  base;
  guint                entry;          /* index in the directory */
  guint                row;
  gboolean             eof;
  SextantChunk         chunk;
  GBytes              *data;
  gint64               first_row;
  gint64               lo;             /* row id bounds */
  gint64               hi;
  guint                n_ranges;
  Range                ranges[SEXTANT_CHUNK_MAX_COLS];
} ColumnCursor;

/* Arguments ---------------------------------------------------------------- */

static void
column_clear (Column *col)
{
  g_free (col->name);
  g_strfreev (col->texts);
}

static void
table_free (ColumnTable *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < self->n_cols; i++)
    column_clear (&self->cols[i]);
  g_free (self->cols);
  g_clear_pointer (&self->memory, sextant_column_chunks_unref);
  if (self->dir != NULL)
    {
      for (guint i = 0; i < self->dir->len; i++)
        g_clear_pointer (&g_array_index (self->dir, DirEntry, i).data, g_bytes_unref);
      g_array_unref (self->dir);
    }
  g_free (self->schema);
  g_free (self->chunk_table);
  g_free (self);
}

static gboolean
is_identifier (const char *s)
{
  if (s == NULL || !(g_ascii_isalpha (*s) || *s == '_'))
    return FALSE;
  for (; *s != '\0'; s++)
    if (!(g_ascii_isalnum (*s) || *s == '_'))
      return FALSE;

  return TRUE;
}

static ColumnTable *
table_new (sqlite3              *db,
           SextantColumnModule  *module,
           int                   argc,
           const char * const   *argv,
           char                **err)
{
  ColumnTable *self = g_new0 (ColumnTable, 1);
  g_autoptr(GString) decl = g_string_new ("CREATE TABLE x (");
  gboolean have_rowid = FALSE;
  int rc;

  self->db = db;
  self->module = module;
  self->schema = g_strdup (argv[1]);
  self->chunk_table = g_strdup_printf ("%s_chunk", argv[2]);
  if (module->memory != NULL && g_str_equal (argv[1], "temp") &&
      (self->memory = g_hash_table_lookup (module->memory, argv[2])) != NULL)
    sextant_column_chunks_ref (self->memory);
  self->n_cols = argc - 3;
  self->cols = g_new0 (Column, MAX (self->n_cols, 1));
  self->dir = g_array_new (FALSE, TRUE, sizeof (DirEntry));
  self->oldest = self->newest = NO_ENTRY;

  if (self->n_cols == 0)
    {
      *err = sqlite3_mprintf ("sextant_columns: %s declares no columns", argv[2]);
      goto fail;
    }

  for (guint i = 0; i < self->n_cols; i++)
    {
      g_autofree char *arg = g_strstrip (g_strdup (argv[3 + i]));
      g_auto(GStrv) words = g_strsplit_set (arg, " \t\n", -1);
      g_autoptr(GPtrArray) parts = g_ptr_array_new ();
      Column *col = &self->cols[i];

      for (guint k = 0; words[k] != NULL; k++)
        if (*words[k] != '\0')
          g_ptr_array_add (parts, words[k]);

      if (parts->len > 0)
        {
          char *name = parts->pdata[0];
          gsize len = strlen (name);

          /* "end": a quoted keyword */
          if (len > 2 && name[0] == '"' && name[len - 1] == '"')
            {
              name[len - 1] = '\0';
              parts->pdata[0] = name + 1;
            }
        }

      if (parts->len == 0 || !is_identifier (parts->pdata[0]))
        {
          *err = sqlite3_mprintf ("sextant_columns: bad column declaration \"%s\"", argv[3 + i]);
          goto fail;
        }
      col->name = g_strdup (parts->pdata[0]);
      col->stored = (gint)self->n_stored;

      if (parts->len == 2 && g_ascii_strcasecmp (parts->pdata[1], "ROWID") == 0 && !have_rowid)
        {
          col->stored = -1;
          have_rowid = TRUE;
        }
      else if (parts->len >= 3 && g_ascii_strcasecmp (parts->pdata[1], "TEXT") == 0)
        {
          col->texts = g_new0 (char *, parts->len - 1);
          for (guint k = 2; k < parts->len; k++)
            col->texts[k - 2] = g_strdup (parts->pdata[k]);
        }
      else if (parts->len != 1)
        {
          *err = sqlite3_mprintf ("sextant_columns: bad column declaration \"%s\"", argv[3 + i]);
          goto fail;
        }

      if (col->stored >= 0)
        self->n_stored++;
      g_string_append_printf (decl, "%s\"%s\" %s", i > 0 ? ", " : "", col->name,
                              col->texts != NULL ? "TEXT" : "INTEGER");
    }
  g_string_append (decl, ")");

  if (self->n_stored > SEXTANT_CHUNK_MAX_COLS)
    {
      *err = sqlite3_mprintf ("sextant_columns: more than %d stored columns", SEXTANT_CHUNK_MAX_COLS);
      goto fail;
    }

  rc = sqlite3_declare_vtab (db, decl->str);
  if (rc != SQLITE_OK)
    {
      *err = sqlite3_mprintf ("sextant_columns: %s", sqlite3_errmsg (db));
      goto fail;
    }
  sqlite3_vtab_config (db, SQLITE_VTAB_INNOCUOUS);

  return self;

fail:
  table_free (self);
  return NULL;
}

static int
table_connect (sqlite3             *db,
               void                *aux,
               int                  argc,
               const char * const  *argv,
               sqlite3_vtab       **vtab,
               char               **err)
{
  ColumnTable *self = table_new (db, aux, argc, argv, err);

  if (self == NULL)
    return SQLITE_ERROR;

  *vtab = &self->base;
  return SQLITE_OK;
}

static int
table_create (sqlite3             *db,
              void                *aux,
              int                  argc,
              const char * const  *argv,
              sqlite3_vtab       **vtab,
              char               **err)
{
  ColumnTable *self = table_new (db, aux, argc, argv, err);
  char *sql;
  int rc;

  if (self == NULL)
    return SQLITE_ERROR;
  if (self->memory != NULL)
    {
      *vtab = &self->base;
      return SQLITE_OK;
    }

  sql = sqlite3_mprintf ("CREATE TABLE \"%w\".\"%w\" (first_row INTEGER PRIMARY KEY, "
                         "n INTEGER NOT NULL, header BLOB NOT NULL, data BLOB NOT NULL)",
                         self->schema, self->chunk_table);
  rc = sqlite3_exec (db, sql, NULL, NULL, err);
  sqlite3_free (sql);
  if (rc != SQLITE_OK)
    {
      table_free (self);
      return rc;
    }

  *vtab = &self->base;
  return SQLITE_OK;
}

static int
table_disconnect (sqlite3_vtab *vtab)
{
  table_free ((ColumnTable *)vtab);
  return SQLITE_OK;
}

static int
table_destroy (sqlite3_vtab *vtab)
{
  ColumnTable *self = (ColumnTable *)vtab;
  char *sql;
  int rc;

  if (self->memory != NULL)
    {
      table_free (self);
      return SQLITE_OK;
    }
  sql = sqlite3_mprintf ("DROP TABLE IF EXISTS \"%w\".\"%w\"", self->schema, self->chunk_table);
  rc = sqlite3_exec (self->db, sql, NULL, NULL, NULL);
  sqlite3_free (sql);
  if (rc == SQLITE_OK)
    table_free (self);

  return rc;
}

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

static int
load_directory (ColumnTable *self)
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
static GBytes *
chunk_data (ColumnTable *self,
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

/* Planning ----------------------------------------------------------------- */

static gboolean
usable_op (unsigned char op)
{
  return op == SQLITE_INDEX_CONSTRAINT_EQ || op == SQLITE_INDEX_CONSTRAINT_GT ||
         op == SQLITE_INDEX_CONSTRAINT_GE || op == SQLITE_INDEX_CONSTRAINT_LT ||
         op == SQLITE_INDEX_CONSTRAINT_LE;
}

/* idxStr: one "<stored column or R for the row id><op letter>" per argv value */
static int
table_best_index (sqlite3_vtab       *vtab,
                  sqlite3_index_info *info)
{
  ColumnTable *self = (ColumnTable *)vtab;
  g_autoptr(GString) plan = g_string_new (NULL);
  double rows;
  double fraction = 1.0;
  gboolean unique = FALSE;
  gboolean row_lo = FALSE, row_hi = FALSE;
  int argv_index = 0;
  int rc;

  if ((rc = load_directory (self)) != SQLITE_OK)
    return rc;
  rows = MAX (self->n_rows, 1);

  for (int i = 0; i < info->nConstraint; i++)
    {
      const struct sqlite3_index_constraint *c = &info->aConstraint[i];
      gint stored;
      char op;

      if (!c->usable || !usable_op (c->op))
        continue;
      if (c->iColumn >= 0 && self->cols[c->iColumn].texts != NULL)
        continue;

      stored = c->iColumn < 0 ? -1 : self->cols[c->iColumn].stored;
      op = c->op == SQLITE_INDEX_CONSTRAINT_EQ ? '=' : c->op == SQLITE_INDEX_CONSTRAINT_GT ? '>' :
           c->op == SQLITE_INDEX_CONSTRAINT_GE ? 'g' : c->op == SQLITE_INDEX_CONSTRAINT_LT ? '<' : 'l';

      if (stored < 0)
        {
          if (op == '=')
            unique = TRUE;
          else if (op == '>' || op == 'g')
            row_lo = TRUE;
          else
            row_hi = TRUE;
          g_string_append_printf (plan, "R%c", op);
        }
      else
        {
          double spread = self->spread[stored];

          /* an equality hits the chunks whose range holds the value; a
           * bound about half of the rest */
          fraction *= op == '=' ? MAX (spread, 1.0 / rows) : MIN (1.0, 0.5 + spread);
          g_string_append_printf (plan, "%u%c", (guint)stored, op);
        }
      info->aConstraintUsage[i].argvIndex = ++argv_index;
      info->aConstraintUsage[i].omit = 0;
    }

  if (unique)
    {
      info->estimatedRows = 1;
      info->estimatedCost = 10;
      info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    }
  else
    {
      if (row_lo && row_hi)
        fraction *= 0.1;
      else if (row_lo || row_hi)
        fraction *= 0.5;
      info->estimatedRows = (sqlite3_int64)MAX (1.0, rows * fraction);
      info->estimatedCost = 100 + rows * fraction * 2;
    }

  if (info->nOrderBy == 1 && !info->aOrderBy[0].desc &&
      (info->aOrderBy[0].iColumn < 0 || self->cols[info->aOrderBy[0].iColumn].stored < 0))
    info->orderByConsumed = 1;

  info->idxStr = sqlite3_mprintf ("%s", plan->str);
  info->needToFreeIdxStr = 1;

  return SQLITE_OK;
}

/* Scanning ------------------------------------------------------------------- */

static int
cursor_open (sqlite3_vtab         *vtab,
             sqlite3_vtab_cursor **cursor)
{
  ColumnCursor *self = g_new0 (ColumnCursor, 1);

  self->eof = TRUE;
  *cursor = &self->base;
  return SQLITE_OK;
}

static int
cursor_close (sqlite3_vtab_cursor *cursor)
{
  ColumnCursor *self = (ColumnCursor *)cursor;

  g_clear_pointer (&self->data, g_bytes_unref);
  g_free (self);
  return SQLITE_OK;
}

static gboolean
chunk_may_match (const ColumnCursor *self,
                 const DirEntry     *e)
{
  if (e->first_row > self->hi || e->first_row + e->chunk.n_rows - 1 < self->lo || e->chunk.n_rows == 0)
    return FALSE;

  for (guint k = 0; k < self->n_ranges; k++)
    {
      const SextantChunkColumn *col = &e->chunk.cols[self->ranges[k].col];

      if (col->all_null || col->max < self->ranges[k].lo || col->min > self->ranges[k].hi)
        return FALSE;
    }

  return TRUE;
}

static gboolean
row_matches (const ColumnCursor *self)
{
  gint64 rowid = self->first_row + self->row;

  if (rowid < self->lo || rowid > self->hi)
    return FALSE;

  for (guint k = 0; k < self->n_ranges; k++)
    {
      gint64 v = sextant_chunk_get (&self->chunk, self->ranges[k].col, self->row);

      if (v == G_MININT64 || v < self->ranges[k].lo || v > self->ranges[k].hi)
        return FALSE;
    }

  return TRUE;
}

/* Moves to the first matching row at or after (entry, row). */
static int
seek (ColumnCursor *self,
      gboolean      same_chunk)
{
  ColumnTable *table = (ColumnTable *)self->base.pVtab;

  for (;;)
    {
      if (same_chunk)
        {
          for (; self->row < self->chunk.n_rows; self->row++)
            {
              if (self->first_row + self->row > self->hi)
                {
                  self->eof = TRUE;
                  return SQLITE_OK;
                }
              if (row_matches (self))
                return SQLITE_OK;
            }
          self->entry++;
        }

      /* the next chunk that may match */
      for (; self->entry < table->dir->len; self->entry++)
        {
          const DirEntry *e = &g_array_index (table->dir, DirEntry, self->entry);

          if (e->first_row > self->hi)
            break;
          if (chunk_may_match (self, e))
            break;
        }
      if (self->entry >= table->dir->len ||
          g_array_index (table->dir, DirEntry, self->entry).first_row > self->hi)
        {
          self->eof = TRUE;
          return SQLITE_OK;
        }

      /* a scan that skips row after row runs here, not in SQLite's
       * virtual machine, which checks for an interrupt between rows: a
       * cancelled query stops at the next chunk */
      if (table->module->interrupted != NULL && table->module->interrupted (table->module->interrupted_data))
        return SQLITE_INTERRUPT;

      {
        const DirEntry *e = &g_array_index (table->dir, DirEntry, self->entry);
        int rc = SQLITE_OK;

        g_clear_pointer (&self->data, g_bytes_unref);
        self->data = chunk_data (table, self->entry, &rc);
        if (self->data == NULL)
          return rc != SQLITE_OK ? rc : SQLITE_NOMEM;
        self->chunk = e->chunk;
        sextant_chunk_attach_data (&self->chunk, g_bytes_get_data (self->data, NULL),
                                   g_bytes_get_size (self->data));
        self->first_row = e->first_row;
        self->row = self->lo > e->first_row ? (guint)(self->lo - e->first_row) : 0;
        same_chunk = TRUE;
      }
    }
}

/* The integer bound an integer or real constraint value gives, FALSE if the
 * value cannot be compared as a number (then no row matches). */
static gboolean
bound_of (sqlite3_value *value,
          char           op,
          gint64        *lo,
          gint64        *hi)
{
  gint64 v;

  switch (sqlite3_value_numeric_type (value))
    {
    case SQLITE_INTEGER:
      v = sqlite3_value_int64 (value);
      switch (op)
        {
        case '=': *lo = MAX (*lo, v); *hi = MIN (*hi, v); break;
        case '>': if (v == G_MAXINT64) return FALSE; *lo = MAX (*lo, v + 1); break;
        case 'g': *lo = MAX (*lo, v); break;
        case '<': if (v == G_MININT64) return FALSE; *hi = MIN (*hi, v - 1); break;
        case 'l': *hi = MIN (*hi, v); break;
        }
      return TRUE;

    case SQLITE_FLOAT:
      {
        double d = sqlite3_value_double (value);

        if (isnan (d))
          return FALSE;
        if (op == '=' && d != floor (d))
          return FALSE;
        if (op == '>' || op == 'g' || op == '=')
          *lo = MAX (*lo, d > 9.2e18 ? G_MAXINT64 : d < -9.2e18 ? G_MININT64 + 1
                          : (gint64)(op == '>' ? floor (d) + 1 : ceil (d)));
        if (op == '<' || op == 'l' || op == '=')
          *hi = MIN (*hi, d > 9.2e18 ? G_MAXINT64 : d < -9.2e18 ? G_MININT64 + 1
                          : (gint64)(op == '<' ? ceil (d) - 1 : floor (d)));
        return TRUE;
      }

    case SQLITE_NULL:
      return FALSE;

    default:
      /* text and blobs sort after every number: < and <= hold for all */
      return op == '<' || op == 'l';
    }
}

static int
cursor_filter (sqlite3_vtab_cursor  *cursor,
               int                   idx_num,
               const char           *idx_str,
               int                   argc,
               sqlite3_value       **argv)
{
  ColumnCursor *self = (ColumnCursor *)cursor;
  ColumnTable *table = (ColumnTable *)cursor->pVtab;
  const char *p = idx_str != NULL ? idx_str : "";
  int rc;

  if ((rc = load_directory (table)) != SQLITE_OK)
    return rc;

  self->eof = FALSE;
  self->lo = G_MININT64;
  self->hi = G_MAXINT64;
  self->n_ranges = 0;

  for (int i = 0; i < argc && *p != '\0'; i++)
    {
      gint stored = -1;
      char op;

      if (*p == 'R')
        p++;
      else
        stored = (gint)g_ascii_strtoull (p, (char **)&p, 10);
      op = *p++;

      if (stored < 0)
        {
          if (!bound_of (argv[i], op, &self->lo, &self->hi))
            self->eof = TRUE;
        }
      else
        {
          Range *range = NULL;

          for (guint k = 0; k < self->n_ranges; k++)
            if (self->ranges[k].col == (guint)stored)
              range = &self->ranges[k];
          if (range == NULL)
            {
              range = &self->ranges[self->n_ranges++];
              range->col = stored;
              range->lo = G_MININT64 + 1;
              range->hi = G_MAXINT64;
            }
          if (!bound_of (argv[i], op, &range->lo, &range->hi))
            self->eof = TRUE;
        }
    }

  g_clear_pointer (&self->data, g_bytes_unref);
  if (self->eof || self->lo > self->hi)
    {
      self->eof = TRUE;
      return SQLITE_OK;
    }
  for (guint k = 0; k < self->n_ranges; k++)
    if (self->ranges[k].lo > self->ranges[k].hi)
      {
        self->eof = TRUE;
        return SQLITE_OK;
      }

  /* the first chunk that ends at or after lo */
  {
    guint a = 0, b = table->dir->len;

    while (a < b)
      {
        guint m = a + (b - a) / 2;
        const DirEntry *e = &g_array_index (table->dir, DirEntry, m);

        if (e->first_row + (gint64)e->chunk.n_rows - 1 < self->lo)
          a = m + 1;
        else
          b = m;
      }
    self->entry = a;
    self->row = 0;
  }

  return seek (self, FALSE);
}

static int
cursor_next (sqlite3_vtab_cursor *cursor)
{
  ColumnCursor *self = (ColumnCursor *)cursor;

  self->row++;
  return seek (self, TRUE);
}

static int
cursor_eof (sqlite3_vtab_cursor *cursor)
{
  return ((ColumnCursor *)cursor)->eof;
}

static int
cursor_column (sqlite3_vtab_cursor *cursor,
               sqlite3_context     *ctx,
               int                  i)
{
  ColumnCursor *self = (ColumnCursor *)cursor;
  ColumnTable *table = (ColumnTable *)cursor->pVtab;
  const Column *col = &table->cols[i];
  gint64 v;

  if (col->stored < 0)
    {
      sqlite3_result_int64 (ctx, self->first_row + self->row);
      return SQLITE_OK;
    }

  v = sextant_chunk_get (&self->chunk, col->stored, self->row);
  if (v == G_MININT64)
    sqlite3_result_null (ctx);
  else if (col->texts == NULL)
    sqlite3_result_int64 (ctx, v);
  else if (v >= 0 && v < (gint64)g_strv_length (col->texts))
    sqlite3_result_text (ctx, col->texts[v], -1, SQLITE_STATIC);
  else
    sqlite3_result_null (ctx);

  return SQLITE_OK;
}

static int
cursor_rowid (sqlite3_vtab_cursor *cursor,
              sqlite3_int64       *rowid)
{
  ColumnCursor *self = (ColumnCursor *)cursor;

  *rowid = self->first_row + self->row;
  return SQLITE_OK;
}

static const sqlite3_module column_module = {
  .iVersion = 0,
  .xCreate = table_create,
  .xConnect = table_connect,
  .xBestIndex = table_best_index,
  .xDisconnect = table_disconnect,
  .xDestroy = table_destroy,
  .xOpen = cursor_open,
  .xClose = cursor_close,
  .xFilter = cursor_filter,
  .xNext = cursor_next,
  .xEof = cursor_eof,
  .xColumn = cursor_column,
  .xRowid = cursor_rowid,
};

static void
module_free (gpointer data)
{
  SextantColumnModule *module = data;

  g_clear_pointer (&module->memory, g_hash_table_unref);
  g_free (module);
}

SextantColumnModule *
sextant_column_table_register (sqlite3  *db,
                               char    **error_message)
{
  SextantColumnModule *module = g_new0 (SextantColumnModule, 1);
  int rc;

  /* sqlite3_create_module_v2 frees the module data even when it fails */
  rc = sqlite3_create_module_v2 (db, "sextant_columns", &column_module, module, module_free);
  if (rc != SQLITE_OK)
    {
      if (error_message != NULL)
        *error_message = g_strdup (sqlite3_errmsg (db));
      return NULL;
    }

  return module;
}

void
sextant_column_module_changed (SextantColumnModule *module)
{
  module->generation++;
}

/* @func (@data) is called before each chunk a scan reads; when it returns
 * TRUE the scan fails with SQLITE_INTERRUPT. */
void
sextant_column_module_set_interrupt_func (SextantColumnModule  *module,
                                          gboolean            (*func) (gpointer data),
                                          gpointer              data)
{
  module->interrupted = func;
  module->interrupted_data = data;
}

/* The table temp.@name of @module's connection created from now on reads
 * @chunks (a reference is taken) instead of temp.@name_chunk. */
void
sextant_column_module_set_memory_table (SextantColumnModule *module,
                                        const char          *name,
                                        SextantColumnChunks *chunks)
{
  if (module->memory == NULL)
    module->memory = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify)sextant_column_chunks_unref);
  g_hash_table_replace (module->memory, g_strdup (name), sextant_column_chunks_ref (chunks));
}
