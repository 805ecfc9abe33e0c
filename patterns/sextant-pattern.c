/*
 * sextant-pattern.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Parses a pattern file. The header is the leading block of `-- key: value`
 * comment lines; everything after it is the query:
 *
 *   -- id: late_sender
 *   -- title: Late Sender
 *   -- parent: mpi_point2point
 *   -- description: A receive waited for a send that started later.
 *   -- criterion: idle = min(enter(send), leave(recv)) - enter(recv) > eps
 *   -- comment: {location} waited {seconds} in {call} at {site} for {peer} ...
 *   -- param: eps = 0 s: waiting at or below this is not an instance
 *   SELECT ...
 *
 * A value may continue on following `--   ` lines (indented by at least two
 * spaces after the dashes). `id`, `title` and the query are required.
 */
#include "config.h"

#include <string.h>

#include "sextant-pattern.h"

struct _SextantPattern
{
  GObject    parent_instance;

  char      *id;
  char      *title;
  char      *parent;
  char      *description;
  char      *criterion;
  char      *comment;
  char      *origin;
  char      *sql;
  GPtrArray *params;       /* SextantPatternParam* */
};

G_DEFINE_FINAL_TYPE (SextantPattern, sextant_pattern, G_TYPE_OBJECT)
G_DEFINE_QUARK (sextant-pattern-error-quark, sextant_pattern_error)

static void
param_free (gpointer data)
{
  SextantPatternParam *param = data;

  g_free (param->name);
  g_free (param->unit);
  g_free (param->description);
  g_free (param);
}

static void
sextant_pattern_finalize (GObject *object)
{
  SextantPattern *self = (SextantPattern *)object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->parent, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->criterion, g_free);
  g_clear_pointer (&self->comment, g_free);
  g_clear_pointer (&self->origin, g_free);
  g_clear_pointer (&self->sql, g_free);
  g_clear_pointer (&self->params, g_ptr_array_unref);

  G_OBJECT_CLASS (sextant_pattern_parent_class)->finalize (object);
}

static void
sextant_pattern_class_init (SextantPatternClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sextant_pattern_finalize;
}

static void
sextant_pattern_init (SextantPattern *self)
{
  self->params = g_ptr_array_new_with_free_func (param_free);
}

static gboolean
is_blank (const char *line)
{
  for (; *line != '\0'; line++)
    if (!g_ascii_isspace (*line))
      return FALSE;

  return TRUE;
}

static gboolean
valid_id (const char *id)
{
  if (id == NULL || *id == '\0' || !g_ascii_islower (*id))
    return FALSE;

  for (const char *p = id; *p != '\0'; p++)
    if (!g_ascii_islower (*p) && !g_ascii_isdigit (*p) && *p != '_')
      return FALSE;

  return TRUE;
}

/* "eps = 0 s: waiting at or below this is not an instance" */
static SextantPatternParam *
parse_param (const char  *value,
             const char  *origin,
             guint        line,
             GError     **error)
{
  g_autoptr(GRegex) regex = g_regex_new ("^([a-z_][a-z0-9_]*)\\s*=\\s*(-?[0-9.eE+-]+)\\s*([a-z]*)\\s*(?::\\s*(.*))?$",
                                         0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  SextantPatternParam *param;
  g_autofree char *number = NULL;
  char *end = NULL;

  if (!g_regex_match (regex, value, 0, &match))
    {
      g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_SYNTAX,
                   "%s:%u: a parameter is written \"name = value [unit]: description\"", origin, line);
      return NULL;
    }

  number = g_match_info_fetch (match, 2);
  param = g_new0 (SextantPatternParam, 1);
  param->name = g_match_info_fetch (match, 1);
  param->value = g_ascii_strtod (number, &end);
  param->unit = g_match_info_fetch (match, 3);
  param->description = g_match_info_fetch (match, 4);

  if (end == NULL || *end != '\0')
    {
      param_free (param);
      g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_SYNTAX,
                   "%s:%u: \"%s\" is not a number", origin, line, number);
      return NULL;
    }

  return param;
}

/**
 * sextant_pattern_new_from_sql:
 * @text: the pattern file's contents
 * @origin: where it came from ("builtin" or a path), for messages
 *
 * Returns: (transfer full): the pattern, or %NULL with @error set
 */
