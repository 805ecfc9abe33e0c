/*
 * sextant-source-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A caption (GtkLabel) over a GtkSourceView in a GtkScrolledWindow. A
 * show() hands the file the trace names, the source folders and the file
 * shown now to a GTask thread, which finds the file (find_source), reads
 * it unless it is the one shown and unchanged (same etag), makes it UTF-8
 * and guesses its content type. Back on the main thread the text goes
 * into a new GtkSourceBuffer that no view shows yet, on idle, a chunk at a
 * time (nothing lays it out or highlights it while it grows, and frames
 * are drawn in between); then the view shows that buffer, with the
 * language GtkSourceLanguageManager picks from the name and content type,
 * the line gets a GtkSourceMark of the category "sextant-line" (a
 * background and a gutter icon) and the view centres it. A show() cancels
 * the one before, wherever it is.
 *
 * Finding and reading the file is in sextant-source-view-load.c, keeping
 * the line centred while the text is laid out in -centre.c; they share
 * sextant-source-view-private.h.
 */
#include "config.h"

#include <string.h>

#include "sextant-source-view-private.h"

/* the mark on the chosen line */
#define LINE_CATEGORY "sextant-line"
/* a new text goes into a buffer of its own, not shown yet (nothing lays
 * it out nor highlights it as it grows), INSERT_CHUNK bytes (about 2 ms)
 * at a time, on idle for INSERT_BUDGET µs of the main thread at a time,
 * so that frames are drawn in between: 8 MB take 350 ms */
#define INSERT_CHUNK (64 * 1024)
#define INSERT_BUDGET 8000

G_DEFINE_FINAL_TYPE (SextantSourceView, sextant_source_view, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

/* @text for Pango markup, whatever its bytes (paths from traces and file
 * systems need not be UTF-8) */
static char *
escape (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  return g_markup_escape_text (valid, -1);
}

/* The caption: @file:@line in bold, where it was found if not at the
 * recorded path (@found) or what went wrong (@problem), and the caller's
 * @caption */
static void
set_title (SextantSourceView *self,
           const char        *file,
           gint64             line,
           const char        *found,
           const char        *problem,
           const char        *caption)
{
  g_autoptr(GString) title = g_string_new (NULL);

  if (file != NULL)
    {
      g_autofree char *escaped = escape (file);

      g_string_append_printf (title, "<b>%s</b>", escaped);
      if (line > 0)
        g_string_append_printf (title, ":%" G_GINT64_FORMAT, line);
    }
  else
    g_string_append (title, "<i>no source line</i>");
  if (found != NULL && g_strcmp0 (found, file) != 0)
    {
      g_autofree char *escaped = escape (found);

      g_string_append_printf (title, " (found at %s)", escaped);
    }
  if (problem != NULL)
    {
      g_autofree char *escaped = escape (problem);

      g_string_append_printf (title, "\n%s", escaped);
    }
  if (caption != NULL && *caption != '\0')
    {
      g_autofree char *escaped = escape (caption);

      g_string_append_printf (title, "\n%s", escaped);
    }
  gtk_label_set_markup (GTK_LABEL (self->caption), title->str);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

static void
set_loaded (SextantSourceView *self,
            gboolean           loaded)
{
  if (self->loaded == loaded)
    return;
  self->loaded = loaded;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
}

static void
set_path (SextantSourceView *self,
          const char        *path)
{
  /* no file: no text area with a line 1 either */
  if (path == NULL)
    _sextant_source_view_end_scroll_animation (self);
  gtk_widget_set_visible (self->scrolled, path != NULL);
  if (g_strcmp0 (self->path, path) == 0)
    return;
  g_free (self->path);
  self->path = g_strdup (path);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PATH]);
}

/* The style scheme for a light or a dark style */
static GtkSourceStyleScheme *
style_scheme (SextantSourceView *self)
{
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (schemes, self->dark ? "Adwaita-dark"
                                                                                                 : "Adwaita");

  if (scheme == NULL)
    scheme = gtk_source_style_scheme_manager_get_scheme (schemes, self->dark ? "classic-dark" : "classic");

  return scheme;
}

