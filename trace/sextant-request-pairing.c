/*
 * sextant-request-pairing.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The requests of a threaded process started and completed on different
 * locations (see sextant-request-pairing.h): the items the decoders hand
 * over, under a lock, sorted at the end by process, request id and time,
 * and paired in that order.
 */
#include "config.h"

#include "sextant-request-pairing.h"

struct _SextantRequestPairing
{
  SextantImport  *import;
  gint64         *process;  /* by location index: its location group if the group has other
                             * locations, else -1; made at the first question */
  GMutex          lock;
  GArray         *items;    /* SextantRequestItem, as handed over */
};

SextantRequestPairing *
sextant_request_pairing_new (SextantImport *import)
{
  SextantRequestPairing *self = g_new0 (SextantRequestPairing, 1);

  self->import = import;
  g_mutex_init (&self->lock);
  self->items = g_array_new (FALSE, FALSE, sizeof (SextantRequestItem));

  return self;
}

void
sextant_request_pairing_free (SextantRequestPairing *self)
{
  if (self == NULL)
    return;

  g_free (self->process);
  g_mutex_clear (&self->lock);
  g_array_unref (self->items);
  g_free (self);
}

/* The processes, once the locations are known: a location group's members
 * are one process */
static const gint64 *
processes (SextantRequestPairing *self)
{
  if (g_once_init_enter (&self->process))
    {
      const GArray *locations = self->import->locations;
      guint n = locations->len;
      g_autoptr(GHashTable) sizes = g_hash_table_new (NULL, NULL);   /* group + 1 -> locations */
      gint64 *process = g_new (gint64, MAX (n, 1));

      for (guint l = 0; l < n; l++)
        {
          gpointer key = GUINT_TO_POINTER (g_array_index (locations, SextantLocationDef, l).group + 1);

          g_hash_table_insert (sizes, key, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (sizes, key)) + 1));
        }
      for (guint l = 0; l < n; l++)
        {
          guint32 group = g_array_index (locations, SextantLocationDef, l).group;

          process[l] = group != G_MAXUINT32 &&
                       GPOINTER_TO_UINT (g_hash_table_lookup (sizes, GUINT_TO_POINTER (group + 1))) > 1
                       ? (gint64)group : -1;
        }
      g_once_init_leave (&self->process, process);
    }

  return self->process;
}

gboolean
sextant_request_pairing_shared (SextantRequestPairing *self,
                                guint32                loc)
{
  return loc < self->import->locations->len && processes (self)[loc] >= 0;
}

void
sextant_request_pairing_add (SextantRequestPairing *self,
                             const GArray          *items)
{
  if (items == NULL || items->len == 0)
    return;

  g_mutex_lock (&self->lock);
  g_array_append_vals (self->items, items->data, items->len);
  g_mutex_unlock (&self->lock);
}

static gboolean
is_completion (SextantRequestEnd end)
{
  return end == SEXTANT_REQUEST_ISEND_COMPLETE || end == SEXTANT_REQUEST_IRECV ||
         end == SEXTANT_REQUEST_NBC_COMPLETE || end == SEXTANT_REQUEST_CANCELLED;
}

static gint64
item_seq (const SextantRequestItem *item)
{
  return item->end >= SEXTANT_REQUEST_NBC_REQUEST ? item->coll.seq : item->half.seq;
}

/* By process and request id, then in time; at one time a start before a
 * completion; the rest makes the order total */
static int
compare_items (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  const gint64 *process = data;
  const SextantRequestItem *x = a;
  const SextantRequestItem *y = b;

#define CMP(u, v) if ((u) != (v)) return (u) < (v) ? -1 : 1
  CMP (process[x->loc], process[y->loc]);
  CMP (x->request, y->request);
  CMP (x->time, y->time);
  CMP (is_completion (x->end), is_completion (y->end));
  CMP (x->end, y->end);
  CMP (x->loc, y->loc);
  CMP (item_seq (x), item_seq (y));
#undef CMP
  return 0;
}

static void
emit (GArray                   *halves,
      const SextantRequestItem *item)
{
  SextantDeferredHalf d = { item->end == SEXTANT_REQUEST_IRECV, item->half };

  g_array_append_val (halves, d);
}

/* The open starts of a run: indexes into it, oldest first */
typedef struct
{
  GArray *sends;
  GArray *posts;
  GArray *nbcs;
} OpenStarts;

static GArray *
open_list (OpenStarts        *open,
           SextantRequestEnd  end)
{
  switch (end)
    {
    case SEXTANT_REQUEST_ISEND:
    case SEXTANT_REQUEST_ISEND_COMPLETE:
      return open->sends;
    case SEXTANT_REQUEST_IRECV_REQUEST:
    case SEXTANT_REQUEST_IRECV:
      return open->posts;
    case SEXTANT_REQUEST_NBC_REQUEST:
    case SEXTANT_REQUEST_NBC_COMPLETE:
      return open->nbcs;
    case SEXTANT_REQUEST_CANCELLED:
    default:
      break;
    }
  /* a cancellation: the oldest open start of any kind */
  {
    GArray *lists[] = { open->sends, open->posts, open->nbcs };
    GArray *oldest = NULL;

    for (guint k = 0; k < G_N_ELEMENTS (lists); k++)
      if (lists[k]->len > 0 &&
          (oldest == NULL || g_array_index (lists[k], guint, 0) < g_array_index (oldest, guint, 0)))
        oldest = lists[k];
    return oldest != NULL ? oldest : open->sends;
  }
}

