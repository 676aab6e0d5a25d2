"""OpenSpiel's own MCTS bot playing norn's Hnefatafl through the adapter."""

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from norn import openspiel

openspiel.register()
game = pyspiel.load_game("norn_hnefatafl", {"rules": "ply-limit=60"})
evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=np.random.RandomState(1))
bots = [
    mcts.MCTSBot(game, 1.4, 50, evaluator, random_state=np.random.RandomState(seed))
    for seed in (1, 2)
]
state = game.new_initial_state()
while not state.is_terminal():
    state.apply_action(bots[state.current_player()].step(state))
print(state)
print("returns:", state.returns())
