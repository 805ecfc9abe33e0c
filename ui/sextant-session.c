/*
 * sextant-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loading runs on one worker thread: the import (when the path is an
 * archive), then the few reads every view needs (a few thousand rows at
 * most: one per location and region). The import reports its progress on
 * its own thread; the session keeps the last fraction under a lock and
 * notifies "progress" from an idle on the main thread, at most once per
 * main-loop iteration however often the importer calls.
 *
 * An analysis is SextantAnalysis's async pair on a connection opened for
 * it; when it has written its instances, the generation counts up and the
 * views read again.
 */
#include "config.h"

#include <math.h>

#include "sextant-analysis.h"
#include "sextant-importer.h"
#include "sextant-store-shards.h"
#include "sextant-session.h"

/* The narrowest view, in ticks: about a tick a pixel on a small window */
#define MIN_VIEW_TICKS 200
/* Zoom history: the most steps kept back, and the pause (µs, monotonic)
 * after which a continuous change (wheel, drag, pan) starts a new step */
#define MAX_HISTORY 100
#define GESTURE_GAP_US G_USEC_PER_SEC

/* A view kept in the zoom history */
typedef struct
{
  gint64 begin;
  gint64 end;
} View;

/* How a change of the view counts in the history */
typedef enum
{
  CHANGE_GESTURE,   /* continuous: one step per gesture */
  CHANGE_JUMP,      /* one step */
  CHANGE_HISTORY,   /* going back or forward: no step */
} ChangeKind;

/* How far an import or an analysis is: set on its thread, read and
 * notified on the main thread */
typedef struct
{
  double  value;     /* 0..1 */
  guint   idle;      /* the idle that notifies it, 0: none pending */
  guint   prop_id;
} Fraction;

struct _SextantSession
{
  GObject               parent_instance;

  char                 *path;           /* what the user opened */
  char                 *title;
  char                 *db_path;        /* NULL until loaded */

  /* Loaded once (main thread, read-only after) */
  gboolean              loaded;
  GPtrArray            *locations;      /* SextantLocationInfo, by location.id */
  GHashTable           *regions;        /* region.id (gint64 *) -> name */
  SextantTimeSpan       span;           /* end exclusive here */
  SextantAnalysisScope  scope;
  guint                 n_shards;       /* a parallel import's manifest: its shards; else 0 */

  /* Loading and analysing */
  gboolean              importing;
  gboolean              analysing;
  GMutex                lock;           /* guards the two Fractions */
  Fraction              progress;       /* of the import */
  Fraction              analysis_progress;
  guint                 generation;

  /* The view and the choice */
  gint64                view_begin;
  gint64                view_end;
  double                wanted_from;    /* seconds: a view asked for before the load */
  double                wanted_to;
  SextantInstance      *instance;
  char                 *collective;     /* a collective id (sextant-comm-tree.h), or NULL */
  gint64                selection_loc;  /* SEXTANT_NULL: nothing selected */
  gint64                selection_time;
  SextantPairFilter    *pair_filter;    /* NULL: every message */
  SextantItem          *item;           /* the clicked item; NULL: none */

  /* The zoom history: the views before (oldest first) and after (the
   * next one last) the one shown */
  GArray               *back;           /* View */
  GArray               *forward;        /* View */
  gboolean              in_gesture;     /* the last change was continuous */
  gint64                last_change;    /* g_get_monotonic_time() of it */
  gint64              (*clock) (void);  /* g_get_monotonic_time, or a test's */
};

G_DEFINE_FINAL_TYPE (SextantSession, sextant_session, G_TYPE_OBJECT)

static void clear_history (SextantSession *self);
static void change_view   (SextantSession *self,
                           gint64          begin,
                           gint64          end,
                           ChangeKind      kind);

