"""Hostile counts, Ctrl-C during a search and failing callbacks (issue 25, items 11 to 14)."""

import json

import pytest

import stickdice
from conftest import interrupt


def test_play_random_refuses_more_games_than_the_cli_allows():
    game = stickdice.load_game("issiren")
    # 10**12 games asked for 4 TB up front and aborted the interpreter.
    with pytest.raises(ValueError, match="more than the limit of 1000000"):
        stickdice.play_random(game, 10**12)
    with pytest.raises(ValueError, match="more than the limit"):
        stickdice.play_random(game, 1_000_001)
    with pytest.raises(ValueError, match="at least 0"):
        stickdice.play_random(game, -1)
    assert len(stickdice.play_random(game, 3)["throws"]) == 3


def test_play_random_caps_threads_as_the_cli_does():
    game = stickdice.load_game("sig-wa-duqqan")
    # threads=10000 started 1 559 threads in 10 s; 10**6 hung.
    for threads in (257, 10_000, 10**6):
        with pytest.raises(ValueError, match="threads .* more than the limit of 256"):
            stickdice.play_random(game, 10, threads=threads)
    with pytest.raises(ValueError, match="at least 1"):
        stickdice.play_random(game, 10, threads=0)
    a = stickdice.play_random(game, 50, seed=3, threads=256)
    b = stickdice.play_random(game, 50, seed=3, threads=1)
    assert (a["places"] == b["places"]).all()


SEARCH = """
import sys, time, stickdice
game = stickdice.load_game("issiren")
agent = stickdice.Agent(sys.argv[1], game, seed=1)
state = game.new_initial_state()
for code in (4, 0, 4):
    state.apply_action(code)
print("searching", flush=True)
try:
    agent.step(state)
except KeyboardInterrupt:
    start = time.monotonic()
    print("interrupted", flush=True)
    # The agent is usable afterwards.
    quick = stickdice.Agent("mcts:iterations=50", game, seed=1)
    assert quick.step(state) in state.legal_actions()
    sys.exit(3)
print("finished", flush=True)
"""


@pytest.mark.parametrize("spec", ["mcts:iterations=1000000000000000", "expectimax:depth=64", "ismcts:iterations=1000000000000000"])
def test_ctrl_c_stops_a_search(spec):
    code, first, rest, took = interrupt(SEARCH, spec, after=0.5)  # inside the search
    assert first == "searching"
    assert code == 3, rest
    assert "interrupted" in rest
    # About a second on an idle machine (polled every 50 ms); generous under load.
    assert took < 10, took


def test_a_failing_progress_callback_stops_the_tournament_with_its_exception():
    game = stickdice.load_game("issiren", max_throws=200)
    calls = []

    def progress(done, total):
        calls.append(done)
        if done >= 3:
            raise ZeroDivisionError("progress broke")

    with pytest.raises(ZeroDivisionError, match="progress broke"):
        stickdice.tournament(game, ["random", "greedy"], games=400, seed=1, threads=2, progress=progress)
    assert calls and max(calls) < 400


def test_a_progress_that_is_not_callable_is_a_type_error_before_any_game(tmp_path):
    game = stickdice.load_game("issiren")
    with pytest.raises(TypeError, match="progress"):
        stickdice.tournament(game, ["random", "greedy"], games=2, progress=5, out=str(tmp_path / "out"))
    assert not (tmp_path / "out" / "games.jsonl").exists()


@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit])
def test_keyboard_interrupt_or_system_exit_in_a_python_agent_stops_the_tournament(tmp_path, exc):
    game = stickdice.load_game("issiren", max_throws=200)
    calls = []

    def agent(state):
        calls.append(1)
        if len(calls) == 30:
            raise exc()
        return state.legal_actions()[0]

    out = tmp_path / "out"
    with pytest.raises(exc):
        stickdice.tournament(game, ["random", agent], games=40, seed=1, out=str(out))
    # The interrupted game is not recorded as the agent's failure; the games before it are.
    lines = (out / "games.jsonl").read_text().splitlines()
    games = [json.loads(line) for line in lines[1:]]
    assert all(g.get("failure") is None for g in games), games
    assert len(games) < 40
    # The run resumes and finishes.
    report = stickdice.tournament(game, ["random", lambda s: s.legal_actions()[0]], games=40, seed=1, out=str(tmp_path / "other"))
    assert report["failures"] == []
