/*
 * sextant-store-matrix.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The point-to-point traffic of a run (or of a time range) summed per
 * sender and receiver: the data of the communication matrix
 * (graph/sextant-comm-matrix.c). Only matched messages count (both sides
 * recorded). A message is in a range when its send or its receive is.
 *
 * The time in the receives: each message brings the duration of the call
 * that completed its receive (message.recv_visit: MPI_Recv, or the
 * MPI_Wait* / MPI_Test* that completed an MPI_Irecv); a call that completed
 * n messages of the range gives each of them 1/n of its duration, so every
 * call counts once and the matrix's total is the time the receivers spent
 * in the calls that delivered the messages.
 *
 * The one-sided operations (rma_op) are read apart, for the matrix's
 * "one-sided" transfers: summed in SQL per origin, target and kind (a PUT
 * moves its bytes origin -> target, a GET its bytes_received target ->
 * origin, an ATOMIC both ways), in a range when issued in it.
 *
 * Workload: one pass over the messages of the range (842,688 for the whole
 * 10 M-event store), each joined to its receive visit by id, summed in C;
 * the calls that completed several messages are found by sorting the
 * messages' receive visits. The one-sided operations: one grouped scan of
 * rma_op (8,000 in the onecoll demo, none in the 10 M-event store).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sextant-store-private.h"
#include "sextant-store-shard-reads.h"

#define MESSAGE_COLUMNS \
  "SELECT m.send_loc, m.recv_loc, m.bytes, m.send_time, m.recv_time, m.recv_visit, v.leave - v.enter " \
  "FROM message AS m LEFT JOIN visit AS v ON v.id = m.recv_visit "

/* read on each shard of a manifest, the messages of its receivers
 * (@own): with their receive visits, which are in the same shard */
static const char all_messages_sql[] =
  MESSAGE_COLUMNS "WHERE @own(m.recv_loc) AND m.send_time IS NOT NULL AND m.recv_time IS NOT NULL";

/* sent in [?1, ?2), or received there and sent outside: each constraint on
 * its own prunes the chunks by their zone maps (messages are stored in the
 * order they were matched, which follows time) */
static const char range_messages_sql[] =
  MESSAGE_COLUMNS "WHERE @own(m.recv_loc) AND m.send_time >= ?1 AND m.send_time < ?2 AND m.recv_time IS NOT NULL "
  "UNION ALL "
  MESSAGE_COLUMNS "WHERE @own(m.recv_loc) AND m.recv_time >= ?1 AND m.recv_time < ?2 AND m.send_time IS NOT NULL "
  "  AND (m.send_time < ?1 OR m.send_time >= ?2)";

typedef struct
{
  gint64  visit;
  gint64  ticks;
  guint   pair;
} Receive;

typedef struct
{
  GArray     *pairs;      /* SextantMessagePair */
  GHashTable *index;      /* (sender << 32 | receiver) -> index + 1 in pairs */
  GArray     *receives;   /* Receive */
  gint64      last_key;
  guint       last_pair;
} Sum;

/* The index in @pairs of the pair from @sender to @receiver, appended
 * (and put in @index: sender << 32 | receiver -> index + 1) when new */
/* shifted unsigned: a damaged store's location ids may be negative */
#define PAIR_KEY(sender, receiver) ((gint64)((guint64)(sender) << 32 | ((guint64)(receiver) & 0xffffffff)))

static guint
pair_index (GArray     *pairs,
            GHashTable *index,
            gint64      sender,
            gint64      receiver)
{
  gint64 key = PAIR_KEY (sender, receiver);
  guint found = GPOINTER_TO_UINT (g_hash_table_lookup (index, &key));

  if (found == 0)
    {
      SextantMessagePair fresh = { sender, receiver, 0, 0, 0.0, G_MAXINT64, G_MININT64 };

      g_array_append_val (pairs, fresh);
      found = pairs->len;
      g_hash_table_insert (index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (found));
    }

  return found - 1;
}

static gboolean
message_row (const SextantRow  *row,
             gpointer           user_data,
             GError           **error)
{
  Sum *sum = user_data;
  gint64 sender = sextant_row_get_int (row, 0);
  gint64 receiver = sextant_row_get_int (row, 1);
  gint64 key = PAIR_KEY (sender, receiver);
  gint64 send_time = sextant_row_get_int (row, 3);
  gint64 recv_time = sextant_row_get_int (row, 4);
  SextantMessagePair *pair;
  guint index;

  if (sextant_row_is_null (row, 0) || sextant_row_is_null (row, 1))
    return TRUE;

  if (sum->pairs->len > 0 && key == sum->last_key)
    index = sum->last_pair;
  else
    {
      index = pair_index (sum->pairs, sum->index, sender, receiver);
      sum->last_key = key;
      sum->last_pair = index;
    }

  pair = &g_array_index (sum->pairs, SextantMessagePair, index);
  pair->messages++;
  pair->bytes += sextant_row_is_null (row, 2) ? 0 : sextant_row_get_int (row, 2);
  pair->first_send = MIN (pair->first_send, send_time);
  pair->last_receive = MAX (pair->last_receive, recv_time);

  if (!sextant_row_is_null (row, 5) && !sextant_row_is_null (row, 6))
    {
      Receive receive = { sextant_row_get_int (row, 5), sextant_row_get_int (row, 6), index };

      g_array_append_val (sum->receives, receive);
    }

  return TRUE;
}