enum
{
  PROP_0,
  PROP_PATH,
  PROP_TITLE,
  PROP_LOADED,
  PROP_IMPORTING,
  PROP_PROGRESS,
  PROP_ANALYSING,
  PROP_ANALYSIS_PROGRESS,
  PROP_GENERATION,
  PROP_VIEW_BEGIN,
  PROP_VIEW_END,
  PROP_INSTANCE,
  PROP_COLLECTIVE,
  PROP_SELECTION_LOC,
  PROP_SELECTION_TIME,
  PROP_PAIR_FILTER,
  PROP_ITEM,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/**
 * sextant_session_dup_title_for_path:
 * @path: an archive (anchor file or directory) or a trace store
 *
 * Returns: (transfer full): the name a person knows the trace by: the
 * archive's directory for "…/casita/traces.otf2" and for the store
 * "…/casita/traces.otf2.sextant.db" beside it, else the file's name
 * without ".sextant.db" and ".otf2".
 */
char *
sextant_session_dup_title_for_path (const char *path)
{
  g_autofree char *name = g_path_get_basename (path);

  g_return_val_if_fail (path != NULL, NULL);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return g_steal_pointer (&name);
  if (g_str_has_suffix (name, ".sextant.db"))
    name[strlen (name) - strlen (".sextant.db")] = '\0';
  if (g_str_has_suffix (name, ".otf2"))
    name[strlen (name) - strlen (".otf2")] = '\0';
  /* the anchor's usual name says nothing: its directory does */
  if (g_str_equal (name, "traces") || name[0] == '\0')
    {
      g_autofree char *dir = g_path_get_dirname (path);
      g_autofree char *parent = g_path_get_basename (dir);

      if (!g_str_equal (parent, ".") && !g_str_equal (parent, G_DIR_SEPARATOR_S))
        return g_steal_pointer (&parent);
    }

  return g_steal_pointer (&name);
}

SextantSession *
sextant_session_new (const char *path)
{
  g_return_val_if_fail (path != NULL, NULL);

  return g_object_new (SEXTANT_TYPE_SESSION, "path", path, NULL);
}

const char *
sextant_session_get_path (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return self->path;
}

const char *
sextant_session_get_title (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return self->title;
}

/* Loading -------------------------------------------------------------------- */

typedef struct
{
  char                 *db_path;
  GPtrArray            *locations;
  GHashTable           *regions;
  SextantTimeSpan       span;
  SextantAnalysisScope  scope;
  guint                 n_shards;
} Loaded;

static void
loaded_free (Loaded *loaded)
{
  g_free (loaded->db_path);
  g_clear_pointer (&loaded->locations, g_ptr_array_unref);
  g_clear_pointer (&loaded->regions, g_hash_table_unref);
  sextant_analysis_scope_clear (&loaded->scope);
  g_free (loaded);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Loaded, loaded_free)

typedef struct
{
  SextantSession *self;
  Fraction       *fraction;
} FractionNotify;

static gboolean
notify_fraction_cb (gpointer user_data)
{
  FractionNotify *notify = user_data;
  guint prop_id;

  g_mutex_lock (&notify->self->lock);
  notify->fraction->idle = 0;
  prop_id = notify->fraction->prop_id;
  g_mutex_unlock (&notify->self->lock);
  g_object_notify_by_pspec (G_OBJECT (notify->self), properties[prop_id]);

  return G_SOURCE_REMOVE;
}

static void
fraction_notify_free (gpointer data)
{
  FractionNotify *notify = data;

  g_object_unref (notify->self);
  g_free (notify);
}

/* On any thread: the property follows, notified from an idle on the main
 * thread (one per main-loop iteration, however often this is called) */
static void
fraction_set (SextantSession *self,
              Fraction       *fraction,
              double          value)
{
  g_mutex_lock (&self->lock);
  fraction->value = CLAMP (value, 0.0, 1.0);
  if (fraction->idle == 0)
    {
      FractionNotify *notify = g_new (FractionNotify, 1);

      notify->self = g_object_ref (self);
      notify->fraction = fraction;
      fraction->idle = g_idle_add_full (G_PRIORITY_DEFAULT, notify_fraction_cb, notify, fraction_notify_free);
    }
  g_mutex_unlock (&self->lock);
}

static double
fraction_get (SextantSession *self,
              Fraction       *fraction)
{
  double value;

  g_mutex_lock (&self->lock);
  value = fraction->value;
  g_mutex_unlock (&self->lock);

  return value;
}

/* On the import's thread */
static void
import_progress (double   fraction,
                 double   events_per_second,
                 gpointer user_data)
{
  SextantSession *self = user_data;

  fraction_set (self, &self->progress, fraction);
}

static void
load_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SextantSession *self = source_object;
  g_autoptr(Loaded) loaded = g_new0 (Loaded, 1);
  g_autoptr(SextantStore) store = NULL;
  GError *error = NULL;

  if (sextant_path_is_store (self->path))
    loaded->db_path = g_strdup (self->path);
  else
    {
      g_autoptr(SextantImporter) importer = sextant_importer_new (self->path, NULL);

      sextant_importer_set_progress_func (importer, import_progress, self, NULL);
      if (!sextant_importer_run (importer, cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      loaded->db_path = g_strdup (sextant_importer_get_db_path (importer));
    }

  if (!(store = sextant_store_open (loaded->db_path, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  sextant_store_set_cancellable (store, cancellable);
  if (!(loaded->locations = sextant_store_list_locations (store, &error)) ||
      !(loaded->regions = sextant_store_read_region_names (store, &error)) ||
      !sextant_store_get_time_span (store, &loaded->span, &error) ||
      !sextant_store_get_analysis_scope (store, &loaded->scope, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  sextant_store_set_cancellable (store, NULL);
  loaded->n_shards = sextant_store_get_n_shards (store);

  g_task_return_pointer (task, g_steal_pointer (&loaded), (GDestroyNotify)loaded_free);
}

static void
set_importing (SextantSession *self,
               gboolean        importing)
{
  if (self->importing == importing)
    return;

  self->importing = importing;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IMPORTING]);
}

/**
 * sextant_session_load_async:
 *
 * Imports the session's archive (or takes its store), then reads what the
 * views need. The "importing" and "progress" properties follow the
 * import; cancelling @cancellable stops it and leaves no store behind.
 * Call once.
 */
void
sextant_session_load_async (SextantSession      *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SEXTANT_IS_SESSION (self));
  g_return_if_fail (!self->loaded && self->db_path == NULL);

  set_importing (self, !sextant_path_is_store (self->path));
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sextant_session_load_async);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, load_worker);
}

/**
 * sextant_session_load_finish:
 *
 * Returns: %TRUE when the session is loaded; else %FALSE with @error set
 * (G_IO_ERROR_CANCELLED when it was cancelled), and the session is of no
 * further use.
 */
gboolean
sextant_session_load_finish (SextantSession  *self,
                             GAsyncResult    *result,
                             GError         **error)
{
  g_autoptr(Loaded) loaded = NULL;

  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  set_importing (self, FALSE);
  if (!(loaded = g_task_propagate_pointer (G_TASK (result), error)))
    return FALSE;

  self->db_path = g_steal_pointer (&loaded->db_path);
  self->locations = g_steal_pointer (&loaded->locations);
  self->regions = g_steal_pointer (&loaded->regions);
  self->span = loaded->span;
  /* exclusive, and never empty */
  self->span.end = MAX (self->span.end, self->span.begin) + 1;
  self->span.resolution = MAX (self->span.resolution, 1);
  self->scope = loaded->scope;
  memset (&loaded->scope, 0, sizeof loaded->scope);
  self->n_shards = loaded->n_shards;

  self->loaded = TRUE;
  self->view_begin = self->span.begin;
  self->view_end = self->span.end;
  g_object_freeze_notify (G_OBJECT (self));
  sextant_session_set_item (self, NULL);
  clear_history (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
  g_object_thaw_notify (G_OBJECT (self));
  if (self->wanted_to > self->wanted_from)
    {
      double res = (double)sextant_session_get_resolution (self);

      change_view (self, self->span.begin + (gint64)llround (self->wanted_from * res),
                   self->span.begin + (gint64)llround (self->wanted_to * res), CHANGE_HISTORY);
      self->wanted_from = self->wanted_to = 0;
    }
  if (self->view_begin == self->span.begin && self->view_end == self->span.end)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW_BEGIN]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW_END]);
    }

  return TRUE;
}

