"""The newer surfaces against a careless or hostile caller (docs/performance/hardening.md):
stickdice.vector's sizes past the memory, copies that would share the games, action codes
past int64 and threads stepping one batch; stickdice.compare's sizes and repeats."""

import copy
import pickle
import threading

import numpy as np
import pytest

import stickdice
from conftest import interrupt
from stickdice.vector import VectorEnv


@pytest.mark.parametrize("n", [10**17, 10**12, 2**20 + 1])
def test_a_batch_past_the_memory_is_a_value_error_not_an_abort(n):
    # Before: a PanicException (capacity overflow) or the process aborted, out of memory.
    with pytest.raises(ValueError, match="too large"):
        VectorEnv("issiren", n, opponents="random")


def test_num_envs_is_a_whole_number():
    with pytest.raises(TypeError):
        VectorEnv("issiren", 2.5)  # before: 2 games, silently
    with pytest.raises(OverflowError):
        VectorEnv("issiren", -1)
    assert VectorEnv("issiren", np.int64(3)).num_envs == 3


def test_copies_and_pickles_are_refused_with_a_reason():
    env = VectorEnv("siryu-war", 4, opponents="random")
    env.reset(1)
    # Before: copy.copy gave a second env sharing the games (stepping one stepped both).
    for make in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="cannot be copied or pickled"):
            make(env)


def test_unsigned_codes_past_int64_are_refused_not_wrapped():
    env = VectorEnv("issiren", 4, opponents="random")
    obs, info = env.reset(2)
    good = np.where(info["legal_action_mask"], 1.0, -1.0).argmax(axis=1)
    states = [env.state(i).serialize() for i in range(4)]
    big = good.astype(np.uint64)
    big[1] += np.uint64(2**63)
    # Before: wrapped to a negative code, named so in the error.
    with pytest.raises(ValueError, match=str(int(big[1]))):
        env.step(big)
    assert [env.state(i).serialize() for i in range(4)] == states
    env.step(good.astype(np.uint8))


def test_threads_stepping_one_batch_get_an_error_and_the_batch_stays_whole():
    # The step releases the GIL: a second thread's step is refused while one runs, and
    # the batch goes on as if only the steps that ran had been asked.
    env = VectorEnv("issiren", 512, opponents="random")
    env.reset(3)
    outcomes = []

    def work(k):
        rng = np.random.default_rng(k)
        for _ in range(20):
            mask = env._mask.copy()
            try:
                env.step(np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1))
                outcomes.append("stepped")
            except RuntimeError:
                outcomes.append("refused")
            except ValueError:  # an action chosen from a mask another thread's step replaced
                outcomes.append("illegal")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(outcomes) == 60 and "stepped" in outcomes
    mask = env._mask.copy()
    env.step(np.where(mask, 1.0, -1.0).argmax(axis=1))


def test_compare_refuses_sizes_past_the_limits_and_repeats_before_any_game():
    small = dict(games=4, trace=["random"], luck_games=0, detailed=0, metrics=["SkillTrace"])
    # Before: the process aborted ("memory allocation of 32000000000000000 bytes failed").
    with pytest.raises(ValueError, match="more than the limit"):
        stickdice.compare(["siryu-war"], **dict(small, trace_rotations=10**15))
    with pytest.raises(ValueError, match="configuration 2"):
        stickdice.compare(["siryu-war", {"game": "siryu-war", "players": 2}], **small)


COMPARING = """
import sys, stickdice
print("comparing", flush=True)
try:
    stickdice.compare(["issiren"], games=1000000, trace=[], detailed=0, luck_games=0, metrics=["Balance"])
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


def test_ctrl_c_stops_a_comparison():
    # Before: the comparison ran on with the GIL released; Ctrl-C waited for its end
    # (a million Issiren games: minutes).
    code, first, rest, took = interrupt(COMPARING, after=1.0)  # inside the games
    assert first == "comparing"
    assert code == 3, rest
    assert "interrupted" in rest
    # About a second on an idle machine; generous under load.
    assert took < 10, took


BUILDING = """
import sys, stickdice
game = stickdice.load_game("issiren")
print("building", flush=True)
try:
    stickdice.Agent("expectimax:depth=1,tablebase=build", game, seed=1)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


def test_ctrl_c_stops_an_agent_building_the_tablebase():
    # Issue 39: before, the build (minutes on a busy machine) ignored SIGINT; still
    # running 5 minutes after it.
    code, first, rest, took = interrupt(BUILDING, after=1.0)  # inside the build
    assert first == "building"
    assert code == 3, rest
    assert "interrupted" in rest
    # About a second on an idle machine (polled every 50 ms); generous under load.
    assert took < 10, took


def _ended_game():
    env = VectorEnv("issiren", 4, opponents="random", max_throws=60, recording=True)
    _, info = env.reset(5)
    rng = np.random.default_rng(5)
    for _ in range(300):
        mask = info["legal_action_mask"]
        _, _, terminated, truncated, info = env.step(np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1))
        ended = np.flatnonzero(terminated | truncated)
        if len(ended):
            return env, int(ended[0])
    raise AssertionError("no game ended")


def test_record_writes_only_regular_files_outside_a_running_tournament(tmp_path, cli):
    # Issue 39: `record(i, path)` renamed a file over whatever `path` was (as root it
    # turned /dev/full into a regular file) and replaced a running tournament's log.
    env, i = _ended_game()
    with pytest.raises(OSError, match="not a regular file"):
        env.record(i, str(tmp_path))
    import os
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        env.record(i, str(fifo))
    assert fifo.is_fifo()
    # A folder whose lock a run holds (here a tournament in progress).
    t = tmp_path / "t"
    t.mkdir()
    log = t / "games.jsonl"
    log.write_text("the running tournament's log\n")
    import fcntl
    with open(t / ".stickdice.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(OSError, match="in use by another stickdice run"):
            env.record(i, str(log))
    assert log.read_text() == "the running tournament's log\n"
    # Free again: written whole, nothing left beside it but the log.
    (t / ".stickdice.lock").unlink()
    text = env.record(i, str(log))
    assert log.read_text() == text
    assert sorted(p.name for p in t.iterdir()) == ["games.jsonl"]
