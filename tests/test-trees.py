#!/usr/bin/env python3
# test-trees.py - the trees of collectives `sextant tree` draws, on traces
# whose trees are known.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   test-trees.py [--trees-dir DIR --launcher FILE --mpirun FILE --timeout FILE]
#
# What a user would check, through the command line only (`sextant info
# --collectives --json` for the ids, `sextant tree --collective ID --json`):
#  - synthetic traces (tests/otf2gen): every MPI collective of
#    planted-collectives hangs from the member that released it (the last to
#    arrive, the root of a bcast, the last contributor of a reduce), with
#    the times, waits and lateness its timestamps give, and on Open MPI's
#    binomial trees with --layout binomial; the messages inside the
#    exchange() regions of planted-late-sender form exchanges;
#  - recorded runs (with the MPI options): a barrier that one rank reaches
#    200 ms late has that rank as its root; onecoll's binomial broadcast at
#    p = 2..16, both child orders, every rank relaying for itself, is exactly
#    the binomial tree, each edge done by the parent's Broadcaster (or the
#    root) in the window's order; with a sleeping rank the root's help shows;
#  - what goes wrong: unknown ids, ids of no known form, a tree without data,
#    bad arguments - a message and exit status 1 (2 for usage errors).
# Python 3 standard library only; TAP on stdout.

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

from tap import finish, ok, skip

SEXTANT = os.environ['SEXTANT']
OTF2GEN = os.environ['SEXTANT_OTF2GEN']
MPIRUN_OPTIONS = ['--oversubscribe', '--allow-run-as-root', '--bind-to', 'none',
                  '--mca', 'osc', 'sm', '--mca', 'btl', 'self,vader']
RUN_SECONDS = 90
NS = 1e-9
US = 1e-6


