/*
 * sextant-torus.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The torus: node id = x + X * (y + Y * (z + Z * w)); a node's neighbour
 * along a direction wraps around. The signed offset between two nodes
 * along a dimension is the short way round, in (-n/2, n/2]: with an even
 * size the node half-way round is reached going +, as the dimension-ordered
 * tree and routes of sextant-torus-tree.c and sextant-torus-sim.c go.
 *
 * Workload: constant time per call; the coordinates are computed, not
 * stored (a node id and the sizes are all there is).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sextant-torus.h"

G_DEFINE_QUARK (sextant-sim-error-quark, sextant_sim_error)

struct _SextantTorus
{
  guint n_dims;
  guint sizes[SEXTANT_TORUS_MAX_DIMS];
  guint strides[SEXTANT_TORUS_MAX_DIMS];
  guint n_nodes;
};

/**
 * sextant_torus_new:
 * @n_dims: 2 to 4
 * @sizes: (array length=n_dims): the size of each dimension, X first, 2 or more
 * @error: SEXTANT_SIM_ERROR_DIMS when the dimensions are out of range
 *
 * Returns: (transfer full) (nullable): the torus
 */
SextantTorus *
sextant_torus_new (guint         n_dims,
                   const guint  *sizes,
                   GError      **error)
{
  SextantTorus *self;
  guint64 n_nodes = 1;

  if (n_dims < SEXTANT_TORUS_MIN_DIMS || n_dims > SEXTANT_TORUS_MAX_DIMS)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_DIMS,
                   "a torus has 2 to 4 dimensions, not %u", n_dims);
      return NULL;
    }
  for (guint d = 0; d < n_dims; d++)
    {
      if (sizes[d] < 2)
        {
          g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_DIMS,
                       "dimension %c has size %u: each dimension needs 2 nodes or more", "XYZW"[d], sizes[d]);
          return NULL;
        }
      n_nodes *= sizes[d];
      if (n_nodes > SEXTANT_TORUS_MAX_NODES)
        {
          g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_DIMS,
                       "the torus has more than %u nodes", SEXTANT_TORUS_MAX_NODES);
          return NULL;
        }
    }

  self = g_rc_box_new0 (SextantTorus);
  self->n_dims = n_dims;
  self->n_nodes = (guint)n_nodes;
  for (guint d = 0, stride = 1; d < n_dims; d++)
    {
      self->sizes[d] = sizes[d];
      self->strides[d] = stride;
      stride *= sizes[d];
    }

  return self;
}

/**
 * sextant_torus_new_from_string:
 * @dims: sizes joined by 'x', X first: "16x16x32", "8x8x8x16"
 * @error: SEXTANT_SIM_ERROR_DIMS when @dims does not parse or is out of range
 *
 * Returns: (transfer full) (nullable): the torus
 */
SextantTorus *
sextant_torus_new_from_string (const char  *dims,
                               GError     **error)
{
  g_auto(GStrv) parts = NULL;
  guint sizes[SEXTANT_TORUS_MAX_DIMS];
  guint n;

  g_return_val_if_fail (dims != NULL, NULL);

  parts = g_strsplit (dims, "x", -1);
  n = g_strv_length (parts);
  if (n < SEXTANT_TORUS_MIN_DIMS || n > SEXTANT_TORUS_MAX_DIMS)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_DIMS,
                   "dimensions '%s': give 2 to 4 sizes joined by 'x', e.g. 16x16x32", dims);
      return NULL;
    }
  for (guint d = 0; d < n; d++)
    {
      guint64 value = 0;

      if (!g_ascii_string_to_unsigned (parts[d], 10, 0, SEXTANT_TORUS_MAX_NODES, &value, NULL))
        {
          g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_DIMS,
                       "dimensions '%s': '%s' is not a size", dims, parts[d]);
          return NULL;
        }
      sizes[d] = (guint)value;
    }

  return sextant_torus_new (n, sizes, error);
}

SextantTorus *
sextant_torus_ref (SextantTorus *self)
{
  return g_rc_box_acquire (self);
}

void
sextant_torus_unref (SextantTorus *self)
{
  g_rc_box_release (self);
}

guint
sextant_torus_get_n_dims (const SextantTorus *self)
{
  return self->n_dims;
}

guint
sextant_torus_get_size (const SextantTorus *self,
                        guint               dim)
{
  g_return_val_if_fail (dim < self->n_dims, 0);

  return self->sizes[dim];
}

guint
sextant_torus_get_n_nodes (const SextantTorus *self)
{
  return self->n_nodes;
}

guint
sextant_torus_get_coord (const SextantTorus *self,
                         guint               node,
                         guint               dim)
{
  return node / self->strides[dim] % self->sizes[dim];
}

/**
 * sextant_torus_get_neighbor:
 * @dir: a direction (SEXTANT_TORUS_DIR) of one of the torus's dimensions
 *
 * Returns: the node one link away from @node along @dir (with a size of 2,
 * the same node both ways)
 */
guint
sextant_torus_get_neighbor (const SextantTorus *self,
                            guint               node,
                            guint               dir)
{
  guint dim = SEXTANT_TORUS_DIR_DIM (dir);
  guint n = self->sizes[dim];
  guint c = node / self->strides[dim] % n;
  guint to = SEXTANT_TORUS_DIR_NEGATIVE (dir) ? (c + n - 1) % n : (c + 1) % n;

  return node + (to - c) * self->strides[dim];   /* unsigned wrap is exact */
}

/**
 * sextant_torus_get_offset:
 *
 * Returns: the signed number of links from @from to @to along @dim the
 * short way round, in (-size/2, size/2]
 */
int
sextant_torus_get_offset (const SextantTorus *self,
                          guint               from,
                          guint               to,
                          guint               dim)
{
  int n = (int)self->sizes[dim];
  int d = ((int)sextant_torus_get_coord (self, to, dim) - (int)sextant_torus_get_coord (self, from, dim) + n) % n;

  return d > n / 2 ? d - n : d;
}

/* Returns: the number of links of the shortest route */
guint
sextant_torus_get_distance (const SextantTorus *self,
                            guint               from,
                            guint               to)
{
  guint hops = 0;

  for (guint d = 0; d < self->n_dims; d++)
    hops += (guint)abs (sextant_torus_get_offset (self, from, to, d));

  return hops;
}

/* Returns: (transfer full): "(x,y,z)" */
char *
sextant_torus_format_node (const SextantTorus *self,
                           guint               node)
{
  GString *s = g_string_new ("(");

  for (guint d = 0; d < self->n_dims; d++)
    g_string_append_printf (s, d == 0 ? "%u" : ",%u", sextant_torus_get_coord (self, node, d));
  g_string_append_c (s, ')');

  return g_string_free (s, FALSE);
}

/* Returns: (transfer full): "+X", "-W" */
char *
sextant_torus_dir_to_string (guint dir)
{
  if (dir >= SEXTANT_TORUS_MAX_DIRS)
    return g_strdup ("none");

  return g_strdup_printf ("%c%c", SEXTANT_TORUS_DIR_NEGATIVE (dir) ? '-' : '+', "XYZW"[SEXTANT_TORUS_DIR_DIM (dir)]);
}

/* Returns: (transfer full): "16x16x32" */
char *
sextant_torus_to_string (const SextantTorus *self)
{
  GString *s = g_string_new (NULL);

  for (guint d = 0; d < self->n_dims; d++)
    g_string_append_printf (s, d == 0 ? "%u" : "x%u", self->sizes[d]);

  return g_string_free (s, FALSE);
}
