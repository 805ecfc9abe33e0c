/*
 * sextant-graph.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The graph layer: trees of collective operations and chains of wait states,
 * computed from a store (trace/) and its last analysis (patterns/). No GTK:
 * the CLI, the report and the window's worker threads call these. Each call
 * reads through the SextantStore it is given, so a worker thread uses its
 * own connection (sextant_store_open on the same path). See
 * sextant-comm-tree.h for the trees and the collective ids.
 */
#pragma once

#include "sextant-comm-tree.h"

G_BEGIN_DECLS

typedef enum
{
  SEXTANT_GRAPH_ERROR_UNKNOWN_ID,    /* no collective or instance with that id */
  SEXTANT_GRAPH_ERROR_NOT_ANALYSED,  /* the store has no analysis (delay chains need one) */
  SEXTANT_GRAPH_ERROR_NO_DATA,       /* the trace lacks what the tree needs (no puts, no members, ...) */
} SextantGraphError;

#define SEXTANT_GRAPH_ERROR (sextant_graph_error_quark ())
GQuark sextant_graph_error_quark (void);

/* One collective operation of any kind, as `sextant info --collectives` lists it. */
typedef struct
{
  char            *id;         /* see sextant-comm-tree.h */
  SextantTreeKind  kind;       /* ONECOLL_BCAST, MPI_COLLECTIVE or P2P_EXCHANGE */
  char            *operation;  /* "BARRIER", "BCAST", ..., "onecoll_bcast", the phase region's name */
  char            *comm;       /* the communicator's name, or NULL */
  gint64           root_loc;   /* the root of a rooted MPI collective, a onecoll broadcast's root
                                * thread, an exchange's first sender; SEXTANT_NULL when none */
  gint64           members;    /* locations (processes) that took part: the tree's nodes */
  gint64           begin;      /* ticks: first member's begin */
  gint64           end;        /* ticks: last member's end */
  gint64           bytes;      /* bytes moved, SEXTANT_NULL if unknown */
} SextantCollectiveRef;

void              sextant_collective_ref_free        (SextantCollectiveRef *ref);

/* Every collective of the trace, by begin time: MPI collectives of more
 * than one member, onecoll broadcasts, exchanges of phase regions
 * (docs/trees.md). (transfer container) */
GPtrArray        *sextant_graph_list_collectives     (SextantStore         *store,
                                                      GError              **error);
/* The id of the collective a location was in at @time (its MPI collective
 * call, or the onecoll region of a broadcast), or NULL with no error when it
 * was in none. (transfer full) */
char             *sextant_graph_collective_at        (SextantStore         *store,
                                                      gint64                loc,
                                                      gint64                time,
                                                      GError              **error);

typedef enum
{
  SEXTANT_TREE_LAYOUT_RECORDED,  /* the edges the trace recorded (a star on the releaser for an
                                  * MPI collective) */
  SEXTANT_TREE_LAYOUT_BINOMIAL,  /* MPI BCAST/REDUCE: also the edges of Open MPI's binomial tree
                                  * for the communicator's size and root (model edges) */
} SextantTreeLayout;

/* The tree of one collective (any of the three id forms). (transfer full) */
SextantCommTree  *sextant_graph_build_collective     (SextantStore         *store,
                                                      const char           *id,
                                                      SextantTreeLayout     layout,
                                                      GError              **error);

#define SEXTANT_DELAY_CHAIN_MAX_DEPTH 64

/* The chain of wait states behind pattern instance @instance (an id of
 * pattern_instance), followed back to its root cause, at most @max_depth
 * links, cycle-safe. SEXTANT_GRAPH_ERROR_NOT_ANALYSED without an analysis;
 * SEXTANT_GRAPH_ERROR_NO_DATA when the instance is no wait state (no peer).
 * (transfer full) */
SextantCommTree  *sextant_graph_build_delay_chain    (SextantStore         *store,
                                                      gint64                instance,
                                                      guint                 max_depth,
                                                      GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantCollectiveRef, sextant_collective_ref_free)

G_END_DECLS
