#!/usr/bin/env python3
# measure-overhead.py - what recording costs, per MPI call and per broadcast.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   measure-overhead.py --builddir DIR --launcher FILE --mpirun FILE [--quick]
#
# Runs rec-overhead (iprobe, send, pingpong kernels) without the recorder,
# preloaded with SEXTANT_RECORD=0 (the wrappers only), and recorded with
# call paths of 8 frames and of the call site only; and rec-bench-onecoll
# plain and linked with the recorder (recording, and with SEXTANT_RECORD=0).
# Each program reports the best of its many short repetitions; this script
# runs the configurations interleaved, REPEAT times, and prints each one's
# median as a Markdown table (docs/recorder.md). Registered as a meson benchmark:
#   meson test -C build --benchmark --suite recorder
# Python 3 standard library only.

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

MPIRUN_OPTIONS = ['--oversubscribe', '--allow-run-as-root', '--bind-to', 'none',
                  '--mca', 'osc', 'sm', '--mca', 'btl', 'self,vader']


def run(args, cmd, env=None, record_dir=None, preload=False):
    full_env = dict(os.environ)
    full_env.update(env or {})
    if preload:
        cmd = [args.launcher, '-o', record_dir] + cmd
    elif record_dir is not None:
        full_env['SEXTANT_RECORD_DIR'] = record_dir
    proc = subprocess.run(['timeout', '300'] + cmd, env=full_env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        raise SystemExit('%s failed with %d' % (' '.join(cmd), proc.returncode))
    value = None
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2:
            value = float(parts[1])
    if value is None:
        raise SystemExit('no result from %s' % ' '.join(cmd))
    return value


def medians(args, tmp, label, variants):
    """Median value of each (make_cmd, env, preload) variant. The variants
    run interleaved - one of each, REPEAT times - so that the other jobs on
    the machine weigh on all of them alike."""
    values = [[] for _ in variants]
    for i in range(args.repeat):
        for k, (make_cmd, env, preload) in enumerate(variants):
            record_dir = os.path.join(tmp, '%s-%d-%d' % (label, k, i))
            values[k].append(run(args, make_cmd(), env=env, record_dir=record_dir, preload=preload))
    return [statistics.median(v) for v in values]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--builddir', required=True)
    parser.add_argument('--launcher', required=True)
    parser.add_argument('--mpirun', required=True)
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--quick', action='store_true', help='fewer iterations')
    args = parser.parse_args()
    os.environ.setdefault('OMPI_ALLOW_RUN_AS_ROOT', '1')
    os.environ.setdefault('OMPI_ALLOW_RUN_AS_ROOT_CONFIRM', '1')

    scale = 10 if args.quick else 1
    overhead = os.path.join(args.builddir, 'rec-overhead')
    # (kernel, ranks, operations per run, runs): many short runs, of which
    # the programs keep the best, to see past the other jobs on the cores
    kernels = [('iprobe', 1, 10000 // scale, 40, 'ns per MPI_Iprobe, 1 rank'),
               ('send', 2, 1000 // scale, 200, 'ns per MPI_Send of 0 bytes, 2 ranks'),
               ('pingpong', 2, 200 // scale, 200, 'ns per round trip of 0 bytes (4 calls), 2 ranks')]
    configs = [('not recorded', {}, False),
               ('preloaded, SEXTANT_RECORD=0', {'SEXTANT_RECORD': '0'}, True),
               ('recorded, call site only', {'SEXTANT_RECORD_CALLPATH': '0'}, True),
               ('recorded, 8-frame call paths', {'SEXTANT_RECORD_CALLPATH': '8'}, True)]

    print('| kernel | ' + ' | '.join(c[0] for c in configs) + ' |')
    print('|---|' + '---:|' * len(configs))
    with tempfile.TemporaryDirectory(prefix='sextant-overhead-') as tmp:
        for name, np, n, runs, label in kernels:
            def make_cmd(name=name, np=np, n=n, runs=runs):
                return ([args.mpirun] + MPIRUN_OPTIONS +
                        ['-np', str(np), overhead, name, str(n), str(runs)])
            values = medians(args, tmp, name, [(make_cmd, env, preload) for _, env, preload in configs])
            row = ['%.0f' % values[0]] + ['%.0f (%+.0f)' % (v, v - values[0]) for v in values[1:]]
            print('| %s | %s |' % (label, ' | '.join(row)))

        plain = os.path.join(args.builddir, 'rec-bench-onecoll')
        recorded = os.path.join(args.builddir, 'rec-bench-onecoll-recorded')
        n, runs = 200 // scale, 20
        print()
        print('| onecoll broadcast, 1 KiB, binomial, flush | not recorded | linked, SEXTANT_RECORD=0 | recorded |')
        print('|---|---:|---:|---:|')
        for np in (4, 7):
            def cmd(exe, np=np):
                return lambda: ([args.mpirun] + MPIRUN_OPTIONS +
                                ['-np', str(np), exe, str(n), '1024', str(runs)])
            a, b, c = medians(args, tmp, 'onecoll-%d' % np,
                              [(cmd(plain), {}, False),
                               (cmd(recorded), {'SEXTANT_RECORD': '0'}, False),
                               (cmd(recorded), {}, False)])
            print('| us per broadcast, %d ranks | %.1f | %.1f | %.1f (x%.2f) |' % (np, a, b, c, c / a))
    return 0


if __name__ == '__main__':
    sys.exit(main())
