/*
 * sextant-report-render.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Renders the report model of sextant-report.c: HTML (in
 * sextant-report-html.c), Markdown with the same tables, CSV as the whole
 * model in long format (section, index, field, value), so every figure of
 * the other formats is in it, and JSON, the model itself. The helpers
 * below read the model for both HTML and Markdown.
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "sextant-report-render-private.h"

/* A call site (a pattern's top one, or an instance's) as the report says
 * it: "file:line", or what the trace has instead of a call site. */
char *
_sextant_report_top_site_text (JsonObject *site,
                               gboolean    base_name)
{
  const char *file = str_or (site, "file", NULL);
  const char *function = str_or (site, "function", NULL);
  g_autofree char *name = NULL;

  if (file == NULL)
    return g_strdup ("no source information in the trace");
  name = base_name ? g_path_get_basename (file) : g_strdup (file);
  if (g_strcmp0 (str_or (site, "kind", NULL), "function") == 0)
    return g_strdup_printf ("%s:%" G_GINT64_FORMAT " (where %s begins; the trace gives no call site)", name,
                            int_or (site, "line", 0), function != NULL ? function : "the function");

  return g_strdup_printf ("%s:%" G_GINT64_FORMAT, name, int_or (site, "line", 0));
}

/* The pattern @id of the model's list, or NULL */
JsonObject *
_sextant_report_find_pattern (JsonArray  *patterns,
                              const char *id)
{
  for (guint i = 0; i < json_array_get_length (patterns); i++)
    {
      JsonObject *p = json_array_get_object_element (patterns, i);

      if (g_strcmp0 (json_object_get_string_member (p, "id"), id) == 0)
        return p;
    }

  return NULL;
}

/* "Direct wait state: the root cause is MPI Rank 0." / "Propagated ...";
 * NULL for an instance that is no wait state */
char *
_sextant_report_cause_text (JsonObject *inst)
{
  const char *cause = str_or (inst, "cause", NULL);
  const char *root = str_or (inst, "root_cause_label", NULL);

  if (cause == NULL)
    return NULL;

  return g_strdup_printf ("%s wait state: the root cause is %s.",
                          g_str_equal (cause, "propagated") ? "Propagated" : "Direct",
                          root != NULL ? root : "unknown (the chain of waits loops)");
}

/* Markdown ------------------------------------------------------------------- */

static void
md_cell (GString    *out,
         const char *text)
{
  for (const char *p = text != NULL ? text : ""; *p != '\0'; p++)
    {
      if (*p == '|')
        g_string_append (out, "\\|");
      else if (*p == '\n')
        g_string_append_c (out, ' ');
      else
        g_string_append_c (out, *p);
    }
}

