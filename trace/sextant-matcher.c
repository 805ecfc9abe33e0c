/*
 * sextant-matcher.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Matches the halves of messages and collectives that the location decoders
 * report, in memory, while the events are read.
 *
 * Messages: MPI does not let the messages of one channel (communicator,
 * sender, receiver, tag) overtake each other, so the decoders number the
 * sends and the receives of every channel and the n-th send matches the
 * n-th receive. Each channel keeps a ring of the numbers from its oldest
 * unmatched one on; a half waits in its slot until its partner arrives, then
 * the message is written and the ring advances past the matched front. One
 * lookup of a small table per half, no allocation per message. Because the importer
 * reads all locations in step through time windows, only the messages in
 * flight across a window's edge wait: memory does not grow with the trace.
 * What is left at the end is unmatched: written with the other side NULL and
 * logged per location.
 *
 * Collectives: the n-th collective of each member on a communicator belongs
 * to instance n (self communicators: one instance per location and call).
 * An instance is written when all members of the communicator have arrived,
 * or at the end (logged as incomplete); its id is given when it is written,
 * and its members are written sorted by location.
 */
#include "config.h"

#include <string.h>

#include "sextant-chunk-writer.h"
#include "sextant-import-private.h"

typedef struct
{
  gint64   comm;
  gint64   src;
  gint64   dst;
  guint32  tag;
} ChannelKey;

/* A sequence number of a channel: the half that came first waits here
 * until its partner comes, and the message is written from both. Only what
 * the channel and the number do not tell is kept (the location is the
 * sender for a send, the receiver for a receive): a slot takes less than a
 * cache line, and the rings of all channels stay small. */
typedef struct
{
  guint8      have_send;
  guint8      have_recv;
  guint8      mode;
  gint64      bytes;
  gint64      time;
  gint64      visit;
  gint64      request;
  gint64      time2;
  gint64      visit2;
} Slot;

typedef struct
{
  ChannelKey  key;              /* first: the hash table's key */
  gint64      base;             /* the number of slot 0 */
  guint       head;             /* ring position of slot 0 */
  guint       len;
  guint       cap;              /* a power of two */
  Slot       *slots;
} Channel;

typedef struct
{
  gint64  comm;
  gint64  owner;
  gint64  seq;
} InstanceKey;

typedef struct
{
  InstanceKey  key;             /* first: the hash table's key */
  const char  *kind;
  gint64       root;
  gboolean     nonblocking;
  gint64       expected;
  GArray      *members;         /* SextantCollectiveHalf */
} PendingInstance;

typedef struct
{
  gint64  count;
  gint64  first_time;
} Unmatched;

struct _SextantMatcher
{
  SextantImport       *import;
  Channel            **channels;      /* open addressing by channel_hash(), NULL: empty */
  guint                channels_size;  /* a power of two */
  guint                n_channels;
  Channel             *last;          /* the channel of the last half: often the next one's */
  GHashTable          *instances;     /* InstanceKey* -> PendingInstance* */
  SextantChunkWriter  *message_rows;
  SextantChunkWriter  *member_rows;
  gint64               next_collective;
  guint64              n_matched;
};

static inline guint
channel_hash (const ChannelKey *k)
{  guint64 h = (guint64)k->comm * 0x9E3779B97F4A7C15ULL;

  h ^= (guint64)k->src * 0xC2B2AE3D27D4EB4FULL + (h << 6) + (h >> 2);
  h ^= (guint64)k->dst * 0x165667B19E3779F9ULL + (h << 6) + (h >> 2);
  h ^= (guint64)k->tag + (h << 6) + (h >> 2);

  return (guint)(h ^ (h >> 32));
}

static inline gboolean
channel_equal (const ChannelKey *x,
               const ChannelKey *y)
{
  return x->comm == y->comm && x->src == y->src && x->dst == y->dst && x->tag == y->tag;
}

static void
channel_free (Channel *channel)
{
  g_free (channel->slots);
  g_free (channel);
}

static void
channels_clear (SextantMatcher *self)
{
  for (guint i = 0; i < self->channels_size; i++)
    g_clear_pointer (&self->channels[i], channel_free);
  self->n_channels = 0;
  self->last = NULL;
}

static void
channels_grow (SextantMatcher *self)
{
  Channel **old = self->channels;
  guint old_size = self->channels_size;

  self->channels_size = MAX (64, 2 * old_size);
  self->channels = g_new0 (Channel *, self->channels_size);
  for (guint i = 0; i < old_size; i++)
    {
      guint j;

      if (old[i] == NULL)
        continue;
      for (j = channel_hash (&old[i]->key) & (self->channels_size - 1);
           self->channels[j] != NULL;
           j = (j + 1) & (self->channels_size - 1))
        ;
      self->channels[j] = old[i];
    }
  g_free (old);
}

