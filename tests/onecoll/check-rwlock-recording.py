#!/usr/bin/env python3
"""check-rwlock-recording.py SCHEME: onecoll's rwlock waits, recorded.

Runs rec-rwlock (linked with the recorder) on 4 Open MPI ranks - the
writer and 3 clients - imports the archive with `sextant import` and runs
`sextant analyze --json --pattern lock_contention`, then checks what a user
would: the archive has a THREAD_ACQUIRE_LOCK/THREAD_RELEASE_LOCK pair per
lock taken (the writer's wrlock takes the 3 client locks, twice; each
client's rdlock takes its own, client 1 twice), the store's lock table has
them as THREAD locks, and lock_contention finds the planted waits - the 3
clients at rec-rwlock.c's WAIT:rdlock line with the writer as the peer, the
writer at the WAIT:wrlock line with client 1 as the peer - each about
HOLD_MS long.

Each wait, measured against what was planted (the holder took the lock,
passed a barrier, slept HOLD_MS, released it; the waiter asked as it left
that barrier), through the delay chain behind it (`sextant tree
--instance`), which steps to the holder's hold:
  - the chain ends at the planted holder, its node is the hold: at least
    HOLD_MS long (usleep sleeps no less) and at most HOLD_MS + SLACK_S;
  - the wait lies against that hold: it began after the hold began (the
    holder locked before the barrier the waiter left to ask), and ended at
    the hold's end or after (the lock is exclusive; one clock on one
    machine, CLOCK_SKEW_S allowed for the recorder's clock correction) and
    at most SLACK_S after it (the hand-over);
  - so the wait is HOLD_MS less the barrier's exit skew plus the
    hand-over: between HOLD_MS / 2 and HOLD_MS + SLACK_S.
SLACK_S (0.25 s) is what oversubscribed ranks on 2 busy cores may lose to
the scheduler: an oversleeping usleep, a woken waiter waiting some time
slices for a core. The measured values are printed.

Environment (meson): SEXTANT, REC_RWLOCK (the program), MPIRUN,
OTF2_PRINT, SRCDIR (tests/onecoll, to find the marked lines); with
SEXTANT_RECORD (the sextant-record launcher), REC_RWLOCK is an unmodified
program (libonecoll.so, no recorder linked in) run under it.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HOLD_S = 0.060
SLACK_S = 0.25
CLOCK_SKEW_S = 0.001
NP = 4


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def marked_line(source, mark):
    for i, line in enumerate(open(source), 1):
        if mark in line:
            return i
    fail('no line marked %s in %s' % (mark, source))


def main():
    scheme = sys.argv[1]
    source = os.path.join(os.environ['SRCDIR'], 'rec-rwlock.c')
    with tempfile.TemporaryDirectory(prefix='sextant-rwlock-rec-') as tmp:
        rec_dir = os.path.join(tmp, 'rec')
        env = dict(os.environ, SEXTANT_RECORD_DIR=rec_dir, OMPI_ALLOW_RUN_AS_ROOT='1',
                   OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1')
        cmd = ['timeout', '--kill-after=10', '90']
        if os.environ.get('SEXTANT_RECORD'):
            cmd += [os.environ['SEXTANT_RECORD'], '-o', rec_dir, '--']
        cmd += [os.environ['MPIRUN'], '--oversubscribe',
                '--allow-run-as-root', '--bind-to', 'none', '--mca', 'btl', 'self,vader',
                '-x', 'SEXTANT_RECORD_DIR', '-np', str(NP), os.environ['REC_RWLOCK'], scheme]
        run = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True, timeout=120)
        if run.returncode != 0:
            fail('rec-rwlock exited with %d: %s' % (run.returncode, run.stderr[-2000:]))
        anchor = os.path.join(rec_dir, 'traces.otf2')
        events = subprocess.run([os.environ['OTF2_PRINT'], '-Werror', anchor], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        if events.returncode != 0:
            fail('otf2-print: %s' % events.stderr[-2000:])
        acquires = len(re.findall(r'^THREAD_ACQUIRE_LOCK ', events.stdout, re.M))
        releases = len(re.findall(r'^THREAD_RELEASE_LOCK ', events.stdout, re.M))
        clients = NP - 1
        expected = 2 * clients + clients + 1       # two wrlocks of N locks, N + 1 rdlocks
        if acquires != expected or releases != expected:
            fail('%d acquire and %d release records, expected %d each' % (acquires, releases, expected))

        db = os.path.join(tmp, 'rec.sextant.db')
        imp = subprocess.run([os.environ['SEXTANT'], 'import', '--quiet', '--force', '-o', db, anchor],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                             timeout=300)
        if imp.returncode != 0:
            fail('sextant import: %s' % imp.stderr)
        ana = subprocess.run([os.environ['SEXTANT'], 'analyze', '--json', '--no-user-patterns',
                              '--pattern', 'lock_contention', db], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
        if ana.returncode != 0:
            fail('sextant analyze: %s' % ana.stderr)
        pattern = [p for p in json.loads(ana.stdout)['patterns'] if p['id'] == 'lock_contention'][0]
        if pattern['instances'] != clients + 1:
            fail('lock_contention: %d instances, expected %d (%s)' % (pattern['instances'], clients + 1, pattern))
        sites = {(os.path.basename(s['file'] or ''), s['line'], s['callpath']): s for s in pattern['top_sites']}
        rd = sites.get(('rec-rwlock.c', marked_line(source, '/* WAIT:rdlock */'), 'onecoll_rwlock_rdlock'))
        wr = sites.get(('rec-rwlock.c', marked_line(source, '/* WAIT:wrlock */'), 'onecoll_rwlock_wrlock'))
        if rd is None or wr is None:
            fail('lock_contention sites are not the marked lines: %s' % list(sites))
        if rd['instances'] != clients or wr['instances'] != 1:
            fail('instances per site: rdlock %d, wrlock %d' % (rd['instances'], wr['instances']))
        # every wait at least most of the hold (the planted waits start at a
        # barrier after the holder took the lock)
        per_loc = pattern['by_location']
        for loc in range(NP):
            if per_loc.get(str(loc), 0) < 0.5 * HOLD_S:
                fail('location %d waited %.3f s, expected about %.3f s' % (loc, per_loc.get(str(loc), 0), HOLD_S))
        check_waits(pattern, json.loads(ana.stdout), db, source)
        print('%s: %d lock records; lock_contention: %d instances, rdlock %.3f s at line %d, '
              'wrlock %.3f s at line %d' % (scheme, acquires, pattern['instances'], rd['severity_seconds'],
                                            marked_line(source, '/* WAIT:rdlock */'), wr['severity_seconds'],
                                            marked_line(source, '/* WAIT:wrlock */')))


def check_waits(pattern, result, db, source):
    """Each instance against its planted hold, through its delay chain."""
    rd_line = marked_line(source, '/* WAIT:rdlock */')
    wr_line = marked_line(source, '/* WAIT:wrlock */')
    waits = [i for i in result['instances'] if i['pattern'] == 'lock_contention']
    if len(waits) != pattern['instances']:
        fail('%d lock_contention instances listed, %d counted' % (len(waits), pattern['instances']))
    for i in waits:
        # the writer (location 0) waited for client 1 at the wrlock line,
        # each client for the writer at the rdlock line
        holder, line = (1, wr_line) if i['location'] == 0 else (0, rd_line)
        if i['peer'] != holder or i['line'] != line:
            fail('instance %d: location %d waited at line %s for %s, planted: for %d at line %d'
                 % (i['id'], i['location'], i['line'], i['peer'], holder, line))
        chain_run = subprocess.run([os.environ['SEXTANT'], 'tree', db, '--instance', str(i['id']), '--json'],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                                   timeout=300)
        if chain_run.returncode != 0:
            fail('sextant tree --instance %d: %s' % (i['id'], chain_run.stderr))
        chain = json.loads(chain_run.stdout)
        nodes, edges = chain['nodes'], chain['edges']
        root, wait = nodes[-1], edges[-1]
        if len(nodes) != 2 or root['location'] != holder or root['cause'] != 'root_cause':
            fail('instance %d: the chain does not end at the holder %d: %s' % (i['id'], holder, chain_run.stdout))
        hold = root['end'] - root['begin']
        waited = wait['end'] - wait['begin']
        handover = wait['end'] - root['end']
        print('location %d waited %.4f s for location %d, which held the lock %.4f s; hand-over %.4f s'
              % (i['location'], waited, holder, hold, handover))
        if not HOLD_S <= hold <= HOLD_S + SLACK_S:
            fail('instance %d: the hold is %.4f s, planted %.3f s' % (i['id'], hold, HOLD_S))
        if wait['begin'] < root['begin'] or not -CLOCK_SKEW_S <= handover <= SLACK_S:
            fail('instance %d: the wait [%.4f, %.4f] is not against the hold [%.4f, %.4f]'
                 % (i['id'], wait['begin'], wait['end'], root['begin'], root['end']))
        if not HOLD_S / 2 <= waited <= HOLD_S + SLACK_S or abs(waited - i['severity_seconds']) > 1e-6:
            fail('instance %d: waited %.4f s (severity %.4f s), planted about %.3f s'
                 % (i['id'], waited, i['severity_seconds'], HOLD_S))


if __name__ == '__main__':
    main()
