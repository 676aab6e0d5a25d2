"""A norn game as a PettingZoo AEC (agent-environment cycle) environment.

``env(name)`` gives one agent per player, named after the game's sides
(``attackers``, ``defenders``) or ``player_0``, ``player_1``, ... where
players are only numbered. Each observation is a dictionary of the agent's
observation tensor and its legal-action mask, as PettingZoo's classic games
have it; actions are the game's action ids. Chance events are drawn from the
seed given to ``reset``. A simultaneous choice is taken as consecutive turns,
player 0 first, in which each later player still sees the state before any
of the choices. A move that takes several decisions is several turns of the
same agent.
"""

from __future__ import annotations

import random
from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import norn


def env(name: str, rules: str = "", render_mode: Optional[str] = None) -> "NornAECEnv":
    """The AEC environment of norn game ``name`` under ``rules``."""
    return NornAECEnv(name, rules, render_mode)


class NornAECEnv(AECEnv):
    """See the module docs."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, name: str, rules: str = "", render_mode: Optional[str] = None):
        super().__init__()
        self.game = norn.load_game(name, rules)
        self.metadata = dict(self.metadata, name=f"norn_{name.replace('-', '_')}")
        self.render_mode = render_mode
        players = self.game.num_players()
        sides = self.game.info.sides
        self.possible_agents = (
            list(sides) if len(sides) == players else [f"player_{p}" for p in range(players)]
        )
        self._player = {agent: p for p, agent in enumerate(self.possible_agents)}
        shape = tuple(self.game.observation_tensor_shape())
        actions = self.game.num_distinct_actions()
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape, np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(actions)
        self._rng = random.Random(0)
        self._state = self.game.new_initial_state()
        self._joint: list[int] = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def _acting_player(self) -> int:
        state = self._state
        if state.is_simultaneous_node():
            return len(self._joint)
        return state.current_player()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self._player[agent]
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if not self._state.is_terminal() and player == self._acting_player():
            mask[self._state.legal_actions(player)] = 1
        return {"observation": self._state.observation_tensor(player), "action_mask": mask}

    def _draw_chance(self) -> None:
        state = self._state
        while state.is_chance_node():
            state.apply_action(norn.sample_chance_outcome(state, self._rng))

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self._state = self.game.new_initial_state()
        self._joint = []
        self._draw_chance()
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._acting_player()]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state
        player = self._player[agent]
        action = int(action)
        if action not in state.legal_actions(player):
            raise ValueError(f"action {action} is not legal for {agent} here")
        self._cumulative_rewards[agent] = 0.0
        if state.is_simultaneous_node():
            self._joint.append(action)
            if len(self._joint) == state.num_players():
                state.apply_actions(self._joint)
                self._joint = []
        else:
            state.apply_action(action)
        self._draw_chance()
        self._clear_rewards()
        if state.is_terminal():
            for agent_name, payoff in zip(self.possible_agents, state.returns()):
                self.rewards[agent_name] = float(payoff)
                self.terminations[agent_name] = True
        else:
            self.agent_selection = self.possible_agents[self._acting_player()]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> Optional[str]:
        """The position as text; in a game with hidden information, what
        the selected agent sees (its own observation), never every hand."""
        if self.render_mode != "ansi":
            return None
        if self.game.info.hidden_information:
            return self._state.observation_string(self._player[self.agent_selection])
        return str(self._state)

    def close(self) -> None:
        pass
