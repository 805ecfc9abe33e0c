/* otf2gen-scenarios.h - the scenarios of sextant-otf2gen and what the small ones contain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * every-kind is described in otf2gen-every-kind.h.  The three small scenarios
 * each break one assumption an importer might make; their content is below so
 * that tests can assert what was (or was not) imported.
 *
 *  clock-less      no CLOCK_PROPERTIES definition at all; two locations with
 *                  sparse 64-bit ids SMALL_CL_LOC_A = 0 and SMALL_CL_LOC_B = 1 << 40
 *                  (location groups 0 and 1).
 *  disorder        the "tiny" trace, plus on location 0 one visit whose ENTER
 *                  is earlier than the preceding LEAVE (time goes backwards once,
 *                  at SMALL_DISORDER_BACK_TS), plus a second GROUP definition
 *                  reusing id SMALL_DUP_GROUP with another name and members.
 *                  libotf2 3.0.2's writer refuses a decreasing timestamp, so
 *                  the record is written at a placeholder time and patched in
 *                  the closed event file (sextant_gen_backwards_ts()); its
 *                  reader and otf2-print accept the result (otf2-print warns
 *                  about the duplicate group only).
 *  unknown-anchor  the "tiny" trace, but the archive is named "weird": the
 *                  anchor file is OUTDIR/weird.otf2, not OUTDIR/traces.otf2.
 *
 * All small traces use regions SMALL_REGION_MAIN ("main") and SMALL_REGION_WORK
 * ("work", role LOOP), both in SMALL_FILE, and (except clock-less) a 1 GHz
 * clock with global offset 0 and length SMALL_TRACE_LENGTH.
 */

#pragma once

#include <stdint.h>
#include <stdio.h>

#include <glib.h>

G_BEGIN_DECLS

#define SMALL_TABLE static const __attribute__ ((unused))

enum { SMALL_REGION_MAIN, SMALL_REGION_WORK, SMALL_N_REGIONS };

#define SMALL_FILE               "/opt/small/src/small.c"
#define SMALL_MAIN_LINES         10, 40
#define SMALL_WORK_LINES         20, 30
#define SMALL_TIMER_RESOLUTION   UINT64_C (1000000000)
#define SMALL_TRACE_LENGTH       UINT64_C (1000)

typedef struct
{
  uint64_t ts;
  int      enter;    /* 1 = ENTER, 0 = LEAVE */
  uint32_t region;
} SmallEvent;

#define SMALL_ENTER(ts, region) { UINT64_C (ts), 1, (region) }
#define SMALL_LEAVE(ts, region) { UINT64_C (ts), 0, (region) }

/* The tiny trace: two locations 0 and 1 (location groups 0 and 1). */
#define SMALL_TINY_N_EVENTS_LOC0 4   /* visits: main, work */
#define SMALL_TINY_N_EVENTS_LOC1 4   /* visits: main, work */

SMALL_TABLE SmallEvent small_tiny_loc0[SMALL_TINY_N_EVENTS_LOC0] = {
  SMALL_ENTER (100, SMALL_REGION_MAIN),
  SMALL_ENTER (200, SMALL_REGION_WORK),
  SMALL_LEAVE (300, SMALL_REGION_WORK),
  SMALL_LEAVE (600, SMALL_REGION_MAIN),
};

SMALL_TABLE SmallEvent small_tiny_loc1[SMALL_TINY_N_EVENTS_LOC1] = {
  SMALL_ENTER (110, SMALL_REGION_MAIN),
  SMALL_ENTER (210, SMALL_REGION_WORK),
  SMALL_LEAVE (500, SMALL_REGION_WORK),
  SMALL_LEAVE (610, SMALL_REGION_MAIN),
};

/* clock-less: location A has three visits, B two. */
#define SMALL_CL_LOC_A           UINT64_C (0)
#define SMALL_CL_LOC_B           (UINT64_C (1) << 40)
#define SMALL_CL_N_EVENTS_A      6
#define SMALL_CL_N_EVENTS_B      4

SMALL_TABLE SmallEvent small_cl_loc_a[SMALL_CL_N_EVENTS_A] = {
  SMALL_ENTER (100, SMALL_REGION_MAIN),
  SMALL_ENTER (200, SMALL_REGION_WORK),
  SMALL_LEAVE (300, SMALL_REGION_WORK),
  SMALL_ENTER (400, SMALL_REGION_WORK),
  SMALL_LEAVE (500, SMALL_REGION_WORK),
  SMALL_LEAVE (900, SMALL_REGION_MAIN),
};

SMALL_TABLE SmallEvent small_cl_loc_b[SMALL_CL_N_EVENTS_B] = {
  SMALL_ENTER (150, SMALL_REGION_MAIN),
  SMALL_ENTER (250, SMALL_REGION_WORK),
  SMALL_LEAVE (600, SMALL_REGION_WORK),
  SMALL_LEAVE (950, SMALL_REGION_MAIN),
};

/* disorder: location 0 gets this instead of small_tiny_loc0; location 1 is
 * small_tiny_loc1.  The second "work" ENTER (250) is before the LEAVE at 300. */
#define SMALL_DISORDER_N_EVENTS_LOC0 6
#define SMALL_DISORDER_BACK_TS       UINT64_C (250)

SMALL_TABLE SmallEvent small_disorder_loc0[SMALL_DISORDER_N_EVENTS_LOC0] = {
  SMALL_ENTER (100, SMALL_REGION_MAIN),
  SMALL_ENTER (200, SMALL_REGION_WORK),
  SMALL_LEAVE (300, SMALL_REGION_WORK),
  SMALL_ENTER (250, SMALL_REGION_WORK),
  SMALL_LEAVE (400, SMALL_REGION_WORK),
  SMALL_LEAVE (600, SMALL_REGION_MAIN),
};

/* disorder: GROUP id SMALL_DUP_GROUP is defined twice, first as the MPI
 * COMM_LOCATIONS group {0, 1} named SMALL_DUP_GROUP_FIRST_NAME, then as a
 * LOCATIONS group {1} named SMALL_DUP_GROUP_SECOND_NAME; and LOCATION_GROUP
 * 0 twice, first as "MPI Rank 0", then, among the other location groups,
 * named SMALL_DUP_LOCATION_GROUP_NAME. */
#define SMALL_DUP_GROUP              0
#define SMALL_DUP_GROUP_FIRST_NAME   "MPI locations"
#define SMALL_DUP_GROUP_SECOND_NAME  "duplicate id"
#define SMALL_DUP_LOCATION_GROUP_NAME "duplicate location group"

#define SMALL_WEIRD_ARCHIVE_NAME     "weird"

/* Each writes OUTDIR/traces.otf2 (unknown-anchor: OUTDIR/weird.otf2). */
gboolean sextant_otf2gen_every_kind        (const char  *outdir,
                                            gboolean     force,
                                            GError     **error);
void     sextant_otf2gen_every_kind_expect (FILE        *out);

G_END_DECLS
