/*
 * sextant-shard-exchange.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SextantShardExchange carries a parallel import's collective steps over
 * MPI: the exchange of message halves and collective members that the
 * importer asks for (a SextantShareExchange), and the agreement on how the
 * ranks fared. Every rank takes part in each step exactly once, failed or
 * not, so a rank that fails never leaves the others waiting: the exchange
 * first agrees whether every rank got there, and a rank that failed before
 * it joins that agreement with sextant_shard_exchange_abandon().
 */
#pragma once

#include <mpi.h>

#include "sextant-import-share.h"

G_BEGIN_DECLS

typedef struct _SextantShardExchange SextantShardExchange;

SextantShardExchange *sextant_shard_exchange_new      (MPI_Comm               comm);
void                  sextant_shard_exchange_free     (SextantShardExchange  *self);
guint                 sextant_shard_exchange_get_rank (SextantShardExchange  *self);
guint                 sextant_shard_exchange_get_size (SextantShardExchange  *self);
/* MPI_Wait() without spinning: see sextant-shard-exchange.c. */
void                  sextant_shard_exchange_wait     (SextantShardExchange  *self,
                                                       MPI_Request           *request);
/* MPI_Bcast() from rank 0 and MPI_Barrier(), waited for so. */
void                  sextant_shard_exchange_bcast    (SextantShardExchange  *self,
                                                       void                  *buffer,
                                                       int                    count,
                                                       MPI_Datatype           type);
void                  sextant_shard_exchange_barrier  (SextantShardExchange  *self);
/* The share of this rank, whose exchange goes through @self. */
void                  sextant_shard_exchange_init_share (SextantShardExchange *self,
                                                         SextantImportShare   *share);
/* A rank whose import failed before the exchange takes part in it, failed. */
void                  sextant_shard_exchange_abandon  (SextantShardExchange  *self);
/* Every rank's outcome (its error's message, or %NULL) at rank 0: returns
 * there an array of n_ranks messages ("" for a rank that succeeded, or
 * that only stopped because another failed), %NULL on the other ranks.
 * Sets @all_ok on every rank. */
GPtrArray            *sextant_shard_exchange_gather_errors (SextantShardExchange *self,
                                                            const GError         *error,
                                                            gboolean             *all_ok);
void                  sextant_shard_exchange_set_failures (GPtrArray          *messages,
                                                           const char         *heading,
                                                           GError            **error);
/* The bytes each rank sent the others in the exchanges and received from
 * them (not what it kept for itself), and the CPU time (us) its import
 * spent in the exchange, at rank 0: 3 guint64 per rank, in rank order;
 * %NULL on the other ranks. */
GArray               *sextant_shard_exchange_gather_volume (SextantShardExchange *self);
/* The location lists of every rank at rank 0 (GArray of guint32 by rank),
 * %NULL elsewhere. */
GPtrArray            *sextant_shard_exchange_gather_locations (SextantShardExchange *self,
                                                               GArray               *locations);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantShardExchange, sextant_shard_exchange_free)

G_END_DECLS
