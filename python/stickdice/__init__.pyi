from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from ._stickdice import CHANCE as CHANCE, TERMINAL as TERMINAL, __version__ as __version__
from ._stickdice import Agent as Agent, Game as Game, SeededDice as SeededDice, State as State
from ._stickdice import MissingCapability as MissingCapability
from ._stickdice import agents as agents, derive_seed as derive_seed, games as games, load_game as load_game

__all__ = [
    "__version__",
    "CHANCE",
    "TERMINAL",
    "Agent",
    "Game",
    "MissingCapability",
    "SeededDice",
    "State",
    "agents",
    "compare",
    "derive_seed",
    "games",
    "load_game",
    "play_random",
    "tournament",
]

AgentLike = Union[str, Agent, Callable[[State], Union[int, str]]]

def tournament(
    game: Game,
    agents: Sequence[AgentLike],
    games: int = 200,
    seed: int = 1,
    threads: Optional[int] = None,
    out: Optional[str] = None,
    format: str = "round-robin",
    restart: bool = False,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> dict:
    """Plays a tournament with the CLI's arena; returns the report as plain dicts.

    Raises:
        ValueError: a bad agent spec, format, game or thread count, or a foreign log in ``out``.
        TypeError: ``progress`` is not callable.
        KeyboardInterrupt: stopped by Ctrl-C (or raised by a Python agent).
    """

def play_random(game: Game, n: int, seed: int = 1, threads: Optional[int] = None) -> dict:
    """``n`` random games in Rust: numpy ``throws``, ``places``, ``scores``, and ``elapsed_s``."""

ConfigurationLike = Union[str, Dict[str, Any]]

def compare(
    configurations: Sequence[ConfigurationLike],
    games: int = 2000,
    agents: Sequence[str] = ("random",),
    trace: Optional[Sequence[str]] = None,
    trace_rotations: int = 100,
    luck_games: int = 200,
    detailed: int = 300,
    metrics: Optional[Sequence[str]] = None,
    exact: bool = True,
    alpha: float = 0.05,
    seed: int = 1,
    threads: Optional[int] = None,
) -> Dict[str, List[Any]]:
    """Compares configurations as ``stickdice compare``; its figures as a dict of columns."""
