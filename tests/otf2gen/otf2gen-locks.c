/* otf2gen-locks.c - the lock-storm scenarios (see otf2gen-locks.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Builds a one-case PlScenario in memory and writes it with the planted
 * traces' writer; the expected instances come from the same schedule.
 */

#include "config.h"

#include "otf2gen-locks.h"
#include "otf2gen-planted.h"

#define LS_RANKS      4
#define LS_ROUND      200   /* ticks between rounds */
#define LS_START      100

typedef struct
{
  guint    rank;
  gboolean shared;
  guint64  asked;     /* request (= the lock call's enter) */
  guint64  acquire;
  guint64  release;
} LsHold;

typedef struct
{
  GArray  *events;    /* PlEvent */
  GArray  *holds;     /* LsHold, of the current round */
  GString *expect;    /* "lock_contention LOC SEVERITY PEER\n" lines */
  guint32  seed;
  guint    order[2];  /* pthread acquisition order per mutex */
  guint    lock_id;   /* RMA lock ids, one per hold */
} LsGen;

static const struct
{
  const char *name;
  guint       n_acquisitions;
} ls_scenarios[] = {
  { "lock-storm",       50000 },
  { "lock-storm-small",  2000 },
};

static guint
ls_random (LsGen *g,
           guint  n)
{
  g->seed = g->seed * 1103515245u + 12345u;
  return (g->seed >> 16) % n;
}

/* Appends the events of one or more PL_* macros. */
#define LS_EVENTS(g, ...) \
  G_STMT_START { \
    const PlEvent ls_evs_[] = { __VA_ARGS__ }; \
    g_array_append_vals ((g)->events, ls_evs_, G_N_ELEMENTS (ls_evs_)); \
  } G_STMT_END

/* The lock_contention instances of one round, by brute force. */
static void
ls_expect_round (LsGen *g)
{
  for (guint a = 0; a < g->holds->len; a++)
    {
      const LsHold *x = &g_array_index (g->holds, LsHold, a);
      const LsHold *holder = NULL;

      for (guint h = 0; h < g->holds->len; h++)
        {
          const LsHold *y = &g_array_index (g->holds, LsHold, h);

          if (y->rank == x->rank || y->acquire >= x->acquire || (x->shared && y->shared)
              || y->release <= x->asked)
            continue;
          if (holder == NULL || y->release > holder->release
              || (y->release == holder->release && y->acquire < holder->acquire))
            holder = y;
        }
      if (holder != NULL && x->acquire > x->asked)
        g_string_append_printf (g->expect, "lock_contention %u %" G_GUINT64_FORMAT " %u\n", x->rank,
                                x->acquire - x->asked, holder->rank);
    }
}

/* One round at @t: returns the number of acquisitions. */
static guint
ls_round (LsGen   *g,
          guint    k,
          guint64  t,
          guint    max)
{
  guint ranks[LS_RANKS + 1];
  guint n = LS_RANKS;
  gboolean mutex = k % 6 == 3;
  guint mutex_id = k % 2;
  guint target = k % 2;
  guint64 prev_acquire = 0, prev_release = t, own_free[LS_RANKS] = { 0 };
  gboolean prev_shared = FALSE;

  for (guint i = 0; i < LS_RANKS; i++)
    ranks[i] = i;
  for (guint i = LS_RANKS - 1; i > 0; i--)
    {
      guint j = ls_random (g, i + 1), r = ranks[i];

      ranks[i] = ranks[j];
      ranks[j] = r;
    }
  if (k % 5 == 4)
    ranks[n++] = ranks[0];
  n = MIN (n, max);

  g_array_set_size (g->holds, 0);
  for (guint i = 0; i < n; i++)
    {
      LsHold h = { ranks[i], !mutex && ls_random (g, 4) == 0, 0, 0, 0 };
      guint64 grant;
      guint64 hold = 2 + ls_random (g, 8);

      h.asked = MAX (t + ls_random (g, 5), own_free[h.rank]);
      /* shared after shared is granted with it; otherwise after the
       * previous holds end */
      grant = i > 0 && h.shared && prev_shared ? prev_acquire : prev_release + 1;
      h.acquire = MAX (grant, h.asked);
      h.release = h.acquire + hold;
      /* distinct releases: which hold was released last is never a tie */
      for (guint j = 0; j < g->holds->len; j++)
        if (g_array_index (g->holds, LsHold, j).release == h.release)
          {
            h.release++;
            j = G_MAXUINT;   /* check them all again */
          }
      own_free[h.rank] = h.release + 1;
      prev_release = MAX (prev_release, h.release);
      prev_acquire = h.acquire;
      prev_shared = h.shared;
      g_array_append_val (g->holds, h);

      if (mutex)
        {
          guint order = g->order[mutex_id]++;

          LS_EVENTS (g, PL_ENTER (h.rank, h.asked, PL_PTHREAD_MUTEX_LOCK));
          LS_EVENTS (g, PL_EV (h.rank, h.acquire, PL_EV_THREAD_ACQUIRE_LOCK, mutex_id, order, 0, 0, 0, 0));
          LS_EVENTS (g, PL_LEAVE (h.rank, h.acquire, PL_PTHREAD_MUTEX_LOCK));
          LS_EVENTS (g, PL_ENTER (h.rank, h.release - 1, PL_PTHREAD_MUTEX_UNLOCK));
          LS_EVENTS (g, PL_EV (h.rank, h.release, PL_EV_THREAD_RELEASE_LOCK, mutex_id, order, 0, 0, 0, 0));
          LS_EVENTS (g, PL_LEAVE (h.rank, h.release, PL_PTHREAD_MUTEX_UNLOCK));
        }
      else
        {
          OTF2_LockType type = h.shared ? OTF2_LOCK_SHARED : OTF2_LOCK_EXCLUSIVE;
          guint id = g->lock_id++;
          LS_EVENTS (g, PL_WIN_LOCK_CALL (h.rank, h.asked, h.asked, h.acquire, h.acquire, target, id, type),
                     PL_WIN_UNLOCK_CALL (h.rank, h.release - 1, h.release, h.release, target, id));
        }
    }
  ls_expect_round (g);

  return n;
}

