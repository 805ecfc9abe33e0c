/*
 * sextant-invariants.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every analysis checks of the instances of every pattern, built-in
 * or a user's, before it writes them:
 *
 *   1. an instance charged to a visit lies inside it: its begin and end
 *      within the visit's enter and leave, and its severity no more than
 *      the visit lasted;
 *   2. the instances of the patterns of Scalasca's metric tree that are
 *      charged to one visit add up to no more than the visit lasted (the
 *      tree's patterns are disjoint: Late Sender leaves out the instances
 *      of Late Sender, Wrong Order; the wait at an N x N collective ends
 *      where its completion begins). Those patterns: the wait states of
 *      graph/sextant-wait-causes.c and the completion patterns.
 *
 * A pattern that breaks them reports time the call did not lose. Strict
 * (the test suite: SEXTANT_STRICT_INVARIANTS=1 in the environment), the
 * first breach fails the analysis with a message that names the pattern,
 * the visit and the times; otherwise each pattern's breaches are counted
 * and told once (a message on stderr), and an instance is clipped to its
 * visit (its begin, end and severity), so that no report shows more time
 * than the call lasted.
 *
 * Workload: one comparison per instance; the second check keeps 32 bytes
 * per instance of the tree's patterns (about 550,000 on the 10 M-event
 * store: 18 MB), sorted by visit once at the end.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "sextant-invariants.h"
#include "sextant-trace-error.h"
#include "sextant-wait-causes.h"

#include "sextant-store.h"

/* An instance of a tree pattern, for the second check */
typedef struct
{
  gint64      visit;
  gint64      loc;
  gint64      severity;
  gint64      lasted;      /* the visit's leave - enter */
  const char *pattern;     /* interned */
} Charged;

struct _SextantInvariants
{
  gboolean    strict;
  double      resolution;  /* ticks per second */
  GArray     *charged;     /* Charged */
  GHashTable *warned;      /* interned pattern id -> breaches */
  guint       violations;
};

/* The patterns of Scalasca's tree, besides the wait states, whose time of
 * one visit is disjoint from theirs */
static const char * const completion_patterns[] = {
  "barrier_completion", "nxn_completion",
};

static gboolean
in_tree (const char *pattern_id)
{
  if (sextant_wait_causes_is_wait_state (pattern_id))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (completion_patterns); i++)
    if (g_str_equal (pattern_id, completion_patterns[i]))
      return TRUE;

  return FALSE;
}

/**
 * sextant_invariants_new:
 * @strict: a breach fails the analysis (else it is counted, warned about
 *   and the instance clipped)
 * @resolution: the store's ticks per second, for the messages
 *
 * Returns: (transfer full): the checks of one analysis
 */
SextantInvariants *
sextant_invariants_new (gboolean strict,
                        gint64   resolution)
{
  SextantInvariants *self = g_new0 (SextantInvariants, 1);

  self->strict = strict;
  self->resolution = (double)MAX (resolution, 1);
  self->charged = g_array_new (FALSE, FALSE, sizeof (Charged));
  self->warned = g_hash_table_new (NULL, NULL);

  return self;
}

void
sextant_invariants_free (SextantInvariants *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->charged);
  g_hash_table_unref (self->warned);
  g_free (self);
}

/**
 * sextant_invariants_is_strict_env:
 *
 * Returns: whether the environment asks for strict checks
 *   (SEXTANT_STRICT_INVARIANTS set, and not to "0")
 */
gboolean
sextant_invariants_is_strict_env (void)
{
  const char *value = g_getenv ("SEXTANT_STRICT_INVARIANTS");

  return value != NULL && *value != '\0' && !g_str_equal (value, "0");
}

/* Counts a breach of @pattern_id: in strict mode sets @error from
 * @message and returns FALSE; else warns at the pattern's first */
static gboolean
breach (SextantInvariants  *self,
        const char         *pattern_id,
        char               *message,
        GError            **error)
{
  g_autofree char *owned = message;
  const char *id = g_intern_string (pattern_id);
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (self->warned, id));

  self->violations++;
  if (self->strict)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY, "%s", owned);
      return FALSE;
    }
  if (n == 0)
    g_message ("%s (clipped to the call; further breaches of %s are not shown)", owned, pattern_id);
  g_hash_table_insert (self->warned, (gpointer)id, GUINT_TO_POINTER (n + 1));

  return TRUE;
}

