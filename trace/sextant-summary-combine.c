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
 * Most instances were written when they had this rank's members (the
 * matcher keeps none of them in memory): a block's summaries are read back
 * from their rows, and the rows updated with the combined summary, the
 * other ranks' members that were its root and the log of an incomplete or
 * disagreeing instance. The instances still open (waiting for a root from
 * another rank) are handed the combined summary in the matcher.
 */
#include "config.h"

#include <string.h>

#include "sextant-import-private.h"

/* instances per allreduce: a block takes 8.5 MiB, and 2.5 MiB of Row */
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

/* What the combine needs of an instance's row written with this rank's
 * members besides its summary */
typedef struct
{
  gint64  id;            /* SEXTANT_NULL: no row (an open instance, or none) */
  gint64  root;
  gint64  root_loc;
  gint64  op;
  gint64  expected;
} Row;

/* A block's instances, while they are read from their rows */
typedef struct
{
  GHashTable *names;     /* operation name -> OTF2_CollectiveOp + 1 */
  Combined   *block;
  Row        *rows;
  gint64      first_id;  /* of block[first] */
  guint       first;
  guint       n;
} Reading;

static gint64
row_int (const SextantRow *row,
         int               column)
{
  return sextant_row_is_null (row, column) ? SEXTANT_NULL : sextant_row_get_int (row, column);
}

/* A row of SEXTANT_QUERY_COLLECTIVES_OF_COMM into its place in the block */
static gboolean
read_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  Reading *reading = user_data;
  gint64 id = sextant_row_get_int (row, 0);
  guint i;
  Combined *element;

  gpointer op = g_hash_table_lookup (reading->names, sextant_row_get_text (row, 1));

  if (id < reading->first_id || (guint64)(id - reading->first_id) >= reading->n)
    return TRUE;
  i = reading->first + (guint)(id - reading->first_id);
  element = &reading->block[i];
  reading->rows[i] = (Row) {
    id, row_int (row, 2), row_int (row, 3), op != NULL ? GPOINTER_TO_INT (op) - 1 : 255, sextant_row_get_int (row, 5),
  };
  *element = (Combined) {
    sextant_row_get_int (row, 4), reading->rows[i].root, reading->rows[i].op, 0,
    {
      row_int (row, 6), row_int (row, 7), row_int (row, 8), row_int (row, 9), row_int (row, 10),
      row_int (row, 11), row_int (row, 12), row_int (row, 13), row_int (row, 14), row_int (row, 15),
      row_int (row, 16), row_int (row, 17), row_int (row, 18),
    },
  };

  return TRUE;
}

