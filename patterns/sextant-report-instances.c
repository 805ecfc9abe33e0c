/*
 * sextant-report-instances.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The report's instances (sextant-report.c gathers the rest of the model):
 * the top instances, each with the timeline of the locations involved and
 * the source lines around its call, and the instances of every pattern
 * that `sextant analyze --json` lists (sextant_report_gather_instances()).
 */
#include "config.h"

#include "sextant-json.h"
#include "sextant-report-gather-private.h"

#define SOURCE_CONTEXT    3      /* lines shown above and below a call */
#define TIMELINE_MARGIN   0.25   /* of the instance's length, each side */

/* Top instances with their timeline and source lines ------------------------ */

static JsonArray *
read_source (const char *file,
             gint64      line,
             const char *source_root)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  JsonArray *out;

  if (file == NULL || line <= 0)
    return NULL;

  if (!g_file_get_contents (file, &text, NULL, NULL) && source_root != NULL)
    {
      g_autofree char *base = g_path_get_basename (file);
      g_autofree char *moved = g_build_filename (source_root, base, NULL);

      g_file_get_contents (moved, &text, NULL, NULL);
    }
  if (text == NULL || !g_utf8_validate (text, -1, NULL))
    return NULL;

  lines = g_strsplit (text, "\n", -1);
  out = json_array_new ();
  for (gint64 l = MAX (1, line - SOURCE_CONTEXT); l <= line + SOURCE_CONTEXT && l <= g_strv_length (lines); l++)
    {
      JsonObject *entry = json_object_new ();

      json_object_set_int_member (entry, "line", l);
      json_object_set_string_member (entry, "text", lines[l - 1]);
      json_array_add_object_element (out, entry);
    }

  return out;
}

typedef struct
{
  Gather    *g;
  JsonArray *visits;
} TimelineRows;

static gboolean
timeline_row (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  TimelineRows *t = user_data;
  JsonObject *visit = json_object_new ();

  json_object_set_double_member (visit, "begin_seconds", seconds (t->g, sextant_row_get_int (row, 0)));
  json_object_set_double_member (visit, "end_seconds", seconds (t->g, sextant_row_get_int (row, 1)));
  json_object_set_int_member (visit, "depth", sextant_row_get_int (row, 2));
  set_text_or_null (visit, "region", row, 3);
  json_object_set_string_member (visit, "category", sextant_row_get_text (row, 4));
  json_array_add_object_element (t->visits, visit);

  return TRUE;
}

static gboolean
add_timeline_row (Gather      *g,
                  JsonArray   *rows,
                  gint64       loc,
                  gint64       otf2_id,
                  gint64       t0,
                  gint64       t1,
                  GError     **error)
{
  JsonObject *row = json_object_new ();
  TimelineRows t = { g, json_array_new () };

  json_object_set_int_member (row, "location", otf2_id);
  _sextant_report_set_label (row, "label", g->labels, loc);
  json_object_set_array_member (row, "visits", t.visits);
  json_array_add_object_element (rows, row);

  return sextant_store_foreach (g->store, SEXTANT_QUERY_VISITS_IN_WINDOW, timeline_row, &t, error,
                                "iii", loc, t0, t1);
}

