/*
 * test-onecoll-errors.c - every documented error comes back as a code,
 * without a crash or a hang, and the runtime keeps working afterwards.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Covers: calls before init, after finalize and twice; invalid configs
 * (policies, long-wait sleeps, relay mode);
 * onecoll_win_create() with bad or mismatched arguments (which must fail on
 * every rank, not hang); onecoll_bcast() with a root out of range, a
 * negative or too large count, a NULL buffer with count > 0, invalid
 * options and unregistered windows (never created, freed, wrong serial);
 * test() with a NULL flag; the window limit; strerror for every code.
 */
#include "oc-test.h"
#include "onecoll-trace.h"

static int nprocs;

static void
check_strerror (void)
{
  static const int codes[] = {
    ONECOLL_OK, ONECOLL_ERR_ARG, ONECOLL_ERR_THREAD_LEVEL, ONECOLL_ERR_NOT_INIT,
    ONECOLL_ERR_ALREADY_INIT, ONECOLL_ERR_UNKNOWN_WINDOW, ONECOLL_ERR_MPI, ONECOLL_ERR_NOMEM,
    ONECOLL_ERR_THREAD, ONECOLL_ERR_LIMIT, ONECOLL_ERR_BUSY, ONECOLL_ERR_PEER,
  };
  int n = (int) (sizeof codes / sizeof codes[0]);
  const char *unknown = onecoll_strerror (-1000);

  if (unknown == NULL || strcmp (unknown, onecoll_strerror (7)) != 0)
    OC_FAIL ("strerror of unknown codes");
  for (int i = 0; i < n; i++)
    {
      const char *s = onecoll_strerror (codes[i]);

      if (s == NULL || *s == '\0' || strcmp (s, unknown) == 0)
        OC_FAIL ("strerror(%d) is missing", codes[i]);
      for (int j = 0; j < i; j++)
        if (strcmp (s, onecoll_strerror (codes[j])) == 0)
          OC_FAIL ("strerror(%d) == strerror(%d)", codes[i], codes[j]);
    }
}

static void
check_not_init (const char *when)
{
  unsigned char byte = 0;
  onecoll_win win = ONECOLL_WIN_NULL;
  int done = 0;
  void *base = NULL;

  if (onecoll_initialized ())
    OC_FAIL ("initialized() is 1 %s", when);
  OC_EXPECT_RC (onecoll_bcast (1, &byte, 1, 0, NULL), ONECOLL_ERR_NOT_INIT, "bcast %s", when);
  OC_EXPECT_RC (onecoll_bcast_flush (1), ONECOLL_ERR_NOT_INIT, "flush %s", when);
  OC_EXPECT_RC (onecoll_bcast_test (1, &done), ONECOLL_ERR_NOT_INIT, "test %s", when);
  OC_EXPECT_RC (onecoll_win_create (16, NULL, &win), ONECOLL_ERR_NOT_INIT, "win_create %s", when);
  OC_EXPECT_RC (onecoll_win_free (1), ONECOLL_ERR_NOT_INIT, "win_free %s", when);
  OC_EXPECT_RC (onecoll_win_get_base (1, &base, NULL), ONECOLL_ERR_NOT_INIT, "get_base %s", when);
  OC_EXPECT_RC (onecoll_finalize (), ONECOLL_ERR_NOT_INIT, "finalize %s", when);
}

