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

/* Adds the categories' times of @buckets to the @width columns of
 * [@t0, @t1) that they overlap, a bucket's time spread evenly over its
 * length: the partly covered columns at its ends get their share in
 * @sums, the columns it covers whole its rate in @rates (a difference
 * array: +rate at the first such column, -rate past the last), which
 * sextant_lod_machine_fill_band() sums up; both width * N_CATEGORIES,
 * column by column, and @rates one column more. A bucket costs the same
 * however many columns it spans. */
guint
sextant_lod_machine_add_buckets (const GArray *buckets,
                                 gint64        t0,
                                 gint64        t1,
                                 guint         width,
                                 double        column,
                                 double       *sums,
                                 double       *rates)
{
  guint present = 0;

  for (guint k = 0; k < buckets->len; k++)
    {
      const SextantLodBucket *bucket = &g_array_index (buckets, SextantLodBucket, k);
      double length = (double)(bucket->end - bucket->begin);
      double a = (double)(MAX (bucket->begin, t0) - t0);
      double e = (double)(MIN (bucket->end, t1) - t0);
      guint x0, x1;

      if (e <= a)
        continue;
      for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
        present |= (bucket->time[c] != 0) << c;
      x0 = MIN ((guint)(a / column), width - 1);
      x1 = MIN ((guint)(e / column), width - 1);
      if (x1 <= x0 + 1)
        {
          /* one or two columns */
          for (guint x = x0; x <= x1; x++)
            {
              double overlap = MIN (e, (x + 1) * column) - MAX (a, x * column);

              if (overlap > 0)
                for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
                  sums[(gsize)x * SEXTANT_N_CATEGORIES + c] += bucket->time[c] * overlap / length;
            }
          continue;
        }
      {
        double head = (x0 + 1) * column - a;
        double tail = e - x1 * column;

        for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
          {
            double rate = bucket->time[c] / length;

            sums[(gsize)x0 * SEXTANT_N_CATEGORIES + c] += rate * head;
            if (tail > 0)
              sums[(gsize)x1 * SEXTANT_N_CATEGORIES + c] += rate * tail;
            rates[(gsize)(x0 + 1) * SEXTANT_N_CATEGORIES + c] += rate * column;
            rates[(gsize)x1 * SEXTANT_N_CATEGORIES + c] -= rate * column;
          }
      }
    }

  return present;
}

/* Turns @sums and @rates (as sextant_lod_machine_add_buckets() left
 * them: ticks per column and category, over the band's locations) into
 * shares of @ticks (a column's ticks times the locations), and zeroes
 * them for the next band */
void
sextant_lod_machine_fill_band (double             *sums,
                               double             *rates,
                               guint               width,
                               double              ticks,
                               guint               present,
                               SextantMachineCell *cells)
{
  double run[SEXTANT_N_CATEGORIES] = { 0 };
  double scale = 255.0 / ticks;
  guint list[SEXTANT_N_CATEGORIES], n = 0;

  /* the categories present only (a trace has two or three of the eight):
   * a million cells and more */
  for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
    if (present & 1u << c)
      list[n++] = c;
  for (guint x = 0; x < width; x++)
    {
      double *sum = sums + (gsize)x * SEXTANT_N_CATEGORIES;
      double *rate = rates + (gsize)x * SEXTANT_N_CATEGORIES;

      for (guint k = 0; k < n; k++)
        {
          guint c = list[k];
          double v;

          run[c] += rate[c];
          v = (sum[c] + run[c]) * scale + 0.5;
          cells[x].share[c] = v <= 0.0 ? 0 : v >= 255.0 ? 255 : (guint8)v;
          sum[c] = 0.0;
          rate[c] = 0.0;
        }
    }
  for (guint k = 0; k < n; k++)
    rates[(gsize)width * SEXTANT_N_CATEGORIES + list[k]] = 0.0;
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
                                 GError            **error)
{
  g_autoptr(GArray) buckets = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
  g_autofree double *sums = NULL;
  g_autofree double *rates = NULL;
  guint first_loc, end_loc;
  double column;
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

  column = (double)(t1 - t0) / width;
  sums = g_new0 (double, (gsize)width * SEXTANT_N_CATEGORIES);
  rates = g_new0 (double, (gsize)(width + 1) * SEXTANT_N_CATEGORIES);
  for (guint b = first_band; b < last_band; b++)
    {
      guint lo = (guint)((guint64)b * n_locs / n_bands);
      guint hi = (guint)((guint64)(b + 1) * n_locs / n_bands);
      guint present = 0;

      if (hi == lo)
        continue;
      for (guint i = lo; i < hi; i++)
        {
          g_array_set_size (buckets, 0);
          if (!sextant_lod_reader_read (self, locs[i], level, t0, t1, buckets, error))
            return FALSE;
          present |= sextant_lod_machine_add_buckets (buckets, t0, t1, width, column, sums, rates);
        }
      sextant_lod_machine_fill_band (sums, rates, width, column * (hi - lo), present, cells + (gsize)b * width);
    }

  return TRUE;
}