gboolean
sextant_session_get_loaded (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return self->loaded;
}

gboolean
sextant_session_get_importing (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return self->importing;
}

/* The import's fraction done, 0..1 */
double
sextant_session_get_progress (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return fraction_get (self, &self->progress);
}

/* The store, its content and what every view needs ---------------------------- */

/* NULL until loaded */
const char *
sextant_session_get_db_path (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return self->db_path;
}

/**
 * sextant_session_open_store:
 *
 * A connection of its own to the session's store, for a view's worker.
 * Any thread may call this once the session is loaded; the connection is
 * then used by one thread at a time. A connection keeps what it read of
 * the column tables, so a view takes a new one when the generation
 * changes. A parallel import's manifest, whose shards the load checked,
 * opens without that check: an analysis (the window's or `sextant
 * analyze`) changes its shards before it records them anew, and the
 * views read on meanwhile.
 *
 * Returns: (transfer full): the store, or %NULL with @error set
 */
SextantStore *
sextant_session_open_store (SextantSession  *self,
                            GError         **error)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);
  g_return_val_if_fail (self->db_path != NULL, NULL);

  return self->n_shards > 0 ? sextant_store_open_unchecked (self->db_path, error)
                            : sextant_store_open (self->db_path, error);
}

/* Counts up each time an analysis has written new instances */
guint
sextant_session_get_generation (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return self->generation;
}

/**
 * sextant_session_get_locations:
 *
 * Returns: (transfer none) (element-type SextantLocationInfo): every
 * location, by id; %NULL until loaded
 */
GPtrArray *
sextant_session_get_locations (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return self->locations;
}

/* Returns: (transfer none): region.id (gint64 *) -> name; NULL until loaded */
GHashTable *
sextant_session_get_region_names (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return self->regions;
}

gint64
sextant_session_get_time_begin (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return self->span.begin;
}

/* The run's end, exclusive */
gint64
sextant_session_get_time_end (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return self->span.end;
}

gint64
sextant_session_get_resolution (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 1);

  return MAX (self->span.resolution, 1);
}

/* Analysis ------------------------------------------------------------------- */

typedef struct
{
  SextantStore    *store;
  SextantAnalysis *analysis;
} Analysing;

static void
analysing_free (Analysing *analysing)
{
  g_clear_object (&analysing->analysis);
  g_clear_object (&analysing->store);
  g_free (analysing);
}

/* On the analysis's thread */
static void
analysis_progress (double      fraction,
                   const char *pattern_id,
                   gpointer    user_data)
{
  SextantSession *self = user_data;

  fraction_set (self, &self->analysis_progress, fraction);
}

static void
set_analysing (SextantSession *self,
               gboolean        analysing)
{
  if (self->analysing == analysing)
    return;

  self->analysing = analysing;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANALYSIS_PROGRESS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANALYSING]);
}

static void
analysed_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SextantSession *self = g_task_get_source_object (task);
  Analysing *analysing = g_task_get_task_data (task);
  SextantAnalysisScope scope = { 0 };
  GError *error = NULL;

  sextant_store_set_cancellable (analysing->store, NULL);
  if (!sextant_analysis_run_finish (analysing->analysis, result, &error) ||
      !sextant_store_get_analysis_scope (analysing->store, &scope, &error))
    {
      set_analysing (self, FALSE);
      g_task_return_error (task, error);
      return;
    }

  /* the new content first, then the end of the analysis: a view that
   * waits for the end reads the store once, with the new instances */
  sextant_analysis_scope_clear (&self->scope);
  self->scope = scope;
  self->generation++;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GENERATION]);
  set_analysing (self, FALSE);
  g_task_return_boolean (task, TRUE);
}

