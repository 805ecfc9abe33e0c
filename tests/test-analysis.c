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
 * report), or none. The metric tree: on real analyses of third-party
 * traces a node's inclusive time covers its children's and no share of
 * the total time passes 100 %; every built-in pattern has its place (the
 * wait states under Time, the rest under Diagnostics); user patterns name
 * a group or a pattern as parent, and a parent that is neither, or a
 * pattern below itself, is an error.
 */
#include "config.h"

#include <string.h>

#include "sextant-analysis.h"
#include "sextant-report.h"
#include "sextant-wait-causes.h"
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

  patterns = sextant_report_gather_patterns (store, &total, NULL, &error);
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
  patterns = sextant_report_gather_patterns (store, &total, NULL, &error);
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

/* The metric tree ------------------------------------------------------------ */

static JsonObject *
find_by_id (JsonArray  *array,
            const char *id)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *object = json_array_get_object_element (array, i);

      if (g_strcmp0 (json_object_get_string_member (object, "id"), id) == 0)
        return object;
    }

  return NULL;
}

static gboolean
is_below (JsonArray  *tree,
          const char *id,
          const char *ancestor)
{
  JsonObject *node = find_by_id (tree, id);

  while (node != NULL && !json_node_is_null (json_object_get_member (node, "parent")))
    {
      const char *parent = json_object_get_string_member (node, "parent");

      if (g_str_equal (parent, ancestor))
        return TRUE;
      node = find_by_id (tree, parent);
    }

  return FALSE;
}

/* The invariants of the tree of an analysed store, as `sextant analyze
 * --json` prints it and as the window reads it. */
static void
check_tree (SextantStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) patterns = NULL;
  g_autoptr(JsonArray) tree = NULL;
  g_autoptr(SextantPatternTree) read = NULL;
  double total = 0;
  double time_children = 0;
  guint n;

  patterns = sextant_report_gather_patterns (store, &total, &tree, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (total, >, 0);
  n = json_array_get_length (tree);

  /* Time first, the whole run */
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (tree, 0), "id"), ==, "time");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_array_get_object_element (tree, 0),
                                                                 "inclusive_seconds"), total, total * 1e-12);

  for (guint i = 0; i < n; i++)
    {
      JsonObject *node = json_array_get_object_element (tree, i);
      JsonNode *inclusive = json_object_get_member (node, "inclusive_seconds");
      double children = 0;
      guint depth = (guint)json_object_get_int_member (node, "depth");

      /* the children: the nodes after it, one level deeper, up to the next
       * node at its depth or above (tree order) */
      for (guint k = i + 1; k < n; k++)
        {
          JsonObject *child = json_array_get_object_element (tree, k);
          JsonNode *c = json_object_get_member (child, "inclusive_seconds");

          if ((guint)json_object_get_int_member (child, "depth") <= depth)
            break;
          if ((guint)json_object_get_int_member (child, "depth") == depth + 1)
            {
              g_assert_cmpstr (json_object_get_string_member (child, "parent"), ==,
                               json_object_get_string_member (node, "id"));
              if (!json_node_is_null (c))
                children += json_node_get_double (c);
            }
        }

      if (json_node_is_null (inclusive))
        {
          /* diagnostics: not added up */
          g_assert_cmpstr (json_object_get_string_member (node, "kind"), ==, "group");
          g_assert_true (is_below (tree, json_object_get_string_member (node, "id"), "diagnostics") ||
                         g_str_equal (json_object_get_string_member (node, "id"), "diagnostics"));
          continue;
        }
      /* a parent's time covers its children's; no share passes 100 % */
      g_assert_cmpfloat (json_node_get_double (inclusive), >=, children * (1 - 1e-12));
      g_assert_cmpfloat (json_object_get_double_member (node, "share"), <=, 1.0 + 1e-12);
      g_assert_cmpfloat (json_object_get_double_member (node, "share"), >=, 0);
      if (g_str_equal (json_object_get_string_member (node, "kind"), "pattern"))
        {
          JsonObject *p = find_by_id (patterns, json_object_get_string_member (node, "id"));

          /* a pattern: its own time and its children's */
          g_assert_nonnull (p);
          g_assert_cmpfloat_with_epsilon (json_node_get_double (inclusive),
                                          json_object_get_double_member (p, "severity_seconds") + children,
                                          1e-9 * total);
          g_assert_cmpfloat (json_object_get_double_member (p, "inclusive_seconds"), ==,
                             json_node_get_double (inclusive));
        }
      if (g_strcmp0 (json_object_get_string_member (node, "parent"), "time") == 0)
        time_children += json_node_get_double (inclusive);
    }
  g_assert_cmpfloat (time_children, <=, total * (1 + 1e-12));

  /* every built-in pattern has its place: the wait states (and the other
   * Scalasca patterns) under Time, the diagnostics under Diagnostics */
  for (guint i = 0; i < json_array_get_length (patterns); i++)
    {
      const char *id = json_object_get_string_member (json_array_get_object_element (patterns, i), "id");

      if (!g_str_has_prefix (json_object_get_string_member (json_array_get_object_element (patterns, i), "origin"),
                             "builtin"))
        continue;
      g_assert_true (is_below (tree, id, "time") || is_below (tree, id, "diagnostics"));
      if (sextant_wait_causes_is_wait_state (id))
        g_assert_true (is_below (tree, id, "time"));
    }
  g_assert_true (is_below (tree, "late_sender_wrong_order", "late_sender"));
  g_assert_true (is_below (tree, "late_sender", "mpi_point2point"));
  g_assert_true (is_below (tree, "mpi_point2point", "mpi_communication"));
  g_assert_true (is_below (tree, "wait_at_barrier", "mpi_synchronization"));
  g_assert_true (is_below (tree, "wait_inside_collective", "diagnostics"));
  g_assert_true (is_below (tree, "unbalanced_communication", "diagnostics"));
  g_assert_true (is_below (tree, "wrong_order", "diagnostics"));
  /* late_sender's own time still leaves the wrong order out */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (find_by_id (patterns, "late_sender"),
                                                                 "inclusive_seconds"),
                                  json_object_get_double_member (find_by_id (patterns, "late_sender"),
                                                                 "severity_seconds") +
                                  json_object_get_double_member (find_by_id (patterns, "late_sender_wrong_order"),
                                                                 "severity_seconds"),
                                  1e-9 * total);

  /* the window's read: the same nodes in the same order */
  read = sextant_report_read_pattern_tree (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sextant_pattern_tree_get_n_nodes (read), ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (sextant_pattern_tree_get_node (read, i)->id, ==,
                     json_object_get_string_member (json_array_get_object_element (tree, i), "id"));
}

