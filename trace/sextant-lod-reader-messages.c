/*
 * sextant-lod-reader-messages.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lod reader's messages (sextant-lod-reader.h): the matched messages
 * in flight in a view, read from the message chunks (the reader's chunk
 * cache, sextant-lod-reader.c) into an index by pair of locations and
 * send time, built once per reader; then a view's messages and its
 * message density are walks over the index, pair by pair, with no SQL
 * and no hashing per frame. Workload: the first read decodes every
 * message chunk (32 bytes a message kept); a read then costs the
 * messages in view plus a binary search per pair. read_messages_rows()
 * is the same read through SQL (tests and the benchmark).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sextant-lod-reader-private.h"
#include "sextant-store-shards.h"

/* The messages by pair of locations, each pair's in send order: built
 * once per reader from every message chunk (about 24 bytes a message), so
 * that a view's density is a walk over the messages in it, pair by pair,
 * each pair's slots in order, without hashing */
typedef struct
{
  gint64   send_loc;
  gint64   recv_loc;
  guint    first;       /* its messages in MessageIndex.times */
  guint    n;
  gint64   longest;     /* ticks from its send to its receive, at most */
  gint64   bytes;       /* of all its messages */
  gboolean in_order;    /* received in the order sent, none before it was sent */
} MessagePair;

typedef struct
{
  gint64  send_time;
  gint64  recv_time;
  gint64  bytes;
  gint64  id;
} MessageTimes;

struct _MessageIndex
{
  GArray  *pairs;      /* of MessagePair */
  GArray  *times;      /* of MessageTimes, by pair, each in send order */
  gint64  *before;     /* as times: the bytes of the pair's messages before it */
};

void
_sextant_lod_message_index_free (MessageIndex *index)
{
  g_array_unref (index->pairs);
  g_array_unref (index->times);
  g_free (index->before);
  g_free (index);
}

gsize
_sextant_lod_message_index_bytes (const MessageIndex *index)
{
  return index->times->len * (sizeof (MessageTimes) + sizeof (gint64)) + index->pairs->len * sizeof (MessagePair);
}

/* A message's bytes, 0 when unknown */
static inline gint64
message_bytes (const MessageTimes *m)
{
  return m->bytes == SEXTANT_NULL ? 0 : m->bytes;
}

/* Messages ---------------------------------------------------------------------- */

/* A message in flight in a view, as the chunk holds it */
typedef struct
{
  gint64 id;
  gint64 send_loc;
  gint64 recv_loc;
  gint64 send_time;
  gint64 recv_time;
  gint64 bytes;
} InFlight;

/* FALSE stops the walk */
typedef gboolean (*InFlightFunc) (const InFlight *m,
                                  gpointer        user_data);

/* Calls @func for every matched message in flight during [@t0, @t1) (sent
 * before @t1, received at or after @t0), chunk by chunk; reads only the
 * chunks whose zone maps say they can hold one (messages are stored in
 * the order they were matched, which follows time closely) */
