/*
 * sextant-bench-locks.c - the paper's benchmark of onecoll's shared-memory
 * reader-writer locks (Efimov, Polyakov et al. 2020; seed 002): all five
 * schemes side by side in one run, N = 1..16 client processes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This process is the writer (the PMIx server); it forks and execs itself
 * N times as the clients (`client ...`), which it keeps for every mode and
 * repetition of one (scheme, N), and drives them through a small control
 * segment of its own. With --pin the writer runs on CPU 0 and client i on
 * CPU (i + 1) mod ncpu (the paper: --bind-to core, one per core).
 *
 * Modes, each repeated R times (default 10):
 *   read     every client does OPS/N (at least 1000) rdlock;rdunlock pairs;
 *            throughput = all acquisitions / (last end - first start)
 *   write    the writer does WOPS wrlock;wrunlock pairs while the clients
 *            wait idle; throughput = WOPS / time
 *   concur   the paper's concurrent mode: the writer does 100 writes, each
 *            wrlock; global_cnt++; wrunlock; usleep(10); each client loops
 *            rdlock; local = global_cnt; rdunlock until it has seen 100.
 *            Reported: the clients' read throughput, and the writer's lock
 *            overhead (mean time from calling wrlock until it returns, i.e.
 *            all client locks held)
 * Timing with clock_gettime (CLOCK_MONOTONIC).
 *
 * Output: one line per repetition ("rep MODE SCHEME N R VALUE...") and a
 * summary per (mode, scheme, N): mean, standard deviation and relative
 * error (standard error of the mean / mean), as lines starting "sum".
 * bench/locks/plot.py turns them into the SVGs of docs/benchmarks.md.
 */
#include "onecoll.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#define MAX_N 64
#define MAX_REPS 100
#define CONC_WRITES 100

enum { CMD_NONE, CMD_READ, CMD_CONC, CMD_EXIT };

/* The control segment: commands from the writer, results from the clients. */
typedef struct
{
  _Atomic uint32_t seq;             /* command number; clients act on a new one */
  _Atomic uint32_t cmd;
  _Atomic uint32_t ready;           /* clients that have started the command */
  _Atomic uint32_t done;            /* clients that have finished it */
  uint64_t ops;                     /* READ: pairs per client */
  uint64_t global_cnt;              /* CONC: written under wrlock, read under rdlock */
  struct
  {
    uint64_t ops;
    uint64_t t0, t1;
  } res[MAX_N];
} ctl_t;

static uint64_t
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static void
die (const char *what,
     int         rc)
{
  fprintf (stderr, "sextant-bench-locks: %s: %s\n", what, rc ? onecoll_strerror (rc) : strerror (errno));
  exit (1);
}

static void
pin (int cpu)
{
  cpu_set_t set;
  long ncpu = sysconf (_SC_NPROCESSORS_ONLN);

  CPU_ZERO (&set);
  CPU_SET ((int) (cpu % (ncpu > 0 ? ncpu : 1)), &set);
  sched_setaffinity (0, sizeof set, &set);
}

