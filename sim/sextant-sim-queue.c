/*
 * sextant-sim-queue.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The event queue: events popped in (time, push order), whatever the
 * structure underneath.
 *
 * Every time the torus model computes is a sum of a few constants (the
 * cycle, the latencies, the host overhead), so all of them are multiples of
 * their greatest common divisor, the queue's unit. With a unit the queue is
 * a calendar: a ring of RING_SIZE buckets, one per unit of time from the
 * current time on, each a FIFO array of events of exactly that time. A
 * push appends to its time's bucket and a pop takes the current bucket's
 * head, both O(1) and without a malloc once the buckets have grown; since
 * a bucket holds one time and its events in push order, the pops come out
 * in (time, push order), as from a heap. Events beyond the ring's window
 * wait in a binary heap keyed by (time, push order) and move into their
 * bucket when the window reaches their time, before any later push can
 * land there, so they keep their place. Without a unit (0) every event
 * goes through the heap.
 *
 * An all-gather on thousands of nodes pushes hundreds of millions of
 * events, with millions pending; a bucket holds 8 bytes per event (its
 * time is the bucket's, the rest packed: node and source under 2^20 and
 * 2^21, packet under 4096, kind and tree under 16; a push checks it), the
 * heap 32. A time is turned into units by a multiplication with the unit's
 * inverse, not a division. sextant_sim_queue_peek_ahead () shows the
 * events after the next for the caller to prefetch what they touch. The
 * peak of pending events is reported for the memory figures of
 * docs/benchmarks.md.
 */
#include "config.h"

#include "sextant-sim-queue.h"

#define RING_SIZE      (1u << 16)
#define RING_MASK      (RING_SIZE - 1)
#define CHUNK_SLOTS    93      /* a chunk of 752 bytes */

/* A bucket's event in 8 bytes (its time is the bucket's): the node (20
 * bits: the torus has at most 2^20 nodes), the source (21 bits, all ones
 * for G_MAXUINT32), the packet (12 bits: at most 4096 packets), the kind
 * and the tree (4 bits each) */
typedef guint64 Slot;

#define NODE_BITS      20
#define SOURCE_BITS    21
#define PACKET_BITS    12
#define KIND_BITS      4
#define NO_SOURCE_SLOT ((G_GUINT64_CONSTANT (1) << SOURCE_BITS) - 1)

static inline gboolean
fits_slot (const SextantSimEvent *event)
{
  return event->node >> NODE_BITS == 0 && (event->source < NO_SOURCE_SLOT || event->source == G_MAXUINT32) &&
         event->packet >> PACKET_BITS == 0 && event->kind >> KIND_BITS == 0 && event->tree >> KIND_BITS == 0;
}

static inline Slot
slot_pack (const SextantSimEvent *event)
{
  guint64 source = event->source == G_MAXUINT32 ? NO_SOURCE_SLOT : event->source;

  return (guint64)event->node | source << NODE_BITS | (guint64)event->packet << (NODE_BITS + SOURCE_BITS) |
         (guint64)event->kind << (NODE_BITS + SOURCE_BITS + PACKET_BITS) |
         (guint64)event->tree << (NODE_BITS + SOURCE_BITS + PACKET_BITS + KIND_BITS);
}

static inline void
slot_unpack (Slot             slot,
             SextantSimEvent *event)
{
  guint64 source = (slot >> NODE_BITS) & NO_SOURCE_SLOT;

  event->node = (guint32)(slot & ((1u << NODE_BITS) - 1));
  event->source = source == NO_SOURCE_SLOT ? G_MAXUINT32 : (guint32)source;
  event->packet = (guint16)((slot >> (NODE_BITS + SOURCE_BITS)) & ((1u << PACKET_BITS) - 1));
  event->kind = (guint8)((slot >> (NODE_BITS + SOURCE_BITS + PACKET_BITS)) & ((1u << KIND_BITS) - 1));
  event->tree = (guint8)(slot >> (NODE_BITS + SOURCE_BITS + PACKET_BITS + KIND_BITS));
}

typedef struct _Chunk Chunk;
struct _Chunk
{
  Chunk   *next;
  Slot     slots[CHUNK_SLOTS];
};

/* A bucket's events: a list of chunks, read from @first at @head, written
 * to @last at @tail */
typedef struct
{
  Chunk   *first;
  Chunk   *last;
  guint32  head;
  guint32  tail;
} Bucket;

