"""norn's games as OpenSpiel Python games.

``register()`` registers every norn game with ``pyspiel`` as ``norn_<name>``
(dashes become underscores: ``norn_hnefatafl``, ``norn_fenrir_path``), after
which ``pyspiel.load_game("norn_hnefatafl")`` gives a game that OpenSpiel's
Python algorithms (and its C++ algorithms, through the Python-game bridge)
play.

Two game parameters, both text, both optional:

- ``rules``: norn's ``key=value,...`` rules,
  ``pyspiel.load_game("norn_hnefatafl", {"rules": "ply-limit=60"})``;
- ``position``: the start, in the game's own position text (what
  ``norn.State.position()`` writes and ``norn show`` reads).

OpenSpiel writes a game as ``name(key=value,...)``, which cannot hold the
``=`` and ``,`` of rules, so a game keeps its parameters percent-encoded
(``rules=ply-limit%3D60``): ``str(game)`` then loads back, and
serialized states and pickles with it. Both forms are read; a ``%`` in a
plain parameter is written ``%25``.

The game types: sequential or simultaneous as the game is; explicit chance
for games with a deal; imperfect information for Fetters of Fenrir's hidden
hands; zero-sum utility for the two-sided games (Thud's score margins sum to
zero as well), identical utility for the cooperative ones. OpenSpiel needs a
bound on a game's length: where norn's rules set none (Stealth Chess without
a ply limit) the bound given is ``UNBOUNDED_LENGTH``.

Each game is a class of this module (``NornHnefataflGame``, ...), made at
import for every game ``norn.games()`` lists, so that pickle finds it.
"""

from __future__ import annotations

import re

import numpy as np
import pyspiel

import norn

#: The game length OpenSpiel is told where the rules bound none.
UNBOUNDED_LENGTH = 1_000_000

#: The game parameters every norn game takes, with their defaults.
PARAMETERS = {"rules": "", "position": ""}

# Characters OpenSpiel's game strings give a meaning to, and `%` itself.
_RESERVED = re.compile(r"[%=,()\"\x00-\x1f]")


def short_name(name: str) -> str:
    """The name a norn game is registered under."""
    return "norn_" + name.replace("-", "_")


def class_name(name: str) -> str:
    """The name of the class of norn game ``name`` in this module."""
    return "Norn" + "".join(part.capitalize() for part in name.split("-")) + "Game"


def encode_parameter(text: str) -> str:
    """``text`` as a game-string parameter that reads back as the same
    text: OpenSpiel's reserved characters percent-encoded, and the first
    character too where the text would read as a number or a boolean."""
    encoded = _RESERVED.sub(lambda match: f"%{ord(match.group()):02X}", text)
    if encoded and _reads_as_other_than_text(encoded):
        encoded = f"%{ord(encoded[0]):02X}{encoded[1:]}"
    return encoded


def _reads_as_other_than_text(text: str) -> bool:
    if text in ("True", "False", "true", "false"):
        return True
    try:
        float(text)
    except ValueError:
        return False
    return True


def decode_parameter(value) -> str:
    """A parameter as given: plain text or ``encode_parameter``'s form (or a
    number or boolean that OpenSpiel read from a game string)."""
    return re.sub(
        r"%([0-9A-Fa-f]{2})", lambda match: chr(int(match.group(1), 16)), str(value)
    )


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
        parameter_specification=dict(PARAMETERS),
    )


