/*
 * sextant-store-instance-routes.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Which shard holds which instance ids (sextant-store-instance-routes.h):
 * the runs of consecutive ids of each shard, written into the manifest by
 * the merge of a parallel analysis and read by the manifest's reader,
 * sorted, for a binary search per instance it looks up. The import
 * benchmark's 12-rank, 120,000-event stencil in 3 shards has 13,529
 * instances in 41 runs.
 */
#include "config.h"

#include "sextant-store-instance-routes.h"
#include "sextant-store-views-private.h"

typedef struct
{
  gint64 first;
  gint64 last;
  guint  rank;
} Run;

struct _SextantInstanceRoutes
{
  sqlite3      *db;        /* the manifest's connection (not owned) */
  GArray       *runs;      /* Run, by first id; NULL: none recorded */
  gboolean      loaded;
  unsigned int  version;   /* the manifest's data version when they were read */
};

SextantInstanceRoutes *
sextant_instance_routes_new (sqlite3 *db)
{
  SextantInstanceRoutes *self = g_new0 (SextantInstanceRoutes, 1);

  self->db = db;

  return self;
}

void
sextant_instance_routes_free (SextantInstanceRoutes *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->runs, g_array_unref);
  g_free (self);
}

/* The runs as the manifest has them now (none when it has no table of them) */
static void
load (SextantInstanceRoutes *self)
{
  sqlite3_stmt *stmt = NULL;

  g_clear_pointer (&self->runs, g_array_unref);
  if (sqlite3_prepare_v2 (self->db, "SELECT first, last, shard FROM main." SEXTANT_INSTANCE_ROUTES_TABLE
                          " ORDER BY first", -1, &stmt, NULL) != SQLITE_OK)
    return;
  self->runs = g_array_new (FALSE, FALSE, sizeof (Run));
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      Run run = { sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1),
                  (guint)sqlite3_column_int64 (stmt, 2) };

      g_array_append_val (self->runs, run);
    }
  if (sqlite3_reset (stmt) != SQLITE_OK)
    g_clear_pointer (&self->runs, g_array_unref);
  sqlite3_finalize (stmt);
  /* an analysis written before the runs were recorded has instances and no
   * runs, or the runs of an earlier analysis: they must cover as many ids
   * as the summary counts instances */
  if (self->runs != NULL)
    {
      gint64 covered = 0, counted = -1;

      for (guint i = 0; i < self->runs->len; i++)
        covered += g_array_index (self->runs, Run, i).last - g_array_index (self->runs, Run, i).first + 1;
      if (sqlite3_prepare_v2 (self->db, "SELECT coalesce (sum (instances), 0) FROM main.pattern_aggregate", -1, &stmt,
                              NULL) == SQLITE_OK && sqlite3_step (stmt) == SQLITE_ROW)
        counted = sqlite3_column_int64 (stmt, 0);
      sqlite3_finalize (stmt);
      if (self->runs->len == 0 || covered != counted)
        g_clear_pointer (&self->runs, g_array_unref);
    }
}

SextantInstanceRoute
sextant_instance_routes_lookup (SextantInstanceRoutes *self,
                                gint64                 id,
                                guint                 *rank)
{
  unsigned int version = 0;
  guint lo, hi;

  /* the file's version counts the commits of this connection too */
  if (sqlite3_file_control (self->db, "main", SQLITE_FCNTL_DATA_VERSION, &version) != SQLITE_OK)
    self->loaded = FALSE;
  if (!self->loaded || version != self->version)
    {
      load (self);
      self->loaded = TRUE;
      self->version = version;
    }
  if (self->runs == NULL)
    return SEXTANT_INSTANCE_ROUTE_ANY;

  /* the last run that begins at or before @id */
  lo = 0;
  hi = self->runs->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->runs, Run, mid).first <= id)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || g_array_index (self->runs, Run, lo - 1).last < id)
    return SEXTANT_INSTANCE_ROUTE_NONE;
  *rank = g_array_index (self->runs, Run, lo - 1).rank;

  return SEXTANT_INSTANCE_ROUTE_SHARD;
}

typedef struct
{
  SextantStore *manifest;
  gint64        rank;
  gint64        first;     /* the run under way: first and last id, or -1 */
  gint64        last;
} Writing;

static gboolean
write_run (Writing  *w,
           GError  **error)
{
  gint64 none = 0;

  return w->first < 0 ||
         sextant_store_foreach_sql (w->manifest, "INSERT INTO " SEXTANT_INSTANCE_ROUTES_TABLE " (first, last, shard) "
                                                 "VALUES (?, ?, ?)", _sextant_store_take_int, &none, error, "iii",
                                    w->first, w->last, w->rank);
}

/* A chunk of the shard's instances (first_row, n): it continues the run
 * under way or ends it */
static gboolean
add_chunk (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  Writing *w = user_data;
  gint64 first = sextant_row_get_int (row, 0);
  gint64 n = sextant_row_get_int (row, 1);

  if (n <= 0)
    return TRUE;
  if (w->first >= 0 && first == w->last + 1)
    {
      w->last = first + n - 1;
      return TRUE;
    }
  if (!write_run (w, error))
    return FALSE;
  w->first = first;
  w->last = first + n - 1;

  return TRUE;
}

gboolean
sextant_store_write_instance_routes (SextantStore  *manifest,
                                     SextantStore  *shard,
                                     gint64         rank,
                                     GError       **error)
{
  Writing w = { manifest, rank, -1, -1 };

  g_return_val_if_fail (SEXTANT_IS_STORE (manifest), FALSE);

  if (shard == NULL)
    return _sextant_store_exec_sql (manifest, "CREATE TABLE IF NOT EXISTS " SEXTANT_INSTANCE_ROUTES_TABLE " ("
                                              "first INTEGER PRIMARY KEY, last INTEGER NOT NULL, "
                                              "shard INTEGER NOT NULL); "
                                              "DELETE FROM " SEXTANT_INSTANCE_ROUTES_TABLE, error);

  /* runs of consecutive ids, from the chunks' directory (the instances'
   * rows are not read) */
  return sextant_store_foreach_sql (shard, "SELECT first_row, n FROM pattern_instance_data_chunk ORDER BY first_row",
                                    add_chunk, &w, error, "") &&
         write_run (&w, error);
}
