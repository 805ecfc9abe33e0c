/* sextant-sim-otf2.c - what the model's two OTF2 writers share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "sextant-sim-otf2.h"
#include "sextant-torus.h"

static OTF2_FlushType
flush_always (void             *user_data,
              OTF2_FileType     file_type,
              OTF2_LocationRef  location,
              void             *caller_data,
              bool              final)
{
  return OTF2_FLUSH;
}

const OTF2_FlushCallbacks _sextant_sim_otf2_flush_callbacks = { .otf2_pre_flush = flush_always };

/* TRUE when @status is a success; else FALSE, and the first failure of the
 * run, naming @what, goes to *@first_error */
gboolean
_sextant_sim_otf2_check (GError         **first_error,
                         OTF2_ErrorCode   status,
                         const char      *what)
{
  if (G_LIKELY (status == OTF2_SUCCESS))
    return TRUE;
  if (*first_error == NULL)
    *first_error = g_error_new (SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TRACE, "%s: %s (%s)", what,
                                OTF2_Error_GetName (status), OTF2_Error_GetDescription (status));
  return FALSE;
}

/* The string reference of @str, defined in @defs the first time
 * (@strings: string -> reference + 1, owning its keys) */
OTF2_StringRef
_sextant_sim_otf2_string (GHashTable            *strings,
                          OTF2_GlobalDefWriter  *defs,
                          GError               **first_error,
                          const char            *str)
{
  gpointer value = g_hash_table_lookup (strings, str);
  OTF2_StringRef ref;

  if (value != NULL)
    return GPOINTER_TO_UINT (value) - 1;
  ref = g_hash_table_size (strings);
  g_hash_table_insert (strings, g_strdup (str), GUINT_TO_POINTER (ref + 1));
  _sextant_sim_otf2_check (first_error, OTF2_GlobalDefWriter_WriteString (defs, ref, str), "WriteString");

  return ref;
}
