/*
 * sextant-bench-frames.c: the timeline in a real window, end to end.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   xvfb-run -a -s '-screen 0 1920x1200x24' \
 *     sextant-bench-frames [-W WIDTH] [-H HEIGHT] [-n REPS] [-z ZOOM] STORE
 *
 * Opens STORE in a SextantTimeline inside a scrolled window of WIDTH x
 * HEIGHT (default 1600 x 900, the Cairo renderer as the tests use), and
 * for the whole run and views 16, 256, 4096 and 65536 times narrower
 * (each repetition a new view: panned by a third of its width, so no
 * frame is read twice) measures:
 * - "read": from the session's view change to the frame read for it
 *   (the timeline's "ready": the worker's reads of the rows in view, the
 *   lines, the lost time);
 * - "frame": the frame clock's cycle that draws it (before-paint to
 *   after-paint: layout, snapshot, render);
 * - "new view": the two together, what the user waits for;
 * - "redraw": a frame of the same data drawn again (as for a mark moved
 *   or the pointer's tooltip: the rows' node is cached, only the layers
 *   are drawn again);
 * - "cpu": the process's CPU time over a new view (every thread: the
 *   reads, the painting, GTK's render; not the X server's), which a
 *   loaded machine changes less than the wall-clock times.
 * Then the same after scrolling the rows by a page, and the peak RSS.
 * Medians, fastest and slowest of REPS (default 9).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sextant-timeline.h"

typedef struct
{
  gint64 before;     /* the frame clock's before-paint, us */
  gint64 frame;      /* the last frame's duration, us */
  guint  frames;
} Clock;

static void
before_paint_cb (GdkFrameClock *clock,
                 Clock         *c)
{
  c->before = g_get_monotonic_time ();
}

static void
after_paint_cb (GdkFrameClock *clock,
                Clock         *c)
{
  c->frame = g_get_monotonic_time () - c->before;
  c->frames++;
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      data)
{
  GError **error = data;

  if (!sextant_session_load_finish (SEXTANT_SESSION (object), result, error) && *error == NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "not loaded");
}

static gboolean
is_ready (SextantTimeline *timeline)
{
  return sextant_timeline_get_ready (timeline);
}

/* Runs the main loop until @timeline is ready, then until the frame after
 * it is drawn; returns the microseconds to ready */
static gint64
wait_drawn (SextantTimeline *timeline,
            Clock           *clock,
            gint64           start)
{
  gint64 ready;
  guint frames;

  while (!is_ready (timeline))
    g_main_context_iteration (NULL, TRUE);
  ready = g_get_monotonic_time () - start;
  frames = clock->frames;
  gtk_widget_queue_draw (GTK_WIDGET (timeline));
  while (clock->frames == frames)
    g_main_context_iteration (NULL, TRUE);

  return ready;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

static void
print_stat (const char *what,
            GArray     *values)
{
  g_array_sort (values, compare_doubles);
  printf ("  %-9s median %8.2f ms  fastest %8.2f  slowest %8.2f\n", what,
          g_array_index (values, double, values->len / 2), g_array_index (values, double, 0),
          g_array_index (values, double, values->len - 1));
}

/* The process's CPU time (all its threads), us */
static gint64
process_cpu_usec (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);

  return (gint64)ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static long
peak_rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) || (line = strstr (status, "VmHWM:")) == NULL)
    return -1;

  return strtol (line + 6, NULL, 10);
}

