/*
 * test-onecoll-trace.c - the instrumentation hooks see every region, well
 * nested, on the right thread, with the right counts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Installs counting hooks, runs each variant once from every root (every
 * rank calls onecoll_bcast and flush), finalizes, and checks - once for
 * each relay mode (ONECOLL_RELAY_WAITER, the default, and
 * ONECOLL_RELAY_BROADCASTER):
 *  - per thread, leaves match enters in LIFO order, also on the Broadcaster,
 *    which is announced by thread_begin/thread_end exactly once;
 *  - regions run on the thread the documentation says: BROADCASTER_POLL on
 *    the Broadcaster; BROADCASTER_RELAY on the Broadcaster or, in WAITER
 *    mode, on an application thread inside FLUSH, TEST or WAIT_RELEASE;
 *    HELP_RELAY only in WAITER mode, at the root, inside FLUSH or TEST;
 *  - the counts that follow from the algorithms, summed over all ranks: a
 *    linear broadcast makes p - 1 PUT_REQUESTs at its root; a binomial one
 *    makes p - 1 PUT_REQUESTs in total, ceil(log2 p) of them in the root's
 *    BCAST and the others inside relays, and one relay per non-root (by its
 *    Broadcaster, by its waiting thread or by the root for it) - in WAITER
 *    mode only per non-root that has children, as the parent of a leaf
 *    completes it; every root but the first waits for the previous
 *    broadcast's release once.
 * Also checks onecoll_region_name() for every id.
 */
#include "oc-test.h"
#include "onecoll-trace.h"

#include <stdatomic.h>

#define MAX_DEPTH 16
#define N_REGIONS (ONECOLL_REGION_LAST + 1)

typedef struct
{
  int is_bcaster;                   /* 1 on the Broadcaster thread */
  int depth;                        /* open regions */
  onecoll_region stack[MAX_DEPTH];  /* open regions, innermost last */
} thread_state;

static _Thread_local thread_state me;
static int nprocs;
static onecoll_relay_mode mode;     /* of the runtime being traced */

/* Enter counts per region, on application threads and on the Broadcaster. */
static atomic_long main_enters[N_REGIONS];
static atomic_long bcaster_enters[N_REGIONS];
static atomic_long leaves[N_REGIONS];
static atomic_int thread_begins;
static atomic_int thread_ends;
/* PUT_REQUESTs by where they happen: in the root's BCAST, inside a relay */
static atomic_long requests_in_bcast;
static atomic_long requests_in_relay;
static atomic_long loops_in_relay;

/* 1 if @region is open on this thread. */
static int
inside (onecoll_region region)
{
  for (int k = 0; k < me.depth; k++)
    if (me.stack[k] == region)
      return 1;
  return 0;
}

