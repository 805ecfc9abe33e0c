/*
 * test-store-readers.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The typed readers of sextant-store.h, which ui/ uses instead of SQL,
 * against the store's tables and views read with SQL and, where the archive
 * itself says it, against otf2-print: locations (their number, OTF2 ids,
 * names, processes and event counts), the time span, region names, pattern
 * totals and instances, and the scope of the last analysis (none, a partial
 * one with a parameter, a full one). On third-party archives and on
 * synthetic ones (tests/otf2gen), each imported into a temporary store.
 */
#include "config.h"

#include <string.h>

#include "sextant-analysis.h"
#include "sextant-store-private.h"
#include "sextant-test-util.h"

#define NULL_TEXT "<NULL>"

typedef struct
{
  const char *name;
  const char *external;    /* under SEXTANT_EXTERNAL_TRACES, or NULL */
  const char *scenario;    /* an otf2gen scenario, or NULL */
} Archive;

/* SQL ---------------------------------------------------------------------- */

typedef struct
{
  guint      n_cols;
  GPtrArray *rows;         /* GStrv, NULL_TEXT for NULL */
} Rows;

static gboolean
text_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  Rows *rows = user_data;
  char **values = g_new0 (char *, rows->n_cols + 1);

  for (guint c = 0; c < rows->n_cols; c++)
    values[c] = g_strdup (sextant_row_is_null (row, c) ? NULL_TEXT : sextant_row_get_text (row, c));
  g_ptr_array_add (rows->rows, values);

  return TRUE;
}

/* The rows of @sql (parameter :p = @p, if given) as text. */
static GPtrArray *
query (SextantStore *store,
       const char   *sql,
       guint         n_cols,
       const char   *p)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) parameters = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                            (GDestroyNotify)g_variant_unref);
  Rows rows = { n_cols, g_ptr_array_new_with_free_func ((GDestroyNotify)g_strfreev) };

  if (p != NULL)
    g_hash_table_insert (parameters, "p", g_variant_ref_sink (g_variant_new_string (p)));
  g_assert_true (sextant_store_run_query (store, sql, parameters, NULL, FALSE, text_row, &rows, &error));
  g_assert_no_error (error);

  return rows.rows;
}

static const char *
cell (GPtrArray *rows,
      guint      row,
      guint      col)
{
  return ((char **)g_ptr_array_index (rows, row))[col];
}

static gint64
cell_int (GPtrArray *rows,
          guint      row,
          guint      col)
{
  const char *text = cell (rows, row, col);

  return g_str_equal (text, NULL_TEXT) ? SEXTANT_NULL : g_ascii_strtoll (text, NULL, 10);
}

/* @text as the reader gives it: NULL_TEXT for NULL */
static const char *
or_null (const char *text)
{
  return text != NULL ? text : NULL_TEXT;
}

/* otf2-print --------------------------------------------------------------- */

static char *
otf2_print (const char *anchor,
            gboolean    definitions)
{
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "otf2-print", definitions ? "-G" : anchor, definitions ? anchor : NULL, NULL };
  char *out = NULL;
  int status = -1;

  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  return out;
}

/* Archives ------------------------------------------------------------------ */

/* The anchor of @archive, generated into @tmpdir if it is synthetic. */
static char *
archive_anchor (const Archive *archive,
                const char    *tmpdir)
{
  if (archive->external != NULL)
    return g_build_filename (g_getenv ("SEXTANT_EXTERNAL_TRACES"), archive->external, "traces.otf2", NULL);

  {
    g_autoptr(GError) error = NULL;
    g_autofree char *out = g_build_filename (tmpdir, archive->scenario, NULL);
    const char *argv[] = { g_getenv ("SEXTANT_OTF2GEN"), archive->scenario, out, NULL };
    int status = -1;

    g_assert_nonnull (argv[0]);
    g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                                 &status, &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));

    return g_build_filename (out, "traces.otf2", NULL);
  }
}

/* Checks ------------------------------------------------------------------- */

