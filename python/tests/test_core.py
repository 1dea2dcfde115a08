"""The core API: games, states, notation, serialization, observations, bad input."""

import copy
import pickle
import random

import numpy as np
import pytest

import stickdice
from conftest import CONFIGS, REPO, config_id, random_game


def test_games_lists_every_game_with_options_defaults_and_help():
    games = {g["name"]: g for g in stickdice.games()}
    # Every game of the list; a description added since comes on top of these.
    assert set(games) >= {
        "sig-wa-duqqan",
        "sig-el-oued",
        "issiren",
        "sig-el-oued-capture",
        "siryu-race",
        "sig-wa-duqqan-houmt-taourit",
        "siryu-war",
        "sig-mzab",
        "sig-tozeur",
        "kioz",
        "tab",
        "sijat-el-taba",
        "es-sig",
        "sig-western-sahara",
    }
    assert (games["issiren"]["min_players"], games["issiren"]["max_players"]) == (2, 2)
    assert (games["sig-wa-duqqan"]["min_players"], games["sig-wa-duqqan"]["max_players"]) == (2, 8)
    # Sig (Western Sahara) is played by four unless told otherwise (two or four).
    assert games["sig-western-sahara"]["default_players"] == 4
    assert stickdice.load_game("sig-western-sahara").num_players() == 4
    assert games["issiren"]["default_players"] == 2
    with pytest.raises(ValueError, match="2 or 4 players, not 3"):
        stickdice.load_game("sig-western-sahara", players=3)
    opts = {o["name"]: o for o in games["sig-el-oued"]["options"]}
    assert opts["max_throws"]["default"] == "10000"
    assert opts["max_throws"]["type"] == "int"
    assert opts["max_throws"]["allowed"] == "a whole number from 1 to 4294967295"
    assert opts["cairo_always_three"]["default"] == "false"
    assert opts["cairo_always_three"]["type"] == "bool"
    tab = {o["name"]: o for o in games["tab"]["options"]}
    assert tab["columns"]["allowed"] == "one of 7, 9, 11, 13, 15"
    assert tab["columns"]["help"].startswith("the number of columns")
    for g in games.values():
        for o in g["options"]:
            assert o["help"], (g["name"], o["name"])
            assert o["type"] in ("bool", "int"), (g["name"], o["name"])


def test_agents_lists_every_cli_agent():
    names = {a["name"] for a in stickdice.agents()}
    assert {"random", "greedy", "expectimax", "mcts", "ismcts", "perfect"} <= names


def every_config():
    """Every game x seat count x rule option (each option away from its default once)."""
    for g in stickdice.games():
        variants = [{}]
        for o in g["options"]:
            if o["type"] == "bool":
                variants.append({o["name"]: o["default"] == "false"})
            else:
                variants.append({o["name"]: 50})
        for players in range(g["min_players"], g["max_players"] + 1):
            for v in variants:
                # A value or seat count the game refuses inside its range (a board of
                # 50 columns; Sig (Western Sahara) takes 2 or 4 seats) is left out.
                try:
                    stickdice.load_game(g["name"], players=players, **v)
                except ValueError:
                    continue
                yield (g["name"], players, v)


@pytest.mark.parametrize("config", list(every_config()), ids=config_id)
def test_chance_probabilities_sum_to_one_at_every_chance_node(config):
    name, players, opts = config
    game = stickdice.load_game(name, players=players, **opts)
    rng = random.Random(7)
    nodes = 0

    def visit(state):
        nonlocal nodes
        if state.is_chance_node():
            nodes += 1
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1.0  # dyadic: exact in a float
            assert all(p > 0 for _, p in outcomes)
            assert [a for a, _ in outcomes] == state.legal_actions()
            assert state.current_player() == stickdice.CHANCE

    for _ in range(5):
        end = random_game(game, rng, visit=visit)
        assert end.current_player() == stickdice.TERMINAL
        assert len(end.returns()) == players
        assert sorted(end.ranking())[0] == 0
    assert nodes > 0


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_notation_serialization_clone_and_observation_agree_with_the_core(config):
    name, players, opts = config
    game = stickdice.load_game(name, players=players, **opts)
    rng = random.Random(11)
    shape = tuple(game.observation_tensor_shape())

    def visit(state):
        obs = state.observation_tensor()
        assert obs.dtype == np.float32 and obs.shape == shape
        assert ((0 <= obs) & (obs <= 1)).all()
        again = game.deserialize_state(state.serialize())
        assert again == state and str(again) == str(state)
        assert pickle.loads(pickle.dumps(state)) == state
        assert copy.deepcopy(state) == state and state.clone() == state
        for a in state.legal_actions():
            text = state.action_to_string(a)
            assert state.string_to_action(text) == a
            if state.is_player_node():
                assert game.action_to_string(a) == text
        if state.is_player_node():
            mask = state.legal_actions_mask()
            assert mask.dtype == np.int8 and len(mask) == game.num_distinct_actions()
            assert list(np.flatnonzero(mask)) == sorted(state.legal_actions())

    random_game(game, rng, visit=visit)


