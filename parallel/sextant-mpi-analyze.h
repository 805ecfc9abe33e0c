/*
 * sextant-mpi-analyze.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sextant-mpi analyze MANIFEST`: the ranks of an MPI job analyse the
 * shards of a parallel import, rank r shard r (docs/parallel.md,
 * "Analysis"): each runs the pattern catalogue on its shard and keeps the
 * instances of its locations, numbered and judged (direct or propagated)
 * as the single-process analysis numbers and judges them; rank 0 then
 * merges the summaries into the manifest. Run with as many ranks as the
 * manifest has shards.
 */
#pragma once

#include "sextant-shard-exchange.h"

G_BEGIN_DECLS

/* Called by every rank of @exchange with the same arguments; returns the
 * same on every rank. @patterns: the ids to run (NULL: all), @params:
 * "name=value" overrides (NULL: none). The error at rank 0 names every
 * shard that failed and why. */
gboolean sextant_mpi_analyze (SextantShardExchange  *exchange,
                              const char            *manifest,
                              char                 **patterns,
                              char                 **params,
                              GError               **error);

G_END_DECLS
