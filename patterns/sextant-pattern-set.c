/*
 * sextant-pattern-set.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sextant-pattern-set.h"
#include "sextant-pattern-tree.h"
#include "sextant-patterns-resources.h"

#define BUILTIN_PATH "/org/sextant/patterns/sql"

struct _SextantPatternSet
{
  GObject     parent_instance;

  GPtrArray  *patterns;   /* SextantPattern*, in the order added */
  GHashTable *by_id;      /* id -> SextantPattern* (borrowed) */
};

G_DEFINE_FINAL_TYPE (SextantPatternSet, sextant_pattern_set, G_TYPE_OBJECT)

static int
compare_names (const void *a,
               const void *b)
{
  return g_strcmp0 (*(char * const *)a, *(char * const *)b);
}

static void
sextant_pattern_set_finalize (GObject *object)
{
  SextantPatternSet *self = (SextantPatternSet *)object;

  g_clear_pointer (&self->by_id, g_hash_table_unref);
  g_clear_pointer (&self->patterns, g_ptr_array_unref);

  G_OBJECT_CLASS (sextant_pattern_set_parent_class)->finalize (object);
}

static void
sextant_pattern_set_class_init (SextantPatternSetClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sextant_pattern_set_finalize;
}

static void
sextant_pattern_set_init (SextantPatternSet *self)
{
  self->patterns = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_id = g_hash_table_new (g_str_hash, g_str_equal);
}

SextantPatternSet *
sextant_pattern_set_new (void)
{
  return g_object_new (SEXTANT_TYPE_PATTERN_SET, NULL);
}

/**
 * sextant_pattern_set_new_default:
 *
 * The patterns `sextant analyze` runs: the built-in catalogue and the .sql
 * files of the user's patterns folder (sextant_pattern_set_user_directory(),
 * which need not exist). Reads files: call it off the main thread when the
 * folder may be slow.
 *
 * Returns: (transfer full) (nullable): the set, or %NULL with @error set
 *   when a user pattern does not parse or repeats an id
 *   (%SEXTANT_PATTERN_ERROR_SYNTAX) or the folder cannot be read
 */
SextantPatternSet *
sextant_pattern_set_new_default (GError **error)
{
  g_autoptr(SextantPatternSet) self = sextant_pattern_set_new ();
  g_autofree char *user_dir = sextant_pattern_set_user_directory ();

  if (!sextant_pattern_set_add_builtin (self, error) ||
      !sextant_pattern_set_add_directory (self, user_dir, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * sextant_pattern_set_add:
 *
 * Adds @pattern; fails if the set has a pattern with its id already.
 */
gboolean
sextant_pattern_set_add (SextantPatternSet  *self,
                         SextantPattern     *pattern,
                         GError            **error)
{
  SextantPattern *other;

  g_return_val_if_fail (SEXTANT_IS_PATTERN_SET (self), FALSE);
  g_return_val_if_fail (SEXTANT_IS_PATTERN (pattern), FALSE);

  other = g_hash_table_lookup (self->by_id, sextant_pattern_get_id (pattern));
  if (other != NULL)
    {
      g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_SYNTAX,
                   "%s: pattern \"%s\" is defined already (%s)", sextant_pattern_get_origin (pattern),
                   sextant_pattern_get_id (pattern), sextant_pattern_get_origin (other));
      return FALSE;
    }

  g_ptr_array_add (self->patterns, g_object_ref (pattern));
  g_hash_table_insert (self->by_id, (gpointer)sextant_pattern_get_id (pattern), pattern);

  return TRUE;
}

/* The built-in patterns, in file name order. */
gboolean
sextant_pattern_set_add_builtin (SextantPatternSet  *self,
                                 GError            **error)
{
  g_auto(GStrv) names = NULL;

  g_return_val_if_fail (SEXTANT_IS_PATTERN_SET (self), FALSE);

  names = g_resource_enumerate_children (sextant_patterns_get_resource (), BUILTIN_PATH,
                                         G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (names == NULL)
    return FALSE;

  qsort (names, g_strv_length (names), sizeof (char *), compare_names);
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *path = g_strconcat (BUILTIN_PATH "/", names[i], NULL);
      g_autoptr(GBytes) bytes = NULL;
      g_autofree char *text = NULL;
      g_autoptr(SextantPattern) pattern = NULL;
      gsize size;
      const char *data;

      bytes = g_resource_lookup_data (sextant_patterns_get_resource (), path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
      if (bytes == NULL)
        return FALSE;
      data = g_bytes_get_data (bytes, &size);
      text = g_strndup (data, size);

      if (!(pattern = sextant_pattern_new_from_sql (text, "builtin", error)) ||
          !sextant_pattern_set_add (self, pattern, error))
        return FALSE;
    }

  return TRUE;
}

gboolean
sextant_pattern_set_add_file (SextantPatternSet  *self,
                              const char         *path,
                              GError            **error)
{
  g_autofree char *text = NULL;
  g_autoptr(SextantPattern) pattern = NULL;

  g_return_val_if_fail (SEXTANT_IS_PATTERN_SET (self), FALSE);

  if (!g_file_get_contents (path, &text, NULL, error))
    return FALSE;

  return (pattern = sextant_pattern_new_from_sql (text, path, error)) != NULL &&
         sextant_pattern_set_add (self, pattern, error);
}

/**
 * sextant_pattern_set_add_directory:
 *
 * Adds every `*.sql` file of @path, in name order. A missing directory is
 * not an error: users have none until they write a pattern.
 */
gboolean
sextant_pattern_set_add_directory (SextantPatternSet  *self,
                                   const char         *path,
                                   GError            **error)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_return_val_if_fail (SEXTANT_IS_PATTERN_SET (self), FALSE);

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return TRUE;
  if (!(dir = g_dir_open (path, 0, error)))
    return FALSE;

  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".sql"))
      g_ptr_array_add (files, g_build_filename (path, name, NULL));
  g_ptr_array_sort (files, compare_names);

  for (guint i = 0; i < files->len; i++)
    if (!sextant_pattern_set_add_file (self, g_ptr_array_index (files, i), error))
      return FALSE;

  return TRUE;
}