static void
hook_enter (void                     *user_data,
            onecoll_region            region,
            const onecoll_trace_info *info,
            const char               *file,
            int                       line)
{
  if (user_data != (void *) &thread_begins)
    OC_FAIL ("hook got the wrong user_data");
  if (region < 1 || region > ONECOLL_REGION_LAST || onecoll_region_name (region) == NULL)
    OC_FAIL ("enter of unknown region %d", region);
  if (file == NULL || strstr (file, "onecoll") == NULL || line <= 0)
    OC_FAIL ("region %s has no source location", onecoll_region_name (region));
  if (me.depth >= MAX_DEPTH)
    OC_FAIL ("regions nested deeper than %d", MAX_DEPTH);

  switch (region)
    {
    case ONECOLL_REGION_BROADCASTER_POLL:
      if (!me.is_bcaster)
        OC_FAIL ("%s on an application thread", onecoll_region_name (region));
      break;
    case ONECOLL_REGION_BROADCASTER_RELAY:
      /* an application thread relays only while it waits in onecoll */
      if (!me.is_bcaster
          && (mode != ONECOLL_RELAY_WAITER || me.depth == 0
              || (me.stack[me.depth - 1] != ONECOLL_REGION_FLUSH
                  && me.stack[me.depth - 1] != ONECOLL_REGION_TEST
                  && me.stack[me.depth - 1] != ONECOLL_REGION_WAIT_RELEASE)))
        OC_FAIL ("broadcaster_relay on an application thread outside a wait (mode %d)", mode);
      break;
    case ONECOLL_REGION_HELP_RELAY:
      if (me.is_bcaster || mode != ONECOLL_RELAY_WAITER || me.depth == 0
          || (me.stack[me.depth - 1] != ONECOLL_REGION_FLUSH
              && me.stack[me.depth - 1] != ONECOLL_REGION_TEST))
        OC_FAIL ("help_relay outside the root's flush or test (mode %d)", mode);
      if (info->root != oc_rank || info->peer < 0 || info->peer >= nprocs
          || info->peer == oc_rank || info->seq == 0)
        OC_FAIL ("help_relay for %d, root %d, seq %llu", info->peer, info->root,
                 (unsigned long long) info->seq);
      break;
    case ONECOLL_REGION_PUT_LOOP:
      if (inside (ONECOLL_REGION_BROADCASTER_RELAY) || inside (ONECOLL_REGION_HELP_RELAY))
        atomic_fetch_add (&loops_in_relay, 1);
      break;
    case ONECOLL_REGION_PUT_REQUEST:
      if (inside (ONECOLL_REGION_BROADCASTER_RELAY) || inside (ONECOLL_REGION_HELP_RELAY))
        atomic_fetch_add (&requests_in_relay, 1);
      else if (inside (ONECOLL_REGION_BCAST) && !me.is_bcaster)
        atomic_fetch_add (&requests_in_bcast, 1);
      else
        OC_FAIL ("put_request outside bcast and relays");
      break;
    default:
      if (me.is_bcaster)
        OC_FAIL ("%s on the Broadcaster", onecoll_region_name (region));
      break;
    }
  if (region == ONECOLL_REGION_PUT_REQUEST
      && (info->peer < 0 || info->peer >= nprocs || info->peer == oc_rank))
    OC_FAIL ("put_request to bad peer %d", info->peer);
  if (region == ONECOLL_REGION_BROADCASTER_RELAY
      && (info->peer < 0 || info->peer >= nprocs || info->root == oc_rank || info->seq == 0))
    OC_FAIL ("relay with parent %d root %d seq %llu", info->peer, info->root,
             (unsigned long long) info->seq);
  if (region == ONECOLL_REGION_BCAST
      && (info->win == ONECOLL_WIN_NULL || info->seq == 0 || info->root < 0 || info->bytes < 0
          || (info->algo != ONECOLL_ALGO_LINEAR && info->algo != ONECOLL_ALGO_BINOMIAL)))
    OC_FAIL ("bcast region with incomplete info");

  me.stack[me.depth++] = region;
  atomic_fetch_add (me.is_bcaster ? &bcaster_enters[region] : &main_enters[region], 1);
}

static void
hook_leave (void          *user_data,
            onecoll_region region)
{
  if (me.depth == 0 || me.stack[me.depth - 1] != region)
    OC_FAIL ("leave of %s does not match the innermost open region %s",
             onecoll_region_name (region),
             me.depth > 0 ? onecoll_region_name (me.stack[me.depth - 1]) : "(none)");
  me.depth--;
  atomic_fetch_add (&leaves[region], 1);
}

static void
hook_thread_begin (void       *user_data,
                   const char *name)
{
  if (name == NULL || strcmp (name, "onecoll-broadcaster") != 0)
    OC_FAIL ("thread_begin with name %s", name != NULL ? name : "(null)");
  me.is_bcaster = 1;
  atomic_fetch_add (&thread_begins, 1);
}

static void
hook_thread_end (void *user_data)
{
  if (!me.is_bcaster || me.depth != 0)
    OC_FAIL ("thread_end on a thread that is not the Broadcaster or with open regions");
  atomic_fetch_add (&thread_ends, 1);
}

/* Ranks other than the root that have children in a p-rank binomial tree
 * (relative rank v even and v + 1 < p): the ones that relay. */
static long
inner_nodes (long p)
{
  long n = 0;

  for (long v = 2; v + 1 < p; v += 2)
    n++;
  return n;
}

static long
ceil_log2 (long n)
{
  long k = 0;

  while ((1L << k) < n)
    k++;
  return k;
}

