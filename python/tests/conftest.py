"""Shared helpers of the stickdice Python tests."""

import os
import pathlib
import random
import signal
import subprocess
import sys
import time

import pytest

import stickdice

REPO = pathlib.Path(__file__).resolve().parents[2]

#: Every game with the seat counts and rule options the tests cover.
CONFIGS = [
    ("issiren", 2, {}),
    ("issiren", 2, {"max_throws": 40}),
    ("sig-el-oued", 2, {}),
    ("sig-el-oued", 3, {"cairo_always_three": True}),
    ("sig-el-oued", 8, {}),
    ("sig-wa-duqqan", 2, {}),
    ("sig-wa-duqqan", 5, {"exact_waiting_square": True}),
    ("sig-wa-duqqan", 8, {"max_throws": 300}),
    ("siryu-war", 2, {}),
    ("siryu-war", 2, {"max_throws": 40}),
]


def config_id(c):
    name, players, opts = c
    return f"{name}-{players}p" + "".join(f"-{k}={v}" for k, v in opts.items())


@pytest.fixture
def cli():
    """The `stickdice` binary (built by `cargo build --release --bin stickdice`)."""
    path = os.environ.get("STICKDICE_BIN", str(REPO / "target" / "release" / "stickdice"))
    if not os.path.exists(path):
        pytest.fail(f"no stickdice binary at {path}: run `cargo build --release --bin stickdice` or set STICKDICE_BIN")
    return path


def random_game(game, rng, max_steps=100_000, visit=None):
    """Plays a random game, sampling throws from the exact probabilities."""
    state = game.new_initial_state()
    for _ in range(max_steps):
        if visit is not None:
            visit(state)
        if state.is_terminal():
            return state
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("the game did not end")


def interrupt(script, *args, after):
    """Runs the Python ``script`` (with ``args``), reads its first line, sends it SIGINT
    ``after`` seconds later, and returns ``(return code, first line, the rest of its
    output, seconds from the signal to its end)``."""
    proc = subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline().strip()
        time.sleep(after)
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        rest = proc.communicate(timeout=60)[0]
        took = time.monotonic() - start
    finally:
        proc.kill()
    return proc.returncode, first, rest, took
