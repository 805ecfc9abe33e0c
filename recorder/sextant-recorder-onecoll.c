/*
 * sextant-recorder-onecoll.c - onecoll's own regions, through its hook table.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * onecoll (onecoll-trace.h) reports the regions of its code - broadcast,
 * put loop, each request, the Broadcaster's polling and relaying - to a
 * table of hooks. These hooks write them as ENTER/LEAVE of REGION
 * definitions named "onecoll_<region>" (paradigm USER, the file and line
 * of the first place the region was entered), each ENTER with the exact
 * source location as its call-site attribute. The Broadcaster thread
 * announces itself (thread_begin) and becomes a location named after it.
 *
 * The MPI calls onecoll makes while it polls (its Broadcaster's waiting for
 * requests, and the waits of the flush, test and wait-for-release regions)
 * are not recorded unless SEXTANT_RECORD_ONECOLL_POLLS=1: the polling loop
 * makes thousands of MPI_Get_accumulate/MPI_Win_flush calls per second, and
 * the region itself already shows the wait. A relay that an application
 * thread does inside such a wait (onecoll_broadcaster_relay, or the root's
 * onecoll_help_relay) is recorded like the Broadcaster's: its puts, flags
 * and counters are real communication, not polling.
 *
 * onecoll's shared-memory reader-writer locks (onecoll_rwlock_*) report
 * through a second table (onecoll_lock_hooks): each rdlock/wrlock call is a
 * region onecoll_rwlock_rdlock / onecoll_rwlock_wrlock whose ENTER carries
 * the application's call site, with a THREAD_ACQUIRE_LOCK (paradigm
 * PTHREAD, the per-client lock id and acquisition order onecoll gives)
 * per lock taken inside it, and THREAD_RELEASE_LOCK at the unlock. Thread
 * lock records, not RMA ones: the locks belong to no MPI window, and the
 * per-client ids make a reader conflict with the writer only (the
 * importer's lock table and lock_contention match THREAD locks by id).
 *
 * Compiled twice: with SEXTANT_ONECOLL_DIRECT into programs that link
 * onecoll statically (calls it directly), and without it into the preload
 * library and the plain recorder, which look onecoll up with dlsym() - found
 * when onecoll is a shared library or the program exports its symbols.
 */
#include "sextant-recorder-private.h"

#include "onecoll-trace.h"

#include <dlfcn.h>
#include <stdio.h>

typedef int (*set_hooks_fn) (const onecoll_trace_hooks *hooks);
typedef int (*set_lock_hooks_fn) (const onecoll_lock_hooks *hooks);
typedef const char *(*region_name_fn) (int region);

static set_hooks_fn set_hooks;
static set_lock_hooks_fn set_lock_hooks;
static _Atomic uint32_t lock_regions[3];                    /* by onecoll_lock_mode: id + 1 */
static region_name_fn region_name;
static int record_polls;
static _Atomic uint32_t regions[ONECOLL_REGION_LAST + 1];   /* local REGION id + 1 */

static int
is_relay (onecoll_region region)
{
  return region == ONECOLL_REGION_BROADCASTER_RELAY || region == ONECOLL_REGION_HELP_RELAY;
}

static int
is_poll (onecoll_region region)
{
  switch (region)
    {
    case ONECOLL_REGION_BROADCASTER_POLL:
    case ONECOLL_REGION_FLUSH:
    case ONECOLL_REGION_TEST:
    case ONECOLL_REGION_WAIT_RELEASE:
      return 1;
    default:
      return 0;
    }
}

/* The REGION of @region, defined at its first enter (@t, @ra: the enter's
 * thread and return address) with the file and first line of the onecoll
 * function that entered it, as libdw tells from @ra; without debug
 * information, onecoll's @file and @line. A region named like its function
 * (onecoll_bcast, onecoll_init, ...) is then the same definition as that
 * function's in calling contexts. */
