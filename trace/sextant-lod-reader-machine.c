/*
 * sextant-lod-reader-machine.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lod reader's whole-machine picture (sextant-lod-reader.h): every
 * location of a band of rows summed into one pixel row, each column's
 * shares of the region categories. Workload: the level is chosen so that
 * all locations together read about 128 buckets per column of width
 * (sextant_lod_reader_pick_machine_level()), their levels prefetched in
 * one statement (sextant_lod_reader_prefetch()); a bucket then costs the
 * same however many columns it spans (a difference array), so a frame of
 * thousands of ranks costs about 128 cached buckets a column, summed.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sextant-lod-reader-private.h"

/* Whole-machine mode --------------------------------------------------------------------- */

/* A band's sums, in fixed point: a share of ONE is a whole cell's time
 * (one column's ticks times the band's locations), and 255 of a cell's
 * share after rounding (>> 16). Integers, a row of @width columns per
 * category: the running sum over a row is then an add of one cycle, and
 * the +rate and -rate of a bucket cancel exactly. */
#define ONE (255 << 16)

typedef struct
{
  guint   width;
  double  column;      /* a column's ticks */
  double  unit;        /* fixed point of a tick of one location's time */
  gint32 *sums;        /* SEXTANT_N_CATEGORIES rows of width: the partly covered columns */
  gint32 *rates;       /* SEXTANT_N_CATEGORIES rows of width + 1: whole columns, a difference array */
  guint   present;     /* the categories added to since the last fill */
} Band;

/* Adds the categories' times of @buckets to the columns of [@t0, @t1)
 * that they overlap, a bucket's time spread evenly over its length: the
 * partly covered columns at its ends get their share in @band's sums,
 * the columns it covers whole its rate in @band's rates (+rate at the
 * first such column, -rate past the last), which fill_band() sums up. A
 * bucket costs the same however many columns it spans, and only its
 * categories with time. */
static void
add_buckets (Band         *band,
             const GArray *buckets,
             gint64        t0,
             gint64        t1)
{
  guint width = band->width;
  double column = band->column;

  for (guint k = 0; k < buckets->len; k++)
    {
      const SextantLodBucket *bucket = &g_array_index (buckets, SextantLodBucket, k);
      double length = (double)(bucket->end - bucket->begin);
      double a = (double)(MAX (bucket->begin, t0) - t0);
      double e = (double)(MIN (bucket->end, t1) - t0);
      guint x0, x1, categories;

      if (e <= a)
        continue;
      categories = sextant_lod_bucket_categories (bucket);
      band->present |= categories;
      x0 = MIN ((guint)(a / column), width - 1);
      x1 = MIN ((guint)(e / column), width - 1);
      for (; categories != 0; categories &= categories - 1)
        {
          guint c = (guint)g_bit_nth_lsf (categories, -1);
          double rate = (double)bucket->time[c] / length * band->unit;   /* fixed point a tick */
          gint32 *sum = band->sums + (gsize)c * width;
          gint32 *whole = band->rates + (gsize)c * (width + 1);

          if (x1 <= x0 + 1)
            {
              /* one or two columns */
              for (guint x = x0; x <= x1; x++)
                {
                  double overlap = MIN (e, (x + 1) * column) - MAX (a, x * column);

                  if (overlap > 0)
                    sum[x] += (gint32)(rate * overlap + 0.5);
                }
              continue;
            }
          {
            gint32 per_column = (gint32)(rate * column + 0.5);
            double tail = e - x1 * column;

            sum[x0] += (gint32)(rate * ((x0 + 1) * column - a) + 0.5);
            if (tail > 0)
              sum[x1] += (gint32)(rate * tail + 0.5);
            whole[x0 + 1] += per_column;
            whole[x1] -= per_column;
          }
        }
    }
}

/* Turns @band's sums into its @cells' shares and zeroes them for the
 * next band; the categories of the others are left as they are (zero).
 * Returns the categories some cell has a share of. */
