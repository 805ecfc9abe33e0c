#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Who delayed whom, on a chain planted in a real MPI run.

tests/recorder/rec-chain.c runs on 4 Open MPI ranks, recorded with
sextant-record: rank 1 computes late in compute_late and sends at its end to
rank 2, which receives and passes the value on to rank 3 (twice). Then:
 - `sextant analyze --json`: rank 2's Late Senders are direct, rank 3's
   propagated, both with rank 1 as the root cause; rank 3's comment names
   rank 1 in compute_late before the MPI_Send of the line marked LATE;
 - the delay chain behind each (`sextant tree --instance ID --json`, and
   as text): 3 -> 2 -> 1 for rank 3, 2 -> 1 for rank 2, ending at rank 1 in
   compute_late at rec-chain.c:<LATE line>, each link's interval the waiting
   instance's;
 - the errors: an unknown id, an instance that is no wait state, a store
   without analysis, an id that is no number - a message that says so and
   a non-zero exit;
 - `sextant matrix` on the same trace: --json and --csv shapes, the sums
   equal the message table's, a range keeps the first round only.
"""

import argparse
import csv
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

import sextant_sqlite  # noqa: F401  (the column tables)
from tap import finish, ok

MPIRUN_OPTIONS = ['--oversubscribe', '--allow-run-as-root', '--bind-to', 'none',
                  '--mca', 'osc', 'sm', '--mca', 'btl', 'self,vader']
RUN_SECONDS = 90


def marked_line(path, mark):
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if mark in line:
                return number
    raise RuntimeError('no line marked %s in %s' % (mark, path))


def run(*args, timeout=300):
    return subprocess.run(list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=timeout)


def main():
    parser = argparse.ArgumentParser()
    for option in ('builddir', 'srcdir', 'launcher', 'mpirun', 'timeout', 'otf2-print'):
        parser.add_argument('--' + option, required=option != 'otf2-print')
    args = parser.parse_args()
    sextant = os.environ['SEXTANT']
    source = os.path.realpath(os.path.join(args.srcdir, 'rec-chain.c'))
    late_line = marked_line(source, 'LATE:compute_late')
    tmp = tempfile.mkdtemp(prefix='sextant-delay-chain-')
    try:
        check(args, sextant, source, late_line, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish()


def check(args, sextant, source, late_line, tmp):
    archive = os.path.join(tmp, 'trace')
    db = os.path.join(tmp, 'chain.db')
    cmd = ([args.timeout, '--kill-after=10', str(RUN_SECONDS), args.launcher, '-o', archive, args.mpirun]
           + MPIRUN_OPTIONS + ['-np', '4', os.path.join(args.builddir, 'rec-chain')])
    rec = run(*cmd, timeout=RUN_SECONDS + 30)
    ok(rec.returncode == 0, 'rec-chain ran on 4 ranks, recorded', rec.stderr[-2000:])
    if rec.returncode != 0:
        return
    imp = run(sextant, 'import', '-q', archive, '-o', db)
    ok(imp.returncode == 0, 'sextant import', imp.stderr)

    # a store without analysis first: the chain says so
    bare = run(sextant, 'tree', db, '--instance', '51539607552', '--json')
    ok(bare.returncode == 1 and 'has not been analysed' in bare.stderr and bare.stdout == '',
       'no analysis: a message and exit status 1', bare.stderr + bare.stdout)

    ana = run(sextant, 'analyze', '--json', '--no-user-patterns', db)
    ok(ana.returncode == 0, 'sextant analyze --json', ana.stderr)
    result = json.loads(ana.stdout)
    instances = result['instances']
    senders = [i for i in instances if i['pattern'] == 'late_sender']
    on = {loc: [i for i in senders if i['location'] == loc] for loc in (1, 2, 3)}
    ok(len(on[2]) == 2 and len(on[3]) == 2 and not on[1],
       'a Late Sender per round on ranks 2 and 3', json.dumps(senders, indent=1))

    # rank 2 waited for rank 1, which computed: direct
    for i in on[2]:
        ok(i['cause'] == 'direct' and i['peer'] == 1 and i['root_cause_location'] == 1
           and i['root_cause_label'] == 'MPI Rank 1' and i['cause_instance'] is None,
           'rank 2, instance %d: direct, the root cause is rank 1' % i['id'], json.dumps(i, indent=1))
    # rank 3 waited for rank 2, which was waiting for rank 1: propagated
    expected_comment = ('which was itself waiting (propagated); the root cause is MPI Rank 1 in compute_late, '
                        'before MPI_Send at rec-chain.c:%d: balance the work there.' % late_line)
    rank2_ids = {i['id'] for i in on[2]}
    for i in on[3]:
        ok(i['cause'] == 'propagated' and i['peer'] == 2 and i['root_cause_location'] == 1
           and i['cause_instance'] in rank2_ids,
           'rank 3, instance %d: propagated from a wait of rank 2, the root cause is rank 1' % i['id'],
           json.dumps(i, indent=1))
        ok(expected_comment in i['comment'], 'rank 3, instance %d: the comment names the root cause' % i['id'],
           i['comment'])
    others = [i for i in instances if i['pattern'] in ('barrier_completion', 'init_completion')]
    ok(others and all(i['cause'] is None and i['root_cause_location'] is None for i in others),
       'instances of patterns that are no wait states have no cause')

    # the chains
    by_id = {i['id']: i for i in instances}
    for i in on[3] + on[2]:
        chain_run = run(sextant, 'tree', db, '--instance', str(i['id']), '--json')
        ok(chain_run.returncode == 0, 'the chain behind instance %d' % i['id'], chain_run.stderr)
        if chain_run.returncode != 0:
            continue
        chain = json.loads(chain_run.stdout)
        nodes, edges = chain['nodes'], chain['edges']
        locs = [n['location'] for n in nodes]
        want = [3, 2, 1] if i['location'] == 3 else [2, 1]
        ok(chain['kind'] == 'delay_chain' and locs == want and chain['root'] == 1,
           'instance %d: the chain %s' % (i['id'], ' -> '.join(map(str, want))), json.dumps(chain, indent=1))
        if locs != want:
            continue
        root = nodes[-1]
        ok([n['cause'] for n in nodes] == ['waiting'] * (len(want) - 1) + ['root_cause'],
           'instance %d: waiting nodes, then the root cause' % i['id'], json.dumps(nodes, indent=1))
        ok(root['region'] == 'compute_late' and root['file'] is not None
           and os.path.realpath(root['file']) == source and root['line'] == late_line,
           'instance %d: the root cause is rank 1 in compute_late at rec-chain.c:%d' % (i['id'], late_line),
           json.dumps(root, indent=1))
        # each link: the delayer to the delayed, over the waiting instance's interval
        good = len(edges) == len(want) - 1
        for k, edge in enumerate(edges):
            waiting = by_id.get(nodes[k]['instance'])
            good = good and edge['from'] == want[k + 1] and edge['to'] == want[k] and edge['by'] == 'late_sender'
            good = good and waiting is not None and waiting['location'] == want[k]
            good = good and abs(nodes[k]['lateness_seconds'] - waiting['severity_seconds']) < 1e-9
        ok(good, 'instance %d: links from the delayer to the delayed, with the waits' % i['id'],
           json.dumps(chain, indent=1))
        ok(nodes[0]['instance'] == i['id'] and chain['critical_path'] == list(reversed(want)),
           'instance %d: node 0 is the instance, the critical path runs from the root cause' % i['id'])
        if i['location'] == 3:
            ok(nodes[1]['instance'] == i['cause_instance'], 'instance %d: its second link is its cause' % i['id'])
            text = run(sextant, 'tree', db, '--instance', str(i['id']))
            lines = text.stdout.splitlines()
            root_line = [l for l in lines if 'ROOT CAUSE' in l]
            ok(text.returncode == 0 and len(root_line) == 1
               and re.search(r'MPI Rank 1 \(location 1\).* in compute_late at .*rec-chain\.c:%d$' % late_line,
                             root_line[0])
               and sum(1 for l in lines if 'late_sender, instance' in l) == 2,
               'instance %d as text: two links, the root cause marked with its region and line' % i['id'],
               text.stdout + text.stderr)

    # errors
    unknown = run(sextant, 'tree', db, '--instance', '123456789', '--json')
    ok(unknown.returncode == 1 and 'no pattern instance with id 123456789' in unknown.stderr
       and unknown.stdout == '', 'an unknown id: a message and exit status 1', unknown.stderr)
    completion = next(i for i in instances if i['pattern'] == 'barrier_completion')
    no_wait = run(sextant, 'tree', db, '--instance', str(completion['id']), '--json')
    ok(no_wait.returncode == 1 and 'no wait state' in no_wait.stderr and no_wait.stdout == '',
       'an instance that is no wait state: a message and exit status 1', no_wait.stderr)
    bad = run(sextant, 'tree', db, '--instance', 'rank3')
    ok(bad.returncode == 2 and '--instance' in bad.stderr, 'an id that is no number: a usage error', bad.stderr)

    check_matrix(sextant, db)


def check_matrix(sextant, db):
    con = sqlite3.connect(db)
    count, total_bytes = con.execute('SELECT count(*), sum(bytes) FROM message '
                                     'WHERE send_time IS NOT NULL AND recv_time IS NOT NULL').fetchone()
    receive_ticks = con.execute('SELECT sum(leave - enter) FROM visit WHERE id IN (SELECT recv_visit FROM message '
                                'WHERE send_time IS NOT NULL AND recv_time IS NOT NULL)').fetchone()[0]
    origin, resolution = [int(con.execute("SELECT value FROM meta WHERE key = ?", (k,)).fetchone()[0])
                          for k in ('time_begin', 'resolution')]
    # the first round ends with the first barrier that rank 0 leaves
    round_end = con.execute("SELECT min(v.leave) FROM visit v JOIN region r ON r.id = v.region "
                            "WHERE r.name = 'MPI_Barrier' AND v.loc = 0").fetchone()[0]
    con.close()

    out = run(sextant, 'matrix', db, '--json')
    ok(out.returncode == 0, 'sextant matrix --json', out.stderr)
    m = json.loads(out.stdout)
    cells = {(c['from'], c['to']): c for c in m['cells']}
    ok(m['metric'] == 'bytes' and [l['location'] for l in m['locations']] == [1, 2, 3]
       and [l['label'] for l in m['locations']] == ['MPI Rank 1', 'MPI Rank 2', 'MPI Rank 3'],
       'matrix --json: the locations that exchanged messages, labelled', out.stdout[:2000])
    ok(sorted(cells) == [(1, 2), (2, 3)] and all(c['count'] == 2 and c['bytes'] == 8 and c['value'] == 8
                                                 for c in cells.values()),
       'matrix --json: 2 messages of 4 bytes from 1 to 2 and from 2 to 3', json.dumps(m['cells'], indent=1))
    ok(m['messages'] == count and m['bytes'] == total_bytes and m['total'] == total_bytes,
       'matrix --json: the sums are the message table\'s (%d messages, %d bytes)' % (count, total_bytes),
       json.dumps(m, indent=1))
    ok(abs(m['time_seconds'] - receive_ticks / resolution) < 1e-9,
       'matrix --json: the time is the receive calls\' (each once)', '%r %r' % (m['time_seconds'], receive_ticks))

    out = run(sextant, 'matrix', db, '--csv', '--metric', 'count')
    rows = list(csv.reader(io.StringIO(out.stdout)))
    ok(out.returncode == 0 and rows == [['sender\\receiver', '1', '2', '3'], ['1', '0', '2', '0'],
                                        ['2', '0', '0', '2'], ['3', '0', '0', '0']],
       'matrix --csv --metric count: the dense matrix, senders as rows', out.stdout + out.stderr)

    first = run(sextant, 'matrix', db, '--json', '--metric', 'count', '--range',
                '0:%.9f' % ((round_end - origin) / resolution))
    fm = json.loads(first.stdout) if first.returncode == 0 else {}
    ok(fm.get('messages') == 2 and fm.get('begin') == 0 and
       sorted((c['from'], c['to'], c['value']) for c in fm.get('cells', [])) == [(1, 2, 1), (2, 3, 1)],
       'matrix --range: the first round\'s two messages only', first.stdout + first.stderr)

    text = run(sextant, 'matrix', db)
    ok(text.returncode == 0 and re.search(r'Messages:\s+%d' % count, text.stdout)
       and 'MPI Rank 2' in text.stdout, 'matrix: a readable table', text.stdout + text.stderr)
    bad = run(sextant, 'matrix', db, '--metric', 'volume')
    ok(bad.returncode == 2 and '--metric' in bad.stderr, 'matrix --metric volume: a usage error', bad.stderr)
    bad = run(sextant, 'matrix', db, '--range', '3:1')
    ok(bad.returncode == 2, 'matrix --range 3:1: a usage error', bad.stderr)


if __name__ == '__main__':
    sys.exit(main())
