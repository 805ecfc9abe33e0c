/*
 * test-onecoll-rwlock.c - onecoll's shared-memory reader-writer locks
 * across real processes (fork + exec, never threads).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage (each mode is one meson test; the clients are this program again,
 * exec'd as `client ...`):
 *
 *   stress SCHEME NMIN NMAX OPS
 *       for N = NMIN..NMAX: this process is the server, N client processes
 *       do OPS/N (rounded up) onecoll_rwlock_kv_get()s each, of random keys
 *       of KEYS records that every commit rewrites all together, while the
 *       server commits (with a 10 us pause between commits, the paper's
 *       concurrent mode) until the last client exits. A
 *       client checks every value against the pattern its (key, version)
 *       must have (on top of the library's checksum), and that a key's
 *       version never goes back. Fails on any torn or stale read, on a
 *       client that fails, or if the writer's longest wait exceeds
 *       MAX_WAIT_S; prints the writer's wait figures per N.
 *   control
 *       the same with ONECOLL_RWLOCK_UNLOCKED (no exclusion), until a
 *       client reports a torn record: proves that the checks above would
 *       see a lock that does not exclude.
 *   dead-client SCHEME
 *       a client takes its read lock and is killed (SIGKILL) while it
 *       holds it, and is not reaped (a zombie, as a real server's foreign
 *       clients would be); the writer's next wrlock must return
 *       ONECOLL_WARN_OWNER_DEAD within DEAD_BOUND_S, later ones ONECOLL_OK,
 *       and a new client can take the dead one's slot and read.
 *   dead-writer SCHEME
 *       the server process takes the write lock and dies; a client's
 *       rdlock must return ONECOLL_ERR_PEER within DEAD_BOUND_S.
 *   errors
 *       N = 0 and other bad configurations, a missing segment, a segment of
 *       another version, a segment too small, a busy slot, calls on the
 *       wrong role, unlocks without a lock: each gives its error code and a
 *       message of its own.
 */
#include "onecoll.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KEYS 8                      /* records rewritten by every commit */
#define VALUE_LEN ONECOLL_KV_VALUE_MAX
#define MAX_WAIT_S 5.0              /* bound of the writer's longest wait */
#define DEAD_BOUND_S 10.0           /* bound of the dead-party detection */
#define CONTROL_LIMIT_S 30.0

static const char *self_exe;
static char seg_name[64];

static void
fail (const char *fmt,
      ...)
{
  va_list ap;

  fprintf (stderr, "FAIL [pid %d]: ", (int) getpid ());
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  if (seg_name[0] != '\0')
    shm_unlink (seg_name);
  exit (1);
}

