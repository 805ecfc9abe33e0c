/*
 * test-window-elsewhere.c: the window follows an analysis made by
 * another program.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under Xvfb, in the real window: while it shows a trace, `sextant
 * analyze` (a process of its own) analyses the trace again with other
 * settings. Within a few seconds the session says so once
 * ("analysed-elsewhere", which the window shows as a toast), its
 * generation counts up and the pattern list is that analysis's. The
 * window's own analysis is not taken for one made elsewhere. On
 * casita-4_mpi_ls_barr's store, and on a manifest of three shards
 * (otf2gen's every-kind archive) analysed by `sextant analyze`.
 */
#include "config.h"

#include <string.h>

#include "sextant-test-manifest.h"
#include "sextant-test-util.h"
#include "sextant-ui-test-util.h"
#include "sextant-window.h"

/* The session's watch asks every 2 s; this is how long a test waits for
 * it, or waits to see that it does not fire */
#define WATCH_WAIT 30
#define QUIET_USEC (5 * G_USEC_PER_SEC)

typedef struct
{
  guint n_signals;
  gint64 deadline;
} Watch;

static void
analysed_elsewhere_cb (SextantSession *session,
                       Watch          *watch)
{
  watch->n_signals++;
}

static gboolean
has_signal (gpointer data)
{
  return ((Watch *)data)->n_signals > 0;
}

static gboolean
past_deadline (gpointer data)
{
  return g_get_monotonic_time () > ((Watch *)data)->deadline;
}

static SextantWindow *
open_and_wait (const char *path)
{
  SextantWindow *window = sextant_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 720);
  gtk_window_present (GTK_WINDOW (window));
  sextant_window_open (window, path);
  sextant_test_wait_for (window, "ready", 300);
  g_assert_null (sextant_window_get_error (window));
  g_assert_true (sextant_session_get_analysis_scope (sextant_window_get_session (window))->analysed);

  return window;
}

/* `sextant analyze ARGS... PATH` in a process of its own, to its end */
static void
analyse_elsewhere (const char *path,
                   const char *arg)
{
  const char *argv[] = { g_getenv ("SEXTANT"), "analyze", "--no-user-patterns", arg, path, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int status = 0;

  g_assert_nonnull (argv[0]);
  g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("sextant analyze %s %s failed: %s", arg, path, err);
}

/* @window's analysis, then a quiet while: the watch does not fire */
static void
check_own_analysis (SextantWindow *window,
                    Watch         *watch)
{
  SextantSession *session = sextant_window_get_session (window);
  guint before = watch->n_signals;
  guint generation = sextant_session_get_generation (session);

  sextant_test_analyse (session, NULL);
  g_assert_cmpuint (sextant_session_get_generation (session), ==, generation + 1);
  watch->deadline = g_get_monotonic_time () + QUIET_USEC;
  sextant_test_wait_until (past_deadline, watch, 60);
  g_assert_cmpuint (watch->n_signals, ==, before);
  g_assert_cmpuint (sextant_session_get_generation (session), ==, generation + 1);
}

/* `sextant analyze ARG PATH` while @window shows it: the signal comes
 * once, the generation counts up */
static void
check_elsewhere (SextantWindow *window,
                 const char    *path,
                 const char    *arg,
                 Watch         *watch)
{
  SextantSession *session = sextant_window_get_session (window);
  guint generation = sextant_session_get_generation (session);

  watch->n_signals = 0;
  analyse_elsewhere (path, arg);
  sextant_test_wait_until (has_signal, watch, WATCH_WAIT);
  sextant_test_wait_for (window, "ready", 120);
  g_assert_null (sextant_window_get_error (window));
  g_assert_cmpuint (sextant_session_get_generation (session), ==, generation + 1);
  /* once: the next looks find the version they took */
  watch->deadline = g_get_monotonic_time () + QUIET_USEC;
  sextant_test_wait_until (past_deadline, watch, 60);
  g_assert_cmpuint (watch->n_signals, ==, 1);
}

static void
test_store (void)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *source = g_build_filename (root, "casita-4_mpi_ls_barr", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *archive = g_build_filename (tmpdir, "casita-4_mpi_ls_barr", NULL);
  g_autofree char *db = NULL;
  SextantWindow *window;
  SextantPatternBrowser *browser;
  SextantSession *session;
  const SextantAnalysisScope *scope;
  Watch watch = { 0 };

  g_assert_no_error (error);
  sextant_test_copy_tree (source, archive);
  window = open_and_wait (archive);
  session = sextant_window_get_session (window);
  browser = sextant_window_get_pattern_browser (window);
  g_signal_connect (session, "analysed-elsewhere", G_CALLBACK (analysed_elsewhere_cb), &watch);
  g_assert_cmpuint (sextant_pattern_browser_get_n_patterns (browser), >, 1);
  db = g_strdup (sextant_session_get_db_path (session));

  /* only Wait at Barrier, elsewhere: the list has it alone */
  check_elsewhere (window, db, "--pattern=wait_at_barrier", &watch);
  scope = sextant_session_get_analysis_scope (session);
  g_assert_nonnull (scope->selected);
  g_assert_cmpstr (scope->selected[0], ==, "wait_at_barrier");
  g_assert_null (scope->selected[1]);
  g_assert_cmpuint (sextant_pattern_browser_get_n_patterns (browser), ==, 1);
  g_assert_cmpstr (sextant_pattern_browser_get_chosen (browser), ==, "wait_at_barrier");

  /* the window's own (every pattern) is its own */
  check_own_analysis (window, &watch);
  g_assert_null (sextant_session_get_analysis_scope (session)->selected);
  g_assert_cmpuint (sextant_pattern_browser_get_n_patterns (browser), >, 1);

  gtk_window_destroy (GTK_WINDOW (window));
  sextant_test_remove_tree (tmpdir);
}

static void
test_manifest (void)
{
  g_autofree char *tmpdir = NULL;
  g_autofree char *manifest = sextant_test_every_kind_manifest (&tmpdir, 3);
  SextantWindow *window;
  SextantSession *session;
  const SextantAnalysisScope *scope;
  Watch watch = { 0 };

  window = open_and_wait (manifest);
  session = sextant_window_get_session (window);
  g_assert_cmpuint (sextant_session_get_n_shards (session), ==, 3);
  g_signal_connect (session, "analysed-elsewhere", G_CALLBACK (analysed_elsewhere_cb), &watch);

  check_elsewhere (window, manifest, "--param=eps=0.001", &watch);
  scope = sextant_session_get_analysis_scope (session);
  g_assert_nonnull (scope->parameters);
  g_assert_nonnull (strstr (scope->parameters, "eps="));

  check_own_analysis (window, &watch);
  g_assert_null (sextant_session_get_analysis_scope (session)->parameters);

  gtk_window_destroy (GTK_WINDOW (window));
  sextant_test_remove_tree (tmpdir);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window-elsewhere/store", test_store);
  g_test_add_func ("/window-elsewhere/manifest", test_manifest);

  return g_test_run ();
}
