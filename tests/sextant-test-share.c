/*
 * sextant-test-share.c: a parallel import without MPI (sextant-test-share.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sextant-test-share.h"
#include "sextant-test-util.h"

static void
hub_arrive (SextantTestHub *hub,
            gboolean        failed)
{
  g_mutex_lock (&hub->lock);
  hub->failed |= failed;
  if (++hub->arrived == hub->n)
    g_cond_broadcast (&hub->all_here);
  while (hub->arrived < hub->n)
    g_cond_wait (&hub->all_here, &hub->lock);
  g_mutex_unlock (&hub->lock);
}

static gboolean
exchange (GBytes   **out,
          GBytes   **in,
          gpointer   user_data,
          GError   **error)
{
  SextantTestRank *rank = user_data;
  SextantTestHub *hub = rank->hub;

  if (!rank->agreed)
    {
      rank->agreed = TRUE;
      hub_arrive (hub, FALSE);
      if (hub->failed)
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE, "another rank failed");
          return FALSE;
        }
    }

  return sextant_share_hub_exchange (out, in, sextant_share_hub_get_rank (hub->steps, rank->rank), error);
}

static gboolean
allreduce (gpointer              data,
           gsize                 count,
           gsize                 size,
           SextantShareCombine   combine,
           gpointer              user_data,
           GError              **error)
{
  SextantTestRank *rank = user_data;

  return sextant_share_allreduce_by_exchange (exchange, rank, rank->hub->n, data, count, size, combine, error);
}

static gpointer
run_rank (gpointer data)
{
  SextantTestRank *rank = data;
  g_autoptr(SextantImporter) importer = sextant_importer_new (rank->archive, rank->shard);
  g_autoptr(GError) error = NULL;
  SextantImportShare share = { rank->rank, rank->hub->n, FALSE, exchange, rank, allreduce };

  if (rank->fail)
    {
      hub_arrive (rank->hub, TRUE);
      return NULL;
    }
  sextant_importer_set_share (importer, &share);
  g_assert_true (g_file_set_contents (rank->shard, "", 0, NULL));
  rank->ok = sextant_importer_run_into (importer, rank->shard, NULL, &error);
  if (!rank->ok)
    rank->message = g_strdup (error->message);
  else
    rank->locations = g_array_ref (sextant_importer_get_share_locations (importer));

  return NULL;
}

SextantTestRank *
sextant_test_import_shared (const char     *archive,
                            const char     *dir,
                            guint           n,
                            gint            failing,
                            SextantTestHub *hub)
{
  SextantTestRank *ranks = g_new0 (SextantTestRank, n);
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();

  g_mutex_init (&hub->lock);
  g_cond_init (&hub->all_here);
  hub->n = n;
  hub->steps = sextant_share_hub_new (n);
  for (guint r = 0; r < n; r++)
    {
      ranks[r] = (SextantTestRank) { hub, r, archive, NULL, (gint)r == failing, FALSE, NULL, NULL };
      ranks[r].shard = g_strdup_printf ("%s/shard-%u-of-%u.db", dir, r, n);
      g_ptr_array_add (threads, g_thread_new ("rank", run_rank, &ranks[r]));
    }
  for (guint r = 0; r < n; r++)
    g_thread_join (g_ptr_array_index (threads, r));

  return ranks;
}

void
sextant_test_ranks_free (SextantTestRank *ranks,
                         SextantTestHub  *hub)
{
  for (guint r = 0; r < hub->n; r++)
    {
      sextant_store_remove_files (ranks[r].shard);
      g_free (ranks[r].shard);
      g_free (ranks[r].message);
      g_clear_pointer (&ranks[r].locations, g_array_unref);
    }
  g_clear_pointer (&hub->steps, sextant_share_hub_free);
  g_mutex_clear (&hub->lock);
  g_cond_clear (&hub->all_here);
  g_free (ranks);
}

