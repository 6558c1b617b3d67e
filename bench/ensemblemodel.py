#!/usr/bin/env python3
"""The balance of SimpVIEnsemble's queue on many ranks, modelled from measured per-member costs.

  ensemblemodel.py RESULTS.csv [--wall SECONDS] [--batch 256] [--latency 5e-6] [--ranks 1,2,4,...]

RESULTS.csv is a study's results as -ensemble_view :file.csv:ascii_csv writes them (member, reason, steps,
newton_its, ...), from a run on one rank whose solve took --wall seconds (the BENCH line of bench/ensembleflip). A
member's cost is taken proportional to its evaluations of the mechanics, one per Newton iteration and one more per step
(the converged test's), scaled so that they sum to the measured wall time: each step of a member then costs
(newton_its + steps) / steps of these units.

The model runs what SimpVIEnsembleSolve() does on every rank: a batch of up to --batch members stepping together
(one batch step costs the sum of its members' step costs), a member leaving when it has taken its steps, its slot
refilled from a shared counter in chunks (the default chunk, the members over 16 times the ranks, at most a batch;
each request costs --latency seconds) while the rank holds fewer members than its limit (the batch, or a quarter of
the members left per rank when that is fewer), the ranks' batch steps ordered in time so that they take chunks in
the order they ask. It prints, per number of ranks, the modelled wall time, the mean busy share (each rank busy until its last
member ends, against the slowest) and the speed-up; beside it the static cyclic split (rank r runs members r, r + P,
...), which the flip map's older machinery (examples/ensemble.h, removed) used. Python 3 standard library only.
"""
import argparse
import csv
import heapq


def read_costs(path):
    steps, evals = [], []
    with open(path) as f:
        for row in csv.DictReader(f):
            s, its = int(row["steps"]), int(row["newton_its"])
            steps.append(max(s, 1))
            evals.append(its + s)
    return steps, evals


def simulate(steps, unit, ranks, batch, chunk, latency, static=False):
    """Wall time and mean busy share of one solve on `ranks` ranks"""
    n = len(steps)
    percost = [unit[i] / steps[i] for i in range(n)]  # one step of member i
    counter = [0]
    queues = [list(range(r, n, ranks)) for r in range(ranks)] if static else None
    held = [[] for _ in range(ranks)]  # [member, steps left]
    chunkleft = [[] for _ in range(ranks)]
    seen = [0] * ranks  # the counter after each rank's last request
    clock = [0.0] * ranks
    events = [(0.0, r) for r in range(ranks)]
    heapq.heapify(events)
    while events:
        t, r = heapq.heappop(events)
        clock[r] = t
        while len(held[r]) < batch:  # SimpVIEnsembleSolve()'s refill
            if static:
                if not queues[r]:
                    break
                i = queues[r].pop(0)
            else:
                if not chunkleft[r]:  # SimpVIEnsembleQueueLimit_Private(), SimpVIEnsembleQueueNext_Private()
                    limit = batch if ranks == 1 else max(1, min(batch, (n - seen[r]) // (4 * ranks)))
                    if len(held[r]) >= limit or counter[0] >= n:
                        break
                    take = max(1, min(chunk, limit - len(held[r])))
                    first = counter[0]
                    counter[0] += take
                    seen[r] = counter[0]
                    clock[r] += latency
                    chunkleft[r] = list(range(first, min(first + take, n)))
                i = chunkleft[r].pop(0)
            held[r].append([i, steps[i]])
        if not held[r]:
            continue
        clock[r] += sum(percost[m] for m, _ in held[r])  # one step of the batch
        for h in held[r]:
            h[1] -= 1
        held[r] = [h for h in held[r] if h[1] > 0]
        heapq.heappush(events, (clock[r], r))
    wall = max(clock)
    return wall, sum(clock) / (ranks * wall) if wall > 0 else 1.0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--wall", type=float, default=1.0, help="the measured 1-rank solve, seconds")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--latency", type=float, default=5e-6, help="seconds per chunk request")
    parser.add_argument("--ranks", default="1,2,4,8,16,32,64,128,256,512")
    opts = parser.parse_args()
    steps, evals = read_costs(opts.csv)
    total = sum(evals)
    unit = [opts.wall * e / total for e in evals]
    n = len(steps)
    print(f"{n} members, {sum(steps)} steps, costs from {min(unit):.3g} to {max(unit):.3g} s "
          f"(ratio {max(unit) / min(unit):.0f}), {opts.wall:.3g} s on one rank; batches of {opts.batch}")
    print("| ranks | chunk | queue: wall (s) | busy | speed-up | static cyclic: wall (s) | busy |")
    print("|---|---|---|---|---|---|---|")
    for p in [int(x) for x in opts.ranks.split(",")]:
        chunk = max(1, min(opts.batch, n // (16 * p)))
        batch = opts.batch
        w, u = simulate(steps, unit, p, batch, chunk, opts.latency)
        ws, us = simulate(steps, unit, p, batch, chunk, opts.latency, static=True)
        print(f"| {p} | {chunk} | {w:.3g} | {100 * u:.1f} % | {opts.wall / w:.1f} | {ws:.3g} | {100 * us:.1f} % |")


if __name__ == "__main__":
    main()