static void
test_tree_external (gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *anchor = external_anchor (data);
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (anchor, &tmpdir);
  g_autoptr(SextantAnalysis) analysis = new_analysis (store);
  g_autoptr(GPtrArray) totals = NULL;
  gboolean waited = FALSE;

  g_assert_true (sextant_analysis_run (analysis, NULL, &error));
  g_assert_no_error (error);
  totals = sextant_store_list_pattern_totals (store, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < totals->len; i++)
    if (sextant_wait_causes_is_wait_state (((SextantPatternTotal *)g_ptr_array_index (totals, i))->id))
      waited |= ((SextantPatternTotal *)g_ptr_array_index (totals, i))->severity > 0;
  g_assert_true (waited);
  check_tree (store);

  g_clear_object (&analysis);
  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
}

static SextantPattern *
user_pattern (const char *id,
              const char *parent,
              const char *region)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *sql = g_strdup_printf ("-- id: %s\n-- title: %s\n%s%s%s"
                                          "SELECT v.loc AS loc, v.id AS visit, v.leave - v.enter AS severity\n"
                                          "FROM visit AS v JOIN region AS r ON r.id = v.region WHERE r.name = '%s'\n",
                                          id, id, parent != NULL ? "-- parent: " : "", parent != NULL ? parent : "",
                                          parent != NULL ? "\n" : "", region);
  SextantPattern *pattern = sextant_pattern_new_from_sql (sql, id, &error);

  g_assert_no_error (error);
  return pattern;
}

/* User patterns in the tree: under a group, under a pattern (its time in
 * the parent's inclusive time), as a root of their own; selected through
 * a group; a parent that is no node, or a pattern below itself, refused. */
