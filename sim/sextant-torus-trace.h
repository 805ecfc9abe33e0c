/*
 * sextant-torus-trace.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writes a model run (sextant-torus-sim.h) as an OTF2 archive that
 * `sextant import` and the window read: a location per torus node, the
 * hardware collective, then the point-to-point messages along the tree.
 */
#pragma once

#include "sextant-torus-sim.h"

G_BEGIN_DECLS

/* The definitions that place each location on the torus: a location
 * property "3,1,0" (X first) and a system tree node property "4x4x2" on
 * the machine; trace/ reads them (sextant_store_read_torus_coords()) */
#define SEXTANT_TORUS_COORDS_PROPERTY "torus_coords"
#define SEXTANT_TORUS_DIMS_PROPERTY   "torus_dims"

/* The gap between the hardware run and the point-to-point run, ps */
#define SEXTANT_TORUS_TRACE_GAP_PS G_GINT64_CONSTANT (1000000)

/**
 * SextantTorusTraceCounts:
 * @n_locations: locations (one per node)
 * @n_events: event records, all locations
 * @n_messages: point-to-point messages (one MpiSend and one MpiRecv each)
 * @n_collectives: collective calls (one per taking-part node)
 */
typedef struct
{
  guint64 n_locations;
  guint64 n_events;
  guint64 n_messages;
  guint64 n_collectives;
} SextantTorusTraceCounts;

gboolean sextant_torus_trace_write (const SextantTorusSim    *sim,
                                    const char               *dir,
                                    SextantTorusTraceCounts  *counts,
                                    GError                  **error);

G_END_DECLS
