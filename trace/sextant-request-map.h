/*
 * sextant-request-map.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The open requests of one location (MPI_Isend until its completion,
 * MPI_Irecv from its post, a non-blocking collective from its request): a
 * map from the 64-bit request id to a value of fixed size kept inline.
 * A location has a handful open at a time and opens and closes one per
 * non-blocking call, so the map does no allocation per request and one
 * probe of a small table per lookup (it replaced a GHashTable of
 * g_new()-ed values: 2-3 % of an import's time).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SextantRequestMap SextantRequestMap;

SextantRequestMap *sextant_request_map_new    (gsize               value_size);
void               sextant_request_map_free   (SextantRequestMap  *self);
guint              sextant_request_map_size   (SextantRequestMap  *self);
/* The value of @request, or %NULL; valid until the map changes. */
gpointer           sextant_request_map_lookup (SextantRequestMap  *self,
                                               guint64             request);
/* The value of @request to fill in: a new one, or the one @request has
 * (which then counts as inserted now). Valid until the map changes. */
gpointer           sextant_request_map_insert (SextantRequestMap  *self,
                                               guint64             request);
/* Removes @request and copies its value to @value (nullable); %FALSE if
 * it was not there. */
gboolean           sextant_request_map_remove (SextantRequestMap  *self,
                                               guint64             request,
                                               gpointer            value);
/* Empties the map and returns its values, oldest insertion first. */
GArray            *sextant_request_map_steal_values (SextantRequestMap *self);
/* Empties the map; its memory stays, for the next location's requests. */
void               sextant_request_map_clear  (SextantRequestMap  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantRequestMap, sextant_request_map_free)

G_END_DECLS
