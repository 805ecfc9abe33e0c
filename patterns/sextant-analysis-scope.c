/*
 * sextant-analysis-scope.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An analysis's scope: the parameters overridden, the patterns selected,
 * and what a store records of the analysis it holds (meta
 * analysis_selected, analysis_parameters, analysis_catalogue), written with
 * the instances, and whether an analysis would write the same
 * (sextant_analysis_is_current()).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sextant-analysis-private.h"

static SextantPatternParam *
find_param (SextantPattern *pattern,
            const char     *name)
{
  GPtrArray *params = sextant_pattern_get_params (pattern);

  for (guint i = 0; i < params->len; i++)
    if (g_str_equal (((SextantPatternParam *)g_ptr_array_index (params, i))->name, name))
      return g_ptr_array_index (params, i);

  return NULL;
}

/**
 * sextant_analysis_set_param:
 * @assignment: "name=value" for every pattern with that parameter, or
 *   "pattern_id.name=value" for one pattern; values in the parameter's unit
 *
 * Fails if no pattern has such a parameter or the value is not a number.
 */
gboolean
sextant_analysis_set_param (SextantAnalysis  *self,
                            const char       *assignment,
                            GError          **error)
{
  g_auto(GStrv) parts = NULL;
  g_autofree char *key = NULL;
  const char *name;
  g_autofree char *pattern_id = NULL;
  GPtrArray *patterns;
  gboolean known = FALSE;
  double value;
  char *end = NULL;

  g_return_val_if_fail (SEXTANT_IS_ANALYSIS (self), FALSE);

  parts = g_strsplit (assignment, "=", 2);
  if (g_strv_length (parts) != 2)
    {
      g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_PARAMETER,
                   "parameter \"%s\": write it as name=value", assignment);
      return FALSE;
    }

  key = g_strstrip (g_strdup (parts[0]));
  value = g_ascii_strtod (g_strstrip (parts[1]), &end);
  if (end == parts[1] || *end != '\0' || !isfinite (value))
    {
      g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_PARAMETER,
                   "parameter \"%s\": \"%s\" is not a number", key, parts[1]);
      return FALSE;
    }

  name = strrchr (key, '.');
  if (name != NULL)
    {
      pattern_id = g_strndup (key, name - key);
      name++;
    }
  else
    name = key;

  patterns = sextant_pattern_set_get_patterns (self->patterns);
  for (guint i = 0; i < patterns->len; i++)
    {
      SextantPattern *pattern = g_ptr_array_index (patterns, i);

      if (pattern_id != NULL && !g_str_equal (pattern_id, sextant_pattern_get_id (pattern)))
        continue;
      if (find_param (pattern, name) != NULL)
        known = TRUE;
    }

  if (!known)
    {
      g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_PARAMETER,
                   "no pattern has a parameter \"%s\"", key);
      return FALSE;
    }

  g_hash_table_replace (self->overrides, g_steal_pointer (&key), g_memdup2 (&value, sizeof value));

  return TRUE;
}

/**
 * sextant_analysis_select:
 *
 * Restricts the run to @pattern_id (a pattern, or a group such as
 * "mpi_collective") and the patterns below it in the tree (may be called
 * several times). Without a selection every pattern runs.
 */
gboolean
sextant_analysis_select (SextantAnalysis  *self,
                         const char       *pattern_id,
                         GError          **error)
{
  g_return_val_if_fail (SEXTANT_IS_ANALYSIS (self), FALSE);

  if (!sextant_pattern_set_has_node (self->patterns, pattern_id))
    {
      g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_UNKNOWN,
                   "no pattern with id \"%s\"", pattern_id);
      return FALSE;
    }

  if (self->selected == NULL)
    {
      self->selected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      self->selection = g_ptr_array_new_with_free_func (g_free);
    }
  if (!g_hash_table_contains (self->selected, pattern_id))
    g_ptr_array_add (self->selection, g_strdup (pattern_id));
  g_hash_table_add (self->selected, g_strdup (pattern_id));

  return TRUE;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* The scope of this run into meta (analysis_selected, analysis_parameters:
 * sextant_store_get_analysis_scope()), inside the run's transaction. */
/* Bump when the engine writes other instances for the same queries (how
 * it checks, clips or links them): a store analysed before is then
 * analysed again rather than reused (sextant_analysis_is_current()). */
#define ENGINE_REVISION "3"   /* 3: instance ids in canonical order */

/* What the store's meta records of a run: the selection ("*" for all),
 * the parameters overridden (NULL: none), and a digest of the catalogue
 * that ran (each selected pattern's id, query and parameters, and the
 * engine's version) */
