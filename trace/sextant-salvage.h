/*
 * sextant-salvage.h - importing a recording whose run crashed (private).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sextant-import-private.h"

G_BEGIN_DECLS

gboolean _sextant_salvage_needed  (const char  *path);
char    *_sextant_salvage_archive (const char  *path,
                                   char       **tmp_dir,
                                   GError     **error);
void     _sextant_salvage_log     (SextantImport *import);
void     _sextant_salvage_remove  (char **tmp_dir);

G_END_DECLS
