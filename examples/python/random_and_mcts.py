"""A random game of Thud, then MCTS against a random player on Hnefatafl."""

import random

import norn

game = norn.load_game("thud", "ply-limit=100")
state = game.new_initial_state()
rng = random.Random(1)
while not state.is_terminal():
    state.apply_action(rng.choice(state.legal_actions()))
print(f"random Thud: {len(state.history())} actions, returns {state.returns()}")

game = norn.load_game("hnefatafl", "ply-limit=200")
players = [norn.agent("mcts:iters=300", game, seed=1), norn.agent("random", game, seed=2)]
state = game.new_initial_state()
while not state.is_terminal():
    state.apply_action(players[state.current_player()].step(state))
print(state)
print(f"MCTS (attackers) against random: returns {state.returns()}")
