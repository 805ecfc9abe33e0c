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
 * Collectives: their members go to the collective matcher
 * (sextant-collective-matcher.c), which matches them into instances.
 * MPI orders a communicator's collectives per process, whichever thread
 * calls them: a process's members on a communicator that several of its
 * locations call collectives on are held to the end and numbered per
 * process by the time they started (sextant-collective-order.h).
 */
#include "config.h"

#include <string.h>

#include "sextant-chunk-writer.h"
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
  SextantCollectiveMatcher *colls;    /* the collectives' members */
  SextantChunkWriter  *message_rows;
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

SextantMatcher *
_sextant_matcher_new (SextantImport *import,
                      guint          chunk_rows)
{
  SextantMatcher *self = g_new0 (SextantMatcher, 1);

  self->import = import;
  self->colls = _sextant_collective_matcher_new (import, chunk_rows);
  self->message_rows = sextant_chunk_writer_new_queued (import->chunks, import->blocks, SEXTANT_CHUNK_MESSAGE,
                                                        SEXTANT_MESSAGE_N_COLUMNS, 1, chunk_rows);
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
  _sextant_collective_matcher_free (self->colls);
  sextant_chunk_writer_free (self->message_rows);
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
        ok = _sextant_collective_matcher_add (self->colls, c, error);
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

gboolean
_sextant_matcher_number_held_collectives (SextantMatcher  *self,
                                          GError         **error)
{
  g_autoptr(GArray) members = NULL;

  if (self->coll_order == NULL)
    return TRUE;
  members = sextant_collective_order_steal_held (self->coll_order);
  for (guint i = 0; i < members->len; i++)
    if (!_sextant_collective_matcher_add (self->colls, &g_array_index (members, SextantCollectiveHalf, i), error))
      return FALSE;

  return TRUE;
}

SextantCollectiveMatcher *
_sextant_matcher_get_collectives (SextantMatcher *self)
{
  return self->colls;
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
  gint64 run_loc = SEXTANT_NULL;
  gboolean run_recv = FALSE;
  gint64 run_count = 0;
  gint64 run_time = 0;

  if (!_sextant_matcher_add_paired_requests (self, error) ||
      !match_held (self, error))
    return FALSE;
  if (!_sextant_matcher_number_held_collectives (self, error))
    return FALSE;

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

  return _sextant_collective_matcher_finish (self->colls, error) &&
         sextant_chunk_writer_flush (self->message_rows, error) &&
         _sextant_collective_matcher_flush (self->colls, error);
}

