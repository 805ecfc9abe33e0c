/*
 * rec-onecoll-tree.c - onecoll broadcasts whose relay trees are known.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Linked with the recorder and onecoll (sextant_recorder_onecoll_dep);
 * tests/test-trees.py records it on p = 2..16 ranks and checks the trees
 * `sextant tree` draws from the trace.
 *
 * Pass 1, every rank relays for itself: the paper's runtime
 * (ONECOLL_RELAY_BROADCASTER: only the Broadcasters relay, the root never
 * helps). Two windows, binomial, smallest-subtree-first (BYTES_SMALL bytes,
 * whose data a put loop sends to all children first) and
 * largest-subtree-first (BYTES_LARGE bytes, child by child); on each, a
 * broadcast from root 0 and one from root p - 1 (sequence numbers 1 and
 * 2). Each tree must be exactly the binomial tree, every edge done by the
 * parent's Broadcaster (or by the root), its children served in the
 * window's order.
 *
 * Pass 2 (with --help-pass, p >= 4): the default runtime (relays by waiting
 * threads, the root helps at once), but Broadcasters that poll only once a
 * second, and rank SLEEPER (2, a child of root 0 with a child of its own,
 * rank 3) asleep for SLEEP_MS before its onecoll_bcast: nobody on rank 2
 * claims its request, so the root relays for it (onecoll_help_relay), and
 * the tree shows the edge root -> 3 by "root help".
 */
#include "../recorder/rec-test.h"

#include "onecoll.h"

#include <stdint.h>
#include <string.h>

#define BYTES_SMALL 64
#define BYTES_LARGE 8192
#define SLEEPER 2
#define SLEEP_MS 300

static unsigned char buf[BYTES_LARGE];

static void
bcast (onecoll_win win,
       int64_t     count,
       int         root,
       int         tag)
{
  int rc;

  memset (buf, rec_rank == root ? tag : 0xff, (size_t) count);
  rc = onecoll_bcast (win, buf, count, root, NULL);
  REC_CHECK (rc == ONECOLL_OK, "bcast: %s", onecoll_strerror (rc));
  rc = onecoll_bcast_flush (win);
  REC_CHECK (rc == ONECOLL_OK, "flush: %s", onecoll_strerror (rc));
  REC_CHECK (buf[0] == tag && buf[count - 1] == tag, "broadcast %d: got %u", tag, buf[0]);
}

static onecoll_win
window (int64_t       size,
        onecoll_order order)
{
  onecoll_bcast_opts opts = { ONECOLL_ALGO_BINOMIAL, order };
  onecoll_win win;
  int rc = onecoll_win_create (size, &opts, &win);

  REC_CHECK (rc == ONECOLL_OK, "win_create: %s", onecoll_strerror (rc));
  return win;
}

int
main (int    argc,
      char **argv)
{
  onecoll_config cfg;
  onecoll_win small, large;
  int provided, size, rc;
  int help_pass = argc > 1 && strcmp (argv[1], "--help-pass") == 0;

  MPI_Init_thread (&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank (MPI_COMM_WORLD, &rec_rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  REC_CHECK (provided == MPI_THREAD_MULTIPLE, "no MPI_THREAD_MULTIPLE");

  /* pass 1: only the Broadcasters relay */
  onecoll_config_init (&cfg);
  cfg.relay = ONECOLL_RELAY_BROADCASTER;
  REC_CHECK ((rc = onecoll_init (MPI_COMM_WORLD, &cfg)) == ONECOLL_OK, "onecoll_init: %s", onecoll_strerror (rc));
  small = window (BYTES_SMALL, ONECOLL_ORDER_SMALLEST_FIRST);
  large = window (BYTES_LARGE, ONECOLL_ORDER_LARGEST_FIRST);
  bcast (small, BYTES_SMALL, 0, 1);
  bcast (small, BYTES_SMALL, size - 1, 2);
  bcast (large, BYTES_LARGE, 0, 3);
  bcast (large, BYTES_LARGE, size - 1, 4);
  REC_CHECK (onecoll_win_free (small) == ONECOLL_OK && onecoll_win_free (large) == ONECOLL_OK, "win_free");
  REC_CHECK (onecoll_finalize () == ONECOLL_OK, "finalize");

  /* pass 2: the root relays for a sleeping rank */
  if (help_pass && size > SLEEPER + 1)
    {
      onecoll_win win;

      onecoll_config_init (&cfg);
      cfg.help_after_ns = 0;
      onecoll_poll_policy_init (&cfg.waiter, ONECOLL_POLL_FIXED);
      cfg.waiter.interval_ns = 1000000000u;
      REC_CHECK ((rc = onecoll_init (MPI_COMM_WORLD, &cfg)) == ONECOLL_OK, "onecoll_init: %s",
                 onecoll_strerror (rc));
      win = window (BYTES_SMALL, ONECOLL_ORDER_LARGEST_FIRST);
      if (rec_rank == SLEEPER)
        rec_sleep_ms (SLEEP_MS);
      bcast (win, BYTES_SMALL, 0, 5);
      REC_CHECK (onecoll_win_free (win) == ONECOLL_OK, "win_free");
      REC_CHECK (onecoll_finalize () == ONECOLL_OK, "finalize");
    }

  MPI_Finalize ();
  return 0;
}
