/*
 * sextant-half-wire.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A message half as a parallel import sets it aside and sends it to the
 * rank of its other end (sextant-import-share.c): records of
 * SEXTANT_HALF_WIRE_BYTES, one a half where its values fit the compact
 * form (32-bit communicator, peers, tag, sequence number and size, the
 * second time and the post as 32-bit deltas from the time, the second
 * visit from the visit, the recording location the channel's end of its
 * side), two (the half whole) where one does not. A stream of records is
 * read back in order by a SextantHalfWireReader, which keeps the first
 * record of a half in two across the parts it was cut into.
 */
#pragma once

#include <glib.h>

#include "sextant-import-private.h"

G_BEGIN_DECLS

#define SEXTANT_HALF_WIRE_BYTES 64

/* Writes @half's records to @out (room for two); returns their number,
 * 1 or 2 */
guint   sextant_half_wire_encode (const SextantDeferredHalf *half,
                                  guint8                    *out);

typedef struct
{
  guint8    head[SEXTANT_HALF_WIRE_BYTES];   /* a half's first record, its second still to come */
  gboolean  has_head;
} SextantHalfWireReader;

/* Decodes the halves of the @n_records records at *@records, at most
 * @max_halves of them, into @halves; returns how many, and advances
 * *@records and *@n_records past the records they took (a half's first
 * record that ends them is kept in @reader for the next call's first). */
gsize   sextant_half_wire_decode (SextantHalfWireReader     *reader,
                                  const guint8             **records,
                                  guint64                   *n_records,
                                  SextantDeferredHalf       *halves,
                                  gsize                      max_halves);

G_END_DECLS
