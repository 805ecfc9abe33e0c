/*
 * sextant-pattern-tree.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The metric tree of an analysis, as Cube shows Scalasca's: the patterns
 * under the groups of the catalogue (Time > MPI > Communication >
 * Point-to-point > Late Sender > Wrong order, ...), each node with its
 * exclusive time (a pattern's own severity) and its inclusive time (its own
 * plus its children's), so that a parent's time includes its children's.
 *
 * The groups are not patterns: they are declared once, in the table of
 * sextant-pattern-tree.c (sextant_pattern_group_lookup()), and a pattern
 * names its place with the `-- parent:` line of its header: a group or
 * another pattern. Two roots hold the catalogue: "time" (the run's total
 * time; the wait states below it never overlap, so its children's shares
 * add up to at most 100 %) and "diagnostics" (statistics and hints that
 * count time the wait states count too: their groups are not additive and
 * carry no time). A pattern whose parent is neither a group nor a pattern
 * of the tree is a root of its own.
 *
 * Workload: a few dozen nodes, built once per read of an analysis; any
 * thread, one tree per thread.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * SextantPatternGroup:
 * @id: the group's id (lower case, Scalasca's metric name where it has one)
 * @title: its display name, as Cube shows it
 * @parent: (nullable): the group above it; %NULL for a root
 * @description: what the time below it is
 * @additive: whether its time is the sum of its children's (FALSE for the
 *   groups of diagnostics, which overlap each other and the wait states)
 *
 * A node of the metric tree that is not a pattern.
 */
typedef struct
{
  const char *id;
  const char *title;
  const char *parent;
  const char *description;
  gboolean    additive;
} SextantPatternGroup;

const SextantPatternGroup *sextant_pattern_group_lookup (const char *id);

/**
 * SextantPatternTreeNode:
 * @id: the pattern's or group's id
 * @title: its display name
 * @description: (nullable): what it measures
 * @parent: the index of its parent node, -1 for a root
 * @depth: 0 for a root
 * @n_below: how many nodes its subtree has besides itself: they follow it,
 *   so its next sibling is at index + 1 + @n_below
 * @n_children: how many children it has
 * @is_group: a group of the catalogue, not a pattern
 * @additive: @inclusive is meaningful; FALSE for a group of diagnostics
 * @exclusive: ticks: a pattern's severity; the root "time": the time that no
 *   pattern below it explains; other groups: 0
 * @inclusive: ticks: @exclusive plus the children's @inclusive (a
 *   non-additive child counts 0); -1 when !@additive
 * @instances: a pattern's instances (0 for a group)
 * @instances_below: @instances plus those of every node below
 */
typedef struct
{
  const char *id;
  const char *title;
  const char *description;
  int         parent;
  guint       depth;
  guint       n_below;
  guint       n_children;
  gboolean    is_group;
  gboolean    additive;
  gint64      exclusive;
  gint64      inclusive;
  gint64      instances;
  gint64      instances_below;
} SextantPatternTreeNode;

typedef struct _SextantPatternTree SextantPatternTree;

SextantPatternTree           *sextant_pattern_tree_new         (void);
void                          sextant_pattern_tree_free        (SextantPatternTree *self);
void                          sextant_pattern_tree_add_pattern (SextantPatternTree *self,
                                                                const char         *id,
                                                                const char         *title,
                                                                const char         *parent,
                                                                const char         *description,
                                                                gint64              severity,
                                                                gint64              instances);
void                          sextant_pattern_tree_build       (SextantPatternTree *self,
                                                                gint64              total_time);
guint                         sextant_pattern_tree_get_n_nodes (SextantPatternTree *self);
const SextantPatternTreeNode *sextant_pattern_tree_get_node    (SextantPatternTree *self,
                                                                guint               index);
int                           sextant_pattern_tree_lookup      (SextantPatternTree *self,
                                                                const char         *id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantPatternTree, sextant_pattern_tree_free)

G_END_DECLS
