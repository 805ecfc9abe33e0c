/*
 * sextant-share-hub.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Threads that play the ranks of a parallel import or analysis meet here
 * (sextant-share-hub.h). Each step every rank leaves what it sends to each
 * (slots[from * n + to]) and waits for the others. Two sets of slots, one
 * per step parity: a rank can be a step ahead of one that has not read the
 * last step yet, never two (the next step waits for all).
 */
#include "config.h"

#include <string.h>

#include "sextant-share-hub.h"
#include "sextant-trace-error.h"

typedef struct
{
  SextantShareHub *hub;
  guint            rank;
} Rank;

struct _SextantShareHub
{
  GMutex    lock;
  GCond     all_here;
  guint     n;
  guint     arrived;
  guint     step;
  GBytes  **slots[2];
  Rank     *ranks;
};

SextantShareHub *
sextant_share_hub_new (guint n_ranks)
{
  SextantShareHub *hub = g_new0 (SextantShareHub, 1);

  g_mutex_init (&hub->lock);
  g_cond_init (&hub->all_here);
  hub->n = n_ranks;
  hub->slots[0] = g_new0 (GBytes *, (gsize)n_ranks * n_ranks);
  hub->slots[1] = g_new0 (GBytes *, (gsize)n_ranks * n_ranks);
  hub->ranks = g_new (Rank, MAX (n_ranks, 1));
  for (guint r = 0; r < n_ranks; r++)
    hub->ranks[r] = (Rank) { hub, r };

  return hub;
}

void
sextant_share_hub_free (SextantShareHub *hub)
{
  for (guint k = 0; k < 2; k++)
    {
      for (guint i = 0; i < hub->n * hub->n; i++)
        g_clear_pointer (&hub->slots[k][i], g_bytes_unref);
      g_free (hub->slots[k]);
    }
  g_free (hub->ranks);
  g_mutex_clear (&hub->lock);
  g_cond_clear (&hub->all_here);
  g_free (hub);
}

gpointer
sextant_share_hub_get_rank (SextantShareHub *hub,
                            guint            rank)
{
  g_return_val_if_fail (rank < hub->n, NULL);

  return &hub->ranks[rank];
}

/* A SextantShareExchange: @rank from sextant_share_hub_get_rank() */
gboolean
sextant_share_hub_exchange (GBytes   **out,
                            GBytes   **in,
                            gpointer   rank,
                            GError   **error)
{
  Rank *me = rank;
  SextantShareHub *hub = me->hub;
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&hub->lock);
  guint step = hub->step;
  GBytes **slots = hub->slots[step % 2];

  for (guint to = 0; to < hub->n; to++)
    {
      g_clear_pointer (&slots[me->rank * hub->n + to], g_bytes_unref);
      slots[me->rank * hub->n + to] = g_bytes_ref (out[to]);
    }
  if (++hub->arrived == hub->n)
    {
      hub->arrived = 0;
      hub->step++;
      g_cond_broadcast (&hub->all_here);
    }
  while (hub->step == step)
    g_cond_wait (&hub->all_here, &hub->lock);
  for (guint from = 0; from < hub->n; from++)
    in[from] = g_bytes_ref (slots[from * hub->n + me->rank]);

  return TRUE;
}

gboolean
sextant_share_allreduce_by_exchange (SextantShareExchange   exchange,
                                     gpointer               user_data,
                                     guint                  n_ranks,
                                     gpointer               data,
                                     gsize                  count,
                                     gsize                  size,
                                     SextantShareCombine    combine,
                                     GError               **error)
{
  g_autoptr(GBytes) mine = g_bytes_new (data, count * size);
  g_autofree GBytes **out = g_new (GBytes *, MAX (n_ranks, 1));
  g_autofree GBytes **in = g_new0 (GBytes *, MAX (n_ranks, 1));
  gboolean ok;

  for (guint r = 0; r < n_ranks; r++)
    out[r] = mine;
  ok = exchange (out, in, user_data, error);
  for (guint r = 0; ok && r < n_ranks; r++)
    {
      if (g_bytes_get_size (in[r]) != count * size)
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                       "rank %u sent %" G_GSIZE_FORMAT " bytes to an allreduce of %" G_GSIZE_FORMAT,
                       r, g_bytes_get_size (in[r]), count * size);
          ok = FALSE;
        }
      else if (r == 0)
        memcpy (data, g_bytes_get_data (in[r], NULL), count * size);
      else
        combine (data, g_bytes_get_data (in[r], NULL), count);
    }
  for (guint r = 0; r < n_ranks; r++)
    g_clear_pointer (&in[r], g_bytes_unref);

  return ok;
}

/* A SextantShareAllreduce: @rank from sextant_share_hub_get_rank() */
gboolean
sextant_share_hub_allreduce (gpointer              data,
                             gsize                 count,
                             gsize                 size,
                             SextantShareCombine   combine,
                             gpointer              rank,
                             GError              **error)
{
  Rank *me = rank;

  return sextant_share_allreduce_by_exchange (sextant_share_hub_exchange, rank, me->hub->n, data, count, size,
                                              combine, error);
}