/**
 * sextant_invariants_check_instance:
 * @pattern_id: the instance's pattern
 * @loc: its location (for the message)
 * @visit: the visit it is charged to (%SEXTANT_NULL: none, nothing to check)
 * @enter: the visit's enter, ticks
 * @leave: the visit's leave, ticks
 * @severity: (inout): its ticks lost; clipped to the visit's length
 * @begin: (inout): its begin (%SEXTANT_NULL: none); clipped into the visit
 * @end: (inout): its end (%SEXTANT_NULL: none); clipped into the visit
 *
 * Checks the first invariant for one instance, and keeps what the second
 * needs.
 *
 * Returns: %FALSE with @error set when strict and the instance lies
 *   outside its visit
 */
gboolean
sextant_invariants_check_instance (SextantInvariants  *self,
                                   const char         *pattern_id,
                                   gint64              loc,
                                   gint64              visit,
                                   gint64              enter,
                                   gint64              leave,
                                   gint64             *severity,
                                   gint64             *begin,
                                   gint64             *end,
                                   GError            **error)
{
  gint64 lasted;

  if (visit == SEXTANT_NULL || enter == SEXTANT_NULL || leave == SEXTANT_NULL || leave < enter)
    return TRUE;
  lasted = leave - enter;
  if (*severity > lasted || (*begin != SEXTANT_NULL && (*begin < enter || *begin > leave)) ||
      (*end != SEXTANT_NULL && (*end > leave || *end < enter)) ||
      (*begin != SEXTANT_NULL && *end != SEXTANT_NULL && *begin > *end))
    {
      char *message = g_strdup_printf ("pattern %s charges visit %" G_GINT64_FORMAT " (location %" G_GINT64_FORMAT
                                       ", %.9f s to %.9f s, %.9f s long) %.9f s over %.9f s to %.9f s: "
                                       "%s",
                                       pattern_id, visit, loc, enter / self->resolution, leave / self->resolution,
                                       lasted / self->resolution, *severity / self->resolution,
                                       *begin == SEXTANT_NULL ? NAN : *begin / self->resolution,
                                       *end == SEXTANT_NULL ? NAN : *end / self->resolution,
                                       *severity > lasted ? "more than the call lasted"
                                                          : "an interval outside the call");

      if (!breach (self, pattern_id, message, error))
        return FALSE;
      *severity = MIN (*severity, lasted);
      if (*begin != SEXTANT_NULL)
        *begin = CLAMP (*begin, enter, leave);
      if (*end != SEXTANT_NULL)
        *end = CLAMP (*end, MAX (enter, *begin != SEXTANT_NULL ? *begin : enter), leave);
    }
  if (*severity > 0 && in_tree (pattern_id))
    {
      Charged charged = { visit, loc, *severity, lasted, g_intern_string (pattern_id) };

      g_array_append_val (self->charged, charged);
    }

  return TRUE;
}

static int
compare_charged (gconstpointer a,
                 gconstpointer b)
{
  const Charged *x = a;
  const Charged *y = b;

  return (x->visit > y->visit) - (x->visit < y->visit);
}

/**
 * sextant_invariants_finish:
 *
 * Checks the second invariant over every instance checked so far: each
 * visit's time in the tree's patterns.
 *
 * Returns: %FALSE with @error set when strict and a visit is charged more
 *   than it lasted
 */
gboolean
sextant_invariants_finish (SextantInvariants  *self,
                           GError            **error)
{
  Charged *all;
  guint n = self->charged->len;

  g_array_sort (self->charged, compare_charged);
  all = (Charged *)(void *)self->charged->data;
  for (guint i = 0, j; i < n; i = j)
    {
      gint64 sum = 0;

      for (j = i; j < n && all[j].visit == all[i].visit; j++)
        sum += all[j].severity;
      if (sum > all[i].lasted)
        {
          g_autoptr(GString) parts = g_string_new (NULL);

          for (guint k = i; k < j; k++)
            g_string_append_printf (parts, "%s%s %.9f s", k > i ? " + " : "", all[k].pattern,
                                    all[k].severity / self->resolution);
          if (!breach (self, all[i].pattern,
                       g_strdup_printf ("visit %" G_GINT64_FORMAT " (location %" G_GINT64_FORMAT ", %.9f s long) "
                                        "is charged %s = %.9f s of wait states: more than the call lasted",
                                        all[i].visit, all[i].loc, all[i].lasted / self->resolution, parts->str,
                                        sum / self->resolution),
                       error))
            return FALSE;
        }
    }
  g_array_set_size (self->charged, 0);

  return TRUE;
}

/* The breaches counted (not strict) */
guint
sextant_invariants_get_violations (SextantInvariants *self)
{
  return self->violations;
}
