/*
 * sextant-import-share.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A rank's share of a parallel import (parallel/, `sextant-mpi import`):
 * N processes import one archive together, each the locations of its share
 * into a store of its own (a shard). Every rank reads the global
 * definitions and plans the same shares from them: whole processes
 * (location groups) in location order, cut into runs of about equal
 * events (the events the location definitions announce, else the size of
 * the location's event file). The message halves and collective members
 * whose other ends another rank decodes are set aside while the events are
 * read (in bounded memory, spilling to a file); after the last location,
 * an exchange (a callback: trace/ knows no MPI) sends each rank the
 * collective members and the counts, allreduces (another callback)
 * combine the summaries of the collective instances, and blocks of
 * bounded size (a third callback) send each rank the halves of its
 * messages; the matcher
 * matches them as the single-process import does. A message between ranks
 * is so written in both shards, whole, and a collective instance with the
 * bounds of all its members.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Called once per import by every rank, with @out[r] what goes to rank r
 * (n_ranks entries, none %NULL); fills @in[r] with what rank r sent here.
 * Returns FALSE (and sets @error) when the exchange fails or another rank
 * failed. */
typedef gboolean (*SextantShareExchange) (GBytes   **out,
                                          GBytes   **in,
                                          gpointer   user_data,
                                          GError   **error);

/* Folds the @count elements at @in into those at @inout, element by
 * element; commutative and associative */
typedef void (*SextantShareCombine) (gpointer      inout,
                                     gconstpointer in,
                                     gsize         count);

/* Called by every rank alike, after a successful exchange: @data, @count
 * elements of @size bytes each, becomes on every rank the fold by
 * @combine of all ranks' @data (@count fits an int). Returns FALSE (and
 * sets @error) when it fails. */
typedef gboolean (*SextantShareAllreduce) (gpointer             data,
                                           gsize                count,
                                           gsize                size,
                                           SextantShareCombine  combine,
                                           gpointer             user_data,
                                           GError             **error);

/* One block of the exchange of message halves, called by every rank alike
 * after the first exchange: sends @send_sizes[r] bytes to each rank r
 * from @send (the parts one after another in rank order) and receives
 * @recv_sizes[r] bytes from each into @recv, laid out alike; this rank's
 * own sizes are 0. Both ranks of a pair know the sizes beforehand. */
typedef gboolean (*SextantShareExchangeBlock) (const guint8  *send,
                                               const gsize   *send_sizes,
                                               guint8        *recv,
                                               const gsize   *recv_sizes,
                                               gpointer       user_data,
                                               GError       **error);

typedef struct
{
  guint                 rank;
  guint                 n_ranks;
  /* TRUE: no location is decoded and nothing exchanged: a store of the
   * definitions only (a manifest's) */
  gboolean              definitions_only;
  SextantShareExchange  exchange;
  gpointer              user_data;     /* of both callbacks */
  SextantShareAllreduce allreduce;
  /* nullable: where the import adds the CPU time (us) its exchange took
   * on this rank: packing, the exchange itself, unpacking and matching
   * what came in (`sextant-mpi import --stats`) */
  gint64               *exchange_cpu_usec;
  /* nullable: the blocks' exchange; %NULL: through @exchange */
  SextantShareExchangeBlock exchange_block;
  /* nullable: where the halves set aside spill over (a name of its own,
   * beside the rank's shard); %NULL: the temporary directory */
  const char           *spill_path;
} SextantImportShare;

G_END_DECLS