/* A buffer for a text to read, not to edit */
static GtkSourceBuffer *
new_buffer (void)
{
  GtkSourceBuffer *buffer = gtk_source_buffer_new (NULL);

  gtk_text_buffer_set_enable_undo (GTK_TEXT_BUFFER (buffer), FALSE);
  gtk_source_buffer_set_highlight_matching_brackets (buffer, FALSE);

  return buffer;
}

static void
stop_inserting (SextantSourceView *self)
{
  g_clear_handle_id (&self->insert_source, g_source_remove);
  g_clear_pointer (&self->inserting, _sextant_source_view_loaded_free);
  g_clear_object (&self->filling);
}

/* The view shows @buffer (transfer full) in the style of the moment */
static void
show_buffer (SextantSourceView *self,
             GtkSourceBuffer   *buffer)
{
  int below = gtk_text_view_get_pixels_below_lines (GTK_TEXT_VIEW (self->view));
  GtkTextIter start;

  /* GTK 4.8's text layout keeps, across gtk_text_view_set_buffer(), the
   * cached displays of lines it never laid out (the cursor's, asked for by
   * the input method while the view is not on screen), and compares their
   * line numbers once their buffer is gone: "Gtk-ERROR: gtk_text_btree_
   * line_number couldn't find line", or a crash. A change of the default
   * style drops the cached display of every line of the buffer shown, so
   * one happens before that buffer goes. */
  gtk_text_view_set_pixels_below_lines (GTK_TEXT_VIEW (self->view), below + 1);
  gtk_text_view_set_pixels_below_lines (GTK_TEXT_VIEW (self->view), below);

  self->buffer = buffer;
  gtk_source_buffer_set_style_scheme (self->buffer, style_scheme (self));
  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (self->buffer), &start);
  gtk_text_buffer_place_cursor (GTK_TEXT_BUFFER (self->buffer), &start);
  gtk_text_view_set_buffer (GTK_TEXT_VIEW (self->view), GTK_TEXT_BUFFER (self->buffer));
  g_object_unref (self->buffer);
}

/* No text shown (an empty buffer: emptying a big one would take longer) */
static void
clear_text (SextantSourceView *self)
{
  stop_inserting (self);
  _sextant_source_view_stop_centring (self);
  show_buffer (self, new_buffer ());
  g_clear_pointer (&self->etag, g_free);
  set_path (self, NULL);
  if (self->line != 0)
    {
      self->line = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LINE]);
    }
}

/* The next INSERT_CHUNK bytes (up to a line break) of the text being
 * loaded to the end of the buffer being filled; FALSE when it is all there */
static gboolean
insert_chunk (SextantSourceView *self)
{
  const char *text = self->inserting->text + self->inserted;
  gsize n = self->inserting->length - self->inserted;
  GtkTextIter end;

  if (n > INSERT_CHUNK)
    {
      const char *cut = memrchr (text, '\n', INSERT_CHUNK);

      if (cut != NULL)
        n = cut + 1 - text;
      else
        {
          /* one long line: cut between two characters */
          for (n = INSERT_CHUNK; (text[n] & 0xc0) == 0x80; n--)
            ;
        }
    }
  gtk_text_buffer_get_end_iter (GTK_TEXT_BUFFER (self->filling), &end);
  gtk_text_buffer_insert (GTK_TEXT_BUFFER (self->filling), &end, text, (int)n);
  self->inserted += n;

  return self->inserted < self->inserting->length;
}

/* The number of lines of the text (a last line break ends the last line,
 * it does not start another) */
static int
count_lines (SextantSourceView *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  int count = gtk_text_buffer_get_line_count (buffer);
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  if (count > 1 && gtk_text_iter_starts_line (&end))
    count--;

  return count;
}

/* Marks @line (1-based; 0: none) and centres it; FALSE if the text has no
 * such line */
