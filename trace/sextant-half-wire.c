/*
 * sextant-half-wire.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The records of a message half on its way to another rank
 * (sextant-half-wire.h). The compact record leaves out what the half's
 * side and channel tell (the recording location, where it is the
 * channel's end of its side) and narrows the rest; a half is sent
 * compact only if the compact record decodes to exactly the half, else
 * whole in two records, so that any value crosses unchanged (a thread
 * that records for its process, sequence numbers past 32 bits, far
 * apart times).
 */
#include "config.h"

#include <string.h>

#include "sextant-half-wire.h"
#include "sextant-store.h"

enum
{
  WIRE_RECV = 1 << 0,
  WIRE_WIDE = 1 << 1,
};

/* a NULL time or visit as a delta */
#define NULL_DELTA G_MININT32

typedef struct
{
  guint8   flags;
  guint8   mode;
  guint16  unused;
  guint32  tag;
  guint32  comm;
  gint32   src;
  gint32   dst;
  guint32  seq;
  guint32  bytes;
  gint32   time2;     /* from time */
  gint64   time;
  gint64   visit;
  gint64   request;
  gint32   visit2;    /* from visit */
  gint32   post;      /* from time */
} Compact;

G_STATIC_ASSERT (sizeof (Compact) == SEXTANT_HALF_WIRE_BYTES);
/* a wide half: its first record's flags, then the half's first bytes,
 * the rest in the second record */
#define WIDE_FIRST (SEXTANT_HALF_WIRE_BYTES - 8)
G_STATIC_ASSERT (sizeof (SextantHalf) <= WIDE_FIRST + SEXTANT_HALF_WIRE_BYTES);

/* wrapping: a value that does not fit fails the check of the decoding */
static inline gint32
delta (gint64 value,
       gint64 base)
{
  return value == SEXTANT_NULL ? NULL_DELTA : (gint32)(guint32)((guint64)value - (guint64)base);
}

static inline gint64
undelta (gint32 d,
         gint64 base)
{
  return d == NULL_DELTA ? SEXTANT_NULL : (gint64)((guint64)base + (guint64)(gint64)d);
}

static void
decode_compact (const guint8        *record,
                SextantDeferredHalf *out)
{
  Compact c;

  memcpy (&c, record, sizeof c);
  out->is_recv = (c.flags & WIRE_RECV) != 0;
  out->half = (SextantHalf) {
    .comm = c.comm, .src = c.src, .dst = c.dst, .seq = c.seq, .tag = c.tag,
    .loc = out->is_recv ? c.dst : c.src,
    .bytes = c.bytes, .mode = c.mode, .time = c.time, .visit = c.visit, .request = c.request,
    .time2 = undelta (c.time2, c.time), .visit2 = undelta (c.visit2, c.visit), .post = undelta (c.post, c.time),
  };
}

static void
decode_wide (const guint8        *first,
             const guint8        *second,
             SextantDeferredHalf *out)
{
  out->is_recv = (first[0] & WIRE_RECV) != 0;
  memcpy (&out->half, first + 8, WIDE_FIRST);
  memcpy ((guint8 *)&out->half + WIDE_FIRST, second, sizeof (SextantHalf) - WIDE_FIRST);
}

static gboolean
halves_equal (const SextantHalf *x,
              const SextantHalf *y)
{
  return x->comm == y->comm && x->src == y->src && x->dst == y->dst && x->seq == y->seq && x->tag == y->tag &&
         x->loc == y->loc && x->bytes == y->bytes && x->mode == y->mode && x->time == y->time &&
         x->visit == y->visit && x->request == y->request && x->time2 == y->time2 && x->visit2 == y->visit2 &&
         x->post == y->post;
}

guint
sextant_half_wire_encode (const SextantDeferredHalf *half,
                          guint8                    *out)
{
  const SextantHalf *h = &half->half;
  Compact c = {
    .flags = half->is_recv ? WIRE_RECV : 0, .mode = (guint8)h->mode, .tag = h->tag, .comm = (guint32)h->comm,
    .src = (gint32)h->src, .dst = (gint32)h->dst, .seq = (guint32)h->seq, .bytes = (guint32)h->bytes,
    .time2 = delta (h->time2, h->time), .time = h->time, .visit = h->visit, .request = h->request,
    .visit2 = delta (h->visit2, h->visit), .post = delta (h->post, h->time),
  };
  SextantDeferredHalf back;

  memcpy (out, &c, sizeof c);
  decode_compact (out, &back);
  if (halves_equal (&back.half, h))
    return 1;

  memset (out, 0, 8);
  out[0] = (guint8)(WIRE_WIDE | (half->is_recv ? WIRE_RECV : 0));
  memcpy (out + 8, h, WIDE_FIRST);
  memset (out + SEXTANT_HALF_WIRE_BYTES, 0, SEXTANT_HALF_WIRE_BYTES);
  memcpy (out + SEXTANT_HALF_WIRE_BYTES, (const guint8 *)h + WIDE_FIRST, sizeof (SextantHalf) - WIDE_FIRST);

  return 2;
}

gsize
sextant_half_wire_decode (SextantHalfWireReader  *reader,
                          const guint8          **records,
                          guint64                *n_records,
                          SextantDeferredHalf    *halves,
                          gsize                   max_halves)
{
  gsize n = 0;

  while (n < max_halves && *n_records > 0)
    {
      const guint8 *record = *records;
      guint taken = 1;

      if (reader->has_head)
        {
          decode_wide (reader->head, record, &halves[n++]);
          reader->has_head = FALSE;
        }
      else if ((record[0] & WIRE_WIDE) == 0)
        decode_compact (record, &halves[n++]);
      else if (*n_records == 1)
        {
          memcpy (reader->head, record, SEXTANT_HALF_WIRE_BYTES);
          reader->has_head = TRUE;
        }
      else
        {
          decode_wide (record, record + SEXTANT_HALF_WIRE_BYTES, &halves[n++]);
          taken = 2;
        }
      *records += taken * SEXTANT_HALF_WIRE_BYTES;
      *n_records -= taken;
    }

  return n;
}
