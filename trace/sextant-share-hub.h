/*
 * sextant-share-hub.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The exchange of a parallel import's or analysis's shares
 * (SextantShareExchange) between the threads of one process: each step,
 * every thread leaves what it sends to each other and waits until all have
 * arrived; an allreduce is such a step. `sextant analyze MANIFEST` runs its shards so; the tests run the
 * import's shares so where MPI is not (the sanitizer build).
 */
#pragma once

#include "sextant-import-share.h"

G_BEGIN_DECLS

typedef struct _SextantShareHub SextantShareHub;

SextantShareHub *sextant_share_hub_new      (guint             n_ranks);
void             sextant_share_hub_free     (SextantShareHub  *hub);
/* The user data of rank @rank's exchange (sextant_share_hub_exchange()) */
gpointer         sextant_share_hub_get_rank (SextantShareHub  *hub,
                                             guint             rank);
gboolean         sextant_share_hub_exchange (GBytes          **out,
                                             GBytes          **in,
                                             gpointer          rank,
                                             GError          **error);
/* A SextantShareAllreduce: @rank from sextant_share_hub_get_rank() */
gboolean         sextant_share_hub_allreduce (gpointer              data,
                                              gsize                 count,
                                              gsize                 size,
                                              SextantShareCombine   combine,
                                              gpointer              rank,
                                              GError              **error);
/* An allreduce in memory made of one step of @exchange between @n_ranks
 * (with @user_data): every rank sends @data to all and folds what came in
 * rank order, so all get the same */
gboolean         sextant_share_allreduce_by_exchange (SextantShareExchange   exchange,
                                                      gpointer               user_data,
                                                      guint                  n_ranks,
                                                      gpointer               data,
                                                      gsize                  count,
                                                      gsize                  size,
                                                      SextantShareCombine    combine,
                                                      GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantShareHub, sextant_share_hub_free)

G_END_DECLS