/* The channel of @key, made if new. */
static Channel *
channel_get (SextantMatcher   *self,
             const ChannelKey *key)
{
  guint mask;
  guint i;

  if (2 * (self->n_channels + 1) > self->channels_size)
    channels_grow (self);
  mask = self->channels_size - 1;

  for (i = channel_hash (key) & mask; self->channels[i] != NULL; i = (i + 1) & mask)
    if (channel_equal (&self->channels[i]->key, key))
      return self->channels[i];

  self->channels[i] = g_new0 (Channel, 1);
  self->channels[i]->key = *key;
  self->n_channels++;

  return self->channels[i];
}

static inline Slot *
channel_slot (Channel *channel,
              guint    i)
{
  return &channel->slots[(channel->head + i) & (channel->cap - 1)];
}

static inline void
slot_store (Slot              *slot,
            const SextantHalf *half)
{
  slot->mode = (guint8)half->mode;
  slot->bytes = half->bytes;
  slot->time = half->time;
  slot->visit = half->visit;
  slot->request = half->request;
  slot->time2 = half->time2;
  slot->visit2 = half->visit2;
}

/* The half that waits in @slot, number @seq of @channel. */
static inline void
slot_get (const Channel *channel,
          const Slot    *slot,
          gint64         seq,
          SextantHalf   *half)
{
  *half = (SextantHalf) {
    .comm = channel->key.comm, .src = channel->key.src, .dst = channel->key.dst, .seq = seq,
    .tag = channel->key.tag, .loc = slot->have_recv ? channel->key.dst : channel->key.src,
    .bytes = slot->bytes, .mode = slot->mode, .time = slot->time, .visit = slot->visit,
    .request = slot->request, .time2 = slot->time2, .visit2 = slot->visit2,
  };
}

/* Makes slot @i exist (empty), growing the ring. */
static void
channel_reach (Channel *channel,
               guint    i)
{
  if (i >= channel->cap)
    {
      guint cap = MAX (channel->cap, 8);
      Slot *slots;

      while (cap <= i)
        cap *= 2;
      slots = g_new0 (Slot, cap);
      for (guint k = 0; k < channel->len; k++)
        slots[k] = *channel_slot (channel, k);
      g_free (channel->slots);
      channel->slots = slots;
      channel->cap = cap;
      channel->head = 0;
    }

  for (; channel->len <= i; channel->len++)
    {
      Slot *slot = channel_slot (channel, channel->len);

      slot->have_send = slot->have_recv = FALSE;
    }
}

static guint
instance_hash (gconstpointer key)
{
  const InstanceKey *k = key;

  return (guint)((guint64)k->comm * 1000003u ^ (guint64)k->owner * 7919u ^ (guint64)k->seq * 2654435761u);
}

static gboolean
instance_equal (gconstpointer a,
                gconstpointer b)
{
  const InstanceKey *x = a;
  const InstanceKey *y = b;

  return x->comm == y->comm && x->owner == y->owner && x->seq == y->seq;
}

static void
instance_free (gpointer data)
{
  PendingInstance *instance = data;

  g_array_unref (instance->members);
  g_free (instance);
}

SextantMatcher *
_sextant_matcher_new (SextantImport *import,
                      guint          chunk_rows)
{
  SextantMatcher *self = g_new0 (SextantMatcher, 1);

  self->import = import;
  self->instances = g_hash_table_new_full (instance_hash, instance_equal, NULL, instance_free);
  self->message_rows = sextant_chunk_writer_new_queued (import->chunks, import->blocks, SEXTANT_CHUNK_MESSAGE,
                                                        SEXTANT_MESSAGE_N_COLUMNS, 1, chunk_rows);
  self->member_rows = sextant_chunk_writer_new_queued (import->chunks, import->blocks,
                                                       SEXTANT_CHUNK_COLLECTIVE_MEMBER,
                                                       SEXTANT_MEMBER_N_COLUMNS, 1, chunk_rows);
  self->next_collective = 1;

  return self;
}

void
_sextant_matcher_free (SextantMatcher *self)
{
  if (self == NULL)
    return;

  channels_clear (self);
  g_free (self->channels);
  g_hash_table_unref (self->instances);
  sextant_chunk_writer_free (self->message_rows);
  sextant_chunk_writer_free (self->member_rows);
  g_free (self);
}

/* Messages ------------------------------------------------------------------ */

