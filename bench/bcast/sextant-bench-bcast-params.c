/*
 * sextant-bench-bcast-params.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * sextant-bench-bcast's model parameters (o, o_acc, g, L, G, Gnode,
 * Gshare, Gbusy, Or: sextant-bench-bcast.c says how each is measured),
 * measured by ranks 0 and 1 while the others wait in a sleeping barrier,
 * and printed.
 */
#include "sextant-bench-bcast-private.h"

/* ---- model parameters ---- */

#define PARAM_BATCHES   21          /* deterministic costs: minimum over this many batches */
/* G is fitted on puts of at least this size: source plus destination exceed
 * the 32 MiB L3 of the machine this was written on, as they do for the large
 * broadcasts the model is meant for (smaller puts are measured and written
 * to the JSON, but they run from the cache). */
#define G_FIT_FROM      (16 * MIB)
#define PARAM_WIN       (40 * MIB)  /* the largest put, and the window size */

/* Time per operation (minimum over batches) of @ops x (MPI_Put(8 B) or Accumulate + flush). */
static double
time_small_op (MPI_Win win,
               int     target,
               int     use_acc,
               int     ops)
{
  double batch[PARAM_BATCHES];
  int64_t value = 42;

  for (int b = 0; b < PARAM_BATCHES; b++)
    {
      double t0 = MPI_Wtime ();

      for (int k = 0; k < ops; k++)
        {
          if (use_acc)
            MPI_Accumulate (&value, 1, MPI_INT64_T, target, 0, 1, MPI_INT64_T, MPI_REPLACE, win);
          else
            MPI_Put (&value, 1, MPI_INT64_T, target, 0, 1, MPI_INT64_T, win);
          MPI_Win_flush (target, win);
        }
      batch[b] = (MPI_Wtime () - t0) / ops;
    }
  return bench_minimum (batch, PARAM_BATCHES);
}

/* Time (minimum over batches) of @n back-to-back 8-byte puts and one flush. */
static double
time_put_train (MPI_Win win,
                int     target,
                int     n,
                int     reps)
{
  double batch[PARAM_BATCHES];
  int64_t value = 7;

  for (int b = 0; b < PARAM_BATCHES; b++)
    {
      double t0 = MPI_Wtime ();

      for (int r = 0; r < reps; r++)
        {
          for (int k = 0; k < n; k++)
            MPI_Put (&value, 1, MPI_INT64_T, target, (MPI_Aint) (8 * k), 1, MPI_INT64_T, win);
          MPI_Win_flush (target, win);
        }
      batch[b] = (MPI_Wtime () - t0) / reps;
    }
  return bench_minimum (batch, PARAM_BATCHES);
}

/* Polls this rank's own flag (as onecoll's waiters do) until it equals @want. */
static void
wait_flag (MPI_Win win,
           int     me,
           int64_t want)
{
  int64_t got = 0;
  int64_t dummy = 0;

  for (;;)
    {
      MPI_Fetch_and_op (&dummy, &got, MPI_INT64_T, me, 0, MPI_NO_OP, win);
      MPI_Win_flush (me, win);
      if (got == want)
        return;
    }
}

/* Ranks 0 and 1 of @pair (a 2-rank communicator): the plain-RMA parameters.
 * Only rank 0's @out is meaningful. */