/**
 * sextant_session_analyse_async:
 * @patterns: (nullable): the ids of the patterns to run; %NULL: all, the
 *   built-in catalogue and the user's
 * @parameters: (nullable): overrides, "name=value" or "pattern.name=value"
 *
 * Replaces the store's analysis with a new one. While it runs,
 * "analysing" is %TRUE and "analysis-progress" follows it; when its
 * instances are written, "generation" counts up. A failed or cancelled
 * analysis leaves the previous one in place.
 */
void
sextant_session_analyse_async (SextantSession      *self,
                               const char * const  *patterns,
                               const char * const  *parameters,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(SextantPatternSet) set = NULL;
  Analysing *analysing;
  GError *error = NULL;

  g_return_if_fail (SEXTANT_IS_SESSION (self));
  g_return_if_fail (self->loaded);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sextant_session_analyse_async);
  if (self->analysing)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING, "An analysis of this trace is running");
      return;
    }

  analysing = g_new0 (Analysing, 1);
  g_task_set_task_data (task, analysing, (GDestroyNotify)analysing_free);
  if (!(set = sextant_pattern_set_new_default (&error)) ||
      !(analysing->store = sextant_store_open (self->db_path, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  analysing->analysis = sextant_analysis_new (analysing->store, set);
  for (guint i = 0; patterns != NULL && patterns[i] != NULL; i++)
    if (!sextant_analysis_select (analysing->analysis, patterns[i], &error))
      {
        g_task_return_error (task, error);
        return;
      }
  for (guint i = 0; parameters != NULL && parameters[i] != NULL; i++)
    if (!sextant_analysis_set_param (analysing->analysis, parameters[i], &error))
      {
        g_task_return_error (task, error);
        return;
      }

  fraction_set (self, &self->analysis_progress, 0);
  set_analysing (self, TRUE);
  sextant_store_set_cancellable (analysing->store, cancellable);
  sextant_analysis_set_progress_func (analysing->analysis, analysis_progress, g_object_ref (self), g_object_unref);
  sextant_analysis_run_async (analysing->analysis, cancellable, analysed_cb, g_steal_pointer (&task));
}

gboolean
sextant_session_analyse_finish (SextantSession  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sextant_session_get_analysing (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return self->analysing;
}

double
sextant_session_get_analysis_progress (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return fraction_get (self, &self->analysis_progress);
}

/* Returns: (transfer none): what the store's analysis ran ("analysed" FALSE: none yet) */
const SextantAnalysisScope *
sextant_session_get_analysis_scope (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return &self->scope;
}

/* The shards of a parallel import's manifest (read as one trace); 0 for a store */
guint
sextant_session_get_n_shards (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return self->n_shards;
}

/* The view ------------------------------------------------------------------- */

gint64
sextant_session_get_view_begin (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return self->view_begin;
}

/* Exclusive */
gint64
sextant_session_get_view_end (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return self->view_end;
}

/* The zoom history ------------------------------------------------------------ */

static void
update_can_go (SextantSession *self,
               gboolean        could_go_back,
               gboolean        could_go_forward)
{
  if (could_go_back != (self->back->len > 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  if (could_go_forward != (self->forward->len > 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
}

static void
clear_history (SextantSession *self)
{
  gboolean back = self->back->len > 0;
  gboolean forward = self->forward->len > 0;

  g_array_set_size (self->back, 0);
  g_array_set_size (self->forward, 0);
  self->in_gesture = FALSE;
  update_can_go (self, back, forward);
}

/* The view shown becomes a step back; the steps ahead are dropped */
static void
record_step (SextantSession *self)
{
  View shown = { self->view_begin, self->view_end };
  gboolean back = self->back->len > 0;
  gboolean forward = self->forward->len > 0;

  if (self->back->len >= MAX_HISTORY)
    g_array_remove_range (self->back, 0, self->back->len - MAX_HISTORY + 1);
  g_array_append_val (self->back, shown);
  g_array_set_size (self->forward, 0);
  update_can_go (self, back, forward);
}

/* [@begin, @end) moved and widened as needed to lie in the run and be at
 * least MIN_VIEW_TICKS wide */
static void
clamp_view (SextantSession *self,
            gint64         *begin,
            gint64         *end)
{
  gint64 span = self->span.end - self->span.begin;
  gint64 width = MIN (MAX (*end - *begin, MIN (span, MIN_VIEW_TICKS)), span);

  *begin = CLAMP (*begin, self->span.begin, self->span.end - width);
  *end = *begin + width;
}

/* Shows [@begin, @end) (clamped), recording the view shown before as
 * @kind says: a jump is a step; a gesture is one when it starts, that is
 * when the change before it was not a gesture or came GESTURE_GAP_US ago
 * or more */
static void
change_view (SextantSession *self,
             gint64          begin,
             gint64          end,
             ChangeKind      kind)
{
  gint64 now;

  if (!self->loaded)
    return;

  clamp_view (self, &begin, &end);
  if (begin == self->view_begin && end == self->view_end)
    return;

  now = self->clock ();
  g_object_freeze_notify (G_OBJECT (self));
  if (kind == CHANGE_JUMP ||
      (kind == CHANGE_GESTURE && (!self->in_gesture || now - self->last_change >= GESTURE_GAP_US)))
    record_step (self);
  self->in_gesture = kind == CHANGE_GESTURE;
  self->last_change = now;
  if (begin != self->view_begin)
    {
      self->view_begin = begin;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW_BEGIN]);
    }
  if (end != self->view_end)
    {
      self->view_end = end;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW_END]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/* From @from (back or forward) to the view it keeps last, the view shown
 * going onto @to */
static gboolean
go (SextantSession *self,
    GArray         *from,
    GArray         *to)
{
  View shown = { self->view_begin, self->view_end };
  gboolean back = self->back->len > 0;
  gboolean forward = self->forward->len > 0;
  View step;

  if (from->len == 0)
    return FALSE;

  step = g_array_index (from, View, from->len - 1);
  g_object_freeze_notify (G_OBJECT (self));
  g_array_set_size (from, from->len - 1);
  g_array_append_val (to, shown);
  update_can_go (self, back, forward);
  change_view (self, step.begin, step.end, CHANGE_HISTORY);
  g_object_thaw_notify (G_OBJECT (self));

  return TRUE;
}

/**
 * sextant_session_go_back:
 *
 * Shows the view before the last step of the zoom history (Alt+Left), as
 * a browser's Back: the view shown becomes the first step forward.
 *
 * Returns: %TRUE when there was a step back
 */
gboolean
sextant_session_go_back (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return go (self, self->back, self->forward);
}

/**
 * sextant_session_go_forward:
 *
 * Shows the view the last sextant_session_go_back() left (Alt+Right).
 *
 * Returns: %TRUE when there was a step forward
 */
gboolean
sextant_session_go_forward (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return go (self, self->forward, self->back);
}

gboolean
sextant_session_get_can_go_back (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return self->back->len > 0;
}

gboolean
sextant_session_get_can_go_forward (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return self->forward->len > 0;
}

/* For the tests: the clock the history measures gestures' pauses with
 * (g_get_monotonic_time() when @clock is NULL) */
void
_sextant_session_set_clock (SextantSession  *self,
                            gint64         (*clock) (void))
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));

  self->clock = clock != NULL ? clock : g_get_monotonic_time;
}

/* The view ------------------------------------------------------------------- */

/**
 * sextant_session_set_view:
 *
 * Shows [@begin, @end) in ticks, moved and widened as needed to lie in the
 * run and be at least MIN_VIEW_TICKS wide. Before the session is loaded,
 * nothing happens. A continuous change (a drag): calls a second or less
 * apart make one step of the zoom history.
 */
void
sextant_session_set_view (SextantSession *self,
                          gint64          begin,
                          gint64          end)
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));

  change_view (self, begin, end, CHANGE_GESTURE);
}