static gboolean
foreach_in_flight (SextantLodReader  *self,
                   gint64             t0,
                   gint64             t1,
                   InFlightFunc       func,
                   gpointer           user_data,
                   GError           **error)
{
  gboolean manifest = sextant_store_get_n_shards (self->store) > 0;

  if (!_sextant_lod_chunk_table_load (self, &self->messages, error))
    return FALSE;

  self->clock++;
  for (guint i = 0; i < self->messages.dir->len; i++)
    {
      Chunk *chunk = &g_array_index (self->messages.dir, Chunk, i);
      const SextantChunk *c = &chunk->chunk;

      if (c->n_rows == 0 || c->cols[SEXTANT_MESSAGE_SEND_TIME].all_null ||
          c->cols[SEXTANT_MESSAGE_RECV_TIME].all_null || c->cols[SEXTANT_MESSAGE_SEND_TIME].min >= t1 ||
          c->cols[SEXTANT_MESSAGE_RECV_TIME].max < t0)
        continue;
      if (!(c = _sextant_lod_chunk_table_get (self, &self->messages, i, error)))
        return FALSE;

      for (guint r = 0; r < c->n_rows; r++)
        {
          InFlight m;

          m.send_time = sextant_chunk_get (c, SEXTANT_MESSAGE_SEND_TIME, r);
          m.recv_time = sextant_chunk_get (c, SEXTANT_MESSAGE_RECV_TIME, r);
          if (m.send_time == SEXTANT_NULL || m.recv_time == SEXTANT_NULL || m.send_time >= t1 || m.recv_time < t0)
            continue;
          m.send_loc = sextant_chunk_get (c, SEXTANT_MESSAGE_SEND_LOC, r);
          m.recv_loc = sextant_chunk_get (c, SEXTANT_MESSAGE_RECV_LOC, r);
          if (m.send_loc == SEXTANT_NULL || m.recv_loc == SEXTANT_NULL)
            continue;
          /* a manifest's message between two shards is in both: the sender's counts */
          if (manifest && sextant_store_get_location_shard (self->store, m.send_loc) !=
                          sextant_shard_of_id (chunk->first_row))
            continue;
          m.id = chunk->first_row + r;
          m.bytes = sextant_chunk_get (c, SEXTANT_MESSAGE_BYTES, r);
          if (!func (&m, user_data))
            return TRUE;
        }
    }

  return TRUE;
}

/* Message density ------------------------------------------------------------------ */

typedef struct
{
  GHashTable *pairs;   /* (send_loc, recv_loc) packed -> pair + 1 */
  GArray     *list;    /* of MessagePair */
  GArray     *all;     /* of MessageTimes + pair, as read */
  GArray     *which;   /* of guint: each message's pair */
} IndexBuild;

static gboolean
index_message (const InFlight *m,
               gpointer        user_data)
{
  IndexBuild *build = user_data;
  gint64 key[2] = { m->send_loc, m->recv_loc };
  gpointer found = g_hash_table_lookup (build->pairs, key);
  MessageTimes times = { m->send_time, m->recv_time, m->bytes, m->id };
  guint pair;

  if (found == NULL)
    {
      MessagePair p = { m->send_loc, m->recv_loc, 0, 0, 0, 0, FALSE };

      g_array_append_val (build->list, p);
      g_hash_table_insert (build->pairs, g_memdup2 (key, sizeof key), GUINT_TO_POINTER (build->list->len));
      pair = build->list->len - 1;
    }
  else
    pair = GPOINTER_TO_UINT (found) - 1;
  {
    MessagePair *p = &g_array_index (build->list, MessagePair, pair);

    p->n++;
    p->longest = MAX (p->longest, m->recv_time - m->send_time);
  }
  g_array_append_val (build->all, times);
  g_array_append_val (build->which, pair);

  return TRUE;
}

static guint
pair_key_hash (gconstpointer key)
{
  const gint64 *k = key;

  return g_int64_hash (&k[0]) * 31 + g_int64_hash (&k[1]);
}

static gboolean
pair_key_equal (gconstpointer a,
                gconstpointer b)
{
  return memcmp (a, b, 2 * sizeof (gint64)) == 0;
}

static int
compare_send_times (gconstpointer a,
                    gconstpointer b)
{
  const MessageTimes *x = a;
  const MessageTimes *y = b;

  return (x->send_time > y->send_time) - (x->send_time < y->send_time);
}

static int
compare_pairs (gconstpointer a,
               gconstpointer b)
{
  const MessagePair *x = a;
  const MessagePair *y = b;

  if (x->send_loc != y->send_loc)
    return (x->send_loc > y->send_loc) - (x->send_loc < y->send_loc);

  return (x->recv_loc > y->recv_loc) - (x->recv_loc < y->recv_loc);
}

/* @list's pairs by sender and receiver, @which (each message's pair) to
 * match: the messages are drawn in an order that does not depend on how
 * the store lists them (a manifest's shard by shard) */
static void
sort_pairs (GArray *list,
            GArray *which)
{
  g_autofree guint *moved = g_new (guint, MAX (list->len, 1));

  for (guint p = 0; p < list->len; p++)
    g_array_index (list, MessagePair, p).first = p;
  g_array_sort (list, compare_pairs);
  for (guint p = 0; p < list->len; p++)
    moved[g_array_index (list, MessagePair, p).first] = p;
  for (guint i = 0; i < which->len; i++)
    g_array_index (which, guint, i) = moved[g_array_index (which, guint, i)];
}

