/*
 * sextant-timeline-legend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline's legend: a drop-down "Colour: By category / By region"
 * (the "color-mode" property the timeline binds to), then one swatch and
 * label per category present or per region named, then one per pattern
 * whose lost time is in view, in its style (hatched or outlined). The
 * items are rebuilt when a list changes: a few dozen widgets at most.
 * Main thread.
 */
#include "config.h"

#include "sextant-timeline-layers-private.h"
#include "sextant-timeline-legend.h"

G_DEFINE_ENUM_TYPE (SextantTimelineColorMode, sextant_timeline_color_mode,
                    G_DEFINE_ENUM_VALUE (SEXTANT_TIMELINE_COLOR_BY_CATEGORY, "category"),
                    G_DEFINE_ENUM_VALUE (SEXTANT_TIMELINE_COLOR_BY_REGION, "region"))

struct _SextantTimelineLegend
{
  GtkWidget   parent_instance;

  GtkWidget  *mode;         /* GtkDropDown */
  GtkWidget  *scroller;
  GtkWidget  *items;        /* GtkBox of swatch + label boxes */

  SextantTimelineColorMode color_mode;
  guint       categories;   /* bit per category present */
  GPtrArray  *regions;      /* of char *, the names */
  GArray     *region_categories;   /* guint, one per name */
  GStrv       patterns;
  GStrv       titles;       /* the patterns', or NULL */
  guint       n_swatches;
};

enum
{
  PROP_0,
  PROP_COLOR_MODE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SextantTimelineLegend, sextant_timeline_legend, GTK_TYPE_WIDGET)

static const char * const category_labels[SEXTANT_N_CATEGORIES] = {
  [SEXTANT_CATEGORY_MPI] = "MPI",
  [SEXTANT_CATEGORY_RMA] = "One-sided",
  [SEXTANT_CATEGORY_USER] = "User code",
  [SEXTANT_CATEGORY_OMP] = "OpenMP",
  [SEXTANT_CATEGORY_THREAD] = "Threads",
  [SEXTANT_CATEGORY_IO] = "I/O",
  [SEXTANT_CATEGORY_ACCEL] = "Accelerator",
  [SEXTANT_CATEGORY_OTHER] = "Other",
};

typedef struct
{
  GdkRGBA  color;
  gboolean lost;      /* a pattern's style */
  gboolean hatched;
} Swatch;

#define SWATCH_WIDTH 16
#define SWATCH_HEIGHT 12

/* A swatch as the timeline draws it: a colour, or lost time (stripes on
 * a light wash, or an outline) over a pale grey standing for a row */
static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  const Swatch *s = user_data;

  if (!s->lost)
    {
      gdk_cairo_set_source_rgba (cr, &s->color);
      cairo_rectangle (cr, 0, 0, width, height);
      cairo_fill (cr);
      return;
    }
  cairo_set_source_rgb (cr, 0.85, 0.85, 0.85);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  if (s->hatched)
    {
      cairo_set_source_rgba (cr, 1, 1, 1, 0.55);
      cairo_rectangle (cr, 0, 0, width, height);
      cairo_fill (cr);
      cairo_save (cr);
      cairo_rectangle (cr, 0, 0, width, height);
      cairo_clip (cr);
      gdk_cairo_set_source_rgba (cr, &s->color);
      cairo_set_line_width (cr, 2);
      for (int x = -height; x < width + height; x += 4)
        {
          cairo_move_to (cr, x, 0);
          cairo_line_to (cr, x - height, height);
        }
      cairo_stroke (cr);
      cairo_restore (cr);
    }
  else
    {
      gdk_cairo_set_source_rgba (cr, &s->color);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, 1, 1, width - 2, height - 2);
      cairo_stroke (cr);
    }
}

static void
add_item (SextantTimelineLegend *self,
          const Swatch          *swatch,
          const char            *label,
          const char            *tooltip)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *area = gtk_drawing_area_new ();
  GtkWidget *text = gtk_label_new (label);

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (area), SWATCH_WIDTH);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), SWATCH_HEIGHT);
  gtk_widget_set_valign (area, GTK_ALIGN_CENTER);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_swatch, g_memdup2 (swatch, sizeof *swatch), g_free);
  /* whole, however long (the strip scrolls sideways when they do not
   * fit): an ellipsized label's minimum is width-chars average characters,
   * which showed "OpenMP" as "Op…MP" */
  gtk_widget_add_css_class (text, "caption");
  gtk_box_append (GTK_BOX (box), area);
  gtk_box_append (GTK_BOX (box), text);
  gtk_widget_set_tooltip_text (box, tooltip != NULL ? tooltip : label);
  gtk_box_append (GTK_BOX (self->items), box);
  self->n_swatches++;
}

