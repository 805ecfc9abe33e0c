/*
 * sextant-pattern-set.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The registry of patterns an analysis runs: the built-in ones (SQL files
 * compiled into the library), the user's patterns folder
 * ($XDG_DATA_HOME/sextant/patterns, its .sql files) and single files given on the
 * command line. Pattern ids are unique within a set. Each pattern names its
 * parent in the metric tree: a group (sextant-pattern-tree.h) or another
 * pattern of the set.
 */
#pragma once

#include "sextant-pattern.h"
#include "sextant-pattern-tree.h"

G_BEGIN_DECLS

#define SEXTANT_TYPE_PATTERN_SET (sextant_pattern_set_get_type ())
G_DECLARE_FINAL_TYPE (SextantPatternSet, sextant_pattern_set, SEXTANT, PATTERN_SET, GObject)

SextantPatternSet *sextant_pattern_set_new            (void);
SextantPatternSet *sextant_pattern_set_new_default    (GError           **error);
gboolean           sextant_pattern_set_add_builtin    (SextantPatternSet  *self,
                                                       GError            **error);
gboolean           sextant_pattern_set_add_directory  (SextantPatternSet  *self,
                                                       const char         *path,
                                                       GError            **error);
gboolean           sextant_pattern_set_add_file       (SextantPatternSet  *self,
                                                       const char         *path,
                                                       GError            **error);
gboolean           sextant_pattern_set_add            (SextantPatternSet  *self,
                                                       SextantPattern     *pattern,
                                                       GError            **error);
SextantPattern    *sextant_pattern_set_lookup         (SextantPatternSet  *self,
                                                       const char         *id);
GPtrArray         *sextant_pattern_set_get_patterns   (SextantPatternSet  *self);
char              *sextant_pattern_set_user_directory (void);
const char        *sextant_pattern_set_get_parent_of  (SextantPatternSet  *self,
                                                       const char         *id);
gboolean           sextant_pattern_set_has_node       (SextantPatternSet  *self,
                                                       const char         *id);
gboolean           sextant_pattern_set_check_tree     (SextantPatternSet  *self,
                                                       GError            **error);

G_END_DECLS
