/*
 * sextant-summary-combine.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The summaries of a parallel import's collective instances combined by
 * allreduces (sextant-import-share.h): every rank lays out the same array,
 * the instances of the communicators that span ranks, communicators in id
 * order and each one's instances in sequence order, as many as the rank
 * with the most has (an allreduce MAX of each one's count). A rank fills
 * the summaries of the instances it has members of, and the identity (no
 * member) elsewhere; the array is allreduced in blocks of BLOCK instances
 * with the merge of sextant-collective-bounds.h. A rank sends and receives
 * about 2 x 136 bytes per instance, however many ranks there are.
 *
 * Most instances left the matcher's memory when they had this rank's
 * members (their summaries went to its spill, in the order of their
 * numbers): they are read back in the order of the layout, and their rows
 * written with the combined summary, the other ranks' members that were
 * their root and the log of an incomplete or disagreeing instance. The
 * instances still open (waiting for a root from another rank, say) are
 * handed the combined summary in the matcher, which writes them at the
 * end.
 */
#include "config.h"

#include <string.h>

#include "sextant-import-private.h"

/* instances per allreduce: a block takes 8.5 MiB, and 11 MiB of
 * Spilled */
#define BLOCK (64 * 1024)

/* One instance's summary as the allreduce combines it */
typedef struct
{
  gint64                   n_members;
  gint64                   root;         /* SEXTANT_NULL: no member named it */
  gint64                   op;           /* OTF2_CollectiveOp, -1: no member (the identity) */
  gint64                   ops_differ;   /* members named different operations */
  SextantCollectiveBounds  bounds;
} Combined;

static void
combine_summaries (gpointer      inout,
                   gconstpointer in,
                   gsize         count)
{
  Combined *into = inout;
  const Combined *from = in;

  for (gsize i = 0; i < count; i++)
    {
      if (from[i].op < 0)
        continue;
      if (into[i].op < 0)
        {
          into[i] = from[i];
          continue;
        }
      into[i].n_members += from[i].n_members;
      /* the lowest root and operation of several: the same on every rank */
      if (into[i].root == SEXTANT_NULL || (from[i].root != SEXTANT_NULL && from[i].root < into[i].root))
        into[i].root = from[i].root;
      into[i].ops_differ |= from[i].ops_differ | (from[i].op != into[i].op);
      into[i].op = MIN (into[i].op, from[i].op);
      sextant_collective_bounds_merge (&into[i].bounds, &from[i].bounds);
    }
}

/* A SextantShareCombine of gint64: the greatest */
void
_sextant_import_share_combine_max (gpointer      inout,
                                   gconstpointer in,
                                   gsize         count)
{
  gint64 *into = inout;
  const gint64 *from = in;

  for (gsize i = 0; i < count; i++)
    into[i] = MAX (into[i], from[i]);
}

/* Whether the members of @def are on several ranks: the same answer on
 * every rank */
static gboolean
spans_ranks (SextantImport        *import,
             const SextantCommDef *def)
{
  gint32 first = -1;

  for (guint r = 0; !def->is_self && def->rank_loc != NULL && r < def->rank_loc->len; r++)
    {
      gint32 loc = g_array_index (def->rank_loc, gint32, r);

      if (loc < 0 || (guint)loc >= import->locations->len)
        continue;
      if (first < 0)
        first = import->share_owner[loc];
      else if (import->share_owner[loc] != first)
        return TRUE;
    }

  return FALSE;
}

/* The communicators that span ranks, in id order */
static GArray *
spanning_comms (SextantImport *import)
{
  GArray *comms = g_array_new (FALSE, FALSE, sizeof (gint64));
  GHashTableIter iter;
  gpointer key;
  gpointer value;

  g_hash_table_iter_init (&iter, import->comms);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (spans_ranks (import, value))
      {
        gint64 comm = (gint64)GPOINTER_TO_UINT (key);

        g_array_append_val (comms, comm);
      }
  g_array_sort (comms, _sextant_compare_int64);

  return comms;
}

/* The instances of a block, @n from @seq of @comms[@c] on: where the
 * instance @i is, its communicator and number */
typedef struct
{
  const GArray *comms;
  const gint64 *ends;
  guint         c;
  gint64        seq;
} Walk;

static void
walk_next (Walk *walk)
{
  walk->seq++;
  while (walk->seq >= walk->ends[walk->c])
    {
      walk->c++;
      walk->seq = 0;
    }
}

/* The root candidates of (@comm, @seq) in @candidates (sorted): the first
 * index, and *@end past the last */
static guint
candidates_of (const GArray *candidates,
               gint64        comm,
               gint64        seq,
               guint        *end)
{
  guint lo = 0, hi = candidates != NULL ? candidates->len : 0;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const SextantRootCandidate *m = &g_array_index (candidates, SextantRootCandidate, mid);

      if (m->comm < comm || (m->comm == comm && m->seq < seq))
        lo = mid + 1;
      else
        hi = mid;
    }
  for (*end = lo; candidates != NULL && *end < candidates->len; (*end)++)
    {
      const SextantRootCandidate *m = &g_array_index (candidates, SextantRootCandidate, *end);

      if (m->comm != comm || m->seq != seq)
        break;
    }

  return lo;
}

/* One instance of a block, where it left memory with this rank's members */
typedef struct
{
  gboolean                valid;
  SextantSpilledInstance  own;
} Spilled;

/* The combined summaries of @block, whose instances @walk gives: the rows
 * of those that left memory written, the open instances handed them in
 * the matcher */
