/*
 * sextant-timeline-colors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline's colours: the categories' (Vampir's, as tools of the
 * field use them), a stable colour per region for the "By region" mode,
 * the collectives' and the one-sided operations' lines, and the style of
 * each pattern kind's lost time. Pure functions, any thread; a region's
 * colour costs a hash of its name.
 */
#include "config.h"

#include <string.h>

#include "sextant-timeline-layers-private.h"

/* Vampir's colours, as tools of the field use them: MPI red, user green. */
static const GdkRGBA category_colors[SEXTANT_N_CATEGORIES] = {
  [SEXTANT_CATEGORY_MPI]    = { 0.86f, 0.20f, 0.22f, 1 },
  [SEXTANT_CATEGORY_RMA]    = { 0.96f, 0.49f, 0.13f, 1 },
  [SEXTANT_CATEGORY_USER]   = { 0.22f, 0.64f, 0.35f, 1 },
  [SEXTANT_CATEGORY_OMP]    = { 0.15f, 0.45f, 0.85f, 1 },
  [SEXTANT_CATEGORY_THREAD] = { 0.56f, 0.33f, 0.78f, 1 },
  [SEXTANT_CATEGORY_IO]     = { 0.93f, 0.74f, 0.17f, 1 },
  [SEXTANT_CATEGORY_ACCEL]  = { 0.07f, 0.62f, 0.58f, 1 },
  [SEXTANT_CATEGORY_OTHER]  = { 0.55f, 0.55f, 0.60f, 1 },
};

/**
 * sextant_timeline_category_color:
 * @category: a SEXTANT_CATEGORY_*
 *
 * Returns: (transfer none): the colour of @category's time in the rows
 */
const GdkRGBA *
sextant_timeline_category_color (guint category)
{
  g_return_val_if_fail (category < SEXTANT_N_CATEGORIES, NULL);

  return &category_colors[category];
}

/* Hues told apart at a glance, none of them red (MPI's) nor navy (the
 * collectives'): after Kelly's and Tableau's palettes */
static const float region_palette[][3] = {
  { 0.22f, 0.64f, 0.35f },   /* green */
  { 0.15f, 0.45f, 0.85f },   /* blue */
  { 0.56f, 0.33f, 0.78f },   /* purple */
  { 0.93f, 0.74f, 0.17f },   /* yellow */
  { 0.07f, 0.62f, 0.58f },   /* teal */
  { 0.96f, 0.55f, 0.20f },   /* orange */
  { 0.55f, 0.36f, 0.20f },   /* brown */
  { 0.89f, 0.47f, 0.76f },   /* pink */
  { 0.60f, 0.65f, 0.15f },   /* olive */
  { 0.40f, 0.75f, 0.93f },   /* sky */
  { 0.55f, 0.82f, 0.30f },   /* lime */
  { 0.10f, 0.40f, 0.22f },   /* forest */
  { 0.72f, 0.66f, 0.92f },   /* lavender */
  { 0.80f, 0.70f, 0.50f },   /* sand */
  { 0.40f, 0.50f, 0.60f },   /* slate */
  { 0.00f, 0.45f, 0.55f },   /* petrol */
  { 0.75f, 0.55f, 0.00f },   /* ochre */
  { 0.38f, 0.30f, 0.66f },   /* indigo */
};

/* Shades of the MPI red, light to dark */
static const float mpi_shades[][3] = {
  { 0.86f, 0.20f, 0.22f },
  { 0.70f, 0.11f, 0.14f },
  { 0.95f, 0.42f, 0.40f },
  { 0.55f, 0.07f, 0.10f },
  { 0.98f, 0.60f, 0.56f },
  { 0.78f, 0.30f, 0.28f },
};

/* FNV-1a: the same in every run and on every machine (g_str_hash's
 * definition is GLib's to change) */
static guint32
stable_hash (const char *s)
{
  guint32 h = 2166136261u;

  for (; *s != '\0'; s++)
    {
      h ^= (guint8)*s;
      h *= 16777619u;
    }

  return h;
}

/**
 * sextant_timeline_region_color:
 * @name: the region's name
 * @category: its category (SEXTANT_CATEGORY_*)
 * @color: (out caller-allocates): its colour in the "By region" mode
 *
 * The same @name gets the same colour in every trace and session; MPI's
 * regions (category MPI, or a name starting with "MPI_") a shade of the
 * MPI red, the others a hue of a palette without red. Any thread.
 */
void
sextant_timeline_region_color (const char *name,
                               guint       category,
                               GdkRGBA    *color)
{
  guint32 h;
  const float *rgb;

  g_return_if_fail (name != NULL);
  g_return_if_fail (color != NULL);

  h = stable_hash (name);
  if (category == SEXTANT_CATEGORY_MPI || g_str_has_prefix (name, "MPI_") || g_str_has_prefix (name, "PMPI_"))
    rgb = mpi_shades[h % G_N_ELEMENTS (mpi_shades)];
  else
    rgb = region_palette[h % G_N_ELEMENTS (region_palette)];
  *color = (GdkRGBA) { rgb[0], rgb[1], rgb[2], 1 };
}

/**
 * sextant_timeline_collective_color:
 *
 * Returns: (transfer none): the colour of the collectives' lines, ticks
 *   and bands (navy)
 */
