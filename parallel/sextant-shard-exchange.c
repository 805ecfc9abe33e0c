/*
 * sextant-shard-exchange.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The MPI side of a parallel import (sextant-shard-exchange.h): one
 * MPI_Iallreduce that agrees whether every rank reached the exchange, one
 * MPI_Alltoall of the sizes and one MPI_Alltoallv of the bytes (the counts
 * and collective members), then the allreduces of the collectives'
 * summaries and of the number of blocks (MPI_Iallreduce with an operation
 * of the importer's combine), then an MPI_Ialltoallv per block of message
 * halves; at the end, the ranks' errors and location lists gathered at
 * rank 0.
 */
#include "config.h"

#include <string.h>

#include "sextant-shard-exchange.h"
#include "sextant-trace-error.h"

/* An error's message as rank 0 receives it */
#define ERROR_BYTES 1024

struct _SextantShardExchange
{
  MPI_Comm  comm;
  int       rank;
  int       size;
  gboolean  exchanged;     /* this rank took part in the exchange */
  gboolean  stopped;       /* ... and stopped there because another rank failed */
  guint64   bytes_out;     /* sent to the other ranks */
  guint64   bytes_in;      /* received from them */
  gint64    cpu_usec;      /* the import's CPU in its exchange */
};

SextantShardExchange *
sextant_shard_exchange_new (MPI_Comm comm)
{
  SextantShardExchange *self = g_new0 (SextantShardExchange, 1);

  self->comm = comm;
  MPI_Comm_rank (comm, &self->rank);
  MPI_Comm_size (comm, &self->size);

  return self;
}

void
sextant_shard_exchange_free (SextantShardExchange *self)
{
  g_free (self);
}

guint
sextant_shard_exchange_get_rank (SextantShardExchange *self)
{
  return (guint)self->rank;
}

guint
sextant_shard_exchange_get_size (SextantShardExchange *self)
{
  return (guint)self->size;
}

/* Waits for @request without spinning: Open MPI's blocking calls poll at
 * full speed, which on a node with more ranks than cores takes the CPU
 * from the ranks still at work (a rank that finished its share first
 * would slow the others down). Polls every 0.1 ms at first, then less
 * often, up to every 2 ms. */
void
sextant_shard_exchange_wait (SextantShardExchange *self,
                             MPI_Request          *request)
{
  gulong pause = 100;
  int done = 0;

  MPI_Test (request, &done, MPI_STATUS_IGNORE);
  while (!done)
    {
      g_usleep (pause);
      pause = MIN (pause * 2, 2000);
      MPI_Test (request, &done, MPI_STATUS_IGNORE);
    }
}

static int
any_rank (SextantShardExchange *self,
          int                   mine)
{
  MPI_Request request;
  int any = 0;

  MPI_Iallreduce (&mine, &any, 1, MPI_INT, MPI_MAX, self->comm, &request);
  sextant_shard_exchange_wait (self, &request);

  return any;
}

void
sextant_shard_exchange_bcast (SextantShardExchange *self,
                              void                 *buffer,
                              int                   count,
                              MPI_Datatype          type)
{
  MPI_Request request;

  MPI_Ibcast (buffer, count, type, 0, self->comm, &request);
  sextant_shard_exchange_wait (self, &request);
}

void
sextant_shard_exchange_barrier (SextantShardExchange *self)
{
  MPI_Request request;

  MPI_Ibarrier (self->comm, &request);
  sextant_shard_exchange_wait (self, &request);
}

/* TRUE when every rank got here without failing */
static gboolean
agree (SextantShardExchange *self,
       gboolean              failed)
{
  self->exchanged = TRUE;

  return any_rank (self, failed ? 1 : 0) == 0;
}

void
sextant_shard_exchange_abandon (SextantShardExchange *self)
{
  if (!self->exchanged)
    agree (self, TRUE);
}

/* Where the parts of @out lie one after another in one buffer (as the
 * importer packs them), its start; else %NULL */
static const guint8 *
one_buffer (GBytes **out,
            guint    n)
{
  const guint8 *start = g_bytes_get_data (out[0], NULL);
  gsize offset = 0;

  for (guint r = 0; r < n; r++)
    {
      gsize size = 0;
      const guint8 *data = g_bytes_get_data (out[r], &size);

      if (size > 0 && (start == NULL || data != start + offset))
        return NULL;
      offset += size;
    }

  return start;
}

/* Sends @out[r] to rank r and fills @in[r] with what rank r sent; this
 * rank's own part stays in memory (@in[rank] is @out[rank]). */
