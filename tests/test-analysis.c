/*
 * test-analysis.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The analysis as the window runs it: asynchronously with progress (the
 * same instances as a synchronous run; the progress grows to 1.0, once per
 * pattern, in the worker thread), cancelled from another thread on a large
 * store (it stops within a bounded time and the store keeps its previous
 * analysis), a store's own cancellable stopping a long query, and which
 * source line an instance points at: a call site, the line where the
 * enclosing function begins (said so in the comment, the JSON and the
 * report), or none.
 */
#include "config.h"

#include <string.h>

#include "sextant-analysis.h"
#include "sextant-report.h"
#include "sextant-store-private.h"
#include "sextant-test-util.h"

/* Helpers ------------------------------------------------------------------- */

static char *
external_anchor (const char *name)
{
  return g_build_filename (g_getenv ("SEXTANT_EXTERNAL_TRACES"), name, "traces.otf2", NULL);
}

/* Runs a generator (@program: an environment variable naming it) into
 * @tmpdir/out and returns the anchor it wrote. */
static char *
generate (const char          *program,
          const char * const  *args,
          const char          *tmpdir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = g_build_filename (tmpdir, "out", NULL);
  int status = -1;

  g_assert_nonnull (g_getenv (program));
  g_ptr_array_add (argv, (gpointer)g_getenv (program));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, out);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **)argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  return g_build_filename (out, "traces.otf2", NULL);
}

static SextantAnalysis *
new_analysis (SextantStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantPatternSet) set = sextant_pattern_set_new ();

  g_assert_true (sextant_pattern_set_add_builtin (set, &error));
  g_assert_no_error (error);

  return sextant_analysis_new (store, set);
}

static gboolean
append_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  g_string_append_printf (user_data, "%s|%s|%s|%s|%s|%s|%s\n", sextant_row_get_text (row, 0),
                          sextant_row_get_text (row, 1), sextant_row_get_text (row, 2),
                          sextant_row_get_text (row, 3), sextant_row_is_null (row, 4) ? "-" : sextant_row_get_text (row, 4),
                          sextant_row_get_text (row, 5), sextant_row_get_text (row, 6));

  return TRUE;
}

/* Every instance of the last analysis, as text. */
static char *
all_instances (SextantStore *store)
{
  g_autoptr(GError) error = NULL;
  GString *text = g_string_new (NULL);

  g_assert_true (sextant_store_run_query (store,
                                          "SELECT id, pattern, severity, loc, file, site_kind, comment "
                                          "FROM pattern_instance ORDER BY id",
                                          NULL, NULL, FALSE, append_row, text, &error));
  g_assert_no_error (error);

  return g_string_free (text, FALSE);
}

/* Async and progress ----------------------------------------------------------- */

typedef struct
{
  GMutex     lock;
  GArray    *fractions;     /* double */
  GPtrArray *ids;           /* char* */
  GThread   *thread;        /* where the last call came from */
} Progress;

static void
record_progress (double      fraction,
                 const char *pattern_id,
                 gpointer    user_data)
{
  Progress *progress = user_data;

  g_mutex_lock (&progress->lock);
  g_array_append_val (progress->fractions, fraction);
  g_ptr_array_add (progress->ids, g_strdup (pattern_id));
  progress->thread = g_thread_self ();
  g_mutex_unlock (&progress->lock);
}

static void
progress_clear (Progress *progress)
{
  g_array_set_size (progress->fractions, 0);
  g_ptr_array_set_size (progress->ids, 0);
  progress->thread = NULL;
}

/* Once per pattern of the run, growing to 1.0. */
static void
check_progress (SextantStore *store,
                Progress     *progress)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) totals = sextant_store_list_pattern_totals (store, &error);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  g_assert_no_error (error);
  g_assert_cmpuint (progress->fractions->len, ==, totals->len);
  g_assert_cmpuint (progress->fractions->len, >, 1);
  for (guint i = 0; i < progress->fractions->len; i++)
    {
      double f = g_array_index (progress->fractions, double, i);

      g_assert_cmpfloat (f, >, 0.0);
      if (i > 0)
        g_assert_cmpfloat (f, >, g_array_index (progress->fractions, double, i - 1));
      g_assert_true (g_hash_table_add (seen, g_ptr_array_index (progress->ids, i)));
    }
  g_assert_cmpfloat (g_array_index (progress->fractions, double, progress->fractions->len - 1), ==, 1.0);
  for (guint i = 0; i < totals->len; i++)
    g_assert_true (g_hash_table_contains (seen, ((SextantPatternTotal *)g_ptr_array_index (totals, i))->id));
}