/**
 * sextant_session_zoom_to_range:
 *
 * Shows [@begin, @end) as sextant_session_set_view() does, as one step of
 * the zoom history (a range chosen on the timeline, a cell of the matrix).
 */
void
sextant_session_zoom_to_range (SextantSession *self,
                               gint64          begin,
                               gint64          end)
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));

  change_view (self, begin, end, CHANGE_JUMP);
}

/* The view in seconds since the run's start (one step of the history);
 * asked for before the load, it is shown once the session is loaded
 * (instead of the whole run, with no step back). */
void
sextant_session_set_view_seconds (SextantSession *self,
                                  double          from,
                                  double          to)
{
  double res;

  g_return_if_fail (SEXTANT_IS_SESSION (self));
  g_return_if_fail (to > from);

  if (!self->loaded)
    {
      self->wanted_from = from;
      self->wanted_to = to;
      return;
    }

  self->wanted_from = self->wanted_to = 0;
  res = (double)sextant_session_get_resolution (self);
  change_view (self, self->span.begin + (gint64)llround (from * res),
               self->span.begin + (gint64)llround (to * res), CHANGE_JUMP);
}

/* Zooms by @factor (> 1: in) keeping the time at @at_fraction of the view
 * where it is; continuous (the wheel, the keys) */
void
sextant_session_zoom (SextantSession *self,
                      double          factor,
                      double          at_fraction)
{
  double width;
  double at;
  double new_width;

  g_return_if_fail (SEXTANT_IS_SESSION (self));
  g_return_if_fail (factor > 0);

  width = (double)(self->view_end - self->view_begin);
  at = self->view_begin + at_fraction * width;
  new_width = width / factor;
  change_view (self, (gint64)llround (at - at_fraction * new_width),
               (gint64)llround (at - at_fraction * new_width + new_width), CHANGE_GESTURE);
}

/* The whole run: one step of the history */
void
sextant_session_zoom_fit (SextantSession *self)
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));

  change_view (self, self->span.begin, self->span.end, CHANGE_JUMP);
}

/* Moves the view by @fraction of its width (negative: to the left);
 * continuous */
