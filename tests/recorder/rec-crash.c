/*
 * rec-crash.c - runs that end in a crash, for the crash journal.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every rank (2 at least; 3 for segv) does ALLREDUCES allreduces, then:
 *
 *   rec-crash segv        rank 2 dereferences NULL (crash_now); the others
 *                         wait in the next allreduce until mpirun kills them;
 *   rec-crash abort       rank 1 calls MPI_Abort; the others wait likewise;
 *   rec-crash loop FILE   every rank writes its pid to FILE.R, rank 0
 *                         creates FILE, and all go on with allreduces until
 *                         they are killed (by `timeout`, or one of them by
 *                         SIGKILL).
 */
#include "rec-test.h"

#include <string.h>
#include <unistd.h>

#define ALLREDUCES 100

static volatile int *volatile nowhere;

static void
crash_now (void)
{
  *nowhere = 1; /* CRASH:segv */
}

int
main (int    argc,
      char **argv)
{
  int size = rec_init (&argc, &argv, 2);
  const char *mode = argc > 1 ? argv[1] : "segv";
  int in = 1, out = 0;

  REC_CHECK (size >= 3 || strcmp (mode, "segv") != 0, "segv needs 3 ranks at least");
  for (int i = 0; i < ALLREDUCES; i++)
    {
      MPI_Allreduce (&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* CALLSITE:MPI_Allreduce */
      REC_CHECK (out == size, "allreduce gave %d", out);
    }

  if (strcmp (mode, "segv") == 0 && rec_rank == 2)
    crash_now ();
  else if (strcmp (mode, "abort") == 0 && rec_rank == 1)
    MPI_Abort (MPI_COMM_WORLD, 3); /* CALLSITE:MPI_Abort */
  else if (strcmp (mode, "loop") == 0 && argc > 2)
    {
      char path[4096];
      FILE *f;

      snprintf (path, sizeof path, "%s.%d", argv[2], rec_rank);
      if ((f = fopen (path, "w")) != NULL)
        {
          fprintf (f, "%ld\n", (long) getpid ());
          fclose (f);
        }
      MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */
      if (rec_rank == 0 && (f = fopen (argv[2], "w")) != NULL)
        fclose (f);
    }
  for (;;)
    MPI_Allreduce (&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* CALLSITE:MPI_Allreduce */
  return 0;
}
