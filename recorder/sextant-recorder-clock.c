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
 */
#include "sextant-recorder-private.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIN_SAMPLES 8
#define MAX_SAMPLES 64
#define GOOD_RTT_NS 20000           /* stop sampling once a round trip was this short */
#define TAG_PING 0x5e47
#define TAG_PONG 0x5e48

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