struct _SextantSimQueue
{
  gint64           unit;
  guint64          inverse;   /* ceil (2^64 / unit) with a unit over 1 */
  Bucket          *ring;
  guint64         *full;      /* a bit per non-empty bucket */
  gint64           now;       /* in units: the current bucket's time */
  gsize            in_ring;
  Chunk           *spare;     /* drained chunks, for the next pushes */
  gsize            n_chunks;

  SextantSimEvent *heap;
  gsize            len;
  gsize            alloc;

  gsize            peak;
  guint64          n_pushed;
};

/**
 * sextant_sim_queue_new:
 * @unit: every event time is a multiple of it (ps); 0: not known
 */
SextantSimQueue *
sextant_sim_queue_new (gint64 unit)
{
  SextantSimQueue *self = g_new0 (SextantSimQueue, 1);

  self->unit = MAX (unit, 0);
  if (self->unit > 1)
    self->inverse = G_MAXUINT64 / (guint64)self->unit + 1;
  if (self->unit > 0)
    {
      self->ring = g_new0 (Bucket, RING_SIZE);
      self->full = g_new0 (guint64, RING_SIZE / 64);
    }
  self->alloc = 1024;
  self->heap = g_new (SextantSimEvent, self->alloc);

  return self;
}

static void
free_chunks (Chunk *chunk)
{
  while (chunk != NULL)
    {
      Chunk *next = chunk->next;

      g_free (chunk);
      chunk = next;
    }
}

void
sextant_sim_queue_free (SextantSimQueue *self)
{
  if (self == NULL)
    return;

  if (self->ring != NULL)
    for (guint i = 0; i < RING_SIZE; i++)
      free_chunks (self->ring[i].first);
  free_chunks (self->spare);
  g_free (self->ring);
  g_free (self->full);
  g_free (self->heap);
  g_free (self);
}