static long
sum_over_ranks (long value)
{
  long total = 0;

  MPI_Allreduce (&value, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

static void
expect_total (const char *what,
              long        local,
              long        expected)
{
  long total = sum_over_ranks (local);

  if (total != expected)
    OC_FAIL ("np=%d: %s summed over ranks is %ld, expected %ld", nprocs, what, total, expected);
}

/* Traces one runtime in @relay mode and checks the counts. */
static void
run_mode (onecoll_relay_mode relay)
{
  onecoll_trace_hooks hooks = { hook_enter, hook_leave, hook_thread_begin, hook_thread_end,
                                (void *) &thread_begins };
  onecoll_config cfg;
  onecoll_win win;
  unsigned char *base;
  uint64_t iter = 0;
  long p = nprocs;
  long relays;

  mode = relay;
  for (int r = 0; r < N_REGIONS; r++)
    {
      atomic_store (&main_enters[r], 0);
      atomic_store (&bcaster_enters[r], 0);
      atomic_store (&leaves[r], 0);
    }
  atomic_store (&thread_begins, 0);
  atomic_store (&thread_ends, 0);
  atomic_store (&requests_in_bcast, 0);
  atomic_store (&requests_in_relay, 0);
  atomic_store (&loops_in_relay, 0);

  OC_OK (onecoll_config_init (&cfg), "config_init");
  cfg.relay = relay;
  OC_OK (onecoll_set_trace_hooks (&hooks), "set_trace_hooks");
  OC_OK (onecoll_init (MPI_COMM_WORLD, &cfg), "init");
  OC_OK (onecoll_win_create (1000, NULL, &win), "win_create");
  OC_OK (onecoll_win_get_base (win, (void **) &base, NULL), "get_base");

  for (int v = 0; v < OC_N_VARIANTS; v++)
    for (int root = 0; root < nprocs; root++)
      {
        int done = 0;

        iter++;
        if (oc_rank == root)
          oc_pattern_fill (base, 1000, root, iter);
        OC_OK (onecoll_bcast (win, base, 1000, root, &oc_variants[v]), "bcast root %d %s", root,
               oc_variant_name (&oc_variants[v]));
        OC_OK (onecoll_bcast_flush (win), "flush");
        OC_OK (onecoll_bcast_test (win, &done), "test");
        if (!done || oc_pattern_check (base, 1000, root, iter) >= 0)
          OC_FAIL ("broadcast from %d (%s) incomplete or wrong", root,
                   oc_variant_name (&oc_variants[v]));
      }

  OC_OK (onecoll_finalize (), "finalize");
  OC_OK (onecoll_set_trace_hooks (NULL), "remove hooks");

  if (me.depth != 0)
    OC_FAIL ("%d regions still open on the main thread", me.depth);
  if (atomic_load (&thread_begins) != 1 || atomic_load (&thread_ends) != 1)
    OC_FAIL ("thread_begin %d times, thread_end %d times", atomic_load (&thread_begins),
             atomic_load (&thread_ends));
  for (int r = 1; r <= ONECOLL_REGION_LAST; r++)
    {
      long enters = atomic_load (&main_enters[r]) + atomic_load (&bcaster_enters[r]);

      if (enters != atomic_load (&leaves[r]))
        OC_FAIL ("region %s entered %ld times, left %ld times", onecoll_region_name (r), enters,
                 atomic_load (&leaves[r]));
    }

  if (atomic_load (&main_enters[ONECOLL_REGION_INIT]) != 1
      || atomic_load (&main_enters[ONECOLL_REGION_FINALIZE]) != 1
      || atomic_load (&main_enters[ONECOLL_REGION_WIN_CREATE]) != 1
      || atomic_load (&main_enters[ONECOLL_REGION_WIN_FREE]) != 1)
    OC_FAIL ("init/finalize/win_create/win_free are not entered exactly once each");
  if (atomic_load (&main_enters[ONECOLL_REGION_BCAST]) != 3 * p
      || atomic_load (&main_enters[ONECOLL_REGION_TEST]) != 3 * p
      || atomic_load (&main_enters[ONECOLL_REGION_FLUSH]) < 3 * p)
    OC_FAIL ("bcast/test/flush entered %ld/%ld/%ld times, expected %ld/%ld/>=%ld",
             atomic_load (&main_enters[ONECOLL_REGION_BCAST]),
             atomic_load (&main_enters[ONECOLL_REGION_TEST]),
             atomic_load (&main_enters[ONECOLL_REGION_FLUSH]), 3 * p, 3 * p, 3 * p);
  if (atomic_load (&bcaster_enters[ONECOLL_REGION_BROADCASTER_POLL]) < 1)
    OC_FAIL ("the Broadcaster never entered its poll region");

  /* One linear and two binomial broadcasts from each of the p roots. */
  expect_total ("put_request regions", atomic_load (&main_enters[ONECOLL_REGION_PUT_REQUEST])
                + atomic_load (&bcaster_enters[ONECOLL_REGION_PUT_REQUEST]), 3 * p * (p - 1));
  relays = atomic_load (&bcaster_enters[ONECOLL_REGION_BROADCASTER_RELAY])
           + atomic_load (&main_enters[ONECOLL_REGION_BROADCASTER_RELAY])
           + atomic_load (&main_enters[ONECOLL_REGION_HELP_RELAY]);
  /* Every non-root is relayed once; in WAITER mode a leaf has nothing to
   * relay and is completed by its parent. */
  expect_total ("relays (by Broadcasters, waiting threads and roots)", relays,
                2 * p * (relay == ONECOLL_RELAY_WAITER ? inner_nodes (p) : p - 1));
  if (relay == ONECOLL_RELAY_BROADCASTER)
    expect_total ("relays on application threads",
                  atomic_load (&main_enters[ONECOLL_REGION_BROADCASTER_RELAY])
                  + atomic_load (&main_enters[ONECOLL_REGION_HELP_RELAY]), 0);
  /* The root of a binomial tree has ceil(log2 p) children; the other
   * p - 1 - ceil(log2 p) requests are sent by relays. */
  expect_total ("put_requests in the roots' bcast", atomic_load (&requests_in_bcast),
                p * (p - 1) + 2 * p * ceil_log2 (p));
  expect_total ("put_requests in relays", atomic_load (&requests_in_relay),
                2 * p * (p - 1 - ceil_log2 (p)));
  expect_total ("put_loops in relays", atomic_load (&loops_in_relay),
                2 * p * (relay == ONECOLL_RELAY_WAITER ? inner_nodes (p) : p - 1));
  expect_total ("wait_release regions", atomic_load (&main_enters[ONECOLL_REGION_WAIT_RELEASE]),
                3 * p - 1);

  MPI_Barrier (MPI_COMM_WORLD);
  if (oc_rank == 0)
    printf ("onecoll trace np=%d, relay mode %d: regions balanced and counted (%ld relays on "
            "this rank's Broadcaster, %ld on its application thread, %ld for others)\n",
            nprocs, (int) relay, atomic_load (&bcaster_enters[ONECOLL_REGION_BROADCASTER_RELAY]),
            atomic_load (&main_enters[ONECOLL_REGION_BROADCASTER_RELAY]),
            atomic_load (&main_enters[ONECOLL_REGION_HELP_RELAY]));
}

int
main (int   argc,
      char *argv[])
{
  oc_init_mpi (&argc, &argv);
  MPI_Comm_size (MPI_COMM_WORLD, &nprocs);

  for (int r = 0; r <= ONECOLL_REGION_LAST + 1; r++)
    {
      const char *name = onecoll_region_name (r);

      if ((r >= 1 && r <= ONECOLL_REGION_LAST) != (name != NULL))
        OC_FAIL ("region_name(%d) is %s", r, name != NULL ? name : "NULL");
      for (int q = 1; name != NULL && q < r; q++)
        if (strcmp (name, onecoll_region_name (q)) == 0)
          OC_FAIL ("regions %d and %d share the name %s", q, r, name);
    }

  run_mode (ONECOLL_RELAY_WAITER);
  run_mode (ONECOLL_RELAY_BROADCASTER);
  MPI_Finalize ();
  return 0;
}
