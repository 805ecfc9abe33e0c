/*
 * test-onecoll-thread-level.c - onecoll_init() refuses MPI without
 * MPI_THREAD_MULTIPLE, cleanly.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: test-onecoll-thread-level single|funneled|serialized
 * Initialises MPI at that level and checks that onecoll_init() returns
 * ONECOLL_ERR_THREAD_LEVEL without communicating, starting a thread or
 * leaving anything behind, and that the runtime then reports itself not
 * initialised. Exits 77 (meson's "skipped") if MPI grants MULTIPLE anyway.
 */
#include "oc-test.h"

int
main (int   argc,
      char *argv[])
{
  int required = MPI_THREAD_SINGLE;
  int provided = MPI_THREAD_SINGLE;
  unsigned char byte = 0;

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s single|funneled|serialized\n", argv[0]);
      return 2;
    }
  if (strcmp (argv[1], "single") == 0)
    required = MPI_THREAD_SINGLE;
  else if (strcmp (argv[1], "funneled") == 0)
    required = MPI_THREAD_FUNNELED;
  else if (strcmp (argv[1], "serialized") == 0)
    required = MPI_THREAD_SERIALIZED;
  else
    {
      fprintf (stderr, "unknown thread level '%s'\n", argv[1]);
      return 2;
    }

  /* Before MPI exists at all. */
  OC_EXPECT_RC (onecoll_init (MPI_COMM_WORLD, NULL), ONECOLL_ERR_MPI, "init before MPI_Init");

  MPI_Init_thread (&argc, &argv, required, &provided);
  MPI_Comm_rank (MPI_COMM_WORLD, &oc_rank);
  if (provided == MPI_THREAD_MULTIPLE)
    {
      if (oc_rank == 0)
        printf ("SKIP: MPI granted MPI_THREAD_MULTIPLE for %s\n", argv[1]);
      MPI_Finalize ();
      return 77;
    }

  OC_EXPECT_RC (onecoll_init (MPI_COMM_WORLD, NULL), ONECOLL_ERR_THREAD_LEVEL,
                "init at level %s (provided %d)", argv[1], provided);
  if (onecoll_initialized ())
    OC_FAIL ("runtime reports itself initialised after a refused init (%s)", argv[1]);
  OC_EXPECT_RC (onecoll_bcast (1, &byte, 1, 0, NULL), ONECOLL_ERR_NOT_INIT, "bcast (%s)", argv[1]);
  OC_EXPECT_RC (onecoll_finalize (), ONECOLL_ERR_NOT_INIT, "finalize (%s)", argv[1]);
  /* Refused again, not half-initialised by the first attempt. */
  OC_EXPECT_RC (onecoll_init (MPI_COMM_WORLD, NULL), ONECOLL_ERR_THREAD_LEVEL,
                "second init at level %s", argv[1]);

  MPI_Barrier (MPI_COMM_WORLD);
  if (oc_rank == 0)
    printf ("onecoll thread level %s: refused with ONECOLL_ERR_THREAD_LEVEL\n", argv[1]);
  MPI_Finalize ();
  return 0;
}