static void
measure_rma_params (MPI_Comm  pair,
                    params   *out)
{
  static const int64_t gsizes[] = { 1 * MIB, 4 * MIB, 8 * MIB, 16 * MIB, 24 * MIB, 32 * MIB,
                                    PARAM_WIN };
  const int n_gsizes = (int) (sizeof gsizes / sizeof gsizes[0]);
  int n_fit = 0;
  MPI_Win dwin, fwin;
  unsigned char *dbase = NULL;
  int64_t *fbase = NULL;
  int me, peer;
  double rtt[PARAM_BATCHES];
  const int pingpongs = 1000;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;

  MPI_Comm_rank (pair, &me);
  peer = 1 - me;
  MPI_Win_allocate ((MPI_Aint) gsizes[n_gsizes - 1], 1, MPI_INFO_NULL, pair, &dbase, &dwin);
  MPI_Win_allocate ((MPI_Aint) sizeof (int64_t), sizeof (int64_t), MPI_INFO_NULL, pair, &fbase,
                    &fwin);
  memset (dbase, 0x5a, (size_t) gsizes[n_gsizes - 1]);
  *fbase = 0;
  MPI_Win_lock_all (MPI_MODE_NOCHECK, dwin);
  MPI_Win_lock_all (MPI_MODE_NOCHECK, fwin);
  MPI_Win_sync (fwin);
  MPI_Barrier (pair);

  if (me == 0)
    {
      double t1, tn;

      time_small_op (dwin, peer, 0, 200);            /* warm-up */
      out->o_us = 1e6 * time_small_op (dwin, peer, 0, 2000);
      out->o_acc_us = 1e6 * time_small_op (dwin, peer, 1, 2000);
      t1 = time_put_train (dwin, peer, 1, 200);
      tn = time_put_train (dwin, peer, 64, 20);
      out->g_us = 1e6 * (tn - t1) / 63;
      if (out->g_us < 0)
        out->g_us = 0;
    }
  MPI_Barrier (pair);

  /* Flag ping-pong, the peer answering every value it sees. */
  for (int b = 0; b < PARAM_BATCHES + 1; b++)
    {
      double t0;

      MPI_Barrier (pair);
      t0 = MPI_Wtime ();
      for (int k = 1; k <= pingpongs; k++)
        {
          int64_t token = (int64_t) b * pingpongs + k;

          if (me == 0)
            {
              MPI_Accumulate (&token, 1, MPI_INT64_T, peer, 0, 1, MPI_INT64_T, MPI_REPLACE, fwin);
              MPI_Win_flush (peer, fwin);
              wait_flag (fwin, me, token);
            }
          else
            {
              wait_flag (fwin, me, token);
              MPI_Accumulate (&token, 1, MPI_INT64_T, peer, 0, 1, MPI_INT64_T, MPI_REPLACE, fwin);
              MPI_Win_flush (peer, fwin);
            }
        }
      if (b > 0)                                     /* batch 0 is the warm-up */
        rtt[b - 1] = (MPI_Wtime () - t0) / pingpongs;
    }

  if (me == 0)
    {
      out->rtt_us = 1e6 * bench_minimum (rtt, PARAM_BATCHES);
      out->L_us = out->rtt_us / 2 - out->o_acc_us;
      if (out->L_us < 0)
        out->L_us = 0;

      /* G: MPI_Put(s) + flush from our window into the peer's, as a relay does. */
      out->n_gfit = n_gsizes;
      for (int k = 0; k < n_gsizes; k++)
        {
          double t[PARAM_BATCHES];

          for (int b = -1; b < PARAM_BATCHES; b++)
            {
              double t0 = MPI_Wtime ();

              MPI_Put (dbase, (int) gsizes[k], MPI_BYTE, peer, 0, (int) gsizes[k], MPI_BYTE, dwin);
              MPI_Win_flush (peer, dwin);
              if (b >= 0)
                t[b] = MPI_Wtime () - t0;
            }
          out->gfit_bytes[k] = (double) gsizes[k];
          out->gfit_us[k] = 1e6 * bench_minimum (t, PARAM_BATCHES);
          if (gsizes[k] < G_FIT_FROM)
            continue;
          n_fit++;
          sx += out->gfit_bytes[k];
          sy += out->gfit_us[k];
          sxx += out->gfit_bytes[k] * out->gfit_bytes[k];
          sxy += out->gfit_bytes[k] * out->gfit_us[k];
        }
      out->G_us_per_byte = (n_fit * sxy - sx * sy) / (n_fit * sxx - sx * sx);
      out->G_icpt_us = (sy - out->G_us_per_byte * sx) / n_fit;
    }

  /* Gnode: both ranks put half a window into the other half of the peer's
   * window at the same time (on this machine: both cores copying, sharing
   * the memory system). Bytes moved / time, from barrier to barrier. */
  {
    int64_t half = PARAM_WIN / 2;
    double t[PARAM_BATCHES];

    for (int b = -1; b < PARAM_BATCHES; b++)
      {
        double t0;

        MPI_Barrier (pair);
        t0 = MPI_Wtime ();
        MPI_Put (dbase, (int) half, MPI_BYTE, peer, (MPI_Aint) half, (int) half, MPI_BYTE, dwin);
        MPI_Win_flush (peer, dwin);
        MPI_Barrier (pair);
        if (b >= 0)
          t[b] = MPI_Wtime () - t0;
      }
    out->Gnode_us_per_byte = 1e6 * bench_minimum (t, PARAM_BATCHES) / (2.0 * (double) half);
  }

  MPI_Barrier (pair);
  MPI_Win_unlock_all (fwin);
  MPI_Win_unlock_all (dwin);
  MPI_Win_free (&fwin);
  MPI_Win_free (&dwin);
}

