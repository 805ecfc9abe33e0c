/*
 * sextant-import-share.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A rank's share of a parallel import (see sextant-import-share.h): the
 * plan of the shares, the halves set aside while the events are read, and
 * their exchange.
 *
 * The exchange sends each half to the rank of its other end, and its own
 * rank keeps it: a message's send and receive, then, reach both ranks.
 * Both ranks match what they have in the order of the ranks that set it
 * aside (each rank's halves in the order its matcher met them), so the two
 * shards write the same message. A collective on a communicator that
 * spans ranks is matched on each rank with the members it has, and only
 * the summary of each instance (its member count, root, operation and
 * bounds, sextant-collective-bounds.h) crosses ranks: allreduces combine
 * the summaries of every instance on such communicators, and each rank
 * takes the combined summary of those it has members of. A shard writes
 * its own members and the rows of the instances it has members of, with
 * the whole instance's bounds. A member that may be the root of an
 * instance none of its rank's members named the root of (an
 * inter-communicator's) goes to the other ranks with members of the
 * communicator in the exchange. The members of SCAN and EXSCAN still go to every such
 * rank (their rule compares a member with every lower rank's,
 * patterns/sql/early_scan.sql), and their instances are written whole.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "sextant-half-wire.h"
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
  /* SEXTANT_SHARE_CYCLIC deals the processes out one by one instead, so
   * that neighbours cross ranks: what a message between ranks costs is
   * measured with it (bench/parallel-import/crossing.sh) */
  gboolean cyclic = g_getenv ("SEXTANT_SHARE_CYCLIC") != NULL;

  g_array_set_clear_func (processes, process_clear);
  import->share_owner = g_new (gint32, MAX (n, 1));
  import->share_locations = g_array_new (FALSE, FALSE, sizeof (guint32));
  import->share_halves = sextant_share_spill_new (share->n_ranks, SEXTANT_HALF_WIRE_BYTES,
                                                  _sextant_import_share_block_bytes (), share->spill_path);
  import->share_half_locs = g_hash_table_new (NULL, NULL);
  import->share_last_loc = g_new (gint64, MAX (share->n_ranks, 1));
  for (guint r = 0; r < share->n_ranks; r++)
    import->share_last_loc[r] = -1;
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
      guint rank = cyclic ? p % share->n_ranks : MIN ((guint)(middle * share->n_ranks), share->n_ranks - 1);

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
  g_clear_pointer (&import->share_halves, sextant_share_spill_free);
  g_clear_pointer (&import->share_half_locs, g_hash_table_unref);
  g_clear_pointer (&import->share_last_loc, g_free);
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

/* The rank of the other end of a half set aside */
static guint
other_rank (SextantImport             *import,
            const SextantDeferredHalf *half)
{
  return (guint)import->share_owner[half->is_recv ? half->half.src : half->half.dst];
}

