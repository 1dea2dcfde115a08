"""Agents, the CLI-equality of a seeded game, batches and tournaments."""

import json
import os
import re
import subprocess

import numpy as np
import pytest

import stickdice


def play_like_the_cli(game, specs, seed):
    """Plays `stickdice play --seed seed` from Python: the same dice, agent seeds and hooks."""
    n = game.num_players()
    agents = [stickdice.Agent(specs[s % len(specs)], game, seed=stickdice.derive_seed(seed, [1, s])) for s in range(n)]
    for s, a in enumerate(agents):
        a.new_game(s)
    dice = stickdice.SeededDice(seed)
    state = game.new_initial_state()
    events = []
    while not state.is_terminal():
        if state.is_chance_node():
            seat = state.seat_to_play()
            code = dice.throw(state)
            events.append(("throw", seat, code))
        else:
            seat = state.current_player()
            code = agents[seat].step(state)
            events.append(("action", seat, state.action_to_string(code)))
        for a in agents:
            a.observe(state, code)
        state.apply_action(code)
    return events, state


def parse_cli(out):
    events = []
    for line in out.splitlines():
        m = re.match(r"throw +\d+  P(\d+): .*?\b(no|\d+) \w+ sides? up", line)
        if m:
            marked = 0 if m.group(2) == "no" else int(m.group(2))
            events.append(("throw", int(m.group(1)) - 1, marked))
            continue
        m = re.match(r" +P(\d+) plays (\S+)$", line)
        if m:
            events.append(("action", int(m.group(1)) - 1, m.group(2)))
    m = re.search(r"ranking after (\d+) throws: (.*)", out)
    places = [int(p) - 1 for p in re.findall(r"P\d+: place (\d+)", out)]
    return events, int(m.group(1)), m.group(2).strip(), places


@pytest.mark.parametrize(
    "name, players, options, specs, seed",
    [
        ("issiren", 2, [], ["mcts:iterations=200", "greedy"], 5),
        ("issiren", 2, ["max_throws=300"], ["expectimax:depth=2", "random"], 9),
        ("sig-el-oued", 3, [], ["mcts:iterations=100", "random", "greedy"], 3),
        ("sig-wa-duqqan", 4, [], ["random"], 12),
    ],
)
def test_a_seeded_game_through_python_equals_the_cli(cli, name, players, options, specs, seed):
    cmd = [cli, "play", "--game", name, "--players", str(players), "--seed", str(seed), "--quiet", "--agents", ",".join(specs)]
    for o in options:
        cmd += ["--option", o]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    cli_events, cli_throws, cli_ranking, cli_places = parse_cli(out)
    opts = dict(o.split("=") for o in options)
    game = stickdice.load_game(name, players=players, **opts)
    events, end = play_like_the_cli(game, specs, seed)
    assert len(events) > 10
    assert events == cli_events
    assert end.throws_made() == cli_throws
    assert end.ranking_text() == cli_ranking
    assert end.ranking() == cli_places


def test_every_cli_agent_spec_plays_and_analyses():
    game = stickdice.load_game("issiren", max_throws=200)
    state = game.new_initial_state()
    state.apply_action(4)
    for spec in ["random", "greedy", "expectimax:depth=2", "mcts:iterations=100", "ismcts:iterations=100"]:
        agent = stickdice.Agent(spec, game, seed=1)
        assert agent.step(state) in state.legal_actions()
    state.apply_action(0)
    state.apply_action(4)  # a second release throw: a1 steps on or b1 is released
    assert len(state.legal_actions()) == 2
    mcts = stickdice.Agent("mcts:iterations=300", game, seed=1)
    records = mcts.analysis(state)
    assert records and {r["action"] for r in records} <= set(state.legal_actions())
    assert all(0.0 <= r["value"] <= 1.0 for r in records)
    assert sum(r["visits"] for r in records) > 0


def test_bad_agents_raise_value_errors():
    game = stickdice.load_game("issiren")
    with pytest.raises(ValueError, match="unknown agent"):
        stickdice.Agent("alphago", game)
    with pytest.raises(ValueError, match="iterations"):
        stickdice.Agent("mcts:iterations=lots", game)
    with pytest.raises(ValueError):
        stickdice.Agent("perfect", game)  # Issiren is not solved
    with pytest.raises(TypeError, match="an agent is a spec"):
        stickdice.Agent(3, game)
    agent = stickdice.Agent("random", game)
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="throw"):
        agent.step(state)  # a throw is due, not a decision
    other = stickdice.load_game("sig-el-oued").new_initial_state()
    with pytest.raises(ValueError, match="Sig"):
        agent.observe(other, 1)


def test_a_callable_is_an_agent():
    game = stickdice.load_game("issiren", max_throws=200)
    first = stickdice.Agent(lambda s: s.legal_actions()[0], game)
    state = game.new_initial_state()
    state.apply_action(4)
    assert first.step(state) == 0
    bad = stickdice.Agent(lambda s: 47, game)
    with pytest.raises(ValueError, match="not a legal action"):
        bad.step(state)
    with pytest.raises(ValueError, match="throw"):
        first.step(game.new_initial_state())


