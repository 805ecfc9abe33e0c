/*
 * onecoll-poll.c - how onecoll's threads wait for remote events.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every wait in onecoll is a loop "read a remote or local word; if it is not
 * there yet, back off". A poll is one MPI_Fetch_and_op(MPI_NO_OP) (or
 * MPI_Get_accumulate for the Broadcaster) plus an MPI_Win_flush: with Open
 * MPI's osc/sm that is a memory load and a barrier, i.e. far cheaper than any
 * sleep, so how long a waiter stays away between polls decides both latency
 * and how much CPU the waiters take from the ranks doing real work - which
 * matters most when ranks oversubscribe the cores.
 *
 * The FIXED policy is the paper's: sleep a constant interval (1 ms), which
 * puts up to 1 ms on every stage of the tree. The ADAPTIVE policy spins a
 * few polls (a broadcast stage on one node takes microseconds), then yields
 * the core (cheap when other ranks need it; measured 40x better than 1 ms
 * sleeps on the project machine, see research/collectives.md section 8),
 * then sleeps with exponential backoff so that an idle Broadcaster costs
 * next to nothing, capped far below the paper's 1 ms so that a broadcast
 * that starts during a sleep is noticed quickly. A long wait (an
 * application thread waiting for a large broadcast) lets its sleeps grow
 * further, to a share of the time it has slept so far (long_wait_div, at
 * most long_wait_max_ns): with 2p threads on a few cores, waiters that wake
 * up every ~100 us (64 us plus the kernel's timer slack) take whole
 * percents of a core each from the ranks that are copying, while a wake-up
 * late by 1/8 of the wait costs at most 1/8.
 */
#include "onecoll-private.h"

#include <sched.h>
#include <time.h>

static void
cpu_relax (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause ();
#elif defined(__aarch64__)
  __asm__ __volatile__ ("yield");
#endif
}

static void
sleep_ns (uint32_t ns)
{
  struct timespec ts;

  ts.tv_sec = ns / 1000000000u;
  ts.tv_nsec = (long) (ns % 1000000000u);
  /* An interrupted sleep only makes the next poll come earlier. */
  nanosleep (&ts, NULL);
}

int
onecoll_poll_policy_init (onecoll_poll_policy *policy,
                          onecoll_poll_mode    mode)
{
  if (policy == NULL)
    return ONECOLL_ERR_ARG;
  switch (mode)
    {
    case ONECOLL_POLL_ADAPTIVE:
      policy->mode = ONECOLL_POLL_ADAPTIVE;
      policy->spin_polls = 16;
      policy->yield_polls = 256;
      policy->sleep_min_ns = 1000;
      policy->sleep_max_ns = 64000;
      policy->interval_ns = 1000000;
      policy->long_wait_div = 8;
      policy->long_wait_max_ns = 1000000;
      return ONECOLL_OK;
    case ONECOLL_POLL_FIXED:
      policy->mode = ONECOLL_POLL_FIXED;
      policy->spin_polls = 0;
      policy->yield_polls = 0;
      policy->sleep_min_ns = 1000000;
      policy->sleep_max_ns = 1000000;
      policy->interval_ns = 1000000;
      policy->long_wait_div = 0;
      policy->long_wait_max_ns = 1000000;
      return ONECOLL_OK;
    default:
      return ONECOLL_ERR_ARG;
    }
}

int
onecoll__poll_policy_valid (const onecoll_poll_policy *policy)
{
  switch (policy->mode)
    {
    case ONECOLL_POLL_ADAPTIVE:
      return policy->spin_polls <= 1000000u
             && policy->yield_polls <= 1000000000u
             && policy->sleep_min_ns >= 1
             && policy->sleep_min_ns <= policy->sleep_max_ns
             && policy->sleep_max_ns <= 1000000000u
             && (policy->long_wait_div == 0
                 || (policy->long_wait_div >= 2 && policy->long_wait_div <= 1000
                     && policy->long_wait_max_ns >= policy->sleep_max_ns
                     && policy->long_wait_max_ns <= 1000000000u));
    case ONECOLL_POLL_FIXED:
      return policy->interval_ns >= 1 && policy->interval_ns <= 1000000000u;
    default:
      return 0;
    }
}

void
onecoll__poller_init (onecoll__poller           *poller,
                      const onecoll_poll_policy *policy)
{
  poller->policy = policy;
  poller->polls = 0;
  poller->sleep_ns = policy->sleep_min_ns;
  poller->slept_ns = 0;
}

void
onecoll__poller_wait (onecoll__poller *poller)
{
  const onecoll_poll_policy *policy = poller->policy;
  uint32_t n = poller->polls;
  uint32_t cap;

  if (poller->polls < UINT32_MAX)
    poller->polls++;

  if (policy->mode == ONECOLL_POLL_FIXED)
    {
      sleep_ns (policy->interval_ns);
      return;
    }
  if (n < policy->spin_polls)
    {
      cpu_relax ();
      return;
    }
  if (n - policy->spin_polls < policy->yield_polls)
    {
      sched_yield ();
      return;
    }
  sleep_ns (poller->sleep_ns);
  poller->slept_ns += poller->sleep_ns;
  cap = policy->sleep_max_ns;
  if (policy->long_wait_div > 0 && poller->slept_ns / policy->long_wait_div > cap)
    {
      uint64_t share = poller->slept_ns / policy->long_wait_div;

      cap = share < policy->long_wait_max_ns ? (uint32_t) share : policy->long_wait_max_ns;
    }
  if (poller->sleep_ns <= cap / 2)
    poller->sleep_ns *= 2;
  else
    poller->sleep_ns = cap;
}
