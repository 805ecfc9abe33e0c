/*
 * sextant-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SextantSession: one trace open in a window, what its views share. The
 * object and its properties are here; the rest by concern in
 * sextant-session-load.c (loading, and what every view needs of the
 * store), -analysis.c, -view.c (the view shown and its zoom history),
 * -selection.c (the chosen instance, collective, selection, item and pair
 * filter) and -instance.c (an instance found by its id), sharing
 * sextant-session-private.h.
 *
 * The import and the analysis report their progress on their own
 * threads; the session keeps the last fraction under a lock and notifies
 * "progress" from an idle on the main thread, at most once per main-loop
 * iteration however often they call.
 */
#include "config.h"

#include "sextant-session-private.h"

G_DEFINE_FINAL_TYPE (SextantSession, sextant_session, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
guint _sextant_session_signals[N_SIGNALS];

void
_sextant_session_notify (SextantSession *self,
                         guint           prop_id)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

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

/* Progress ------------------------------------------------------------------- */

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
void
_sextant_session_fraction_set (SextantSession *self,
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

double
_sextant_session_fraction_get (SextantSession *self,
                               Fraction       *fraction)
{
  double value;

  g_mutex_lock (&self->lock);
  value = fraction->value;
  g_mutex_unlock (&self->lock);

  return value;
}

/* GObject -------------------------------------------------------------------- */

static void
sextant_session_dispose (GObject *object)
{
  SextantSession *self = SEXTANT_SESSION (object);

  _sextant_session_watch_stop (self);
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

  /**
   * SextantSession::analysed-elsewhere:
   *
   * Another program (`sextant analyze`, another window) analysed the
   * store again; its results are the session's now ("generation" has
   * counted up).
   */
  _sextant_session_signals[SIGNAL_ANALYSED_ELSEWHERE] =
    g_signal_new ("analysed-elsewhere", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
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
