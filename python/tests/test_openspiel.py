"""OpenSpiel: registration, random_sim_test, OpenSpiel's MCTS and evaluate_bots."""

import numpy as np
import pytest

import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

import stickdice
import stickdice.openspiel as so

so.register()

LOADS = [
    ("stickdice_issiren", {}),
    ("stickdice_issiren", {"max_throws": 60}),
    ("stickdice_sig_el_oued", {}),
    ("stickdice_sig_el_oued", {"players": 4, "cairo_always_three": True}),
    ("stickdice_sig_wa_duqqan", {}),
    ("stickdice_sig_wa_duqqan", {"players": 6, "exact_waiting_square": True}),
    ("stickdice_sig_el_oued_capture", {}),
    ("stickdice_sig_el_oued_capture", {"sig_of_twelve_first_turn_only": True, "five_polished_moves_five": True}),
    ("stickdice_siryu_race", {}),
    ("stickdice_siryu_race", {"players": 4, "six_black_moves_six": True, "capture_on_landing": True}),
    ("stickdice_sig_wa_duqqan_houmt_taourit", {}),
    ("stickdice_sig_wa_duqqan_houmt_taourit", {"players": 5, "exact_waiting_square": True, "rank_by_arrival": True}),
    ("stickdice_siryu_war", {}),
]
# Every other registered game (the described games), at its defaults: the list decides, so
# a game added to it is tested here without a line for it.
LOADS += [(name, {}) for name in so.GAMES if name not in {n for n, _ in LOADS}]


def test_every_game_of_the_list_is_registered_and_loaded_here():
    assert set(so.GAMES) == {f"stickdice_{g['name'].replace('-', '_')}" for g in stickdice.games()}
    assert len(so.GAMES) == sum("encode" in g["capabilities"] for g in stickdice.games())
    assert {name for name, _ in LOADS} == set(so.GAMES)


def test_registration_is_idempotent_and_the_game_type_is_as_documented():
    assert so.register() == list(so.GAMES)
    game = pyspiel.load_game("stickdice_sig_el_oued", {"players": 5})
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (t.min_num_players, t.max_num_players) == (2, 8)
    assert game.num_players() == 5
    assert game.max_chance_outcomes() == 7
    assert set(t.parameter_specification) == {"players", "max_throws", "cairo_always_three"}


@pytest.mark.parametrize("name, params", LOADS)
def test_random_sim_test_with_serialization(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_bad_parameters_raise():
    with pytest.raises(Exception, match="exactly 2"):
        pyspiel.load_game("stickdice_issiren", {"players": 3})


def test_observation_tensor_through_openspiel_equals_ours():
    game = pyspiel.load_game("stickdice_issiren")
    state = game.new_initial_state()
    state.apply_action(4)
    ours = so.rust_state(state).observation_tensor()
    assert np.array_equal(np.asarray(state.observation_tensor(0), np.float32), ours)
    assert state.action_to_string(0) == "a1"


@pytest.mark.parametrize("name, params", LOADS)
def test_openspiel_mcts_bot_plays_whole_games(name, params):
    # A throw cap keeps the Python rollouts quick (a capped game still has returns in [0, 1]).
    game = pyspiel.load_game(name, dict(params, max_throws=150))
    evaluator = pyspiel.RandomRolloutEvaluator(1, 3)
    bots = [so.HoldGil(pyspiel.MCTSBot(game, evaluator, 2.0, 20, 50, False, 7 + i, False)) for i in range(game.num_players())]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(5))
    assert len(returns) == game.num_players()
    assert all(0.0 <= r <= 1.0 for r in returns)


def test_our_agents_as_bots_against_openspiel_python_mcts():
    game = pyspiel.load_game("stickdice_issiren", {"max_throws": 200})
    theirs = mcts.MCTSBot(game, 2.0, 10, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), random_state=np.random.RandomState(2))
    ours = so.StickdiceBot(game, "mcts:iterations=100", seed=3, player_id=1)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [theirs, ours], np.random.RandomState(4))
    assert sorted(returns) in ([0.0, 1.0], [0.5, 0.5])
