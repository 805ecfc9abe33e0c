/*
 * sextant-importer.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SextantImporter turns an OTF2 archive into a trace store. The archive is
 * only read; the store is written to a temporary file in the target
 * directory and renamed into place when it is complete, so a failed or
 * cancelled import leaves nothing behind.
 */
#pragma once

#include <gio/gio.h>

#include "sextant-import-share.h"
#include "sextant-trace-error.h"

G_BEGIN_DECLS

/**
 * SextantImportProgress:
 * @fraction: events read so far / events the location definitions announce
 * @events_per_second: the average rate since the import started
 *
 * Called from the thread that runs the import, at most every 100 ms.
 */
typedef void (*SextantImportProgress) (double   fraction,
                                       double   events_per_second,
                                       gpointer user_data);

#define SEXTANT_TYPE_IMPORTER (sextant_importer_get_type ())
G_DECLARE_FINAL_TYPE (SextantImporter, sextant_importer, SEXTANT, IMPORTER, GObject)

SextantImporter *sextant_importer_new               (const char             *archive,
                                                     const char             *db_path);
void             sextant_importer_set_force         (SextantImporter        *self,
                                                     gboolean                force);
void             sextant_importer_set_default_worker (const char            *program);
void             sextant_importer_set_worker        (SextantImporter        *self,
                                                     const char             *program);
void             sextant_importer_set_progress_func (SextantImporter        *self,
                                                     SextantImportProgress   func,
                                                     gpointer                user_data,
                                                     GDestroyNotify          destroy);
void             sextant_importer_set_share         (SextantImporter        *self,
                                                     const SextantImportShare *share);
GArray          *sextant_importer_get_share_locations (SextantImporter      *self);
const char      *sextant_importer_get_db_path       (SextantImporter        *self);
const char      *sextant_importer_get_anchor_path   (SextantImporter        *self);
gboolean         sextant_importer_get_reused        (SextantImporter        *self);
gboolean         sextant_importer_run               (SextantImporter        *self,
                                                     GCancellable           *cancellable,
                                                     GError                **error);
gboolean         sextant_importer_run_into          (SextantImporter        *self,
                                                     const char             *path,
                                                     GCancellable           *cancellable,
                                                     GError                **error);
void             sextant_importer_run_async         (SextantImporter        *self,
                                                     GCancellable           *cancellable,
                                                     GAsyncReadyCallback     callback,
                                                     gpointer                user_data);
gboolean         sextant_importer_run_finish        (SextantImporter        *self,
                                                     GAsyncResult           *result,
                                                     GError                **error);

char            *sextant_archive_find_anchor        (const char             *path,
                                                     GError                **error);
char            *sextant_archive_default_db_path    (const char             *anchor);
/* TRUE if @path names a trace store rather than an archive: a regular
 * file whose name does not end in .otf2 (an archive is its anchor file or
 * the directory that holds it). */
gboolean         sextant_path_is_store              (const char             *path);
void             sextant_store_remove_files         (const char             *path);

G_END_DECLS
