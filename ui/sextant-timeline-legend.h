/*
 * sextant-timeline-legend.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline's legend: a horizontal strip (the window puts it under or
 * above the timeline) with a switch between colour by category and by
 * region, the swatches of the categories present (or, by region, of the
 * regions the window names: those with the most time in view), and the
 * style of each pattern's lost time present. Main thread.
 */
#pragma once

#include <gtk/gtk.h>

#include "sextant-timeline-layers.h"

G_BEGIN_DECLS

#define SEXTANT_TYPE_TIMELINE_COLOR_MODE (sextant_timeline_color_mode_get_type ())
GType sextant_timeline_color_mode_get_type (void) G_GNUC_CONST;

#define SEXTANT_TYPE_TIMELINE_LEGEND (sextant_timeline_legend_get_type ())

G_DECLARE_FINAL_TYPE (SextantTimelineLegend, sextant_timeline_legend, SEXTANT, TIMELINE_LEGEND, GtkWidget)

/* At most this many regions are shown (the first of the list given) */
#define SEXTANT_TIMELINE_LEGEND_MAX_REGIONS 12

GtkWidget               *sextant_timeline_legend_new            (void);
void                     sextant_timeline_legend_set_categories (SextantTimelineLegend    *self,
                                                                 guint                     categories);
void                     sextant_timeline_legend_set_regions    (SextantTimelineLegend    *self,
                                                                 GPtrArray                *names,
                                                                 const guint              *categories);
void                     sextant_timeline_legend_set_patterns   (SextantTimelineLegend    *self,
                                                                 const char * const       *patterns,
                                                                 const char * const       *titles);
SextantTimelineColorMode sextant_timeline_legend_get_color_mode (SextantTimelineLegend    *self);
void                     sextant_timeline_legend_set_color_mode (SextantTimelineLegend    *self,
                                                                 SextantTimelineColorMode  mode);
/* The swatches shown now (categories or regions, then patterns) */
guint                    sextant_timeline_legend_get_n_swatches (SextantTimelineLegend    *self);

G_END_DECLS
