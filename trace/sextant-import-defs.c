/*
 * sextant-import-defs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The import's global definitions: libotf2's global definition reader
 * calls these, one per definition record (strings, system tree, location
 * groups and locations, regions, call paths and call sites, groups and
 * communicators, RMA windows, metrics, attributes, parameters, ...); each
 * is written to the store's definition tables and kept where the event
 * decoders need it (sextant-import-private.h). A definition given twice
 * keeps the first (logged), one the store cannot take fails the import;
 * kinds Sextant does not keep are counted.
 *
 * Most kinds are one row of one table: those come from one table,
 * STORED_DEFS (and the kinds only counted from COUNTED_DEFS), which makes
 * each one's callback and sets it on the reader. The others (a string, a
 * location, a region, a group and its members, a communicator, a metric
 * member or class) keep more than a row, or store more than one, and are
 * written out.
 */
#include "config.h"

#include <string.h>

#include "sextant-import-private.h"

#define COUNT_DEF(import, KIND) ((import)->def_counts[SEXTANT_DEF_##KIND]++)

/* After a definition's row could not be stored (@error set): a definition
 * given twice keeps the first, logged, and the import goes on
 * (OTF2_CALLBACK_SUCCESS, @error cleared); any other error fails it. */
static OTF2_CallbackCode
def_not_stored (SextantImport  *import,
                GError        **error)
{
  if (g_error_matches (*error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_DUPLICATE))
    {
      _sextant_import_log (import, "duplicate_definition", SEXTANT_NULL, SEXTANT_NULL,
                           "a definition is given twice; the first one is kept (%s)",
                           (*error)->message);
      g_clear_error (error);
      return OTF2_CALLBACK_SUCCESS;
    }

  return _sextant_import_fail (import, g_steal_pointer (error));
}

/* Rows of the definitions of one row each (strings, location groups,
 * system tree nodes, ...: 4096 of a kind at 4096 locations, and every rank
 * of a parallel import writes them all) wait here, per statement, and go
 * many to an INSERT (sextant_store_run_rows()): one statement a row cost
 * SQLite 3 to 4 times what the row does. A statement's rows wait until
 * DEF_ROWS_MAX of them do, a callback that writes its own rows comes, or
 * the definitions end (writers interleave kinds: a location group's name
 * is defined just before it). */
#define DEF_ROWS_MAX 1024

typedef struct
{
  const char  *types;     /* static: the callbacks' literals */
  guint        n_rows;
  GArray      *values;    /* SextantStoreValue, n_rows x strlen (types) */
  GPtrArray   *texts;     /* the copies the 't' values point to */
} DefRows;

typedef struct _SextantDefRows
{
  DefRows  by_stmt[SEXTANT_N_STMTS];
} SextantDefRows;

void
_sextant_import_free_def_rows (SextantImport *import)
{
  SextantDefRows *rows = g_steal_pointer (&import->def_rows);

  for (guint i = 0; rows != NULL && i < SEXTANT_N_STMTS; i++)
    {
      g_clear_pointer (&rows->by_stmt[i].values, g_array_unref);
      g_clear_pointer (&rows->by_stmt[i].texts, g_ptr_array_unref);
    }
  g_free (rows);
}

/* @stmt's waiting rows into the store: whole statements of many rows,
 * where a row given before (its id) is skipped and logged, then the rest
 * one a statement, as every row went before: the first definition is kept
 * and the second logged. */
static OTF2_CallbackCode
flush_stmt_rows (SextantImport    *import,
                 SextantStoreStmt  stmt)
{
  DefRows *rows = &import->def_rows->by_stmt[stmt];
  guint n_cols = (guint)strlen (rows->types);
  guint n_rows = rows->n_rows;
  guint n_many = n_rows - n_rows % SEXTANT_STORE_ROWS_PER_INSERT;
  guint n_skipped = 0;
  OTF2_CallbackCode code = OTF2_CALLBACK_SUCCESS;
  GError *error = NULL;

  rows->n_rows = 0;
  if (!sextant_store_run_rows_keep_first (import->store, stmt, rows->types,
                                          &g_array_index (rows->values, SextantStoreValue, 0), n_many,
                                          &n_skipped, &error))
    code = _sextant_import_fail (import, error);
  if (n_skipped > 0)
    {
      const char *table = _sextant_store_stmt_sql[stmt] + strlen ("INSERT INTO ");

      _sextant_import_log_n (import, "duplicate_definition", SEXTANT_NULL, SEXTANT_NULL, n_skipped,
                             "a definition is given twice; the first one is kept (a row of %.*s)",
                             (int)strcspn (table, " ("), table);
    }
  for (guint r = n_many; r < n_rows && code == OTF2_CALLBACK_SUCCESS; r++)
    if (!sextant_store_run_rows (import->store, stmt, rows->types,
                                 &g_array_index (rows->values, SextantStoreValue, r * n_cols), 1, &error))
      code = def_not_stored (import, &error);
  g_array_set_size (rows->values, 0);
  g_ptr_array_set_size (rows->texts, 0);

  return code;
}

