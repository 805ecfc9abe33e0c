/*
 * sextant-store-views.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared views of an analysis: the views that several patterns read
 * and that cost seconds to compute on a large trace (receive_wait and the
 * other point-to-point views, sextant-store-views-p2p.c; collective_visit,
 * -collective.c; and master_workers, -master.c, which a shard's analysis
 * counts over the whole trace's messages), copied into temporary column tables whose chunks live
 * outside the store (SextantColumnChunks). sextant_store_materialize_views()
 * makes the copies a query needs on its connection, computing each at most
 * once among the connections that share a SextantSharedViews.
 */
#include "config.h"

#include <string.h>

#include "sextant-chunk-row.h"
#include "sextant-column-table.h"
#include "sextant-store-private.h"
#include "sextant-store-views-p2p.h"
#include "sextant-store-views-private.h"

#define TEMP_COLUMNS_CHUNK_ROWS 4096

/**
 * _sextant_store_attach_temp_columns:
 * @name: the temporary table, e.g. "receive_wait"
 * @columns: its columns as sextant_columns declares them ("loc, visit, ...")
 * @chunks: its rows
 *
 * Replaces the temporary column table temp.@name of this connection by one
 * that reads @chunks in memory: the copy of a shared view
 * (sextant_store_materialize_views()), which shadows the view of the same
 * name. Its rows are encoded once (a twentieth of the time of inserting
 * them into a temporary table) and read as fast as events; the store's
 * shared views, if it has them (sextant_store_set_shared_views()), keep
 * @chunks for the other connections of the analysis.
 *
 * Threading: the store's owning thread.
 */
gboolean
_sextant_store_take_int (const SextantRow  *row,
                         gpointer           user_data,
                         GError           **error)
{
  *(gint64 *)user_data = sextant_row_get_int (row, 0);

  return FALSE;
}

gboolean
_sextant_store_attach_chunk_data (const SextantRow  *row,
                                  SextantChunk      *chunk,
                                  GError           **error)
{
  return sextant_chunk_row_attach_data (row, chunk, NULL, error);
}

gboolean
_sextant_store_parse_chunk_row (const SextantRow  *row,
                                guint              n_cols,
                                gboolean           with_data,
                                SextantChunk      *chunk,
                                GError           **error)
{
  return sextant_chunk_row_parse_header (row, n_cols, chunk, error) &&
         (!with_data || sextant_chunk_row_attach_data (row, chunk, NULL, error));
}

/* temp.@name of this connection as a column table reading @chunks (a copy
 * this connection computed or another one published). */
static gboolean
create_temp_columns (SextantStore         *self,
                     const char           *name,
                     const char           *columns,
                     SextantColumnChunks  *chunks,
                     GError              **error)
{
  g_autofree char *create = g_strdup_printf ("DROP TABLE IF EXISTS temp.%s; DROP TABLE IF EXISTS temp.%s_chunk; "
                                             "CREATE VIRTUAL TABLE temp.%s USING sextant_columns (%s)",
                                             name, name, name, columns);
  g_autofree char *drop_view = g_strdup_printf ("DROP VIEW temp.%s", name);
  gint64 is_view = 0;

  /* a manifest's connection has its views as temporary views (sextant-store-union.c) */
  if (!sextant_store_foreach_sql (self, "SELECT count(*) FROM temp.sqlite_master WHERE type = 'view' AND name = ?",
                                  _sextant_store_take_int, &is_view, error, "t", name) ||
      (is_view > 0 && !_sextant_store_exec_sql (self, drop_view, error)))
    return FALSE;
  sextant_column_module_set_memory_table (_sextant_store_get_columns (self), name, chunks);
  if (!_sextant_store_exec_sql (self, create, error))
    return FALSE;
  sextant_column_module_changed (_sextant_store_get_columns (self));

  return TRUE;
}

gboolean
_sextant_store_attach_temp_columns (SextantStore         *self,
                                    const char           *name,
                                    const char           *columns,
                                    SextantColumnChunks  *chunks,
                                    GError              **error)
{
  if (!create_temp_columns (self, name, columns, chunks, error))
    return FALSE;
  if (_sextant_store_get_shared_views (self) != NULL)
    sextant_shared_views_publish (_sextant_store_get_shared_views (self), name, columns, chunks);
  g_debug ("%s: %" G_GINT64_FORMAT " rows, %.1f MiB", name, sextant_column_chunks_get_n_rows (chunks),
           sextant_column_chunks_get_size (chunks) / 1048576.0);

  return TRUE;
}

/**
 * sextant_store_write_temp_columns:
 * @name: the temporary table, e.g. "receive_wait"
 * @columns: its columns as sextant_columns declares them ("loc, visit, ...")
 * @n_cols: how many
 * @n_rows: the rows
 * @func: fills the rows [first, first + n) of each chunk, column by column
 *   (%SEXTANT_NULL for NULL)
 *
 * Replaces the temporary column table temp.@name of this connection by one
 * of @n_rows rows (_sextant_store_attach_temp_columns()), which @func
 * writes chunk by chunk.
 *
 * Threading: the store's owning thread.
 */
