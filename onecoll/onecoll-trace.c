/*
 * onecoll-trace.c - the hook table and the names of onecoll's regions.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table is written only while the runtime is stopped and read by every
 * onecoll thread afterwards; thread creation in onecoll_init() orders the
 * write before the Broadcaster's reads, so no atomics are needed.
 */
#include "onecoll-private.h"

#include <stddef.h>

onecoll_trace_hooks onecoll__hooks;

static const char *const region_names[ONECOLL_REGION_LAST + 1] = {
  [ONECOLL_REGION_INIT] = "init",
  [ONECOLL_REGION_FINALIZE] = "finalize",
  [ONECOLL_REGION_WIN_CREATE] = "win_create",
  [ONECOLL_REGION_WIN_FREE] = "win_free",
  [ONECOLL_REGION_BCAST] = "bcast",
  [ONECOLL_REGION_WAIT_RELEASE] = "wait_release",
  [ONECOLL_REGION_PUT_LOOP] = "put_loop",
  [ONECOLL_REGION_PUT_REQUEST] = "put_request",
  [ONECOLL_REGION_BROADCASTER_POLL] = "broadcaster_poll",
  [ONECOLL_REGION_BROADCASTER_RELAY] = "broadcaster_relay",
  [ONECOLL_REGION_FLUSH] = "flush",
  [ONECOLL_REGION_TEST] = "test",
  [ONECOLL_REGION_HELP_RELAY] = "help_relay",
  [ONECOLL_REGION_REDUCE] = "reduce",
  [ONECOLL_REGION_ALLREDUCE] = "allreduce",
  [ONECOLL_REGION_RED_PREPARE] = "red_prepare",
  [ONECOLL_REGION_RED_HALVING] = "red_halving",
  [ONECOLL_REGION_RED_DOUBLING] = "red_doubling",
  [ONECOLL_REGION_RED_GATHER] = "red_gather",
  [ONECOLL_REGION_RED_DISTRIBUTE] = "red_distribute",
  [ONECOLL_REGION_RED_TREE] = "red_tree",
  [ONECOLL_REGION_RED_TREE_BCAST] = "red_tree_bcast",
};

int
onecoll_set_trace_hooks (const onecoll_trace_hooks *hooks)
{
  static const onecoll_trace_hooks none;

  if (onecoll__rt != NULL)
    return ONECOLL_ERR_BUSY;
  onecoll__hooks = hooks != NULL ? *hooks : none;
  return ONECOLL_OK;
}

const char *
onecoll_region_name (int region)
{
  if (region < 1 || region > ONECOLL_REGION_LAST)
    return NULL;
  return region_names[region];
}
