/*
 * sextant-cli.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The command-line front end: `sextant import` and `sextant info`.
 * Every command parses its own options with GOptionContext, prints results
 * to stdout and errors to stderr, and returns a process exit status
 * (0 success, 1 runtime failure, 2 usage error).
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <locale.h>
#include <stdio.h>
#include <unistd.h>

#include "sextant-analysis.h"
#include "sextant-report.h"
#include "sextant-cli.h"
#include "sextant-cli-private.h"
#include "sextant-importer.h"
#include "sextant-store-private.h"
#include "sextant-store-shards.h"
#include "sextant-store-shard-analysis.h"

#define EXIT_USAGE 2

static int
usage_error (GOptionContext *context,
             const char     *message)
{
  g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);
  g_auto(GStrv) lines = g_strsplit (help, "\n", 3);

  /* the message, then the usage line alone: a page of options after it
   * would push the message off the screen */
  g_printerr ("sextant: %s\n%s %s\n(--help lists the options)\n", message, lines[0],
              lines[0] != NULL && lines[1] != NULL ? g_strstrip (lines[1]) : "");
  return EXIT_USAGE;
}

static int
runtime_error (const GError *error)
{
  g_printerr ("sextant: %s\n", error->message);
  return EXIT_FAILURE;
}

static gboolean
parse (GOptionContext   *context,
       int              *argc,
       char           ***argv,
       int              *status)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      *status = usage_error (context, error->message);
      return FALSE;
    }

  return TRUE;
}

/* import ----------------------------------------------------------------- */

typedef struct
{
  gboolean tty;
  gboolean shown;
} ProgressState;

static void
print_progress (double   fraction,
                double   events_per_second,
                gpointer user_data)
{
  ProgressState *state = user_data;

  if (!state->tty)
    return;

  state->shown = TRUE;
  g_printerr ("\rimporting: %5.1f %%  %.2f M events/s ", 100.0 * fraction, events_per_second / 1e6);
}

/* Imports @archive (or reuses its current store). */
static SextantImporter *
run_import (const char  *archive,
            const char  *db_path,
            gboolean     force,
            gboolean     quiet,
            GError     **error)
{
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, db_path);
  ProgressState state = { !quiet && isatty (STDERR_FILENO), FALSE };
  gboolean ok;

  sextant_importer_set_force (importer, force);
  sextant_importer_set_progress_func (importer, print_progress, &state, NULL);
  ok = sextant_importer_run (importer, NULL, error);
  if (state.shown)
    g_printerr ("\r%*s\r", 40, "");
  sextant_importer_set_progress_func (importer, NULL, NULL, NULL);

  if (!ok)
    return NULL;

  return g_steal_pointer (&importer);
}

/* The worker's side of sextant_importer_set_worker(): lines on stdout for
 * the process that watches it (trace/sextant-import-worker.c). */
static void
report_progress (double   fraction,
                 double   events_per_second,
                 gpointer user_data)
{
  char f[G_ASCII_DTOSTR_BUF_SIZE];
  char e[G_ASCII_DTOSTR_BUF_SIZE];

  printf ("progress %s %s\n", g_ascii_formatd (f, sizeof f, "%.6f", fraction),
          g_ascii_formatd (e, sizeof e, "%.0f", events_per_second));
  fflush (stdout);
}

static int
import_worker (const char *archive,
               const char *into)
{
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, NULL);
  g_autoptr(GError) error = NULL;

  sextant_importer_set_progress_func (importer, report_progress, NULL, NULL);
  if (!sextant_importer_run_into (importer, into, NULL, &error))
    {
      g_autofree char *message = g_strdelimit (g_strdup (error->message), "\r\n", ' ');

      printf ("error %s %d %s\n", g_quark_to_string (error->domain), error->code, message);
      return EXIT_FAILURE;
    }
  printf ("done\n");

  return EXIT_SUCCESS;
}

