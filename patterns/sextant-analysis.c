/*
 * sextant-analysis.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs pattern queries and turns their rows into pattern instances.
 *
 * A pattern query returns one row per instance with at least the columns
 * `loc` (location.id) and `severity` (ticks lost), and optionally `visit`
 * (the call that lost the time), `begin`, `end`, `peer_loc`, `message`,
 * `collective` and `comment`. This file adds what a user needs to act on an
 * instance: the call path of the visit (region names from the root), the
 * source file and line of the call (its call-site attribute, else its calling
 * context, else the definition of the enclosing region), and the comment
 * from the pattern's template.
 *
 * Workload: instances are few compared with events; each needs a handful of
 * point lookups, cached per visit because instances of one call site share
 * their ancestors.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-analysis.h"

typedef struct
{
  gint64  loc;
  gint64  region;
  char   *name;
  gint64  parent;
  gint64  scl;
  gint64  context;
  char   *callpath;   /* call_path.name */
  char   *file;       /* call site, computed on demand */
  gint64  line;
  gboolean site_done;
} VisitInfo;

typedef struct
{
  char *label;        /* "MPI Rank 3", or "MPI Rank 1 / OpenMP thread 1" */
  guint64 otf2_id;
} LocationLabel;

struct _SextantAnalysis
{
  GObject            parent_instance;

  SextantStore      *store;
  SextantPatternSet *patterns;
  GHashTable        *overrides;    /* "name" or "id.name" -> double* */
  GHashTable        *selected;     /* id -> id, NULL = all */

  /* during a run */
  gint64             resolution;
  GHashTable        *visits;       /* visit id -> VisitInfo* */
  GArray            *labels;       /* LocationLabel by location.id */
};

G_DEFINE_FINAL_TYPE (SextantAnalysis, sextant_analysis, G_TYPE_OBJECT)

static void
visit_info_free (gpointer data)
{
  VisitInfo *info = data;

  g_free (info->name);
  g_free (info->callpath);
  g_free (info->file);
  g_free (info);
}

static void
label_clear (gpointer data)
{
  g_free (((LocationLabel *)data)->label);
}

static void
sextant_analysis_finalize (GObject *object)
{
  SextantAnalysis *self = (SextantAnalysis *)object;

  g_clear_object (&self->store);
  g_clear_object (&self->patterns);
  g_clear_pointer (&self->overrides, g_hash_table_unref);
  g_clear_pointer (&self->selected, g_hash_table_unref);
  g_clear_pointer (&self->visits, g_hash_table_unref);
  g_clear_pointer (&self->labels, g_array_unref);

  G_OBJECT_CLASS (sextant_analysis_parent_class)->finalize (object);
}

static void
sextant_analysis_class_init (SextantAnalysisClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sextant_analysis_finalize;
}

static void
sextant_analysis_init (SextantAnalysis *self)
{
  self->overrides = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

SextantAnalysis *
sextant_analysis_new (SextantStore      *store,
                      SextantPatternSet *patterns)
{
  SextantAnalysis *self;

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);
  g_return_val_if_fail (SEXTANT_IS_PATTERN_SET (patterns), NULL);

  self = g_object_new (SEXTANT_TYPE_ANALYSIS, NULL);
  self->store = g_object_ref (store);
  self->patterns = g_object_ref (patterns);

  return self;
}

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
 * Restricts the run to @pattern_id and the patterns below it in the tree
 * (may be called several times). Without a selection every pattern runs.
 */
gboolean
sextant_analysis_select (SextantAnalysis  *self,
                         const char       *pattern_id,
                         GError          **error)
{
  g_return_val_if_fail (SEXTANT_IS_ANALYSIS (self), FALSE);

  if (sextant_pattern_set_lookup (self->patterns, pattern_id) == NULL)
    {
      g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_UNKNOWN,
                   "no pattern with id \"%s\"", pattern_id);
      return FALSE;
    }

  if (self->selected == NULL)
    self->selected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_add (self->selected, g_strdup (pattern_id));

  return TRUE;
}

static gboolean
is_selected (SextantAnalysis *self,
             SextantPattern  *pattern)
{
  if (self->selected == NULL)
    return TRUE;

  /* the pattern or one of its ancestors */
  for (guint depth = 0; pattern != NULL && depth < 32; depth++)
    {
      const char *parent = sextant_pattern_get_parent (pattern);

      if (g_hash_table_contains (self->selected, sextant_pattern_get_id (pattern)))
        return TRUE;
      pattern = parent != NULL ? sextant_pattern_set_lookup (self->patterns, parent) : NULL;
    }

  return FALSE;
}

