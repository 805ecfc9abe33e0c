/*
 * sextant-report-html.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The report as HTML: one self-contained file, inline CSS, inline SVG
 * figures (severity bars, an instance's timeline, the communication matrix
 * as a heat map, the message-size histogram), no scripts and no external
 * resources. sextant_report_render() calls it with the numeric locale "C".
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-report-render-private.h"

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

static char *
format_seconds (double s)
{
  if (s >= 1.0)
    return g_strdup_printf ("%.3f s", s);
  if (s >= 1e-3)
    return g_strdup_printf ("%.3f ms", s * 1e3);
  return g_strdup_printf ("%.2f µs", s * 1e6);
}

/* HTML ----------------------------------------------------------------------- */

static const char html_style[] =
  "body{font-family:system-ui,sans-serif;margin:2em auto;padding:0 1em;max-width:1100px;color:#222}"
  "h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;margin-top:2em}"
  "table{border-collapse:collapse;margin:0.5em 0}td,th{padding:2px 8px;text-align:left;"
  "border-bottom:1px solid #eee}td.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}"
  ".bar{background:#d9534f;height:0.8em;display:inline-block}"
  "pre{background:#f6f6f6;padding:0.5em;overflow-x:auto}pre b{background:#ffe08a}"
  ".comment{margin:0.3em 0 0.6em 0}.muted{color:#777}.site{overflow-wrap:anywhere}"
  ".fig{overflow-x:auto;margin:0.4em 0 1em 0}.fig svg{display:block}.fig.scroll{max-height:85vh;overflow:auto}"
  ".legend span{display:inline-block;width:0.9em;height:0.9em;margin:0 0.3em 0 1em;vertical-align:-0.1em}";

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

/* Whether a node of the tree is shown: Time always, the others when
 * something below them (or they) had instances. */
static gboolean
tree_node_shown (JsonObject *node)
{
  return json_object_get_int_member (node, "depth") == 0 && g_str_equal (str_or (node, "id", ""), "time")
         ? TRUE : json_object_get_int_member (node, "instances_below") > 0;
}

/* The metric tree: each node indented by its depth, its inclusive time and
 * share of the total time (none for the groups of diagnostics, whose
 * children overlap), a pattern's own time and instances, a bar of its
 * inclusive time relative to the largest pattern, its top call site. */
static void
html_patterns (GString   *out,
               JsonArray *tree,
               JsonArray *patterns)
{
  double max = 0;

  for (guint i = 0; i < json_array_get_length (patterns); i++)
    max = MAX (max, json_object_get_double_member (json_array_get_object_element (patterns, i), "inclusive_seconds"));

  g_string_append (out, "<h2 id=\"patterns\">Patterns</h2><table><tr><th>pattern</th><th>time lost</th>"
                        "<th>share</th><th>own time</th><th>instances</th><th></th><th>top call site</th></tr>");
  for (guint i = 0; i < json_array_get_length (tree); i++)
    {
      JsonObject *node = json_array_get_object_element (tree, i);
      gboolean group = g_str_equal (str_or (node, "kind", ""), "group");
      JsonObject *p = group ? NULL : _sextant_report_find_pattern (patterns, str_or (node, "id", ""));
      JsonNode *inclusive = json_object_get_member (node, "inclusive_seconds");
      double s = JSON_NODE_HOLDS_NULL (inclusive) ? 0 : json_node_get_double (inclusive);

      if (!tree_node_shown (node))
        continue;
      g_string_append_printf (out, "<tr><td style=\"padding-left:%.1fem\" title=\"",
                              0.5 + 1.2 * (double)json_object_get_int_member (node, "depth"));
      append_escaped (out, str_or (node, "description", ""));
      g_string_append (out, group ? "\"><b>" : "\">");
      append_escaped (out, json_object_get_string_member (node, "title"));
      g_string_append (out, group ? "</b>" : " <span class=\"muted\">");
      if (!group)
        {
          append_escaped (out, json_object_get_string_member (node, "id"));
          g_string_append (out, "</span>");
        }
      if (JSON_NODE_HOLDS_NULL (inclusive))
        g_string_append (out, "</td><td class=\"n muted\">not added up</td><td></td>");
      else
        {
          g_autofree char *lost = format_seconds (s);

          g_string_append_printf (out, "</td><td class=\"n\">%s</td><td class=\"n\">%.2f %%</td>", lost,
                                  100.0 * json_object_get_double_member (node, "share"));
        }
      if (p != NULL)
        {
          JsonArray *sites = json_object_get_array_member (p, "top_sites");
          g_autofree char *own = format_seconds (json_object_get_double_member (p, "severity_seconds"));

          g_string_append_printf (out, "<td class=\"n\">%s</td><td class=\"n\">%" G_GINT64_FORMAT "</td>"
                                  "<td><span class=\"bar\" style=\"width:%.0fpx\"></span></td><td class=\"site\">",
                                  own, json_object_get_int_member (p, "instances"), max > 0 ? 150.0 * s / max : 0.0);
          if (json_array_get_length (sites) > 0
              && str_or (json_array_get_object_element (sites, 0), "file", NULL) != NULL)
            {
              g_autofree char *where = _sextant_report_top_site_text (json_array_get_object_element (sites, 0), TRUE);

              append_escaped (out, where);
            }
          else if (json_array_get_length (sites) > 0)
            g_string_append (out, "<span class=\"muted\" title=\"no source information in the trace\">none</span>");
          g_string_append (out, "</td></tr>");
        }
      else
        g_string_append (out, "<td></td><td></td><td></td><td></td></tr>");
    }
  g_string_append (out, "</table><p class=\"muted\">The patterns as Cube shows Scalasca's metric tree: a "
                        "node's time includes the time of the nodes below it (a pattern's own time is beside "
                        "it), and shares are of the total time, so the wait states under Time never add up "
                        "past 100 %. The diagnostics overlap the wait states and each other: they are not "
                        "added up. Nodes without instances are not listed.</p>");
}