static gboolean
message_index_build (SextantLodReader  *self,
                     GError           **error)
{
  g_autoptr(GHashTable) pairs = g_hash_table_new_full (pair_key_hash, pair_key_equal, g_free, NULL);
  g_autoptr(GArray) list = g_array_new (FALSE, FALSE, sizeof (MessagePair));
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (MessageTimes));
  g_autoptr(GArray) which = g_array_new (FALSE, FALSE, sizeof (guint));
  IndexBuild build = { pairs, list, all, which };
  MessageIndex *index;
  g_autofree guint *next = NULL;

  if (self->message_index != NULL)
    return TRUE;
  if (!foreach_in_flight (self, G_MININT64 + 1, G_MAXINT64, index_message, &build, error))
    return FALSE;
  /* the index holds all of it: the chunks are not read again */
  _sextant_lod_chunk_table_clear (&self->messages);

  /* by pair (a counting sort), then each pair's by send time */
  sort_pairs (list, which);
  index = g_new0 (MessageIndex, 1);
  index->pairs = g_steal_pointer (&list);
  index->times = g_array_sized_new (FALSE, FALSE, sizeof (MessageTimes), all->len);
  g_array_set_size (index->times, all->len);
  next = g_new (guint, index->pairs->len + 1);
  for (guint p = 0, at = 0; p < index->pairs->len; p++)
    {
      MessagePair *pair = &g_array_index (index->pairs, MessagePair, p);

      pair->first = at;
      next[p] = at;
      at += pair->n;
    }
  for (guint i = 0; i < all->len; i++)
    g_array_index (index->times, MessageTimes, next[g_array_index (which, guint, i)]++) =
      g_array_index (all, MessageTimes, i);
  index->before = g_new (gint64, MAX (index->times->len, 1));
  for (guint p = 0; p < index->pairs->len; p++)
    {
      MessagePair *pair = &g_array_index (index->pairs, MessagePair, p);
      MessageTimes *times = &g_array_index (index->times, MessageTimes, pair->first);
      gint64 *before = index->before + pair->first;
      gboolean sorted = TRUE;

      for (guint i = 1; i < pair->n && sorted; i++)
        sorted = times[i - 1].send_time <= times[i].send_time;
      if (!sorted)
        qsort (times, pair->n, sizeof (MessageTimes), compare_send_times);
      /* the bytes before each message, and whether a run of its messages
       * ends with the last received (density_walk()) */
      pair->in_order = TRUE;
      for (guint i = 0; i < pair->n; i++)
        {
          before[i] = pair->bytes;
          pair->bytes += message_bytes (&times[i]);
          pair->in_order &= times[i].recv_time >= times[i].send_time &&
                            (i == 0 || times[i].recv_time >= times[i - 1].recv_time);
        }
    }
  self->message_index = index;

  return TRUE;
}

/* The first of @times[@lo, @hi) sent at or after @t (@times by send time;
 * @hi if none is) */