gboolean
_sextant_import_share_takes_half (SextantImport             *import,
                                  const SextantDeferredHalf *half,
                                  gboolean                  *ok,
                                  GError                   **error)
{
  guint8 records[2 * SEXTANT_HALF_WIRE_BYTES];
  guint to;
  guint n;

  if (import->share_exchanged || !is_remote (import, half->is_recv ? half->half.src : half->half.dst))
    return FALSE;

  /* the locations with halves to each rank, which it notes before it
   * matches any (a process's threads are matched together) */
  to = other_rank (import, half);
  if (import->share_last_loc[to] != half->half.loc)
    {
      import->share_last_loc[to] = half->half.loc;
      g_hash_table_add (import->share_half_locs,
                        GSIZE_TO_POINTER ((gsize)half->half.loc * import->share->n_ranks + to + 1));
    }
  /* its records (sextant-half-wire.h) straight to the stream */
  n = sextant_half_wire_encode (half, records);
  import->share_n_halves++;
  *ok = sextant_share_spill_add (import->share_halves, to, records, error) &&
        (n == 1 || sextant_share_spill_add (import->share_halves, to, records + SEXTANT_HALF_WIRE_BYTES, error));

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

/* Whether @comm's members are on several ranks */
static gboolean
spans_ranks (SextantImport *import,
             gint64         comm)
{
  return comm_ranks (import, comm)->len > 0;
}

/* Whether a member of @kind goes to the other ranks: the rule of SCAN and
 * EXSCAN reads every lower rank's member */
static gboolean
exchanged_whole (const char *kind)
{
  return g_strcmp0 (kind, "SCAN") == 0 || g_strcmp0 (kind, "EXSCAN") == 0;
}

gboolean
_sextant_import_share_takes_collective (SextantImport               *import,
                                        const SextantCollectiveHalf *half)
{
  if (import->share_exchanged || half->owner >= 0 || !exchanged_whole (half->kind) ||
      !spans_ranks (import, half->comm))
    return FALSE;

  g_array_append_val (import->share_coll_halves, *half);
  return TRUE;
}

/* On the wire, in the first exchange, each rank's part: the counts, then
 * the locations that have halves to the rank (it notes them before it
 * matches any), then the collective members with their operation's number
 * for its name, then the members that may be their instance's root. The
 * halves follow in blocks (exchange_halves()): a half on the wire is one or
 * two records of sextant-half-wire.h, which the rank it goes to decodes
 * where it received them, a few at a time, as it matches them. */
typedef struct
{
  guint64  n_halves;     /* records of halves */
  guint64  n_locations;
  guint64  n_members;
  guint64  n_candidates;
} WireHeader;

typedef struct
{
  SextantCollectiveHalf  half;   /* kind: NULL */
  gint64                 op;     /* OTF2_CollectiveOp */
} WireMember;

static gsize
part_size (const WireHeader *header)
{
  return sizeof *header + header->n_locations * sizeof (guint32) + header->n_members * sizeof (WireMember) +
         header->n_candidates * sizeof (SextantRootCandidate);
}

/* The operations by the address of their names (static strings, which
 * the members' kinds are), the lowest operation of a name first */
GHashTable *
_sextant_import_collective_ops (void)
{
  GHashTable *ops = g_hash_table_new (NULL, NULL);

  for (gint op = 255; op >= 0; op--)
    g_hash_table_insert (ops, (gpointer)sextant_otf2_collective_op_name ((OTF2_CollectiveOp)op), GINT_TO_POINTER (op));

  return ops;
}

gint64
_sextant_import_collective_op (GHashTable *ops,
               const char *kind)
{
  gpointer op = NULL;

  if (g_hash_table_lookup_extended (ops, kind, NULL, &op))
    return GPOINTER_TO_INT (op);
  for (gint64 named = 0; named < 256; named++)
    if (g_strcmp0 (sextant_otf2_collective_op_name ((OTF2_CollectiveOp)named), kind) == 0)
      return named;

  return 255;
}

/* One more record for every rank with members of @comm: the count at
 * @field of each one's header */
static void
count_to_comm (SextantImport *import,
               gint64         comm,
               WireHeader    *headers,
               gsize          field)
{
  GArray *ranks = comm_ranks (import, comm);

  for (guint k = 0; k < ranks->len; k++)
    G_STRUCT_MEMBER (guint64, &headers[g_array_index (ranks, guint32, k)], field)++;
}

/* @record to every other rank with members of @comm, at @at[r] in @buffer */
static void
send_to_comm (SextantImport *import,
              gint64         comm,
              guint8        *buffer,
              gsize         *at,
              gconstpointer  record,
              gsize          size)
{
  GArray *ranks = comm_ranks (import, comm);

  for (guint k = 0; k < ranks->len; k++)
    {
      guint r = g_array_index (ranks, guint32, k);

      if (r == import->share->rank)
        continue;
      memcpy (buffer + at[r], record, size);
      at[r] += size;
    }
}

/* Every other rank's part of the first exchange into one buffer, @out[r]
 * the part of rank r: the count of the halves to it and the locations they
 * are of, a member and a candidate root (SextantRootCandidate) to every
 * rank with members of its communicator. This rank's own part is empty:
 * what it set aside stays where it is, and the exchange takes it from
 * there. */
static void
pack (SextantImport  *import,
      GArray         *candidates,
      GBytes        **out)
{
  const SextantImportShare *share = import->share;
  guint n_ranks = share->n_ranks;
  g_autofree WireHeader *headers = g_new0 (WireHeader, n_ranks);
  g_autofree gsize *at = g_new (gsize, n_ranks);
  g_autofree gsize *locations_at = g_new (gsize, n_ranks);
  g_autofree gsize *members_at = g_new (gsize, n_ranks);
  g_autofree gsize *candidates_at = g_new (gsize, n_ranks);
  g_autoptr(GHashTable) ops = _sextant_import_collective_ops ();
  g_autoptr(GBytes) all = NULL;
  GHashTableIter iter;
  gpointer key;
  gsize total = 0;
  guint8 *buffer;

  for (guint r = 0; r < n_ranks; r++)
    headers[r].n_halves = sextant_share_spill_count (import->share_halves, r);
  g_hash_table_iter_init (&iter, import->share_half_locs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    headers[(GPOINTER_TO_SIZE (key) - 1) % n_ranks].n_locations++;
  for (guint i = 0; i < import->share_coll_halves->len; i++)
    count_to_comm (import, g_array_index (import->share_coll_halves, SextantCollectiveHalf, i).comm, headers,
                   G_STRUCT_OFFSET (WireHeader, n_members));
  for (guint i = 0; i < candidates->len; i++)
    count_to_comm (import, g_array_index (candidates, SextantRootCandidate, i).comm, headers,
                   G_STRUCT_OFFSET (WireHeader, n_candidates));
  headers[share->rank] = (WireHeader) { 0, 0, 0, 0 };
  for (guint r = 0; r < n_ranks; r++)
    {
      at[r] = total;
      locations_at[r] = total + sizeof (WireHeader);
      members_at[r] = locations_at[r] + headers[r].n_locations * sizeof (guint32);
      candidates_at[r] = members_at[r] + headers[r].n_members * sizeof (WireMember);
      total += part_size (&headers[r]);
    }

  buffer = g_malloc (total);
  for (guint r = 0; r < n_ranks; r++)
    memcpy (buffer + at[r], &headers[r], sizeof (WireHeader));
  g_hash_table_iter_init (&iter, import->share_half_locs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint to = (GPOINTER_TO_SIZE (key) - 1) % n_ranks;
      guint32 loc = (guint32)((GPOINTER_TO_SIZE (key) - 1) / n_ranks);

      memcpy (buffer + locations_at[to], &loc, sizeof loc);
      locations_at[to] += sizeof loc;
    }
  for (guint i = 0; i < import->share_coll_halves->len; i++)
    {
      WireMember member = { g_array_index (import->share_coll_halves, SextantCollectiveHalf, i), 0 };

      member.op = _sextant_import_collective_op (ops, member.half.kind);
      member.half.kind = NULL;
      send_to_comm (import, member.half.comm, buffer, members_at, &member, sizeof member);
    }
  for (guint i = 0; i < candidates->len; i++)
    {
      const SextantRootCandidate *candidate = &g_array_index (candidates, SextantRootCandidate, i);

      send_to_comm (import, candidate->comm, buffer, candidates_at, candidate, sizeof *candidate);
    }

  all = g_bytes_new_take (buffer, total);
  for (guint r = 0; r < n_ranks; r++)
    out[r] = g_bytes_new_from_bytes (all, at[r], part_size (&headers[r]));
}

/* The counts of the part that rank @r sent (@in[r]), checked against its
 * size, and where its locations start; this rank's own from what it set
 * aside */
static const guint8 *
part_header (SextantImport  *import,
             GBytes        **in,
             guint           r,
             WireHeader     *header,
             GError        **error)
{
  gsize size = 0;
  const guint8 *data;

  if (r == import->share->rank)
    {
      *header = (WireHeader) { 0, 0, import->share_coll_halves->len, 0 };
      return NULL;
    }
  data = g_bytes_get_data (in[r], &size);
  *header = (WireHeader) { 0, 0, 0, 0 };
  if (size >= sizeof *header)
    memcpy (header, data, sizeof *header);
  if (size < sizeof *header ||
      header->n_locations > (size - sizeof *header) / sizeof (guint32) ||
      header->n_members > (size - sizeof *header) / sizeof (WireMember) ||
      header->n_candidates > (size - sizeof *header) / sizeof (SextantRootCandidate) ||
      header->n_halves > G_MAXUINT64 / 2 / SEXTANT_HALF_WIRE_BYTES ||
      size != part_size (header))
    {
      *header = (WireHeader) { 0, 0, 0, 0 };
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                   "the halves of messages that rank %u sent are damaged (%" G_GSIZE_FORMAT " bytes)", r, size);
      return NULL;
    }

  return data + sizeof *header;
}

static int
compare_candidates (gconstpointer a,
                    gconstpointer b)
{
  const SextantRootCandidate *x = a;
  const SextantRootCandidate *y = b;

  if (x->comm != y->comm)
    return x->comm < y->comm ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The members that the other ranks sent (@in) as their instance's root
 * maybe, by communicator and number (a part that is damaged gives none:
 * the exchange finds it so after) */
static GArray *
unpack_candidates (SextantImport  *import,
                   GBytes        **in)
{
  GArray *candidates = g_array_new (FALSE, FALSE, sizeof (SextantRootCandidate));

  for (guint r = 0; r < import->share->n_ranks; r++)
    {
      WireHeader header;
      const guint8 *data;

      if (r == import->share->rank || (data = part_header (import, in, r, &header, NULL)) == NULL)
        continue;
      data += header.n_locations * sizeof (guint32) + header.n_members * sizeof (WireMember);
      for (guint64 i = 0; i < header.n_candidates; i++, data += sizeof (SextantRootCandidate))
        {
          SextantRootCandidate candidate;

          memcpy (&candidate, data, sizeof candidate);
          g_array_append_val (candidates, candidate);
        }
    }
  g_array_sort (candidates, compare_candidates);

  return candidates;
}

/* The collective members that the ranks sent (@in, checked: SCAN and
 * EXSCAN, whose rule compares each member with the lower ranks') and
 * those this rank set aside, in rank order, copied into one array; the
 * other ranks' candidate roots (@candidates) go to the matcher's open
 * instances */
static GArray *
unpack_members (SextantImport  *import,
                GBytes        **in,
                const GArray   *candidates)
{
  guint n_ranks = import->share->n_ranks;
  guint64 n_members = 0;
  GArray *members;

  for (guint r = 0; r < n_ranks; r++)
    {
      WireHeader header;

      part_header (import, in, r, &header, NULL);
      n_members += header.n_members;
    }
  members = g_array_sized_new (FALSE, FALSE, sizeof (SextantCollectiveHalf), (guint)n_members);

  for (guint r = 0; r < n_ranks; r++)
    {
      WireHeader header;
      const guint8 *data = part_header (import, in, r, &header, NULL);

      if (r == import->share->rank)
        {
          g_array_append_vals (members, import->share_coll_halves->data, import->share_coll_halves->len);
          continue;
        }
      data += header.n_locations * sizeof (guint32);
      for (guint64 i = 0; i < header.n_members; i++, data += sizeof (WireMember))
        {
          WireMember member;

          memcpy (&member, data, sizeof member);
          member.half.kind = sextant_otf2_collective_op_name ((OTF2_CollectiveOp)member.op);
          g_array_append_val (members, member.half);
        }
    }

  /* the roots are named now, wherever a member named one */
  for (guint i = 0; i < candidates->len; i++)
    _sextant_collective_matcher_add_root_candidate (_sextant_matcher_get_collectives (import->matcher),
                                                    &g_array_index (candidates, SextantRootCandidate, i));

  return members;
}

gsize
_sextant_import_share_block_bytes (void)
{
  const char *env = g_getenv ("SEXTANT_SHARE_BLOCK_BYTES");
  guint64 bytes = env != NULL ? g_ascii_strtoull (env, NULL, 10) : 0;

  return bytes >= SEXTANT_HALF_WIRE_BYTES && bytes <= G_MAXINT / 2 ? (gsize)bytes : SEXTANT_SHARE_BLOCK_BYTES;
}

/* A SextantShareExchangeBlock through the share's exchange, for a share
 * without one */
static gboolean
exchange_block_by_exchange (const SextantImportShare  *share,
                            const guint8              *send,
                            const gsize               *send_sizes,
                            guint8                    *recv,
                            const gsize               *recv_sizes,
                            GError                   **error)
{
  guint n = share->n_ranks;
  g_autofree GBytes **out = g_new0 (GBytes *, n);
  g_autofree GBytes **in = g_new0 (GBytes *, n);
  gboolean ok;

  /* copies: a rank may read them after this one refilled @send */
  for (guint r = 0, s = 0; r < n; s += send_sizes[r], r++)
    out[r] = g_bytes_new (send + s, send_sizes[r]);
  ok = share->exchange (out, in, share->user_data, error);
  for (guint r = 0, t = 0; ok && r < n; t += recv_sizes[r], r++)
    {
      if (g_bytes_get_size (in[r]) != recv_sizes[r])
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                       "rank %u sent %" G_GSIZE_FORMAT " bytes of message halves where %" G_GSIZE_FORMAT
                       " were due", r, g_bytes_get_size (in[r]), recv_sizes[r]);
          ok = FALSE;
        }
      else if (recv_sizes[r] > 0)
        memcpy (recv + t, g_bytes_get_data (in[r], NULL), recv_sizes[r]);
    }
  for (guint r = 0; r < n; r++)
    {
      g_clear_pointer (&out[r], g_bytes_unref);
      g_clear_pointer (&in[r], g_bytes_unref);
    }

  return ok;
}

