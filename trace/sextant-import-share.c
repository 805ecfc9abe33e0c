/*
 * sextant-import-share.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A rank's share of a parallel import (see sextant-import-share.h): the
 * plan of the shares, the halves set aside while the events are read, and
 * their exchange.
 *
 * The exchange sends each half to the rank of its other end and back to
 * its own: a message's send and receive, then, reach both ranks, and every
 * member of a collective on a communicator that spans ranks reaches every
 * rank that holds one of its members. Both ranks match what they received
 * in the order of the ranks that sent it (each rank's halves in the order
 * its matcher met them), so the two shards write the same message and the
 * same instance.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "sextant-import-private.h"

typedef struct
{
  guint32  group;
  guint32  first;        /* its first location */
  guint64  weight;
  GArray  *locations;    /* guint32 */
} Process;

static void
process_clear (gpointer data)
{
  Process *process = data;

  g_clear_pointer (&process->locations, g_array_unref);
}

/* The events a location holds: as its definition announces, else (a
 * recorder that did not count them) the size of its event file. */
static guint64
location_weight (SextantImport            *import,
                 const SextantLocationDef *def)
{
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  GStatBuf st;

  if (def->n_events > 0)
    return def->n_events;
  name = g_strdup_printf ("%" G_GUINT64_FORMAT ".evt", def->otf2_id);
  path = g_build_filename (import->archive_dir, import->archive_name, name, NULL);
  if (g_stat (path, &st) == 0 && st.st_size > 0)
    return (guint64)st.st_size / 16;

  return 1;
}

void
_sextant_import_plan_share (SextantImport *import)
{
  const SextantImportShare *share = import->share;
  guint n = import->locations->len;
  g_autoptr(GArray) processes = g_array_new (FALSE, FALSE, sizeof (Process));
  g_autoptr(GHashTable) by_group = g_hash_table_new (NULL, NULL);   /* group + 1 -> process index + 1 */
  guint64 total = 0;
  guint64 before = 0;

  g_array_set_clear_func (processes, process_clear);
  import->share_owner = g_new (gint32, MAX (n, 1));
  import->share_locations = g_array_new (FALSE, FALSE, sizeof (guint32));
  import->share_halves = g_array_new (FALSE, FALSE, sizeof (SextantDeferredHalf));
  import->share_coll_halves = g_array_new (FALSE, FALSE, sizeof (SextantCollectiveHalf));
  import->share_comm_ranks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)g_array_unref);

  /* a process's threads stay together: MPI matches per process */
  for (guint32 l = 0; l < n; l++)
    {
      const SextantLocationDef *def = &g_array_index (import->locations, SextantLocationDef, l);
      gpointer key = GUINT_TO_POINTER (def->group + 1);
      guint index = def->group != G_MAXUINT32 ? GPOINTER_TO_UINT (g_hash_table_lookup (by_group, key)) : 0;
      guint64 weight = location_weight (import, def);
      Process *process;

      if (index == 0)
        {
          Process fresh = { def->group, l, 0, g_array_new (FALSE, FALSE, sizeof (guint32)) };

          g_array_append_val (processes, fresh);
          index = processes->len;
          if (def->group != G_MAXUINT32)
            g_hash_table_insert (by_group, key, GUINT_TO_POINTER (index));
        }
      process = &g_array_index (processes, Process, index - 1);
      process->weight += weight;
      total += weight;
      g_array_append_val (process->locations, l);
    }

  /* In location order, cut into runs of about equal weight: a process goes
   * to the rank whose part of the total holds its middle. Neighbours in
   * rank order mostly share a rank, so fewer messages cross ranks than
   * with processes dealt out by size (the 64-rank, 2 M-event stencil of
   * bench/parallel-import sent 2.2x fewer bytes on 2 ranks, 1.8x on 4),
   * and the shares are within one process of equal. */
  for (guint p = 0; p < processes->len; p++)
    {
      const Process *process = &g_array_index (processes, Process, p);
      double middle = (before + process->weight / 2.0) / (double)MAX (total, 1);
      guint rank = MIN ((guint)(middle * share->n_ranks), share->n_ranks - 1);

      before += process->weight;
      for (guint i = 0; i < process->locations->len; i++)
        import->share_owner[g_array_index (process->locations, guint32, i)] = (gint32)rank;
    }

  for (guint32 l = 0; l < n && !share->definitions_only; l++)
    if ((guint)import->share_owner[l] == share->rank)
      g_array_append_val (import->share_locations, l);
}

void
_sextant_import_share_clear (SextantImport *import)
{
  g_clear_pointer (&import->share_owner, g_free);
  g_clear_pointer (&import->share_locations, g_array_unref);
  g_clear_pointer (&import->share_halves, g_array_unref);
  g_clear_pointer (&import->share_coll_halves, g_array_unref);
  g_clear_pointer (&import->share_comm_ranks, g_hash_table_unref);
}

