/*
 * sextant-recorder-salvage.c - an archive from the crash journal of a run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sextant-record-salvage DIR OUT
 *
 * DIR is a recording that never reached MPI_Finalize on every rank: no
 * DIR/traces.otf2, but DIR/journal/ (sextant-recorder-journal.c) and the
 * chunks libotf2 had flushed to DIR/traces/LOCATION.evt. OUT (a new or
 * empty directory) receives a complete OTF2 archive, OUT/traces.otf2, that
 * any OTF2 reader opens, and OUT/salvage.txt, what was salvaged and lost
 * per location, which `sextant import` puts into import_log. DIR is only
 * read, but for event journals still in memory (in /dev/shm, linked from
 * DIR/journal) of processes that are gone: they are moved into DIR/journal
 * first, where the file system allows (--adopt does only that; the
 * launcher runs it after a crash). Ranks on this host that still record
 * (a killed launcher's ranks live on for a moment) are waited for, up to
 * 10 s; after that a journal is read as it is, the state word checked
 * again after each slot, and the rank is "still running when salvaged".
 *
 * Per rank: the definition journal is replayed into a definition table
 * (the ids come out as they were recorded; a record cut by the kill ends
 * it). Per location: the .evt file's first F chunks and the journal's U
 * slots in use (F and U from the journal's state word) are the location's
 * events, in order. Each chunk is walked (sextant-recorder-chunk-walk.c)
 * record by record (timestamps,
 * attribute lists, the singleton records of OTF2 1.1 such as ENTER and
 * LEAVE, and records with a length byte): the walk keeps the stack of open
 * regions and stops at the first record that is not whole - the end of the
 * written data (OTF2_BUFFER_END_OF_CHUNK is 0, and the slots were zeroed;
 * a writer closed in MPI_Finalize ends with END_OF_FILE, END_OF_BUFFER),
 * a length byte libotf2 had not finalised yet, a timestamp that goes back,
 * or, as the last record written, a LEAVE that does not match or an ENTER
 * of region 0 (MPI_Init's) after the first event: what a record cut after
 * its type byte reads as. The
 * chunk is cut after its last whole event and its header's event numbers
 * are rewritten. Then the location gets a visit of a region that says why
 * it stopped - "killed by SIGSEGV" (with the source line of the faulting
 * instruction as the region's file and line, from the modules the journal
 * lists and their debug information), "killed by SIGTERM", "stopped by MPI_Abort",
 * "exit without MPI_Finalize", or "killed (no signal seen: SIGKILL?)" - from
 * its last event to the time of the signal, and LEAVEs that close every
 * region still open at that time. The definitions of all ranks are then
 * unified as at MPI_Finalize (sextant__write_salvaged).
 *
 * Workload: one pass over the event data (copied chunk by chunk, one chunk
 * in memory), the definitions of all ranks in memory.
 */
#include "config.h"

#include "sextant-recorder-private.h"

#include <dirent.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct
{
  uint64_t base;
  char *path;
} module;

typedef struct
{
  sextant__salvage_rank r;
  uint32_t size;
  int have_header;
  int have_stop;
  long pid;                                 /* of the rank's process */
  int running;                              /* it was still recording when salvaged */
  sextant__stop_record stop;
  module *modules;
  size_t n_modules, cap_modules;
  size_t cap_locs;
  uint64_t journal_bytes, dropped_bytes;    /* of the definition journal */
  char site[PATH_MAX + 64];                 /* "file:line in function" of a fault */
  uint32_t stop_region;
} rank_journal;

/* The report, salvage.txt: one line per kind and location,
 * "kind TAB location (or -) TAB time TAB message", several messages of one
 * kind and location joined with "; ". */
typedef struct
{
  const char *kind;
  uint64_t location;
  uint64_t time;
  char *message;
} report_entry;

static report_entry *report;
static size_t n_report, cap_report;

static void
report_line (const char *kind,
             uint64_t    location,
             uint64_t    time,
             const char *format,
             ...) SEXTANT__PRINTF (4, 5);

static void
report_line (const char *kind,
             uint64_t    location,
             uint64_t    time,
             const char *format,
             ...)
{
  report_entry *e = NULL;
  char text[1024];
  va_list args;
  size_t old;

  va_start (args, format);
  vsnprintf (text, sizeof text, format, args);
  va_end (args);
  for (size_t i = 0; i < n_report && e == NULL; i++)
    if (report[i].location == location && strcmp (report[i].kind, kind) == 0)
      e = &report[i];
  if (e == NULL)
    {
      if (sextant__grow ((void **) &report, &cap_report, n_report + 1, sizeof *report) != 0)
        return;
      e = &report[n_report++];
      e->kind = kind;
      e->location = location;
      e->time = time;
      e->message = strdup (text);
      return;
    }
  old = e->message != NULL ? strlen (e->message) : 0;
  if (e->message != NULL && (e->message = realloc (e->message, old + strlen (text) + 3)) != NULL)
    sprintf (e->message + old, "; %s", text);
}

