/*
 * sextant-details-pane.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The details of what a click on the timeline chose (the session's
 * "item"): a title ("MPI_Recv on MPI Rank 3"), a compact grid of what the
 * trace says of it (times, duration, call site, call path, peer, bytes,
 * tag, communicator…), in labels that can be selected and copied, a "Show
 * Source" button when it has a call site (the window's "win.show-source"
 * action), and a button that closes it (clears the item).
 *
 * Workload: one read per click, on a worker thread with a connection of
 * its own (sextant-store-details.h: a few key lookups); a newer item
 * cancels the read of the one before.
 */
#pragma once

#include <gtk/gtk.h>

#include "sextant-session.h"

G_BEGIN_DECLS

#define SEXTANT_TYPE_DETAILS_PANE (sextant_details_pane_get_type ())
G_DECLARE_FINAL_TYPE (SextantDetailsPane, sextant_details_pane, SEXTANT, DETAILS_PANE, GtkWidget)

GtkWidget      *sextant_details_pane_new         (void);
void            sextant_details_pane_set_session (SextantDetailsPane *self,
                                                  SextantSession     *session);
SextantSession *sextant_details_pane_get_session (SextantDetailsPane *self);
gboolean        sextant_details_pane_get_ready   (SextantDetailsPane *self);
const char     *sextant_details_pane_get_title   (SextantDetailsPane *self);
char           *sextant_details_pane_dup_text    (SextantDetailsPane *self);

G_END_DECLS
