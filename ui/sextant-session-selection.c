/*
 * sextant-session-selection.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the user chose in a session: the pattern instance, the collective,
 * the selection (a location and a time), the clicked item and the filter
 * of message pairs; the boxed types SextantItem and SextantPairFilter.
 */
#include "config.h"

#include "sextant-session-private.h"

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
  _sextant_session_notify (self, PROP_COLLECTIVE);
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
  _sextant_session_notify (self, PROP_INSTANCE);
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
  _sextant_session_notify (self, PROP_INSTANCE);
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
  _sextant_session_notify (self, PROP_COLLECTIVE);
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

      _sextant_session_change_view (self, time - width / 2, time - width / 2 + width, CHANGE_JUMP);
    }
  g_object_freeze_notify (G_OBJECT (self));
  self->selection_loc = loc;
  self->selection_time = loc != SEXTANT_NULL ? time : 0;
  _sextant_session_notify (self, PROP_SELECTION_LOC);
  _sextant_session_notify (self, PROP_SELECTION_TIME);
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
  _sextant_session_notify (self, PROP_ITEM);
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
  _sextant_session_notify (self, PROP_PAIR_FILTER);
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
