#!/usr/bin/env python3
# test-sim-cli.py - `sextant sim torus` as a user runs it.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
#  - the broadcast ratios it prints (--json) for 2x2x2, 16x16x32 and
#    8x8x8x16 within 15 % of the paper's 2.39, 6.97 and 6.18, the text
#    output the same figures;
#  - bad dimensions, sizes, roots, operations and trees: a message naming
#    the problem on stderr and exit status 2; a trace directory that holds
#    an archive already: status 1;
#  - --trace: the archive otf2-print reads, imported by `sextant import`
#    with exactly the counts otf2-print gives and the model promised
#    (locations, events per kind, messages all matched, one collective),
#    for a broadcast, an all-reduce with transit nodes and an all-gather;
#  - each location's torus coordinates (location property torus_coords,
#    torus_dims on the machine) imported exactly as the model numbers its
#    nodes, and `sextant tree --json` giving them per node; coordinates
#    that are not numbers, or not as many as the others': exit 1 naming
#    the location and the value.
#  - `sextant sim replay`: the broadcast's trace imported and replayed on
#    the same torus, its collective taking the model's hardware and
#    point-to-point times, every message and call replayed, --map spread
#    placing the ranks, --trace writing the predicted run as an archive
#    that imports with every message matched; bad input: exit 2 or 1 with
#    a message naming it.
# Python 3 standard library only; TAP on stdout.

import collections
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

from tap import finish, ok, skip

SEXTANT = os.environ['SEXTANT']
PAPER = {'2x2x2': 2.39, '16x16x32': 6.97, '8x8x8x16': 6.18}


def run(*args, timeout=300):
    proc = subprocess.run([SEXTANT] + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def sim_json(*args):
    rc, out, err = run('sim', 'torus', '--json', *args)
    if rc != 0:
        raise RuntimeError('sextant sim torus %s failed (%d): %s' % (' '.join(args), rc, err))
    return json.loads(out)


def otf2_counts(anchor):
    """Records per kind and per location, from otf2-print."""
    out = subprocess.run(['otf2-print', anchor], stdout=subprocess.PIPE, universal_newlines=True,
                         check=True, timeout=300).stdout
    kinds = collections.Counter()
    per_location = collections.Counter()
    started = False
    for line in out.splitlines():
        if line.startswith('----'):
            started = True
            continue
        fields = line.split()
        if not started or len(fields) < 3 or not fields[1].isdigit():
            continue
        kinds[fields[0]] += 1
        per_location[int(fields[1])] += 1
    return kinds, per_location


def check_ratios():
    for dims, paper in PAPER.items():
        j = sim_json('--dims', dims, '--op', 'bcast', '--bytes', '256')
        ok(abs(j['ratio'] / paper - 1) <= 0.15,
           'broadcast %s: ratio %.2f within 15 %% of the paper\'s %.2f' % (dims, j['ratio'], paper), json.dumps(j))
        ok(abs(j['ratio'] - j['p2p_ns'] / j['hw_ns']) < 1e-9, 'broadcast %s: ratio is p2p / hw' % dims)
    rc, out, err = run('sim', 'torus', '--dims', '16x16x32')
    ok(rc == 0 and 'hardware tree' in out and 'point-to-point' in out and '7.02 x' in out,
       'the text output shows both times and the ratio', out + err)


def check_errors(tmp):
    cases = [
        (['--dims', '16'], 'dimensions'),
        (['--dims', '2x2x2x2x2'], 'dimensions'),
        (['--dims', '1x8'], 'size 1'),
        (['--dims', '4xfour'], 'not a size'),
        (['--dims', '4x4', '--root', '16'], 'root 16'),
        (['--dims', '4x4', '--root', '-1'], '--root'),
        (['--dims', '4x4', '--bytes', '0'], '--bytes'),
        (['--dims', '4x4', '--bytes', '2000000'], 'message size'),
        (['--dims', '4x4', '--op', 'scatter'], '--op'),
        (['--dims', '4x4', '--trees', '17'], 'trees'),
        (['--dims', '3x3', '--op', 'allgather'], 'power-of-two'),
        (['--dims', '4x4', '--transit', '0'], 'root'),
        (['--dims', '4x4', '--transit', 'x'], '--transit'),
        (['--dims', '4x4', '--router-clock', '0'], 'router clock'),
        ([], '--dims'),
    ]
    for args, word in cases:
        rc, out, err = run('sim', 'torus', *args)
        ok(rc == 2 and word in err and out == '',
           'sim torus %s: exit 2 and a message naming %s' % (' '.join(args), word), 'rc %d\n%s' % (rc, err))
    rc, out, err = run('sim', 'cube', '--dims', '4x4')
    ok(rc == 2 and 'torus' in err, 'sim cube: exit 2, the model is torus', err)
    trace = os.path.join(tmp, 'twice')
    first = run('sim', 'torus', '--dims', '4x4', '--trace', trace)
    rc, out, err = run('sim', 'torus', '--dims', '4x4', '--trace', trace)
    ok(first[0] == 0 and rc == 1 and 'already holds an archive' in err,
       'a trace directory holding an archive: exit 1', err)


def node_coords(node, sizes):
    """The model's coordinates of a node id: X fastest."""
    coords = []
    for size in sizes:
        coords.append(node % size)
        node //= size
    return coords


def check_coords(db, name, dims):
    sizes = [int(s) for s in dims.split('x')]
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT l.otf2_id, p.value FROM location_property AS p "
                           "JOIN location AS l ON l.otf2_id = p.loc WHERE p.name = 'torus_coords'").fetchall()
        machine = con.execute("SELECT value FROM system_tree_node_property WHERE name = 'torus_dims'").fetchall()
    n = 1
    for size in sizes:
        n *= size
    want = {v: ','.join(str(c) for c in node_coords(v, sizes)) for v in range(n)}
    ok(dict(rows) == want, '%s: every location\'s torus_coords imported exactly' % name,
       '%s vs %s' % (sorted(rows)[:4], sorted(want.items())[:4]))
    ok(machine == [(dims,)], '%s: the machine\'s torus_dims is %s' % (name, dims), str(machine))
    rc, out, err = run('tree', db, '--collective', first_collective(db), '--json')
    tree = json.loads(out) if rc == 0 else {}
    placed = {node['otf2_location']: node.get('torus_coords') for node in tree.get('nodes', [])}
    ok(tree.get('torus_dims') == sizes and placed and
       all(coords == node_coords(v, sizes) for v, coords in placed.items()),
       '%s: sextant tree --json places each node where the model has it' % name, err or str(placed)[:300])