static void
check_locations (SextantStore *store,
                 const char   *anchor)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) locations = sextant_store_list_locations (store, &error);
  g_autoptr(GPtrArray) sql = query (store,
    "SELECT l.id, l.otf2_id, l.name, g.name, ll.label, l.events, "
    "       (SELECT count (*) FROM location AS o WHERE o.location_group IS l.location_group) "
    "FROM location AS l LEFT JOIN location_group AS g ON g.id = l.location_group "
    "JOIN location_label AS ll ON ll.loc = l.id ORDER BY l.id", 7, NULL);
  g_autofree char *defs = otf2_print (anchor, TRUE);
  g_autofree char *events = otf2_print (anchor, FALSE);
  g_autoptr(GRegex) def_re = g_regex_new ("^LOCATION +([0-9]+) +Name: \"([^\"]*)\".*Group: \"([^\"]*)\"",
                                          G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GRegex) event_re = g_regex_new ("^[A-Z][A-Z0-9_]* +([0-9]+) +[0-9]+", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GHashTable) printed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) counted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GMatchInfo) match = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (locations);
  g_assert_cmpuint (locations->len, ==, sql->len);

  /* otf2-print: the definitions (id -> "name\x1fgroup") and the events per location */
  for (g_regex_match (def_re, defs, 0, &match); g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree char *name = g_match_info_fetch (match, 2);
      g_autofree char *group = g_match_info_fetch (match, 3);

      g_hash_table_insert (printed, g_match_info_fetch (match, 1), g_strconcat (name, "\x1f", group, NULL));
    }
  g_clear_pointer (&match, g_match_info_unref);
  for (g_regex_match (event_re, events, 0, &match); g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      char *id = g_match_info_fetch (match, 1);
      gsize n = GPOINTER_TO_SIZE (g_hash_table_lookup (counted, id));

      g_hash_table_replace (counted, id, GSIZE_TO_POINTER (n + 1));
    }
  g_assert_cmpuint (g_hash_table_size (printed), ==, locations->len);

  for (guint i = 0; i < locations->len; i++)
    {
      SextantLocationInfo *info = g_ptr_array_index (locations, i);
      g_autofree char *otf2_id = g_strdup_printf ("%" G_GINT64_FORMAT, info->otf2_id);
      g_autofree char *expected_label = NULL;
      const char *definition = g_hash_table_lookup (printed, otf2_id);
      g_auto(GStrv) name_group = NULL;

      /* the views */
      g_assert_cmpint (info->id, ==, cell_int (sql, i, 0));
      g_assert_cmpint (info->otf2_id, ==, cell_int (sql, i, 1));
      g_assert_cmpstr (info->name, ==, g_str_equal (cell (sql, i, 2), NULL_TEXT) ? "?" : cell (sql, i, 2));
      g_assert_cmpstr (or_null (info->group), ==, cell (sql, i, 3));
      g_assert_cmpstr (info->label, ==, cell (sql, i, 4));
      g_assert_cmpint (info->events, ==, cell_int (sql, i, 5) == SEXTANT_NULL ? 0 : cell_int (sql, i, 5));
      /* the label: the process, with the thread when the process has several */
      expected_label = cell_int (sql, i, 6) > 1 && g_strcmp0 (info->group, info->name) != 0
                       ? g_strdup_printf ("%s / %s", info->group, info->name) : g_strdup (info->group);
      g_assert_cmpstr (info->label, ==, expected_label);

      /* the archive */
      g_assert_nonnull (definition);
      name_group = g_strsplit (definition, "\x1f", 2);
      g_assert_cmpstr (info->name, ==, name_group[0]);
      g_assert_cmpstr (info->group, ==, name_group[1]);
      g_assert_cmpint (info->events, ==, (gint64)GPOINTER_TO_SIZE (g_hash_table_lookup (counted, otf2_id)));
      if (i > 0)
        g_assert_cmpint (info->id, >, ((SextantLocationInfo *)g_ptr_array_index (locations, i - 1))->id);
    }
}