static void
run_done (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  *(GAsyncResult **)user_data = g_object_ref (result);
}

static void
test_async (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *anchor = external_anchor ("casita-10_scorep_mpi_tags");
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (anchor, &tmpdir);
  g_autoptr(SextantAnalysis) analysis = new_analysis (store);
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *sync = NULL;
  g_autofree char *async = NULL;
  Progress progress = { .fractions = g_array_new (FALSE, FALSE, sizeof (double)),
                        .ids = g_ptr_array_new_with_free_func (g_free) };

  g_mutex_init (&progress.lock);
  sextant_analysis_set_progress_func (analysis, record_progress, &progress, NULL);

  g_assert_true (sextant_analysis_run (analysis, NULL, &error));
  g_assert_no_error (error);
  sync = all_instances (store);
  g_assert_cmpuint (strlen (sync), >, 0);
  check_progress (store, &progress);
  g_assert_true (progress.thread == g_thread_self ());

  /* the store is the worker's until the callback */
  progress_clear (&progress);
  sextant_analysis_run_async (analysis, NULL, run_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (sextant_analysis_run_finish (analysis, result, &error));
  g_assert_no_error (error);
  async = all_instances (store);
  g_assert_cmpstr (async, ==, sync);
  check_progress (store, &progress);
  g_assert_nonnull (progress.thread);
  g_assert_true (progress.thread != g_thread_self ());

  g_array_unref (progress.fractions);
  g_ptr_array_unref (progress.ids);
  g_mutex_clear (&progress.lock);
  g_clear_object (&analysis);
  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
}

/* Cancelling -------------------------------------------------------------------- */

typedef struct
{
  GCancellable *cancellable;
  gint64        delay_usec;
  GMutex        lock;
  GCond         cond;
  gboolean      finished;       /* the run returned before the delay */
  gint64        cancelled_at;   /* monotonic time of the cancel, 0: not cancelled */
} Canceller;

/* Waits for the delay (or the end of the run), then cancels. */
static gpointer
cancel_later (gpointer data)
{
  Canceller *c = data;
  gint64 deadline = g_get_monotonic_time () + c->delay_usec;

  g_mutex_lock (&c->lock);
  while (!c->finished && g_get_monotonic_time () < deadline)
    g_cond_wait_until (&c->cond, &c->lock, deadline);
  if (!c->finished)
    {
      c->cancelled_at = g_get_monotonic_time ();
      g_cancellable_cancel (c->cancellable);
    }
  g_mutex_unlock (&c->lock);

  return NULL;
}

static void
canceller_finish (Canceller *c)
{
  g_mutex_lock (&c->lock);
  c->finished = TRUE;
  g_cond_signal (&c->cond);
  g_mutex_unlock (&c->lock);
}

static char *
totals_text (SextantStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) totals = sextant_store_list_pattern_totals (store, &error);
  GString *text = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < totals->len; i++)
    {
      SextantPatternTotal *t = g_ptr_array_index (totals, i);

      g_string_append_printf (text, "%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n", t->id, t->instances,
                              t->severity);
    }

  return g_string_free (text, FALSE);
}

/* A full analysis of a large store cancelled 100 ms in from another thread:
 * it fails with G_IO_ERROR_CANCELLED soon after, and the store still has
 * the analysis before it. */
