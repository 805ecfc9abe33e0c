/*
 * sextant-bench-allreduce.c - onecoll's allreduce and reduce algorithms
 * against the MPI library's MPI_Allreduce / MPI_Reduce (OSU method), beside
 * their alpha-beta-gamma model with alpha, beta and gamma measured here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   mpirun -np P sextant-bench-allreduce [--reduce] [--sizes B1,B2,...]
 *          [--algos a,b,...] [--iters N] [--params-only] [--csv FILE]
 *          [--mpi-label NAME]
 *
 * --mpi-label names the MPI library's rows (default "mpi"; run.sh runs
 * Open MPI's Rabenseifner, forced by MCA parameters, as "mpi-rab").
 *
 * Parameters (printed first, "# alpha ... beta ... gamma ..."), on ranks 0
 * and 1 while the others sleep in a barrier (with P = 1 only gamma):
 *   alpha  half the round trip of an 8-byte ping-pong (median of 2000);
 *   beta   the slope of the half round trip between 64 KiB and 4 MiB
 *          messages, s per byte (median of 20 each);
 *   gamma  the time per byte of the local reduction (double, MPI_SUM:
 *          inout[i] += in[i]) on 32 MiB (out of cache), s per byte
 *          (median of 20).
 * Measurement, per algorithm (binomial, rhrd, prior-art, s0s1, auto, mpi)
 * and size (bytes of MPI_DOUBLE, default 8 B .. 16 MiB in powers of 4):
 * 2 warm-up calls, then --iters calls (default 20, 5 above 1 MiB), each
 * after a barrier, timed on every rank; the time of a call is the slowest
 * rank's, and the line shows the median over the calls, beside the model
 * (onecoll_reduce_cost) with the measured parameters. Algorithm "rhrd" on
 * a non-power-of-two P is the prior art's and is skipped.
 * The model assumes one core per rank; with more ranks than cores (this
 * 2-core machine) it is a lower bound, not a prediction.
 */
