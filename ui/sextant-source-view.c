/*
 * sextant-source-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sextant-source-view.h"

struct _SextantSourceView
{
  GtkWidget    parent_instance;

  GtkWidget   *box;
  GtkWidget   *caption;
  GtkWidget   *text;
  GtkTextTag  *highlight;
  GtkTextMark *at;            /* the highlighted line */
  guint        scroll_tick;
  gint64       scroll_until;  /* monotonic time: the line is kept in view until then */
  char        *source_root;
  char        *path;
  gint64       line;
};

G_DEFINE_FINAL_TYPE (SextantSourceView, sextant_source_view, GTK_TYPE_WIDGET)

void
sextant_source_view_set_source_root (SextantSourceView *self,
                                     const char        *dir)
{
  g_return_if_fail (SEXTANT_IS_SOURCE_VIEW (self));

  g_free (self->source_root);
  self->source_root = g_strdup (dir);
}

/* @file's text from where the trace says, else from the source root */
static char *
read_source (SextantSourceView  *self,
             const char         *file,
             char              **found)
{
  char *text = NULL;

  if (g_file_get_contents (file, &text, NULL, NULL))
    {
      *found = g_strdup (file);
      return text;
    }
  if (self->source_root != NULL)
    {
      g_autofree char *base = g_path_get_basename (file);
      g_autofree char *moved = g_build_filename (self->source_root, base, NULL);

      if (g_file_get_contents (moved, &text, NULL, NULL))
        {
          *found = g_steal_pointer (&moved);
          return text;
        }
    }

  return NULL;
}

/* The view lays a new text out a screenful at a time, on idle, and until
 * it has, a line's place is an estimate that changes as it goes: for 3 s
 * after the text came, every frame puts the line at 0.4 of the height
 * again (the user scrolls it away after that) */
static gboolean
scroll_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       data)
{
  SextantSourceView *self = data;
  GtkTextView *text = GTK_TEXT_VIEW (self->text);
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (text));
  GtkTextIter iter;
  int y, height;
  double page, target;

  if (self->line <= 0 || vadjustment == NULL || g_get_monotonic_time () > self->scroll_until)
    {
      self->scroll_tick = 0;
      return G_SOURCE_REMOVE;
    }

  gtk_text_buffer_get_iter_at_mark (gtk_text_view_get_buffer (text), &iter, self->at);
  gtk_text_view_get_line_yrange (text, &iter, &y, &height);
  page = gtk_adjustment_get_page_size (vadjustment);
  target = CLAMP (y - 0.4 * page, 0, MAX (gtk_adjustment_get_upper (vadjustment) - page, 0));
  if (fabs (gtk_adjustment_get_value (vadjustment) - target) >= 1)
    gtk_adjustment_set_value (vadjustment, target);

  return G_SOURCE_CONTINUE;
}

void
sextant_source_view_show (SextantSourceView *self,
                          const char        *file,
                          gint64             line,
                          const char        *caption)
{
  GtkTextBuffer *buffer;
  g_autofree char *text = NULL;
  g_autofree char *found = NULL;
  g_autoptr(GString) title = g_string_new (NULL);

  g_return_if_fail (SEXTANT_IS_SOURCE_VIEW (self));

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text));
  g_clear_pointer (&self->path, g_free);
  self->line = 0;

  if (file != NULL)
    {
      g_string_append_printf (title, "<b>%s</b>", file);
      if (line > 0)
        g_string_append_printf (title, ":%" G_GINT64_FORMAT, line);
      text = read_source (self, file, &found);
      if (text == NULL || !g_utf8_validate (text, -1, NULL))
        g_string_append_printf (title, " - not found here%s",
                                self->source_root != NULL ? " nor in the source root"
                                                          : " (sextant open --source-root DIR looks in DIR)");
    }
  else
    g_string_append (title, "no source line");
  if (caption != NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (caption, -1);

      g_string_append_printf (title, "\n%s", escaped);
    }
  gtk_label_set_markup (GTK_LABEL (self->caption), title->str);

  if (text == NULL || !g_utf8_validate (text, -1, NULL))
    {
      gtk_text_buffer_set_text (buffer, "", -1);
      return;
    }

  gtk_text_buffer_set_text (buffer, text, -1);
  self->path = g_steal_pointer (&found);
  if (line > 0 && line <= gtk_text_buffer_get_line_count (buffer))
    {
      GtkTextIter start, end;

      self->line = line;
      gtk_text_buffer_get_iter_at_line (buffer, &start, (int)line - 1);
      end = start;
      gtk_text_iter_forward_line (&end);
      gtk_text_buffer_apply_tag (buffer, self->highlight, &start, &end);
      gtk_text_buffer_place_cursor (buffer, &start);
      gtk_text_buffer_move_mark (buffer, self->at, &start);
      self->scroll_until = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
      if (self->scroll_tick == 0)
        self->scroll_tick = gtk_widget_add_tick_callback (self->text, scroll_tick_cb, self, NULL);
    }
}

const char *
sextant_source_view_get_path (SextantSourceView *self)
{
  g_return_val_if_fail (SEXTANT_IS_SOURCE_VIEW (self), NULL);

  return self->path;
}

gint64
sextant_source_view_get_line (SextantSourceView *self)
{
  g_return_val_if_fail (SEXTANT_IS_SOURCE_VIEW (self), 0);

  return self->line;
}

GtkTextView *
sextant_source_view_get_text_view (SextantSourceView *self)
{
  g_return_val_if_fail (SEXTANT_IS_SOURCE_VIEW (self), NULL);

  return GTK_TEXT_VIEW (self->text);
}

static void
sextant_source_view_dispose (GObject *object)
{
  SextantSourceView *self = SEXTANT_SOURCE_VIEW (object);

  if (self->scroll_tick != 0)
    gtk_widget_remove_tick_callback (self->text, self->scroll_tick);
  self->scroll_tick = 0;
  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (sextant_source_view_parent_class)->dispose (object);
}

static void
sextant_source_view_finalize (GObject *object)
{
  SextantSourceView *self = SEXTANT_SOURCE_VIEW (object);

  g_free (self->source_root);
  g_free (self->path);

  G_OBJECT_CLASS (sextant_source_view_parent_class)->finalize (object);
}

static void
sextant_source_view_class_init (SextantSourceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sextant_source_view_dispose;
  object_class->finalize = sextant_source_view_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
sextant_source_view_init (SextantSourceView *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->caption = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->caption), 0);
  gtk_label_set_wrap (GTK_LABEL (self->caption), TRUE);
  gtk_label_set_selectable (GTK_LABEL (self->caption), TRUE);
  gtk_widget_set_margin_start (self->caption, 8);
  gtk_widget_set_margin_top (self->caption, 4);
  gtk_box_append (GTK_BOX (self->box), self->caption);

  self->text = gtk_text_view_new ();
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->text), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (self->text), TRUE);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (self->text), 8);
  self->highlight = gtk_text_buffer_create_tag (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text)), "highlight",
                                                "paragraph-background", "#fce94f", "weight", PANGO_WEIGHT_BOLD,
                                                NULL);
  {
    GtkTextIter start;

    gtk_text_buffer_get_start_iter (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text)), &start);
    self->at = gtk_text_buffer_create_mark (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text)), "line", &start,
                                            TRUE);
  }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->text);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (self->box), scrolled);
  sextant_source_view_show (self, NULL, 0, "Choose a pattern instance to see its source line.");
}

GtkWidget *
sextant_source_view_new (void)
{
  return g_object_new (SEXTANT_TYPE_SOURCE_VIEW, NULL);
}