/* The units of the time axes, the largest first */
static const TimeUnit time_units[] = { { 1, "s" }, { 1e-3, "ms" }, { 1e-6, "µs" }, { 1e-9, "ns" } };

/* A timeline of the locations involved in an instance: one row per location
 * (named as the trace names it), one lane per call depth with the regions'
 * names where they fit, the lost interval shaded behind the calls and marked
 * on a time axis in seconds since the start of the run. */
#define TL_WIDTH      1000.0
#define TL_LANE       16.0     /* a call depth's height; its bar is 2 px less */
#define TL_ROW_GAP    8.0
#define TL_LINE       14.0     /* a row label's line */
#define TL_HEADER     16.0     /* above the rows: "time lost" over the band */
#define TL_AXIS       34.0     /* below the rows: ticks and their labels */
#define TL_PAD        14.0     /* right of the plot */
#define TL_LABEL_MIN  120.0    /* room for the axis' title */
#define TL_LABEL_MAX  230.0

static void
html_timeline_axis (GString *out,
                    double   t0,
                    double   t1,
                    double   origin,
                    double   left,
                    double   right,
                    double   y)
{
  const TimeUnit *unit = &time_units[0];
  double plot = right - left;
  double span = t1 - t0;
  double spacing = 90, step = 0, last_end = -1;
  int decimals = 0;

  while (unit + 1 < time_units + G_N_ELEMENTS (time_units) && span < unit->unit)
    unit++;

  /* a step whose labels, at their widest, leave room between them */
  for (guint pass = 0; pass < 3; pass++)
    {
      g_autofree char *widest = NULL;

      step = _sextant_report_nice_step (span * spacing / plot);
      decimals = (int)CLAMP (ceil (-log10 (step / unit->unit) - 1e-9), 0, 9);
      widest = _sextant_report_format_tick (MAX (fabs (t0 - origin), fabs (t1 - origin)), unit, decimals);
      if (_sextant_report_text_width (widest, FONT_SMALL) + 24 <= spacing)
        break;
      spacing = _sextant_report_text_width (widest, FONT_SMALL) + 24;
    }

  g_string_append_printf (out, "<g class=\"axis\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                          "stroke=\"#555\"/>", left, y, right, y);
  for (double k = ceil ((t0 - origin) / step - 1e-9); k * step <= t1 - origin + step * 1e-9; k++)
    {
      double s = k * step;   /* not a sum of steps: no rounding creeps in */
      double x = left + (s - (t0 - origin)) / span * plot;
      g_autofree char *label = _sextant_report_format_tick (fabs (s) < step * 1e-6 ? 0 : s, unit, decimals);
      double w = _sextant_report_text_width (label, FONT_SMALL);
      double at = CLAMP (x, left + w / 2, right + TL_PAD - w / 2);

      /* a tick and its label in one group: the label is centred under its
       * tick, moved in at the plot's ends; one too close to the last is left out */
      if (at - w / 2 < last_end + 8)
        {
          g_string_append_printf (out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\"/>",
                                  x, y, x, y + 5);
          continue;
        }
      g_string_append_printf (out, "<g class=\"tick\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                              "stroke=\"#555\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" "
                              "text-anchor=\"middle\" fill=\"#333\">%s</text></g>",
                              x, y, x, y + 5, at, y + 18, FONT_SMALL, label);
      last_end = at + w / 2;
    }
  _sextant_report_svg_text (out, "axis-title", left - 10, y + 18, FONT_SMALL,
                            "text-anchor=\"end\" fill=\"#666\"", "time since start",
                            "time since the start of the run");
  g_string_append (out, "</g>");
}

