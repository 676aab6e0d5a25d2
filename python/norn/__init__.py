"""norn: Norse games for game-playing AI research, from Python.

The games, agents and experiments run in Rust; this package gives them an
API shaped after OpenSpiel's ``pyspiel``::

    import norn
    game = norn.load_game("hnefatafl")
    state = game.new_initial_state()
    bot = norn.agent("mcts:iters=200", game, seed=1)
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    print(state.returns())

Adapters for OpenSpiel (``norn.openspiel``), PettingZoo (``norn.pettingzoo``)
and Gymnasium (``norn.gym``) are imported on demand, so that each needs its
own library only when used.
"""

from ._norn import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Agent,
    Game,
    GameInfo,
    Network,
    State,
    VectorGame,
    agent,
    games,
    guided_search,
    load_game,
    match,
    self_play,
    solve,
    solve_matrix,
    tournament,
    train,
    winrate,
)



def sample_chance_outcome(state, rng):
    """A chance outcome of ``state`` (a chance node), drawn with its
    probability by ``rng``, a ``random.Random``. Raises ValueError at any
    other node."""
    if not state.is_chance_node():
        raise ValueError("the state is not a chance node: nature does not act here")
    outcomes, weights = zip(*state.chance_outcomes())
    return rng.choices(outcomes, weights)[0]


def apply_random_action(state, rng):
    """One step of a random playout with ``rng``: a chance outcome drawn by
    its probability, one uniform choice per player at a simultaneous node,
    or a uniform legal action of the player to move. Raises ValueError once
    the game is over."""
    if state.is_chance_node():
        state.apply_action(sample_chance_outcome(state, rng))
    elif state.is_simultaneous_node():
        state.apply_actions(
            [rng.choice(state.legal_actions(p)) for p in range(state.num_players())]
        )
    else:
        # No legal action is left only at the end (asked here rather than
        # first: this runs at every step of a playout).
        legal = state.legal_actions()
        if not legal:
            raise ValueError("the game is already over: no action to take")
        state.apply_action(rng.choice(legal))


__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "Agent",
    "Game",
    "GameInfo",
    "Network",
    "State",
    "VectorGame",
    "agent",
    "apply_random_action",
    "games",
    "guided_search",
    "load_game",
    "match",
    "sample_chance_outcome",
    "self_play",
    "solve",
    "solve_matrix",
    "tournament",
    "train",
    "winrate",
]
