/*
 * sextant-request-map.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Open addressing with linear probing, at most half full; a removal shifts
 * the entries of its probe run back (no tombstones), so lookups stay one
 * short run however many requests came and went.
 */
#include "config.h"

#include <string.h>

#include "sextant-request-map.h"

struct _SextantRequestMap
{
  gsize     value_size;
  guint     size;        /* slots, a power of two */
  guint     n;
  guint64   next_order;
  guint64  *keys;
  guint64  *orders;      /* insertion number, 0: the slot is empty */
  guint8   *values;      /* size * value_size */
};

static inline guint
home_of (const SextantRequestMap *self,
         guint64                  request)
{
  /* Fibonacci hashing: request ids are often counters or addresses */
  return (guint)((request * 0x9E3779B97F4A7C15ULL) >> 32) & (self->size - 1);
}

static inline gpointer
value_at (const SextantRequestMap *self,
          guint                    i)
{
  return self->values + (gsize)i * self->value_size;
}

SextantRequestMap *
sextant_request_map_new (gsize value_size)
{
  SextantRequestMap *self = g_new0 (SextantRequestMap, 1);

  g_return_val_if_fail (value_size > 0, NULL);

  self->value_size = value_size;
  self->size = 16;
  self->next_order = 1;
  self->keys = g_new (guint64, self->size);
  self->orders = g_new0 (guint64, self->size);
  self->values = g_malloc (self->size * value_size);

  return self;
}

void
sextant_request_map_free (SextantRequestMap *self)
{
  if (self == NULL)
    return;

  g_free (self->keys);
  g_free (self->orders);
  g_free (self->values);
  g_free (self);
}

void
sextant_request_map_clear (SextantRequestMap *self)
{
  memset (self->orders, 0, self->size * sizeof (guint64));
  self->n = 0;
  self->next_order = 1;
}

guint
sextant_request_map_size (SextantRequestMap *self)
{
  return self->n;
}

/* The slot of @request, or of the empty slot where it would go. */
static inline guint
probe (const SextantRequestMap *self,
       guint64                  request)
{
  guint mask = self->size - 1;
  guint i;

  for (i = home_of (self, request); self->orders[i] != 0; i = (i + 1) & mask)
    if (self->keys[i] == request)
      break;

  return i;
}

gpointer
sextant_request_map_lookup (SextantRequestMap *self,
                            guint64            request)
{
  guint i = probe (self, request);

  return self->orders[i] != 0 ? value_at (self, i) : NULL;
}

static void
grow (SextantRequestMap *self)
{
  guint64 *keys = self->keys;
  guint64 *orders = self->orders;
  guint8 *values = self->values;
  guint old_size = self->size;

  self->size *= 2;
  self->keys = g_new (guint64, self->size);
  self->orders = g_new0 (guint64, self->size);
  self->values = g_malloc (self->size * self->value_size);

  for (guint j = 0; j < old_size; j++)
    {
      guint i;

      if (orders[j] == 0)
        continue;
      i = probe (self, keys[j]);
      self->keys[i] = keys[j];
      self->orders[i] = orders[j];
      memcpy (value_at (self, i), values + (gsize)j * self->value_size, self->value_size);
    }

  g_free (keys);
  g_free (orders);
  g_free (values);
}

gpointer
sextant_request_map_insert (SextantRequestMap *self,
                            guint64            request)
{
  guint i;

  if (2 * (self->n + 1) > self->size)
    grow (self);

  i = probe (self, request);
  if (self->orders[i] == 0)
    {
      self->keys[i] = request;
      self->n++;
    }
  self->orders[i] = self->next_order++;

  return value_at (self, i);
}

gboolean
sextant_request_map_remove (SextantRequestMap *self,
                            guint64            request,
                            gpointer           value)
{
  guint mask = self->size - 1;
  guint hole = probe (self, request);

  if (self->orders[hole] == 0)
    return FALSE;
  if (value != NULL)
    memcpy (value, value_at (self, hole), self->value_size);

  /* Backward shift: an entry after the hole moves into it unless its home
   * lies cyclically in (hole, i], where the hole does not block its probe. */
  for (guint i = (hole + 1) & mask; self->orders[i] != 0; i = (i + 1) & mask)
    {
      guint home = home_of (self, self->keys[i]);

      if (((i - home) & mask) < ((i - hole) & mask))
        continue;
      self->keys[hole] = self->keys[i];
      self->orders[hole] = self->orders[i];
      memcpy (value_at (self, hole), value_at (self, i), self->value_size);
      hole = i;
    }
  self->orders[hole] = 0;
  self->n--;

  return TRUE;
}

typedef struct
{
  guint64  order;
  guint    slot;
} Ordered;

static int
compare_ordered (gconstpointer a,
                 gconstpointer b)
{
  const Ordered *x = a;
  const Ordered *y = b;

  return x->order < y->order ? -1 : x->order > y->order;
}

GArray *
sextant_request_map_steal_values (SextantRequestMap *self)
{
  g_autoptr(GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (Ordered), self->n);
  GArray *values = g_array_sized_new (FALSE, FALSE, (guint)self->value_size, self->n);

  for (guint i = 0; i < self->size; i++)
    if (self->orders[i] != 0)
      {
        Ordered o = { self->orders[i], i };

        g_array_append_val (order, o);
      }
  g_array_sort (order, compare_ordered);
  for (guint k = 0; k < order->len; k++)
    g_array_append_vals (values, value_at (self, g_array_index (order, Ordered, k).slot), 1);

  memset (self->orders, 0, self->size * sizeof (guint64));
  self->n = 0;

  return values;
}
