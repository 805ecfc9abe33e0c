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
 * events, with millions pending; a bucket holds 12 bytes per event (its
 * time is the bucket's), the heap 32. The peak of pending events is
 * reported for the memory figures of docs/benchmarks.md.
 */
#include "config.h"

#include "sextant-sim-queue.h"

#define RING_SIZE      (1u << 16)
#define RING_MASK      (RING_SIZE - 1)
#define CHUNK_SLOTS    62      /* a chunk of 752 bytes */

typedef struct
{
  guint32 node;
  guint32 source;
  guint16 packet;
  guint8  kind;
  guint8  tree;
} Slot;

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
  b->last->slots[b->tail++] = (Slot) { event->node, event->source, event->packet, event->kind, event->tree };
  self->in_ring++;
}

/* Takes the head of the current bucket (it has one) */
static inline void
bucket_take (SextantSimQueue *self,
             Bucket          *b,
             SextantSimEvent *event)
{
  Chunk *chunk = b->first;
  const Slot *s = &chunk->slots[b->head++];

  *event = (SextantSimEvent) { .time = self->now * self->unit, .node = s->node, .source = s->source,
                               .packet = s->packet, .kind = s->kind, .tree = s->tree };
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
  while (self->len > 0 && self->heap[0].time / self->unit < self->now + RING_SIZE)
    {
      SextantSimEvent ev;

      heap_pop (self, &ev);
      bucket_append (self, ev.time / self->unit, &ev);
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
      gint64 units = ev.time / self->unit;

      g_assert (units * self->unit == ev.time && units >= self->now);
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
          self->now = self->heap[0].time / self->unit;
        }
      else
        self->now += next_full (self);
      migrate (self);
    }
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
