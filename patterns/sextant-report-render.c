/*
 * sextant-report-render.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Renders the report model of sextant-report.c. HTML is one self-contained
 * file: inline CSS, inline SVG figures (severity bars, an instance's
 * timeline, the communication matrix as a heat map, the message-size
 * histogram), no scripts and no external resources. Markdown carries the
 * same tables. CSV is the whole model in long format (section, index,
 * field, value), so every figure of the other formats is in it. JSON is the
 * model itself.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-report.h"

/* Colours of the region categories, also the timeline's. */
static const struct { const char *category; const char *colour; } palette[] = {
  { "MPI", "#d9534f" }, { "RMA", "#f0ad4e" }, { "USER", "#5cb85c" }, { "OMP", "#5bc0de" },
  { "THREAD", "#9b59b6" }, { "IO", "#795548" }, { "ACCEL", "#3f51b5" }, { "OTHER", "#9e9e9e" },
};

static const char *
category_colour (const char *category)
{
  for (guint i = 0; i < G_N_ELEMENTS (palette); i++)
    if (g_strcmp0 (palette[i].category, category) == 0)
      return palette[i].colour;

  return "#9e9e9e";
}

static const char *
str_or (JsonObject *object,
        const char *name,
        const char *fallback)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return fallback;

  return json_node_get_string (node);
}

static gint64
int_or (JsonObject *object,
        const char *name,
        gint64      fallback)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return fallback;

  return json_node_get_int (node);
}

static char *
format_seconds (double s)
{
  if (s >= 1.0)
    return g_strdup_printf ("%.3f s", s);
  if (s >= 1e-3)
    return g_strdup_printf ("%.3f ms", s * 1e3);
  return g_strdup_printf ("%.2f us", s * 1e6);
}

static void
append_escaped (GString    *out,
                const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text != NULL ? text : "", -1);

  g_string_append (out, escaped);
}

/* HTML ----------------------------------------------------------------------- */

static const char html_style[] =
  "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}"
  "h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;margin-top:2em}"
  "table{border-collapse:collapse;margin:0.5em 0}td,th{padding:2px 8px;text-align:left;"
  "border-bottom:1px solid #eee}td.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}"
  ".bar{background:#d9534f;height:0.8em;display:inline-block}"
  "pre{background:#f6f6f6;padding:0.5em;overflow-x:auto}pre b{background:#ffe08a}"
  ".comment{margin:0.3em 0 0.6em 0}.muted{color:#777}.site{white-space:nowrap}";

static void
html_summary (GString    *out,
              JsonObject *summary)
{
  g_autofree char *duration = format_seconds (json_object_get_double_member (summary, "duration_seconds"));
  g_autofree char *total = format_seconds (json_object_get_double_member (summary, "total_time_seconds"));

  g_string_append (out, "<h2 id=\"summary\">Run summary</h2><table>");
  g_string_append (out, "<tr><th>archive</th><td>");
  append_escaped (out, str_or (summary, "archive", "?"));
  g_string_append (out, "</td></tr><tr><th>written by</th><td>");
  append_escaped (out, str_or (summary, "creator", "?"));
  g_string_append (out, " (OTF2 ");
  append_escaped (out, str_or (summary, "otf2_version", "?"));
  g_string_append_printf (out, ")</td></tr>"
                          "<tr><th>locations</th><td class=\"n\">%" G_GINT64_FORMAT "</td></tr>"
                          "<tr><th>events</th><td class=\"n\">%" G_GINT64_FORMAT "</td></tr>"
                          "<tr><th>duration</th><td class=\"n\">%s</td></tr>"
                          "<tr><th>total time (all locations)</th><td class=\"n\">%s</td></tr>"
                          "<tr><th>messages</th><td class=\"n\">%" G_GINT64_FORMAT " matched, %"
                          G_GINT64_FORMAT " unmatched</td></tr>"
                          "<tr><th>collective operations</th><td class=\"n\">%" G_GINT64_FORMAT "</td></tr>"
                          "</table>",
                          int_or (summary, "locations", 0), int_or (summary, "events", 0), duration, total,
                          int_or (summary, "messages_matched", 0), int_or (summary, "messages_unmatched", 0),
                          int_or (summary, "collectives", 0));
}