/* The halves of a stream of @n in block @k of @n_blocks: [*first, return) */
static guint64
block_range (guint64  n,
             guint64  k,
             guint64  n_blocks,
             guint64 *first)
{
  *first = n * k / n_blocks;

  return n * (k + 1) / n_blocks;
}

/* A block's halves to the matcher: @n_mine records of this rank's own at
 * @mine and @recv_sizes[r] bytes of records from rank r at its place in
 * @recv, taken in turns of MATCH_TURN records from each rank in rank order
 * (this rank's at its place), each rank's in the order they came, decoded
 * a few at a time where they are (@readers[r] keeps a half that a block or
 * a turn cut in two). A half waits in the matcher for its partner from the
 * other rank: in turns, about a turn and what the two ranks' streams are
 * apart, where a rank's whole part would wait for the next rank's. */
#define MATCH_TURN 4096
#define MATCH_BATCH 64

static gboolean
match_block (SextantImport          *import,
             SextantHalfWireReader  *readers,
             const guint8           *mine,
             guint64                 n_mine,
             const guint8           *recv,
             const gsize            *recv_sizes,
             GError                **error)
{
  guint n = import->share->n_ranks;
  guint me = import->share->rank;
  g_autofree const guint8 **next = g_new (const guint8 *, n);
  g_autofree guint64 *left = g_new (guint64, n);
  SextantDeferredHalf batch[MATCH_BATCH];
  gboolean more = TRUE;
  gsize t = 0;

  for (guint r = 0; r < n; t += recv_sizes[r], r++)
    {
      next[r] = r == me ? mine : recv + t;
      left[r] = r == me ? n_mine : recv_sizes[r] / SEXTANT_HALF_WIRE_BYTES;
    }
  while (more)
    {
      more = FALSE;
      for (guint r = 0; r < n; r++)
        {
          guint64 turn = MIN (left[r], MATCH_TURN);

          left[r] -= turn;
          while (turn > 0)
            {
              gsize got = sextant_half_wire_decode (&readers[r], &next[r], &turn, batch, MATCH_BATCH);

              if (got > 0 && !_sextant_matcher_add_halves (import->matcher, batch, got, error))
                return FALSE;
            }
          more |= left[r] > 0;
        }
    }

  return TRUE;
}

