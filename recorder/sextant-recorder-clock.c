/*
 * sextant-recorder-clock.c - making the ranks' timestamps comparable.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every rank stamps its events with its own CLOCK_MONOTONIC (ns). At init
 * and at finalize each rank measures the offset of rank 0's clock to its
 * own, and writes both as OTF2 ClockOffset records into the local
 * definitions of its locations. libotf2's reader adds to each timestamp the
 * offset interpolated linearly between the two (and extrapolated outside),
 * so a reader sees every event on rank 0's time line, drift included.
 *
 * The measurement is Cristian's: rank r sends to rank 0, rank 0 answers with
 * its time t0, rank r reads its clock before (t1) and after (t2), and
 * estimates t0 - (t1 + t2) / 2, which is off by at most (t2 - t1) / 2. The
 * shortest of 8 to 64 round trips is kept (sampling stops after 8 once one
 * took under 20 us: on a loaded machine the first ones are often slowed by
 * the scheduler). Rank 0 serves the ranks one after the other; a one-time
 * cost of ~10-100 us per rank on one machine.
 *
 * Processes on one Linux host share CLOCK_MONOTONIC, so there the true
 * offset is exactly 0 and any measured value would only add the
 * measurement's error; in the default mode (AUTO) only ranks on other hosts
 * than rank 0 measure, the others use 0. PINGPONG measures on every rank
 * (to test the measurement, or where a "host" name hides several machines).
 *
 * Reading the clock: clock_gettime costs 20-60 ns on a virtual machine
 * (kvm-clock), twice per recorded MPI call. Where the CPU has an invariant
 * time stamp counter (x86-64, CPUID 0x80000007 EDX bit 8) each thread
 * reads the counter instead (rdtsc, ~10-25 ns) and maps it linearly to
 * CLOCK_MONOTONIC (sextant__thread_now in the private header): from an
 * anchor (counter, ns) with the counter's rate since the recorder started,
 * for a span of about 2 ms of ticks. The first reading past the span
 * re-anchors (this file, sextant__tsc_slow): it reads CLOCK_MONOTONIC
 * between two counter reads (the narrowest of 3 tries, the counter at its
 * middle) and starts the map there, with the rate measured anew. A reading
 * below the thread's previous one - the new anchor a few ns behind where
 * the old map got to, or a counter behind on another core - gives the
 * previous one, so the clock never goes back on a thread, as libotf2
 * requires of a location. Every thread's clock is thus within a few ns of
 * CLOCK_MONOTONIC (the largest difference found at re-anchoring is printed
 * with SEXTANT_RECORD_VERBOSE=1) and the ranks on one host still share a
 * clock. The rate is first measured over 2 ms at init. Without an
 * invariant counter, or with SEXTANT_RECORD_TSC=0, every reading is a
 * clock_gettime.
 */
#include "sextant-recorder-private.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#define MIN_SAMPLES 8
#define MAX_SAMPLES 64
#define GOOD_RTT_NS 20000           /* stop sampling once a round trip was this short */
#define TAG_PING 0x5e47
#define TAG_PONG 0x5e48

#define TSC_CALIBRATE_NS 2000000    /* the rate's first measurement */
#define TSC_SPAN_NS 2000000         /* a thread clock's segment */

/* The counter's origin: the first calibration sample (written once, before
 * any thread clock is used). rate_base_ns == 0: no usable counter. */
static uint64_t rate_base_tsc;
static uint64_t rate_base_ns;
static uint64_t rate_init;          /* the rate measured at init, ns per tick << 32 */
static uint64_t span_ticks;

#if defined(__x86_64__)
/* CLOCK_MONOTONIC and the counter at the same moment: the narrowest of 3
 * brackets, the counter at its middle. */
static void
tsc_sample (uint64_t *tsc,
            uint64_t *ns)
{
  uint64_t best = UINT64_MAX;

  for (int i = 0; i < 3; i++)
    {
      uint64_t a = __builtin_ia32_rdtsc ();
      uint64_t m = sextant__clock_gettime ();
      uint64_t b = __builtin_ia32_rdtsc ();

      if (b >= a && b - a < best)
        {
          best = b - a;
          *tsc = a + (b - a) / 2;
          *ns = m;
        }
    }
  if (best == UINT64_MAX)
    {
      *tsc = __builtin_ia32_rdtsc ();
      *ns = sextant__clock_gettime ();
    }
}

/* ns per tick << 32 since the origin, at (@tsc, @ns); the rate of init for
 * a counter not ahead of the origin (another core's, a little behind) */
