"""Batched environments for reinforcement learning: N games of one configuration stepped in
one call, in Rust, writing into numpy arrays.

::

    import numpy as np
    from stickdice.vector import VectorEnv

    env = VectorEnv("issiren", 1024, seed=1, opponents="greedy")  # the learner is P1
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(100):
        mask = info["legal_action_mask"]              # (N, num_actions) bool
        logits = rng.random(mask.shape, dtype=np.float32)
        actions = np.where(mask, logits, -1.0).argmax(axis=1)
        obs, rewards, terminated, truncated, info = env.step(actions)

**Configuration.** ``game`` is a name (with ``players`` and rule options as keywords, as
:func:`stickdice.load_game` takes them) or a :class:`stickdice.Game`. ``opponents`` says
who sits where: ``None`` is self-play (every seat the learner: ``info["current_player"]``
says whose decision it is, the pgx way); a string is an agent spec (``"random"``,
``"greedy"``, ``"mcts:iterations=200"``, a registered agent) for every seat but
``learner_seat`` (default 0); a list gives each seat its spec, ``None`` for the learner's
seats. Opponents move in Rust: the learner only sees its own decisions.

**Steps.** Every game awaits a learner decision or has just ended. :meth:`VectorEnv.step`
takes one action code per game (an integer array of shape ``(N,)``); for a game that ended
at the previous step the action is ignored and the game starts its next episode (the
"next-step" auto-reset of Gymnasium). The throws are made inside from each game's own
seeded dice: game ``i``'s ``k``-th episode after ``reset(seed)`` throws as ``stickdice play
--seed S`` does for ``S = env.game_seed(i)``, and its opponents are seeded as the arena
seeds them (:meth:`VectorEnv.opponent_seed`): it is game 0 of a one-game tournament.
With ``recording=True``, :meth:`VectorEnv.record` gives a game that has just ended as that
tournament's log, which ``stickdice replay LOG --index 0`` replays.

**Arrays** (game-major, written in place, no copy; the same arrays are returned at every
step and overwritten by the next, unless ``copy=True``):

* ``obs``: ``(N, observation_size)`` float32, the layout of
  ``Game.observation_tensor_layout()`` (:attr:`VectorEnv.observation_layout`);
* ``rewards``: ``(N, num_players)`` float32: every seat's score where the game has just
  ended (1 won, 0 lost, ties half), 0 elsewhere;
* ``terminated`` / ``truncated``: ``(N,)`` bool: the game has just ended; truncated when
  at the throw cap (rule option ``max_throws``);
* ``info["legal_action_mask"]``: ``(N, num_actions)`` bool (all False when ended);
* ``info["current_player"]``: ``(N,)`` int32, the seat to decide, -1 when ended;
* with ``legal_actions=True``: ``info["legal_actions"]``, ``(N, max_actions)`` int64,
  each game's legal codes in ascending order (the mask's set bits), then -1 to the row's
  end (all -1 when ended), and ``info["legal_count"]``, ``(N,)`` int32, how many (0 when
  ended). ``max_actions`` is the most legal actions a decision can have (12 for
  Issiren, whose mask has 49 codes).

**A uniformly random legal action from one random number per game** (with
``legal_actions=True``; what :class:`RandomLegal` does, in arrays made once, none per
step): ``k = floor(u * count)`` for ``u`` uniform in [0, 1) picks the ``k``-th legal
code of the row, and the flat index ``i * max_actions + k`` takes it. A game that has
ended (count 0) gets -1, which the step ignores::

    env = VectorEnv("issiren", 1024, seed=1, legal_actions=True)
    obs, info = env.reset()
    n, width = env.num_envs, env.max_actions
    rng = np.random.default_rng(0)
    u = np.empty(n)                                  # float64
    k = np.empty(n, dtype=np.intp)
    base = np.arange(n, dtype=np.intp) * width
    actions = np.empty(n, dtype=np.int64)
    codes = info["legal_actions"].reshape(-1)        # a view: the same array every step
    counts = info["legal_count"]
    for _ in range(100):
        rng.random(out=u)
        np.multiply(u, counts, out=u)                # in [0, count)
        np.copyto(k, u, casting="unsafe")            # floor (u >= 0)
        np.add(k, base, out=k)
        np.take(codes, k, out=actions)
        obs, rewards, terminated, truncated, info = env.step(actions)

The step releases the GIL and spreads the games over the Rust thread pool; the results do
not depend on the thread count. Bad input raises before any game is stepped: a wrong
shape or dtype (``ValueError`` / ``TypeError``), an illegal action code in game ``i``
(:class:`IllegalActionError`, whose ``index`` is ``i``). A batch holds at most 2**20 games
(``ValueError`` beyond, or when the memory is short); it cannot be copied or pickled
(``TypeError``: make another and ``reset`` it with the same seed).

:class:`GymVectorEnv` is a ``gymnasium.vector.VectorEnv`` over one learner seat (needs
``pip install gymnasium``); :func:`functional` gives a pgx-shaped ``init``/``step`` pair.
"""