/* Starts an onecoll runtime on @comm with @policy for both of its waits and
 * @relay, and creates one window of @size bytes (*@win, its memory *@base);
 * dies on any error. */
static void
start_runtime (MPI_Comm                   comm,
               const onecoll_poll_policy *policy,
               onecoll_relay_mode         relay,
               int64_t                    size,
               onecoll_win               *win,
               void                     **base)
{
  onecoll_config cfg;

  bench_check_oc (onecoll_config_init (&cfg), "onecoll_config_init");
  cfg.waiter = *policy;
  cfg.flush = *policy;
  cfg.relay = relay;
  bench_check_oc (onecoll_init (comm, &cfg), "onecoll_init (parameters)");
  bench_check_oc (onecoll_win_create (size, NULL, win), "onecoll_win_create (parameters)");
  bench_check_oc (onecoll_win_get_base (*win, base, NULL), "onecoll_win_get_base");
}

/* On @pair (world ranks 0 and 1): median time of a 1-byte binomial
 * broadcast from 0 to 1 with @mode polling, in us, timed at the root as the
 * benchmark times it (bcast + flush). */
static double
measure_bin2 (MPI_Comm                   pair,
              const onecoll_poll_policy *policy,
              onecoll_relay_mode         relay,
              int                        iters)
{
  onecoll_bcast_opts bin = { ONECOLL_ALGO_BINOMIAL, ONECOLL_ORDER_LARGEST_FIRST };
  onecoll_win win = ONECOLL_WIN_NULL;
  void *base = NULL;
  double *t = bench_xmalloc (sizeof (double) * (size_t) iters);
  double result;
  unsigned char one = 1;
  int me;

  MPI_Comm_rank (pair, &me);
  start_runtime (pair, policy, relay, 64, &win, &base);
  for (int k = -iters / 10 - 1; k < iters; k++)
    {
      double t0;

      MPI_Barrier (pair);
      t0 = MPI_Wtime ();
      bench_check_oc (onecoll_bcast (win, me == 0 ? base : &one, 1, 0, &bin),
                      "onecoll_bcast (parameters)");
      bench_check_oc (onecoll_bcast_flush (win), "onecoll_bcast_flush (parameters)");
      if (k >= 0)
        t[k] = MPI_Wtime () - t0;
    }
  result = 1e6 * bench_median (t, iters);
  free (t);
  bench_check_oc (onecoll_win_free (win), "onecoll_win_free (parameters)");
  bench_check_oc (onecoll_finalize (), "onecoll_finalize (parameters)");
  return result;
}

/* A barrier for ranks that have nothing to do: they sleep between tests
 * instead of spinning in MPI_Barrier, so that the ranks measuring get the
 * cores to themselves. */
static void
quiet_barrier (MPI_Comm comm)
{
  MPI_Request req;
  int done = 0;

  MPI_Ibarrier (comm, &req);
  for (;;)
    {
      struct timespec ts = { 0, 200000 };

      MPI_Test (&req, &done, MPI_STATUS_IGNORE);
      if (done)
        return;
      nanosleep (&ts, NULL);
    }
}