static guint
first_sent_from (const MessageTimes *times,
                 guint               lo,
                 guint               hi,
                 gint64              t)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (times[mid].send_time < t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* The first message of @pair that can be in flight at @t0: sent at or
 * after t0 - its longest (one sent before was received before t0) */
static guint
message_pair_first (const MessagePair  *pair,
                    const MessageTimes *times,
                    gint64              t0)
{
  return first_sent_from (times, 0, pair->n, t0 - pair->longest);
}

/* Slots twice as wide, in place: slot n of width 2 s holds slots 2n and
 * 2n + 1 of width s; @out (@n entries, their slot field the slot's
 * index) is by pair, each pair's slots in order, so the ones that merge
 * are neighbours. Returns the entries left. */
static guint
density_coarsen (SextantViewMessageDensity *out,
                 guint                      n)
{
  guint kept = 0;

  for (guint i = 0; i < n; i++)
    {
      SextantViewMessageDensity *d = &out[i];
      gint64 slot = d->slot / 2;

      if (kept > 0)
        {
          SextantViewMessageDensity *last = &out[kept - 1];

          if (last->send_loc == d->send_loc && last->recv_loc == d->recv_loc && last->slot == slot)
            {
              last->begin = MIN (last->begin, d->begin);
              last->end = MAX (last->end, d->end);
              last->count += d->count;
              last->bytes += d->bytes;
              continue;
            }
        }
      out[kept] = *d;
      out[kept].slot = slot;
      kept++;
    }

  return kept;
}

static int
compare_density (gconstpointer a,
                 gconstpointer b)
{
  const SextantViewMessageDensity *x = a;
  const SextantViewMessageDensity *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  if (x->send_loc != y->send_loc)
    return x->send_loc < y->send_loc ? -1 : 1;
  if (x->recv_loc != y->recv_loc)
    return x->recv_loc < y->recv_loc ? -1 : 1;

  return (x->slot > y->slot) - (x->slot < y->slot);
}

/* A set of locations, for the pairs with an end in it: every one, or a
 * bitmap of their ids when they are small (store ids are), else a hash
 * table. A view's walk tests both ends of every pair of the index
 * (16,128 pairs of the 4096-rank store: two hash lookups each cost it
 * about 0.7 ms a view) */
typedef struct
{
  gboolean    all;
  guint8     *bits;
  gint64      n_bits;
  GHashTable *table;
} Wanted;

#define WANTED_BITMAP_MAX (G_GINT64_CONSTANT (1) << 24)

static void
wanted_init (Wanted       *wanted,
             const gint64 *locs,
             guint         n_locs)
{
  gint64 top = -1;
  gboolean small = TRUE;

  memset (wanted, 0, sizeof *wanted);
  if (locs == NULL)
    {
      wanted->all = TRUE;
      return;
    }
  for (guint i = 0; i < n_locs; i++)
    {
      small &= locs[i] >= 0 && locs[i] < WANTED_BITMAP_MAX;
      top = MAX (top, locs[i]);
    }
  if (small)
    {
      wanted->n_bits = top + 1;
      wanted->bits = g_new0 (guint8, wanted->n_bits / 8 + 1);
      for (guint i = 0; i < n_locs; i++)
        wanted->bits[locs[i] / 8] |= (guint8)(1u << (locs[i] % 8));
      return;
    }
  wanted->table = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < n_locs; i++)
    g_hash_table_add (wanted->table, (gpointer)&locs[i]);
}

static void
wanted_clear (Wanted *wanted)
{
  g_clear_pointer (&wanted->bits, g_free);
  g_clear_pointer (&wanted->table, g_hash_table_unref);
}

static inline gboolean
wanted_has (const Wanted *wanted,
            gint64        loc)
{
  if (wanted->bits != NULL)
    return loc >= 0 && loc < wanted->n_bits && (wanted->bits[loc / 8] >> (loc % 8) & 1) != 0;

  return g_hash_table_contains (wanted->table, &loc);
}

static inline gboolean
pair_wanted (const Wanted      *wanted,
             const MessagePair *pair)
{
  return wanted->all || wanted_has (wanted, pair->send_loc) || wanted_has (wanted, pair->recv_loc);
}

/* The walk over the index's pairs for read_message_density(): its
 * entries (their slot field the slot's index until the end) at
 * slot_ticks (doubled when they are too many) */
typedef struct
{
  const MessageIndex *index;
  const Wanted       *wanted;
  gint64              t0, t1;
  gint64              slot_ticks;
  guint               limit;
  SextantViewMessageDensity *out;
  guint               n;
  guint               size;    /* of out */
} DensityWalk;

/* Counts @count messages of @pair, sent from @begin, the last received
 * at @end, with @bytes, in slot @slot of @walk: added to the last entry
 * when it is the pair's in that slot; when the entries are too many,
 * coarser slots from now (the same result as at the end: the entries so
 * far are fewer than all of them, so the end would coarsen too), so that
 * the table stays small and the pairs after it are walked in fewer,
 * wider slots */