/* What the report's timelines share: the width of their label column, the
 * same in all so that their plots line up, wide enough for the longest label
 * up to TL_LABEL_MAX (longer ones are wrapped); the text their labels begin
 * with, left out first where a label is too long; the kinds of region drawn,
 * for the legend. */
typedef struct
{
  guint    timelines;
  double   label;
  gsize    prefix;
  gboolean used[G_N_ELEMENTS (palette)];
} TimelineLayout;

static void
timeline_layout (JsonArray      *instances,
                 TimelineLayout *layout)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  gsize suffix;

  memset (layout, 0, sizeof *layout);
  layout->label = TL_LABEL_MIN;

  for (guint i = 0; i < json_array_get_length (instances); i++)
    {
      JsonNode *timeline = json_object_get_member (json_array_get_object_element (instances, i), "timeline");
      JsonArray *rows;

      if (!JSON_NODE_HOLDS_OBJECT (timeline))
        continue;
      layout->timelines++;
      rows = json_object_get_array_member (json_node_get_object (timeline), "rows");
      for (guint r = 0; r < json_array_get_length (rows); r++)
        {
          JsonObject *row = json_array_get_object_element (rows, r);
          const char *name = json_object_get_string_member (row, "label");
          JsonArray *visits = json_object_get_array_member (row, "visits");

          /* the first in bold */
          layout->label = MAX (layout->label, _sextant_report_text_width (name, FONT_LABEL) * 1.1 + 16);
          g_ptr_array_add (labels, (gpointer)name);
          for (guint v = 0; v < json_array_get_length (visits); v++)
            for (guint p = 0; p < G_N_ELEMENTS (palette); p++)
              layout->used[p] |= g_strcmp0 (palette[p].category,
                                            str_or (json_array_get_object_element (visits, v), "category", "OTHER")) == 0;
        }
    }
  layout->label = MIN (layout->label, TL_LABEL_MAX);
  if (labels->len > 0)
    _sextant_report_shared_affixes ((const char * const *)labels->pdata, labels->len, &layout->prefix, &suffix);
}