static gboolean
is_remote (SextantImport *import,
           gint64         loc)
{
  return loc >= 0 && (guint64)loc < import->locations->len &&
         (guint)import->share_owner[loc] != import->share->rank;
}

gboolean
_sextant_import_share_takes_half (SextantImport             *import,
                                  const SextantDeferredHalf *half)
{
  if (import->share_exchanged || !is_remote (import, half->is_recv ? half->half.src : half->half.dst))
    return FALSE;

  g_array_append_val (import->share_halves, *half);
  return TRUE;
}

/* The ranks that hold members of @comm, ascending; empty when that is this
 * rank alone */
static GArray *
comm_ranks (SextantImport *import,
            gint64         comm)
{
  GArray *ranks = g_hash_table_lookup (import->share_comm_ranks, GINT_TO_POINTER ((gint)comm));
  const SextantCommDef *def;
  g_autofree guint8 *holds = NULL;
  gboolean others = FALSE;

  if (ranks != NULL)
    return ranks;

  ranks = g_array_new (FALSE, FALSE, sizeof (guint32));
  def = comm >= 0 ? _sextant_import_get_comm (import, (OTF2_CommRef)comm) : NULL;
  holds = g_new0 (guint8, import->share->n_ranks);
  for (guint r = 0; def != NULL && !def->is_self && def->rank_loc != NULL && r < def->rank_loc->len; r++)
    {
      gint32 loc = g_array_index (def->rank_loc, gint32, r);

      if (loc >= 0 && (guint)loc < import->locations->len)
        {
          holds[import->share_owner[loc]] = TRUE;
          others |= is_remote (import, loc);
        }
    }
  for (guint32 r = 0; others && r < import->share->n_ranks; r++)
    if (holds[r] || r == import->share->rank)
      g_array_append_val (ranks, r);
  g_hash_table_insert (import->share_comm_ranks, GINT_TO_POINTER ((gint)comm), ranks);

  return ranks;
}

gboolean
_sextant_import_share_takes_collective (SextantImport               *import,
                                        const SextantCollectiveHalf *half)
{
  if (import->share_exchanged || half->owner >= 0 || comm_ranks (import, half->comm)->len == 0)
    return FALSE;

  g_array_append_val (import->share_coll_halves, *half);
  return TRUE;
}

/* On the wire: the counts, then the message halves as they are, then the
 * collective members with their operation's number for its name. */
typedef struct
{
  guint64  n_halves;
  guint64  n_members;
} WireHeader;

typedef struct
{
  SextantCollectiveHalf  half;   /* kind: NULL */
  gint64                 op;     /* OTF2_CollectiveOp */
} WireMember;

static gint64
collective_op (const char *kind)
{
  for (gint64 op = 0; op < 256; op++)
    if (g_strcmp0 (sextant_otf2_collective_op_name ((OTF2_CollectiveOp)op), kind) == 0)
      return op;

  return 255;
}

static GBytes *
pack (const GArray *halves,
      const GArray *members)
{
  WireHeader header = { halves->len, members->len };
  GByteArray *bytes = g_byte_array_sized_new (sizeof header + halves->len * sizeof (SextantDeferredHalf) +
                                              members->len * sizeof (WireMember));

  g_byte_array_append (bytes, (const guint8 *)&header, sizeof header);
  if (halves->len > 0)
    g_byte_array_append (bytes, (const guint8 *)halves->data, halves->len * sizeof (SextantDeferredHalf));
  for (guint i = 0; i < members->len; i++)
    {
      WireMember member = { g_array_index (members, SextantCollectiveHalf, i), 0 };

      member.op = collective_op (member.half.kind);
      member.half.kind = NULL;
      g_byte_array_append (bytes, (const guint8 *)&member, sizeof member);
    }

  return g_byte_array_free_to_bytes (bytes);
}

static gboolean
unpack (GBytes   *bytes,
        guint     rank,
        GArray   *halves,
        GArray   *members,
        GError  **error)
{
  gsize size = 0;
  const guint8 *data = bytes != NULL ? g_bytes_get_data (bytes, &size) : NULL;
  WireHeader header = { 0, 0 };

  if (size >= sizeof header)
    memcpy (&header, data, sizeof header);
  if (size < sizeof header ||
      header.n_halves > (size - sizeof header) / sizeof (SextantDeferredHalf) ||
      size != sizeof header + header.n_halves * sizeof (SextantDeferredHalf) + header.n_members * sizeof (WireMember))
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                   "the halves of messages that rank %u sent are damaged (%" G_GSIZE_FORMAT " bytes)", rank, size);
      return FALSE;
    }
  data += sizeof header;
  g_array_append_vals (halves, data, (guint)header.n_halves);
  data += header.n_halves * sizeof (SextantDeferredHalf);
  for (guint64 i = 0; i < header.n_members; i++)
    {
      WireMember member;

      memcpy (&member, data + i * sizeof member, sizeof member);
      member.half.kind = sextant_otf2_collective_op_name ((OTF2_CollectiveOp)member.op);
      g_array_append_val (members, member.half);
    }

  return TRUE;
}