/* Every statement's waiting rows into the store */
static OTF2_CallbackCode
flush_def_rows (SextantImport *import)
{
  for (guint i = 0; import->def_rows != NULL && i < SEXTANT_N_STMTS; i++)
    if (import->def_rows->by_stmt[i].n_rows > 0 &&
        flush_stmt_rows (import, (SextantStoreStmt)i) != OTF2_CALLBACK_SUCCESS)
      return OTF2_CALLBACK_INTERRUPT;

  return OTF2_CALLBACK_SUCCESS;
}

/* The rows still waiting when the definitions end; a failure is the
 * import's (import->error), as in a callback */
void
_sextant_import_flush_def_rows (SextantImport *import)
{
  flush_def_rows (import);
  _sextant_import_free_def_rows (import);
}

/* A row of @stmt, its values as sextant_store_run() takes them, to be
 * written with the others of its statement (flush_stmt_rows()). */
static OTF2_CallbackCode
def_row (SextantImport    *import,
         SextantStoreStmt  stmt,
         const char       *types,
         ...)
{
  DefRows *rows;
  va_list args;

  if (import->def_rows == NULL)
    import->def_rows = g_new0 (SextantDefRows, 1);
  rows = &import->def_rows->by_stmt[stmt];
  if (rows->values == NULL)
    {
      rows->values = g_array_new (FALSE, FALSE, sizeof (SextantStoreValue));
      rows->texts = g_ptr_array_new_with_free_func (g_free);
    }
  rows->types = types;

  va_start (args, types);
  for (const char *t = types; *t != '\0'; t++)
    {
      SextantStoreValue value;

      switch (*t)
        {
        case 'i':
        case 'n':
          value.i = va_arg (args, gint64);
          break;

        case 't':
          value.t = g_strdup (va_arg (args, const char *));
          if (value.t != NULL)
            g_ptr_array_add (rows->texts, (gpointer)value.t);
          break;

        case 'd':
          value.d = va_arg (args, double);
          break;

        default:
          g_assert_not_reached ();
        }
      g_array_append_val (rows->values, value);
    }
  va_end (args);

  return ++rows->n_rows < DEF_ROWS_MAX ? OTF2_CALLBACK_SUCCESS : flush_stmt_rows (import, stmt);
}

/* The store holds UTF-8 only (the window, JSON and the reports show its
 * strings): a damaged string gets U+FFFD for its invalid bytes, logged. */
char *
_sextant_import_valid_utf8 (SextantImport *import,
                            const char    *string,
                            const char    *what)
{
  if (string == NULL)
    return NULL;
  if (G_LIKELY (g_utf8_validate (string, -1, NULL)))
    return g_strdup (string);

  _sextant_import_log (import, "invalid_utf8", SEXTANT_NULL, SEXTANT_NULL,
                       "a %s is not valid UTF-8; its invalid bytes are shown as U+FFFD", what);
  return g_utf8_make_valid (string, -1);
}

static const char *
otf2_type_name (OTF2_Type type)
{
  switch (type)
    {
    case OTF2_TYPE_NONE: return "NONE";
    case OTF2_TYPE_UINT8: return "UINT8";
    case OTF2_TYPE_UINT16: return "UINT16";
    case OTF2_TYPE_UINT32: return "UINT32";
    case OTF2_TYPE_UINT64: return "UINT64";
    case OTF2_TYPE_INT8: return "INT8";
    case OTF2_TYPE_INT16: return "INT16";
    case OTF2_TYPE_INT32: return "INT32";
    case OTF2_TYPE_INT64: return "INT64";
    case OTF2_TYPE_FLOAT: return "FLOAT";
    case OTF2_TYPE_DOUBLE: return "DOUBLE";
    case OTF2_TYPE_STRING: return "STRING";
    case OTF2_TYPE_ATTRIBUTE: return "ATTRIBUTE";
    case OTF2_TYPE_LOCATION: return "LOCATION";
    case OTF2_TYPE_REGION: return "REGION";
    case OTF2_TYPE_GROUP: return "GROUP";
    case OTF2_TYPE_METRIC: return "METRIC";
    case OTF2_TYPE_COMM: return "COMM";
    case OTF2_TYPE_PARAMETER: return "PARAMETER";
    case OTF2_TYPE_RMA_WIN: return "RMA_WIN";
    case OTF2_TYPE_SOURCE_CODE_LOCATION: return "SOURCE_CODE_LOCATION";
    case OTF2_TYPE_CALLING_CONTEXT: return "CALLING_CONTEXT";
    case OTF2_TYPE_INTERRUPT_GENERATOR: return "INTERRUPT_GENERATOR";
    case OTF2_TYPE_IO_FILE: return "IO_FILE";
    case OTF2_TYPE_IO_HANDLE: return "IO_HANDLE";
    case OTF2_TYPE_LOCATION_GROUP: return "LOCATION_GROUP";
    default: return "UNKNOWN";
    }
}

