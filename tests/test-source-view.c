/*
 * test-source-view.c: the source line of a pattern instance, in a real
 * GtkSourceView in a real window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under Xvfb (meson runs it through xvfb-run, with the Cairo renderer):
 * files written for the test are shown as a user would see them, with
 * the language of their name, line numbers, read only; the asked line
 * carries the mark and sits in the middle third of the view frame after
 * frame; files the trace names on another machine are found under the
 * source folders by the longest trailing part of their path; a file found
 * nowhere says where it was looked for; a second show() while the first
 * file is read wins. The widget is rendered to source-view.png and
 * source-view-dark.png in the build directory, to look at.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-source-view.h"
#include "sextant-test-util.h"
#include "sextant-ui-test-util.h"

/* seconds a load may take on a loaded machine */
#define LOAD_TIMEOUT 60

/* C source of @lines lines, a function every 10 lines (keywords, strings,
 * comments and numbers to highlight); line n is found by its comment
 * "line n" */
static char *
c_source (int lines)
{
  GString *text = g_string_new (NULL);

  for (int n = 1; n <= lines; n++)
    switch (n % 10)
      {
      case 1:
        g_string_append_printf (text, "/* line %d: exchange with the neighbours */\n", n);
        break;
      case 2:
        g_string_append_printf (text, "static int exchange_%d (double *buf, int count) /* line %d */\n", n, n);
        break;
      case 3:
        g_string_append_printf (text, "{ /* line %d */\n", n);
        break;
      case 4:
        g_string_append_printf (text, "  MPI_Recv (buf, count, MPI_DOUBLE, 0, 42, MPI_COMM_WORLD, NULL); /* line %d */\n",
                                n);
        break;
      case 5:
        g_string_append_printf (text, "  if (count > 0) printf (\"got %%d\\n\", count); /* line %d */\n", n);
        break;
      case 6:
        g_string_append_printf (text, "  return MPI_Barrier (MPI_COMM_WORLD); /* line %d */\n", n);
        break;
      case 7:
        g_string_append_printf (text, "} /* line %d */\n", n);
        break;
      default:
        g_string_append_printf (text, "/* line %d */\n", n);
      }

  return g_string_free (text, FALSE);
}

static const char fortran_source[] =
  "program ring\n"
  "  use mpi\n"
  "  implicit none\n"
  "  integer :: rank, ierr\n"
  "  call MPI_Init(ierr)\n"
  "  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)\n"
  "  if (rank == 0) then\n"
  "    print *, 'root'\n"
  "  end if\n"
  "  call MPI_Finalize(ierr)\n"
  "end program ring\n";

static void
write_file (const char *path,
            const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

/* The buffer shown (a file read anew gets a new one) */
static GtkSourceBuffer *
source_buffer (SextantSourceView *view)
{
  return GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (sextant_source_view_get_source_view (view))));
}

static char *
buffer_text (SextantSourceView *view)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (source_buffer (view));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);

  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* The lines (0-based) that carry the view's mark */
static GArray *
marked_lines (SextantSourceView *view)
{
  GtkSourceBuffer *buffer = source_buffer (view);
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (int));

  for (int i = 0; i < gtk_text_buffer_get_line_count (GTK_TEXT_BUFFER (buffer)); i++)
    {
      GSList *marks = gtk_source_buffer_get_source_marks_at_line (buffer, i, NULL);

      for (GSList *l = marks; l != NULL; l = l->next)
        g_array_append_val (lines, i);
      g_slist_free (marks);
    }

  return lines;
}

/* show() and wait until it is done */
static void
show (SextantSourceView *view,
      const char        *file,
      gint64             line,
      const char        *caption)
{
  sextant_source_view_show (view, file, line, caption);
  sextant_test_wait_for (view, "loaded", LOAD_TIMEOUT);
}

typedef struct
{
  char              *tmpdir;
  GtkWidget         *window;
  SextantSourceView *view;
} Fixture;

/* A C source of @lines lines (c_source ()) written as @name in the
 * fixture's directory: its path, and its text in @text (nullable) */
