/*
 * test-onecoll-bcast.c - correctness of the RMA broadcasts on N ranks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Run by meson once per process count 1..16 (one mpirun each); every loop
 * over roots, sizes and algorithms is inside the program so the suite stays
 * fast. Phases:
 *
 *  sweep       every variant (linear, binomial smallest-first, binomial
 *              largest-first) x every root x sizes 0, 1, 7, 4 KiB, 1 MiB and
 *              (p <= 8) 40 MiB. Alternates the caller's buffer (the window
 *              itself, or a private buffer to copy to/from) and the way of
 *              waiting (flush everywhere; test() in a loop everywhere; flush
 *              at the root only, then a barrier, after which test() must
 *              already report completion on every rank). Checks that the
 *              data is byte-exact on every rank, that test() keeps reporting
 *              1, and that the bytes after the broadcast were not touched.
 *              A barrier ends each broadcast.
 *  back2back   1000 broadcasts on one window without any barrier: random
 *              root, size, variant and buffer mode each time; every rank
 *              checks every one. Only the library's release protocol keeps
 *              one broadcast from overwriting another that is being read.
 *  twowin      200 rounds of two broadcasts on two windows in flight at
 *              once (different roots, algorithms, sizes), completed in
 *              both orders; window-level default algorithms via NULL opts.
 *  relays      re-initialises the runtime twice and repeats 300 of the
 *              back2back broadcasts: with ONECOLL_RELAY_BROADCASTER (only
 *              the Broadcasters relay, the paper's runtime) and with a
 *              root that helps only after 20 us (so that relays by the
 *              Broadcasters, by the waiting threads and by the root mix).
 *              The first phases run onecoll's defaults: waiting threads
 *              relay, and the waiting root relays at once for ranks that
 *              have not claimed their requests.
 *  fixed       re-initialises the runtime with the paper's fixed 1 ms
 *              polling and Broadcaster-only relays, and runs a few
 *              broadcasts.
 *
 * Nothing here depends on timing: every assertion follows from the
 * completion semantics in onecoll.h.
 */
#include "oc-test.h"

#include <sched.h>

#define GUARD 64                    /* bytes after the broadcast that must stay intact */
#define MIB ((int64_t) 1 << 20)

static int nprocs;
static uint64_t n_checked;          /* broadcasts verified on this rank */

typedef enum
{
  WAIT_FLUSH = 0,                   /* every rank calls onecoll_bcast_flush() */
  WAIT_TEST = 1,                    /* every rank loops on onecoll_bcast_test() */
  WAIT_ROOT_ONLY = 2,               /* root flushes, barrier, others test once */
} wait_style;

typedef struct
{
  const char *phase;
  int root;
  int64_t count;
  const onecoll_bcast_opts *opts;
  uint64_t iter;
} bcast_case;

#define CASE_FMT "phase=%s np=%d root=%d size=%lld algorithm=%s iter=%llu"
#define CASE_ARGS(c) (c)->phase, nprocs, (c)->root, (long long) (c)->count,  \
  oc_variant_name ((c)->opts), (unsigned long long) (c)->iter

/* Waits for the broadcast on @win with @style, then checks that test()
 * reports completion and keeps doing so. */
static void
wait_done (onecoll_win       win,
           wait_style        style,
           const bcast_case *c)
{
  int done = 0;

  switch (style)
    {
    case WAIT_FLUSH:
      OC_OK (onecoll_bcast_flush (win), CASE_FMT, CASE_ARGS (c));
      break;
    case WAIT_TEST:
      for (;;)
        {
          OC_OK (onecoll_bcast_test (win, &done), CASE_FMT, CASE_ARGS (c));
          if (done)
            break;
          sched_yield ();
        }
      break;
    case WAIT_ROOT_ONLY:
      if (oc_rank == c->root)
        OC_OK (onecoll_bcast_flush (win), CASE_FMT, CASE_ARGS (c));
      MPI_Barrier (MPI_COMM_WORLD);
      break;
    }
  for (int k = 0; k < 2; k++)
    {
      done = -1;
      OC_OK (onecoll_bcast_test (win, &done), CASE_FMT, CASE_ARGS (c));
      if (done != 1)
        OC_FAIL ("test() reported %d after completion (call %d): " CASE_FMT, done, k + 1,
                 CASE_ARGS (c));
    }
}

static void
check_data (const void       *data,
            const char       *where,
            const bcast_case *c)
{
  int64_t bad = oc_pattern_check (data, c->count, c->root, c->iter);

  if (bad >= 0)
    OC_FAIL ("data mismatch in %s at byte %lld: " CASE_FMT, where, (long long) bad,
             CASE_ARGS (c));
}

/* One broadcast with every rank taking part; @user is a private buffer of
 * at least c->count bytes, used when @zero_copy is 0. */
