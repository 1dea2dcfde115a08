"""stickdice.vector: a batch game is the single game of its seed, masks are the legal
actions, auto-reset, the throw cap as truncation, thread-count independence, bad input,
the Gymnasium adapter and the functional pair."""

import os
import subprocess
import sys

import numpy as np
import pytest

import stickdice
from stickdice.vector import IllegalActionError, VectorEnv, functional


def random_actions(mask, rng):
    """A uniformly random legal code per game (0 where the game has ended)."""
    return np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)


def record(env, steps, seed):
    """Steps with random legal actions; the first finished episode of every game: its seed,
    the learner's actions, the rewards and the final observation."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed)
    actions = [[] for _ in range(env.num_envs)]
    done = {}
    for _ in range(steps):
        a = random_actions(info["legal_action_mask"], rng)
        seeds = [env.game_seed(i) for i in range(env.num_envs)]
        for i in np.flatnonzero(info["current_player"] >= 0):
            actions[i].append(int(a[i]))
        obs, rewards, terminated, truncated, info = env.step(a)
        for i in np.flatnonzero(terminated | truncated):
            if i not in done:
                assert info["current_player"][i] == -1
                assert not info["legal_action_mask"][i].any()
                done[i] = (seeds[i], actions[i], rewards[i].copy(), obs[i].copy())
            actions[i] = []
    return done


@pytest.mark.parametrize("opponents", [None, "greedy"])
def test_a_batch_game_is_the_single_game_of_its_seed(opponents):
    env = VectorEnv("issiren", 8, opponents=opponents, max_throws=80)
    game = env.game
    done = record(env, 250, seed=4)
    assert len(done) >= 6
    for i, (seed, actions, rewards, obs) in done.items():
        dice = stickdice.SeededDice(seed)
        agents = {s: stickdice.Agent(spec, game, seed=VectorEnv.opponent_seed(seed, s))
                  for s, spec in enumerate(env.seats) if spec is not None}
        state = game.new_initial_state()
        mine = iter(actions)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(dice.throw(state))
            elif state.current_player() in agents:
                state.apply_action(agents[state.current_player()].step(state))
            else:
                state.apply_action(next(mine))
        assert next(mine, None) is None, f"game {i}: actions left"
        assert np.allclose(state.returns(), rewards), i
        assert np.array_equal(state.observation_tensor(), obs), i


def test_masks_are_the_legal_actions_and_observations_the_tensors():
    env = VectorEnv("siryu-race", 16, players=3, opponents=[None, "random", None])
    obs, info = env.reset(2)
    rng = np.random.default_rng(2)
    for _ in range(60):
        for i in range(env.num_envs):
            state = env.state(i)
            if info["current_player"][i] >= 0:
                assert state.current_player() == info["current_player"][i] != 1
                want = np.zeros(env.num_actions, dtype=bool)
                want[state.legal_actions()] = True
                assert np.array_equal(info["legal_action_mask"][i], want)
            assert np.array_equal(obs[i], state.observation_tensor())
        obs, _, _, _, info = env.step(random_actions(info["legal_action_mask"], rng))


def test_finished_games_restart_at_the_next_step_and_the_cap_truncates():
    env = VectorEnv("issiren", 8, max_throws=30)
    obs, info = env.reset(5)
    rng = np.random.default_rng(5)
    ended = np.zeros(8, dtype=int)
    for _ in range(200):
        was_over = info["current_player"] == -1
        obs, rewards, terminated, truncated, info = env.step(random_actions(info["legal_action_mask"], rng))
        ended += was_over
        assert (info["current_player"][was_over] >= 0).all()
        assert (rewards[was_over] == 0).all()
        over = info["current_player"] == -1
        # No capture ends a game in 30 throws: the cap does, a draw.
        assert truncated[over].all() and not terminated.any()
        assert (rewards[over] == 0.5).all()
    assert (ended >= 3).all()
    assert [env.episode(i) for i in range(8)] == list(ended)


SCRIPT = """
import hashlib, numpy as np
from stickdice.vector import VectorEnv
env = VectorEnv("issiren", 400, opponents="greedy", max_throws=100)
obs, info = env.reset(11)
rng = np.random.default_rng(11)
h = hashlib.sha256()
for _ in range(60):
    a = np.where(info["legal_action_mask"], rng.random(info["legal_action_mask"].shape), -1.0).argmax(1)
    obs, r, te, tr, info = env.step(a)
    for x in (obs, r, te, tr, info["legal_action_mask"], info["current_player"]):
        h.update(x.tobytes())