static gboolean
mark_line (SextantSourceView *self,
           gint64             line)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter start, end;
  GtkSourceMark *mark;
  gint64 old = self->line;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_source_buffer_remove_source_marks (self->buffer, &start, &end, LINE_CATEGORY);
  self->line = 0;
  _sextant_source_view_stop_centring (self);
  if (line > 0 && line <= count_lines (self))
    {
      self->line = line;
      gtk_text_buffer_get_iter_at_line (buffer, &start, (int)line - 1);
      mark = gtk_source_buffer_create_source_mark (self->buffer, NULL, LINE_CATEGORY, &start);
      gtk_text_buffer_place_cursor (buffer, &start);
      gtk_text_view_scroll_to_mark (GTK_TEXT_VIEW (self->view), GTK_TEXT_MARK (mark), 0, TRUE, 0, 0.5);
      _sextant_source_view_start_centring (self);
    }
  if (old != self->line)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LINE]);

  return line <= 0 || self->line == line;
}

/* Where a file that was not found was looked for */
static char *
describe_search (const char * const *roots)
{
  g_autoptr(GString) where = g_string_new ("Not found: looked at the path the trace names");

  if (roots == NULL || roots[0] == NULL)
    {
      g_string_append (where, ". Add the folder that holds the sources to the source folders.");
      return g_string_free (g_steal_pointer (&where), FALSE);
    }
  g_string_append (where, " and, for its trailing parts, under ");
  for (guint i = 0; roots[i] != NULL; i++)
    g_string_append_printf (where, "%s%s", i > 0 ? (roots[i + 1] != NULL ? ", " : " and ") : "", roots[i]);
  g_string_append_c (where, '.');

  return g_string_free (g_steal_pointer (&where), FALSE);
}

/* The file of the last show() is in the buffer: its line marked, the
 * caption says where it was found */
static void
show_loaded (SextantSourceView *self,
             const char        *path)
{
  g_autofree char *problem = NULL;

  if (!mark_line (self, self->pending_line))
    problem = g_strdup_printf ("The file has %d lines: it is not the one the trace was made with.",
                               count_lines (self));
  set_title (self, self->recorded, self->pending_line, path, problem, self->pending_caption);
  set_loaded (self, TRUE);
}

/* The whole text is in the buffer being filled: the view shows it */
static void
inserted (SextantSourceView *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  g_autoptr(Loaded) loaded = g_steal_pointer (&self->inserting);

  gtk_source_buffer_set_language (self->filling, gtk_source_language_manager_guess_language (
                                                   languages, loaded->path, loaded->content_type));
  _sextant_source_view_stop_centring (self);
  show_buffer (self, g_steal_pointer (&self->filling));
  g_free (self->etag);
  self->etag = g_steal_pointer (&loaded->etag);
  set_path (self, loaded->path);
  show_loaded (self, loaded->path);
}

static gboolean
insert_idle_cb (gpointer data)
{
  SextantSourceView *self = data;
  gint64 deadline = g_get_monotonic_time () + INSERT_BUDGET;

  while (insert_chunk (self))
    if (g_get_monotonic_time () >= deadline)
      return G_SOURCE_CONTINUE;
  self->insert_source = 0;
  inserted (self);

  return G_SOURCE_REMOVE;
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  SextantSourceView *self = SEXTANT_SOURCE_VIEW (object);
  Request *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(Loaded) loaded = g_task_propagate_pointer (G_TASK (result), &error);

  /* cancelled: a later show() (or dispose) took over */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->cancellable);

  if (loaded == NULL)
    {
      g_autofree char *problem = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND)
                                   ? describe_search ((const char * const *)request->roots)
                                   : g_strdup (error->message);

      clear_text (self);
      set_title (self, self->recorded, self->pending_line, NULL, problem, self->pending_caption);
      set_loaded (self, TRUE);
      return;
    }
  /* the file shown, unchanged */
  if (loaded->text == NULL)
    {
      show_loaded (self, loaded->path);
      return;
    }

  /* what is shown stays until the new text is all there */
  stop_inserting (self);
  self->inserting = g_steal_pointer (&loaded);
  self->filling = new_buffer ();
  self->inserted = 0;
  if (insert_chunk (self))
    self->insert_source = g_idle_add (insert_idle_cb, self);
  else
    inserted (self);
}