static void
test_cancel_analysis (void)
{
  static const char * const args[] = { "--ranks", "32", "--events", "2000000", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *gen_dir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *anchor = generate ("SEXTANT_BENCH_GEN", args, gen_dir);
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (anchor, &tmpdir);
  g_autoptr(SextantAnalysis) previous = new_analysis (store);
  g_autoptr(SextantAnalysis) analysis = new_analysis (store);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_auto(SextantAnalysisScope) scope = { 0 };
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *instances_before = NULL;
  g_autofree char *instances_after = NULL;
  Canceller canceller = { cancellable, 100 * 1000 };
  GThread *thread;
  gint64 start, returned;
  gboolean ok;

  /* SEXTANT_TEST_CANCEL_MS=N cancels N ms in instead (to measure) */
  if (g_getenv ("SEXTANT_TEST_CANCEL_MS") != NULL)
    canceller.delay_usec = g_ascii_strtoll (g_getenv ("SEXTANT_TEST_CANCEL_MS"), NULL, 10) * 1000;
  g_mutex_init (&canceller.lock);
  g_cond_init (&canceller.cond);

  g_assert_true (sextant_analysis_select (previous, "late_sender", &error));
  g_assert_true (sextant_analysis_run (previous, NULL, &error));
  g_assert_no_error (error);
  before = totals_text (store);
  instances_before = all_instances (store);

  thread = g_thread_new ("canceller", cancel_later, &canceller);
  start = g_get_monotonic_time ();
  ok = sextant_analysis_run (analysis, cancellable, &error);
  returned = g_get_monotonic_time ();
  canceller_finish (&canceller);
  g_thread_join (thread);

  g_assert_cmpint (canceller.cancelled_at, >, 0);   /* the run took longer than 100 ms */
  g_assert_false (ok);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_test_message ("full analysis cancelled %.0f ms in; it returned %.1f ms after the cancel",
                  (canceller.cancelled_at - start) / 1000.0, (returned - canceller.cancelled_at) / 1000.0);
  g_test_minimized_result ((returned - canceller.cancelled_at) / 1e6, "seconds from cancel to return");
  /* a loaded two-core machine answers within a few hundred milliseconds */
  g_assert_cmpint (returned - canceller.cancelled_at, <, 3 * G_USEC_PER_SEC);

  /* the previous analysis, whole */
  after = totals_text (store);
  g_assert_cmpstr (after, ==, before);
  instances_after = all_instances (store);
  g_assert_cmpstr (instances_after, ==, instances_before);
  g_assert_true (sextant_store_get_analysis_scope (store, &scope, &error));
  g_assert_true (scope.analysed);
  g_assert_nonnull (scope.selected);
  g_assert_cmpstr (scope.selected[0], ==, "late_sender");
  g_assert_null (scope.selected[1]);
  /* the analysis gave the store back without its cancellable */
  g_assert_null (sextant_store_get_cancellable (store));

  /* and it runs again, to the end */
  g_clear_error (&error);
  g_assert_true (sextant_analysis_run (analysis, NULL, &error));
  g_assert_no_error (error);
  sextant_analysis_scope_clear (&scope);
  g_assert_true (sextant_store_get_analysis_scope (store, &scope, &error));
  g_assert_null (scope.selected);

  g_mutex_clear (&canceller.lock);
  g_cond_clear (&canceller.cond);
  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
  sextant_test_remove_tree (gen_dir);
}

static gboolean
ignore_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  return TRUE;
}

/* The store's own cancellable stops a long query from another thread, and
 * fails every statement while it is cancelled. */
