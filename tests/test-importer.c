/*
 * test-importer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The importer's C API as the application uses it: progress reports,
 * cancellation (nothing left behind), the GTask variant, archive resolution
 * and the store's typed errors. The archives are the real third-party ones in
 * ../shared/traces/external.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "sextant-importer.h"
#include "sextant-store-private.h"

typedef struct
{
  char *tmpdir;
  char *db;
} Fixture;

static char *
external_archive (const char *name)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");

  g_assert_nonnull (root);
  return g_build_filename (root, name, NULL);
}

static guint
count_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  while (g_dir_read_name (d) != NULL)
    n++;

  return n;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_assert_no_error (error);
  f->db = g_build_filename (f->tmpdir, "t.db", NULL);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GDir) d = g_dir_open (f->tmpdir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->tmpdir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (f->tmpdir);
  g_free (f->tmpdir);
  g_free (f->db);
}

typedef struct
{
  guint         calls;
  double        last_fraction;
  double        max_rate;
  gboolean      monotonic;
  GCancellable *cancel_at_first;
} Progress;

static void
on_progress (double   fraction,
             double   events_per_second,
             gpointer user_data)
{
  Progress *p = user_data;

  if (fraction < p->last_fraction)
    p->monotonic = FALSE;
  p->calls++;
  p->last_fraction = fraction;
  p->max_rate = MAX (p->max_rate, events_per_second);
  if (p->cancel_at_first != NULL)
    g_cancellable_cancel (p->cancel_at_first);
}

static void
test_progress (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *archive = external_archive ("otf2-integrity-testtrace");
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, f->db);
  g_autoptr(GError) error = NULL;
  Progress p = { 0, 0, 0, TRUE, NULL };

  sextant_importer_set_progress_func (importer, on_progress, &p, NULL);
  g_assert_true (sextant_importer_run (importer, NULL, &error));
  g_assert_no_error (error);

  /* the final report is always made, at 100 % */
  g_assert_cmpuint (p.calls, >=, 1);
  g_assert_cmpfloat (p.last_fraction, ==, 1.0);
  g_assert_true (p.monotonic);
  g_assert_cmpfloat (p.max_rate, >, 0);
  g_assert_false (sextant_importer_get_reused (importer));
  g_assert_cmpstr (sextant_importer_get_db_path (importer), ==, f->db);
  g_assert_true (g_str_has_suffix (sextant_importer_get_anchor_path (importer), "TestTrace.otf2"));
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *archive = external_archive ("otf2-integrity-testtrace");
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, f->db);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  Progress p = { 0, 0, 0, TRUE, cancellable };

  /* with data, in a worker process (the window's importer) */
  if (data != NULL)
    sextant_importer_set_worker (importer, g_getenv ("SEXTANT"));
  /* cancelled from the first progress report, i.e. in the middle of the
   * events of the first location */
  sextant_importer_set_progress_func (importer, on_progress, &p, NULL);
  g_assert_false (sextant_importer_run (importer, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (count_files (f->tmpdir), ==, 0);
}

static void
test_cancel_before (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *archive = external_archive ("casita-4_mpi_ls_barr");
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, f->db);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_false (sextant_importer_run (importer, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (count_files (f->tmpdir), ==, 0);
}

typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
} AsyncResult;

static void
on_async_done (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  AsyncResult *r = user_data;

  r->ok = sextant_importer_run_finish (SEXTANT_IMPORTER (object), result, &r->error);
  r->done = TRUE;
}

static void
test_async (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *archive = external_archive ("sstmacro-otf2_test_traces");
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, f->db);
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_autofree char *events = NULL;
  g_autofree char *complete = NULL;

  AsyncResult r = { FALSE, FALSE, NULL };

  sextant_importer_run_async (importer, NULL, on_async_done, &r);
  while (!r.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  g_assert_cmpuint (count_files (f->tmpdir), ==, 1);

  store = sextant_store_open (f->db, &error);
  g_assert_no_error (error);
  events = sextant_store_get_meta (store, "events");
  complete = sextant_store_get_meta (store, "import_complete");
  g_assert_cmpstr (events, ==, "22180");
  g_assert_cmpstr (complete, ==, "1");
}

static void
test_anchor_resolution (void)
{
  g_autofree char *dir = external_archive ("otf2-integrity-testtrace");
  g_autofree char *anchor = NULL;
  g_autofree char *db = NULL;
  g_autoptr(GError) error = NULL;

  /* a directory with an anchor of another name than traces.otf2 */
  anchor = sextant_archive_find_anchor (dir, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (anchor, "/TestTrace.otf2"));

  db = sextant_archive_default_db_path (anchor);
  g_assert_true (g_str_has_suffix (db, "/otf2-integrity-testtrace/TestTrace.sextant.db"));

  g_clear_pointer (&anchor, g_free);
  anchor = sextant_archive_find_anchor ("/nonexistent/archive", &error);
  g_assert_null (anchor);
  g_assert_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_FOUND);
}