static guint
fill_band (Band               *band,
           SextantMachineCell *cells)
{
  guint width = band->width, seen = 0;

  /* the categories present only (a trace has two or three of the
   * eight): a million cells and more a frame */
  for (guint present = band->present; present != 0; present &= present - 1)
    {
      guint c = (guint)g_bit_nth_lsf (present, -1);
      gint32 *sum = band->sums + (gsize)c * width;
      gint32 *rate = band->rates + (gsize)c * (width + 1);
      gint32 run = 0, any = 0;

      for (guint x = 0; x < width; x++)
        {
          gint32 v;

          run += rate[x];
          v = (sum[x] + run + (1 << 15)) >> 16;
          v = CLAMP (v, 0, 255);
          cells[x].share[c] = (guint8)v;
          any |= v;
        }
      seen |= (guint)(any != 0) << c;
      memset (sum, 0, sizeof (gint32) * width);
      memset (rate, 0, sizeof (gint32) * (width + 1));
    }
  band->present = 0;

  return seen;
}

guint
sextant_lod_reader_pick_machine_level (SextantLodReader *self,
                                       guint             n_locs,
                                       gint64            t0,
                                       gint64            t1,
                                       guint             width)
{
  double per_loc = 128.0 * MAX (width, 1) / MAX (n_locs, 1);   /* buckets a location may read */
  gint64 span = MAX (t1 - t0, 1);
  guint level = sextant_lod_reader_pick_level (self, (double)span / MAX (width, 1));

  while (level + 1 < self->n_levels && (double)span / (double)(self->base << level) + 1 > per_loc)
    level++;

  return level;
}

gboolean
sextant_lod_reader_read_machine (SextantLodReader   *self,
                                 const gint64       *locs,
                                 guint               n_locs,
                                 guint               n_bands,
                                 guint               first_band,
                                 guint               last_band,
                                 gint64              t0,
                                 gint64              t1,
                                 guint               width,
                                 SextantMachineCell *cells,
                                 guint              *categories,
                                 GError            **error)
{
  g_autoptr(GArray) buckets = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
  g_autofree gint32 *sums = NULL;
  g_autofree gint32 *rates = NULL;
  guint first_loc, end_loc, seen = 0;
  Band band = { 0 };
  guint level;

  g_return_val_if_fail (locs != NULL || n_locs == 0, FALSE);
  g_return_val_if_fail (cells != NULL, FALSE);

  last_band = MIN (last_band, n_bands);
  if (first_band >= last_band || width == 0)
    return TRUE;
  memset (cells + (gsize)first_band * width, 0, sizeof (SextantMachineCell) * (last_band - first_band) * width);
  if (t1 <= t0 || n_locs == 0)
    return TRUE;

  /* the level of the whole picture, the locations of these bands */
  level = sextant_lod_reader_pick_machine_level (self, n_locs, t0, t1, width);
  first_loc = (guint)((guint64)first_band * n_locs / n_bands);
  end_loc = (guint)((guint64)last_band * n_locs / n_bands);
  if (!sextant_lod_reader_prefetch (self, locs + first_loc, end_loc - first_loc, level, error))
    return FALSE;

  sums = g_new0 (gint32, (gsize)width * SEXTANT_N_CATEGORIES);
  rates = g_new0 (gint32, (gsize)(width + 1) * SEXTANT_N_CATEGORIES);
  band.width = width;
  band.column = (double)(t1 - t0) / width;
  band.sums = sums;
  band.rates = rates;
  for (guint b = first_band; b < last_band; b++)
    {
      guint lo = (guint)((guint64)b * n_locs / n_bands);
      guint hi = (guint)((guint64)(b + 1) * n_locs / n_bands);

      if (hi == lo)
        continue;
      band.unit = ONE / (band.column * (hi - lo));
      for (guint i = lo; i < hi; i++)
        {
          g_array_set_size (buckets, 0);
          if (!sextant_lod_reader_read (self, locs[i], level, t0, t1, buckets, error))
            return FALSE;
          add_buckets (&band, buckets, t0, t1);
        }
      seen |= fill_band (&band, cells + (gsize)b * width);
    }
  if (categories != NULL)
    *categories |= seen;

  return TRUE;
}