SextantPattern *
sextant_pattern_new_from_sql (const char  *text,
                              const char  *origin,
                              GError     **error)
{
  g_autoptr(SextantPattern) self = g_object_new (SEXTANT_TYPE_PATTERN, NULL);
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) sql = g_string_new (NULL);
  char **last = NULL;         /* the field a continuation line extends */
  gboolean in_header = TRUE;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (origin != NULL, NULL);

  self->origin = g_strdup (origin);
  lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *colon;
      g_autofree char *key = NULL;
      g_autofree char *value = NULL;
      char **field = NULL;

      if (in_header && g_str_has_prefix (line, "--"))
        {
          const char *body = line + 2;

          /* continuation of the previous field: indented by 3+ spaces */
          if (last != NULL && g_str_has_prefix (body, "   "))
            {
              g_autofree char *more = g_strstrip (g_strdup (body));
              g_autofree char *joined = g_strconcat (*last, " ", more, NULL);

              g_free (*last);
              *last = g_steal_pointer (&joined);
              continue;
            }

          colon = strchr (body, ':');
          if (colon == NULL)
            {
              last = NULL;
              continue;               /* a plain comment */
            }

          key = g_strstrip (g_strndup (body, colon - body));
          value = g_strstrip (g_strdup (colon + 1));

          if (g_str_equal (key, "id")) field = &self->id;
          else if (g_str_equal (key, "title")) field = &self->title;
          else if (g_str_equal (key, "parent")) field = &self->parent;
          else if (g_str_equal (key, "description")) field = &self->description;
          else if (g_str_equal (key, "criterion")) field = &self->criterion;
          else if (g_str_equal (key, "comment")) field = &self->comment;
          else if (g_str_equal (key, "param"))
            {
              SextantPatternParam *param = parse_param (value, origin, i + 1, error);

              if (param == NULL)
                return NULL;
              g_ptr_array_add (self->params, param);
              last = NULL;
              continue;
            }
          else if (strchr (key, ' ') == NULL && *key != '\0')
            {
              g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_SYNTAX,
                           "%s:%u: unknown header field \"%s\"", origin, i + 1, key);
              return NULL;
            }
          else
            {
              last = NULL;
              continue;
            }

          if (*field != NULL)
            {
              g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_SYNTAX,
                           "%s:%u: \"%s\" is given twice", origin, i + 1, key);
              return NULL;
            }
          *field = g_steal_pointer (&value);
          last = field;
          continue;
        }

      if (in_header && is_blank (line))
        continue;

      in_header = FALSE;
      g_string_append (sql, line);
      g_string_append_c (sql, '\n');
    }

  if (!valid_id (self->id))
    {
      g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_SYNTAX,
                   "%s: the header needs an \"-- id:\" of lower-case letters, digits and '_'", origin);
      return NULL;
    }
  if (self->title == NULL || *self->title == '\0')
    {
      g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_SYNTAX,
                   "%s: the header needs a \"-- title:\"", origin);
      return NULL;
    }
  if (*g_strstrip (sql->str) == '\0')
    {
      g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_SYNTAX,
                   "%s: no query after the header", origin);
      return NULL;
    }

  self->sql = g_string_free (g_steal_pointer (&sql), FALSE);

  return g_steal_pointer (&self);
}

const char *
sextant_pattern_get_id (SextantPattern *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN (self), NULL);
  return self->id;
}

const char *
sextant_pattern_get_title (SextantPattern *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN (self), NULL);
  return self->title;
}

const char *
sextant_pattern_get_parent (SextantPattern *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN (self), NULL);
  return self->parent;
}

const char *
sextant_pattern_get_description (SextantPattern *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN (self), NULL);
  return self->description;
}

const char *
sextant_pattern_get_criterion (SextantPattern *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN (self), NULL);
  return self->criterion;
}

const char *
sextant_pattern_get_comment (SextantPattern *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN (self), NULL);
  return self->comment;
}

const char *
sextant_pattern_get_origin (SextantPattern *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN (self), NULL);
  return self->origin;
}

const char *
sextant_pattern_get_sql (SextantPattern *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN (self), NULL);
  return self->sql;
}

/**
 * sextant_pattern_get_params:
 *
 * Returns: (transfer none) (element-type SextantPatternParam): the parameters
 *   with their defaults
 */
GPtrArray *
sextant_pattern_get_params (SextantPattern *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN (self), NULL);
  return self->params;
}