static gboolean
exchange (GBytes   **out,
          GBytes   **in,
          gpointer   user_data,
          GError   **error)
{
  SextantShardExchange *self = user_data;
  guint n = (guint)self->size;
  guint me = (guint)self->rank;
  g_autofree guint64 *send_sizes = g_new0 (guint64, n);
  g_autofree guint64 *recv_sizes = g_new0 (guint64, n);
  g_autofree int *send_counts = g_new0 (int, n);
  g_autofree int *send_displs = g_new0 (int, n);
  g_autofree int *recv_counts = g_new0 (int, n);
  g_autofree int *recv_displs = g_new0 (int, n);
  g_autofree guint8 *copy = NULL;
  const guint8 *send;
  guint8 *recv = NULL;
  guint64 send_total = 0;
  guint64 recv_total = 0;

  if (!agree (self, FALSE))
    {
      self->stopped = TRUE;
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                   "rank %d: stopped before the exchange of messages: another rank failed", self->rank);
      return FALSE;
    }

  for (guint r = 0; r < n; r++)
    {
      send_sizes[r] = g_bytes_get_size (out[r]);
      send_total += send_sizes[r];
    }
  MPI_Alltoall (send_sizes, 1, MPI_UINT64_T, recv_sizes, 1, MPI_UINT64_T, self->comm);
  for (guint r = 0; r < n; r++)
    if (r != me)
      {
        recv_total += recv_sizes[r];
        self->bytes_out += send_sizes[r];
        self->bytes_in += recv_sizes[r];
      }

  /* MPI counts are ints: one exchange carries up to 2 GiB each way */
  if (any_rank (self, send_total > G_MAXINT || recv_total > G_MAXINT))
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                   "rank %d: the messages in flight between the ranks exceed 2 GiB at one rank; "
                   "run on more ranks", self->rank);
      return FALSE;
    }

  if ((send = one_buffer (out, n)) == NULL)
    {
      send = copy = g_malloc (MAX (send_total, 1));
      for (gsize r = 0, s = 0; r < n; s += send_sizes[r], r++)
        memcpy (copy + s, g_bytes_get_data (out[r], NULL), send_sizes[r]);
    }
  recv = g_malloc (MAX (recv_total, 1));
  for (guint r = 0, s = 0, t = 0; r < n; s += (guint)send_sizes[r], r++)
    {
      send_displs[r] = (int)s;
      recv_displs[r] = (int)t;
      if (r == me)
        continue;
      send_counts[r] = (int)send_sizes[r];
      recv_counts[r] = (int)recv_sizes[r];
      t += recv_sizes[r];
    }
  MPI_Alltoallv (send, send_counts, send_displs, MPI_BYTE, recv, recv_counts, recv_displs, MPI_BYTE, self->comm);

  /* each rank's part refers to the one buffer, freed with the last */
  {
    g_autoptr(GBytes) all = g_bytes_new_take (recv, MAX (recv_total, 1));

    for (guint r = 0; r < n; r++)
      in[r] = r == me ? g_bytes_ref (out[r])
                      : g_bytes_new_from_bytes (all, (gsize)recv_displs[r], (gsize)recv_sizes[r]);
  }

  return TRUE;
}

/* A SextantShareExchangeBlock: one MPI_Alltoallv of sizes both sides
 * know, from and into the importer's buffers (no copy, nothing allocated
 * but the counts) */
static gboolean
exchange_block (const guint8  *send,
                const gsize   *send_sizes,
                guint8        *recv,
                const gsize   *recv_sizes,
                gpointer       user_data,
                GError       **error)
{
  SextantShardExchange *self = user_data;
  guint n = (guint)self->size;
  g_autofree int *counts = g_new (int, 4 * (gsize)n);
  int *send_counts = counts, *send_displs = counts + n, *recv_counts = counts + 2 * n, *recv_displs = counts + 3 * n;
  gsize s = 0, t = 0;
  MPI_Request request;

  for (guint r = 0; r < n; r++)
    {
      /* the importer bounds a block well below 2 GiB */
      g_return_val_if_fail (s + send_sizes[r] <= G_MAXINT && t + recv_sizes[r] <= G_MAXINT, FALSE);
      send_counts[r] = (int)send_sizes[r];
      send_displs[r] = (int)s;
      recv_counts[r] = (int)recv_sizes[r];
      recv_displs[r] = (int)t;
      s += send_sizes[r];
      t += recv_sizes[r];
    }
  self->bytes_out += s;
  self->bytes_in += t;
  MPI_Ialltoallv (send, send_counts, send_displs, MPI_BYTE, recv, recv_counts, recv_displs, MPI_BYTE, self->comm,
                  &request);
  sextant_shard_exchange_wait (self, &request);

  return TRUE;
}

/* The combine of the allreduce under way: an MPI operation takes no user
 * data, and a process runs one import */
static SextantShareCombine combining;

static void
combine_op (void         *in,
            void         *inout,
            int          *len,
            MPI_Datatype *type)
{
  combining (inout, in, (gsize)*len);
}

/* A SextantShareAllreduce: @count elements of @size bytes, a contiguous
 * datatype, with a commutative user-defined operation */
