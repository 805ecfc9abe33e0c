/*
 * sextant-sim-queue.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A binary min-heap of events keyed by (time, push order). The model pushes
 * tens of millions of events for an all-gather on thousands of nodes, a
 * few per node for a broadcast: push and pop are O(log pending), the array
 * grows by doubling and holds only the pending events (its peak is
 * reported for the memory figures of docs/benchmarks.md).
 */
#include "config.h"

#include "sextant-sim-queue.h"

struct _SextantSimQueue
{
  SextantSimEvent *heap;
  gsize            len;
  gsize            alloc;
  gsize            peak;
  guint64          n_pushed;
};

SextantSimQueue *
sextant_sim_queue_new (void)
{
  SextantSimQueue *self = g_new0 (SextantSimQueue, 1);

  self->alloc = 1024;
  self->heap = g_new (SextantSimEvent, self->alloc);

  return self;
}

void
sextant_sim_queue_free (SextantSimQueue *self)
{
  if (self == NULL)
    return;

  g_free (self->heap);
  g_free (self);
}

static inline gboolean
before (const SextantSimEvent *a,
        const SextantSimEvent *b)
{
  return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* Adds a copy of @event (its seq is set here). */
void
sextant_sim_queue_push (SextantSimQueue       *self,
                        const SextantSimEvent *event)
{
  gsize i;

  if (self->len == self->alloc)
    {
      self->alloc *= 2;
      self->heap = g_renew (SextantSimEvent, self->heap, self->alloc);
    }

  i = self->len++;
  self->peak = MAX (self->peak, self->len);
  self->heap[i] = *event;
  self->heap[i].seq = self->n_pushed++;
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

/* Returns: FALSE when the queue is empty, else the earliest event in @event */
gboolean
sextant_sim_queue_pop (SextantSimQueue *self,
                       SextantSimEvent *event)
{
  SextantSimEvent last;
  gsize i = 0;

  if (self->len == 0)
    return FALSE;

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
