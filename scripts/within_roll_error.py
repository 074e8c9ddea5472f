"""scripts/within_roll_error.py — how much of a net's 0-ply error a move choice sees.

For a random sample of the benchmark's decisions (bench/positions/positions.txt) of one phase,
compares each candidate's 0-ply equity (mover's view) with its 2-ply value and both with the
set's rollout equity, and prints the rms difference overall and after taking out each decision's
mean difference (the part that can change which candidate is best); docs/results.md.

    PYTHONPATH=build/python /usr/bin/python3 scripts/within_roll_error.py [MODEL] [DECISIONS]
"""
import pathlib
import random
import sys

import numpy as np

import nardy

model = sys.argv[1] if len(sys.argv) > 1 else "nardy-fit-3"
count = int(sys.argv[2]) if len(sys.argv) > 2 else 100
net = nardy.load_model(model)
two_ply = nardy.make_agent(f"model:{model}:ply=2")
decisions, current = [], None
set_path = pathlib.Path(__file__).resolve().parents[1] / "bench" / "positions" / "positions.txt"
for line in open(set_path):
    fields = line.split()
    if not fields or line.startswith("#"):
        continue
    if fields[0] == "decision":
        current = {"phase": fields[3], "candidates": []}
        decisions.append(current)
    else:
        current["candidates"].append((fields[0], float(fields[1])))
random.seed(1)
for phase in ("contact", "opening"):
    pool = [d for d in decisions if d["phase"] == phase and len(d["candidates"]) >= 3]
    rms = {}
    for d in random.sample(pool, count):
        positions = [nardy.Position.from_id(c[0]) for c in d["candidates"]]
        rollout = np.array([c[1] for c in d["candidates"]])
        # Candidates are positions with the opponent to move: the mover's equity is minus theirs.
        zero = -net.evaluate(positions)[:, 4]
        two = -np.array([two_ply.evaluate(p).equity for p in positions])
        for name, diff in (("0-ply vs 2-ply", zero - two), ("0-ply vs rollout", zero - rollout),
                           ("2-ply vs rollout", two - rollout)):
            total, within = rms.setdefault(name, ([], []))
            total.extend(diff)
            within.extend(diff - diff.mean())
    for name, (total, within) in rms.items():
        print(f"{model} {phase} {name}: rms {np.sqrt(np.mean(np.square(total))):.3f}, "
              f"within a decision {np.sqrt(np.mean(np.square(within))):.3f}")
