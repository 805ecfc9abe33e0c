/*
 * sextant-analysis-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The analysis's fields, shared by its files: sextant-analysis.c (the
 * run: queries, instances, scope) and sextant-analysis-sites.c (where an
 * instance's call is in the source).
 */
#pragma once

#include "sextant-analysis.h"
#include "sextant-invariants.h"
#include "sextant-store-private.h"

G_BEGIN_DECLS

typedef struct
{
  char            *file;       /* NULL: no source information */
  gint64           line;
  SextantSiteKind  kind;       /* CALL or FUNCTION when file is set */
  char            *function;   /* FUNCTION: the region that begins at line */
  gint64           site;       /* its pattern_site.id, 0 until an instance uses it */
} Source;

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

G_END_DECLS
