#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/parallel-import/model.py - the parallel import's scaling to many
ranks, from what bench/parallel-import/run.sh and crossing.sh measured
(docs/benchmarks.md, "A model of 1024 ranks").

    bench/parallel-import/model.py --crossing CROSSING.TSV [--events E]
        [--locations N]... [--bandwidth B] [--ranks P]... [--fixed C_F]
        SUMMARY.TSV

CROSSING.TSV is crossing.sh's WORKDIR/crossing.tsv: on stencils, each
archive imported on one rank and on 2 ranks (or more) with two deals of
the processes to the ranks, the importer's (neighbours share a rank) and
one by one (neighbours cross), which import the same events and
collectives and differ in the message halves that cross. From it:

* c_h, the CPU a message half that crosses ranks costs more than a
  message within a rank (setting it aside, packing, the transfer,
  unpacking, matching it on both ranks, writing the message in both
  shards, the fresh memory of all that): least squares through the origin
  of the cyclic deal's CPU over the importer's deal's (each round's
  difference, the median) on the difference of their halves;
* c_m, the exchange's CPU per collective instance between ranks a rank
  combined, and its CPU per half: least squares of the exchange's CPU on
  the halves and the instances.

SUMMARY.TSV is run.sh's WORKDIR/summary.tsv (the trace to scale: the
single import and 1, 2 and 4 ranks). Its CPU less the exchange's,
CPU(P) - X_CPU(P) = c_e E0 + c_f P, fitted on 1, 2 and 4 ranks, gives
c_e, the CPU per event, which the ranks share, and c_f, the CPU every
rank spends whatever its share (MPI, the global definitions, its store,
its memory, and what the exchange costs outside its thread). On a loaded
machine that fit scatters by more than c_f; --fixed takes c_f as measured
directly (docs/benchmarks.md) and fits c_e alone.

The modelled trace is the same generator's stencil (sextant-bench-gen) on
N locations (a px x py grid, px the largest divisor of N not above its
square root) with E events: as many events, messages and members per
location and iteration as the measured trace. The shares are contiguous
runs of equal size (location l to rank floor((l + 1/2) P / N)); a message
crosses when its two locations are in different shares, and each crossing
message sends two halves, one each way. A rank of P ranks then takes

    T(P) = c_e E / P + c_f + c_h H(P) / P + C(P) + 2 bytes(P) / B

C(P) and bytes(P) its collectives' CPU and the bytes it sends, B the
bytes/s of its link (assumed); the efficiency is T(1) / (P T(P)). The
collectives, whose instances a rank summarises (member count, root,
operation and the bounds the rules compare with; only SCAN and EXSCAN
members cross whole, and the benchmark has none), two ways:

* now (collective_now()): allreduces of the summaries over the ranks (a
  reduce-scatter and an allgather; sextant-summary-combine.c): a rank
  sends and receives 2 COMBINED_BYTES per instance that spans ranks
  whatever P, and combines one summary per instance (c_m each, as
  crossing.sh measured);