static void
check_time_and_regions (SextantStore *store,
                        const char   *anchor)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) span_sql = query (store,
    "SELECT min (time_begin), max (time_end), (SELECT value FROM meta WHERE key = 'resolution'), "
    "       (SELECT min (enter) FROM visit), (SELECT max (leave) FROM visit) "
    "FROM location WHERE events > 0", 5, NULL);
  g_autoptr(GPtrArray) regions_sql = query (store, "SELECT id, coalesce (name, '?') FROM region", 2, NULL);
  g_autoptr(GHashTable) names = NULL;
  g_autofree char *defs = otf2_print (anchor, TRUE);
  g_auto(GStrv) lines = g_strsplit (defs, "\n", -1);
  guint printed_regions = 0;
  SextantTimeSpan span = { -1, -1, -1 };

  g_assert_true (sextant_store_get_time_span (store, &span, &error));
  g_assert_no_error (error);
  g_assert_cmpint (span.begin, ==, cell_int (span_sql, 0, 0));
  g_assert_cmpint (span.end, ==, cell_int (span_sql, 0, 1));
  g_assert_cmpint (span.resolution, ==, cell_int (span_sql, 0, 2));
  g_assert_cmpint (span.resolution, >=, 1);
  /* inclusive: every visit lies in [begin, end] */
  g_assert_cmpint (span.begin, <=, cell_int (span_sql, 0, 3));
  g_assert_cmpint (span.end, >=, cell_int (span_sql, 0, 4));

  names = sextant_store_read_region_names (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (names), ==, regions_sql->len);
  for (guint i = 0; i < regions_sql->len; i++)
    {
      gint64 id = cell_int (regions_sql, i, 0);

      g_assert_cmpstr (g_hash_table_lookup (names, &id), ==, cell (regions_sql, i, 1));
    }
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "REGION "))
      printed_regions++;
  g_assert_cmpuint (g_hash_table_size (names), ==, printed_regions);
}