def test_issiren_action_codes_are_squares_and_pass():
    game = stickdice.load_game("issiren")
    assert game.num_distinct_actions() == 49
    assert game.action_to_string(0) == "a1"
    assert game.action_to_string(11) == "l1"
    assert game.action_to_string(12) == "a2"
    assert game.action_to_string(47) == "l4"
    assert game.action_to_string(48) == "pass"
    state = game.new_initial_state()
    state.apply_action(4)  # four green sides: only the front piece, a1, can be released
    assert state.legal_actions() == [0]
    assert state.action_to_string(0) == "a1"
    assert state.string_to_action(" A1 ") == 0


def test_a_state_prints_the_board_and_returns_are_zero_before_the_end():
    game = stickdice.load_game("issiren")
    state = game.new_initial_state()
    assert "P1's home row" in str(state)
    assert state.returns() == [0.0, 0.0]
    assert state.ranking() is None


def test_load_game_takes_typed_options_and_the_game_pickles():
    game = stickdice.load_game("sig-el-oued", players=4, max_throws=77, cairo_always_three=True)
    assert dict(game.options()) == {"max_throws": "77", "cairo_always_three": "true"}
    assert game.num_players() == 4
    assert pickle.loads(pickle.dumps(game)) == game
    assert stickdice.load_game("sig-el-oued", players=4, max_throws="77", cairo_always_three="yes") == game


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (("chess",), {}, "unknown game `chess`"),
        (("issiren",), {"players": 3}, "exactly 2"),
        (("sig-wa-duqqan",), {"players": 9}, "2 to 8"),
        (("sig-wa-duqqan",), {"players": -1}, "positive"),
        (("sig-el-oued",), {"colour": "red"}, "no rule option `colour`"),
        (("issiren",), {"max_throws": 0}, "max_throws"),
        (("issiren",), {"max_throws": "many"}, "max_throws"),
        (("sig-el-oued",), {"cairo_always_three": "perhaps"}, "true or false"),
        (("issiren",), {"max_throws": 5, " max_throws": 6}, "`max_throws` is given twice"),
    ],
)
def test_bad_games_raise_value_errors_naming_the_problem(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        stickdice.load_game(*args, **kwargs)


def test_a_repeated_option_is_refused_not_last_wins():
    with pytest.raises(ValueError, match="rule option `max_throws` is given twice"):
        stickdice._stickdice._load_game_from_options("issiren", 2, ["max_throws=1", "max_throws=2"])


def test_mistyped_game_arguments_raise_type_errors():
    with pytest.raises(TypeError, match="players must be an int"):
        stickdice.load_game("issiren", players="two")
    with pytest.raises(TypeError, match="rule option `max_throws`"):
        stickdice.load_game("issiren", max_throws=1.5)


def test_illegal_and_mistyped_actions_raise_and_leave_the_state_unchanged():
    game = stickdice.load_game("issiren")
    state = game.new_initial_state()
    before = state.serialize()
    for bad in (7, -1, 2**70):
        with pytest.raises((ValueError, OverflowError, TypeError)):
            state.apply_action(bad)
        assert state.serialize() == before
    with pytest.raises(ValueError, match="throw 7"):
        state.apply_action(7)
    for bad in ("1", 1.0, None, True):
        with pytest.raises(TypeError, match="an action is an int"):
            state.apply_action(bad)
        assert state.serialize() == before
    state.apply_action(4)
    before = state.serialize()
    with pytest.raises(ValueError, match=r"action 5 \(f1\).*not a legal action.*a1"):
        state.apply_action(5)
    with pytest.raises(ValueError, match="not an action of Issiren"):
        state.apply_action(49)
    assert state.serialize() == before
    with pytest.raises(ValueError, match="is not an action"):
        state.string_to_action("z9")
    with pytest.raises(ValueError):
        state.action_to_string(99)
    assert state.serialize() == before


def test_actions_at_the_end_are_refused():
    game = stickdice.load_game("issiren", max_throws=3)
    end = random_game(game, random.Random(1))
    with pytest.raises(ValueError, match="the game is over"):
        end.apply_action(0)


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "malformed"),
        ("{", "malformed"),
        ('{"pieces": [[], []], "turn": 0, "pending": null, "throws": 0, "extra": 1}', "unknown field"),
        ('{"pieces": [[{"pos": 99}], []], "turn": 0, "pending": null, "throws": 0}', "invalid state"),
        ('{"pieces": [[{"pos": 3}, {"pos": 3}], []], "turn": 0, "pending": null, "throws": 0}', "invalid state"),
        ('{"pieces": [[], []], "turn": 5, "pending": null, "throws": 0}', "invalid state"),
    ],
)
def test_damaged_serialized_states_raise_value_errors(text, message):
    game = stickdice.load_game("issiren")
    with pytest.raises(ValueError, match=message):
        game.deserialize_state(text)


