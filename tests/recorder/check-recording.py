#!/usr/bin/env python3
# check-recording.py - records one test program and checks the archive.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   check-recording.py SCENARIO --builddir DIR --srcdir DIR --launcher FILE
#                      --mpirun FILE --timeout FILE --otf2-print FILE
#
# Every scenario runs an MPI program of this directory on 1-8 Open MPI ranks
# (the project's recipe: oversubscribed, osc/sm, under `timeout`), either
# through the sextant-record launcher (LD_PRELOAD) or linked with the
# recorder, and then asserts on the archive:
#  - otf2-print -Werror reads it (events and global definitions), and the
#    number of records of each kind is what the program did;
#  - `sextant import` + `sextant info --json` (SEXTANT names the CLI) count
#    the same records, match every message, and find the expected number of
#    collective instances and RMA operations, without import warnings;
#  - call sites: every line marked CALLSITE:<function> in the program's
#    source has visits of <function> with that source line, and every visit
#    whose call site is in that source is at a line marked for its function;
#    each visit's calling context starts at its call site;
#  - declarations: the region of every function marked DECL:<function> (on
#    the line of its name) has that source file and begin line;
#  - call paths: the visits of a call marked PATH:<frames> have the call
#    path of those frames, each with the line of its call from the calling
#    context; every visit's path lies below its enclosing visit's;
#  - what the scenario adds (timing of late senders, communicator members,
#    Broadcaster locations, crashed runs salvaged from their crash journal, ...).
# Exit status 0 when every check holds; the first failure is printed; 77
# (skipped) when the program was not built the way the scenario needs.
# Python 3 standard library only.

import argparse
import difflib
import json
import os
import re
import shutil
import signal
import sqlite3
import struct

import sextant_sqlite  # noqa: F401  (the column tables)
import subprocess
import sys
import tempfile
import time

MPIRUN_OPTIONS = ['--oversubscribe', '--allow-run-as-root', '--bind-to', 'none',
                  '--mca', 'osc', 'sm', '--mca', 'btl', 'self,vader']
RUN_SECONDS = 90            # inner timeout of one mpirun
MS = 1000000                # ticks (ns) per millisecond


class Failure(Exception):
    pass