/* The totals and the worst instances of each pattern against the view. */
static void
check_results (SextantStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) totals = sextant_store_list_pattern_totals (store, &error);
  g_autoptr(GPtrArray) sql = query (store,
    "SELECT p.id, p.title, p.parent, p.description, "
    "       (SELECT count (*) FROM pattern_instance AS i WHERE i.pattern = p.id), "
    "       (SELECT coalesce (sum (severity), 0) FROM pattern_instance AS i WHERE i.pattern = p.id) "
    "FROM pattern AS p ORDER BY p.id", 6, NULL);
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_str_hash, g_str_equal);

  g_assert_no_error (error);
  g_assert_cmpuint (totals->len, ==, sql->len);
  for (guint i = 0; i < totals->len; i++)
    {
      SextantPatternTotal *total = g_ptr_array_index (totals, i);

      g_hash_table_insert (by_id, total->id, total);
      /* worst first, the patterns without instances last */
      if (i > 0)
        {
          SextantPatternTotal *before = g_ptr_array_index (totals, i - 1);

          g_assert_true ((before->instances > 0 && total->instances == 0) ||
                         ((before->instances > 0) == (total->instances > 0) && before->severity > total->severity) ||
                         ((before->instances > 0) == (total->instances > 0) && before->severity == total->severity &&
                          strcmp (before->id, total->id) < 0));
        }
    }

  for (guint i = 0; i < sql->len; i++)
    {
      SextantPatternTotal *total = g_hash_table_lookup (by_id, cell (sql, i, 0));
      g_autoptr(GPtrArray) instances = NULL;
      g_autoptr(GPtrArray) rows = NULL;

      g_assert_nonnull (total);
      g_assert_cmpstr (total->title, ==, cell (sql, i, 1));
      g_assert_cmpstr (or_null (total->parent), ==, cell (sql, i, 2));
      g_assert_cmpstr (or_null (total->description), ==, cell (sql, i, 3));
      g_assert_cmpint (total->instances, ==, cell_int (sql, i, 4));
      g_assert_cmpint (total->severity, ==, cell_int (sql, i, 5));

      instances = sextant_store_list_pattern_instances (store, total->id, 40, &error);
      g_assert_no_error (error);
      rows = query (store,
        "SELECT i.id, i.pattern, i.severity, i.loc, i.peer_loc, i.begin, i.\"end\", ll.label, pl.label, i.call, "
        "       i.callpath, i.file, i.line, i.site_kind, i.function, i.comment, "
        "       coalesce (i.cause, 'none'), i.cause_instance, i.root_loc, i.root_label "
        "FROM pattern_instance AS i JOIN location_label AS ll ON ll.loc = i.loc "
        "LEFT JOIN location_label AS pl ON pl.loc = i.peer_loc "
        "WHERE i.pattern = :p ORDER BY i.severity DESC, i.id LIMIT 40", 20, total->id);
      g_assert_cmpuint (instances->len, ==, rows->len);
      g_assert_cmpuint (instances->len, ==, MIN (40, total->instances));
      for (guint k = 0; k < instances->len; k++)
        {
          SextantPatternInstance *instance = g_ptr_array_index (instances, k);
          static const char * const kinds[] = { "none", "call", "function" };
          static const char * const causes[] = { "none", "direct", "propagated" };

          g_assert_cmpint (instance->id, ==, cell_int (rows, k, 0));
          g_assert_cmpstr (instance->pattern, ==, total->id);
          g_assert_cmpint (instance->severity, ==, cell_int (rows, k, 2));
          g_assert_cmpint (instance->loc, ==, cell_int (rows, k, 3));
          g_assert_cmpint (instance->peer_loc, ==, cell_int (rows, k, 4));
          g_assert_cmpint (instance->begin, ==, cell_int (rows, k, 5));
          g_assert_cmpint (instance->end, ==, cell_int (rows, k, 6));
          g_assert_cmpstr (instance->location, ==, cell (rows, k, 7));
          g_assert_cmpstr (or_null (instance->peer), ==, cell (rows, k, 8));
          g_assert_cmpstr (or_null (instance->call), ==, cell (rows, k, 9));
          g_assert_cmpstr (or_null (instance->callpath), ==, cell (rows, k, 10));
          g_assert_cmpstr (or_null (instance->file), ==, cell (rows, k, 11));
          g_assert_cmpint (instance->line, ==, cell_int (rows, k, 12) == SEXTANT_NULL ? 0 : cell_int (rows, k, 12));
          g_assert_cmpstr (kinds[instance->site_kind], ==, cell (rows, k, 13));
          g_assert_cmpstr (or_null (instance->function), ==, cell (rows, k, 14));
          g_assert_true ((instance->site_kind == SEXTANT_SITE_FUNCTION) == (instance->function != NULL));
          g_assert_true ((instance->site_kind == SEXTANT_SITE_NONE) == (instance->file == NULL));
          g_assert_cmpstr (instance->comment, ==, cell (rows, k, 15));
          g_assert_cmpstr (instance->comment, !=, "");
          g_assert_cmpstr (causes[instance->cause], ==, cell (rows, k, 16));
          g_assert_cmpint (instance->cause_instance, ==, cell_int (rows, k, 17));
          g_assert_cmpint (instance->root_loc, ==, cell_int (rows, k, 18));
          g_assert_cmpstr (or_null (instance->root_label), ==, cell (rows, k, 19));
          if (k == 0)
            {
              g_autoptr(SextantPatternInstance) one = NULL;

              g_assert_true (sextant_store_get_pattern_instance (store, instance->id, &one, &error));
              g_assert_no_error (error);
              g_assert_nonnull (one);
              g_assert_cmpint (one->id, ==, instance->id);
              g_assert_cmpstr (one->comment, ==, instance->comment);
              g_assert_cmpint (one->cause, ==, instance->cause);
              g_assert_cmpint (one->root_loc, ==, instance->root_loc);
            }
          if (k > 0)
            g_assert_cmpint (instance->severity, <=,
                             ((SextantPatternInstance *)g_ptr_array_index (instances, k - 1))->severity);
        }
    }
}

static void
analyse (SextantStore *store,
         const char   *select,
         const char   *param)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantPatternSet) set = sextant_pattern_set_new ();
  g_autoptr(SextantAnalysis) analysis = NULL;

  g_assert_true (sextant_pattern_set_add_builtin (set, &error));
  analysis = sextant_analysis_new (store, set);
  if (select != NULL)
    g_assert_true (sextant_analysis_select (analysis, select, &error));
  if (param != NULL)
    g_assert_true (sextant_analysis_set_param (analysis, param, &error));
  g_assert_true (sextant_analysis_run (analysis, NULL, &error));
  g_assert_no_error (error);
}