static gboolean
write_message (SextantMatcher      *self,
               const SextantHalf   *send,
               const SextantHalf   *recv,
               GError             **error)
{
  gint64 row[SEXTANT_MESSAGE_N_COLUMNS];
  const SextantHalf *any = send != NULL ? send : recv;

  for (guint c = 0; c < SEXTANT_MESSAGE_N_COLUMNS; c++)
    row[c] = SEXTANT_NULL;

  row[SEXTANT_MESSAGE_COMM] = any->comm;
  row[SEXTANT_MESSAGE_TAG] = any->tag;
  row[SEXTANT_MESSAGE_BYTES] = any->bytes;
  /* a peer that no location stands for is -(rank + 1): NULL here */
  row[SEXTANT_MESSAGE_SEND_LOC] = send != NULL ? send->loc : any->src >= 0 ? any->src : SEXTANT_NULL;
  row[SEXTANT_MESSAGE_RECV_LOC] = recv != NULL ? recv->loc : any->dst >= 0 ? any->dst : SEXTANT_NULL;

  if (send != NULL)
    {
      row[SEXTANT_MESSAGE_SEND_MODE] = send->mode;
      row[SEXTANT_MESSAGE_SEND_TIME] = send->time;
      row[SEXTANT_MESSAGE_SEND_VISIT] = send->visit;
      row[SEXTANT_MESSAGE_SEND_REQUEST] = send->request;
      row[SEXTANT_MESSAGE_SEND_COMPLETE_TIME] = send->time2;
      row[SEXTANT_MESSAGE_SEND_COMPLETE_VISIT] = send->visit2;
    }
  if (recv != NULL)
    {
      row[SEXTANT_MESSAGE_RECV_MODE] = recv->mode;
      row[SEXTANT_MESSAGE_RECV_POST_TIME] = recv->time2;
      row[SEXTANT_MESSAGE_RECV_POST_VISIT] = recv->visit2;
      row[SEXTANT_MESSAGE_RECV_TIME] = recv->time;
      row[SEXTANT_MESSAGE_RECV_VISIT] = recv->visit;
      row[SEXTANT_MESSAGE_RECV_REQUEST] = recv->request;
      row[SEXTANT_MESSAGE_RECV_BYTES] = recv->bytes;
    }

  return sextant_chunk_writer_append (self->message_rows, row, error) >= 0;
}

static gboolean
add_half (SextantMatcher     *self,
          const SextantHalf  *half,
          gboolean            is_recv,
          GError            **error)
{
  ChannelKey key = { half->comm, half->src, half->dst, half->tag };
  Channel *channel = self->last;
  gint64 index;
  Slot *slot;
  SextantHalf partner;

  if (channel == NULL || !channel_equal (&channel->key, &key))
    {
      channel = channel_get (self, &key);
      self->last = channel;
    }

  index = half->seq - channel->base;
  if (index < 0 || index > G_MAXINT32)
    {
      _sextant_import_log (self->import, "duplicate_message_half", half->loc, half->time,
                           "a %s with a sequence number already matched; dropped",
                           is_recv ? "receive" : "send");
      return TRUE;
    }
  channel_reach (channel, (guint)index);
  slot = channel_slot (channel, (guint)index);

  if (is_recv ? slot->have_recv : slot->have_send)
    {
      /* two halves of one number: a decoder counted wrong; keep the first */
      _sextant_import_log (self->import, "duplicate_message_half", half->loc, half->time,
                           "two %s with the same channel and sequence number; the later is dropped",
                           is_recv ? "receives" : "sends");
      return TRUE;
    }

  if (!slot->have_send && !slot->have_recv)
    {
      slot_store (slot, half);
      slot->have_send = !is_recv;
      slot->have_recv = is_recv;
      return TRUE;
    }

  slot_get (channel, slot, half->seq, &partner);
  slot->have_send = slot->have_recv = TRUE;
  self->n_matched++;
  if (!write_message (self, is_recv ? &partner : half, is_recv ? half : &partner, error))
    return FALSE;

  /* the front moves past the matched numbers */
  while (channel->len > 0 && channel_slot (channel, 0)->have_send && channel_slot (channel, 0)->have_recv)
    {
      channel->head = (channel->head + 1) & (channel->cap - 1);
      channel->len--;
      channel->base++;
    }

  return TRUE;
}

/* Collectives ------------------------------------------------------------- */

static int
compare_members (gconstpointer a,
                 gconstpointer b)
{
  const SextantCollectiveHalf *x = a;
  const SextantCollectiveHalf *y = b;

  return x->loc < y->loc ? -1 : x->loc > y->loc;
}

