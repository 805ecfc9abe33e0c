/*
 * sextant-comm-tree.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A SextantCommTree is who sent to whom inside one collective operation, or
 * who delayed whom behind one wait state, as the trace recorded it: nodes
 * (a location each, with the time the data or the release reached it and
 * the time it finished), edges (a transfer or a wait, with its bytes, its
 * interval and who did it), the root, the critical path and every node's
 * lateness. The tree-communication view draws it; `sextant tree` prints it.
 *
 * The builders that make trees from a store live beside this file:
 *   sextant-tree-onecoll.c     a onecoll broadcast (its recorded puts)
 *   sextant-tree-collective.c  an MPI collective (its members' enter/leave)
 *   sextant-tree-exchange.c    point-to-point messages inside phase regions
 *   sextant-delay-chain.c      the chain of wait states behind an instance
 * Builders set a node's parent to -1 unless they know it. docs/trees.md
 * defines each kind's nodes, edges, arrival, finish and lateness.
 * Collective ids (SextantCollectiveRef.id) are strings, so that the three
 * kinds share one namespace:
 *   "mpi:<comm>:<n>"      the n-th MPI collective on communicator comm
 *                         (sextant-collective-id.h: "self:<loc>:<n>" on a
 *                         self communicator, collective.id itself when of
 *                         neither form; the number is accepted for all)
 *   "onecoll:<win>:<seq>" the onecoll broadcast number seq on window win
 *                         (the 'onecoll window' and 'onecoll sequence'
 *                         attributes of its regions)
 *   "exchange:<region>:<n>" the n-th (from 1) visit of phase region
 *                         <region> (region.id) on every location that has
 *                         one, and the messages sent and received inside
 *
 * A tree is immutable once built and reference counted (a GBoxed type), so
 * it may be built on a worker thread and handed to the main thread.
 * All times are ticks of the store (see docs/schema.md); seconds are
 * (ticks - origin) / resolution.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "sextant-store.h"

G_BEGIN_DECLS

typedef enum
{
  SEXTANT_TREE_ONECOLL_BCAST,
  SEXTANT_TREE_MPI_COLLECTIVE,
  SEXTANT_TREE_P2P_EXCHANGE,
  SEXTANT_TREE_DELAY_CHAIN,
} SextantTreeKind;

/* "onecoll_bcast", "mpi_collective", "p2p_exchange", "delay_chain" */
const char *sextant_tree_kind_to_string (SextantTreeKind kind);

/* Delay chains only: what a node of the chain was doing. */
typedef enum
{
  SEXTANT_CAUSE_NONE,          /* not a delay chain */
  SEXTANT_CAUSE_WAITING,       /* in a wait state: its delay is propagated further */
  SEXTANT_CAUSE_ROOT,          /* computing (or anything but waiting): the root cause */
  SEXTANT_CAUSE_TRUNCATED,     /* the chain stopped here: depth bound or a cycle */
} SextantCauseKind;

typedef struct
{
  gint64            loc;       /* location.id */
  char             *name;      /* the location's label ("MPI Rank 3", "MPI Rank 1 / thread 2") */
  gint64            arrival;   /* ticks: when the data (or the release) reached it */
  gint64            finish;    /* ticks: when it was done (left the call, delivered its subtree) */
  gint64            lateness;  /* ticks: arrival less the earliest it could have had it given its
                                * parent's arrival; 0 for the root. An MPI collective's member:
                                * how much later than the first member it arrived (its enter
                                * less the earliest member's enter), the root included */
  int               parent;    /* index of the parent node, -1 for the root */
  /* delay chains (SEXTANT_TREE_DELAY_CHAIN) only, else NULL / SEXTANT_NULL */
  SextantCauseKind  cause;
  gint64            instance;  /* the wait-state instance on this node (pattern_instance.id) */
  char             *pattern;   /* its pattern id */
  gint64            region;    /* region.id: the call it waited in, or where the root cause spent the time */
  char             *region_name;
  char             *file;      /* that region's source file and line, if recorded */
  gint64            line;
  gint64            begin;     /* the interval of the wait, or of the root cause's delay */
  gint64            end;
} SextantTreeNode;

typedef struct
{
  int     from;                /* node index: the sender, the releaser, the delayer */
  int     to;                  /* node index: the receiver, the released, the delayed */
  gint64  bytes;               /* SEXTANT_NULL when not known. A onecoll delivery: its MPI_Put
                                * bytes to the target (the data, and the 40-byte descriptor in
                                * the same put for a rank with children), not the 8-byte flag or
                                * counter accumulates; an MPI member: its bytes_received */
  gint64  begin;               /* ticks: the transfer or the wait */
  gint64  end;
  gint64  by_loc;              /* the location (thread) that did the transfer; SEXTANT_NULL if none */
  char   *by;                  /* who did it: "root", "broadcaster", "waiting thread",
                                * "root help", "sender", "release", a pattern id for a
                                * delay chain's link, "model" for an assumed layout */
  gboolean model;              /* TRUE: laid out on an assumed algorithm (Open MPI's binomial
                                * tree), not recorded */
} SextantTreeEdge;

