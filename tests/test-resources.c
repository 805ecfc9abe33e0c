/*
 * test-resources.c: what resources/ gives the running application, as GTK
 * and GIO see it: the GResource bundle, its style sheet, the application
 * icon and its symbolic form, and the GSettings schema compiled in the build
 * tree.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under Xvfb (meson runs this through xvfb-run, with the Cairo renderer).
 * The bundle is linked in from resources/ (sextant-resources.c registers it
 * from a constructor). The icons are looked up as the About window does,
 * through a GtkApplication whose resource base path puts icons/ on the icon
 * theme's search path; the data directories hold only the system's MIME
 * database, so that no installed copy answers instead. GSettings reads the
 * schema from GSETTINGS_SCHEMA_DIR (the build tree's resources/) with the
 * memory backend.
 */
#include "config.h"

#include <unistd.h>

#include <gtk/gtk.h>

#include "sextant-resources.h"

#define BASE "/org/sextant/Sextant/"

static gboolean
strv_has (const char * const *strv,
          const char         *s)
{
  return strv != NULL && g_strv_contains (strv, s);
}

/* The bundle holds what GtkApplication and AdwApplication look for under
 * the base path */
static void
test_bundle (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) top = NULL;
  g_auto(GStrv) apps = NULL;
  g_autoptr(GBytes) css = NULL;
  const char *icons[] = { "org.sextant.Sextant.svg", "org.sextant.Sextant-symbolic.svg" };

  g_assert_nonnull (sextant_get_resource ());

  top = g_resources_enumerate_children (BASE, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_true (strv_has ((const char * const *)top, "style.css"));
  g_assert_true (strv_has ((const char * const *)top, "icons/"));

  apps = g_resources_enumerate_children (BASE "icons/scalable/apps/", G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (icons); i++)
    {
      g_autofree char *path = g_strconcat (BASE "icons/scalable/apps/", icons[i], NULL);
      g_autoptr(GBytes) svg = NULL;

      g_assert_true (strv_has ((const char * const *)apps, icons[i]));
      svg = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
      g_assert_no_error (error);
      /* gdk-pixbuf, given no file name, knows an SVG only by this */
      g_assert_nonnull (g_strstr_len (g_bytes_get_data (svg, NULL), MIN (g_bytes_get_size (svg), 256), "<svg"));
    }

  css = g_resources_lookup_data (BASE "style.css", G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (css, NULL), g_bytes_get_size (css),
                                  "timeline:focus-visible"));
}

static void
css_parsing_error_cb (GtkCssProvider *provider,
                      GtkCssSection  *section,
                      const GError   *error,
                      gpointer        data)
{
  g_autofree char *where = gtk_css_section_to_string (section);

  g_test_message ("style.css: %s: %s", where, error->message);
  (*(guint *)data)++;
}

/* GTK's CSS parser takes the whole style sheet without an error */
static void
test_style_css (void)
{
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();
  guint errors = 0;

  g_signal_connect (provider, "parsing-error", G_CALLBACK (css_parsing_error_cb), &errors);
  gtk_css_provider_load_from_resource (provider, BASE "style.css");
  g_assert_cmpuint (errors, ==, 0);
}

/* @paintable drawn at @size x @size by the Cairo renderer, in @colors if
 * it is symbolic; premultiplied B, G, R, A bytes (CAIRO_FORMAT_ARGB32 on
 * little-endian machines), rows of @size * 4 */
static guint8 *
render_icon (GdkPaintable  *paintable,
             int            size,
             const GdkRGBA *colors,
             gsize          n_colors)
{
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  guint8 *pixels;

  if (colors != NULL)
    gtk_symbolic_paintable_snapshot_symbolic (GTK_SYMBOLIC_PAINTABLE (paintable), snapshot,
                                              size, size, colors, n_colors);
  else
    gdk_paintable_snapshot (paintable, snapshot, size, size);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);

  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  g_assert_no_error (error);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, size, size));
  gsk_renderer_unrealize (renderer);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, size);

  pixels = g_malloc ((gsize)size * size * 4);
  gdk_texture_download (texture, pixels, (gsize)size * 4);
  return pixels;
}

/* The pixel at (@x, @y) of an ARGB32 image @size wide, as 0xAARRGGBB */
static guint32
pixel_at (const guint8 *pixels,
          int           size,
          int           x,
          int           y)
{
  return *(const guint32 *)(pixels + ((gsize)y * size + x) * 4);
}

/* Whether the opaque pixel @argb is within 3 of 0xRRGGBB @rgb */
static gboolean
opaque_near (guint32 argb,
             guint32 rgb)
{
  for (guint shift = 0; shift < 24; shift += 8)
    if (ABS ((int)((argb >> shift) & 0xff) - (int)((rgb >> shift) & 0xff)) > 3)
      return FALSE;
  return (argb >> 24) == 0xff;
}