static ctl_t *
map_ctl (const char *name,
         int         create)
{
  int fd = shm_open (name, O_RDWR | (create ? O_CREAT | O_TRUNC : 0), 0600);
  ctl_t *ctl;

  if (fd < 0 || (create && ftruncate (fd, sizeof (ctl_t)) < 0))
    die ("control segment", 0);
  ctl = mmap (NULL, sizeof (ctl_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close (fd);
  if (ctl == MAP_FAILED)
    die ("mmap", 0);
  return ctl;
}

/* ---- the client ---------------------------------------------------------- */

static int
client_main (const char *lock_name,
             const char *ctl_name,
             int         idx,
             int         do_pin)
{
  onecoll_rwlock *lock = NULL;
  ctl_t *ctl = map_ctl (ctl_name, 0);
  uint32_t seen = 0;
  int rc;

  if (do_pin)
    pin (idx + 1);
  if ((rc = onecoll_rwlock_attach (lock_name, idx, &lock)) != ONECOLL_OK)
    die ("attach", rc);
  for (;;)
    {
      uint32_t seq = atomic_load_explicit (&ctl->seq, memory_order_acquire);
      uint32_t cmd;
      uint64_t ops = 0, t0, local = 0;

      if (seq == seen)
        {
          usleep (20);              /* idle: leave the CPU to the others */
          continue;
        }
      seen = seq;
      cmd = atomic_load_explicit (&ctl->cmd, memory_order_relaxed);
      if (cmd == CMD_EXIT)
        break;
      atomic_fetch_add_explicit (&ctl->ready, 1, memory_order_acq_rel);
      t0 = now_ns ();
      if (cmd == CMD_READ)
        for (uint64_t i = 0; i < ctl->ops; i++)
          {
            if (onecoll_rwlock_rdlock (lock) != ONECOLL_OK)
              die ("rdlock", 0);
            onecoll_rwlock_rdunlock (lock);
            ops++;
          }
      else
        while (local < CONC_WRITES)
          {
            if (onecoll_rwlock_rdlock (lock) != ONECOLL_OK)
              die ("rdlock", 0);
            local = *(volatile uint64_t *) &ctl->global_cnt;
            onecoll_rwlock_rdunlock (lock);
            ops++;
          }
      ctl->res[idx].ops = ops;
      ctl->res[idx].t0 = t0;
      ctl->res[idx].t1 = now_ns ();
      atomic_fetch_add_explicit (&ctl->done, 1, memory_order_acq_rel);
    }
  onecoll_rwlock_destroy (lock);
  munmap (ctl, sizeof *ctl);
  return 0;
}

/* ---- the writer ---------------------------------------------------------- */

typedef struct
{
  double v[MAX_REPS];
  int n;
} series;

static void
add (series *s,
     double  v)
{
  if (s->n < MAX_REPS)
    s->v[s->n++] = v;
}

static void
summary (const char   *mode,
         const char   *scheme,
         int           n,
         const series *s,
         const char   *unit)
{
  double mean = 0, var = 0, sd, rel;

  for (int i = 0; i < s->n; i++)
    mean += s->v[i];
  mean /= s->n > 0 ? s->n : 1;
  for (int i = 0; i < s->n; i++)
    var += (s->v[i] - mean) * (s->v[i] - mean);
  sd = s->n > 1 ? sqrt (var / (s->n - 1)) : 0;
  rel = mean != 0 && s->n > 0 ? sd / sqrt ((double) s->n) / mean : 0;
  printf ("sum %-8s %-14s %2d  mean %.6g  sd %.3g  relerr %.4f  %s\n", mode, scheme, n, mean, sd, rel, unit);
}

static void
command (ctl_t   *ctl,
         uint32_t cmd)
{
  atomic_store_explicit (&ctl->ready, 0, memory_order_relaxed);
  atomic_store_explicit (&ctl->done, 0, memory_order_relaxed);
  atomic_store_explicit (&ctl->cmd, cmd, memory_order_relaxed);
  atomic_fetch_add_explicit (&ctl->seq, 1, memory_order_release);
}

static void
wait_count (_Atomic uint32_t *count,
            uint32_t          n)
{
  while (atomic_load_explicit (count, memory_order_acquire) < n)
    usleep (20);
}

/* Aggregate read throughput of the last command, acquisitions per second. */
static double
read_throughput (ctl_t *ctl,
                 int    n)
{
  uint64_t ops = 0, t0 = UINT64_MAX, t1 = 0;

  for (int i = 0; i < n; i++)
    {
      ops += ctl->res[i].ops;
      if (ctl->res[i].t0 < t0)
        t0 = ctl->res[i].t0;
      if (ctl->res[i].t1 > t1)
        t1 = ctl->res[i].t1;
    }
  return t1 > t0 ? (double) ops / ((double) (t1 - t0) * 1e-9) : 0;
}

int
main (int    argc,
      char **argv)
{
  const char *self;
  char lock_name[64], ctl_name[64];
  int nmin = 1, nmax = 16, reps = 10, do_pin = 0;
  long read_ops = 200000, write_ops = 2000;
  int schemes[ONECOLL_RWLOCK_N_SCHEMES], nschemes = 0;
  ctl_t *ctl;

  if (argc == 6 && strcmp (argv[1], "client") == 0)
    return client_main (argv[2], argv[3], atoi (argv[4]), atoi (argv[5]));
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--pin") == 0)
        do_pin = 1;
      else if (strcmp (argv[i], "--n") == 0 && i + 2 < argc)
        {
          nmin = atoi (argv[++i]);
          nmax = atoi (argv[++i]);
        }
      else if (strcmp (argv[i], "--reps") == 0 && i + 1 < argc)
        reps = atoi (argv[++i]);
      else if (strcmp (argv[i], "--read-ops") == 0 && i + 1 < argc)
        read_ops = atol (argv[++i]);
      else if (strcmp (argv[i], "--write-ops") == 0 && i + 1 < argc)
        write_ops = atol (argv[++i]);
      else if (strcmp (argv[i], "--scheme") == 0 && i + 1 < argc
               && onecoll_rwlock_scheme_from_name (argv[i + 1]) > 0 && nschemes < ONECOLL_RWLOCK_N_SCHEMES)
        schemes[nschemes++] = onecoll_rwlock_scheme_from_name (argv[++i]);
      else
        {
          fprintf (stderr, "usage: %s [--pin] [--n MIN MAX] [--reps R] [--read-ops OPS] "
                   "[--write-ops WOPS] [--scheme NAME]...\n", argv[0]);
          return 2;
        }
    }
  if (nmin < 1 || nmax > MAX_N || nmin > nmax || reps < 1 || reps > MAX_REPS)
    {
      fprintf (stderr, "sextant-bench-locks: N in 1..%d, reps in 1..%d\n", MAX_N, MAX_REPS);
      return 2;
    }
  if (nschemes == 0)
    for (int s = ONECOLL_RWLOCK_PTHREAD; s <= ONECOLL_RWLOCK_MCS; s++)
      schemes[nschemes++] = s;
  if ((self = realpath ("/proc/self/exe", NULL)) == NULL)
    die ("realpath", 0);
  snprintf (lock_name, sizeof lock_name, "/sextant-bench-locks-%d", (int) getpid ());
  snprintf (ctl_name, sizeof ctl_name, "/sextant-bench-locks-ctl-%d", (int) getpid ());
  if (do_pin)
    pin (0);
  setvbuf (stdout, NULL, _IOLBF, 0);
  printf ("# sextant-bench-locks: N %d..%d, %d reps, read ops %ld, write ops %ld, pin %d, %ld CPUs\n",
          nmin, nmax, reps, read_ops, write_ops, do_pin, sysconf (_SC_NPROCESSORS_ONLN));
  for (int n = nmin; n <= nmax; n++)
    for (int si = 0; si < nschemes; si++)
      {
        const char *sname = onecoll_rwlock_scheme_name (schemes[si]);
        onecoll_rwlock_config cfg;
        onecoll_rwlock *lock = NULL;
        pid_t pids[MAX_N];
        series rd = { { 0 }, 0 }, wr = { { 0 }, 0 }, crd = { { 0 }, 0 }, cwo = { { 0 }, 0 }, cwm = { { 0 }, 0 };
        int rc;

        ctl = map_ctl (ctl_name, 1);
        onecoll_rwlock_config_init (&cfg, (onecoll_rwlock_scheme) schemes[si], n);
        cfg.replace = 1;
        if ((rc = onecoll_rwlock_init (lock_name, &cfg, &lock)) != ONECOLL_OK)
          die ("init", rc);
        for (int i = 0; i < n; i++)
          {
            char idx_s[16], pin_s[4];
            char *args[] = { (char *) self, "client", lock_name, ctl_name, idx_s, pin_s, NULL };

            snprintf (idx_s, sizeof idx_s, "%d", i);
            snprintf (pin_s, sizeof pin_s, "%d", do_pin);
            if ((pids[i] = fork ()) == 0)
              {
                execv (self, args);
                _exit (127);
              }
          }
        for (int r = 0; r < reps; r++)
          {
            uint64_t t0, total = 0, worst = 0;
            double v;

            /* read-only */
            ctl->ops = (uint64_t) (read_ops / n > 1000 ? read_ops / n : 1000);
            command (ctl, CMD_READ);
            wait_count (&ctl->done, (uint32_t) n);
            v = read_throughput (ctl, n);
            add (&rd, v);
            printf ("rep read     %-14s %2d %2d %.6g\n", sname, n, r, v);

            /* write-only (the clients idle) */
            t0 = now_ns ();
            for (long i = 0; i < write_ops; i++)
              {
                if ((rc = onecoll_rwlock_wrlock (lock)) < 0)
                  die ("wrlock", rc);
                onecoll_rwlock_wrunlock (lock);
              }
            v = (double) write_ops / ((double) (now_ns () - t0) * 1e-9);
            add (&wr, v);
            printf ("rep write    %-14s %2d %2d %.6g\n", sname, n, r, v);

            /* concurrent */
            ctl->global_cnt = 0;
            command (ctl, CMD_CONC);
            wait_count (&ctl->ready, (uint32_t) n);
            for (int w = 0; w < CONC_WRITES; w++)
              {
                uint64_t a = now_ns (), d;

                if ((rc = onecoll_rwlock_wrlock (lock)) < 0)
                  die ("wrlock", rc);
                d = now_ns () - a;
                ctl->global_cnt++;
                onecoll_rwlock_wrunlock (lock);
                total += d;
                if (d > worst)
                  worst = d;
                usleep (10);
              }
            wait_count (&ctl->done, (uint32_t) n);
            v = read_throughput (ctl, n);
            add (&crd, v);
            add (&cwo, (double) total / CONC_WRITES * 1e-3);
            add (&cwm, (double) worst * 1e-3);
            printf ("rep concur   %-14s %2d %2d %.6g %.6g %.6g\n", sname, n, r, v,
                    (double) total / CONC_WRITES * 1e-3, (double) worst * 1e-3);
          }
        command (ctl, CMD_EXIT);
        for (int i = 0; i < n; i++)
          waitpid (pids[i], NULL, 0);
        onecoll_rwlock_destroy (lock);
        munmap (ctl, sizeof *ctl);
        shm_unlink (ctl_name);
        summary ("read", sname, n, &rd, "acq/s");
        summary ("write", sname, n, &wr, "acq/s");
        summary ("conc-rd", sname, n, &crd, "acq/s");
        summary ("conc-wo", sname, n, &cwo, "us");
        summary ("conc-wmax", sname, n, &cwm, "us");
      }
  return 0;
}
