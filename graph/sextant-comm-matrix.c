/*
 * sextant-comm-matrix.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The communication matrix: the matched point-to-point messages of a run,
 * or of a time range (a message is in it when its send or its receive is),
 * as sender x receiver: bytes, message count, and the time spent in the
 * receive calls that completed them (each call counted once: one that
 * completed n messages gives each 1/n of its duration;
 * trace/sextant-store-matrix.c reads and sums the messages). Or, as chosen
 * (SextantMatrixTransfers), the one-sided operations issued in the range
 * (their data per direction; count = operations; time 0), or both summed.
 *
 * Workload: the axes are the locations that sent or received a message in
 * the range; the three metrics are dense n x n arrays of doubles (n = 1024:
 * 3 x 8 MiB), filled from the few thousand pairs that exchanged messages.
 * Building the whole run of the 10 M-event store (842,688 messages) takes
 * well under a second (docs/benchmarks.md).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-comm-matrix.h"
#include "sextant-json.h"

struct _SextantCommMatrix
{
  guint       size;
  gint64     *locs;                            /* by axis index */
  char      **labels;                          /* by axis index */
  double     *values[SEXTANT_N_MATRIX_METRICS]; /* size x size, row = sender */
  gint64     *first_send;                      /* size x size, G_MAXINT64: none */
  gint64     *last_receive;
  double      max[SEXTANT_N_MATRIX_METRICS];
  double      total[SEXTANT_N_MATRIX_METRICS];
  gint64      resolution;
  gint64      origin;
  gint64      begin;                           /* the range, or SEXTANT_NULL */
  gint64      end;
  SextantMatrixTransfers transfers;
  gint64      skipped;                         /* one-sided ops without a target */
};

G_DEFINE_BOXED_TYPE (SextantCommMatrix, sextant_comm_matrix, sextant_comm_matrix_ref, sextant_comm_matrix_unref)

static const char * const transfers_names[SEXTANT_N_MATRIX_TRANSFERS] = {
  [SEXTANT_MATRIX_TRANSFERS_MESSAGES] = "messages",
  [SEXTANT_MATRIX_TRANSFERS_ONE_SIDED] = "one-sided",
  [SEXTANT_MATRIX_TRANSFERS_ALL] = "all",
};

const char *
sextant_matrix_transfers_to_string (SextantMatrixTransfers transfers)
{
  g_return_val_if_fail (transfers < SEXTANT_N_MATRIX_TRANSFERS, NULL);

  return transfers_names[transfers];
}

/* The index of @name in @names, or -1 */
static int
find_name (const char * const *names,
           guint               n_names,
           const char         *name)
{
  for (guint i = 0; i < n_names; i++)
    if (g_strcmp0 (name, names[i]) == 0)
      return (int)i;

  return -1;
}

gboolean
sextant_matrix_transfers_from_string (const char             *name,
                                      SextantMatrixTransfers *transfers)
{
  int i = find_name (transfers_names, SEXTANT_N_MATRIX_TRANSFERS, name);

  if (i >= 0)
    *transfers = (SextantMatrixTransfers)i;

  return i >= 0;
}

static const char * const metric_names[SEXTANT_N_MATRIX_METRICS] = {
  [SEXTANT_MATRIX_BYTES] = "bytes",
  [SEXTANT_MATRIX_COUNT] = "count",
  [SEXTANT_MATRIX_TIME] = "time",
};

const char *
sextant_matrix_metric_to_string (SextantMatrixMetric metric)
{
  g_return_val_if_fail (metric < SEXTANT_N_MATRIX_METRICS, NULL);

  return metric_names[metric];
}

gboolean
sextant_matrix_metric_from_string (const char          *name,
                                   SextantMatrixMetric *metric)
{
  int i = find_name (metric_names, SEXTANT_N_MATRIX_METRICS, name);

  if (i >= 0)
    *metric = (SextantMatrixMetric)i;

  return i >= 0;
}

static void
matrix_free (gpointer data)
{
  SextantCommMatrix *self = data;

  g_free (self->locs);
  g_strfreev (self->labels);
  for (guint m = 0; m < SEXTANT_N_MATRIX_METRICS; m++)
    g_free (self->values[m]);
  g_free (self->first_send);
  g_free (self->last_receive);
}

SextantCommMatrix *
sextant_comm_matrix_ref (SextantCommMatrix *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
sextant_comm_matrix_unref (SextantCommMatrix *self)
{
  g_atomic_rc_box_release_full (self, matrix_free);
}

static int
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;

  return x < y ? -1 : x > y;
}

