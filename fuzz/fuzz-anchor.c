/*
 * fuzz-anchor.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target: the input is an OTF2 anchor file. sextant_anchor_read()
 * checks it; one it accepts becomes the anchor of the first seed archive,
 * which is then imported (libotf2 reads it after the check), so an anchor
 * the check lets through that libotf2 loops or crashes on is found too.
 *
 * Workload: most inputs end in the check (microseconds); an accepted one
 * costs an import of a few-KB archive.
 */
#include "config.h"

#include "sextant-anchor.h"
#include "sextant-fuzz-util.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  sextant_fuzz_init ();
  sextant_fuzz_archives ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  SextantFuzzArchive *archive = g_ptr_array_index (sextant_fuzz_archives (), 0);
  int anchor = sextant_fuzz_archive_pick (archive, SEXTANT_FUZZ_FILE_ANCHOR, 0);
  g_autoptr(GError) error = NULL;
  SextantAnchor parsed;

  sextant_fuzz_archive_replace (archive, (guint)anchor, data, size);
  if (sextant_anchor_read (archive->anchor, &parsed, &error))
    sextant_fuzz_import (archive->anchor, FALSE);
  sextant_fuzz_archive_restore (archive);

  return 0;
}
