/*
 * sextant-cli-matrix.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sextant matrix DB|ARCHIVE [--metric bytes|count|time] [--range B:E]
 * [--transfers messages|one-sided|all] [--json|--csv]`: the communication
 * matrix (graph/sextant-comm-matrix.h) of the whole run or of a time range,
 * of the point-to-point messages, the one-sided operations or both, as a
 * table (the grid up to 16
 * locations, else the pairs with the most traffic), JSON or CSV.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sextant-cli.h"
#include "sextant-cli-private.h"
#include "sextant-comm-matrix.h"
#include "sextant-report.h"

/* a grid up to this many locations, else the top pairs */
#define GRID_MAX   16
#define TOP_PAIRS  20

/* "B:E" in seconds since the run's start; either side may be empty */
static gboolean
parse_range (const char *text,
             double     *begin,
             double     *end)
{
  const char *colon = strchr (text, ':');
  char *stop = NULL;

  *begin = -INFINITY;
  *end = INFINITY;
  if (colon == NULL)
    return FALSE;
  if (colon > text)
    {
      *begin = g_ascii_strtod (text, &stop);
      if (stop != colon || !isfinite (*begin))
        return FALSE;
    }
  if (colon[1] != '\0')
    {
      *end = g_ascii_strtod (colon + 1, &stop);
      if (*stop != '\0' || !isfinite (*end))
        return FALSE;
    }

  return *begin < *end;
}

static char *
format_value (SextantMatrixMetric metric,
              double              value)
{
  if (metric == SEXTANT_MATRIX_TIME)
    return g_strdup_printf ("%.6f", value);

  return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64)llround (value));
}

static void
print_grid (SextantCommMatrix   *matrix,
            SextantMatrixMetric  metric)
{
  guint n = sextant_comm_matrix_get_size (matrix);
  int width = 6;
  int label_width = 8;

  for (guint s = 0; s < n; s++)
    {
      label_width = MAX (label_width, (int)strlen (sextant_comm_matrix_get_label (matrix, s)));
      for (guint r = 0; r < n; r++)
        {
          g_autofree char *v = format_value (metric, sextant_comm_matrix_get_value (matrix, metric, s, r));

          width = MAX (width, (int)strlen (v));
        }
    }

  g_print ("  %-*s", label_width + 8, "sender \\ receiver");
  for (guint r = 0; r < n; r++)
    g_print (" %*" G_GINT64_FORMAT, width, sextant_comm_matrix_get_loc (matrix, r));
  g_print ("\n");
  for (guint s = 0; s < n; s++)
    {
      g_print ("  %6" G_GINT64_FORMAT "  %-*s", sextant_comm_matrix_get_loc (matrix, s), label_width,
               sextant_comm_matrix_get_label (matrix, s));
      for (guint r = 0; r < n; r++)
        {
          gint64 b, e;
          g_autofree char *v = sextant_comm_matrix_get_pair_span (matrix, s, r, &b, &e)
                               ? format_value (metric, sextant_comm_matrix_get_value (matrix, metric, s, r))
                               : g_strdup (".");

          g_print (" %*s", width, v);
        }
      g_print ("\n");
    }
}

typedef struct
{
  guint  sender;
  guint  receiver;
  double value;
} Cell;

static int
compare_cells (gconstpointer a,
               gconstpointer b)
{
  const Cell *x = a, *y = b;

  if (x->value != y->value)
    return x->value > y->value ? -1 : 1;
  if (x->sender != y->sender)
    return x->sender < y->sender ? -1 : 1;
  return x->receiver < y->receiver ? -1 : x->receiver > y->receiver;
}

