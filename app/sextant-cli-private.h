/*
 * sextant-cli-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the subcommands in other files (sextant-cli-tree.c) share with
 * sextant-cli.c: option parsing with the usage exit status, the runtime
 * error exit, and opening a DB or importing an ARCHIVE first.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "sextant-store.h"
#include "sextant-torus-sim.h"

G_BEGIN_DECLS

#define SEXTANT_CLI_EXIT_USAGE 2

/* Prints "sextant: MESSAGE" and the command's help; returns 2. */
int           _sextant_cli_usage_error    (GOptionContext  *context,
                                           const char      *message);
/* Prints "sextant: ERROR"; returns 1. */
int           _sextant_cli_runtime_error  (const GError    *error);
/* Parses the options; on a usage error prints it, sets *status, FALSE. */
gboolean      _sextant_cli_parse          (GOptionContext  *context,
                                           int             *argc,
                                           char          ***argv,
                                           int             *status);
/* Opens @path as a store, or imports it first if it is an archive. */
SextantStore *_sextant_cli_open_or_import (const char      *path,
                                           char           **db_path,
                                           GError         **error);

/* Adds "otf2_location" beside every "location" of @json (tree, matrix). */
gboolean      _sextant_cli_add_otf2_locations (SextantStore  *store,
                                               JsonNode      *json,
                                               GError       **error);

/* The torus model's parameter options (sextant-cli-sim.c) */
typedef struct
{
  SextantTorusParams params;
  gint               router_cycles;
  gint               combine_cycles;
} SextantCliTorusParams;

void          _sextant_cli_add_torus_params (GOptionContext              *context,
                                             SextantCliTorusParams       *model);
gboolean      _sextant_cli_get_torus_params (const SextantCliTorusParams *model,
                                             SextantTorusParams          *params,
                                             const char                 **bad);
/* `sextant sim replay STORE --dims ...` (sextant-cli-replay.c) */
int           _sextant_cli_sim_replay     (int              argc,
                                           char           **argv);
/* `sextant info DB --collectives [--json]` (sextant-cli-tree.c) */
int           _sextant_cli_print_collectives (SextantStore *store,
                                              const char   *db_path,
                                              gboolean      as_json);

G_END_DECLS
