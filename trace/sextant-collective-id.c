/*
 * sextant-collective-id.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The collective ids' text forms (sextant-collective-id.h), the inverse of
 * instance_id() in sextant-matcher.c.
 */
#include "config.h"

#include <string.h>

#include "sextant-collective-id.h"

#define SELF_BIT (G_GINT64_CONSTANT (1) << 62)
#define LOW_MASK G_GINT64_CONSTANT (0xffffffff)

/* comm + 1 takes 20 bits above the instance's 32: ids with bits 52 and up
 * set (the instances made again, the counter ids of 1 << 61) are not of
 * the communicator form */
#define COMM_LIMIT ((1 << 20) - 1)
#define OWNER_LIMIT (1 << 29)

typedef enum
{
  FORM_NONE,
  FORM_COMM,
  FORM_SELF,
} Form;

static Form
split (gint64  id,
       gint64 *a,
       gint64 *n)
{
  if (id <= 0)
    return FORM_NONE;
  *n = id & LOW_MASK;
  if (*n == 0)
    return FORM_NONE;
  if ((id & SELF_BIT) != 0)
    {
      *a = (id & ~SELF_BIT) >> 32;
      return *a < OWNER_LIMIT ? FORM_SELF : FORM_NONE;
    }
  *a = (id >> 32) - 1;

  return *a >= 0 && *a < COMM_LIMIT - 1 ? FORM_COMM : FORM_NONE;
}

/**
 * sextant_collective_id_to_string:
 * @id: a collective.id
 *
 * Returns: (transfer full): "mpi:COMM:N", "self:LOC:N", or the number
 */
char *
sextant_collective_id_to_string (gint64 id)
{
  gint64 a, n;

  switch (split (id, &a, &n))
    {
    case FORM_COMM:
      return g_strdup_printf ("mpi:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, a, n);
    case FORM_SELF:
      return g_strdup_printf ("self:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, a, n);
    case FORM_NONE:
    default:
      return g_strdup_printf ("%" G_GINT64_FORMAT, id);
    }
}

/**
 * sextant_collective_id_instance:
 * @id: a collective.id
 * @n: (out): the instance's number on its communicator (from 1)
 *
 * Returns: whether @id is of the communicator or self form
 */
gboolean
sextant_collective_id_instance (gint64  id,
                                gint64 *n)
{
  gint64 a;

  return split (id, &a, n) != FORM_NONE;
}

/**
 * sextant_collective_id_parse_pair:
 * @text: the id
 * @prefix: its form's prefix ("mpi:", "onecoll:", ...)
 * @max_a: the largest first number
 * @min_b: the smallest second number
 * @max_b: the largest second number
 * @a: (out): the first number
 * @b: (out): the second number
 *
 * Reads the ids of the form PREFIX:A:B, the form of every collective id
 * but the bare number (graph/sextant-comm-tree.h).
 *
 * Returns: whether @text is of that form, its numbers within the bounds
 */
gboolean
sextant_collective_id_parse_pair (const char *text,
                                  const char *prefix,
                                  guint64     max_a,
                                  guint64     min_b,
                                  guint64     max_b,
                                  gint64     *a,
                                  gint64     *b)
{
  g_auto(GStrv) parts = NULL;
  guint64 x, y;

  if (!g_str_has_prefix (text, prefix))
    return FALSE;
  parts = g_strsplit (text + strlen (prefix), ":", -1);
  if (g_strv_length (parts) != 2 ||
      !g_ascii_string_to_unsigned (parts[0], 10, 0, max_a, &x, NULL) ||
      !g_ascii_string_to_unsigned (parts[1], 10, min_b, max_b, &y, NULL))
    return FALSE;
  *a = (gint64)x;
  *b = (gint64)y;

  return TRUE;
}

/**
 * sextant_collective_id_from_string:
 * @text: "mpi:COMM:N", "self:LOC:N" or a number
 * @id: (out): the collective.id
 *
 * Returns: whether @text is an id of one of these forms (whether the trace
 *   has that collective is the store's to say)
 */
gboolean
sextant_collective_id_from_string (const char *text,
                                   gint64     *id)
{
  gint64 a, n;
  guint64 number;

  g_return_val_if_fail (text != NULL, FALSE);

  if (sextant_collective_id_parse_pair (text, "mpi:", COMM_LIMIT - 2, 1, LOW_MASK, &a, &n))
    {
      *id = (a + 1) << 32 | n;
      return TRUE;
    }
  if (sextant_collective_id_parse_pair (text, "self:", OWNER_LIMIT - 1, 1, LOW_MASK, &a, &n))
    {
      *id = SELF_BIT | a << 32 | n;
      return TRUE;
    }
  if (g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT64, &number, NULL))
    {
      *id = (gint64)number;
      return TRUE;
    }

  return FALSE;
}