/* A pattern's top call site as the pattern table says it: "file:line", or
 * what the trace has instead of a call site. */
static char *
top_site_text (JsonObject *site,
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

static void
html_patterns (GString   *out,
               JsonArray *patterns)
{
  double max = 0;

  for (guint i = 0; i < json_array_get_length (patterns); i++)
    max = MAX (max, json_object_get_double_member (json_array_get_object_element (patterns, i), "severity_seconds"));

  g_string_append (out, "<h2 id=\"patterns\">Patterns</h2><table><tr><th>pattern</th><th>time lost</th>"
                        "<th>share</th><th>instances</th><th></th><th>top call site</th></tr>");
  for (guint i = 0; i < json_array_get_length (patterns); i++)
    {
      JsonObject *p = json_array_get_object_element (patterns, i);
      double s = json_object_get_double_member (p, "severity_seconds");
      JsonArray *sites = json_object_get_array_member (p, "top_sites");
      g_autofree char *lost = format_seconds (s);

      if (json_object_get_int_member (p, "instances") == 0)
        continue;
      g_string_append (out, "<tr><td title=\"");
      append_escaped (out, str_or (p, "description", ""));
      g_string_append (out, "\">");
      append_escaped (out, json_object_get_string_member (p, "title"));
      g_string_append (out, " <span class=\"muted\">");
      append_escaped (out, json_object_get_string_member (p, "id"));
      g_string_append_printf (out, "</span></td><td class=\"n\">%s</td><td class=\"n\">%.2f %%</td>"
                              "<td class=\"n\">%" G_GINT64_FORMAT "</td>"
                              "<td><span class=\"bar\" style=\"width:%.0fpx\"></span></td><td class=\"site\">",
                              lost, 100.0 * json_object_get_double_member (p, "share"),
                              json_object_get_int_member (p, "instances"), max > 0 ? 200.0 * s / max : 0.0);
      if (json_array_get_length (sites) > 0)
        {
          g_autofree char *where = top_site_text (json_array_get_object_element (sites, 0), TRUE);

          append_escaped (out, where);
        }
      g_string_append (out, "</td></tr>");
    }
  g_string_append (out, "</table><p class=\"muted\">Patterns without instances are not listed.</p>");
}

/* A timeline of the locations involved in an instance: one lane per location
 * and call depth, the lost interval shaded. */
static void
html_timeline (GString    *out,
               JsonObject *instance)
{
  JsonObject *timeline = json_object_get_object_member (instance, "timeline");
  JsonArray *rows = json_object_get_array_member (timeline, "rows");
  double t0 = json_object_get_double_member (timeline, "begin_seconds");
  double t1 = json_object_get_double_member (timeline, "end_seconds");
  double lost0 = json_object_get_double_member (instance, "begin_seconds");
  double lost1 = json_object_get_double_member (instance, "end_seconds");
  const double width = 600, label = 90, lane = 9;
  double y = 0;
  double scale = t1 > t0 ? (width - label) / (t1 - t0) : 0;
  g_autoptr(GString) body = g_string_new (NULL);

  for (guint r = 0; r < json_array_get_length (rows); r++)
    {
      JsonObject *row = json_array_get_object_element (rows, r);
      JsonArray *visits = json_object_get_array_member (row, "visits");
      gint64 depth_max = 0;

      for (guint v = 0; v < json_array_get_length (visits); v++)
        depth_max = MAX (depth_max, json_object_get_int_member (json_array_get_object_element (visits, v), "depth"));

      g_string_append_printf (body, "<text x=\"0\" y=\"%.1f\" font-size=\"10\">loc %" G_GINT64_FORMAT "</text>",
                              y + 10, json_object_get_int_member (row, "location"));
      for (guint v = 0; v < json_array_get_length (visits); v++)
        {
          JsonObject *visit = json_array_get_object_element (visits, v);
          double b = MAX (t0, json_object_get_double_member (visit, "begin_seconds"));
          double e = MIN (t1, json_object_get_double_member (visit, "end_seconds"));

          g_string_append_printf (body, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                                  "<title>", label + (b - t0) * scale,
                                  y + lane * json_object_get_int_member (visit, "depth"),
                                  MAX (0.5, (e - b) * scale), lane - 1,
                                  category_colour (str_or (visit, "category", "OTHER")));
          append_escaped (body, str_or (visit, "region", "?"));
          g_string_append (body, "</title></rect>");
        }
      y += lane * (depth_max + 1) + 6;
    }

  /* the lost interval on top, translucent, so the calls under it stay visible */
  g_string_append_printf (out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                          "role=\"img\">%s<rect x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"%.0f\" "
                          "fill=\"#ffd54f\" fill-opacity=\"0.45\" stroke=\"#b8860b\"><title>time lost</title>"
                          "</rect></svg>",
                          width, MAX (y, 12), body->str, label + (lost0 - t0) * scale,
                          MAX (1.0, (lost1 - lost0) * scale), MAX (y, 12));
}

static void
html_instances (GString   *out,
                JsonArray *instances)
{
  g_string_append (out, "<h2 id=\"instances\">Top instances</h2>");
  for (guint i = 0; i < json_array_get_length (instances); i++)
    {
      JsonObject *inst = json_array_get_object_element (instances, i);
      JsonNode *source = json_object_get_member (inst, "source");
      g_autofree char *lost = format_seconds (json_object_get_double_member (inst, "severity_seconds"));

      g_string_append_printf (out, "<h3>%u. ", i + 1);
      append_escaped (out, json_object_get_string_member (inst, "title"));
      g_string_append_printf (out, ": %s on location %" G_GINT64_FORMAT "</h3><div class=\"muted\">", lost,
                              json_object_get_int_member (inst, "location"));
      append_escaped (out, str_or (inst, "callpath", ""));
      if (str_or (inst, "file", NULL) != NULL)
        {
          g_string_append (out, " &middot; ");
          append_escaped (out, str_or (inst, "file", ""));
          g_string_append_printf (out, ":%" G_GINT64_FORMAT, int_or (inst, "line", 0));
        }
      g_string_append (out, "</div><p class=\"comment\">");
      append_escaped (out, str_or (inst, "comment", ""));
      g_string_append (out, "</p>");
      html_timeline (out, inst);

      if (source != NULL && JSON_NODE_HOLDS_ARRAY (source))
        {
          JsonArray *lines = json_node_get_array (source);

          g_string_append (out, "<pre>");
          for (guint l = 0; l < json_array_get_length (lines); l++)
            {
              JsonObject *line = json_array_get_object_element (lines, l);
              gboolean mark = json_object_get_int_member (line, "line") == int_or (inst, "line", -1);

              g_string_append_printf (out, "%s%5" G_GINT64_FORMAT "  ", mark ? "<b>" : "",
                                      json_object_get_int_member (line, "line"));
              append_escaped (out, json_object_get_string_member (line, "text"));
              g_string_append (out, mark ? "</b>\n" : "\n");
            }
          g_string_append (out, "</pre>");
        }
    }
}

static void
html_profile (GString   *out,
              JsonArray *profile)
{
  g_string_append (out, "<h2 id=\"profile\">Profile by region</h2><table><tr><th>region</th><th>kind</th>"
                        "<th>visits</th><th>exclusive</th><th>inclusive</th></tr>");
  for (guint i = 0; i < json_array_get_length (profile); i++)
    {
      JsonObject *r = json_array_get_object_element (profile, i);
      g_autofree char *excl = format_seconds (json_object_get_double_member (r, "exclusive_seconds"));
      g_autofree char *incl = format_seconds (json_object_get_double_member (r, "inclusive_seconds"));

      g_string_append (out, "<tr><td>");
      append_escaped (out, str_or (r, "region", "?"));
      g_string_append_printf (out, "</td><td><span style=\"color:%s\">&#9632;</span> %s</td>"
                              "<td class=\"n\">%" G_GINT64_FORMAT "</td><td class=\"n\">%s</td>"
                              "<td class=\"n\">%s</td></tr>",
                              category_colour (str_or (r, "category", "OTHER")), str_or (r, "category", ""),
                              json_object_get_int_member (r, "visits"), excl, incl);
    }
  g_string_append (out, "</table>");
}

static int
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *)a;
  gint64 y = *(const gint64 *)b;

  return x < y ? -1 : x > y;
}

