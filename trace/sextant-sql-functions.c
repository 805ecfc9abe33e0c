/*
 * sextant-sql-functions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SQL functions of the trace store's views, registered on every connection
 * that reads a store (the store's own, and the loadable extension's):
 *
 *   sextant_comment (template, location, peer, severity, resolution, call,
 *                    file, line, callpath, site_kind, function)
 *     A pattern instance's comment: the pattern's template with {location},
 *     {peer}, {seconds} (severity ticks at resolution ticks per second:
 *     "2.01 s", "1.50 ms", "0.2 µs", rounded half up from the exact ticks),
 *     {call}, {site} and {callpath} filled in, in one pass: a value that
 *     contains a key is not filled again. Other braces stay as they are.
 *     {site} is "file:line" with the file's base name for a call site;
 *     for site_kind 'function', the line where the enclosing function
 *     begins, it says so: "gen_mpi.c:52 (where late_sender begins; the
 *     trace gives no call site)"; without a file, "an unknown source line".
 *     NULL when the template is NULL.
 */
#include "config.h"

#include <string.h>

#ifdef SEXTANT_SQLITE_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif

#include "sextant-sql-functions.h"

/* Appends @ticks at @resolution ticks per second the way comments say it. */
static void
append_seconds (GString *out,
                gint64   ticks,
                gint64   resolution)
{
  guint64 t = ticks < 0 ? -(guint64)ticks : (guint64)ticks;
  guint64 r = (guint64)MAX (resolution, 1);
  guint64 q;

  if (ticks < 0)
    g_string_append_c (out, '-');
  /* the products stay below 2^64 for resolutions up to 10^14 ticks per
   * second and severities up to 10^17 ticks */
  if (t >= r)
    {
      q = (t * 100 + r / 2) / r;
      g_string_append_printf (out, "%" G_GUINT64_FORMAT ".%02" G_GUINT64_FORMAT " s", q / 100, q % 100);
    }
  else if (t * 1000 >= r)
    {
      q = (t * 100000 + r / 2) / r;
      g_string_append_printf (out, "%" G_GUINT64_FORMAT ".%02" G_GUINT64_FORMAT " ms", q / 100, q % 100);
    }
  else
    {
      q = (t * 10000000 + r / 2) / r;
      g_string_append_printf (out, "%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT " µs", q / 10, q % 10);
    }
}

static const char *
text_or (sqlite3_value *value,
         const char    *otherwise)
{
  const unsigned char *text = sqlite3_value_type (value) == SQLITE_NULL ? NULL : sqlite3_value_text (value);

  return text != NULL ? (const char *)text : otherwise;
}

static void
comment_func (sqlite3_context  *context,
              int               argc,
              sqlite3_value   **argv)
{
  static const char * const keys[] = { "location", "peer", "seconds", "call", "site", "callpath" };
  enum { LOCATION, PEER, SECONDS, CALL, SITE, CALLPATH };
  const char *template = text_or (argv[0], NULL);
  const char *file = text_or (argv[6], NULL);
  GString *out;
  gsize size;

  if (template == NULL)
    {
      sqlite3_result_null (context);
      return;
    }

  out = g_string_sized_new (strlen (template) + 64);
  for (const char *p = template; *p != '\0'; p++)
    {
      gint key = -1;

      if (*p == '{')
        for (guint k = 0; k < G_N_ELEMENTS (keys) && key < 0; k++)
          {
            gsize len = strlen (keys[k]);

            if (strncmp (p + 1, keys[k], len) == 0 && p[1 + len] == '}')
              {
                key = k;
                p += len + 1;
              }
          }

      switch (key)
        {
        case LOCATION:
          g_string_append (out, text_or (argv[1], "an unknown location"));
          break;
        case PEER:
          g_string_append (out, text_or (argv[2], "another process"));
          break;
        case SECONDS:
          append_seconds (out, sqlite3_value_int64 (argv[3]), sqlite3_value_int64 (argv[4]));
          break;
        case CALL:
          g_string_append (out, text_or (argv[5], "the call"));
          break;
        case SITE:
          if (file == NULL)
            g_string_append (out, "an unknown source line");
          else
            {
              const char *slash = strrchr (file, '/');

              g_string_append_printf (out, "%s:%" G_GINT64_FORMAT, slash != NULL ? slash + 1 : file,
                                      (gint64)sqlite3_value_int64 (argv[7]));
              if (g_strcmp0 (text_or (argv[9], NULL), "function") == 0)
                g_string_append_printf (out, " (where %s begins; the trace gives no call site)",
                                        text_or (argv[10], "the enclosing function"));
            }
          break;
        case CALLPATH:
          g_string_append (out, text_or (argv[8], ""));
          break;
        default:
          g_string_append_c (out, *p);
          break;
        }
    }

  size = out->len;
  sqlite3_result_text64 (context, g_string_free (out, FALSE), size, g_free, SQLITE_UTF8);
}

/**
 * sextant_sql_functions_register:
 * @message: (out) (optional): why it failed
 *
 * Registers the functions above on @db.
 *
 * Returns: %FALSE on failure
 */
gboolean
sextant_sql_functions_register (sqlite3  *db,
                                char    **message)
{
  int rc = sqlite3_create_function_v2 (db, "sextant_comment", 11,
                                       SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                       NULL, comment_func, NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    {
      if (message != NULL)
        *message = g_strdup_printf ("sextant_comment: %s", sqlite3_errmsg (db));
      return FALSE;
    }

  return TRUE;
}