/**
 * sextant_comm_matrix_build:
 * @begin: ticks: the range's start; %SEXTANT_NULL with @end %SEXTANT_NULL
 *   for the whole run
 * @end: ticks: the range's end (exclusive)
 *
 * The matrix of the point-to-point messages:
 * sextant_comm_matrix_build_full() with %SEXTANT_MATRIX_TRANSFERS_MESSAGES.
 *
 * Threading: the thread that owns @store (a worker's own connection).
 *
 * Returns: (transfer full): the matrix (of size 0 when no message lies in
 *   the range), or %NULL with @error set
 */
SextantCommMatrix *
sextant_comm_matrix_build (SextantStore  *store,
                           gint64         begin,
                           gint64         end,
                           GError       **error)
{
  return sextant_comm_matrix_build_full (store, begin, end, SEXTANT_MATRIX_TRANSFERS_MESSAGES, error);
}

/**
 * sextant_comm_matrix_build_full:
 * @begin: ticks: the range's start; %SEXTANT_NULL with @end %SEXTANT_NULL
 *   for the whole run
 * @end: ticks: the range's end (exclusive)
 * @transfers: what to count: the messages sent or received in the range,
 *   the one-sided operations issued in it, or both
 *
 * Threading: the thread that owns @store (a worker's own connection).
 *
 * Returns: (transfer full): the matrix (of size 0 when no transfer lies in
 *   the range), or %NULL with @error set
 */
SextantCommMatrix *
sextant_comm_matrix_build_full (SextantStore            *store,
                                gint64                   begin,
                                gint64                   end,
                                SextantMatrixTransfers   transfers,
                                GError                 **error)
{
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (SextantMessagePair));
  g_autoptr(GArray) messages = NULL;
  g_autoptr(GArray) rma = NULL;
  gint64 skipped = 0;
  g_autoptr(GPtrArray) locations = NULL;
  g_autoptr(GArray) locs = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GHashTable) axis = g_hash_table_new (g_int64_hash, g_int64_equal);
  SextantCommMatrix *self;
  SextantTimeSpan span;
  gsize cells;

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);
  g_return_val_if_fail (transfers < SEXTANT_N_MATRIX_TRANSFERS, NULL);

  if (!sextant_store_get_time_span (store, &span, error) ||
      (transfers != SEXTANT_MATRIX_TRANSFERS_ONE_SIDED &&
       !(messages = sextant_store_read_message_pairs (store, begin, end, error))) ||
      (transfers != SEXTANT_MATRIX_TRANSFERS_MESSAGES &&
       !(rma = sextant_store_read_rma_pairs (store, begin, end, &skipped, error))) ||
      !(locations = sextant_store_list_locations (store, error)))
    return NULL;
  if (messages != NULL)
    g_array_append_vals (pairs, messages->data, messages->len);
  if (rma != NULL)
    g_array_append_vals (pairs, rma->data, rma->len);

  for (guint i = 0; i < pairs->len; i++)
    {
      const SextantMessagePair *p = &g_array_index (pairs, SextantMessagePair, i);

      g_array_append_val (locs, p->sender);
      g_array_append_val (locs, p->receiver);
    }
  g_array_sort (locs, compare_int64);

  self = g_atomic_rc_box_new0 (SextantCommMatrix);
  self->resolution = span.resolution;
  self->origin = span.begin;
  self->begin = begin;
  self->end = end;
  self->transfers = transfers;
  self->skipped = skipped;
  self->locs = g_new (gint64, MAX (locs->len, 1));
  for (guint i = 0; i < locs->len; i++)
    {
      gint64 loc = g_array_index (locs, gint64, i);

      if (self->size == 0 || self->locs[self->size - 1] != loc)
        self->locs[self->size++] = loc;
    }

  self->labels = g_new0 (char *, self->size + 1);
  for (guint i = 0; i < self->size; i++)
    {
      const SextantLocationInfo *info = self->locs[i] >= 0 && (guint64)self->locs[i] < locations->len
                                        ? g_ptr_array_index (locations, self->locs[i]) : NULL;

      self->labels[i] = info != NULL ? g_strdup (info->label)
                                     : g_strdup_printf ("location %" G_GINT64_FORMAT, self->locs[i]);
      g_hash_table_insert (axis, &self->locs[i], GUINT_TO_POINTER (i));
    }

  cells = (gsize)self->size * self->size;
  for (guint m = 0; m < SEXTANT_N_MATRIX_METRICS; m++)
    self->values[m] = g_new0 (double, MAX (cells, 1));
  self->first_send = g_new (gint64, MAX (cells, 1));
  self->last_receive = g_new (gint64, MAX (cells, 1));
  for (gsize c = 0; c < cells; c++)
    {
      self->first_send[c] = G_MAXINT64;
      self->last_receive[c] = G_MININT64;
    }

  for (guint i = 0; i < pairs->len; i++)
    {
      const SextantMessagePair *p = &g_array_index (pairs, SextantMessagePair, i);
      gsize row = GPOINTER_TO_UINT (g_hash_table_lookup (axis, &p->sender));
      gsize col = GPOINTER_TO_UINT (g_hash_table_lookup (axis, &p->receiver));
      gsize c = row * self->size + col;
      double v[SEXTANT_N_MATRIX_METRICS] = {
        [SEXTANT_MATRIX_BYTES] = (double)p->bytes,
        [SEXTANT_MATRIX_COUNT] = (double)p->messages,
        [SEXTANT_MATRIX_TIME] = p->receive_ticks / (double)MAX (span.resolution, 1),
      };

      /* a pair may come twice: as messages and as one-sided transfers */
      for (guint m = 0; m < SEXTANT_N_MATRIX_METRICS; m++)
        {
          self->values[m][c] += v[m];
          self->total[m] += v[m];
          self->max[m] = MAX (self->max[m], self->values[m][c]);
        }
      self->first_send[c] = MIN (self->first_send[c], p->first_send);
      self->last_receive[c] = MAX (self->last_receive[c], p->last_receive);
    }

  return self;
}