void
sextant_session_pan (SextantSession *self,
                     double          fraction)
{
  gint64 shift;

  g_return_if_fail (SEXTANT_IS_SESSION (self));

  shift = (gint64)llround (fraction * (double)(self->view_end - self->view_begin));
  change_view (self, self->view_begin + shift, self->view_end + shift, CHANGE_GESTURE);
}

/* Shows [@begin, @end) in the middle fifth of the view, with what came
 * before and after: one step of the history */
void
sextant_session_show_range (SextantSession *self,
                            gint64          begin,
                            gint64          end)
{
  gint64 width;

  g_return_if_fail (SEXTANT_IS_SESSION (self));

  end = MAX (end, begin);
  width = MAX ((end - begin) * 5, MIN_VIEW_TICKS);
  change_view (self, begin - (width - (end - begin)) / 2, begin - (width - (end - begin)) / 2 + width, CHANGE_JUMP);
}

/* The chosen instance ----------------------------------------------------------- */

/* Returns: (transfer none) (nullable): the pattern instance chosen */
SextantInstance *
sextant_session_get_instance (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return self->instance;
}

/* An instance chosen replaces the collective chosen: the tree view shows
 * what was chosen last */
static void
clear_collective (SextantSession *self)
{
  if (self->collective == NULL)
    return;

  g_clear_pointer (&self->collective, g_free);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLLECTIVE]);
}

void
sextant_session_set_instance (SextantSession  *self,
                              SextantInstance *instance)
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));
  g_return_if_fail (instance == NULL || SEXTANT_IS_INSTANCE (instance));

  if (!g_set_object (&self->instance, instance))
    return;

  g_object_freeze_notify (G_OBJECT (self));
  if (instance != NULL)
    clear_collective (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INSTANCE]);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * sextant_session_choose_instance:
 *
 * Chooses @instance as a user does: as sextant_session_set_instance(), but
 * "instance" is notified even when it was the chosen one already, so that
 * the views show it again (Enter on the chosen row brings it back into
 * view after the user moved away).
 */
void
sextant_session_choose_instance (SextantSession  *self,
                                 SextantInstance *instance)
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));
  g_return_if_fail (instance == NULL || SEXTANT_IS_INSTANCE (instance));

  g_object_freeze_notify (G_OBJECT (self));
  g_set_object (&self->instance, instance);
  if (instance != NULL)
    clear_collective (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INSTANCE]);
  g_object_thaw_notify (G_OBJECT (self));
}

/* The chosen collective ------------------------------------------------------- */

/* Returns: (nullable): the id of the collective chosen (sextant-comm-tree.h
 * says the forms), %NULL when none is */
const char *
sextant_session_get_collective (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return self->collective;
}

/**
 * sextant_session_choose_collective:
 * @id: (nullable): a collective id, as sextant_graph_list_collectives()
 *   and sextant_graph_collective_at() give them; %NULL: none
 *
 * Chooses a collective as a user does (a click on it in the timeline):
 * the tree view shows its tree until an instance is chosen (which clears
 * it). "collective" is notified even when @id was chosen already, so that
 * the window shows its tree again.
 */
void
sextant_session_choose_collective (SextantSession *self,
                                   const char     *id)
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));

  if (id == NULL && self->collective == NULL)
    return;

  g_free (self->collective);
  self->collective = g_strdup (id);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLLECTIVE]);
}

/* The selection ---------------------------------------------------------------- */

/**
 * sextant_session_get_selection:
 * @loc: (out) (optional): the location selected
 * @time: (out) (optional): the time selected, in ticks
 *
 * Returns: %TRUE when a location is selected at a time (a node clicked in
 * the tree view); @loc and @time are then set
 */
gboolean
sextant_session_get_selection (SextantSession *self,
                               gint64         *loc,
                               gint64         *time)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  if (self->selection_loc == SEXTANT_NULL)
    return FALSE;
  if (loc != NULL)
    *loc = self->selection_loc;
  if (time != NULL)
    *time = self->selection_time;

  return TRUE;
}

/**
 * sextant_session_select:
 * @loc: a location.id, or %SEXTANT_NULL to select nothing
 * @time: ticks
 *
 * Selects @loc at @time: the timeline marks it there and brings its row
 * into view. When @time lies outside the view, the view moves (its width
 * kept) to centre it. "selection-loc" and "selection-time" are notified
 * together, even when the selection was this one already (so that the
 * timeline brings it back into view).
 */
void
sextant_session_select (SextantSession *self,
                        gint64          loc,
                        gint64          time)
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));

  if (loc == SEXTANT_NULL && self->selection_loc == SEXTANT_NULL)
    return;

  if (loc != SEXTANT_NULL && self->loaded && (time < self->view_begin || time >= self->view_end))
    {
      gint64 width = self->view_end - self->view_begin;

      change_view (self, time - width / 2, time - width / 2 + width, CHANGE_JUMP);
    }
  g_object_freeze_notify (G_OBJECT (self));
  self->selection_loc = loc;
  self->selection_time = loc != SEXTANT_NULL ? time : 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION_LOC]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION_TIME]);
  g_object_thaw_notify (G_OBJECT (self));
}

