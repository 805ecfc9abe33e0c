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
 * with the merge of sextant-collective-bounds.h, and each rank hands the
 * combined summary of its instances to the matcher. A rank sends and
 * receives about 2 x 136 bytes per instance, however many ranks there are.
 */
#include "config.h"

#include <string.h>

#include "sextant-import-private.h"

/* instances per allreduce: a block takes 8.5 MiB */
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

/* The combined summaries of @block, the instances from @seq on of
 * @comms[@c] on, handed to the matcher */
static void
apply (SextantImport  *import,
       const Combined *block,
       guint           n,
       const GArray   *comms,
       const gint64   *ends,
       guint           c,
       gint64          seq)
{
  for (guint i = 0; i < n; i++, seq++)
    {
      SextantCollectiveSummary summary;

      while (seq >= ends[c])
        {
          c++;
          seq = 0;
        }
      if (block[i].op < 0)
        continue;
      summary = (SextantCollectiveSummary) {
        g_array_index (comms, gint64, c), seq, block[i].n_members, block[i].root,
        sextant_otf2_collective_op_name ((OTF2_CollectiveOp)block[i].op), FALSE, block[i].bounds,
      };
      _sextant_collective_matcher_set_combined (_sextant_matcher_get_collectives (import->matcher), &summary,
                                                block[i].ops_differ != 0);
    }
}

/* The summary of this rank's members of instance @seq of @comm, or the
 * identity */
static void
fill (SextantImport *import,
      GHashTable    *ops,
      gint64         comm,
      gint64         seq,
      Combined      *element)
{
  SextantCollectiveSummary summary;

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

/* Allreduces the @n summaries of @block and applies them; @n is 0 after */
static gboolean
combine_block (SextantImport  *import,
               Combined       *block,
               guint          *n,
               const GArray   *comms,
               const gint64   *ends,
               guint           first_c,
               gint64          first_seq,
               GError        **error)
{
  const SextantImportShare *share = import->share;

  if (!share->allreduce (block, *n, sizeof (Combined), combine_summaries, share->user_data, error))
    return FALSE;
  apply (import, block, *n, comms, ends, first_c, first_seq);
  *n = 0;

  return TRUE;
}

gboolean
_sextant_import_share_combine (SextantImport  *import,
                               GError        **error)
{
  const SextantImportShare *share = import->share;
  g_autoptr(GArray) comms = spanning_comms (import);
  g_autofree gint64 *ends = g_new0 (gint64, comms->len + 1);
  g_autofree Combined *block = NULL;
  g_autoptr(GHashTable) ops = NULL;
  guint n = 0;
  guint first_c = 0;
  gint64 first_seq = 0;

  if (comms->len == 0)
    return TRUE;
  for (guint c = 0; c < comms->len; c++)
    ends[c] = _sextant_collective_matcher_open_end (_sextant_matcher_get_collectives (import->matcher),
                                                    g_array_index (comms, gint64, c));
  if (!share->allreduce (ends, comms->len, sizeof (gint64), _sextant_import_share_combine_max, share->user_data,
                         error))
    return FALSE;
  ends[comms->len] = G_MAXINT64;   /* apply() stops before it */

  block = g_new (Combined, BLOCK);
  ops = _sextant_import_collective_ops ();
  for (guint c = 0; c < comms->len; c++)
    for (gint64 seq = 0; seq < ends[c]; seq++)
      {
        if (n == 0)
          {
            first_c = c;
            first_seq = seq;
          }
        fill (import, ops, g_array_index (comms, gint64, c), seq, &block[n++]);
        if (n == BLOCK && !combine_block (import, block, &n, comms, ends, first_c, first_seq, error))
          return FALSE;
      }
  if (n > 0 && !combine_block (import, block, &n, comms, ends, first_c, first_seq, error))
    return FALSE;

  return TRUE;
}
