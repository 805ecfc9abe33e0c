/*
 * sextant-bench-record.c - what the recorder adds to an MPI call, and how
 * much memory it keeps over a long run (bench/record/run.sh).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   mpirun -np P sextant-bench-record KERNEL N [RUNS]
 *
 * A plain MPI program (no recorder inside): run.sh runs it bare and under
 * the sextant-record launcher, side by side. Kernels:
 *
 *   pingpong  2 ranks: N round trips of one int (MPI_Send + MPI_Recv on
 *             each side: four recorded calls per round trip, all on the
 *             critical path). The measurement.
 *   iprobe    every rank alone: N MPI_Iprobe on an empty queue of
 *             MPI_COMM_SELF - the cheapest MPI call, so nearly all of the
 *             difference is the recorder's own work (ENTER with call site
 *             and calling context, LEAVE).
 *   isend     2 ranks: N times MPI_Irecv + MPI_Isend + MPI_Waitall of one
 *             int each way (the request table: an insert and a removal per
 *             request; three recorded calls per iteration).
 *   long      for the memory bound: N iterations of a mix from several
 *             call sites and call paths, 11 recorded calls per iteration
 *             and rank (a ping-pong, an Isend/Irecv/Waitall exchange, an
 *             MPI_Allreduce, an MPI_Iprobe, an MPI_Irecv that one
 *             unsuccessful MPI_Test, MPI_Cancel and MPI_Wait end), at
 *             recursion depths 0-4, so each call site has 5 call paths. On
 *             2 ranks between them; on 1 rank with itself (MPI_Sendrecv
 *             for the ping-pong, MPI_COMM_SELF), which runs at its own
 *             pace on a loaded machine. Rank 0 prints its resident set
 *             size after 10^3, 10^4, ... iterations and at the end (VmRSS
 *             and VmHWM of /proc/self/status).
 *
 * Every kernel but long runs RUNS (default 5) times after a warm-up of
 * N/10 operations and prints, from rank 0, one line
 *   KERNEL ops=N runs=RUNS wall_ns=W best_ns=B mean_ns=M cpu_ns=C
 *          best_cpu_ns=D mean_cpu_ns=E calls=K faults=F
 * with W the median over the runs of the wall time per operation (round
 * trip, probe, iteration) on rank 0, B the shortest and M the mean; C, D and
 * E the same for the CPU time (user + system) of rank 0's main thread; K the
 * MPI calls per operation and rank; F the page faults of rank 0's main
 * thread in all the timed runs (where a recorder's event memory shows). On a shared machine many short runs and
 * the best of them (the runs that no other job interrupted) say what the
 * calls cost; the median says what a run met; the mean includes the rare
 * run in which the recorder flushed its buffer to disk.
 * The long kernel prints "long iter=I calls=C rss_kib=R hwm_kib=H" lines.
 * The CPU time matters on a shared machine: a rank waiting for the other
 * spins in MPI (so it counts) but a rank the scheduler took off the core
 * does not.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static int rank;
static int size;

static double
cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* minor and major page faults of the calling thread */
static long
faults_now (void)
{
  struct rusage usage;

  if (getrusage (RUSAGE_THREAD, &usage) != 0)
    return 0;
  return usage.ru_minflt + usage.ru_majflt;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *v,
        int     n)
{
  qsort (v, (size_t) n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

__attribute__ ((noinline)) static void
pingpong (long n)
{
  int value = 0;

  for (long i = 0; i < n; i++)
    {
      if (rank == 0)
        {
          MPI_Send (&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
          MPI_Recv (&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
      else if (rank == 1)
        {
          MPI_Recv (&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          value++;
          MPI_Send (&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
    }
}

__attribute__ ((noinline)) static void
iprobe (long n)
{
  int flag;

  for (long i = 0; i < n; i++)
    MPI_Iprobe (MPI_ANY_SOURCE, 12345, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
}

__attribute__ ((noinline)) static void
exchange (void)
{
  int out = rank, in = -1;
  int peer = size > 1 ? rank ^ 1 : 0;
  MPI_Request reqs[2];

  if (peer >= size)
    return;
  MPI_Irecv (&in, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend (&out, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &reqs[1]);
  MPI_Waitall (2, reqs, MPI_STATUSES_IGNORE);
}

__attribute__ ((noinline)) static void
isend (long n)
{
  for (long i = 0; i < n; i++)
    exchange ();
}

/* One iteration of the long kernel, at recursion depth @depth. */
__attribute__ ((noinline)) static void
mix (int depth,
     long i)
{
  if (depth > 0)
    {
      mix (depth - 1, i);
      __asm__ volatile ("" ::: "memory");   /* not a tail call: a frame per level */
      return;
    }
  {
    int value = (int) i, sum = 0, flag = 0;
    MPI_Request req;

    if (size > 1)
      pingpong (1);
    else
      {
        MPI_Sendrecv (&value, 1, MPI_INT, 0, 2, &sum, 1, MPI_INT, 0, 2, MPI_COMM_SELF,
                      MPI_STATUS_IGNORE);
        MPI_Sendrecv (&sum, 1, MPI_INT, 0, 3, &value, 1, MPI_INT, 0, 3, MPI_COMM_SELF,
                      MPI_STATUS_IGNORE);
      }
    exchange ();
    MPI_Allreduce (&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Iprobe (MPI_ANY_SOURCE, 12345, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
    /* a receive nobody sends to: one unsuccessful test, then cancelled */
    MPI_Irecv (&value, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_SELF, &req);
    MPI_Test (&req, &flag, MPI_STATUS_IGNORE);
    MPI_Cancel (&req);
    MPI_Wait (&req, MPI_STATUS_IGNORE);
  }
}

static void
memory (long *rss,
        long *hwm)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];

  *rss = *hwm = -1;
  if (f == NULL)
    return;
  while (fgets (line, sizeof line, f) != NULL)
    {
      if (strncmp (line, "VmRSS:", 6) == 0)
        *rss = atol (line + 6);
      else if (strncmp (line, "VmHWM:", 6) == 0)
        *hwm = atol (line + 6);
    }
  fclose (f);
}

static void
long_run (long n)
{
  long next = 1000;

  for (long i = 1; i <= n; i++)
    {
      mix ((int) (i % 5), i);
      if (i == next || i == n)
        {
          long rss, hwm;

          memory (&rss, &hwm);
          if (rank == 0)
            {
              /* pingpong: 2, exchange: 3, allreduce, iprobe, irecv, test,
               * cancel, wait: 6 */
              printf ("long iter=%ld calls=%ld rss_kib=%ld hwm_kib=%ld\n", i, i * 11, rss, hwm);
              fflush (stdout);
            }
          if (i == next)
            next *= 10;
        }
    }
}

int
main (int    argc,
      char **argv)
{
  const char *name = argc > 1 ? argv[1] : "pingpong";
  long n = argc > 2 ? atol (argv[2]) : 100000;
  int runs = argc > 3 ? atoi (argv[3]) : 5;
  void (*kernel) (long) = NULL;
  int calls = 0;
  double *wall, *cpu;
  long faults = 0;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  if (n <= 0 || runs <= 0)
    {
      if (rank == 0)
        fprintf (stderr, "usage: sextant-bench-record pingpong|iprobe|isend|long N [RUNS]\n");
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  if (strcmp (name, "long") == 0)
    {
      long_run (n);
      MPI_Finalize ();
      return 0;
    }
  if (strcmp (name, "pingpong") == 0)
    kernel = pingpong, calls = 2;
  else if (strcmp (name, "iprobe") == 0)
    kernel = iprobe, calls = 1;
  else if (strcmp (name, "isend") == 0)
    kernel = isend, calls = 3;
  if (kernel == NULL || (kernel != iprobe && size < 2))
    {
      if (rank == 0)
        fprintf (stderr, "unknown kernel %s, or too few ranks\n", name);
      MPI_Abort (MPI_COMM_WORLD, 2);
    }

  wall = calloc ((size_t) runs, sizeof *wall);
  cpu = calloc ((size_t) runs, sizeof *cpu);
  kernel (n / 10 > 0 ? n / 10 : 1);
  for (int r = 0; r < runs; r++)
    {
      double t0, c0;
      long f0;

      MPI_Barrier (MPI_COMM_WORLD);
      t0 = MPI_Wtime ();
      c0 = cpu_now ();
      f0 = faults_now ();
      kernel (n);
      faults += faults_now () - f0;
      cpu[r] = (cpu_now () - c0) / (double) n * 1e9;
      wall[r] = (MPI_Wtime () - t0) / (double) n * 1e9;
    }
  if (rank == 0)
    {
      double sum_wall = 0.0, sum_cpu = 0.0, med_wall, med_cpu;

      for (int r = 0; r < runs; r++)
        {
          sum_wall += wall[r];
          sum_cpu += cpu[r];
        }
      med_wall = median (wall, runs);   /* sorts */
      med_cpu = median (cpu, runs);
      printf ("%s ops=%ld runs=%d wall_ns=%.1f best_ns=%.1f mean_ns=%.1f cpu_ns=%.1f best_cpu_ns=%.1f "
              "mean_cpu_ns=%.1f calls=%d faults=%ld\n", name, n, runs, med_wall, wall[0], sum_wall / runs,
              med_cpu, cpu[0], sum_cpu / runs, calls, faults);
    }
  free (wall);
  free (cpu);
  MPI_Finalize ();
  return 0;
}
