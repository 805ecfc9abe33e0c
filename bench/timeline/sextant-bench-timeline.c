/*
 * sextant-bench-timeline.c: what a timeline frame costs to read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sextant-bench-timeline [-w WIDTH] [-n REPS] STORE
 *
 * Reads, as the timeline's worker thread does for one view, every
 * location's data for a view WIDTH pixels wide (default 1920): the whole
 * run, then views 16, 256, 4096 and 65536 times narrower around the
 * middle of the run (the last ones past the pyramid, from the visits).
 * With the rows, the messages in flight (at most 8000, as the window
 * draws), the members of the collectives under way (at most 16000) and
 * the pattern instances whose lost time is shaded (at most 20000). Each view is read REPS times (default 9) on one connection,
 * opened once like the worker's; prints per view the level, the rows and
 * messages read and the median, fastest and slowest wall time.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "sextant-lod-reader.h"
#include "sextant-store-private.h"

#define EXACT_FROM_PIXELS 8      /* as ui/sextant-timeline.c */
#define MAX_MESSAGES      8000   /* likewise */
#define MAX_MEMBERS       16000  /* likewise */
#define MAX_LOST          20000  /* likewise */

static gboolean
add_location (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  gint64 id = sextant_row_get_int (row, 0);

  if (sextant_row_get_int (row, 6) > 0)
    g_array_append_val ((GArray *)user_data, id);

  return TRUE;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a;
  double y = *(const double *)b;

  return (x > y) - (x < y);
}

int
main (int    argc,
      char **argv)
{
  int width = 1920;
  int reps = 9;
  g_autoptr(GOptionContext) context = g_option_context_new ("STORE - time the reads of timeline frames");
  GOptionEntry entries[] = {
    { "width", 'w', 0, G_OPTION_ARG_INT, &width, "Pixels of the view (1920)", "W" },
    { "reps", 'n', 0, G_OPTION_ARG_INT, &reps, "Reads of each view (9)", "N" },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantLodReader) reader = NULL;
  g_autoptr(GArray) locs = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *begin_text = NULL;
  g_autofree char *end_text = NULL;
  gint64 t_begin, t_end;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || width < 1 || reps < 1)
    {
      fprintf (stderr, "usage: sextant-bench-timeline [-w WIDTH] [-n REPS] STORE%s%s\n",
               error != NULL ? ": " : "", error != NULL ? error->message : "");
      return 2;
    }
  if (!(store = sextant_store_open (argv[1], &error)) || !(reader = sextant_lod_reader_new (store, &error)) ||
      !sextant_store_foreach (store, SEXTANT_QUERY_LOCATIONS, add_location, locs, &error, ""))
    {
      fprintf (stderr, "sextant-bench-timeline: %s\n", error->message);
      return 1;
    }
  begin_text = sextant_store_get_meta (store, "time_begin");
  end_text = sextant_store_get_meta (store, "time_end");
  t_begin = begin_text != NULL ? g_ascii_strtoll (begin_text, NULL, 10) : 0;
  t_end = (end_text != NULL ? g_ascii_strtoll (end_text, NULL, 10) : 0) + 1;

  printf ("| view (of the run) | level | rows read | messages | collective members | instances | median | fastest | slowest |\n");
  printf ("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (gint64 narrower = 1; narrower <= 65536; narrower *= 16)
    {
      gint64 span = narrower == 1 ? t_end - t_begin : MAX ((t_end - t_begin) / narrower, 1);
      gint64 t0 = narrower == 1 ? t_begin : t_begin + (t_end - t_begin) / 2 - span / 2;
      gint64 t1 = t0 + span;
      guint level = sextant_lod_reader_pick_level (reader, (double)span / width);
      gboolean exact = level == 0 &&
                       sextant_lod_reader_get_bucket_ticks (reader, 0) * width > EXACT_FROM_PIXELS * span;
      g_autofree double *seconds = g_new (double, reps);
      char level_text[16];
      char messages_text[32];
      gboolean too_many = FALSE;
      guint n_messages = 0;
      guint n_members = 0;
      guint n_lost = 0;
      char members_text[32];
      char lost_text[32];
      guint64 rows = 0;

      for (int r = 0; r < reps; r++)
        {
          gint64 start = g_get_monotonic_time ();

          rows = 0;
          for (guint i = 0; i < locs->len; i++)
            {
              g_autoptr(GArray) buckets = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
              gint64 loc = g_array_index (locs, gint64, i);
              gboolean ok = exact ? sextant_lod_reader_read_visits (reader, loc, t0, t1, buckets, &error)
                                  : sextant_lod_reader_read (reader, loc, level, t0, t1, buckets, &error);

              if (!ok)
                {
                  fprintf (stderr, "sextant-bench-timeline: %s\n", error->message);
                  return 1;
                }
              rows += buckets->len;
            }
          {
            g_autoptr(GArray) messages = g_array_new (FALSE, FALSE, sizeof (SextantViewMessage));

            if (!sextant_lod_reader_read_messages (reader, t0, t1, MAX_MESSAGES, messages, &too_many, &error))
              {
                fprintf (stderr, "sextant-bench-timeline: %s\n", error->message);
                return 1;
              }
            n_messages = messages->len;
          }
          {
            g_autoptr(GArray) members = g_array_new (FALSE, FALSE, sizeof (SextantViewMember));
            gboolean too_many_members = FALSE;

            if (!sextant_lod_reader_read_collectives (reader, t0, t1, MAX_MEMBERS, members, &too_many_members,
                                                      &error))
              {
                fprintf (stderr, "sextant-bench-timeline: %s\n", error->message);
                return 1;
              }
            n_members = too_many_members ? G_MAXUINT : members->len;
          }
          {
            g_autoptr(GArray) lost = g_array_new (FALSE, FALSE, sizeof (SextantViewLost));
            gboolean too_many_lost = FALSE;

            if (!sextant_lod_reader_read_lost (reader, t0, t1, MAX_LOST, lost, &too_many_lost, &error))
              {
                fprintf (stderr, "sextant-bench-timeline: %s\n", error->message);
                return 1;
              }
            n_lost = too_many_lost ? G_MAXUINT : lost->len;
          }
          seconds[r] = (g_get_monotonic_time () - start) / 1e6;
        }
      qsort (seconds, reps, sizeof (double), compare_doubles);
      g_snprintf (level_text, sizeof level_text, exact ? "visits" : "%u", level);
      g_snprintf (messages_text, sizeof messages_text, too_many ? "> %u (none drawn)" : "%u",
                  too_many ? MAX_MESSAGES : n_messages);
      g_snprintf (members_text, sizeof members_text, n_members == G_MAXUINT ? "> %u (none drawn)" : "%u",
                  n_members == G_MAXUINT ? MAX_MEMBERS : n_members);
      g_snprintf (lost_text, sizeof lost_text, n_lost == G_MAXUINT ? "> %u (none shaded)" : "%u",
                  n_lost == G_MAXUINT ? MAX_LOST : n_lost);
      printf ("| 1/%" G_GINT64_FORMAT " | %s | %" G_GUINT64_FORMAT " | %s | %s | %s | %.1f ms | %.1f ms | %.1f ms |\n",
              narrower, level_text, rows, messages_text, members_text, lost_text, seconds[reps / 2] * 1e3, seconds[0] * 1e3,
              seconds[reps - 1] * 1e3);
    }
  printf ("\n%u locations, %d pixels, %d reads of each view\n", locs->len, width, reps);

  return 0;
}
