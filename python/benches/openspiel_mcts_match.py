#!/usr/bin/env python3
"""OpenSpiel's MCTSBot (random rollouts) against our default `mcts` at equal time per decision.

    python python/benches/openspiel_mcts_match.py --millis 10 --sims 2 --pairs 100

Issiren, default rules. Each pair of games shares a seed: the throws come from
`stickdice.SeededDice(seed)` (duplicate dice: seat s's t-th throw depends only on the seed,
s and t), and the two games of a pair swap the seats. Ours: `mcts:millis=M` (the default
MCTS with a wall-clock budget per decision), told every throw and action as in the arena.
Theirs: `pyspiel.MCTSBot` (UCT c=2, `RandomRolloutEvaluator` with one random rollout to the
end, no solver) on the registered OpenSpiel game `stickdice_issiren`, searching from
scratch at each decision, with `--sims` simulations per decision, chosen so that its
measured time per decision matches M (both means are printed). Its own wall-clock budget
(`max_wall_clock_time`) is not used: one random rollout of Issiren through a Python game
takes about 3 ms, and a budget that ends before the search has expanded the root crashes
`MCTSBot::Step` (open_spiel 2.0.2).

Reported: our mean score over the pairs with a 95% interval (mean ± 1.96·s/√pairs; a
pair's two games share their throws, so the pair is the unit), and the Elo difference
400·log10(score/(1−score)) with the interval's ends mapped the same way. Plays on the main
thread (`step_with_policy`: `MCTSBot.step` drops the GIL and crashes on Python games, and
the C++ bot crashes too when called from a thread Python did not start).
"""

import argparse
import math
import statistics
import time

import pyspiel

import stickdice
import stickdice.openspiel as so


def play(game, seed, ours_seat, ours, bot, holder, stats):
    dice = stickdice.SeededDice(seed)
    state = game.new_initial_state()
    ours.new_game(ours_seat)
    while not state.is_terminal():
        if state.is_chance_node():
            code = dice.throw(state)
        elif state.current_player() == ours_seat:
            t = time.perf_counter()
            code = ours.step(state)
            stats["ours"] += time.perf_counter() - t
            stats["ours_n"] += 1
        else:
            holder.rust = state.clone()
            t = time.perf_counter()
            code = bot.step_with_policy(holder)[1]
            stats["theirs"] += time.perf_counter() - t
            stats["theirs_n"] += 1
        ours.observe(state, code)
        state.apply_action(code)
    return state.returns()[ours_seat], state.throws_made()


def elo(score):
    """The Elo difference of a score; infinite at 0 and 1."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400 * math.log10(score / (1 - score))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--millis", type=float, default=10.0, help="our time per decision")
    ap.add_argument("--sims", type=int, default=2, help="OpenSpiel simulations per decision")
    ap.add_argument("--pairs", type=int, default=100, help="pairs of games (seats swapped); 2x games")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    so.register()
    os_game = pyspiel.load_game("stickdice_issiren")
    evaluator = pyspiel.RandomRolloutEvaluator(1, args.seed)
    bot = pyspiel.MCTSBot(os_game, evaluator, 2.0, args.sims, 1000, False, args.seed, False)
    holder = os_game.new_initial_state()
    game = stickdice.load_game("issiren")
    spec = f"mcts:millis={args.millis:g}"
    stats = {"ours": 0.0, "ours_n": 0, "theirs": 0.0, "theirs_n": 0}
    pair_scores, throws = [], []
    start = time.perf_counter()
    for i in range(args.pairs):
        seed = stickdice.derive_seed(args.seed, [i])
        pair = []
        for seat in (0, 1):
            ours = stickdice.Agent(spec, game, seed=stickdice.derive_seed(seed, [1, seat]))
            s, n = play(game, seed, seat, ours, bot, holder, stats)
            pair.append(s)
            throws.append(n)
        pair_scores.append(sum(pair) / 2)
        if (i + 1) % 10 == 0:
            print(f"  {i + 1} pairs: our score so far {statistics.mean(pair_scores):.3f}", flush=True)
    wall = time.perf_counter() - start
    mean = statistics.mean(pair_scores)
    half = 1.96 * statistics.stdev(pair_scores) / math.sqrt(len(pair_scores)) if len(pair_scores) > 1 else float("nan")
    lo, hi = max(0.0, mean - half), min(1.0, mean + half)
    print(f"{spec} vs pyspiel.MCTSBot(random rollouts, {args.sims} simulations): {2 * args.pairs} games, seats rotated")
    print(f"our score {mean:.3f} [{lo:.3f}, {hi:.3f}] (95%); Elo difference {elo(mean):+.0f} [{elo(lo):+.0f}, {elo(hi):+.0f}]")
    print(f"time per decision: ours {1000 * stats['ours'] / max(1, stats['ours_n']):.2f} ms ({stats['ours_n']} decisions), "
          f"OpenSpiel {1000 * stats['theirs'] / max(1, stats['theirs_n']):.2f} ms ({stats['theirs_n']} decisions)")
    print(f"mean game length {statistics.mean(throws):.0f} throws; wall {wall:.0f} s")


if __name__ == "__main__":
    main()