static void
density_add (DensityWalk       *walk,
             const MessagePair *pair,
             gint64             slot,
             gint64             begin,
             gint64             end,
             gint64             count,
             gint64             bytes)
{
  SextantViewMessageDensity *last = walk->n > 0 ? &walk->out[walk->n - 1] : NULL;

  if (last != NULL && last->send_loc == pair->send_loc && last->recv_loc == pair->recv_loc && last->slot == slot)
    {
      last->begin = MIN (last->begin, begin);
      last->end = MAX (last->end, end);
      last->count += count;
      last->bytes += bytes;
      return;
    }
  if (walk->n == walk->size)
    {
      walk->size *= 2;
      walk->out = g_renew (SextantViewMessageDensity, walk->out, walk->size);
    }
  walk->out[walk->n++] = (SextantViewMessageDensity) { pair->send_loc, pair->recv_loc, begin, end, count, bytes,
                                                       slot, 0 };
  if (walk->n > walk->limit && walk->slot_ticks < walk->t1 - walk->t0)
    {
      walk->n = density_coarsen (walk->out, walk->n);
      walk->slot_ticks *= 2;
    }
}

/* The first of @times[@i, @n) sent at or after @t (@times by send time):
 * a search that doubles its steps from @i, so that a run of k messages
 * costs log k */
static guint
gallop (const MessageTimes *times,
        guint               i,
        guint               n,
        gint64              t)
{
  guint lo = i, step = 1;

  while (lo + step < n && times[lo + step].send_time < t)
    {
      lo += step;
      step *= 2;
    }

  /* times[lo] is before t (or lo == i), times[lo + step] is not (or past n) */
  return first_sent_from (times, lo, MIN (lo + step, n), t);
}

static void
density_walk (DensityWalk *walk)
{
  gint64 t0 = walk->t0, t1 = walk->t1;

  for (guint p = 0; p < walk->index->pairs->len; p++)
    {
      const MessagePair *pair = &g_array_index (walk->index->pairs, MessagePair, p);
      const MessageTimes *times = &g_array_index (walk->index->times, MessageTimes, pair->first);
      const gint64 *before = walk->index->before + pair->first;
      guint i;

      if (!pair_wanted (walk->wanted, pair))
        continue;
      i = message_pair_first (pair, times, t0);
      /* sent before the view and received in it: the first slot's */
      for (; i < pair->n && times[i].send_time < t0; i++)
        if (times[i].recv_time >= t0)
          density_add (walk, pair, 0, times[i].send_time, times[i].recv_time, 1, message_bytes (&times[i]));
      if (pair->in_order)
        /* a slot's messages at once: the run of them sent in it, its last
         * received last, all received after t0 */
        while (i < pair->n && times[i].send_time < t1)
          {
            gint64 slot = (times[i].send_time - t0) / walk->slot_ticks;
            guint j = gallop (times, i, pair->n, MIN (t0 + (slot + 1) * walk->slot_ticks, t1));

            density_add (walk, pair, slot, times[i].send_time, times[j - 1].recv_time, j - i,
                         (j < pair->n ? before[j] : pair->bytes) - before[i]);
            i = j;
          }
      else
        /* one by one */
        for (; i < pair->n && times[i].send_time < t1; i++)
          if (times[i].recv_time >= t0)
            density_add (walk, pair, (times[i].send_time - t0) / walk->slot_ticks, times[i].send_time,
                         times[i].recv_time, 1, message_bytes (&times[i]));
    }
}