static void
html_matrix (GString    *out,
             JsonObject *matrix)
{
  JsonArray *cells = json_object_get_array_member (matrix, "cells");
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 max_bytes = 1;
  double cell;

  g_string_append (out, "<h2 id=\"matrix\">Communication matrix</h2>");
  if (json_array_get_length (cells) == 0)
    {
      g_string_append (out, "<p class=\"muted\">No point-to-point messages.</p>");
      return;
    }

  for (guint i = 0; i < json_array_get_length (cells); i++)
    {
      JsonObject *c = json_array_get_object_element (cells, i);
      gint64 ends[2] = { json_object_get_int_member (c, "from"), json_object_get_int_member (c, "to") };

      max_bytes = MAX (max_bytes, json_object_get_int_member (c, "bytes"));
      for (guint e = 0; e < 2; e++)
        {
          gboolean seen = FALSE;

          for (guint k = 0; k < ids->len; k++)
            seen |= g_array_index (ids, gint64, k) == ends[e];
          if (!seen)
            g_array_append_val (ids, ends[e]);
        }
    }
  g_array_sort (ids, compare_int64);

  cell = MAX (6.0, MIN (24.0, 480.0 / ids->len));
  g_string_append_printf (out, "<p class=\"muted\">Bytes sent from row to column; darker is more "
                          "(largest: %" G_GINT64_FORMAT " bytes).</p>"
                          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" role=\"img\">",
                          max_bytes, 40 + cell * ids->len, 40 + cell * ids->len);
  for (guint k = 0; k < ids->len; k++)
    g_string_append_printf (out, "<text x=\"0\" y=\"%.1f\" font-size=\"9\">%" G_GINT64_FORMAT "</text>"
                            "<text x=\"%.1f\" y=\"30\" font-size=\"9\">%" G_GINT64_FORMAT "</text>",
                            40 + cell * k + cell * 0.7, g_array_index (ids, gint64, k),
                            40 + cell * k, g_array_index (ids, gint64, k));
  for (guint i = 0; i < json_array_get_length (cells); i++)
    {
      JsonObject *c = json_array_get_object_element (cells, i);
      guint row = 0, col = 0;
      double level;

      for (guint k = 0; k < ids->len; k++)
        {
          if (g_array_index (ids, gint64, k) == json_object_get_int_member (c, "from"))
            row = k;
          if (g_array_index (ids, gint64, k) == json_object_get_int_member (c, "to"))
            col = k;
        }
      level = log1p ((double)json_object_get_int_member (c, "bytes")) / log1p ((double)max_bytes);
      g_string_append_printf (out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                              "fill=\"#d9534f\" fill-opacity=\"%.3f\"><title>%" G_GINT64_FORMAT " -> %"
                              G_GINT64_FORMAT ": %" G_GINT64_FORMAT " messages, %" G_GINT64_FORMAT
                              " bytes</title></rect>",
                              40 + cell * col, 40 + cell * row, cell - 1, cell - 1, 0.1 + 0.9 * level,
                              json_object_get_int_member (c, "from"), json_object_get_int_member (c, "to"),
                              json_object_get_int_member (c, "messages"), json_object_get_int_member (c, "bytes"));
    }
  g_string_append (out, "</svg>");
}

