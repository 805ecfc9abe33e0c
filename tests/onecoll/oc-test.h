/*
 * oc-test.h - helpers shared by the onecoll MPI tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A failed check prints one line naming the rank and what was being done
 * and aborts the whole MPI job with exit code 1, so mpirun (and so meson)
 * sees the failure at once instead of a hang.
 *
 * Broadcast data is a pattern that depends on (root, iteration, byte index):
 * byte i of broadcast (root, iter) is byte (i mod 8) of mix(seed + i / 8),
 * with seed = mix(root, iter). Any byte from another broadcast, another
 * offset or stale memory differs from it with probability 255/256, and a
 * whole misplaced 8-byte word goes unnoticed with probability 2^-64.
 */
#ifndef OC_TEST_H
#define OC_TEST_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onecoll.h"

static int oc_rank = -1;            /* MPI_COMM_WORLD rank, for messages */

#define OC_FAIL(...)                                                         \
  do {                                                                       \
    fprintf (stderr, "FAIL [rank %d] %s:%d: ", oc_rank, __FILE__, __LINE__); \
    fprintf (stderr, __VA_ARGS__);                                           \
    fputc ('\n', stderr);                                                    \
    fflush (stderr);                                                         \
    MPI_Abort (MPI_COMM_WORLD, 1);                                           \
    exit (1);                                                                \
  } while (0)

/* Checks that a onecoll call returned @expected; @what describes the case. */
#define OC_EXPECT_RC(call, expected, ...)                                    \
  do {                                                                       \
    int oc_rc_ = (call);                                                     \
    if (oc_rc_ != (expected))                                                \
      {                                                                      \
        char oc_what_[256];                                                  \
        snprintf (oc_what_, sizeof oc_what_, __VA_ARGS__);                   \
        OC_FAIL ("%s: %s returned %d (%s), expected %d (%s)", oc_what_,      \
                 #call, oc_rc_, onecoll_strerror (oc_rc_), (int) (expected), \
                 onecoll_strerror (expected));                               \
      }                                                                      \
  } while (0)

#define OC_OK(call, ...) OC_EXPECT_RC (call, ONECOLL_OK, __VA_ARGS__)

static inline uint64_t
oc_mix (uint64_t x)
{
  /* splitmix64's finaliser */
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static inline uint64_t
oc_seed (int      root,
         uint64_t iter)
{
  return oc_mix (((uint64_t) (unsigned) root << 40) ^ oc_mix (iter));
}

static inline void
oc_pattern_fill (void    *buf,
                 int64_t  count,
                 int      root,
                 uint64_t iter)
{
  unsigned char *b = buf;
  uint64_t seed = oc_seed (root, iter);
  int64_t i = 0;

  for (; i + 8 <= count; i += 8)
    {
      uint64_t v = oc_mix (seed + (uint64_t) i / 8);

      memcpy (b + i, &v, 8);
    }
  if (i < count)
    {
      uint64_t v = oc_mix (seed + (uint64_t) i / 8);

      memcpy (b + i, &v, (size_t) (count - i));
    }
}

/* Returns the index of the first wrong byte, or -1. */
static inline int64_t
oc_pattern_check (const void *buf,
                  int64_t     count,
                  int         root,
                  uint64_t    iter)
{
  const unsigned char *b = buf;
  uint64_t seed = oc_seed (root, iter);
  int64_t i = 0;

  for (; i + 8 <= count; i += 8)
    {
      uint64_t v = oc_mix (seed + (uint64_t) i / 8);

      if (memcmp (b + i, &v, 8) != 0)
        break;
    }
  if (i < count)
    {
      uint64_t v = oc_mix (seed + (uint64_t) i / 8);
      const unsigned char *e = (const unsigned char *) &v;

      for (int64_t j = i; j < count && j < i + 8; j++)
        if (b[j] != e[j - i])
          return j;
    }
  return -1;
}

static inline const char *
oc_variant_name (const onecoll_bcast_opts *opts)
{
  if (opts->algo == ONECOLL_ALGO_LINEAR)
    return "linear";
  return opts->order == ONECOLL_ORDER_SMALLEST_FIRST ? "binomial/smallest-first"
                                                     : "binomial/largest-first";
}

/* The three broadcast variants every test runs. */
static const onecoll_bcast_opts oc_variants[] = {
  { ONECOLL_ALGO_LINEAR, ONECOLL_ORDER_DEFAULT },
  { ONECOLL_ALGO_BINOMIAL, ONECOLL_ORDER_SMALLEST_FIRST },
  { ONECOLL_ALGO_BINOMIAL, ONECOLL_ORDER_LARGEST_FIRST },
};
#define OC_N_VARIANTS ((int) (sizeof oc_variants / sizeof oc_variants[0]))

/* MPI_Init_thread with MPI_THREAD_MULTIPLE, failing loudly without it. */
static inline void
oc_init_mpi (int    *argc,
             char ***argv)
{
  int provided = MPI_THREAD_SINGLE;

  if (MPI_Init_thread (argc, argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
    {
      fprintf (stderr, "FAIL: MPI_Init_thread failed\n");
      exit (1);
    }
  MPI_Comm_rank (MPI_COMM_WORLD, &oc_rank);
  if (provided != MPI_THREAD_MULTIPLE)
    OC_FAIL ("MPI provides thread level %d, the tests need MPI_THREAD_MULTIPLE", provided);
}

#endif /* OC_TEST_H */