static uint32_t
region_id (onecoll_region   region,
           sextant__thread *t,
           void            *ra,
           const char      *file,
           int              line)
{
  uint32_t id = atomic_load_explicit (&regions[region], memory_order_acquire);
  uint32_t begin = line > 0 ? (uint32_t) line : 0;
  const char *name;
  char full[64];
  char path[4096];

  if (SEXTANT__LIKELY (id != 0))
    return id - 1;
  name = region_name != NULL ? region_name (region) : NULL;
  snprintf (full, sizeof full, "onecoll_%s", name != NULL ? name : "unknown");
  if (t != NULL && ra != NULL && sextant__callsite_function (t, ra, path, sizeof path, &begin) == 0)
    file = path;
  id = sextant__define_region (full, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, file, begin);
  if (id != SEXTANT__UNDEF)
    atomic_store_explicit (&regions[region], id + 1, memory_order_release);
  return id;
}

static void
hook_enter (void                     *user_data,
            onecoll_region            region,
            const onecoll_trace_info *info,
            const char               *file,
            int                       line)
{
  sextant__thread *t = sextant__self ();
  void *ra = __builtin_return_address (0);
  uint32_t id, scl;

  if (t == NULL || region < 1 || region > ONECOLL_REGION_LAST)
    return;
  /* our return address is on onecoll's ENTER line: its debug information
   * has the absolute name of the file that __FILE__ names relatively */
  scl = sextant__scl_cached (t, file, line, ra);
  id = region_id (region, t, ra, file, line);
  if (scl != SEXTANT__UNDEF)
    OTF2_AttributeList_AddSourceCodeLocationRef (t->attrs, SEXTANT__ATTR_CALLSITE, scl);
  /* which broadcast, so that an analysis can match the regions of one
   * broadcast across ranks and threads */
  if (info != NULL && info->seq > 0)
    {
      OTF2_AttributeList_AddUint64 (t->attrs, SEXTANT__ATTR_ONECOLL_WIN, info->win);
      OTF2_AttributeList_AddUint64 (t->attrs, SEXTANT__ATTR_ONECOLL_SEQ, info->seq);
      if (info->root >= 0)
        OTF2_AttributeList_AddInt32 (t->attrs, SEXTANT__ATTR_ONECOLL_ROOT, info->root);
      if (info->peer >= 0)
        OTF2_AttributeList_AddInt32 (t->attrs, SEXTANT__ATTR_ONECOLL_PEER, info->peer);
    }
  SEXTANT__WRITE (t, OTF2_EvtWriter_Enter (t->writer, t->attrs, sextant__now (), id), "ENTER");
  if (!record_polls && is_poll (region))
    t->mute++;
  /* relays do not nest, so one saved value is enough */
  if (is_relay (region) && t->mute > 0)
    {
      t->relay_mute = t->mute;
      t->mute = 0;
    }
}

static void
hook_leave (void          *user_data,
            onecoll_region region)
{
  sextant__thread *t = sextant__self ();

  if (t == NULL || region < 1 || region > ONECOLL_REGION_LAST)
    return;
  if (is_relay (region) && t->relay_mute > 0)
    {
      t->mute = t->relay_mute;
      t->relay_mute = 0;
    }
  if (!record_polls && is_poll (region) && t->mute > 0)
    t->mute--;
  SEXTANT__WRITE (t, OTF2_EvtWriter_Leave (t->writer, NULL, sextant__now (),
                                            region_id (region, NULL, NULL, NULL, 0)),
                  "LEAVE");
}

static void
hook_thread_begin (void       *user_data,
                   const char *thread_name)
{
  sextant__thread_name (thread_name);
}

static void
hook_thread_end (void *user_data)
{
  /* the location stays; its writer is closed at MPI_Finalize */
}

/* ---- reader-writer locks ---- */

static uint32_t
lock_region (onecoll_lock_mode mode,
             const char       *file,
             int               line)
{
  uint32_t id = atomic_load_explicit (&lock_regions[mode], memory_order_acquire);

  if (SEXTANT__LIKELY (id != 0))
    return id - 1;
  id = sextant__define_region (mode == ONECOLL_LOCK_WRITE ? "onecoll_rwlock_wrlock" : "onecoll_rwlock_rdlock",
                               OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                               file != NULL ? file : "onecoll-rwlock.c", line > 0 ? (uint32_t) line : 0);
  if (id != SEXTANT__UNDEF)
    atomic_store_explicit (&lock_regions[mode], id + 1, memory_order_release);
  return id;
}