static void
rebuild (SextantTimelineLegend *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->items)) != NULL)
    gtk_box_remove (GTK_BOX (self->items), child);
  self->n_swatches = 0;

  if (self->color_mode == SEXTANT_TIMELINE_COLOR_BY_CATEGORY)
    {
      for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
        if (self->categories & (1u << c))
          {
            Swatch s = { *sextant_timeline_category_color (c), FALSE, FALSE };

            add_item (self, &s, category_labels[c], NULL);
          }
    }
  else
    {
      for (guint i = 0; i < MIN (self->regions->len, SEXTANT_TIMELINE_LEGEND_MAX_REGIONS); i++)
        {
          Swatch s = { { 0 }, FALSE, FALSE };
          const char *name = g_ptr_array_index (self->regions, i);

          sextant_timeline_region_color (name, g_array_index (self->region_categories, guint, i), &s.color);
          add_item (self, &s, name, NULL);
        }
    }
  if (self->patterns != NULL && self->patterns[0] != NULL)
    {
      GtkWidget *sep = gtk_separator_new (GTK_ORIENTATION_VERTICAL);

      gtk_box_append (GTK_BOX (self->items), sep);
      for (guint i = 0; self->patterns[i] != NULL; i++)
        {
          Swatch s = { { 0 }, TRUE, FALSE };
          g_autofree char *tooltip = NULL;

          const char *title = self->titles != NULL && self->titles[i] != NULL ? self->titles[i] : self->patterns[i];

          sextant_timeline_lost_style (self->patterns[i], &s.color, &s.hatched);
          tooltip = g_strdup_printf ("Time lost to %s (%s; %s)", title, self->patterns[i],
                                     s.hatched ? "a wait state: hatched" : "outlined");
          add_item (self, &s, title, tooltip);
        }
    }
}

static void
mode_selected_cb (SextantTimelineLegend *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->mode));

  sextant_timeline_legend_set_color_mode (self, selected == 1 ? SEXTANT_TIMELINE_COLOR_BY_REGION
                                                              : SEXTANT_TIMELINE_COLOR_BY_CATEGORY);
}

static void
sextant_timeline_legend_dispose (GObject *object)
{
  SextantTimelineLegend *self = SEXTANT_TIMELINE_LEGEND (object);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->mode = self->scroller = self->items = NULL;

  G_OBJECT_CLASS (sextant_timeline_legend_parent_class)->dispose (object);
}

static void
sextant_timeline_legend_finalize (GObject *object)
{
  SextantTimelineLegend *self = SEXTANT_TIMELINE_LEGEND (object);

  g_clear_pointer (&self->regions, g_ptr_array_unref);
  g_clear_pointer (&self->region_categories, g_array_unref);
  g_clear_pointer (&self->patterns, g_strfreev);
  g_clear_pointer (&self->titles, g_strfreev);

  G_OBJECT_CLASS (sextant_timeline_legend_parent_class)->finalize (object);
}

