/*
 * sextant-wait-causes.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Direct and propagated wait states, computed once per analysis.
 *
 * A wait state is an instance of one of the patterns below in which a
 * location L waited over [begin, end] for a peer P (the pattern's
 * peer_loc): the sender of a Late Sender, the receiver of a Late Receiver,
 * the last to arrive at a barrier or an N x N collective, the root of a
 * late broadcast, the last lower rank of a scan, the holder of a lock, ...
 * Its end is when P released it, so [begin, end] on P is the delay P
 * caused. The rule (Scalasca splits the same time into short- and
 * long-term delay costs, Böhme et al. 2016; we classify each instance by
 * where most of its time went):
 *
 *   - PROPAGATED when P was itself in wait states for at least half of
 *     [begin, end] (the union of P's wait intervals clipped to it, so two
 *     wait states of one call are not counted twice): most of the cost is
 *     passed further back, as Scalasca's long-term cost would be. Its
 *     cause instance is P's wait state that overlaps [begin, end] most (ties:
 *     the one that ends later, then the higher id).
 *   - DIRECT otherwise: P was mostly doing something else - computing,
 *     I/O, MPI calls that did not wait - and the delay is its own.
 *
 * Following cause instances from a propagated wait state ends at a direct
 * one, the root instance; its peer is the root cause's location. The links
 * go back in time (a cause overlaps the wait it causes and starts no later
 * than it ends) but overlapping intervals could in principle loop: a loop
 * leaves its instances propagated with no root (root_instance NULL).
 *
 * The patterns (ids of the built-in catalogue) and why the others are not
 * wait states here:
 *   late_sender, late_sender_wrong_order (disjoint: Late Sender leaves out
 *   the instances Wrong Order takes), late_receiver, wait_at_barrier,
 *   wait_at_nxn, late_broadcast, early_reduce, early_scan, wait_at_finalize,
 *   wait_at_fence, wait_at_win_create, wait_at_win_free, lock_contention.
 *   Not: wrong_order (the same waits as late_sender_wrong_order), early_wait
 *   (the same calls as late_sender / late_receiver, judged against a model
 *   of the transfer), atomic_wait (a round trip to the target, which does
 *   not hold the origin up), close_send_recv, large_messages, the
 *   *_completion patterns and wait_inside_collective (no peer: time inside
 *   the collective after the release), the hot spots, the master-worker
 *   patterns (a summary per location, not an interval), the onecoll
 *   patterns (a relay's polling delay, not a wait for the parent).
 *   Users' patterns are not classified.
 *
 * Workload: ~550,000 wait states on the 10 M-event store. Per peer
 * location its wait intervals are sorted by begin with the running maximum
 * of their ends; a wait's overlapping intervals on its peer are found by a
 * binary search and a walk back that stops where that maximum falls below
 * the wait's begin (on one location waits hardly overlap, so the walk
 * visits the overlapping intervals and one more): O(n log n) in all, then
 * one pass that resolves the roots (each instance once).
 */
#include "config.h"

#include <stdlib.h>

#include "sextant-store-private.h"
#include "sextant-wait-causes.h"

static const char * const wait_state_patterns[] = {
  "late_sender", "late_sender_wrong_order", "late_receiver", "wait_at_barrier", "wait_at_nxn",
  "late_broadcast", "early_reduce", "early_scan", "wait_at_finalize", "wait_at_fence",
  "wait_at_win_create", "wait_at_win_free", "lock_contention",
};

/**
 * sextant_wait_causes_is_wait_state:
 * @pattern_id: a pattern's id
 *
 * Returns: whether the instances of @pattern_id are wait states (see the
 *   top of this file for the list and why)
 */
gboolean
sextant_wait_causes_is_wait_state (const char *pattern_id)
{
  for (guint i = 0; i < G_N_ELEMENTS (wait_state_patterns); i++)
    if (g_strcmp0 (pattern_id, wait_state_patterns[i]) == 0)
      return TRUE;

  return FALSE;
}

static gboolean
has_interval (const SextantWaitInterval *w)
{
  return w->begin != SEXTANT_NULL && w->end != SEXTANT_NULL && w->end > w->begin;
}

/* A wait interval in the index, where the waits are grouped by location
 * and sorted by begin within each location. */
typedef struct
{
  gint64 begin;
  gint64 end;
  gint64 instance;
  guint  wait;          /* its index in the waits */
} Entry;

/* The waits of one location: entries [first, last). */
typedef struct
{
  gint64 loc;
  guint  first;
  guint  last;
} Group;

typedef struct
{
  Entry  *entries;
  gint64 *max_end;      /* by entry: the largest end of its location's entries up to it */
  Group  *groups;       /* by loc */
  guint   n_groups;
} Index;

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const Entry *x = a, *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  return x->instance < y->instance ? -1 : x->instance > y->instance;
}

static int
compare_locs (gconstpointer a,
              gconstpointer b)
{
  gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;

  return x < y ? -1 : x > y;
}

/* Groups the waits by location (a counting sort over the locations, which
 * are few), then sorts each group by begin: small sorts of 32-byte records,
 * most of them nearly in order already. */
