#!/usr/bin/env python3
"""A tournament from Python: our agents, a Python agent, and the report as a table.

    pip install ./python
    python examples/python_tournament.py              # add --out DIR to write the CLI's files

Plays Issiren between `greedy`, `mcts:iterations=300` and a Python function that always
moves the piece on the lowest square it can (the first legal action), with the Rust arena
(seats rotated, duplicate dice), and prints the standings. Press Ctrl-C to stop it
cleanly. A tournament with a Python agent runs on one thread (the function needs the GIL at
each of its decisions); without one, the games run on every core with the GIL released.
"""

import argparse

import stickdice


def lowest_square(state):
    """A Python agent: the first legal action (the core lists them in square order)."""
    return state.legal_actions()[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20, help="games per pair of agents")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="folder for games.jsonl and the report files")
    args = ap.parse_args()

    game = stickdice.load_game("issiren", max_throws=2000)
    done = 0

    def progress(n, total):
        nonlocal done
        if n * 10 // total > done * 10 // total:
            print(f"  {n}/{total} games")
        done = n

    report = stickdice.tournament(
        game,
        ["greedy", "mcts:iterations=300", lowest_square],
        games=args.games,
        seed=args.seed,
        out=args.out,
        progress=progress,
    )
    print(report["standings_table"])
    elo = report["first_seat_elo"]
    if elo:
        print(f"first-seat advantage: {elo['value']:.1f} Elo [{elo['low']:.1f}, {elo['high']:.1f}]")
    try:
        import pandas  # optional: the standings are plain records

        print(pandas.DataFrame(report["standings"])[["rank", "agent", "games"]])
    except ImportError:
        pass


if __name__ == "__main__":
    main()
