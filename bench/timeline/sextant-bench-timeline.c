/*
 * sextant-bench-timeline.c: what a timeline frame costs to read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sextant-bench-timeline [-w WIDTH] [-n REPS] [-r ROWS [-f FIRST]] [-b BANDS] [--cpu] STORE
 *
 * Reads, as the timeline's worker thread does for one view, the rows' data
 * for a view WIDTH pixels wide (default 1920): the whole run, then views
 * 16, 256, 4096 and 65536 times narrower around the middle of the run (the
 * last ones past the pyramid, from the visits). ROWS (default 0: every
 * location with events) are the visible rows, taken from the middle of
 * the locations (or from FIRST). Each view is read REPS times (default 9) and the table
 * gives medians, side by side:
 *
 *   - old: the rows of the lod virtual table, one SQLite row per bucket
 *     (sextant_lod_reader_read_rows(), as the reader read before);
 *   - new, first read: sextant_lod_reader_read() on a new reader (its
 *     cache empty: the chunk directories and every chunk come from
 *     SQLite; the pyramid's with one statement for the rows,
 *     sextant_lod_reader_prefetch());
 *   - new, panned: on the kept reader, a view of the same width moved by
 *     its width at each read (what a pan or a zoom costs: the chunks it
 *     needs that the reader does not hold yet come from SQLite);
 *   - new, again: the same view on the reader that read it (the widget
 *     keeps its reader: a redraw, or a pan within the cached level).
 *
 * Then the first read of the messages, collectives, lost time,
 * one-sided operations and their synchronisation on the kept reader
 * (the first of each builds the reader's index of them, or learns
 * that the store has none), the other reads of each view (old and new
 * messages, message density, collectives, lost time, one-sided
 * operations and their synchronisation), and with BANDS (default 1000) the whole-machine
 * picture of every location.
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
#define MAX_RMA           8000
#define MAX_SYNCS         8000
#define MAX_DENSITY       20000

typedef enum
{
  PATH_OLD,
  PATH_NEW_FIRST,
  PATH_NEW_PANNED,
  PATH_NEW_AGAIN,
  N_PATHS
} Path;

typedef struct
{
  SextantStore     *store;
  SextantLodReader *reader;    /* kept across views (PATH_NEW_AGAIN, the other reads) */
  GArray           *locs;      /* the rows read */
  GArray           *all;       /* every location with events */
  int               width;
  int               reps;
} Bench;

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

/* Times are wall-clock, or with --cpu the thread's CPU time (the reads
 * run on this thread): a loaded machine stretches the first, hardly the
 * second */
static gboolean use_cpu;

static gint64
now_usec (void)
{
  return use_cpu ? sextant_thread_cpu_usec () : g_get_monotonic_time ();
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a;
  double y = *(const double *)b;

  return (x > y) - (x < y);
}

static double
median (double *seconds,
        int     n)
{
  qsort (seconds, n, sizeof (double), compare_doubles);

  return seconds[n / 2] * 1e3;
}

G_GNUC_NORETURN static void
fail (GError *error)
{
  fprintf (stderr, "sextant-bench-timeline: %s\n", error->message);
  exit (1);
}

/* Reads the rows of one view by @path; returns the buckets read */
static guint64
read_rows (Bench  *bench,
           Path    path,
           guint   level,
           gboolean exact,
           gint64  t0,
           gint64  t1)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) fresh = NULL;
  g_autoptr(GArray) buckets = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
  SextantLodReader *reader = bench->reader;
  guint64 rows = 0;

  if (path == PATH_NEW_FIRST)
    {
      if (!(fresh = sextant_lod_reader_new (bench->store, &error)))
        fail (error);
      reader = fresh;
    }
  if (path != PATH_OLD && !exact &&
      !sextant_lod_reader_prefetch (reader, (const gint64 *)bench->locs->data, bench->locs->len, level, &error))
    fail (error);
  for (guint i = 0; i < bench->locs->len; i++)
    {
      gint64 loc = g_array_index (bench->locs, gint64, i);
      gboolean ok;

      g_array_set_size (buckets, 0);
      if (exact && path == PATH_OLD)
        ok = sextant_lod_reader_read_visits_rows (reader, loc, t0, t1, buckets, &error);
      else if (exact)
        ok = sextant_lod_reader_read_visits (reader, loc, t0, t1, buckets, &error);
      else if (path == PATH_OLD)
        ok = sextant_lod_reader_read_rows (reader, loc, level, t0, t1, buckets, &error);
      else
        ok = sextant_lod_reader_read (reader, loc, level, t0, t1, buckets, &error);
      if (!ok)
        fail (error);
      rows += buckets->len;
    }

  return rows;
}

