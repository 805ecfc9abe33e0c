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
 * Threads: MPI matches per process, not per thread - a message sent to rank
 * r is received by whichever thread of r posted the matching receive first.
 * So channels are between processes: a half's sender and receiver are
 * replaced by their process's location (the one its communicators name,
 * else its first). While only one location of a process has messages, its
 * own numbers are the process's. Once a second one has (noted per batch by
 * _sextant_matcher_note_halves()), the process's halves are held to the
 * end, then numbered per channel and side in MPI's order - sends by the
 * time they were sent, receives by the time they were posted, across the
 * process's threads - after the numbers the channel already used, and
 * matched like the others. Held halves cost memory until the end (a
 * process with messaging threads holds all of its later halves).
 *
 * Collectives: the n-th collective of each member on a communicator belongs
 * to instance n (self communicators: one instance per location and call).
 * Its id comes from its key, not from when it was matched, so that a
 * parallel import's shards and the single-process store give it the same
 * one (instance_id()). A member's row is written when it arrives; the
 * instance keeps only how many came and the bounds the collective wait
 * states compare its members with (sextant-collective-bounds.h), and its
 * `collective` row is written when all members of the communicator have
 * arrived, or at the end (logged as incomplete). So an open instance costs
 * a hundred bytes however many members it has: the importer reads the
 * locations in batches, and an instance over all locations of a
 * 4096-rank trace is open until the last batch has read it. Like the
 * messages' channels, each (communicator, owner) keeps a ring of its
 * instances from the oldest open one on: one lookup per member, no hash
 * table.
 * MPI orders a communicator's collectives per process, whichever thread
 * calls them: a process's members on a communicator that several of its
 * locations call collectives on are held to the end and numbered per
 * process by the time they started (sextant-collective-order.h).
 */
#include "config.h"

#include <string.h>

#include "sextant-chunk-writer.h"
#include "sextant-collective-bounds.h"
#include "sextant-collective-order.h"
#include "sextant-import-private.h"
#include "sextant-request-pairing.h"

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
  gint64      loc;              /* the location that recorded it (a thread of the channel's end) */
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
  gint64      added[2];         /* sends, receives added by their own numbers */
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
  InstanceKey  key;
  guint        late;            /* 0, or n for the n-th instance made again for its key */
  gint64       id;              /* from instance_id() at its first member */
  const char  *kind;
  gint64       root;
  gint64       root_loc;        /* from root, once a member gave it */
  gboolean     nonblocking;
  gint64       expected;
  guint        n_members;       /* arrived (a location twice counts twice) */
  SextantCollectiveBounds bounds;
  GArray      *rootless;        /* (nullable) SextantBoundsMember: of a rooted operation, the
                                 * members that came before one named the root */
} PendingInstance;

/* The instances of one (communicator, owner), by number from its oldest
 * open one */
typedef struct
{
  gint64            comm;
  gint64            owner;
  gint64            base;       /* the number of ring slot 0 */
  guint             head;
  guint             len;
  guint             cap;        /* a power of two */
  PendingInstance **ring;       /* NULL: written, or not begun */
  gint64            expected;
} CollChannel;

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
  Slot                *spare_rings[32]; /* rings of emptied channels by log2 of their capacity, each
                                       * linked to the next by its first word */
  CollChannel        **colls;         /* open addressing by (comm, owner), NULL: empty */
  guint                colls_size;     /* a power of two */
  guint                n_colls;
  CollChannel         *last_coll;
  GPtrArray           *spare_instances; /* written, for reuse */
  GHashTable          *late;          /* InstanceKey* -> PendingInstance*: a number met again after
                                       * its instance was written (more members than the group has) */
  GHashTable          *late_counts;   /* (nullable) InstanceKey* -> the late instances made for it */
  SextantChunkWriter  *message_rows;
  SextantChunkWriter  *member_rows;
  gint64               next_collective; /* of the ids that no key gives (instance_id()) */
  guint32             *self_written;  /* (nullable) by location: its self-communicator instances written */
  guint64              n_matched;
  /* threads: by location index, from _sextant_matcher_note_halves() */
  guint                n_locs;
  gint32              *process;       /* the location that stands for its process */
  gint32              *first_sender;  /* by process location: its first location with halves, -1 */
  guint8              *threaded;      /* by process location: several of its locations have halves */
  GArray              *held;          /* Held: the halves of threaded processes, to the end */
  SextantCollectiveOrder *coll_order; /* (nullable) the collectives of threaded processes, from
                                       * _sextant_matcher_note_collectives() */
  SextantRequestPairing  *requests;   /* the requests threads start and others complete */
};

typedef struct
{
  SextantHalf  half;
  gboolean     is_recv;
} Held;

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
  slot->loc = half->loc;
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
    .tag = channel->key.tag, .loc = slot->loc,
    .bytes = slot->bytes, .mode = slot->mode, .time = slot->time, .visit = slot->visit,
    .request = slot->request, .time2 = slot->time2, .visit2 = slot->visit2,
  };
}

