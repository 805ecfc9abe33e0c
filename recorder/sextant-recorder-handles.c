/*
 * sextant-recorder-handles.c - from MPI handles to what the recorder knows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Communicators and windows: every recorded call looks its communicator or
 * window up, creation is rare. The table is open addressing over the handle
 * value with atomic slots: readers never lock; a writer (under
 * sextant__rec.lock) publishes the value before the key, so a reader that
 * sees the key sees the value. Keys are never removed: MPI reuses the
 * handle values of freed objects, and the next object with the same value
 * simply replaces the value. The capacity is fixed (a program with more
 * live-or-dead distinct handles than that gets "unknown" ones, reported).
 *
 * Requests: every MPI_Isend/Irecv/I<collective> inserts, its completion
 * removes, and either may happen on any thread. A striped table: the
 * handle's hash picks one of 64 stripes, each with its own mutex and
 * chained buckets, so threads rarely share a lock and a single-threaded
 * program takes an uncontended mutex (two atomic operations) per insert and
 * per completion.
 */
#include "sextant-recorder-private.h"

#include <stdlib.h>
#include <string.h>

static size_t
hash_handle (uintptr_t key)
{
  uint64_t h = (uint64_t) key;

  h ^= h >> 31;
  h *= UINT64_C (0x7fb5d329728ea185);
  h ^= h >> 27;
  return (size_t) h;
}

int
sextant__handles_init (sextant__handles *table,
                       size_t            cap)
{
  table->keys = calloc (cap, sizeof *table->keys);
  table->values = calloc (cap, sizeof *table->values);
  table->mask = cap - 1;
  if (table->keys == NULL || table->values == NULL)
    {
      sextant__handles_free (table);
      return -1;
    }
  return 0;
}

void
sextant__handles_free (sextant__handles *table)
{
  free ((void *) table->keys);
  free ((void *) table->values);
  table->keys = NULL;
  table->values = NULL;
  table->mask = 0;
}

void *
sextant__handles_get (const sextant__handles *table,
                      uintptr_t               key)
{
  size_t i;

  if (table->keys == NULL || key == 0)
    return NULL;
  i = hash_handle (key) & table->mask;
  for (size_t probes = 0; probes <= table->mask; probes++)
    {
      uintptr_t k = atomic_load_explicit (&table->keys[i], memory_order_acquire);

      if (k == key)
        return atomic_load_explicit (&table->values[i], memory_order_acquire);
      if (k == 0)
        return NULL;
      i = (i + 1) & table->mask;
    }
  return NULL;
}

int
sextant__handles_put (sextant__handles *table,
                      uintptr_t         key,
                      void             *value)
{
  size_t i;

  if (table->keys == NULL || key == 0)
    return -1;
  i = hash_handle (key) & table->mask;
  /* keep a quarter free so that misses stay short */
  for (size_t probes = 0; probes <= table->mask - table->mask / 4; probes++)
    {
      uintptr_t k = atomic_load_explicit (&table->keys[i], memory_order_relaxed);

      if (k == key)
        {
          atomic_store_explicit (&table->values[i], value, memory_order_release);
          return 0;
        }
      if (k == 0)
        {
          atomic_store_explicit (&table->values[i], value, memory_order_release);
          atomic_store_explicit (&table->keys[i], key, memory_order_release);
          return 0;
        }
      i = (i + 1) & table->mask;
    }
  return -1;
}

/* ---- requests ---- */

#define N_STRIPES 64
#define N_BUCKETS 64                /* per stripe */

typedef struct request_node request_node;
struct request_node
{
  request_node *next;
  uintptr_t key;
  sextant__request info;
};

typedef struct
{
  pthread_mutex_t lock;
  request_node *buckets[N_BUCKETS];
  request_node *spare;              /* free nodes, reused before malloc */
} request_stripe;

static request_stripe *stripes;

