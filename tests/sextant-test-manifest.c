/*
 * sextant-test-manifest.c: a parallel import's manifest made without MPI
 * (sextant-test-manifest.h), as tests/test-analysis-shards.c and
 * tests/test-window-manifest.c make theirs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "sextant-importer.h"
#include "sextant-share-hub.h"
#include "sextant-store-private.h"
#include "sextant-store-shards.h"
#include "sextant-test-manifest.h"
#include "sextant-test-util.h"

typedef struct
{
  SextantShareHub *hub;
  guint            rank;
  guint            n;
  const char      *archive;
  char            *path;
  GArray          *locations;
} Rank;

static gpointer
import_rank (gpointer data)
{
  Rank *rank = data;
  g_autoptr(SextantImporter) importer = sextant_importer_new (rank->archive, rank->path);
  g_autoptr(GError) error = NULL;
  SextantImportShare share = { rank->rank, rank->n, FALSE, sextant_share_hub_exchange,
                               sextant_share_hub_get_rank (rank->hub, rank->rank), sextant_share_hub_allreduce };

  sextant_importer_set_share (importer, &share);
  g_assert_true (g_file_set_contents (rank->path, "", 0, NULL));
  g_assert_true (sextant_importer_run_into (importer, rank->path, NULL, &error));
  g_assert_no_error (error);
  rank->locations = g_array_ref (sextant_importer_get_share_locations (importer));

  return NULL;
}

void
sextant_test_import_manifest (const char *archive,
                              const char *manifest,
                              guint       n)
{
  g_autoptr(SextantShareHub) hub = sextant_share_hub_new (n);
  g_autofree char *dir = g_strconcat (manifest, ".shards", NULL);
  g_autofree char *prefix = g_path_get_basename (dir);
  g_autofree Rank *ranks = g_new0 (Rank, n);
  g_autofree SextantShardInfo *infos = g_new0 (SextantShardInfo, n);
  g_autoptr(GPtrArray) list = g_ptr_array_new ();
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, manifest);
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GError) error = NULL;
  SextantImportShare definitions = { 0, 1, TRUE, NULL, NULL };

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  for (guint r = 0; r < n; r++)
    {
      ranks[r] = (Rank) { hub, r, n, archive, NULL, NULL };
      ranks[r].path = g_strdup_printf ("%s/rank-%05u.sextant", dir, r);
      g_ptr_array_add (threads, g_thread_new ("rank", import_rank, &ranks[r]));
    }
  for (guint r = 0; r < n; r++)
    g_thread_join (g_ptr_array_index (threads, r));

  sextant_importer_set_share (importer, &definitions);
  g_assert_true (g_file_set_contents (manifest, "", 0, NULL));
  g_assert_true (sextant_importer_run_into (importer, manifest, NULL, &error));
  g_assert_no_error (error);
  for (guint r = 0; r < n; r++)
    {
      infos[r].name = g_path_get_basename (ranks[r].path);
      infos[r].locations = ranks[r].locations;
      g_ptr_array_add (list, &infos[r]);
    }
  store = sextant_store_open (manifest, &error);
  g_assert_no_error (error);
  g_assert_true (sextant_store_add_shards (store, dir, prefix, list, &error));
  g_assert_no_error (error);
  for (guint r = 0; r < n; r++)
    {
      g_free (infos[r].name);
      g_free (ranks[r].path);
      g_array_unref (ranks[r].locations);
    }
}

char *
sextant_test_every_kind_manifest (char  **tmpdir,
                                  guint   n)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *anchor = NULL;
  char *manifest;

  *tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_assert_no_error (error);
  out = g_build_filename (*tmpdir, "every-kind", NULL);
  anchor = sextant_test_otf2gen ("every-kind", out);
  manifest = g_build_filename (*tmpdir, "run.sextant", NULL);
  sextant_test_import_manifest (anchor, manifest, n);

  return manifest;
}