gboolean
_sextant_report_instance_row (const SextantRow  *row,
                              gpointer           user_data,
                              GError           **error)
{
  Gather *g = user_data;
  JsonObject *instance = json_object_new ();
  JsonObject *timeline;
  JsonArray *rows;
  JsonArray *source;
  gboolean interval = !sextant_row_is_null (row, 8);
  gint64 begin = interval ? sextant_row_get_int (row, 8) : 0;
  gint64 end = sextant_row_is_null (row, 9) ? begin : sextant_row_get_int (row, 9);
  gint64 margin = MAX (1, (gint64)((end - begin) * TIMELINE_MARGIN));
  gint64 t0 = begin - margin, t1 = end + margin;

  json_object_set_string_member (instance, "pattern", sextant_row_get_text (row, 0));
  json_object_set_string_member (instance, "title", sextant_row_get_text (row, 1));
  json_object_set_double_member (instance, "severity_seconds", seconds (g, sextant_row_get_int (row, 2)));
  json_object_set_int_member (instance, "location", sextant_row_get_int (row, 3));
  _sextant_report_set_label (instance, "location_label", g->labels, sextant_row_get_int (row, 12));
  set_int_or_null (instance, "peer", row, 10);
  if (sextant_row_is_null (row, 13))
    json_object_set_null_member (instance, "peer_label");
  else
    _sextant_report_set_label (instance, "peer_label", g->labels, sextant_row_get_int (row, 13));
  set_text_or_null (instance, "callpath", row, 5);
  set_text_or_null (instance, "file", row, 6);
  set_int_or_null (instance, "line", row, 7);
  /* what the line is: the call's ("call"), where the calling "function"
   * begins ("function"), or there is none ("none") */
  set_text_or_null (instance, "kind", row, 14);
  set_text_or_null (instance, "function", row, 15);
  json_object_set_double_member (instance, "begin_seconds", seconds (g, begin));
  json_object_set_double_member (instance, "end_seconds", seconds (g, end));
  set_text_or_null (instance, "comment", row, 11);
  json_object_set_int_member (instance, "id", sextant_row_get_int (row, 16));
  /* wait states: "direct" or "propagated", and the root cause's location */
  set_text_or_null (instance, "cause", row, 17);
  set_int_or_null (instance, "cause_instance", row, 20);
  set_int_or_null (instance, "root_cause_location", row, 18);
  if (sextant_row_is_null (row, 19))
    json_object_set_null_member (instance, "root_cause_label");
  else
    _sextant_report_set_label (instance, "root_cause_label", g->labels, sextant_row_get_int (row, 19));

  source = read_source (sextant_row_is_null (row, 6) ? NULL : sextant_row_get_text (row, 6),
                        sextant_row_is_null (row, 7) ? 0 : sextant_row_get_int (row, 7), g->source_root);
  if (source != NULL)
    json_object_set_array_member (instance, "source", source);
  else
    json_object_set_null_member (instance, "source");

  json_array_add_object_element (json_object_get_array_member (g->root, "instances"), instance);

  /* an instance summed over the run (no interval) has no timeline */
  if (!interval)
    {
      json_object_set_null_member (instance, "timeline");
      return TRUE;
    }

  /* the margin stays inside the run, where the time axis starts at 0 */
  if (t0 < g->time_begin && g->time_begin <= begin)
    t0 = g->time_begin;
  if (t1 > g->time_end && g->time_end >= end)
    t1 = g->time_end;

  timeline = json_object_new ();
  rows = json_array_new ();
  json_object_set_double_member (timeline, "origin_seconds", seconds (g, g->time_begin));
  json_object_set_double_member (timeline, "begin_seconds", seconds (g, t0));
  json_object_set_double_member (timeline, "end_seconds", seconds (g, t1));
  json_object_set_array_member (timeline, "rows", rows);
  json_object_set_object_member (instance, "timeline", timeline);

  if (!add_timeline_row (g, rows, sextant_row_get_int (row, 12), sextant_row_get_int (row, 3), t0, t1, error))
    return FALSE;
  if (!sextant_row_is_null (row, 13) && sextant_row_get_int (row, 13) != sextant_row_get_int (row, 12))
    return add_timeline_row (g, rows, sextant_row_get_int (row, 13), sextant_row_get_int (row, 10), t0, t1, error);

  return TRUE;
}

/* Instances of every pattern (sextant analyze --json) --------------------- */

static void
set_location_or_null (JsonObject *object,
                      const char *name,
                      GPtrArray  *locations,
                      gint64      loc)
{
  if (loc == SEXTANT_NULL || loc < 0 || (guint64)loc >= locations->len)
    json_object_set_null_member (object, name);
  else
    json_object_set_int_member (object, name,
                                ((SextantLocationInfo *)g_ptr_array_index (locations, loc))->otf2_id);
}

