"""The stickdice games as PettingZoo AEC environments.

::

    from stickdice.pettingzoo import env
    e = env("issiren", max_throws=500)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` … ``player_{n-1}`` (seat order; ``player_0`` throws first).

**Throws** happen inside the environment: after ``reset`` and after every step, every throw
due is made at once with :class:`stickdice.SeededDice` (the arena's duplicate dice: the
throw for seat ``s`` at its ``t``-th throw depends only on the seed, ``s`` and ``t``) seeded
with ``reset(seed=...)``; with ``seed=None`` a seed is drawn from the operating system. So
``reset(seed=k)`` followed by the same actions gives the same game, and the same throws as
``stickdice play --seed k`` (and a tournament game of seed ``k``) for the same actions.

**Observations** are dicts: ``observation`` (float32, the layout of
``Game.observation_tensor_layout()``, the same for every agent) and ``action_mask`` (int8,
1 for the legal action codes). Action codes are the package's (see :mod:`stickdice`).

**Sig wa Duqqan** has no decisions (every throw plays itself): there each throw is the
thrower's one action, ``0`` ("throw the sticks"), so the environment still steps through
the game seat by seat.

**Rewards** are 0 until the end, then each seat's score (the fraction of the other seats
it ranks above, ties counting half). The throw cap (``max_throws``) is a rule of the game,
so it ends the game as a termination; there are no truncations.
"""

from __future__ import annotations

import os
from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import stickdice

__all__ = ["StickdiceEnv", "env"]


class StickdiceEnv(AECEnv):
    """An AEC environment of one stickdice game (see the module docs)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "stickdice_v0", "is_parallelizable": False}

    def __init__(self, game: str = "issiren", players: Optional[int] = None, render_mode: Optional[str] = None, **options):
        super().__init__()
        self.game = stickdice.load_game(game, players=players, **options)
        if "encode" not in self.game.capabilities:
            # Observations and action masks are the encoding's: MissingCapability names
            # the game and the capability.
            self.game.num_distinct_actions()
        self.metadata = dict(self.metadata, name=f"stickdice_{self.game.name.replace('-', '_')}_v0")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        n = self.game.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._throw_is_action = self.game.num_distinct_actions() == 0
        self._num_actions = 1 if self._throw_is_action else self.game.num_distinct_actions()
        obs_len = self.game.observation_tensor_shape()[0]
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(obs_len,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self._num_actions,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(self._num_actions)
        self.state: Optional[stickdice.State] = None
        self._dice: Optional[stickdice.SeededDice] = None
        self.seed_used: Optional[int] = None

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    # -- the game ---------------------------------------------------------------------

    def _throw_until_decision(self):
        """Makes every throw due (in Sig wa Duqqan: none; a throw is an action there)."""
        if self._throw_is_action:
            return
        while self.state.is_chance_node():
            self.state.apply_action(self._dice.throw(self.state))

    def _select(self):
        seat = self.state.seat_to_play()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def _mask(self) -> np.ndarray:
        if self.state.is_terminal():
            return np.zeros(self._num_actions, np.int8)
        if self._throw_is_action:
            return np.ones(1, np.int8)
        return np.asarray(self.state.legal_actions_mask(), dtype=np.int8)

    def observe(self, agent):
        return {
            "observation": self.state.observation_tensor(),
            "action_mask": self._mask() if agent == self.agent_selection else np.zeros(self._num_actions, np.int8),
        }

    def reset(self, seed=None, options=None):
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        self.seed_used = int(seed) % (1 << 64)
        self._dice = stickdice.SeededDice(self.seed_used)
        self.state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[0]
        self._throw_until_decision()
        # A game can end before anyone decides (Sig (El Oued) asks for a decision only at
        # a leftover at Mecca, and some games have none): then every agent is terminated
        # at once and the first one is selected for its dead step.
        if not self._end_if_over():
            self._select()
        self._update_infos()

    def _end_if_over(self) -> bool:
        """At the end of the game: each seat's reward is its score and every agent is
        terminated. Returns whether the game is over."""
        if not self.state.is_terminal():
            return False
        returns = self.state.returns()
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = float(returns[i])
            self.terminations[a] = True
        return True

    def _update_infos(self):
        mask = self._mask()
        for a in self.agents:
            self.infos[a] = {"action_mask": mask if a == self.agent_selection else np.zeros(self._num_actions, np.int8)}

    def step(self, action):
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        if self._throw_is_action:
            if int(action) != 0:
                raise ValueError(f"action {action}: in {self.game.title} the only action is 0, throw the sticks")
            self.state.apply_action(self._dice.throw(self.state))
        else:
            self.state.apply_action(int(action))
        self._throw_until_decision()
        for a in self.agents:
            self.rewards[a] = 0.0
        if not self._end_if_over():
            self._select()
        self._update_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def env(game: str = "issiren", players: Optional[int] = None, render_mode: Optional[str] = None, **options) -> StickdiceEnv:
    """The AEC environment of ``game`` (a name of ``stickdice.games()``: ``issiren``,
    ``siryu-race``, …) with ``players`` seats and rule options (see ``stickdice.games()``)."""
    return StickdiceEnv(game, players=players, render_mode=render_mode, **options)