/* A property value as text, for the property tables. */
static char *
attribute_value_string (SextantImport       *import,
                        OTF2_Type            type,
                        OTF2_AttributeValue  value)
{
  switch (type)
    {
    case OTF2_TYPE_STRING:
      return g_strdup (_sextant_import_string (import, value.stringRef));
    case OTF2_TYPE_UINT8: return g_strdup_printf ("%u", value.uint8);
    case OTF2_TYPE_UINT16: return g_strdup_printf ("%u", value.uint16);
    case OTF2_TYPE_UINT32: return g_strdup_printf ("%u", value.uint32);
    case OTF2_TYPE_UINT64: return g_strdup_printf ("%" G_GUINT64_FORMAT, value.uint64);
    case OTF2_TYPE_INT8: return g_strdup_printf ("%d", value.int8);
    case OTF2_TYPE_INT16: return g_strdup_printf ("%d", value.int16);
    case OTF2_TYPE_INT32: return g_strdup_printf ("%d", value.int32);
    case OTF2_TYPE_INT64: return g_strdup_printf ("%" G_GINT64_FORMAT, value.int64);
    case OTF2_TYPE_FLOAT: return g_strdup_printf ("%g", value.float32);
    case OTF2_TYPE_DOUBLE: return g_strdup_printf ("%g", value.float64);
    default: return g_strdup_printf ("%" G_GUINT64_FORMAT, value.uint64);
    }
}

static const char *
system_tree_domain_name (OTF2_SystemTreeDomain domain)
{
  static const char * const names[] = { "MACHINE", "SHARED_MEMORY", "NUMA", "SOCKET", "CACHE", "CORE", "PU" };

  return domain < G_N_ELEMENTS (names) ? names[domain] : "UNKNOWN";
}

/* Sextant's recorder names a non-blocking collective's communicator at its
 * request with an attribute of type COMM (sextant-location-decoder-mpi.c) */
static void
keep_attribute (SextantImport *import,
                OTF2_Type      type)
{
  if (type == OTF2_TYPE_COMM)
    import->nbc_comm_attribute = TRUE;
}

/* for the names of call paths through calling contexts: "file.c:12" */
static void
keep_source_code_location (SextantImport              *import,
                           OTF2_SourceCodeLocationRef  self,
                           OTF2_StringRef              file,
                           uint32_t                    line)
{
  const char *path = _sextant_import_string (import, file);
  g_autofree char *base = path != NULL ? g_path_get_basename (path) : NULL;

  if (base != NULL)
    g_hash_table_replace (import->scl_names, GUINT_TO_POINTER (self), g_strdup_printf ("%s:%u", base, line));
}

static void
keep_calling_context (SextantImport              *import,
                      OTF2_CallingContextRef      self,
                      OTF2_RegionRef              region,
                      OTF2_SourceCodeLocationRef  scl,
                      OTF2_CallingContextRef      parent)
{
  SextantContextDef *def = g_new (SextantContextDef, 1);

  *def = (SextantContextDef) { region, scl, parent };
  g_hash_table_replace (import->contexts, GUINT_TO_POINTER (self), def);
}

/* The kinds that are one row of one table, a row each:
 *
 *   DEF (Name, KIND, statement, its parameters' types,
 *        (the callback's parameters), what the import keeps of it first,
 *        the statement's values ...)
 *
 * Name is OTF2's (OTF2_GlobalDefReaderCallback_Name, the setter
 * OTF2_GlobalDefReaderCallbacks_SetNameCallback), the callback def_Name;
 * KIND is what def_counts counts. In a row, `import` is the import and
 * `text` a string the callback frees (a property's value as text).
 * Properties of locations keep the location's OTF2 id: the dense index is
 * given only after all definitions, and readers join on location.otf2_id
 * (docs/schema.md). */
#define STRING_OF(ref) _sextant_import_string (import, (ref))
#define REF_OR_NULL(ref, KIND) _sextant_ref_or_null ((ref), OTF2_UNDEFINED_##KIND)
#define KEEP_NOTHING ((void)0)