static void
html_timeline (GString              *out,
               JsonObject           *instance,
               const TimelineLayout *layout)
{
  JsonObject *timeline = json_object_get_object_member (instance, "timeline");
  JsonArray *rows = json_object_get_array_member (timeline, "rows");
  double origin = json_object_get_double_member (timeline, "origin_seconds");
  double t0 = json_object_get_double_member (timeline, "begin_seconds");
  double t1 = json_object_get_double_member (timeline, "end_seconds");
  double lost0 = json_object_get_double_member (instance, "begin_seconds");
  double lost1 = json_object_get_double_member (instance, "end_seconds");
  double label = layout->label, y = TL_HEADER, scale, band0, band1;
  g_autoptr(GString) labels = g_string_new (NULL);
  g_autoptr(GString) bars = g_string_new (NULL);
  g_autofree char *lost = format_seconds (json_object_get_double_member (instance, "severity_seconds"));

  if (t1 <= t0)
    t1 = t0 + 1e-9;
  scale = (TL_WIDTH - TL_PAD - label) / (t1 - t0);

  for (guint r = 0; r < json_array_get_length (rows); r++)
    {
      JsonObject *row = json_array_get_object_element (rows, r);
      JsonArray *visits = json_object_get_array_member (row, "visits");
      const char *name = json_object_get_string_member (row, "label");
      g_autoptr(GPtrArray) lines = NULL;
      gint64 depth_max = 0;

      for (guint v = 0; v < json_array_get_length (visits); v++)
        depth_max = MAX (depth_max, json_object_get_int_member (json_array_get_object_element (visits, v), "depth"));
      /* as many lines as the row's lanes give room for */
      lines = _sextant_report_wrap_label (name, layout->prefix, (label - 14) / (r == 0 ? 1.1 : 1.0), FONT_LABEL,
                                          MAX (1, (guint)((TL_LANE * (depth_max + 1) + 2) / TL_LINE)));

      if (r > 0)
        g_string_append_printf (bars, "<line x1=\"0\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>",
                                y - TL_ROW_GAP / 2, TL_WIDTH, y - TL_ROW_GAP / 2);
      /* the instance's own location first, in bold; then its peer */
      g_string_append (labels, "<g class=\"row-label\"><title>");
      append_escaped (labels, name);
      g_string_append_printf (labels, "</title><text x=\"0\" y=\"%.1f\" font-size=\"%.0f\"%s>", y + 12, FONT_LABEL,
                              r == 0 ? " font-weight=\"bold\"" : "");
      for (guint l = 0; l < lines->len; l++)
        {
          g_string_append_printf (labels, "<tspan x=\"0\" dy=\"%.0f\">", l == 0 ? 0 : TL_LINE);
          append_escaped (labels, g_ptr_array_index (lines, l));
          g_string_append (labels, "</tspan>");
        }
      g_string_append (labels, "</text></g>");

      for (guint v = 0; v < json_array_get_length (visits); v++)
        {
          JsonObject *visit = json_array_get_object_element (visits, v);
          double b = MAX (t0, json_object_get_double_member (visit, "begin_seconds"));
          double e = MIN (t1, json_object_get_double_member (visit, "end_seconds"));
          double x = label + (b - t0) * scale, w = MAX (0.5, (e - b) * scale);
          double top = y + TL_LANE * json_object_get_int_member (visit, "depth");
          const char *region = str_or (visit, "region", "?");
          const char *colour = category_colour (str_or (visit, "category", "OTHER"));
          g_autofree char *tip = NULL;
          g_autofree char *text = NULL;

          g_string_append (bars, "<g><title>");
          append_escaped (bars, region);
          tip = format_seconds (json_object_get_double_member (visit, "end_seconds") -
                                json_object_get_double_member (visit, "begin_seconds"));
          g_string_append_printf (bars, " (%s)</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                                  "fill=\"%s\"/>", tip, x, top, w, TL_LANE - 2, colour);
          /* the region's name inside its bar where at least a few letters fit */
          if (w > 30 && (text = _sextant_report_ellipsize (region, w - 8, FONT_SMALL, FALSE)) != NULL &&
              g_utf8_strlen (text, -1) >= 4)
            {
              g_string_append_printf (bars, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" fill=\"%s\">",
                                      x + 4, top + 10.5, FONT_SMALL,
                                      _sextant_report_dark_colour (colour) ? "#fff" : "#222");
              append_escaped (bars, text);
              g_string_append (bars, "</text>");
            }
          g_string_append (bars, "</g>");
        }
      y += TL_LANE * (depth_max + 1) + TL_ROW_GAP;
    }
  y -= TL_ROW_GAP / 2;

  band0 = label + (CLAMP (lost0, t0, t1) - t0) * scale;
  band1 = MAX (band0 + 1, label + (CLAMP (lost1, t0, t1) - t0) * scale);
  g_string_append_printf (out, "<div class=\"fig\"><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" "
                          "width=\"%.0f\" height=\"%.0f\" role=\"img\">", TL_WIDTH, y + TL_AXIS);
  /* the lost interval: shaded behind the calls, named above them, its edges
   * over them and its extent on the axis */
  g_string_append_printf (out, "<g class=\"lost\"><title>time lost: %s</title>"
                          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#ffe08a\"/>",
                          lost, band0, TL_HEADER - 2, band1 - band0, y - TL_HEADER + 2);
  {
    g_autofree char *caption = g_strdup_printf ("time lost: %s", lost);
    double w = _sextant_report_text_width (caption, FONT_SMALL);
    double at = CLAMP ((band0 + band1) / 2, label + w / 2, TL_WIDTH - w / 2);

    g_string_append_printf (out, "<text x=\"%.1f\" y=\"11\" font-size=\"%.0f\" text-anchor=\"middle\" "
                            "fill=\"#8a6500\">", at, FONT_SMALL);
    append_escaped (out, caption);
    g_string_append (out, "</text></g>");
  }
  g_string_append (out, bars->str);
  g_string_append_printf (out, "<g stroke=\"#8a6500\" stroke-width=\"1.5\"><title>time lost: %s</title>"
                          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"3\" fill=\"#b8860b\" "
                          "stroke=\"none\"/></g>",
                          lost, band0, TL_HEADER - 2, band0, y, band1, TL_HEADER - 2, band1, y,
                          band0, y - 1, band1 - band0);
  /* the labels clipped to their column, whatever the font */
  g_string_append_printf (out, "<svg x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" overflow=\"hidden\">%s</svg>",
                          label - 8, y, labels->str);
  html_timeline_axis (out, t0, t1, origin, label, TL_WIDTH - TL_PAD, y + 2);
  g_string_append (out, "</svg></div>");
}