static gboolean
write_instance (SextantMatcher   *self,
                PendingInstance  *instance,
                GError          **error)
{
  SextantImport *import = self->import;
  gint64 id = self->next_collective++;
  gint64 root_loc = SEXTANT_NULL;
  gint64 begin = G_MAXINT64;
  gint64 end = G_MININT64;

  /* the members mostly come in location order already */
  for (guint i = 1; i < instance->members->len; i++)
    if (compare_members (&g_array_index (instance->members, SextantCollectiveHalf, i - 1),
                         &g_array_index (instance->members, SextantCollectiveHalf, i)) > 0)
      {
        g_array_sort (instance->members, compare_members);
        break;
      }

  for (guint i = 0; i < instance->members->len; i++)
    {
      const SextantCollectiveHalf *m = &g_array_index (instance->members, SextantCollectiveHalf, i);
      gint64 row[SEXTANT_MEMBER_N_COLUMNS] = {
        [SEXTANT_MEMBER_COLLECTIVE] = id,
        [SEXTANT_MEMBER_LOC] = m->loc,
        [SEXTANT_MEMBER_VISIT] = m->visit,
        [SEXTANT_MEMBER_END_VISIT] = m->end_visit,
        [SEXTANT_MEMBER_BEGIN] = m->begin,
        [SEXTANT_MEMBER_END] = m->end,
        [SEXTANT_MEMBER_BYTES_SENT] = m->sent,
        [SEXTANT_MEMBER_BYTES_RECEIVED] = m->received,
      };

      begin = MIN (begin, m->begin);
      end = MAX (end, m->end);
      if (sextant_chunk_writer_append (self->member_rows, row, error) < 0)
        return FALSE;
    }

  if (instance->root != SEXTANT_NULL)
    {
      gint32 loc = _sextant_import_comm_rank_loc (import, (OTF2_CommRef)instance->key.comm,
                                                  (guint32)instance->root, NULL);

      root_loc = loc >= 0 ? loc : instance->key.owner >= 0 ? instance->key.owner : SEXTANT_NULL;
    }

  if ((gint64)instance->members->len != instance->expected)
    _sextant_import_log (import, "incomplete_collective", SEXTANT_NULL, begin,
                         "a %s on communicator %" G_GINT64_FORMAT " has %u of %" G_GINT64_FORMAT " members",
                         instance->kind, instance->key.comm, instance->members->len, instance->expected);

  return sextant_store_run (import->store, SEXTANT_STMT_COLLECTIVE, error, "intnniiiii",
                            id, instance->key.comm, instance->kind, instance->root, root_loc,
                            (gint64)instance->nonblocking, (gint64)instance->members->len,
                            instance->expected, begin, end);
}

static gboolean
add_collective (SextantMatcher               *self,
                const SextantCollectiveHalf  *half,
                GError                      **error)
{
  InstanceKey key = { half->comm, half->owner, half->seq };
  PendingInstance *instance = g_hash_table_lookup (self->instances, &key);
  gboolean ok;

  if (instance == NULL)
    {
      SextantCommDef *comm = half->comm != SEXTANT_NULL
                             ? g_hash_table_lookup (self->import->comms, GINT_TO_POINTER ((gint)half->comm))
                             : NULL;

      instance = g_new0 (PendingInstance, 1);
      instance->key = key;
      instance->kind = half->kind;
      instance->root = half->root;
      instance->nonblocking = half->nonblocking;
      instance->expected = half->owner < 0 && comm != NULL && comm->rank_loc != NULL ? comm->rank_loc->len : 1;
      instance->members = g_array_sized_new (FALSE, FALSE, sizeof (SextantCollectiveHalf),
                                             (guint)CLAMP (instance->expected, 1, 1024));
      g_hash_table_insert (self->instances, &instance->key, instance);
    }
  else if (g_strcmp0 (half->kind, instance->kind) != 0 || half->root != instance->root)
    _sextant_import_log (self->import, "collective_mismatch", half->loc, half->begin,
                         "members of one collective instance disagree on its operation or root "
                         "(%s vs %s)", half->kind, instance->kind);

  g_array_append_val (instance->members, *half);
  if ((gint64)instance->members->len < instance->expected)
    return TRUE;

  ok = write_instance (self, instance, error);
  g_hash_table_remove (self->instances, &key);

  return ok;
}