int
sextant_cli_import (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("ARCHIVE - import an OTF2 trace");
  g_autoptr(SextantImporter) importer = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  g_autofree char *worker_into = NULL;
  gboolean force = FALSE;
  gboolean quiet = FALSE;
  gint64 start;
  int status = 0;
  GOptionEntry entries[] = {
    { "worker-into", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &worker_into,
      "Import into this existing file for the window that watches (see sextant_importer_set_worker())", "TMP" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "Database to write (default: <anchor name>.sextant.db beside the anchor file)", "DB" },
    { "force", 'f', 0, G_OPTION_ARG_NONE, &force, "Import even if the database is up to date", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing on success", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context,
    "Reads an OTF2 archive (its anchor file, or the directory that holds it) into a\n"
    "Sextant trace store (SQLite). The archive is never modified; a failed import\n"
    "leaves no database behind. An up-to-date database is reused unless --force.");
  if (!parse (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return usage_error (context, "import needs exactly one ARCHIVE");

  if (worker_into != NULL)
    return import_worker (argv[1], worker_into);

  start = g_get_monotonic_time ();
  if (!(importer = run_import (argv[1], output, force, quiet, &error)))
    return runtime_error (error);

  if (!quiet)
    {
      if (sextant_importer_get_reused (importer))
        g_print ("%s is up to date\n", sextant_importer_get_db_path (importer));
      else
        g_print ("imported %s into %s in %.2f s\n", sextant_importer_get_anchor_path (importer),
                 sextant_importer_get_db_path (importer),
                 (g_get_monotonic_time () - start) / (double)G_USEC_PER_SEC);
    }

  return EXIT_SUCCESS;
}

/* info -------------------------------------------------------------------- */

typedef struct
{
  JsonObject *events;          /* kind -> total */
  GPtrArray  *locations;       /* JsonObject*, by dense index */
  JsonObject *definitions;
  JsonArray  *warnings;
  GHashTable *meta;
  gint64      counts[7];
} Info;

static void
info_clear (Info *info)
{
  g_clear_pointer (&info->events, json_object_unref);
  g_clear_pointer (&info->locations, g_ptr_array_unref);
  g_clear_pointer (&info->definitions, json_object_unref);
  g_clear_pointer (&info->warnings, json_array_unref);
  g_clear_pointer (&info->meta, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Info, info_clear)

static gboolean
meta_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  Info *info = user_data;

  g_hash_table_replace (info->meta, g_strdup (sextant_row_get_text (row, 0)),
                        g_strdup (sextant_row_get_text (row, 1)));
  return TRUE;
}

static gboolean
definition_row (const SextantRow  *row,
                gpointer           user_data,
                GError           **error)
{
  Info *info = user_data;

  json_object_set_int_member (info->definitions, sextant_row_get_text (row, 0),
                              sextant_row_get_int (row, 1));
  return TRUE;
}

static gboolean
location_row (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  Info *info = user_data;
  JsonObject *location = json_object_new ();

  json_object_set_int_member (location, "id", sextant_row_get_int (row, 1));
  json_object_set_string_member (location, "name", sextant_row_get_text (row, 2));
  json_object_set_string_member (location, "type", sextant_row_get_text (row, 3));
  if (sextant_row_is_null (row, 4))
    json_object_set_null_member (location, "group");
  else
    json_object_set_string_member (location, "group", sextant_row_get_text (row, 4));
  json_object_set_int_member (location, "defined_events", sextant_row_get_int (row, 5));
  json_object_set_int_member (location, "total_events", sextant_row_get_int (row, 6));
  json_object_set_object_member (location, "events", json_object_new ());
  g_ptr_array_add (info->locations, location);

  return TRUE;
}

static gboolean
event_count_row (const SextantRow  *row,
                 gpointer           user_data,
                 GError           **error)
{
  Info *info = user_data;
  gint64 loc = sextant_row_get_int (row, 0);
  const char *kind = sextant_row_get_text (row, 1);
  gint64 count = sextant_row_get_int (row, 2);
  JsonObject *location;

  g_return_val_if_fail (loc >= 0 && (guint64)loc < info->locations->len, TRUE);

  location = g_ptr_array_index (info->locations, loc);
  json_object_set_int_member (json_object_get_object_member (location, "events"), kind, count);
  json_object_set_int_member (info->events, kind,
                              count + (json_object_has_member (info->events, kind)
                                         ? json_object_get_int_member (info->events, kind) : 0));
  return TRUE;
}

static gboolean
counts_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  Info *info = user_data;

  for (guint i = 0; i < G_N_ELEMENTS (info->counts); i++)
    info->counts[i] = sextant_row_get_int (row, i);

  return TRUE;
}

static gboolean
log_row (const SextantRow  *row,
         gpointer           user_data,
         GError           **error)
{
  Info *info = user_data;
  JsonObject *warning = json_object_new ();
  gint64 loc = sextant_row_is_null (row, 2) ? -1 : sextant_row_get_int (row, 2);

  json_object_set_string_member (warning, "severity", sextant_row_get_text (row, 0));
  json_object_set_string_member (warning, "kind", sextant_row_get_text (row, 1));
  if (loc >= 0 && (guint64)loc < info->locations->len)
    json_object_set_int_member (warning, "location",
                                json_object_get_int_member (g_ptr_array_index (info->locations, loc), "id"));
  else
    json_object_set_null_member (warning, "location");
  json_object_set_int_member (warning, "count", sextant_row_get_int (row, 4));
  json_object_set_string_member (warning, "message", sextant_row_get_text (row, 5));
  json_array_add_object_element (info->warnings, warning);

  return TRUE;
}

static gint64
meta_int (Info       *info,
          const char *key)
{
  const char *value = g_hash_table_lookup (info->meta, key);

  return value != NULL ? g_ascii_strtoll (value, NULL, 10) : 0;
}

static gboolean
read_info (SextantStore  *store,
           Info          *info,
           GError       **error)
{
  info->events = json_object_new ();
  info->locations = g_ptr_array_new_with_free_func ((GDestroyNotify)json_object_unref);
  info->definitions = json_object_new ();
  info->warnings = json_array_new ();
  info->meta = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  return sextant_store_foreach (store, SEXTANT_QUERY_META, meta_row, info, error, "") &&
         sextant_store_foreach (store, SEXTANT_QUERY_DEFINITION_COUNTS, definition_row, info, error, "") &&
         sextant_store_foreach (store, SEXTANT_QUERY_LOCATIONS, location_row, info, error, "") &&
         sextant_store_foreach (store, SEXTANT_QUERY_EVENT_COUNTS, event_count_row, info, error, "") &&
         sextant_store_foreach (store, SEXTANT_QUERY_SUMMARY_COUNTS, counts_row, info, error, "") &&
         sextant_store_foreach (store, SEXTANT_QUERY_IMPORT_LOG, log_row, info, error, "");
}

static JsonNode *
info_to_json (Info       *info,
              const char *db_path)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  JsonArray *locations = json_array_new ();
  JsonObject *root;
  JsonObject *messages = json_object_new ();
  JsonObject *time = json_object_new ();
  gint64 resolution = MAX (1, meta_int (info, "resolution"));
  gint64 offset = meta_int (info, "global_offset");
  gint64 total = 0;

  json_builder_begin_object (builder);
  json_builder_end_object (builder);
  root = json_node_get_object (json_builder_get_root (builder));

  json_object_set_string_member (root, "archive", g_hash_table_lookup (info->meta, "archive_path"));
  json_object_set_string_member (root, "database", db_path);
  json_object_set_string_member (root, "otf2_version", g_hash_table_lookup (info->meta, "otf2_version"));
  json_object_set_string_member (root, "creator", g_hash_table_lookup (info->meta, "creator"));

  {
    /* totals in the order otf2-print users scan them: by kind name */
    g_autoptr(GList) kinds = g_list_sort (json_object_get_members (info->events), (GCompareFunc)g_strcmp0);
    JsonObject *events = json_object_new ();

    for (GList *l = kinds; l != NULL; l = l->next)
      {
        gint64 n = json_object_get_int_member (info->events, l->data);

        json_object_set_int_member (events, l->data, n);
        total += n;
      }
    json_object_set_int_member (root, "total_events", total);
    json_object_set_object_member (root, "events", events);
  }

  for (guint i = 0; i < info->locations->len; i++)
    json_array_add_object_element (locations, json_object_ref (g_ptr_array_index (info->locations, i)));
  json_object_set_array_member (root, "locations", locations);
  json_object_set_object_member (root, "definitions", json_object_ref (info->definitions));

  json_object_set_int_member (root, "visits", info->counts[0]);
  json_object_set_int_member (messages, "matched", info->counts[1]);
  json_object_set_int_member (messages, "unmatched", info->counts[2]);
  json_object_set_object_member (root, "messages", messages);
  json_object_set_int_member (root, "collectives", info->counts[3]);
  json_object_set_int_member (root, "rma_operations", info->counts[4]);
  json_object_set_int_member (root, "locks", info->counts[5]);
  json_object_set_int_member (root, "metric_values", info->counts[6]);

  json_object_set_int_member (time, "resolution", resolution);
  json_object_set_int_member (time, "offset", offset);
  json_object_set_int_member (time, "begin", offset + meta_int (info, "time_begin"));
  json_object_set_int_member (time, "end", offset + meta_int (info, "time_end"));
  json_object_set_double_member (time, "duration_seconds",
                                 (double)(meta_int (info, "time_end") - meta_int (info, "time_begin")) / resolution);
  json_object_set_object_member (root, "time", time);
  json_object_set_array_member (root, "warnings", json_array_ref (info->warnings));

  return json_builder_get_root (builder);
}

static void
print_text (Info       *info,
            JsonNode   *json)
{
  JsonObject *root = json_node_get_object (json);
  JsonObject *time = json_object_get_object_member (root, "time");
  JsonObject *messages = json_object_get_object_member (root, "messages");
  guint n_warnings = json_array_get_length (info->warnings);
  JsonObject *events = json_object_get_object_member (root, "events");

  g_print ("Archive:      %s\n", json_object_get_string_member (root, "archive"));
  g_print ("Database:     %s\n", json_object_get_string_member (root, "database"));
  g_print ("OTF2 %s, written by %s\n", json_object_get_string_member (root, "otf2_version"),
           json_object_get_string_member_with_default (root, "creator", "(unknown)"));
  g_print ("Duration:     %.6f s (%" G_GINT64_FORMAT " ticks/s)\n",
           json_object_get_double_member (time, "duration_seconds"),
           json_object_get_int_member (time, "resolution"));
  g_print ("Locations:    %u\n", info->locations->len);
  g_print ("Events:       %" G_GINT64_FORMAT "\n", json_object_get_int_member (root, "total_events"));
  {
    g_autoptr(GList) kinds = json_object_get_members (events);   /* insertion order: sorted */

    for (GList *l = kinds; l != NULL; l = l->next)
      g_print ("  %-34s %12" G_GINT64_FORMAT "\n", (const char *)l->data,
               json_object_get_int_member (events, l->data));
  }
  g_print ("Visits:       %" G_GINT64_FORMAT "\n", json_object_get_int_member (root, "visits"));
  g_print ("Messages:     %" G_GINT64_FORMAT " matched, %" G_GINT64_FORMAT " unmatched\n",
           json_object_get_int_member (messages, "matched"),
           json_object_get_int_member (messages, "unmatched"));
  g_print ("Collectives:  %" G_GINT64_FORMAT "\n", json_object_get_int_member (root, "collectives"));
  g_print ("RMA ops:      %" G_GINT64_FORMAT "\n", json_object_get_int_member (root, "rma_operations"));
  g_print ("\n  %-20s %-28s %-22s %10s\n", "location", "name", "group", "events");
  for (guint i = 0; i < info->locations->len; i++)
    {
      JsonObject *location = g_ptr_array_index (info->locations, i);
      JsonNode *group = json_object_get_member (location, "group");

      g_print ("  %-20" G_GINT64_FORMAT " %-28s %-22s %10" G_GINT64_FORMAT "\n",
               json_object_get_int_member (location, "id"),
               json_object_get_string_member (location, "name"),
               JSON_NODE_HOLDS_NULL (group) ? "-" : json_node_get_string (group),
               json_object_get_int_member (location, "total_events"));
    }

  if (n_warnings > 0)
    {
      g_print ("\nImport warnings:\n");
      for (guint i = 0; i < n_warnings; i++)
        {
          JsonObject *warning = json_array_get_object_element (info->warnings, i);

          g_print ("  %s (x%" G_GINT64_FORMAT "): %s\n", json_object_get_string_member (warning, "kind"),
                   json_object_get_int_member (warning, "count"),
                   json_object_get_string_member (warning, "message"));
        }
    }
}

/* Opens @path as a store, or imports it first if it is an archive. */
static SextantStore *
open_or_import (const char  *path,
                char       **db_path,
                GError     **error)
{
  g_autoptr(SextantImporter) importer = NULL;
  g_autoptr(SextantStore) store = NULL;

  if (sextant_path_is_store (path))
    {
      *db_path = g_strdup (path);
      if (!(store = sextant_store_open (path, error)))
        return NULL;
      return g_steal_pointer (&store);
    }

  if (!(importer = run_import (path, NULL, FALSE, TRUE, error)))
    return NULL;

  *db_path = g_strdup (sextant_importer_get_db_path (importer));
  return sextant_store_open (*db_path, error);
}

/* For analyze and report: as open_or_import(), and a manifest too (its
 * shards are analysed in parallel: docs/parallel.md, "Analysis"); a shard
 * of one is refused (analysed alone, its instances would not be the
 * manifest's). For analyze (@analyse), a manifest's shards are checked by
 * the analysis under its lock, which accepts those of an analysis that
 * did not finish. */
static SextantStore *
open_for_analysis (const char  *path,
                   gboolean     analyse,
                   char       **db_path,
                   GError     **error)
{
  g_autoptr(SextantStore) store = NULL;
  g_autofree char *manifest = NULL;

  if (!sextant_path_is_store (path))
    return open_or_import (path, db_path, error);
  if ((manifest = sextant_store_find_manifest_of (path)) != NULL)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_ARGUMENT,
                   "%s: a shard of the parallel import %s: analyse the manifest (sextant analyze %s, or "
                   "sextant-mpi analyze %s under mpirun), whose shards are analysed together", path, manifest,
                   manifest, manifest);
      return NULL;
    }
  if (!(store = analyse ? sextant_store_open_unchecked (path, error) : sextant_store_open (path, error)))
    return NULL;
  *db_path = g_strdup (path);

  return g_steal_pointer (&store);
}