def test_a_state_of_another_game_is_refused():
    issiren = stickdice.load_game("issiren")
    sig = stickdice.load_game("sig-el-oued")
    with pytest.raises(ValueError):
        sig.deserialize_state(issiren.new_initial_state().serialize())


def test_the_version_is_the_crates():
    import importlib.metadata
    import tomllib

    workspace = tomllib.loads((REPO / "Cargo.toml").read_text())["workspace"]["package"]
    assert stickdice.__version__ == workspace["version"]
    # The installed distribution (the wheel's metadata) says the same.
    assert importlib.metadata.version("stickdice") == stickdice.__version__


def test_every_game_plays_by_notation_as_by_codes():
    """Notation (legal_action_strings, apply_action_string, Agent.step_string) is the way
    for every game, and the way for a game without action codes (no `encode`): the same
    game move for move as by codes where the game has them; without them, codes and
    tensors raise MissingCapability naming the game and `encode`."""
    for info in stickdice.games():
        game = stickdice.load_game(info["name"], players=info["min_players"])
        encoded = "encode" in game.capabilities
        assert encoded == (info["num_distinct_actions"] is not None)
        assert info["capabilities"] == game.capabilities
        by_text = game.new_initial_state()
        by_code = game.new_initial_state()
        dice = stickdice.SeededDice(5)
        agent = stickdice.Agent("random", game, seed=2)
        steps = 0
        while not by_text.is_terminal():
            texts = by_text.legal_action_strings()
            if by_text.is_chance_node():
                text = str(dice.throw(by_text))
                assert texts == [str(k) for k in range(len(texts))]
            else:
                text = agent.step_string(by_text)
                if not encoded:
                    with pytest.raises(stickdice.MissingCapability, match=f"{game.title}.*`encode`"):
                        by_text.legal_actions()
            assert text in texts
            if encoded:
                assert texts == [by_code.action_to_string(c) for c in by_code.legal_actions()]
                by_code.apply_action(by_code.string_to_action(text))
            before = by_text.clone()
            with pytest.raises(ValueError):
                by_text.apply_action_string("not-a-move")
            assert by_text == before
            by_text.apply_action_string(text)
            if encoded:
                assert by_text == by_code
            steps += 1
        assert steps > 1 and by_text.legal_action_strings() == []
        if not encoded:
            for call in (game.num_distinct_actions, game.observation_tensor_shape, by_text.observation_tensor):
                with pytest.raises(stickdice.MissingCapability, match="`encode` capability"):
                    call()
    assert issubclass(stickdice.MissingCapability, NotImplementedError)


