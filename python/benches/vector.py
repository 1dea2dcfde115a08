#!/usr/bin/env python3
"""Steps per second of the batched environment from Python (a benchmark, not a test).

    python python/benches/vector.py [--seconds 3] [--games issiren,sig-el-oued-capture]

For each game and batch size N (1, 64, 1024, 4096), in self-play and against ``greedy``
(the learner P1, greedy P2 in Rust): a loop of ``VectorEnv.step`` with a random legal
action per game chosen in numpy from the mask (``argmax`` of random numbers where legal),
observations and masks written by every step. One step of N games counts N steps.
Printed as a Markdown table (docs/performance/vector.md records it).
"""

import argparse
import os
import time

import numpy as np

from stickdice.vector import VectorEnv


def measure(game, n, opponents, seconds, seed=1):
    env = VectorEnv(game, n, seed=seed, opponents=opponents)
    obs, info = env.reset()
    rng = np.random.default_rng(seed)
    mask = info["legal_action_mask"]
    noise = np.empty(mask.shape, dtype=np.float32)
    steps = 0
    start = time.perf_counter()
    while True:
        rng.random(dtype=np.float32, out=noise)
        actions = np.where(mask, noise, -1.0).argmax(axis=1)
        obs, rewards, terminated, truncated, info = env.step(actions)
        mask = info["legal_action_mask"]
        steps += n
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    p.add_argument("--games", default="issiren,sig-el-oued-capture")
    p.add_argument("--sizes", default="1,64,1024,4096")
    args = p.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"cores: {os.cpu_count()}, RAYON_NUM_THREADS={os.environ.get('RAYON_NUM_THREADS', 'unset')}")
    print("| game | opponents | " + " | ".join(f"N = {n}" for n in sizes) + " |")
    print("|---|---|" + "---:|" * len(sizes))
    for game in args.games.split(","):
        for label, opponents in (("self-play", None), ("greedy", "greedy")):
            rates = [measure(game, n, opponents, args.seconds) for n in sizes]
            cells = " | ".join(f"{r / 1e6:.2f} M" if r >= 1e6 else f"{r / 1e3:.0f} k" for r in rates)
            print(f"| {game} | {label} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