static void
html_sizes (GString   *out,
            JsonArray *sizes)
{
  gint64 max = 1;
  guint n = json_array_get_length (sizes);

  g_string_append (out, "<h2 id=\"sizes\">Message sizes</h2>");
  if (n == 0)
    {
      g_string_append (out, "<p class=\"muted\">No messages.</p>");
      return;
    }
  for (guint i = 0; i < n; i++)
    max = MAX (max, json_object_get_int_member (json_array_get_object_element (sizes, i), "messages"));

  g_string_append_printf (out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"170\" role=\"img\">",
                          40 + 44 * n);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *b = json_array_get_object_element (sizes, i);
      double h = 120.0 * json_object_get_int_member (b, "messages") / max;

      g_string_append_printf (out, "<rect x=\"%u\" y=\"%.1f\" width=\"40\" height=\"%.1f\" fill=\"#5bc0de\">"
                              "<title>%" G_GINT64_FORMAT "..%" G_GINT64_FORMAT " bytes: %" G_GINT64_FORMAT
                              " messages</title></rect>"
                              "<text x=\"%u\" y=\"150\" font-size=\"9\">%" G_GINT64_FORMAT "</text>"
                              "<text x=\"%u\" y=\"%.1f\" font-size=\"9\">%" G_GINT64_FORMAT "</text>",
                              20 + 44 * i, 130 - h, h, json_object_get_int_member (b, "min_bytes"),
                              json_object_get_int_member (b, "max_bytes"), json_object_get_int_member (b, "messages"),
                              20 + 44 * i, json_object_get_int_member (b, "min_bytes"),
                              20 + 44 * i, 126 - h, json_object_get_int_member (b, "messages"));
    }
  g_string_append (out, "</svg><p class=\"muted\">Messages by size, in power-of-two buckets "
                        "(label: smallest size in the bucket, bytes).</p>");
}