gboolean
sextant_lod_reader_read_message_density (SextantLodReader  *self,
                                         const gint64      *locs,
                                         guint              n_locs,
                                         gint64             t0,
                                         gint64             t1,
                                         gint64             slot_ticks,
                                         guint              max,
                                         GArray            *density,
                                         GError           **error)
{
  Wanted wanted;
  DensityWalk walk;

  g_return_val_if_fail (density != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (density) == sizeof (SextantViewMessageDensity), FALSE);

  if (t1 <= t0 || max == 0)
    return TRUE;
  if (!message_index_build (self, error))
    return FALSE;
  /* the entries, coarsened whenever they pass @max: at most max + 1 */
  wanted_init (&wanted, locs, n_locs);
  walk = (DensityWalk) { self->message_index, &wanted, t0, t1, MAX (slot_ticks, 1), max, NULL, 0,
                         MIN (max, 4095) + 1 };
  walk.out = g_new (SextantViewMessageDensity, walk.size);
  density_walk (&walk);
  wanted_clear (&wanted);
  slot_ticks = walk.slot_ticks;

  /* too many: slots twice as wide, until they fit or one slot holds the view */
  while (walk.n > max && slot_ticks < t1 - t0)
    {
      walk.n = density_coarsen (walk.out, walk.n);
      slot_ticks *= 2;
    }
  for (guint i = 0; i < walk.n; i++)
    {
      walk.out[i].slot_ticks = slot_ticks;
      walk.out[i].slot = t0 + walk.out[i].slot * slot_ticks;
    }
  /* still too many (more pairs than @max): the busiest pairs */
  if (walk.n > max)
    {
      qsort (walk.out, walk.n, sizeof *walk.out, compare_density);
      walk.n = max;
    }
  g_array_append_vals (density, walk.out, walk.n);
  g_free (walk.out);

  return TRUE;
}

static gboolean
message_row (const SextantRow  *row,
             gpointer           user_data,
             GError           **error)
{
  SextantViewMessage m;

  m.send_loc = sextant_row_get_int (row, 0);
  m.recv_loc = sextant_row_get_int (row, 1);
  m.send_time = sextant_row_get_int (row, 2);
  m.recv_time = sextant_row_get_int (row, 3);
  m.id = sextant_row_get_int (row, 4);
  m.bytes = sextant_row_get_int_or_null (row, 5);
  g_array_append_val ((GArray *)user_data, m);

  return TRUE;
}

gboolean
sextant_lod_reader_read_messages (SextantLodReader  *self,
                                  const gint64      *locs,
                                  guint              n_locs,
                                  gint64             t0,
                                  gint64             t1,
                                  guint              max,
                                  GArray            *messages,
                                  gboolean          *too_many,
                                  GError           **error)
{
  Wanted wanted;

  g_return_val_if_fail (messages != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (messages) == sizeof (SextantViewMessage), FALSE);
  g_return_val_if_fail (too_many != NULL, FALSE);

  *too_many = FALSE;
  if (t1 <= t0)
    return TRUE;

  if (!message_index_build (self, error))
    return FALSE;
  wanted_init (&wanted, locs, n_locs);

  /* pair by pair, the messages sent in [t0 - the pair's longest, t1) */
  {
    const MessageIndex *index = self->message_index;
    guint len = messages->len;
    guint n = 0;

    for (guint p = 0; p < index->pairs->len && !*too_many; p++)
      {
        const MessagePair *pair = &g_array_index (index->pairs, MessagePair, p);
        const MessageTimes *times = &g_array_index (index->times, MessageTimes, pair->first);

        if (!pair_wanted (&wanted, pair))
          continue;
        for (guint i = message_pair_first (pair, times, t0); i < pair->n && times[i].send_time < t1; i++)
          {
            SextantViewMessage m;

            if (times[i].recv_time < t0)
              continue;
            if (++n > max)
              {
                g_array_set_size (messages, len);
                *too_many = TRUE;
                break;
              }
            m.send_loc = pair->send_loc;
            m.recv_loc = pair->recv_loc;
            m.send_time = times[i].send_time;
            m.recv_time = times[i].recv_time;
            m.id = times[i].id;
            m.bytes = times[i].bytes;
            g_array_append_val (messages, m);
          }
      }
  }
  wanted_clear (&wanted);

  return TRUE;
}

gboolean
sextant_lod_reader_read_messages_rows (SextantLodReader  *self,
                                       gint64             t0,
                                       gint64             t1,
                                       guint              max,
                                       GArray            *messages,
                                       gboolean          *too_many,
                                       GError           **error)
{
  *too_many = FALSE;
  if (t1 <= t0)
    return TRUE;

  return _sextant_lod_read_bounded (self, SEXTANT_QUERY_MESSAGES_IN_VIEW, message_row, t0, t1, max, messages, too_many, error);
}