static int
compare_receives (gconstpointer a,
                  gconstpointer b)
{
  const Receive *x = a, *y = b;

  return x->visit < y->visit ? -1 : x->visit > y->visit;
}

/* Sorts the receives by visit: grouped by the receiving location first (the
 * high half of a visit id; a counting sort over the few locations), then
 * each group, which the matching order of the messages leaves nearly in
 * order, on its own. */
static void
sort_receives (GArray *receives)
{
  g_autofree guint *start = NULL;
  g_autoptr(GArray) sorted = NULL;
  gint64 n_locs = 0;

  for (guint i = 0; i < receives->len; i++)
    n_locs = MAX (n_locs, (g_array_index (receives, Receive, i).visit >> 32) + 1);
  if (n_locs <= 0 || n_locs > (gint64)receives->len + 65536)
    {
      g_array_sort (receives, compare_receives);
      return;
    }

  start = g_new0 (guint, n_locs + 1);
  for (guint i = 0; i < receives->len; i++)
    start[(g_array_index (receives, Receive, i).visit >> 32) + 1]++;
  for (gint64 l = 0; l < n_locs; l++)
    start[l + 1] += start[l];

  sorted = g_array_sized_new (FALSE, FALSE, sizeof (Receive), receives->len);
  g_array_set_size (sorted, receives->len);
  for (guint i = 0; i < receives->len; i++)
    {
      const Receive *r = &g_array_index (receives, Receive, i);

      g_array_index (sorted, Receive, start[r->visit >> 32]++) = *r;
    }
  /* start[l] is now the end of group l, the start of group l + 1 */
  for (gint64 l = 0, first = 0; l < n_locs; first = start[l], l++)
    {
      Receive *group = &g_array_index (sorted, Receive, first);
      guint n = start[l] - first;
      gboolean in_order = TRUE;

      for (guint k = 1; k < n && in_order; k++)
        in_order = group[k - 1].visit <= group[k].visit;
      if (!in_order)
        qsort (group, n, sizeof (Receive), compare_receives);
    }

  memcpy (receives->data, sorted->data, receives->len * sizeof (Receive));
}

static int
compare_pairs (gconstpointer a,
               gconstpointer b)
{
  const SextantMessagePair *x = a, *y = b;

  if (x->sender != y->sender)
    return x->sender < y->sender ? -1 : 1;
  return x->receiver < y->receiver ? -1 : x->receiver > y->receiver;
}

/**
 * sextant_store_read_message_pairs:
 * @begin: ticks: the range's start, or %SEXTANT_NULL with @end
 *   %SEXTANT_NULL for the whole run
 * @end: ticks: the range's end (exclusive)
 *
 * The matched messages sent or received in [@begin, @end), summed per
 * sender and receiver (see the top of this file for the receive time).
 *
 * Threading: the store's owning thread.
 *
 * Returns: (transfer full) (element-type SextantMessagePair): the pairs
 *   that exchanged messages, by sender then receiver; %NULL with @error set
 */
GArray *
sextant_store_read_message_pairs (SextantStore  *self,
                                  gint64         begin,
                                  gint64         end,
                                  GError       **error)
{
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (SextantMessagePair));
  g_autoptr(GArray) receives = g_array_new (FALSE, FALSE, sizeof (Receive));
  Sum sum = { pairs, index, receives, 0, 0 };
  gboolean whole = begin == SEXTANT_NULL && end == SEXTANT_NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  if (whole ? !_sextant_store_foreach_shards (self, all_messages_sql, message_row, &sum, error, "")
            : !_sextant_store_foreach_shards (self, range_messages_sql, message_row, &sum, error, "ii",
                                          begin == SEXTANT_NULL ? G_MININT64 : begin,
                                          end == SEXTANT_NULL ? G_MAXINT64 : end))
    return NULL;
  /* each receive call's duration, shared among the messages it completed */
  sort_receives (receives);
  for (guint i = 0, next; i < receives->len; i = next)
    {
      const Receive *first = &g_array_index (receives, Receive, i);
      double share;

      for (next = i + 1; next < receives->len && g_array_index (receives, Receive, next).visit == first->visit; next++)
        ;
      share = (double)first->ticks / (next - i);
      for (guint k = i; k < next; k++)
        g_array_index (pairs, SextantMessagePair, g_array_index (receives, Receive, k).pair).receive_ticks += share;
    }

  g_array_sort (pairs, compare_pairs);

  return g_steal_pointer (&pairs);
}

