"""stickdice: the stick-dice board games of the Sahara (every game of ``games()``, the
hand-written ones and those described as data) from Python, on the project's Rust rules,
agents and arena.

The API is modelled on OpenSpiel's::

    import stickdice
    game = stickdice.load_game("issiren", players=2)
    state = game.new_initial_state()
    while not state.is_terminal():
        ...  # state.chance_outcomes(), state.legal_actions(), state.apply_action(a)
    print(state.returns())

Actions and chance outcomes are ints. A chance outcome is the number of marked sides up
(0 to the number of sticks), with its exact probability. An action code is a game's own:
``game.num_distinct_actions()`` says how many there are, ``state.action_to_string(code)``
and ``state.string_to_action(text)`` turn a code into the game's notation and back, and
the codes are listed in the book: the hand-written games' in the Python chapter (its table
of action codes), the described games' in "Codes and tensors of the described games",
derived from each description (the Rust crate ``stickdice-rl``, module ``encoding``,
defines them all). A game without decisions (Sig wa Duqqan on either board) has none.

A game of the list without action codes (without the ``encode`` capability; see
``Game.capabilities``) plays by action notation instead: ``State.legal_action_strings()``,
``State.apply_action_string(text)``, ``Agent.step_string(state)``, and callables that
answer a str. Its action codes, observation tensors, OpenSpiel and PettingZoo raise
:class:`MissingCapability` naming the game and the capability.

``current_player()`` is a seat, :data:`CHANCE` (-1) when a throw is due, or
:data:`TERMINAL` (-4) at the end, as in OpenSpiel.

Optional integrations: :mod:`stickdice.openspiel` (``pip install open_spiel``) and
:mod:`stickdice.pettingzoo` (``pip install pettingzoo gymnasium``).
"""

from __future__ import annotations

import json as _json
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from ._stickdice import (
    CHANCE,
    TERMINAL,
    Agent,
    Game,
    MissingCapability,
    SeededDice,
    State,
    __version__,
    agents,
    derive_seed,
    games,
    load_game,
)
from . import _stickdice

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

ConfigurationLike = Union[str, Dict[str, Any]]

