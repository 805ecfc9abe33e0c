/*
 * rec-onecoll.c - onecoll's binomial broadcast, recorded from the inside.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Linked with the recorder and onecoll (sextant_recorder_onecoll_dep): the
 * recorder installs onecoll's trace hooks at MPI_Init_thread. Two runtimes
 * (PASSES) of ROUNDS x p broadcasts of BYTES bytes each, every rank root in
 * turn, each completed with onecoll_bcast_flush() and checked. The trace
 * has one location per main thread and per Broadcaster; with the binomial
 * algorithm every broadcast makes p - 1 put_request visits and one relay
 * per rank with children (broadcaster_relay visits, plus help_relay visits
 * of the root in the first pass; a leaf is completed by its parent).
 */
#include "rec-test.h"

#include "onecoll.h"

#include <stdint.h>
#include <string.h>

#define PASSES 2
#define ROUNDS 3
#define BYTES 1024

int
main (int    argc,
      char **argv)
{
  unsigned char buf[BYTES];
  onecoll_win win;
  int provided, size, rc;

  MPI_Init_thread (&argc, &argv, MPI_THREAD_MULTIPLE, &provided); /* CALLSITE:MPI_Init_thread */
  MPI_Comm_rank (MPI_COMM_WORLD, &rec_rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  REC_CHECK (provided == MPI_THREAD_MULTIPLE, "no MPI_THREAD_MULTIPLE");

  /* Pass 0: onecoll's defaults (the waiting threads relay, and the root
   * relays at once for ranks that are slow to: onecoll_help_relay). Pass 1:
   * the root never helps, so every relay is a onecoll_broadcaster_relay of
   * the rank itself, on its Broadcaster or its waiting main thread. */
  for (int pass = 0; pass < PASSES; pass++)
    {
      onecoll_config cfg;

      onecoll_config_init (&cfg);
      if (pass == 1)
        cfg.help_after_ns = UINT32_MAX;
      REC_CHECK ((rc = onecoll_init (MPI_COMM_WORLD, &cfg)) == ONECOLL_OK, "onecoll_init: %s", onecoll_strerror (rc));
      REC_CHECK ((rc = onecoll_win_create (BYTES, NULL, &win)) == ONECOLL_OK, "win_create: %s", onecoll_strerror (rc));
      for (int round = 0; round < ROUNDS; round++)
        for (int root = 0; root < size; root++)
          {
            memset (buf, rec_rank == root ? (unsigned char) (round * 16 + root) : 0xff, sizeof buf);
            rc = onecoll_bcast (win, buf, BYTES, root, NULL);
            REC_CHECK (rc == ONECOLL_OK, "bcast: %s", onecoll_strerror (rc));
            rc = onecoll_bcast_flush (win);
            REC_CHECK (rc == ONECOLL_OK, "flush: %s", onecoll_strerror (rc));
            REC_CHECK (buf[0] == (unsigned char) (round * 16 + root) && buf[BYTES - 1] == buf[0],
                       "pass %d round %d root %d: got %u", pass, round, root, buf[0]);
          }
      REC_CHECK (onecoll_win_free (win) == ONECOLL_OK, "win_free");
      REC_CHECK (onecoll_finalize () == ONECOLL_OK, "finalize");
    }
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
