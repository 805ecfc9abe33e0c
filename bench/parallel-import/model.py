#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/parallel-import/model.py - the parallel import's scaling to many
ranks, from what bench/parallel-import/run.sh measured (docs/benchmarks.md,
"A model of 1024 ranks").

    bench/parallel-import/model.py [--events E] [--bandwidth B] [--ranks P]... SUMMARY.TSV

SUMMARY.TSV is run.sh's WORKDIR/summary.tsv: the single import's and the
parallel imports' median CPU (all ranks together), the CPU their exchanges
took and the bytes the ranks exchanged (`sextant-mpi import --stats`), on
1, 2 and 4 ranks. From it:

* c_x, the CPU per byte exchanged (packing, the transfer, unpacking,
  matching and writing what came in): the exchanges' CPU over their bytes,
  on 2 and 4 ranks together;
* c_e, the CPU per event, which the ranks share, and c_f, the CPU every
  rank spends whatever its share (MPI, the global definitions, its store,
  its memory): the CPU without the exchange's, CPU(P) - X_CPU(P) =
  c_e E0 + c_f P, fitted by least squares on 1, 2 and 4 ranks.

A rank of P ranks on a trace of E events then takes

    T(P) = c_e E / P + c_f + c_x X_E(P) / P + 2 X_E(P) / (P B)

(the last term its bytes out and in over a link of B bytes/s), and the
efficiency is T(1) / (P T(P)), T(1) = c_e E + c_f. X_E(P), the bytes
of a trace of E events of the same kind as the measured one, is projected
two ways:

* now: each rank sends the summary of each collective instance it has
  members of (152 bytes: member count, root, operation and bounds) to
  every other rank that holds members of its communicator (the
  benchmark's collectives are over all ranks), so instances I_E P (P - 1)
  summaries in all; the message halves that cross ranks, 120 bytes each,
  grow with the cuts between shares (H(2) (P - 1), measured on 2 ranks,
  less its summaries), at most both halves of every message;
* per instance: one allreduce of the summaries over the ranks (a
  reduce-scatter and an allgather), so each rank sends and receives about
  2 x 152 bytes per instance whatever P; the halves as now.
"""

import argparse
import csv
import math
import sys

HALF_BYTES = 120
SUMMARY_BYTES = 152


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("summary")
    parser.add_argument("--events", type=float, default=1e10,
                        help="events of the modelled trace (default 1e10)")
    parser.add_argument("--bandwidth", type=float, default=10e9,
                        help="bytes/s of a rank's link (default 10e9, assumed)")
    parser.add_argument("--ranks", type=int, action="append",
                        help="ranks to model (default 2, 4, ... 1024)")
    args = parser.parse_args()

    with open(args.summary, newline="") as f:
        rows = {int(r["ranks"]): r for r in csv.DictReader(f, delimiter="\t")}
    for p in (0, 1, 2, 4):
        if p not in rows:
            sys.exit(f"model.py: {args.summary} has no row for {p} rank(s) (0: the single import)")
    e0 = float(rows[0]["events"])
    messages = float(rows[0]["messages"])
    members = float(rows[0]["members"])
    instances = float(rows[0]["collectives"])
    c_s = float(rows[0]["cpu_s"]) / e0
    c_x = (sum(float(rows[p]["exchange_cpu_s"]) for p in (2, 4))
           / sum(float(rows[p]["bytes"]) for p in (2, 4)))
    points = [(p, float(rows[p]["cpu_s"]) - float(rows[p]["exchange_cpu_s"])) for p in (1, 2, 4)]
    mean_p = sum(p for p, _ in points) / 3
    mean_y = sum(y for _, y in points) / 3
    c_f = (sum((p - mean_p) * (y - mean_y) for p, y in points)
           / sum((p - mean_p) ** 2 for p, _ in points))
    c_e = (mean_y - c_f * mean_p) / e0
    halves2 = max(0.0, (float(rows[2]["bytes"]) - SUMMARY_BYTES * instances * 2) / HALF_BYTES)

    scale = args.events / e0
    msg_e, inst_e, h2_e = messages * scale, instances * scale, halves2 * scale

    def halves(p):
        return min(h2_e * (p - 1), 2 * msg_e)

    def volume_now(p):
        return SUMMARY_BYTES * inst_e * p * (p - 1) + HALF_BYTES * halves(p)

    def volume_instances(p):
        return (2 * SUMMARY_BYTES * inst_e * p if p > 1 else 0) + HALF_BYTES * halves(p)

    def rank_time(p, volume):
        return c_e * args.events / p + c_f + c_x * volume / p + 2 * volume / (p * args.bandwidth)

    print(f"Measured ({args.summary}): {e0:.0f} events, {rows[0]['locations']} locations, "
          f"{messages:.0f} messages, {instances:.0f} collectives with {members:.0f} members")
    print(f"- single import: {c_s * 1e9:.0f} ns of CPU per event")
    print(f"- c_e = {c_e * 1e9:.0f} ns of CPU per event, c_f = {c_f:.3f} s per rank, "
          f"c_x = {c_x * 1e9:.2f} ns per byte exchanged")
    print(f"- halves crossing on 2 ranks: {halves2:.0f}")
    print(f"Model: {args.events:.3g} events, {args.bandwidth / 1e9:g} GB/s per rank")
    print()
    single = rank_time(1, 0)
    print(f"One rank: {single:.4g} s. A rank sends about what it receives, and holds what it receives until "
          "its exchange ends (one exchange, after its last location).")
    print()
    print("| ranks | bytes a rank sends (now) | time of a rank, s (now) | efficiency (now) "
          "| bytes a rank sends (per instance) | time of a rank, s (per instance) | efficiency (per instance) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for p in args.ranks or [2 ** k for k in range(1, 11)]:
        now, inst = volume_now(p), volume_instances(p)
        t_now, t_inst = rank_time(p, now), rank_time(p, inst)
        print(f"| {p} | {now / p:.3g} | {t_now:.3g} | {single / (p * t_now):.0%} "
              f"| {inst / p:.3g} | {t_inst:.3g} | {single / (p * t_inst):.0%} |")


if __name__ == "__main__":
    main()
