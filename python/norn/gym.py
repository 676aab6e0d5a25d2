"""A norn game as a single-agent Gymnasium environment against a norn agent.

``NornEnv(game, opponent="random")`` plays one seat of ``game``; the other
seats are played by ``opponent`` (any agent spec the command line takes),
and chance events are drawn from the environment's seed. Observations are
dictionaries of the seat's observation tensor and its legal-action mask;
actions are the game's action ids (``Discrete(num_distinct_actions)``).

An action that is not legal ends the episode as a loss for the learner
(the lowest payoff of the game) with ``info["illegal_action"] = True``:
a learner that follows the mask never meets it.
"""

from __future__ import annotations

import random
from typing import Any, Optional

import gymnasium
import numpy as np
from gymnasium import spaces

import norn


class NornEnv(gymnasium.Env):
    """One seat of a norn game against a norn agent (see the module docs).

    ``seat`` is the learner's player number; ``None`` alternates the seat
    from one episode to the next, player 0 first.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str = "hnefatafl",
        opponent: str = "random",
        rules: str = "",
        seat: Optional[int] = None,
        render_mode: Optional[str] = None,
    ):
        self.game = norn.load_game(game, rules)
        self.opponent_spec = opponent
        self.fixed_seat = seat
        self.render_mode = render_mode
        players = self.game.num_players()
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not one of the players 0 to {players - 1}")
        # Built once here so that a bad spec is refused at construction.
        self._opponent = self.game.agent(opponent, 0)
        shape = tuple(self.game.observation_tensor_shape())
        actions = self.game.num_distinct_actions()
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape, np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(actions)
        self._episodes = 0
        self._rng = random.Random(0)
        self._state = self.game.new_initial_state()
        self._seat = 0

    def _observe(self) -> dict[str, np.ndarray]:
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if self._state.is_terminal():
            tensor = self._state.observation_tensor(self._seat)
        else:
            mask[self._state.legal_actions(self._seat)] = 1
            tensor = self._state.observation_tensor(self._seat)
        return {"observation": tensor, "action_mask": mask}

    def _learner_decides(self) -> bool:
        state = self._state
        return state.is_simultaneous_node() or state.current_player() == self._seat

    def _play_others(self) -> None:
        """Plays chance and the opponent until the learner decides or the
        game ends."""
        state = self._state
        while not state.is_terminal() and not self._learner_decides():
            if state.is_chance_node():
                state.apply_action(norn.sample_chance_outcome(state, self._rng))
            else:
                state.apply_action(self._opponent.step(state))

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
            self._opponent = self.game.agent(self.opponent_spec, seed)
            self._episodes = 0
        players = self.game.num_players()
        self._seat = (
            self.fixed_seat if self.fixed_seat is not None else self._episodes % players
        )
        self._episodes += 1
        self._opponent.reset()
        self._state = self.game.new_initial_state()
        self._play_others()
        return self._observe(), {"seat": self._seat}

    def step(self, action: Any):
        state = self._state
        action = int(action)
        if state.is_simultaneous_node():
            legal = state.legal_actions(self._seat)
        else:
            legal = state.legal_actions()
        if action not in legal:
            worst = -1.0 if self.game.info.scoring != "team" else 0.0
            return self._observe(), worst, True, False, {"illegal_action": True}
        if state.is_simultaneous_node():
            joint = [
                action if player == self._seat else self._opponent.step(state, player)
                for player in range(state.num_players())
            ]
            state.apply_actions(joint)
        else:
            state.apply_action(action)
        self._play_others()
        terminated = state.is_terminal()
        reward = float(state.returns()[self._seat]) if terminated else 0.0
        return self._observe(), reward, terminated, False, {"seat": self._seat}

    def render(self):
        """The position as text; in a game with hidden information, what
        the learner's seat sees (its own observation), never every hand."""
        if self.render_mode != "ansi":
            return None
        if self.game.info.hidden_information:
            return self._state.observation_string(self._seat)
        return str(self._state)

    def action_masks(self) -> np.ndarray:
        """The legal-action mask, as MaskablePPO and similar learners ask."""
        return self._observe()["action_mask"].astype(bool)
