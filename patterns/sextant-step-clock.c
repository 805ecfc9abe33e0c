/*
 * sextant-step-clock.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The per-step timings of an analysis (sextant-step-clock.h).
 */
#include "config.h"

#include "sextant-step-clock.h"
#include "sextant-store-private.h"

void
sextant_step_clock_start (SextantStepClock *clock)
{
  clock->wall = g_get_monotonic_time ();
  clock->cpu = sextant_thread_cpu_usec ();
}

/* Logs the step just done (its name from @format) and starts the next */
void
sextant_step_clock_lap (SextantStepClock *clock,
                        const char       *format,
                        ...)
{
  g_autofree char *step = NULL;
  va_list args;

  va_start (args, format);
  step = g_strdup_vprintf (format, args);
  va_end (args);
  g_debug ("%s: %.3f s (%.3f s CPU)", step, (g_get_monotonic_time () - clock->wall) / (double)G_USEC_PER_SEC,
           (sextant_thread_cpu_usec () - clock->cpu) / (double)G_USEC_PER_SEC);
  sextant_step_clock_start (clock);
}