static int
write_report (const char *path)
{
  FILE *f = fopen (path, "w");

  if (f == NULL)
    return -1;
  for (size_t i = 0; i < n_report; i++)
    {
      if (report[i].location == UINT64_MAX)
        fprintf (f, "%s\t-\t%" PRIu64 "\t%s\n", report[i].kind, report[i].time,
                 report[i].message != NULL ? report[i].message : "");
      else
        fprintf (f, "%s\t%" PRIu64 "\t%" PRIu64 "\t%s\n", report[i].kind, report[i].location,
                 report[i].time, report[i].message != NULL ? report[i].message : "");
      free (report[i].message);
    }
  free (report);
  return fclose (f);
}

static int
read_file (const char     *path,
           unsigned char **data,
           size_t         *len)
{
  FILE *f = fopen (path, "rb");
  struct stat st;

  *data = NULL;
  *len = 0;
  if (f == NULL)
    return -1;
  if (fstat (fileno (f), &st) != 0 || (*data = malloc ((size_t) st.st_size + 1)) == NULL)
    {
      fclose (f);
      return -1;
    }
  *len = fread (*data, 1, (size_t) st.st_size, f);
  fclose (f);
  return 0;
}

/* ---- the definition journal ---- */

static sextant__salvage_location *
find_location (rank_journal *rj,
               uint64_t      id,
               int           add)
{
  for (size_t i = 0; i < rj->r.n_locs; i++)
    if (rj->r.locs[i].id == id)
      return &rj->r.locs[i];
  if (!add || sextant__grow ((void **) &rj->r.locs, &rj->cap_locs, rj->r.n_locs + 1,
                             sizeof *rj->r.locs) != 0)
    return NULL;
  memset (&rj->r.locs[rj->r.n_locs], 0, sizeof *rj->r.locs);
  rj->r.locs[rj->r.n_locs].id = id;
  return &rj->r.locs[rj->r.n_locs++];
}

/* Replays one record. Returns 0, or -1 when it does not fit what came
 * before (the journal is damaged from here). */
static int
replay (rank_journal    *rj,
        uint32_t         kind,
        sextant__reader *rd)
{
  sextant__defs *defs = &rj->r.defs;
  uint32_t id = 0, got = SEXTANT__UNDEF;

  if (kind >= SEXTANT__J_STRING && kind <= SEXTANT__J_WIN)
    id = sextant__read_u32 (rd);
  switch (kind)
    {
    case SEXTANT__J_HEADER:
      if (sextant__read_u32 (rd) != SEXTANT__JOURNAL_VERSION)
        return -1;
      rj->r.rank = sextant__read_u32 (rd);
      rj->size = sextant__read_u32 (rd);
      rj->pid = (long) sextant__read_u32 (rd);
      rj->r.clock_mode = (int) sextant__read_u32 (rd);
      sextant__read_u64 (rd);       /* chunk size: each event journal has its own */
      sextant__read_u64 (rd);
      free (rj->r.host);
      rj->r.host = strdup (sextant__read_str (rd));
      rj->have_header = !rd->failed && rj->r.host != NULL;
      return rj->have_header ? 0 : -1;
    case SEXTANT__J_CLOCK:
      rj->r.clock.time = sextant__read_u64 (rd);
      rj->r.clock.offset = (int64_t) sextant__read_u64 (rd);
      if (rd->end - rd->pos >= (ptrdiff_t) sizeof (double))
        {
          memcpy (&rj->r.clock.deviation, rd->pos, sizeof (double));
          rd->pos += sizeof (double);
        }
      rj->r.t_first = sextant__read_u64 (rd);
      rj->r.monotonic_at_init = sextant__read_u64 (rd);
      rj->r.realtime_at_init = sextant__read_u64 (rd);
      return rd->failed ? -1 : 0;
    case SEXTANT__J_LOCATION:
      {
        uint64_t loc = sextant__read_u64 (rd);
        const char *name = sextant__read_str (rd);
        sextant__salvage_location *l;

        if (rd->failed || (l = find_location (rj, loc, 1)) == NULL)
          return -1;
        free (l->name);
        l->name = strdup (name);
        return l->name != NULL ? 0 : -1;
      }
    case SEXTANT__J_MODULE:
      {
        uint64_t base = sextant__read_u64 (rd);
        const char *path = sextant__read_str (rd);

        if (rd->failed || sextant__grow ((void **) &rj->modules, &rj->cap_modules, rj->n_modules + 1,
                                         sizeof *rj->modules) != 0)
          return -1;
        rj->modules[rj->n_modules].base = base;
        rj->modules[rj->n_modules].path = strdup (path);
        rj->n_modules++;
        return 0;
      }
    case SEXTANT__J_STOP:
      if (rd->end - rd->pos < (ptrdiff_t) sizeof rj->stop)
        return -1;
      if (!rj->have_stop)
        {
          memcpy (&rj->stop, rd->pos, sizeof rj->stop);
          rj->have_stop = 1;
        }
      rd->pos += sizeof rj->stop;
      return 0;
    case SEXTANT__J_STRING:
      got = sextant__def_string (defs, sextant__read_str (rd));
      break;
    case SEXTANT__J_REGION:
    case SEXTANT__J_SCL:
    case SEXTANT__J_CONTEXT:
    case SEXTANT__J_WIN:
      {
        uint32_t f[6] = { 0 };
        size_t n = kind == SEXTANT__J_REGION ? 6 : kind == SEXTANT__J_SCL ? 2 : 3;

        for (size_t i = 0; i < n; i++)
          f[i] = sextant__read_u32 (rd);
        if (rd->failed)
          return -1;
        if (kind == SEXTANT__J_REGION)
          {
            sextant__region_def def = { f[0], f[1], f[2], f[3], f[4], f[5] };

            got = sextant__def_region (defs, &def);
          }
        else if (kind == SEXTANT__J_SCL)
          got = sextant__def_scl (defs, f[0], f[1]);
        else if (kind == SEXTANT__J_CONTEXT)
          got = sextant__def_context (defs, f[0], f[1], f[2]);
        else
          got = sextant__def_win (defs, f[0], f[1], f[2]);
      }
      break;
    case SEXTANT__J_COMM:
    case SEXTANT__J_GROUP:
      {
        sextant__comm_def def = { 0 };
        uint32_t *members;

        if (kind == SEXTANT__J_COMM)
          {
            def.kind = sextant__read_u32 (rd);
            def.name = sextant__read_u32 (rd);
            def.parent = sextant__read_u32 (rd);
            def.seq = sextant__read_u32 (rd);
            def.min_rank = sextant__read_u32 (rd);
          }
        def.n_members = sextant__read_u32 (rd);
        if (rd->failed || (size_t) (rd->end - rd->pos) / sizeof (uint32_t) < def.n_members)
          return -1;
        members = malloc ((def.n_members + 1) * sizeof *members);
        if (members == NULL)
          return -1;
        memcpy (members, rd->pos, def.n_members * sizeof *members);
        rd->pos += def.n_members * sizeof *members;
        def.members = members;
        got = kind == SEXTANT__J_COMM ? sextant__def_comm (defs, &def)
                                      : sextant__def_group (defs, members, def.n_members);
        free (members);
      }
      break;
    default:
      return 0;                     /* a kind of a later version: skipped */
    }
  return !rd->failed && got == id ? 0 : -1;
}