static int
ls_lookup (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (ls_scenarios); i++)
    if (g_str_equal (ls_scenarios[i].name, name))
      return i;

  return -1;
}

gboolean
sextant_otf2gen_locks_known (const char *name)
{
  return ls_lookup (name) >= 0;
}

/* Builds @name's events and expectations; the scenario points into @g. */
static void
ls_build (const char *name,
          LsGen      *g,
          PlCase     *pcase,
          PlScenario *scenario)
{
  int s = ls_lookup (name);
  guint total = 0;
  guint64 t = LS_START, first = 0, last = 0;

  g_assert (s >= 0);
  g->events = g_array_new (FALSE, FALSE, sizeof (PlEvent));
  g->holds = g_array_new (FALSE, FALSE, sizeof (LsHold));
  g->expect = g_string_new (NULL);
  g->seed = 17;

  for (guint r = 0; r < LS_RANKS; r++)
    LS_EVENTS (g, PL_WIN_CREATE_CALL (r, 10, 20));
  for (guint k = 0; total < ls_scenarios[s].n_acquisitions; k++, t += LS_ROUND)
    total += ls_round (g, k, t, ls_scenarios[s].n_acquisitions - total);
  for (guint r = 0; r < LS_RANKS; r++)
    LS_EVENTS (g, PL_WIN_FREE_CALL (r, t, t + 10));
  first = 10;
  last = t + 10;

  *pcase = (PlCase) { ls_scenarios[s].name, (const PlEvent *) g->events->data, g->events->len, NULL, 0 };
  *scenario = (PlScenario) {
    ls_scenarios[s].name, "contended locks", 1000000, LS_RANKS, pl_ranks, LS_RANKS, pcase, 1,
    NULL, 0, NULL, LS_RANKS * (last - first),
  };
}

static void
ls_clear (LsGen *g)
{
  g_array_unref (g->events);
  g_array_unref (g->holds);
  g_string_free (g->expect, TRUE);
}

/**
 * sextant_otf2gen_locks:
 * @name: "lock-storm" or "lock-storm-small"
 *
 * Writes the scenario to @outdir/traces.otf2.
 *
 * Returns: %FALSE with @error set when writing fails
 */
gboolean
sextant_otf2gen_locks (const char  *name,
                       const char  *outdir,
                       gboolean     force,
                       GError     **error)
{
  LsGen g = { 0 };
  PlCase pcase;
  PlScenario scenario;
  gboolean ok;

  ls_build (name, &g, &pcase, &scenario);
  ok = sextant_otf2gen_planted (&scenario, outdir, force, error);
  ls_clear (&g);

  return ok;
}

void
sextant_otf2gen_locks_expect_counts (const char *name,
                                     FILE       *out)
{
  LsGen g = { 0 };
  PlCase pcase;
  PlScenario scenario;

  ls_build (name, &g, &pcase, &scenario);
  sextant_otf2gen_planted_expect_counts (&scenario, out);
  ls_clear (&g);
}

void
sextant_otf2gen_locks_expect_instances (const char *name,
                                        FILE       *out)
{
  LsGen g = { 0 };
  PlCase pcase;
  PlScenario scenario;

  ls_build (name, &g, &pcase, &scenario);
  fputs (g.expect->str, out);
  ls_clear (&g);
}
