"""The stickdice games as OpenSpiel Python games, and our agents as ``pyspiel.Bot``.

::

    import pyspiel
    import stickdice.openspiel
    stickdice.openspiel.register()
    game = pyspiel.load_game("stickdice_issiren", {"max_throws": 500})
    bot = stickdice.openspiel.StickdiceBot(game, "mcts:iterations=1000", seed=1)

Registered games: every game of ``stickdice.games()`` with the ``encode`` capability (see
:data:`GAMES`), as ``stickdice_`` and its name with ``_`` for ``-``: ``stickdice_issiren``,
``stickdice_sig_el_oued``, ``stickdice_sig_wa_duqqan``, ``stickdice_sig_el_oued_capture``,
``stickdice_siryu_race``, ``stickdice_sig_wa_duqqan_houmt_taourit``,
``stickdice_siryu_war``. Game type: sequential, explicit stochastic chance (a chance
outcome is the number of marked sides up, with its exact probability), perfect
information, general-sum returns (each seat's score: the fraction of the other seats it
ranks above, ties counting half, so returns lie in [0, 1]), terminal rewards. Game
parameters: ``players`` and the game's rule options (see ``stickdice.games()``).

Every rule, action list and score comes from the Rust core through :mod:`stickdice`; the
classes here only adapt signatures. Requires ``open_spiel`` (``pip install open_spiel``).
"""

from __future__ import annotations

from typing import Dict, List, Optional

import numpy as np
import pyspiel

import stickdice

__all__ = ["GAMES", "register", "StickdiceBot", "HoldGil", "rust_state"]

#: OpenSpiel short name -> stickdice game name, for every game of the list with action
#: codes and observation tensors (the ``encode`` capability).
GAMES: Dict[str, str] = {
    f"stickdice_{g['name'].replace('-', '_')}": g["name"]
    for g in stickdice.games()
    if "encode" in g["capabilities"]
}


def require_encoding(game: stickdice.Game) -> None:
    """Raises :class:`stickdice.MissingCapability` for a game without action codes and
    observation tensors (no ``encode`` capability), which OpenSpiel needs."""
    if "encode" not in game.capabilities:
        game.num_distinct_actions()  # raises MissingCapability, naming the game


def _default(text: str):
    """A rule option's default as the typed value OpenSpiel parameters need."""
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _game_type(short_name: str, info: dict) -> pyspiel.GameType:
    params = {"players": info["min_players"]}
    for opt in info["options"]:
        params[opt["name"]] = _default(opt["default"])
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"stickdice {info['title']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info["max_players"],
        min_num_players=info["min_players"],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _make_classes(short_name: str, name: str, game_type: pyspiel.GameType):
    class StickdiceOpenSpielState(pyspiel.State):
        """An OpenSpiel state holding a :class:`stickdice.State` (``self.rust``)."""

        def __init__(self, game, rust: Optional[stickdice.State] = None):
            super().__init__(game)
            self.rust = rust if rust is not None else game.rust.new_initial_state()

        def current_player(self):
            p = self.rust.current_player()
            if p == stickdice.CHANCE:
                return pyspiel.PlayerId.CHANCE
            if p == stickdice.TERMINAL:
                return pyspiel.PlayerId.TERMINAL
            return p

        def _legal_actions(self, player):
            # OpenSpiel wants the codes in increasing order; the core lists them in its own
            # (Sig (El Oued Capture) puts a piece's one- and five-step moves together).
            return sorted(self.rust.legal_actions())

        def chance_outcomes(self):
            return self.rust.chance_outcomes()

        def _apply_action(self, action):
            self.rust.apply_action(int(action))

        def _action_to_string(self, player, action):
            if player == pyspiel.PlayerId.CHANCE:
                return f"throw {int(action)}"
            return self.rust.get_game().action_to_string(int(action))

        def is_terminal(self):
            return self.rust.is_terminal()

        def returns(self):
            return self.rust.returns()

        def __str__(self):
            return str(self.rust)

    class StickdiceOpenSpielGame(pyspiel.Game):
        """An OpenSpiel game holding a :class:`stickdice.Game` (``self.rust``)."""

        def __init__(self, params=None):
            params = dict(params or {})
            players = int(params.pop("players", game_type.min_num_players))
            rust = stickdice.load_game(name, players=players, **params)
            require_encoding(rust)
            max_length = rust.max_game_length()
            info = pyspiel.GameInfo(
                num_distinct_actions=max(1, rust.num_distinct_actions()),
                max_chance_outcomes=rust.max_chance_outcomes(),
                num_players=players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=max(1, max_length + rust.max_throws()),
            )
            super().__init__(game_type, info, dict(params, players=players))
            self.rust = rust

        def new_initial_state(self):
            return StickdiceOpenSpielState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return _Observer(self.rust, params)

    StickdiceOpenSpielState.__name__ = f"{short_name}_state"
    StickdiceOpenSpielGame.__name__ = f"{short_name}_game"
    return StickdiceOpenSpielGame