/* The clicked item ------------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (SextantItem, sextant_item, sextant_item_copy, sextant_item_free)

SextantItem *
sextant_item_copy (const SextantItem *item)
{
  return g_memdup2 (item, sizeof *item);
}

void
sextant_item_free (SextantItem *item)
{
  g_free (item);
}

/* Both %NULL, or the same item */
gboolean
sextant_item_equal (const SextantItem *a,
                    const SextantItem *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return a->kind == b->kind && a->loc == b->loc && a->time == b->time && a->id == b->id;
}

/* Returns: (transfer none) (nullable): what a click on the timeline chose
 * (the details pane shows it); %NULL: nothing */
const SextantItem *
sextant_session_get_item (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return self->item;
}

/**
 * sextant_session_set_item:
 * @item: (nullable): what was clicked, copied; %NULL: nothing
 *
 * Chooses the item the details pane shows. "item" is notified when it
 * changes. The session's load clears it.
 */
void
sextant_session_set_item (SextantSession    *self,
                          const SextantItem *item)
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));

  if (sextant_item_equal (item, self->item))
    return;

  g_clear_pointer (&self->item, sextant_item_free);
  if (item != NULL)
    self->item = sextant_item_copy (item);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
}

/* The pair filter -------------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (SextantPairFilter, sextant_pair_filter, sextant_pair_filter_copy, sextant_pair_filter_free)

SextantPairFilter *
sextant_pair_filter_copy (const SextantPairFilter *filter)
{
  return g_memdup2 (filter, sizeof *filter);
}

void
sextant_pair_filter_free (SextantPairFilter *filter)
{
  g_free (filter);
}

/* Whether a message from @sender to @receiver is one the filter keeps */
gboolean
sextant_pair_filter_matches (const SextantPairFilter *filter,
                             gint64                   sender,
                             gint64                   receiver)
{
  return sender >= filter->sender_first && sender <= filter->sender_last &&
         receiver >= filter->receiver_first && receiver <= filter->receiver_last;
}

/* Both %NULL, or the same ranges */
gboolean
sextant_pair_filter_equal (const SextantPairFilter *a,
                           const SextantPairFilter *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return a->sender_first == b->sender_first && a->sender_last == b->sender_last &&
         a->receiver_first == b->receiver_first && a->receiver_last == b->receiver_last;
}

/* Returns: (transfer none) (nullable): the messages the timeline draws,
 * %NULL for all of them */
const SextantPairFilter *
sextant_session_get_pair_filter (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return self->pair_filter;
}

/**
 * sextant_session_set_pair_filter:
 * @filter: (nullable): the messages to draw; %NULL: all of them
 *
 * Narrows the timeline's message lines to the pairs of @filter (a click
 * on a cell of the matrix), until it is cleared (Escape, or the bar's
 * button). "pair-filter" is notified when it changes.
 */
void
sextant_session_set_pair_filter (SextantSession          *self,
                                 const SextantPairFilter *filter)
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));

  if (sextant_pair_filter_equal (filter, self->pair_filter))
    return;

  g_clear_pointer (&self->pair_filter, sextant_pair_filter_free);
  if (filter != NULL)
    self->pair_filter = sextant_pair_filter_copy (filter);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAIR_FILTER]);
}

static const char *
label_of (SextantSession *self,
          gint64          loc)
{
  return loc >= 0 && (guint64)loc < self->locations->len
           ? ((SextantLocationInfo *)g_ptr_array_index (self->locations, loc))->label : "?";
}

/**
 * sextant_session_dup_pair_filter_text:
 *
 * Returns: (transfer full) (nullable): the pair filter in words, "MPI
 * Rank 1 → MPI Rank 2" or "MPI Rank 0 … MPI Rank 3 → MPI Rank 4 … MPI
 * Rank 7"; %NULL without a filter
 */
char *
sextant_session_dup_pair_filter_text (SextantSession *self)
{
  const SextantPairFilter *f;

  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  if ((f = self->pair_filter) == NULL || self->locations == NULL)
    return NULL;
  if (f->sender_first == f->sender_last && f->receiver_first == f->receiver_last)
    return g_strdup_printf ("%s → %s", label_of (self, f->sender_first), label_of (self, f->receiver_first));

  return g_strdup_printf ("%s … %s → %s … %s", label_of (self, f->sender_first), label_of (self, f->sender_last),
                          label_of (self, f->receiver_first), label_of (self, f->receiver_last));
}

/* GObject -------------------------------------------------------------------- */

static void
sextant_session_dispose (GObject *object)
{
  SextantSession *self = SEXTANT_SESSION (object);

  g_clear_object (&self->instance);

  G_OBJECT_CLASS (sextant_session_parent_class)->dispose (object);
}

static void
sextant_session_finalize (GObject *object)
{
  SextantSession *self = SEXTANT_SESSION (object);

  g_free (self->path);
  g_free (self->title);
  g_free (self->db_path);
  g_free (self->collective);
  g_clear_pointer (&self->pair_filter, sextant_pair_filter_free);
  g_clear_pointer (&self->item, sextant_item_free);
  g_clear_pointer (&self->back, g_array_unref);
  g_clear_pointer (&self->forward, g_array_unref);
  g_clear_pointer (&self->locations, g_ptr_array_unref);
  g_clear_pointer (&self->regions, g_hash_table_unref);
  sextant_analysis_scope_clear (&self->scope);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (sextant_session_parent_class)->finalize (object);
}