#define SHARE_BYTES     (16 * MIB)  /* each copy of the Gshare measurement */

/* Seconds on CLOCK_MONOTONIC: one clock for all processes of the node
 * (Open MPI's MPI_Wtime need not be; MPI_WTIME_IS_GLOBAL is false). */
static double
node_clock (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* Gshare(n), not in the spec: ranks 0..n-1 of MPI_COMM_WORLD each put
 * SHARE_BYTES from their window into the next one's (r + 1 mod n) at the
 * same time, from barrier to barrier; time / bytes moved. The copy
 * bandwidth of the node as n copies share its cores and memory: what the
 * copies of one stage of the binomial tree (and the receivers' copy-outs)
 * get. The median over batches, as the broadcast latencies it serves to
 * predict are medians: with more copies than cores the time is set by how
 * the scheduler shares the cores, which has a real spread. The other
 * ranks wait in quiet_barrier(). */
static void
measure_share (params *out)
{
  static const int counts[] = { 2, 3, 4, 6, 8, 12, 16 };
  const int n_counts = (int) (sizeof counts / sizeof counts[0]);
  unsigned char *base = NULL;
  MPI_Win win;

  out->n_share = 0;
  MPI_Win_allocate ((MPI_Aint) (2 * SHARE_BYTES), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  memset (base, 0x3c, (size_t) (2 * SHARE_BYTES));
  MPI_Win_lock_all (MPI_MODE_NOCHECK, win);
  for (int k = 0; k < n_counts && counts[k] <= world_size; k++)
    {
      int n = counts[k];
      int in = world_rank < n;
      MPI_Comm group;
      double t[PARAM_BATCHES];

      MPI_Comm_split (MPI_COMM_WORLD, in ? 0 : 1, world_rank, &group);
      if (in)
        {
          for (int b = -1; b < PARAM_BATCHES; b++)
            {
              double t0, t1, first, last;

              MPI_Barrier (group);
              t0 = node_clock ();
              MPI_Put (base, (int) SHARE_BYTES, MPI_BYTE, (world_rank + 1) % n,
                       (MPI_Aint) SHARE_BYTES, (int) SHARE_BYTES, MPI_BYTE, win);
              MPI_Win_flush ((world_rank + 1) % n, win);
              t1 = node_clock ();
              /* From the first start to the last end: with more ranks than
               * cores the ranks leave the barrier at different times, so no
               * single rank's clock spans all copies. */
              MPI_Allreduce (&t0, &first, 1, MPI_DOUBLE, MPI_MIN, group);
              MPI_Allreduce (&t1, &last, 1, MPI_DOUBLE, MPI_MAX, group);
              if (b >= 0)
                t[b] = last - first;
            }
          if (world_rank == 0)
            {
              out->share_n[out->n_share] = n;
              out->share_us_per_byte[out->n_share] =
                1e6 * bench_median (t, PARAM_BATCHES) / ((double) n * (double) SHARE_BYTES);
              out->n_share++;
            }
        }
      quiet_barrier (MPI_COMM_WORLD);
      MPI_Comm_free (&group);
    }
  MPI_Win_unlock_all (win);
  MPI_Win_free (&win);
}

/* Gbusy, not in the spec: the time per byte of one put of SHARE_BYTES by
 * rank 0 (into rank 1) while every other rank waits in onecoll_bcast_flush()
 * (with the runtime's @policy and @relay mode) for a broadcast that rank 0
 * starts only after the put. That is what a rank that copies gets from the
 * cores while the ranks that wait for it poll - the situation of every
 * large broadcast here. With @policy NULL (Gquiet) the other ranks sleep in
 * quiet_barrier() instead; Gbusy / Gquiet is the processor-sharing slowdown
 * that the PS model applies to the copies. The median over PARAM_BATCHES
 * batches, like Gshare. Every rank calls this; rank 0's result is
 * returned. */
static double
measure_busy (const onecoll_poll_policy *policy,
              onecoll_relay_mode         relay)
{
  onecoll_win win = ONECOLL_WIN_NULL;
  unsigned char *base = NULL;
  unsigned char *data = NULL;
  unsigned char one = 0;
  MPI_Win dwin;
  double t[PARAM_BATCHES];
  double result = 0;

  if (world_size < 2)
    return 0;
  MPI_Win_allocate ((MPI_Aint) (world_rank <= 1 ? SHARE_BYTES : 1), 1, MPI_INFO_NULL,
                    MPI_COMM_WORLD, &data, &dwin);
  memset (data, 0x6b, world_rank <= 1 ? (size_t) SHARE_BYTES : 1);
  MPI_Win_lock_all (MPI_MODE_NOCHECK, dwin);
  if (policy == NULL)
    {
      for (int b = -1; b < PARAM_BATCHES; b++)
        {
          MPI_Barrier (MPI_COMM_WORLD);
          if (world_rank == 0)
            {
              double t0 = MPI_Wtime ();

              MPI_Put (data, (int) SHARE_BYTES, MPI_BYTE, 1, 0, (int) SHARE_BYTES, MPI_BYTE,
                       dwin);
              MPI_Win_flush (1, dwin);
              if (b >= 0)
                t[b] = MPI_Wtime () - t0;
            }
          quiet_barrier (MPI_COMM_WORLD);
        }
      if (world_rank == 0)
        result = 1e6 * bench_median (t, PARAM_BATCHES) / (double) SHARE_BYTES;
      MPI_Win_unlock_all (dwin);
      MPI_Win_free (&dwin);
      return result;
    }
  start_runtime (MPI_COMM_WORLD, policy, relay, 1, &win, (void **) &base);
  for (int b = -1; b < PARAM_BATCHES; b++)
    {
      MPI_Barrier (MPI_COMM_WORLD);
      if (world_rank == 0)
        {
          double t0 = MPI_Wtime ();

          MPI_Put (data, (int) SHARE_BYTES, MPI_BYTE, 1, 0, (int) SHARE_BYTES, MPI_BYTE, dwin);
          MPI_Win_flush (1, dwin);
          if (b >= 0)
            t[b] = MPI_Wtime () - t0;
          bench_check_oc (onecoll_bcast (win, base, 1, 0, NULL), "onecoll_bcast (Gbusy)");
        }
      else
        bench_check_oc (onecoll_bcast (win, &one, 1, 0, NULL), "onecoll_bcast (Gbusy)");
      bench_check_oc (onecoll_bcast_flush (win), "onecoll_bcast_flush (Gbusy)");
    }
  if (world_rank == 0)
    result = 1e6 * bench_median (t, PARAM_BATCHES) / (double) SHARE_BYTES;
  bench_check_oc (onecoll_win_free (win), "onecoll_win_free (Gbusy)");
  bench_check_oc (onecoll_finalize (), "onecoll_finalize (Gbusy)");
  MPI_Win_unlock_all (dwin);
  MPI_Win_free (&dwin);
  return result;
}

void
bench_measure_params (const options *opt,
                      params        *out)
{
  MPI_Comm group;
  int in_pair = world_rank < 2;
  double q;

  memset (out, 0, sizeof *out);
  if (world_size < 2)
    {
      if (world_rank == 0)
        fprintf (stderr, "sextant-bench-bcast: the parameters need at least 2 ranks; skipped\n");
      return;
    }
  MPI_Comm_split (MPI_COMM_WORLD, in_pair ? 0 : 1, world_rank, &group);
  if (in_pair)
    {
      measure_rma_params (group, out);
      /* Or needs a rank that picks a request up: only the paper's runtime
       * has one at p = 2 (with ONECOLL_RELAY_WAITER the root completes a
       * leaf itself); the third number is that direct delivery, for
       * information. */
      out->bin2_us[0] = measure_bin2 (group, &opt->adaptive, ONECOLL_RELAY_BROADCASTER, 300);
      out->bin2_us[1] = measure_bin2 (group, &opt->fixed, ONECOLL_RELAY_BROADCASTER, 100);
      out->bin2_us[2] = measure_bin2 (group, &opt->adaptive, ONECOLL_RELAY_WAITER, 300);
    }
  quiet_barrier (MPI_COMM_WORLD);
  MPI_Comm_free (&group);
  measure_share (out);
  out->Gquiet_us_per_byte = measure_busy (NULL, ONECOLL_RELAY_WAITER);
  out->Gbusy_us_per_byte[0] = measure_busy (&opt->adaptive, ONECOLL_RELAY_WAITER);
  out->Gbusy_us_per_byte[1] = measure_busy (&opt->fixed, ONECOLL_RELAY_BROADCASTER);

  q = out->o_us > out->g_us ? out->o_us : out->g_us;
  for (int k = 0; k < 2; k++)
    out->Or_us[k] = out->bin2_us[k] - 2 * out->o_us - 2 * q - 2 * out->L_us;
}

void
bench_print_params (const params *pr)
{
  printf ("# LogP/LogGP parameters (ranks 0 and 1 of %d, MPI RMA; minimum over %d batches,\n"
          "# Or from the median over broadcasts)\n", world_size, PARAM_BATCHES);
  printf ("#   o     = %9.3f us   MPI_Put(8 B) + MPI_Win_flush\n", pr->o_us);
  printf ("#   o_acc = %9.3f us   MPI_Accumulate(8 B, REPLACE) + flush\n", pr->o_acc_us);
  printf ("#   g     = %9.3f us   gap between back-to-back puts\n", pr->g_us);
  printf ("#   RTT   = %9.3f us   flag ping-pong\n", pr->rtt_us);
  printf ("#   L     = %9.3f us   RTT/2 - o_acc\n", pr->L_us);
  printf ("#   G     = %9.6f ns/B (%.2f GB/s; fit on puts >= %d MiB, intercept %.1f us)\n",
          1e3 * pr->G_us_per_byte, pr->G_us_per_byte > 0 ? 1e-3 / pr->G_us_per_byte : 0.0,
          (int) (G_FIT_FROM / MIB), pr->G_icpt_us);
  printf ("#   Gnode = %9.6f ns/B (%.2f GB/s; 2 ranks putting %d MiB each at once)\n",
          1e3 * pr->Gnode_us_per_byte,
          pr->Gnode_us_per_byte > 0 ? 1e-3 / pr->Gnode_us_per_byte : 0.0,
          (int) (PARAM_WIN / 2 / MIB));
  printf ("#   Gshare(n) = time / bytes moved, n ranks putting %d MiB each at once (median):",
          (int) (SHARE_BYTES / MIB));
  for (int k = 0; k < pr->n_share; k++)
    printf (" n=%d %.4f ns/B", pr->share_n[k], 1e3 * pr->share_us_per_byte[k]);
  printf ("\n");
  printf ("#   Gbusy = %9.6f ns/B adaptive, %9.6f ns/B fixed (one %d MiB put while the\n"
          "#           other ranks wait in onecoll_bcast_flush; median); Gquiet = %9.6f ns/B\n"
          "#           (the same put while they sleep)\n",
          1e3 * pr->Gbusy_us_per_byte[0], 1e3 * pr->Gbusy_us_per_byte[1],
          (int) (SHARE_BYTES / MIB), 1e3 * pr->Gquiet_us_per_byte);
  printf ("#   puts  =");
  for (int k = 0; k < pr->n_gfit; k++)
    printf (" %.0f MiB %.0f us%s", pr->gfit_bytes[k] / MIB, pr->gfit_us[k],
            k + 1 < pr->n_gfit ? "," : "\n");
  printf ("#   Or    = %9.3f us adaptive, %9.3f us fixed (from 1-byte binomial p=2 with\n"
          "#           Broadcaster relays: %.3f / %.3f us; adaptive with the root completing\n"
          "#           the leaf itself: %.3f us)\n",
          pr->Or_us[0], pr->Or_us[1], pr->bin2_us[0], pr->bin2_us[1], pr->bin2_us[2]);
}
