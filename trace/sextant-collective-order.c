/*
 * sextant-collective-order.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The order of a threaded process's collectives (see
 * sextant-collective-order.h): per (communicator, process), which location
 * called its collectives first, whether another one did too, and the
 * numbers used; the members held once several did.
 */
#include "config.h"

#include "sextant-collective-order.h"

/* A communicator as one process uses it */
typedef struct
{
  gint64    comm;
  gint32    process;
  gint32    first_loc;    /* the location that called its first collective */
  gboolean  threaded;     /* another location of the process called one too */
  gint64    next;         /* the number after those its members kept */
} Use;

struct _SextantCollectiveOrder
{
  const gint32  *process;
  guint          n_locs;
  guint8        *shared;  /* by location index: its process has other locations */
  GHashTable    *uses;    /* Use* (key and value) */
  GArray        *held;    /* (nullable) SextantCollectiveHalf */
};

static guint
use_hash (gconstpointer key)
{
  const Use *u = key;
  guint64 h = (guint64)u->comm * 0x9E3779B97F4A7C15ULL ^ (guint64)(guint32)u->process * 0xC2B2AE3D27D4EB4FULL;

  return (guint)(h ^ (h >> 29));
}

static gboolean
use_equal (gconstpointer a,
           gconstpointer b)
{
  const Use *x = a;
  const Use *y = b;

  return x->comm == y->comm && x->process == y->process;
}

SextantCollectiveOrder *
sextant_collective_order_new (const gint32 *process,
                              guint         n_locs)
{
  SextantCollectiveOrder *self = g_new0 (SextantCollectiveOrder, 1);
  g_autofree guint *n_members = g_new0 (guint, MAX (n_locs, 1));

  self->process = process;
  self->n_locs = n_locs;
  self->shared = g_new0 (guint8, MAX (n_locs, 1));
  self->uses = g_hash_table_new_full (use_hash, use_equal, g_free, NULL);

  for (guint l = 0; l < n_locs; l++)
    if (process[l] >= 0 && (guint)process[l] < n_locs)
      n_members[process[l]]++;
  for (guint l = 0; l < n_locs; l++)
    self->shared[l] = process[l] >= 0 && (guint)process[l] < n_locs && n_members[process[l]] > 1;

  return self;
}

void
sextant_collective_order_free (SextantCollectiveOrder *self)
{
  if (self == NULL)
    return;

  g_free (self->shared);
  g_hash_table_unref (self->uses);
  g_clear_pointer (&self->held, g_array_unref);
  g_free (self);
}

/* The use of @half's communicator by its process, made if new; %NULL when
 * its process has no other location or the communicator is the location's
 * own (MPI_COMM_SELF-like: numbered per location) */
static Use *
use_of (SextantCollectiveOrder      *self,
        const SextantCollectiveHalf *half)
{
  Use key;
  Use *use;

  if (half->owner >= 0 || half->loc < 0 || (guint64)half->loc >= self->n_locs || !self->shared[half->loc])
    return NULL;

  key = (Use) { .comm = half->comm, .process = self->process[half->loc] };
  if ((use = g_hash_table_lookup (self->uses, &key)) == NULL)
    {
      use = g_new (Use, 1);
      *use = key;
      use->first_loc = (gint32)half->loc;
      use->threaded = FALSE;
      use->next = 0;
      g_hash_table_add (self->uses, use);
    }
  else if (use->first_loc != half->loc)
    use->threaded = TRUE;

  return use;
}

void
sextant_collective_order_note (SextantCollectiveOrder *self,
                               const GArray           *coll_halves)
{
  for (guint i = 0; coll_halves != NULL && i < coll_halves->len; i++)
    use_of (self, &g_array_index (coll_halves, SextantCollectiveHalf, i));
}

gboolean
sextant_collective_order_hold (SextantCollectiveOrder      *self,
                               const SextantCollectiveHalf *half)
{
  Use *use = use_of (self, half);

  if (use == NULL)
    return FALSE;
  if (!use->threaded)
    {
      use->next = MAX (use->next, half->seq + 1);
      return FALSE;
    }

  if (self->held == NULL)
    self->held = g_array_new (FALSE, FALSE, sizeof (SextantCollectiveHalf));
  g_array_append_val (self->held, *half);

  return TRUE;
}

/* By communicator and process, then in the order they started (a
 * location's own order for a tie) */
static int
compare_held (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  SextantCollectiveOrder *self = data;
  const SextantCollectiveHalf *x = a;
  const SextantCollectiveHalf *y = b;

#define CMP(u, v) if ((u) != (v)) return (u) < (v) ? -1 : 1
  CMP (x->comm, y->comm);
  CMP (self->process[x->loc], self->process[y->loc]);
  CMP (x->begin, y->begin);
  CMP (x->loc, y->loc);
  CMP (x->seq, y->seq);
#undef CMP
  return 0;
}

GArray *
sextant_collective_order_steal_held (SextantCollectiveOrder *self)
{
  GArray *held = g_steal_pointer (&self->held);

  if (held == NULL)
    return g_array_new (FALSE, FALSE, sizeof (SextantCollectiveHalf));

  g_array_sort_with_data (held, compare_held, self);
  for (guint i = 0; i < held->len; i++)
    {
      SextantCollectiveHalf *half = &g_array_index (held, SextantCollectiveHalf, i);
      Use key = { .comm = half->comm, .process = self->process[half->loc] };
      Use *use = g_hash_table_lookup (self->uses, &key);

      half->seq = use->next++;
    }

  return held;
}