static void
check_bad_configs (void)
{
  onecoll_config cfg;
  onecoll_poll_policy policy;

  OC_EXPECT_RC (onecoll_config_init (NULL), ONECOLL_ERR_ARG, "config_init(NULL)");
  OC_EXPECT_RC (onecoll_poll_policy_init (NULL, ONECOLL_POLL_FIXED), ONECOLL_ERR_ARG,
                "poll_policy_init(NULL)");
  OC_EXPECT_RC (onecoll_poll_policy_init (&policy, (onecoll_poll_mode) 7), ONECOLL_ERR_ARG,
                "poll_policy_init(mode 7)");
  OC_EXPECT_RC (onecoll_init (MPI_COMM_NULL, NULL), ONECOLL_ERR_ARG, "init(MPI_COMM_NULL)");

  onecoll_config_init (&cfg);
  cfg.max_windows = 0;
  OC_EXPECT_RC (onecoll_init (MPI_COMM_WORLD, &cfg), ONECOLL_ERR_ARG, "max_windows 0");
  cfg.max_windows = 1000000;
  OC_EXPECT_RC (onecoll_init (MPI_COMM_WORLD, &cfg), ONECOLL_ERR_ARG, "max_windows 1e6");

  onecoll_config_init (&cfg);
  cfg.waiter.sleep_min_ns = cfg.waiter.sleep_max_ns + 1;
  OC_EXPECT_RC (onecoll_init (MPI_COMM_WORLD, &cfg), ONECOLL_ERR_ARG, "sleep_min > sleep_max");

  onecoll_config_init (&cfg);
  onecoll_poll_policy_init (&cfg.flush, ONECOLL_POLL_FIXED);
  cfg.flush.interval_ns = 0;
  OC_EXPECT_RC (onecoll_init (MPI_COMM_WORLD, &cfg), ONECOLL_ERR_ARG, "fixed interval 0");

  onecoll_config_init (&cfg);
  cfg.flush.mode = (onecoll_poll_mode) 9;
  OC_EXPECT_RC (onecoll_init (MPI_COMM_WORLD, &cfg), ONECOLL_ERR_ARG, "poll mode 9");

  onecoll_config_init (&cfg);
  cfg.bcast.algo = (onecoll_algo) 9;
  OC_EXPECT_RC (onecoll_init (MPI_COMM_WORLD, &cfg), ONECOLL_ERR_ARG, "bcast algo 9");

  onecoll_config_init (&cfg);
  cfg.flush.long_wait_div = 1;
  OC_EXPECT_RC (onecoll_init (MPI_COMM_WORLD, &cfg), ONECOLL_ERR_ARG, "long_wait_div 1");
  onecoll_config_init (&cfg);
  cfg.flush.long_wait_max_ns = cfg.flush.sleep_max_ns - 1;
  OC_EXPECT_RC (onecoll_init (MPI_COMM_WORLD, &cfg), ONECOLL_ERR_ARG,
                "long_wait_max_ns < sleep_max_ns");

  onecoll_config_init (&cfg);
  cfg.relay = (onecoll_relay_mode) 5;
  OC_EXPECT_RC (onecoll_init (MPI_COMM_WORLD, &cfg), ONECOLL_ERR_ARG, "relay mode 5");

  check_not_init ("after refused configs");
}

static void
check_win_create_errors (void)
{
  onecoll_win win = ONECOLL_WIN_NULL;
  onecoll_bcast_opts bad = { (onecoll_algo) 5, ONECOLL_ORDER_DEFAULT };

  OC_EXPECT_RC (onecoll_win_create (-1, NULL, &win), ONECOLL_ERR_ARG, "win_create size -1");
  /* the head (64 bytes) would not fit in the allocation's size */
  OC_EXPECT_RC (onecoll_win_create (INT64_MAX, NULL, &win), ONECOLL_ERR_ARG,
                "win_create size INT64_MAX");
  OC_EXPECT_RC (onecoll_win_create (16, NULL, NULL), ONECOLL_ERR_ARG, "win_create out NULL");
  OC_EXPECT_RC (onecoll_win_create (16, &bad, &win), ONECOLL_ERR_ARG, "win_create bad opts");
  if (nprocs > 1)
    {
      /* One rank's mistake fails the call everywhere instead of hanging. */
      OC_EXPECT_RC (onecoll_win_create (oc_rank == 0 ? 16 : 32, NULL, &win), ONECOLL_ERR_ARG,
                    "win_create with different sizes");
      OC_EXPECT_RC (onecoll_win_create (16, NULL, oc_rank == nprocs - 1 ? NULL : &win),
                    oc_rank == nprocs - 1 ? ONECOLL_ERR_ARG : ONECOLL_ERR_PEER,
                    "win_create with NULL out on the last rank");
    }
}

