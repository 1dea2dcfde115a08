"""Type stubs of the extension module (the Rust side of the package)."""

import os
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "Game",
    "State",
    "Agent",
    "SeededDice",
    "_VectorEnv",
    "VectorIllegalAction",
    "load_game",
    "games",
    "agents",
    "derive_seed",
    "_tournament",
    "_play_random",
    "_compare",
    "_load_game_from_options",
    "_load_described_from_options",
    "_load_state",
    "__version__",
    "MissingCapability",
    "CHANCE",
    "TERMINAL",
]

__version__: str
"""The package's version, the crates' version (``stickdice --version``)."""
CHANCE: int
"""``State.current_player()`` when a throw is due (-1, as in OpenSpiel)."""
TERMINAL: int
"""``State.current_player()`` once the game is over (-4, as in OpenSpiel)."""

OptionValue = Union[int, bool, str]

class MissingCapability(NotImplementedError):
    """A game lacks a capability the call needs: ``encode`` (action codes and observation
    tensors, which OpenSpiel and PettingZoo also need). The message names the game, the
    capability and what to use instead (for ``encode``: play by action notation,
    ``State.legal_action_strings()``, ``State.apply_action_string()``,
    ``Agent.step_string()``)."""

def load_game(
    name: Union[str, "os.PathLike[str]"], players: Optional[int] = None, **options: OptionValue
) -> Game:
    """Loads a game: a game of the list by name (``load_game("issiren", players=2,
    max_throws=500)``), or a game description (the book's chapter on the description
    format): the path of its file (a str or an ``os.PathLike``) or its TOML text.

    A str with a line break or a ``=`` is TOML text (a description has both); a game's
    name is that game; otherwise a str is a path when it ends in ``.toml``, holds a path
    separator or names a file (``pathlib.Path("issiren")`` reads a file named like a game).
    A description's game plays by action notation (no ``encode`` capability), with its own
    ``players`` and rule options as keywords.

    Raises:
        ValueError: an unknown game or option, a bad option value, an option given twice
            (``max_throws`` and ``" max_throws"``), a seat count the game does not allow, or
            a description that cannot be read (the message names the line and the field).
        OSError: the description file cannot be read (``FileNotFoundError`` when it is not
            there).
        TypeError: ``players`` is not an int, or an option value not an int, bool or str.
    """

def games() -> List[Dict[str, Any]]:
    """Every game of the list (a game description of one's own is loaded with
    ``load_game(path_or_toml)``, and is not listed): ``name``, ``title``, ``min_players``, ``max_players``, ``default_players`` (the seat count
    ``load_game`` plays without ``players``),
    ``num_distinct_actions`` (None for a game without action codes), ``capabilities`` and
    ``options``, the game's table of rule options (each with ``name``, ``type`` (``"bool"``
    or ``"int"``), ``default`` (as ``Game.options()`` writes it), ``allowed`` (the values
    it takes, in words) and ``help``)."""

def agents() -> List[Dict[str, Any]]:
    """Every agent of the CLI: ``name``, ``summary`` and ``params`` (``name``, ``default``, ``help``)."""

def derive_seed(seed: int, path: Sequence[int]) -> int:
    """A seed derived from ``seed`` and a path (the core's ``seed::derive``): ``stickdice play
    --seed S`` seeds the agent of seat ``s`` with ``derive_seed(S, [1, s])``."""

@final
class Game:
    """A game with its rule options and seat count."""

    @property
    def name(self) -> str:
        """The game's name, as ``stickdice.games()`` lists it (``issiren``, ``siryu-race``, …);
        a description's own ``name`` for a game loaded from a description."""
    @property
    def title(self) -> str:
        """The game's name for people."""
    @property
    def description_digest(self) -> Optional[str]:
        """For a game loaded from a description: its digest (as tournament logs record it);
        None for a game of the list."""
    @property
    def description_text(self) -> Optional[str]:
        """For a game loaded from a description: its TOML text; None for a game of the list."""
    @property
    def capabilities(self) -> List[str]:
        """The optional capabilities the game provides beyond its rules (``board``,
        ``evaluate``, ``exact``, ``measure``, ``review``, ``encode``, ``tablebase``)."""
    def num_players(self) -> int: ...
    def num_distinct_actions(self) -> int:
        """Actions are ints in ``range(num_distinct_actions())``: the game's own codes (the
        book's Python chapter lists every game's; 0 in the games without decisions, Sig wa
        Duqqan on either board).

        Raises:
            MissingCapability: the game has no action codes (no ``encode`` capability).
        """
    def max_chance_outcomes(self) -> int:
        """Throw outcomes are the number of marked sides up, ``0..sticks``."""
    def options(self) -> List[Tuple[str, str]]:
        """The rule options with their values."""
    def max_throws(self) -> int:
        """The throw cap (rule option ``max_throws``)."""
    def max_game_length(self) -> int:
        """The most decisions a game can hold."""
    def action_to_string(self, action: int) -> str:
        """The notation of an action code.

        Raises:
            ValueError: not an action code of the game.
        """
    def new_initial_state(self) -> State: ...
    def deserialize_state(self, text: str) -> State:
        """A state from ``State.serialize()``, validated.

        Raises:
            ValueError: malformed text or a broken invariant, naming every problem.
        """
    def observation_tensor_shape(self) -> List[int]: ...
    def observation_tensor_layout(self) -> str:
        """What each entry of ``State.observation_tensor()`` means."""