def run(*args, timeout=300):
    proc = subprocess.run([SEXTANT] + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def tree(db, cid, layout=None):
    args = ['tree', db, '--collective', cid, '--json'] + (['--layout', layout] if layout else [])
    rc, out, err = run(*args)
    if rc != 0:
        raise RuntimeError('sextant tree %s --collective %s failed (%d): %s' % (db, cid, rc, err))
    return json.loads(out)


def collectives(db):
    rc, out, err = run('info', db, '--collectives', '--json')
    if rc != 0:
        raise RuntimeError('sextant info --collectives failed (%d): %s' % (rc, err))
    return json.loads(out)['collectives']


def close(a, b, eps=1e-12):
    return a is not None and b is not None and abs(a - b) <= eps


class Tree:
    """A tree's JSON with its nodes by name ("MPI Rank 3")."""

    def __init__(self, data):
        self.data = data
        self.nodes = data['nodes']
        self.by_loc = {n['location']: n for n in self.nodes}
        self.by_name = {n['name']: n for n in self.nodes}
        self.edges = data['edges']

    def name(self, loc):
        return self.by_loc[loc]['name']

    def root_name(self):
        return self.name(self.data['root']) if self.data['root'] is not None else None

    def recorded(self):
        return [e for e in self.edges if not e['model']]

    def pairs(self, model=False):
        return sorted((self.name(e['from']), self.name(e['to'])) for e in self.edges if e['model'] == model)

    def parents(self):
        return {n['name']: (self.name(n['parent']) if n['parent'] is not None else None) for n in self.nodes}

    def path_is_consistent(self):
        """The critical path runs from the root down parents to the node that finished last."""
        path = self.data['critical_path']
        if not path or path[0] != self.data['root']:
            return False
        for a, b in zip(path, path[1:]):
            if self.by_loc[b]['parent'] != a:
                return False
        last = max(n['finish'] for n in self.nodes)
        return close(self.by_loc[path[-1]]['finish'], last)


def rank_name(r):
    return 'MPI Rank %d' % r


def generate(tmp, scenario):
    out = os.path.join(tmp, scenario)
    subprocess.run([OTF2GEN, scenario, out], check=True, stdout=subprocess.DEVNULL, timeout=120)
    db = os.path.join(tmp, scenario + '.sextant.db')
    rc, _, err = run('import', '-q', out, '-o', db, '--force')
    if rc != 0:
        raise RuntimeError('import of %s failed: %s' % (scenario, err))
    return db


# ---- synthetic traces ----------------------------------------------------------

def find(colls, operation, begin):
    """The collective of @operation that began at @begin seconds."""
    found = [c for c in colls if c['operation'] == operation and close(c['begin'], begin, 1e-10)]
    return found[0] if len(found) == 1 else None


def check_planted_collectives(tmp):
    db = generate(tmp, 'planted-collectives')
    colls = collectives(db)
    ok(all(c['kind'] == 'mpi_collective' and c['members'] > 1 for c in colls),
       'planted-collectives: the listing has only MPI collectives of several members (no self communicator)',
       json.dumps(colls, indent=1))

    # C1 barrier: enter 100, 130, 160, 190 (rank 3 last), leave 210, 205, 200, 220 (ns)
    barrier = find(colls, 'BARRIER', 100 * NS)
    ok(barrier is not None, 'planted-collectives: the barrier is listed', json.dumps(colls, indent=1))
    if barrier:
        t = Tree(tree(db, barrier['id']))
        ok(t.data['kind'] == 'mpi_collective' and t.root_name() == rank_name(3),
           'barrier: the last to arrive (rank 3) is the root', json.dumps(t.data, indent=1))
        ok(all(e['from'] == t.data['root'] and e['by'] == 'release' and not e['model'] for e in t.edges)
           and len(t.edges) == 3, 'barrier: an edge from the releaser to each other member')
        waits = {t.name(e['to']): (e['begin'], e['end']) for e in t.edges}
        ok(all(close(waits[rank_name(r)][0], enter * NS) and close(waits[rank_name(r)][1], 190 * NS)
               for r, enter in ((0, 100), (1, 130), (2, 160))),
           'barrier: each wait runs from the member\'s enter to the releaser\'s', repr(waits))
        ok(all(close(t.by_name[rank_name(r)]['lateness_seconds'], late * NS)
               for r, late in ((0, 0), (1, 30), (2, 60), (3, 90))),
           'barrier: lateness is how much later than the first member each arrived',
           repr([(n['name'], n['lateness_seconds']) for n in t.nodes]))
        ok(all(close(t.by_name[rank_name(r)]['arrival'], a * NS) and close(t.by_name[rank_name(r)]['finish'], f * NS)
               for r, a, f in ((0, 100, 210), (1, 130, 205), (2, 160, 200), (3, 190, 220))),
           'barrier: arrival and finish are the call\'s enter and leave')
        ok(t.data['critical_path'] == [t.data['root']], 'barrier: the critical path is the releaser, who left last',
           repr(t.data['critical_path']))

    # C2 allreduce: enter 400, 420, 480 (rank 2 last), 430
    allreduce = find(colls, 'ALLREDUCE', 400 * NS)
    if allreduce:
        t = Tree(tree(db, allreduce['id']))
        ok(t.root_name() == rank_name(2), 'allreduce: the last to arrive (rank 2) is the root', t.root_name())
        ok(t.path_is_consistent(), 'allreduce: the critical path ends at the member that left last',
           repr(t.data['critical_path']))
    else:
        ok(False, 'planted-collectives: the allreduce is listed')

    # C3 bcast from root 2, which arrives last; binomial: Open MPI's bmtree
    bcast = find(colls, 'BCAST', 700 * NS)
    if bcast:
        t = Tree(tree(db, bcast['id']))
        ok(t.root_name() == rank_name(2), 'bcast: its root (rank 2) releases the others', t.root_name())
        waits = {t.name(e['to']): e['end'] for e in t.edges}
        ok(all(close(end, 760 * NS) for end in waits.values()) and len(waits) == 3,
           'bcast: every member waits until the root enters', repr(waits))
        b = Tree(tree(db, bcast['id'], 'binomial'))
        # relative ranks v = (r - 2) mod 4: parent of v clears its highest bit
        expected = sorted([(rank_name(2), rank_name(3)), (rank_name(2), rank_name(0)), (rank_name(3), rank_name(1))])
        ok(b.pairs(model=True) == expected and all(e['by'] == 'model' for e in b.edges if e['model']),
           'bcast --layout binomial: the model edges are Open MPI\'s binomial broadcast tree',
           repr(b.pairs(model=True)))
        ok(b.parents() == {rank_name(2): None, rank_name(3): rank_name(2), rank_name(0): rank_name(2),
                           rank_name(1): rank_name(3)},
           'bcast --layout binomial: the parents follow the model tree', repr(b.parents()))
        ok(b.pairs() == t.pairs(), 'bcast --layout binomial: the recorded edges stay')
    else:
        ok(False, 'planted-collectives: the bcast is listed')

    # C4 reduce to root 0: non-roots enter 1030, 1050 (rank 2 last), 1040
    reduce = find(colls, 'REDUCE', 1000 * NS)
    if reduce:
        t = Tree(tree(db, reduce['id']))
        ok(t.root_name() == rank_name(2), 'reduce: the last contributor (rank 2) releases the root',
           t.root_name())
        b = Tree(tree(db, reduce['id'], 'binomial'))
        expected = sorted([(rank_name(0), rank_name(1)), (rank_name(0), rank_name(2)), (rank_name(2), rank_name(3))])
        ok(b.pairs(model=True) == expected and b.root_name() == rank_name(0),
           'reduce --layout binomial: Open MPI\'s in-order binomial tree from root 0', repr(b.pairs(model=True)))
        ok(b.path_is_consistent(), 'reduce --layout binomial: the critical path follows the model tree',
           repr(b.data['critical_path']))
    else:
        ok(False, 'planted-collectives: the reduce is listed')

    # C5 scan: last to arrive rank 1; C7 non-blocking barrier: rank 3 posts last
    scan = find(colls, 'SCAN', 1300 * NS)
    ok(scan is not None and Tree(tree(db, scan['id'])).root_name() == rank_name(1),
       'scan: the last to arrive (rank 1) is the root')
    ibarrier = find(colls, 'BARRIER', 1700 * NS)
    if ibarrier:
        t = Tree(tree(db, ibarrier['id']))
        ok(t.root_name() == rank_name(3), 'non-blocking barrier: the last to post (rank 3) is the root')
        ok(all(close(t.by_name[rank_name(r)]['finish'], f * NS) for r, f in ((0, 1790), (1, 1785), (2, 1775))),
           'non-blocking barrier: a member finishes when its MPI_Wait returns')
    else:
        ok(False, 'planted-collectives: the non-blocking barrier is listed')

    rc, out, _ = run('tree', db, '--collective', barrier['id'] if barrier else '1')
    ok(rc == 0 and 'MPI Rank 3' in out and 'release' in out and '*' in out,
       'sextant tree (text): the releaser, the releases and the critical path', out)
    return db


def check_exchanges(tmp):
    db = generate(tmp, 'planted-late-sender')
    colls = [c for c in collectives(db) if c['kind'] == 'p2p_exchange']
    ok([c['operation'] for c in colls] == ['exchange', 'exchange'],
       'planted-late-sender: its two exchange() visits are listed as exchanges', json.dumps(colls, indent=1))
    if len(colls) != 2:
        return
    # (a) rank 0 sends 1024 B at [160, 165], rank 1 receives it at 168; both in exchange [100, 180] (us)
    t = Tree(tree(db, colls[0]['id']))
    edge = t.edges[0] if len(t.edges) == 1 else {}
    ok(t.data['kind'] == 'p2p_exchange' and t.root_name() == rank_name(0) and len(t.edges) == 1
       and edge.get('bytes') == 1024 and edge.get('by') == 'sender'
       and close(edge.get('begin'), 160 * US, 1e-9) and close(edge.get('end'), 168 * US, 1e-9),
       'exchange (a): one edge from the sender, send call to receive completion', json.dumps(t.data, indent=1))
    r1 = t.by_name.get(rank_name(1), {})
    ok(close(r1.get('arrival'), 168 * US, 1e-9) and close(r1.get('finish'), 180 * US, 1e-9)
       and close(r1.get('lateness_seconds'), 60 * US, 1e-9),
       'exchange (a): the receiver arrives at the completion, 60 us later than the root could have sent', repr(r1))
    ok(close(t.by_name[rank_name(0)]['arrival'], 100 * US, 1e-9), 'exchange (a): the root arrives at its visit\'s enter')
    t = Tree(tree(db, colls[1]['id']))
    ok(len(t.edges) == 1 and t.edges[0]['bytes'] == 8 and close(t.edges[0]['end'], 385 * US, 1e-9),
       'exchange (b): the second visit holds the second message', json.dumps(t.data, indent=1))


def check_errors(tmp, db):
    missing = os.path.join(tmp, 'nothing-here.sextant.db')
    for args, status, words, name in (
            (['tree', db, '--collective', '99999'], 1, ['99999', '--collectives'], 'an unknown MPI collective'),
            (['tree', db, '--collective', 'bogus'], 1, ['bogus', '--collectives'], 'an id of no known form'),
            (['tree', db, '--collective', 'onecoll:65536:1'], 1, ['onecoll:65536:1'],
             'a onecoll broadcast in a trace without onecoll'),
            (['tree', db, '--collective', 'exchange:12345:1'], 1, ['exchange:12345:1'], 'an exchange of no region'),
            (['tree', missing, '--collective', '1'], 1, ['nothing-here'], 'a store that does not exist'),
            (['tree', db], 2, ['--collective'], 'neither --collective nor --instance'),
            (['tree', db, '--collective', '1', '--instance', '1'], 2, ['--instance'], 'both --collective and --instance'),
            (['tree', db, '--collective', '1', '--layout', 'ring'], 2, ['layout'], 'an unknown --layout'),
            (['tree', '--collective', '1'], 2, ['DB'], 'no DB'),
            (['tree', db, '--instance', '1'], 1, [], '--instance on a store without an analysis'),
    ):
        rc, out, err = run(*args)
        ok(rc == status and out == '' and err.startswith('sextant:') and all(w in err for w in words),
           'sextant tree, %s: exit %d with a message' % (name, status), 'exit %d\n%s%s' % (rc, out, err))

    # a region that exists and is visited, but holds no message: no data
    with sqlite3.connect(db) as con:
        solve = con.execute("SELECT id FROM region WHERE name = 'solve'").fetchone()
    rc, out, err = run('tree', db, '--collective', 'exchange:%d:1' % solve[0])
    ok(rc == 1 and out == '' and 'no message' in err, 'sextant tree: an exchange without messages is no tree',
       'exit %d\n%s%s' % (rc, out, err))


# ---- recorded runs ---------------------------------------------------------------

class Mpi:
    def __init__(self, options, tmp):
        self.dir = options.trees_dir
        self.launcher = options.launcher
        self.mpirun = options.mpirun
        self.timeout = options.timeout
        self.tmp = tmp

    def record(self, name, np, program, args=(), linked=True):
        out = os.path.join(self.tmp, name)
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1')
        mpirun = [self.mpirun] + MPIRUN_OPTIONS + ['-np', str(np)]
        exe = [os.path.join(self.dir, program)] + list(args)
        if linked:
            env['SEXTANT_RECORD_DIR'] = out
            cmd = [self.timeout, '--kill-after=10', str(RUN_SECONDS)] + mpirun + ['-x', 'SEXTANT_RECORD_DIR'] + exe
        else:
            cmd = [self.timeout, '--kill-after=10', str(RUN_SECONDS), self.launcher, '-o', out] + mpirun + exe
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=RUN_SECONDS + 30)
        if proc.returncode != 0:
            raise RuntimeError('%s on %d ranks exited with %d: %s' % (program, np, proc.returncode, proc.stderr[-2000:]))
        db = out + '.sextant.db'
        rc, _, err = run('import', '-q', out, '-o', db, '--force')
        if rc != 0:
            raise RuntimeError('import failed: %s' % err)
        return db


