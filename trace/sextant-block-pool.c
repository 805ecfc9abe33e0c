/*
 * sextant-block-pool.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Blocks are carved from the current slab one after the other; a block
 * given back goes on the free list of its size (kept inside the block), and
 * the next request of that size takes the last one given back, whose pages
 * are mapped and likely still in the cache. Under AddressSanitizer every
 * block is its own aligned allocation from malloc, so that the sanitizer
 * still sees overflows and uses after the block went back.
 */
#include "config.h"

#include <errno.h>
#include <sys/mman.h>

#include "sextant-block-pool.h"

#if defined(__SANITIZE_ADDRESS__)
# define POOL_USES_MALLOC 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define POOL_USES_MALLOC 1
# endif
#endif
#ifndef POOL_USES_MALLOC
# define POOL_USES_MALLOC 0
#endif

#define HUGE_PAGE  ((gsize)2 << 20)   /* x86-64's and arm64's transparent huge page */
#define SLAB_BYTES ((gsize)8 << 20)   /* four of them: a slab is mapped every few dozen blocks */
#define BLOCK_ALIGN 64

typedef struct
{
  gsize    size;
  gpointer free;        /* the last block given back; its first word is the one before */
} SizeClass;

typedef struct
{
  guint8  *start;
  gsize    length;
} Slab;

struct _SextantBlockPool
{
  GMutex   lock;
  GArray  *classes;     /* SizeClass, a handful */
  GArray  *slabs;       /* Slab */
  guint8  *next;        /* the unused end of the current slab */
  guint8  *end;
  gsize    footprint;
};

SextantBlockPool *
sextant_block_pool_new (void)
{
  SextantBlockPool *self = g_new0 (SextantBlockPool, 1);

  g_mutex_init (&self->lock);
  self->classes = g_array_new (FALSE, FALSE, sizeof (SizeClass));
  self->slabs = g_array_new (FALSE, FALSE, sizeof (Slab));

  return self;
}

void
sextant_block_pool_free (SextantBlockPool *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < self->slabs->len; i++)
    {
      Slab *slab = &g_array_index (self->slabs, Slab, i);

      munmap (slab->start, slab->length);
    }
  g_array_unref (self->slabs);
  g_array_unref (self->classes);
  g_mutex_clear (&self->lock);
  g_free (self);
}

/* @length bytes (a multiple of HUGE_PAGE) at an address aligned to
 * HUGE_PAGE: map a huge page more and unmap what sticks out. */
static guint8 *
map_slab (gsize length)
{
  gsize span = length + HUGE_PAGE;
  guint8 *mapped = mmap (NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  guint8 *start;

  if (mapped == MAP_FAILED)
    g_error ("%s: failed to map %" G_GSIZE_FORMAT " bytes: %s", G_STRLOC, span, g_strerror (errno));

  start = (guint8 *)(((guintptr)mapped + HUGE_PAGE - 1) & ~(guintptr)(HUGE_PAGE - 1));
  if (start > mapped)
    munmap (mapped, (gsize)(start - mapped));
  if (start + length < mapped + span)
    munmap (start + length, (gsize)(mapped + span - (start + length)));
#ifdef MADV_HUGEPAGE
  /* fails where the kernel has no transparent huge pages: then the slab is
   * ordinary memory, which is still right */
  (void)madvise (start, length, MADV_HUGEPAGE);
#endif

  return start;
}

static SizeClass *
size_class (SextantBlockPool *self,
            gsize             size)
{
  SizeClass fresh = { size, NULL };

  for (guint i = 0; i < self->classes->len; i++)
    if (g_array_index (self->classes, SizeClass, i).size == size)
      return &g_array_index (self->classes, SizeClass, i);

  g_array_append_val (self->classes, fresh);

  return &g_array_index (self->classes, SizeClass, self->classes->len - 1);
}

static inline gsize
rounded (gsize size)
{
  return MAX ((size + BLOCK_ALIGN - 1) & ~(gsize)(BLOCK_ALIGN - 1), BLOCK_ALIGN);
}

gpointer
sextant_block_pool_take (SextantBlockPool *self,
                         gsize             size)
{
  SizeClass *class;
  gpointer block;

  g_return_val_if_fail (size > 0, NULL);

  if (POOL_USES_MALLOC)
    return g_aligned_alloc (1, size, BLOCK_ALIGN);

  size = rounded (size);
  g_mutex_lock (&self->lock);
  class = size_class (self, size);
  if (class->free != NULL)
    {
      block = class->free;
      class->free = *(gpointer *)block;
    }
  else
    {
      if (self->next == NULL || (gsize)(self->end - self->next) < size)
        {
          /* the rest of the slab stays unused: less than one block */
          Slab slab = { NULL, MAX (SLAB_BYTES, (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1)) };

          slab.start = map_slab (slab.length);
          g_array_append_val (self->slabs, slab);
          self->footprint += slab.length;
          self->next = slab.start;
          self->end = slab.start + slab.length;
        }
      block = self->next;
      self->next += size;
    }
  g_mutex_unlock (&self->lock);

  return block;
}

void
sextant_block_pool_give (SextantBlockPool *self,
                         gpointer          block,
                         gsize             size)
{
  SizeClass *class;

  if (block == NULL)
    return;

  if (POOL_USES_MALLOC)
    {
      g_aligned_free (block);
      return;
    }

  g_mutex_lock (&self->lock);
  class = size_class (self, rounded (size));
  *(gpointer *)block = class->free;
  class->free = block;
  g_mutex_unlock (&self->lock);
}

gsize
sextant_block_pool_get_footprint (SextantBlockPool *self)
{
  gsize footprint;

  g_mutex_lock (&self->lock);
  footprint = self->footprint;
  g_mutex_unlock (&self->lock);

  return footprint;
}