def first_collective(db):
    """the id of @db's first MPI collective (ids come from the instance's
    communicator and number, docs/schema.md)"""
    with sqlite3.connect(db) as con:
        return str(con.execute("SELECT min (id) FROM collective").fetchone()[0])


def check_bad_coords(tmp, db):
    for value, says in (('1,x,0', '"1,x,0" is not 2 to 4 numbers'), ('1,1', '"1,1" has 2 coordinates, location 0 had 3'),
                        ('9,0,0', 'outside the size 4')):
        bad = os.path.join(tmp, 'bad-coords.sextant.db')
        shutil.copy(db, bad)
        with sqlite3.connect(bad) as con:
            con.execute("UPDATE location_property SET value = ? WHERE name = 'torus_coords' AND loc = 5", (value,))
        rc, out, err = run('tree', bad, '--collective', first_collective(bad))
        ok(rc == 1 and says in err and 'location 5' in err,
           'torus_coords %s: exit 1 naming the location and the value' % value, '%d %s' % (rc, err))
        os.unlink(bad)


def check_trace(tmp, name, args, members, messages):
    trace = os.path.join(tmp, name)
    j = sim_json(*args, '--trace', trace)
    anchor = os.path.join(trace, 'traces.otf2')
    db = os.path.join(tmp, name + '.sextant.db')
    kinds, per_location = otf2_counts(anchor)
    t = j['trace']
    ok(t['locations'] == j['nodes'] == len(per_location), '%s: a location per node' % name, json.dumps(t))
    ok(t['events'] == sum(kinds.values()), '%s: otf2-print reads every event the model wrote' % name,
       '%s vs %s' % (t['events'], kinds))
    ok(t['messages'] == messages == kinds['MPI_SEND'] == kinds['MPI_RECV'],
       '%s: %d messages along the tree edges' % (name, messages), '%s %s' % (t, kinds))
    ok(t['collective_calls'] == members == kinds['MPI_COLLECTIVE_BEGIN'] == kinds['MPI_COLLECTIVE_END'],
       '%s: one collective call per taking-part node' % name, str(kinds))

    rc, out, err = run('import', anchor, '-o', db)
    ok(rc == 0, '%s: sextant import reads the archive' % name, err)
    if rc != 0:
        return
    rc, out, err = run('info', db, '--json')
    info = json.loads(out) if rc == 0 else {}
    ok(info.get('total_events') == sum(kinds.values()) and info.get('events') == dict(kinds),
       '%s: sextant info counts exactly what otf2-print reads' % name,
       '%s\n%s' % (info.get('events'), dict(kinds)))
    located = {loc['id']: loc['total_events'] for loc in info.get('locations', [])}
    ok(located == dict(per_location), '%s: events per location as otf2-print' % name)
    rc, out, err = run('info', db)
    ok(('Messages:     %d matched, 0 unmatched' % messages) in out and 'Collectives:  1' in out,
       '%s: every message matched, one collective' % name, out)
    check_coords(db, name, args[args.index('--dims') + 1])
    return db


