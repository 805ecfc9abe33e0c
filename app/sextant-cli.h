/*
 * sextant-cli.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The `sextant` subcommands. Each takes the argument vector starting at the
 * subcommand's name and returns the process exit status.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int sextant_cli_import (int    argc,
                        char **argv);
int sextant_cli_info   (int    argc,
                        char **argv);
int sextant_cli_analyze (int    argc,
                         char **argv);
int sextant_cli_report  (int    argc,
                         char **argv);
int sextant_cli_tree    (int    argc,
                         char **argv);
int sextant_cli_matrix  (int    argc,
                         char **argv);
int sextant_cli_sim     (int    argc,
                         char **argv);

G_END_DECLS