@final
class State:
    """A state of a game. Actions and throws are ints; every method answers from the Rust rules."""

    def current_player(self) -> int:
        """The seat to decide, ``CHANCE`` when a throw is due, ``TERMINAL`` at the end."""
    def seat_to_play(self) -> Optional[int]:
        """The seat that throws or decides next, None at the end."""
    def is_chance_node(self) -> bool: ...
    def is_player_node(self) -> bool: ...
    def is_terminal(self) -> bool: ...
    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """``(marked sides up, exact probability)`` at a chance node; empty elsewhere."""
    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        """The legal actions (the throws at a chance node).

        Raises:
            MissingCapability: a decision of a game without action codes.
        """
    def legal_action_strings(self) -> List[str]:
        """The legal actions in notation (the throws ``"0"`` … at a chance node), for every
        game, with or without action codes."""
    def apply_action_string(self, text: str) -> None:
        """Applies an action in notation (a throw at a chance node: ``"3"``), checked, for
        every game.

        Raises:
            ValueError: not an action of the game, or illegal here; the state is unchanged.
        """
    def legal_actions_mask(self) -> npt.NDArray[np.int8]:
        """1 for each legal action code (all 0 at chance nodes and at the end)."""
    def action_to_string(self, action: int) -> str:
        """An action (or throw) in the project's notation (``c1``, ``pass``, ``use``, ``3``).

        Raises:
            ValueError: not an action of the game.
            TypeError: not an int.
        """
    def string_to_action(self, text: str) -> int:
        """Raises:
            ValueError: the text is not an action, naming the expected form.
        """
    def apply_action(self, action: int) -> None:
        """Applies an action, or a throw at a chance node, checked.

        Raises:
            ValueError: the action is illegal here (named, with the legal ones); the state
                is unchanged.
            TypeError: the action is not an int.
        """
    def returns(self) -> List[float]:
        """Each seat's final score (0 to 1, ties half); all 0 before the end."""
    def ranking(self) -> Optional[List[int]]:
        """Each seat's place (0 is first, ties share), None before the end."""
    def ranking_text(self) -> Optional[str]:
        """The ranking as the CLI prints it (``P2 > P1``)."""
    def throws_made(self) -> int: ...
    def describe_throw(self, throw: int) -> str:
        """A throw described in the game's own words.

        Raises:
            ValueError: no throw is due, or the sticks cannot show it.
        """
    def num_players(self) -> int: ...
    def get_game(self) -> Game: ...
    def clone(self) -> State: ...
    def serialize(self) -> str:
        """The state as JSON (``Game.deserialize_state`` reads it)."""
    def observation_tensor(self, player: Optional[int] = None) -> npt.NDArray[np.float32]:
        """The observation (layout: ``Game.observation_tensor_layout()``); the same for every player."""
    def observation_list(self, player: Optional[int] = None) -> List[float]: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any = None) -> State: ...

