/*
 * sextant-store-views-p2p.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared views of the point-to-point patterns, computed in C
 * (sextant-store-views-p2p.c) and copied into temporary column tables of
 * a connection by sextant_store_materialize_views(): receive_wait (the
 * view of schema-1.sql), early_wait_op, late_receiver_send and
 * close_send_recv_pair (docs/schema.md, "Analysis views"). For trace/ only.
 */
#pragma once

#include "sextant-store-views-private.h"

G_BEGIN_DECLS

/* all four views at once: the shared views' table lists it for each */
gboolean _sextant_store_fill_p2p_views            (SextantStore          *self,
                                                   GError               **error);

G_END_DECLS
