/*
 * test-window-manifest.c: the window analyses a parallel import's manifest.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under Xvfb: otf2gen's every-kind archive imported once into a store and
 * once by three threads into a manifest of three shards, as sextant-mpi
 * import writes one (tests/sextant-test-manifest.c). The window opens the
 * store and analyses it; then it opens the manifest, not analysed, and
 * analyses it too, its shards a thread each (docs/parallel.md,
 * "Analysis"), off the main thread with the progress shown: its pattern
 * browser then lists the store's patterns in the store's order, says the
 * same of them (how many, the worst loss) and lists the worst pattern's
 * instances as the store's (id, severity, location, diagnosis). Analyse
 * (F5) on the manifest does it again, with the same result; and the
 * manifest is current afterwards (sextant info opens it).
 */
#include "config.h"

#include <string.h>

#include "sextant-store-shards.h"
#include "sextant-test-manifest.h"
#include "sextant-test-util.h"
#include "sextant-ui-test-util.h"
#include "sextant-window.h"

/* What the pattern browser of @window shows, as text: its status, the
 * patterns it lists, and the instances of the one chosen. */
static char *
browser_text (SextantWindow *window)
{
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (window);
  GListModel *instances = sextant_pattern_browser_get_instances (browser);
  GString *text = g_string_new (sextant_pattern_browser_get_status (browser));

  g_string_append_c (text, '\n');
  for (guint i = 0; i < sextant_pattern_browser_get_n_patterns (browser); i++)
    g_string_append_printf (text, "pattern %s\n", sextant_pattern_browser_get_pattern_id (browser, i));
  g_string_append_printf (text, "chosen %s\n", sextant_pattern_browser_get_chosen (browser));
  for (guint i = 0; i < g_list_model_get_n_items (instances); i++)
    {
      g_autoptr(SextantInstance) instance = g_list_model_get_item (instances, i);
      const SextantPatternInstance *record = sextant_instance_get_record (instance);

      g_string_append_printf (text, "instance %" G_GINT64_FORMAT " %s %" G_GINT64_FORMAT " at %" G_GINT64_FORMAT
                              ": %s\n", record->id, record->pattern, sextant_instance_get_severity (instance),
                              record->loc, sextant_instance_get_diagnosis (instance));
    }

  return g_string_free (text, FALSE);
}

/* Whether the window's session is being analysed (the main loop runs meanwhile) */
static gboolean
analysing (gpointer data)
{
  SextantSession *session = sextant_window_get_session (data);

  return session != NULL && sextant_session_get_analysing (session);
}

static void
test_analyse_manifest (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *out = g_build_filename (tmpdir, "every-kind", NULL);
  g_autofree char *anchor = sextant_test_otf2gen ("every-kind", out);
  g_autofree char *single_dir = NULL;
  g_autoptr(SextantStore) single = sextant_test_import (anchor, &single_dir);
  g_autofree char *single_path = g_strdup (sextant_store_get_path (single));
  g_autofree char *manifest = g_build_filename (tmpdir, "run.sextant", NULL);
  g_autofree char *want = NULL;
  g_autofree char *got = NULL;
  g_autofree char *again = NULL;
  g_autoptr(SextantStore) reopened = NULL;
  SextantWindow *window = sextant_window_new (NULL);
  SextantSession *session;

  g_assert_no_error (error);
  g_clear_object (&single);
  sextant_test_import_manifest (anchor, manifest, 3);

  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 720);
  gtk_window_present (GTK_WINDOW (window));

  /* the store, analysed by the window */
  sextant_window_open (window, single_path);
  sextant_test_wait_for (window, "ready", 120);
  g_assert_null (sextant_window_get_error (window));
  g_assert_true (sextant_session_get_analysis_scope (sextant_window_get_session (window))->analysed);
  want = browser_text (window);
  g_test_message ("the store's pattern browser:\n%s", want);
  g_assert_nonnull (strstr (want, "patterns found"));

  /* the manifest, not analysed: the window analyses its shards */
  sextant_window_open (window, manifest);
  sextant_test_wait_until (analysing, window, 120);
  session = sextant_window_get_session (window);
  g_assert_cmpuint (sextant_session_get_n_shards (session), ==, 3);
  sextant_test_wait_for (window, "ready", 300);
  g_assert_null (sextant_window_get_error (window));
  g_assert_true (sextant_session_get_analysis_scope (session)->analysed);
  g_assert_null (sextant_session_get_analysis_scope (session)->selected);
  g_assert_cmpfloat (sextant_session_get_analysis_progress (session), >, 0.0);
  got = browser_text (window);
  g_assert_cmpstr (got, ==, want);

  /* Analyse (F5) again: the same */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.analyse", NULL);
  g_assert_true (sextant_session_get_analysing (session));
  sextant_test_wait_for (window, "ready", 300);
  g_assert_null (sextant_window_get_error (window));
  again = browser_text (window);
  g_assert_cmpstr (again, ==, want);

  /* the manifest is current: its shards recorded anew */
  gtk_window_destroy (GTK_WINDOW (window));
  reopened = sextant_store_open (manifest, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sextant_store_get_n_shards (reopened), ==, 3);
  g_clear_object (&reopened);

  sextant_test_remove_tree (single_dir);
  sextant_test_remove_tree (tmpdir);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window-manifest/analyse", test_analyse_manifest);

  return g_test_run ();
}