static char *
write_c_source (Fixture     *fixture,
                const char  *name,
                int          lines,
                char       **text)
{
  char *path = g_build_filename (fixture->tmpdir, name, NULL);
  g_autofree char *source = c_source (lines);

  write_file (path, source);
  if (text != NULL)
    *text = g_steal_pointer (&source);

  return path;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->window = gtk_window_new ();
  fixture->view = SEXTANT_SOURCE_VIEW (sextant_source_view_new ());
  gtk_window_set_child (GTK_WINDOW (fixture->window), GTK_WIDGET (fixture->view));
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 640, 360);
  if (data == NULL)
    {
      gtk_window_present (GTK_WINDOW (fixture->window));
      sextant_test_run_frames (fixture->window, 3);
    }
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  sextant_test_remove_tree (fixture->tmpdir);
  g_free (fixture->tmpdir);
}

static void
test_language (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *c_text = NULL;
  g_autofree char *c_file = write_c_source (fixture, "solver.c", 100, &c_text);
  g_autofree char *f_file = g_build_filename (fixture->tmpdir, "ring.f90", NULL);
  g_autofree char *shown = NULL;
  GtkSourceView *source = sextant_source_view_get_source_view (fixture->view);
  GtkSourceBuffer *buffer;
  GtkTextIter iter;

  write_file (f_file, fortran_source);

  show (fixture->view, c_file, 42, "MPI Rank 3 waited");
  buffer = source_buffer (fixture->view);
  g_assert_cmpstr (sextant_source_view_get_path (fixture->view), ==, c_file);
  g_assert_cmpint (sextant_source_view_get_line (fixture->view), ==, 42);
  shown = buffer_text (fixture->view);
  g_assert_cmpstr (shown, ==, c_text);
  g_assert_nonnull (gtk_source_buffer_get_language (buffer));
  g_assert_cmpstr (gtk_source_language_get_id (gtk_source_buffer_get_language (buffer)), ==, "c");
  g_assert_nonnull (strstr (sextant_source_view_get_title (fixture->view), "solver.c:42"));
  g_assert_nonnull (strstr (sextant_source_view_get_title (fixture->view), "MPI Rank 3 waited"));

  /* what a user sees and can do: line numbers, the line in the gutter, no
   * editing (a key press inserts interactively, which a read-only view
   * refuses) */
  g_assert_true (gtk_source_view_get_show_line_numbers (source));
  g_assert_true (gtk_source_view_get_show_line_marks (source));
  g_assert_true (gtk_text_view_get_monospace (GTK_TEXT_VIEW (source)));
  g_assert_false (gtk_text_view_get_cursor_visible (GTK_TEXT_VIEW (source)));
  g_assert_false (gtk_text_view_get_editable (GTK_TEXT_VIEW (source)));
  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (buffer), &iter);
  g_assert_false (gtk_text_buffer_insert_interactive (GTK_TEXT_BUFFER (buffer), &iter, "x", -1,
                                                      gtk_text_view_get_editable (GTK_TEXT_VIEW (source))));
  g_clear_pointer (&shown, g_free);
  shown = buffer_text (fixture->view);
  g_assert_cmpstr (shown, ==, c_text);

  show (fixture->view, f_file, 6, NULL);
  g_assert_cmpstr (gtk_source_language_get_id (gtk_source_buffer_get_language (source_buffer (fixture->view))), ==,
                   "fortran");
  g_assert_cmpint (sextant_source_view_get_line (fixture->view), ==, 6);
}