static void
sextant_session_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SextantSession *self = SEXTANT_SESSION (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;
    case PROP_IMPORTING:
      g_value_set_boolean (value, self->importing);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, sextant_session_get_progress (self));
      break;
    case PROP_ANALYSING:
      g_value_set_boolean (value, self->analysing);
      break;
    case PROP_ANALYSIS_PROGRESS:
      g_value_set_double (value, sextant_session_get_analysis_progress (self));
      break;
    case PROP_GENERATION:
      g_value_set_uint (value, self->generation);
      break;
    case PROP_VIEW_BEGIN:
      g_value_set_int64 (value, self->view_begin);
      break;
    case PROP_VIEW_END:
      g_value_set_int64 (value, self->view_end);
      break;
    case PROP_INSTANCE:
      g_value_set_object (value, self->instance);
      break;
    case PROP_COLLECTIVE:
      g_value_set_string (value, self->collective);
      break;
    case PROP_SELECTION_LOC:
      g_value_set_int64 (value, self->selection_loc);
      break;
    case PROP_SELECTION_TIME:
      g_value_set_int64 (value, self->selection_time);
      break;
    case PROP_PAIR_FILTER:
      g_value_set_boxed (value, self->pair_filter);
      break;
    case PROP_ITEM:
      g_value_set_boxed (value, self->item);
      break;
    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, self->back->len > 0);
      break;
    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, self->forward->len > 0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_session_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SextantSession *self = SEXTANT_SESSION (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      self->title = sextant_session_dup_title_for_path (self->path);
      break;
    case PROP_INSTANCE:
      sextant_session_set_instance (self, g_value_get_object (value));
      break;
    case PROP_COLLECTIVE:
      sextant_session_choose_collective (self, g_value_get_string (value));
      break;
    case PROP_ITEM:
      sextant_session_set_item (self, g_value_get_boxed (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_session_class_init (SextantSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = sextant_session_dispose;
  object_class->finalize = sextant_session_finalize;
  object_class->get_property = sextant_session_get_property;
  object_class->set_property = sextant_session_set_property;

  /* what the user opened: an archive or a store */
  properties[PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL,
                                               G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADED] = g_param_spec_boolean ("loaded", NULL, NULL, FALSE, ro);
  properties[PROP_IMPORTING] = g_param_spec_boolean ("importing", NULL, NULL, FALSE, ro);
  properties[PROP_PROGRESS] = g_param_spec_double ("progress", NULL, NULL, 0, 1, 0, ro);
  properties[PROP_ANALYSING] = g_param_spec_boolean ("analysing", NULL, NULL, FALSE, ro);
  properties[PROP_ANALYSIS_PROGRESS] = g_param_spec_double ("analysis-progress", NULL, NULL, 0, 1, 0, ro);
  properties[PROP_GENERATION] = g_param_spec_uint ("generation", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_VIEW_BEGIN] = g_param_spec_int64 ("view-begin", NULL, NULL, G_MININT64, G_MAXINT64, 0, ro);
  properties[PROP_VIEW_END] = g_param_spec_int64 ("view-end", NULL, NULL, G_MININT64, G_MAXINT64, 0, ro);
  properties[PROP_INSTANCE] = g_param_spec_object ("instance", NULL, NULL, SEXTANT_TYPE_INSTANCE,
                                                   G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                   G_PARAM_STATIC_STRINGS);
  /* a collective id, or NULL */
  properties[PROP_COLLECTIVE] = g_param_spec_string ("collective", NULL, NULL, NULL,
                                                     G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                     G_PARAM_STATIC_STRINGS);
  /* the location selected (SEXTANT_NULL: none) and the time, in ticks */
  properties[PROP_SELECTION_LOC] = g_param_spec_int64 ("selection-loc", NULL, NULL, G_MININT64, G_MAXINT64,
                                                       SEXTANT_NULL, ro);
  properties[PROP_SELECTION_TIME] = g_param_spec_int64 ("selection-time", NULL, NULL, G_MININT64, G_MAXINT64, 0, ro);
  /* the messages the timeline draws; NULL: all */
  properties[PROP_PAIR_FILTER] = g_param_spec_boxed ("pair-filter", NULL, NULL, SEXTANT_TYPE_PAIR_FILTER, ro);
  /* what a click on the timeline chose; NULL: nothing */
  properties[PROP_ITEM] = g_param_spec_boxed ("item", NULL, NULL, SEXTANT_TYPE_ITEM,
                                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* the zoom history has a step back, forward */
  properties[PROP_CAN_GO_BACK] = g_param_spec_boolean ("can-go-back", NULL, NULL, FALSE, ro);
  properties[PROP_CAN_GO_FORWARD] = g_param_spec_boolean ("can-go-forward", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sextant_session_init (SextantSession *self)
{
  g_mutex_init (&self->lock);
  self->selection_loc = SEXTANT_NULL;
  self->back = g_array_new (FALSE, FALSE, sizeof (View));
  self->forward = g_array_new (FALSE, FALSE, sizeof (View));
  self->clock = g_get_monotonic_time;
  self->progress.prop_id = PROP_PROGRESS;
  self->analysis_progress.prop_id = PROP_ANALYSIS_PROGRESS;
}
