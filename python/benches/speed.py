#!/usr/bin/env python3
"""Speed of the Python package against the `serve` pipe and the CLI (a benchmark, not a test).

    python python/benches/speed.py --binary target/release/stickdice

Measures, on Issiren with default rules:

1. steps per second of a plain Python loop over random games: `legal_actions()` and
   `apply_action()` for every step (a throw at a chance node from `SeededDice`, a uniformly
   random legal action at a decision), counting every `apply_action`;
2. the same loop driven through `stickdice serve` (JSON lines over a pipe, `throw` and
   `act` requests), as a new user of the pipe would write it;
3. `play_random` games per second against `stickdice tournament -a random,random` on the
   same number of games and threads (the CLI's own games/s line);
4. `tournament()` from Python against the CLI's tournament, same agents, games, seed and
   threads (games/s from each side's own elapsed time: the games, without start-up and
   report), alternating the two `--repeat` times and comparing medians.
"""

import argparse
import json
import random
import re
import statistics
import subprocess
import tempfile
import time

import stickdice


def python_loop(seconds, seed=1):
    game = stickdice.load_game("issiren")
    rng = random.Random(seed)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        dice = stickdice.SeededDice(rng.getrandbits(63))
        while not state.is_terminal():
            if state.is_chance_node():
                state.legal_actions()
                state.apply_action(dice.throw(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, games / elapsed, steps, games


def pipe_loop(binary, seconds, seed=1):
    proc = subprocess.Popen([binary, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    rng = random.Random(seed)
    next_id = 0

    def request(cmd, **fields):
        nonlocal next_id
        next_id += 1
        proc.stdin.write(json.dumps({"id": next_id, "cmd": cmd, **fields}) + "\n")
        proc.stdin.flush()
        response = json.loads(proc.stdout.readline())
        assert response["ok"], response
        return response["result"]

    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        view = request("new_game", game="issiren", seed=rng.getrandbits(63))
        while view["node"]["kind"] != "end":
            if view["node"]["kind"] == "throw":
                view = request("throw")
            else:
                view = request("act", action=rng.choice(view["legal_actions"]))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    request("quit")
    proc.wait()
    return steps / elapsed, games / elapsed, steps, games


def cli_rate(binary, agents, games, threads, seed):
    with tempfile.TemporaryDirectory() as out:
        cmd = [binary, "tournament", "--game", "issiren", "--agents", agents, "--games", str(games),
               "--threads", str(threads), "--seed", str(seed), "--out", out]
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        text = done.stdout + done.stderr
        wall = time.perf_counter() - start
    m = re.search(r"([\d.]+) games/s", text)
    return (float(m.group(1)) if m else None), wall, " ".join(cmd[:-2] + ["--out", "DIR"]), text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/stickdice")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--games", type=int, default=20000, help="random games (per table for the CLI)")
    ap.add_argument("--tournament-games", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    sps, gps, steps, games = python_loop(args.seconds)
    print(f"python loop: {sps:,.0f} steps/s ({gps:.1f} games/s; {steps} steps, {games} games)")
    psps, pgps, psteps, pgames = pipe_loop(args.binary, args.seconds)
    print(f"serve pipe:  {psps:,.0f} steps/s ({pgps:.2f} games/s; {psteps} steps, {pgames} games)")
    print(f"python loop / pipe: {sps / psps:.0f}x")

    game = stickdice.load_game("issiren")
    # The CLI's round-robin of two agents plays `games` per table: 2 * ceil(games/2) games.
    n = args.games
    r = stickdice.play_random(game, n, seed=1, threads=args.threads)
    batch = n / r["elapsed_s"]
    cli, wall, cmd, _ = cli_rate(args.binary, "random,random", n, args.threads, 1)
    print(f"play_random: {batch:,.0f} games/s ({n} games, {args.threads} threads)")
    print(f"CLI `{cmd}`: {cli:,.0f} games/s (wall {wall:.2f} s with start-up and report)")
    print(f"play_random / CLI: {batch / cli:.2f}")

    # Tournaments: alternate Python and the CLI `--repeat` times (the machine is shared)
    # and compare the medians.
    runs = [("greedy,mcts:iterations=200", args.tournament_games, 1),
            ("greedy,mcts:iterations=200", args.tournament_games, args.threads),
            ("random,random", n, args.threads)]
    for agents, tg, threads in runs:
        py, cl = [], []
        for _ in range(args.repeat):
            rep = stickdice.tournament(game, agents.split(","), games=tg, seed=1, threads=threads)
            py.append(rep["games"] / rep["elapsed_s"])
            rate, _, cmd, _ = cli_rate(args.binary, agents, tg, threads, 1)
            cl.append(rate)
        p, c = statistics.median(py), statistics.median(cl)
        print(f"tournament({agents.split(',')}, games={tg}, threads={threads}): median {p:,.1f} games/s "
              f"({', '.join(f'{x:,.1f}' for x in py)}; {rep['games']} games)")
        print(f"CLI `{cmd}`: median {c:,.1f} games/s ({', '.join(f'{x:,.1f}' for x in cl)})")
        print(f"tournament() / CLI: {p / c:.2f}")


if __name__ == "__main__":
    main()
