/*
 * sextant-analysis-sites.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where an instance's call is in the source, for the analysis
 * (sextant-analysis-instances.c): the call's source code location attribute, else
 * its calling context, else the definition of the region that encloses it
 * on its call path; and each distinct site's pattern_site row, written
 * when an instance first uses it. Workload: looked up once per source code
 * location, calling context, call path or region and cached for the run
 * (hundreds of thousands of instances share a few hundred sites).
 */
#include "config.h"

#include "sextant-analysis-private.h"

void
_sextant_analysis_source_free (gpointer data)
{
  Source *source = data;

  g_free (source->file);
  g_free (source->function);
  g_free (source);
}

static gboolean
source_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  Source *source = user_data;

  if (!sextant_row_is_null (row, 0))
    {
      g_free (source->file);
      g_free (source->function);
      source->file = g_strdup (sextant_row_get_text (row, 0));
      source->line = sextant_row_is_null (row, 1) ? 0 : sextant_row_get_int (row, 1);
      /* the third column names the region a definition's line begins */
      source->function = sextant_row_is_null (row, 2) ? NULL : g_strdup (sextant_row_get_text (row, 2));
      source->kind = source->function != NULL ? SEXTANT_SITE_FUNCTION : SEXTANT_SITE_CALL;
    }

  return TRUE;
}

/* The (cached) result of a query that returns file, line and the name of
 * the function that begins there (NULL for a call site) for an id. */
static Source *
cached_source (SextantAnalysis   *self,
               GHashTable        *cache,
               SextantStoreStmt   query,
               gint64             id,
               GError           **error)
{
  Source *source = g_hash_table_lookup (cache, &id);

  if (source != NULL)
    return source;

  source = g_new0 (Source, 1);
  if (!sextant_store_foreach (self->store, query, source_row, source, error, "i", id))
    {
      _sextant_analysis_source_free (source);
      return NULL;
    }
  g_hash_table_insert (cache, g_memdup2 (&id, sizeof id), source);

  return source;
}

typedef struct
{
  gint64 parent;
  gint64 region;
} PathStep;

static gboolean
path_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  PathStep *step = user_data;

  step->parent = sextant_row_is_null (row, 0) ? -1 : sextant_row_get_int (row, 0);
  step->region = sextant_row_get_int (row, 1);

  return TRUE;
}

/* Where the function enclosing a call on @path is defined: the nearest
 * ancestor region of the path that has a source file. */
static Source *
path_source (SextantAnalysis  *self,
             gint64            path,
             GError          **error)
{
  Source *source = g_hash_table_lookup (self->path_sources, &path);
  PathStep step = { -1, -1 };

  if (source != NULL)
    return source;

  source = g_new0 (Source, 1);
  if (!sextant_store_foreach (self->store, SEXTANT_QUERY_CALL_PATH, path_row, &step, error, "i", path))
    {
      _sextant_analysis_source_free (source);
      return NULL;
    }
  for (gint64 up = step.parent; up >= 0 && source->file == NULL; up = step.parent)
    {
      const Source *defined;

      if (!sextant_store_foreach (self->store, SEXTANT_QUERY_CALL_PATH, path_row, &step, error, "i", up) ||
          !(defined = cached_source (self, self->region_sources, SEXTANT_QUERY_REGION_SOURCE, step.region, error)))
        {
          _sextant_analysis_source_free (source);
          return NULL;
        }
      if (defined->file != NULL)
        {
          source->file = g_strdup (defined->file);
          source->line = defined->line;
          source->kind = SEXTANT_SITE_FUNCTION;
          source->function = g_strdup (defined->function);
        }
    }
  g_hash_table_insert (self->path_sources, g_memdup2 (&path, sizeof path), source);

  return source;
}

/* The source file and line of a call: its call-site attribute, else its
 * calling context, else the definition of the enclosing function. */
Source *
_sextant_analysis_call_site (SextantAnalysis  *self,
                             gint64            scl,
                             gint64            context,
                             gint64            path,
                             GError          **error)
{
  Source *source = NULL;

  if (scl != SEXTANT_NULL &&
      !(source = cached_source (self, self->scl_sources, SEXTANT_QUERY_SOURCE_CODE_LOCATION, scl, error)))
    return NULL;
  if ((source == NULL || source->file == NULL) && context != SEXTANT_NULL &&
      !(source = cached_source (self, self->ctx_sources, SEXTANT_QUERY_CONTEXT_SOURCE, context, error)))
    return NULL;
  if ((source == NULL || source->file == NULL) && path != SEXTANT_NULL &&
      !(source = path_source (self, path, error)))
    return NULL;

  return source;
}

/* pattern_site.kind, pattern_aggregate.site_kind */
const char *
_sextant_analysis_site_kind_name (SextantSiteKind kind)
{
  switch (kind)
    {
    case SEXTANT_SITE_CALL:
      return "call";
    case SEXTANT_SITE_FUNCTION:
      return "function";
    case SEXTANT_SITE_NONE:
    default:
      return "none";
    }
}

/* The pattern_site id of a call site, written the first time it is used. */
gboolean
_sextant_analysis_site_id (SextantAnalysis  *self,
                           Source           *source,
                           gint64           *id,
                           GError          **error)
{
  g_autofree char *key = NULL;
  gpointer known;

  if (source->site == 0)
    {
      key = g_strdup_printf ("%d\x1f%s\x1f%" G_GINT64_FORMAT "\x1f%s", source->kind, source->file, source->line,
                             source->function != NULL ? source->function : "");
      if ((known = g_hash_table_lookup (self->sites, key)) != NULL)
        source->site = GPOINTER_TO_SIZE (known);
      else
        {
          source->site = g_hash_table_size (self->sites) + 1;
          if (!sextant_store_run (self->store, SEXTANT_STMT_PATTERN_SITE, error, "ititt",
                                  source->site, source->file, source->line, _sextant_analysis_site_kind_name (source->kind),
                                  source->function))
            return FALSE;
          g_hash_table_insert (self->sites, g_steal_pointer (&key), GSIZE_TO_POINTER (source->site));
          g_ptr_array_add (self->site_sources, source);
        }
    }
  *id = source->site;

  return TRUE;
}

static gboolean
name_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  *(char **)user_data = g_strdup (sextant_row_get_text (row, 0));

  return TRUE;
}

/* The name of a call path ("main/solver/MPI_Recv") in @name: NULL for
 * none or an unknown id. */
gboolean
_sextant_analysis_path_name (SextantAnalysis  *self,
                             gint64            path,
                             const char      **name,
                             GError          **error)
{
  char *found = NULL;

  *name = NULL;
  if (path == SEXTANT_NULL)
    return TRUE;
  if (!g_hash_table_lookup_extended (self->path_names, &path, NULL, (gpointer *)&found))
    {
      if (!sextant_store_foreach (self->store, SEXTANT_QUERY_CALL_PATH_NAME, name_row, &found, error, "i", path))
        return FALSE;
      g_hash_table_insert (self->path_names, g_memdup2 (&path, sizeof path), found);
    }
  *name = found;

  return TRUE;
}