static void
run_one (onecoll_win       win,
         unsigned char    *base,
         unsigned char    *user,
         int               zero_copy,
         wait_style        style,
         const bcast_case *c)
{
  unsigned char *buf = zero_copy ? base : user;

  if (oc_rank == c->root)
    oc_pattern_fill (buf, c->count, c->root, c->iter);
  else if (!zero_copy)
    memset (buf, 0xa5, (size_t) c->count);

  OC_OK (onecoll_bcast (win, buf, c->count, c->root, c->opts), CASE_FMT, CASE_ARGS (c));
  wait_done (win, style, c);

  check_data (buf, zero_copy ? "window" : "caller's buffer", c);
  n_checked++;
}

static void
phase_sweep (void)
{
  static const int64_t sizes[] = { 0, 1, 7, 4096, MIB, 40 * MIB };
  int n_sizes = nprocs <= 8 ? 6 : 5;
  int64_t max = sizes[n_sizes - 1];
  onecoll_win win;
  unsigned char *base;
  unsigned char *user;
  uint64_t iter = 0;

  OC_OK (onecoll_win_create (max + GUARD, NULL, &win), "sweep: win_create");
  OC_OK (onecoll_win_get_base (win, (void **) &base, NULL), "sweep: get_base");
  user = malloc ((size_t) max);
  if (user == NULL)
    OC_FAIL ("out of memory");

  for (int v = 0; v < OC_N_VARIANTS; v++)
    for (int root = 0; root < nprocs; root++)
      for (int s = 0; s < n_sizes; s++)
        {
          bcast_case c = { "sweep", root, sizes[s], &oc_variants[v], ++iter };
          int zero_copy = (int) (iter & 1);
          wait_style style = (wait_style) ((iter / 2) % 3);
          unsigned char guard[GUARD];

          /* No broadcast is pending anywhere (barrier below), so every rank
           * owns its window. */
          oc_pattern_fill (guard, GUARD, -1, iter);
          memcpy (base + c.count, guard, GUARD);

          run_one (win, base, user, zero_copy, style, &c);
          if (!zero_copy)
            check_data (base, "window", &c);
          if (memcmp (base + c.count, guard, GUARD) != 0)
            OC_FAIL ("bytes after the broadcast were overwritten: " CASE_FMT, CASE_ARGS (&c));
          MPI_Barrier (MPI_COMM_WORLD);
        }

  OC_OK (onecoll_win_free (win), "sweep: win_free");
  free (user);
}

static void
phase_back_to_back (const char *phase,
                    int         n)
{
  static const int64_t sizes[] = { 0, 1, 7, 100, 4096, 65536 };
  int64_t max = 65536;
  onecoll_win win;
  unsigned char *base;
  unsigned char *user = malloc ((size_t) max);

  if (user == NULL)
    OC_FAIL ("out of memory");
  OC_OK (onecoll_win_create (max, NULL, &win), "%s: win_create", phase);
  OC_OK (onecoll_win_get_base (win, (void **) &base, NULL), "%s: get_base", phase);

  for (uint64_t i = 0; i < (uint64_t) n; i++)
    {
      uint64_t r = oc_mix (i ^ 0x5eed);
      bcast_case c = { phase, (int) (r % (uint64_t) nprocs), sizes[(r >> 16) % 6],
                       &oc_variants[(r >> 24) % OC_N_VARIANTS], 1000000 + i };
      int zero_copy = (int) ((r >> 32) & 1);
      wait_style style = (r >> 33) & 1 ? WAIT_TEST : WAIT_FLUSH;

      run_one (win, base, user, zero_copy, style, &c);
    }

  OC_OK (onecoll_win_free (win), "%s: win_free", phase);
  free (user);
}

/* Restarts the runtime with the relay mode and help delay given. */
static void
restart (const char        *phase,
         onecoll_relay_mode relay,
         uint32_t           help_after_ns)
{
  onecoll_config cfg;

  OC_OK (onecoll_finalize (), "%s: finalize the previous runtime", phase);
  OC_OK (onecoll_config_init (&cfg), "%s: config_init", phase);
  cfg.relay = relay;
  cfg.help_after_ns = help_after_ns;
  OC_OK (onecoll_init (MPI_COMM_WORLD, &cfg), "%s: init", phase);
}

static void
phase_relay_modes (void)
{
  restart ("bconly", ONECOLL_RELAY_BROADCASTER, 0);
  phase_back_to_back ("bconly", 300);
  restart ("help20us", ONECOLL_RELAY_WAITER, 20000);
  phase_back_to_back ("help20us", 300);
}

