/*
 * sextant-store-readers.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The store's typed readers of general use (sextant-store.h): the
 * locations, the run's time span, region names, the pattern totals and
 * instances. Each runs one of the store's statements (sextant-store-sql.c)
 * and turns its rows into structures; none keeps anything between calls.
 */
#include "config.h"

#include "sextant-store-private.h"

/**
 * sextant_location_info_free:
 * @info: (nullable): a location from sextant_store_list_locations()
 */
void
sextant_location_info_free (SextantLocationInfo *info)
{
  if (info == NULL)
    return;

  g_free (info->name);
  g_free (info->group);
  g_free (info->label);
  g_free (info);
}

static gboolean
location_info_row (const SextantRow  *row,
                   gpointer           user_data,
                   GError           **error)
{
  SextantLocationInfo *info = g_new0 (SextantLocationInfo, 1);

  info->id = sextant_row_get_int (row, 0);
  info->otf2_id = sextant_row_get_int (row, 1);
  info->name = g_strdup (sextant_row_get_text (row, 2));
  info->group = sextant_row_dup_text (row, 3);
  info->label = g_strdup (sextant_row_get_text (row, 4));
  info->events = sextant_row_get_int (row, 5);
  g_ptr_array_add (user_data, info);

  return TRUE;
}

/**
 * sextant_store_list_locations:
 *
 * Every location the archive defines, with or without events.
 *
 * Threading: the store's owning thread.
 *
 * Returns: (transfer full) (element-type SextantLocationInfo): the
 *   locations in location.id order (each freed with the array), or %NULL
 *   with @error set: %G_IO_ERROR_CANCELLED when the store's cancellable was
 *   cancelled, a %SEXTANT_TRACE_ERROR when SQLite fails
 */
GPtrArray *
sextant_store_list_locations (SextantStore  *self,
                              GError       **error)
{
  g_autoptr(GPtrArray) locations = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  locations = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_location_info_free);
  if (!sextant_store_foreach (self, SEXTANT_QUERY_LOCATION_INFOS, location_info_row, locations, error, ""))
    return NULL;

  return g_steal_pointer (&locations);
}

static gboolean
span_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  SextantTimeSpan *span = user_data;

  if (sextant_row_is_null (row, 0) || sextant_row_is_null (row, 1))
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA,
                   "the store has no time span (meta time_begin, time_end): its import did not finish");
      return FALSE;
    }
  span->begin = sextant_row_get_int (row, 0);
  span->end = sextant_row_get_int (row, 1);
  span->resolution = sextant_row_is_null (row, 2) ? 1 : MAX (1, sextant_row_get_int (row, 2));

  return TRUE;
}

/**
 * sextant_store_get_time_span:
 * @span: (out caller-allocates): the run's time span
 *
 * Reads the run's time span and clock resolution (meta time_begin,
 * time_end, resolution). A trace without events has the span [0, 0].
 *
 * Threading: the store's owning thread.
 *
 * Returns: %TRUE, or %FALSE with @error set (and @span untouched):
 *   %SEXTANT_TRACE_ERROR_SCHEMA when the store has no span,
 *   %G_IO_ERROR_CANCELLED, or another %SEXTANT_TRACE_ERROR
 */
gboolean
sextant_store_get_time_span (SextantStore     *self,
                             SextantTimeSpan  *span,
                             GError          **error)
{
  SextantTimeSpan read = { 0, 0, 1 };

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (span != NULL, FALSE);

  if (!sextant_store_foreach (self, SEXTANT_QUERY_RUN_SPAN, span_row, &read, error, ""))
    return FALSE;
  *span = read;

  return TRUE;
}

/**
 * sextant_store_read_region_names:
 *
 * Threading: the store's owning thread.
 *
 * Returns: (transfer full) (element-type gint64 utf8): region.id (a
 *   gint64 *) -> the region's name ("?" when it has none), or %NULL with
 *   @error set (%G_IO_ERROR_CANCELLED or a %SEXTANT_TRACE_ERROR)
 */
GHashTable *
sextant_store_read_region_names (SextantStore  *self,
                                 GError       **error)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  return sextant_store_read_names (self, SEXTANT_QUERY_REGION_NAMES, error);
}

/**
 * sextant_pattern_total_free:
 * @total: (nullable): a pattern from sextant_store_list_pattern_totals()
 */
void
sextant_pattern_total_free (SextantPatternTotal *total)
{
  if (total == NULL)
    return;

  g_free (total->id);
  g_free (total->title);
  g_free (total->parent);
  g_free (total->description);
  g_free (total);
}

static gboolean
pattern_total_row (const SextantRow  *row,
                   gpointer           user_data,
                   GError           **error)
{
  SextantPatternTotal *total = g_new0 (SextantPatternTotal, 1);

  total->id = g_strdup (sextant_row_get_text (row, 0));
  total->title = g_strdup (sextant_row_get_text (row, 1));
  total->parent = sextant_row_dup_text (row, 2);
  total->description = sextant_row_dup_text (row, 3);
  total->instances = sextant_row_get_int (row, 4);
  total->severity = sextant_row_get_int (row, 5);
  g_ptr_array_add (user_data, total);

  return TRUE;
}

/**
 * sextant_store_list_pattern_totals:
 *
 * Every pattern the last analysis ran (none before the first), with what
 * it found: the worst (most ticks lost) first, ties by id, and the patterns
 * without instances last.
 *
 * Threading: the store's owning thread.
 *
 * Returns: (transfer full) (element-type SextantPatternTotal): the
 *   patterns, or %NULL with @error set (%G_IO_ERROR_CANCELLED or a
 *   %SEXTANT_TRACE_ERROR)
 */
