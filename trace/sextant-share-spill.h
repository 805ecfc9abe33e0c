/*
 * sextant-share-spill.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SextantShareSpill holds a stream of fixed-size records per destination
 * rank (the message halves a parallel import sets aside for its exchange,
 * sextant-import-share.c) in bounded memory: records go into pages of a
 * pool of at most memory_bytes; when the pool is full, every stream's
 * pages are written to a spill file and the pages reused. Each stream is
 * then read back from its start, in the order its records came, a given
 * number of records at a time (one block of the exchange). The spill file
 * is made at the first spill and unlinked at once: it goes when the spill
 * is freed or the process ends, however it ends.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SextantShareSpill SextantShareSpill;

/* @path: where the spill file is made (a name of its own: it must not
 * exist), %NULL for one in g_get_tmp_dir() */
SextantShareSpill *sextant_share_spill_new   (guint               n_streams,
                                              gsize               record_size,
                                              gsize               memory_bytes,
                                              const char         *path);
void               sextant_share_spill_free  (SextantShareSpill  *self);
/* Appends @record to @stream; FALSE (and @error) when the spill file
 * cannot be written */
gboolean           sextant_share_spill_add   (SextantShareSpill  *self,
                                              guint               stream,
                                              gconstpointer       record,
                                              GError            **error);
/* The records added to @stream */
guint64            sextant_share_spill_count (SextantShareSpill  *self,
                                              guint               stream);
/* Whether records went to the spill file */
gboolean           sextant_share_spill_spilled (SextantShareSpill *self);
/* Copies the next @n records of @stream into @into (read from where the
 * last read ended) */
gboolean           sextant_share_spill_read  (SextantShareSpill  *self,
                                              guint               stream,
                                              guint64             n,
                                              gpointer            into,
                                              GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantShareSpill, sextant_share_spill_free)

G_END_DECLS
