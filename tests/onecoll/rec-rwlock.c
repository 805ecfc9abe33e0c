/*
 * rec-rwlock.c - onecoll's shared-memory reader-writer lock, recorded with
 * the Sextant recorder linked in (sextant_recorder_onecoll_dep), so that
 * check-rwlock-recording.py finds planted lock waits in the trace.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: rec-rwlock SCHEME. MPI only carries the processes and the segment
 * name; the lock is between processes as always. Rank 0 is the writer
 * (server), ranks 1..p-1 are the clients (slot rank - 1). Two planted
 * waits, HOLD_MS each:
 *  1. the writer takes the write lock and holds it; after a barrier every
 *     client calls rdlock (line marked WAIT:rdlock) and waits for it;
 *  2. client 1 takes its read lock and holds it; after a barrier the
 *     writer calls wrlock (line marked WAIT:wrlock) and waits for it.
 * Exit status 0 if every call succeeded.
 */
#include "onecoll.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HOLD_MS 60

static void
check (int         rc,
       const char *what)
{
  if (rc != ONECOLL_OK)
    {
      fprintf (stderr, "rec-rwlock: %s: %s\n", what, onecoll_strerror (rc));
      MPI_Abort (MPI_COMM_WORLD, 1);
    }
}

int
main (int    argc,
      char **argv)
{
  onecoll_rwlock *lock = NULL;
  char name[64];
  int rank, size, scheme;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  scheme = onecoll_rwlock_scheme_from_name (argc > 1 ? argv[1] : "n-mcs");
  if (scheme <= 0 || size < 2)
    {
      fprintf (stderr, "usage: rec-rwlock SCHEME, on 2 or more ranks\n");
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  if (rank == 0)
    {
      onecoll_rwlock_config cfg;

      snprintf (name, sizeof name, "/sextant-rec-rwlock-%d", (int) getpid ());
      onecoll_rwlock_config_init (&cfg, (onecoll_rwlock_scheme) scheme, size - 1);
      cfg.replace = 1;
      check (onecoll_rwlock_init (name, &cfg, &lock), "init");
    }
  MPI_Bcast (name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank > 0)
    check (onecoll_rwlock_attach (name, rank - 1, &lock), "attach");
  MPI_Barrier (MPI_COMM_WORLD);

  /* 1: the clients wait for the writer */
  if (rank == 0)
    {
      check (onecoll_rwlock_wrlock (lock), "wrlock");
      MPI_Barrier (MPI_COMM_WORLD);
      usleep (HOLD_MS * 1000);
      check (onecoll_rwlock_wrunlock (lock), "wrunlock");
    }
  else
    {
      MPI_Barrier (MPI_COMM_WORLD);
      check (onecoll_rwlock_rdlock (lock), "rdlock");  /* WAIT:rdlock */
      check (onecoll_rwlock_rdunlock (lock), "rdunlock");
    }
  MPI_Barrier (MPI_COMM_WORLD);

  /* 2: the writer waits for client 1 */
  if (rank == 1)
    {
      check (onecoll_rwlock_rdlock (lock), "rdlock");
      MPI_Barrier (MPI_COMM_WORLD);
      usleep (HOLD_MS * 1000);
      check (onecoll_rwlock_rdunlock (lock), "rdunlock");
    }
  else if (rank == 0)
    {
      MPI_Barrier (MPI_COMM_WORLD);
      check (onecoll_rwlock_wrlock (lock), "wrlock");  /* WAIT:wrlock */
      check (onecoll_rwlock_wrunlock (lock), "wrunlock");
    }
  else
    MPI_Barrier (MPI_COMM_WORLD);
  MPI_Barrier (MPI_COMM_WORLD);
  check (onecoll_rwlock_destroy (lock), "destroy");
  MPI_Finalize ();
  return 0;
}