static uintptr_t
request_key (MPI_Request req)
{
  uintptr_t key = 0;

  /* MPI_Request is a pointer in Open MPI and an int in MPICH */
  memcpy (&key, &req, sizeof req < sizeof key ? sizeof req : sizeof key);
  return key;
}

int
sextant__requests_init (void)
{
  stripes = calloc (N_STRIPES, sizeof *stripes);
  if (stripes == NULL)
    return -1;
  for (int i = 0; i < N_STRIPES; i++)
    pthread_mutex_init (&stripes[i].lock, NULL);
  return 0;
}

void
sextant__requests_free (void)
{
  if (stripes == NULL)
    return;
  for (int i = 0; i < N_STRIPES; i++)
    {
      request_node *lists[N_BUCKETS + 1];

      memcpy (lists, stripes[i].buckets, sizeof stripes[i].buckets);
      lists[N_BUCKETS] = stripes[i].spare;
      for (int b = 0; b <= N_BUCKETS; b++)
        while (lists[b] != NULL)
          {
            request_node *next = lists[b]->next;

            free (lists[b]);
            lists[b] = next;
          }
      pthread_mutex_destroy (&stripes[i].lock);
    }
  free (stripes);
  stripes = NULL;
}

static request_stripe *
stripe_of (uintptr_t  key,
           size_t    *bucket)
{
  size_t h = hash_handle (key);

  *bucket = (h / N_STRIPES) % N_BUCKETS;
  return &stripes[h % N_STRIPES];
}

void
sextant__request_put (MPI_Request             req,
                      const sextant__request *info)
{
  uintptr_t key = request_key (req);
  request_stripe *s;
  request_node *node;
  size_t b;

  if (stripes == NULL || req == MPI_REQUEST_NULL)
    return;
  s = stripe_of (key, &b);
  pthread_mutex_lock (&s->lock);
  /* a handle still in the table belongs to a request whose completion we
   * did not see (freed, or completed by a call we do not wrap): replace it */
  for (node = s->buckets[b]; node != NULL; node = node->next)
    if (node->key == key)
      break;
  if (node == NULL)
    {
      node = s->spare;
      if (node != NULL)
        s->spare = node->next;
      else
        node = malloc (sizeof *node);
      if (node == NULL)
        {
          pthread_mutex_unlock (&s->lock);
          return;                   /* out of memory: this request goes unrecorded */
        }
      node->key = key;
      node->next = s->buckets[b];
      s->buckets[b] = node;
    }
  node->info = *info;
  pthread_mutex_unlock (&s->lock);
}

/* Finds @req; removes it if @remove and (when @only_id is nonzero) its id
 * is @only_id. */
static int
request_find (MPI_Request       req,
              sextant__request *out,
              int               remove,
              uint64_t          only_id)
{
  uintptr_t key = request_key (req);
  request_stripe *s;
  request_node **link;
  size_t b;
  int found = 0;

  if (stripes == NULL || req == MPI_REQUEST_NULL)
    return 0;
  s = stripe_of (key, &b);
  pthread_mutex_lock (&s->lock);
  for (link = &s->buckets[b]; *link != NULL; link = &(*link)->next)
    {
      request_node *node = *link;

      if (node->key != key)
        continue;
      if (only_id != 0 && node->info.id != only_id)
        break;
      found = 1;
      if (out != NULL)
        *out = node->info;
      if (remove)
        {
          *link = node->next;
          node->next = s->spare;
          s->spare = node;
        }
      break;
    }
  pthread_mutex_unlock (&s->lock);
  return found;
}

int
sextant__request_peek (MPI_Request       req,
                       sextant__request *out)
{
  return request_find (req, out, 0, 0);
}

int
sextant__request_take (MPI_Request       req,
                       sextant__request *out)
{
  return request_find (req, out, 1, 0);
}

void
sextant__request_drop (MPI_Request req,
                       uint64_t    id)
{
  request_find (req, NULL, 1, id);
}
