/*
 * sextant-torus.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A 2- to 4-dimensional torus of any size (Angara's topology): node ids,
 * coordinates (X fastest) and the links, two per dimension. The error
 * domain of the whole sim/ layer lives here.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SEXTANT_SIM_ERROR (sextant_sim_error_quark ())

/**
 * SextantSimError:
 * @SEXTANT_SIM_ERROR_DIMS: the dimensions are not 2 to 4 sizes of 2 or more
 *   (or the torus has too many nodes)
 * @SEXTANT_SIM_ERROR_NODE: a node id (root, transit node) is not in the torus
 * @SEXTANT_SIM_ERROR_SIZE: the message size or tree count is out of range
 * @SEXTANT_SIM_ERROR_PARAMS: a model parameter is out of range
 * @SEXTANT_SIM_ERROR_TREE_ROOT: tree rule 1 broken: not exactly one root
 * @SEXTANT_SIM_ERROR_TREE_DOWN_LINK: tree rule 2 broken: a down-link leads to
 *   a node outside the tree or whose up-link does not point back
 * @SEXTANT_SIM_ERROR_TREE_ORDER: tree rule 3 broken: a down-link along an
 *   earlier dimension than the up-link, or along the up-link itself
 * @SEXTANT_SIM_ERROR_TREE_DETACHED: a tree node the root's down-links do not
 *   reach (an up-link pointing nowhere, a cycle)
 * @SEXTANT_SIM_ERROR_TOO_BIG: the run would take too many events
 * @SEXTANT_SIM_ERROR_TRACE: writing the OTF2 archive failed
 * @SEXTANT_SIM_ERROR_REPLAY: a recorded run cannot be replayed (a record
 *   outside its rank's calls, a rank waiting for what never comes)
 */
typedef enum
{
  SEXTANT_SIM_ERROR_DIMS,
  SEXTANT_SIM_ERROR_NODE,
  SEXTANT_SIM_ERROR_SIZE,
  SEXTANT_SIM_ERROR_PARAMS,
  SEXTANT_SIM_ERROR_TREE_ROOT,
  SEXTANT_SIM_ERROR_TREE_DOWN_LINK,
  SEXTANT_SIM_ERROR_TREE_ORDER,
  SEXTANT_SIM_ERROR_TREE_DETACHED,
  SEXTANT_SIM_ERROR_TOO_BIG,
  SEXTANT_SIM_ERROR_TRACE,
  SEXTANT_SIM_ERROR_REPLAY,
} SextantSimError;

GQuark sextant_sim_error_quark (void);

#define SEXTANT_TORUS_MIN_DIMS   2
#define SEXTANT_TORUS_MAX_DIMS   4
#define SEXTANT_TORUS_MAX_DIRS   (2 * SEXTANT_TORUS_MAX_DIMS)
/* 2^20 nodes: 32 times the paper's largest machine */
#define SEXTANT_TORUS_MAX_NODES  (1u << 20)
#define SEXTANT_TORUS_DIR_NONE   0xff

/* A link direction: dimension 0..3 (X, Y, Z, W), + or - */
#define SEXTANT_TORUS_DIR(dim, negative) ((guint8)(2 * (dim) + ((negative) ? 1 : 0)))
#define SEXTANT_TORUS_DIR_DIM(dir)       ((guint)(dir) / 2)
#define SEXTANT_TORUS_DIR_NEGATIVE(dir)  (((dir) & 1) != 0)
#define SEXTANT_TORUS_DIR_OPPOSITE(dir)  ((guint8)((dir) ^ 1))

typedef struct _SextantTorus SextantTorus;

SextantTorus *sextant_torus_new             (guint          n_dims,
                                             const guint   *sizes,
                                             GError       **error);
SextantTorus *sextant_torus_new_from_string (const char    *dims,
                                             GError       **error);
SextantTorus *sextant_torus_ref             (SextantTorus  *self);
void          sextant_torus_unref           (SextantTorus  *self);

guint         sextant_torus_get_n_dims      (const SextantTorus *self);
guint         sextant_torus_get_size        (const SextantTorus *self,
                                             guint               dim);
guint         sextant_torus_get_n_nodes     (const SextantTorus *self);
guint         sextant_torus_get_coord       (const SextantTorus *self,
                                             guint               node,
                                             guint               dim);
guint         sextant_torus_get_neighbor    (const SextantTorus *self,
                                             guint               node,
                                             guint               dir);
int           sextant_torus_get_offset      (const SextantTorus *self,
                                             guint               from,
                                             guint               to,
                                             guint               dim);
guint         sextant_torus_get_distance    (const SextantTorus *self,
                                             guint               from,
                                             guint               to);
char         *sextant_torus_format_node     (const SextantTorus *self,
                                             guint               node);
char         *sextant_torus_dir_to_string   (guint               dir);
char         *sextant_torus_to_string       (const SextantTorus *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantTorus, sextant_torus_unref)

G_END_DECLS