/* The matcher takes the halves a location at a time: those of each
 * location, in the order they came, after noting them all. */
static gboolean
match_received (SextantImport  *import,
                GArray         *halves,
                GArray         *members,
                GError        **error)
{
  g_autoptr(GPtrArray) by_loc = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  g_autoptr(GHashTable) index = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; i < halves->len; i++)
    {
      SextantDeferredHalf *half = &g_array_index (halves, SextantDeferredHalf, i);
      GArray *group = g_hash_table_lookup (index, &half->half.loc);

      if (group == NULL)
        {
          group = g_array_new (FALSE, FALSE, sizeof (SextantDeferredHalf));
          g_ptr_array_add (by_loc, group);
          g_hash_table_insert (index, &half->half.loc, group);
        }
      g_array_append_val (group, *half);
    }

  for (guint i = 0; i < by_loc->len; i++)
    _sextant_matcher_note_halves (import->matcher, g_ptr_array_index (by_loc, i));
  for (guint i = 0; i < by_loc->len; i++)
    if (!_sextant_matcher_add_deferred (import->matcher, g_ptr_array_index (by_loc, i), NULL, error))
      return FALSE;

  _sextant_matcher_note_collectives (import->matcher, members);
  return _sextant_matcher_add_deferred (import->matcher, NULL, members, error);
}

gboolean
_sextant_import_share_exchange (SextantImport  *import,
                                GError        **error)
{
  const SextantImportShare *share = import->share;
  guint n_ranks = share->n_ranks;
  g_autoptr(GPtrArray) out_halves = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  g_autoptr(GPtrArray) out_members = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  g_autofree GBytes **out = g_new0 (GBytes *, MAX (n_ranks, 1));
  g_autofree GBytes **in = g_new0 (GBytes *, MAX (n_ranks, 1));
  g_autoptr(GArray) halves = g_array_new (FALSE, FALSE, sizeof (SextantDeferredHalf));
  g_autoptr(GArray) members = g_array_new (FALSE, FALSE, sizeof (SextantCollectiveHalf));
  gboolean ok;

  if (share->definitions_only)
    return TRUE;

  for (guint r = 0; r < n_ranks; r++)
    {
      g_ptr_array_add (out_halves, g_array_new (FALSE, FALSE, sizeof (SextantDeferredHalf)));
      g_ptr_array_add (out_members, g_array_new (FALSE, FALSE, sizeof (SextantCollectiveHalf)));
    }

  /* a half to the rank of its other end and back to this one */
  for (guint i = 0; i < import->share_halves->len; i++)
    {
      const SextantDeferredHalf *half = &g_array_index (import->share_halves, SextantDeferredHalf, i);
      gint64 other = half->is_recv ? half->half.src : half->half.dst;

      g_array_append_val (g_ptr_array_index (out_halves, import->share_owner[other]), *half);
      g_array_append_val (g_ptr_array_index (out_halves, share->rank), *half);
    }
  /* a member to every rank with members of its communicator */
  for (guint i = 0; i < import->share_coll_halves->len; i++)
    {
      const SextantCollectiveHalf *member = &g_array_index (import->share_coll_halves, SextantCollectiveHalf, i);
      GArray *ranks = comm_ranks (import, member->comm);

      for (guint k = 0; k < ranks->len; k++)
        g_array_append_val (g_ptr_array_index (out_members, g_array_index (ranks, guint32, k)), *member);
    }
  g_debug ("rank %u sends %u message halves and %u collective members to other ranks", share->rank,
           import->share_halves->len, import->share_coll_halves->len);
  g_array_set_size (import->share_halves, 0);
  g_array_set_size (import->share_coll_halves, 0);

  for (guint r = 0; r < n_ranks; r++)
    out[r] = pack (g_ptr_array_index (out_halves, r), g_ptr_array_index (out_members, r));
  ok = share->exchange (out, in, share->user_data, error);
  for (guint r = 0; ok && r < n_ranks; r++)
    ok = unpack (in[r], r, halves, members, error);
  for (guint r = 0; r < n_ranks; r++)
    {
      g_clear_pointer (&out[r], g_bytes_unref);
      g_clear_pointer (&in[r], g_bytes_unref);
    }
  if (!ok)
    return FALSE;

  import->share_exchanged = TRUE;
  return match_received (import, halves, members, error);
}