typedef enum
{
  READ_MESSAGES_OLD,
  READ_MESSAGES,
  READ_DENSITY,
  READ_COLLECTIVES,
  READ_LOST,
  READ_RMA,
  READ_SYNC,
  N_READS
} Read;

static const char * const read_names[N_READS] = {
  "messages (old: rows)", "messages", "message density", "collective members", "lost time", "one-sided ops",
  "window syncs",
};

/* One of the other reads of a view; returns what it found, G_MAXUINT for
 * too many */
static guint
read_other (Bench  *bench,
            Read    what,
            gint64  t0,
            gint64  t1)
{
  g_autoptr(GError) error = NULL;
  gboolean too_many = FALSE;
  gboolean ok = FALSE;
  g_autoptr(GArray) out = NULL;

  switch (what)
    {
    case READ_MESSAGES_OLD:
    case READ_MESSAGES:
      out = g_array_new (FALSE, FALSE, sizeof (SextantViewMessage));
      ok = what == READ_MESSAGES
             ? sextant_lod_reader_read_messages (bench->reader, NULL, 0, t0, t1, MAX_MESSAGES, out, &too_many, &error)
             : sextant_lod_reader_read_messages_rows (bench->reader, t0, t1, MAX_MESSAGES, out, &too_many, &error);
      break;
    case READ_DENSITY:
      out = g_array_new (FALSE, FALSE, sizeof (SextantViewMessageDensity));
      /* slots of 4 pixels */
      ok = sextant_lod_reader_read_message_density (bench->reader, NULL, 0, t0, t1,
                                                    MAX ((t1 - t0) * 4 / bench->width, 1),
                                                    MAX_DENSITY, out, &error);
      break;
    case READ_COLLECTIVES:
      out = g_array_new (FALSE, FALSE, sizeof (SextantViewMember));
      ok = sextant_lod_reader_read_collectives (bench->reader, t0, t1, MAX_MEMBERS, out, &too_many, &error);
      break;
    case READ_LOST:
      out = g_array_new (FALSE, FALSE, sizeof (SextantViewLost));
      ok = sextant_lod_reader_read_lost (bench->reader, t0, t1, MAX_LOST, out, &too_many, &error);
      break;
    case READ_RMA:
      out = g_array_new (FALSE, FALSE, sizeof (SextantViewRma));
      ok = sextant_lod_reader_read_rma (bench->reader, t0, t1, MAX_RMA, out, &too_many, &error);
      break;
    case READ_SYNC:
      out = g_array_new (FALSE, FALSE, sizeof (SextantViewSync));
      ok = sextant_lod_reader_read_rma_sync (bench->reader, t0, t1, MAX_SYNCS, out, &too_many, &error);
      break;
    case N_READS:
    default:
      g_assert_not_reached ();
    }
  if (!ok)
    fail (error);

  return too_many ? G_MAXUINT : out->len;
}

static void
format_count (char   *text,
              gsize   size,
              guint   n)
{
  if (n == G_MAXUINT)
    g_snprintf (text, size, "too many");
  else
    g_snprintf (text, size, "%u", n);
}