static int
read_defs_journal (const char   *path,
                   rank_journal *rj)
{
  unsigned char *data;
  size_t len, pos = 0;

  if (read_file (path, &data, &len) != 0)
    return -1;
  rj->journal_bytes = len;
  while (len - pos >= 8)
    {
      uint32_t kind, n;
      sextant__reader rd;

      memcpy (&kind, data + pos, 4);
      memcpy (&n, data + pos + 4, 4);
      if (n > SEXTANT__JOURNAL_MAX_RECORD || len - pos - 8 < n)
        break;
      rd.pos = data + pos + 8;
      rd.end = rd.pos + n;
      rd.failed = 0;
      if (replay (rj, kind, &rd) != 0)
        break;
      pos += 8 + (size_t) n;
    }
  rj->dropped_bytes = len - pos;
  free (data);
  return rj->have_header ? 0 : -1;
}

/* ---- where a fault happened ---- */

static void
resolve_site (rank_journal *rj)
{
  static const Dwfl_Callbacks callbacks = {
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
  };
  Dwfl *dwfl;
  Dwfl_Module *mod;
  Dwfl_Line *line;
  const char *file = NULL, *function = NULL, *comp_dir;
  char joined[PATH_MAX], absolute[PATH_MAX];
  int lineno = 0;

  /* a fault's instruction (where a SIGTERM or abort() found the process
   * is told by the regions open at that time) */
  if (!rj->have_stop || rj->stop.pc == 0 || rj->n_modules == 0 || rj->stop.code <= 0 ||
      !(rj->stop.cause == SIGSEGV || rj->stop.cause == SIGBUS || rj->stop.cause == SIGFPE ||
        rj->stop.cause == SIGILL) ||
      (dwfl = dwfl_begin (&callbacks)) == NULL)
    return;
  dwfl_report_begin (dwfl);
  for (size_t i = 0; i < rj->n_modules; i++)
    if (rj->modules[i].path != NULL)
      dwfl_report_elf (dwfl, rj->modules[i].path, rj->modules[i].path, -1, rj->modules[i].base, false);
  dwfl_report_end (dwfl, NULL, NULL);
  mod = dwfl_addrmodule (dwfl, rj->stop.pc);
  if (mod != NULL)
    {
      function = dwfl_module_addrname (mod, rj->stop.pc);
      if ((line = dwfl_module_getsrc (mod, rj->stop.pc)) != NULL)
        file = dwfl_lineinfo (line, NULL, &lineno, NULL, NULL, NULL);
    }
  if (file != NULL && file[0] != '/' && (comp_dir = dwfl_line_comp_dir (line)) != NULL &&
      snprintf (joined, sizeof joined, "%s/%s", comp_dir, file) < (int) sizeof joined)
    file = realpath (joined, absolute) != NULL ? absolute : joined;
  if (file != NULL)
    {
      sextant__region_def def;

      snprintf (rj->site, sizeof rj->site, "%s:%d%s%s", file, lineno, function != NULL ? " in " : "",
                function != NULL ? function : "");
      /* the stop region carries the site as its file and line */
      def = rj->r.defs.regions[rj->stop_region];
      def.file = sextant__def_string (&rj->r.defs, file);
      def.begin = (uint32_t) lineno;
      rj->stop_region = sextant__def_region (&rj->r.defs, &def);
    }
  else if (function != NULL)
    snprintf (rj->site, sizeof rj->site, "in %s", function);
  dwfl_end (dwfl);
}

