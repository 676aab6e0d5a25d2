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
    State,
    VectorGame,
    agent,
    games,
    load_game,
    tournament,
)

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "Agent",
    "Game",
    "GameInfo",
    "State",
    "VectorGame",
    "agent",
    "games",
    "load_game",
    "tournament",
]
