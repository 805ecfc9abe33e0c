/*
 * test-half-wire.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A message half crosses ranks unchanged whatever its values: compact
 * where they fit, whole where one does not (a thread that records for its
 * process, a sequence number or size past 32 bits, a post long before the
 * receive, an unknown time), read back in any cut of the stream.
 */
#include "config.h"

#include <string.h>

#include "sextant-half-wire.h"
#include "sextant-store.h"

static SextantDeferredHalf
half (gboolean is_recv,
      gint64   seq)
{
  SextantDeferredHalf h;

  memset (&h, 0, sizeof h);
  h.is_recv = is_recv;
  h.half = (SextantHalf) {
    .comm = 3, .src = 17, .dst = 40, .seq = seq, .tag = 99, .loc = is_recv ? 40 : 17, .bytes = 4096,
    .mode = 1, .time = 1000000000000 + seq * 5000, .visit = 123456789012 + seq, .request = is_recv ? 77 : SEXTANT_NULL,
    .time2 = is_recv ? 1000000000000 + seq * 5000 - 300 : SEXTANT_NULL, .visit2 = is_recv ? 123456789000 : SEXTANT_NULL,
    .post = 1000000000000 + seq * 5000 - (is_recv ? 300 : 0),
  };

  return h;
}

static void
check_equal (const SextantDeferredHalf *x,
             const SextantDeferredHalf *y)
{
  g_assert_cmpint (x->is_recv, ==, y->is_recv);
  g_assert_cmpint (x->half.comm, ==, y->half.comm);
  g_assert_cmpint (x->half.src, ==, y->half.src);
  g_assert_cmpint (x->half.dst, ==, y->half.dst);
  g_assert_cmpint (x->half.seq, ==, y->half.seq);
  g_assert_cmpuint (x->half.tag, ==, y->half.tag);
  g_assert_cmpint (x->half.loc, ==, y->half.loc);
  g_assert_cmpint (x->half.bytes, ==, y->half.bytes);
  g_assert_cmpint (x->half.mode, ==, y->half.mode);
  g_assert_cmpint (x->half.time, ==, y->half.time);
  g_assert_cmpint (x->half.visit, ==, y->half.visit);
  g_assert_cmpint (x->half.request, ==, y->half.request);
  g_assert_cmpint (x->half.time2, ==, y->half.time2);
  g_assert_cmpint (x->half.visit2, ==, y->half.visit2);
  g_assert_cmpint (x->half.post, ==, y->half.post);
}

static void
test_round_trip (void)
{
  g_autoptr(GArray) halves = g_array_new (FALSE, FALSE, sizeof (SextantDeferredHalf));
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  guint n_wide = 0;
  guint64 n_records;

  for (gint64 i = 0; i < 12; i++)
    {
      SextantDeferredHalf h = half (i % 2, i);
      guint8 records[2 * SEXTANT_HALF_WIRE_BYTES];
      guint n;

      switch (i)
        {
        case 2: h.half.loc = 18; break;                              /* a thread of the sender */
        case 3: h.half.seq = G_GINT64_CONSTANT (5000000000); break;  /* past 32 bits */
        case 5: h.half.time2 = h.half.time - G_GINT64_CONSTANT (10000000000); break;
        case 6: h.half.bytes = G_GINT64_CONSTANT (1) << 33; break;
        case 7: h.half.src = -5; h.half.visit2 = h.half.visit + 3; break; /* a peer no location stands for */
        case 8: h.half.time = SEXTANT_NULL; break;
        case 9: h.half.comm = G_GINT64_CONSTANT (1) << 40; h.half.dst = G_GINT64_CONSTANT (3) << 31; break;
        default: break;
        }
      n = sextant_half_wire_encode (&h, records);
      g_assert_true (n == 1 || n == 2);
      n_wide += n == 2;
      g_byte_array_append (stream, records, n * SEXTANT_HALF_WIRE_BYTES);
      g_array_append_val (halves, h);
    }
  /* the usual half is compact (7: a peer that no location stands for), each odd one whole */
  g_assert_cmpuint (n_wide, ==, 6);
  n_records = stream->len / SEXTANT_HALF_WIRE_BYTES;

  /* read back in parts of every size, at most every count at a time */
  for (guint64 part = 1; part <= n_records; part++)
    for (gsize max = 1; max <= 3; max++)
      {
        SextantHalfWireReader reader = { 0 };
        guint got = 0;

        for (guint64 first = 0; first < n_records; first += part)
          {
            const guint8 *at = stream->data + first * SEXTANT_HALF_WIRE_BYTES;
            guint64 left = MIN (part, n_records - first);

            while (left > 0)
              {
                SextantDeferredHalf out[3];
                gsize n = sextant_half_wire_decode (&reader, &at, &left, out, max);

                for (gsize k = 0; k < n; k++)
                  check_equal (&out[k], &g_array_index (halves, SextantDeferredHalf, got + k));
                got += (guint)n;
              }
          }
        g_assert_cmpuint (got, ==, halves->len);
        g_assert_false (reader.has_head);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/half-wire/round-trip", test_round_trip);

  return g_test_run ();
}
