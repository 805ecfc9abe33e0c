/*
 * sextant-torus-tree.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One tree of Angara's collective subnetwork laid over a torus: the
 * routing-table row of every node for one TreeId (isRoot, toRoot, Pe,
 * Dirs), built from a root in dimension order X, Y, Z, W or set row by row,
 * and validated by the router's rules.
 */
#pragma once

#include "sextant-torus.h"

G_BEGIN_DECLS

/* At most this many trees (TreeId 0..15) */
#define SEXTANT_TORUS_MAX_TREES 16

/**
 * SextantTorusTreeRow:
 * @in_tree: the node belongs to the tree
 * @is_root: isRoot
 * @to_root: toRoot, the up-link's direction (SEXTANT_TORUS_DIR_NONE at the root)
 * @pe: Pe: the node's processor takes part (FALSE: a transit node)
 * @dirs: Dirs, a bit per down-link direction (1 << dir)
 *
 * One row of a node's collective routing table (Dir_sum is the number of
 * bits of @dirs).
 */
typedef struct
{
  guint8 in_tree;
  guint8 is_root;
  guint8 to_root;
  guint8 pe;
  guint8 dirs;
} SextantTorusTreeRow;

typedef struct _SextantTorusTree SextantTorusTree;

SextantTorusTree *sextant_torus_tree_new                 (SextantTorus     *torus);
SextantTorusTree *sextant_torus_tree_new_dimension_order (SextantTorus     *torus,
                                                          guint             root,
                                                          GError          **error);
void              sextant_torus_tree_free                (SextantTorusTree *self);

void              sextant_torus_tree_set_row             (SextantTorusTree          *self,
                                                          guint                      node,
                                                          const SextantTorusTreeRow *row);
const SextantTorusTreeRow *sextant_torus_tree_get_row    (const SextantTorusTree    *self,
                                                          guint                      node);
const SextantTorusTreeRow *sextant_torus_tree_get_rows   (const SextantTorusTree    *self);
gboolean          sextant_torus_tree_set_transit         (SextantTorusTree          *self,
                                                          guint                      node,
                                                          GError                   **error);
gboolean          sextant_torus_tree_validate            (SextantTorusTree          *self,
                                                          GError                   **error);

SextantTorus     *sextant_torus_tree_get_torus           (const SextantTorusTree    *self);
guint             sextant_torus_tree_get_root            (const SextantTorusTree    *self);
guint             sextant_torus_tree_get_parent          (const SextantTorusTree    *self,
                                                          guint                      node);
guint             sextant_torus_tree_get_depth           (const SextantTorusTree    *self);
guint             sextant_torus_tree_get_node_depth      (const SextantTorusTree    *self,
                                                          guint                      node);
guint             sextant_torus_tree_get_height          (const SextantTorusTree    *self,
                                                          guint                      node);
const guint      *sextant_torus_tree_get_order           (const SextantTorusTree    *self);
guint             sextant_torus_tree_get_n_in_tree       (const SextantTorusTree    *self);
guint             sextant_torus_tree_get_n_members       (const SextantTorusTree    *self);
guint             sextant_torus_tree_get_n_children      (const SextantTorusTree    *self,
                                                          guint                      node);
guint             sextant_torus_tree_get_children        (const SextantTorusTree    *self,
                                                          guint                      node,
                                                          guint8                    *dirs);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantTorusTree, sextant_torus_tree_free)

G_END_DECLS
