/*
 * sextant-window-dnd.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Dropping a trace on the window opens it: an OTF2 anchor file, the
 * archive's directory, or a trace store, from a file manager or anything
 * that drags a file list. More than one: the first here, each other in a
 * window of its own.
 */
#include "config.h"

#include "sextant-window-private.h"

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         SextantWindow *self)
{
  GSList *files;
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  gboolean first = TRUE;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  files = gdk_file_list_get_files (g_value_get_boxed (value));
  for (GSList *l = files; l != NULL; l = l->next)
    {
      g_autofree char *path = g_file_get_path (l->data);

      if (path == NULL)
        continue;
      if (first)
        sextant_window_open (self, path);
      else if (app != NULL)
        {
          SextantWindow *other = sextant_window_new (app);

          sextant_window_open (other, path);
          gtk_window_present (GTK_WINDOW (other));
        }
      first = FALSE;
    }
  g_slist_free (files);

  return !first;
}

void
_sextant_window_dnd_init (SextantWindow *self)
{
  GtkDropTarget *target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  g_signal_connect (target, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
}