static void
print_top (SextantCommMatrix   *matrix,
           SextantMatrixMetric  metric)
{
  guint n = sextant_comm_matrix_get_size (matrix);
  g_autoptr(GArray) cells = g_array_new (FALSE, FALSE, sizeof (Cell));

  for (guint s = 0; s < n; s++)
    for (guint r = 0; r < n; r++)
      if (sextant_comm_matrix_get_pair_span (matrix, s, r, NULL, NULL))
        {
          Cell cell = { s, r, sextant_comm_matrix_get_value (matrix, metric, s, r) };

          g_array_append_val (cells, cell);
        }
  g_array_sort (cells, compare_cells);

  g_print ("  %u locations, %u pairs exchanged messages; the %u with the most %s:\n\n", n, cells->len,
           MIN (cells->len, TOP_PAIRS), sextant_matrix_metric_to_string (metric));
  g_print ("  %-28s %-28s %14s %10s %14s %12s\n", "sender", "receiver", "value", "messages", "bytes",
           "receive s");
  for (guint i = 0; i < MIN (cells->len, TOP_PAIRS); i++)
    {
      const Cell *c = &g_array_index (cells, Cell, i);
      g_autofree char *from = g_strdup_printf ("%" G_GINT64_FORMAT " %s", sextant_comm_matrix_get_loc (matrix, c->sender),
                                               sextant_comm_matrix_get_label (matrix, c->sender));
      g_autofree char *to = g_strdup_printf ("%" G_GINT64_FORMAT " %s", sextant_comm_matrix_get_loc (matrix, c->receiver),
                                             sextant_comm_matrix_get_label (matrix, c->receiver));
      g_autofree char *value = format_value (metric, c->value);

      g_print ("  %-28s %-28s %14s %10.0f %14.0f %12.6f\n", from, to, value,
               sextant_comm_matrix_get_value (matrix, SEXTANT_MATRIX_COUNT, c->sender, c->receiver),
               sextant_comm_matrix_get_value (matrix, SEXTANT_MATRIX_BYTES, c->sender, c->receiver),
               sextant_comm_matrix_get_value (matrix, SEXTANT_MATRIX_TIME, c->sender, c->receiver));
    }
}