GPtrArray *
sextant_store_list_pattern_totals (SextantStore  *self,
                                   GError       **error)
{
  g_autoptr(GPtrArray) totals = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  totals = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_pattern_total_free);
  if (!sextant_store_foreach (self, SEXTANT_QUERY_PATTERN_TOTAL_LIST, pattern_total_row, totals, error, ""))
    return NULL;

  return g_steal_pointer (&totals);
}

/**
 * sextant_pattern_instance_free:
 * @instance: (nullable): an instance from sextant_store_list_pattern_instances()
 */
void
sextant_pattern_instance_free (SextantPatternInstance *instance)
{
  if (instance == NULL)
    return;

  g_free (instance->pattern);
  g_free (instance->location);
  g_free (instance->peer);
  g_free (instance->call);
  g_free (instance->callpath);
  g_free (instance->file);
  g_free (instance->function);
  g_free (instance->comment);
  g_free (instance->root_label);
  g_free (instance);
}

static SextantSiteKind
site_kind_from_string (const char *kind)
{
  if (g_strcmp0 (kind, "call") == 0)
    return SEXTANT_SITE_CALL;
  if (g_strcmp0 (kind, "function") == 0)
    return SEXTANT_SITE_FUNCTION;

  return SEXTANT_SITE_NONE;
}

static gboolean
pattern_instance_row (const SextantRow  *row,
                      gpointer           user_data,
                      GError           **error)
{
  SextantPatternInstance *instance = g_new0 (SextantPatternInstance, 1);

  instance->id = sextant_row_get_int (row, 0);
  instance->pattern = g_strdup (sextant_row_get_text (row, 1));
  instance->severity = sextant_row_get_int (row, 2);
  instance->loc = sextant_row_get_int (row, 3);
  instance->peer_loc = sextant_row_get_int_or_null (row, 4);
  instance->begin = sextant_row_get_int_or_null (row, 5);
  instance->end = sextant_row_get_int_or_null (row, 6);
  instance->location = g_strdup (sextant_row_get_text (row, 7));
  instance->peer = sextant_row_dup_text (row, 8);
  instance->call = sextant_row_dup_text (row, 9);
  instance->callpath = sextant_row_dup_text (row, 10);
  instance->file = sextant_row_dup_text (row, 11);
  instance->line = sextant_row_is_null (row, 12) ? 0 : sextant_row_get_int (row, 12);
  instance->site_kind = instance->file != NULL ? site_kind_from_string (sextant_row_get_text (row, 13))
                                               : SEXTANT_SITE_NONE;
  instance->function = instance->site_kind == SEXTANT_SITE_FUNCTION ? sextant_row_dup_text (row, 14) : NULL;
  instance->comment = g_strdup (sextant_row_get_text (row, 15));
  instance->cause = sextant_row_is_null (row, 16) ? SEXTANT_WAIT_CAUSE_NONE
                    : g_str_equal (sextant_row_get_text (row, 16), "propagated") ? SEXTANT_WAIT_CAUSE_PROPAGATED
                    : SEXTANT_WAIT_CAUSE_DIRECT;
  instance->cause_instance = sextant_row_get_int_or_null (row, 17);
  instance->root_loc = sextant_row_get_int_or_null (row, 18);
  instance->root_label = sextant_row_dup_text (row, 19);
  g_ptr_array_add (user_data, instance);

  return TRUE;
}

/**
 * sextant_store_list_pattern_instances:
 * @pattern: a pattern's id
 * @limit: at most this many instances
 *
 * The worst instances of @pattern in the last analysis: most ticks lost
 * first, ties by id. A pattern the analysis did not run has none.
 *
 * Threading: the store's owning thread. Reads only the @limit rows it
 * returns (the instances of a pattern are a range of ids), but fills in
 * their comments: a few milliseconds for a hundred.
 *
 * Returns: (transfer full) (element-type SextantPatternInstance): the
 *   instances, or %NULL with @error set (%G_IO_ERROR_CANCELLED or a
 *   %SEXTANT_TRACE_ERROR)
 */
GPtrArray *
sextant_store_list_pattern_instances (SextantStore  *self,
                                      const char    *pattern,
                                      guint          limit,
                                      GError       **error)
{
  g_autoptr(GPtrArray) instances = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);
  g_return_val_if_fail (pattern != NULL, NULL);

  instances = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_pattern_instance_free);
  if (!sextant_store_foreach (self, SEXTANT_QUERY_PATTERN_INSTANCE_LIST, pattern_instance_row, instances, error,
                              "ti", pattern, (gint64)limit))
    return NULL;

  return g_steal_pointer (&instances);
}

/**
 * sextant_store_get_pattern_instance:
 * @id: an instance id (pattern_instance.id)
 * @instance: (out) (transfer full) (nullable): the instance, or %NULL
 *   when the last analysis has none with that id
 *
 * One instance of the last analysis, as sextant_store_list_pattern_instances()
 * gives them.
 *
 * Threading: the store's owning thread.
 *
 * Returns: %FALSE with @error set when the store could not be read
 */
gboolean
sextant_store_get_pattern_instance (SextantStore            *self,
                                    gint64                   id,
                                    SextantPatternInstance **instance,
                                    GError                 **error)
{
  g_autoptr(GPtrArray) found = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (instance != NULL, FALSE);

  *instance = NULL;
  found = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_pattern_instance_free);
  if (!sextant_store_foreach (self, SEXTANT_QUERY_PATTERN_INSTANCE_BY_ID, pattern_instance_row, found, error,
                              "i", id))
    return FALSE;
  if (found->len > 0)
    *instance = g_ptr_array_steal_index (found, 0);

  return TRUE;
}