import operator
import os
from typing import Any, Dict, List, NamedTuple, NoReturn, Optional, Sequence, Tuple, Union

import numpy as np

from . import _stickdice
from ._stickdice import Game

__all__ = ["VectorEnv", "IllegalActionError", "GymVectorEnv", "functional", "StepResult", "RandomLegal"]


class IllegalActionError(ValueError):
    """An action code that is not legal in one game of the batch; no game was stepped.

    Attributes:
        index: the game's index in the batch.
        seat: the seat that was to decide.
        action: the code given.
    """

    def __init__(self, message: str, index: int, seat: int, action: int) -> None:
        super().__init__(message)
        self.index = index
        self.seat = seat
        self.action = action


def _not_copied() -> NoReturn:
    raise TypeError(
        "a VectorEnv cannot be copied or pickled (its games live in Rust): make another with "
        "the same arguments and reset(seed), or save each game's state(i)"
    )


def _load(game: Union[str, Game], players: Optional[int], options: Dict[str, Any]) -> Game:
    if isinstance(game, Game):
        if players is not None or options:
            raise TypeError("players and rule options go with a game name, not a loaded Game")
        return game
    from . import load_game

    return load_game(game, players=players, **options)


class VectorEnv:
    """``num_envs`` games of one configuration, stepped together in Rust (see the module's
    documentation for the arrays and the rules of stepping)."""

    def __init__(
        self,
        game: Union[str, Game],
        num_envs: int,
        *,
        seed: int = 0,
        opponents: Union[None, str, Sequence[Optional[str]]] = None,
        learner_seat: int = 0,
        players: Optional[int] = None,
        copy: bool = False,
        recording: bool = False,
        legal_actions: bool = False,
        **options: Any,
    ) -> None:
        self.game = _load(game, players, options)
        seats = self.game.num_players()
        if opponents is None:
            specs: List[Optional[str]] = [None] * seats
        elif isinstance(opponents, str):
            if not 0 <= learner_seat < seats:
                raise ValueError(f"learner_seat {learner_seat} of a {seats}-seat game")
            specs = [None if s == learner_seat else opponents for s in range(seats)]
        else:
            specs = list(opponents)
        self.seats: List[Optional[str]] = specs
        self._env = _stickdice._VectorEnv(self.game, operator.index(num_envs), specs)
        self._env.set_recording(bool(recording))
        self.num_envs: int = self._env.num_envs
        self.num_actions: int = self._env.num_actions
        self.max_actions: int = self._env.max_actions
        self.observation_size: int = self._env.observation_len
        self.num_players: int = self._env.num_players
        self.observation_layout: str = self._env.observation_doc
        self.learner_seats: List[int] = [s for s, spec in enumerate(specs) if spec is None]
        self.copy = copy
        self._seed = int(seed)
        n = self.num_envs
        self._obs = np.zeros((n, self.observation_size), dtype=np.float32)
        self._mask = np.zeros((n, self.num_actions), dtype=np.bool_)
        self._player = np.zeros(n, dtype=np.int32)
        self._rewards = np.zeros((n, self.num_players), dtype=np.float32)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self.legal_actions = bool(legal_actions)
        self._legal: Tuple[np.ndarray, ...] = ()
        if self.legal_actions:
            self._legal = (
                np.full((n, self.max_actions), -1, dtype=np.int64),
                np.zeros(n, dtype=np.int32),
            )
        self._started = False

    def _outs(self) -> Tuple[np.ndarray, ...]:
        return (self._obs, self._mask, self._player, self._rewards, self._terminated, self._truncated)

    def _info(self) -> Dict[str, np.ndarray]:
        info = {"legal_action_mask": self._out(self._mask), "current_player": self._out(self._player)}
        if self._legal:
            info["legal_actions"] = self._out(self._legal[0])
            info["legal_count"] = self._out(self._legal[1])
        return info

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    def reset(self, seed: Optional[int] = None) -> Tuple[np.ndarray, Dict[str, np.ndarray]]:
        """Starts every game afresh (from ``seed``, else the constructor's) and plays to
        each game's first learner decision. Returns ``(obs, info)``."""
        if seed is not None:
            self._seed = int(seed)
        self._env.reset(self._seed, *self._outs(), *self._legal)
        self._started = True
        return self._out(self._obs), self._info()

    def step(
        self, actions: Any
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, np.ndarray]]:
        """One action code per game (integer array of shape ``(num_envs,)``). Returns
        ``(obs, rewards, terminated, truncated, info)``.

        Raises:
            TypeError: the actions are not integers.
            ValueError: not one action per game.
            IllegalActionError: an action that is not legal in its game (``index`` names
                it); no game was stepped.
        """
        a = np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {a.dtype}")
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions of shape {a.shape}; the batch needs ({self.num_envs},)")
        if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
            raise ValueError(f"action {a.max()} is past any action code")
        a = np.ascontiguousarray(a, dtype=np.int64)
        if not self._started:
            self.reset()
        try:
            self._env.step(a, *self._outs(), *self._legal)
        except _stickdice.VectorIllegalAction as e:
            message, index, seat, action = e.args
            raise IllegalActionError(message, index, seat, action) from None
        return (
            self._out(self._obs),
            self._out(self._rewards),
            self._out(self._terminated),
            self._out(self._truncated),
            self._info(),
        )

    # A shallow copy would share the games (stepping one steps the other); the games live
    # in Rust and cannot be pickled.
    def __reduce__(self) -> NoReturn:
        _not_copied()

    def __copy__(self) -> NoReturn:
        _not_copied()

    def __deepcopy__(self, memo: Any) -> NoReturn:
        _not_copied()

    def game_seed(self, index: int) -> int:
        """The seed of game ``index``'s current episode: ``stickdice play --seed`` with it
        throws the same sticks and seeds the opponents alike."""
        return self._env.game_seed(index)

    def episode(self, index: int) -> int:
        """How many episodes game ``index`` has started since the reset, less one."""
        return self._env.episode(index)

    @staticmethod
    def opponent_seed(game_seed: int, seat: int) -> int:
        """The seed of the opponent in ``seat`` of the game seeded ``game_seed`` (the
        arena's agent seed; ``stickdice.Agent(spec, game, seed=...)`` builds it alike)."""
        return _stickdice._VectorEnv.opponent_seed(game_seed, seat)

    def record(self, index: int, path: Optional[str] = None) -> str:
        """Game ``index``, which has just ended (at the last step), as the text of a
        tournament log (a header line and the game's line), written to ``path`` if given:
        ``stickdice replay PATH --index 0`` replays it. Needs ``recording=True`` from the
        episode's start.

        The file is written whole or not at all (a temporary file beside it, renamed), only
        over a regular file or where none is, and under the folder's lock, as a tournament
        writes its log: a folder where a tournament runs is refused, and its log kept.

        Raises:
            IndexError: no game ``index``.
            ValueError: the episode was not recorded, or has not ended.
            OSError: the file cannot be written, ``path`` is not a regular file (a device,
                a folder), or another stickdice run holds the folder's lock (``path`` left
                as it was).
        """
        text = self._env.replay_log(index)
        if path is not None:
            _stickdice._VectorEnv.write_log(os.fspath(path), text)
        return text

    def state(self, index: int) -> Any:
        """Game ``index``'s state, as a :class:`stickdice.State` (a copy)."""
        return _stickdice._load_state(self.game, self._env.save_state(index))