int
sextant_cli_matrix (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("DB|ARCHIVE - the communication matrix");
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantCommMatrix) matrix = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  g_autofree char *metric_name = NULL;
  g_autofree char *range = NULL;
  g_autofree char *transfers_name = NULL;
  SextantMatrixMetric metric = SEXTANT_MATRIX_BYTES;
  SextantMatrixTransfers transfers = SEXTANT_MATRIX_TRANSFERS_MESSAGES;
  SextantTimeSpan span;
  gboolean as_json = FALSE;
  gboolean as_csv = FALSE;
  gint64 begin = SEXTANT_NULL, end = SEXTANT_NULL;
  double range_begin = 0, range_end = 0;
  int status = 0;
  GOptionEntry entries[] = {
    { "metric", 'm', 0, G_OPTION_ARG_STRING, &metric_name,
      "bytes (default), count (messages) or time (seconds in the receive calls)", "METRIC" },
    { "range", 'r', 0, G_OPTION_ARG_STRING, &range,
      "Only the messages sent or received in [BEGIN, END), seconds since the run's start (either may be "
      "left out)", "BEGIN:END" },
    { "transfers", 't', 0, G_OPTION_ARG_STRING, &transfers_name,
      "messages (default: matched point-to-point), one-sided (RMA puts, gets and atomics, counted where "
      "issued; their time is 0: no receive call) or all", "TRANSFERS" },
    { "json", 'j', 0, G_OPTION_ARG_NONE, &as_json, "Print JSON: the locations and every pair's figures", NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &as_csv, "Print the matrix of METRIC as CSV (senders as rows)", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context,
    "Sums the matched point-to-point messages of a trace per sender and receiver:\n"
    "bytes, message count, or the time the receivers spent in the calls that\n"
    "completed them (a call that completed several messages is shared among\n"
    "them); or, with --transfers, the one-sided (RMA) operations' data, or both.\n"
    "Locations are location ids, as in `sextant tree`. An ARCHIVE is\n"
    "imported first (or its up-to-date database beside it is used).");
  if (!_sextant_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return _sextant_cli_usage_error (context, "matrix needs exactly one DB or ARCHIVE");
  if (metric_name != NULL && !sextant_matrix_metric_from_string (metric_name, &metric))
    return _sextant_cli_usage_error (context, "--metric must be bytes, count or time");
  if (transfers_name != NULL && !sextant_matrix_transfers_from_string (transfers_name, &transfers))
    return _sextant_cli_usage_error (context, "--transfers must be messages, one-sided or all");
  if (as_json && as_csv)
    return _sextant_cli_usage_error (context, "--json and --csv exclude each other");
  if (range != NULL && !parse_range (range, &range_begin, &range_end))
    return _sextant_cli_usage_error (context, "--range must be BEGIN:END in seconds, BEGIN before END");

  if (!(store = _sextant_cli_open_or_import (argv[1], &db_path, &error)) ||
      !sextant_store_get_time_span (store, &span, &error))
    return _sextant_cli_runtime_error (error);

  if (range != NULL)
    {
      /* an open side is the run's (whose last event is at span.end) */
      begin = isfinite (range_begin) ? span.begin + (gint64)llround (range_begin * span.resolution) : span.begin;
      end = isfinite (range_end) ? span.begin + (gint64)llround (range_end * span.resolution) : span.end + 1;
    }

  if (!(matrix = sextant_comm_matrix_build_full (store, begin, end, transfers, &error)))
    return _sextant_cli_runtime_error (error);

  if (as_json)
    {
      g_autoptr(JsonNode) json = sextant_comm_matrix_to_json (matrix, metric);
      g_autofree char *text = NULL;

      if (!_sextant_cli_add_otf2_locations (store, json, &error))
        return _sextant_cli_runtime_error (error);
      text = sextant_report_json_to_data (json);

      g_print ("%s\n", text);
    }
  else if (as_csv)
    {
      g_autofree char *text = sextant_comm_matrix_to_csv (matrix, metric);

      fputs (text, stdout);
    }
  else
    {
      static const char * const what[SEXTANT_N_MATRIX_TRANSFERS] = {
        [SEXTANT_MATRIX_TRANSFERS_MESSAGES] = "point-to-point messages",
        [SEXTANT_MATRIX_TRANSFERS_ONE_SIDED] = "one-sided operations",
        [SEXTANT_MATRIX_TRANSFERS_ALL] = "messages and one-sided operations",
      };

      g_print ("Communication matrix of %s, %s, %s\n", db_path, what[transfers],
               range == NULL ? "the whole run"
                             : transfers == SEXTANT_MATRIX_TRANSFERS_ONE_SIDED ? "issued in the range"
                                                                               : "sent or received in the range");
      if (range != NULL)
        g_print ("Range:     %.6f s to %.6f s since the run's start\n",
                 (double)(begin - span.begin) / span.resolution, (double)(end - span.begin) / span.resolution);
      g_print ("%s %.0f%s\nBytes:     %.0f\nReceives:  %.6f s%s\n",
               transfers == SEXTANT_MATRIX_TRANSFERS_MESSAGES ? "Messages: " : "Transfers:",
               sextant_comm_matrix_get_total (matrix, SEXTANT_MATRIX_COUNT),
               transfers == SEXTANT_MATRIX_TRANSFERS_MESSAGES ? " (matched)"
               : transfers == SEXTANT_MATRIX_TRANSFERS_ONE_SIDED ? " (operations)" : " (messages and operations)",
               sextant_comm_matrix_get_total (matrix, SEXTANT_MATRIX_BYTES),
               sextant_comm_matrix_get_total (matrix, SEXTANT_MATRIX_TIME),
               transfers == SEXTANT_MATRIX_TRANSFERS_MESSAGES ? "" : " (one-sided operations: 0)");
      if (sextant_comm_matrix_get_n_skipped (matrix) > 0)
        g_print ("Skipped:   %" G_GINT64_FORMAT " one-sided operations without a target location\n",
                 sextant_comm_matrix_get_n_skipped (matrix));
      g_print ("\n");
      if (sextant_comm_matrix_get_size (matrix) == 0)
        g_print ("  no %s\n", what[transfers]);
      else if (sextant_comm_matrix_get_size (matrix) <= GRID_MAX)
        {
          g_print ("%s per sender (rows) and receiver (columns; location ids):\n\n",
                   metric == SEXTANT_MATRIX_BYTES ? "Bytes" : metric == SEXTANT_MATRIX_COUNT ? "Messages"
                                                                               : "Seconds in the receives");
          print_grid (matrix, metric);
        }
      else
        print_top (matrix, metric);
    }

  return EXIT_SUCCESS;
}