/**
 * sextant_source_view_show:
 * @self: a #SextantSourceView
 * @file: (nullable): the source file as the trace names it; %NULL: none
 * @line: the line to mark, 1-based; 0: none
 * @caption: (nullable): what to say under the file and line (where the
 *   instance is and what happened)
 *
 * Shows @line of @file, found where the trace says or under the source
 * folders, read only, marked and centred. The file is found and read in
 * a thread and its text goes into the view on idle, in pieces:
 * #SextantSourceView:loaded is %FALSE until it is all there (and
 * #SextantSourceView:path and #SextantSourceView:line describe what is
 * shown until then: nothing when @file is not the file shown, which goes
 * at once). A show() cancels the one before. The file shown, unchanged on
 * disk, is not read again. When the file is not found (or cannot be read)
 * the view is empty and the caption says where it looked; when it has no
 * such line, the file is shown with no line marked and the caption says
 * so.
 */
void
sextant_source_view_show (SextantSourceView *self,
                          const char        *file,
                          gint64             line,
                          const char        *caption)
{
  g_autoptr(GTask) task = NULL;
  Request *request;

  g_return_if_fail (SEXTANT_IS_SOURCE_VIEW (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_free (self->pending_caption);
  self->pending_caption = g_strdup (caption);
  self->pending_line = MAX (line, 0);
  set_title (self, file, line, NULL, NULL, caption);

  /* another file: the one shown goes now (its mark would mislead under
   * this caption); the same file keeps its text, which is most likely the
   * text to show */
  if (file == NULL || g_strcmp0 (file, self->recorded) != 0 || self->inserting != NULL)
    {
      clear_text (self);
      g_free (self->recorded);
      self->recorded = g_strdup (file);
    }
  if (file == NULL)
    {
      set_loaded (self, TRUE);
      return;
    }

  set_loaded (self, FALSE);
  self->cancellable = g_cancellable_new ();
  request = g_new0 (Request, 1);
  request->file = g_strdup (file);
  request->roots = g_strdupv (self->roots);
  request->shown_path = g_strdup (self->path);
  request->shown_etag = g_strdup (self->etag);
  task = g_task_new (self, self->cancellable, loaded_cb, NULL);
  g_task_set_source_tag (task, sextant_source_view_show);
  g_task_set_task_data (task, request, (GDestroyNotify)_sextant_source_view_request_free);
  g_task_run_in_thread (task, _sextant_source_view_load_thread);
}

/**
 * sextant_source_view_set_source_roots:
 * @self: a #SextantSourceView
 * @dirs: (nullable) (array zero-terminated=1): the folders to look for
 *   source files in, most preferred first; %NULL: none
 *
 * The source folders: where a file the trace names is looked for when it
 * is not at the recorded path. A file shown is not looked for again; one
 * that was not found is, at once (the user has just added its folder).
 */
void
sextant_source_view_set_source_roots (SextantSourceView  *self,
                                      const char * const *dirs)
{
  g_return_if_fail (SEXTANT_IS_SOURCE_VIEW (self));

  if ((const char * const *)self->roots == dirs ||
      (self->roots != NULL && dirs != NULL && g_strv_equal ((const char * const *)self->roots, dirs)))
    return;
  g_strfreev (self->roots);
  self->roots = g_strdupv ((char **)dirs);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCE_ROOTS]);

  if (self->recorded != NULL && self->path == NULL && self->inserting == NULL)
    {
      g_autofree char *file = g_strdup (self->recorded);
      g_autofree char *caption = g_strdup (self->pending_caption);

      sextant_source_view_show (self, file, self->pending_line, caption);
    }
}

/**
 * sextant_source_view_get_source_roots:
 * @self: a #SextantSourceView
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the
 *   source folders
 */
const char * const *
sextant_source_view_get_source_roots (SextantSourceView *self)
{
  g_return_val_if_fail (SEXTANT_IS_SOURCE_VIEW (self), NULL);

  return (const char * const *)self->roots;
}

/**
 * sextant_source_view_set_source_root:
 * @self: a #SextantSourceView
 * @dir: (nullable): the one source folder; %NULL: none
 *
 * sextant_source_view_set_source_roots() with one folder.
 */
void
sextant_source_view_set_source_root (SextantSourceView *self,
                                     const char        *dir)
{
  const char *dirs[] = { dir, NULL };

  sextant_source_view_set_source_roots (self, dir != NULL ? dirs : NULL);
}