/* The halves set aside, to the ranks of their other ends, and those of
 * this rank's messages from the others (@to_me[r] from rank r), in blocks:
 * as many as the rank with most to send or receive needs at
 * _sextant_import_share_block_bytes() a block (an allreduce MAX), each
 * stream cut into that many equal parts, so that both ends know every
 * block's sizes. The buffers are allocated once. In each block the
 * matcher takes the halves of the ranks in turns (match_block()), this
 * rank's own where it sends them from: each channel's halves from a side
 * come in the order that side met them, so both ranks number it alike. A rank that failed takes
 * part in every block all the same (the others wait for it), matching
 * nothing. */
static gboolean
exchange_halves (SextantImport   *import,
                 const guint64   *to_me,
                 gboolean         ok,
                 GError         **error)
{
  const SextantImportShare *share = import->share;
  guint n = share->n_ranks;
  guint me = share->rank;
  gsize record_size = SEXTANT_HALF_WIRE_BYTES;
  g_autofree SextantHalfWireReader *readers = g_new0 (SextantHalfWireReader, MAX (n, 1));
  g_autofree guint64 *from_me = g_new0 (guint64, n);
  g_autofree gsize *send_sizes = g_new0 (gsize, n);
  g_autofree gsize *recv_sizes = g_new0 (gsize, n);
  g_autofree guint8 *send = NULL;
  g_autofree guint8 *recv = NULL;
  guint64 sent = 0, received = 0, send_cap = 0, recv_cap = 0;
  gint64 n_blocks;
  guint64 per_block = _sextant_import_share_block_bytes () / record_size;
  GError *local_error = NULL;

  for (guint r = 0; r < n; r++)
    if (r != me)
      {
        from_me[r] = sextant_share_spill_count (import->share_halves, r);
        sent += from_me[r];
        received += to_me[r];
      }
  n_blocks = (gint64)((MAX (sent, received) + per_block - 1) / per_block);
  if (!share->allreduce (&n_blocks, 1, sizeof n_blocks, _sextant_import_share_combine_max, share->user_data,
                         &local_error))
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  if (n_blocks == 0)
    return ok;
  for (guint r = 0; r < n; r++)
    {
      send_cap += (from_me[r] + (guint64)n_blocks - 1) / (guint64)n_blocks;
      recv_cap += (to_me[r] + (guint64)n_blocks - 1) / (guint64)n_blocks;
    }
  send = g_malloc (MAX (send_cap * record_size, 1));
  recv = g_malloc (MAX (recv_cap * record_size, 1));
  g_debug ("rank %u: the message halves in %" G_GINT64_FORMAT " block(s) of up to %" G_GUINT64_FORMAT
           " bytes sent and %" G_GUINT64_FORMAT " received%s", me, n_blocks, send_cap * record_size,
           recv_cap * record_size, sextant_share_spill_spilled (import->share_halves) ? " (spilled to a file)" : "");

  for (gint64 k = 0; k < n_blocks; k++)
    {
      gsize s = 0;

      for (guint r = 0; r < n; r++)
        {
          guint64 first;
          guint64 end = block_range (from_me[r], (guint64)k, (guint64)n_blocks, &first);

          /* a rank that failed sends zeros, which match nothing harmful */
          if (!ok || !sextant_share_spill_read (import->share_halves, r, end - first, send + s, &local_error))
            {
              memset (send + s, 0, (gsize)(end - first) * record_size);
              ok = FALSE;
            }
          send_sizes[r] = (gsize)(end - first) * record_size;
          s += send_sizes[r];
          end = block_range (to_me[r], (guint64)k, (guint64)n_blocks, &first);
          recv_sizes[r] = (gsize)(end - first) * record_size;
        }
      if (share->exchange_block != NULL
          ? !share->exchange_block (send, send_sizes, recv, recv_sizes, share->user_data, ok ? &local_error : NULL)
          : !exchange_block_by_exchange (share, send, send_sizes, recv, recv_sizes, ok ? &local_error : NULL))
        ok = FALSE;
      if (ok)
        ok = match_block (import, readers, send, s / record_size, recv, recv_sizes, &local_error);
      /* the messages matched go to the store block by block, not all at
       * the end (their chunks would pile up in memory) */
      if (ok)
        ok = sextant_chunk_queue_write (import->chunks, &local_error);
    }
  /* a stream that ends in the middle of a whole half is damaged */
  for (guint r = 0; ok && r < n; r++)
    if (readers[r].has_head)
      {
        g_set_error (&local_error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                     "the halves of messages that rank %u sent end in the middle of one", r);
        ok = FALSE;
      }
  if (local_error != NULL)
    g_propagate_error (error, local_error);

  return ok;
}