static void
test_mark (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *file = write_c_source (fixture, "solver.c", 100, NULL);
  g_autoptr(GArray) lines = NULL;
  GSList *marks;

  show (fixture->view, file, 42, NULL);
  marks = gtk_source_buffer_get_source_marks_at_line (source_buffer (fixture->view), 41, "sextant-line");
  g_assert_cmpuint (g_slist_length (marks), ==, 1);
  g_slist_free (marks);
  lines = marked_lines (fixture->view);
  g_assert_cmpuint (lines->len, ==, 1);
  g_assert_cmpint (g_array_index (lines, int, 0), ==, 41);
  g_clear_pointer (&lines, g_array_unref);

  /* another line of the same file: the mark moves, there is still one */
  show (fixture->view, file, 7, NULL);
  lines = marked_lines (fixture->view);
  g_assert_cmpuint (lines->len, ==, 1);
  g_assert_cmpint (g_array_index (lines, int, 0), ==, 6);
  g_assert_cmpint (sextant_source_view_get_line (fixture->view), ==, 7);
  g_clear_pointer (&lines, g_array_unref);

  /* a line past the end: the file, no line, and the caption says why */
  show (fixture->view, file, 1000, NULL);
  g_assert_cmpstr (sextant_source_view_get_path (fixture->view), ==, file);
  g_assert_cmpint (sextant_source_view_get_line (fixture->view), ==, 0);
  g_assert_nonnull (strstr (sextant_source_view_get_title (fixture->view), "100 lines"));
  lines = marked_lines (fixture->view);
  g_assert_cmpuint (lines->len, ==, 0);
  g_clear_pointer (&lines, g_array_unref);

  /* no file: nothing shown, nothing marked */
  show (fixture->view, NULL, 0, "MPI Rank 2");
  g_assert_null (sextant_source_view_get_path (fixture->view));
  g_assert_cmpint (sextant_source_view_get_line (fixture->view), ==, 0);
  g_assert_cmpint (gtk_text_buffer_get_char_count (GTK_TEXT_BUFFER (source_buffer (fixture->view))), ==, 0);
}

typedef struct
{
  GtkTextView *text;
  int          line;           /* 0-based */
  guint        frames;         /* frames seen */
  guint        run;            /* consecutive frames with the line in the middle third */
  guint        first;          /* the frame it got there first, 0: not yet */
  gboolean     left;           /* it left after it got there */
} Watch;

static gboolean
line_in_middle (GtkTextView *text,
                int          line)
{
  GdkRectangle visible;
  GtkTextIter iter;
  int y, height;

  gtk_text_view_get_visible_rect (text, &visible);
  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (text), &iter, line);
  gtk_text_view_get_line_yrange (text, &iter, &y, &height);

  return visible.height > 0 && y >= visible.y + visible.height / 3 &&
         y + height <= visible.y + 2 * visible.height / 3;
}

/* After each frame is painted: where the line was in it */
static void
watch_after_paint (GdkFrameClock *clock,
                   gpointer       data)
{
  Watch *watch = data;

  watch->frames++;
  if (line_in_middle (watch->text, watch->line))
    {
      if (watch->first == 0)
        watch->first = watch->frames;
      watch->run++;
    }
  else
    {
      if (watch->first != 0)
        watch->left = TRUE;
      watch->run = 0;
    }
}

/* From now on, frame by frame as painted: @line (1-based) gets into the
 * middle third of the view within 600 frames and stays there for 30 */
static void
assert_centred (SextantSourceView *view,
                int                line)
{
  Watch watch = { GTK_TEXT_VIEW (sextant_source_view_get_source_view (view)), line - 1, 0, 0, 0, FALSE };
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (view));
  gulong handler = g_signal_connect (clock, "after-paint", G_CALLBACK (watch_after_paint), &watch);

  /* a frame each time round, drawn or not */
  while (watch.run < 30 && !watch.left && watch.frames < 600)
    {
      gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_PAINT);
      g_main_context_iteration (NULL, TRUE);
    }
  g_signal_handler_disconnect (clock, handler);
  g_test_message ("line %d: in the middle third from frame %u, %u frames there", line, watch.first, watch.run);
  g_assert_false (watch.left);
  g_assert_cmpuint (watch.run, >=, 30);
}

typedef struct
{
  gint64 last;         /* monotonic time of the last call */
  gint64 longest;      /* the longest time between two calls */
} Stalls;

static gboolean
note_stall (gpointer data)
{
  Stalls *stalls = data;
  gint64 now = g_get_monotonic_time ();

  stalls->longest = MAX (stalls->longest, now - stalls->last);
  stalls->last = now;

  return G_SOURCE_CONTINUE;
}

