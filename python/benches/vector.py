#!/usr/bin/env python3
"""Steps per second of the batched environment from Python (a benchmark, not a test).

    python python/benches/vector.py [--seconds 3] [--games issiren,sig-el-oued-capture|all]
        [--sizes 1,64,1024,4096] [--choosers mask,codes]

For each game and batch size N (1, 64, 1024, 4096), in self-play and against ``greedy``
(the learner P1, greedy P2 in Rust): a loop of ``VectorEnv.step`` with a random legal
action per game chosen in numpy, observations and masks written by every step, by each
of two choosers (a row each):

* ``mask``: from the mask, the ``argmax`` of uniform noise plus the mask (49 random
  numbers per game for Issiren), in preallocated arrays;
* ``codes``: from the legal codes (``VectorEnv(..., legal_actions=True)``, which the
  step also writes), the ``floor(u * count)``-th code for one random number ``u`` per game
  (``stickdice.vector.RandomLegal``), in preallocated arrays.

One step of N games counts N steps. Beside them, *our single-game Python loop* (on the
``mask`` rows): one game at a time through the package's ``State`` (``apply_action`` per
throw, decision and greedy move), the observation (``observation_tensor()``) and mask
(``legal_actions_mask()``) read at every learner decision and a random legal action chosen
in numpy; counted alike (learner decisions per second; throws and opponents' moves are not
steps). Printed as a Markdown table, with the load average before and after
(docs/performance/vector.md records it).
"""

import argparse
import os
import time

import numpy as np

import stickdice
from stickdice.vector import RandomLegal, VectorEnv


class Stepper:
    """A batch of ``n`` games stepped with a random legal action per game by ``chooser``.

    ``run(seconds)`` steps until ``seconds`` of wall time have passed and returns
    ``(steps, wall_seconds, cpu_seconds)``: one step of N games counts N, the CPU time is
    ``time.process_time()`` of this process (all its threads). Successive calls continue
    the same games, so a measurement can be cut into windows.
    """

    def __init__(self, game, n, opponents=None, chooser="mask", seed=1):
        if chooser not in ("mask", "codes"):
            raise ValueError(f"unknown chooser {chooser!r}: mask or codes")
        self.n = n
        self.chooser = chooser
        self.env = VectorEnv(game, n, seed=seed, opponents=opponents, legal_actions=chooser == "codes")
        obs, self.info = self.env.reset()
        if chooser == "codes":
            # One random number per game: the floor(u * count)-th legal code (no array
            # made per step).
            self.choose = RandomLegal(self.env, seed)
        else:
            self.rng = np.random.default_rng(seed)
            self.noise = np.empty(self.info["legal_action_mask"].shape, dtype=np.float32)
            self.actions = np.empty(n, dtype=np.int64)

    def run(self, seconds):
        env, n, info = self.env, self.n, self.info
        steps = 0
        cpu0 = time.process_time()
        if self.chooser == "codes":
            choose = self.choose
            start = time.perf_counter()
            while True:
                obs, rewards, terminated, truncated, info = env.step(choose(info))
                steps += n
                elapsed = time.perf_counter() - start
                if elapsed >= seconds:
                    break
        else:
            rng, noise, actions = self.rng, self.noise, self.actions
            mask = info["legal_action_mask"]
            start = time.perf_counter()
            while True:
                # Uniform among the legal codes, in place (no array made per step): noise
                # in [0, 1), plus 1 where legal, so the row's argmax is a uniformly drawn
                # legal code.
                rng.random(dtype=np.float32, out=noise)
                np.add(noise, mask, out=noise)
                noise.argmax(axis=1, out=actions)
                obs, rewards, terminated, truncated, info = env.step(actions)
                mask = info["legal_action_mask"]
                steps += n
                elapsed = time.perf_counter() - start
                if elapsed >= seconds:
                    break
        cpu = time.process_time() - cpu0
        self.info = info
        return steps, elapsed, cpu


def measure(game, n, opponents, seconds, chooser="mask", seed=1):
    """Steps per second (wall time) of a fresh batch stepped for ``seconds``."""
    steps, elapsed, _cpu = Stepper(game, n, opponents, chooser, seed).run(seconds)
    return steps / elapsed


def measure_single(game_name, opponents, seconds, seed=1):
    """Learner decisions per second of one game at a time through ``stickdice.State``."""
    game = stickdice.load_game(game_name)
    dice = stickdice.SeededDice(seed)
    rng = np.random.default_rng(seed)
    opponent = stickdice.Agent(opponents, game, seed=seed) if opponents else None
    state = game.new_initial_state()
    steps = 0
    start = time.perf_counter()
    while True:
        for _ in range(1000):
            if state.is_terminal():
                state = game.new_initial_state()
            elif state.is_chance_node():
                state.apply_action(dice.throw(state))
            elif opponent is not None and state.current_player() == 1:
                state.apply_action(opponent.step(state))
            else:
                state.observation_tensor()  # read, as a learner reads it
                mask = state.legal_actions_mask()
                noise = rng.random(mask.shape[0], dtype=np.float32)
                state.apply_action(int((noise + mask).argmax()))
                steps += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    p.add_argument("--games", default="issiren,sig-el-oued-capture",
                   help="comma-separated game names, or 'all' (every game of the list)")
    p.add_argument("--sizes", default="1,64,1024,4096")
    p.add_argument("--choosers", default="mask,codes", help="mask and/or codes (a row each)")
    args = p.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    choosers = args.choosers.split(",")
    print(f"cores: {os.cpu_count()}, RAYON_NUM_THREADS={os.environ.get('RAYON_NUM_THREADS', 'unset')}, "
          f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| game | opponents | chooser | " + " | ".join(f"N = {n}" for n in sizes)
          + " | single-game Python loop |")
    print("|---|---|---|" + "---:|" * (len(sizes) + 1))

    def cell(r):
        return f"{r / 1e6:.2f} M" if r >= 1e6 else f"{r / 1e3:.0f} k"

    games = [g["name"] for g in stickdice.games()] if args.games == "all" else args.games.split(",")
    left_out = []
    for game in games:
        try:
            VectorEnv(game, 1)
        except ValueError as e:  # a game where every throw plays itself: no learner steps
            left_out.append(str(e))
            continue
        for label, opponents in (("self-play", None), ("greedy", "greedy")):
            for j, chooser in enumerate(choosers):
                rates = [measure(game, n, opponents, args.seconds, chooser) for n in sizes]
                single = cell(measure_single(game, opponents, args.seconds)) if j == 0 else "—"
                cells = " | ".join(cell(r) for r in rates)
                print(f"| {game} | {label} | {chooser} | {cells} | {single} |", flush=True)
    for reason in left_out:
        print(f"left out: {reason}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