SextantMatrixTransfers
sextant_comm_matrix_get_transfers (SextantCommMatrix *self)
{
  return self->transfers;
}

gint64
sextant_comm_matrix_get_n_skipped (SextantCommMatrix *self)
{
  return self->skipped;
}

guint
sextant_comm_matrix_get_size (SextantCommMatrix *self)
{
  return self->size;
}

gint64
sextant_comm_matrix_get_loc (SextantCommMatrix *self,
                             guint              index)
{
  g_return_val_if_fail (index < self->size, SEXTANT_NULL);

  return self->locs[index];
}

const char *
sextant_comm_matrix_get_label (SextantCommMatrix *self,
                               guint              index)
{
  g_return_val_if_fail (index < self->size, NULL);

  return self->labels[index];
}

int
sextant_comm_matrix_find_loc (SextantCommMatrix *self,
                              gint64             loc)
{
  guint lo = 0, hi = self->size;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->locs[mid] < loc)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo < self->size && self->locs[lo] == loc ? (int)lo : -1;
}

/* bytes and count as numbers; time in seconds */
double
sextant_comm_matrix_get_value (SextantCommMatrix   *self,
                               SextantMatrixMetric  metric,
                               guint                sender,
                               guint                receiver)
{
  g_return_val_if_fail (metric < SEXTANT_N_MATRIX_METRICS, 0);
  g_return_val_if_fail (sender < self->size && receiver < self->size, 0);

  return self->values[metric][(gsize)sender * self->size + receiver];
}

double
sextant_comm_matrix_get_max (SextantCommMatrix   *self,
                             SextantMatrixMetric  metric)
{
  g_return_val_if_fail (metric < SEXTANT_N_MATRIX_METRICS, 0);

  return self->max[metric];
}

double
sextant_comm_matrix_get_total (SextantCommMatrix   *self,
                               SextantMatrixMetric  metric)
{
  g_return_val_if_fail (metric < SEXTANT_N_MATRIX_METRICS, 0);

  return self->total[metric];
}

gboolean
sextant_comm_matrix_get_pair_span (SextantCommMatrix *self,
                                   guint              sender,
                                   guint              receiver,
                                   gint64            *begin,
                                   gint64            *end)
{
  gsize c;

  g_return_val_if_fail (sender < self->size && receiver < self->size, FALSE);

  c = (gsize)sender * self->size + receiver;
  if (self->first_send[c] == G_MAXINT64)
    return FALSE;
  if (begin != NULL)
    *begin = self->first_send[c];
  if (end != NULL)
    *end = self->last_receive[c];

  return TRUE;
}

static void
set_range (SextantCommMatrix *self,
           JsonObject        *object,
           const char        *name,
           gint64             ticks)
{
  sextant_json_set_seconds_or_null (object, name, ticks, self->origin, self->resolution);
}

/**
 * sextant_comm_matrix_to_json:
 *
 * Returns: (transfer full): what `sextant matrix --json` prints:
 *   {"transfers" ("messages", "one-sided" or "all"), "metric", "unit",
 *   "begin", "end" (seconds since the run's start, null for the whole run),
 *   "locations": [{"location", "label"}], "total", "max", "messages",
 *   "bytes", "time_seconds" (the totals of the three metrics: "messages"
 *   counts the one-sided operations too when they are counted),
 *   "skipped_operations" (one-sided operations without a target location;
 *   0 for messages only), "cells": [{"from", "to", "value", "bytes",
 *   "count", "time_seconds"}] for the pairs that exchanged data, by sender
 *   then receiver}. Locations are location.id, as in `sextant tree`.
 */
