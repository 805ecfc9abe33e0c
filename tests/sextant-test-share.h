/*
 * sextant-test-share.h: a parallel import without MPI, for the C tests:
 * threads play the ranks, each imports its share into a shard, and their
 * exchange meets in memory (tests/test-import-share.c,
 * tests/test-store-manifest.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sextant-importer.h"
#include "sextant-share-hub.h"

G_BEGIN_DECLS

/* The ranks' meeting point: whether every rank reached the exchange, then
 * the steps of the exchange and allreduces (SextantShareHub) */
typedef struct
{
  GMutex            lock;
  GCond             all_here;
  guint             n;
  guint             arrived;
  gboolean          failed;
  SextantShareHub  *steps;
} SextantTestHub;

typedef struct
{
  SextantTestHub *hub;
  guint       rank;
  const char *archive;
  char       *shard;      /* DIR/shard-R-of-N.db */
  gboolean    fail;       /* this rank gives up before the exchange */
  gboolean    ok;
  char       *message;
  GArray     *locations; /* guint32: its share */
  gboolean    agreed;     /* passed the agreement that starts the exchange */
} SextantTestRank;

/* Imports @archive on @n ranks (threads) into shards in @dir; rank
 * @failing (-1: none) fails before the exchange. */
SextantTestRank *sextant_test_import_shared (const char      *archive,
                                             const char      *dir,
                                             guint            n,
                                             gint             failing,
                                             SextantTestHub  *hub);
/* Frees @ranks and removes their shards. */
void             sextant_test_ranks_free    (SextantTestRank *ranks,
                                             SextantTestHub  *hub);

G_END_DECLS