static uint64_t
tsc_rate (uint64_t tsc,
          uint64_t ns)
{
  if (tsc <= rate_base_tsc || ns <= rate_base_ns)
    return rate_init;
  return (uint64_t) (((unsigned __int128) (ns - rate_base_ns) << 32) / (tsc - rate_base_tsc));
}

static void
tsc_calibrate (void)
{
  const char *env = getenv ("SEXTANT_RECORD_TSC");
  unsigned int eax, ebx, ecx, edx;
  uint64_t tsc0, ns0, tsc1, ns1, mult;
  struct timespec pause = { 0, TSC_CALIBRATE_NS };

  if (env != NULL && strcmp (env, "0") == 0)
    return;
  if (!__get_cpuid (0x80000007, &eax, &ebx, &ecx, &edx) || !(edx & (1u << 8)))
    return;
  tsc_sample (&tsc0, &ns0);
  nanosleep (&pause, NULL);
  tsc_sample (&tsc1, &ns1);
  if (tsc1 <= tsc0 || ns1 - ns0 < TSC_CALIBRATE_NS / 2)
    return;
  mult = (uint64_t) (((unsigned __int128) (ns1 - ns0) << 32) / (tsc1 - tsc0));
  /* 0.1 to 10 GHz, or it is not a clock to trust */
  if (mult < (UINT64_C (1) << 32) / 10 || mult > (UINT64_C (10) << 32))
    return;
  rate_init = mult;
  span_ticks = ((uint64_t) TSC_SPAN_NS << 32) / mult;
  rate_base_tsc = tsc0;
  rate_base_ns = ns0;               /* nonzero: the counter is used */
}
#endif

uint64_t
sextant__tsc_slow (sextant__tsc_clock *clock,
                   uint64_t            tsc)
{
#if defined(__x86_64__)
  uint64_t at, ns;

  if (rate_base_ns == 0)
    return sextant__clock_gettime ();
  if (clock->span == 0)
    {
      /* the thread's first reading */
      tsc_sample (&at, &ns);
      clock->tsc = at;
      clock->ns = ns;
      clock->mult = tsc_rate (at, ns);
      clock->span = span_ticks;
      return ns;
    }
  if (tsc < clock->tsc)
    return clock->ns;               /* a counter behind the anchor (the caller keeps the last) */

  tsc_sample (&at, &ns);
  if (at < clock->tsc)
    return clock->ns;
  /* how far off the map got, if it was in use until now (not after a
   * pause of the thread, where it is not used) */
  if (at - clock->tsc < 2 * clock->span)
    {
      uint64_t predicted = clock->ns + (uint64_t) (((unsigned __int128) (at - clock->tsc) * clock->mult) >> 32);
      uint64_t error = ns > predicted ? ns - predicted : predicted - ns;

      clock->anchors++;
      if (error > clock->worst)
        clock->worst = error;
    }
  clock->tsc = at;
  clock->ns = ns;
  clock->mult = tsc_rate (at, ns);
  return ns;
#else
  (void) clock;
  (void) tsc;
  return sextant__clock_gettime ();
#endif
}

/* Rank r's side: round trips with rank 0 until one was short (or
 * MAX_SAMPLES), keeping the shortest. Each ping carries "last?", so that
 * rank 0 knows when to stop serving this rank. */
static int
measure_against_root (sextant__clock_point *point)
{
  uint64_t best_rtt = UINT64_MAX;
  int64_t best_offset = 0;

  for (int i = 0; i < MAX_SAMPLES; i++)
    {
      uint64_t ping[2], t2, t0 = 0;

      ping[0] = sextant__now ();
      ping[1] = i + 1 == MAX_SAMPLES || (i + 1 >= MIN_SAMPLES && best_rtt <= GOOD_RTT_NS);
      if (PMPI_Send (ping, 2, MPI_UINT64_T, 0, TAG_PING, sextant__rec.comm) != MPI_SUCCESS ||
          PMPI_Recv (&t0, 1, MPI_UINT64_T, 0, TAG_PONG, sextant__rec.comm, MPI_STATUS_IGNORE)
          != MPI_SUCCESS)
        return SEXTANT_RECORDER_ERR_MPI;
      t2 = sextant__now ();
      if (t2 - ping[0] < best_rtt)
        {
          best_rtt = t2 - ping[0];
          /* t0 - (t1 + t2) / 2 without overflow */
          best_offset = (int64_t) (t0 - ping[0]) - (int64_t) ((t2 - ping[0]) / 2);
        }
      if (ping[1])
        break;
    }
  point->time = sextant__now ();
  point->offset = best_offset;
  point->deviation = (double) best_rtt / 2.0;
  if (sextant__rec.verbose)
    sextant__warn ("clock offset to rank 0: %+" PRId64 " ns (round trip %" PRIu64 " ns)", best_offset,
                   best_rtt);
  return SEXTANT_RECORDER_OK;
}