static void
stop_name (const rank_journal *rj,
           char               *name,
           size_t              size)
{
  if (rj->running)
    snprintf (name, size, "still running when salvaged");
  else if (!rj->have_stop)
    snprintf (name, size, "killed (no signal seen: SIGKILL?)");
  else if (rj->stop.cause == SEXTANT__STOP_EXIT)
    snprintf (name, size, "exit without MPI_Finalize");
  else if (rj->stop.cause == SEXTANT__STOP_ABORT)
    snprintf (name, size, "stopped by MPI_Abort");
  else
    {
      const char *abbrev = sigabbrev_np (rj->stop.cause);

      if (abbrev != NULL)
        snprintf (name, size, "killed by SIG%s", abbrev);
      else
        snprintf (name, size, "killed by signal %d", rj->stop.cause);
    }
}

/* Writes @len bytes or fails. */
static int
write_all (int         fd,
           const void *data,
           size_t      len)
{
  const unsigned char *p = data;

  while (len > 0)
    {
      ssize_t n = write (fd, p, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return -1;
      p += n;
      len -= (size_t) n;
    }
  return 0;
}

static int
read_chunk (int            fd,
            unsigned char *c,
            size_t         size,
            off_t          offset)
{
  size_t got = 0;

  while (got < size)
    {
      ssize_t n = pread (fd, c + got, size - got, offset + (off_t) got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return -1;
      got += (size_t) n;
    }
  return 0;
}

/* ---- event journals still in memory ---- */

/* Copies the in-memory event journal @target over the link @link to it,
 * and removes @target. */
static int
adopt_one (const char *link,
           const char *target)
{
  char tmp[PATH_MAX];
  unsigned char *buf = NULL;
  struct stat st;
  int from, to = -1, rc = -1;

  if ((from = open (target, O_RDONLY | O_CLOEXEC)) < 0)
    return -1;
  if (fstat (from, &st) != 0 ||
      snprintf (tmp, sizeof tmp, "%s.%ld.adopting", link, (long) getpid ()) >= (int) sizeof tmp ||
      (to = open (tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0 ||
      (buf = malloc (SEXTANT__EVENT_CHUNK)) == NULL)
    goto out;
  for (off_t off = 0; off < st.st_size; off += SEXTANT__EVENT_CHUNK)
    {
      size_t n = (size_t) (st.st_size - off < SEXTANT__EVENT_CHUNK ? st.st_size - off : SEXTANT__EVENT_CHUNK);

      if (read_chunk (from, buf, n, off) != 0 || write_all (to, buf, n) != 0)
        goto out;
    }
  if (close (to) != 0)
    {
      to = -1;
      goto out;
    }
  to = -1;
  if (rename (tmp, link) == 0)
    {
      unlink (target);
      rc = 0;
    }
out:
  if (rc != 0)
    {
      fprintf (stderr, "sextant-record-salvage: cannot move %s to %s: %s\n", target, link, strerror (errno));
      unlink (tmp);
    }
  if (to >= 0)
    close (to);
  close (from);
  free (buf);
  return rc;
}

/* Whether process @pid has ended (a zombie has). */
static int
process_gone (long pid)
{
  char path[64], stat[512];
  const char *state;
  FILE *f;
  size_t n;

  if (kill ((pid_t) pid, 0) != 0 && errno == ESRCH)
    return 1;
  snprintf (path, sizeof path, "/proc/%ld/stat", pid);
  if ((f = fopen (path, "r")) == NULL)
    return errno == ENOENT;
  n = fread (stat, 1, sizeof stat - 1, f);
  fclose (f);
  stat[n] = '\0';
  /* "pid (comm) S ...": the state after the last ')' */
  state = strrchr (stat, ')');
  return state != NULL && (state[1] == ' ') && (state[2] == 'Z' || state[2] == 'X');
}

/* Moves the event journals that are still in memory (links in
 * DIR/journal to files in SEXTANT__EVTJ_SHM_DIR, sextant-recorder-journal.c)
 * into DIR/journal, those of processes that are gone (waiting up to
 * @wait_seconds for each): after a crash they would hold memory until the
 * next reboot, and be lost with it. Returns how many could not be moved
 * (their links still work). */
static int
adopt_journals (const char *dir,
                int         wait_seconds)
{
  char journal[PATH_MAX];
  DIR *d;
  struct dirent *entry;
  int failed = 0;

  if (snprintf (journal, sizeof journal, "%s/journal", dir) >= (int) sizeof journal ||
      (d = opendir (journal)) == NULL)
    return 0;
  while ((entry = readdir (d)) != NULL)
    {
      char link[PATH_MAX], target[PATH_MAX];
      const char *base;
      ssize_t n;
      long pid;

      if (strstr (entry->d_name, ".evtj") == NULL ||
          snprintf (link, sizeof link, "%s/%s", journal, entry->d_name) >= (int) sizeof link ||
          (n = readlink (link, target, sizeof target - 1)) <= 0)
        continue;
      target[n] = '\0';
      base = strrchr (target, '/') != NULL ? strrchr (target, '/') + 1 : target;
      if (strncmp (base, SEXTANT__EVTJ_SHM_PREFIX, strlen (SEXTANT__EVTJ_SHM_PREFIX)) != 0 ||
          (pid = strtol (base + strlen (SEXTANT__EVTJ_SHM_PREFIX), NULL, 10)) <= 0 ||
          access (target, R_OK) != 0)
        continue;                   /* not ours, or gone (the salvage says so) */
      /* the launch command has ended (--adopt): its ranks are ending */
      for (int i = 0; i < wait_seconds * 100 && !process_gone (pid); i++)
        usleep (10000);
      if (!process_gone (pid))
        continue;                   /* still recording */
      if (adopt_one (link, target) != 0)
        failed++;
    }
  closedir (d);
  return failed;
}

/* Whether process @pid is still there and holds its definition journal
 * @defs open: a rank that records or is about to (the recorder opens it in
 * MPI_Init, before anything else, and closes it when it removes the
 * journal), not some later process with its pid. */
static int
still_recording (long        pid,
                 const char *defs)
{
  char path[64 + 256];
  struct stat mine, theirs;
  struct dirent *entry;
  DIR *fds;
  int found = 0;

  if (process_gone (pid) || stat (defs, &mine) != 0)
    return 0;
  snprintf (path, sizeof path, "/proc/%ld/fd", pid);
  if ((fds = opendir (path)) == NULL)
    return 0;
  while (!found && (entry = readdir (fds)) != NULL)
    found = snprintf (path, sizeof path, "/proc/%ld/fd/%s", pid, entry->d_name) < (int) sizeof path &&
            stat (path, &theirs) == 0 && theirs.st_dev == mine.st_dev && theirs.st_ino == mine.st_ino;
  closedir (fds);
  return found;
}

/* Waits up to @wait_seconds for the processes of @ranks on this host that
 * are still recording (@journal: DIR/journal): after the launcher was
 * killed its ranks live on for a moment, and journals read one after the
 * other while their processes still write them end at different moments
 * of the run. Those still recording then (a hung run looked at while it
 * hangs) are marked running. Returns whether any was recording at first. */
static int
wait_for_ranks (rank_journal *ranks,
                size_t        n_ranks,
                const char   *journal,
                int           wait_seconds)
{
  char host[256] = "", defs[PATH_MAX];
  int any = 0;

  gethostname (host, sizeof host - 1);
  for (int i = 0; i <= wait_seconds * 100; i++)
    {
      int waiting = 0;

      for (size_t r = 0; r < n_ranks; r++)
        if (ranks[r].pid > 0 && ranks[r].r.host != NULL && strcmp (ranks[r].r.host, host) == 0 &&
            snprintf (defs, sizeof defs, "%s/rank-%" PRIu32 ".defs", journal, ranks[r].r.rank) < (int) sizeof defs)
          waiting += ranks[r].running = still_recording (ranks[r].pid, defs);
      any |= waiting > 0;
      if (waiting == 0 || i == wait_seconds * 100)
        break;
      usleep (10000);
    }
  return any;
}

/* The journal's state word: (chunks in the .evt file << 16) | slots in use. */
static int
read_state (int       evtj_fd,
            uint64_t *state)
{
  sextant__evtj_header header;

  if (read_chunk (evtj_fd, (unsigned char *) &header, sizeof header, 0) != 0)
    return -1;
  *state = atomic_load (&header.state);
  return 0;
}

/* The events of one location into @staging/LOCATION.evt. */
static int
salvage_location (const char                *dir,
                  const char                *staging,
                  rank_journal              *rj,
                  sextant__salvage_location *loc,
                  const char                *why)
{
  char evt[PATH_MAX], evtj[PATH_MAX], out[PATH_MAX];
  sextant__evtj_header header;
  uint64_t chunk_size = SEXTANT__EVENT_CHUNK, flushed = 0, used = 0, from_journal = 0;
  uint64_t stop_time, recorded, state = 0, now;
  unsigned char *c = NULL, *pending = NULL;
  int have_pending = 0, evt_fd, evtj_fd, out_fd, rc = -1;
  sextant__chunk_walk w = { 0 };
  const sextant__clock_point *clock = &rj->r.clock;

  w.region0_is_init = rj->r.defs.n_regions > 0 &&
                      strncmp (rj->r.defs.strings[rj->r.defs.regions[0].name], "MPI_Init", 8) == 0;

  if (snprintf (evt, sizeof evt, "%s/traces/%" PRIu64 ".evt", dir, loc->id) >= (int) sizeof evt ||
      snprintf (evtj, sizeof evtj, "%s/journal/%" PRIu64 ".evtj", dir, loc->id) >= (int) sizeof evtj ||
      snprintf (out, sizeof out, "%s/%" PRIu64 ".evt", staging, loc->id) >= (int) sizeof out)
    return -1;
  evt_fd = open (evt, O_RDONLY | O_CLOEXEC);
  evtj_fd = open (evtj, O_RDONLY | O_CLOEXEC);
  if (evtj_fd >= 0 && read_chunk (evtj_fd, (unsigned char *) &header, sizeof header, 0) == 0 &&
      memcmp (header.magic, SEXTANT__EVTJ_MAGIC, sizeof header.magic) == 0 &&
      header.chunk_size >= 4096 && header.chunk_size <= (UINT64_C (1) << 30))
    {
      state = atomic_load (&header.state);
      chunk_size = header.chunk_size;
      flushed = state >> 16;
      used = state & 0xffff;
      if (used > header.n_slots)
        used = header.n_slots;
    }
  else
    {
      struct stat st;
      char target[PATH_MAX];
      ssize_t n = readlink (evtj, target, sizeof target - 1);

      if (evt_fd >= 0 && fstat (evt_fd, &st) == 0)
        flushed = (uint64_t) st.st_size / chunk_size;
      if (n > 0)
        {
          target[n] = '\0';
          report_line ("lost", loc->id, 0, "rank %" PRIu32 ", %s: its event journal was in memory on host "
                       "%s, %s, which is gone (read on another host, after a reboot, or removed); only the "
                       "chunks flushed to %" PRIu64 ".evt are salvaged", rj->r.rank,
                       loc->name != NULL ? loc->name : "?", rj->r.host != NULL ? rj->r.host : "?", target,
                       loc->id);
        }
      else
        report_line ("lost", loc->id, 0, "rank %" PRIu32 ", %s: no readable event journal; only the "
                     "chunks flushed to %" PRIu64 ".evt are salvaged", rj->r.rank,
                     loc->name != NULL ? loc->name : "?", loc->id);
    }
  c = malloc (chunk_size);
  pending = malloc (chunk_size);
  out_fd = open (out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (c == NULL || pending == NULL || out_fd < 0)
    goto out;

#define EMIT()                                                              \
  do {                                                                      \
    unsigned char *swap_;                                                   \
    if (have_pending && write_all (out_fd, pending, chunk_size) != 0)       \
      goto out;                                                             \
    swap_ = pending;                                                        \
    pending = c;                                                            \
    c = swap_;                                                              \
    have_pending = 1;                                                       \
  } while (0)

  for (uint64_t i = 0; i < flushed; i++)
    {
      int cut;

      if (evt_fd < 0 || read_chunk (evt_fd, c, chunk_size, (off_t) (i * chunk_size)) != 0)
        {
          report_line ("lost", loc->id, 0, "rank %" PRIu32 ", %s: %" PRIu64 ".evt ends after %" PRIu64
                       " of the %" PRIu64 " chunks (%" PRIu64 " MiB each) flushed to it; the rest is lost",
                       rj->r.rank, loc->name != NULL ? loc->name : "?", loc->id, i, flushed,
                       chunk_size >> 20);
          break;
        }
      if (sextant__chunk_walk_next (c, chunk_size, &w, &cut) > 0)
        EMIT ();
      if (cut)
        report_line ("lost", loc->id, sextant__clock_correct (clock, NULL, w.time),
                     "rank %" PRIu32 ", %s: flushed chunk %" PRIu64 " is damaged after its event %" PRIu64
                     "; the rest of it is lost", rj->r.rank, loc->name != NULL ? loc->name : "?", i,
                     w.n_events);
    }
  for (uint64_t s = 0; s < used; s++)
    {
      uint64_t before = w.n_events;
      int cut;

      if (read_chunk (evtj_fd, c, chunk_size, (off_t) (SEXTANT__EVTJ_HEADER + s * chunk_size)) != 0)
        break;
      /* a process still recording may have flushed and reused the slot
       * since the state was read: its events end before it */
      if (read_state (evtj_fd, &now) != 0 || now != state)
        break;
      if (sextant__chunk_walk_next (c, chunk_size, &w, &cut) > 0)
        EMIT ();
      from_journal += w.n_events - before;
      if (cut)
        report_line ("lost", loc->id, sextant__clock_correct (clock, NULL, w.time),
                     "rank %" PRIu32 ", %s: the record after event %" PRIu64
                     " was cut by the end of the process and is dropped",
                     rj->r.rank, loc->name != NULL ? loc->name : "?", w.n_events);
    }
  if (w.failed)
    goto out;

  stop_time = rj->have_stop && rj->stop.time > w.time ? rj->stop.time : w.time;
  recorded = w.n_events;
  if (!have_pending ||
      (w.n_events > 0 && sextant__chunk_walk_append_stop (pending, chunk_size, &w, rj->stop_region, stop_time) != 0))
    {
      /* a chunk of its own */
      sextant__chunk_walk_new_chunk (c, chunk_size, &w);
      if (w.n_events > 0)
        sextant__chunk_walk_append_stop (c, chunk_size, &w, rj->stop_region, stop_time);
      EMIT ();
    }
  /* the end of the location's events, as libotf2 closes a writer */
  sextant__chunk_walk_close (pending, &w);
  if (write_all (out_fd, pending, chunk_size) != 0)
    goto out;
#undef EMIT
  loc->n_events = w.n_events;
  if (stop_time > rj->r.t_last)
    rj->r.t_last = stop_time;
  report_line ("salvaged", loc->id, sextant__clock_correct (clock, NULL, stop_time),
               "rank %" PRIu32 ", %s: %" PRIu64 " events salvaged (%" PRIu64 " of them not yet flushed, "
               "from the journal), then %s%s%s", rj->r.rank, loc->name != NULL ? loc->name : "?",
               recorded, from_journal, why,
               rj->site[0] != '\0' && rj->have_stop && rj->stop.location == loc->id ? " at " : "",
               rj->site[0] != '\0' && rj->have_stop && rj->stop.location == loc->id ? rj->site : "");
  rc = 0;
out:
  if (rc != 0)
    fprintf (stderr, "sextant-record-salvage: %s: %s\n", out, strerror (errno));
  if (out_fd >= 0 && close (out_fd) != 0)
    rc = -1;
  if (evt_fd >= 0)
    close (evt_fd);
  if (evtj_fd >= 0)
    close (evtj_fd);
  free (c);
  free (pending);
  free (w.stack);
  return rc;
}

static void
rank_journal_clear (rank_journal *rj)
{
  for (size_t i = 0; i < rj->r.n_locs; i++)
    free (rj->r.locs[i].name);
  free (rj->r.locs);
  free (rj->r.host);
  for (size_t i = 0; i < rj->n_modules; i++)
    free (rj->modules[i].path);
  free (rj->modules);
  sextant__defs_clear (&rj->r.defs);
}

static int
by_rank (const void *a,
         const void *b)
{
  const rank_journal *x = a, *y = b;

  return x->r.rank < y->r.rank ? -1 : x->r.rank > y->r.rank;
}

/* Reads the definition journals in @journal (DIR/journal) into @ranks,
 * sorted by rank, and the size of the world. */
static void
read_ranks (const char    *journal,
            rank_journal **ranks,
            size_t        *n_ranks,
            uint32_t      *world)
{
  size_t cap_ranks = 0;
  struct dirent *entry;
  DIR *d;

  *ranks = NULL;
  *n_ranks = 0;
  *world = 0;
  if ((d = opendir (journal)) == NULL)
    return;
  while ((entry = readdir (d)) != NULL)
    {
      char file[PATH_MAX];
      rank_journal *rj;

      if (strncmp (entry->d_name, "rank-", 5) != 0 || strstr (entry->d_name, ".defs") == NULL ||
          sextant__grow ((void **) ranks, &cap_ranks, *n_ranks + 1, sizeof **ranks) != 0)
        continue;
      rj = &(*ranks)[*n_ranks];
      memset (rj, 0, sizeof *rj);
      if (snprintf (file, sizeof file, "%s/%s", journal, entry->d_name) >= (int) sizeof file ||
          read_defs_journal (file, rj) != 0)
        {
          fprintf (stderr, "sextant-record-salvage: %s: not a crash journal of this version\n", file);
          rank_journal_clear (rj);
          continue;
        }
      if (rj->size > *world)
        *world = rj->size;
      (*n_ranks)++;
    }
  closedir (d);
  qsort (*ranks, *n_ranks, sizeof **ranks, by_rank);
}

int
main (int    argc,
      char **argv)
{
  const char *dir, *out;
  char path[PATH_MAX], staging[PATH_MAX], report_path[PATH_MAX];
  rank_journal *ranks = NULL;
  size_t n_ranks = 0;
  uint32_t world = 0;
  int rc, running;

  if (argc == 3 && strcmp (argv[1], "--adopt") == 0)
    return adopt_journals (argv[2], 10) == 0 ? 0 : 1;
  if (argc != 3)
    {
      fprintf (stderr, "usage: sextant-record-salvage DIR OUT\n"
                       "       sextant-record-salvage --adopt DIR\n"
                       "Rebuilds OUT/traces.otf2 from the crash journal of the recording DIR;\n"
                       "--adopt only moves its event journals still in memory into DIR/journal.\n");
      return 2;
    }
  dir = argv[1];
  out = argv[2];
  snprintf (path, sizeof path, "%s/journal", dir);
  if (access (path, R_OK | X_OK) != 0)
    {
      fprintf (stderr, "sextant-record-salvage: %s: no crash journal (%s)\n", dir, strerror (errno));
      return 1;
    }
  read_ranks (path, &ranks, &n_ranks, &world);
  /* ranks that were still recording wrote on: read them again */
  if (wait_for_ranks (ranks, n_ranks, path, 10))
    {
      for (size_t i = 0; i < n_ranks; i++)
        rank_journal_clear (&ranks[i]);
      free (ranks);
      read_ranks (path, &ranks, &n_ranks, &world);
      wait_for_ranks (ranks, n_ranks, path, 0);
    }
  if (n_ranks == 0)
    {
      fprintf (stderr, "sextant-record-salvage: %s: the crash journal holds no rank\n", dir);
      return 1;
    }
  /* where it can (DIR may be read-only); a process that no longer
   * records but is still ending gets a second to be gone */
  running = 0;
  for (size_t i = 0; i < n_ranks; i++)
    running += ranks[i].running;
  adopt_journals (dir, running > 0 ? 0 : 1);

  if ((mkdir (out, 0777) != 0 && errno != EEXIST) ||
      snprintf (staging, sizeof staging, "%s/salvaged-events", out) >= (int) sizeof staging ||
      (mkdir (staging, 0777) != 0 && errno != EEXIST) ||
      snprintf (report_path, sizeof report_path, "%s/salvage.txt", out) >= (int) sizeof report_path)
    {
      fprintf (stderr, "sextant-record-salvage: %s: %s\n", out, strerror (errno));
      return 1;
    }
  for (uint32_t r = 0, i = 0; r < world; r++)
    {
      while (i < n_ranks && ranks[i].r.rank < r)
        i++;
      if (i == n_ranks || ranks[i].r.rank != r)
        report_line ("lost", UINT64_MAX, 0, "rank %" PRIu32 " left no crash journal: its events are lost", r);
    }

  rc = 0;
  for (size_t i = 0; i < n_ranks; i++)
    {
      rank_journal *rj = &ranks[i];
      char name[64], why[128];
      sextant__region_def def = { 0 };

      stop_name (rj, name, sizeof name);
      def.name = sextant__def_string (&rj->r.defs, name);
      def.role = OTF2_REGION_ROLE_ARTIFICIAL;
      def.paradigm = OTF2_PARADIGM_MEASUREMENT_SYSTEM;
      def.file = SEXTANT__UNDEF;
      rj->stop_region = sextant__def_region (&rj->r.defs, &def);
      resolve_site (rj);
      if (rj->have_stop && rj->stop.cause > 0 && (rj->stop.cause == SIGSEGV || rj->stop.cause == SIGBUS))
        snprintf (why, sizeof why, "%s (address 0x%" PRIx64 ")", name, rj->stop.address);
      else
        snprintf (why, sizeof why, "%s", name);
      if (rj->dropped_bytes > 0)
        report_line ("lost", UINT64_MAX, 0, "rank %" PRIu32 ": the last %" PRIu64 " bytes of its definition "
                     "journal are damaged and were dropped", rj->r.rank, rj->dropped_bytes);
      if (rj->r.n_locs == 0)
        report_line ("lost", UINT64_MAX, 0, "rank %" PRIu32 " ended in MPI_Init, before it recorded anything: it "
                     "has no location", rj->r.rank);
      if (rj->running)
        report_line ("lost", UINT64_MAX, 0, "rank %" PRIu32 ": its process (pid %ld on %s) was still recording "
                     "when this was salvaged; its events end where they were then", rj->r.rank, rj->pid,
                     rj->r.host);
      rj->r.t_last = rj->r.t_first;
      for (size_t l = 0; l < rj->r.n_locs; l++)
        if (salvage_location (dir, staging, rj, &rj->r.locs[l], why) != 0)
          rc = 1;
    }

  if (rc == 0)
    {
      sextant__salvage_rank *plain = calloc (n_ranks, sizeof *plain);

      for (size_t i = 0; plain != NULL && i < n_ranks; i++)
        plain[i] = ranks[i].r;
      rc = plain == NULL ? 1
           : sextant__write_salvaged (out, plain, n_ranks, (int) world) != SEXTANT_RECORDER_OK;
      free (plain);
    }
  /* the event files into the archive */
  for (size_t i = 0; rc == 0 && i < n_ranks; i++)
    for (size_t l = 0; l < ranks[i].r.n_locs; l++)
      {
        char from[PATH_MAX], to[PATH_MAX];

        if (snprintf (from, sizeof from, "%s/%" PRIu64 ".evt", staging, ranks[i].r.locs[l].id)
            >= (int) sizeof from ||
            snprintf (to, sizeof to, "%s/traces/%" PRIu64 ".evt", out, ranks[i].r.locs[l].id)
            >= (int) sizeof to || rename (from, to) != 0)
          {
            fprintf (stderr, "sextant-record-salvage: cannot move %s to %s: %s\n", from, to, strerror (errno));
            rc = 1;
          }
      }
  rmdir (staging);
  if (write_report (report_path) != 0)
    rc = 1;
  for (size_t i = 0; i < n_ranks; i++)
    rank_journal_clear (&ranks[i]);
  free (ranks);
  if (rc == 0)
    fprintf (stderr, "sextant-record-salvage: salvaged %s into %s/traces.otf2\n", dir, out);
  return rc;
}
