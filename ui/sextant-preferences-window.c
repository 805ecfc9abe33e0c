/*
 * sextant-preferences-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every control writes GSettings at once (GNOME's convention: no Apply).
 * The pattern parameters come from the pattern set the analysis uses (the
 * catalogue and the user's files): a parameter that several patterns
 * share with the same default ("eps") is set once for all of them, as
 * `sextant analyze --param eps=…` does; the others per pattern
 * ("late_receiver.eager_limit"). Seconds are shown in microseconds, the
 * scale at which MPI wait states are judged.
 */
#include "config.h"

#include "sextant-resources.h"
#include <math.h>

#include "sextant-pattern-set.h"
#include "sextant-preferences-window.h"
#include "sextant-settings.h"

struct _SextantPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  /* Template widgets */
  AdwComboRow          *style_row;
  GtkListBox           *roots_list;
  AdwPreferencesPage   *patterns_page;

  /* Owned references */
  GSettings            *settings;
  GtkFileChooserNative *chooser;
  GPtrArray            *spins;          /* GtkSpinButton of each parameter (borrowed widgets) */
  gboolean              updating;       /* the spins are being set from the settings */
};

G_DEFINE_FINAL_TYPE (SextantPreferencesWindow, sextant_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* Style ----------------------------------------------------------------------- */

static const char * const schemes[] = { "default", "light", "dark" };

static gboolean
style_get (GValue   *value,
           GVariant *variant,
           gpointer  user_data)
{
  const char *name = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (schemes); i++)
    if (g_str_equal (name, schemes[i]))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }

  return FALSE;
}

static GVariant *
style_set (const GValue       *value,
           const GVariantType *type,
           gpointer            user_data)
{
  guint i = g_value_get_uint (value);

  return g_variant_new_string (schemes[i < G_N_ELEMENTS (schemes) ? i : 0]);
}

/* Source folders -------------------------------------------------------------- */

static void
set_roots (SextantPreferencesWindow *self,
           const char * const       *roots)
{
  g_settings_set_strv (self->settings, "source-roots", roots);
}

static void
remove_root_clicked_cb (GtkButton                *button,
                        SextantPreferencesWindow *self)
{
  const char *root = g_object_get_data (G_OBJECT (button), "root");
  g_auto(GStrv) roots = g_settings_get_strv (self->settings, "source-roots");
  g_autoptr(GStrvBuilder) kept = g_strv_builder_new ();
  g_auto(GStrv) result = NULL;

  for (guint i = 0; roots[i] != NULL; i++)
    if (g_strcmp0 (roots[i], root) != 0)
      g_strv_builder_add (kept, roots[i]);
  result = g_strv_builder_end (kept);
  set_roots (self, (const char * const *)result);
}

static void
rebuild_roots (SextantPreferencesWindow *self)
{
  g_auto(GStrv) roots = g_settings_get_strv (self->settings, "source-roots");
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->roots_list))) != NULL)
    gtk_list_box_remove (self->roots_list, child);

  if (roots[0] == NULL)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), "No folders: files are read where the trace says");
      gtk_widget_add_css_class (row, "dim-label");
      gtk_list_box_append (self->roots_list, row);
      return;
    }

  for (guint i = 0; roots[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");
      g_autofree char *base = g_path_get_basename (roots[i]);

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), base);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), roots[i]);
      gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (remove, "Remove this folder");
      gtk_widget_add_css_class (remove, "flat");
      g_object_set_data_full (G_OBJECT (remove), "root", g_strdup (roots[i]), g_free);
      g_signal_connect (remove, "clicked", G_CALLBACK (remove_root_clicked_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);
      gtk_list_box_append (self->roots_list, row);
    }
}

static void
folder_chosen_cb (GtkNativeDialog          *dialog,
                  int                       response,
                  SextantPreferencesWindow *self)
{
  g_autoptr(GFile) folder = response == GTK_RESPONSE_ACCEPT ? gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog))
                                                            : NULL;
  g_autofree char *path = folder != NULL ? g_file_get_path (folder) : NULL;

  g_clear_object (&self->chooser);
  if (path != NULL)
    sextant_preferences_window_add_source_root (self, path);
}