def test_play_random_is_reproducible_whatever_the_thread_count():
    game = stickdice.load_game("sig-el-oued", players=3)
    a = stickdice.play_random(game, 500, seed=4, threads=1)
    b = stickdice.play_random(game, 500, seed=4, threads=2)
    for k in ("throws", "places", "scores"):
        assert np.array_equal(a[k], b[k])
    assert a["places"].shape == (500, 3) and a["throws"].dtype == np.uint32
    assert np.allclose(a["scores"].sum(axis=1), 1.5)  # n/2 points shared in every game
    with pytest.raises(ValueError, match="threads"):
        stickdice.play_random(game, 10, threads=0)


def test_a_tournament_equals_the_cli_report(cli, tmp_path):
    game = stickdice.load_game("issiren", max_throws=400)
    specs = ["random", "greedy", "mcts:iterations=50"]
    out = tmp_path / "py"
    report = stickdice.tournament(game, specs, games=6, seed=3, threads=2, out=str(out))
    memory = stickdice.tournament(game, specs, games=6, seed=3, threads=1)
    subprocess.run(
        [cli, "tournament", "--game", "issiren", "--option", "max_throws=400", "--agents", ",".join(specs),
         "--games", "6", "--seed", "3", "--threads", "2", "--out", str(tmp_path / "cli")],
        capture_output=True, text=True, check=True,
    )
    cli_report = json.loads((tmp_path / "cli" / "report.json").read_text())
    py_file = json.loads((out / "report.json").read_text())
    for key in ("standings", "pairwise", "seats", "first_seat_elo", "length", "games", "tournament"):
        assert report[key] == cli_report[key], key
        assert memory[key] == cli_report[key], key
        assert py_file[key] == cli_report[key], key
    for name in ("report.md", "standings.csv", "ratings.svg"):
        assert (out / name).read_text() == (tmp_path / "cli" / name).read_text(), name
    assert report["standings_table"].startswith("rank")
    # The labels are the specs as the CLI resolves them (an Issiren searcher given no
    # tablebase is labelled with the default, tablebase=off), the same from Python.
    labels = {s["agent"] for s in cli_report["standings"]}
    assert set(report["seconds_per_game"]) == labels
    assert {"random", "greedy"} < labels
    assert "mcts:iterations=50,tablebase=off" in labels


def test_a_tournament_with_a_python_callable_runs_on_one_thread():
    game = stickdice.load_game("issiren", max_throws=200)
    calls = []

    def first_legal(state):
        calls.append(1)
        return state.legal_actions()[0]

    report = stickdice.tournament(game, ["random", first_legal], games=4, seed=1, threads=2)
    assert report["threads"] == 1
    assert report["games"] == 4 and calls
    assert {s["agent"] for s in report["standings"]} == {"random", "python:first_legal"}
    assert report["failures"] == []


def test_a_failing_python_agent_loses_its_games_without_crashing():
    game = stickdice.load_game("issiren", max_throws=200)

    def broken(state):
        raise RuntimeError("boom")

    report = stickdice.tournament(game, ["random", broken], games=2, seed=1)
    assert len(report["failures"]) == 2
    assert "boom" in report["failures"][0]["message"]


def test_bad_tournaments_raise_value_errors():
    game = stickdice.load_game("issiren")
    with pytest.raises(ValueError, match="unknown agent"):
        stickdice.tournament(game, ["random", "nobody"], games=2)
    with pytest.raises(ValueError, match="format"):
        stickdice.tournament(game, ["random", "greedy"], games=2, format="swiss")
    with pytest.raises(ValueError):
        stickdice.tournament(game, ["random"], games=2)
    with pytest.raises(ValueError, match="threads"):
        stickdice.tournament(game, ["random", "greedy"], games=2, threads=0)


INTERRUPTED = """
import sys, stickdice
game = stickdice.load_game("issiren")
out = sys.argv[1] if len(sys.argv) > 1 else None
print("started", flush=True)
try:
    stickdice.tournament(game, ["mcts:iterations=3000", "greedy"], games=100000, threads=2, out=out,
                         progress=lambda done, total: print("game", done, flush=True) if done == 1 else None)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


@pytest.mark.parametrize("to_folder", [False, True])
def test_ctrl_c_stops_a_tournament_cleanly(tmp_path, to_folder):
    import signal
    import sys
    import time

    args = [sys.executable, "-c", INTERRUPTED] + ([str(tmp_path / "out")] if to_folder else [])
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "started"
        assert proc.stdout.readline().strip() == "game 1"  # the games are running
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        rest = proc.communicate(timeout=60)[0]
    finally:
        proc.kill()
    assert proc.returncode == 3, rest
    assert "interrupted" in rest
    assert time.monotonic() - start < 30
    if to_folder:
        lines = (tmp_path / "out" / "games.jsonl").read_text().splitlines()
        assert lines, "the log holds the games played before the stop"
        for line in lines:
            json.loads(line)  # every line written whole


def test_one_agent_shared_by_python_threads_neither_deadlocks_nor_breaks():
    import threading

    game = stickdice.load_game("issiren")
    agent = stickdice.Agent("mcts:iterations=2000", game, seed=1)
    state = game.new_initial_state()
    for code in (4, 0, 4):
        state.apply_action(code)
    answers, errors = [], []

    def work():
        try:
            for _ in range(4):
                answers.append(agent.step(state))
                agent.analysis()
                agent.new_game(0)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "deadlock"
    assert not errors
    assert len(answers) == 12 and set(answers) <= set(state.legal_actions())