static void
lock_wait_begin (void              *user_data,
                 onecoll_lock_mode  mode,
                 void              *caller,
                 const char        *file,
                 int                line)
{
  sextant__thread *t = sextant__self ();
  uint32_t id, scl;

  if (t == NULL || (mode != ONECOLL_LOCK_READ && mode != ONECOLL_LOCK_WRITE))
    return;
  id = lock_region (mode, file, line);
  /* the call site is the application's line that called onecoll */
  scl = caller != NULL ? sextant__callsite_scl (t, caller) : SEXTANT__UNDEF;
  if (scl != SEXTANT__UNDEF)
    OTF2_AttributeList_AddSourceCodeLocationRef (t->attrs, SEXTANT__ATTR_CALLSITE, scl);
  SEXTANT__WRITE (t, OTF2_EvtWriter_Enter (t->writer, t->attrs, sextant__now (), id), "ENTER");
}

static void
lock_acquired (void     *user_data,
               uint32_t  lock_id,
               uint32_t  order)
{
  sextant__thread *t = sextant__self ();

  if (t == NULL)
    return;
  SEXTANT__WRITE (t, OTF2_EvtWriter_ThreadAcquireLock (t->writer, NULL, sextant__now (), OTF2_PARADIGM_PTHREAD,
                                                       lock_id, order),
                  "THREAD_ACQUIRE_LOCK");
}

static void
lock_wait_end (void              *user_data,
               onecoll_lock_mode  mode,
               int                status)
{
  sextant__thread *t = sextant__self ();

  if (t == NULL || (mode != ONECOLL_LOCK_READ && mode != ONECOLL_LOCK_WRITE))
    return;
  SEXTANT__WRITE (t, OTF2_EvtWriter_Leave (t->writer, NULL, sextant__now (), lock_region (mode, NULL, 0)),
                  "LEAVE");
}

static void
lock_released (void     *user_data,
               uint32_t  lock_id,
               uint32_t  order)
{
  sextant__thread *t = sextant__self ();

  if (t == NULL)
    return;
  SEXTANT__WRITE (t, OTF2_EvtWriter_ThreadReleaseLock (t->writer, NULL, sextant__now (), OTF2_PARADIGM_PTHREAD,
                                                       lock_id, order),
                  "THREAD_RELEASE_LOCK");
}

int
sextant__onecoll_install (void)
{
  static const onecoll_lock_hooks lock_hooks = {
    .wait_begin = lock_wait_begin,
    .acquired = lock_acquired,
    .wait_end = lock_wait_end,
    .released = lock_released,
    .user_data = NULL,
  };
  static const onecoll_trace_hooks hooks = {
    .enter = hook_enter,
    .leave = hook_leave,
    .thread_begin = hook_thread_begin,
    .thread_end = hook_thread_end,
    .user_data = NULL,
  };

#ifdef SEXTANT_ONECOLL_DIRECT
  set_hooks = onecoll_set_trace_hooks;
  region_name = onecoll_region_name;
  set_lock_hooks = onecoll_set_lock_hooks;
#else
  /* a pointer-to-function from dlsym's void *: the POSIX way */
  *(void **) &set_hooks = dlsym (RTLD_DEFAULT, "onecoll_set_trace_hooks");
  *(void **) &region_name = dlsym (RTLD_DEFAULT, "onecoll_region_name");
  *(void **) &set_lock_hooks = dlsym (RTLD_DEFAULT, "onecoll_set_lock_hooks");
#endif
  /* the locks need no runtime: their hooks go in whether or not onecoll's
   * runtime is running */
  if (set_lock_hooks != NULL)
    set_lock_hooks (&lock_hooks);
  if (set_hooks == NULL)
    return 0;
  record_polls = sextant__rec.record_polls;
  return set_hooks (&hooks) == ONECOLL_OK ? 1 : -1;
}

void
sextant__onecoll_uninstall (void)
{
  /* refused (ONECOLL_ERR_BUSY) while onecoll runs; its hooks then find the
   * recorder stopped and do nothing */
  if (set_hooks != NULL)
    set_hooks (NULL);
  if (set_lock_hooks != NULL)
    set_lock_hooks (NULL);
}