def test_a_callable_may_answer_in_notation():
    game = stickdice.load_game("issiren", max_throws=200)
    state = game.new_initial_state()
    state.apply_action(4)
    first = stickdice.Agent(lambda s: s.legal_action_strings()[0], game)
    assert first.step_string(state) == state.legal_action_strings()[0]
    assert first.step(state) == state.legal_actions()[0]
    bad = stickdice.Agent(lambda s: "l4", game)
    with pytest.raises(ValueError, match="chose badly"):
        bad.step_string(state)
    report = stickdice.tournament(
        game, ["random", lambda s: s.legal_action_strings()[-1]], games=2, seed=3
    )
    assert report["played"] == 2


TAB_TEXT = (REPO / "src" / "described" / "games" / "tab.toml").read_text()
MY_TAB = TAB_TEXT.replace('name = "tab"', 'name = "my-tab"')


def _play_by_notation(game, seed):
    """Plays a game to its end: seeded engine throws, a seeded random legal action."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(100_000):
        if state.is_terminal():
            return state
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action_string(rng.choice(state.legal_action_strings()))
    raise AssertionError("the game did not end")


def test_load_game_plays_a_description_from_its_path_or_its_text(tmp_path):
    path = tmp_path / "my-tab.toml"
    path.write_text(MY_TAB)
    named = stickdice.load_game("tab", players=2, max_throws=300)
    for source in (path, str(path), MY_TAB):
        game = stickdice.load_game(source, players=2, max_throws=300)
        assert game.name == "my-tab" and game.title == "Tab"
        assert game.description_text == MY_TAB and len(game.description_digest) > 8
        assert dict(game.options())["max_throws"] == "300"
        # The same rules as the game of the list, throw for throw and move for move.
        a, b = _play_by_notation(game, 5), _play_by_notation(named, 5)
        assert a.is_terminal() and a.returns() == b.returns() and str(a) == str(b)
        assert a.get_game() == game
    # The helpers that play a game of the list play it: random playouts, tournaments,
    # pickling; the codes and tensors are missing (no `encode` capability).
    r, s = stickdice.play_random(game, 40, seed=2), stickdice.play_random(named, 40, seed=2)
    np.testing.assert_array_equal(r["places"], s["places"])
    np.testing.assert_array_equal(r["throws"], s["throws"])
    report = stickdice.tournament(game, ["random", "greedy"], games=4, seed=3)
    assert report["played"] == 4 and report["standings"]
    assert pickle.loads(pickle.dumps(game)) == game
    state = _play_by_notation(game, 6)
    assert pickle.loads(pickle.dumps(state)).serialize() == state.serialize()
    assert "encode" not in game.capabilities
    with pytest.raises(stickdice.MissingCapability):
        game.num_distinct_actions()
    # A default seat count, and the process's game-file slot untouched by the loads.
    assert stickdice.load_game(MY_TAB).num_players() == 2
    with pytest.raises(ValueError, match="load_game"):
        stickdice.load_game("game-file")


def test_load_game_names_the_line_and_the_field_of_a_bad_description(tmp_path):
    unknown = MY_TAB.replace("rows = 4\n", "rows = 4\ncolums = 7\n", 1)
    line = unknown.splitlines().index("colums = 7") + 1
    with pytest.raises(ValueError, match=rf"<description>:{line}:.*did you mean `columns`"):
        stickdice.load_game(unknown)
    wrong = MY_TAB.replace("sticks = 4", 'sticks = "four"', 1)
    line = wrong.splitlines().index('sticks = "four"') + 1
    path = tmp_path / "bad.toml"
    path.write_text(wrong)
    with pytest.raises(ValueError, match=rf"bad\.toml:{line}:\d+: field `throws\.sticks`"):
        stickdice.load_game(path)
    with pytest.raises(ValueError, match="players"):
        stickdice.load_game(MY_TAB, players=5)
    with pytest.raises(FileNotFoundError, match="nowhere.toml"):
        stickdice.load_game(tmp_path / "nowhere.toml")
    with pytest.raises(ValueError, match="unknown game"):
        stickdice.load_game("no-such-game")
    with pytest.raises(TypeError, match="description"):
        stickdice.load_game(12)
