/*
 * sextant-invariants.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What every analysis checks of every pattern's instances, built-in or a
 * user's (see the .c file) */
typedef struct _SextantInvariants SextantInvariants;

SextantInvariants *sextant_invariants_new            (gboolean            strict,
                                                      gint64              resolution);
void               sextant_invariants_free           (SextantInvariants  *self);

gboolean           sextant_invariants_is_strict_env  (void);

gboolean           sextant_invariants_check_instance (SextantInvariants  *self,
                                                      const char         *pattern_id,
                                                      gint64              loc,
                                                      gint64              visit,
                                                      gint64              enter,
                                                      gint64              leave,
                                                      gint64             *severity,
                                                      gint64             *begin,
                                                      gint64             *end,
                                                      GError            **error);
gboolean           sextant_invariants_finish         (SextantInvariants  *self,
                                                      GError            **error);
guint              sextant_invariants_get_violations (SextantInvariants  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantInvariants, sextant_invariants_free)

G_END_DECLS