/* ?1, ?2: the range of issue times (the whole run: the int64 extremes);
 * ops without a target location come as one group with a NULL target */
static const char rma_pairs_sql[] =
  "SELECT loc, target_loc, kind, count (*), coalesce (sum (bytes), 0), "
  "  coalesce (sum (bytes_received), 0), min (issue_time), "
  "  max (max (issue_time, coalesce (complete_time, issue_time))) "
  "FROM rma_op WHERE issue_time >= ?1 AND issue_time < ?2 "
  "GROUP BY loc, target_loc, kind";

typedef struct
{
  GArray     *pairs;      /* SextantMessagePair */
  GHashTable *index;      /* (sender << 32 | receiver) -> index + 1 in pairs */
  gint64      skipped;
} RmaSum;

/* the pair from @sender to @receiver, added when new */
static SextantMessagePair *
rma_pair (RmaSum *sum,
          gint64  sender,
          gint64  receiver)
{
  guint index = pair_index (sum->pairs, sum->index, sender, receiver);   /* may grow the array first */

  return &g_array_index (sum->pairs, SextantMessagePair, index);
}

static void
rma_add (SextantMessagePair *pair,
         gint64              operations,
         gint64              bytes,
         gint64              first,
         gint64              last)
{
  pair->messages += operations;
  pair->bytes += bytes;
  pair->first_send = MIN (pair->first_send, first);
  pair->last_receive = MAX (pair->last_receive, last);
}

static gboolean
rma_row (const SextantRow  *row,
         gpointer           user_data,
         GError           **error)
{
  RmaSum *sum = user_data;
  gint64 origin = sextant_row_get_int (row, 0);
  gint64 target = sextant_row_get_int (row, 1);
  const char *kind = sextant_row_get_text (row, 2);
  gint64 operations = sextant_row_get_int (row, 3);
  gint64 sent = sextant_row_get_int (row, 4);
  gint64 received = sextant_row_get_int (row, 5);
  gint64 first = sextant_row_get_int (row, 6);
  gint64 last = sextant_row_get_int (row, 7);

  if (sextant_row_is_null (row, 1))
    {
      sum->skipped += operations;
      return TRUE;
    }

  /* the operations count where their payload goes: a GET's from the
   * target, a PUT's and an ATOMIC's to it (an ATOMIC's fetched bytes come
   * back without counting it twice) */
  if (g_strcmp0 (kind, "GET") == 0)
    rma_add (rma_pair (sum, target, origin), operations, received, first, last);
  else
    {
      rma_add (rma_pair (sum, origin, target), operations, sent, first, last);
      if (received > 0)
        rma_add (rma_pair (sum, target, origin), 0, received, first, last);
    }

  return TRUE;
}

/**
 * sextant_store_read_rma_pairs:
 * @begin: ticks: the range's start, or %SEXTANT_NULL with @end
 *   %SEXTANT_NULL for the whole run
 * @end: ticks: the range's end (exclusive)
 * @skipped: (out) (optional): the operations of the range without a target
 *   location (target_loc NULL), left out
 *
 * The one-sided operations issued in [@begin, @end), summed per direction
 * of their data, as message pairs: @sender and @receiver are where the data
 * leaves and arrives (a PUT: origin -> target; a GET: target -> origin; an
 * ATOMIC: origin -> target, and its fetched bytes target -> origin),
 * @messages the operations (each counted once, in the direction of a PUT
 * or ATOMIC's sent data or a GET's fetched data; so a pair may carry bytes
 * with no operation), @bytes the data moved, @receive_ticks 0 (no receive
 * call completes a one-sided transfer), @first_send the first issue and
 * @last_receive the last completion (or issue, when not completed).
 *
 * Threading: the store's owning thread.
 *
 * Returns: (transfer full) (element-type SextantMessagePair): the pairs,
 *   by sender then receiver; %NULL with @error set
 */
GArray *
sextant_store_read_rma_pairs (SextantStore  *self,
                              gint64         begin,
                              gint64         end,
                              gint64        *skipped,
                              GError       **error)
{
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (SextantMessagePair));
  RmaSum sum = { pairs, index, 0 };

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  if (!sextant_store_foreach_sql (self, rma_pairs_sql, rma_row, &sum, error, "ii",
                                  begin == SEXTANT_NULL ? G_MININT64 : begin,
                                  end == SEXTANT_NULL ? G_MAXINT64 : end))
    return NULL;
  g_array_sort (pairs, compare_pairs);
  if (skipped != NULL)
    *skipped = sum.skipped;

  return g_steal_pointer (&pairs);
}
