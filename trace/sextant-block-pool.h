/*
 * sextant-block-pool.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The big buffers of an import (a chunk being filled, one per location and
 * column table) come and go thousands of times and are each a few hundred
 * KiB. From malloc, every page of them is a page fault the first time it
 * is touched, and on a virtual machine a fault costs microseconds: a fifth
 * of an import's faults were these. The pool carves them from slabs of
 * 2 MiB-aligned memory that it asks the kernel to back with huge pages
 * (madvise MADV_HUGEPAGE; where transparent huge pages are off, the slabs
 * are ordinary memory), and keeps a returned buffer for the next request of
 * its size. Thread-safe; the memory goes back to the system with the pool.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SextantBlockPool SextantBlockPool;

SextantBlockPool *sextant_block_pool_new     (void);
/* Frees the slabs: every block taken must be given back or no longer used. */
void              sextant_block_pool_free    (SextantBlockPool *self);
/* A block of @size bytes, 64-byte aligned, not zeroed. */
gpointer          sextant_block_pool_take    (SextantBlockPool *self,
                                              gsize             size);
/* Gives back @block, taken with the same @size. */
void              sextant_block_pool_give    (SextantBlockPool *self,
                                              gpointer          block,
                                              gsize             size);
/* Bytes of the slabs (what the pool holds of the address space). */
gsize             sextant_block_pool_get_footprint (SextantBlockPool *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantBlockPool, sextant_block_pool_free)

G_END_DECLS