/* A non-blocking collective's member, completed by @item, with its @start
 * (nullable): its begin, and the number its start gave it. FALSE: it
 * cannot be numbered (logged). */
static gboolean
complete_collective (SextantImport            *import,
                     const SextantRequestItem *item,
                     const SextantRequestItem *start,
                     SextantCollectiveHalf    *member)
{
  *member = item->coll;
  if (start == NULL)
    {
      _sextant_import_log (import, "unknown_request", item->loc, item->time,
                           "NON_BLOCKING_COLLECTIVE_COMPLETE without its request; %s",
                           member->seq >= 0 ? "begins at its end" : "left out");
      return member->seq >= 0;
    }
  member->begin = start->time;
  member->visit = start->visit;
  if (start->coll.seq >= 0 && start->coll.comm == member->comm)
    {
      /* the member of the thread that started it, as numbered there */
      member->seq = start->coll.seq;
      member->loc = start->loc;
      if (member->owner >= 0)
        member->owner = start->loc;
    }
  if (member->seq < 0)
    _sextant_import_log (import, "unknown_request", item->loc, item->time,
                         "NON_BLOCKING_COLLECTIVE_COMPLETE on another communicator than its request; left out");
  return member->seq >= 0;
}

/* Pairs the items of one process and request id, [first, last), in time:
 * a completion takes the oldest open start of its kind, a cancellation the
 * oldest of any. */
static void
pair_run (SextantRequestPairing *self,
          SextantRequestItem    *first,
          SextantRequestItem    *last,
          GArray                *halves,
          GArray                *coll_halves)
{
  SextantImport *import = self->import;
  g_autoptr(GArray) sends = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) posts = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) nbcs = g_array_new (FALSE, FALSE, sizeof (guint));
  OpenStarts open_starts = { sends, posts, nbcs };
  guint n = (guint)(last - first);

  for (guint i = 0; i < n; i++)
    {
      SextantRequestItem *item = &first[i];
      GArray *open = open_list (&open_starts, item->end);
      SextantRequestItem *start;

      if (!is_completion (item->end))
        {
          g_array_append_val (open, i);
          continue;
        }

      start = open->len > 0 ? &first[g_array_index (open, guint, 0)] : NULL;
      if (start != NULL)
        g_array_remove_index (open, 0);

      switch (item->end)
        {
        case SEXTANT_REQUEST_ISEND_COMPLETE:
          if (start == NULL)
            {
              _sextant_import_log (import, "unknown_request", item->loc, item->time,
                                   "MPI_ISEND_COMPLETE for a request without MPI_ISEND; ignored");
              break;
            }
          start->half.time2 = item->time;
          start->half.visit2 = item->visit;
          emit (halves, start);
          break;
        case SEXTANT_REQUEST_IRECV:
          if (start != NULL)
            {
              item->half.time2 = start->time;
              item->half.visit2 = start->visit;
              item->half.post = start->time;
            }
          emit (halves, item);
          break;
        case SEXTANT_REQUEST_NBC_COMPLETE:
          {
            SextantCollectiveHalf member;

            if (complete_collective (import, item, start, &member))
              g_array_append_val (coll_halves, member);
          }
          break;
        default:
          /* a cancelled send or receive never happened: neither half is kept */
          if (start == NULL)
            _sextant_import_log (import, "unknown_request", item->loc, item->time,
                                 "MPI_REQUEST_CANCELLED for a request that is not open; ignored");
          break;
        }
    }

  for (guint k = 0; k < sends->len; k++)
    {
      const SextantRequestItem *send = &first[g_array_index (sends, guint, k)];

      _sextant_import_log (import, "incomplete_request", send->loc, send->time, "MPI_ISEND never completed");
      emit (halves, send);
    }
  for (guint k = 0; k < posts->len; k++)
    {
      const SextantRequestItem *post = &first[g_array_index (posts, guint, k)];

      _sextant_import_log (import, "incomplete_request", post->loc, post->time,
                           "%u MPI_IRECV_REQUEST(s) never completed", 1u);
    }
  for (guint k = 0; k < nbcs->len; k++)
    {
      const SextantRequestItem *nbc = &first[g_array_index (nbcs, guint, k)];

      _sextant_import_log (import, "incomplete_request", nbc->loc, nbc->time,
                           "%u NON_BLOCKING_COLLECTIVE_REQUEST(s) never completed", 1u);
    }
}

void
sextant_request_pairing_steal (SextantRequestPairing  *self,
                               GArray                **halves,
                               GArray                **coll_halves)
{
  GArray *items = self->items;
  const gint64 *process;
  guint i = 0;

  *halves = g_array_new (FALSE, FALSE, sizeof (SextantDeferredHalf));
  *coll_halves = g_array_new (FALSE, FALSE, sizeof (SextantCollectiveHalf));
  if (items->len == 0)
    return;

  process = processes (self);
  g_array_sort_with_data (items, compare_items, (gpointer)process);
  while (i < items->len)
    {
      SextantRequestItem *first = &g_array_index (items, SextantRequestItem, i);
      guint j = i + 1;

      while (j < items->len && process[g_array_index (items, SextantRequestItem, j).loc] == process[first->loc] &&
             g_array_index (items, SextantRequestItem, j).request == first->request)
        j++;
      pair_run (self, first, first + (j - i), *halves, *coll_halves);
      i = j;
    }
  g_array_set_size (items, 0);
}