int
sextant_cli_info (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("DB|ARCHIVE - summarise a trace");
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autofree char *db_path = NULL;
  g_auto(Info) info = { NULL };
  gboolean as_json = FALSE;
  gboolean collectives = FALSE;
  int status = 0;
  GOptionEntry entries[] = {
    { "json", 'j', 0, G_OPTION_ARG_NONE, &as_json, "Print JSON", NULL },
    { "collectives", 'c', 0, G_OPTION_ARG_NONE, &collectives,
      "List the collectives (their ids are those of `sextant tree --collective`)", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context,
    "Prints what a trace holds: event records by kind (named as otf2-print names\n"
    "them), per location, definitions, visits, messages, collectives, the time span\n"
    "and the import warnings. An ARCHIVE is imported first (or its up-to-date\n"
    "database beside it is used). With --collectives, lists every collective\n"
    "instead: MPI collectives, onecoll broadcasts and exchanges in phase regions.");
  if (!parse (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return usage_error (context, "info needs exactly one DB or ARCHIVE");

  if (!(store = open_or_import (argv[1], &db_path, &error)))
    return runtime_error (error);

  if (collectives)
    return _sextant_cli_print_collectives (store, db_path, as_json);

  if (!read_info (store, &info, &error))
    return runtime_error (error);

  json = info_to_json (&info, db_path);

  if (as_json)
    {
      g_autofree char *text = sextant_report_json_to_data (json);

      g_print ("%s\n", text);
    }
  else
    print_text (&info, json);

  return EXIT_SUCCESS;
}

/* analyze ------------------------------------------------------------------ */

typedef struct
{
  double      total_seconds;
  JsonArray  *patterns;
  JsonArray  *tree;
} Analysis;

/* The metric tree: the nodes with instances below them (and Time), indented
 * by depth; a group by its title, a pattern by its id. Inclusive time and
 * share; a pattern's own time where patterns below it add to it. */
static void
print_tree (Analysis *a)
{
  g_print ("Total time (all locations): %.6f s\n\n", a->total_seconds);
  g_print ("  %-56s %14s %8s %14s %10s\n", "pattern tree", "seconds", "share", "own seconds", "instances");
  for (guint i = 0; i < json_array_get_length (a->tree); i++)
    {
      JsonObject *node = json_array_get_object_element (a->tree, i);
      gboolean group = g_str_equal (json_object_get_string_member (node, "kind"), "group");
      JsonNode *inclusive = json_object_get_member (node, "inclusive_seconds");
      guint depth = (guint)json_object_get_int_member (node, "depth");
      g_autofree char *name = NULL;
      g_autofree char *seconds = NULL;
      g_autofree char *share = NULL;
      g_autofree char *own = NULL;
      g_autofree char *count = NULL;

      if (json_object_get_int_member (node, "instances_below") == 0 && depth > 0)
        continue;

      /* titles, as the window and the reports name them; a pattern's id,
       * which --pattern takes, beside its title */
      name = group ? g_strdup_printf ("%*s%s", 2 * depth, "", json_object_get_string_member (node, "title"))
                   : g_strdup_printf ("%*s%s (%s)", 2 * depth, "", json_object_get_string_member (node, "title"),
                                      json_object_get_string_member (node, "id"));
      seconds = JSON_NODE_HOLDS_NULL (inclusive) ? g_strdup ("-") : g_strdup_printf ("%.6f", json_node_get_double (inclusive));
      share = JSON_NODE_HOLDS_NULL (inclusive) ? g_strdup ("")
                                               : g_strdup_printf ("%.2f%%", 100.0 * json_object_get_double_member (node, "share"));
      own = group || json_object_get_int_member (node, "instances_below") == json_object_get_int_member (node, "instances")
            ? g_strdup ("") : g_strdup_printf ("%.6f", json_object_get_double_member (node, "exclusive_seconds"));
      count = group ? g_strdup ("") : g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (node, "instances"));
      g_print ("  %-56s %14s %8s %14s %10s\n", name, seconds, share, own, count);
    }
}

static void
print_analysis (Analysis *a)
{
  guint n = json_array_get_length (a->patterns);

  print_tree (a);

  g_print ("\nTop call sites:\n");
  for (guint i = 0; i < n; i++)
    {
      JsonObject *p = json_array_get_object_element (a->patterns, i);
      JsonArray *sites = json_object_get_array_member (p, "top_sites");

      for (guint k = 0; k < MIN (3, json_array_get_length (sites)); k++)
        {
          JsonObject *site = json_array_get_object_element (sites, k);
          JsonNode *file = json_object_get_member (site, "file");

          const char *function = json_object_get_string_member_with_default (site, "function", NULL);
          g_autofree char *where = JSON_NODE_HOLDS_NULL (file)
            ? g_strdup ("(no source information)")
            : g_strdup_printf ("%s:%" G_GINT64_FORMAT "%s%s%s", json_node_get_string (file),
                               json_object_get_int_member_with_default (site, "line", 0),
                               function != NULL ? " (where " : "", function != NULL ? function : "",
                               function != NULL ? " begins; the trace gives no call site)" : "");

          g_print ("  %-32s %12.6f s  %s  (%s)\n", json_object_get_string_member (p, "title"),
                   json_object_get_double_member (site, "severity_seconds"), where,
                   json_object_get_string_member_with_default (site, "callpath", ""));
        }
    }
}

int
sextant_cli_analyze (int    argc,
                     char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("DB|ARCHIVE - find inefficiency patterns");
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantPatternSet) patterns = NULL;
  g_autoptr(SextantAnalysis) analysis = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  g_auto(GStrv) only = NULL;
  g_auto(GStrv) params = NULL;
  g_auto(GStrv) files = NULL;
  gboolean as_json = FALSE;
  gboolean no_user = FALSE;
  int per_pattern = 100;
  Analysis a = { 0, NULL, NULL };
  int status = 0;
  GOptionEntry entries[] = {
    { "json", 'j', 0, G_OPTION_ARG_NONE, &as_json, "Print JSON", NULL },
    { "pattern", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &only, "Run only this pattern and those below it (repeatable)", "ID" },
    { "param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &params, "Set a parameter: name=value or pattern.name=value (repeatable)", "K=V" },
    { "pattern-file", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, "Also run the pattern in FILE (repeatable)", "FILE" },
    { "no-user-patterns", 0, 0, G_OPTION_ARG_NONE, &no_user, "Do not load the user's patterns folder", NULL },
    { "instances", 0, 0, G_OPTION_ARG_INT, &per_pattern,
      "With --json: list the N worst instances of each pattern (default 100; 0: all)", "N" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context,
    "Runs the pattern catalogue (and the user's patterns from\n"
    "$XDG_DATA_HOME/sextant/patterns/*.sql) over a trace, stores every instance in\n"
    "the trace store, and prints the metric tree of the patterns (inclusive times)\n"
    "and their top call sites.\n"
    "With --json also the worst instances of each pattern, with their ids (for\n"
    "`sextant tree --instance`) and, for wait states, whether each was direct or\n"
    "propagated and its root cause's location.\n"
    "An ARCHIVE is imported first (or its up-to-date database beside it is used).");
  if (!parse (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return usage_error (context, "analyze needs exactly one DB or ARCHIVE");
  if (per_pattern < 0)
    return usage_error (context, "--instances must be 0 or more");

  if (no_user)
    {
      patterns = sextant_pattern_set_new ();
      if (!sextant_pattern_set_add_builtin (patterns, &error))
        return runtime_error (error);
    }
  else if (!(patterns = sextant_pattern_set_new_default (&error)))
    return runtime_error (error);
  for (guint i = 0; files != NULL && files[i] != NULL; i++)
    if (!sextant_pattern_set_add_file (patterns, files[i], &error))
      return runtime_error (error);

  if (!(store = open_for_analysis (argv[1], TRUE, &db_path, &error)))
    return runtime_error (error);

  analysis = sextant_analysis_new (store, patterns);
  for (guint i = 0; params != NULL && params[i] != NULL; i++)
    if (!sextant_analysis_set_param (analysis, params[i], &error))
      return runtime_error (error);
  for (guint i = 0; only != NULL && only[i] != NULL; i++)
    if (!sextant_analysis_select (analysis, only[i], &error))
      return runtime_error (error);

  if (!sextant_analysis_run (analysis, NULL, &error))
    return runtime_error (error);

  if (!(a.patterns = sextant_report_gather_patterns (store, &a.total_seconds, &a.tree, &error)))
    return runtime_error (error);

  if (as_json)
    {
      g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
      JsonObject *object = json_object_new ();
      g_autofree char *text = NULL;
      JsonArray *instances;

      if (!(instances = sextant_report_gather_instances (store, (guint)per_pattern, &error)))
        {
          json_object_unref (object);
          json_array_unref (a.patterns);
          json_array_unref (a.tree);
          return runtime_error (error);
        }
      json_object_set_string_member (object, "database", db_path);
      json_object_set_double_member (object, "total_time_seconds", a.total_seconds);
      json_object_set_array_member (object, "patterns", a.patterns);
      json_object_set_array_member (object, "tree", a.tree);
      json_object_set_array_member (object, "instances", instances);
      json_node_take_object (root, object);
      text = sextant_report_json_to_data (root);
      g_print ("%s\n", text);
    }
  else
    {
      print_analysis (&a);
      json_array_unref (a.patterns);
      json_array_unref (a.tree);
    }

  return EXIT_SUCCESS;
}

/* report ----------------------------------------------------------------- */

int
sextant_cli_report (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("DB|ARCHIVE - write a summary report");
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantPatternSet) patterns = NULL;
  g_autoptr(SextantAnalysis) analysis = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) model = NULL;
  g_autofree char *db_path = NULL;
  g_autofree char *text = NULL;
  g_autofree char *format_name = NULL;
  g_autofree char *output = NULL;
  g_autofree char *source_root = NULL;
  SextantReportFormat format;
  int status = 0;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name, "html, md, csv or json", "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "File to write (- for standard output)", "OUT" },
    { "source-root", 0, 0, G_OPTION_ARG_FILENAME, &source_root,
      "Where to find source files that are not at the path the trace names", "DIR" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context,
    "Analyses the trace (all patterns, default parameters, plus the user's patterns;\n"
    "a store analysed so already is not analysed again) and writes a report: the\n"
    "run summary, the profile by region, the patterns by severity, the top\n"
    "instances with a timeline of the locations involved and the source lines\n"
    "around the call, the communication matrix and the message sizes.\n"
    "HTML is one self-contained file; Markdown, CSV and JSON carry the same data.");
  if (!parse (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return usage_error (context, "report needs exactly one DB or ARCHIVE");
  if (format_name == NULL || !sextant_report_format_from_string (format_name, &format))
    return usage_error (context, "--format must be html, md, csv or json");
  if (output == NULL)
    return usage_error (context, "report needs -o OUT");

  if (!(patterns = sextant_pattern_set_new_default (&error)) ||
      !(store = open_for_analysis (argv[1], FALSE, &db_path, &error)))
    return runtime_error (error);

  /* analysed with this catalogue and its defaults already (as `sextant
   * analyze` without options leaves it): its instances as they are */
  analysis = sextant_analysis_new (store, patterns);
  if (!sextant_analysis_is_current (analysis) && !sextant_analysis_run (analysis, NULL, &error))
    return runtime_error (error);
  /* in one read transaction: an analysis that another process commits
   * meanwhile is not half in the report (a manifest's shards: the
   * reader's lock, docs/parallel.md) */
  if (!sextant_store_begin (store, &error))
    return runtime_error (error);
  model = sextant_report_gather (store, source_root, &error);
  sextant_store_rollback (store);
  if (model == NULL)
    return runtime_error (error);

  text = sextant_report_render (model, format);
  if (g_str_equal (output, "-"))
    fputs (text, stdout);
  else if (!g_file_set_contents (output, text, -1, &error))
    return runtime_error (error);

  return EXIT_SUCCESS;
}

/* Shared with the subcommands of other files (sextant-cli-private.h) ------ */

int
_sextant_cli_usage_error (GOptionContext *context,
                          const char     *message)
{
  return usage_error (context, message);
}

int
_sextant_cli_runtime_error (const GError *error)
{
  return runtime_error (error);
}

gboolean
_sextant_cli_parse (GOptionContext   *context,
                    int              *argc,
                    char           ***argv,
                    int              *status)
{
  return parse (context, argc, argv, status);
}

SextantStore *
_sextant_cli_open_or_import (const char  *path,
                             char       **db_path,
                             GError     **error)
{
  return open_or_import (path, db_path, error);
}

static void
add_otf2_locations (JsonNode   *node,
                    GHashTable *otf2_ids)
{
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        add_otf2_locations (json_array_get_element (array, i), otf2_ids);
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      JsonNode *loc = json_object_get_member (object, "location");
      g_autoptr(GList) members = json_object_get_values (object);

      if (loc != NULL && json_node_get_value_type (loc) == G_TYPE_INT64)
        {
          gint64 id = json_node_get_int (loc);
          gint64 *otf2_id = g_hash_table_lookup (otf2_ids, &id);

          if (otf2_id != NULL)
            json_object_set_int_member (object, "otf2_location", *otf2_id);
        }
      for (GList *l = members; l != NULL; l = l->next)
        if (!JSON_NODE_HOLDS_VALUE ((JsonNode *)l->data))
          add_otf2_locations (l->data, otf2_ids);
    }
}

/* Adds "otf2_location" (the archive's id, as `sextant info` and `analyze
 * --json` print locations) beside every "location" (the store's dense
 * location.id) of @json. */
gboolean
_sextant_cli_add_otf2_locations (SextantStore  *store,
                                 JsonNode      *json,
                                 GError       **error)
{
  g_autoptr(GPtrArray) locations = sextant_store_list_locations (store, error);
  g_autoptr(GHashTable) otf2_ids = NULL;

  if (locations == NULL)
    return FALSE;
  otf2_ids = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < locations->len; i++)
    {
      SextantLocationInfo *info = g_ptr_array_index (locations, i);

      g_hash_table_insert (otf2_ids, &info->id, &info->otf2_id);
    }
  add_otf2_locations (json, otf2_ids);
  return TRUE;
}
