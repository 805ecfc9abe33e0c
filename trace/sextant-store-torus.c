/*
 * sextant-store-torus.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where the locations of a run sit on a torus (or any 2- to 4-dimensional
 * grid), from the definitions the importer keeps as they are: each
 * location's property "torus_coords" ("3,1,0", X first) and the machine's
 * system tree node property "torus_dims" ("4x4x2"). `sextant sim torus
 * --trace` writes both (sim/sextant-torus-trace.c); any writer can give
 * its locations these two properties. Without "torus_dims" the sizes are
 * one more than the largest coordinate in each dimension.
 *
 * Workload: one pass over the location properties of that name (a row per
 * location), and one row of system_tree_node_property.
 */
#include "config.h"

#include <string.h>

#include "sextant-store-private.h"

static const char coords_sql[] =
  "SELECT l.id, coalesce (l.name, ''), p.value FROM location_property AS p "
  "JOIN location AS l ON l.otf2_id = p.loc "
  "WHERE p.name = '" SEXTANT_LOCATION_COORDS_PROPERTY "' ORDER BY l.id";

static const char dims_sql[] =
  "SELECT value FROM system_tree_node_property WHERE name = '" SEXTANT_TORUS_DIMS_PROPERTY "' "
  "ORDER BY node LIMIT 1";

/* The largest size a dimension may claim: a coordinate's bound */
#define MAX_SIZE (1u << 20)

/* "3,1,0" (@separator ',') or "4x4x2" ('x') into @values; FALSE when it is
 * not 2 to 4 numbers below MAX_SIZE */
static gboolean
parse_numbers (const char *text,
               char        separator,
               guint      *values,
               guint      *n_values)
{
  g_auto(GStrv) parts = NULL;
  char sep[2] = { separator, '\0' };
  guint n;

  if (text == NULL)
    return FALSE;
  parts = g_strsplit (text, sep, -1);
  n = g_strv_length (parts);
  if (n < 2 || n > SEXTANT_TORUS_COORDS_MAX_DIMS)
    return FALSE;
  for (guint d = 0; d < n; d++)
    {
      guint64 value;

      if (!g_ascii_string_to_unsigned (g_strstrip (parts[d]), 10, 0, MAX_SIZE - 1, &value, NULL))
        return FALSE;
      values[d] = (guint)value;
    }
  *n_values = n;

  return TRUE;
}

static gboolean
coords_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  SextantTorusCoords *coords = user_data;
  SextantLocationCoords at = { sextant_row_get_int (row, 0), { 0 } };
  const char *name = sextant_row_get_text (row, 1);
  const char *value = sextant_row_get_text (row, 2);
  guint n;

  if (!parse_numbers (value, ',', at.coords, &n))
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                   "location %" G_GINT64_FORMAT " (%s): " SEXTANT_LOCATION_COORDS_PROPERTY " \"%s\" is not 2 to 4 "
                   "numbers separated by commas", at.loc, name, value != NULL ? value : "");
      return FALSE;
    }
  if (coords->locations->len > 0 && n != coords->n_dims)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                   "location %" G_GINT64_FORMAT " (%s): " SEXTANT_LOCATION_COORDS_PROPERTY " \"%s\" has %u "
                   "coordinates, location %" G_GINT64_FORMAT " had %u", at.loc, name, value, n,
                   g_array_index (coords->locations, SextantLocationCoords, 0).loc, coords->n_dims);
      return FALSE;
    }
  if (coords->locations->len > 0 &&
      g_array_index (coords->locations, SextantLocationCoords, coords->locations->len - 1).loc == at.loc)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                   "location %" G_GINT64_FORMAT " (%s) has two " SEXTANT_LOCATION_COORDS_PROPERTY " properties",
                   at.loc, name);
      return FALSE;
    }
  coords->n_dims = n;
  for (guint d = 0; d < n; d++)
    coords->sizes[d] = MAX (coords->sizes[d], at.coords[d] + 1);
  g_array_append_val (coords->locations, at);

  return TRUE;
}