class RandomLegal:
    """A uniformly random legal action per game, from one random number per game and the
    legal codes of a :class:`VectorEnv` made with ``legal_actions=True`` (the recipe of the
    module's documentation: its arrays are made once, none per call).

    ``RandomLegal(env, seed)(info)`` returns the actions for ``info`` (of ``reset`` or
    ``step``): an ``(N,)`` int64 array, the same one at every call (overwritten), -1 for a
    game that has ended."""

    def __init__(self, env: VectorEnv, seed: Optional[int] = None) -> None:
        if not env.legal_actions:
            raise ValueError("RandomLegal needs a VectorEnv made with legal_actions=True")
        n, width = env.num_envs, env.max_actions
        self.rng = np.random.default_rng(seed)
        self._u = np.empty(n)
        self._k = np.empty(n, dtype=np.intp)
        self._base = np.arange(n, dtype=np.intp) * width
        self.actions = np.empty(n, dtype=np.int64)
        self._codes: Optional[np.ndarray] = None
        self._flat = self.actions

    def __call__(self, info: Dict[str, np.ndarray]) -> np.ndarray:
        codes, counts = info["legal_actions"], info["legal_count"]
        if codes is not self._codes:  # a flat view, made again only for a new array
            self._codes, self._flat = codes, codes.reshape(-1)
        u, k = self._u, self._k
        self.rng.random(out=u)
        np.multiply(u, counts, out=u)  # in [0, count)
        np.copyto(k, u, casting="unsafe")  # floor, u >= 0
        np.add(k, self._base, out=k)
        np.take(self._flat, k, out=self.actions)
        return self.actions