static void
test_cancel_query (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *anchor = external_anchor ("sstmacro-otf2_test_traces");
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (anchor, &tmpdir);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GPtrArray) locations = NULL;
  Canceller canceller = { cancellable, 50 * 1000 };
  GThread *thread;
  gint64 returned;
  gboolean ok;

  g_mutex_init (&canceller.lock);
  g_cond_init (&canceller.cond);
  sextant_store_set_cancellable (store, cancellable);
  g_assert_true (sextant_store_get_cancellable (store) == cancellable);

  /* every visit against every visit: minutes */
  thread = g_thread_new ("canceller", cancel_later, &canceller);
  ok = sextant_store_run_query (store, "SELECT count (*) FROM visit AS a, visit AS b WHERE a.enter < b.leave",
                                NULL, NULL, FALSE, ignore_row, NULL, &error);
  returned = g_get_monotonic_time ();
  canceller_finish (&canceller);
  g_thread_join (thread);
  g_assert_false (ok);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (canceller.cancelled_at, >, 0);
  g_test_message ("query returned %.1f ms after the cancel", (returned - canceller.cancelled_at) / 1000.0);
  g_assert_cmpint (returned - canceller.cancelled_at, <, G_USEC_PER_SEC);
  g_clear_error (&error);

  /* cancelled: no statement starts */
  locations = sextant_store_list_locations (store, &error);
  g_assert_null (locations);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* reset, or removed: the store reads again */
  g_cancellable_reset (cancellable);
  locations = sextant_store_list_locations (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (locations->len, >, 0);
  g_clear_pointer (&locations, g_ptr_array_unref);
  g_cancellable_cancel (cancellable);
  sextant_store_set_cancellable (store, NULL);
  locations = sextant_store_list_locations (store, &error);
  g_assert_no_error (error);

  g_mutex_clear (&canceller.lock);
  g_cond_clear (&canceller.cond);
  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
}

/* Where instances point ------------------------------------------------------- */

static SextantPatternInstance *
find_instance (GPtrArray  *instances,
               gint64      severity,
               const char *callpath)
{
  for (guint i = 0; i < instances->len; i++)
    {
      SextantPatternInstance *instance = g_ptr_array_index (instances, i);

      if (instance->severity == severity && g_strcmp0 (instance->callpath, callpath) == 0)
        return instance;
    }

  g_assert_not_reached ();
}

/* The patterns' top sites as `sextant analyze --json` prints them. */
static JsonObject *
top_site (JsonArray  *patterns,
          const char *id)
{
  for (guint i = 0; i < json_array_get_length (patterns); i++)
    {
      JsonObject *p = json_array_get_object_element (patterns, i);

      if (g_str_equal (json_object_get_string_member (p, "id"), id))
        return json_array_get_object_element (json_object_get_array_member (p, "top_sites"), 0);
    }

  g_assert_not_reached ();
}

static char *
markdown_report (SextantStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) model = sextant_report_gather (store, NULL, &error);

  g_assert_no_error (error);

  return sextant_report_render (model, SEXTANT_REPORT_MARKDOWN);
}

/* A call-site attribute, an enclosing function's definition, nothing
 * (tests/otf2gen/otf2gen-planted.h, planted-late-sender (a) to (c)). */
static void
test_sites_planted (void)
{
  static const char * const args[] = { "planted-late-sender", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *gen_dir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *archive = NULL;
  g_autofree char *anchor = NULL;
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantAnalysis) analysis = NULL;
  g_autoptr(GPtrArray) instances = NULL;
  SextantPatternInstance *call, *function, *none;

  archive = generate ("SEXTANT_OTF2GEN", args, gen_dir);
  /* otf2gen takes SCENARIO OUTDIR */
  anchor = g_strdup (archive);
  store = sextant_test_import (anchor, &tmpdir);
  analysis = new_analysis (store);
  g_assert_true (sextant_analysis_run (analysis, NULL, &error));
  g_assert_no_error (error);
  instances = sextant_store_list_pattern_instances (store, "late_sender", 100, &error);
  g_assert_no_error (error);

  call = find_instance (instances, 70, "main/exchange/MPI_Recv");
  g_assert_cmpint (call->site_kind, ==, SEXTANT_SITE_CALL);
  g_assert_cmpstr (call->file, ==, "/src/planted/halo.c");
  g_assert_cmpint (call->line, ==, 57);
  g_assert_null (call->function);
  g_assert_cmpstr (call->call, ==, "MPI_Recv");
  g_assert_nonnull (strstr (call->comment, "in MPI_Recv at halo.c:57 for MPI Rank 0, whose"));

  function = find_instance (instances, 50, "main/exchange/MPI_Recv");
  g_assert_cmpint (function->site_kind, ==, SEXTANT_SITE_FUNCTION);
  g_assert_cmpstr (function->file, ==, "/src/planted/planted.c");
  g_assert_cmpint (function->line, ==, 40);
  g_assert_cmpstr (function->function, ==, "exchange");
  g_assert_nonnull (strstr (function->comment, "in MPI_Recv at planted.c:40 (where exchange begins; the trace "
                                               "gives no call site) for MPI Rank 0, whose"));

  none = find_instance (instances, 25, "driver/MPI_Recv");
  g_assert_cmpint (none->site_kind, ==, SEXTANT_SITE_NONE);
  g_assert_null (none->file);
  g_assert_cmpint (none->line, ==, 0);
  g_assert_null (none->function);
  g_assert_nonnull (strstr (none->comment, "in MPI_Recv at an unknown source line for MPI Rank 0"));

  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
  sextant_test_remove_tree (gen_dir);
}