static void
add_root_clicked_cb (SextantPreferencesWindow *self)
{
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new ("Add a Source Folder", GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, "_Add", "_Cancel");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect (self->chooser, "response", G_CALLBACK (folder_chosen_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/**
 * sextant_preferences_window_add_source_root:
 *
 * Adds @dir to the source folders (what "Add a Folder" does), once.
 */
void
sextant_preferences_window_add_source_root (SextantPreferencesWindow *self,
                                            const char               *dir)
{
  g_auto(GStrv) roots = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) result = NULL;

  g_return_if_fail (SEXTANT_IS_PREFERENCES_WINDOW (self));
  g_return_if_fail (dir != NULL);

  roots = g_settings_get_strv (self->settings, "source-roots");
  if (g_strv_contains ((const char * const *)roots, dir))
    return;
  g_strv_builder_addv (builder, (const char **)roots);
  g_strv_builder_add (builder, dir);
  result = g_strv_builder_end (builder);
  set_roots (self, (const char * const *)result);
}

/* Pattern parameters ----------------------------------------------------------- */

/* How a parameter is shown: seconds as microseconds */
static double
shown_scale (const char *unit)
{
  return g_strcmp0 (unit, "s") == 0 ? 1e6 : 1.0;
}

static double
override_or (GSettings  *settings,
             const char *key,
             double      fallback)
{
  g_autoptr(GVariant) overrides = g_settings_get_value (settings, "pattern-parameters");
  double value;

  return g_variant_lookup (overrides, key, "d", &value) ? value : fallback;
}

static void
set_override (SextantPreferencesWindow *self,
              const char               *key,
              double                    value,
              gboolean                  remove)
{
  g_autoptr(GVariant) overrides = g_settings_get_value (self->settings, "pattern-parameters");
  GVariantBuilder builder;
  GVariantIter iter;
  const char *name;
  double old;

  /* a{sd}, not GVariantDict's a{sv} */
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{sd}"));
  g_variant_iter_init (&iter, overrides);
  while (g_variant_iter_next (&iter, "{&sd}", &name, &old))
    if (!g_str_equal (name, key))
      g_variant_builder_add (&builder, "{sd}", name, old);
  if (!remove)
    g_variant_builder_add (&builder, "{sd}", key, value);
  g_settings_set_value (self->settings, "pattern-parameters", g_variant_builder_end (&builder));
}

static void
spin_changed_cb (GtkSpinButton            *spin,
                 SextantPreferencesWindow *self)
{
  const char *key = g_object_get_data (G_OBJECT (spin), "key");
  double fallback = *(double *)g_object_get_data (G_OBJECT (spin), "default");
  double value = gtk_spin_button_get_value (spin) / *(double *)g_object_get_data (G_OBJECT (spin), "scale");

  if (self->updating)
    return;
  set_override (self, key, value, fabs (value - fallback) <= 1e-12 * MAX (fabs (fallback), 1));
}

static void
reset_clicked_cb (GtkButton                *button,
                  SextantPreferencesWindow *self)
{
  set_override (self, g_object_get_data (G_OBJECT (button), "key"), 0, TRUE);
}

/* The spins follow the settings (a reset, another window) */
static void
update_spins (SextantPreferencesWindow *self)
{
  self->updating = TRUE;
  for (guint i = 0; i < self->spins->len; i++)
    {
      GtkSpinButton *spin = g_ptr_array_index (self->spins, i);
      const char *key = g_object_get_data (G_OBJECT (spin), "key");
      double fallback = *(double *)g_object_get_data (G_OBJECT (spin), "default");
      double scale = *(double *)g_object_get_data (G_OBJECT (spin), "scale");

      gtk_spin_button_set_value (spin, override_or (self->settings, key, fallback) * scale);
    }
  self->updating = FALSE;
}

static GtkWidget *
parameter_row (SextantPreferencesWindow  *self,
               const char                *key,
               const SextantPatternParam *param)
{
  GtkWidget *row = adw_action_row_new ();
  double scale = shown_scale (param->unit);
  gboolean whole = g_strcmp0 (param->unit, "bytes") == 0 || (param->value == floor (param->value) && scale == 1 &&
                                                             param->value >= 1);
  GtkAdjustment *adjustment = gtk_adjustment_new (param->value * scale, 0, whole ? 1e15 : 1e9, whole ? 1 : 0.1,
                                                  whole ? 1024 : 10, 0);
  GtkWidget *spin = gtk_spin_button_new (adjustment, 1, whole ? 0 : 3);
  GtkWidget *reset = gtk_button_new_from_icon_name ("edit-undo-symbolic");
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  const char *unit;
  char shown[G_ASCII_DTOSTR_BUF_SIZE];

  unit = scale != 1 ? "µs" : param->unit;
  title = unit[0] != '\0' ? g_strdup_printf ("%s (%s)", param->name, unit) : g_strdup (param->name);
  g_ascii_formatd (shown, sizeof shown, "%g", param->value * scale);
  subtitle = g_strdup_printf ("%s (default %s)", param->description != NULL ? param->description : "", shown);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);

  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_spin_button_set_update_policy (GTK_SPIN_BUTTON (spin), GTK_UPDATE_IF_VALID);
  g_object_set_data_full (G_OBJECT (spin), "key", g_strdup (key), g_free);
  g_object_set_data_full (G_OBJECT (spin), "default", g_memdup2 (&param->value, sizeof (double)), g_free);
  g_object_set_data_full (G_OBJECT (spin), "scale", g_memdup2 (&scale, sizeof (double)), g_free);
  g_signal_connect (spin, "value-changed", G_CALLBACK (spin_changed_cb), self);
  g_ptr_array_add (self->spins, spin);

  gtk_widget_set_valign (reset, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (reset, "Back to the default");
  gtk_widget_add_css_class (reset, "flat");
  g_object_set_data_full (G_OBJECT (reset), "key", g_strdup (key), g_free);
  g_signal_connect (reset, "clicked", G_CALLBACK (reset_clicked_cb), self);

  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), reset);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);

  return row;
}