static JsonObject *
instance_to_json (Gather                       *g,
                  GPtrArray                    *locations,
                  const SextantPatternInstance *inst)
{
  JsonObject *object = json_object_new ();

  json_object_set_int_member (object, "id", inst->id);
  json_object_set_string_member (object, "pattern", inst->pattern);
  json_object_set_double_member (object, "severity_seconds", seconds (g, inst->severity));
  set_location_or_null (object, "location", locations, inst->loc);
  json_object_set_string_member (object, "location_label", inst->location);
  set_location_or_null (object, "peer", locations, inst->peer_loc);
  sextant_json_set_string_or_null (object, "peer_label", inst->peer);
  if (inst->begin == SEXTANT_NULL)
    json_object_set_null_member (object, "begin_seconds");
  else
    json_object_set_double_member (object, "begin_seconds", seconds (g, inst->begin));
  if (inst->end == SEXTANT_NULL)
    json_object_set_null_member (object, "end_seconds");
  else
    json_object_set_double_member (object, "end_seconds", seconds (g, inst->end));
  sextant_json_set_string_or_null (object, "call", inst->call);
  sextant_json_set_string_or_null (object, "callpath", inst->callpath);
  sextant_json_set_string_or_null (object, "file", inst->file);
  if (inst->file == NULL)
    json_object_set_null_member (object, "line");
  else
    json_object_set_int_member (object, "line", inst->line);
  json_object_set_string_member (object, "kind", inst->site_kind == SEXTANT_SITE_CALL ? "call"
                                                 : inst->site_kind == SEXTANT_SITE_FUNCTION ? "function" : "none");
  sextant_json_set_string_or_null (object, "function", inst->function);
  json_object_set_string_member (object, "comment", inst->comment);
  sextant_json_set_string_or_null (object, "cause", sextant_wait_cause_to_string (inst->cause));
  sextant_json_set_int_or_null (object, "cause_instance", inst->cause_instance);
  set_location_or_null (object, "root_cause_location", locations, inst->root_loc);
  sextant_json_set_string_or_null (object, "root_cause_label", inst->root_label);

  return object;
}

/**
 * sextant_report_gather_instances:
 * @per_pattern: at most this many instances of each pattern, the worst
 *   first; 0 for all
 *
 * The instances of the last analysis, pattern by pattern (as
 * sextant_report_gather_patterns() orders them), each with its id (what
 * `sextant tree --instance` takes), its locations (OTF2 location ids, as in
 * the report) and labels, interval and source line, comment and, for wait
 * states, "cause" ("direct" or "propagated"), "cause_instance" and the root
 * cause's location ("root_cause_location", "root_cause_label"); "cause" is
 * null for the other patterns.
 *
 * Returns: (transfer full): a JSON array, or %NULL with @error set
 */
JsonArray *
sextant_report_gather_instances (SextantStore  *store,
                                 guint          per_pattern,
                                 GError       **error)
{
  g_autoptr(JsonArray) instances = json_array_new ();
  g_autoptr(JsonObject) root = json_object_new ();
  g_autoptr(GPtrArray) totals = NULL;
  g_autoptr(GPtrArray) locations = NULL;
  Gather g = { .store = store, .resolution = 1, .root = root };

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);

  if (!_sextant_report_read_total (&g, error) ||
      !(totals = sextant_store_list_pattern_totals (store, error)) ||
      !(locations = sextant_store_list_locations (store, error)))
    return NULL;

  for (guint i = 0; i < totals->len; i++)
    {
      const SextantPatternTotal *total = g_ptr_array_index (totals, i);
      g_autoptr(GPtrArray) found = NULL;

      if (total->instances == 0)
        continue;
      /* (on a manifest, read from the shards that hold them) */
      if (!(found = sextant_store_list_pattern_instances (store, total->id, per_pattern > 0 ? per_pattern : G_MAXUINT,
                                                          error)))
        return NULL;
      for (guint k = 0; k < found->len; k++)
        json_array_add_object_element (instances, instance_to_json (&g, locations, g_ptr_array_index (found, k)));
    }

  return g_steal_pointer (&instances);
}