static void
check_bcast_errors (onecoll_win win,
                    int64_t     size)
{
  unsigned char buf[256];
  onecoll_bcast_opts bad_algo = { (onecoll_algo) 7, ONECOLL_ORDER_DEFAULT };
  onecoll_bcast_opts bad_order = { ONECOLL_ALGO_BINOMIAL, (onecoll_order) 9 };
  int done = 0;

  OC_EXPECT_RC (onecoll_bcast (win, buf, 1, -1, NULL), ONECOLL_ERR_ARG, "root -1");
  OC_EXPECT_RC (onecoll_bcast (win, buf, 1, nprocs, NULL), ONECOLL_ERR_ARG, "root = np");
  OC_EXPECT_RC (onecoll_bcast (win, buf, 1, 1 << 30, NULL), ONECOLL_ERR_ARG, "root 2^30");
  OC_EXPECT_RC (onecoll_bcast (win, buf, -1, 0, NULL), ONECOLL_ERR_ARG, "count -1");
  OC_EXPECT_RC (onecoll_bcast (win, buf, INT64_MIN, 0, NULL), ONECOLL_ERR_ARG, "count INT64_MIN");
  OC_EXPECT_RC (onecoll_bcast (win, buf, size + 1, 0, NULL), ONECOLL_ERR_ARG, "count > window");
  OC_EXPECT_RC (onecoll_bcast (win, NULL, 1, 0, NULL), ONECOLL_ERR_ARG, "NULL buffer, count 1");
  OC_EXPECT_RC (onecoll_bcast (win, buf, 1, 0, &bad_algo), ONECOLL_ERR_ARG, "algo 7");
  OC_EXPECT_RC (onecoll_bcast (win, buf, 1, 0, &bad_order), ONECOLL_ERR_ARG, "order 9");

  /* Unregistered ids: never issued, a valid slot with a wrong serial, a
   * slot beyond the table. */
  OC_EXPECT_RC (onecoll_bcast (ONECOLL_WIN_NULL, buf, 1, 0, NULL), ONECOLL_ERR_UNKNOWN_WINDOW,
                "window 0");
  OC_EXPECT_RC (onecoll_bcast (win + ((onecoll_win) 1 << 16), buf, 1, 0, NULL),
                ONECOLL_ERR_UNKNOWN_WINDOW, "window with a later serial");
  OC_EXPECT_RC (onecoll_bcast ((onecoll_win) 0xffffffffffffull, buf, 1, 0, NULL),
                ONECOLL_ERR_UNKNOWN_WINDOW, "window 2^48-1");
  OC_EXPECT_RC (onecoll_bcast_flush (12345), ONECOLL_ERR_UNKNOWN_WINDOW, "flush unknown");
  OC_EXPECT_RC (onecoll_bcast_test (12345, &done), ONECOLL_ERR_UNKNOWN_WINDOW, "test unknown");
  OC_EXPECT_RC (onecoll_win_get_base (12345, NULL, NULL), ONECOLL_ERR_UNKNOWN_WINDOW,
                "get_base unknown");
  OC_EXPECT_RC (onecoll_bcast_test (win, NULL), ONECOLL_ERR_ARG, "test with NULL flag");

  /* Nothing pending after all that. */
  done = 0;
  OC_OK (onecoll_bcast_test (win, &done), "test after errors");
  if (!done)
    OC_FAIL ("a failed bcast left a broadcast pending");
  OC_OK (onecoll_bcast_flush (win), "flush after errors");
}

/* A real broadcast still works after the errors. */
static void
check_bcast_works (onecoll_win win,
                   uint64_t    iter)
{
  unsigned char buf[128];
  int root = (int) (iter % (uint64_t) nprocs);

  if (oc_rank == root)
    oc_pattern_fill (buf, sizeof buf, root, iter);
  else
    memset (buf, 0, sizeof buf);
  OC_OK (onecoll_bcast (win, buf, sizeof buf, root, NULL), "bcast after errors, root %d", root);
  OC_OK (onecoll_bcast_flush (win), "flush after errors, root %d", root);
  if (oc_pattern_check (buf, sizeof buf, root, iter) >= 0)
    OC_FAIL ("data mismatch after errors, root %d", root);

  /* NULL buffer with count 0 is valid. */
  OC_OK (onecoll_bcast (win, NULL, 0, root, NULL), "0-byte bcast with NULL buffer");
  OC_OK (onecoll_bcast_flush (win), "flush of 0-byte bcast");
}