class Skip(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def markers(path, kind='CALLSITE'):
    """{function: set of lines} of the <kind>:<function> comments of a source."""
    found = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            for name in re.findall(kind + r':(\w+)', line):
                found.setdefault(name, set()).add(number)
    return found


def count_records(text):
    """Event records per kind, and per (kind, location), in otf2-print output."""
    kinds, per_location = {}, {}
    for line in text.splitlines():
        m = re.match(r'^([A-Z][A-Z_]+)\s+(\d+)\s+(\d+)\s', line)
        if m:
            kinds[m.group(1)] = kinds.get(m.group(1), 0) + 1
            key = (m.group(1), int(m.group(2)))
            per_location[key] = per_location.get(key, 0) + 1
    return kinds, per_location


class Recording:
    """One recorded run and what is known about its archive."""

    def __init__(self, ctx, name):
        self.ctx = ctx
        self.name = name
        self.dir = os.path.join(ctx.tmp, name)
        self.anchor = os.path.join(self.dir, 'traces.otf2')
        self.db_path = os.path.join(ctx.tmp, name + '.sqlite')
        self.kinds = {}
        self.per_location = {}
        self.info = None
        self.db = None
        self.stderr = ''

    # -- running --------------------------------------------------------

    def command(self, program, np, args, linked, env):
        exe = os.path.join(self.ctx.builddir, program)
        mpirun = [self.ctx.mpirun] + MPIRUN_OPTIONS + ['-np', str(np)]
        if linked:
            env['SEXTANT_RECORD_DIR'] = self.dir
            names = sorted(n for n in env if n.startswith('SEXTANT_RECORD'))
            for n in names:
                mpirun += ['-x', n]
            return [self.ctx.timeout, '--kill-after=10', str(RUN_SECONDS)] + mpirun + [exe] + args
        return ([self.ctx.timeout, '--kill-after=10', str(RUN_SECONDS), self.ctx.launcher, '-o', self.dir]
                + mpirun + [exe] + args)

    def run(self, program, np, args=(), linked=False, env=None, expect_success=True):
        full_env = dict(os.environ)
        full_env.update(env or {})
        cmd = self.command(program, np, list(args), linked, full_env)
        proc = subprocess.run(cmd, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=RUN_SECONDS + 30)
        self.stderr = proc.stderr
        sys.stdout.write(proc.stdout)
        sys.stderr.write(proc.stderr)
        if expect_success:
            check(proc.returncode == 0, '%s exited with %d' % (program, proc.returncode))
            warnings = [l for l in proc.stderr.splitlines() if l.startswith('sextant-record: rank')]
            check(not warnings, 'the recorder complained: %s' % warnings)
            check(not os.path.exists(os.path.join(self.dir, 'journal')),
                  'the crash journal is left after a normal end')
        return proc

    # -- reading --------------------------------------------------------

    def otf2_print(self, anchor=None):
        anchor = anchor or self.anchor
        check(os.path.exists(anchor), 'no archive %s' % anchor)
        events = subprocess.run([self.ctx.otf2_print, '-Werror', anchor], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        check(events.returncode == 0, 'otf2-print failed (%d): %s' % (events.returncode, events.stderr[-2000:]))
        defs = subprocess.run([self.ctx.otf2_print, '-G', '-Werror', anchor], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        check(defs.returncode == 0, 'otf2-print -G failed (%d): %s' % (defs.returncode, defs.stderr[-2000:]))
        self.kinds, self.per_location = count_records(events.stdout)
        self.global_defs = defs.stdout
        return self

    def import_(self, archive=None, allowed_warnings=()):
        archive = archive or self.dir
        sextant = os.environ['SEXTANT']
        imp = subprocess.run([sextant, 'import', archive, '-o', self.db_path, '--force'],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                             timeout=300)
        check(imp.returncode == 0, 'sextant import failed: %s' % imp.stderr)
        info = subprocess.run([sextant, 'info', self.db_path, '--json'], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        check(info.returncode == 0, 'sextant info failed: %s' % info.stderr)
        self.info = json.loads(info.stdout)
        kinds = [w['kind'] if isinstance(w, dict) else str(w) for w in self.info['warnings']]
        unexpected = [k for k in kinds if k not in allowed_warnings]
        check(not unexpected, 'import warnings: %s' % [w for w in self.info['warnings']
                                                      if (w['kind'] if isinstance(w, dict) else w)
                                                      in unexpected])
        # the importer read exactly what otf2-print printed
        for kind, n in self.kinds.items():
            check(self.info['events'].get(kind, 0) == n,
                  'otf2-print shows %d %s records, the importer %s' % (n, kind, self.info['events'].get(kind)))
        self.db = sqlite3.connect(self.db_path)
        return self

    def query(self, sql, *args):
        return self.db.execute(sql, args).fetchall()

    # -- assertions -----------------------------------------------------

    def expect_records(self, expected):
        for kind, n in expected.items():
            check(self.kinds.get(kind, 0) == n,
                  '%d %s records, expected %d' % (self.kinds.get(kind, 0), kind, n))

    def expect_info(self, matched=None, unmatched=0, collectives=None, rma=None, locations=None):
        messages = self.info['messages']
        if matched is not None:
            check(messages['matched'] == matched, '%d matched messages, expected %d' % (messages['matched'], matched))
        if unmatched is not None:
            check(messages['unmatched'] == unmatched,
                  '%d unmatched messages, expected %d' % (messages['unmatched'], unmatched))
        if collectives is not None:
            check(self.info['collectives'] == collectives,
                  '%d collective instances, expected %d' % (self.info['collectives'], collectives))
        if rma is not None:
            check(self.info['rma_operations'] == rma,
                  '%d RMA operations, expected %d' % (self.info['rma_operations'], rma))
        if locations is not None:
            check(len(self.info['locations']) == locations,
                  '%d locations, expected %d' % (len(self.info['locations']), locations))

    def expect_callsites(self, source, require_all_mpi=True, required=None):
        """The marked lines of @source are exactly the call sites in the trace
        (of the functions in @required only, if given: a run that did not
        reach every marked line)."""
        path = os.path.realpath(os.path.join(self.ctx.srcdir, source))
        marks = markers(path)
        rows = self.query('''SELECT r.name, r.paradigm, s.file, s.line, COUNT(*)
                             FROM visit v JOIN region r ON r.id = v.region
                             LEFT JOIN source_code_location s ON s.id = v.scl
                             GROUP BY r.name, r.paradigm, s.file, s.line''')
        seen = {}
        for name, paradigm, file, line, n in rows:
            if paradigm == 'MPI' and require_all_mpi:
                check(file is not None, '%d visits of %s have no call site' % (n, name))
            if file is not None and os.path.realpath(file) == path:
                check(line in marks.get(name, set()),
                      '%d visits of %s at %s:%d, a line not marked CALLSITE:%s' % (n, name, source, line, name))
                seen.setdefault(name, set()).add(line)
        for name, lines in marks.items():
            if not name.startswith('MPI_') or (required is not None and name not in required):
                continue          # program functions: see expect_context
            missing = lines - seen.get(name, set())
            check(not missing, 'no visit of %s at %s lines %s' % (name, source, sorted(missing)))
        # a calling context starts at the visit's call site
        bad = self.query('''SELECT COUNT(*) FROM visit v JOIN calling_context c ON c.id = v.context
                            WHERE v.scl IS NOT NULL AND c.source_code_location IS NOT v.scl''')[0][0]
        check(bad == 0, '%d visits whose calling context does not start at their call site' % bad)

    def expect_context(self, source, function, inner, outer):
        """Visits of @function have the context inner@<marked line> <- outer@<marked line of inner>."""
        marks = markers(os.path.join(self.ctx.srcdir, source))
        rows = self.query('''SELECT ci.id, ri.name, si.line, ro.name, so.line, co.parent
                             FROM visit v JOIN region r ON r.id = v.region
                             JOIN calling_context ci ON ci.id = v.context
                             JOIN region ri ON ri.id = ci.region
                             JOIN source_code_location si ON si.id = ci.source_code_location
                             JOIN calling_context co ON co.id = ci.parent
                             JOIN region ro ON ro.id = co.region
                             JOIN source_code_location so ON so.id = co.source_code_location
                             WHERE r.name = ?''', function)
        total = self.query('''SELECT COUNT(*) FROM visit v JOIN region r ON r.id = v.region
                              WHERE r.name = ?''', function)[0][0]
        check(total > 0 and len(rows) == total,
              '%d of %d visits of %s have a two-level calling context' % (len(rows), total, function))
        for _, inner_name, inner_line, outer_name, outer_line, outer_parent in rows:
            check(inner_name == inner and inner_line in marks[function],
                  'context of %s starts at %s:%d' % (function, inner_name, inner_line))
            check(outer_name == outer and outer_line in marks[inner],
                  'caller of %s is %s:%d' % (inner, outer_name, outer_line))
            check(outer_parent is None, 'the calling context goes on above main()')

    def expect_call_paths(self, source):
        """The visits of each call marked PATH:f0/f1/.../MPI_X in @source
        have the call paths "f0@<file>:<line>/f1@<file>:<line>/.../MPI_X":
        f1's line is this one, f0's a line marked CALLSITE:f1 (every such
        line is expected). The call_path rows spell the same: parents,
        depths, and each frame's source code location. Returns {function:
        set of path names}."""
        path = os.path.realpath(os.path.join(self.ctx.srcdir, source))
        base = os.path.basename(path)
        calls = markers(path)
        expected = {}
        with open(path) as f:
            for number, text in enumerate(f, 1):
                for spec in re.findall(r'PATH:([\w/]+)', text):
                    frames = spec.split('/')
                    names = ['']
                    for i, frame in enumerate(frames[:-1]):
                        lines = [number] if i == len(frames) - 2 else sorted(calls[frames[i + 1]])
                        names = [n + ('/' if n else '') + '%s@%s:%d' % (frame, base, l)
                                 for n in names for l in lines]
                    expected.setdefault(frames[-1], set()).update(n + '/' + frames[-1] for n in names)
        check(expected, 'no PATH markers in %s' % source)
        for function, names in expected.items():
            got = {name for name, in self.query('''SELECT DISTINCT p.name FROM visit v
                                                   JOIN region r ON r.id = v.region
                                                   JOIN call_path p ON p.id = v.path
                                                   WHERE r.name = ?''', function)}
            check(got == names, 'call paths of %s: %s, expected %s' % (function, sorted(got), sorted(names)))
        # the rows: each path's frames by parent links, with their lines
        for start, name in self.query('SELECT id, name FROM call_path'):
            frames, depth, pid = [], None, start
            while pid is not None:
                parent, region, scl_file, scl_line, row_depth = self.query(
                    '''SELECT p.parent, r.name, s.file, s.line, p.depth FROM call_path p
                       JOIN region r ON r.id = p.region
                       LEFT JOIN source_code_location s ON s.id = p.scl WHERE p.id = ?''', pid)[0]
                depth = row_depth if depth is None else depth
                frames.insert(0, region if scl_file is None
                              else '%s@%s:%d' % (region, os.path.basename(scl_file), scl_line))
                pid = parent
            check('/'.join(frames) == name, 'call path %r is spelled %r by its rows' % (name, '/'.join(frames)))
            check(depth == len(frames) - 1, 'call path %r has depth %d' % (name, depth))
        return expected

    def expect_path_nesting(self):
        """Every visit's call path ends with its region and lies below the
        path of its enclosing visit."""
        bad = self.query('''SELECT COUNT(*) FROM visit v JOIN call_path p ON p.id = v.path
                            WHERE p.region != v.region''')[0][0]
        check(bad == 0, '%d visits whose call path ends in another region' % bad)
        rows = self.query('''SELECT pp.name, p.name FROM visit v JOIN visit pv ON pv.id = v.parent
                             JOIN call_path p ON p.id = v.path JOIN call_path pp ON pp.id = pv.path''')
        outside = sorted({(parent, name) for parent, name in rows if not name.startswith(parent + '/')})
        check(not outside, "visits whose call path is not below their parent's: %s" % outside[:5])

    def expect_declarations(self, source):
        """The region of each function marked DECL:<function> in @source has
        the source's file and the marked line as its begin line."""
        path = os.path.realpath(os.path.join(self.ctx.srcdir, source))
        for function, lines in markers(path, 'DECL').items():
            rows = self.query('''SELECT DISTINCT file, begin_line FROM region
                                 WHERE name = ? AND paradigm = 'USER' ''', function)
            check(rows, 'no region %s' % function)
            for file, line in rows:
                check(file is not None and os.path.realpath(file) == path and line in lines,
                      'region %s is declared at %s:%s, expected %s:%s' % (function, file, line, source,
                                                                         sorted(lines)))

    def visits(self, region):
        return self.query('''SELECT v.loc, v.enter, v.leave FROM visit v JOIN region r ON r.id = v.region
                             WHERE r.name = ? ORDER BY v.enter''', region)


# ---- scenarios ------------------------------------------------------------

def scenario_pingpong(ctx, linked=False):
    n = 100
    rec = Recording(ctx, 'pingpong-linked' if linked else 'pingpong')
    rec.run('rec-pingpong-linked' if linked else 'rec-pingpong', 2, [str(n)], linked=linked)
    rec.otf2_print().import_()
    rec.expect_records({'MPI_SEND': 2 * n, 'MPI_RECV': 2 * n, 'MPI_COLLECTIVE_BEGIN': 2,
                        'MPI_COLLECTIVE_END': 2})
    rec.expect_info(matched=2 * n, collectives=1, locations=2)
    rec.expect_callsites('rec-pingpong.c')
    rec.expect_context('rec-pingpong.c', 'MPI_Send', 'exchange', 'main')
    rec.expect_context('rec-pingpong.c', 'MPI_Recv', 'exchange', 'main')
    check('"MPI Rank 1"' in rec.global_defs and 'Type: PROCESS' in rec.global_defs,
          'no PROCESS location group "MPI Rank 1"')
    check(re.search(r'SYSTEM_TREE_NODE\s+1\s+Name: "[^"]+" <\d+>, Class: "node"', rec.global_defs),
          'no system tree node of class "node" for the host')


def scenario_pingpong_linked(ctx):
    scenario_pingpong(ctx, linked=True)


def scenario_flush(ctx):
    """A 1 MiB event buffer (one 4 MiB chunk): libotf2 flushes in the middle
    of the run, and the crash journal recycles its slot."""
    n = 60000
    rec = Recording(ctx, 'flush')
    rec.run('rec-pingpong', 2, [str(n)], env={'SEXTANT_RECORD_BUFFER': '1', 'SEXTANT_RECORD_CALLPATH': '2'})
    rec.otf2_print().import_()
    check(rec.kinds.get('BUFFER_FLUSH', 0) >= 2, 'no BUFFER_FLUSH records: %s' % rec.kinds)
    rec.expect_records({'MPI_SEND': 2 * n, 'MPI_RECV': 2 * n})
    rec.expect_info(matched=2 * n, collectives=1)


def message_visits(rec):
    return rec.query('''SELECT m.tag, sv.enter, sv.leave, rv.enter, rv.leave
                        FROM message m JOIN visit sv ON sv.id = m.send_visit
                        JOIN visit rv ON rv.id = m.recv_visit ORDER BY sv.enter''')


def scenario_late_sender(ctx, clock=None):
    rec = Recording(ctx, 'late-sender' + ('-' + clock if clock else ''))
    rec.run('rec-late-sender', 2, env={'SEXTANT_RECORD_CLOCK': clock} if clock else None)
    rec.otf2_print().import_()
    rec.expect_records({'MPI_SEND': 3, 'MPI_RECV': 3})
    rec.expect_info(matched=3, collectives=3)
    rec.expect_callsites('rec-late-sender.c')
    # with measured clock offsets the two time lines agree up to the
    # offsets' error bounds (half a round trip each: large when other jobs
    # share the cores), so the order of two events on different locations
    # holds up to their sum
    slack = 0
    if clock == 'pingpong':
        offsets = subprocess.run([ctx.otf2_print, '-C', rec.anchor], stdout=subprocess.PIPE,
                                 universal_newlines=True).stdout
        values = [(int(m.group(1)), int(m.group(2)), float(m.group(3))) for m in
                  re.finditer(r'CLOCK_OFFSET\s+(\d+)\s+Time: \d+, Offset: ([+-]?\d+), StdDev: ([\d.e+]+)',
                              offsets)]
        check(len(values) == 4, 'expected 2 ClockOffset records per location: %s' % values)
        for loc, offset, deviation in values:
            # one host, one clock: the true offset is 0, and a measurement is
            # off by at most half its round trip (its deviation)
            check(abs(offset) <= deviation + 1000, 'location %d: clock offset %d ns, error bound %g ns'
                  % (loc, offset, deviation))
            if loc != 0:
                check(deviation > 0, 'location %d: a measured offset without its error bound' % loc)
        slack = 2 * max([deviation for _, _, deviation in values] + [0]) + 1000
    for tag, send_enter, _, recv_enter, recv_leave in message_visits(rec):
        # the receiver waited about 300 ms for the send, on one time line
        # (50 ms is enough: other jobs may share the cores and hold the
        # receiver back after the barrier; 9.9 ms of 100 was seen in CI)
        check(send_enter - recv_enter >= 50 * MS, 'receive entered only %.1f ms before its send'
              % ((send_enter - recv_enter) / MS))
        check(recv_leave >= send_enter - slack, 'receive left %d ns before its send began (clock error bound %d ns)'
              % (send_enter - recv_leave, slack))


def scenario_clock_pingpong(ctx):
    scenario_late_sender(ctx, clock='pingpong')


def scenario_late_receiver(ctx):
    rec = Recording(ctx, 'late-receiver')
    rec.run('rec-late-receiver', 2)
    rec.otf2_print().import_()
    rec.expect_records({'MPI_SEND': 3, 'MPI_RECV': 3})
    rec.expect_info(matched=3, collectives=3)
    rec.expect_callsites('rec-late-receiver.c')
    for tag, send_enter, send_leave, recv_enter, _ in message_visits(rec):
        # the receiver came about 300 ms late (50 ms is enough: see
        # late-sender), and a synchronous send cannot end before its
        # receive has begun
        check(recv_enter - send_enter >= 50 * MS, 'receive entered only %.1f ms after the send'
              % ((recv_enter - send_enter) / MS))
        check(send_leave >= recv_enter, 'MPI_Ssend returned before the receive began')


def scenario_barrier(ctx):
    np = 4
    rec = Recording(ctx, 'barrier')
    rec.run('rec-barrier', np)
    rec.otf2_print().import_()
    rec.expect_records({'MPI_COLLECTIVE_BEGIN': np, 'MPI_COLLECTIVE_END': np})
    rec.expect_info(matched=0, collectives=1)
    rec.expect_callsites('rec-barrier.c')
    (cid, kind, members, expected), = rec.query('SELECT id, kind, members, expected FROM collective')
    check(kind == 'BARRIER' and members == np and expected == np, 'barrier instance: %s %d/%d'
          % (kind, members, expected))
    rows = rec.query('SELECT loc, begin, "end" FROM collective_member WHERE collective = ? ORDER BY loc', cid)
    begins = [b for _, b, _ in rows]
    # rank r slept r x 100 ms (15 ms a step is enough on a shared machine)
    check(max(begins) - min(begins) >= (np - 1) * 15 * MS,
          'arrivals spread over only %.1f ms' % ((max(begins) - min(begins)) / MS))
    for loc, begin, end in rows:
        check(end >= max(begins) - MS // 2, 'location %d left the barrier %.3f ms before the last arrival'
              % (loc, (max(begins) - end) / MS))


def scenario_wrong_order(ctx):
    rec = Recording(ctx, 'wrong-order')
    rec.run('rec-wrong-order', 2)
    rec.otf2_print().import_()
    rec.expect_records({'MPI_SEND': 2, 'MPI_RECV': 2})
    rec.expect_info(matched=2, collectives=0)
    rec.expect_callsites('rec-wrong-order.c')
    rows = rec.query('SELECT tag, send_time, recv_time FROM message ORDER BY tag')
    check([r[0] for r in rows] == [1, 2], 'tags %s' % rows)
    check(rows[0][1] < rows[1][1] and rows[1][2] < rows[0][2],
          'tag 1 was sent first and received second: %s' % rows)


def scenario_nonblocking(ctx):
    np, rounds = 4, 10
    rec = Recording(ctx, 'nonblocking')
    rec.run('rec-nonblocking', np)
    rec.otf2_print().import_()
    rec.expect_records({'MPI_ISEND': np * 7 * rounds, 'MPI_ISEND_COMPLETE': np * 7 * rounds,
                        'MPI_IRECV_REQUEST': np * (7 * rounds + 1), 'MPI_IRECV': np * 7 * rounds,
                        'MPI_SEND': np * rounds, 'MPI_RECV': np * rounds,
                        'MPI_REQUEST_CANCELLED': np,
                        'NON_BLOCKING_COLLECTIVE_REQUEST': 3 * np,
                        'NON_BLOCKING_COLLECTIVE_COMPLETE': 3 * np})
    rec.expect_info(matched=np * 8 * rounds, collectives=3)
    rec.expect_callsites('rec-nonblocking.c')
    kinds = rec.query('SELECT kind, nonblocking, members FROM collective ORDER BY kind')
    check(kinds == [('ALLREDUCE', 1, np), ('BARRIER', 1, np), ('BCAST', 1, np)],
          'non-blocking collectives: %s' % kinds)
    modes = rec.query('''SELECT send_mode, recv_mode, COUNT(*) FROM message
                         GROUP BY send_mode, recv_mode ORDER BY send_mode''')
    check(modes == [('BLOCKING', 'BLOCKING', np * rounds), ('NONBLOCKING', 'NONBLOCKING', np * 7 * rounds)],
          'message modes: %s' % modes)
    incomplete = rec.query('''SELECT COUNT(*) FROM message WHERE send_mode = 'NONBLOCKING'
                              AND (send_complete_time IS NULL OR recv_post_time IS NULL)''')[0][0]
    check(incomplete == 0, '%d non-blocking messages without completion or post' % incomplete)


def scenario_requests(ctx):
    # rec-requests.c: requests sharing Open MPI's &ompi_request_empty
    # handle, freed and persistent requests; 2 ranks
    np, small, persist = 2, 4, 3
    rec = Recording(ctx, 'requests')
    rec.run('rec-requests', np)
    rec.otf2_print().import_()
    per_rank = {'MPI_ISEND': 4 * small + 1 + persist, 'MPI_ISEND_COMPLETE': 4 * small + 1 + persist,
                'MPI_RECV': 4 * small + 1, 'MPI_SEND': 1 + 1,
                'MPI_IRECV_REQUEST': 1 + persist + 1, 'MPI_IRECV': 1 + persist + 1,
                'NON_BLOCKING_COLLECTIVE_REQUEST': 3 * small,
                'NON_BLOCKING_COLLECTIVE_COMPLETE': 3 * small}
    # the freed Isend and Irecv: rank 0 sends, rank 1 receives
    expected = {kind: np * n for kind, n in per_rank.items()}
    for kind in ('MPI_ISEND', 'MPI_ISEND_COMPLETE', 'MPI_IRECV_REQUEST', 'MPI_IRECV'):
        expected[kind] -= 1
    rec.expect_records(expected)
    for loc in range(np):
        for kind in ('NON_BLOCKING_COLLECTIVE_REQUEST', 'NON_BLOCKING_COLLECTIVE_COMPLETE'):
            n = rec.per_location.get((kind, loc), 0)
            check(n == 3 * small, '%d %s records on location %d, expected %d' % (n, kind, loc, 3 * small))
    # small sends, the Sendrecv, persistent sends, the MPI_Send, the freed Isend
    messages = np * (4 * small + 1 + persist + 1) + 1
    rec.expect_info(matched=messages, unmatched=0, collectives=np * 3 * small)
    rec.expect_callsites('rec-requests.c')
    incomplete = rec.query('''SELECT COUNT(*) FROM message WHERE send_mode = 'NONBLOCKING'
                              AND send_complete_time IS NULL''')[0][0]
    check(incomplete == 0, '%d non-blocking sends without completion' % incomplete)


def scenario_comms(ctx):
    # rec-comms.c: a freed duplicate, communicators of MPI_Comm_create_group
    # (which may get its handle) and of MPI_Intercomm_merge; 4 ranks
    np = 4
    rec = Recording(ctx, 'comms')
    rec.run('rec-comms', np)
    rec.otf2_print().import_()
    # the inter-communicator's 8 messages, each matched with its peer
    rec.expect_info(matched=8, unmatched=0)
    rec.expect_callsites('rec-comms.c', require_all_mpi=False)
    barriers = sorted(r[0] for r in rec.query("SELECT members FROM collective WHERE kind = 'BARRIER'"))
    check(barriers == [2, 2, 4, 4, 4, 4, 4], 'barriers and their members: %s' % barriers)
    # the idup: a non-blocking CREATE_HANDLE on the inter-communicator, and
    # a communicator named after it, the same on every rank
    idup = rec.query('''SELECT c.nonblocking, c.members, c.expected FROM collective c
                        JOIN comm k ON k.id = c.comm WHERE c.kind = 'CREATE_HANDLE'
                        AND k.name LIKE 'inter-communicator%' ORDER BY c.nonblocking''')
    check(idup == [(0, 4, 4), (1, 4, 4)], 'the dup and idup of the inter-communicator: %s' % idup)
    named = rec.query('''SELECT c.name, COUNT(*) FROM comm c JOIN comm_member m ON m.comm = c.id
                         WHERE c.name LIKE 'MPI_Comm_idup(%' GROUP BY c.id''')
    check(named == [('MPI_Comm_idup(inter-communicator of 2 and 2 ranks)', 4)],
          'the idup communicator and its members: %s' % named)
    # rank r of each pair with rank r of the other (world 0-2, 1-3), each way, twice
    pairs = rec.query('''SELECT sv.loc, rv.loc, COUNT(*) FROM message m JOIN visit sv ON sv.id = m.send_visit
                         JOIN visit rv ON rv.id = m.recv_visit GROUP BY 1, 2 ORDER BY 1, 2''')
    check(pairs == [(0, 2, 2), (1, 3, 2), (2, 0, 2), (3, 1, 2)],
          'messages on the inter-communicator (sender, receiver, count): %s' % pairs)
    bcast = rec.query("SELECT members, expected, root_loc FROM collective WHERE kind = 'BCAST'")
    check(bcast == [(4, 4, 0)], 'the inter-communicator broadcast (members, expected, root): %s' % bcast)
    allreduce = rec.query("SELECT members, expected FROM collective WHERE kind = 'ALLREDUCE'")
    check(allreduce == [(4, 4), (4, 4)], 'the inter-communicators\' allreduces: %s' % allreduce)
    # the uneven inter-communicator ({0} and {1, 2, 3}): bytes per member by the remote group's size
    for kind, expected in (('ALLTOALLW', [(0, 12, 12), (1, 4, 4), (2, 4, 4), (3, 4, 4)]),
                           ('GATHER', [(0, 0, 12), (1, 4, 0), (2, 4, 0), (3, 4, 0)])):
        rows = rec.query('''SELECT m.loc, m.bytes_sent, m.bytes_received FROM collective c
                            JOIN collective_member m ON m.collective = c.id WHERE c.kind = ? ORDER BY m.loc''', kind)
        check(rows == expected, '%s on the uneven inter-communicator (loc, sent, received): %s' % (kind, rows))
    warned = [w for w in rec.info.get('warnings', []) if w['kind'] in ('collective_mismatch', 'unresolved_peer')]
    check(not warned, 'warnings: %s' % warned)
    complete = rec.query('SELECT COUNT(*) FROM collective WHERE members != expected')[0][0]
    check(complete == 0, '%d collective instances are missing members' % complete)
    pairs = rec.query('''SELECT c.id, group_concat(m.loc) FROM comm c JOIN comm_member m ON m.comm = c.id
                         WHERE c.name = 'MPI_Comm_create_group' GROUP BY c.id''')
    members = sorted(sorted(int(x) for x in locs.split(',')) for _, locs in pairs)
    check(members == [[0, 1], [2, 3]], 'MPI_Comm_create_group communicators: %s' % pairs)
    parallel_import_same(ctx, rec, 4, min_candidate_roots=1)


def parallel_import_same(ctx, rec, np, min_candidate_roots=0):
    """`sextant-mpi import` of the recording on @np ranks (docs/parallel.md)
    reads as the single store does: `info --collectives` and `info --json`
    the same but for the database's name. On rec-comms with a process a
    rank, the inter-communicators' rooted operations have their root on
    another rank than their receivers: the members that may be the root
    cross ranks as candidate roots."""
    sextant_mpi = os.environ.get('SEXTANT_MPI')
    if not sextant_mpi:
        return
    sextant = os.environ['SEXTANT']
    manifest = os.path.join(ctx.tmp, rec.name + '.sextant')
    imp = subprocess.run([ctx.timeout, '--kill-after=10', str(RUN_SECONDS), ctx.mpirun] + MPIRUN_OPTIONS +
                         ['-np', str(np), sextant_mpi, 'import', rec.anchor, '-o', manifest],
                         env=dict(os.environ, G_MESSAGES_DEBUG='Sextant-Trace'), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True, timeout=RUN_SECONDS + 30)
    check(imp.returncode == 0, 'sextant-mpi import on %d ranks failed: %s' % (np, imp.stderr[-2000:]))
    roots = sum(int(n) for n in re.findall(r'(\d+) candidate roots', imp.stdout + imp.stderr))
    check(roots >= min_candidate_roots, 'the ranks sent %d candidate roots, expected %d or more'
          % (roots, min_candidate_roots))

    def shown(db, *args):
        out = subprocess.run([sextant, 'info', db] + list(args), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        check(out.returncode == 0, 'sextant info %s failed: %s' % (db, out.stderr))
        return out.stdout.replace(os.path.basename(db), 'DB').replace(db, 'DB')

    for args in (['--collectives'], ['--json']):
        single, sharded = shown(rec.db_path, *args), shown(manifest, *args)
        check(single == sharded, 'info %s of the manifest of %d ranks differs from the single store\'s:\n%s'
              % (' '.join(args), np, '\n'.join(difflib.unified_diff(single.splitlines(), sharded.splitlines(),
                                                                   lineterm='', n=1))))


def scenario_nbc_order(ctx):
    # rec-nbc-order.c: Ibcast and Iallreduce completed in opposite orders
    # on even and odd ranks; numbered by start, every instance is whole
    np, rounds = 4, 5
    rec = Recording(ctx, 'nbc-order')
    rec.run('rec-nbc-order', np)
    rec.otf2_print().import_()
    rec.expect_records({'NON_BLOCKING_COLLECTIVE_REQUEST': np * 2 * rounds,
                        'NON_BLOCKING_COLLECTIVE_COMPLETE': np * 2 * rounds})
    rec.expect_info(matched=0, unmatched=0, collectives=2 * rounds)
    rec.expect_callsites('rec-nbc-order.c')
    kinds = rec.query('''SELECT kind, COUNT(*), MIN(members), MAX(members) FROM collective
                         GROUP BY kind ORDER BY kind''')
    check(kinds == [('ALLREDUCE', rounds, np, np), ('BCAST', rounds, np, np)],
          'non-blocking collectives: %s' % kinds)


def scenario_calls(ctx):
    # rec-calls.c: calls the table of MPI functions added; 4 ranks
    np = 4
    rec = Recording(ctx, 'calls')
    rec.run('rec-calls', np)
    rec.otf2_print().import_()
    rec.expect_records({'MPI_RECV': 2 * np, 'MPI_IRECV': np, 'MPI_IRECV_REQUEST': np,
                        'NON_BLOCKING_COLLECTIVE_REQUEST': 2 * np,
                        'NON_BLOCKING_COLLECTIVE_COMPLETE': 2 * np,
                        'RMA_PUT': np, 'RMA_GET': np})
    rec.expect_info(matched=3 * np, unmatched=0, rma=2 * np)
    rec.expect_callsites('rec-calls.c')
    complete = rec.query('SELECT COUNT(*) FROM collective WHERE members != expected')[0][0]
    check(complete == 0, '%d collective instances are missing members' % complete)
    kinds = dict(rec.query('SELECT kind, COUNT(*) FROM collective GROUP BY kind'))
    for kind in ('ALLGATHER', 'ALLTOALL', 'ALLTOALLW'):
        check(kinds.get(kind, 0) >= 1, 'no %s collective: %s' % (kind, kinds))
    rows = rec.query('''SELECT m.bytes_sent, m.bytes_received FROM collective c
                        JOIN collective_member m ON m.collective = c.id WHERE c.kind = 'ALLGATHER'
                        AND c.comm IN (SELECT id FROM comm WHERE name LIKE 'MPI_Cart_create%')''')
    check(rows and all(r == (8, 8) for r in rows), 'neighbour allgather bytes: %s' % rows)
    for region in ('MPI_Buffer_detach', 'MPI_Grequest_start',
                   'MPI_Mprobe', 'MPI_Neighbor_allgather'):
        check(len(rec.visits(region)) == np, '%d visits of %s' % (len(rec.visits(region)), region))
    # every function of the table is a wrapper the library exports, and no
    # other MPI_ function is
    table = set()
    with open(os.path.join(ctx.srcdir, '..', '..', 'recorder', 'sextant-recorder-mpi.def')) as f:
        for line in f:
            if line.startswith('MPI_'):
                table.add(line.split('|')[0].strip())
    lib = os.path.join(os.path.dirname(ctx.launcher), 'libsextant-record.so')
    nm = subprocess.run(['nm', '-D', '--defined-only', lib], stdout=subprocess.PIPE,
                        universal_newlines=True, timeout=60)
    exported = set(re.findall(r' T (MPI_\w+)$', nm.stdout, re.M))
    check(exported == table, 'in the table, not exported: %s; exported, not in the table: %s'
          % (sorted(table - exported), sorted(exported - table)))


def scenario_behaviour(ctx):
    # rec-behaviour.c run bare and recorded: the same output (lines of all
    # ranks, in any order) and the same exit status (rank 0 exits with 3)
    np = 3
    exe = os.path.join(ctx.builddir, 'rec-behaviour')
    bare = subprocess.run([ctx.timeout, '--kill-after=10', str(RUN_SECONDS), ctx.mpirun] + MPIRUN_OPTIONS
                          + ['-np', str(np), exe], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=RUN_SECONDS + 30)
    rec = Recording(ctx, 'behaviour')
    recorded = rec.run('rec-behaviour', np, expect_success=False)
    check(bare.returncode != 0, 'the bare run exited with %d, not rank 0\'s 3' % bare.returncode)
    check(recorded.returncode == bare.returncode,
          'exit status %d recorded, %d bare' % (recorded.returncode, bare.returncode))
    lines = sorted(bare.stdout.splitlines())
    check(len(lines) == np, 'bare output: %s' % bare.stdout)
    check(sorted(recorded.stdout.splitlines()) == lines,
          'recorded output %s, bare %s' % (recorded.stdout, bare.stdout))
    check(not [l for l in recorded.stderr.splitlines() if l.startswith('sextant-record: rank')],
          'the recorder complained: %s' % recorded.stderr)
    rec.otf2_print().import_()
    rec.expect_records({'MPI_ISEND': 4 * np, 'MPI_ISEND_COMPLETE': 4 * np, 'MPI_IRECV': 4 * np,
                        'NON_BLOCKING_COLLECTIVE_COMPLETE': np})
    rec.expect_info(matched=4 * np, unmatched=0, collectives=1 + np)


def scenario_split_coll(ctx):
    np = 6
    rec = Recording(ctx, 'split-coll')
    rec.run('rec-split-coll', np)
    rec.otf2_print().import_()
    per_rank = 1 + 1 + 1 + 1 + 1 + 12 + 2
    rec.expect_records({'MPI_COLLECTIVE_BEGIN': np * per_rank, 'MPI_COLLECTIVE_END': np * per_rank})
    rec.expect_info(matched=0, collectives=25)
    rec.expect_callsites('rec-split-coll.c')
    halves = rec.query('''SELECT c.id, group_concat(m.loc) FROM comm c JOIN comm_member m ON m.comm = c.id
                          WHERE c.name = 'MPI_Comm_split(MPI_COMM_WORLD)' GROUP BY c.id ORDER BY c.id''')
    members = sorted(sorted(int(x) for x in locs.split(',')) for _, locs in halves)
    check(members == [[0, 2, 4], [1, 3, 5]], 'split communicators: %s' % halves)
    dups = rec.query("SELECT COUNT(*) FROM comm WHERE name LIKE 'MPI_Comm_dup(MPI_Comm_split(%'")[0][0]
    check(dups == 2, '%d duplicates of the halves' % dups)
    count = dict(rec.query('SELECT kind, COUNT(*) FROM collective GROUP BY kind'))
    for kind, n in (('BCAST', 2), ('REDUCE', 2), ('ALLREDUCE', 2), ('CREATE_HANDLE', 3),
                    ('DESTROY_HANDLE', 4), ('GATHERV', 1), ('ALLTOALLV', 1), ('EXSCAN', 1),
                    ('REDUCE_SCATTER_BLOCK', 1)):
        check(count.get(kind) == n, '%s instances: %s, expected %d' % (kind, count.get(kind), n))
    complete = rec.query('SELECT COUNT(*) FROM collective WHERE members != expected')[0][0]
    check(complete == 0, '%d collective instances are missing members' % complete)
    # the broadcast's bytes: the root sends 16, the others receive 16
    rows = rec.query('''SELECT c.root, m.loc, m.bytes_sent, m.bytes_received FROM collective c
                        JOIN collective_member m ON m.collective = c.id WHERE c.kind = 'BCAST' ''')
    for root, loc, sent, received in rows:
        is_root = loc in (0, 1)
        check(root == 0 and (sent, received) == ((16, 0) if is_root else (0, 16)),
              'bcast bytes at location %d: root %s sent %d received %d' % (loc, root, sent, received))
    roots = rec.query("SELECT DISTINCT root FROM collective WHERE kind = 'REDUCE'")
    check(roots == [(1,)], 'reduce roots %s' % roots)


def scenario_rma(ctx):
    np = 4
    rec = Recording(ctx, 'rma')
    rec.run('rec-rma', np)
    rec.otf2_print().import_()
    locks = 4 * np + 1
    rec.expect_records({'RMA_PUT': 2 * np + np // 2, 'RMA_GET': np, 'RMA_ATOMIC': 3 * np,
                        'RMA_OP_COMPLETE_REMOTE': 6 * np + np // 2,
                        'RMA_WIN_CREATE': np, 'RMA_WIN_DESTROY': np,
                        'RMA_COLLECTIVE_BEGIN': 4 * np, 'RMA_COLLECTIVE_END': 4 * np,
                        'RMA_REQUEST_LOCK': locks, 'RMA_ACQUIRE_LOCK': locks, 'RMA_RELEASE_LOCK': locks,
                        'RMA_GROUP_SYNC': 2 * np, 'RMA_SYNC': np})
    rec.expect_info(matched=0, collectives=3, rma=6 * np + np // 2)
    rec.expect_callsites('rec-rma.c')
    open_ops = rec.query('SELECT COUNT(*) FROM rma_op WHERE complete_time IS NULL OR target_loc IS NULL')[0][0]
    check(open_ops == 0, '%d RMA operations without completion or target' % open_ops)
    atomics = dict(rec.query("SELECT atomic_type, COUNT(*) FROM rma_op WHERE kind = 'ATOMIC' GROUP BY atomic_type"))
    check(atomics == {'ACCUMULATE': np, 'FETCH_AND_ADD': np, 'COMPARE_AND_SWAP': np}, 'atomics %s' % atomics)
    n_locks = rec.query("SELECT COUNT(*) FROM lock WHERE family = 'RMA' AND release_time IS NOT NULL")[0][0]
    check(n_locks == locks, '%d released RMA locks, expected %d' % (n_locks, locks))
    puts = rec.query('''SELECT loc, target_loc FROM rma_op WHERE kind = 'PUT' ''')
    for loc, target in puts:
        check(target != loc, 'a put from location %d to itself' % loc)


def scenario_threads_many(ctx):
    rec = Recording(ctx, 'threads-many')
    threads, alive, calls = 10000, 4, 2
    rec.run('rec-threads-many', 2, args=[str(threads)])
    rec.otf2_print().import_()
    # a location per thread alive at once, reused by the threads that follow
    locs = len(rec.info['locations'])
    check(2 < locs <= 2 * (alive + 1), '%d locations for 2 x %d threads (at most %d alive per rank)'
          % (locs, threads, alive))
    rec.expect_info(collectives=2 * threads * calls + 1)
    n = rec.kinds.get('MPI_COLLECTIVE_END', 0)
    check(n == 2 * threads * calls + 2, '%d MPI_COLLECTIVE_END records' % n)


def scenario_threads(ctx):
    rec = Recording(ctx, 'threads')
    rec.run('rec-threads', 2)
    # messages are matched per process: each thread's 10 sends are received
    # by the other rank's thread on the same communicator
    rec.otf2_print().import_()
    rec.expect_info(matched=40, unmatched=0, locations=6, collectives=4)
    pairs = rec.query('''SELECT s.otf2_id, r.otf2_id, COUNT(*) FROM message AS m
                         JOIN location AS s ON s.id = m.send_loc JOIN location AS r ON r.id = m.recv_loc
                         GROUP BY 1, 2 ORDER BY 1, 2''')
    # (the two workers of a rank start together: which becomes Thread 1 is
    # up to the scheduler, on each rank)
    partner = {s: r for s, r, _ in pairs}
    threads = {(k << 32) | rank for k in (1, 2) for rank in (0, 1)}
    check(len(pairs) == 4 and all(n == 10 for _, _, n in pairs) and set(partner) == threads and
          all(partner.get(r) == s and (s ^ r) & 0xffffffff == 1 for s, r in partner.items()),
          'messages by thread pair %s: not 10 each way between one thread of each rank' % pairs)
    names = sorted(l['name'] for l in rec.info['locations'])
    check(names == ['Master thread', 'Master thread', 'Thread 1', 'Thread 1', 'Thread 2', 'Thread 2'],
          'locations %s' % names)
    for rank in (0, 1):
        for index in (1, 2):
            loc = (index << 32) | rank
            for kind in ('MPI_SEND', 'MPI_RECV'):
                n = rec.per_location.get((kind, loc), 0)
                check(n == 10, 'location %d has %d %s records' % (loc, n, kind))
    rec.expect_callsites('rec-threads.c')


def scenario_onecoll(ctx):
    # two runtimes (rec-onecoll.c): the default one, whose roots relay for
    # slow ranks (onecoll_help_relay), and one whose roots never do
    np, rounds, passes = 7, 3, 2
    bcasts = passes * rounds * np
    rec = Recording(ctx, 'onecoll')
    rec.run('rec-onecoll', np, linked=True)
    rec.otf2_print().import_()
    # a Broadcaster location per runtime and rank
    rec.expect_info(matched=0, locations=(1 + passes) * np)
    names = [l['name'] for l in rec.info['locations']]
    check(names.count('onecoll-broadcaster') == passes * np, 'Broadcaster locations: %s' % names)
    counts = dict(rec.query('''SELECT r.name, COUNT(*) FROM visit v JOIN region r ON r.id = v.region
                               WHERE r.name LIKE 'onecoll_%' GROUP BY r.name'''))
    for region, n in (('onecoll_init', passes * np), ('onecoll_finalize', passes * np),
                      ('onecoll_win_create', passes * np), ('onecoll_win_free', passes * np),
                      ('onecoll_bcast', np * bcasts), ('onecoll_put_request', (np - 1) * bcasts)):
        check(counts.get(region) == n, '%s visits: %s, expected %d' % (region, counts.get(region), n))
    # every non-root with children is relayed once per broadcast: by its
    # Broadcaster or its waiting main thread (broadcaster_relay), or by the
    # root (help_relay); a leaf (odd relative rank, or the last) is
    # completed by its parent
    inner = len([v for v in range(2, np - 1, 2)])
    relayed = counts.get('onecoll_broadcaster_relay', 0) + counts.get('onecoll_help_relay', 0)
    check(relayed == inner * bcasts, 'relays: %s, expected %d' % (counts, inner * bcasts))
    # onecoll's instrumented regions name their source in onecoll/ (the
    # calling contexts' frames of the same names have a file only where the
    # build has debug information)
    files = rec.query('''SELECT DISTINCT r.name, r.file FROM region r WHERE r.name LIKE 'onecoll_%' ''')
    sourced = {name for name, f in files if f is not None and os.path.basename(os.path.dirname(f)) == 'onecoll'}
    instrumented = {'onecoll_init', 'onecoll_finalize', 'onecoll_win_create', 'onecoll_win_free', 'onecoll_bcast',
                    'onecoll_put_request', 'onecoll_broadcaster_relay', 'onecoll_help_relay'}
    check(instrumented <= sourced, 'onecoll regions without a source file in onecoll/: %s' % (instrumented - sourced))
    relays = rec.query('''SELECT DISTINCT l.name FROM visit v JOIN region r ON r.id = v.region
                          JOIN location l ON l.id = v.loc WHERE r.name = 'onecoll_broadcaster_relay' ''')
    check(set(relays) <= {('onecoll-broadcaster',), ('Master thread',)}, 'relays ran on %s' % relays)
    helps = rec.query('''SELECT DISTINCT l.name FROM visit v JOIN region r ON r.id = v.region
                         JOIN location l ON l.id = v.loc WHERE r.name = 'onecoll_help_relay' ''')
    check(set(helps) <= {('Master thread',)}, 'help relays ran on %s' % helps)
    # a relay on a main thread runs inside its flush, and its puts are recorded
    outside = rec.query('''SELECT COUNT(*) FROM visit v JOIN region r ON r.id = v.region
                           JOIN location l ON l.id = v.loc
                           LEFT JOIN visit pv ON pv.id = v.parent LEFT JOIN region pr ON pr.id = pv.region
                           WHERE r.name IN ('onecoll_broadcaster_relay', 'onecoll_help_relay')
                             AND l.name = 'Master thread'
                             AND (pr.name IS NULL OR pr.name != 'onecoll_flush') ''')[0][0]
    check(outside == 0, '%d relays on main threads outside onecoll_flush' % outside)
    check(rec.info['rma_operations'] > 0, 'no RMA operations')
    open_ops = rec.query('SELECT COUNT(*) FROM rma_op WHERE complete_time IS NULL')[0][0]
    check(open_ops == 0, '%d RMA operations without completion' % open_ops)
    inside = rec.query('''SELECT COUNT(*) FROM visit v JOIN region r ON r.id = v.region
                          JOIN source_code_location s ON s.id = v.scl
                          WHERE r.paradigm = 'MPI' AND s.file LIKE '%/onecoll/onecoll-%.c' ''')[0][0]
    check(inside > 0, 'no MPI call with a call site inside onecoll')
    rec.expect_callsites('rec-onecoll.c')
    # the MPI calls inside onecoll's regions: their calling contexts merged
    # with those visits
    rec.expect_path_nesting()
    merged = rec.query('''SELECT COUNT(*) FROM visit v JOIN region r ON r.id = v.region
                          JOIN visit pv ON pv.id = v.parent JOIN call_path p ON p.id = v.path
                          WHERE r.paradigm = 'MPI' AND v.context IS NOT NULL AND p.name LIKE '%@%' ''')[0][0]
    check(merged > 0, 'no MPI call inside a onecoll region has frames of its calling context')

    # every broadcast region says which broadcast it belongs to ...
    tagged = rec.query('''SELECT COUNT(*) FROM visit v JOIN region r ON r.id = v.region
                          JOIN visit_attribute va ON va.visit = v.id JOIN attribute a ON a.id = va.attribute
                          WHERE r.name = 'onecoll_bcast' AND a.name = 'onecoll sequence' ''')[0][0]
    check(tagged == np * bcasts, '%d onecoll_bcast visits with a sequence number, expected %d'
          % (tagged, np * bcasts))
    # ... so that the onecoll patterns can match the regions of one broadcast
    ana = subprocess.run([os.environ['SEXTANT'], 'analyze', '--json', '--no-user-patterns',
                          '--pattern', 'onecoll', '--pattern', 'late_broadcast', rec.db_path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
    check(ana.returncode == 0, 'sextant analyze failed: %s' % ana.stderr)
    # one per relay: the delay ends where the relay's call begins (it is
    # charged to no call, the delay comes before it)
    late = rec.query('''SELECT COUNT(*), COUNT(DISTINCT i.loc || ':' || i."end"), SUM(l.location_group = p.location_group)
                         FROM pattern_instance i JOIN location l ON l.id = i.loc
                         JOIN location p ON p.id = i.peer_loc WHERE i.pattern = 'late_request' ''')[0]
    check(0 < late[0] <= inner * bcasts and late[1] == late[0] and late[2] == 0,
          'late_request: %s instances (distinct relays, same-process peers): %s' % (late[0], late))
    roots = rec.query('''SELECT COUNT(*) FROM pattern_instance i JOIN visit_attribute va ON va.visit = i.visit
                          JOIN attribute a ON a.id = va.attribute AND a.name = 'onecoll root'
                          JOIN location l ON l.id = i.loc
                          WHERE i.pattern = 'wait_in_flush' AND va.value != l.location_group''')[0][0]
    check(roots == 0, '%d wait_in_flush instances not on the root' % roots)


def run_sextant(args):
    proc = subprocess.run([os.environ['SEXTANT']] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=300)
    check(proc.returncode == 0, 'sextant %s failed: %s' % (args[0], proc.stderr))
    return proc.stdout


def scenario_callpath(ctx):
    """MPI_Recv and MPI_Gatherv called from two functions each
    (rec-callpath.c): the recorder writes no visits of those functions, so
    their calls stand apart only by the call paths of their calling
    contexts - in the store, in analyze --json's by_callpath, in the
    instances the pattern browser lists and in the report."""
    source, rounds, halo, result = 'rec-callpath.c', 3, 30 * MS, 60 * MS
    rec = Recording(ctx, 'callpath')
    rec.run('rec-callpath', 2)
    rec.otf2_print().import_()
    rec.expect_records({'MPI_SEND': 2 * rounds, 'MPI_RECV': 2 * rounds})
    rec.expect_info(matched=2 * rounds, collectives=rounds + 1, locations=2)
    rec.expect_callsites(source)
    rec.expect_declarations(source)
    paths = rec.expect_call_paths(source)
    rec.expect_path_nesting()
    check(len(paths['MPI_Recv']) == 2 and len(paths['MPI_Gatherv']) == 2 and len(paths['MPI_Send']) == 2,
          'expected two call paths of each call: %s' % paths)
    recv = {name.split('/')[-2].split('@')[0]: name for name in paths['MPI_Recv']}
    gatherv = {name.split('/')[-2].split('@')[0]: name for name in paths['MPI_Gatherv']}

    # the analysis: each function's waiting under its own path (half of the
    # planted sleep is enough: other jobs may share the cores)
    analysis = json.loads(run_sextant(['analyze', '--json', '--no-user-patterns', rec.db_path]))
    patterns = {p['id']: p for p in analysis['patterns']}
    planted = (('late_sender', recv, {'receive_halo': rounds * halo, 'receive_result': rounds * result}),
               ('early_reduce', gatherv, {'early_gatherv': rounds * halo, 'final_gatherv': result}))
    for pattern, names, ticks in planted:
        by_path = patterns[pattern]['by_callpath']
        check(set(by_path) == set(names.values()), '%s by_callpath: %s, expected %s'
              % (pattern, sorted(by_path), sorted(names.values())))
        for function, t in ticks.items():
            seconds = sum(by_path[names[function]].values())
            check(seconds >= t / 2e9, '%s in %s: %.3f s, planted %.3f s' % (pattern, function, seconds, t / 1e9))
        # the instances as the window's pattern browser and details list them
        got = {p for p, in rec.query('SELECT DISTINCT callpath FROM pattern_instance WHERE pattern = ?', pattern)}
        check(got == set(names.values()), '%s instances on %s' % (pattern, sorted(got)))

    # the report names both paths of each call
    report = os.path.join(ctx.tmp, 'callpath.json')
    run_sextant(['report', '-f', 'json', '-o', report, rec.db_path])
    with open(report) as f:
        text = f.read()
    for name in list(recv.values()) + list(gatherv.values()):
        check(json.dumps(name) in text, 'the report does not name %s' % name)


def inlined_at_entry(program, function):
    """The function whose code is at the first instruction of @function in
    @program, by addr2line (None without binutils)."""
    nm, addr2line = shutil.which('nm'), shutil.which('addr2line')
    if nm is None or addr2line is None:
        return None
    symbols = subprocess.run([nm, program], stdout=subprocess.PIPE, universal_newlines=True).stdout
    address = [a for a, _, name in (l.split() for l in symbols.splitlines() if len(l.split()) == 3)
               if name == function]
    check(len(address) == 1, 'no symbol %s in %s' % (function, program))
    frames = subprocess.run([addr2line, '-i', '-f', '-e', program, '0x' + address[0]],
                            stdout=subprocess.PIPE, universal_newlines=True).stdout.split()
    return frames[0] if frames else None


def scenario_inline_entry(ctx):
    """A function whose first instruction is inlined code (rec-inline-entry.c)."""
    source, rounds, np = 'rec-inline-entry.c', 20, 2
    entry = inlined_at_entry(os.path.join(ctx.builddir, 'rec-inline-entry'), 'step')
    if entry is not None and entry != 'round_skipped':
        raise Skip('step() does not begin with inlined code (%s): built without optimization?' % entry)
    done = rounds - (rounds + 4) // 8
    rec = Recording(ctx, 'inline-entry')
    rec.run('rec-inline-entry', np, [str(rounds)])
    rec.otf2_print().import_()
    rec.expect_records({'MPI_COLLECTIVE_BEGIN': np * 2 * done, 'MPI_COLLECTIVE_END': np * 2 * done})
    rec.expect_info(matched=0, collectives=2 * done, locations=np)
    rec.expect_declarations(source)
    # the call made in the inlined reduce_round() is at its line there, from step()
    rec.expect_callsites(source)
    rec.expect_context(source, 'MPI_Allreduce', 'step', 'main')
    rec.expect_context(source, 'MPI_Barrier', 'step', 'main')


def scenario_disabled(ctx):
    rec = Recording(ctx, 'disabled')
    proc = rec.run('rec-pingpong', 2, ['10'], env={'SEXTANT_RECORD': '0'})
    check(not os.path.exists(rec.anchor), 'SEXTANT_RECORD=0 wrote a trace')
    check('no trace was written' in proc.stderr, 'the launcher did not say that no trace was written')


# ---- crashed runs: the crash journal and its salvage -----------------------

CRASH_ALLREDUCES = 100      # rec-crash.c's ALLREDUCES
# what a salvaged run may bring: the salvage's own rows, and the collectives
# and messages that the crash left half done
CRASH_WARNINGS = ('salvaged', 'lost', 'incomplete_collective', 'collective_mismatch', 'unmatched_send',
                  'unmatched_receive', 'incomplete_request')


def salvage(rec, allowed_warnings=CRASH_WARNINGS, print_events=True):
    """The crash journal of @rec: sextant-record-salvage rebuilds an archive
    that otf2-print reads without errors, and `sextant import DIR` (which
    salvages by itself) imports the same events. (Millions of events take
    otf2-print minutes here: @print_events False skips it.)"""
    check(not os.path.exists(rec.anchor), 'a crashed run has an anchor file')
    check(os.path.isdir(os.path.join(rec.dir, 'journal')), 'a crashed run left no crash journal')
    tool = os.path.join(os.path.dirname(rec.ctx.launcher), 'sextant-record-salvage')
    out = os.path.join(rec.ctx.tmp, rec.name + '-salvaged')
    before = sorted(os.listdir(rec.dir))
    proc = subprocess.run([tool, rec.dir, out], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=300)
    check(proc.returncode == 0, 'sextant-record-salvage failed (%d): %s' % (proc.returncode, proc.stderr))
    check(sorted(os.listdir(rec.dir)) == before, 'the salvage changed the recording')
    if print_events:
        rec.otf2_print(os.path.join(out, 'traces.otf2'))
    rec.import_(rec.dir, allowed_warnings=allowed_warnings)
    return rec


def salvage_rows(rec):
    """{(kind, rank): message} of the salvage's import_log rows (main threads)."""
    rows = rec.query('''SELECT l.kind, c.otf2_id, l.message FROM import_log l
                          JOIN location c ON c.id = l.loc WHERE l.kind IN ('salvaged', 'lost')''')
    return {(kind, otf2_id): message for kind, otf2_id, message in rows}


def stop_visits(rec):
    """{rank: (region name, file, line, parent region)} of the visits that
    mark where each main thread stopped."""
    rows = rec.query('''SELECT c.otf2_id, r.name, r.file, r.begin_line, pr.name FROM visit v
                          JOIN region r ON r.id = v.region JOIN location c ON c.id = v.loc
                          LEFT JOIN visit p ON p.id = v.parent LEFT JOIN region pr ON pr.id = p.region
                          WHERE r.name LIKE 'killed%' OR r.name LIKE 'stopped%' OR r.name LIKE 'exit %'
                             OR r.name LIKE 'still running%' ''')
    stops = {}
    for otf2_id, name, file, line, parent in rows:
        check(otf2_id not in stops, 'location %d has two stop visits' % otf2_id)
        stops[otf2_id] = (name, file, line, parent)
    return stops


def expect_allreduces(rec, ranks, at_least=CRASH_ALLREDUCES):
    """Every rank did its allreduces before the crash, and every visit of
    the salvaged trace is closed (no visit ends before it begins)."""
    for rank in ranks:
        n = rec.query('''SELECT COUNT(*) FROM visit v JOIN region r ON r.id = v.region
                           JOIN location c ON c.id = v.loc WHERE r.name = 'MPI_Allreduce' AND c.otf2_id = ?''',
                      rank)[0][0]
        check(n >= at_least, 'rank %d has %d MPI_Allreduce visits, expected at least %d' % (rank, n, at_least))
    bad = rec.query('SELECT COUNT(*) FROM visit WHERE leave < enter')[0][0]
    check(bad == 0, '%d visits end before they begin' % bad)


def expect_killed(stops, rows, rank):
    """@rank was ended by a signal of the launcher (or SIGKILL, unseen)."""
    check(rank in stops, 'rank %d has no stop visit: %s' % (rank, stops))
    name = stops[rank][0]
    check(name in ('killed by SIGTERM', 'killed by SIGINT', 'killed (no signal seen: SIGKILL?)'),
          'rank %d: stop visit %r' % (rank, name))
    check(('salvaged', rank) in rows, 'no import_log row salvaged for rank %d' % rank)


def crash_line(ctx):
    marks = markers(os.path.join(ctx.srcdir, 'rec-crash.c'), 'CRASH')
    return min(marks['segv'])


def scenario_crash_segv(ctx):
    """Rank 2 dereferences NULL after 100 allreduces on 4 ranks."""
    rec = Recording(ctx, 'crash-segv')
    proc = rec.run('rec-crash', 4, ['segv'], expect_success=False)
    check(proc.returncode != 0, 'a job whose rank crashed exited with 0')
    check('crash journal' in proc.stderr, 'the launcher did not point at the crash journal')
    salvage(rec)
    rec.expect_info(locations=4)
    expect_allreduces(rec, range(4))
    stops, rows = stop_visits(rec), salvage_rows(rec)
    name, file, line, parent = stops.get(2, (None,) * 4)
    check(name == 'killed by SIGSEGV', 'rank 2 stopped with %r' % name)
    check(file is not None and os.path.basename(file) == 'rec-crash.c' and line == crash_line(ctx),
          'the SIGSEGV is placed at %s:%s, expected rec-crash.c:%d' % (file, line, crash_line(ctx)))
    check(parent is None, 'the SIGSEGV happened outside MPI, not in %s' % parent)
    message = rows.get(('salvaged', 2), '')
    check('SIGSEGV' in message and 'rec-crash.c:%d' % crash_line(ctx) in message,
          'import_log does not name the fault: %r' % message)
    # the others were killed waiting in their next allreduce
    for rank in (0, 1, 3):
        expect_killed(stops, rows, rank)
        check(stops[rank][3] == 'MPI_Allreduce', 'rank %d was killed in %s, not in MPI_Allreduce'
              % (rank, stops[rank][3]))
    # the fault came after rank 2's last allreduce
    last = rec.query('''SELECT MAX(v.leave) FROM visit v JOIN region r ON r.id = v.region
                         JOIN location c ON c.id = v.loc WHERE r.name = 'MPI_Allreduce' AND c.otf2_id = 2''')[0][0]
    fault = rec.query('''SELECT v.leave FROM visit v JOIN region r ON r.id = v.region
                          WHERE r.name = 'killed by SIGSEGV' ''')[0][0]
    check(fault >= last, 'the fault (%d) before the last allreduce (%d)' % (fault, last))
    rec.expect_callsites('rec-crash.c', required=('MPI_Allreduce',))


def scenario_crash_abort(ctx):
    """Rank 1 calls MPI_Abort after 100 allreduces; mpirun kills the rest."""
    rec = Recording(ctx, 'crash-abort')
    proc = rec.run('rec-crash', 4, ['abort'], expect_success=False)
    check(proc.returncode != 0, 'a job with MPI_Abort exited with 0')
    salvage(rec)
    expect_allreduces(rec, range(4))
    stops, rows = stop_visits(rec), salvage_rows(rec)
    check(stops.get(1, (None,))[0] == 'stopped by MPI_Abort', 'rank 1 stopped with %r' % (stops.get(1),))
    check(len(rec.visits('MPI_Abort')) == 1, 'no MPI_Abort visit')
    for rank in (0, 2, 3):
        expect_killed(stops, rows, rank)
    rec.expect_callsites('rec-crash.c', required=('MPI_Allreduce', 'MPI_Abort'))


def run_until_ready(rec, cmd, ready, env=None):
    """Starts @cmd in a session of its own and waits until @ready exists."""
    proc = subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True)
    deadline = time.time() + RUN_SECONDS
    while not os.path.exists(ready):
        if proc.poll() is not None or time.time() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            raise Failure('the program never got ready: %s' % err[-2000:])
        time.sleep(0.1)
    return proc


def finish(proc, seconds=60):
    try:
        out, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise Failure('the job did not end after the kill')
    sys.stdout.write(out)
    sys.stderr.write(err)
    return proc.returncode, err


def scenario_crash_timeout(ctx):
    """`timeout` ends the launcher: SIGTERM to the whole job, then SIGKILL."""
    rec = Recording(ctx, 'crash-timeout')
    ready = os.path.join(ctx.tmp, 'timeout.ready')
    cmd = [ctx.timeout, '--kill-after=5', '3600', ctx.launcher, '-o', rec.dir, ctx.mpirun] + \
        MPIRUN_OPTIONS + ['-np', '4', os.path.join(ctx.builddir, 'rec-crash'), 'loop', ready]
    proc = run_until_ready(rec, cmd, ready)
    # SIGALRM is how timeout's own timer fires: the same path as the expiry
    os.kill(proc.pid, signal.SIGALRM)
    status, _ = finish(proc)
    check(status in (124, 137), 'timeout exited with %d, expected 124 or 137' % status)
    salvage(rec)
    expect_allreduces(rec, range(4))
    stops, rows = stop_visits(rec), salvage_rows(rec)
    for rank in range(4):
        expect_killed(stops, rows, rank)
    check(rec.visits('MPI_Barrier'), 'the barrier before the loop is missing')


def scenario_crash_sigkill(ctx):
    """One rank is killed with SIGKILL (no handler runs); mpirun ends the rest."""
    rec = Recording(ctx, 'crash-sigkill')
    ready = os.path.join(ctx.tmp, 'sigkill.ready')
    cmd = [ctx.timeout, '--kill-after=10', str(RUN_SECONDS), ctx.launcher, '-o', rec.dir, ctx.mpirun] + \
        MPIRUN_OPTIONS + ['-np', '4', os.path.join(ctx.builddir, 'rec-crash'), 'loop', ready]
    proc = run_until_ready(rec, cmd, ready)
    with open(ready + '.1') as f:
        os.kill(int(f.read()), signal.SIGKILL)
    status, _ = finish(proc)
    check(status != 0, 'a job whose rank was killed exited with 0')
    salvage(rec)
    expect_allreduces(rec, range(4))
    stops, rows = stop_visits(rec), salvage_rows(rec)
    check(stops.get(1, (None,))[0] == 'killed (no signal seen: SIGKILL?)', 'rank 1 stopped with %r'
          % (stops.get(1),))
    for rank in (0, 2, 3):
        expect_killed(stops, rows, rank)


def scenario_no_finalize_exit(ctx):
    rec = Recording(ctx, 'no-finalize-exit')
    proc = rec.run('rec-no-finalize', 1, ['exit'], expect_success=False)
    check('crash journal' in proc.stderr, 'the launcher did not mention the crash journal')
    salvage(rec)
    rec.expect_records({'MPI_COLLECTIVE_BEGIN': 1, 'MPI_COLLECTIVE_END': 1})
    rec.expect_info(matched=0, collectives=1, locations=1)
    rec.expect_callsites('rec-no-finalize.c', required=('MPI_Barrier',))
    check(not rec.visits('MPI_Finalize'), 'an MPI_Finalize visit in a run without MPI_Finalize')
    check(stop_visits(rec).get(0, (None,))[0] == 'exit without MPI_Finalize', 'no stop visit for the exit')


def scenario_crash_init(ctx):
    """Rank 1 kills itself in MPI_Init once its journal is open, before its
    first location (SEXTANT_RECORD_TEST_KILL=init:1); rank 0, waiting for
    it there, is ended by mpirun. Neither recorded an event, and the salvage
    says so for each rather than leaving them out without a word."""
    rec = Recording(ctx, 'crash-init')
    proc = rec.run('rec-pingpong', 2, ['10'], env={'SEXTANT_RECORD_TEST_KILL': 'init:1'}, expect_success=False)
    check(proc.returncode != 0, 'a job whose rank killed itself exited with 0')
    salvage(rec, print_events=False)
    lost = ' '.join(m for m, in rec.query("SELECT message FROM import_log WHERE kind = 'lost'"))
    for rank in range(2):
        check('rank %d ended in MPI_Init' % rank in lost, 'import_log does not say rank %d ended in MPI_Init: %r'
              % (rank, lost))


def scenario_crash_rerun(ctx):
    """A second run into the directory of a crashed one: the crash journal
    is all there is of the first until it is salvaged, so neither the
    launcher nor the recorder (linked into the program) overwrites it."""
    rec = Recording(ctx, 'crash-rerun')
    rec.run('rec-no-finalize', 1, ['exit'], expect_success=False)
    journal = os.path.join(rec.dir, 'journal')

    def snapshot():
        return sorted((name, os.stat(os.path.join(journal, name)).st_mtime_ns) for name in os.listdir(journal))
    before = snapshot()
    proc = rec.run('rec-pingpong', 2, ['10'], expect_success=False)
    check(proc.returncode == 2 and 'holds the crash journal' in proc.stderr,
          'the launcher ran into a crash journal (%d): %s' % (proc.returncode, proc.stderr[-500:]))
    proc = rec.run('rec-pingpong-linked', 2, ['10'], linked=True, expect_success=False)
    check(proc.returncode == 0, 'the linked program failed (%d)' % proc.returncode)
    check('holds the crash journal' in proc.stderr and 'not recording' in proc.stderr,
          'the recorder did not refuse the crash journal: %s' % proc.stderr[-500:])
    check(snapshot() == before, 'the crash journal changed: %s, was %s' % (snapshot(), before))
    salvage(rec)
    rec.expect_records({'MPI_COLLECTIVE_BEGIN': 1, 'MPI_COLLECTIVE_END': 1})
    check(stop_visits(rec).get(0, (None,))[0] == 'exit without MPI_Finalize', 'no stop visit for the exit')


def scenario_no_finalize_abort(ctx):
    rec = Recording(ctx, 'no-finalize-abort')
    proc = rec.run('rec-no-finalize', 2, ['abort'], expect_success=False)
    check(proc.returncode != 0, 'a job with MPI_Abort exited with 0')
    # rank 1 aborts, rank 0 is killed by mpirun: both are in the salvage,
    # and their messages match
    salvage(rec)
    rec.expect_records({'MPI_SEND': 10, 'MPI_RECV': 10})
    rec.expect_info(matched=10, unmatched=0, locations=2)
    check(len(rec.visits('MPI_Abort')) == 1, 'no MPI_Abort visit')
    rec.expect_callsites('rec-no-finalize.c', required=('MPI_Barrier', 'MPI_Abort'))


def scenario_crash_flushing(ctx):
    """SIGKILL of every rank once rank 0 flushed its small buffer (the
    others flush about then): whatever the moment, each rank's salvaged events are a prefix of
    what it did - no gap and no repeat between the flushed chunks and the
    journal's recycled slot - so the ranks' allreduce counts differ by the
    one or two that were under way."""
    rec = Recording(ctx, 'crash-flushing')
    ready = os.path.join(ctx.tmp, 'flushing.ready')
    env = dict(os.environ, SEXTANT_RECORD_BUFFER='1', SEXTANT_RECORD_CALLPATH='0')
    cmd = [ctx.timeout, '--kill-after=10', str(RUN_SECONDS), ctx.launcher, '-o', rec.dir, ctx.mpirun] + \
        MPIRUN_OPTIONS + ['-np', '2', os.path.join(ctx.builddir, 'rec-crash'), 'loop', ready]
    proc = run_until_ready(rec, cmd, ready, env=env)
    pids = []
    for rank in range(2):
        with open('%s.%d' % (ready, rank)) as f:
            pids.append(int(f.read()))
    evt = os.path.join(rec.dir, 'traces', '0.evt')
    deadline = time.time() + RUN_SECONDS
    while not os.path.exists(evt) or os.path.getsize(evt) < (4 << 20):
        if proc.poll() is not None or time.time() > deadline:
            status, _ = finish(proc)
            raise Failure('rank 0 did not flush in %d s (the job ended with %d)' % (RUN_SECONDS, status))
        time.sleep(0.05)
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    finish(proc)
    salvage(rec, print_events=False)
    # (the kill may come before the next chunk's BUFFER_FLUSH record: the
    # journal's slot then still holds the flushed chunk, taken once)
    expect_prefixes(rec)


# SEXTANT_RECORD_TEST_KILL points around a flush (the kill crash-flushing
# hits by chance, every time): each rank kills itself (SIGKILL) there, at
# its first flush; (point, SEXTANT_RECORD_BUFFER): 1 MiB is one 4 MiB slot,
# 8 MiB two (libotf2 writes both, then they are recycled in turn).
FLUSH_KILLS = {
    # half-way through zeroing the slot it recycles: the journal's state must
    # already say that the chunk is in the .evt file (the slot is half zeros)
    'crash-zeroing': ('zeroing', '1'),
    'crash-zeroing-slots': ('zeroing', '8'),
    # libotf2 wrote the slots to the .evt file, not yet recycled: the chunks
    # are in both, and must be taken once
    'crash-flushed': ('flushed', '1'),
    'crash-flushed-slots': ('flushed', '8'),
}


def scenario_crash_flush_kill(ctx, name):
    point, buffer = FLUSH_KILLS[name]
    rec = Recording(ctx, name)
    env = {'SEXTANT_RECORD_BUFFER': buffer, 'SEXTANT_RECORD_CALLPATH': '0', 'SEXTANT_RECORD_TEST_KILL': point}
    proc = rec.run('rec-crash', 2, ['loop'], env=env, expect_success=False)
    check(proc.returncode != 0, 'a job whose ranks killed themselves exited with 0')
    # a rank died at its first flush: its .evt file holds each slot once
    slots = max(1, int(buffer) // 4)
    sizes = [os.path.getsize(os.path.join(rec.dir, 'traces', f)) for f in os.listdir(os.path.join(rec.dir, 'traces'))]
    check((slots * 4) << 20 in sizes, 'no rank flushed its %d slots once: .evt sizes %s' % (slots, sizes))
    salvage(rec, print_events=False)
    expect_prefixes(rec)
    stops = stop_visits(rec)
    check(any(stops.get(rank, (None,))[0] == 'killed (no signal seen: SIGKILL?)' for rank in range(2)),
          'no rank stopped by its own SIGKILL: %s' % stops)


# SEXTANT_RECORD_TEST_KILL points in MPI_Finalize (POINT:RANK: that rank
# kills itself there, a second after it got there, so that the other runs
# ahead as far as it can; mpirun then ends it)
FINALIZE_KILLS = {
    # the event writers are closed: libotf2 ended the last chunk with
    # END_OF_BUFFER, which is the end of the events, not a cut record
    'crash-finalize-events': 'events-closed:1',
    # rank 1 dies before its local definitions (mapping tables) are
    # written: rank 0 must not write the anchor of an archive without them
    'crash-finalize-defs': 'local-defs:1',
    # rank 0 dies before it writes the anchor: rank 1 must not have removed
    # its journal
    'crash-finalize-anchor': 'anchor:0',
}


def scenario_crash_finalize(ctx, name):
    """A rank killed in MPI_Finalize after every event was recorded: no
    anchor (the archive is not complete), every rank's journal, and the
    salvage has every event - no rank lost, nothing reported lost."""
    n = 100
    hook = FINALIZE_KILLS[name]
    victim = int(hook.split(':')[1])
    rec = Recording(ctx, name)
    proc = rec.run('rec-pingpong', 2, [str(n)], env={'SEXTANT_RECORD_TEST_KILL': hook}, expect_success=False)
    check(proc.returncode != 0, 'a job whose rank killed itself exited with 0')
    salvage(rec)
    lost = rec.query("SELECT message FROM import_log WHERE kind = 'lost'")
    check(not lost, 'the salvage lost something: %s' % lost)
    rec.expect_records({'MPI_SEND': 2 * n, 'MPI_RECV': 2 * n, 'MPI_COLLECTIVE_BEGIN': 2,
                        'MPI_COLLECTIVE_END': 2})
    rec.expect_info(matched=2 * n, unmatched=0, collectives=1, locations=2)
    check(len(rec.visits('MPI_Finalize')) == 2, '%d MPI_Finalize visits, expected 2'
          % len(rec.visits('MPI_Finalize')))
    stops = stop_visits(rec)
    check(stops.get(victim, (None,))[0] == 'killed (no signal seen: SIGKILL?)',
          'rank %d stopped with %r' % (victim, stops.get(victim)))
    # the other was ended by mpirun, waiting for the victim: its signal
    # still makes a STOP record in MPI_Finalize
    expect_killed(stops, salvage_rows(rec), 1 - victim)
    for rank in range(2):
        check(stops.get(rank, (None,) * 4)[3] is None, 'rank %d stopped inside %s, not after MPI_Finalize'
              % (rank, stops.get(rank, (None,) * 4)[3]))


def expect_prefixes(rec):
    """Each of 2 ranks, killed in a loop of allreduces after its first
    flush, has a prefix of what it did: their counts differ by the one or
    two under way, and nothing is lost but a record cut by the kill."""
    counts = [n for _, n in rec.query('''SELECT c.otf2_id, COUNT(*) FROM visit v JOIN region r ON r.id = v.region
                                         JOIN location c ON c.id = v.loc WHERE r.name = 'MPI_Allreduce'
                                         GROUP BY c.otf2_id ORDER BY c.otf2_id''')]
    check(len(counts) == 2 and min(counts) > 10000 and max(counts) - min(counts) <= 2,
          'allreduces per rank %s: not two prefixes of one run' % counts)
    rows = salvage_rows(rec)
    bad = [m for (kind, _), m in rows.items() if kind == 'lost' and 'cut by the end' not in m]
    check(not bad, 'lost more than a record cut by the kill: %s' % bad)


def scenario_crash_torn(ctx):
    """A record cut by the kill: the last LEAVE of a journal loses its last
    byte (as if the process died while libotf2 wrote it). The salvage drops
    it, says so in import_log, and closes the visit at the stop."""
    rec = Recording(ctx, 'crash-torn')
    rec.run('rec-no-finalize', 1, ['exit'], expect_success=False)
    journal = os.path.join(rec.dir, 'journal', '0.evtj')
    with open(journal, 'r+b') as f:
        header = f.read(40)
        chunk_size, state = struct.unpack_from('<Q', header, 16)[0], struct.unpack_from('<Q', header, 32)[0]
        used = state & 0xffff
        check(used >= 1, 'no slot of the journal is in use (state %#x)' % state)
        f.seek(4096 + (used - 1) * chunk_size)
        slot = bytearray(f.read(chunk_size))
        last = len(slot.rstrip(b'\0')) - 1
        check(slot[last - 2] == 13, 'the last record of the journal is not a LEAVE')
        slot[last] = 0
        f.seek(4096 + (used - 1) * chunk_size + last)
        f.write(b'\0')
    salvage(rec)
    rows = salvage_rows(rec)
    check('cut' in rows.get(('lost', 0), ''), 'no import_log row lost for the cut record: %s' % rows)
    check(len(rec.visits('MPI_Barrier')) == 1, 'the barrier visit is gone')
    stop = stop_visits(rec).get(0, (None,) * 4)
    check(stop[0] == 'exit without MPI_Finalize' and stop[3] == 'MPI_Barrier',
          'the stop visit %s is not inside the barrier whose LEAVE was cut' % (stop,))
    rec.expect_records({'MPI_COLLECTIVE_BEGIN': 1, 'MPI_COLLECTIVE_END': 1})


def scenario_killed(ctx):
    """Killed while running, after many flushes of a small buffer: every
    event before the kill is salvaged - the flushed chunks and the journal's
    recycled slots join without a gap or a duplicate."""
    rec = Recording(ctx, 'killed')
    ready = os.path.join(ctx.tmp, 'killed.ready')
    env = dict(os.environ, SEXTANT_RECORD_BUFFER='1')
    cmd = [ctx.launcher, '-o', rec.dir, ctx.mpirun] + MPIRUN_OPTIONS + \
          ['-np', '2', os.path.join(ctx.builddir, 'rec-no-finalize'), 'hang', ready]
    proc = run_until_ready(rec, cmd, ready, env=env)
    os.killpg(proc.pid, signal.SIGTERM)
    finish(proc)
    evt = [f for f in os.listdir(os.path.join(rec.dir, 'traces')) if f.endswith('.evt')]
    check(evt, 'no event chunks were flushed before the kill')
    salvage(rec)
    iterations = 60000            # rec-no-finalize.c's ITERATIONS
    check(rec.kinds.get('BUFFER_FLUSH', 0) >= 2, 'no BUFFER_FLUSH records: %s' % rec.kinds)
    rec.expect_records({'MPI_SEND': 10 + 2 * iterations, 'MPI_RECV': 10 + 2 * iterations})
    rec.expect_info(matched=10 + 2 * iterations, unmatched=0, locations=2)
    stops, rows = stop_visits(rec), salvage_rows(rec)
    for rank in range(2):
        expect_killed(stops, rows, rank)



# ---- where the event journal lives ----------------------------------------

SHM = '/dev/shm'


def journal_links(rec):
    """{event journal in DIR/journal: the file it links to, or None}."""
    journal = os.path.join(rec.dir, 'journal')
    links = {}
    for name in os.listdir(journal):
        if name.endswith('.evtj'):
            path = os.path.join(journal, name)
            links[name] = os.readlink(path) if os.path.islink(path) else None
    return links


def rank_pids(ready, ranks):
    pids = []
    for rank in range(ranks):
        with open('%s.%d' % (ready, rank)) as f:
            pids.append(int(f.read()))
    return pids


def wait_gone(pids, seconds=30):
    """Until none of @pids is a process (a zombie still is one)."""
    deadline = time.time() + seconds
    while any(os.path.exists('/proc/%d' % pid) for pid in pids):
        check(time.time() < deadline, 'the killed ranks %s are still there' % pids)
        time.sleep(0.1)


def start_loop(rec, ctx, ranks, env=None):
    """rec-crash loop on @ranks ranks, recorded; returns (process, rank pids)
    once every rank is in its loop."""
    ready = os.path.join(ctx.tmp, rec.name + '.ready')
    cmd = [ctx.timeout, '--kill-after=10', str(RUN_SECONDS), ctx.launcher, '-o', rec.dir, ctx.mpirun] + \
        MPIRUN_OPTIONS + ['-np', str(ranks), os.path.join(ctx.builddir, 'rec-crash'), 'loop', ready]
    proc = run_until_ready(rec, cmd, ready, env=env)
    return proc, rank_pids(ready, ranks)


def expect_in_memory(links, pids):
    """Each event journal is a link to a file of its rank in /dev/shm."""
    check(len(links) == len(pids), 'event journals %s for %d ranks' % (sorted(links), len(pids)))
    for name, target in links.items():
        check(target is not None, '%s is not a link to memory' % name)
        base = os.path.basename(target)
        check(os.path.dirname(target) == SHM and base.startswith('sextant-') and
              int(base.split('-')[1]) in pids, '%s links to %s, not to a rank\'s file in %s' % (name, target, SHM))
        check(os.path.isfile(target), '%s: its file %s is not there' % (name, target))


def start_in_memory(ctx, name):
    """rec-crash loop on 2 ranks, recorded with the event journals in memory;
    returns (recording, process, rank pids, the journal links)."""
    if not os.path.isdir(SHM):
        raise Skip('no %s' % SHM)
    rec = Recording(ctx, name)
    proc, pids = start_loop(rec, ctx, 2)
    return rec, proc, pids, journal_links(rec)


def expect_moved(rec, links, by):
    """The event journals that @links led to are files in DIR/journal now,
    and gone from /dev/shm."""
    check(all(target is None for target in journal_links(rec).values()),
          '%s left links to memory: %s' % (by, journal_links(rec)))
    left = [t for t in links.values() if os.path.exists(t)]
    check(not left, '%s left the journals in memory: %s' % (by, left))


def scenario_journal_memory(ctx):
    """On the launcher's host the event journals are in memory (/dev/shm,
    linked from DIR/journal) while the ranks record; after one rank's
    SIGKILL the launcher moves them into DIR/journal, and every rank's
    events before the kill are salvaged from them."""
    rec, proc, pids, links = start_in_memory(ctx, 'journal-memory')
    try:
        expect_in_memory(links, pids)
    finally:
        os.kill(pids[1], signal.SIGKILL)
        status, _ = finish(proc)
    check(status != 0, 'a job whose rank was killed exited with 0')
    expect_moved(rec, links, 'the launcher')
    salvage(rec)
    expect_allreduces(rec, range(2))
    stops, rows = stop_visits(rec), salvage_rows(rec)
    check(stops.get(1, (None,))[0] == 'killed (no signal seen: SIGKILL?)', 'rank 1 stopped with %r'
          % (stops.get(1),))
    expect_killed(stops, rows, 0)


def scenario_journal_launcher_killed(ctx):
    """SIGKILL of the whole job, the launcher included: the event journals
    stay in /dev/shm, linked from DIR/journal; the salvage reads them
    through the links, moves them into DIR/journal and frees the memory."""
    rec, proc, pids, links = start_in_memory(ctx, 'journal-launcher-killed')
    try:
        expect_in_memory(links, pids)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        finish(proc)
    wait_gone(pids)
    check(journal_links(rec) == links, 'the journal links changed without a launcher: %s' % journal_links(rec))
    salvage(rec)
    expect_allreduces(rec, range(2))
    stops, rows = stop_visits(rec), salvage_rows(rec)
    for rank in range(2):
        check(stops.get(rank, (None,))[0] == 'killed (no signal seen: SIGKILL?)', 'rank %d stopped with %r'
              % (rank, stops.get(rank)))
    expect_moved(rec, links, 'the salvage')
    # what the salvage moved is read the same again
    shutil.rmtree(os.path.join(ctx.tmp, rec.name + '-salvaged'))
    salvage(rec, print_events=False)
    expect_allreduces(rec, range(2))


def allreduce_counts(rec):
    return [n for _, n in rec.query('''SELECT c.otf2_id, COUNT(*) FROM visit v JOIN region r ON r.id = v.region
                                       JOIN location c ON c.id = v.loc WHERE r.name = 'MPI_Allreduce'
                                       GROUP BY c.otf2_id ORDER BY c.otf2_id''')]


def scenario_journal_ranks_live_on(ctx):
    """SIGKILL of the launcher and mpirun only (the ranks are in process
    groups of their own): the ranks record on for a moment before they end.
    A salvage right then waits for them, so that it reads every journal as
    it was left, not one rank's earlier than another's."""
    rec, proc, pids, links = start_in_memory(ctx, 'journal-ranks-live-on')
    os.killpg(proc.pid, signal.SIGKILL)
    finish(proc)
    salvage(rec, print_events=False)
    counts = allreduce_counts(rec)
    check(len(counts) == 2 and min(counts) >= 100 and max(counts) - min(counts) <= 2,
          'allreduces per rank %s: not two prefixes of one run' % counts)
    still = rec.query("SELECT message FROM import_log WHERE kind = 'lost' AND message LIKE '%still recording%'")
    check(not still, 'the ranks were taken as still recording: %s' % still)
    expect_moved(rec, links, 'the salvage')


def scenario_crash_running(ctx):
    """A run salvaged while it hangs (its ranks stopped with SIGSTOP, still
    alive): after waiting for them the salvage takes the journals as they
    are, says so per rank, and ends each rank with a visit 'still running
    when salvaged'."""
    rec = Recording(ctx, 'crash-running')
    # (journals in DIR/journal: in memory, those of processes alive at the
    # salvage would stay in /dev/shm)
    proc, pids = start_loop(rec, ctx, 2, env=dict(os.environ, SEXTANT_RECORD_JOURNAL='dir'))
    try:
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        salvage(rec, print_events=False)
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
            os.kill(pid, signal.SIGCONT)
        finish(proc)
    counts = allreduce_counts(rec)
    check(len(counts) == 2 and min(counts) >= 100 and max(counts) - min(counts) <= 2,
          'allreduces per rank %s: not two prefixes of one run' % counts)
    still = ' '.join(m for m, in rec.query("SELECT message FROM import_log WHERE kind = 'lost'"))
    check(all('rank %d: its process (pid %d' % (rank, pid) in still for rank, pid in enumerate(pids)),
          'import_log does not say that both ranks were still recording: %s' % still)
    stops = stop_visits(rec)
    for rank in range(2):
        check(stops.get(rank, (None,))[0] == 'still running when salvaged', 'rank %d stopped with %r'
              % (rank, stops.get(rank)))


def scenario_journal_dir(ctx):
    """SEXTANT_RECORD_JOURNAL=dir (what ranks on other hosts than the
    launcher's do): the event journals are files in DIR/journal, and a
    SIGKILL of one rank is salvaged as well."""
    rec = Recording(ctx, 'journal-dir')
    proc, pids = start_loop(rec, ctx, 2, env=dict(os.environ, SEXTANT_RECORD_JOURNAL='dir'))
    links = journal_links(rec)
    os.kill(pids[1], signal.SIGKILL)
    finish(proc)
    check(len(links) == 2 and all(t is None for t in links.values()),
          'SEXTANT_RECORD_JOURNAL=dir: event journals %s are not files' % links)
    salvage(rec)
    expect_allreduces(rec, range(2))
    stops, rows = stop_visits(rec), salvage_rows(rec)
    check(stops.get(1, (None,))[0] == 'killed (no signal seen: SIGKILL?)', 'rank 1 stopped with %r'
          % (stops.get(1),))


def shm_journals():
    """The recorder's event journals in /dev/shm of processes that are gone."""
    if not os.path.isdir(SHM):
        return set()
    found = set()
    for name in os.listdir(SHM):
        m = re.match(r'sextant-(\d+)-\d+-\d+\.evtj$', name)
        if m and not os.path.exists('/proc/' + m.group(1)):
            found.add(name)
    return found


def scenario_journal_clean(ctx):
    """A run that ends normally leaves nothing in /dev/shm, and no journal."""
    before = shm_journals()
    rec = Recording(ctx, 'journal-clean')
    rec.run('rec-pingpong', 2, ['10'])
    left = shm_journals() - before
    check(not left, 'a normal run left event journals in %s: %s' % (SHM, sorted(left)))
    rec.otf2_print()


SCENARIOS = {
    'pingpong': scenario_pingpong,
    'pingpong-linked': scenario_pingpong_linked,
    'flush': scenario_flush,
    'late-sender': scenario_late_sender,
    'clock-pingpong': scenario_clock_pingpong,
    'late-receiver': scenario_late_receiver,
    'barrier': scenario_barrier,
    'wrong-order': scenario_wrong_order,
    'nonblocking': scenario_nonblocking,
    'split-coll': scenario_split_coll,
    'requests': scenario_requests,
    'comms': scenario_comms,
    'nbc-order': scenario_nbc_order,
    'calls': scenario_calls,
    'behaviour': scenario_behaviour,
    'rma': scenario_rma,
    'threads': scenario_threads,
    'threads-many': scenario_threads_many,
    'onecoll': scenario_onecoll,
    'inline-entry': scenario_inline_entry,
    'callpath': scenario_callpath,
    'disabled': scenario_disabled,
    'no-finalize-exit': scenario_no_finalize_exit,
    'no-finalize-abort': scenario_no_finalize_abort,
    'killed': scenario_killed,
    'crash-segv': scenario_crash_segv,
    'crash-abort': scenario_crash_abort,
    'crash-timeout': scenario_crash_timeout,
    'crash-sigkill': scenario_crash_sigkill,
    'crash-torn': scenario_crash_torn,
    'crash-flushing': scenario_crash_flushing,
    'crash-rerun': scenario_crash_rerun,
    'crash-init': scenario_crash_init,
    'crash-running': scenario_crash_running,
    'journal-ranks-live-on': scenario_journal_ranks_live_on,
    'journal-memory': scenario_journal_memory,
    'journal-launcher-killed': scenario_journal_launcher_killed,
    'journal-dir': scenario_journal_dir,
    'journal-clean': scenario_journal_clean,
}
SCENARIOS.update({name: (lambda ctx, name=name: scenario_crash_flush_kill(ctx, name)) for name in FLUSH_KILLS})
SCENARIOS.update({name: (lambda ctx, name=name: scenario_crash_finalize(ctx, name)) for name in FINALIZE_KILLS})


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('scenario', choices=sorted(SCENARIOS))
    for option in ('builddir', 'srcdir', 'launcher', 'mpirun', 'timeout', 'otf2-print'):
        parser.add_argument('--' + option, required=True)
    parser.add_argument('--keep', action='store_true', help='keep the temporary directory')
    ctx = parser.parse_args()
    ctx.otf2_print = getattr(ctx, 'otf2_print')
    os.environ.setdefault('OMPI_ALLOW_RUN_AS_ROOT', '1')
    os.environ.setdefault('OMPI_ALLOW_RUN_AS_ROOT_CONFIRM', '1')
    with tempfile.TemporaryDirectory(prefix='sextant-rec-') as tmp:
        ctx.tmp = tmp
        try:
            SCENARIOS[ctx.scenario](ctx)
        except Failure as failure:
            print('FAIL %s: %s' % (ctx.scenario, failure))
            if ctx.keep:
                print('kept %s' % tmp)
                input('press return to remove it')
            return 1
        except Skip as reason:
            print('SKIP %s: %s' % (ctx.scenario, reason))
            return 77
    print('ok %s' % ctx.scenario)
    return 0


if __name__ == '__main__':
    sys.exit(main())