/* Visits, call paths and call sites ------------------------------------------ */

static gboolean
visit_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  VisitInfo *info = user_data;

  info->loc = sextant_row_get_int (row, 0);
  info->region = sextant_row_get_int (row, 1);
  info->name = g_strdup (sextant_row_get_text (row, 2));
  info->parent = sextant_row_is_null (row, 3) ? -1 : sextant_row_get_int (row, 3);
  info->scl = sextant_row_is_null (row, 6) ? -1 : sextant_row_get_int (row, 6);
  info->context = sextant_row_is_null (row, 7) ? -1 : sextant_row_get_int (row, 7);
  info->callpath = g_strdup (sextant_row_get_text (row, 8));

  return TRUE;
}

static VisitInfo *
lookup_visit (SextantAnalysis  *self,
              gint64            visit,
              GError          **error)
{
  VisitInfo *info = g_hash_table_lookup (self->visits, &visit);

  if (info != NULL)
    return info;

  info = g_new0 (VisitInfo, 1);
  info->loc = -1;
  if (!sextant_store_foreach (self->store, SEXTANT_QUERY_VISIT, visit_row, info, error, "i", visit))
    {
      visit_info_free (info);
      return NULL;
    }
  if (info->loc < 0)
    {
      visit_info_free (info);
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                   "the query returned visit %" G_GINT64_FORMAT ", which does not exist", visit);
      return NULL;
    }

  g_hash_table_insert (self->visits, g_memdup2 (&visit, sizeof visit), info);

  return info;
}

static const char *
visit_callpath (SextantAnalysis  *self,
                gint64            visit,
                GError          **error)
{
  VisitInfo *info = lookup_visit (self, visit, error);

  return info != NULL ? info->callpath : NULL;
}

typedef struct
{
  char   *file;
  gint64  line;
} Source;

static gboolean
source_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  Source *source = user_data;

  if (!sextant_row_is_null (row, 0))
    {
      g_free (source->file);
      source->file = g_strdup (sextant_row_get_text (row, 0));
      source->line = sextant_row_is_null (row, 1) ? 0 : sextant_row_get_int (row, 1);
    }

  return TRUE;
}

/* The source file and line of the call @visit stands for. */
static gboolean
visit_site (SextantAnalysis  *self,
            gint64            visit,
            const char      **file,
            gint64           *line,
            GError          **error)
{
  VisitInfo *info = lookup_visit (self, visit, error);
  Source source = { NULL, 0 };

  if (info == NULL)
    return FALSE;

  if (!info->site_done)
    {
      if (info->scl >= 0 &&
          !sextant_store_foreach (self->store, SEXTANT_QUERY_SOURCE_CODE_LOCATION, source_row, &source,
                                  error, "i", info->scl))
        return FALSE;
      if (source.file == NULL && info->context >= 0 &&
          !sextant_store_foreach (self->store, SEXTANT_QUERY_CONTEXT_SOURCE, source_row, &source,
                                  error, "i", info->context))
        return FALSE;

      /* else: where the enclosing function is defined */
      for (gint64 up = info->parent; source.file == NULL && up >= 0; )
        {
          VisitInfo *ancestor = lookup_visit (self, up, error);

          if (ancestor == NULL ||
              !sextant_store_foreach (self->store, SEXTANT_QUERY_REGION_SOURCE, source_row, &source,
                                      error, "i", ancestor->region))
            return FALSE;
          up = ancestor->parent;
        }

      info->file = source.file;
      info->line = source.line;
      info->site_done = TRUE;
    }

  *file = info->file;
  *line = info->line;

  return TRUE;
}

static gboolean
label_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  GArray *labels = user_data;
  LocationLabel label;
  const char *group = sextant_row_get_text (row, 2);
  const char *name = sextant_row_get_text (row, 3);

  label.otf2_id = (guint64)sextant_row_get_int (row, 1);
  /* the thread only matters when its process has several */
  if (sextant_row_get_int (row, 4) > 1 && g_strcmp0 (group, name) != 0)
    label.label = g_strdup_printf ("%s / %s", group, name);
  else
    label.label = g_strdup (group != NULL ? group : name != NULL ? name : "?");
  g_array_append_val (labels, label);

  return TRUE;
}

static const char *
location_label (SextantAnalysis *self,
                gint64           loc)
{
  if (loc < 0 || (guint64)loc >= self->labels->len)
    return "an unknown location";

  return g_array_index (self->labels, LocationLabel, loc).label;
}

static char *
format_seconds (double seconds)
{
  if (seconds >= 1.0)
    return g_strdup_printf ("%.2f s", seconds);
  if (seconds >= 1e-3)
    return g_strdup_printf ("%.2f ms", seconds * 1e3);
  return g_strdup_printf ("%.1f us", seconds * 1e6);
}