gboolean
sextant_store_write_temp_columns (SextantStore               *self,
                                  const char                 *name,
                                  const char                 *columns,
                                  guint                       n_cols,
                                  gsize                       n_rows,
                                  SextantTempColumnsFunc      func,
                                  gpointer                    user_data,
                                  GError                    **error)
{
  g_autoptr(SextantColumnChunks) chunks = NULL;
  g_autofree gint64 *values = NULL;

  g_return_val_if_fail (n_cols > 0 && n_cols <= SEXTANT_CHUNK_MAX_COLS, FALSE);

  chunks = sextant_column_chunks_new (n_cols);
  values = g_new (gint64, (gsize)n_cols * TEMP_COLUMNS_CHUNK_ROWS);
  for (gsize first = 0; first < n_rows; first += TEMP_COLUMNS_CHUNK_ROWS)
    {
      guint n = (guint)MIN (TEMP_COLUMNS_CHUNK_ROWS, n_rows - first);
      gint64 *chunk[SEXTANT_CHUNK_MAX_COLS];

      if (sextant_store_set_error_if_cancelled (self, error))
        return FALSE;
      for (guint c = 0; c < n_cols; c++)
        chunk[c] = values + (gsize)c * TEMP_COLUMNS_CHUNK_ROWS;
      func (first, n, chunk, user_data);
      if (!sextant_column_chunks_append (chunks, (const gint64 * const *)chunk, n, error))
        return FALSE;
    }

  return _sextant_store_attach_temp_columns (self, name, columns, chunks, error);
}

/* Views that several patterns read and that cost seconds to compute on a
 * large trace (a window over every message), and how to copy them. */
static const struct
{
  const char  *name;
  gboolean   (*fill) (SextantStore *self, GError **error);
} shared_views[] = {
  /* filled together: one bit in sextant_store_reads_shared_views() */
  { "receive_wait", _sextant_store_fill_p2p_views },
  { "early_wait_op", _sextant_store_fill_p2p_views },
  { "late_receiver_send", _sextant_store_fill_p2p_views },
  { "close_send_recv_pair", _sextant_store_fill_p2p_views },
  { "collective_visit", _sextant_store_fill_collective_visit },
  { "master_workers", _sextant_store_fill_master_workers },
};

/* The bit of shared view @i's fill: the index of the first view it fills. */
static guint
fill_bit (guint i)
{
  guint first = 0;

  while (shared_views[first].fill != shared_views[i].fill)
    first++;

  return first;
}

/* Which of the shared views that sextant_store_materialize_views() copies
 * @sql reads: a bit per fill (1 << the index of the first view it fills;
 * the point-to-point views are filled together, so they share a bit), 0
 * for none. */
guint
sextant_store_reads_shared_views (const char *sql)
{
  guint views = 0;

  G_STATIC_ASSERT (G_N_ELEMENTS (shared_views) <= 32);
  for (guint i = 0; i < G_N_ELEMENTS (shared_views); i++)
    if (strstr (sql, shared_views[i].name) != NULL)
      views |= 1u << fill_bit (i);

  return views;
}

/* Reads the views of fill @bit, which another connection computed, from
 * the chunks it published. */
static gboolean
attach_shared_fill (SextantStore  *self,
                    guint          bit,
                    GError       **error)
{
  for (guint j = 0; j < G_N_ELEMENTS (shared_views); j++)
    {
      g_autoptr(SextantColumnChunks) chunks = NULL;
      g_autofree char *columns = NULL;

      if (fill_bit (j) != bit)
        continue;
      /* a fill may leave a view out: the copy it reads is there already */
      if (!sextant_shared_views_lookup (_sextant_store_get_shared_views (self), shared_views[j].name, &columns, &chunks))
        continue;
      if (!create_temp_columns (self, shared_views[j].name, columns, chunks, error))
        return FALSE;
      g_hash_table_add (_sextant_store_get_materialized (self), (gpointer)shared_views[j].name);
    }

  return TRUE;
}

/**
 * sextant_store_materialize_views:
 * @sql: a query about to run on this connection
 *
 * Copies the expensive shared views that @sql names into temporary tables of
 * this connection, once: a temporary table shadows the view of the same name
 * so the next queries that read it (late_sender and its wrong-order child,
 * slow_workers, overloaded_master, user patterns) read the copy; the views
 * of early_wait, late_receiver and close_send_recv exist only as such
 * copies (sextant-store-views-p2p.c). For an analysis only: the copy does
 * not follow later changes of the data.
 */
gboolean
sextant_store_materialize_views (SextantStore  *self,
                                 const char    *sql,
                                 GError       **error)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);

  if (sextant_store_set_error_if_cancelled (self, error))
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (shared_views); i++)
    {
      guint bit = fill_bit (i);
      gboolean filled;

      if (strstr (sql, shared_views[i].name) == NULL ||
          g_hash_table_contains (_sextant_store_get_materialized (self), shared_views[i].name))
        continue;

      if (_sextant_store_get_shared_views (self) != NULL && !sextant_shared_views_claim (_sextant_store_get_shared_views (self), bit))
        {
          if (!attach_shared_fill (self, bit, error))
            return FALSE;
          continue;
        }
      filled = shared_views[i].fill (self, error);
      if (_sextant_store_get_shared_views (self) != NULL)
        sextant_shared_views_done (_sextant_store_get_shared_views (self), bit, filled);
      if (!filled)
        return FALSE;
      for (guint j = 0; j < G_N_ELEMENTS (shared_views); j++)
        if (fill_bit (j) == bit)
          g_hash_table_add (_sextant_store_get_materialized (self), (gpointer)shared_views[j].name);
    }

  return TRUE;
}