static void
test_centred (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *file = write_c_source (fixture, "solver.c", 800, NULL);
  g_autofree char *big = write_c_source (fixture, "generated.c", 200000, NULL);

  /* shown before the window is on screen: centred once it is */
  sextant_source_view_show (fixture->view, file, 400, NULL);
  sextant_test_wait_for (fixture->view, "loaded", LOAD_TIMEOUT);
  gtk_window_present (GTK_WINDOW (fixture->window));
  assert_centred (fixture->view, 400);

  /* on screen, another file (8 MB), where the line's y is all estimates
   * until the lines above it are laid out; the main loop is not held up
   * long at any time (for the record: it depends on the machine) */
  {
    gint64 start = g_get_monotonic_time ();
    Stalls stalls = { start, 0 };
    guint timeout = g_timeout_add_full (G_PRIORITY_HIGH, 1, note_stall, &stalls, NULL);
    double loaded;

    show (fixture->view, big, 123457, NULL);
    loaded = (g_get_monotonic_time () - start) / 1000.0;
    assert_centred (fixture->view, 123457);
    g_source_remove (timeout);
    g_test_message ("8 MB shown in %.0f ms, centred in %.0f ms: the main loop stalled for %.0f ms at most", loaded,
                    (g_get_monotonic_time () - start) / 1000.0, stalls.longest / 1000.0);
  }
  show (fixture->view, big, 17, NULL);
  assert_centred (fixture->view, 17);
}

static void
test_roots (Fixture       *fixture,
            gconstpointer  data)
{
  g_autofree char *root = g_build_filename (fixture->tmpdir, "root", NULL);
  g_autofree char *other = g_build_filename (fixture->tmpdir, "other", NULL);
  g_autofree char *specific = g_build_filename (root, "src", "solver.c", NULL);
  g_autofree char *loose = g_build_filename (root, "solver.c", NULL);
  g_autofree char *other_loose = g_build_filename (other, "solver.c", NULL);
  g_autofree char *other_specific = g_build_filename (other, "proj", "src", "solver.c", NULL);
  const char *recorded = "/nonexistent/home/u/proj/src/solver.c";
  g_autofree char *text = c_source (50);

  write_file (specific, text);
  write_file (loose, "int loose;\n");

  /* under one root: the longest trailing part that is there, src/solver.c */
  sextant_source_view_set_source_root (fixture->view, root);
  show (fixture->view, recorded, 7, NULL);
  g_assert_cmpstr (sextant_source_view_get_path (fixture->view), ==, specific);
  g_assert_cmpint (sextant_source_view_get_line (fixture->view), ==, 7);
  g_assert_nonnull (strstr (sextant_source_view_get_title (fixture->view), specific));

  /* over several roots the longest part wins, whichever root has it ... */
  write_file (other_loose, "int other;\n");
  write_file (other_specific, text);
  sextant_source_view_set_source_roots (fixture->view, (const char *[]) { root, other, NULL });
  show (fixture->view, recorded, 8, NULL);
  g_assert_cmpstr (sextant_source_view_get_path (fixture->view), ==, other_specific);
  /* ... and among equally long ones, the first root */
  sextant_source_view_set_source_roots (fixture->view, (const char *[]) { other, root, NULL });
  show (fixture->view, "/elsewhere/solver.c", 1, NULL);
  g_assert_cmpstr (sextant_source_view_get_path (fixture->view), ==, other_loose);

  /* a path as recorded that is there wins over the roots */
  show (fixture->view, specific, 3, NULL);
  g_assert_cmpstr (sextant_source_view_get_path (fixture->view), ==, specific);

  /* the roots as a property, as GSettings binds them */
  g_object_set (fixture->view, "source-roots", (const char *[]) { root, NULL }, NULL);
  g_assert_cmpstr (sextant_source_view_get_source_roots (fixture->view)[0], ==, root);
  g_assert_null (sextant_source_view_get_source_roots (fixture->view)[1]);
}