def check_replay(tmp):
    trace = os.path.join(tmp, 'recorded')
    db = os.path.join(tmp, 'recorded.sextant.db')
    run('sim', 'torus', '--dims', '2x2x2', '--op', 'bcast', '--trace', trace)
    rc, out, err = run('import', os.path.join(trace, 'traces.otf2'), '-o', db)
    ok(rc == 0, 'replay: the broadcast\'s trace imports', err)
    rc, out, err = run('sim', 'replay', db, '--dims', '2x2x2', '--json')
    j = json.loads(out) if rc == 0 else {}
    # the trace: 8 ranks, each an MPI_Bcast; 7 messages, an MPI_Send and an MPI_Recv each
    ok(rc == 0 and j['ranks'] == 8 and j['messages'] == 7 and j['calls'] == 8 + 14 and j['collectives'] == 1
       and j['modelled_collectives'] == 1, 'replay: every rank, call, message and the collective read', out + err)
    # 2x2x2's closed forms (docs/sim.md): 300 + 3 x 82 + 32 + 300 ns and 3 x 714 ns
    ok(j.get('hardware_collectives_us') == 0.878 and j.get('point_to_point_collectives_us') == 2.142,
       'replay: the broadcast takes the model\'s 0.878 us on the tree, 2.142 us point-to-point', out)
    ok(j.get('hardware_us', 0) < j.get('point_to_point_us', 0) and
       abs(j['ratio'] - j['point_to_point_us'] / j['hardware_us']) < 1e-9,
       'replay: the point-to-point run is the longer, the ratio theirs', out)
    # a slower link: 3 hops of 20 ns more on the tree, and on each of the 3 point-to-point hops
    rc, out, err = run('sim', 'replay', db, '--dims', '2x2x2', '--link-latency', '100', '--json')
    slow = json.loads(out) if rc == 0 else {}
    ok(slow.get('hardware_collectives_us') == 0.938 and slow.get('point_to_point_collectives_us') == 2.202,
       'replay --link-latency 100: the collective 60 ns longer both ways', out + err)
    rc, out, err = run('sim', 'replay', db, '--dims', '2x2x2')
    ok(rc == 0 and 'hardware trees' in out and 'point-to-point trees' in out and '%.2f x' % j['ratio'] in out,
       'replay: the text output shows both runs and the ratio', out + err)

    predicted = os.path.join(tmp, 'predicted')
    rc, out, err = run('sim', 'replay', db, '--dims', '4x4', '--map', 'spread', '--trace', predicted)
    ok(rc == 0, 'replay: --map spread on 4x4 with --trace', err)
    pdb = os.path.join(tmp, 'predicted.sextant.db')
    rc, out, err = run('import', os.path.join(predicted, 'traces.otf2'), '-o', pdb)
    ok(rc == 0, 'replay: the predicted run\'s archive imports', err)
    rc, out, err = run('info', pdb)
    ok('Messages:     7 matched, 0 unmatched' in out and 'Collectives:  1' in out and
       'rank 3 on node 6 (2,1)' in out and 'Locations:    8' in out,
       'replay: the predicted run has every message matched, the collective, rank 3 on node 6', out + err)

    cases = [
        ([db], 2, '--dims'),
        ([db, '--dims', '2x2'], 2, '8 ranks'),
        ([db, '--dims', '2x2x2', '--map', 'zigzag'], 2, '--map'),
        ([db, '--dims', '2x2x0'], 2, 'size'),
        ([db, '--dims', '2x2x2', '--router-clock', '0'], 2, 'router clock'),
        ([os.path.join(tmp, 'none.sextant.db'), '--dims', '2x2x2'], 1, 'none.sextant.db'),
        ([db, '--dims', '2x2x2', '--trace', predicted], 1, 'already holds an archive'),
    ]
    for args, status, word in cases:
        rc, out, err = run('sim', 'replay', *args)
        ok(rc == status and word in err and out == '',
           'sim replay %s: exit %d and a message naming %s' % (' '.join(args[1:]), status, word),
           'rc %d\n%s' % (rc, err))