int
main (int    argc,
      char **argv)
{
  int width = 1600, height = 900, reps = 9, only = 0;
  gboolean no_lines = FALSE, no_lost = FALSE, rows_mode = FALSE;
  GOptionEntry entries[] = {
    { "width", 'W', 0, G_OPTION_ARG_INT, &width, "Window width", "PX" },
    { "height", 'H', 0, G_OPTION_ARG_INT, &height, "Window height", "PX" },
    { "reps", 'n', 0, G_OPTION_ARG_INT, &reps, "Repetitions per view", "N" },
    { "no-lines", 0, 0, G_OPTION_ARG_NONE, &no_lines, "Without the lines (messages, collectives, one-sided)", NULL },
    { "rows", 0, 0, G_OPTION_ARG_NONE, &rows_mode, "Rows, not the whole-machine mode, however many", NULL },
    { "no-lost", 0, 0, G_OPTION_ARG_NONE, &no_lost, "Without the lost time", NULL },
    { "zoom", 'z', 0, G_OPTION_ARG_INT, &only, "Only the view this many times narrower than the run", "Z" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("STORE - the timeline's frames in a real window");
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantSession) session = NULL;
  GtkWidget *window, *scroller;
  SextantTimeline *timeline;
  GdkFrameClock *frame_clock;
  Clock clock = { 0 };
  gint64 begin, end;
  static const int zooms[] = { 1, 16, 256, 4096, 65536 };

  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "one STORE");
      return 2;
    }
  gtk_init ();

  session = sextant_session_new (argv[1]);
  sextant_session_load_async (session, NULL, loaded_cb, &error);
  while (!sextant_session_get_loaded (session) && error == NULL)
    g_main_context_iteration (NULL, TRUE);
  if (error != NULL)
    {
      g_printerr ("%s: %s\n", argv[1], error->message);
      return 1;
    }

  window = gtk_window_new ();
  scroller = gtk_scrolled_window_new ();
  timeline = SEXTANT_TIMELINE (sextant_timeline_new ());
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (timeline));
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  g_object_set (timeline, "show-messages", !no_lines, "show-lost", !no_lost, NULL);
  sextant_timeline_set_session (timeline, session);
  while (gtk_widget_get_frame_clock (GTK_WIDGET (timeline)) == NULL)
    g_main_context_iteration (NULL, TRUE);
  frame_clock = gtk_widget_get_frame_clock (GTK_WIDGET (timeline));
  g_signal_connect (frame_clock, "before-paint", G_CALLBACK (before_paint_cb), &clock);
  g_signal_connect (frame_clock, "after-paint", G_CALLBACK (after_paint_cb), &clock);
  if (rows_mode)
    sextant_timeline_set_whole_machine (timeline, FALSE);
  wait_drawn (timeline, &clock, g_get_monotonic_time ());

  begin = sextant_session_get_view_begin (session);
  end = sextant_session_get_view_end (session);
  {
    SextantTimelineRows *rows = sextant_timeline_get_rows (timeline);

    printf ("%s: %u rows, %s, window %d x %d\n", argv[1], sextant_timeline_rows_get_n_rows (rows),
            sextant_timeline_get_whole_machine (timeline) ? "whole-machine mode" : "rows", width, height);
  }
  for (int scrolled = 0; scrolled < 2; scrolled++)
    {
      if (scrolled)
        {
          GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));

          if (sextant_timeline_get_whole_machine (timeline) ||
              gtk_adjustment_get_upper (adjustment) <= gtk_adjustment_get_page_size (adjustment))
            break;
          gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) / 2);
          printf ("scrolled to the middle row\n");
        }
      for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
        {
          g_autoptr(GArray) reads = g_array_new (FALSE, FALSE, sizeof (double));
          g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (double));
          g_autoptr(GArray) news = g_array_new (FALSE, FALSE, sizeof (double));
          g_autoptr(GArray) redraws = g_array_new (FALSE, FALSE, sizeof (double));
          g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (double));
          gint64 span = MAX ((end - begin) / zooms[z], 1);

          if (only != 0 && zooms[z] != only)
            continue;

          for (int r = 0; r < reps; r++)
            {
              /* a new view each time: around the middle, a third of a view
               * on; the whole run, a tick shorter every other time (the
               * first too: the view before it may be the whole run) */
              gint64 t0 = zooms[z] == 1 ? begin : begin + (end - begin) / 2 + (r - reps / 2) * span / 3;
              gint64 start, cpu;
              double read, frame;
              guint frames_before;

              if (zooms[z] == 1)
                span = end - begin - ((r + 1) % 2);
              start = g_get_monotonic_time ();
              cpu = process_cpu_usec ();

              sextant_session_set_view (session, t0, t0 + span);
              read = wait_drawn (timeline, &clock, start) / 1000.0;
              frame = clock.frame / 1000.0;
              g_array_append_val (reads, read);
              g_array_append_val (frames, frame);
              frame += read;
              g_array_append_val (news, frame);
              frame = (process_cpu_usec () - cpu) / 1000.0;
              g_array_append_val (cpus, frame);
              /* the same data drawn again: the cached rows */
              frames_before = clock.frames;
              gtk_widget_queue_draw (GTK_WIDGET (timeline));
              while (clock.frames == frames_before)
                g_main_context_iteration (NULL, TRUE);
              frame = clock.frame / 1000.0;
              g_array_append_val (redraws, frame);
            }
          printf ("view 1/%d of the run:\n", zooms[z]);
          print_stat ("read", reads);
          print_stat ("frame", frames);
          print_stat ("new view", news);
          print_stat ("redraw", redraws);
          print_stat ("cpu", cpus);
        }
    }
  printf ("peak RSS %ld MiB\n", peak_rss_kib () / 1024);
  gtk_window_destroy (GTK_WINDOW (window));

  return 0;
}