static void
test_missing (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *root = g_build_filename (fixture->tmpdir, "root", NULL);
  g_autofree char *other = g_build_filename (fixture->tmpdir, "other", NULL);
  g_autofree char *text = NULL;
  g_autofree char *file = write_c_source (fixture, "shown.c", 30, &text);
  g_autofree char *found = g_build_filename (root, "tree", "gone.c", NULL);
  const char *recorded = "/nonexistent/build/tree/gone.c";
  const char *title;

  show (fixture->view, file, 3, NULL);

  sextant_source_view_set_source_roots (fixture->view, (const char *[]) { root, other, NULL });
  show (fixture->view, recorded, 7, "MPI Rank 1: late sender");
  g_assert_null (sextant_source_view_get_path (fixture->view));
  g_assert_cmpint (sextant_source_view_get_line (fixture->view), ==, 0);
  g_assert_cmpint (gtk_text_buffer_get_char_count (gtk_text_view_get_buffer (
                     GTK_TEXT_VIEW (sextant_source_view_get_source_view (fixture->view)))), ==, 0);
  /* nothing fake: no text area (with its line 1) at all */
  sextant_test_run_frames (fixture->window, 2);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (sextant_source_view_get_source_view (fixture->view))));
  title = sextant_source_view_get_title (fixture->view);
  g_test_message ("%s", title);
  g_assert_nonnull (strstr (title, recorded));
  g_assert_nonnull (strstr (title, "Not found"));
  g_assert_nonnull (strstr (title, root));
  g_assert_nonnull (strstr (title, other));
  g_assert_nonnull (strstr (title, "MPI Rank 1: late sender"));

  /* no roots: it says so */
  sextant_source_view_set_source_roots (fixture->view, NULL);
  show (fixture->view, recorded, 7, "MPI Rank 1: late sender");
  g_assert_null (sextant_source_view_get_path (fixture->view));
  g_assert_nonnull (strstr (sextant_source_view_get_title (fixture->view), "source folders"));

  /* the user adds the folder that has it: it shows at once */
  write_file (found, text);
  sextant_source_view_set_source_root (fixture->view, root);
  sextant_test_wait_for (fixture->view, "loaded", LOAD_TIMEOUT);
  g_assert_cmpstr (sextant_source_view_get_path (fixture->view), ==, found);
  g_assert_cmpint (sextant_source_view_get_line (fixture->view), ==, 7);
  sextant_test_run_frames (fixture->window, 2);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (sextant_source_view_get_source_view (fixture->view))));
  g_assert_nonnull (strstr (sextant_source_view_get_title (fixture->view), "MPI Rank 1: late sender"));
}

static void
test_second_show (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *first = write_c_source (fixture, "big.c", 200000, NULL);
  g_autofree char *second_text = NULL;
  g_autofree char *second = write_c_source (fixture, "small.c", 20, &second_text);
  g_autofree char *shown = NULL;

  /* nothing runs the main loop in between: the first load cannot be done */
  sextant_source_view_show (fixture->view, first, 100000, NULL);
  g_assert_false (sextant_source_view_get_loaded (fixture->view));
  sextant_source_view_show (fixture->view, second, 5, "the second");
  sextant_test_wait_for (fixture->view, "loaded", LOAD_TIMEOUT);
  g_assert_cmpstr (sextant_source_view_get_path (fixture->view), ==, second);
  /* and the first, cancelled, comes to nothing later either */
  sextant_test_run_frames (fixture->window, 60);
  g_assert_cmpstr (sextant_source_view_get_path (fixture->view), ==, second);
  g_assert_cmpint (sextant_source_view_get_line (fixture->view), ==, 5);
  shown = buffer_text (fixture->view);
  g_assert_cmpstr (shown, ==, second_text);
  g_assert_nonnull (strstr (sextant_source_view_get_title (fixture->view), "the second"));
}

static void
test_reread (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *file = g_build_filename (fixture->tmpdir, "old.f", NULL);
  g_autofree char *shown = NULL;
  g_autoptr(GError) error = NULL;
  GFileInfo *info;
  g_autoptr(GFile) gfile = g_file_new_for_path (file);
  GtkSourceBuffer *first;

  /* Latin-1, as old sources are: shown as the characters they are */
  g_file_set_contents (file, "C     Gr\xfc\xdf" "e\n      END\n", -1, &error);
  g_assert_no_error (error);
  show (fixture->view, file, 2, NULL);
  shown = buffer_text (fixture->view);
  g_assert_cmpstr (shown, ==, "C     Grüße\n      END\n");
  g_assert_cmpint (sextant_source_view_get_line (fixture->view), ==, 2);

  /* the same file unchanged is not read again; changed, it is */
  first = source_buffer (fixture->view);
  show (fixture->view, file, 1, NULL);
  g_assert_true (source_buffer (fixture->view) == first);
  g_assert_cmpint (sextant_source_view_get_line (fixture->view), ==, 1);
  g_file_set_contents (file, "      PROGRAM P\n      END\n", -1, &error);
  g_assert_no_error (error);
  /* a time of its own, whatever the file system's resolution */
  info = g_file_info_new ();
  g_file_info_set_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED, 1000000000);
  g_file_set_attributes_from_info (gfile, info, G_FILE_QUERY_INFO_NONE, NULL, &error);
  g_object_unref (info);
  g_assert_no_error (error);
  show (fixture->view, file, 1, NULL);
  g_clear_pointer (&shown, g_free);
  shown = buffer_text (fixture->view);
  g_assert_cmpstr (shown, ==, "      PROGRAM P\n      END\n");
}