static void
index_build (Index                     *index,
             const SextantWaitInterval *waits,
             guint                      n_waits)
{
  g_autoptr(GHashTable) group_of = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) locs = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree guint *group = g_new (guint, MAX (n_waits, 1));
  g_autofree guint *fill = NULL;
  gint64 last_loc = 0;
  guint last_group = G_MAXUINT;

  for (guint i = 0; i < n_waits; i++)
    if (has_interval (&waits[i]) && !g_hash_table_contains (group_of, &waits[i].loc))
      {
        g_array_append_val (locs, waits[i].loc);
        g_hash_table_add (group_of, (gpointer)&waits[i].loc);
      }
  g_array_sort (locs, compare_locs);

  index->n_groups = locs->len;
  index->groups = g_new0 (Group, MAX (locs->len, 1));
  g_hash_table_remove_all (group_of);
  for (guint g = 0; g < locs->len; g++)
    {
      index->groups[g].loc = g_array_index (locs, gint64, g);
      g_hash_table_insert (group_of, &index->groups[g].loc, GUINT_TO_POINTER (g));
    }

  /* count, then place */
  for (guint i = 0; i < n_waits; i++)
    {
      group[i] = G_MAXUINT;
      if (!has_interval (&waits[i]))
        continue;
      if (last_group == G_MAXUINT || waits[i].loc != last_loc)
        {
          last_loc = waits[i].loc;
          last_group = GPOINTER_TO_UINT (g_hash_table_lookup (group_of, &last_loc));
        }
      group[i] = last_group;
      index->groups[last_group].last++;
    }
  fill = g_new (guint, MAX (locs->len, 1));
  for (guint g = 0, first = 0; g < locs->len; g++)
    {
      guint n = index->groups[g].last;

      index->groups[g].first = first;
      index->groups[g].last = first + n;
      fill[g] = first;
      first += n;
    }
  index->entries = g_new (Entry, MAX (n_waits, 1));
  index->max_end = g_new (gint64, MAX (n_waits, 1));
  for (guint i = 0; i < n_waits; i++)
    if (group[i] != G_MAXUINT)
      index->entries[fill[group[i]]++] = (Entry) { waits[i].begin, waits[i].end, waits[i].instance, i };

  for (guint g = 0; g < index->n_groups; g++)
    {
      Group *grp = &index->groups[g];

      qsort (index->entries + grp->first, grp->last - grp->first, sizeof (Entry), compare_entries);
      for (guint pos = grp->first; pos < grp->last; pos++)
        index->max_end[pos] = pos == grp->first ? index->entries[pos].end
                                                : MAX (index->max_end[pos - 1], index->entries[pos].end);
    }
}

static void
index_clear (Index *index)
{
  g_free (index->entries);
  g_free (index->max_end);
  g_free (index->groups);
}

static const Group *
find_group (const Index *index,
            gint64       loc)
{
  guint lo = 0, hi = index->n_groups;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (index->groups[mid].loc < loc)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo < index->n_groups && index->groups[lo].loc == loc ? &index->groups[lo] : NULL;
}

/* Judges one wait: the time of [begin, end] its peer spent in wait states
 * (the union of their overlaps), and the one that overlaps most (-1: none). */
static gint64
peer_waiting (const Index               *index,
              const SextantWaitInterval *w,
              guint                      self,
              gint                      *cause)
{
  const Group *group = find_group (index, w->peer);
  const Entry *best_entry = NULL;
  guint lo, hi;
  gint64 total = 0, cur_begin = 0, cur_end = 0, best = 0;
  gboolean open = FALSE;

  *cause = -1;
  if (group == NULL)
    return 0;

  /* the first entry of the group whose wait begins at or after end */
  lo = group->first;
  hi = group->last;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (index->entries[mid].begin < w->end)
        lo = mid + 1;
      else
        hi = mid;
    }

  /* back over the waits that begin before end, while one may still end
   * after begin; their clipped overlaps come by decreasing begin */
  for (guint pos = lo; pos > group->first && index->max_end[pos - 1] > w->begin; pos--)
    {
      const Entry *x = &index->entries[pos - 1];
      gint64 s = MAX (w->begin, x->begin);
      gint64 t = MIN (w->end, x->end);

      if (x->wait == self || t <= s)
        continue;

      if (t - s > best || (t - s == best && best_entry != NULL &&
                           (x->end > best_entry->end ||
                            (x->end == best_entry->end && x->instance > best_entry->instance))))
        {
          best = t - s;
          best_entry = x;
        }

      if (!open)
        {
          cur_begin = s;
          cur_end = t;
          open = TRUE;
        }
      else if (t >= cur_begin)
        {
          cur_begin = MIN (cur_begin, s);
          cur_end = MAX (cur_end, t);
        }
      else
        {
          total += cur_end - cur_begin;
          cur_begin = s;
          cur_end = t;
        }
    }
  if (open)
    total += cur_end - cur_begin;
  if (best_entry != NULL)
    *cause = (gint)best_entry->wait;

  return total;
}