/* Third-party traces: Score-P's without call sites point at the functions'
 * first lines, sstmacro's have no source information. */
static void
test_sites_external (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *casita = external_anchor ("casita-4_mpi_ls_barr");
  g_autofree char *sstmacro = external_anchor ("sstmacro-otf2_test_traces");
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (casita, &tmpdir);
  g_autoptr(SextantAnalysis) analysis = new_analysis (store);
  g_autoptr(GPtrArray) instances = NULL;
  g_autoptr(JsonArray) patterns = NULL;
  g_autofree char *report = NULL;
  SextantPatternInstance *worst;
  JsonObject *site;
  double total;

  g_assert_true (sextant_analysis_run (analysis, NULL, &error));
  g_assert_no_error (error);
  instances = sextant_store_list_pattern_instances (store, "late_sender", 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (instances->len, ==, 1);
  worst = g_ptr_array_index (instances, 0);
  g_assert_cmpint (worst->site_kind, ==, SEXTANT_SITE_FUNCTION);
  g_assert_true (g_str_has_suffix (worst->file, "/gen_mpi.c"));
  g_assert_cmpint (worst->line, ==, 52);
  g_assert_cmpstr (worst->function, ==, "late_sender");
  g_assert_cmpstr (worst->callpath, ==, "main/late_sender/MPI_Recv");
  g_assert_cmpstr (worst->location, ==, "MPI Rank 3");
  g_assert_true (g_str_has_prefix (worst->comment, "MPI Rank 3 waited 10.99 s in MPI_Recv at gen_mpi.c:52 (where "
                                                   "late_sender begins; the trace gives no call site) for MPI Rank 2"));

  patterns = sextant_report_gather_patterns (store, &total, &error);
  g_assert_no_error (error);
  site = top_site (patterns, "late_sender");
  g_assert_cmpstr (json_object_get_string_member (site, "kind"), ==, "function");
  g_assert_cmpstr (json_object_get_string_member (site, "function"), ==, "late_sender");
  g_assert_cmpint (json_object_get_int_member (site, "line"), ==, 52);
  report = markdown_report (store);
  g_assert_nonnull (strstr (report, "gen_mpi.c:52 (where late_sender begins; the trace gives no call site) |"));

  g_clear_object (&analysis);
  g_clear_object (&store);
  g_clear_pointer (&patterns, json_array_unref);
  g_clear_pointer (&report, g_free);
  g_clear_pointer (&instances, g_ptr_array_unref);
  sextant_test_remove_tree (tmpdir);
  g_clear_pointer (&tmpdir, g_free);

  store = sextant_test_import (sstmacro, &tmpdir);
  analysis = new_analysis (store);
  g_assert_true (sextant_analysis_run (analysis, NULL, &error));
  g_assert_no_error (error);
  instances = sextant_store_list_pattern_instances (store, "init_completion", 1, &error);
  g_assert_no_error (error);
  worst = g_ptr_array_index (instances, 0);
  g_assert_cmpint (worst->site_kind, ==, SEXTANT_SITE_NONE);
  g_assert_null (worst->file);
  g_assert_null (worst->function);
  g_assert_nonnull (strstr (worst->comment, "at an unknown source line"));
  patterns = sextant_report_gather_patterns (store, &total, &error);
  site = top_site (patterns, "init_completion");
  g_assert_cmpstr (json_object_get_string_member (site, "kind"), ==, "none");
  g_assert_true (json_node_is_null (json_object_get_member (site, "file")));
  report = markdown_report (store);
  g_assert_nonnull (strstr (report, "| no source information in the trace |"));
  /* the pattern table no longer says "?:0" (the instances' own lines are
   * another part of the report) */
  g_assert_null (strstr (strstr (report, "## Patterns"), "?:0 |"));

  g_clear_object (&analysis);
  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
}

/* A user pattern without a comment template gets a plain one. */
static void
test_default_comment (void)
{
  static const char sql[] =
    "-- id: plain\n"
    "-- title: Plain\n"
    "SELECT v.loc AS loc, v.id AS visit, v.leave - v.enter AS severity\n"
    "FROM visit AS v JOIN region AS r ON r.id = v.region WHERE r.name = 'MPI_Barrier'\n";
  g_autoptr(GError) error = NULL;
  g_autofree char *anchor = external_anchor ("casita-4_mpi_ls_barr");
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (anchor, &tmpdir);
  g_autoptr(SextantPatternSet) set = sextant_pattern_set_new ();
  g_autoptr(SextantPattern) pattern = sextant_pattern_new_from_sql (sql, "plain.sql", &error);
  g_autoptr(SextantAnalysis) analysis = NULL;
  g_autoptr(GPtrArray) instances = NULL;
  SextantPatternInstance *worst;

  g_assert_no_error (error);
  g_assert_true (sextant_pattern_set_add (set, pattern, &error));
  analysis = sextant_analysis_new (store, set);
  g_assert_true (sextant_analysis_run (analysis, NULL, &error));
  g_assert_no_error (error);
  instances = sextant_store_list_pattern_instances (store, "plain", 1, &error);
  g_assert_no_error (error);
  worst = g_ptr_array_index (instances, 0);
  g_assert_true (g_str_has_prefix (worst->comment, "MPI Rank "));
  g_assert_nonnull (strstr (worst->comment, " lost "));
  g_assert_true (g_str_has_suffix (worst->comment, " in MPI_Barrier at gen_mpi.c:45 (where barrier begins; the trace "
                                                   "gives no call site)."));

  g_clear_object (&analysis);
  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
}

/* The default set is the catalogue plus the user's folder. */
static void
test_default_set (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data_home = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *folder = g_build_filename (data_home, "sextant", "patterns", NULL);
  g_autofree char *file = g_build_filename (folder, "mine.sql", NULL);
  g_autoptr(SextantPatternSet) builtin = sextant_pattern_set_new ();
  g_autoptr(SextantPatternSet) set = NULL;

  g_assert_true (sextant_pattern_set_add_builtin (builtin, &error));
  /* g_get_user_data_dir () reads XDG_DATA_HOME once: this is its first call */
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (file, "-- id: mine\n-- title: Mine\nSELECT 0 AS loc, 1 AS severity\n", -1,
                                      &error));

  set = sextant_pattern_set_new_default (&error);
  g_assert_no_error (error);
  g_assert_cmpuint (sextant_pattern_set_get_patterns (set)->len, ==,
                    sextant_pattern_set_get_patterns (builtin)->len + 1);
  g_assert_nonnull (sextant_pattern_set_lookup (set, "mine"));
  g_assert_nonnull (sextant_pattern_set_lookup (set, "late_sender"));

  /* a broken user pattern is an error, with its file */
  g_assert_true (g_file_set_contents (file, "-- id: Bad Id\nSELECT 1\n", -1, &error));
  g_clear_object (&set);
  set = sextant_pattern_set_new_default (&error);
  g_assert_null (set);
  g_assert_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "mine.sql"));

  sextant_test_remove_tree (data_home);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/analysis/default-set", test_default_set);
  g_test_add_func ("/analysis/async", test_async);
  g_test_add_func ("/analysis/cancel", test_cancel_analysis);
  g_test_add_func ("/analysis/cancel-query", test_cancel_query);
  g_test_add_func ("/analysis/sites/planted", test_sites_planted);
  g_test_add_func ("/analysis/sites/external", test_sites_external);
  g_test_add_func ("/analysis/default-comment", test_default_comment);

  return g_test_run ();
}