static void
phase_two_windows (void)
{
  static const onecoll_bcast_opts win_opts[2] = {
    { ONECOLL_ALGO_LINEAR, ONECOLL_ORDER_DEFAULT },
    { ONECOLL_ALGO_BINOMIAL, ONECOLL_ORDER_SMALLEST_FIRST },
  };
  int64_t max = 65536;
  onecoll_win win[2];
  unsigned char *base[2];
  unsigned char *user[2];

  for (int k = 0; k < 2; k++)
    {
      OC_OK (onecoll_win_create (max, &win_opts[k], &win[k]), "twowin: win_create %d", k);
      OC_OK (onecoll_win_get_base (win[k], (void **) &base[k], NULL), "twowin: get_base");
      user[k] = malloc ((size_t) max);
      if (user[k] == NULL)
        OC_FAIL ("out of memory");
    }

  for (uint64_t i = 0; i < 200; i++)
    {
      bcast_case c[2];
      int zero_copy[2];

      for (int k = 0; k < 2; k++)
        {
          uint64_t r = oc_mix (i * 2 + (uint64_t) k + 0x7777);
          /* NULL opts (every third round) means "the window's algorithm". */
          int inherit = (i % 3) == 0;
          unsigned char *buf;

          c[k].phase = "twowin";
          c[k].root = (int) (r % (uint64_t) nprocs);
          c[k].count = 1 + (int64_t) ((r >> 16) % (uint64_t) max);
          c[k].opts = inherit ? &win_opts[k] : &oc_variants[(r >> 40) % OC_N_VARIANTS];
          c[k].iter = 2000000 + i * 2 + (uint64_t) k;
          zero_copy[k] = (int) ((r >> 48) & 1);
          buf = zero_copy[k] ? base[k] : user[k];
          if (oc_rank == c[k].root)
            oc_pattern_fill (buf, c[k].count, c[k].root, c[k].iter);
          else if (!zero_copy[k])
            memset (buf, 0xa5, (size_t) c[k].count);
          OC_OK (onecoll_bcast (win[k], buf, c[k].count, c[k].root, inherit ? NULL : c[k].opts),
                 CASE_FMT, CASE_ARGS (&c[k]));
        }
      /* Both are in flight now; complete them in alternating order. */
      for (int j = 0; j < 2; j++)
        {
          int k = (int) ((i + (uint64_t) j) % 2);

          wait_done (win[k], i % 4 < 2 ? WAIT_FLUSH : WAIT_TEST, &c[k]);
          check_data (zero_copy[k] ? base[k] : user[k], zero_copy[k] ? "window" : "caller's buffer",
                      &c[k]);
          n_checked++;
        }
    }

  for (int k = 0; k < 2; k++)
    {
      OC_OK (onecoll_win_free (win[k]), "twowin: win_free");
      free (user[k]);
    }
}

static void
phase_fixed_polling (void)
{
  onecoll_config cfg;
  onecoll_win win;
  unsigned char *base;

  OC_OK (onecoll_finalize (), "fixed: finalize the default runtime");
  OC_OK (onecoll_config_init (&cfg), "fixed: config_init");
  OC_OK (onecoll_poll_policy_init (&cfg.waiter, ONECOLL_POLL_FIXED), "fixed: policy");
  OC_OK (onecoll_poll_policy_init (&cfg.flush, ONECOLL_POLL_FIXED), "fixed: policy");
  cfg.bcast.order = ONECOLL_ORDER_SMALLEST_FIRST;
  cfg.relay = ONECOLL_RELAY_BROADCASTER;
  OC_OK (onecoll_init (MPI_COMM_WORLD, &cfg), "fixed: init");
  OC_OK (onecoll_win_create (4096, NULL, &win), "fixed: win_create");
  OC_OK (onecoll_win_get_base (win, (void **) &base, NULL), "fixed: get_base");
  for (uint64_t i = 0; i < 6; i++)
    {
      bcast_case c = { "fixed", (int) (i % (uint64_t) nprocs), 4096,
                       &oc_variants[1 + i % 2], 3000000 + i };

      run_one (win, base, NULL, 1, WAIT_FLUSH, &c);
    }
  /* Left for onecoll_finalize() to free. */
}

/* Prints the time since the previous lap on rank 0 (to see which phase a
 * slow run spent its time in). */
static void
lap (const char *phase)
{
  static double last = -1;
  double now;

  MPI_Barrier (MPI_COMM_WORLD);
  now = MPI_Wtime ();
  if (oc_rank == 0 && last >= 0)
    printf ("  %-10s %.2f s\n", phase, now - last);
  last = now;
}

int
main (int   argc,
      char *argv[])
{
  double t0;

  oc_init_mpi (&argc, &argv);
  MPI_Comm_size (MPI_COMM_WORLD, &nprocs);
  OC_OK (onecoll_init (MPI_COMM_WORLD, NULL), "init");

  lap ("start");
  t0 = MPI_Wtime ();
  phase_sweep ();
  lap ("sweep");
  phase_back_to_back ("back2back", 1000);
  lap ("back2back");
  phase_two_windows ();
  lap ("twowin");
  phase_relay_modes ();
  lap ("relays");
  phase_fixed_polling ();
  lap ("fixed");
  OC_OK (onecoll_finalize (), "finalize");
  MPI_Barrier (MPI_COMM_WORLD);

  if (oc_rank == 0)
    printf ("onecoll bcast np=%d: %llu broadcasts verified on every rank in %.2f s\n", nprocs,
            (unsigned long long) n_checked, MPI_Wtime () - t0);
  MPI_Finalize ();
  return 0;
}