int
main (int    argc,
      char **argv)
{
  int width = 1920;
  int reps = 9;
  int n_rows = 0;
  int n_bands = 1000;
  int first_row = -1;
  g_autoptr(GOptionContext) context = g_option_context_new ("STORE - time the reads of timeline frames");
  GOptionEntry entries[] = {
    { "width", 'w', 0, G_OPTION_ARG_INT, &width, "Pixels of the view (1920)", "W" },
    { "reps", 'n', 0, G_OPTION_ARG_INT, &reps, "Reads of each view (9)", "N" },
    { "rows", 'r', 0, G_OPTION_ARG_INT, &n_rows, "Visible rows, from the middle (0: all)", "ROWS" },
    { "first", 'f', 0, G_OPTION_ARG_INT, &first_row, "The first of the ROWS (default: they are the middle ones)", "ROW" },
    { "bands", 'b', 0, G_OPTION_ARG_INT, &n_bands, "Bands of the whole-machine picture (1000, 0: none)", "BANDS" },
    { "cpu", 0, 0, G_OPTION_ARG_NONE, &use_cpu, "Time by the thread's CPU time, not the wall clock", NULL },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantLodReader) reader = NULL;
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) locs = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *begin_text = NULL;
  g_autofree char *end_text = NULL;
  g_autofree double *seconds = NULL;
  Bench bench;
  gint64 t_begin, t_end;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || width < 1 || reps < 1 ||
      n_rows < 0 || n_bands < 0)
    {
      fprintf (stderr, "usage: sextant-bench-timeline [-w WIDTH] [-n REPS] [-r ROWS [-f FIRST]] [-b BANDS] [--cpu] STORE%s%s\n",
               error != NULL ? ": " : "", error != NULL ? error->message : "");
      return 2;
    }
  if (!(store = sextant_store_open (argv[1], &error)) || !(reader = sextant_lod_reader_new (store, &error)) ||
      !sextant_store_foreach (store, SEXTANT_QUERY_LOCATIONS, add_location, all, &error, ""))
    fail (error);
  if (n_rows == 0 || (guint)n_rows >= all->len)
    g_array_append_vals (locs, all->data, all->len);
  else
    g_array_append_vals (locs, &g_array_index (all, gint64, first_row >= 0 ? MIN ((guint)first_row, all->len - n_rows)
                                                                          : (all->len - n_rows) / 2), n_rows);
  begin_text = sextant_store_get_meta (store, "time_begin");
  end_text = sextant_store_get_meta (store, "time_end");
  t_begin = begin_text != NULL ? g_ascii_strtoll (begin_text, NULL, 10) : 0;
  t_end = (end_text != NULL ? g_ascii_strtoll (end_text, NULL, 10) : 0) + 1;
  seconds = g_new (double, reps);
  bench = (Bench) { store, reader, locs, all, width, reps };

  printf ("Rows (%u of %u locations, %d pixels, medians of %d reads)\n\n", locs->len, all->len, width, reps);
  printf ("| view (of the run) | level | buckets read | old: vtable rows | new: first read | new: panned | new: again |\n");
  printf ("|---|---:|---:|---:|---:|---:|---:|\n");
  for (gint64 narrower = 1; narrower <= 65536; narrower *= 16)
    {
      gint64 span = narrower == 1 ? t_end - t_begin : MAX ((t_end - t_begin) / narrower, 1);
      gint64 t0 = narrower == 1 ? t_begin : t_begin + (t_end - t_begin) / 2 - span / 2;
      gint64 t1 = t0 + span;
      guint level = sextant_lod_reader_pick_level (reader, (double)span / width);
      gboolean exact = level == 0 &&
                       sextant_lod_reader_get_bucket_ticks (reader, 0) * width > EXACT_FROM_PIXELS * span;
      double ms[N_PATHS];
      guint64 rows = 0;
      char level_text[16];

      for (Path path = 0; path < N_PATHS; path++)
        {
          for (int r = 0; r < reps; r++)
            {
              gint64 start;
              gint64 shift = 0;

              /* panned: each read in a part of the run not read yet */
              if (path == PATH_NEW_PANNED && narrower > 1)
                shift = ((r + 1) * 2 * span) % MAX ((t_end - t_begin) / 2 - span, 1);
              start = now_usec ();
              rows = read_rows (&bench, path, level, exact, t0 + shift, t1 + shift);
              seconds[r] = (now_usec () - start) / 1e6;
              /* the rows of the view itself (and it in the cache for "again") */
              if (path == PATH_NEW_PANNED)
                rows = read_rows (&bench, PATH_NEW_AGAIN, level, exact, t0, t1);
            }
          ms[path] = median (seconds, reps);
        }
      g_snprintf (level_text, sizeof level_text, exact ? "visits" : "%u", level);
      printf ("| 1/%" G_GINT64_FORMAT " | %s | %" G_GUINT64_FORMAT " | %.2f ms | %.2f ms | %.2f ms | %.2f ms |\n",
              narrower, level_text, rows, ms[PATH_OLD], ms[PATH_NEW_FIRST], ms[PATH_NEW_PANNED], ms[PATH_NEW_AGAIN]);
    }

  /* the first read of each builds the reader's index (on the widget's
   * worker thread: the frame after the first) */
  printf ("\nFirst reads on the kept reader (each builds its index):");
  for (Read what = READ_MESSAGES; what < N_READS; what++)
    if (what != READ_DENSITY)
      {
        gint64 start = now_usec ();

        read_other (&bench, what, t_begin, t_begin + 1);
        printf (" %s %.1f ms%s", read_names[what], (now_usec () - start) / 1e3,
                what + 1 < N_READS ? "," : "\n");
      }
  printf ("reader cache: %.1f MB\n", sextant_lod_reader_get_cache_bytes (reader) / 1e6);

  printf ("\nThe other reads (medians of %d, on the kept reader; the count found, \"too many\" past the cap)\n\n", reps);
  printf ("| view (of the run) |");
  for (Read what = 0; what < N_READS; what++)
    printf (" %s |", read_names[what]);
  printf ("\n|---|");
  for (Read what = 0; what < N_READS; what++)
    printf ("---:|");
  printf ("\n");
  for (gint64 narrower = 1; narrower <= 65536; narrower *= 16)
    {
      gint64 span = narrower == 1 ? t_end - t_begin : MAX ((t_end - t_begin) / narrower, 1);
      gint64 t0 = narrower == 1 ? t_begin : t_begin + (t_end - t_begin) / 2 - span / 2;
      gint64 t1 = t0 + span;

      printf ("| 1/%" G_GINT64_FORMAT " |", narrower);
      for (Read what = 0; what < N_READS; what++)
        {
          char count[32];
          guint n = 0;

          for (int r = 0; r < reps; r++)
            {
              gint64 start = now_usec ();

              n = read_other (&bench, what, t0, t1);
              seconds[r] = (now_usec () - start) / 1e6;
            }
          format_count (count, sizeof count, n);
          printf (" %.3f ms (%s) |", median (seconds, reps), count);
        }
      printf ("\n");
    }

  if (n_bands > 0)
    {
      g_autofree SextantMachineCell *cells = g_new (SextantMachineCell, (gsize)n_bands * width);
      guint level = sextant_lod_reader_pick_machine_level (reader, all->len, t_begin, t_end, width);
      double first;

      printf ("\nWhole-machine picture: %u locations in %d bands of %d pixels (medians of %d reads)\n\n", all->len,
              n_bands, width, reps);
      printf ("| view (of the run) | level | new: first read | new: again |\n|---|---:|---:|---:|\n");
      for (gint64 narrower = 1; narrower <= 256; narrower *= 16)
        {
          gint64 span = narrower == 1 ? t_end - t_begin : MAX ((t_end - t_begin) / narrower, 1);
          gint64 t0 = narrower == 1 ? t_begin : t_begin + (t_end - t_begin) / 2 - span / 2;
          gint64 t1 = t0 + span;

          level = sextant_lod_reader_pick_machine_level (reader, all->len, t0, t1, width);
          for (int pass = 0; pass < 2; pass++)
            {
              for (int r = 0; r < reps; r++)
                {
                  g_autoptr(SextantLodReader) fresh = pass == 0 ? sextant_lod_reader_new (store, &error) : NULL;
                  gint64 start;

                  if (pass == 0 && fresh == NULL)
                    fail (error);
                  start = now_usec ();
                  if (!sextant_lod_reader_read_machine (pass == 0 ? fresh : reader, (const gint64 *)all->data,
                                                        all->len, n_bands, 0, n_bands, t0, t1, width, cells,
                                                        NULL, &error))
                    fail (error);
                  seconds[r] = (now_usec () - start) / 1e6;
                }
              if (pass == 0)
                first = median (seconds, reps);
            }
          printf ("| 1/%" G_GINT64_FORMAT " | %u | %.2f ms | %.2f ms |\n", narrower, level, first,
                  median (seconds, reps));
        }
    }
  printf ("\nreader cache: %.1f MB\n", sextant_lod_reader_get_cache_bytes (reader) / 1e6);

  return 0;
}