static inline gboolean
before (const SextantSimEvent *a,
        const SextantSimEvent *b)
{
  return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void
heap_push (SextantSimQueue       *self,
           const SextantSimEvent *event)
{
  gsize i;

  if (self->len == self->alloc)
    {
      self->alloc *= 2;
      self->heap = g_renew (SextantSimEvent, self->heap, self->alloc);
    }

  i = self->len++;
  self->heap[i] = *event;
  while (i > 0)
    {
      gsize parent = (i - 1) / 2;
      SextantSimEvent tmp;

      if (!before (&self->heap[i], &self->heap[parent]))
        break;
      tmp = self->heap[i];
      self->heap[i] = self->heap[parent];
      self->heap[parent] = tmp;
      i = parent;
    }
}

static void
heap_pop (SextantSimQueue *self,
          SextantSimEvent *event)
{
  SextantSimEvent last;
  gsize i = 0;

  *event = self->heap[0];
  last = self->heap[--self->len];
  for (;;)
    {
      gsize child = 2 * i + 1;

      if (child >= self->len)
        break;
      if (child + 1 < self->len && before (&self->heap[child + 1], &self->heap[child]))
        child++;
      if (!before (&self->heap[child], &last))
        break;
      self->heap[i] = self->heap[child];
      i = child;
    }
  if (self->len > 0)
    self->heap[i] = last;
}

/* @time / unit without a division: with inverse = (2^64 + e) / unit,
 * 0 <= e < unit, a multiple q unit of it gives q + floor (q e / 2^64) = q
 * since q e < q unit < 2^63 (a time not a multiple fails the callers'
 * check) */
static inline gint64
units_of (const SextantSimQueue *self,
          gint64                 time)
{
#ifdef __SIZEOF_INT128__
  if (self->unit > 1)
    return (gint64)(((unsigned __int128)(guint64)time * self->inverse) >> 64);
#endif
  return time / self->unit;
}

static inline void
bucket_append (SextantSimQueue       *self,
               gint64                 units,
               const SextantSimEvent *event)
{
  guint i = (guint)(units & RING_MASK);
  Bucket *b = &self->ring[i];

  if (b->last == NULL || b->tail == CHUNK_SLOTS)
    {
      Chunk *chunk = self->spare;

      if (chunk != NULL)
        self->spare = chunk->next;
      else
        {
          chunk = g_new (Chunk, 1);
          self->n_chunks++;
        }
      chunk->next = NULL;
      if (b->last != NULL)
        b->last->next = chunk;
      else
        {
          b->first = chunk;
          b->head = 0;
          self->full[i / 64] |= G_GUINT64_CONSTANT (1) << (i % 64);
        }
      b->last = chunk;
      b->tail = 0;
    }
  b->last->slots[b->tail++] = slot_pack (event);
  self->in_ring++;
}

/* Takes the head of the current bucket (it has one) */
static inline void
bucket_take (SextantSimQueue *self,
             Bucket          *b,
             SextantSimEvent *event)
{
  Chunk *chunk = b->first;

  event->time = self->now * self->unit;
  slot_unpack (chunk->slots[b->head++], event);
  self->in_ring--;
  if (chunk == b->last ? b->head == b->tail : b->head == CHUNK_SLOTS)
    {
      b->first = chunk->next;
      b->head = 0;
      chunk->next = self->spare;
      self->spare = chunk;
      if (b->first == NULL)
        {
          guint i = (guint)(self->now & RING_MASK);

          b->last = NULL;
          self->full[i / 64] &= ~(G_GUINT64_CONSTANT (1) << (i % 64));
        }
    }
}

/* Returns: how many units on from the current bucket the next non-empty
 * one is (there is one) */
static guint
next_full (const SextantSimQueue *self)
{
  guint start = (guint)(self->now & RING_MASK);
  guint w = start / 64;
  guint64 bits = self->full[w] & (~G_GUINT64_CONSTANT (0) << (start % 64));

  for (guint i = 0; bits == 0; i++)
    {
      g_assert (i <= RING_SIZE / 64);
      w = (w + 1) % (RING_SIZE / 64);
      bits = self->full[w];
    }

  return ((w * 64 + (guint)__builtin_ctzll (bits)) - start) & RING_MASK;
}

/* The heap's events whose time the window now reaches go to their buckets */
static void
migrate (SextantSimQueue *self)
{
  while (self->len > 0 && units_of (self, self->heap[0].time) < self->now + RING_SIZE)
    {
      SextantSimEvent ev;

      heap_pop (self, &ev);
      bucket_append (self, units_of (self, ev.time), &ev);
    }
}

/* Adds a copy of @event (its seq is set here); its time is not before the
 * last popped event's. */
void
sextant_sim_queue_push (SextantSimQueue       *self,
                        const SextantSimEvent *event)
{
  SextantSimEvent ev = *event;

  ev.seq = self->n_pushed++;
  if (self->unit == 0)
    heap_push (self, &ev);
  else
    {
      gint64 units = units_of (self, ev.time);

      g_assert (units * self->unit == ev.time && units >= self->now);
      /* a programming error, checked in every build: a bucket would keep
       * another event than the one pushed */
      if (G_UNLIKELY (!fits_slot (&ev)))
        g_error ("event (node %u, source %u, packet %u, kind %u, tree %u) does not fit the calendar's 8 bytes",
                 ev.node, ev.source, ev.packet, ev.kind, ev.tree);
      if (units < self->now + RING_SIZE)
        bucket_append (self, units, &ev);
      else
        heap_push (self, &ev);
    }
  self->peak = MAX (self->peak, self->in_ring + self->len);
}

/* Returns: FALSE when the queue is empty, else the earliest event in @event */
gboolean
sextant_sim_queue_pop (SextantSimQueue *self,
                       SextantSimEvent *event)
{
  if (self->unit == 0)
    {
      if (self->len == 0)
        return FALSE;
      heap_pop (self, event);
      return TRUE;
    }

  for (;;)
    {
      Bucket *b = &self->ring[self->now & RING_MASK];

      if (b->first != NULL)
        {
          bucket_take (self, b, event);
          return TRUE;
        }
      if (self->in_ring == 0)
        {
          if (self->len == 0)
            return FALSE;
          self->now = units_of (self, self->heap[0].time);
        }
      else
        self->now += next_full (self);
      migrate (self);
    }
}

/**
 * sextant_sim_queue_peek_ahead:
 * @ahead: how many places after the next event to pop
 * @event: (out): that event, its time not set
 *
 * For prefetching: the event @ahead places after the next one to pop, when
 * the calendar holds it in the current bucket's first chunk (a
 * heap-ordered queue does not say).
 *
 * Returns: whether @event was set
 */
gboolean
sextant_sim_queue_peek_ahead (const SextantSimQueue *self,
                              guint                  ahead,
                              SextantSimEvent       *event)
{
  const Bucket *b;
  guint i;

  if (self->unit == 0)
    return FALSE;
  b = &self->ring[self->now & RING_MASK];
  if (b->first == NULL)
    return FALSE;
  i = b->head + ahead;
  if (i >= (b->first == b->last ? b->tail : CHUNK_SLOTS))
    return FALSE;

  slot_unpack (b->first->slots[i], event);

  return TRUE;
}

guint64
sextant_sim_queue_get_n_pushed (const SextantSimQueue *self)
{
  return self->n_pushed;
}

gsize
sextant_sim_queue_get_peak (const SextantSimQueue *self)
{
  return self->peak;
}
