/*
 * sextant-trace-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sextant-trace-error.h"

G_DEFINE_QUARK (sextant-trace-error-quark, sextant_trace_error)
