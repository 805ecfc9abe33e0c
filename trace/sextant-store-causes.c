/*
 * sextant-store-causes.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The wait_state table (docs/schema.md): whether each wait state of the
 * last analysis was direct or propagated, and its root cause. Written once
 * per analysis, after its patterns (graph/sextant-wait-causes.c computes
 * the rows), read one instance at a time by the delay chains and, through
 * the pattern_instance view, with the instances.
 *
 * Workload: an analysis of the 10 M-event store writes about 550,000 rows,
 * as column chunks (a few bytes each); a delay chain reads up to 65 of them
 * by id (a chunk each, cached by the connection).
 */
#include "config.h"

#include "sextant-chunk-writer.h"
#include "sextant-store-private.h"

/* rows per chunk of wait_state, as pattern_instance_data */
#define WAIT_STATE_CHUNK_ROWS 4096

const char *
sextant_wait_cause_to_string (SextantWaitCause cause)
{
  switch (cause)
    {
    case SEXTANT_WAIT_CAUSE_DIRECT:
      return "direct";
    case SEXTANT_WAIT_CAUSE_PROPAGATED:
      return "propagated";
    case SEXTANT_WAIT_CAUSE_NONE:
    default:
      return NULL;
    }
}

/**
 * sextant_store_write_wait_states:
 * @states: (array length=n_states): the rows, each instance once, in any
 *   order; each run of consecutive ids (a pattern's instances, as the
 *   analysis writes them) becomes chunks of its own
 *
 * Writes the wait_state rows of an analysis, inside its transaction (the
 * analysis cleared the table with the other results of the previous one).
 *
 * Threading: the store's owning thread.
 */
gboolean
sextant_store_write_wait_states (SextantStore            *self,
                                 const SextantWaitState  *states,
                                 guint                    n_states,
                                 GError                 **error)
{
  SextantChunkWriter *writer = NULL;
  gint64 next = SEXTANT_NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);

  for (guint i = 0; ok && i < n_states; i++)
    {
      const SextantWaitState *state = &states[i];
      gint64 values[SEXTANT_WAIT_STATE_N_COLUMNS];

      if (writer == NULL || state->instance != next)
        {
          if (writer != NULL)
            {
              ok = sextant_chunk_writer_flush (writer, error);
              sextant_chunk_writer_free (writer);
            }
          writer = sextant_chunk_writer_new (self, SEXTANT_CHUNK_WAIT_STATE, SEXTANT_WAIT_STATE_N_COLUMNS,
                                             state->instance, WAIT_STATE_CHUNK_ROWS);
          if (!ok)
            break;
        }

      values[SEXTANT_WAIT_STATE_CAUSE] = state->cause == SEXTANT_WAIT_CAUSE_DIRECT ? 0
                                         : state->cause == SEXTANT_WAIT_CAUSE_PROPAGATED ? 1 : SEXTANT_NULL;
      values[SEXTANT_WAIT_STATE_CAUSE_INSTANCE] = state->cause_instance;
      values[SEXTANT_WAIT_STATE_ROOT_INSTANCE] = state->root_instance;
      values[SEXTANT_WAIT_STATE_ROOT_LOC] = state->root_loc;
      ok = sextant_chunk_writer_append (writer, values, error) >= 0;
      next = state->instance + 1;
    }

  if (writer != NULL)
    {
      ok = ok && sextant_chunk_writer_flush (writer, error);
      sextant_chunk_writer_free (writer);
    }

  return ok;
}

static const char wait_state_sql[] =
  "SELECT cause, cause_instance, root_instance, root_loc FROM wait_state WHERE instance = ?1";

typedef struct
{
  SextantWaitState *state;
  gboolean         *found;
} WaitStateRead;

static gboolean
wait_state_row (const SextantRow  *row,
                gpointer           user_data,
                GError           **error)
{
  WaitStateRead *read = user_data;
  SextantWaitState *state = read->state;

  state->cause = sextant_row_is_null (row, 0) ? SEXTANT_WAIT_CAUSE_NONE
                 : g_str_equal (sextant_row_get_text (row, 0), "propagated") ? SEXTANT_WAIT_CAUSE_PROPAGATED
                 : SEXTANT_WAIT_CAUSE_DIRECT;
  state->cause_instance = sextant_row_get_int_or_null (row, 1);
  state->root_instance = sextant_row_get_int_or_null (row, 2);
  state->root_loc = sextant_row_get_int_or_null (row, 3);
  *read->found = TRUE;

  return TRUE;
}

/**
 * sextant_store_get_wait_state:
 * @instance: an instance id
 * @state: (out caller-allocates): its row, when @found
 * @found: (out): whether the last analysis judged @instance as a wait
 *   state (%FALSE: no such instance, or one of a pattern that is no wait
 *   state)
 *
 * Threading: the store's owning thread.
 *
 * Returns: %FALSE with @error set when the store could not be read
 */
gboolean
sextant_store_get_wait_state (SextantStore      *self,
                              gint64             instance,
                              SextantWaitState  *state,
                              gboolean          *found,
                              GError           **error)
{
  WaitStateRead read = { state, found };

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (state != NULL && found != NULL, FALSE);

  state->instance = instance;
  state->cause = SEXTANT_WAIT_CAUSE_NONE;
  state->cause_instance = state->root_instance = state->root_loc = SEXTANT_NULL;
  *found = FALSE;

  return sextant_store_foreach_sql (self, wait_state_sql, wait_state_row, &read, error, "i", instance);
}
