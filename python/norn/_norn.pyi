"""Type stubs of the norn extension module."""

from typing import Any, Callable, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

CHANCE: int
SIMULTANEOUS: int
TERMINAL: int

#: A Python agent of an experiment: a callable from a state (and, at a
#: simultaneous node, the player) to an action id, named by its
#: ``__name__``, or a ``(name, callable)`` pair.
PythonAgent = Union[Callable[..., int], Tuple[str, Callable[..., int]]]

class GameInfo:
    """What the registry says about one game."""

    name: str
    title: str
    sides: list[str]
    chance: bool
    hidden_information: bool
    simultaneous_moves: bool
    scoring: str

def games() -> list[GameInfo]:
    """Every game norn knows, with its sides and capabilities."""

def load_game(name: str, rules: str = "") -> Game:
    """Loads a game by name under ``key=value,...`` rules (empty: defaults)."""

def agent(spec: str, game: Game, seed: int = 0) -> Agent:
    """Builds an agent for ``game`` from a spec such as ``mcts:iters=2000``."""

def tournament(
    game: str,
    agents: Sequence[Union[str, PythonAgent]],
    games: int = 2,
    seed: int = 0,
    rules: str = "",
    threads: int = 1,
    openings: Optional[str] = None,
    max_plies: Optional[int] = None,
    out: Optional[str] = None,
    gauntlet: Optional[Union[str, PythonAgent]] = None,
    anchor: Optional[str] = None,
) -> dict[str, Any]:
    """Runs a round-robin tournament as ``norn tournament`` does; returns its
    summary (the command's ``--json`` output). ``openings``: ``None`` for the
    game's built-in set, ``"start"``, ``"random:N"`` or a position.
    ``gauntlet``: an agent that plays each of ``agents`` (the baselines),
    which do not play each other; ratings are then anchored on the first
    baseline unless ``anchor`` names another agent. An agent listed twice
    plays itself (its second seat is named ``SPEC #2``). An agent may be a
    Python callable (``PythonAgent``), called for each of its decisions;
    one that raises or returns an illegal id forfeits the game, and the
    summary's ``forfeits`` list says why."""

def match(
    game: str,
    tested: Union[str, PythonAgent],
    baseline: Union[str, PythonAgent],
    elo0: float = 0.0,
    elo1: float = 10.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_games: int = 20000,
    seed: int = 0,
    rules: str = "",
    threads: int = 1,
    openings: Optional[str] = None,
    max_plies: Optional[int] = None,
    out: Optional[str] = None,
) -> dict[str, Any]:
    """Plays ``tested`` against ``baseline`` in colour-swapped pairs until
    the sequential probability ratio test of ``elo0`` against ``elo1``
    decides (or ``max_games`` are played), as ``norn match`` does; returns
    its report (the command's ``--json`` output, with ``forfeits``)."""

def winrate(
    game: str,
    policies: Sequence[str],
    deals: int = 1000,
    seed: int = 0,
    rules: str = "",
    threads: int = 1,
    deal: Optional[str] = None,
    sweep: Optional[str] = None,
    sweep_step: Optional[int] = None,
    shard: Optional[str] = None,
    out: Optional[str] = None,
    force_resume: bool = False,
) -> dict[str, Any]:
    """Runs a win-rate experiment of a cooperative game as ``norn winrate``
    does; returns its summary (the command's ``--json`` output). Policies
    are ``exact`` or agent specs; ``sweep`` is ``OPTION=A..B``; ``shard``
    is ``I/N`` and needs ``out``, the run directory (resumed when it holds
    the same run)."""

def solve(
    state: Any,
    rounds: Optional[int] = None,
    budget: Optional[int] = None,
    retrograde: bool = False,
    out: Optional[str] = None,
) -> dict[str, Any]:
    """Solves ``state`` exactly as ``norn solve`` does; returns its report
    (the command's ``--json`` output). A team's position (a cooperative
    game without a deal under way): whether it can force a win, with a
    winning line and, given ``budget``, the bounds of the game's
    objectives. A simultaneous-move position: the ``value`` to player 0 and
    both players' optimal strategies over ``rounds`` rounds (the game
    beyond counting as a draw), or over the whole game by the game's
    retrograde analysis (``retrograde=True``, tables saved to ``out``)."""

def solve_matrix(payoffs: Sequence[Sequence[float]]) -> dict[str, Any]:
    """Solves the two-player zero-sum game whose payoffs to the row player
    are ``payoffs`` (a list of rows): the ``value`` to the row player and
    the optimal mixed strategies ``row_strategy`` and ``col_strategy``."""

def guided_search(
    states: Union[Sequence[State], VectorGame],
    evaluator: Union[Network, Callable[[Any, Any], tuple[Any, Any]]],
    options: str = "",
    seed: int = 0,
    value_layout: Optional[str] = None,
) -> tuple[Any, Any, Any]:
    """Searches every state (or every environment's next decision of a
    ``VectorGame``) in one batched guided search, ``evaluator(observations,
    masks) -> (logits, values)`` answering for all their leaves at once
    (or a ``Network``, run in Rust without the interpreter, refused if made
    for another game, rules or shapes); ``options`` are the ``az`` agent's
    search options. Returns the search
    policies ``[states, num_distinct_actions]``, the chosen actions and the
    root values."""

def self_play(
    game: Game,
    out: str,
    games: int = 100,
    options: str = "",
    evaluator: Optional[Union[Network, Callable[[Any, Any], tuple[Any, Any]]]] = None,
    seed: int = 0,
    batch: int = 64,
    shard_samples: int = 100000,
    value_layout: Optional[str] = None,
) -> dict[str, Any]:
    """Plays ``games`` games by the guided search against itself, guided
    by ``evaluator`` (a function as ``guided_search`` takes, or a
    ``Network``) or else by the evaluator ``options`` name, and writes
    every decision as a training sample into ``out`` (``.npz``
    shards and ``manifest.json``); returns the manifest."""

def train(
    game: str,
    out: str,
    generations: Optional[int] = None,
    minutes: Optional[float] = None,
    games_per_generation: int = 64,
    sims: Optional[int] = None,
    puct: bool = False,
    search: str = "",
    arch: str = "",
    learning_rate: Optional[float] = None,
    training: str = "",
    batch_size: int = 256,
    buffer: int = 100000,
    steps: Optional[int] = None,
    threads: int = 1,
    seed: int = 0,
    rules: str = "",
    workers: Optional[int] = None,
    wait: float = 600.0,
    force_resume: bool = False,
    eval_every: Optional[int] = None,
    eval_games: int = 20,
    baselines: Optional[list[str]] = None,
) -> dict[str, Any]:
    """Trains a network by self-play in the run directory ``out`` as
    ``norn train`` does (``eval_every``, ``eval_games`` and ``baselines``
    as its ``--eval-every``, ``--eval-games`` and ``--baselines``),
    starting or resuming the run; returns its report: the last
    checkpoint's record, ``trained``, every checkpoint's record, and
    ``ratings`` and ``win_rates`` (``None`` where not evaluated). Ctrl-C
    stops it before the next training step or round of self-play's
    searches (KeyboardInterrupt)."""

class Game:
    """A game under fixed rules: the factory of its states and agents."""

    @property
    def name(self) -> str: ...
    @property
    def info(self) -> GameInfo: ...
    @property
    def rules(self) -> str: ...
    def num_players(self) -> int: ...
    def num_distinct_actions(self) -> int: ...
    def min_utility(self) -> float: ...
    def max_utility(self) -> float: ...
    def max_chance_outcomes(self) -> int: ...
    def observation_tensor_shape(self) -> list[int]: ...
    def observation_tensor_size(self) -> int: ...
    def max_game_length(self) -> Optional[int]: ...
    def new_initial_state(self, position: Optional[str] = None) -> State: ...
    def agent(self, spec: str, seed: int = 0) -> Agent: ...

