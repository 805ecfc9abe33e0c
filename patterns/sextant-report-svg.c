/*
 * sextant-report-svg.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The text of the HTML report's SVG figures (sextant-report-html.c): its
 * width estimated without fonts, labels ellipsized, wrapped and stripped of
 * what their neighbours share, <text> with a tooltip, and the steps and
 * labels of an axis.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-report-render-private.h"

/* SVG text -------------------------------------------------------------------- */

/* The width of @text at @size px, estimated from the advances of DejaVu Sans
 * (Debian's default sans-serif, wider than most): the report is written
 * without fonts, so labels are placed and ellipsized by this estimate, and
 * the row labels are clipped to their column as well. */
double
_sextant_report_text_width (const char *text,
                            double      size)
{
  double em = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 128 && strchr ("iljtfrI.,:;'|!()[] ", (int)c) != NULL)
        em += 0.38;
      else if (c == 'm' || c == 'w' || c == 'M' || c == 'W')
        em += 0.92;
      else if (g_ascii_isdigit (c))
        em += 0.64;
      else if (g_ascii_isupper (c))
        em += 0.74;
      else if (g_unichar_iswide (c))
        em += 1.0;
      else
        em += 0.64;
    }

  return em * size;
}

/* @text, shortened with "…" to fit @width at @size px: in the middle (labels
 * whose two ends tell them apart: "MPI Rank 12 / … thread 3") or at the end. */
char *
_sextant_report_ellipsize (const char *text,
                           double      width,
                           double      size,
                           gboolean    middle)
{
  glong n = g_utf8_strlen (text, -1);

  if (_sextant_report_text_width (text, size) <= width)
    return g_strdup (text);

  for (glong keep = n - 1; keep > 0; keep--)
    {
      glong head = middle ? (keep + 1) / 2 : keep;
      g_autofree char *a = g_utf8_substring (text, 0, head);
      g_autofree char *b = g_utf8_substring (text, n - (keep - head), n);
      g_autofree char *candidate = g_strconcat (g_strchomp (a), "…", g_strchug (b), NULL);

      if (_sextant_report_text_width (candidate, size) <= width)
        return g_steal_pointer (&candidate);
    }

  return g_strdup ("…");
}

/* The text all of @labels begin with (@prefix bytes) and end with (@suffix),
 * in whole words: the prefix ends, the suffix begins, with an ASCII
 * separator ("MPI Rank " | "3" | " / Master thread"). Nothing is shared by
 * fewer than two labels, or where a label would be left empty. */
void
_sextant_report_shared_affixes (const char * const *labels,
                                guint               n,
                                gsize              *prefix,
                                gsize              *suffix)
{
  const char *first = labels[0];
  gsize len = strlen (first);

  *prefix = *suffix = n >= 2 ? len : 0;
  for (guint i = 1; i < n; i++)
    {
      gsize other = strlen (labels[i]), p = 0, q = 0;

      while (p < *prefix && p < other && labels[i][p] == first[p])
        p++;
      while (q < *suffix && q < other && labels[i][other - 1 - q] == first[len - 1 - q])
        q++;
      *prefix = p;
      *suffix = q;
    }
  while (*prefix > 0 && (g_ascii_isalnum (first[*prefix - 1]) || (guchar)first[*prefix - 1] >= 128))
    (*prefix)--;
  while (*suffix > 0 && (g_ascii_isalnum (first[len - *suffix]) || (guchar)first[len - *suffix] >= 128))
    (*suffix)--;
  for (guint i = 0; i < n; i++)
    if (strlen (labels[i]) <= *prefix + *suffix)
      *prefix = *suffix = 0;
}

/* @text in lines of @width px at @size, broken at spaces; a word wider
 * than a line is ellipsized on its own. */