class NornGame(pyspiel.Game):
    """A norn game seen by OpenSpiel; each game is a subclass (see the
    module docs)."""

    norn_name = ""
    game_type: pyspiel.GameType

    def __init__(self, params=None):
        params = dict(params or {})
        unknown = sorted(set(params) - set(PARAMETERS))
        if unknown:
            raise ValueError(
                f"{short_name(self.norn_name)} takes the parameters "
                f"{', '.join(PARAMETERS)}, not {', '.join(unknown)}"
            )
        self.rules = decode_parameter(params.get("rules", ""))
        self.position = decode_parameter(params.get("position", "")) or None
        self.norn_game = norn.load_game(self.norn_name, self.rules)
        game = self.norn_game
        # Read here, so that a bad position is refused when the game is made.
        game.new_initial_state(self.position)
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
        given = {"rules": self.rules}
        if self.position is not None:
            given["position"] = self.position
        super().__init__(
            self.game_type,
            info,
            {key: encode_parameter(value) for key, value in given.items()},
        )

    def new_initial_state(self):
        return NornState(self, self.norn_game.new_initial_state(self.position))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return NornObserver(self.norn_game, iig_obs_type)

    def __reduce__(self):
        parameters = {"rules": self.rules}
        if self.position is not None:
            parameters["position"] = self.position
        return (type(self), (parameters,))


class NornState(pyspiel.State):
    """A norn state seen by OpenSpiel. ``inner`` is the ``norn.State``,
    which norn's agents and solvers take (they also take this state)."""

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
    """OpenSpiel's observer of a norn game, giving what the observation type
    asks for and no more:

    - the public information alone (``private_info=NONE``): the public
      observation (tensor and string), or with perfect recall the public
      information state string;
    - the player's own view (``SINGLE_PLAYER``, the default): its
      observation tensor and string, or with perfect recall its
      information-state string;
    - every player's private information (``ALL_PLAYERS``): the same as a
      player's view where nothing is hidden, refused (ValueError) in a game
      with hidden information.

    An observation without the public information, and an
    information-state tensor, are refused: norn's observations always
    include the public facts, and it has no information-state tensor
    (``information_state_string`` holds that information).
    """

    def __init__(self, game: norn.Game, iig_obs_type=None):
        kind = pyspiel.PrivateInfoType
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        public = iig_obs_type is None or iig_obs_type.public_info
        private = kind.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if not public:
            raise ValueError(
                "norn's observations always include the public information: "
                "ask for public_info=True"
            )
        if private == kind.ALL_PLAYERS and game.info.hidden_information:
            raise ValueError(
                f"{game.name} hides information: no observation holds every "
                "player's private information"
            )
        self.perfect_recall = perfect_recall
        self.public_only = private == kind.NONE
        shape = tuple(game.observation_tensor_shape())
        size = 0 if perfect_recall else int(np.prod(shape))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: NornState, player: int):
        if self.perfect_recall:
            raise ValueError(
                "norn gives no information-state tensor: use information_state_string "
                "or the observation tensor"
            )
        if self.public_only:
            tensor = state.inner.public_observation_tensor()
        else:
            tensor = state.inner.observation_tensor(player)
        self.tensor[:] = tensor.ravel()

    def string_from(self, state: NornState, player: int) -> str:
        inner = state.inner
        if self.public_only:
            if self.perfect_recall:
                return inner.public_information_state_string()
            return inner.public_observation_string()
        if self.perfect_recall:
            return inner.information_state_string(player)
        return inner.observation_string(player)


def _make_class(info: norn.GameInfo) -> type:
    name = class_name(info.name)
    game_class = type(
        name,
        (NornGame,),
        {
            "norn_name": info.name,
            "game_type": _game_type(info),
            "__module__": __name__,
            "__qualname__": name,
            "__doc__": f"norn's {info.title} as an OpenSpiel game.",
        },
    )
    globals()[name] = game_class
    return game_class


#: Every norn game's class, by norn's name of the game.
GAME_CLASSES = {info.name: _make_class(info) for info in norn.games()}


def register() -> list[str]:
    """Registers every norn game with pyspiel (once); returns the names."""
    names = []
    registered = set(pyspiel.registered_names())
    for game_class in GAME_CLASSES.values():
        name = game_class.game_type.short_name
        names.append(name)
        if name not in registered:
            pyspiel.register_game(game_class.game_type, game_class)
    return names
