/*
 * sextant-step-clock.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The per-step timings of an analysis, for G_MESSAGES_DEBUG=all: the wall
 * time and the calling thread's CPU time since the clock was started or
 * last lapped, logged with the step's name.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gint64 wall;   /* g_get_monotonic_time () when the step began */
  gint64 cpu;    /* the thread's CPU time then, in microseconds */
} SextantStepClock;

void sextant_step_clock_start (SextantStepClock *clock);
void sextant_step_clock_lap   (SextantStepClock *clock,
                               const char       *format,
                               ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS
