/*
 * sextant-source-view-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the files of SextantSourceView: sextant-source-view.c (the
 * widget, showing a file's text and marking its line), -load.c (finding
 * and reading the file on a GTask thread) and -centre.c (keeping the line
 * centred while the text is laid out).
 */
#pragma once

#include <gtksourceview/gtksource.h>

#include "sextant-source-view.h"

G_BEGIN_DECLS

struct _SextantSourceView
{
  GtkWidget        parent_instance;

  /* Children (the widget tree owns them) */
  GtkWidget       *box;
  GtkWidget       *caption;
  GtkWidget       *scrolled;       /* the view's; hidden when no file is shown */
  GtkSourceView   *view;
  GtkSourceBuffer *buffer;         /* the view's: the text shown */

  /* Owned */
  GCancellable    *cancellable;    /* the load under way; NULL when none */
  GStrv            roots;          /* the source folders, NULL-terminated; NULL: none */
  char            *recorded;       /* the file as the trace names it, as last shown */
  char            *path;           /* where it was found: the text in the buffer; NULL: none */
  char            *etag;           /* path's when it was read */
  char            *pending_caption; /* the caller's caption for the load under way */
  struct Loaded   *inserting;      /* the text going into filling; NULL when none */
  GtkSourceBuffer *filling;        /* the buffer it goes into, shown once it is all there */
  gsize            inserted;       /* its bytes in filling */
  guint            insert_source;  /* the idle that inserts the rest */
  gint64           pending_line;   /* the line for the load under way (1-based) */
  gint64           line;           /* the marked line, 1-based; 0: none */
  guint            centre_tick;    /* the tick callback centring the line; 0: none */
  guint            centre_frames;  /* frames it has run */
  guint            centre_stable;  /* frames in a row it changed nothing, nor did the layout */
  double           centre_upper;   /* the adjustment's upper at the last frame */
  gboolean         dark;
  gboolean         loaded;
};

enum
{
  PROP_0,
  PROP_SOURCE_ROOTS,
  PROP_DARK,
  PROP_LOADED,
  PROP_PATH,
  PROP_LINE,
  PROP_TITLE,
  N_PROPS
};

/* What the thread is asked: owned by the task */
typedef struct
{
  char  *file;
  GStrv  roots;
  char  *shown_path;     /* the file shown now and its etag: not read again if unchanged */
  char  *shown_etag;
} Request;

/* What it found */
typedef struct Loaded
{
  char  *path;
  char  *etag;
  char  *text;           /* UTF-8; NULL: the file shown, unchanged */
  gsize  length;         /* text's bytes */
  char  *content_type;
} Loaded;

/* In sextant-source-view-load.c */
void      _sextant_source_view_request_free  (Request   *request);
void      _sextant_source_view_loaded_free   (Loaded    *loaded);
void      _sextant_source_view_load_thread   (GTask        *task,
                                              gpointer      source_object,
                                              gpointer      task_data,
                                              GCancellable *cancellable);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Loaded, _sextant_source_view_loaded_free)

/* In sextant-source-view-centre.c */
void      _sextant_source_view_end_scroll_animation (SextantSourceView *self);
void      _sextant_source_view_stop_centring        (SextantSourceView *self);
void      _sextant_source_view_start_centring       (SextantSourceView *self);
gboolean  _sextant_source_view_user_event_cb        (GtkEventControllerLegacy *controller,
                                                     GdkEvent                 *event,
                                                     SextantSourceView        *self);

G_END_DECLS