#define STORED_DEFS(DEF) \
  DEF (Paradigm, PARADIGM, SEXTANT_STMT_PARADIGM, "itt", \
       (OTF2_Paradigm paradigm, OTF2_StringRef name, OTF2_ParadigmClass klass), KEEP_NOTHING, \
       (gint64)paradigm, STRING_OF (name), sextant_otf2_paradigm_class_name (klass)) \
  DEF (Attribute, ATTRIBUTE, SEXTANT_STMT_ATTRIBUTE, "ittt", \
       (OTF2_AttributeRef self, OTF2_StringRef name, OTF2_StringRef description, OTF2_Type type), \
       keep_attribute (import, type), \
       (gint64)self, STRING_OF (name), STRING_OF (description), otf2_type_name (type)) \
  DEF (SystemTreeNode, SYSTEM_TREE_NODE, SEXTANT_STMT_SYSTEM_TREE_NODE, "ittn", \
       (OTF2_SystemTreeNodeRef self, OTF2_StringRef name, OTF2_StringRef class_name, \
        OTF2_SystemTreeNodeRef parent), KEEP_NOTHING, \
       (gint64)self, STRING_OF (name), STRING_OF (class_name), \
       REF_OR_NULL (parent, SYSTEM_TREE_NODE)) \
  DEF (LocationGroup, LOCATION_GROUP, SEXTANT_STMT_LOCATION_GROUP, "ittnn", \
       (OTF2_LocationGroupRef self, OTF2_StringRef name, OTF2_LocationGroupType type, \
        OTF2_SystemTreeNodeRef parent, OTF2_LocationGroupRef creator), KEEP_NOTHING, \
       (gint64)self, STRING_OF (name), sextant_otf2_location_group_type_name (type), \
       REF_OR_NULL (parent, SYSTEM_TREE_NODE), REF_OR_NULL (creator, LOCATION_GROUP)) \
  DEF (Callsite, CALLSITE, SEXTANT_STMT_CALLSITE, "itinn", \
       (OTF2_CallsiteRef self, OTF2_StringRef file, uint32_t line, OTF2_RegionRef entered, \
        OTF2_RegionRef left), KEEP_NOTHING, \
       (gint64)self, STRING_OF (file), (gint64)line, REF_OR_NULL (entered, REGION), \
       REF_OR_NULL (left, REGION)) \
  DEF (Callpath, CALLPATH, SEXTANT_STMT_CALLPATH, "inn", \
       (OTF2_CallpathRef self, OTF2_CallpathRef parent, OTF2_RegionRef region), KEEP_NOTHING, \
       (gint64)self, REF_OR_NULL (region, REGION), REF_OR_NULL (parent, CALLPATH)) \
  DEF (MetricInstance, METRIC_INSTANCE, SEXTANT_STMT_METRIC, "itiiitt", \
       (OTF2_MetricRef self, OTF2_MetricRef klass, OTF2_LocationRef recorder, \
        OTF2_MetricScope scope, uint64_t scope_ref), KEEP_NOTHING, \
       (gint64)self, "INSTANCE", (gint64)klass, (gint64)recorder, (gint64)0, NULL, NULL) \
  DEF (Parameter, PARAMETER, SEXTANT_STMT_PARAMETER, "itt", \
       (OTF2_ParameterRef self, OTF2_StringRef name, OTF2_ParameterType type), KEEP_NOTHING, \
       (gint64)self, STRING_OF (name), \
       type == OTF2_PARAMETER_TYPE_STRING ? "STRING" : \
       type == OTF2_PARAMETER_TYPE_INT64 ? "INT64" : "UINT64") \
  DEF (RmaWin, RMA_WIN, SEXTANT_STMT_RMA_WINDOW, "itni", \
       (OTF2_RmaWinRef self, OTF2_StringRef name, OTF2_CommRef comm, OTF2_RmaWinFlag flags), \
       KEEP_NOTHING, \
       (gint64)self, STRING_OF (name), REF_OR_NULL (comm, COMM), (gint64)flags) \
  DEF (SystemTreeNodeProperty, SYSTEM_TREE_NODE_PROPERTY, SEXTANT_STMT_SYSTEM_TREE_NODE_PROPERTY, \
       "itt", \
       (OTF2_SystemTreeNodeRef node, OTF2_StringRef name, OTF2_Type type, \
        OTF2_AttributeValue value), \
       text = attribute_value_string (import, type, value), \
       (gint64)node, STRING_OF (name), text) \
  DEF (SystemTreeNodeDomain, SYSTEM_TREE_NODE_DOMAIN, SEXTANT_STMT_SYSTEM_TREE_NODE_DOMAIN, "it", \
       (OTF2_SystemTreeNodeRef node, OTF2_SystemTreeDomain domain), KEEP_NOTHING, \
       (gint64)node, system_tree_domain_name (domain)) \
  DEF (LocationProperty, LOCATION_PROPERTY, SEXTANT_STMT_LOCATION_PROPERTY, "itt", \
       (OTF2_LocationRef location, OTF2_StringRef name, OTF2_Type type, \
        OTF2_AttributeValue value), \
       text = attribute_value_string (import, type, value), \
       (gint64)location, STRING_OF (name), text) \
  DEF (SourceCodeLocation, SOURCE_CODE_LOCATION, SEXTANT_STMT_SOURCE_CODE_LOCATION, "iti", \
       (OTF2_SourceCodeLocationRef self, OTF2_StringRef file, uint32_t line), \
       keep_source_code_location (import, self, file, line), \
       (gint64)self, STRING_OF (file), (gint64)line) \
  DEF (CallingContext, CALLING_CONTEXT, SEXTANT_STMT_CALLING_CONTEXT, "innn", \
       (OTF2_CallingContextRef self, OTF2_RegionRef region, OTF2_SourceCodeLocationRef scl, \
        OTF2_CallingContextRef parent), keep_calling_context (import, self, region, scl, parent), \
       (gint64)self, REF_OR_NULL (region, REGION), REF_OR_NULL (scl, SOURCE_CODE_LOCATION), \
       REF_OR_NULL (parent, CALLING_CONTEXT))

