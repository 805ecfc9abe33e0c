/*
 * sextant-instance.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The texts a row shows are formatted once, when the instance is made:
 * the table binds and sorts them many times as the user scrolls.
 */
#include "config.h"

#include <math.h>

#include "sextant-instance.h"

struct _SextantInstance
{
  GObject                 parent_instance;

  SextantPatternInstance *record;
  gint64                  resolution;   /* ticks per second */
  char                   *lost;         /* "23.40 ms" */
  char                   *source;       /* "gen_mpi.c:52", "" when the trace has no source */
  char                   *source_note;  /* what kind of line that is, for a tooltip */
};

G_DEFINE_FINAL_TYPE (SextantInstance, sextant_instance, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_SEVERITY,
  PROP_LOC,
  PROP_SECONDS,
  PROP_LOST,
  PROP_LOCATION,
  PROP_SOURCE,
  PROP_SOURCE_NOTE,
  PROP_DIAGNOSIS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/**
 * sextant_format_duration:
 * @ticks: a duration in ticks of the trace's clock
 * @resolution: ticks per second
 *
 * Returns: (transfer full): @ticks in the unit that suits it, as every
 * view writes durations: "2.01 s", "1.50 ms", "234.8 µs"
 */
char *
sextant_format_duration (gint64 ticks,
                         gint64 resolution)
{
  double s = (double)ticks / (double)MAX (resolution, 1);
  double a = fabs (s);

  if (a >= 1)
    return g_strdup_printf ("%.2f s", s);
  if (a >= 1e-3)
    return g_strdup_printf ("%.2f ms", s * 1e3);
  return g_strdup_printf ("%.1f µs", s * 1e6);
}

SextantInstance *
sextant_instance_new (SextantPatternInstance *record,
                      gint64                  resolution)
{
  SextantInstance *self;

  g_return_val_if_fail (record != NULL, NULL);

  self = g_object_new (SEXTANT_TYPE_INSTANCE, NULL);
  self->record = record;
  self->resolution = MAX (resolution, 1);
  self->lost = sextant_format_duration (record->severity, self->resolution);
  if (record->file == NULL)
    {
      self->source = g_strdup ("");
      self->source_note = g_strdup ("The trace has no source information for this call.");
    }
  else
    {
      g_autofree char *base = g_path_get_basename (record->file);

      if (record->site_kind == SEXTANT_SITE_FUNCTION)
        {
          self->source = g_strdup_printf ("%s:%" G_GINT64_FORMAT " (%s)", base, record->line,
                                          record->function != NULL ? record->function : "?");
          self->source_note = g_strdup_printf ("The trace records no call sites: line %" G_GINT64_FORMAT
                                               " of %s is where %s begins, the function that made the call.",
                                               record->line, record->file,
                                               record->function != NULL ? record->function : "the function");
        }
      else
        {
          self->source = g_strdup_printf ("%s:%" G_GINT64_FORMAT, base, record->line);
          self->source_note = g_strdup_printf ("The call, at line %" G_GINT64_FORMAT " of %s.", record->line,
                                               record->file);
        }
    }

  return self;
}

const SextantPatternInstance *
sextant_instance_get_record (SextantInstance *self)
{
  g_return_val_if_fail (SEXTANT_IS_INSTANCE (self), NULL);

  return self->record;
}

gint64
sextant_instance_get_severity (SextantInstance *self)
{
  g_return_val_if_fail (SEXTANT_IS_INSTANCE (self), 0);

  return self->record->severity;
}

double
sextant_instance_get_seconds (SextantInstance *self)
{
  g_return_val_if_fail (SEXTANT_IS_INSTANCE (self), 0);

  return (double)self->record->severity / (double)self->resolution;
}

const char *
sextant_instance_get_lost (SextantInstance *self)
{
  g_return_val_if_fail (SEXTANT_IS_INSTANCE (self), NULL);

  return self->lost;
}

const char *
sextant_instance_get_diagnosis (SextantInstance *self)
{
  g_return_val_if_fail (SEXTANT_IS_INSTANCE (self), NULL);

  return self->record->comment;
}

/**
 * sextant_instance_dup_details:
 * @time_begin: the run's first tick (times are given since then)
 *
 * Returns: (transfer full): Pango markup for the details pane: the whole
 * diagnosis, who, when, how long, where in the code and on which call path.
 */
char *
sextant_instance_dup_details (SextantInstance *self,
                              gint64           time_begin)
{
  const SextantPatternInstance *r;
  GString *text;
  g_autofree char *diagnosis = NULL;

  g_return_val_if_fail (SEXTANT_IS_INSTANCE (self), NULL);

  r = self->record;
  text = g_string_new (NULL);
  diagnosis = g_markup_escape_text (r->comment, -1);
  g_string_append (text, diagnosis);
  g_string_append_printf (text, "\n\n<b>Lost</b> %s", self->lost);
  {
    g_autofree char *location = g_markup_escape_text (r->location, -1);

    g_string_append_printf (text, " on <b>%s</b>", location);
  }
  if (r->call != NULL)
    g_string_append_printf (text, " in <tt>%s</tt>", r->call);
  if (r->peer != NULL)
    {
      g_autofree char *peer = g_markup_escape_text (r->peer, -1);

      g_string_append_printf (text, ", waiting for <b>%s</b>", peer);
    }
  if (r->begin != SEXTANT_NULL && r->end != SEXTANT_NULL)
    {
      g_autofree char *from = sextant_format_duration (r->begin - time_begin, self->resolution);
      g_autofree char *length = sextant_format_duration (r->end - r->begin, self->resolution);

      g_string_append_printf (text, "\n<b>When</b> %s after the run's start, for %s", from, length);
    }
  if (r->cause == SEXTANT_WAIT_CAUSE_DIRECT)
    {
      g_autofree char *peer = g_markup_escape_text (r->peer != NULL ? r->peer : "the peer", -1);

      g_string_append_printf (text, "\n<b>Cause</b> direct: %s was not waiting itself, "
                              "so the time was lost there (Tree page: Alt+2)", peer);
    }
  else if (r->cause == SEXTANT_WAIT_CAUSE_PROPAGATED)
    {
      g_autofree char *peer = g_markup_escape_text (r->peer != NULL ? r->peer : "the peer", -1);
      g_autofree char *root = g_markup_escape_text (r->root_label != NULL ? r->root_label : "not found (the chain loops)", -1);

      g_string_append_printf (text, "\n<b>Cause</b> propagated: %s was itself waiting; "
                              "the root cause is <b>%s</b> (Tree page: Alt+2)", peer, root);
    }
  {
    g_autofree char *note = g_markup_escape_text (self->source_note, -1);

    g_string_append_printf (text, "\n<b>Source</b> %s", note);
  }
  if (r->callpath != NULL)
    {
      g_autofree char *path = g_markup_escape_text (r->callpath, -1);

      g_string_append_printf (text, "\n<b>Call path</b> <tt>%s</tt>", path);
    }

  return g_string_free (text, FALSE);
}

static void
sextant_instance_finalize (GObject *object)
{
  SextantInstance *self = SEXTANT_INSTANCE (object);

  g_clear_pointer (&self->record, sextant_pattern_instance_free);
  g_free (self->lost);
  g_free (self->source);
  g_free (self->source_note);

  G_OBJECT_CLASS (sextant_instance_parent_class)->finalize (object);
}

static void
sextant_instance_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SextantInstance *self = SEXTANT_INSTANCE (object);

  switch (prop_id)
    {
    case PROP_SEVERITY:
      g_value_set_int64 (value, self->record->severity);
      break;
    case PROP_LOC:
      g_value_set_int64 (value, self->record->loc);
      break;
    case PROP_SECONDS:
      g_value_set_double (value, sextant_instance_get_seconds (self));
      break;
    case PROP_LOST:
      g_value_set_string (value, self->lost);
      break;
    case PROP_LOCATION:
      g_value_set_string (value, self->record->location);
      break;
    case PROP_SOURCE:
      g_value_set_string (value, self->source);
      break;
    case PROP_SOURCE_NOTE:
      g_value_set_string (value, self->source_note);
      break;
    case PROP_DIAGNOSIS:
      g_value_set_string (value, self->record->comment);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_instance_class_init (SextantInstanceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = sextant_instance_finalize;
  object_class->get_property = sextant_instance_get_property;

  /* ticks lost */
  properties[PROP_SEVERITY] = g_param_spec_int64 ("severity", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  /* location.id: the location column sorts by it (rank 10 after rank 9) */
  properties[PROP_LOC] = g_param_spec_int64 ("loc", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_SECONDS] = g_param_spec_double ("seconds", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  properties[PROP_LOST] = g_param_spec_string ("lost", NULL, NULL, NULL, flags);
  properties[PROP_LOCATION] = g_param_spec_string ("location", NULL, NULL, NULL, flags);
  properties[PROP_SOURCE] = g_param_spec_string ("source", NULL, NULL, NULL, flags);
  properties[PROP_SOURCE_NOTE] = g_param_spec_string ("source-note", NULL, NULL, NULL, flags);
  properties[PROP_DIAGNOSIS] = g_param_spec_string ("diagnosis", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sextant_instance_init (SextantInstance *self)
{
}
