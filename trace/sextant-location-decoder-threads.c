/*
 * sextant-location-decoder-threads.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A location's thread events (fork, join, teams, tasks, OpenMP),
 * metrics, parameters and program records, see
 * sextant-location-decoder-private.h.
 */
#include "config.h"

#include "sextant-location-decoder-private.h"

/* Threads ----------------------------------------------------------------- */

static OTF2_CallbackCode
thread_event (Decoder          *self,
              SextantEventKind  kind,
              OTF2_TimeStamp    time,
              const char       *paradigm,
              gint64            team,
              gint64            value)
{
  gint64 t = _sextant_decoder_record (self, kind, time);

  STORE (self, sextant_store_run (self->import->store, SEXTANT_STMT_THREAD_EVENT, &store_error,
                                  "iittnnni", (gint64)self->loc, t, sextant_event_kind_names[kind],
                                  paradigm, team, value, top_visit (self), next_row_id (self, ROW_THREAD_EVENT)));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_thread_fork (DECODER_ARGS, OTF2_Paradigm model, uint32_t n)
{
  return thread_event (user_data, SEXTANT_EVENT_THREAD_FORK, time, sextant_otf2_paradigm_name (model),
                       SEXTANT_NULL, n);
}

static OTF2_CallbackCode
on_thread_join (DECODER_ARGS, OTF2_Paradigm model)
{
  return thread_event (user_data, SEXTANT_EVENT_THREAD_JOIN, time, sextant_otf2_paradigm_name (model),
                       SEXTANT_NULL, SEXTANT_NULL);
}

static OTF2_CallbackCode
on_omp_fork (DECODER_ARGS, uint32_t n)
{
  return thread_event (user_data, SEXTANT_EVENT_OMP_FORK, time, "OPENMP", SEXTANT_NULL, n);
}

static OTF2_CallbackCode
on_omp_join (DECODER_ARGS)
{
  return thread_event (user_data, SEXTANT_EVENT_OMP_JOIN, time, "OPENMP", SEXTANT_NULL, SEXTANT_NULL);
}

#define THREAD_TEAM_CB(Name, KIND) \
  static OTF2_CallbackCode \
  on_##Name (DECODER_ARGS, OTF2_CommRef team) \
  { \
    return thread_event (user_data, SEXTANT_EVENT_##KIND, time, NULL, team, SEXTANT_NULL); \
  }
THREAD_TEAM_CB (thread_team_begin, THREAD_TEAM_BEGIN)
THREAD_TEAM_CB (thread_team_end, THREAD_TEAM_END)

#define THREAD_TASK_CB(Name, KIND) \
  static OTF2_CallbackCode \
  on_##Name (DECODER_ARGS, OTF2_CommRef team, uint32_t creator, uint32_t generation) \
  { \
    return thread_event (user_data, SEXTANT_EVENT_##KIND, time, NULL, team, \
                         (gint64)(((guint64)creator << 32) | generation)); \
  }
THREAD_TASK_CB (thread_task_create, THREAD_TASK_CREATE)
THREAD_TASK_CB (thread_task_switch, THREAD_TASK_SWITCH)
THREAD_TASK_CB (thread_task_complete, THREAD_TASK_COMPLETE)

#define THREAD_CONTINGENT_CB(Name, KIND) \
  static OTF2_CallbackCode \
  on_##Name (DECODER_ARGS, OTF2_CommRef contingent, uint64_t sequence) \
  { \
    return thread_event (user_data, SEXTANT_EVENT_##KIND, time, NULL, contingent, (gint64)sequence); \
  }
THREAD_CONTINGENT_CB (thread_create, THREAD_CREATE)
THREAD_CONTINGENT_CB (thread_begin, THREAD_BEGIN)
THREAD_CONTINGENT_CB (thread_wait, THREAD_WAIT)
THREAD_CONTINGENT_CB (thread_end, THREAD_END)

#define OMP_TASK_CB(Name, KIND) \
  static OTF2_CallbackCode \
  on_##Name (DECODER_ARGS, uint64_t task) \
  { \
    return thread_event (user_data, SEXTANT_EVENT_##KIND, time, "OPENMP", SEXTANT_NULL, (gint64)task); \
  }
OMP_TASK_CB (omp_task_create, OMP_TASK_CREATE)
OMP_TASK_CB (omp_task_switch, OMP_TASK_SWITCH)
OMP_TASK_CB (omp_task_complete, OMP_TASK_COMPLETE)

/* Metrics, parameters, program -------------------------------------------- */

static OTF2_CallbackCode
on_metric (DECODER_ARGS,
           OTF2_MetricRef          metric,
           uint8_t                 n,
           const OTF2_Type        *types,
           const OTF2_MetricValue *values)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_METRIC, time);
  GError *error = NULL;

  for (guint i = 0; i < n; i++)
    {
      gboolean ok;

      if (types[i] == OTF2_TYPE_DOUBLE ||
          (types[i] == OTF2_TYPE_UINT64 && values[i].unsigned_int > G_MAXINT64))
        ok = sextant_store_run (self->import->store, SEXTANT_STMT_METRIC_VALUE, &error, "iiiid",
                                (gint64)self->loc, t, (gint64)metric, (gint64)i,
                                types[i] == OTF2_TYPE_DOUBLE ? values[i].floating_point
                                                             : (double)values[i].unsigned_int);
      else
        ok = sextant_store_run (self->import->store, SEXTANT_STMT_METRIC_VALUE, &error, "iiiii",
                                (gint64)self->loc, t, (gint64)metric, (gint64)i, values[i].signed_int);
      if (!ok)
        return _sextant_import_fail (self->import, error);
    }

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_parameter_string (DECODER_ARGS,
                     OTF2_ParameterRef parameter,
                     OTF2_StringRef    string)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_PARAMETER_STRING, time);

  STORE (self, sextant_store_run (self->import->store, SEXTANT_STMT_PARAMETER_VALUE, &store_error,
                                  "iiitn", (gint64)self->loc, t, (gint64)parameter,
                                  _sextant_import_string (self->import, string), top_visit (self)));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_parameter_int (DECODER_ARGS,
                  OTF2_ParameterRef parameter,
                  int64_t           value)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_PARAMETER_INT64, time);

  STORE (self, sextant_store_run (self->import->store, SEXTANT_STMT_PARAMETER_VALUE, &store_error,
                                  "iiiin", (gint64)self->loc, t, (gint64)parameter, value,
                                  top_visit (self)));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_parameter_uint (DECODER_ARGS,
                   OTF2_ParameterRef parameter,
                   uint64_t          value)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_PARAMETER_UINT64, time);

  if (value > G_MAXINT64)
    STORE (self, sextant_store_run (self->import->store, SEXTANT_STMT_PARAMETER_VALUE, &store_error,
                                    "iiidn", (gint64)self->loc, t, (gint64)parameter, (double)value,
                                    top_visit (self)));
  else
    STORE (self, sextant_store_run (self->import->store, SEXTANT_STMT_PARAMETER_VALUE, &store_error,
                                    "iiiin", (gint64)self->loc, t, (gint64)parameter, (gint64)value,
                                    top_visit (self)));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_program_begin (DECODER_ARGS,
                  OTF2_StringRef        name,
                  uint32_t              n_arguments,
                  const OTF2_StringRef *arguments)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_PROGRAM_BEGIN, time);
  g_autoptr(GString) args = g_string_new (NULL);

  for (guint32 i = 0; i < n_arguments; i++)
    {
      const char *arg = _sextant_import_string (self->import, arguments[i]);

      if (i > 0)
        g_string_append_c (args, ' ');
      g_string_append (args, arg != NULL ? arg : "");
    }

  self->program.seen = TRUE;
  g_free (self->program.name);
  self->program.name = g_strdup (_sextant_import_string (self->import, name));
  g_free (self->program.arguments);
  self->program.arguments = g_string_free (g_steal_pointer (&args), FALSE);
  self->program.begin = t;

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_program_end (DECODER_ARGS,
                int64_t exit_status)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_PROGRAM_END, time);

  self->program.seen = TRUE;
  self->program.end = t;
  self->program.exit_status = exit_status;

  return OTF2_CALLBACK_SUCCESS;
}