def check_late_barrier(mpi):
    np, late = 4, 1
    db = mpi.record('late-barrier', np, 'rec-late-barrier', [str(late)], linked=False)
    barriers = [c for c in collectives(db) if c['operation'] == 'BARRIER']
    ok(len(barriers) == 2, 'recorded late barrier: both barriers are listed', repr(barriers))
    if not barriers:
        return
    late_one = max(barriers, key=lambda c: c['end'] - c['begin'])
    t = Tree(tree(db, late_one['id']))
    ok(t.root_name() == rank_name(late), 'recorded late barrier: the late rank (%d) is the root' % late,
       json.dumps(t.data, indent=1))
    ok(max(t.nodes, key=lambda n: n['lateness_seconds'])['name'] == rank_name(late)
       and max(n['lateness_seconds'] for n in t.nodes) >= 0.15,
       'recorded late barrier: the late rank has the largest lateness, about its 200 ms',
       repr([(n['name'], n['lateness_seconds']) for n in t.nodes]))
    ok(len(t.edges) == np - 1 and all(e['from'] == t.data['root'] and e['end'] - e['begin'] >= 0.15
                                      for e in t.edges),
       'recorded late barrier: every other rank waited for it', json.dumps(t.edges, indent=1))


def binomial_edges(p, root):
    """(parent rank, child rank) of onecoll's binomial tree: children of
    relative rank v are v + 2^k for every 2^k below v's lowest set bit."""
    edges = []
    for v in range(1, p):
        parent = v & (v - 1)
        edges.append(((parent + root) % p, (v + root) % p))
    return sorted(edges)