class StepResult(NamedTuple):
    """The pgx-shaped state of a batch (see :func:`functional`)."""

    observation: np.ndarray
    legal_action_mask: np.ndarray
    current_player: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray


def functional(env: VectorEnv) -> Tuple[Any, Any]:
    """A pgx-shaped pair ``init(seed) -> state`` and ``step(state, actions) -> state`` over
    ``env``, where ``state`` is a :class:`StepResult` of arrays (``observation``,
    ``legal_action_mask``, ``current_player``, ``rewards``, ``terminated``,
    ``truncated``). The games live in ``env`` (Rust), so ``step`` is not pure: it takes
    only the latest state, and the chance is inside (no key)."""

    def result() -> StepResult:
        return StepResult(*(a.copy() for a in env._outs()))

    def init(seed: int) -> StepResult:
        env.reset(seed)
        return result()

    def step(state: StepResult, actions: Any) -> StepResult:
        env.step(actions)
        return result()

    return init, step


def _gym_vector_env() -> Any:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode

    class _GymVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[misc]
        """A ``gymnasium.vector.VectorEnv`` over one learner seat against agent opponents
        (``opponents``, default ``"random"``): observations ``Box(0, 1)`` float32,
        actions ``Discrete(num_actions)`` each, rewards the learner's score at the end
        (0 before), the legal-action mask in ``info["action_mask"]``; next-step
        auto-reset (Gymnasium's default)."""

        metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

        def __init__(
            self,
            game: Union[str, Game],
            num_envs: int,
            *,
            opponents: Union[str, Sequence[Optional[str]]] = "random",
            learner_seat: int = 0,
            players: Optional[int] = None,
            **options: Any,
        ) -> None:
            self.env = VectorEnv(
                game, num_envs, opponents=opponents, learner_seat=learner_seat, players=players, **options
            )
            if len(self.env.learner_seats) != 1:
                raise ValueError("GymVectorEnv needs exactly one learner seat (opponents in the others)")
            self.learner_seat = self.env.learner_seats[0]
            self.num_envs = self.env.num_envs
            size, actions = self.env.observation_size, self.env.num_actions
            self.single_observation_space = spaces.Box(0.0, 1.0, (size,), dtype=np.float32)
            self.single_action_space = spaces.Discrete(actions)
            self.observation_space = spaces.Box(0.0, 1.0, (self.num_envs, size), dtype=np.float32)
            self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, actions))

        def _info(self, info: Dict[str, np.ndarray]) -> Dict[str, Any]:
            return {"action_mask": info["legal_action_mask"].copy()}

        def reset(
            self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
        ) -> Tuple[np.ndarray, Dict[str, Any]]:
            if seed is None and getattr(self, "_np_random", None) is None:
                seed = 0
            if seed is not None:
                self._np_random, _ = gymnasium.utils.seeding.np_random(seed)
            if seed is None:
                seed = int(self.np_random.integers(2**63))
            obs, info = self.env.reset(seed)
            return obs.copy(), self._info(info)

        def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
            obs, rewards, terminated, truncated, info = self.env.step(actions)
            return (
                obs.copy(),
                rewards[:, self.learner_seat].astype(np.float64),
                terminated.copy(),
                truncated.copy(),
                self._info(info),
            )

    return _GymVectorEnv


def __getattr__(name: str) -> Any:
    # gymnasium is optional: GymVectorEnv is made on first use.
    if name == "GymVectorEnv":
        cls = _gym_vector_env()
        globals()["GymVectorEnv"] = cls
        return cls
    raise AttributeError(name)