int
main (int   argc,
      char *argv[])
{
  onecoll_config cfg;
  onecoll_win win;
  onecoll_win extra[2];
  onecoll_win over = ONECOLL_WIN_NULL;

  oc_init_mpi (&argc, &argv);
  check_strerror ();
  MPI_Comm_size (MPI_COMM_WORLD, &nprocs);

  if (onecoll_last_mpi_error () != MPI_SUCCESS)
    OC_FAIL ("last_mpi_error set before any error");
  check_not_init ("before init");
  check_bad_configs ();

  OC_OK (onecoll_init (MPI_COMM_WORLD, NULL), "init");
  if (!onecoll_initialized ())
    OC_FAIL ("initialized() is 0 after init");
  OC_EXPECT_RC (onecoll_init (MPI_COMM_WORLD, NULL), ONECOLL_ERR_ALREADY_INIT, "second init");
  OC_EXPECT_RC (onecoll_set_trace_hooks (NULL), ONECOLL_ERR_BUSY, "set_trace_hooks while running");

  check_win_create_errors ();
  OC_OK (onecoll_win_create (128, NULL, &win), "win_create");
  check_bcast_errors (win, 128);
  for (uint64_t i = 0; i < (uint64_t) nprocs + 1; i++)
    check_bcast_works (win, i);

  {
    /* A 0-byte window takes 0-byte broadcasts only. */
    onecoll_win empty;
    unsigned char byte = 0;

    OC_OK (onecoll_win_create (0, NULL, &empty), "0-byte win_create");
    OC_EXPECT_RC (onecoll_bcast (empty, &byte, 1, 0, NULL), ONECOLL_ERR_ARG, "1 byte into 0");
    OC_OK (onecoll_bcast (empty, NULL, 0, nprocs - 1, NULL), "0-byte bcast on 0-byte window");
    OC_OK (onecoll_bcast_flush (empty), "flush on 0-byte window");
    OC_OK (onecoll_win_free (empty), "0-byte win_free");
  }

  OC_OK (onecoll_win_free (win), "win_free");
  OC_EXPECT_RC (onecoll_win_free (win), ONECOLL_ERR_UNKNOWN_WINDOW, "second win_free");
  OC_EXPECT_RC (onecoll_bcast (win, NULL, 0, 0, NULL), ONECOLL_ERR_UNKNOWN_WINDOW,
                "bcast on a freed window");
  OC_OK (onecoll_finalize (), "finalize");
  check_not_init ("after finalize");

  /* Window limit, re-initialisation, and finalize freeing what is left. */
  onecoll_config_init (&cfg);
  cfg.max_windows = 2;
  OC_OK (onecoll_init (MPI_COMM_WORLD, &cfg), "init with max_windows 2");
  OC_OK (onecoll_win_create (128, NULL, &extra[0]), "first of two windows");
  OC_OK (onecoll_win_create (128, NULL, &extra[1]), "second of two windows");
  OC_EXPECT_RC (onecoll_win_create (128, NULL, &over), ONECOLL_ERR_LIMIT, "third of two windows");
  if (extra[0] == extra[1] || extra[0] == win || extra[1] == win)
    OC_FAIL ("window ids repeat");
  OC_OK (onecoll_win_free (extra[0]), "free first");
  OC_OK (onecoll_win_create (128, NULL, &over), "create into the freed slot");
  if (over == extra[0])
    OC_FAIL ("a freed window id was reused");
  OC_EXPECT_RC (onecoll_bcast (extra[0], NULL, 0, 0, NULL), ONECOLL_ERR_UNKNOWN_WINDOW,
                "stale id of a reused slot");
  check_bcast_works (over, 7);
  OC_OK (onecoll_finalize (), "finalize with two windows left");
  check_not_init ("after the second finalize");

  MPI_Barrier (MPI_COMM_WORLD);
  if (oc_rank == 0)
    printf ("onecoll errors np=%d: all error paths returned their codes\n", nprocs);
  MPI_Finalize ();
  return 0;
}