def _configuration(c: ConfigurationLike) -> Tuple[str, Optional[int], List[str]]:
    if isinstance(c, str):
        return (c, None, [])
    if not isinstance(c, dict):
        raise TypeError(f"a configuration is a game name or a dict, not {type(c).__name__}")
    unknown = set(c) - {"game", "players", "options"}
    if unknown:
        raise ValueError(f"unknown configuration keys: {', '.join(sorted(unknown))} (game, players, options)")
    if "game" not in c:
        raise ValueError("a configuration dict needs a 'game'")
    options = c.get("options") or {}
    if isinstance(options, dict):
        pairs = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items()]
    else:
        pairs = [str(o) for o in options]
    return (str(c["game"]), c.get("players"), pairs)


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
    """Compares games and rule readings as ``stickdice compare`` does, returning its figures
    as a dict of equal-length lists, one row per configuration, agent and metric (ready for
    ``pandas.DataFrame(result)``).

    ``configurations`` are game names (``"issiren"``: its fewest seats, default options) or
    dicts ``{"game": "sig-el-oued", "players": 3, "options": {"cairo_always_three": True}}``.
    ``agents`` play the self-play rows; ``trace`` are the skill trace's agents in order of
    growing strength (default: MCTS with random playouts at 4, 16 and 64 iterations; ``[]``
    for none); ``metrics`` picks metrics by name (all by default). Columns:
    ``configuration``, ``game``, ``players``, ``options``, ``agent``, ``metric``, ``value``,
    ``ci95`` (the 95% interval's half width), ``ci95_low`` and ``ci95_high`` (the interval's
    ends, clipped to the metric's range: a share lies in [0, 1]), ``n`` (games behind the
    figure), ``exact``, ``source``, ``note``, and against the first configuration
    ``difference``, ``p_holm`` (Holm-corrected p-value) and ``significant`` (never where both
    values are exact: that difference is known, not tested). The games run in Rust with the GIL
    released; the same seed gives the same figures on any number of ``threads``. Ctrl-C
    stops it (``KeyboardInterrupt``).

    Raises:
        ValueError: an unknown game, seat count, option, metric or agent, or a setting out
            of range (the message says which).
        TypeError: a configuration that is neither a name nor a dict.
    """
    configs = [_configuration(c) for c in configurations]
    text = _stickdice._compare(
        configs,
        games=games,
        agents=list(agents),
        trace=None if trace is None else list(trace),
        trace_rotations=trace_rotations,
        luck_games=luck_games,
        detailed=detailed,
        metrics=list(metrics or []),
        exact=exact,
        alpha=alpha,
        seed=seed,
        threads=threads,
    )
    return _json.loads(text)


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
    """Plays a tournament with the arena of ``stickdice tournament`` and returns its report.

    ``agents`` are spec strings (every spec of the CLI, e.g. ``"mcts:iterations=1000"``),
    :class:`Agent` objects (their spec or callable is used) or Python callables
    ``f(state) -> action`` (an action code, or the action in notation as a str).
    An agent of your own written in Rust reaches Python as a spec string: register its
    kind (``stickdice_agents::register``) in the extension module, and its spec works
    here and in :class:`Agent` (see docs/extending.md). ``games`` is the number of games per table, rounded up to whole
    seat rotations, as ``--games``. With ``out``, the log and the report files are written
    to that folder exactly as the CLI writes them (and an interrupted tournament resumes).

    The games run in Rust on ``threads`` worker threads (default: one per core) with the
    GIL released; Ctrl-C stops the run and raises ``KeyboardInterrupt``. A tournament with a
    Python callable runs on one thread (the callable needs the GIL for every decision).
    ``progress(done, total)`` is called after each game; an exception it raises stops the
    run and is raised from ``tournament`` (the games logged in ``out`` so far are kept and
    resume). A ``KeyboardInterrupt`` or ``SystemExit`` raised inside a Python agent stops
    the run the same way (the interrupted game is not recorded); any other exception there
    loses that game for the agent, with the message in ``failures``.

    Returns the report as plain dicts and lists (the fields of ``report.json``:
    ``standings``, ``pairwise``, ``seats``, ``first_seat_elo``, ``length``, ...) plus
    ``seconds_per_game``, ``elapsed_s``, ``played``, ``threads`` and ``standings_table``
    (the CLI's table). ``pandas.DataFrame(report["standings"])`` gives the standings.

    Raises:
        ValueError: a bad agent spec, format, game or thread count (``threads`` is 1 to
            256), or a log of another tournament in ``out``.
        TypeError: ``progress`` is not callable.
        KeyboardInterrupt: stopped by Ctrl-C.
    """
    text = _stickdice._tournament(
        game,
        list(agents),
        games=games,
        seed=seed,
        threads=threads,
        out=None if out is None else str(out),
        format=format,
        restart=restart,
        progress=progress,
    )
    return _json.loads(text)


def play_random(game: Game, n: int, seed: int = 1, threads: Optional[int] = None) -> dict:
    """Plays ``n`` games of uniformly random throws and actions in Rust, in parallel.

    Game ``i`` is seeded by ``derive_seed(seed, [i])``, so the results do not depend on
    ``threads``. Returns numpy arrays ``throws`` (``n``, uint32: throws per game),
    ``places`` (``n`` × seats, uint8: 0 is first) and ``scores`` (``n`` × seats, float64),
    and ``elapsed_s``.

    Raises:
        ValueError: ``n`` is negative or more than 1 000 000 (the CLI's bound; call again
            with another seed for more), or ``threads`` is not 1 to 256.
        KeyboardInterrupt: stopped by Ctrl-C.
    """
    if n < 0:
        raise ValueError(f"n must be at least 0, not {n}")
    return _stickdice._play_random(game, n, seed=seed, threads=threads)