/* Fills the pattern's comment template. */
static char *
expand_comment (const char  *template,
                const char  *location,
                const char  *peer,
                const char  *seconds,
                const char  *call,
                const char  *site,
                const char  *callpath)
{
  g_autoptr(GString) out = g_string_new (NULL);
  static const char * const keys[] = { "location", "peer", "seconds", "call", "site", "callpath" };
  const char *values[] = { location, peer, seconds, call, site, callpath };

  for (const char *p = template; *p != '\0'; p++)
    {
      gboolean replaced = FALSE;

      if (*p == '{')
        for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
          {
            gsize len = strlen (keys[k]);

            if (strncmp (p + 1, keys[k], len) == 0 && p[1 + len] == '}')
              {
                g_string_append (out, values[k]);
                p += len + 1;
                replaced = TRUE;
                break;
              }
          }
      if (!replaced)
        g_string_append_c (out, *p);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Running a pattern ---------------------------------------------------------- */

typedef struct
{
  SextantAnalysis *self;
  SextantPattern  *pattern;
  int              col[9];    /* loc, severity, visit, begin, end, peer_loc, message, collective, comment */
} RunState;

static const char * const columns[] = {
  "loc", "severity", "visit", "begin", "end", "peer_loc", "message", "collective", "comment",
};

static gint64
opt_int (const SextantRow *row,
         int               col)
{
  if (col < 0 || sextant_row_is_null (row, col))
    return SEXTANT_NULL;

  return sextant_row_get_int (row, col);
}

static gboolean
instance_row (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  RunState *state = user_data;
  SextantAnalysis *self = state->self;
  gint64 loc = sextant_row_get_int (row, state->col[0]);
  gint64 severity = sextant_row_get_int (row, state->col[1]);
  gint64 visit = opt_int (row, state->col[2]);
  gint64 peer = opt_int (row, state->col[5]);
  const char *callpath = NULL;
  const char *file = NULL;
  gint64 line = 0;
  g_autofree char *comment = NULL;
  g_autofree char *seconds = format_seconds ((double)severity / self->resolution);

  if (visit != SEXTANT_NULL)
    {
      if (!(callpath = visit_callpath (self, visit, error)) ||
          !visit_site (self, visit, &file, &line, error))
        return FALSE;
    }

  if (state->col[8] >= 0 && !sextant_row_is_null (row, state->col[8]))
    comment = g_strdup (sextant_row_get_text (row, state->col[8]));
  else if (sextant_pattern_get_comment (state->pattern) != NULL)
    {
      VisitInfo *info = visit != SEXTANT_NULL ? lookup_visit (self, visit, NULL) : NULL;
      g_autofree char *site = file != NULL ? g_strdup_printf ("%s:%" G_GINT64_FORMAT, file, line)
                                            : g_strdup ("an unknown source line");
      g_autofree char *base = file != NULL ? g_path_get_basename (file) : NULL;
      g_autofree char *short_site = base != NULL ? g_strdup_printf ("%s:%" G_GINT64_FORMAT, base, line)
                                                 : g_strdup (site);

      comment = expand_comment (sextant_pattern_get_comment (state->pattern), location_label (self, loc),
                                peer != SEXTANT_NULL ? location_label (self, peer) : "another process",
                                seconds, info != NULL && info->name != NULL ? info->name : "the call",
                                short_site, callpath != NULL ? callpath : "");
    }

  return sextant_store_run (self->store, SEXTANT_STMT_PATTERN_INSTANCE, error, "tiinttnnnnnnt",
                            sextant_pattern_get_id (state->pattern), severity, loc, visit,
                            callpath, file, file != NULL ? line : SEXTANT_NULL,
                            opt_int (row, state->col[3]), opt_int (row, state->col[4]), peer,
                            opt_int (row, state->col[6]), opt_int (row, state->col[7]), comment);
}

static gboolean
find_columns (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  RunState *state = user_data;

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    state->col[i] = sextant_row_find_column (row, columns[i]);

  /* from now on, rows are instances */
  return instance_row (row, user_data, error);
}

static gboolean
first_row_then_instances (const SextantRow  *row,
                          gpointer           user_data,
                          GError           **error)
{
  RunState *state = user_data;

  if (state->col[0] < 0)
    return find_columns (row, user_data, error);

  return instance_row (row, user_data, error);
}

static gboolean
run_pattern (SextantAnalysis  *self,
             SextantPattern   *pattern,
             GError          **error)
{
  static const char * const required[] = { "loc", "severity", NULL };
  g_autoptr(GHashTable) bound = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                       (GDestroyNotify)g_variant_unref);
  g_autoptr(GString) described = g_string_new (NULL);
  GPtrArray *params = sextant_pattern_get_params (pattern);
  RunState state = { self, pattern, { -1 } };
  g_autoptr(GError) local_error = NULL;
  gint64 start = g_get_monotonic_time ();

  g_hash_table_insert (bound, (gpointer)"resolution", g_variant_ref_sink (g_variant_new_int64 (self->resolution)));
  for (guint i = 0; i < params->len; i++)
    {
      SextantPatternParam *param = g_ptr_array_index (params, i);
      g_autofree char *specific = g_strconcat (sextant_pattern_get_id (pattern), ".", param->name, NULL);
      double *override = g_hash_table_lookup (self->overrides, specific);
      double value;
      GVariant *variant;

      if (override == NULL)
        override = g_hash_table_lookup (self->overrides, param->name);
      value = override != NULL ? *override : param->value;

      if (g_str_equal (param->unit, "s"))
        variant = g_variant_new_int64 ((gint64)llround (value * self->resolution));
      else if (value == floor (value) && fabs (value) < 9e18)
        variant = g_variant_new_int64 ((gint64)value);
      else
        variant = g_variant_new_double (value);
      g_hash_table_insert (bound, param->name, g_variant_ref_sink (variant));
      g_string_append_printf (described, "%s%s=%g%s", described->len > 0 ? " " : "", param->name, value,
                              param->unit);
    }

  if (!sextant_store_run (self->store, SEXTANT_STMT_PATTERN, error, "ttttttt",
                          sextant_pattern_get_id (pattern), sextant_pattern_get_title (pattern),
                          sextant_pattern_get_parent (pattern), sextant_pattern_get_description (pattern),
                          sextant_pattern_get_criterion (pattern), sextant_pattern_get_origin (pattern),
                          described->str))
    return FALSE;

  if (!sextant_store_run_query (self->store, sextant_pattern_get_sql (pattern), bound, required,
                                first_row_then_instances, &state, &local_error))
    {
      g_set_error (error, local_error->domain, local_error->code, "pattern %s (%s): %s",
                   sextant_pattern_get_id (pattern), sextant_pattern_get_origin (pattern),
                   local_error->message);
      return FALSE;
    }

  g_debug ("pattern %s: %.3f s", sextant_pattern_get_id (pattern),
           (g_get_monotonic_time () - start) / (double)G_USEC_PER_SEC);

  return TRUE;
}

static gboolean
resolution_row (const SextantRow  *row,
                gpointer           user_data,
                GError           **error)
{
  *(gint64 *)user_data = MAX (1, g_ascii_strtoll (sextant_row_get_text (row, 1), NULL, 10));

  return TRUE;
}

/**
 * sextant_analysis_run:
 *
 * Replaces the store's pattern instances with those of this run, in one
 * transaction: on failure the store keeps the previous analysis.
 */
gboolean
sextant_analysis_run (SextantAnalysis  *self,
                      GCancellable     *cancellable,
                      GError          **error)
{
  GPtrArray *patterns;
  gboolean ok = TRUE;

  g_return_val_if_fail (SEXTANT_IS_ANALYSIS (self), FALSE);

  g_clear_pointer (&self->visits, g_hash_table_unref);
  g_clear_pointer (&self->labels, g_array_unref);
  self->visits = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, visit_info_free);
  self->labels = g_array_new (FALSE, FALSE, sizeof (LocationLabel));
  g_array_set_clear_func (self->labels, label_clear);
  self->resolution = 1;

  if (!sextant_store_foreach (self->store, SEXTANT_QUERY_TOTAL_TIME, resolution_row, &self->resolution,
                              error, "") ||
      !sextant_store_foreach (self->store, SEXTANT_QUERY_LOCATION_LABELS, label_row, self->labels, error, "") ||
      !sextant_store_begin (self->store, error))
    return FALSE;

  patterns = sextant_pattern_set_get_patterns (self->patterns);
  ok = sextant_store_exec (self->store, SEXTANT_STMT_CLEAR_PATTERNS, error);
  for (guint i = 0; ok && i < patterns->len; i++)
    {
      SextantPattern *pattern = g_ptr_array_index (patterns, i);

      if (!is_selected (self, pattern))
        continue;
      ok = !g_cancellable_set_error_if_cancelled (cancellable, error) && run_pattern (self, pattern, error);
    }

  if (!ok)
    {
      sextant_store_rollback (self->store);
      return FALSE;
    }

  return sextant_store_commit (self->store, error);
}