static void
test_tree_user (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *anchor = external_anchor ("casita-4_mpi_ls_barr");
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (anchor, &tmpdir);
  g_autoptr(SextantPatternSet) set = sextant_pattern_set_new ();
  g_autoptr(SextantPattern) child = user_pattern ("user_child", "user_parent", "MPI_Barrier");
  g_autoptr(SextantPattern) parent = user_pattern ("user_parent", "hot_spots", "MPI_Recv");
  g_autoptr(SextantPattern) alone = user_pattern ("user_alone", NULL, "MPI_Barrier");
  g_autoptr(SextantAnalysis) analysis = NULL;
  g_autoptr(JsonArray) patterns = NULL;
  g_autoptr(JsonArray) tree = NULL;
  JsonObject *node;
  double total;

  g_assert_true (sextant_pattern_set_add_builtin (set, &error));
  /* a child added before its parent */
  g_assert_true (sextant_pattern_set_add (set, child, &error));
  g_assert_true (sextant_pattern_set_add (set, parent, &error));
  g_assert_true (sextant_pattern_set_add (set, alone, &error));
  g_assert_no_error (error);
  g_assert_true (sextant_pattern_set_check_tree (set, &error));
  g_assert_cmpstr (sextant_pattern_set_get_parent_of (set, "mpi_point2point"), ==, "mpi_communication");
  g_assert_cmpstr (sextant_pattern_set_get_parent_of (set, "user_child"), ==, "user_parent");

  /* a group selected: the patterns below it, the user's too, nothing else */
  analysis = sextant_analysis_new (store, set);
  g_assert_true (sextant_analysis_select (analysis, "hot_spots", &error));
  g_assert_true (sextant_analysis_run (analysis, NULL, &error));
  g_assert_no_error (error);
  patterns = sextant_report_gather_patterns (store, &total, &tree, &error);
  g_assert_no_error (error);
  g_assert_nonnull (find_by_id (patterns, "user_child"));
  g_assert_nonnull (find_by_id (patterns, "frequent_communication"));
  g_assert_null (find_by_id (patterns, "late_sender"));
  g_assert_null (find_by_id (patterns, "user_alone"));
  g_clear_pointer (&patterns, json_array_unref);
  g_clear_pointer (&tree, json_array_unref);
  g_clear_object (&analysis);

  analysis = sextant_analysis_new (store, set);
  g_assert_true (sextant_analysis_run (analysis, NULL, &error));
  g_assert_no_error (error);
  patterns = sextant_report_gather_patterns (store, &total, &tree, &error);
  g_assert_no_error (error);
  g_assert_true (is_below (tree, "user_child", "user_parent"));
  g_assert_true (is_below (tree, "user_parent", "diagnostics"));
  node = find_by_id (tree, "user_parent");
  g_assert_cmpfloat (json_object_get_double_member (find_by_id (patterns, "user_child"), "severity_seconds"), >, 0);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (node, "inclusive_seconds"),
                                  json_object_get_double_member (find_by_id (patterns, "user_parent"),
                                                                 "severity_seconds") +
                                  json_object_get_double_member (find_by_id (patterns, "user_child"),
                                                                 "severity_seconds"), 1e-9 * total);
  /* no parent: a root of its own, after Time and Diagnostics */
  node = find_by_id (tree, "user_alone");
  g_assert_true (json_node_is_null (json_object_get_member (node, "parent")));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (tree, 0), "id"), ==, "time");
  check_tree (store);
  g_clear_object (&analysis);

  /* a parent that is no node of the tree; a pattern below itself */
  {
    g_autoptr(SextantPatternSet) bad = sextant_pattern_set_new ();
    g_autoptr(SextantPattern) typo = user_pattern ("typo", "mpi_point_to_point", "MPI_Recv");
    g_autoptr(SextantPattern) a = user_pattern ("loop_a", "loop_b", "MPI_Recv");
    g_autoptr(SextantPattern) b = user_pattern ("loop_b", "loop_a", "MPI_Recv");

    g_assert_true (sextant_pattern_set_add (bad, typo, &error));
    analysis = sextant_analysis_new (store, bad);
    g_assert_false (sextant_analysis_run (analysis, NULL, &error));
    g_assert_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_SYNTAX);
    g_assert_nonnull (strstr (error->message, "\"mpi_point_to_point\" is neither a group"));
    g_clear_error (&error);
    g_clear_object (&analysis);
    g_clear_object (&bad);

    bad = sextant_pattern_set_new ();
    g_assert_true (sextant_pattern_set_add (bad, a, &error));
    g_assert_true (sextant_pattern_set_add (bad, b, &error));
    g_assert_false (sextant_pattern_set_check_tree (bad, &error));
    g_assert_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_SYNTAX);
    g_assert_nonnull (strstr (error->message, "below itself"));
  }

  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
}

/* The tree itself: groups added as needed, inclusive times, order, a
 * parent that names nothing, a cycle. */