def children_in_order(p, root, node, largest_first):
    v = (node - root) % p
    limit = v & -v if v else 1 << (p - 1).bit_length()
    kids = [v + m for m in (1 << k for k in range(limit.bit_length())) if m < limit and v + m < p]
    if largest_first:
        kids.reverse()
    return [(k + root) % p for k in kids]


def check_onecoll_tree(p, root, bcast, largest_first, count):
    where = 'p=%d root %d %s' % (p, root, 'largest first' if largest_first else 'smallest first')
    t = Tree(tree(bcast['db'], bcast['id']))
    names = sorted(n['name'] for n in t.nodes)
    ok(t.data['kind'] == 'onecoll_bcast' and names == sorted(rank_name(r) for r in range(p))
       and t.root_name() == rank_name(root), 'onecoll %s: one node per rank, the root at its root' % where,
       json.dumps(t.data, indent=1))
    rank = {n['location']: int(n['name'].split()[-1]) for n in t.nodes}
    pairs = sorted((rank[e['from']], rank[e['to']]) for e in t.edges)
    ok(pairs == binomial_edges(p, root), 'onecoll %s: exactly the binomial tree\'s edges' % where,
       'got %s\nexpected %s' % (pairs, binomial_edges(p, root)))
    bad = [e for e in t.edges
           if e['by'] != ('root' if rank[e['from']] == root else 'broadcaster')
           or (e['by'] == 'broadcaster' and e['by_location'] == e['from'])]
    ok(not bad, 'onecoll %s: the root puts to its children, every other rank\'s Broadcaster to its own' % where,
       json.dumps(bad, indent=1))
    ok(all(e['bytes'] is not None and e['bytes'] >= count for e in t.edges),
       'onecoll %s: every edge carries the %d bytes' % (where, count), repr([e['bytes'] for e in t.edges]))
    out_of_order = []
    for node in range(p):
        sent = sorted((e for e in t.edges if rank[e['from']] == node), key=lambda e: (e['begin'], e['end']))
        got = [rank[e['to']] for e in sent]
        if sorted(got) == sorted(children_in_order(p, root, node, largest_first)) and \
           got != children_in_order(p, root, node, largest_first):
            out_of_order.append((node, got, children_in_order(p, root, node, largest_first)))
    ok(not out_of_order, 'onecoll %s: each rank served its children in the window\'s order' % where,
       repr(out_of_order))
    into = {e['to']: e for e in t.edges}
    ok(all(n['location'] == t.data['root'] or (close(n['arrival'], into[n['location']]['end'])
                                               and n['parent'] == into[n['location']]['from'])
           for n in t.nodes),
       'onecoll %s: a rank\'s data arrived at the end of the delivery from its parent' % where)
    ok(t.path_is_consistent() and all(n['lateness_seconds'] >= 0 for n in t.nodes),
       'onecoll %s: the critical path runs down to the last rank to finish' % where, repr(t.data['critical_path']))