JsonNode *
sextant_comm_matrix_to_json (SextantCommMatrix   *self,
                             SextantMatrixMetric  metric)
{
  static const char * const units[SEXTANT_N_MATRIX_METRICS] = { "bytes", "messages", "seconds" };
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *root = json_object_new ();
  JsonArray *locations = json_array_new ();
  JsonArray *cells = json_array_new ();

  g_return_val_if_fail (metric < SEXTANT_N_MATRIX_METRICS, NULL);

  json_node_take_object (node, root);
  json_object_set_string_member (root, "transfers", transfers_names[self->transfers]);
  json_object_set_string_member (root, "metric", metric_names[metric]);
  json_object_set_string_member (root, "unit", units[metric]);
  set_range (self, root, "begin", self->begin);
  set_range (self, root, "end", self->end);
  for (guint i = 0; i < self->size; i++)
    {
      JsonObject *location = json_object_new ();

      json_object_set_int_member (location, "location", self->locs[i]);
      json_object_set_string_member (location, "label", self->labels[i]);
      json_array_add_object_element (locations, location);
    }
  json_object_set_array_member (root, "locations", locations);
  json_object_set_double_member (root, "total", self->total[metric]);
  json_object_set_double_member (root, "max", self->max[metric]);
  json_object_set_int_member (root, "messages", (gint64)llround (self->total[SEXTANT_MATRIX_COUNT]));
  json_object_set_int_member (root, "bytes", (gint64)llround (self->total[SEXTANT_MATRIX_BYTES]));
  json_object_set_double_member (root, "time_seconds", self->total[SEXTANT_MATRIX_TIME]);
  json_object_set_int_member (root, "skipped_operations", self->skipped);

  for (guint s = 0; s < self->size; s++)
    for (guint r = 0; r < self->size; r++)
      {
        gsize c = (gsize)s * self->size + r;
        JsonObject *cell;

        if (self->first_send[c] == G_MAXINT64)
          continue;
        cell = json_object_new ();
        json_object_set_int_member (cell, "from", self->locs[s]);
        json_object_set_int_member (cell, "to", self->locs[r]);
        if (metric == SEXTANT_MATRIX_TIME)
          json_object_set_double_member (cell, "value", self->values[metric][c]);
        else
          json_object_set_int_member (cell, "value", (gint64)llround (self->values[metric][c]));
        json_object_set_int_member (cell, "bytes", (gint64)llround (self->values[SEXTANT_MATRIX_BYTES][c]));
        json_object_set_int_member (cell, "count", (gint64)llround (self->values[SEXTANT_MATRIX_COUNT][c]));
        json_object_set_double_member (cell, "time_seconds", self->values[SEXTANT_MATRIX_TIME][c]);
        json_array_add_object_element (cells, cell);
      }
  json_object_set_array_member (root, "cells", cells);

  return node;
}

static void
csv_value (GString             *out,
           SextantMatrixMetric  metric,
           double               value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (metric == SEXTANT_MATRIX_TIME)
    g_string_append (out, g_ascii_formatd (buffer, sizeof buffer, "%.9g", value));
  else
    g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64)llround (value));
}

/**
 * sextant_comm_matrix_to_csv:
 *
 * Returns: (transfer full): what `sextant matrix --csv` prints: the dense
 *   matrix of @metric, a header row "sender\receiver" and the receivers'
 *   location ids, then one row per sender: its location id and the values
 *   (seconds for time; 0 where no message went); a comment-free table that
 *   spreadsheets read as it is
 */
char *
sextant_comm_matrix_to_csv (SextantCommMatrix   *self,
                            SextantMatrixMetric  metric)
{
  GString *out = g_string_new ("sender\\receiver");

  g_return_val_if_fail (metric < SEXTANT_N_MATRIX_METRICS, NULL);

  for (guint r = 0; r < self->size; r++)
    g_string_append_printf (out, ",%" G_GINT64_FORMAT, self->locs[r]);
  g_string_append_c (out, '\n');
  for (guint s = 0; s < self->size; s++)
    {
      g_string_append_printf (out, "%" G_GINT64_FORMAT, self->locs[s]);
      for (guint r = 0; r < self->size; r++)
        {
          g_string_append_c (out, ',');
          csv_value (out, metric, self->values[metric][(gsize)s * self->size + r]);
        }
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}