/* "eps" shared by several patterns with one default: set once for all */
static gboolean
is_shared (GPtrArray                 *patterns,
           const SextantPatternParam *param)
{
  guint users = 0;

  for (guint i = 0; i < patterns->len; i++)
    {
      GPtrArray *params = sextant_pattern_get_params (g_ptr_array_index (patterns, i));

      for (guint j = 0; j < params->len; j++)
        {
          const SextantPatternParam *other = g_ptr_array_index (params, j);

          if (g_str_equal (other->name, param->name))
            {
              if (other->value != param->value)
                return FALSE;
              users++;
            }
        }
    }

  return users > 1;
}

static void
build_parameters (SextantPreferencesWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantPatternSet) set = sextant_pattern_set_new_default (&error);
  g_autoptr(GHashTable) shared_done = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *patterns;
  AdwPreferencesGroup *all;

  if (set == NULL)
    {
      AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
      g_autofree char *text = g_strdup_printf ("The patterns cannot be read: %s", error->message);

      adw_preferences_group_set_description (group, text);
      adw_preferences_page_add (self->patterns_page, group);
      return;
    }

  patterns = sextant_pattern_set_get_patterns (set);
  all = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (all, "Every Pattern");
  adw_preferences_group_set_description (all, "Parameters that several patterns share");
  adw_preferences_page_add (self->patterns_page, all);
  for (guint i = 0; i < patterns->len; i++)
    {
      SextantPattern *pattern = g_ptr_array_index (patterns, i);
      GPtrArray *params = sextant_pattern_get_params (pattern);
      AdwPreferencesGroup *group = NULL;

      for (guint j = 0; j < params->len; j++)
        {
          const SextantPatternParam *param = g_ptr_array_index (params, j);
          g_autofree char *key = NULL;

          if (is_shared (patterns, param))
            {
              if (g_hash_table_contains (shared_done, param->name))
                continue;
              g_hash_table_add (shared_done, param->name);
              adw_preferences_group_add (all, parameter_row (self, param->name, param));
              continue;
            }
          if (group == NULL)
            {
              group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
              adw_preferences_group_set_title (group, sextant_pattern_get_title (pattern));
              adw_preferences_group_set_description (group, sextant_pattern_get_id (pattern));
              adw_preferences_page_add (self->patterns_page, group);
            }
          key = g_strdup_printf ("%s.%s", sextant_pattern_get_id (pattern), param->name);
          adw_preferences_group_add (group, parameter_row (self, key, param));
        }
    }
  update_spins (self);
}

/* GObject -------------------------------------------------------------------- */

static void
sextant_preferences_window_dispose (GObject *object)
{
  SextantPreferencesWindow *self = SEXTANT_PREFERENCES_WINDOW (object);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), SEXTANT_TYPE_PREFERENCES_WINDOW);

  G_OBJECT_CLASS (sextant_preferences_window_parent_class)->dispose (object);
}

static void
sextant_preferences_window_finalize (GObject *object)
{
  SextantPreferencesWindow *self = SEXTANT_PREFERENCES_WINDOW (object);

  g_clear_pointer (&self->spins, g_ptr_array_unref);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (sextant_preferences_window_parent_class)->finalize (object);
}

static void
sextant_preferences_window_class_init (SextantPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sextant_preferences_window_dispose;
  object_class->finalize = sextant_preferences_window_finalize;

  /* links the bundle (its constructor registers it) */
  (void)sextant_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/sextant/Sextant/ui/sextant-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SextantPreferencesWindow, style_row);
  gtk_widget_class_bind_template_child (widget_class, SextantPreferencesWindow, roots_list);
  gtk_widget_class_bind_template_child (widget_class, SextantPreferencesWindow, patterns_page);
  gtk_widget_class_bind_template_callback (widget_class, add_root_clicked_cb);
}

static void
sextant_preferences_window_init (SextantPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_object_ref (sextant_settings_get_default ());
  self->spins = g_ptr_array_new ();
  g_settings_bind_with_mapping (self->settings, "color-scheme", self->style_row, "selected", G_SETTINGS_BIND_DEFAULT,
                                style_get, style_set, NULL, NULL);
  g_signal_connect_object (self->settings, "changed::source-roots", G_CALLBACK (rebuild_roots), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::pattern-parameters", G_CALLBACK (update_spins), self,
                           G_CONNECT_SWAPPED);
  rebuild_roots (self);
  build_parameters (self);
}

SextantPreferencesWindow *
sextant_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (SEXTANT_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "application", parent != NULL ? gtk_window_get_application (parent) : NULL,
                       NULL);
}