static void
test_store_errors (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GError) error = NULL;

  store = sextant_store_open (f->db, &error);
  g_assert_null (store);
  g_assert_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (f->db, "not a database at all, but long enough to look like one "
                                      "if one squints really hard at it ..........................", -1, NULL));
  store = sextant_store_open (f->db, &error);
  g_assert_null (store);
  g_assert_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA);
}

/* The window's importer: a worker process (the real `sextant`) does the
 * import; this process watches it. */

static SextantImporter *
worker_importer (const char *archive,
                 const char *db,
                 const char *program)
{
  SextantImporter *importer = sextant_importer_new (archive, db);

  sextant_importer_set_worker (importer, program);
  return importer;
}

static void
shell (const char *command)
{
  const char *argv[] = { "/bin/sh", "-c", command, NULL };
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* A stand-in worker that misbehaves as libotf2 can: a shell script. */
static char *
write_script (const char *dir,
              const char *name,
              const char *body)
{
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\n%s\n", body);
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

static void
test_worker (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *archive = external_archive ("otf2-integrity-testtrace");
  g_autoptr(SextantImporter) importer = worker_importer (archive, f->db, g_getenv ("SEXTANT"));
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *events = NULL;
  Progress p = { 0, 0, 0, TRUE, NULL };

  g_assert_nonnull (g_getenv ("SEXTANT"));
  sextant_importer_set_progress_func (importer, on_progress, &p, NULL);
  g_assert_true (sextant_importer_run (importer, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.calls, >=, 1);
  g_assert_cmpfloat (p.last_fraction, ==, 1.0);
  g_assert_true (g_str_has_suffix (sextant_importer_get_anchor_path (importer), "TestTrace.otf2"));
  g_assert_cmpuint (count_files (f->tmpdir), ==, 1);

  store = sextant_store_open (f->db, &error);
  g_assert_no_error (error);
  events = sextant_store_get_meta (store, "events");
  g_assert_cmpstr (events, ==, "480000");
}

static void
test_worker_damaged_anchor (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *source = external_archive ("pipit-ping-pong-otf2");
  g_autofree char *copy = g_dir_make_tmp ("sextant-archive-XXXXXX", NULL);
  g_autofree char *command = g_strdup_printf ("cp -r '%s/.' '%s' && chmod -R u+w '%s'", source, copy, copy);
  g_autofree char *anchor = g_build_filename (copy, "traces.otf2", NULL);
  g_autofree char *bytes = NULL;
  g_autofree char *cleanup = g_strdup_printf ("rm -rf '%s'", copy);
  g_autoptr(SextantImporter) importer = NULL;
  g_autoptr(GError) error = NULL;
  gsize size;

  shell (command);
  /* the flipped bit of issue 16: 1,414,463,488 properties in a 283-byte file */
  g_assert_true (g_file_get_contents (anchor, &bytes, &size, NULL));
  g_assert_cmpuint (size, >, 46);
  bytes[46] = (char)0x80;
  g_assert_true (g_file_set_contents (anchor, bytes, size, NULL));

  importer = worker_importer (copy, f->db, g_getenv ("SEXTANT"));
  g_assert_false (sextant_importer_run (importer, NULL, &error));
  g_assert_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "anchor file is damaged"));
  g_assert_cmpuint (count_files (f->tmpdir), ==, 0);
  shell (cleanup);
}

static void
test_worker_crash (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *archive = external_archive ("casita-4_mpi_ls_barr");
  g_autofree char *bin = g_dir_make_tmp ("sextant-worker-XXXXXX", NULL);
  g_autofree char *script = write_script (bin, "crash", "echo 'progress 0.5 1000'; kill -SEGV $$");
  g_autoptr(SextantImporter) importer = worker_importer (archive, f->db, script);
  g_autoptr(GError) error = NULL;

  g_assert_false (sextant_importer_run (importer, NULL, &error));
  g_assert_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "crashed"));
  g_assert_nonnull (strstr (error->message, "nothing was written"));
  g_assert_cmpuint (count_files (f->tmpdir), ==, 0);
  g_unlink (script);
  g_rmdir (bin);
}

