/*
 * sextant-recorder-handles.c - from MPI handles to what the recorder knows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Communicators and windows: every recorded call looks its communicator or
 * window up, creation is rare. The table is open addressing over the handle
 * value with atomic slots: readers never lock; a writer (under
 * sextant__rec.lock) publishes the value before the key, so a reader that
 * sees the key sees the value. Keys are never removed: a freed object's
 * value is cleared (the handle is unknown until MPI reuses it), and the
 * next object with the same handle value takes the slot. The capacity is fixed (a program with more
 * live-or-dead distinct handles than that gets "unknown" ones, reported).
 *
 * Requests: every MPI_Isend/Irecv/I<collective>/MPI_Start inserts, its
 * completion removes, and either may happen on any thread. A request is
 * an entry per call, never overwritten: MPI may give several live
 * requests the same handle value (Open MPI returns &ompi_request_empty for
 * every request that is complete when it starts - small eager sends,
 * non-blocking collectives on one process), so a handle has a FIFO of
 * entries and a completion takes the oldest one the completing thread
 * started (else the oldest). A striped table: the
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

void
sextant__handles_forget (sextant__handles *table,
                         uintptr_t         key)
{
  size_t i;

  if (table->keys == NULL || key == 0)
    return;
  i = hash_handle (key) & table->mask;
  for (size_t probes = 0; probes <= table->mask; probes++)
    {
      uintptr_t k = atomic_load_explicit (&table->keys[i], memory_order_relaxed);

      if (k == key)
        {
          /* the key stays (probe chains stay intact), the value goes */
          atomic_store_explicit (&table->values[i], NULL, memory_order_release);
          return;
        }
      if (k == 0)
        return;
      i = (i + 1) & table->mask;
    }
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

/* The entry of @key to use: the oldest one this thread started, else the
 * oldest one. *@link_out is the link that points to it. */
/* 0: a live request; 1: a persistent request's template; 2: a matched
 * message (MPI_Message) - each class is found only by its own lookups */
static int
entry_class (const sextant__request *r)
{
  return r->kind == SEXTANT__REQ_PSEND || r->kind == SEXTANT__REQ_PRECV ? 1
         : r->kind == SEXTANT__REQ_MESSAGE ? 2 : 0;
}

static request_node *
request_pick (request_stripe  *s,
              size_t           b,
              uintptr_t        key,
              uint32_t         thread,
              int              cls,
              request_node  ***link_out)
{
  request_node **first = NULL;

  for (request_node **link = &s->buckets[b]; *link != NULL; link = &(*link)->next)
    {
      if ((*link)->key != key || entry_class (&(*link)->info) != cls)
        continue;
      if ((*link)->info.thread == thread)
        {
          *link_out = link;
          return *link;
        }
      if (first == NULL)
        first = link;
    }
  *link_out = first;
  return first != NULL ? *first : NULL;
}

static request_node *
node_new (request_stripe *s)
{
  request_node *node = s->spare;

  if (node != NULL)
    s->spare = node->next;
  else
    node = malloc (sizeof *node);
  return node;
}

/* Adds an entry for @req: last of the handle's entries, or first if
 * @first. Never replaces: MPI may hand the same value to several live
 * requests (Open MPI's &ompi_request_empty for requests complete at their
 * start), and each has its own completion. */
static void
request_insert (MPI_Request             req,
                const sextant__request *info,
                int                     first)
{
  uintptr_t key = request_key (req);
  request_stripe *s;
  request_node **link;
  request_node *node;
  size_t b;

  if (stripes == NULL || req == MPI_REQUEST_NULL)
    return;
  s = stripe_of (key, &b);
  pthread_mutex_lock (&s->lock);
  node = node_new (s);
  if (node != NULL)                 /* else out of memory: this request goes unrecorded */
    {
      node->key = key;
      node->info = *info;
      /* first in its bucket is before every other entry of the handle */
      link = &s->buckets[b];
      if (!first)
        while (*link != NULL)
          link = &(*link)->next;
      node->next = *link;
      *link = node;
    }
  pthread_mutex_unlock (&s->lock);
}

void
sextant__request_put (MPI_Request             req,
                      const sextant__request *info)
{
  /* the newest goes last, so that a completion takes the oldest */
  request_insert (req, info, 0);
}

void
sextant__request_restore (MPI_Request             req,
                          const sextant__request *info)
{
  request_insert (req, info, 1);
}

/* Finds the entry of @req for this thread (see request_pick), or the one
 * with @only_id when that is nonzero; removes it if @remove. Only entries
 * of class @cls (see entry_class) are found. */
static int
request_find (MPI_Request       req,
              sextant__request *out,
              int               remove,
              uint64_t          only_id,
              int               cls)
{
  uintptr_t key = request_key (req);
  sextant__thread *t = sextant__tls;
  request_stripe *s;
  request_node **link = NULL;
  request_node *node = NULL;
  size_t b;

  if (stripes == NULL || req == MPI_REQUEST_NULL)
    return 0;
  s = stripe_of (key, &b);
  pthread_mutex_lock (&s->lock);
  if (only_id != 0)
    {
      for (link = &s->buckets[b]; *link != NULL; link = &(*link)->next)
        if ((*link)->key == key && (*link)->info.id == only_id && entry_class (&(*link)->info) == 0)
          break;
      node = *link;
    }
  else
    node = request_pick (s, b, key, t != NULL ? t->index : UINT32_MAX, cls, &link);
  if (node != NULL)
    {
      if (out != NULL)
        *out = node->info;
      if (remove)
        {
          *link = node->next;
          node->next = s->spare;
          s->spare = node;
        }
    }
  pthread_mutex_unlock (&s->lock);
  return node != NULL;
}

int
sextant__request_peek (MPI_Request       req,
                       sextant__request *out)
{
  return request_find (req, out, 0, 0, 0);
}

int
sextant__request_take (MPI_Request       req,
                       sextant__request *out)
{
  return request_find (req, out, 1, 0, 0);
}

void
sextant__request_drop (MPI_Request req,
                       uint64_t    id)
{
  request_find (req, NULL, 1, id, 0);
}

int
sextant__persistent_get (MPI_Request       req,
                         sextant__request *out)
{
  return request_find (req, out, 0, 0, 1);
}

void
sextant__persistent_forget (MPI_Request req)
{
  while (request_find (req, NULL, 1, 0, 1))
    ;
}

void
sextant__message_put (MPI_Message message,
                      uint32_t    comm,
                      uint32_t    base)
{
  sextant__request info = { 0 };
  MPI_Request key = MPI_REQUEST_NULL;

  info.kind = SEXTANT__REQ_MESSAGE;
  info.comm = comm;
  info.base = base;
  memcpy (&key, &message, sizeof key < sizeof message ? sizeof key : sizeof message);
  sextant__request_put (key, &info);
}

uint32_t
sextant__message_take (MPI_Message message,
                       uint32_t   *base)
{
  sextant__request info = { 0 };
  MPI_Request key = MPI_REQUEST_NULL;

  memcpy (&key, &message, sizeof key < sizeof message ? sizeof key : sizeof message);
  if (!request_find (key, &info, 1, 0, 2))
    return SEXTANT__UNDEF;
  *base = info.base;
  return info.comm;
}
