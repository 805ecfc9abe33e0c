/*
 * sextant-store-views-master.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared view master_workers (schema-1.sql) computed in C: for every
 * location, how many of its peers exchange messages with it and with
 * nobody else (its workers). The view reads the distinct (sender,
 * receiver) pairs of the messages; a shard of a parallel analysis holds
 * only the messages that touch its locations, so a peer on another shard
 * would look like a worker there. The shard's halo brings every shard's
 * pairs (SEXTANT_HALO_MESSAGE_PAIRS, sextant-store-shard-analysis.c), and
 * this copy counts them with the shard's own: the whole trace's pairs, as
 * the single store's view sees them. tests/test-store-views.c checks the
 * copy against the view.
 */
#include "config.h"

#include "sextant-store-shard-analysis.h"
#include "sextant-store-views-private.h"

#define MASTER_WORKERS_COLUMNS "loc, workers"

typedef struct
{
  GHashTable *pairs;    /* undirected pairs: lower location << 32 | higher, a set */
  GHashTable *degree;   /* location -> distinct peers */
  GArray     *rows;     /* gint64 loc, workers */
} Masters;

static gboolean
add_pair (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  Masters *m = user_data;
  gint64 a = sextant_row_get_int (row, 0);
  gint64 b = sextant_row_get_int (row, 1);
  guint64 key;

  if (a == b || a < 0 || b < 0 || a > G_MAXUINT32 || b > G_MAXUINT32)
    return TRUE;
  key = (guint64)MIN (a, b) << 32 | (guint64)MAX (a, b);
  if (g_hash_table_contains (m->pairs, &key))
    return TRUE;
  g_hash_table_add (m->pairs, g_memdup2 (&key, sizeof key));
  for (int end = 0; end < 2; end++)
    {
      gint64 loc = end == 0 ? a : b;
      gint64 *n = g_hash_table_lookup (m->degree, &loc);

      if (n == NULL)
        g_hash_table_insert (m->degree, g_memdup2 (&loc, sizeof loc), g_memdup2 (&(gint64) { 1 }, sizeof (gint64)));
      else
        (*n)++;
    }

  return TRUE;
}

static void
copy_rows (gsize           first,
           guint           n,
           gint64 * const *columns,
           gpointer        user_data)
{
  GArray *rows = user_data;

  for (guint r = 0; r < n; r++)
    for (guint c = 0; c < 2; c++)
      columns[c][r] = g_array_index (rows, gint64, (first + r) * 2 + c);
}

/* Fills temp.master_workers on @self's connection: from its messages'
 * pairs and, on a shard with a halo, every other shard's. */
gboolean
_sextant_store_fill_master_workers (SextantStore  *self,
                                    GError       **error)
{
  g_autoptr(GHashTable) pairs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GHashTable) degree = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr(GHashTable) workers = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (gint64));
  Masters m = { pairs, degree, rows };
  gint64 halo = 0;
  GHashTableIter iter;
  gpointer key, value;

  if (!sextant_store_foreach_sql (self, "SELECT DISTINCT send_loc, recv_loc FROM main.message "
                                        "WHERE send_loc IS NOT NULL AND recv_loc IS NOT NULL", add_pair, &m, error,
                                  "") ||
      !sextant_store_foreach_sql (self, "SELECT count (*) FROM main.sqlite_master WHERE type = 'table' AND name = ?",
                                  _sextant_store_take_int, &halo, error, "t", SEXTANT_HALO_MESSAGE_PAIRS) ||
      (halo > 0 &&
       !sextant_store_foreach_sql (self, "SELECT send_loc, recv_loc FROM main." SEXTANT_HALO_MESSAGE_PAIRS, add_pair,
                                   &m, error, "")))
    return FALSE;

  /* a peer of degree 1 is a worker of the location at its other end */
  g_hash_table_iter_init (&iter, pairs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    for (int end = 0; end < 2; end++)
      {
        gint64 loc = end == 0 ? (gint64)(*(guint64 *)key >> 32) : (gint64)(*(guint64 *)key & G_MAXUINT32);
        gint64 peer = end == 0 ? (gint64)(*(guint64 *)key & G_MAXUINT32) : (gint64)(*(guint64 *)key >> 32);
        gint64 *n;

        if (*(gint64 *)g_hash_table_lookup (degree, &peer) != 1)
          continue;
        if ((n = g_hash_table_lookup (workers, &loc)) != NULL)
          (*n)++;
        else
          g_hash_table_insert (workers, g_memdup2 (&loc, sizeof loc), g_memdup2 (&(gint64) { 1 }, sizeof (gint64)));
      }
  g_hash_table_iter_init (&iter, workers);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_array_append_val (rows, *(gint64 *)key);
      g_array_append_val (rows, *(gint64 *)value);
    }
  /* (in no order: the view has none) */
  return sextant_store_write_temp_columns (self, "master_workers", MASTER_WORKERS_COLUMNS, 2, rows->len / 2,
                                           copy_rows, rows, error);
}