class State:
    """A state of a game, seen through action ids as in OpenSpiel."""

    def get_game(self) -> Game: ...
    def num_players(self) -> int: ...
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def is_simultaneous_node(self) -> bool: ...
    def is_player_node(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def legal_actions(self, player: Optional[int] = None) -> list[int]: ...
    def legal_actions_mask(self, player: Optional[int] = None) -> list[int]: ...
    def apply_action(self, action: int) -> None: ...
    def apply_actions(self, actions: Sequence[int]) -> None: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def observation_tensor(self, player: Optional[int] = None) -> npt.NDArray[np.float32]: ...
    def public_observation_tensor(self) -> npt.NDArray[np.float32]: ...
    def public_observation_string(self) -> str: ...
    def public_information_state_string(self) -> str: ...
    def observation_string(self, player: Optional[int] = None) -> str: ...
    def information_state_string(self, player: Optional[int] = None) -> str: ...
    def action_to_string(self, first: int, second: Optional[int] = None) -> str: ...
    def string_to_action(self, first: Union[int, str], second: Optional[str] = None) -> int: ...
    def history(self) -> list[int]: ...
    def pending(self) -> list[int]: ...
    def position(self) -> str: ...
    def clone(self) -> State: ...

class Agent:
    """An agent built from a spec, as on the command line."""

    @property
    def spec(self) -> str: ...
    @property
    def configuration(self) -> str: ...
    def step(self, state: Any, player: Optional[int] = None) -> int:
        """The next action id in ``state``: a ``State`` or an OpenSpiel
        state of a norn game. Ctrl-C stops a search (KeyboardInterrupt)."""
    def choose(self, state: Any, player: Optional[int] = None) -> list[int]: ...
    def reset(self) -> None: ...
    def last_search(self) -> Optional[dict[str, Any]]:
        """What the last decision's search found and cost (alpha-beta and
        MCTS): ``seconds``, ``nodes``, ``value`` (the chosen move's value
        for the mover, -1 to 1), ``pv`` (the expected line in the game's
        notation), and ``depth`` or ``iterations`` and ``visit_share``."""

class VectorGame:
    """Many environments of one game, stepped together in Rust."""

    def __init__(
        self,
        name: str,
        num_envs: int,
        seed: int,
        opponent: Optional[str] = None,
        rules: str = "",
        threads: Optional[int] = None,
        max_steps: Optional[int] = None,
        legal: str = "mask",
        copy: bool = False,
    ) -> None:
        """``legal``: ``"mask"`` (``info["action_mask"]``), ``"ids"``
        (``info["legal_ids"]`` and ``info["legal_offsets"]``) or ``"both"``.
        The arrays are the batch's own, written again at every step,
        unless ``copy`` is true."""
    @property
    def num_envs(self) -> int: ...
    @property
    def observation_shape(self) -> list[int]: ...
    @property
    def num_distinct_actions(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    def reset(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]: ...
    def step(
        self, actions: Union[Sequence[int], npt.NDArray[np.int64]]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]: ...

class Network:
    """A policy-value network of norn (docs/learning.md): load a file or
    build one from numpy arrays, then ``logits, values = net(observations)``."""

    @staticmethod
    def load(path: str) -> Network: ...
    @staticmethod
    def init(game: Game, seed: int, options: str = "") -> Network: ...
    @staticmethod
    def from_arrays(
        description: Union[str, dict[str, Any]],
        tensors: dict[str, npt.NDArray[np.float32]],
    ) -> Network: ...
    @staticmethod
    def tensor_shapes(
        description: Union[str, dict[str, Any]],
    ) -> list[tuple[str, list[int]]]: ...
    def save(self, path: str) -> None: ...
    @property
    def description(self) -> dict[str, Any]: ...
    @property
    def parameter_count(self) -> int: ...
    @property
    def threads(self) -> int: ...
    def with_threads(self, threads: int) -> Network: ...
    def tensors(self) -> dict[str, npt.NDArray[np.float32]]: ...
    def __call__(
        self, observations: npt.NDArray[np.float32]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]: ...
