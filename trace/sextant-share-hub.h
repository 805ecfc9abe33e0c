/*
 * sextant-share-hub.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The exchange of a parallel import's or analysis's shares
 * (SextantShareExchange) between the threads of one process: each step,
 * every thread leaves what it sends to each other and waits until all have
 * arrived. `sextant analyze MANIFEST` runs its shards so; the tests run the
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantShareHub, sextant_share_hub_free)

G_END_DECLS