/* The widget as drawn, saved as @name in the build directory */
static guint8 *
render (SextantSourceView *view,
        const char        *name,
        int               *width,
        int               *height)
{
  guint8 *pixels = sextant_test_render (GTK_WIDGET (view), width, height);
  g_autoptr(GBytes) bytes = g_bytes_new_static (pixels, (gsize)*width * 4 * *height);
  g_autoptr(GdkTexture) texture = gdk_memory_texture_new (*width, *height, GDK_MEMORY_DEFAULT, bytes,
                                                          (gsize)*width * 4);
  g_autofree char *png = g_build_filename (g_getenv ("G_TEST_BUILDDIR") != NULL ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                           name, NULL);

  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("rendered to %s", png);

  return pixels;
}

static guint32
pixel (const guint8 *pixels,
       int           width,
       int           x,
       int           y)
{
  return *(const guint32 *)(pixels + ((gsize)y * width + x) * 4) & 0xffffff;
}

/* @line's (1-based) band in @view's coordinates: its top and bottom row,
 * and an x at three quarters of the text area, where a short line has no
 * text (and the overlay scroll bar is not) */
static void
line_band (SextantSourceView *view,
           int                line,
           int               *top,
           int               *bottom,
           int               *right)
{
  GtkTextView *text = GTK_TEXT_VIEW (sextant_source_view_get_source_view (view));
  GtkTextIter iter;
  GdkRectangle visible;
  int line_y, height, wx, wy;
  graphene_point_t point;

  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (text), &iter, line - 1);
  gtk_text_view_get_line_yrange (text, &iter, &line_y, &height);
  gtk_text_view_get_visible_rect (text, &visible);
  gtk_text_view_buffer_to_window_coords (text, GTK_TEXT_WINDOW_WIDGET, visible.x + visible.width * 3 / 4, line_y, &wx,
                                         &wy);
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (text), GTK_WIDGET (view), &GRAPHENE_POINT_INIT (wx, wy),
                                           &point));
  *top = (int)ceil (point.y);
  *bottom = (int)point.y + height - 1;
  *right = (int)point.x;
}

/* The columns the gutter draws the marks in, in @view's coordinates */
static void
marks_columns (SextantSourceView *view,
               int               *left,
               int               *right)
{
  GtkSourceView *source = sextant_source_view_get_source_view (view);
  GtkWidget *gutter = GTK_WIDGET (gtk_source_view_get_gutter (source, GTK_TEXT_WINDOW_LEFT));

  for (GtkWidget *child = gtk_widget_get_first_child (gutter); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      graphene_rect_t bounds;

      /* the marks' renderer draws icons */
      if (!GTK_SOURCE_IS_GUTTER_RENDERER_PIXBUF (child))
        continue;
      g_assert_true (gtk_widget_compute_bounds (child, GTK_WIDGET (view), &bounds));
      *left = (int)ceil (bounds.origin.x);
      *right = (int)(bounds.origin.x + bounds.size.width) - 1;
      return;
    }
  g_assert_not_reached ();
}

/* Pixels of rows @top to @bottom, columns @left to @right, that are not
 * @background */
static guint
count_not (const guint8 *pixels,
           int           width,
           int           left,
           int           right,
           int           top,
           int           bottom,
           guint32       background)
{
  guint count = 0;

  for (int y = top; y <= bottom; y++)
    for (int x = left; x <= right; x++)
      count += pixel (pixels, width, x, y) != background;

  return count;
}

static int
channel (guint32 rgb,
         int     shift)
{
  return (rgb >> shift) & 0xff;
}