static void
test_worker_hang (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *archive = external_archive ("casita-4_mpi_ls_barr");
  g_autofree char *bin = g_dir_make_tmp ("sextant-worker-XXXXXX", NULL);
  g_autofree char *script = write_script (bin, "hang", "exec sleep 600");
  g_autoptr(SextantImporter) importer = worker_importer (archive, f->db, script);
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  g_setenv ("SEXTANT_IMPORT_STALL_SECONDS", "1", TRUE);
  g_assert_false (sextant_importer_run (importer, NULL, &error));
  g_unsetenv ("SEXTANT_IMPORT_STALL_SECONDS");
  g_assert_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "no progress for 1 s"));
  /* stopped within the limit and a poll period, not after the sleep */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 60 * G_USEC_PER_SEC);
  g_assert_cmpuint (count_files (f->tmpdir), ==, 0);
  g_unlink (script);
  g_rmdir (bin);
}

static gpointer
cancel_later (gpointer data)
{
  g_usleep (200000);
  g_cancellable_cancel (data);
  return NULL;
}

static void
test_worker_cancel_hung (Fixture       *f,
                         gconstpointer  data)
{
  g_autofree char *archive = external_archive ("casita-4_mpi_ls_barr");
  g_autofree char *bin = g_dir_make_tmp ("sextant-worker-XXXXXX", NULL);
  g_autofree char *script = write_script (bin, "hang", "exec sleep 600");
  g_autoptr(SextantImporter) importer = worker_importer (archive, f->db, script);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  GThread *canceller = g_thread_new ("cancel", cancel_later, cancellable);
  gint64 start = g_get_monotonic_time ();

  /* a worker stuck where nothing checks a cancellable still stops at once */
  g_assert_false (sextant_importer_run (importer, cancellable, &error));
  g_thread_join (canceller);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 30 * G_USEC_PER_SEC);
  g_assert_cmpuint (count_files (f->tmpdir), ==, 0);
  g_unlink (script);
  g_rmdir (bin);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/trace/importer/progress", Fixture, NULL, fixture_setup, test_progress, fixture_teardown);
  g_test_add ("/trace/importer/cancel", Fixture, NULL, fixture_setup, test_cancel, fixture_teardown);
  g_test_add ("/trace/importer/cancel-before", Fixture, NULL, fixture_setup, test_cancel_before,
              fixture_teardown);
  g_test_add ("/trace/importer/async", Fixture, NULL, fixture_setup, test_async, fixture_teardown);
  g_test_add_func ("/trace/importer/anchor", test_anchor_resolution);
  g_test_add ("/trace/importer/worker", Fixture, NULL, fixture_setup, test_worker, fixture_teardown);
  g_test_add ("/trace/importer/worker-cancel", Fixture, "worker", fixture_setup, test_cancel, fixture_teardown);
  g_test_add ("/trace/importer/worker-damaged-anchor", Fixture, NULL, fixture_setup,
              test_worker_damaged_anchor, fixture_teardown);
  g_test_add ("/trace/importer/worker-crash", Fixture, NULL, fixture_setup, test_worker_crash,
              fixture_teardown);
  g_test_add ("/trace/importer/worker-hang", Fixture, NULL, fixture_setup, test_worker_hang,
              fixture_teardown);
  g_test_add ("/trace/importer/worker-cancel-hung", Fixture, NULL, fixture_setup, test_worker_cancel_hung,
              fixture_teardown);
  g_test_add ("/trace/store/errors", Fixture, NULL, fixture_setup, test_store_errors, fixture_teardown);

  return g_test_run ();
}
