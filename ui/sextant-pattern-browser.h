/*
 * sextant-pattern-browser.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The patterns found in a trace, worst first, and the worst instances of
 * the one chosen (up to 1000), each with the time it lost, its location
 * and its source line. Choosing an instance (selecting its row, or Enter
 * on it) emits "instance-activated": the window then shows it on the
 * timeline and its source line. A store that has not been analysed is analysed
 * when it is set (the built-in catalogue and the user's patterns, as
 * `sextant analyze` does), on a worker thread; "analysed" says when that
 * has written the instances.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* One pattern instance, as "instance-activated" passes it */
typedef struct
{
  gint64  id;
  gint64  severity;     /* ticks lost */
  gint64  loc;          /* location.id */
  gint64  peer_loc;     /* the one that made it wait, or SEXTANT_NULL */
  gint64  begin;        /* ticks */
  gint64  end;
  char   *file;         /* nullable */
  gint64  line;
  char   *comment;
  char   *callpath;
  char   *location;     /* its label */
} SextantInstanceInfo;

#define SEXTANT_TYPE_PATTERN_BROWSER (sextant_pattern_browser_get_type ())
G_DECLARE_FINAL_TYPE (SextantPatternBrowser, sextant_pattern_browser, SEXTANT, PATTERN_BROWSER, GtkWidget)

GtkWidget *sextant_pattern_browser_new           (void);
void       sextant_pattern_browser_set_store     (SextantPatternBrowser *self,
                                                  const char            *db_path);
/* The patterns listed (the "ready" property: TRUE once they are, and once
 * the chosen pattern's instances are) */
gboolean   sextant_pattern_browser_get_ready     (SextantPatternBrowser *self);
guint      sextant_pattern_browser_get_n_patterns (SextantPatternBrowser *self);
const char *sextant_pattern_browser_get_pattern_id (SextantPatternBrowser *self,
                                                   guint                  index);
/* Chooses the @index-th pattern; its instances load on a worker thread */
void       sextant_pattern_browser_select        (SextantPatternBrowser *self,
                                                  guint                  index);
GListModel *sextant_pattern_browser_get_instances (SextantPatternBrowser *self);
/* Activates the @index-th instance of the chosen pattern */
void       sextant_pattern_browser_activate      (SextantPatternBrowser *self,
                                                  guint                  index);
const SextantInstanceInfo *sextant_instance_item_get_info (GObject *item);

G_END_DECLS