def check_flow():
    """--model flow: the all-gather as flows, said in --json; other
    operations and --trace refused with exit 2."""
    packet = sim_json('--dims', '8x8x8', '--op', 'allgather')
    flow = sim_json('--dims', '8x8x8', '--op', 'allgather', '--model', 'flow')
    ok(packet['model'] == 'packet' and flow['model'] == 'flow' and flow['flow_iterations'] > 0
       and flow['events'] == 0 and packet['events'] > 0, '--json names the model', json.dumps(flow))
    ok(all(abs(flow[k] / packet[k] - 1) <= 0.02 for k in ('hw_ns', 'p2p_ns', 'ratio')),
       'all-gather on 8x8x8: the flow model within 2 %% of the packet model (%.3f / %.3f, %.3f / %.3f us)'
       % (flow['hw_ns'] / 1e3, packet['hw_ns'] / 1e3, flow['p2p_ns'] / 1e3, packet['p2p_ns'] / 1e3))
    rc, out, err = run('sim', 'torus', '--dims', '8x8x8', '--op', 'allgather', '--model', 'flow')
    ok(rc == 0 and 'flow model' in out and 'progressive-filling' in out, 'the text output names the flow model', out)
    for args, word in [(['--op', 'bcast'], 'all-gather only'),
                       (['--op', 'allgather', '--trace', '/nonexistent/t'], '--trace needs --model packet'),
                       (['--op', 'allgather', '--model', 'fluid'], '--model must be')]:
        if '--model' not in args:
            args = args + ['--model', 'flow']
        rc, out, err = run('sim', 'torus', '--dims', '4x4', *args)
        ok(rc == 2 and word in err and out == '', 'sim torus %s: exit 2 naming %s' % (' '.join(args), word),
           'rc %d\n%s' % (rc, err))


def main():
    check_ratios()
    check_flow()
    with tempfile.TemporaryDirectory(prefix='sextant-test-sim-') as tmp:
        check_errors(tmp)
        if shutil.which('otf2-print') is None:
            skip('the traces', 'no otf2-print')
        else:
            # a broadcast: one message per non-root node
            db = check_trace(tmp, 'bcast', ['--dims', '4x4x4', '--op', 'bcast'], 64, 63)
            if db is not None:
                check_bad_coords(tmp, db)
            # an all-reduce with 3 transit nodes: up and down per taking-part non-root node
            check_trace(tmp, 'allreduce', ['--dims', '4x4x4', '--op', 'allreduce', '--root', '21',
                                           '--transit', '1,2,5'], 61, 120)
            # an all-gather on 4 trees: recursive doubling, n log n messages
            check_trace(tmp, 'allgather', ['--dims', '4x4x2', '--op', 'allgather', '--trees', '4'], 32, 32 * 5)
            # a 4-dimensional torus
            check_trace(tmp, 'allreduce-4d', ['--dims', '2x2x2x2', '--op', 'allreduce'], 16, 30)
        check_replay(tmp)
    return finish()


if __name__ == '__main__':
    sys.exit(main())