static char *
render_markdown (JsonObject *root)
{
  GString *out = g_string_new ("# Sextant report\n\n## Run summary\n\n");
  JsonObject *summary = json_object_get_object_member (root, "summary");
  JsonArray *patterns = json_object_get_array_member (root, "patterns");
  JsonArray *tree = json_object_get_array_member (root, "tree");
  JsonArray *instances = json_object_get_array_member (root, "instances");
  JsonArray *profile = json_object_get_array_member (root, "profile");
  JsonArray *cells = json_object_get_array_member (json_object_get_object_member (root, "matrix"), "cells");
  JsonArray *sizes = json_object_get_array_member (root, "message_sizes");

  g_string_append_printf (out, "| | |\n|---|---|\n| archive | %s |\n| written by | %s (OTF2 %s) |\n"
                          "| locations | %" G_GINT64_FORMAT " |\n| events | %" G_GINT64_FORMAT " |\n"
                          "| duration | %.9g s |\n| total time (all locations) | %.9g s |\n"
                          "| messages | %" G_GINT64_FORMAT " matched, %" G_GINT64_FORMAT " unmatched |\n"
                          "| collective operations | %" G_GINT64_FORMAT " |\n",
                          str_or (summary, "archive", "?"), str_or (summary, "creator", "?"),
                          str_or (summary, "otf2_version", "?"), int_or (summary, "locations", 0),
                          int_or (summary, "events", 0), json_object_get_double_member (summary, "duration_seconds"),
                          json_object_get_double_member (summary, "total_time_seconds"),
                          int_or (summary, "messages_matched", 0), int_or (summary, "messages_unmatched", 0),
                          int_or (summary, "collectives", 0));

  g_string_append (out, "\n## Patterns\n\nThe metric tree: a node's time (inclusive) includes the nodes below it; "
                        "`own` is a pattern's own time; shares are of the total time. Diagnostics overlap the "
                        "wait states and each other and are not added up (-).\n\n"
                        "| pattern | id | own seconds | seconds | share | instances | top call site |\n"
                        "|---|---|---:|---:|---:|---:|---|\n");
  for (guint i = 0; i < json_array_get_length (tree); i++)
    {
      JsonObject *node = json_array_get_object_element (tree, i);
      JsonObject *p = g_str_equal (str_or (node, "kind", ""), "group") ? NULL
                      : _sextant_report_find_pattern (patterns, str_or (node, "id", ""));
      JsonNode *inclusive = json_object_get_member (node, "inclusive_seconds");
      JsonArray *sites = p != NULL ? json_object_get_array_member (p, "top_sites") : NULL;

      g_string_append (out, "| ");
      for (gint64 d = 0; d < json_object_get_int_member (node, "depth"); d++)
        g_string_append (out, "&emsp;");
      if (p == NULL)
        g_string_append (out, "**");
      md_cell (out, json_object_get_string_member (node, "title"));
      g_string_append_printf (out, "%s | `%s` | ", p == NULL ? "**" : "", json_object_get_string_member (node, "id"));
      if (p != NULL)
        g_string_append_printf (out, "%.9g", json_object_get_double_member (p, "severity_seconds"));
      if (JSON_NODE_HOLDS_NULL (inclusive))
        g_string_append (out, " | - | - | ");
      else
        g_string_append_printf (out, " | %.9g | %.4f %% | ", json_node_get_double (inclusive),
                                100.0 * json_object_get_double_member (node, "share"));
      if (p != NULL)
        g_string_append_printf (out, "%" G_GINT64_FORMAT, json_object_get_int_member (p, "instances"));
      g_string_append (out, " | ");
      if (sites != NULL && json_array_get_length (sites) > 0)
        {
          g_autofree char *where = _sextant_report_top_site_text (json_array_get_object_element (sites, 0), FALSE);

          md_cell (out, where);
        }
      g_string_append (out, " |\n");
    }

  g_string_append (out, "\n## Top instances\n");
  for (guint i = 0; i < json_array_get_length (instances); i++)
    {
      JsonObject *inst = json_array_get_object_element (instances, i);
      JsonNode *source = json_object_get_member (inst, "source");

      g_autofree char *site = _sextant_report_top_site_text (inst, FALSE);

      g_string_append_printf (out, "\n### %u. %s: %.9g s on %s\n\n", i + 1,
                              json_object_get_string_member (inst, "title"),
                              json_object_get_double_member (inst, "severity_seconds"),
                              str_or (inst, "location_label", "?"));
      g_string_append_printf (out, "`%s`%s%s\n\n%s\n", str_or (inst, "callpath", ""),
                              str_or (inst, "file", NULL) != NULL ? " at " : ": ", site, str_or (inst, "comment", ""));
      {
        g_autofree char *cause = _sextant_report_cause_text (inst);

        if (cause != NULL)
          g_string_append_printf (out, "\n%s\n", cause);
      }
      if (source != NULL && JSON_NODE_HOLDS_ARRAY (source))
        {
          JsonArray *lines = json_node_get_array (source);

          g_string_append (out, "\n```\n");
          for (guint l = 0; l < json_array_get_length (lines); l++)
            {
              JsonObject *line = json_array_get_object_element (lines, l);

              g_string_append_printf (out, "%s%5" G_GINT64_FORMAT "  %s\n",
                                      json_object_get_int_member (line, "line") == int_or (inst, "line", -1) ? ">" : " ",
                                      json_object_get_int_member (line, "line"),
                                      json_object_get_string_member (line, "text"));
            }
          g_string_append (out, "```\n");
        }
    }

  g_string_append (out, "\n## Profile by region\n\n| region | kind | visits | exclusive s | inclusive s |\n"
                        "|---|---|---:|---:|---:|\n");
  for (guint i = 0; i < json_array_get_length (profile); i++)
    {
      JsonObject *r = json_array_get_object_element (profile, i);

      g_string_append (out, "| ");
      md_cell (out, str_or (r, "region", "?"));
      g_string_append_printf (out, " | %s | %" G_GINT64_FORMAT " | %.9g | %.9g |\n", str_or (r, "category", ""),
                              json_object_get_int_member (r, "visits"),
                              json_object_get_double_member (r, "exclusive_seconds"),
                              json_object_get_double_member (r, "inclusive_seconds"));
    }

  g_string_append (out, "\n## Communication matrix\n\n| from | to | messages | bytes |\n|---:|---:|---:|---:|\n");
  for (guint i = 0; i < json_array_get_length (cells); i++)
    {
      JsonObject *c = json_array_get_object_element (cells, i);

      g_string_append_printf (out, "| %" G_GINT64_FORMAT " | %" G_GINT64_FORMAT " | %" G_GINT64_FORMAT " | %"
                              G_GINT64_FORMAT " |\n", json_object_get_int_member (c, "from"),
                              json_object_get_int_member (c, "to"), json_object_get_int_member (c, "messages"),
                              json_object_get_int_member (c, "bytes"));
    }

  g_string_append (out, "\n## Message sizes\n\n| bytes from | bytes to | messages |\n|---:|---:|---:|\n");
  for (guint i = 0; i < json_array_get_length (sizes); i++)
    {
      JsonObject *b = json_array_get_object_element (sizes, i);

      g_string_append_printf (out, "| %" G_GINT64_FORMAT " | %" G_GINT64_FORMAT " | %" G_GINT64_FORMAT " |\n",
                              json_object_get_int_member (b, "min_bytes"), json_object_get_int_member (b, "max_bytes"),
                              json_object_get_int_member (b, "messages"));
    }

  return g_string_free (out, FALSE);
}

