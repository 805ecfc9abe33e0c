/*
 * sextant-store-timeline.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the timeline reads of the store besides its frames: the names of
 * the last analysis's patterns by number (a pattern instance's id is
 * (number << 32) + n; the lost-time layer draws each pattern kind in its
 * own style), and a pattern's title for the views that name one.
 * Workload: one scan of the small `pattern` table, or one row of it.
 */
#include "config.h"

#include "sextant-store-private.h"

static const char pattern_numbers_sql[] =
  "SELECT number, id FROM pattern WHERE number IS NOT NULL";

static gboolean
pattern_number_row (const SextantRow  *row,
                    gpointer           user_data,
                    GError           **error)
{
  g_hash_table_insert (user_data, GUINT_TO_POINTER ((guint)sextant_row_get_int (row, 0)),
                       sextant_row_dup_text (row, 1));

  return TRUE;
}

/**
 * sextant_store_list_pattern_numbers:
 * @error: SQLite's errors
 *
 * Returns: (transfer full) (nullable): pattern number (GUINT_TO_POINTER)
 *   -> pattern id ("late_sender"), of the last analysis
 *
 * Threading: the store's owning thread.
 */
GHashTable *
sextant_store_list_pattern_numbers (SextantStore  *self,
                                    GError       **error)
{
  g_autoptr(GHashTable) numbers = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  if (!sextant_store_foreach_sql (self, pattern_numbers_sql, pattern_number_row, numbers, error, ""))
    return NULL;

  return g_steal_pointer (&numbers);
}

static const char pattern_title_sql[] =
  "SELECT title FROM pattern WHERE id = ?";

static gboolean
pattern_title_row (const SextantRow  *row,
                   gpointer           user_data,
                   GError           **error)
{
  *(char **)user_data = sextant_row_dup_text (row, 0);

  return TRUE;
}

/**
 * sextant_store_dup_pattern_title:
 * @id: a pattern's id ("late_sender")
 * @error: SQLite's errors
 *
 * Returns: (transfer full) (nullable): its title in the last analysis
 *   ("Late Sender"), @id itself where the store has none; NULL on error
 *
 * Threading: the store's owning thread.
 */
char *
sextant_store_dup_pattern_title (SextantStore  *self,
                                 const char    *id,
                                 GError       **error)
{
  g_autofree char *title = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  if (!sextant_store_foreach_sql (self, pattern_title_sql, pattern_title_row, &title, error, "t", id))
    return NULL;

  return title != NULL ? g_steal_pointer (&title) : g_strdup (id);
}