static char *
render_html (JsonObject *root)
{
  GString *out = g_string_new (NULL);
  JsonObject *summary = json_object_get_object_member (root, "summary");

  g_string_append (out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sextant report: ");
  append_escaped (out, str_or (summary, "archive", "trace"));
  g_string_append_printf (out, "</title><style>%s</style></head><body><h1>Sextant report</h1>", html_style);
  html_summary (out, summary);
  html_patterns (out, json_object_get_array_member (root, "patterns"));
  html_instances (out, json_object_get_array_member (root, "instances"));
  html_profile (out, json_object_get_array_member (root, "profile"));
  html_matrix (out, json_object_get_object_member (root, "matrix"));
  html_sizes (out, json_object_get_array_member (root, "message_sizes"));
  g_string_append_printf (out, "<p class=\"muted\">Written by Sextant %s.</p></body></html>\n", PACKAGE_VERSION);

  return g_string_free (out, FALSE);
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

  g_string_append (out, "\n## Patterns\n\n| pattern | id | seconds | share | instances | top call site |\n"
                        "|---|---|---:|---:|---:|---|\n");
  for (guint i = 0; i < json_array_get_length (patterns); i++)
    {
      JsonObject *p = json_array_get_object_element (patterns, i);
      JsonArray *sites = json_object_get_array_member (p, "top_sites");

      g_string_append (out, "| ");
      md_cell (out, json_object_get_string_member (p, "title"));
      g_string_append_printf (out, " | `%s` | %.9g | %.4f %% | %" G_GINT64_FORMAT " | ",
                              json_object_get_string_member (p, "id"),
                              json_object_get_double_member (p, "severity_seconds"),
                              100.0 * json_object_get_double_member (p, "share"),
                              json_object_get_int_member (p, "instances"));
      if (json_array_get_length (sites) > 0)
        {
          g_autofree char *where = top_site_text (json_array_get_object_element (sites, 0), FALSE);

          md_cell (out, where);
        }
      g_string_append (out, " |\n");
    }

  g_string_append (out, "\n## Top instances\n");
  for (guint i = 0; i < json_array_get_length (instances); i++)
    {
      JsonObject *inst = json_array_get_object_element (instances, i);
      JsonNode *source = json_object_get_member (inst, "source");

      g_string_append_printf (out, "\n### %u. %s: %.9g s on location %" G_GINT64_FORMAT "\n\n", i + 1,
                              json_object_get_string_member (inst, "title"),
                              json_object_get_double_member (inst, "severity_seconds"),
                              json_object_get_int_member (inst, "location"));
      g_string_append_printf (out, "`%s` at `%s:%" G_GINT64_FORMAT "`\n\n%s\n", str_or (inst, "callpath", ""),
                              str_or (inst, "file", "?"), int_or (inst, "line", 0), str_or (inst, "comment", ""));
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
 * Returns: (transfer full): the report as text in @format
 */
char *
sextant_report_render (JsonNode            *model,
                       SextantReportFormat  format)
{
  g_return_val_if_fail (model != NULL && JSON_NODE_HOLDS_OBJECT (model), NULL);

  switch (format)
    {
    case SEXTANT_REPORT_HTML:
      return render_html (json_node_get_object (model));
    case SEXTANT_REPORT_MARKDOWN:
      return render_markdown (json_node_get_object (model));
    case SEXTANT_REPORT_CSV:
      return render_csv (json_node_get_object (model));
    case SEXTANT_REPORT_JSON:
    default:
      return sextant_report_json_to_data (model);
    }
}