gboolean
_sextant_import_share_exchange (SextantImport  *import,
                                GError        **error)
{
  const SextantImportShare *share = import->share;
  guint n_ranks = share->n_ranks;
  g_autofree GBytes **out = g_new0 (GBytes *, MAX (n_ranks, 1));
  g_autofree GBytes **in = g_new0 (GBytes *, MAX (n_ranks, 1));
  g_autofree guint64 *to_me = g_new0 (guint64, MAX (n_ranks, 1));
  g_autoptr(GArray) members = NULL;
  g_autoptr(GArray) candidates = g_array_new (FALSE, FALSE, sizeof (SextantRootCandidate));
  g_autoptr(GArray) theirs = NULL;
  gint64 cpu_usec = sextant_thread_cpu_usec ();
  guint64 n_records = 0;
  gboolean ok;

  if (share->definitions_only)
    return TRUE;

  /* every member of this rank is in its instance: the threaded processes'
   * are numbered now, not at the finish (a failure here is one before the
   * exchange: the caller abandons it) */
  if (!_sextant_matcher_number_held_collectives (import->matcher, error))
    return FALSE;
  _sextant_collective_matcher_root_candidates (_sextant_matcher_get_collectives (import->matcher), spans_ranks,
                                               candidates);
  for (guint r = 0; r < n_ranks; r++)
    n_records += sextant_share_spill_count (import->share_halves, r);
  g_debug ("rank %u sends %" G_GUINT64_FORMAT " message halves in %" G_GUINT64_FORMAT " bytes, %u collective "
           "members and %u candidate roots to other ranks, naming %u locations", share->rank, import->share_n_halves,
           n_records * SEXTANT_HALF_WIRE_BYTES, import->share_coll_halves->len,
           candidates->len, g_hash_table_size (import->share_half_locs));
  pack (import, candidates, out);
  ok = share->exchange (out, in, share->user_data, error);
  for (guint r = 0; r < n_ranks; r++)
    g_clear_pointer (&out[r], g_bytes_unref);
  if (!ok)
    return FALSE;
  /* every rank that exchanged combines the summaries and exchanges the
   * halves (before it checks what came: a rank that stopped there would
   * leave the others waiting) */
  import->share_exchanged = TRUE;
  theirs = unpack_candidates (import, in);
  ok = _sextant_import_share_combine (import, theirs, error);

  /* the locations whose halves come are noted before any is matched */
  for (guint r = 0; r < n_ranks; r++)
    {
      WireHeader header;
      const guint8 *data = part_header (import, in, r, &header, ok ? error : NULL);

      ok &= r == share->rank || data != NULL;
      to_me[r] = header.n_halves;
      for (guint64 i = 0; ok && i < header.n_locations; i++)
        {
          guint32 loc;

          memcpy (&loc, data + i * sizeof loc, sizeof loc);
          _sextant_matcher_note_location (import->matcher, loc);
        }
    }
  ok = exchange_halves (import, to_me, ok, ok ? error : NULL) && ok;

  /* then the members, copied out before what was received goes */
  if (ok)
    members = unpack_members (import, in, theirs);
  for (guint r = 0; r < n_ranks; r++)
    g_clear_pointer (&in[r], g_bytes_unref);
  g_clear_pointer (&import->share_halves, sextant_share_spill_free);
  g_array_set_size (import->share_coll_halves, 0);
  if (ok)
    {
      _sextant_matcher_note_collectives (import->matcher, members);
      ok = _sextant_matcher_add_deferred (import->matcher, NULL, members, error);
    }
  if (share->exchange_cpu_usec != NULL)
    *share->exchange_cpu_usec += sextant_thread_cpu_usec () - cpu_usec;

  return ok;
}