static GtkIconPaintable *
lookup_icon (const char *name,
             int         size)
{
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());
  g_autoptr(GtkIconPaintable) icon = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *expected = NULL;

  g_assert_true (gtk_icon_theme_has_icon (theme, name));
  icon = gtk_icon_theme_lookup_icon (theme, name, NULL, size, 1, GTK_TEXT_DIR_NONE, 0);
  file = gtk_icon_paintable_get_file (icon);
  g_assert_nonnull (file);
  uri = g_file_get_uri (file);
  expected = g_strdup_printf ("resource://" BASE "icons/scalable/apps/%s.svg", name);
  g_assert_cmpstr (uri, ==, expected);

  return g_steal_pointer (&icon);
}

static void
check_icons (void)
{
  g_autoptr(GtkIconPaintable) icon = lookup_icon (APP_ID, 128);
  g_autoptr(GtkIconPaintable) symbolic = lookup_icon (APP_ID "-symbolic", 64);
  g_autofree guint8 *pixels = NULL;
  g_autofree guint8 *mono = NULL;
  /* foreground red; error, warning, success (which the icon must not use)
   * green, blue, white */
  const GdkRGBA colors[] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 1, 1 } };
  guint painted = 0;

  /* The application icon at 128 px: the grid's corner is empty; the
   * sextant's pivot (brass, its centre darker), the card's side */
  pixels = render_icon (GDK_PAINTABLE (icon), 128, NULL, 0);
  g_assert_cmphex (pixel_at (pixels, 128, 1, 1) >> 24, ==, 0);
  g_assert_true (opaque_near (pixel_at (pixels, 128, 64, 10), 0xc88800));
  g_assert_true (opaque_near (pixel_at (pixels, 128, 64, 5), 0xf6d32d));
  g_assert_true (opaque_near (pixel_at (pixels, 128, 64, 113), 0x241f31));

  /* The symbolic icon takes the foreground colour everywhere (only fills,
   * which GTK recolours, no error, warning or success classes): at 64 px in
   * red, every painted pixel is red (ARGB premultiplied: red == alpha), the
   * timeline rows are painted and the inside of the frame is not */
  g_assert_true (gtk_icon_paintable_is_symbolic (symbolic));
  mono = render_icon (GDK_PAINTABLE (symbolic), 64, colors, G_N_ELEMENTS (colors));
  for (int y = 0; y < 64; y++)
    for (int x = 0; x < 64; x++)
      {
        guint32 p = pixel_at (mono, 64, x, y);
        guint a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

        if (a == 0)
          continue;
        painted++;
        g_assert_cmpuint (g, ==, 0);
        g_assert_cmpuint (b, ==, 0);
        g_assert_cmpint (ABS ((int)r - (int)a), <=, 1);
      }
  g_assert_cmpuint (painted, >, 64 * 64 / 8);
  g_assert_true (opaque_near (pixel_at (mono, 64, 20, 48), 0xff0000));
  g_assert_true (opaque_near (pixel_at (mono, 64, 40, 60), 0xff0000));
  g_assert_cmphex (pixel_at (mono, 64, 36, 20) >> 24, ==, 0);
}

static void
icons_activate_cb (GApplication *app,
                   gpointer      data)
{
  check_icons ();
  *(gboolean *)data = TRUE;
}

/* The icons as a GtkApplication with Sextant's ID finds them: from the
 * bundle, under its resource base path */
static void
test_icons (void)
{
  g_autoptr(GtkApplication) app = gtk_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  gboolean checked = FALSE;
  char *argv[] = { (char *)"test-resources", NULL };

  g_assert_cmpstr (g_application_get_resource_base_path (G_APPLICATION (app)), ==, "/org/sextant/Sextant");
  g_signal_connect (app, "activate", G_CALLBACK (icons_activate_cb), &checked);
  g_assert_cmpint (g_application_run (G_APPLICATION (app), 1, argv), ==, 0);
  g_assert_true (checked);
}

/* The schema in the build tree: its keys' defaults, types and ranges, and
 * values written and read back */