static void
test_tree_build (void)
{
  g_autoptr(SextantPatternTree) tree = sextant_pattern_tree_new ();
  const SextantPatternTreeNode *node;
  int at;

  sextant_pattern_tree_add_pattern (tree, "late_sender", "Late Sender", "mpi_point2point", NULL, 30, 3);
  sextant_pattern_tree_add_pattern (tree, "late_sender_wrong_order", "Wrong order", "late_sender", NULL, 20, 2);
  sextant_pattern_tree_add_pattern (tree, "wait_at_barrier", "Wait at Barrier", "mpi_sync_collective", NULL, 60, 1);
  sextant_pattern_tree_add_pattern (tree, "wait_inside_collective", "Inside", "diagnostics_collective", NULL, 70, 4);
  sextant_pattern_tree_add_pattern (tree, "frequent", "Frequent", "hot_spots", NULL, 90, 1);
  sextant_pattern_tree_add_pattern (tree, "orphan", "Orphan", "no_such_node", NULL, 5, 1);
  sextant_pattern_tree_add_pattern (tree, "cycle_a", "A", "cycle_b", NULL, 1, 1);
  sextant_pattern_tree_add_pattern (tree, "cycle_b", "B", "cycle_a", NULL, 1, 1);
  sextant_pattern_tree_build (tree, 1000);

  node = sextant_pattern_tree_get_node (tree, 0);
  g_assert_cmpstr (node->id, ==, "time");
  g_assert_cmpint (node->inclusive, ==, 1000);
  g_assert_cmpint (node->exclusive, ==, 1000 - 110);
  g_assert_cmpint (node->instances_below, ==, 6);
  /* Time > MPI: Synchronization (60) before Communication (50) */
  g_assert_cmpstr (sextant_pattern_tree_get_node (tree, 1)->id, ==, "mpi");
  g_assert_cmpint (sextant_pattern_tree_get_node (tree, 1)->inclusive, ==, 110);
  g_assert_cmpstr (sextant_pattern_tree_get_node (tree, 2)->id, ==, "mpi_synchronization");
  at = sextant_pattern_tree_lookup (tree, "late_sender");
  node = sextant_pattern_tree_get_node (tree, (guint)at);
  g_assert_cmpint (node->exclusive, ==, 30);
  g_assert_cmpint (node->inclusive, ==, 50);
  g_assert_cmpuint (node->n_children, ==, 1);
  g_assert_cmpstr (sextant_pattern_tree_get_node (tree, (guint)node->parent)->id, ==, "mpi_point2point");
  g_assert_cmpstr (sextant_pattern_tree_get_node (tree, (guint)at + 1)->id, ==, "late_sender_wrong_order");
  at = sextant_pattern_tree_lookup (tree, "mpi_communication");
  g_assert_cmpint (sextant_pattern_tree_get_node (tree, (guint)at)->inclusive, ==, 50);
  /* diagnostics: the second root, not added up */
  at = sextant_pattern_tree_lookup (tree, "diagnostics");
  node = sextant_pattern_tree_get_node (tree, (guint)at);
  g_assert_cmpint (node->depth, ==, 0);
  g_assert_false (node->additive);
  g_assert_cmpint (node->inclusive, ==, -1);
  g_assert_cmpint (node->instances_below, ==, 5);
  g_assert_cmpuint ((guint)at, ==, 1 + sextant_pattern_tree_get_node (tree, 0)->n_below);
  /* hot spots (90) before the collective diagnostics (70) */
  g_assert_cmpstr (sextant_pattern_tree_get_node (tree, (guint)at + 1)->id, ==, "hot_spots");
  /* no such parent, a cycle: roots of their own */
  g_assert_cmpint (sextant_pattern_tree_get_node (tree, (guint)sextant_pattern_tree_lookup (tree, "orphan"))->parent,
                   ==, -1);
  g_assert_cmpint (sextant_pattern_tree_get_node (tree, (guint)sextant_pattern_tree_lookup (tree, "cycle_a"))->depth +
                   sextant_pattern_tree_get_node (tree, (guint)sextant_pattern_tree_lookup (tree, "cycle_b"))->depth,
                   ==, 1);
  g_assert_null (sextant_pattern_group_lookup ("late_sender"));
  g_assert_cmpstr (sextant_pattern_group_lookup ("mpi_point2point")->parent, ==, "mpi_communication");
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
  g_test_add_func ("/analysis/tree/build", test_tree_build);
  g_test_add_func ("/analysis/tree/user", test_tree_user);
  g_test_add_data_func ("/analysis/tree/casita-2_jacobi_blame_cpu_015", "casita-2_jacobi_blame_cpu_015",
                        test_tree_external);
  g_test_add_data_func ("/analysis/tree/sstmacro-otf2_test_traces", "sstmacro-otf2_test_traces",
                        test_tree_external);
  g_test_add_data_func ("/analysis/tree/casita-4_mpi_ls_barr", "casita-4_mpi_ls_barr", test_tree_external);

  return g_test_run ();
}