#define EXPECT(call, expected, what)                                         \
  do {                                                                       \
    int rc_ = (call);                                                        \
    if (rc_ != (expected))                                                   \
      fail ("%s: %s returned %d (%s), expected %d (%s)", (what), #call, rc_, \
            onecoll_strerror (rc_), (int) (expected),                        \
            onecoll_strerror (expected));                                    \
  } while (0)

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static uint64_t
mix (uint64_t x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* The value of @key in commit @version: every byte depends on both. */
static void
pattern (unsigned char *buf,
         uint32_t       key,
         uint64_t       version)
{
  for (int i = 0; i < VALUE_LEN; i += 8)
    {
      uint64_t w = mix ((version << 20) ^ ((uint64_t) key << 8) ^ (uint64_t) i);

      for (int b = 0; b < 8 && i + b < VALUE_LEN; b++)
        buf[i + b] = (unsigned char) (w >> (8 * b));
    }
}

static int
scheme_arg (const char *s)
{
  int scheme = onecoll_rwlock_scheme_from_name (s);

  if (scheme < 0)
    fail ("unknown scheme %s", s);
  return scheme;
}

/* ---- processes --------------------------------------------------------- */

static pid_t
spawn (char *const argv[])
{
  pid_t pid = fork ();

  if (pid < 0)
    fail ("fork: %s", strerror (errno));
  if (pid == 0)
    {
      execv (self_exe, argv);
      fprintf (stderr, "exec %s: %s\n", self_exe, strerror (errno));
      _exit (127);
    }
  return pid;
}

static pid_t
spawn_client (int         idx,
              long        ops,
              const char *expect)
{
  char idx_s[16], ops_s[32];
  char *argv[] = { (char *) self_exe, "client", seg_name, idx_s, ops_s, (char *) expect, NULL };

  snprintf (idx_s, sizeof idx_s, "%d", idx);
  snprintf (ops_s, sizeof ops_s, "%ld", ops);
  return spawn (argv);
}

/* ---- the client ---------------------------------------------------------- */

/* Exit codes: 0 every read was right; 2 torn or stale reads (counted on
 * stderr); 3 another failure. @expect: "clean" or "torn" (control: stop
 * at the first torn read). */
static int
run_client (const char *name,
            int         idx,
            long        ops,
            const char *expect)
{
  onecoll_rwlock *lock = NULL;
  uint64_t last[KEYS + 1] = { 0 };
  unsigned char value[VALUE_LEN], want[VALUE_LEN];
  uint64_t rng = mix ((uint64_t) getpid ());
  long torn = 0, stale = 0, gets = 0, missing = 0;
  int rc, control = strcmp (expect, "torn") == 0;

  if ((rc = onecoll_rwlock_attach (name, idx, &lock)) != ONECOLL_OK)
    {
      fprintf (stderr, "client %d: attach: %s\n", idx, onecoll_strerror (rc));
      return 3;
    }
  for (long i = 0; i < ops; i++)
    {
      uint32_t key, len = 0;
      uint64_t version = 0;

      rng = mix (rng);
      key = (uint32_t) (rng % KEYS) + 1;
      rc = onecoll_rwlock_kv_get (lock, key, value, sizeof value, &len, &version);
      gets++;
      if (rc == ONECOLL_ERR_NOT_FOUND)
        {
          missing++;                /* before the first commit */
          continue;
        }
      if (rc == ONECOLL_ERR_CORRUPT)
        {
          torn++;
          if (control)
            break;
          continue;
        }
      if (rc != ONECOLL_OK)
        {
          fprintf (stderr, "client %d: kv_get: %s\n", idx, onecoll_strerror (rc));
          return 3;
        }
      pattern (want, key, version);
      if (len != VALUE_LEN || memcmp (value, want, VALUE_LEN) != 0)
        {
          torn++;
          if (control)
            break;
        }
      if (version < last[key])
        stale++;
      last[key] = version;
    }
  onecoll_rwlock_destroy (lock);
  if (torn > 0 || stale > 0)
    fprintf (stderr, "client %d: %ld gets, %ld torn, %ld stale, %ld before the first commit\n",
             idx, gets, torn, stale, missing);
  return torn > 0 || stale > 0 ? 2 : 0;
}

/* ---- the server side ------------------------------------------------------- */

static onecoll_rwlock *
make_server (int scheme,
             int n)
{
  onecoll_rwlock_config cfg;
  onecoll_rwlock *lock = NULL;

  onecoll_rwlock_config_init (&cfg, (onecoll_rwlock_scheme) scheme, n);
  cfg.nrecords = 4 * KEYS;
  cfg.replace = 1;
  EXPECT (onecoll_rwlock_init (seg_name, &cfg, &lock), ONECOLL_OK, "init");
  return lock;
}

/* Commits version v of every key. Returns the commit's status. */
static int
commit_all (onecoll_rwlock *lock,
            uint64_t        v)
{
  static unsigned char values[KEYS][VALUE_LEN];
  onecoll_kv_item items[KEYS];

  for (int k = 0; k < KEYS; k++)
    {
      pattern (values[k], (uint32_t) k + 1, v);
      items[k].key = (uint32_t) k + 1;
      items[k].len = VALUE_LEN;
      items[k].value = values[k];
    }
  return onecoll_rwlock_kv_commit (lock, items, KEYS);
}

/* Runs N clients of @ops_each gets against a committing server until they
 * exit. Returns the number of clients that exited with 2 (torn); fails
 * on anything else. *@commits gets the commits made. */
static int
run_round (onecoll_rwlock *lock,
           int             n,
           long            ops_each,
           const char     *expect,
           uint64_t       *commits,
           double          limit_s)
{
  pid_t pids[ONECOLL_RWLOCK_MAX_CLIENTS];
  int running = n, torn_clients = 0;
  uint64_t v = 0;
  double t0 = now_s ();

  for (int i = 0; i < n; i++)
    pids[i] = spawn_client (i, ops_each, expect);
  while (running > 0)
    {
      int rc = commit_all (lock, ++v);

      if (rc != ONECOLL_OK)
        fail ("commit %llu: %s", (unsigned long long) v, onecoll_strerror (rc));
      /* the paper's concurrent mode: a short pause between writes, so
       * that on 2 cores the clients run between commits */
      usleep (10);
      for (int i = 0; i < n; i++)
        {
          int status;

          if (pids[i] <= 0 || waitpid (pids[i], &status, WNOHANG) != pids[i])
            continue;
          pids[i] = 0;
          running--;
          if (WIFEXITED (status) && WEXITSTATUS (status) == 2)
            torn_clients++;
          else if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
            fail ("client %d of %d exited with status %d", i, n, status);
        }
      if (now_s () - t0 > limit_s)
        {
          for (int i = 0; i < n; i++)
            if (pids[i] > 0)
              kill (pids[i], SIGKILL);
          fail ("N = %d: clients still running after %.0f s", n, limit_s);
        }
    }
  *commits = v;
  return torn_clients;
}

static int
mode_stress (int  scheme,
             int  nmin,
             int  nmax,
             long ops)
{
  double t_all = now_s ();

  printf ("# %s: N, gets, commits, seconds, writer wait mean us, max us\n",
          onecoll_rwlock_scheme_name (scheme));
  for (int n = nmin; n <= nmax; n++)
    {
      onecoll_rwlock *lock = make_server (scheme, n);
      onecoll_rwlock_stats st;
      long ops_each = (ops + n - 1) / n;
      uint64_t commits;
      double t0 = now_s ();
      int torn = run_round (lock, n, ops_each, "clean", &commits, 120.0);

      onecoll_rwlock_get_stats (lock, &st);
      printf ("%-14s N=%2d  gets=%ld  commits=%llu  %.2f s  wait mean %.1f us  max %.1f us\n",
              onecoll_rwlock_scheme_name (scheme), n, ops_each * n, (unsigned long long) commits,
              now_s () - t0, st.wrlocks ? (double) st.wrlock_wait_total / (double) st.wrlocks / 1e3 : 0.0,
              (double) st.wrlock_wait_max / 1e3);
      fflush (stdout);
      if (torn > 0)
        fail ("%s, N = %d: %d clients read torn or stale records", onecoll_rwlock_scheme_name (scheme), n, torn);
      if (st.owner_dead != 0)
        fail ("N = %d: %llu clients taken for dead", n, (unsigned long long) st.owner_dead);
      if ((double) st.wrlock_wait_max / 1e9 > MAX_WAIT_S)
        fail ("N = %d: the writer waited %.3f s, above the bound of %.1f s", n,
              (double) st.wrlock_wait_max / 1e9, MAX_WAIT_S);
      EXPECT (onecoll_rwlock_destroy (lock), ONECOLL_OK, "destroy");
    }
  printf ("# %s: all N in %.1f s\n", onecoll_rwlock_scheme_name (scheme), now_s () - t_all);
  return 0;
}

static int
mode_control (void)
{
  double t0 = now_s ();

  /* rounds of 2 clients; tearing needs a reader and the writer to run at
   * the same moment, which a loaded machine may take a few rounds for */
  while (now_s () - t0 < CONTROL_LIMIT_S)
    {
      onecoll_rwlock *lock = make_server (ONECOLL_RWLOCK_UNLOCKED, 2);
      uint64_t commits;
      int torn = run_round (lock, 2, 200000, "torn", &commits, CONTROL_LIMIT_S + 30);

      onecoll_rwlock_destroy (lock);
      if (torn > 0)
        {
          printf ("unlocked: torn records seen after %.2f s (%llu commits)\n", now_s () - t0,
                  (unsigned long long) commits);
          return 0;
        }
    }
  fail ("no torn record seen in %.0f s without a lock: the checks would not see a broken lock",
        CONTROL_LIMIT_S);
  return 1;
}

/* A pipe's read end: waits for one byte from a child. */
static void
wait_byte (int         fd,
           const char *what)
{
  char c;

  if (read (fd, &c, 1) != 1)
    fail ("%s: the child did not report", what);
}

static int
mode_dead_client (int scheme)
{
  onecoll_rwlock *lock = make_server (scheme, 3);
  onecoll_rwlock_stats st;
  int fds[2];
  pid_t pid;
  double t0, waited;
  char fd_s[16];
  int rc;

  EXPECT (commit_all (lock, 1), ONECOLL_OK, "first commit");
  if (pipe (fds) < 0)
    fail ("pipe: %s", strerror (errno));
  snprintf (fd_s, sizeof fd_s, "%d", fds[1]);
  {
    char *argv[] = { (char *) self_exe, "hold", seg_name, "1", fd_s, NULL };

    pid = spawn (argv);
  }
  close (fds[1]);
  wait_byte (fds[0], "hold");
  kill (pid, SIGKILL);              /* dies holding its read lock; not reaped */
  t0 = now_s ();
  rc = onecoll_rwlock_wrlock (lock);
  waited = now_s () - t0;
  if (rc != ONECOLL_WARN_OWNER_DEAD)
    fail ("%s: wrlock after the client's death returned %d (%s)", onecoll_rwlock_scheme_name (scheme), rc,
          onecoll_strerror (rc));
  if (waited > DEAD_BOUND_S)
    fail ("the dead client took %.2f s to detect", waited);
  EXPECT (onecoll_rwlock_wrunlock (lock), ONECOLL_OK, "wrunlock");
  onecoll_rwlock_get_stats (lock, &st);
  if (st.owner_dead != 1)
    fail ("owner_dead = %llu, expected 1", (unsigned long long) st.owner_dead);
  EXPECT (commit_all (lock, 2), ONECOLL_OK, "the next commit");
  /* the dead client's slot is free again: a new client takes it and reads */
  {
    pid_t c = spawn_client (1, 1000, "clean");
    int status;

    for (int i = 0; i < 1000; i++)
      EXPECT (commit_all (lock, (uint64_t) i + 3), ONECOLL_OK, "commit with a new client");
    waitpid (c, &status, 0);
    if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
      fail ("the client in the dead one's slot failed: status %d", status);
  }
  waitpid (pid, NULL, 0);
  printf ("%s: a client killed holding its read lock was found in %.1f ms\n",
          onecoll_rwlock_scheme_name (scheme), waited * 1e3);
  EXPECT (onecoll_rwlock_destroy (lock), ONECOLL_OK, "destroy");
  return 0;
}

static int
mode_dead_writer (int scheme)
{
  onecoll_rwlock *lock = NULL;
  int fds[2], rc;
  pid_t pid;
  double t0, waited;
  char fd_s[16], scheme_s[16];

  if (pipe (fds) < 0)
    fail ("pipe: %s", strerror (errno));
  snprintf (fd_s, sizeof fd_s, "%d", fds[1]);
  snprintf (scheme_s, sizeof scheme_s, "%d", scheme);
  {
    char *argv[] = { (char *) self_exe, "server-dies", seg_name, scheme_s, fd_s, NULL };

    pid = spawn (argv);
  }
  close (fds[1]);
  wait_byte (fds[0], "server created");
  EXPECT (onecoll_rwlock_attach (seg_name, 0, &lock), ONECOLL_OK, "attach");
  wait_byte (fds[0], "server locked");
  kill (pid, SIGKILL);              /* dies holding the write lock */
  t0 = now_s ();
  rc = onecoll_rwlock_rdlock (lock);
  waited = now_s () - t0;
  if (rc != ONECOLL_ERR_PEER)
    fail ("%s: rdlock after the writer's death returned %d (%s)", onecoll_rwlock_scheme_name (scheme), rc,
          onecoll_strerror (rc));
  if (waited > DEAD_BOUND_S)
    fail ("the dead writer took %.2f s to detect", waited);
  onecoll_rwlock_destroy (lock);
  waitpid (pid, NULL, 0);
  shm_unlink (seg_name);
  printf ("%s: a writer killed holding the lock was found in %.1f ms\n",
          onecoll_rwlock_scheme_name (scheme), waited * 1e3);
  return 0;
}

static void
expect_message (int         rc,
                const char *needle)
{
  const char *msg = onecoll_strerror (rc);

  if (strstr (msg, needle) == NULL)
    fail ("onecoll_strerror (%d) = \"%s\", expected it to mention \"%s\"", rc, msg, needle);
}

static int
mode_errors (void)
{
  onecoll_rwlock_config cfg;
  onecoll_rwlock *server = NULL, *client = NULL, *other = NULL;
  unsigned char buf[VALUE_LEN];
  onecoll_kv_item bad = { 0, 1, buf };
  int fd;

  /* configurations */
  onecoll_rwlock_config_init (&cfg, ONECOLL_RWLOCK_MCS, 0);
  EXPECT (onecoll_rwlock_init (seg_name, &cfg, &server), ONECOLL_ERR_ARG, "N = 0");
  if (server != NULL)
    fail ("a failed init left a handle");
  cfg.nclients = ONECOLL_RWLOCK_MAX_CLIENTS + 1;
  EXPECT (onecoll_rwlock_init (seg_name, &cfg, &server), ONECOLL_ERR_ARG, "N too large");
  cfg.nclients = 2;
  cfg.scheme = (onecoll_rwlock_scheme) 42;
  EXPECT (onecoll_rwlock_init (seg_name, &cfg, &server), ONECOLL_ERR_ARG, "unknown scheme");
  cfg.scheme = ONECOLL_RWLOCK_MCS;
  cfg.nrecords = -1;
  EXPECT (onecoll_rwlock_init (seg_name, &cfg, &server), ONECOLL_ERR_ARG, "negative records");
  cfg.nrecords = 4;
  EXPECT (onecoll_rwlock_init ("no-slash", &cfg, &server), ONECOLL_ERR_ARG, "name without /");
  EXPECT (onecoll_rwlock_init (NULL, &cfg, &server), ONECOLL_ERR_ARG, "NULL name");
  EXPECT (onecoll_rwlock_init (seg_name, NULL, &server), ONECOLL_ERR_ARG, "NULL config");

  /* a missing segment */
  shm_unlink (seg_name);
  EXPECT (onecoll_rwlock_attach (seg_name, 0, &client), ONECOLL_ERR_NOT_FOUND, "missing segment");
  expect_message (ONECOLL_ERR_NOT_FOUND, "no such shared-memory segment");

  /* a segment of another program / version */
  if ((fd = shm_open (seg_name, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0)
    fail ("shm_open: %s", strerror (errno));
  if (ftruncate (fd, 4096) < 0)
    fail ("ftruncate");
  {
    unsigned char *p = mmap (NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

    if (p == MAP_FAILED)
      fail ("mmap");
    memset (p, 0x5a, 4096);
    munmap (p, 4096);
  }
  EXPECT (onecoll_rwlock_attach (seg_name, 0, &client), ONECOLL_ERR_VERSION, "foreign segment");
  if (ftruncate (fd, 8) < 0)
    fail ("ftruncate");
  EXPECT (onecoll_rwlock_attach (seg_name, 0, &client), ONECOLL_ERR_VERSION, "segment too small");
  close (fd);
  expect_message (ONECOLL_ERR_VERSION, "version");
  /* init refuses to take it over unless asked to */
  EXPECT (onecoll_rwlock_init (seg_name, &cfg, &server), ONECOLL_ERR_EXISTS, "existing segment");
  expect_message (ONECOLL_ERR_EXISTS, "exists");
  cfg.replace = 1;
  EXPECT (onecoll_rwlock_init (seg_name, &cfg, &server), ONECOLL_OK, "replace");

  /* a real segment of the next version: patch the version word */
  {
    onecoll_rwlock *v2 = NULL;
    char name2[80];
    unsigned char *p;

    snprintf (name2, sizeof name2, "%s-v", seg_name);
    EXPECT (onecoll_rwlock_init (name2, &cfg, &v2), ONECOLL_OK, "second segment");
    if ((fd = shm_open (name2, O_RDWR, 0)) < 0)
      fail ("shm_open");
    p = mmap (NULL, 64, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close (fd);
    if (p == MAP_FAILED)
      fail ("mmap");
    p[8] += 1;                      /* the version follows the 8-byte magic */
    munmap (p, 64);
    EXPECT (onecoll_rwlock_attach (name2, 0, &client), ONECOLL_ERR_VERSION, "segment of version 2");
    onecoll_rwlock_destroy (v2);
  }

  /* slots */
  EXPECT (onecoll_rwlock_attach (seg_name, 2, &client), ONECOLL_ERR_ARG, "client index = N");
  EXPECT (onecoll_rwlock_attach (seg_name, -2, &client), ONECOLL_ERR_ARG, "client index -2");
  EXPECT (onecoll_rwlock_attach (seg_name, 1, &client), ONECOLL_OK, "attach slot 1");
  EXPECT (onecoll_rwlock_attach (seg_name, 1, &other), ONECOLL_ERR_BUSY, "slot 1 taken");
  EXPECT (onecoll_rwlock_attach (seg_name, -1, &other), ONECOLL_OK, "first free slot");
  {
    int idx = -1;

    onecoll_rwlock_info (other, NULL, NULL, &idx);
    if (idx != 0)
      fail ("the first free slot is %d, expected 0", idx);
  }
  {
    onecoll_rwlock *third = NULL;

    EXPECT (onecoll_rwlock_attach (seg_name, -1, &third), ONECOLL_ERR_BUSY, "no free slot");
  }

  /* roles and lock state */
  EXPECT (onecoll_rwlock_rdlock (server), ONECOLL_ERR_ARG, "rdlock on the server's handle");
  EXPECT (onecoll_rwlock_wrlock (client), ONECOLL_ERR_ARG, "wrlock on a client's handle");
  EXPECT (onecoll_rwlock_rdunlock (client), ONECOLL_ERR_ARG, "rdunlock without rdlock");
  EXPECT (onecoll_rwlock_wrunlock (server), ONECOLL_ERR_ARG, "wrunlock without wrlock");
  EXPECT (onecoll_rwlock_rdlock (client), ONECOLL_OK, "rdlock");
  EXPECT (onecoll_rwlock_rdlock (client), ONECOLL_ERR_BUSY, "rdlock twice");
  EXPECT (onecoll_rwlock_rdunlock (client), ONECOLL_OK, "rdunlock");
  EXPECT (onecoll_rwlock_rdlock (NULL), ONECOLL_ERR_ARG, "NULL handle");

  /* the store */
  EXPECT (onecoll_rwlock_kv_get (client, 7, buf, sizeof buf, NULL, NULL), ONECOLL_ERR_NOT_FOUND, "missing key");
  EXPECT (onecoll_rwlock_kv_commit (server, &bad, 1), ONECOLL_ERR_ARG, "key 0");
  EXPECT (onecoll_rwlock_kv_commit (client, NULL, 0), ONECOLL_ERR_ARG, "commit by a client");
  {
    onecoll_kv_item items[5];
    uint32_t len = 0;
    uint64_t version = 0;

    for (int i = 0; i < 5; i++)
      items[i] = (onecoll_kv_item) { (uint32_t) i + 1, 3, "abc" };
    EXPECT (onecoll_rwlock_kv_commit (server, items, 5), ONECOLL_ERR_LIMIT, "5 keys in 4 records");
    EXPECT (onecoll_rwlock_kv_get (client, 1, buf, sizeof buf, NULL, NULL), ONECOLL_ERR_NOT_FOUND,
            "a refused commit wrote nothing");
    EXPECT (onecoll_rwlock_kv_commit (server, items, 4), ONECOLL_OK, "4 keys");
    EXPECT (onecoll_rwlock_kv_get (client, 4, buf, 2, &len, &version), ONECOLL_ERR_LIMIT, "small buffer");
    EXPECT (onecoll_rwlock_kv_get (client, 4, buf, sizeof buf, &len, &version), ONECOLL_OK, "get");
    if (len != 3 || memcmp (buf, "abc", 3) != 0 || version != 1)
      fail ("get returned len %u version %llu", len, (unsigned long long) version);
  }
  if (onecoll_rwlock_scheme_name (ONECOLL_RWLOCK_MCS) == NULL
      || strcmp (onecoll_rwlock_scheme_name (ONECOLL_RWLOCK_MUTEX_2N), "2n-mutex") != 0
      || onecoll_rwlock_scheme_name (ONECOLL_RWLOCK_N_SCHEMES) != NULL
      || onecoll_rwlock_scheme_from_name ("n-mcs") != ONECOLL_RWLOCK_MCS
      || onecoll_rwlock_scheme_from_name ("nonsense") != -1)
    fail ("scheme names");
  onecoll_rwlock_destroy (client);
  onecoll_rwlock_destroy (other);
  EXPECT (onecoll_rwlock_destroy (server), ONECOLL_OK, "destroy");
  EXPECT (onecoll_rwlock_attach (seg_name, 0, &client), ONECOLL_ERR_NOT_FOUND, "after destroy");
  printf ("errors: all cases gave their codes\n");
  return 0;
}

int
main (int    argc,
      char **argv)
{
  self_exe = "/proc/self/exe";
  if (argc >= 2 && strcmp (argv[1], "client") == 0 && argc == 6)
    return run_client (argv[2], atoi (argv[3]), atol (argv[4]), argv[5]);
  if (argc >= 2 && strcmp (argv[1], "hold") == 0 && argc == 5)
    {
      onecoll_rwlock *lock = NULL;
      int fd = atoi (argv[4]);

      if (onecoll_rwlock_attach (argv[2], atoi (argv[3]), &lock) != ONECOLL_OK
          || onecoll_rwlock_rdlock (lock) != ONECOLL_OK)
        return 3;
      if (write (fd, "h", 1) != 1)
        return 3;
      for (;;)
        pause ();                   /* killed here, holding the lock */
    }
  if (argc >= 2 && strcmp (argv[1], "server-dies") == 0 && argc == 5)
    {
      onecoll_rwlock_config cfg;
      onecoll_rwlock *lock = NULL;
      int fd = atoi (argv[4]);

      onecoll_rwlock_config_init (&cfg, (onecoll_rwlock_scheme) atoi (argv[3]), 2);
      cfg.replace = 1;
      if (onecoll_rwlock_init (argv[2], &cfg, &lock) != ONECOLL_OK || write (fd, "c", 1) != 1)
        return 3;
      /* attach takes no lock: the client may attach before or after this */
      if (onecoll_rwlock_wrlock (lock) != ONECOLL_OK || write (fd, "l", 1) != 1)
        return 3;
      for (;;)
        pause ();
    }

  /* the driver's segment name: unique per process */
  snprintf (seg_name, sizeof seg_name, "/sextant-rwtest-%d", (int) getpid ());
  self_exe = realpath ("/proc/self/exe", NULL);
  if (self_exe == NULL)
    fail ("realpath /proc/self/exe");
  setvbuf (stdout, NULL, _IOLBF, 0);
  if (argc == 6 && strcmp (argv[1], "stress") == 0)
    return mode_stress (scheme_arg (argv[2]), atoi (argv[3]), atoi (argv[4]), atol (argv[5]));
  if (argc == 2 && strcmp (argv[1], "control") == 0)
    return mode_control ();
  if (argc == 3 && strcmp (argv[1], "dead-client") == 0)
    return mode_dead_client (scheme_arg (argv[2]));
  if (argc == 3 && strcmp (argv[1], "dead-writer") == 0)
    return mode_dead_writer (scheme_arg (argv[2]));
  if (argc == 2 && strcmp (argv[1], "errors") == 0)
    return mode_errors ();
  fprintf (stderr, "usage: %s stress SCHEME NMIN NMAX OPS | control | dead-client SCHEME | "
           "dead-writer SCHEME | errors\n", argv[0]);
  return 2;
}
