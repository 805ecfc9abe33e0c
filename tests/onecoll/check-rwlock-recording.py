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

Environment (meson): SEXTANT, REC_RWLOCK (the program), MPIRUN,
OTF2_PRINT, SRCDIR (tests/onecoll, to find the marked lines).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HOLD_S = 0.060
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
        cmd = ['timeout', '--kill-after=10', '90', os.environ['MPIRUN'], '--oversubscribe',
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
        print('%s: %d lock records; lock_contention: %d instances, rdlock %.3f s at line %d, '
              'wrlock %.3f s at line %d' % (scheme, acquires, pattern['instances'], rd['severity_seconds'],
                                            marked_line(source, '/* WAIT:rdlock */'), wr['severity_seconds'],
                                            marked_line(source, '/* WAIT:wrlock */')))


if __name__ == '__main__':
    main()