def check_onecoll(mpi, sizes, help_sizes):
    start = time.monotonic()
    for p in sizes:
        args = ['--help-pass'] if p in help_sizes else []
        try:
            db = mpi.record('onecoll-p%d' % p, p, 'rec-onecoll-tree', args)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            ok(False, 'onecoll p=%d: recorded' % p, str(e))
            continue
        bcasts = [dict(c, db=db) for c in collectives(db) if c['kind'] == 'onecoll_bcast']
        wins = sorted({int(c['id'].split(':')[1]) for c in bcasts})
        expected_wins = 3 if p in help_sizes and p >= 4 else 2
        ok(len(wins) == expected_wins and len(bcasts) == 2 * 2 + (expected_wins - 2),
           'onecoll p=%d: every broadcast is listed' % p, repr([c['id'] for c in bcasts]))
        if len(wins) < 2:
            continue
        by_id = {c['id']: c for c in bcasts}
        # the small window (smallest first) was created first, then the large one
        for win, largest_first, count in ((wins[0], False, 64), (wins[1], True, 8192)):
            for seq, root in ((1, 0), (2, p - 1)):
                bcast = by_id.get('onecoll:%d:%d' % (win, seq))
                if bcast is None:
                    ok(False, 'onecoll p=%d: broadcast %d on window %d is listed' % (p, seq, win))
                    continue
                check_onecoll_tree(p, root, bcast, largest_first, count)
        if len(wins) == 3:
            t = Tree(tree(db, 'onecoll:%d:1' % wins[2]))
            rank = {n['location']: int(n['name'].split()[-1]) for n in t.nodes}
            helped = [e for e in t.edges if e['by'] == 'root help']
            ok(any(rank[e['from']] == 0 and rank[e['to']] == 3 and e['by_location'] == t.data['root']
                   for e in helped),
               'onecoll p=%d: with rank 2 asleep, the root\'s help delivered to its child, rank 3' % p,
               json.dumps(t.data, indent=1))
            ok('help' in t.data['title'], 'onecoll p=%d: the title says the root helped' % p, t.data['title'])
    print('# onecoll recordings took %.1f s' % (time.monotonic() - start))