/* Returns: (transfer full): $XDG_DATA_HOME/sextant/patterns */
char *
sextant_pattern_set_user_directory (void)
{
  return g_build_filename (g_get_user_data_dir (), "sextant", "patterns", NULL);
}

/* Returns: (transfer none) (nullable) */
SextantPattern *
sextant_pattern_set_lookup (SextantPatternSet *self,
                            const char        *id)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_SET (self), NULL);

  return g_hash_table_lookup (self->by_id, id);
}

/* Returns: (transfer none) (element-type SextantPattern) */
GPtrArray *
sextant_pattern_set_get_patterns (SextantPatternSet *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_SET (self), NULL);

  return self->patterns;
}

/**
 * sextant_pattern_set_get_parent_of:
 * @id: a pattern's or a group's id
 *
 * Where @id hangs in the metric tree: the `-- parent:` of the pattern @id,
 * or the parent of the group @id (see sextant_pattern_group_lookup()).
 *
 * Returns: (nullable) (transfer none): the parent's id; %NULL for a root
 *   or an id that is neither
 */
const char *
sextant_pattern_set_get_parent_of (SextantPatternSet *self,
                                   const char        *id)
{
  SextantPattern *pattern;
  const SextantPatternGroup *group;

  g_return_val_if_fail (SEXTANT_IS_PATTERN_SET (self), NULL);

  if ((pattern = sextant_pattern_set_lookup (self, id)) != NULL)
    return sextant_pattern_get_parent (pattern);
  if ((group = sextant_pattern_group_lookup (id)) != NULL)
    return group->parent;

  return NULL;
}

/**
 * sextant_pattern_set_has_node:
 *
 * Returns: whether @id names a pattern of the set or a group of the tree
 */
gboolean
sextant_pattern_set_has_node (SextantPatternSet *self,
                              const char        *id)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_SET (self), FALSE);

  return sextant_pattern_set_lookup (self, id) != NULL || sextant_pattern_group_lookup (id) != NULL;
}

/**
 * sextant_pattern_set_check_tree:
 *
 * Checks the patterns' places in the metric tree: every `-- parent:`
 * names a group or a pattern of the set, and no pattern is its own
 * ancestor. Patterns may name patterns added after them, so the check is
 * made on the whole set (the analysis makes it before it runs).
 *
 * Returns: %TRUE, or %FALSE with @error set (%SEXTANT_PATTERN_ERROR_SYNTAX,
 *   naming the pattern's file)
 */
gboolean
sextant_pattern_set_check_tree (SextantPatternSet  *self,
                                GError            **error)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_SET (self), FALSE);

  for (guint i = 0; i < self->patterns->len; i++)
    {
      SextantPattern *pattern = g_ptr_array_index (self->patterns, i);
      const char *id = sextant_pattern_get_id (pattern);
      const char *parent = sextant_pattern_get_parent (pattern);
      guint depth = 0;

      if (parent != NULL && !sextant_pattern_set_has_node (self, parent))
        {
          g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_SYNTAX,
                       "%s: the parent \"%s\" is neither a group of the pattern tree nor a pattern",
                       sextant_pattern_get_origin (pattern), parent);
          return FALSE;
        }

      for (const char *up = parent; up != NULL; up = sextant_pattern_set_get_parent_of (self, up))
        if (g_str_equal (up, id) || ++depth > self->patterns->len + 64)
          {
            g_set_error (error, SEXTANT_PATTERN_ERROR, SEXTANT_PATTERN_ERROR_SYNTAX,
                         "%s: \"%s\" would be below itself in the pattern tree",
                         sextant_pattern_get_origin (pattern), id);
            return FALSE;
          }
    }

  return TRUE;
}