static void
test_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GSettingsSchemaKey) width = NULL;
  g_autoptr(GSettingsSchemaKey) scheme = NULL;
  g_autoptr(GVariant) range = NULL;
  g_autoptr(GVariant) choices = NULL;
  g_autoptr(GVariant) params = NULL;
  g_autoptr(GVariant) roots = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *nick = NULL;
  g_auto(GStrv) keys = NULL;
  const char *type = NULL;
  GVariantBuilder builder;
  double eps = 0;
  const char * const expected_keys[] = {
    "color-scheme", "last-folder", "pattern-parameters", "show-lost-time", "show-messages",
    "source-roots", "window-height", "window-maximized", "window-width",
  };

  g_assert_nonnull (source);
  schema = g_settings_schema_source_lookup (source, APP_ID, FALSE);
  g_assert_nonnull (schema);
  g_assert_cmpstr (g_settings_schema_get_path (schema), ==, "/org/sextant/Sextant/");
  keys = g_settings_schema_list_keys (schema);
  g_assert_cmpuint (g_strv_length (keys), ==, G_N_ELEMENTS (expected_keys));
  for (guint i = 0; i < G_N_ELEMENTS (expected_keys); i++)
    g_assert_true (g_strv_contains ((const char * const *)keys, expected_keys[i]));

  settings = g_settings_new (APP_ID);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1200);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 720);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
  g_assert_true (g_settings_get_boolean (settings, "show-messages"));
  g_assert_true (g_settings_get_boolean (settings, "show-lost-time"));
  g_assert_cmpint (g_settings_get_enum (settings, "color-scheme"), ==, 0);
  nick = g_settings_get_string (settings, "color-scheme");
  g_assert_cmpstr (nick, ==, "default");
  folder = g_settings_get_string (settings, "last-folder");
  g_assert_cmpstr (folder, ==, "");
  roots = g_settings_get_value (settings, "source-roots");
  g_assert_cmpstr (g_variant_get_type_string (roots), ==, "as");
  g_assert_cmpuint (g_variant_n_children (roots), ==, 0);
  params = g_settings_get_value (settings, "pattern-parameters");
  g_assert_cmpstr (g_variant_get_type_string (params), ==, "a{sd}");
  g_assert_cmpuint (g_variant_n_children (params), ==, 0);
  g_clear_pointer (&params, g_variant_unref);

  /* Window sizes refuse what no window has */
  width = g_settings_schema_get_key (schema, "window-width");
  g_assert_false (g_settings_schema_key_range_check (width, g_variant_new_int32 (0)));
  g_assert_false (g_settings_schema_key_range_check (width, g_variant_new_int32 (-1)));
  g_assert_true (g_settings_schema_key_range_check (width, g_variant_new_int32 (800)));

  /* The colour scheme is one of three */
  scheme = g_settings_schema_get_key (schema, "color-scheme");
  range = g_settings_schema_key_get_range (scheme);
  g_variant_get (range, "(&sv)", &type, &choices);
  g_assert_cmpstr (type, ==, "enum");
  g_assert_cmpuint (g_variant_n_children (choices), ==, 3);
  g_assert_true (g_settings_set_enum (settings, "color-scheme", 2));
  g_clear_pointer (&nick, g_free);
  nick = g_settings_get_string (settings, "color-scheme");
  g_assert_cmpstr (nick, ==, "dark");
  g_assert_false (g_settings_schema_key_range_check (scheme, g_variant_new_string ("blue")));

  /* Pattern parameters by name and by pattern_id.name */
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{sd}"));
  g_variant_builder_add (&builder, "{sd}", "eps", 1e-6);
  g_variant_builder_add (&builder, "{sd}", "late_receiver.eager_limit", 65536.0);
  g_assert_true (g_settings_set_value (settings, "pattern-parameters", g_variant_builder_end (&builder)));
  params = g_settings_get_value (settings, "pattern-parameters");
  g_assert_true (g_variant_lookup (params, "eps", "d", &eps));
  g_assert_cmpfloat (eps, ==, 1e-6);
  g_assert_cmpuint (g_variant_n_children (params), ==, 2);
}

/* The first of the data directories with a MIME database, read from the
 * environment (g_get_system_data_dirs () would keep it for GTK) */
static char *
system_mime_dir (void)
{
  const char *env = g_getenv ("XDG_DATA_DIRS");
  g_auto(GStrv) dirs = g_strsplit (env != NULL && *env != '\0' ? env : "/usr/local/share:/usr/share",
                                   ":", -1);

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *cache = g_build_filename (dirs[i], "mime", "mime.cache", NULL);

      if (g_file_test (cache, G_FILE_TEST_IS_REGULAR))
        return g_build_filename (dirs[i], "mime", NULL);
    }
  return g_strdup ("/usr/share/mime");
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *system_mime = NULL;
  g_autofree char *data = NULL;
  g_autofree char *mime = NULL;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("GSETTINGS_SCHEMA_DIR") == NULL || g_strcmp0 (g_getenv ("GSETTINGS_BACKEND"), "memory") != 0)
    {
      g_printerr ("set GSETTINGS_SCHEMA_DIR to the build tree's resources/ and GSETTINGS_BACKEND=memory\n");
      return 1;
    }

  /* No installed icon or schema may answer for the build tree's: the data
   * directories are one in the build tree that holds only the system's MIME
   * database (which gdk-pixbuf needs to know an SVG) */
  system_mime = system_mime_dir ();
  data = g_build_filename (g_getenv ("G_TEST_BUILDDIR") != NULL ? g_getenv ("G_TEST_BUILDDIR") : ".",
                           "test-resources-data", NULL);
  mime = g_build_filename (data, "mime", NULL);
  g_assert_no_errno (g_mkdir_with_parents (data, 0755));
  if (!g_file_test (mime, G_FILE_TEST_IS_DIR))
    g_assert_no_errno (symlink (system_mime, mime));
  g_setenv ("XDG_DATA_DIRS", data, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);

  if (!gtk_init_check ())
    {
      g_printerr ("no display: run under xvfb-run\n");
      return 1;
    }

  g_test_add_func ("/resources/bundle", test_bundle);
  g_test_add_func ("/resources/style-css", test_style_css);
  g_test_add_func ("/resources/icons", test_icons);
  g_test_add_func ("/resources/settings", test_settings);

  return g_test_run ();
}