guint32
sextant_timeline_premultiplied (const GdkRGBA *color)
{
  double a = CLAMP (color->alpha, 0, 1);

  return (guint32)lround (a * 255) << 24 | (guint32)lround (color->red * a * 255) << 16 |
         (guint32)lround (color->green * a * 255) << 8 | (guint32)lround (color->blue * a * 255);
}

const GdkRGBA *
sextant_timeline_collective_color (void)
{
  static const GdkRGBA navy = { 0.05f, 0.10f, 0.40f, 1 };

  return &navy;
}

/* A darker orange than the RMA category's, so that arrows show on it */
const GdkRGBA *
_sextant_timeline_rma_color (void)
{
  static const GdkRGBA rma = { 0.72f, 0.30f, 0.00f, 1 };

  return &rma;
}

/* Lost time -------------------------------------------------------------- */

typedef enum
{
  LOST_P2P,          /* waits on a peer's message */
  LOST_COLLECTIVE,   /* waits in a collective */
  LOST_RMA,          /* one-sided and lock waits */
  LOST_COMPLETION,   /* the time to leave a collective: outlined */
  LOST_STATISTIC,    /* call-path statistics (frequent, large, unbalanced): outlined */
  N_LOST_FAMILIES
} LostFamily;

static const struct
{
  const char *pattern;
  LostFamily  family;
} lost_kinds[] = {
  { "late_sender", LOST_P2P },
  { "late_sender_wrong_order", LOST_P2P },
  { "late_receiver", LOST_P2P },
  { "wrong_order", LOST_P2P },
  { "early_wait", LOST_P2P },
  { "late_request", LOST_P2P },
  { "slow_workers", LOST_P2P },
  { "overloaded_master", LOST_P2P },
  { "wait_at_barrier", LOST_COLLECTIVE },
  { "wait_at_nxn", LOST_COLLECTIVE },
  { "late_broadcast", LOST_COLLECTIVE },
  { "early_reduce", LOST_COLLECTIVE },
  { "early_scan", LOST_COLLECTIVE },
  { "wait_at_finalize", LOST_COLLECTIVE },
  { "wait_inside_collective", LOST_COLLECTIVE },
  { "wait_at_fence", LOST_RMA },
  { "wait_at_win_create", LOST_RMA },
  { "wait_at_win_free", LOST_RMA },
  { "wait_in_flush", LOST_RMA },
  { "atomic_wait", LOST_RMA },
  { "lock_contention", LOST_RMA },
  { "barrier_completion", LOST_COMPLETION },
  { "nxn_completion", LOST_COMPLETION },
  { "init_completion", LOST_COMPLETION },
  { "close_send_recv", LOST_STATISTIC },
  { "frequent_communication", LOST_STATISTIC },
  { "large_messages", LOST_STATISTIC },
  { "unbalanced_communication", LOST_STATISTIC },
};

/* Dark on light, none near the MPI red: near-black for point-to-point,
 * violet for collectives, petrol for one-sided; cyan and slate outlines */
static const GdkRGBA lost_colors[N_LOST_FAMILIES] = {
  [LOST_P2P]        = { 0.08f, 0.08f, 0.10f, 1 },
  [LOST_COLLECTIVE] = { 0.33f, 0.10f, 0.55f, 1 },
  [LOST_RMA]        = { 0.00f, 0.33f, 0.38f, 1 },
  [LOST_COMPLETION] = { 0.00f, 0.70f, 0.80f, 1 },
  [LOST_STATISTIC]  = { 0.20f, 0.25f, 0.32f, 1 },
};

static LostFamily
lost_family (const char *pattern)
{
  if (pattern == NULL)
    return LOST_P2P;
  for (guint i = 0; i < G_N_ELEMENTS (lost_kinds); i++)
    if (strcmp (lost_kinds[i].pattern, pattern) == 0)
      return lost_kinds[i].family;
  /* a user's pattern: by its name, as the catalogue names its kinds */
  if (strstr (pattern, "completion") != NULL)
    return LOST_COMPLETION;
  if (strstr (pattern, "wait") != NULL || strstr (pattern, "late") != NULL || strstr (pattern, "early") != NULL)
    return strstr (pattern, "barrier") != NULL || strstr (pattern, "nxn") != NULL ? LOST_COLLECTIVE : LOST_P2P;

  return LOST_STATISTIC;
}

/**
 * sextant_timeline_lost_style:
 * @pattern: (nullable): a pattern's id ("late_sender"); %NULL: the style
 *   of lost time whose pattern is not known
 * @color: (out caller-allocates): the colour of its stripes or outline
 * @hatched: (out) (optional): whether it is hatched (a wait state) or
 *   outlined (completion time, call-path statistics)
 *
 * The catalogue's patterns come in five families: waits for a peer's
 * message (near-black stripes), in a collective (violet stripes), in a
 * one-sided operation or a lock (petrol stripes), the time to leave a
 * collective (cyan outline), call-path statistics (slate outline). A
 * user's pattern is placed by its name ("wait", "late", "early":
 * hatched). None of them is red, so lost time reads apart from MPI time.
 */
void
sextant_timeline_lost_style (const char *pattern,
                             GdkRGBA    *color,
                             gboolean   *hatched)
{
  LostFamily family = lost_family (pattern);

  g_return_if_fail (color != NULL);

  *color = lost_colors[family];
  if (hatched != NULL)
    *hatched = family != LOST_COMPLETION && family != LOST_STATISTIC;
}
