/*
 * sextant-store-shard-analysis.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The SQL of a parallel analysis on a manifest (docs/parallel.md,
 * "Analysis"): which locations each shard holds, and the merge of the
 * shards' summaries into the manifest once every shard has written its
 * instances. The manifest then holds what a single store's summary holds
 * (tables pattern and pattern_aggregate, the analysis's scope in meta);
 * the instances and their wait states stay in the shards.
 */
#pragma once

#include "sextant-store.h"

G_BEGIN_DECLS

/* By shard (rank): a GArray of the gint64 location ids it holds. */
GPtrArray *sextant_store_list_shard_locations (SextantStore  *manifest,
                                               GError       **error);
/* In one transaction of @manifest: its summary replaced by the shards'
 * (@all_ok) or cleared (a shard failed: the manifest is then not
 * analysed), and every shard's size and time recorded anew (they
 * changed); the analysis' mark (SEXTANT_SHARD_ANALYSIS_UNFINISHED)
 * removed. */
gboolean   sextant_store_merge_shard_analyses (SextantStore  *manifest,
                                               gboolean       all_ok,
                                               GError       **error);
/* The halo of a shard's analysis: the visits of other shards' locations
 * that its messages and collectives name, and every location's calls of
 * MPI_Init and MPI_Finalize (sextant-store-shard-analysis.c) */
#define SEXTANT_HALO_COLUMNS 10   /* a visit: its id, then the visit table's columns */
/* The table of a shard's halo that holds every shard's distinct (send_loc,
 * recv_loc) pairs of messages, for master_workers (sextant-store-views-master.c) */
#define SEXTANT_HALO_MESSAGE_PAIRS "halo_message_pair"

GArray    *sextant_store_list_halo_visits     (SextantStore  *shard,
                                               GHashTable    *own,
                                               GArray       **pairs,
                                               GError       **error);
gboolean   sextant_store_read_halo_visits     (SextantStore  *shard,
                                               guint          self,
                                               GPtrArray     *wanted,
                                               GPtrArray     *answers,
                                               GError       **error);
GBytes    *sextant_store_read_halo_extras     (SextantStore  *shard,
                                               GArray        *pairs,
                                               GError       **error);

/* What sextant_store_add_halo() wrote, to take out again */
typedef struct
{
  GArray *first_rows;       /* gint64: the first visit id of each chunk, ascending */
  GArray *locations;        /* gint64: the locations of the call-path profile rows */
  gint64  last_rma_sync;    /* the shard's own rows' ids end here */
  gint64  last_lock;
  gint64  first_call_path;
  gint64  last_call_path;
} SextantHalo;

SextantHalo *sextant_halo_new                 (void);
void       sextant_halo_free                  (SextantHalo   *halo);
gboolean   sextant_store_add_halo             (SextantStore  *shard,
                                               gint64        *rows,
                                               guint          n_rows,
                                               GPtrArray     *extras,
                                               SextantHalo   *halo,
                                               GError       **error);
gboolean   sextant_store_remove_halo          (SextantStore  *shard,
                                               SextantHalo   *halo,
                                               gboolean       in_transaction,
                                               GError       **error);

/* The manifest whose shard @path seems to be (`X.shards/rank-NNNNN.sextant`
 * beside a file X), or %NULL. */
char      *sextant_store_find_manifest_of     (const char    *path);

G_END_DECLS