/* The operations by name (the rows' kinds), the lowest of a name */
static GHashTable *
ops_by_name (void)
{
  GHashTable *names = g_hash_table_new (g_str_hash, g_str_equal);

  for (gint op = 255; op >= 0; op--)
    g_hash_table_insert (names, (gpointer)sextant_otf2_collective_op_name ((OTF2_CollectiveOp)op),
                         GINT_TO_POINTER (op + 1));

  return names;
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

/* The row of instance @seq of @comm, written with this rank's members
 * (@own), with the combined summary @combined */
static gboolean
update_row (SextantImport   *import,
            const Row       *own,
            const Combined  *combined,
            gint64           comm,
            gint64           seq,
            const GArray    *candidates,
            GError         **error)
{
  SextantCollectiveMatcher *matcher = _sextant_matcher_get_collectives (import->matcher);
  SextantCollectiveBounds b = combined->bounds;
  const char *kind = sextant_otf2_collective_op_name ((OTF2_CollectiveOp)own->op);
  gint64 root = own->root;
  gint64 root_loc = own->root_loc;
  guint end;

  if (combined->ops_differ != 0 || combined->op != own->op)
    _sextant_import_log (import, "collective_mismatch", SEXTANT_NULL, b.begin,
                         "members of one collective instance disagree on its operation or root (%s vs %s)",
                         sextant_otf2_collective_op_name ((OTF2_CollectiveOp)combined->op), kind);
  if (root == SEXTANT_NULL && combined->root != SEXTANT_NULL)
    {
      root = combined->root;
      root_loc = _sextant_collective_matcher_root_location (matcher, comm, -1, root);
    }
  /* another rank's members that did not know they were the root */
  for (guint k = candidates_of (candidates, comm, seq, &end); k < end; k++)
    {
      const SextantRootCandidate *candidate = &g_array_index (candidates, SextantRootCandidate, k);

      if (root_loc != SEXTANT_NULL && candidate->loc == root_loc)
        sextant_collective_bounds_add_root (&b, candidate->enter);
    }
  if (combined->n_members != own->expected)
    _sextant_import_log (import, "incomplete_collective", SEXTANT_NULL, b.begin,
                         "a %s on communicator %" G_GINT64_FORMAT " has %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT
                         " members", kind, comm, combined->n_members, own->expected);

  return sextant_store_run (import->store, SEXTANT_STMT_COLLECTIVE_COMBINED, error, "innniiinnnnnnnnnn",
                            own->id, root, root_loc, combined->n_members, b.begin, b.end, b.first_loc,
                            b.last_enter, b.last_loc, b.first_leave, b.enter_min, b.enter_min2, b.leave_max,
                            b.leave_max2, b.root_enter, b.latest_begin, b.earliest_end);
}

/* The combined summaries of @block, whose instances @walk gives: the rows
 * written with this rank's members updated, the open instances handed
 * them in the matcher */
static gboolean
apply (SextantImport   *import,
       const Combined  *block,
       const Row       *rows,
       guint            n,
       Walk             walk,
       const GArray    *candidates,
       guint64         *counts,
       GError         **error)
{
  for (guint i = 0; i < n; i++, walk_next (&walk))
    {
      gint64 comm = g_array_index (walk.comms, gint64, walk.c);
      SextantCollectiveSummary summary;

      if (block[i].op < 0)
        continue;
      counts[rows[i].id != SEXTANT_NULL]++;
      if (rows[i].id != SEXTANT_NULL)
        {
          if (!update_row (import, &rows[i], &block[i], comm, walk.seq, candidates, error))
            return FALSE;
          continue;
        }
      summary = (SextantCollectiveSummary) {
        comm, walk.seq, block[i].n_members, block[i].root,
        sextant_otf2_collective_op_name ((OTF2_CollectiveOp)block[i].op), FALSE, block[i].bounds,
      };
      _sextant_collective_matcher_set_combined (_sextant_matcher_get_collectives (import->matcher), &summary,
                                                block[i].ops_differ != 0);
    }

  return TRUE;
}

/* The summary of this rank's members of open instance @seq of @comm, or
 * the identity (the rows written come after) */
static void
fill (SextantImport *import,
      GHashTable    *ops,
      gint64         comm,
      gint64         seq,
      Combined      *element,
      Row           *row)
{
  SextantCollectiveSummary summary;

  row->id = SEXTANT_NULL;
  if (!_sextant_collective_matcher_open_summary (_sextant_matcher_get_collectives (import->matcher), comm, seq,
                                                 &summary))
    {
      *element = (Combined) { 0, SEXTANT_NULL, -1, 0, { 0 } };
      sextant_collective_bounds_init (&element->bounds);
      return;
    }
  *element = (Combined) {
    summary.n_members, summary.root, _sextant_import_collective_op (ops, summary.kind), 0, summary.bounds,
  };
}

/* Into the block, the summaries of its instances written with this rank's
 * members, read back from their rows: a range of ids per communicator */
static gboolean
read_rows (SextantImport  *import,
           GHashTable     *names,
           Combined       *block,
           Row            *rows,
           guint           n,
           Walk            walk,
           GError        **error)
{
  for (guint i = 0; i < n;)
    {
      gint64 comm = g_array_index (walk.comms, gint64, walk.c);
      guint run = (guint)MIN ((gint64)(n - i), walk.ends[walk.c] - walk.seq);
      gint64 first_id = _sextant_collective_matcher_instance_id (comm, walk.seq);
      gint64 last_id = _sextant_collective_matcher_instance_id (comm, walk.seq + run - 1);
      Reading reading = { names, block, rows, first_id, i, run };

      if (first_id != SEXTANT_NULL && last_id != SEXTANT_NULL &&
          !sextant_store_foreach_prepared (import->store, SEXTANT_QUERY_COLLECTIVES_OF_COMM, read_row, &reading,
                                           error, "ii", first_id, last_id))
        return FALSE;
      i += run;
      for (guint k = 0; k < run; k++)
        walk_next (&walk);
    }

  return TRUE;
}

/* Allreduces the @n summaries of @block and applies them; @n is 0 after */
static gboolean
combine_block (SextantImport  *import,
               GHashTable     *names,
               Combined       *block,
               Row            *rows,
               guint          *n,
               Walk            walk,
               const GArray   *candidates,
               guint64        *counts,
               GError        **error)
{
  const SextantImportShare *share = import->share;
  gboolean ok = read_rows (import, names, block, rows, *n, walk, error);

  /* a rank that failed takes part all the same (the others wait for it),
   * with the identity */
  for (guint i = 0; !ok && i < *n; i++)
    {
      block[i] = (Combined) { 0, SEXTANT_NULL, -1, 0, { 0 } };
      sextant_collective_bounds_init (&block[i].bounds);
    }
  ok = share->allreduce (block, *n, sizeof (Combined), combine_summaries, share->user_data, ok ? error : NULL) && ok;
  ok = ok && apply (import, block, rows, *n, walk, candidates, counts, error);
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
  g_autofree Row *rows = NULL;
  g_autoptr(GHashTable) ops = NULL;
  g_autoptr(GHashTable) names = NULL;
  gboolean ok = TRUE;
  guint n = 0;
  guint64 counts[2] = { 0, 0 };   /* of this rank's instances: open, and written with its members */
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
  rows = g_new (Row, BLOCK);
  ops = _sextant_import_collective_ops ();
  names = ops_by_name ();
  /* every rank allreduces every block, one that failed too */
  for (guint c = 0; c < comms->len; c++)
    for (gint64 seq = 0; seq < ends[c]; seq++)
      {
        if (n == 0)
          walk = (Walk) { comms, ends, c, seq };
        fill (import, ops, g_array_index (comms, gint64, c), seq, &block[n], &rows[n]);
        n++;
        if (n == BLOCK)
          ok = combine_block (import, names, block, rows, &n, walk, candidates, counts, ok ? error : NULL) && ok;
      }
  if (n > 0)
    ok = combine_block (import, names, block, rows, &n, walk, candidates, counts, ok ? error : NULL) && ok;
  g_debug ("rank %u: %" G_GUINT64_FORMAT " collective instances between ranks combined into their rows, %"
           G_GUINT64_FORMAT " open ones", share->rank, counts[1], counts[0]);

  return ok;
}