/* The colours of the regions' kinds in the timelines, those that occur. */
static void
html_timeline_legend (GString              *out,
                      const TimelineLayout *layout)
{
  if (layout->timelines == 0)
    return;
  g_string_append (out, "<p class=\"legend muted\">In the timelines:");
  for (guint p = 0; p < G_N_ELEMENTS (palette); p++)
    if (layout->used[p])
      g_string_append_printf (out, "<span style=\"background:%s\"></span>%s", palette[p].colour, palette[p].category);
  g_string_append (out, "<span style=\"background:#ffe08a;border:1px solid #b8860b\"></span>time lost</p>");
}

static void
html_instances (GString   *out,
                JsonArray *instances)
{
  TimelineLayout layout;

  timeline_layout (instances, &layout);
  g_string_append (out, "<h2 id=\"instances\">Top instances</h2>");
  html_timeline_legend (out, &layout);
  for (guint i = 0; i < json_array_get_length (instances); i++)
    {
      JsonObject *inst = json_array_get_object_element (instances, i);
      JsonNode *source = json_object_get_member (inst, "source");
      g_autofree char *lost = format_seconds (json_object_get_double_member (inst, "severity_seconds"));

      g_string_append_printf (out, "<h3>%u. ", i + 1);
      append_escaped (out, json_object_get_string_member (inst, "title"));
      g_string_append_printf (out, ": %s on ", lost);
      append_escaped (out, json_object_get_string_member (inst, "location_label"));
      g_string_append (out, "</h3><div class=\"muted\">");
      append_escaped (out, str_or (inst, "callpath", ""));
      {
        g_autofree char *site = _sextant_report_top_site_text (inst, FALSE);

        g_string_append (out, " &middot; ");
        append_escaped (out, site);
      }
      g_string_append (out, "</div><p class=\"comment\">");
      append_escaped (out, str_or (inst, "comment", ""));
      g_string_append (out, "</p>");
      {
        g_autofree char *cause = _sextant_report_cause_text (inst);

        if (cause != NULL)
          {
            g_string_append (out, "<p class=\"muted\">");
            append_escaped (out, cause);
            g_string_append (out, "</p>");
          }
      }
      if (JSON_NODE_HOLDS_OBJECT (json_object_get_member (inst, "timeline")))
        html_timeline (out, inst, &layout);
      else
        g_string_append (out, "<p class=\"muted\">Summed over the run: no single interval to show.</p>");

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

/* "512 B", "64 KiB", "1.5 MiB" */
static char *
format_bytes (double bytes)
{
  static const char * const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  guint u = 0;

  while (u + 1 < G_N_ELEMENTS (units) && bytes >= 1024)
    {
      bytes /= 1024;
      u++;
    }

  return g_strdup_printf (u == 0 || bytes >= 10 || bytes == round (bytes) ? "%.0f %s" : "%.1f %s", bytes, units[u]);
}

/* Short names for the matrix's ranks: what tells the labels apart, without
 * the text they all share ("MPI Rank " before, " / Master thread" after);
 * the shared text makes the axes' title ("MPI Rank …"), or is %NULL. */
static char **
short_labels (JsonArray  *locations,
              char      **shared)
{
  guint n = json_array_get_length (locations);
  g_autofree const char **labels = g_new0 (const char *, n + 1);
  char **out = g_new0 (char *, n + 1);
  gsize prefix, suffix;

  for (guint i = 0; i < n; i++)
    labels[i] = json_object_get_string_member (json_array_get_object_element (locations, i), "label");
  _sextant_report_shared_affixes (labels, n, &prefix, &suffix);

  for (guint i = 0; i < n; i++)
    out[i] = g_strndup (labels[i] + prefix, strlen (labels[i]) - prefix - suffix);
  *shared = prefix + suffix > 0
              ? g_strdup_printf ("%.*s…%s", (int)prefix, labels[0], labels[0] + strlen (labels[0]) - suffix)
              : NULL;

  return out;
}

#define MX_AREA      640.0   /* the matrix's side when its cells are neither too small nor too big */
#define MX_CELL_MIN  6.0
#define MX_CELL_MAX  28.0
#define MX_LABEL_GAP 16.0    /* at least this between two rank labels */
#define MX_SWATCHES  6
#define MX_LEGEND    48.0    /* the colour scale's height, above the matrix */
#define MX_SCROLL    800.0   /* a larger matrix scrolls in a box of the window's height */

/* The heat map of bytes sent, rows the senders, columns the receivers, under
 * its colour scale. Every rank is labelled, or every k-th one so that labels
 * of FONT_LABEL px stay apart; each cell and label names its ranks in a
 * tooltip. Cells are MX_CELL_MIN px at least: a large matrix grows, and
 * scrolls in a box of the window's height. */
static void
html_matrix (GString    *out,
             JsonObject *matrix)
{
  JsonArray *cells = json_object_get_array_member (matrix, "cells");
  JsonArray *locations = json_object_get_array_member (matrix, "locations");
  guint n = json_array_get_length (locations);
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_auto(GStrv) names = NULL;
  g_autofree char *shared = NULL;
  g_autofree char *largest = NULL;
  g_autofree char *to_title = NULL;
  g_autofree char *to_shown = NULL;
  g_autofree char *from_title = NULL;
  g_autofree char *from_shown = NULL;
  gint64 max_bytes = 1;
  double cell, widest = 0, left, top, side, previous = 0, width, height;
  gboolean vertical;
  guint k, kc;

  g_string_append (out, "<h2 id=\"matrix\">Communication matrix</h2>");
  if (json_array_get_length (cells) == 0 || n == 0)
    {
      g_string_append (out, "<p class=\"muted\">No point-to-point messages.</p>");
      return;
    }

  for (guint i = 0; i < n; i++)
    {
      gint64 id = json_object_get_int_member (json_array_get_object_element (locations, i), "location");

      g_hash_table_insert (index, g_memdup2 (&id, sizeof id), GUINT_TO_POINTER (i));
    }
  for (guint i = 0; i < json_array_get_length (cells); i++)
    max_bytes = MAX (max_bytes, json_object_get_int_member (json_array_get_object_element (cells, i), "bytes"));
  names = short_labels (locations, &shared);

  /* cells of a size that fits the area, labels every k-th rank at readable size */
  cell = floor (CLAMP (MX_AREA / n, MX_CELL_MIN, MX_CELL_MAX));
  k = MAX (1, (guint)round (_sextant_report_nice_step (MX_LABEL_GAP / cell)));
  for (guint i = 0; i < n; i += k)
    widest = MAX (widest, _sextant_report_text_width (names[i], FONT_LABEL));
  widest = MIN (widest, 160);
  /* columns: short names across, as far apart as they need; long ones upright, as the rows */
  vertical = widest > 40;
  kc = vertical ? k : MAX (k, (guint)round (_sextant_report_nice_step ((widest + 10) / cell)));
  side = cell * n;
  left = 26 + widest + 8;                                     /* axis title, rank labels */
  top = MX_LEGEND + 24 + (vertical ? widest + 6 : FONT_LABEL + 4);  /* legend, axis title, labels */

  largest = format_bytes ((double)max_bytes);
  to_title = g_strdup_printf ("receiver%s%s%s", shared ? " (" : "", shared ? shared : "", shared ? ")" : "");
  from_title = g_strdup_printf ("sender%s%s%s", shared ? " (" : "", shared ? shared : "", shared ? ")" : "");
  /* the axes' titles as long as the matrix or a little longer (bold text is
   * 10 % wider), with room for the senders', upright beside the rows */
  to_shown = _sextant_report_ellipsize (to_title, MAX (side, 640) / 1.1, FONT_LABEL, FALSE);
  from_shown = _sextant_report_ellipsize (from_title, MAX (side, 200) / 1.1, FONT_LABEL, FALSE);
  height = top + MAX (side, 1.1 * _sextant_report_text_width (from_shown, FONT_LABEL)) + 8;
  width = left + MAX (MAX (side, 80 + MX_SWATCHES * 64), 1.1 * _sextant_report_text_width (to_shown, FONT_LABEL))
          + 12;
  g_string_append_printf (out, "<p class=\"muted\">Bytes sent from the row's location to the column's; darker is "
                          "more, on a logarithmic scale (largest: %s). %s</p>", largest,
                          k > 1 || kc > 1 ? "Every location has a row and a column; the labels name "
                                            "some, and each cell names its pair when pointed at." : "");
  g_string_append_printf (out, "<div class=\"fig%s\"><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"matrix\" "
                          "width=\"%.0f\" height=\"%.0f\" role=\"img\">", side > MX_SCROLL ? " scroll" : "",
                          width, height);

  /* the colour scale first, where a large matrix is seen first: swatches at
   * even steps of the logarithmic scale, with their bytes */
  g_string_append_printf (out, "<g class=\"legend\"><text x=\"%.1f\" y=\"22\" font-size=\"%.0f\" fill=\"#444\">"
                          "bytes sent</text>", left, FONT_SMALL);
  for (guint s = 0, shown = 0; s < MX_SWATCHES; s++)
    {
      /* 0, powers of two evenly apart on the scale, the largest */
      double value = s == 0 ? 0 : s == MX_SWATCHES - 1 ? (double)max_bytes
                     : exp2 (round (log2 (expm1 ((double)s / (MX_SWATCHES - 1) * log1p ((double)max_bytes)))));
      double level = log1p (value) / log1p ((double)max_bytes);
      g_autofree char *bytes = NULL;

      if (s > 0 && s < MX_SWATCHES - 1 && (value < 1 || value <= previous || value >= max_bytes))
        continue;
      previous = value;
      bytes = format_bytes (value);
      g_string_append_printf (out, "<rect x=\"%.1f\" y=\"12\" width=\"60\" height=\"12\" fill=\"#d9534f\" "
                              "fill-opacity=\"%.3f\"/>"
                              "<text x=\"%.1f\" y=\"38\" font-size=\"%.0f\" text-anchor=\"middle\" fill=\"#333\">",
                              left + 80 + 64 * shown, 0.1 + 0.9 * level, left + 80 + 64 * shown + 30, FONT_SMALL);
      append_escaped (out, bytes);
      g_string_append (out, "</text>");
      shown++;
    }
  g_string_append (out, "</g>");

  /* the axes' titles at their start, in sight in a large matrix */
  {
    g_autofree char *rotate = g_strdup_printf ("text-anchor=\"end\" font-weight=\"bold\" fill=\"#444\" "
                                               "transform=\"rotate(-90 16 %.1f)\"", top);

    _sextant_report_svg_text (out, "axis-title", left, MX_LEGEND + 14, FONT_LABEL,
                              "font-weight=\"bold\" fill=\"#444\"", to_shown, to_title);
    _sextant_report_svg_text (out, "axis-title", 16, top, FONT_LABEL, rotate, from_shown, from_title);
  }

  /* the rank labels, every k-th, each with its whole name */
  for (guint i = 0; i < n; i++)
    {
      const char *whole = json_object_get_string_member (json_array_get_object_element (locations, i), "label");
      g_autofree char *shown = _sextant_report_ellipsize (names[i], 160, FONT_LABEL, TRUE);
      g_autofree char *turn = NULL;
      double centre = cell * i + cell / 2;

      if (i % k == 0)
        _sextant_report_svg_text (out, "row-label", left - 6, top + centre, FONT_LABEL,
                                  "text-anchor=\"end\" dominant-baseline=\"central\" fill=\"#333\"", shown, whole);
      if (i % kc != 0)
        continue;
      if (vertical)
        {
          turn = g_strdup_printf ("dominant-baseline=\"central\" fill=\"#333\" transform=\"rotate(-90 %.1f %.1f)\"",
                                  left + centre, top - 4);
          _sextant_report_svg_text (out, "col-label", left + centre, top - 4, FONT_LABEL, turn, shown, whole);
        }
      else
        _sextant_report_svg_text (out, "col-label", left + centre, top - 5, FONT_LABEL,
                                  "text-anchor=\"middle\" fill=\"#333\"", shown, whole);
    }

  /* the cells on a light ground, ticks where the labels are */
  g_string_append_printf (out, "<rect class=\"ground\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                          "fill=\"#f3f3f3\"/>", left, top, side, side);
  for (guint i = 0; i < json_array_get_length (cells); i++)
    {
      JsonObject *c = json_array_get_object_element (cells, i);
      gint64 from = json_object_get_int_member (c, "from");
      gint64 to = json_object_get_int_member (c, "to");
      guint row = GPOINTER_TO_UINT (g_hash_table_lookup (index, &from));
      guint col = GPOINTER_TO_UINT (g_hash_table_lookup (index, &to));
      gint64 bytes = json_object_get_int_member (c, "bytes");
      gint64 messages = json_object_get_int_member (c, "messages");
      double level = log1p ((double)bytes) / log1p ((double)max_bytes);
      g_autofree char *size = format_bytes ((double)bytes);
      double gap = cell >= 10 ? 1 : 0;

      g_string_append (out, "<g class=\"cell\"><title>");
      append_escaped (out, json_object_get_string_member (json_array_get_object_element (locations, row), "label"));
      g_string_append (out, " → ");
      append_escaped (out, json_object_get_string_member (json_array_get_object_element (locations, col), "label"));
      g_string_append_printf (out, ": %" G_GINT64_FORMAT " message%s, %s (%" G_GINT64_FORMAT " bytes)</title>"
                              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#d9534f\" "
                              "fill-opacity=\"%.3f\"/></g>",
                              messages, messages == 1 ? "" : "s", size, bytes,
                              left + cell * col, top + cell * row, cell - gap, cell - gap, 0.1 + 0.9 * level);
    }
  for (guint i = 0; i < n; i++)
    {
      if (i % k == 0)
        g_string_append_printf (out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>",
                                left - 4, top + cell * i + cell / 2, left, top + cell * i + cell / 2);
      if (i % kc == 0)
        g_string_append_printf (out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>",
                                left + cell * i + cell / 2, top - 2, left + cell * i + cell / 2, top);
    }

  g_string_append (out, "</svg></div>");
}

#define HIST_PITCH 60

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

  g_string_append_printf (out, "<div class=\"fig\"><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sizes\" "
                          "width=\"%u\" height=\"172\" role=\"img\"><line x1=\"16\" y1=\"150.5\" x2=\"%u\" "
                          "y2=\"150.5\" stroke=\"#555\"/>", 32 + HIST_PITCH * n, 16 + HIST_PITCH * n);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *b = json_array_get_object_element (sizes, i);
      gint64 messages = json_object_get_int_member (b, "messages");
      double h = MAX (1.0, 118.0 * messages / max);
      double centre = 16 + HIST_PITCH * i + HIST_PITCH / 2.0;
      g_autofree char *low = format_bytes ((double)json_object_get_int_member (b, "min_bytes"));
      g_autofree char *high = format_bytes ((double)json_object_get_int_member (b, "max_bytes"));

      g_string_append_printf (out, "<g class=\"bucket\"><title>%s to %s: %" G_GINT64_FORMAT " messages</title>"
                              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%u\" height=\"%.1f\" fill=\"#5bc0de\"/>"
                              "<text x=\"%.1f\" y=\"167\" font-size=\"%.0f\" text-anchor=\"middle\" fill=\"#333\">"
                              "%s</text><text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" text-anchor=\"middle\" "
                              "fill=\"#333\">%" G_GINT64_FORMAT "</text></g>",
                              low, high, messages, centre - (HIST_PITCH - 8) / 2.0, 150 - h, HIST_PITCH - 8, h,
                              centre, FONT_SMALL, low, centre, 146 - h, FONT_SMALL, messages);
    }
  g_string_append (out, "</svg></div><p class=\"muted\">Messages by size, in power-of-two buckets "
                        "(label: the smallest size in the bucket).</p>");
}

char *
_sextant_report_render_html (JsonObject *root)
{
  GString *out = g_string_new (NULL);
  JsonObject *summary = json_object_get_object_member (root, "summary");

  g_string_append (out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sextant report: ");
  append_escaped (out, str_or (summary, "archive", "trace"));
  g_string_append_printf (out, "</title><style>%s</style></head><body><h1>Sextant report</h1>", html_style);
  html_summary (out, summary);
  html_patterns (out, json_object_get_array_member (root, "tree"), json_object_get_array_member (root, "patterns"));
  html_instances (out, json_object_get_array_member (root, "instances"));
  html_profile (out, json_object_get_array_member (root, "profile"));
  html_matrix (out, json_object_get_object_member (root, "matrix"));
  html_sizes (out, json_object_get_array_member (root, "message_sizes"));
  g_string_append_printf (out, "<p class=\"muted\">Written by Sextant %s.</p></body></html>\n", PACKAGE_VERSION);

  return g_string_free (out, FALSE);
}