@final
class Agent:
    """An agent for one game: ``Agent("mcts:iterations=1000", game, seed=1)`` (every spec of
    the CLI) or ``Agent(f, game)`` for a callable ``f(state) -> action``.

    Raises:
        ValueError: an unknown agent or parameter, a bad value, or a game the agent cannot play.
        TypeError: neither a spec, an Agent nor a callable.
    """

    def __init__(self, agent: Union[str, "Agent", Callable[[State], Union[int, str]]], game: Game, seed: int = 0) -> None:
        """A callable answers an action code (an int) or the action in notation (a str)."""
    @property
    def name(self) -> str: ...
    @property
    def seed(self) -> int: ...
    def step(self, state: State) -> int:
        """The action chosen in ``state`` (the GIL is released while Rust searches).

        Raises:
            ValueError: not a decision node, a state of another game, or a refusal.
            KeyboardInterrupt: Ctrl-C during a search (the search stops).
            MissingCapability: the game has no action codes (see ``step_string``).
        """
    def step_string(self, state: State) -> str:
        """The action chosen in ``state``, in notation, for every game.

        Raises:
            ValueError: not a decision node, a state of another game, or a refusal.
        """
    def analysis(self, state: Optional[State] = None) -> Optional[List[Dict[str, Any]]]:
        """Per legal action of the last decision (or of a decision made now in ``state``):
        ``action``, ``notation``, ``value`` (the mover's estimated final score) and
        ``visits``; None for agents that do not analyse."""
    def new_game(self, seat: int) -> None:
        """A new game starts with the agent in ``seat``."""
    def observe(self, state: State, action: Union[int, str]) -> None:
        """``action`` (or a throw) is about to be applied to ``state``: agents that keep
        their search tree (``mcts`` with ``reuse``) follow the game, as in the CLI."""

@final
class SeededDice:
    """The arena's duplicate dice: the throw for seat ``s`` at its ``t``-th throw depends
    only on ``(seed, s, t)`` (as ``stickdice play --seed`` and tournaments throw)."""

    def __init__(self, seed: int) -> None: ...
    def throw(self, state: State) -> int:
        """The next throw for the seat to throw in ``state``.

        Raises:
            ValueError: no throw is due.
        """

def _tournament(game: Game, agents: List[Any], games: int = 200, seed: int = 1, threads: Optional[int] = None,
                out: Optional[str] = None, format: str = "round-robin", restart: bool = False,
                progress: Optional[Callable[[int, int], Any]] = None) -> str: ...
def _play_random(game: Game, n: int, seed: int = 1, threads: Optional[int] = None) -> Dict[str, Any]: ...
def _compare(
    configs: List[Tuple[str, Optional[int], List[str]]],
    games: int,
    agents: List[str],
    trace: Optional[List[str]],
    trace_rotations: int,
    luck_games: int,
    detailed: int,
    metrics: List[str],
    exact: bool,
    alpha: float,
    seed: int,
    threads: Optional[int] = None,
) -> str: ...
def _load_game_from_options(name: str, players: int, options: Dict[str, Any]) -> Game:
    """Rebuilds a game from ``Game.__reduce__``."""
def _load_described_from_options(text: str, players: int, options: List[str]) -> Game:
    """Rebuilds a game of a description from ``Game.__reduce__``."""
def _load_state(game: Game, text: str) -> State:
    """Rebuilds a state from ``State.__reduce__``."""

class VectorIllegalAction(ValueError):
    """An action code that is not legal in one game of a batch; ``args`` is ``(message,
    game index, seat, action)``. ``stickdice.vector`` raises it as ``IllegalActionError``."""

@final
class _VectorEnv:
    """The batched environment (``stickdice.vector.VectorEnv`` wraps it): steps write into
    the arrays passed, C-contiguous and of the batch's shapes, with the GIL released; the
    legal codes (``N x max_actions``) and counts (``N``) only when given."""

    def __init__(self, game: Game, num_envs: int, seats: List[Optional[str]]) -> None: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def max_actions(self) -> int: ...
    @property
    def observation_len(self) -> int: ...
    @property
    def observation_doc(self) -> str: ...
    @property
    def num_players(self) -> int: ...
    def game_seed(self, index: int) -> int: ...
    def episode(self, index: int) -> int: ...
    def save_state(self, index: int) -> str: ...
    def set_parallel(self, parallel: bool) -> None: ...
    def set_recording(self, on: bool) -> None: ...
    def replay_log(self, index: int) -> str: ...
    @staticmethod
    def write_log(path: str, text: str) -> None: ...
    @staticmethod
    def opponent_seed(game_seed: int, seat: int) -> int: ...
    def reset(self, seed: int, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_],
              players: npt.NDArray[np.int32], rewards: npt.NDArray[np.float32],
              terminated: npt.NDArray[np.bool_], truncated: npt.NDArray[np.bool_],
              legal_codes: Optional[npt.NDArray[np.int64]] = None,
              legal_counts: Optional[npt.NDArray[np.int32]] = None) -> None: ...
    def step(self, actions: npt.NDArray[np.int64], observations: npt.NDArray[np.float32],
             masks: npt.NDArray[np.bool_], players: npt.NDArray[np.int32],
             rewards: npt.NDArray[np.float32], terminated: npt.NDArray[np.bool_],
             truncated: npt.NDArray[np.bool_],
             legal_codes: Optional[npt.NDArray[np.int64]] = None,
             legal_counts: Optional[npt.NDArray[np.int32]] = None) -> None: ...
