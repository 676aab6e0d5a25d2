"""norn's games as OpenSpiel Python games.

``register()`` registers every norn game with ``pyspiel`` as ``norn_<name>``
(dashes become underscores: ``norn_hnefatafl``, ``norn_fenrir_path``), after
which ``pyspiel.load_game("norn_hnefatafl")`` gives a game that OpenSpiel's
Python algorithms (and its C++ algorithms, through the Python-game bridge)
play. Rules are the game parameter ``rules``, in norn's ``key=value,...``
text: ``pyspiel.load_game("norn_hnefatafl", {"rules": "ply-limit=60"})``.

The game types: sequential or simultaneous as the game is; explicit chance
for games with a deal; imperfect information for Fetters of Fenrir's hidden
hands; zero-sum utility for the two-sided games (Thud's score margins sum to
zero as well), identical utility for the cooperative ones. OpenSpiel needs a
bound on a game's length: where norn's rules set none (Stealth Chess without
a ply limit) the bound given is ``UNBOUNDED_LENGTH``.
"""

from __future__ import annotations

import numpy as np
import pyspiel

import norn

#: The game length OpenSpiel is told where the rules bound none.
UNBOUNDED_LENGTH = 1_000_000


def short_name(name: str) -> str:
    """The name a norn game is registered under."""
    return "norn_" + name.replace("-", "_")


def _game_type(info: norn.GameInfo) -> pyspiel.GameType:
    kind = pyspiel.GameType
    utility = {
        "win-loss": kind.Utility.ZERO_SUM,
        "margin": kind.Utility.ZERO_SUM,
        "team": kind.Utility.IDENTICAL,
    }[info.scoring]
    game = norn.load_game(info.name)
    players = game.num_players()
    return kind(
        short_name=short_name(info.name),
        long_name=f"norn {info.title}",
        dynamics=kind.Dynamics.SIMULTANEOUS
        if info.simultaneous_moves
        else kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC
        if info.chance
        else kind.ChanceMode.DETERMINISTIC,
        information=kind.Information.IMPERFECT_INFORMATION
        if info.hidden_information
        else kind.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=kind.RewardModel.TERMINAL,
        # Games whose players are only numbered take their count from the
        # rules (Fetters of Fenrir's `players`).
        max_num_players=players if info.sides else 64,
        min_num_players=players if info.sides else 1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"rules": ""},
    )


class NornGame(pyspiel.Game):
    """A norn game seen by OpenSpiel; the subclass for each game is made by
    ``register``."""

    norn_name = ""
    game_type: pyspiel.GameType

    def __init__(self, params=None):
        params = dict(params or {})
        rules = str(params.get("rules", ""))
        self.norn_game = norn.load_game(self.norn_name, rules)
        game = self.norn_game
        length = game.max_game_length()
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions(),
            max_chance_outcomes=game.max_chance_outcomes(),
            num_players=game.num_players(),
            min_utility=game.min_utility(),
            max_utility=game.max_utility(),
            utility_sum=0.0 if game.info.scoring != "team" else None,
            max_game_length=length if length is not None else UNBOUNDED_LENGTH,
        )
        super().__init__(self.game_type, info, {"rules": rules})

    def new_initial_state(self):
        return NornState(self, self.norn_game.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return NornObserver(self.norn_game, perfect_recall)


class NornState(pyspiel.State):
    """A norn state seen by OpenSpiel."""

    def __init__(self, game: NornGame, inner: norn.State):
        super().__init__(game)
        self.inner = inner

    def current_player(self):
        return self.inner.current_player()

    def _legal_actions(self, player):
        return self.inner.legal_actions(player)

    def chance_outcomes(self):
        return self.inner.chance_outcomes()

    def _apply_action(self, action):
        self.inner.apply_action(action)

    def _apply_actions(self, actions):
        self.inner.apply_actions(list(actions))

    def _action_to_string(self, player, action):
        if player < 0:
            return self.inner.action_to_string(action)
        return self.inner.action_to_string(player, action)

    def is_terminal(self):
        return self.inner.is_terminal()

    def returns(self):
        return self.inner.returns()

    def __str__(self):
        return str(self.inner)

    def __deepcopy__(self, memo):
        return NornState(self.get_game(), self.inner.clone())


class NornObserver:
    """OpenSpiel's observer of a norn game: the observation tensor and
    string, or (with perfect recall) the information-state string."""

    def __init__(self, game: norn.Game, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        shape = tuple(game.observation_tensor_shape())
        size = 0 if perfect_recall else int(np.prod(shape))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: NornState, player: int):
        if not self.perfect_recall:
            self.tensor[:] = state.inner.observation_tensor(player).ravel()

    def string_from(self, state: NornState, player: int) -> str:
        if self.perfect_recall:
            return state.inner.information_state_string(player)
        return state.inner.observation_string(player)


def register() -> list[str]:
    """Registers every norn game with pyspiel (once); returns the names."""
    names = []
    registered = set(pyspiel.registered_names())
    for info in norn.games():
        name = short_name(info.name)
        names.append(name)
        if name in registered:
            continue
        game_type = _game_type(info)
        game_class = type(
            f"Norn_{info.name.replace('-', '_')}",
            (NornGame,),
            {"norn_name": info.name, "game_type": game_type},
        )
        pyspiel.register_game(game_type, game_class)
    return names