class _Observer:
    """OpenSpiel's PyObserver over :meth:`stickdice.State.observation_tensor`."""

    def __init__(self, rust_game: stickdice.Game, params):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        shape = tuple(rust_game.observation_tensor_shape())
        self.tensor = np.zeros(shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = state.rust.observation_tensor(player)

    def string_from(self, state, player):
        return state.rust.serialize()


_REGISTERED: Dict[str, type] = {}


def register() -> List[str]:
    """Registers the games with action codes (:data:`GAMES`) with pyspiel (idempotent);
    returns their short names."""
    infos = {g["name"]: g for g in stickdice.games()}
    for short_name, name in GAMES.items():
        if short_name in _REGISTERED:
            continue
        game_type = _game_type(short_name, infos[name])
        cls = _make_classes(short_name, name, game_type)
        pyspiel.register_game(game_type, cls)
        _REGISTERED[short_name] = cls
    return list(GAMES)


def rust_state(state) -> stickdice.State:
    """The :class:`stickdice.State` inside an OpenSpiel state of a registered game."""
    rust = getattr(state, "rust", None)
    if not isinstance(rust, stickdice.State):
        raise TypeError(f"not a state of a registered stickdice game: {type(state).__name__}")
    return rust


class StickdiceBot(pyspiel.Bot):
    """One of our agents (any spec of the CLI) as an OpenSpiel bot.

    ``inform_action`` passes every action and throw on, so agents that keep their search
    tree between decisions (``mcts``'s ``reuse``) do so as in the CLI.
    """

    def __init__(self, game, spec: str, seed: int = 0, player_id: Optional[int] = None):
        pyspiel.Bot.__init__(self)
        self._agent = stickdice.Agent(spec, game.rust, seed=seed)
        self._player = player_id
        self._last = None

    @property
    def agent(self) -> stickdice.Agent:
        return self._agent

    def step(self, state):
        rust = rust_state(state)
        action = self._agent.step(rust)
        # evaluate_bots does not inform the bot that moved of its own action.
        self._agent.observe(rust, action)
        self._last = (rust.clone(), action)
        return action

    def restart_at(self, state):
        self._last = None
        if self._player is not None:
            self._agent.new_game(self._player)

    def inform_action(self, state, player_id, action):
        rust = rust_state(state)
        if self._last is not None and self._last == (rust, int(action)):
            return  # already observed in step()
        self._agent.observe(rust, int(action))

    def provides_force_action(self):
        return False

    def provides_policy(self):
        return False

    def is_clone_implemented(self):
        return False


class HoldGil(pyspiel.Bot):
    """Runs a C++ bot (such as ``pyspiel.MCTSBot``) on Python games without crashing.

    In open_spiel 2.0.2 ``MCTSBot.step`` releases the GIL for the whole search, and the
    search clones the state, which for a Python game calls into Python without the GIL: a
    segmentation fault with every Python game (OpenSpiel's own ``python_tic_tac_toe``
    included). ``step_with_policy`` is bound without that release, so this wrapper's
    ``step`` calls it; everything else is passed through.
    """

    def __init__(self, bot):
        pyspiel.Bot.__init__(self)
        self._bot = bot

    def step(self, state):
        return self._bot.step_with_policy(state)[1]

    def step_with_policy(self, state):
        return self._bot.step_with_policy(state)

    def restart_at(self, state):
        self._bot.restart_at(state)

    def inform_action(self, state, player_id, action):
        self._bot.inform_action(state, player_id, action)

    def provides_policy(self):
        return True

    def provides_force_action(self):
        return False

    def is_clone_implemented(self):
        return False
