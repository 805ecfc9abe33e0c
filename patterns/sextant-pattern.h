/*
 * sextant-pattern.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A SextantPattern is one inefficiency pattern: its stable id, title, place
 * in the pattern tree, description, criterion, parameters with defaults,
 * the comment that explains an instance, and the query that finds its
 * instances. Built-in and user patterns alike are written as SQL files with a
 * metadata header (see docs/patterns.md); this type parses such a file.
 * Immutable once made.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  SEXTANT_PATTERN_ERROR_SYNTAX,     /* the header or its fields are malformed */
  SEXTANT_PATTERN_ERROR_PARAMETER,  /* a --param names no parameter or has a bad value */
  SEXTANT_PATTERN_ERROR_UNKNOWN,    /* no pattern with that id */
} SextantPatternError;

#define SEXTANT_PATTERN_ERROR (sextant_pattern_error_quark ())
GQuark sextant_pattern_error_quark (void);

/* One parameter of a pattern. Values in seconds ("s") are bound to the query
 * in timer ticks, so queries compare times exactly. */
typedef struct
{
  char   *name;
  double  value;          /* default, in the unit below */
  char   *unit;           /* "s", "bytes", "" */
  char   *description;
} SextantPatternParam;

#define SEXTANT_TYPE_PATTERN (sextant_pattern_get_type ())
G_DECLARE_FINAL_TYPE (SextantPattern, sextant_pattern, SEXTANT, PATTERN, GObject)

SextantPattern *sextant_pattern_new_from_sql      (const char      *text,
                                                   const char      *origin,
                                                   GError         **error);
const char     *sextant_pattern_get_id            (SextantPattern  *self);
const char     *sextant_pattern_get_title         (SextantPattern  *self);
const char     *sextant_pattern_get_parent        (SextantPattern  *self);
const char     *sextant_pattern_get_description   (SextantPattern  *self);
const char     *sextant_pattern_get_criterion     (SextantPattern  *self);
const char     *sextant_pattern_get_comment       (SextantPattern  *self);
const char     *sextant_pattern_get_origin        (SextantPattern  *self);
const char     *sextant_pattern_get_sql           (SextantPattern  *self);
GPtrArray      *sextant_pattern_get_params        (SextantPattern  *self);

G_END_DECLS