/* The kinds counted but not stored: nothing in Sextant reads them yet, and
 * they are small. DEF (Name, KIND, (the callback's parameters)) */
#define COUNTED_DEFS(DEF) \
  DEF (ParadigmProperty, PARADIGM_PROPERTY, \
       (OTF2_Paradigm p, OTF2_ParadigmProperty q, OTF2_Type t, OTF2_AttributeValue v)) \
  DEF (IoParadigm, IO_PARADIGM, \
       (OTF2_IoParadigmRef s, OTF2_StringRef i, OTF2_StringRef n, OTF2_IoParadigmClass c, \
        OTF2_IoParadigmFlag f, uint8_t np, const OTF2_IoParadigmProperty *p, const OTF2_Type *t, \
        const OTF2_AttributeValue *v)) \
  DEF (MetricClassRecorder, METRIC_CLASS_RECORDER, (OTF2_MetricRef m, OTF2_LocationRef r)) \
  DEF (LocationGroupProperty, LOCATION_GROUP_PROPERTY, \
       (OTF2_LocationGroupRef g, OTF2_StringRef n, OTF2_Type t, OTF2_AttributeValue v)) \
  DEF (CartDimension, CART_DIMENSION, \
       (OTF2_CartDimensionRef s, OTF2_StringRef n, uint32_t z, OTF2_CartPeriodicity p)) \
  DEF (CartTopology, CART_TOPOLOGY, \
       (OTF2_CartTopologyRef s, OTF2_StringRef n, OTF2_CommRef c, uint8_t nd, \
        const OTF2_CartDimensionRef *d)) \
  DEF (CartCoordinate, CART_COORDINATE, \
       (OTF2_CartTopologyRef t, uint32_t r, uint8_t nd, const uint32_t *c)) \
  DEF (CallingContextProperty, CALLING_CONTEXT_PROPERTY, \
       (OTF2_CallingContextRef c, OTF2_StringRef n, OTF2_Type t, OTF2_AttributeValue v)) \
  DEF (InterruptGenerator, INTERRUPT_GENERATOR, \
       (OTF2_InterruptGeneratorRef s, OTF2_StringRef n, OTF2_InterruptGeneratorMode m, \
        OTF2_Base b, int64_t e, uint64_t p)) \
  DEF (IoFileProperty, IO_FILE_PROPERTY, \
       (OTF2_IoFileRef f, OTF2_StringRef n, OTF2_Type t, OTF2_AttributeValue v)) \
  DEF (IoRegularFile, IO_REGULAR_FILE, \
       (OTF2_IoFileRef s, OTF2_StringRef n, OTF2_SystemTreeNodeRef c)) \
  DEF (IoDirectory, IO_DIRECTORY, \
       (OTF2_IoFileRef s, OTF2_StringRef n, OTF2_SystemTreeNodeRef c)) \
  DEF (IoHandle, IO_HANDLE, \
       (OTF2_IoHandleRef s, OTF2_StringRef n, OTF2_IoFileRef f, OTF2_IoParadigmRef p, \
        OTF2_IoHandleFlag fl, OTF2_CommRef c, OTF2_IoHandleRef pa)) \
  DEF (IoPreCreatedHandleState, IO_PRE_CREATED_HANDLE_STATE, \
       (OTF2_IoHandleRef h, OTF2_IoAccessMode m, OTF2_IoStatusFlag s)) \
  DEF (CallpathParameter, CALLPATH_PARAMETER, \
       (OTF2_CallpathRef c, OTF2_ParameterRef p, OTF2_Type t, OTF2_AttributeValue v)) \
  DEF (InterComm, INTER_COMM, \
       (OTF2_CommRef s, OTF2_StringRef n, OTF2_GroupRef a, OTF2_GroupRef b, OTF2_CommRef c, \
        OTF2_CommFlag f))

#define PARAMETERS(...) __VA_ARGS__

#define DEFINE_STORED(Name, KIND, stmt, types, parameters, keep, ...) \
  static OTF2_CallbackCode \
  def_##Name (void *user_data, PARAMETERS parameters) \
  { \
    SextantImport *import = user_data; \
    G_GNUC_UNUSED g_autofree char *text = NULL; \
    \
    COUNT_DEF (import, KIND); \
    keep; \
    return def_row (import, stmt, types, __VA_ARGS__); \
  }

#define DEFINE_COUNTED(Name, KIND, parameters) \
  static OTF2_CallbackCode \
  def_##Name (void *user_data, PARAMETERS parameters) \
  { \
    COUNT_DEF ((SextantImport *)user_data, KIND); \
    return OTF2_CALLBACK_SUCCESS; \
  }

STORED_DEFS (DEFINE_STORED)
COUNTED_DEFS (DEFINE_COUNTED)

