from typing import Any, Callable, Optional, Sequence, Union

from ._stickdice import CHANCE as CHANCE, TERMINAL as TERMINAL
from ._stickdice import Agent as Agent, Game as Game, SeededDice as SeededDice, State as State
from ._stickdice import MissingCapability as MissingCapability
from ._stickdice import agents as agents, derive_seed as derive_seed, games as games, load_game as load_game

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
        ValueError: a bad agent spec, format or game count, or a foreign log in ``out``.
        KeyboardInterrupt: stopped by Ctrl-C.
    """

def play_random(game: Game, n: int, seed: int = 1, threads: Optional[int] = None) -> dict:
    """``n`` random games in Rust: numpy ``throws``, ``places``, ``scores``, and ``elapsed_s``."""