print(h.hexdigest())
"""


def test_results_do_not_depend_on_the_thread_count():
    digests = set()
    for threads in ("1", "3"):
        env = dict(os.environ, RAYON_NUM_THREADS=threads)
        out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1


def test_bad_input_is_refused_and_leaves_the_batch_unchanged():
    env = VectorEnv("issiren", 6, opponents="random", copy=True)
    twin = VectorEnv("issiren", 6, opponents="random", copy=True)
    obs, info = env.reset(9)
    twin.reset(9)
    good = random_actions(info["legal_action_mask"], np.random.default_rng(9))
    states = [env.state(i).serialize() for i in range(6)]
    with pytest.raises(TypeError):
        env.step(good.astype(np.float32))
    with pytest.raises(ValueError):
        env.step(good[:5])
    with pytest.raises(ValueError):
        env.step(good.reshape(2, 3))
    bad = good.copy()
    bad[3] = 47  # l4: no piece of P1 there at the start
    with pytest.raises(IllegalActionError) as e:
        env.step(bad)
    assert (e.value.index, e.value.seat, e.value.action) == (3, 0, 47)
    assert "game 3" in str(e.value)
    bad[3] = -5
    with pytest.raises(IllegalActionError):
        env.step(bad)
    assert [env.state(i).serialize() for i in range(6)] == states
    got = env.step(good.astype(np.int32))
    want = twin.step(good)
    for a, b in zip(got[:4], want[:4]):
        assert np.array_equal(a, b)


def test_configurations_that_cannot_be_batched_are_refused():
    with pytest.raises(ValueError, match="has no decisions"):
        VectorEnv("sig-wa-duqqan", 4)
    with pytest.raises(ValueError, match="at least one game"):
        VectorEnv("issiren", 0)
    with pytest.raises(ValueError, match="learner"):
        VectorEnv("issiren", 4, opponents=["random", "greedy"])
    with pytest.raises(ValueError, match="P2"):
        VectorEnv("issiren", 4, opponents="nonsense")


def test_the_functional_pair_is_pgx_shaped():
    env = VectorEnv("sig-el-oued", 32, players=2)
    init, step = functional(env)
    state = init(3)
    assert state.observation.shape == (32, env.observation_size)
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(100):
        state = step(state, random_actions(state.legal_action_mask, rng))
        finished += int(state.terminated.sum() + state.truncated.sum())
        assert set(np.unique(state.current_player)) <= {-1, 0, 1}
    assert finished > 0


def test_the_gymnasium_adapter():
    gymnasium = pytest.importorskip("gymnasium")
    from stickdice.vector import GymVectorEnv

    env = GymVectorEnv("issiren", 16, opponents="greedy", max_throws=60)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    assert env.single_action_space.n == 49
    rewards = []
    for _ in range(150):
        mask = info["action_mask"]
        actions = random_actions(mask, np.random.default_rng(len(rewards)))
        assert env.action_space.contains(actions)
        obs, r, terminated, truncated, info = env.step(actions)
        assert env.observation_space.contains(obs) and r.dtype == np.float64
        rewards.append(r)
    assert np.concatenate(rewards).max() <= 1.0
    again, _ = env.reset(seed=1)
    first, _ = GymVectorEnv("issiren", 16, opponents="greedy", max_throws=60).reset(seed=1)
    assert np.array_equal(again, first)
    env.close()


def test_gymnasiums_env_checker_passes_on_the_adapter():
    """Gymnasium's env checker where it applies to a vector environment (its `check_env`
    takes a single `gymnasium.Env`): the space and reset checks as they are, the step
    checks (determinism, returned data not shared) in their vector form with legal
    actions (an action space's unmasked sample is an illegal code in most games, refused
    with IllegalActionError)."""
    pytest.importorskip("gymnasium")
    import warnings

    from gymnasium.utils import env_checker as ec
    from gymnasium.utils import passive_env_checker as pc
    from stickdice.vector import GymVectorEnv

    def make():
        return GymVectorEnv("issiren", 8, opponents="greedy", max_throws=60)

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings fail the test
        env = make()
        for space in (env.action_space, env.single_action_space):
            ec.check_action_space(space)
            ec.check_space_limit(space, "action")
        for space in (env.observation_space, env.single_observation_space):
            ec.check_observation_space(space)
            ec.check_space_limit(space, "observation")
        ec.check_seed_deprecation(env)
        ec.check_reset_return_info_deprecation(env)
        ec.check_reset_return_type(env)
        ec.check_reset_seed_determinism(env)
        ec.check_reset_options(env)
        pc.env_reset_passive_checker(env)

        # Step determinism: the same seed and legal actions give the same step.
        obs, info = env.reset(seed=123)
        actions = random_actions(info["action_mask"], np.random.default_rng(123))
        first = env.step(actions)
        rng = env.np_random.bit_generator.state
        env.reset(seed=123)
        again = env.step(actions)
        assert env.np_random.bit_generator.state == rng
        for a, b in zip(first, again):
            assert ec.data_equivalence(a, b, exact=True)
        assert not first[3].all()
        # Returned data is never shared between calls.
        calls = [env.reset(seed=123)]
        for k in range(2):
            obs, _, _, _, info = env.step(random_actions(calls[-1][1]["action_mask"], np.random.default_rng(k)))
            calls.append((obs, info))
        calls.append(env.reset(seed=123))
        for i, (obs_1, info_1) in enumerate(calls):
            for obs_2, info_2 in calls[i + 1:]:
                assert not ec.data_shares_objects(obs_1, obs_2)
                assert not ec.data_shares_objects(info_1, info_2)
        env.close()


def test_an_ended_game_is_a_log_that_stickdice_replay_replays(tmp_path, cli):
    env = VectorEnv("issiren", 8, opponents="random", max_throws=80, recording=True)
    obs, info = env.reset(3)
    rng = np.random.default_rng(3)
    with pytest.raises(ValueError, match="has not ended"):
        env.record(0)
    with pytest.raises(IndexError):
        env.record(8)
    for _ in range(300):
        obs, rewards, terminated, truncated, info = env.step(random_actions(info["legal_action_mask"], rng))
        ended = np.flatnonzero(terminated | truncated)
        if len(ended):
            break
    i = int(ended[0])
    path = tmp_path / "games.jsonl"
    text = env.record(i, str(path))
    assert path.read_text() == text and len(text.splitlines()) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]  # no temporary left
    with pytest.raises(OSError):
        env.record(i, str(tmp_path / "no-such-folder" / "games.jsonl"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]
    out = subprocess.run([cli, "replay", str(path), "--index", "0", "--quiet"],
                         capture_output=True, text=True, check=True).stdout
    assert "P1: learner" in out and "P2: random" in out
    for seat in range(2):
        assert f"P{seat + 1}: place" in out and f"score {rewards[i, seat]:.3f}" in out