static OTF2_CallbackCode
def_unknown (void *user_data)
{
  SextantImport *import = user_data;

  COUNT_DEF (import, UNKNOWN);
  _sextant_import_log (import, "unknown_definition", SEXTANT_NULL, SEXTANT_NULL,
                       "global definition of a kind this OTF2 library does not know; skipped");
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_clock_properties (void     *user_data,
                      uint64_t  resolution,
                      uint64_t  offset,
                      uint64_t  length,
                      uint64_t  realtime)
{
  SextantImport *import = user_data;

  COUNT_DEF (import, CLOCK_PROPERTIES);
  import->have_clock = TRUE;
  import->resolution = resolution;
  import->global_offset = offset;
  import->trace_length = length;

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_string (void           *user_data,
            OTF2_StringRef  self,
            const char     *string)
{
  SextantImport *import = user_data;
  char *valid = _sextant_import_valid_utf8 (import, string, "string definition");

  COUNT_DEF (import, STRING);
  g_hash_table_replace (import->strings, GUINT_TO_POINTER (self), valid);
  return def_row (import, SEXTANT_STMT_STRING, "it", (gint64)self, valid);
}

static OTF2_CallbackCode
def_location (void                  *user_data,
              OTF2_LocationRef       self,
              OTF2_StringRef         name,
              OTF2_LocationType      type,
              uint64_t               n_events,
              OTF2_LocationGroupRef  group)
{
  SextantImport *import = user_data;
  SextantLocationDef def;

  COUNT_DEF (import, LOCATION);

  /* the index of a location is given after all definitions
   * (store_locations()): until then the index marks the ids seen (a scan of
   * the locations here took 4096 x 4096 / 2 comparisons) */
  if (g_hash_table_contains (import->location_index, &(guint64){ self }))
    {
      _sextant_import_log (import, "duplicate_definition", SEXTANT_NULL, SEXTANT_NULL,
                           "location %" G_GUINT64_FORMAT " is defined twice; the first one is kept",
                           self);
      return OTF2_CALLBACK_SUCCESS;
    }
  g_hash_table_insert (import->location_index, g_memdup2 (&(guint64){ self }, sizeof (guint64)),
                       GINT_TO_POINTER (-1));

  def.otf2_id = self;
  def.name = g_strdup (_sextant_import_string (import, name));
  def.type = type;
  def.group = group;
  def.n_events = n_events;
  g_array_append_val (import->locations, def);
  import->events_expected += n_events;

  return OTF2_CALLBACK_SUCCESS;
}

static SextantCategory
region_category (const char      *name,
                 OTF2_RegionRole  role,
                 OTF2_Paradigm    paradigm)
{
  if (role == OTF2_REGION_ROLE_FILE_IO || role == OTF2_REGION_ROLE_FILE_IO_METADATA)
    return SEXTANT_CATEGORY_IO;

  switch (paradigm)
    {
    case OTF2_PARADIGM_MPI:
      if (role == OTF2_REGION_ROLE_RMA ||
          (name != NULL && (g_str_has_prefix (name, "MPI_Win") ||
                            g_str_has_prefix (name, "MPI_Put") ||
                            g_str_has_prefix (name, "MPI_Rput") ||
                            g_str_has_prefix (name, "MPI_Get") ||
                            g_str_has_prefix (name, "MPI_Rget") ||
                            g_str_has_prefix (name, "MPI_Accumulate") ||
                            g_str_has_prefix (name, "MPI_Raccumulate") ||
                            g_str_has_prefix (name, "MPI_Fetch_and_op") ||
                            g_str_has_prefix (name, "MPI_Compare_and_swap"))))
        return SEXTANT_CATEGORY_RMA;
      return SEXTANT_CATEGORY_MPI;

    case OTF2_PARADIGM_SHMEM:
    case OTF2_PARADIGM_GASPI:
    case OTF2_PARADIGM_UPC:
      return SEXTANT_CATEGORY_RMA;

    case OTF2_PARADIGM_OPENMP:
    case OTF2_PARADIGM_OMPSS:
      return SEXTANT_CATEGORY_OMP;

    case OTF2_PARADIGM_PTHREAD:
    case OTF2_PARADIGM_WINTHREAD:
    case OTF2_PARADIGM_QTTHREAD:
    case OTF2_PARADIGM_ACETHREAD:
    case OTF2_PARADIGM_TBBTHREAD:
    case OTF2_PARADIGM_MTAPI:
      return SEXTANT_CATEGORY_THREAD;

    case OTF2_PARADIGM_CUDA:
    case OTF2_PARADIGM_OPENCL:
    case OTF2_PARADIGM_OPENACC:
    case OTF2_PARADIGM_HIP:
    case OTF2_PARADIGM_HMPP:
    case OTF2_PARADIGM_KOKKOS:
      return SEXTANT_CATEGORY_ACCEL;

    case OTF2_PARADIGM_MEASUREMENT_SYSTEM:
      return SEXTANT_CATEGORY_OTHER;

    default:
      /* onecoll's own regions are the library's communication: its
       * reduce and allreduce point-to-point, the rest one-sided */
      if (sextant_region_is_onecoll_reduce (name))
        return SEXTANT_CATEGORY_MPI;
      if (name != NULL && g_str_has_prefix (name, "onecoll_"))
        return SEXTANT_CATEGORY_RMA;
      return SEXTANT_CATEGORY_USER;
    }
}

static OTF2_CallbackCode
def_region (void            *user_data,
            OTF2_RegionRef   self,
            OTF2_StringRef   name,
            OTF2_StringRef   canonical_name,
            OTF2_StringRef   description,
            OTF2_RegionRole  role,
            OTF2_Paradigm    paradigm,
            OTF2_RegionFlag  flags,
            OTF2_StringRef   file,
            uint32_t         begin_line,
            uint32_t         end_line)
{
  SextantImport *import = user_data;
  SextantRegionDef *def = g_new0 (SextantRegionDef, 1);
  const char *text = _sextant_import_string (import, name);
  GError *error = NULL;

  COUNT_DEF (import, REGION);

  /* the rows waiting go first: a definition given twice keeps the first */
  if (flush_def_rows (import) != OTF2_CALLBACK_SUCCESS)
    return OTF2_CALLBACK_INTERRUPT;

  def->name = g_strdup (text);
  def->role = role;
  def->paradigm = paradigm;
  def->category = region_category (text, role, paradigm);
  def->nonblocking_call = paradigm == OTF2_PARADIGM_MPI && text != NULL && g_str_has_prefix (text, "MPI_I");
  def->completion_call = paradigm == OTF2_PARADIGM_MPI && text != NULL &&
                         (g_str_has_prefix (text, "MPI_Wait") || g_str_has_prefix (text, "MPI_Test"));
  g_hash_table_replace (import->regions, GUINT_TO_POINTER (self), def);

  if (!sextant_store_run (import->store, SEXTANT_STMT_REGION, &error, "ittttttitnn",
                          (gint64)self, text, _sextant_import_string (import, canonical_name),
                          _sextant_import_string (import, description),
                          sextant_otf2_role_name (role), sextant_otf2_paradigm_name (paradigm),
                          sextant_category_names[def->category], (gint64)flags,
                          _sextant_import_string (import, file),
                          begin_line > 0 ? (gint64)begin_line : SEXTANT_NULL,
                          end_line > 0 ? (gint64)end_line : SEXTANT_NULL))
    return def_not_stored (import, &error);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_group (void            *user_data,
           OTF2_GroupRef    self,
           OTF2_StringRef   name,
           OTF2_GroupType   type,
           OTF2_Paradigm    paradigm,
           OTF2_GroupFlag   flags,
           uint32_t         n_members,
           const uint64_t  *members)
{
  SextantImport *import = user_data;
  SextantGroupDef *def;
  g_autofree SextantStoreValue *values = NULL;
  GError *error = NULL;

  COUNT_DEF (import, GROUP);

  /* the rows waiting go first: a definition given twice keeps the first */
  if (flush_def_rows (import) != OTF2_CALLBACK_SUCCESS)
    return OTF2_CALLBACK_INTERRUPT;

  if (g_hash_table_contains (import->groups, GUINT_TO_POINTER (self)))
    {
      _sextant_import_log (import, "duplicate_definition", SEXTANT_NULL, SEXTANT_NULL,
                           "group %u is defined twice; the first definition is kept", self);
      return OTF2_CALLBACK_SUCCESS;
    }

  def = g_new0 (SextantGroupDef, 1);
  def->type = type;
  def->paradigm = paradigm;
  def->members = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n_members);
  g_array_append_vals (def->members, members, n_members);
  g_hash_table_insert (import->groups, GUINT_TO_POINTER (self), def);

  if (!sextant_store_run (import->store, SEXTANT_STMT_GROUP, &error, "itttii",
                          (gint64)self, _sextant_import_string (import, name),
                          sextant_otf2_group_type_name (type), sextant_otf2_paradigm_name (paradigm),
                          (gint64)flags, (gint64)n_members))
    return _sextant_import_fail (import, error);

  /* many to an INSERT: a group of 4096 locations is 4096 rows */
  values = g_new (SextantStoreValue, 3 * (gsize)MAX (n_members, 1));
  for (guint32 i = 0; i < n_members; i++)
    {
      values[3 * i].i = self;
      values[3 * i + 1].i = i;
      values[3 * i + 2].i = (gint64)members[i];
    }
  if (!sextant_store_run_rows (import->store, SEXTANT_STMT_GROUP_MEMBER, "iii", values, n_members, &error))
    return _sextant_import_fail (import, error);

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_metric_member (void                 *user_data,
                   OTF2_MetricMemberRef  self,
                   OTF2_StringRef        name,
                   OTF2_StringRef        description,
                   OTF2_MetricType       metric_type,
                   OTF2_MetricMode       mode,
                   OTF2_Type             value_type,
                   OTF2_Base             base,
                   int64_t               exponent,
                   OTF2_StringRef        unit)
{
  SextantImport *import = user_data;
  g_autofree char *type_s = g_strdup_printf ("%u", metric_type);
  g_autofree char *mode_s = g_strdup_printf ("%u", mode);
  GError *error = NULL;

  COUNT_DEF (import, METRIC_MEMBER);

  /* the rows waiting go first: a definition given twice keeps the first */
  if (flush_def_rows (import) != OTF2_CALLBACK_SUCCESS)
    return OTF2_CALLBACK_INTERRUPT;
  if (!sextant_store_run (import->store, SEXTANT_STMT_METRIC_MEMBER, &error, "ittttttti",
                          (gint64)self, _sextant_import_string (import, name),
                          _sextant_import_string (import, description), type_s, mode_s,
                          otf2_type_name (value_type), _sextant_import_string (import, unit),
                          base == OTF2_BASE_BINARY ? "BINARY" : "DECIMAL", exponent))
    return def_not_stored (import, &error);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_metric_class (void                       *user_data,
                  OTF2_MetricRef              self,
                  uint8_t                     n_members,
                  const OTF2_MetricMemberRef *members,
                  OTF2_MetricOccurrence       occurrence,
                  OTF2_RecorderKind           recorder_kind)
{
  SextantImport *import = user_data;
  GError *error = NULL;
  g_autofree char *occurrence_s = g_strdup_printf ("%u", occurrence);
  g_autofree char *recorder_s = g_strdup_printf ("%u", recorder_kind);

  COUNT_DEF (import, METRIC_CLASS);

  /* the rows waiting go first: a definition given twice keeps the first */
  if (flush_def_rows (import) != OTF2_CALLBACK_SUCCESS)
    return OTF2_CALLBACK_INTERRUPT;
  if (!sextant_store_run (import->store, SEXTANT_STMT_METRIC, &error, "itnnitt",
                          (gint64)self, "CLASS", SEXTANT_NULL, SEXTANT_NULL,
                          (gint64)n_members, occurrence_s, recorder_s) &&
      def_not_stored (import, &error) != OTF2_CALLBACK_SUCCESS)
    return OTF2_CALLBACK_INTERRUPT;
  for (guint i = 0; i < n_members; i++)
    if (!sextant_store_run (import->store, SEXTANT_STMT_METRIC_CLASS_MEMBER, &error, "iii",
                            (gint64)self, (gint64)i, (gint64)members[i]))
      return _sextant_import_fail (import, error);

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_comm (void           *user_data,
          OTF2_CommRef    self,
          OTF2_StringRef  name,
          OTF2_GroupRef   group,
          OTF2_CommRef    parent,
          OTF2_CommFlag   flags)
{
  SextantImport *import = user_data;
  SextantGroupDef *group_def = g_hash_table_lookup (import->groups, GUINT_TO_POINTER (group));
  SextantCommDef *def;
  gboolean is_self;
  GError *error = NULL;

  COUNT_DEF (import, COMM);

  /* the rows waiting go first: a definition given twice keeps the first */
  if (flush_def_rows (import) != OTF2_CALLBACK_SUCCESS)
    return OTF2_CALLBACK_INTERRUPT;

  if (g_hash_table_contains (import->comms, GUINT_TO_POINTER (self)))
    {
      _sextant_import_log (import, "duplicate_definition", SEXTANT_NULL, SEXTANT_NULL,
                           "communicator %u is defined twice; the first definition is kept", self);
      return OTF2_CALLBACK_SUCCESS;
    }

  is_self = group_def != NULL && group_def->type == OTF2_GROUP_TYPE_COMM_SELF;
  def = g_new0 (SextantCommDef, 1);
  def->group = group;
  def->is_self = is_self;
  g_hash_table_insert (import->comms, GUINT_TO_POINTER (self), def);

  if (!sextant_store_run (import->store, SEXTANT_STMT_COMM, &error, "itnniii",
                          (gint64)self, _sextant_import_string (import, name),
                          _sextant_ref_or_null (group, OTF2_UNDEFINED_GROUP),
                          _sextant_ref_or_null (parent, OTF2_UNDEFINED_COMM), (gint64)is_self,
                          is_self ? (gint64)1 : group_def != NULL ? (gint64)group_def->members->len : 0,
                          (gint64)flags))
    return def_not_stored (import, &error);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_GlobalDefReaderCallbacks *
_sextant_import_global_def_callbacks_new (void)
{
  OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New ();

#define SET(Name, fn) OTF2_GlobalDefReaderCallbacks_Set##Name##Callback (cb, fn);
#define SET_ROW(Name, ...) SET (Name, def_##Name)
  STORED_DEFS (SET_ROW)
  COUNTED_DEFS (SET_ROW)
  SET (Unknown, def_unknown)
  SET (ClockProperties, def_clock_properties)
  SET (String, def_string)
  SET (Location, def_location)
  SET (Region, def_region)
  SET (Group, def_group)
  SET (MetricMember, def_metric_member)
  SET (MetricClass, def_metric_class)
  SET (Comm, def_comm)
#undef SET_ROW
#undef SET

  return cb;
}