static void
test_readers (gconstpointer data)
{
  const Archive *archive = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *gen_dir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *anchor = archive_anchor (archive, gen_dir);
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (anchor, &tmpdir);
  g_auto(SextantAnalysisScope) scope = { 0 };
  g_autoptr(GPtrArray) totals = NULL;
  g_autoptr(GPtrArray) instances = NULL;
  g_autoptr(GPtrArray) ran = NULL;

  check_locations (store, anchor);
  check_time_and_regions (store, anchor);

  /* never analysed */
  g_assert_true (sextant_store_get_analysis_scope (store, &scope, &error));
  g_assert_no_error (error);
  g_assert_false (scope.analysed);
  g_assert_null (scope.selected);
  g_assert_null (scope.parameters);
  totals = sextant_store_list_pattern_totals (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (totals->len, ==, 0);
  instances = sextant_store_list_pattern_instances (store, "late_sender", 10, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (instances->len, ==, 0);

  /* partial: late_sender and the pattern below it, one parameter */
  analyse (store, "late_sender", "late_sender.eps=0.000001");
  sextant_analysis_scope_clear (&scope);
  g_assert_true (sextant_store_get_analysis_scope (store, &scope, &error));
  g_assert_true (scope.analysed);
  g_assert_nonnull (scope.selected);
  g_assert_cmpuint (g_strv_length (scope.selected), ==, 1);
  g_assert_cmpstr (scope.selected[0], ==, "late_sender");
  g_assert_cmpstr (scope.parameters, ==, "late_sender.eps=1e-06");
  ran = query (store, "SELECT id FROM pattern ORDER BY id", 1, NULL);
  g_assert_cmpuint (ran->len, ==, 2);
  g_assert_cmpstr (cell (ran, 0, 0), ==, "late_sender");
  g_assert_cmpstr (cell (ran, 1, 0), ==, "late_sender_wrong_order");
  check_results (store);

  /* full, with the defaults */
  analyse (store, NULL, NULL);
  sextant_analysis_scope_clear (&scope);
  g_assert_true (sextant_store_get_analysis_scope (store, &scope, &error));
  g_assert_true (scope.analysed);
  g_assert_null (scope.selected);
  g_assert_null (scope.parameters);
  check_results (store);

  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
  sextant_test_remove_tree (gen_dir);
}

/* A closed store fails every reader with an error, it does not crash. */
static void
test_closed (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *anchor = g_build_filename (g_getenv ("SEXTANT_EXTERNAL_TRACES"), "casita-4_mpi_ls_barr",
                                              "traces.otf2", NULL);
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (anchor, &tmpdir);
  g_autoptr(GPtrArray) locations = NULL;
  g_auto(SextantAnalysisScope) scope = { 0 };
  SextantTimeSpan span;

  g_assert_true (sextant_store_close (store, &error));
  g_assert_true (sextant_store_close (store, &error));
  locations = sextant_store_list_locations (store, &error);
  g_assert_null (locations);
  g_assert_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE);
  g_clear_error (&error);
  g_assert_false (sextant_store_get_time_span (store, &span, &error));
  g_assert_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE);
  g_clear_error (&error);
  g_assert_false (sextant_store_get_analysis_scope (store, &scope, &error));
  g_assert_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE);
  g_assert_false (scope.analysed);
  g_assert_null (sextant_store_get_meta (store, "resolution"));

  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
}

int
main (int    argc,
      char **argv)
{
  static const Archive archives[] = {
    { "casita-4_mpi_ls_barr", "casita-4_mpi_ls_barr", NULL },
    { "pipit-ping-pong-otf2", "pipit-ping-pong-otf2", NULL },
    { "casita-1_scorep-ompt-host-nested", "casita-1_scorep-ompt-host-nested", NULL },
    { "sstmacro-otf2_test_traces", "sstmacro-otf2_test_traces", NULL },
    { "planted-late-sender", NULL, "planted-late-sender" },
    { "every-kind", NULL, "every-kind" },
  };

  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (archives); i++)
    {
      g_autofree char *path = g_strdup_printf ("/store/readers/%s", archives[i].name);

      g_test_add_data_func (path, &archives[i], test_readers);
    }
  g_test_add_func ("/store/readers/closed", test_closed);

  return g_test_run ();
}