static void
sextant_timeline_legend_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  SextantTimelineLegend *self = SEXTANT_TIMELINE_LEGEND (object);

  switch (prop_id)
    {
    case PROP_COLOR_MODE:
      g_value_set_enum (value, self->color_mode);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_timeline_legend_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  SextantTimelineLegend *self = SEXTANT_TIMELINE_LEGEND (object);

  switch (prop_id)
    {
    case PROP_COLOR_MODE:
      sextant_timeline_legend_set_color_mode (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_timeline_legend_class_init (SextantTimelineLegendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sextant_timeline_legend_dispose;
  object_class->finalize = sextant_timeline_legend_finalize;
  object_class->get_property = sextant_timeline_legend_get_property;
  object_class->set_property = sextant_timeline_legend_set_property;

  /**
   * SextantTimelineLegend:color-mode:
   *
   * Whether the timeline colours its rows by category or by region: the
   * drop-down's choice; the legend's swatches follow it.
   */
  properties[PROP_COLOR_MODE] =
    g_param_spec_enum ("color-mode", NULL, NULL, SEXTANT_TYPE_TIMELINE_COLOR_MODE,
                       SEXTANT_TIMELINE_COLOR_BY_CATEGORY,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sextant-timeline-legend");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sextant_timeline_legend_init (SextantTimelineLegend *self)
{
  static const char * const modes[] = { "Colour by category", "Colour by region", NULL };

  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 12);
  self->regions = g_ptr_array_new_with_free_func (g_free);
  self->region_categories = g_array_new (FALSE, FALSE, sizeof (guint));

  self->mode = gtk_drop_down_new_from_strings ((const char **)modes);
  gtk_widget_set_valign (self->mode, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (self->mode, "Colour the rows by the category of their regions (MPI, user code, ...) "
                                           "or give each region a colour of its own");
  gtk_widget_set_parent (self->mode, GTK_WIDGET (self));
  g_signal_connect_swapped (self->mode, "notify::selected", G_CALLBACK (mode_selected_cb), self);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (self->scroller), TRUE);
  gtk_widget_set_hexpand (self->scroller, TRUE);
  self->items = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  gtk_widget_set_valign (self->items, GTK_ALIGN_CENTER);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->items);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
}

/**
 * sextant_timeline_legend_new:
 *
 * Returns: (transfer floating): a legend showing nothing yet, colour by
 *   category
 */
GtkWidget *
sextant_timeline_legend_new (void)
{
  return g_object_new (SEXTANT_TYPE_TIMELINE_LEGEND, NULL);
}

/**
 * sextant_timeline_legend_set_categories:
 * @categories: bit (1 << SEXTANT_CATEGORY_*) per category present in the
 *   trace (or the view)
 *
 * The categories whose swatches the "By category" mode shows.
 */
void
sextant_timeline_legend_set_categories (SextantTimelineLegend *self,
                                        guint                  categories)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE_LEGEND (self));

  categories &= (1u << SEXTANT_N_CATEGORIES) - 1;
  if (self->categories == categories)
    return;
  self->categories = categories;
  rebuild (self);
}

/**
 * sextant_timeline_legend_set_regions:
 * @names: (element-type utf8) (nullable): the regions to show in the "By
 *   region" mode, most time first (the first
 *   %SEXTANT_TIMELINE_LEGEND_MAX_REGIONS are shown); copied
 * @categories: (array) (nullable): each name's category (for MPI's shades
 *   of red), @names->len of them; %NULL: by the names alone
 */
void
sextant_timeline_legend_set_regions (SextantTimelineLegend *self,
                                     GPtrArray             *names,
                                     const guint           *categories)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE_LEGEND (self));

  g_ptr_array_set_size (self->regions, 0);
  g_array_set_size (self->region_categories, 0);
  for (guint i = 0; names != NULL && i < names->len; i++)
    {
      guint category = categories != NULL ? categories[i] : SEXTANT_CATEGORY_OTHER;

      g_ptr_array_add (self->regions, g_strdup (g_ptr_array_index (names, i)));
      g_array_append_val (self->region_categories, category);
    }
  if (self->color_mode == SEXTANT_TIMELINE_COLOR_BY_REGION)
    rebuild (self);
}

/**
 * sextant_timeline_legend_set_patterns:
 * @patterns: (array zero-terminated=1) (nullable): the ids of the patterns
 *   whose lost time the timeline shows ("late_sender", ...); copied
 * @titles: (array zero-terminated=1) (nullable): their titles, shown
 *   ("Late Sender", ...; the ids where NULL); copied
 */
void
sextant_timeline_legend_set_patterns (SextantTimelineLegend *self,
                                      const char * const    *patterns,
                                      const char * const    *titles)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE_LEGEND (self));
  g_return_if_fail (titles == NULL || patterns == NULL || g_strv_length ((char **)titles) == g_strv_length ((char **)patterns));

  if (patterns != NULL && self->patterns != NULL && g_strv_equal (patterns, (const char * const *)self->patterns)
      && (titles == NULL) == (self->titles == NULL)
      && (titles == NULL || g_strv_equal (titles, (const char * const *)self->titles)))
    return;
  g_clear_pointer (&self->patterns, g_strfreev);
  g_clear_pointer (&self->titles, g_strfreev);
  self->patterns = g_strdupv ((char **)patterns);
  self->titles = g_strdupv ((char **)titles);
  rebuild (self);
}

SextantTimelineColorMode
sextant_timeline_legend_get_color_mode (SextantTimelineLegend *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE_LEGEND (self), SEXTANT_TIMELINE_COLOR_BY_CATEGORY);

  return self->color_mode;
}

void
sextant_timeline_legend_set_color_mode (SextantTimelineLegend    *self,
                                        SextantTimelineColorMode  mode)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE_LEGEND (self));
  g_return_if_fail (mode == SEXTANT_TIMELINE_COLOR_BY_CATEGORY || mode == SEXTANT_TIMELINE_COLOR_BY_REGION);

  if (self->color_mode == mode)
    return;
  self->color_mode = mode;
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->mode)) != (guint)mode)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (self->mode), (guint)mode);
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_MODE]);
}

guint
sextant_timeline_legend_get_n_swatches (SextantTimelineLegend *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE_LEGEND (self), 0);

  return self->n_swatches;
}