#include "onecoll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int rank, nprocs;

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *v,
        int     n)
{
  qsort (v, (size_t) n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Half round trip of @bytes between ranks 0 and 1, median of @reps. */
static double
pingpong (char *buf,
          int   bytes,
          int   reps)
{
  double *t = malloc ((size_t) reps * sizeof *t), m = 0;

  for (int i = -2; i < reps; i++)
    {
      double t0 = MPI_Wtime ();

      if (rank == 0)
        {
          MPI_Send (buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
          MPI_Recv (buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
      else if (rank == 1)
        {
          MPI_Recv (buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send (buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
      if (i >= 0)
        t[i] = (MPI_Wtime () - t0) / 2;
    }
  if (rank <= 1)
    m = median (t, reps);
  free (t);
  return m;
}

/* A barrier in which a waiting rank sleeps (1 ms between tests) instead
 * of spinning, so that ranks 0 and 1 have the cores for the ping-pong. */
static void
sleepy_barrier (void)
{
  MPI_Request req;
  int done = 0;
  struct timespec ms = { 0, 1000000 };

  MPI_Ibarrier (MPI_COMM_WORLD, &req);
  for (MPI_Test (&req, &done, MPI_STATUS_IGNORE); !done; MPI_Test (&req, &done, MPI_STATUS_IGNORE))
    if (rank > 1)
      nanosleep (&ms, NULL);
}

static void
measure_params (double *alpha,
                double *beta,
                double *gamma)
{
  const int big = 4 << 20, mid = 64 << 10, gbytes = 32 << 20, n = gbytes / 8;
  char *buf = malloc (big);
  double t[20], ab[3] = { 0, 0, 0 };

  memset (buf, 1, big);
  if (rank == 0)                    /* gamma: on one rank, the others wait */
    {
      double *a = malloc (gbytes), *b = malloc (gbytes);

      for (int i = 0; i < n; i++)
        {
          a[i] = i * 0.5;
          b[i] = 1.0;
        }
      for (int k = 0; k < 20; k++)
        {
          double t0 = MPI_Wtime ();
          volatile double *vb = b;

          for (int i = 0; i < n; i++)
            b[i] += a[i];
          (void) vb[0];
          t[k] = MPI_Wtime () - t0;
        }
      ab[2] = median (t, 20) / gbytes;
      free (a);
      free (b);
    }
  MPI_Barrier (MPI_COMM_WORLD);
  if (nprocs > 1)
    {
      if (rank <= 1)
        {
          double t8 = pingpong (buf, 8, 2000);
          double tm = pingpong (buf, mid, 20), tb = pingpong (buf, big, 20);

          ab[0] = t8;
          ab[1] = (tb - tm) / (big - mid);
        }
      sleepy_barrier ();
    }
  MPI_Bcast (ab, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  *alpha = ab[0];
  *beta = ab[1];
  *gamma = ab[2];
  free (buf);
}

static const char *const algo_names[] = { "binomial", "rhrd", "prior-art", "s0s1", "auto", "mpi" };
#define N_BENCH_ALGOS 6

static int
algo_id (const char *name)
{
  for (int i = 0; i < N_BENCH_ALGOS; i++)
    if (strcmp (name, algo_names[i]) == 0)
      return i;
  return -1;
}

/* bench index -> onecoll_reduce_algo (mpi: -1) */
static int
to_onecoll (int i)
{
  static const int map[] = { ONECOLL_REDUCE_BINOMIAL, ONECOLL_REDUCE_RHRD,
                             ONECOLL_REDUCE_PRIOR_ART, ONECOLL_REDUCE_S0S1,
                             ONECOLL_REDUCE_AUTO, -1 };
  return map[i];
}

int
main (int    argc,
      char **argv)
{
  int reduce = 0, params_only = 0, iters_opt = 0;
  const char *mpi_label = "mpi";
  long sizes[64];
  int n_sizes = 0, use[N_BENCH_ALGOS];
  double alpha, beta, gamma;
  FILE *csv = NULL;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &nprocs);
  for (int i = 0; i < N_BENCH_ALGOS; i++)
    use[i] = 1;
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--reduce") == 0)
        reduce = 1;
      else if (strcmp (argv[i], "--params-only") == 0)
        params_only = 1;
      else if (strcmp (argv[i], "--mpi-label") == 0 && i + 1 < argc)
        mpi_label = argv[++i];
      else if (strcmp (argv[i], "--iters") == 0 && i + 1 < argc)
        iters_opt = atoi (argv[++i]);
      else if (strcmp (argv[i], "--csv") == 0 && i + 1 < argc)
        {
          if (rank == 0 && (csv = fopen (argv[i + 1], "a")) == NULL)
            {
              fprintf (stderr, "cannot open %s\n", argv[i + 1]);
              MPI_Abort (MPI_COMM_WORLD, 2);
            }
          i++;
        }
      else if (strcmp (argv[i], "--sizes") == 0 && i + 1 < argc)
        {
          char *s = argv[++i];

          while (*s != '\0' && n_sizes < 64)
            {
              sizes[n_sizes++] = strtol (s, &s, 10);
              if (*s == ',')
                s++;
            }
        }
      else if (strcmp (argv[i], "--algos") == 0 && i + 1 < argc)
        {
          char *list = strdup (argv[++i]);

          for (int k = 0; k < N_BENCH_ALGOS; k++)
            use[k] = 0;
          for (char *tok = strtok (list, ","); tok != NULL; tok = strtok (NULL, ","))
            if (algo_id (tok) >= 0)
              use[algo_id (tok)] = 1;
          free (list);
        }
      else
        {
          if (rank == 0)
            fprintf (stderr, "usage: %s [--reduce] [--sizes B,...] [--algos a,...] "
                     "[--iters N] [--params-only] [--csv FILE] [--mpi-label NAME]\n", argv[0]);
          MPI_Finalize ();
          return 2;
        }
    }
  if (n_sizes == 0)
    for (long b = 8; b <= (16L << 20); b *= 4)
      sizes[n_sizes++] = b;

  measure_params (&alpha, &beta, &gamma);
  if (rank == 0)
    {
      printf ("# P=%d %s; alpha %.3g s (%.2f us), beta %.3g s/B (%.2f GB/s), "
              "gamma %.3g s/B (%.2f GB/s)\n",
              nprocs, reduce ? "reduce" : "allreduce", alpha, alpha * 1e6, beta,
              beta > 0 ? 1e-9 / beta : 0, gamma, gamma > 0 ? 1e-9 / gamma : 0);
      printf ("%-5s %10s %-10s %12s %12s %12s\n", "P", "bytes", "algo", "median_us", "min_us",
              "model_us");
      fflush (stdout);
    }
  if (params_only)
    {
      MPI_Finalize ();
      return 0;
    }

  for (int si = 0; si < n_sizes; si++)
    {
      int count = (int) (sizes[si] / 8), iters = iters_opt > 0 ? iters_opt
                                                 : sizes[si] > (1L << 20) ? 5 : 20;
      double *in = malloc ((size_t) count * 8 + 8), *out = malloc ((size_t) count * 8 + 8);
      double *t = malloc ((size_t) iters * sizeof *t);

      for (int i = 0; i < count; i++)
        in[i] = rank + i * 1e-3;
      for (int a = 0; a < N_BENCH_ALGOS; a++)
        {
          int oc = to_onecoll (a);
          onecoll_reduce_opts opts = { oc < 0 ? ONECOLL_REDUCE_AUTO : (onecoll_reduce_algo) oc,
                                       ONECOLL_CHECK_LOCAL };
          double mine, slowest, model;

          if (!use[a] || (oc == ONECOLL_REDUCE_RHRD && (nprocs & (nprocs - 1)) != 0))
            continue;
          for (int it = -2; it < iters; it++)
            {
              int rc;

              MPI_Barrier (MPI_COMM_WORLD);
              mine = MPI_Wtime ();
              if (oc < 0)
                rc = reduce ? MPI_Reduce (in, out, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD)
                            : MPI_Allreduce (in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
              else
                rc = reduce ? onecoll_reduce (in, out, count, MPI_DOUBLE, MPI_SUM, 0,
                                              MPI_COMM_WORLD, &opts)
                            : onecoll_allreduce (in, out, count, MPI_DOUBLE, MPI_SUM,
                                                 MPI_COMM_WORLD, &opts);
              mine = MPI_Wtime () - mine;
              if (rc != MPI_SUCCESS)
                MPI_Abort (MPI_COMM_WORLD, 3);
              MPI_Reduce (&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
              if (it >= 0)
                t[it] = slowest;
            }
          if (rank == 0)
            {
              double med = median (t, iters), mn = t[0];
              const char *name = algo_names[a];

              model = oc < 0 ? -1
                             : onecoll_reduce_cost ((onecoll_reduce_algo) oc, !reduce, nprocs,
                                                    (double) count * 8, alpha, beta, gamma);
              if (oc < 0)
                name = mpi_label;
              printf ("%-5d %10ld %-10s %12.1f %12.1f %12.1f%s%s\n", nprocs, (long) count * 8,
                      name, med * 1e6, mn * 1e6, model < 0 ? 0.0 : model * 1e6,
                      oc == ONECOLL_REDUCE_AUTO ? " = " : "",
                      oc == ONECOLL_REDUCE_AUTO
                        ? onecoll_reduce_algo_name (onecoll_reduce_select (!reduce, nprocs,
                                                                           (int64_t) count * 8))
                        : "");
              if (csv != NULL)
                fprintf (csv, "%s,%d,%ld,%s,%.3f,%.3f,%.3f,%.4g,%.4g,%.4g\n",
                         reduce ? "reduce" : "allreduce", nprocs, (long) count * 8, name,
                         med * 1e6, mn * 1e6, model * 1e6, alpha, beta, gamma);
              fflush (stdout);
            }
        }
      free (in);
      free (out);
      free (t);
    }
  if (csv != NULL)
    fclose (csv);
  MPI_Finalize ();
  return 0;
}