# The phases onecoll's allreduce algorithms go through (onecoll-trace.h)
ALLREDUCE_PHASES = {
    'rhrd': {'onecoll_red_halving', 'onecoll_red_doubling'},
    'prior-art': {'onecoll_red_prepare', 'onecoll_red_halving', 'onecoll_red_doubling', 'onecoll_red_distribute'},
    's0s1': {'onecoll_red_prepare', 'onecoll_red_halving', 'onecoll_red_doubling', 'onecoll_red_distribute'},
}


def check_allreduce(mpi):
    """One onecoll allreduce of 100003 doubles: an exchange (every rank
    sends its own data first), every rank a node, every message of the run
    an edge in one of the algorithm's phases, the critical path a chain of
    messages ending at the rank that finished last."""
    for p, algo in ((8, 'rhrd'), (6, 'prior-art'), (5, 's0s1'), (6, 's0s1')):
        where = 'allreduce %s, p=%d' % (algo, p)
        try:
            db = mpi.record('allreduce-%s-p%d' % (algo, p), p, 'rec-allreduce-tree', [algo, '100003'])
        except RuntimeError as e:
            ok(False, where + ': recorded', str(e))
            continue
        colls = collectives(db)
        exchanges = [c for c in colls if c['kind'] == 'p2p_exchange']
        ok(len(exchanges) == 1 and exchanges[0]['operation'] == 'onecoll_allreduce'
           and exchanges[0]['members'] == p and not [c for c in colls if c['kind'] == 'onecoll_bcast'],
           where + ': listed once, as an exchange of its p ranks (and no onecoll broadcast)',
           json.dumps(colls, indent=1))
        if len(exchanges) != 1:
            continue
        t = Tree(tree(db, exchanges[0]['id']))
        rc, out, _ = run('info', db, '--json')
        messages = json.loads(out)['events'].get('MPI_SEND', -1) if rc == 0 else -1
        ok(t.data.get('shape') == 'exchange' and sorted(t.by_name) == sorted(rank_name(r) for r in range(p))
           and all(n['parent'] is None for n in t.nodes),
           where + ': drawn as an exchange, a node per rank, no parents', json.dumps(t.data, indent=1))
        phases = {e['by'] for e in t.edges}
        ok(len(t.edges) == messages and phases == ALLREDUCE_PHASES[algo],
           where + ': every message of the run an edge, in the phases %s' % sorted(ALLREDUCE_PHASES[algo]),
           '%d edges, %d sends; phases %s' % (len(t.edges), messages, sorted(phases)))
        path = sorted((e for e in t.edges if e['critical']), key=lambda e: e['begin'])
        last = max(t.nodes, key=lambda n: n['finish'])
        chained = all(a['to'] == b['from'] and a['end'] <= b['begin'] for a, b in zip(path, path[1:]))
        ok(path and chained and path[-1]['to'] == last['location']
           and t.data['critical_path'] == [path[0]['from']] + [e['to'] for e in path],
           where + ': the critical path is a chain of messages to the rank that finished last (%s)' % last['name'],
           json.dumps(path, indent=1))
        rc, out, _ = run('tree', db, '--collective', exchanges[0]['id'])
        ok(rc == 0 and 'Messages, by the begin of their send' in out and 'onecoll_red_halving' in out,
           where + ': the text lists the messages with their phases', out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--trees-dir')
    parser.add_argument('--launcher')
    parser.add_argument('--mpirun')
    parser.add_argument('--timeout')
    options = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix='sextant-test-trees-')
    try:
        db = check_planted_collectives(tmp)
        check_exchanges(tmp)
        check_errors(tmp, db)
        if options.trees_dir and options.mpirun and options.timeout and options.launcher and \
           os.path.exists(os.path.join(options.trees_dir, 'rec-onecoll-tree')):
            mpi = Mpi(options, tmp)
            check_late_barrier(mpi)
            check_allreduce(mpi)
            check_onecoll(mpi, range(2, 17), (4, 8, 16))
        else:
            skip('recorded trees', 'built without MPI or the recorder')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish()


if __name__ == '__main__':
    sys.exit(main())