/**
 * sextant_wait_causes_classify:
 * @waits: (array length=n_waits): the wait states of an analysis
 *
 * Judges every wait state (see the top of this file).
 *
 * Returns: (transfer full) (element-type SextantWaitState): one row per
 *   wait, in the order of @waits
 */
GArray *
sextant_wait_causes_classify (const SextantWaitInterval *waits,
                              guint                      n_waits)
{
  enum { UNSEEN, ON_PATH, DONE };
  GArray *states = g_array_sized_new (FALSE, FALSE, sizeof (SextantWaitState), n_waits);
  g_autofree gint *cause = g_new (gint, MAX (n_waits, 1));
  g_autofree guint8 *mark = g_new0 (guint8, MAX (n_waits, 1));
  g_autofree gint *root = g_new (gint, MAX (n_waits, 1));
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint));
  Index index;

  g_array_set_size (states, n_waits);
  index_build (&index, waits, n_waits);

  for (guint i = 0; i < n_waits; i++)
    {
      const SextantWaitInterval *w = &waits[i];
      SextantWaitState *state = &g_array_index (states, SextantWaitState, i);
      gint64 waited;

      state->instance = w->instance;
      state->cause = SEXTANT_WAIT_CAUSE_NONE;
      state->cause_instance = state->root_instance = state->root_loc = SEXTANT_NULL;
      cause[i] = -1;
      root[i] = -1;

      if (w->peer == SEXTANT_NULL || !has_interval (w))
        continue;
      /* a peer waiting at least half of the wait: propagated */
      waited = w->peer != w->loc ? peer_waiting (&index, w, i, &cause[i]) : 0;
      if (cause[i] >= 0 && 2 * waited >= w->end - w->begin)
        {
          state->cause = SEXTANT_WAIT_CAUSE_PROPAGATED;
          state->cause_instance = waits[cause[i]].instance;
        }
      else
        {
          state->cause = SEXTANT_WAIT_CAUSE_DIRECT;
          cause[i] = -1;
          root[i] = (gint)i;
          mark[i] = DONE;
        }
    }

  /* the roots: follow the causes until a direct wait (or one judged
   * before); a path that meets itself is a loop without a root */
  for (guint i = 0; i < n_waits; i++)
    {
      gint j = (gint)i;
      gint found;

      if (mark[i] == DONE || g_array_index (states, SextantWaitState, i).cause != SEXTANT_WAIT_CAUSE_PROPAGATED)
        continue;

      g_array_set_size (path, 0);
      while (j >= 0 && mark[j] == UNSEEN && cause[j] >= 0)
        {
          mark[j] = ON_PATH;
          g_array_append_val (path, j);
          j = cause[j];
        }
      /* j: done (its root is known), on this path (a loop), or a wait that
       * was not judged (no peer: no root) */
      found = j >= 0 && mark[j] == DONE ? root[j] : -1;
      for (guint k = 0; k < path->len; k++)
        {
          guint p = g_array_index (path, guint, k);

          root[p] = found;
          mark[p] = DONE;
        }
    }

  for (guint i = 0; i < n_waits; i++)
    {
      SextantWaitState *state = &g_array_index (states, SextantWaitState, i);

      if (state->cause != SEXTANT_WAIT_CAUSE_NONE && root[i] >= 0)
        {
          state->root_instance = waits[root[i]].instance;
          state->root_loc = waits[root[i]].peer;
        }
    }

  index_clear (&index);

  return states;
}

/**
 * sextant_wait_causes_write:
 * @waits: (element-type SextantWaitInterval): every wait state of the
 *   analysis, in any order (the analysis gives each pattern's instances in
 *   id order, consecutive ids: whole chunks)
 * @locations: (nullable): a set of location ids (gint64*): only the wait
 *   states of these locations are written (a shard of a parallel analysis
 *   judges every shard's wait states and writes its own); %NULL: all
 *
 * Judges @waits and writes the wait_state table, inside the analysis's
 * transaction.
 *
 * Threading: the store's owning thread.
 */
gboolean
sextant_wait_causes_write (SextantStore  *store,
                           GArray        *waits,
                           GHashTable    *locations,
                           GError       **error)
{
  g_autoptr(GArray) states = NULL;
  guint kept = 0;

  g_return_val_if_fail (SEXTANT_IS_STORE (store), FALSE);

  /* in the order of @waits: the rows of one pattern are consecutive ids
   * there, and the writer starts new chunks where the ids jump */
  states = sextant_wait_causes_classify ((const SextantWaitInterval *)(void *)waits->data, waits->len);
  for (guint i = 0; locations != NULL && i < states->len; i++)
    if (g_hash_table_contains (locations, &g_array_index (waits, SextantWaitInterval, i).loc))
      g_array_index (states, SextantWaitState, kept++) = g_array_index (states, SextantWaitState, i);
  if (locations != NULL)
    g_array_set_size (states, kept);

  return sextant_store_write_wait_states (store, (const SextantWaitState *)(void *)states->data, states->len,
                                          error);
}