/* A ring of @cap slots (a power of two, 8 at least), uninitialized: one
 * an emptied channel gave back, else new. */
static Slot *
ring_take (SextantMatcher *self,
           guint           cap)
{
  Slot **spare = &self->spare_rings[g_bit_nth_msf (cap, -1)];
  Slot *ring = *spare;

  if (ring == NULL)
    return g_new (Slot, cap);
  /* a free ring's first bytes hold the next free ring of its size */
  memcpy (spare, (const void *)ring, sizeof (gpointer));

  return ring;
}

static void
ring_give (SextantMatcher *self,
           Slot           *ring,
           guint           cap)
{
  Slot **spare = &self->spare_rings[g_bit_nth_msf (cap, -1)];

  memcpy ((void *)ring, spare, sizeof (gpointer));
  *spare = ring;
}

/* Makes slot @i exist (empty), growing the ring. */
static void
channel_reach (SextantMatcher *self,
               Channel        *channel,
               guint           i)
{
  if (i >= channel->cap)
    {
      guint cap = MAX (channel->cap, 8);
      Slot *slots;

      while (cap <= i)
        cap *= 2;
      slots = ring_take (self, cap);
      for (guint k = 0; k < channel->len; k++)
        slots[k] = *channel_slot (channel, k);
      if (channel->slots != NULL)
        ring_give (self, channel->slots, channel->cap);
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

/* A channel with nothing waiting gives its ring back: at many locations
 * most channels carry their messages in one round and none after, and the
 * next channel's halves then go to memory that is mapped and cached. */
static void
channel_release_ring (SextantMatcher *self,
                      Channel        *channel)
{
  ring_give (self, g_steal_pointer (&channel->slots), channel->cap);
  channel->cap = 0;
  channel->head = 0;
}

static void
instance_free (gpointer data)
{
  PendingInstance *instance = data;

  g_clear_pointer (&instance->rootless, g_array_unref);
  g_free (instance);
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
coll_channel_free (CollChannel *channel)
{
  for (guint i = 0; i < channel->len; i++)
    g_clear_pointer (&channel->ring[(channel->head + i) & (channel->cap - 1)], instance_free);
  g_free (channel->ring);
  g_free (channel);
}

static inline guint
coll_hash (gint64 comm,
           gint64 owner)
{
  guint64 h = (guint64)comm * 0x9E3779B97F4A7C15ULL ^ (guint64)owner * 0xC2B2AE3D27D4EB4FULL;

  return (guint)(h ^ (h >> 32));
}

static void
colls_grow (SextantMatcher *self)
{
  CollChannel **old = self->colls;
  guint old_size = self->colls_size;

  self->colls_size = MAX (16, 2 * old_size);
  self->colls = g_new0 (CollChannel *, self->colls_size);
  for (guint i = 0; i < old_size; i++)
    {
      guint j;

      if (old[i] == NULL)
        continue;
      for (j = coll_hash (old[i]->comm, old[i]->owner) & (self->colls_size - 1);
           self->colls[j] != NULL;
           j = (j + 1) & (self->colls_size - 1))
        ;
      self->colls[j] = old[i];
    }
  g_free (old);
}

/* The instances of (@comm, @owner), made if new: how many members they
 * expect. */
static CollChannel *
coll_channel_get (SextantMatcher *self,
                  gint64          comm,
                  gint64          owner)
{
  SextantImport *import = self->import;
  const SextantCommDef *def;
  CollChannel *channel;
  guint mask;
  guint i;

  if (self->last_coll != NULL && self->last_coll->comm == comm && self->last_coll->owner == owner)
    return self->last_coll;

  if (2 * (self->n_colls + 1) > self->colls_size)
    colls_grow (self);
  mask = self->colls_size - 1;
  for (i = coll_hash (comm, owner) & mask; self->colls[i] != NULL; i = (i + 1) & mask)
    if (self->colls[i]->comm == comm && self->colls[i]->owner == owner)
      return self->last_coll = self->colls[i];

  channel = self->colls[i] = g_new0 (CollChannel, 1);
  self->n_colls++;
  channel->comm = comm;
  channel->owner = owner;
  def = comm != SEXTANT_NULL ? g_hash_table_lookup (import->comms, GINT_TO_POINTER ((gint)comm)) : NULL;
  channel->expected = owner < 0 && def != NULL && def->rank_loc != NULL ? def->rank_loc->len : 1;

  return self->last_coll = channel;
}

/* The slot of instance @seq of @channel, made exist (empty) by growing the
 * ring; %NULL for an instance already written. */
static PendingInstance **
coll_channel_slot (CollChannel *channel,
                   gint64       seq)
{
  gint64 index = seq - channel->base;

  if (index < 0 || index > G_MAXINT32)
    return NULL;
  if ((guint)index >= channel->cap)
    {
      guint cap = MAX (channel->cap, 8);
      PendingInstance **ring;

      while (cap <= (guint)index)
        cap *= 2;
      ring = g_new0 (PendingInstance *, cap);
      for (guint k = 0; k < channel->len; k++)
        ring[k] = channel->ring[(channel->head + k) & (channel->cap - 1)];
      g_free (channel->ring);
      channel->ring = ring;
      channel->cap = cap;
      channel->head = 0;
    }
  for (; channel->len <= (guint)index; channel->len++)
    channel->ring[(channel->head + channel->len) & (channel->cap - 1)] = NULL;

  return &channel->ring[(channel->head + (guint)index) & (channel->cap - 1)];
}

SextantMatcher *
_sextant_matcher_new (SextantImport *import,
                      guint          chunk_rows)
{
  SextantMatcher *self = g_new0 (SextantMatcher, 1);

  self->import = import;
  self->spare_instances = g_ptr_array_new_with_free_func (instance_free);
  self->late = g_hash_table_new_full (instance_hash, instance_equal, NULL, instance_free);
  self->message_rows = sextant_chunk_writer_new_queued (import->chunks, import->blocks, SEXTANT_CHUNK_MESSAGE,
                                                        SEXTANT_MESSAGE_N_COLUMNS, 1, chunk_rows);
  self->member_rows = sextant_chunk_writer_new_queued (import->chunks, import->blocks,
                                                       SEXTANT_CHUNK_COLLECTIVE_MEMBER,
                                                       SEXTANT_MEMBER_N_COLUMNS, 1, chunk_rows);
  self->next_collective = 0;
  self->requests = sextant_request_pairing_new (import);

  return self;
}

SextantRequestPairing *
_sextant_matcher_get_requests (SextantMatcher *self)
{
  return self->requests;
}

void
_sextant_matcher_free (SextantMatcher *self)
{
  if (self == NULL)
    return;

  channels_clear (self);
  g_free (self->channels);
  for (guint k = 0; k < G_N_ELEMENTS (self->spare_rings); k++)
    while (self->spare_rings[k] != NULL)
      g_free (ring_take (self, 1u << k));
  for (guint i = 0; i < self->colls_size; i++)
    g_clear_pointer (&self->colls[i], coll_channel_free);
  g_free (self->colls);
  g_ptr_array_unref (self->spare_instances);
  g_hash_table_unref (self->late);
  g_clear_pointer (&self->late_counts, g_hash_table_unref);
  g_free (self->self_written);
  sextant_chunk_writer_free (self->message_rows);
  sextant_chunk_writer_free (self->member_rows);
  g_free (self->process);
  g_free (self->first_sender);
  g_free (self->threaded);
  g_clear_pointer (&self->held, g_array_unref);
  g_clear_pointer (&self->coll_order, sextant_collective_order_free);
  sextant_request_pairing_free (self->requests);
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

/* The processes of the locations: every location of a location group is
 * represented by the one the communicators name (the rank's location),
 * else by the group's first. */
static void
init_processes (SextantMatcher *self)
{
  SextantImport *import = self->import;
  g_autoptr(GHashTable) reps = g_hash_table_new (NULL, NULL);   /* group + 1 -> location + 1 */
  g_autofree guint8 *named = NULL;
  GHashTableIter iter;
  gpointer value;

  self->n_locs = import->locations->len;
  self->process = g_new (gint32, MAX (self->n_locs, 1));
  self->first_sender = g_new (gint32, MAX (self->n_locs, 1));
  self->threaded = g_new0 (guint8, MAX (self->n_locs, 1));
  named = g_new0 (guint8, MAX (self->n_locs, 1));
  memset (self->first_sender, 0xff, MAX (self->n_locs, 1) * sizeof (gint32));

  g_hash_table_iter_init (&iter, import->comms);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const SextantCommDef *def = value;

      for (guint r = 0; def->rank_loc != NULL && r < def->rank_loc->len; r++)
        {
          gint32 loc = g_array_index (def->rank_loc, gint32, r);

          if (loc >= 0 && (guint)loc < self->n_locs)
            named[loc] = TRUE;
        }
    }

  /* a named location first, else the group's first */
  for (guint pass = 0; pass < 2; pass++)
    for (guint l = 0; l < self->n_locs; l++)
      {
        guint32 group = g_array_index (import->locations, SextantLocationDef, l).group;
        gpointer key = GUINT_TO_POINTER (group + 1);

        if (group != G_MAXUINT32 && (pass == 1 || named[l]) && !g_hash_table_contains (reps, key))
          g_hash_table_insert (reps, key, GUINT_TO_POINTER (l + 1));
      }
  for (guint l = 0; l < self->n_locs; l++)
    {
      guint32 group = g_array_index (import->locations, SextantLocationDef, l).group;

      self->process[l] = group == G_MAXUINT32 ? (gint32)l
                         : (gint32)GPOINTER_TO_UINT (g_hash_table_lookup (reps, GUINT_TO_POINTER (group + 1))) - 1;
    }
}

static inline gint64
process_of (SextantMatcher *self,
            gint64          loc)
{
  return loc >= 0 && (guint64)loc < self->n_locs ? self->process[loc] : loc;
}

static void note_loc (SextantMatcher *self,
                      gint64          loc);

/**
 * _sextant_matcher_note_halves:
 * @halves: (nullable): a location's SextantDeferredHalf, before they are added
 *
 * Notes the locations that have message halves: a process whose second
 * location has some is threaded from then on (its halves are held and
 * matched per process at the end). Call it for every location of a batch
 * before adding the batch, so that the halves of one round are numbered
 * together.
 */
void
_sextant_matcher_note_halves (SextantMatcher *self,
                              const GArray   *halves)
{
  if (halves == NULL || halves->len == 0)
    return;

  note_loc (self, g_array_index (halves, SextantDeferredHalf, 0).half.loc);
}

static void
note_loc (SextantMatcher *self,
          gint64          loc)
{
  gint32 process;

  if (self->process == NULL)
    init_processes (self);
  if (loc < 0 || (guint64)loc >= self->n_locs)
    return;
  process = self->process[loc];
  if (self->first_sender[process] < 0)
    self->first_sender[process] = (gint32)loc;
  else if (self->first_sender[process] != loc)
    self->threaded[process] = TRUE;
}

/**
 * _sextant_matcher_note_collectives:
 * @coll_halves: (nullable): a location's SextantCollectiveHalf, before they
 *   are added
 *
 * Notes which locations call collectives on which communicators: a
 * process's members on a communicator that a second of its locations
 * calls collectives on are held from then on and numbered per process at
 * the end (see sextant-collective-order.h). Call it for every location of
 * a batch before adding the batch.
 */
void
_sextant_matcher_note_collectives (SextantMatcher *self,
                                   const GArray   *coll_halves)
{
  if (coll_halves == NULL || coll_halves->len == 0)
    return;
  if (self->process == NULL)
    init_processes (self);
  if (self->coll_order == NULL)
    self->coll_order = sextant_collective_order_new (self->process, self->n_locs);

  sextant_collective_order_note (self->coll_order, coll_halves);
}

static gboolean
add_numbered_half (SextantMatcher     *self,
                   const SextantHalf  *half,
                   gboolean            is_recv,
                   GError            **error);

static gboolean
add_half (SextantMatcher     *self,
          const SextantHalf  *half,
          gboolean            is_recv,
          GError            **error)
{
  if (self->process != NULL && half->loc >= 0 && (guint64)half->loc < self->n_locs &&
      self->threaded[self->process[half->loc]])
    {
      Held held = { *half, is_recv };

      if (self->held == NULL)
        self->held = g_array_new (FALSE, FALSE, sizeof (Held));
      g_array_append_val (self->held, held);
      return TRUE;
    }

  return add_numbered_half (self, half, is_recv, error);
}

/* Adds @half by its number on the channel between the processes. */
static gboolean
add_numbered_half (SextantMatcher     *self,
                   const SextantHalf  *half,
                   gboolean            is_recv,
                   GError            **error)
{
  ChannelKey key = { half->comm, process_of (self, half->src), process_of (self, half->dst), half->tag };
  Channel *channel = self->last;
  gint64 index;
  Slot *slot;
  SextantHalf partner;

  if (channel == NULL || !channel_equal (&channel->key, &key))
    {
      channel = channel_get (self, &key);
      self->last = channel;
    }
  channel->added[is_recv ? 1 : 0] = MAX (channel->added[is_recv ? 1 : 0], half->seq + 1);

  index = half->seq - channel->base;
  if (index < 0 || index > G_MAXINT32)
    {
      _sextant_import_log (self->import, "duplicate_message_half", half->loc, half->time,
                           "a %s with a sequence number already matched; dropped",
                           is_recv ? "receive" : "send");
      return TRUE;
    }
  channel_reach (self, channel, (guint)index);
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
  if (channel->len == 0)
    channel_release_ring (self, channel);

  return TRUE;
}

/* Collectives ------------------------------------------------------------- */

/* An instance's id, from what every import of the trace knows of it alike,
 * whichever rank imports it and whenever it is matched (docs/schema.md,
 * "collective"): on a communicator of several members, (comm + 1) << 32 |
 * (seq + 1), and n << 52 more for the n-th instance made again for a number
 * already written (a member too many: a damaged trace; n by the order they
 * were met); on a self communicator, 1 << 62 | owner << 32 | n + 1 for the
 * owner's n-th instance on any self communicator (they are written as the
 * owner's records have them: each has one member). Where these do not fit
 * (comm >= 2^20 - 1, seq or n >= 2^32 - 2, owner >= 2^29, k >= 512) the id
 * is 1 << 61 | a counter of the import, in the order the instances are
 * written. */
static gint64
instance_id (SextantMatcher        *self,
             const PendingInstance *instance)
{
  const InstanceKey *key = &instance->key;
  gint64 comm = key->comm == SEXTANT_NULL ? 0 : key->comm + 1;
  guint n_locs = self->import->locations->len;

  if (key->owner >= 0 && (guint64)key->owner < n_locs && key->owner < (1 << 29) && instance->late == 0)
    {
      if (self->self_written == NULL)
        self->self_written = g_new0 (guint32, n_locs);
      if (self->self_written[key->owner] < G_MAXUINT32 - 1)
        return G_GINT64_CONSTANT (1) << 62 | key->owner << 32 | ++self->self_written[key->owner];
    }
  if (key->owner < 0 && comm >= 0 && comm < (1 << 20) - 1 && key->seq >= 0 && key->seq < G_MAXUINT32 - 1 &&
      instance->late < 512)
    return (gint64)instance->late << 52 | comm << 32 | (key->seq + 1);

  return (G_GINT64_CONSTANT (1) << 61) + self->next_collective++;
}

/* The location of @instance's root, from its root's rank */
static gint64
root_location (SextantMatcher        *self,
               const PendingInstance *instance)
{
  gint32 loc;

  if (instance->root == SEXTANT_NULL)
    return SEXTANT_NULL;
  loc = _sextant_import_comm_rank_loc (self->import, (OTF2_CommRef)instance->key.comm, (guint32)instance->root,
                                       NULL);

  return loc >= 0 ? loc : instance->key.owner >= 0 ? instance->key.owner : SEXTANT_NULL;
}

/* Whether the members of @kind name a root: a member that does not (on
 * an inter-communicator, the root itself and the others of its group)
 * waits until one does, to know whether it is the root. */
static gboolean
kind_has_root (const char *kind)
{
  static const char * const rooted[] = { "BCAST", "GATHER", "GATHERV", "SCATTER", "SCATTERV", "REDUCE" };

  for (guint i = 0; kind != NULL && i < G_N_ELEMENTS (rooted); i++)
    if (strcmp (kind, rooted[i]) == 0)
      return TRUE;

  return FALSE;
}

/* The instance's `collective` row, with its bounds */
static gboolean
write_instance (SextantMatcher   *self,
                PendingInstance  *instance,
                GError          **error)
{
  SextantImport *import = self->import;
  const SextantCollectiveBounds *b = &instance->bounds;

  if ((gint64)instance->n_members != instance->expected)
    _sextant_import_log (import, "incomplete_collective", SEXTANT_NULL, b->begin,
                         "a %s on communicator %" G_GINT64_FORMAT " has %u of %" G_GINT64_FORMAT " members",
                         instance->kind, instance->key.comm, instance->n_members, instance->expected);

  return sextant_store_run (import->store, SEXTANT_STMT_COLLECTIVE, error, "intnniiiiiinnnnnnnnnn",
                            instance->id, instance->key.comm, instance->kind, instance->root, instance->root_loc,
                            (gint64)instance->nonblocking, (gint64)instance->n_members,
                            instance->expected, b->begin, b->end, b->first_loc, b->last_enter, b->last_loc,
                            b->first_leave, b->enter_min, b->enter_min2, b->leave_max, b->leave_max2, b->root_enter,
                            b->latest_begin, b->earliest_end);
}

/* An instance for the slot of @key, from the spares if there are. */
static PendingInstance *
instance_new (SextantMatcher               *self,
              CollChannel                  *channel,
              const SextantCollectiveHalf  *half)
{
  PendingInstance *instance;

  if (self->spare_instances->len > 0)
    instance = g_ptr_array_steal_index_fast (self->spare_instances, self->spare_instances->len - 1);
  else
    instance = g_new0 (PendingInstance, 1);
  instance->key = (InstanceKey) { half->comm, half->owner, half->seq };
  instance->late = 0;
  instance->id = SEXTANT_NULL;
  instance->kind = half->kind;
  instance->root = SEXTANT_NULL;
  instance->root_loc = SEXTANT_NULL;
  instance->nonblocking = half->nonblocking;
  instance->expected = channel->expected;
  instance->n_members = 0;
  sextant_collective_bounds_init (&instance->bounds);
  if (instance->rootless != NULL)
    g_array_set_size (instance->rootless, 0);

  return instance;
}

/* @instance's root is @root: the members that came before it was named
 * learn whether they were it */
static void
name_root (SextantMatcher  *self,
           PendingInstance *instance,
           gint64           root)
{
  instance->root = root;
  instance->root_loc = root_location (self, instance);
  for (guint i = 0; instance->rootless != NULL && i < instance->rootless->len; i++)
    {
      const SextantBoundsMember *m = &g_array_index (instance->rootless, SextantBoundsMember, i);

      if (m->loc == instance->root_loc)
        sextant_collective_bounds_add_root (&instance->bounds, m->enter);
    }
  if (instance->rootless != NULL)
    g_array_set_size (instance->rootless, 0);
}

/* Folds @half into @instance's bounds and writes its row */
static gboolean
add_member (SextantMatcher               *self,
            PendingInstance              *instance,
            const SextantCollectiveHalf  *half,
            GError                      **error)
{
  SextantBoundsMember member = {
    half->loc, half->enter, half->leave, half->begin, half->end, half->sent > 0 || half->received > 0, FALSE,
  };
  gint64 row[SEXTANT_MEMBER_N_COLUMNS] = {
    [SEXTANT_MEMBER_COLLECTIVE] = instance->id,
    [SEXTANT_MEMBER_LOC] = half->loc,
    [SEXTANT_MEMBER_VISIT] = half->visit,
    [SEXTANT_MEMBER_END_VISIT] = half->end_visit,
    [SEXTANT_MEMBER_BEGIN] = half->begin,
    [SEXTANT_MEMBER_END] = half->end,
    [SEXTANT_MEMBER_BYTES_SENT] = half->sent,
    [SEXTANT_MEMBER_BYTES_RECEIVED] = half->received,
  };

  /* a member without a root (on an inter-communicator, the root's group
   * but the root: MPI_PROC_NULL) agrees with the others'; those that came
   * before the root was named learn now whether they were it */
  if (instance->root == SEXTANT_NULL && half->root != SEXTANT_NULL)
    name_root (self, instance, half->root);
  member.is_root = instance->root_loc != SEXTANT_NULL && half->loc == instance->root_loc;
  if (instance->root == SEXTANT_NULL && half->enter != SEXTANT_NULL && kind_has_root (instance->kind))
    {
      if (instance->rootless == NULL)
        instance->rootless = g_array_new (FALSE, FALSE, sizeof (SextantBoundsMember));
      g_array_append_val (instance->rootless, member);
    }
  sextant_collective_bounds_add (&instance->bounds, &member);
  instance->n_members++;

  return sextant_chunk_writer_append (self->member_rows, row, error) >= 0;
}

static gboolean
add_collective (SextantMatcher               *self,
                const SextantCollectiveHalf  *half,
                GError                      **error)
{
  CollChannel *channel = coll_channel_get (self, half->comm, half->owner);
  PendingInstance **slot = coll_channel_slot (channel, half->seq);
  InstanceKey key = { half->comm, half->owner, half->seq };
  PendingInstance *instance;
  gboolean ok;

  /* the instance of this number was written: this member makes a new one,
   * as many as the group has more members than it says */
  if (slot == NULL && (instance = g_hash_table_lookup (self->late, &key)) == NULL)
    {
      gpointer n;

      instance = instance_new (self, channel, half);
      g_hash_table_insert (self->late, &instance->key, instance);
      if (self->late_counts == NULL)
        self->late_counts = g_hash_table_new_full (instance_hash, instance_equal, g_free, NULL);
      n = g_hash_table_lookup (self->late_counts, &key);
      instance->late = GPOINTER_TO_UINT (n) + 1;
      g_hash_table_insert (self->late_counts, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (instance->late));
    }
  else if (slot != NULL && (instance = *slot) == NULL)
    instance = *slot = instance_new (self, channel, half);
  else if (g_strcmp0 (half->kind, instance->kind) != 0 ||
           (half->root != instance->root && half->root != SEXTANT_NULL && instance->root != SEXTANT_NULL))
    _sextant_import_log (self->import, "collective_mismatch", half->loc, half->begin,
                         "members of one collective instance disagree on its operation or root "
                         "(%s vs %s)", half->kind, instance->kind);
  if (instance->id == SEXTANT_NULL)
    instance->id = instance_id (self, instance);

  if (!add_member (self, instance, half, error))
    return FALSE;
  if ((gint64)instance->n_members < instance->expected)
    return TRUE;

  ok = write_instance (self, instance, error);
  if (slot == NULL)
    {
      g_hash_table_steal (self->late, &key);
      g_ptr_array_add (self->spare_instances, instance);
      return ok;
    }
  *slot = NULL;
  g_ptr_array_add (self->spare_instances, instance);

  /* the front moves past the written instances */
  while (channel->len > 0 && channel->ring[channel->head] == NULL)
    {
      channel->head = (channel->head + 1) & (channel->cap - 1);
      channel->len--;
      channel->base++;
    }

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

      /* a parallel import's halves of messages with another rank wait for the exchange */
      if (self->import->share == NULL || !_sextant_import_share_takes_half (self->import, d, &ok, error))
        ok = add_half (self, &d->half, d->is_recv, error);
    }
  for (guint i = 0; ok && coll_halves != NULL && i < coll_halves->len; i++)
    {
      const SextantCollectiveHalf *c = &g_array_index (coll_halves, SextantCollectiveHalf, i);

      if ((self->import->share == NULL || !_sextant_import_share_takes_collective (self->import, c)) &&
          (self->coll_order == NULL || !sextant_collective_order_hold (self->coll_order, c)))
        ok = add_collective (self, c, error);
    }

  return ok;
}

void
_sextant_matcher_note_location (SextantMatcher *self,
                                gint64          loc)
{
  note_loc (self, loc);
}

gboolean
_sextant_matcher_add_halves (SextantMatcher             *self,
                             const SextantDeferredHalf  *halves,
                             gsize                       n,
                             GError                    **error)
{
  gboolean ok = TRUE;

  for (gsize i = 0; ok && i < n; i++)
    ok = add_half (self, &halves[i].half, halves[i].is_recv, error);

  return ok;
}

/**
 * _sextant_matcher_add_paired_requests:
 *
 * Adds the message halves and collective members of the requests that
 * threads of a process started and others completed, once every location
 * has been read (sextant-request-pairing.h): at the end, or before a
 * parallel import's exchange, which takes those with other ranks. Nothing
 * is left to add afterwards.
 */
gboolean
_sextant_matcher_add_paired_requests (SextantMatcher  *self,
                                      GError         **error)
{
  g_autoptr(GArray) halves = NULL;
  g_autoptr(GArray) members = NULL;

  sextant_request_pairing_steal (self->requests, &halves, &members);
  for (guint i = 0; i < halves->len; i++)
    note_loc (self, g_array_index (halves, SextantDeferredHalf, i).half.loc);
  _sextant_matcher_note_collectives (self, members);

  return _sextant_matcher_add_deferred (self, halves, members, error);
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

/* The channel of (@comm, no owner), or NULL */
static CollChannel *
open_channel (SextantMatcher *self,
              gint64          comm)
{
  guint i;

  if (self->colls_size == 0)
    return NULL;
  for (i = coll_hash (comm, -1) & (self->colls_size - 1); self->colls[i] != NULL;
       i = (i + 1) & (self->colls_size - 1))
    if (self->colls[i]->comm == comm && self->colls[i]->owner == -1)
      return self->colls[i];

  return NULL;
}

/* The open instance @seq of (@comm, no owner), or NULL */
static PendingInstance *
open_instance (SextantMatcher *self,
               gint64          comm,
               gint64          seq)
{
  CollChannel *channel = open_channel (self, comm);
  gint64 index;

  if (channel == NULL)
    return NULL;
  index = seq - channel->base;
  if (index < 0 || index >= channel->len)
    return NULL;

  return channel->ring[(channel->head + (guint)index) & (channel->cap - 1)];
}

gboolean
_sextant_matcher_number_held_collectives (SextantMatcher  *self,
                                          GError         **error)
{
  g_autoptr(GArray) members = NULL;

  if (self->coll_order == NULL)
    return TRUE;
  members = sextant_collective_order_steal_held (self->coll_order);
  for (guint i = 0; i < members->len; i++)
    if (!add_collective (self, &g_array_index (members, SextantCollectiveHalf, i), error))
      return FALSE;

  return TRUE;
}

void
_sextant_matcher_root_candidates (SextantMatcher  *self,
                                  gboolean       (*spans) (SextantImport *import,
                                                          gint64         comm),
                                  GArray          *candidates)
{
  for (guint c = 0; c < self->colls_size; c++)
    {
      CollChannel *channel = self->colls[c];

      if (channel == NULL || channel->owner >= 0 || !spans (self->import, channel->comm))
        continue;
      for (guint i = 0; i < channel->len; i++)
        {
          const PendingInstance *instance = channel->ring[(channel->head + i) & (channel->cap - 1)];

          for (guint k = 0; instance != NULL && instance->root == SEXTANT_NULL && instance->rootless != NULL &&
                            k < instance->rootless->len; k++)
            {
              const SextantBoundsMember *m = &g_array_index (instance->rootless, SextantBoundsMember, k);
              SextantRootCandidate candidate = { instance->key.comm, instance->key.seq, m->loc, m->enter };

              g_array_append_val (candidates, candidate);
            }
        }
    }
}

gint64
_sextant_matcher_open_end (SextantMatcher *self,
                           gint64          comm)
{
  CollChannel *channel = open_channel (self, comm);

  return channel != NULL ? channel->base + channel->len : 0;
}

gboolean
_sextant_matcher_open_summary (SextantMatcher           *self,
                               gint64                    comm,
                               gint64                    seq,
                               SextantCollectiveSummary *summary)
{
  const PendingInstance *instance = open_instance (self, comm, seq);

  if (instance == NULL)
    return FALSE;
  *summary = (SextantCollectiveSummary) {
    comm, seq, instance->n_members, instance->root, instance->kind, instance->nonblocking, instance->bounds,
  };

  return TRUE;
}

void
_sextant_matcher_set_combined (SextantMatcher                 *self,
                               const SextantCollectiveSummary *combined,
                               gboolean                        kinds_differ)
{
  PendingInstance *instance = open_instance (self, combined->comm, combined->seq);

  if (instance == NULL)
    return;
  if (kinds_differ || g_strcmp0 (combined->kind, instance->kind) != 0)
    _sextant_import_log (self->import, "collective_mismatch", SEXTANT_NULL, combined->bounds.begin,
                         "members of one collective instance disagree on its operation or root "
                         "(%s vs %s)", combined->kind, instance->kind);
  instance->n_members = (guint)combined->n_members;
  instance->bounds = combined->bounds;
  if (instance->root == SEXTANT_NULL && combined->root != SEXTANT_NULL)
    name_root (self, instance, combined->root);
}

void
_sextant_matcher_add_root_candidate (SextantMatcher             *self,
                                     const SextantRootCandidate *candidate)
{
  PendingInstance *instance = open_instance (self, candidate->comm, candidate->seq);

  if (instance != NULL && instance->root_loc != SEXTANT_NULL && candidate->loc == instance->root_loc)
    sextant_collective_bounds_add_root (&instance->bounds, candidate->enter);
}

/* The instances still open, in no order */
static GPtrArray *
open_instances (SextantMatcher *self)
{
  GPtrArray *open = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->late);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (open, value);

  for (guint c = 0; c < self->colls_size; c++)
    {
      CollChannel *channel = self->colls[c];

      for (guint i = 0; channel != NULL && i < channel->len; i++)
        {
          PendingInstance *instance = channel->ring[(channel->head + i) & (channel->cap - 1)];

          if (instance != NULL)
            g_ptr_array_add (open, instance);
        }
    }

  return open;
}

static int
compare_held (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  SextantMatcher *self = data;
  const Held *x = a;
  const Held *y = b;
  gint64 xs = process_of (self, x->half.src), ys = process_of (self, y->half.src);
  gint64 xd = process_of (self, x->half.dst), yd = process_of (self, y->half.dst);

#define CMP(u, v) if ((u) != (v)) return (u) < (v) ? -1 : 1
  CMP (x->half.comm, y->half.comm);
  CMP (xs, ys);
  CMP (xd, yd);
  CMP (x->half.tag, y->half.tag);
  CMP (x->is_recv, y->is_recv);
  CMP (x->half.post, y->half.post);
  CMP (x->half.loc, y->half.loc);
  CMP (x->half.seq, y->half.seq);
#undef CMP
  return 0;
}

/* The halves of threaded processes, numbered per channel and side in MPI's
 * order after the numbers the channel used, are matched. */
static gboolean
match_held (SextantMatcher  *self,
            GError         **error)
{
  if (self->held == NULL)
    return TRUE;

  g_array_sort_with_data (self->held, compare_held, self);
  for (guint i = 0; i < self->held->len;)
    {
      Held *first = &g_array_index (self->held, Held, i);
      ChannelKey key = { first->half.comm, process_of (self, first->half.src), process_of (self, first->half.dst),
                         first->half.tag };
      Channel *channel = channel_get (self, &key);
      gint64 seq = channel->added[first->is_recv ? 1 : 0];
      guint j;

      self->last = channel;
      for (j = i; j < self->held->len; j++)
        {
          Held *h = &g_array_index (self->held, Held, j);

          if (h->is_recv != first->is_recv || h->half.comm != key.comm || h->half.tag != key.tag ||
              process_of (self, h->half.src) != key.src || process_of (self, h->half.dst) != key.dst)
            break;
          h->half.seq = seq++;
          if (!add_numbered_half (self, &h->half, h->is_recv, error))
            return FALSE;
        }
      i = j;
    }
  g_clear_pointer (&self->held, g_array_unref);

  return TRUE;
}

/* Writes the halves without partners and the incomplete collectives, in a
 * stable order, and logs them: per location, sends and receives apart. */
gboolean
_sextant_matcher_finish (SextantMatcher  *self,
                         GError         **error)
{
  g_autoptr(GArray) left = g_array_new (FALSE, FALSE, sizeof (Leftover));
  g_autoptr(GPtrArray) open = NULL;
  gint64 run_loc = SEXTANT_NULL;
  gboolean run_recv = FALSE;
  gint64 run_count = 0;
  gint64 run_time = 0;

  if (!_sextant_matcher_add_paired_requests (self, error) ||
      !match_held (self, error))
    return FALSE;
  if (!_sextant_matcher_number_held_collectives (self, error))
    return FALSE;
  open = open_instances (self);

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
  for (guint i = 0; i < self->colls_size; i++)
    g_clear_pointer (&self->colls[i], coll_channel_free);
  self->n_colls = 0;
  self->last_coll = NULL;
  g_hash_table_remove_all (self->late);

  return sextant_chunk_writer_flush (self->message_rows, error) &&
         sextant_chunk_writer_flush (self->member_rows, error);
}

