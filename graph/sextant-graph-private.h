/*
 * sextant-graph-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared between the files of graph/ that build collective trees: what
 * every builder reads about the store once (the run's clock, each
 * location's process and label), the builders themselves (one per id form,
 * dispatched by sextant_graph_build_collective()) and the parts of the
 * listing each kind contributes. Not installed, not for ui/ or app/.
 */
#pragma once

#include "sextant-collective-id.h"
#include "sextant-graph.h"

G_BEGIN_DECLS

/* Unnamed phase regions (sextant-tree-exchange.c) are listed only when no
 * location enters them more often than this: a region entered every
 * iteration of a solver is no collective. */
#define SEXTANT_EXCHANGE_MAX_INSTANCES 32

typedef struct
{
  SextantTimeSpan  span;       /* the run: origin and resolution of the trees */
  GPtrArray       *locations;  /* SextantLocationProcess, index = location.id */
} SextantGraphContext;

gboolean                      _sextant_graph_context_init  (SextantGraphContext  *ctx,
                                                            SextantStore         *store,
                                                            GError              **error);
void                          _sextant_graph_context_clear (SextantGraphContext  *ctx);
const SextantLocationProcess *_sextant_graph_context_location (SextantGraphContext *ctx,
                                                            gint64                loc);
SextantCommTree              *_sextant_graph_context_new_tree (SextantGraphContext *ctx,
                                                            SextantTreeKind       kind,
                                                            const char           *id,
                                                            const char           *title);

/* A node of a collective tree (no delay-chain fields, no parent yet); the
 * name is copied when the node is added. */
SextantTreeNode               _sextant_graph_node          (gint64                loc,
                                                            const char           *name,
                                                            gint64                arrival,
                                                            gint64                finish,
                                                            gint64                lateness);

void                          _sextant_graph_set_unknown_id (GError             **error,
                                                            const char           *id,
                                                            const char           *why);

/* Builders, one per id form (sextant-comm-tree.h); each sets
 * SEXTANT_GRAPH_ERROR_UNKNOWN_ID when its collective does not exist. */
SextantCommTree *_sextant_tree_build_onecoll        (SextantStore        *store,
                                                     const char          *id,
                                                     gint64               win,
                                                     gint64               seq,
                                                     GError             **error);
SextantCommTree *_sextant_tree_build_mpi_collective (SextantStore        *store,
                                                     const char          *id,
                                                     gint64               collective,
                                                     SextantTreeLayout    layout,
                                                     GError             **error);
SextantCommTree *_sextant_tree_build_exchange       (SextantStore        *store,
                                                     const char          *id,
                                                     gint64               region,
                                                     gint64               n,
                                                     GError             **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SextantGraphContext, _sextant_graph_context_clear)

/* Listings: each appends SextantCollectiveRef of its kind to @refs. */
gboolean         _sextant_tree_list_onecoll         (SextantStore        *store,
                                                     GPtrArray           *refs,
                                                     GError             **error);
gboolean         _sextant_tree_list_mpi             (SextantStore        *store,
                                                     GPtrArray           *refs,
                                                     GError             **error);
gboolean         _sextant_tree_list_exchanges       (SextantStore        *store,
                                                     GPtrArray           *refs,
                                                     GError             **error);

/* A phase region by its name: "phase" in it (any case), or onecoll's
 * allreduce and reduce regions (onecoll_allreduce*, onecoll_reduce*). */
gboolean         _sextant_tree_is_phase_name        (const char          *name);

/* Open MPI's binomial trees (sextant-tree-collective.c): the parent of
 * relative rank @vrank (> 0). */
int              _sextant_binomial_parent           (int                  vrank,
                                                     gboolean             in_order);

G_END_DECLS