/* CSV: the whole model, one value per line ----------------------------------- */

static void
csv_field (GString    *out,
           const char *text)
{
  if (strpbrk (text, ",\"\n\r") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
csv_node (GString    *out,
          const char *section,
          gint64      index,
          const char *path,
          JsonNode   *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        g_autoptr(GList) members = json_object_get_members (json_node_get_object (node));

        for (GList *l = members; l != NULL; l = l->next)
          {
            g_autofree char *sub = path[0] != '\0' ? g_strconcat (path, ".", l->data, NULL) : g_strdup (l->data);

            csv_node (out, section, index, sub, json_object_get_member (json_node_get_object (node), l->data));
          }
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        for (guint i = 0; i < json_array_get_length (array); i++)
          {
            g_autofree char *sub = g_strdup_printf ("%s%s%u", path, path[0] != '\0' ? "." : "", i);

            csv_node (out, section, index, sub, json_array_get_element (array, i));
          }
      }
      break;

    case JSON_NODE_VALUE:
    case JSON_NODE_NULL:
      {
        g_autofree char *value = NULL;

        if (JSON_NODE_HOLDS_NULL (node))
          value = g_strdup ("");
        else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
          value = g_strdup_printf ("%.17g", json_node_get_double (node));
        else if (json_node_get_value_type (node) == G_TYPE_INT64)
          value = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
        else if (json_node_get_value_type (node) == G_TYPE_BOOLEAN)
          value = g_strdup (json_node_get_boolean (node) ? "true" : "false");
        else
          value = g_strdup (json_node_get_string (node));

        csv_field (out, section);
        g_string_append_printf (out, ",%" G_GINT64_FORMAT ",", index);
        csv_field (out, path);
        g_string_append_c (out, ',');
        csv_field (out, value);
        g_string_append_c (out, '\n');
      }
      break;

    default:
      break;
    }
}

static char *
render_csv (JsonObject *root)
{
  GString *out = g_string_new ("section,index,field,value\n");
  g_autoptr(GList) sections = json_object_get_members (root);

  for (GList *l = sections; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (root, l->data);

      if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *array = json_node_get_array (node);

          for (guint i = 0; i < json_array_get_length (array); i++)
            csv_node (out, l->data, i, "", json_array_get_element (array, i));
        }
      else
        csv_node (out, l->data, 0, "", node);
    }

  return g_string_free (out, FALSE);
}

/**
 * sextant_report_render:
 *
 * Numbers are written with a decimal point whatever the locale (SVG
 * coordinates and CSV values must be; a comma would break both): the
 * calling thread's numeric locale is "C" while the report is written.
 *
 * Returns: (transfer full): the report as text in @format
 */
char *
sextant_report_render (JsonNode            *model,
                       SextantReportFormat  format)
{
  locale_t c_numeric, previous;
  char *text;

  g_return_val_if_fail (model != NULL && JSON_NODE_HOLDS_OBJECT (model), NULL);

  c_numeric = newlocale (LC_NUMERIC_MASK, "C", (locale_t)0);
  previous = c_numeric != (locale_t)0 ? uselocale (c_numeric) : (locale_t)0;
  switch (format)
    {
    case SEXTANT_REPORT_HTML:
      text = _sextant_report_render_html (json_node_get_object (model));
      break;
    case SEXTANT_REPORT_MARKDOWN:
      text = render_markdown (json_node_get_object (model));
      break;
    case SEXTANT_REPORT_CSV:
      text = render_csv (json_node_get_object (model));
      break;
    case SEXTANT_REPORT_JSON:
    default:
      text = sextant_report_json_to_data (model);
      break;
    }
  if (c_numeric != (locale_t)0)
    {
      uselocale (previous);
      freelocale (c_numeric);
    }

  return text;
}
