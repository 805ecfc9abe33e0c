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
  CMP (x->end == SEXTANT_REQUEST_ISEND_COMPLETE || x->end == SEXTANT_REQUEST_IRECV,
       y->end == SEXTANT_REQUEST_ISEND_COMPLETE || y->end == SEXTANT_REQUEST_IRECV);
  CMP (x->end, y->end);
  CMP (x->loc, y->loc);
  CMP (x->half.seq, y->half.seq);
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

/* Pairs the items of one process and request id, [first, last), in time:
 * a completion takes the oldest open start of its kind. */
static void
pair_run (SextantRequestPairing *self,
          SextantRequestItem    *first,
          SextantRequestItem    *last,
          GArray                *halves)
{
  SextantImport *import = self->import;
  /* the open starts: sends, posts (indexes into the run, oldest first) */
  g_autoptr(GArray) open_sends = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) open_posts = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n = (guint)(last - first);

  for (guint i = 0; i < n; i++)
    {
      SextantRequestItem *item = &first[i];
      GArray *open = item->end <= SEXTANT_REQUEST_ISEND_COMPLETE ? open_sends : open_posts;
      SextantRequestItem *start;

      if (item->end == SEXTANT_REQUEST_ISEND || item->end == SEXTANT_REQUEST_IRECV_REQUEST)
        {
          g_array_append_val (open, i);
          continue;
        }

      start = open->len > 0 ? &first[g_array_index (open, guint, 0)] : NULL;
      if (start != NULL)
        g_array_remove_index (open, 0);

      if (item->end == SEXTANT_REQUEST_ISEND_COMPLETE)
        {
          if (start == NULL)
            {
              _sextant_import_log (import, "unknown_request", item->loc, item->time,
                                   "MPI_ISEND_COMPLETE for a request without MPI_ISEND; ignored");
              continue;
            }
          start->half.time2 = item->time;
          start->half.visit2 = item->visit;
          emit (halves, start);
        }
      else
        {
          if (start != NULL)
            {
              item->half.time2 = start->time;
              item->half.visit2 = start->visit;
              item->half.post = start->time;
            }
          emit (halves, item);
        }
    }

  for (guint k = 0; k < open_sends->len; k++)
    {
      const SextantRequestItem *send = &first[g_array_index (open_sends, guint, k)];

      _sextant_import_log (import, "incomplete_request", send->loc, send->time, "MPI_ISEND never completed");
      emit (halves, send);
    }
  for (guint k = 0; k < open_posts->len; k++)
    {
      const SextantRequestItem *post = &first[g_array_index (open_posts, guint, k)];

      _sextant_import_log (import, "incomplete_request", post->loc, post->time,
                           "%u MPI_IRECV_REQUEST(s) never completed", 1u);
    }
}

GArray *
sextant_request_pairing_steal_halves (SextantRequestPairing *self)
{
  GArray *halves = g_array_new (FALSE, FALSE, sizeof (SextantDeferredHalf));
  GArray *items = self->items;
  const gint64 *process;
  guint i = 0;

  if (items->len == 0)
    return halves;

  process = processes (self);
  g_array_sort_with_data (items, compare_items, (gpointer)process);
  while (i < items->len)
    {
      SextantRequestItem *first = &g_array_index (items, SextantRequestItem, i);
      guint j = i + 1;

      while (j < items->len && process[g_array_index (items, SextantRequestItem, j).loc] == process[first->loc] &&
             g_array_index (items, SextantRequestItem, j).request == first->request)
        j++;
      pair_run (self, first, first + (j - i), halves);
      i = j;
    }
  g_array_set_size (items, 0);

  return halves;
}