* to every rank (collective_to_every(), the import before the allreduce):
  each rank sends the summary of each instance it has members of
  (SUMMARY_BYTES) to every other rank that holds members of its
  communicator (the benchmark's collectives are over all ranks), so a rank
  sends and merges I (P - 1) summaries, c_m each.
"""

import argparse
import csv
import math
import sys

HALF_BYTES = 64         # a half on the wire (compact; trace/sextant-half-wire.h)
SUMMARY_BYTES = 152     # a summary as the alltoallv sent it
COMBINED_BYTES = 136    # a summary in the allreduce


def solve(rows, values):
    """Least squares: the x minimising |rows x - values| (normal equations)."""
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] + [sum(r[i] * v for r, v in zip(rows, values))]
         for i in range(n)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda k: abs(a[k][c]))
        a[c], a[pivot] = a[pivot], a[c]
        for k in range(n):
            if k != c and a[c][c] != 0:
                f = a[k][c] / a[c][c]
                a[k] = [x - f * y for x, y in zip(a[k], a[c])]
    return [a[i][n] / a[i][i] for i in range(n)]


def grid(n):
    """sextant-bench-gen's px x py"""
    px = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
    return px, n // px


def stencil_messages(n, p):
    """The messages of one halo exchange on n locations, and those of them
    that cross between P contiguous equal shares"""
    px, py = grid(n)

    def owner(loc):
        return min(int((loc + 0.5) * p / n), p - 1)

    edges = crossing = 0
    for loc in range(n):
        x, y = loc % px, loc // px
        for peer in ((loc + 1) if x + 1 < px else None, (loc + px) if y + 1 < py else None):
            if peer is not None:
                edges += 2
                crossing += 2 if owner(loc) != owner(peer) else 0
    return edges, crossing


def collective_now(p, instances, c_m):
    """A rank's collectives today: (CPU s, bytes it sends): an allreduce of
    one COMBINED_BYTES summary per instance that spans ranks"""
    if p == 1:
        return 0.0, 0.0
    return c_m * instances, 2 * COMBINED_BYTES * instances


def collective_to_every(p, instances, c_m):
    """A rank's collectives before the allreduce: (CPU s, bytes it sends):
    the summary of each instance to every other rank, and a rank merges
    those of all ranks"""
    copies = instances * (p - 1)
    return c_m * copies, SUMMARY_BYTES * copies


def fit_crossing(path):
    """c_h, c_m and the exchange's own CPU per half, from crossing.sh's rows:
    c_h from each archive's two deals (least squares through the origin of
    the cyclic deal's CPU over the importer's deal's on the difference of
    their halves), the exchange's CPU per half and per instance (c_m) by
    least squares on all rows of 2 ranks or more"""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if not rows or "deal" not in rows[0]:
        sys.exit(f"model.py: {path} is not crossing.sh's table (no column 'deal'): run crossing.sh again")
    archives = {}
    for r in rows:
        archives.setdefault(r["archive"], {})[r["deal"]] = r
    pairs = [(float(a["cyclic"]["halves"]) - float(a["blocks"]["halves"]), float(a["cyclic"]["over_blocks_cpu_s"]))
             for a in archives.values() if "cyclic" in a and "blocks" in a]
    pairs = [(dh, dc) for dh, dc in pairs if dh > 0]
    if not pairs:
        sys.exit(f"model.py: {path} has no archive whose cyclic deal sent more halves than the importer's")
    c_h = sum(dh * dc for dh, dc in pairs) / sum(dh * dh for dh, _ in pairs)
    many = [r for r in rows if int(r["ranks"]) >= 2]
    h_x, c_m = solve([[float(r["halves"]), float(r["instances"])] for r in many],
                     [float(r["exchange_cpu_s"]) for r in many])
    return c_h, c_m, h_x, many


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("summary")
    parser.add_argument("--crossing", required=True, help="crossing.sh's crossing.tsv")
    parser.add_argument("--events", type=float, default=1e10,
                        help="events of the modelled trace (default 1e10)")
    parser.add_argument("--locations", type=int, action="append",
                        help="locations of the modelled trace (default: the measured trace's, and 10000)")
    parser.add_argument("--bandwidth", type=float, default=10e9,
                        help="bytes/s of a rank's link (default 10e9, assumed)")
    parser.add_argument("--fixed", type=float,
                        help="c_f in s, measured directly, instead of the fit (its c_e fitted with it)")
    parser.add_argument("--ranks", type=int, action="append",
                        help="ranks to model (default 2, 4, ... 1024)")
    args = parser.parse_args()

    c_h, c_m, h_x, crossing_rows = fit_crossing(args.crossing)
    with open(args.summary, newline="") as f:
        rows = {int(r["ranks"]): r for r in csv.DictReader(f, delimiter="\t")}
    for p in (0, 1, 2, 4):
        if p not in rows:
            sys.exit(f"model.py: {args.summary} has no row for {p} rank(s) (0: the single import)")
    e0 = float(rows[0]["events"])
    n0 = int(rows[0]["locations"])
    messages0 = float(rows[0]["messages"])
    members0 = float(rows[0]["members"])
    instances0 = float(rows[0]["collectives"])

    # the CPU without the exchange's (its thread's CPU, --stats): what the
    # exchange costs outside it stays in c_f
    points = [(p, float(rows[p]["cpu_s"]) - float(rows[p]["exchange_cpu_s"])) for p in (1, 2, 4)]
    if args.fixed is None:
        c_e, c_f = solve([[e0, float(p)] for p, _ in points], [y for _, y in points])
    else:
        c_f = args.fixed
        c_e = solve([[e0] for p, _ in points], [y - c_f * p for p, y in points])[0]

    edges0, _ = stencil_messages(n0, 1)
    iterations0 = messages0 / edges0
    events_per = e0 / (iterations0 * n0)           # per location and iteration
    members_per = members0 / (iterations0 * n0)
    instances_per = instances0 / iterations0       # per iteration

    print(f"Measured: crossing ({args.crossing}, {len(crossing_rows)} imports on 2 ranks or more):")
    print(f"- the exchange's CPU: {h_x * 1e9:.0f} ns per message half, {c_m * 1e9:.0f} ns per collective "
          f"instance (c_m)")
    print(f"- c_h = {c_h * 1e9:.0f} ns more CPU per message half that crosses than per message within a rank")
    print(f"Scaled ({args.summary}): {e0:.0f} events, {n0} locations, {messages0:.0f} messages, "
          f"{instances0:.0f} collectives with {members0:.0f} members; bytes exchanged on 2 ranks "
          f"{float(rows[2]['bytes']):.0f}")
    print(f"- single import: {float(rows[0]['cpu_s']) / e0 * 1e9:.0f} ns of CPU per event; "
          f"c_e = {c_e * 1e9:.0f} ns per event, c_f = {c_f:.3f} s per rank"
          f"{' (given)' if args.fixed is not None else ''}")
    print(f"Model: {args.events:.3g} events, {args.bandwidth / 1e9:g} GB/s per rank (assumed)")

    for n in args.locations or [n0, 10000]:
        iterations = args.events / (events_per * n)
        members = iterations * n * members_per
        instances = iterations * instances_per
        px, py = grid(n)

        def rank_time(p, collectives):
            edges, crossing = stencil_messages(n, p)
            halves = 2 * iterations * crossing
            coll_cpu, coll_bytes = collectives(p)
            sent = HALF_BYTES * halves / p + coll_bytes
            return (c_e * args.events / p + c_f + c_h * halves / p + coll_cpu + 2 * sent / args.bandwidth,
                    crossing / edges if edges else 0.0, sent)

        single, _, _ = rank_time(1, lambda p: (0.0, 0.0))
        print()
        print(f"{n} locations ({px} x {py}), {iterations:.3g} iterations, "
              f"{instances:.3g} collectives with {members:.3g} members; one rank {single:.4g} s")
        print()
        print("| ranks | messages that cross | bytes a rank sends (now) | time of a rank, s (now) "
              "| efficiency (now) | time of a rank, s (to every rank) | efficiency (to every rank) |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for p in args.ranks or [2 ** k for k in range(1, 11)]:
            t_now, frac, sent = rank_time(p, lambda q: collective_now(q, instances, c_m))
            t_every, _, _ = rank_time(p, lambda q: collective_to_every(q, instances, c_m))
            print(f"| {p} | {frac:.1%} | {sent:.3g} | {t_now:.3g} | {single / (p * t_now):.0%} "
                  f"| {t_every:.3g} | {single / (p * t_every):.0%} |")


if __name__ == "__main__":
    main()