static gboolean
apply (SextantImport   *import,
       const Combined  *block,
       Spilled         *spilled,
       guint            n,
       Walk             walk,
       const GArray    *candidates,
       guint64         *counts,
       GError         **error)
{
  SextantCollectiveMatcher *matcher = _sextant_matcher_get_collectives (import->matcher);

  for (guint i = 0; i < n; i++, walk_next (&walk))
    {
      gint64 comm = g_array_index (walk.comms, gint64, walk.c);
      SextantCollectiveSummary summary;
      guint first, end;

      if (block[i].op < 0)
        continue;
      counts[spilled[i].valid]++;
      summary = (SextantCollectiveSummary) {
        comm, walk.seq, block[i].n_members, block[i].root,
        sextant_otf2_collective_op_name ((OTF2_CollectiveOp)block[i].op), FALSE, block[i].bounds,
      };
      if (!spilled[i].valid)
        {
          _sextant_collective_matcher_set_combined (matcher, &summary, block[i].ops_differ != 0);
          continue;
        }
      /* left memory with this rank's members: its row now, with the other
       * ranks' members that may be its root */
      first = candidates_of (candidates, comm, walk.seq, &end);
      if (!_sextant_collective_matcher_write_spilled (matcher, comm, &spilled[i].own, &summary,
                                                      block[i].ops_differ != 0,
                                                      end > first ? &g_array_index (candidates, SextantRootCandidate,
                                                                                    first) : NULL,
                                                      end - first, error))
        return FALSE;
    }

  return TRUE;
}

/* No member here */
static void
fill_identity (Combined *element,
               Spilled  *spilled)
{
  spilled->valid = FALSE;
  *element = (Combined) { 0, SEXTANT_NULL, -1, 0, { 0 } };
  sextant_collective_bounds_init (&element->bounds);
}

/* The summary of this rank's members of instance @seq of @comm, open or
 * spilled, or the identity; FALSE if the spill could not be read */
static gboolean
fill (SextantImport  *import,
      GHashTable     *ops,
      gint64          comm,
      gint64          seq,
      Combined       *element,
      Spilled        *spilled,
      GError        **error)
{
  SextantCollectiveMatcher *matcher = _sextant_matcher_get_collectives (import->matcher);
  SextantCollectiveSummary summary;
  GError *local_error = NULL;

  if (_sextant_collective_matcher_open_summary (matcher, comm, seq, &summary))
    {
      *element = (Combined) {
        summary.n_members, summary.root, _sextant_import_collective_op (ops, summary.kind), 0, summary.bounds,
      };
      spilled->valid = FALSE;
      return TRUE;
    }
  if (_sextant_collective_matcher_spilled (matcher, comm, seq, &spilled->own, &local_error))
    {
      spilled->valid = TRUE;
      *element = (Combined) {
        spilled->own.n_members, spilled->own.root, _sextant_import_collective_op (ops, spilled->own.kind), 0,
        spilled->own.bounds,
      };
      return TRUE;
    }
  fill_identity (element, spilled);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }

  return TRUE;
}

/* Allreduces the @n summaries of @block and applies them (not if @ok is
 * FALSE: the rank takes part all the same); @n is 0 after */
static gboolean
combine_block (SextantImport  *import,
               Combined       *block,
               Spilled        *spilled,
               guint          *n,
               Walk            walk,
               const GArray   *candidates,
               guint64        *counts,
               gboolean        ok,
               GError        **error)
{
  const SextantImportShare *share = import->share;

  ok = share->allreduce (block, *n, sizeof (Combined), combine_summaries, share->user_data, ok ? error : NULL) && ok;
  ok = ok && apply (import, block, spilled, *n, walk, candidates, counts, error);
  *n = 0;

  return ok;
}

gboolean
_sextant_import_share_combine (SextantImport  *import,
                               const GArray   *candidates,
                               GError        **error)
{
  const SextantImportShare *share = import->share;
  g_autoptr(GArray) comms = spanning_comms (import);
  g_autofree gint64 *ends = g_new0 (gint64, comms->len + 1);
  g_autofree Combined *block = NULL;
  g_autofree Spilled *spilled = NULL;
  g_autoptr(GHashTable) ops = NULL;
  gboolean ok = TRUE;
  guint n = 0;
  guint64 counts[2] = { 0, 0 };   /* of this rank's instances: open, and spilled */
  Walk walk = { comms, ends, 0, 0 };

  if (comms->len == 0)
    return TRUE;
  for (guint c = 0; c < comms->len; c++)
    ends[c] = _sextant_collective_matcher_open_end (_sextant_matcher_get_collectives (import->matcher),
                                                    g_array_index (comms, gint64, c));
  if (!share->allreduce (ends, comms->len, sizeof (gint64), _sextant_import_share_combine_max, share->user_data,
                         error))
    return FALSE;
  ends[comms->len] = G_MAXINT64;   /* walk_next() stops before it */

  block = g_new (Combined, BLOCK);
  spilled = g_new (Spilled, BLOCK);
  ops = _sextant_import_collective_ops ();
  /* every rank allreduces every block, one that failed too (with the
   * identity from then on) */
  for (guint c = 0; c < comms->len; c++)
    for (gint64 seq = 0; seq < ends[c]; seq++)
      {
        if (n == 0)
          walk = (Walk) { comms, ends, c, seq };
        if (ok)
          ok = fill (import, ops, g_array_index (comms, gint64, c), seq, &block[n], &spilled[n], error);
        else
          fill_identity (&block[n], &spilled[n]);
        n++;
        if (n == BLOCK)
          ok = combine_block (import, block, spilled, &n, walk, candidates, counts, ok, error);
      }
  if (n > 0)
    ok = combine_block (import, block, spilled, &n, walk, candidates, counts, ok, error);
  g_debug ("rank %u: %" G_GUINT64_FORMAT " collective instances between ranks combined from the spill, %"
           G_GUINT64_FORMAT " open ones", share->rank, counts[1], counts[0]);

  return ok;
}