void
_sextant_location_decoder_set_thread_callbacks (OTF2_EvtReaderCallbacks *cb)
{
#define SET(Name, fn) OTF2_EvtReaderCallbacks_Set##Name##Callback (cb, fn)
  SET (ThreadFork, on_thread_fork);
  SET (ThreadJoin, on_thread_join);
  SET (OmpFork, on_omp_fork);
  SET (OmpJoin, on_omp_join);
  SET (ThreadTeamBegin, on_thread_team_begin);
  SET (ThreadTeamEnd, on_thread_team_end);
  SET (ThreadTaskCreate, on_thread_task_create);
  SET (ThreadTaskSwitch, on_thread_task_switch);
  SET (ThreadTaskComplete, on_thread_task_complete);
  SET (ThreadCreate, on_thread_create);
  SET (ThreadBegin, on_thread_begin);
  SET (ThreadWait, on_thread_wait);
  SET (ThreadEnd, on_thread_end);
  SET (OmpTaskCreate, on_omp_task_create);
  SET (OmpTaskSwitch, on_omp_task_switch);
  SET (OmpTaskComplete, on_omp_task_complete);
  SET (Metric, on_metric);
  SET (ParameterString, on_parameter_string);
  SET (ParameterInt, on_parameter_int);
  SET (ParameterUnsignedInt, on_parameter_uint);
  SET (ProgramBegin, on_program_begin);
  SET (ProgramEnd, on_program_end);
#undef SET
}
