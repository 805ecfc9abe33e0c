/*
 * test-block-pool.c: the pool of big buffers hands out blocks that do not
 * overlap, takes them back for the next request of their size, stays right
 * when threads share it, and (where the kernel has transparent huge pages)
 * backs them with huge pages.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "sextant-block-pool.h"

#if defined(__SANITIZE_ADDRESS__)
# define UNDER_ASAN 1
#else
# define UNDER_ASAN 0
#endif

/* Blocks of three sizes live at once, each filled with its own byte:
 * after all were filled, every block still holds its byte everywhere, so
 * no two overlap; given back and taken again, a size gets its own blocks
 * back, last given first. */
static void
test_block_pool_blocks (void)
{
  static const gsize sizes[] = { 294912, 40, 1 << 20 };
  g_autoptr(SextantBlockPool) pool = sextant_block_pool_new ();
  guint8 *blocks[3][20];

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint i = 0; i < G_N_ELEMENTS (blocks[s]); i++)
      {
        blocks[s][i] = sextant_block_pool_take (pool, sizes[s]);
        g_assert_nonnull (blocks[s][i]);
        g_assert_cmpuint ((guintptr)blocks[s][i] % 64, ==, 0);
        memset (blocks[s][i], (int)(s * 20 + i + 1), sizes[s]);
      }
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint i = 0; i < G_N_ELEMENTS (blocks[s]); i++)
      for (gsize b = 0; b < sizes[s]; b += 997)
        g_assert_cmpuint (blocks[s][i][b], ==, s * 20 + i + 1);

  if (!UNDER_ASAN)
    {
      /* 20 MiB of 1 MiB blocks, 5.6 MiB of the others: the slabs hold it
       * all with less than a slab to spare per size that ran past one */
      gsize footprint = sextant_block_pool_get_footprint (pool);
      gsize used = 20 * (294912 + 64 + (1 << 20));

      g_assert_cmpuint (footprint, >=, used);
      g_assert_cmpuint (footprint, <=, used + 3 * (8 << 20));
    }

  sextant_block_pool_give (pool, blocks[0][3], sizes[0]);
  sextant_block_pool_give (pool, blocks[0][7], sizes[0]);
  sextant_block_pool_give (pool, blocks[2][0], sizes[2]);
  if (!UNDER_ASAN)
    {
      gsize footprint = sextant_block_pool_get_footprint (pool);

      g_assert_true (sextant_block_pool_take (pool, sizes[0]) == blocks[0][7]);
      g_assert_true (sextant_block_pool_take (pool, sizes[0]) == blocks[0][3]);
      g_assert_true (sextant_block_pool_take (pool, sizes[2]) == blocks[2][0]);
      g_assert_cmpuint (sextant_block_pool_get_footprint (pool), ==, footprint);
    }
  else
    {
      blocks[0][7] = sextant_block_pool_take (pool, sizes[0]);
      blocks[0][3] = sextant_block_pool_take (pool, sizes[0]);
      blocks[2][0] = sextant_block_pool_take (pool, sizes[2]);
    }
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint i = 0; i < G_N_ELEMENTS (blocks[s]); i++)
      sextant_block_pool_give (pool, blocks[s][i], sizes[s]);
}

typedef struct
{
  SextantBlockPool *pool;
  guint             seed;
} Worker;

/* Takes and gives back blocks at random, checking that each one it holds
 * keeps the pattern it wrote while the other threads do the same. */
static gpointer
worker (gpointer data)
{
  Worker *w = data;
  g_autoptr(GRand) rand = g_rand_new_with_seed (w->seed);
  guint64 *held[16] = { NULL };
  const gsize size = 65536;

  for (guint step = 0; step < 20000; step++)
    {
      guint k = (guint)g_rand_int_range (rand, 0, G_N_ELEMENTS (held));

      if (held[k] != NULL)
        {
          guint64 want = ((guint64)w->seed << 32) | k;

          for (gsize i = 0; i < size / sizeof (guint64); i += 61)
            g_assert_cmpuint (held[k][i], ==, want);
          sextant_block_pool_give (w->pool, held[k], size);
          held[k] = NULL;
        }
      else
        {
          held[k] = sextant_block_pool_take (w->pool, size);
          for (gsize i = 0; i < size / sizeof (guint64); i++)
            held[k][i] = ((guint64)w->seed << 32) | k;
        }
    }
  for (guint k = 0; k < G_N_ELEMENTS (held); k++)
    sextant_block_pool_give (w->pool, held[k], size);

  return NULL;
}

static void
test_block_pool_threads (void)
{
  g_autoptr(SextantBlockPool) pool = sextant_block_pool_new ();
  Worker workers[4];
  GThread *threads[G_N_ELEMENTS (workers)];

  for (guint t = 0; t < G_N_ELEMENTS (workers); t++)
    {
      workers[t] = (Worker){ pool, t + 1 };
      threads[t] = g_thread_new ("pool-worker", worker, &workers[t]);
    }
  for (guint t = 0; t < G_N_ELEMENTS (workers); t++)
    g_thread_join (threads[t]);

  /* at most 4 x 16 blocks were held at once: one slab of 8 MiB */
  if (!UNDER_ASAN)
    g_assert_cmpuint (sextant_block_pool_get_footprint (pool), ==, 8 << 20);
}

/* The kilobytes of huge pages behind the mapping that holds @address, from
 * /proc/self/smaps; -1 if it cannot be read. */
static gint64
huge_kib_at (gconstpointer address)
{
  g_autofree char *smaps = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean inside = FALSE;

  if (!g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL))
    return -1;
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 start, end;

      /* a mapping's line starts "start-end perms ...", its fields' lines
       * with a name and a colon */
      if (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x ", &start, &end) == 2)
        inside = (guintptr)address >= start && (guintptr)address < end;
      else if (inside && g_str_has_prefix (lines[i], "AnonHugePages:"))
        return g_ascii_strtoll (lines[i] + strlen ("AnonHugePages:"), NULL, 10);
    }

  return -1;
}

/* Where transparent huge pages are on for madvise()d memory, the blocks
 * of a slab sit on huge pages: a page fault per 2 MiB, not per 4 KiB. */
static void
test_block_pool_huge_pages (void)
{
  g_autofree char *mode = NULL;
  g_autoptr(SextantBlockPool) pool = NULL;
  guint8 *block;
  gint64 huge;

  if (UNDER_ASAN)
    {
      g_test_skip ("under AddressSanitizer the pool's blocks come from malloc");
      return;
    }
  if (!g_file_get_contents ("/sys/kernel/mm/transparent_hugepage/enabled", &mode, NULL, NULL) ||
      strstr (mode, "[never]") != NULL)
    {
      g_test_skip ("transparent huge pages are off on this machine");
      return;
    }

  pool = sextant_block_pool_new ();
  block = sextant_block_pool_take (pool, 4 << 20);
  memset (block, 1, 4 << 20);
  huge = huge_kib_at (block);
  if (huge < 0)
    {
      g_test_skip ("/proc/self/smaps cannot be read");
      return;
    }
  /* the kernel may lack a free huge page at the moment (fragmented
   * memory); one of the two is the least it finds on an ordinary machine */
  g_test_message ("AnonHugePages of the slab: %" G_GINT64_FORMAT " kB", huge);
  g_assert_cmpint (huge, >=, 2048);
  sextant_block_pool_give (pool, block, 4 << 20);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/block-pool/blocks", test_block_pool_blocks);
  g_test_add_func ("/block-pool/threads", test_block_pool_threads);
  g_test_add_func ("/block-pool/huge-pages", test_block_pool_huge_pages);

  return g_test_run ();
}