static gboolean
allreduce (gpointer              data,
           gsize                 count,
           gsize                 size,
           SextantShareCombine   combine,
           gpointer              user_data,
           GError              **error)
{
  SextantShardExchange *self = user_data;
  MPI_Datatype type;
  MPI_Request request;
  MPI_Op op;
  /* a ring allreduce: each rank sends and receives (P - 1) / P of the data twice */
  guint64 moved = 2 * (guint64)count * size * (guint64)(self->size - 1) / (guint64)self->size;

  g_return_val_if_fail (count <= G_MAXINT && size <= G_MAXINT, FALSE);

  combining = combine;
  MPI_Type_contiguous ((int)size, MPI_BYTE, &type);
  MPI_Type_commit (&type);
  MPI_Op_create (combine_op, 1, &op);
  MPI_Iallreduce (MPI_IN_PLACE, data, (int)count, type, op, self->comm, &request);
  sextant_shard_exchange_wait (self, &request);
  MPI_Op_free (&op);
  MPI_Type_free (&type);
  combining = NULL;
  self->bytes_out += moved;
  self->bytes_in += moved;

  return TRUE;
}

void
sextant_shard_exchange_init_share (SextantShardExchange *self,
                                   SextantImportShare   *share)
{
  memset (share, 0, sizeof *share);
  share->rank = (guint)self->rank;
  share->n_ranks = (guint)self->size;
  share->exchange = exchange;
  share->user_data = self;
  share->allreduce = allreduce;
  share->exchange_block = exchange_block;
  share->exchange_cpu_usec = &self->cpu_usec;
}

GArray *
sextant_shard_exchange_gather_volume (SextantShardExchange *self)
{
  guint64 mine[3] = { self->bytes_out, self->bytes_in, (guint64)MAX (self->cpu_usec, 0) };
  GArray *all = NULL;

  if (self->rank == 0)
    {
      all = g_array_new (FALSE, TRUE, sizeof (guint64));
      g_array_set_size (all, 3 * (guint)self->size);
    }
  MPI_Gather (mine, 3, MPI_UINT64_T, all != NULL ? all->data : NULL, 3, MPI_UINT64_T, 0, self->comm);

  return all;
}

GPtrArray *
sextant_shard_exchange_gather_errors (SextantShardExchange *self,
                                      const GError         *error,
                                      gboolean             *all_ok)
{
  char mine[ERROR_BYTES] = "";
  g_autofree char *all = NULL;
  GPtrArray *messages;

  /* a rank stopped by another's failure has nothing to add to its reason */
  if (error != NULL && !self->stopped)
    g_strlcpy (mine, error->message[0] != '\0' ? error->message : "failed", sizeof mine);
  *all_ok = any_rank (self, error != NULL) == 0;

  if (self->rank == 0)
    all = g_malloc ((gsize)ERROR_BYTES * (gsize)self->size);
  MPI_Gather (mine, ERROR_BYTES, MPI_CHAR, all, ERROR_BYTES, MPI_CHAR, 0, self->comm);
  if (self->rank != 0)
    return NULL;

  messages = g_ptr_array_new_with_free_func (g_free);
  for (int r = 0; r < self->size; r++)
    g_ptr_array_add (messages, g_strndup (all + (gsize)r * ERROR_BYTES, ERROR_BYTES - 1));

  return messages;
}

GPtrArray *
sextant_shard_exchange_gather_locations (SextantShardExchange *self,
                                         GArray               *locations)
{
  int count = locations != NULL ? (int)locations->len : 0;
  g_autofree int *counts = NULL;
  g_autofree int *displs = NULL;
  g_autofree guint32 *all = NULL;
  GPtrArray *lists;
  int total = 0;

  if (self->rank == 0)
    {
      counts = g_new0 (int, self->size);
      displs = g_new0 (int, self->size);
    }
  MPI_Gather (&count, 1, MPI_INT, counts, 1, MPI_INT, 0, self->comm);
  for (int r = 0; self->rank == 0 && r < self->size; r++)
    {
      displs[r] = total;
      total += counts[r];
    }
  if (self->rank == 0)
    all = g_new (guint32, MAX (total, 1));
  MPI_Gatherv (count > 0 ? locations->data : NULL, count, MPI_UINT32_T, all, counts, displs, MPI_UINT32_T, 0,
               self->comm);
  if (self->rank != 0)
    return NULL;

  lists = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  for (int r = 0; r < self->size; r++)
    {
      GArray *list = g_array_sized_new (FALSE, FALSE, sizeof (guint32), (guint)counts[r]);

      g_array_append_vals (list, all + displs[r], (guint)counts[r]);
      g_ptr_array_add (lists, list);
    }

  return lists;
}

/**
 * sextant_shard_exchange_set_failures:
 * @messages: from sextant_shard_exchange_gather_errors(), at rank 0
 * @heading: the error's first line
 *
 * Sets @error to @heading and every rank that failed with its reason. A
 * rank that only stopped because another failed (its message says it
 * "stopped at" a step) is not named.
 */
void
sextant_shard_exchange_set_failures (GPtrArray   *messages,
                                     const char  *heading,
                                     GError     **error)
{
  g_autoptr(GString) text = g_string_new (heading);
  guint named = 0;

  for (guint r = 0; r < messages->len; r++)
    {
      const char *message = g_ptr_array_index (messages, r);

      if (message[0] != '\0' && strstr (message, ": stopped at ") == NULL)
        {
          g_string_append_printf (text, "\n  rank %u: %s", r, message);
          named++;
        }
    }
  if (named == 0)
    g_string_append (text, "\n  (no rank said why)");
  g_set_error_literal (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE, text->str);
}