static GPtrArray *
wrap_words (const char *text,
            double      width,
            double      size)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) words = g_strsplit (text, " ", -1);
  GString *line = NULL;

  for (guint w = 0; words[w] != NULL; w++)
    {
      g_autofree char *longer = NULL;
      g_autofree char *word = NULL;

      if (words[w][0] == '\0')
        continue;
      longer = line != NULL ? g_strconcat (line->str, " ", words[w], NULL) : NULL;
      if (longer != NULL && _sextant_report_text_width (longer, size) <= width)
        {
          g_string_assign (line, longer);
          continue;
        }
      if (line != NULL)
        g_ptr_array_add (lines, g_string_free (line, FALSE));
      word = _sextant_report_ellipsize (words[w], width, size, TRUE);
      line = g_string_new (word);
    }
  if (line != NULL)
    g_ptr_array_add (lines, g_string_free (line, FALSE));

  return lines;
}

/* @text in at most @max_lines lines of @width px at @size. What does not
 * fit loses first the @prefix bytes that the labels around it share (an
 * ellipsis instead: "…process 3 / Master thread"), then the middle of its
 * last line. */
GPtrArray *
_sextant_report_wrap_label (const char *text,
                            gsize       prefix,
                            double      width,
                            double      size,
                            guint       max_lines)
{
  g_autoptr(GPtrArray) lines = wrap_words (text, width, size);
  g_autofree char *shorter = NULL;
  g_autofree char *rest = NULL;

  if (lines->len <= max_lines)
    return g_steal_pointer (&lines);
  if (prefix > 0)
    {
      shorter = g_strconcat ("…", text + prefix, NULL);
      g_ptr_array_unref (lines);
      lines = wrap_words (shorter, width, size);
      if (lines->len <= max_lines)
        return g_steal_pointer (&lines);
    }

  g_ptr_array_add (lines, NULL);
  rest = g_strjoinv (" ", (char **)lines->pdata + max_lines - 1);
  g_ptr_array_set_size (lines, max_lines - 1);
  g_ptr_array_add (lines, _sextant_report_ellipsize (rest, width, size, TRUE));

  return g_steal_pointer (&lines);
}

/* A <text> with its whole text as a tooltip: <g class><title/><text/></g>.
 * @attrs are more attributes of the <text> (anchor, weight, transform). */
void
_sextant_report_svg_text (GString    *out,
                          const char *klass,
                          double      x,
                          double      y,
                          double      size,
                          const char *attrs,
                          const char *shown,
                          const char *whole)
{
  g_string_append_printf (out, "<g class=\"%s\"><title>", klass);
  append_escaped (out, whole);
  g_string_append_printf (out, "</title><text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\"%s%s>", x, y, size,
                          attrs != NULL ? " " : "", attrs != NULL ? attrs : "");
  append_escaped (out, shown);
  g_string_append (out, "</text></g>");
}

/* A step of 1, 2 or 5 times a power of ten at least @minimum. */
double
_sextant_report_nice_step (double minimum)
{
  double power = pow (10.0, floor (log10 (minimum)));

  if (minimum <= power)
    return power;
  if (minimum <= 2 * power)
    return 2 * power;
  if (minimum <= 5 * power)
    return 5 * power;
  return 10 * power;
}

/* @value in @unit with @decimals; the integer part from 10000 on in groups
 * of three digits with narrow no-break spaces (U+202F): "12 345.5 ms". */
char *
_sextant_report_format_tick (double          value,
                             const TimeUnit *unit,
                             int             decimals)
{
  g_autofree char *digits = g_strdup_printf ("%.*f", decimals, fabs (value / unit->unit));
  const char *point = strchr (digits, '.');
  gsize whole = point != NULL ? (gsize)(point - digits) : strlen (digits);
  GString *out = g_string_new (value < 0 && g_strtod (digits, NULL) != 0 ? "-" : "");

  for (gsize i = 0; i < whole; i++)
    {
      if (whole >= 5 && i > 0 && (whole - i) % 3 == 0)
        g_string_append (out, "\u202f");
      g_string_append_c (out, digits[i]);
    }
  g_string_append_printf (out, "%s %s", digits + whole, unit->name);

  return g_string_free (out, FALSE);
}

/* Whether text in a box of @colour ("#rrggbb") reads best white. */
gboolean
_sextant_report_dark_colour (const char *colour)
{
  guint64 rgb = g_ascii_strtoull (colour + 1, NULL, 16);
  double luma = 0.299 * ((rgb >> 16) & 0xff) + 0.587 * ((rgb >> 8) & 0xff) + 0.114 * (rgb & 0xff);

  return luma < 140;
}