/* The style scheme and the line's colour for a light or a dark style */
static void
apply_style (SextantSourceView *self)
{
  GtkSourceMarkAttributes *attributes;
  GdkRGBA background;
  int priority;

  gtk_source_buffer_set_style_scheme (self->buffer, style_scheme (self));

  /* Adwaita's yellow, see-through enough for the syntax colours to read */
  attributes = gtk_source_view_get_mark_attributes (self->view, LINE_CATEGORY, &priority);
  gdk_rgba_parse (&background, self->dark ? "rgba(245, 194, 17, 0.22)" : "rgba(246, 211, 45, 0.45)");
  gtk_source_mark_attributes_set_background (attributes, &background);
}

/**
 * sextant_source_view_set_dark:
 * @self: a #SextantSourceView
 * @dark: whether the application's style is dark
 *
 * Picks the style scheme ("Adwaita" or "Adwaita-dark") and the marked
 * line's colour. The window binds it to AdwStyleManager:dark or to
 * GtkSettings:gtk-application-prefer-dark-theme.
 */
void
sextant_source_view_set_dark (SextantSourceView *self,
                              gboolean           dark)
{
  g_return_if_fail (SEXTANT_IS_SOURCE_VIEW (self));

  dark = !!dark;
  if (self->dark == dark)
    return;
  self->dark = dark;
  apply_style (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
}

gboolean
sextant_source_view_get_dark (SextantSourceView *self)
{
  g_return_val_if_fail (SEXTANT_IS_SOURCE_VIEW (self), FALSE);

  return self->dark;
}

/**
 * sextant_source_view_get_loaded:
 * @self: a #SextantSourceView
 *
 * Returns: %TRUE when what the last show() asked for is shown (the file
 *   with its line, or the caption saying why not), %FALSE while the file
 *   is being found and read
 */
gboolean
sextant_source_view_get_loaded (SextantSourceView *self)
{
  g_return_val_if_fail (SEXTANT_IS_SOURCE_VIEW (self), FALSE);

  return self->loaded;
}

/**
 * sextant_source_view_get_path:
 * @self: a #SextantSourceView
 *
 * Returns: (nullable): where the file shown was found, or %NULL when no
 *   file is shown
 */
const char *
sextant_source_view_get_path (SextantSourceView *self)
{
  g_return_val_if_fail (SEXTANT_IS_SOURCE_VIEW (self), NULL);

  return self->path;
}

/**
 * sextant_source_view_get_line:
 * @self: a #SextantSourceView
 *
 * Returns: the marked line, 1-based, or 0 when none is
 */
gint64
sextant_source_view_get_line (SextantSourceView *self)
{
  g_return_val_if_fail (SEXTANT_IS_SOURCE_VIEW (self), 0);

  return self->line;
}

/**
 * sextant_source_view_get_title:
 * @self: a #SextantSourceView
 *
 * Returns: the caption's text as shown (without markup): the file and
 *   line, where it was found or looked for, and the caller's caption
 */
const char *
sextant_source_view_get_title (SextantSourceView *self)
{
  g_return_val_if_fail (SEXTANT_IS_SOURCE_VIEW (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->caption));
}

/**
 * sextant_source_view_get_source_view:
 * @self: a #SextantSourceView
 *
 * Returns: (transfer none): the GtkSourceView that shows the text. Its
 *   buffer is a #GtkSourceBuffer, a new one for each file read (and an
 *   empty one when none is shown): take it from the view when needed, do
 *   not keep it.
 */
GtkSourceView *
sextant_source_view_get_source_view (SextantSourceView *self)
{
  g_return_val_if_fail (SEXTANT_IS_SOURCE_VIEW (self), NULL);

  return self->view;
}

static void
sextant_source_view_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SextantSourceView *self = SEXTANT_SOURCE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SOURCE_ROOTS:
      g_value_set_boxed (value, self->roots);
      break;
    case PROP_DARK:
      g_value_set_boolean (value, self->dark);
      break;
    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_LINE:
      g_value_set_int64 (value, self->line);
      break;
    case PROP_TITLE:
      g_value_set_string (value, sextant_source_view_get_title (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_source_view_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SextantSourceView *self = SEXTANT_SOURCE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SOURCE_ROOTS:
      sextant_source_view_set_source_roots (self, g_value_get_boxed (value));
      break;
    case PROP_DARK:
      sextant_source_view_set_dark (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_source_view_unmap (GtkWidget *widget)
{
  _sextant_source_view_end_scroll_animation (SEXTANT_SOURCE_VIEW (widget));

  GTK_WIDGET_CLASS (sextant_source_view_parent_class)->unmap (widget);
}

static void
sextant_source_view_dispose (GObject *object)
{
  SextantSourceView *self = SEXTANT_SOURCE_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  stop_inserting (self);
  if (self->box != NULL)
    _sextant_source_view_stop_centring (self);
  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (sextant_source_view_parent_class)->dispose (object);
}

static void
sextant_source_view_finalize (GObject *object)
{
  SextantSourceView *self = SEXTANT_SOURCE_VIEW (object);

  g_strfreev (self->roots);
  g_free (self->recorded);
  g_free (self->path);
  g_free (self->etag);
  g_free (self->pending_caption);

  G_OBJECT_CLASS (sextant_source_view_parent_class)->finalize (object);
}

static void
sextant_source_view_class_init (SextantSourceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_source_init ();

  object_class->get_property = sextant_source_view_get_property;
  object_class->set_property = sextant_source_view_set_property;
  object_class->dispose = sextant_source_view_dispose;
  object_class->finalize = sextant_source_view_finalize;
  widget_class->unmap = sextant_source_view_unmap;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  /**
   * SextantSourceView:source-roots:
   *
   * The source folders (g_settings_bind() can bind an `as` key to it).
   */
  properties[PROP_SOURCE_ROOTS] =
    g_param_spec_boxed ("source-roots", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SextantSourceView:dark:
   *
   * Whether the application's style is dark (the style scheme follows).
   */
  properties[PROP_DARK] =
    g_param_spec_boolean ("dark", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SextantSourceView:loaded:
   *
   * %FALSE while the file of the last show() is being found and read.
   */
  properties[PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LINE] =
    g_param_spec_int64 ("line", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sextant_source_view_init (SextantSourceView *self)
{
  g_autoptr(GtkSourceMarkAttributes) attributes = gtk_source_mark_attributes_new ();
  GtkEventController *user = gtk_event_controller_legacy_new ();

  self->loaded = TRUE;
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->caption = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->caption), 0);
  gtk_label_set_wrap (GTK_LABEL (self->caption), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->caption), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (self->caption), TRUE);
  gtk_widget_set_margin_start (self->caption, 8);
  gtk_widget_set_margin_end (self->caption, 8);
  gtk_widget_set_margin_top (self->caption, 4);
  gtk_box_append (GTK_BOX (self->box), self->caption);

  self->buffer = new_buffer ();
  self->view = GTK_SOURCE_VIEW (gtk_source_view_new_with_buffer (self->buffer));
  g_object_unref (self->buffer);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->view), FALSE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (self->view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (self->view), TRUE);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (self->view), 4);
  gtk_source_view_set_show_line_numbers (self->view, TRUE);
  gtk_source_view_set_show_line_marks (self->view, TRUE);
  gtk_source_view_set_highlight_current_line (self->view, FALSE);
  gtk_source_mark_attributes_set_icon_name (attributes, "go-next-symbolic");
  gtk_source_view_set_mark_attributes (self->view, LINE_CATEGORY, attributes, 10);
  apply_style (self);

  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (self->scrolled, TRUE);
  /* the scroll bars' events too */
  gtk_event_controller_set_propagation_phase (user, GTK_PHASE_CAPTURE);
  g_signal_connect (user, "event", G_CALLBACK (_sextant_source_view_user_event_cb), self);
  gtk_widget_add_controller (self->scrolled, user);
  gtk_box_append (GTK_BOX (self->box), self->scrolled);
  sextant_source_view_show (self, NULL, 0, "Choose a pattern instance to see its source line.");
}

/**
 * sextant_source_view_new:
 *
 * Returns: (transfer floating): a source view showing no file
 */
GtkWidget *
sextant_source_view_new (void)
{
  return g_object_new (SEXTANT_TYPE_SOURCE_VIEW, NULL);
}