/* The machine's "torus_dims", as many sizes as the coordinates */
static gboolean
dims_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  SextantTorusCoords *coords = user_data;
  const char *value = sextant_row_get_text (row, 0);
  guint n;

  if (!parse_numbers (value, 'x', coords->sizes, &n) || n != coords->n_dims)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                   SEXTANT_TORUS_DIMS_PROPERTY " \"%s\" is not %u sizes separated by x, as the locations' "
                   SEXTANT_LOCATION_COORDS_PROPERTY " are", value != NULL ? value : "", coords->n_dims);
      return FALSE;
    }

  return TRUE;
}

/* Every location inside the sizes */
static gboolean
check_inside (SextantTorusCoords  *coords,
              GError             **error)
{
  for (guint k = 0; k < coords->locations->len; k++)
    {
      const SextantLocationCoords *at = &g_array_index (coords->locations, SextantLocationCoords, k);

      for (guint d = 0; d < coords->n_dims; d++)
        if (at->coords[d] >= coords->sizes[d])
          {
            g_autofree char *place = sextant_torus_coords_format (coords, at->loc);

            g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                         "location %" G_GINT64_FORMAT ": " SEXTANT_LOCATION_COORDS_PROPERTY " %s is outside "
                         "the torus (" SEXTANT_TORUS_DIMS_PROPERTY "): coordinate %u is %u, outside the size %u",
                         at->loc, place, d, at->coords[d], coords->sizes[d]);
            return FALSE;
          }
    }

  return TRUE;
}

void
sextant_torus_coords_clear (SextantTorusCoords *coords)
{
  g_clear_pointer (&coords->locations, g_array_unref);
  coords->n_dims = 0;
  memset (coords->sizes, 0, sizeof coords->sizes);
}

/**
 * sextant_store_read_torus_coords:
 * @coords: (out caller-allocates): the locations' places; clear it with
 *   sextant_torus_coords_clear()
 *
 * The torus coordinates the trace gives its locations (see the top of
 * this file); @coords->n_dims is 0 when it gives none.
 *
 * Threading: the store's owning thread.
 *
 * Returns: FALSE with @error set when the store fails or the coordinates
 *   are malformed (not numbers, not as many in every location, outside
 *   the torus's sizes); @coords is then empty
 */
gboolean
sextant_store_read_torus_coords (SextantStore        *self,
                                 SextantTorusCoords  *coords,
                                 GError             **error)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (coords != NULL, FALSE);

  memset (coords, 0, sizeof *coords);
  coords->locations = g_array_new (FALSE, FALSE, sizeof (SextantLocationCoords));
  if (!sextant_store_foreach_sql (self, coords_sql, coords_row, coords, error, "") ||
      (coords->n_dims > 0 && (!sextant_store_foreach_sql (self, dims_sql, dims_row, coords, error, "") ||
                              !check_inside (coords, error))))
    {
      sextant_torus_coords_clear (coords);
      coords->locations = g_array_new (FALSE, FALSE, sizeof (SextantLocationCoords));
      return FALSE;
    }

  return TRUE;
}

/**
 * sextant_torus_coords_find:
 * @loc: location.id
 *
 * Returns: (nullable): @loc's place, %NULL when it has none
 */
const SextantLocationCoords *
sextant_torus_coords_find (const SextantTorusCoords *coords,
                           gint64                    loc)
{
  guint lo = 0, hi = coords->locations != NULL ? coords->locations->len : 0;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const SextantLocationCoords *at = &g_array_index (coords->locations, SextantLocationCoords, mid);

      if (at->loc == loc)
        return at;
      if (at->loc < loc)
        lo = mid + 1;
      else
        hi = mid;
    }

  return NULL;
}

/**
 * sextant_torus_coords_format:
 * @loc: location.id
 *
 * Returns: (transfer full) (nullable): "(3,1,0)", %NULL when @loc has no
 *   place
 */
char *
sextant_torus_coords_format (const SextantTorusCoords *coords,
                             gint64                    loc)
{
  const SextantLocationCoords *at = sextant_torus_coords_find (coords, loc);
  GString *text;

  if (at == NULL)
    return NULL;
  text = g_string_new ("(");
  for (guint d = 0; d < coords->n_dims; d++)
    g_string_append_printf (text, d == 0 ? "%u" : ",%u", at->coords[d]);
  g_string_append_c (text, ')');

  return g_string_free (text, FALSE);
}