gboolean
_sextant_matcher_add_deferred (SextantMatcher  *self,
                               const GArray    *halves,
                               const GArray    *coll_halves,
                               GError         **error)
{
  gboolean ok = TRUE;

  for (guint i = 0; ok && halves != NULL && i < halves->len; i++)
    {
      const SextantDeferredHalf *d = &g_array_index (halves, SextantDeferredHalf, i);

      ok = add_half (self, &d->half, d->is_recv, error);
    }
  for (guint i = 0; ok && coll_halves != NULL && i < coll_halves->len; i++)
    ok = add_collective (self, &g_array_index (coll_halves, SextantCollectiveHalf, i), error);

  return ok;
}

/* The end ---------------------------------------------------------------- */

typedef struct
{
  SextantHalf  half;
  gboolean     is_recv;
  gint64       seq;
} Leftover;

static int
compare_leftovers (gconstpointer a,
                   gconstpointer b)
{
  const Leftover *x = a;
  const Leftover *y = b;

  if (x->is_recv != y->is_recv)
    return x->is_recv ? 1 : -1;
  if (x->half.loc != y->half.loc)
    return x->half.loc < y->half.loc ? -1 : 1;
  if (x->half.time != y->half.time)
    return x->half.time < y->half.time ? -1 : 1;
  if (x->half.comm != y->half.comm)
    return x->half.comm < y->half.comm ? -1 : 1;
  if (x->half.src != y->half.src)
    return x->half.src < y->half.src ? -1 : 1;
  if (x->half.dst != y->half.dst)
    return x->half.dst < y->half.dst ? -1 : 1;
  if (x->half.tag != y->half.tag)
    return x->half.tag < y->half.tag ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
compare_instances (gconstpointer a,
                   gconstpointer b)
{
  const PendingInstance *x = *(PendingInstance * const *)a;
  const PendingInstance *y = *(PendingInstance * const *)b;

  if (x->key.comm != y->key.comm)
    return x->key.comm < y->key.comm ? -1 : 1;
  if (x->key.owner != y->key.owner)
    return x->key.owner < y->key.owner ? -1 : 1;
  return x->key.seq < y->key.seq ? -1 : x->key.seq > y->key.seq;
}

static GPtrArray *
values_of (GHashTable *table)
{
  GPtrArray *values = g_ptr_array_sized_new (g_hash_table_size (table));
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (values, value);

  return values;
}

/* Writes the halves without partners and the incomplete collectives, in a
 * stable order, and logs them: per location, sends and receives apart. */
gboolean
_sextant_matcher_finish (SextantMatcher  *self,
                         GError         **error)
{
  g_autoptr(GArray) left = g_array_new (FALSE, FALSE, sizeof (Leftover));
  g_autoptr(GPtrArray) open = values_of (self->instances);
  gint64 run_loc = SEXTANT_NULL;
  gboolean run_recv = FALSE;
  gint64 run_count = 0;
  gint64 run_time = 0;

  for (guint c = 0; c < self->channels_size; c++)
    {
      Channel *channel = self->channels[c];

      if (channel == NULL)
        continue;
      for (guint i = 0; i < channel->len; i++)
        {
          const Slot *slot = channel_slot (channel, i);
          Leftover l;

          if (slot->have_send == slot->have_recv)
            continue;
          slot_get (channel, slot, channel->base + i, &l.half);
          l.is_recv = slot->have_recv;
          l.seq = channel->base + i;
          g_array_append_val (left, l);
        }
    }

  g_array_sort (left, compare_leftovers);
  for (guint i = 0; i <= left->len; i++)
    {
      const Leftover *m = i < left->len ? &g_array_index (left, Leftover, i) : NULL;

      if (run_count > 0 && (m == NULL || m->half.loc != run_loc || m->is_recv != run_recv))
        {
          _sextant_import_log_n (self->import, run_recv ? "unmatched_receive" : "unmatched_send",
                                 run_loc, run_time, run_count, "%s without a matching %s; kept unmatched",
                                 run_recv ? "receive" : "send", run_recv ? "send" : "receive");
          run_count = 0;
        }
      if (m == NULL)
        break;

      if (run_count == 0)
        {
          run_loc = m->half.loc;
          run_recv = m->is_recv;
          run_time = m->half.time;
        }
      run_count++;
      run_time = MIN (run_time, m->half.time);

      if (!write_message (self, m->is_recv ? NULL : &m->half, m->is_recv ? &m->half : NULL, error))
        return FALSE;
    }
  channels_clear (self);

  g_ptr_array_sort (open, compare_instances);
  for (guint i = 0; i < open->len; i++)
    if (!write_instance (self, g_ptr_array_index (open, i), error))
      return FALSE;
  g_hash_table_remove_all (self->instances);

  return sextant_chunk_writer_flush (self->message_rows, error) &&
         sextant_chunk_writer_flush (self->member_rows, error);
}