typedef struct _SextantCommTree SextantCommTree;

#define SEXTANT_TYPE_COMM_TREE (sextant_comm_tree_get_type ())
GType             sextant_comm_tree_get_type        (void) G_GNUC_CONST;

SextantCommTree  *sextant_comm_tree_new             (SextantTreeKind         kind,
                                                     const char             *id,
                                                     const char             *title,
                                                     gint64                  origin,
                                                     gint64                  resolution);
SextantCommTree  *sextant_comm_tree_ref             (SextantCommTree        *self);
void              sextant_comm_tree_unref           (SextantCommTree        *self);

/* Building (before the tree is shared): nodes and edges are copied in. */
int               sextant_comm_tree_add_node        (SextantCommTree        *self,
                                                     const SextantTreeNode  *node);
void              sextant_comm_tree_add_edge        (SextantCommTree        *self,
                                                     const SextantTreeEdge  *edge);
void              sextant_comm_tree_set_root        (SextantCommTree        *self,
                                                     int                     root);
/* A parent the builder knows (a model layout); -1 leaves it to _finish(). */
void              sextant_comm_tree_set_parent      (SextantCommTree        *self,
                                                     int                     node,
                                                     int                     parent);
/* Sets every node's parent from the edges (the first non-model edge into
 * it), the critical path (root to the node that finished last - of several
 * the deepest - through parents) and, unless the builder set them, the
 * lateness of each node:
 * arrival - (parent's arrival + the edge's end - begin), at least 0. */
void              sextant_comm_tree_finish          (SextantCommTree        *self);
/* Instead of _finish() for an exchange in which several nodes had data of
 * their own (a butterfly, an allreduce's halving and doubling): no node
 * has a parent, the root is only where the first message came from, the
 * builder sets arrival, finish and lateness, and the critical path is the
 * chain of messages that ended at the node that finished last (each
 * received before its successor was sent), found backwards from there. */
void              sextant_comm_tree_finish_exchange (SextantCommTree        *self);
/* TRUE when built with _finish_exchange(): draw it as rows of nodes and
 * every edge between them, not as a tree. */
gboolean          sextant_comm_tree_is_exchange     (SextantCommTree        *self);

/* Whether SEXTANT_TREE_LAYOUT_BINOMIAL gives this tree a model layout (an
 * MPI BCAST or REDUCE), whichever layout it was built with. */
void              sextant_comm_tree_set_has_model_layout (SextantCommTree *self,
                                                          gboolean         has_model_layout);
gboolean          sextant_comm_tree_get_has_model_layout (SextantCommTree *self);

SextantTreeKind   sextant_comm_tree_get_kind        (SextantCommTree        *self);
const char       *sextant_comm_tree_get_id          (SextantCommTree        *self);
const char       *sextant_comm_tree_get_title       (SextantCommTree        *self);
gint64            sextant_comm_tree_get_origin      (SextantCommTree        *self);
gint64            sextant_comm_tree_get_resolution  (SextantCommTree        *self);
int               sextant_comm_tree_get_root        (SextantCommTree        *self);
guint             sextant_comm_tree_get_n_nodes     (SextantCommTree        *self);
const SextantTreeNode *sextant_comm_tree_get_node   (SextantCommTree        *self,
                                                     guint                   index);
guint             sextant_comm_tree_get_n_edges     (SextantCommTree        *self);
const SextantTreeEdge *sextant_comm_tree_get_edge   (SextantCommTree        *self,
                                                     guint                   index);
/* Node indices from the root to the last node to finish. */
const GArray     *sextant_comm_tree_get_critical_path (SextantCommTree      *self);
gboolean          sextant_comm_tree_edge_is_critical (SextantCommTree       *self,
                                                     guint                   edge);
/* Seconds since the run's start (origin) of a tick value. */
double            sextant_comm_tree_seconds         (SextantCommTree        *self,
                                                     gint64                  ticks);

/* The JSON of `sextant tree --json` (docs/cli.md):
 * {"kind", "id", "title", "root": LOC, "nodes": [...], "edges": [...],
 *  "critical_path": [LOC, ...]} with times in seconds since the run's start. */
JsonNode         *sextant_comm_tree_to_json         (SextantCommTree        *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantCommTree, sextant_comm_tree_unref)

G_END_DECLS