static void
scope_strings (SextantAnalysis  *self,
               char            **selected_out,
               char            **parameters_out,
               char            **catalogue_out)
{
  g_autoptr(GString) selected = g_string_new (NULL);
  g_autoptr(GString) parameters = g_string_new (NULL);
  g_autoptr(GChecksum) catalogue = g_checksum_new (G_CHECKSUM_SHA256);
  GPtrArray *patterns = sextant_pattern_set_get_patterns (self->patterns);
  guint n_keys = 0;
  g_autofree gpointer *keys = g_hash_table_get_keys_as_array (self->overrides, &n_keys);

  if (self->selection == NULL)
    g_string_append (selected, SEXTANT_ANALYSIS_ALL_PATTERNS);
  for (guint i = 0; self->selection != NULL && i < self->selection->len; i++)
    g_string_append_printf (selected, "%s%s", i > 0 ? " " : "", (const char *)g_ptr_array_index (self->selection, i));

  qsort (keys, n_keys, sizeof *keys, compare_strings);
  for (guint i = 0; i < n_keys; i++)
    {
      const char *key = keys[i];
      char value[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (value, sizeof value, "%g", *(double *)g_hash_table_lookup (self->overrides, key));
      g_string_append_printf (parameters, "%s%s=%s", i > 0 ? " " : "", key, value);
    }

  g_checksum_update (catalogue, (const guchar *)PACKAGE_VERSION "\n" ENGINE_REVISION "\n", -1);
  for (guint i = 0; i < patterns->len; i++)
    {
      SextantPattern *pattern = g_ptr_array_index (patterns, i);
      GPtrArray *params = sextant_pattern_get_params (pattern);

      if (!_sextant_analysis_is_selected (self, pattern))
        continue;
      g_checksum_update (catalogue, (const guchar *)sextant_pattern_get_id (pattern), -1);
      g_checksum_update (catalogue, (const guchar *)"\n", 1);
      g_checksum_update (catalogue, (const guchar *)sextant_pattern_get_sql (pattern), -1);
      for (guint k = 0; k < params->len; k++)
        {
          SextantPatternParam *param = g_ptr_array_index (params, k);
          char value[G_ASCII_DTOSTR_BUF_SIZE];

          g_ascii_formatd (value, sizeof value, "%.17g", param->value);
          g_checksum_update (catalogue, (const guchar *)"\n", 1);
          g_checksum_update (catalogue, (const guchar *)param->name, -1);
          g_checksum_update (catalogue, (const guchar *)"=", 1);
          g_checksum_update (catalogue, (const guchar *)value, -1);
          g_checksum_update (catalogue, (const guchar *)param->unit, -1);
        }
      g_checksum_update (catalogue, (const guchar *)"\n\n", 2);
    }

  *selected_out = g_string_free (g_steal_pointer (&selected), FALSE);
  *parameters_out = parameters->len > 0 ? g_string_free (g_steal_pointer (&parameters), FALSE) : NULL;
  *catalogue_out = g_strdup (g_checksum_get_string (catalogue));
}

gboolean
_sextant_analysis_write_scope (SextantAnalysis  *self,
                               GError          **error)
{
  g_autofree char *selected = NULL;
  g_autofree char *parameters = NULL;
  g_autofree char *catalogue = NULL;

  scope_strings (self, &selected, &parameters, &catalogue);

  return sextant_store_run (self->store, SEXTANT_STMT_META, error, "tt", "analysis_selected", selected) &&
         sextant_store_run (self->store, SEXTANT_STMT_META, error, "tt", "analysis_parameters", parameters) &&
         sextant_store_run (self->store, SEXTANT_STMT_META, error, "tt", "analysis_catalogue", catalogue);
}

/**
 * sextant_analysis_is_current:
 *
 * Whether the store holds the analysis this one would write: run with the
 * same selection, the same parameters and the same catalogue (every
 * selected pattern's query and parameters, built-in or the user's, and
 * this engine's version). Then its instances can be read as they are
 * (`sextant report` does) instead of being found again.
 *
 * Returns: %TRUE when it does
 */
gboolean
sextant_analysis_is_current (SextantAnalysis *self)
{
  g_autofree char *selected = NULL;
  g_autofree char *parameters = NULL;
  g_autofree char *catalogue = NULL;
  g_autofree char *stored_selected = NULL;
  g_autofree char *stored_parameters = NULL;
  g_autofree char *stored_catalogue = NULL;

  g_return_val_if_fail (SEXTANT_IS_ANALYSIS (self), FALSE);

  scope_strings (self, &selected, &parameters, &catalogue);
  stored_selected = sextant_store_get_meta (self->store, "analysis_selected");
  stored_parameters = sextant_store_get_meta (self->store, "analysis_parameters");
  stored_catalogue = sextant_store_get_meta (self->store, "analysis_catalogue");

  return g_strcmp0 (selected, stored_selected) == 0 && g_strcmp0 (parameters, stored_parameters) == 0 &&
         g_strcmp0 (catalogue, stored_catalogue) == 0;
}