static double
luminance (guint32 rgb)
{
  return (0.2126 * ((rgb >> 16) & 0xff) + 0.7152 * ((rgb >> 8) & 0xff) + 0.0722 * (rgb & 0xff)) / 255;
}

/* What the user sees of the marked line @line in @pixels, against the
 * line two below it (both short: the right of the text area is background):
 * a yellow band where the other line has the scheme's background, and an
 * icon in the gutter's marks column where the other line has none */
static void
check_marked (SextantSourceView *view,
              const guint8      *pixels,
              int                width,
              int                height,
              int                line)
{
  int top, bottom, right, other_top, other_bottom, left_mark, right_mark;
  guint32 marked, other, gutter;
  guint icon;

  line_band (view, line, &top, &bottom, &right);
  line_band (view, line + 2, &other_top, &other_bottom, &right);
  g_assert_cmpint (top, >=, 0);
  g_assert_cmpint (other_bottom, <, height);
  marked = pixel (pixels, width, right, (top + bottom) / 2);
  other = pixel (pixels, width, right, (other_top + other_bottom) / 2);
  marks_columns (view, &left_mark, &right_mark);
  gutter = pixel (pixels, width, left_mark, (other_top + other_bottom) / 2);
  icon = count_not (pixels, width, left_mark, right_mark, top, bottom, gutter);
  g_test_message ("line %d: %06x, line %d: %06x; marks' columns %d to %d: %u pixels of the icon", line, marked, line + 2,
                  other, left_mark, right_mark, icon);
  g_assert_cmpuint (marked, !=, other);
  g_assert_cmpint (channel (marked, 16), >, channel (marked, 0) + 20);   /* yellow: red and green over blue */
  g_assert_cmpint (channel (marked, 8), >, channel (marked, 0) + 20);
  g_assert_cmpuint (count_not (pixels, width, left_mark, right_mark, other_top, other_bottom, gutter), ==, 0);
  g_assert_cmpuint (icon, >, 10);
}

static void
test_render (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *file = write_c_source (fixture, "solver.c", 800, NULL);
  g_autofree guint8 *pixels = NULL;
  GtkSourceBuffer *buffer;
  int width, height, top, bottom, right;

  /* line 407 is "} (comment)" and 409 "(comment)": short lines */
  show (fixture->view, file, 407, "MPI Rank 3: late sender, 234.8 µs");
  buffer = source_buffer (fixture->view);
  assert_centred (fixture->view, 407);
  pixels = render (fixture->view, "source-view.png", &width, &height);
  check_marked (fixture->view, pixels, width, height, 407);
  line_band (fixture->view, 409, &top, &bottom, &right);
  g_assert_cmpfloat (luminance (pixel (pixels, width, right, (top + bottom) / 2)), >, 0.8);
  g_clear_pointer (&pixels, g_free);

  /* dark: the Adwaita-dark scheme, dark pixels, the line still marked */
  g_object_set (fixture->view, "dark", TRUE, NULL);
  g_assert_cmpstr (gtk_source_style_scheme_get_id (gtk_source_buffer_get_style_scheme (buffer)), ==, "Adwaita-dark");
  pixels = render (fixture->view, "source-view-dark.png", &width, &height);
  check_marked (fixture->view, pixels, width, height, 407);
  g_assert_cmpfloat (luminance (pixel (pixels, width, right, (top + bottom) / 2)), <, 0.3);
  g_object_set (fixture->view, "dark", FALSE, NULL);
  g_assert_cmpstr (gtk_source_style_scheme_get_id (gtk_source_buffer_get_style_scheme (buffer)), ==, "Adwaita");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_printerr ("no display: run under xvfb-run\n");
      return 1;
    }

#define ADD(path, func, data) \
  g_test_add ("/source-view/" path, Fixture, data, fixture_set_up, func, fixture_tear_down)
  ADD ("language", test_language, NULL);
  ADD ("mark", test_mark, NULL);
  ADD ("centred", test_centred, "not on screen at first");
  ADD ("roots", test_roots, NULL);
  ADD ("missing", test_missing, NULL);
  ADD ("second-show", test_second_show, NULL);
  ADD ("reread", test_reread, NULL);
  ADD ("render", test_render, NULL);
#undef ADD

  return g_test_run ();
}