int
sextant__clock_measure (sextant__clock_point *point)
{
  int measure = 0;                  /* does this rank measure? */
  int *who = NULL;                  /* rank 0: which ranks measure */
  int rc = SEXTANT_RECORDER_OK;

#if defined(__x86_64__)
  {
    static int calibrated;

    if (!calibrated)
      {
        calibrated = 1;
        tsc_calibrate ();
      }
  }
#endif
  if (sextant__rec.verbose && sextant__tls != NULL && sextant__tls->clock.anchors > 0)
    sextant__warn ("thread clock: %" PRIu64 " re-anchorings, largest difference to CLOCK_MONOTONIC %"
                   PRIu64 " ns", sextant__tls->clock.anchors, sextant__tls->clock.worst);
  memset (point, 0, sizeof *point);
  point->time = sextant__now ();
  if (sextant__rec.clock_mode == SEXTANT__CLOCK_NONE || sextant__rec.size == 1)
    return SEXTANT_RECORDER_OK;

  if (sextant__rec.rank != 0)
    {
      if (sextant__rec.clock_mode == SEXTANT__CLOCK_PINGPONG)
        measure = 1;
      else
        {
          char root_host[sizeof sextant__rec.hostname];

          memcpy (root_host, sextant__rec.hostname, sizeof root_host);
          if (PMPI_Bcast (root_host, (int) sizeof root_host, MPI_CHAR, 0, sextant__rec.comm)
              != MPI_SUCCESS)
            return SEXTANT_RECORDER_ERR_MPI;
          measure = strcmp (root_host, sextant__rec.hostname) != 0;
        }
    }
  else if (sextant__rec.clock_mode == SEXTANT__CLOCK_AUTO &&
           PMPI_Bcast (sextant__rec.hostname, (int) sizeof sextant__rec.hostname, MPI_CHAR, 0,
                       sextant__rec.comm) != MPI_SUCCESS)
    return SEXTANT_RECORDER_ERR_MPI;

  if (sextant__rec.rank == 0)
    {
      who = calloc ((size_t) sextant__rec.size, sizeof *who);
      if (who == NULL)
        rc = SEXTANT_RECORDER_ERR_NOMEM;
    }
  /* rank 0 must know whom to serve; a rank 0 out of memory serves nobody,
   * and tells everyone so that nobody waits for it */
  if (PMPI_Gather (&measure, 1, MPI_INT, who, 1, MPI_INT, 0, sextant__rec.comm) != MPI_SUCCESS)
    {
      free (who);
      return SEXTANT_RECORDER_ERR_MPI;
    }
  if (PMPI_Bcast (&rc, 1, MPI_INT, 0, sextant__rec.comm) != MPI_SUCCESS)
    rc = SEXTANT_RECORDER_ERR_MPI;
  if (rc != SEXTANT_RECORDER_OK)
    {
      free (who);
      return rc;
    }

  if (sextant__rec.rank == 0)
    {
      for (int r = 1; r < sextant__rec.size && rc == SEXTANT_RECORDER_OK; r++)
        {
          uint64_t ping[2] = { 0, !who[r] };

          while (!ping[1])
            {
              uint64_t t0;

              if (PMPI_Recv (ping, 2, MPI_UINT64_T, r, TAG_PING, sextant__rec.comm, MPI_STATUS_IGNORE)
                  != MPI_SUCCESS)
                {
                  rc = SEXTANT_RECORDER_ERR_MPI;
                  break;
                }
              t0 = sextant__now ();
              if (PMPI_Send (&t0, 1, MPI_UINT64_T, r, TAG_PONG, sextant__rec.comm) != MPI_SUCCESS)
                {
                  rc = SEXTANT_RECORDER_ERR_MPI;
                  break;
                }
            }
        }
      free (who);
      point->time = sextant__now ();
      return rc;
    }

  return measure ? measure_against_root (point) : SEXTANT_RECORDER_OK;
}

uint64_t
sextant__clock_correct (const sextant__clock_point *a,
                        const sextant__clock_point *b,
                        uint64_t                    t)
{
  double slope = 0.0;
  double diff;

  /* libotf2 (otf2_evt_reader_apply_clock_correction): offset(t) =
   * offset_a + rint (slope * (t - time_a)), slope from a to the next record;
   * the last interval extends to both sides. */
  if (b != NULL && b->time > a->time)
    slope = (double) (b->offset - a->offset) / (double) (b->time - a->time);
  diff = t >= a->time ? (double) (t - a->time) : -(double) (a->time - t);
  return t + (uint64_t) (a->offset + (int64_t) rint (slope * diff));
}
