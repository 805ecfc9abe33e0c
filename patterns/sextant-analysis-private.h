/*
 * sextant-analysis-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The analysis's fields, shared by its files: sextant-analysis.c (the
 * run: the queries, on worker threads), sextant-analysis-instances.c (a
 * query's instances written) and sextant-analysis-sites.c (where an
 * instance's call is in the source), and the jobs the first hands the
 * second: a pattern's query and the rows it returned.
 */
#pragma once

#include "sextant-analysis.h"
#include "sextant-invariants.h"
#include "sextant-step-clock.h"
#include "sextant-store-private.h"
#include "sextant-store-shard-analysis.h"

G_BEGIN_DECLS

typedef struct
{
  char            *file;       /* NULL: no source information */
  gint64           line;
  SextantSiteKind  kind;       /* CALL or FUNCTION when file is set */
  char            *function;   /* FUNCTION: the region that begins at line */
  gint64           site;       /* its pattern_site.id, 0 until an instance uses it */
} Source;

/* A shard of a parallel analysis (sextant-analysis-shard.c) */
typedef struct
{
  guint                 rank;
  guint                 n_ranks;
  GHashTable           *own;        /* its locations: gint64* location.id, a set */
  SextantShareExchange  exchange;
  gpointer              user_data;
  guint                 steps;      /* of the run, taken so far */
  SextantHalo          *halo;       /* what the run took in of the other shards, or NULL */
} SextantAnalysisShard;

/* A location's instances of one pattern, consecutive in the canonical
 * order: @count of them, numbered from @first */
typedef struct
{
  gint64 loc;
  guint  count;
  gint64 first;
} SextantInstanceRun;

/* What a pattern query returned for one instance. */
typedef struct
{
  gint64  loc;
  gint64  severity;
  gint64  visit;
  gint64  example;      /* a visit that shows where, not charged (statistics) */
  gint64  begin;
  gint64  end;
  gint64  peer;
  gint64  message;
  gint64  collective;
  gint64  scl;
  gint64  context;
  gint64  path;
  gint64  region;
  gint64  enter;        /* the visit's */
  gint64  leave;
  char   *comment;      /* from the query, or NULL for the pattern's template */
} Found;

/* The instances a query returned, in blocks: growing never copies them,
 * and the blocks of a written pattern serve the next query (fresh memory
 * costs a page fault a page). */
#define FOUND_BLOCK_ROWS 2048
#define FOUND_POOL_BLOCKS 32

typedef struct
{
  GPtrArray   *blocks;     /* Found[FOUND_BLOCK_ROWS] */
  guint        len;
  GAsyncQueue *pool;       /* the run's spare blocks */
} FoundList;

static inline Found *
found_list_get (FoundList *list,
                guint      i)
{
  return &((Found *)g_ptr_array_index (list->blocks, i / FOUND_BLOCK_ROWS))[i % FOUND_BLOCK_ROWS];
}

/* One pattern's query, run by a worker thread on its connection while the
 * main thread writes the instances of the patterns done. */
typedef struct
{
  SextantPattern *pattern;
  GHashTable     *bound;       /* parameter name -> GVariant */
  char           *described;   /* "eps=0s ..." */
  guint           views;       /* the shared views it reads (sextant_store_reads_shared_views()) */
  guint           weight;      /* how much it reads: the order jobs start in */
  guint           index;       /* order of submission: instances are written in it */
  FoundList       found;
  int             col[16];     /* the columns collect_row() reads (sextant-analysis.c), -1 when absent */
  GHashTable     *own;         /* a shard's locations (gint64*), borrowed: the rows kept; NULL: all */
  GError         *error;
} Job;

struct _SextantAnalysis
{
  GObject            parent_instance;

  SextantStore      *store;
  SextantPatternSet *patterns;
  GHashTable        *overrides;    /* "name" or "id.name" -> double* */
  GHashTable        *selected;     /* id -> id, NULL = all */
  GPtrArray         *selection;    /* the selected ids in the order given, NULL = all */
  SextantAnalysisProgress progress;
  gpointer           progress_data;
  GDestroyNotify     progress_destroy;
  gint               running;      /* atomic: a run is under way */

  /* during a run */
  gint64             resolution;
  GHashTable        *scl_sources;  /* source code location id -> Source* */
  GHashTable        *ctx_sources;  /* calling context id -> Source* */
  GHashTable        *path_sources; /* call path id -> Source*: the enclosing function's definition */
  GHashTable        *region_sources; /* region id -> Source* */
  GHashTable        *sites;        /* "kind\x1ffile\x1fline\x1ffunction" -> pattern_site.id */
  GPtrArray         *site_sources; /* Source by pattern_site.id - 1 (borrowed from the caches) */
  GHashTable        *path_names;   /* call path id -> name */
  GArray            *waits;        /* SextantWaitInterval: the wait states written */
  SextantInvariants *invariants;   /* what every instance must satisfy (sextant-invariants.c) */
  SextantAnalysisShard *shard;     /* NULL: the whole trace */
};

Source     *_sextant_analysis_call_site       (SextantAnalysis  *self,
                                             gint64            scl,
                                             gint64            context,
                                             gint64            path,
                                             GError          **error);
gboolean    _sextant_analysis_site_id         (SextantAnalysis  *self,
                                             Source           *source,
                                             gint64           *site,
                                             GError          **error);
gboolean    _sextant_analysis_path_name       (SextantAnalysis  *self,
                                             gint64            path,
                                             const char      **name,
                                             GError          **error);
const char *_sextant_analysis_site_kind_name  (SextantSiteKind   kind);
void        _sextant_analysis_source_free     (gpointer          data);

/* In sextant-analysis-instances.c: a finished job's instances written */
guint      *_sextant_analysis_order_found     (Job              *job,
                                             GArray          **runs);
gboolean    _sextant_analysis_write_job       (SextantAnalysis  *self,
                                             Job              *job,
                                             const guint      *order,
                                             GArray           *runs,
                                             GError          **error);
gboolean    _sextant_analysis_write_shard_jobs (SextantAnalysis  *self,
                                              Job             **jobs,
                                              guint             n_jobs,
                                              gboolean          ok,
                                              GCancellable     *cancellable,
                                              GError          **error);

gboolean    _sextant_analysis_is_selected     (SextantAnalysis  *self,
                                             SextantPattern   *pattern);
gboolean    _sextant_analysis_write_scope     (SextantAnalysis  *self,
                                             GError          **error);

void        _sextant_analysis_shard_free      (SextantAnalysisShard *shard);
gboolean    _sextant_analysis_shard_number    (SextantAnalysis  *self,
                                             GPtrArray        *runs,
                                             gboolean          failed,
                                             GError          **error);
gboolean    _sextant_analysis_shard_add_halo  (SextantAnalysis  *self,
                                             gboolean          failed,
                                             GError          **error);
gboolean    _sextant_analysis_shard_remove_halo (SextantAnalysis  *self,
                                               gboolean          in_transaction,
                                               GError          **error);
void        _sextant_analysis_shard_complete  (SextantAnalysis  *self,
                                             gboolean          ok);
gboolean    _sextant_analysis_run_manifest    (SextantAnalysis  *self,
                                             GCancellable     *cancellable,
                                             GError          **error);
gboolean    _sextant_analysis_shard_gather_waits (SextantAnalysis  *self,
                                                gboolean          failed,
                                                GArray          **all,
                                                GError          **error);

G_END_DECLS
